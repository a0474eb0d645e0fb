r"""Drawings of rainbow graphs: rainbow classes, preference orders and the mechanism at each node.

The rules (docs/drawing.md has the user's version):

* **colour = rainbow class.** Every node is a disk in the colour of its rainbow class (its
  preference order :math:`f(d)`, Gu et al., *Generalized rainbow differential privacy*,
  Definition 5 calls the nodes of one order the region :math:`B^c`), from the colour-blind-
  safe class palette of :func:`~rainbowdp.plot.class_colors`. The legend spells each order,
  most preferred first ("red > blue > green").
* **outputs keep their own colours** (:func:`~rainbowdp.plot.output_colors` with
  ``safe=True``: colour-named outputs are drawn in a colour-blind-safe shade of their hue),
  used only by the mechanism pies, the rainbow rings and the most-likely-output dots.
* **glyphs** (``mode="glyphs"``): the mechanism at a node is a pie (one slice per output with a
  positive probability, clockwise from 12 o'clock in output order) separated from the class
  disk by a white edge; ``rainbows=True`` adds concentric rings in the output colours, the
  outermost the most preferred output (up to 7 rings; beyond, one grey ring stands for the
  rest). Boundary nodes (:math:`\partial B^c` of Definition 5, and declared ones) have a black
  outline.
* **large** (``mode="large"``): no per-node glyphs; disks coloured by class, a centre dot in
  the colour of the node's most likely output (or, with ``rainbows=True`` and no mechanism,
  its most preferred one), thin transparent edges (none above
  :data:`~rainbowdp.plot._large.EDGE_LIMIT`). When the disks are too small for a dot (a
  :math:`10^5`-node grid), the disks take the output colour and the rainbow classes are drawn
  as black borders, so the mechanism stays visible.
* **directed graphs** (:attr:`RainbowGraph.directed`, e.g. an add-only neighbour relation):
  in glyph mode each arc ``u -> v`` is an arrow from disk rim to disk rim, and a pair of
  opposite arcs is one double-headed arrow (one arrow per pair of nodes; above
  :data:`MAX_ARROWS` pairs, and in large mode, the arcs are drawn as lines, once per pair, and
  the legend says so).
* **sizes**: a node's disk radius is 0.45 times (0.36 when every node is labelled, to leave
  the labels room) the smaller of its nearest-neighbour distance and the median one
  (:func:`rainbowdp.plot._large.radii`), so disks never overlap.
* **labels** sit beside their node, in whichever of 8 directions leaves the label box farthest
  from the other disks.
* **layouts** (``layout="auto"``): the nodes' own coordinates when they have them (a
  ``"pos"`` attribute, or (x, y) nodes such as those of ``networkx.grid_2d_graph``, drawn with
  their aspect kept), else a path on a (serpentine) line, a cycle on a circle in cycle
  order, other graphs of at most 100 nodes with Kamada-Kawai (spring if disconnected), larger
  ones with pivot MDS (:mod:`rainbowdp.plot._large`), which scales to :math:`10^5` nodes and
  more.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .._validation import check_int
from ..exceptions import ParameterError, ParameterTypeError
from ..graph import RainbowGraph, check_graph
from ..mechanism import Mechanism, check_mechanism
from . import _large
from ._mpl import require_matplotlib
from ._style import class_colors, class_labels, output_colors

__all__ = ["draw_rainbow_graph"]

_NX_LAYOUTS = ("spring", "kamada_kawai", "circular", "spectral", "shell")
#: Accepted ``layout`` values.
LAYOUTS = ("auto", "coordinates", "line", "pivot_mds", *_NX_LAYOUTS)
#: Accepted ``mode`` values.
MODES = ("auto", "glyphs", "large")
#: ``mode="auto"`` draws glyphs up to this many nodes, the large mode above.
GLYPH_NODES = 200
#: ``mode="glyphs"`` refuses graphs with more nodes (their glyphs would be specks).
MAX_GLYPH_NODES = 2000
#: ``layout="auto"`` uses Kamada-Kawai (or spring) up to this many nodes, pivot MDS above.
SMALL_LAYOUT = 100
#: networkx layouts are refused above this many nodes (they would take minutes).
MAX_NX_LAYOUT = 5000
#: ``labels=True`` is refused above this many nodes (pass a mapping naming a few nodes).
MAX_LABELS = 1000
#: Legend rows per section (classes, outputs); the rest is summarised in one row.
LEGEND_ROWS = 12
#: Disk radius over nearest-neighbour distance when every node is labelled (else 0.45).
LABELLED_FRACTION = 0.36
#: Rim of the glyph-mode disks of non-boundary nodes (boundary nodes: black, thicker): it keeps
#: the palest rainbow-class tints visible on a white background.
RIM_COLOR = "0.6"
#: Width (points) of that rim.
RIM_WIDTH = 0.6
#: Rings of the rainbow glyph; longer orders show their first RINGS - 1 outputs and a grey ring.
RINGS = 8
#: Glyph mode draws the arcs of a directed graph as arrows up to this many node pairs.
MAX_ARROWS = 2000
#: Colour of edges and arcs in glyph mode.
EDGE_COLOR = "0.55"


def draw_rainbow_graph(
    G: RainbowGraph,
    mechanism: Mechanism | None = None,
    *,
    ax: Any = None,
    pos: Any = None,
    layout: str = "auto",
    seed: int = 0,
    labels: bool | Mapping = False,
    rainbows: bool = False,
    mode: str = "auto",
    legend: bool = True,
) -> Any:
    r"""Draw a rainbow graph: nodes coloured by rainbow class, optionally with the mechanism.

    Parameters
    ----------
    G : RainbowGraph
        The graph.
    mechanism : Mechanism, optional
        A mechanism on ``G``: a pie per node in glyph mode; in large mode the most likely
        output per node, as a centre dot in the class disk, or, when disks are smaller than
        :data:`~rainbowdp.plot._large.MIN_DOT_DISK` points, as the disk's colour (the rainbow
        classes are then drawn as black borders).
    ax : matplotlib.axes.Axes, optional
        Axes to draw on (default: a new Figure, sized to the layout's aspect with the title
        above and the legend on the right, nothing cut).
    pos : mapping node -> (x, y) or array_like, shape (N, 2), optional
        Node positions (an array in node order); default from ``layout``.
    layout : str, default "auto"
        Layout used when ``pos`` is not given: one of "auto", "coordinates", "line",
        "pivot_mds", "spring", "kamada_kawai", "circular", "spectral", "shell". "coordinates":
        the nodes' own coordinates (a ``"pos"`` attribute on every node, or nodes that are
        (x, y) pairs such as those of ``networkx.grid_2d_graph``, see
        :func:`rainbowdp.plot._large.coordinate_positions`). "auto": the nodes' coordinates if
        they have them, else a path on a line, a cycle on a circle, up to 100 nodes
        Kamada-Kawai (spring when disconnected), else "pivot_mds". "line":
        along the path (other graphs: in node order), in serpentine rows when longer than 40
        nodes. "pivot_mds": fast, for any size. The others are networkx's layouts (refused
        above 5000 nodes).
    seed : int, default 0
        Seed of the spring layout and of pivot MDS's first pivot.
    labels : bool or mapping node -> str, default False
        ``True`` labels every node with its name (at most 1000 nodes); a mapping labels the
        nodes it names. Labels sit beside the node, away from its neighbours.
    rainbows : bool, default False
        Glyph mode: show each node's whole preference order as concentric rings in the output
        colours, outermost = most preferred. Large mode without a mechanism: show each node's
        most preferred output (as the mechanism's most likely output is shown).
    mode : {"auto", "glyphs", "large"}, default "auto"
        "glyphs" draws pies and rings per node (at most 2000 nodes); "large" draws disks only
        (any size); "auto" picks glyphs up to 200 nodes.
    legend : bool, default True
        Draw the legend (outside the data area, right of the axes).

    Returns
    -------
    matplotlib.figure.Figure
        The figure of ``ax`` (or a new one). The class disks are the collection with gid
        ``"rainbow-classes"``; pies ``"mechanism"``, rings ``"rainbows"``, most-likely-output
        dots ``"most-likely-output"``. In large mode with disks too small for dots, the disks
        themselves, in the output colours, are ``"most-likely-output"`` and the borders between
        classes ``"class-borders"``. The edges of an undirected graph are the collection
        ``"edges"``. For a directed graph (:attr:`RainbowGraph.directed`) glyph mode draws one
        :class:`~matplotlib.patches.FancyArrowPatch` of gid ``"arc"`` per pair of nodes joined
        by an arc (double-headed when both arcs are there), from rim to rim; large mode (or
        more than :data:`MAX_ARROWS` pairs) draws the pairs as lines and notes "directed: arcs
        drawn as lines" in the legend.

    Raises
    ------
    ParameterTypeError
        If ``G``, ``mechanism``, ``labels``, ``rainbows``, ``legend`` or ``seed`` has the wrong
        type.
    ParameterError
        If ``mechanism`` lives on another graph, ``layout`` or ``mode`` is unknown, ``pos``
        misses a node or is not finite, ``labels`` names a node that is not in ``G``, or the
        graph is too large for the requested glyphs, labels or networkx layout.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rainbowdp import builders
    >>> G = builders.cycle([("blue", "red")] * 4 + [("red", "blue")] * 2)
    >>> fig = draw_rainbow_graph(G, labels=True)
    >>> fig.axes[0].get_title()
    'rainbow graph: 6 nodes, 6 edges, 2 rainbows'
    >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()][1:3]
    ['blue > red · 4 nodes', 'red > blue · 2 nodes']
    """
    seed = _check_arguments(G, mechanism, mode, layout, seed, rainbows, legend)
    n = G.n_nodes
    text = _labels(G, labels)
    glyphs = mode == "glyphs" or (mode == "auto" and n <= GLYPH_NODES)
    if mode == "glyphs" and n > MAX_GLYPH_NODES:
        raise ParameterError(
            f"`mode` 'glyphs' draws at most {MAX_GLYPH_NODES} nodes, got mode='glyphs' for "
            f"{n} nodes; use mode='large'."
        )
    xy = _positions(G, pos, layout, seed)
    # every node labelled: smaller disks leave the labels room between them
    radius = _large.radii(xy, LABELLED_FRACTION if len(text) == n > 1 else 0.45)
    probabilities = None if mechanism is None else mechanism.probabilities
    cls_colors = class_colors(G.rainbow_table.shape[0])
    out_colors = output_colors(G.outputs, safe=True)

    pad = float(radius.max()) * (3.2 if text else 1.3)
    lo, hi = xy.min(axis=0) - pad, xy.max(axis=0) + pad
    span = np.maximum(hi - lo, 1e-12)
    own = ax is None
    if own:
        require_matplotlib()
        from matplotlib.figure import Figure

        data_w, data_h = _data_size(span)
        fig = Figure(figsize=(data_w, data_h))
        ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    else:
        fig = ax.figure
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_aspect("equal")
    ax.set_anchor("NW" if own else "N")  # given axes: centred in their slot, as the title
    ax.set_axis_off()
    links = "arcs" if G.directed else "edges"
    ax.set_title(
        f"rainbow graph: {n} nodes, {G.n_edges} {links}, {G.rainbow_table.shape[0]} rainbows",
        fontsize=10,
    )
    ppd = min(data_w / span[0], data_h / span[1]) * 72.0 if own else _points_per_unit(ax)
    top = None
    if not glyphs:
        if probabilities is not None:
            top = np.argmax(probabilities, axis=1)
        elif rainbows:
            top = G.order[:, 0]
    fill = top is not None and _large.large_fill(True, 2.0 * float(np.median(radius)) * ppd)
    shows = None
    if not glyphs and top is not None:
        shows = "most likely output" if probabilities is not None else "most preferred output"
    handles = _legend_handles(
        G, cls_colors, out_colors, glyphs, probabilities, rainbows, shows, fill
    )
    pairs, both = _node_pairs(G)
    arrows = G.directed and glyphs and pairs.shape[0] <= MAX_ARROWS
    handles += _link_notes(G, glyphs, arrows, pairs, both)
    leg = _legend(ax, handles) if legend else None
    if own:
        _place(fig, ax, leg, data_w, data_h)
        ppd = min(data_w / span[0], data_h / span[1]) * 72.0
    else:
        ppd = _points_per_unit(ax)
    if glyphs:
        if arrows:
            _arc_arrows(ax, xy, radius, pairs, both, float(np.median(radius)) * ppd)
        else:
            _edge_lines(ax, xy, pairs)
        _draw_glyphs(ax, G, probabilities, xy, radius, cls_colors, out_colors, rainbows, ppd)
    else:
        _large.draw_large(ax, G, top, xy, radius, cls_colors, out_colors, ppd)
    if text:
        _draw_labels(ax, G, xy, radius, text, ppd)
    return fig


def _check_arguments(
    G: Any, mechanism: Any, mode: Any, layout: Any, seed: Any, rainbows: Any, legend: Any
) -> int:
    """The argument checks of :func:`draw_rainbow_graph`; returns ``seed`` as an int."""
    check_graph(G, "G")
    if mechanism is not None:
        check_mechanism(mechanism, "mechanism")
        if mechanism.graph is not G:
            raise ParameterError("`mechanism` must live on `G` (the same RainbowGraph object).")
    if mode not in MODES:
        raise ParameterError(f"`mode` must be one of {MODES}, got mode={mode!r}.")
    if layout not in LAYOUTS:
        raise ParameterError(f"`layout` must be one of {LAYOUTS}, got layout={layout!r}.")
    checked = check_int(seed, "seed")
    for name, value in (("rainbows", rainbows), ("legend", legend)):
        if not isinstance(value, bool | np.bool_):
            raise ParameterTypeError(f"`{name}` must be a bool, got {name}={value!r}.")
    return checked


def _link_notes(
    G: RainbowGraph, glyphs: bool, arrows: bool, pairs: np.ndarray, both: np.ndarray
) -> list[Any]:
    """The legend's text rows on how the edges or arcs are drawn (or why they are not)."""
    notes = []
    if arrows and pairs.shape[0]:
        notes.append(_note("arrow d → d′: arc (one-way neighbours)"))
        if both.any():
            notes.append(_note("double arrow: arcs both ways"))
    elif G.directed and pairs.shape[0] and (glyphs or G.n_edges <= _large.EDGE_LIMIT):
        notes.append(_note("directed: arcs drawn as lines"))
    if not glyphs and G.n_edges > _large.EDGE_LIMIT:
        notes.append(_note(f"edges not drawn ({G.n_edges} > {_large.EDGE_LIMIT})"))
    return notes


