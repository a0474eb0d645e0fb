r"""The count-query LPs of Sadeghi, Asoodeh and Calmon as registered formulations.

``"sadeghi-lp9-13"``
    Proposition 2's LP (9)–(13) as printed: the smallest singleton δ over the data-dependent
    P1–P3 noise (3) on the counts :math:`[n_{min} : N]`, in the weights
    :math:`\alpha_{i_1, i_2, n}` of Proposition 1's two-point laws.
``"sadeghi-law-lp"``
    The data-independent law (14) on counts n >= D in the variables
    :math:`\beta_i = \alpha_i\bar\eta/2` and η: the smallest δ at a given η, or the largest η at
    a given δ; δ is the singleton δ of (7)–(8) or the exact (ε, δ)-DP δ (the hockey-stick
    divergence, with slack variables).

The models take plain numbers and return a :class:`~rainbowdp.design.DesignResult` whose
mechanism is re-checked by the verifier (``achieved_delta``). The paper's analysis -- the closed
forms, Theorem 3, α* and the bounds -- stays with the family (:mod:`rainbowdp.noise.count`),
which calls these designers and checks them against its closed forms.

References
----------
.. [1] P. Sadeghi, S. Asoodeh, F. du Pin Calmon, "Differentially private mechanisms for count
   queries", arXiv:2007.09374 (2020): P1–P3, Propositions 1–3, the LP (9)–(13).
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from .._validation import check_delta, check_epsilon, check_int
from ..builders import count_path
from ..exceptions import (
    InfeasibleDesignError,
    NotPrivateError,
    ParameterError,
    ParameterTypeError,
    SolverError,
)
from ..graph import RainbowGraph
from ..mechanism import Mechanism
from ..privacy import verify
from ._result import DesignResult
from .formulations import Formulation, register

__all__ = ["LAW_EVENTS", "law_lp", "lp9_13"]

#: The event sets of :func:`law_lp`: events of one output (the paper's) or every event.
LAW_EVENTS = ("singleton", "all")
#: Relative margin of the law's LP at a given δ: solved at δ (1 - LAW_MARGIN), so that the
#: solver's point, feasible within HiGHS's tolerance, meets δ (checked by the verifier).
LAW_MARGIN = 1e-6


def _check_eta(eta: Any) -> float:
    if isinstance(eta, bool) or not isinstance(eta, int | float | np.integer | np.floating):
        raise ParameterTypeError(f"`eta` must be a real number, got eta={eta!r}.")
    x = float(eta)
    if not (0.0 < x < 1.0):
        raise ParameterError(f"`eta` must be in (0, 1) (P2), got eta={eta!r}.")
    return x


def _count_graph(N: int, D: int, n_min: int) -> RainbowGraph:
    """Counts n_min..N, outputs 0..N + D, rainbows by |y - n| (the count-query instance)."""
    return count_path(N, outputs=range(N + D + 1), start=n_min)


def _linprog(c: Any, A_ub: Any, b_ub: Any, A_eq: Any, b_eq: Any, bounds: Any, what: str) -> Any:
    """HiGHS (through :func:`scipy.optimize.linprog`) at tolerances 1e-10; at HiGHS's defaults
    (1e-7) if that stalls. Infeasible: :class:`InfeasibleDesignError`; other failures:
    :class:`SolverError`."""
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


def _result(
    M: Mechanism,
    *,
    name: str,
    method: str,
    value: float,
    eps: float,
    solved_delta: float,
    build: float,
    seconds: float,
    n_variables: int,
    n_constraints: int,
    requested_delta: float | None = None,
) -> DesignResult:
    """The :class:`DesignResult` of a solved count LP, ``achieved_delta`` from the verifier.

    With ``requested_delta`` (a design for a given δ) the result's ``delta`` is the request and
    a law above it raises :class:`NotPrivateError`; without, it is the achieved δ (a design of
    the smallest δ)."""
    achieved = float(verify(M, epsilon=eps, delta=1.0).delta_required)
    if requested_delta is not None and achieved > requested_delta:
        raise NotPrivateError(
            f"the LP's law has delta {achieved!r} > the requested delta={requested_delta!r}."
        )
    return DesignResult(
        mechanism=M,
        objective=value,
        status="optimal",
        solver="HiGHS",
        build_seconds=build,
        solve_seconds=seconds,
        n_variables=n_variables,
        n_constraints=n_constraints,
        repair=0.0,
        repair_weight=0.0,
        solver_objective=value,
        achieved_delta=achieved,
        method=method,
        formulation=name,
        epsilon=eps,
        delta=achieved if requested_delta is None else requested_delta,
        solved_epsilon=eps,
        solved_delta=solved_delta,
    )


# ------------------------------------------------------------------------------ LP (9)-(13)
def _lp9_13_maps(
    counts: np.ndarray, D: int, q: int, eb: float, e: float
) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray]:
    r"""The rows :math:`p_Y(\cdot \mid n)` as a sparse map of the α's plus a constant.

    Returns (Pmap, const, start, A): ``Pmap`` of shape (K q, number of α's) with the masses of
    (3) -- :math:`\bar\eta i_2/(i_2 + |i_1|)` at :math:`n + i_1` and
    :math:`\bar\eta |i_1|/(i_2 + |i_1|)` at :math:`n + i_2` --, ``const`` η at y = n, ``start``
    the first α id of each count and ``A`` = min(n, D).
    """
    from scipy.sparse import coo_array

    K = counts.size
    A_of = np.minimum(counts, D)
    start = np.concatenate([[0], np.cumsum(A_of * D)])
    n_alpha = int(start[-1])
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
    return Pmap, const, start, A_of


def _lp9_13_rows(
    Pmap: Any, const: np.ndarray, counts: np.ndarray, D: int, q: int, E: float
) -> tuple[Any, np.ndarray]:
    r"""(10)–(11) for both orders of every edge: :math:`p(y|a) - E p(y|b) - \delta \le 0` for y
    in the support of p(·|a) (elsewhere the row is :math:`-E p(y|b) - \delta \le 0`, always
    met). Returns (A_ub with the δ column last, b_ub)."""
    from scipy.sparse import coo_array, hstack, vstack

    K = counts.size
    blocks, rhs = [], []
    for ka, kb in ((np.arange(K - 1), np.arange(1, K)), (np.arange(1, K), np.arange(K - 1))):
        lo = np.maximum(counts[ka] - D, 0)
        hi = counts[ka] + D
        ys = [np.arange(l_, h_ + 1) for l_, h_ in zip(lo.tolist(), hi.tolist(), strict=True)]
        ya = np.concatenate([ka[j] * q + ys[j] for j in range(ka.size)])
        yb = np.concatenate([kb[j] * q + ys[j] for j in range(ka.size)])
        blocks.append(Pmap[ya] - E * Pmap[yb])
        rhs.append(E * const[yb] - const[ya])
    Aub = vstack(blocks).tocsr()
    Aub = hstack([Aub, coo_array(-np.ones((Aub.shape[0], 1)))]).tocsc()
    return Aub, np.concatenate(rhs)


def lp9_13(N: int, D: int, *, epsilon: float, eta: float, n_min: int = 1) -> DesignResult:
    r"""Proposition 2's LP (9)–(13), as printed: the singleton δ* over the noise (3).

    Variables :math:`\alpha_{i_1, i_2, n} \ge 0` for :math:`n \in [n_{min} : N]`,
    :math:`i_1 \in [-A : -1]`, :math:`i_2 \in [1 : D]` (:math:`A = \min\{n, D\}`), summing to 1
    per n (13), and δ; minimise δ subject to (10)–(11) for every output y. About
    :math:`ND^2` variables and :math:`8ND^2` non-zeros, built as sparse arrays and solved by
    HiGHS (:func:`scipy.optimize.linprog`).

    Parameters
    ----------
    N, D : int
        Largest count and noise bound (outputs 0..N + D).
    epsilon : float
        ε >= 0.
    eta : float
        η in (0, 1): P(Z = 0) (P2).
    n_min : int, default 1
        Smallest count.

    Returns
    -------
    DesignResult
        ``objective`` is the LP's optimal singleton δ (the solver's value); ``mechanism`` the
        optimal rows on the counts n_min..N (each normalised), P1–P3 within the solver's
        tolerance; ``achieved_delta`` its exact (ε, δ)-DP δ from the verifier.
        ``method="min_delta"``, ``formulation="sadeghi-lp9-13"``.

    Examples
    --------
    >>> res = lp9_13(12, 6, epsilon=2.18, eta=0.8, n_min=6)
    >>> round(res.objective, 4), res.achieved_delta >= res.objective
    (0.0049, True)
    """
    D = check_int(D, "D", minimum=1, maximum=100_000)
    n_min = check_int(n_min, "n_min", minimum=1)
    N = check_int(N, "N", minimum=n_min + 1, maximum=10**6)
    eps = check_epsilon(epsilon, finite_exp=True)
    e = _check_eta(eta)
    t0 = time.perf_counter()
    E = math.exp(eps)
    counts = np.arange(n_min, N + 1)
    K = counts.size
    q = N + D + 1
    Pmap, const, start, A_of = _lp9_13_maps(counts, D, q, 1.0 - e, e)
    n_alpha = int(start[-1])
    Aub, b_ub = _lp9_13_rows(Pmap, const, counts, D, q, E)
    from scipy.sparse import coo_array

    eq_rows = np.repeat(np.arange(K), A_of * D)
    Aeq = coo_array(
        (np.ones(n_alpha), (eq_rows, np.arange(n_alpha))), shape=(K, n_alpha + 1)
    ).tocsc()
    c = np.zeros(n_alpha + 1)
    c[n_alpha] = 1.0
    t1 = time.perf_counter()
    res = _linprog(c, Aub, b_ub, Aeq, np.ones(K), (0, None), "the LP (9)-(13)")
    seconds = time.perf_counter() - t1
    alpha = np.maximum(res.x[:n_alpha], 0.0)
    P = (Pmap @ alpha).reshape(K, q) + const.reshape(K, q)
    P /= P.sum(axis=1, keepdims=True)
    delta = float(res.x[n_alpha])
    return _result(
        Mechanism(_count_graph(N, D, n_min), P),
        name="sadeghi-lp9-13",
        method="min_delta",
        value=delta,
        eps=eps,
        solved_delta=delta,
        build=t1 - t0,
        seconds=seconds,
        n_variables=n_alpha + 1,
        n_constraints=Aub.shape[0] + K,
    )


def _lp9_13_example() -> dict[str, Any]:
    return {"N": 8, "D": 2, "epsilon": 0.25, "eta": 0.1, "n_min": 2}


def _lp9_13_check(
    result: DesignResult, *, N: int, D: int, epsilon: float, eta: float, n_min: int = 1
) -> bool:
    """The same optimum by the general min-δ LP in the probabilities, with P1–P3 as side
    constraints (the P1–P3 laws at n are exactly the convex hull of Proposition 1's two-point
    laws, so both LPs admit the same mechanisms)."""
    from ._constraints import answer_probability, support, zero_bias
    from ._min_delta import min_delta

    G = _count_graph(N, D, n_min)
    counts = np.arange(n_min, N + 1)
    cons = [support(G, np.minimum(counts, D), D), answer_probability(G, eta), zero_bias(G)]
    other = min_delta(G, epsilon=epsilon, events="singleton", constraints=cons)
    return abs(other.objective - result.objective) <= 1e-8


# ------------------------------------------------------------------------------ law (14)
def _law_rows(D: int, E: float, events: str) -> tuple[np.ndarray, int]:
    r"""The rows of the law's LP in (β_1..β_D, η, [t], δ): the singleton rows
    :math:`p(y) - E p(y - 1) \le \delta` or, for every event,
    :math:`t_y \ge p(y) - E p(y - 1)`, :math:`\sum_y t_y \le \delta`. Returns (rows, δ index).
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
    rows_ = []
    if events == "all":  # t_y >= diff_y . v, sum t <= delta
        for y in range(ny):
            r = np.zeros(nv)
            r[: D + 1] = diff[y]
            r[D + 1 + y] = -1.0
            rows_.append(r)
        r = np.zeros(nv)
        r[D + 1 : D + 1 + ny] = 1.0
        r[di] = -1.0
        rows_.append(r)
    else:
        for y in range(ny):
            r = np.zeros(nv)
            r[: D + 1] = diff[y]
            r[di] = -1.0
            rows_.append(r)
    return np.array(rows_), di


