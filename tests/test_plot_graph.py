"""Tests of rainbowdp.plot.draw_rainbow_graph: rainbow-class colours, glyphs, labels, layouts and
the large mode."""

from __future__ import annotations

import io
import itertools
import subprocess
import sys
import time

import matplotlib
import networkx as nx
import numpy as np
import pytest
from matplotlib.colors import to_rgba, to_rgba_array

from rainbowdp import builders
from rainbowdp.bundled import examples
from rainbowdp.exceptions import ParameterError, ParameterTypeError
from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism
from rainbowdp.plot import class_colors, draw_rainbow_graph, output_colors, rainbow_label
from rainbowdp.plot._large import EDGE_LIMIT, radii
from rainbowdp.plot._style import CLASS_PALETTE, OUTPUT_PALETTE

matplotlib.use("Agg")


def _example1():
    ex = next(e for e in examples() if e.name == "example1_cycle")
    return ex.graph, ex.mechanism


def _four_rainbows(side: int = 6) -> RainbowGraph:
    """A grid whose four quadrants have four different rainbows over outputs 0, 1, 2."""
    g = nx.grid_2d_graph(side, side)
    rbs = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1]]
    half = side // 2
    for i, j in g.nodes:
        g.nodes[(i, j)]["rainbow"] = rbs[2 * (i >= half) + (j >= half)]
    return RainbowGraph(g, outputs=[0, 1, 2])


def _collection(fig, gid):
    found = [c for c in fig.axes[0].collections if c.get_gid() == gid]
    assert len(found) == 1, [c.get_gid() for c in fig.axes[0].collections]
    return found[0]


def _disks(fig):
    """Centres and radii of the class disks (glyph mode: one circle path per node)."""
    paths = _collection(fig, "rainbow-classes").get_paths()
    ext = np.array([p.get_extents().bounds for p in paths])  # x0, y0, w, h
    return ext[:, :2] + ext[:, 2:] / 2, ext[:, 2] / 2


def _legend_texts(fig):
    return [t.get_text() for t in fig.axes[0].get_legend().get_texts()]


# ---------------------------------------------------------------------- colours
def test_example1_shows_d5_in_its_own_colour():
    G, M = _example1()
    fig = draw_rainbow_graph(G, M)
    face = _collection(fig, "rainbow-classes").get_facecolors()
    d5 = G.index_of("d5")
    others = [i for i in range(5) if i != d5]
    assert np.allclose(face[others], face[others[0]])
    assert not np.allclose(face[d5], face[others[0]])
    texts = _legend_texts(fig)
    assert "1 > 2 > 3 · 4 nodes" in texts and "1 > 3 > 2 · 1 node" in texts


def test_four_rainbows_get_four_distinct_colourblind_safe_colours():
    G = _four_rainbows()
    fig = draw_rainbow_graph(G, pos={d: d for d in G.nodes})
    face = _collection(fig, "rainbow-classes").get_facecolors()
    per_class = {}
    for i, r in enumerate(G.rainbow_ids.tolist()):
        per_class.setdefault(r, set()).add(tuple(face[i]))
    assert all(len(s) == 1 for s in per_class.values())  # one colour per class
    colours = [next(iter(s)) for _, s in sorted(per_class.items())]
    assert len(set(colours)) == 4
    assert np.allclose(colours, to_rgba_array(CLASS_PALETTE[:4]))
    texts = _legend_texts(fig)
    for c in G.rainbows:
        assert any(t.startswith(" > ".join(map(str, c)) + " · ") for t in texts), c


# Colour-vision simulation (Machado, Oliveira & Fernandes 2009, severity 1, on linear sRGB)
# and CIELAB (D65), written here independently of rainbowdp.plot.palette.
_MACHADO = {
    "normal": np.eye(3),
    "deuteranopia": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.01182, 0.04294, 0.968881],
        ]
    ),
    "protanopia": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
}


def _lab(colours, vision="normal"):
    rgb = to_rgba_array(colours)[:, :3]
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    lin = np.clip(lin @ _MACHADO[vision].T, 0, 1)
    m = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = lin @ m.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])], 1)


