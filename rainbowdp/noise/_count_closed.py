r"""The closed form of the count-query LP (Sadeghi, Asoodeh, Calmon), with the constraint the
paper omits restored: the law (14), the bounds δ_k (23) and δ_{D+1} (32), the crossovers C_k
(34), δ̃ (Theorem 1), α* (Definition 2) and the optimum in every case (Theorem 3 or the
restored form).

The public names are re-exported by :mod:`rainbowdp.noise.count` (see its notes).

References
----------
.. [1] P. Sadeghi, S. Asoodeh, F. du Pin Calmon, "Differentially private mechanisms for count
   queries", arXiv:2007.09374 (2020).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import check_epsilon, check_int, real_array
from ..exceptions import ParameterError, ParameterTypeError

__all__ = [
    "CASES",
    "MAX_D",
    "ROUND_UP",
    "CountOptimum",
    "alpha_star",
    "check_D",
    "check_alpha",
    "check_eta",
    "crossovers",
    "delta_tilde",
    "lower_bounds",
    "min_delta",
    "optimum",
    "pmf",
    "remark2_bound",
    "round_up",
]

#: The two cases of :func:`optimum`: the printed Theorem 3, or the closed form with the omitted
#: constraint of Proposition 4 restored.
CASES = ("theorem3", "restored")
#: Largest D accepted (the law has 2D + 1 points; the closed forms are O(D)).
MAX_D = 100_000
#: Relative amount by which reported bounds are raised (round-off of the closed forms).
ROUND_UP = 1e-12


# ------------------------------------------------------------------------------------ checks
def check_D(D: Any) -> int:
    return check_int(D, "D", minimum=1, maximum=MAX_D)


def check_eta(eta: Any) -> float:
    if isinstance(eta, bool) or not isinstance(eta, int | float | np.integer | np.floating):
        raise ParameterTypeError(f"`eta` must be a real number, got eta={eta!r}.")
    x = float(eta)
    if not (0.0 < x < 1.0):
        raise ParameterError(f"`eta` must be in (0, 1) (P2), got eta={eta!r}.")
    return x


def round_up(x: float) -> float:
    """x raised by the relative :data:`ROUND_UP` (at least to the smallest positive float)."""
    return max(x * (1.0 + ROUND_UP), 5e-324) if x > 0 else x


def check_alpha(alpha: Any, D: int) -> np.ndarray:
    a = real_array(alpha, "alpha")
    if a.shape != (D,):
        raise ParameterError(f"`alpha` must have shape ({D},) (alpha_1..alpha_D), got {a.shape}.")
    if not np.all(np.isfinite(a)) or a.min() < 0:
        raise ParameterError(f"`alpha` must be finite and >= 0, got alpha={alpha!r}.")
    s = float(a.sum())
    if abs(s - 1.0) > 1e-9:
        raise ParameterError(f"`alpha` must sum to 1 (Proposition 3), got sum {s!r}.")
    return a / s


def pmf(alpha: Any, *, eta: float) -> np.ndarray:
    r"""Proposition 3's data-independent law (14) on :math:`z \in [-D : D]`.

    :math:`p_Z(0) = \eta` and :math:`p_Z(\pm i) = \alpha_i \bar\eta / 2`, D = ``len(alpha)``
    (the paper prints :math:`\alpha_i\eta/2`; (16) and P2 need :math:`\bar\eta`).

    Examples
    --------
    >>> pmf([1.0], eta=0.5).tolist()
    [0.25, 0.5, 0.25]
    """
    e = check_eta(eta)
    a = np.atleast_1d(real_array(alpha, "alpha"))
    a = check_alpha(a, a.size)
    half = a * ((1 - e) / 2)
    return np.concatenate([half[::-1], [e], half])


# ------------------------------------------------------------------------------------ closed form
def _scaled_sums(D: int, eps: float) -> np.ndarray:
    r""":math:`w_j = e^{-j\epsilon}` for j = 0..D (the powers :math:`E^j` divided by the largest
    one needed keep every sum of the closed forms finite for any D and ε)."""
    return np.exp(-eps * np.arange(D + 1))


def crossovers(D: int, *, epsilon: float) -> np.ndarray:
    r"""The crossover values :math:`C_1, \dots, C_D` of (34).

    .. math:: C_k = \frac{\sum_{j=0}^{k} E^j}{\sum_{j=0}^{k-1} E^j (k - j)},\quad E = e^\epsilon.

    Strictly decreasing (Lemma 4). Computed with every power divided by :math:`E^k`.

    Examples
    --------
    >>> [round(float(c), 4) for c in crossovers(6, epsilon=2.18)[1:3]]  # Section III-B, Fig. 1
    [8.1229, 7.8867]
    """
    D = check_D(D)
    eps = check_epsilon(epsilon, finite_exp=True)
    w = _scaled_sums(D, eps)  # w[m] = E^-m; C_k = sum_{m<=k} w_m / sum_{1<=m<=k} m w_m
    m = np.arange(D + 1)
    num = np.cumsum(w)[1:]  # k = 1..D: sum_{m <= k}
    den = np.cumsum(m * w)[1:]  # positive terms only: no cancellation
    return num / den


def lower_bounds(D: int, *, epsilon: float, eta: float) -> np.ndarray:
    r"""The lower bounds :math:`\delta_1, \dots, \delta_{D+1}` on the singleton δ* of (14).

    Type I (Lemma 1, (23)) and Type II (Lemma 2, (32)), with :math:`B = 2/\bar\eta`,
    :math:`C = 2\eta/\bar\eta`:

    .. math::

        \delta_k = \frac{C\sum_{j=0}^{k-1}E^j - E^k}{B\sum_{j=0}^{k-1}E^j(j+1)},\qquad
        \delta_{D+1} = \frac{1}{B\sum_{j=0}^{D-1}E^j(D-j)}.

    Examples
    --------
    >>> round(float(lower_bounds(6, epsilon=2.18, eta=0.8)[2]), 4)   # delta_3, Fig. 1
    0.0049
    """
    D = check_D(D)
    eps = check_epsilon(epsilon, finite_exp=True)
    e = check_eta(eta)
    B, C = 2 / (1 - e), 2 * e / (1 - e)
    w = _scaled_sums(D, eps)
    # divided by E^(k-1): numerator C W_k - E, denominator B S_k, with W_k = sum_{m<k} w_m and
    # S_k = sum_{m<k} w_m (k - m) = W_1 + ... + W_k (sums of positive terms: no cancellation)
    W = np.cumsum(w[:D])
    S = np.cumsum(W)
    out = np.empty(D + 1)
    with np.errstate(over="ignore"):
        out[:D] = (C * W - (math.exp(eps) if eps < 700 else math.inf)) / (B * S)
    m = np.arange(D)  # j = D - 1 - m: sum E^j (D - j) = E^(D-1) sum_m w_m (m + 1)
    out[D] = math.exp(-eps * (D - 1)) / (B * (w[m] * (m + 1)).sum())
    return out


def delta_tilde(D: int, *, epsilon: float, eta: float) -> float:
    r""":math:`\tilde\delta = \max_{k \in [D+1]} \delta_k` (Theorem 1): the printed optimum.

    It is the singleton optimum when the constraint Proposition 4 omits is slack; use
    :func:`min_delta` for the optimum in every case.

    Examples
    --------
    >>> round(delta_tilde(2, epsilon=0.25, eta=0.1), 4)    # errata: below the optimum here
    0.137
    """
    return float(lower_bounds(D, epsilon=epsilon, eta=eta).max())


def _lower_chain(D: int, eps: float, e: float, delta: float) -> np.ndarray:
    r"""The pointwise smallest α at δ: :math:`\ell_1 = (C - B\delta)/E`,
    :math:`\ell_{i+1} = (\ell_i - B\delta)/E`, cut at 0 ((22), (21); Definition 2's (39))."""
    B, C = 2 / (1 - e), 2 * e / (1 - e)
    E = math.exp(eps)
    out = np.zeros(D)
    x = (C - B * delta) / E
    for i in range(D):
        if x <= 0:
            break
        out[i] = x
        x = (x - B * delta) / E
    return out


def _type2(D: int, eps: float, e: float) -> tuple[float, np.ndarray]:
    r"""Lemma 2 with the restored constraint: the least δ at which the largest α sums to 1,
    and that α.

    The largest α the singleton constraints allow at δ is
    :math:`u_i = \min\{B\delta S_{D-i},\ E^i C + B\delta S_{i-1}\}`,
    :math:`S_m = \sum_{j \le m} E^j`: the first term runs up from (17) by (18), the second from
    the restored :math:`\alpha_1 \le EC + B\delta` by the reverse of (18). :math:`\sum_i u_i` is
    concave, piecewise linear and increasing in δ; the root of :math:`\sum_i u_i = 1` is solved
    exactly on the piece that holds it. The unknown is :math:`x = \delta E^{D-1}` (every power
    divided by :math:`E^{D-1}`), so nothing overflows for large Dε.
    """
    B, C = 2 / (1 - e), 2 * e / (1 - e)
    i = np.arange(1, D + 1)
    w = np.exp(-eps * np.arange(D))  # E^-m, m = D - 1 - j
    tail = np.cumsum(w[::-1])[::-1]  # tail[m] = sum_{m' >= m} w[m'], summed small to large
    a = B * tail[i - 1]  # B delta S_{D-i} = x a_i
    b = B * tail[D - i]  # B delta S_{i-1} = x b_i
    with np.errstate(over="ignore"):
        c = np.exp(eps * i) * C  # may be inf: then u_i = a_i x
    gap = a - b
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        brk = np.where(gap > 0, c / np.where(gap > 0, gap, 1.0), np.inf)

    def u(x: float) -> np.ndarray:
        with np.errstate(invalid="ignore"):
            return np.minimum(a * x, c + b * x)

    lo, hi = 0.0, math.inf
    for x in np.unique(brk[np.isfinite(brk)]).tolist():
        if float(u(x).sum()) >= 1.0:
            hi = x
            break
        lo = x
    probe = lo + 1.0 if math.isinf(hi) else 0.5 * (lo + hi)
    first = a * probe <= c + b * probe  # the piece of each u_i on (lo, hi)
    slope = float(np.where(first, a, b).sum())
    icpt = float(np.where(first, 0.0, c).sum())
    x = min(max((1.0 - icpt) / slope, lo), hi)
    return x * math.exp(-eps * (D - 1)), u(x)


@dataclass(frozen=True)
class CountOptimum:
    r"""The singleton-event optimum of the law (14) (:func:`optimum`).

    Attributes
    ----------
    delta : float
        The optimum δ* of the LP (9)–(13) restricted to (14) -- equal to the LP's optimum on
        counts n >= D -- raised by the relative :data:`ROUND_UP`.
    alpha : numpy.ndarray
        α*, shape (D,), summing to 1.
    case : {"theorem3", "restored"}
        ``"theorem3"``: the printed closed form (Theorem 3, Definition 2) is the optimum.
        ``"restored"``: the constraint :math:`\bar\eta\alpha_1/2 \le e^\epsilon\eta + \delta`
        binds; δ* is the restored Type-II bound, above the printed δ̃.
    k : int
        The region of Theorem 2: :math:`C_k < C \le C_{k-1}` (D + 1 for :math:`C \le C_D`).
    printed_delta : float
        δ̃ of Theorem 1 (what the paper reports).
    D, epsilon, eta
        The parameters.
    """

    delta: float
    alpha: np.ndarray
    case: str
    k: int
    printed_delta: float
    D: int
    epsilon: float
    eta: float

    def __repr__(self) -> str:
        return (
            f"CountOptimum(D={self.D}, epsilon={self.epsilon!r}, eta={self.eta!r}: "
            f"delta={self.delta!r}, case={self.case!r}, k={self.k}, alpha of {self.alpha.size} "
            "values)"
        )

    @property
    def dp_bound(self) -> float:
        r"""Remark 2: :math:`\min\{1, (2D+1)\delta^*\}`, an (ε, ·)-DP δ of the mechanism."""
        return min(1.0, round_up((2 * self.D + 1) * self.delta))

    @property
    def pmf(self) -> np.ndarray:
        """The law (14) with α*, on z = -D..D."""
        return pmf(self.alpha, eta=self.eta)

    @property
    def variance(self) -> float:
        r""":math:`\sigma^2 = \bar\eta \sum_i \alpha_i i^2` (Section IV, step 1)."""
        i = np.arange(1, self.D + 1)
        return float((1 - self.eta) * (self.alpha * i * i).sum())


def optimum(D: int, *, epsilon: float, eta: float) -> CountOptimum:
    r"""The singleton-event optimum of the count law (14): δ*, α* and which closed form holds.

    The singleton constraints (7)–(8) between two neighbouring columns of (16) are, with
    :math:`B = 2/\bar\eta`, :math:`C = 2\eta/\bar\eta`, :math:`E = e^\epsilon`: (17)–(19) of
    Proposition 4, the reverse of (18) (:math:`\alpha_{i+1} \le E\alpha_i + B\delta`) and the
    comparison at the mass at 0 that Proposition 4 omits, :math:`\alpha_1 \le EC + B\delta`.
    The smallest α they allow is the chain (39) from (22), the largest the pointwise minimum of
    the chain (37)–(38) from (17) and the chain from the restored constraint; a δ is feasible
    iff the first sums to at most 1 and the second to at least 1. Hence

    .. math:: \delta^* = \max\Big(\max_{k \in [D]} \delta_k,\ \delta_{II}\Big),

    :math:`\delta_{II}` the least δ at which the largest α sums to 1 -- :math:`\delta_{D+1}` of
    (32) when the restored constraint is slack. When :math:`\delta^* = \tilde\delta` the printed
    Theorem 3 holds (``case="theorem3"``); otherwise ``case="restored"`` (errata).

    Parameters
    ----------
    D : int
        Noise support :math:`[-D : D]`, D >= 1.
    epsilon : float
        ε >= 0.
    eta : float
        η in (0, 1): the probability of releasing the true count (P2).

    Returns
    -------
    CountOptimum

    References
    ----------
    Sadeghi, Asoodeh, Calmon (2020): Proposition 4, Lemmas 1–4, Theorems 1–3, Definition 2.

    Examples
    --------
    Fig. 1 (ε = 2.18, η = 0.8, D = 6): δ̃ = δ_3 = 0.0049 and α* supported on [1 : 3].

    >>> opt = optimum(6, epsilon=2.18, eta=0.8)
    >>> opt.case, opt.k, round(opt.delta, 4)
    ('theorem3', 3, 0.0049)
    >>> [round(float(p), 5) for p in opt.pmf[7:9]]     # p_Z(1), p_Z(2)
    [0.08987, 0.0096]

    Small η: the printed δ̃ = 0.1370 is below the optimum (errata).

    >>> opt = optimum(2, epsilon=0.25, eta=0.1)
    >>> opt.case, round(opt.printed_delta, 4), round(opt.delta, 4)
    ('restored', 0.137, 0.1608)
    """
    D = check_D(D)
    eps = check_epsilon(epsilon, finite_exp=True)
    e = check_eta(eta)
    lows = lower_bounds(D, epsilon=eps, eta=e)
    printed = float(lows.max())
    type1 = float(lows[:D].max())
    type2, upper = _type2(D, eps, e)
    C = 2 * e / (1 - e)
    cs = crossovers(D, epsilon=eps)
    k = int(np.searchsorted(-cs, -C, side="right")) + 1  # C_k < C <= C_{k-1}
    delta = max(type1, type2)
    # "theorem3" iff the restored constraint does not raise the printed value
    case = "theorem3" if delta <= printed * (1 + 1e-12) + 1e-300 else "restored"
    if type1 >= type2:
        alpha = _lower_chain(D, eps, e, delta)
    else:
        alpha = upper
    alpha = alpha / alpha.sum()
    return CountOptimum(
        delta=round_up(max(delta, 0.0)) or 5e-324,  # delta* > 0 (footnote 4), even if it underflows
        alpha=alpha,
        case=case,
        k=k,
        printed_delta=printed,
        D=D,
        epsilon=eps,
        eta=e,
    )


def min_delta(D: int, *, epsilon: float, eta: float) -> float:
    r"""The smallest singleton δ of the law (14) at (ε, η), in every case: δ* of :func:`optimum`.

    Examples
    --------
    >>> round(min_delta(2, epsilon=0.25, eta=0.1), 4)   # errata: the printed 0.1370 is low
    0.1608
    """
    return optimum(D, epsilon=epsilon, eta=eta).delta


def alpha_star(D: int, *, epsilon: float, eta: float) -> np.ndarray:
    r"""α* of Definition 2 (with the restored constraint where it binds; :func:`optimum`).

    Examples
    --------
    >>> alpha_star(6, epsilon=2.18, eta=0.8).round(4).tolist()
    [0.8987, 0.096, 0.0053, 0.0, 0.0, 0.0]
    """
    return optimum(D, epsilon=epsilon, eta=eta).alpha


def remark2_bound(D: int, *, epsilon: float, eta: float) -> float:
    r"""Remark 2's DP δ: :math:`\min\{1, (2D+1)\delta^*\}`, raised by :data:`ROUND_UP`.

    Examples
    --------
    >>> round(remark2_bound(6, epsilon=2.18, eta=0.8), 4)
    0.0643
    """
    return optimum(D, epsilon=epsilon, eta=eta).dp_bound
