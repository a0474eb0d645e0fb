"""Every figure of ``rainbowdp reproduce NAME`` passes the figure checks of
:mod:`tests.figure_checks`: nothing outside the figure, legend entries distinct, tick labels
apart, Greek letters as mathtext; and the figures that had drawn their data at the wrong x
positions (Sadeghi & Chien, Fig. 3) or hidden curves (Kadam et al., Fig. 12a) do not any more."""

from __future__ import annotations

import functools

import matplotlib
import numpy as np
import pytest

from rainbowdp.cli import main
from rainbowdp.reproduce import TARGETS
from tests.figure_checks import check_figure, check_ticks_match_data, render, tick_values

matplotlib.use("Agg")

#: Every figure target, each reachable as ``rainbowdp reproduce NAME`` (all of them take under
#: 20 s).
FIGURES = tuple(name for name, t in TARGETS.items() if t.figure)


@functools.cache
def made(name: str):
    """The result of a target, computed once for the whole file."""
    return TARGETS[name].make()


def test_every_cli_figure_is_covered():
    assert len(FIGURES) >= 30 and set(FIGURES) <= set(TARGETS)


@pytest.mark.parametrize("name", FIGURES)
def test_reproduced_figure_passes_the_figure_checks(name, tmp_path):
    fig = made(name).figure
    fig.set_dpi(40)
    check_figure(fig)
    titles = [ax.get_title() for ax in fig.axes] + [fig.get_suptitle()]
    assert any(t.strip() for t in titles), name  # every figure says what it is
    fig.savefig(tmp_path / f"{name}.png", dpi=20)
    assert (tmp_path / f"{name}.png").read_bytes()[:4] == b"\x89PNG"


def test_abs_fig3_peak_sits_at_the_tick_labelled_zero():
    # Sadeghi & Chien, Example 1 / Fig. 3: the max-entropy PMF on [-25, 25] is symmetric with
    # its peak p_Z(0) = 0.056895481243871 at z = 0
    f = made("abs-fig3")
    fig = f.figure
    drawn = render(fig)
    pmf = np.asarray(next(iter(f.panels[0].series.values())))
    for ax in fig.axes:
        bars = ax.patches
        assert len(bars) == pmf.size == 51
        centres = np.array([b.get_x() + b.get_width() / 2 for b in bars])
        heights = np.array([b.get_height() for b in bars])
        check_ticks_match_data(ax, centres, drawn)
        ticks = dict((value, loc) for loc, value in tick_values(ax, drawn))
        assert 0.0 in ticks and -20.0 in ticks and 20.0 in ticks
        assert centres[int(np.argmax(heights))] == pytest.approx(ticks[0.0])
        assert heights.max() == pytest.approx(0.056895481243871, abs=5e-16)
        # each bar sits at its own z: p_Z(z) at z, e.g. the smallest masses at z = -25 and 25
        np.testing.assert_allclose(centres, np.arange(-25, 26), rtol=0, atol=1e-12)
        np.testing.assert_array_equal(heights, pmf)


def test_fig12a_every_series_has_its_own_style():
    # Kadam et al., Fig. 12a: the MILP and Theorem 2's closed form coincide, so each of the six
    # curves needs its own colour, line style and marker to stay visible
    fig = made("fig12a").figure
    lines = [ln for ln in fig.axes[0].get_lines() if not ln.get_label().startswith("_")]
    styles = {(ln.get_color(), ln.get_linestyle(), ln.get_marker()) for ln in lines}
    assert len(lines) == 6 and len(styles) == 6
    assert len({ln.get_color() for ln in lines}) == 6


def test_gu_figures_print_delta_as_the_paper_does():
    # Gu et al., Section 5.3: Figs. 3-5 have delta = 0, 10^-3 and 0.01 (the float nearest
    # 10^-3 is above it and rounds up to 0.001001 at four digits)
    for name, shown in (("fig3", "0"), ("fig4", "10^{-3}"), ("fig5", "0.01")):
        title = made(name).figure.axes[0].get_title()
        assert f"\\log 1.2, {shown})" in title and "0.001001" not in title, title


def test_abs_optimal_marks_every_computed_point():
    f = made("abs-optimal")
    ax = f.figure.axes[0]
    assert ax.get_yscale() == "log"
    for ln in ax.get_lines():
        assert ln.get_markevery() == 1 and ln.get_marker() not in ("", "None", None)
        np.testing.assert_array_equal(ln.get_xdata(), f.panels[0].x)


def test_cli_writes_a_figure(tmp_path, capsys):
    out = tmp_path / "abs-fig3.png"
    assert main(["reproduce", "abs-fig3", "-o", str(out), "--dpi", "20"]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"
