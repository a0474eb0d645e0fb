r"""Optimal rainbow-DP mechanisms in closed form (Gu et al., Sections 4 and 5).

The operator, τ, the closed form and the line mechanism take distributions **in rainbow order**:
entry k is the probability of the k-th most preferred output. A boundary condition of
:func:`optimal_mechanism` is written in the order its ``order`` argument names (outputs order
unless stated; ``docs/conventions.md``). For p in rainbow order with prefix sums
:math:`s_k = p_1 + \dots + p_k`, the operator

.. math::

    s'_k = \min\{1,\; e^\epsilon s_k + \delta,\; 1 - e^{-\epsilon}(1 - s_k - \delta)\},
    \qquad p'_k = s'_k - s'_{k-1}

gives, for every k at once, the largest prefix sum of any distribution (ε, δ)-close to p: the
events :math:`\{1..k\}` and :math:`\{k+1..q\}` of Definition 2 bound :math:`s'_k` by the second
and third terms, and :math:`T_{\epsilon,\delta}(p)` attains them and is (ε, δ)-close to p. This is
the corrected form of the paper's eq. (4.3), which adds δ *after* the (ε, 0) minimum and is only
(ε, e^ε δ)-close (``docs/errata.md``, item 1); ``variant="paper"`` keeps the printed operator for
reproducing the paper's figures. For δ = 0 the two coincide.

On a (c, n)-line the optimal mechanism is :math:`\mathcal M(t) = T^t(\vec m)` (Theorem 4), and on
any rainbow graph with a valid homogeneous boundary condition it is
:math:`\mathbb P[\mathcal M(d) = c(k)] = (T^{\operatorname{dist}(d, \partial B^c)}(\tilde m^c))_k`
(Theorems 2 and 3, end of Section 4), computed here as a pullback from the boundary rainbow
graph.

References
----------
.. [1] Y. Gu, Z. Zhou, O. Günlü, R. G. L. D'Oliveira, P. Sadeghi, M. Médard, R. F. Schaefer,
   "Generalized rainbow differential privacy", Theorems 2-4, Lemma 1, eqs. (4.3), (5.1)-(5.5),
   Example 1, Figs. 3-5.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np

from ._format import format_up
from ._validation import check_delta, check_epsilon, check_int, check_probability_vector, real_array
from ._verify.exact import EXACT_WORK, enclose_exp, unproven
from ._verify.repair import proves_dp, repair
from .boundary import (
    HOMOGENEITY_ATOL,  # noqa: F401 (re-exported: rainbowdp.optimal.HOMOGENEITY_ATOL)
    homogeneous_boundary,
    read_in_rainbow_order,
    resolve_boundary,
    warn_if_permuted,
)
from .exceptions import InvalidBoundaryError, NotPrivateError, ParameterError
from .graph import RainbowGraph, check_graph, require_undirected
from .mechanism import Mechanism, Order, check_order
from .morphism import INFINITE_DISTANCE_LABEL, boundary_graph
from .privacy import are_close, hockey_stick, verify

__all__ = [
    "TAU_INFINITY",
    "VARIANTS",
    "T",
    "boundary_graph",
    "homogeneous_boundary",
    "line_mechanism",
    "optimal_mechanism",
    "prefix_sums_closed_form",
    "switch_threshold",
    "tau",
]

#: The two operators: the corrected one (default) and the one printed as eq. (4.3).
VARIANTS = ("corrected", "paper")
#: The operator: Gu et al.'s corrected T (default) or eq. (4.3) as printed.
Variant = Literal["corrected", "paper"]

#: Value of τ_k when the threshold is never reached (δ = 0 and s_k^0 = 0, or ε = δ = 0).
TAU_INFINITY = int(np.iinfo(np.int64).max)


# ---------------------------------------------------------------------- argument checks
def _check_variant(variant: Any) -> Variant:
    if variant not in VARIANTS:
        raise ParameterError(f"`variant` must be one of {VARIANTS}, got variant={variant!r}.")
    return "corrected" if variant == "corrected" else "paper"


def _check_distributions(p: Any, name: str) -> np.ndarray:
    """A probability vector, or a 2-D array of them (rows); returned as float64."""
    arr = real_array(p, name)
    if arr.ndim == 1:
        return check_probability_vector(arr, name)
    if arr.ndim != 2 or arr.shape[1] == 0:
        raise ParameterError(
            f"`{name}` must be a probability vector or a 2-D array of them (rows), "
            f"got shape {arr.shape}."
        )
    bad = (
        ~np.isfinite(arr).all(axis=1)
        | (arr < 0).any(axis=1)
        | (np.abs(arr.sum(axis=1) - 1.0) > 1e-9)
    )
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ParameterError(
            f"`{name}` row {i} must be a probability vector (finite, non-negative, "
            f"sum 1 within 1e-09), got {arr[i].tolist()}."
        )
    return arr


def switch_threshold(epsilon: float, delta: float, *, variant: Variant = "corrected") -> float:
    r"""Prefix-sum value at which :math:`T_{\epsilon,\delta}` switches branch.

    Parameters
    ----------
    epsilon, delta : float
        Privacy parameters, ε >= 0 and δ in [0, 1].
    variant : {"corrected", "paper"}
        Which operator.

    Returns
    -------
    float
        ``"corrected"``: :math:`(1 - \delta)/(e^\epsilon + 1)`, the solution of
        :math:`e^\epsilon s + \delta = 1 - e^{-\epsilon}(1 - s - \delta)`. ``"paper"``:
        :math:`1/(e^\epsilon + 1)`, where the two terms inside the inner minimum of (4.3) meet.

    Notes
    -----
    :math:`e^\epsilon s + \delta - (1 - e^{-\epsilon}(1 - s - \delta))
    = (e^\epsilon - e^{-\epsilon})\,s - (1 - e^{-\epsilon})(1 - \delta)`, and
    :math:`(1 - e^{-\epsilon})/(e^\epsilon - e^{-\epsilon}) = 1/(e^\epsilon + 1)`.

    Examples
    --------
    >>> switch_threshold(math.log(1.2), 0.0) == 1 / 2.2
    True
    >>> round(switch_threshold(math.log(1.2), 0.01), 12)
    0.45
    """
    eps = check_epsilon(epsilon, finite_exp=True)
    dlt = check_delta(delta)
    variant = _check_variant(variant)
    x = math.exp(eps)
    return (1.0 - dlt) / (x + 1.0) if variant == "corrected" else 1.0 / (x + 1.0)


# ---------------------------------------------------------------------- the operator
def _step(p: np.ndarray, x: float, delta: float, variant: Variant) -> np.ndarray:
    r"""One application of T to the rows of ``p`` (validated, shape (R, q)), entry by entry.

    Each prefix sum k is in one branch: A (:math:`s'_k = e^\epsilon s_k + \delta`), B (the
    contraction of the suffix :math:`u_k = 1 - s_k`: :math:`u'_k = (u_k - \delta)/e^\epsilon`
    corrected, :math:`u_k/e^\epsilon - \delta` printed) or C (:math:`s'_k = 1`). Inside a run
    of one branch the entries are :math:`e^\epsilon p_k` (A), :math:`p_k / e^\epsilon` (B) or
    0 (C), so the likelihood ratios that decide closeness are exact up to one rounding, and
    :func:`rainbowdp.privacy.verify` confirms closeness within its own error bound; where the
    branch changes, the entry uses an algebraically equal form that involves no cancellation
    of large terms (e.g. A to B: :math:`p_k/e^\epsilon + B(s_{k-1}) - A(s_{k-1})` with
    :math:`B(s) - A(s) = (e^\epsilon - e^{-\epsilon})(\theta - s) \ge 0` on A).
    """
    r = p.shape[0]
    corrected = variant == "corrected"
    thr = (1.0 - delta) / (x + 1.0) if corrected else 1.0 / (x + 1.0)
    zero = np.zeros((r, 1))
    s = np.cumsum(p, axis=1)
    u = np.cumsum(p[:, :0:-1], axis=1)[:, ::-1]  # u[:, k] = sum_{i > k} p_i, k < q-1
    u = np.concatenate([u, zero], axis=1)
    below = s <= thr
    if corrected:
        capped = u <= delta  # 1 - e^-eps (1 - s - delta) >= 1
    else:
        capped = np.where(below, x * s + delta >= 1.0, u <= x * delta)
    # branch of each prefix (0 A, 1 B, 2 C); the full prefix is always C (s'_q = 1)
    code = np.where(capped, 2, np.where(below, 0, 1))
    code[:, -1] = 2
    # previous branch, with 3 for the empty prefix s_0 = 0
    prev = np.concatenate([np.full((r, 1), 3), code[:, :-1]], axis=1)
    s_prev = np.concatenate([zero, s[:, :-1]], axis=1)
    u_prev = np.concatenate([zero + 1.0, u[:, :-1]], axis=1)
    up = p * x
    down = p / x
    g = np.maximum((x - 1.0 / x) * (thr - s_prev), 0.0)  # B(s_{k-1}) - A(s_{k-1}) on A
    nil = np.zeros_like(p)
    if corrected:
        b_prev, b_now = (u_prev - delta) / x, (u - delta) / x  # u' = 1 - s' on B
    else:
        b_prev, b_now = u_prev / x - delta, u / x - delta
    # p'_k for (previous branch, branch); B->A, C->A and C->B do not occur
    choices = [
        up,
        down + g,
        1.0 - (x * s_prev + delta),  # A->A, A->B, A->C
        nil,
        down,
        b_prev,  # B->A, B->B, B->C
        nil,
        nil,
        nil,  # C->*
        up + delta,
        1.0 - b_now,
        nil + 1.0,  # empty->A, empty->B, empty->C
    ]
    out = np.choose(prev * 3 + code, choices)
    np.maximum(out, 0.0, out=out)
    return out


def T(p: Any, epsilon: float, delta: float, *, variant: Variant = "corrected") -> np.ndarray:
    r"""The operator :math:`T_{\epsilon,\delta}` of Gu et al., Theorem 4 (corrected).

    Parameters
    ----------
    p : array_like, shape (q,) or (R, q)
        A distribution in rainbow order (most preferred output first), or rows of them.
    epsilon : float
        ε >= 0.
    delta : float
        δ in [0, 1].
    variant : {"corrected", "paper"}, default "corrected"
        ``"corrected"``:
        :math:`s'_k = \min\{1, e^\epsilon s_k + \delta, 1 - e^{-\epsilon}(1 - s_k - \delta)\}`;
        ``"paper"``: eq. (4.3) as printed,
        :math:`s'_k = \min\{1, \min\{e^\epsilon s_k, 1 - e^{-\epsilon}(1 - s_k)\} + \delta\}`,
        which is only (ε, e^ε δ)-close to p when δ > 0.

    Returns
    -------
    numpy.ndarray
        :math:`T(p)`, same shape as ``p``: non-negative, summing to 1 up to rounding.

    Raises
    ------
    TypeError
        If an argument has the wrong type.
    ValueError
        If ``p`` is not a probability vector (or rows of them), or ε, δ or ``variant`` are out
        of range (the bad value is echoed).

    Notes
    -----
    Lemma 1 (corrected): :math:`T(p)` is (ε, δ)-close to p, and every distribution p'' that is
    (ε, δ)-close to p satisfies :math:`p'' \preceq T(p)` (prefix sums). The two upper bounds
    come from the events :math:`S = \{1..k\}` (:math:`s''_k \le e^\epsilon s_k + \delta`) and
    :math:`S = \{k+1..q\}` (:math:`1 - s_k \le e^\epsilon (1 - s''_k) + \delta`). Below the
    threshold :func:`switch_threshold` the first bound is the smaller one. The output is
    computed entry by entry in each branch (:math:`e^\epsilon p_k`, :math:`p_k/e^\epsilon` or 0
    inside a branch) so that :func:`rainbowdp.privacy.verify` confirms closeness without
    rounding slack beyond its own error bound.

    References
    ----------
    Gu et al., Theorem 4, eqs. (4.2)-(4.3), Lemma 1; ``docs/errata.md`` item 1.

    Examples
    --------
    >>> import math
    >>> T([0.2, 0.1, 0.7], math.log(2), 0.0).round(12).tolist()   # Gu et al., Example 1
    [0.4, 0.2, 0.4]
    >>> T([0.5, 0.5], math.log(3), 0.1).round(12).tolist()
    [0.8, 0.2]
    """
    eps = check_epsilon(epsilon, finite_exp=True)
    dlt = check_delta(delta)
    variant = _check_variant(variant)
    arr = _check_distributions(p, "p")
    x = math.exp(eps)
    out = _step(np.atleast_2d(arr), x, dlt, variant)
    return out[0] if arr.ndim == 1 else out


def _iterate(m: np.ndarray, n: int, x: float, delta: float, variant: Variant) -> np.ndarray:
    """(R, n+1, q) array: row t of block r is T^t(m[r])."""
    r, q = m.shape
    out = np.empty((r, n + 1, q))
    out[:, 0] = m
    cur = m
    for t in range(1, n + 1):
        nxt = _step(cur, x, delta, variant)
        if np.array_equal(nxt, cur):  # a fixed point (e.g. the point mass): rows repeat
            out[:, t:] = cur[:, None, :]
            break
        cur = nxt
        out[:, t] = cur
    return out


# ---------------------------------------------------------------------- closed forms
def _tau_array(s0: np.ndarray, eps: float, delta: float, variant: Variant) -> np.ndarray:
    x = math.exp(eps)
    thr = (1.0 - delta) / (x + 1.0) if variant == "corrected" else 1.0 / (x + 1.0)
    tau_out = np.zeros(s0.shape, dtype=np.int64)
    below = s0 < thr
    if eps == 0.0:
        if delta == 0.0:
            tau_out[below] = TAU_INFINITY
        else:
            t = np.ceil((thr - s0[below]) / delta * (1 - 1e-12))
            tau_out[below] = np.maximum(t, 0).astype(np.int64)
        return tau_out
    rho = delta / (x - 1.0)
    base = s0 + rho
    never = below & (base <= 0.0)
    reach = below & (base > 0.0)
    tstar = np.log((thr + rho) / base[reach]) / eps
    # first integer t with e^{t eps}(s0 + rho) >= thr + rho; exact ties (where both branches
    # agree) are absorbed by a relative tolerance
    tau_out[reach] = np.maximum(np.ceil(tstar - 1e-10 * np.maximum(1.0, tstar)), 0).astype(np.int64)
    tau_out[never] = TAU_INFINITY
    return tau_out


def tau(m: Any, epsilon: float, delta: float, *, variant: Variant = "corrected") -> np.ndarray:
    r"""Switch times :math:`\tau_k`: the first t >= 0 with :math:`s_k^t` >= the threshold.

    Parameters
    ----------
    m : array_like, shape (q,)
        Boundary distribution in rainbow order.
    epsilon, delta : float
        Privacy parameters.
    variant : {"corrected", "paper"}, default "corrected"
        Operator (and threshold, see :func:`switch_threshold`).

    Returns
    -------
    numpy.ndarray
        (q,) int64 array; :data:`TAU_INFINITY` where the threshold is never reached
        (:math:`s_k^0 = 0` with δ = 0, or ε = δ = 0 below the threshold).

    Notes
    -----
    Below the threshold the prefix sums follow :math:`s^{t+1} + \rho = e^\epsilon(s^t + \rho)`,
    :math:`\rho = \delta/(e^\epsilon - 1)` (both variants), so

    .. math::

        \tau_k = \max\Bigl\{\Bigl\lceil \frac{1}{\epsilon}
        \log\frac{\theta + \rho}{s_k^0 + \rho} \Bigr\rceil, 0\Bigr\},

    θ the threshold; for ε = 0, :math:`\tau_k = \lceil(\theta - s_k^0)/\delta\rceil^+`. This is
    eq. (5.4) *without* its "+1", which is a typo (``docs/errata.md`` item 2): with it, (5.2)
    and (5.5) do not equal the iterated operator.

    References
    ----------
    Gu et al., eqs. (5.1) and (5.4), Figs. 3-5.

    Examples
    --------
    >>> m = [0.0005, 0.0081, 0.1364, 0.2727, 0.5823]      # Gu et al., Section 5.3
    >>> tau(m, math.log(1.2), 0.0).tolist()               # Gu et al., Fig. 3
    [38, 22, 7, 1, 0]
    >>> tau(m, math.log(1.2), 1e-3).tolist()              # Gu et al., Fig. 4
    [25, 20, 7, 1, 0]
    >>> tau(m, math.log(1.2), 0.01).tolist()              # Gu et al., Fig. 5
    [13, 12, 6, 1, 0]
    """
    eps = check_epsilon(epsilon, finite_exp=True)
    dlt = check_delta(delta)
    variant = _check_variant(variant)
    arr = check_probability_vector(m, "m")
    s0 = np.minimum(np.cumsum(arr), 1.0)
    s0[-1] = 1.0
    return _tau_array(s0, eps, dlt, variant)


def prefix_sums_closed_form(
    m: Any, t: Any, epsilon: float, delta: float, *, variant: Variant = "corrected"
) -> np.ndarray:
    r"""Prefix sums :math:`s^t_k` of :math:`T^t(\vec m)` in closed form (Gu et al., Section 5).

    Parameters
    ----------
    m : array_like, shape (q,)
        Boundary distribution in rainbow order.
    t : float or array_like of float
        Distances t >= 0; non-integer t interpolate as in Figs. 3-5.
    epsilon, delta : float
        Privacy parameters.
    variant : {"corrected", "paper"}, default "corrected"
        ``"corrected"`` gives the prefix sums of the corrected operator; ``"paper"`` is eq.
        (5.5) (with τ from :func:`tau`, i.e. without the "+1"), which matches iterating the
        printed operator (4.3).

    Returns
    -------
    numpy.ndarray
        Shape ``(q,)`` for scalar t, else ``t.shape + (q,)``.

    Notes
    -----
    With :math:`\rho = \delta/(e^\epsilon - 1)` and τ from :func:`tau`, the corrected operator
    gives

    .. math::

        s_k^t = \begin{cases}
        e^{t\epsilon}(s_k^0 + \rho) - \rho & t \le \tau_k,\\
        \min\{1,\; 1 + \rho - e^{-\epsilon(t - \tau_k)}(1 - s_k^{\tau_k} + \rho)\}
        & t \ge \tau_k,
        \end{cases}

    because above the threshold :math:`u = 1 - s` follows :math:`u' = e^{-\epsilon}(u - \delta)`,
    i.e. :math:`u' + \rho = e^{-\epsilon}(u + \rho)`, until it reaches :math:`u \le 0`, where
    the cap at 1 holds it: with δ > 0 every prefix sum reaches 1 after finitely many steps.
    The paper's (5.5) has :math:`e^\epsilon\rho` in place of ρ in the second line (its operator
    subtracts δ after the contraction: :math:`u' = e^{-\epsilon}u - \delta`). For ε = 0 both
    read :math:`s_k^t = \min\{1, s_k^0 + t\delta\}`; for δ = 0 both are eq. (5.2).

    References
    ----------
    Gu et al., eqs. (5.2), (5.3), (5.5); ``docs/errata.md`` items 1-2.

    Examples
    --------
    >>> m = [0.0005, 0.0081, 0.1364, 0.2727, 0.5823]
    >>> s = prefix_sums_closed_form(m, 40, math.log(1.2), 0.01)
    >>> bool(np.all(s == 1.0))            # with delta > 0 the mass reaches the top output
    True
    >>> np.allclose(prefix_sums_closed_form(m, 3, 0.2, 0.01),
    ...             np.cumsum(line_mechanism(m, 3, 0.2, 0.01)[3]))
    True
    """
    eps = check_epsilon(epsilon, finite_exp=True)
    dlt = check_delta(delta)
    variant = _check_variant(variant)
    arr = check_probability_vector(m, "m")
    tt = np.asarray(t, dtype=np.float64)
    if not np.all(np.isfinite(tt)) or np.any(tt < 0):
        raise ParameterError(f"`t` must be finite and >= 0, got t={t!r}.")
    s0 = np.minimum(np.cumsum(arr), 1.0)
    s0[-1] = 1.0
    tcol = tt[..., None]
    if eps == 0.0:
        return np.minimum(1.0, s0 + tcol * dlt)
    x = math.exp(eps)
    rho = dlt / (x - 1.0)
    up = rho if variant == "corrected" else x * rho
    taus = _tau_array(s0, eps, dlt, variant)
    inf_tau = taus == TAU_INFINITY
    tau_f = np.where(inf_tau, 0.0, taus.astype(np.float64))
    base = s0 + rho
    with np.errstate(divide="ignore"):
        logb = np.log(base)  # -inf where s0 + rho == 0
    # first branch at min(t, tau) (never overflows: values stay below the threshold)
    ta = np.where(inf_tau, tcol, np.minimum(tcol, tau_f))
    first = np.exp(ta * eps + logb) - rho
    s_tau = np.exp(tau_f * eps + logb) - rho
    tb = np.where(inf_tau, 0.0, np.maximum(tcol - tau_f, 0.0))
    second = 1.0 + up - np.exp(-eps * tb) * (1.0 - s_tau + up)
    after = (~inf_tau) & (tcol > tau_f)
    out = np.where(after, second, first)
    out = np.clip(out, 0.0, 1.0)
    out[..., -1] = 1.0
    return out


# ---------------------------------------------------------------------- line graphs
def line_mechanism(
    m: Any,
    n: int,
    epsilon: float,
    delta: float,
    *,
    variant: Variant = "corrected",
    method: Literal["iterate", "closed-form"] = "iterate",
) -> np.ndarray:
    r"""The optimal mechanism on the (c, n)-line with boundary condition m (Theorem 4).

    Parameters
    ----------
    m : array_like, shape (q,)
        Distribution of node 0 in rainbow order (most preferred first).
    n : int
        Length of the line (nodes 0..n), n >= 0.
    epsilon, delta : float
        Privacy parameters.
    variant : {"corrected", "paper"}, default "corrected"
        Operator, see :func:`T`.
    method : {"iterate", "closed-form"}, default "iterate"
        Apply T n times, or difference :func:`prefix_sums_closed_form`.

    Returns
    -------
    numpy.ndarray
        (n+1, q) array; row t is :math:`T^t(\vec m)` in rainbow order.

    Raises
    ------
    TypeError, ValueError
        On bad arguments (the value is echoed).

    References
    ----------
    Gu et al., Theorem 4 and Section 5.

    Examples
    --------
    >>> line_mechanism([0.5, 0.5], 2, math.log(2), 0.0).round(12).tolist()
    [[0.5, 0.5], [0.75, 0.25], [0.875, 0.125]]
    """
    eps = check_epsilon(epsilon, finite_exp=True)
    dlt = check_delta(delta)
    variant = _check_variant(variant)
    n = check_int(n, "n", minimum=0)
    if method not in ("iterate", "closed-form"):
        raise ParameterError(f"`method` must be 'iterate' or 'closed-form', got method={method!r}.")
    arr = check_probability_vector(m, "m")
    if method == "closed-form":
        s = prefix_sums_closed_form(arr, np.arange(n + 1), eps, dlt, variant=variant)
        s = np.maximum.accumulate(s, axis=1)
        out = np.diff(s, axis=1, prepend=0.0)
        out[0] = arr
        return out
    return _iterate(arr[None, :], n, math.exp(eps), dlt, variant)[0]


# ---------------------------------------------------------------------- general graphs
def optimal_mechanism(
    G: RainbowGraph,
    *,
    epsilon: float,
    delta: float = 0.0,
    boundary: Any,
    order: Order | None = None,
    variant: Variant = "corrected",
) -> Mechanism:
    r"""The unique optimal (ε, δ)-DP mechanism under a valid homogeneous boundary condition.

    Parameters
    ----------
    G : RainbowGraph
        Any rainbow graph (binary, ternary and larger output sets alike).
    epsilon : float
        ε >= 0.
    delta : float, default 0
        δ in [0, 1].
    boundary : mapping or array_like
        Either ``{rainbow: distribution}`` with rainbows as tuples of outputs (most preferred
        first) -- one for every rainbow that has boundary nodes (rainbows without boundary
        nodes, or that no node has, are accepted and ignored) -- or ``{boundary node:
        distribution}`` for every boundary node, or (with ``order`` given) one distribution
        for every rainbow. Distributions are written in the order ``order`` names and are
        renormalised to sum to 1. If every key is a rainbow (a permutation of the outputs) the
        first reading is used. :func:`homogeneous_boundary` builds the first form from one
        vector in rainbow order.
    order : {None, "outputs", "rainbow"}, default None
        The order of every distribution in ``boundary`` (``docs/conventions.md``):
        ``"outputs"``, entry j is the probability of ``G.outputs[j]`` (like a row of a
        :class:`~rainbowdp.mechanism.Mechanism`); ``"rainbow"``, entry k is the probability of
        the k-th preferred output of the key's rainbow (of the node's rainbow, node-wise), the
        vector :math:`\vec m^c` of Theorem 2. ``None`` reads outputs order, as before this
        argument existed, and warns (:class:`~rainbowdp.exceptions.PermutedBoundaryWarning`)
        when the rows look written in rainbow order: two rainbows get the same row v but
        different vectors in their own preference orders, and v read in rainbow order would
        dominate both vectors, strictly for one (:data:`rainbowdp.boundary.PERMUTED_RULE`;
        rows non-increasing along their rainbows, or one vector along every rainbow, never
        trigger it). A single distribution needs an explicit order.
    variant : {"corrected", "paper"}, default "corrected"
        Operator, see :func:`T`. With ``"paper"`` and δ > 0 the result fails re-verification
        (the printed operator is only (ε, e^ε δ)-DP) and :class:`NotPrivateError` is raised.

    Returns
    -------
    Mechanism
        :math:`\mathbb P[\mathcal M(d) = c(k)] = (T^{\operatorname{dist}(d, \partial B^c)}
        (\tilde m^c))_k`; nodes whose component has one rainbow and no boundary node get the
        point mass on their most preferred output. It is proved (ε, δ)-DP in exact arithmetic
        (:func:`rainbowdp.certify` answers ``"private"``): where the float evaluation
        of a tight constraint rounds the wrong way, the rows are mixed with the uniform
        distribution by the smallest weight that proves it (typically below 1e-13).

    Raises
    ------
    TypeError
        If ``G`` is not a RainbowGraph, ``boundary`` is neither a mapping nor (with an
        ``order``) a vector, or ``order`` is not a string.
    ValueError
        If ``order`` is a string other than ``"outputs"`` and ``"rainbow"``.
    InvalidBoundaryError
        If a rainbow with boundary nodes (or, node-wise, a boundary node) has no distribution,
        a key is unknown or not a boundary node, a distribution is malformed, or the condition
        is not valid: two rainbows joined by an edge get distributions that are not
        (ε, δ)-close (the edge and the δ it would need are named; with ``order=None`` the
        message adds when the same numbers read in rainbow order would be valid).
    NoOptimalMechanismError
        If a node-wise condition gives two boundary nodes of one rainbow different
        distributions (Gu et al., Example 1: then no mechanism dominates all valid ones).
    NotPrivateError
        If the result fails :func:`rainbowdp.privacy.verify` (never for the corrected
        operator).

    Notes
    -----
    Computed as in the proof of Theorem 2: the boundary rainbow graph
    :func:`~rainbowdp.morphism.boundary_graph` (one breadth-first search for all distances),
    the line mechanism :math:`T^i(\tilde m^c)` on every chain (all rainbows iterated together),
    and the pullback along the boundary morphism (one gather of N rows). The optimum does not
    depend on the utility: it dominates every valid mechanism (Definition 3), so it maximises
    every order-reasonable utility.

    Components of one rainbow without a boundary node are unconstrained; the point mass on the
    top output is DP there (all rows equal) and dominates everything, i.e. it is the limit of
    :math:`T^t` as :math:`t \to \infty` and the supremum over valid mechanisms.

    References
    ----------
    Gu et al., Theorems 2-4, Definitions 6 and 8, end of Section 4; ``docs/errata.md``.

    Examples
    --------
    >>> from rainbowdp import builders
    >>> G = builders.cycle([("a", "b")] * 4 + [("b", "a")])
    >>> M = optimal_mechanism(G, epsilon=math.log(2),
    ...                       boundary={("a", "b"): [0.5, 0.5], ("b", "a"): [0.5, 0.5]})
    >>> M.probabilities.round(12).tolist()
    [[0.5, 0.5], [0.75, 0.25], [0.75, 0.25], [0.5, 0.5], [0.5, 0.5]]

    One vector in rainbow order for every rainbow (P[top output] = 0.6 at the boundary):

    >>> M = optimal_mechanism(G, epsilon=math.log(2), boundary=[0.6, 0.4], order="rainbow")
    >>> M.in_rainbow_order().round(12).tolist()
    [[0.6, 0.4], [0.8, 0.2], [0.8, 0.2], [0.6, 0.4], [0.6, 0.4]]
    """
    check_graph(G, "G")
    require_undirected(G, "G", "the optimal rainbow mechanism")
    eps = check_epsilon(epsilon, finite_exp=True)
    dlt = check_delta(delta)
    variant = _check_variant(variant)
    if order is not None:
        order = check_order(order)
    gb, g = boundary_graph(G)
    x = math.exp(eps)
    r, q = G.rainbow_table.shape
    # which rainbows have boundary nodes: those with a head (c, 0) in Gb
    b_ids = gb.rainbow_ids
    is_head = gb.declared_boundary_mask
    needs = np.zeros(r, dtype=bool)
    needs[b_ids[is_head]] = True
    rows = resolve_boundary(G, boundary, needs, order)
    _check_validity(G, gb, rows, eps, dlt, hint=order is None)
    if order is None:
        warn_if_permuted(G, rows, needs, stacklevel=2)
    # line mechanisms of all chains at once, in rainbow order
    table = G.rainbow_table
    is_inf = np.array([lab[1] == INFINITE_DISTANCE_LABEL for lab in gb.nodes], dtype=bool)
    chain_len = np.bincount(b_ids[~is_inf], minlength=r)
    pb = np.zeros((gb.n_nodes, q))
    active = np.flatnonzero(needs)
    if active.size:
        m_rb = np.take_along_axis(rows[active], table[active], axis=1)
        lines = _iterate(m_rb, int(chain_len.max()) - 1, x, dlt, variant)  # (A, n+1, q)
        starts = np.flatnonzero(is_head)
        for j, c in enumerate(active.tolist()):
            length = int(chain_len[c])
            block = np.empty((length, q))
            block[:, table[c]] = lines[j, :length]  # rainbow order -> outputs order
            pb[starts[j] : starts[j] + length] = block
    inf_nodes = np.flatnonzero(is_inf)
    pb[inf_nodes, table[b_ids[inf_nodes], 0]] = 1.0  # point mass on the top output
    # Prove the line mechanisms on the small boundary graph: the pullback only copies rows
    # along a graph morphism (Theorem 1), so a proof on Gb is a proof on G.
    mb = Mechanism(gb, pb)
    proof = unproven(pb, gb.edges, enclose_exp(eps), dlt, max_work=EXACT_WORK)
    if proof.any() and not proof.violated:
        mb = _certified(mb, eps, dlt, is_head)
    mech = g.pullback(mb)
    report = verify(mech, epsilon=eps, delta=dlt)  # defence in depth, on every edge of G
    if proof.violated or not report.is_private:
        raise NotPrivateError(
            f"the {variant!r} operator gave a mechanism that is not ({eps:g}, {dlt:g})-DP: "
            f"{report}. "
            + (
                "The printed eq. (4.3) is only (epsilon, e^epsilon delta)-DP for "
                "delta > 0 (docs/errata.md item 1); use variant='corrected'."
                if variant == "paper"
                else ""
            )
        )
    return mech


def _certified(mech: Mechanism, eps: float, dlt: float, heads: np.ndarray) -> Mechanism:
    r"""``mech`` mixed with the uniform distribution by the smallest weight that proves it DP.

    The closed form is evaluated in floating point, so a tight constraint (a ratio
    :math:`e^\epsilon p_k`, or a budget met with equality) may exceed its exact bound by one
    rounding. Mixing rows with the uniform distribution by the smallest λ the search finds
    (:func:`rainbowdp._verify.repair.repair`, growing λ by 4 from :math:`10^{-16}`) makes every
    tight constraint strict. The boundary rows ``heads`` are kept as given if mixing the other rows
    suffices; otherwise every row is mixed (the boundary stays homogeneous). λ is about the
    relative round-off of the tight constraints: :math:`10^{-16}` to :math:`10^{-13}` for
    ε > 0, :math:`10^{-16}/\delta` for ε = 0.
    """
    g = mech.graph
    p = mech.probabilities

    def ok(P: np.ndarray) -> bool:
        return P is not p and proves_dp(g, P, eps, dlt)  # p itself was just tried

    what = f"({eps:g}, {dlt:g})-DP"
    try:
        out, _ = repair(g, p, heads, ok, start=1e-16, what=what)
    except NotPrivateError:
        out, _ = repair(
            g,
            p,
            np.zeros(g.n_nodes, dtype=bool),
            ok,
            start=1e-16,
            what=what,
            equalise=eps == 0 and dlt == 0,
        )
    return Mechanism(g, out)


def _invalid_pair(gb: RainbowGraph, rows: np.ndarray, eps: float, dlt: float) -> tuple | None:
    """The first two rainbows joined by a head edge of ``gb`` whose rows are not close."""
    e = gb.edges
    ids = gb.rainbow_ids
    cross = ids[e[:, 0]] != ids[e[:, 1]]
    for a, b in zip(ids[e[cross, 0]].tolist(), ids[e[cross, 1]].tolist(), strict=True):
        if not are_close(rows[a], rows[b], eps, dlt):
            return a, b
    return None


def _check_validity(
    G: RainbowGraph,
    gb: RainbowGraph,
    rows: np.ndarray,
    eps: float,
    dlt: float,
    *,
    hint: bool = False,
) -> None:
    """Theorem 2's validity: rainbows joined by an edge get (ε, δ)-close distributions.

    With ``hint`` (rows given without an order) the message says whether the same numbers,
    read in rainbow order, would be valid.
    """
    pair = _invalid_pair(gb, rows, eps, dlt)
    if pair is None:
        return
    a, b = pair
    need = max(hockey_stick(rows[a], rows[b], eps), hockey_stick(rows[b], rows[a], eps))
    ge = G.edges
    gi = G.rainbow_ids
    hit = np.flatnonzero(
        ((gi[ge[:, 0]] == a) & (gi[ge[:, 1]] == b)) | ((gi[ge[:, 0]] == b) & (gi[ge[:, 1]] == a))
    )[0]
    u, v = G.nodes[int(ge[hit, 0])], G.nodes[int(ge[hit, 1])]
    rb = G.rainbows
    other = ""
    if hint and _invalid_pair(gb, read_in_rainbow_order(G, rows), eps, dlt) is None:
        other = (
            " Read in rainbow order (order='rainbow': entry k on the rainbow's k-th preferred "
            "output), the same numbers would be a valid condition."
        )
    raise InvalidBoundaryError(
        f"the boundary condition is not valid (Theorem 2): the edge ({u!r}, {v!r}) joins "
        f"rainbows {rb[a]!r} and {rb[b]!r}, whose distributions {rows[a].tolist()} and "
        f"{rows[b].tolist()} (in outputs order) are not ({eps:g}, {dlt:g})-close; they need "
        f"delta >= {format_up(need)} at this epsilon (rounded up).{other}"
    )
