"""The ABS TableBuilder noise (Sadeghi, Chien 2023): the maximum-entropy PMF, the root of (2.7),
the exact δ (2.19) against the verifier, Proposition 3 (errata 12, 13), the design guide and
Example 1 (errata 11), Fig. 2a's best γ, the general maximum-entropy problem, Appendix C, and
the family."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rainbowdp as rdp
import rainbowdp.noise as noise
from rainbowdp.builders import count_path
from rainbowdp.exceptions import InfeasibleDesignError, ParameterError, ParameterTypeError
from rainbowdp.noise import tablebuilder as tb

SETTINGS = settings(max_examples=300, deadline=None, derandomize=True)

#: Example 1 (Section 2.4): eps = 0.5, delta = 1e-4.
EX1_GAMMA = 0.5 / (2 * 25 - 1) - 1 / (10 * (2500 - 1))


def reference_pmf(gamma: float, D: int) -> list[float]:
    """(2.3)-(2.4) written independently with math.fsum."""
    w = [math.exp(-gamma * z * z) for z in range(-D, D + 1)]
    s = math.fsum(w)
    return [x / s for x in w]


def pair(gamma: float, D: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two neighbouring rows on outputs z = -D..D+1: p(z) (count 0) and p(z - 1) (count 1)."""
    p = tb.pmf(gamma, D)
    return np.concatenate([p, [0.0]]), np.concatenate([[0.0], p]), np.arange(-D, D + 2.0)


def rows_roundoff(gamma: float, D: int, eps: float) -> float:
    r"""A bound on |hockey-stick of the float rows - that of the exact law|.

    Each stored entry p(z) has relative error at most (gamma z^2 + 2) 2^-52 (exp of a rounded
    argument, one division), so the term p(z) - e^eps p(z-1) moves by at most err_z (taken 4x
    larger here); only terms within err_z of positive can change the sum of positive parts.
    """
    P, Q, z = pair(gamma, D)
    E = math.exp(eps)
    err = 2.0**-50 * (P * (gamma * z * z + 2) + E * Q * (gamma * (z - 1) ** 2 + 2))
    d = P - E * Q
    return 2.0 * float(err[d >= -2.0 * err].sum())


# ------------------------------------------------------------------------------ the law
def test_pmf_is_the_truncated_discrete_gaussian():
    # (2.3)-(2.4) / (2.25): C e^{-gamma z^2}, C = 1 / (1 + 2 sum e^{-gamma z^2})
    for gamma, D in [(0.125, 11), (0.0498, 15), (EX1_GAMMA, 25), (2.0, 3), (1e-4, 40)]:
        p = tb.pmf(gamma, D)
        assert p.shape == (2 * D + 1,)
        assert np.allclose(p, reference_pmf(gamma, D), rtol=1e-14, atol=0)
        assert np.array_equal(p, p[::-1])  # exactly symmetric
        assert abs(p.sum() - 1.0) <= 1e-15
        assert np.all(np.diff(p[D:]) < 0)  # decreasing in |z| for gamma > 0
        assert tb.normaliser(gamma, D) == pytest.approx(p[D], rel=1e-15)  # C = p(0)
    assert np.array_equal(tb.pmf(0.0, 3), np.full(7, 1 / 7))  # gamma = 0: the uniform law
    assert tb.pmf(1e6, 4)[4] == 1.0  # all mass at 0, no overflow
    big = tb.pmf(1e-6, 1000)  # large D: finite, normalised
    assert np.all(np.isfinite(big)) and abs(big.sum() - 1) <= 1e-13


def test_variance_is_2_26():
    for gamma, D in [(0.125, 11), (0.01, 30), (3.0, 2)]:
        z = np.arange(-D, D + 1)
        assert tb.variance(gamma, D) == pytest.approx(float(z * z @ tb.pmf(gamma, D)), rel=1e-14)
    # gamma = 0: the uniform's D(D+1)/3, the bound of Proposition 1
    for D in (1, 2, 7, 100):
        assert tb.variance(0.0, D) == pytest.approx(D * (D + 1) / 3, rel=1e-15)
        assert tb.uniform_variance(D) == D * (D + 1) / 3
    # decreasing in gamma (Section 2.3, below (2.21))
    vs = [tb.variance(g, 15) for g in np.linspace(0.0, 2.0, 50)]
    assert np.all(np.diff(vs) < 0)


