r"""Integer-valued noise laws given by vectorised log-PMF and log-tail functions.

The laws of the additive families (:mod:`rainbowdp.noise`): :class:`NoiseLaw` (the interface),
:class:`TableLaw` (a finite table), :class:`StaircaseLaw` (the discrete staircase, with closed
forms for its normaliser, tails and periodisations), :class:`GeometricLaw` (its special case,
the two-sided geometric law) and :class:`DiscreteGaussianLaw` (the exact normaliser). The rows
of a finite mechanism are built from them by :func:`rainbowdp.noise.additive_rows`.
"""

from __future__ import annotations

import math
import numbers
from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from .._validation import check_int, check_probability_vector
from ..exceptions import ParameterError, ParameterTypeError

__all__ = [
    "MAX_ABS_INTEGER",
    "MAX_SIGMA",
    "MAX_WRAP_TERMS",
    "MIN_SIGMA",
    "DiscreteGaussianLaw",
    "GeometricLaw",
    "NoiseLaw",
    "StaircaseLaw",
    "TableLaw",
]

#: Largest |answer| and |output| accepted: integers of this size are exact in float64.
MAX_ABS_INTEGER = 2**52
#: Largest number of terms summed directly for a periodised law (memory of one float64 array).
MAX_WRAP_TERMS = 2**25
#: Largest discrete Gaussian sigma (its tails are tabulated over +-40 sigma).
MAX_SIGMA = 1e5
#: Smallest discrete Gaussian sigma: below it sigma^2 underflows, and already at 0.05 the law is
#: a point mass at 0 to within e^-200.
MIN_SIGMA = 1e-100


def _real(value: Any, name: str) -> float:
    """``float(value)`` for a real number (not a bool), else ParameterTypeError naming it."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise ParameterTypeError(f"`{name}` must be a real number, got {name}={value!r}.")
    return float(value)


def _logsumexp(x: np.ndarray, axis: int) -> np.ndarray:
    """log(sum(exp(x))) along ``axis``; ``-inf`` where every term is ``-inf``."""
    m = np.max(x, axis=axis, keepdims=True)
    safe = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(x - safe), axis=axis, keepdims=True)) + safe
    return np.squeeze(out, axis=axis)


def _log1mexp(x: np.ndarray) -> np.ndarray:
    """log(1 - exp(x)) for x <= 0, accurate near 0 and for very negative x."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x > -math.log(2.0), np.log(-np.expm1(x)), np.log1p(-np.exp(x)))


