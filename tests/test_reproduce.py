"""Tests of rainbowdp.reproduce (Gu et al., Figs. 3-5; Kadam et al., Table 1, Figs. 9, 10, 13) and
rainbowdp.plot."""

from __future__ import annotations

import dataclasses
import io
import itertools
import math
import time

import matplotlib
import networkx as nx
import numpy as np
import pytest
from matplotlib.colors import to_rgba

from rainbowdp import builders
from rainbowdp.exceptions import ParameterError
from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism
from rainbowdp.optimal import line_mechanism, optimal_mechanism
from rainbowdp.plot import draw_rainbow_graph, output_colors, plot_line_mechanism
from rainbowdp.reproduce import GU_BOUNDARY, GU_EPSILON, figure_3, figure_4, figure_5

matplotlib.use("Agg")


# ---------------------------------------------------------------------- Figs. 3-5
@pytest.mark.parametrize(
    ("make", "delta", "printed"),
    [
        (figure_3, 0.0, (38, 22, 7, 1, 0)),  # Gu et al., Fig. 3
        (figure_4, 1e-3, (25, 20, 7, 1, 0)),  # Gu et al., Fig. 4
        (figure_5, 1e-2, (13, 12, 6, 1, 0)),  # Gu et al., Fig. 5
    ],
)
@pytest.mark.parametrize("variant", ["corrected", "paper"])
def test_figures_reproduce_the_printed_tau(make, delta, printed, variant):
    f = make(variant=variant)
    assert f.tau == printed and f.printed_tau == printed and f.matches_paper
    assert f.delta == delta and f.epsilon == pytest.approx(math.log(1.2))
    assert f.boundary == GU_BOUNDARY and math.isclose(sum(GU_BOUNDARY), 1.0)
    assert np.array_equal(
        f.probabilities, line_mechanism(GU_BOUNDARY, 45, GU_EPSILON, delta, variant=variant)
    )
    assert f.t.tolist() == list(range(46))
    ax = f.figure.axes[0]
    assert ax.get_title().startswith(f"Gu et al., Fig. {f.name[-1]}")
    assert len(ax.lines) >= 10  # 5 curves + 5 dot series (+ tau markers)
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.tau = (0,)  # type: ignore[misc]


def test_figure_curves_behave_as_described():
    # Gu et al., Section 5.3: with delta > 0 the mass ends on the top output in finitely many
    # steps (earlier for larger delta), with delta = 0 never.
    f3, f4, f5 = figure_3(n=120), figure_4(n=120), figure_5(n=120)
    assert np.all(f3.probabilities[:, 0] < 1.0)
    first4 = int(np.argmax(f4.probabilities[:, 0] == 1.0))
    first5 = int(np.argmax(f5.probabilities[:, 0] == 1.0))
    assert 0 < first5 < first4


# ---------------------------------------------------------------------- plot_line_mechanism
def test_plot_line_mechanism_marks_tau_and_uses_given_axes():
    from matplotlib.figure import Figure

    fig = Figure()
    ax = fig.add_subplot()
    out = plot_line_mechanism(GU_BOUNDARY, 30, GU_EPSILON, 0.01, ax=ax, labels=list("abcde"))
    assert out is fig
    # tau = (13, 12, 6, 1, 0) all lie in [0, 30]: 5 curves + 5 dot series + 5 vertical lines
    assert len(ax.lines) == 15
    assert [t.get_text() for t in ax.get_legend().get_texts()] == list("abcde")
    # only switch times inside the plotted range are marked: n = 10 drops tau = 13 and 12
    fig2 = plot_line_mechanism(GU_BOUNDARY, 10, GU_EPSILON, 0.01)
    assert len(fig2.axes[0].lines) == 13
    buf = io.BytesIO()
    fig2.savefig(buf, format="png")
    assert buf.getvalue()[:4] == b"\x89PNG"


def test_plot_line_mechanism_rejects_bad_labels():
    with pytest.raises(ValueError, match=r"`labels` must have 5 entries.*\['a'\]"):
        plot_line_mechanism(GU_BOUNDARY, 10, GU_EPSILON, 0.0, labels=["a"])
    with pytest.raises(ValueError, match=r"`n` must be >= 1.*n=0"):
        plot_line_mechanism(GU_BOUNDARY, 0, GU_EPSILON, 0.0)


# ---------------------------------------------------------------------- draw_rainbow_graph
def test_output_colors_uses_colour_names_else_a_palette():
    assert output_colors(["blue", "red", "green"]) == ["blue", "red", "green"]
    pal = output_colors(["x", "y"])
    assert len(pal) == 2 and pal[0] != pal[1]


def test_draw_rainbow_graph_with_mechanism():
    from matplotlib.collections import PatchCollection

    G = builders.cycle([("blue", "red", "green")] * 5 + [("red", "green", "blue")] * 3)
    rows = {c: [1 / 3] * 3 for c in G.rainbows}
    M = optimal_mechanism(G, epsilon=0.5, boundary=rows)
    fig = draw_rainbow_graph(G, M, layout="circular")
    ax = fig.axes[0]
    collections = [c for c in ax.collections if isinstance(c, PatchCollection)]
    disks, wedges = collections
    # node disks coloured by rainbow class: one colour per class, the two classes distinct
    face = disks.get_facecolors()
    assert np.allclose(face[:5], face[0]) and np.allclose(face[5:], face[5])
    assert not np.allclose(face[0], face[5])
    # boundary nodes (0, 4, 5, 7) outlined in black, the others with a thinner grey rim
    black = np.all(np.isclose(disks.get_edgecolors(), to_rgba("black")), axis=1)
    assert [i for i, is_black in enumerate(black) if is_black] == [0, 4, 5, 7]
    widths = np.asarray(disks.get_linewidths())
    assert widths[black].min() > widths[~black].max() > 0
    # one pie wedge per positive probability
    assert len(wedges.get_paths()) == int(np.count_nonzero(M.probabilities > 0))


