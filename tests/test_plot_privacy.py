"""Privacy plots: the privacy profile, heat maps, noise PMFs/CDFs and trade-off curves."""

from __future__ import annotations

import math
import re
from decimal import Decimal

import matplotlib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rainbowdp as rdp
from rainbowdp import noise
from rainbowdp.builders import count_path
from rainbowdp.bundled import graphs_dir
from rainbowdp.exceptions import ParameterError, ParameterTypeError
from rainbowdp.io import load
from rainbowdp.plot import (
    TradeoffSweep,
    plot_mechanism_heatmap,
    plot_noise_cdf,
    plot_noise_pmf,
    plot_privacy_profile,
    plot_tradeoff,
    tradeoff_sweep,
)
from rainbowdp.plot._heatmap import _ordinal
from rainbowdp.plot._noise import TAIL_MASS
from rainbowdp.plot._profile import (
    DEFAULT_EPSILON_MAX,
    DELTA_FLOOR,
    GRID_MARGIN,
    default_grid,
    verdict_text,
    zero_delta_epsilons,
)

matplotlib.use("Agg")

from matplotlib.figure import Figure

GRAPHS = graphs_dir()


@pytest.fixture(scope="module")
def count_mech():
    return load(GRAPHS / "count_path.json")[1]


@pytest.fixture(scope="module")
def binary_mech():
    return load(GRAPHS / "binary_path.json")[1]


def _lines(fig, gid):
    return [ln for ln in fig.axes[0].lines if ln.get_gid() == gid]


# ------------------------------------------------------------------------------------ profile
def test_profile_data_are_the_verifier_profile(count_mech, binary_mech):
    fig = plot_privacy_profile({"count": count_mech, "binary": binary_mech})
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert ax.get_yscale() == "log"
    lines = _lines(fig, "privacy_profile")
    assert [ln.get_label().split(": ")[0] for ln in lines] == ["count", "binary"]
    for ln, m in zip(lines, (count_mech, binary_mech), strict=True):
        x, y = np.asarray(ln.get_xdata()), np.asarray(ln.get_ydata())
        assert np.array_equal(y, rdp.privacy_profile(m, x))
    # default grid: from 0 to GRID_MARGIN x the largest epsilon from which delta <= the floor,
    # with the epsilons where delta reaches 0 up to there
    ends = [rdp.epsilon_for_delta(m, DELTA_FLOOR) for m in (count_mech, binary_mech)]
    e0 = [rdp.epsilon_for_delta(m, 0.0) for m in (count_mech, binary_mech)]
    x = np.asarray(lines[0].get_xdata())
    assert x[0] == 0 and x[-1] == pytest.approx(GRID_MARGIN * max(ends))
    assert {e for e in e0 if e <= x[-1]} <= set(x)
    assert np.all(np.diff(x) > 0)
    # every profile has fallen to the floor before the grid ends
    assert all(rdp.privacy_profile(m, [x[-1]])[0] <= DELTA_FLOOR for m in (count_mech, binary_mech))


def test_profile_grid_stops_where_the_curves_reach_the_floor():
    # the clamped discrete Gaussian reaches delta = 0 only near epsilon = 9.5 on counts 0..10;
    # with a floor of 1e-6 the grid stops at 1.25 x the proved epsilon(1e-6), well before
    G = count_path(10)
    gauss = noise.discrete_gaussian(G, sigma=1.0)
    geo = noise.geometric(G, epsilon=1.0)
    fig = plot_privacy_profile({"g": gauss, "geo": geo}, delta_floor=1e-6)
    x = np.asarray(_lines(fig, "privacy_profile")[0].get_xdata())
    end = rdp.epsilon_for_delta(gauss, 1e-6)
    assert x[-1] == pytest.approx(GRID_MARGIN * end)
    assert x[-1] < rdp.epsilon_for_delta(gauss, 0.0)
    assert fig.axes[0].get_ylim()[0] == pytest.approx(1e-6)  # the log axis stops at the floor
    for bad in (0.0, 1.0, -1e-3):
        with pytest.raises(ParameterError, match="delta_floor"):
            plot_privacy_profile(gauss, delta_floor=bad)


