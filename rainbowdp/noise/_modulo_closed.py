r"""Closed forms of modulo-addition noise (Kadam et al.): Lemmas 3–4, Theorems 2–3 (rebuilt),
Corollaries 1–2 and the asymptotic error rate (44)–(48).

Re-exported by :mod:`rainbowdp.noise.modulo`, whose optimisers (:func:`~rainbowdp.noise.modulo.
optimal_pmf`, :func:`~rainbowdp.noise.modulo.min_delta_pmf`) check them in the tests.

References
----------
.. [1] N. Kadam, A. Scaglione, N. Ravi, S. Peisert, B. Lunghino, A. Shumavon, "Optimum noise
   mechanism for differentially private queries in discrete finite sets", Cybersecurity (2024).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._validation import check_delta, check_epsilon, check_int
from ..exceptions import ParameterError, ParameterTypeError
from ._family import SAFETY_MARGIN, build_epsilon

__all__ = [
    "MAX_BD_SETS",
    "asymptotic_error_rate",
    "bd_min_delta",
    "bd_pmf",
    "check_n",
    "positive_epsilon",
    "sd_min_delta",
    "sd_pmf",
]


def check_n(n: Any) -> int:
    return check_int(n, "n", minimum=1, maximum=10**6)


def positive_epsilon(value: Any) -> float:
    """ε > 0 with e^ε finite: the closed forms assume ε > 0 (at ε = 0 every mass is equal)."""
    eps = check_epsilon(value, finite_exp=True)
    if eps <= 0:
        raise ParameterError(f"`epsilon` must be > 0 for the closed forms, got epsilon={value!r}.")
    return eps


def _sd_sorted(m: int, eps: float, dlt: float) -> np.ndarray:
    r"""Sorted optimal masses :math:`f_{(0)} \ge \dots \ge f_{(m)}` of the SD problem on a cycle
    of m + 1 values (Lemma 3 for δ = 0, Theorem 2 for δ > 0; see :func:`sd_pmf`).

    Every power of :math:`e^\epsilon` is written with a non-positive exponent (the breakpoints
    and comparisons in log space), so no intermediate overflows for any finite ε, m and δ:
    :math:`\underline\delta_k e^{(m-k-h)\epsilon} = e^{-h\epsilon}(1 - e^{-\epsilon}) /
    (1 - e^{-(m-k+1)\epsilon})` and :math:`e^{(m-h)\epsilon}(e^\epsilon - 1)/(e^{k\epsilon} - 1)
    = e^{(m-h+1-k)\epsilon}(1 - e^{-\epsilon})/(1 - e^{-k\epsilon})`, where h > m − k.
    """
    h = np.arange(m + 1, dtype=np.float64)
    one = math.log(-math.expm1(-eps))  # log(1 - e^-eps)

    def log_low(k: int) -> float:  # log of the lower breakpoint of flat region k, (19c)
        return -(m - k) * eps + one - math.log(-math.expm1(-(m - k + 1) * eps))

    def flat(k: int) -> np.ndarray:  # (20): the chain of m - k + 1 masses ending at low(k)
        c = one - math.log(-math.expm1(-(m - k + 1) * eps))
        return np.where(h <= m - k, np.exp(c - h * eps), 0.0)

    if dlt >= 1.0:
        return flat(m)
    log_d = math.log(dlt) if dlt > 0 else -math.inf
    # region k: linear on (x low(k-1), low(k)], flat on [low(k), x low(k)]; flat 0 is [0, x low(0)]
    if log_d <= eps + log_low(0):
        return flat(0)
    for k in range(1, m + 1):
        lk = log_low(k)
        if log_d <= lk:  # linear region k, (21)
            head = np.exp(log_d + (m - k - h) * eps)  # at most low(k) e^{(m-k)eps} <= 1
            rest = -math.expm1(log_d - lk)  # 1 - delta / low(k)
            scale = one - math.log(-math.expm1(-k * eps))
            # exponents clipped at 0 where h <= m - k (entries not used there)
            tail = rest * np.exp(np.minimum(m - h + 1 - k, 0.0) * eps + scale)
            return np.where(h <= m - k, head, tail)
        if k == m or log_d <= eps + lk:  # flat region k
            return flat(k)
    return flat(m)  # pragma: no cover - the loop returns


def sd_pmf(n: int, *, epsilon: float, delta: float = 0.0, mu: int) -> np.ndarray:
    r"""The optimal error-rate PMF for the single-distance neighbourhood :math:`\{\hat\mu\}`.

    Paper reading (eq. (7), shift +μ̂). With :math:`N = (n+1)/\gcd(n+1, \hat\mu)` the values
    :math:`h\hat\mu \bmod (n+1)`, h = 0..N − 1, carry the sorted masses
    :math:`f_{(0)} \ge \dots \ge f_{(N-1)}` and every other value has mass 0 (Lemma 3,
    Case 2). On that cycle of N values (Remark 3 with n replaced by N − 1; erratum 9 in
    ``docs/errata.md``: the paper says N):

    * δ = 0 (Lemma 3): :math:`f_{(k)} = e^{-k\epsilon} f_{(0)}`,
      :math:`f_{(0)} = (1 - e^{-\epsilon})/(1 - e^{-N\epsilon})` ((17), (18));
    * δ > 0 (Theorem 2, rebuilt from its proof): with m = N − 1 and
      :math:`\underline\delta_k = e^{-(m-k)\epsilon}(1 - e^{-\epsilon})/(1 - e^{-(m-k+1)\epsilon})`
      (19c), in the flat region :math:`\underline\delta_k \le \delta \le e^\epsilon
      \underline\delta_k` the chain :math:`f_{(h)} = \underline\delta_k e^{(m-k-h)\epsilon}`,
      h <= m − k, and 0 beyond (20); in the linear region :math:`e^\epsilon
      \underline\delta_{k-1} < \delta \le \underline\delta_k`,
      :math:`f_{(h)} = \delta e^{(m-k-h)\epsilon}` for h <= m − k and
      :math:`f_{(h)} = (1 - \delta/\underline\delta_k)\, e^{(m-h)\epsilon}
      (e^\epsilon - 1)/(e^{k\epsilon} - 1)` for h > m − k (21). The smallest non-zero mass of
      the head is the one leaking mass.

    The masses are those of the optimum at :math:`\epsilon_b = \epsilon - \min(\epsilon/2,
    2^{-40}\max(1, \epsilon))` and :math:`\delta_b = \delta - \min(\delta/2, 2^{-40})`, a hair
    inside the request (:func:`~rainbowdp.noise.build_epsilon`): the closed form's equalities
    :math:`f_{(h)} = e^\epsilon f_{(h+1)}` would otherwise be float ties that the exact leakage
    counts as leaks. So the PMF passes :func:`~rainbowdp.noise.modulo.pdp_delta` at (ε, δ) in
    the paper reading.

    Examples
    --------
    >>> f = sd_pmf(8, epsilon=1.0, mu=3)       # gcd(9, 3) = 3: values 0, 3, 6 only
    >>> np.flatnonzero(f).tolist()
    [0, 3, 6]
    """
    n = check_n(n)
    eps = positive_epsilon(epsilon)
    dlt = check_delta(delta)
    mu = check_int(mu, "mu", minimum=1, maximum=n)
    size = n + 1
    cycle = size // math.gcd(size, mu)
    masses = _sd_sorted(cycle - 1, build_epsilon(eps), dlt - min(dlt / 2, SAFETY_MARGIN))
    f = np.zeros(size)
    f[(np.arange(cycle) * mu) % size] = masses
    return f


#: Largest number of shortening sets :func:`bd_pmf` searches for δ > 0 (Theorem 3): 2^(b-1),
#: b = n // μ̄. Under Theorem 3's hypothesis b + r < μ̄, b < sqrt(n + 1), so n up to about 480.
MAX_BD_SETS = 2**21


def _bd_shortenings(b: int, eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Every shortening set :math:`S \subseteq \{2, \dots, b\}` as (bit mask, size |S|,
    weight :math:`W(S) = \sum_{i \in S} e^{-i\epsilon}`), built by doubling."""
    if b - 1 > int(math.log2(MAX_BD_SETS)):
        raise ParameterError(
            f"the Theorem 3 search needs 2^(b-1) = 2^{b - 1} shortening sets (b = n // mu_bar "
            f"= {b}); at most {MAX_BD_SETS} are searched. Use optimal_pmf."
        )
    mask = np.zeros(1, dtype=np.int64)
    size = np.zeros(1, dtype=np.int64)
    weight = np.zeros(1)
    for i in range(2, b + 1):
        mask = np.concatenate([mask, mask | (1 << i)])
        size = np.concatenate([size, size + 1])
        weight = np.concatenate([weight, weight + math.exp(-i * eps)])
    return mask, size, weight


