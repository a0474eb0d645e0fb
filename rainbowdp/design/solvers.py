r"""Solver choice, time limits, logs and the mapping of solver statuses to exceptions.

The design problems of :mod:`rainbowdp.design` are built as arrays and handed to one of:

``"highs"``
    HiGHS through its Python interface :mod:`highspy`. The default when :mod:`highspy` is
    installed (``pip install rainbowdp[highs]``). The designers hand it the model as arrays
    (one sparse matrix, :mod:`rainbowdp.design._highs`), without PuLP; :func:`make_solver`
    returns a :class:`HighsArrays`, which is also an ordinary ``pulp.HiGHS`` for a PuLP
    problem when PuLP is installed.
``"cbc"``
    COIN-OR CBC through PuLP (a dependency of rainbowdp): a ``cbc`` executable on the
    ``PATH`` (``pulp.COIN_CMD``) if there is one, else the binary bundled with PuLP
    (``pulp.PULP_CBC_CMD``). The fallback default.

Neither PuLP nor :mod:`highspy` is imported with this module: each is imported by the first
call that needs it, and a missing one raises
:class:`~rainbowdp.exceptions.SolverNotAvailableError` naming the extra that installs it.
any ``pulp.LpSolver`` instance
    e.g. ``pulp.GUROBI(msg=False)``, ``pulp.CPLEX_CMD()`` or ``pulp.HiGHS(...)`` (HiGHS through
    PuLP, with its callbacks and options), used as configured by the caller through PuLP (a
    ``time_limit`` given to the design function is set on a copy).

Every solve ends in one of three ways: a *proven optimal* solution, a MILP's incumbent at the
time limit (said so by its status), or an exception.

============================================  ==========================================
solver outcome                                result
============================================  ==========================================
optimal                                       ``SolveOutcome(status="optimal")``
a MILP stopped by the time limit with a       ``SolveOutcome(status="time_limit")``, with
feasible incumbent                            the solver's bound (HiGHS; ``None`` for CBC)
infeasible (or "unbounded or infeasible")     :class:`~rainbowdp.exceptions.InfeasibleDesignError`
stopped by the time limit without an          :class:`~rainbowdp.exceptions.SolverTimeLimitError`
incumbent, or an LP stopped by it
solver not installed / not licensed           :class:`~rainbowdp.exceptions.SolverNotAvailableError`
anything else (numerical trouble, iteration   :class:`~rainbowdp.exceptions.SolverError`
limit, a crash)
============================================  ==========================================

An incumbent is never passed off as an optimum: its status is ``"time_limit"``, and the designers
certify it exactly as they certify an optimum (:mod:`rainbowdp.design`). An LP stopped early has
no incumbent (an interrupted interior-point iterate is not a feasible point) and raises.

Nothing a solver writes reaches standard output (:mod:`rainbowdp.design.console`): HiGHS is made
silent before its first call, its log (``msg=True``) and progress (``progress=True``) go to
standard error, and CBC's or a caller's PuLP solver's standard output is sent to standard error
(with ``msg``) or discarded while it runs.

Solver tolerances are tightened (HiGHS: primal feasibility and MIP feasibility ``1e-9``, relative
and absolute MIP gaps ``1e-9``; CBC: relative and absolute gaps ``1e-9``) so that the optimum
reported is the optimum of the model; any remaining round-off is repaired and re-verified by the
design functions.
"""

from __future__ import annotations

import copy
import functools
import math
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._validation import check_nonnegative_float
from ..exceptions import (
    InfeasibleDesignError,
    ParameterError,
    ParameterTypeError,
    SolverError,
    SolverNotAvailableError,
    SolverTimeLimitError,
)
from . import console

