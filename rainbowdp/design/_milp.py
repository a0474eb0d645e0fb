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
    & P_a(v) - e^\epsilon P_b(v) \le (M_1 + m)\,\beta_{ab}(v) - m\,\beta_{ba}(v)
      \quad (\text{or } \ldots - m,\ \text{see below}), \\
    & y_{ab}(v) \ge P_a(v) - M_2\,(1 - \beta_{ab}(v)),\quad 0 \le y_{ab}(v) \le \min\{1, \Delta\},
      \\
    & y_{ab}(v) \ge P_a(v) - e^\epsilon P_b(v), \\
    & \textstyle\sum_v y_{ab}(v) \le \Delta = \delta - \min\{m, \delta/2\},
    \end{aligned}

plus the row sums, ``fixed`` rows and ``bounds`` of :func:`rainbowdp.design.lp`, with the margin
:math:`m` (``margin``, default 1e-7). The third line is a valid cut (if β = 1 it follows from the
second, if β = 0 its right side is negative); it makes the LP relaxation at least as tight as
the (ε, δ)-DP LP, which without it the relaxation would not be (a fractional β switches off the
budget). The big-Ms are the tightest the bounds prove (:func:`big_m`): a leaking output carries
at most Δ of mass, so :math:`M_1 = \max(0, \min\{u_a(v), \Delta\} - e^\epsilon \ell_b(v))`
instead of 1, and :math:`M_2 = \max(0, \min\{u_a(v), e^\epsilon u_b(v)\})`, with u, ℓ the
bounds of the probabilities (or the values of fixed rows). With ``solver="highs"`` the solve
starts from the (ε, 0)-DP optimum (pure DP implies probabilistic DP), when that point meets the
margins below (:func:`warm_start`).

*Why the result is (ε, δ)-PDP.* If :math:`\beta_{ab}(v) = 0` then
:math:`P_a(v) \le e^\epsilon P_b(v)`: output v does not leak. So the leaking outputs of the
pair are among those with :math:`\beta_{ab}(v) = 1`, where :math:`y_{ab}(v) \ge P_a(v)`; hence the
leakage is at most :math:`\sum_v y_{ab}(v) < \delta`. (The big-Ms only have to leave the rows
void at the other value of β, which their derivation in :func:`big_m` shows.)

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

Formulation ``"kadam13"`` generalises the MILP (13) without its constraint (13g): one indicator
vector :math:`\beta_a` and one budget per node, shared by all its out-pairs (each mass of
:math:`P_a` either satisfies the ratio constraint towards *every* neighbour or is counted as
leaking). It is feasible-set-wise stricter than Definition 2, so still (ε, δ)-PDP; see
``docs/design.md`` and item 7 of ``docs/errata.md``.

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
from typing import Any, Literal, NamedTuple

import numpy as np
import pulp

