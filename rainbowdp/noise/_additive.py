r"""Additive integer noise on a finite range of outputs: the laws and the one rows routine.

An additive mechanism answers :math:`a + \eta` with :math:`\eta` drawn from an integer-valued
noise law :math:`f`. When the outputs are the finite range :math:`R = \{lo, \dots, hi\}`
(q = hi − lo + 1 outputs), the infinite output has to be brought into R; the four *forms*:

``"truncated"``
    the noise restricted to R and renormalised:
    :math:`P_a(v) = f(v - a) / \sum_{w \in R} f(w - a)`. This is **not** a post-processing of
    the textbook mechanism: the normaliser depends on a, and its ratio between neighbours adds to
    the privacy loss (up to doubling ε for the geometric mechanism).
``"clamped"``
    the mass beyond an end piled onto that end point (Ghosh et al.'s range restriction; Kadam
    et al., eqs. (55)–(56)): :math:`P_a(lo) = \Pr[\eta \le lo - a]`,
    :math:`P_a(v) = f(v - a)` inside, :math:`P_a(hi) = \Pr[\eta \ge hi - a]`.
``"folded"``
    :math:`a + \eta` reflected at the ends, repeatedly: the output is :math:`lo + \tau(s)` with
    :math:`s = (a + \eta - lo) \bmod 2(q-1)` and :math:`\tau(s) = \min(s, 2(q-1) - s)`.
``"modular"``
    :math:`a + \eta` wrapped modulo q: the output is :math:`lo + ((a + \eta - lo) \bmod q)`
    (Kadam et al.'s modulo addition, natural on :func:`~rainbowdp.builders.circulant` graphs).

Clamping, folding and wrapping are deterministic functions of :math:`a + \eta`, so they keep
every (ε, δ) guarantee of the infinite mechanism (post-processing). Folded and modular rows
depend on a only through a residue (modulo 2(q − 1), resp. q), so at most 2(q − 1) distinct rows
are computed, whatever the number of nodes.

**Accuracy.** A truncated row is formed in log space and normalised by subtracting its largest
log weight before exponentiating, so an answer far outside the range still gives the right row
(not 0/0); for laws with an exact log-PMF (:meth:`NoiseLaw.exponents`: the geometric, staircase
and discrete Gaussian laws) the differences of log weights are exact before one rounding, so the
row stays accurate to a few units of round-off however far the answer is. A clamped row is the
exact probabilities as they stand, its end masses from the laws' tails (closed forms for the
geometric and staircase laws -- powers of the ratio times one constant --, reverse cumulative
sums for the discrete Gaussian), never from ``1 - sum(...)``. Folded and modular rows come from
the law modulo the period (:meth:`NoiseLaw.wrapped`). Rows sum to 1 within about
:math:`10 q\,2^{-53}`.

**Underflow.** A row entry whose exact value lies below the smallest normal float64
(:math:`2.2 \times 10^{-308}`) would be stored as 0 or as a subnormal number with few
significant bits, and a zero next to a positive entry in a neighbour's row makes the stored
mechanism not ε-DP for any finite ε, whatever the exact law promises (the truncated geometric at
ε = 2 on ``count_path(400)``; every clamped form on ``count_path(10**6, outputs=range(32))``).
:func:`additive_rows` therefore stores every entry that is positive in the exact law but below
:data:`FLOOR` (:math:`2^{-1000} \approx 9.3 \times 10^{-302}`) as :data:`FLOOR`. Flooring only
moves likelihood ratios towards 1: if :math:`x \le e^\epsilon y` and :math:`y \le e^\epsilon x`
then :math:`\max(x, F) \le e^\epsilon \max(y, F)` and the reverse, so a pure ε-DP law stays ε-DP
in float64, and a hockey-stick divergence grows by at most :math:`qF` (about
:math:`10^{-298}` per output). The rows then differ from the exact law by at most :math:`qF` in
total variation.
"""

from __future__ import annotations

import math
import numbers
from abc import ABC, abstractmethod
from typing import Any, Literal, get_args

import numpy as np

