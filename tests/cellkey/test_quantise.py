"""Quantised lookup sampling and the post-sampling measures (Sadeghi & Chien, "On the connection
between the ABS perturbation methodology and differential privacy", Sections 4.1-4.3)."""

from __future__ import annotations

import functools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

import rainbowdp as rdp
from rainbowdp.cellkey._quantise import (
    EXACT_KEYSIZE,
    KeysizeWarning,
    PostSampling,
    QuantisationError,
    check_quantisation,
    lookup,
    post_sampling,
    quantised_cdf,
    quantised_pmf,
)
from rainbowdp.exceptions import ParameterError, ParameterTypeError
from rainbowdp.noise import count, mechanism_from_rows

SETTINGS = settings(max_examples=100, deadline=None, derandomize=True)
K8, K16, K32 = 2**8, 2**16, 2**32


# ------------------------------------------------------------------------------ the noise law
def abs_pmf(D: int, gamma: float) -> np.ndarray:
    """The truncated discrete Gaussian (2.25) on [-D, D]: p(z) = e^(-gamma z^2) / (2 S + 1)."""
    z = np.arange(-D, D + 1, dtype=np.float64)
    return np.exp(-gamma * z**2) / (2 * np.exp(-gamma * np.arange(1.0, D + 1) ** 2).sum() + 1)


def guide_gamma(epsilon: float, D: int) -> float:
    """The design guide's gamma (Section 2.4, step 2): eps/(2D-1) - 2 eps/(10 (4D^2 - 1))."""
    return epsilon / (2 * D - 1) - 2 * epsilon / (10 * (4 * D * D - 1))


D1 = 25
GAMMA1 = 0.5 / 49 - 1 / (10 * 2499)  # Example 1: eps = 0.5, D* = 25
EX1 = abs_pmf(D1, GAMMA1)


def test_example1_pmf_is_the_papers():
    # Example 1, (2.30): p_Z(0) and p_Z(+-25) (the oracle the tables below are built from)
    assert EX1[D1] == pytest.approx(0.056895481243871, rel=1e-12)
    assert EX1[0] == EX1[-1] == pytest.approx(0.000099129808160, rel=1e-11)
    assert EX1[D1 + 24] == pytest.approx(0.000163117271714, rel=1e-11)


# ------------------------------------------------------------------------------ Example 2
def test_example2_table():
    cq = quantised_cdf(EX1, K32)
    # Example 2, (4.4): c^Q(-25), c^Q(-24), c^Q(-23) and c^Q(25) = 2^32
    assert cq[:3].tolist() == [425760, 1126343, 2255949]
    assert cq[-1] == 2**32 and cq.size == 2 * D1 + 1  # a lookup table of size 2D + 1 = 51
    # c^Q(-26) = 0: the first noise value owns the keys 0 .. c^Q(-25) - 1
    assert quantised_pmf(cq, K32)[0] * K32 == cq[0]
    assert lookup(cq, [0, 425759, 425760], low=-D1).tolist() == [-25, -25, -24]


def test_example2_lookups():
    cq = quantised_cdf(EX1, K32)
    # Example 2: CellKey 2552 -> S = -25 and CellKey 1200124 -> S = -23, by (4.3)
    assert lookup(cq, [2552, 1200124], low=-D1).tolist() == [-25, -23]
    assert lookup(cq, 2552, low=-D1) == -25 and isinstance(lookup(cq, 2552, low=-D1), np.int64)
    # (4.3): c^Q(z) <= key < c^Q(z + 1) gives S = z + 1, at every edge of the table
    z = np.arange(-D1, D1 + 1)
    edges = cq[:-1]  # c^Q(z) for z = -25 .. 24: the first key of z + 1
    assert (lookup(cq, edges, low=-D1) == z[1:]).all()
    assert (lookup(cq, edges - 1, low=-D1) == z[:-1]).all()
    assert lookup(cq, K32 - 1, low=-D1) == 25


def test_example2_keysize_2_8_loses_support():
    cq = quantised_cdf(EX1, K8)
    # Example 2: at KEYSIZE = 2^8, c^Q(-25) = c^Q(-24) = c^Q(-23) = 1
    assert cq[:3].tolist() == [1, 1, 1]
    ps = post_sampling(cq, K8)
    # ... so not every value of [-D, D] can be realised: -24 and -23 get no key
    assert not ps.full_support and {-24, -23} <= set(ps.lost)
    assert ps.epsilon == math.inf
    everything = lookup(cq, np.arange(K8), low=-D1)  # every key of the 2^8
    assert set(everything.tolist()).isdisjoint(ps.lost)
    assert set(everything.tolist()) | set(ps.lost) == set(range(-D1, D1 + 1))


