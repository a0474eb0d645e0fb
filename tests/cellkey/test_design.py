"""Tests of rainbowdp.cellkey._optimal and rainbowdp.cellkey._design: the noise law and the table
with the smallest exact delta under an agency's constraints, and the design of a quantised
perturbation table for a target (epsilon, delta) (Sadeghi & Chien, "On the connection between
the ABS perturbation methodology and differential privacy", Sections 2.4 and 4)."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

import rainbowdp
from rainbowdp.cellkey import (
    OptimalNoise,
    Ptable,
    PtableDesign,
    audit,
    design_ptable,
    optimal_noise,
    optimal_table,
)
from rainbowdp.exceptions import InfeasibleDesignError, ParameterError, ParameterTypeError
from rainbowdp.noise import tablebuilder as tb

K32 = 2**32
# Sadeghi & Chien, Example 1 (Section 2.4): epsilon = 0.5, delta = 1e-4 -> D* = 25,
# gamma = 0.5/(2*25 - 1) - 1/(10(2500 - 1)), delta ~ 9.91e-5, V ~ 49.00
EX1_EPS, EX1_DELTA, EX1_D = 0.5, 1e-4, 25
EX1_GAMMA = 0.5 / (2 * 25 - 1) - 1 / (10 * (2500 - 1))
# Example 2: c^Q(-25), c^Q(-24), c^Q(-23) at KEYSIZE 2^32
EX2_CQ = (425760, 1126343, 2255949)
# Tight HiGHS tolerances for the reference LP (its defaults leave an optimality gap ~1e-7).
TIGHT = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}


# ------------------------------------------------------------------------- the reference LP
def reference_lp(epsilon: float, D: int, V: float) -> tuple[float, np.ndarray]:
    r"""min delta over p on [-D, D] with sum p = 1, sum z p = 0, sum z^2 p <= V, p >= 0 and
    both hockey-stick divergences of p(.) and p(. - 1) at most delta, written out directly.

    Variables: p (2D + 1), s and u (2D + 2 each: the positive parts of a_y - e^eps b_y and
    b_y - e^eps a_y over the 2D + 2 outputs y of the pair a = p(y), b = p(y - 1)), delta.
    """
    n, m = 2 * D + 1, 2 * D + 2
    nv = n + 2 * m + 1
    x = math.exp(epsilon)
    rows, rhs = [], []
    for order in range(2):
        for y in range(m):
            row = np.zeros(nv)
            first = y if y < n else None  # a_y = p(y - D)
            second = y - 1 if y >= 1 else None  # b_y = p(y - 1 - D)
            if order == 1:
                first, second = second, first
            if first is not None:
                row[first] += 1.0
            if second is not None:
                row[second] -= x
            row[n + order * m + y] = -1.0  # (first - x second) - aux <= 0
            rows.append(row)
            rhs.append(0.0)
    for order in range(2):  # sum of the positive parts <= delta
        row = np.zeros(nv)
        row[n + order * m : n + (order + 1) * m] = 1.0
        row[-1] = -1.0
        rows.append(row)
        rhs.append(0.0)
    z = np.arange(-D, D + 1, dtype=np.float64)
    row = np.zeros(nv)
    row[:n] = z * z
    rows.append(row)
    rhs.append(V)
    A_eq = np.zeros((2, nv))
    A_eq[0, :n] = 1.0
    A_eq[1, :n] = z
    c = np.zeros(nv)
    c[-1] = 1.0
    res = linprog(
        c,
        A_ub=np.array(rows),
        b_ub=np.array(rhs),
        A_eq=A_eq,
        b_eq=[1.0, 0.0],
        bounds=(0, None),
        method="highs",
        options=TIGHT,
    )
    assert res.status == 0, res.message
    return float(res.fun), res.x[:n]


def pair_delta(p: np.ndarray, epsilon: float) -> float:
    """The verifier's exact delta of additive noise p on neighbouring counts, both orders."""
    a, b = np.append(p, 0.0), np.insert(p, 0, 0.0)
    return max(rainbowdp.hockey_stick(a, b, epsilon), rainbowdp.hockey_stick(b, a, epsilon))