def test_fig1_gammas_for_the_variances():
    # Section 2.2, Fig. 1a (D = 11): "gamma = 0.125 and gamma ~ 0.0498 corresponding to two
    # variances V = 4 and V = 10"
    assert round(tb.gamma_for_variance(4.0, 11), 4) == 0.125
    assert round(tb.gamma_for_variance(10.0, 11), 4) == 0.0498
    # Fig. 1b (D = 15, "the same variances"): V = 4 gives 0.125 again, but V = 10 needs
    # gamma = 0.0500 there (gamma = 0.0498 has V = 10.04 at D = 15)
    assert round(tb.gamma_for_variance(4.0, 15), 4) == 0.125
    assert round(tb.gamma_for_variance(10.0, 15), 4) == 0.05
    assert round(tb.variance(0.0498, 15), 2) == 10.04


@given(
    D=st.one_of(st.integers(1, 30), st.integers(31, 1000)),
    frac=st.one_of(
        st.floats(1e-6, 1 - 1e-6),
        st.floats(1e-12, 1e-6),
        st.floats(1 - 1e-6, 1 - 1e-12),
    ),
)
@SETTINGS
def test_gamma_for_variance_solves_2_7(D, frac):
    # Proposition 1: every V in (0, D(D+1)/3) has a root gamma > 0 of (2.7); accurate to 1e-12
    V = frac * D * (D + 1) / 3
    g = tb.gamma_for_variance(V, D)
    assert g > 0 and math.isfinite(g)
    assert tb.variance(g, D) == pytest.approx(V, rel=1e-12)
    # f(x) of (2.7) at x = e^-gamma, divided by its positive factor 1 + 2 sum x^{z^2}, vanishes
    z = np.arange(1, D + 1, dtype=float)
    xz = np.exp(-g * z * z)
    f = ((2 * z * z - 2 * V) * xz).sum() - V
    assert abs(f) / (1 + 2 * xz.sum()) <= 1e-12 * V


def test_gamma_for_variance_extremes_and_errors():
    assert tb.gamma_for_variance(1e-300, 5) == pytest.approx(math.log(2e300), rel=1e-12)
    g = tb.gamma_for_variance(1000 * 1001 / 3 * (1 - 1e-12), 1000)  # next to the uniform
    assert 0 < g < 1e-15
    for V in (0.0, -1.0, 4.0, 5.0, math.inf, math.nan):  # D = 3: D(D+1)/3 = 4
        with pytest.raises(ParameterError, match="`V`"):
            tb.gamma_for_variance(V, 3)
    with pytest.raises(ParameterTypeError, match="`D`"):
        tb.gamma_for_variance(1.0, 2.0)
    with pytest.raises(ParameterError, match="`D`"):
        tb.gamma_for_variance(1.0, 0)


# ------------------------------------------------------------------------------ exact delta
def tie_epsilon(D: int, gamma: float, j: int) -> float:
    """An epsilon at which 0.5 - eps/(2 gamma) is an integer: the term at z = -j ties."""
    return (2 * j + 1) * gamma


@given(
    D=st.integers(1, 60),
    log_gamma=st.floats(-4.0, 0.5),
    kind=st.sampled_from(["uniform", "small", "tie", "prop3_edge"]),
    u=st.floats(0.0, 1.0),
)
@SETTINGS
def test_delta_equals_the_verifier(D, log_gamma, kind, u):
    # (2.19) against the verifier's hockey-stick divergence of the two neighbouring rows, in both
    # orders: equal to round-off; the closed form is never below it by more than the rows' own
    # float round-off (which decides only at exact ties, where the law's term is 0)
    gamma = 10.0**log_gamma
    if gamma * D * D > 700:  # p(-D) would underflow in the float rows
        gamma = 700.0 / (D * D)
    j = int(u * (D - 1))
    eps = {
        "uniform": 5.0 * u,
        "small": 0.1 * u,
        "tie": tie_epsilon(D, gamma, j),
        "prop3_edge": (2 * D - 1) * gamma,
    }[kind]
    P, Q, _ = pair(gamma, D)
    v1, v2 = rdp.hockey_stick(P, Q, eps), rdp.hockey_stick(Q, P, eps)
    c = tb.dp_delta(eps, gamma, D)
    slack = rows_roundoff(gamma, D, eps)
    for v in (v1, v2):
        assert v - slack <= c <= v * (1 + 2e-12) + slack
    if kind in ("uniform", "small"):  # away from ties the rows' round-off is tiny
        assert slack <= 1e-8 * v1