# ------------------------------------------------------------------------------ Example 3
def test_example3_pmf():
    cq = quantised_cdf(EX1, K32)
    pq = quantised_pmf(cq, K32)
    # Example 3, (4.12): p^Q(-25), p^Q(-24), p^Q(-23), p^Q(25)
    assert pq[0] == 425760 / 2**32 == pytest.approx(0.000099129974842, rel=1e-11)
    assert pq[1] == (1126343 - 425760) / 2**32 == pytest.approx(0.000163117190823, rel=1e-11)
    assert pq[2] == pytest.approx(0.0002630068920552731, rel=1e-15)
    assert cq[-2] == 4294541537
    assert pq[-1] == (2**32 - 4294541537) / 2**32 == pytest.approx(9.912974201142788e-05, rel=0)
    assert pq[0] != pq[-1]  # Example 3: the quantised pmf has lost its symmetry
    assert pq.sum() == 1.0


def test_example3_measures():
    ps = post_sampling(quantised_cdf(EX1, K32), K32, epsilon=0.5)
    assert isinstance(ps, PostSampling) and ps.full_support and ps.lost == ()
    # Example 3: B^Q = -5.820766091346741e-9 (= -25 / 2^32 exactly), V^Q = 49.002167175291106
    assert ps.bias == -25 / 2**32 == pytest.approx(-5.820766091346741e-9, rel=1e-15)
    assert ps.variance == pytest.approx(49.002167175291106, rel=1e-15)
    # Example 3: eps^Q ~ 0.498039387067656 (4.8)-(4.10), below the design eps = 0.5; ours is
    # rounded up, so it is at least the paper's value and within 1e-12 relative of it
    assert ps.epsilon == pytest.approx(0.498039387067656, rel=2e-12)
    assert ps.epsilon >= 0.498039387067656 and not ps.exceeds_design
    logs = np.log(ps.pmf)
    assert ps.epsilon >= np.abs(np.diff(logs)).max()
    # Example 3: delta^Q = p^Q(-D) ~ 9.9129974842e-5 (4.11), slightly above Example 1's delta
    assert ps.delta == ps.pmf[0] == pytest.approx(9.9129974842e-5, rel=1e-10)
    assert ps.delta > EX1[0]
    assert ps.support.tolist() == list(range(-25, 26))


# ------------------------------------------------------------------------------ Section 4.3
EPS43 = np.round(np.arange(1, 26) * 0.1, 1)  # eps in [0.1, 2.5] in 0.1 steps
D43 = 10


@functools.cache
def sweep() -> dict[int, list[tuple[float, PostSampling, float, float]]]:
    """(eps, post-sampling, design V (2.26), design delta (2.27)) per KEYSIZE, Section 4.3."""
    out: dict[int, list] = {}
    z2 = np.arange(-D43, D43 + 1) ** 2
    for K in (K8, K16, K32):
        rows = []
        for e in EPS43.tolist():
            p = abs_pmf(D43, guide_gamma(e, D43))
            rows.append((e, post_sampling(quantised_cdf(p, K), K, epsilon=e), z2 @ p, p[0]))
        out[K] = rows
    return out


def test_sec43_bias():
    for K in (K8, K16, K32):
        # Found: B^Q = -D/K exactly at every eps of the grid (c^Q(z) + c^Q(-z-1) = K + 1 for a
        # symmetric law), so the paper's numbers are the worst = mean = typical value
        assert {ps.bias for _, ps, _, _ in sweep()[K]} == {-D43 / K}
    # Section 4.3: B^Q ~ -2.3e-9 at 2^32, ~ -1.5e-4 at 2^16, ~ -0.04 at 2^8 (printed digits)
    assert abs(-D43 / K32 - -2.3e-9) < 0.05e-9
    assert abs(-D43 / K16 - -1.5e-4) < 0.05e-4
    assert abs(-D43 / K8 - -0.04) < 0.005