def check_against_reference(epsilon: float, D: int, V: float) -> OptimalNoise:
    res = optimal_noise(epsilon, D=D, variance=V)
    ref, p = reference_lp(epsilon, D, V)
    z = np.arange(-D, D + 1)
    # the reference point itself is feasible and its verified delta is its LP value
    q = np.maximum(p, 0.0) / np.maximum(p, 0.0).sum()
    assert abs(z @ q) <= 1e-9 and (z * z) @ q <= V + 1e-9
    assert pair_delta(q, epsilon) == pytest.approx(ref, abs=1e-9)
    # the designer's delta is the optimum: no better (beyond round-off), at most 1e-7 worse
    assert res.delta >= ref - 1e-9, (epsilon, D, V, res.delta, ref)
    assert res.delta <= ref + 1e-7, (epsilon, D, V, res.delta, ref)
    return res


# ------------------------------------------------------------------------- optimal_noise
@pytest.mark.parametrize("D", [1, 2, 4, 8])
def test_optimal_noise_matches_an_independent_lp_on_a_grid(D: int) -> None:
    top = D * (D + 1) / 3  # variance of the uniform law on [-D, D] (Proposition 1)
    for eps in (0.1, 0.5, 1.0, 2.0):
        for frac in (0.05, 0.3, 0.9, 1.5):  # 1.5: the cap is not binding
            check_against_reference(eps, D, frac * top)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(
    D=st.integers(1, 6),
    eps=st.floats(0.05, 2.5),
    frac=st.floats(0.02, 1.3),
)
def test_optimal_noise_matches_an_independent_lp_hypothesis(
    D: int, eps: float, frac: float
) -> None:
    check_against_reference(eps, D, frac * D * (D + 1) / 3)


@pytest.mark.parametrize(("eps", "D", "V"), [(3.319, 7, 7.66), (2.852, 6, 10.129)])
def test_optimal_noise_is_optimal_to_1e7_at_large_epsilon(eps: float, D: int, V: float) -> None:
    # (2.852, 6, 10.129): the LP designer alone stops 2.6e-7 above the optimum 3.3e-8 here
    res = check_against_reference(eps, D, V)
    assert res.delta <= res.lp_delta


def geometric_floor(epsilon: float, D: int) -> float:
    r"""1/c_D, c_D = x^D + 2 (x^D - 1)/(x - 1), x = e^eps, in 50-digit arithmetic: no law on
    [-D, D] has a smaller delta at eps; the law proportional to x^{-|z|} attains it."""
    import mpmath

    with mpmath.workdps(50):
        x = mpmath.e ** mpmath.mpf(epsilon)
        c = x**D + 2 * (x**D - 1) / (x - 1)
        return float(1 / c)


def geometric_variance(epsilon: float, D: int) -> float:
    """E[Z^2] of the law proportional to e^{-eps |z|} on [-D, D]."""
    z = np.arange(-D, D + 1, dtype=np.float64)
    w = np.exp(-epsilon * np.abs(z))
    return float((z * z) @ w / w.sum())


def within_cap(p: np.ndarray, V: float) -> np.ndarray:
    """p made to meet sum z^2 p(z) <= V sum p(z) exactly (the LP meets it to its tolerance
    only) by mixing in the point mass at 0: a feasible law, its delta no smaller than p's."""
    D = (p.size - 1) // 2
    z2 = [Fraction(k * k) for k in range(-D, D + 1)]
    for _ in range(20):
        exact = [Fraction(float(x)) for x in p]
        m2 = sum(a * b for a, b in zip(z2, exact, strict=True))
        if m2 <= Fraction(V) * sum(exact):
            return p
        lam = 1.0 - float(Fraction(V) * sum(exact) / m2) + 1e-15
        p = (1.0 - lam) * p
        p[D] += lam
    raise AssertionError("could not meet the cap")


