r"""Optimal mechanisms under exact (ε, δ)-DP on any rainbow graph, by linear programming.

For a rainbow graph with nodes :math:`d`, outputs :math:`v` and a utility matrix
:math:`U[d, v]`, :func:`lp` solves

.. math::

    \max_{P}\; \sum_d \sum_v U[d, v]\, P_d(v)
    \quad\text{s.t.}\quad
    \sum_v P_d(v) = 1,\; \ell_d(v) \le P_d(v) \le u_d(v),\; P_d = \pi_d \;(d \text{ fixed}),

and, for every edge :math:`d \sim d'` in *both* directions :math:`(a, b)`,

.. math::

    t_{ab}(v) \ge P_a(v) - e^\epsilon P_b(v),\quad t_{ab}(v) \ge 0,\quad
    \sum_v t_{ab}(v) \le \delta .

At the optimum of any feasible point, :math:`\sum_v t_{ab}(v) \ge \sum_v \max\{P_a(v) - e^\epsilon
P_b(v), 0\} = H_{e^\epsilon}(P_a \| P_b)`, the hockey-stick divergence, which is the exact
:math:`\sup_S P_a(S) - e^\epsilon P_b(S)` (Gu et al., Definition 2); conversely the hockey-stick
terms themselves are a feasible choice of t. The feasible set is therefore *exactly* the set of
(ε, δ)-DP mechanisms, and the LP optimum is the optimum over all of them. For δ = 0 the t
variables are dropped and the constraints read :math:`P_a(v) \le e^\epsilon P_b(v)` -- Kadam et
al.'s LP (14) generalised from the circulant graph to any graph.

Size: :math:`Nq` probability variables, plus :math:`2Eq` slack variables and :math:`2E`
budget rows when δ > 0; :math:`2Eq` privacy rows (E arcs instead of 2E ordered pairs on a
directed graph). With a tying map (``tied=``) one variable per distinct id and one block per
orbit of ordered pairs (:mod:`rainbowdp.design._tying`): on a circulant, one PMF of n + 1 values.

References
----------
.. [1] Y. Gu et al., "Generalized rainbow differential privacy", Definition 2.
.. [2] N. Kadam et al., "Optimum noise mechanism for differentially private queries in discrete
   finite sets", Cybersecurity (2024), LP (14).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from .._verify.exact import enclose_exp, unproven
from .._verify.repair import dp_mixing_bound, proves_dp
from ..exceptions import InfeasibleDesignError
from ..graph import RainbowGraph
from ..mechanism import Mechanism
from ..privacy import verify
from . import console, solvers
from ._backend import new_model
from ._constraints import (
    RowConstraint,
    check_constraints,
    constrained_columns,
    prepare_constraints,
    solve_within_constraints,
)
from ._model import (
    EPS_MODEL_MAX,
    LE,
    ArrayModel,
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
from ._tying import (
    Blocks,
    Columns,
    check_tied,
    pair_blocks,
    split,
    unique_pairs,
)

if TYPE_CHECKING:  # PuLP is optional: imported only by the solvers that need it
    import pulp

__all__ = ["hockey_stick_rows", "lp", "ratio_rows"]


def lp(
    G: RainbowGraph,
    *,
    epsilon: float,
    delta: float = 0.0,
    utility: Any = "accuracy",
    fixed: Mapping | None = None,
    bounds: Mapping | None = None,
    tied: Any = None,
    solver: Literal["highs", "cbc"] | pulp.LpSolver | None = None,
    time_limit: float | None = None,
    msg: bool = False,
    constraints: Sequence[RowConstraint] | None = None,
    progress: bool | None = None,
) -> DesignResult:
    r"""The utility-optimal (ε, δ)-DP mechanism on a rainbow graph, by LP.

    Parameters
    ----------
    G : RainbowGraph
        The rainbow graph.
    epsilon : float
        ε >= 0.
    delta : float, default 0
        δ in [0, 1].
    utility : str, array_like, callable or ("loss", L), default "accuracy"
        The linear utility to maximise; see :func:`rainbowdp.design.utility_matrix`
        (``"accuracy"``, ``"rank"``, ``"absolute"``, ``"squared"``, an (N, q) array, a loss
        callable ``loss(output, answer)``, or ``("loss", L)``).
    fixed : mapping node -> distribution, optional
        Rows that must hold exactly (boundary conditions), in ``G.outputs`` order.
    bounds : mapping node -> (lower, upper), optional
        Per-node bounds on the probabilities; each side a number or a length-q vector, ``None``
        for the default (0 or 1).
    tied : array_like of int, shape (N, q), optional
        A symmetry reduction: probabilities with equal ids ``tied[d, v]`` are one variable
        (entries of fixed nodes are ignored), and the constraints of ordered neighbour pairs
        with the same multiset of variable pairs are kept once (:mod:`rainbowdp.design._tying`).
        For additive noise on a circulant, ``tied[q, v] = (v - q) % (n + 1)`` solves for one
        PMF. The optimum is over the tied mechanisms; it equals the unreduced optimum when the
        tying comes from a symmetry of the problem (graph, utility, bounds), since the LP is
        convex and averaging an optimum over the symmetry keeps it optimal.
    solver : {None, "highs", "cbc"} or pulp.LpSolver, optional
        See :mod:`rainbowdp.design.solvers`; default HiGHS when installed, else CBC.
    time_limit : float, optional
        Seconds; hitting it raises :class:`~rainbowdp.exceptions.SolverTimeLimitError` (an LP
        stopped early has no feasible incumbent to return).
    msg : bool, default False
        Show the solver's log, on standard error (never on standard output).
    progress : bool, optional
        Show the solve's progress on standard error once it has run a second (HiGHS's log
        lines; CBC's log). ``None`` (default): when standard error is a terminal.
    constraints : sequence of RowConstraint, optional
        Per-node linear side constraints (:class:`rainbowdp.design.RowConstraint`, e.g.
        :func:`~rainbowdp.design.answer_probability`, :func:`~rainbowdp.design.zero_bias`,
        :func:`~rainbowdp.design.loss_cap`, :func:`~rainbowdp.design.support`). Fixed rows must
        already meet them; the result meets them within 1e-10 times each row's
        :math:`\sum_v |A[d, v]|`.

    Returns
    -------
    DesignResult
        ``result.mechanism`` passes :func:`rainbowdp.privacy.verify` at (ε, δ) with ``tol=0``.

    Raises
    ------
    TypeError, ValueError
        On a bad argument (the parameter is named and its value shown).
    InfeasibleDesignError
        If no (ε, δ)-DP mechanism satisfies ``fixed``, ``bounds`` and ``constraints`` (e.g. two
        fixed neighbours that are not (ε, δ)-close, or a fixed row violating a constraint).
    SolverTimeLimitError, SolverNotAvailableError, SolverError
        See :mod:`rainbowdp.design.solvers`.
    NotPrivateError
        If the solver's point cannot be repaired into a verified mechanism (not expected; the
        message says why).

    Notes
    -----
    The model is stated in the module docstring. The solver's point is post-processed: fixed
    rows are restored exactly, negatives of round-off size are clipped and rows renormalised;
    if the exact verifier still rejects it (a constraint broken at the solver's tolerance,
    ~1e-9), the free rows are mixed with the uniform distribution, :math:`(1-λ)P + λU`, with the
    smallest λ that the exact verifier accepts (without fixed rows a closed-form λ is guaranteed
    to work; see ``docs/design.md``). The utility lost is ``result.repair``. Without fixed rows
    the mixing is tried first and kept when λ is at most
    :data:`~rainbowdp.design._model.CHEAP_MIXING`; with fixed rows (or a larger λ) the solver's
    vertex is first refined to full precision. A large model without fixed rows needs no vertex,
    so HiGHS's interior-point method runs without crossover
    (:data:`~rainbowdp.design.solvers.NO_CROSSOVER_NONZEROS`, docs/scaling.md).

    With ``constraints`` there is no mixing (it would break equalities such as
    :math:`P_d(a(d)) = \eta`): if the refined solver point is not proved private, the model is
    solved again at larger safety margins (relative 2^-40, 1e-9, 1e-6), and the first point
    proved (ε, δ)-DP that meets every constraint is returned; otherwise
    :class:`~rainbowdp.exceptions.NotPrivateError` says why.

    References
    ----------
    Gu et al., Definition 2 (closeness as a hockey-stick bound); Kadam et al., LP (14).

    Examples
    --------
    A binary line with node 0 fixed: the optimum climbs by the factor e^ε per edge.

    >>> import math
    >>> from rainbowdp import builders
    >>> G = builders.line(["yes", "no"], 3)
    >>> res = lp(G, epsilon=math.log(2), fixed={0: [0.1, 0.9]})
    >>> res.mechanism.probabilities[:, 0].round(6).tolist()
    [0.1, 0.2, 0.4, 0.7]
    >>> res.status, round(res.objective, 6)
    ('optimal', 1.4)
    """
    g, eps, dlt, U, fixed_mask, fixed_values, lower, upper = check_problem(
        G, epsilon, delta, utility, fixed, bounds, msg
    )
    T = check_tied(g, tied)
    cons = check_constraints(g, constraints)
    slv = solvers.make_solver(
        solver, time_limit=time_limit, msg=msg, lp=True, progress=console.show_progress(progress)
    )
    tl = None if time_limit is None else float(time_limit)
    check_fixed_neighbours(g, fixed_mask, fixed_values, eps, dlt)
    side = prepare_constraints(g, cons, fixed_mask, fixed_values, lower, T) if cons else None

    def build_and_solve(x_m: float, dlt_m: float) -> tuple:
        t0 = time.perf_counter()
        mb = new_model("rainbowdp_lp", slv)
        # Repaired by mixing alone (no vertex needed) unless refinement may be needed: side
        # constraints forbid mixing, and mixing cannot move a fixed row.
        mb.vertex = side is not None or bool(fixed_mask.any())
        cols = constrained_columns(mb, fixed_mask, fixed_values, lower, upper, T, side)
        blocks = pair_blocks(cols, *directed_pairs(g, fixed_mask))
        if dlt > 0:
            hockey_stick_rows(mb, cols, blocks, x_m, budget=dlt_m)
        else:
            ratio_rows(mb, cols, blocks, x_m)
        col = cols.col
        return mb, col, *solve_model(mb, col, U, fixed_mask, fixed_values, slv, tl, t0)

    def ok(Pc: np.ndarray) -> bool:  # proved in exact arithmetic: certify says "private"
        return proves_dp(g, Pc, eps, dlt)

    if side is not None:  # no mixing: re-solve at larger margins (docs/design.md)

        def solve_at(rel: float) -> tuple:
            e_s, d_s = safety_margin(eps, dlt, rel)
            return build_and_solve(math.exp(e_s), d_s)

        rel, (mb, col, out, P, solver_obj, build), P2 = solve_within_constraints(
            g, solve_at, cons, fixed_mask, fixed_values, ok, what=f"({eps:g}, {dlt:g})-DP"
        )
        eps_s, dlt_s = safety_margin(eps, dlt, rel)
        lam = 0.0
    else:
        eps_s, dlt_s, (mb, col, out, P, solver_obj, build) = solve_with_margin(
            build_and_solve, eps, dlt
        )
        aa, bb = all_pairs(g)
        P2, lam = repair_solution(
            mb,
            col,
            g,
            P,
            fixed_mask,
            fixed_values,
            ok,
            start=lambda Q: dp_mixing_bound(Q, aa, bb, eps, dlt),
            what=f"({eps:g}, {dlt:g})-DP",
            equalise=(eps == 0 and dlt == 0),
            snap=True,
            mix_first=True,
        )
    M = Mechanism(g, P2)
    return design_result(
        mb,
        out,
        M,
        U,
        solver_objective=solver_obj,
        repair_weight=lam,
        build_seconds=build,
        achieved_delta=verify(M, epsilon=eps, delta=dlt).delta_required,
        method="lp",
        formulation="exact",
        epsilon=eps,
        delta=dlt,
        solved_epsilon=eps_s,
        solved_delta=dlt_s,
    )


def check_fixed_neighbours(
    G: RainbowGraph, fixed_mask: np.ndarray, fixed_values: np.ndarray, eps: float, dlt: float
) -> None:
    """Two fixed neighbours are data, not decisions: decided before anything is built, as the
    result will be -- proved (ε, δ)-close in exact arithmetic, or
    :class:`~rainbowdp.exceptions.InfeasibleDesignError` naming the worst pair."""
    fa, fb = fixed_fixed_pairs(G, fixed_mask)
    if not fa.size:
        return
    bad, _, _ = unproven(
        fixed_values, np.column_stack([fa, fb]), enclose_exp(eps), dlt, one_way=True
    )
    if bad.any():
        h = np.maximum(fixed_values[fa] - math.exp(eps) * fixed_values[fb], 0.0).sum(axis=1)
        worst = int(np.flatnonzero(bad)[np.argmax(h[bad])])
        u, w = G.nodes[int(fa[worst])], G.nodes[int(fb[worst])]
        raise InfeasibleDesignError(
            f"the fixed rows of neighbours {u!r} and {w!r} are not ({eps:g}, {dlt:g})-close "
            f"(hockey-stick divergence {h[worst]:.6g} > delta={dlt:g}); no mechanism can "
            "satisfy `fixed`."
        )


def solve_with_margin(
    build_and_solve: Callable[[float, float], tuple], eps: float, dlt: float
) -> tuple[float, float, tuple]:
    """``(ε_s, δ_s, build_and_solve(e^ε_s, δ_s))`` at the safety margin (docs/design.md), so
    that the solver's point is private with room to spare in exact arithmetic; if the margin
    makes the model infeasible (fixed rows exactly at the limit), solved at the requested
    parameters (ε capped at :data:`~rainbowdp.design._model.EPS_MODEL_MAX`), relying on the
    repair."""
    eps_s, dlt_s = safety_margin(eps, dlt)
    try:
        return eps_s, dlt_s, build_and_solve(math.exp(eps_s), dlt_s)
    except InfeasibleDesignError:
        if (eps_s, dlt_s) == (min(eps, EPS_MODEL_MAX), dlt):
            raise
    eps_s = min(eps, EPS_MODEL_MAX)
    return eps_s, dlt, build_and_solve(math.exp(eps_s), dlt)


# ---------------------------------------------------------------------------------- privacy rows
def hockey_stick_rows(
    mb: ArrayModel,
    cols: Columns,
    blocks: Blocks,
    x: float,
    *,
    budget: float = 0.0,
    delta_col: int | None = None,
) -> None:
    r"""The exact (ε, δ)-DP rows of every block: :math:`t_{ab}(v) \ge P_a(v) - x P_b(v)`,
    :math:`t \ge 0`, :math:`\sum_v t_{ab}(v) \le` ``budget``, or :math:`\le \delta` for the
    column ``delta_col`` (:func:`~rainbowdp.design.min_delta`)."""
    n_blk = blocks.a.size
    if not n_blk:
        return
    q = blocks.first.shape[1]
    ca, fa_v = split(cols, blocks.first)
    cb, fb_v = split(cols, blocks.second)
    const = fa_v - x * fb_v
    kk = np.repeat(np.arange(n_blk), q)
    ss = np.tile(np.arange(q), n_blk)
    ra, rb = blocks.a[kk], blocks.b[kk]
    tid = mb.add_columns(("t", ra, rb, ss), np.zeros(n_blk * q), None)
    idx = np.column_stack([ca.ravel(), cb.ravel(), tid])
    coef = np.tile([1.0, -x, -1.0], (n_blk * q, 1))
    mb.add_rows(("dp", ra, rb, ss), idx, coef, LE, -const.ravel(), merge=cols.tied)
    groups = tid.reshape(n_blk, q)
    budget_names = ("budget", blocks.a, blocks.b)
    if delta_col is None:
        mb.add_sum_rows(budget_names, groups, LE, np.full(n_blk, budget))
    else:
        idx = np.column_stack([groups, np.full(n_blk, delta_col)])
        coef = np.column_stack([np.ones((n_blk, q)), -np.ones(n_blk)])
        mb.add_rows(budget_names, idx, coef, LE, np.zeros(n_blk))


def ratio_rows(
    mb: ArrayModel, cols: Columns, blocks: Blocks, x: float, *, delta_col: int | None = None
) -> None:
    r"""One row per variable pair of the blocks: :math:`P_a(v) - x P_b(v) \le 0` (the
    (ε, 0)-DP LP), or :math:`\le \delta` for the column ``delta_col`` (the singleton events of
    :func:`~rainbowdp.design.min_delta`).

    A pair of constants (a fixed row against a probability that side constraints fix at 0) is
    data: without ``delta_col`` a violation raises :class:`InfeasibleDesignError`; with it, the
    row only bounds δ from below.
    """
    if not blocks.a.size:
        return
    q = blocks.first.shape[1]
    fi, si = unique_pairs(blocks.first, blocks.second, cols.merge_orbits)
    ca, fa_v = split(cols, fi)
    cb, fb_v = split(cols, si)
    const = fa_v - x * fb_v
    live = (ca >= 0) | (cb >= 0)
    if delta_col is None and np.any(~live & (const > 0)):
        k = int(np.flatnonzero(~live & (const > 0))[0])
        raise InfeasibleDesignError(
            f"a fixed row has mass {fa_v[k]:g} on an output that `constraints` force to 0 at a "
            "neighbour: no mechanism has a finite privacy loss there (delta = 0)."
        )
    if delta_col is not None:
        live |= const > 0
    tag: tuple
    if cols.merge_orbits:
        tag = ("dp", fi[live], si[live])
    else:
        kk = np.repeat(np.arange(blocks.a.size), q)
        ss = np.tile(np.arange(q), blocks.a.size)
        tag = ("dp", blocks.a[kk][live], blocks.b[kk][live], ss[live])
    ca, cb, const = ca[live], cb[live], const[live]
    idx = np.column_stack([ca, cb])
    coef = np.tile([1.0, -x], (ca.size, 1))
    if delta_col is not None:
        idx = np.column_stack([idx, np.full(ca.size, delta_col)])
        coef = np.column_stack([coef, -np.ones(ca.size)])
    mb.add_rows(tag, idx, coef, LE, -const, merge=cols.tied)
