"""Modulo-addition noise (Kadam et al.): leakage, the MILP (13) / LP (14), closed forms.

Paper numbers are oracles, cited beside each assertion. Closed forms are checked against the
optimisation on seeded random instances.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rainbowdp as rdp
from rainbowdp.exceptions import ParameterError, ParameterTypeError
from rainbowdp.noise import modulo
from rainbowdp.reproduce import step_lengths

# Kadam et al., Table 1: n = 8, BD with mu_bar = 3, epsilon = 1.5, columns by delta.
TABLE1 = {
    0.0: [0.5432, 0.1212, 0.1212, 0.1212, 0.0270, 0.0270, 0.0270, 0.0060, 0.0060],
    0.1212: [0.5432, 0.1212, 0.1212, 0.1212, 0.0270, 0.0270, 0.0270, 0.0060, 0.0060],
    0.1238: [0.5548, 0.1238, 0.1238, 0.1238, 0.0276, 0.0276, 0.0062, 0.0062, 0.0062],
    0.1522: [0.5575, 0.1244, 0.1244, 0.1244, 0.0278, 0.0278, 0.0062, 0.0062, 0.0014],
}


@pytest.mark.parametrize("delta", sorted(TABLE1))
def test_table1_under_the_printed_milp(delta):
    r = modulo.optimal_pmf(
        8, epsilon=1.5, delta=delta, shifts=[1, 2, 3], reading="paper", formulation="printed"
    )
    np.testing.assert_allclose(r.pmf, TABLE1[delta], atol=5e-5)  # Kadam et al., Table 1
    assert r.leakage <= delta
    assert r.objective == pytest.approx(1 - r.pmf[0])


@pytest.mark.parametrize(("delta", "f0"), [(0.1212, 0.5498), (0.1522, 0.5583)])
def test_definition_2_beats_the_printed_milp(delta, f0):
    # errata item 7: one indicator vector per mu (Definition 2) is strictly better
    r = modulo.optimal_pmf(
        8, epsilon=1.5, delta=delta, shifts=[1, 2, 3], reading="paper", formulation="definition"
    )
    assert r.pmf[0] == pytest.approx(f0, abs=5e-5)
    assert r.leakage <= delta
    printed = modulo.optimal_pmf(8, epsilon=1.5, delta=delta, shifts=[1, 2, 3], reading="paper")
    assert r.pmf[0] > printed.pmf[0] + 5e-4


def test_lemma4_pmf_is_not_private_under_the_symmetric_reading():
    # the paper's optimum at delta = 0 (Table 1, first column) leaks under the shifts -mu
    f = modulo.bd_pmf(8, epsilon=1.5, mu_bar=3)
    assert modulo.pdp_delta(f, epsilon=1.5, shifts=[1, 2, 3], reading="paper") == 0.0
    sym = modulo.pdp_delta(f, epsilon=1.5, shifts=[1, 2, 3], reading="symmetric")
    assert sym == pytest.approx(0.7856, abs=1e-4)
    # the symmetric optimum is private under its own reading, and far less accurate
    r = modulo.optimal_pmf(8, epsilon=1.5, delta=0.0, shifts=[1, 2, 3])
    assert r.leakage == 0.0 and r.pmf[0] < f[0] - 0.1


def paper_leakage(f, eps: float, shifts, reading: str) -> Fraction:
    """Eqs. (5)-(7), decided in rationals against e^eps's float enclosure (as a reference)."""
    lo, _ = rdp.exp_bounds(eps)
    size = len(f)
    mus = set(shifts) | ({size - m for m in shifts} if reading == "symmetric" else set())
    fr = [Fraction(x) for x in f]
    return max(
        sum((fr[e] for e in range(size) if fr[e] > lo * fr[(e + mu) % size]), Fraction(0))
        for mu in mus
    )


@pytest.mark.parametrize("seed", range(40))
def test_leakage_is_the_papers_formula_and_bounds_the_dp_delta(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 10))
    f = rng.dirichlet(np.full(n + 1, 0.5))
    shifts = sorted({int(s) for s in rng.integers(1, n + 1, size=int(rng.integers(1, 4)))})
    eps = float(rng.uniform(0.0, 2.0))
    for reading in ("paper", "symmetric"):
        lk = modulo.pdp_delta(f, epsilon=eps, shifts=shifts, reading=reading)
        ref = paper_leakage(f, eps, shifts, reading)
        assert Fraction(lk) >= ref and lk <= float(ref) + 1e-12  # never under-counted
        # Theorem 1 (PDP implies DP): the exact DP delta is at most the PDP leakage
        assert modulo.dp_delta(f, epsilon=eps, shifts=shifts, reading=reading) <= lk + 1e-15