def _place(fig: Any, ax: Any, leg: Any, data_w: float, data_h: float) -> None:
    """Size a figure of our own to its contents: the data area ``data_w`` x ``data_h`` inches
    at the top left, the title above it, the legend to its right, nothing cut."""
    dpi = fig.dpi
    pad, gap = 0.08, 0.12
    title = ax.title.get_window_extent()
    title_w, title_h = title.width / dpi, title.height / dpi + 0.12
    leg_w = leg_h = 0.0
    if leg is not None:
        box = leg.get_window_extent()
        leg_w, leg_h = box.width / dpi + gap, box.height / dpi
    left = pad + max(0.0, (title_w - data_w) / 2)
    width = left + data_w + max(leg_w, left - pad) + pad
    height = pad + title_h + max(data_h, leg_h) + pad
    fig.set_size_inches(width, height)
    bottom = height - pad - title_h - data_h
    ax.set_position((left / width, bottom / height, data_w / width, data_h / height))


def _note(label: str) -> Any:
    """A legend row of text only."""
    require_matplotlib()
    from matplotlib.lines import Line2D

    return Line2D([], [], ls="none", label=label)


def _points_per_unit(ax: Any) -> float:
    """Typographic points per data unit of the equal-aspect ``ax``, after the figure's layout
    engine (if any) has placed it (the legend and title are already there)."""
    fig = ax.figure
    engine = fig.get_layout_engine()
    if engine is not None:
        engine.execute(fig)
    ax.apply_aspect()
    box = ax.get_position()
    w_in, h_in = fig.get_size_inches()
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    return float(
        min(72.0 * w_in * box.width / abs(x1 - x0), 72.0 * h_in * box.height / abs(y1 - y0))
    )