def _delta_e(a, b, vision="normal"):
    """Pairwise CIE76 distances (len(a), len(b)) as seen with ``vision``."""
    la, lb = _lab(a, vision), _lab(b, vision)
    return np.linalg.norm(la[:, None] - lb[None], axis=2)


#: Every output colour a drawing may use: Okabe-Ito, the safe shades of colour-named outputs,
#: the plain names kept without safe=True, and the colours beyond 8 outputs.
_OUTPUTS = [
    *OUTPUT_PALETTE,
    *output_colors(["red", "green", "blue", "orange", "purple", "cyan", "yellow"], safe=True),
    "red",
    "green",
    "blue",
    *output_colors(range(20)),
]


@pytest.mark.parametrize("vision", ["normal", "deuteranopia", "protanopia"])
def test_class_colours_are_never_confused_with_output_colours(vision):
    # the reported case: outputs named red, green, blue; under deuteranopia the old rose class
    # (#CC6677) was within a few units of the output "green" (#009E73)
    classes = class_colors(40)
    gap = _delta_e(classes, _OUTPUTS, vision).min()
    assert gap >= 20.0, f"a class colour is {gap:.1f} CIELAB units from an output colour"


def test_the_reported_confusion_is_caught_by_the_simulation():
    # the old class rose #CC6677 and the output green #009E73: far apart with normal vision,
    # about 5 CIELAB units apart under deuteranopia
    assert _delta_e(["#CC6677"], ["#009E73"])[0, 0] > 20.0
    assert _delta_e(["#CC6677"], ["#009E73"], "deuteranopia")[0, 0] < 10.0


def test_class_colours_beyond_the_palette_stay_distinct_and_adjacent_ones_differ():
    assert class_colors(9) == list(CLASS_PALETTE)
    many = class_colors(60)
    assert len(set(many)) == 60
    # consecutive class ids (adjacent nodes of a path) differ visibly
    lab = _lab(many)
    assert np.linalg.norm(np.diff(lab, axis=0), axis=1).min() > 5.0
    # the first 9 differ from each other, also for red-green colour-blind readers
    for vision in _MACHADO:
        d = _delta_e(CLASS_PALETTE, CLASS_PALETTE, vision) + 1e3 * np.eye(9)
        assert d.min() > 9.0, vision
    # pale tints: lighter than every Okabe-Ito output but yellow
    assert _lab(CLASS_PALETTE)[:, 0].min() > 70.0
    with pytest.raises(ParameterError, match="n"):
        class_colors(-1)


def test_rainbow_label_truncates_long_orders():
    assert rainbow_label(["red", "blue", "green"]) == "red > blue > green"
    assert rainbow_label(range(11)) == "0 > 1 > 2 > … (11 outputs)"
    assert rainbow_label(["a" * 30, "b"]) == "a" * 13 + "… > b"


def test_many_classes_are_summarised_in_the_legend():
    G = builders.count_path(30)  # every node its own rainbow
    fig = draw_rainbow_graph(G)
    texts = _legend_texts(fig)
    assert texts[1] == "0 > 1 > 2 > … (31 outputs) · 1 node"
    assert "… and 20 more classes" in texts
    face = _collection(fig, "rainbow-classes").get_facecolors()
    assert len({tuple(c) for c in face}) == 31


# ---------------------------------------------------------------------- glyphs
def test_pies_are_smaller_than_the_disk_and_have_a_white_edge():
    G, M = _example1()
    fig = draw_rainbow_graph(G, M)
    _, r = _disks(fig)
    pies = _collection(fig, "mechanism")
    assert len(pies.get_paths()) == int(np.count_nonzero(M.probabilities > 0))
    assert np.allclose(pies.get_edgecolors(), to_rgba("white"))
    assert np.all(pies.get_linewidths() > 0)
    widths = np.array([p.get_extents().width for p in pies.get_paths()])
    assert widths.max() <= 2 * 0.67 * r.max()
    # pie slices use the output colours, not the class colours
    faces = {tuple(c) for c in pies.get_facecolors()}
    assert faces <= {tuple(c) for c in to_rgba_array(output_colors(G.outputs, safe=True))}
    texts = _legend_texts(fig)
    assert "outputs: pie slices" in texts and texts[-1] == "boundary node (black outline)"