@pytest.fixture(scope="module")
def abs_optimal_grid() -> dict[float, OptimalNoise]:
    """optimal_noise on the grid of the `abs-optimal` reproduce target: Example 1's D = 25 and
    V = 49 (Sadeghi & Chien, Section 2.4), eps = 0.1, 0.2, ..., 2.0."""
    from rainbowdp.reproduce import abs as abs_target

    assert abs_target.ABS_EXAMPLE1["D"] == 25 and abs_target.ABS_EXAMPLE1["variance"] == 49.0
    grid = [float(e) for e in inspect_default_epsilons()]
    return {e: optimal_noise(e, D=25, variance=49.0) for e in grid}


def inspect_default_epsilons() -> tuple[float, ...]:
    """The default eps grid of reproduce.abs_optimal_comparison (the `abs-optimal` target)."""
    import inspect

    from rainbowdp.reproduce import abs_optimal_comparison

    grid = inspect.signature(abs_optimal_comparison).parameters["epsilons"].default
    assert len(grid) == 20 and grid[0] == pytest.approx(0.1) and grid[-1] == pytest.approx(2.0)
    return tuple(grid)


def test_optimal_noise_is_monotone_in_epsilon_on_the_abs_optimal_grid(
    abs_optimal_grid: dict[float, OptimalNoise],
) -> None:
    deltas = [abs_optimal_grid[e].delta for e in sorted(abs_optimal_grid)]
    assert all(b <= a for a, b in itertools.pairwise(deltas)), deltas
    # the regression: the LP designer alone gave 1.664e-8 at eps = 1.4, 31x above the exact
    # delta of its own eps = 1.3 law (5.315e-10) at 1.4, and a curve that went up and down
    r13, r14 = abs_optimal_grid[1.3], abs_optimal_grid[1.4]
    assert r14.delta <= pair_delta(r13.pmf, 1.4)
    assert r14.delta < 1e-12 < r14.lp_delta


def test_optimal_noise_beats_every_other_grid_law_and_the_lp(
    abs_optimal_grid: dict[float, OptimalNoise],
) -> None:
    laws = [r.pmf for r in abs_optimal_grid.values()]
    for eps, res in abs_optimal_grid.items():
        # any law of the grid is feasible at every eps (the constraints do not involve eps)
        for p in laws:
            assert res.delta <= pair_delta(p, eps), eps
        # the LP designer's law (symmetrised, within the cap) and an independent LP
        assert res.delta <= res.lp_delta
        _, p = reference_lp(eps, 25, 49.0)
        q = within_cap(np.maximum(p, 0.0) / np.maximum(p, 0.0).sum(), 49.0)
        if res.source == "geometric":
            assert res.delta <= pair_delta(q, eps), eps
        else:  # eps = 0.1, the cap binds: one vertex reached by two float routes (last bits)
            assert res.delta <= pair_delta(q, eps) * (1 + 1e-12), eps


def test_optimal_noise_on_the_abs_optimal_grid_is_sound_and_feasible(
    abs_optimal_grid: dict[float, OptimalNoise],
) -> None:
    z = np.arange(-25, 26)
    for eps, res in abs_optimal_grid.items():
        assert np.array_equal(res.pmf, res.pmf[::-1]) and res.bias == 0.0  # zero bias exactly
        exact = [Fraction(float(x)) for x in res.pmf]
        m2 = sum(Fraction(int(k * k)) * x for k, x in zip(z, exact, strict=True))
        assert m2 <= Fraction(49) * sum(exact)  # E[Z^2] <= V in exact arithmetic
        assert res.pmf.size == 51 and np.all(res.pmf >= 0)  # a law on [-25, 25]
        # certified private at the reported (eps, delta), in exact arithmetic
        cert = rainbowdp.certify(res.mechanism, epsilon=eps, delta=res.delta)
        assert cert.verdict == "private", eps
        assert res.delta >= pair_delta(res.pmf, eps)
        # never below the proved floor 1/c_D; at it (the geometric law) once that law is
        # within the cap, i.e. from eps = 0.2 on (its variance 44.3 < 49; 0.1: 82.9 > 49)
        floor = geometric_floor(eps, 25)
        assert res.delta >= floor * (1 - 1e-12), eps
        if geometric_variance(eps, 25) <= 49.0:
            assert res.source == "geometric"
            assert res.delta <= floor * (1 + 1e-12), (eps, res.delta, floor)
    assert abs_optimal_grid[0.1].source in ("two-block", "lp")


