r"""Solver choice, time limits, logs and the mapping of solver statuses to exceptions.

The design problems of :mod:`rainbowdp.design` are modelled with PuLP and handed to one of:

``"highs"``
    HiGHS through its Python interface :mod:`highspy`. The default when :mod:`highspy` is
    installed (``pip install rainbowdp[highs]``). The designers hand it the model as arrays
    (one sparse matrix, :mod:`rainbowdp.design._highs`), without PuLP; :func:`make_solver`
    returns a :class:`HighsArrays`, which is also an ordinary ``pulp.HiGHS`` for a PuLP
    problem.
``"cbc"``
    COIN-OR CBC: a ``cbc`` executable on the ``PATH`` (``pulp.COIN_CMD``) if there is one, else the
    binary bundled with PuLP (``pulp.PULP_CBC_CMD``). The fallback default.
any ``pulp.LpSolver`` instance
    e.g. ``pulp.GUROBI(msg=False)``, ``pulp.CPLEX_CMD()`` or ``pulp.HiGHS(...)`` (HiGHS through
    PuLP, with its callbacks and options), used as configured by the caller through PuLP (a
    ``time_limit`` given to the design function is set on a copy).

Every solve ends in exactly one of two ways: a *proven optimal* solution, or an exception.

============================================  ==========================================
solver outcome                                raised
============================================  ==========================================
optimal                                       nothing (the solution is returned)
infeasible (or "unbounded or infeasible")     :class:`~rainbowdp.exceptions.InfeasibleDesignError`
stopped by the time limit, with or without    :class:`~rainbowdp.exceptions.SolverTimeLimitError`
an incumbent
solver not installed / not licensed           :class:`~rainbowdp.exceptions.SolverNotAvailableError`
anything else (numerical trouble, iteration   :class:`~rainbowdp.exceptions.SolverError`
limit, a crash)
============================================  ==========================================

No incumbent is ever returned silently in place of an optimum: a time-limited MILP that has a
feasible point but no optimality proof raises, and the message carries the solver's status text.

Solver tolerances are tightened (HiGHS: primal feasibility and MIP feasibility ``1e-9``, relative
and absolute MIP gaps ``1e-9``; CBC: relative and absolute gaps ``1e-9``) so that the optimum
reported is the optimum of the model; any remaining round-off is repaired and re-verified by the
design functions.
"""

from __future__ import annotations

import copy
import math
import time
import warnings
from dataclasses import dataclass
from typing import Any

import pulp

from .._validation import check_nonnegative_float
from ..exceptions import (
    InfeasibleDesignError,
    ParameterError,
    ParameterTypeError,
    SolverError,
    SolverNotAvailableError,
    SolverTimeLimitError,
)

__all__ = [
    "HIGHS_LP_OPTIONS",
    "HIGHS_MIP_OPTIONS",
    "HIGHS_OPTIONS",
    "SOLVER_NAMES",
    "HighsArrays",
    "SolveOutcome",
    "available_solvers",
    "default_solver",
    "make_solver",
    "solve",
]

#: Names accepted by the ``solver`` argument of the design functions.
SOLVER_NAMES = ("highs", "cbc")

#: Options passed to HiGHS: tolerances tighter than its defaults of 1e-7 / 1e-6 / 1e-4 / 1e-6,
#: and one thread. HiGHS's MIP and simplex solvers are essentially serial, but its task scheduler
#: starts one spinning worker per core (used for MIP symmetry detection); on a loaded machine
#: those workers made a run of 200 small MILPs take 10 minutes instead of 10 seconds, and
#: ``threads=1`` is the setting HiGHS's maintainers give for hangs of highspy (HiGHS issues 1670,
#: 1425). A user who wants the workers back passes a ``pulp.HiGHS`` object as ``solver``.
HIGHS_OPTIONS = {
    "threads": 1,
    "primal_feasibility_tolerance": 1e-9,
    "mip_feasibility_tolerance": 1e-9,
    "mip_rel_gap": 1e-9,
    "mip_abs_gap": 1e-9,
}

