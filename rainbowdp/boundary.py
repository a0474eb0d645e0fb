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


def _homogeneous(graph: RainbowGraph, vector: Any, name: str, error: type[Exception]) -> dict:
    """{rainbow: row in outputs order} with ``vector`` (rainbow order) along every rainbow."""
    q = graph.n_outputs
    vec = check_probability_vector(vector, name, size=q, error=error)
    table = graph.rainbow_table
    rows = np.empty(table.shape)
    np.put_along_axis(rows, table, np.broadcast_to(vec, table.shape), axis=1)
    return dict(zip(graph.rainbows, rows.tolist(), strict=True))


def homogeneous_boundary(graph: RainbowGraph, vector: Any) -> dict[tuple, list[float]]:
    r"""The homogeneous boundary condition with one vector in rainbow order for every rainbow.

    Parameters
    ----------
    graph : RainbowGraph
        The rainbow graph.
    vector : array_like, shape (q,)
        A probability vector in rainbow order: ``vector[k]`` is the probability of each
        rainbow's k-th preferred output (finite, non-negative, summing to 1 within 1e-9).

    Returns
    -------
    dict
        ``{rainbow: row}`` for every rainbow of ``graph`` (``graph.rainbows``), each row a list
        over ``graph.outputs`` (outputs order), ready for
        ``optimal_mechanism(graph, ..., boundary=...)``. The same condition is
        ``optimal_mechanism(graph, ..., boundary=vector, order="rainbow")``.

    Raises
    ------
    ParameterTypeError
        If ``graph`` is not a RainbowGraph or ``vector`` holds non-numbers.
    ParameterError
        If ``vector`` is not a probability vector of length q (the value is echoed).

    References
    ----------
    Gu et al., Definition 6 and Theorem 2; the vector :math:`\tilde m^c` at the end of
    Section 4 is ``vector`` for every rainbow c.

    Examples
    --------
    >>> G = RainbowGraph.cycle([("blue", "red", "green")] * 3 + [("red", "green", "blue")] * 2)
    >>> G.outputs
    ('blue', 'red', 'green')
    >>> homogeneous_boundary(G, [0.5, 0.3, 0.2])
    {('blue', 'red', 'green'): [0.5, 0.3, 0.2], ('red', 'green', 'blue'): [0.2, 0.5, 0.3]}
    """
    check_graph(graph, "graph")
    return _homogeneous(graph, vector, "vector", ParameterError)


def _to_outputs(row: np.ndarray, table_row: np.ndarray) -> np.ndarray:
    """A row in rainbow order, rewritten over the outputs (``table_row``: the rainbow)."""
    out = np.empty_like(row)
    out[table_row] = row
    return out