# ---------------------------------------------------------------------------------- arguments
def _labels(G: RainbowGraph, labels: Any) -> dict[int, str]:
    """Node index -> label text."""
    if isinstance(labels, bool | np.bool_):
        if not labels:
            return {}
        if G.n_nodes > MAX_LABELS:
            raise ParameterError(
                f"`labels` True would draw {G.n_nodes} labels (at most {MAX_LABELS}); pass a "
                "mapping {node: text} naming the nodes to label, got labels=True."
            )
        return {i: str(d) for i, d in enumerate(G.nodes)}
    if not isinstance(labels, Mapping):
        raise ParameterTypeError(
            f"`labels` must be a bool or a mapping node -> str, got labels={labels!r}."
        )
    index = G.node_index
    out = {}
    for node, label in labels.items():
        try:
            i = index[node]
        except (KeyError, TypeError):
            raise ParameterError(
                f"`labels` names the node {node!r}, which is not in the graph."
            ) from None
        out[i] = str(label)
    return out


def _positions(G: RainbowGraph, pos: Any, layout: str, seed: int) -> np.ndarray:
    """(N, 2) finite float positions in node order."""
    n = G.n_nodes
    if pos is None:
        xy = _layout(G, layout, seed)
    elif isinstance(pos, Mapping):
        missing = next((d for d in G.nodes if d not in pos), None)
        if missing is not None:
            raise ParameterError(f"`pos` has no position for node {missing!r}.")
        try:
            xy = np.array([pos[d] for d in G.nodes], dtype=float)
        except (TypeError, ValueError):
            raise ParameterError("`pos` must map every node to a pair of numbers (x, y).") from None
    else:
        try:
            xy = np.array(pos, dtype=float)
        except (TypeError, ValueError):
            raise ParameterTypeError(
                f"`pos` must be a mapping node -> (x, y) or an (N, 2) array, got pos={pos!r}."
            ) from None
    if xy.shape != (n, 2):
        raise ParameterError(
            f"`pos` must give one (x, y) pair per node, shape ({n}, 2), got shape {xy.shape}."
        )
    if not np.all(np.isfinite(xy)):
        bad = int(np.flatnonzero(~np.all(np.isfinite(xy), axis=1))[0])
        raise ParameterError(
            f"`pos` must be finite, got {xy[bad].tolist()} for node {G.nodes[bad]!r}."
        )
    return xy