def test_draw_rainbow_graph_copes_with_hundreds_of_nodes():
    g = nx.grid_2d_graph(18, 18)
    for i, j in g.nodes:
        g.nodes[(i, j)]["rainbow"] = [0, 1, 2] if i < 9 else [2, 1, 0]
    G = RainbowGraph(g, outputs=[0, 1, 2])
    M = optimal_mechanism(
        G, epsilon=0.3, boundary={(0, 1, 2): [0.4, 0.3, 0.3], (2, 1, 0): [0.3, 0.3, 0.4]}
    )
    pos = {d: d for d in G.nodes}
    t0 = time.perf_counter()
    fig = draw_rainbow_graph(G, M, pos=pos)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=60)
    assert time.perf_counter() - t0 < 20.0
    assert fig.axes[0].get_title() == "rainbow graph: 324 nodes, 612 edges, 2 rainbows"


def test_draw_rainbow_graph_errors():
    G = builders.line(["a", "b"], 3)
    H = builders.line(["a", "b"], 3)
    M = Mechanism(H, np.full((4, 2), 0.5))
    with pytest.raises(ValueError, match=r"`mechanism` must live on `G`"):
        draw_rainbow_graph(G, M)
    with pytest.raises(ValueError, match=r"`layout` must be one of.*'grid'"):
        draw_rainbow_graph(G, layout="grid")
    with pytest.raises(ValueError, match=r"no position for node 3"):
        draw_rainbow_graph(G, pos={0: (0, 0), 1: (1, 0), 2: (2, 0)})
    with pytest.raises(TypeError, match=r"`G` must be a RainbowGraph, got G=Graph"):
        draw_rainbow_graph(nx.Graph())
    with pytest.raises(TypeError, match=r"`mechanism` must be a Mechanism, got mechanism=list"):
        draw_rainbow_graph(G, [[0.5, 0.5]] * 4)
    fig = draw_rainbow_graph(G, layout="spring", seed=3)
    assert fig.axes[0].get_legend() is not None


# ------------------------------------------------------------------------ Kadam et al.
def test_kadam_table1_and_fig10_step_lengths():
    from rainbowdp import reproduce as r

    t = r.kadam_table1()
    assert t.matches_paper  # Kadam et al., Table 1, to the printed digits
    # Fig. 10b caption: step lengths (1,3,3,2), (1,3,2,3), (1,3,2,2,1) at the three deltas
    b = r.kadam_figure10("b")
    assert [r.step_lengths(f) for f in b.pmfs] == [(1, 3, 3, 2), (1, 3, 2, 3), (1, 3, 2, 2, 1)]
    # Fig. 10a: b = 2 steps of length 3 and a last step of r = 2 after eta = 0
    assert r.step_lengths(r.kadam_figure10("a").pmfs[0]) == (1, 3, 3, 2)


def test_kadam_fig9_orders_and_zeros():
    from rainbowdp import reproduce as r

    a = r.kadam_figure9("a")
    b = r.kadam_figure9("b")
    for f in a.pmfs:  # Kadam et al., Fig. 9a: f(0) >= f(3) >= f(6) >= f(1) >= ... >= f(5)
        order = [0, 3, 6, 1, 4, 7, 2, 5]
        assert all(f[i] >= f[j] - 1e-12 for i, j in itertools.pairwise(order))
    for f in b.pmfs:  # Fig. 9b: zeros at the odd noise values
        assert f[[1, 3, 5, 7]].max() == 0.0
    # "as delta increases, f*(0) increases"
    assert np.all(np.diff(a.pmfs[:, 0]) >= -1e-12) and a.pmfs[-1, 0] > a.pmfs[0, 0]
    assert a.matches_paper is None


def test_kadam_fig13():
    from rainbowdp import reproduce as r

    a = r.kadam_figure13("a")
    assert a.pmfs.shape == (1, 5, 5) and a.matches_paper  # Kadam et al., eq. (59)
    b = r.kadam_figure13("b")
    f = b.pmfs[0]
    second = sorted(np.argsort(-f.ravel())[1:5].tolist())
    assert [divmod(i, 7) for i in second] == [(1, 2), (1, 5), (3, 2), (3, 5)]
    with pytest.raises(ParameterError, match="`panel`"):
        r.kadam_figure13("c")


def test_cli_reproduces_kadam_table1(capsys, tmp_path):
    import json

    from rainbowdp.cli import main

    assert main(["reproduce", "table1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["matches_paper"] is True and data["deltas"] == [0.0, 0.1212, 0.1238, 0.1522]
    assert main(["reproduce", "fig13a", "-o", str(tmp_path / "f.png"), "--dpi", "20"]) == 0
    assert (tmp_path / "f.png").stat().st_size > 0
