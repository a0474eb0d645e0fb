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

import itertools
import numbers
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence, Set
from functools import cached_property
from typing import Any

import networkx as nx
import numpy as np
import scipy.sparse as sp

from ._format import HTML_MAX_ROWS, html_table, short_repr
from ._validation import check_int
from .exceptions import InvalidGraphError, ParameterError, ParameterTypeError

__all__ = ["RainbowGraph", "check_graph", "require_undirected"]

Loss = Callable[[Any, Any], float]


def _readonly(arr: np.ndarray) -> np.ndarray:
    arr.setflags(write=False)
    return arr


def _unordered(value: Any) -> str | None:
    """``"a set"`` or ``"a mapping"`` when ``value`` has no reliable order of its own, else None.

    A set iterates in an order that depends on ``PYTHONHASHSEED``; a mapping iterates over its
    keys, which is almost never what was meant. Neither can stand for an ordered sequence.
    """
    if isinstance(value, Set):
        return "a set"
    if isinstance(value, Mapping):
        return "a mapping"
    return None


def _ordered_sequence(value: Any, name: str, what: str, why: str) -> list:
    """``list(value)`` after checking it is an ordered sequence (not a str, set or mapping).

    ``what`` names the items ("records"); ``why`` says what the order means, for the message.
    """
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise ParameterTypeError(f"`{name}` must be a sequence of {what}, got {name}={value!r}.")
    kind = _unordered(value)
    if kind is not None:
        raise ParameterTypeError(
            f"`{name}` must be an ordered sequence ({why}), and {kind} has no reliable order; "
            f"got {name}={value!r}."
        )
    return list(value)


def _check_rainbow_sequence(rb: Any, node: Any, shown: str) -> None:
    """Raise InvalidGraphError unless the rainbow ``rb`` of ``node`` is an ordered sequence."""
    if not _is_sequence(rb):
        kind = _unordered(rb)
        why = f" ({kind} has no reliable order)" if kind else ""
        raise InvalidGraphError(
            f"the rainbow of node {node!r} must be a sequence (list, tuple or 1-D array) of "
            f"outputs, most preferred first{why}, got {shown}."
        )


def _is_sequence(value: Any) -> bool:
    """True for an ordered sequence of items: list, tuple, range, 1-D array (not str/bytes)."""
    if type(value) is list or type(value) is tuple:  # the common case, without an ABC check
        return True
    if isinstance(value, np.ndarray):
        return value.ndim == 1
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def _check_outputs(outputs: Any, name: str = "outputs") -> tuple:
    if outputs is None:
        raise InvalidGraphError(
            f"`{name}` is required: pass it or set the graph attribute 'outputs', got {name}=None."
        )
    outs = tuple(
        _ordered_sequence(
            outputs, name, "hashable values", "its order is the column order of every mechanism"
        )
    )
    if len(outs) == 0:
        raise InvalidGraphError(f"`{name}` must not be empty, got {name}={outputs!r}.")
    for o in outs:
        try:
            hash(o)
        except TypeError as exc:
            raise ParameterTypeError(
                f"`{name}` must be hashable, got unhashable output {o!r} in {name}={outputs!r}."
            ) from exc
    if len(set(outs)) != len(outs):
        dup = next(o for o in outs if outs.count(o) > 1)
        raise InvalidGraphError(
            f"`{name}` must not repeat a value, got {dup!r} twice in {name}={outputs!r}."
        )
    return outs


def _is_bool(x: Any) -> bool:
    return isinstance(x, bool | np.bool_)


def _bool_clash(rainbow: Iterable[Any], key: Sequence[int], outputs: tuple) -> Any:
    """The first item of ``rainbow`` that matched an output only because ``True == 1``.

    Python treats ``True``/``False`` as equal to ``1``/``0`` (same hash), so without this
    check a rainbow ``[True, 0]`` would silently name the outputs ``(1, 0)``.
    """
    for item, j in zip(rainbow, key, strict=False):
        if _is_bool(item) != _is_bool(outputs[j]):
            return item
    return _NO_CLASH


_NO_CLASH = object()


