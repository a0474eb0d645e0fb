r"""Graph and mechanism files.

The format is networkx **node-link JSON** (:func:`networkx.node_link_data` with
``edges="edges"``), so any networkx user can read the files:

- graph attribute ``outputs``: the output set (a list);
- node attribute ``rainbow``: the node's rainbow, most preferred first (a list);
- optional node attribute ``mechanism``: probabilities in ``outputs`` order (all nodes or none),
  JSON numbers only -- strings such as ``"0.5"`` and booleans are rejected;
- optional graph attribute ``boundary``: declared boundary nodes;
- optional node attribute ``answer``: the true query answer (graphs built from a query), read
  back as :attr:`RainbowGraph.answers` when every node has one;
- any other attribute is kept (e.g. ``description``, ``expected``).

Node ids that are tuples (datasets as records) are written as JSON lists and read back as tuples.
The legacy key ``links`` is accepted for edges. GraphML files are read too: there, ``outputs``,
``rainbow`` and ``mechanism`` are JSON-encoded strings.

Reading is defensive: a file larger than :data:`MAX_FILE_BYTES` (checked before reading; at most
``MAX_FILE_BYTES + 1`` bytes are ever read, so an endless source such as ``/dev/zero`` stops),
text that is not UTF-8, JSON nested too deeply, an unknown GraphML ``attr.type`` or any malformed
field raises :class:`~rainbowdp.exceptions.GraphFileError` naming the file (and the field).

Writes are strict JSON (no ``NaN``/``Infinity`` tokens) and atomic: the file is written next to
its destination and renamed into place. A new file gets the permissions of any newly created
file (``0o666`` minus the umask, e.g. ``0o644`` under umask ``0o022``); an existing file keeps
its permission bits.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import secrets
import stat
from collections.abc import Hashable, Iterator, Mapping
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

from .exceptions import (
    GraphFileError,
    InvalidGraphError,
    InvalidMechanismError,
    ParameterError,
    ParameterTypeError,
    RainbowDPError,
)
from .graph import RainbowGraph, check_graph
from .mechanism import Mechanism, check_mechanism

__all__ = [
    "MAX_FILE_BYTES",
    "RESERVED_GRAPH_ATTRIBUTES",
    "load",
    "load_assignment",
    "load_graph",
    "load_mechanism",
    "save_graph",
]

#: Largest file the readers accept, in bytes (256 MiB); larger files raise GraphFileError.
MAX_FILE_BYTES = 256 * 2**20

#: Graph attributes written by :func:`save_graph` itself; ``metadata`` may not set them.
RESERVED_GRAPH_ATTRIBUTES = ("outputs", "boundary", "directed", "multigraph")

#: Node and edge attributes that node-link JSON uses for ids (an attribute of that name would be
#: silently dropped by :func:`networkx.node_link_data`).
_RESERVED_NODE_ATTRIBUTES = ("id",)
_RESERVED_EDGE_ATTRIBUTES = ("source", "target")

#: GraphML ``attr.type`` values that networkx reads.
_GRAPHML_TYPES = ("boolean", "int", "integer", "long", "float", "double", "string", "yfiles")

_GRAPHML_SUFFIXES = (".graphml", ".xml")


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


def check_path(path: Any, name: str = "path") -> Path:
    """``path`` as a :class:`~pathlib.Path`: a non-empty str or os.PathLike (not bytes)."""
    if isinstance(path, bytes) or not isinstance(path, str | os.PathLike):
        raise ParameterTypeError(f"`{name}` must be a str or os.PathLike, got {name}={path!r}.")
    if str(path) == "":
        raise ParameterError(f"`{name}` must not be empty, got {name}={path!r}.")
    return Path(path)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


@contextlib.contextmanager
def _reader_errors(where: str) -> Iterator[None]:
    """Turn any error of the parsers (networkx's bare ValueError for a ``null`` id, a
    KeyError, ...) into a one-line :class:`GraphFileError` naming the file; rainbowdp's own
    errors pass through."""
    try:
        yield
    except RainbowDPError:
        raise
    except RecursionError:
        raise GraphFileError(f"{where!r}: a field is nested too deeply to be read.") from None
    except (
        ValueError,
        TypeError,
        KeyError,
        IndexError,
        OverflowError,
        nx.NetworkXException,
    ) as exc:
        raise GraphFileError(
            f"cannot read {where!r}: {_one_line(exc)} ({type(exc).__name__})."
        ) from None


def read_bytes(path: Path, what: str = "graph file") -> bytes:
    """The bytes of ``path``, refusing files larger than :data:`MAX_FILE_BYTES`.

    The size of a regular file is checked before reading; anything else (a pipe, a device) is
    read up to ``MAX_FILE_BYTES + 1`` bytes only, so an endless source cannot exhaust memory.
    """
    limit = MAX_FILE_BYTES
    where = str(path)
    too_big = (
        f"{what} {where!r} is larger than the limit of {limit} bytes (rainbowdp.io.MAX_FILE_BYTES)."
    )
    try:
        with open(path, "rb") as fh:
            st = os.fstat(fh.fileno())
            if stat.S_ISDIR(st.st_mode):
                raise GraphFileError(f"cannot read {what} {where!r}: it is a directory.")
            if stat.S_ISREG(st.st_mode) and st.st_size > limit:
                raise GraphFileError(too_big)
            data = fh.read(limit + 1)
    except OSError as exc:
        raise GraphFileError(f"cannot read {what} {where!r}: {exc.strerror or exc}.") from None
    if len(data) > limit:
        raise GraphFileError(too_big)
    return data


class _DuplicateKey(Exception):
    pass


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _read_json(path: Path, what: str = "graph file", *, unique_keys: bool = False) -> Any:
    """Parse a JSON file; ``unique_keys`` refuses an object that repeats a key (JSON parsers
    otherwise keep the last value silently)."""
    where = str(path)
    data = read_bytes(path, what)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise GraphFileError(
            f"{where!r} is not UTF-8 text: invalid byte {data[exc.start : exc.start + 1]!r} "
            f"at offset {exc.start}."
        ) from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys if unique_keys else None)
    except _DuplicateKey as exc:
        raise GraphFileError(f"{where!r}: an object gives the key {exc.args[0]!r} twice.") from None
    except json.JSONDecodeError as exc:
        raise GraphFileError(
            f"{where!r} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        ) from None
    except RecursionError:
        raise GraphFileError(f"{where!r}: the JSON is nested too deeply to be read.") from None
    except ValueError as exc:  # e.g. an integer with more digits than Python converts
        raise GraphFileError(f"{where!r} is not valid JSON: {_one_line(exc)}.") from None


def _parse_node_link(data: Any, path: Path) -> nx.Graph:
    where = str(path)
    if not isinstance(data, dict):
        raise GraphFileError(
            f"{where!r}: the top level must be a JSON object (node-link data), "
            f"got {type(data).__name__}."
        )
    directed = data.get("directed", False)
    if directed is None:
        directed = False
    if not isinstance(directed, bool):
        raise GraphFileError(
            f"{where!r}: field 'directed' must be true or false, got {directed!r}."
        )
    multi = data.get("multigraph", False)
    if multi is not False and multi is not None and multi != 0:
        raise GraphFileError(f"{where!r}: field 'multigraph' must be false, got {multi!r}.")
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
    g = nx.DiGraph() if directed else nx.Graph()
    g.graph.update(attrs)  # not nx.Graph(**attrs): an attribute may be named like a parameter
    for k, nd in enumerate(nodes):
        if not isinstance(nd, dict) or "id" not in nd:
            raise GraphFileError(
                f"{where!r}: nodes[{k}] must be an object with an 'id', got {nd!r}."
            )
        if nd["id"] is None:
            raise GraphFileError(
                f"{where!r}: nodes[{k}] has the id null, which is not a valid node id (use a "
                "number, a string or a list of them)."
            )
        node = _hashable(nd["id"])
        try:
            hash(node)
        except TypeError:
            raise GraphFileError(
                f"{where!r}: nodes[{k}] has the id {nd['id']!r}, which is not a valid node id "
                "(use a number, a string or a list of them)."
            ) from None
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
            what = "arc" if directed else "edge"
            raise GraphFileError(f"{where!r}: {key}[{k}] repeats the {what} ({u!r}, {v!r}).")
        g.add_edge(u, v, **{a: val for a, val in ed.items() if a not in ("source", "target")})
    return g


def _graphml_key_problem(data: bytes, exc: KeyError) -> str:
    """Explain a KeyError raised by the GraphML reader: an unknown type, or a bad value."""
    from xml.etree import ElementTree

    bad = exc.args[0] if exc.args else None
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError:  # pragma: no cover - the reader parsed it already
        root = None
    if root is not None:
        for key in root.iter():
            if str(key.tag).rsplit("}", 1)[-1] != "key":
                continue
            kind = key.get("attr.type")
            if kind is not None and kind not in _GRAPHML_TYPES:
                return (
                    f"key {key.get('id')!r} (attr.name {key.get('attr.name')!r}) has the "
                    f"unknown attr.type {kind!r}; supported: {', '.join(_GRAPHML_TYPES[:-1])}."
                )
    return f"unknown key, type or value {bad!r} (a boolean must be true or false)."


def _parse_graphml(path: Path) -> nx.Graph:
    from xml.etree.ElementTree import ParseError

    from networkx.readwrite.graphml import GraphMLReader

    where = str(path)
    data = read_bytes(path)
    try:
        graphs = list(GraphMLReader()(string=data))
    except KeyError as exc:
        raise GraphFileError(f"{where!r}: {_graphml_key_problem(data, exc)}") from None
    except RecursionError:
        raise GraphFileError(f"{where!r}: the XML is nested too deeply to be read.") from None
    except (ParseError, nx.NetworkXError, ValueError, TypeError, IndexError) as exc:
        raise GraphFileError(f"cannot read GraphML file {where!r}: {_one_line(exc)}") from None
    if len(graphs) != 1:
        raise GraphFileError(
            f"{where!r}: a GraphML file must hold exactly one <graph>, got {len(graphs)}."
        )
    g = graphs[0]
    if g.is_multigraph():  # the reader returns a multigraph only for repeated edges
        raise GraphFileError(f"{where!r}: the graph must be simple, got a repeated edge.")
    g = nx.DiGraph(g) if g.is_directed() else nx.Graph(g)
    g.graph.pop("node_default", None)
    g.graph.pop("edge_default", None)

    def decode(value: Any, field: str) -> Any:
        if isinstance(value, str):
            try:
                return json.loads(value)
            except RecursionError:
                raise GraphFileError(f"{where!r}: field {field} is nested too deeply.") from None
            except ValueError:
                raise GraphFileError(
                    f"{where!r}: field {field} must be a JSON list, got {value!r}."
                ) from None
        return value

    if "outputs" in g.graph:
        g.graph["outputs"] = decode(g.graph["outputs"], "'outputs'")
    if "boundary" in g.graph:
        g.graph["boundary"] = decode(g.graph["boundary"], "'boundary'")
    for node, nd in g.nodes(data=True):
        for field in ("rainbow", "mechanism"):
            if field in nd:
                nd[field] = decode(nd[field], f"'{field}' of node {node!r}")
    return g


def _read_nx(path: Any) -> tuple[nx.Graph, Path]:
    p = check_path(path)
    if p.suffix.lower() in _GRAPHML_SUFFIXES:
        return _parse_graphml(p), p
    return _parse_node_link(_read_json(p), p), p


def _is_json_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _check_distribution(value: Any, field: str, where: str) -> list:
    """A file's probability vector: a JSON list of numbers (no strings, no booleans)."""
    if not isinstance(value, list):
        raise GraphFileError(f"{where!r}: {field} must be a list of numbers, got {value!r}.")
    for k, x in enumerate(value):
        if not _is_json_number(x):
            kind = {bool: "a boolean", str: "a string", list: "a list", dict: "an object"}.get(
                type(x), f"a {type(x).__name__}"
            )
            raise GraphFileError(
                f"{where!r}: {field} must hold numbers, got {x!r} ({kind}) at position {k} "
                f"of {value!r}."
            )
    return value