@settings(max_examples=60, deadline=None, derandomize=True)
@given(D=st.integers(1, 40), eps=st.floats(0.01, 6.0), frac=st.floats(0.02, 1.3))
def test_optimal_noise_never_below_the_floor_and_at_it_when_feasible(
    D: int, eps: float, frac: float
) -> None:
    V = frac * D * (D + 1) / 3
    res = optimal_noise(eps, D=D, variance=V)
    floor = geometric_floor(eps, D)
    assert res.delta >= floor * (1 - 1e-12)
    assert res.lp_delta is None or res.delta <= res.lp_delta
    if geometric_variance(eps, D) <= V * (1 - 1e-9):
        assert res.delta <= floor * (1 + 1e-12)


@pytest.mark.parametrize(("eps", "D", "V"), [(0.5, 3, 1.0), (1.0, 4, 3.0), (2.0, 6, 8.0)])
def test_optimal_noise_is_certified_feasible_and_beats_max_entropy(
    eps: float, D: int, V: float
) -> None:
    res = optimal_noise(eps, D=D, variance=V)
    z = np.arange(-D, D + 1)
    assert res.pmf.shape == (2 * D + 1,) and res.D == D
    assert res.epsilon == eps and res.variance_cap == V
    assert np.all(res.pmf >= 0) and res.pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert abs(z @ res.pmf) <= 1e-9 and abs(res.bias) <= 1e-9  # zero bias
    assert (z * z) @ res.pmf <= V + 1e-9 and res.variance <= V + 1e-9  # the variance cap
    # the designed mechanism is proved private at the reported delta, in exact arithmetic
    cert = rainbowdp.certify(res.mechanism, epsilon=eps, delta=res.delta)
    assert cert.verdict == "private"
    # the two rows (counts D and D + 1) are one law and its shift: the reported delta is its own
    P = res.mechanism.probabilities
    assert P[1, 1 : 2 * D + 2] == pytest.approx(P[0, : 2 * D + 1], rel=1e-12, abs=1e-18)
    assert res.delta >= pair_delta(res.pmf, eps)
    assert res.delta == pytest.approx(pair_delta(res.pmf, eps), rel=1e-12)
    # the max-entropy law with the same D and E[Z^2] = V is feasible (Sadeghi & Chien, (2.19))
    maxent = float(tb.dp_delta(eps, tb.gamma_for_variance(V, D), D))
    assert res.delta <= maxent + 1e-9
    assert res.delta < maxent  # strictly better here


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"epsilon": -1.0, "D": 3, "variance": 1.0}, "epsilon=-1.0"),
        ({"epsilon": math.nan, "D": 3, "variance": 1.0}, "`epsilon`"),
        ({"epsilon": 1.0, "D": 0, "variance": 1.0}, "D=0"),
        ({"epsilon": 1.0, "D": 2001, "variance": 1.0}, "D=2001"),
        ({"epsilon": 1.0, "D": 3, "variance": 0.0}, "variance=0.0"),
        ({"epsilon": 1.0, "D": 3, "variance": -2.0}, "variance=-2.0"),
        ({"epsilon": 1.0, "D": 3, "variance": math.inf}, "`variance`"),
    ],
)
def test_optimal_noise_rejects_bad_arguments(kwargs: dict, needle: str) -> None:
    eps = kwargs.pop("epsilon")
    with pytest.raises(ParameterError, match=needle.replace("(", r"\(")):
        optimal_noise(eps, **kwargs)