def _bd_theorem3(n: int, mu_bar: int, eps: float, dlt: float) -> np.ndarray:
    r"""The optimal BD PMF for δ > 0 under b + r < μ̄ (:func:`bd_pmf`, Theorem 3 rebuilt)."""
    b, r = divmod(n, mu_bar)
    x = math.exp(eps)
    i = np.arange(1, b + 1)
    base = 1.0 + mu_bar * float(np.exp(-i * eps).sum()) + r * math.exp(-(b + 1) * eps)
    mask, size, weight = _bd_shortenings(b, eps)
    phi0 = 1.0 / (base - weight + size * math.exp(-(b + 1) * eps))  # (34), layout S
    with np.errstate(divide="ignore"):
        linear = np.where(weight > 0, dlt / (x * weight), np.inf)  # leak c(S) f(0) = delta
    value = np.minimum(phi0, linear)
    best = int(np.argmax(value))
    t = float(value[best])
    if dlt >= t:  # part (c): f(0) = delta leaks alone, the rest uniform ((40)-(41))
        return np.concatenate([[dlt], np.full(n, (1.0 - dlt) / n)])
    short = [k for k in range(2, b + 1) if int(mask[best]) >> k & 1]
    lengths = [mu_bar - (k in short) for k in range(1, b + 1)] + [r + len(short)]
    group = np.repeat(np.arange(1, b + 2), lengths)  # the step of each eta = 1..n
    chain = t * np.exp(-group * eps)
    # linear region: the chain holds t * D(S) < 1; raise the tail to a common level v <= t
    # (water-filling). A raised mass only faces raised masses, f(0) = t and step 1 (e^eps
    # times t e^-eps), so no new ratio is broken and no leaking mass grows.
    rest = 1.0 - t
    prefix = np.concatenate([[0.0], np.cumsum(chain)])
    k = np.arange(n)  # masses chain[:k] kept, chain[k:] raised to level[k]
    level = (rest - prefix[:-1]) / (n - k)
    # the first k whose level reaches chain[k] also stays below chain[k - 1]; none fits when the
    # chain already holds everything (a flat region, up to round-off)
    fits = np.flatnonzero(level >= chain)
    v = float(level[fits[0]]) if fits.size else 0.0
    return np.concatenate([[t], np.maximum(chain, min(v, t))])


