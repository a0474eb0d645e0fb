r"""Count-query noise (Sadeghi, Asoodeh, Calmon): properties P1–P3, the LP (9)–(13) and its
closed form for counts n >= D, with the constraint the paper omits restored.

A count :math:`n \in [1 : N]` is released as :math:`Y = n + Z` with integer noise Z whose law
:math:`p_Z(\cdot \mid n)` has

P1
    support in :math:`[-A : D]`, :math:`A = \min\{n, D\}`, so :math:`Y \ge 0`;
P2
    :math:`\Pr[Z = 0] = \eta`, the same for every n;
P3
    zero bias, :math:`\mathbb E[Z \mid n] = 0`.

As a rainbow graph (:func:`graph`) the counts are the nodes, :math:`n \sim n \pm 1`, the outputs
are :math:`[0 : N + D]` and node n's rainbow orders the outputs by :math:`|y - n|`.

The P1–P3 laws at n are exactly the convex combinations of Proposition 1's two-point laws
(:func:`two_point`): :math:`p(0) = \eta` and mass :math:`\bar\eta = 1 - \eta` at one negative and
one positive point with zero mean (a vertex of the polytope has at most three non-zeros).
For :math:`n \ge D` Proposition 3's data-independent law (14) (:func:`pmf`) puts
:math:`\alpha_i \bar\eta / 2` at :math:`\pm i` (the paper prints :math:`\eta/2`; errata).

The paper minimises the *singleton* δ -- events of one output, (7)–(8) -- over that law and
solves the LP in closed form (:func:`optimum`): δ_k (23), δ_{D+1} (32), the crossovers C_k (34),
δ̃ (Theorem 1), α* (Definition 2) and Theorem 3. Proposition 4 omits the comparison of the mass
at ±1 with the mass at 0, :math:`\bar\eta\alpha_1/2 \le e^\epsilon\eta + \delta`; when that
constraint binds (small η), the printed δ̃ is below the true optimum. :func:`optimum` returns the
true optimum in every case -- the printed closed form when the constraint is slack
(``case="theorem3"``) and the closed form with the constraint restored otherwise
(``case="restored"``) -- and is checked against the LP (:func:`proposition2_lp`).

The singleton δ is not a DP parameter. Remark 2 bounds the DP δ by :math:`(2D+1)\delta^*`
(:func:`remark2_bound`); the exact DP δ of a mechanism comes from the verifier
(:func:`dp_delta`), and :func:`exact_optimum` designs the law (14) that minimises the exact δ
directly, :func:`max_eta` the largest η for a target (ε, δ).

References
----------
.. [1] P. Sadeghi, S. Asoodeh, F. du Pin Calmon, "Differentially private mechanisms for count
   queries", arXiv:2007.09374 (2020).
"""

from __future__ import annotations

import math
from dataclasses import KW_ONLY, dataclass
from typing import Any, ClassVar, Literal

import numpy as np

from .._validation import check_delta, check_epsilon, check_int, real_array
from ..exceptions import InfeasibleDesignError, ParameterError, ParameterTypeError, SolverError
from ..graph import RainbowGraph, check_graph
from ..mechanism import Mechanism
from ._family import (
    Claim,
    Family,
    integer_answers_of,
    mechanism_from_rows,
    register,
    unit_steps,
)

__all__ = [
    "CASES",
    "MAX_MECHANISM_ENTRIES",
    "Count",
    "CountOptimum",
    "ExactOptimum",
    "LPResult",
    "alpha_star",
    "crossovers",
    "delta_tilde",
    "design_min_delta",
    "dp_delta",
    "exact_optimum",
    "graph",
    "lower_bounds",
    "max_eta",
    "mechanism",
    "optimal_delta",
    "optimum",
    "p1_p3",
    "pmf",
    "proposition2_lp",
    "remark2_bound",
    "rows",
    "singleton_delta",
    "two_point",
]

#: The two cases of :func:`optimum`: the printed Theorem 3, or the closed form with the omitted
#: constraint of Proposition 4 restored.
CASES = ("theorem3", "restored")
#: Largest D accepted (the law has 2D + 1 points; the closed forms are O(D)).
MAX_D = 100_000
#: Relative amount by which reported bounds are raised (round-off of the closed forms).
ROUND_UP = 1e-12

Events = Literal["singleton", "all"]
EVENTS = ("singleton", "all")


# ------------------------------------------------------------------------------------ checks
def _check_D(D: Any) -> int:
    return check_int(D, "D", minimum=1, maximum=MAX_D)


