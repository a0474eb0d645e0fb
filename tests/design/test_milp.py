"""Tests of rainbowdp.design.milp: bracketing by the LPs, brute force over leak sets,
certified output, formulations, errors and time limits."""

from __future__ import annotations

import itertools
import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from rainbowdp import builders
from rainbowdp.design import lp, milp, solvers, utility_matrix
from rainbowdp.exceptions import InfeasibleDesignError, SolverTimeLimitError
from rainbowdp.graph import RainbowGraph
from rainbowdp.privacy import pdp_delta, verify

from ..strategies import rainbow_graphs

MARGIN_SLACK = 1e-4  # the margin m = 1e-7 costs O(m N q / (e^eps - 1)) utility


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    G=rainbow_graphs(max_nodes=4, max_outputs=3),
    eps=st.sampled_from([0.5, math.log(2), 1.0]),
    dlt=st.sampled_from([0.05, 0.2]),
    utility=st.sampled_from(["accuracy", "rank"]),
)
def test_milp_between_the_two_lps(G, eps, dlt, utility):
    # (ε, 0)-DP ⊂ (ε, δ)-PDP ⊂ (ε, δ)-DP (Kadam et al., Theorem 1), so the optima are ordered.
    lo = lp(G, epsilon=eps, delta=0.0, utility=utility).objective
    hi = lp(G, epsilon=eps, delta=dlt, utility=utility).objective
    res = milp(G, epsilon=eps, delta=dlt, utility=utility)
    assert lo - MARGIN_SLACK <= res.objective <= hi + 1e-7
    assert pdp_delta(res.mechanism, eps) <= dlt  # Kadam et al., Definition 2, exact (tol=0)
    assert res.achieved_delta <= dlt
    assert verify(res.mechanism, epsilon=eps, delta=dlt).is_private  # PDP implies DP
    k = milp(G, epsilon=eps, delta=dlt, utility=utility, formulation="kadam13")
    assert k.objective <= res.objective + 1e-7  # shared indicators: a smaller feasible set
    assert pdp_delta(k.mechanism, eps) <= dlt


def brute_force_pdp(U: np.ndarray, eps: float, dlt: float) -> float:
    """PDP optimum on two neighbouring nodes: enumerate both pairs' leak sets, one LP each."""
    q = U.shape[1]
    x = math.exp(eps)
    best = -np.inf
    subsets = list(itertools.product([0, 1], repeat=q))
    for s01, s10 in itertools.product(subsets, subsets):
        A, b = [], []
        for (a, bb), S in (((0, 1), s01), ((1, 0), s10)):
            leak = np.zeros(2 * q)
            for v in range(q):
                if S[v]:
                    leak[a * q + v] = 1.0
                else:  # not leaking: P_a(v) <= e^eps P_b(v)
                    row = np.zeros(2 * q)
                    row[a * q + v], row[bb * q + v] = 1.0, -x
                    A.append(row)
                    b.append(0.0)
            A.append(leak)
            b.append(dlt)
        A_eq = np.kron(np.eye(2), np.ones(q))
        r = linprog(
            -U.ravel(),
            A_ub=np.array(A),
            b_ub=b,
            A_eq=A_eq,
            b_eq=[1, 1],
            bounds=[(0, 1)] * (2 * q),
            method="highs",
        )
        if r.status == 0:
            best = max(best, -r.fun)
    return best


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("q", [2, 3])
def test_milp_equals_brute_force_on_two_nodes(seed, q):
    rng = np.random.default_rng(seed)
    g = nx.path_graph(2)
    for d in g.nodes:
        g.nodes[d]["rainbow"] = list(rng.permutation(q))
    G = RainbowGraph(g, outputs=list(range(q)))
    U = rng.integers(0, 5, size=(2, q)).astype(float)
    eps, dlt = 0.4, 0.15
    res = milp(G, epsilon=eps, delta=dlt, utility=U)
    assert res.objective == pytest.approx(brute_force_pdp(U, eps, dlt), abs=MARGIN_SLACK)
    assert pdp_delta(res.mechanism, eps) <= dlt


def test_pdp_is_strictly_between_on_a_star():
    # Star K_{1,3} with ternary rainbows: the MILP gains over (ε, 0)-DP but not all the way to
    # (ε, δ)-DP, so both inequalities of the bracket are strict here.
    g = nx.star_graph(3)
    for d, rb in zip(g.nodes, [[0, 1, 2], [1, 0, 2], [2, 1, 0], [1, 2, 0]], strict=True):
        g.nodes[d]["rainbow"] = rb
    G = RainbowGraph(g, outputs=[0, 1, 2])
    eps, dlt = 0.5, 0.1
    lo = lp(G, epsilon=eps).objective
    hi = lp(G, epsilon=eps, delta=dlt).objective
    mid = milp(G, epsilon=eps, delta=dlt).objective
    assert lo + 1e-3 < mid < hi - 1e-3