def law_lp(
    D: int,
    *,
    epsilon: float,
    eta: float | None = None,
    delta: float | None = None,
    events: str = "all",
) -> DesignResult:
    r"""The law (14) on counts >= D by LP: the smallest δ at η, or the largest η at δ.

    Variables :math:`\beta_i = \alpha_i\bar\eta/2 \ge 0` and η with
    :math:`\eta + 2\sum_i\beta_i = 1`; the constraints are those of one edge (n, n + 1) -- its
    reverse is the same by the symmetry of (14), and every edge of counts >= D is a translate.
    ``events="singleton"``: :math:`p(y) - e^\epsilon p(y - 1) \le \delta` for every output
    (the paper's (7)–(8)); ``"all"``: the hockey-stick divergence
    :math:`\sum_y (p(y) - e^\epsilon p(y - 1))_+ \le \delta` (exact DP), with slack variables.

    Parameters
    ----------
    D : int
        Noise bound.
    epsilon : float
        ε >= 0.
    eta, delta : float
        Give exactly one: with ``eta`` minimise δ, with ``delta`` maximise η.
    events : {"all", "singleton"}, default "all"

    Returns
    -------
    DesignResult
        ``objective`` is the LP's optimum (δ, or η when ``delta`` is given; the solver's
        value), ``solved_delta`` the LP's δ (with ``delta`` given, solved a relative
        :data:`LAW_MARGIN` inside the request). ``mechanism`` is the law
        on the counts D, D + 1 (outputs 0..2D + 1): the solver's η at D and its
        :math:`\beta_i` (clipped at 0) at D ± i, normalised to sum to 1. ``achieved_delta``
        is that mechanism's exact DP δ from the verifier; with ``delta`` given and ``events="all"``,
        ``delta`` is the request and a law above it raises
        :class:`~rainbowdp.exceptions.NotPrivateError` (else ``delta`` is the achieved DP δ: a
        singleton δ bounds events of one output only). ``method="lp"`` with ``delta`` given,
        else ``"min_delta"``; ``formulation="sadeghi-law-lp"``.

    Examples
    --------
    >>> r = law_lp(6, epsilon=2.18, eta=0.8, events="singleton")
    >>> round(r.objective, 4)                       # delta_3 of Fig. 1
    0.0049
    >>> round(law_lp(8, epsilon=1.1, delta=1e-3).objective, 4)   # Section IV
    0.501
    """
    D = check_int(D, "D", minimum=1, maximum=100_000)
    eps = check_epsilon(epsilon, finite_exp=True)
    if not isinstance(events, str) or events not in LAW_EVENTS:
        raise ParameterError(f"`events` must be one of {LAW_EVENTS}, got events={events!r}.")
    if (eta is None) == (delta is None):
        raise ParameterError(
            f"give exactly one of `eta` and `delta`, got eta={eta!r}, delta={delta!r}."
        )
    t0 = time.perf_counter()
    A_ub, di = _law_rows(D, math.exp(eps), events)
    nv = A_ub.shape[1]
    Aeq = np.zeros((1, nv))
    Aeq[0, :D] = 2.0
    Aeq[0, D] = 1.0
    bounds: list[tuple[float | None, float | None]] = [(0, None)] * nv
    c = np.zeros(nv)
    if eta is not None:
        e = _check_eta(eta)
        bounds[D] = (e, e)
        c[di] = 1.0
    else:
        dlt = check_delta(delta)
        bounds[D] = (0.0, 1.0)
        # solved inside the request, so that the solver's point (feasible within its
        # tolerance) still meets delta: a relative LAW_MARGIN
        solved = dlt * (1.0 - LAW_MARGIN)
        bounds[di] = (solved, solved)
        c[D] = -1.0
    t1 = time.perf_counter()
    res = _linprog(c, A_ub, np.zeros(A_ub.shape[0]), Aeq, [1.0], bounds, "the law's LP")
    seconds = time.perf_counter() - t1
    beta = np.maximum(res.x[:D], 0.0)
    law = np.concatenate([beta[::-1], [max(float(res.x[D]), 0.0)], beta])
    # the rows sum to 1 within the solver's tolerance: the law is normalised (a law with less
    # mass would understate its delta), and certified below
    law = law / law.sum()
    P = np.zeros((2, 2 * D + 2))
    P[0, : 2 * D + 1] = law
    P[1, 1:] = law
    M = Mechanism(_count_graph(D + 1, D, D), P)
    solved_delta = float(res.x[di])
    return _result(
        M,
        name="sadeghi-law-lp",
        method="min_delta" if eta is not None else "lp",
        value=solved_delta if eta is not None else float(res.x[D]),
        eps=eps,
        solved_delta=solved_delta,
        build=t1 - t0,
        seconds=seconds,
        n_variables=nv,
        n_constraints=A_ub.shape[0] + 1,
        # a singleton delta is not a DP delta: then the result states the achieved DP delta
        requested_delta=None if delta is None or events != "all" else dlt,
    )


