"""The compiled kernels (numba, extra ``fast``) against the numpy kernels and exact arithmetic.

Their float values may differ from numpy's in the last bits (the sum is added in another order),
so they are checked against the exact divergence within the error bound both paths rely on
(:func:`rainbowdp._exact.rounding_error`), zero for zero; every certified number is then the
same on both paths, bit for bit.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rainbowdp._fused as fused
import rainbowdp._profile as one_pass
from rainbowdp._exact import enclose_exp, multiplier_below, rounding_error
from rainbowdp._kernels import directed_divergences
from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism
from rainbowdp.privacy import epsilon_for_delta, privacy_profile, verify
from tests.test_profile_one_pass import random_edges, rows

pytest.importorskip("numba")


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
        calls = []
        real = fused._compiled()
        mp.setattr(fused, "_compiled", lambda: calls.append(1) or real)
        fwd, bwd = directed_divergences(p, edges, m, k, one_way=one_way)
        assert calls
    bound = rounding_error(float(p.sum(axis=1).max()), q)
    for i, (u, v) in enumerate(edges.tolist()):
        want = exact_h(p[u], p[v], m)
        assert abs(Fraction(fwd[i]) - want) <= bound
        assert (fwd[i] == 0.0) == (want == 0)  # zero exactly when every term is
        if one_way:
            assert bwd[i] == -np.inf
        else:
            back = exact_h(p[v], p[u], m)
            assert abs(Fraction(bwd[i]) - back) <= bound and (bwd[i] == 0.0) == (back == 0)


def test_the_compiled_path_is_taken_and_switched_off(monkeypatch):
    rng = np.random.default_rng(1)
    p, edges = rows(rng, 50, 4, "uniform"), random_edges(rng, 50, 200)
    calls = []
    real = fused._compiled()
    monkeypatch.setattr(fused, "MIN_ELEMENTS", 0)
    monkeypatch.setattr(real, "two_way", lambda *a: calls.append(1))
    monkeypatch.setattr(fused, "_compiled", lambda: real)
    ok = fused.divergences(p, edges, 2.0, 0, np.empty(len(edges)), np.empty(len(edges)))
    assert ok and calls == [1]
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
    """The default sizes: compiled above ``MIN_ELEMENTS`` entries, numpy when switched off."""
    rng = np.random.default_rng(11)
    M = mechanism(rng, 3000, 8, 30000, "dirichlet")
    assert M.graph.n_edges * 8 >= fused.MIN_ELEMENTS
    a = verify(M, epsilon=1.0, delta=1e-3).to_dict()
    pa = privacy_profile(M, np.linspace(0.0, 6.0, 30))
    numpy_only(monkeypatch)
    assert verify(M, epsilon=1.0, delta=1e-3).to_dict() == a
    assert np.array_equal(privacy_profile(M, np.linspace(0.0, 6.0, 30)), pa)