@given(D=st.integers(1, 25), log_gamma=st.floats(-3.0, 0.0), eps=st.floats(0.0, 4.0))
@settings(max_examples=60, deadline=None, derandomize=True)
def test_delta_equals_the_privacy_profile_of_the_count_path(D, log_gamma, eps):
    # the whole instance (counts D..D+4, outputs 0..2D+4): every edge is a translate, so the
    # verifier's profile is the closed form
    gamma = 10.0**log_gamma
    M = tb.mechanism(gamma, D, N=D + 4)
    v = float(rdp.privacy_profile(M, [eps])[0])
    c = tb.dp_delta(eps, gamma, D)
    assert v <= c <= v * (1 + 2e-12) + rows_roundoff(gamma, D, eps)


def test_delta_on_a_seeded_grid():
    # a seeded numpy grid of 200 more instances, larger D and epsilon
    rng = np.random.default_rng(20230101)
    for _ in range(200):
        D = int(rng.integers(1, 120))
        gamma = float(10 ** rng.uniform(-4, 0))
        if gamma * D * D > 700:
            continue
        eps = float(rng.uniform(0, 8))
        P, Q, _ = pair(gamma, D)
        v = rdp.hockey_stick(P, Q, eps)
        slack = rows_roundoff(gamma, D, eps)
        assert v - slack <= tb.dp_delta(eps, gamma, D) <= v * (1 + 2e-12) + slack
        # the rows' round-off matters only where terms cancel: a relative 1e-8 at most here
        assert slack <= 1e-8 * v


def test_delta_is_vectorised_over_epsilon():
    eps = np.linspace(0.0, 4.0, 41)
    vec = tb.dp_delta(eps, 0.125, 11)
    assert vec.shape == (41,)
    assert vec.tolist() == [tb.dp_delta(float(e), 0.125, 11) for e in eps]
    grid = tb.dp_delta(eps.reshape(41, 1), 0.125, 11)
    assert grid.shape == (41, 1) and np.array_equal(grid[:, 0], vec)
    assert tb.dp_delta([0.5, 1], 0.125, 11).tolist() == [
        tb.dp_delta(0.5, 0.125, 11),
        tb.dp_delta(1.0, 0.125, 11),
    ]
    assert isinstance(tb.dp_delta(1, 0.125, 11), float)
    # non-increasing in epsilon, down to the plateau p(-D) of (2.12) from eps = (2D-1) gamma
    assert np.all(np.diff(vec) <= 0)
    p_end = tb.plateau_delta(0.125, 11)
    assert np.all(vec >= p_end * (1 - 1e-14))
    tail = eps >= 21 * 0.125
    assert np.allclose(vec[tail], p_end, rtol=1e-14, atol=0)
    assert np.all(vec[~tail] > p_end * (1 + 1e-6))


def test_delta_special_cases():
    # gamma = 0 (uniform): only z = -D, delta = 1/(2D+1) at every epsilon
    assert tb.dp_delta(np.array([0.0, 1.0, 50.0]), 0.0, 3) == pytest.approx([1 / 7] * 3, rel=2e-12)
    # epsilon = 0: the total variation distance of p and its shift, sum_{z <= 0} p(z) - p(z-1)
    P, Q, _ = pair(0.3, 6)
    assert tb.dp_delta(0.0, 0.3, 6) == pytest.approx(0.5 * np.abs(P - Q).sum(), rel=2e-12)
    # huge gamma: the noise is (almost) always 0, so the rows at n and n - 1 are (almost)
    # disjoint point masses: delta = p(0) - e^eps p(-1) + p(-D) ~ 1
    assert tb.dp_delta(1.0, 1e4, 10) == 1.0
    # epsilon >= (2D - 1) gamma: delta = p(-D) = e^-5000 / C underflows, reported as the
    # smallest positive float (delta > 0 by (2.12))
    assert tb.dp_delta(1000.0, 50.0, 10) == 5e-324
    # any finite epsilon is accepted (e^eps is never formed)
    assert tb.dp_delta(1e6, 0.1, 5) == tb.plateau_delta(0.1, 5)


