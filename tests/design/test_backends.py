"""The two ways a model reaches a solver agree: arrays straight into highspy
(``solver="highs"``) and a PuLP problem (HiGHS through PuLP, and CBC).

Randomised instances (directed or not, with and without ``tied``, ``fixed``, ``bounds`` and side
constraints): every path either raises the same exception or returns the same optimum (within
the solvers' tolerances), and every returned mechanism certifies.
"""

from __future__ import annotations

import math
import subprocess
import sys

import networkx as nx
import numpy as np
import pulp
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rainbowdp import builders, certify
from rainbowdp.design import RowConstraint, lp, milp, solvers
from rainbowdp.design._backend import new_model
from rainbowdp.design._highs import HighsModel
from rainbowdp.design._model import LE, ModelBuilder
from rainbowdp.exceptions import (
    InfeasibleDesignError,
    RainbowDPError,
    SolverTimeLimitError,
)
from rainbowdp.graph import RainbowGraph
from rainbowdp.privacy import pdp_delta

from ..strategies import distributions, rainbow_graphs

#: Optima of the same model from different solvers agree to this (feasibility and gap
#: tolerances 1e-9, the LP's safety margin ~1e-12, the MILP's margin m = 1e-7 is in the model).
AGREE = 1e-6


def pulp_highs(lp_model: bool) -> pulp.HiGHS:
    """HiGHS through PuLP with the options of ``make_solver("highs")``."""
    extra = solvers.HIGHS_LP_OPTIONS if lp_model else {}
    return pulp.HiGHS(msg=False, **solvers.HIGHS_OPTIONS, **extra)


@st.composite
def instances(draw, *, max_nodes: int, max_outputs: int):
    G = draw(rainbow_graphs(max_nodes=max_nodes, max_outputs=max_outputs, connected=True))
    n, q = G.n_nodes, G.n_outputs
    if draw(st.booleans()):  # directed: each edge one way or both
        d = nx.DiGraph()
        d.add_nodes_from(G.graph.nodes(data=True))
        for u, v in G.graph.edges:
            way = draw(st.sampled_from(["uv", "vu", "both"]))
            if way != "vu":
                d.add_edge(u, v)
            if way != "uv":
                d.add_edge(v, u)
        G = RainbowGraph(d, outputs=list(range(q)))
    kw: dict = {}
    if draw(st.booleans()):
        kw["fixed"] = {0: draw(distributions(q))}
    if draw(st.booleans()):
        kw["bounds"] = {n - 1: (None, [0.9] * q)}
    if draw(st.booleans()):  # a random tying (the optimum over tied mechanisms)
        kw["tied"] = np.array(draw(st.lists(st.integers(0, 5), min_size=n * q, max_size=n * q)))
        kw["tied"] = kw["tied"].reshape(n, q)
    if draw(st.booleans()):  # P_d(output 0) <= 0.8 at every node
        A = np.zeros((n, q))
        A[:, 0] = 1.0
        kw["constraints"] = [RowConstraint(A, upper=0.8, name="cap0")]
    eps = draw(st.sampled_from([0.3, math.log(2), 1.2]))
    return G, eps, kw


def outcome(design, G, solver, **kw):
    """``("ok", result)`` or ``("raised", exception class)``."""
    try:
        return "ok", design(G, solver=solver, **kw)
    except RainbowDPError as exc:
        return "raised", type(exc)


def check_agree(runs: dict, certified) -> None:
    kinds = {k: o[0] for k, o in runs.items()}
    assert len(set(kinds.values())) == 1, runs
    if kinds["arrays"] == "raised":
        assert len({o[1] for o in runs.values()}) == 1, runs
        return
    ref = runs["arrays"][1]
    assert ref.solver == "HiGHS" and runs["pulp highs"][1].solver == "HiGHS"
    for res in (o[1] for o in runs.values()):
        assert res.objective == pytest.approx(ref.objective, abs=AGREE)
        assert res.n_variables == ref.n_variables and res.n_constraints == ref.n_constraints
        assert certified(res)


@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(inst=instances(max_nodes=5, max_outputs=4), dlt=st.sampled_from([0.0, 0.05]))
def test_lp_paths_agree(inst, dlt):
    G, eps, kw = inst
    runs = {
        "arrays": outcome(lp, G, "highs", epsilon=eps, delta=dlt, **kw),
        "pulp highs": outcome(lp, G, pulp_highs(True), epsilon=eps, delta=dlt, **kw),
        "cbc": outcome(lp, G, "cbc", epsilon=eps, delta=dlt, **kw),
    }
    check_agree(runs, lambda r: certify(r.mechanism, epsilon=eps, delta=dlt).verdict == "private")


@settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(inst=instances(max_nodes=4, max_outputs=3), dlt=st.sampled_from([0.05, 0.2]))
def test_milp_paths_agree(inst, dlt):
    G, eps, kw = inst
    runs = {
        "arrays": outcome(milp, G, "highs", epsilon=eps, delta=dlt, **kw),
        "pulp highs": outcome(milp, G, pulp_highs(False), epsilon=eps, delta=dlt, **kw),
        "cbc": outcome(milp, G, "cbc", epsilon=eps, delta=dlt, **kw),
    }

    def certified(r):
        return (
            pdp_delta(r.mechanism, eps) <= dlt
            and certify(r.mechanism, epsilon=eps, delta=dlt).verdict == "private"
        )

    check_agree(runs, certified)


