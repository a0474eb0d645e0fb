r"""What other libraries promise, checked: their published parameter rules and the exact guarantees.

Other differential-privacy libraries turn a requested guarantee into a noise parameter, or a
noise parameter into a stated guarantee, by documented rules. This module re-implements those
rules from their published formulas (it imports none of those libraries, except Google's
``dp_accounting``, an optional dependency, whose accountants are called as they are) and computes
the exact guarantee of the mechanism each rule produces with rainbowdp's verifier:

- **diffprivlib** ``GaussianDiscrete``: σ for (ε, δ) by bisection on the δ(σ) of Canonne, Kamath
  and Steinke (2020), Theorem 7, returning the midpoint of the last bracket
  (:func:`diffprivlib_gaussian_discrete_sigma`); ``Geometric``: the discrete Laplace law with
  scale Δ/ε; ``Exponential`` with a 0/1 utility of sensitivity 1, used as k-ary randomized
  response (:func:`diffprivlib_exponential_rr`).
- **OpenDP**: the discrete Gaussian stated as ρ-zCDP with ρ = Δ²/(2σ²), converted to (ε, δ) by
  the conversion of Canonne, Kamath and Steinke (2020), Corollary 13 (:func:`cdp_delta`,
  :func:`cdp_epsilon`, :func:`opendp_discrete_gaussian_epsilon`); the discrete Laplace law with
  scale s stated (Δ/s)-DP.
- **dp_accounting**: its privacy-loss-distribution and Rényi accountants
  (:func:`dp_accounting_discrete_gaussian_epsilon`,
  :func:`dp_accounting_discrete_laplace_epsilon`).

The exact side works on the textbook mechanisms with an infinite output set
(:func:`discrete_gaussian_delta`, :func:`discrete_gaussian_epsilon`,
:func:`discrete_laplace_epsilon`, :func:`certify_discrete_gaussian`). How the infinite set is
made finite without error, and how every reported number errs only in the safe direction, is
explained in the Notes of :func:`discrete_gaussian_delta` and in ``docs/peers.md``;
:func:`peer_table` gathers every comparison and :func:`format_peer_table` prints it.

Examples
--------
>>> sigma = diffprivlib_gaussian_discrete_sigma(2.0, 1e-3)
>>> b = discrete_gaussian_delta(sigma, 2.0)
>>> b.lower > 1e-3                # the stated (2, 1e-3) does not hold: proved
True
>>> certify_discrete_gaussian(sigma, 2.0, 1e-3)
'not private'
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from .exceptions import ParameterError, ParameterTypeError
from .graph import RainbowGraph
from .mechanism import Mechanism
from .noise import DiscreteGaussian, RandomizedResponse
from .privacy import epsilon_for_delta

__all__ = [
    "DeltaBounds",
    "PeerRow",
    "cdp_delta",
    "cdp_epsilon",
    "certify_discrete_gaussian",
    "diffprivlib_exponential_rr",
    "diffprivlib_gaussian_discrete_sigma",
    "discrete_gaussian_delta",
    "discrete_gaussian_epsilon",
    "discrete_laplace_epsilon",
    "dp_accounting_discrete_gaussian_epsilon",
    "dp_accounting_discrete_laplace_epsilon",
    "format_peer_table",
    "opendp_discrete_gaussian_epsilon",
    "peer_table",
]

#: Fixed-point precision of the rigorous law bounds: every weight is enclosed to 2^-256.
BITS = 256
#: Largest σ handled by the exact discrete Gaussian functions (their cost grows like σ).
MAX_SIGMA = 1000.0


# ------------------------------------------------------------------------------- validation
def _real(value: Any, name: str, lo: float, hi: float, *, open_lo: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ParameterTypeError(f"`{name}` must be a real number, got {name}={value!r}.")
    x = float(value)
    ok = math.isfinite(x) and (lo < x if open_lo else lo <= x) and x <= hi
    if not ok:
        side = "(" if open_lo else "["
        raise ParameterError(f"`{name}` must be in {side}{lo:g}, {hi:g}], got {name}={value!r}.")
    return x


def _sensitivity(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ParameterTypeError(f"`sensitivity` must be an integer, got sensitivity={value!r}.")
    if not 1 <= int(value) <= 100:
        raise ParameterError(f"`sensitivity` must be in [1, 100], got sensitivity={value!r}.")
    return int(value)


# ------------------------------------------------------------------ rigorous rational bounds
def _api() -> Any:
    """The package's public API (certify, exp_bounds), imported when first needed."""
    import rainbowdp

    return rainbowdp


