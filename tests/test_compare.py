"""Tests of rainbowdp.compare: one table of privacy and utility for several mechanisms."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rainbowdp import Mechanism, RainbowGraph, compare
from rainbowdp.order import expected_utility
from rainbowdp.privacy import epsilon_for_delta, privacy_profile

G = RainbowGraph.line(["yes", "no", "maybe"], 3)
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
    other = Mechanism(RainbowGraph.line(["yes", "no", "maybe"], 3), ROWS["flat"])
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
