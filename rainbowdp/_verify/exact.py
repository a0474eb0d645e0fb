r"""Rigorous arithmetic behind every privacy number the library reports.

Every float64 probability is a dyadic rational; :math:`e^\epsilon` (irrational for every float
ε > 0) is enclosed in rational bounds :math:`L \le e^\epsilon \le U`
(:func:`enclose_exp`). Since :math:`x \mapsto H_x(P\|Q) = \sum_v \max\{P(v) - xQ(v), 0\}` is
non-increasing,

.. math::

    H_U(P\|Q) \;\le\; H_{e^\epsilon}(P\|Q) \;\le\; H_L(P\|Q),

and both sides are exact rationals, computed with Python integers (probabilities scaled by
:math:`2^{1074}`, the bounds by :math:`2^{200}`). Exact work is slow, so rigorous float filters
settle most pairs first:

* :func:`float_error` bounds :math:`|\hat H - H_y|` for the float divergence :math:`\hat H` and
  every :math:`y \in [L, U]` (derived in ``docs/verification.md``, "Certification: the proof");
* :func:`certified_zero` proves :math:`P(v) \le L\,Q(v)` for every output from one rounded
  product per output, hence :math:`H_L = H_U = 0`.

On top of these: :func:`unproven` (which directed pairs are not proved to satisfy
:math:`H_L \le \delta`), :func:`delta_upper` (the smallest float above the exact
:math:`\max H_L`, or a rigorous bound within :math:`2\eta` of it when very many pairs tie),
:func:`pdp_delta_upper` (probabilistic-DP leakage, each comparison decided exactly or counted
when undecidable) and :func:`pair_epsilon_exact` (the exact :math:`e^{\epsilon^*}` of one pair).

Every function here returns a number that errs only in the safe direction; that is the
library's soundness rule (``docs/verification.md``).
"""

from __future__ import annotations

import functools
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from .fused import zero_proved, zero_proved_both
from .groups import GROUP_MIN_ARCS, group_arcs
from .kernels import (
    EPS_SATURATION,
    directed_divergences,
    endpoint_rows,
    scaled_exp,
    scaled_product,
)

__all__ = [
    "EXACT_WORK",
    "EXP_BITS",
    "ExpEnclosure",
    "certified_zero",
    "compare_exp",
    "delta_upper",
    "enclose_exp",
    "exact_divergences",
    "exp_scaled",
    "float_above",
    "float_at_least",
    "float_at_most",
    "float_error",
    "int_rows",
    "pair_epsilon_exact",
    "pdp_delta_upper",
    "unproven",
]

#: Bits of the dyadic denominators of the bounds on e^ε.
EXP_BITS = 200
#: All float64 values in [0, 2) are integers once multiplied by 2**P_SHIFT.
P_SHIFT = 1074
#: Directed pairs per block of the exact (Python-integer) computation.
EXACT_CHUNK = 2048
#: Exact work budget, in rational entries (directed pairs times outputs; about 1 s of Python
#: integer arithmetic): beyond it :func:`delta_upper` and :func:`pdp_delta_upper` report the
#: rigorous float bound instead of the exact maximum, and :func:`unproven` reports unproven.
EXACT_WORK = 500_000
#: Unit round-off of float64.
U_ROUND = Fraction(1, 2**53)
#: Largest absolute error of an underflowing float64 product.
TAU = Fraction(1, 2**1074)
_FLOAT_MAX = Fraction(sys.float_info.max)


# ---------------------------------------------------------------------- floats and fractions
def float_at_most(x: Fraction) -> float:
    """Largest float64 <= x (``-inf`` below the float range, float max above it)."""
    if x > _FLOAT_MAX:
        return sys.float_info.max
    if x < -_FLOAT_MAX:
        return -math.inf
    c = float(x)
    if Fraction(c) > x:
        c = math.nextafter(c, -math.inf)
    return c


def float_at_least(x: Fraction) -> float:
    """Smallest float64 >= x (``inf`` above the float range)."""
    if x > _FLOAT_MAX:
        return math.inf
    c = float(x)
    if Fraction(c) < x:
        c = math.nextafter(c, math.inf)
    return c


def float_above(n: int, shift: int) -> float:
    """Smallest float64 >= ``n / 2**shift`` for an integer n >= 0 (``inf`` above the range):
    :func:`float_at_least` of a dyadic rational, in integers only."""
    if n <= 0:
        return 0.0
    g = max(n.bit_length() - 53 - shift, -1074)  # exponent of the last kept bit
    drop = g + shift
    m = -((-n) >> drop) if drop > 0 else n << -drop  # ceil(n / 2^drop) <= 2^53
    try:
        return math.ldexp(m, g)  # exact: m <= 2^53 and g >= -1074
    except OverflowError:
        return math.inf