def test_rainbow_rings_show_each_order_outermost_first():
    G, M = _example1()
    fig = draw_rainbow_graph(G, M, rainbows=True)
    rings = _collection(fig, "rainbows")
    faces = rings.get_facecolors()
    out = to_rgba_array(output_colors(G.outputs, safe=True))
    n, q = G.n_nodes, G.n_outputs
    assert faces.shape[0] == n * q
    radii_ = np.array([p.get_extents().width / 2 for p in rings.get_paths()]).reshape(q, n)
    assert np.all(np.diff(radii_, axis=0) < 0)  # ring s + 1 lies inside ring s
    for i, s in itertools.product(range(n), range(q)):
        assert np.allclose(faces[s * n + i], out[G.order[i, s]])
    assert any("rings, outer = preferred" in t for t in _legend_texts(fig))


def test_long_orders_get_a_grey_ring_for_the_rest():
    G = builders.count_path(10)
    fig = draw_rainbow_graph(G, rainbows=True)
    faces = _collection(fig, "rainbows").get_facecolors()
    assert faces.shape[0] == 8 * G.n_nodes
    assert np.allclose(faces[7 * G.n_nodes :], to_rgba("0.75"))


def test_boundary_nodes_are_outlined():
    G = _four_rainbows()
    fig = draw_rainbow_graph(G, pos={d: d for d in G.nodes})
    disks = _collection(fig, "rainbow-classes")
    black = np.all(np.isclose(disks.get_edgecolors(), to_rgba("black")), axis=1)
    assert np.array_equal(black, G.boundary_mask)  # black outline exactly on the boundary
    widths = np.asarray(disks.get_linewidths())
    assert widths[black].min() > widths[~black].max() > 0  # the others: a thin rim
    assert "boundary node (black outline)" in _legend_texts(fig)


# ---------------------------------------------------------------------- labels
def _label_clearance(fig, centres, r):
    """Smallest distance (display pixels) from a label's box to a disk, minus its radius."""
    fig.canvas.draw()
    ax = fig.axes[0]
    c = ax.transData.transform(centres)
    rad = ax.transData.transform(np.c_[centres[:, 0] + r, centres[:, 1]])[:, 0] - c[:, 0]
    worst = np.inf
    for t in ax.texts:
        b = t.get_window_extent()
        dx = np.maximum(np.maximum(b.x0 - c[:, 0], c[:, 0] - b.x1), 0.0)
        dy = np.maximum(np.maximum(b.y0 - c[:, 1], c[:, 1] - b.y1), 0.0)
        worst = min(worst, float(np.min(np.hypot(dx, dy) - rad)))
    return worst


@pytest.mark.parametrize("which", ["example1", "grid"])
def test_labels_are_drawn_beside_the_glyphs(which):
    if which == "example1":
        G, M = _example1()
    else:
        G, M = _four_rainbows(), None
    fig = draw_rainbow_graph(G, M, labels=True, rainbows=True)
    assert sorted(t.get_text() for t in fig.axes[0].texts) == sorted(map(str, G.nodes))
    centres, r = _disks(fig)
    assert _label_clearance(fig, centres, r) >= -1.0  # no label over a disk (1 px slack)


def test_labels_from_a_mapping_and_none_by_default():
    G, M = _example1()
    assert len(draw_rainbow_graph(G, M).axes[0].texts) == 0
    fig = draw_rainbow_graph(G, M, labels={"d5": "the odd one"})
    assert [t.get_text() for t in fig.axes[0].texts] == ["the odd one"]


# ---------------------------------------------------------------------- layouts and sizes
def test_auto_layout_puts_a_path_on_a_line_and_a_cycle_on_a_circle():
    G = builders.line(["a", "b"], 9)
    centres, _ = _disks(draw_rainbow_graph(G))
    assert np.ptp(centres[:, 1]) < 1e-9 and np.allclose(np.diff(centres[:, 0]), 1.0)
    C = builders.cycle([("a", "b")] * 7 + [("b", "a")] * 3)
    centres, _ = _disks(draw_rainbow_graph(C))
    dist = np.linalg.norm(centres - centres.mean(axis=0), axis=1)
    assert np.allclose(dist, dist[0])
    # consecutive nodes of the cycle are neighbours on the circle
    assert np.allclose(np.linalg.norm(centres - np.roll(centres, 1, axis=0), axis=1), 1.0)


