r"""Graph morphisms, pullbacks and the boundary rainbow graph.

A *morphism* :math:`g : (\mathcal D_1, \sim_1) \to (\mathcal D_2, \sim_2)` (Gu et al. [1]_,
Definition 4) maps neighbours to neighbours or to one node: :math:`d \sim_1 d'` implies
:math:`g(d) \sim_2 g(d')` or :math:`g(d) = g(d')`. Theorem 1 makes it a tool for design: the
*pullback* :math:`\mathcal M_2 \circ g` of an (ε, δ)-DP mechanism on the target is (ε, δ)-DP on
the source, because every source edge is sent to a target edge (on which the two rows are
(ε, δ)-close) or to a single node (where the two rows are equal).

The *boundary rainbow graph* (Definition 8) collapses every region :math:`B^c` to a chain
:math:`(c, 0) - (c, 1) - \dots - (c, d_c)` indexed by the distance to :math:`\partial B^c`, with
an edge between the heads :math:`(c, 0)` and :math:`(c', 0)` whenever some edge of the graph
joins :math:`B^c` and :math:`B^{c'}`. The *boundary morphism* sends d to
:math:`(f(d), \operatorname{dist}(d, \partial B^{f(d)}))`; Theorem 3 says the optimal mechanism
of the graph is the pullback of the optimal mechanism of its boundary rainbow graph.

References
----------
.. [1] Y. Gu, Z. Zhou, O. Günlü, R. G. L. D'Oliveira, P. Sadeghi, M. Médard, R. F. Schaefer,
   "Generalized rainbow differential privacy", Definitions 4, 5 and 8, Theorems 1 and 3.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import breadth_first_order

from .exceptions import InvalidMechanismError, InvalidMorphismError, ParameterTypeError
from .graph import RainbowGraph, check_graph, require_undirected
from .mechanism import Mechanism, check_mechanism

__all__ = ["INFINITE_DISTANCE_LABEL", "Morphism", "boundary_graph", "distances_to_boundary"]

#: Second component of the boundary-graph node that collects the nodes at infinite distance
#: from their region's boundary (a connected component of one rainbow with no boundary node).
INFINITE_DISTANCE_LABEL = "inf"


def _mechanism_from_valid_rows(G: RainbowGraph, p: np.ndarray) -> Mechanism:
    """A Mechanism on ``G`` whose rows are copies of rows of a validated Mechanism.

    A pullback only gathers (and permutes the columns of) rows that the target
    :class:`~rainbowdp.mechanism.Mechanism` has already validated, so re-validating N rows is
    skipped (:meth:`Mechanism._from_valid`).
    """
    return Mechanism._from_valid(G, p)


def _edge_keys(edges: np.ndarray, n: int) -> np.ndarray:
    """int64 key ``min * n + max`` of each row of an (E, 2) edge array."""
    lo = np.minimum(edges[:, 0], edges[:, 1]).astype(np.int64)
    hi = np.maximum(edges[:, 0], edges[:, 1]).astype(np.int64)
    return lo * np.int64(n) + hi


class Morphism:
    r"""A graph morphism between two rainbow graphs (Gu et al., Definition 4).

    Parameters
    ----------
    source, target : RainbowGraph
        Domain :math:`(\mathcal D_1, \sim_1)` and codomain :math:`(\mathcal D_2, \sim_2)`.
    mapping : mapping or array_like of int
        Either a dict ``source node -> target node`` defined on every source node, or an integer
        array of length ``source.n_nodes`` whose entry i is the row index (in ``target.nodes``)
        of the image of source node i.

    Attributes
    ----------
    source, target : RainbowGraph
    index : numpy.ndarray
        Read-only (N_source,) array: ``index[i]`` is the target row of the image of source row i.

    Raises
    ------
    TypeError
        If ``source`` or ``target`` is not a :class:`~rainbowdp.graph.RainbowGraph`, or
        ``mapping`` is neither a mapping nor an integer array.
    InvalidMorphismError
        If a source node has no image (the node is named), an image is not a target node, an
        index is out of range, or a source edge is sent to two distinct non-adjacent target
        nodes (the first such edge is named with its images).

    Notes
    -----
    The edge condition is checked for all E source edges at once: the images
    :math:`(g(u), g(v))` are encoded as sorted int64 keys :math:`\min \cdot N_2 + \max` and
    looked up by binary search among the sorted keys of the target edges; edges with
    :math:`g(u) = g(v)` collapse and are always allowed.

    References
    ----------
    Gu et al., "Generalized rainbow differential privacy", Definition 4 and Theorem 1.

    Examples
    --------
    Folding a path 0-1-2 onto the edge 0-1 (node 2 goes back to 0):

    >>> from rainbowdp import builders
    >>> P3 = builders.line(["a", "b"], 2)
    >>> P2 = builders.line(["a", "b"], 1)
    >>> g = Morphism(P3, P2, {0: 0, 1: 1, 2: 0})
    >>> g.index.tolist(), g.is_rainbow_preserving()
    ([0, 1, 0], True)
    >>> M = Mechanism(P2, [[0.6, 0.4], [0.5, 0.5]])
    >>> g.pullback(M).probabilities.tolist()
    [[0.6, 0.4], [0.5, 0.5], [0.6, 0.4]]
    >>> Morphism(P3, P2, {0: 0, 1: 0, 2: 0}).index.tolist()  # everything collapses
    [0, 0, 0]
    """

    __slots__ = ("_index", "_source", "_target")

    def __init__(self, source: RainbowGraph, target: RainbowGraph, mapping: Any) -> None:
        for name, g in (("source", source), ("target", target)):
            check_graph(g, name)
            require_undirected(g, name, "a graph morphism")
        index = self._index_from_mapping(source, target, mapping)
        self._source = source
        self._target = target
        self._index = index
        self._check_edges()

    @classmethod
    def _trusted(cls, source: RainbowGraph, target: RainbowGraph, index: np.ndarray) -> Morphism:
        """A morphism known to be valid by construction (no edge check)."""
        obj = cls.__new__(cls)
        idx = np.asarray(index, dtype=np.intp)
        idx.setflags(write=False)
        obj._source, obj._target, obj._index = source, target, idx
        return obj

    @staticmethod
    def _index_from_mapping(source: RainbowGraph, target: RainbowGraph, mapping: Any) -> np.ndarray:
        n1, n2 = source.n_nodes, target.n_nodes
        if isinstance(mapping, Mapping):
            unknown = next((d for d in mapping if d not in source.node_index), None)
            if unknown is not None:
                raise InvalidMorphismError(
                    f"`mapping` names {unknown!r}, which is not a node of the source graph."
                )
            missing = next((d for d in source.nodes if d not in mapping), None)
            if missing is not None:
                raise InvalidMorphismError(
                    f"`mapping` gives no image for source node "
                    f"{missing!r}; a morphism is defined on every node."
                )
            index = np.empty(n1, dtype=np.intp)
            tindex = target.node_index
            for i, d in enumerate(source.nodes):
                img = mapping[d]
                try:
                    index[i] = tindex[img]
                except (KeyError, TypeError):
                    raise InvalidMorphismError(
                        f"`mapping` sends source node {d!r} to {img!r}, which is not a node of "
                        "the target graph."
                    ) from None
        else:
            if isinstance(mapping, str | bytes):
                raise ParameterTypeError(
                    "`mapping` must be a dict source node -> target node or an "
                    f"integer array, got mapping={mapping!r}."
                )
            try:
                arr = np.asarray(mapping)
            except (TypeError, ValueError) as exc:  # e.g. a ragged nested list
                raise ParameterTypeError(
                    f"`mapping` must be a dict or an integer array, got mapping={mapping!r}."
                ) from exc
            if arr.dtype == object or not (np.issubdtype(arr.dtype, np.integer) or arr.size == 0):
                raise ParameterTypeError(
                    "`mapping` must be a dict source node -> target node or an "
                    f"integer array, got an array of dtype {arr.dtype}."
                )
            if arr.shape != (n1,):
                raise InvalidMorphismError(
                    f"`mapping` must have one target index per source "
                    f"node, shape ({n1},), got shape {arr.shape}."
                )
            bad = np.flatnonzero((arr < 0) | (arr >= n2))
            if bad.size:
                i = int(bad[0])
                raise InvalidMorphismError(
                    f"`mapping` sends source node {source.nodes[i]!r} to index {int(arr[i])}, "
                    f"outside the target's node range [0, {n2})."
                )
            index = arr.astype(np.intp)
        index.setflags(write=False)
        return index

    def _check_edges(self) -> None:
        e = self._source.edges
        if e.shape[0] == 0:
            return
        n2 = self._target.n_nodes
        img = self._index[e]
        moved = img[:, 0] != img[:, 1]
        keys = _edge_keys(img, n2)
        tkeys = np.sort(_edge_keys(self._target.edges, n2))
        pos = np.searchsorted(tkeys, keys)
        pos = np.minimum(pos, max(tkeys.shape[0] - 1, 0))
        found = tkeys[pos] == keys if tkeys.shape[0] else np.zeros(keys.shape, dtype=bool)
        bad = np.flatnonzero(moved & ~found)
        if bad.size:
            j = int(bad[0])
            s_nodes, t_nodes = self._source.nodes, self._target.nodes
            u, v = int(e[j, 0]), int(e[j, 1])
            gu, gv = int(img[j, 0]), int(img[j, 1])
            raise InvalidMorphismError(
                f"`mapping` is not a morphism: the source edge ({s_nodes[u]!r}, {s_nodes[v]!r}) "
                f"is sent to ({t_nodes[gu]!r}, {t_nodes[gv]!r}), which are distinct and not "
                "adjacent in the target (Definition 4 needs an edge or one node)."
            )

    # ------------------------------------------------------------------ views
    @property
    def source(self) -> RainbowGraph:
        """The domain graph."""
        return self._source

    @property
    def target(self) -> RainbowGraph:
        """The codomain graph."""
        return self._target

    @property
    def index(self) -> np.ndarray:
        """Read-only (N_source,) array of target row indices."""
        return self._index

    def __call__(self, node: Hashable) -> Hashable:
        """The image of a source node (a target node label)."""
        return self._target.nodes[int(self._index[self._source.index_of(node)])]

    def to_dict(self) -> dict:
        """``{source node: target node}``."""
        tn = self._target.nodes
        return {d: tn[i] for d, i in zip(self._source.nodes, self._index.tolist(), strict=True)}

    def __repr__(self) -> str:
        return f"Morphism(source={self._source!r}, target={self._target!r})"

    # ------------------------------------------------------------------ rainbows and pullback
    def _output_permutation(self) -> np.ndarray | None:
        """perm with target column ``perm[j]`` = source output j, or None if the sets differ."""
        s_out, t_out = self._source.outputs, self._target.outputs
        if len(s_out) != len(t_out) or set(s_out) != set(t_out):
            return None
        tix = self._target.output_index
        return np.array([tix[o] for o in s_out], dtype=np.intp)

    def is_rainbow_preserving(self) -> bool:
        r"""Whether :math:`f_1 = f_2 \circ g` (Gu et al., Section 3).

        Every source node must have the same rainbow (as a sequence of output labels) as its
        image. The check runs over the distinct (source rainbow, target rainbow) pairs only.

        Examples
        --------
        >>> from rainbowdp import builders
        >>> G = builders.cycle([("a", "b"), ("a", "b"), ("b", "a")])
        >>> L = builders.line(["a", "b"], 1)
        >>> Morphism(G, L, {0: 0, 1: 1, 2: 0}).is_rainbow_preserving()
        False
        """
        perm = self._output_permutation()
        if perm is None:
            return False
        s_ids = self._source.rainbow_ids
        t_ids = self._target.rainbow_ids[self._index]
        r2 = self._target.rainbow_table.shape[0]
        pairs = np.unique(s_ids.astype(np.int64) * r2 + t_ids)
        s_tab = self._source.rainbow_table[pairs // r2]  # source output indices
        t_tab = self._target.rainbow_table[pairs % r2]  # target output indices
        return bool(np.array_equal(perm[s_tab], t_tab))

    def pullback(self, mechanism: Mechanism) -> Mechanism:
        r"""The pullback :math:`\mathcal M \circ g` of a mechanism on the target (Theorem 1).

        Row i of the result is row ``index[i]`` of ``mechanism``; columns follow
        ``source.outputs`` (a permutation of ``target.outputs``).

        Parameters
        ----------
        mechanism : Mechanism
            A mechanism whose graph is ``self.target`` (the same object).

        Returns
        -------
        Mechanism
            On ``self.source``; (ε, δ)-DP whenever ``mechanism`` is (Theorem 1).

        Raises
        ------
        TypeError
            If ``mechanism`` is not a :class:`~rainbowdp.mechanism.Mechanism`.
        InvalidMechanismError
            If ``mechanism`` lives on another graph, or the output sets differ.

        References
        ----------
        Gu et al., Theorem 1 (after D'Oliveira et al., "Differential privacy for binary
        functions via randomized graph colorings").
        """
        check_mechanism(mechanism, "mechanism")
        if mechanism.graph is not self._target:
            raise InvalidMechanismError(
                "`mechanism` must live on the morphism's target graph (the same RainbowGraph "
                f"object), got a mechanism on {mechanism.graph!r}."
            )
        perm = self._output_permutation()
        if perm is None:
            raise InvalidMechanismError(
                f"the source outputs {self._source.outputs!r} and the target outputs "
                f"{self._target.outputs!r} must be the same set to pull a mechanism back."
            )
        p = mechanism.probabilities[self._index]
        if not np.array_equal(perm, np.arange(perm.shape[0])):
            p = p[:, perm]
        return _mechanism_from_valid_rows(self._source, p)


# ---------------------------------------------------------------------- boundary rainbow graph
def _levels_from_bfs(order: np.ndarray, pred: np.ndarray, n_total: int) -> np.ndarray:
    """BFS depth of every node (``-1`` if unreached) from a BFS order and predecessor array.

    In a FIFO breadth-first search the position of a node's parent is non-decreasing along the
    order, so the levels are contiguous runs of ``order`` that ``searchsorted`` finds in
    one call per level. If the order does not have that property (another traversal), depths
    are found by pointer jumping instead (O(N log depth)).
    """
    itype = np.int32 if n_total < 2**31 - 1 else np.int64
    depth = np.full(n_total, -1, dtype=itype)
    m = order.shape[0]
    depth[order[0]] = 0
    if m == 1:
        return depth
    pos = np.empty(n_total, dtype=itype)
    pos[order] = np.arange(m, dtype=itype)
    pp = pos[pred[order[1:]]]  # parent position of order[1:], each < own
    if np.all(pp[1:] >= pp[:-1]):
        bounds = [0, 1]
        while bounds[-1] < m:
            bounds.append(1 + int(np.searchsorted(pp, itype(bounds[-1]), side="left")))
        depth[order] = np.repeat(np.arange(len(bounds) - 1, dtype=itype), np.diff(bounds))
        return depth
    # pointer jumping: anc[j] = ancestor position, d[j] = distance to it
    anc = np.concatenate([[0], pp])
    d = np.concatenate([[0], np.ones(m - 1, dtype=itype)])
    while np.any(anc != 0):
        d = d + np.where(anc != 0, d[anc], 0)
        anc = anc[anc]
    depth[order] = d
    return depth


def distances_to_boundary(G: RainbowGraph) -> np.ndarray:
    r"""Distance of every node to the boundary of its own region, :math:`\operatorname{dist}(d,
    \partial B^{f(d)})` (Gu et al., eq. (3.3)).

    Parameters
    ----------
    G : RainbowGraph

    Returns
    -------
    numpy.ndarray
        (N,) int64 array; ``-1`` marks nodes at infinite distance (their connected component
        has one rainbow and no boundary node).

    Notes
    -----
    One multi-source breadth-first search from a virtual super-source joined to every boundary
    node (``G.boundary_mask``, which includes declared boundary nodes), on the CSR adjacency
    of the whole graph, gives all regions at once: a node that is not a boundary node has only
    neighbours of its own rainbow, so a shortest path from d to the set of all boundary nodes
    stays in :math:`B^{f(d)}` until it first meets a boundary node, which therefore lies in
    :math:`\partial B^{f(d)}`. This equals the distance within the region to its own boundary.
    The search is :func:`scipy.sparse.csgraph.breadth_first_order`; levels are read off the
    order (see ``_levels_from_bfs``).

    Examples
    --------
    >>> from rainbowdp import builders
    >>> distances_to_boundary(builders.line(["a", "b"], 3)).tolist()
    [0, 1, 2, 3]
    >>> G = builders.cycle([("a", "b")] * 4 + [("b", "a")])
    >>> distances_to_boundary(G).tolist()
    [0, 1, 1, 0, 0]
    """
    check_graph(G, "G")
    require_undirected(G, "G", "distances to the boundary")
    n = G.n_nodes
    sources = np.flatnonzero(G.boundary_mask)
    if sources.size == 0:
        return np.full(n, -1, dtype=np.int64)
    adj = G.adjacency
    itype = np.int32 if n + sources.size + adj.nnz < 2**31 - 1 else np.int64
    # the CSR adjacency plus a super-source row n pointing at every boundary node; the
    # structure is all a breadth-first search reads, so the data is a broadcast 1.0
    indptr = np.concatenate([adj.indptr, [adj.indptr[-1] + sources.size]], dtype=itype)
    indices = np.concatenate([adj.indices, sources], dtype=itype)
    data = np.broadcast_to(np.float64(1.0), indices.shape)
    big = sp.csr_array((data, indices, indptr), shape=(n + 1, n + 1))
    order, pred = breadth_first_order(big, n, directed=True, return_predecessors=True)
    depth = _levels_from_bfs(order, pred, n + 1)
    dist = depth[:n].astype(np.int64)
    dist -= 1  # depth 1 (boundary nodes) is distance 0
    np.maximum(dist, -1, out=dist)  # unreached (depth -1) stays -1
    return dist


def boundary_graph(G: RainbowGraph) -> tuple[RainbowGraph, Morphism]:
    r"""The boundary rainbow graph and the boundary morphism (Gu et al., Definition 8).

    Parameters
    ----------
    G : RainbowGraph

    Returns
    -------
    Gb : RainbowGraph
        Nodes ``(c, i)`` for every rainbow c (a tuple of outputs) that has boundary nodes and
        ``i = 0..d_c``, :math:`d_c = \max_{d \in B^c} \operatorname{dist}(d, \partial B^c)`
        (eq. (3.3)); chain edges :math:`(c, i) \sim (c, i+1)`; head edges
        :math:`(c, 0) \sim (c', 0)` iff an edge of ``G`` joins :math:`B^c` and
        :math:`B^{c'}`. Every head is a declared boundary node of ``Gb``. Nodes of ``G``
        at infinite distance from their region's boundary (a connected component of one
        rainbow without boundary node) are sent to an extra isolated node ``(c, "inf")``.
        Node order: rainbow by rainbow (in ``G.rainbows`` order), chain nodes by i, then
        ``(c, "inf")``. ``Gb.outputs`` is ``G.outputs``.
    g : Morphism
        The boundary morphism :math:`d \mapsto (f(d), \operatorname{dist}(d, \partial
        B^{f(d)}))` from ``G`` to ``Gb``; it is rainbow preserving.

    Notes
    -----
    Distances come from :func:`distances_to_boundary` (one breadth-first search); the head
    edges from the distinct rainbow pairs of the edges joining two rainbows. The morphism is
    valid by construction: an edge inside a region joins nodes whose distances differ by at
    most one (a chain edge or a collapse), an edge between regions joins two boundary nodes
    (a head edge), and two nodes at infinite distance collapse.

    The paper's :math:`d_c` is undefined (infinite) for a component with no boundary node; no
    constraint ties such a component to any boundary condition, so the extra ``(c, "inf")``
    node is where :func:`rainbowdp.optimal.optimal_mechanism` puts the point mass on the most
    preferred output (the limit of :math:`T^t`).

    References
    ----------
    Gu et al., "Generalized rainbow differential privacy", Definition 8 and Fig. 1.

    Examples
    --------
    >>> from rainbowdp import builders
    >>> G = builders.cycle([("a", "b")] * 4 + [("b", "a")])
    >>> Gb, g = boundary_graph(G)
    >>> Gb.nodes
    [(('a', 'b'), 0), (('a', 'b'), 1), (('b', 'a'), 0)]
    >>> Gb.edges.tolist()
    [[0, 1], [0, 2]]
    >>> [g(d) for d in G.nodes][:3]
    [(('a', 'b'), 0), (('a', 'b'), 1), (('a', 'b'), 1)]
    """
    dist = distances_to_boundary(G)
    return _boundary_graph_from_distances(G, dist)


def _boundary_graph_from_distances(
    G: RainbowGraph, dist: np.ndarray
) -> tuple[RainbowGraph, Morphism]:
    ids = G.rainbow_ids
    r = G.rainbow_table.shape[0]
    d_top = int(dist.max()) + 2  # distances -1..d_top-2 shifted to 0..
    present = np.bincount(ids * d_top + (dist + 1), minlength=r * d_top).reshape(r, d_top) > 0
    has_inf = present[:, 0]
    reached = present[:, 1:]
    dmax = np.full(r, -1, dtype=np.int64)
    if d_top > 1:
        dmax = np.where(reached.any(axis=1), d_top - 2 - np.argmax(reached[:, ::-1], axis=1), -1)
    sizes = (dmax + 1) + has_inf.astype(np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    # node labels, rainbow ids and declared heads of Gb
    rainbows = G.rainbows
    labels: list = []
    for c in range(r):
        labels.extend((rainbows[c], i) for i in range(int(dmax[c]) + 1))
        if has_inf[c]:
            labels.append((rainbows[c], INFINITE_DISTANCE_LABEL))
    b_ids = np.repeat(np.arange(r, dtype=np.intp), sizes)
    heads = [labels[int(offsets[c])] for c in range(r) if dmax[c] >= 0]
    # chain edges
    chain_len = np.maximum(dmax, 0)
    starts = np.repeat(offsets[:-1], chain_len)
    within = np.arange(int(chain_len.sum())) - np.repeat(
        np.cumsum(chain_len) - chain_len, chain_len
    )
    chain = np.column_stack([starts + within, starts + within + 1])
    # head edges: every edge joining two rainbows joins two boundary nodes, so the rows of the
    # CSR adjacency of the boundary nodes hold all of them
    bnodes = np.flatnonzero(G.boundary_mask)
    adj = G.adjacency
    lo, hi = adj.indptr[bnodes], adj.indptr[bnodes + 1]
    cnt = hi - lo
    flat = np.repeat(lo - np.cumsum(cnt) + cnt, cnt) + np.arange(int(cnt.sum()))
    ru = np.repeat(ids[bnodes], cnt)
    rv = ids[adj.indices[flat]]
    cross = ru != rv
    pair_keys = np.unique(
        np.minimum(ru[cross], rv[cross]).astype(np.int64) * r + np.maximum(ru[cross], rv[cross])
    )
    head = np.column_stack([offsets[pair_keys // r], offsets[pair_keys % r]])
    edges_b = np.concatenate([chain, head]).astype(np.intp)
    gb = RainbowGraph.from_edges(
        edges_b,
        outputs=G.outputs,
        rainbow_table=G.rainbow_table,
        rainbow_ids=b_ids,
        nodes=labels,
        boundary=heads,
    )
    if has_inf.any():
        inf_index = offsets[1:] - 1  # last node of each block: (c, "inf")
        index = np.where(dist >= 0, offsets[:-1][ids] + dist, inf_index[ids])
    else:
        index = offsets[:-1][ids] + dist
    return gb, Morphism._trusted(G, gb, index)