def _build(g: nx.Graph, p: Path) -> tuple[RainbowGraph, Mechanism | None]:
    where = str(p)
    outputs = g.graph.get("outputs")
    if not isinstance(outputs, list):
        raise GraphFileError(
            f"{where!r}: graph attribute 'outputs' must be a list of outputs, got {outputs!r}."
        )
    boundary = g.graph.get("boundary")
    if boundary is not None:
        if not isinstance(boundary, list):
            raise GraphFileError(
                f"{where!r}: graph attribute 'boundary' must be a list of node ids, "
                f"got {boundary!r}."
            )
        boundary = [_hashable(b) for b in boundary]
    answers = None
    if all("answer" in d for _, d in g.nodes(data=True)):
        answers = {n: _hashable(d["answer"]) for n, d in g.nodes(data=True)}
    try:
        G = RainbowGraph(g, [_hashable(o) for o in outputs], boundary=boundary, answers=answers)
    except (InvalidGraphError, ParameterError, ParameterTypeError) as exc:
        raise GraphFileError(f"{where!r}: {exc}") from None
    with_m = [n for n in G.nodes if "mechanism" in g.nodes[n]]
    if not with_m:
        return G, None
    if len(with_m) != G.n_nodes:
        missing = next(n for n in G.nodes if "mechanism" not in g.nodes[n])
        raise GraphFileError(
            f"{where!r}: node {missing!r} has no 'mechanism' attribute, but "
            "other nodes do (give all nodes a mechanism or none)."
        )
    rows = {
        n: _check_distribution(g.nodes[n]["mechanism"], f"field 'mechanism' of node {n!r}", where)
        for n in G.nodes
    }
    try:
        M = Mechanism(G, rows)
    except (InvalidMechanismError, ParameterError, ParameterTypeError) as exc:
        raise GraphFileError(f"{where!r}: field 'mechanism': {exc}") from None
    return G, M