def test_delta_errors():
    for bad in (-0.1, math.inf, math.nan):
        with pytest.raises(ParameterError, match="`epsilon`"):
            tb.dp_delta(bad, 0.1, 5)
    with pytest.raises(ParameterError, match="`epsilon`"):
        tb.dp_delta([0.5, -1.0], 0.1, 5)
    with pytest.raises(ParameterTypeError, match="`epsilon`"):
        tb.dp_delta(["0.5"], 0.1, 5)
    for bad in (-0.1, 1e101, math.inf):
        with pytest.raises(ParameterError, match="`gamma`"):
            tb.dp_delta(1.0, bad, 5)
    assert tb.dp_delta(1.0, 1e100, 5) == 1.0  # the largest gamma: a point mass, delta = 1
    with pytest.raises(ParameterTypeError, match="`D`"):
        tb.dp_delta(1.0, 0.1, True)
    with pytest.raises(ParameterError, match="`D`"):
        tb.dp_delta(1.0, 0.1, tb.MAX_D + 1)


# ------------------------------------------------------------------------------ Proposition 3
@given(D=st.integers(1, 60), eps=st.floats(0.01, 3.0), t=st.floats(0.0, 1.0, exclude_max=True))
@SETTINGS
def test_proposition3_delta_is_2_27_on_the_gamma_range(D, eps, t):
    r = tb.proposition3(eps, D)
    assert r.gamma_low == eps / (2 * D + 1) and r.gamma_high == eps / (2 * D - 1)  # (2.20)
    gamma = min(r.gamma_low + t * (r.gamma_high - r.gamma_low), math.nextafter(r.gamma_high, 0))
    assert r.contains(gamma)
    # (2.20) from -D <= 0.5 - eps/(2 gamma) < -D + 1 (errata 12: the printed "D <=" lacks the
    # minus sign): z* = -D, so E* = {-D}
    zstar = math.floor(0.5 - eps / (2 * gamma))
    assert -D - 1 <= zstar <= -D + 1  # -D, up to float rounding at the two ends of the range
    if 1e-9 < t < 1 - 1e-9:
        assert zstar == -D
    # (2.27): delta = C e^{-gamma D^2}
    c227 = tb.normaliser(gamma, D) * math.exp(-gamma * D * D)
    assert tb.dp_delta(eps, gamma, D) == pytest.approx(c227, rel=2e-12)
    assert tb.dp_delta(eps, gamma, D) == pytest.approx(tb.plateau_delta(gamma, D), rel=1e-13)
    # (2.22)-(2.24): V, C and delta within their ranges
    # (float round-off at the ends of the range)
    assert r.variance_low * (1 - 1e-14) <= tb.variance(gamma, D) <= r.variance_high * (1 + 1e-14)
    assert r.C_low * (1 - 1e-14) <= tb.normaliser(gamma, D) <= r.C_high * (1 + 1e-14)
    assert r.delta_low * (1 - 1e-12) <= tb.plateau_delta(gamma, D) <= r.delta_high