def _layout(G: RainbowGraph, layout: str, seed: int) -> np.ndarray:
    """Positions from a layout name (``layout="auto"``: the rule of the module notes)."""
    from scipy.sparse.csgraph import connected_components

    adj = G.adjacency
    n = G.n_nodes
    if layout in ("auto", "coordinates"):
        xy = _large.coordinate_positions(G)
        if xy is not None:
            return xy
        if layout == "coordinates":
            raise ParameterError(
                "`layout` 'coordinates' needs a 'pos' (x, y) attribute on every node, or nodes "
                "that are (x, y) pairs joined by edges of about equal length; got "
                f"layout='coordinates' for nodes such as {G.nodes[0]!r}."
            )
        order = _large.path_order(adj)
        if order is not None:
            return _large.line_positions(order)
        order = _large.cycle_order(adj)
        if order is not None:
            return _large.circle_positions(order)
        if n <= SMALL_LAYOUT:
            connected = connected_components(adj, directed=False)[0] == 1
            layout = "kamada_kawai" if connected else "spring"
        else:
            layout = "pivot_mds"
    if layout == "line":
        order = _large.path_order(adj)
        return _large.line_positions(np.arange(n) if order is None else order)
    if layout == "pivot_mds":
        return _large.pivot_mds(adj, seed=seed)
    if n > MAX_NX_LAYOUT:
        raise ParameterError(
            f"`layout` {layout!r} (networkx) is too slow above {MAX_NX_LAYOUT} nodes, got "
            f"layout={layout!r} for {n} nodes; use 'auto', 'pivot_mds' or 'line', or pass pos."
        )
    import networkx as nx

    g = G.graph.to_undirected(as_view=True) if G.directed else G.graph
    if layout == "spring":
        pos = nx.spring_layout(g, seed=seed)
    else:
        pos = getattr(nx, f"{layout}_layout")(g)
    return np.array([pos[d] for d in G.nodes], dtype=float).reshape(n, 2)