# ------------------------------------------------------------------------------------ laws
class NoiseLaw(ABC):
    r"""An integer-valued noise law :math:`\eta`, given by vectorised log-PMF and log-tails.

    Subclasses implement :meth:`log_pmf` and :meth:`log_sf` (and :meth:`log_cdf` unless the
    law is symmetric, :math:`f(k) = f(-k)`); :meth:`log_wrapped` (needed by the folded and
    modular forms) has a generic implementation for laws with a finite :meth:`window`.
    Every method takes an integer array and returns float64 logarithms, ``-inf`` for 0.

    Attributes
    ----------
    full_support : bool
        Whether every integer has positive probability (then every entry of every form is
        positive, which :func:`~rainbowdp.noise.additive_rows` uses to detect underflow).
    symmetric : bool
        Whether :math:`f(k) = f(-k)` (then ``log_cdf(k) = log_sf(-k)``).
    """

    full_support: bool = True
    symmetric: bool = True

    @abstractmethod
    def log_pmf(self, k: np.ndarray) -> np.ndarray:
        r""":math:`\log \Pr[\eta = k]`."""

    @abstractmethod
    def log_sf(self, k: np.ndarray) -> np.ndarray:
        r""":math:`\log \Pr[\eta \ge k]`."""

    def log_cdf(self, k: np.ndarray) -> np.ndarray:
        r""":math:`\log \Pr[\eta \le k]` (``log_sf(-k)`` for a symmetric law)."""
        if not self.symmetric:  # pragma: no cover - every asymmetric law here overrides it
            raise NotImplementedError(f"{type(self).__name__} must implement log_cdf")
        return self.log_sf(-np.asarray(k))

    def window(self) -> tuple[int, int]:
        """An integer range (k_min, k_max) outside which the law has no mass."""
        raise NotImplementedError(
            f"{type(self).__name__} has no finite window; implement log_wrapped for the "
            "folded and modular forms"
        )

    def log_wrapped(self, period: int) -> np.ndarray:
        r""":math:`\log \sum_{m \in \mathbb Z} f(c + m\,\text{period})` for c = 0..period−1.

        The law of :math:`\eta \bmod \text{period}`. The generic version sums the PMF over
        :meth:`window`.
        """
        k_min, k_max = self.window()
        k = np.arange(k_min, k_max + 1, dtype=np.int64)
        lp = self.log_pmf(k)
        res = np.mod(k, period)
        out = np.full(period, -np.inf)
        m = np.max(lp) if lp.size else -np.inf
        if not np.isfinite(m):
            return out
        sums = np.bincount(res, weights=np.exp(lp - m), minlength=period)
        with np.errstate(divide="ignore"):
            return np.log(sums) + m

    def exponents(self, k: np.ndarray) -> tuple[np.ndarray, float] | None:
        r"""Optional exact form of a symmetric unimodal log-PMF: ``(e, scale)`` with
        :math:`\log f(k) = \text{scale}\cdot e(k) + \text{const}`, scale < 0, e(k) exact in
        float64 and non-decreasing in :math:`|k|`.

        Then a difference of log-probabilities is one exact subtraction and one rounded product,
        whatever the size of k, which keeps the truncated rows of far-away answers accurate;
        and a row's largest entry is at the output nearest the answer, its smallest at an end.
        The default, None, falls back to differences of :meth:`log_pmf`.
        """
        return None

    # Probabilities themselves. The defaults exponentiate the logarithms; laws with exact
    # closed forms override them (powers of the geometric ratio, the entries of a table).
    def pmf(self, k: np.ndarray) -> np.ndarray:
        r""":math:`\Pr[\eta = k]`."""
        return np.exp(self.log_pmf(k))

    def sf(self, k: np.ndarray) -> np.ndarray:
        r""":math:`\Pr[\eta \ge k]`."""
        return np.exp(self.log_sf(k))

    def cdf(self, k: np.ndarray) -> np.ndarray:
        r""":math:`\Pr[\eta \le k]`."""
        return np.exp(self.log_cdf(k))

    def wrapped(self, period: int) -> np.ndarray:
        r""":math:`\Pr[\eta \equiv c \pmod{\text{period}}]` for c = 0..period−1."""
        return np.exp(self.log_wrapped(period))