from .._validation import check_int, check_probability_vector
from ..exceptions import ParameterError, ParameterTypeError

__all__ = [
    "FORMS",
    "DiscreteGaussianLaw",
    "Form",
    "GeometricLaw",
    "NoiseLaw",
    "StaircaseLaw",
    "TableLaw",
    "additive_rows",
]

#: How a finite mechanism is made from additive noise (see the module notes).
Form = Literal["truncated", "clamped", "folded", "modular"]
#: The forms, in documentation order.
FORMS: tuple[str, ...] = get_args(Form)

#: Entries positive in the exact law but smaller than this are stored as this (module notes).
FLOOR = 2.0**-1000
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
        positive, which :func:`additive_rows` uses to detect underflow).
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


# ------------------------------------------------------------------------------------ checks
def integer_answers(answers: Any, name: str = "answers") -> np.ndarray:
    """``answers`` as an int64 array, or a ParameterError naming ``name``."""
    if isinstance(answers, str | bytes):
        raise ParameterTypeError(f"`{name}` must be a sequence of integers, got {answers!r}.")
    try:
        arr = np.asarray(answers)
    except (TypeError, ValueError):
        arr = np.asarray(list(answers), dtype=object)
    if arr.ndim != 1 or arr.size == 0:
        raise ParameterError(
            f"`{name}` must be a non-empty one-dimensional sequence of integers, got "
            f"shape {arr.shape}."
        )
    kind = arr.dtype.kind

    def too_large(value: Any) -> ParameterError:
        return ParameterError(
            f"`{name}` must be integers of at most {MAX_ABS_INTEGER} in absolute value, got "
            f"{value!r} in {name}."
        )

    if kind in "iu":
        high, low = (arr.max(), arr.min()) if arr.size else (0, 0)
        if high > MAX_ABS_INTEGER or (kind == "i" and low < -MAX_ABS_INTEGER):
            raise too_large(int(high if high > MAX_ABS_INTEGER else low))
        out = arr.astype(np.int64)
    elif kind == "f":
        if not (np.all(np.isfinite(arr)) and np.all(arr == np.round(arr))):
            bad = float(arr[~(np.isfinite(arr) & (arr == np.round(arr)))][0])
            raise ParameterError(
                f"`{name}` must be integers for additive noise, got {bad!r} in {name}."
            )
        if arr.size and float(np.max(np.abs(arr))) > MAX_ABS_INTEGER:
            raise too_large(float(arr[np.argmax(np.abs(arr))]))
        out = arr.astype(np.int64)
    elif kind == "O":
        for x in arr.tolist():
            if isinstance(x, bool) or not isinstance(x, numbers.Integral):
                raise ParameterError(
                    f"`{name}` must be integers for additive noise, got {x!r} in {name}."
                )
        big = [x for x in arr.tolist() if abs(x) > MAX_ABS_INTEGER]
        if big:
            raise too_large(big[0])
        out = arr.astype(np.int64)
    else:
        first = arr.ravel()[0]
        first = first.item() if isinstance(first, np.generic) else first
        raise ParameterError(
            f"`{name}` must be integers for additive noise, got {first!r} in {name}."
        )
    return out


def contiguous_outputs(outputs: Any, name: str = "outputs") -> tuple[int, int, np.ndarray | None]:
    """(lo, q, perm) for outputs that are the consecutive integers lo..lo+q-1 in some order.

    ``perm`` is None when they are in increasing order, else the column order:
    ``rows_sorted[:, perm]`` are the rows in the order of ``outputs``.
    """
    if isinstance(outputs, str | bytes):
        raise ParameterTypeError(f"`{name}` must be a sequence of integers, got {outputs!r}.")
    values = list(outputs)
    ints = []
    for v in values:
        if isinstance(v, bool | np.bool_) or not isinstance(v, int | np.integer):
            raise ParameterError(
                f"`{name}` must be consecutive integers lo..hi for additive noise, got "
                f"{v!r} in {name}={_short(values)}."
            )
        ints.append(int(v))
    if not ints:
        raise ParameterError(f"`{name}` must not be empty, got {name}=[].")
    lo, hi = min(ints), max(ints)
    if hi - lo + 1 != len(ints) or len(set(ints)) != len(ints):
        raise ParameterError(
            f"`{name}` must be consecutive integers lo..hi for additive noise, got "
            f"{name}={_short(values)}."
        )
    if max(abs(lo), abs(hi)) > MAX_ABS_INTEGER:
        raise ParameterError(
            f"`{name}` must be integers of at most {MAX_ABS_INTEGER} in absolute value, got "
            f"{name}={_short(values)}."
        )
    arr = np.asarray(ints, dtype=np.int64)
    perm = None if np.all(np.diff(arr) > 0) else (arr - lo).astype(np.intp)
    return lo, len(ints), perm


