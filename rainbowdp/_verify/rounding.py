r"""A float ε whose e^ε provably covers an exact ratio: the last step of every ε(δ).

:func:`log_up` turns the exact smallest :math:`x = e^{\epsilon^*}` of an ordered pair (a
rational) into a float ε with :math:`L(\epsilon) \ge x` for the rational lower bound L of
:math:`e^\epsilon` (:func:`rainbowdp._verify.exact.enclose`), proved by :func:`exp_covers`
(a cheap float lower bound of :math:`e^\epsilon`, :func:`exp_lower`, settles almost every
case; 64-bit integers the rest). :func:`bumped` raises an estimate by :data:`EPS_BUMP`.
Used by the graph path (:mod:`rainbowdp._verify.epsilon`) and the pair path
(:mod:`rainbowdp._verify.pair_epsilon`) alike, so both round the same exact value to the same
float.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

from .exact import enclose, exp_scaled, float_at_most
from .kernels import EPS_SATURATION

#: Relative amount by which :func:`epsilon_for_delta` raises its float estimate before proving
#: it: far above float64 round-off, so the rigorous float filters settle almost every edge.
EPS_BUMP = 2.0**-45


def bumped(e: float) -> float:
    return 0.0 if e <= 0 else e + EPS_BUMP * max(1.0, e)


_TWO_1000 = Fraction(2**1000)


def log_up(x: Fraction) -> float:
    r"""A float ε with :math:`L(\epsilon) \ge x` for the rational lower bound L of e^ε."""
    if x <= 1:
        return 0.0
    if x < 2:
        e = math.log1p(float(x - 1))
    elif x < _TWO_1000:
        e = math.log(float(x))
    else:
        e = math.log(x.numerator) - math.log(x.denominator)
    e = bumped(e)
    while not exp_covers(e, x):  # pragma: no cover - the bump exceeds the log's error
        e = bumped(e)
    return e


#: Bits of the enclosure of e^ε with which :func:`exp_covers` proves its bound.
_COVER_BITS = 64


#: :func:`exp_lower` is used below this ε (its table and products stay far from overflow).
_FAST_COVER_MAX = 690.0


#: Lower bounds on 1/k!, k = 2..6, as floats (each at most the real value).
_INV_FACT = tuple(float_at_most(Fraction(1, math.factorial(k))) for k in range(2, 7))


@functools.cache  # at most 64 * 690 entries
def _exp_lower_table(j: int) -> float:
    """A float at most :math:`e^{j/64}` (from :func:`rainbowdp._verify.exact.exp_scaled`)."""
    lo, _ = exp_scaled(Fraction(j, 64), _COVER_BITS)
    return float_at_most(Fraction(lo, 1 << _COVER_BITS))


def exp_lower(e: float) -> float:
    r"""A float :math:`\ell \le e^e` within about :math:`2^{-47}` of it, for a float
    :math:`0 \le e <` :data:`_FAST_COVER_MAX`: a cheaper lower bound than 64-bit integers.

    With j = floor(64 e) and r = e - j/64 (exact: e * 64 is a scaling by a power of two and
    e - j/64 is exact by Sterbenz's lemma for j >= 1), :math:`e^e = e^{j/64} e^r`, the first
    factor bounded below by a remembered float and the second by its Taylor polynomial of
    degree 6 with coefficients rounded down (every dropped term is positive, r < 1/64). The
    float evaluation rounds at most 14 times, each within :math:`2^{-53}` relative, so the
    final factor :math:`1 - 2^{-48}` (rounded too) keeps the result below the real product.
    """
    j = math.floor(e * 64.0)
    r = e - j / 64.0
    c2, c3, c4, c5, c6 = _INV_FACT
    poly = 1.0 + r * (1.0 + r * (c2 + r * (c3 + r * (c4 + r * (c5 + r * c6)))))
    return _exp_lower_table(j) * poly * (1.0 - 2.0**-48)


def exp_exceeds(e: float, c: float) -> bool:
    r"""Whether :func:`exp_lower` proves :math:`e^e \ge x (1 + 2^{-50})` for every real x with
    :math:`x \le c (1 + 3 \cdot 2^{-53})` (c a float close to x, e.g. fl(x)): fl(c (1 + 2^-47))
    is at least :math:`c (1 + 2^{-47})(1 - 2^{-53})`, above that bound. The first test of
    :func:`exp_covers` (L(e) >= x then follows, L being within 2^-180 of e^e)."""
    return e < _FAST_COVER_MAX and exp_lower(e) >= c * (1.0 + 2.0**-47)


def exp_covers(e: float, x: Fraction) -> bool:
    r"""Whether :math:`L(e) \ge x` is proved, for the lower bound L of :func:`enclose`.

    A 64-bit enclosure (:func:`rainbowdp._verify.exact.exp_scaled`, a third of the cost of L's 200
    bits) suffices: its lower end :math:`\ell \le e^e` with :math:`\ell \ge x(1 + 2^{-50})`
    gives :math:`L \ge e^e (1 - 2^{-180}) \ge x (1 + 2^{-50})(1 - 2^{-180}) > x`, L being
    within :math:`2^{-180}` of :math:`e^e` (its enclosure is that tight, tested). The bump of
    :func:`bumped` (:math:`2^{-45}`) leaves that margin with room to spare. Saturated ε
    (``EPS_SATURATION`` and above) are checked on L itself.
    """
    if e >= EPS_SATURATION:
        return enclose(e).lo >= x
    if e < _FAST_COVER_MAX and exp_exceeds(e, float(x)):  # (log_up: x <~ e^e < 2^996)
        return True
    lo, _ = exp_scaled(Fraction(e), _COVER_BITS)
    # lo / 2^64 >= x (1 + 2^-50), in integers
    return lo * x.denominator * (1 << 50) >= x.numerator * ((1 << 50) + 1) << _COVER_BITS