def test_sec43_full_support():
    full = {K: [e for e, ps, _, _ in sweep()[K] if ps.full_support] for K in (K8, K16, K32)}
    # Section 4.3: full support is lost at 2^8 after eps = 0.6, at 2^16 after eps = 1.7, and
    # kept at 2^32 for every eps of the grid
    assert full[K8] == [e for e in EPS43.tolist() if e <= 0.6]
    assert full[K16] == [e for e in EPS43.tolist() if e <= 1.7]
    assert full[K32] == EPS43.tolist()
    for K in (K8, K16):
        for _, ps, _, _ in sweep()[K]:
            assert ps.full_support == (ps.epsilon < math.inf) == (ps.lost == ())


def test_sec43_variance_error():
    def err(K, only_full=False):
        r = sweep()[K]
        return max(
            abs(ps.variance - V) / V for _, ps, V, _ in r if ps.full_support or not only_full
        )

    # Section 4.3: normalised variance error (V^Q - V)/V of order 1e-9 at 2^32 and 1e-4 at 2^16
    assert math.floor(math.log10(err(K32))) == -9
    assert math.floor(math.log10(err(K16))) == -4
    # ... and "as high as ~ 0.007" at 2^8: true over the eps with full support (0.1 .. 0.6);
    # found: over the whole grid, where the support is lost, it reaches 0.069
    assert round(err(K8, only_full=True), 3) == 0.007
    assert 0.06 < err(K8) < 0.07


def test_sec43_epsilon():
    above = {K: [e for e, ps, _, _ in sweep()[K] if ps.epsilon > e] for K in (K8, K16, K32)}
    # Section 4.3, Fig. 4: eps^Q > eps at 2^8 -- at every eps (infinite where support is lost)
    assert above[K8] == EPS43.tolist()
    # ... and at 2^16: found, only at eps = 0.8 and 1.0 .. 1.7 with full support (below eps at
    # 0.1 .. 0.7 and 0.9), and at every eps >= 1.8 where the support is lost
    finite16 = [e for e in above[K16] if e <= 1.7]
    assert finite16 == [0.8, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7]
    assert above[K16][len(finite16) :] == [e for e in EPS43.tolist() if e >= 1.8]
    # At 2^32, eps^Q ~ eps: always slightly below it, at the unquantised (2D - 1) gamma
    assert above[K32] == []
    for e, ps, _, _ in sweep()[K32]:
        assert abs(ps.epsilon - (2 * D43 - 1) * guide_gamma(e, D43)) < 1e-3
        assert 0 < (e - ps.epsilon) / e < 0.01


def test_sec43_delta():
    for K in (K8, K16, K32):
        for _, ps, _, delta in sweep()[K]:
            # (4.2) rounds up, so delta^Q >= p^Q(-D) >= p(-D) = the design delta (2.27), and by
            # less than one key: delta^Q - delta < 1/K
            assert ps.delta >= ps.pmf[0] >= delta
            assert ps.delta - delta < 1 / K
    # Fig. 5: delta^Q > delta at 2^8 at every eps; at 2^32 delta^Q ~ delta (< 2.4e-10 apart)
    assert all(ps.delta > d for _, ps, _, d in sweep()[K8])


# ------------------------------------------------------------------------------ exact profile
def count_mechanism(ps: PostSampling, N: int) -> rdp.Mechanism:
    """Y = n + Z, Z ~ p^Q, on the count path D..N (count.graph with n_min = D)."""
    D = -ps.low
    G = count.graph(N, D, n_min=D)
    rows = np.zeros((G.n_nodes, G.n_outputs))
    for i, n in enumerate(G.nodes):
        rows[i, n - D : n + D + 1] = ps.pmf
    return mechanism_from_rows(G, rows)


def test_paper_pair_is_a_tight_dp_pair():
    ps = post_sampling(quantised_cdf(EX1, K32), K32)
    # the pair (eps^Q, delta^Q) of Example 3 is valid: the exact delta at eps^Q is delta^Q
    assert ps.exact_delta(ps.epsilon) <= ps.delta
    assert ps.exact_delta(ps.epsilon) == ps.delta  # tight: only the endpoint events remain
    e = ps.exact_epsilon(ps.delta)
    assert e <= ps.epsilon and ps.exact_delta(e) <= ps.delta
    assert ps.exact_delta(e - 1e-9) > ps.delta  # below it, a ratio pair adds to delta
    # found: the smaller endpoint p^Q(D) = p^Q(-D) - 1/K leaves 1/K of slack in the order
    # where the largest ratio sits, so the smallest eps at delta^Q is 1.43e-6 below eps^Q
    assert ps.epsilon - e == pytest.approx(1.43e-6, rel=0.01)
    M = count_mechanism(ps, D1 + 3)
    report = rdp.verify(M, epsilon=ps.epsilon, delta=ps.delta)
    assert report.is_private and report.delta_required == ps.delta