def resolve_boundary(
    graph: RainbowGraph, boundary: Any, needs: np.ndarray, order: Order | None
) -> np.ndarray:
    """(R, q) boundary rows in outputs order (NaN rows for rainbows that need none).

    ``boundary`` is a mapping (by rainbow or by boundary node) or, with a stated ``order``, one
    vector for every rainbow; ``order=None`` reads outputs order. Raises as
    :func:`rainbowdp.optimal.optimal_mechanism` documents.
    """
    if order is not None:
        order = check_order(order)
    r, q = graph.rainbow_table.shape[0], graph.n_outputs
    if not isinstance(boundary, Mapping):
        if order is None or isinstance(boundary, str | bytes):
            raise ParameterTypeError(
                "`boundary` must be a mapping {rainbow: distribution} or {boundary "
                "node: distribution}, or one distribution together with order='rainbow' or "
                f"order='outputs', got boundary={boundary!r} with order={order!r}."
            )
        if order == "rainbow":
            boundary = _homogeneous(graph, boundary, "boundary", InvalidBoundaryError)
        else:
            row = check_probability_vector(boundary, "boundary", size=q, error=InvalidBoundaryError)
            boundary = dict.fromkeys(graph.rainbows, row)
        order = "outputs"
    in_rainbow_order = order == "rainbow"
    table = graph.rainbow_table
    rows = np.full((r, q), np.nan)
    rainbows = graph.rainbows
    rb_index = {c: i for i, c in enumerate(rainbows)}
    keys = list(boundary)
    out_set = set(graph.outputs)

    def as_rainbow(k: Hashable) -> int | None:
        """Rainbow id of key k, -1 for a permutation of the outputs no node has, else None."""
        if not isinstance(k, tuple | list) or len(k) != q:
            return None
        try:
            if set(k) != out_set:
                return None
        except TypeError:
            return None
        return rb_index.get(tuple(k), -1)

    by_rainbow = all(as_rainbow(k) is not None for k in keys)
    if by_rainbow:
        for k in keys:
            c = as_rainbow(k)
            row = check_probability_vector(
                boundary[k], f"boundary[{k!r}]", size=q, error=InvalidBoundaryError
            )
            if c >= 0:  # rainbows no node has are accepted and unused
                if in_rainbow_order:
                    row = _to_outputs(row, table[c])
                rows[c] = row / row.sum()
    else:
        node_index = graph.node_index
        bad = next((k for k in keys if k not in node_index and as_rainbow(k) is None), None)
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
        bmask = graph.boundary_mask
        ids = graph.rainbow_ids
        for k in keys:
            i = node_index[k]
            if not bmask[i]:
                raise InvalidBoundaryError(
                    f"`boundary` gives a distribution for node {k!r}, which is not a boundary "
                    "node (Definition 5); the boundary condition fixes boundary nodes only."
                )
            row = check_probability_vector(
                boundary[k], f"boundary[{k!r}]", size=q, error=InvalidBoundaryError
            )
            c = int(ids[i])
            if in_rainbow_order:
                row = _to_outputs(row, table[c])
            row = row / row.sum()
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
        missing = np.flatnonzero(
            bmask & ~np.isin(np.arange(graph.n_nodes), [node_index[k] for k in keys])
        )
        if missing.size:
            raise InvalidBoundaryError(
                f"`boundary` gives no distribution for boundary node "
                f"{graph.nodes[int(missing[0])]!r}; a node-wise boundary condition must list "
                "every boundary node."
            )
    lacking = np.flatnonzero(needs & np.isnan(rows[:, 0]))
    if lacking.size:
        raise InvalidBoundaryError(
            f"`boundary` gives no distribution for rainbow {rainbows[int(lacking[0])]!r}, which "
            "has boundary nodes; every such rainbow needs one."
        )
    return rows


def read_in_rainbow_order(graph: RainbowGraph, rows: np.ndarray) -> np.ndarray:
    """The other reading of ``rows`` ((R, q), outputs order): each row taken as rainbow order.

    Row c of the result puts ``rows[c, k]`` on the k-th preferred output of rainbow c (NaN rows
    stay NaN).
    """
    out = np.empty_like(rows)
    np.put_along_axis(out, graph.rainbow_table, rows, axis=1)
    return out


def permuted_pair(graph: RainbowGraph, rows: np.ndarray, needs: np.ndarray) -> str | None:
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
    table = graph.rainbow_table
    rainbows = graph.rainbows
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
            f"graph.outputs {graph.outputs!r}, so rainbow {rainbows[ca]!r} gets {_fmt(given[a])} "
            f"in its own preference order; read in rainbow order, the row would give each of "
            f"them {_fmt(v)}"
        )
    return None


def warn_if_permuted(
    graph: RainbowGraph, rows: np.ndarray, needs: np.ndarray, *, stacklevel: int = 2
) -> None:
    """Emit :class:`~rainbowdp.exceptions.PermutedBoundaryWarning` if :func:`permuted_pair`
    finds a pair (the message states the rule, names the rainbows and the row)."""
    pair = permuted_pair(graph, rows, needs)
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