def _float_bracket(x: Fraction) -> tuple[float, float]:
    """Floats lo <= x <= hi, adjacent or equal."""
    f = float(x)  # correctly rounded
    lo = f if Fraction(f) <= x else math.nextafter(f, -math.inf)
    hi = f if Fraction(f) >= x else math.nextafter(f, math.inf)
    return lo, hi


def _exp_neg(x: Fraction) -> tuple[Fraction, Fraction]:
    """Rationals lo <= e^(-x) <= hi for rational x >= 0 (rainbowdp.exp_bounds)."""
    x_lo, x_hi = _float_bracket(x)
    exp_bounds = _api().exp_bounds  # exact for arguments up to 1e5
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
            lo, hi = _exp_neg(Fraction(k * k) / self._two_s2)
            scale = 2**BITS
            self._cache[k] = (math.floor(lo * scale), math.ceil(hi * scale))
        return self._cache[k]

    def tail(self, j: int) -> int:
        """An integer >= 2^BITS sum_{k > j} e^{-k^2/(2 sigma^2)} (j >= 0).

        Consecutive terms beyond j fall by at least r = e^{-(2j+3)/(2 sigma^2)}, so the sum is at
        most term_{j+1} / (1 - r)."""
        _, b = self(j + 1)
        _, r_hi = _exp_neg(Fraction(2 * j + 3) / self._two_s2)
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


def _outward(p_bounds: list[Fraction], q_bounds: list[Fraction], *, up: bool) -> np.ndarray:
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


def discrete_gaussian_delta(sigma: float, epsilon: float, *, sensitivity: int = 1) -> DeltaBounds:
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
    >>> b = discrete_gaussian_delta(1.0, 1.0)
    >>> b.lower <= b.upper and abs(b.upper - 0.141351) < 1e-6
    True
    """
    s = _real(sigma, "sigma", 0.0, MAX_SIGMA, open_lo=True)
    e = _real(epsilon, "epsilon", 0.0, 100.0)
    sens = _sensitivity(sensitivity)
    rdp = _api()
    w = _GaussianWeights(s)
    lower = upper = 0.0
    for d in range(1, sens + 1):
        t = _threshold(s, e, d)
        lo, hi = math.ceil(t) - 2, math.ceil(t) + 1  # lo < t <= hi
        p, q = _dg_rows(d, lo, hi, w)
        G = _pair_graph(hi - lo + 1)
        up = Mechanism(G, _outward(p[1], q[0], up=True))
        down = Mechanism(G, _outward(p[0], q[1], up=False))
        upper = max(upper, _round_up(rdp.certify(up, epsilon=e, delta=0.0).delta_upper))
        lower = max(lower, _round_down(rdp.certify(down, epsilon=e, delta=0.0).delta_lower))
    return DeltaBounds(lower, upper)


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
        otherwise ``"undecided"``. See :func:`discrete_gaussian_delta`.

    Examples
    --------
    >>> certify_discrete_gaussian(1.0, 1.0, 0.15)
    'private'
    """
    s = _real(sigma, "sigma", 0.0, MAX_SIGMA, open_lo=True)
    e = _real(epsilon, "epsilon", 0.0, 100.0)
    dl = _real(delta, "delta", 0.0, 1.0)
    sens = _sensitivity(sensitivity)
    rdp = _api()
    w = _GaussianWeights(s)
    private = True
    for d in range(1, sens + 1):
        t = _threshold(s, e, d)
        lo, hi = math.ceil(t) - 2, math.ceil(t) + 1
        p, q = _dg_rows(d, lo, hi, w)
        G = _pair_graph(hi - lo + 1)
        down = Mechanism(G, _outward(p[0], q[1], up=False))
        if rdp.certify(down, epsilon=e, delta=dl).verdict == "not private":
            return "not private"
        up = Mechanism(G, _outward(p[1], q[0], up=True))
        private = private and rdp.certify(up, epsilon=e, delta=dl).verdict == "private"
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
        clamped pair, see :func:`discrete_gaussian_delta`).

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
    s = _real(sigma, "sigma", 0.0, MAX_SIGMA, open_lo=True)
    dl = _real(delta, "delta", 0.0, 1.0, open_lo=True)
    if dl >= 1.0:
        raise ParameterError(f"`delta` must be below 1, got delta={delta!r}.")
    sens = _sensitivity(sensitivity)
    w = _GaussianWeights(s)
    best = 0.0
    for d in range(1, sens + 1):
        e_max = cdp_epsilon(d * d / (2.0 * s * s), dl) * 1.25 + 0.5
        while True:
            lo = math.ceil(_threshold(s, e_max, d)) - 2
            hi = math.ceil(Fraction(d, 2)) + 1
            p, q = _dg_rows(d, lo, hi, w)
            pair = _outward(p[1], q[0], up=True)
            e_hat = float(epsilon_for_delta((pair[0], pair[1]), dl, one_way=True))
            if lo < _threshold(s, e_hat, d) <= hi:
                break
            e_max *= 2.0  # pragma: no cover - the zCDP bound already covers the answer
        best = max(best, e_hat)
    return best