def test_profile_zero_delta_is_shown_not_hidden(count_mech):
    e0 = rdp.epsilon_for_delta(count_mech, 0.0)
    fig = plot_privacy_profile(count_mech, [0.0, 0.3, e0, 1.0])
    (line,) = _lines(fig, "privacy_profile")
    assert np.count_nonzero(np.asarray(line.get_ydata()) == 0) == 2  # kept in the data
    shown = line.get_label().split(r"\geq$ ")[1]
    assert float(shown) >= e0  # the threshold is rounded up, never down
    (bar,) = _lines(fig, "zero_delta")
    assert bar.get_xdata()[0] == e0 and bar.get_xdata()[-1] == 1.0
    assert any(r"$\delta = 0$" in t.get_text() for t in fig.axes[0].get_legend().get_texts())
    # linear axis: zeros are drawn as they are, no bar
    fig = plot_privacy_profile(count_mech, [0.0, 0.3, e0, 1.0], logy=False)
    assert fig.axes[0].get_yscale() == "linear" and not _lines(fig, "zero_delta")


def test_profile_of_a_pair_and_infinite_epsilon():
    p, q = [0.5, 0.3, 0.2, 0.0], [0.2, 0.3, 0.4, 0.1]
    eps = [0.0, 0.5, 1.0, 3.0]
    fig = plot_privacy_profile((p, q), eps)
    (line,) = _lines(fig, "privacy_profile")
    expected = [max(rdp.hockey_stick(p, q, e), rdp.hockey_stick(q, p, e)) for e in eps]
    assert np.asarray(line.get_ydata()).tolist() == expected
    assert r"$\delta > 0$ at every $\varepsilon$" in line.get_label()
    # no finite epsilon with delta = 0: the default grid is fixed
    fig = plot_privacy_profile((p, q))
    assert _lines(fig, "privacy_profile")[0].get_xdata()[-1] == DEFAULT_EPSILON_MAX


@pytest.mark.parametrize(("target_delta", "private"), [(0.2, True), (0.05, False)])
def test_profile_target_and_verdict(count_mech, target_delta, private):
    fig = plot_privacy_profile(count_mech, target=(0.5, target_delta), labels=["M"])
    (star,) = _lines(fig, "target")
    assert (star.get_xdata()[0], star.get_ydata()[0]) == (0.5, target_delta)
    gid = "verdict_private" if private else "verdict_not_private"
    (mark,) = _lines(fig, gid)
    d = rdp.privacy_profile(count_mech, [0.5])[0]
    assert bool(d <= target_delta) is private and mark.get_ydata()[0] == d
    assert ("NOT private" in mark.get_label()) is not private


def test_profile_target_with_zero_delta_is_drawn_on_the_axis(count_mech):
    fig = plot_privacy_profile(count_mech, [0.0, 1.0, 2.0], target=(1.0, 0.0))
    (star,) = _lines(fig, "target")
    (mark,) = _lines(fig, "verdict_private")  # delta(1) = 0 <= 0: on the axis too
    for art in (star, mark):  # at the bottom of the axes, not at y = 0 of the data
        assert art.get_transform() != fig.axes[0].transData


@pytest.mark.parametrize(
    ("kwargs", "exc", "needle"),
    [
        ({"epsilons": [-1.0, 1.0]}, ParameterError, "epsilons"),
        ({"epsilons": []}, ParameterError, "epsilons"),
        ({"epsilons": [[0.0, 1.0]]}, ParameterError, "epsilons"),
        ({"epsilons": "0,1"}, ParameterTypeError, "epsilons"),
        ({"labels": ["a", "b"]}, ParameterError, "labels"),
        ({"target": (1.0,)}, ParameterError, "target"),
        ({"target": (1.0, 2.0)}, ParameterError, "target[1]"),
        ({"target": (-1.0, 0.1)}, ParameterError, "target[0]"),
        ({"ymin": 0.0}, ParameterError, "ymin"),
        ({"logy": "yes"}, ParameterTypeError, "logy"),
    ],
)
def test_profile_bad_arguments(count_mech, kwargs, exc, needle):
    with pytest.raises(exc, match=None) as info:
        plot_privacy_profile(count_mech, **kwargs)
    assert needle in str(info.value)