@given(D=st.integers(1, 60), eps=st.floats(0.01, 3.0))
@SETTINGS
def test_errata24_the_right_end_of_2_20_is_an_exact_tie(D, eps):
    # errata item 24 (Remark 1): at gamma = eps/(2D-1), z* = -D + 1 and the second case of (2.19)
    # applies, but its extra term p(-D+1) - e^eps p(-D) is exactly 0: delta is still (2.27).
    # Just above, the extra term is positive: delta is strictly larger than (2.27).
    hi = eps / (2 * D - 1)
    assert math.floor(0.5 - eps / (2 * hi)) in (-D + 1, -D)  # -D + 1 up to float rounding
    assert tb.dp_delta(eps, hi, D) == pytest.approx(tb.plateau_delta(hi, D), rel=1e-13)
    assert tb.proposition3(eps, D).delta_low == pytest.approx(tb.dp_delta(eps, hi, D), rel=1e-13)
    above = hi * (1 + 1e-8)
    assert tb.dp_delta(eps, above, D) > tb.plateau_delta(above, D) * (1 + 1e-10)
    # and the plain float sum p(-D+1) - e^eps p(-D) is round-off around 0, far below that gap
    P, Q, _ = pair(hi, D)
    assert abs(P[1] - math.exp(eps) * Q[1]) <= 1e-13 * P[1]


def test_proposition3_ranges_and_errors():
    r = tb.proposition3(0.5, 25)
    assert r.variance_low < r.variance_high and r.C_low < r.C_high
    assert r.delta_low < r.delta_high
    assert not r.contains(r.gamma_high) and r.contains(r.gamma_low)
    with pytest.raises(ParameterError, match="`epsilon`"):
        tb.proposition3(0.0, 3)


# ------------------------------------------------------------------------------ design guide
def test_example1_design_guide():
    # Sadeghi & Chien, Section 2.4, Example 1: eps = 0.5, delta = 1e-4 -> D* = 25,
    # delta ~ 9.91e-5, V ~ 49.00, gamma = 0.5/(2*25 - 1) - 1/(10(2500 - 1))
    d = tb.design(0.5, 1e-4)
    assert d.D == 25
    assert d.gamma == pytest.approx(EX1_GAMMA, rel=1e-15)
    assert round(d.delta, 7) == 9.91e-5 and d.delta <= 1e-4
    assert round(d.variance, 2) == 49.00
    assert d.delta == tb.dp_delta(0.5, d.gamma, 25)  # the exact delta (= (2.27), Proposition 3)
    assert d.proposition3.contains(d.gamma)
    # D = 24 misses the target: 25 is the first D
    assert tb.plateau_delta(tb.guide_gamma(0.5, 24), 24) > 1e-4
    # (2.30), to the printed digits
    p = d.pmf
    printed = {
        0: 0.056895481243871,
        1: 0.056320120792644,
        2: 0.054628714970934,
        24: 0.000163117271714,
        25: 0.000099129808160,
    }
    for z, value in printed.items():
        assert round(float(p[25 + z]), 15) == value, z
        assert p[25 - z] == p[25 + z]
    # errata item 22: the value printed for p(+-12) is p(+-11)
    assert round(float(p[25 + 11]), 15) == 0.016632589297126
    assert round(float(p[25 + 12]), 15) != 0.016632589297126
    # the design's family and its exact delta on the count path
    fam = d.family
    assert fam == tb.TableBuilder(25, gamma=d.gamma)
    M = fam.mechanism(tb.graph(27, 25))
    assert float(rdp.privacy_profile(M, [0.5])[0]) <= d.delta


def test_design_reaches_small_targets_and_fails_clearly():
    d = tb.design(0.01, 1e-6)
    assert d.delta <= 1e-6 < tb.plateau_delta(tb.guide_gamma(0.01, d.D - 1), d.D - 1)
    assert d.D == 1395
    assert tb.design(1.0, 1.0).D == 1  # any delta >= (2.27) at D = 1
    with pytest.raises(InfeasibleDesignError, match="max_D"):
        tb.design(0.01, 1e-6, max_D=100)
    with pytest.raises(ParameterError, match="`delta`"):
        tb.design(0.5, 0.0)
    with pytest.raises(ParameterError, match="`delta`"):
        tb.design(0.5, 1.5)
    with pytest.raises(ParameterError, match="`epsilon`"):
        tb.design(0.0, 1e-3)
    with pytest.raises(ParameterError, match="`max_D`"):
        tb.design(0.5, 1e-3, max_D=0)


def test_guide_gamma_is_inside_2_20():
    for eps in (0.1, 0.5, 2.0):
        for D in (1, 2, 10, 100):
            g = tb.guide_gamma(eps, D)
            assert eps / (2 * D + 1) < g < eps / (2 * D - 1)