def _data_size(span: np.ndarray) -> tuple[float, float]:
    """Width and height (inches) of the data area of a new figure: the layout's aspect, at most
    6 in on its long side (9 in for a long row)."""
    aspect = float(span[0] / span[1]) if span[1] > 0 else 1.0
    if aspect >= 1.0:
        width = 6.0 if aspect < 3.0 else 9.0  # a long row gets more room
        return width, float(max(width / aspect, 0.6))
    return float(max(6.0 * aspect, 0.6)), 6.0


# ---------------------------------------------------------------------------------- glyphs
def _node_pairs(G: RainbowGraph) -> tuple[np.ndarray, np.ndarray]:
    """The pairs of nodes joined by an edge or an arc, once each, and whether both arcs join
    them (always False for an undirected graph).

    Returns
    -------
    pairs : numpy.ndarray, shape (P, 2)
        Node indices; for a directed graph the first arc of the pair, ``tail, head``.
    both : numpy.ndarray of bool, shape (P,)
    """
    e = G.edges
    if not G.directed or e.shape[0] == 0:
        return e, np.zeros(e.shape[0], dtype=bool)
    key = np.sort(e, axis=1)
    _, first, counts = np.unique(key, axis=0, return_index=True, return_counts=True)
    return e[first], counts > 1


