r"""Exact hockey-stick divergences of pairs, rounded up: float classification, exact sums.

The pair path (:mod:`rainbowdp._verify.pairs`) answers :math:`\delta(\epsilon)` of a pair (P, Q) as
the graph path does: the smallest float at least :math:`\max\{H_L(P\|Q), H_L(Q\|P)\}`, where
:math:`H_L(P\|Q) = \sum_v \max(P(v) - L\,Q(v), 0)` is taken exactly at the rational lower
enclosure :math:`L \le e^\epsilon` (200 bits, :func:`rainbowdp._verify.exact.enclose_exp`).

With S the outputs where :math:`P(v) > L\,Q(v)`, :math:`H_L = \sum_S P - L \sum_S Q`: two exact
sums of floats and one product. Each output is put in S or left out by its float likelihood
ratio :math:`r = \mathrm{fl}(P(v)/Q(v))` (inf where Q(v) = 0 < P(v); outputs with P(v) = 0 add
nothing): :math:`r > \mathrm{fl}(\hat x (1 + 2^{-40}))` proves :math:`P(v) > L\,Q(v)` and
:math:`r < \mathrm{fl}(\hat x (1 - 2^{-40}))` proves :math:`P(v) < L\,Q(v)`, with
:math:`\hat x = \mathrm{fl}(L)`: each rounding is within :math:`2^{-53}` relative, a quotient
that overflows exceeds every L, and one that underflows is below 1 <= L. The few outputs left
between the two (ties, and likelihood ratios within 2^-40 of L) are classified in exact
integers. The sums are exact (:func:`exact_sum`: ``math.fsum`` is correctly rounded, so
:math:`\sum = s_1 + \mathrm{fsum}(x, -s_1)`, and so on until the residual is 0; for batches,
:func:`exact_sums`), and the result is rounded up in integers
(:func:`rainbowdp._verify.exact.float_above`): the same float as the integers of the graph path,
with no float summation error to bound.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from itertools import accumulate

import numpy as np

from .exact import EXP_BITS, P_SHIFT, ExpEnclosure, float_above, int_list

__all__ = [
    "LIMB_MIN",
    "LIMB_SHIFT",
    "exact_sum",
    "exact_sums",
    "limb_rows",
    "pair_delta",
    "pair_delta_positive",
    "pair_profile",
    "rows_deltas",
    "shifts",
]

#: Relative margin around fl(L) of the float classification.
_MARGIN = 2.0**-40


def exact_sum(xs: list[float]) -> int:
    r"""The exact sum of the floats ``xs`` (finite, sum below 2^1000) times :math:`2^{1074}`.

    ``math.fsum`` returns the correctly rounded sum; appending its negation leaves the exact
    residual, whose ``fsum`` is the next part, until it is 0 (each part is at most
    :math:`2^{-53}` of the one before and all are multiples of :math:`2^{-1074}`, so at most
    21 rounds; usually 2). ``xs`` is extended in place."""
    if len(xs) == 1:
        return float_int(xs[0])
    total = 0
    s = math.fsum(xs)
    while s:
        n, d = s.as_integer_ratio()  # d = 2^j
        total += n << (P_SHIFT + 1 - d.bit_length())
        xs.append(-s)
        s = math.fsum(xs)
    return total


def float_int(x: float) -> int:
    """``x * 2**1074`` as an exact integer (x a finite float >= 0 below 2^1000)."""
    n, d = x.as_integer_ratio()
    return n << (P_SHIFT + 1 - d.bit_length())


def _bounds(enc: ExpEnclosure) -> tuple[float, float]:
    """Floats ``(hi, lo)``: a float ratio above hi proves P > L Q, one below lo P < L Q."""
    x = enc.lo_num / (1 << EXP_BITS)  # correctly rounded
    return x * (1.0 + _MARGIN), x * (1.0 - _MARGIN)


def _in_s(xs: list[float], ys: list[float], enc: ExpEnclosure) -> tuple[int, int]:
    """The exact sums (times 2^1074) of the outputs (xs, ys) with P > L Q: the outputs the
    floats leave between the margins, compared in integers."""
    big_a = big_b = 0
    for x, y in zip(xs, ys, strict=True):
        xi, yi = float_int(x), float_int(y)
        if (xi << EXP_BITS) > yi * enc.lo_num:
            big_a += xi
            big_b += yi
    return big_a, big_b


def _delta_one_way(a: list[float], b: list[float], enc: ExpEnclosure, hi: float, lo: float) -> int:
    r""":math:`H_L(a\|b)` times :math:`2^{1074 + 200}`, exactly (a, b: lists of floats)."""
    sa: list[float] = []
    sb: list[float] = []
    ma: list[float] = []
    mb: list[float] = []
    for x, y in zip(a, b, strict=True):
        if not x:  # a zero term
            continue
        r = x / y if y else math.inf  # (y = 0 or -0.0: an infinite ratio)
        if r > hi:
            sa.append(x)
            sb.append(y)
        elif r >= lo:  # between the margins
            ma.append(x)
            mb.append(y)
    big_a, big_b = exact_sum(sa), exact_sum(sb)
    if ma:
        extra_a, extra_b = _in_s(ma, mb, enc)
        big_a, big_b = big_a + extra_a, big_b + extra_b
    return max(0, (big_a << EXP_BITS) - enc.lo_num * big_b)


def pair_delta(pair: np.ndarray, enc: ExpEnclosure, one_way: bool) -> float:
    """δ of one pair (rows of ``pair``, (2, q)) at an enclosure with ``k == 0``, not
    saturated: :func:`_delta_one_way` on Python numbers; for a long pair, the classification
    in numpy."""
    hi, lo = _bounds(enc)
    dirs = 1 if one_way else 2
    if pair.shape[1] > _LONG:
        a, b = pair[:dirs], pair[::-1][:dirs]
        inside, between = _classify(a, b, hi, lo)
        odd = any_rows(between).tolist()
        h = 0
        for i in range(dirs):
            keep = inside[i]
            big_a = exact_sum(a[i, keep].tolist())
            big_b = exact_sum(b[i, keep].tolist())
            if odd[i]:
                extra_a, extra_b = _in_s(a[i, between[i]].tolist(), b[i, between[i]].tolist(), enc)
                big_a, big_b = big_a + extra_a, big_b + extra_b
            h = max(h, (big_a << EXP_BITS) - enc.lo_num * big_b)
    else:
        p, r = pair.tolist()
        h = _delta_one_way(p, r, enc, hi, lo)
        if not one_way:
            h = max(h, _delta_one_way(r, p, enc, hi, lo))
    return float_above(h, P_SHIFT + EXP_BITS)


def pair_delta_positive(pair: np.ndarray, encs: list[ExpEnclosure], one_way: bool) -> list[float]:
    r""":func:`pair_delta` at each enclosure of ``encs`` (``k == 0``, not saturated) of a
    checked pair (rows summing to 1 within 1e-9, as :func:`rainbowdp._verify.pairs.as_pairs` and
    ``check_probability_vector`` ensure) whose entries are all at least :math:`2^{-60}`, with
    fewer than 2^15 outputs: the same floats from fewer numpy calls. The caller checks these
    conditions (:func:`rainbowdp._verify.pairs._profile`).

    Both directions are classified from one array of float ratios, ``pair / pair[::-1]``
    (row 0: P/Q, row 1: Q/P; no zero divisors; with ``one_way`` row 0 only). Every entry x
    is cut into three integer limbs (:func:`_limbs`), and one product of the six limb rows
    with the 0/1 masks of S gives every sum: :math:`\sum_S P` and :math:`\sum_S Q` of each
    direction, as integers on the scale :math:`2^{113}`. Ratios between the margins (rare)
    are compared in integers (:func:`_in_s`). The ratios and the limbs serve every ε."""
    ratio = pair / pair[::-1] if not one_way else pair[:1] / pair[1:]
    limbs = _limbs(pair).reshape(6, -1)  # (l1 P, l1 Q, l2 P, l2 Q, l3 P, l3 Q)
    out = []
    for enc in encs:
        hi, lo = _bounds(enc)
        inside = ratio > hi
        between = None
        if np.count_nonzero(ratio >= lo) != np.count_nonzero(inside):
            between = (ratio >= lo) & ~inside  # ratios within 2^-40 of fl(L)
        sums = (limbs @ inside.T.astype(np.float64)).tolist()  # (6, dirs)
        h = 0
        for d in range(ratio.shape[0]):
            big_a, big_b = (
                _from_limbs(sums[k][d], sums[k + 2][d], sums[k + 4][d]) for k in (d, 1 - d)
            )
            if between is not None:
                odd = between[d]
                extra_a, extra_b = _in_s(pair[d, odd].tolist(), pair[1 - d, odd].tolist(), enc)
                big_a += extra_a >> (P_SHIFT - LIMB_SHIFT)
                big_b += extra_b >> (P_SHIFT - LIMB_SHIFT)
            h = max(h, (big_a << EXP_BITS) - enc.lo_num * big_b)
        out.append(float_above(h, LIMB_SHIFT + EXP_BITS))
    return out


def any_rows(x: np.ndarray) -> np.ndarray:
    """Whether each row of the 2-D boolean array ``x`` has a true entry: ``x.any(axis=1)``,
    always an array (bool, (n,))."""
    return np.logical_or.reduce(x, axis=1)


def _classify(a: np.ndarray, b: np.ndarray, hi: float, lo: float) -> tuple[np.ndarray, np.ndarray]:
    """``(inside, between)``: outputs proved in S by their float ratio, and those between the
    margins (to compare in integers); outputs with a = 0 are in neither (zero terms)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        ratio = np.abs(a / b)  # fl(a/b); inf where b is 0 < a (also b = -0.0), nan at 0/0
    inside = ratio > hi
    return inside, (ratio >= lo) & ~inside