def load(path: str | os.PathLike) -> tuple[RainbowGraph, Mechanism | None]:
    """Read a graph file; return the rainbow graph and its mechanism (``None`` if absent).

    Files ending in ``.graphml`` or ``.xml`` are read as GraphML, any other as node-link JSON.

    Raises
    ------
    GraphFileError
        If the file cannot be read, is larger than :data:`MAX_FILE_BYTES`, is not UTF-8 JSON
        (or GraphML) or a field is malformed (file and field are named).
    ParameterTypeError
        If ``path`` is not a str or path-like object.
    """
    p = check_path(path)
    with _reader_errors(str(p)):
        g, _ = _read_nx(p)
        return _build(g, p)


def load_graph(path: str | os.PathLike) -> RainbowGraph:
    """Read the rainbow graph of a node-link JSON or GraphML file (see the module notes).

    Examples
    --------
    >>> import tempfile, os
    >>> from rainbowdp import builders
    >>> G = builders.line(["yes", "no"], 2)
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


def _check_metadata(metadata: Any) -> dict:
    if metadata is None:
        return {}
    if not isinstance(metadata, Mapping):
        raise ParameterTypeError(f"`metadata` must be a mapping, got metadata={metadata!r}.")
    for key in metadata:
        if not isinstance(key, str):
            raise ParameterTypeError(
                f"`metadata` keys must be strings (JSON object keys), got the key {key!r}."
            )
        if key in RESERVED_GRAPH_ATTRIBUTES:
            raise ParameterError(
                f"`metadata` must not set the reserved graph attribute {key!r} (written from "
                f"the graph itself; reserved: {', '.join(RESERVED_GRAPH_ATTRIBUTES)}), got "
                f"metadata[{key!r}]={metadata[key]!r}."
            )
    return dict(metadata)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same directory.

    The temporary file is created with mode ``0o666``, so the umask applies as for any new file
    (``tempfile.mkstemp`` would give ``0o600``); an existing regular file keeps its permission
    bits. A symbolic link is followed, so the file it points to is replaced (as ``cp`` and the
    shell's ``>`` do); the link itself stays.

    Raises
    ------
    IsADirectoryError
        If ``path`` is a directory (the message names it and asks for a file name).
    FileNotFoundError, NotADirectoryError
        If the directory of ``path`` does not exist, or is a file (the message names it).
    OSError
        Any other failure to write, naming ``path``.
    """
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    if target.is_dir():
        raise IsADirectoryError(
            errno.EISDIR, "Is a directory; give a file name inside it", str(path)
        )
    directory = target.parent
    if not directory.is_dir():
        if directory.exists():
            raise NotADirectoryError(
                errno.ENOTDIR, f"Its directory {str(directory)!r} is a file", str(path)
            )
        raise FileNotFoundError(
            errno.ENOENT, f"Its directory {str(directory)!r} does not exist", str(path)
        )
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None
    for _ in range(100):
        tmp = directory / f".{target.name}.{secrets.token_hex(6)}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
            break
        except FileExistsError:  # pragma: no cover - 48 random bits
            continue
        except OSError as exc:  # name the destination, not the temporary file
            raise type(exc)(exc.errno, exc.strerror, str(path)) from None
    else:  # pragma: no cover
        raise FileExistsError(17, "cannot create a temporary file", str(directory))
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def save_graph(
    G: RainbowGraph,
    path: str | os.PathLike,
    *,
    mechanism: Mechanism | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> Path:
    """Write ``G`` (and optionally ``mechanism``) as node-link JSON, atomically.

    Parameters
    ----------
    G : RainbowGraph
    path : path-like
        Destination (``.json``; a ``.graphml``/``.xml`` name is refused, as it would be read
        back as GraphML).
    mechanism : Mechanism, optional
        Stored as the node attribute ``mechanism``; must live on ``G``.
    metadata : mapping, optional
        Extra graph attributes (e.g. ``{"description": ..., "expected": ...}``), with string
        keys other than :data:`RESERVED_GRAPH_ATTRIBUTES`.

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    ParameterTypeError
        On an argument of the wrong type, or a value that JSON cannot represent.
    ParameterError
        If ``metadata`` sets a reserved attribute, a node or edge attribute is named like a
        node-link id field (``id``, ``source``, ``target``), a float is NaN or infinite (JSON has
        no such numbers), or ``path`` ends in ``.graphml``/``.xml``.
    InvalidMechanismError
        If ``mechanism`` lives on another graph.
    OSError
        If the file cannot be written: :class:`IsADirectoryError` if ``path`` is a directory,
        :class:`FileNotFoundError` or :class:`NotADirectoryError` if its directory does not
        exist or is a file; each message names the path. A symbolic link is followed: the file
        it points to is replaced.

    Notes
    -----
    A new file gets the permissions of any newly created file under the current umask; an
    existing file keeps its permission bits (see the module notes).
    """
    check_graph(G, "G")
    p = check_path(path)
    if p.suffix.lower() in _GRAPHML_SUFFIXES:
        raise ParameterError(
            f"`path` must not end in {p.suffix!r}: save_graph writes node-link JSON, and such a "
            f"file would be read back as GraphML; got path={str(path)!r}."
        )
    if mechanism is not None:
        check_mechanism(mechanism, "mechanism")
        if mechanism.graph is not G:
            raise InvalidMechanismError(
                "`mechanism` must live on `graph` (mechanism.graph is another RainbowGraph)."
            )
    extra = _check_metadata(metadata)
    h = nx.DiGraph(G.graph) if G.directed else nx.Graph(G.graph)
    h.graph["outputs"] = list(G.outputs)
    h.graph.pop("boundary", None)
    declared = G.declared_boundary_mask
    if declared.any():
        h.graph["boundary"] = [G.nodes[i] for i in np.flatnonzero(declared)]
    h.graph.update(extra)
    for node, attrs in h.nodes(data=True):
        for a in _RESERVED_NODE_ATTRIBUTES:
            if a in attrs:
                raise ParameterError(
                    f"node {node!r} has an attribute named {a!r}, which node-link JSON uses for "
                    f"the node id (it would be lost); got {a}={attrs[a]!r}."
                )
    for u, v, attrs in h.edges(data=True):
        for a in _RESERVED_EDGE_ATTRIBUTES:
            if a in attrs:
                raise ParameterError(
                    f"edge ({u!r}, {v!r}) has an attribute named {a!r}, which node-link JSON "
                    f"uses for an endpoint (it would be lost); got {a}={attrs[a]!r}."
                )
    rbs = G.rainbows
    probs = mechanism.probabilities.tolist() if mechanism is not None else None
    for i, (node, r) in enumerate(zip(G.nodes, G.rainbow_ids.tolist(), strict=True)):
        h.nodes[node]["rainbow"] = list(rbs[r])
        if G.answers is not None:
            h.nodes[node]["answer"] = G.answers[i]
        if probs is not None:
            h.nodes[node]["mechanism"] = probs[i]
        else:
            h.nodes[node].pop("mechanism", None)
    data = nx.node_link_data(h, edges="edges")
    try:
        text = json.dumps(data, indent=1, default=_jsonable, allow_nan=False)
    except TypeError as exc:  # including _jsonable's ParameterTypeError
        raise ParameterTypeError(f"the graph cannot be written as JSON: {exc}.") from None
    except RecursionError:
        raise ParameterError(
            "the graph cannot be written as JSON: an attribute is nested too deeply."
        ) from None
    except ValueError as exc:  # NaN or infinity (allow_nan=False), or a circular reference
        raise ParameterError(
            f"the graph cannot be written as JSON: {exc} (JSON has no NaN or infinity; "
            "check `metadata` and the graph's attributes)."
        ) from None
    write_atomic(p, text + "\n")
    return p


def load_assignment(
    path: str | os.PathLike,
    G: RainbowGraph,
    *,
    kinds: tuple[str, ...] = ("nodes", "rainbows"),
    return_order: bool = False,
) -> dict | tuple[dict, str | None]:
    """Read a JSON file assigning distributions to nodes or rainbows.

    Accepted forms::

        {"order": "outputs", "nodes": {"<node id as JSON>": [p...], ...}}
        {"order": "rainbow", "rainbows": [{"rainbow": [...], "distribution": [p...]}, ...]}

    The optional top-level field ``"order"`` states how every distribution of the file is
    written (``docs/conventions.md``): ``"outputs"`` (the default, as before the field
    existed), entry j is the probability of ``G.outputs[j]``; ``"rainbow"``, entry k is
    the probability of the k-th preferred output of the entry's rainbow (of the node's
    rainbow for ``"nodes"``). Node keys are matched against ``json.dumps(node)`` and
    ``str(node)``.

    Parameters
    ----------
    path : str or os.PathLike
        The JSON file.
    G : RainbowGraph
        The graph whose nodes, rainbows and outputs the file refers to.
    kinds : tuple of {"nodes", "rainbows"}, default both
        The accepted fields (``rainbowdp design --fixed`` takes node rows only).
    return_order : bool, default False
        Also return the order the file states (``None`` if it has no ``"order"`` field).

    Returns
    -------
    dict or (dict, str or None)
        ``{node: list}`` or ``{rainbow tuple: list}``, every list in ``G.outputs`` order
        whatever order the file uses (rows of a ``"rainbow"`` file are rearranged, their
        numbers kept as written); with ``return_order``, also the stated order.

    Raises
    ------
    GraphFileError
        On a malformed file, an ``"order"`` other than ``"outputs"`` or ``"rainbow"`` (the
        field and the value are named), an unknown or repeated node or rainbow, or a
        distribution that is not a list of numbers (named), or, in a ``"rainbow"`` file, not
        of length q.
    """
    p = check_path(path)
    check_graph(G, "G")
    if (
        not isinstance(kinds, tuple | list)
        or not kinds
        or any(k not in ("nodes", "rainbows") for k in kinds)
    ):
        raise ParameterError(
            f"`kinds` must be a non-empty tuple of 'nodes' and 'rainbows', got kinds={kinds!r}."
        )
    if not isinstance(return_order, bool):
        raise ParameterTypeError(
            f"`return_order` must be True or False, got return_order={return_order!r}."
        )
    with _reader_errors(str(p)):
        return _read_assignment(p, G, kinds, return_order)


def _read_assignment(
    p: Path, G: RainbowGraph, kinds: tuple[str, ...], return_order: bool
) -> dict | tuple[dict, str | None]:
    """The body of :func:`load_assignment` (arguments checked)."""
    data = _read_json(p, "assignment file", unique_keys=True)
    where = str(p)
    wanted = " or ".join(f"'{k}'" for k in kinds)
    if not isinstance(data, dict) or not (set(kinds) & set(data)):
        raise GraphFileError(
            f"{where!r}: expected an object with a {wanted} field, got {str(data)[:80]!r}."
        )
    extra = sorted(({"nodes", "rainbows"} - set(kinds)) & set(data))
    if extra:
        raise GraphFileError(f"{where!r}: field {extra[0]!r} is not accepted here (only {wanted}).")
    stated = data.get("order")
    if "order" in data and (not isinstance(stated, str) or stated not in ("outputs", "rainbow")):
        raise GraphFileError(
            f"{where!r}: field 'order' must be 'outputs' or 'rainbow', got {stated!r}."
        )
    q = G.n_outputs

    def in_outputs_order(vec: list, field: str, table_row: np.ndarray) -> list:
        """A checked list, rearranged over the outputs if the file is in rainbow order."""
        vec = _check_distribution(vec, field, where)
        if stated != "rainbow":
            return vec
        if len(vec) != q:
            raise GraphFileError(
                f"{where!r}: {field} must have {q} entries (one per output, in rainbow "
                f"order), got {vec!r}."
            )
        out_vec = [None] * q
        for k, j in enumerate(table_row.tolist()):
            out_vec[j] = vec[k]
        return out_vec

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
            if not isinstance(item["rainbow"], list):
                raise GraphFileError(
                    f"{where!r}: rainbows[{k}].rainbow must be a list of outputs, "
                    f"got {item['rainbow']!r}."
                )
            rb = tuple(_hashable(o) for o in item["rainbow"])
            try:
                G.rainbow_id(rb)
            except (InvalidGraphError, ParameterTypeError) as exc:
                raise GraphFileError(f"{where!r}: rainbows[{k}]: {exc}") from None
            if rb in out:
                raise GraphFileError(f"{where!r}: rainbows[{k}] repeats the rainbow {list(rb)!r}.")
            out[rb] = in_outputs_order(
                item["distribution"],
                f"rainbows[{k}].distribution",
                G.rainbow_table[G.rainbow_id(rb)],
            )
    if "nodes" in data:
        items = data["nodes"]
        if not isinstance(items, dict):
            raise GraphFileError(
                f"{where!r}: field 'nodes' must be an object node -> list, got {items!r}."
            )
        lookup: dict[str, Hashable] = {}
        for node in G.nodes:
            lookup.setdefault(
                json.dumps(_jsonable(node) if isinstance(node, tuple) else node, default=_jsonable),
                node,
            )
            lookup.setdefault(str(node), node)
        seen: dict = {}
        for key, vec in items.items():
            if key not in lookup:
                raise GraphFileError(f"{where!r}: field 'nodes' names the unknown node {key!r}.")
            node = lookup[key]
            if node in seen:
                raise GraphFileError(
                    f"{where!r}: field 'nodes' gives node {node!r} twice (keys {seen[node]!r} "
                    f"and {key!r})."
                )
            seen[node] = key
            out[node] = in_outputs_order(vec, f"nodes[{key!r}]", G.order[G.node_index[node]])
    return (out, stated) if return_order else out
