r"""Kadam et al.'s models on one noise PMF: the MILP (13) as printed, its min-δ variant (15)
and the LP of (13) with the leak set fixed.

The design variable is one PMF f on the noise values (the columns of a tying map T: every row
of the mechanism is f permuted, :math:`P_a(v) = f(T[a, v])`, as for modulo-addition noise on
the circulant, :func:`rainbowdp.noise.modulo.tying`). Each ordered pair of neighbours (a, b)
maps a noise value η (:math:`T[a, v] = \eta`) to :math:`\eta' = T[b, v]`; on the circulant
these *shift tables* are :math:`\eta \mapsto \eta + \mu` (eq. (7)), one per μ. With the
distortion :math:`\rho_\eta` (eq. (9)), MILP (13) is

.. math::

    \min_{f, y, u} \sum_\eta \rho_\eta f(\eta) \quad\text{s.t.}\quad
    \begin{aligned}[t]
    & \textstyle\sum_\eta f(\eta) = 1 \quad (13b), \qquad \sum_\eta y_\eta \le \delta \quad (13c),\\
    & y_\eta \le u_\eta,\ u_\eta + f(\eta) - y_\eta \le 1,\ u_\eta - f(\eta) + y_\eta \le 1
      \quad (13c\text{–}e),\\
    & f(\eta) - e^\epsilon f(\eta') \le u_\eta \quad (13f),\qquad
      e^\epsilon f(\eta') - f(\eta) + e^\epsilon u_\eta \le e^\epsilon \quad (13g),
    \end{aligned}

for every table :math:`\eta \mapsto \eta'`, with :math:`u_\eta \in \{0, 1\}`: one indicator and
one :math:`y_\eta = u_\eta f(\eta)` per η, *shared by every shift* (each mass either meets every
ratio constraint or is counted as leaking once, and (13g) makes a leaking mass reach
:math:`e^\epsilon f(\eta')` for every shift). (15) minimises :math:`\sum_\eta y_\eta` subject to
:math:`\sum_\eta \rho_\eta f(\eta) \le \bar\rho` (15b) and (13b)–(13h).

The general designer's MILP (:func:`rainbowdp.design.milp`) differs: ``"definition"`` gives
every ordered pair its own indicators (Definition 2 exactly), ``"kadam13-per-node"`` shares them
per node but has no (13g) (``docs/errata.md``, item 7).

References
----------
.. [1] N. Kadam, A. Scaglione, N. Ravi, S. Peisert, B. Lunghino, A. Shumavon, "Optimum noise
   mechanism for differentially private queries in discrete finite sets", Cybersecurity (2024),
   MILP (13a)–(13h), min-δ (15).
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import check_delta, check_epsilon, real_array
from .._verify.repair import find_mixing
from ..exceptions import InfeasibleDesignError, NotPrivateError, ParameterError, ParameterTypeError
from ..graph import RainbowGraph, check_graph
from ..mechanism import Mechanism
from ..privacy import pdp_delta
from . import solvers
from ._model import EPS_MODEL_MAX, SAFETY_MARGIN, all_pairs, safety_margin
from ._result import DesignResult
from ._tying import check_tied

if TYPE_CHECKING:
    import pulp

__all__ = ["PRINTED_MARGIN", "kadam13_fixed_leaks", "kadam13_printed", "kadam15_min_delta"]

#: Default margin of the non-leaking ratios of the printed MILP:
#: :math:`f(\eta) \le e^\epsilon f(\eta') - m` (as the general designer's, so that ties of the
#: solver's float point do not count as leaks).
PRINTED_MARGIN = 1e-7


# ---------------------------------------------------------------------------------- the instance
@dataclass(frozen=True)
class Instance:
    """A checked one-PMF problem: graph, tying map, distortion and shift tables."""

    G: RainbowGraph
    T: np.ndarray
    rho: np.ndarray
    tables: list[np.ndarray]
    eps: float

    @property
    def size(self) -> int:
        """Number of noise values (length of f)."""
        return int(self.rho.size)

    def mechanism(self, f: np.ndarray) -> Mechanism:
        """The mechanism with rows ``f`` permuted by the tying map."""
        return Mechanism(self.G, f[self.T])

    def pdp_delta(self, f: np.ndarray) -> float:
        """The sound PDP leakage of ``f`` at ε (:func:`rainbowdp.privacy.pdp_delta`)."""
        return pdp_delta(self.mechanism(f), self.eps)


def shift_tables(G: RainbowGraph, T: np.ndarray) -> list[np.ndarray]:
    r"""The distinct maps :math:`\eta \mapsto \eta'` of the ordered pairs of neighbours.

    For the pair (a, b) and output v, :math:`\eta = T[a, v]` is compared with
    :math:`\eta' = T[b, v]`; each pair gives one table (``table[η] = η'``). Sorted
    lexicographically, duplicates dropped. On
    the circulant of modulo noise they are the shifts :math:`\eta \mapsto \eta + \mu`.
    """
    a, b = all_pairs(G)
    if a.size == 0:
        return []
    inv = np.argsort(T[a], axis=1)  # inv[k, eta]: the output v with T[a_k, v] = eta
    tabs = np.take_along_axis(T[b], inv, axis=1)
    uniq = np.unique(tabs, axis=0)
    return [row.astype(np.intp) for row in uniq]


def check_instance(G: Any, epsilon: Any, tied: Any, distortion: Any) -> Instance:
    """Validate the arguments of the one-PMF designers."""
    g = check_graph(G, "G")
    eps = check_epsilon(epsilon, finite_exp=True)
    T = check_tied(g, tied)
    if T is None:
        raise ParameterError("`tied` is required: the one-PMF models need a tying map.")
    q = g.n_outputs
    if not np.array_equal(np.sort(T, axis=1), np.broadcast_to(np.arange(q), T.shape)):
        raise ParameterError(
            "`tied` must be a tying map of additive noise: every row a permutation of 0..q-1."
        )
    rho = real_array(distortion, "distortion").ravel().astype(np.float64)
    if rho.shape != (q,) or not np.all(np.isfinite(rho)):
        raise ParameterError(
            f"`distortion` must be {q} finite numbers (one per noise value), got shape {rho.shape}."
        )
    return Instance(g, T, rho, shift_tables(g, T), eps)


# ---------------------------------------------------------------------------------- MILP (13)
@dataclass(frozen=True)
class _Printed:
    """The PuLP model of (13)/(15) and its variables."""

    prob: pulp.LpProblem
    f: list[pulp.LpVariable]
    u: list[pulp.LpVariable]


def _printed_model(inst: Instance, dlt: float, margin: float, rho_max: float | None) -> _Printed:
    r"""MILP (13) as printed (or (15) with ``rho_max``), rows (13b)–(13g) and a valid cut."""
    import pulp

    size, rho = inst.size, inst.rho
    x = math.exp(min(inst.eps, EPS_MODEL_MAX))
    budget = dlt - min(dlt / 2, margin)
    prob = pulp.LpProblem("kadam13_printed", pulp.LpMinimize)
    f = [prob.add_variable(f"f_{e}", 0, 1) for e in range(size)]
    y = [prob.add_variable(f"y_{e}", 0, 1) for e in range(size)]
    u = [prob.add_variable(f"u_{e}", cat=pulp.LpBinary) for e in range(size)]
    distortion_sum = pulp.lpSum(float(rho[e]) * f[e] for e in range(size))
    if rho_max is None:
        prob += distortion_sum
        prob += pulp.lpSum(y) <= budget, "13c_budget"
    else:  # (15): the leaked mass is the objective, the distortion a constraint (15b)
        prob += pulp.lpSum(y)
        prob += distortion_sum <= rho_max, "15b"
    prob += pulp.lpSum(f) == 1, "13b"
    for e in range(size):
        prob += y[e] - u[e] <= 0, f"13c_{e}"
        prob += u[e] + f[e] - y[e] <= 1, f"13d_{e}"
        prob += u[e] - f[e] + y[e] <= 1, f"13e_{e}"
        for k, nxt in enumerate(inst.tables):
            g = f[int(nxt[e])]
            prob += f[e] - x * g - (1 + margin) * u[e] <= -margin, f"13f_{e}_{k}"
            prob += x * g - f[e] + x * u[e] <= x, f"13g_{e}_{k}"
            # a valid cut (y = u f and a non-leaking mass meets the ratio): it makes the LP
            # relaxation at least as tight as the (eps, delta)-DP LP, which speeds the search
            prob += f[e] - x * g - y[e] <= 0, f"cut_{e}_{k}"
    return _Printed(prob, f, u)


def _fixed_leaks_lp(
    inst: Instance, leak: np.ndarray, budget: float | None, rho_max: float | None
) -> np.ndarray | None:
    r"""The LP of (13) with the leak set L fixed, at the closed forms' margin; None on failure.

    Non-leaking masses get :math:`f(\eta) \le e^{\epsilon_b} f(\eta')` (:math:`\epsilon_b` the
    ε of :func:`~rainbowdp.design._model.safety_margin`, a relative margin of about 1e-12),
    leaking ones (13g) :math:`f(\eta) \ge e^\epsilon f(\eta')`, and :math:`\sum_{\eta \in L}
    f(\eta)` at most ``budget`` (or, with ``rho_max``, the distortion at most ``rho_max`` and
    the leaked mass minimised, (15)).
    """
    from scipy import sparse
    from scipy.optimize import linprog

    rho, size = inst.rho, inst.size
    eps = min(inst.eps, EPS_MODEL_MAX)
    x_b, x = math.exp(safety_margin(eps, 0.0)[0]), math.exp(eps)
    idx = np.arange(size)
    rows, cols, vals = [], [], []
    count = 0
    for nxt in inst.tables:
        for mask, first, second, a, b in (
            (~leak & (nxt != idx), idx, nxt, 1.0, -x_b),  # f(e) - e^eps_b f(e') <= 0
            (leak & (nxt != idx), nxt, idx, x, -1.0),  # (13g): e^eps f(e') - f(e) <= 0
        ):
            m = int(mask.sum())
            r = np.arange(count, count + m)
            rows += [r, r]
            cols += [first[mask], second[mask]]
            vals += [np.full(m, a), np.full(m, b)]
            count += m
    b_ub: list[Any] = [np.zeros(count)]
    if rho_max is None:
        c = rho
        rows.append(np.full(int(leak.sum()), count))
        cols.append(idx[leak])
        vals.append(np.ones(int(leak.sum())))
        b_ub.append([budget])
    else:
        c = leak.astype(float)
        rows.append(np.full(size, count))
        cols.append(idx)
        vals.append(rho.astype(float))
        b_ub.append([rho_max])
    count += 1
    A = sparse.csr_array(
        (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(count, size)
    )
    res = linprog(
        c,
        A_ub=A,
        b_ub=np.concatenate(b_ub),
        A_eq=np.ones((1, size)),
        b_eq=[1.0],
        bounds=(0, 1),
        method="highs-ds",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    if res.status != 0:
        return None
    f = np.maximum(res.x, 0.0)
    return np.asarray(f / f.sum())


def _result(
    inst: Instance,
    f: np.ndarray,
    *,
    status: str,
    solver: str,
    seconds: float,
    build: float,
    n_variables: int,
    n_constraints: int,
    n_integer: int,
    repair_weight: float,
    solver_objective: float,
    method: str,
    formulation: str,
    delta: float,
    solved_delta: float,
    objective: float | None = None,
) -> DesignResult:
    """The :class:`DesignResult` of a one-PMF design (utility: minus the distortion, summed
    over the nodes, as for ``design.milp(..., utility=-rho[T], tied=T)``)."""
    M = inst.mechanism(f)
    achieved = inst.pdp_delta(f)
    utility = -float(inst.rho @ f) * inst.G.n_nodes
    return DesignResult(
        mechanism=M,
        objective=utility if objective is None else objective,
        status=status,
        solver=solver,
        build_seconds=build,
        solve_seconds=seconds,
        n_variables=n_variables,
        n_constraints=n_constraints,
        repair=max(0.0, solver_objective - utility) if objective is None else 0.0,
        repair_weight=repair_weight,
        solver_objective=solver_objective,
        achieved_delta=achieved,
        method=method,
        formulation=formulation,
        epsilon=inst.eps,
        delta=delta,
        n_integer_variables=n_integer,
        solved_epsilon=min(inst.eps, EPS_MODEL_MAX),
        solved_delta=solved_delta,
    )


def _solve_printed(
    inst: Instance,
    dlt: float,
    margin: float,
    solver: Any,
    time_limit: float | None,
    rho_max: float | None,
) -> tuple[np.ndarray, solvers.SolveOutcome, bool, float, int]:
    """Solve (13)/(15) and polish its point by the LP with its leak set fixed.

    Returns the PMF, the solver outcome, whether the polished point was taken, the build time
    and the number of rows."""
    t0 = time.perf_counter()
    model = _printed_model(inst, dlt, margin, rho_max)
    build = time.perf_counter() - t0
    slv = solvers.make_solver(solver, time_limit=time_limit)
    out = solvers.solve(model.prob, slv, time_limit=time_limit)
    pmf = np.array([max(v.varValue or 0.0, 0.0) for v in model.f])
    pmf /= pmf.sum()
    # polish: the LP with the MILP's leak set fixed, at the closed forms' tiny margins
    leak = np.array([v.varValue or 0.0 for v in model.u]) > 0.5
    budget = dlt - min(dlt / 2, SAFETY_MARGIN)
    polished = _fixed_leaks_lp(inst, leak, budget, rho_max)
    used = False
    rho = inst.rho
    if polished is not None:
        if rho_max is None:
            used = inst.pdp_delta(polished) <= dlt and rho @ polished <= rho @ pmf + 1e-12
        else:
            used = (
                inst.pdp_delta(polished) <= inst.pdp_delta(pmf)
                and rho @ polished <= rho_max + 1e-12
            )
        if used:
            pmf = polished
    return pmf, out, used, build, 2 + 3 * inst.size * (1 + len(inst.tables))


def kadam13_printed(
    G: RainbowGraph,
    *,
    epsilon: float,
    delta: float,
    tied: Any,
    distortion: Any,
    margin: float = PRINTED_MARGIN,
    solver: Any = None,
    time_limit: float | None = None,
) -> DesignResult:
    r"""The least-distortion noise PMF under Kadam et al.'s MILP (13), exactly as printed.

    One indicator :math:`u_\eta` and one :math:`y_\eta` per noise value, shared by every shift
    table of ``G`` and ``tied`` (module notes), with (13g). The non-leaking side keeps the
    margin m (``margin``), the budget is :math:`\delta - \min(\delta/2, m)`; the solver's point
    is polished by the LP with its leak set fixed (:func:`kadam13_fixed_leaks`), checked with
    the sound :func:`rainbowdp.privacy.pdp_delta` and, if a tie still leaks, mixed with the
    uniform PMF by the smallest weight that passes. At δ >= 1 no leak can exceed the budget:
    the point mass on a least-distortion value is returned without a model (solver
    ``"closed form (delta >= 1)"``).

    Parameters
    ----------
    G : RainbowGraph
        The graph (e.g. :func:`rainbowdp.noise.modulo.graph`).
    epsilon, delta : float
        ε >= 0 (e^ε finite), δ in [0, 1].
    tied : array_like
        (N, q) tying map of additive noise: every row a permutation of 0..q − 1
        (:func:`rainbowdp.noise.modulo.tying`).
    distortion : array_like
        :math:`\rho_\eta`, one per noise value (eq. (9)), minimised.
    margin : float, default 1e-7
    solver, time_limit
        As for :func:`rainbowdp.design.milp`.

    Returns
    -------
    DesignResult
        Rows ``f[tied]``; ``objective`` minus the distortion summed over the nodes;
        ``achieved_delta`` the sound leakage, at most δ. ``method="milp"``,
        ``formulation="kadam13-printed"``.

    Examples
    --------
    >>> from rainbowdp.builders import circulant
    >>> import numpy as np
    >>> n = 8
    >>> T = (np.arange(n + 1)[None, :] - np.arange(n + 1)[:, None]) % (n + 1)
    >>> G = circulant(n, [1, 2, 3], directed=True)
    >>> rho = 1.0 * (np.arange(n + 1) > 0)    # the error rate
    >>> r = kadam13_printed(G, epsilon=1.5, delta=0.1238, tied=T, distortion=rho)
    >>> round(float(r.mechanism.probabilities[0, 0]), 4)   # Kadam et al., Table 1
    0.5548
    """
    inst = check_instance(G, epsilon, tied, distortion)
    dlt = check_delta(delta)
    size = inst.size
    if dlt >= 1.0:
        # No leak can exceed the whole mass 1 <= delta, so the budget never binds: a point mass
        # on a least-distortion value is the exact optimum. The MILP would only find it up to
        # its margin, after a long search on a degenerate model. No model is built.
        pmf = np.zeros(size)
        pmf[int(np.argmin(inst.rho))] = 1.0
        solver_obj = -float(inst.rho @ pmf) * inst.G.n_nodes
        return _result(
            inst,
            pmf,
            status="optimal",
            solver="closed form (delta >= 1)",
            seconds=0.0,
            build=0.0,
            n_variables=0,
            n_constraints=0,
            n_integer=0,
            repair_weight=0.0,
            solver_objective=solver_obj,
            method="milp",
            formulation="kadam13-printed",
            delta=dlt,
            solved_delta=dlt,
        )
    pmf, out, _, build, n_rows = _solve_printed(inst, dlt, margin, solver, time_limit, None)
    solver_obj = -float(inst.rho @ pmf) * inst.G.n_nodes

    def ok(rows: np.ndarray) -> bool:
        return inst.pdp_delta(rows[0]) <= dlt

    lam = 0.0
    if not ok(pmf[None, :]):
        found = find_mixing(pmf[None, :], np.array([True]), ok, 1e-12)
        if found is None:  # pragma: no cover - mixing with the uniform PMF always ends private
            raise NotPrivateError("the printed MILP's solution could not be made private.")
        lam, rows = found
        pmf = rows[0]
    return _result(
        inst,
        pmf,
        status=out.status,
        solver=out.solver,
        seconds=out.seconds,
        build=build,
        n_variables=3 * size,
        n_constraints=n_rows,
        n_integer=size,
        repair_weight=lam,
        solver_objective=solver_obj,
        method="milp",
        formulation="kadam13-printed",
        delta=dlt,
        solved_delta=dlt - min(dlt / 2, margin),
    )


def kadam15_min_delta(
    G: RainbowGraph,
    *,
    epsilon: float,
    tied: Any,
    distortion: Any,
    max_distortion: float,
    margin: float = PRINTED_MARGIN,
    solver: Any = None,
    time_limit: float | None = None,
) -> DesignResult:
    r"""The noise PMF of least leakage whose expected distortion is at most a cap: Kadam et
    al.'s (15), the min-δ variant of the printed MILP (13).

    Minimise :math:`\sum_\eta y_\eta` subject to :math:`\sum_\eta \rho_\eta f(\eta) \le
    \bar\rho` (15b) and (13b)–(13h) (see :func:`kadam13_printed` for the arguments). The
    solver's point is polished by the LP with its leak set fixed (kept if it leaks no more).

    Returns
    -------
    DesignResult
        ``objective``, ``delta`` and ``achieved_delta`` the sound leakage of the PMF found
        (:func:`rainbowdp.privacy.pdp_delta`); ``certify`` at (ε, ``achieved_delta``) answers
        private. ``method="min_delta"``, ``formulation="kadam15-min-delta"``.

    Raises
    ------
    InfeasibleDesignError
        If no PMF has distortion at most ``max_distortion`` (e.g. a negative cap).

    Examples
    --------
    >>> from rainbowdp.builders import circulant
    >>> import numpy as np
    >>> T = (np.arange(9)[None, :] - np.arange(9)[:, None]) % 9
    >>> G = circulant(8, [1, 2, 3], directed=True)
    >>> r = kadam15_min_delta(G, epsilon=1.5, tied=T, distortion=1.0 * (np.arange(9) > 0),
    ...                       max_distortion=1 - 0.5548)
    >>> round(r.achieved_delta, 4)       # Table 1: f*(0) = 0.5548 needs delta = 0.1238
    0.1238
    """
    inst = check_instance(G, epsilon, tied, distortion)
    if isinstance(max_distortion, bool | np.bool_) or not isinstance(max_distortion, numbers.Real):
        raise ParameterTypeError(
            f"`max_distortion` must be a real number, got max_distortion={max_distortion!r}."
        )
    cap = float(max_distortion)
    if not math.isfinite(cap):
        raise ParameterError(f"`max_distortion` must be finite, got max_distortion={cap!r}.")
    pmf, out, _, build, n_rows = _solve_printed(inst, 1.0, margin, solver, time_limit, cap)
    achieved = inst.pdp_delta(pmf)
    return _result(
        inst,
        pmf,
        status=out.status,
        solver=out.solver,
        seconds=out.seconds,
        build=build,
        n_variables=3 * inst.size,
        n_constraints=n_rows,
        n_integer=inst.size,
        repair_weight=0.0,
        solver_objective=achieved,
        method="min_delta",
        formulation="kadam15-min-delta",
        delta=achieved,
        solved_delta=achieved,
        objective=achieved,
    )


def kadam13_fixed_leaks(
    G: RainbowGraph,
    *,
    epsilon: float,
    delta: float,
    tied: Any,
    distortion: Any,
    leaks: Any,
) -> DesignResult:
    r"""The LP of Kadam et al.'s (13) with the leak set fixed: the best PMF whose leaking
    masses are exactly those of ``leaks`` (a boolean per noise value).

    Non-leaking masses meet :math:`f(\eta) \le e^{\epsilon_b} f(\eta')` for every shift table
    (:math:`\epsilon_b` a relative margin of about 1e-12 inside ε), leaking ones (13g)
    :math:`f(\eta) \ge e^\epsilon f(\eta')`, and :math:`\sum_{\eta \in L} f(\eta) \le \delta_b`.
    With ``leaks`` all False it is LP (14) (δ = 0). The solution is checked with the sound
    :func:`rainbowdp.privacy.pdp_delta` and mixed with the uniform PMF if a tie still leaks.

    Raises
    ------
    InfeasibleDesignError
        If the LP has no solution for this leak set.

    Examples
    --------
    >>> from rainbowdp.builders import circulant
    >>> import numpy as np
    >>> T = (np.arange(9)[None, :] - np.arange(9)[:, None]) % 9
    >>> G = circulant(8, [1, 2, 3], directed=True)
    >>> r = kadam13_fixed_leaks(G, epsilon=1.5, delta=0.0, tied=T,
    ...                         distortion=1.0 * (np.arange(9) > 0), leaks=np.zeros(9, bool))
    >>> round(float(r.mechanism.probabilities[0, 0]), 4)   # Lemma 4 (Table 1, delta = 0)
    0.5432
    """
    inst = check_instance(G, epsilon, tied, distortion)
    dlt = check_delta(delta)
    raw = np.asarray(leaks)
    if raw.dtype != np.bool_ and not (
        np.issubdtype(raw.dtype, np.integer) and np.isin(raw, (0, 1)).all()
    ):
        raise ParameterTypeError(
            f"`leaks` must be booleans (or 0/1), got an array of dtype {raw.dtype}."
        )
    leak = raw.astype(bool).ravel()
    if leak.shape != (inst.size,):
        raise ParameterError(f"`leaks` must be {inst.size} booleans, got shape {leak.shape}.")
    t0 = time.perf_counter()
    f = _fixed_leaks_lp(inst, leak, dlt - min(dlt / 2, SAFETY_MARGIN), None)
    seconds = time.perf_counter() - t0
    if f is None:
        raise InfeasibleDesignError("the LP of (13) with this leak set has no solution.")
    solver_obj = -float(inst.rho @ f) * inst.G.n_nodes
    lam = 0.0
    if inst.pdp_delta(f) > dlt:
        found = find_mixing(
            f[None, :], np.array([True]), lambda r: inst.pdp_delta(r[0]) <= dlt, 1e-12
        )
        if found is None:  # pragma: no cover - mixing with the uniform PMF always ends private
            raise NotPrivateError("the fixed-leak LP's solution could not be made private.")
        lam, rows = found
        f = rows[0]
    return _result(
        inst,
        f,
        status="optimal",
        solver="HiGHS",
        seconds=seconds,
        build=0.0,
        n_variables=inst.size,
        n_constraints=len(inst.tables) * inst.size + 2,
        n_integer=0,
        repair_weight=lam,
        solver_objective=solver_obj,
        method="lp",
        formulation="kadam13-fixed-leaks",
        delta=dlt,
        solved_delta=dlt - min(dlt / 2, SAFETY_MARGIN),
    )


#: The one-PMF designers by name (for the registry).
DESIGNERS: dict[str, Callable[..., DesignResult]] = {
    "kadam13-printed": kadam13_printed,
    "kadam15-min-delta": kadam15_min_delta,
    "kadam13-fixed-leaks": kadam13_fixed_leaks,
}
