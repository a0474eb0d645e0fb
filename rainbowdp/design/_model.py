r"""Building, solving and reading back the models of the LP and MILP designers.

A model is filled from numpy index arrays (:class:`ArrayModel`);
:func:`~rainbowdp.design._backend.new_model` picks how it reaches the solver: as arrays straight
into highspy for ``solver="highs"`` (:class:`~rainbowdp.design._highs.HighsModel`), as a PuLP
problem for every other solver (:class:`ModelBuilder`). The safety margin and the coefficient
cap say at which parameters it is solved; :func:`solve_model` and :func:`extract` read the
solver's mechanism back, :func:`repair_solution` turns it into a proved one (the repair itself
is :mod:`rainbowdp._verify.repair`) and :func:`design_result` builds the result.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from .._verify.repair import repair
from ..exceptions import NotPrivateError
from ..graph import RainbowGraph
from ..mechanism import Mechanism
from . import solvers
from ._result import DesignResult

__all__: list[str] = []


# ---------------------------------------------------------------------------------- graph parts
def all_pairs(G: RainbowGraph) -> tuple[np.ndarray, np.ndarray]:
    """The constrained ordered pairs (a, b): both orders of every edge, or the arcs of a
    directed graph."""
    e = G.edges
    if G.directed:
        return e[:, 0], e[:, 1]
    return np.concatenate([e[:, 0], e[:, 1]]), np.concatenate([e[:, 1], e[:, 0]])


def directed_pairs(G: RainbowGraph, fixed_mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The constrained ordered pairs (a, b), except those between two fixed nodes."""
    a, b = all_pairs(G)
    keep = ~(fixed_mask[a] & fixed_mask[b])
    return a[keep], b[keep]


