r"""The mechanism with the smallest δ at a given ε, by linear programming.

:func:`min_delta` solves

.. math::

    \min_{P, \delta}\; \delta \quad\text{s.t.}\quad
    \sum_v P_d(v) = 1,\; \ell_d(v) \le P_d(v) \le u_d(v),\; P_d = \pi_d\;(d \text{ fixed}),
    \text{ side constraints},

and, for every constrained ordered pair :math:`(a, b)` of neighbours, one of two event sets:

``events="all"``
    :math:`t_{ab}(v) \ge P_a(v) - e^\epsilon P_b(v)`, :math:`t \ge 0`,
    :math:`\sum_v t_{ab}(v) \le \delta`: the hockey-stick divergence, i.e. every event
    :math:`S \subseteq V`, exactly as in :func:`~rainbowdp.design.lp` with δ a variable;
``events="singleton"``
    :math:`P_a(v) - e^\epsilon P_b(v) \le \delta` for every output v: events of size one only
    (Sadeghi, Asoodeh and Calmon's LP (7)-(8) for count queries). Its optimum is a lower bound
    on the (ε, δ)-DP δ of the mechanism, which may be larger.

Two fixed neighbours give a constant lower bound on δ (the bound of the variable). No repair is
applied: the objective is the solver's δ for the stated events, and the result's
``achieved_delta`` is the exact (ε, δ)-DP δ of the returned mechanism as the sound verifier
reports it (:func:`rainbowdp.privacy.verify`, rounded up).

References
----------
.. [1] A. Sadeghi, S. Asoodeh, F. P. Calmon, "Differentially private mechanisms for count
   queries", LP (7)-(8).
.. [2] N. Kadam et al., "Optimum noise mechanism for differentially private queries in discrete
   finite sets", Cybersecurity (2024), min-δ (15).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from .._validation import check_epsilon
from ..exceptions import ParameterError, SolverError
from ..graph import RainbowGraph, check_graph
from ..mechanism import Mechanism
from ..privacy import verify
from . import _model, console, solvers
from ._backend import new_model
from ._constraints import (
    RowConstraint,
    check_constraints,
    constrained_columns,
    prepare_constraints,
    violation,
)
from ._lp import hockey_stick_rows, ratio_rows
from ._model import (
    EPS_MODEL_MAX,
    design_result,
    directed_pairs,
    fixed_fixed_pairs,
    solve_model,
)
from ._problem import check_bounds, check_fixed, check_flag
from ._result import DesignResult
from ._tying import check_tied, pair_blocks

if TYPE_CHECKING:
    import pulp

__all__ = ["EVENTS", "min_delta"]

#: Accepted values of ``events``.
EVENTS = ("all", "singleton")


def min_delta(
    G: RainbowGraph,
    *,
    epsilon: float,
    events: Literal["all", "singleton"] = "all",
    fixed: Mapping | None = None,
    bounds: Mapping | None = None,
    constraints: Sequence[RowConstraint] | None = None,
    tied: Any = None,
    solver: Literal["highs", "cbc"] | pulp.LpSolver | None = None,
    time_limit: float | None = None,
    msg: bool = False,
    progress: bool | None = None,
) -> DesignResult:
    r"""The mechanism with the smallest δ at ε, subject to bounds, fixed rows and constraints.

    Parameters
    ----------
    G : RainbowGraph
        The rainbow graph.
    epsilon : float
        ε >= 0 (the model uses :math:`e^{\min(\epsilon, \ln 10^8)}`; see ``solved_epsilon``).
    events : {"all", "singleton"}, default "all"
        ``"all"``: δ bounds the hockey-stick divergence of every ordered pair (every event,
        exact (ε, δ)-DP). ``"singleton"``: δ bounds :math:`P_a(v) - e^\epsilon P_b(v)` for
        every output v only (Sadeghi et al.'s LP).
    fixed, bounds, constraints, tied, solver, time_limit, msg, progress
        As for :func:`rainbowdp.design.lp`.

    Returns
    -------
    DesignResult
        ``objective`` (and ``solver_objective``, ``solved_delta``) is the solver's optimal δ for
        the stated events; ``achieved_delta`` (and ``delta``) is the sound (ε, δ)-DP δ of the
        returned mechanism from :func:`rainbowdp.privacy.verify` -- at least the objective up
        to the solver's tolerance for ``"all"``, possibly larger for ``"singleton"``.
        ``certify(result.mechanism, epsilon=epsilon, delta=result.achieved_delta)`` answers
        ``"private"``. ``method="min_delta"``, ``formulation=events``.

    Raises
    ------
    TypeError, ValueError
        On a bad argument.
    InfeasibleDesignError
        If ``fixed``, ``bounds`` and ``constraints`` admit no mechanism.
    SolverError
        If the solver's point, refined, still violates a constraint by more than 1e-10 (and
        the solver errors of :mod:`rainbowdp.design.solvers`).

    Examples
    --------
    A binary line whose ends are fixed far apart: the middle row (0.5, 0.5) is the best
    compromise, with δ = 0.3 against both ends (for single outputs as for all events).

    >>> import math
    >>> from rainbowdp import builders
    >>> G = builders.line(["yes", "no"], 2)
    >>> res = min_delta(G, epsilon=math.log(2), fixed={0: [0.1, 0.9], 2: [0.9, 0.1]})
    >>> round(res.objective, 6), res.method, res.formulation
    (0.3, 'min_delta', 'all')
    >>> res.mechanism.row(1).round(6).tolist(), round(res.achieved_delta, 6)
    ([0.5, 0.5], 0.3)
    >>> ends = {0: [0.1, 0.9], 2: [0.9, 0.1]}
    >>> round(min_delta(G, epsilon=math.log(2), fixed=ends, events="singleton").objective, 6)
    0.3
    """
    g = check_graph(G, "G")
    eps = check_epsilon(epsilon, finite_exp=True)
    if not isinstance(events, str) or events not in EVENTS:
        raise ParameterError(f"`events` must be one of {EVENTS}, got events={events!r}.")
    fixed_mask, fixed_values = check_fixed(g, fixed)
    lower, upper = check_bounds(g, bounds, fixed_mask, fixed_values)
    cons = check_constraints(g, constraints)
    T = check_tied(g, tied)
    check_flag(msg, "msg")
    slv = solvers.make_solver(
        solver, time_limit=time_limit, msg=msg, lp=True, progress=console.show_progress(progress)
    )
    tl = None if time_limit is None else float(time_limit)
    eps_m = min(eps, EPS_MODEL_MAX)
    x = math.exp(eps_m)

    # two fixed neighbours bound delta from below: data, the lower bound of the delta column
    fa, fb = fixed_fixed_pairs(g, fixed_mask)
    floor = 0.0
    if fa.size:
        D = fixed_values[fa] - x * fixed_values[fb]
        per_pair = np.maximum(D, 0.0).sum(axis=1) if events == "all" else D.max(axis=1)
        floor = max(0.0, float(per_pair.max()))

    side = prepare_constraints(g, cons, fixed_mask, fixed_values, lower, T) if cons else None
    t0 = time.perf_counter()
    mb = new_model("rainbowdp_min_delta", slv)
    cols = constrained_columns(mb, fixed_mask, fixed_values, lower, upper, T, side)
    dcol = int(mb.add_columns(("delta",), np.array([floor]), None)[0])
    blocks = pair_blocks(cols, *directed_pairs(g, fixed_mask))
    if events == "all":
        hockey_stick_rows(mb, cols, blocks, x, delta_col=dcol)
    else:
        ratio_rows(mb, cols, blocks, x, delta_col=dcol)
    col = cols.col
    U = np.zeros((g.n_nodes, g.n_outputs))
    objective = (np.array([dcol]), np.array([-1.0]))  # maximise -delta
    out, P, _, build = solve_model(
        mb, col, U, fixed_mask, fixed_values, slv, tl, t0, objective=objective
    )
    d_solver = max(floor, float(mb.values(np.array([dcol]))[0]))

    if cons and violation(g, cons, P):  # refine the vertex to full precision, then re-check
        try:
            xr = mb.refine()
        except (ValueError, np.linalg.LinAlgError):  # pragma: no cover - numerical failure
            xr = None
        if xr is not None and np.all(np.isfinite(xr)):
            R = _model.extract(mb, col, fixed_mask, fixed_values, xr)
            if not violation(g, cons, R):
                P = R
        why = violation(g, cons, P)
        if why:
            raise SolverError(f"the solver's point violates the side constraints: {why}.")

    M = Mechanism(g, P)
    achieved = verify(M, epsilon=eps, delta=1.0).delta_required
    return design_result(
        mb,
        out,
        M,
        U,
        solver_objective=d_solver,
        repair_weight=0.0,
        build_seconds=build,
        achieved_delta=achieved,
        method="min_delta",
        formulation=events,
        epsilon=eps,
        delta=achieved,
        solved_epsilon=eps_m,
        solved_delta=d_solver,
        objective=d_solver,
    )
