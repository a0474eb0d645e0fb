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

Formulation ``"kadam13-per-node"`` (old name ``"kadam13"``, still accepted) generalises the MILP
(13) without its constraint (13g): one indicator vector :math:`\beta_a` and one budget per node,
shared by all its out-pairs (each mass of :math:`P_a` either satisfies the ratio constraint
towards *every* neighbour or is counted as leaking). It is feasible-set-wise stricter than
Definition 2, so still (ε, δ)-PDP; see ``docs/design.md`` and item 7 of ``docs/errata.md``. (The
printed (13), with (13g), on one noise PMF is :func:`rainbowdp.design.kadam13_printed`.)

Each formulation is a small object (:class:`PdpFormulation`) that adds its indicators and
leakage variables to the shared model; the rows (R1)–(R4) are then added alike
(:func:`add_pdp_rows`).

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import numpy as np

from .._validation import check_nonnegative_float
from .._verify.exact import compare_exp, enclose_exp, pdp_delta_upper
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
from ._tying import Blocks, Columns, check_tied, node_orbits, pair_blocks, split
from ._warm_start import Rows, warm_start

if TYPE_CHECKING:
    import pulp

__all__ = ["ALIASES", "FORMULATIONS", "milp"]

#: Accepted values of ``formulation`` (canonical names).
FORMULATIONS = ("definition", "kadam13-per-node")
#: Old spellings of ``formulation``, kept as aliases.
ALIASES = {"kadam13": "kadam13-per-node"}
Formulation = Literal["definition", "kadam13-per-node", "kadam13"]


def formulation_name(formulation: Any) -> str:
    """The canonical name of a MILP formulation (old spellings accepted, :data:`ALIASES`)."""
    if isinstance(formulation, str):
        formulation = ALIASES.get(formulation, formulation)
    if not isinstance(formulation, str) or formulation not in FORMULATIONS:
        accepted = (*FORMULATIONS, *ALIASES)
        raise ParameterError(
            f"`formulation` must be one of {accepted}, got formulation={formulation!r}."
        )
    return formulation