# ----------------------------------------------------------------------- the discrete Laplace
def discrete_laplace_epsilon(parameter: float, delta: float, *, sensitivity: int = 1) -> float:
    r"""A proved upper bound on the exact ε(δ) of the discrete Laplace mechanism on ℤ.

    The law is :math:`f(k) \propto e^{-a|k|}` (a = ``parameter``; the two-sided geometric law
    with α = e^{-a}).

    Parameters
    ----------
    parameter : float
        a in (0, 50].
    delta : float
        δ in [0, 1).
    sensitivity : int, default 1
        Δ in [1, 100].

    Returns
    -------
    float
        ε̂ with the mechanism (ε̂, δ)-DP in exact arithmetic (aΔ, rounded up, at δ = 0).

    Notes
    -----
    For the shift d the privacy loss :math:`a(|y - d| - |y|)` is ad for y <= 0, −ad for y >= d and
    decreasing in between, so clamping to {−1, …, d + 1} merges only outputs of one loss and keeps
    every hockey-stick divergence exactly. The atoms are enclosed in rationals
    (:func:`rainbowdp.exp_bounds`: :math:`f(k) = \alpha^{|k|}(1-\alpha)/(1+\alpha)`, the tails
    :math:`\alpha^{m}/(1+\alpha)`), rounded outward (P up, Q down) and solved by
    :func:`rainbowdp.epsilon_for_delta`.

    Examples
    --------
    >>> e = discrete_laplace_epsilon(0.5, 0.0)
    >>> 0.5 <= e < 0.5 + 1e-12
    True
    """
    a = _real(parameter, "parameter", 0.0, 50.0, open_lo=True)
    dl = _real(delta, "delta", 0.0, 1.0)
    if dl >= 1.0:
        raise ParameterError(f"`delta` must be below 1, got delta={delta!r}.")
    sens = _sensitivity(sensitivity)
    fa = Fraction(a)
    al_lo, al_hi = _exp_neg(fa)

    def atom(k: int, lo: int, hi: int) -> tuple[Fraction, Fraction]:
        """Bounds on P[clamp(Y, lo, hi) = k] for lo < 0 < hi: alpha^|k|/(1 + alpha) at the
        ends (a whole tail), alpha^|k| (1 - alpha)/(1 + alpha) inside."""
        e_lo, e_hi = _exp_neg(fa * abs(k))
        if k in (lo, hi):
            return e_lo / (1 + al_hi), e_hi / (1 + al_lo)
        return e_lo * (1 - al_hi) / (1 + al_hi), e_hi * (1 - al_lo) / (1 + al_lo)

    best = 0.0
    for d in range(1, sens + 1):
        lo, hi = -1, d + 1
        p = [atom(y, lo, hi) for y in range(lo, hi + 1)]
        q = [atom(y - d, lo - d, hi - d) for y in range(lo, hi + 1)]
        pair = _outward([x[1] for x in p], [x[0] for x in q], up=True)
        best = max(best, float(epsilon_for_delta((pair[0], pair[1]), dl, one_way=True)))
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
    r = _real(rho, "rho", 0.0, 1e6, open_lo=True)
    e = _real(epsilon, "epsilon", 0.0, 1e6)
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
    r = _real(rho, "rho", 0.0, 1e6, open_lo=True)
    dl = _real(delta, "delta", 0.0, 1.0, open_lo=True)
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


