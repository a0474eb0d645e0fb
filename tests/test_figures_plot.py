"""Every public plot function, rendered on small inputs and checked as a reader would see it.

Each case draws one figure with rainbowdp's own mechanisms (rainbowdp.noise on a count path) and
runs :func:`tests.figure_checks.check_figure` on it: nothing clipped, legends inside the figure
and their axes, one distinct entry per series, tick labels apart, Greek letters as mathtext.
"""

from __future__ import annotations

import contextlib
import io
import math
import runpy
from pathlib import Path

import matplotlib
import networkx as nx
import numpy as np
import pytest

import rainbowdp as rdp
from rainbowdp import noise
from rainbowdp.builders import count_path
from rainbowdp.plot import (
    draw_rainbow_graph,
    plot_curves,
    plot_joint_pmf,
    plot_line_mechanism,
    plot_mechanism_heatmap,
    plot_noise_cdf,
    plot_noise_pmf,
    plot_pmfs,
    plot_privacy_profile,
    plot_tradeoff,
    series_styles,
    tradeoff_sweep,
)

from .figure_checks import (
    check_ascii_greek,
    check_figure,
    check_inside,
    check_legends,
    check_tick_labels_apart,
    check_ticks_match_data,
    render,
)

matplotlib.use("Agg")

from matplotlib.figure import Figure

G = count_path(10)
MECHANISMS = {
    "geometric, clamped": noise.geometric(G, epsilon=1.0, form="clamped"),
    "geometric, truncated": noise.geometric(G, epsilon=1.0, form="truncated"),
    "discrete Gaussian": noise.discrete_gaussian(G, sigma=1.0),
    "randomized response": noise.randomized_response(G, epsilon=1.0),
}


