"""Tests of rainbowdp.certify: exact rational certification of (ε, δ)-DP verdicts."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rainbowdp import Certificate, Verdict, builders, certify, exp_bounds
from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism
from rainbowdp.privacy import float_error_bound, verify

LN2 = math.log(2.0)
LN2_UP = math.nextafter(LN2, math.inf)


# ---------------------------------------------------------------------- independent oracle
def _ln2_bounds(terms: int = 120) -> tuple[Fraction, Fraction]:
    """ln 2 = sum_{k>=1} 1 / (k 2^k); the tail after n terms is below 1 / ((n+1) 2^n)."""
    s = sum(Fraction(1, k * 2**k) for k in range(1, terms + 1))
    return s, s + Fraction(1, (terms + 1) * 2**terms)


def _e_bounds(terms: int = 60) -> tuple[Fraction, Fraction]:
    """e = sum_k 1/k!; the tail after n terms is below 2/(n+1)!."""
    s = sum(Fraction(1, math.factorial(k)) for k in range(terms + 1))
    return s, s + Fraction(2, math.factorial(terms + 1))


def _oracle(m: Mechanism, epsilon: float) -> tuple[Fraction, Fraction]:
    """(max H_U, max H_L) over directed edges, in plain Fractions (no shared code path)."""
    lo, hi = exp_bounds(epsilon)
    rows = [[Fraction(x) for x in r] for r in m.probabilities.tolist()]
    best_lo = best_hi = Fraction(0)
    for u, v in m.graph.edges.tolist():
        for a, b in ((rows[u], rows[v]), (rows[v], rows[u])):
            h_u = sum(
                (max(pa - hi * pb, Fraction(0)) for pa, pb in zip(a, b, strict=True)), Fraction(0)
            )
            h_l = sum(
                (max(pa - lo * pb, Fraction(0)) for pa, pb in zip(a, b, strict=True)), Fraction(0)
            )
            best_lo, best_hi = max(best_lo, h_u), max(best_hi, h_l)
    return best_lo, best_hi


def _graph(n: int, q: int, edges: list[tuple[int, int]]) -> RainbowGraph:
    return RainbowGraph.from_edges(
        np.array(edges, dtype=np.intp).reshape(-1, 2),
        outputs=list(range(q)),
        rainbow_table=[list(range(q))],
        rainbow_ids=np.zeros(n, dtype=np.intp),
    )


def _random_mechanism(seed: int, n: int, q: int, kind: str) -> Mechanism:
    rng = np.random.default_rng(seed)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    keep = [e for e in pairs if rng.random() < 0.6] or [pairs[0]]
    g = _graph(n, q, keep)
    if kind == "dyadic":  # entries k / 2^m: float arithmetic in verify is often exact
        m = int(rng.integers(2, 8))
        counts = np.array([rng.multinomial(2**m, rng.dirichlet(np.ones(q))) for _ in range(n)])
        p = counts / 2.0**m
    elif kind == "close":  # neighbouring rows nearly equal: divergences near 0 and near ties
        base = rng.dirichlet(np.ones(q))
        p = base + rng.normal(scale=1e-3, size=(n, q))
        p = np.abs(p)
        p /= p.sum(axis=1, keepdims=True)
    else:
        p = rng.dirichlet(np.full(q, 0.7), size=n)
        p[rng.random((n, q)) < 0.15] = 0.0  # zeros: infinite likelihood ratios
        p[p.sum(axis=1) == 0, 0] = 1.0
        p /= p.sum(axis=1, keepdims=True)
    return Mechanism(g, p)


# ---------------------------------------------------------------------- exp_bounds
@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=0.0, max_value=700.0, allow_nan=False))
def test_exp_bounds_enclose_float_exp(eps: float) -> None:
    lo, hi = exp_bounds(eps)
    x = math.exp(eps)
    # math.exp is faithful (error < 1 ulp): the true value lies strictly between its neighbours.
    assert lo <= Fraction(math.nextafter(x, math.inf))
    assert hi >= Fraction(math.nextafter(x, 0.0))
    assert lo >= 1
    if eps == 0.0:
        assert lo == hi == 1
    else:
        assert lo < hi
        assert (hi - lo) / hi < Fraction(1, 2**190)
    assert lo.denominator <= 2**200 and hi.denominator <= 2**200


def test_exp_bounds_against_series_for_e() -> None:
    lo, hi = exp_bounds(1.0)
    e_lo, e_hi = _e_bounds()
    assert lo <= e_hi and e_lo <= hi  # the two enclosures of e intersect
    assert e_lo - lo < Fraction(1, 2**195) and hi - e_hi < Fraction(1, 2**195)


def test_exp_bounds_decide_sign_of_float_ln2() -> None:
    # The float nearest ln 2 lies below ln 2, its successor above (series for ln 2).
    l_lo, l_hi = _ln2_bounds()
    assert Fraction(LN2) < l_lo and Fraction(LN2_UP) > l_hi
    lo, hi = exp_bounds(LN2)
    assert hi < 2  # e^fl(ln 2) < 2
    assert 2 - lo < Fraction(1, 2**54)
    lo, hi = exp_bounds(LN2_UP)
    assert lo > 2


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**12), st.integers(0, 2**12))
def test_exp_bounds_multiplicative(i: int, j: int) -> None:
    a, b = i / 2**8, j / 2**8  # a + b is exact in float64
    la, ua = exp_bounds(a)
    lb, ub = exp_bounds(b)
    lab, uab = exp_bounds(a + b)
    assert la * lb <= uab and lab <= ua * ub  # e^a e^b = e^(a+b): enclosures intersect


def test_exp_bounds_bits_and_bad_input() -> None:
    lo, hi = exp_bounds(0.5, bits=64)
    assert lo.denominator <= 2**64 and hi - lo <= Fraction(2, 2**64)
    with pytest.raises(ValueError, match=r"`epsilon`.*epsilon=-1"):
        exp_bounds(-1)
    with pytest.raises(ValueError, match=r"`bits` must be >= 16, got bits=8"):
        exp_bounds(1.0, bits=8)
    with pytest.raises(TypeError, match=r"`bits` must be an integer, got bits=2.5"):
        exp_bounds(1.0, bits=2.5)


# ---------------------------------------------------------------------- random instances
_EPS = st.one_of(
    st.sampled_from([0.0, LN2, LN2_UP, math.log(1.5), math.log(3.0), 1.0]),
    st.floats(min_value=0.0, max_value=3.0, allow_nan=False),
)


@st.composite
def _instances(draw: st.DrawFn) -> tuple[Mechanism, float, float, float]:
    m = _random_mechanism(
        draw(st.integers(0, 2**32 - 1)),
        draw(st.integers(2, 5)),
        draw(st.integers(2, 5)),
        draw(st.sampled_from(["dyadic", "close", "random"])),
    )
    eps = draw(_EPS)
    req = verify(m, epsilon=eps).delta_required
    beta = float_error_bound(m.graph.n_outputs)
    how = draw(st.sampled_from(["at", "below", "band", "far", "random", "zero"]))
    if how == "at":
        delta = req
    elif how == "below":
        delta = math.nextafter(req, 0.0)
    elif how == "band":
        delta = req - draw(st.integers(1, 8)) * beta / 2
    elif how == "far":
        delta = req - 1e-9
    elif how == "zero":
        delta = 0.0
    else:
        delta = draw(st.floats(0.0, 1.0))
    delta = min(max(delta, 0.0), 1.0)
    tol = draw(st.sampled_from([0.0, 0.0, 1e-14, 1e-10]))
    return m, eps, delta, tol


@settings(max_examples=1200, deadline=None)
@given(_instances())
def test_certify_never_contradicts_float_verdict(inst) -> None:
    m, eps, delta, tol = inst
    rep = verify(m, epsilon=eps, delta=delta, tol=tol)
    cert = certify(m, epsilon=eps, delta=delta, tol=tol)
    if rep.is_private:
        assert cert.verdict != Verdict.NOT_PRIVATE
    else:
        assert cert.verdict != Verdict.PRIVATE
    full = certify(m, epsilon=eps, delta=delta, tol=tol, exact=True)
    assert full.verdict == cert.verdict
    assert full.delta_lower == cert.delta_lower
    assert cert.delta_lower <= full.delta_upper <= cert.delta_upper
    # Exact mode equals the plain-Fraction oracle; the filtered bounds enclose it.
    h_u, h_l = _oracle(m, eps)
    assert (full.delta_lower, full.delta_upper) == (h_u, h_l)
    assert cert.delta_upper - h_l <= 2 * cert.float_error
    # Verdict semantics.
    assert (cert.verdict == Verdict.PRIVATE) == (cert.delta_upper <= Fraction(delta))
    if cert.verdict == Verdict.NOT_PRIVATE:
        assert cert.delta_lower > cert.threshold
    # The float value is within the rigorous error of the exact one, which is within beta.
    beta = float_error_bound(m.graph.n_outputs)
    assert cert.float_error <= beta
    assert abs(Fraction(rep.delta_required) - h_u) <= cert.float_error
    assert abs(Fraction(rep.delta_required) - h_l) <= cert.float_error


# ---------------------------------------------------------------------- ties built on purpose
def _pair(p: list[float], q: list[float]) -> Mechanism:
    return Mechanism(builders.line(list(range(len(p))), 1), [p, q])


def test_exact_tie_at_epsilon_zero() -> None:
    # Dyadic rows, e^0 = 1 exactly: delta_required is computed without rounding.
    m = _pair([0.625, 0.25, 0.125], [0.125, 0.5, 0.375])
    req = verify(m, epsilon=0.0).delta_required
    assert req == 0.5
    c = certify(m, epsilon=0.0, delta=req)
    assert c.verdict == "private" and c.delta_lower == c.delta_upper == Fraction(1, 2)
    assert c.exp_lower == c.exp_upper == 1
    below = math.nextafter(req, 0.0)
    assert verify(m, epsilon=0.0, delta=below).is_private  # inside the float slack
    assert certify(m, epsilon=0.0, delta=below).verdict == "undecided"
    assert not verify(m, epsilon=0.0, delta=0.5 - 1e-9).is_private
    assert certify(m, epsilon=0.0, delta=0.5 - 1e-9).verdict == "not private"
    # A tolerance wider than the gap turns "not private" into "undecided", never "private".
    assert verify(m, epsilon=0.0, delta=0.5 - 1e-9, tol=1e-8).is_private
    assert certify(m, epsilon=0.0, delta=0.5 - 1e-9, tol=1e-8).verdict == "undecided"


def test_ratio_two_tie_resolved_by_exact_exponential() -> None:
    # P(v)/Q(v) = 2 exactly on the active outputs of both directions.
    m = _pair([0.5, 0.25, 0.25], [0.25, 0.25, 0.5])
    assert math.exp(LN2) == 2.0  # so the float divergence is exactly 0 ...
    rep = verify(m, epsilon=LN2)
    assert rep.edge_deltas[0] == 0.0 and rep.is_private  # the float verdict, within tolerance
    c = certify(m, epsilon=LN2)
    # the reported delta_required is never below the exact value (soundness rule)
    assert Fraction(rep.delta_required) >= c.delta_upper > 0
    # ... but e^fl(ln 2) < 2, so the exact divergence (2 - e^eps)/4 is positive and tiny.
    assert c.verdict == "undecided"
    assert 0 < c.delta_lower <= c.delta_upper < Fraction(1, 2**54)
    lo, hi = exp_bounds(LN2)
    assert c.delta_lower == (2 - hi) / 4 and c.delta_upper == (2 - lo) / 4
    # Just above ln 2 the same mechanism is exactly ε-DP.
    c = certify(m, epsilon=LN2_UP)
    assert c.verdict == "private" and c.delta_upper == 0


def test_tie_with_positive_delta() -> None:
    # H_x(P||Q) = 1/2 - x/8 + max(1/4 - x/8, 0); H_x(Q||P) = 3/4 - x/4 near x = 2; at x = 2
    # both equal 1/4 exactly.
    m = _pair([0.5, 0.25, 0.25], [0.125, 0.125, 0.75])
    assert verify(m, epsilon=LN2, delta=0.25).is_private
    c = certify(m, epsilon=LN2, delta=0.25)  # x < 2: exact delta = 3/4 - x/4 > 1/4
    assert c.verdict == "undecided"
    lo, hi = exp_bounds(LN2)
    assert c.delta_lower == Fraction(3, 4) - hi / 4 > Fraction(1, 4)
    c = certify(m, epsilon=LN2_UP, delta=0.25)  # x > 2: exact delta = 1/2 - x/8 < 1/4
    assert c.verdict == "private"
    lo, hi = exp_bounds(LN2_UP)
    assert c.delta_upper == Fraction(1, 2) - lo / 8 < Fraction(1, 4)
    assert c.worst_edge == (0, 1)


def test_subnormal_and_zero_probabilities() -> None:
    tiny = 5e-324
    m = _pair([1.0, tiny, 0.0], [0.5, 0.25, 0.25])
    c = certify(m, epsilon=0.0, delta=0.0, exact=True)
    # Exact: H(P||Q) = 1/2 + 0 + 0 (tiny < 1/4); H(Q||P) = 1/4 - 2^-1074 + 1/4.
    assert c.delta_upper == c.delta_lower == Fraction(1, 2)
    m = _pair([0.75, 0.25 - 2**-40, 2**-40], [0.75, 0.25, 0.0])
    c = certify(m, epsilon=5.0, delta=0.0, exact=True)  # Q = 0 < P: infinite ratio
    assert c.delta_lower == c.delta_upper == Fraction(1, 2**40)
    assert c.verdict == "not private" and c.worst_edge == (0, 1)


def test_huge_epsilon_beyond_float_exp() -> None:
    m = _pair([0.5, 0.5, 0.0], [0.25, 0.25, 0.5])
    c = certify(m, epsilon=800.0, delta=0.0)  # math.exp(800) overflows
    assert c.delta_upper == c.delta_lower == Fraction(1, 2) and c.verdict == "not private"
    assert certify(m, epsilon=800.0, delta=0.5).verdict == "private"


# ---------------------------------------------------------------------- scale and filter
def test_filter_checks_few_edges_on_a_long_line() -> None:
    n = 20_000
    rng = np.random.default_rng(7)
    g = builders.line([0, 1, 2], n)
    m = Mechanism(g, rng.dirichlet([20.0, 20.0, 20.0], size=n + 1))
    eps_pure = math.log(float(np.max(m.probabilities[1:] / m.probabilities[:-1]) * 1.01))
    eps_pure = max(
        eps_pure, math.log(float(np.max(m.probabilities[:-1] / m.probabilities[1:]) * 1.01))
    )
    c = certify(m, epsilon=eps_pure, delta=0.0)
    assert c.verdict == "private" and c.delta_upper == 0
    assert c.edges_checked_exactly == 1  # only the float worst edge
    c = certify(m, epsilon=0.1, delta=0.01)
    assert verify(m, epsilon=0.1, delta=0.01).n_violations > 100
    assert c.verdict == "not private" and c.edges_checked_exactly == 1
    req = verify(m, epsilon=0.1).delta_required
    c = certify(m, epsilon=0.1, delta=min(1.0, req + 1e-3))
    assert c.verdict == "private" and c.edges_checked_exactly < n // 10


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), _EPS, st.floats(0.0, 0.3))
def test_filtered_equals_exact_on_larger_graphs(seed: int, eps: float, delta: float) -> None:
    rng = np.random.default_rng(seed)
    n = 40
    pairs = np.array([(i, j) for i in range(n) for j in range(i + 1, n)])
    edges = pairs[rng.random(len(pairs)) < 0.1]
    if edges.shape[0] == 0:
        edges = pairs[:1]
    base = rng.dirichlet(np.ones(4))
    p = np.abs(base + rng.normal(scale=0.02, size=(n, 4)))
    p /= p.sum(axis=1, keepdims=True)
    m = Mechanism(_graph(n, 4, edges.tolist()), p)
    fast = certify(m, epsilon=eps, delta=delta)
    full = certify(m, epsilon=eps, delta=delta, exact=True)
    assert fast.verdict == full.verdict
    assert fast.delta_lower == full.delta_lower
    assert full.delta_upper <= fast.delta_upper <= full.delta_upper + 2 * fast.float_error
    assert full.edges_checked_exactly == m.graph.n_edges


# ---------------------------------------------------------------------- object and inputs
def test_certificate_object_and_no_edges() -> None:
    g = RainbowGraph.from_edges(
        np.empty((0, 2), dtype=np.intp), outputs=["a", "b"], rainbow_table=[[0, 1]], rainbow_ids=[0]
    )
    c = certify(Mechanism(g, [[0.5, 0.5]]), epsilon=1.0)
    assert isinstance(c, Certificate)
    assert c.verdict == "private" and c.worst_edge is None and c.edges_checked_exactly == 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.verdict = Verdict.UNDECIDED  # type: ignore[misc]
    m = _pair([0.75, 0.25], [0.25, 0.75])
    s = str(certify(m, epsilon=0.5))
    assert "not private" in s and "0.5" in s


def test_bad_inputs() -> None:
    m = _pair([0.75, 0.25], [0.25, 0.75])
    with pytest.raises(TypeError, match=r"`mechanism` must be a Mechanism, got mechanism=ndarray"):
        certify(np.zeros((2, 2)), epsilon=1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"`epsilon`.*epsilon=-0.5"):
        certify(m, epsilon=-0.5)
    with pytest.raises(ValueError, match=r"`epsilon`.*epsilon=inf"):
        certify(m, epsilon=math.inf)
    with pytest.raises(ValueError, match=r"`delta` must be in \[0, 1\], got delta=1.5"):
        certify(m, epsilon=1.0, delta=1.5)
    with pytest.raises(ValueError, match=r"`tol`.*tol=-1e-09"):
        certify(m, epsilon=1.0, tol=-1e-9)
    with pytest.raises(TypeError, match=r"`exact` must be a bool, got exact='yes'"):
        certify(m, epsilon=1.0, exact="yes")  # type: ignore[arg-type]


# ---------------------------------------------------------------------- any finite epsilon
@pytest.mark.parametrize("eps", [709.0, 710.0, 745.5, 746.0, 800.0, 1e12, 1e300])
def test_huge_epsilon_is_exact_and_cheap(eps: float) -> None:
    # Every positive float64 probability is >= 2^-1074, so once e^eps > 2^1075 the divergence
    # is the P-mass where Q = 0 (Gu et al., Definition 2 at x -> infinity); below, the scaled
    # product m 2^k Q keeps the subnormal ratio 0.5 / 5e-324 ~ e^743.7 in play.
    m = _pair([0.5, 0.25, 0.25], [5e-324, 0.5, 0.5 - 5e-324])
    c = certify(m, epsilon=eps)
    eps_needed = math.log(0.5) - math.log(5e-324)  # the largest log-ratio, about 743.75
    assert (c.verdict == "private") == (eps > eps_needed)
    assert verify(m, epsilon=eps).is_private == (c.verdict == "private")
    disjoint = _pair([0.5, 0.5, 0.0], [0.0, 0.5, 0.5])
    c = certify(disjoint, epsilon=eps, delta=0.25)
    assert c.verdict == "not private" and c.delta_lower == c.delta_upper == Fraction(1, 2)
    assert certify(disjoint, epsilon=eps, delta=0.5).verdict == "private"


def test_exp_bounds_cost_is_bounded() -> None:
    lo, hi = exp_bounds(1e4)  # about 14,400 bits: fast
    assert lo < hi and hi - lo <= (2 + hi / 2**10) / 2**200
    with pytest.raises(ValueError, match=r"at most 100000.*epsilon=1000000000000.0"):
        exp_bounds(1e12)