def test_profile_bad_mechanisms(count_mech):
    with pytest.raises(ParameterTypeError, match="mechanisms"):
        plot_privacy_profile(3.0)
    with pytest.raises(ParameterTypeError, match=r"mechanisms\[1\]"):
        plot_privacy_profile([count_mech, "x"])
    with pytest.raises(ParameterError, match="mechanisms"):
        plot_privacy_profile([])
    with pytest.raises(ParameterError, match="labels"):
        plot_privacy_profile({"a": count_mech}, labels=["b"])
    with pytest.raises(ParameterError, match="`q`"):
        plot_privacy_profile(([0.5, 0.5], [0.2, 0.3, 0.5]))
    with pytest.raises(ParameterError, match="`p`"):
        plot_privacy_profile(([0.5, 0.6], [0.5, 0.5]))


def test_profile_on_given_axes(count_mech):
    fig = Figure()
    ax = fig.add_subplot()
    assert plot_privacy_profile(count_mech, [0, 1], ax=ax) is fig


_VERDICT = re.compile(r"δ (?:= (\S+) )?([≤>]) (\S+), (private|NOT private)$")


def _check_verdict(text: str, d: float, t: float) -> None:
    """The verdict is right, its numbers are d rounded up and t exactly, and the printed
    comparison holds between the printed numbers."""
    shown_d, sign, shown_t, verdict = _VERDICT.search(text).groups()
    assert (verdict == "private") is (d <= t) and (sign == "≤") is (d <= t)
    assert float(shown_t) == t
    if shown_d is None:  # only when no rounding up of d fits below the printed target
        assert d <= t and Decimal(rdp.format_up(d, 15)) > Decimal(shown_t)
        return
    assert Decimal(shown_d) >= Decimal(d)  # rounded up, never down
    if d <= t:
        assert Decimal(shown_d) <= Decimal(shown_t)
    else:
        assert Decimal(shown_d) > Decimal(shown_t)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.floats(min_value=0.0, max_value=1.0),
    st.floats(min_value=0.0, max_value=1.0),
    st.integers(-3, 3),
)
def test_verdict_never_contradicts_its_numbers(d, t, ulps):
    _check_verdict(verdict_text(d, t), d, t)
    near = float(np.clip(d + ulps * np.spacing(d), 0.0, 1.0))  # a target next to d
    _check_verdict(verdict_text(d, near), d, near)


@pytest.mark.parametrize(
    ("d", "t"), [(0.09999512, 0.0999952), (0.0999951, 0.099995), (0.1, 0.1), (0.3, 0.1 + 0.2)]
)
def test_verdict_of_close_numbers(d, t):
    _check_verdict(verdict_text(d, t), d, t)


def test_profile_target_is_written_exactly_and_verdict_agrees(count_mech):
    d = float(rdp.privacy_profile(count_mech, [0.5])[0])
    for target in (d, np.nextafter(d, 1.0), np.nextafter(d, 0.0)):
        fig = plot_privacy_profile(count_mech, [0.0, 0.5, 1.0], target=(0.5, target))
        (star,) = _lines(fig, "target")
        assert star.get_label() == rf"target $(\varepsilon, \delta)$ = (0.5, {float(target)!r})"
        (mark,) = [ln for ln in fig.axes[0].lines if str(ln.get_gid()).startswith("verdict")]
        _check_verdict(mark.get_label(), d, float(target))


def test_profile_helpers_for_the_command_line(count_mech):
    (e0,) = zero_delta_epsilons([count_mech])
    assert e0 == rdp.epsilon_for_delta(count_mech, 0.0)
    grid = default_grid([e0], 11)
    assert grid[0] == 0 and grid[-1] == pytest.approx(GRID_MARGIN * e0) and e0 in grid
    assert default_grid([math.inf], 3).tolist() == [0.0, DEFAULT_EPSILON_MAX / 2, 5.0]


def test_ordinals():
    assert [_ordinal(k) for k in (1, 2, 3, 4, 11, 12, 13, 21, 22, 103, 111)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "103rd",
        "111th",
    ]