def pair_profile(pair: np.ndarray, encs: list[ExpEnclosure], one_way: bool) -> list[float]:
    r""":func:`pair_delta` at every enclosure of ``encs`` (``k == 0``, not saturated), with the
    likelihood ratios of each direction sorted once.

    S at each L is then a prefix of the outputs by decreasing float ratio, up to the ratios
    between the margins around fl(L), which are classified in integers; :math:`\sum_S a` and
    :math:`\sum_S b` are prefix sums of exact integers. Each ε then costs two bisections,
    where :func:`pair_delta` reads every output."""
    dirs = [(pair[0], pair[1])] if one_way else [(pair[0], pair[1]), (pair[1], pair[0])]
    tables = []
    for a, b in dirs:
        live = a > 0  # zero P entries give zero terms
        a, b = a[live], b[live]
        with np.errstate(divide="ignore", over="ignore"):
            ratio = np.abs(a / b)  # inf where b is 0 (or -0.0): always in S
        order = np.argsort(-ratio, kind="stable")
        xs, ys = int_list(a[order]), int_list(b[order])
        tables.append(
            (
                (-ratio[order]).tolist(),  # increasing, for bisect
                xs,
                ys,
                list(accumulate(xs, initial=0)),
                list(accumulate(ys, initial=0)),
            )
        )
    out = []
    for enc in encs:
        hi, lo = _bounds(enc)
        h = 0
        for neg, xs, ys, pre_a, pre_b in tables:
            i = bisect_left(neg, -hi)  # ratios above hi: in S
            j = bisect_right(neg, -lo)  # ratios from lo up: in S or not, decided exactly
            big_a, big_b = pre_a[i], pre_b[i]
            for t in range(i, j):
                if (xs[t] << EXP_BITS) > ys[t] * enc.lo_num:
                    big_a += xs[t]
                    big_b += ys[t]
            h = max(h, (big_a << EXP_BITS) - enc.lo_num * big_b)
        out.append(float_above(h, P_SHIFT + EXP_BITS))
    return out