def opendp_discrete_gaussian_epsilon(sigma: float, delta: float, *, sensitivity: int = 1) -> float:
    """ε(δ) OpenDP states for its discrete Gaussian of scale σ: ρ = Δ²/(2σ²), then
    :func:`cdp_epsilon`.

    Parameters
    ----------
    sigma : float
        σ in (0, 1000].
    delta : float
        δ in (0, 1).
    sensitivity : int, default 1

    Returns
    -------
    float

    Examples
    --------
    >>> round(opendp_discrete_gaussian_epsilon(2.0, 1e-3), 6)
    1.546096
    """
    s = _real(sigma, "sigma", 0.0, MAX_SIGMA, open_lo=True)
    dl = _real(delta, "delta", 0.0, 1.0, open_lo=True)
    sens = _sensitivity(sensitivity)
    return cdp_epsilon(sens * sens / (2.0 * s * s), dl)


# ----------------------------------------------------------------------------- diffprivlib
def diffprivlib_gaussian_discrete_sigma(
    epsilon: float, delta: float, *, sensitivity: int = 1
) -> float:
    r"""σ that diffprivlib's ``GaussianDiscrete`` chooses for (ε, δ): its rule, re-implemented.

    The objective is δ(σ) − δ with δ(σ) the hockey-stick divergence of Canonne, Kamath and
    Steinke (2020), Theorem 7 (:meth:`rainbowdp.noise.DiscreteGaussian.delta_at`). A bracket
    [σ₀, σ₁] of consecutive powers of two is grown from σ₀ = 1 (doubling when the objective at
    1 is positive, halving otherwise) until the objective changes sign; it is then bisected
    until :math:`|\sigma_0 - \sigma_1| \le 10^{-12} + 10^{-6} |\sigma_1|`, and the **midpoint**
    of the last bracket is returned.
    That midpoint lies on either side of the root: where it lies below it, δ(σ) exceeds δ.

    Parameters
    ----------
    epsilon : float
        ε in (0, 100].
    delta : float
        δ in (0, 1).
    sensitivity : int, default 1

    Returns
    -------
    float

    Examples
    --------
    >>> diffprivlib_gaussian_discrete_sigma(2.0, 1e-3)
    1.4644103050231934
    """
    e = _real(epsilon, "epsilon", 0.0, 100.0, open_lo=True)
    dl = _real(delta, "delta", 0.0, 1.0, open_lo=True)
    if dl >= 1.0:
        raise ParameterError(f"`delta` must be below 1, got delta={delta!r}.")
    sens = _sensitivity(sensitivity)

    def objective(s: float) -> float:
        return DiscreteGaussian(sigma=s, sensitivity=sens).delta_at(e) - dl

    a, fa = 1.0, objective(1.0)
    step = 2.0 if fa > 0 else 0.5
    b, fb = a * step, objective(a * step)
    while fa * fb > 0:
        a, fa = b, fb
        b = b * step
        fb = objective(b)
    while abs(a - b) > 1e-12 + 1e-6 * abs(b):
        m = (a + b) / 2
        fm = objective(m)
        if fm * fa <= 0:
            b, fb = m, fm
        if fm * fb <= 0:
            a, fa = m, fm
    return (a + b) / 2