def _check_eta(eta: Any) -> float:
    if isinstance(eta, bool) or not isinstance(eta, int | float | np.integer | np.floating):
        raise ParameterTypeError(f"`eta` must be a real number, got eta={eta!r}.")
    x = float(eta)
    if not (0.0 < x < 1.0):
        raise ParameterError(f"`eta` must be in (0, 1) (P2), got eta={eta!r}.")
    return x


def _check_events(events: Any) -> str:
    if not isinstance(events, str) or events not in EVENTS:
        raise ParameterError(f"`events` must be one of {EVENTS}, got events={events!r}.")
    return events


def _up(x: float) -> float:
    """x raised by the relative :data:`ROUND_UP` (at least to the smallest positive float)."""
    return max(x * (1.0 + ROUND_UP), 5e-324) if x > 0 else x


# ------------------------------------------------------------------------------------ laws
def two_point(n: int, D: int, i1: int, i2: int, *, eta: float) -> np.ndarray:
    r"""Proposition 1's law :math:`p_Z^{(i_1, i_2)}(\cdot \mid n)` on :math:`z \in [-D : D]`.

    Mass η at 0, :math:`\bar\eta\, i_2/(i_2 + |i_1|)` at :math:`i_1 \in [-A : -1]` and
    :math:`\bar\eta\, |i_1|/(i_2 + |i_1|)` at :math:`i_2 \in [1 : D]`: zero mean (P3).

    Returns
    -------
    numpy.ndarray
        Shape (2D + 1,), index z + D.

    Examples
    --------
    >>> two_point(1, 2, -1, 2, eta=0.5).tolist()     # Example 1, (4)
    [0.0, 0.3333333333333333, 0.5, 0.0, 0.16666666666666666]
    """
    D = _check_D(D)
    n = check_int(n, "n", minimum=1)
    A = min(n, D)
    i1 = check_int(i1, "i1", minimum=-A, maximum=-1)
    i2 = check_int(i2, "i2", minimum=1, maximum=D)
    e = _check_eta(eta)
    p = np.zeros(2 * D + 1)
    p[D] = e
    p[D + i1] = (1 - e) * i2 / (i2 - i1)
    p[D + i2] = (1 - e) * (-i1) / (i2 - i1)
    return p


def _check_alpha(alpha: Any, D: int) -> np.ndarray:
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
    e = _check_eta(eta)
    a = np.atleast_1d(real_array(alpha, "alpha"))
    a = _check_alpha(a, a.size)
    half = a * ((1 - e) / 2)
    return np.concatenate([half[::-1], [e], half])


def rows(counts: Any, D: int, alpha: Any, *, eta: float, n_outputs: int) -> np.ndarray:
    r"""The rows :math:`p_Y(\cdot \mid n)` of the count mechanism for integer counts >= 1.

    For :math:`n \ge D` this is (15): the law (14) shifted to n. For :math:`n < D` the pairs
    :math:`\pm i` with :math:`i > n` would put mass below 0; their mass :math:`\alpha_i\bar\eta`
    is put on Proposition 1's two-point law :math:`(i_1, i_2) = (-n, i)` instead, which keeps
    P1–P3 (a convex combination of two-point laws, (3)) and equals (14) for every i <= n.

    Parameters
    ----------
    counts : array_like of int
        True counts, each >= 1 and <= n_outputs - 1 - D.
    D : int
    alpha : array_like, shape (D,)
    eta : float
    n_outputs : int
        Outputs are 0 .. n_outputs - 1.

    Returns
    -------
    numpy.ndarray
        Shape (len(counts), n_outputs).
    """
    D = _check_D(D)
    e = _check_eta(eta)
    a = _check_alpha(alpha, D)
    n = np.asarray(counts, dtype=np.int64).ravel()
    q = check_int(n_outputs, "n_outputs", minimum=1)
    if n.size and (n.min() < 1 or n.max() + D > q - 1):
        raise ParameterError(
            f"`counts` must lie in [1, n_outputs - 1 - D] = [1, {q - 1 - D}], got counts from "
            f"{int(n.min())} to {int(n.max())}."
        )
    P = np.zeros((n.size, q))
    r = np.arange(n.size)
    P[r, n] = e
    eb = 1.0 - e
    for i in range(1, D + 1):
        m = a[i - 1] * eb
        if m == 0.0:
            continue
        inside = n >= i
        P[r[inside], n[inside] - i] += m / 2
        P[r[inside], n[inside] + i] += m / 2
        out = ~inside  # anchored at -n: mass m i/(i+n) at n - n = 0, m n/(i+n) at n + i
        if out.any():
            nn = n[out]
            P[r[out], 0] += m * i / (i + nn)
            P[r[out], nn + i] += m * nn / (i + nn)
    return P


