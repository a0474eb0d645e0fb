"""Tests of the audit on the key grid actually used: any K >= 2 keys, decimal keys k / K with
K = 10^d (the R package cellKey, Tau-Argus) as well as integer keys below a power of two."""

from __future__ import annotations

import bisect
import itertools
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rainbowdp import privacy_profile
from rainbowdp._verify.exact import enclose_exp, float_at_least
from rainbowdp.cellkey import Ptable, audit, quantised_cdf, read_ptable
from rainbowdp.cellkey._ptable_ops import grid_text, grid_type
from rainbowdp.exceptions import ParameterError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE1 = ROOT / "graphs" / "ptables" / "abs_example1.csv"
ONS256 = ROOT / "graphs" / "ptables" / "optimal_eps1_ons256.csv"


# ------------------------------------------------------------------------------ brute force
def cellkey_bounds(row: np.ndarray, decimal: bool = False) -> list[Fraction]:
    """The upper interval bounds ub_j of a row (the R package ptable: p_int_ub cumulative in
    j), 1 from the last positive entry on: the exact rationals of the float running sums, or
    on a decimal grid the running sums rounded to 12 decimals (the bounds of a file, which
    cellKey compares its decimal keys with)."""
    last = int(np.flatnonzero(row > 0)[-1])
    sums = list(itertools.accumulate(float(x) for x in row))

    def bound(s: float) -> Fraction:
        return Fraction(round(s * 1e12), 10**12) if decimal else Fraction(s)

    return [Fraction(1) if j >= last else min(bound(s), Fraction(1)) for j, s in enumerate(sums)]


def brute_force_counts(P: np.ndarray, K: int, rows: Any = None) -> dict[int, list[int]]:
    """Keys per entry of the given rows (default all): every key k / K of the grid looked up
    one by one with cellKey's rule, the first entry whose upper bound exceeds the key (lb <= key
    < ub: ``which.max(ck < ub)`` in ``lookup_freq`` of cellKey's ``.ck_perturb_cnts``), in
    exact rational arithmetic."""
    out = {}
    decimal = K > 1 and 10 ** (len(str(K)) - 1) == K and K <= 10**12
    for i in range(P.shape[0]) if rows is None else rows:
        ub = cellkey_bounds(P[i], decimal)
        n = [0] * len(ub)
        for k in range(K):
            n[bisect.bisect_right(ub, Fraction(k, K))] += 1  # the first j with key < ub_j
        out[i] = n
    return out


def exact_delta_below(
    T: Ptable, K: int, eps: float, first: int = 0, *, above: bool = False
) -> Fraction:
    r"""A lower bound on the exact δ at ε of the table as a K-grid applies it, over the edges
    (c, c + 1), c = first..I: the hockey-stick divergences with U >= e^ε (they decrease in
    e^ε), from the brute-force key counts. ``above=True``: an upper bound (L <= e^ε)."""
    used = {int(r) for r in T.row_of(np.arange(first, T.max_count + 2))}
    counts = brute_force_counts(T.probabilities, K, sorted(used))
    box = enclose_exp(eps)
    U = box.lo if above else box.hi
    best = Fraction(0)
    width = T.probabilities.shape[1] + T.max_count + 2  # a loop row may sit far below its count
    for c in range(first, T.max_count + 1):
        rows = []
        for count in (c, c + 1):
            r = int(T.row_of([count])[0])
            law = [0] * width
            for j, n in enumerate(counts[r]):
                if n:
                    law[j + count - r] += n
            rows.append(law)
        a, b = rows
        for x, y in ((a, b), (b, a)):
            h = sum(max(Fraction(p) - U * q, Fraction(0)) for p, q in zip(x, y, strict=True))
            best = max(best, h / K)
    return best