# ------------------------------------------------------------------------------ Fig. 2a
def test_min_delta_is_the_grid_minimum():
    assert tb.FIG2_GAMMAS.size == 3000
    assert tb.FIG2_GAMMAS[0] == 0.0001 and tb.FIG2_GAMMAS[-1] == 0.3
    d, g = tb.min_delta(1.0, 11)
    direct = tb.dp_delta(1.0, g, 11)
    assert d == direct
    rng = np.random.default_rng(7)
    for gamma in rng.choice(tb.FIG2_GAMMAS, 50):
        assert tb.dp_delta(1.0, float(gamma), 11) >= d
    d2, g2 = tb.min_delta(1.0, 11, gammas=[0.01, g, 0.2])
    assert (d2, g2) == (d, g)
    with pytest.raises(ParameterError, match="`gammas`"):
        tb.min_delta(1.0, 11, gammas=[])
    with pytest.raises(ParameterError, match="`gammas`"):
        tb.min_delta(1.0, 11, gammas=[0.1, -0.1])


def test_fig2a_best_gamma_against_the_design():
    # Fig. 2a, "the gaps vary from being small to zero". What holds on eps = 0.05..5 for
    # D = 11 and 15: the grid's best delta is never above the delta of the design guide's
    # gamma; it is up to 38% below it, attained in the second case of (2.19) (gamma above
    # eps/(2D-1)); against the limit gamma -> eps/(2D-1) it is up to 2% above at large eps
    # (the grid is too coarse there).
    for D in (11, 15):
        to_guide, to_limit, second_case = [], [], []
        for eps in np.arange(1, 101) * 0.05:
            best, g = tb.min_delta(float(eps), D)
            to_guide.append(best / tb.dp_delta(float(eps), tb.guide_gamma(float(eps), D), D))
            to_limit.append(best / tb.dp_delta(float(eps), float(eps) / (2 * D - 1), D))
            second_case.append(g > eps / (2 * D - 1))
        assert max(to_guide) < 1.0
        assert 0.6 < min(to_guide) < 0.75
        assert max(to_limit) > 1.0 and max(to_limit) < 1.025
        assert any(second_case)


# ------------------------------------------------------------------------------ max entropy
def entropy(p: np.ndarray) -> float:
    q = p[p > 0]
    return float(-(q * np.log(q)).sum())


def slsqp_max_entropy(z: np.ndarray, V: float) -> np.ndarray:
    """(1.2)-(1.3) on the primal, by SLSQP: an independent solver."""
    from scipy.optimize import minimize

    cons = [
        {"type": "eq", "fun": lambda p: p.sum() - 1.0},
        {"type": "eq", "fun": lambda p: p @ z},
        {"type": "ineq", "fun": lambda p: V - p @ (z * z)},
    ]
    res = minimize(
        lambda p: float(np.sum(p * np.log(np.maximum(p, 1e-300)))),
        np.full(z.size, 1.0 / z.size),
        method="SLSQP",
        bounds=[(0.0, 1.0)] * z.size,
        constraints=cons,
        options={"ftol": 1e-14, "maxiter": 500},
    )
    p = np.clip(res.x, 0.0, None)
    assert abs(p.sum() - 1) < 1e-8 and abs(p @ z) < 1e-8 and p @ (z * z) <= V + 1e-8
    return p


@given(D=st.integers(1, 30), frac=st.floats(0.001, 0.999))
@settings(max_examples=80, deadline=None, derandomize=True)
def test_max_entropy_on_a_symmetric_support_is_the_truncated_gaussian(D, frac):
    # Section 2.1, Appendix A: on [-D, D] the maximiser of (2.1)-(2.2) is (2.3) with gamma from
    # (2.7)
    V = frac * D * (D + 1) / 3
    p = tb.max_entropy(range(-D, D + 1), variance=V)
    assert np.allclose(p, tb.pmf(tb.gamma_for_variance(V, D), D), rtol=0, atol=1e-8)