def _regular_array(value: Any, name: str) -> np.ndarray:
    """``np.asarray(value)``, naming ``name`` when the nesting is ragged."""
    try:
        return np.asarray(value)
    except (TypeError, ValueError):
        raise InvalidGraphError(
            f"`{name}` must be an array of a regular shape, got {name}={value!r}."
        ) from None


def _loss_value(loss: Callable[[Any, Any], Any], output: Any, answer: Any) -> float:
    value = loss(output, answer)
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise ParameterTypeError(
            f"`loss` must return a real number, got {value!r} for output={output!r} and "
            f"answer={answer!r}."
        )
    return float(value)


def _default_loss(output: Any, answer: Any) -> float:
    if (
        isinstance(output, numbers.Real)
        and isinstance(answer, numbers.Real)
        and not isinstance(output, bool)
        and not isinstance(answer, bool)
    ):
        return abs(float(output) - float(answer))
    return 0.0 if output == answer else 1.0


def _numeric_outputs(outputs: Any) -> tuple:
    outs = _check_outputs(outputs)
    for o in outs:
        if isinstance(o, bool) or not isinstance(o, numbers.Real) or not np.isfinite(o):
            raise ParameterTypeError(
                f"`outputs` must be finite real numbers, got {o!r} in outputs={outputs!r}."
            )
    return outs


def check_graph(value: Any, name: str = "graph") -> RainbowGraph:
    """``value`` if it is a :class:`RainbowGraph`, else :class:`ParameterTypeError` naming
    ``name`` (the one graph-argument check of the package)."""
    if not isinstance(value, RainbowGraph):
        raise ParameterTypeError(
            f"`{name}` must be a RainbowGraph, got {name}={type(value).__name__}."
        )
    return value