#: Outputs above which :func:`pair_delta` classifies in numpy.
_LONG = 96


#: Entries at least this (or 0) are integers once multiplied by 2^113 (:func:`_limb_sums`).
LIMB_MIN = 2.0**-60
#: Scale of :func:`_limb_sums`.
LIMB_SHIFT = 113


def _limbs(x: np.ndarray) -> np.ndarray:
    r"""(3, n, q): three integer limbs :math:`l_1, l_2, l_3` of each entry of ``x`` (n, q),
    entries 0 or at least :math:`2^{-60}` and at most 1.5, with
    :math:`2^{113} x = 2^{75} l_1 + 2^{37} l_2 + l_3` exactly.

    :math:`l_1 = \lfloor 2^{38} x \rfloor`; the fraction :math:`2^{38} x - l_1` times
    :math:`2^{38}` gives :math:`l_2` (its floor), and the fraction left times :math:`2^{37}`
    gives :math:`l_3`. Scalings by powers of two, floors and fractions are exact, and
    :math:`l_3` is an integer because x >= 2^-60 has no bits below :math:`2^{-112}`. So
    :math:`l_1 \le 2^{38} x`, :math:`l_2 < 2^{38}` and :math:`l_3 < 2^{37}`. In rows summing
    to at most 2 over fewer than 2^15 outputs, the sums of the first limbs are at most 2^39 and
    those of the others below 2^53: every partial sum, of any subset in any order, is an
    integer below 2^53, so float64 sums and products with 0/1 masks are exact (a matrix
    product is taken to form each entry as a sum of products, as BLAS ``dgemm`` does; a
    Strassen-type product, which no BLAS uses for ``dgemm``, would not keep this)."""
    f = np.empty((3, *x.shape))
    l1, l2, l3 = f
    np.multiply(x, 2.0**38, out=l3)
    np.floor(l3, out=l1)
    l3 -= l1
    l3 *= 2.0**38
    np.floor(l3, out=l2)
    l3 -= l2
    l3 *= 2.0**37
    return f


