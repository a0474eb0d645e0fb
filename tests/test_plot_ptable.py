"""The figure of an agency's ptable next to rainbowdp's design (``plot_ptable_comparison``).

Oracle: the curves are the exact δ(ε) of :func:`rainbowdp.cellkey.audit` on both tables, and
the legend's numbers are those of :func:`compare_with_design`, rounded up with
:func:`rainbowdp.format_up`.
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest

from rainbowdp import format_up
from rainbowdp.cellkey import Ptable, audit
from rainbowdp.cellkey._compare_agency import compare_with_design
from rainbowdp.exceptions import ParameterError, ParameterTypeError
from rainbowdp.plot._ptable import PTABLE_FLOOR, PTABLE_POINTS, plot_ptable_comparison

matplotlib.use("Agg")

from matplotlib.figure import Figure


@pytest.fixture(scope="module")
def comparison():
    # ptable's pt_ex_cnts() parameters (ptable 0.3.3 R/pt_examples.R)
    T = Ptable.from_parameters(2, 1.05, js=1, mono=[True, True, False, True])
    return compare_with_design(T, epsilon=1.0, keysize=10**8)


def test_curves_are_the_audits(comparison):
    grid = [0.0, 0.5, 1.0, 1.5]
    fig = plot_ptable_comparison(comparison, epsilons=grid)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    solid = [ln for ln in ax.lines if len(ln.get_xdata()) == len(grid)]
    assert len(solid) == 4  # counts >= D and all counts, for both tables
    for line, T in ((solid[0], comparison.table), (solid[2], comparison.design.table)):
        rep = audit(T, epsilons=grid, keysize=10**8)
        want = np.maximum(rep.delta_at_epsilon_independent, PTABLE_FLOOR)
        assert np.array_equal(line.get_ydata(), want)
    assert ax.get_yscale() == "log"


def test_legend_gives_both_deltas_rounded_up(comparison):
    fig = plot_ptable_comparison(comparison, all_counts=False)
    texts = [t.get_text().replace("\n", " ") for t in fig.axes[0].get_legend().get_texts()]
    assert len(texts) == 2
    assert f"δ = {format_up(comparison.agency_delta, 4)}" in texts[0]
    assert f"δ = {format_up(comparison.designed_delta, 4)}" in texts[1]
    assert "D = 2" in texts[0] and "rainbowdp optimal" in texts[1]
    xs = fig.axes[0].lines[0].get_xdata()
    assert len(xs) == PTABLE_POINTS and xs[-1] == 2.0


def test_draws_on_given_axes(comparison):
    fig = Figure()
    ax = fig.add_subplot()
    assert plot_ptable_comparison(comparison, ax=ax, epsilons=[1.0]) is fig
    assert len(ax.lines) >= 2


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"epsilons": [-1.0]}, ParameterError),
        ({"epsilons": "x"}, ParameterTypeError),
        ({"all_counts": 1}, ParameterTypeError),
    ],
)
def test_bad_arguments(comparison, kwargs, error):
    with pytest.raises(error):
        plot_ptable_comparison(comparison, **kwargs)


def test_not_a_comparison():
    with pytest.raises(ParameterTypeError, match="compare_with_design"):
        plot_ptable_comparison(object())
