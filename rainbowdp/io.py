r"""Graph and mechanism files.

The format is networkx **node-link JSON** (:func:`networkx.node_link_data` with
``edges="edges"``), so any networkx user can read the files:

- graph attribute ``outputs``: the output set (a list);
- node attribute ``rainbow``: the node's rainbow, most preferred first (a list);
- optional node attribute ``mechanism``: probabilities in ``outputs`` order (all nodes or none);
- optional graph attribute ``boundary``: declared boundary nodes;
- optional node attribute ``answer``: the true query answer (graphs built from a query), read
  back as :attr:`RainbowGraph.answers` when every node has one;
- any other attribute is kept (e.g. ``description``, ``expected``).

Node ids that are tuples (datasets as records) are written as JSON lists and read back as tuples.
The legacy key ``links`` is accepted for edges. GraphML files are read too: there, ``outputs``,
``rainbow`` and ``mechanism`` are JSON-encoded strings.

Writes are atomic: the file is written next to its destination and renamed into place.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

from .exceptions import GraphFileError, InvalidGraphError, InvalidMechanismError, ParameterTypeError
from .graph import RainbowGraph
from .mechanism import Mechanism

__all__ = ["load", "load_assignment", "load_graph", "load_mechanism", "save_graph"]


def _hashable(x: Any) -> Hashable:
    if isinstance(x, list):
        return tuple(_hashable(y) for y in x)
    return x


def _jsonable(x: Any) -> Any:
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, tuple | set | frozenset):
        return list(x)
    raise ParameterTypeError(f"value {x!r} of type {type(x).__name__} cannot be written to JSON")


def _read_json(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise GraphFileError(
            f"cannot read graph file {str(path)!r}: {exc.strerror or exc}."
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise GraphFileError(
            f"{str(path)!r} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        ) from None


def _parse_node_link(data: Any, path: Path) -> nx.Graph:
    where = str(path)
    if not isinstance(data, dict):
        raise GraphFileError(
            f"{where!r}: the top level must be a JSON object (node-link data), "
            f"got {type(data).__name__}."
        )
    if data.get("directed", False):
        raise GraphFileError(
            f"{where!r}: field 'directed' must be false (rainbow graphs are undirected), got true."
        )
    if data.get("multigraph", False):
        raise GraphFileError(f"{where!r}: field 'multigraph' must be false, got true.")
    nodes = data.get("nodes")
    if not isinstance(nodes, list):
        raise GraphFileError(
            f"{where!r}: field 'nodes' must be a list of node objects, got {nodes!r}."
        )
    key = "edges" if "edges" in data else "links"
    edges = data.get(key, [])
    if not isinstance(edges, list):
        raise GraphFileError(
            f"{where!r}: field '{key}' must be a list of edge objects, got {edges!r}."
        )
    attrs = data.get("graph", {})
    if not isinstance(attrs, dict):
        raise GraphFileError(f"{where!r}: field 'graph' must be an object, got {attrs!r}.")
    g = nx.Graph(**attrs)
    for k, nd in enumerate(nodes):
        if not isinstance(nd, dict) or "id" not in nd:
            raise GraphFileError(
                f"{where!r}: nodes[{k}] must be an object with an 'id', got {nd!r}."
            )
        node = _hashable(nd["id"])
        if node in g:
            raise GraphFileError(f"{where!r}: nodes[{k}] repeats the id {nd['id']!r}.")
        g.add_node(node, **{a: v for a, v in nd.items() if a != "id"})
    for k, ed in enumerate(edges):
        if not isinstance(ed, dict) or "source" not in ed or "target" not in ed:
            raise GraphFileError(
                f"{where!r}: {key}[{k}] must be an object with 'source' and 'target', got {ed!r}."
            )
        u, v = _hashable(ed["source"]), _hashable(ed["target"])
        for end in (u, v):
            if end not in g:
                raise GraphFileError(f"{where!r}: {key}[{k}] names the unknown node {end!r}.")
        if u == v:
            raise GraphFileError(f"{where!r}: {key}[{k}] is a self-loop on node {u!r}.")
        if g.has_edge(u, v):
            raise GraphFileError(f"{where!r}: {key}[{k}] repeats the edge ({u!r}, {v!r}).")
        g.add_edge(u, v, **{a: val for a, val in ed.items() if a not in ("source", "target")})
    return g


def _parse_graphml(path: Path) -> nx.Graph:
    where = str(path)
    try:
        g = nx.read_graphml(path)
    except (OSError, nx.NetworkXError, SyntaxError, ValueError) as exc:
        raise GraphFileError(f"cannot read GraphML file {where!r}: {exc}") from None
    if g.is_directed() or g.is_multigraph():
        raise GraphFileError(f"{where!r}: the graph must be undirected and simple.")
    g = nx.Graph(g)

    def decode(value: Any, field: str) -> Any:
        if isinstance(value, str):
            try:
                return json.loads(value)
            except json.JSONDecodeError:
                raise GraphFileError(
                    f"{where!r}: field '{field}' must be a JSON list, got {value!r}."
                ) from None
        return value

    if "outputs" in g.graph:
        g.graph["outputs"] = decode(g.graph["outputs"], "outputs")
    if "boundary" in g.graph:
        g.graph["boundary"] = decode(g.graph["boundary"], "boundary")
    for node, nd in g.nodes(data=True):
        for field in ("rainbow", "mechanism"):
            if field in nd:
                nd[field] = decode(nd[field], f"{field}' of node '{node}")
    return g


def _read_nx(path: str | os.PathLike) -> tuple[nx.Graph, Path]:
    p = Path(path)
    if p.suffix.lower() in (".graphml", ".xml"):
        return _parse_graphml(p), p
    return _parse_node_link(_read_json(p), p), p


def _build(g: nx.Graph, p: Path) -> tuple[RainbowGraph, Mechanism | None]:
    where = str(p)
    outputs = g.graph.get("outputs")
    if not isinstance(outputs, list):
        raise GraphFileError(
            f"{where!r}: graph attribute 'outputs' must be a list of outputs, got {outputs!r}."
        )
    try:
        G = RainbowGraph(g, [_hashable(o) for o in outputs])
    except (InvalidGraphError, TypeError) as exc:
        raise GraphFileError(f"{where!r}: {exc}") from None
    if all("answer" in g.nodes[n] for n in G.nodes):
        G._answers = tuple(_hashable(g.nodes[n]["answer"]) for n in G.nodes)
    with_m = [n for n in G.nodes if "mechanism" in g.nodes[n]]
    if not with_m:
        return G, None
    if len(with_m) != G.n_nodes:
        missing = next(n for n in G.nodes if "mechanism" not in g.nodes[n])
        raise GraphFileError(
            f"{where!r}: node {missing!r} has no 'mechanism' attribute, but "
            "other nodes do (give all nodes a mechanism or none)."
        )
    try:
        M = Mechanism(G, {n: g.nodes[n]["mechanism"] for n in G.nodes})
    except (InvalidMechanismError, TypeError) as exc:
        raise GraphFileError(f"{where!r}: field 'mechanism': {exc}") from None
    return G, M


def load(path: str | os.PathLike) -> tuple[RainbowGraph, Mechanism | None]:
    """Read a graph file; return the rainbow graph and its mechanism (``None`` if absent).

    Raises
    ------
    GraphFileError
        If the file cannot be read or a field is malformed (file and field are named).
    """
    g, p = _read_nx(path)
    return _build(g, p)


def load_graph(path: str | os.PathLike) -> RainbowGraph:
    """Read the rainbow graph of a node-link JSON or GraphML file (see the module notes).

    Examples
    --------
    >>> import tempfile, os
    >>> G = RainbowGraph.line(["yes", "no"], 2)
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = save_graph(G, os.path.join(d, "line.json"))
    ...     H = load_graph(path)
    >>> H.n_nodes, H.outputs, H.boundary(["yes", "no"])
    (3, ('yes', 'no'), [0])
    """
    return load(path)[0]


def load_mechanism(path: str | os.PathLike) -> Mechanism:
    """Read the mechanism stored in a graph file (node attribute ``mechanism``).

    Raises
    ------
    GraphFileError
        If the file has no mechanism, or as in :func:`load`.
    """
    _, M = load(path)
    if M is None:
        raise GraphFileError(f"{str(path)!r} has no 'mechanism' node attribute.")
    return M


def save_graph(
    graph: RainbowGraph,
    path: str | os.PathLike,
    *,
    mechanism: Mechanism | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> Path:
    """Write ``graph`` (and optionally ``mechanism``) as node-link JSON, atomically.

    Parameters
    ----------
    graph : RainbowGraph
    path : path-like
        Destination (``.json``).
    mechanism : Mechanism, optional
        Stored as the node attribute ``mechanism``; must live on ``graph``.
    metadata : mapping, optional
        Extra graph attributes (e.g. ``{"description": ..., "expected": ...}``).

    Returns
    -------
    pathlib.Path
        The path written.
    """
    if not isinstance(graph, RainbowGraph):
        raise ParameterTypeError(
            f"`graph` must be a RainbowGraph, got graph={type(graph).__name__}."
        )
    if mechanism is not None:
        if not isinstance(mechanism, Mechanism):
            raise ParameterTypeError(
                f"`mechanism` must be a Mechanism, got {type(mechanism).__name__}."
            )
        if mechanism.graph is not graph:
            raise InvalidMechanismError(
                "`mechanism` must live on `graph` (mechanism.graph is another RainbowGraph)."
            )
    if metadata is not None and not isinstance(metadata, Mapping):
        raise ParameterTypeError(f"`metadata` must be a mapping, got metadata={metadata!r}.")
    h = graph.graph.copy()
    h.graph["outputs"] = list(graph.outputs)
    declared = graph.declared_boundary_mask
    if declared.any():
        h.graph["boundary"] = [graph.nodes[i] for i in np.flatnonzero(declared)]
    h.graph.update(metadata or {})
    rbs = graph.rainbows
    probs = mechanism.probabilities.tolist() if mechanism is not None else None
    for i, (node, r) in enumerate(zip(graph.nodes, graph.rainbow_ids.tolist(), strict=True)):
        h.nodes[node]["rainbow"] = list(rbs[r])
        if graph.answers is not None:
            h.nodes[node]["answer"] = graph.answers[i]
        if probs is not None:
            h.nodes[node]["mechanism"] = probs[i]
        else:
            h.nodes[node].pop("mechanism", None)
    data = nx.node_link_data(h, edges="edges")
    p = Path(path)
    try:
        text = json.dumps(data, indent=1, default=_jsonable)
    except TypeError as exc:
        raise ParameterTypeError(f"the graph cannot be written as JSON: {exc}.") from None
    fd, tmp = tempfile.mkstemp(
        dir=p.parent if str(p.parent) else ".", prefix=f".{p.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return p


def load_assignment(
    path: str | os.PathLike, graph: RainbowGraph, *, kinds: tuple[str, ...] = ("nodes", "rainbows")
) -> dict:
    """Read a JSON file assigning distributions to nodes or rainbows.

    Accepted forms (distributions are lists in ``graph.outputs`` order)::

        {"nodes": {"<node id as JSON>": [p...], ...}}
        {"rainbows": [{"rainbow": [...], "distribution": [p...]}, ...]}

    Node keys are matched against ``json.dumps(node)`` and ``str(node)``. Returns a dict
    ``{node: list}`` or ``{rainbow tuple: list}``. ``kinds`` names the accepted fields
    (``rainbowdp design --fixed`` takes node rows only).

    Raises
    ------
    GraphFileError
        On a malformed file, an unknown node or an unknown rainbow (named).
    """
    p = Path(path)
    data = _read_json(p)
    where = str(p)
    wanted = " or ".join(f"'{k}'" for k in kinds)
    if not isinstance(data, dict) or not (set(kinds) & set(data)):
        raise GraphFileError(
            f"{where!r}: expected an object with a {wanted} field, got {str(data)[:80]!r}."
        )
    extra = sorted(({"nodes", "rainbows"} - set(kinds)) & set(data))
    if extra:
        raise GraphFileError(f"{where!r}: field {extra[0]!r} is not accepted here (only {wanted}).")
    out: dict = {}
    if "rainbows" in data:
        items = data["rainbows"]
        if not isinstance(items, list):
            raise GraphFileError(f"{where!r}: field 'rainbows' must be a list, got {items!r}.")
        for k, item in enumerate(items):
            if not isinstance(item, dict) or "rainbow" not in item or "distribution" not in item:
                raise GraphFileError(
                    f"{where!r}: rainbows[{k}] must have 'rainbow' and "
                    f"'distribution', got {item!r}."
                )
            rb = tuple(_hashable(o) for o in item["rainbow"])
            try:
                graph.rainbow_id(rb)
            except InvalidGraphError as exc:
                raise GraphFileError(f"{where!r}: rainbows[{k}]: {exc}") from None
            out[rb] = item["distribution"]
    if "nodes" in data:
        items = data["nodes"]
        if not isinstance(items, dict):
            raise GraphFileError(
                f"{where!r}: field 'nodes' must be an object node -> list, got {items!r}."
            )
        lookup = {}
        for node in graph.nodes:
            lookup.setdefault(
                json.dumps(_jsonable(node) if isinstance(node, tuple) else node, default=_jsonable),
                node,
            )
            lookup.setdefault(str(node), node)
        for key, vec in items.items():
            if key not in lookup:
                raise GraphFileError(f"{where!r}: field 'nodes' names the unknown node {key!r}.")
            out[lookup[key]] = vec
    return out
