r"""Boundary conditions of the optimal mechanism, read in one stated order.

A boundary condition (Gu et al., Theorem 2) fixes the distribution of every boundary node
(Definition 5): one distribution per rainbow (a homogeneous condition, Definition 6) or one per
boundary node. Like every distribution attached to a node or a rainbow in rainbowdp, each is
written in one of two orders (``docs/conventions.md``):

``"outputs"``
    entry j is the probability of ``graph.outputs[j]`` (a row of a
    :class:`~rainbowdp.mechanism.Mechanism`);
``"rainbow"``
    entry k is the probability of the rainbow's k-th preferred output (the vectors
    :math:`\vec m^c` of Gu et al., Definition 3 and Section 4).

:func:`homogeneous_boundary` turns one vector in rainbow order into a condition for every
rainbow. A condition given without an order is read in outputs order (as it always was) and is
checked for the one mix-up that can be seen in the numbers (:data:`PERMUTED_RULE`); every row
shape is a legitimate boundary row, so a single row is never judged on its own.

References
----------
.. [1] Y. Gu, Z. Zhou, O. Günlü, R. G. L. D'Oliveira, P. Sadeghi, M. Médard, R. F. Schaefer,
   "Generalized rainbow differential privacy", Definitions 3, 5, 6 and 8, Theorems 2-3,
   Section 5.3, Example 1.
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from ._validation import check_probability_vector
from .exceptions import (
    InvalidBoundaryError,
    NoOptimalMechanismError,
    ParameterError,
    ParameterTypeError,
    PermutedBoundaryWarning,
)
from .graph import RainbowGraph, check_graph
from .mechanism import Order, check_order

__all__ = ["HOMOGENEITY_ATOL", "PERMUTED_RULE", "homogeneous_boundary"]

#: Two boundary rows of one rainbow are "the same" if they agree within this (Definition 6);
#: also the tolerance on the prefix sums compared by the permuted-order rule.
HOMOGENEITY_ATOL = 1e-12

#: The rule behind :class:`~rainbowdp.exceptions.PermutedBoundaryWarning`, quoted in it.
PERMUTED_RULE = (
    "two rainbows get the same row v over graph.outputs but different vectors in their own "
    "preference orders, and v read in rainbow order would dominate (Gu et al., Definition 3) "
    "the vectors of both, strictly for one of them"
)


def _fmt(vec: np.ndarray) -> str:
    return "[" + ", ".join(f"{x:.6g}" for x in vec.tolist()) + "]"


def _homogeneous(G: RainbowGraph, vector: Any, name: str, error: type[Exception]) -> dict:
    """{rainbow: row in outputs order} with ``vector`` (rainbow order) along every rainbow."""
    q = G.n_outputs
    vec = check_probability_vector(vector, name, size=q, error=error)
    table = G.rainbow_table
    rows = np.empty(table.shape)
    np.put_along_axis(rows, table, np.broadcast_to(vec, table.shape), axis=1)
    return dict(zip(G.rainbows, [row.tolist() for row in rows], strict=True))


def homogeneous_boundary(G: RainbowGraph, vector: Any) -> dict[tuple, list[float]]:
    r"""The homogeneous boundary condition with one vector in rainbow order for every rainbow.

    Parameters
    ----------
    G : RainbowGraph
        The rainbow graph.
    vector : array_like, shape (q,)
        A probability vector in rainbow order: ``vector[k]`` is the probability of each
        rainbow's k-th preferred output (finite, non-negative, summing to 1 within 1e-9).

    Returns
    -------
    dict
        ``{rainbow: row}`` for every rainbow of ``G`` (``G.rainbows``), each row a list
        over ``G.outputs`` (outputs order), ready for
        ``optimal_mechanism(G, ..., boundary=...)``. The same condition is
        ``optimal_mechanism(G, ..., boundary=vector, order="rainbow")``.

    Raises
    ------
    ParameterTypeError
        If ``G`` is not a RainbowGraph or ``vector`` holds non-numbers.
    ParameterError
        If ``vector`` is not a probability vector of length q (the value is echoed).

    References
    ----------
    Gu et al., Definition 6 and Theorem 2; the vector :math:`\tilde m^c` at the end of
    Section 4 is ``vector`` for every rainbow c.

    Examples
    --------
    >>> from rainbowdp import builders
    >>> G = builders.cycle([("blue", "red", "green")] * 3 + [("red", "green", "blue")] * 2)
    >>> G.outputs
    ('blue', 'red', 'green')
    >>> homogeneous_boundary(G, [0.5, 0.3, 0.2])
    {('blue', 'red', 'green'): [0.5, 0.3, 0.2], ('red', 'green', 'blue'): [0.2, 0.5, 0.3]}
    """
    check_graph(G, "G")
    return _homogeneous(G, vector, "vector", ParameterError)


def _to_outputs(row: np.ndarray, table_row: np.ndarray) -> np.ndarray:
    """A row in rainbow order, rewritten over the outputs (``table_row``: the rainbow)."""
    out = np.empty_like(row)
    out[table_row] = row
    return out


def _as_mapping(G: RainbowGraph, boundary: Any, order: Order | None) -> tuple[Mapping, bool]:
    """``(mapping, in_rainbow_order)``: ``boundary`` as a mapping and whether its rows are in
    rainbow order. One vector (with a stated ``order``) becomes ``{rainbow: row}`` over the
    outputs for every rainbow."""
    if order is not None:
        order = check_order(order)
    if isinstance(boundary, Mapping):
        return boundary, order == "rainbow"
    if order is None or isinstance(boundary, str | bytes):
        raise ParameterTypeError(
            "`boundary` must be a mapping {rainbow: distribution} or {boundary "
            "node: distribution}, or one distribution together with order='rainbow' or "
            f"order='outputs', got boundary={boundary!r} with order={order!r}."
        )
    if order == "rainbow":
        return _homogeneous(G, boundary, "boundary", InvalidBoundaryError), False
    q = G.n_outputs
    row = check_probability_vector(boundary, "boundary", size=q, error=InvalidBoundaryError)
    return dict.fromkeys(G.rainbows, row), False


def _key_rainbows(G: RainbowGraph, keys: list) -> list[int | None]:
    """For each key: its rainbow id, -1 for a permutation of the outputs no node has, else
    None (the key is not a rainbow)."""
    q = G.n_outputs
    rb_index = {c: i for i, c in enumerate(G.rainbows)}
    out_set = set(G.outputs)

    def as_rainbow(k: Hashable) -> int | None:
        if not isinstance(k, tuple | list) or len(k) != q:
            return None
        try:
            if set(k) != out_set:
                return None
        except TypeError:
            return None
        return rb_index.get(tuple(k), -1)

    return [as_rainbow(k) for k in keys]


def _boundary_row(
    boundary: Mapping, k: Hashable, q: int, table_row: np.ndarray, in_rainbow_order: bool
) -> np.ndarray:
    """The checked row of key ``k`` over the outputs, normalised to sum 1."""
    row = check_probability_vector(
        boundary[k], f"boundary[{k!r}]", size=q, error=InvalidBoundaryError
    )
    if in_rainbow_order:
        row = _to_outputs(row, table_row)
    return row / row.sum()


def _rows_by_node(
    G: RainbowGraph,
    boundary: Mapping,
    keys: list,
    key_rainbows: list[int | None],
    in_rainbow_order: bool,
    rows: np.ndarray,
) -> None:
    """Fill ``rows`` from a node-wise condition ``{boundary node: distribution}``, checking
    that the keys are boundary nodes, that all of them are given and that the condition is
    homogeneous (Definition 6)."""
    node_index = G.node_index
    rainbows = G.rainbows
    bad = next(
        (k for k, c in zip(keys, key_rainbows, strict=True) if k not in node_index and c is None),
        None,
    )
    if bad is not None:
        raise InvalidBoundaryError(
            f"`boundary` key {bad!r} is neither a rainbow (a tuple of outputs in preference "
            f"order, e.g. one of {rainbows!r}) nor a node of the graph."
        )
    bad = next((k for k in keys if k not in node_index), None)
    if bad is not None:
        raise InvalidBoundaryError(
            f"`boundary` mixes rainbows (e.g. {bad!r}) and nodes as keys; give either "
            "{rainbow: distribution} or {boundary node: distribution}."
        )
    bmask, ids, table, q = G.boundary_mask, G.rainbow_ids, G.rainbow_table, G.n_outputs
    for k in keys:
        i = node_index[k]
        if not bmask[i]:
            raise InvalidBoundaryError(
                f"`boundary` gives a distribution for node {k!r}, which is not a boundary "
                "node (Definition 5); the boundary condition fixes boundary nodes only."
            )
        c = int(ids[i])
        row = _boundary_row(boundary, k, q, table[c], in_rainbow_order)
        if np.isnan(rows[c, 0]):
            rows[c] = row
        elif not np.allclose(rows[c], row, rtol=0.0, atol=HOMOGENEITY_ATOL):
            first = next(kk for kk in keys if ids[node_index[kk]] == c)
            raise NoOptimalMechanismError(
                f"the boundary condition is not homogeneous (Definition 6): boundary nodes "
                f"{first!r} and {k!r} of rainbow {rainbows[c]!r} get different "
                f"distributions {rows[c].tolist()} and {row.tolist()}"
                + (" (in outputs order)" if in_rainbow_order else "")
                + ". Without homogeneity an optimal (dominating) mechanism need not exist "
                "(Gu et al., Example 1); use rainbowdp.design.lp for a utility-specific "
                "optimum."
            )
    missing = np.flatnonzero(bmask & ~np.isin(np.arange(G.n_nodes), [node_index[k] for k in keys]))
    if missing.size:
        raise InvalidBoundaryError(
            f"`boundary` gives no distribution for boundary node "
            f"{G.nodes[int(missing[0])]!r}; a node-wise boundary condition must list "
            "every boundary node."
        )


def resolve_boundary(
    G: RainbowGraph, boundary: Any, needs: np.ndarray, order: Order | None
) -> np.ndarray:
    """(R, q) boundary rows in outputs order (NaN rows for rainbows that need none).

    ``boundary`` is a mapping (by rainbow or by boundary node) or, with a stated ``order``, one
    vector for every rainbow; ``order=None`` reads outputs order. Raises as
    :func:`rainbowdp.optimal.optimal_mechanism` documents.
    """
    mapping, in_rainbow_order = _as_mapping(G, boundary, order)
    table = G.rainbow_table
    r, q = table.shape[0], G.n_outputs
    rows = np.full((r, q), np.nan)
    keys = list(mapping)
    key_rainbows = _key_rainbows(G, keys)
    if all(c is not None for c in key_rainbows):
        for k, c in zip(keys, key_rainbows, strict=True):
            if c is not None and c >= 0:
                rows[c] = _boundary_row(mapping, k, q, table[c], in_rainbow_order)
            else:  # a rainbow no node has: checked, accepted and unused
                check_probability_vector(
                    mapping[k], f"boundary[{k!r}]", size=q, error=InvalidBoundaryError
                )
    else:
        _rows_by_node(G, mapping, keys, key_rainbows, in_rainbow_order, rows)
    lacking = np.flatnonzero(needs & np.isnan(rows[:, 0]))
    if lacking.size:
        raise InvalidBoundaryError(
            f"`boundary` gives no distribution for rainbow {G.rainbows[int(lacking[0])]!r}, "
            "which has boundary nodes; every such rainbow needs one."
        )
    return rows


def read_in_rainbow_order(G: RainbowGraph, rows: np.ndarray) -> np.ndarray:
    """The other reading of ``rows`` ((R, q), outputs order): each row taken as rainbow order.

    Row c of the result puts ``rows[c, k]`` on the k-th preferred output of rainbow c (NaN rows
    stay NaN).
    """
    out = np.empty_like(rows)
    np.put_along_axis(out, G.rainbow_table, rows, axis=1)
    return out


def permuted_pair(G: RainbowGraph, rows: np.ndarray, needs: np.ndarray) -> str | None:
    """Describe two rainbows whose rows look permuted (:data:`PERMUTED_RULE`), or ``None``.

    ``rows`` are the (R, q) rows in outputs order of :func:`resolve_boundary`; only rainbows
    with ``needs`` (those that have boundary nodes) are compared. Groups of equal rows are
    found with one ``np.unique``; in a group with row v, rainbow c gets the rainbow-order
    vector ``v[table[c]]`` and would get v itself under the other reading, so the rule compares
    the prefix sums of v with those of ``v[table[c]]``.

    It never fires on a single rainbow (no row shape is suspect on its own: Gu et al. put the
    largest mass on the least preferred output in Section 5.3 and Example 1), nor on a
    condition that gives every rainbow the same vector in rainbow order
    (:func:`homogeneous_boundary`), nor when every row is non-increasing along its rainbow:
    two rainbows with the same row then get the same vector (the values of v sorted in
    decreasing order).
    """
    ids = np.flatnonzero(needs & ~np.isnan(rows[:, 0]))
    if ids.size < 2:
        return None
    uniq, inverse = np.unique(rows[ids], axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    counts = np.bincount(inverse, minlength=uniq.shape[0])
    table = G.rainbow_table
    rainbows = G.rainbows
    for g in np.flatnonzero(counts >= 2).tolist():
        members = ids[inverse == g]
        v = uniq[g]
        given = v[table[members]]  # (m, q): what each member gets, in its preference order
        sv = np.cumsum(v)[None, :-1]
        sg = np.cumsum(given, axis=1)[:, :-1]
        dom = np.all(sv >= sg - HOMOGENEITY_ATOL, axis=1)
        strict = dom & np.any(sv > sg + HOMOGENEITY_ATOL, axis=1)
        if not strict.any():
            continue
        # a pair (a, b): both dominated, a strictly, a and b with different vectors; if the
        # first strict a has no such b, every dominated member has a's vector and none has
        a = int(np.flatnonzero(strict)[0])
        other = dom & np.any(np.abs(sg - sg[a]) > HOMOGENEITY_ATOL, axis=1)
        if not other.any():
            continue
        b = int(np.flatnonzero(other)[0])
        ca, cb = int(members[a]), int(members[b])
        return (
            f"rainbows {rainbows[ca]!r} and {rainbows[cb]!r} get the same row {_fmt(v)} over "
            f"graph.outputs {G.outputs!r}, so rainbow {rainbows[ca]!r} gets {_fmt(given[a])} "
            f"in its own preference order; read in rainbow order, the row would give each of "
            f"them {_fmt(v)}"
        )
    return None


def warn_if_permuted(
    G: RainbowGraph, rows: np.ndarray, needs: np.ndarray, *, stacklevel: int = 2
) -> None:
    """Emit :class:`~rainbowdp.exceptions.PermutedBoundaryWarning` if :func:`permuted_pair`
    finds a pair (the message states the rule, names the rainbows and the row)."""
    pair = permuted_pair(G, rows, needs)
    if pair is None:
        return
    warnings.warn(
        f"the boundary rows, given without `order`, look written in rainbow order: {pair}. "
        f"Rule: warn when {PERMUTED_RULE}. State the order (the argument `order`, or the "
        "field \"order\" of a boundary file): 'outputs' if the rows follow graph.outputs, "
        "'rainbow' if each lists its rainbow's most preferred output first.",
        PermutedBoundaryWarning,
        stacklevel=stacklevel + 1,
    )