# ------------------------------------------------------------------------------ the case
def test_example1_on_a_five_digit_grid() -> None:
    """graphs/ptables/abs_example1.csv (designed for δ = 1e-4 at ε = 0.5 on counts >= D at
    KEYSIZE 2^32) applied with 5-digit decimal keys, cellKey's minimum (``ck_generate_rkeys``:
    ``nr_digits`` >= 5). Cross-check: the issue's finding, δ = 1.116e-4 on counts >= D and one
    entry lost."""
    T = read_ptable(EXAMPLE1)
    r = audit(T, epsilons=[0.5], deltas=[1e-3], keysize=10**5)
    (d,) = r.delta_at_epsilon_independent
    assert 1.1161e-4 < d <= 1.11616e-4  # above the 1e-4 target
    assert round(d, 7) == 1.116e-4  # the number
    assert d >= exact_delta_below(T, 10**5, 0.5, first=T.D)  # sound against the brute force
    # the one lost entry: count 1 published as 26 (noise +25), P(26 | 1) = 2 p(25) / 26 =
    # 7.6e-6 < 1/K. Its interval is [0.99999238, 1): no 5-digit key lies in it (the largest key
    # is 0.99999), so the keys of row 1 end at published count 25.
    assert r.lost_support == 1 and r.lost_rows == (1,)
    p = T.probabilities
    assert p[1, 26] == pytest.approx(2 * p[T.D, 0] / 26, rel=1e-4) and p[1, 26] < 1e-5
    assert T.thresholds(10**5)[1, 25] == 10**5  # c^Q reaches K before entry 26
    assert T.quantised(10**5).probabilities[1, 26] == 0.0
    assert "keysize=10^5" in repr(r) and "KEYSIZE=100000" in str(r)
    # the same table at its own 2^32 keys meets the target (docs/cellkey.md, section 2)
    assert audit(T, epsilons=[0.5]).delta_at_epsilon_independent == (9.912997484207153e-05,)


def test_eight_digit_grid_of_example1() -> None:
    """cellKey's default, 8 digits: the audit bounds the brute-force δ on counts >= D."""
    T = read_ptable(EXAMPLE1)
    r = audit(T, epsilons=[0.5], keysize=10**8)
    assert r.lost_support == 0 and r.keysize == 10**8
    (d,) = r.delta_at_epsilon_independent
    assert 9.9e-5 < d < 1.0e-4


# ------------------------------------------------------------------------------ the quantiser
@settings(max_examples=200, deadline=None)
@given(st.integers(2, 10**12), st.floats(0.0, 1.0))
def test_quantised_cdf_is_the_exact_ceiling(K: int, u: float) -> None:
    """c^Q = ceil(c K) exactly, also where the float product c * K rounds onto an integer
    (e.g. c one ulp above 0.939 and K = 999 * 10^k + 1). The bounds tried are the floats at and
    next to a grid point k / K, where that happens. (A decimal grid K = 10^d compares its keys
    with the bounds rounded to 12 decimals instead: the next test.)"""
    assume(len(str(K)) == 1 or 10 ** (len(str(K)) - 1) != K)
    c = math.floor(u * K) / K
    for x in (c, math.nextafter(c, 1.0), math.nextafter(c, 0.0)):
        cq = quantised_cdf([x, 1.0 - x], K)  # the last entry is K in any case
        assert int(cq[0]) == min(math.ceil(Fraction(x) * K), K)


def test_quantised_cdf_ceiling_example() -> None:
    c = math.nextafter(0.939, 1.0)
    assert math.ceil(c * 1001) == math.ceil(Fraction(c) * 1001)  # no tie: the product is fine
    K = 1000 * 2**20  # not a power of ten: the exact ceiling of the float bound
    assert math.ceil(c * K) == 939 * 2**20 + 0  # the float product is exact here ...
    assert quantised_cdf([c, 1.0 - c], K).tolist() == [math.ceil(Fraction(c) * K), K]
    # ... on a decimal grid the bound is read as the decimal 0.939 (cellKey's files and its
    # comparison key < p_int_ub): the keys 0.000 .. 0.938 lie below it
    assert quantised_cdf([c, 1.0 - c], 1000).tolist() == [939, 1000]


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12), st.lists(st.floats(0.0, 1.0), min_size=1, max_size=6))
def test_decimal_grids_use_the_bounds_rounded_to_12_decimals(d: int, ws: list[float]) -> None:
    """On K = 10^d the bound of entry j is the running sum rounded to 12 decimals (1 from the
    last positive entry on), and c^Q(j) the number of keys k / K below it: ceil(u_j K)."""
    w = np.array([*ws, 1.0])
    p = w / w.sum()
    K = 10**d
    cq = quantised_cdf(p, K)
    last = int(np.flatnonzero(p > 0)[-1])
    for j in range(p.size):
        u = Fraction(1) if j >= last else Fraction(round(float(np.cumsum(p)[j]) * 10**12), 10**12)
        assert int(cq[j]) == min(math.ceil(u * K), K)


