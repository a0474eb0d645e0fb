r"""The ABS TableBuilder noise (Sadeghi, Chien): maximum entropy on [-D, D], its exact (ε, δ)-DP
and the design guide.

The ABS TableBuilder perturbs a count n as :math:`M(x) = n + Z` with integer noise Z whose PMF
maximises the Shannon entropy under zero bias and a variance bound (1.2)–(1.3). On the symmetric
support :math:`[-D, D]` the maximiser is a discrete truncated Gaussian (2.3)–(2.4)
(:func:`pmf`):

.. math:: p(z) = C e^{-\gamma z^2},\quad C = \Big(1 + 2\sum_{z=1}^D e^{-\gamma z^2}\Big)^{-1},

with γ fixed by the variance V through the root :math:`x = e^{-\gamma} \in (0, 1)` of (2.7)
(:func:`gamma_for_variance`; a root exists iff :math:`0 < V < D(D+1)/3`, Proposition 1).

For counts :math:`n \ge D` (footnote 1) and neighbours that differ by one, every pair of
neighbouring rows is a translate of :math:`(p(\cdot), p(\cdot - 1))`, and the exact δ at ε is
(2.19) (:func:`delta`): :math:`p(-D)` plus the terms :math:`p(z) - e^\epsilon p(z - 1)` over
:math:`z \in [-D + 1, z^*]`, :math:`z^* = \lfloor 0.5 - \epsilon/(2\gamma) \rfloor`. For γ in
:math:`[\epsilon/(2D+1), \epsilon/(2D-1))` only :math:`p(-D)` is left: δ = (2.27)
(:func:`proposition3`, :func:`plateau_delta`). The design guide of Section 2.4 (:func:`design`)
increases D with :math:`\gamma = \epsilon/(2D-1) - 2\epsilon/(10(4D^2-1))` until (2.27) meets
the target δ.

Beyond the paper: the general maximum-entropy problem on any finite integer support, solved
through its convex dual (:func:`max_entropy`), the best γ of Fig. 2a (:func:`best_delta`), the
discrete-Gaussian limit of Appendix C (:func:`cks_delta`) and the family :class:`TableBuilder`.

Every number is computed in log space from :math:`e^{-\gamma z^2} \le 1`, so nothing overflows
for any D or γ; every δ reported is an upper bound, raised by a relative :data:`ROUND_UP` and to at
least the next float.

References
----------
.. [1] P. Sadeghi, C.-H. Chien, "On the connection between the ABS perturbation methodology and
   differential privacy" (2023), Sections 1–2, Appendices A–C.
.. [2] C. Canonne, G. Kamath, T. Steinke, "The discrete Gaussian for differential privacy",
   Journal of Privacy and Confidentiality 12(1) (2022), Theorem 2.6.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import KW_ONLY, dataclass
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np

from .._validation import check_delta, check_epsilon, check_int, check_nonnegative_float, real_array
from ..exceptions import InfeasibleDesignError, ParameterError, ParameterTypeError, SolverError
from ..graph import RainbowGraph, check_graph
from ..mechanism import Mechanism
from ._additive import FLOOR
from ._family import (
    Claim,
    Family,
    check_default_n,
    contiguous_outputs_of,
    integer_answers_of,
    mechanism_from_rows,
    register,
    unit_steps,
)

__all__ = [
    "FIG2_GAMMAS",
    "MAX_D",
    "MAX_GAMMA",
    "MAX_SIGMA",
    "MIN_SIGMA",
    "PROFILE_TOLERANCE",
    "ROUND_UP",
    "Design",
    "Proposition3",
    "TableBuilder",
    "best_delta",
    "cks_delta",
    "delta",
    "design",
    "gamma_for_variance",
    "graph",
    "guide_gamma",
    "max_entropy",
    "mechanism",
    "normaliser",
    "plateau_delta",
    "pmf",
    "proposition3",
    "uniform_variance",
    "variance",
]

#: Largest D accepted (the PMF has 2D + 1 points).
MAX_D = 100_000
#: Relative amount by which every reported δ is raised (round-off of the closed forms).
ROUND_UP = 1e-12
#: The γ grid of Fig. 2a: 0.0001 to 0.3 in steps of 0.0001.
FIG2_GAMMAS = np.arange(1, 3001) / 10_000
#: Largest γ accepted (beyond about 745 the PMF is already a point mass at 0 in float64).
MAX_GAMMA = 1e100
#: Range of σ of :func:`cks_delta` (its sums have about 78σ terms).
MIN_SIGMA, MAX_SIGMA = 1e-100, 1e5
#: Elements per block of the vectorised sums (bounded memory).
_BLOCK = 2**21


# ------------------------------------------------------------------------------------ checks
def _check_D(D: Any, name: str = "D") -> int:
    return check_int(D, name, minimum=1, maximum=MAX_D)


def _check_gamma(gamma: Any) -> float:
    g = check_nonnegative_float(gamma, "gamma")
    if g > MAX_GAMMA:
        raise ParameterError(f"`gamma` must be at most {MAX_GAMMA:g}, got gamma={gamma!r}.")
    return g


def _up(x: Any) -> Any:
    """x raised by the relative :data:`ROUND_UP`, to at least the next float (and at least the
    smallest positive float: every δ here is positive), capped at 1."""
    a = np.asarray(x, dtype=np.float64)
    r = np.maximum(a * (1.0 + ROUND_UP), np.nextafter(a, np.inf))
    r = np.clip(r, 5e-324, 1.0)
    return float(r) if r.ndim == 0 else r


def _epsilons(epsilon: Any) -> tuple[np.ndarray, bool]:
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
    g = _check_gamma(gamma)
    D = _check_D(D)
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
    g = _check_gamma(gamma)
    D = _check_D(D)
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
    g = _check_gamma(gamma)
    D = _check_D(D)
    return _variance(g, D)


def _variance(g: float, D: int) -> float:
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
    D = _check_D(D)
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

    D = _check_D(D)
    x = check_nonnegative_float(V, "V")
    top = D * (D + 1) / 3
    if not (0.0 < x < top):
        raise ParameterError(
            f"`V` must be in (0, D(D+1)/3) = (0, {top:g}) for D={D} (Proposition 1: no PMF "
            f"decreasing in |z| has a larger variance), got V={V!r}."
        )

    def h(g: float) -> float:
        return _variance(g, D) - x

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


def _delta_raw(eps: np.ndarray, gam: np.ndarray, D: int) -> np.ndarray:
    r"""(2.19) for pairs (ε_i, γ_i), before the final round-up (see :func:`delta`). Vectorised
    over the pairs in bounded blocks."""
    m = eps.size
    out = np.empty(m)
    zpos = np.arange(1, D + 1, dtype=np.float64)
    z = np.arange(-D + 1, 1, dtype=np.float64)  # the interior candidates z = -D+1..0
    k = 2.0 * z - 1.0  # 2z - 1 < 0
    step = max(1, _BLOCK // D)
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


def delta(epsilon: Any, gamma: float, D: int) -> Any:
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

    >>> [f"{d:.4g}" for d in delta([0.5, 1.0, 2.0, 3.0], 0.125, 11)]
    ['0.05401', '0.007249', '1.076e-05', '5.385e-08']
    >>> math.isclose(delta(3.0, 0.125, 11), plateau_delta(0.125, 11), rel_tol=1e-14)
    True
    """
    e, scalar = _epsilons(epsilon)
    g = _check_gamma(gamma)
    D = _check_D(D)
    flat = e.ravel()
    raw = _delta_raw(flat, np.full(flat.shape, g), D)
    out = _up(raw)
    if scalar:
        return float(np.asarray(out).reshape(-1)[0])
    return np.asarray(out, dtype=np.float64).reshape(e.shape)


