"""The compiled kernels (numba, extra ``fast``) against the numpy kernels and exact arithmetic.

Their float values may differ from numpy's in the last bits (the sum is added in another order),
so they are checked against the exact divergence within the error bound both paths rely on
(:func:`rainbowdp._verify.exact.rounding_error`), zero for zero; every certified number is then the
same on both paths, bit for bit.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rainbowdp._verify.delta as delta_engine
import rainbowdp._verify.fused as fused
import rainbowdp._verify.profile as one_pass
from rainbowdp._verify.exact import enclose_exp, multiplier_below, rounding_error
from rainbowdp._verify.kernels import directed_divergences
from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism
from rainbowdp.privacy import epsilon_for_delta, privacy_profile, verify
from tests.test_profile_one_pass import random_edges, rows

pytest.importorskip("numba")
pytestmark = pytest.mark.skipif(not fused.available(), reason="compiled kernels switched off")


def numpy_only(monkeypatch):
    monkeypatch.setattr(fused, "MIN_ELEMENTS", 1 << 62)


def exact_h(a: np.ndarray, b: np.ndarray, x: float) -> Fraction:
    xf = Fraction(x)
    return sum(
        (max(Fraction(u) - xf * Fraction(v), 0) for u, v in zip(a, b, strict=True)), Fraction(0)
    )


KINDS = ["uniform", "dirichlet", "holes", "ties", "subnormal"]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    q=st.sampled_from([1, 2, 3, 7, 8, 9, 33]),
    kind=st.sampled_from(KINDS),
    eps=st.sampled_from([0.0, 1e-9, 0.3, 1.0, 4.0, 40.0, 699.0]),
    below=st.booleans(),
    one_way=st.booleans(),
)
def test_compiled_values_within_the_error_bound_of_the_exact_ones(
    seed, q, kind, eps, below, one_way
):
    rng = np.random.default_rng(seed)
    p = rows(rng, 12, q, kind)
    edges = random_edges(rng, 12, 30)
    enc = enclose_exp(eps)
    m, k = multiplier_below(enc) if below else (enc.m, enc.k)
    assert k == 0
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fused, "MIN_ELEMENTS", 0)  # every size takes the compiled path
        calls = spy(mp)
        largest = np.empty(edges.shape[0])
        fwd, bwd = directed_divergences(p, edges, m, k, one_way=one_way, largest=largest)
        assert calls == ["one_way" if one_way else "two_way"]
    assert np.array_equal(largest, np.maximum(fwd, bwd))
    bound = rounding_error(float(p.sum(axis=1).max()), q)
    for i, (u, v) in enumerate(edges.tolist()):
        want = exact_h(p[u], p[v], m)
        assert abs(Fraction(fwd[i]) - want) <= bound
        # 0 exactly when every float term fl(P(w) - fl(x Q(w))) is <= 0, as for numpy
        assert (fwd[i] == 0.0) == bool(np.all(p[u] - p[v] * m <= 0.0))
        if one_way:
            assert bwd[i] == -np.inf
        else:
            back = exact_h(p[v], p[u], m)
            assert abs(Fraction(bwd[i]) - back) <= bound
            assert (bwd[i] == 0.0) == bool(np.all(p[v] - p[u] * m <= 0.0))


def spy(mp: pytest.MonkeyPatch) -> list[str]:
    """Record which compiled kernels run (they still run)."""
    calls: list[str] = []
    kern = fused._compiled()
    for name in ("two_way", "one_way", "multi", "multi3"):
        real = getattr(kern, name)
        mp.setattr(kern, name, lambda *a, _n=name, _f=real: calls.append(_n) or _f(*a))
    return calls


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    q=st.sampled_from([1, 3, 8, 16, 33]),
    kind=st.sampled_from(KINDS),
    n_mults=st.sampled_from([1, 2, 3, 4]),
    one_way=st.booleans(),
)
def test_anchor_values_at_several_multipliers(seed, q, kind, n_mults, one_way):
    """``multi_divergences`` (``multi``, and ``multi3`` for three multipliers on long rows):
    each value within the error bound of the exact larger direction, 0 exactly as numpy's."""
    rng = np.random.default_rng(seed)
    p = rows(rng, 10, q, kind)
    edges = random_edges(rng, 10, 25)
    mults = [multiplier_below(enclose_exp(e)) for e in np.sort(rng.random(n_mults) * 3.0)]
    out = np.empty((n_mults, edges.shape[0]))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fused, "MIN_ELEMENTS", 0)
        calls = spy(mp)
        assert fused.multi_divergences(p, edges, mults, one_way, out)
    assert calls == ["multi3" if n_mults == 3 and q >= 16 else "multi"]
    bound = rounding_error(float(p.sum(axis=1).max()), q)
    for j, (m, _) in enumerate(mults):
        for i, (u, v) in enumerate(edges.tolist()):
            want = exact_h(p[u], p[v], m)
            zero = np.all(p[u] - p[v] * m <= 0.0)
            if not one_way:
                want = max(want, exact_h(p[v], p[u], m))
                zero = zero and np.all(p[v] - p[u] * m <= 0.0)
            assert abs(Fraction(out[j, i]) - want) <= bound
            assert (out[j, i] == 0.0) == bool(zero)


