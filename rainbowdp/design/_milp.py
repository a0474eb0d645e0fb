r"""Optimal mechanisms under (ε, δ)-probabilistic DP on any rainbow graph, by MILP.

Probabilistic DP (Kadam et al. [1]_, Definition 2, eq. (3)) bounds, for every ordered pair of
neighbours :math:`(a, b)`, the probability that the privacy loss *strictly* exceeds ε:

.. math::

    \Pr_{v \sim P_a}\!\left[\ln \frac{P_a(v)}{P_b(v)} > \epsilon\right]
    = \sum_v P_a(v)\, \mathbf 1[P_a(v) > e^\epsilon P_b(v)] \le \delta .

Formulation ``"definition"`` (the default) gives every ordered pair its own indicators
:math:`\beta_{ab}(v) \in \{0, 1\}` and budget, and solves

.. math::

    \max \sum_{d, v} U[d, v] P_d(v) \quad\text{s.t.}\quad
    \begin{aligned}[t]
    & P_a(v) - e^\epsilon P_b(v) \le (1 + m)\,\beta_{ab}(v) - m\,\beta_{ba}(v)
      \quad (\text{or } \ldots - m,\ \text{see below}), \\
    & y_{ab}(v) \ge P_a(v) - (1 - \beta_{ab}(v)),\quad 0 \le y_{ab}(v) \le 1, \\
    & y_{ab}(v) \ge P_a(v) - e^\epsilon P_b(v), \\
    & \textstyle\sum_v y_{ab}(v) \le \delta - \min\{m, \delta/2\},
    \end{aligned}

plus the row sums, ``fixed`` rows and ``bounds`` of :func:`rainbowdp.design.lp`, with the margin
:math:`m` (``margin``, default 1e-7). The third line is a valid cut (if β = 1 it follows from the
second, if β = 0 its right side is negative); it makes the LP relaxation at least as tight as
the (ε, δ)-DP LP, which without it the relaxation would not be (a fractional β switches off the
budget).

*Why the result is (ε, δ)-PDP.* If :math:`\beta_{ab}(v) = 0` then
:math:`P_a(v) \le e^\epsilon P_b(v)`: output v does not leak. So the leaking outputs of the
pair are among those with :math:`\beta_{ab}(v) = 1`, where :math:`y_{ab}(v) \ge P_a(v)` (big-M = 1
is valid because :math:`P_a(v) \le 1`); hence the leakage is at most
:math:`\sum_v y_{ab}(v) < \delta`.

*Robustness.* Ties :math:`P_a(v) = e^\epsilon P_b(v)` do not leak under the strict inequality
of Definition 2, but a solver meets them only up to round-off. Where the reverse pair may leak
(:math:`\beta_{ba}(v) = 1`) the margin demands :math:`P_a(v) \le e^\epsilon P_b(v) - m`,
which survives any perturbation smaller than m, at a cost of :math:`O(m)` utility. Where
neither direction leaks the margin is waived (the term :math:`m\,\beta_{ba}(v)` above) for pairs
of two free rows, and for every pair at ε = 0 -- there a tie is exact equality, and a margin
would make even the constant mechanism infeasible; against a fixed row with ε > 0 the margin
:math:`-m` always applies, since mixing cannot move a fixed row. Such ties are made exact afterwards
(neighbouring rows equal within 1e-9 become one float vector) or repaired by mixing with the
uniform distribution (ε > 0). The returned mechanism is re-checked with the sound
:func:`rainbowdp.privacy.pdp_delta` (every comparison decided exactly, undecidable ones
counted as leaks).

Formulation ``"kadam13"`` generalises the MILP (13) as printed: one indicator vector
:math:`\beta_a` and one budget per node, shared by all its out-pairs (each mass of :math:`P_a`
either satisfies the ratio constraint towards *every* neighbour or is counted as leaking). It is
feasible-set-wise stricter than Definition 2, so still (ε, δ)-PDP; see ``docs/design.md`` and
item 7 of ``docs/errata.md``.

For δ = 0 both formulations equal (ε, 0)-DP (a mass may leak only if it is zero), and the
problem is solved as the LP of :func:`rainbowdp.design.lp`.

References
----------
.. [1] N. Kadam, A. Scaglione, N. Ravi, S. Peisert, B. Lunghino, A. Shumavon, "Optimum noise
   mechanism for differentially private queries in discrete finite sets", Cybersecurity (2024),
   Definition 2, MILP (13a)-(13h), LP (14).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal

import numpy as np
import pulp

from .._exact import compare_exp, enclose_exp, pdp_leakage_upper
from .._repair import repair
from .._validation import check_nonnegative_float
from ..exceptions import InfeasibleDesignError, NotPrivateError, ParameterError
from ..graph import RainbowGraph
from ..mechanism import Mechanism
from ..privacy import pdp_delta
from . import solvers
from ._constraints import (
    RowConstraint,
    constrained_columns,
    prepare_constraints,
    solve_within_constraints,
)
from ._lp import lp as _lp
from ._model import (
    EPS_MODEL_MAX,
    ModelBuilder,
    all_pairs,
    design_result,
    directed_pairs,
    fixed_fixed_pairs,
    names,
    repair_solution,
    safety_margin,
    solve_model,
)
from ._problem import check_constraints, check_problem
from ._result import DesignResult
from ._tying import check_tied, node_orbits, pair_blocks, split

__all__ = ["FORMULATIONS", "milp"]

#: Accepted values of ``formulation``.
FORMULATIONS = ("definition", "kadam13")
Formulation = Literal["definition", "kadam13"]


def milp(
    G: RainbowGraph,
    *,
    epsilon: float,
    delta: float,
    utility: Any = "accuracy",
    fixed: Mapping | None = None,
    bounds: Mapping | None = None,
    formulation: Formulation = "definition",
    margin: float = 1e-7,
    tied: Any = None,
    solver: Literal["highs", "cbc"] | pulp.LpSolver | None = None,
    time_limit: float | None = None,
    msg: bool = False,
    constraints: Sequence[RowConstraint] | None = None,
) -> DesignResult:
    r"""The utility-optimal (ε, δ)-probabilistic-DP mechanism on a rainbow graph, by MILP.

    Parameters
    ----------
    G : RainbowGraph
    epsilon : float
        ε >= 0.
    delta : float
        δ in [0, 1].
    utility, fixed, bounds, tied, solver, time_limit, msg, constraints
        As for :func:`rainbowdp.design.lp`. With ``tied``, ``"definition"`` keeps one block
        (indicators, budget) per orbit of ordered neighbour pairs, and ``"kadam13"`` one
        indicator per (orbit of equal rows, variable): on a circulant with ``tied[q, v] =
        (v - q) % (n + 1)``, one indicator per noise value η, exactly MILP (13). The MILP is not
        convex, so a tied optimum can be below the unreduced one (mechanisms that are not
        additive noise may do better); see ``docs/design.md``.
    formulation : {"definition", "kadam13"}, default "definition"
        ``"definition"``: Definition 2 exactly (one indicator vector and budget per ordered
        neighbour pair). ``"kadam13"``: one indicator vector and budget per node, as in the
        printed MILP (13) (stricter; see the module notes).
    margin : float, default 1e-7
        Safety margin m in [0, 0.01]: a mass counted as non-leaking must satisfy
        :math:`P_a(v) \le e^\epsilon P_b(v) - m`, and the budget is
        :math:`\delta - \min\{m, \delta/2\}`. Keep it above the solver tolerances (1e-9);
        ``margin=0`` solves the unmargined model, whose ties may then be rejected by the exact
        check and need repair.

    Returns
    -------
    DesignResult
        ``pdp_delta(result.mechanism, epsilon) <= delta`` (the sound leakage; see the module).

    Raises
    ------
    TypeError, ValueError
        On a bad argument.
    InfeasibleDesignError
        If ``fixed``/``bounds`` admit no (ε, δ)-PDP mechanism (e.g. two fixed neighbours whose
        leakage exceeds δ).
    SolverTimeLimitError
        If the time limit stops the solver before it proves optimality (even with an incumbent).
    SolverNotAvailableError, SolverError, NotPrivateError
        As for :func:`rainbowdp.design.lp`.

    Notes
    -----
    Size (``"definition"``): :math:`Nq` probabilities, :math:`2Eq` binaries, :math:`2Eq`
    continuous :math:`y`, :math:`4Eq + 2E + N` rows. The MILP optimum lies between the LP
    optimum at (ε, 0) (every (ε, 0)-DP mechanism is (ε, δ)-PDP) and the LP optimum at (ε, δ)
    (PDP implies DP, Kadam et al. Theorem 1), up to :math:`O(m)`.

    References
    ----------
    Kadam et al., Definition 2, MILP (13), Theorem 1.

    Examples
    --------
    >>> import math
    >>> from rainbowdp.graph import RainbowGraph
    >>> from rainbowdp.privacy import pdp_delta
    >>> G = RainbowGraph.line(["yes", "no"], 1)
    >>> res = milp(G, epsilon=math.log(2), delta=0.1, fixed={0: [0.2, 0.8]})
    >>> res.mechanism.row(1).round(6).tolist()  # a leak of P(yes) > 0.4 would cost > delta
    [0.4, 0.6]
    >>> pdp_delta(res.mechanism, math.log(2)) <= 0.1
    True
    """
    g, eps, dlt, U, fixed_mask, fixed_values, lower, upper = check_problem(
        G, epsilon, delta, utility, fixed, bounds, msg
    )
    T = check_tied(g, tied)
    cons = check_constraints(g, constraints)
    if not isinstance(formulation, str) or formulation not in FORMULATIONS:
        raise ParameterError(
            f"`formulation` must be one of {FORMULATIONS}, got formulation={formulation!r}."
        )
    m = check_nonnegative_float(margin, "margin")
    if m > 0.01:
        raise ParameterError(f"`margin` must be in [0, 0.01], got margin={margin!r}.")
    if dlt == 0:
        return _delta_zero(
            g,
            eps,
            U,
            fixed_mask,
            fixed_values,
            bounds,
            T,
            formulation,
            solver,
            time_limit,
            msg,
            cons,
        )
    slv = solvers.make_solver(solver, time_limit=time_limit, msg=msg)
    tl = None if time_limit is None else float(time_limit)
    x_m = math.exp(min(eps, EPS_MODEL_MAX))  # coefficient in the model (stricter when capped)
    # e^eps - 1 within a few margins of 0: a margin against a fixed row would exclude even equal
    # rows, so ties are allowed everywhere and made exact afterwards (snapped rows are strictly
    # non-leaking for eps > 0, and exactly tied at eps = 0).
    tiny_eps = math.expm1(eps) <= 100 * m
    q = g.n_outputs
    budget = dlt - min(m, dlt / 2)

    fa, fb = fixed_fixed_pairs(g, fixed_mask)
    if fa.size and formulation == "definition":  # decided as the result will be (soundly)
        A, B = fixed_values[fa], fixed_values[fb]
        _, no_leak = compare_exp(A, B, enclose_exp(eps))
        leak = np.where(no_leak, 0.0, A).sum(axis=1)
        worst = int(np.argmax(leak))
        if pdp_leakage_upper(fixed_values, fa, fb, enclose_exp(eps)) > dlt:
            u, w = g.nodes[int(fa[worst])], g.nodes[int(fb[worst])]
            raise InfeasibleDesignError(
                f"the fixed rows of neighbours {u!r} -> {w!r} leak {leak[worst]:.6g} > "
                f"delta={dlt:g} at epsilon={eps:g} (probabilistic DP); no mechanism can satisfy "
                "`fixed`."
            )

    side = prepare_constraints(g, cons, fixed_mask, fixed_values, lower, T) if cons else None

    def build_and_solve(x_m: float, budget: float) -> tuple:
        """The MILP with ratio coefficient ``x_m`` and leakage budget ``budget``, solved."""
        t0 = time.perf_counter()
        mb = ModelBuilder("rainbowdp_milp")
        cols = constrained_columns(mb, fixed_mask, fixed_values, lower, upper, T, side)
        merge = cols.tied
        orbits = cols.merge_orbits
        if formulation == "definition":
            a, b = directed_pairs(g, fixed_mask)
        else:
            a, b = all_pairs(g)
        blocks = pair_blocks(cols, a, b)
        n_blk = blocks.a.size
        if n_blk:
            if formulation == "definition":
                # one indicator and one y per (block, position); the budget per block
                kk = np.repeat(np.arange(n_blk), q)
                ss = np.tile(np.arange(q), n_blk)
                ra, rb = blocks.a[kk], blocks.b[kk]
                fi, si = blocks.first.ravel(), blocks.second.ravel()
                beta = mb.add_columns(names("b", ra, rb, ss), np.zeros(kk.size), None, binary=True)
                y = mb.add_columns(names("y", ra, rb, ss), np.zeros(kk.size), np.ones(kk.size))
                beta_k, y_k = beta, y
                has_rev = blocks.reverse[kk] >= 0
                rev_slot = np.where(has_rev, blocks.reverse[kk] * q + blocks.reverse_pos.ravel(), 0)
                beta_rev = np.where(has_rev, beta[rev_slot], -1)
                own_first, own_y = fi, y  # the R2 rows: one per (block, position)
                own_beta = beta
                groups = y.reshape(n_blk, q)
                budget_names = names("budget", blocks.a, blocks.b)
                tags = (names("ratio", ra, rb, ss), names("cut", ra, rb, ss))
                leak_names = names("leak", ra, rb, ss)
            else:
                # MILP (13) as printed: one indicator and one y per (node, output), shared by every
                # neighbour; tied, per (orbit of nodes with equal signatures, variable)
                ext = cols.ext
                orbit = node_orbits(cols, a, b)
                K = np.int64(cols.n_vars + cols.consts.size)
                own = orbit[:, None].astype(np.int64) * K + ext  # (N, q) owner slot keys
                owners_nodes = np.unique(a)
                slot_keys, slot_first = np.unique(own[owners_nodes].ravel(), return_index=True)
                n_slot = slot_keys.size
                so_node = owners_nodes[slot_first // q]
                so_v = slot_first % q
                beta = mb.add_columns(
                    names("b", so_node, so_v), np.zeros(n_slot), None, binary=True
                )
                y = mb.add_columns(names("y", so_node, so_v), np.zeros(n_slot), np.ones(n_slot))
                # rows per (a, b, v), merged when tied: (owner slot of a, owner slot of b, J)
                kk = np.repeat(np.arange(a.size), q)
                vv = np.tile(np.arange(q), a.size)
                ka, kb = own[a[kk], vv], own[b[kk], vv]
                si_all = ext[b[kk], vv]
                if orbits:
                    trip = np.unique(np.column_stack([ka, kb, si_all]), axis=0)
                    ka, kb, si_all = trip[:, 0], trip[:, 1], trip[:, 2]
                    tag_parts: tuple = (np.searchsorted(slot_keys, ka), kb, si_all)
                else:
                    tag_parts = (a[kk], b[kk], vv)
                sa = np.searchsorted(slot_keys, ka)
                beta_k, y_k = beta[sa], y[sa]
                fi = (ka % K).astype(np.intp)
                si = si_all.astype(np.intp)
                kb_pos = np.searchsorted(slot_keys, kb)
                kb_pos = np.minimum(kb_pos, n_slot - 1)
                has_rev = slot_keys[kb_pos] == kb
                beta_rev = np.where(has_rev, beta[kb_pos], -1)
                own_first = (slot_keys % K).astype(np.intp)
                own_y, own_beta = y, beta
                # budget per owner orbit: sum over a representative row (repeats count twice)
                reps = owners_nodes[np.unique(orbit[owners_nodes], return_index=True)[1]]
                groups = y[np.searchsorted(slot_keys, own[reps])]
                budget_names = names("budget", reps)
                tags = (names("ratio", *tag_parts), names("cut", *tag_parts))
                leak_names = names("leak", so_node, so_v)
            cf, ff = split(cols, fi)
            cs, fs = split(cols, si)
            # (R1) P_a(v) - x P_b(v) - (1 + m) beta_ab + m beta_ba <= 0: the margin m is required
            # when the reverse pair may leak; when neither leaks (beta_ab = beta_ba = 0) ties are
            # allowed, so that e.g. equal rows are feasible at epsilon = 0. Without the waiver:
            # P_a(v) - x P_b(v) - (1 + m) beta_ab <= -m. The waiver is for ties that can be made
            # exact or repaired afterwards: between two free rows (mixing with the uniform
            # distribution breaks them when eps > 0), or at a tiny eps (equal rows are snapped to
            # one float vector). Against a fixed row, with no reverse pair, or in a tied model,
            # keep the margin.
            # Tied models keep the margin (unless eps is tiny): the waiver couples a block to its
            # reverse, and without it every block's indicators depend on the probabilities only,
            # which is what makes merging equal blocks (or equal nodes) exact.
            waive = has_rev & (tiny_eps | ((cf >= 0) & (cs >= 0) & (not merge)))
            idx1 = np.column_stack([cf, cs, beta_k, np.where(waive, beta_rev, -1)])
            coef1 = np.column_stack(
                [np.ones(cf.size), np.full(cf.size, -x_m), np.full(cf.size, -(1.0 + m)), m * waive]
            )
            rhs1 = -(ff - x_m * fs) - m * ~waive
            mb.add_rows(tags[0], idx1, coef1, pulp.LpConstraintLE, rhs1, merge=merge)
            # (R2) P_a(v) - y + beta <= 1   (y >= P_a(v) when beta = 1)
            c2, f2 = split(cols, own_first)
            idx2 = np.column_stack([c2, own_y, own_beta])
            coef2 = np.tile([1.0, -1.0, 1.0], (c2.size, 1))
            mb.add_rows(leak_names, idx2, coef2, pulp.LpConstraintLE, 1.0 - f2)
            # (R4) P_a(v) - x P_b(v) - y <= 0: valid (beta = 1: y >= P_a; beta = 0: the left side
            # is <= -m), and it makes the LP relaxation at least as tight as the (eps, delta)-DP LP.
            idx4 = np.column_stack([cf, cs, y_k])
            coef4 = np.tile([1.0, -x_m, -1.0], (cf.size, 1))
            mb.add_rows(tags[1], idx4, coef4, pulp.LpConstraintLE, -(ff - x_m * fs), merge=merge)
            # (R3) budget
            n_budget = groups.shape[0]
            mb.add_sum_rows(budget_names, groups, pulp.LpConstraintLE, np.full(n_budget, budget))
        col = cols.col
        return mb, col, *solve_model(mb, col, U, fixed_mask, fixed_values, slv, tl, t0)

    def ok(Pc: np.ndarray) -> bool:
        return pdp_delta(Mechanism(g, Pc), eps) <= dlt

    if side is not None:  # no mixing: re-solve at larger margins (docs/design.md)

        def solve_at(rel: float) -> tuple:
            e_s, d_s = safety_margin(eps, dlt, rel)
            return build_and_solve(math.exp(e_s), d_s - min(m, d_s / 2))

        rel, (mb, col, out, P, solver_obj, build), P2 = solve_within_constraints(
            g, solve_at, cons, fixed_mask, fixed_values, ok, what=f"({eps:g}, {dlt:g})-PDP"
        )
        eps_s, d_s = safety_margin(eps, dlt, rel)
        budget = d_s - min(m, d_s / 2)
        lam = 0.0
    else:
        eps_s = min(eps, EPS_MODEL_MAX)
        mb, col, out, P, solver_obj, build = build_and_solve(x_m, budget)
        P2, lam = repair_solution(
            mb,
            col,
            g,
            P,
            fixed_mask,
            fixed_values,
            ok,
            start=lambda Q: 1e-12,
            what=f"({eps:g}, {dlt:g})-PDP",
            equalise=tiny_eps,
            snap=True,
        )
    M = Mechanism(g, P2)
    achieved = pdp_delta(M, eps)
    if achieved > dlt:  # pragma: no cover - the repair only returns checked points
        raise NotPrivateError(f"designed mechanism leaks {achieved!r} > delta={dlt!r}.")
    return design_result(
        mb,
        out,
        M,
        U,
        solver_objective=solver_obj,
        repair_weight=lam,
        build_seconds=build,
        achieved_delta=achieved,
        method="milp",
        formulation=formulation,
        epsilon=eps,
        delta=dlt,
        solved_epsilon=eps_s,
        solved_delta=budget,
    )


def _fixed_dict(g: RainbowGraph, mask: np.ndarray, values: np.ndarray) -> dict | None:
    idx = np.flatnonzero(mask)
    if idx.size == 0:
        return None
    return {g.nodes[int(i)]: values[int(i)] for i in idx}


def _delta_zero(
    g: RainbowGraph,
    eps: float,
    U: np.ndarray,
    fixed_mask: np.ndarray,
    fixed_values: np.ndarray,
    bounds: Any,
    tied: np.ndarray | None,
    formulation: str,
    solver: Any,
    time_limit: Any,
    msg: bool,
    constraints: list[RowConstraint],
) -> DesignResult:
    r"""(ε, 0)-PDP = (ε, 0)-DP: solve the LP, then break its ties.

    The LP optimum has ties :math:`P_a(v) = e^\epsilon P_b(v)` that round-off may turn into
    :math:`P_a(v) > e^\epsilon P_b(v)` by one ulp; the exact DP verifier forgives that (its
    float bound), Definition 2's strict inequality does not. Mixing the free rows with the
    uniform distribution by :math:`λ \ge τq / (e^\epsilon - 1 + τq)`, τ the largest excess,
    makes every such term strictly non-leaking (ε > 0); for ε = 0 rows are equalised per
    component. With ``constraints`` there is no mixing: the LP's point, solved inside a safety
    margin, must already be (ε, 0)-PDP.
    """
    res = _lp(
        g,
        epsilon=eps,
        delta=0.0,
        utility=U,
        fixed=_fixed_dict(g, fixed_mask, fixed_values),
        bounds=bounds,
        tied=tied,
        solver=solver,
        time_limit=time_limit,
        msg=msg,
        constraints=constraints or None,
    )
    P = res.mechanism.probabilities
    if constraints:
        achieved = pdp_delta(res.mechanism, eps)
        if achieved > 0:  # pragma: no cover - the LP's margin leaves every ratio strict
            raise NotPrivateError(
                f"the (ε, 0)-DP design leaks {achieved!r} > 0 under probabilistic DP, and "
                "`constraints` forbid breaking its ties by mixing."
            )
        return replace(res, method="milp", formulation=formulation, achieved_delta=achieved)

    def ok(Pc: np.ndarray) -> bool:
        return pdp_delta(Mechanism(g, Pc), eps) <= 0.0

    # first guess: excess τ of one float64 ulp of 1 per term; the search grows it as needed
    tau = float(np.finfo(np.float64).eps)
    q = g.n_outputs
    start = tau * q / (math.exp(eps) - 1.0 + tau * q) if eps > 0 else 1.0
    P2, lam = repair(
        g,
        np.array(P),
        fixed_mask,
        ok,
        start=2 * start,
        what=f"({eps:g}, 0)-PDP",
        equalise=(eps == 0),
    )
    M = Mechanism(g, P2)
    achieved = pdp_delta(M, eps)
    if achieved > 0:  # pragma: no cover - certify only returns checked points
        raise NotPrivateError(f"designed mechanism leaks {achieved!r} > delta=0.")
    objective = float((U * P2).sum())
    return replace(
        res,
        mechanism=M,
        objective=objective,
        method="milp",
        formulation=formulation,
        achieved_delta=achieved,
        repair=max(0.0, res.solver_objective - objective),
        repair_weight=(0.0 if math.isnan(lam) else lam) + res.repair_weight,
    )