def _from_limbs(s1: float, s2: float, s3: float) -> int:
    """The integer :math:`2^{75} s_1 + 2^{37} s_2 + s_3` of three limb sums (floats holding
    integers)."""
    return (int(s1) << 75) + (int(s2) << 37) + int(s3)


def _limb_sums(x: np.ndarray) -> tuple[list[float], list[float], list[float]]:
    r"""Per row of ``x`` (n, q), q < 2^15, entries 0 or at least 2^-60, row sums at most 2:
    the sums :math:`s_1, s_2, s_3` of the limbs of :func:`_limbs` (exact float integers),
    with :math:`2^{113} \sum_v x_v = 2^{75} s_1 + 2^{37} s_2 + s_3`."""
    s1, s2, s3 = _limbs(x).sum(axis=2).tolist()
    return s1, s2, s3


def limb_rows(*arrays: np.ndarray) -> np.ndarray:
    """Rows (bool, (n,)) whose entries in every array (n, q) are 0 or at least 2^-60 and sum
    to at most 2, with q < 2^15: the rows :func:`exact_sums` sums on the scale 2^113 (any
    part of such a row too)."""
    n, q = arrays[0].shape
    if q >= 2**15:
        return np.zeros(n, dtype=bool)
    ok = np.ones((n, q), dtype=bool)
    for x in arrays:
        ok &= (x == 0) | (x >= LIMB_MIN)
    rows = np.logical_and.reduce(ok, axis=1)  # (ok.all(axis=1), typed as an array)
    for x in arrays:
        rows &= x.sum(axis=1) <= 1.5  # (the float sum is within 2^-38 of the sum: <= 2)
    return rows


def exact_sums(x: np.ndarray, limbs: np.ndarray) -> list[int]:
    """The exact sum of each row of ``x`` (n, q; entries in [0, 2]) times 2^113 where
    ``limbs`` (:func:`limb_rows`) and times 2^1074 elsewhere."""
    out = [0] * x.shape[0]
    if limbs.any():
        s1, s2, s3 = _limb_sums(np.where(limbs[:, None], x, 0.0))
        for i in np.flatnonzero(limbs).tolist():
            out[i] = _from_limbs(s1[i], s2[i], s3[i])
    for i in np.flatnonzero(~limbs).tolist():
        out[i] = exact_sum(x[i].tolist())
    return out


def shifts(limbs: np.ndarray) -> list[int]:
    """The scales (powers of two) of :func:`exact_sums`, per row."""
    return np.where(limbs, LIMB_SHIFT, P_SHIFT).tolist()


def rows_deltas(a: np.ndarray, b: np.ndarray, enc: ExpEnclosure) -> list[float]:
    r"""The smallest float at least :math:`H_L(a_i\|b_i)`, exactly, for each row i of the
    arrays (n, q) ``a`` and ``b`` (:func:`_delta_one_way` with the classification vectorised;
    rows whose entries are 0 or at least 2^-60 are summed exactly by :func:`_limb_sums`)."""
    n = a.shape[0]
    inside, between = _classify(a, b, *_bounds(enc))
    limbs = limb_rows(a, b)
    big_as = exact_sums(np.where(inside, a, 0.0), limbs)
    big_bs = exact_sums(np.where(inside, b, 0.0), limbs)
    out = [0.0] * n
    for i, (shift, odd) in enumerate(zip(shifts(limbs), any_rows(between).tolist(), strict=True)):
        big_a, big_b = big_as[i], big_bs[i]
        if odd:  # (on the scale 2^113, the integers of the limb rows stay exact)
            extra_a, extra_b = _in_s(a[i, between[i]].tolist(), b[i, between[i]].tolist(), enc)
            big_a += extra_a >> (P_SHIFT - shift)
            big_b += extra_b >> (P_SHIFT - shift)
        out[i] = float_above((big_a << EXP_BITS) - enc.lo_num * big_b, shift + EXP_BITS)
    return out