# ------------------------------------------------------------------------------------ heat map
def test_heatmap_outputs_and_rainbow_order():
    G, M = load(GRAPHS / "three_colour.json")
    fig = plot_mechanism_heatmap(M)
    ax = fig.axes[0]
    assert np.array_equal(np.asarray(ax.images[0].get_array()), M.probabilities)
    assert [t.get_text() for t in ax.get_xticklabels()] == [str(v) for v in G.outputs]
    assert [t.get_text() for t in ax.get_yticklabels()] == [str(d) for d in G.nodes]
    assert len(ax.texts) == G.n_nodes * G.n_outputs  # small: annotated
    assert len(fig.axes) == 2  # the colour bar
    fig = plot_mechanism_heatmap(M, order="rainbow", annotate=False)
    ax = fig.axes[0]
    drawn = np.asarray(ax.images[0].get_array())
    assert np.array_equal(drawn, M.in_rainbow_order())
    assert np.array_equal(drawn, np.take_along_axis(M.probabilities, G.order, axis=1))
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1st", "2nd", "3rd"]
    assert not ax.texts


def test_heatmap_log_masks_zeros():
    G = rdp.builders.line(["a", "b", "c"], 1)
    M = rdp.Mechanism(G, [[0.9, 0.1, 0.0], [0.5, 0.25, 0.25]])
    fig = plot_mechanism_heatmap(M, log=True)
    arr = fig.axes[0].images[0].get_array()
    assert np.ma.is_masked(arr) and arr.mask.tolist() == [[False, False, True], [False] * 3]
    assert np.array_equal(arr.filled(0.0), M.probabilities)


def test_heatmap_of_ten_thousand_nodes_draws_without_text():
    n = 10_000
    G = rdp.builders.line(list(range(4)), n - 1)
    rows = np.tile([0.4, 0.3, 0.2, 0.1], (n, 1))
    fig = plot_mechanism_heatmap(rdp.Mechanism(G, rows))
    ax = fig.axes[0]
    assert ax.images[0].get_array().shape == (n, 4) and not ax.texts
    assert "node index" in ax.get_ylabel()
    with pytest.raises(ParameterError, match="annotate"):
        plot_mechanism_heatmap(rdp.Mechanism(G, rows), annotate=True)


def test_heatmap_bad_arguments(count_mech):
    with pytest.raises(ParameterError, match="order"):
        plot_mechanism_heatmap(count_mech, order="columns")
    with pytest.raises(ParameterTypeError, match="order"):
        plot_mechanism_heatmap(count_mech, order=3)
    with pytest.raises(ParameterTypeError, match="order"):
        plot_mechanism_heatmap(count_mech, order=["rainbow"])
    with pytest.raises(ParameterTypeError, match="mechanism"):
        plot_mechanism_heatmap(np.eye(2))
    with pytest.raises(ParameterTypeError, match="log"):
        plot_mechanism_heatmap(count_mech, log="yes")
    with pytest.raises(ParameterError, match="cmap"):
        plot_mechanism_heatmap(count_mech, cmap="no-such-map")


# ------------------------------------------------------------------------------- noise laws
def test_pmf_and_cdf_of_arrays():
    p = np.array([0.1, 0.2, 0.4, 0.2, 0.1])
    fig = plot_noise_pmf(p, support=-2)
    stems = fig.axes[0].containers[0]
    assert np.array_equal(stems.markerline.get_xdata(), np.arange(-2, 3))
    assert np.array_equal(stems.markerline.get_ydata(), p)
    fig = plot_noise_cdf(p, support=-2)
    (cdf,) = _lines(fig, "cdf")
    y = np.asarray(cdf.get_ydata())
    assert y[0] == 0 and y[-1] == pytest.approx(1.0, abs=1e-15)
    assert np.array_equal(y[1:-1], np.cumsum(p)) and np.all(np.diff(y) >= 0)


def test_pmf_of_several_laws_on_the_union_of_supports():
    law = noise.TableLaw([0.25, 0.5, 0.25], offset=3)
    fig = plot_noise_pmf({"table": law, "array": [0.5, 0.5]}, kind="line")
    table, array = _lines(fig, "pmf")
    assert np.array_equal(table.get_xdata(), [0, 1, 2, 3, 4, 5])
    assert np.array_equal(table.get_ydata(), [0, 0, 0, 0.25, 0.5, 0.25])
    assert np.array_equal(array.get_ydata(), [0.5, 0.5, 0, 0, 0, 0])
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["table", "array"]