def graph(N: int, D: int, *, n_min: int = 1) -> RainbowGraph:
    r"""The count-query instance: counts :math:`[n_{min} : N]`, outputs :math:`[0 : N + D]`.

    Neighbouring counts differ by one (n ~ n ± 1); node n's rainbow orders the outputs by
    :math:`|y - n|`, ties to the smaller output; its true answer is n. The paper takes
    :math:`n_{min} = 1`: at n = 0, P1 allows no negative noise, so zero bias (P3) forces Z = 0,
    against :math:`\eta < 1` (footnote 2). ``n_min = D`` is the domain of the closed form.

    Examples
    --------
    >>> G = graph(3, 2)            # Example 1: N = 3, D = 2
    >>> list(G.nodes), G.outputs
    ([1, 2, 3], (0, 1, 2, 3, 4, 5))
    >>> G.rainbow(1)
    (1, 0, 2, 3, 4, 5)
    """
    from ..builders import count_path

    D = _check_D(D)
    n_min = check_int(n_min, "n_min", minimum=1)
    N = check_int(N, "N", minimum=n_min + 1, maximum=10**7)
    return count_path(N, outputs=range(N + D + 1), start=n_min)


def _count_graph_params(G: RainbowGraph) -> tuple[np.ndarray, int]:
    """(counts, number of outputs) of a graph with integer counts and outputs 0..q-1."""
    check_graph(G, "G")
    q = G.n_outputs
    if G.outputs != tuple(range(q)):
        raise ParameterError(f"`G` must have the outputs 0..q-1 of a count graph, got {G!r}.")
    return integer_answers_of(G, "count noise"), q


#: Largest number of probabilities (nodes x outputs) :func:`mechanism` builds: 10^8 float64,
#: 0.75 GiB (the dense rows of N = 10^7 would need 728 TiB).
MAX_MECHANISM_ENTRIES = 10**8


def mechanism(
    N: int,
    D: int,
    *,
    eta: float,
    alpha: Any = None,
    epsilon: float | None = None,
    n_min: int = 1,
) -> Mechanism:
    r"""The count mechanism on :func:`graph` (N, D, n_min) with the law (14) (:func:`rows`).

    Give ``alpha`` (α_1..α_D, summing to 1) or ``epsilon`` (then α = :func:`alpha_star`).
    The rows are dense: at most :data:`MAX_MECHANISM_ENTRIES` probabilities, else
    :class:`~rainbowdp.exceptions.ParameterError` before anything is allocated.

    Examples
    --------
    >>> M = mechanism(8, 2, eta=0.5, epsilon=1.0, n_min=2)
    >>> M.probabilities[0, :5].round(4).tolist()
    [0.053, 0.197, 0.5, 0.197, 0.053]
    """
    D = _check_D(D)
    e = _check_eta(eta)
    if (alpha is None) == (epsilon is None):
        raise ParameterError(
            f"give exactly one of `alpha` and `epsilon`, got alpha={alpha!r}, epsilon={epsilon!r}."
        )
    a = alpha_star(D, epsilon=epsilon, eta=e) if alpha is None else _check_alpha(alpha, D)
    n_min = check_int(n_min, "n_min", minimum=1)
    N = check_int(N, "N", minimum=n_min + 1, maximum=10**7)
    entries = (N + 1 - n_min) * (N + D + 1)
    if entries > MAX_MECHANISM_ENTRIES:
        raise ParameterError(
            f"the count mechanism with N={N}, D={D}, n_min={n_min} has {entries:.3g} "
            f"probabilities ({entries * 8 / 2**30:.3g} GiB), more than "
            f"MAX_MECHANISM_ENTRIES = {MAX_MECHANISM_ENTRIES:.0e}: take a smaller `N` (the "
            "closed forms of this module need no mechanism)."
        )
    G = graph(N, D, n_min=n_min)
    return mechanism_from_rows(G, rows(np.asarray(G.nodes), D, a, eta=e, n_outputs=G.n_outputs))


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
    D = _check_D(D)
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
    D = _check_D(D)
    eps = check_epsilon(epsilon, finite_exp=True)
    e = _check_eta(eta)
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
    :func:`optimal_delta` for the optimum in every case.

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
        return min(1.0, _up((2 * self.D + 1) * self.delta))

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
    D = _check_D(D)
    eps = check_epsilon(epsilon, finite_exp=True)
    e = _check_eta(eta)
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
        delta=_up(max(delta, 0.0)) or 5e-324,  # delta* > 0 (footnote 4), even if it underflows
        alpha=alpha,
        case=case,
        k=k,
        printed_delta=printed,
        D=D,
        epsilon=eps,
        eta=e,
    )


