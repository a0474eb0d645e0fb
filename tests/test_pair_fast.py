"""The fast pair paths (floats that classify, exact sums): the exact values, and they decide.

``rainbowdp._verify.pair_delta`` (δ(ε) of pairs) and ``rainbowdp._verify.pair_epsilon`` (ε(δ) of
pairs) must give, bit for bit, what the definitions give in rationals: δ(ε) the smallest float at
least max(H_L(P||Q), H_L(Q||P)) at the 200-bit lower enclosure L of e^ε, and ε(δ) the value of the
exact search over the breakpoints (``epsilon_core`` on the one edge). They must also *decide*
almost every ordinary pair by themselves (else they would be slow, not wrong): asserted too.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rainbowdp as rdp
import rainbowdp._verify.rounding as rounding
from rainbowdp._verify import pair_delta as _pair_delta
from rainbowdp._verify import pair_epsilon as _pair_epsilon
from rainbowdp._verify.epsilon import epsilon_core
from rainbowdp._verify.exact import P_SHIFT, enclose, exp_scaled, float_above, float_at_least
from rainbowdp._verify.pairs import _EDGE
from rainbowdp._verify.rounding import exp_lower, log_up


def oracle(pair: np.ndarray, one_way: bool = False) -> rdp.Mechanism:
    """The two-node graph of a pair (the graph path)."""
    q = pair.shape[1]
    g = rdp.RainbowGraph.from_edges(
        [[0, 1]],
        outputs=list(range(q)),
        rainbow_table=[list(range(q))],
        rainbow_ids=[0, 0],
        directed=one_way,
    )
    return rdp.Mechanism(g, pair)


finite = st.floats(min_value=0.0, max_value=2.0, allow_nan=False, allow_subnormal=True)


def delta_oracle(pair: np.ndarray, eps: float, one_way: bool) -> float:
    """The definition in Fractions: the smallest float at least max_dir H_L."""
    lo = enclose(eps).lo
    a = [Fraction(x) for x in pair[0].tolist()]
    b = [Fraction(x) for x in pair[1].tolist()]

    def h(x: list[Fraction], y: list[Fraction]) -> Fraction:
        return sum((max(u - lo * v, Fraction(0)) for u, v in zip(x, y, strict=True)), Fraction(0))

    best = h(a, b) if one_way else max(h(a, b), h(b, a))
    return float_at_least(best)


def random_pair(rng: np.random.Generator, q: int, kind: int) -> np.ndarray:
    """Pairs of the shapes that matter: smooth, spiky (tiny entries), holes, equal rows, ties."""
    p = rng.dirichlet(np.ones(q) * rng.choice([0.2, 1.0, 5.0]))
    r = rng.dirichlet(np.ones(q) * rng.choice([0.2, 1.0, 5.0]))
    if kind == 1:
        p = p**8
        r = r**8
    elif kind == 2:
        p[rng.random(q) < 0.3] = 0.0
        r[rng.random(q) < 0.3] = 0.0
    elif kind == 3:
        r = p.copy()
    elif kind == 4:  # many equal ratios
        r = np.round(p * 4 + 1) * p
    elif kind == 5:  # a subnormal entry
        p[0] = 5e-324
    pair = np.stack([p, r])
    pair[pair.sum(axis=1) == 0, 0] = 1.0
    return pair / pair.sum(axis=1, keepdims=True)


# ---------------------------------------------------------------------- the exact pieces
@settings(max_examples=200, deadline=None, derandomize=True)
@given(xs=st.lists(finite, min_size=0, max_size=60))
def test_exact_sum_is_the_sum(xs):
    assert _pair_delta.exact_sum(list(xs)) == sum(map(Fraction, xs), Fraction(0)) * 2**P_SHIFT


@settings(max_examples=300, deadline=None, derandomize=True)
@given(n=st.integers(0, 2**400), shift=st.integers(0, 2400))
def test_float_above_is_the_smallest_float_above(n, shift):
    assert float_above(n, shift) == float_at_least(Fraction(n, 2**shift))


@settings(max_examples=100, deadline=None, derandomize=True)
@given(
    rows=st.lists(
        st.lists(
            st.one_of(st.just(0.0), st.floats(2.0**-60, 1.0), st.floats(0.0, 2.0**-60)),
            min_size=3,
            max_size=3,
        ),
        min_size=1,
        max_size=8,
    )
)
def test_exact_sums_on_both_scales(rows):
    x = np.array(rows)
    limbs = _pair_delta.limb_rows(x)
    got = _pair_delta.exact_sums(x, limbs)
    for row, s, shift in zip(rows, got, _pair_delta.shifts(limbs), strict=True):
        assert s == sum(map(Fraction, row), Fraction(0)) * 2**shift
    # entries below 2^-60 are not integers on the limb scale, and the limb sums are exact for
    # row sums up to 2: other rows take the other scale
    assert limbs.tolist() == [
        all(v == 0 or v >= 2.0**-60 for v in row) and sum(row) <= 1.5 for row in rows
    ]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    e=st.one_of(
        st.floats(0.0, 1.0), st.floats(0.0, 689.9), st.integers(0, 44150).map(lambda j: j / 64)
    )
)
def test_exp_lower_is_a_tight_lower_bound(e):
    lo, hi = exp_scaled(Fraction(e), 120)
    ell = Fraction(exp_lower(e))
    assert ell <= Fraction(lo, 2**120)  # below e^e
    assert ell >= Fraction(hi, 2**120) * (1 - Fraction(1, 2**46))  # within 2^-46 of it


def test_log_up_unchanged_by_the_fast_cover_test(monkeypatch):
    rng = np.random.default_rng(3)
    xs = [Fraction(1) + Fraction(int(k), 2**60) for k in rng.integers(1, 2**62, 200)]
    xs += [Fraction(int(n), int(d)) for n, d in rng.integers(1, 2**62, (200, 2)) if n > d]
    xs += [Fraction(2**900 + 1, 3), Fraction(3, 2)]
    fast = [log_up(x) for x in xs]
    monkeypatch.setattr(rounding, "_FAST_COVER_MAX", -1.0)  # the 64-bit integers only
    assert [log_up(x) for x in xs] == fast
    assert all(enclose(e).lo >= x for e, x in zip(fast, xs, strict=True))


# ---------------------------------------------------------------------- δ(ε) of pairs
EPS = [0.0, 1e-12, 0.1, 1.0, math.log(3), 7.5, 60.0, 650.0]
DELTAS = [0.0, 5e-324, 1e-300, 1e-15, 1e-9, 1e-6, 1e-3, 0.05, 0.3, 0.4, 1.0]


#: The random pairs of the hypothesis tests: shape (random_pair's kind), seed, direction.
PAIRS = {"kind": st.integers(0, 5), "seed": st.integers(0, 2**32 - 1), "one_way": st.booleans()}


@settings(max_examples=120, deadline=None, derandomize=True)
@given(q=st.sampled_from([1, 2, 5, 32, 33, 96, 97, 150]), eps=st.sampled_from(EPS), **PAIRS)
def test_pair_delta_is_the_definition(q, kind, seed, eps, one_way):
    pair = random_pair(np.random.default_rng(seed), q, kind)
    want = delta_oracle(pair, eps, one_way)
    assert _pair_delta.pair_delta(pair, enclose(eps), one_way) == want
    assert rdp.privacy_profile((pair[0], pair[1]), [eps], one_way=one_way)[0] == want


@settings(max_examples=60, deadline=None, derandomize=True)
@given(q=st.sampled_from([1, 2, 5, 40, 150]), **PAIRS)
def test_pair_profile_is_the_definition(q, kind, seed, one_way):
    """Many ε for one pair: the ratios sorted once (``pair_profile``), the same floats."""
    pair = random_pair(np.random.default_rng(seed), q, kind)
    encs = [enclose(e) for e in EPS]
    want = [delta_oracle(pair, e, one_way) for e in EPS]
    assert _pair_delta.pair_profile(pair, encs, one_way) == want
    assert rdp.privacy_profile((pair[0], pair[1]), EPS, one_way=one_way).tolist() == want


def random_batch(seed: int, q: int) -> np.ndarray:
    """Twelve pairs (12, 2, q), two of each kind of :func:`random_pair`."""
    rng = np.random.default_rng(seed)
    return np.stack([random_pair(rng, q, k % 6) for k in range(12)])


#: The random batches of the hypothesis tests.
BATCHES = {"seed": st.integers(0, 2**32 - 1), "one_way": st.booleans()}


@settings(max_examples=40, deadline=None, derandomize=True)
@given(q=st.sampled_from([2, 7, 40]), eps=st.sampled_from(EPS), **BATCHES)
def test_batch_delta_is_the_definition(q, seed, eps, one_way):
    batch = random_batch(seed, q)
    got = rdp.privacy_profile(batch, [eps], one_way=one_way)[:, 0]
    assert got.tolist() == [delta_oracle(pair, eps, one_way) for pair in batch]


# ---------------------------------------------------------------------- pairs of positive entries
def positive_pair(rng: np.random.Generator, q: int, kind: int) -> np.ndarray:
    """:func:`random_pair` of a kind without zeros, every entry at least 2^-60 (kind 3: equal
    rows, every ratio 1; kind 4: many equal ratios; kind 6: the rows swapped at two outputs,
    ratios exactly reciprocal)."""
    pair = random_pair(rng, q, {6: 0}.get(kind, kind))
    pair = np.maximum(pair, 2.0**-59) if kind != 3 else np.maximum(pair, 2.0**-59)[[0, 0]]
    if kind == 6:
        pair[1] = pair[0]
        pair[1, [0, -1]] = pair[0, [-1, 0]]
    pair /= pair.sum(axis=1, keepdims=True)
    assert pair.min() >= _pair_delta.LIMB_MIN
    return pair


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    x=st.one_of(
        st.floats(min_value=2.0**-60, max_value=1.5),
        st.sampled_from([2.0**-60, math.nextafter(2.0**-60, 1.0), 0.5, 1.0, 1.5]),
    )
)
def test_pair_limbs_cut_each_entry_exactly(x):
    """2^113 x = 2^75 l1 + 2^37 l2 + l3, integer limbs within their bounds, for every
    x in [2^-60, 1.5]."""
    limbs = _pair_delta._limbs(np.array([[x], [1.5 - x / 2]]))  # (3, 2, 1)
    for row, value in ((0, x), (1, 1.5 - x / 2)):
        l1, l2, l3 = (Fraction(v) for v in limbs[:, row, 0].tolist())
        assert all(v.denominator == 1 and v >= 0 for v in (l1, l2, l3))
        assert l1 <= 2**38 * 1.5 and l2 < 2**38 and l3 < 2**37
        assert l1 * 2**75 + l2 * 2**37 + l3 == Fraction(value) * 2**113


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    q=st.sampled_from([1, 2, 49, 100, 300]),
    kind=st.sampled_from([0, 1, 3, 4, 6]),
    seed=st.integers(0, 2**32 - 1),
    eps=st.sampled_from(EPS),
    one_way=st.booleans(),
)
def test_positive_pair_delta_is_the_definition(q, kind, seed, eps, one_way):
    """One product of limbs and masks (``pair_delta_positive``): the rational definition,
    also where ratios sit exactly on fl(L) (equal rows or swapped outputs at ε = 0)."""
    pair = positive_pair(np.random.default_rng(seed), q, kind)
    want = delta_oracle(pair, eps, one_way)
    assert _pair_delta.pair_delta_positive(pair, [enclose(eps)], one_way) == [want]
    assert rdp.privacy_profile((pair[0], pair[1]), [eps], one_way=one_way)[0] == want
    assert rdp.hockey_stick(pair[0], pair[1], eps) == delta_oracle(pair, eps, True)


@pytest.mark.parametrize("one_way", [False, True])
def test_positive_pair_profile_shares_the_limbs(one_way):
    """Several ε of one long positive pair from one set of ratios and limbs, with ε beyond the
    float range (the graph path's kernels) mixed in: each the definition, in order."""
    pair = positive_pair(np.random.default_rng(5), 120, 4)
    eps = [0.0, 0.3, 800.0, math.log(3), 2.0, 900.0, 7.5]  # 7 values: below the sorted path
    got = rdp.privacy_profile((pair[0], pair[1]), eps, one_way=one_way).tolist()
    assert got == [delta_oracle(pair, e, one_way) for e in eps]
    plain = [e for e in eps if e < 700]
    encs = [enclose(e) for e in plain]
    assert _pair_delta.pair_delta_positive(pair, encs, one_way) == [
        delta_oracle(pair, e, one_way) for e in plain
    ]


def test_positive_pairs_take_the_limb_path(monkeypatch):
    """A long pair of positive entries is answered by ``pair_delta_positive`` (a dispatch that
    lost it would be right and slow), one with a zero entry is not; both equal the definition."""
    from rainbowdp._verify import pairs as _pairs

    calls = []
    real = _pair_delta.pair_delta_positive
    monkeypatch.setattr(_pairs, "pair_delta_positive", lambda *a: calls.append(1) or real(*a))
    pair = positive_pair(np.random.default_rng(3), 100, 0)
    assert rdp.privacy_profile((pair[0], pair[1]), [0.5])[0] == delta_oracle(pair, 0.5, False)
    assert calls == [1]
    pair[0, 0] = 0.0
    pair[0] /= pair[0].sum()
    assert rdp.privacy_profile((pair[0], pair[1]), [0.5])[0] == delta_oracle(pair, 0.5, False)
    assert calls == [1]
    # at ε = 0 the ratios of equal rows are all exactly on fl(L) = 1: compared in integers
    pair = positive_pair(np.random.default_rng(4), 100, 3)
    assert rdp.privacy_profile((pair[0], pair[1]), [0.0])[0] == 0.0


@settings(max_examples=120, deadline=None, derandomize=True)
@given(
    q=st.sampled_from([33, 100, 300]),
    kind=st.sampled_from([0, 1, 4, 6]),
    seed=st.integers(0, 2**32 - 1),
    delta=st.sampled_from(DELTAS),
    one_way=st.booleans(),
)
def test_positive_pair_epsilon_is_the_exact_search(q, kind, seed, delta, one_way):
    """The leading points gathered by one ``take`` (``_points_positive``): the exact search."""
    pair = positive_pair(np.random.default_rng(seed), q, kind)
    want = epsilon_core(pair, _EDGE, one_way, delta)
    fast = _pair_epsilon.pair_epsilon(pair, delta, one_way, True)
    assert fast == _pair_epsilon.pair_epsilon(pair, delta, one_way, False)
    assert fast is None or fast == want
    assert rdp.epsilon_for_delta((pair[0], pair[1]), delta, one_way=one_way) == want


# ---------------------------------------------------------------------- ε(δ) of pairs


@settings(max_examples=120, deadline=None, derandomize=True)
@given(q=st.sampled_from([1, 2, 5, 32, 33, 100]), delta=st.sampled_from(DELTAS), **PAIRS)
def test_pair_epsilon_is_the_exact_search(q, kind, seed, delta, one_way):
    pair = random_pair(np.random.default_rng(seed), q, kind)
    want = epsilon_core(pair, _EDGE, one_way, delta)  # one edge: the exact search
    fast = _pair_epsilon.pair_epsilon(pair, delta, one_way)
    assert fast is None or fast == want
    (batch,) = _pair_epsilon.batch_epsilons(pair[None], delta, one_way)
    assert batch is None or batch == want
    assert rdp.epsilon_for_delta((pair[0], pair[1]), delta, one_way=one_way) == want


@settings(max_examples=60, deadline=None, derandomize=True)
@given(q=st.sampled_from([2, 10, 16, 17, 28, 64]), delta=st.sampled_from(DELTAS), **BATCHES)
def test_batch_epsilon_is_the_exact_search(q, seed, delta, one_way):
    batch = random_batch(seed, q)
    want = [epsilon_core(pair, _EDGE, one_way, delta) for pair in batch]
    assert rdp.epsilon_for_delta(batch, delta, one_way=one_way).tolist() == want


def test_a_solution_on_a_breakpoint_is_compared_exactly():
    # P = (1/2, 1/4, 1/4), Q = (1/16, 1/8, 13/16): ratios 8, 2, 4/13, all exact in binary.
    # H(x) = 1/2 - x/16 on [2, 8], so δ = 3/8 puts x* = 2 exactly on the second breakpoint:
    # the float margins cannot place that output, the exact comparison does (a tie: either side)
    pair = np.array([[0.5, 0.25, 0.25], [0.0625, 0.125, 0.8125]])
    want = epsilon_core(pair, _EDGE, True, 0.375)
    assert 0 < want - math.log(2) < 1e-12
    assert _pair_epsilon.pair_epsilon(pair, 0.375, True) == want
    assert _pair_epsilon.batch_epsilons(np.stack([pair] * 3), 0.375, True) == [want] * 3
    assert rdp.epsilon_for_delta((pair[0], pair[1]), 0.375, one_way=True) == want
    # δ = 1/4 puts x* = 4 inside a piece: decided by the floats, the same value
    fast = _pair_epsilon.pair_epsilon(pair, 0.25, True)
    assert fast is not None and fast == epsilon_core(pair, _EDGE, True, 0.25)
    assert 0 < fast - math.log(4) < 1e-12


@pytest.mark.parametrize("q", [3, 20, 100])
def test_pairs_with_zero_q_entries_are_decided(q):
    """Outputs with Q = 0 < P (an infinite privacy loss) lead every active set: finite and
    infinite answers alike come from the floats, single and batch, equal to the exact search."""
    rng = np.random.default_rng(q)
    light = []  # Q = 0 at one output where P has mass 0.01: finite from δ = 0.01 on
    for _ in range(15):
        pair = random_pair(rng, q, 0)
        pair[0] *= 0.99 / (pair[0].sum() - pair[0, 0])
        pair[0, 0] = 0.01
        pair[1, 0] = 0.0
        light.append(pair / pair.sum(axis=1, keepdims=True))
    batch = np.stack([random_pair(rng, q, 2) for _ in range(15)] + light)
    for delta in (0.0, 1e-6, 0.05, 0.3):
        want = [epsilon_core(pair, _EDGE, True, delta) for pair in batch]
        assert _pair_epsilon.batch_epsilons(batch, delta, True) == want
        assert [_pair_epsilon.pair_epsilon(pair, delta, True) for pair in batch] == want
        both = [epsilon_core(pair, _EDGE, False, delta) for pair in batch]
        assert _pair_epsilon.batch_epsilons(batch, delta, False) == both
        finite = [w < math.inf for w in want[15:]]
        assert all(finite) if delta >= 0.01 else not any(finite)


def test_negative_zero_entries_are_zeros():
    # -0.0 passes the checks (it is >= 0); its likelihood ratio must be +inf, not -inf
    p, r = np.array([0.5, 0.5]), np.array([-0.0, 1.0])
    assert rdp.privacy_profile((p, r), [1.0] * 8, one_way=True).tolist() == [0.5] * 8
    p, r = np.full(100, 0.01), np.r_[-0.0, np.full(99, 1 / 99)]
    want = delta_oracle(np.stack([p, np.abs(r)]), 1.0, True)
    assert rdp.privacy_profile((p, r), [1.0], one_way=True)[0] == want
    assert rdp.privacy_profile((p, r), [1.0] * 8, one_way=True).tolist() == [want] * 8
    assert rdp.hockey_stick(p, r, 1.0) == want


@pytest.mark.parametrize("q", [2, 10, 100])
@pytest.mark.parametrize("delta", [0.0, 5e-324, 1e-15, 1e-6, 1e-2, 0.3, 1.0])
def test_the_fast_paths_decide_ordinary_pairs(q, delta):
    """Positive random pairs: every one is decided without the exact search, single and batch
    (a path that always fell back would be correct and slow; this catches it)."""
    rng = np.random.default_rng(q)
    batch = rng.random((50, 2, q)) + 0.05
    batch /= batch.sum(axis=2, keepdims=True)
    assert None not in _pair_epsilon.batch_epsilons(batch, delta, False)
    assert all(_pair_epsilon.pair_epsilon(pair, delta, False) is not None for pair in batch)
    a = batch.reshape(-1, q)
    b = np.ascontiguousarray(batch[:, ::-1]).reshape(-1, q)
    enc = enclose(1.0)
    hi, lo = _pair_delta._bounds(enc)
    classified = (a > b * hi) | (a < b * lo)
    assert classified.mean() > 0.99  # almost no output needs integers
    assert _pair_delta.limb_rows(a, b).all()  # and the batch sums are the vectorised ones


# ---------------------------------------------------------------------- one pair's checks
@pytest.mark.parametrize(
    "bad",
    [
        [0.5, np.nan],
        [0.5, np.inf],
        [1.5, -0.5],
        [0.5, 0.4],
        [],
    ],
)
def test_checked_float64_vectors_fail_as_lists_do(bad):
    """The float64-vector shortcut of ``check_probability_vector`` raises what the general
    check raises, naming the argument."""
    good = np.array([0.5, 0.5])
    for p, q, name in ((np.array(bad, dtype=float), good, "p"), (good, np.array(bad), "q")):
        with pytest.raises(rdp.exceptions.ParameterError, match=f"`{name}`"):
            rdp.hockey_stick(p, q, 0.5)
        with pytest.raises(rdp.exceptions.ParameterError, match=f"`{name}`"):
            rdp.hockey_stick(p.tolist(), q.tolist(), 0.5)


def test_hockey_stick_of_arrays_and_lists_agree():
    rng = np.random.default_rng(11)
    for q in (1, 3, 50, 200):
        pair = random_pair(rng, q, 0)
        for e in EPS:
            want = delta_oracle(pair, e, True)
            assert rdp.hockey_stick(pair[0], pair[1], e) == want
            assert rdp.hockey_stick(pair[0].tolist(), pair[1].tolist(), e) == want


def test_rows_beyond_the_exact_budget_take_the_graph_path():
    """Above EXACT_WORK / 2 outputs the graph path reports its proved float bound (not the
    exact value) where the exact work is over budget; pairs give the same floats."""
    from rainbowdp._verify.exact import EXACT_WORK

    rng = np.random.default_rng(1)
    q = EXACT_WORK // 2 + 10
    p = rng.random(q) + 0.1
    p /= p.sum()
    r = p[::-1].copy()
    g = oracle(np.stack([p, r]))
    assert rdp.privacy_profile((p, r), [0.5]).tolist() == rdp.privacy_profile(g, [0.5]).tolist()
    p = rng.random(q) ** 3 + 0.01  # (a case where the graph path's ε is a proved bound)
    p /= p.sum()
    r = p[::-1].copy()
    g = oracle(np.stack([p, r]))
    assert rdp.epsilon_for_delta((p, r), 0.05) == rdp.epsilon_for_delta(g, 0.05)
