r"""An independent exact oracle for (ε, δ)-DP and probabilistic DP of float64 mechanisms.

Written from the definitions only, with :class:`fractions.Fraction` and Python integers; it shares
no code with ``rainbowdp`` (in particular not ``rainbowdp.certify`` or any private helper).

Definitions (rows P, Q are float64 numbers, i.e. exact dyadic rationals; x = e^ε):

* Gu et al., *Generalized Rainbow DP*, Definition 2: P and Q are (ε, δ)-close iff
  P(S) ≤ e^ε Q(S) + δ and Q(S) ≤ e^ε P(S) + δ for every event S. The supremum over S of
  P(S) − x Q(S) is attained by S* = {v : P(v) > x Q(v)}, so it equals the hockey-stick divergence
  H_x(P‖Q) = Σ_v max(P(v) − x Q(v), 0) (checked against all 2^q events in the tests).
  δ*(ε) = max over edges and both directions of H_{e^ε}; ε*(δ) = inf{ε ≥ 0 : δ*(ε) ≤ δ}.
* Kadam et al., *Optimum noise mechanism for DP queries in discrete finite sets*, Definition 2:
  the PDP leakage of the ordered pair (a, b) is Σ_v P_a(v)·1[P_a(v) > e^ε P_b(v)] (strict; an
  output with P_b(v) = 0 < P_a(v) leaks).

e^ε is irrational for every float ε > 0, so it is enclosed, L ≤ e^ε ≤ U (:func:`exp_enclosure`).
H_y is non-increasing in y, hence H_U ≤ H_{e^ε} ≤ H_L: ``H_U`` is a proven lower bound and
``H_L`` a proven upper bound of the exact divergence. Likewise, for one output,
P > U·Q proves P > e^ε Q and P ≤ L·Q proves P ≤ e^ε Q; otherwise the comparison is undecided.

Every float64 in [0, 2) is an integer multiple of 2^-1074, so probabilities are handled as the
integers ``P · 2^1074`` and bounds on e^ε as ``num / 2^shift``: all arithmetic is on integers.

**Huge ε.** Every non-zero float64 is at least 2^-1074 and every entry of a valid row is at most
1 + 1e-9 < 3/2, so every finite non-zero likelihood ratio is below 3·2^1073 < e^745. For
ε ≥ 745 and every y ≥ 3·2^1073 the sets {v : P(v) > y Q(v)} = {v : Q(v) = 0 < P(v)} coincide
and H_y = Σ_{Q(v)=0} P(v) exactly; the oracle then uses L = U = 3·2^1073 ("saturated"), which is a
true lower bound of e^ε and gives the *exact* H and leak sets, without computing e^ε.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

#: Probabilities are integers once multiplied by 2**P_SHIFT (float64 granularity 2**-1074).
P_SHIFT = 1074
#: Relative width of the enclosure of e^ε is about 2**-EXP_PRECISION.
EXP_PRECISION = 160
#: From this ε on, the oracle is "saturated" (see the module notes).
SATURATION_EPSILON = 745.0
#: 3·2^1073 < e^745: every finite ratio of valid float rows is at most this.
SATURATED_X = 3 << 1073
#: Entries of the rows the oracle accepts are at most this (so ratios stay below SATURATED_X).
MAX_ENTRY = Fraction(3, 2)


# ---------------------------------------------------------------------- rationals of floats
class Arc(tuple):
    """An edge that constrains one order only (a directed graph's arc u -> v)."""

    __slots__ = ()


def orders(edge: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """The ordered pairs an edge constrains: (u, v) for an :class:`Arc`, else both orders."""
    u, v = edge
    return ((u, v),) if isinstance(edge, Arc) else ((u, v), (v, u))


def scaled(value: float) -> int:
    """``value * 2**1074`` as an exact integer (``value`` a finite float64 in [0, 3/2])."""
    f = Fraction(value)
    if not (0 <= f <= MAX_ENTRY):
        raise ValueError(f"probability {value!r} outside [0, 3/2]")
    n = f * (1 << P_SHIFT)
    assert n.denominator == 1, value
    return n.numerator


def scaled_rows(rows: Sequence[Sequence[float]]) -> list[list[int]]:
    return [[scaled(float(v)) for v in row] for row in rows]


# ---------------------------------------------------------------------- e^ε
@dataclass(frozen=True)
class Enclosure:
    """``lo / 2**shift <= e^ε <= hi / 2**shift`` (saturated: H-equivalent, see module notes)."""

    lo: int
    hi: int
    shift: int
    saturated: bool = False

    @property
    def lower(self) -> Fraction:
        return Fraction(self.lo, 1 << self.shift)

    @property
    def upper(self) -> Fraction:
        return Fraction(self.hi, 1 << self.shift)


def _exp_taylor(r: Fraction, bits: int) -> tuple[int, int]:
    """Integers (lo, hi) with lo / 2**bits <= e^r <= hi / 2**bits for 0 <= r <= 2**-19.

    Fixed point with ``bits`` fractional bits: r_lo <= r 2^bits <= r_hi, and the scaled terms
    t_j = r^j / j! are enclosed by t_lo_j = floor(t_lo_{j-1} r_lo / (j 2^bits)) and
    t_hi_j = ceil(t_hi_{j-1} r_hi / (j 2^bits)) (induction: floor/ceil of products of
    enclosed non-negative factors). The tail after t_j is Σ_{i>j} r^i/i!
    <= t_j (r/(j+1)) / (1 - r/(j+1)) <= 2 t_j r / (j+1), added (rounded up) to hi.
    """
    one = 1 << bits
    num = r.numerator << bits
    r_lo, r_hi = num // r.denominator, -(-num // r.denominator)
    lo = hi = t_lo = t_hi = one
    j = 0
    while True:
        j += 1
        t_lo = (t_lo * r_lo) // (j << bits)
        t_hi = -((-t_hi * r_hi) // (j << bits))
        lo += t_lo
        hi += t_hi
        tail = -((-2 * t_hi * r_hi) // ((j + 1) << bits))
        if tail <= 1:
            return lo, hi + tail


@functools.lru_cache(maxsize=1 << 16)
def exp_enclosure(epsilon: float) -> Enclosure:
    """Rigorous rational bounds on e^ε for the exact rational value of the float ``epsilon``.

    Argument reduction ε = 2^s · r with r <= 2^-19, a Taylor enclosure of e^r, then s squarings
    in fixed point with ``w`` fractional bits, rounding the lower bound down and the upper bound
    up at every step (squaring is increasing on values >= 1, so the enclosure stays valid). Each
    squaring at most doubles the relative width and adds 2^-w, so w = EXP_PRECISION + s + 8
    leaves a relative width of about 2^-EXP_PRECISION.
    """
    if not (math.isfinite(epsilon) and epsilon >= 0):
        raise ValueError(f"epsilon must be finite and >= 0, got {epsilon!r}")
    if epsilon == 0:
        return Enclosure(1, 1, 0)
    if epsilon >= SATURATION_EPSILON:
        return Enclosure(SATURATED_X, SATURATED_X, 0, saturated=True)
    eps = Fraction(epsilon)
    s = max(0, eps.numerator.bit_length() - eps.denominator.bit_length() + 20)
    r = eps / (1 << s)  # eps < 2**(nb - db + 1), so r < 2**-19
    w = EXP_PRECISION + s + 8
    lo, hi = _exp_taylor(r, w)
    for _ in range(s):
        lo = (lo * lo) >> w  # floor
        hi = -((-hi * hi) >> w)  # ceil
    return Enclosure(lo, hi, w)


# ---------------------------------------------------------------------- hockey stick
def h_scaled(p: Sequence[int], q: Sequence[int], num: int, shift: int) -> int:
    """H_y(P‖Q) · 2^(1074 + shift) for y = num / 2^shift (Gu et al., Definition 2)."""
    total = 0
    for a, b in zip(p, q, strict=True):
        t = (a << shift) - num * b
        if t > 0:
            total += t
    return total


def h_exact(p: Sequence[int], q: Sequence[int], y: Fraction) -> Fraction:
    """H_y(P‖Q) for a rational y (P, Q scaled integers)."""
    total = 0
    for a, b in zip(p, q, strict=True):
        t = a * y.denominator - y.numerator * b
        if t > 0:
            total += t
    return Fraction(total, y.denominator << P_SHIFT)


@dataclass(frozen=True)
class DirectedBounds:
    """Exact bounds for the ordered pair (a, b): H_U ≤ H_{e^ε}(P_a‖P_b) ≤ H_L."""

    a: int
    b: int
    h_lower: Fraction  # H_U
    h_upper: Fraction  # H_L


def directed_bounds(
    rows: Sequence[Sequence[int]], edges: Sequence[tuple[int, int]], epsilon: float
) -> list[DirectedBounds]:
    """Every constrained order of every edge (both, or an arc's one): exact bounds on H."""
    enc = exp_enclosure(epsilon)
    den = 1 << (P_SHIFT + enc.shift)
    out = []
    for edge in edges:
        for a, b in orders(edge):
            lo = h_scaled(rows[a], rows[b], enc.hi, enc.shift)
            hi = lo if enc.lo == enc.hi else h_scaled(rows[a], rows[b], enc.lo, enc.shift)
            out.append(DirectedBounds(a, b, Fraction(lo, den), Fraction(hi, den)))
    return out


def delta_star_bounds(
    rows: Sequence[Sequence[int]], edges: Sequence[tuple[int, int]], epsilon: float
) -> tuple[Fraction, Fraction]:
    """(lower, upper) with lower ≤ δ*(ε) ≤ upper (0 for a graph without edges)."""
    lower = delta_star_side(rows, edges, epsilon, upper=False)
    return lower, delta_star_side(rows, edges, epsilon, upper=True)


def delta_star_side(
    rows: Sequence[Sequence[int]], edges: Sequence[tuple[int, int]], epsilon: float, *, upper: bool
) -> Fraction:
    """max over directed edges of H_L (``upper``: ≥ δ*) or of H_U (≤ δ*)."""
    enc = exp_enclosure(epsilon)
    y = enc.lo if upper else enc.hi
    best = 0
    for edge in edges:
        for a, b in orders(edge):
            best = max(best, h_scaled(rows[a], rows[b], y, enc.shift))
    return Fraction(best, 1 << (P_SHIFT + enc.shift))


def infinite_loss_mass(p: Sequence[int], q: Sequence[int]) -> Fraction:
    """P-mass on outputs with Q(v) = 0 (privacy loss +∞): H_x(P‖Q) for every x ≥ max ratio."""
    return Fraction(sum(a for a, b in zip(p, q, strict=True) if b == 0), 1 << P_SHIFT)


def epsilon_star_is_infinite(
    rows: Sequence[Sequence[int]], edges: Sequence[tuple[int, int]], delta: float
) -> bool:
    """ε*(δ) = ∞ iff some direction has infinite-loss mass > δ (H_x decreases to that mass)."""
    d = Fraction(delta)
    for edge in edges:
        for a, b in orders(edge):
            if infinite_loss_mass(rows[a], rows[b]) > d:
                return True
    return False


# ---------------------------------------------------------------------- leak sets (S*, PDP)
@dataclass(frozen=True)
class LeakSets:
    """Outputs that provably leak (P > e^ε Q), provably do not, and undecided ones."""

    leaking: frozenset[int]
    not_leaking: frozenset[int]
    undecided: frozenset[int]


def leak_sets(p: Sequence[int], q: Sequence[int], epsilon: float) -> LeakSets:
    """Classify each output v by P(v) > e^ε Q(v) (strict, Kadam et al. Definition 2)."""
    enc = exp_enclosure(epsilon)
    yes, no, und = set(), set(), set()
    for v, (a, b) in enumerate(zip(p, q, strict=True)):
        left = a << enc.shift
        if left > enc.hi * b:
            yes.add(v)
        elif left <= enc.lo * b:
            no.add(v)
        else:
            und.add(v)
    return LeakSets(frozenset(yes), frozenset(no), frozenset(und))


def pdp_bounds(
    rows: Sequence[Sequence[int]], edges: Sequence[tuple[int, int]], epsilon: float
) -> tuple[Fraction, Fraction]:
    """(lower, upper) on the PDP leakage max_(a,b) Σ_v P_a(v) 1[P_a(v) > e^ε P_b(v)].

    lower counts the outputs that provably leak, upper also the undecided ones.
    """
    lo = hi = 0
    for edge in edges:
        for a, b in orders(edge):
            s = leak_sets(rows[a], rows[b], epsilon)
            lo = max(lo, sum(rows[a][i] for i in s.leaking))
            hi = max(hi, sum(rows[a][i] for i in s.leaking | s.undecided))
    return Fraction(lo, 1 << P_SHIFT), Fraction(hi, 1 << P_SHIFT)