# ------------------------------------------------------------------------- optimal_table
@pytest.mark.parametrize(
    ("eps", "D", "V", "rows"),
    [(1.0, 3, 2.0, None), (0.5, 4, 3.0, 8), (2.0, 5, 4.0, None), (0.3, 2, 0.5, 5)],
)
def test_optimal_table_rows_and_audit(eps: float, D: int, V: float, rows: int | None) -> None:
    r = optimal_table(eps, D=D, variance=V, rows=rows)
    top = D if rows is None else rows - 1
    P = r.table.probabilities  # trailing all-zero columns are trimmed: pad to j = top + D
    P = np.pad(P, ((0, 0), (0, top + D + 1 - P.shape[1])))
    assert r.table.max_count == top
    j = np.arange(P.shape[1])
    for i in range(top + 1):
        v = j - i  # the noise of each published count j
        # noise in [-min(i, D), D]: never a negative output, never beyond D
        assert not P[i, (v > D) | (v < -min(i, D))].any(), i
        assert abs(v @ P[i]) <= 1e-9, i  # zero bias per row
        assert (v * v) @ P[i] <= V + 1e-9, i  # variance cap per row
    assert P[0, 0] == 1.0 and not P[0, 1:].any()  # row 0: the point mass at 0
    # the rows of the counts >= D are translates of the stage-1 law (symmetrised)
    law = (r.law.pmf + r.law.pmf[::-1]) / 2
    for i in range(D, top + 1):
        assert P[i, i - D : i + D + 1] == pytest.approx(law, abs=1e-12), i
    assert r.delta_independent == r.law.delta
    assert r.delta_independent <= r.delta
    assert r.delta == r.result.achieved_delta
    rep = audit(r.table, epsilons=[eps])
    assert not rep.negative_outputs and rep.zeros_stay_zeros
    assert rep.max_abs_bias <= 1e-9
    # the audit of the table is the designer's delta (both the verifier's, on the same rows)
    assert rep.delta_at_epsilon[0] == pytest.approx(r.result.achieved_delta, rel=1e-12)
    # symmetrising never raises delta (joint convexity; p and its mirror have the same delta)
    assert rep.delta_at_epsilon_independent[0] <= r.delta_independent * (1 + 1e-12)
    assert rep.delta_at_epsilon_independent[0] == pytest.approx(r.delta_independent, rel=1e-6)


def test_optimal_table_rejects_too_few_rows() -> None:
    with pytest.raises(ParameterError, match="rows=3"):
        optimal_table(1.0, D=3, variance=1.0, rows=3)


# ------------------------------------------------------------------------- design_ptable
@pytest.fixture(scope="module")
def example1() -> PtableDesign:
    return design_ptable(EX1_EPS, EX1_DELTA)


def test_example1_design(example1: PtableDesign) -> None:
    d = example1
    # Sadeghi & Chien, Example 1: D* = 25, gamma = 0.5/49 - 1/(10 * 2499), V ~ 49.00
    assert d.D == EX1_D and d.method == "maxent"
    assert d.gamma == pytest.approx(EX1_GAMMA, rel=1e-15)
    assert round(d.variance, 2) == 49.00
    assert d.epsilon == EX1_EPS and d.target_delta == EX1_DELTA
    assert d.table.keysize == K32 and d.table.max_count == EX1_D
    # Example 3: p^Q(-25) = 425760 / 2^32, p^Q(-24) = (1126343 - 425760) / 2^32, ...
    row = d.table.probabilities[EX1_D]
    cq = np.array(EX2_CQ)
    assert row[:3].tolist() == (np.diff(cq, prepend=0) / K32).tolist()
    # Example 3: eps^Q ~ 0.498 < 0.5, so the applied delta at 0.5 is delta^Q = p^Q(-25)
    # (Example 3: ~9.9129974842e-5), exactly 425760 / 2^32, rounded up by the verifier
    exact = 425760 / K32
    assert exact <= d.delta <= exact * (1 + 1e-12)
    assert d.delta == pytest.approx(9.9129974842e-5, rel=1e-10)
    assert d.delta <= EX1_DELTA
    # the anchored small-count rows are far less private (row 0 is a point mass at 0)
    assert d.delta_all_counts > 0.2