def _edge_lines(ax: Any, xy: np.ndarray, pairs: np.ndarray) -> None:
    """Glyph mode: one line per pair of neighbours."""
    require_matplotlib()
    from matplotlib.collections import LineCollection

    if pairs.shape[0]:
        lines = LineCollection(xy[pairs], colors=EDGE_COLOR, linewidths=1.0, zorder=1)
        lines.set_gid("edges")
        ax.add_collection(lines)


def _arc_arrows(
    ax: Any, xy: np.ndarray, r: np.ndarray, pairs: np.ndarray, both: np.ndarray, r_pt: float
) -> None:
    """Glyph mode of a directed graph: per pair, an arrow from the tail's disk rim to the
    head's (double-headed when both arcs are there); ``r_pt`` is the median radius in points."""
    require_matplotlib()
    from matplotlib.patches import FancyArrowPatch

    tail, head = xy[pairs[:, 0]], xy[pairs[:, 1]]
    span = head - tail
    length = np.hypot(span[:, 0], span[:, 1])
    unit = np.divide(span, length[:, None], out=np.zeros_like(span), where=length[:, None] > 0)
    gap = np.minimum(1.08 * np.stack([r[pairs[:, 0]], r[pairs[:, 1]]], axis=1), length[:, None] / 2)
    start = tail + unit * gap[:, :1]
    end = head - unit * gap[:, 1:]
    size = float(np.clip(0.45 * r_pt, 5.0, 12.0))  # arrow head, points
    for a, b, two in zip(start.tolist(), end.tolist(), both.tolist(), strict=True):
        ax.add_patch(
            FancyArrowPatch(
                a, b, arrowstyle="<|-|>" if two else "-|>", mutation_scale=size,
                shrinkA=0.0, shrinkB=0.0, color=EDGE_COLOR, lw=1.0, zorder=1, gid="arc",
            )
        )  # fmt: skip