def test_long_path_is_a_serpentine_with_unit_steps():
    G = builders.count_path(99, outputs=[0, 1])  # 100 nodes on a path, large mode
    fig = draw_rainbow_graph(G, mode="large")
    xy = _collection(fig, "rainbow-classes").get_offsets()
    steps = np.linalg.norm(np.diff(xy, axis=0), axis=1)
    assert np.allclose(steps, 1.0) and np.ptp(xy[:, 1]) > 0


@pytest.mark.parametrize(
    "layout", ["line", "pivot_mds", "spring", "kamada_kawai", "circular", "spectral", "shell"]
)
def test_every_layout_name_draws(layout):
    G = _four_rainbows(4)
    fig = draw_rainbow_graph(G, layout=layout, seed=1)
    centres, r = _disks(fig)
    assert np.all(np.isfinite(centres))
    d = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(d, np.inf)
    assert np.all(r[:, None] + r[None] <= d + 1e-9)  # no two disks overlap


def test_radii_never_let_disks_overlap():
    rng = np.random.default_rng(5)
    for xy in (
        rng.random((300, 2)),
        rng.normal(size=(200, 2)) ** 3,
        np.repeat(rng.random((50, 2)), 2, 0),
    ):
        r = radii(xy)
        d = np.linalg.norm(xy[:, None] - xy[None], axis=2)
        i, j = np.nonzero(np.triu(d > 0, 1))
        assert np.all(r[i] + r[j] <= d[i, j] * (1 + 1e-12)) and np.all(r > 0)


def test_disconnected_graphs_are_packed_without_overlap():
    g = nx.disjoint_union_all(
        [nx.path_graph(3), nx.cycle_graph(12), nx.complete_graph(4), nx.empty_graph(5)]
    )
    for v in g:
        g.nodes[v]["rainbow"] = [0, 1] if v % 3 else [1, 0]
    G = RainbowGraph(g, outputs=[0, 1])
    fig = draw_rainbow_graph(G, layout="pivot_mds")
    centres, r = _disks(fig)
    d = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(d, np.inf)
    assert d.min() > 0.5 and np.all(r[:, None] + r[None] <= d + 1e-9)


def test_pos_mapping_or_array_and_ax_are_respected():
    from matplotlib.figure import Figure

    G, M = _example1()
    pos = {d: (float(i), float(i % 2)) for i, d in enumerate(G.nodes)}
    fig = Figure()
    left, right = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    out = draw_rainbow_graph(G, M, ax=right, pos=pos)
    assert out is fig and right.get_legend() is not None
    assert not left.collections and left.get_legend() is None
    disks = next(c for c in right.collections if c.get_gid() == "rainbow-classes")
    ext = np.array([p.get_extents().bounds for p in disks.get_paths()])
    assert np.allclose(ext[:, :2] + ext[:, 2:] / 2, list(pos.values()))
    arr = np.array(list(pos.values()))
    fig2 = draw_rainbow_graph(G, pos=arr, legend=False)
    assert fig2.axes[0].get_legend() is None
    assert np.allclose(_disks(fig2)[0], arr)


# ---------------------------------------------------------------------- large mode
def test_large_mode_colours_by_class_and_marks_the_most_likely_output():
    G = _four_rainbows(16)  # 256 nodes: auto picks the large mode
    M = Mechanism.from_rainbow_order(G, np.tile([0.6, 0.3, 0.1], (G.n_nodes, 1)))
    fig = draw_rainbow_graph(G, M, labels={(0, 0): "origin"})
    nodes = _collection(fig, "rainbow-classes")
    face = nodes.get_facecolors()
    assert np.allclose(face, to_rgba_array(class_colors(4))[G.rainbow_ids])
    dots = _collection(fig, "most-likely-output").get_facecolors()
    top = np.argmax(M.probabilities, axis=1)
    assert np.allclose(dots, to_rgba_array(output_colors(G.outputs, safe=True))[top])
    assert [t.get_text() for t in fig.axes[0].texts] == ["origin"]
    texts = _legend_texts(fig)
    assert "outputs: centre dot = most likely output" in texts


