r"""Proved ε(δ) of pairs: float active sets, exact sums, one exact quotient.

The pair path answers :func:`rainbowdp.epsilon_for_delta` of a pair (P, Q) as the graph path
does for the two-node graph: with :math:`x^*` the exact smallest :math:`x \ge 1` with
:math:`H_x \le \delta` in each direction (:func:`rainbowdp._verify.exact.pair_epsilon_exact`), the
answer is ``log_up`` of the larger, :math:`\hat\epsilon = \mathrm{bump}(\log
\mathrm{fl}(x^*))` (``log1p(fl(x* - 1))`` below 2), proved by :math:`L(\hat\epsilon) \ge x^*`.
Only :math:`\mathrm{fl}(x^*)` or :math:`\mathrm{fl}(x^* - 1)` is needed; this module finds it
with one exact quotient per direction instead of the exact search over the breakpoints:

1. The outputs are sorted by the float ratio a/b (a = P, b = Q for P relative to Q); the float
   hockey-stick divergence at each breakpoint gives the count k of leading outputs that form
   the candidate active set T.
2. :math:`A_T = \sum_T a` and :math:`B_T = \sum_T b` exactly (integers: three-limb float sums,
   or ``math.fsum`` expansions, :mod:`rainbowdp._verify.pair_delta`), and :math:`x_T = (A_T -
   \delta)/B_T` as a ratio of integers; Python's integer division rounds correctly, so
   :math:`\mathrm{fl}(x_T)` and :math:`\mathrm{fl}(x_T - 1)` are exact roundings.
3. T is *proved* to be the active set at :math:`x_T`: every output of T has
   :math:`a \ge x_T b` and every other :math:`a \le x_T b` (an output with equality adds 0
   on either side). On the float quotients with a relative margin of 2^-40 around
   :math:`\mathrm{fl}(x_T)` (each quotient and fl(x_T) within 2^-53 of the real values) for
   most outputs; the few within the margin (a solution on or next to a breakpoint, a tiny δ)
   are compared in integers. Then :math:`H_{x_T} = A_T - x_T B_T = \delta`, H is strictly
   decreasing there, and :math:`x^* = \max(1, x_T)`.

Outputs with Q = 0 < P have an infinite ratio and lead every T; if T holds only such outputs
and their P-mass exceeds δ (exactly, in integers), ε is infinite. If T is every output and
:math:`A_T \le \delta` (exactly: all of P is at most δ, e.g. δ = 1), every :math:`H_x \le
\sum P \le \delta`, so :math:`x^* = 1`. Where the proof fails (a
float count k off, so that T is not the active set), where a Q entry lies below 2^-1000, or
where x_T is out of (2^-900, 2^900), the pair is left to the exact search: the value is the
same float in every case.

For δ = 0, ε is infinite if some output has Q = 0 < P, and otherwise :math:`x^*` is the largest
ratio a/b (or 1): IEEE division is correctly rounded and rounding is monotone, so fl(x*) is the
largest float quotient, and fl(x* - 1) the largest :math:`\mathrm{fl}((a - b)/b)` (a - b is
exact for b < a < 2b).

The larger direction is taken on these floats (rounding is monotone), and the bumped logarithm
is proved with :func:`rainbowdp.privacy.exp_lower`, the first test of ``exp_covers``.
"""

from __future__ import annotations

import math

import numpy as np

from .exact import P_SHIFT
from .pair_delta import (
    LIMB_SHIFT,
    any_rows,
    exact_sum,
    exact_sums,
    float_int,
    limb_rows,
    shifts,
)
from .rounding import bumped, exp_exceeds

__all__ = ["batch_epsilons", "pair_epsilon"]

#: Relative margin around fl(x_T) of the ratios proved in floats.
_MARGIN = 2.0**-40
#: Answers fl(x*) at or above this go to the exact search (ε above ~620; for δ > 0,
#: :func:`_in_range` also sends quotients below its inverse).
_X_HIGH = 2.0**900
#: A Q entry below this (and above 0) sends the pair to the exact search.
_TINY = 2.0**-1000


