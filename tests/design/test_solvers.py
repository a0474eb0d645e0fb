"""Tests of rainbowdp.design.solvers: solver choice and the status -> exception mapping,
with fake solvers so that every branch is deterministic."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pulp
import pytest

from rainbowdp import builders
from rainbowdp.design import available_solvers, default_solver, lp
from rainbowdp.exceptions import (
    InfeasibleDesignError,
    SolverError,
    SolverNotAvailableError,
    SolverTimeLimitError,
)

solvers = importlib.import_module("rainbowdp.design.solvers")


class FakeSolver(pulp.LpSolver):
    """Reports a chosen (status, solution status) after putting every variable at 0.5."""

    name = "Fake"

    def __init__(self, status: int, sol_status: int, *, available: bool = True) -> None:
        super().__init__(msg=False)
        self._status, self._sol, self._avail = status, sol_status, available

    def available(self) -> bool:
        return self._avail

    def actualSolve(self, lp, **kwargs):
        for v in lp.variables():
            v.varValue = 0.5
        lp.assignStatus(self._status, self._sol)
        return self._status


def tiny_problem() -> pulp.LpProblem:
    prob = pulp.LpProblem("t", pulp.LpMaximize)
    x = prob.add_variable("x", 0, 1)
    prob += x
    return prob


def test_names_and_default():
    assert "cbc" in available_solvers()
    assert default_solver() == ("highs" if "highs" in available_solvers() else "cbc")
    assert isinstance(solvers.make_solver("highs"), pulp.HiGHS)
    assert isinstance(solvers.make_solver("HiGHS", time_limit=3), pulp.HiGHS)
    assert solvers.make_solver("cbc").msg is False  # logs suppressed by default
    assert solvers.make_solver("cbc", msg=True).msg is True


def test_missing_highs_falls_back_and_raises_when_requested(monkeypatch):
    monkeypatch.setattr(solvers, "_highs_available", lambda: False)
    assert default_solver() == "cbc"
    with pytest.raises(SolverNotAvailableError, match="highspy"):
        solvers.make_solver("highs")


def test_unavailable_solver_object():
    fake = FakeSolver(pulp.LpStatusOptimal, pulp.LpSolutionOptimal, available=False)
    with pytest.raises(SolverNotAvailableError, match="FakeSolver"):
        solvers.make_solver(fake)


def test_time_limit_is_set_on_a_copy():
    fake = FakeSolver(pulp.LpStatusOptimal, pulp.LpSolutionOptimal)
    made = solvers.make_solver(fake, time_limit=5)
    assert made.timeLimit == 5.0 and fake.timeLimit is None


@pytest.mark.parametrize(
    "status,sol,time_limit,exc,match",
    [
        (
            pulp.LpStatusInfeasible,
            pulp.LpSolutionInfeasible,
            None,
            InfeasibleDesignError,
            "'Infeasible'",
        ),
        (
            pulp.LpStatusOptimal,
            pulp.LpSolutionIntegerFeasible,
            2.0,
            SolverTimeLimitError,
            r"time_limit=2\.0.*'Solution Found'",
        ),
        (
            pulp.LpStatusOptimal,
            pulp.LpSolutionIntegerFeasible,
            None,
            SolverError,
            "did not prove optimality",
        ),
        (pulp.LpStatusNotSolved, pulp.LpSolutionNoSolutionFound, None, SolverError, "'Not Solved'"),
        (pulp.LpStatusUndefined, pulp.LpSolutionNoSolutionFound, None, SolverError, "'Undefined'"),
    ],
)
def test_status_mapping(status, sol, time_limit, exc, match):
    with pytest.raises(exc, match=match):
        solvers.solve(tiny_problem(), FakeSolver(status, sol), time_limit=time_limit)


def mip_problem() -> pulp.LpProblem:
    prob = pulp.LpProblem("t", pulp.LpMaximize)
    x = prob.add_variable("x", 0, 1, cat=pulp.LpBinary)
    prob += x
    return prob


def test_a_mip_incumbent_at_the_time_limit_is_returned_without_a_bound():
    # CBC's "stopped on time" with a solution: the incumbent, marked, and no bound (PuLP reports
    # none); the same status without a time limit is not a time-limit stop and raises
    fake = FakeSolver(pulp.LpStatusOptimal, pulp.LpSolutionIntegerFeasible)
    out = solvers.solve(mip_problem(), fake, time_limit=2.0)
    assert (out.status, out.bound) == ("time_limit", None)
    with pytest.raises(SolverError, match="did not prove optimality"):
        solvers.solve(mip_problem(), fake, time_limit=None)


def test_incumbent_is_never_returned_from_the_design_functions():
    # An LP stopped at the time limit has no incumbent: an "integer feasible" report raises.
    G = builders.line([0, 1], 2)
    fake = FakeSolver(pulp.LpStatusOptimal, pulp.LpSolutionIntegerFeasible)
    with pytest.raises(SolverTimeLimitError):
        lp(G, epsilon=1.0, solver=fake, time_limit=1.0)


@pytest.mark.parametrize(
    "text,exc",
    [
        ("Time limit reached", SolverTimeLimitError),
        ("Infeasible", InfeasibleDesignError),
        ("Primal infeasible or unbounded", InfeasibleDesignError),
        ("Solve error", SolverError),
    ],
)
def test_highs_status_mapping(monkeypatch, text, exc):
    monkeypatch.setattr(solvers, "_highs_status", lambda prob: text)
    with pytest.raises(exc, match=text):
        solvers.solve(tiny_problem(), solvers.make_solver("highs"), time_limit=1.0)


def test_solver_crash_becomes_solver_error():
    class Crashing(FakeSolver):
        def actualSolve(self, lp, **kwargs):
            raise pulp.PulpSolverError("boom")

    with pytest.raises(SolverError, match="boom"):
        solvers.solve(tiny_problem(), Crashing(0, 0))


def test_real_solvers_report_optimal():
    for name in available_solvers():
        out = solvers.solve(tiny_problem(), solvers.make_solver(name))
        assert out.status == "optimal" and out.seconds >= 0


@pytest.mark.parametrize(
    "kwargs,exc,match",
    [
        (dict(solver="gurobi"), ValueError, r"solver='gurobi'"),
        (dict(solver=object), TypeError, r"solver=<class 'object'>"),
        (dict(time_limit=0), ValueError, r"time_limit=0"),
        (dict(time_limit="1"), TypeError, r"time_limit='1'"),
        (dict(msg=1), TypeError, r"msg=1"),
    ],
)
def test_bad_arguments(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        solvers.make_solver(**kwargs)


def test_importing_the_designers_loads_no_solver():
    code = (
        "import sys, rainbowdp.design, rainbowdp.design._lp, rainbowdp.design.solvers; "
        "print('pulp' in sys.modules, 'highspy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_without_pulp_highs_designs_and_cbc_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pulp", None)  # `import pulp` raises ImportError
    solvers._pulp_highs_arrays.cache_clear()
    try:
        G = builders.line([0, 1], 2)
        assert lp(G, epsilon=1.0, solver="highs").status == "optimal"
        assert type(solvers.make_solver("highs")) is solvers.HighsArrays
        assert "cbc" not in available_solvers()
        with pytest.raises(SolverNotAvailableError, match="pip install pulp"):
            lp(G, epsilon=1.0, solver="cbc")
    finally:
        solvers._pulp_highs_arrays.cache_clear()