def _draw_glyphs(
    ax: Any,
    G: RainbowGraph,
    p: np.ndarray | None,
    xy: np.ndarray,
    r: np.ndarray,
    cls_colors: list,
    out_colors: list,
    rainbows: bool,
    ppd: float,
) -> None:
    """Glyph mode: class disks, boundary outlines, rainbow rings, mechanism pies (``ppd``:
    points per data unit)."""
    require_matplotlib()
    import matplotlib.patches as mpatches
    from matplotlib.collections import PatchCollection

    r_pt = float(np.median(r)) * ppd
    white = float(np.clip(0.05 * r_pt, 0.4, 1.2))
    outline = float(np.clip(0.1 * r_pt, 1.0, 3.0))
    bmask = G.boundary_mask
    centres = [tuple(c) for c in xy.tolist()]
    disks = PatchCollection(
        [mpatches.Circle(c, ri) for c, ri in zip(centres, r.tolist(), strict=True)],
        facecolors=[cls_colors[k] for k in G.rainbow_ids.tolist()],
        # a thin grey rim keeps the palest class tints visible on white; the boundary's is black
        edgecolors=["black" if b else RIM_COLOR for b in bmask],
        linewidths=[outline if b else RIM_WIDTH for b in bmask],
        zorder=2,
    )
    disks.set_gid("rainbow-classes")
    ax.add_collection(disks)
    pie_r = 0.66 * r
    if rainbows:
        q = G.n_outputs
        k = min(q, RINGS)
        inner = 0.46 * r if p is not None else np.zeros_like(r)
        outer = 0.8 * r
        width = (outer - inner) / k
        ring_colors = [*out_colors, "0.75"]
        order = G.order
        patches, faces = [], []
        for s in range(k):
            top = (outer - s * width).tolist()
            slot = order[:, s] if (s < k - 1 or q <= RINGS) else np.full(G.n_nodes, q)
            for c, t, w, j in zip(centres, top, width.tolist(), slot.tolist(), strict=True):
                patches.append(mpatches.Wedge(c, t, 0.0, 360.0, width=w))
                faces.append(ring_colors[j])
        rings = PatchCollection(
            patches, facecolors=faces, edgecolors="none", linewidths=0.0, zorder=3
        )
        rings.set_gid("rainbows")
        ax.add_collection(rings)
        pie_r = 0.46 * r
    if p is not None:
        end = np.cumsum(p, axis=1)
        start = end - p
        wedges, faces = [], []
        for i, j in zip(*np.nonzero(p > 0), strict=True):
            a0, a1 = 90.0 - 360.0 * end[i, j], 90.0 - 360.0 * start[i, j]
            wedges.append(mpatches.Wedge(centres[i], pie_r[i], a0, a1))
            faces.append(out_colors[j])
        pies = PatchCollection(
            wedges, facecolors=faces, edgecolors="white", linewidths=white, zorder=4
        )
        pies.set_gid("mechanism")
        ax.add_collection(pies)


