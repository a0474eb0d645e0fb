r"""The maximum-entropy PMF on any finite integer support (Sadeghi, Chien (1.2)–(1.3)), solved
through its convex dual; re-exported by :mod:`rainbowdp.noise.tablebuilder`.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from .._validation import check_nonnegative_float, real_array
from ..exceptions import ParameterError, ParameterTypeError, SolverError

__all__ = ["max_entropy"]


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

    >>> from rainbowdp.noise.tablebuilder import gamma_for_variance, pmf
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