@pytest.mark.parametrize(
    ("pmf", "K"),
    [(EX1, K32), (abs_pmf(D43, guide_gamma(1.0, D43)), K16), (EX1, K8)],
    ids=["example1-2^32", "sec43-eps1-2^16", "example1-2^8-lost"],
)
def test_exact_profile_matches_the_count_mechanism(pmf, K):
    ps = post_sampling(quantised_cdf(pmf, K), K)
    M = count_mechanism(ps, -ps.low + 4)
    eps = [0.0, 0.1, 0.3, 0.5, ps.epsilon if ps.full_support else 1.0, 2.0, 5.0]
    profile = rdp.privacy_profile(M, eps)
    assert [ps.exact_delta(e) for e in eps] == profile.tolist()
    for d in (ps.delta, 1e-3, 0.05):
        assert ps.exact_epsilon(d) == rdp.epsilon_for_delta(M, d)


def test_lost_support_breaks_the_paper_pair():
    # Section 4.3 at 2^8, eps = 0.7: the value D = 10 gets no key
    ps = post_sampling(quantised_cdf(abs_pmf(D43, guide_gamma(0.7, D43)), K8), K8)
    assert ps.lost == (10,) and ps.epsilon == math.inf
    # found: next to the lost value the privacy loss is infinite, so no finite eps reaches
    # delta^Q; the exact delta stays at least p^Q(D - 1) > delta^Q
    for e in (1.0, 10.0, 50.0):
        assert ps.exact_delta(e) >= ps.pmf[-2] > ps.delta
    assert ps.exact_epsilon(ps.delta) == math.inf
    assert ps.exact_epsilon(float(ps.pmf[-2] + ps.pmf[0])) < math.inf


def test_exact_profile_needs_exact_floats():
    K = 2**54
    ps = post_sampling(quantised_cdf([0.25, 0.5, 0.25], K), K)
    assert ps.delta == 0.25 and ps.epsilon == pytest.approx(math.log(2), rel=1e-11)
    assert EXACT_KEYSIZE == 2**53
    with pytest.raises(ParameterError, match=r"`exact_delta` needs KEYSIZE <= 2\^53"):
        ps.exact_delta(1.0)
    with pytest.raises(ParameterError, match=r"`exact_epsilon` needs KEYSIZE <= 2\^53"):
        ps.exact_epsilon(0.1)


def pmfs(min_size: int = 1, positive: bool = False):
    lo = 1 if positive else 0
    return st.lists(st.integers(lo, 10**6), min_size=min_size, max_size=30).filter(
        lambda w: sum(w) > 0
    )


@given(w=pmfs(min_size=2, positive=True), k=st.integers(8, 48))
@SETTINGS
def test_eps_q_is_the_floor_of_the_exact_profile(w, k):
    p = np.array(w, dtype=np.float64) / sum(w)
    K = 2**k
    ps = post_sampling(quantised_cdf(p, K), K)
    if ps.full_support:
        counts = np.diff(ps.cq, prepend=0)
        exact = max(
            max(Fraction(int(a), int(b)), Fraction(int(b), int(a)))
            for a, b in zip(counts[1:], counts[:-1], strict=True)
        )
        assert rdp.exp_bounds(ps.epsilon)[0] >= exact  # rounded up: e^eps^Q >= the ratio
        assert ps.epsilon <= math.log(exact) * (1 + 1e-11) + 1e-300
        assert ps.exact_delta(ps.epsilon) == ps.delta
    else:
        # the mass next to a gap (or beyond an end) has infinite privacy loss
        q = [Fraction(int(c), K) for c in np.diff(ps.cq, prepend=0)]
        up = sum(x for x, y in zip(q, [0, *q[:-1]], strict=True) if y == 0)
        down = sum(x for x, y in zip(q, [*q[1:], 0], strict=True) if y == 0)
        assert ps.exact_delta(30.0) >= max(up, down) >= ps.delta