def _colour_graph(n: int = 6) -> rdp.RainbowGraph:
    g = nx.path_graph(n)
    orders = [("red", "blue", "green"), ("blue", "green", "red"), ("green", "red", "blue")]
    for d in g:
        g.nodes[d]["rainbow"] = list(orders[min(d * 3 // n, 2)])
    return rdp.RainbowGraph(g, outputs=["red", "green", "blue"])


def _graph_glyphs() -> Figure:
    H = _colour_graph()
    M = rdp.Mechanism.from_rainbow_order(H, [[0.6, 0.3, 0.1]] * H.n_nodes)
    return draw_rainbow_graph(H, M, labels=True, rainbows=True)


def _graph_large() -> Figure:
    H = _colour_graph(300)
    M = rdp.Mechanism.from_rainbow_order(H, [[0.6, 0.3, 0.1]] * H.n_nodes)
    return draw_rainbow_graph(H, M, mode="large")


def _profile() -> Figure:
    return plot_privacy_profile(MECHANISMS, target=(1.0, 1e-3))


def _pmf() -> Figure:
    return plot_noise_pmf(
        {
            "geometric": noise.GeometricLaw(math.exp(-1.0)),
            "Gaussian": noise.DiscreteGaussianLaw(1.5),
        }
    )


def _cdf() -> Figure:
    return plot_noise_cdf(
        {
            "geometric": noise.GeometricLaw(math.exp(-1.0)),
            "Gaussian": noise.DiscreteGaussianLaw(1.5),
        }
    )


def _tradeoff() -> Figure:
    H = count_path(6)
    sweep = tradeoff_sweep(
        {
            "geometric": lambda e: noise.geometric(H, epsilon=e),
            "randomized response": lambda e: noise.randomized_response(H, epsilon=e),
            "exponential": lambda e: noise.exponential(H, epsilon=e),
        },
        [0.25, 0.5, 1.0, 2.0],
    )
    return plot_tradeoff(sweep)


def _curves() -> Figure:
    x = np.linspace(0.0, 2.0, 21)
    series = {
        "optimal": np.exp(-x),
        "geometric, clamped": np.exp(-x) + 0.05,
        "geometric, modular": np.exp(-x) + 0.05,
        "staircase": np.exp(-0.5 * x),
    }
    return plot_curves(x, series, xlabel=r"$\varepsilon$", ylabel="error", title="curves")


def _pmfs() -> Figure:
    law = noise.GeometricLaw(math.exp(-1.0))
    rows = [[law.pmf(k) for k in range(6)], [2 ** -(k + 1) for k in range(6)]]
    return plot_pmfs(rows, labels=["geometric", "halving"])


def _graph_on_axes() -> Figure:
    fig = Figure(figsize=(6.0, 3.0), layout="constrained")
    ax = fig.add_subplot()
    H = _colour_graph()
    draw_rainbow_graph(H, noise.randomized_response(H, epsilon=1.0), ax=ax)
    ax.set_title("randomized response, six datasets")
    return fig


def _profile_plain_figure() -> Figure:
    fig = Figure(figsize=(6.4, 4.8))  # no layout engine: nothing makes room beside the axes
    plot_privacy_profile(dict(list(MECHANISMS.items())[:2]), ax=fig.add_subplot())
    return fig


CASES = {
    "profile_plain_figure": _profile_plain_figure,
    "graph_on_axes": _graph_on_axes,
    "graph_rainbows_large": lambda: draw_rainbow_graph(_colour_graph(300), rainbows=True),
    "graph_glyphs": _graph_glyphs,
    "graph_large": _graph_large,
    "line_mechanism": lambda: plot_line_mechanism([0.2, 0.3, 0.5], 10, 0.3, 0.0),
    "pmfs": _pmfs,
    "joint_pmf": lambda: plot_joint_pmf([[0.7, 0.1], [0.1, 0.1]]),
    "curves": _curves,
    "heatmap": lambda: plot_mechanism_heatmap(MECHANISMS["geometric, clamped"]),
    "noise_pmf": _pmf,
    "noise_cdf": _cdf,
    "privacy_profile": _profile,
    "tradeoff": _tradeoff,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_plot_passes_the_figure_checks(name):
    check_figure(CASES[name]())


# ----------------------------------------------------------------------- the checks can fail
def _bare(layout: str | None = "constrained") -> tuple[Figure, object]:
    fig = Figure(figsize=(4.0, 3.0), layout=layout)
    return fig, fig.add_subplot()


def test_the_checks_catch_what_they_promise():
    fig, ax = _bare()
    ax.set_title("a title far too long to fit in a figure four inches wide, cut at both ends")
    with pytest.raises(AssertionError, match="outside the figure"):
        check_inside(fig)
    fig, ax = _bare()
    ax.plot([0, 1], [0, 1], label="a")
    ax.plot([0, 1], [1, 0], label="a")
    ax.legend()
    with pytest.raises(AssertionError, match="appear twice"):
        check_legends(fig)
    fig, ax = _bare()
    ax.plot([0, 1], [0, 1], "C0", label="a")
    ax.plot([0, 1], [0, 1], "C0", label="b")  # hidden under "a", same style
    ax.legend()
    with pytest.raises(AssertionError, match="share the style"):
        check_legends(fig)
    fig, ax = _bare(layout=None)
    ax.plot([0, 1], [0, 1], label="x" * 90)
    ax.legend()
    with pytest.raises(AssertionError, match="wider than the figure"):
        check_legends(fig)
    fig, ax = _bare(layout=None)
    ax.plot([0, 1], [0, 1], label="a legend as wide as the axes")
    ax.legend(loc="upper right", bbox_to_anchor=(1.1, 1.0))  # half in, half out of the axes
    with pytest.raises(AssertionError, match="exceeds its axes"):
        check_legends(fig)
    fig, ax = _bare()
    ax.set_xticks(range(30), [f"label{i}" for i in range(30)])
    with pytest.raises(AssertionError, match="overlap"):
        check_tick_labels_apart(fig)
    for text in ("eps", "delta(eps)", "mu_bar = 3", "Sigma"):
        fig, ax = _bare()
        ax.set_xlabel(text)
        with pytest.raises(AssertionError, match="ASCII"):
            check_ascii_greek(fig)
    fig, ax = _bare()
    ax.set_xlabel(r"$\varepsilon$, $\delta$, $\eta$, $\bar\mu$, $\sigma$ and beta")
    check_ascii_greek(fig)


def test_ticks_must_name_the_data_positions():
    # the reported failure: a PMF on -25..25 drawn at 0..50 under ticks relabelled -25..25
    _, ax = _bare()
    k = np.arange(51)
    ax.bar(k, np.exp(-np.abs(k - 25.0)))
    ax.set_xticks([0, 25, 50], ["-25", "0", "25"])
    with pytest.raises(AssertionError, match="do not name their positions"):
        check_ticks_match_data(ax, k)
    _, ax = _bare()
    ax.bar(k - 25, np.exp(-np.abs(k - 25.0)))
    check_ticks_match_data(ax, k - 25)
    with pytest.raises(AssertionError, match="outside tick labels"):
        check_ticks_match_data(ax, k + 100)


# ------------------------------------------------------------------------ PMFs on their ticks
def test_noise_pmf_is_drawn_at_its_values():
    fig = plot_noise_pmf(noise.GeometricLaw(math.exp(-0.3)), kind="line")
    (line,) = [ln for ln in fig.axes[0].lines if ln.get_gid() == "pmf"]
    xs = np.asarray(line.get_xdata())
    assert xs.min() < 0 < xs.max()  # a symmetric law on both sides of 0
    check_figure(fig)
    check_ticks_match_data(fig.axes[0], xs)
    fig = plot_noise_pmf([0.1, 0.2, 0.4, 0.2, 0.1], support=-2)
    stems = fig.axes[0].containers[0].markerline.get_xdata()
    check_ticks_match_data(fig.axes[0], stems)


def test_pmfs_bars_sit_on_their_eta():
    rows = np.array([[2.0 ** -(k + 1) for k in range(40)], [1 / 40] * 40])
    fig = plot_pmfs(rows, labels=["halving", "uniform"])
    check_figure(fig)
    centres = [p.get_x() + p.get_width() / 2 for p in fig.axes[0].patches]
    check_ticks_match_data(fig.axes[0], centres)
    assert np.max(np.abs(np.array(centres) - np.round(centres))) <= 0.4


# ------------------------------------------------------------------ coinciding series visible
def test_four_coinciding_mechanisms_get_four_distinct_entries():
    M = MECHANISMS["geometric, clamped"]
    fig = plot_privacy_profile({f"copy {i}": M for i in range(4)}, target=(1.0, 1e-3))
    drawn = check_figure(fig)
    (legend,) = drawn.legends
    labels = [t.get_text() for t in legend.get_texts()]
    assert sum(label.startswith("copy ") for label in labels) == 4  # one entry per mechanism
    lines = [ln for ln in fig.axes[0].lines if ln.get_gid() == "privacy_profile"]
    styles = {(ln.get_color(), ln.get_linestyle(), ln.get_marker()) for ln in lines}
    assert len(styles) == 4
    # the markers of coinciding curves sit at different places along them
    starts = {ln.get_markevery()[0] for ln in lines}
    assert len(starts) == 4


def test_coinciding_curves_with_few_points_nest_their_markers():
    """Two equal curves of 8 points have markers on the same points: the one drawn later has
    smaller markers, so the earlier one shows around it."""
    H = count_path(6)
    sweep = tradeoff_sweep(
        {name: (lambda e: noise.geometric(H, epsilon=e)) for name in ("a", "b", "c")},
        np.linspace(0.2, 3.0, 8),
    )
    fig = plot_tradeoff(sweep)
    check_figure(fig)
    sizes = [ln.get_markersize() for ln in fig.axes[0].lines if ln.get_label() in "abc"]
    assert len(sizes) == 3 and sizes[0] > sizes[1] > sizes[2] > 0


def test_series_styles_never_repeat():
    for n in (1, 7, 20, 140, 141, 300):
        keys = [(str(s["color"]), s["linestyle"], s["marker"]) for s in series_styles(n)]
        assert len(set(keys)) == n


def test_explicit_styles_are_used():
    M = MECHANISMS["geometric, clamped"]
    fig = plot_privacy_profile({"a": M}, styles=[{"color": "#123456", "linestyle": ":"}])
    (line,) = [ln for ln in fig.axes[0].lines if ln.get_gid() == "privacy_profile"]
    assert (line.get_color(), line.get_linestyle()) == ("#123456", ":")
    fig = plot_curves([0, 1], {"a": [0, 1], "b": [1, 0]}, styles={"b": {"color": "#654321"}})
    assert fig.axes[0].lines[1].get_color() == "#654321"
    law = noise.GeometricLaw(0.5)
    fig = plot_noise_cdf([law, law], styles=[{"color": "k"}, {"color": "r", "marker": "x"}])
    assert [ln.get_color() for ln in fig.axes[0].lines[:2]] == ["k", "r"]
    with pytest.raises(ValueError, match="styles"):
        plot_privacy_profile({"a": M, "b": M}, styles=[{"color": "k"}])
    with pytest.raises(TypeError, match="styles"):
        plot_noise_cdf(law, styles=["red"])
    with pytest.raises(ValueError, match="styles"):
        plot_curves([0, 1], {"a": [0, 1]}, styles={"z": {}})


# ------------------------------------------------------------------------- 10^5-node grid
#: A 160 x 160 grid: 25 600 datasets, 50 880 edges (more than EDGE_LIMIT: not drawn), disks far
#: below MIN_DOT_DISK points (tests/test_plot_graph.py draws 10^5 nodes).
SIDE = 160


@pytest.fixture(scope="module")
def grid_drawing():
    side = SIDE
    g = nx.grid_2d_graph(side, side)
    orders = (["red", "blue", "green"], ["green", "red", "blue"], ["blue", "green", "red"])
    for i, j in g:
        g.nodes[(i, j)]["rainbow"] = orders[0 if i < side // 3 else 1 if j < side // 2 else 2]
    G = rdp.RainbowGraph(g, outputs=["red", "green", "blue"])
    M = rdp.Mechanism.from_rainbow_order(G, np.tile([0.6, 0.3, 0.1], (G.n_nodes, 1)))
    return G, draw_rainbow_graph(G, M)


def test_large_grid_keeps_its_coordinates(grid_drawing):
    G, fig = grid_drawing
    (nodes,) = [c for c in fig.axes[0].collections if c.get_gid() == "most-likely-output"]
    drawn = np.asarray(nodes.get_offsets())
    grid = np.array(G.nodes, dtype=float)
    # drawn = grid @ A + b exactly (least squares residual ~ 0): an affine image of the grid,
    # not a pinched star; and the aspect is kept (A a multiple of a rotation or reflection)
    design = np.c_[grid, np.ones(len(grid))]
    coef, *_ = np.linalg.lstsq(design, drawn, rcond=None)
    assert np.abs(design @ coef - drawn).max() < 1e-9 * np.abs(drawn).max()
    a = coef[:2]
    assert np.allclose(a.T @ a, (a.T @ a)[0, 0] * np.eye(2))
    ax = fig.axes[0]
    box = ax.get_window_extent(render(fig).renderer)
    assert 0.9 < box.width / box.height < 1.1  # a square grid is drawn square
    check_figure(fig)


def test_large_grid_shows_the_mechanism(grid_drawing):
    G, fig = grid_drawing
    from matplotlib.colors import to_rgba_array

    from rainbowdp.plot import output_colors

    (nodes,) = [c for c in fig.axes[0].collections if c.get_gid() == "most-likely-output"]
    top = np.argmax(_mechanism_rows(G), axis=1)
    expected = to_rgba_array(output_colors(G.outputs, safe=True))[top]
    assert np.allclose(nodes.get_facecolors(), expected)
    (borders,) = [c for c in fig.axes[0].collections if c.get_gid() == "class-borders"]
    # the borders between the three classes: SIDE edges across i = SIDE // 3 - 1 | SIDE // 3,
    # and SIDE - SIDE // 3 across j = SIDE // 2 - 1 | SIDE // 2
    assert len(borders.get_segments()) == SIDE + (SIDE - SIDE // 3)
    texts = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "outputs: node colour = most likely output" in texts


def _mechanism_rows(G: rdp.RainbowGraph) -> np.ndarray:
    return rdp.Mechanism.from_rainbow_order(
        G, np.tile([0.6, 0.3, 0.1], (G.n_nodes, 1))
    ).probabilities


# ------------------------------------------------------------------------- gallery examples
EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("plot_*.py"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_gallery_examples_pass_the_figure_checks(path):
    import matplotlib.pyplot as plt

    plt.close("all")
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            runpy.run_path(str(path), run_name="__main__")
        numbers = plt.get_fignums()
        assert numbers, f"{path.name} drew no figure"
        for k in numbers:
            check_figure(plt.figure(k))
    finally:
        plt.close("all")


def test_rainbows_in_large_mode_show_each_preferred_output():
    from matplotlib.colors import to_rgba_array

    from rainbowdp.plot import output_colors

    H = _colour_graph(300)
    fig = draw_rainbow_graph(H, rainbows=True)
    (dots,) = [c for c in fig.axes[0].collections if c.get_gid() == "most-likely-output"]
    expected = to_rgba_array(output_colors(H.outputs, safe=True))[H.order[:, 0]]
    assert np.allclose(dots.get_facecolors(), expected)
    texts = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "outputs: centre dot = most preferred output" in texts
    # without rainbows=True and without a mechanism there is nothing to show per node
    plain = draw_rainbow_graph(H)
    assert not [c for c in plain.axes[0].collections if c.get_gid() == "most-likely-output"]