def test_sd_orders_and_zeros_of_fig9():
    # Kadam et al., Fig. 9a (n = 7, mu = 3, coprime): f(0) >= f(3) >= f(6) >= f(1) >= ... >= f(5)
    f = modulo.sd_pmf(7, epsilon=0.5, mu=3)
    order = [0, 3, 6, 1, 4, 7, 2, 5]
    assert all(f[a] > f[b] for a, b in itertools.pairwise(order))
    # Fig. 9b (mu = 2, gcd(8, 2) = 2): f(1) = f(3) = f(5) = f(7) = 0, f(0) > f(2) > f(4) > f(6)
    g = modulo.sd_pmf(7, epsilon=0.5, mu=2)
    assert g[[1, 3, 5, 7]].tolist() == [0.0] * 4
    assert g[0] > g[2] > g[4] > g[6] > 0
    # Lemma 3, (17b) and (18c) with N = (n + 1) / gcd
    x = 0.5
    assert f[0] == pytest.approx((1 - math.exp(-x)) / (1 - math.exp(-8 * x)), rel=1e-11)
    assert g[0] == pytest.approx((1 - math.exp(-x)) / (1 - math.exp(-4 * x)), rel=1e-11)


def _random_sd(seed: int, delta_zero: bool):
    rng = np.random.default_rng(10_000 + seed)
    n = int(rng.integers(1, 12))
    mu = int(rng.integers(1, n + 1))
    eps = float(rng.uniform(0.05, 3.0))
    dlt = 0.0 if delta_zero else float(rng.choice([rng.uniform(0, 1), 10 ** rng.uniform(-4, 0)]))
    return n, mu, eps, dlt


@pytest.mark.parametrize("seed", range(200))
def test_lemma3_equals_the_lp(seed):
    n, mu, eps, _ = _random_sd(seed, True)
    f = modulo.sd_pmf(n, epsilon=eps, mu=mu)
    r = modulo.optimal_pmf(n, epsilon=eps, delta=0.0, shifts=[mu], reading="paper")
    assert f[0] == pytest.approx(r.pmf[0], abs=1e-6)  # Lemma 3 = LP (14)
    assert modulo.pdp_delta(f, epsilon=eps, shifts=[mu], reading="paper") == 0.0


#: hypothesis settings of the closed-form-vs-solver tests: 200 examples, reproducible
CLOSED_FORM = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
DELTAS = st.one_of(
    st.floats(0.0, 1.0, exclude_min=True), st.floats(-4.0, 0.0).map(lambda t: 10.0**t)
)


@CLOSED_FORM
@given(
    st.integers(1, 11).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n))),
    st.floats(0.05, 3.0),
    DELTAS,
)
def test_theorem2_equals_the_milp(n_mu, eps, dlt):
    n, mu = n_mu
    f = modulo.sd_pmf(n, epsilon=eps, delta=dlt, mu=mu)
    assert np.all(f >= 0) and f.sum() == pytest.approx(1.0, abs=1e-12)
    r = modulo.optimal_pmf(n, epsilon=eps, delta=dlt, shifts=[mu], reading="paper")
    assert f[0] == pytest.approx(r.pmf[0], abs=2e-6)  # Theorem 2 = MILP (13)
    assert modulo.pdp_delta(f, epsilon=eps, shifts=[mu], reading="paper") <= dlt