@dataclass(frozen=True)
class Problem:
    """A checked design problem, as the designers share it."""

    G: RainbowGraph
    epsilon: float
    U: np.ndarray
    fixed_mask: np.ndarray
    fixed_values: np.ndarray
    bounds: Any
    tied: np.ndarray | None
    constraints: list[RowConstraint]

    def fixed(self) -> dict | None:
        """``fixed`` as the designers take it (node -> row), or ``None``."""
        idx = np.flatnonzero(self.fixed_mask)
        if idx.size == 0:
            return None
        return {self.G.nodes[int(i)]: self.fixed_values[int(i)] for i in idx}

    def pure_dp(self, **solve: Any) -> DesignResult:
        """The (ε, 0)-DP optimum of the same problem (:func:`rainbowdp.design.lp`)."""
        return _lp(
            self.G,
            epsilon=self.epsilon,
            delta=0.0,
            utility=self.U,
            fixed=self.fixed(),
            bounds=self.bounds,
            tied=self.tied,
            constraints=self.constraints or None,
            **solve,
        )


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
        (indicators, budget) per orbit of ordered neighbour pairs, and ``"kadam13-per-node"``
        one indicator per (orbit of equal rows, variable): on a circulant with ``tied[q, v] =
        (v - q) % (n + 1)``, one indicator per noise value η, as in MILP (13) (without (13g)).
        The MILP is not convex, so a tied optimum can be below the unreduced one (mechanisms
        that are not additive noise may do better); see ``docs/design.md``.
    formulation : {"definition", "kadam13-per-node"}, default "definition"
        ``"definition"``: Definition 2 exactly (one indicator vector and budget per ordered
        neighbour pair). ``"kadam13-per-node"`` (old name ``"kadam13"``): one indicator vector
        and budget per node, as in the printed MILP (13) (stricter; see the module notes).
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
        status ``"optimal"`` or ``"time_limit"``; ``formulation`` the canonical name.

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
    >>> from rainbowdp import builders
    >>> from rainbowdp.privacy import pdp_delta
    >>> G = builders.line(["yes", "no"], 1)
    >>> res = milp(G, epsilon=math.log(2), delta=0.1, fixed={0: [0.2, 0.8]})
    >>> res.mechanism.row(1).round(6).tolist()  # a leak of P(yes) > 0.4 would cost > delta
    [0.4, 0.6]
    >>> pdp_delta(res.mechanism, math.log(2)) <= 0.1
    True
    """
    g, eps, dlt, U, fixed_mask, fixed_values, lower, upper = check_problem(
        G, epsilon, delta, utility, fixed, bounds, msg
    )
    prob = Problem(
        g,
        eps,
        U,
        fixed_mask,
        fixed_values,
        bounds,
        check_tied(g, tied),
        check_constraints(g, constraints),
    )
    form = PDP_FORMULATIONS[formulation_name(formulation)]
    show = console.show_progress(progress)
    m = check_nonnegative_float(margin, "margin")
    if m > 0.01:
        raise ParameterError(f"`margin` must be in [0, 0.01], got margin={margin!r}.")
    if dlt == 0:
        return _delta_zero(
            prob,
            formulation=form.name,
            solver=solver,
            time_limit=time_limit,
            msg=msg,
            progress=show,
        )
    if form.per_pair:
        _check_fixed_pairs(prob, dlt)
    slv = solvers.make_solver(solver, time_limit=time_limit, msg=msg, progress=show)
    tl = None if time_limit is None else float(time_limit)
    cons, T = prob.constraints, prob.tied
    side = prepare_constraints(g, cons, fixed_mask, fixed_values, lower, T) if cons else None
    start_P = None
    if WARM_START and isinstance(slv, solvers.HighsArrays):  # the solver that takes a start
        start_P = _pure_dp_start(prob, tl, show)
    # e^eps - 1 within a few margins of 0: a margin against a fixed row would exclude even equal
    # rows, so ties are allowed everywhere and made exact afterwards (snapped rows are strictly
    # non-leaking for eps > 0, and exactly tied at eps = 0).
    tiny_eps = math.expm1(eps) <= 100 * m

    def build_and_solve(x_m: float, budget: float) -> tuple:
        """The MILP with ratio coefficient ``x_m`` and leakage budget ``budget``, solved."""
        t0 = time.perf_counter()
        mb = new_model("rainbowdp_milp", slv)
        cols = constrained_columns(mb, fixed_mask, fixed_values, lower, upper, T, side)
        rows = form.add_to(mb, cols, g, fixed_mask, x=x_m, budget=budget, margin=m, tiny=tiny_eps)
        if start_P is not None and rows is not None:
            x0 = warm_start(mb, cols, start_P, rows, x_m, m)
            if x0 is not None:
                mb.set_start(x0)
        return mb, cols.col, *solve_model(mb, cols.col, U, fixed_mask, fixed_values, slv, tl, t0)

    return _solve_and_certify(prob, dlt, m, side is not None, tiny_eps, build_and_solve, form.name)


def _check_fixed_pairs(prob: Problem, dlt: float) -> None:
    """Raise if two fixed neighbours leak more than δ (decided soundly, as the result will be)."""
    fa, fb = fixed_fixed_pairs(prob.G, prob.fixed_mask)
    if not fa.size:
        return
    eps, fixed_values = prob.epsilon, prob.fixed_values
    A, B = fixed_values[fa], fixed_values[fb]
    _, no_leak = compare_exp(A, B, enclose_exp(eps))
    leak = np.where(no_leak, 0.0, A).sum(axis=1)
    worst = int(np.argmax(leak))
    if pdp_delta_upper(fixed_values, fa, fb, enclose_exp(eps)) > dlt:
        u, w = prob.G.nodes[int(fa[worst])], prob.G.nodes[int(fb[worst])]
        raise InfeasibleDesignError(
            f"the fixed rows of neighbours {u!r} -> {w!r} leak {leak[worst]:.6g} > "
            f"delta={dlt:g} at epsilon={eps:g} (probabilistic DP); no mechanism can satisfy "
            "`fixed`."
        )


def _solve_and_certify(
    prob: Problem,
    dlt: float,
    m: float,
    constrained: bool,
    tiny_eps: bool,
    build_and_solve: Callable[[float, float], tuple],
    formulation: str,
) -> DesignResult:
    """Solve at the model's parameters, make the point proved (ε, δ)-PDP -- by the repair, or
    with side constraints by re-solving at larger margins -- and build the result."""
    g, eps = prob.G, prob.epsilon
    fixed_mask, fixed_values = prob.fixed_mask, prob.fixed_values

    def ok(Pc: np.ndarray) -> bool:
        return pdp_delta(Mechanism(g, Pc), eps) <= dlt

    what = f"({eps:g}, {dlt:g})-PDP"
    if constrained:  # no mixing: re-solve at larger margins (docs/design.md)

        def solve_at(rel: float) -> tuple:
            e_s, d_s = safety_margin(eps, dlt, rel)
            return build_and_solve(math.exp(e_s), d_s - min(m, d_s / 2))

        rel, (mb, col, out, P, solver_obj, build), P2 = solve_within_constraints(
            g, solve_at, prob.constraints, fixed_mask, fixed_values, ok, what=what
        )
        eps_s, d_s = safety_margin(eps, dlt, rel)
        budget = d_s - min(m, d_s / 2)
        lam = 0.0
    else:
        eps_s = min(eps, EPS_MODEL_MAX)
        budget = dlt - min(m, dlt / 2)
        # coefficient in the model: e^eps, capped (stricter when capped)
        mb, col, out, P, solver_obj, build = build_and_solve(math.exp(eps_s), budget)
        P2, lam = repair_solution(
            mb,
            col,
            g,
            P,
            fixed_mask,
            fixed_values,
            ok,
            start=lambda Q: 1e-12,
            what=what,
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
        prob.U,
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


# ---------------------------------------------------------------------------------- formulations
class Indicators(NamedTuple):
    r"""What a formulation adds to the model before the shared rows (R1)–(R4): its indicator
    and leakage columns and, per (R1)/(R4) row and per (R2) row, the index arrays that place
    them.

    Per (R1)/(R4) row (ordered pair (a, b), position): ``fi``/``si`` the extended ids of
    :math:`P_a(v)`, :math:`P_b(v)`, ``beta``/``y`` its β and y, ``beta_rev`` the reverse
    pair's β (-1: none). Per (R2) row: ``own_first`` the extended id of :math:`P_a(v)`,
    ``own_y``/``own_beta`` its y and β. ``groups`` the y of each budget row (R3).
    """

    fi: np.ndarray
    si: np.ndarray
    beta: np.ndarray
    y: np.ndarray
    beta_rev: np.ndarray
    own_first: np.ndarray
    own_y: np.ndarray
    own_beta: np.ndarray
    groups: np.ndarray
    budget_names: tuple
    tags: tuple
    leak_names: tuple


def _pair_indicators(mb: ArrayModel, blocks: Blocks, q: int, y_max: float) -> Indicators:
    """``"definition"``: one indicator and one y per (block of ordered pairs, position), one
    budget per block."""
    n_blk = blocks.a.size
    kk = np.repeat(np.arange(n_blk), q)
    ss = np.tile(np.arange(q), n_blk)
    ra, rb = blocks.a[kk], blocks.b[kk]
    beta = mb.add_columns(("b", ra, rb, ss), np.zeros(kk.size), None, binary=True)
    y = mb.add_columns(("y", ra, rb, ss), np.zeros(kk.size), np.full(kk.size, y_max))
    has_rev = blocks.reverse[kk] >= 0
    rev_slot = np.where(has_rev, blocks.reverse[kk] * q + blocks.reverse_pos.ravel(), 0)
    return Indicators(
        fi=blocks.first.ravel(),
        si=blocks.second.ravel(),
        beta=beta,
        y=y,
        beta_rev=np.where(has_rev, beta[rev_slot], -1),
        own_first=blocks.first.ravel(),  # the R2 rows: one per (block, position)
        own_y=y,
        own_beta=beta,
        groups=y.reshape(n_blk, q),
        budget_names=("budget", blocks.a, blocks.b),
        tags=(("ratio", ra, rb, ss), ("cut", ra, rb, ss)),
        leak_names=("leak", ra, rb, ss),
    )


def _node_indicators(
    mb: ArrayModel, cols: Columns, a: np.ndarray, b: np.ndarray, q: int, y_max: float
) -> Indicators:
    """``"kadam13-per-node"``: MILP (13) without (13g), one indicator and one y per (node,
    output) shared by every neighbour; tied, per (orbit of nodes with equal signatures,
    variable). Rows per (a, b, v), merged when tied."""
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
    if cols.merge_orbits:
        trip = np.unique(np.column_stack([ka, kb, si_all]), axis=0)
        ka, kb, si_all = trip[:, 0], trip[:, 1], trip[:, 2]
        tag_parts: tuple = (np.searchsorted(slot_keys, ka), kb, si_all)
    else:
        tag_parts = (a[kk], b[kk], vv)
    sa = np.searchsorted(slot_keys, ka)
    kb_pos = np.minimum(np.searchsorted(slot_keys, kb), n_slot - 1)
    has_rev = slot_keys[kb_pos] == kb
    # budget per owner orbit: sum over a representative row (repeats count twice)
    reps = owners_nodes[np.unique(orbit[owners_nodes], return_index=True)[1]]
    return Indicators(
        fi=(ka % K).astype(np.intp),
        si=si_all.astype(np.intp),
        beta=beta[sa],
        y=y[sa],
        beta_rev=np.where(has_rev, beta[kb_pos], -1),
        own_first=(slot_keys % K).astype(np.intp),
        own_y=y,
        own_beta=beta,
        groups=y[np.searchsorted(slot_keys, own[reps])],
        budget_names=("budget", reps),
        tags=(("ratio", *tag_parts), ("cut", *tag_parts)),
        leak_names=("leak", so_node, so_v),
    )


@dataclass(frozen=True)
class PdpFormulation:
    """A probabilistic-DP formulation of :func:`milp`: which ordered pairs it constrains and
    how it places its indicators; :meth:`add_to` adds it to a shared model."""

    name: str
    #: One indicator vector and budget per ordered pair (else per node).
    per_pair: bool

    def pairs(self, G: RainbowGraph, fixed_mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The constrained ordered pairs (a, b): per pair without two fixed ends (checked up
        front); per node every pair (a fixed node's indicators are shared)."""
        return directed_pairs(G, fixed_mask) if self.per_pair else all_pairs(G)

    def add_to(
        self,
        mb: ArrayModel,
        cols: Columns,
        G: RainbowGraph,
        fixed_mask: np.ndarray,
        *,
        x: float,
        budget: float,
        margin: float,
        tiny: bool,
    ) -> Rows | None:
        r"""Add the indicators, leakage variables and rows (R1)–(R4) of (ε, δ)-PDP with ratio
        coefficient ``x`` (:math:`e^\epsilon`) and budget ``budget`` to ``mb``, over the
        probability columns ``cols``; returns the rows :func:`warm_start` reads (``None`` if
        no pair is constrained)."""
        a, b = self.pairs(G, fixed_mask)
        blocks = pair_blocks(cols, a, b)
        if not blocks.a.size:
            return None
        # y <= budget: implied by y >= 0 and the budget row each y is in (tight_big_m)
        y_max = min(1.0, budget) if TIGHT_BIG_M else 1.0
        q = G.n_outputs
        if self.per_pair:
            ind = _pair_indicators(mb, blocks, q, y_max)
        else:
            ind = _node_indicators(mb, cols, a, b, q, y_max)
        return add_pdp_rows(
            mb, cols, ind, x=x, budget=budget, margin=margin, tiny=tiny, per_pair=self.per_pair
        )