def test_max_entropy_variance_is_an_inequality():
    # V at or above the uniform's D(D+1)/3: the constraint is slack, the uniform law is optimal
    for V in (4.0, 4.5, 100.0):
        assert np.allclose(tb.max_entropy(range(-3, 4), variance=V), 1 / 7, rtol=0, atol=1e-14)


def test_max_entropy_on_an_asymmetric_support():
    z = np.arange(-2, 6)
    for V in (0.3, 1.0, 2.5):
        p = tb.max_entropy(z, variance=V)
        assert abs(p @ z) <= 1e-12  # zero bias
        assert p @ (z * z) == pytest.approx(V, rel=1e-12)  # the variance bound binds
        # the KKT conditions of the concave problem: log p is a quadratic in z (the Gibbs form
        # e^{-b z - l z^2}) with l > 0 where the variance bound binds -- sufficient for optimality
        coef = np.polyfit(z, np.log(p), 2)
        assert coef[0] < 0 and np.allclose(np.polyval(coef, z), np.log(p), rtol=0, atol=1e-9)
        # and no primal solver does better: SLSQP on (1.2)-(1.3)
        primal = slsqp_max_entropy(z, V)
        assert entropy(p) >= entropy(primal) - 1e-9
    # a large bound is slack: the law with mean 0 and the most entropy, e^{-b z}
    p = tb.max_entropy(z, variance=100.0)
    assert abs(p @ z) <= 1e-12 and p @ (z * z) < 100.0
    assert np.allclose(np.diff(np.log(p)), np.log(p[1] / p[0]), rtol=0, atol=1e-12)
    # a non-zero mean, support in any order
    s = np.array([5, -2, 0, 1])
    p = tb.max_entropy(s, variance=2.0, mean=0.5)
    assert abs(p @ s - 0.5) <= 1e-12 and p @ (s - 0.5) ** 2 == pytest.approx(2.0, rel=1e-12)


def test_max_entropy_errors():
    with pytest.raises(ParameterError, match="`mean`"):
        tb.max_entropy(range(-2, 3), variance=1.0, mean=2.0)
    with pytest.raises(ParameterError, match="`variance`"):
        tb.max_entropy([-1, 1], variance=1.0)  # mean 0 on {-1, 1} forces variance 1
    with pytest.raises(ParameterError, match="`variance`"):
        tb.max_entropy([-1, 0, 1], variance=0.0)
    with pytest.raises(ParameterError, match="`support`"):
        tb.max_entropy([-1, 0.5, 1], variance=1.0)
    with pytest.raises(ParameterError, match="`support`"):
        tb.max_entropy([-1, 0, 0, 1], variance=1.0)
    with pytest.raises(ParameterError, match="`support`"):
        tb.max_entropy([3], variance=1.0)
    with pytest.raises(ParameterTypeError, match="`mean`"):
        tb.max_entropy([-1, 0, 1], variance=1.0, mean="0")


# ------------------------------------------------------------------------------ Appendix C
def test_cks_delta_is_the_discrete_gaussian_delta():
    # Appendix C, (C.4) = Canonne, Kamath, Steinke, Theorem 2.6 at sensitivity 1: the
    # library's independent DiscreteGaussian.dp_delta agrees
    for sigma in (0.3, 1.0, 2.0, 7.5, 50.0):
        for eps in (0.0, 0.1, 0.5, 1.0, 3.0):
            ours = tb.cks_delta(eps, sigma)
            theirs = noise.DiscreteGaussian(sigma=sigma).dp_delta(eps)
            if theirs > 1e-300:
                assert ours == pytest.approx(theirs, rel=1e-11)
            else:  # underflow: ours is the smallest positive float, an upper bound
                assert ours == 5e-324
    for bad in (0.0, 1e-101, 2e5):
        with pytest.raises(ParameterError, match="`sigma`"):
            tb.cks_delta(1.0, bad)
    assert tb.cks_delta(0.5, 1e-100) == 1.0  # no noise at all: delta = 1