def diffprivlib_exponential_rr(epsilon: float, k: int) -> Mechanism:
    r"""k-ary randomized response made by diffprivlib's ``Exponential`` rule.

    diffprivlib's exponential mechanism (non-monotonic utility) outputs v with probability
    proportional to :math:`\exp(\epsilon\, u(v) / (2\Delta_u))` and states ε-DP. With the 0/1
    utility u(v) = [v = the true answer], whose sensitivity is Δ_u = 1, the true answer has
    probability :math:`e^{\epsilon/2}/(e^{\epsilon/2} + k - 1)`: k-ary randomized response at
    ε/2. The mechanism is built on the complete graph on the answers 0..k−1
    (:meth:`rainbowdp.noise.RandomizedResponse.graph`).

    Parameters
    ----------
    epsilon : float
        The stated ε, in (0, 700].
    k : int
        Number of answers, in [2, 2001].

    Returns
    -------
    Mechanism

    Examples
    --------
    >>> M = diffprivlib_exponential_rr(1.0, 3)
    >>> 0.5 <= epsilon_for_delta(M, 0.0) < 0.5 + 1e-12      # stated 1
    True
    """
    e = _real(epsilon, "epsilon", 0.0, 700.0, open_lo=True)
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise ParameterTypeError(f"`k` must be an integer, got k={k!r}.")
    if not 2 <= int(k) <= 2001:
        raise ParameterError(f"`k` must be in [2, 2001], got k={k!r}.")
    k = int(k)
    G = RandomizedResponse(epsilon=0.0).graph(k - 1)
    x = math.exp(-e / 2.0)  # weights 1 (true answer) and e^(-eps/2) (the others)
    rows = np.full((k, k), x / (1.0 + (k - 1) * x))
    np.fill_diagonal(rows, 1.0 / (1.0 + (k - 1) * x))
    return Mechanism(G, rows)


# --------------------------------------------------------------------------- dp_accounting
def _dp_accounting() -> Any:
    try:
        import dp_accounting
    except ImportError as exc:  # pragma: no cover - the test extra installs it
        raise ImportError(
            'this needs the optional dependency dp_accounting: pip install "rainbowdp[accounting]"'
        ) from exc
    return dp_accounting


def dp_accounting_discrete_gaussian_epsilon(
    sigma: float, delta: float, *, sensitivity: int = 1
) -> dict[str, float]:
    """ε(δ) that dp_accounting states for the discrete Gaussian of scale σ.

    Returns
    -------
    dict
        ``"pld"``: its privacy loss distribution
        (``from_discrete_gaussian_mechanism(sigma, sensitivity=Δ)``, pessimistic estimate,
        default discretisation) and ``get_epsilon_for_delta``; ``"rdp"``: its Rényi accountant
        on a Gaussian event of noise multiplier σ/Δ (the discrete Gaussian meets the same Rényi
        bounds, Canonne, Kamath, Steinke 2020).

    Examples
    --------
    >>> d = dp_accounting_discrete_gaussian_epsilon(2.0, 1e-6)
    >>> d["pld"] < d["rdp"]
    True
    """
    s = _real(sigma, "sigma", 0.0, MAX_SIGMA, open_lo=True)
    dl = _real(delta, "delta", 0.0, 1.0, open_lo=True)
    sens = _sensitivity(sensitivity)
    dpa = _dp_accounting()
    pld = dpa.pld.privacy_loss_distribution.from_discrete_gaussian_mechanism(s, sensitivity=sens)
    acc = dpa.rdp.RdpAccountant()
    acc.compose(dpa.GaussianDpEvent(s / sens))
    return {"pld": float(pld.get_epsilon_for_delta(dl)), "rdp": float(acc.get_epsilon(dl))}