def require_undirected(graph: RainbowGraph, name: str, what: str) -> None:
    """Raise :class:`InvalidGraphError` if ``graph`` (the argument ``name``) is directed.

    ``what`` names the operation, e.g. "a graph morphism": operations built on symmetric
    neighbourhoods (morphisms, the boundary graph, the optimal rainbow mechanism) need an
    undirected graph.
    """
    if graph.directed:
        raise InvalidGraphError(
            f"`{name}` must be undirected for {what}, got a directed graph ({graph!r}); "
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

    def __init__(
        self,
        graph: nx.Graph,
        outputs: Sequence[Hashable] | None = None,
        *,
        rainbow: str = "rainbow",
        boundary: Iterable[Hashable] | None = None,
        answers: Sequence[Any] | Mapping | None = None,
    ) -> None:
        self._init_from_nx(graph, outputs, rainbow=rainbow, boundary=boundary)
        if answers is not None:
            self._answers = self._check_answers(answers)

    def _check_answers(self, answers: Any) -> tuple:
        """``answers`` as a tuple in node order: a mapping node -> answer or a sequence."""
        if isinstance(answers, Mapping):
            missing = [d for d in self.nodes if d not in answers]
            if missing:
                raise ParameterError(
                    f"`answers` has no answer for node {missing[0]!r}, got answers={answers!r}."
                )
            return tuple(answers[d] for d in self.nodes)
        values = _ordered_sequence(answers, "answers", "true answers", "answer i is node i's")
        if len(values) != self.n_nodes:
            raise ParameterError(
                f"`answers` must have one answer per node ({self.n_nodes}), got "
                f"{len(values)}: answers={answers!r}."
            )
        return tuple(values)

    def _init_from_nx(
        self,
        graph: nx.Graph,
        outputs: Sequence[Hashable] | None,
        *,
        rainbow: str,
        boundary: Iterable[Hashable] | None,
    ) -> None:
        """Validate ``graph`` and initialise from it, keeping a snapshot of its attributes."""
        if not isinstance(graph, nx.Graph):
            raise ParameterTypeError(
                f"`graph` must be a networkx.Graph, got graph={type(graph).__name__}."
            )
        if graph.is_multigraph():
            raise InvalidGraphError(
                "`graph` must be a simple graph, got a multigraph "
                f"({type(graph).__name__}); use nx.Graph(graph)."
            )
        try:
            hash(rainbow)
        except TypeError:
            raise ParameterTypeError(
                f"`rainbow` must be a node attribute name, got rainbow={rainbow!r}."
            ) from None
        if graph.number_of_nodes() == 0:
            raise InvalidGraphError("`graph` must have at least one node, got an empty graph.")
        loop = next(nx.selfloop_edges(graph), None)
        if loop is not None:
            raise InvalidGraphError(f"`graph` must not have self-loops, got the edge {loop[:2]!r}.")
        outs = _check_outputs(outputs if outputs is not None else graph.graph.get("outputs"))
        out_index = {o: j for j, o in enumerate(outs)}
        # True == 1 and False == 0 in Python: only then can a bool match a non-bool output.
        bool_sensitive = any(_is_bool(o) or o in (0, 1) for o in outs)
        bool_outputs = any(_is_bool(o) for o in outs)
        q = len(outs)
        nodes = list(graph.nodes)
        table: dict[tuple[int, ...], int] = {}
        ids = np.empty(len(nodes), dtype=np.intp)
        for i, node in enumerate(nodes):
            rb = graph.nodes[node].get(rainbow)
            if rb is None:
                raise InvalidGraphError(
                    f"node {node!r} has no `{rainbow}` attribute; every node "
                    "needs a rainbow (a permutation of `outputs`)."
                )
            _check_rainbow_sequence(rb, node, repr(rb))
            try:
                key = tuple(out_index[o] for o in rb)
            except (KeyError, TypeError):
                raise InvalidGraphError(
                    f"the rainbow of node {node!r} must be a permutation of outputs={outs!r}, "
                    f"got {rb!r} (it names an unknown output)."
                ) from None
            if bool_sensitive and (bool_outputs or type(rb) is np.ndarray or bool in map(type, rb)):
                clash = _bool_clash(rb, key, outs)
                if clash is not _NO_CLASH:
                    raise InvalidGraphError(
                        f"the rainbow of node {node!r} must be a permutation of "
                        f"outputs={outs!r}, got {rb!r} ({clash!r} is not an output: booleans "
                        "and integers are different outputs)."
                    )
            if len(key) != q or len(set(key)) != q:
                raise InvalidGraphError(
                    f"the rainbow of node {node!r} must be a permutation of outputs={outs!r}, "
                    f"got {rb!r}."
                )
            ids[i] = table.setdefault(key, len(table))
        rainbow_table = np.array(list(table), dtype=np.intp).reshape(len(table), q)
        index = {node: i for i, node in enumerate(nodes)}
        m = graph.number_of_edges()
        edge_attrs: dict[int, dict] = {}  # non-empty edge attributes, by edge row

        def endpoints() -> Iterator[int]:
            for k, (u, v, d) in enumerate(graph.edges(data=True)):
                if d:
                    edge_attrs[k] = dict(d)
                yield index[u]
                yield index[v]

        flat = np.fromiter(endpoints(), dtype=np.intp, count=2 * m)
        directed = graph.is_directed()
        edges = flat.reshape(m, 2) if directed else np.sort(flat.reshape(m, 2), axis=1)
        if boundary is None:
            boundary = graph.graph.get("boundary")
        # A snapshot (see the class notes): later edits of the caller's graph change nothing.
        # The attribute dictionaries are copied now; the networkx structure is rebuilt from the
        # arrays when `graph` is first asked for (copying a large networkx graph edge by edge
        # would cost more than everything else here).
        rows = [[outs[j] for j in key] for key in table]
        node_attrs = []
        for (_, data), r in zip(graph.nodes(data=True), ids.tolist(), strict=True):
            data = dict(data)
            data[rainbow] = list(rows[r])
            node_attrs.append(data)
        graph_attrs = dict(graph.graph)
        graph_attrs["outputs"] = list(outs)
        self._init(
            nodes,
            outs,
            edges,
            rainbow_table,
            ids,
            node_index=index,
            boundary=boundary,
            directed=directed,
        )
        self._attributes = (graph_attrs, node_attrs, edge_attrs)

    # ------------------------------------------------------------------ construction helpers
    def _init(
        self,
        nodes: Sequence[Hashable] | None,
        outputs: tuple,
        edges: np.ndarray,
        rainbow_table: np.ndarray,
        rainbow_ids: np.ndarray,
        *,
        node_index: dict | None = None,
        boundary: Iterable[Hashable] | None = None,
        answers: Sequence[Any] | None = None,
        directed: bool = False,
    ) -> None:
        self._directed = bool(directed)
        self._nodes = list(nodes) if nodes is not None else None
        self._n = len(rainbow_ids)
        self._outputs = outputs
        self._edges = _readonly(np.ascontiguousarray(edges, dtype=np.intp))
        self._rainbow_table = _readonly(rainbow_table)
        self._rainbow_ids = _readonly(rainbow_ids)
        self._nx: nx.Graph | None = None
        self._attributes: tuple[dict, list[dict], dict[int, dict]] | None = None
        self._node_index = node_index
        self._answers = tuple(answers) if answers is not None else None
        declared = np.zeros(self._n, dtype=bool)
        if boundary is not None:
            if isinstance(boundary, str | bytes) or not isinstance(boundary, Iterable):
                raise ParameterTypeError(
                    f"`boundary` must be an iterable of nodes, got boundary={boundary!r}."
                )
            for node in boundary:
                key = node if not isinstance(node, list) else tuple(node)
                try:
                    declared[self.index_of(key)] = True
                except InvalidGraphError:
                    raise InvalidGraphError(
                        f"`boundary` names the node {node!r}, which is not in the graph."
                    ) from None
        self._declared = _readonly(declared)

    @classmethod
    def _from_parts(cls, nodes, outputs, edges, rainbow_table, rainbow_ids, **kw) -> RainbowGraph:
        obj = cls.__new__(cls)
        obj._init(nodes, outputs, edges, rainbow_table, rainbow_ids, **kw)
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
        outs = _check_outputs(outputs)
        q = len(outs)
        table = _regular_array(rainbow_table, "rainbow_table")
        if table.ndim != 2 or table.shape[1] != q or table.shape[0] == 0:
            raise InvalidGraphError(
                f"`rainbow_table` must have shape (R, {q}) with R >= 1, got shape {table.shape}."
            )
        if not np.issubdtype(table.dtype, np.integer):
            raise ParameterTypeError(
                f"`rainbow_table` must hold integers, got dtype {table.dtype}."
            )
        bad = np.flatnonzero(np.any(np.sort(table, axis=1) != np.arange(q), axis=1))
        if bad.size:
            raise InvalidGraphError(
                f"`rainbow_table` row {int(bad[0])} must be a permutation of "
                f"range({q}), got {table[bad[0]].tolist()}."
            )
        ids = _regular_array(rainbow_ids, "rainbow_ids")
        if ids.ndim != 1 or ids.shape[0] == 0 or not np.issubdtype(ids.dtype, np.integer):
            raise InvalidGraphError(
                "`rainbow_ids` must be a non-empty 1-D integer array, got "
                f"shape {ids.shape} and dtype {ids.dtype}."
            )
        if ids.min() < 0 or ids.max() >= table.shape[0]:
            raise InvalidGraphError(
                f"`rainbow_ids` must lie in [0, {table.shape[0]}), got values "
                f"in [{ids.min()}, {ids.max()}]."
            )
        n = ids.shape[0]
        e = _regular_array(edges, "edges")
        if e.size == 0:
            e = np.empty((0, 2), dtype=np.intp)
        if e.ndim != 2 or e.shape[1] != 2 or not np.issubdtype(e.dtype, np.integer):
            raise InvalidGraphError(
                f"`edges` must be an integer array of shape (E, 2), got shape "
                f"{e.shape} and dtype {e.dtype}."
            )
        if e.size and (e.min() < 0 or e.max() >= n):
            raise InvalidGraphError(
                f"`edges` must hold node indices in [0, {n}), got values in [{e.min()}, {e.max()}]."
            )
        if not isinstance(directed, bool):
            raise ParameterTypeError(f"`directed` must be a bool, got directed={directed!r}.")
        e = e.astype(np.intp, copy=False)
        if not directed:
            e = np.sort(e, axis=1)
        loops = np.flatnonzero(e[:, 0] == e[:, 1])
        if loops.size:
            raise InvalidGraphError(
                f"`edges` must not contain self-loops, got {e[loops[0]].tolist()}"
                f" at row {int(loops[0])}."
            )
        keys = e[:, 0].astype(np.int64) * n + e[:, 1]
        skeys = np.sort(keys)
        dup = np.flatnonzero(skeys[1:] == skeys[:-1])
        if dup.size:
            k = int(skeys[dup[0]])
            what = "arc" if directed else "edge"
            raise InvalidGraphError(
                f"`edges` must list each {what} once (a simple graph), got "
                f"[{k // n}, {k % n}] twice."
            )
        if nodes is not None:
            kind = _unordered(nodes)
            if kind is not None or isinstance(nodes, str | bytes):
                raise ParameterTypeError(
                    "`nodes` must be an ordered sequence of labels (label i names node i), "
                    f"got nodes={nodes!r}."
                )
            nodes = list(nodes)
            if len(nodes) != n:
                raise InvalidGraphError(
                    f"`nodes` must have {n} labels (one per rainbow id), got {len(nodes)}."
                )
            if len(set(nodes)) != n:
                raise InvalidGraphError("`nodes` must not repeat a label.")
        G = cls._from_parts(
            nodes,
            outs,
            e,
            table.astype(np.intp),
            ids.astype(np.intp),
            boundary=boundary,
            directed=directed,
        )
        if answers is not None:
            G._answers = G._check_answers(answers)
        return G

    @classmethod
    def from_query(
        cls,
        graph: nx.Graph,
        outputs: Sequence[Hashable],
        *,
        answer: str | Callable[[Hashable], Any] | Mapping = "answer",
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
        if not isinstance(graph, nx.Graph):
            raise ParameterTypeError(
                f"`graph` must be a networkx.Graph, got graph={type(graph).__name__}."
            )
        outs = _check_outputs(outputs)
        if loss is not None and not callable(loss):
            raise ParameterTypeError(f"`loss` must be callable, got loss={loss!r}.")
        nodes = list(graph.nodes)
        if isinstance(answer, str):
            missing = [d for d in nodes if answer not in graph.nodes[d]]
            if missing:
                raise InvalidGraphError(
                    f"node {missing[0]!r} has no `{answer}` attribute "
                    "(the true query answer, see `answer`)."
                )
            answers = [graph.nodes[d][answer] for d in nodes]
        elif isinstance(answer, Mapping):
            missing = [d for d in nodes if d not in answer]
            if missing:
                raise InvalidGraphError(f"`answer` has no entry for node {missing[0]!r}.")
            answers = [answer[d] for d in nodes]
        elif callable(answer):
            answers = [answer(d) for d in nodes]
        else:
            raise ParameterTypeError(
                f"`answer` must be an attribute name, a mapping or a callable, got "
                f"answer={answer!r}."
            )
        lossf = loss or _default_loss
        numeric = loss is None and all(
            isinstance(x, numbers.Real) and not isinstance(x, bool) for x in (*outs, *answers)
        )
        if numeric:
            losses = np.abs(
                np.asarray(outs, dtype=float)[None, :] - np.asarray(answers, dtype=float)[:, None]
            )
        else:
            losses = np.array([[_loss_value(lossf, o, a) for o in outs] for a in answers])
            losses = losses.reshape(len(nodes), len(outs))
        if not np.all(np.isfinite(losses)):
            raise ParameterError("`loss` must return finite numbers, got a non-finite loss.")
        order = np.argsort(losses, axis=1, kind="stable")
        h = graph.copy()  # keeps the graph type (a DiGraph stays directed)
        for d, row in zip(nodes, order, strict=True):
            h.nodes[d]["rainbow"] = [outs[j] for j in row]
        h.graph["outputs"] = list(outs)
        return cls(h, outs, answers=answers)

    # ------------------------------------------------------------------ builders
    # The graphs of :mod:`rainbowdp.builders`, which documents them: each function there is the
    # classmethod of the same name.
    @classmethod
    def line(cls, rainbow: Sequence[Hashable], n: int) -> RainbowGraph:
        """Same as :func:`rainbowdp.builders.line` (documented there)."""
        outs = _check_outputs(rainbow, "rainbow")
        n = check_int(n, "n", minimum=0)
        edges = np.column_stack([np.arange(n), np.arange(1, n + 1)])
        return RainbowGraph.from_edges(
            edges,
            outputs=outs,
            rainbow_table=np.arange(len(outs), dtype=np.intp)[None, :],
            rainbow_ids=np.zeros(n + 1, dtype=np.intp),
            boundary=[0],
        )

    @classmethod
    def cycle(
        cls, rainbows: Sequence[Sequence[Hashable]], *, outputs: Sequence[Hashable] | None = None
    ) -> RainbowGraph:
        """Same as :func:`rainbowdp.builders.cycle` (documented there)."""
        rainbows = _ordered_sequence(rainbows, "rainbows", "rainbows", "node i gets rainbows[i]")
        for i, r in enumerate(rainbows):
            _check_rainbow_sequence(r, i, f"rainbows[{i}]={r!r}")
        rainbows = [tuple(r) for r in rainbows]
        if len(rainbows) < 3:
            raise InvalidGraphError(
                f"`rainbows` must give at least 3 nodes for a simple cycle, got {len(rainbows)}."
            )
        g = nx.cycle_graph(len(rainbows))
        nx.set_node_attributes(g, dict(enumerate(rainbows)), "rainbow")
        return RainbowGraph(g, outputs if outputs is not None else rainbows[0])

    @classmethod
    def circulant(
        cls,
        n: int,
        distances: Iterable[int],
        *,
        distortion: Sequence[float] | None = None,
        directed: bool = False,
    ) -> RainbowGraph:
        """Same as :func:`rainbowdp.builders.circulant` (documented there)."""
        n = check_int(n, "n", minimum=1)
        if isinstance(distances, str | bytes) or not isinstance(distances, Iterable):
            raise ParameterTypeError(
                f"`distances` must be an iterable of integers, got {distances!r}."
            )
        mus = sorted({check_int(mu, "distances", minimum=1, maximum=n) for mu in distances})
        if not mus:
            raise InvalidGraphError("`distances` must contain at least one shift, got none.")
        if not isinstance(directed, bool):
            raise ParameterTypeError(f"`directed` must be a bool, got directed={directed!r}.")
        size = n + 1
        if distortion is None:
            rho = np.arange(size, dtype=float)
        else:
            rho = _regular_array(distortion, "distortion")
            if rho.dtype.kind not in "iuf":
                raise ParameterTypeError(
                    f"`distortion` must hold real numbers, got dtype {rho.dtype}: "
                    f"distortion={distortion!r}."
                )
            rho = rho.astype(float)
        if rho.shape != (size,) or not np.all(np.isfinite(rho)):
            raise ParameterError(
                f"`distortion` must hold {size} finite numbers, got {distortion!r}."
            )
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

    @classmethod
    def count_path(
        cls, n: int, *, outputs: Sequence[float] | None = None, start: int = 0
    ) -> RainbowGraph:
        """Same as :func:`rainbowdp.builders.count_path` (documented there)."""
        start = check_int(start, "start", minimum=0)
        n = check_int(n, "n", minimum=start + 1)
        outs = tuple(range(n + 1)) if outputs is None else _numeric_outputs(outputs)
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

    @classmethod
    def from_records(
        cls,
        universe: Iterable[Hashable],
        *,
        size: int,
        query: Callable[[tuple], Any],
        outputs: Sequence[Hashable],
        relation: str = "add_remove",
        multiset: bool = True,
        loss: Loss | None = None,
    ) -> RainbowGraph:
        """Same as :func:`rainbowdp.builders.from_records` (documented there)."""
        recs = _ordered_sequence(
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
        return _readonly(self._rainbow_table[self._rainbow_ids])

    @cached_property
    def ranks(self) -> np.ndarray:
        """(N, q) array: ``ranks[i, j]`` is the rank (0 = best) of output j at node i."""
        inv = np.empty_like(self._rainbow_table)
        r, q = inv.shape
        inv[np.arange(r)[:, None], self._rainbow_table] = np.arange(q)[None, :]
        return _readonly(inv[self._rainbow_ids])

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
        if not _is_sequence(rainbow):
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
        if _bool_clash(rainbow, key, self._outputs) is not _NO_CLASH:
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
        return _readonly(mask)

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