__all__ = [
    "HIGHS_LP_OPTIONS",
    "HIGHS_MIP_OPTIONS",
    "HIGHS_NO_CROSSOVER_OPTIONS",
    "HIGHS_OPTIONS",
    "NO_CROSSOVER_NONZEROS",
    "PULP_INSTALL_HINT",
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
#: degenerate privacy LPs of large graphs (docs/design.md, "Solvers"; docs/scaling.md: at 10^3
#: nodes and δ = 0, 1.2 s against 30 s for HiGHS's choice, dual simplex). A model
#: that needs no vertex (:attr:`rainbowdp.design._model.ArrayModel.vertex` false) of at least
#: :data:`NO_CROSSOVER_NONZEROS` nonzeros is solved without crossover
#: (:mod:`rainbowdp.design._highs`).
HIGHS_LP_OPTIONS = {"solver": "ipm", "run_crossover": "on"}

#: Size (nonzeros of the constraint matrix) from which an LP that needs no vertex skips the
#: interior-point method's crossover: its point is then repaired by mixing and certified like a
#: vertex (docs/scaling.md, "The LP against scipy's linprog").
NO_CROSSOVER_NONZEROS = 10_000

#: Options of an LP solved without crossover: no crossover; the interior-point method's
#: relative optimality tolerance tightened from HiGHS's 1e-8 to 1e-10, so that the objective
#: is within about 1e-12 (relative) of the optimum; no presolve, which reduces nothing on the
#: privacy LPs (rows P_a(v) - x P_b(v) <= 0 and budgets) and cost 10-15 % of the solve at
#: δ = 0 (docs/scaling.md).
HIGHS_NO_CROSSOVER_OPTIONS: dict[str, Any] = {
    "run_crossover": "off",
    "ipm_optimality_tolerance": 1e-10,
    "presolve": "off",
}

#: Options added for a MILP (``make_solver(..., lp=False)``); see docs/design.md ("Solvers") for
#: the measurements behind the choice.
HIGHS_MIP_OPTIONS: dict[str, Any] = {}

#: Relative MIP gap passed to CBC.
CBC_GAP_REL = 1e-9


#: How to install PuLP (CBC and PuLP's solver objects), named in the messages when it is missing
#: (it is a dependency of rainbowdp: missing only from an installation without them).
PULP_INSTALL_HINT = "pip install pulp"


def _pulp() -> Any:
    """:mod:`pulp`, imported on first use (the designers' HiGHS path needs no PuLP).

    Raises
    ------
    SolverNotAvailableError
        If PuLP is not installed; the message names the extra that installs it.
    """
    try:
        import pulp
    except ImportError as exc:
        raise SolverNotAvailableError(
            f"solver='cbc' and PuLP solver objects need PuLP, which is not installed "
            f"({PULP_INSTALL_HINT}); solver='highs' needs only highspy."
        ) from exc
    return pulp


def _pulp_solver_class() -> Any:
    """``pulp.LpSolver`` if PuLP has been imported, else ``None``: an object cannot be a PuLP
    solver unless PuLP is loaded, so a solver argument is classified without importing it."""
    mod = sys.modules.get("pulp")
    return None if mod is None else mod.LpSolver


class HighsArrays:
    """HiGHS as configured by :func:`make_solver` for ``solver="highs"``.

    The designers of :mod:`rainbowdp.design` give it their model as arrays
    (:class:`rainbowdp.design._highs.HighsModel`, options from :func:`highs_options`); it
    carries the settings of a ``pulp.HiGHS`` (``msg``, ``timeLimit``, ``gapRel``, ``gapAbs``,
    ``threads``, ``optionsDict``) without needing PuLP. When PuLP is installed,
    :func:`make_solver` returns a subclass that is also a ``pulp.HiGHS``
    (:func:`_pulp_highs_arrays`), so that a PuLP problem can be solved with it too, made silent
    from the start (:func:`rainbowdp.design.console.quiet_highs`), its log and progress on
    standard error. A ``pulp.HiGHS`` object passed as ``solver`` takes the PuLP path.

    ``progress`` (set by :func:`make_solver`): show the solve's progress on standard error.
    """

    name = "HiGHS"
    progress: bool = False

    def __init__(
        self,
        msg: bool = False,
        timeLimit: float | None = None,
        gapRel: float | None = None,
        gapAbs: float | None = None,
        threads: int | None = None,
        **options: Any,
    ) -> None:
        self.msg = msg
        self.timeLimit = timeLimit
        self.gapRel = gapRel
        self.gapAbs = gapAbs
        self.threads = threads
        self.optionsDict = options

    def available(self) -> bool:
        """Whether :mod:`highspy` can be imported."""
        return _highs_available()

    def close_log(self) -> None:
        """End the progress display of the last PuLP solve (none without PuLP)."""


@functools.cache
def _pulp_highs_arrays() -> type[HighsArrays] | None:
    """:class:`HighsArrays` that is also a ``pulp.HiGHS`` (made once, when PuLP is installed),
    or ``None`` without PuLP."""
    try:
        import pulp
    except ImportError:
        return None

    class PulpHighsArrays(HighsArrays, pulp.HiGHS):
        """:class:`HighsArrays` as a ``pulp.HiGHS`` too (PuLP's ``HiGHS`` settings and hooks)."""

        _log: console.HighsLog | None = None

        def __init__(self, **kwargs: Any) -> None:
            pulp.HiGHS.__init__(self, **kwargs)

        def createAndConfigureSolver(self, lp: Any) -> None:
            """PuLP's hook: the ``highspy.Highs`` of a PuLP problem, quiet and configured as
            the arrays path configures its own (:func:`open_highs`)."""
            lp.solverModel, self._log = open_highs(self, mip=bool(lp.isMIP()), sign=-1.0)
            if self.callbackTuple:
                lp.solverModel.setCallback(*self.callbackTuple)
            for cb_type in self.callbacksToActivate or ():
                lp.solverModel.startCallback(cb_type)

        def close_log(self) -> None:
            """End the progress display of the last PuLP solve."""
            if self._log is not None:
                self._log.close()
                self._log = None

    return PulpHighsArrays


def _pulp_highs_hook() -> bool:
    """Whether this PuLP makes its HiGHS object in ``HiGHS.createAndConfigureSolver`` (the hook
    :class:`HighsArrays` overrides); without it, :func:`solve` catches HiGHS's standard output
    at the file-descriptor level instead."""
    return hasattr(_pulp().HiGHS, "createAndConfigureSolver")


def open_highs(solver: Any, *, mip: bool, sign: float = 1.0) -> tuple[Any, Any]:
    """A silent ``highspy.Highs`` with the options of ``solver`` (:func:`highs_options`) and
    its :class:`~rainbowdp.design.console.HighsLog`: the log lines on standard error with
    ``solver.msg``; with ``solver.progress``, a MILP's bar (tqdm) or the log lines after
    :data:`~rainbowdp.design.console.PROGRESS_DELAY` seconds. ``sign`` turns HiGHS's objective
    into the utility (-1 through PuLP). Nothing is written on standard output."""
    h = console.quiet_highs()
    for key, value in highs_options(solver).items():
        h.setOptionValue(key, value)
    progress = bool(getattr(solver, "progress", False))
    msg = bool(solver.msg)
    bar = progress and mip and console.tqdm_available()
    log = console.HighsLog(
        h,
        lines=msg or (progress and not bar),
        bar=bar,
        delay=0.0 if msg else console.PROGRESS_DELAY,
        time_limit=solver.timeLimit,
        sign=sign,
    )
    return h, log


def highs_options(solver: Any) -> dict[str, Any]:
    """The HiGHS options a ``pulp.HiGHS`` object sets, as ``{name: value}`` for
    ``Highs.setOptionValue`` (log, gaps, threads, time limit, then its own options).

    Examples
    --------
    >>> opts = highs_options(make_solver("highs", time_limit=2.0))
    >>> opts["threads"], opts["time_limit"], opts["output_flag"]
    (1, 2.0, False)

    ``output_flag`` is always off here: :func:`open_highs` turns the log on, away from standard
    output, when ``solver.msg`` asks for it.
    """
    out: dict[str, Any] = {"output_flag": False}
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
    """Whether :mod:`highspy` can be imported (imported here, not when this module is)."""
    try:
        import highspy  # noqa: F401
    except ImportError:
        return False
    return True


def _cbc(msg: bool, time_limit: float | None) -> Any:
    """CBC: the system executable when present, otherwise the binary bundled with PuLP (its log,
    with ``msg``, goes to standard error: :func:`solve`).

    Raises
    ------
    SolverNotAvailableError
        If PuLP is not installed.
    """
    pulp = _pulp()
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
    try:
        if _cbc(False, None).available():
            names.append("cbc")
    except SolverNotAvailableError:  # no PuLP
        pass
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
    solver: Any = None,
    *,
    time_limit: float | None = None,
    msg: bool = False,
    lp: bool = False,
    progress: bool = False,
) -> Any:
    r"""Build the solver object for a ``solver`` argument.

    Parameters
    ----------
    solver : {None, "highs", "cbc"} or pulp.LpSolver
        ``None`` picks :func:`default_solver`. A solver object is used as given; if
        ``time_limit`` is also given it is set on a shallow copy.
    time_limit : float, optional
        Seconds (> 0).
    msg : bool, default False
        Show the solver's log (on standard error).
    lp : bool, default False
        The model is a pure LP: HiGHS then uses its interior-point method with crossover
        (:data:`HIGHS_LP_OPTIONS`).
    progress : bool, default False
        Show the solve's progress on standard error once it has run
        :data:`~rainbowdp.design.console.PROGRESS_DELAY` seconds: for HiGHS a MILP's bar
        (incumbent, bound, gap; needs :mod:`tqdm`) or its log lines; for CBC its log. A solver
        object passed by the caller is used as configured.

    Returns
    -------
    HighsArrays or pulp.LpSolver
        For ``"highs"`` a :class:`HighsArrays` (also a ``pulp.HiGHS`` when PuLP is installed);
        for ``"cbc"`` PuLP's CBC object; a solver object as given (or its copy).

    Raises
    ------
    SolverNotAvailableError
        If the named solver is not installed (``"cbc"`` needs PuLP: the message says how to
        install it), or the solver object reports it is unavailable.
    ValueError, TypeError
        On an unknown name, a non-solver object or a bad ``time_limit``.

    Examples
    --------
    >>> type(make_solver("cbc")).__name__ in ("COIN_CMD", "PULP_CBC_CMD")
    True
    >>> import pulp
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
    if not isinstance(progress, bool):
        raise ParameterTypeError(f"`progress` must be a bool, got progress={progress!r}.")
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
            cls: Callable[..., HighsArrays] = _pulp_highs_arrays() or HighsArrays
            made = cls(msg=msg, timeLimit=t, **HIGHS_OPTIONS, **extra)
            made.progress = progress
            return made
        if name == "cbc":
            s = _cbc(msg or progress, t)
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
    lp_solver = _pulp_solver_class()
    if lp_solver is not None and isinstance(solver, lp_solver):
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
    """What :func:`solve` reports about a solve that returned a point.

    ``status`` is ``"optimal"`` (proved), or ``"time_limit"``: a MILP's feasible incumbent when
    the time limit stopped the search. ``bound`` is then the solver's best bound on the model's
    objective (maximised), or ``None`` if the solver does not report one (CBC through PuLP).
    """

    solver: str
    status: str
    seconds: float
    bound: float | None = None


def _highs_status(prob: Any) -> str | None:
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


#: HiGHS's ``primal_solution_status`` of a feasible point (``kSolutionStatusFeasible``).
HIGHS_FEASIBLE = 2


def highs_incumbent_bound(model: Any, *, sign: float) -> float | None:
    """The best bound on the utility of a HiGHS MIP stopped with a feasible incumbent, or
    ``None`` if it has no feasible incumbent (or no finite bound)."""
    try:
        info = model.getInfo()
        feasible = int(info.primal_solution_status) == HIGHS_FEASIBLE
        inc, bound = float(info.objective_function_value), float(info.mip_dual_bound)
    except Exception:  # pragma: no cover - an older highspy
        return None
    if not (feasible and math.isfinite(inc) and math.isfinite(bound)):
        return None
    return sign * bound


def highs_outcome(
    name: str,
    status: str,
    seconds: float,
    time_limit: float | None,
    gap: Any,
    bound: Any = None,
) -> SolveOutcome:
    """The outcome of a HiGHS run from its model status text (``Highs.modelStatusToString``):
    returned if ``"Optimal"``, or if ``"Time limit reached"`` and ``bound()`` (a MIP's best
    bound, :func:`highs_incumbent_bound`) is not ``None``; else raised (see the module notes).
    ``gap()`` gives the incumbent/bound text of a time-limited stop (:func:`highs_gap`)."""
    text = f"HiGHS model status {status!r}"
    if status == "Optimal":
        return SolveOutcome(name, "optimal", seconds)
    if status in ("Infeasible", "Primal infeasible or unbounded"):
        raise InfeasibleDesignError(
            f"the design problem is infeasible (solver {name}: "
            f"{text}); check `fixed`, `bounds` and `constraints`."
        )
    if status == "Time limit reached":
        b = None if bound is None else bound()
        if b is not None:
            return SolveOutcome(name, "time_limit", seconds, b)
        raise SolverTimeLimitError(
            f"solver {name} stopped at the time limit "
            f"(time_limit={time_limit!r} s) before proving optimality "
            f"({text}{gap()}); raise `time_limit`."
        )
    raise SolverError(f"solver {name} did not prove optimality ({text}).")


def solve(
    prob: Any,
    solver: Any,
    *,
    time_limit: float | None = None,
) -> SolveOutcome:
    r"""Solve ``prob``; return a proved optimum, or a MILP's incumbent at the time limit.

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
        ``status`` ``"optimal"``, or ``"time_limit"`` for a MILP (``prob.isMIP()``) stopped by
        the time limit with a feasible incumbent (its values are then the variables' values).

    Raises
    ------
    InfeasibleDesignError, SolverTimeLimitError, SolverError
        See the module notes; each message carries the solver's own status text.

    Notes
    -----
    Nothing reaches standard output: HiGHS made by :func:`make_solver` is silent from the start
    (its log and progress on standard error); any other solver runs with standard output sent
    to standard error if its ``msg`` is on, discarded otherwise
    (:func:`rainbowdp.design.console.stdout_to_stderr`).

    Examples
    --------
    >>> import pulp
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
    pulp = _pulp()
    name = "HiGHS" if isinstance(solver, HighsArrays) else type(solver).__name__
    mip = bool(prob.isMIP())
    t0 = time.perf_counter()
    try:
        if isinstance(solver, HighsArrays) and _pulp_highs_hook():  # quiet at the source
            try:
                prob.solve(solver)
            finally:
                solver.close_log()
        else:
            show = bool(getattr(solver, "msg", False) or getattr(solver, "progress", False))
            with console.stdout_to_stderr(show):
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
            (lambda: highs_incumbent_bound(prob.solverModel, sign=-1.0)) if mip else None,
        )
    if prob.status == pulp.LpStatusOptimal and prob.sol_status == pulp.LpSolutionOptimal:
        return SolveOutcome(name, "optimal", seconds)
    if prob.status == pulp.LpStatusInfeasible:
        raise InfeasibleDesignError(
            f"the design problem is infeasible (solver {name}: {text}); check `fixed`, `bounds` "
            "and `constraints`."
        )
    incumbent = prob.sol_status == pulp.LpSolutionIntegerFeasible
    stopped = incumbent or (
        prob.status == pulp.LpStatusNotSolved
        and time_limit is not None
        and seconds >= 0.5 * time_limit
    )
    if time_limit is not None and stopped and math.isfinite(time_limit):
        if incumbent and mip:  # CBC reports no bound through PuLP
            return SolveOutcome(name, "time_limit", seconds, None)
        raise SolverTimeLimitError(
            f"solver {name} stopped at the time limit "
            f"(time_limit={time_limit!r} s) before proving optimality "
            f"({text}); raise `time_limit`."
        )
    raise SolverError(f"solver {name} did not prove optimality ({text}).")
