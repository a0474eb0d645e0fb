r"""Quantised lookup sampling (Sadeghi & Chien, §4): the scaled and quantised CDF of a noise PMF.

A cell key is an integer in :math:`[0, K)`, :math:`K` = KEYSIZE. The noise PMF on
:math:`[-D, D]` is turned into a lookup table of :math:`2D + 1` integers (4.1)–(4.2),

.. math::

    c^Q(z) = \lceil c(z)\, K \rceil, \qquad c(z) = \Pr[Z \le z],

and a key k is mapped to the z with :math:`c^Q(z - 1) \le k < c^Q(z)` (4.3) (:func:`lookup`). The
PMF actually applied is :math:`p^Q(z) = (c^Q(z) - c^Q(z - 1)) / K` (4.5) (:func:`quantised_pmf`).

:func:`post_sampling` gives the paper's post-sampling measures (§4.2): bias (4.6), variance
(4.7), :math:`\epsilon^Q` (4.8)–(4.10) and :math:`\delta^Q` (4.11), and, beyond the paper, the
exact (ε, δ)-DP profile of the count mechanism with noise :math:`p^Q`
(:meth:`PostSampling.exact_delta`, :meth:`PostSampling.exact_epsilon`).
:func:`check_quantisation` warns (:class:`KeysizeWarning`) or raises
(:class:`QuantisationError`) when KEYSIZE is too small: a noise value gets no key (§4.1, step
5), or :math:`\epsilon^Q` exceeds the design ε (§4.3).

References
----------
.. [1] P. Sadeghi, C.-H. Chien, "On the connection between the ABS perturbation methodology and
   differential privacy" (2023), Section 4.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from .._validation import check_delta, check_epsilon, check_int, real_array
from .._verify.exact import enclose_exp, float_at_least
from ..builders import count_path
from ..exceptions import ParameterError, ParameterTypeError
from ..mechanism import Mechanism
from ..privacy import epsilon_for_delta, hockey_stick
from ._display import html_table, num, require_pandas, up

__all__ = [
    "EXACT_KEYSIZE",
    "KEYSIZES",
    "MAX_KEYSIZE",
    "KeysizeWarning",
    "PostSampling",
    "QuantisationError",
    "check_key_grid",
    "check_keysize",
    "check_quantisation",
    "lookup",
    "post_sampling",
    "quantised_cdf",
    "quantised_pmf",
]

#: The key sizes the paper studies (§4.3).
KEYSIZES = (2**8, 2**16, 2**32)
#: Largest KEYSIZE accepted: thresholds and keys are stored as int64 / uint64.
MAX_KEYSIZE = 2**62
#: Rows must sum to 1 within this before they are quantised.
_SUM_TOL = 1e-9


def check_keysize(keysize: Any, name: str = "keysize") -> int:
    """Check a KEYSIZE: an integer power of two in [2, 2^62].

    Examples
    --------
    >>> check_keysize(2**16)
    65536
    """
    k = check_int(keysize, name, minimum=2, maximum=MAX_KEYSIZE)
    if k & (k - 1):
        raise ParameterError(f"`{name}` must be a power of two, got {name}={keysize!r}.")
    return k


def check_key_grid(keysize: Any, name: str = "keysize") -> int:
    """Check the size K of a key grid: any integer in [2, 2^62].

    A grid of K keys: the integer keys 0..K-1 (K a power of two for the ABS and ONS keys), or
    the decimal keys k / K with K = 10^d, d digits (the R package ``cellKey`` draws record keys
    with 5 to 20 digits, 8 by default: ``ck_generate_rkeys(nr_digits = 8)``).

    Examples
    --------
    >>> check_key_grid(10**5)
    100000
    """
    return check_int(keysize, name, minimum=2, maximum=MAX_KEYSIZE)


def _ceil_scaled(c: np.ndarray, K: int) -> np.ndarray:
    r"""The exact :math:`\lceil c K \rceil` of float64 values c in [0, 1], as int64.

    For K a power of two the float product is exact. Otherwise it is rounded (by at most half
    an ulp), which can move the ceiling only where c K lies within an ulp of an integer: those
    entries are recomputed in rational arithmetic (:class:`fractions.Fraction` of the float c).
    """
    x = c * K
    cq = np.ceil(x)
    if K & (K - 1):
        near = np.flatnonzero(np.abs(x - np.rint(x)) <= 2.0 * np.spacing(np.maximum(x, 1.0)))
        flat_c, flat_q = c.ravel(), cq.ravel()
        for u in near.tolist():
            flat_q[u] = math.ceil(Fraction(float(flat_c[u])) * K)
        cq = flat_q.reshape(c.shape)
    return cq.astype(np.int64)


#: Decimals to which the bounds of a decimal key grid are rounded (:func:`decimal_bounds`).
BOUND_DIGITS = 12


def decimal_bounds(rows: np.ndarray) -> np.ndarray:
    r"""The interval bounds of a decimal key grid, as exact integers :math:`u_j \cdot 10^{12}`.

    Each row's running sums rounded to :data:`BOUND_DIGITS` decimals (so that a file's bounds,
    written with at most 12 digits, come back exactly), and exactly 1 from the row's last
    positive entry on: the bounds ``cellKey`` compares its decimal keys with
    (``p_int_lb <= key < p_int_ub``).

    Examples
    --------
    >>> decimal_bounds(np.array([[0.1, 0.2, 0.7, 0.0]])).tolist()
    [[100000000000, 300000000000, 1000000000000, 1000000000000]]
    """
    p = np.asarray(rows, dtype=np.float64)
    one = 10**BOUND_DIGITS
    ub = np.rint(np.cumsum(p, axis=1) * float(one)).astype(np.int64)
    last = p.shape[1] - 1 - np.argmax((p > 0)[:, ::-1], axis=1)
    ub[np.arange(p.shape[1])[None, :] >= last[:, None]] = one
    return np.minimum(ub, one)


def _power_of_ten(K: int) -> int | None:
    """d where K = 10^d (d >= 1), else None."""
    d = len(str(K)) - 1
    return d if d >= 1 and 10**d == K else None


def quantised_cdf(pmf: Any, keysize: int) -> np.ndarray:
    r"""The scaled and quantised CDF :math:`c^Q(z) = \lceil c(z) \cdot K \rceil` (4.1)–(4.2).

    The CDF is accumulated in float64 from the first entry upwards (``numpy.cumsum``) and its
    last entry is set to exactly K (errata: Example 2's printed values need both).

    Parameters
    ----------
    pmf : array_like, shape (m,) or (r, m)
        One noise PMF, or one per row (a perturbation table), in increasing noise order. Each
        row must be non-negative and sum to 1 within 1e-9.
    keysize : int
        K, the number of keys: a power of two for integer keys, or any K >= 2, e.g.
        :math:`10^d` for decimal keys with d digits (:func:`check_key_grid`).

    Returns
    -------
    numpy.ndarray of int64, same shape as ``pmf``
        Non-decreasing along the last axis, last entry K. Key k maps to entry
        ``searchsorted(cq, k, side="right")``.

    Raises
    ------
    ParameterError
        If a row is negative, not finite or does not sum to 1, or ``keysize`` is not an
        integer in [2, 2^62].

    Notes
    -----
    :math:`\lceil c K \rceil` is exact (in rational arithmetic where K is not a power of two).
    It is also the number of keys of a decimal grid below a bound: the keys :math:`k / K` with
    :math:`k / K < c` are :math:`k = 0, \dots, \lceil cK \rceil - 1`. So the decimal rule
    of the R package ``cellKey`` (a cell key picks the first entry whose upper bound exceeds
    it, :math:`\mathrm{lb} \le \mathrm{key} < \mathrm{ub}`, in ``lookup_freq`` of its
    ``.ck_perturb_cnts``) applies exactly this table on the grid :math:`K = 10^d`, with the
    bounds c the row's cumulative sums.

    References
    ----------
    Sadeghi & Chien, eqs. (4.1)–(4.2); Example 2.

    Examples
    --------
    >>> quantised_cdf([0.25, 0.5, 0.25], 2**8).tolist()
    [64, 192, 256]
    >>> quantised_cdf([[0.1, 0.9], [1.0, 0.0]], 16).tolist()
    [[2, 16], [16, 16]]
    """
    K = check_key_grid(keysize)
    p = real_array(pmf, "pmf")
    if p.ndim not in (1, 2) or p.shape[-1] == 0:
        raise ParameterError(
            f"`pmf` must be a non-empty vector or matrix of probabilities, got shape {p.shape}."
        )
    rows = p.reshape(-1, p.shape[-1])
    bad = ~np.isfinite(rows) | (rows < 0)
    if bad.any():
        r, j = np.argwhere(bad)[0]
        raise ParameterError(
            f"`pmf` must be finite and non-negative, got {float(rows[r, j])!r} in row {int(r)}, "
            f"entry {int(j)}."
        )
    sums = rows.sum(axis=1)
    off = np.abs(sums - 1.0) > _SUM_TOL
    if off.any():
        r = int(np.argmax(off))
        raise ParameterError(f"`pmf` rows must sum to 1, got sum {float(sums[r])!r} in row {r}.")
    d = _power_of_ten(K)
    if d is not None:  # a decimal grid: cellKey's bounds, scaled exactly in integers
        ub = decimal_bounds(rows)
        if d <= BOUND_DIGITS:
            cq = -((-ub) // 10 ** (BOUND_DIGITS - d))
        else:  # d <= 18 (K <= 2^62): fits in int64
            cq = ub * 10 ** (d - BOUND_DIGITS)
    else:
        cq = _ceil_scaled(np.minimum(np.cumsum(rows, axis=1), 1.0), K)
    cq[:, -1] = K
    np.maximum.accumulate(cq, axis=1, out=cq)  # monotone even where a later sum rounds down
    return cq.reshape(p.shape)


# ---------------------------------------------------------------------------------- tables
#: Largest |low| accepted by :func:`lookup` and :func:`post_sampling` (noise values are int64).
MAX_LOW = 2**62
#: Largest KEYSIZE for which p^Q = (integer) / KEYSIZE is stored exactly in float64, which the
#: exact privacy profile (:meth:`PostSampling.exact_delta`) needs.
EXACT_KEYSIZE = 2**53
#: Relative amount by which ε^Q is raised before it is proved (soundness rule).
ROUND_UP = 1e-12
#: At most this many lost noise values are listed in a warning.
_SHOWN_LOST = 12
ERRORS = ("warn", "raise", "ignore")


class KeysizeWarning(UserWarning):
    """KEYSIZE is too small for the noise law: support is lost, or ε^Q exceeds the design ε."""


class QuantisationError(ParameterError):
    """Raised instead of :class:`KeysizeWarning` by ``check_quantisation(..., errors="raise")``."""


def _int_array(value: Any, name: str) -> np.ndarray:
    """``value`` as an int64 array; integers only (no floats, no booleans), within int64."""
    raw = np.asarray(value)
    kind = raw.dtype.kind
    if kind == "O":  # Python integers beyond the int64 range, or a mixture of types
        items = raw.ravel().tolist()
        bad = next((k for k, x in enumerate(items) if not isinstance(x, int | np.integer)), None)
        if bad is None:
            bad = next((k for k, x in enumerate(items) if isinstance(x, bool)), None)
        if bad is not None:
            raise ParameterTypeError(
                f"`{name}` must hold integers, got {items[bad]!r} at flat index {bad}."
            )
        big = next((k for k, x in enumerate(items) if not -(2**63) <= x < 2**63), None)
        if big is not None:
            raise ParameterError(
                f"`{name}` must hold integers within the int64 range, got {items[big]!r} at "
                f"flat index {big}."
            )
        return np.array(items, dtype=np.int64).reshape(raw.shape)
    if kind not in "iu":
        raise ParameterTypeError(
            f"`{name}` must be an array of integers, got dtype {raw.dtype} ({name}={_short(raw)})."
        )
    if kind == "u" and raw.size and int(raw.max()) >= 2**63:
        big = int(np.argmax(raw.ravel() >= 2**63))
        raise ParameterError(
            f"`{name}` must hold integers within the int64 range, got {int(raw.ravel()[big])} at "
            f"flat index {big}."
        )
    return raw.astype(np.int64, copy=False)


def _short_tuple(values: tuple[int, ...], limit: int = 6) -> str:
    """At most ``limit`` values, then how many more."""
    shown = ", ".join(str(v) for v in values[:limit])
    more = len(values) - limit
    return shown + (f" and {more} more" if more > 0 else "")


def _short(a: np.ndarray) -> str:
    text = np.array2string(np.asarray(a), threshold=8, edgeitems=3)
    return text if len(text) <= 80 else text[:77] + "..."


def _check_table(cq: Any, keysize: int | None, *, matrix: bool = False) -> tuple[np.ndarray, int]:
    """A quantised CDF as int64 (rows non-decreasing from >= 0 to KEYSIZE) and its KEYSIZE."""
    c = _int_array(cq, "cq")
    ndims = (1, 2) if matrix else (1,)
    if c.ndim not in ndims or c.shape[-1] == 0:
        what = "a non-empty vector or matrix of rows" if matrix else "a non-empty vector"
        raise ParameterError(f"`cq` must be {what} (a quantised CDF), got shape {c.shape}.")
    rows = c.reshape(-1, c.shape[-1])
    last = rows[:, -1]
    if keysize is None:
        K = int(last[0])
        if K < 2 or K > MAX_KEYSIZE or K & (K - 1):
            raise ParameterError(
                f"`cq` must end with KEYSIZE, a power of two in [2, 2^62], got cq[-1]={K}."
            )
    else:
        K = check_keysize(keysize)
    off = last != K
    if off.any():
        r = int(np.argmax(off))
        where = f" in row {r}" if c.ndim == 2 else ""
        raise ParameterError(
            f"`cq` must end with KEYSIZE={K} (c^Q(D) = KEYSIZE, (4.2)), got last entry "
            f"{int(last[r])}{where}."
        )
    neg = rows[:, 0] < 0
    if neg.any():
        r = int(np.argmax(neg))
        raise ParameterError(f"`cq` must be >= 0, got {int(rows[r, 0])} in row {r}, entry 0.")
    drop = np.diff(rows, axis=1) < 0
    if drop.any():
        r, j = (int(x) for x in np.argwhere(drop)[0])
        raise ParameterError(
            f"`cq` must be non-decreasing, got {int(rows[r, j])} then {int(rows[r, j + 1])} in "
            f"row {r}, entries {j} and {j + 1}."
        )
    return c, K


def _counts(c: np.ndarray) -> np.ndarray:
    """Keys per noise value: :math:`c^Q(z) - c^Q(z - 1)`, with :math:`c^Q(-D - 1) = 0`."""
    return np.diff(c, axis=-1, prepend=np.zeros((*c.shape[:-1], 1), dtype=np.int64))


def _check_low(low: Any, m: int) -> int:
    if low is None:
        return -((m - 1) // 2)
    return check_int(low, "low", minimum=-MAX_LOW, maximum=MAX_LOW)


def quantised_pmf(cq: Any, keysize: int) -> np.ndarray:
    r"""The PMF the lookup actually samples, :math:`p^Q(z) = (c^Q(z) - c^Q(z-1))/K` (4.5).

    Parameters
    ----------
    cq : array_like of int, shape (m,) or (r, m)
        A quantised CDF (:func:`quantised_cdf`): each row non-decreasing, from >= 0 to K.
    keysize : int
        K, a power of two; the last entry of every row.

    Returns
    -------
    numpy.ndarray of float64, same shape as ``cq``
        The key counts divided by K: exact for K <= 2^53 (dyadic rationals); for larger K each
        count is rounded to the nearest float64 first.

    Raises
    ------
    ParameterError
        If ``cq`` is not a valid table for ``keysize``.
    ParameterTypeError
        If ``cq`` does not hold integers.

    References
    ----------
    Sadeghi & Chien, eq. (4.5); Example 3.

    Examples
    --------
    >>> quantised_pmf([64, 192, 256], 256).tolist()
    [0.25, 0.5, 0.25]
    >>> quantised_pmf([[2, 16], [16, 16]], 16).tolist()
    [[0.125, 0.875], [1.0, 0.0]]
    """
    c, K = _check_table(cq, keysize, matrix=True)
    return _counts(c) / K


def lookup(cq: Any, keys: Any, *, low: int) -> Any:
    r"""Noise values for cell keys by the lookup rule (4.3).

    Key k in :math:`[0, K)` maps to the noise value :math:`z` with
    :math:`c^Q(z - 1) \le k < c^Q(z)` (:math:`c^Q(\text{low} - 1) := 0`), i.e. entry
    ``i = searchsorted(cq, k, side="right")`` and noise ``low + i``. A uniform key therefore
    gives noise with law :math:`p^Q` (:func:`quantised_pmf`); noise values whose CDF entry
    equals the previous one get no key.

    Parameters
    ----------
    cq : array_like of int, shape (m,)
        A quantised CDF (:func:`quantised_cdf`); its last entry is K, a power of two.
    keys : int or array_like of int
        Cell keys, each an integer in :math:`[0, K)`. Any shape; vectorised (one binary search
        over the m entries per key).
    low : int
        The noise value of the first entry (-D for the support [-D, D]).

    Returns
    -------
    numpy.ndarray of int64 (shape of ``keys``), or numpy.int64 for a scalar key

    Raises
    ------
    ParameterError
        If a key is outside :math:`[0, K)` (the first bad key is named), or ``cq`` is not a
        valid table.
    ParameterTypeError
        If ``keys`` or ``cq`` are not integers.

    References
    ----------
    Sadeghi & Chien, Section 4.1, eq. (4.3) and Example 2.

    Examples
    --------
    >>> cq = [64, 192, 256]                       # p = (1/4, 1/2, 1/4) at K = 2^8
    >>> lookup(cq, [0, 63, 64, 191, 192, 255], low=-1).tolist()
    [-1, -1, 0, 0, 1, 1]
    >>> int(lookup(cq, 100, low=-1))
    0
    """
    c, K = _check_table(cq, None)
    lo = _check_low(low, c.size)
    if lo + c.size - 1 > MAX_LOW:
        raise ParameterError(
            f"`low` + len(cq) - 1 must be <= 2^62, got low={low!r} with len(cq)={c.size}."
        )
    k = _int_array(keys, "keys")
    flat = k.ravel()
    bad = (flat < 0) | (flat >= K)
    if bad.any():
        j = int(np.argmax(bad))
        idx = list(np.unravel_index(j, k.shape)) if k.ndim else []
        raise ParameterError(
            f"`keys` must be integers in [0, KEYSIZE) = [0, {K}), got key {int(flat[j])} at "
            f"index {[int(x) for x in idx]}."
        )
    out = np.searchsorted(c, flat, side="right").astype(np.int64)
    out += lo
    out = out.reshape(k.shape)
    return out[()] if k.ndim == 0 else out


# ---------------------------------------------------------------------------------- measures
def log_up(x: Fraction) -> float:
    r"""A float ε >= ln x, proved: :math:`e^\epsilon \ge L \ge x` for the rational lower
    bound L of :func:`rainbowdp._verify.exact.enclose_exp`; raised by :data:`ROUND_UP` first."""
    if x <= 1:
        return 0.0
    e = math.log1p(float(x - 1))  # float(Fraction) is correctly rounded
    e = math.nextafter(e * (1.0 + ROUND_UP), math.inf)
    while enclose_exp(e).lo < x:  # pragma: no cover - the raise exceeds log1p's error
        e = math.nextafter(e * (1.0 + ROUND_UP), math.inf)
    return e


def _largest_ratio(counts: np.ndarray) -> Fraction:
    """The exact max over adjacent entries of max(a, b) / min(a, b) (all counts positive)."""
    if counts.size < 2:
        return Fraction(1)
    a, b = counts[1:], counts[:-1]
    hi, lo = np.maximum(a, b), np.minimum(a, b)
    est = np.log(hi.astype(np.float64)) - np.log(lo.astype(np.float64))
    near = np.flatnonzero(est >= est.max() - 1e-9)  # float estimates, then exact among those
    return max(Fraction(int(hi[i]), int(lo[i])) for i in near)


@dataclass(frozen=True, eq=False)
class PostSampling:
    r"""Utility and privacy of the noise law the lookup actually samples (§4.2).

    Built by :func:`post_sampling`. The noise values are ``low .. low + m - 1`` (the support
    [-D, D] for the default ``low``).

    Attributes
    ----------
    pmf : numpy.ndarray of float64
        :math:`p^Q` (4.5), read-only.
    bias : float
        :math:`B^Q = \sum_z z\,p^Q(z)` (4.6), computed exactly and rounded to nearest.
    variance : float
        :math:`V^Q = \sum_z z^2 p^Q(z) - (B^Q)^2` (4.7), computed exactly and rounded to
        nearest.
    epsilon : float
        :math:`\epsilon^Q` (4.8)–(4.10): the largest :math:`|\ln p^Q(z) - \ln p^Q(z-1)|` over
        adjacent noise values, rounded up (relative 1e-12 and proved against rational bounds
        on :math:`e^\epsilon`); ``inf`` if a noise value gets no key.
    delta : float
        :math:`\delta^Q = \max\{p^Q(-D), p^Q(D)\}` (4.11), rounded up (exact for K <= 2^53).
    full_support : bool
        Every noise value gets at least one key.
    lost : tuple of int
        The noise values that get no key (increasing).
    keysize : int
        K.
    low : int
        The noise value of the first entry.
    cq : numpy.ndarray of int64
        The quantised CDF, read-only.
    design_epsilon : float or None
        The ε the law was designed for, if given (for :attr:`exceeds_design`).

    Notes
    -----
    :math:`(\epsilon^Q, \delta^Q)` is the paper's post-sampling pair. For the additive mechanism
    :math:`Y = n + Z`, :math:`Z \sim p^Q`, on neighbouring counts n and n + 1 its exact DP
    profile is

    .. math::

        \delta(\epsilon) = \max\{H_{e^\epsilon}(P_n \| P_{n+1}),\ H_{e^\epsilon}(P_{n+1} \| P_n)\},
        \qquad P_n(y) = p^Q(y - n),

    in both orders, since :math:`p^Q` is not symmetric (:meth:`exact_delta`,
    :meth:`exact_epsilon`). For :math:`\epsilon \ge \epsilon^Q` only the outputs beyond the
    other count's support contribute, so :math:`\delta(\epsilon^Q) = \delta^Q`: the paper's
    pair is a valid and tight DP pair when the support is full. When a noise value is lost,
    the outputs next to the gap have infinite privacy loss and :math:`\delta(\epsilon)` exceeds
    :math:`\delta^Q` for every finite ε.
    """

    pmf: np.ndarray
    bias: float
    variance: float
    epsilon: float
    delta: float
    full_support: bool
    lost: tuple[int, ...]
    keysize: int
    low: int
    cq: np.ndarray
    design_epsilon: float | None = None

    def _summary(self) -> list[tuple[str, str]]:
        rows = [
            ("keysize", f"2^{self.keysize.bit_length() - 1}"),
            ("noise values", f"{self.low}..{self.low + self.pmf.size - 1}"),
            ("epsilon^Q", up(self.epsilon)),
            ("delta^Q", up(self.delta)),
            ("bias^Q", num(self.bias)),
            ("variance^Q", num(self.variance)),
            ("full support", "yes" if self.full_support else f"no: lost {_short_tuple(self.lost)}"),
        ]
        if self.design_epsilon is not None:
            rows.append(("design epsilon", num(self.design_epsilon)))
        return rows

    def __repr__(self) -> str:
        return (
            f"PostSampling(keysize=2^{self.keysize.bit_length() - 1}, noise "
            f"{self.low}..{self.low + self.pmf.size - 1}, epsilon={up(self.epsilon)}, "
            f"delta={up(self.delta)}, full_support={self.full_support})"
        )

    def __str__(self) -> str:
        s = dict(self._summary())
        text = (
            f"quantised noise law at KEYSIZE {s['keysize']}, noise values {s['noise values']}\n"
            f"  epsilon^Q = {s['epsilon^Q']}, delta^Q = {s['delta^Q']} (4.8)-(4.11); full "
            f"support: {s['full support']}\n"
            f"  bias^Q = {s['bias^Q']}, variance^Q = {s['variance^Q']}"
        )
        if self.exceeds_design:
            text += f"\n  epsilon^Q exceeds the design epsilon {s['design epsilon']}"
        return text

    def _repr_html_(self) -> str:
        return html_table("post-sampling measures", self._summary())

    def to_pandas(self) -> Any:
        """The quantised law as a DataFrame: columns ``noise``, ``pmf`` (:math:`p^Q`) and
        ``cq`` (:math:`c^Q`)."""
        pd = require_pandas("PostSampling")
        return pd.DataFrame({"noise": self.support, "pmf": self.pmf, "cq": self.cq})

    @property
    def support(self) -> np.ndarray:
        """The noise values ``low .. low + m - 1``."""
        return np.arange(self.low, self.low + self.pmf.size, dtype=np.int64)

    @property
    def exceeds_design(self) -> bool:
        """ε^Q > the design ε (``False`` when no design ε was given)."""
        return self.design_epsilon is not None and self.epsilon > self.design_epsilon

    def _exact_rows(self, what: str) -> tuple[np.ndarray, np.ndarray]:
        if self.keysize > EXACT_KEYSIZE:
            raise ParameterError(
                f"`{what}` needs KEYSIZE <= 2^53 (p^Q stored exactly in float64), got "
                f"keysize={self.keysize}."
            )
        z = np.zeros(1)
        return np.concatenate([self.pmf, z]), np.concatenate([z, self.pmf])

    def exact_delta(self, epsilon: float) -> float:
        r"""The exact DP δ at ε of the additive mechanism with noise :math:`p^Q` on
        neighbouring counts (both orders), rounded up.

        :math:`\max\{H_{e^\epsilon}(P_n\|P_{n+1}), H_{e^\epsilon}(P_{n+1}\|P_n)\}` by
        :func:`rainbowdp.hockey_stick` (see the class Notes).

        Raises
        ------
        ParameterError
            If ε is not a finite number >= 0, or KEYSIZE > 2^53.

        Examples
        --------
        >>> ps = post_sampling([64, 192, 256], 256)
        >>> ps.exact_delta(ps.epsilon) == ps.delta == 0.25
        True
        >>> ps.exact_delta(0.0)
        0.5
        """
        eps = check_epsilon(epsilon)
        p, q = self._exact_rows("exact_delta")
        return max(hockey_stick(p, q, eps), hockey_stick(q, p, eps))

    def exact_epsilon(self, delta: float) -> float:
        r"""The smallest ε at which the additive mechanism with noise :math:`p^Q` is (ε, δ)-DP
        on neighbouring counts, rounded up and proved (``inf`` if none).

        :func:`rainbowdp.epsilon_for_delta` on the two-count path (counts 0 and 1, rows
        :math:`P_0, P_1`).

        Raises
        ------
        ParameterError
            If δ is not in [0, 1], or KEYSIZE > 2^53.

        Examples
        --------
        >>> ps = post_sampling([64, 192, 256], 256)
        >>> e = ps.exact_epsilon(0.25)                 # ln 2, rounded up
        >>> 0 <= e - math.log(2) < 1e-12, e <= ps.epsilon
        (True, True)
        >>> ps.exact_epsilon(0.1)
        inf
        """
        d = check_delta(delta)
        p, q = self._exact_rows("exact_epsilon")
        G = count_path(1, outputs=range(p.size))
        return float(epsilon_for_delta(Mechanism(G, np.stack([p, q])), d))


def post_sampling(
    cq: Any, keysize: int, *, low: int | None = None, epsilon: float | None = None
) -> PostSampling:
    r"""The post-sampling measures :math:`p^Q, B^Q, V^Q, \epsilon^Q, \delta^Q` (§4.2).

    Parameters
    ----------
    cq : array_like of int, shape (m,)
        A quantised CDF (:func:`quantised_cdf`) ending with K.
    keysize : int
        K, a power of two.
    low : int, optional
        The noise value of the first entry; default :math:`-\lfloor (m-1)/2 \rfloor`, i.e. the
        support [-D, D] for m = 2D + 1.
    epsilon : float, optional
        The design ε, kept for comparison (:attr:`PostSampling.exceeds_design`).

    Returns
    -------
    PostSampling

    Raises
    ------
    ParameterError
        If ``cq`` is not a valid table for ``keysize``, or ``low`` / ``epsilon`` are out of
        range.
    ParameterTypeError
        If ``cq`` does not hold integers.

    Notes
    -----
    With key counts :math:`n_z = c^Q(z) - c^Q(z-1)`, :math:`B^Q = \sum_z z n_z / K` and
    :math:`V^Q = (K\sum_z z^2 n_z - (\sum_z z n_z)^2)/K^2` are computed in integers and rounded
    once. :math:`\epsilon^Q = \max_z |\ln(n_z / n_{z-1})|` over adjacent noise values, the
    maximum of (4.8) and (4.9), taken exactly among the float candidates and rounded up;
    ``inf`` if some :math:`n_z = 0` (then (4.9) or (4.8) has a zero denominator).
    :math:`\delta^Q = \max(n_{-D}, n_D)/K` (4.11).

    For a symmetric law with no :math:`c(z)K` an integer, :math:`c^Q(z) + c^Q(-z-1) = K + 1`
    for z < 0, so :math:`B^Q = -D/K` exactly, whatever the law (§4.3's biases).

    References
    ----------
    Sadeghi & Chien, Section 4.2, eqs. (4.5)–(4.11); Example 3.

    Examples
    --------
    >>> ps = post_sampling([64, 192, 256], 256)
    >>> ps.pmf.tolist(), ps.bias, ps.variance, ps.delta
    ([0.25, 0.5, 0.25], 0.0, 0.5, 0.25)
    >>> round(ps.epsilon, 12), ps.full_support
    (0.693147180560, True)
    >>> post_sampling([1, 1, 256], 256, epsilon=1.0).lost
    (0,)
    """
    c, K = _check_table(cq, keysize)
    lo = _check_low(low, c.size)
    eps = None if epsilon is None else check_epsilon(epsilon)
    n = _counts(c)
    zs = range(lo, lo + c.size)
    counts = [int(x) for x in n.tolist()]
    s1 = sum(z * x for z, x in zip(zs, counts, strict=True))
    s2 = sum(z * z * x for z, x in zip(zs, counts, strict=True))
    lost_idx = np.flatnonzero(n == 0)
    full = lost_idx.size == 0
    eps_q = log_up(_largest_ratio(n)) if full else math.inf
    pmf = n / K
    pmf.setflags(write=False)
    table = c.copy()
    table.setflags(write=False)
    return PostSampling(
        pmf=pmf,
        bias=float(Fraction(s1, K)),
        variance=float(Fraction(s2 * K - s1 * s1, K * K)),
        epsilon=eps_q,
        delta=float_at_least(Fraction(max(counts[0], counts[-1]), K)),
        full_support=bool(full),
        lost=tuple(lo + int(i) for i in lost_idx),
        keysize=K,
        low=lo,
        cq=table,
        design_epsilon=eps,
    )


def _shown_values(values: tuple[int, ...]) -> str:
    if len(values) <= _SHOWN_LOST:
        return "[" + ", ".join(map(str, values)) + "]"
    head = ", ".join(map(str, values[: _SHOWN_LOST - 1]))
    return f"[{head}, ..., {values[-1]}] ({len(values)} values)"


def check_quantisation(
    pmf: Any,
    keysize: int,
    *,
    epsilon: float | None = None,
    errors: str = "warn",
    low: int | None = None,
) -> PostSampling:
    r"""Quantise a noise PMF for KEYSIZE and warn (or raise) if KEYSIZE is too small.

    Two problems are reported, naming KEYSIZE:

    * **lost support**: consecutive :math:`c^Q` entries are equal, so some noise values get
      no key (§4.1, step 5) -- then :math:`\epsilon^Q = \infty`;
    * **ε^Q above the design ε** (only with ``epsilon``, and only with full support):
      quantisation weakened the guarantee the law was designed for (§4.3, Fig. 4).

    Parameters
    ----------
    pmf : array_like, shape (m,)
        The noise PMF in increasing noise order (sums to 1).
    keysize : int
        K, a power of two.
    epsilon : float, optional
        The design ε.
    errors : {"warn", "raise", "ignore"}, default "warn"
        Issue a :class:`KeysizeWarning`, raise :class:`QuantisationError`, or neither.
    low : int, optional
        The noise value of the first entry (default: support [-D, D]).

    Returns
    -------
    PostSampling
        :func:`post_sampling` of :func:`quantised_cdf` (pmf, keysize).

    Raises
    ------
    QuantisationError
        With ``errors="raise"``, if a problem is found (also a ParameterError / ValueError).
    ParameterError
        If an argument is invalid.

    References
    ----------
    Sadeghi & Chien, Section 4.1 step (5), Section 4.3; Examples 2 and 3.

    Examples
    --------
    >>> check_quantisation([0.25, 0.5, 0.25], 2**8).full_support
    True
    >>> try:
    ...     check_quantisation([0.001, 0.998, 0.001], 2**8, errors="raise")
    ... except QuantisationError as exc:
    ...     print(exc)
    KEYSIZE=256 loses support: noise values [1] get no key;
    use a larger `keysize`.
    """
    if not isinstance(errors, str) or errors not in ERRORS:
        raise ParameterError(f"`errors` must be one of {ERRORS}, got errors={errors!r}.")
    K = check_keysize(keysize)
    eps = None if epsilon is None else check_epsilon(epsilon)
    p = real_array(pmf, "pmf")
    if p.ndim != 1:
        raise ParameterError(f"`pmf` must be a vector (one noise law), got shape {p.shape}.")
    ps = post_sampling(quantised_cdf(p, K), K, low=low, epsilon=eps)
    if not ps.full_support:
        msg = (
            f"KEYSIZE={K} loses support: noise values {_shown_values(ps.lost)} get no key; use a "
            "larger `keysize`."
        )
    elif ps.exceeds_design:
        msg = (
            f"KEYSIZE={K} raises epsilon: the quantised noise has epsilon^Q={ps.epsilon!r} > "
            f"the design epsilon={eps!r}; use a larger `keysize`."
        )
    else:
        return ps
    if errors == "raise":
        raise QuantisationError(msg)
    if errors == "warn":
        warnings.warn(msg, KeysizeWarning, stacklevel=2)
    return ps