def _draw_labels(
    ax: Any, G: RainbowGraph, xy: np.ndarray, r: np.ndarray, text: dict[int, str], ppd: float
) -> None:
    """Labels beside their node, on the free side: of 8 compass directions, the one whose label
    box keeps the largest clearance from the other nodes' disks (ties: below, right, left,
    above, then the diagonals)."""
    from scipy.spatial import cKDTree

    size = 9 if G.n_nodes <= 30 else 8 if G.n_nodes <= 100 else 6
    idx = np.fromiter(text, dtype=np.intp, count=len(text))
    # half extent of each label box in data units (about 0.62 em per character, 1.3 em high)
    half_w = np.array([0.31 * size * len(text[i]) + 1.0 for i in idx.tolist()]) / ppd
    half_h = 0.65 * size / ppd
    angles = np.deg2rad([270.0, 0.0, 180.0, 90.0, 315.0, 45.0, 225.0, 135.0])
    dirs = np.stack([np.cos(angles), np.sin(angles)], axis=1).round(12)
    k_near = min(G.n_nodes, 9)
    tree = cKDTree(xy)
    best = np.full(idx.size, -np.inf)
    choice = np.zeros(idx.size, dtype=np.intp)
    for k, (ux, uy) in enumerate(dirs):
        # centre of the label box whose near side touches the node's disk
        reach = 1.1 * r[idx] + abs(ux) * half_w + abs(uy) * half_h
        centre = xy[idx] + reach[:, None] * np.array([ux, uy])
        _, near = tree.query(centre, k=k_near)
        near = near.reshape(idx.size, k_near)
        gap = np.abs(xy[near] - centre[:, None, :]) - np.stack(
            [np.broadcast_to(half_w[:, None], near.shape), np.full(near.shape, half_h)], axis=2
        )
        clear = np.linalg.norm(np.maximum(gap, 0.0), axis=2) - r[near]
        clear[near == idx[:, None]] = np.inf  # the label's own node
        score = clear.min(axis=1)
        finite = np.isfinite(best)
        better = score > np.where(finite, best + 1e-9 * np.abs(np.where(finite, best, 0.0)), best)
        best = np.where(better, score, best)
        choice = np.where(better, k, choice)
    for i, k in zip(idx.tolist(), choice.tolist(), strict=True):
        ux, uy = dirs[k]
        ha = "left" if ux > 0.1 else "right" if ux < -0.1 else "center"
        va = "bottom" if uy > 0.1 else "top" if uy < -0.1 else "center"
        x, y = xy[i] + 1.1 * r[i] * dirs[k]
        t = ax.text(x, y, text[i], ha=ha, va=va, fontsize=size, zorder=6)
        t.set_bbox({"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.75})


# ---------------------------------------------------------------------------------- legend
def _legend_handles(
    G: RainbowGraph,
    cls_colors: list,
    out_colors: list,
    glyphs: bool,
    probabilities: np.ndarray | None,
    rainbows: bool,
    shows: str | None = None,
    fill: bool = False,
) -> list:
    """Legend rows: a bold header (a handle without marker) and entries, per section.

    ``shows`` is what large mode shows of each node's output ("most likely output", "most
    preferred output" or None); ``fill``: as the disk's colour (the classes are then drawn as
    borders, their rows in the legend are text only), else as a centre dot."""
    require_matplotlib()
    from matplotlib.lines import Line2D

    def header(label: str, gid: str = "header") -> Any:
        h = Line2D([], [], ls="none", label=label)
        h.set_gid(gid)
        return h

    def more(k: int, what: str) -> Any:
        return Line2D([], [], ls="none", label=f"… and {k} more {what}")

    names = class_labels(G.outputs, G.rainbow_table, G.rainbow_ids)
    shown = len(names) if len(names) <= LEGEND_ROWS else LEGEND_ROWS - 1
    if fill:
        handles = [header("rainbow classes (black lines: borders)")]
        handles += [Line2D([], [], ls="none", label=t) for t in names[:shown]]
    else:
        handles = [header("rainbow class = node colour")]
        handles += [
            Line2D([], [], ls="none", marker="o", ms=9, mfc=c, mec="0.3", mew=0.5, label=t)
            for c, t in zip(cls_colors[:shown], names[:shown], strict=True)
        ]
    if shown < len(names):
        handles.append(more(len(names) - shown, "classes"))
    what = []
    if glyphs:
        if probabilities is not None:
            what.append("pie slices")
        if rainbows:
            what.append("rings, outer = preferred")
    elif shows is not None:
        what.append(f"{'node colour' if fill else 'centre dot'} = {shows}")
    if what:
        section = [header(f"outputs: {'; '.join(what)}", "output-header")]
        outs = [str(o) for o in G.outputs]
        shown = len(outs) if len(outs) <= LEGEND_ROWS else LEGEND_ROWS - 1
        section += [
            Line2D([], [], ls="none", marker="s", ms=8, mfc=c, mec="white", label=t)
            for c, t in zip(out_colors[:shown], outs[:shown], strict=True)
        ]
        if shown < len(outs):
            section.append(more(len(outs) - shown, "outputs"))
        for h in section[1:]:
            h.set_gid("output")
        handles += section
    if G.boundary_mask.any() and not fill:
        handles.append(
            Line2D(
                [], [], ls="none", marker="o", ms=9, mfc="white", mec="black", mew=2.0,
                label="boundary node (black outline)",
            )
        )  # fmt: skip
    return handles


def _legend(ax: Any, handles: list) -> Any:
    """The legend outside the data area, right of the axes; headers in bold."""
    leg = ax.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(1.0, 1.0),
        borderaxespad=0.6,
        fontsize=8,
        frameon=False,
        handletextpad=0.4,
    )
    for h, t in zip(handles, leg.get_texts(), strict=True):
        if str(h.get_gid()).endswith("header"):
            t.set_fontweight("bold")
    return leg