def test_powers_of_two_unchanged() -> None:
    """At K = 2^k the float product is exact: the old rule, bit for bit."""
    rng = np.random.default_rng(5)
    p = rng.dirichlet(np.ones(9), size=20)
    for K in (2**8, 2**16, 2**32):
        c = np.minimum(np.cumsum(p, axis=1), 1.0)
        old = np.ceil(c * K).astype(np.int64)
        old[:, -1] = K
        np.maximum.accumulate(old, axis=1, out=old)
        assert np.array_equal(quantised_cdf(p, K), old)


# ------------------------------------------------------------------------------ random tables
@st.composite
def tables(draw: st.DrawFn) -> Ptable:
    n_rows = draw(st.integers(1, 4))
    width = draw(st.integers(1, 5))
    rows = []
    for i in range(n_rows):
        w = draw(st.lists(st.integers(0, 50), min_size=width, max_size=width))
        if not any(w):
            w[0] = 1
        row = np.zeros(n_rows + width)
        row[i : i + width] = np.asarray(w, dtype=np.float64) / sum(w)
        rows.append(row)
    above = draw(st.sampled_from(["last", "loop"]))
    s = draw(st.integers(0, n_rows - 1)) if above == "loop" else None
    return Ptable(np.array(rows), above=above, loop_start=s)


GRIDS = st.one_of(st.integers(2, 40), st.sampled_from([2, 4, 8, 16, 32, 64, 10, 100]))