def bd_pmf(n: int, *, epsilon: float, delta: float = 0.0, mu_bar: int) -> np.ndarray:
    r"""The optimal error-rate PMF for the bounded-distance neighbourhood :math:`\{1..\bar\mu\}`
    (Kadam et al., Lemma 4 for δ = 0 and Theorem 3, rebuilt, for δ > 0; paper reading).

    With :math:`n = b\bar\mu + r` ((26)), δ = 0 (Lemma 4): :math:`f(\eta) = \phi_0
    e^{-i\epsilon}` for :math:`(i-1)\bar\mu + 1 \le \eta \le \min(i\bar\mu, n)`, i = 1..b + 1
    ((28)), and :math:`\phi_0 = (1 + \bar\mu\sum_{i=1}^{b} e^{-i\epsilon} + r
    e^{-(b+1)\epsilon})^{-1}` ((29)): a staircase with steps of length μ̄ and a last step of r.

    δ > 0 (Theorem 3's hypothesis b + r < μ̄): the optimum is a staircase whose steps
    :math:`i \in S \subseteq \{2..b\}` are shortened to μ̄ − 1, the last step taking the :math:`|S|`
    masses; each shortened step makes the last mass of step i − 1 leak, so the layout S has

    .. math::

        \phi_0(S) = \Big(1 + \sum_{i=1}^{b} (\bar\mu - [i \in S]) e^{-i\epsilon}
        + (r + |S|) e^{-(b+1)\epsilon}\Big)^{-1}, \qquad
        c(S) = \sum_{i \in S} e^{-(i-1)\epsilon},

    (the normalisation (34) of the lengths (31)), leaks :math:`c(S)\phi_0(S)` in its flat
    region and reaches :math:`f(0) = \delta / c(S)` in its linear region, so

    .. math::

        f^\star(0) = \max\Big(\delta,\ \max_{S} \min\big(\phi_0(S), \delta / c(S)\big)\Big),

    the first term being part (c) ((40)–(41)). The paper's Theorem 3 walks only the layouts
    :math:`S_{h,j} = \{b-h+1..b\} \setminus \{b-h+j+1\}` and its breakpoints (37c) count the
    leak of :math:`S_{h,j}` as :math:`\xi_j` where it is :math:`\xi_h - e^{-j\epsilon}`: it misses
    better layouts and, for j < h − 1, prints PMFs that leak more than δ (``docs/errata.md``).
    The search is over the :math:`2^{b-1}` sets S (at most :data:`MAX_BD_SETS`). In a linear
    region the chain :math:`t e^{-i\epsilon}` (t = f(0)) holds less than 1; the rest is added
    by raising the tail of the staircase to a common level at most t, which breaks no ratio.
    Built at :math:`\epsilon_b, \delta_b` (see :func:`sd_pmf`), so it passes
    :func:`~rainbowdp.noise.modulo.pdp_delta` at (ε, δ) in the paper reading. μ̄ = 1 is the
    SD neighbourhood {1} (:func:`sd_pmf`).

    Raises
    ------
    ParameterError
        For δ > 0 when b + r >= μ̄ (outside Theorem 3; use
        :func:`~rainbowdp.noise.modulo.optimal_pmf`), or when the search would exceed
        :data:`MAX_BD_SETS` sets.

    Examples
    --------
    >>> round(float(bd_pmf(8, epsilon=1.5, mu_bar=3)[0]), 4)    # Kadam et al., Table 1
    0.5432
    >>> round(float(bd_pmf(29, epsilon=1.0, delta=0.078, mu_bar=7)[0]), 6)
    0.205029
    """
    n = check_n(n)
    eps = positive_epsilon(epsilon)
    dlt = check_delta(delta)
    mu_bar = check_int(mu_bar, "mu_bar", minimum=1, maximum=n)
    if mu_bar == 1:
        return sd_pmf(n, epsilon=eps, delta=dlt, mu=1)
    eps_b = build_epsilon(eps)
    if dlt == 0.0:
        eta = np.arange(n + 1)
        step = np.where(eta == 0, 0, (eta - 1) // mu_bar + 1)  # i of (28)
        w = np.exp(-step * eps_b)
        return w / w.sum()
    b, r = divmod(n, mu_bar)
    if b + r >= mu_bar:
        raise ParameterError(
            f"Theorem 3 (delta > 0) needs b + r < mu_bar with n = b * mu_bar + r; got n={n}, "
            f"mu_bar={mu_bar} (b={b}, r={r}). Use optimal_pmf for this instance."
        )
    f = _bd_theorem3(n, mu_bar, eps_b, dlt - min(dlt / 2, SAFETY_MARGIN))
    return f / f.sum()


def _check_error_rate(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ParameterTypeError(f"`error_rate` must be a real number, got error_rate={value!r}.")
    rho = float(value)
    if not 0.0 <= rho <= 1.0:
        raise ParameterError(f"`error_rate` must be in [0, 1], got error_rate={value!r}.")
    return rho


def sd_min_delta(n: int, *, epsilon: float, error_rate: float, mu: int) -> float:
    r"""The least δ at which the SD optimum reaches an error rate (Kadam et al., Corollary 1).

    With m = N − 1, :math:`N = (n+1)/\gcd(n+1, \hat\mu)` (Remark 3, corrected) and the target
    :math:`\tau = 1 - \rho^\star`: 0 if Lemma 3's :math:`f^\star(0) = (1 - e^{-\epsilon})/(1 -
    e^{-N\epsilon})` reaches τ; otherwise, with k the first flat region whose
    :math:`f^\star(0) = (1 - e^{-\epsilon})/(1 - e^{-(m-k+1)\epsilon})` reaches τ,
    :math:`\delta = e^{-(m-k)\epsilon}\tau` (24): the linear region k holds
    :math:`f^\star(0) = \delta e^{(m-k)\epsilon}` (21). Read along ε for a fixed
    :math:`\rho^\star` this is the discontinuous curve of Corollary 1, its jumps at the
    :math:`\epsilon_k^{\rho^\star}` of (25).

    The value is the exact infimum: :func:`sd_pmf` at this δ reaches the error rate up to its
    :math:`2^{-40}` build margin.

    Examples
    --------
    >>> round(sd_min_delta(7, epsilon=0.75, error_rate=0.4, mu=3), 4)
    0.2834
    >>> sd_min_delta(7, epsilon=0.75, error_rate=0.48, mu=3)     # Lemma 3 already does
    0.0
    """
    n = check_n(n)
    eps = positive_epsilon(epsilon)
    tau = 1.0 - _check_error_rate(error_rate)
    mu = check_int(mu, "mu", minimum=1, maximum=n)
    m = (n + 1) // math.gcd(n + 1, mu) - 1
    for k in range(m + 1):
        if -math.expm1(-eps) / -math.expm1(-(m - k + 1) * eps) >= tau:
            return 0.0 if k == 0 else tau * math.exp(-(m - k) * eps)
    return tau  # pragma: no cover - k = m gives f(0) = 1 >= tau


def bd_min_delta(n: int, *, epsilon: float, error_rate: float, mu_bar: int) -> float:
    r"""The least δ at which the BD optimum reaches an error rate (Corollary 2, rebuilt).

    Under Theorem 3's hypothesis b + r < μ̄, with the layouts S of :func:`bd_pmf` and
    :math:`\tau = 1 - \rho^\star`: 0 if Lemma 4's :math:`\phi_0 \ge \tau`, otherwise
    :math:`\delta = \tau\,\min\big(1, \min\{c(S) : \phi_0(S) \ge \tau\}\big)` -- the layout S
    meets τ from :math:`\delta = c(S)\tau` on, and :math:`f(0) = \delta` (part (c)) from
    δ = τ. Corollary 2's (42) is the same along the paper's layouts :math:`S_{h,j}` with
    :math:`c = \xi_j e^{-(b-h)\epsilon}`, and inherits Theorem 3's errors. μ̄ = 1 is
    :func:`sd_min_delta` with μ = 1.

    Raises
    ------
    ParameterError
        When b + r >= μ̄ (see :func:`bd_pmf`).

    Examples
    --------
    >>> round(bd_min_delta(29, epsilon=1.0, error_rate=1 - 0.205, mu_bar=7), 4)
    0.0754
    """
    n = check_n(n)
    eps = positive_epsilon(epsilon)
    tau = 1.0 - _check_error_rate(error_rate)
    mu_bar = check_int(mu_bar, "mu_bar", minimum=1, maximum=n)
    if mu_bar == 1:
        return sd_min_delta(n, epsilon=eps, error_rate=1.0 - tau, mu=1)
    b, r = divmod(n, mu_bar)
    if b + r >= mu_bar:
        raise ParameterError(
            f"Corollary 2 needs b + r < mu_bar with n = b * mu_bar + r; got n={n}, "
            f"mu_bar={mu_bar} (b={b}, r={r}). Use min_delta_pmf for this instance."
        )
    i = np.arange(1, b + 1)
    base = 1.0 + mu_bar * float(np.exp(-i * eps).sum()) + r * math.exp(-(b + 1) * eps)
    _, size, weight = _bd_shortenings(b, eps)
    phi0 = 1.0 / (base - weight + size * math.exp(-(b + 1) * eps))
    if phi0[0] >= tau:  # S = {} is Lemma 4
        return 0.0
    ok = phi0 >= tau
    c = math.exp(eps) * float(weight[ok].min()) if ok.any() else 1.0
    return tau * min(1.0, c)


def asymptotic_error_rate(epsilon: float, *, mu_bar: int = 1) -> float:
    r"""The limit n → ∞ of the optimal error rate at δ = 0 (Kadam et al., (44)–(48)).

    .. math::

        \rho^\star_\infty(\epsilon) = \frac{\bar\mu e^{-\epsilon}}{\bar\mu e^{-\epsilon}
        + 1 - e^{-\epsilon}}

    (47), the limit of Lemma 4; μ̄ = 1 gives :math:`e^{-\epsilon}`, the limit of Lemma 3 for any
    SD shift along n with gcd(n + 1, μ̂) = 1. The paper caps both at 0.5 ((44), (48)); the cap
    does not follow from Lemmas 3–4: for ε < ln(1 + μ̄) the limit is above 0.5
    (``docs/errata.md``).

    Examples
    --------
    >>> round(asymptotic_error_rate(0.5), 4)      # above the printed cap of 0.5
    0.6065
    """
    eps = positive_epsilon(epsilon)
    mu_bar = check_int(mu_bar, "mu_bar", minimum=1)
    a = mu_bar * math.exp(-eps)
    return a / (a - math.expm1(-eps))