def optimal_delta(D: int, *, epsilon: float, eta: float) -> float:
    r"""The singleton optimum δ* of the law (14) in every case (:func:`optimum`).

    Examples
    --------
    >>> round(optimal_delta(2, epsilon=0.25, eta=0.1), 4)   # errata: the printed 0.1370 is low
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


# ------------------------------------------------------------------------------------ exact DP
def singleton_delta(M: Mechanism, *, epsilon: float) -> float:
    r"""The singleton δ of a mechanism: :math:`\max_{d \sim d',\, y} P_d(y) - e^\epsilon P_{d'}(y)`
    over both orders of every edge (the paper's (7)–(8), events of one output; Remark 1).

    Not a DP parameter (Remark 2); rounded up: e^ε is taken one ulp low, each difference is
    raised by :math:`2^{-50}(P_d(y) + e^\epsilon P_{d'}(y))` (a bound on its float round-off) and
    the result by the relative :data:`ROUND_UP`.

    Examples
    --------
    >>> M = mechanism(12, 6, eta=0.8, epsilon=2.18, n_min=6)
    >>> round(singleton_delta(M, epsilon=2.18), 4)       # = delta_3 of Fig. 1
    0.0049
    """
    from .._verify.kernels import CHUNK_ELEMENTS

    if not isinstance(M, Mechanism):
        raise ParameterTypeError(f"`M` must be a Mechanism, got M={M!r}.")
    eps = check_epsilon(epsilon, finite_exp=True)
    x = math.nextafter(math.exp(eps), 0.0)
    P = M.probabilities
    e = M.graph.edges
    best = 0.0
    step = max(1, CHUNK_ELEMENTS // max(1, P.shape[1]))
    for s in range(0, e.shape[0], step):
        a, b = e[s : s + step, 0], e[s : s + step, 1]
        pairs = ((a, b),) if M.graph.directed else ((a, b), (b, a))
        for u, v in pairs:
            xv = x * P[v]
            diff = (P[u] - xv) + 2.0**-50 * (P[u] + xv)
            best = max(best, float(diff.max(initial=0.0)))
    return _up(best)


def dp_delta(M: Mechanism, *, epsilon: float) -> float:
    r"""The exact (ε, δ)-DP δ of a mechanism: the verifier's hockey-stick maximum, rounded up.

    Examples
    --------
    >>> M = mechanism(12, 6, eta=0.8, epsilon=2.18, n_min=6)
    >>> round(dp_delta(M, epsilon=2.18), 4), round(remark2_bound(6, epsilon=2.18, eta=0.8), 4)
    (0.0154, 0.0643)
    """
    from ..privacy import privacy_profile

    if not isinstance(M, Mechanism):
        raise ParameterTypeError(f"`M` must be a Mechanism, got M={M!r}.")
    return float(privacy_profile(M, [check_epsilon(epsilon)])[0])


def law_dp_delta(alpha: Any, *, eta: float, epsilon: float) -> float:
    r"""The exact DP δ of the law (14) on counts >= D: every edge of :func:`graph` with
    n_min = D is a translate of (D, D + 1), so it is the verifier's δ on that one edge.

    Examples
    --------
    >>> a = alpha_star(6, epsilon=2.18, eta=0.8)
    >>> round(law_dp_delta(a, eta=0.8, epsilon=2.18), 4)
    0.0154
    """
    a = np.atleast_1d(real_array(alpha, "alpha"))
    D = _check_D(a.size)
    e = _check_eta(eta)
    a = _check_alpha(a, D)
    G = graph(D + 1, D, n_min=D)
    M = mechanism_from_rows(G, rows(np.asarray(G.nodes), D, a, eta=e, n_outputs=G.n_outputs))
    return dp_delta(M, epsilon=epsilon)


# ------------------------------------------------------------------------------------ LPs
@dataclass(frozen=True)
class LPResult:
    r"""The optimum of an LP of this module (:func:`proposition2_lp`).

    Attributes
    ----------
    delta : float
        The LP's optimal δ (the solver's value; not a certified DP parameter).
    mechanism : Mechanism
        The optimal mechanism on :func:`graph` (N, D, n_min) (P1–P3 hold).
    n_variables, n_constraints, nnz : int
        Size of the LP.
    seconds : float
        Solver time.
    """

    delta: float
    mechanism: Mechanism
    n_variables: int
    n_constraints: int
    nnz: int
    seconds: float


def _linprog(c: Any, A_ub: Any, b_ub: Any, A_eq: Any, b_eq: Any, bounds: Any, what: str) -> Any:
    """HiGHS at tolerances 1e-10; at HiGHS's defaults (1e-7) if that stalls."""
    from scipy.optimize import linprog

    for tol in (1e-10, None):
        opts = (
            {}
            if tol is None
            else {"primal_feasibility_tolerance": tol, "dual_feasibility_tolerance": tol}
        )
        res = linprog(
            c,
            A_ub=A_ub,
            b_ub=b_ub,
            A_eq=A_eq,
            b_eq=b_eq,
            bounds=bounds,
            method="highs",
            options=opts,
        )
        if res.status in (0, 2):
            break
    if res.status == 2:
        raise InfeasibleDesignError(f"{what} is infeasible: {res.message}")
    if res.status != 0:  # pragma: no cover - iteration limit or numerical trouble
        raise SolverError(f"{what} failed: {res.message}")
    return res