@given(w=pmfs(), k=st.integers(1, 12), low=st.integers(-50, 50))
@SETTINGS
def test_lookup_of_every_key_has_law_p_q(w, k, low):
    p = np.array(w, dtype=np.float64) / sum(w)
    K = 2**k
    cq = quantised_cdf(p, K)
    counts = np.diff(cq, prepend=0)
    noise = lookup(cq, np.arange(K), low=low)  # every key once: the exact law of the lookup
    assert noise.dtype == np.int64 and np.all(np.diff(noise) >= 0)
    assert np.bincount(noise - low, minlength=cq.size).tolist() == counts.tolist()
    assert (quantised_pmf(cq, K) * K).tolist() == counts.tolist()
    ps = post_sampling(cq, K, low=low)
    z = np.arange(low, low + cq.size)
    assert ps.lost == tuple(z[counts == 0].tolist())
    assert ps.delta == max(counts[0], counts[-1]) / K
    s1 = sum(int(a) * int(b) for a, b in zip(z, counts, strict=True))
    assert ps.bias == float(Fraction(s1, K))


# ------------------------------------------------------------------------------ sampling
def test_uniform_keys_sample_p_q():
    # Section 3: cell keys are uniform on [0, KEYSIZE); the lookup (4.3) then samples p^Q (4.5).
    # Chi-square goodness of fit at false-alarm rate 1e-6; seeded, so the outcome is fixed.
    cq = quantised_cdf(EX1, K32)
    pq = quantised_pmf(cq, K32)
    n = 2_000_000
    keys = np.random.default_rng(20230401).integers(0, K32, size=n, dtype=np.int64)
    noise = lookup(cq, keys, low=-D1)
    assert noise.shape == (n,) and noise.min() >= -D1 and noise.max() <= D1
    observed = np.bincount(noise + D1, minlength=2 * D1 + 1)
    assert scipy.stats.chisquare(observed, n * pq).pvalue > 1e-6
    # the test has power: the law of a 5 % larger gamma is rejected on the same sample
    other = quantised_pmf(quantised_cdf(abs_pmf(D1, 1.05 * GAMMA1), K32), K32)
    assert scipy.stats.chisquare(observed, n * other).pvalue < 1e-6


def test_uniform_keys_never_hit_lost_values():
    cq = quantised_cdf(EX1, K8)
    ps = post_sampling(cq, K8)
    keys = np.random.default_rng(7).integers(0, K8, size=100_000)
    noise = lookup(cq, keys, low=-D1)
    assert set(noise.tolist()).isdisjoint(ps.lost)
    live = ps.pmf > 0
    observed = np.bincount(noise + D1, minlength=2 * D1 + 1)
    assert scipy.stats.chisquare(observed[live], 100_000 * ps.pmf[live]).pvalue > 1e-6


# ------------------------------------------------------------------------------ warnings
def test_check_quantisation_warns_on_lost_support():
    with pytest.warns(KeysizeWarning, match=r"KEYSIZE=256 loses support: noise values \[-24, -23"):
        ps = check_quantisation(EX1, K8, epsilon=0.5)
    assert not ps.full_support and ps.keysize == K8
    with pytest.warns(KeysizeWarning, match=r"use a larger `keysize`"):
        check_quantisation(EX1, K8)
    with pytest.raises(QuantisationError, match=r"KEYSIZE=256 loses support") as info:
        check_quantisation(EX1, K8, errors="raise")
    assert isinstance(info.value, ParameterError) and isinstance(info.value, ValueError)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not check_quantisation(EX1, K8, errors="ignore").full_support


def test_check_quantisation_lists_many_lost_values_briefly():
    with pytest.warns(KeysizeWarning, match=r"\[-24, -23, .*, -14, \.\.\., 25\] \(49 values\)"):
        check_quantisation(np.full(51, 1 / 51), 2)


def test_check_quantisation_warns_when_eps_q_exceeds_design():
    p = abs_pmf(D43, guide_gamma(1.0, D43))
    # Section 4.3: at 2^16 and eps = 1.0, eps^Q ~ 1.0136 > 1.0
    with pytest.warns(KeysizeWarning, match=r"KEYSIZE=65536 raises epsilon: .*epsilon=1\.0"):
        ps = check_quantisation(p, K16, epsilon=1.0)
    assert ps.exceeds_design and ps.epsilon == pytest.approx(1.0136, abs=1e-4)
    with pytest.raises(QuantisationError, match="raises epsilon"):
        check_quantisation(p, K16, epsilon=1.0, errors="raise")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not check_quantisation(p, K32, epsilon=1.0).exceeds_design
        assert check_quantisation(EX1, K32, epsilon=0.5).full_support  # Example 3: all fine
        assert not check_quantisation(p, K16).exceeds_design  # no design eps: nothing to exceed