# ---------------------------------------------------------------------- e^ε in rationals
def exp_scaled(eps: Fraction, bits: int) -> tuple[int, int]:
    """Integers (lo, hi) with lo / 2**bits <= e**eps <= hi / 2**bits, for eps >= 0.

    Argument reduction :math:`r = \\epsilon / 2^s < 2^{-8}`, a Taylor enclosure of :math:`e^r`
    rounded outward at every step, then s squarings rounded outward (see
    :func:`rainbowdp.exp_bounds`, Notes). The cost grows with the size of the result,
    about :math:`1.44\\,\\epsilon` + ``bits`` bits.
    """
    if eps == 0:
        return 1 << bits, 1 << bits
    s = max(0, eps.numerator.bit_length() - eps.denominator.bit_length() + 9)
    k = bits + s + 16  # working precision: s squarings double the relative error s times
    one = 1 << k
    num, den = eps.numerator << k, eps.denominator << s
    r_lo, r_hi = num // den, -(-num // den)
    lo = hi = t_lo = t_hi = one
    n = 0
    while True:
        n += 1
        t_lo = ((t_lo * r_lo) >> k) // n  # floor at each step: stays <= r_lo**n / n!
        c = -((-t_hi * r_hi) >> k)  # ceil at each step: stays >= r_hi**n / n!
        t_hi = -(-c // n)
        lo += t_lo
        hi += t_hi
        # Tail sum_{j>n} r^j/j! <= t_n * (r/(n+1)) / (1 - r/(n+1)) <= 2 t_n r / (n+1).
        if 2 * t_hi * r_hi < one * (n + 1):
            hi += 1
            break
    for _ in range(s):
        lo = (lo * lo) >> k
        hi = -((-hi * hi) >> k)
    shift = k - bits
    return lo >> shift, -((-hi) >> shift)


@dataclass(frozen=True)
class ExpEnclosure:
    r"""Rational bounds on :math:`e^\epsilon` and the float stand-ins used with them.

    Attributes
    ----------
    epsilon : float
    saturated : bool
        ε >= :data:`~rainbowdp._verify.kernels.EPS_SATURATION`: then ``lo == hi == 2**2200``, a
        value at which every hockey-stick divergence and every probabilistic-DP leakage of float64
        probabilities equals its value at :math:`e^\epsilon` (both exceed
        :math:`2^{1075}`, larger than every likelihood ratio).
    lo, hi : fractions.Fraction
        :math:`L \le e^\epsilon \le U` (or the saturated stand-in).
    lo_num, hi_num : int
        ``lo`` and ``hi`` times :math:`2^{200}`.
    m, k : float, int
        The float :math:`\hat x = m\,2^k` used by the float kernels.
    m_lo, m_hi : float
        Floats with :math:`m_{lo} 2^k \le L` and :math:`m_{hi} 2^k \ge U`.
    """

    epsilon: float
    saturated: bool
    lo: Fraction
    hi: Fraction
    lo_num: int
    hi_num: int
    m: float
    k: int
    m_lo: float
    m_hi: float

    @property
    def x_hat(self) -> Fraction:
        """The float kernels' :math:`\\hat x` as an exact rational."""
        return Fraction(self.m) * (1 << self.k)


def enclose_exp(epsilon: float) -> ExpEnclosure:
    """Enclose :math:`e^\\epsilon` for a finite float ε >= 0 (cheap for every such ε)."""
    m, k = scaled_exp(epsilon)
    if epsilon >= EPS_SATURATION:
        num = 1 << (k + EXP_BITS)
        x = Fraction(1 << k)
        return ExpEnclosure(epsilon, True, x, x, num, num, m, k, 1.0, 1.0)
    lo_num, hi_num = exp_scaled(Fraction(epsilon), EXP_BITS)
    lo, hi = Fraction(lo_num, 1 << EXP_BITS), Fraction(hi_num, 1 << EXP_BITS)
    scale = Fraction(1 << k)
    m_lo = float_at_most(lo / scale)
    m_hi = float_at_least(hi / scale)
    return ExpEnclosure(epsilon, False, lo, hi, lo_num, hi_num, m, k, m_lo, m_hi)


# ---------------------------------------------------------------------- float filters
def float_error(p: np.ndarray, enc: ExpEnclosure) -> Fraction:
    r"""Bound :math:`\eta` on :math:`|\hat H - H_y|` for every pair and :math:`y \in [L, U]`.

    :math:`\hat H` is :func:`~rainbowdp._verify.kernels.directed_divergences` at :math:`\hat x`. See
    ``docs/verification.md``, "Certification: the proof": a relative part :math:`(q+2)u S` and
    an absolute underflow part :math:`2q\tau` (each product :math:`\mathrm{fl}(m\,(2^kQ))` and each
    difference underflows by at most τ). Saturated: no interval term (:math:`\hat x = L = U`).
    """
    return float_error_of(float(p.sum(axis=1).max()), p.shape[1], enc)


def float_error_of(row_sum: float, q: int, enc: ExpEnclosure) -> Fraction:
    """:func:`float_error` of any rows of q outputs whose largest row sum is ``row_sum`` (the
    bound depends on the rows through that sum only)."""
    err = rounding_error(row_sum, q)
    if enc.saturated:
        return err
    s_up = Fraction(row_sum) * (1 + q * U_ROUND * 2)
    xf = enc.x_hat
    low, high = min(enc.lo, xf), max(enc.hi, xf)
    return err + (high - low) * s_up / low


def rounding_error(row_sum: float, q: int) -> Fraction:
    r"""The round-off part of :func:`float_error`: a bound on :math:`|\hat H - H_{\hat x}|`.

    For rows of q outputs whose largest row sum is ``row_sum``, this bounds the error of
    :func:`~rainbowdp._verify.kernels.directed_divergences` at the float multiplier it is given,
    with no enclosure of :math:`e^\epsilon`: the relative round-off of the products,
    differences and the sum, plus an absolute underflow error of at most τ per product
    (:math:`\mathrm{fl}(m\,(2^kQ))`: the scaling is exact, the product rounds once) and per
    difference.
    """
    s_up = Fraction(row_sum) * (1 + q * U_ROUND * 2)
    return (q + 2) * U_ROUND * s_up * (1 + Fraction(1, 2**30)) + 2 * q * TAU


def multiplier_below(enc: ExpEnclosure) -> tuple[float, int]:
    r"""A float multiplier :math:`\tilde m\,2^k` with :math:`\tilde m 2^k (1 + u) \le L \le
    e^\epsilon`: :math:`\tilde m = \mathrm{fl}(m_{lo}(1 - 2^{-50}))`.

    A float divergence at this multiplier that is exactly 0 proves :math:`H_L = 0`: every
    term has :math:`P(v) \le \mathrm{fl}(\tilde m 2^k Q(v)) \le \tilde m 2^k (1 + u) Q(v)
    \le L\,Q(v)` -- for rows without positive entries below :math:`2^{-1000}` (see
    :func:`irregular_rows`), where no product is subnormal. Saturated: far above every
    likelihood ratio, where H is the one of :math:`e^\epsilon`.
    """
    return float(enc.m_lo * (1.0 - 2.0**-50)), enc.k


def irregular_rows(p: np.ndarray) -> np.ndarray:
    """Indices of the rows with a positive entry below 2^-1000 (see :func:`multiplier_below`)."""
    return np.flatnonzero(np.any((p > 0) & (p < 2.0**-1000), axis=1))


#: Both sides of a float comparison are scaled by 2^_LIFT first (exact: every entry is below 2),
#: so subnormal probabilities become normal numbers and a product errs by one relative rounding.
_LIFT = 600


def lifted(pa: np.ndarray) -> np.ndarray:
    """``P * 2^_LIFT``, exactly."""
    return np.ldexp(pa, _LIFT)


def pred_scaled(q: np.ndarray, m: float, k: int) -> np.ndarray:
    """Floats ``t`` with ``t < m 2^(k + _LIFT) Q``, or ``t == 0`` where that rounds to 0.

    So ``lifted(P) <= t`` proves ``P <= m 2^k Q`` for ``P >= 0`` (``inf`` on overflow: then the
    real product exceeds every float).
    """
    t = scaled_product(q, m, k + _LIFT)
    np.nextafter(t, 0.0, out=t)
    return t


def _succ_scaled(q: np.ndarray, m: float, k: int) -> np.ndarray:
    r"""A float array strictly above :math:`m\,2^{k + \text{lift}}\,Q` (``inf`` on overflow)."""
    t = scaled_product(q, m, k + _LIFT)
    np.nextafter(t, np.inf, out=t)
    return t


def certified_zero(p: np.ndarray, a: np.ndarray, b: np.ndarray, enc: ExpEnclosure) -> np.ndarray:
    r"""True where :math:`P_a(v) \le L\,P_b(v)` for every output, so :math:`H_L = H_U = 0`.

    Round-to-nearest gives :math:`z > \mathrm{pred}(\mathrm{fl}(z))` for every real z (also
    for subnormals and overflow), so :math:`2^s P_a(v) \le \mathrm{pred}(\mathrm{fl}(m_{lo}
    2^{k+s} P_b(v)))` proves :math:`P_a(v) \le m_{lo} 2^k P_b(v) \le L P_b(v)`; the scaling
    by :math:`2^s` (s = 600, exact) keeps subnormal probabilities out of the product.
    """
    fast = zero_proved(p, a, b, enc.m_lo, enc.k)
    if fast is not None:  # compiled: the same test, rows read once, first failure ends it
        return fast
    out = np.empty(a.shape[0], dtype=bool)
    for rows, pa, pb in endpoint_rows(p, a, b):
        np.all(lifted(pa) <= pred_scaled(pb, enc.m_lo, enc.k), axis=1, out=out[rows])
    return out


# ---------------------------------------------------------------------- exact integers
def int_rows(rows: np.ndarray) -> np.ndarray:
    """Object array of Python ints equal to rows * 2**1074 exactly (rows in [0, 2))."""
    out = np.empty(rows.size, dtype=object)
    out[:] = int_list(rows)
    return out.reshape(rows.shape)


def int_list(rows: np.ndarray) -> list[int]:
    """:func:`int_rows` as a flat list (row-major): each float ``f = m 2^(e-53)`` with the
    53-bit integer ``m`` of :func:`numpy.frexp` becomes ``m << (e + 1021)``, exactly
    (subnormals, whose ``m`` has at least ``-(e + 1021)`` trailing zeros, shift right)."""
    if rows.size <= 32:  # short: one exact ratio per float beats the vectorised steps
        return [
            n << (P_SHIFT + 1 - d.bit_length())
            for n, d in map(float.as_integer_ratio, np.ravel(rows).tolist())
        ]
    frac, exp = np.frexp(np.ravel(rows))
    mant = np.ldexp(frac, 53).astype(np.int64).tolist()  # exact: |frac| < 1
    shift = (exp + (P_SHIFT - 53)).tolist()
    if min(shift, default=0) >= 0:
        return [m << k for m, k in zip(mant, shift, strict=True)]
    return [m << k if k >= 0 else m >> -k for m, k in zip(mant, shift, strict=True)]


def int_scaled(rows: np.ndarray) -> tuple[list[int], int]:
    """``(ints, s)`` with ``rows.ravel()[i] == ints[i] * 2**s`` exactly, for the largest such
    ``s`` common to all (so the integers are as small as the entries allow: about 60 bits for
    probabilities above 2^-7, instead of the 1,074-bit scale of :func:`int_list`)."""
    ratios = [f.as_integer_ratio() for f in np.ravel(rows).tolist()]  # d: powers of two
    k = max((d.bit_length() for _, d in ratios), default=1) - 1
    return [n << (k + 1 - d.bit_length()) for n, d in ratios], -k


def exact_divergences(a_rows: np.ndarray, b_rows: np.ndarray, y_num: int) -> np.ndarray:
    """sum_v max(A - y B, 0) scaled by 2**(1074 + EXP_BITS), for y = y_num / 2**EXP_BITS."""
    t = a_rows * (1 << EXP_BITS) - b_rows * y_num
    return np.where(t > 0, t, 0).sum(axis=1)


def exact_pairs(p: np.ndarray, a: np.ndarray, b: np.ndarray, y_num: int) -> list[int]:
    """Exact :math:`H_y(P_a\\|P_b)` (scaled, see :func:`exact_divergences`) for index arrays."""
    if a.size == 0:
        return []
    nodes, inverse = np.unique(np.concatenate([a, b]), return_inverse=True)
    rows = int_rows(p[nodes])
    ia, ib = inverse[: a.size], inverse[a.size :]
    out: list[int] = []
    for start in range(0, a.size, EXACT_CHUNK):
        sl = slice(start, start + EXACT_CHUNK)
        out.extend(int(h) for h in exact_divergences(rows[ia[sl]], rows[ib[sl]], y_num))
    return out


SCALE = P_SHIFT + EXP_BITS


# ---------------------------------------------------------------------- provers
class Unproven(NamedTuple):
    """Result of :func:`unproven`."""

    #: Directed edges (u, v) of ``edges`` not proved to have H_L(P_u || P_v) <= δ.
    forward: np.ndarray
    #: The same for (v, u).
    backward: np.ndarray
    #: Some directed edge is proved to have H_U > δ: the mechanism is not (ε, δ)-DP.
    violated: bool

    def any(self) -> bool:
        """Whether some directed edge is unproven."""
        return bool(self.forward.any() or self.backward.any())


def unproven(
    p: np.ndarray,
    edges: np.ndarray,
    enc: ExpEnclosure,
    delta: float,
    *,
    max_work: int | None = None,
    one_way: bool = False,
    classes: np.ndarray | Callable[[], np.ndarray] | None = None,
) -> Unproven:
    r"""Masks (forward, backward) of the directed edges NOT proved to have :math:`H_L \le \delta`.

    Every other directed edge satisfies :math:`H_{e^\epsilon} \le H_L \le \delta` exactly. A
    directed edge is proved by the float filter (:math:`\hat H + \eta \le \delta`), by
    :func:`certified_zero`, or by exact arithmetic; it is reported unproven when
    :math:`\hat H - \eta > \delta` (then even :math:`H_U > \delta`) or when its exact
    :math:`H_L` exceeds δ. With ``max_work``, when the directed edges that need exact arithmetic
    hold more entries than that (pairs times outputs), none is computed and all of them are
    reported unproven (the answer stays safe; the caller escalates differently, e.g. by mixing or
    a larger ε); the work counts one pair per class of equal pairs
    (:func:`rainbowdp._verify.groups.group_arcs`, ``classes`` its row classes when known), since one
    exact sum decides the whole class. With ``one_way`` (arcs of a directed graph) the backward
    mask is all False.
    """
    n_e = edges.shape[0]
    fwd, bwd = directed_divergences(p, edges, enc.m, enc.k, one_way=one_way)
    eta = float_error(p, enc)
    d = Fraction(delta)
    cut = float_at_most(d - eta) if d >= eta else -1.0
    sure_bad = float_at_least(d + eta)
    masks = []
    pending = []
    violated = False
    for h, ca, cb in ((fwd, 0, 1), (bwd, 1, 0)):
        bad = np.zeros(n_e, dtype=bool)
        todo = np.flatnonzero(h > cut)
        if todo.size:
            todo = todo[~certified_zero(p, edges[todo, ca], edges[todo, cb], enc)]
        sure = h[todo] > sure_bad
        bad[todo[sure]] = True
        violated |= bool(sure.any())
        masks.append(bad)
        pending.append((todo[~sure], ca, cb))
    heads = np.concatenate([edges[todo, ca] for todo, ca, _ in pending])
    tails = np.concatenate([edges[todo, cb] for todo, _, cb in pending])
    if heads.size == 0:
        return Unproven(masks[0], masks[1], violated)
    reps, inverse = _arc_classes(p, heads, tails, classes)  # equal pairs: one exact sum
    if max_work is not None and reps.size * p.shape[1] > max_work:
        for bad, (todo, _, _) in zip(masks, pending, strict=True):
            bad[todo] = True
        return Unproven(masks[0], masks[1], violated)
    limit = d.numerator << SCALE
    exact = exact_pairs(p, heads[reps], tails[reps], enc.lo_num)
    over = np.array([h_int * d.denominator > limit for h_int in exact], dtype=bool)[inverse]
    n_f = pending[0][0].size
    masks[0][pending[0][0]] = over[:n_f]
    masks[1][pending[1][0]] = over[n_f:]
    return Unproven(masks[0], masks[1], violated)


def _arc_classes(
    p: np.ndarray,
    heads: np.ndarray,
    tails: np.ndarray,
    classes: np.ndarray | Callable[[], np.ndarray] | None,
    inverse: bool = True,
) -> tuple[np.ndarray, np.ndarray | None]:
    """:func:`rainbowdp._verify.groups.group_arcs` from
    :data:`~rainbowdp._verify.groups.GROUP_MIN_ARCS` arcs on (every arc its own class below)."""
    if heads.size < GROUP_MIN_ARCS:
        idx = np.arange(heads.size, dtype=np.intp)
        return idx, idx
    return group_arcs(p, heads, tails, classes, inverse=inverse)


def delta_upper(
    p: np.ndarray,
    edges: np.ndarray,
    enc: ExpEnclosure,
    fwd: np.ndarray,
    bwd: np.ndarray,
    eta: Fraction | None = None,
    h: np.ndarray | None = None,
    classes: np.ndarray | Callable[[], np.ndarray] | None = None,
) -> float:
    r"""A float :math:`\ge \max_{d \sim d'} H_{e^\epsilon}` over both directions of every edge.

    ``fwd``/``bwd`` are the float divergences at the enclosure's :math:`\hat x`. The exact
    maximiser of :math:`H_L` is among the pairs whose float divergence is within :math:`2\eta`
    of the float maximum :math:`\hat h` (any other pair has
    :math:`H_L \le \hat H + \eta < \hat h - \eta \le H_L(w)`). Those pairs, bar the ones
    :func:`certified_zero` proves to be 0, are recomputed exactly and the smallest float above
    their maximum is returned -- unless they hold more than :data:`EXACT_WORK` entries, when
    :math:`\hat h + \eta` (rounded up) is returned: still an upper bound, at most
    :math:`2\eta` above the exact value. ``eta``, when given, is :func:`float_error` of ``p``
    at ``enc`` computed by the caller (any larger bound is also sound), and ``h``, when
    given, is ``np.maximum(fwd, bwd)``. Pairs equal up to a permutation of the outputs are
    one exact sum and count once against :data:`EXACT_WORK`
    (:func:`rainbowdp._verify.groups.group_arcs`; ``classes``: its row classes, or a function
    giving them, when known). A band of more than ``max(GROUP_BAND_MAX, EXACT_WORK / q)``
    pairs is over the budget however it groups, and gets the float bound at once.
    """
    if fwd.size == 0:
        return 0.0
    if eta is None:
        eta = float_error(p, enc)
    if h is None:
        h = np.maximum(fwd, bwd)
    floor = float_at_most(Fraction(float(h.max())) - 2 * eta)
    cap = max(GROUP_BAND_MAX, EXACT_WORK // p.shape[1])
    a, b, _, hb = band_pairs(p, edges, enc, fwd, bwd, floor, h, cap=cap)
    if hb.size == 0:
        return 0.0
    bound = float_at_least(Fraction(float(hb.max())) + eta)
    if a.size == 0:  # more than cap pairs, so over the budget: a huge tied band, where
        return bound  # classing the pairs would cost more than the pass itself
    reps, _ = _arc_classes(p, a, b, classes, inverse=False)
    if reps.size * p.shape[1] > EXACT_WORK:
        return bound
    best = max(exact_pairs(p, a[reps], b[reps], enc.lo_num))
    return float_at_least(Fraction(best, 1 << SCALE))


#: Band pairs beyond which :func:`delta_upper` reports its rigorous float bound rather than
#: classing the pairs to fit the exact work (which costs several passes over the band).
GROUP_BAND_MAX = 1 << 18


def band_pairs(
    p: np.ndarray,
    edges: np.ndarray,
    enc: ExpEnclosure,
    fwd: np.ndarray,
    bwd: np.ndarray,
    floor: float | np.ndarray,
    h: np.ndarray | None = None,
    cap: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The ordered pairs of ``edges`` whose float divergence (``fwd`` for (u, v), ``bwd`` for
    (v, u)) is at least ``floor`` (a number, or one per edge) and that :func:`certified_zero`
    does not prove 0: the candidates for exact work of :func:`delta_upper` and its callers.

    Returns ``(heads, tails, edge indices, float divergences)``, forward pairs first. ``h``,
    when given, is ``np.maximum(fwd, bwd)``. With ``cap``, more than ``cap`` pairs are not
    gathered: the three index arrays are then empty and the divergences hold only their
    maximum.
    """
    if h is None:
        h = np.maximum(fwd, bwd)
    band = np.flatnonzero(h >= floor)
    cut = floor if np.ndim(floor) == 0 else np.asarray(floor)[band]
    heads, tails, which, vals = [], [], [], []
    both = None
    if band.size > 1:
        ends = edges if band.size == edges.shape[0] else edges[band]  # (every edge: no copy)
        both = zero_proved_both(p, ends, enc.m_lo, enc.k)
    sels = []
    for j, (hd, ca, cb) in enumerate(((fwd, 0, 1), (bwd, 1, 0))):
        keep = hd[band] >= cut
        if both is not None:  # compiled: both orders of the band in one read of its rows
            sel = band[keep & ~both[j]]
        else:
            sel = band[keep]
            if sel.size:
                sel = sel[~certified_zero(p, edges[sel, ca], edges[sel, cb], enc)]
        sels.append(sel)
    if cap is not None and sels[0].size + sels[1].size > cap:
        top = max(
            float(fwd[sels[0]].max(initial=-np.inf)), float(bwd[sels[1]].max(initial=-np.inf))
        )
        none = np.zeros(0, dtype=np.intp)
        return none, none, none, np.array([top])
    for sel, (hd, ca, cb) in zip(sels, ((fwd, 0, 1), (bwd, 1, 0)), strict=True):
        heads.append(edges[sel, ca])
        tails.append(edges[sel, cb])
        which.append(sel)
        vals.append(hd[sel])
    return (
        np.concatenate(heads),
        np.concatenate(tails),
        np.concatenate(which),
        np.concatenate(vals),
    )


def compare_exp(pa: np.ndarray, pb: np.ndarray, enc: ExpEnclosure) -> tuple[np.ndarray, np.ndarray]:
    r"""Masks ``(yes, no)``: proved :math:`P_a > e^\epsilon P_b`; proved the opposite.

    Elementwise over arrays of equal shape. A rigorous float filter decides most entries
    ("no" if :math:`2^sP_a \le \mathrm{pred}(\mathrm{fl}(m_{lo}2^{k+s}P_b))`, "yes" if
    :math:`2^sP_a > \mathrm{succ}(\mathrm{fl}(m_{hi}2^{k+s}P_b))`, s = 600 as in
    :func:`certified_zero`; Q = 0 and P = 0 are decided directly); the rest are compared
    exactly with Python integers against L and U. Entries with :math:`L P_b < P_a \le U P_b`
    (a window of relative width :math:`2^{-190}`) are in neither mask.
    """
    la = lifted(pa)
    no = (la <= pred_scaled(pb, enc.m_lo, enc.k)) | (pa == 0)
    yes = (la > _succ_scaled(pb, enc.m_hi, enc.k)) | ((pb == 0) & (pa > 0))
    unsure = ~(no | yes)
    if unsure.any():
        idx = np.nonzero(unsure)
        ai = int_rows(pa[idx]) * (1 << EXP_BITS)
        bi = int_rows(pb[idx])
        no[idx] = (ai <= bi * enc.lo_num).astype(bool)
        yes[idx] = (ai > bi * enc.hi_num).astype(bool)
    return yes, no


def pdp_delta_upper(p: np.ndarray, a: np.ndarray, b: np.ndarray, enc: ExpEnclosure) -> float:
    r"""A float :math:`\ge \max_{(a,b)} \sum_v P_a(v)\,\mathbf 1[P_a(v) > e^\epsilon P_b(v)]`.

    Each comparison is decided soundly: "no leak" if :math:`P_a(v) \le
    \mathrm{pred}(\mathrm{fl}(m_{lo}P_b(v)))2^k` (then :math:`P_a(v) < L P_b(v)`), "leak" if
    :math:`P_a(v) > \mathrm{succ}(\mathrm{fl}(m_{hi}P_b(v)))2^k` (then
    :math:`P_a(v) > U P_b(v)`), otherwise exactly with Python integers against L and U; a
    comparison still undecided (:math:`L P_b(v) < P_a(v) \le U P_b(v)`, a window of relative
    width :math:`2^{-190}`) is counted as a leak. The leaked masses of the pairs within the
    float summation error of the largest are summed exactly, once per class of equal pairs
    (:func:`rainbowdp._verify.groups.group_arcs`), and rounded up (or, past
    :data:`EXACT_WORK` entries in such pairs, the float maximum is inflated by its error bound).
    """
    if a.size == 0:
        return 0.0
    q = p.shape[1]
    sums = np.empty(a.size)
    leaks = np.empty((a.size, q), dtype=bool)
    for rows, pa, pb in endpoint_rows(p, a, b):
        _, no = compare_exp(pa, pb, enc)
        leaks[rows] = ~no  # leak unless proved P_a <= e^eps P_b
        sums[rows] = np.where(leaks[rows], pa, 0.0).sum(axis=1)
    s_max = float(sums.max())
    if s_max == 0.0:
        return 0.0
    # float summation of <= q non-negative terms errs by at most (q - 1) u times the sum
    rel = Fraction(q, 2**52)
    floor = float_at_most(Fraction(s_max) * (1 - 2 * rel))
    band = np.flatnonzero(sums >= floor)
    if band.size >= GROUP_MIN_ARCS:  # equal pairs leak equally: one exact sum per class
        reps, _ = group_arcs(p, a[band], b[band], inverse=False)
        band = band[reps]
    if band.size * q > EXACT_WORK:
        return float_at_least(Fraction(s_max) * (1 + 2 * rel))
    vals = int_rows(np.where(leaks[band], p[a[band]], 0.0))
    best = max(int(s) for s in vals.sum(axis=1))
    return float_at_least(Fraction(best, 1 << P_SHIFT))


def pair_epsilon_exact(a: list[int], b: list[int], delta: Fraction) -> Fraction | None:
    r"""The exact smallest :math:`x \ge 1` with :math:`H_x(a\|b) \le \delta`; ``None`` if none.

    ``a``, ``b`` and ``delta`` may share any common scale (e.g. :func:`int_rows` integers and
    δ times :math:`2^{1074}`). ``None`` means the a-mass on outputs where b is 0 exceeds δ
    (infinite ε). Otherwise the
    breakpoints :math:`r_v = a_v / b_v` are sorted in decreasing order; with
    :math:`A_j, B_j` the sums over the j largest, :math:`H(r_{j+1}) = A_j - r_{j+1} B_j`, and
    the solution on the first piece where H drops to δ is :math:`x = (A_j - \delta)/B_j`.

    In integers only: the breakpoints are ordered by :math:`\lfloor 2^{64} a_v / b_v \rfloor`
    and the order is then made exact by an insertion pass comparing :math:`a_v b_w` with
    :math:`a_w b_v` (only ratios within :math:`2^{-64}` of each other can be out of order, so
    the pass is short), and
    :math:`H(r) > \delta` is tested as :math:`(A\,b_v - a_v B)\,D > N b_v` for
    :math:`\delta = N / D`.
    """
    num, den = delta.numerator, delta.denominator
    zero_mass = sum(x for x, y in zip(a, b, strict=True) if y == 0)
    budget = num - zero_mass * den  # δ minus the a-mass where b = 0, times D
    if budget < 0:
        return None
    pts = [(x, y) for x, y in zip(a, b, strict=True) if y > 0 and x > 0]
    pts.sort(key=lambda t: (t[0] << 64) // t[1], reverse=True)  # floor(2^64 ratio): no overflow
    for i in range(1, len(pts)):  # exact order (decreasing ratio), insertion
        x, y = pts[i]
        j = i
        while j > 0 and pts[j - 1][0] * y < x * pts[j - 1][1]:
            pts[j] = pts[j - 1]
            j -= 1
        pts[j] = (x, y)
    big_a = big_b = 0
    for x, y in pts:
        if (big_a * y - x * big_b) * den > budget * y:  # H(x / y) > δ: the solution is above
            break
        big_a += x
        big_b += y
    if big_b == 0:
        return Fraction(1)
    return max(Fraction(1), Fraction(big_a * den - budget, big_b * den))


@functools.lru_cache(maxsize=4096)
def enclose(epsilon: float) -> ExpEnclosure:
    """:func:`enclose_exp`, remembered: a pure function of the float ε (frozen result)."""
    return enclose_exp(epsilon)


@functools.lru_cache(maxsize=4096)
def _eta_upper(epsilon: float, q: int, row_sum: float) -> float:
    """A float at least :func:`~rainbowdp._verify.exact.float_error` for q outputs and rows summing
    to at most ``row_sum`` (that bound grows with the largest row sum), remembered."""
    rows = np.zeros((1, q))
    rows[0, 0] = row_sum
    return float_at_least(float_error(rows, enclose(epsilon)))


def edge_delta_upper(
    p: np.ndarray, edges: np.ndarray, enc: ExpEnclosure, fwd: np.ndarray, bwd: np.ndarray
) -> np.ndarray:
    r"""Per edge, what :func:`~rainbowdp._verify.exact.delta_upper` returns for that edge alone.

    That value is the smallest float at least :math:`\max\{H_L(P_u\|P_v), H_L(P_v\|P_u)\}`
    (exact, ``fwd``/``bwd`` as there) whenever the exact work fits :data:`EXACT_WORK`, which
    holds for 2q <= EXACT_WORK; larger q is handed to ``delta_upper`` edge by edge. The same
    proof, vectorised over the edges: per edge the maximiser is an order whose float divergence
    is within 2η of the edge's float maximum (η >= :func:`~rainbowdp._verify.exact.float_error` of
    all rows, with the largest row sum rounded up to a multiple of 2^-20: a bound for every edge;
    the cut below it is lowered by 2η more, which covers the
    rounding of the float cut); orders proved 0 by ``certified_zero`` are left out, and the
    others are recomputed exactly (``exact_pairs``) on the outputs not proved to give a zero
    term (:math:`P_u(v) \le L\,P_v(v)`, the ``certified_zero`` test per output), which leaves
    each exact sum unchanged.
    """
    n_e, q = edges.shape[0], p.shape[1]
    out = np.zeros(n_e)
    if n_e == 0:
        return out
    if 2 * q > EXACT_WORK:
        two = np.array([[0, 1]], dtype=np.intp)
        for i, (u, v) in enumerate(edges.tolist()):
            out[i] = delta_upper(p[[u, v]], two, enc, fwd[i : i + 1], bwd[i : i + 1])
        return out
    eta = _eta_upper(enc.epsilon, q, math.ceil(float(p.sum(axis=1).max()) * 2.0**20) / 2.0**20)
    h = np.maximum(fwd, bwd)
    cut = np.nextafter(h - 4.0 * eta, -np.inf)
    a, b, idx, _ = band_pairs(p, edges, enc, fwd, bwd, cut, h)
    if a.size == 0:
        return out
    pa, pb = p[a], p[b]
    live = ~(lifted(pa) <= pred_scaled(pb, enc.m_lo, enc.k))  # terms not proved <= 0
    width = max(1, int(live.sum(axis=1).max()))
    cols = np.argsort(~live, axis=1, kind="stable")[:, :width]
    keep = np.take_along_axis(live, cols, axis=1)
    rows = np.empty((2 * a.size, width))
    rows[0::2] = np.where(keep, np.take_along_axis(pa, cols, axis=1), 0.0)
    rows[1::2] = np.where(keep, np.take_along_axis(pb, cols, axis=1), 0.0)
    ia = np.arange(0, 2 * a.size, 2)
    exact = exact_pairs(rows, ia, ia + 1, enc.lo_num)
    best = [0] * n_e
    for i, val in zip(idx.tolist(), exact, strict=True):
        best[i] = max(best[i], val)
    scale = 1 << SCALE
    for i in set(idx.tolist()):
        out[i] = float_at_least(Fraction(best[i], scale))
    return out