@pytest.mark.parametrize(("sigma", "eps"), [(1.0, 0.5), (2.0, 1.0), (4.0, 0.2), (0.7, 2.0)])
def test_delta_tends_to_the_discrete_gaussian_as_d_grows(sigma, eps):
    # Appendix C: for D = infinity, (2.19) is the discrete Gaussian's delta with sigma^2 = 1/(2g)
    gamma = 1 / (2 * sigma * sigma)
    limit = tb.cks_delta(eps, sigma)
    gaps = [abs(tb.dp_delta(eps, gamma, D) - limit) for D in (1, 2, 4, 8, 16, 32, 64)]
    assert all(b <= a for a, b in itertools.pairwise(gaps))
    assert gaps[0] > 1e-3
    assert tb.dp_delta(eps, gamma, 64) == pytest.approx(limit, rel=3e-12)


# ------------------------------------------------------------------------------ instance, family
def test_graph_and_mechanism():
    G = tb.graph(8, 3)
    assert list(G.nodes) == list(range(3, 9)) and G.outputs == tuple(range(12))
    M = tb.mechanism(0.2, 3, N=8)
    P = M.probabilities
    p = tb.pmf(0.2, 3)
    for i, n in enumerate(G.nodes):
        assert np.array_equal(P[i, n - 3 : n + 4], p)
        assert P[i].sum() == pytest.approx(1.0, abs=1e-15)
    assert tb.mechanism(0.2, 3).graph.n_nodes == 2  # default N = D + 1: one edge
    with pytest.raises(ParameterError, match="`N`"):
        tb.graph(3, 3)


def test_family_contract_pieces():
    assert noise.FAMILIES["tablebuilder"] is tb.TableBuilder
    fam = tb.TableBuilder.from_variance(11, variance=4.0)
    assert fam.gamma == tb.gamma_for_variance(4.0, 11)
    assert fam.variance == pytest.approx(4.0, rel=1e-12)
    assert np.array_equal(fam.pmf, tb.pmf(fam.gamma, 11))
    claim = fam.nominal()
    assert not claim.pure and claim.dp_delta(1.0) == tb.dp_delta(1.0, fam.gamma, 11)
    assert fam.dp_delta(1.0) == claim.dp_delta(1.0)
    G = fam.graph(6)
    assert G.nodes[0] == 11 and fam.holds_on(G) is True
    M = fam.mechanism(G)
    eps = [0.0, 0.5, 1.0, 2.0, 3.0]
    exact = rdp.privacy_profile(M, eps)
    assert np.all(exact <= np.array([claim.dp_delta(e) for e in eps]))
    # counts below D: the window leaves the outputs, no mechanism and no claim
    low = count_path(20)
    assert fam.holds_on(low) is None
    with pytest.raises(ParameterError, match="window"):
        fam.mechanism(low)
    # outputs below 0 hold every window: claimed
    wide = count_path(8, outputs=range(-11, 20))
    assert fam.holds_on(wide) is True
    Mw = fam.mechanism(wide)
    assert float(rdp.privacy_profile(Mw, [1.0])[0]) <= claim.dp_delta(1.0)
    # neighbours two apart: not claimed
    two = rdp.RainbowGraph.from_edges(
        np.array([[0, 1]]),
        outputs=range(40),
        rainbow_table=np.arange(40)[None, :],
        rainbow_ids=[0, 0],
        nodes=[12, 14],
        answers=[12, 14],
    )
    assert fam.holds_on(two) is None
    with pytest.raises(ParameterError, match="`gamma`"):
        tb.TableBuilder(3, gamma=-1.0)
    with pytest.raises(ParameterError, match="`D`"):
        tb.TableBuilder(0, gamma=1.0)


def test_underflowing_rows_are_floored_and_stay_within_the_claim():
    # gamma D^2 = 1482: p(-D) underflows; the stored rows floor it at 2^-1000, which keeps the
    # verifier's delta within the floor of the closed form (no spurious term at large epsilon)
    fam = tb.TableBuilder(28, gamma=1.89)
    M = fam.mechanism(fam.graph(2))
    assert M.probabilities.min(where=M.probabilities > 0, initial=1.0) == 2.0**-1000
    for eps in (1.0, 50.0, 104.0):
        v = float(rdp.privacy_profile(M, [eps])[0])
        assert v <= fam.nominal().dp_delta(eps) + 57 * 2.0**-1000