def proposition2_lp(N: int, D: int, *, epsilon: float, eta: float, n_min: int = 1) -> LPResult:
    r"""Proposition 2's LP (9)–(13), as printed: the singleton δ* over the data-dependent noise (3).

    Variables :math:`\alpha_{i_1, i_2, n} \ge 0` for :math:`n \in [n_{min} : N]`,
    :math:`i_1 \in [-A : -1]`, :math:`i_2 \in [1 : D]` (:math:`A = \min\{n, D\}`), summing to 1
    per n (13), and δ; minimise δ subject to (10)–(11) for every output y. It has about
    :math:`ND^2` variables and :math:`8ND^2` non-zeros; it is built as sparse arrays and solved by
    HiGHS (``scipy.optimize.linprog``).

    On counts :math:`[D : N]` (``n_min = D``) with :math:`N - D \ge 2D` its optimum is the closed
    form :func:`optimal_delta`: the data-independent law (14) is then optimal among the
    data-dependent ones too. Shorter ranges allow less (two counts can even reach δ = 0), and
    counts below D raise it (``docs/noise/count.md``).

    Examples
    --------
    >>> res = proposition2_lp(12, 6, epsilon=2.18, eta=0.8, n_min=6)
    >>> round(res.delta, 4)
    0.0049
    """
    import time

    from scipy.sparse import coo_array

    D = _check_D(D)
    n_min = check_int(n_min, "n_min", minimum=1)
    N = check_int(N, "N", minimum=n_min + 1, maximum=10**6)
    eps = check_epsilon(epsilon, finite_exp=True)
    e = _check_eta(eta)
    E = math.exp(eps)
    eb = 1.0 - e
    counts = np.arange(n_min, N + 1)
    K = counts.size
    q = N + D + 1
    # the alphas of count n: i1 in [-A, -1] (rows), i2 in [1, D] (columns), flattened
    A_of = np.minimum(counts, D)
    start = np.concatenate([[0], np.cumsum(A_of * D)])
    n_alpha = int(start[-1])
    dvar = n_alpha
    # p_Y(y | n) as a sparse (K * q) x n_alpha map plus the constant eta at y = n
    r_list, c_list, v_list = [], [], []
    for k in range(K):
        A, n = int(A_of[k]), int(counts[k])
        i1 = -np.arange(1, A + 1)[:, None]  # (A, 1)
        i2 = np.arange(1, D + 1)[None, :]  # (1, D)
        ids = start[k] + np.arange(A * D).reshape(A, D)
        w_neg = eb * i2 / (i2 - i1)  # mass at i1
        w_pos = eb * (-i1) / (i2 - i1)  # mass at i2
        r_list += [k * q + (n + i1 + 0 * i2).ravel(), k * q + (n + i2 + 0 * i1).ravel()]
        c_list += [ids.ravel(), ids.ravel()]
        v_list += [w_neg.ravel(), w_pos.ravel()]
    Pmap = coo_array(
        (np.concatenate(v_list), (np.concatenate(r_list), np.concatenate(c_list))),
        shape=(K * q, n_alpha),
    ).tocsr()
    const = np.zeros(K * q)
    const[np.arange(K) * q + counts] = e
    # singleton rows for both orders of every edge: p(y|a) - E p(y|b) - delta <= 0, y in the
    # support of p(.|a) (elsewhere the row is -E p(y|b) - delta <= 0, always met)
    blocks, rhs = [], []
    for ka, kb in ((np.arange(K - 1), np.arange(1, K)), (np.arange(1, K), np.arange(K - 1))):
        lo = np.maximum(counts[ka] - D, 0)
        hi = counts[ka] + D
        ys = [np.arange(l_, h_ + 1) for l_, h_ in zip(lo.tolist(), hi.tolist(), strict=True)]
        ya = np.concatenate([ka[j] * q + ys[j] for j in range(ka.size)])
        yb = np.concatenate([kb[j] * q + ys[j] for j in range(ka.size)])
        blocks.append(Pmap[ya] - E * Pmap[yb])
        rhs.append(E * const[yb] - const[ya])
    from scipy.sparse import hstack, vstack

    Aub = vstack(blocks).tocsr()
    Aub = hstack([Aub, coo_array(-np.ones((Aub.shape[0], 1)))]).tocsc()
    b_ub = np.concatenate(rhs)
    eq_rows = np.repeat(np.arange(K), A_of * D)
    Aeq = coo_array(
        (np.ones(n_alpha), (eq_rows, np.arange(n_alpha))), shape=(K, n_alpha + 1)
    ).tocsc()
    c = np.zeros(n_alpha + 1)
    c[dvar] = 1.0
    t0 = time.perf_counter()
    res = _linprog(c, Aub, b_ub, Aeq, np.ones(K), (0, None), "the LP (9)-(13)")
    seconds = time.perf_counter() - t0
    alpha = np.maximum(res.x[:n_alpha], 0.0)
    P = (Pmap @ alpha).reshape(K, q) + const.reshape(K, q)
    P /= P.sum(axis=1, keepdims=True)
    G = graph(N, D, n_min=n_min)
    return LPResult(
        delta=float(res.x[dvar]),
        mechanism=Mechanism(G, P),
        n_variables=n_alpha + 1,
        n_constraints=Aub.shape[0] + K,
        nnz=int(Aub.nnz + Aeq.nnz),
        seconds=seconds,
    )