def _short(values: list) -> str:
    text = repr(values)
    return text if len(text) <= 80 else text[:60] + " ... " + text[-15:]


def check_form(form: Any, allowed: tuple[str, ...] = FORMS) -> str:
    """Validate a form name against ``allowed``."""
    if not isinstance(form, str) or form not in allowed:
        choices = ", ".join(repr(f) for f in allowed)
        raise ParameterError(f"`form` must be one of {choices}, got form={form!r}.")
    return form


# ------------------------------------------------------------------------------------ rows
#: exp(x) is 0 in float64 for x below this (the smallest subnormal is about e^-744.44); such
#: entries are set to 0 without calling exp, whose underflow path is slow.
_EXP_FLOOR = -746.0


def _exp(x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """exp(x), computing only the entries that do not underflow to 0 (``out`` may be ``x``)."""
    keep = x >= _EXP_FLOOR
    if out is None:
        out = np.zeros_like(x)
        np.exp(x, out=out, where=keep)
        return out
    np.exp(x, out=out, where=keep)
    if not keep.all():
        np.copyto(out, 0.0, where=np.logical_not(keep, out=keep))
    return out


def _span(ua: np.ndarray, q: int) -> tuple[int, np.ndarray] | None:
    """(length, starts) of one line of noise values covering every row, or None if too long.

    Row u needs the noise values lo - a_u + j, j = 0..q-1: a window of one line of values
    ``lo - max(a) .. hi - min(a)`` when the distinct answers are dense, so the law is evaluated
    once per distinct noise value.
    """
    span = int(ua[-1] - ua[0]) + q
    if span > 8 * ua.size * q + 4096:
        return None
    return span, (ua[-1] - ua).astype(np.intp)


def _gather(line: np.ndarray, starts: np.ndarray, q: int) -> np.ndarray:
    """The (U, q) array whose row u is ``line[starts[u] : starts[u] + q]`` (a fresh array)."""
    windows = np.lib.stride_tricks.sliding_window_view(line, q)
    if starts.size > 1 and np.all(np.diff(starts) == -1):  # consecutive answers: a reversed view
        stop = starts[-1] - 1 if starts[-1] else None
        return np.ascontiguousarray(windows[starts[0] : stop : -1])
    return np.array(windows[starts])


def _noise_rows(fn: Any, ua: np.ndarray, lo: int, q: int) -> np.ndarray:
    """(U, q) fresh array of ``fn(lo + j - a_u)`` for a vectorised function of the noise."""
    found = _span(ua, q)
    if found is not None:
        k0 = lo - int(ua[-1])
        return _gather(fn(np.arange(k0, k0 + found[0], dtype=np.int64)), found[1], q)
    return np.asarray(fn((lo - ua)[:, None] + np.arange(q, dtype=np.int64)[None, :]), np.float64)


def _truncated(
    law: NoiseLaw, ua: np.ndarray, lo: int, q: int
) -> tuple[np.ndarray, np.ndarray | bool | None]:
    """Truncated rows, and whether some entry may lie below FLOOR."""
    hi = lo + q - 1
    probe = np.array([lo - int(ua[-1]), hi - int(ua[0])], dtype=np.int64)
    exact = law.exponents(probe) if law.full_support else None
    if exact is not None:
        # log f = scale * e + const with e exact and unimodal: subtract the e of the output
        # nearest the answer exactly, then round once -- accurate however far the answer is
        scale = exact[1]
        e = _noise_rows(lambda k: law.exponents(k)[0], ua, lo, q)
        e -= law.exponents(np.clip(0, lo - ua, hi - ua))[0][:, None]
        e *= scale
        rows = _exp(e, out=e)
        rows /= rows.sum(axis=1, keepdims=True)
        return rows, bool(np.minimum(rows[:, 0], rows[:, -1]).min() < FLOOR)
    lw = _noise_rows(law.log_pmf, ua, lo, q)
    m = lw.max(axis=1)
    if not np.all(np.isfinite(m)):
        bad = int(ua[np.flatnonzero(~np.isfinite(m))[0]])
        raise ParameterError(
            f"the noise law {law!r} gives no probability to the outputs {lo}..{hi} "
            f"from the answer {bad}: form='truncated' has nothing to renormalise."
        )
    positive = None if law.full_support else np.isfinite(lw)
    lw -= m[:, None]  # every row's largest log weight becomes 0: no 0/0 far from the range
    rows = _exp(lw, out=lw)
    rows /= rows.sum(axis=1, keepdims=True)
    return rows, positive


def _clamped(
    law: NoiseLaw, ua: np.ndarray, lo: int, q: int
) -> tuple[np.ndarray, np.ndarray | None]:
    if q == 1:
        return np.ones((ua.size, 1)), None
    # A clamped row is a distribution as it stands: the exact probabilities, no renormalisation
    # -- the law's values inside, its tails at the two ends.
    rows = _noise_rows(law.pmf, ua, lo, q)
    rows[:, 0] = law.cdf(lo - ua)
    rows[:, -1] = law.sf(lo + q - 1 - ua)
    positive = None
    if not law.full_support:
        positive = np.isfinite(_noise_rows(law.log_pmf, ua, lo, q))
        positive[:, 0] = np.isfinite(law.log_cdf(lo - ua))
        positive[:, -1] = np.isfinite(law.log_sf(lo + q - 1 - ua))
    return rows, positive


def _periodic(
    law: NoiseLaw, ua: np.ndarray, lo: int, q: int, form: str
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """Rows for the distinct residues of the answers, and the residue index of each answer."""
    if q == 1:
        return np.ones((1, 1)), None, np.zeros(ua.size, dtype=np.intp)
    period = q if form == "modular" else 2 * (q - 1)
    g = law.wrapped(period)  # the residue classes partition the law: rows sum to 1
    res, index = np.unique(np.mod(ua - lo, period), return_inverse=True)
    j = np.arange(q, dtype=np.int64)
    first = np.mod(j[None, :] - res[:, None], period)
    if form == "modular":
        rows = g[first]
        positive = None if law.full_support else np.isfinite(law.log_wrapped(period))[first]
    else:  # output lo + t collects s = t and s = period - t (once at t = 0 and t = q - 1)
        second = np.mod(-j[None, :] - res[:, None], period)
        inner = (j > 0) & (j < q - 1)
        rows = np.where(inner, g[first] + g[second], g[first])
        positive = None
        if not law.full_support:
            fin = np.isfinite(law.log_wrapped(period))
            positive = np.where(inner, fin[first] | fin[second], fin[first])
    return rows, positive, index.ravel().astype(np.intp)


def additive_rows(
    answers: Any,
    outputs: Any,
    law: NoiseLaw,
    *,
    form: Form = "clamped",
) -> np.ndarray:
    r"""The (N, q) rows of the additive mechanism :math:`a_i + \eta` in a finite ``form``.

    The one routine behind every additive family (:mod:`rainbowdp.noise`) and the bundled
    examples: shift the noise law to each true answer, then truncate, clamp, fold or wrap it
    onto the outputs (module notes). Vectorised: one evaluation of the law per distinct noise
    value, and a few passes over the (N, q) result.

    Parameters
    ----------
    answers : array_like of int, shape (N,)
        True answers :math:`a_i` (integers of at most :math:`2^{52}` in absolute value).
    outputs : sequence of int
        The consecutive integers lo..hi, in any order (the column order of the result).
    law : NoiseLaw
        The noise law (:class:`GeometricLaw`, :class:`StaircaseLaw`,
        :class:`DiscreteGaussianLaw`, :class:`TableLaw` or a subclass of :class:`NoiseLaw`).
    form : {"truncated", "clamped", "folded", "modular"}, default "clamped"

    Returns
    -------
    numpy.ndarray
        float64 array of shape (N, q); each row sums to 1 within about :math:`10 q 2^{-53}`.

    Raises
    ------
    ParameterError
        If an answer is not an integer, the outputs are not consecutive integers, ``form`` is
        unknown, or a truncated row would have no mass.
    ParameterTypeError
        If ``law`` is not a :class:`NoiseLaw`.

    Entries positive in the exact law but below :data:`FLOOR` are stored as :data:`FLOOR`
    (module notes: this keeps a pure ε-DP law ε-DP in float64).

    Notes
    -----
    Truncated: :math:`P_a(v) = \exp(\ell_a(v) - m_a) / \sum_w \exp(\ell_a(w) - m_a)` with
    :math:`\ell_a(v) = \log f(v - a)` and :math:`m_a = \max_v \ell_a(v)`. Clamped:
    :math:`P_a = \exp` of the exact log-probabilities (ends from the log-tails). Folded and
    modular: with :math:`g_c = \Pr[\eta \equiv c \pmod P]` (:meth:`NoiseLaw.log_wrapped`),
    the row of residue :math:`r = (a - lo) \bmod P` is :math:`g_{(j - r) \bmod q}` (modular,
    P = q) or :math:`g_{(t - r) \bmod P} + g_{(-t - r) \bmod P}` (folded, P = 2(q − 1), one term
    at t = 0 and t = q − 1).

    References
    ----------
    Kadam et al., "Optimum noise mechanism for differentially private queries in discrete finite
    sets", Cybersecurity (2024): modulo addition, eq. (4); clamping, eqs. (55)–(56).

    Examples
    --------
    >>> rows = additive_rows([0, 1, 2], range(3), GeometricLaw(0.5), form="clamped")
    >>> (rows * 6).round(12).tolist()
    [[4.0, 1.0, 1.0], [2.0, 2.0, 2.0], [1.0, 1.0, 4.0]]
    >>> additive_rows([5], range(3), GeometricLaw(0.5), form="modular").round(6).tolist()
    [[0.285714, 0.285714, 0.428571]]
    """
    a = integer_answers(answers)
    lo, q, perm = contiguous_outputs(outputs)
    if not isinstance(law, NoiseLaw):
        raise ParameterTypeError(
            f"`law` must be a NoiseLaw (e.g. GeometricLaw(0.5)), got law={law!r}."
        )
    form = check_form(form)
    increasing = a.size < 2 or bool(np.all(a[1:] > a[:-1]))
    if increasing:
        ua, inverse = a, None
    else:
        ua, inverse = np.unique(a, return_inverse=True)
        inverse = inverse.ravel()
    if form in ("folded", "modular"):
        table, positive, index = _periodic(law, ua, lo, q, form)
        low = table < FLOOR if positive is None else (table < FLOOR) & positive
        if low.any():
            table = np.where(low, FLOOR, table)
        index = index if inverse is None else index[inverse]
        rows = table[index]
    else:
        build = _truncated if form == "truncated" else _clamped
        rows, positive = build(law, ua, lo, q)
        if isinstance(positive, bool):  # unimodal rows: the smallest entries are at the ends
            small, positive = positive, None
        else:
            small = bool(rows.size and rows.min() < FLOOR)
        if small:
            low = rows < FLOOR
            if positive is not None:
                low &= positive
            rows[low] = FLOOR
        if inverse is not None:
            rows = rows[inverse]
    if perm is not None:
        rows = rows[:, perm]
    return np.ascontiguousarray(rows)