def dp_accounting_discrete_laplace_epsilon(
    parameter: float, delta: float, *, sensitivity: int = 1
) -> float:
    """ε(δ) that dp_accounting's privacy loss distribution states for the discrete Laplace law.

    ``from_discrete_laplace_mechanism(parameter, sensitivity=Δ)`` (pessimistic estimate,
    default discretisation), then ``get_epsilon_for_delta``.

    Examples
    --------
    >>> dp_accounting_discrete_laplace_epsilon(0.5, 0.0) >= 0.5
    True
    """
    a = _real(parameter, "parameter", 0.0, 50.0, open_lo=True)
    dl = _real(delta, "delta", 0.0, 1.0)
    sens = _sensitivity(sensitivity)
    dpa = _dp_accounting()
    pld = dpa.pld.privacy_loss_distribution.from_discrete_laplace_mechanism(a, sensitivity=sens)
    return float(pld.get_epsilon_for_delta(dl))


# ------------------------------------------------------------------------------ the table
@dataclass(frozen=True)
class PeerRow:
    """One stated guarantee beside the exact one.

    Attributes
    ----------
    library, mechanism, setting : str
        Who states it, for what, with which parameters.
    measure : str
        ``"delta"`` (δ at the stated ε) or ``"epsilon"`` (ε at the stated δ).
    at : float
        The other parameter: the ε of a ``"delta"`` row, the δ of an ``"epsilon"`` row.
    stated : float
        What the library states.
    exact_lower, exact_upper : float
        Proved bounds on the exact value (``exact_lower`` is 0 for ``"epsilon"`` rows, where
        only the proved upper bound is computed).
    """

    library: str
    mechanism: str
    setting: str
    measure: str
    at: float
    stated: float
    exact_lower: float
    exact_upper: float

    @property
    def verdict(self) -> str:
        """``"unsound"``: proved, the exact value exceeds the stated one; ``"tight"``: the
        stated value is within 1e-9 (relative) of the proved bound, on either side (the proved
        bound can exceed a tight claim by its round-off, about 1e-13); ``"conservative"``:
        proved sound, the stated value above the exact one; otherwise ``"undecided"``."""
        if self.exact_lower > self.stated:
            return "unsound"
        if abs(self.stated - self.exact_upper) <= 1e-9 * self.stated:
            return "tight"
        if self.exact_upper <= self.stated:
            return "conservative"
        return "undecided"

    @property
    def excess(self) -> float:
        """(stated − exact)/exact for ε, (exact − stated)/stated for δ: the margin (ε) or the
        shortfall (δ), from the side of the bounds that never overstates it."""
        if self.measure == "epsilon":
            return (self.stated - self.exact_upper) / self.exact_upper
        return (self.exact_lower - self.stated) / self.stated


#: The (ε, δ) requests of the diffprivlib rows of :func:`peer_table`.
DIFFPRIVLIB_CASES = ((2.0, 1e-3), (0.1, 1e-3), (3.0, 1e-9), (1.0, 1e-6), (0.5, 1e-9))
#: The (σ, δ) grid of the OpenDP discrete Gaussian rows.
OPENDP_GRID = tuple((s, d) for s in (0.5, 1.0, 2.0, 5.0, 10.0, 20.0) for d in (1e-3, 1e-6, 1e-9))


def _dg_epsilon_row(library: str, sigma: float, delta: float, stated: float) -> PeerRow:
    exact = discrete_gaussian_epsilon(sigma, delta)
    setting = f"σ = {sigma:g}, Δ = 1"
    return PeerRow(library, "discrete Gaussian", setting, "epsilon", delta, stated, 0.0, exact)