def _branch(num: int, den: int) -> tuple[int, float]:
    """``(2, fl(x))`` for x = num/den >= 2, ``(1, fl(x - 1))`` for 1 < x < 2, ``(0, 0.0)``
    for x <= 1 (num, den > 0; Python's int division is correctly rounded)."""
    if num >= 2 * den:
        return 2, num / den
    if num > den:
        return 1, (num - den) / den
    return 0, 0.0


def _zero_delta(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """δ = 0: ``(branch, value, decided)`` per row of the arrays (n, q) (module notes)."""
    pos = b > 0
    ratio = _ratios(a, b)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        big = np.where(pos & (a >= 2.0 * b), ratio, 0.0).max(axis=1)
        above = pos & (a > b)
        small = np.where(above, (a - b) / np.where(pos, b, 1.0), 0.0).max(axis=1)
    infinite = ((b == 0) & (a > 0)).any(axis=1)  # P-mass > 0 = δ at an infinite loss
    branch = np.where(infinite, 3, np.where(big > 0, 2, np.where(above.any(axis=1), 1, 0)))
    value = np.where(infinite, np.inf, np.where(branch == 2, big, small))
    return branch, value, infinite | (value < _X_HIGH)


def _scaled_delta(dlt: float, shift: int) -> tuple[int, int]:
    """``(d, extra)``: δ = d / 2^(shift + extra) exactly, extra >= 0 as small as possible."""
    n, den = dlt.as_integer_ratio()
    j = den.bit_length() - 1
    return (n << (shift - j), 0) if j <= shift else (n, j - shift)


def _in_range(nd: tuple[int, int] | None) -> float | None:
    """fl(num/den) for ``nd`` = (num, den) with the quotient in (2^-900, 2^900), else None."""
    if nd is None or nd[1] == 0:
        return None
    num, den = nd
    if num >= den << 900 or num << 900 <= den:
        return None
    return num / den


def _quotient(big_a: int, big_b: int, scaled: tuple[int, int]) -> tuple[int, int] | None:
    """``(num, den)`` with :math:`x_T = (A - \\delta)/B` = num/den for A = big_a / 2^shift,
    B = big_b / 2^shift and ``scaled`` = ``_scaled_delta(δ, shift)``; ``None`` where
    :math:`A \\le \\delta`. ``den`` = 0 (B = 0: every output of T has Q = 0) means that the
    P-mass where Q = 0 exceeds δ: an infinite ε."""
    d, extra = scaled
    num = (big_a << extra) - d
    if num <= 0:
        return None
    return num, big_b << extra


def _ratios(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """fl(a/b) where b > 0, inf where b = 0 < a (also b = -0.0), -1 where a = b = 0."""
    pos = b > 0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.where(pos, a / np.where(pos, b, 1.0), np.where(a > 0, np.inf, -1.0))


def _delta_sorted(
    a: np.ndarray, b: np.ndarray, dlt: float, top: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The ``top`` leading outputs of each row by decreasing float ratio (all if ``top`` >= q):
    ``(a_s, b_s, r_s, in_t)``, with the candidate active sets ``in_t`` (module notes). Outputs
    outside the leading ones have float ratios at most the last one read."""
    q = a.shape[1]
    ratio = _ratios(a, b)
    if top < q:
        lead = np.argpartition(-ratio, top - 1, axis=1)[:, :top]
        order = np.take_along_axis(lead, np.argsort(-np.take_along_axis(ratio, lead, 1), 1), 1)
    else:
        order = np.argsort(-ratio, axis=1)
    a_s = np.take_along_axis(a, order, axis=1)
    b_s = np.take_along_axis(b, order, axis=1)
    r_s = np.take_along_axis(ratio, order, axis=1)
    # float H at each breakpoint j >= 1 (before adding output j); H at the first is 0 <= δ;
    # while only outputs with Q = 0 are added, H is their P-mass (no inf * 0)
    ca = np.cumsum(a_s, axis=1)[:, :-1]
    cb = np.cumsum(b_s, axis=1)[:, :-1]
    with np.errstate(invalid="ignore"):
        h_at = np.where(cb > 0, ca - r_s[:, 1:] * cb, ca)
    k = 1 + np.count_nonzero(h_at <= dlt, axis=1)
    return a_s, b_s, r_s, np.arange(order.shape[1]) < k[:, None]


#: Leading outputs by ratio that :func:`_positive_delta` sorts first (rows it does not decide
#: from them are sorted whole).
_TOP = 16


def _positive_delta(
    a: np.ndarray, b: np.ndarray, dlt: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """δ > 0: ``(branch, value, decided)`` per row (module notes): the leading outputs first,
    the rows they do not decide again on whole rows."""
    q = a.shape[1]
    hopeless = ((b > 0) & (b < _TINY)).any(axis=1)
    branch, value, decided = _solve_sorted(*_delta_sorted(a, b, dlt, _TOP), dlt, q <= _TOP)
    redo = np.flatnonzero(~decided & ~hopeless) if q > _TOP else ()
    if len(redo):
        again = _solve_sorted(*_delta_sorted(a[redo], b[redo], dlt, q), dlt, True)
        branch[redo], value[redo], decided[redo] = again
    return branch, value, decided & ~hopeless


def _solve_sorted(
    a_s: np.ndarray,
    b_s: np.ndarray,
    r_s: np.ndarray,
    in_t: np.ndarray,
    dlt: float,
    complete: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Steps 2 and 3 of the module notes on sorted rows: ``(branch, value, decided)``. Outputs
    within the margin are compared exactly; if the rows are only the leading outputs (not
    ``complete``), the last one read must be proved outside T by the floats."""
    n = a_s.shape[0]
    limbs = limb_rows(a_s, b_s)
    big_a = exact_sums(np.where(in_t, a_s, 0.0), limbs)
    big_b = exact_sums(np.where(in_t, b_s, 0.0), limbs)
    scaled = {k: _scaled_delta(dlt, k) for k in (LIMB_SHIFT, P_SHIFT)}
    branch = np.zeros(n, dtype=np.int64)
    value = np.zeros(n)
    valid = np.zeros(n, dtype=bool)
    xf = np.full(n, np.nan)
    nds: list[tuple[int, int] | None] = []
    settled = np.zeros(n, dtype=bool)  # decided whatever the floats say
    for i, shift in enumerate(shifts(limbs)):
        nds.append(nd := _quotient(big_a[i], big_b[i], scaled[shift]))
        if nd is not None and nd[1] == 0:  # the P-mass where Q = 0 exceeds δ (whatever T is)
            branch[i], value[i], settled[i] = 3, np.inf, True
        elif nd is None and complete and in_t[i].all():  # T is every output, all of P <= δ:
            settled[i] = True  # every H_x is <= δ, x* = 1 (branch 0, value 0)
        elif nd is not None and (x := _in_range(nd)) is not None:
            xf[i] = x
            branch[i], value[i] = _branch(*nd)
            valid[i] = True
    # T is the active set at x_T: proved on the float ratios with the margin, or exactly
    proved = np.where(
        in_t, r_s > (xf * (1.0 + _MARGIN))[:, None], r_s < (xf * (1.0 - _MARGIN))[:, None]
    )
    if not complete:  # the last output read is off T, proved: later ones have lower ratios
        valid &= ~in_t[:, -1] & proved[:, -1]
    decided = valid & proved.all(axis=1)
    for i in np.flatnonzero(valid & ~decided).tolist():
        cols = ~proved[i]
        sides = (a_s[i, cols].tolist(), b_s[i, cols].tolist(), in_t[i, cols].tolist())
        decided[i] = _exact_side(*sides, *nds[i])  # type: ignore[misc]
    return branch, value, decided | settled


def _exact_side(a: list[float], b: list[float], inside: list[bool], num: int, den: int) -> bool:
    """Whether a >= x b where ``inside`` and a <= x b elsewhere, for x = num/den, exactly (the
    outputs of the active set T at x and the others; ties may be on either side)."""
    for x, y, t in zip(a, b, inside, strict=True):
        lhs, rhs = float_int(x) * den, num * float_int(y)
        if (lhs < rhs) if t else (lhs > rhs):
            return False
    return True


def _proved_log(branch: int, v: float) -> float | None:
    """``log_up`` of x* from fl(x*) (branch 2), fl(x* - 1) (branch 1) or x* = 1 (branch 0),
    when the fast test of ``exp_covers`` proves it; ``None`` otherwise."""
    if branch == 0:
        return 0.0
    if branch == 3:
        return math.inf
    e = bumped(math.log(v) if branch == 2 else math.log1p(v))
    if exp_exceeds(e, v if branch == 2 else 1.0 + v):  # x* <= c (1 + 3u) either way
        return e
    return None  # pragma: no cover - the bump is far above every rounding here


def batch_epsilons(rows: np.ndarray, dlt: float, one_way: bool) -> list[float | None]:
    """Per pair of ``rows`` (n, 2, q), checked: the ε of ``epsilon_core`` on that pair, or
    ``None`` where this module does not decide it (the exact search then does)."""
    n, q = rows.shape[0], rows.shape[2]
    if one_way:
        a, b = rows[:, 0], rows[:, 1]
    else:
        a = rows.reshape(2 * n, q)
        b = np.ascontiguousarray(rows[:, ::-1]).reshape(2 * n, q)
    solve = _zero_delta(a, b) if dlt == 0.0 else _positive_delta(a, b, dlt)
    dirs = 1 if one_way else 2
    out: list[float | None] = []
    for bs, vs, ds in zip(*(x.reshape(n, dirs).tolist() for x in solve), strict=True):
        out.append(_proved_log(*max(zip(bs, vs, strict=True))) if all(ds) else None)
    return out


def _zero_one_way(a: list[float], b: list[float]) -> tuple[int, float] | None:
    """:func:`_zero_delta` of one direction given as lists."""
    big = small = 0.0
    above = False
    for x, y in zip(a, b, strict=True):
        if y == 0.0:
            if x > 0.0:
                return 3, math.inf  # P-mass > 0 = δ at an infinite loss
        elif x >= 2.0 * y:
            big = max(big, x / y)
        elif x > y:
            above = True
            small = max(small, (x - y) / y)
    if big > 0.0:
        return (2, big) if big < _X_HIGH else None
    return (1, small) if above else (0, 0.0)


def _points(a: list[float], b: list[float]) -> tuple[list[float], list[float], list[float]] | None:
    """``(ratios, a, b)`` of the outputs by decreasing float ratio a/b (inf where b = 0 < a;
    outputs with a = b = 0 left out); ``None`` if some b is tiny."""
    pts = []
    for x, y in zip(a, b, strict=True):
        if y == 0.0:  # (also -0.0)
            if x > 0.0:
                pts.append((math.inf, x, 0.0))  # an infinite loss: first in every T
            continue  # a = b = 0: no term
        if y < _TINY:
            return None
        pts.append((x / y, x, y))
    pts.sort(reverse=True)
    return [t[0] for t in pts], [t[1] for t in pts], [t[2] for t in pts]


def _points_np(pair: np.ndarray, dirs: int, top: int) -> list[tuple | None]:
    """:func:`_points` of the rows of ``pair`` (2, q), both directions sorted in one numpy call
    (``dirs`` = 1: only row 0 relative to row 1), the first ``top`` points of each (outputs
    with a = b = 0 come last with ratio -1: they add nothing to any sum; b = 0 < a first, with
    ratio inf)."""
    a, b = pair[:dirs], pair[::-1][:dirs]
    if (b < _TINY).any():  # zero or tiny Q entries: pairs to leave out, or 0/0 outputs
        bad = any_rows((b > 0) & (b < _TINY)).tolist()
        ratio = _ratios(a, b)
    else:
        bad = [False] * dirs
        ratio = a / b
    idx = (np.arange(dirs)[:, None], np.argsort(-ratio, axis=1)[:, :top])
    rs, xs, ys = ratio[idx].tolist(), a[idx].tolist(), b[idx].tolist()
    return [None if bad[i] else (rs[i], xs[i], ys[i]) for i in range(dirs)]


def _points_positive(pair: np.ndarray, dirs: int, top: int) -> list[tuple]:
    """:func:`_points_np` of a pair whose entries are all at least :math:`2^{-60}`: one array
    of ratios for both directions (row 0: P/Q, row 1: Q/P), one gather of the leading
    outputs of both, and the ratios of those read again in Python (the same correctly
    rounded quotients)."""
    ratio = pair / pair[::-1] if dirs == 2 else pair[:1] / pair[1:]
    order = np.argsort(ratio, axis=1)[:, : -top - 1 : -1]  # decreasing (ties in any order)
    g = pair.take(order, axis=1).tolist()  # g[k][d][j] = pair[k, order[d, j]]
    out = []
    for d in range(dirs):
        xs, ys = g[d][d], g[1 - d][d]
        out.append(([x / y for x, y in zip(xs, ys, strict=True)], xs, ys))
    return out


def _one_way(
    pts: tuple[list[float], list[float], list[float]] | None, dlt: float, complete: bool = True
) -> tuple[int, float] | bool | None:
    """:func:`_positive_delta` of one direction given as :func:`_points`; ``None`` where not
    decided, ``False`` where the points are the first of more (not ``complete``) and the cut
    lies beyond them. The points are sorted, so the margins are checked on the two around the
    cut."""
    if pts is None:
        return None
    rs, xs, ys = pts
    n = k = len(rs)
    sum_a = sum_b = 0.0
    for j in range(n):
        if j and sum_a - rs[j] * sum_b > dlt:
            k = j
            break
        sum_a += xs[j]
        sum_b += ys[j]
    if k == n and not complete:
        return False
    nd = _quotient(exact_sum(xs[:k]), exact_sum(ys[:k]), _scaled_delta(dlt, P_SHIFT))
    if nd is not None and nd[1] == 0:  # the P-mass where Q = 0 exceeds δ
        return 3, math.inf
    if nd is None and k == n:  # T is every output and all of P is <= δ: every H_x <= δ
        return 0, 0.0
    if nd is None or (xf := _in_range(nd)) is None:
        return None
    hi, lo = xf * (1.0 + _MARGIN), xf * (1.0 - _MARGIN)
    first = k  # the outputs of T with ratios up to hi: compared exactly
    while first > 0 and rs[first - 1] <= hi:
        first -= 1
    last = k  # the outputs off T with ratios from lo: compared exactly
    while last < n and rs[last] >= lo:
        last += 1
    if last == n and not complete:
        return False  # later outputs may lie within the margin too
    if first == k and last == k:
        return _branch(*nd)
    inside = [j < k for j in range(first, last)]
    ok = _exact_side(xs[first:last], ys[first:last], inside, *nd)
    return _branch(*nd) if ok else None


#: Outputs above which :func:`pair_epsilon` sorts with numpy (reading the first ``_TOP``
#: points first).
_LONG = 32


def pair_epsilon(
    pair: np.ndarray, dlt: float, one_way: bool, positive: bool = False
) -> float | None:
    """:func:`batch_epsilons` of one pair (rows of ``pair``, (2, q)), on Python numbers;
    ``positive``: every entry is at least :math:`2^{-60}` (:func:`_points_positive`)."""
    dirs = 1 if one_way else 2
    q = pair.shape[1]
    found: list[tuple[int, float] | bool | None]
    if dlt == 0.0:
        p, r = pair.tolist()
        found = [_zero_one_way(p, r)] if one_way else [_zero_one_way(p, r), _zero_one_way(r, p)]
    elif q > _LONG:
        points = _points_positive if positive else _points_np
        found = [_one_way(pts, dlt, complete=False) for pts in points(pair, dirs, _TOP)]
        if False in found:  # a cut beyond the first points: all of them, where needed
            full = points(pair, dirs, q)
            found = [_one_way(full[i], dlt) if f is False else f for i, f in enumerate(found)]
    else:
        p, r = pair.tolist()
        found = [_one_way(_points(p, r), dlt)]
        if not one_way:
            found.append(_one_way(_points(r, p), dlt))
    solved = [f for f in found if isinstance(f, tuple)]
    if len(solved) < len(found):  # None: undecided (no False is left: every point was read)
        return None
    return _proved_log(*max(solved))