def test_the_compiled_path_is_taken_and_switched_off(monkeypatch):
    rng = np.random.default_rng(1)
    p, edges = rows(rng, 50, 4, "uniform"), random_edges(rng, 50, 200)
    monkeypatch.setattr(fused, "MIN_ELEMENTS", 0)
    calls = spy(monkeypatch)
    ok = fused.divergences(p, edges, 2.0, 0, np.empty(len(edges)), np.empty(len(edges)))
    assert ok and calls == ["two_way"]
    # not for ε > 700 (k != 0), nor for rows that are not C-contiguous float64
    assert not fused.divergences(p, edges, 1.5, 3, np.empty(len(edges)), None)
    assert not fused.divergences(np.asfortranarray(p), edges, 2.0, 0, np.empty(200), None)
    monkeypatch.undo()
    fused._compiled.cache_clear()
    monkeypatch.setenv("RAINBOWDP_NUMBA", "0")
    try:
        assert not fused.available()
    finally:
        monkeypatch.delenv("RAINBOWDP_NUMBA")
        fused._compiled.cache_clear()
    assert fused.available()


def mechanism(rng, n, q, m, kind, directed=False):
    e = random_edges(rng, n, m)
    e = np.unique(e if directed else np.sort(e, axis=1), axis=0)
    g = RainbowGraph.from_edges(
        e,
        outputs=range(q),
        rainbow_table=[list(range(q))],
        rainbow_ids=np.zeros(n, dtype=int),
        directed=directed,
    )
    return Mechanism(g, rows(rng, n, q, kind))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    q=st.sampled_from([2, 5, 16]),
    kind=st.sampled_from(KINDS),
    directed=st.booleans(),
    eps=st.sampled_from([0.0, 0.5, 2.0, 800.0]),
    delta=st.sampled_from([0.0, 1e-6, 0.05]),
)
def test_verify_profile_and_epsilon_are_the_same_on_both_paths(seed, q, kind, directed, eps, delta):
    rng = np.random.default_rng(seed)
    M = mechanism(rng, 40, q, 300, kind, directed)
    grid = np.array([0.0, 0.1, 0.7, 1.5, 3.0, 9.0])
    mp = pytest.MonkeyPatch()
    got = {}
    for path in ("numpy", "compiled"):
        try:
            if path == "numpy":
                numpy_only(mp)
            else:
                mp.setattr(fused, "MIN_ELEMENTS", 0)
            mp.setattr(one_pass, "SAMPLE_EDGES", 16)
            mp.setattr(delta_engine, "ONE_PASS_MIN_EDGES", 1)  # the one-pass profile, not per ε
            r = verify(M, epsilon=eps, delta=delta)
            got[path] = (
                r.to_dict(),
                privacy_profile(M, grid).tolist(),
                epsilon_for_delta(M, delta),
            )
        finally:
            mp.undo()
    assert got["numpy"] == got["compiled"]


def test_large_graph_same_verdict_on_both_paths(monkeypatch):
    """The default sizes: compiled above ``MIN_ELEMENTS`` entries (and the compiled chord
    pruning above ``MIN_ELEMENTS`` edges), numpy when switched off."""
    rng = np.random.default_rng(11)
    M = mechanism(rng, 5000, 8, 70000, "dirichlet")
    assert M.graph.n_edges >= fused.MIN_ELEMENTS
    grid = np.linspace(0.0, 6.0, 30)
    calls = spy(monkeypatch)
    kept = []
    real = fused.chord_select
    monkeypatch.setattr(fused, "chord_select", lambda *a: kept.append(1) or real(*a))
    a = verify(M, epsilon=1.0, delta=1e-3).to_dict()
    pa = privacy_profile(M, grid)
    assert {"two_way", "multi"} <= set(calls) and kept
    numpy_only(monkeypatch)
    calls.clear()
    assert verify(M, epsilon=1.0, delta=1e-3).to_dict() == a
    assert np.array_equal(privacy_profile(M, grid), pa)
    assert not calls


@pytest.mark.parametrize("path", ["compiled", "numpy"])
def test_rows_with_subnormal_entries_are_never_dropped_by_a_zero(monkeypatch, path):
    """Rows with entries below 2^-1000 (``odd``): a float 0 proves nothing there, so the chord
    pruning keeps them; δ(ε) = (3 - 2 e^ε) 2^-1074 > 0 up to ε = ln 1.5 on the edges of row 1."""
    t = 5e-324
    n = 1200
    p = np.tile([0.5, 0.5, 2 * t], (n, 1))
    p[1] = [0.5, 0.5, 3 * t]
    e = np.array([(1, j) for j in range(2, n)] + [(j, j + 1) for j in range(2, n - 1)])
    g = RainbowGraph.from_edges(
        e, outputs=range(3), rainbow_table=[[0, 1, 2]], rainbow_ids=np.zeros(n, dtype=int)
    )
    grid = np.array([0.0, 0.1, 0.2, 0.25, 0.3, 0.35, 0.39, 0.41, 0.5, 1.0])
    if path == "compiled":
        monkeypatch.setattr(fused, "MIN_ELEMENTS", 0)
    else:
        numpy_only(monkeypatch)
    got = privacy_profile(Mechanism(g, p), grid)
    assert np.array_equal(got, np.where(grid < np.log(1.5), t, 0.0))