#: The formulations of :func:`milp` by name.
PDP_FORMULATIONS = {
    "definition": PdpFormulation("definition", per_pair=True),
    "kadam13-per-node": PdpFormulation("kadam13-per-node", per_pair=False),
}


def add_pdp_rows(
    mb: ArrayModel,
    cols: Columns,
    ind: Indicators,
    *,
    x: float,
    budget: float,
    margin: float,
    tiny: bool,
    per_pair: bool,
) -> Rows:
    r"""The rows (R1)–(R4) of the module notes over a formulation's indicators ``ind``.

    (R1) :math:`P_a(v) - x P_b(v) - (M_1 + m) \beta_{ab}(v) + m \beta_{ba}(v) \le 0`: the margin
    m is required when the reverse pair may leak; when neither leaks ties are allowed, so that
    e.g. equal rows are feasible at ε = 0. Without the waiver:
    :math:`P_a(v) - x P_b(v) - (M_1 + m) \beta_{ab}(v) \le -m`. The waiver is for ties that can
    be made exact or repaired afterwards: between two free rows (mixing with the uniform
    distribution breaks them when ε > 0), or at a tiny ε (``tiny``; equal rows are snapped to
    one float vector). Against a fixed row, with no reverse pair, or in a tied model, the
    margin is kept: the waiver couples a block to its reverse, and without it every block's
    indicators depend on the probabilities only, which is what makes merging equal blocks (or
    equal nodes) exact. (R2) :math:`P_a(v) - y + M_2 \beta \le M_2`; (R4) the valid cut
    :math:`P_a(v) - x P_b(v) - y \le 0`; (R3) the budgets.
    """
    merge, m = cols.tied, margin
    cf, ff = split(cols, ind.fi)
    cs, fs = split(cols, ind.si)
    big1, big2 = big_m(mb, cf, ff, cs, fs, x, budget, c2_pair=per_pair)
    has_rev = ind.beta_rev >= 0
    waive = has_rev & (tiny | ((cf >= 0) & (cs >= 0) & (not merge)))
    idx1 = np.column_stack([cf, cs, ind.beta, np.where(waive, ind.beta_rev, -1)])
    coef1 = np.column_stack([np.ones(cf.size), np.full(cf.size, -x), -(big1 + m), m * waive])
    rhs1 = -(ff - x * fs) - m * ~waive
    mb.add_rows(ind.tags[0], idx1, coef1, LE, rhs1, merge=merge)
    # (R2) P_a(v) - y + M2 beta <= M2   (y >= P_a(v) when beta = 1)
    c2, f2 = split(cols, ind.own_first)
    if not per_pair:  # one row per owner slot: M2 from P_a's bound
        big2 = big_m(mb, c2, f2, c2, f2, x, budget, c2_pair=False)[1]
    idx2 = np.column_stack([c2, ind.own_y, ind.own_beta])
    coef2 = np.column_stack([np.ones(c2.size), -np.ones(c2.size), big2])
    mb.add_rows(ind.leak_names, idx2, coef2, LE, big2 - f2)
    # (R4) P_a(v) - x P_b(v) - y <= 0: valid (beta = 1: y >= P_a; beta = 0: the left side is
    # <= -m), and it makes the LP relaxation at least as tight as the (eps, delta)-DP LP.
    idx4 = np.column_stack([cf, cs, ind.y])
    coef4 = np.tile([1.0, -x, -1.0], (cf.size, 1))
    mb.add_rows(ind.tags[1], idx4, coef4, LE, -(ff - x * fs), merge=merge)
    # (R3) budget
    n_budget = ind.groups.shape[0]
    mb.add_sum_rows(ind.budget_names, ind.groups, LE, np.full(n_budget, budget))
    return Rows(
        cf,
        ff,
        cs,
        fs,
        ind.beta,
        ind.beta_rev,
        waive,
        ind.y,
        c2,
        f2,
        ind.own_y,
        ind.own_beta,
        big2,
    )