from .._validation import check_nonnegative_float
from .._verify.exact import compare_exp, enclose_exp, pdp_leakage_upper
from .._verify.repair import repair
from ..exceptions import (
    InfeasibleDesignError,
    NotPrivateError,
    ParameterError,
    RainbowDPError,
)
from ..graph import RainbowGraph
from ..mechanism import Mechanism
from ..privacy import pdp_delta
from . import console, solvers
from ._backend import new_model
from ._constraints import (
    RowConstraint,
    check_constraints,
    constrained_columns,
    prepare_constraints,
    solve_within_constraints,
)
from ._lp import lp as _lp
from ._model import (
    EPS_MODEL_MAX,
    LE,
    all_pairs,
    design_result,
    directed_pairs,
    fixed_fixed_pairs,
    repair_solution,
    safety_margin,
    solve_model,
)
from ._problem import check_problem
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
    progress: bool | None = None,
) -> DesignResult:
    r"""The utility-optimal (ε, δ)-probabilistic-DP mechanism on a rainbow graph, by MILP.

    Parameters
    ----------
    G : RainbowGraph
    epsilon : float
        ε >= 0.
    delta : float
        δ in [0, 1].
    utility, fixed, bounds, tied, solver, msg, constraints
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
    time_limit : float, optional
        Seconds for the MILP (the warm start's LP, with HiGHS, gets as long again). If it stops
        the search with a feasible incumbent, that incumbent is returned with status
        ``"time_limit"``, certified private exactly as an optimum is, with the solver's
        ``best_bound`` and the relative ``gap`` (:class:`~rainbowdp.design.DesignResult`);
        without an incumbent :class:`~rainbowdp.exceptions.SolverTimeLimitError` is raised.
    progress : bool, optional
        Show the solve's progress on standard error once it has run a second: with HiGHS a
        bar with the incumbent, the bound and the gap (:mod:`tqdm`, if installed) or HiGHS's
        log lines; with CBC its log. ``None`` (default): when standard error is a terminal.
        Never on standard output.

    Returns
    -------
    DesignResult
        ``pdp_delta(result.mechanism, epsilon) <= delta`` (the sound leakage; see the module),
        status ``"optimal"`` or ``"time_limit"``.

    Raises
    ------
    TypeError, ValueError
        On a bad argument.
    InfeasibleDesignError
        If ``fixed``/``bounds`` admit no (ε, δ)-PDP mechanism (e.g. two fixed neighbours whose
        leakage exceeds δ).
    SolverTimeLimitError
        If the time limit stops the solver before it finds a feasible point (at δ = 0, where
        the LP of :func:`rainbowdp.design.lp` is solved, before it proves optimality).
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
    show = console.show_progress(progress)
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
            show,
        )
    slv = solvers.make_solver(solver, time_limit=time_limit, msg=msg, progress=show)
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
    start_P = None
    if WARM_START and isinstance(slv, solvers.HighsArrays):  # the solver that takes a start
        start_P = _pure_dp_start(g, eps, U, fixed_mask, fixed_values, bounds, T, tl, cons, show)

    def build_and_solve(x_m: float, budget: float) -> tuple:
        """The MILP with ratio coefficient ``x_m`` and leakage budget ``budget``, solved."""
        t0 = time.perf_counter()
        mb = new_model("rainbowdp_milp", slv)
        cols = constrained_columns(mb, fixed_mask, fixed_values, lower, upper, T, side)
        merge = cols.tied
        orbits = cols.merge_orbits
        if formulation == "definition":
            a, b = directed_pairs(g, fixed_mask)
        else:
            a, b = all_pairs(g)
        blocks = pair_blocks(cols, a, b)
        n_blk = blocks.a.size
        # y <= budget: implied by y >= 0 and the budget row each y is in (tight_big_m)
        y_max = min(1.0, budget) if TIGHT_BIG_M else 1.0
        if n_blk:
            if formulation == "definition":
                # one indicator and one y per (block, position); the budget per block
                kk = np.repeat(np.arange(n_blk), q)
                ss = np.tile(np.arange(q), n_blk)
                ra, rb = blocks.a[kk], blocks.b[kk]
                fi, si = blocks.first.ravel(), blocks.second.ravel()
                beta = mb.add_columns(("b", ra, rb, ss), np.zeros(kk.size), None, binary=True)
                y = mb.add_columns(("y", ra, rb, ss), np.zeros(kk.size), np.full(kk.size, y_max))
                beta_k, y_k = beta, y
                has_rev = blocks.reverse[kk] >= 0
                rev_slot = np.where(has_rev, blocks.reverse[kk] * q + blocks.reverse_pos.ravel(), 0)
                beta_rev = np.where(has_rev, beta[rev_slot], -1)
                own_first, own_y = fi, y  # the R2 rows: one per (block, position)
                own_beta = beta
                groups = y.reshape(n_blk, q)
                budget_names = ("budget", blocks.a, blocks.b)
                tags = (("ratio", ra, rb, ss), ("cut", ra, rb, ss))
                leak_names = ("leak", ra, rb, ss)
            else:
                # MILP (13) without (13g): one indicator and one y per (node, output), shared by
                # every neighbour; tied, per (orbit of nodes with equal signatures, variable)
                ext = cols.ext
                orbit = node_orbits(cols, a, b)
                K = np.int64(cols.n_vars + cols.consts.size)
                own = orbit[:, None].astype(np.int64) * K + ext  # (N, q) owner slot keys
                owners_nodes = np.unique(a)
                slot_keys, slot_first = np.unique(own[owners_nodes].ravel(), return_index=True)
                n_slot = slot_keys.size
                so_node = owners_nodes[slot_first // q]
                so_v = slot_first % q
                beta = mb.add_columns(("b", so_node, so_v), np.zeros(n_slot), None, binary=True)
                y = mb.add_columns(("y", so_node, so_v), np.zeros(n_slot), np.full(n_slot, y_max))
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
                budget_names = ("budget", reps)
                tags = (("ratio", *tag_parts), ("cut", *tag_parts))
                leak_names = ("leak", so_node, so_v)
            cf, ff = split(cols, fi)
            cs, fs = split(cols, si)
            big1, big2 = big_m(mb, cf, ff, cs, fs, x_m, budget, c2_pair=formulation == "definition")
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
                [np.ones(cf.size), np.full(cf.size, -x_m), -(big1 + m), m * waive]
            )
            rhs1 = -(ff - x_m * fs) - m * ~waive
            mb.add_rows(tags[0], idx1, coef1, LE, rhs1, merge=merge)
            # (R2) P_a(v) - y + M2 beta <= M2   (y >= P_a(v) when beta = 1)
            c2, f2 = split(cols, own_first)
            if formulation != "definition":  # one row per owner slot: M2 from P_a's bound
                big2 = big_m(mb, c2, f2, c2, f2, x_m, budget, c2_pair=False)[1]
            idx2 = np.column_stack([c2, own_y, own_beta])
            coef2 = np.column_stack([np.ones(c2.size), -np.ones(c2.size), big2])
            mb.add_rows(leak_names, idx2, coef2, LE, big2 - f2)
            # (R4) P_a(v) - x P_b(v) - y <= 0: valid (beta = 1: y >= P_a; beta = 0: the left side
            # is <= -m), and it makes the LP relaxation at least as tight as the (eps, delta)-DP LP.
            idx4 = np.column_stack([cf, cs, y_k])
            coef4 = np.tile([1.0, -x_m, -1.0], (cf.size, 1))
            mb.add_rows(tags[1], idx4, coef4, LE, -(ff - x_m * fs), merge=merge)
            # (R3) budget
            n_budget = groups.shape[0]
            mb.add_sum_rows(budget_names, groups, LE, np.full(n_budget, budget))
            if start_P is not None:
                rows = Rows(cf, ff, cs, fs, beta_k, beta_rev, waive, y_k, c2, f2, own_y, own_beta)
                x0 = warm_start(mb, cols, start_P, rows, x_m, m, big2)
                if x0 is not None:
                    mb.set_start(x0)
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


#: Big-M of (R1) and (R2) from the variable bounds (:func:`big_m`); ``False`` gives the unit
#: big-M of the printed formulation (kept for the benchmark's old-vs-new comparison).
TIGHT_BIG_M = True

#: Start HiGHS (arrays path) from the (ε, 0)-DP optimum (:func:`warm_start`).
WARM_START = True


def big_m(
    mb: Any,
    ca: np.ndarray,
    fa: np.ndarray,
    cb: np.ndarray,
    fb: np.ndarray,
    x: float,
    budget: float,
    *,
    c2_pair: bool,
) -> tuple[np.ndarray, np.ndarray]:
    r"""The tightest big-M of (R1) and (R2) that the variable bounds prove, one per row.

    Rows are indexed by (pair (a, b), output v); ``ca``/``cb`` are the columns of
    :math:`P_a(v)`, :math:`P_b(v)` (-1 for a constant, given in ``fa``/``fb``).

    *(R1)* :math:`P_a(v) - x P_b(v) \le -m + (M_1 + m)\,\beta_{ab}(v)` (plus the waiver
    term). At :math:`\beta_{ab}(v) = 1` the row must allow every value of the left side, and
    there (R2) gives :math:`y_{ab}(v) \ge P_a(v)`, while (R3) with :math:`y \ge 0` gives
    :math:`y_{ab}(v) \le \Delta`, the budget. Hence

    .. math::

        P_a(v) - x P_b(v) \le \min\{u_a(v), \Delta\} - x\,\ell_b(v) =: M_1

    (:math:`u`, :math:`\ell` the bounds of the columns, or the constants of fixed rows), and
    :math:`\max(M_1, 0)` is valid: a leaking output carries at most Δ of mass. The printed
    formulation uses :math:`M_1 = 1`; with δ = 0.1 the bound is ten times tighter, and so is
    the LP relaxation of (R1).

    *(R2)* :math:`P_a(v) - y_{ab}(v) \le M_2\,(1 - \beta_{ab}(v))`. At β = 0 it must allow
    every value of :math:`P_a(v) - y_{ab}(v) \le P_a(v) \le u_a(v)`; with one row per pair
    (``c2_pair``, formulation ``"definition"``), (R1) at β = 0 also gives
    :math:`P_a(v) \le x P_b(v) \le x u_b(v)`, so
    :math:`M_2 = \max(0, \min\{u_a(v), x u_b(v)\})` (1 in the printed formulation).

    Both reductions only remove points of the relaxation; the integer feasible set, and so
    the optimum, are unchanged.
    """
    if not TIGHT_BIG_M:
        return np.ones(ca.size), np.ones(ca.size)
    lo, hi, _ = mb.columns()
    ub_a = np.where(ca >= 0, hi[np.maximum(ca, 0)], fa)
    lb_b = np.where(cb >= 0, lo[np.maximum(cb, 0)], fb)
    ub_b = np.where(cb >= 0, hi[np.maximum(cb, 0)], fb)
    m1 = np.maximum(np.minimum(ub_a, budget) - x * lb_b, 0.0)
    m2 = np.minimum(ub_a, x * ub_b) if c2_pair else ub_a
    return m1, np.maximum(m2, 0.0)


class Rows(NamedTuple):
    """The rows of a built MILP that :func:`warm_start` evaluates: per (R1)/(R4) row the
    columns (or constants) of :math:`P_a(v)`, :math:`P_b(v)`, its β, the reverse β (-1:
    none), whether the tie waiver applies and its y; per (R2) row :math:`P_a(v)`, y, β."""

    cf: np.ndarray
    ff: np.ndarray
    cs: np.ndarray
    fs: np.ndarray
    beta: np.ndarray
    beta_rev: np.ndarray
    waive: np.ndarray
    y: np.ndarray
    c2: np.ndarray
    f2: np.ndarray
    own_y: np.ndarray
    own_beta: np.ndarray


def warm_start(
    mb: Any, cols: Any, P: np.ndarray, rows: Rows, x: float, m: float, big2: np.ndarray
) -> np.ndarray | None:
    r"""Every column of the MILP at the mechanism ``P`` (an (ε, 0)-DP one), or ``None`` if
    that point is not feasible for the model.

    Pure DP implies probabilistic DP, so the (ε, 0)-DP optimum is a mechanism of the MILP's
    feasible set, up to the margin m of (R1): an output is marked leaking
    (:math:`\beta_{ab}(v) = 1`) only where the model forbids :math:`\beta = 0` -- a ratio
    above :math:`e^\epsilon` (round-off), or within m of it where the margin applies (no tie
    waiver, or the reverse pair leaks; repeated until no mark changes). y is the least value
    (R2) and (R4) allow. Between free rows of an untied model all ties are waived, and the
    point is feasible with every β = 0; against fixed rows a tie may cost its mass in the
    budget. The point is checked against every row and bound (to 1e-9) before it is
    offered.
    """
    n = mb.n_cols
    tol = 1e-10
    z = np.zeros(n)
    free = cols.col >= 0
    z[cols.col[free]] = P[free]

    def val(c: np.ndarray, f: np.ndarray) -> np.ndarray:
        return np.where(c >= 0, z[np.maximum(c, 0)], f)

    e = val(rows.cf, rows.ff) - x * val(rows.cs, rows.fs)
    on = np.zeros(n, dtype=bool)
    while True:  # marks only grow: at most one pass per row
        rev_on = (rows.beta_rev >= 0) & on[np.maximum(rows.beta_rev, 0)]
        need = (e > tol) | ((e > tol - m) & ~(rows.waive & ~rev_on))
        new = np.zeros(n, dtype=bool)
        new[rows.beta[need]] = True
        if np.array_equal(new, on):
            break
        on = new
    z[rows.beta] = on[rows.beta]
    z[rows.own_beta] = on[rows.own_beta]
    y = np.zeros(n)
    np.maximum.at(y, rows.own_y, val(rows.c2, rows.f2) - big2 * (1.0 - z[rows.own_beta]))
    np.maximum.at(y, rows.y, e)
    ys = np.concatenate([rows.own_y, rows.y])
    z[ys] = y[ys]
    lo, hi, _ = mb.columns()
    if np.any(z < lo - 1e-12) or np.any(z > hi + 1e-12) or np.any(mb.residuals(z) > 1e-9):
        return None
    return z


def _pure_dp_start(
    g: RainbowGraph,
    eps: float,
    U: np.ndarray,
    fixed_mask: np.ndarray,
    fixed_values: np.ndarray,
    bounds: Any,
    tied: np.ndarray | None,
    time_limit: float | None,
    constraints: list[RowConstraint],
    progress: bool = False,
) -> np.ndarray | None:
    """The (ε, 0)-DP optimum of the same problem (certified, by :func:`rainbowdp.design.lp`
    with HiGHS), or ``None`` if it has none (or HiGHS cannot find it in ``time_limit``)."""
    try:
        res = _lp(
            g,
            epsilon=eps,
            delta=0.0,
            utility=U,
            fixed=_fixed_dict(g, fixed_mask, fixed_values),
            bounds=bounds,
            tied=tied,
            solver="highs",
            time_limit=time_limit,
            constraints=constraints or None,
            progress=progress,
        )
    except RainbowDPError:
        return None
    return res.mechanism.probabilities


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
    progress: bool = False,
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
        progress=progress,
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
