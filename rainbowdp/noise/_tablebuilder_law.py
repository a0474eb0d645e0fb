r"""The ABS TableBuilder law (Sadeghi, Chien): the PMF, its variance, the exact δ (2.19), the
design guide's γ and the discrete-Gaussian limit; re-exported by :mod:`rainbowdp.noise.tablebuilder`
(see its notes for the maths and the references).

Every number is computed in log space from :math:`e^{-\gamma z^2} \le 1`, so nothing overflows
for any D or γ; every δ reported is an upper bound, raised by a relative :data:`ROUND_UP` and to at
least the next float.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from .._validation import check_epsilon, check_int, check_nonnegative_float, real_array
from ..exceptions import ParameterError

__all__ = [
    "BLOCK",
    "MAX_D",
    "MAX_GAMMA",
    "MAX_SIGMA",
    "MIN_SIGMA",
    "ROUND_UP",
    "check_D",
    "check_gamma",
    "cks_delta",
    "delta_one",
    "delta_raw",
    "dp_delta",
    "epsilon_array",
    "gamma_for_variance",
    "guide_gamma",
    "guide_gammas",
    "log_plateau",
    "normaliser",
    "plateau_delta",
    "pmf",
    "round_up",
    "uniform_variance",
    "variance",
    "variance_of",
]

#: Largest D accepted (the PMF has 2D + 1 points).
MAX_D = 100_000
#: Relative amount by which every reported δ is raised (round-off of the closed forms).
ROUND_UP = 1e-12
#: Largest γ accepted (beyond about 745 the PMF is already a point mass at 0 in float64).
MAX_GAMMA = 1e100
#: Range of σ of :func:`cks_delta` (its sums have about 78σ terms).
MIN_SIGMA, MAX_SIGMA = 1e-100, 1e5
#: Elements per block of the vectorised sums (bounded memory).
BLOCK = 2**21


# ------------------------------------------------------------------------------------ checks
def check_D(D: Any, name: str = "D") -> int:
    return check_int(D, name, minimum=1, maximum=MAX_D)


def check_gamma(gamma: Any) -> float:
    g = check_nonnegative_float(gamma, "gamma")
    if g > MAX_GAMMA:
        raise ParameterError(f"`gamma` must be at most {MAX_GAMMA:g}, got gamma={gamma!r}.")
    return g


def round_up(x: Any) -> Any:
    """x raised by the relative :data:`ROUND_UP`, to at least the next float (and at least the
    smallest positive float: every δ here is positive), capped at 1."""
    a = np.asarray(x, dtype=np.float64)
    r = np.maximum(a * (1.0 + ROUND_UP), np.nextafter(a, np.inf))
    r = np.clip(r, 5e-324, 1.0)
    return float(r) if r.ndim == 0 else r


def epsilon_array(epsilon: Any) -> tuple[np.ndarray, bool]:
    """ε as a float64 array (and whether it was a scalar): finite, >= 0."""
    if np.ndim(epsilon) == 0 and not isinstance(epsilon, np.ndarray):
        return np.array(check_epsilon(epsilon)), True
    e = real_array(epsilon, "epsilon")
    if e.size and not (np.all(np.isfinite(e)) and e.min() >= 0):
        bad = e[~(np.isfinite(e) & (e >= 0))][0]
        raise ParameterError(
            f"`epsilon` must hold finite numbers >= 0, got {float(bad)!r} in epsilon={epsilon!r}."
        )
    return e, e.ndim == 0


# ------------------------------------------------------------------------------------ the law
def _half_weights(gamma: float, D: int) -> np.ndarray:
    r""":math:`e^{-\gamma z^2}` for z = 1..D (each <= 1: no overflow)."""
    z = np.arange(1, D + 1, dtype=np.float64)
    return np.exp(-gamma * z * z)


def normaliser(gamma: float, D: int) -> float:
    r"""The normalising constant C of (2.4): :math:`C = 1/(1 + 2\sum_{z=1}^D e^{-\gamma z^2})`.

    Examples
    --------
    >>> normaliser(0.0, 2)          # the uniform law on [-2, 2]
    0.2
    """
    g = check_gamma(gamma)
    D = check_D(D)
    return float(1.0 / (1.0 + 2.0 * _half_weights(g, D).sum()))


def pmf(gamma: float, D: int) -> np.ndarray:
    r"""The TableBuilder PMF (2.3)–(2.4) / (2.25) on :math:`z = -D, \dots, D`.

    .. math:: p(z) = \frac{e^{-\gamma z^2}}{1 + 2\sum_{z'=1}^{D} e^{-\gamma z'^2}}.

    Parameters
    ----------
    gamma : float
        0 <= γ <= :data:`MAX_GAMMA` (0 gives the uniform law on [-D, D]).
    D : int
        Support [-D, D], 1 <= D <= :data:`MAX_D`.

    Returns
    -------
    numpy.ndarray
        Shape (2D + 1,), index z + D; exactly symmetric.

    References
    ----------
    Sadeghi, Chien (2023), Section 2.1, (2.3)–(2.4), Appendix A; Proposition 3, (2.25).

    Examples
    --------
    Example 1 (D = 25, γ = 0.5/49 − 1/24990), (2.30):

    >>> p = pmf(0.5 / 49 - 1 / 24990, 25)
    >>> [round(float(p[25 + z]), 15) for z in (0, 1, 2, 25)]
    [0.056895481243871, 0.056320120792644, 0.054628714970934, 9.912980816e-05]
    """
    g = check_gamma(gamma)
    D = check_D(D)
    w = _half_weights(g, D)
    S = 1.0 + 2.0 * w.sum()
    half = w / S
    return np.concatenate([half[::-1], [1.0 / S], half])


def variance(gamma: float, D: int) -> float:
    r"""The variance (2.21) / (2.26) of :func:`pmf`:
    :math:`V = 2\sum_{z=1}^D z^2 e^{-\gamma z^2} / (1 + 2\sum_{z=1}^D e^{-\gamma z^2})`.

    Decreasing in γ, from the uniform's :math:`D(D+1)/3` at γ = 0 to 0.

    Examples
    --------
    >>> variance(0.0, 3)             # D(D + 1)/3
    4.0
    >>> round(variance(0.5 / 49 - 1 / 24990, 25), 2)    # Example 1
    49.0
    """
    g = check_gamma(gamma)
    D = check_D(D)
    return variance_of(g, D)


def variance_of(g: float, D: int) -> float:
    w = _half_weights(g, D)
    z = np.arange(1, D + 1, dtype=np.float64)
    return float(2.0 * (z * z * w).sum() / (1.0 + 2.0 * w.sum()))


def uniform_variance(D: int) -> float:
    r""":math:`D(D+1)/3`: the variance of the uniform law on [-D, D], the bound of Proposition 1.

    Examples
    --------
    >>> uniform_variance(11)
    44.0
    """
    D = check_D(D)
    return D * (D + 1) / 3


def gamma_for_variance(V: float, D: int) -> float:
    r"""γ > 0 of the maximum-entropy PMF with variance V on [-D, D]: the root of (2.7).

    With :math:`x = e^{-\gamma}`, (2.7) reads
    :math:`f(x) = \sum_{z=1}^D (2z^2 - 2V) x^{z^2} - V = 0`. Since
    :math:`f(x) = (1 + 2\sum_z x^{z^2})(V(x) - V)` with V(x) the variance (2.21), which increases
    from 0 to :math:`D(D+1)/3` on (0, 1), the root in (0, 1) exists and is unique iff
    :math:`0 < V < D(D+1)/3` (Proposition 1). It is found by Brent's method
    (:func:`scipy.optimize.brentq`) on :math:`V(x) - V` over a bracket, in the variable
    :math:`\gamma = -\log x`, which keeps full relative precision when x is close to 1.

    Parameters
    ----------
    V : float
        Variance, :math:`0 < V < D(D+1)/3`.
    D : int

    Returns
    -------
    float
        γ > 0; :func:`variance` (γ, D) equals V to about 1e-15 relative.

    Raises
    ------
    ParameterError
        If V is outside :math:`(0, D(D+1)/3)`: no decreasing PMF has that variance (at or above
        the bound the maximiser of (2.1)–(2.2) is the uniform law, see :func:`max_entropy`).

    References
    ----------
    Sadeghi, Chien (2023), (2.5)–(2.8), Proposition 1.

    Examples
    --------
    >>> round(gamma_for_variance(4.0, 11), 4), round(gamma_for_variance(10.0, 11), 4)  # Fig. 1
    (0.125, 0.0498)
    """
    from scipy.optimize import brentq

    D = check_D(D)
    x = check_nonnegative_float(V, "V")
    top = D * (D + 1) / 3
    if not (0.0 < x < top):
        raise ParameterError(
            f"`V` must be in (0, D(D+1)/3) = (0, {top:g}) for D={D} (Proposition 1: no PMF "
            f"decreasing in |z| has a larger variance), got V={V!r}."
        )

    def h(g: float) -> float:
        return variance_of(g, D) - x

    hi = 1.0
    while h(hi) >= 0.0:  # V(gamma) ~ 2 e^-gamma for large gamma: at most ~11 doublings
        hi *= 2.0
    lo = 0.0 if hi == 1.0 else hi / 2.0
    root = brentq(h, lo, hi, xtol=1e-300, rtol=4.0 * np.finfo(float).eps, maxiter=400)
    return float(root)


# ------------------------------------------------------------------------------------ exact delta
def _one_minus_exp(e: np.ndarray, g: np.ndarray, k: np.ndarray, window: np.ndarray) -> np.ndarray:
    r""":math:`\max\{0, 1 - e^{a}\}` with :math:`a = \epsilon + \gamma k` inside ``window``
    (0 outside), never below the exact value by more than the relative round-off of expm1.

    ``a`` is the log of :math:`e^\epsilon p(z-1)/p(z)` for k = 2z - 1. Its float error is at
    most ``tol`` :math:`= 2^{-51}(\epsilon + \gamma|k|)`; the factor is evaluated at a - tol.
    Where :math:`|a| \le 2^{20}` tol -- at or near a tie :math:`p(z) = e^\epsilon p(z-1)`, e.g.
    :math:`\gamma = \epsilon/(2D-1)` (errata) -- a is computed exactly in rationals from the
    floats ε and γ instead: an exact tie gives 0, a near tie its value to full precision.
    """
    a = e + g * k
    tol = 2.0**-51 * (e + g * np.abs(k))
    near = window & (np.abs(a) <= 2.0**20 * tol)
    fac = np.where(window & ~near, -np.expm1(np.minimum(a - tol, 0.0)), 0.0)
    if near.any():
        E, G, K = np.broadcast_arrays(e, g, k)
        for idx in zip(*np.nonzero(near), strict=True):
            exact = Fraction(float(E[idx])) + Fraction(float(G[idx])) * int(K[idx])
            if exact < 0:
                fac[idx] = -math.expm1(math.nextafter(float(exact), -math.inf))
    return fac


def delta_raw(eps: np.ndarray, gam: np.ndarray, D: int) -> np.ndarray:
    r"""(2.19) for pairs (ε_i, γ_i), before the final round-up (see :func:`dp_delta`). Vectorised
    over the pairs in bounded blocks."""
    m = eps.size
    out = np.empty(m)
    zpos = np.arange(1, D + 1, dtype=np.float64)
    z = np.arange(-D + 1, 1, dtype=np.float64)  # the interior candidates z = -D+1..0
    k = 2.0 * z - 1.0  # 2z - 1 < 0
    step = max(1, BLOCK // D)
    for s in range(0, m, step):
        e = eps[s : s + step, None]
        g = gam[s : s + step, None]
        logS = np.log1p(2.0 * np.exp(-g * zpos * zpos).sum(axis=1, keepdims=True))
        end = np.exp(-g[:, 0] * (D * D) - logS[:, 0])  # p(-D): always in E* (2.12)
        # z* = floor(0.5 - eps / (2 gamma)) (2.16)-(2.18), errata 12; no interior term at
        # gamma = 0 (the ratio is 1 <= e^eps). The window runs to z* + 1, so that a floor off
        # by one in floats next to a tie loses nothing (the factor is 0 beyond E*).
        with np.errstate(divide="ignore", invalid="ignore"):
            u = 0.5 - e / (2.0 * g)
        zs = np.where(g > 0, np.floor(np.clip(np.nan_to_num(u, nan=-D), -D, 0.0)), -D)
        fac = _one_minus_exp(e, g, k, z <= zs + 1)
        terms = np.exp(-g * z * z - logS) * fac
        out[s : s + step] = end + terms.sum(axis=1)
    return out


def dp_delta(epsilon: Any, gamma: float, D: int) -> Any:
    r"""The exact δ of the TableBuilder mechanism at ε: :math:`\delta_{\gamma,D}(\epsilon)` of
    (2.19).

    .. math::

        \delta_{\gamma,D}(\epsilon) = C e^{-\gamma D^2}
          + C\sum_{z=-D+1}^{z^*}\big(e^{-\gamma z^2} - e^\epsilon e^{-\gamma(z-1)^2}\big),
        \qquad z^* = \Big\lfloor 0.5 - \frac{\epsilon}{2\gamma}\Big\rfloor,

    the sum empty for :math:`z^* \le -D`. It is the hockey-stick divergence of two neighbouring
    rows on counts :math:`n \ge D` (every edge of :func:`graph` is a translate of one): the
    worst event is :math:`E^* = [-D, \max\{-D, z^*\}]` of (2.16)–(2.18), where
    :math:`p(z)/p(z-1) = e^{-\gamma(2z-1)} > e^\epsilon` (with "−D ≤ 0.5 − ε/2γ" in the
    derivation of (2.20); errata). By symmetry of p both orders of a pair give the same δ.

    Parameters
    ----------
    epsilon : float or array_like of float
        ε >= 0 (finite); an array gives δ at each ε.
    gamma : float
        γ >= 0.
    D : int

    Returns
    -------
    float or numpy.ndarray
        δ (same shape as ``epsilon``), an upper bound: each term is :math:`p(z)(1 - e^{a})`,
        :math:`a = \epsilon + \gamma(2z - 1)`, evaluated at a lowered by a bound on its float
        error, then raised by the relative :data:`ROUND_UP` (and to at least the next float).
        At an exact tie (:math:`0.5 - \epsilon/2\gamma` an integer, e.g.
        :math:`\gamma = \epsilon/(2D-1)`) the extra term is zero (errata).

    References
    ----------
    Sadeghi, Chien (2023), Section 2.2, (2.9)–(2.19), Proposition 2, Appendix B.

    Examples
    --------
    Fig. 1a (D = 11, V = 4, γ = 0.125): δ falls with ε to the plateau :math:`p(-D)`.

    >>> [f"{d:.4g}" for d in dp_delta([0.5, 1.0, 2.0, 3.0], 0.125, 11)]
    ['0.05401', '0.007249', '1.076e-05', '5.385e-08']
    >>> math.isclose(dp_delta(3.0, 0.125, 11), plateau_delta(0.125, 11), rel_tol=1e-14)
    True
    """
    e, scalar = epsilon_array(epsilon)
    g = check_gamma(gamma)
    D = check_D(D)
    flat = e.ravel()
    raw = delta_raw(flat, np.full(flat.shape, g), D)
    out = round_up(raw)
    if scalar:
        return float(np.asarray(out).reshape(-1)[0])
    return np.asarray(out, dtype=np.float64).reshape(e.shape)


def delta_one(eps: float, g: float, D: int) -> float:
    """:func:`dp_delta` at one validated (ε, γ, D)."""
    return float(round_up(delta_raw(np.array([eps]), np.array([g]), D)[0]))


def plateau_delta(gamma: float, D: int) -> float:
    r""":math:`C e^{-\gamma D^2} = p(-D)`: the lower bound (2.12) on δ at every ε, the first case
    of (2.19) and Proposition 3's δ (2.27); rounded up.

    Examples
    --------
    >>> f"{plateau_delta(0.5 / 49 - 1 / 24990, 25):.4g}"     # Example 1
    '9.913e-05'
    """
    g = check_gamma(gamma)
    D = check_D(D)
    return float(round_up(math.exp(log_plateau(np.array([g]), np.array([D]))[0])))


def log_plateau(gam: np.ndarray, Ds: np.ndarray) -> np.ndarray:
    r""":math:`\log(C e^{-\gamma D^2})` for pairs (γ_i, D_i), vectorised in bounded blocks."""
    out = np.empty(gam.size)
    zmax = int(Ds.max())
    z = np.arange(1, zmax + 1, dtype=np.float64)
    step = max(1, BLOCK // zmax)
    for s in range(0, gam.size, step):
        g = gam[s : s + step, None]
        d = Ds[s : s + step, None].astype(np.float64)
        w = np.where(z <= d, np.exp(-g * z * z), 0.0)
        out[s : s + step] = -g[:, 0] * d[:, 0] ** 2 - np.log1p(2.0 * w.sum(axis=1))
    return out


def guide_gamma(epsilon: float, D: int) -> float:
    r"""The γ of the design guide (Section 2.4, step 2):
    :math:`\epsilon/(2D-1) - 2\epsilon/(10(4D^2-1))`, strictly inside (2.20).

    Examples
    --------
    >>> guide_gamma(0.5, 25) == 0.5 / 49 - 1 / (10 * 2499)
    True
    """
    eps = check_epsilon(epsilon)
    D = check_D(D)
    return guide_gammas(eps, np.array([D]))[0].item()


def guide_gammas(eps: float, Ds: np.ndarray) -> np.ndarray:
    d = Ds.astype(np.float64)
    return eps / (2 * d - 1) - 2 * eps / (10 * (4 * d * d - 1))


# ------------------------------------------------------------------------------------ Appendix C
def cks_delta(epsilon: float, sigma: float) -> float:
    r"""Appendix C: (2.19) for D = ∞, the discrete Gaussian's δ with σ² = 1/(2γ).

    .. math::

        \delta = \frac{1}{\sum_{z \in \mathbb Z} e^{-z^2/2\sigma^2}}
          \sum_{z \le z^*} \big(e^{-z^2/2\sigma^2} - e^\epsilon e^{-(z-1)^2/2\sigma^2}\big),
        \qquad z^* = \lfloor 0.5 - \epsilon\sigma^2 \rfloor,

    which is Canonne, Kamath, Steinke's Theorem 2.6 at sensitivity 1 (equal to
    :meth:`rainbowdp.noise.DiscreteGaussian.delta_at`). Computed in log space from z* down to
    where the terms fall below :math:`e^{-750}` of the first, as in :func:`dp_delta`, and rounded
    up; :func:`dp_delta` (ε, 1/(2σ²), D) tends to it as D grows.

    Parameters
    ----------
    epsilon : float
        ε >= 0.
    sigma : float
        :data:`MIN_SIGMA` <= σ <= :data:`MAX_SIGMA`.

    References
    ----------
    Sadeghi, Chien (2023), Appendix C, (C.1)–(C.4); Canonne, Kamath, Steinke (2022),
    Theorem 2.6.

    Examples
    --------
    >>> f"{cks_delta(1.0, 2.0):.6g}"
    '0.00724878'
    >>> f"{dp_delta(1.0, 1 / 8, 40):.6g}"       # D = 40: the tails are negligible
    '0.00724878'
    """
    eps = check_epsilon(epsilon)
    s = check_nonnegative_float(sigma, "sigma")
    if not (MIN_SIGMA <= s <= MAX_SIGMA):
        raise ParameterError(
            f"`sigma` must be in [{MIN_SIGMA:g}, {MAX_SIGMA:g}], got sigma={sigma!r}."
        )
    g = 0.5 / (s * s)
    K = math.ceil(math.sqrt(750.0 / g)) + 2
    zn = np.arange(1, K + 1, dtype=np.float64)
    logN = math.log1p(2.0 * float(np.exp(-g * zn * zn).sum()))  # sum over Z, tails < e^-750
    top = min(math.floor(0.5 - eps * s * s) + 1.0, 0.0)  # z* + 1 (see delta)
    if g * top * top > 800.0:  # every term is below e^-800: delta underflows
        return float(round_up(0.0))
    z = top - np.arange(K + 1, dtype=np.float64)  # z* + 1 down to z* - K
    k = 2.0 * z - 1.0
    fac = _one_minus_exp(np.array(eps), np.array(g), k, np.ones(z.shape, dtype=bool))
    return float(round_up((np.exp(-g * z * z - logN) * fac).sum()))
