"""Long solves: a MILP stopped by its time limit returns its incumbent, certified, with the
solver's bound and gap; progress and logs go to standard error, never to standard output."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pulp
import pytest

from rainbowdp import builders, certify
from rainbowdp.design import console, lp, milp, solvers
from rainbowdp.graph import RainbowGraph
from rainbowdp.privacy import pdp_delta

pytest.importorskip("highspy")

EPS, DELTA = 0.3, 0.2


@pytest.fixture(scope="module")
def hard_graph() -> RainbowGraph:
    """40 nodes of degree 4, 4 outputs, random rainbows: 640 binaries, 2120 rows. HiGHS needs
    far more than a second to prove its MILP optimum at (0.3, 0.2) with utility "rank" (it was
    still 2.4 % from its bound after 3 s), and finds incumbents at once (the warm start)."""
    g = nx.random_regular_graph(4, 40, seed=1)
    rng = np.random.default_rng(1)
    for d in g.nodes:
        g.nodes[d]["rainbow"] = list(rng.permutation(4))
    return RainbowGraph(g, outputs=[0, 1, 2, 3])


@pytest.fixture(scope="module")
def stopped(hard_graph):
    return milp(hard_graph, epsilon=EPS, delta=DELTA, utility="rank", time_limit=1.0)


def test_time_limit_returns_the_certified_incumbent(hard_graph, stopped):
    res = stopped
    assert res.status == "time_limit"
    # certified as an optimum is: the sound PDP leakage within delta, and (PDP implies DP,
    # Kadam et al. Theorem 1) exact (eps, delta)-DP proved in rational arithmetic
    assert pdp_delta(res.mechanism, EPS) <= DELTA
    assert res.achieved_delta <= DELTA
    assert certify(res.mechanism, epsilon=EPS, delta=DELTA).verdict == "private"
    # the bound is an upper bound on the utility (a maximisation), the gap measured from it
    assert res.best_bound is not None and math.isfinite(res.best_bound)
    assert res.best_bound >= res.objective
    assert res.gap >= 0
    assert res.gap == pytest.approx((res.best_bound - res.objective) / abs(res.objective))
    # not optimal: the bound is not reached within the MIP gap HiGHS is asked for (1e-9)
    assert res.gap > 1e-9
    # the utility of the returned mechanism, recomputed
    ranks = hard_graph.ranks
    U = (hard_graph.n_outputs - 1 - ranks).astype(float)
    assert res.objective == pytest.approx(float((U * res.mechanism.probabilities).sum()))


def test_the_bound_bounds_the_optimum(hard_graph, stopped):
    # Every (eps, 0)-DP mechanism is (eps, delta)-PDP (Kadam et al.): the LP optimum at (eps, 0)
    # is a feasible utility, so it cannot exceed the MILP's bound (up to the model's margin m =
    # 1e-7 per constraint and the solver's tolerances, far below this instance's utilities ~70)
    pure = lp(hard_graph, epsilon=EPS, delta=0.0, utility="rank")
    assert pure.objective <= stopped.best_bound + 1e-6
    # and PDP implies DP (Theorem 1): the (eps, delta)-DP LP optimum is at least the MILP's
    # incumbent
    dp = lp(hard_graph, epsilon=EPS, delta=DELTA, utility="rank")
    assert stopped.objective <= dp.objective + 1e-6


def test_time_limit_result_in_plain_data(stopped):
    d = stopped.to_dict()
    assert d["status"] == "time_limit"
    assert d["best_bound"] == stopped.best_bound and d["gap"] == stopped.gap
    assert "gap" in repr(stopped) and "time_limit" in str(stopped)


def test_progress_bar_on_stderr_only(capfd, monkeypatch, hard_graph):
    pytest.importorskip("tqdm")
    monkeypatch.setattr(console, "PROGRESS_DELAY", 0.0)
    res = milp(hard_graph, epsilon=EPS, delta=DELTA, utility="rank", time_limit=0.5, progress=True)
    out, err = capfd.readouterr()
    assert out == ""
    assert "HiGHS MIP" in err and "incumbent" in err and "gap" in err
    assert res.status in ("time_limit", "optimal")


def test_progress_lines_without_tqdm(capfd, monkeypatch, hard_graph):
    monkeypatch.setattr(console, "PROGRESS_DELAY", 0.0)
    monkeypatch.setattr(console, "tqdm_available", lambda: False)
    milp(hard_graph, epsilon=EPS, delta=DELTA, utility="rank", time_limit=0.5, progress=True)
    out, err = capfd.readouterr()
    assert out == ""
    # HiGHS's own MIP log: its header and its table of bounds and gap
    assert "MIP" in err and "BestBound" in err and "Gap" in err


def test_progress_is_held_back_for_quick_solves(capfd):
    # the default delay: a solve of milliseconds shows nothing, on either stream
    milp(builders.line([0, 1], 3), epsilon=1.0, delta=0.1, progress=True)
    assert capfd.readouterr() == ("", "")


def test_progress_off_and_default_off_when_not_a_terminal(capfd, hard_graph):
    # under pytest standard error is not a terminal: None means off
    assert console.show_progress(None) is False
    milp(hard_graph, epsilon=EPS, delta=DELTA, utility="rank", time_limit=0.3)
    assert capfd.readouterr() == ("", "")


def test_msg_log_goes_to_stderr(capfd):
    G = builders.line([0, 1], 3)
    lp(G, epsilon=1.0, delta=0.1, msg=True)
    out, err = capfd.readouterr()
    assert out == "" and "HiGHS" in err


def test_cbc_log_goes_to_stderr(capfd):
    G = builders.line([0, 1], 3)
    milp(G, epsilon=1.0, delta=0.1, solver="cbc", progress=True)
    out, err = capfd.readouterr()
    assert out == "" and "Cbc" in err


def test_a_callers_pulp_highs_writes_nothing_on_stdout(capfd):
    # PuLP makes its own highspy.Highs, whose banner would go to standard output: discarded
    G = builders.line([0, 1], 3)
    res = milp(G, epsilon=1.0, delta=0.1, solver=pulp.HiGHS(msg=False))
    assert res.status == "optimal"
    assert capfd.readouterr().out == ""


def test_highs_through_pulp_is_quiet_and_returns_the_incumbent(capfd, hard_graph):
    # make_solver's HiGHS given a PuLP problem (as Kadam et al.'s printed MILP is solved)
    prob = pulp.LpProblem("knap", pulp.LpMaximize)
    rng = np.random.default_rng(3)
    w, v = rng.integers(1, 60, 60), rng.integers(1, 60, 60)
    x = [prob.add_variable(f"x{i}", cat=pulp.LpBinary) for i in range(60)]
    prob += pulp.lpSum(int(v[i]) * x[i] for i in range(60))
    prob += pulp.lpSum(int(w[i]) * x[i] for i in range(60)) <= 700
    out = solvers.solve(prob, solvers.make_solver("highs"))
    assert out.status == "optimal"
    assert capfd.readouterr().out == ""


@pytest.mark.parametrize("bad", ["yes", 1, 0.5])
def test_bad_progress(bad):
    with pytest.raises(TypeError, match=rf"progress={bad!r}"):
        lp(builders.line([0, 1], 1), epsilon=1.0, progress=bad)


@pytest.mark.parametrize("show", [True, False])
def test_stdout_to_stderr_moves_file_descriptor_1(capfd, show):
    import os

    print("before", flush=True)
    with console.stdout_to_stderr(show):
        os.write(1, b"from a solver\n")
    print("after", flush=True)
    out, err = capfd.readouterr()
    assert out == "before\nafter\n"
    assert err == ("from a solver\n" if show else "")


def test_overlapping_redirections_restore_stdout(capfd):
    # solves on several threads: the blocks overlap, and descriptor 1 comes back at the end
    import os
    import threading

    started = threading.Barrier(4)

    def solve_like() -> None:
        with console.stdout_to_stderr(False):
            started.wait()
            os.write(1, b"solver output\n")

    threads = [threading.Thread(target=solve_like) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    os.write(1, b"mine\n")
    out, err = capfd.readouterr()
    assert out == "mine\n" and err == ""