def test_example1_table_is_quantised_and_audits_to_its_delta(example1: PtableDesign) -> None:
    d = example1
    P = d.table.probabilities
    assert np.array_equal(P * K32, np.floor(P * K32))  # every entry a multiple of 1/KEYSIZE
    rep = audit(d.table, epsilons=[EX1_EPS])
    assert rep.keysize == K32 and rep.lost_support == 0
    assert rep.delta_at_epsilon_independent[0] == d.delta <= EX1_DELTA
    assert rep.delta_at_epsilon[0] == d.delta_all_counts
    data = d.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["D"] == 25 and data["keysize"] == K32 and data["rows"] == 26
    assert data["delta"] == d.delta and data["gamma"] == d.gamma


def test_optimal_method_beats_maxent_at_example1(example1: PtableDesign) -> None:
    o = design_ptable(EX1_EPS, EX1_DELTA, method="optimal")
    assert o.method == "optimal" and o.gamma is None and o.D == example1.D
    assert o.delta < example1.delta  # the same D, the same variance cap, a smaller delta
    assert o.delta < example1.delta / 10
    assert o.variance <= tb.variance(EX1_GAMMA, EX1_D) + 1e-9  # within the guide's variance
    rep = audit(o.table, epsilons=[EX1_EPS])
    assert rep.lost_support == 0 and rep.delta_at_epsilon_independent[0] == o.delta
    P = o.table.probabilities
    assert np.array_equal(P * K32, np.floor(P * K32))


@pytest.mark.parametrize(
    ("eps", "delta", "K", "method"),
    [
        (1.0, 0.05, 2**8, "maxent"),
        (1.0, 0.05, 2**8, "optimal"),
        (0.5, 0.01, 2**10, "maxent"),
        (2.0, 1e-3, 2**16, "maxent"),
        (1.0, 1e-3, 2**16, "optimal"),
        (1.0, 1e-6, 2**32, "maxent"),
    ],
)
def test_design_meets_the_target_after_quantisation(
    eps: float, delta: float, K: int, method: str
) -> None:
    d = design_ptable(eps, delta, keysize=K, method=method)
    P = d.table.probabilities
    assert d.table.keysize == K
    assert np.array_equal(P * K, np.floor(P * K))  # exact multiples of 1/K
    assert d.D >= tb.design(eps, delta).D  # the search starts at the guide's D*
    rep = audit(d.table, epsilons=[eps])
    assert rep.lost_support == 0 and not rep.negative_outputs and rep.zeros_stay_zeros
    got = rep.delta_at_epsilon_independent[0]
    assert got == d.delta <= delta
    assert rep.delta_at_epsilon[0] == d.delta_all_counts >= d.delta
    # every noise value in [-D, D] keeps a key (p^Q >= 1/K) in the rows of counts >= D
    row = P[d.D, : 2 * d.D + 1]
    assert row.min() >= 1 / K


def test_quantisation_above_the_target_moves_to_the_next_D() -> None:
    # eps = 0.3, KEYSIZE 2^8, the guide's gamma at D = 3: the table as designed meets delta at
    # eps exactly at the target, but the quantised table (what the keys apply, Sadeghi & Chien
    # (4.5)) has a larger delta (4.3: quantisation can raise the privacy loss). The design must
    # not return D = 3: it moves on until the applied table meets the target (module notes).
    eps, K, D0 = 0.3, 2**8, 3
    g = tb.guide_gamma(eps, D0)
    plain = Ptable.from_noise(tb.pmf(g, D0), low=-D0, rows=D0)
    target = audit(plain, epsilons=[eps]).delta_at_epsilon_independent[0]
    applied = audit(plain.quantised(K), epsilons=[eps])
    assert applied.lost_support is None or applied.lost_support == 0
    assert applied.delta_at_epsilon_independent[0] > target  # quantisation breaks the target
    d = design_ptable(eps, target, keysize=K, D=D0)
    assert d.D > D0
    rep = audit(d.table, epsilons=[eps])
    assert rep.delta_at_epsilon_independent[0] == d.delta <= target
    assert np.array_equal(d.table.probabilities * K, np.floor(d.table.probabilities * K))