def fixed_fixed_pairs(G: RainbowGraph, fixed_mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The constrained ordered pairs between two fixed nodes (data, checked up front)."""
    a, b = all_pairs(G)
    keep = fixed_mask[a] & fixed_mask[b]
    return a[keep], b[keep]


# ---------------------------------------------------------------------------------- model
#: Row senses (PuLP's values ``LpConstraintLE``, ``LpConstraintEQ``, ``LpConstraintGE``, so
#: that a PuLP row and an array row read the same; PuLP is not imported for them).
LE, EQ, GE = -1, 0, 1

#: Names of a block of rows or columns: ``(prefix, *index arrays)``, spelled out by
#: :func:`names` only by a model that needs names (PuLP's); the arrays path never makes them.
Tag = tuple


class ArrayModel:
    """A maximisation model kept as numpy arrays, filled block by block from index arrays.

    Columns carry bounds and integrality; rows are COO triplets with a sense and a right-hand
    side. Subclasses hand the model to a solver: :class:`ModelBuilder` (PuLP, for CBC and any
    PuLP solver) and :class:`rainbowdp.design._highs.HighsModel` (the arrays straight into
    highspy). Both share the row algebra, :meth:`refine` and the reading of the solution.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.n_cols = 0
        self.n_rows = 0
        self.n_integer = 0
        self._coo: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._rhs: list[np.ndarray] = []
        self._sense: list[np.ndarray] = []
        self._lb: list[np.ndarray] = []
        self._ub: list[np.ndarray] = []
        self._int: list[np.ndarray] = []
        self.cost = np.zeros(0)
        #: A feasible point to start from (all columns), or ``None`` (:meth:`set_start`).
        self.start: np.ndarray | None = None
        #: Whether the solver must return a vertex (a basic solution), as :meth:`refine` needs.
        #: A designer that repairs the point by mixing alone sets it to ``False``; a large LP
        #: is then solved without crossover (``solvers.NO_CROSSOVER_NONZEROS``).
        self.vertex = True

    # -- filled by the designers -------------------------------------------------------------
    def add_columns(
        self, tag: Tag, lower: np.ndarray, upper: np.ndarray | None, *, binary: bool = False
    ) -> np.ndarray:
        """Columns with bounds ``[lower, upper]`` (``upper=None``: no upper bound), or binary;
        returns their ids."""
        k = np.asarray(lower).size
        lo = np.zeros(k) if binary else np.asarray(lower, dtype=float).reshape(k)
        if binary:
            hi = np.ones(k)
        elif upper is None:
            hi = np.full(k, np.inf)
        else:
            hi = np.asarray(upper, dtype=float).reshape(k)
        self._lb.append(lo)
        self._ub.append(hi)
        self._int.append(np.full(k, binary))
        start = self.n_cols
        self._new_columns(tag, lo, hi, binary)
        self.n_cols += k
        self.n_integer += k if binary else 0
        return np.arange(start, self.n_cols)

    def add_rows(
        self,
        tag: Tag,
        idx: np.ndarray,
        coef: np.ndarray,
        sense: int,
        rhs: np.ndarray,
        *,
        merge: bool = False,
    ) -> None:
        """Rows ``sum_k coef[r, k] x[idx[r, k]] (sense) rhs[r]``; ``idx < 0`` marks no term.

        With ``merge``, a column repeated within a row (tied models) gets the sum of its
        coefficients (PuLP would keep only the last).
        """
        if merge and idx.shape[1] > 1:
            idx, coef = merge_repeats(idx, np.broadcast_to(coef, idx.shape))
        if idx.shape[1] == 0:
            return
        coef = np.broadcast_to(np.asarray(coef, dtype=float), idx.shape)
        rhs = np.asarray(rhs, dtype=float)
        keep = (idx >= 0) & (coef != 0)
        r_ids = np.broadcast_to(
            np.arange(self.n_rows, self.n_rows + idx.shape[0])[:, None], idx.shape
        )
        self._coo.append((r_ids[keep], idx[keep], coef[keep]))
        self._rhs.append(rhs)
        self._sense.append(np.full(idx.shape[0], sense))
        self._new_rows(tag, idx, coef, sense, rhs)
        self.n_rows += idx.shape[0]

    def add_sum_rows(self, tag: Tag, groups: np.ndarray, sense: int, rhs: np.ndarray) -> None:
        """Rows ``sum_k x[groups[r, k]] (sense) rhs[r]`` for groups of equal size (a column
        repeated in a group counts as often as it occurs)."""
        self.add_rows(tag, groups, np.ones(groups.shape), sense, rhs, merge=True)

    def set_objective(self, ids: np.ndarray, coefs: np.ndarray) -> None:
        """Maximise ``sum_k coefs[k] x[ids[k]]`` (repeated ids add up)."""
        self.cost = np.bincount(ids, weights=coefs, minlength=self.n_cols).astype(float)
        self._new_objective(self.cost)

    def set_start(self, x: np.ndarray) -> None:
        """Offer ``x`` (a value for every column, feasible for the model) as a starting point.
        Used by the solvers that accept one (HiGHS through arrays); ignored by the others."""
        self.start = np.asarray(x, dtype=float)

    def finish(self) -> None:
        """Called once the model is complete, before :meth:`solve`."""

    # -- the model as arrays -----------------------------------------------------------------
    def columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(lower, upper, integer)`` of every column."""
        if not self._lb:
            return np.zeros(0), np.zeros(0), np.zeros(0, dtype=bool)
        return np.concatenate(self._lb), np.concatenate(self._ub), np.concatenate(self._int)

    def rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(row ids, column ids, coefficients, rhs and sense)`` of the whole matrix: COO
        triplets (a column may repeat within a row only if the rows were added so), then
        ``(rhs, sense)`` stacked as one (2, R) array."""
        if not self._coo:
            e = np.zeros(0, dtype=np.intp)
            return e, e, np.zeros(0), np.zeros((2, 0))
        cat = np.concatenate
        return (
            cat([c[0] for c in self._coo]),
            cat([c[1] for c in self._coo]),
            cat([c[2] for c in self._coo]),
            np.vstack([cat(self._rhs), cat(self._sense).astype(float)]),
        )

    def matrix(self) -> Any:
        """The constraint matrix as a ``scipy.sparse.csr_array`` (repeated entries summed)."""
        from scipy.sparse import csr_array

        r, c, v, _ = self.rows()
        return csr_array((v, (r, c)), shape=(self.n_rows, self.n_cols))

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """How far ``x`` violates each row (``> 0``: violated; equalities by ``|Ax - b|``)."""
        if not self.n_rows:
            return np.zeros(0)
        _, _, _, rs = self.rows()
        rhs, sense = rs[0], rs[1]
        act = self.matrix() @ x
        return np.where(sense == LE, act - rhs, np.where(sense == GE, rhs - act, abs(act - rhs)))

    # -- solved ------------------------------------------------------------------------------
    def solve(self, solver: Any, time_limit: float | None) -> solvers.SolveOutcome:
        """Solve (raising as :func:`rainbowdp.design.solvers.solve` does unless optimal)."""
        raise NotImplementedError

    def values(self, ids: np.ndarray) -> np.ndarray:
        """The solver's values of columns ``ids``."""
        raise NotImplementedError

    def refine(self, *, tol: float = 1e-6) -> np.ndarray | None:
        r"""Recompute the solver's vertex in full float64 precision.

        Some solvers report values with ~8 significant digits (CBC's solution file). The vertex
        they describe is determined by its active set: rows with residual within ``tol`` of
        tight (and all equalities), and columns within ``tol`` of a bound (binaries rounded).
        The smallest correction :math:`\Delta` of the free columns with
        :math:`A_{act} (x + \Delta) = b_{act}` is found by least squares, and the refined point
        returned (column values in model order); ``None`` if there is nothing to refine.
        The exact verifier judges the result like any other point.
        """
        from scipy.sparse.linalg import lsqr

        if not self._coo or not self.n_cols:
            return None
        x = self.values(np.arange(self.n_cols))
        lb, ub, integer = self.columns()
        _, _, _, rs = self.rows()
        rhs, sense = rs[0], rs[1]
        A = self.matrix()
        x = np.where(integer, np.round(x), x)
        at_lb = x <= lb + tol
        at_ub = x >= ub - tol
        x = np.where(at_lb, lb, np.where(at_ub, ub, x))
        free = ~(at_lb | at_ub | integer)
        res = A @ x - rhs
        ge = sense == GE
        active = (sense == EQ) | (np.where(ge, -res, res) > -tol)
        if not free.any() or not active.any():
            return x
        Af = A[np.flatnonzero(active)][:, np.flatnonzero(free)]
        target = -res[active]
        if Af.shape[0] * Af.shape[1] <= 4_000_000:
            dz = np.linalg.lstsq(Af.toarray(), target, rcond=None)[0]
        else:
            dz = lsqr(Af, target, atol=1e-15, btol=1e-15, iter_lim=20 * Af.shape[1])[0]
        x[free] += dz
        return x

    # -- hooks of the subclasses -------------------------------------------------------------
    def _new_columns(self, tag: Tag, lower: np.ndarray, upper: np.ndarray, binary: bool) -> None:
        pass

    def _new_rows(
        self, tag: Tag, idx: np.ndarray, coef: np.ndarray, sense: int, rhs: np.ndarray
    ) -> None:
        pass

    def _new_objective(self, cost: np.ndarray) -> None:
        pass


class ModelBuilder(ArrayModel):
    """The model as a PuLP problem too (one Python step per row, not per term), for CBC and
    any PuLP solver object (:func:`rainbowdp.design.solvers.solve`)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self._pulp = solvers._pulp()  # imported here: only this model needs PuLP
        self.prob = self._pulp.LpProblem(name, self._pulp.LpMaximize)
        self.vars: list[Any] = []
        self._rows: dict[str, Any] = {}

    def _new_columns(self, tag: Tag, lower: np.ndarray, upper: np.ndarray, binary: bool) -> None:
        pulp = self._pulp
        add = self.prob.add_variable
        nms = names(*tag)
        if binary:
            self.vars.extend(add(nm, cat=pulp.LpBinary) for nm in nms)
        elif np.all(np.isinf(upper)):
            self.vars.extend(add(nm, lo) for nm, lo in zip(nms, lower.tolist(), strict=True))
        else:
            self.vars.extend(
                add(nm, lo, None if math.isinf(hi) else hi)
                for nm, lo, hi in zip(nms, lower.tolist(), upper.tolist(), strict=True)
            )

    def _new_rows(
        self, tag: Tag, idx: np.ndarray, coef: np.ndarray, sense: int, rhs: np.ndarray
    ) -> None:
        V = self.vars
        Expr = self._pulp.LpAffineExpression
        Con = self._pulp.LpConstraint
        rows = self._rows
        nms = names(*tag)
        if np.all(idx >= 0):
            for nm, ii, cc, r in zip(nms, idx.tolist(), coef.tolist(), rhs.tolist(), strict=True):
                rows[nm] = Con(Expr([(V[i], c) for i, c in zip(ii, cc, strict=True)]), sense, nm, r)
        else:
            for nm, ii, cc, r in zip(nms, idx.tolist(), coef.tolist(), rhs.tolist(), strict=True):
                terms = [(V[i], c) for i, c in zip(ii, cc, strict=True) if i >= 0]
                rows[nm] = Con(Expr(terms), sense, nm, r)

    def _new_objective(self, cost: np.ndarray) -> None:
        V = self.vars
        nz = np.flatnonzero(cost)
        expr = self._pulp.LpAffineExpression(
            [(V[i], c) for i, c in zip(nz.tolist(), cost[nz].tolist(), strict=True)]
        )
        self.prob.setObjective(expr)

    def finish(self) -> None:
        self.prob.extend(self._rows)
        self._rows = {}

    def solve(self, solver: Any, time_limit: float | None) -> solvers.SolveOutcome:
        return solvers.solve(self.prob, solver, time_limit=time_limit)

    def values(self, ids: np.ndarray) -> np.ndarray:
        V = self.vars
        vals = (V[i].varValue for i in ids.tolist())
        return np.fromiter(
            (0.0 if x is None else x for x in vals), dtype=np.float64, count=ids.size
        )


def merge_repeats(idx: np.ndarray, coef: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row, sum the coefficients of a repeated column into one term (others become -1)."""
    order = np.argsort(idx, axis=1, kind="stable")
    si = np.take_along_axis(idx, order, axis=1).copy()
    sc = np.take_along_axis(np.asarray(coef, dtype=float), order, axis=1).copy()
    for k in range(si.shape[1] - 1, 0, -1):  # right to left: runs collapse onto their first
        same = (si[:, k] == si[:, k - 1]) & (si[:, k] >= 0)
        if same.any():
            sc[same, k - 1] += sc[same, k]
            si[same, k] = -1
            sc[same, k] = 0.0
    return si, sc


def names(prefix: str, *parts: Any) -> list[str]:
    """``f"{prefix}_{p0}_{p1}..."`` for index arrays of equal length (``[prefix]`` without)."""
    if not parts:
        return [prefix]
    cols = [p.tolist() for p in parts]
    return [prefix + "_" + "_".join(map(str, t)) for t in zip(*cols, strict=True)]


#: Relative safety margin of the designers: the model is solved at
#: :math:`\epsilon - \min(\epsilon/2, 2^{-40}\max(1, \epsilon))` and
#: :math:`\delta - \min(\delta/2, 2^{-40})`.
SAFETY_MARGIN = 2.0**-40


#: Largest ε whose e^ε is put into a model as a coefficient (e^ε = 1e8). Solvers treat much
#: larger coefficients as infinite or fail; above it the model uses e^EPS_MODEL_MAX, a stricter
#: constraint, so the result is private at the requested ε and loses at most about q 1e-8 utility
#: per node against the true optimum (which puts all but ~e^-ε of each row's mass on the best).
EPS_MODEL_MAX = math.log(1e8)


def safety_margin(epsilon: float, delta: float, rel: float = SAFETY_MARGIN) -> tuple[float, float]:
    r"""The (ε, δ) the LP is solved at: slightly inside the requested ones (and ε at most
    :data:`EPS_MODEL_MAX`).

    ``rel`` is the relative margin (default :data:`SAFETY_MARGIN`); the designers with side
    constraints retry at larger ones (:data:`CONSTRAINED_MARGINS`), and ``rel=0`` gives the
    requested parameters (ε capped).

    Solver vertices satisfy their constraints only up to round-off; a point private at
    :math:`(\epsilon_s, \delta_s)` up to :math:`10^{-15}` is private at (ε, δ) with room to
    spare: a tight ratio :math:`P_a(v) = e^{\epsilon_s} P_b(v)` leaves
    :math:`(e^\epsilon - e^{\epsilon_s}) P_b(v)`, and a tight budget leaves
    :math:`\delta - \delta_s`. The utility given up is of the order of the margin
    (:data:`SAFETY_MARGIN` ≈ 9.1e-13, relative).

    Examples
    --------
    >>> safety_margin(1.0, 0.0) == (1.0 - 2.0**-40, 0.0)
    True
    """
    return (
        min(EPS_MODEL_MAX, epsilon - min(epsilon / 2, rel * max(1.0, epsilon))),
        delta - min(delta / 2, rel),
    )


#: Relative safety margins tried in turn when side constraints forbid the repair by mixing
#: (docs/design.md, "Side constraints and the smallest δ").
CONSTRAINED_MARGINS = (SAFETY_MARGIN, 1e-9, 1e-6)


# ---------------------------------------------------------------------------------- solution
def extract(
    mb: ArrayModel,
    col: np.ndarray,
    fixed_mask: np.ndarray,
    fixed_values: np.ndarray,
    x: np.ndarray | None = None,
) -> np.ndarray:
    """The solver's P: fixed rows put back exactly, tiny negatives clipped, rows renormalised.

    ``x`` (all column values, e.g. from :meth:`ModelBuilder.refine`) replaces the solver's.
    """
    P = fixed_values.copy()
    free = ~fixed_mask
    if free.any():
        ids = col[free].ravel()
        live = ids >= 0  # -1: a probability that side constraints fix at 0
        flat = np.zeros(ids.size)
        flat[live] = mb.values(ids[live]) if x is None else x[ids[live]]
        vals = flat.reshape(-1, col.shape[1])
        np.maximum(vals, 0.0, out=vals)
        sums = vals.sum(axis=1, keepdims=True)
        vals = np.where(sums > 0, vals / np.where(sums > 0, sums, 1.0), 1.0 / vals.shape[1])
        P[free] = vals
    return P


def solve_model(
    mb: ArrayModel,
    col: np.ndarray,
    U: np.ndarray,
    fixed_mask: np.ndarray,
    fixed_values: np.ndarray,
    solver: Any,
    time_limit: float | None,
    started: float,
    *,
    objective: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[Any, np.ndarray, float, float]:
    """Set the objective, solve, and read the solver's mechanism back.

    Shared tail of the designers: returns the solver outcome, the extracted (N, q) array (see
    :func:`extract`), its utility and the model build time measured from ``started`` (a
    ``time.perf_counter()`` value). The objective maximised is the utility U, or
    ``objective = (column ids, coefficients)``.

    A MILP stopped by the time limit returns its incumbent (status ``"time_limit"``); the
    solver's bound on the model's objective is turned into a bound on the utility by adding
    the utility of the fixed rows, which the model leaves out as a constant.
    """
    if objective is None:
        ids = col[~fixed_mask].ravel()
        live = ids >= 0
        mb.set_objective(ids[live], U[~fixed_mask].ravel()[live])
    else:
        mb.set_objective(*objective)
    mb.finish()
    build = time.perf_counter() - started
    out = mb.solve(solver, time_limit)
    if out.bound is not None and objective is None:
        fixed_utility = float((U[fixed_mask] * fixed_values[fixed_mask]).sum())
        out = replace(out, bound=out.bound + fixed_utility)
    P = extract(mb, col, fixed_mask, fixed_values)
    return out, P, float((U * P).sum()), build


#: Mixing weight up to which the certified mixing of the solver's point is kept without trying
#: the refinement of the vertex (:func:`repair_solution` with ``mix_first``): the utility it
#: gives up is at most this fraction of the utility range of a row.
CHEAP_MIXING = 1e-9


def repair_solution(
    mb: ArrayModel,
    col: np.ndarray,
    G: RainbowGraph,
    P: np.ndarray,
    fixed_mask: np.ndarray,
    fixed_values: np.ndarray,
    ok: Callable[[np.ndarray], bool],
    *,
    start: Callable[[np.ndarray], float],
    what: str,
    equalise: bool = False,
    snap: bool = False,
    mix_first: bool = False,
) -> tuple[np.ndarray, float]:
    """:func:`rainbowdp._verify.repair.repair`, after first trying the solver's vertex refined to
    full precision.

    With ``mix_first`` and no fixed rows (the closed-form mixing weight then always repairs),
    the certified repair of the solver's point comes first and is kept when its weight is at
    most :data:`CHEAP_MIXING`, or when the model has no vertex to refine (``mb.vertex`` false);
    the refinement (a least-squares solve on the active set, the costly step on large models)
    runs only otherwise. Either way the point returned is the one ``ok`` -- the exact
    verifier -- accepted.
    """
    if ok(P):
        return P, 0.0
    first: tuple[np.ndarray, float] | None = None
    if mix_first and not fixed_mask.any():
        try:
            first = repair(
                G, P, fixed_mask, ok, start=start(P), what=what, equalise=equalise, snap=snap
            )
        except NotPrivateError:  # pragma: no cover - the closed-form weight always repairs
            first = None
        if first is not None and (not mb.vertex or not first[1] > CHEAP_MIXING):
            return first  # (a NaN weight: rows equalised at epsilon = delta = 0)
    try:
        x = mb.refine()
    except (ValueError, np.linalg.LinAlgError):  # pragma: no cover - numerical failure
        x = None
    if x is not None and np.all(np.isfinite(x)):
        R = extract(mb, col, fixed_mask, fixed_values, x)
        try:
            return repair(
                G, R, fixed_mask, ok, start=start(R), what=what, equalise=equalise, snap=snap
            )
        except NotPrivateError:
            pass
    if first is not None:
        return first
    return repair(G, P, fixed_mask, ok, start=start(P), what=what, equalise=equalise, snap=snap)


def design_result(
    mb: ArrayModel,
    out: Any,
    M: Mechanism,
    U: np.ndarray,
    *,
    solver_objective: float,
    repair_weight: float,
    build_seconds: float,
    achieved_delta: float,
    method: str,
    formulation: str,
    epsilon: float,
    delta: float,
    solved_epsilon: float,
    solved_delta: float,
    objective: float | None = None,
) -> DesignResult:
    """The :class:`DesignResult` of a solved and certified model (shared by the designers).

    ``objective`` defaults to the utility of ``M``. For an incumbent stopped by the time limit
    (``out.status == "time_limit"``), the solver's bound on the utility and the relative gap
    :func:`relative_gap` of ``objective`` to it are kept.
    """
    if objective is None:
        objective = float((U * M.probabilities).sum())
    bound = getattr(out, "bound", None)
    return DesignResult(
        mechanism=M,
        objective=objective,
        status=out.status,
        solver=out.solver,
        build_seconds=build_seconds,
        solve_seconds=out.seconds,
        n_variables=mb.n_cols,
        n_constraints=mb.n_rows,
        repair=max(0.0, solver_objective - objective),
        repair_weight=0.0 if math.isnan(repair_weight) else repair_weight,
        solver_objective=solver_objective,
        achieved_delta=achieved_delta,
        method=method,
        formulation=formulation,
        epsilon=epsilon,
        delta=delta,
        n_integer_variables=mb.n_integer,
        solved_epsilon=solved_epsilon,
        solved_delta=solved_delta,
        best_bound=bound,
        gap=relative_gap(bound, objective),
    )


def relative_gap(bound: float | None, objective: float) -> float | None:
    r"""How far ``objective`` may be below the optimum: :math:`(b - o) / |o|` for a bound b on a
    maximisation, at least 0 (a bound a round-off below the objective gives 0), ``inf`` if
    :math:`o = 0 < b`; ``None`` without a bound.

    Examples
    --------
    >>> round(relative_gap(-9.996, -10.0), 12)
    0.0004
    >>> relative_gap(None, 1.0) is None
    True
    """
    if bound is None or math.isnan(bound):
        return None
    diff = bound - objective
    if diff <= 0:
        return 0.0
    return diff / abs(objective) if objective != 0 else math.inf