#: Options added for a pure LP (``make_solver(..., lp=True)``): HiGHS's interior-point method
#: with crossover (a basic optimal solution), an order of magnitude faster than simplex on the
#: degenerate privacy LPs of large graphs (docs/design.md, "Solvers").
HIGHS_LP_OPTIONS = {"solver": "ipm", "run_crossover": "on"}

#: Options added for a MILP (``make_solver(..., lp=False)``); see docs/design.md ("Solvers") for
#: the measurements behind the choice.
HIGHS_MIP_OPTIONS: dict[str, Any] = {}

#: Relative MIP gap passed to CBC.
CBC_GAP_REL = 1e-9


class HighsArrays(pulp.HiGHS):
    """HiGHS as configured by :func:`make_solver` for ``solver="highs"``.

    The designers of :mod:`rainbowdp.design` give it their model as arrays
    (:class:`rainbowdp.design._highs.HighsModel`, options from :func:`highs_options`); to
    anything else it is the ``pulp.HiGHS`` it derives from. A ``pulp.HiGHS`` object passed as
    ``solver`` takes the PuLP path.
    """


def highs_options(solver: pulp.HiGHS) -> dict[str, Any]:
    """The HiGHS options a ``pulp.HiGHS`` object sets, as ``{name: value}`` for
    ``Highs.setOptionValue`` (log, gaps, threads, time limit, then its own options).

    Examples
    --------
    >>> opts = highs_options(make_solver("highs", time_limit=2.0))
    >>> opts["threads"], opts["time_limit"], opts["output_flag"]
    (1, 2.0, False)
    """
    out: dict[str, Any] = {"output_flag": bool(solver.msg)}
    if getattr(solver, "gapRel", None) is not None:
        out["mip_rel_gap"] = solver.gapRel
    if getattr(solver, "gapAbs", None) is not None:
        out["mip_abs_gap"] = solver.gapAbs
    if getattr(solver, "threads", None) is not None:
        out["threads"] = solver.threads
    if solver.timeLimit is not None:
        out["time_limit"] = float(solver.timeLimit)
    out.update(solver.optionsDict)
    return out


def _highs_available() -> bool:
    try:
        return bool(pulp.HiGHS(msg=False).available())
    except Exception:  # pragma: no cover - depends on the installation
        return False


def _cbc(msg: bool, time_limit: float | None) -> pulp.LpSolver:
    """CBC: the system executable when present, otherwise the binary bundled with PuLP."""
    system = pulp.COIN_CMD(msg=msg, timeLimit=time_limit, gapRel=CBC_GAP_REL, gapAbs=CBC_GAP_REL)
    if system.available():
        return system
    with warnings.catch_warnings():
        # PuLP >= 3 deprecates its bundled binary in favour of an installed CBC; it still works.
        warnings.simplefilter("ignore", DeprecationWarning)
        return pulp.PULP_CBC_CMD(
            msg=msg, timeLimit=time_limit, gapRel=CBC_GAP_REL, gapAbs=CBC_GAP_REL
        )


def available_solvers() -> list[str]:
    """Names in :data:`SOLVER_NAMES` whose solver can run on this machine.

    Examples
    --------
    >>> set(available_solvers()) <= {"highs", "cbc"}
    True
    """
    names = []
    if _highs_available():
        names.append("highs")
    if _cbc(False, None).available():
        names.append("cbc")
    return names


def default_solver() -> str:
    """``"highs"`` when :mod:`highspy` is installed, else ``"cbc"``.

    Examples
    --------
    >>> default_solver() in ("highs", "cbc")
    True
    """
    return "highs" if _highs_available() else "cbc"


def _check_time_limit(time_limit: Any) -> float | None:
    if time_limit is None:
        return None
    t = check_nonnegative_float(time_limit, "time_limit")
    if t <= 0:
        raise ParameterError(
            f"`time_limit` must be positive (seconds), got time_limit={time_limit!r}."
        )
    return t