def test_solver_choice_picks_the_model():
    assert isinstance(new_model("m", solvers.make_solver("highs")), HighsModel)
    assert type(new_model("m", pulp_highs(False))) is ModelBuilder
    assert type(new_model("m", solvers.make_solver("cbc"))) is ModelBuilder


def test_arrays_sum_repeated_entries_like_pulp():
    # one row x0 + x0 + x1 <= 1 given with a repeated column and merge: 2 x0 + x1 <= 1
    for solver in (solvers.make_solver("highs"), pulp_highs(False)):
        m = new_model("m", solver)
        x = m.add_columns(("x", np.arange(2)), np.zeros(2), np.ones(2))
        m.add_rows(("r",), np.array([[0, 0, 1]]), np.ones((1, 3)), LE, np.ones(1), merge=True)
        m.set_objective(x, np.array([3.0, 1.0]))
        m.finish()
        assert m.solve(solver, None).status == "optimal"
        np.testing.assert_allclose(m.values(x), [0.5, 0.0], atol=1e-12)


def test_arrays_map_statuses_like_pulp(monkeypatch):
    G = builders.line([0, 1], 2)
    with pytest.raises(InfeasibleDesignError, match="HiGHS model status 'Infeasible'"):
        lp(G, epsilon=0.1, fixed={0: [1.0, 0.0]}, bounds={1: ([0.0, 0.5], None)})
    g = nx.random_regular_graph(4, 40, seed=1)
    rng = np.random.default_rng(1)
    for d in g.nodes:
        g.nodes[d]["rainbow"] = list(rng.permutation(4))
    H = RainbowGraph(g, outputs=[0, 1, 2, 3])
    # stopped without an incumbent (made certain: whether HiGHS has one at 10 ms is timing)
    monkeypatch.setattr(solvers, "highs_incumbent_bound", lambda model, sign: None)
    with pytest.raises(SolverTimeLimitError, match=r"HiGHS.*time_limit=0\.01.*raise `time_limit`"):
        milp(H, epsilon=0.3, delta=0.2, utility="rank", time_limit=0.01, solver="highs")


def test_without_highspy_the_pulp_path_works():
    # highspy is optional: with it hidden, the default is CBC through PuLP, and "highs" says why
    code = (
        "import sys; sys.modules['highspy'] = None\n"
        "from rainbowdp.builders import count_path\n"
        "from rainbowdp.design import default_solver, lp, milp\n"
        "from rainbowdp.exceptions import SolverNotAvailableError\n"
        "G = count_path(3)\n"
        "assert default_solver() == 'cbc'\n"
        "assert 'CBC' in lp(G, epsilon=1.0, delta=0.05).solver\n"
        "assert milp(G, epsilon=1.0, delta=0.05).status == 'optimal'\n"
        "try:\n"
        "    lp(G, epsilon=1.0, solver='highs')\n"
        "except SolverNotAvailableError as exc:\n"
        "    assert 'highspy' in str(exc)\n"
        "else:\n"
        "    raise AssertionError('no error')\n"
        "assert 'highspy' not in [m for m in sys.modules if sys.modules[m] is not None]\n"
    )
    out = subprocess.run(
        [sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr


@settings(max_examples=10, deadline=None, derandomize=True)
@given(
    G=rainbow_graphs(max_nodes=6, max_outputs=4, connected=True),
    eps=st.sampled_from([0.0, 0.3, 1.0]),
    dlt=st.sampled_from([0.0, 0.02]),
)
def test_lp_without_crossover_matches_the_vertex(G, eps, dlt):
    # Large LPs that need no vertex skip the crossover (solvers.NO_CROSSOVER_NONZEROS); with the
    # threshold at 0 every such model does: the interior point certifies and its utility is
    # the vertex's within the interior-point method's tolerance.
    vertex = lp(G, epsilon=eps, delta=dlt, utility="rank")
    seen: list[bool] = []
    real = HighsModel.skip_crossover

    def spy(self, solver, nonzeros):
        seen.append(real(self, solver, nonzeros))
        return seen[-1]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(solvers, "NO_CROSSOVER_NONZEROS", 0)
        mp.setattr(HighsModel, "skip_crossover", spy)
        res = lp(G, epsilon=eps, delta=dlt, utility="rank")
        row = vertex.mechanism.row(G.nodes[0])
        fixed = lp(G, epsilon=eps, delta=dlt, utility="rank", fixed={G.nodes[0]: row})
    # no fixed row: no vertex needed; a fixed row: refinement may be needed, so a vertex
    assert seen == [True, False]
    assert certify(res.mechanism, epsilon=eps, delta=dlt).verdict == "private"
    assert certify(fixed.mechanism, epsilon=eps, delta=dlt).verdict == "private"
    assert res.objective == pytest.approx(vertex.objective, abs=1e-8)