def _law_lp(
    D: int, E: float, *, eta: float | None, delta: float | None, events: str
) -> tuple[float, float, np.ndarray]:
    r"""The law (14) in the variables :math:`\beta_i = \alpha_i\bar\eta/2 \ge 0` and η
    (:math:`\eta + 2\sum_i\beta_i = 1`): one edge (n, n + 1) and its reverse, which is the same
    by symmetry. With ``eta`` given minimise δ; with ``delta`` given maximise η.

    Returns (eta, delta, alpha).
    """
    # p(z) for z = -D..D as a linear map of (beta_1..beta_D, eta): index z + D
    nz = 2 * D + 1
    Pm = np.zeros((nz, D + 1))
    for i in range(1, D + 1):
        Pm[D + i, i - 1] = Pm[D - i, i - 1] = 1.0
    Pm[D, D] = 1.0
    # outputs relative to n: y = -D .. D + 1; p(y | n) = p(y), p(y | n + 1) = p(y - 1)
    Pa = np.zeros((nz + 1, D + 1))
    Pb = np.zeros((nz + 1, D + 1))
    Pa[:nz] = Pm
    Pb[1:] = Pm
    diff = Pa - E * Pb  # (2D + 2, D + 1)
    ny = diff.shape[0]
    nv = D + 1 + (ny if events == "all" else 0) + 1  # beta, eta, [t], delta
    di = nv - 1
    rows_, rhs_ = [], []
    if events == "all":  # t_y >= diff_y . v, sum t <= delta
        for y in range(ny):
            r = np.zeros(nv)
            r[: D + 1] = diff[y]
            r[D + 1 + y] = -1.0
            rows_.append(r)
            rhs_.append(0.0)
        r = np.zeros(nv)
        r[D + 1 : D + 1 + ny] = 1.0
        r[di] = -1.0
        rows_.append(r)
        rhs_.append(0.0)
    else:
        for y in range(ny):
            r = np.zeros(nv)
            r[: D + 1] = diff[y]
            r[di] = -1.0
            rows_.append(r)
            rhs_.append(0.0)
    Aeq = np.zeros((1, nv))
    Aeq[0, :D] = 2.0
    Aeq[0, D] = 1.0
    beq = [1.0]
    bounds = [(0, None)] * nv
    c = np.zeros(nv)
    if eta is not None:
        bounds[D] = (eta, eta)
        c[di] = 1.0
    else:
        bounds[D] = (0.0, 1.0)
        bounds[di] = (delta, delta)
        c[D] = -1.0
    res = _linprog(c, np.array(rows_), np.array(rhs_), Aeq, beq, bounds, "the law's LP")
    beta = np.maximum(res.x[:D], 0.0)
    e = float(res.x[D])
    alpha = beta / beta.sum() if beta.sum() > 0 else np.full(D, 1.0 / D)
    return e, float(res.x[di]), alpha


@dataclass(frozen=True)
class ExactOptimum:
    r"""The law (14) with the smallest exact DP δ (:func:`exact_optimum`).

    Attributes
    ----------
    alpha : numpy.ndarray
        The optimal α, shape (D,).
    delta : float
        Its exact (ε, δ)-DP δ from the verifier (rounded up): a DP guarantee.
    lp_delta : float
        The LP's optimum (the solver's value, for comparison).
    D, epsilon, eta
        The parameters.
    """

    alpha: np.ndarray
    delta: float
    lp_delta: float
    D: int
    epsilon: float
    eta: float

    def __repr__(self) -> str:
        return (
            f"ExactOptimum(D={self.D}, epsilon={self.epsilon!r}, eta={self.eta!r}: "
            f"delta={self.delta!r}, lp_delta={self.lp_delta!r}, alpha of {self.alpha.size} "
            "values)"
        )