def make_solver(
    solver: Any = None, *, time_limit: float | None = None, msg: bool = False, lp: bool = False
) -> pulp.LpSolver:
    r"""Build the PuLP solver object for a ``solver`` argument.

    Parameters
    ----------
    solver : {None, "highs", "cbc"} or pulp.LpSolver
        ``None`` picks :func:`default_solver`. A solver object is used as given; if
        ``time_limit`` is also given it is set on a shallow copy.
    time_limit : float, optional
        Seconds (> 0).
    msg : bool, default False
        Show the solver's log.
    lp : bool, default False
        The model is a pure LP: HiGHS then uses its interior-point method with crossover
        (:data:`HIGHS_LP_OPTIONS`).

    Returns
    -------
    pulp.LpSolver

    Raises
    ------
    SolverNotAvailableError
        If the named solver is not installed, or the solver object reports it is unavailable.
    ValueError, TypeError
        On an unknown name, a non-solver object or a bad ``time_limit``.

    Examples
    --------
    >>> type(make_solver("cbc")).__name__ in ("COIN_CMD", "PULP_CBC_CMD")
    True
    >>> isinstance(make_solver("highs"), pulp.HiGHS)  # HighsArrays, a pulp.HiGHS too
    True
    >>> make_solver("glpk")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rainbowdp.exceptions.ParameterError: `solver` must be one of ... got solver='glpk'.
    """
    t = _check_time_limit(time_limit)
    if not isinstance(msg, bool):
        raise ParameterTypeError(f"`msg` must be a bool, got msg={msg!r}.")
    if solver is None:
        solver = default_solver()
    if isinstance(solver, str):
        name = solver.lower()
        if name == "highs":
            if not _highs_available():
                raise SolverNotAvailableError(
                    "`solver`='highs' needs the highspy package (pip install highspy, or "
                    "pip install rainbowdp[highs]); it is not installed. Use solver='cbc'."
                )
            extra = HIGHS_LP_OPTIONS if lp else HIGHS_MIP_OPTIONS
            return HighsArrays(msg=msg, timeLimit=t, **HIGHS_OPTIONS, **extra)
        if name == "cbc":
            s = _cbc(msg, t)
            if not s.available():
                raise SolverNotAvailableError(
                    "`solver`='cbc': no CBC executable was found "
                    "(neither on the PATH nor bundled with PuLP)."
                )
            return s
        raise ParameterError(
            f"`solver` must be one of {SOLVER_NAMES} or a pulp solver object, got "
            f"solver={solver!r}."
        )
    if isinstance(solver, pulp.LpSolver):
        if not solver.available():
            raise SolverNotAvailableError(
                f"`solver` {type(solver).__name__} is not available on "
                "this machine (not installed or not licensed)."
            )
        if t is not None:
            solver = copy.copy(solver)
            solver.timeLimit = t
        return solver
    raise ParameterTypeError(
        f"`solver` must be one of {SOLVER_NAMES} or a pulp solver object, got solver={solver!r}."
    )


@dataclass(frozen=True)
class SolveOutcome:
    """What :func:`solve` reports about a successful (proven optimal) solve."""

    solver: str
    status: str
    seconds: float


def _highs_status(prob: pulp.LpProblem) -> str | None:
    model = getattr(prob, "solverModel", None)
    if model is None or not hasattr(model, "getModelStatus"):
        return None
    st = model.getModelStatus()
    return str(model.modelStatusToString(st))


def highs_gap(model: Any, *, sign: float) -> str:
    """ ", incumbent ..., bound ..., gap ..." for a HiGHS MIP stopped early (empty otherwise).

    ``sign`` turns HiGHS's objective into the utility: -1 through PuLP (which hands HiGHS the
    negated objective of a maximisation), +1 for the arrays (passed as a maximisation)."""
    try:
        info = model.getInfo()
        inc, bound, gap = info.objective_function_value, info.mip_dual_bound, info.mip_gap
    except Exception:  # pragma: no cover - not a MIP or an older highspy
        return ""
    if not all(math.isfinite(v) for v in (inc, bound, gap)) or info.mip_node_count < 0:
        return ", no incumbent"
    return f", incumbent {sign * inc:.10g}, bound {sign * bound:.10g}, relative gap {gap:.3g}"