def _delta_one(eps: float, g: float, D: int) -> float:
    """:func:`delta` at one validated (ε, γ, D)."""
    return float(_up(_delta_raw(np.array([eps]), np.array([g]), D)[0]))


def plateau_delta(gamma: float, D: int) -> float:
    r""":math:`C e^{-\gamma D^2} = p(-D)`: the lower bound (2.12) on δ at every ε, the first case
    of (2.19) and Proposition 3's δ (2.27); rounded up.

    Examples
    --------
    >>> f"{plateau_delta(0.5 / 49 - 1 / 24990, 25):.4g}"     # Example 1
    '9.913e-05'
    """
    g = _check_gamma(gamma)
    D = _check_D(D)
    return float(_up(math.exp(_log_plateau(np.array([g]), np.array([D]))[0])))


def _log_plateau(gam: np.ndarray, Ds: np.ndarray) -> np.ndarray:
    r""":math:`\log(C e^{-\gamma D^2})` for pairs (γ_i, D_i), vectorised in bounded blocks."""
    out = np.empty(gam.size)
    zmax = int(Ds.max())
    z = np.arange(1, zmax + 1, dtype=np.float64)
    step = max(1, _BLOCK // zmax)
    for s in range(0, gam.size, step):
        g = gam[s : s + step, None]
        d = Ds[s : s + step, None].astype(np.float64)
        w = np.where(z <= d, np.exp(-g * z * z), 0.0)
        out[s : s + step] = -g[:, 0] * d[:, 0] ** 2 - np.log1p(2.0 * w.sum(axis=1))
    return out


# ------------------------------------------------------------------------------------ Prop. 3
@dataclass(frozen=True)
class Proposition3:
    r"""The ranges of Proposition 3 at (ε, D) (:func:`proposition3`).

    For γ in :math:`[\epsilon/(2D+1), \epsilon/(2D-1))` (2.20), :math:`z^* = -D` and the
    mechanism is (ε, δ)-DP with δ = (2.27). V and δ decrease in γ, C increases.

    Attributes
    ----------
    epsilon : float
    D : int
    gamma_low, gamma_high : float
        (2.20): :math:`\epsilon/(2D+1) \le \gamma < \epsilon/(2D-1)`.
    variance_low, variance_high : float
        (2.22): V(γ_high) < V <= V(γ_low).
    C_low, C_high : float
        (2.23): C(γ_low) <= C < C(γ_high).
    delta_low, delta_high : float
        (2.24): (2.27) at γ_high < δ <= (2.27) at γ_low (both rounded up). At γ_high itself
        δ = (2.27) as well: the extra term of (2.19) is an exact tie (errata), so δ_low is
        attained.
    """

    epsilon: float
    D: int
    gamma_low: float
    gamma_high: float
    variance_low: float
    variance_high: float
    C_low: float
    C_high: float
    delta_low: float
    delta_high: float

    def contains(self, gamma: float) -> bool:
        """Whether γ lies in the range (2.20)."""
        g = _check_gamma(gamma)
        return self.gamma_low <= g < self.gamma_high


def proposition3(epsilon: float, D: int) -> Proposition3:
    r"""Proposition 3: the γ range (2.20) and the V, C, δ ranges (2.22)–(2.24) at (ε, D).

    Parameters
    ----------
    epsilon : float
        ε > 0.
    D : int

    References
    ----------
    Sadeghi, Chien (2023), Section 2.3, (2.20)–(2.27), Remark 1, Proposition 3.

    Examples
    --------
    >>> r = proposition3(0.5, 25)
    >>> round(r.gamma_low, 6), round(r.gamma_high, 6)
    (0.009804, 0.010204)
    >>> r.contains(0.5 / 49 - 1 / 24990)          # Example 1's gamma
    True
    """
    eps = check_epsilon(epsilon)
    if eps <= 0:
        raise ParameterError(f"`epsilon` must be > 0 (Proposition 3), got epsilon={epsilon!r}.")
    D = _check_D(D)
    lo, hi = eps / (2 * D + 1), eps / (2 * D - 1)
    return Proposition3(
        epsilon=eps,
        D=D,
        gamma_low=lo,
        gamma_high=hi,
        variance_low=_variance(hi, D),
        variance_high=_variance(lo, D),
        C_low=normaliser(lo, D),
        C_high=normaliser(hi, D),
        delta_low=plateau_delta(hi, D),
        delta_high=plateau_delta(lo, D),
    )


# ------------------------------------------------------------------------------------ design
def guide_gamma(epsilon: float, D: int) -> float:
    r"""The γ of the design guide (Section 2.4, step 2):
    :math:`\epsilon/(2D-1) - 2\epsilon/(10(4D^2-1))`, strictly inside (2.20).

    Examples
    --------
    >>> guide_gamma(0.5, 25) == 0.5 / 49 - 1 / (10 * 2499)
    True
    """
    eps = check_epsilon(epsilon)
    D = _check_D(D)
    return _guide_gamma(eps, np.array([D]))[0].item()


def _guide_gamma(eps: float, Ds: np.ndarray) -> np.ndarray:
    d = Ds.astype(np.float64)
    return eps / (2 * d - 1) - 2 * eps / (10 * (4 * d * d - 1))


@dataclass(frozen=True)
class Design:
    r"""A TableBuilder noise designed by the guide of Section 2.4 (:func:`design`).

    Attributes
    ----------
    epsilon : float
        The target ε.
    target_delta : float
        The target δ.
    D : int
        D*: the first D whose δ meets the target.
    gamma : float
        γ* = :func:`guide_gamma` (ε, D*).
    variance : float
        V of (2.26) at γ*.
    delta : float
        The exact δ at ε (:func:`delta`; = (2.27) by Proposition 3), rounded up, <= target.
    """

    epsilon: float
    target_delta: float
    D: int
    gamma: float
    variance: float
    delta: float

    @property
    def pmf(self) -> np.ndarray:
        """The PMF (2.28) on z = -D*..D*."""
        return pmf(self.gamma, self.D)

    @property
    def family(self) -> TableBuilder:
        """The designed noise as a :class:`TableBuilder` family."""
        return TableBuilder(self.D, gamma=self.gamma)

    @property
    def proposition3(self) -> Proposition3:
        """The ranges of Proposition 3 at (ε, D*)."""
        return proposition3(self.epsilon, self.D)


def design(epsilon: float, delta: float, *, max_D: int = 10_000) -> Design:
    r"""The design guide of Section 2.4: the smallest D whose (2.27) meets δ at ε.

    For D = 1, 2, ... take :math:`\gamma = \epsilon/(2D-1) - 2\epsilon/(10(4D^2-1))`
    (:func:`guide_gamma`, inside (2.20)) and stop at the first D with (2.27)
    :math:`= Ce^{-\gamma D^2} \le \delta`; V is (2.26) and the PMF (2.28). The scan is
    vectorised over blocks of D of doubling size; the stopping test uses the exact δ at ε,
    rounded up, so the reported δ never exceeds the target.

    Parameters
    ----------
    epsilon : float
        ε > 0.
    delta : float
        Target δ in (0, 1].
    max_D : int, default 10000
        Largest D tried.

    Returns
    -------
    Design

    Raises
    ------
    InfeasibleDesignError
        If no D <= ``max_D`` meets the target.

    References
    ----------
    Sadeghi, Chien (2023), Section 2.4, (2.28), Example 1, (2.29)–(2.30).

    Examples
    --------
    Example 1 (ε = 0.5, δ = 1e-4): D* = 25, δ ≈ 9.91e-5, V ≈ 49.00.

    >>> d = design(0.5, 1e-4)
    >>> d.D, f"{d.delta:.3g}", round(d.variance, 2)
    (25, '9.91e-05', 49.0)
    """
    eps = check_epsilon(epsilon)
    if eps <= 0:
        raise ParameterError(f"`epsilon` must be > 0 (Section 2.4), got epsilon={epsilon!r}.")
    target = check_delta(delta)
    if target <= 0:
        raise ParameterError(
            f"`delta` must be > 0: every TableBuilder noise has delta >= p(-D) > 0 (2.12), "
            f"got delta={delta!r}."
        )
    top = check_int(max_D, "max_D", minimum=1, maximum=MAX_D)
    lo = 1
    while lo <= top:
        hi = min(top, 2 * lo)  # the block lo..hi
        Ds = np.arange(lo, hi + 1)
        gs = _guide_gamma(eps, Ds)
        vals = _up(np.exp(_log_plateau(gs, Ds)))
        for i in np.flatnonzero(np.atleast_1d(vals) <= target).tolist():
            D, g = int(Ds[i]), float(gs[i])
            d = _delta_one(eps, g, D)  # = (2.27) by Proposition 3; the exact delta decides
            if d <= target:
                return Design(eps, target, D, g, _variance(g, D), d)
        lo = hi + 1
    raise InfeasibleDesignError(
        f"no D <= max_D={top} meets delta={target:g} at epsilon={eps:g} with the guide's gamma "
        f"(Section 2.4); raise `max_D`, got max_D={max_D!r}."
    )


def best_delta(epsilon: float, D: int, *, gammas: Any = None) -> tuple[float, float]:
    r"""Fig. 2a's "numerically optimised" δ: the smallest (2.19) over a grid of γ.

    Parameters
    ----------
    epsilon : float
        ε >= 0.
    D : int
    gammas : array_like of float, optional
        Values γ >= 0; default the paper's grid 0.0001..0.3 in steps of 0.0001
        (:data:`FIG2_GAMMAS`).

    Returns
    -------
    (float, float)
        The smallest δ (rounded up) and the first γ of the grid attaining it.

    Notes
    -----
    On the paper's grid (D = 11, 15, ε from 0.01 to 5) the minimum is below the δ of the design
    guide's γ (:func:`guide_gamma`) everywhere, by up to 38%: it is often attained at γ above
    ε/(2D−1), in the second case of (2.19), so the first case is not always the better one
    (footnote 2 calls the design a heuristic). Against the limit γ → ε/(2D−1) (the curve of
    Fig. 2a) the grid's minimum is up to 2% higher at large ε, where the grid is too coarse.

    References
    ----------
    Sadeghi, Chien (2023), Section 2.3, Fig. 2a, footnote 2.

    Examples
    --------
    >>> d, g = best_delta(1.0, 11)
    >>> f"{d:.4g}", g
    ('0.0002896', 0.0526)
    >>> d < delta(1.0, guide_gamma(1.0, 11), 11)
    True
    """
    eps = check_epsilon(epsilon)
    D = _check_D(D)
    if gammas is None:
        grid = FIG2_GAMMAS
    else:
        grid = np.atleast_1d(real_array(gammas, "gammas")).ravel()
        if grid.size == 0 or not (np.all(np.isfinite(grid)) and grid.min() >= 0):
            raise ParameterError(
                f"`gammas` must be a non-empty array of finite numbers >= 0, got gammas={gammas!r}."
            )
    raw = _delta_raw(np.full(grid.shape, eps), grid, D)
    i = int(np.argmin(raw))
    return float(_up(raw[i])), float(grid[i])


# ------------------------------------------------------------------------------------ Appendix C
def cks_delta(epsilon: float, sigma: float) -> float:
    r"""Appendix C: (2.19) for D = ∞, the discrete Gaussian's δ with σ² = 1/(2γ).

    .. math::

        \delta = \frac{1}{\sum_{z \in \mathbb Z} e^{-z^2/2\sigma^2}}
          \sum_{z \le z^*} \big(e^{-z^2/2\sigma^2} - e^\epsilon e^{-(z-1)^2/2\sigma^2}\big),
        \qquad z^* = \lfloor 0.5 - \epsilon\sigma^2 \rfloor,

    which is Canonne, Kamath, Steinke's Theorem 2.6 at sensitivity 1 (equal to
    :meth:`rainbowdp.noise.DiscreteGaussian.delta_at`). Computed in log space from z* down to
    where the terms fall below :math:`e^{-750}` of the first, as in :func:`delta`, and rounded
    up; :func:`delta` (ε, 1/(2σ²), D) tends to it as D grows.

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
    >>> f"{delta(1.0, 1 / 8, 40):.6g}"       # D = 40: the tails are negligible
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
        return float(_up(0.0))
    z = top - np.arange(K + 1, dtype=np.float64)  # z* + 1 down to z* - K
    k = 2.0 * z - 1.0
    fac = _one_minus_exp(np.array(eps), np.array(g), k, np.ones(z.shape, dtype=bool))
    return float(_up((np.exp(-g * z * z - logN) * fac).sum()))


# ------------------------------------------------------------------------------------ max entropy
def _check_real(value: Any, name: str) -> float:
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise ParameterTypeError(f"`{name}` must be a real number, got {name}={value!r}.")
    x = float(value)
    if not math.isfinite(x):
        raise ParameterError(f"`{name}` must be finite, got {name}={value!r}.")
    return x


def _check_support(support: Any) -> np.ndarray:
    s = real_array(support, "support")
    if s.ndim != 1 or s.size < 2:
        raise ParameterError(
            f"`support` must be a one-dimensional array of at least 2 integers, got "
            f"support={support!r}."
        )
    if not (np.all(np.isfinite(s)) and np.all(s == np.round(s)) and np.abs(s).max() <= 2**52):
        raise ParameterError(f"`support` must hold integers, got support={support!r}.")
    if np.unique(s).size != s.size:
        raise ParameterError(f"`support` must hold distinct integers, got support={support!r}.")
    return s


def _tilt(u: np.ndarray, b: float, lam: float) -> np.ndarray:
    r"""The Gibbs law :math:`\propto e^{-b u - \lambda u^2}`, shifted by its largest exponent."""
    t = -b * u - lam * u * u
    w = np.exp(t - t.max())
    return w / w.sum()


def max_entropy(support: Any, *, variance: float, mean: float = 0.0) -> np.ndarray:
    r"""The maximum-entropy PMF on a finite integer support with a given mean and a variance
    bound: the problem (1.2)–(1.3) of the ABS TableBuilder.

    .. math::

        \max_p\ -\sum_z p(z)\log p(z)\quad \text{s.t.}\quad \sum_z p(z) = 1,\
        \sum_z (z - \mu) p(z) = 0,\ \sum_z (z - \mu)^2 p(z) \le V.

    The solution is the Gibbs law :math:`p(z) \propto e^{-\beta(z-\mu) - \lambda(z-\mu)^2}`
    (Appendix A) with multipliers minimising the convex dual
    :math:`g(\beta, \lambda) = \log\sum_z e^{-\beta(z-\mu) - \lambda(z-\mu)^2} + \lambda V`,
    λ >= 0. First λ = 0: the mean alone fixes β (a root of a monotone function,
    :func:`scipy.optimize.brentq`); if that law's variance is at most V the variance constraint
    is slack and it is the answer (on a symmetric support: the uniform law). Otherwise the dual
    is minimised over (β, λ) by :func:`scipy.optimize.minimize` (``trust-exact``, with the exact
    gradient and Hessian: minus the mean and covariance of :math:`(z-\mu, (z-\mu)^2)`), its
    stationarity equations are then solved to full precision by :func:`scipy.optimize.root`, and
    the constraint binds. The support is scaled to [-1, 1] about μ for the solver.

    Parameters
    ----------
    support : array_like of int
        Distinct integers (any order, at least 2).
    variance : float
        V > 0, larger than the least variance of a law on the support with mean μ (that of the
        two support points around μ).
    mean : float, default 0.0
        μ, strictly between the smallest and largest support point.

    Returns
    -------
    numpy.ndarray
        p(z) for each z of ``support``, in its order.

    Raises
    ------
    ParameterError
        For an infeasible (mean, variance).
    SolverError
        If the dual solver does not meet the constraints to 1e-12 (relative to the scaled
        support).

    References
    ----------
    Sadeghi, Chien (2023), (1.2)–(1.3), (2.1)–(2.2), Appendix A.

    Examples
    --------
    On [-D, D] it is :func:`pmf` at :func:`gamma_for_variance`:

    >>> p = max_entropy(range(-11, 12), variance=4.0)
    >>> bool(np.allclose(p, pmf(gamma_for_variance(4.0, 11), 11), rtol=0, atol=1e-10))
    True
    >>> max_entropy([-1, 0, 1], variance=5.0).round(6).tolist()     # slack: uniform
    [0.333333, 0.333333, 0.333333]
    """
    from scipy.optimize import brentq, minimize, root

    s = _check_support(support)
    mu = _check_real(mean, "mean")
    V = check_nonnegative_float(variance, "variance")
    lo, hi = float(s.min()), float(s.max())
    if not (lo < mu < hi):
        raise ParameterError(
            f"`mean` must lie strictly between the smallest and largest support points "
            f"({lo:g}, {hi:g}), got mean={mean!r}."
        )
    below, above = s[s <= mu].max(), s[s >= mu].min()
    least = (mu - below) * (above - mu)
    if not (V > least):
        raise ParameterError(
            f"`variance` must exceed {least:g}, the least variance of a law on the support "
            f"with mean {mu:g}, got variance={variance!r}."
        )
    scale = float(np.abs(s - mu).max())
    u = (s - mu) / scale
    Vs = V / (scale * scale)

    def mean_of(b: float) -> float:
        return float(_tilt(u, b, 0.0) @ u)

    # lambda = 0: the mean is decreasing in b; bracket the root of mean_of(b) = 0
    blo, bhi = -1.0, 1.0
    while mean_of(blo) <= 0.0:
        blo *= 2.0
    while mean_of(bhi) >= 0.0:
        bhi *= 2.0
    b0 = brentq(mean_of, blo, bhi, xtol=1e-15, rtol=4.0 * np.finfo(float).eps)
    p = _tilt(u, b0, 0.0)
    if float(p @ (u * u)) <= Vs:
        return p

    feats = np.stack([u, u * u])
    target = np.array([0.0, Vs])

    def fun(x: np.ndarray) -> float:
        t = -x[0] * u - x[1] * u * u
        m = t.max()
        return float(m + math.log(np.exp(t - m).sum()) + x[1] * Vs)

    def jac(x: np.ndarray) -> np.ndarray:
        return target - feats @ _tilt(u, x[0], x[1])

    def hess(x: np.ndarray) -> np.ndarray:
        q = _tilt(u, x[0], x[1])
        f = feats - (feats @ q)[:, None]
        return (f * q) @ f.T

    res = minimize(
        fun, np.array([b0, 0.0]), jac=jac, hess=hess, method="trust-exact", options={"gtol": 1e-9}
    )
    # the dual's optimum to full precision: its stationarity equations (mean 0, variance V) by
    # Powell's hybrid method from the minimiser's point (the objective's own round-off stalls a
    # descent method at gradients of about 1e-10)
    sol = root(jac, res.x, jac=hess, method="hybr", options={"xtol": 1e-15})
    x = sol.x if np.all(np.isfinite(sol.x)) else res.x
    p = _tilt(u, float(x[0]), float(x[1]))
    err = np.abs(feats @ p - target)
    if not (x[1] > 0 and err[0] <= 1e-12 and err[1] <= 1e-12 * Vs):
        raise SolverError(
            f"the dual of the maximum-entropy problem did not converge (residuals {err.tolist()},"
            f" {res.message}; {sol.message}); got support={support!r}, variance={variance!r}, "
            f"mean={mean!r}."
        )
    return p


# ------------------------------------------------------------------------------------ instance
def graph(N: int, D: int) -> RainbowGraph:
    r"""The count-path instance where (2.19) applies: counts D..N (footnote 1), neighbours
    n ~ n ± 1, outputs 0..N + D, rainbows by :math:`|y - n|`
    (:func:`rainbowdp.noise.count.graph` with ``n_min = D``).

    Examples
    --------
    >>> G = graph(4, 2)
    >>> list(G.nodes), G.outputs
    ([2, 3, 4], (0, 1, 2, 3, 4, 5, 6))
    """
    from . import count

    D = _check_D(D)
    N = check_int(N, "N", minimum=D + 1)
    return count.graph(N, D, n_min=D)


def _rows(counts: np.ndarray, outputs: np.ndarray, p: np.ndarray, D: int) -> np.ndarray:
    r"""Row n: p(y - n) at each output y (0 outside [n - D, n + D]).

    Entries of the support below :data:`rainbowdp.noise._additive.FLOOR` (:math:`2^{-1000}`; they
    underflow for :math:`\gamma z^2 \gtrsim 690`) are stored as the floor, as every family
    does: flooring only moves likelihood ratios towards 1, where an underflow to 0 next to a
    positive entry would add a spurious term to the rows' δ.
    """
    Z = outputs[None, :] - counts[:, None]
    inside = np.abs(Z) <= D
    return np.where(inside, np.maximum(p, FLOOR)[np.clip(Z + D, 0, 2 * D)], 0.0)


def mechanism(gamma: float, D: int, *, N: int | None = None) -> Mechanism:
    r"""The TableBuilder mechanism on :func:`graph` (N, D): each row the PMF shifted to its count.

    Parameters
    ----------
    gamma : float
    D : int
    N : int, optional
        Largest count (default D + 1: one edge, which decides δ, since every edge is a
        translate of it).

    Examples
    --------
    >>> M = mechanism(0.125, 11)
    >>> from rainbowdp import privacy_profile
    >>> d = float(privacy_profile(M, [1.0])[0])
    >>> 0 <= delta(1.0, 0.125, 11) - d <= 2e-12 * d      # the closed form, rounded up
    True
    """
    g = _check_gamma(gamma)
    D = _check_D(D)
    G = graph(D + 1 if N is None else N, D)
    counts = np.asarray(G.answers, dtype=np.int64)
    rows = _rows(counts, np.arange(G.n_outputs, dtype=np.int64), pmf(g, D), D)
    return mechanism_from_rows(G, rows)


# ------------------------------------------------------------------------------------ family
#: Absolute δ by which the stored float64 rows may exceed the closed form (the rows' round-off;
#: measured excesses are about 1e-17).
PROFILE_TOLERANCE = 2.0**-44


@register
@dataclass(frozen=True)
class TableBuilder(Family):
    r"""The ABS TableBuilder's maximum-entropy noise on [-D, D] (Sadeghi, Chien) as a family.

    The mechanism on a count graph (integer counts, consecutive integer outputs that hold every
    window [n - D, n + D]) puts :func:`pmf` (γ, D) shifted to each count.

    Parameters
    ----------
    D : int
        Noise support [-D, D].
    gamma : float
        γ >= 0 (:meth:`from_variance` for a variance V).

    Notes
    -----
    The nominal guarantee is the exact privacy profile δ(ε) = :func:`delta` (ε, γ, D) of
    Proposition 2, (2.19), stated for every ε. It is exact for any pair of neighbouring rows
    that are translates by one, so :meth:`holds_on` is True on graphs whose rows all fit in the
    outputs (for outputs 0.., the counts n >= D of footnote 1) and whose neighbours' counts
    differ by at most one; otherwise None (the family builds no mechanism for counts whose
    window leaves the outputs). The stored float64 rows meet the profile within
    :data:`PROFILE_TOLERANCE`.

    References
    ----------
    P. Sadeghi, C.-H. Chien, "On the connection between the ABS perturbation methodology and
    differential privacy" (2023): (2.3)–(2.7), Propositions 1–3.

    Examples
    --------
    >>> fam = TableBuilder.from_variance(11, variance=4.0)
    >>> G = fam.graph(5)
    >>> G.nodes[0], G.n_outputs, fam.holds_on(G)
    (11, 28, True)
    >>> f"{fam.nominal().delta(1.0):.4g}"
    '0.007249'
    """

    name: ClassVar[str] = "tablebuilder"
    summary: ClassVar[str] = (
        "ABS TableBuilder max-entropy noise C exp(-gamma z^2) on [-D, D] (Sadeghi & Chien 2023)"
    )

    D: int
    _: KW_ONLY
    gamma: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "D", _check_D(self.D))
        object.__setattr__(self, "gamma", _check_gamma(self.gamma))

    @classmethod
    def from_variance(cls, D: int, *, variance: float) -> TableBuilder:
        """The family with γ = :func:`gamma_for_variance` (variance, D)."""
        return cls(D, gamma=gamma_for_variance(variance, D))

    @property
    def pmf(self) -> np.ndarray:
        """The noise PMF on z = -D..D."""
        return pmf(self.gamma, self.D)

    @property
    def variance(self) -> float:
        """The noise variance (2.26)."""
        return variance(self.gamma, self.D)

    def delta(self, epsilon: Any) -> Any:
        """The exact δ(ε) (:func:`delta`)."""
        return delta(epsilon, self.gamma, self.D)

    def graph(self, n: int) -> RainbowGraph:
        """The closed form's domain: counts D .. D + n (n >= 1), outputs 0 .. 2D + n."""
        n = check_default_n(n)
        return graph(self.D + n, self.D)

    def _inputs(self, G: RainbowGraph) -> tuple[np.ndarray, np.ndarray, bool]:
        check_graph(G, "G")
        what = "TableBuilder noise"
        counts = integer_answers_of(G, what)
        lo, q, _ = contiguous_outputs_of(G, what)
        fits = bool(
            counts.size == 0 or (counts.min() - self.D >= lo and counts.max() + self.D < lo + q)
        )
        return counts, np.asarray(G.outputs, dtype=np.int64), fits

    def mechanism(self, G: RainbowGraph) -> Mechanism:
        r"""The rows :math:`p(y - n)` for every count n of ``G``.

        Raises
        ------
        ParameterError
            If ``G`` has no integer counts, its outputs are not consecutive integers, or some
            window [n - D, n + D] leaves the outputs (for outputs 0.., a count below D).
        """
        counts, outputs, fits = self._inputs(G)
        if not fits:
            raise ParameterError(
                f"`G` must have every window [n - D, n + D] inside its outputs [{outputs.min()}, "
                f"{outputs.max()}] for D={self.D} (footnote 1: counts n >= D on outputs 0..), "
                f"got counts from {int(counts.min())} to {int(counts.max())}."
            )
        return mechanism_from_rows(G, _rows(counts, outputs, self.pmf, self.D))

    def nominal(self) -> Claim:
        g, D = self.gamma, self.D
        return Claim(
            math.inf,
            f"Sadeghi & Chien (2023), Proposition 2, (2.19): exact delta_(gamma={g:.6g}, D={D})"
            "(eps) on counts >= D",
            profile=lambda e: delta(e, g, D),
            tolerance=PROFILE_TOLERANCE,
        )

    def holds_on(self, G: RainbowGraph) -> bool | None:
        counts, _, fits = self._inputs(G)
        if not fits:
            return None
        return True if unit_steps(G, counts) else None

    @classmethod
    def examples(cls) -> list[tuple[Family, RainbowGraph]]:
        from ..builders import count_path

        return [
            (cls(25, gamma=guide_gamma(0.5, 25)), graph(28, 25)),  # Example 1
            (cls.from_variance(11, variance=4.0), graph(15, 11)),  # Fig. 1a, V = 4
            (cls.from_variance(15, variance=10.0), graph(18, 15)),  # Fig. 1b, V = 10
            (cls(3, gamma=0.0), graph(7, 3)),  # the uniform law: V = D(D+1)/3
            (cls(2, gamma=0.4), count_path(8, outputs=range(-2, 11))),  # outputs below 0
        ]