def exact_optimum(D: int, *, epsilon: float, eta: float) -> ExactOptimum:
    r"""The law (14) that minimises the exact (ε, δ)-DP δ (hockey-stick), by LP.

    Beyond the paper, which minimises the singleton δ and bounds the DP δ by Remark 2. With
    :math:`\beta_i = \alpha_i\bar\eta/2` the hockey-stick divergence of two neighbouring columns
    of (16), :math:`\sum_y (p(y) - e^\epsilon p(y - 1))_+`, is linear in (β, t) with the usual
    slack variables t; both orders of an edge give the same value by symmetry of (14). The
    returned δ is the verifier's, on the optimal law (:func:`law_dp_delta`).

    Examples
    --------
    >>> opt = exact_optimum(6, epsilon=2.18, eta=0.8)
    >>> round(opt.delta, 4) <= round(law_dp_delta(alpha_star(6, epsilon=2.18, eta=0.8),
    ...                                            eta=0.8, epsilon=2.18), 4)
    True
    """
    D = _check_D(D)
    eps = check_epsilon(epsilon, finite_exp=True)
    e = _check_eta(eta)
    _, lp_d, alpha = _law_lp(D, math.exp(eps), eta=e, delta=None, events="all")
    return ExactOptimum(
        alpha=alpha,
        delta=law_dp_delta(alpha, eta=e, epsilon=eps),
        lp_delta=lp_d,
        D=D,
        epsilon=eps,
        eta=e,
    )


def max_eta(D: int, *, epsilon: float, delta: float, events: Events = "all") -> float:
    r"""The largest η for which a law (14) meets δ at ε, by LP in (β, η).

    ``events="all"``: the exact DP δ; ``"singleton"``: the paper's singleton δ (the inverse of
    :func:`optimal_delta` in η). The LP value is reduced by a relative 1e-9 (safe direction: a
    smaller η is more private) -- check a design with :func:`law_dp_delta`.

    Examples
    --------
    Section IV: D = 8 gives (1.1, 1e-3)-DP with η = 0.5, at the knee of Fig. 3.

    >>> round(max_eta(8, epsilon=1.1, delta=1e-3), 4)
    0.501
    """
    D = _check_D(D)
    eps = check_epsilon(epsilon, finite_exp=True)
    dlt = check_delta(delta)
    ev = _check_events(events)
    e, _, _ = _law_lp(D, math.exp(eps), eta=None, delta=dlt, events=ev)
    return max(0.0, min(1.0, e * (1 - 1e-9)))