def highs_outcome(
    name: str, status: str, seconds: float, time_limit: float | None, gap: Any
) -> SolveOutcome:
    """The outcome of a HiGHS run from its model status text (``Highs.modelStatusToString``):
    returned if ``"Optimal"``, else raised (see the module notes); ``gap()`` gives the
    incumbent/bound text of a time-limited stop (:func:`highs_gap`)."""
    text = f"HiGHS model status {status!r}"
    if status == "Optimal":
        return SolveOutcome(name, "optimal", seconds)
    if status in ("Infeasible", "Primal infeasible or unbounded"):
        raise InfeasibleDesignError(
            f"the design problem is infeasible (solver {name}: "
            f"{text}); check `fixed`, `bounds` and `constraints`."
        )
    if status == "Time limit reached":
        raise SolverTimeLimitError(
            f"solver {name} stopped at the time limit "
            f"(time_limit={time_limit!r} s) before proving optimality "
            f"({text}{gap()}); raise `time_limit`."
        )
    raise SolverError(f"solver {name} did not prove optimality ({text}).")


def solve(
    prob: pulp.LpProblem,
    solver: pulp.LpSolver,
    *,
    time_limit: float | None = None,
) -> SolveOutcome:
    r"""Solve ``prob`` and return only if the solver proved optimality.

    Parameters
    ----------
    prob : pulp.LpProblem
    solver : pulp.LpSolver
        As returned by :func:`make_solver`.
    time_limit : float, optional
        The limit that was configured, used to word the messages.

    Returns
    -------
    SolveOutcome

    Raises
    ------
    InfeasibleDesignError, SolverTimeLimitError, SolverError
        See the module notes; each message carries the solver's own status text.

    Examples
    --------
    >>> prob = pulp.LpProblem("demo", pulp.LpMaximize)
    >>> x = prob.add_variable("x", 0, 1)
    >>> prob += x
    >>> solve(prob, make_solver("cbc")).status
    'optimal'
    >>> prob += x >= 2
    >>> solve(prob, make_solver("cbc"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rainbowdp.exceptions.InfeasibleDesignError: the design problem is infeasible (solver ...
    """
    name = "HiGHS" if isinstance(solver, HighsArrays) else type(solver).__name__
    t0 = time.perf_counter()
    try:
        prob.solve(solver)
    except pulp.PulpSolverError as exc:
        raise SolverError(f"solver {name} failed: {exc}") from exc
    seconds = time.perf_counter() - t0
    status = pulp.LpStatus.get(prob.status, str(prob.status))
    sol_status = pulp.LpSolution.get(prob.sol_status, str(prob.sol_status))
    text = f"status {status!r}, solution status {sol_status!r}"
    if isinstance(solver, pulp.HiGHS):
        return highs_outcome(
            name,
            str(_highs_status(prob)),
            seconds,
            time_limit,
            lambda: highs_gap(prob.solverModel, sign=-1.0),
        )
    if prob.status == pulp.LpStatusOptimal and prob.sol_status == pulp.LpSolutionOptimal:
        return SolveOutcome(name, "optimal", seconds)
    if prob.status == pulp.LpStatusInfeasible:
        raise InfeasibleDesignError(
            f"the design problem is infeasible (solver {name}: {text}); check `fixed`, `bounds` "
            "and `constraints`."
        )
    stopped = prob.sol_status == pulp.LpSolutionIntegerFeasible or (
        prob.status == pulp.LpStatusNotSolved
        and time_limit is not None
        and seconds >= 0.5 * time_limit
    )
    if time_limit is not None and stopped and math.isfinite(time_limit):
        raise SolverTimeLimitError(
            f"solver {name} stopped at the time limit "
            f"(time_limit={time_limit!r} s) before proving optimality "
            f"({text}); raise `time_limit`."
        )
    raise SolverError(f"solver {name} did not prove optimality ({text}).")
