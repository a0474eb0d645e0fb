r"""The exact side of :mod:`rainbowdp.peer_rules`: rigorous rational bounds on the laws and the
exact (ε, δ) guarantees of the discrete Gaussian (an infinite output set made finite without
error), with the argument checks shared by the peer rules. The public names are re-exported by
:mod:`rainbowdp.peer_rules`; the proofs are in ``docs/peers.md``.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ._deprecation import deprecated_alias
from ._verify.certify import certify, exp_bounds  # exact for arguments up to 1e5
from .exceptions import ParameterError, ParameterTypeError
from .graph import RainbowGraph
from .mechanism import Mechanism
from .privacy import epsilon_for_delta

__all__ = [
    "BITS",
    "MAX_SIGMA",
    "DeltaBounds",
    "cdp_delta",
    "cdp_epsilon",
    "certify_discrete_gaussian",
    "check_real",
    "check_sensitivity",
    "discrete_gaussian_delta",
    "discrete_gaussian_dp_delta",
    "discrete_gaussian_epsilon",
    "exp_neg",
    "outward",
]

#: Fixed-point precision of the rigorous law bounds: every weight is enclosed to 2^-256.
BITS = 256
#: Largest σ handled by the exact discrete Gaussian functions (their cost grows like σ).
MAX_SIGMA = 1000.0


# ------------------------------------------------------------------------------- validation
def check_real(value: Any, name: str, lo: float, hi: float, *, open_lo: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ParameterTypeError(f"`{name}` must be a real number, got {name}={value!r}.")
    x = float(value)
    ok = math.isfinite(x) and (lo < x if open_lo else lo <= x) and x <= hi
    if not ok:
        side = "(" if open_lo else "["
        raise ParameterError(f"`{name}` must be in {side}{lo:g}, {hi:g}], got {name}={value!r}.")
    return x


def check_sensitivity(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ParameterTypeError(f"`sensitivity` must be an integer, got sensitivity={value!r}.")
    if not 1 <= int(value) <= 100:
        raise ParameterError(f"`sensitivity` must be in [1, 100], got sensitivity={value!r}.")
    return int(value)


# ------------------------------------------------------------------ rigorous rational bounds
def _float_bracket(x: Fraction) -> tuple[float, float]:
    """Floats lo <= x <= hi, adjacent or equal."""
    f = float(x)  # correctly rounded
    lo = f if Fraction(f) <= x else math.nextafter(f, -math.inf)
    hi = f if Fraction(f) >= x else math.nextafter(f, math.inf)
    return lo, hi


def exp_neg(x: Fraction) -> tuple[Fraction, Fraction]:
    """Rationals lo <= e^(-x) <= hi for rational x >= 0 (rainbowdp.exp_bounds)."""
    x_lo, x_hi = _float_bracket(x)
    # lower bound: 1/U with U >= e^x_hi >= e^x; 0 beyond the range of exp_bounds
    lower = Fraction(0) if x_hi > 1e5 else 1 / exp_bounds(x_hi)[1]
    # upper bound: 1/L with L <= e^x_lo <= e^x; e^-x < 2^-BITS beyond the range
    upper = Fraction(1, 2**BITS) if x_lo > 1e5 else 1 / exp_bounds(max(x_lo, 0.0))[0]
    return lower, upper


def _round_down(x: Fraction) -> float:
    return _float_bracket(x)[0]


def _round_up(x: Fraction) -> float:
    return _float_bracket(x)[1]


class _GaussianWeights:
    """Integer bounds a_k <= 2^BITS e^{-k^2/(2 sigma^2)} <= b_k, computed once per |k|."""

    def __init__(self, sigma: float) -> None:
        self.sigma = sigma
        self._two_s2 = 2 * Fraction(sigma) ** 2
        self._cache: dict[int, tuple[int, int]] = {}
        self.J = math.ceil(20.0 * sigma) + 2  # beyond J every term is below e^-200 of the peak

    def __call__(self, k: int) -> tuple[int, int]:
        k = abs(k)
        if k not in self._cache:
            lo, hi = exp_neg(Fraction(k * k) / self._two_s2)
            scale = 2**BITS
            self._cache[k] = (math.floor(lo * scale), math.ceil(hi * scale))
        return self._cache[k]

    def tail(self, j: int) -> int:
        """An integer >= 2^BITS sum_{k > j} e^{-k^2/(2 sigma^2)} (j >= 0).

        Consecutive terms beyond j fall by at least r = e^{-(2j+3)/(2 sigma^2)}, so the sum is at
        most term_{j+1} / (1 - r)."""
        _, b = self(j + 1)
        _, r_hi = exp_neg(Fraction(2 * j + 3) / self._two_s2)
        return math.ceil(Fraction(b) / (1 - r_hi))


def _gaussian_atoms(
    w: _GaussianWeights, lo: int, hi: int, shift: int
) -> tuple[list[Fraction], list[Fraction]]:
    """Bounds on the law of clamp(shift + Y, lo, hi), Y ~ N_Z(0, sigma^2), on outputs lo..hi."""
    J = max(w.J, abs(lo - shift) + 1, abs(hi - shift) + 1)
    ks = range(-J, J + 1)
    a = {k: w(k)[0] for k in ks}
    b = {k: w(k)[1] for k in ks}
    tail = w.tail(J)
    z_lo = sum(a.values())
    z_hi = sum(b.values()) + 2 * tail
    lower, upper = [], []
    for y in range(lo, hi + 1):
        k = y - shift
        if y == lo:
            part = [j for j in ks if j <= k]
            n_lo, n_hi = sum(a[j] for j in part), sum(b[j] for j in part) + tail
        elif y == hi:
            part = [j for j in ks if j >= k]
            n_lo, n_hi = sum(a[j] for j in part), sum(b[j] for j in part) + tail
        else:
            n_lo, n_hi = a[k], b[k]
        lower.append(Fraction(n_lo, z_hi))
        upper.append(Fraction(min(n_hi, z_lo), z_lo))
    return lower, upper


def _pair_graph(q: int) -> RainbowGraph:
    """Two datasets, the arc 0 -> 1 (P_0(S) <= e^eps P_1(S) + delta only), q outputs."""
    return RainbowGraph.from_edges(
        [[0, 1]],
        outputs=list(range(q)),
        rainbow_table=[list(range(q))],
        rainbow_ids=[0, 0],
        directed=True,
    )


def outward(p_bounds: list[Fraction], q_bounds: list[Fraction], *, up: bool) -> np.ndarray:
    """Rows (2, q): P rounded up and Q down (up=True: H can only grow), or the reverse."""
    p = [_round_up(x) if up else _round_down(x) for x in p_bounds]
    q = [_round_down(x) if up else _round_up(x) for x in q_bounds]
    return np.array([p, q], dtype=np.float64)


# --------------------------------------------------------------------- the discrete Gaussian
@dataclass(frozen=True)
class DeltaBounds:
    """Rigorous bounds ``lower <= δ <= upper`` on an exact δ(ε).

    Attributes
    ----------
    lower : float
        At most the exact δ (proved in rational arithmetic).
    upper : float
        At least the exact δ (proved in rational arithmetic).
    """

    lower: float
    upper: float


def _threshold(sigma: float, epsilon: float, shift: int) -> Fraction:
    """Outputs y below t have privacy loss ln P(y)/Q(y) > ε for P = N_Z(0), Q = N_Z(shift)."""
    return Fraction(shift, 2) - Fraction(epsilon) * Fraction(sigma) ** 2 / shift


def _dg_rows(
    shift: int, lo: int, hi: int, w: _GaussianWeights
) -> tuple[tuple[list[Fraction], list[Fraction]], tuple[list[Fraction], list[Fraction]]]:
    """(lower, upper) bounds of P = clamped N_Z(0) and of Q = clamped N_Z(shift)."""
    return _gaussian_atoms(w, lo, hi, 0), _gaussian_atoms(w, lo, hi, shift)


def discrete_gaussian_dp_delta(
    sigma: float, epsilon: float, *, sensitivity: int = 1
) -> DeltaBounds:
    r"""Exact δ(ε) of the discrete Gaussian mechanism on ℤ, enclosed rigorously.

    Parameters
    ----------
    sigma : float
        σ in (0, 1000].
    epsilon : float
        ε in [0, 100].
    sensitivity : int, default 1
        Δ in [1, 100]: neighbouring answers differ by at most Δ.

    Returns
    -------
    DeltaBounds
        ``lower <= δ(ε) <= upper``, with :math:`\delta(\epsilon) = \max_{1 \le d \le \Delta}
        H_{e^\epsilon}(\mathcal N_{\mathbb Z}(0, \sigma^2) \| \mathcal N_{\mathbb Z}(d,
        \sigma^2))`.

    Notes
    -----
    For the shift d the privacy loss :math:`\ln P(y)/Q(y) = (d^2 - 2dy)/(2\sigma^2)` decreases
    in y, so the event attaining the hockey-stick divergence is :math:`\{y < t\}`, t = d/2 −
    εσ²/d. Clamping the output to {lo, …, hi} with lo < t <= hi merges only outputs on one side
    of t, so it keeps the divergence *exactly* (every merged term has one sign). The clamped
    law is enclosed entry by entry in rationals (weights by :func:`rainbowdp.exp_bounds` to
    2^-256, the normaliser's tail beyond 20σ by a geometric series) and rounded outward to
    float64: P up and Q down give rows whose divergence is at least the exact one, P down and Q
    up rows whose divergence is at most it. :func:`rainbowdp.certify` (exact rational
    arithmetic) on the two-node directed graph of each gives the two bounds. The reverse
    direction H(Q‖P) equals H(P‖Q) (reflect y ↦ d − y).

    Examples
    --------
    >>> b = discrete_gaussian_dp_delta(1.0, 1.0)
    >>> b.lower <= b.upper and abs(b.upper - 0.141351) < 1e-6
    True
    """
    s = check_real(sigma, "sigma", 0.0, MAX_SIGMA, open_lo=True)
    e = check_real(epsilon, "epsilon", 0.0, 100.0)
    sens = check_sensitivity(sensitivity)
    w = _GaussianWeights(s)
    lower = upper = 0.0
    for d in range(1, sens + 1):
        t = _threshold(s, e, d)
        lo, hi = math.ceil(t) - 2, math.ceil(t) + 1  # lo < t <= hi
        p, q = _dg_rows(d, lo, hi, w)
        G = _pair_graph(hi - lo + 1)
        up = Mechanism(G, outward(p[1], q[0], up=True))
        down = Mechanism(G, outward(p[0], q[1], up=False))
        upper = max(upper, _round_up(certify(up, epsilon=e, delta=0.0).delta_upper))
        lower = max(lower, _round_down(certify(down, epsilon=e, delta=0.0).delta_lower))
    return DeltaBounds(lower, upper)


discrete_gaussian_delta = deprecated_alias(
    discrete_gaussian_dp_delta, "discrete_gaussian_delta", "discrete_gaussian_dp_delta"
)


def certify_discrete_gaussian(
    sigma: float, epsilon: float, delta: float, *, sensitivity: int = 1
) -> str:
    """Whether the discrete Gaussian mechanism on ℤ is (ε, δ)-DP, decided in exact arithmetic.

    Parameters
    ----------
    sigma : float
        σ in (0, 1000].
    epsilon : float
        ε in [0, 100].
    delta : float
        δ in [0, 1].
    sensitivity : int, default 1
        Δ in [1, 100].

    Returns
    -------
    str
        ``"private"`` when :func:`rainbowdp.certify` proves the outward-rounded rows (whose δ is
        at least the exact one) private for every shift; ``"not private"`` when it proves the
        inward-rounded rows (whose δ is at most the exact one) not private for some shift;
        otherwise ``"undecided"``. See :func:`discrete_gaussian_dp_delta`.

    Examples
    --------
    >>> certify_discrete_gaussian(1.0, 1.0, 0.15)
    'private'
    """
    s = check_real(sigma, "sigma", 0.0, MAX_SIGMA, open_lo=True)
    e = check_real(epsilon, "epsilon", 0.0, 100.0)
    dl = check_real(delta, "delta", 0.0, 1.0)
    sens = check_sensitivity(sensitivity)
    w = _GaussianWeights(s)
    private = True
    for d in range(1, sens + 1):
        t = _threshold(s, e, d)
        lo, hi = math.ceil(t) - 2, math.ceil(t) + 1
        p, q = _dg_rows(d, lo, hi, w)
        G = _pair_graph(hi - lo + 1)
        down = Mechanism(G, outward(p[0], q[1], up=False))
        if certify(down, epsilon=e, delta=dl).verdict == "not private":
            return "not private"
        up = Mechanism(G, outward(p[1], q[0], up=True))
        private = private and certify(up, epsilon=e, delta=dl).verdict == "private"
    return "private" if private else "undecided"


def discrete_gaussian_epsilon(sigma: float, delta: float, *, sensitivity: int = 1) -> float:
    r"""A proved upper bound on the exact ε(δ) of the discrete Gaussian mechanism on ℤ.

    Parameters
    ----------
    sigma : float
        σ in (0, 1000].
    delta : float
        δ in (0, 1).
    sensitivity : int, default 1
        Δ in [1, 100].

    Returns
    -------
    float
        ε̂ such that the mechanism is (ε̂, δ)-DP in exact arithmetic, ε̂ exceeding the exact
        smallest ε by about 1e-13 (:func:`rainbowdp.epsilon_for_delta` of the outward-rounded
        clamped pair, see :func:`discrete_gaussian_dp_delta`).

    Notes
    -----
    The clamping window {lo, …, hi} is chosen to contain the threshold t(ε) of every ε up to
    the zCDP bound :func:`cdp_epsilon` (an upper bound on the answer); after the solve the
    condition lo < t(ε̂) <= hi is checked in rationals, so that the clamped pair's divergence at
    ε̂ is the exact one (widening the window otherwise).

    Examples
    --------
    >>> e = discrete_gaussian_epsilon(2.0, 1e-6)
    >>> e < cdp_epsilon(1 / 8, 1e-6)      # the zCDP conversion is conservative
    True
    """
    s = check_real(sigma, "sigma", 0.0, MAX_SIGMA, open_lo=True)
    dl = check_real(delta, "delta", 0.0, 1.0, open_lo=True)
    if dl >= 1.0:
        raise ParameterError(f"`delta` must be below 1, got delta={delta!r}.")
    sens = check_sensitivity(sensitivity)
    w = _GaussianWeights(s)
    best = 0.0
    for d in range(1, sens + 1):
        e_max = cdp_epsilon(d * d / (2.0 * s * s), dl) * 1.25 + 0.5
        while True:
            lo = math.ceil(_threshold(s, e_max, d)) - 2
            hi = math.ceil(Fraction(d, 2)) + 1
            p, q = _dg_rows(d, lo, hi, w)
            pair = outward(p[1], q[0], up=True)
            e_hat = float(epsilon_for_delta((pair[0], pair[1]), dl, one_way=True))
            if lo < _threshold(s, e_hat, d) <= hi:
                break
            e_max *= 2.0  # pragma: no cover - the zCDP bound already covers the answer
        best = max(best, e_hat)
    return best


# ------------------------------------------------------------------- zCDP -> (ε, δ) (OpenDP)
def cdp_delta(rho: float, epsilon: float) -> float:
    r"""δ(ε) of a ρ-zCDP mechanism by Canonne, Kamath, Steinke (2020), Corollary 13.

    .. math::

        \delta = \inf_{\alpha > 1} \frac{e^{(\alpha - 1)(\alpha\rho - \epsilon)}}{\alpha - 1}
        \Big(1 - \frac{1}{\alpha}\Big)^{\alpha},

    the conversion OpenDP documents for its zCDP measurements. The exponent's derivative in α,
    (2α − 1)ρ − ε + ln(1 − 1/α), increases, and its root is found by bisection; any α gives a
    valid δ, so an inexact root only raises δ.

    Parameters
    ----------
    rho : float
        ρ in (0, 1e6].
    epsilon : float
        ε in [0, 1e6].

    Returns
    -------
    float
        δ, at most 1.

    Examples
    --------
    >>> round(cdp_delta(0.125, 1.5460961269033575), 6)   # OpenDP, sigma = 2, delta = 1e-3
    0.001
    """
    r = check_real(rho, "rho", 0.0, 1e6, open_lo=True)
    e = check_real(epsilon, "epsilon", 0.0, 1e6)
    lo, hi = 1.0 + 1e-12, (e + 1.0) / (2.0 * r) + 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if (2.0 * mid - 1.0) * r - e + math.log1p(-1.0 / mid) < 0.0:
            lo = mid
        else:
            hi = mid
    a = 0.5 * (lo + hi)
    log_delta = (a - 1.0) * (a * r - e) + a * math.log1p(-1.0 / a) - math.log(a - 1.0)
    return min(1.0, math.exp(log_delta))


def cdp_epsilon(rho: float, delta: float) -> float:
    """The smallest ε with :func:`cdp_delta` (ρ, ε) <= δ, found by bisection (its upper end).

    Parameters
    ----------
    rho : float
        ρ in (0, 1e6].
    delta : float
        δ in (0, 1].

    Returns
    -------
    float
        ε >= 0; it never exceeds the classical ρ + 2 (ρ ln(1/δ))^(1/2).

    Examples
    --------
    >>> round(cdp_epsilon(1 / 32, 1e-3), 10)      # Gaussian of scale 4 on a sensitivity of 1
    0.6880024555
    """
    r = check_real(rho, "rho", 0.0, 1e6, open_lo=True)
    dl = check_real(delta, "delta", 0.0, 1.0, open_lo=True)
    lo, hi = 0.0, r + 2.0 * math.sqrt(r * math.log(1.0 / dl))
    if cdp_delta(r, 0.0) <= dl:
        return 0.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if cdp_delta(r, mid) <= dl:
            hi = mid
        else:
            lo = mid
        if hi - lo <= 4e-16 * hi:
            break
    return hi