# ------------------------------------------------------------------------------------ family
@register
@dataclass(frozen=True)
class Count(Family):
    r"""Count-query noise with P1–P3 (Sadeghi, Asoodeh, Calmon) as a family.

    The mechanism on a count graph (integer counts >= 1, outputs 0..q-1 with q - 1 >= largest
    count + D) has the rows :func:`rows` with α = :func:`alpha_star` (D, ε, η): the singleton
    optimum of Theorem 3 (restored where it fails) for counts >= D, the anchored law for
    smaller counts.

    Parameters
    ----------
    D : int
        Noise support [-D : D].
    epsilon : float
        The ε of the design (ε >= 0).
    eta : float
        Probability of the true count, in (0, 1).

    Notes
    -----
    The nominal guarantee is Remark 2's: the mechanism (16) is
    :math:`(\epsilon, \min\{1, (2D+1)\delta^*\})`-DP, and (δ*, ε)-DP in no stronger sense. As a
    profile claim it states δ only at ε and above (1 below). :meth:`holds_on` is True on graphs
    whose counts are all >= D and whose neighbours differ by at most one (the domain of
    Section III); below D the anchored rows are not covered by the claim (None). The exact δ is
    the verifier's (:func:`dp_delta`): on the paper's settings it is several times smaller than
    the bound (``docs/noise/count.md``).

    References
    ----------
    P. Sadeghi, S. Asoodeh, F. du Pin Calmon, "Differentially private mechanisms for count
    queries" (2020): P1–P3, Propositions 1–3, Theorem 3, Remark 2.

    Examples
    --------
    >>> fam = Count(6, epsilon=2.18, eta=0.8)
    >>> G = fam.graph(10)
    >>> G.nodes[0], G.n_outputs, fam.holds_on(G)
    (6, 23, True)
    >>> round(fam.optimum().delta, 4)
    0.0049
    """

    name: ClassVar[str] = "count"
    summary: ClassVar[str] = (
        "zero-bias count noise with P(true count) = eta on [-D, D], Theorem 3 (Sadeghi et al. 2020)"
    )

    D: int
    _: KW_ONLY
    epsilon: float
    eta: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "D", _check_D(self.D))
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, finite_exp=True))
        object.__setattr__(self, "eta", _check_eta(self.eta))

    def optimum(self) -> CountOptimum:  # type: ignore[override]
        """The closed-form singleton optimum (:func:`optimum`)."""
        return optimum(self.D, epsilon=self.epsilon, eta=self.eta)

    def graph(self, n: int) -> RainbowGraph:
        """The closed form's domain: counts D .. D + n (n >= 1), outputs 0 .. 2D + n."""
        n = check_int(n, "n", minimum=1, maximum=2000)
        return graph(self.D + n, self.D, n_min=self.D)

    def mechanism(self, G: RainbowGraph) -> Mechanism:
        counts, q = _count_graph_params(G)
        if counts.size and (counts.min() < 1 or counts.max() + self.D > q - 1):
            raise ParameterError(
                f"`G` must have counts in [1, q - 1 - D] = [1, {q - 1 - self.D}] for D={self.D}, "
                f"got counts from {int(counts.min())} to {int(counts.max())}."
            )
        P = rows(counts, self.D, self.optimum().alpha, eta=self.eta, n_outputs=q)
        return mechanism_from_rows(G, P)

    def nominal(self) -> Claim:
        eps = self.epsilon
        bound = self.optimum().dp_bound
        return Claim(
            math.inf,
            f"Sadeghi et al. (2020), Theorem 3 and Remark 2: ({eps:g}, {bound:.6g})-DP",
            profile=lambda e: bound if e >= eps else 1.0,
            tolerance=2.0**-44,
        )

    def holds_on(self, G: RainbowGraph) -> bool | None:
        counts, q = _count_graph_params(G)
        if counts.size == 0 or counts.min() < self.D or counts.max() + self.D > q - 1:
            return None
        return True if unit_steps(G, counts) else None

    @classmethod
    def examples(cls) -> list[tuple[Family, RainbowGraph]]:
        return [
            (cls(6, epsilon=2.18, eta=0.8), graph(14, 6, n_min=6)),  # Fig. 1
            (cls(2, epsilon=0.25, eta=0.1), graph(8, 2, n_min=2)),  # errata: restored case
            (cls(8, epsilon=1.1, eta=0.5), graph(20, 8, n_min=8)),  # Section IV
            (cls(3, epsilon=1.0, eta=0.5), graph(10, 3)),  # counts from 1: anchored rows
        ]


def p1_p3(G: RainbowGraph, D: int, *, eta: float) -> list:
    r"""P1–P3 on a count graph as side constraints of the general designers
    (:mod:`rainbowdp.design`): support :math:`[n - \min\{n, D\} : n + D]`,
    :math:`P(Y = n) = \eta` and zero bias.

    Examples
    --------
    >>> [con.name for con in p1_p3(graph(5, 2), 2, eta=0.5)]
    ['support', 'answer_probability(eta=0.5)', 'zero_bias']
    """
    from .. import design

    D = _check_D(D)
    e = _check_eta(eta)
    counts, _ = _count_graph_params(G)
    return [
        design.support(G, np.minimum(counts, D), D),
        design.answer_probability(G, e),
        design.zero_bias(G),
    ]


def design_min_delta(
    N: int, D: int, *, epsilon: float, eta: float, events: Events = "all", n_min: int = 1
) -> Any:
    r"""The data-dependent P1–P3 mechanism on :func:`graph` (N, D, n_min) with the smallest δ,
    by the general designer :func:`rainbowdp.design.min_delta` with :func:`p1_p3`.

    ``events="singleton"`` is the LP (9)–(13) in the probabilities instead of the α's (the
    P1–P3 laws at n are exactly the convex hull of Proposition 1's two-point laws);
    ``events="all"`` minimises the exact (ε, δ)-DP δ, beyond the paper. The result's
    ``achieved_delta`` is the verifier's exact δ of the returned mechanism.

    Examples
    --------
    >>> res = design_min_delta(12, 2, epsilon=1.0, eta=0.5, n_min=2)
    >>> res.achieved_delta <= law_dp_delta(alpha_star(2, epsilon=1.0, eta=0.5), eta=0.5,
    ...                                    epsilon=1.0)
    True
    """
    from .. import design

    ev = _check_events(events)
    G = graph(N, D, n_min=n_min)
    return design.min_delta(G, epsilon=epsilon, events=ev, constraints=p1_p3(G, D, eta=eta))
