"""Count-query noise (Sadeghi, Asoodeh, Calmon 2020): P1–P3, the LP (9)–(13), Theorem 3 with the
omitted constraint restored, the exact DP δ."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rainbowdp as rdp
from rainbowdp.exceptions import ParameterError, ParameterTypeError
from rainbowdp.noise import count as c

SETTINGS = settings(max_examples=200, deadline=None, derandomize=True)


def check_p1_p3(P: np.ndarray, counts: np.ndarray, D: int, eta: float, tol: float) -> None:
    """P1 (support [n - min(n, D), n + D]), P2 (P(Y = n) = eta), P3 (zero bias), rows sum to 1."""
    y = np.arange(P.shape[1])
    for row, n in zip(P, counts.tolist(), strict=True):
        lo, hi = n - min(n, D), n + D
        assert row[(y < lo) | (y > hi)].max(initial=0.0) == 0.0  # P1: exactly zero outside
        assert abs(row[n] - eta) <= tol  # P2
        assert abs(float(((y - n) * row).sum())) <= tol  # P3
        assert abs(row.sum() - 1.0) <= 1e-12
        assert row.min() >= 0.0


# ------------------------------------------------------------------------------ Example 1
def test_example1_two_point_laws():
    # Sadeghi et al., Example 1, (4): N = 3, eta = 1/2, D = 2, n = 1
    assert c.two_point(1, 2, -1, 1, eta=0.5).tolist() == [0.0, 0.25, 0.5, 0.25, 0.0]
    assert np.allclose(c.two_point(1, 2, -1, 2, eta=0.5), [0, 1 / 3, 1 / 2, 0, 1 / 6], atol=0)
    # (5), n = 2: p^(-2,2) puts 1/4 at -2 and 2; p^(-2,1) puts 1/6 at -2 and 1/3 at 1
    assert np.allclose(c.two_point(2, 2, -2, 2, eta=0.5), [0.25, 0, 0.5, 0, 0.25])
    assert np.allclose(c.two_point(2, 2, -2, 1, eta=0.5), [1 / 6, 0, 0.5, 1 / 3, 0])
    with pytest.raises(ParameterError, match="i1"):
        c.two_point(1, 2, -2, 1, eta=0.5)  # A = min(n, D) = 1 at n = 1: p_Z(-2|1) = 0


@given(
    n=st.integers(1, 12),
    D=st.integers(1, 8),
    eta=st.floats(0.01, 0.99),
    seed=st.integers(0, 2**32 - 1),
)
@SETTINGS
def test_convex_combinations_of_two_point_laws_meet_p1_p3(n, D, eta, seed):
    # Proposition 1 and (3): every convex combination of the two-point laws meets P1-P3
    A = min(n, D)
    w = np.random.default_rng(seed).dirichlet(np.ones(A * D))
    pairs = [(a, b) for a in range(1, A + 1) for b in range(1, D + 1)]
    p = sum(wk * c.two_point(n, D, -i1, i2, eta=eta) for wk, (i1, i2) in zip(w, pairs, strict=True))
    row = np.zeros(n + D + 1)
    row[n - D + np.arange(2 * D + 1)[D - A :]] = p[D - A :]
    assert p[: D - A].sum() == 0.0
    check_p1_p3(row[None, :], np.array([n]), D, eta, 1e-12)


def test_example1_rows_are_p1_p3_on_the_graph():
    # Example 1's instance: counts 1..3, outputs 0..5 = N + D (6)
    G = c.graph(3, 2)
    assert list(G.nodes) == [1, 2, 3] and G.outputs == tuple(range(6))
    assert G.n_edges == 2
    P = c.rows([1, 2, 3], 2, [0.5, 0.5], eta=0.5, n_outputs=6)
    check_p1_p3(P, np.array([1, 2, 3]), 2, 0.5, 1e-15)
    assert P[0, 0] > 0 and P[0, 3] > 0  # n = 1 < D: the pair at +-2 is anchored at -1 and 2


@given(
    D=st.integers(1, 12),
    eta=st.floats(0.01, 0.99),
    epsilon=st.floats(0.0, 4.0),
    N=st.integers(1, 30),
)
@SETTINGS
def test_every_mechanism_meets_p1_p3_exactly(D, eta, epsilon, N):
    M = c.mechanism(N + 1, D, eta=eta, epsilon=epsilon)
    P = M.probabilities
    counts = np.asarray(M.graph.nodes)
    check_p1_p3(P, counts, D, eta, 1e-15)
    # P2 holds bit for bit; for n >= D the row is symmetric, so the bias is exactly zero
    assert np.all(P[np.arange(counts.size), counts] == eta)
    big = counts >= D
    for row, n in zip(P[big], counts[big].tolist(), strict=True):
        assert np.array_equal(row[n - D : n][::-1], row[n + 1 : n + D + 1])


# ------------------------------------------------------------------------------ closed form
def test_fig1_numbers():
    # Sadeghi et al., Section III-B and Fig. 1: eps = 2.18 (E = 8.8463), eta = 0.8 (C = 8), D = 6
    assert round(math.exp(2.18), 4) == 8.8463
    cs = c.crossovers(6, epsilon=2.18)
    assert round(float(cs[2]), 4) == 7.8867 and round(float(cs[1]), 4) == 8.1229  # C_3, C_2
    opt = c.optimum(6, epsilon=2.18, eta=0.8)
    assert opt.case == "theorem3" and opt.k == 3
    assert round(opt.delta, 4) == 0.0049  # delta~ = delta_3
    assert opt.delta == pytest.approx(c.lower_bounds(6, epsilon=2.18, eta=0.8)[2], rel=1e-11)
    assert np.count_nonzero(opt.alpha) == 3  # supported on [-3 : 3]
    pz = opt.pmf
    assert round(float(pz[6 + 1]), 5) == 0.08987 and round(float(pz[6 + 2]), 5) == 0.00960
    assert round(float(opt.alpha[0] / opt.alpha[1]), 4) == 9.3617


def test_errata_16_theorem3_fails_for_small_eta():
    # errata item 16 (Proposition 4 omits eta_bar alpha_1 / 2 <= e^eps eta + delta): D = 2,
    # eps = 0.25, eta = 0.1: the printed delta~ = 0.1370, the LP optimum 0.1608
    opt = c.optimum(2, epsilon=0.25, eta=0.1)
    assert round(opt.printed_delta, 4) == 0.1370
    assert opt.case == "restored" and round(opt.delta, 4) == 0.1608
    lp = c.proposition2_lp(8, 2, epsilon=0.25, eta=0.1, n_min=2)
    assert lp.delta == pytest.approx(opt.delta, abs=1e-9)
    # the printed alpha* breaks the omitted constraint: its singleton delta exceeds delta~
    printed_alpha = c.lower_bounds(2, epsilon=0.25, eta=0.1)  # Type II: (37)-(38)
    E, B = math.exp(0.25), 2 / 0.9
    a2 = B * printed_alpha[2]
    a1 = E * a2 + B * printed_alpha[2]
    assert a1 + a2 == pytest.approx(1.0, rel=1e-12)
    M = c.mechanism(8, 2, eta=0.1, alpha=[a1, a2], n_min=2)
    assert c.singleton_delta(M, epsilon=0.25) > opt.delta > opt.printed_delta


def test_lemma4_crossovers_decrease():
    for D, eps in [(1, 0.5), (6, 2.18), (12, 0.1), (8, 1.5)]:
        cs = c.crossovers(D, epsilon=eps)
        assert np.all(np.isfinite(cs)) and np.all(np.diff(cs) < 0)
    # in floats they settle on their limit for large D: non-increasing, finite
    cs = c.crossovers(200, epsilon=4.0)
    assert np.all(np.isfinite(cs)) and np.all(np.diff(cs) <= 0)


ETAS = st.one_of(st.floats(0.005, 0.3), st.floats(0.01, 0.99))


@given(D=st.integers(1, 14), epsilon=st.floats(0.0, 4.0), eta=ETAS)
@settings(max_examples=320, deadline=None, derandomize=True)
def test_closed_form_equals_the_lp_on_random_instances(D, epsilon, eta):
    # >= 300 instances, the small-eta region included: the closed form (restored where the
    # printed Theorem 3 fails) equals the singleton LP of the law (14)
    opt = c.optimum(D, epsilon=epsilon, eta=eta)
    _, lp_delta, lp_alpha, _ = c._law(D, epsilon, eta=eta, delta=None, events="singleton")
    # the LP's point, measured exactly: no point of the LP beats the closed form (Theorem 1,
    # restored), whatever the solver's tolerance
    M_lp = c.mechanism(D + 3, D, eta=eta, alpha=lp_alpha, n_min=D)
    assert c.singleton_delta(M_lp, epsilon=epsilon) >= opt.delta * (1 - 1e-9) - 1e-15
    # and the optimum values agree to 1e-9 (for delta* below 1e-6 HiGHS's own accuracy, 1e-9 to
    # 1e-7 absolute at E ~ 50, is the limit; the closed form's alpha* is checked to attain
    # delta* below, and no LP point to beat it above)
    if opt.delta >= 1e-6:
        assert opt.delta == pytest.approx(lp_delta, abs=1e-9)
    assert opt.delta >= opt.printed_delta * (1 - 1e-12)
    if opt.case == "theorem3":
        assert opt.delta == pytest.approx(opt.printed_delta, rel=1e-11)
    # alpha* is a distribution whose law meets the singleton constraints at delta*
    assert np.all(opt.alpha >= 0) and opt.alpha.sum() == pytest.approx(1.0, abs=1e-14)
    M = c.mechanism(D + 3, D, eta=eta, alpha=opt.alpha, n_min=D)
    assert c.singleton_delta(M, epsilon=epsilon) <= opt.delta + 1e-12


@given(D=st.integers(1, 5), epsilon=st.floats(0.05, 3.0), eta=ETAS, extra=st.integers(0, 4))
@settings(max_examples=40, deadline=None, derandomize=True)
def test_closed_form_equals_proposition2_lp_on_counts_from_d(D, epsilon, eta, extra):
    # the LP (9)-(13) as printed, data-dependent alphas per count, on counts D .. N with
    # N - D >= 2D: its optimum is the closed form (shorter paths allow less; next test)
    lp = c.proposition2_lp(3 * D + extra, D, epsilon=epsilon, eta=eta, n_min=D)
    assert lp.delta == pytest.approx(c.min_delta(D, epsilon=epsilon, eta=eta), abs=1e-9)
    check_p1_p3(lp.mechanism.probabilities, np.asarray(lp.mechanism.graph.nodes), D, eta, 1e-9)


def test_short_count_ranges_allow_less_than_the_closed_form():
    # a data-dependent mechanism on two counts can be 0-singleton-private: the closed form is
    # the optimum of the data-independent law, and of the LP only on long enough paths
    assert c.proposition2_lp(3, 2, epsilon=1.0, eta=0.25, n_min=2).delta < 1e-9
    assert c.min_delta(2, epsilon=1.0, eta=0.25) > 0.07
    # the LP's optimum never decreases as the path grows (a restriction stays feasible)
    vals = [c.proposition2_lp(4 + k, 4, epsilon=0.6, eta=0.16, n_min=4).delta for k in range(1, 10)]
    assert all(b >= a - 1e-9 for a, b in itertools.pairwise(vals))
    assert vals[-1] == pytest.approx(c.min_delta(4, epsilon=0.6, eta=0.16), abs=1e-9)
    assert vals[0] < vals[-1] - 1e-3


def test_counts_below_d_raise_the_lp_optimum():
    # docs/noise/count.md: at the Fig. 1 setting, counts 1..D-1 cost more than counts >= D
    full = c.proposition2_lp(20, 6, epsilon=2.18, eta=0.8)
    assert full.delta > 3 * c.min_delta(6, epsilon=2.18, eta=0.8)


def test_no_overflow_for_large_d_epsilon():
    for D, eps, eta in [(200, 4.0, 0.5), (200, 4.0, 0.01), (1000, 1.0, 0.2), (50, 700.0, 0.5)]:
        opt = c.optimum(D, epsilon=eps, eta=eta)
        assert math.isfinite(opt.delta) and opt.delta > 0
        assert np.all(np.isfinite(opt.alpha)) and opt.alpha.sum() == pytest.approx(1.0)


# ------------------------------------------------------------------------------ exact DP
PAPER_SETTINGS = [(6, 2.18, 0.8), (8, 1.1, 0.5), (8, 2.2, 0.8), (6, 1.5, 0.5), (4, 1.0, 0.5)]


@pytest.mark.parametrize(("D", "eps", "eta"), PAPER_SETTINGS)
def test_exact_delta_comes_from_the_verifier_and_is_below_the_bound(D, eps, eta):
    # Remark 2: (2D+1) delta* bounds the DP delta; the exact delta is the verifier's
    opt = c.optimum(D, epsilon=eps, eta=eta)
    M = c.mechanism(D + 8, D, eta=eta, epsilon=eps, n_min=D)
    exact = c.dp_delta(M, epsilon=eps)
    assert exact == rdp.privacy_profile(M, [eps])[0]
    assert exact == pytest.approx(c.law_dp_delta(opt.alpha, eta=eta, epsilon=eps), rel=1e-12)
    assert opt.delta <= exact * (1 + 1e-12) <= opt.dp_bound
    assert rdp.certify(M, epsilon=eps, delta=exact).verdict == "private"
    # the law minimising the exact delta does better still, and is certified
    best = c.exact_optimum(D, epsilon=eps, eta=eta)
    assert best.delta <= exact * (1 + 1e-9)
    assert best.delta == pytest.approx(best.lp_delta, abs=1e-9)
    Mb = c.mechanism(D + 4, D, eta=eta, alpha=best.alpha, n_min=D)
    assert rdp.certify(Mb, epsilon=eps, delta=best.delta).verdict == "private"


def test_remark2_is_loose_on_the_paper_settings():
    # Section IV's settings: the bound exceeds the exact delta of the same mechanism 2x-4x
    for D, eps, eta in PAPER_SETTINGS:
        opt = c.optimum(D, epsilon=eps, eta=eta)
        exact = c.law_dp_delta(opt.alpha, eta=eta, epsilon=eps)
        assert opt.dp_bound / exact > 2.0


def test_section4_claims():
    # Section IV: D = 8 gives (1.1, 1e-3)-DP at eta = 0.5 and (2.2, 5e-7)-DP at eta = 0.8
    assert c.remark2_bound(8, epsilon=1.1, eta=0.5) <= 1e-3
    assert c.remark2_bound(8, epsilon=2.2, eta=0.8) <= 5e-7
    # "(2D+1) delta* is no greater than 0.001 for D = 8 and eps > 1.1" (eta = 0.5, Fig. 2)
    assert all(c.remark2_bound(8, epsilon=e, eta=0.5) <= 1e-3 for e in np.linspace(1.1, 3, 20))
    # 0.9945 = eta + eta_bar (alpha_1 + alpha_2 + alpha_3) at eps = 1.5: D = 8 (errata item 19)
    a8 = c.alpha_star(8, epsilon=1.5, eta=0.5)
    a6 = c.alpha_star(6, epsilon=1.5, eta=0.5)
    assert round(0.5 + 0.5 * a8[:3].sum(), 4) == 0.9945
    assert round(0.5 + 0.5 * a6[:3].sum(), 4) == 0.9946


@pytest.mark.parametrize(("D", "eps", "target"), [(8, 1.1, 1e-3), (8, 2.2, 5e-7), (4, 0.7, 0.05)])
def test_max_eta(D, eps, target):
    e = c.max_eta(D, epsilon=eps, delta=target)
    best = c.exact_optimum(D, epsilon=eps, eta=e)
    assert best.delta <= target * (1 + 1e-6)
    worse = c.exact_optimum(D, epsilon=eps, eta=min(0.999, e + 1e-3))
    assert worse.delta > target
    es = c.max_eta(D, epsilon=eps, delta=target, events="singleton")
    assert c.min_delta(D, epsilon=eps, eta=es) <= target * (1 + 1e-6)
    assert c.min_delta(D, epsilon=eps, eta=min(0.999, es + 1e-3)) > target
    assert es >= e - 1e-9  # the singleton delta <= the exact delta: a larger eta meets it


# ------------------------------------------------------------------------------ family
def test_family_claim_and_graphs():
    fam = c.Count(6, epsilon=2.18, eta=0.8)
    G = fam.graph(10)
    assert fam.holds_on(G) is True and list(G.nodes) == list(range(6, 17))
    assert fam.holds_on(c.graph(10, 6)) is None  # counts below D are not claimed
    M = fam.mechanism(G)
    assert rdp.certify(M, epsilon=2.18, delta=fam.optimum().dp_bound).verdict == "private"
    assert fam.nominal().dp_delta(2.18) == fam.optimum().dp_bound
    with pytest.raises(ParameterError, match="counts"):
        fam.mechanism(rdp.builders.count_path(5))  # count 0 and too few outputs


def test_validation():
    with pytest.raises(ParameterError, match="eta"):
        c.optimum(3, epsilon=1.0, eta=1.0)
    with pytest.raises(ParameterTypeError, match="eta"):
        c.optimum(3, epsilon=1.0, eta="0.5")
    with pytest.raises(ParameterError, match="D"):
        c.optimum(0, epsilon=1.0, eta=0.5)
    with pytest.raises(ParameterError, match="epsilon"):
        c.optimum(3, epsilon=-1.0, eta=0.5)
    with pytest.raises(ParameterError, match="alpha"):
        c.mechanism(5, 2, eta=0.5, alpha=[0.5, 0.6])
    with pytest.raises(ParameterError, match="exactly one"):
        c.mechanism(5, 2, eta=0.5)
    with pytest.raises(ParameterError, match="N"):
        c.graph(1, 2, n_min=2)
    with pytest.raises(ParameterError, match="events"):
        c.max_eta(3, epsilon=1.0, delta=0.1, events="pairs")
    with pytest.raises(ParameterTypeError, match="M"):
        c.dp_delta([[1.0]], epsilon=1.0)


def test_the_restored_case_on_a_small_eta_grid():
    # errata item 16's region: where the printed Theorem 3 is below the LP optimum, the restored
    # closed form equals it
    restored = 0
    for D in range(1, 9):
        for eps in (0.1, 0.25, 0.5, 1.0):
            for eta in (0.01, 0.05, 0.1, 0.2):
                opt = c.optimum(D, epsilon=eps, eta=eta)
                _, lp, _, _ = c._law(D, eps, eta=eta, delta=None, events="singleton")
                assert opt.delta == pytest.approx(lp, abs=1e-9)
                if opt.case == "restored":
                    restored += 1
                    assert opt.delta > opt.printed_delta + 1e-6
    assert restored >= 40


@pytest.mark.parametrize(("N", "D", "eps", "eta"), [(20, 2, 1.0, 0.5), (24, 6, 2.18, 0.8)])
def test_the_general_designer_with_p1_p3(N, D, eps, eta):
    # P1-P3 as data for design.min_delta: the singleton optimum is the LP (9)-(13) (in the
    # probabilities), and the exact optimum is at most the data-independent one
    single = c.design_min_delta(N, D, epsilon=eps, eta=eta, events="singleton", n_min=D)
    assert single.objective == pytest.approx(c.min_delta(D, epsilon=eps, eta=eta), abs=1e-9)
    exact = c.design_min_delta(N, D, epsilon=eps, eta=eta, n_min=D)
    best = c.exact_optimum(D, epsilon=eps, eta=eta)
    assert exact.achieved_delta <= best.delta + 1e-9
    assert exact.achieved_delta < c.law_dp_delta(c.alpha_star(D, epsilon=eps, eta=eta), eta=eta,
                                                 epsilon=eps)  # fmt: skip
    for res in (single, exact):
        M = res.mechanism
        check_p1_p3(M.probabilities, np.asarray(M.graph.nodes), D, eta, 1e-10)
        assert rdp.certify(M, epsilon=eps, delta=res.achieved_delta).verdict == "private"


def test_results_print_one_summary_line():
    r = c.optimum(6, epsilon=2.18, eta=0.8)
    text = repr(r)
    assert "\n" not in text and "array" not in text and "alpha of 6 values" in text
    assert f"delta={r.delta!r}" in text  # the full float, not a rounded one


def test_mechanism_refuses_dense_rows_beyond_the_cap():
    """N = 10^7 would need 10^14 probabilities (728 TiB): refused before allocating, naming N."""
    with pytest.raises(ParameterError, match=r"N=10000000.*MAX_MECHANISM_ENTRIES"):
        c.mechanism(10**7, 5, eta=0.5, epsilon=1.0)
    side = int(c.MAX_MECHANISM_ENTRIES**0.5)  # just above the cap: refused
    with pytest.raises(ParameterError, match="smaller `N`"):
        c.mechanism(side + 2, 2, eta=0.5, epsilon=1.0)