# ------------------------------------------------------------------------------ validation
CQ = [64, 192, 256]


def test_lookup_rejects_bad_keys():
    with pytest.raises(ParameterError, match=r"\[0, 256\), got key 300 at index \[2\]"):
        lookup(CQ, [0, 5, 300, -1], low=-1)
    with pytest.raises(ParameterError, match=r"got key -1 at index \[1, 0\]"):
        lookup(CQ, [[0, 1], [-1, 3]], low=-1)
    with pytest.raises(ParameterError, match=r"got key 256 at index \[\]"):
        lookup(CQ, 256, low=-1)
    with pytest.raises(ParameterTypeError, match="`keys` must be an array of integers"):
        lookup(CQ, [1.0, 2.0], low=-1)
    with pytest.raises(ParameterTypeError, match="`keys`"):
        lookup(CQ, [True, False], low=-1)
    with pytest.raises(ParameterTypeError, match="`keys` must hold integers"):
        lookup(CQ, [1, "2", 2**70], low=-1)
    with pytest.raises(ParameterError, match="int64 range"):
        lookup(CQ, [1, 2**70], low=-1)
    with pytest.raises(ParameterError, match="int64 range"):
        lookup(CQ, np.array([2**64 - 1], dtype=np.uint64), low=-1)
    with pytest.raises(ParameterTypeError, match="`low`"):
        lookup(CQ, [1], low=0.5)
    assert lookup(CQ, np.array([[255], [64]], dtype=np.uint64), low=-1).tolist() == [[1], [0]]
    assert lookup(CQ, np.array([], dtype=np.int64), low=-1).shape == (0,)
    assert lookup(CQ, np.array([1, 255], dtype=object), low=-1).tolist() == [-1, 1]


def test_tables_are_validated():
    with pytest.raises(ParameterError, match=r"power of two .* got cq\[-1\]=255"):
        lookup([64, 192, 255], [0], low=-1)
    with pytest.raises(ParameterError, match="non-decreasing, got 192 then 64"):
        post_sampling([192, 64, 256], 256)
    with pytest.raises(ParameterError, match=r"`cq` must be >= 0, got -1"):
        quantised_pmf([-1, 64, 256], 256)
    with pytest.raises(ParameterError, match="must end with KEYSIZE=512"):
        post_sampling(CQ, 512)
    with pytest.raises(ParameterError, match="last entry 255 in row 1"):
        quantised_pmf([[64, 256], [1, 255]], 256)
    with pytest.raises(ParameterTypeError, match="`cq` must be an array of integers"):
        post_sampling([64.0, 192.0, 256.0], 256)
    with pytest.raises(ParameterError, match="non-empty vector"):
        post_sampling([[64, 256]], 256)
    with pytest.raises(ParameterError, match="power of two"):
        quantised_pmf(CQ, 255)
    with pytest.raises(ParameterError, match="`epsilon`"):
        post_sampling(CQ, 256, epsilon=-1.0)
    with pytest.raises(ParameterError, match="`errors` must be one of"):
        check_quantisation([0.5, 0.5], 256, errors="loud")
    with pytest.raises(ParameterError, match="`pmf` must be a vector"):
        check_quantisation([[0.5, 0.5]], 256)
    ps = post_sampling(CQ, 256)
    with pytest.raises(ParameterError, match="`epsilon`"):
        ps.exact_delta(-0.5)
    with pytest.raises(ParameterError, match="`delta`"):
        ps.exact_epsilon(1.5)


def test_small_tables():
    ps = post_sampling([256], 256)  # one noise value: no adjacent pair, all mass at 0
    assert ps.epsilon == 0.0 and ps.delta == 1.0 and ps.support.tolist() == [0]
    ps = post_sampling([128, 256], 256)  # even length: support [0, 1] by default
    assert ps.support.tolist() == [0, 1] and ps.bias == 0.5 and ps.variance == 0.25
    assert post_sampling([128, 256], 256, low=-1).bias == -0.5
    assert ps.pmf.flags.writeable is False and ps.cq.flags.writeable is False
