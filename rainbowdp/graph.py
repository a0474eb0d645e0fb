r"""Rainbow graphs: datasets, their neighbourhoods and their preference orders.

A *rainbow graph* :math:`(\mathcal D, \sim, f)` (Gu et al. [1]_, Section 3) is a simple undirected
graph whose nodes are datasets and whose edges join neighbouring datasets, together with a
*rainbow* :math:`f(d)` for every node: a total order of the finite output set :math:`\mathcal V`,
most preferred output first (Definition 1).

:class:`RainbowGraph` wraps a :class:`networkx.Graph` (attributes preserved) and derives, once and
lazily, the integer arrays every hot path uses:

``rainbow_ids`` (N,)
    index of each node's rainbow in ``rainbow_table``;
``rainbow_table`` (R, q)
    row r lists the output indices of rainbow r, most preferred first;
``order`` (N, q)
    ``order[i, k]`` is the index (into ``outputs``) of the k-th preferred output of node i;
``ranks`` (N, q)
    the inverse permutation: ``ranks[i, j]`` is the rank (0 = most preferred) of output j at i;
``edges`` (E, 2)
    node indices, ``u < v`` in every row;
``adjacency``
    symmetric CSR matrix (:mod:`scipy.sparse`), for breadth-first searches at scale.

The regions of Definition 5 are available for every rainbow c: :math:`B^c` (:meth:`region`), its
interior and its boundary :math:`\partial B^c` (:meth:`boundary`). A graph may also *declare*
boundary nodes, as the :math:`(c, n)`-line of Definition 7 declares node 0; declared nodes are part
of the boundary in addition to the topological boundary of Definition 5.

References
----------
.. [1] Y. Gu, Z. Zhou, O. Günlü, R. G. L. D'Oliveira, P. Sadeghi, M. Médard, R. F. Schaefer,
   "Generalized rainbow differential privacy", Definitions 1, 5 and 7.
.. [2] N. Kadam et al., "Optimum noise mechanism for differentially private queries in discrete
   finite sets", Cybersecurity (2024) -- the modulo-addition neighbourhood, eq. (6).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any

import networkx as nx
import numpy as np
import scipy.sparse as sp

from ._convert import (
    NO_CLASH,
    Attributes,
    Parts,
    bool_clash,
    check_answers,
    declared_mask,
    is_sequence,
    parts_from_edges,
    parts_from_nx,
    query_rainbows,
    readonly,
)
from ._format import HTML_MAX_ROWS, html_table, short_repr
from .exceptions import InvalidGraphError, ParameterTypeError

__all__ = ["RainbowGraph", "check_graph", "require_undirected"]

Loss = Callable[[Any, Any], float]


def check_graph(value: Any, name: str = "G") -> RainbowGraph:
    """``value`` if it is a :class:`RainbowGraph`, else :class:`ParameterTypeError` naming
    ``name`` (the one graph-argument check of the package)."""
    if not isinstance(value, RainbowGraph):
        raise ParameterTypeError(
            f"`{name}` must be a RainbowGraph, got {name}={type(value).__name__}."
        )
    return value


def require_undirected(G: RainbowGraph, name: str, what: str) -> None:
    """Raise :class:`InvalidGraphError` if ``G`` (the argument ``name``) is directed.

    ``what`` names the operation, e.g. "a graph morphism": operations built on symmetric
    neighbourhoods (morphisms, the boundary graph, the optimal rainbow mechanism) need an
    undirected graph.
    """
    if G.directed:
        raise InvalidGraphError(
            f"`{name}` must be undirected for {what}, got a directed graph ({G!r}); "
            "the theory behind it (Gu et al.) assumes a symmetric neighbour relation. Verify or "
            "design on the directed graph instead (rainbowdp.verify, rainbowdp.design.lp)."
        )


class RainbowGraph:
    r"""A rainbow graph :math:`(\mathcal D, \sim, f)` over a finite output set.

    Parameters
    ----------
    graph : networkx.Graph or networkx.DiGraph
        Simple graph; nodes are datasets, edges join neighbours. An undirected edge
        :math:`d \sim d'` constrains both orders of the pair; an arc :math:`d \to d'` of a
        :class:`networkx.DiGraph` constrains only :math:`P_d(S) \le e^\epsilon P_{d'}(S) + \delta`
        (a one-way neighbour relation, e.g. Kadam et al.'s shifts +μ or add-only neighbours).
        Multigraphs, self-loops and empty graphs are rejected.
    outputs : sequence of hashable, optional
        The finite output set :math:`\mathcal V` in a fixed order (the column order of every
        mechanism). Defaults to the graph attribute ``graph.graph["outputs"]``.
    rainbow : str, default "rainbow"
        Name of the node attribute holding each node's rainbow: a sequence (list, tuple or 1-D
        array) that is a permutation of ``outputs``, most preferred first. Sets and mappings
        are rejected: a set's order depends on ``PYTHONHASHSEED`` and a mapping's on its keys.
    boundary : iterable of nodes, optional
        Nodes declared to be boundary nodes in addition to those of Definition 5. Defaults to the
        graph attribute ``graph.graph["boundary"]`` when present.
    answers : sequence or mapping, optional
        The true query answer of every node (:attr:`answers`), in node order or as
        ``{node: answer}``; used by the answer-based utilities and losses.

    Raises
    ------
    ParameterTypeError
        If ``graph`` is not a networkx graph, ``outputs`` is not an ordered sequence (a set or a
        mapping is rejected) or an output is unhashable.
    InvalidGraphError
        If the graph is a multigraph, has a self-loop or no node, or a node's rainbow is
        missing, not a sequence, or not a permutation of ``outputs`` (the node is named).

    Notes
    -----
    ``graph`` is **copied** at construction: its nodes and edges go into integer arrays, and the
    attribute dictionaries of the graph, of every node and of every edge are copied (attribute
    *values* are shared, except that each node's rainbow attribute becomes a fresh list of its
    validated rainbow). Later changes to the caller's graph are therefore not seen by this
    object -- not by the verifier, and not by :func:`rainbowdp.io.save_graph` either.
    :attr:`graph` is a networkx graph rebuilt from that copy on first use and frozen
    (:func:`networkx.freeze`), so the structure every computation uses cannot drift from the
    networkx view. Graphs built from arrays (:meth:`from_edges`) likewise hold no networkx graph
    until :attr:`graph` is first asked for.

    References
    ----------
    Gu et al., "Generalized rainbow differential privacy", Definitions 1, 5 and 7.

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.path_graph(3)
    >>> nx.set_node_attributes(g, {0: ["a", "b"], 1: ["a", "b"], 2: ["b", "a"]}, "rainbow")
    >>> G = RainbowGraph(g, outputs=["a", "b"])
    >>> G.n_nodes, G.n_edges, G.n_outputs
    (3, 2, 2)
    >>> sorted(G.boundary(["a", "b"])), sorted(G.interior(["a", "b"]))
    ([1], [0])
    """

    _answers: tuple | None

    def __init__(
        self,
        graph: nx.Graph,
        outputs: Sequence[Hashable] | None = None,
        *,
        rainbow: str = "rainbow",
        boundary: Iterable[Hashable] | None = None,
        answers: Sequence[Any] | Mapping | None = None,
    ) -> None:
        self._init(parts_from_nx(graph, outputs, rainbow=rainbow, boundary=boundary))
        if answers is not None:
            self._answers = check_answers(answers, self.nodes)

    # ------------------------------------------------------------------ construction helpers
    def _init(self, parts: Parts, answers: Sequence[Any] | None = None) -> None:
        """Set the model from validated ``parts`` (the checks live in :mod:`._convert`)."""
        self._directed = bool(parts.directed)
        self._nodes: list | None = list(parts.nodes) if parts.nodes is not None else None
        self._n = len(parts.rainbow_ids)
        self._outputs: tuple = parts.outputs
        self._edges = readonly(np.ascontiguousarray(parts.edges, dtype=np.intp))
        self._rainbow_table = readonly(parts.rainbow_table)
        self._rainbow_ids = readonly(parts.rainbow_ids)
        self._nx: nx.Graph | None = None
        self._attributes: Attributes | None = parts.attributes
        self._node_index: dict | None = parts.node_index
        self._answers = tuple(answers) if answers is not None else None
        self._declared = readonly(declared_mask(parts.boundary, self._n, self.index_of))

    @classmethod
    def _from_parts(cls, parts: Parts, answers: Sequence[Any] | None = None) -> RainbowGraph:
        """A graph made of ``parts``, already validated, without the constructor's checks."""
        obj = cls.__new__(cls)
        obj._init(parts, answers)
        return obj

    @classmethod
    def from_edges(
        cls,
        edges: Any,
        *,
        outputs: Sequence[Hashable],
        rainbow_table: Any,
        rainbow_ids: Any,
        nodes: Sequence[Hashable] | None = None,
        boundary: Iterable[Hashable] | None = None,
        answers: Sequence[Any] | Mapping | None = None,
        directed: bool = False,
    ) -> RainbowGraph:
        r"""Build a rainbow graph from integer arrays, without building a networkx graph.

        This is the constructor for large graphs: its cost is a few vectorised passes over the
        edge array. The networkx graph is materialised only if :attr:`graph` is asked for.

        Parameters
        ----------
        edges : array_like of int, shape (E, 2)
            Edges as pairs of node indices in ``range(N)``; each undirected edge exactly once
            (either order). With ``directed=True``, arcs ``(u, v)``: each ordered pair at most
            once, and ``(u, v)`` and ``(v, u)`` are two arcs.
        outputs : sequence of hashable
            The output set, in column order.
        rainbow_table : array_like of int, shape (R, q)
            Row r is rainbow r as output indices, most preferred first.
        rainbow_ids : array_like of int, shape (N,)
            Rainbow index of every node; N is the number of nodes.
        nodes : sequence of hashable, optional
            Node labels (default ``range(N)``).
        boundary : iterable of nodes, optional
            Declared boundary nodes (see the module notes).
        answers : sequence or mapping, optional
            True query answers (:attr:`answers`), in node order or as ``{node: answer}``.
        directed : bool, default False
            Whether ``edges`` are one-way arcs (see the class notes).

        Raises
        ------
        InvalidGraphError
            On self-loops, repeated edges, out-of-range indices or rainbows that are not
            permutations.

        Examples
        --------
        >>> G = RainbowGraph.from_edges([[0, 1], [1, 2]], outputs=[0, 1],
        ...                             rainbow_table=[[0, 1], [1, 0]], rainbow_ids=[0, 0, 1])
        >>> G.boundary_mask.tolist()
        [False, True, True]
        """
        G = cls._from_parts(
            parts_from_edges(
                edges,
                outputs=outputs,
                rainbow_table=rainbow_table,
                rainbow_ids=rainbow_ids,
                nodes=nodes,
                boundary=boundary,
                directed=directed,
            )
        )
        if answers is not None:
            G._answers = check_answers(answers, G.nodes)
        return G

    @classmethod
    def from_query(
        cls,
        graph: nx.Graph,
        outputs: Sequence[Hashable],
        *,
        answer: str | Callable[[Any], Any] | Mapping = "answer",
        loss: Loss | None = None,
    ) -> RainbowGraph:
        r"""Rainbow graph of a query: each node prefers outputs close to its true answer.

        The rainbow of node d is ``outputs`` sorted by ``loss(output, a(d))`` (a stable sort, so
        ties keep the order of ``outputs``).

        Parameters
        ----------
        graph : networkx.Graph
            The dataset graph.
        outputs : sequence of hashable
            The output set.
        answer : str, callable or mapping, default "answer"
            The true answer of each node: a node attribute name, a function of the node, or a
            mapping node -> answer.
        loss : callable, optional
            ``loss(output, answer) -> float``. Default: ``|output - answer|`` for numbers,
            otherwise 0 for the true answer and 1 for every other output.

        Examples
        --------
        >>> import networkx as nx
        >>> G = RainbowGraph.from_query(nx.path_graph(3), [0, 1, 2], answer=lambda d: d)
        >>> G.rainbow(0), G.rainbow(1)
        ((0, 1, 2), (1, 0, 2))
        """
        h, outs, answers = query_rainbows(graph, outputs, answer, loss)
        return cls(h, outs, answers=answers)

    # ------------------------------------------------------------------ basic properties
    @property
    def nodes(self) -> list:
        """Node labels in the fixed node order (row order of every mechanism)."""
        if self._nodes is None:
            self._nodes = list(range(self._n))
        return self._nodes

    @property
    def node_index(self) -> dict:
        """Mapping node label -> row index."""
        if self._node_index is None:
            self._node_index = {node: i for i, node in enumerate(self.nodes)}
        return self._node_index

    def index_of(self, node: Hashable) -> int:
        """Row index of ``node``.

        Raises
        ------
        InvalidGraphError
            If ``node`` is not a node of the graph; the message names it, its type, and what
            the graph's nodes look like (e.g. a list given for a tuple node).

        Examples
        --------
        >>> G = RainbowGraph.from_edges([[0, 1]], outputs=["a", "b"], rainbow_table=[[0, 1]],
        ...                             rainbow_ids=[0, 0], nodes=[(0, 1), (1, 1)])
        >>> G.index_of((1, 1))
        1
        >>> G.index_of([1, 1])
        Traceback (most recent call last):
        ...
        rainbowdp.exceptions.InvalidGraphError: node [1, 1] is not in the graph: nodes of this
        graph are tuples such as (0, 1); got list [1, 1] (use the tuple (1, 1)).
        """
        try:
            return self.node_index[node]
        except (KeyError, TypeError):
            raise InvalidGraphError(self._unknown_node(node)) from None

    def _unknown_node(self, node: Any) -> str:
        """The message for a node that is not in the graph: what its nodes look like."""
        nodes = self.nodes
        if not nodes:
            return f"node {node!r} is not in the graph: the graph has no nodes."
        kinds = {type(n) for n in nodes}
        plural = {int: "integers", str: "strings", tuple: "tuples", float: "floats"}
        if len(kinds) == 1:
            kind = next(iter(kinds))
            what = plural.get(kind, f"{kind.__name__} objects")
            look = f"nodes of this graph are {what} such as {nodes[0]!r}"
        else:
            names = ", ".join(sorted(k.__name__ for k in kinds))
            look = f"nodes of this graph are of the types {names}, such as {nodes[0]!r}"
        msg = f"node {node!r} is not in the graph: {look}; got {type(node).__name__} {node!r}"
        hint = ""
        if isinstance(node, list):
            try:
                as_tuple = tuple(node)
                if as_tuple in self.node_index:
                    hint = f" (use the tuple {as_tuple!r})"
            except TypeError:  # unhashable items
                pass
        return msg + hint + "."

    @property
    def outputs(self) -> tuple:
        """The output set :math:`\\mathcal V`, in column order."""
        return self._outputs

    @cached_property
    def output_index(self) -> dict:
        """Mapping output -> column index."""
        return {o: j for j, o in enumerate(self._outputs)}

    @property
    def n_nodes(self) -> int:
        """Number of nodes N."""
        return self._n

    @property
    def n_outputs(self) -> int:
        """Number of outputs :math:`q = |V|`."""
        return len(self._outputs)

    @property
    def n_edges(self) -> int:
        """Number of edges E."""
        return int(self._edges.shape[0])

    @property
    def edges(self) -> np.ndarray:
        """(E, 2) read-only array of node indices: ``u < v`` in each row of an undirected graph;
        the arcs ``u -> v`` as given for a directed one."""
        return self._edges

    @property
    def directed(self) -> bool:
        r"""Whether the neighbour relation is one-way: an arc ``(u, v)`` of :attr:`edges`
        constrains only :math:`P_u(S) \le e^\epsilon P_v(S) + \delta`."""
        return self._directed

    @property
    def answers(self) -> tuple | None:
        """True query answer of every node, for graphs built from a query (else ``None``)."""
        return self._answers

    @property
    def rainbow_table(self) -> np.ndarray:
        """(R, q) array: row r lists the output indices of rainbow r, most preferred first."""
        return self._rainbow_table

    @property
    def rainbow_ids(self) -> np.ndarray:
        """(N,) array: rainbow index of every node."""
        return self._rainbow_ids

    @cached_property
    def order(self) -> np.ndarray:
        """(N, q) array: ``order[i, k]`` is the output index of node i's k-th preference."""
        return readonly(self._rainbow_table[self._rainbow_ids])

    @cached_property
    def ranks(self) -> np.ndarray:
        """(N, q) array: ``ranks[i, j]`` is the rank (0 = best) of output j at node i."""
        inv = np.empty_like(self._rainbow_table)
        r, q = inv.shape
        inv[np.arange(r)[:, None], self._rainbow_table] = np.arange(q)[None, :]
        return readonly(inv[self._rainbow_ids])

    @property
    def rainbows(self) -> list[tuple]:
        """The distinct rainbows (as tuples of outputs), indexed by rainbow id."""
        return [tuple(self._outputs[j] for j in row) for row in self._rainbow_table]

    def rainbow(self, node: Hashable) -> tuple:
        """The rainbow of ``node`` as a tuple of outputs, most preferred first."""
        row = self._rainbow_table[self._rainbow_ids[self.index_of(node)]]
        return tuple(self._outputs[j] for j in row)

    def rainbow_id(self, rainbow: Sequence[Hashable]) -> int:
        """Index of ``rainbow`` in :attr:`rainbows`; raises if no node has it.

        ``rainbow`` is a sequence of outputs, most preferred first; a set or a mapping is
        rejected (:class:`ParameterTypeError`), as it has no reliable order.
        """
        if not is_sequence(rainbow):
            raise ParameterTypeError(
                "`rainbow` must be a sequence (list, tuple or 1-D array) of outputs, most "
                f"preferred first, got rainbow={rainbow!r}."
            )
        try:
            key = [self.output_index[o] for o in rainbow]
        except (KeyError, TypeError):
            raise InvalidGraphError(
                f"`rainbow` must be a permutation of outputs="
                f"{self._outputs!r}, got rainbow={rainbow!r}."
            ) from None
        if bool_clash(rainbow, key, self._outputs) is not NO_CLASH:
            raise InvalidGraphError(
                f"`rainbow` must be a permutation of outputs={self._outputs!r}, got "
                f"rainbow={rainbow!r} (booleans and integers are different outputs)."
            )
        hit = (
            np.flatnonzero(np.all(self._rainbow_table == np.asarray(key), axis=1))
            if len(key) == self.n_outputs
            else np.empty(0)
        )
        if hit.size == 0:
            raise InvalidGraphError(f"no node has the rainbow {tuple(rainbow)!r}.")
        return int(hit[0])

    @cached_property
    def adjacency(self) -> sp.csr_array:
        """Symmetric (N, N) CSR adjacency matrix with int8 ones (for a directed graph, that of
        the underlying undirected graph)."""
        u, v = self._edges[:, 0], self._edges[:, 1]
        rows = np.concatenate([u, v])
        cols = np.concatenate([v, u])
        data = np.ones(rows.shape[0], dtype=np.int8)
        adj = sp.csr_array((data, (rows, cols)), shape=(self._n, self._n))
        if self._directed:  # both arcs of a pair give one undirected edge
            adj.sum_duplicates()
            adj.data[:] = 1
        return adj

    # ------------------------------------------------------------------ regions (Definition 5)
    @property
    def declared_boundary_mask(self) -> np.ndarray:
        """(N,) bool array of the nodes declared boundary (e.g. node 0 of a line)."""
        return self._declared

    @cached_property
    def boundary_mask(self) -> np.ndarray:
        r"""(N,) bool array: node d is in :math:`\partial B^{f(d)}` (Definition 5) or declared."""
        ids = self._rainbow_ids
        u, v = self._edges[:, 0], self._edges[:, 1]
        cross = ids[u] != ids[v]
        mask = self._declared.copy()
        mask[u[cross]] = True
        mask[v[cross]] = True
        return readonly(mask)

    def _region_mask(self, rainbow: Sequence[Hashable]) -> np.ndarray:
        return self._rainbow_ids == self.rainbow_id(rainbow)

    def region(self, rainbow: Sequence[Hashable]) -> list:
        r""":math:`B^c`: the nodes whose rainbow is ``rainbow``."""
        return [self.nodes[i] for i in np.flatnonzero(self._region_mask(rainbow))]

    def boundary(self, rainbow: Sequence[Hashable]) -> list:
        r""":math:`\partial B^c` (eq. 3.2): nodes of :math:`B^c` with a neighbour outside it."""
        mask = self._region_mask(rainbow) & self.boundary_mask
        return [self.nodes[i] for i in np.flatnonzero(mask)]

    def interior(self, rainbow: Sequence[Hashable]) -> list:
        r""":math:`(B^c)^\circ` (eq. 3.1): nodes of :math:`B^c` whose neighbours are all in it."""
        mask = self._region_mask(rainbow) & ~self.boundary_mask
        return [self.nodes[i] for i in np.flatnonzero(mask)]

    # ------------------------------------------------------------------ networkx view
    @property
    def graph(self) -> nx.Graph:
        """The networkx graph (a DiGraph when :attr:`directed`), frozen, built on first use from
        this object's own data.

        It is this object's own copy (see the class notes); use ``nx.Graph(G.graph)`` for an
        editable one.
        """
        if self._nx is None:
            nodes = self.nodes
            g = nx.DiGraph() if self._directed else nx.Graph()
            if self._attributes is not None:  # snapshot of the graph given to the constructor
                graph_attrs, node_attrs, edge_attrs = self._attributes
                g.graph.update(graph_attrs)
                g.add_nodes_from(zip(nodes, node_attrs, strict=True))
                g.add_edges_from(
                    (nodes[a], nodes[b], edge_attrs.get(k, {}))
                    for k, (a, b) in enumerate(self._edges.tolist())
                )
                self._attributes = None
            else:  # built from arrays
                g.graph["outputs"] = list(self._outputs)
                rbs = self.rainbows
                g.add_nodes_from(
                    (node, {"rainbow": list(rbs[r])})
                    for node, r in zip(nodes, self._rainbow_ids.tolist(), strict=True)
                )
                g.add_edges_from((nodes[a], nodes[b]) for a, b in self._edges.tolist())
                if self._declared.any():
                    g.graph["boundary"] = [nodes[i] for i in np.flatnonzero(self._declared)]
            self._nx = nx.freeze(g)
        return self._nx

    def _outputs_text(self) -> str:
        """The outputs for a summary line: all of them up to 8, else the first 3 and last 2."""
        outs = self._outputs
        if len(outs) <= 8:
            return repr(outs)
        head = ", ".join(short_repr(o, 20) for o in outs[:3])
        tail = ", ".join(short_repr(o, 20) for o in outs[-2:])
        return f"({head}, ..., {tail})"

    def __repr__(self) -> str:
        kind = ", directed=True" if self._directed else ""
        many = f", n_outputs={len(self._outputs)}" if len(self._outputs) > 8 else ""
        return (
            f"RainbowGraph(n_nodes={self.n_nodes}, n_edges={self.n_edges}, "
            f"outputs={self._outputs_text()}{many}, "
            f"n_rainbows={self._rainbow_table.shape[0]}{kind})"
        )

    def _repr_html_(self) -> str:
        """A notebook's view: the sizes, then the distinct rainbows and how many nodes have each."""
        counts = np.bincount(self._rainbow_ids, minlength=self._rainbow_table.shape[0])
        table = self._rainbow_table
        rows = []
        for r in range(min(table.shape[0], HTML_MAX_ROWS)):
            shown = [short_repr(self._outputs[j], 20) for j in table[r, :8].tolist()]
            order = " > ".join(shown) + (" > ..." if table.shape[1] > 8 else "")
            rows.append([r, int(counts[r]), order])
        kind = "directed" if self._directed else "undirected"
        caption = (
            f"RainbowGraph ({kind}): {self.n_nodes} nodes, {self.n_edges} edges, "
            f"{self.n_outputs} outputs {self._outputs_text()}"
        )
        return html_table(
            caption,
            ["rainbow", "nodes", "order (most preferred first)"],
            rows,
            n_rows=table.shape[0],
        )