class TableLaw(NoiseLaw):
    r"""A noise law with finite support: :math:`\Pr[\eta = \text{offset} + i] = p_i`.

    Parameters
    ----------
    pmf : array_like of float
        Probabilities :math:`p_0, \dots, p_{m-1}` (non-negative, summing to 1 within 1e-9).
    offset : int, default 0
        The noise value of ``pmf[0]``.

    Examples
    --------
    >>> law = TableLaw([0.25, 0.5, 0.25], offset=-1)
    >>> np.exp(law.log_pmf(np.array([-2, -1, 0, 1]))).tolist()
    [0.0, 0.25, 0.5, 0.25]
    >>> np.exp(law.log_sf(np.array([0, 1, 2]))).tolist()
    [0.75, 0.25, 0.0]
    """

    full_support = False
    symmetric = False

    def __init__(self, pmf: Any, *, offset: int = 0) -> None:
        p = check_probability_vector(pmf, "pmf")
        self._p = p / math.fsum(p.tolist())  # a distribution to float precision
        self._offset = check_int(offset, "offset")
        if abs(self._offset) > MAX_ABS_INTEGER or self._p.size > MAX_WRAP_TERMS:
            raise ParameterError(
                f"`offset` and the length of `pmf` must stay below {MAX_ABS_INTEGER} and "
                f"{MAX_WRAP_TERMS}, got offset={offset!r} and {self._p.size} probabilities."
            )
        # tails by cumulative sums of non-negative terms: no cancellation
        self._sf = np.concatenate([np.cumsum(self._p[::-1])[::-1], [0.0]])
        self._cdf = np.concatenate([[0.0], np.cumsum(self._p)])
        with np.errstate(divide="ignore"):
            self._lp = np.log(self._p)
            self._lsf = np.log(self._sf)
            self._lcdf = np.log(self._cdf)

    @property
    def probabilities(self) -> np.ndarray:
        r"""The table :math:`p_0, \dots, p_{m-1}` (a copy)."""
        return self._p.copy()

    @property
    def offset(self) -> int:
        """The noise value of ``pmf[0]``."""
        return self._offset

    def __repr__(self) -> str:
        return f"TableLaw(pmf of {self._p.size} values, offset={self._offset})"

    def log_pmf(self, k: np.ndarray) -> np.ndarray:
        i = np.asarray(k, dtype=np.int64) - self._offset
        inside = (i >= 0) & (i < self._p.size)
        return np.where(inside, self._lp[np.clip(i, 0, self._p.size - 1)], -np.inf)

    def log_sf(self, k: np.ndarray) -> np.ndarray:
        i = np.clip(np.asarray(k, dtype=np.int64) - self._offset, 0, self._p.size)
        return self._lsf[i]

    def log_cdf(self, k: np.ndarray) -> np.ndarray:
        i = np.clip(np.asarray(k, dtype=np.int64) - self._offset + 1, 0, self._p.size)
        return self._lcdf[i]

    def window(self) -> tuple[int, int]:
        return self._offset, self._offset + self._p.size - 1

    def pmf(self, k: np.ndarray) -> np.ndarray:
        i = np.asarray(k, dtype=np.int64) - self._offset
        inside = (i >= 0) & (i < self._p.size)
        return np.where(inside, self._p[np.clip(i, 0, self._p.size - 1)], 0.0)

    def sf(self, k: np.ndarray) -> np.ndarray:
        return self._sf[np.clip(np.asarray(k, dtype=np.int64) - self._offset, 0, self._p.size)]

    def cdf(self, k: np.ndarray) -> np.ndarray:
        i = np.clip(np.asarray(k, dtype=np.int64) - self._offset + 1, 0, self._p.size)
        return self._cdf[i]

    def wrapped(self, period: int) -> np.ndarray:
        k = np.arange(self._offset, self._offset + self._p.size, dtype=np.int64)
        return np.bincount(np.mod(k, period), weights=self._p, minlength=period)