def _law_lp_example() -> dict[str, Any]:
    return {"D": 6, "epsilon": 2.18, "eta": 0.8, "events": "all"}


def _law_lp_check(
    result: DesignResult,
    *,
    D: int,
    epsilon: float,
    eta: float | None = None,
    delta: float | None = None,
    events: str = "all",
) -> bool:
    r"""The δ of the LP's law measured on its mechanism -- the verifier's exact δ for every
    event, the largest :math:`p(y) - e^\epsilon p'(y)` over both orders for single outputs --
    equals the LP's optimum (given η) or meets the given δ (the largest η)."""
    if events == "all":
        measured = result.achieved_delta
    else:
        P = result.mechanism.probabilities
        x = math.exp(epsilon)
        measured = float(max((P[0] - x * P[1]).max(), (P[1] - x * P[0]).max()))
    if eta is not None:
        return abs(measured - result.objective) <= 1e-8
    return delta is not None and measured <= delta + 1e-8


register(
    Formulation(
        name="sadeghi-lp9-13",
        kind="lp",
        reference="Sadeghi, Asoodeh, Calmon (2020), Proposition 2, LP (9)-(13)",
        summary=(
            "minimise the singleton delta over data-dependent P1-P3 count noise (3): weights "
            "of Proposition 1's two-point laws per count"
        ),
        solve=lp9_13,
        example=_lp9_13_example,
        check=_lp9_13_check,
    )
)
register(
    Formulation(
        name="sadeghi-law-lp",
        kind="lp",
        reference="Sadeghi, Asoodeh, Calmon (2020), law (14), (7)-(8); exact DP beyond the paper",
        summary=(
            "the data-independent count law (14): minimise the singleton or exact delta at eta, "
            "or maximise eta at delta"
        ),
        solve=law_lp,
        example=_law_lp_example,
        check=_law_lp_check,
    )
)