@settings(max_examples=60, deadline=None)
@given(tables(), GRIDS, st.sampled_from([0.0, 0.3, 1.0, 2.5]))
def test_audit_is_the_exact_delta_of_the_grid(T: Ptable, K: int, eps: float) -> None:
    """For random tables and grids: p^Q rows are distributions of multiples of 1/K, equal to
    cellKey's rule applied key by key; the audit's δ is the verifier's δ of the quantised
    mechanism (plus the stated rounding allowance where 1/K is not a float) and bounds the
    exact δ computed in rational arithmetic."""
    Q = T.quantised(K)
    counts = brute_force_counts(T.probabilities, K)
    q = Q.probabilities
    for i, n in counts.items():
        assert sum(n) == K
        m = max(len(n), q.shape[1])
        n = n + [0] * (m - len(n))
        row = list(q[i]) + [0.0] * (m - q.shape[1])
        # every entry the nearest float to a multiple of 1/K: the brute-force count / K
        assert row == [x / K for x in n]
    assert np.allclose(q.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    (d,) = audit(T, epsilons=[eps], keysize=K).delta_at_epsilon
    (ver,) = privacy_profile(Q.mechanism(), [eps])
    if K & (K - 1) == 0:
        assert d == ver  # exact entries: the verifier's number
    else:
        allowance = Fraction(1, 2**53) * (1 + enclose_exp(eps).hi)
        assert d == min(1.0, float_at_least(Fraction(float(ver)) + allowance))
    assert Fraction(d) >= exact_delta_below(T, K, eps)


@settings(max_examples=30, deadline=None)
@given(tables(), st.sampled_from([3, 10, 12, 100]), st.sampled_from([0.0, 1e-3, 0.1, 0.5]))
def test_epsilon_at_delta_is_sound_on_any_grid(T: Ptable, K: int, delta: float) -> None:
    """ε at δ on a grid with rounded entries: the exact δ at that ε (bounded above) is within
    δ."""
    (e,) = audit(T, deltas=[delta], keysize=K).epsilon_at_delta
    if math.isfinite(e):
        assert exact_delta_below(T, K, e, above=True) <= Fraction(delta)


# ------------------------------------------------------------------------------ the key type
def test_key_type_travels_with_the_table() -> None:
    P = [[1.0, 0.0], [0.3, 0.7]]
    T = Ptable(P, keysize=10**5, key_type="decimal")
    assert T.key_type == "decimal" and T.key_digits == 5
    assert Ptable(P).key_type == "integer" and Ptable(P, keysize=256).key_digits is None
    assert T != Ptable(P, keysize=2**16) and T == Ptable(P, keysize=10**5, key_type="decimal")
    assert T.to_dict()["key_type"] == "decimal" and T.to_dict()["key_digits"] == 5
    assert "10^5 (decimal keys)" in repr(T) and "10^5 (decimal keys)" in str(T)
    D = Ptable.from_noise([0.25, 0.5, 0.25], low=-1, keysize=10**8, key_type="decimal")
    assert D.key_digits == 8 and D.quantised(2**16).key_type == "integer"
    # the audit takes the table's own grid by default
    assert audit(T, epsilon=1.0).keysize == 10**5
    with pytest.raises(ParameterError, match=r"10\^d"):
        Ptable(P, keysize=2**16, key_type="decimal")
    with pytest.raises(ParameterError, match="power of two"):
        Ptable(P, keysize=10**5)
    with pytest.raises(ParameterError, match="`key_type`"):
        Ptable(P, key_type="float")  # type: ignore[arg-type]


def test_decimal_keys_pick_the_interval_lb_le_key_lt_ub() -> None:
    """cellKey's rule on a hand example: row 1 has ub = 0.3, 1 (p = 0.3, 0.7); at 1 digit
    the keys 0.0, 0.1, 0.2 publish 0 and 0.3 .. 0.9 publish 1 (the key 0.3 is not below the
    bound 0.3, so it falls in [0.3, 1)). The decimal key k / 10 is given as the integer k."""
    T = Ptable([[1.0, 0.0], [0.3, 0.7]], keysize=10, key_type="decimal")
    assert T.noise([1] * 10, list(range(10))).tolist() == [-1] * 3 + [0] * 7
    assert T.quantised(10).probabilities.tolist() == [[1.0, 0.0], [0.3, 0.7]]
    with pytest.raises(ParameterError, match="power of two"):
        Ptable([[1.0, 0.0], [0.3, 0.7]]).noise([1], [0], keysize=100)


def test_grids_that_are_neither() -> None:
    Q = Ptable([[0.5, 0.5]]).quantised(7)
    assert Q.keysize is None and Q.probabilities.tolist() == [[4 / 7, 3 / 7]]
    assert grid_type(7) == ("integer", None) and grid_type(1000) == ("decimal", 1000)
    assert grid_type(2**20) == ("integer", 2**20)
    assert (grid_text(7), grid_text(1000), grid_text(256)) == ("7", "10^3", "2^8")
    with pytest.raises(ParameterError, match="keysize"):
        Ptable([[0.5, 0.5]]).quantised(1)


def test_key_map_tables_keep_their_grid() -> None:
    """An ONS table is applied through its key map: its own K, or a power of two."""
    T = read_ptable(ONS256)
    assert audit(T, epsilon=1.0).keysize == 256
    assert audit(T, epsilon=1.0, keysize=2**16).keysize == 2**16
    with pytest.raises(ParameterError, match="keysize=1000"):
        audit(T, epsilon=1.0, keysize=1000)


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 18), st.lists(st.floats(0.0, 1.0), min_size=1, max_size=6))
def test_the_audit_quantises_as_perturb_applies(d: int, ws: list[float]) -> None:
    """On every decimal grid 10^d (d up to 18, K <= 2^62) the audit's thresholds are the ones
    perturb(method="cellkey") applies (12-digit bounds, scaled exactly in integers)."""
    from rainbowdp.cellkey._decimal_keys import decimal_thresholds

    w = np.array([*ws, 1.0])
    T = Ptable.from_noise(w / w.sum(), low=0)
    applied = np.asarray(decimal_thresholds(T, d), dtype=object)
    assert T.thresholds(10**d).tolist() == applied.tolist()


def test_the_audit_refuses_twice_rounded_grids() -> None:
    T = Ptable.from_noise([0.25, 0.5, 0.25], low=-1)
    with pytest.raises(ParameterError, match="above 2\\^53 must be a power of two"):
        audit(T, epsilons=[1.0], keysize=10**17)
    audit(T, epsilons=[1.0], keysize=2**60)  # a power of two: one rounding, within the allowance