def big_m(
    mb: ArrayModel,
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


def _pure_dp_start(prob: Problem, time_limit: float | None, progress: bool) -> np.ndarray | None:
    """The (ε, 0)-DP optimum of the same problem (certified, by :func:`rainbowdp.design.lp`
    with HiGHS), or ``None`` if it has none (or HiGHS cannot find it in ``time_limit``)."""
    try:
        res = prob.pure_dp(solver="highs", time_limit=time_limit, progress=progress)
    except RainbowDPError:
        return None
    return res.mechanism.probabilities


def _delta_zero(
    prob: Problem,
    *,
    formulation: str,
    solver: Any,
    time_limit: Any,
    msg: bool,
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
    g, eps = prob.G, prob.epsilon
    res = prob.pure_dp(solver=solver, time_limit=time_limit, msg=msg, progress=progress)
    P = res.mechanism.probabilities
    if prob.constraints:
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
        prob.fixed_mask,
        ok,
        start=2 * start,
        what=f"({eps:g}, 0)-PDP",
        equalise=(eps == 0),
    )
    M = Mechanism(g, P2)
    achieved = pdp_delta(M, eps)
    if achieved > 0:  # pragma: no cover - certify only returns checked points
        raise NotPrivateError(f"designed mechanism leaks {achieved!r} > delta=0.")
    objective = float((prob.U * P2).sum())
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