def peer_table(*, accounting: bool = True) -> list[PeerRow]:
    """Every comparison of ``docs/peers.md``: stated guarantee beside the exact one.

    Parameters
    ----------
    accounting : bool, default True
        Include the dp_accounting rows (needs the optional dependency).

    Returns
    -------
    list of PeerRow

    Examples
    --------
    >>> rows = peer_table(accounting=False)
    >>> sorted({r.verdict for r in rows if r.library == "diffprivlib"})
    ['conservative', 'tight', 'unsound']
    """
    rows: list[PeerRow] = []
    for e, d in DIFFPRIVLIB_CASES:
        s = diffprivlib_gaussian_discrete_sigma(e, d)
        b = discrete_gaussian_delta(s, e)
        setting = f"(ε, δ) = ({e:g}, {d:g}) → σ = {s!r}"
        rows.append(
            PeerRow("diffprivlib", "GaussianDiscrete", setting, "delta", e, d, b.lower, b.upper)
        )
    rows.append(
        PeerRow(
            "diffprivlib", "Geometric", "ε = 1, Δ = 1", "epsilon", 0.0, 1.0, 0.0,
            discrete_laplace_epsilon(1.0, 0.0),
        )
    )  # fmt: skip
    for k in (2, 4):
        M = diffprivlib_exponential_rr(1.0, k)
        rows.append(
            PeerRow(
                "diffprivlib", "Exponential, 0/1 utility (k-ary RR)", f"ε = 1, k = {k}",
                "epsilon", 0.0, 1.0, 0.0, float(epsilon_for_delta(M, 0.0)),
            )
        )  # fmt: skip
    for s, d in OPENDP_GRID:
        rows.append(_dg_epsilon_row("OpenDP", s, d, opendp_discrete_gaussian_epsilon(s, d)))
    rows.append(
        PeerRow(
            "OpenDP", "discrete Laplace", "scale 2, Δ = 1", "epsilon", 0.0, 0.5, 0.0,
            discrete_laplace_epsilon(0.5, 0.0),
        )
    )  # fmt: skip
    if accounting:
        for s in (1.0, 2.0, 5.0):
            st = dp_accounting_discrete_gaussian_epsilon(s, 1e-6)
            rows.append(_dg_epsilon_row("dp_accounting (PLD)", s, 1e-6, st["pld"]))
            rows.append(_dg_epsilon_row("dp_accounting (RDP)", s, 1e-6, st["rdp"]))
        for d in (0.0, 1e-6):
            rows.append(
                PeerRow(
                    "dp_accounting (PLD)", "discrete Laplace", "a = 0.5, Δ = 1", "epsilon", d,
                    dp_accounting_discrete_laplace_epsilon(0.5, d), 0.0,
                    discrete_laplace_epsilon(0.5, d),
                )
            )  # fmt: skip
    return rows


def format_peer_table(rows: list[PeerRow]) -> str:
    """The rows as a Markdown table; every exact number rounded outward (lower bounds down,
    upper bounds up, :func:`rainbowdp.format_up`): δ to 9 significant digits, ε to 12.

    Examples
    --------
    >>> row = PeerRow("lib", "m", "s", "epsilon", 0.0, 1.0, 0.0, 0.5)
    >>> print(format_peer_table([row]).splitlines()[-1])
    | lib | m | s | ε at δ = 0 | 1 | ≤ 0.5 | conservative (stated ≥ exact + 100 %) |
    """
    rdp = _api()
    out = [
        "| library | mechanism | setting | measure | stated | exact | verdict |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        if r.measure == "delta":
            measure = f"δ at ε = {r.at:g}"
            exact = f"[{rdp.format_down(r.exact_lower, 9)}, {rdp.format_up(r.exact_upper, 9)}]"
        else:
            measure = f"ε at δ = {r.at:g}"
            exact = f"≤ {rdp.format_up(r.exact_upper, 12)}"
        verdict = r.verdict
        if verdict == "unsound":
            verdict += f" (exact δ ≥ stated × (1 + {rdp.format_down(r.excess, 3)}))"
        elif verdict == "conservative" and r.measure == "epsilon":
            verdict += f" (stated ≥ exact + {rdp.format_down(100 * r.excess, 4)} %)"
        out.append(
            f"| {r.library} | {r.mechanism} | {r.setting} | {measure} | {r.stated:.12g} "
            f"| {exact} | {verdict} |"
        )
    return "\n".join(out)
