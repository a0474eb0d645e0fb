"""Tests of rainbowdp.compare (module rainbowdp._compare): privacy and utility in one table."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rainbowdp import Mechanism, builders, compare
from rainbowdp.order import expected_utility
from rainbowdp.privacy import epsilon_for_delta, privacy_profile

G = builders.line(["yes", "no", "maybe"], 3)
ROWS = {
    "sharp": [[0.8, 0.15, 0.05], [0.6, 0.3, 0.1], [0.3, 0.5, 0.2], [0.1, 0.6, 0.3]],
    "flat": [[0.4, 0.3, 0.3], [0.36, 0.34, 0.3], [0.33, 0.35, 0.32], [0.3, 0.37, 0.33]],
}


def test_table_equals_the_functions_it_calls():
    mechs = {k: Mechanism(G, v) for k, v in ROWS.items()}
    ds, es, u = [0.0, 0.01, 0.1], [0.1, math.log(2), 2.0], [2.0, 1.0, 0.0]
    t = compare(mechs, deltas=ds, epsilons=es, utility=u)
    assert t.names == ("sharp", "flat")
    for i, m in enumerate(mechs.values()):
        assert t.epsilon_at[i].tolist() == epsilon_for_delta(m, ds).tolist()
        assert t.delta_at[i].tolist() == privacy_profile(m, es).tolist()
        assert t.utility[i] == expected_utility(m, u)
    # the flatter mechanism is more private and less useful (it is closer to constant)
    assert np.all(t.epsilon_at[1] < t.epsilon_at[0]) and t.utility[1] < t.utility[0]
    rows = t.rows()
    assert rows[0]["mechanism"] == "sharp" and rows[1]["epsilon(delta=0.01)"] == t.epsilon_at[1, 1]
    text = str(t)
    assert "sharp" in text and "delta(epsilon=2)" in text and "utility" in text


def test_sequences_are_named_and_defaults_apply():
    t = compare([Mechanism(G, v) for v in ROWS.values()])
    assert t.names == ("M0", "M1") and t.epsilon_at.shape == (2, 1) and t.delta_at.shape == (2, 0)
    assert t.utility is None


def test_bad_inputs():
    M = Mechanism(G, ROWS["flat"])
    other = Mechanism(builders.line(["yes", "no", "maybe"], 3), ROWS["flat"])
    with pytest.raises(ValueError, match=r"`mechanisms` must hold at least one"):
        compare({})
    with pytest.raises(
        TypeError, match=r"`mechanisms\['x'\]` must be a Mechanism, got mechanisms\['x'\]=str"
    ):
        compare({"x": "M"})
    with pytest.raises(ValueError, match=r"one graph; mechanisms\['b'\]"):
        compare({"a": M, "b": other})
    with pytest.raises(ValueError, match=r"`deltas` must be in \[0, 1\].*1.5"):
        compare([M], deltas=[1.5])
    with pytest.raises(TypeError, match=r"`epsilons`.*'1'"):
        compare([M], epsilons=["1"])
    with pytest.raises(TypeError, match=r"`mechanisms` must be a mapping"):
        compare(M)


# ------------------------------------------------------------------ objects that read well
def test_utility_is_a_sum_over_nodes_and_the_mean_is_offered():
    pd = pytest.importorskip("pandas")
    from rainbowdp._compare import UTILITY_MEAN_COLUMN, UTILITY_SUM_COLUMN

    mechs = {k: Mechanism(G, v) for k, v in ROWS.items()}
    u = [2.0, 1.0, 0.0]
    t = compare(mechs, deltas=[0.0], epsilons=[1.0], utility=u)
    per_node = {k: [float(np.dot(np.take(u, G.ranks[i]), row)) for i, row in enumerate(v)]
                for k, v in ROWS.items()}  # fmt: skip
    for i, k in enumerate(mechs):
        assert t.utility[i] == pytest.approx(sum(per_node[k]), rel=1e-12)
        assert t.utility_mean[i] == pytest.approx(np.mean(per_node[k]), rel=1e-12)
    assert UTILITY_SUM_COLUMN == "utility (sum over nodes)"
    df = t.to_pandas()
    assert isinstance(df, pd.DataFrame) and list(df.columns) == t.columns()
    assert list(df.columns)[-2:] == [UTILITY_SUM_COLUMN, UTILITY_MEAN_COLUMN]
    assert df[UTILITY_SUM_COLUMN].tolist() == t.utility.tolist()
    assert df["epsilon(delta=0)"].tolist() == t.epsilon_at[:, 0].tolist()
    assert "sum over nodes" in str(t) and "mean per node" in str(t)
    no_utility = compare(mechs)
    assert no_utility.utility_mean is None and "utility" not in no_utility.columns()


def test_printed_table_rounds_privacy_up_and_utility_down():
    t = compare({k: Mechanism(G, v) for k, v in ROWS.items()}, utility=[2.0, 1.0, 0.0])
    lines = str(t).splitlines()
    assert len(lines) == 3
    for i, line in enumerate(lines[1:]):
        cells = line.split()
        eps, total, mean = (float(c) for c in cells[1:4])
        assert eps >= t.epsilon_at[i, 0]  # never shown below the proved epsilon
        assert total <= t.utility[i] and mean <= t.utility_mean[i]  # never shown better
    text = repr(t)
    assert "\n" not in text and "2 mechanism(s) (sharp, flat)" in text and "[" not in text[:11]
    page = t._repr_html_()
    assert page.count("<tr>") == 3 and "rounded up" in page and "4 nodes" in page


def test_sweep_results_read_well():
    pd = pytest.importorskip("pandas")
    from rainbowdp.builders import count_path
    from rainbowdp.sweep import PointError, design_sweep, sweep

    failed = sweep(math.sqrt, [4.0, "x" * 500], executor="serial", progress=False,
                   errors="return")  # fmt: skip
    err = failed[1]
    assert isinstance(err, PointError) and len(err.traceback) > 200
    text = repr(err)
    assert "\n" not in text and len(text) < 300 and "index=1" in text and "TypeError" in text
    grid = design_sweep(count_path(2), [0.5, 1.0], [0.0, 0.1], executor="serial", progress=False)
    text = repr(grid)
    assert "\n" not in text and "2 x 2 designs" in text and "0 failed" in text, text
    assert "DesignResult" not in text  # no result objects spelled out
    df = grid.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == 4
    assert list(df.columns[:2]) == ["epsilon", "delta"]
    assert df["objective"].tolist() == grid.objective.ravel().tolist()
    page = grid._repr_html_()
    assert page.count("<tr>") == 5 and "achieved delta" in page


def test_interop_results_read_well():
    from rainbowdp.builders import count_path
    from rainbowdp.interop import Composition, pair
    from rainbowdp.noise import randomized_response

    M = randomized_response(count_path(200), epsilon=1.0)
    P = pair(M, 0, 1)
    text = repr(P)
    assert "\n" not in text and len(text) < 150 and "201 outputs" in text, text
    assert P._repr_html_().count("<tr>") == 1 + 20 + 1  # header, 20 outputs, "... more"
    C = Composition(
        releases=3, epsilon=1.0, delta=0.01234512, solved_for="delta", pair=(0, 1), n_pairs=1,
        value_discretization_interval=1e-4, accountant="dp_accounting 0.4",
    )  # fmt: skip
    assert "\n" not in repr(C) and "releases=3" in repr(C)
    assert "<td>0.0123452</td>" in C._repr_html_()  # the computed delta, rounded up
