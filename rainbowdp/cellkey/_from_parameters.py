r"""The count ptable of the R package ``ptable`` rebuilt from its parameters (D, V, js, pstay,
mono): :meth:`Ptable.from_parameters` delegates here.

Facts taken from ``ptable`` 0.3.3 (sdcTools, Destatis; R sources ``pt_create_pParams.R``,
``pt_create_pTable.R``, ``pt_optim_entropy.R``, ``helpers.R``), ``create_cnt_ptable``:

- **Rows.** ``ncat = D`` when ``js = 0``, else ``ncat = D + js + 1``; the table has the rows
  i = 0..ncat, row 0 publishes 0 with probability 1, and the last row serves every count above
  it. ``pstay`` and ``mono`` are one scalar or one value per row i = 1..ncat (a vector of
  another length is an error); ``pstay`` must lie in (0, 1) (ptable 1.0.0's check; 0.3.3
  refuses 0 and 1 only), NA: no preset.
- **Support of row i.** The published counts j = max(i − D, 0)..i + D without the blocked
  counts 1..js, noise v = j − i.
- **Problem of row i** (``pt_optim_entropy``, ``optim = 1``): minimise
  :math:`\sum_v p_v \log_2 p_v` subject to :math:`\sum_v p_v = 1`, :math:`\sum_v v p_v = 0`,
  :math:`\sum_v v^2 p_v \le V`, :math:`p_v \le 1`, :math:`p_v \ge` ``lb`` (``1e-8`` for every
  v, ``pstay`` for v = 0 when it is set) and, when ``mono`` holds for the row,
  :math:`p_v \le p_{v+1}` for every pair of consecutive support points up to v = 0 (the
  negative side only; no constraint when 0 is blocked).
- **The pstay loop.** The problem is solved again, up to 20 times in all, while the variance
  of the solution rounded to 3 decimals differs from V, with the lower bound at v = 0 lowered
  by 0.05 each time (never below 1e-8); a blocked row (i <= js) is solved once.
- **Infeasible V.** When the solver's probabilities do not sum to 1 ptable stops with "The
  variance parameter you set is too small!"; a row with a single support point makes
  ``nloptr`` fail (``NLOPT_INVALID_ARGS``).
- **Rounding.** ``p_int_ub := cumsum(p)``, ``p_int_lb := p_int_ub - p``, both rounded to 8
  decimals, and ``p := p_int_ub - p_int_lb``.

``ptable`` solves with ``nloptr``'s SLSQP to a relative tolerance of 1e-7. This module solves
the same strictly convex problem to round-off instead, by an active-set method: starting from
the law with only the mean and variance constraints
(:func:`rainbowdp.noise.tablebuilder.max_entropy`), or where that fails from
:func:`scipy.optimize.minimize` (SLSQP), it solves the
problem with the binding constraints as equations (Newton's method on its convex dual), adds
the constraints the solution violates and drops those whose multiplier is negative, until the
Karush-Kuhn-Tucker conditions hold: the unique optimum. On ptable's own tables the two agree
to 5e-8 (the fixtures of the tests); where many bounds 1e-8 bind (e.g. D = 10, V = 1) ptable's
solver stops up to about 1e-6 from the optimum.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..exceptions import ParameterError, ParameterTypeError, SolverError
from ._layout_r import R_DIGITS, rounded_bounds, to_float

__all__ = [
    "LOWER_BOUND",
    "MAX_PSTAY_ROUNDS",
    "PSTAY_STEP",
    "RowSolution",
    "parameter_probabilities",
    "parameter_rows",
    "parameter_table",
    "ptable_parameters",
    "solve_row",
]

#: ``epsilon = 1 / 10^ndigits`` of ``pt_create_pTable``: the least probability of an entry.
LOWER_BOUND = 1.0 / 10**R_DIGITS
#: The pstay loop of ``pt_create_pTable``: at most 20 solves per row ...
MAX_PSTAY_ROUNDS = 20
#: ... each lowering the bound at v = 0 by 0.05 ...
PSTAY_STEP = 0.05
#: ... while the variance rounded to 3 decimals differs from V.
VARIANCE_DECIMALS = 3
#: The largest D accepted (a row has 2D + 1 entries; ptable's own examples use D <= 10).
MAX_D = 200
#: Feasibility slack of a solution (sum, mean, variance, bounds).
FEAS_TOL = 1e-11
#: A multiplier of an active inequality at least this negative drops it from the active set.
MULT_TOL = 1e-10
#: Active-set changes tried before giving up.
MAX_ACTIVE_ROUNDS = 60


@dataclass(frozen=True)
class RowSolution:
    """One row's solution: the probabilities and how ptable's loop reached them.

    Attributes
    ----------
    p : numpy.ndarray
        The optimum on the row's support (before ptable's rounding).
    rounds : int
        Solves of the pstay loop (``iter`` of ptable's ``empResults``).
    stay_bound : float
        The lower bound at v = 0 in the last solve (0 when 0 is blocked).
    """

    p: np.ndarray
    rounds: int
    stay_bound: float


# ------------------------------------------------------------------------------ parameters
def _check_bool(x: Any, value: Any) -> bool:
    """One mono value: a bool (``value`` is the whole argument, for the message)."""
    if isinstance(x, bool | np.bool_):
        return bool(x)
    raise ParameterTypeError(f"`mono` must be a bool or a sequence of bools, got mono={value!r}.")


def _per_row(value: Any, name: str, ncat: int) -> list[Any]:
    """A scalar repeated, or a sequence of exactly ``ncat`` values (ptable's rule)."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence | np.ndarray):
        return [value] * ncat
    vals = (
        list(np.asarray(value, dtype=object).ravel())
        if isinstance(value, np.ndarray)
        else list(value)
    )
    if len(vals) == 1:
        return vals * ncat
    if len(vals) != ncat:
        raise ParameterError(
            f"`{name}` must be a scalar or have one value per row i = 1..ncat, ncat = {ncat} "
            f"(D if js = 0, else D + js + 1, as in ptable's pt_create_pParams), got "
            f"{len(vals)} values: {name}={value!r}."
        )
    return vals


def _check_pstay(x: Any, value: Any) -> float:
    """One pstay value: None or NaN (no preset, 0) or a real in (0, 1)."""
    if x is None:
        return 0.0
    if isinstance(x, bool | np.bool_) or not isinstance(x, numbers.Real):
        raise ParameterTypeError(
            f"`pstay` must be None or real numbers in (0, 1), got pstay={value!r}."
        )
    f = float(x)
    if math.isnan(f):
        return 0.0
    if not 0.0 < f < 1.0:
        raise ParameterError(
            f"`pstay` must be larger than zero and smaller than one (0 < pstay < 1, as in "
            f"ptable), got pstay={value!r}."
        )
    return f


def _check_integer(value: Any, name: str, minimum: int, maximum: int) -> int:
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise ParameterTypeError(f"`{name}` must be an integer, got {name}={value!r}.")
    f = float(value)
    if not (math.isfinite(f) and f == round(f)):
        raise ParameterError(f"`{name}` must be an integer, got {name}={value!r}.")
    if not minimum <= f <= maximum:
        raise ParameterError(
            f"`{name}` must be an integer in [{minimum}, {maximum}], got {name}={value!r}."
        )
    return int(f)


def ptable_parameters(
    D: Any, V: Any, js: Any = 0, pstay: Any = None, mono: Any = True
) -> tuple[int, float, int, list[float], list[bool]]:
    """(D, V, js, pstay per row, mono per row) checked as ``pt_create_pParams`` does.

    pstay is 0 where no probability is preset (ptable's NA). Raises ParameterError /
    ParameterTypeError naming the parameter.

    Examples
    --------
    >>> ptable_parameters(2, 1.05, js=1, mono=[True, True, False, True])[3:]
    ([0.0, 0.0, 0.0, 0.0], [True, True, False, True])
    """
    d = _check_integer(D, "D", 1, MAX_D)
    if isinstance(V, bool | np.bool_) or not isinstance(V, numbers.Real):
        raise ParameterTypeError(f"`V` must be a real number, got V={V!r}.")
    v = float(V)
    if not (math.isfinite(v) and v > 0):
        raise ParameterError(f"`V` must be a positive finite variance, got V={V!r}.")
    j = _check_integer(js, "js", 0, 10 * MAX_D)
    ncat = d if j == 0 else d + j + 1
    stays = [_check_pstay(x, pstay) for x in _per_row(pstay, "pstay", ncat)]
    monos = [_check_bool(x, mono) for x in _per_row(mono, "mono", ncat)]
    return d, v, j, stays, monos


def parameter_rows(D: int, js: int) -> list[np.ndarray]:
    """The noise values v of rows i = 1..ncat: j = max(i − D, 0)..i + D without 1..js.

    Examples
    --------
    >>> [r.tolist() for r in parameter_rows(2, 1)]
    [[-1, 1, 2], [-2, 0, 1, 2], [-1, 0, 1, 2], [-2, -1, 0, 1, 2]]
    """
    ncat = D if js == 0 else D + js + 1
    out = []
    for i in range(1, ncat + 1):
        j = np.arange(max(i - D, 0), i + D + 1)
        j = j[(j < 1) | (j > js)]
        out.append((j - i).astype(np.int64))
    return out


# ------------------------------------------------------------------------------ one row
def _inequalities(
    v: np.ndarray, V: float, lb: np.ndarray, mono: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The rows G and right-hand sides h of G p <= h: variance, monotony, lower bounds."""
    n = v.size
    rows = [v * v]
    rhs = [V]
    zero = np.flatnonzero(v == 0)
    if mono and zero.size:
        for k in range(int(zero[0])):
            g = np.zeros(n)
            g[k], g[k + 1] = 1.0, -1.0
            rows.append(g)
            rhs.append(0.0)
    for k in range(n):
        g = np.zeros(n)
        g[k] = -1.0
        rows.append(g)
        rhs.append(-lb[k])
    return np.array(rows), np.array(rhs)


def _newton(x: np.ndarray, E: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    r"""The minimiser of :math:`\sum x \log x` on :math:`E x = b` and its multipliers w, or
    None: Newton's method on the convex dual :math:`\phi(w) = \sum_k e^{-1 - (E^\top w)_k} +
    b^\top w` (gradient :math:`b - E x(w)`, Hessian :math:`E\,\mathrm{diag}(x(w))\,E^\top`)
    with a backtracking line search, from the multipliers that best fit the law x; the
    primal optimum is :math:`x(w) = e^{-1 - E^\top w}`, so :math:`\log x + 1 + E^\top w = 0`
    holds exactly and Newton's quadratic convergence gives :math:`E x = b` to round-off."""

    def law(w: np.ndarray) -> np.ndarray:
        return np.exp(np.minimum(-1.0 - E.T @ w, 700.0))

    def phi(w: np.ndarray) -> float:
        return float(law(w).sum() + b @ w)

    w = np.linalg.lstsq(E.T, -(np.log(np.maximum(x, 1e-300)) + 1.0), rcond=None)[0]
    f = phi(w)
    for _ in range(100):
        if float(np.abs(w).max()) > 1e6:
            return None  # diverging: no positive law meets these equations
        x = law(w)
        g = b - E @ x
        if float(np.abs(g).max()) <= 1e-15:
            break
        try:
            dw = -np.linalg.lstsq((E * x) @ E.T, g, rcond=None)[0]
        except np.linalg.LinAlgError:
            return None
        slope = float(g @ dw)
        if not (math.isfinite(slope) and slope < 0):
            break
        t = 1.0
        while t > 1e-12:
            fn = phi(w + t * dw)
            # (the last term: near the optimum phi changes below its round-off)
            if fn <= f + 1e-4 * t * slope + 4e-16 * abs(f):
                break
            t *= 0.5
        else:
            break
        w, f = w + t * dw, fn
    x = law(w)
    ok = bool(np.all(np.isfinite(x)) and np.all(x > 0)) and float(np.abs(E @ x - b).max()) <= 1e-13
    return (x, w) if ok else None


def _slsqp(v: np.ndarray, G: np.ndarray, h: np.ndarray, objective: str) -> np.ndarray | None:
    """SLSQP from the uniform law: the entropy problem or the least variance."""
    from scipy.optimize import minimize

    n = v.size
    if objective == "entropy":

        def fun(x: np.ndarray) -> float:
            x = np.maximum(x, 1e-300)
            return float(x @ np.log(x))

        def jac(x: np.ndarray) -> np.ndarray:
            return np.log(np.maximum(x, 1e-300)) + 1.0

        first = 0
    else:
        var = v * v

        def fun(x: np.ndarray) -> float:
            return float(var @ x)

        def jac(x: np.ndarray) -> np.ndarray:
            return var

        first = 1
    # the rows of G after the variance and monotony are the lower bounds, given as bounds
    G_used, h_used = G[first : G.shape[0] - n], h[first : G.shape[0] - n]
    cons = [
        {
            "type": "eq",
            "fun": lambda x: np.array([x.sum() - 1.0, v @ x]),
            "jac": lambda x: np.vstack([np.ones(n), v]),
        },
    ]
    if G_used.shape[0]:
        cons.append(
            {"type": "ineq", "fun": lambda x: h_used - G_used @ x, "jac": lambda x: -G_used}
        )
    lb = -h[-n:]
    with warnings.catch_warnings():  # a start point only: the caller checks the result
        warnings.simplefilter("ignore", RuntimeWarning)
        res = minimize(
            fun,
            np.full(n, 1.0 / n),
            jac=jac,
            method="SLSQP",
            bounds=list(zip(lb.tolist(), [1.0] * n, strict=True)),
            constraints=cons,
            options={"ftol": 1e-12, "maxiter": 500},
        )
    return np.asarray(res.x, dtype=np.float64) if np.all(np.isfinite(res.x)) else None


def _starts(
    v: np.ndarray, G: np.ndarray, h: np.ndarray, warm: np.ndarray | None
) -> Iterator[np.ndarray | None]:
    """Start points of the active-set method, best first: the previous round's law, the law
    with only the sum, mean and variance constraints (the dual solver of
    :func:`rainbowdp.noise.tablebuilder.max_entropy`; None where it has none), SLSQP's."""
    from ..noise.tablebuilder import max_entropy

    if warm is not None:
        yield warm
    try:
        yield max_entropy(v, variance=float(h[0]))
    except (ParameterError, SolverError):
        yield None
    yield _slsqp(v, G, h, "entropy")


def _kkt_point(
    x: np.ndarray, G: np.ndarray, h: np.ndarray, active: list[int], Aeq: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """The optimum with the ``active`` inequalities as equations, and the multiplier of each
    active inequality (in ``active``'s order; >= 0 at a KKT point). Active lower bounds fix
    their variable; the other active rows join the equations on the free variables."""
    n = x.size
    bound_rows = [a for a in active if np.count_nonzero(G[a]) == 1 and G[a].sum() < 0]
    fixed = np.zeros(n, dtype=bool)
    for a in bound_rows:
        fixed[int(np.flatnonzero(G[a])[0])] = True
    free = ~fixed
    x_fix = np.zeros(n)
    for a in bound_rows:
        x_fix[int(np.flatnonzero(G[a])[0])] = -h[a]
    others = [a for a in active if a not in bound_rows]
    rows = np.vstack([Aeq, G[others]]) if others else Aeq
    rhs = np.concatenate([[1.0, 0.0], h[others]]) - rows @ x_fix
    keep = np.flatnonzero(np.any(rows[:, free] != 0, axis=1))
    if not free.any():
        return None
    sol = _newton(x[free], rows[keep][:, free], rhs[keep])
    if sol is None:
        return None
    xn = x_fix.copy()
    xn[free] = sol[0]
    w = np.zeros(rows.shape[0])
    w[keep] = sol[1]
    grad = np.log(xn) + 1.0 + rows.T @ w  # = nu at the fixed variables (lb - x <= 0)
    mult = {a: float(w[2 + k]) for k, a in enumerate(others)}
    for a in bound_rows:
        mult[a] = float(grad[int(np.flatnonzero(G[a])[0])])
    return xn, np.array([mult[a] for a in active])


def _active_set_solve(
    v: np.ndarray, G: np.ndarray, h: np.ndarray, x0: np.ndarray
) -> np.ndarray | None:
    """The exact optimum from a starting law: Newton on the binding constraints, adding the
    violated ones (all at once, or the worst alone when together they leave no solution) and
    dropping the one with the most negative multiplier until the KKT conditions hold (None if
    that fails: a repeated active set or a failed Newton solve)."""
    n = v.size
    Aeq = np.vstack([np.ones(n), v])
    scale = np.maximum(1.0, np.abs(h))
    gap = (G @ x0 - h) / scale
    active = set(np.flatnonzero(gap >= -1e-8).tolist())
    x = np.clip(x0, 1e-300, None)
    seen: set[frozenset[int]] = set()
    # (active set, point) to retry with when Newton fails on several constraints added at once
    fallback: tuple[set[int], np.ndarray] | None = None
    if np.count_nonzero(gap > 1e-8) > 1:
        near = set(np.flatnonzero(np.abs(gap) <= 1e-8).tolist())
        fallback = (near | {int(np.argmax(gap))}, x)
    for _ in range(MAX_ACTIVE_ROUNDS):
        key = frozenset(active)
        if key in seen:
            return None
        seen.add(key)
        idx = sorted(active)
        sol = _kkt_point(x, G, h, idx, Aeq)
        if sol is None:
            if fallback is None:
                return None
            active, x = fallback
            fallback = None
            continue
        xn, mult = sol
        viol = (G @ xn - h) / scale
        viol[idx] = -np.inf
        fallback = None
        if float(viol.max()) > FEAS_TOL:
            many = np.flatnonzero(viol > FEAS_TOL).tolist()
            if len(many) > 1:
                fallback = (active | {int(np.argmax(viol))}, np.clip(xn, 1e-300, None))
            active = active | set(many)
        elif mult.size and float(mult.min()) < -MULT_TOL:
            active.discard(idx[int(np.argmin(mult))])
        else:
            return xn
        x = np.clip(xn, 1e-300, None)
    return None


def _least_variance(v: np.ndarray, G: np.ndarray, h: np.ndarray) -> float:
    """The least variance of a law meeting every constraint but the variance cap (inf when
    none meets them), for the error message."""
    x = _slsqp(v, G, h, "least")
    if x is None:
        return math.inf
    ok = abs(x.sum() - 1.0) < 1e-9 and abs(v @ x) < 1e-9 and bool(np.all(G[1:] @ x - h[1:] < 1e-9))
    return float((v * v) @ x) if ok else math.inf


def _solve_once(
    i: int, v: np.ndarray, V: float, lb: np.ndarray, mono: bool, warm: np.ndarray | None = None
) -> np.ndarray:
    """The max-entropy law of one ptable problem (module notes), or ParameterError; ``warm``:
    the previous round's law (feasible for this one: the bound at v = 0 only went down)."""
    G, h = _inequalities(v.astype(np.float64), V, lb, mono)
    vf = v.astype(np.float64)
    if v.size < 2 or v.min() >= 0 or v.max() <= 0:
        raise ParameterError(
            f"no zero-mean noise law exists for count i = {i}: its noise values are "
            f"{v.tolist()} (the counts 1..js are blocked); use a larger `D` or a smaller `js`."
        )
    x = None
    # every result is checked (feasibility, multipliers), so overflow on the way is harmless
    with np.errstate(all="ignore"):
        for x0 in _starts(vf, G, h, warm):
            x = None if x0 is None else _active_set_solve(vf, G, h, x0)
            if x is not None and _feasible(vf, G, h, x):
                break
    if x is None or not _feasible(vf, G, h, x):
        least = _least_variance(vf, G, h)
        if least > V:
            need = "no law" if math.isinf(least) else f"the least variance is {least:.6g}"
            raise ParameterError(
                f"`V` is too small for count i = {i} (noise values {v.tolist()}, lower bounds "
                f'{sorted(set(lb.tolist()))}): {need} > V = {V!r} (ptable stops with "The '
                'variance parameter you set is too small!").'
            )
        raise SolverError(
            f"the maximum-entropy problem of count i = {i} did not converge (noise values "
            f"{v.tolist()}, V={V!r}, mono={mono!r})."
        )
    return x


def _feasible(v: np.ndarray, G: np.ndarray, h: np.ndarray, x: np.ndarray) -> bool:
    scale = np.maximum(1.0, np.abs(h))
    return bool(
        abs(x.sum() - 1.0) <= 1e-12 and abs(v @ x) <= 1e-11 and np.all((G @ x - h) / scale <= 1e-10)
    )


def solve_row(i: int, v: np.ndarray, V: float, js: int, pstay: float, mono: bool) -> RowSolution:
    """Row i as ``pt_create_pTable`` builds it: the max-entropy problem and the pstay loop.

    Examples
    --------
    >>> r = solve_row(1, np.array([-1, 1, 2]), 1.05, 1, 0.0, True)     # 3 points, 3 equations
    >>> r.p.round(8).tolist(), r.rounds
    ([0.50833333, 0.475, 0.01666667], 1)
    """
    lb = np.full(v.size, LOWER_BOUND)
    zero = np.flatnonzero(v == 0)
    if zero.size:
        lb[zero] = pstay if pstay >= LOWER_BOUND else LOWER_BOUND
    rounds = 0
    p = np.empty(0)
    last_bound = math.nan
    while True:
        if rounds > 0 and zero.size:
            lb[zero] = lb[zero] - PSTAY_STEP
            lb = np.where(lb < LOWER_BOUND, LOWER_BOUND, lb)
        rounds += 1
        bound = float(lb[zero[0]]) if zero.size else 0.0
        if bound != last_bound:  # the same problem again gives the same law
            p = _solve_once(i, v, V, lb, mono, p if p.size else None)
            last_bound = bound
        variance = float((v * v) @ p)
        off = round(variance, VARIANCE_DECIMALS) != V and i > js
        if not off or rounds >= MAX_PSTAY_ROUNDS:
            return RowSolution(p, rounds, bound)


def parameter_table(
    D: int, V: float, js: int, pstay: list[float], mono: list[bool]
) -> tuple[np.ndarray, list[RowSolution]]:
    """The (ncat + 1, ncat + D + 1) table as ptable writes it (p from 8-decimal bounds)."""
    rows = parameter_rows(D, js)
    ncat = len(rows)
    raw = np.zeros((ncat + 1, ncat + D + 1))
    raw[0, 0] = 1.0
    sols = []
    for i, v in enumerate(rows, start=1):
        s = solve_row(i, v, V, js, pstay[i - 1], mono[i - 1])
        raw[i, i + v] = s.p
        sols.append(s)
    ri, rj, lo, ub = rounded_bounds(raw, R_DIGITS)
    P = np.zeros_like(raw)
    P[ri, rj] = to_float(ub, R_DIGITS) - to_float(lo, R_DIGITS)
    return P, sols


def parameter_probabilities(
    D: Any, V: Any, *, js: Any = 0, pstay: Any = None, mono: Any = True
) -> tuple[np.ndarray, dict[str, Any]]:
    r"""The count ptable that ``ptable::create_cnt_ptable(D, V, js, pstay, mono)`` builds, as
    (probabilities, metadata) for :meth:`Ptable.from_parameters`.

    Each row i = 1..ncat is the maximum-entropy law of the published count on
    j = max(i − D, 0)..i + D (the counts 1..js blocked) with zero mean, variance at most V,
    every probability at least 1e-8, :math:`P(i \mid i) \ge` ``pstay`` (relaxed by 0.05 per
    round while the variance, rounded to 3 decimals, is not V) and, with ``mono``,
    non-decreasing up to v = 0; the cumulative sums are rounded to 8 decimals and p is the
    difference of the rounded bounds (module notes: the rules of ``ptable`` 0.3.3).

    Parameters
    ----------
    D : int
        The largest noise, 1 <= D <= 200.
    V : float
        The variance cap, > 0.
    js : int, default 0
        Counts 1..js are never published (0: no blocking).
    pstay : float or sequence, optional
        The least probability of publishing the true count, in (0, 1): one value, or one per
        row i = 1..ncat (``ncat = D`` if js = 0, else D + js + 1); None/NaN for none.
    mono : bool or sequence of bool, default True
        The monotony condition: one bool, or one per row i = 1..ncat (ptable's rule).

    Returns
    -------
    probabilities : numpy.ndarray, shape (ncat + 1, ncat + D + 1)
        Rows 0..ncat: p as ptable writes it (the difference of the 8-decimal bounds).
    metadata : dict
        The parameters and, per row, the rounds of the pstay loop (ptable's ``iter``) and the
        final bound at v = 0.

    Raises
    ------
    ParameterError, ParameterTypeError
        For a bad parameter (named), a ``pstay``/``mono`` vector of the wrong length, or a V
        too small for some row (the message gives the row and the least variance it needs;
        ptable stops with "The variance parameter you set is too small!") or a row without a
        zero-mean law (js blocks every count on one side).
    SolverError
        If the solver does not converge.

    References
    ----------
    R package ``ptable`` 0.3.3 (Enderle, Giessing, Meindl; sdcTools): ``create_cnt_ptable``,
    ``pt_create_pTable``, ``pt_optim_entropy``; Giessing (2016), "Computational issues in the
    design of transition probabilities and disclosure risk estimation for additive noise",
    PSD 2016, LNCS 9867, pp. 237-251.

    Examples
    --------
    ``pt_ex_cnts()`` of ptable:

    >>> P, meta = parameter_probabilities(2, 1.05, js=1, mono=[True, True, False, True])
    >>> P.shape, P[1].tolist()
    ((5, 7), [0.50833333, 0.0, 0.475, 0.01666667, 0.0, 0.0, 0.0])
    >>> meta["rounds"]
    [1, 1, 1, 1]
    """
    d, v, j, stays, monos = ptable_parameters(D, V, js, pstay, mono)
    P, sols = parameter_table(d, v, j, stays, monos)
    meta = {
        "source": "ptable::create_cnt_ptable parameters",
        "D": d,
        "V": v,
        "js": j,
        "pstay": [None if s == 0.0 else s for s in stays],
        "mono": monos,
        "rounds": [s.rounds for s in sols],
        "stay_bounds": [s.stay_bound for s in sols],
    }
    return P, meta