@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_solvers_agree(solver):
    g = nx.cycle_graph(5)
    for d in g.nodes:
        g.nodes[d]["rainbow"] = [d % 3, (d + 1) % 3, (d + 2) % 3]
    G = RainbowGraph(g, outputs=[0, 1, 2])
    ref = milp(G, epsilon=0.5, delta=0.1, solver="highs").objective
    res = milp(G, epsilon=0.5, delta=0.1, solver=solver)
    assert res.objective == pytest.approx(ref, abs=1e-6)
    assert pdp_delta(res.mechanism, 0.5) <= 0.1


def test_delta_zero_is_the_lp():
    G = builders.count_path(3)
    a = milp(G, epsilon=0.7, delta=0.0, utility="absolute")
    b = lp(G, epsilon=0.7, delta=0.0, utility="absolute")
    assert a.objective == pytest.approx(b.objective, abs=1e-9)
    assert a.method == "milp" and a.achieved_delta == 0.0


def test_fixed_rows_held_and_leak_checked():
    G = builders.line([0, 1, 2], 3)
    b = [0.2, 0.3, 0.5]
    res = milp(G, epsilon=0.5, delta=0.1, fixed={0: b})
    np.testing.assert_array_equal(res.mechanism.row(0), b)
    assert pdp_delta(res.mechanism, 0.5) <= 0.1
    with pytest.raises(InfeasibleDesignError, match=r"leak"):
        milp(G, epsilon=0.5, delta=0.1, fixed={0: [1.0, 0.0, 0.0], 1: [0.0, 0.0, 1.0]})


def test_utility_helper_is_used():
    G = builders.count_path(2)
    U = utility_matrix(G, "squared")
    res = milp(G, epsilon=1.0, delta=0.05, utility="squared")
    assert res.objective == pytest.approx(float((U * res.mechanism.probabilities).sum()))


def test_time_limit_without_an_incumbent_raises(monkeypatch):
    # 40 nodes, 4 outputs: hundreds of binaries; HiGHS cannot prove optimality in 10 ms. Whether
    # it has an incumbent by then depends on timing, so "no incumbent" is made certain here; the
    # incumbent itself is returned (tests/test_solver_progress.py).
    g = nx.random_regular_graph(4, 40, seed=1)
    rng = np.random.default_rng(1)
    for d in g.nodes:
        g.nodes[d]["rainbow"] = list(rng.permutation(4))
    G = RainbowGraph(g, outputs=[0, 1, 2, 3])
    monkeypatch.setattr(solvers, "highs_incumbent_bound", lambda model, sign: None)
    with pytest.raises(SolverTimeLimitError, match=r"time_limit=0\.01"):
        milp(G, epsilon=0.3, delta=0.2, utility="rank", time_limit=0.01)


@pytest.mark.parametrize(
    "kwargs,exc,match",
    [
        (dict(epsilon=1.0, delta=0.1, formulation="paper"), ValueError, r"formulation='paper'"),
        (dict(epsilon=1.0, delta=0.1, margin=0.5), ValueError, r"margin=0\.5"),
        (dict(epsilon=1.0, delta=0.1, margin=-1), ValueError, r"margin=-1"),
        (dict(epsilon=1.0, delta=2), ValueError, r"delta=2"),
        (dict(epsilon=float("nan"), delta=0.1), ValueError, r"epsilon=nan"),
        (dict(epsilon=1.0, delta=0.1, solver=3), TypeError, r"solver=3"),
    ],
)
def test_bad_arguments(kwargs, exc, match):
    G = builders.line([0, 1], 1)
    with pytest.raises(exc, match=match):
        milp(G, **kwargs)


def test_kadam13_is_the_old_name_of_the_per_node_formulation():
    G = builders.line(["yes", "no"], 2)
    old = milp(G, epsilon=0.5, delta=0.1, formulation="kadam13")
    new = milp(G, epsilon=0.5, delta=0.1, formulation="kadam13-per-node")
    np.testing.assert_array_equal(old.mechanism.probabilities, new.mechanism.probabilities)
    assert old.formulation == new.formulation == "kadam13-per-node"
    with pytest.raises(ValueError, match="`formulation`"):
        milp(G, epsilon=0.5, delta=0.1, formulation="printed")
