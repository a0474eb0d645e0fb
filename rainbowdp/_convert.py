r"""Input conversion for :class:`~rainbowdp.graph.RainbowGraph`: checks and array building.

The class keeps the model (validated arrays and what is derived from them); this module turns
what a caller gives -- a networkx graph with rainbow attributes, integer arrays, a query and a
loss -- into those arrays, raising the errors the constructors document. It imports nothing
above :mod:`rainbowdp._validation`, so every module of the model may use it.

The arrays are those of :class:`~rainbowdp.graph.RainbowGraph`: ``rainbow_table`` (R, q), row r
the output indices of rainbow r most preferred first (Gu et al. [1]_, Definition 1);
``rainbow_ids`` (N,); ``edges`` (E, 2) node indices.

References
----------
.. [1] Y. Gu, Z. Zhou, O. Günlü, R. G. L. D'Oliveira, P. Sadeghi, M. Médard, R. F. Schaefer,
   "Generalized rainbow differential privacy", Definitions 1, 5 and 7.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence, Set
from typing import Any, NamedTuple

import networkx as nx
import numpy as np

from .exceptions import InvalidGraphError, ParameterError, ParameterTypeError

__all__ = [
    "NO_CLASH",
    "Parts",
    "bool_clash",
    "check_answers",
    "check_outputs",
    "check_rainbow_sequence",
    "declared_mask",
    "default_loss",
    "is_sequence",
    "numeric_outputs",
    "ordered_sequence",
    "parts_from_edges",
    "parts_from_nx",
    "query_rainbows",
    "readonly",
    "regular_array",
]

#: A snapshot of a networkx graph's attribute dictionaries: the graph's, one per node (in node
#: order) and the non-empty ones of the edges (by edge row).
Attributes = tuple[dict, list[dict], dict[int, dict]]


class Parts(NamedTuple):
    """The validated pieces a :class:`~rainbowdp.graph.RainbowGraph` is made of."""

    nodes: list | None
    outputs: tuple
    edges: np.ndarray
    rainbow_table: np.ndarray
    rainbow_ids: np.ndarray
    node_index: dict | None = None
    boundary: Iterable[Hashable] | None = None
    directed: bool = False
    attributes: Attributes | None = None


def readonly(arr: np.ndarray) -> np.ndarray:
    """``arr``, made read-only in place."""
    arr.setflags(write=False)
    return arr


def unordered(value: Any) -> str | None:
    """``"a set"`` or ``"a mapping"`` when ``value`` has no reliable order of its own, else None.

    A set iterates in an order that depends on ``PYTHONHASHSEED``; a mapping iterates over its
    keys, which is almost never what was meant. Neither can stand for an ordered sequence.
    """
    if isinstance(value, Set):
        return "a set"
    if isinstance(value, Mapping):
        return "a mapping"
    return None


def ordered_sequence(value: Any, name: str, what: str, why: str) -> list:
    """``list(value)`` after checking it is an ordered sequence (not a str, set or mapping).

    ``what`` names the items ("records"); ``why`` says what the order means, for the message.
    """
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise ParameterTypeError(f"`{name}` must be a sequence of {what}, got {name}={value!r}.")
    kind = unordered(value)
    if kind is not None:
        raise ParameterTypeError(
            f"`{name}` must be an ordered sequence ({why}), and {kind} has no reliable order; "
            f"got {name}={value!r}."
        )
    return list(value)


def is_sequence(value: Any) -> bool:
    """True for an ordered sequence of items: list, tuple, range, 1-D array (not str/bytes)."""
    if type(value) is list or type(value) is tuple:  # the common case, without an ABC check
        return True
    if isinstance(value, np.ndarray):
        return value.ndim == 1
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def check_rainbow_sequence(rb: Any, node: Any, shown: str) -> None:
    """Raise InvalidGraphError unless the rainbow ``rb`` of ``node`` is an ordered sequence."""
    if not is_sequence(rb):
        kind = unordered(rb)
        why = f" ({kind} has no reliable order)" if kind else ""
        raise InvalidGraphError(
            f"the rainbow of node {node!r} must be a sequence (list, tuple or 1-D array) of "
            f"outputs, most preferred first{why}, got {shown}."
        )


def check_outputs(outputs: Any, name: str = "outputs") -> tuple:
    """``outputs`` as a tuple: an ordered, non-empty sequence of distinct hashable values."""
    if outputs is None:
        raise InvalidGraphError(
            f"`{name}` is required: pass it or set the graph attribute 'outputs', got {name}=None."
        )
    outs = tuple(
        ordered_sequence(
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


def numeric_outputs(outputs: Any) -> tuple:
    """:func:`check_outputs`, and every output a finite real number (not a bool)."""
    outs = check_outputs(outputs)
    for o in outs:
        if isinstance(o, bool) or not isinstance(o, numbers.Real) or not np.isfinite(float(o)):
            raise ParameterTypeError(
                f"`outputs` must be finite real numbers, got {o!r} in outputs={outputs!r}."
            )
    return outs


def _is_bool(x: Any) -> bool:
    return isinstance(x, bool | np.bool_)


#: What :func:`bool_clash` returns when no item clashes.
NO_CLASH = object()


def bool_clash(rainbow: Iterable[Any], key: Sequence[int], outputs: tuple) -> Any:
    """The first item of ``rainbow`` that matched an output only because ``True == 1``.

    Python treats ``True``/``False`` as equal to ``1``/``0`` (same hash), so without this
    check a rainbow ``[True, 0]`` would silently name the outputs ``(1, 0)``. Returns
    :data:`NO_CLASH` when there is none.
    """
    for item, j in zip(rainbow, key, strict=False):
        if _is_bool(item) != _is_bool(outputs[j]):
            return item
    return NO_CLASH


def regular_array(value: Any, name: str) -> np.ndarray:
    """``np.asarray(value)``, naming ``name`` when the nesting is ragged."""
    try:
        return np.asarray(value)
    except (TypeError, ValueError):
        raise InvalidGraphError(
            f"`{name}` must be an array of a regular shape, got {name}={value!r}."
        ) from None


def check_answers(answers: Any, nodes: Sequence[Hashable]) -> tuple:
    """``answers`` as a tuple in node order: a mapping node -> answer or a sequence."""
    if isinstance(answers, Mapping):
        missing = [d for d in nodes if d not in answers]
        if missing:
            raise ParameterError(
                f"`answers` has no answer for node {missing[0]!r}, got answers={answers!r}."
            )
        return tuple(answers[d] for d in nodes)
    values = ordered_sequence(answers, "answers", "true answers", "answer i is node i's")
    if len(values) != len(nodes):
        raise ParameterError(
            f"`answers` must have one answer per node ({len(nodes)}), got "
            f"{len(values)}: answers={answers!r}."
        )
    return tuple(values)


def declared_mask(
    boundary: Iterable[Hashable] | None, n: int, index_of: Callable[[Hashable], int]
) -> np.ndarray:
    """(N,) bool array of the nodes named by ``boundary`` (``index_of`` maps a node to its row,
    raising :class:`InvalidGraphError` for an unknown node)."""
    declared = np.zeros(n, dtype=bool)
    if boundary is None:
        return declared
    if isinstance(boundary, str | bytes) or not isinstance(boundary, Iterable):
        raise ParameterTypeError(
            f"`boundary` must be an iterable of nodes, got boundary={boundary!r}."
        )
    for node in boundary:
        key = node if not isinstance(node, list) else tuple(node)
        try:
            declared[index_of(key)] = True
        except InvalidGraphError:
            raise InvalidGraphError(
                f"`boundary` names the node {node!r}, which is not in the graph."
            ) from None
    return declared


# ---------------------------------------------------------------------- from a networkx graph
def check_nx_graph(G: Any, rainbow: Any) -> None:
    """Raise unless ``G`` is a simple, non-empty networkx graph without self-loops and
    ``rainbow`` can name a node attribute (the messages name the argument ``graph``)."""
    if not isinstance(G, nx.Graph):
        raise ParameterTypeError(f"`graph` must be a networkx.Graph, got graph={type(G).__name__}.")
    if G.is_multigraph():
        raise InvalidGraphError(
            "`graph` must be a simple graph, got a multigraph "
            f"({type(G).__name__}); use nx.Graph(graph)."
        )
    try:
        hash(rainbow)
    except TypeError:
        raise ParameterTypeError(
            f"`rainbow` must be a node attribute name, got rainbow={rainbow!r}."
        ) from None
    if G.number_of_nodes() == 0:
        raise InvalidGraphError("`graph` must have at least one node, got an empty graph.")
    loop = next(nx.selfloop_edges(G), None)
    if loop is not None:
        raise InvalidGraphError(f"`graph` must not have self-loops, got the edge {loop[:2]!r}.")


def _rainbow_key(
    rb: Any, node: Hashable, outs: tuple, out_index: dict, bool_sensitive: bool, bool_outputs: bool
) -> tuple[int, ...]:
    """The rainbow ``rb`` of ``node`` as output indices, after checking it is a permutation."""
    check_rainbow_sequence(rb, node, repr(rb))
    try:
        key = tuple(out_index[o] for o in rb)
    except (KeyError, TypeError):
        raise InvalidGraphError(
            f"the rainbow of node {node!r} must be a permutation of outputs={outs!r}, "
            f"got {rb!r} (it names an unknown output)."
        ) from None
    if bool_sensitive and (bool_outputs or type(rb) is np.ndarray or bool in map(type, rb)):
        clash = bool_clash(rb, key, outs)
        if clash is not NO_CLASH:
            raise InvalidGraphError(
                f"the rainbow of node {node!r} must be a permutation of "
                f"outputs={outs!r}, got {rb!r} ({clash!r} is not an output: booleans "
                "and integers are different outputs)."
            )
    q = len(outs)
    if len(key) != q or len(set(key)) != q:
        raise InvalidGraphError(
            f"the rainbow of node {node!r} must be a permutation of outputs={outs!r}, got {rb!r}."
        )
    return key


def rainbows_from_nx(
    G: nx.Graph, nodes: list, outs: tuple, rainbow: Hashable
) -> tuple[np.ndarray, np.ndarray]:
    """``(rainbow_table, rainbow_ids)`` from the node attribute ``rainbow`` of ``G``."""
    out_index = {o: j for j, o in enumerate(outs)}
    # True == 1 and False == 0 in Python: only then can a bool match a non-bool output.
    bool_sensitive = any(_is_bool(o) or o in (0, 1) for o in outs)
    bool_outputs = any(_is_bool(o) for o in outs)
    table: dict[tuple[int, ...], int] = {}
    ids = np.empty(len(nodes), dtype=np.intp)
    for i, node in enumerate(nodes):
        rb = G.nodes[node].get(rainbow)
        if rb is None:
            raise InvalidGraphError(
                f"node {node!r} has no `{rainbow}` attribute; every node "
                "needs a rainbow (a permutation of `outputs`)."
            )
        key = _rainbow_key(rb, node, outs, out_index, bool_sensitive, bool_outputs)
        ids[i] = table.setdefault(key, len(table))
    rainbow_table = np.array(list(table), dtype=np.intp).reshape(len(table), len(outs))
    return rainbow_table, ids


def edges_from_nx(G: nx.Graph, index: dict) -> tuple[np.ndarray, dict[int, dict]]:
    """``(edges, edge_attrs)``: the (E, 2) node indices of ``G``'s edges (``u < v`` in each row
    when undirected) and a copy of every non-empty edge attribute dictionary, by edge row."""
    m = G.number_of_edges()
    edge_attrs: dict[int, dict] = {}

    def endpoints() -> Iterator[int]:
        for k, (u, v, d) in enumerate(G.edges(data=True)):
            if d:
                edge_attrs[k] = dict(d)
            yield index[u]
            yield index[v]

    flat = np.fromiter(endpoints(), dtype=np.intp, count=2 * m)
    edges = flat.reshape(m, 2) if G.is_directed() else np.sort(flat.reshape(m, 2), axis=1)
    return edges, edge_attrs


def parts_from_nx(
    G: nx.Graph,
    outputs: Sequence[Hashable] | None,
    *,
    rainbow: str,
    boundary: Iterable[Hashable] | None,
) -> Parts:
    """Validate the networkx graph ``G`` and return its :class:`Parts`, with a snapshot of its
    attributes (see the notes of :class:`~rainbowdp.graph.RainbowGraph`)."""
    check_nx_graph(G, rainbow)
    outs = check_outputs(outputs if outputs is not None else G.graph.get("outputs"))
    nodes = list(G.nodes)
    table, ids = rainbows_from_nx(G, nodes, outs, rainbow)
    index = {node: i for i, node in enumerate(nodes)}
    edges, edge_attrs = edges_from_nx(G, index)
    if boundary is None:
        boundary = G.graph.get("boundary")
    # A snapshot: later edits of the caller's graph change nothing. The attribute dictionaries
    # are copied now; the networkx structure is rebuilt from the arrays when `graph` is first
    # asked for (copying a large networkx graph edge by edge would cost more than everything
    # else here).
    rows = [[outs[j] for j in key] for key in table.tolist()]
    node_attrs = []
    for (_, data), r in zip(G.nodes(data=True), ids.tolist(), strict=True):
        data = dict(data)
        data[rainbow] = list(rows[r])
        node_attrs.append(data)
    graph_attrs = dict(G.graph)
    graph_attrs["outputs"] = list(outs)
    return Parts(
        nodes,
        outs,
        edges,
        table,
        ids,
        node_index=index,
        boundary=boundary,
        directed=G.is_directed(),
        attributes=(graph_attrs, node_attrs, edge_attrs),
    )


# ---------------------------------------------------------------------- from integer arrays
def check_rainbow_table(rainbow_table: Any, q: int) -> np.ndarray:
    """``rainbow_table`` as an (R, q) integer array whose rows are permutations of range(q)."""
    table = regular_array(rainbow_table, "rainbow_table")
    if table.ndim != 2 or table.shape[1] != q or table.shape[0] == 0:
        raise InvalidGraphError(
            f"`rainbow_table` must have shape (R, {q}) with R >= 1, got shape {table.shape}."
        )
    if not np.issubdtype(table.dtype, np.integer):
        raise ParameterTypeError(f"`rainbow_table` must hold integers, got dtype {table.dtype}.")
    bad = np.flatnonzero(np.any(np.sort(table, axis=1) != np.arange(q), axis=1))
    if bad.size:
        raise InvalidGraphError(
            f"`rainbow_table` row {int(bad[0])} must be a permutation of "
            f"range({q}), got {table[bad[0]].tolist()}."
        )
    return table


def check_rainbow_ids(rainbow_ids: Any, r: int) -> np.ndarray:
    """``rainbow_ids`` as a non-empty 1-D integer array with values in ``[0, r)``."""
    ids = regular_array(rainbow_ids, "rainbow_ids")
    if ids.ndim != 1 or ids.shape[0] == 0 or not np.issubdtype(ids.dtype, np.integer):
        raise InvalidGraphError(
            "`rainbow_ids` must be a non-empty 1-D integer array, got "
            f"shape {ids.shape} and dtype {ids.dtype}."
        )
    if ids.min() < 0 or ids.max() >= r:
        raise InvalidGraphError(
            f"`rainbow_ids` must lie in [0, {r}), got values in [{ids.min()}, {ids.max()}]."
        )
    return ids


def check_edge_array(edges: Any, n: int, directed: Any) -> np.ndarray:
    """``edges`` as an (E, 2) intp array over ``range(n)``: no self-loop, no repeated edge (arc
    when ``directed``); each row sorted when undirected."""
    e = regular_array(edges, "edges")
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
            f"`edges` must list each {what} once (a simple graph), got [{k // n}, {k % n}] twice."
        )
    return e


def check_node_labels(nodes: Any, n: int) -> list | None:
    """``nodes`` as a list of ``n`` distinct labels (label i names node i), or None."""
    if nodes is None:
        return None
    kind = unordered(nodes)
    if kind is not None or isinstance(nodes, str | bytes):
        raise ParameterTypeError(
            "`nodes` must be an ordered sequence of labels (label i names node i), "
            f"got nodes={nodes!r}."
        )
    labels = list(nodes)
    if len(labels) != n:
        raise InvalidGraphError(
            f"`nodes` must have {n} labels (one per rainbow id), got {len(labels)}."
        )
    if len(set(labels)) != n:
        raise InvalidGraphError("`nodes` must not repeat a label.")
    return labels


def parts_from_edges(
    edges: Any,
    *,
    outputs: Sequence[Hashable],
    rainbow_table: Any,
    rainbow_ids: Any,
    nodes: Sequence[Hashable] | None,
    boundary: Iterable[Hashable] | None,
    directed: Any,
) -> Parts:
    """The :class:`Parts` of :meth:`~rainbowdp.graph.RainbowGraph.from_edges`, validated in the
    order its documentation states (outputs, rainbows, edges, node labels)."""
    outs = check_outputs(outputs)
    table = check_rainbow_table(rainbow_table, len(outs))
    ids = check_rainbow_ids(rainbow_ids, table.shape[0])
    n = ids.shape[0]
    e = check_edge_array(edges, n, directed)
    labels = check_node_labels(nodes, n)
    return Parts(
        labels,
        outs,
        e,
        table.astype(np.intp),
        ids.astype(np.intp),
        boundary=boundary,
        directed=directed,
    )


# ---------------------------------------------------------------------- from a query
def loss_value(loss: Callable[[Any, Any], Any], output: Any, answer: Any) -> float:
    """``loss(output, answer)`` as a float, after checking it is a real number."""
    value = loss(output, answer)
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise ParameterTypeError(
            f"`loss` must return a real number, got {value!r} for output={output!r} and "
            f"answer={answer!r}."
        )
    return float(value)


def default_loss(output: Any, answer: Any) -> float:
    """``|output - answer|`` for real numbers, else 0 for equal values and 1 otherwise."""
    if (
        isinstance(output, numbers.Real)
        and isinstance(answer, numbers.Real)
        and not isinstance(output, bool)
        and not isinstance(answer, bool)
    ):
        return abs(float(output) - float(answer))
    return 0.0 if output == answer else 1.0


def query_answers(G: nx.Graph, nodes: list, answer: Any) -> list:
    """The true answer of every node: ``answer`` is an attribute name, a mapping or a callable."""
    if isinstance(answer, str):
        missing = [d for d in nodes if answer not in G.nodes[d]]
        if missing:
            raise InvalidGraphError(
                f"node {missing[0]!r} has no `{answer}` attribute "
                "(the true query answer, see `answer`)."
            )
        return [G.nodes[d][answer] for d in nodes]
    if isinstance(answer, Mapping):
        missing = [d for d in nodes if d not in answer]
        if missing:
            raise InvalidGraphError(f"`answer` has no entry for node {missing[0]!r}.")
        return [answer[d] for d in nodes]
    if callable(answer):
        return [answer(d) for d in nodes]
    raise ParameterTypeError(
        f"`answer` must be an attribute name, a mapping or a callable, got answer={answer!r}."
    )


def query_rainbows(
    G: Any, outputs: Sequence[Hashable], answer: Any, loss: Any
) -> tuple[nx.Graph, tuple, list]:
    """``(H, outputs, answers)`` for :meth:`~rainbowdp.graph.RainbowGraph.from_query`: ``H`` a
    copy of the networkx graph ``G`` whose node attribute ``"rainbow"`` sorts the outputs by
    ``loss(output, answer)`` (a stable sort: ties keep the order of ``outputs``)."""
    if not isinstance(G, nx.Graph):
        raise ParameterTypeError(f"`graph` must be a networkx.Graph, got graph={type(G).__name__}.")
    outs = check_outputs(outputs)
    if loss is not None and not callable(loss):
        raise ParameterTypeError(f"`loss` must be callable, got loss={loss!r}.")
    nodes = list(G.nodes)
    answers = query_answers(G, nodes, answer)
    lossf = loss or default_loss
    numeric = loss is None and all(
        isinstance(x, numbers.Real) and not isinstance(x, bool) for x in (*outs, *answers)
    )
    if numeric:
        losses = np.abs(
            np.asarray(outs, dtype=float)[None, :] - np.asarray(answers, dtype=float)[:, None]
        )
    else:
        losses = np.array([[loss_value(lossf, o, a) for o in outs] for a in answers])
        losses = losses.reshape(len(nodes), len(outs))
    if not np.all(np.isfinite(losses)):
        raise ParameterError("`loss` must return finite numbers, got a non-finite loss.")
    order = np.argsort(losses, axis=1, kind="stable")
    h = G.copy()  # keeps the graph type (a DiGraph stays directed)
    for d, row in zip(nodes, order, strict=True):
        h.nodes[d]["rainbow"] = [outs[j] for j in row]
    h.graph["outputs"] = list(outs)
    return h, outs, answers