def test_hundred_thousand_nodes_draw_in_seconds():
    side = 317  # 100489 nodes, 200344 edges, from arrays (no networkx graph)
    idx = np.arange(side * side).reshape(side, side)
    edges = np.concatenate(
        [
            np.stack([idx[:, :-1].ravel(), idx[:, 1:].ravel()], axis=1),
            np.stack([idx[:-1].ravel(), idx[1:].ravel()], axis=1),
        ]
    )
    row, col = np.divmod(np.arange(side * side), side)
    G = RainbowGraph.from_edges(
        edges,
        outputs=[0, 1, 2],
        rainbow_table=[[0, 1, 2], [1, 0, 2], [2, 1, 0], [1, 2, 0]],
        rainbow_ids=(row > side // 2) * 2 + (col > side // 3),
    )
    M = Mechanism.from_rainbow_order(G, np.tile([0.6, 0.3, 0.1], (G.n_nodes, 1)))
    t0 = time.perf_counter()
    fig = draw_rainbow_graph(G, M)
    fig.savefig(io.BytesIO(), format="png", dpi=30)
    assert time.perf_counter() - t0 < 60.0  # about 4 s on a shared 2-core machine
    # disks far below MIN_DOT_DISK points: each coloured by its most likely output (its top
    # choice here, P = 0.6), with the borders of the four classes drawn
    nodes = _collection(fig, "most-likely-output")
    assert len(nodes.get_offsets()) == G.n_nodes
    top = to_rgba_array(output_colors(G.outputs, safe=True))[G.order[:, 0]]
    assert np.allclose(nodes.get_facecolors(), top)
    assert len(_collection(fig, "class-borders").get_segments()) > 0
    assert f"edges not drawn ({G.n_edges} > {EDGE_LIMIT})" in _legend_texts(fig)
    assert G._nx is None  # the layout never built a networkx graph


# ---------------------------------------------------------------------- errors
def _arcs(fig):
    return [p for p in fig.axes[0].patches if p.get_gid() == "arc"]


def _directed_square():
    """Four nodes; arcs 0 <-> 1, 2 <-> 3 both ways, 1 -> 2, 3 -> 0, 0 -> 2 one way."""
    g = nx.DiGraph()
    g.add_edges_from([(0, 1), (1, 0), (1, 2), (2, 3), (3, 2), (3, 0), (0, 2)])
    for i in g.nodes:
        g.nodes[i]["rainbow"] = ["a", "b"] if i < 2 else ["b", "a"]
    return RainbowGraph(g, outputs=["a", "b"])


def test_directed_graphs_draw_one_arrow_per_pair_of_nodes():
    from matplotlib.path import Path

    G = _directed_square()
    assert G.directed and G.n_edges == 7
    M = Mechanism(G, [[0.6, 0.4]] * 2 + [[0.4, 0.6]] * 2)
    fig = draw_rainbow_graph(G, M)
    arcs = _arcs(fig)
    pairs = {frozenset(e) for e in G.edges.tolist()}
    assert len(arcs) == len(pairs) == 5
    styles = sorted(type(a.get_arrowstyle()).__name__ for a in arcs)
    assert styles == ["CurveFilledAB"] * 2 + ["CurveFilledB"] * 3  # two pairs both ways
    assert not [c for c in fig.axes[0].collections if c.get_gid() == "edges"]
    assert "arrow d → d′: arc (one-way neighbours)" in _legend_texts(fig)
    assert "double arrow: arcs both ways" in _legend_texts(fig)
    assert fig.axes[0].get_title().startswith("rainbow graph: 4 nodes, 7 arcs")
    # each arrow runs from rim to rim: it never enters a disk, and reaches both rims
    fig.canvas.draw()
    centres, radius = _disks(fig)
    for arrow in arcs:
        path = arrow.get_path()
        pts = path.vertices[path.codes != Path.CLOSEPOLY]
        dist = np.linalg.norm(pts[:, None, :] - centres[None, :, :], axis=2) / radius
        assert dist.min() >= 1.0
        assert np.sort(dist.min(axis=0))[1] <= 1.2  # two disks touched


def test_add_only_records_graph_has_arrows_and_undirected_graphs_none():
    from rainbowdp.builders import from_records

    G = from_records([0, 1], size=2, query=sum, outputs=[0, 1, 2], relation="add_only")
    arcs = _arcs(draw_rainbow_graph(G, labels=True))
    assert len(arcs) == G.n_edges == 6  # one-way arcs only
    assert all(type(a.get_arrowstyle()).__name__ == "CurveFilledB" for a in arcs)
    U = from_records([0, 1], size=2, query=sum, outputs=[0, 1, 2])
    fig = draw_rainbow_graph(U)
    assert not _arcs(fig) and not fig.axes[0].patches
    assert len(_collection(fig, "edges").get_segments()) == U.n_edges
    assert not any("arc" in t for t in _legend_texts(fig))


def test_directed_graphs_in_large_mode_are_lines_once_per_pair():
    G = _directed_square()
    fig = draw_rainbow_graph(G, mode="large")
    assert not _arcs(fig)
    (lines,) = [c for c in fig.axes[0].collections if type(c).__name__ == "LineCollection"]
    assert len(lines.get_segments()) == 5
    assert "directed: arcs drawn as lines" in _legend_texts(fig)


def test_bad_arguments_name_the_parameter():
    G, _ = _example1()
    with pytest.raises(ParameterError, match=r"`mode` must be one of.*mode='huge'"):
        draw_rainbow_graph(G, mode="huge")
    with pytest.raises(ParameterError, match=r"`layout` must be one of.*'grid'"):
        draw_rainbow_graph(G, layout="grid")
    with pytest.raises(ParameterTypeError, match=r"`labels` must be a bool or a mapping"):
        draw_rainbow_graph(G, labels="yes")
    with pytest.raises(ParameterError, match=r"`labels` names the node 'd9'"):
        draw_rainbow_graph(G, labels={"d9": "x"})
    with pytest.raises(ParameterTypeError, match=r"`rainbows` must be a bool, got rainbows=1"):
        draw_rainbow_graph(G, rainbows=1)
    with pytest.raises(ParameterTypeError, match=r"`legend` must be a bool"):
        draw_rainbow_graph(G, legend="no")
    with pytest.raises(ParameterTypeError, match=r"`seed` must be an integer"):
        draw_rainbow_graph(G, seed=1.5)
    with pytest.raises(ParameterError, match=r"`pos` must give one \(x, y\) pair per node"):
        draw_rainbow_graph(G, pos=np.zeros((4, 2)))
    with pytest.raises(ParameterError, match=r"`pos` must be finite.*'d2'"):
        draw_rainbow_graph(G, pos=np.array([[0, 0], [np.nan, 1], [2, 0], [3, 0], [4, 0]]))
    with pytest.raises(ParameterError, match=r"`pos` has no position for node 'd5'"):
        draw_rainbow_graph(G, pos={d: (0.0, 1.0) for d in ["d1", "d2", "d3", "d4"]})
    big = builders.count_path(2500, outputs=[0, 1])
    with pytest.raises(ParameterError, match=r"`mode` 'glyphs' draws at most 2000 nodes"):
        draw_rainbow_graph(big, mode="glyphs")
    with pytest.raises(ParameterError, match=r"`labels` True would draw 2501 labels"):
        draw_rainbow_graph(big, labels=True)
    huge = builders.count_path(6000, outputs=[0, 1])
    with pytest.raises(ParameterError, match=r"`layout` 'spring' \(networkx\) is too slow"):
        draw_rainbow_graph(huge, layout="spring")


def test_importing_rainbowdp_plot_does_not_import_matplotlib():
    code = "import sys, rainbowdp, rainbowdp.plot; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
