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
from typing import TYPE_CHECKING, Any, ClassVar, Literal, cast

import numpy as np

from .._deprecation import deprecated_alias
from .._validation import check_delta, check_epsilon, check_int, real_array
from ..exceptions import ParameterError, ParameterTypeError
from ..graph import RainbowGraph, check_graph
from ..mechanism import Mechanism
from ._count_closed import (
    CASES,
    MAX_D,
    ROUND_UP,
    CountOptimum,
    alpha_star,
    check_alpha,
    check_D,
    check_eta,
    crossovers,
    delta_tilde,
    lower_bounds,
    min_delta,
    optimum,
    pmf,
    remark2_bound,
    round_up,
)
from ._family import (
    Claim,
    Family,
    Parameter,
    epsilon_parameter,
    integer_answers_of,
    mechanism_from_rows,
    register,
    unit_steps,
)

if TYPE_CHECKING:
    from ..design import DesignResult

__all__ = [
    "CASES",
    "MAX_D",
    "MAX_MECHANISM_ENTRIES",
    "ROUND_UP",
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
    "law_dp_delta",
    "lower_bounds",
    "max_eta",
    "mechanism",
    "min_delta",
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

optimal_delta = deprecated_alias(min_delta, "count.optimal_delta", "count.min_delta")

Events = Literal["singleton", "all"]
EVENTS = ("singleton", "all")


# ------------------------------------------------------------------------------------ checks


def _check_events(events: Any) -> Events:
    if not isinstance(events, str) or events not in EVENTS:
        raise ParameterError(f"`events` must be one of {EVENTS}, got events={events!r}.")
    return cast(Events, events)


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
    D = check_D(D)
    n = check_int(n, "n", minimum=1)
    A = min(n, D)
    i1 = check_int(i1, "i1", minimum=-A, maximum=-1)
    i2 = check_int(i2, "i2", minimum=1, maximum=D)
    e = check_eta(eta)
    p = np.zeros(2 * D + 1)
    p[D] = e
    p[D + i1] = (1 - e) * i2 / (i2 - i1)
    p[D + i2] = (1 - e) * (-i1) / (i2 - i1)
    return p


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
    D = check_D(D)
    e = check_eta(eta)
    a = check_alpha(alpha, D)
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

    D = check_D(D)
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
    D = check_D(D)
    e = check_eta(eta)
    if (alpha is None) == (epsilon is None):
        raise ParameterError(
            f"give exactly one of `alpha` and `epsilon`, got alpha={alpha!r}, epsilon={epsilon!r}."
        )
    a = alpha_star(D, epsilon=epsilon, eta=e) if epsilon is not None else check_alpha(alpha, D)
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
    return round_up(best)


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
    D = check_D(a.size)
    e = check_eta(eta)
    a = check_alpha(a, D)
    G = graph(D + 1, D, n_min=D)
    M = mechanism_from_rows(G, rows(np.asarray(G.nodes), D, a, eta=e, n_outputs=G.n_outputs))
    return dp_delta(M, epsilon=epsilon)


# ------------------------------------------------------------------------------------ LPs
def _designer(name: str) -> Any:
    """The ``solve`` of the registered formulation ``name`` (:mod:`rainbowdp.design.formulations`:
    the models live in the design layer; this module keeps the paper's analysis)."""
    from ..design.formulations import get_formulation

    return get_formulation(name).solve


@dataclass(frozen=True)
class LPResult:
    r"""The optimum of the LP (9)–(13) (:func:`proposition2_lp`).

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
    design : DesignResult
        The designer's result (formulation ``"sadeghi-lp9-13"``): the same mechanism, with its
        exact (ε, δ)-DP δ from the verifier (``design.achieved_delta``).
    """

    delta: float
    mechanism: Mechanism
    n_variables: int
    n_constraints: int
    nnz: int
    seconds: float
    design: DesignResult


def _lp9_13_nnz(counts: np.ndarray, D: int) -> int:
    r"""Non-zeros of the constraint matrices of the LP (9)–(13) on ``counts``.

    One per α in (13); in the rows (10)–(11) of an ordered edge (a, b) and an output y of the
    support of p(·|a), one per α of a or b whose two-point law (3) puts mass at y, and the δ
    column. The α's of different counts are different variables, so no entry cancels.
    """
    A = np.minimum(counts, D)
    total = int((A * D).sum())
    for a, b in ((slice(None, -1), slice(1, None)), (slice(1, None), slice(None, -1))):
        na, nb, Aa, Ab = counts[a], counts[b], A[a], A[b]
        lo, hi = np.maximum(na - D, 0), na + D
        neg = np.minimum(Ab, nb - lo) - np.maximum(1, nb - hi) + 1  # n_b - j, j = 1..A_b
        pos = np.minimum(D, hi - nb) - np.maximum(1, lo - nb) + 1  # n_b + j, j = 1..D
        total += int(
            (hi - lo + 1 + 2 * Aa * D + D * np.maximum(neg, 0) + Ab * np.maximum(pos, 0)).sum()
        )
    return total


def proposition2_lp(N: int, D: int, *, epsilon: float, eta: float, n_min: int = 1) -> LPResult:
    r"""Proposition 2's LP (9)–(13), as printed: the singleton δ* over the data-dependent noise (3).

    Variables :math:`\alpha_{i_1, i_2, n} \ge 0` for :math:`n \in [n_{min} : N]`,
    :math:`i_1 \in [-A : -1]`, :math:`i_2 \in [1 : D]` (:math:`A = \min\{n, D\}`), summing to 1
    per n (13), and δ; minimise δ subject to (10)–(11) for every output y. It has about
    :math:`ND^2` variables and :math:`8ND^2` non-zeros; the model is the registered formulation
    ``"sadeghi-lp9-13"`` (:mod:`rainbowdp.design.formulations`), built as sparse arrays and
    solved by HiGHS.

    On counts :math:`[D : N]` (``n_min = D``) with :math:`N - D \ge 2D` its optimum is the closed
    form :func:`min_delta`: the data-independent law (14) is then optimal among the
    data-dependent ones too. Shorter ranges allow less (two counts can even reach δ = 0), and
    counts below D raise it (``docs/noise/count.md``).

    Examples
    --------
    >>> res = proposition2_lp(12, 6, epsilon=2.18, eta=0.8, n_min=6)
    >>> round(res.delta, 4)
    0.0049
    """
    D = check_D(D)
    n_min = check_int(n_min, "n_min", minimum=1)
    N = check_int(N, "N", minimum=n_min + 1, maximum=10**6)
    eps = check_epsilon(epsilon, finite_exp=True)
    e = check_eta(eta)
    res = _designer("sadeghi-lp9-13")(N, D, epsilon=eps, eta=e, n_min=n_min)
    return LPResult(
        delta=res.objective,
        mechanism=res.mechanism,
        n_variables=res.n_variables,
        n_constraints=res.n_constraints,
        nnz=_lp9_13_nnz(np.arange(n_min, N + 1), D),
        seconds=res.solve_seconds,
        design=res,
    )


def _law(
    D: int, eps: float, *, eta: float | None, delta: float | None, events: str
) -> tuple[float, float, np.ndarray, DesignResult]:
    r"""The law (14) by the registered LP ``"sadeghi-law-lp"`` (in
    :math:`\beta_i = \alpha_i\bar\eta/2` and η, one edge (n, n + 1)): with ``eta`` given the
    smallest δ, with ``delta`` given the largest η.

    Returns (eta, delta, alpha, result): the solver's η and δ, α = β / Σβ (uniform if β = 0)
    read from the result's mechanism, and the designer's result.
    """
    res = _designer("sadeghi-law-lp")(D, epsilon=eps, eta=eta, delta=delta, events=events)
    row = res.mechanism.probabilities[0]
    beta = row[D + 1 : 2 * D + 1]
    alpha = beta / beta.sum() if beta.sum() > 0 else np.full(D, 1.0 / D)
    e = float(res.solver_objective) if eta is None else float(eta)
    return e, float(res.solved_delta), alpha, res


def _law_lp(
    D: int, E: float, *, eta: float | None, delta: float | None, events: str
) -> tuple[float, float, np.ndarray]:
    """(eta, delta, alpha) of the law's LP at :math:`E = e^\\epsilon` (:func:`_law`; the
    signature ``benchmarks/count.py`` times)."""
    return _law(D, math.log(E), eta=eta, delta=delta, events=events)[:3]


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
    design : DesignResult or None
        The designer's result (formulation ``"sadeghi-law-lp"``, the law on one edge).
    """

    alpha: np.ndarray
    delta: float
    lp_delta: float
    D: int
    epsilon: float
    eta: float
    design: DesignResult | None = None

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
    slack variables t; both orders of an edge give the same value by symmetry of (14) (the
    registered formulation ``"sadeghi-law-lp"``). The returned δ is the verifier's, on the
    optimal law (:func:`law_dp_delta`).

    Examples
    --------
    >>> opt = exact_optimum(6, epsilon=2.18, eta=0.8)
    >>> round(opt.delta, 4) <= round(law_dp_delta(alpha_star(6, epsilon=2.18, eta=0.8),
    ...                                            eta=0.8, epsilon=2.18), 4)
    True
    """
    D = check_D(D)
    eps = check_epsilon(epsilon, finite_exp=True)
    e = check_eta(eta)
    _, lp_d, alpha, res = _law(D, eps, eta=e, delta=None, events="all")
    return ExactOptimum(
        alpha=alpha,
        delta=law_dp_delta(alpha, eta=e, epsilon=eps),
        lp_delta=lp_d,
        D=D,
        epsilon=eps,
        eta=e,
        design=res,
    )


def max_eta(D: int, *, epsilon: float, delta: float, events: Events = "all") -> float:
    r"""The largest η for which a law (14) meets δ at ε, by LP in (β, η).

    ``events="all"``: the exact DP δ; ``"singleton"``: the paper's singleton δ (the inverse of
    :func:`min_delta` in η). The LP (``"sadeghi-law-lp"``) is solved a relative
    1e-6 inside δ, with ``events="all"``
    certified by the verifier, and its η reduced by a relative 1e-9 (safe direction: a smaller
    η is more private) -- check a design with :func:`law_dp_delta`.

    Examples
    --------
    Section IV: D = 8 gives (1.1, 1e-3)-DP with η = 0.5, at the knee of Fig. 3.

    >>> round(max_eta(8, epsilon=1.1, delta=1e-3), 4)
    0.501
    """
    D = check_D(D)
    eps = check_epsilon(epsilon, finite_exp=True)
    dlt = check_delta(delta)
    ev = _check_events(events)
    e, _, _, _ = _law(D, eps, eta=None, delta=dlt, events=ev)
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

    parameters: ClassVar[tuple[Parameter, ...]] = (
        Parameter("D", "integer", "noise support [-D, D]", domain=(1, MAX_D)),
        epsilon_parameter("the epsilon of the design", finite_exp=True),
        Parameter(
            "eta",
            "real",
            "probability of releasing the true count",
            domain=(0.0, 1.0),
            inclusive=(False, False),
            note=" (P2)",
        ),
    )

    D: int
    _: KW_ONLY
    epsilon: float
    eta: float

    def optimum(self) -> CountOptimum:
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

    D = check_D(D)
    e = check_eta(eta)
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