def test_quantisation_that_never_meets_the_target_raises() -> None:
    # eps = 0.3, KEYSIZE 2^8 from D = 8 on: quantised, D = 8 stays above the target taken from
    # the unquantised table, and the larger D lose support (tails below 1/KEYSIZE)
    eps, K, D0 = 0.3, 2**8, 8
    g = tb.guide_gamma(eps, D0)
    plain = Ptable.from_noise(tb.pmf(g, D0), low=-D0, rows=D0)
    target = audit(plain, epsilons=[eps]).delta_at_epsilon_independent[0]
    assert audit(plain.quantised(K), epsilons=[eps]).delta_at_epsilon_independent[0] > target
    with pytest.raises(InfeasibleDesignError, match=r"keysize=256.*lose support"):
        design_ptable(eps, target, keysize=K, D=D0)


def test_design_with_a_given_variance() -> None:
    d = design_ptable(1.0, 0.05, variance=2.0)
    assert d.gamma == pytest.approx(tb.gamma_for_variance(2.0, d.D), rel=1e-12)
    assert d.variance == pytest.approx(2.0, rel=1e-9)
    assert d.delta <= 0.05
    o = design_ptable(1.0, 0.05, variance=2.0, method="optimal", D=d.D)
    assert o.D == d.D and o.variance <= 2.0 + 1e-9 and o.delta <= d.delta


def test_infeasible_target_names_keysize() -> None:
    # 1/KEYSIZE bounds delta^Q from below (Sadeghi & Chien, Section 4.2): 1/256 > 1e-4
    with pytest.raises(InfeasibleDesignError, match="keysize=256"):
        design_ptable(EX1_EPS, EX1_DELTA, keysize=256)


@pytest.mark.parametrize(
    ("args", "kwargs", "exc", "needle"),
    [
        ((0.0, 1e-4), {}, ParameterError, "epsilon=0.0"),
        ((-1.0, 1e-4), {}, ParameterError, "epsilon=-1.0"),
        ((math.inf, 1e-4), {}, ParameterError, "`epsilon`"),
        (("a", 1e-4), {}, ParameterTypeError, "`epsilon`"),
        ((0.5, 0.0), {}, ParameterError, "delta=0.0"),
        ((0.5, 1.5), {}, ParameterError, "delta=1.5"),
        ((0.5, 1e-4), {"method": "foo"}, ParameterError, "method='foo'"),
        ((0.5, 1e-4), {"keysize": 1000}, InfeasibleDesignError, "keysize=1000"),  # 10^3 keys
        ((0.5, 1e-4), {"keysize": 1001}, ParameterError, "keysize=1001"),
        ((0.5, 1e-4), {"variance": -1.0}, ParameterError, "variance=-1.0"),
        ((0.5, 1e-4), {"variance": 0.0}, ParameterError, "variance=0.0"),
        ((0.5, 1e-4), {"D": 0}, ParameterError, "D=0"),
        ((0.5, 1e-4), {"D": 2.5}, ParameterTypeError, "D=2.5"),
        ((0.5, 1e-4), {"rows": 3}, ParameterError, "rows=3"),
    ],
)
def test_design_rejects_bad_arguments(args: tuple, kwargs: dict, exc: type, needle: str) -> None:
    with pytest.raises(exc, match=needle) as info:
        design_ptable(*args, **kwargs)
    assert "`" in str(info.value)  # the parameter is named in backticks