def test_pmf_and_cdf_of_a_family_use_its_law():
    fam = noise.Geometric(1.0)
    fig = plot_noise_pmf(fam, kind="line")
    (line,) = _lines(fig, "pmf")
    k = np.asarray(line.get_xdata()).astype(np.int64)
    assert np.array_equal(line.get_ydata(), fam.law().pmf(k))
    assert fam.law().cdf(k[:1] - 1)[0] + fam.law().sf(k[-1:] + 1)[0] <= TAIL_MASS
    fig = plot_noise_cdf([fam, noise.GeometricLaw(0.5)])
    for ln in _lines(fig, "cdf"):
        y = np.asarray(ln.get_ydata())
        assert 1 - TAIL_MASS <= y[-1] <= 1 and np.all(np.diff(y) >= 0)


def test_pmf_log_axis():
    fig = plot_noise_pmf(noise.GeometricLaw(0.5), logy=True)
    assert fig.axes[0].get_yscale() == "log"


@pytest.mark.parametrize(
    ("args", "kwargs", "exc", "needle"),
    [
        (([0.5, -0.1, 0.6],), {}, ParameterError, "pmf"),
        (([0.7, 0.7],), {}, ParameterError, "pmf"),
        (([0.5, 0.5],), {"support": [0, 1, 2]}, ParameterError, "support"),
        (([0.5, 0.5],), {"support": [1, 0]}, ParameterError, "support"),
        (([0.5, 0.5],), {"support": [0, 0.5]}, ParameterError, "support"),
        (([0.5, 0.5],), {"kind": "pie"}, ParameterError, "kind"),
        (([0.5, 0.5],), {"labels": ["a", "b"]}, ParameterError, "labels"),
        (("0.5",), {}, ParameterTypeError, "pmf"),
        ((np.zeros((2, 2, 2)),), {}, ParameterError, "pmf"),
    ],
)
def test_pmf_bad_arguments(args, kwargs, exc, needle):
    with pytest.raises(exc) as info:
        plot_noise_pmf(*args, **kwargs)
    assert needle in str(info.value)


# ------------------------------------------------------------------------------------ trade-off
@pytest.fixture(scope="module")
def sweep():
    G = count_path(6)
    builders = {
        "geometric (truncated)": lambda e: noise.geometric(G, epsilon=e, form="truncated"),
        "randomized response": lambda e: noise.randomized_response(G, epsilon=e),
    }
    return G, builders, tradeoff_sweep(builders, [0.5, 1.0, 2.0], utility="absolute")


def test_sweep_values_equal_direct_calls(sweep):
    G, builders, s = sweep
    assert isinstance(s, TradeoffSweep) and s.labels == tuple(builders)
    U = rdp.design.utility_matrix(G, "absolute")
    for label, build in builders.items():
        for i, e in enumerate(s.epsilons.tolist()):
            M = build(e)
            assert s.proved_epsilon[label][i] == rdp.epsilon_for_delta(M, 0.0)
            assert s.delta_at_epsilon[label][i] == rdp.privacy_profile(M, [e])[0]
            assert s.utility[label][i] == rdp.expected_utility(M, U) / G.n_nodes
    # the truncated geometric is not epsilon-DP at its nominal epsilon (docs/families.md)
    assert np.all(s.proved_epsilon["geometric (truncated)"] > s.epsilons)
    assert s.to_dict()["labels"] == list(builders)


def test_sweep_with_a_rank_vector_and_sum():
    G = count_path(4)
    build = {"rr": lambda e: noise.randomized_response(G, epsilon=e)}
    s = tradeoff_sweep(build, [1.0], utility=np.array([1.0, 0, 0, 0, 0]), average=False)
    M = build["rr"](1.0)
    assert s.utility["rr"][0] == rdp.expected_utility(M, [1.0, 0, 0, 0, 0])