class StaircaseLaw(NoiseLaw):
    r"""The symmetric staircase law :math:`f(k) \propto e^{-\rho\, g(|k|)}` on the integers.

    With period D >= 1 and step r in 0..D, :math:`g(i) = \lfloor i / D \rfloor + [\,i \bmod D
    \ge r\,]`: each block of D consecutive integers is a step of r values followed by a step of
    D − r values :math:`e^{-\rho}` lower, and the next block is :math:`e^{-\rho}` lower again.
    D = 1, r = 1 is the two-sided geometric law :math:`f(k) \propto e^{-\rho |k|}`.

    Every quantity has a closed form (b = :math:`e^{-\rho}`): one block of the right half sums
    to :math:`B = r + (D - r) b`, the right half to :math:`S_+ = B / (1 - b)`, the whole law to
    :math:`Z = 2 S_+ - f_0` with :math:`f_0 = b^{[r = 0]}`, and for k = jD + t (0 <= t < D)

    .. math::

        \sum_{i \ge k} b^{g(i)} = b^j \big(\max(r - t, 0) + (D - \max(t, r))\, b + b S_+\big).

    Parameters
    ----------
    rate : float
        ρ > 0.
    period : int, default 1
        D.
    step : int, default 1
        r, 0 <= r <= D (r = 0 and r = D give the same law).

    Examples
    --------
    >>> law = StaircaseLaw(math.log(2))           # geometric, alpha = 1/2
    >>> np.exp(law.log_pmf(np.array([0, 1, -2]))).round(12).tolist()
    [0.333333333333, 0.166666666667, 0.083333333333]
    """

    def __init__(self, rate: float, *, period: int = 1, step: int = 1) -> None:
        rate = _real(rate, "rate")
        if not (math.isfinite(rate) and rate > 0):
            raise ParameterError(f"`rate` must be a finite number > 0, got rate={rate!r}.")
        self.rate = rate
        self.period = check_int(period, "period", minimum=1)
        self.step = check_int(step, "step", minimum=0, maximum=self.period)
        self._setup(math.exp(-rate))

    def _setup(self, b: float) -> None:
        d, r, rate = self.period, self.step, self.rate
        self._b = b
        self._block = r + (d - r) * b
        self._half = self._block / -math.expm1(-rate)  # S_+ (may be large: no overflow below 1e300)
        self._log_f0 = -rate if r == 0 else 0.0
        self._z = 2.0 * self._half - (b if r == 0 else 1.0)
        self._log_z = math.log(self._z)

    def __repr__(self) -> str:
        return f"StaircaseLaw(rate={self.rate!r}, period={self.period}, step={self.step})"

    def _g(self, i: np.ndarray) -> np.ndarray:
        d, r = self.period, self.step
        return i // d + (i % d >= r)

    def log_pmf(self, k: np.ndarray) -> np.ndarray:
        i = np.abs(np.asarray(k, dtype=np.int64))
        return -self.rate * self._g(i) - self._log_z

    def exponents(self, k: np.ndarray) -> tuple[np.ndarray, float]:
        return self._g(np.abs(np.asarray(k, dtype=np.int64))).astype(np.float64), -self.rate

    def _bracket(self, t: np.ndarray) -> np.ndarray:
        d, r, b = self.period, self.step, self._b
        return np.maximum(r - t, 0) + (d - np.maximum(t, r)) * b + b * self._half

    def _log_upper(self, k: np.ndarray) -> np.ndarray:
        """log of sum_{i >= k} b^{g(i)} (unnormalised), for k >= 0."""
        j, t = np.divmod(k, self.period)
        return -self.rate * j + np.log(self._bracket(t))

    def pmf(self, k: np.ndarray) -> np.ndarray:
        # b^g / Z as a power of b times one constant: neighbouring values keep the exact ratio b
        # when b is a power of two (and within an ulp or two otherwise)
        g = self._g(np.abs(np.asarray(k, dtype=np.int64)))
        return np.power(self._b, g.astype(np.float64)) * (1.0 / self._z)

    def sf(self, k: np.ndarray) -> np.ndarray:
        k = np.asarray(k, dtype=np.int64)
        pos = k >= 0
        j, t = np.divmod(np.where(pos, k, 1 - k), self.period)
        up = np.power(self._b, j.astype(np.float64)) * (self._bracket(t) / self._z)
        return np.where(pos, up, 1.0 - up)  # up <= 1/2 for k < 0: no cancellation

    def cdf(self, k: np.ndarray) -> np.ndarray:
        return self.sf(-np.asarray(k, dtype=np.int64))

    def log_sf(self, k: np.ndarray) -> np.ndarray:
        k = np.asarray(k, dtype=np.int64)
        pos = k >= 0
        up = self._log_upper(np.where(pos, k, 1 - k)) - self._log_z
        return np.where(pos, up, _log1mexp(up))

    def log_wrapped(self, period: int) -> np.ndarray:
        # f(i + L) = b^{L/D} f(i) for i >= 0 with L = lcm(period, D): one stretch of L values
        # per class, then a geometric series; the negative half by symmetry.
        d = self.period
        span = math.lcm(period, d)
        if span > MAX_WRAP_TERMS:
            raise ParameterError(
                f"the staircase period D={d} and the wrap period {period} have a least common "
                f"multiple of {span}, more than {MAX_WRAP_TERMS} terms."
            )
        i = np.arange(span, dtype=np.int64)
        lw = (-self.rate * self._g(i)).reshape(span // period, period)
        half = _logsumexp(lw, axis=0) - _log1mexp(np.array(-self.rate * (span // d)))
        mirror = half[(-np.arange(period)) % period]
        out = np.logaddexp(half, mirror)
        # class 0 counts f(0) once: 2 G(0) - f(0)
        out[0] = half[0] + math.log(2.0 - math.exp(self._log_f0 - half[0]))
        return out - self._log_z


class GeometricLaw(StaircaseLaw):
    r"""The two-sided geometric (discrete Laplace) law :math:`f(k) = \frac{1-\alpha}{1+\alpha}
    \alpha^{|k|}` (Ghosh, Roughgarden, Sundararajan 2009).

    Parameters
    ----------
    alpha : float
        0 < α < 1 (α = :math:`e^{-\epsilon/\Delta}` for ε-DP at sensitivity Δ).

    Examples
    --------
    >>> law = GeometricLaw(0.5)
    >>> float(np.exp(law.log_sf(np.array([1]))[0]))     # alpha / (1 + alpha)
    0.3333333333333333
    """

    def __init__(self, alpha: float) -> None:
        alpha = _real(alpha, "alpha")
        if not (0.0 < alpha < 1.0):
            raise ParameterError(f"`alpha` must be in (0, 1), got alpha={alpha!r}.")
        self.alpha = alpha
        super().__init__(-math.log(alpha), period=1, step=1)
        self._setup(alpha)  # b = alpha exactly (exp(log(alpha)) may differ in the last bit)

    def __repr__(self) -> str:
        return f"GeometricLaw(alpha={self.alpha!r})"


class DiscreteGaussianLaw(NoiseLaw):
    r"""The discrete Gaussian :math:`\mathcal N_{\mathbb Z}(0, \sigma^2)`: :math:`f(k) =
    e^{-k^2/(2\sigma^2)} / Z` (Canonne, Kamath, Steinke 2020, Definition 1).

    The normaliser :math:`Z = \sum_{j \in \mathbb Z} e^{-j^2/(2\sigma^2)}` is exact: the series
    itself for σ < 1, and for σ >= 1 its Poisson-summation (theta-function) form
    :math:`Z = \sigma\sqrt{2\pi}\,\big(1 + 2\sum_{k \ge 1} e^{-2\pi^2\sigma^2 k^2}\big)`, whose
    terms fall below :math:`10^{-8}` from k = 1 on. Upper tails are reverse cumulative sums over
    :math:`0 \le k \le \lceil 40\sigma \rceil` (beyond, the tail is below :math:`e^{-800}`). The
    law modulo P (:meth:`log_wrapped`) uses the Poisson form
    :math:`\frac{1}{PZ}\sigma\sqrt{2\pi}\,\big(1 + 2\sum_{k\ge1} e^{-2\pi^2\sigma^2k^2/P^2}
    \cos(2\pi k c/P)\big)` when σ >= P/2, else the direct sum.

    Parameters
    ----------
    sigma : float
        0 < σ <= 1e5.

    Examples
    --------
    >>> law = DiscreteGaussianLaw(1.0)
    >>> round(float(np.exp(law.log_pmf(np.array([0]))[0])), 12)    # not 1/sqrt(2 pi)
    0.398942278267
    """

    def __init__(self, sigma: float) -> None:
        sigma = _real(sigma, "sigma")
        if not (math.isfinite(sigma) and MIN_SIGMA <= sigma <= MAX_SIGMA):
            raise ParameterError(
                f"`sigma` must be in [{MIN_SIGMA:g}, {MAX_SIGMA:g}], got sigma={sigma!r}."
            )
        self.sigma = sigma
        self._s2 = sigma * sigma
        self._log_z = self._log_normaliser(sigma)
        self._top = math.ceil(40.0 * sigma) + 2
        self._table: np.ndarray | None = None

    def _tail_table(self) -> np.ndarray:
        """log sum_{i >= k} e^{-i^2/(2 sigma^2)} for k = 0..top, tabulated on first use."""
        if self._table is None:
            j = np.arange(self._top + 1, dtype=np.float64)
            w = np.exp(-(j * j) / (2.0 * self._s2))
            with np.errstate(divide="ignore"):  # small terms first: the sums are accurate
                self._table = np.log(np.cumsum(w[::-1])[::-1])
        return self._table

    @staticmethod
    def _log_normaliser(sigma: float) -> float:
        if sigma < 1.0:
            top = math.ceil(40.0 * sigma) + 2
            return math.log(
                math.fsum(math.exp(-(j * j) / (2.0 * sigma * sigma)) for j in range(-top, top + 1))
            )
        c = 2.0 * math.pi**2 * sigma * sigma
        terms = []
        k = 1
        while True:
            t = math.exp(-c * k * k)
            if t == 0.0:
                break
            terms.append(t)
            k += 1
        return math.log(sigma * math.sqrt(2.0 * math.pi)) + math.log1p(2.0 * math.fsum(terms))

    def __repr__(self) -> str:
        return f"DiscreteGaussianLaw(sigma={self.sigma!r})"

    def log_pmf(self, k: np.ndarray) -> np.ndarray:
        x = np.asarray(k, dtype=np.float64)
        return -(x * x) / (2.0 * self._s2) - self._log_z

    def exponents(self, k: np.ndarray) -> tuple[np.ndarray, float] | None:
        x = np.asarray(k, dtype=np.int64)
        if x.size and int(np.max(np.abs(x))) > 2**26:  # k^2 no longer exact in float64
            return None
        return (x * x).astype(np.float64), -1.0 / (2.0 * self._s2)

    def _log_sf_nonneg(self, k: np.ndarray) -> np.ndarray:
        inside = k <= self._top
        table = self._tail_table()[np.clip(k, 0, self._top)]
        # beyond the table: f(k) / (1 - e^{-(2k+1)/(2 sigma^2)}) bounds the tail (< e^-800)
        x = k.astype(np.float64)
        with np.errstate(divide="ignore"):
            far = -(x * x) / (2.0 * self._s2) - np.log(-np.expm1(-(2.0 * x + 1.0) / (2 * self._s2)))
        return np.where(inside, table, far) - self._log_z

    def log_sf(self, k: np.ndarray) -> np.ndarray:
        k = np.asarray(k, dtype=np.int64)
        pos = k >= 0
        up = self._log_sf_nonneg(np.where(pos, k, 1 - k))
        return np.where(pos, up, _log1mexp(up))

    def log_wrapped(self, period: int) -> np.ndarray:
        c = np.arange(period, dtype=np.float64)
        if self.sigma >= period / 2.0:
            a = 2.0 * math.pi**2 * self._s2 / (period * period)
            total = np.ones(period)
            k = 1
            while math.exp(-a * k * k) > 0.0:
                total += 2.0 * math.exp(-a * k * k) * np.cos(2.0 * math.pi * k * c / period)
                k += 1
            lead = math.log(self.sigma * math.sqrt(2.0 * math.pi) / period)
            return lead + np.log(total) - self._log_z
        reach = math.ceil(40.0 * self.sigma) + 2  # beyond, every term is below e^-800
        x = np.arange(-reach, reach + 1, dtype=np.int64)
        w = np.exp(-(x.astype(np.float64) ** 2) / (2.0 * self._s2))
        with np.errstate(divide="ignore"):  # residues no term reaches: -inf (below e^-800)
            return np.log(np.bincount(np.mod(x, period), weights=w, minlength=period)) - self._log_z
