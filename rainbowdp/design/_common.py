r"""Shared machinery of the LP and MILP designers: argument checks, utilities, model building,
solution extraction (the certified repair itself is :mod:`rainbowdp._repair`).

Nothing here is public except :func:`utility_matrix` (re-exported by :mod:`rainbowdp.design`).
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pulp

from .._repair import repair
from .._validation import check_probability_vector, real_array
from ..exceptions import InfeasibleDesignError, NotPrivateError, ParameterError, ParameterTypeError
from ..graph import RainbowGraph
from . import solvers

__all__ = ["utility_matrix"]

UTILITY_NAMES = ("accuracy", "rank", "absolute", "squared")


# ---------------------------------------------------------------------------------- utilities
def _answers_loss(G: RainbowGraph, loss: Callable[[Any, Any], float], what: str) -> np.ndarray:
    if G.answers is None:
        raise ParameterError(
            f"`utility`={what} needs a graph with true answers (G.answers, as built "
            "by RainbowGraph.from_query, circulant or count_path); this graph has "
            "none."
        )
    outs = G.outputs
    try:
        L = np.array([[float(loss(o, a)) for o in outs] for a in G.answers], dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ParameterError(f"`utility`={what}: the loss could not be evaluated: {exc}") from exc
    return L.reshape(G.n_nodes, G.n_outputs)


def _numeric_answers(G: RainbowGraph, what: str) -> tuple[np.ndarray, np.ndarray]:
    if G.answers is None:
        raise ParameterError(
            f"`utility`={what!r} needs a graph with true answers (G.answers, as built "
            "by RainbowGraph.from_query, circulant or count_path); this graph has "
            "none."
        )

    def real(x: Any) -> bool:
        return isinstance(x, numbers.Real) and not isinstance(x, bool)

    if not (all(real(o) for o in G.outputs) and all(real(a) for a in G.answers)):
        raise ParameterError(
            f"`utility`={what!r} needs numeric outputs and answers, got outputs {G.outputs!r}."
        )
    return (np.asarray(G.outputs, dtype=np.float64), np.asarray(G.answers, dtype=np.float64))


def utility_matrix(G: RainbowGraph, utility: Any = "accuracy") -> np.ndarray:
    r"""The (N, q) utility matrix :math:`U[d, v]` for a ``utility`` specification.

    The design problems maximise :math:`\sum_d \sum_v U[d, v]\,\mathcal M(d)(v)`.

    Parameters
    ----------
    G : RainbowGraph
    utility : str, array_like, callable or ("loss", L)
        ``"accuracy"``
            1 on each node's most preferred output (``G.ranks == 0``), 0 elsewhere: the
            probability of answering with the top of the rainbow (1 − error rate, Kadam et al.
            Definition 3, on the circulant graph).
        ``"rank"``
            :math:`q - 1 - \text{rank}_d(v)`: linear in the rainbow position.
        ``"absolute"``, ``"squared"``
            :math:`-|v - a(d)|` and :math:`-(v - a(d))^2` for graphs with numeric outputs and
            true answers ``G.answers`` (Kadam et al. Definition 4 is the squared one).
        array_like of shape (N, q)
            U itself, rows in ``G.nodes`` order, columns in ``G.outputs`` order.
        callable ``loss(output, answer) -> float``
            :math:`U[d, v] = -\text{loss}(v, a(d))`; needs ``G.answers``.
        ``("loss", L)``
            L an (N, q) array of losses or a callable as above; :math:`U = -L`.

    Returns
    -------
    numpy.ndarray
        Finite float64 array of shape (N, q).

    Raises
    ------
    ValueError, TypeError
        On an unknown name, a wrong shape, non-finite values, or a loss that needs answers on a
        graph without them.

    Examples
    --------
    >>> from rainbowdp.graph import RainbowGraph
    >>> G = RainbowGraph.count_path(2)
    >>> utility_matrix(G, "accuracy").tolist()
    [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    >>> utility_matrix(G, "rank")[1].tolist()
    [1.0, 2.0, 0.0]
    >>> utility_matrix(G, ("loss", lambda v, a: (v - a) ** 2))[0].tolist()
    [-0.0, -1.0, -4.0]
    """
    if not isinstance(G, RainbowGraph):
        raise ParameterTypeError(f"`G` must be a RainbowGraph, got G={type(G).__name__}.")
    n, q = G.n_nodes, G.n_outputs
    if isinstance(utility, str):
        name = utility.lower()
        if name == "accuracy":
            return (G.ranks == 0).astype(np.float64)
        if name == "rank":
            return (q - 1 - G.ranks).astype(np.float64)
        if name in ("absolute", "squared"):
            v, a = _numeric_answers(G, utility)
            diff = v[None, :] - a[:, None]
            return -(np.abs(diff) if name == "absolute" else diff * diff)
        raise ParameterError(
            f"`utility` must be one of {UTILITY_NAMES}, an (N, q) array, a loss "
            f"callable or ('loss', L), got utility={utility!r}."
        )
    if isinstance(utility, tuple) and len(utility) == 2 and isinstance(utility[0], str):
        if utility[0] != "loss":
            raise ParameterError(
                f"`utility` as a pair must be ('loss', L), got utility={utility!r}."
            )
        L = utility[1]
        if callable(L):
            return -_answers_loss(G, L, repr(utility))
        return -_as_matrix(L, n, q, "utility", utility)
    if callable(utility):
        return -_answers_loss(G, utility, repr(utility))
    return _as_matrix(utility, n, q, "utility", utility)


def _as_matrix(value: Any, n: int, q: int, name: str, shown: Any) -> np.ndarray:
    U = real_array(value, name)
    if U.shape != (n, q):
        raise ParameterError(
            f"`{name}` must have shape ({n}, {q}) (nodes, outputs), got shape "
            f"{U.shape} for {name}={shown!r}."
        )
    if not np.all(np.isfinite(U)):
        raise ParameterError(f"`{name}` must be finite, got {name}={shown!r}.")
    return U


# ---------------------------------------------------------------------------------- arguments
def check_graph(G: Any) -> RainbowGraph:
    if not isinstance(G, RainbowGraph):
        raise ParameterTypeError(f"`G` must be a RainbowGraph, got G={type(G).__name__}.")
    return G


def _node_key(G: RainbowGraph, node: Any, name: str) -> int:
    key = tuple(node) if isinstance(node, list) else node
    try:
        return G.node_index[key]
    except (KeyError, TypeError):
        raise ParameterError(f"`{name}` names node {node!r}, which is not in the graph.") from None


def check_fixed(G: RainbowGraph, fixed: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(mask (N,), values (N, q))`` for the ``fixed`` argument; values are 0 off the mask."""
    n, q = G.n_nodes, G.n_outputs
    mask = np.zeros(n, dtype=bool)
    values = np.zeros((n, q))
    if fixed is None:
        return mask, values
    if not isinstance(fixed, Mapping):
        raise ParameterTypeError(
            f"`fixed` must be a mapping node -> distribution, got fixed={fixed!r}."
        )
    for node, vec in fixed.items():
        i = _node_key(G, node, "fixed")
        values[i] = check_probability_vector(vec, f"fixed[{node!r}]", size=q)
        mask[i] = True
    return mask, values


def check_bounds(
    G: RainbowGraph, bounds: Any, fixed_mask: np.ndarray, fixed_values: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(lower, upper)`` (N, q) arrays for the ``bounds`` argument (default [0, 1])."""
    n, q = G.n_nodes, G.n_outputs
    lower = np.zeros((n, q))
    upper = np.ones((n, q))
    if bounds is None:
        return lower, upper
    if not isinstance(bounds, Mapping):
        raise ParameterTypeError(
            f"`bounds` must be a mapping node -> (lower, upper), got bounds={bounds!r}."
        )
    for node, pair in bounds.items():
        i = _node_key(G, node, "bounds")
        if not (isinstance(pair, tuple | list) and len(pair) == 2):
            raise ParameterError(
                f"`bounds[{node!r}]` must be a pair (lower, upper) of numbers or "
                f"length-{q} vectors, got {pair!r}."
            )
        lo_hi = []
        for side, val in zip(("lower", "upper"), pair, strict=True):
            default = 0.0 if side == "lower" else 1.0
            try:
                arr = np.broadcast_to(
                    np.asarray(default if val is None else val, dtype=np.float64), (q,)
                ).copy()
            except (TypeError, ValueError):
                raise ParameterError(
                    f"`bounds[{node!r}]` {side} must be a number or a length-{q} "
                    f"vector, got {val!r}."
                ) from None
            if not np.all(np.isfinite(arr)) or np.any(arr < 0) or np.any(arr > 1):
                raise ParameterError(f"`bounds[{node!r}]` {side} must lie in [0, 1], got {val!r}.")
            lo_hi.append(arr)
        lo, hi = lo_hi
        if np.any(lo > hi):
            raise ParameterError(f"`bounds[{node!r}]` must have lower <= upper, got {pair!r}.")
        if lo.sum() > 1 + 1e-12 or hi.sum() < 1 - 1e-12:
            raise InfeasibleDesignError(
                f"`bounds[{node!r}]`={pair!r} admit no distribution: sum(lower) = {lo.sum():g} and "
                f"sum(upper) = {hi.sum():g} must bracket 1."
            )
        if fixed_mask[i] and (
            np.any(fixed_values[i] < lo - 1e-12) or np.any(fixed_values[i] > hi + 1e-12)
        ):
            raise InfeasibleDesignError(
                f"`fixed[{node!r}]`={fixed_values[i].tolist()} violates "
                f"`bounds[{node!r}]`={pair!r}."
            )
        lower[i], upper[i] = lo, hi
    return lower, upper


def check_flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise ParameterTypeError(f"`{name}` must be a bool, got {name}={value!r}.")
    return value


# ---------------------------------------------------------------------------------- graph parts
def directed_pairs(G: RainbowGraph, fixed_mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both orientations (a, b) of every edge, except those between two fixed nodes."""
    e = G.edges
    a = np.concatenate([e[:, 0], e[:, 1]])
    b = np.concatenate([e[:, 1], e[:, 0]])
    keep = ~(fixed_mask[a] & fixed_mask[b])
    return a[keep], b[keep]


def fixed_fixed_pairs(G: RainbowGraph, fixed_mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    e = G.edges
    both = fixed_mask[e[:, 0]] & fixed_mask[e[:, 1]]
    ee = e[both]
    return (np.concatenate([ee[:, 0], ee[:, 1]]), np.concatenate([ee[:, 1], ee[:, 0]]))


# ---------------------------------------------------------------------------------- model
class ModelBuilder:
    """A PuLP problem filled from numpy index arrays (one Python step per row, not per term)."""

    def __init__(self, name: str) -> None:
        self.prob = pulp.LpProblem(name, pulp.LpMaximize)
        self.vars: list[pulp.LpVariable] = []
        self.n_rows = 0
        self.n_integer = 0
        self._rows: dict[str, pulp.LpConstraint] = {}
        # the same model as arrays, for refine(): COO triplets, rhs, sense; column bounds
        self._coo: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._rhs: list[np.ndarray] = []
        self._sense: list[np.ndarray] = []
        self._lb: list[np.ndarray] = []
        self._ub: list[np.ndarray] = []
        self._int: list[np.ndarray] = []

    def add_columns(
        self, names: list[str], lower: np.ndarray, upper: np.ndarray | None, *, binary: bool = False
    ) -> np.ndarray:
        start = len(self.vars)
        k = len(names)
        self._lb.append(np.zeros(k) if binary else np.asarray(lower, dtype=float))
        self._ub.append(
            np.ones(k)
            if binary
            else (np.full(k, np.inf) if upper is None else np.asarray(upper, dtype=float))
        )
        self._int.append(np.full(k, binary))
        add = self.prob.add_variable
        if binary:
            self.vars.extend(add(nm, cat=pulp.LpBinary) for nm in names)
            self.n_integer += len(names)
        elif upper is None:
            self.vars.extend(add(nm, lo) for nm, lo in zip(names, lower.tolist(), strict=True))
        else:
            self.vars.extend(
                add(nm, lo, hi)
                for nm, lo, hi in zip(names, lower.tolist(), upper.tolist(), strict=True)
            )
        return np.arange(start, len(self.vars))

    def add_rows(
        self, names: list[str], idx: np.ndarray, coef: np.ndarray, sense: int, rhs: np.ndarray
    ) -> None:
        """Rows ``sum_k coef[r, k] x[idx[r, k]] (sense) rhs[r]``; ``idx < 0`` marks no term."""
        V = self.vars
        Expr = pulp.LpAffineExpression
        Con = pulp.LpConstraint
        rows = self._rows
        if idx.shape[1] == 0:
            return
        keep = idx >= 0
        r_ids = np.broadcast_to(
            np.arange(self.n_rows, self.n_rows + idx.shape[0])[:, None], idx.shape
        )
        self._coo.append((r_ids[keep], idx[keep], np.asarray(coef, dtype=float)[keep]))
        self._rhs.append(np.asarray(rhs, dtype=float))
        self._sense.append(np.full(idx.shape[0], sense))
        if np.all(idx >= 0):
            for nm, ii, cc, r in zip(names, idx.tolist(), coef.tolist(), rhs.tolist(), strict=True):
                rows[nm] = Con(Expr([(V[i], c) for i, c in zip(ii, cc, strict=True)]), sense, nm, r)
        else:
            for nm, ii, cc, r in zip(names, idx.tolist(), coef.tolist(), rhs.tolist(), strict=True):
                terms = [(V[i], c) for i, c in zip(ii, cc, strict=True) if i >= 0]
                rows[nm] = Con(Expr(terms), sense, nm, r)
        self.n_rows += len(names)

    def add_sum_rows(
        self, names: list[str], groups: np.ndarray, sense: int, rhs: np.ndarray
    ) -> None:
        """Rows ``sum_k x[groups[r, k]] (sense) rhs[r]`` for groups of equal size."""
        self.add_rows(names, groups, np.ones(groups.shape), sense, rhs)

    def set_objective(self, ids: np.ndarray, coefs: np.ndarray) -> None:
        V = self.vars
        nz = coefs != 0
        expr = pulp.LpAffineExpression(
            [(V[i], c) for i, c in zip(ids[nz].tolist(), coefs[nz].tolist(), strict=True)]
        )
        self.prob.setObjective(expr)

    def finish(self) -> None:
        self.prob.extend(self._rows)
        self._rows = {}

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
        from scipy.sparse import csr_array
        from scipy.sparse.linalg import lsqr

        if not self._coo or not self.vars:
            return None
        x = self.values(np.arange(len(self.vars)))
        lb, ub = np.concatenate(self._lb), np.concatenate(self._ub)
        integer = np.concatenate(self._int)
        rows = np.concatenate([c[0] for c in self._coo])
        cols = np.concatenate([c[1] for c in self._coo])
        vals = np.concatenate([c[2] for c in self._coo])
        rhs, sense = np.concatenate(self._rhs), np.concatenate(self._sense)
        A = csr_array((vals, (rows, cols)), shape=(self.n_rows, len(self.vars)))
        x = np.where(integer, np.round(x), x)
        at_lb = x <= lb + tol
        at_ub = x >= ub - tol
        x = np.where(at_lb, lb, np.where(at_ub, ub, x))
        free = ~(at_lb | at_ub | integer)
        res = A @ x - rhs
        ge = sense == pulp.LpConstraintGE
        active = (sense == pulp.LpConstraintEQ) | (np.where(ge, -res, res) > -tol)
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

    def values(self, ids: np.ndarray) -> np.ndarray:
        V = self.vars
        vals = (V[i].varValue for i in ids.tolist())
        return np.fromiter(
            (0.0 if x is None else x for x in vals), dtype=np.float64, count=ids.size
        )


def names(prefix: str, *parts: np.ndarray) -> list[str]:
    """``f"{prefix}_{p0}_{p1}..."`` for index arrays of equal length."""
    cols = [p.tolist() for p in parts]
    return [prefix + "_" + "_".join(map(str, t)) for t in zip(*cols, strict=True)]


def probability_columns(
    mb: ModelBuilder, fixed_mask: np.ndarray, lower: np.ndarray, upper: np.ndarray
) -> np.ndarray:
    """Columns P[i, v] for every free node; returns the (N, q) column map (-1 where fixed)."""
    n, q = lower.shape
    col = -np.ones((n, q), dtype=np.intp)
    free = np.flatnonzero(~fixed_mask)
    if free.size == 0:
        return col
    ii = np.repeat(free, q)
    vv = np.tile(np.arange(q), free.size)
    ids = mb.add_columns(names("p", ii, vv), lower[ii, vv], upper[ii, vv])
    col[ii, vv] = ids
    # rows are distributions
    mb.add_sum_rows(names("sum", free), col[free], pulp.LpConstraintEQ, np.ones(free.size))
    return col


#: Relative safety margin of the designers: the model is solved at
#: :math:`\epsilon - \min(\epsilon/2, 2^{-40}\max(1, \epsilon))` and
#: :math:`\delta - \min(\delta/2, 2^{-40})`.
SAFETY_MARGIN = 2.0**-40


#: Largest ε whose e^ε is put into a model as a coefficient (e^ε = 1e8). Solvers treat much
#: larger coefficients as infinite or fail; above it the model uses e^EPS_MODEL_MAX, a stricter
#: constraint, so the result is private at the requested ε and loses at most about q 1e-8 utility
#: per node against the true optimum (which puts all but ~e^-ε of each row's mass on the best).
EPS_MODEL_MAX = math.log(1e8)


def safety_margin(epsilon: float, delta: float) -> tuple[float, float]:
    r"""The (ε, δ) the LP is solved at: slightly inside the requested ones (and ε at most
    :data:`EPS_MODEL_MAX`).

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
        min(EPS_MODEL_MAX, epsilon - min(epsilon / 2, SAFETY_MARGIN * max(1.0, epsilon))),
        delta - min(delta / 2, SAFETY_MARGIN),
    )


# ---------------------------------------------------------------------------------- solution
def extract(
    mb: ModelBuilder,
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
        vals = (mb.values(ids) if x is None else x[ids].copy()).reshape(-1, col.shape[1])
        np.maximum(vals, 0.0, out=vals)
        sums = vals.sum(axis=1, keepdims=True)
        vals = np.where(sums > 0, vals / np.where(sums > 0, sums, 1.0), 1.0 / vals.shape[1])
        P[free] = vals
    return P


def solve_model(
    mb: ModelBuilder,
    col: np.ndarray,
    U: np.ndarray,
    fixed_mask: np.ndarray,
    fixed_values: np.ndarray,
    solver: Any,
    time_limit: float | None,
    started: float,
) -> tuple[Any, np.ndarray, float, float]:
    """Set the objective, solve, and read the solver's mechanism back.

    Shared tail of :func:`~rainbowdp.design.lp` and :func:`~rainbowdp.design.milp`: returns the
    solver outcome, the extracted (N, q) array (see :func:`extract`), its utility and the model
    build time measured from ``started`` (a ``time.perf_counter()`` value).
    """
    free = np.flatnonzero(~fixed_mask)
    mb.set_objective(col[free].ravel(), U[free].ravel())
    mb.finish()
    build = time.perf_counter() - started
    out = solvers.solve(mb.prob, solver, time_limit=time_limit)
    P = extract(mb, col, fixed_mask, fixed_values)
    return out, P, float((U * P).sum()), build


def repair_solution(
    mb: ModelBuilder,
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
) -> tuple[np.ndarray, float]:
    """:func:`rainbowdp._repair.repair`, after first trying the solver's vertex refined to full
    precision."""
    if ok(P):
        return P, 0.0
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
    return repair(G, P, fixed_mask, ok, start=start(P), what=what, equalise=equalise, snap=snap)