def test_plot_tradeoff_curves(sweep):
    _, _, s = sweep
    fig = plot_tradeoff(s)
    lines = _lines(fig, "tradeoff")
    assert [ln.get_label() for ln in lines] == list(s.labels)
    for ln, label in zip(lines, s.labels, strict=True):
        assert np.array_equal(ln.get_xdata(), s.epsilons)
        assert np.array_equal(ln.get_ydata(), s.utility[label])
    fig = plot_tradeoff(s, x="proved_epsilon", y="utility")
    for ln, label in zip(_lines(fig, "tradeoff"), s.labels, strict=True):
        assert np.array_equal(ln.get_xdata(), s.proved_epsilon[label])
    fig = plot_tradeoff(s, y="proved_epsilon")
    assert any(ln.get_label() == "proved = built" for ln in fig.axes[0].lines)


def test_plot_tradeoff_writes_delta_rounded_up():
    G = count_path(3)
    delta = 1 / 3 * 1e-3
    s = tradeoff_sweep(
        {"rr": lambda e: noise.randomized_response(G, epsilon=e)}, [1.0], delta=delta
    )
    label = plot_tradeoff(s, x="proved_epsilon").axes[0].get_xlabel()
    shown = re.search(r"\$\\delta\$ = (\S+) ", label).group(1)
    assert Decimal(shown) >= Decimal(delta) and shown == rdp.format_up(delta)


def test_tradeoff_bad_arguments(sweep):
    G, builders, s = sweep
    with pytest.raises(ParameterError, match="`x`"):
        plot_tradeoff(s, x="delta")
    with pytest.raises(ParameterError, match="`y`"):
        plot_tradeoff(s, y="accuracy")
    with pytest.raises(ParameterError, match="differ"):
        plot_tradeoff(s, x="proved_epsilon", y="proved_epsilon")
    with pytest.raises(ParameterTypeError, match="sweep"):
        plot_tradeoff({"a": 1})
    with pytest.raises(ParameterError, match="builders"):
        tradeoff_sweep({}, [1.0])
    with pytest.raises(ParameterTypeError, match="builders"):
        tradeoff_sweep({"a": 3}, [1.0])
    with pytest.raises(ParameterTypeError, match="builders"):
        tradeoff_sweep({"a": lambda e: G}, [1.0])
    with pytest.raises(ParameterError, match="epsilons"):
        tradeoff_sweep(builders, [math.nan])
    with pytest.raises(ParameterError, match="delta"):
        tradeoff_sweep(builders, [1.0], delta=2.0)


# ------------------------------------------------------------------ matplotlib imported lazily
def test_a_missing_matplotlib_is_reported_with_how_to_install_it(monkeypatch):
    import sys

    from rainbowdp.plot import draw_rainbow_graph, output_colors

    G = rdp.builders.line(["yes", "no"], 2)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    hint = re.escape("pip install matplotlib")
    with pytest.raises(ImportError, match=hint):
        draw_rainbow_graph(G)
    with pytest.raises(ImportError, match=hint):
        output_colors(["a", "b"])


def test_every_matplotlib_import_in_plot_is_lazy_and_checked():
    """No module of rainbowdp.plot imports matplotlib at import time, and every function that
    imports it calls require_matplotlib first (so a missing matplotlib says how to install it)."""
    import ast
    from pathlib import Path

    import rainbowdp.plot

    def is_mpl(node: ast.AST) -> bool:
        if isinstance(node, ast.Import):
            return any(a.name.split(".")[0] == "matplotlib" for a in node.names)
        return isinstance(node, ast.ImportFrom) and (node.module or "").startswith("matplotlib")

    found = []
    for path in sorted(Path(rainbowdp.plot.__file__).parent.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{path.name}:{n.lineno}" for n in tree.body if is_mpl(n)]
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef) or fn.name == "require_matplotlib":
                continue
            body = [n for n in ast.walk(fn) if n is not fn]
            imports = [n.lineno for n in body if is_mpl(n)]
            checks = [
                n.lineno
                for n in body
                if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "require_matplotlib"
            ]
            if imports and not (checks and min(checks) <= min(imports)):
                found.append(f"{path.name}:{fn.name}")
    assert found == []
