r"""Ready-made rainbow graphs: the dataset graphs of the source papers and of everyday DP.

As networkx keeps its generators apart from its graph classes, the graphs of the papers are
built here, as functions, and documented here, on top of the public constructors of
:class:`~rainbowdp.graph.RainbowGraph`: :meth:`~rainbowdp.graph.RainbowGraph.from_edges` for
array-built graphs (no networkx graph is built), the constructor and
:meth:`~rainbowdp.graph.RainbowGraph.from_query` for the others.

========================  ======================================================================
builder                   graph
========================  ======================================================================
:func:`line`              the (c, n)-line of Gu et al., Definition 7
:func:`cycle`             a cycle with given rainbows (Gu et al., Example 1)
:func:`circulant`         the modulo-addition instance of Kadam et al. (q ~ q + μ mod n + 1)
:func:`count_path`        a count query: path over counts, rainbow by distance to the count
:func:`from_records`      all datasets over a small universe, add/remove-one or replace-one
========================  ======================================================================

References
----------
.. [1] Y. Gu et al., "Generalized rainbow differential privacy", Definitions 1, 5 and 7.
.. [2] N. Kadam et al., "Optimum noise mechanism for differentially private queries in discrete
   finite sets", Cybersecurity (2024), eq. (6).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

import networkx as nx
import numpy as np

from ._convert import (
    check_outputs,
    check_rainbow_sequence,
    numeric_outputs,
    ordered_sequence,
    regular_array,
)
from ._validation import check_int
from .exceptions import InvalidGraphError, ParameterError, ParameterTypeError
from .graph import Loss, RainbowGraph

__all__ = ["circulant", "count_path", "cycle", "from_records", "line"]


def line(rainbow: Sequence[Hashable], n: int) -> RainbowGraph:
    r"""The :math:`(c, n)`-line of Definition 7: path 0–1–…–n, every node rainbow c.

    Node 0 is declared the boundary of the line.

    Examples
    --------
    >>> G = line(["x", "y"], 3)
    >>> G.n_nodes, G.boundary(["x", "y"])
    (4, [0])
    """
    outs = check_outputs(rainbow, "rainbow")
    n = check_int(n, "n", minimum=0)
    edges = np.column_stack([np.arange(n), np.arange(1, n + 1)])
    return RainbowGraph.from_edges(
        edges,
        outputs=outs,
        rainbow_table=np.arange(len(outs), dtype=np.intp)[None, :],
        rainbow_ids=np.zeros(n + 1, dtype=np.intp),
        boundary=[0],
    )


def cycle(
    rainbows: Sequence[Sequence[Hashable]], *, outputs: Sequence[Hashable] | None = None
) -> RainbowGraph:
    r"""A cycle 0–1–…–(m−1)–0 where node i has rainbow ``rainbows[i]``.

    Gu et al.'s Example 1 is ``cycle([(1, 2, 3)] * 4 + [(1, 3, 2)])``.

    Examples
    --------
    >>> G = cycle([(1, 2, 3)] * 4 + [(1, 3, 2)])
    >>> sorted(G.boundary((1, 2, 3))), sorted(G.interior((1, 2, 3)))
    ([0, 3], [1, 2])
    """
    rainbows = ordered_sequence(rainbows, "rainbows", "rainbows", "node i gets rainbows[i]")
    for i, r in enumerate(rainbows):
        check_rainbow_sequence(r, i, f"rainbows[{i}]={r!r}")
    rainbows = [tuple(r) for r in rainbows]
    if len(rainbows) < 3:
        raise InvalidGraphError(
            f"`rainbows` must give at least 3 nodes for a simple cycle, got {len(rainbows)}."
        )
    g = nx.cycle_graph(len(rainbows))
    nx.set_node_attributes(g, dict(enumerate(rainbows)), "rainbow")
    return RainbowGraph(g, outputs if outputs is not None else rainbows[0])


def circulant(
    n: int,
    distances: Iterable[int],
    *,
    distortion: Sequence[float] | None = None,
    directed: bool = False,
) -> RainbowGraph:
    r"""The modulo-addition instance of Kadam et al.: nodes and outputs :math:`0..n`.

    Nodes are query values q; :math:`q \sim q+\mu \pmod{n+1}` for every :math:`\mu` in
    ``distances`` (the set :math:`\mathcal M` of eq. (6)). The rainbow of q orders the outputs
    :math:`\tilde q` by the distortion :math:`\rho_\eta` of :math:`\eta = \tilde q - q
    \pmod{n+1}` (ties broken by η), so every row of a modulo-noise mechanism is the noise
    PMF shifted by q.

    Parameters
    ----------
    n : int
        Largest query value (the domain is :math:`[n] = \{0, …, n\}`).
    distances : iterable of int
        The neighbourhood shifts μ, each in ``1..n``.
    distortion : sequence of float, optional
        :math:`\rho_\eta` for η = 0..n (default η itself; :math:`\eta^2` gives the same order).
    directed : bool, default False
        ``False``: the symmetric neighbour relation (q and q ± μ are neighbours). ``True``: the
        arcs :math:`q \to q - \mu \pmod{n+1}` only, the ordered pairs (X, X') of Kadam et
        al. with :math:`\mu = \mathbb Q(X) - \mathbb Q(X')` (eq. (6)): an arc constrains
        :math:`P_q(\tilde v) = f(\eta)` against :math:`P_{q-\mu}(\tilde v) = f(\eta + \mu)`,
        the comparison of eq. (7) (a one-way relation, see :attr:`RainbowGraph.directed`).

    Examples
    --------
    >>> G = circulant(8, [1, 2, 3])
    >>> G.n_nodes, G.n_edges, G.rainbow(7)[:3]
    (9, 27, (7, 8, 0))
    >>> circulant(8, [1], directed=True).edges[:2].tolist()
    [[0, 8], [1, 0]]
    """
    n = check_int(n, "n", minimum=1)
    if isinstance(distances, str | bytes) or not isinstance(distances, Iterable):
        raise ParameterTypeError(f"`distances` must be an iterable of integers, got {distances!r}.")
    mus = sorted({check_int(mu, "distances", minimum=1, maximum=n) for mu in distances})
    if not mus:
        raise InvalidGraphError("`distances` must contain at least one shift, got none.")
    if not isinstance(directed, bool):
        raise ParameterTypeError(f"`directed` must be a bool, got directed={directed!r}.")
    size = n + 1
    if distortion is None:
        rho = np.arange(size, dtype=float)
    else:
        rho = regular_array(distortion, "distortion")
        if rho.dtype.kind not in "iuf":
            raise ParameterTypeError(
                f"`distortion` must hold real numbers, got dtype {rho.dtype}: "
                f"distortion={distortion!r}."
            )
        rho = rho.astype(float)
    if rho.shape != (size,) or not np.all(np.isfinite(rho)):
        raise ParameterError(f"`distortion` must hold {size} finite numbers, got {distortion!r}.")
    eta_order = np.lexsort((np.arange(size), rho))  # by distortion, ties by eta
    q = np.arange(size)
    u = np.concatenate([q for _ in mus])
    v = np.concatenate([(q - mu) % size for mu in mus])
    arcs = np.column_stack([u, v])
    if directed:
        e = arcs  # distinct: (q, q - mu) determines mu
    else:  # mu and n + 1 - mu give the same undirected edges
        e = np.unique(np.sort(arcs, axis=1), axis=0)
    order = (q[:, None] + eta_order[None, :]) % size
    table, ids = np.unique(order, axis=0, return_inverse=True)
    return RainbowGraph.from_edges(
        e,
        outputs=tuple(range(size)),
        rainbow_table=table.astype(np.intp),
        rainbow_ids=ids.astype(np.intp).ravel(),
        answers=list(range(size)),
        directed=directed,
    )


def count_path(n: int, *, outputs: Sequence[float] | None = None, start: int = 0) -> RainbowGraph:
    r"""The count-query instance: path start–…–n over counts (start = 0 by default).

    Adjacent counts are neighbours (add/remove one record). The rainbow of count m orders the
    outputs by :math:`|v - m|`, ties to the smaller output; the true answer of node m is m.

    Parameters
    ----------
    n : int
        Largest count (nodes 0..n).
    outputs : sequence of real, optional
        The output set (default 0..n). A short range such as ``range(32)`` keeps a path of
        millions of counts small: every count beyond the range has the rainbow of the nearest
        end.
    start : int, default 0
        Smallest count (Sadeghi et al.'s count queries start at 1 or at the noise bound D).

    Examples
    --------
    >>> count_path(4).rainbow(2)
    (2, 1, 3, 0, 4)
    >>> G = count_path(10**6, outputs=range(4))
    >>> G.n_nodes, G.n_outputs, G.rainbow(999_999)
    (1000001, 4, (3, 2, 1, 0))
    """
    start = check_int(start, "start", minimum=0)
    n = check_int(n, "n", minimum=start + 1)
    outs = tuple(range(n + 1)) if outputs is None else numeric_outputs(outputs)
    v = np.asarray(outs, dtype=np.float64)
    counts = np.arange(start, n + 1, dtype=np.float64)
    # the rainbow of m depends on m only through its position among the outputs: every count
    # beyond the outputs' range has the rainbow of the nearest end
    key = np.clip(counts, v.min(), v.max())
    uniq, ids = np.unique(key, return_inverse=True)
    order = np.argsort(np.abs(v[None, :] - uniq[:, None]), axis=1, kind="stable")
    table, tid = np.unique(order, axis=0, return_inverse=True)
    k = n - start
    edges = np.column_stack([np.arange(k), np.arange(1, k + 1)])
    return RainbowGraph.from_edges(
        edges,
        outputs=outs,
        rainbow_table=table.astype(np.intp),
        rainbow_ids=tid.ravel()[ids].astype(np.intp),
        nodes=None if start == 0 else range(start, n + 1),
        answers=range(start, n + 1),
    )


def from_records(
    universe: Iterable[Hashable],
    *,
    size: int,
    query: Callable[[tuple], Any],
    outputs: Sequence[Hashable],
    relation: str = "add_remove",
    multiset: bool = True,
    loss: Loss | None = None,
) -> RainbowGraph:
    r"""Dataset graph of all datasets over a small universe of records.

    Datasets are sorted tuples of records. With ``relation="add_remove"`` every dataset of at
    most ``size`` records is a node and two datasets are neighbours when one is the other plus
    one record (unbounded DP). With ``relation="replace_one"`` every dataset of exactly ``size``
    records is a node and neighbours differ by replacing one record (bounded DP). With
    ``relation="add_only"`` the nodes are those of ``"add_remove"`` and every dataset has an arc
    to each dataset with one record more: a one-way neighbour relation (a directed graph, see
    :attr:`RainbowGraph.directed`).

    Parameters
    ----------
    universe : iterable of hashable
        The possible records.
    size : int
        Maximum (``add_remove``, ``add_only``) or exact (``replace_one``) dataset size.
    query : callable
        ``query(dataset_tuple) -> answer``; the rainbow follows
        :meth:`RainbowGraph.from_query`.
    outputs : sequence of hashable
        The output set.
    relation : {"add_remove", "replace_one", "add_only"}
        The neighbourhood.
    multiset : bool, default True
        Whether a record may occur more than once in a dataset.
    loss : callable, optional
        As in :meth:`RainbowGraph.from_query`.

    Examples
    --------
    >>> G = from_records([0, 1], size=2, query=sum, outputs=[0, 1, 2])
    >>> G.n_nodes, G.n_edges
    (6, 6)
    >>> from_records([0, 1], size=2, query=sum, outputs=[0, 1, 2], relation="add_only").directed
    True
    """
    recs = ordered_sequence(
        universe,
        "universe",
        "records",
        "the order of the records fixes the node labels; pass e.g. sorted(universe)",
    )
    if not recs:
        raise InvalidGraphError("`universe` must contain at least one record, got none.")
    if len(set(recs)) != len(recs):
        raise InvalidGraphError(f"`universe` must not repeat a record, got {recs!r}.")
    if relation not in ("add_remove", "replace_one", "add_only"):
        raise ParameterError(
            "`relation` must be 'add_remove', 'replace_one' or 'add_only', got "
            f"relation={relation!r}."
        )
    size = check_int(size, "size", minimum=1 if relation == "replace_one" else 0)
    if not callable(query):
        raise ParameterTypeError(f"`query` must be callable, got query={query!r}.")
    rank = {r: i for i, r in enumerate(recs)}
    combos = itertools.combinations_with_replacement if multiset else itertools.combinations

    def canon(ds: Iterable[Hashable]) -> tuple:
        return tuple(sorted(ds, key=rank.__getitem__))

    sizes = [size] if relation == "replace_one" else range(size + 1)
    g = nx.DiGraph() if relation == "add_only" else nx.Graph()
    for k in sizes:
        g.add_nodes_from(combos(recs, k))
    for ds in list(g.nodes):
        if relation != "replace_one":
            if len(ds) < size:
                for r in recs:
                    other = canon((*ds, r))
                    if other in g:
                        g.add_edge(ds, other)
        else:
            for i in range(len(ds)):
                rest = ds[:i] + ds[i + 1 :]
                for r in recs:
                    other = canon((*rest, r))
                    if other != ds and other in g:
                        g.add_edge(ds, other)
    return RainbowGraph.from_query(g, outputs, answer=query, loss=loss)