@pytest.mark.parametrize("seed", range(200))
def test_lemma4_equals_the_lp(seed):
    rng = np.random.default_rng(20_000 + seed)
    n = int(rng.integers(1, 14))
    mu_bar = int(rng.integers(1, n + 1))
    eps = float(rng.uniform(0.05, 3.0))
    f = modulo.bd_pmf(n, epsilon=eps, mu_bar=mu_bar)
    r = modulo.optimal_pmf(n, epsilon=eps, delta=0.0, shifts=range(1, mu_bar + 1), reading="paper")
    assert f[0] == pytest.approx(r.pmf[0], abs=1e-6)  # Lemma 4 = LP (14)
    assert modulo.pdp_delta(f, epsilon=eps, shifts=range(1, mu_bar + 1), reading="paper") == 0.0
    # the staircase: steps of length mu_bar, each e^-eps lower (eq. (28))
    steps = np.where(np.arange(n + 1) == 0, 0, (np.arange(n + 1) - 1) // mu_bar + 1)
    np.testing.assert_allclose(f, f[0] * np.exp(-steps * eps), rtol=1e-9)


def test_reduced_definition_matches_the_unreduced_lp_at_delta_zero():
    # delta = 0: PDP = DP and the LP is convex, so the one-PMF optimum is the optimum over all
    # mechanisms on the circulant (any reading)
    for reading in ("paper", "symmetric"):
        r = modulo.optimal_pmf(
            6, epsilon=0.8, delta=0.0, shifts=[1, 2], reading=reading, formulation="definition"
        )
        G = modulo.graph(6, shifts=[1, 2], reading=reading)
        full = rdp.design.lp(G, epsilon=0.8, delta=0.0)
        assert r.pmf[0] == pytest.approx(full.objective / G.n_nodes, abs=1e-7)


@pytest.mark.parametrize("loss", ["mse", "abs", [0, 2, 1, 1, 2]])
def test_other_losses(loss):
    r = modulo.optimal_pmf(4, epsilon=1.0, delta=0.1, shifts=[1], reading="paper", loss=loss)
    rho = modulo.distortion(4, loss)
    assert r.objective == pytest.approx(float(rho @ r.pmf))
    assert r.leakage <= 0.1
    # no better than the error-rate optimum in its own distortion? at least no worse than uniform
    assert r.objective <= float(rho.mean()) + 1e-9


@pytest.mark.parametrize(
    ("call", "exc", "match"),
    [
        (lambda: modulo.graph(0, shifts=[1]), ParameterError, "`n`"),
        (lambda: modulo.graph(4, shifts=[5]), ParameterError, "`shifts`"),
        (lambda: modulo.graph(4, shifts="12"), ParameterTypeError, "`shifts`"),
        (lambda: modulo.graph(4, shifts=[]), ParameterError, "at least one shift"),
        (lambda: modulo.graph(4, shifts=[1], reading="both"), ParameterError, "`reading`"),
        (lambda: modulo.pdp_delta([0.5, 0.6], epsilon=1, shifts=[1]), ParameterError, "`pmf`"),
        (lambda: modulo.distortion(3, "l2"), ParameterError, "`loss`"),
        (lambda: modulo.distortion(3, [1, 2]), ParameterError, "`loss`"),
        (lambda: modulo.sd_pmf(4, epsilon=0.0, mu=1), ParameterError, "`epsilon`"),
        (lambda: modulo.bd_pmf(4, epsilon=1.0, delta=-0.1, mu_bar=2), ParameterError, "`delta`"),
        (
            lambda: modulo.optimal_pmf(4, epsilon=1, delta=0.1, shifts=[1], formulation="x"),
            ParameterError,
            "`formulation`",
        ),
    ],
)
def test_bad_arguments(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# ------------------------------------------------------------------------ vector queries
BD2 = [(a, b) for a in range(3) for b in range(3) if (a, b) != (0, 0)]
# Kadam et al., eq. (59) (arXiv version; the journal text lost it): n = 4, epsilon = 3, delta = 0
EQ59 = [
    [0.6954, 0.0346, 0.0346, 0.0017, 0.0017],
    [0.0346, 0.0346, 0.0346, 0.0017, 0.0017],
    [0.0346, 0.0346, 0.0346, 0.0017, 0.0017],
    [0.0017, 0.0017, 0.0017, 0.0017, 0.0017],
    [0.0017, 0.0017, 0.0017, 0.0017, 0.0017],
]


@pytest.mark.parametrize("formulation", ["printed", "definition"])
def test_two_dimensional_bd_example_eq59(formulation):
    r = modulo.optimal_pmf(
        4, epsilon=3.0, delta=0.0, shifts=BD2, reading="paper", formulation=formulation
    )
    assert r.pmf.shape == (5, 5)
    np.testing.assert_allclose(r.pmf, EQ59, atol=5e-5)  # Kadam et al., eq. (59)
    assert r.leakage == 0.0
    # its marginals (Section "Numerical results"): [0.7681, 0.1073, 0.1073, 0.0086, 0.0086]
    np.testing.assert_allclose(
        r.pmf.sum(axis=1), [0.7681, 0.1073, 0.1073, 0.0086, 0.0086], atol=5e-5
    )
    np.testing.assert_allclose(r.pmf.sum(axis=0), r.pmf.sum(axis=1), atol=1e-9)
    # Remark 4: the joint optimum is not the product of the 1-D optima at epsilon / 2 each,
    # f1 = f2 = [0.6469, 0.1443, 0.1443, 0.0322, 0.0322] (Lemma 4, BD mu_bar = 2)
    f1 = modulo.bd_pmf(4, epsilon=1.5, mu_bar=2)
    np.testing.assert_allclose(f1, [0.6469, 0.1443, 0.1443, 0.0322, 0.0322], atol=5e-5)
    product = np.outer(f1, f1)
    assert modulo.pdp_delta(product, epsilon=3.0, shifts=BD2, reading="paper") == 0.0
    assert r.pmf[0, 0] > product[0, 0] + 0.2  # and far more accurate (0.6954 vs 0.4185)


def test_two_dimensional_arbitrary_neighbourhood_fig13b():
    # Kadam et al., Fig. 13b: n = 6, epsilon = 3, mu_1 in {1, 3}, mu_2 in {2, 5}: the second
    # largest masses e^-eps f(0) sit exactly at the shifts (1, 2), (1, 5), (3, 2), (3, 5)
    shifts = [(1, 2), (1, 5), (3, 2), (3, 5)]
    r = modulo.optimal_pmf(6, epsilon=3.0, delta=0.0, shifts=shifts, reading="paper")
    f = r.pmf
    top = np.argsort(-f.ravel(), kind="stable")[:5]
    assert divmod(int(top[0]), 7) == (0, 0)
    assert {divmod(int(i), 7) for i in top[1:]} == set(shifts)
    for s in shifts:
        assert f[s] == pytest.approx(math.exp(-3.0) * f[0, 0], rel=1e-5)


def test_vector_graph_and_mechanism():
    G = modulo.graph(2, shifts=[(0, 1), (1, 0)], reading="paper")
    assert G.directed and G.n_nodes == 9 and G.n_edges == 18
    # the arc q -> q - mu compares f(eta) with f(eta + mu), eq. (7), coordinate-wise mod 3
    assert ((1, 1), (1, 0)) in {(G.nodes[a], G.nodes[b]) for a, b in G.edges.tolist()}
    f = np.full((3, 3), 1 / 9)
    M = modulo.mechanism(f, shifts=[(0, 1), (1, 0)])
    assert np.allclose(M.probabilities, 1 / 9)
    with pytest.raises(ParameterError, match="dimension"):
        modulo.mechanism(f, shifts=[1])
    with pytest.raises(ParameterError, match="zero shift"):
        modulo.graph(2, shifts=[(0, 0)])
    with pytest.raises(ParameterError, match="one length"):
        modulo.graph(2, shifts=[(0, 1), (1,)])


# ------------------------------------------------------------------------ min-delta (15)
@pytest.mark.parametrize("seed", range(20))
def test_min_delta_is_the_inverse_of_the_printed_milp(seed):
    rng = np.random.default_rng(30_000 + seed)
    n = int(rng.integers(2, 9))
    shifts = list(range(1, int(rng.integers(1, min(3, n) + 1)) + 1))
    eps = float(rng.uniform(0.3, 2.0))
    dlt = float(rng.uniform(0.0, 0.4))
    best = modulo.optimal_pmf(n, epsilon=eps, delta=dlt, shifts=shifts, reading="paper")
    r = modulo.min_delta_pmf(
        n, epsilon=eps, max_distortion=best.objective + 1e-6, shifts=shifts, reading="paper"
    )
    # (15) finds a PMF at least as accurate with no more leakage (up to the solver's margins)
    assert r.objective <= best.objective + 1e-6 + 1e-9
    assert r.delta <= best.leakage + 1e-6
    assert r.delta == modulo.pdp_delta(r.pmf, epsilon=eps, shifts=shifts, reading="paper")


def test_min_delta_table1_and_errors():
    # Kadam et al., Table 1: f*(0) = 0.5575 needs delta = 0.1522 (n = 8, mu_bar = 3, eps = 1.5)
    r = modulo.min_delta_pmf(
        8, epsilon=1.5, max_distortion=1 - 0.5575, shifts=[1, 2, 3], reading="paper"
    )
    assert r.delta == pytest.approx(0.1522, abs=2e-4)
    with pytest.raises(rdp.InfeasibleDesignError):
        modulo.min_delta_pmf(4, epsilon=1.0, max_distortion=-0.1, shifts=[1])
    with pytest.raises(ParameterTypeError, match="`max_distortion`"):
        modulo.min_delta_pmf(4, epsilon=1.0, max_distortion="0.1", shifts=[1])
    with pytest.raises(ParameterError, match="`max_distortion`"):
        modulo.min_delta_pmf(4, epsilon=1.0, max_distortion=math.inf, shifts=[1])


# ------------------------------------------------------------------------ Theorem 3 (BD, delta > 0)
def _random_bd(seed: int):
    """A BD instance inside Theorem 3's hypothesis b + r < mu_bar, n = b mu_bar + r."""
    rng = np.random.default_rng(40_000 + seed)
    mu_bar = int(rng.integers(2, 8))
    b = int(rng.integers(1, mu_bar))
    r = int(rng.integers(0, mu_bar - b))
    eps = float(rng.uniform(0.05, 3.0))
    dlt = float(rng.choice([rng.uniform(0, 1), 10 ** rng.uniform(-4, 0)]))
    return b * mu_bar + r, mu_bar, eps, dlt


#: (mu_bar, b, r) with b + r < mu_bar (Theorem 3's hypothesis)
BD_LAYOUTS = st.integers(2, 7).flatmap(
    lambda m: st.integers(1, m - 1).flatmap(
        lambda b: st.tuples(st.just(m), st.just(b), st.integers(0, m - b - 1))
    )
)


@CLOSED_FORM
@given(BD_LAYOUTS, st.floats(0.05, 3.0), DELTAS)
def test_theorem3_equals_the_milp(layout, eps, dlt):
    mu_bar, b, r = layout
    n = b * mu_bar + r
    shifts = range(1, mu_bar + 1)
    f = modulo.bd_pmf(n, epsilon=eps, delta=dlt, mu_bar=mu_bar)
    assert np.all(f >= 0) and f.sum() == pytest.approx(1.0, abs=1e-12)
    assert modulo.pdp_delta(f, epsilon=eps, shifts=shifts, reading="paper") <= dlt
    r13 = modulo.optimal_pmf(n, epsilon=eps, delta=dlt, shifts=shifts, reading="paper")
    # Theorem 3 (rebuilt) = MILP (13). The MILP keeps a margin of 1e-7 on every non-leaking
    # ratio, which costs it up to ~1e-5 of f(0) at large e^eps (see the next test); the closed
    # form is never below it.
    assert f[0] >= r13.pmf[0] - 1e-9
    assert f[0] - r13.pmf[0] <= 2e-5


def test_theorem3_gap_to_the_milp_is_the_milps_margin(monkeypatch):
    # an instance with one of the largest gaps: at MARGIN = 1e-7 the MILP keeps step 5 at full
    # length, layout (1, 6, 5, 5, 5, 6, 3), where the closed form shortens it, (1, 6, 5, 5, 5,
    # 5, 4); the polishing LP keeps the MILP's leak set, so the gap stays. At 1e-9 the MILP
    # finds the closed form's layout and the polished optimum equals it to round-off.
    n, mu_bar, eps, dlt = 30, 6, 2.4570335417605436, 0.5822445952286395
    f = modulo.bd_pmf(n, epsilon=eps, delta=dlt, mu_bar=mu_bar)
    assert step_lengths(f, tol=1e-12) == (1, 6, 5, 5, 5, 5, 4)
    gaps = []
    for margin in (1e-7, 1e-9):
        monkeypatch.setattr(modulo, "MARGIN", margin)
        r = modulo.optimal_pmf(n, epsilon=eps, delta=dlt, shifts=range(1, 7), reading="paper")
        gaps.append(f[0] - r.pmf[0])
    assert gaps[0] > 1e-6 and abs(gaps[1]) < 1e-12


def _printed_lengths(b: int, r: int, mu_bar: int, h: int, j: int) -> list[int]:
    """Step lengths l_0..l_{b+1} of Theorem 3's k-th flat region (h, j), eqs. (31)-(32)."""
    u = 1 if j != h else 0
    mid = [
        mu_bar if i <= b - h or (i == b - h + j + 1 and j != h) else mu_bar - 1
        for i in range(1, b + 1)
    ]
    return [1, *mid, r + h - u]


def _staircase(lengths: list[int], eps: float) -> np.ndarray:
    # (30), at a hair below eps so that the ratios e^eps are not float ties (counted as leaks)
    eps = rdp.noise.build_epsilon(eps)
    f = np.repeat(np.exp(-eps * np.arange(len(lengths))), lengths)
    return f / f.sum()  # (34) by normalising the lengths (errata item 12)


def test_theorem3_as_printed_misses_layouts_and_leaks():
    # n = 29, mu_bar = 7 (b = 4, r = 1, b + r < mu_bar), eps = 1
    n, mu_bar, eps = 29, 7, 1.0
    b, r = divmod(n, mu_bar)
    shifts = range(1, mu_bar + 1)
    x = math.exp(-eps)
    # at delta = 0.078 the printed path is in flat region (3, 1): (37c) puts its lower
    # breakpoint at phi_0 e^{-(b-h) eps} xi_1 = 0.0756 ...
    f31 = _staircase(_printed_lengths(b, r, mu_bar, 3, 1), eps)
    printed_lower = f31[0] * x ** (b - 3)
    upper22 = _staircase(_printed_lengths(b, r, mu_bar, 2, 2), eps)[0] * x ** (b - 3)  # (37b)
    assert upper22 < printed_lower == pytest.approx(0.07561, abs=1e-5)
    assert printed_lower < 0.078 and f31[0] == pytest.approx(0.205517, abs=1e-6)
    # ... but that layout leaks the last masses of steps 1 and 3, xi_3 - e^-eps and not xi_1:
    # 0.0858 > 0.078, so the printed PMF is not private there
    leak = modulo.pdp_delta(f31, epsilon=eps, shifts=shifts, reading="paper")
    assert leak == pytest.approx(f31[0] * x ** (b - 3) * (1 + x**2), rel=1e-9)
    assert leak == pytest.approx(0.08584, abs=1e-5)
    # the optimum shortens step 2 alone, a layout the printed path never visits: f(0) =
    # 0.205029, leaking 0.0754, and the MILP (13) agrees
    f = modulo.bd_pmf(n, epsilon=eps, delta=0.078, mu_bar=mu_bar)
    assert f[0] == pytest.approx(0.205029, abs=1e-6)
    assert modulo.pdp_delta(f, epsilon=eps, shifts=shifts, reading="paper") <= 0.078
    r13 = modulo.optimal_pmf(n, epsilon=eps, delta=0.078, shifts=shifts, reading="paper")
    assert r13.pmf[0] == pytest.approx(0.205029, abs=2e-6)
    assert step_lengths(r13.pmf, tol=1e-6)[:3] == (1, 7, 6)


def test_theorem3_regions():
    n, mu_bar, eps = 29, 7, 1.0
    f0 = [modulo.bd_pmf(n, epsilon=eps, delta=d, mu_bar=mu_bar)[0] for d in (1e-3, 0.3, 1.0)]
    assert f0[0] == pytest.approx(modulo.bd_pmf(n, epsilon=eps, mu_bar=mu_bar)[0], rel=1e-9)
    assert f0[1] == pytest.approx(0.3, abs=1e-9)  # part (c): f*(0) = delta, (40)
    assert f0[2] == pytest.approx(1.0, abs=1e-11)
    # mu_bar = 1 is the SD neighbourhood {1}
    np.testing.assert_array_equal(
        modulo.bd_pmf(6, epsilon=1.0, delta=0.1, mu_bar=1),
        modulo.sd_pmf(6, epsilon=1.0, delta=0.1, mu=1),
    )
    # outside the hypothesis b + r < mu_bar (Table 1's n = 8, mu_bar = 3: b + r = 4)
    with pytest.raises(ParameterError, match=r"b \+ r < mu_bar.*optimal_pmf"):
        modulo.bd_pmf(8, epsilon=1.5, delta=0.1212, mu_bar=3)
    with pytest.raises(ParameterError, match="shortening sets"):
        modulo.bd_pmf(23 * 24, epsilon=1.0, delta=0.1, mu_bar=24)


def test_asymptotics_44_to_54():
    # (44)/(47): Lemma 3 and Lemma 4 error rates tend to mu_bar e^-eps / (mu_bar e^-eps + 1 -
    # e^-eps); at eps = 0.5 < ln 2 the limit is 0.6065 > 0.5, the cap printed in (44)
    # (errata item 13)
    for eps, mu_bar in [(0.5, 1), (1.0, 1), (0.5, 3), (2.0, 3)]:
        lim = modulo.asymptotic_error_rate(eps, mu_bar=mu_bar)
        if mu_bar == 1:
            rho = 1 - modulo.sd_pmf(400, epsilon=eps, mu=1)[0]
        else:
            rho = 1 - modulo.bd_pmf(400, epsilon=eps, mu_bar=mu_bar)[0]
        assert rho == pytest.approx(lim, abs=1e-9)
    assert modulo.asymptotic_error_rate(0.5) == pytest.approx(math.exp(-0.5))
    assert modulo.asymptotic_error_rate(0.5) > 0.5
    assert modulo.asymptotic_error_rate(1.0, mu_bar=3) > 0.5  # eps < ln 4
    # (51): the SD flat regions hold f(0) = (1 - e^-eps) / (1 - e^-(i+1)eps), i = n - k
    n, eps = 9, 0.8
    for i in range(1, n):
        lower = math.exp(-i * eps) * -math.expm1(-eps) / -math.expm1(-(i + 1) * eps)  # (19c)
        f0 = modulo.sd_pmf(n, epsilon=eps, delta=lower * 1.0001, mu=1)[0]
        assert f0 == pytest.approx(-math.expm1(-eps) / -math.expm1(-(i + 1) * eps), rel=1e-9)
    # (53) is not the limit of (34) along the printed lengths (31) as b -> oo (c = b - h)
    mu_bar, eps, e = 3, 1.0, math.exp(-1.0)
    for c, j in [(1, 1), (2, 1), (2, 2)]:
        b = 200
        limit = _staircase(_printed_lengths(b, 0, mu_bar, b - c, j), eps)[0]
        ours = 1 / (1 + (mu_bar * e - e ** (c + 1)) / (1 - e) + e ** (c + j + 1))
        printed = (1 - e) / (mu_bar * e + 1 - e * (1 + e ** (c + j)))  # (53)
        assert limit == pytest.approx(ours, rel=1e-12)
        assert abs(printed - limit) > 4e-3  # e.g. c = j = 1: 0.37493 printed, 0.38735


# ------------------------------------------------------------------------ Corollaries 1 and 2
@pytest.mark.parametrize("seed", range(60))
def test_corollary1_inverts_theorem2(seed):
    n, mu, eps, _ = _random_sd(seed, True)
    rho = float(np.random.default_rng(seed).uniform(0, 1))
    d = modulo.sd_min_delta(n, epsilon=eps, error_rate=rho, mu=mu)
    assert 0 <= d <= 1
    tau = 1 - rho
    assert modulo.sd_pmf(n, epsilon=eps, delta=min(1.0, d * (1 + 1e-9) + 1e-12), mu=mu)[0] >= (
        tau - 1e-9
    )
    if d > 1e-9:
        assert modulo.sd_pmf(n, epsilon=eps, delta=d * (1 - 1e-6), mu=mu)[0] < tau


@pytest.mark.parametrize("seed", range(60))
def test_corollary2_inverts_theorem3(seed):
    n, mu_bar, eps, _ = _random_bd(seed)
    rho = float(np.random.default_rng(seed).uniform(0, 1))
    d = modulo.bd_min_delta(n, epsilon=eps, error_rate=rho, mu_bar=mu_bar)
    assert 0 <= d <= 1
    tau = 1 - rho
    f = modulo.bd_pmf(n, epsilon=eps, delta=min(1.0, d * (1 + 1e-9) + 1e-12), mu_bar=mu_bar)
    assert f[0] >= tau - 1e-9
    if d > 1e-9:
        assert modulo.bd_pmf(n, epsilon=eps, delta=d * (1 - 1e-6), mu_bar=mu_bar)[0] < tau


@pytest.mark.parametrize("seed", range(8))
def test_corollaries_equal_the_min_delta_milp(seed):
    rng = np.random.default_rng(50_000 + seed)
    eps, rho = float(rng.uniform(0.5, 2.0)), float(rng.uniform(0.2, 0.7))
    if seed % 2:
        n, mu = int(rng.integers(3, 10)), 1
        d = modulo.sd_min_delta(n, epsilon=eps, error_rate=rho, mu=mu)
        shifts = [mu]
    else:
        n, mu_bar = 29, 7
        d = modulo.bd_min_delta(n, epsilon=eps, error_rate=rho, mu_bar=mu_bar)
        shifts = list(range(1, mu_bar + 1))
    r = modulo.min_delta_pmf(n, epsilon=eps, max_distortion=rho, shifts=shifts, reading="paper")
    assert r.delta == pytest.approx(d, abs=1e-5)  # (15) = Corollary 1 / 2


def test_corollary_errors():
    with pytest.raises(ParameterError, match="`error_rate`"):
        modulo.sd_min_delta(5, epsilon=1.0, error_rate=1.5, mu=1)
    with pytest.raises(ParameterTypeError, match="`error_rate`"):
        modulo.bd_min_delta(5, epsilon=1.0, error_rate="0.3", mu_bar=2)
    with pytest.raises(ParameterError, match=r"b \+ r < mu_bar"):
        modulo.bd_min_delta(8, epsilon=1.0, error_rate=0.3, mu_bar=3)
    assert modulo.bd_min_delta(8, epsilon=1.0, error_rate=0.3, mu_bar=1) == (
        modulo.sd_min_delta(8, epsilon=1.0, error_rate=0.3, mu=1)
    )
    assert modulo.sd_min_delta(5, epsilon=1.0, error_rate=0.0, mu=1) == 1.0


def test_theorem3_eq_35_36_wrong_when_j_equals_h():
    # errata item 12: phi_0 by (34)-(36) equals the normalised lengths (31) only for j != h
    b, r, mu_bar, eps = 4, 1, 7, 1.0

    def e(i):
        return math.exp(-i * eps)

    def xi(a):
        return sum(e(i) for i in range(a))

    for h in range(1, b):
        for j in range(1, h + 1):
            u = 1 if j != h else 0
            alpha = e(1) * xi(b) - (1 - u) * e(b - h + j + 1)  # (35)
            beta = 1 + e(b - h + 1) * (e(j) - xi(h)) + (r + h - u) * e(b + 1)  # (36)
            lengths = _printed_lengths(b, r, mu_bar, h, j)
            normalised = 1 / sum(ell * e(i) for i, ell in enumerate(lengths))
            if j != h:
                assert 1 / (mu_bar * alpha + beta) == pytest.approx(normalised, rel=1e-12)
            else:  # e.g. (h, j) = (1, 1): 0.201859 printed, 0.200225 normalised
                assert 1 / (mu_bar * alpha + beta) > normalised + 1e-3


def test_results_print_one_summary_line():
    r = modulo.optimal_pmf(8, epsilon=1.5, delta=0.0, shifts=[1])
    text = repr(r)
    assert "\n" not in text and "array" not in text and "pmf of 9 values" in text
    assert f"leakage={r.leakage!r}" in text


@pytest.mark.parametrize("loss", ["er", "mse", "abs"])
def test_printed_milp_at_delta_one_is_the_point_mass(loss):
    """At delta >= 1 no leak can exceed the budget (a leak is at most the whole mass 1): the
    optimum is the point mass on 0, at distortion 0, found without the (slow, degenerate) MILP;
    at a delta just below 1 the MILP runs and cannot do better."""
    r = modulo.optimal_pmf(35, epsilon=0.05, delta=1.0, shifts=range(1, 8), loss=loss)
    assert r.pmf[0] == 1.0 and r.objective == 0.0 and r.leakage <= 1.0
    assert r.design.solver == "closed form (delta >= 1)"
    below = modulo.optimal_pmf(35, epsilon=0.05, delta=0.999, shifts=range(1, 8), loss=loss)
    assert below.objective > 0.0 and below.leakage <= 0.999


def test_printed_milp_at_delta_one_takes_the_least_distortion_value():
    """A custom loss whose least distortion is not at 0: the point mass goes there."""
    r = modulo.optimal_pmf(3, epsilon=1.0, delta=1.0, shifts=[1], loss=[5.0, 0.0, 1.0, 2.0])
    assert r.pmf.tolist() == [0.0, 1.0, 0.0, 0.0] and r.objective == 0.0


def test_new_names_and_their_aliases():
    # pdp_delta is the probabilistic-DP leakage (Definition 2); leakage its old name (it warns:
    # tests/test_names.py)
    # losses: "error_rate", "squared", "absolute"; the old spellings parse to the same
    for new, old in (("error_rate", "er"), ("squared", "mse"), ("absolute", "abs")):
        assert modulo.loss_name(old) == new
        np.testing.assert_array_equal(modulo.distortion(5, new), modulo.distortion(5, old))
    a = modulo.optimal_pmf(4, epsilon=1.0, delta=0.1, shifts=[1], loss="squared")
    b = modulo.optimal_pmf(4, epsilon=1.0, delta=0.1, shifts=[1], loss="mse")
    np.testing.assert_array_equal(a.pmf, b.pmf)
    # the registry's name of the printed MILP is accepted for "printed"
    c = modulo.optimal_pmf(4, epsilon=1.0, delta=0.1, shifts=[1], formulation="kadam13-printed")
    d = modulo.optimal_pmf(4, epsilon=1.0, delta=0.1, shifts=[1], formulation="printed")
    np.testing.assert_array_equal(c.pmf, d.pmf)
    assert isinstance(d.design, rdp.design.DesignResult)
    assert d.design.formulation == "kadam13-printed"
    with pytest.raises(ParameterError, match="`loss`"):
        modulo.Modulo(1.0, loss="l2")
