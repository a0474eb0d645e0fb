"""Tests of rainbowdp.design.lp: optimum against an independent scipy formulation, certified
output, boundary conditions on the line, bounds, utilities, errors."""

from __future__ import annotations

import importlib
import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from rainbowdp import builders, certify
from rainbowdp._verify.repair import dp_mixing_bound, mix
from rainbowdp.design import lp, utility_matrix
from rainbowdp.design._highs import HighsModel
from rainbowdp.design._model import ArrayModel, ModelBuilder
from rainbowdp.exceptions import InfeasibleDesignError, NotPrivateError
from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism
from rainbowdp.privacy import verify

from ..strategies import deltas, distributions, epsilons, rainbow_graphs


# ------------------------------------------------------------------ independent reference LP
def scipy_lp_optimum(
    G: RainbowGraph, U: np.ndarray, epsilon: float, delta: float, fixed: dict | None = None
) -> float | None:
    """max <U, P> over (ε, δ)-DP mechanisms, as a dense scipy LP; None if infeasible.

    Written from the definition independently of the package: variables P (N*q) then one
    t per (ordered pair, output); fixed rows as equality rows.
    """
    n, q = U.shape
    x = math.exp(epsilon)
    pairs = [(int(a), int(b)) for a, b in G.edges] + [(int(b), int(a)) for a, b in G.edges]
    nt = len(pairs) * q if delta > 0 else 0
    nv = n * q + nt
    A_ub, b_ub, A_eq, b_eq = [], [], [], []
    for k, (a, b) in enumerate(pairs):
        for v in range(q):
            row = np.zeros(nv)
            row[a * q + v] += 1.0
            row[b * q + v] -= x
            if delta > 0:
                row[n * q + k * q + v] = -1.0
            A_ub.append(row)
            b_ub.append(0.0)
        if delta > 0:
            row = np.zeros(nv)
            row[n * q + k * q : n * q + (k + 1) * q] = 1.0
            A_ub.append(row)
            b_ub.append(delta)
    for i in range(n):
        row = np.zeros(nv)
        row[i * q : (i + 1) * q] = 1.0
        A_eq.append(row)
        b_eq.append(1.0)
    for node, vec in (fixed or {}).items():
        i = G.index_of(node)
        for v in range(q):
            row = np.zeros(nv)
            row[i * q + v] = 1.0
            A_eq.append(row)
            b_eq.append(float(vec[v]))
    c = np.zeros(nv)
    c[: n * q] = -U.ravel()
    res = linprog(
        c,
        A_ub=np.array(A_ub) if A_ub else None,
        b_ub=b_ub if b_ub else None,
        A_eq=np.array(A_eq),
        b_eq=b_eq,
        bounds=[(0, None)] * nv,
        method="highs",
    )
    if res.status == 2:
        return None
    assert res.status == 0, res.message
    return -res.fun


@st.composite
def utilities(draw, G: RainbowGraph):
    kind = draw(st.sampled_from(["accuracy", "rank", "random"]))
    if kind != "random":
        return kind
    vals = draw(
        st.lists(
            st.integers(-5, 5), min_size=G.n_nodes * G.n_outputs, max_size=G.n_nodes * G.n_outputs
        )
    )
    return np.array(vals, dtype=float).reshape(G.n_nodes, G.n_outputs) / 5


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), G=rainbow_graphs(max_nodes=5, max_outputs=4), eps=epsilons, dlt=deltas)
def test_lp_matches_independent_scipy_lp_and_verifies(data, G, eps, dlt):
    utility = data.draw(utilities(G))
    fixed = None
    if data.draw(st.booleans()):
        node = data.draw(st.sampled_from(G.nodes))
        fixed = {node: data.draw(distributions(G.n_outputs))}
    U = utility_matrix(G, utility)
    ref = scipy_lp_optimum(G, U, eps, dlt, fixed)
    if ref is None:
        with pytest.raises(InfeasibleDesignError):
            lp(G, epsilon=eps, delta=dlt, utility=utility, fixed=fixed)
        return
    res = lp(G, epsilon=eps, delta=dlt, utility=utility, fixed=fixed)
    assert res.objective == pytest.approx(ref, abs=1e-7)
    assert res.solver_objective == pytest.approx(ref, abs=1e-7)
    assert verify(res.mechanism, epsilon=eps, delta=dlt).is_private
    assert res.achieved_delta <= dlt + 1e-15
    assert res.status == "optimal"
    if fixed:
        ((node, vec),) = fixed.items()
        np.testing.assert_array_equal(res.mechanism.row(node), vec)  # held exactly


@pytest.mark.parametrize("dlt", [0.0, 0.03])
def test_highs_and_cbc_agree(dlt):
    rng = np.random.default_rng(7)
    g = nx.gnm_random_graph(8, 14, seed=3)
    for d in g.nodes:
        g.nodes[d]["rainbow"] = list(rng.permutation(3))
    G = RainbowGraph(g, outputs=[0, 1, 2])
    U = rng.integers(0, 4, size=(8, 3)).astype(float)
    a = lp(G, epsilon=0.5, delta=dlt, utility=U, solver="highs")
    b = lp(G, epsilon=0.5, delta=dlt, utility=U, solver="cbc")
    assert a.solver == "HiGHS" and "CBC" in b.solver
    assert a.objective == pytest.approx(b.objective, abs=1e-7)
    assert verify(b.mechanism, epsilon=0.5, delta=dlt).is_private


# ------------------------------------------------------------------ line: Gu et al., Theorem 4
def corrected_line(boundary: np.ndarray, n: int, eps: float, dlt: float) -> np.ndarray:
    """Prefix sums of T^t(m), t = 0..n, with s'_k = min{1, e^ε s_k + δ, 1 - e^{-ε}(1 - s_k - δ)}
    (errata item 1: the corrected operator of Gu et al., eq. (4.3))."""
    x = math.exp(eps)
    s = np.cumsum(boundary)
    s[-1] = 1.0
    out = [s.copy()]
    for _ in range(n):
        s = np.minimum.reduce([np.ones_like(s), x * s + dlt, 1 - (1 - s - dlt) / x])
        s[-1] = 1.0
        out.append(s.copy())
    return np.array(out)


def prefix_utility(q: int, w: np.ndarray) -> np.ndarray:
    """Per-output weights whose expectation is sum_k w_k s_k (s_k = prefix sum up to rank k)."""
    return np.array([w[j:].sum() for j in range(q)])


@pytest.mark.parametrize("eps,dlt", [(math.log(2), 0.0), (0.3, 0.02), (1.0, 0.1)])
def test_line_with_fixed_boundary_is_the_operator_iterate(eps, dlt):
    # Gu et al., Theorem 4 (with errata item 1): on the (c, n)-line with node 0 fixed, the
    # dominant mechanism has prefix sums T^t(s), so any positive combination of prefix sums is
    # maximised by it and the LP optimum equals its utility.
    q, n = 3, 6
    b = np.array([0.05, 0.15, 0.8])
    G = builders.line(list(range(q)), n)
    w = np.array([1.0, 0.5, 0.0])
    U = np.tile(prefix_utility(q, w), (n + 1, 1))
    res = lp(G, epsilon=eps, delta=dlt, utility=U, fixed={0: b})
    s = corrected_line(b, n, eps, dlt)
    assert res.objective == pytest.approx(float((s[:, : q - 1] @ w[: q - 1]).sum()), abs=1e-8)
    # the LP's own prefix sums are the operator's, node by node (the optimum is dominant)
    np.testing.assert_allclose(np.cumsum(res.mechanism.probabilities, axis=1), s, atol=1e-7)
    assert verify(res.mechanism, epsilon=eps, delta=dlt).is_private


@pytest.mark.parametrize("eps,dlt", [(math.log(2), 0.0), (0.3, 0.02)])
def test_line_matches_optimal_module(eps, dlt):
    optimal = pytest.importorskip("rainbowdp.optimal")
    q, n = 3, 5
    b = np.array([0.1, 0.2, 0.7])
    G = builders.line(list(range(q)), n)
    w = np.array([2.0, 1.0, 0.0])
    U = np.tile(prefix_utility(q, w), (n + 1, 1))
    res = lp(G, epsilon=eps, delta=dlt, utility=U, fixed={0: b})
    rows = np.asarray(optimal.line_mechanism(b, n, eps, dlt))  # rainbow order = outputs order
    assert res.objective == pytest.approx(float((U * rows).sum()), abs=1e-8)


# ------------------------------------------------------------------ special cases
def test_epsilon_zero_delta_zero_equalises_components():
    g = nx.Graph([(0, 1), (1, 2), (3, 4)])
    for d in g.nodes:
        g.nodes[d]["rainbow"] = [0, 1] if d != 2 else [1, 0]
    G = RainbowGraph(g, outputs=[0, 1])
    res = lp(G, epsilon=0.0, delta=0.0, fixed={3: [0.3, 0.7]})
    P = res.mechanism.probabilities
    np.testing.assert_array_equal(P[0], P[1])
    np.testing.assert_array_equal(P[1], P[2])
    np.testing.assert_allclose(P[4], [0.3, 0.7], atol=1e-12)
    assert res.objective == pytest.approx(1.0 + 1.0 + 0.0 + 0.3 + 0.3)  # two "0"-lovers win


def test_bounds_bind_and_are_respected():
    G = builders.line(["a", "b"], 2)
    free = lp(G, epsilon=1.0)
    assert free.objective == pytest.approx(3.0)  # no constraint binds: always answer "a"
    res = lp(G, epsilon=1.0, bounds={1: (None, [0.5, 1.0])})
    P = res.mechanism.probabilities
    assert P[1, 0] <= 0.5 + 1e-9
    # node 1 capped at P(a) = 0.5, so P(b) >= 0.5 there and >= 0.5 / e at its neighbours
    assert res.objective == pytest.approx(0.5 + 2 * (1 - 0.5 / math.e), abs=1e-9)


def test_infeasible_fixed_neighbours_raise_before_solving():
    G = builders.line([0, 1], 1)
    with pytest.raises(InfeasibleDesignError, match=r"neighbours 0 and 1"):
        lp(G, epsilon=0.1, delta=0.01, fixed={0: [1.0, 0.0], 1: [0.0, 1.0]})


@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_infeasible_through_a_free_node_raises(solver):
    # 0 - 1 - 2 with the ends fixed to opposite point masses: at ε = 0.1, δ = 0 the middle row
    # would need P1(0) >= e^-0.1 and P1(1) >= e^-0.1.
    G = builders.line([0, 1], 2)
    with pytest.raises(InfeasibleDesignError, match="infeasible"):
        lp(G, epsilon=0.1, fixed={0: [1.0, 0.0], 2: [0.0, 1.0]}, solver=solver)


def test_contradictory_bounds_raise():
    G = builders.line([0, 1], 1)
    with pytest.raises(InfeasibleDesignError, match=r"bounds\[1\]"):
        lp(G, epsilon=1.0, bounds={1: ([0.7, 0.7], None)})
    with pytest.raises(InfeasibleDesignError, match=r"fixed\[0\]"):
        lp(G, epsilon=1.0, fixed={0: [0.5, 0.5]}, bounds={0: (None, [0.4, 1.0])})


def test_utilities():
    G = builders.count_path(3)
    U = utility_matrix(G, "absolute")
    np.testing.assert_array_equal(U[1], [-1.0, 0.0, -1.0, -2.0])
    np.testing.assert_array_equal(utility_matrix(G, "squared")[0], [0.0, -1.0, -4.0, -9.0])
    np.testing.assert_array_equal(utility_matrix(G, lambda v, a: abs(v - a)), U)
    np.testing.assert_array_equal(utility_matrix(G, ("loss", -U)), U)
    np.testing.assert_array_equal(utility_matrix(G, "rank")[0], [3.0, 2.0, 1.0, 0.0])
    # MSE-optimal vs accuracy-optimal are different designs: each wins on its own utility
    a = lp(G, epsilon=0.5, utility="absolute")
    b = lp(G, epsilon=0.5, utility="accuracy")
    assert a.objective >= float((U * b.mechanism.probabilities).sum()) - 1e-9
    A = utility_matrix(G, "accuracy")
    assert b.objective >= float((A * a.mechanism.probabilities).sum()) - 1e-9


# ------------------------------------------------------------------ repair
@settings(max_examples=60, deadline=None)
@given(
    M=st.data(),
    eps=st.sampled_from([0.1, 0.5, 1.0, 2.0]),
    dlt=st.sampled_from([0.0, 1e-3, 0.05]),
    G=rainbow_graphs(max_nodes=5, connected=True),
)
def test_closed_form_mixing_weight_restores_privacy(M, eps, dlt, G):
    # The bound of dp_mixing_bound is a theorem (docs/design.md): mixing every row with the
    # uniform distribution by that weight gives an (ε, δ)-DP mechanism, whatever P was.
    P = np.array([M.draw(distributions(G.n_outputs)) for _ in range(G.n_nodes)])
    e = G.edges
    a = np.concatenate([e[:, 0], e[:, 1]])
    b = np.concatenate([e[:, 1], e[:, 0]])
    lam = dp_mixing_bound(P, a, b, eps, dlt)
    assert 0.0 <= lam <= 1.0
    Q = mix(P, np.ones(G.n_nodes, dtype=bool), min(1.0, lam * (1 + 1e-9) + 1e-12))
    assert verify(Mechanism(G, Q), epsilon=eps, delta=dlt, tol=1e-12).is_private


def _inject(monkeypatch, row: int, delta_vec: np.ndarray) -> None:
    """Perturb the extracted point and switch off the vertex refinement (tested separately)."""
    common = importlib.import_module("rainbowdp.design._model")
    monkeypatch.setattr(ArrayModel, "refine", lambda self, **kw: None)  # both model kinds
    real = common.extract

    def noisy(*args):
        P = real(*args)
        P[row] = P[row] + delta_vec
        return P

    monkeypatch.setattr(common, "extract", noisy)


def test_repair_of_a_slightly_infeasible_point(monkeypatch):
    # A round-off-sized violation in the solver's point (no fixed rows): the closed-form mixing
    # weight repairs it, the result verifies and the reported loss is tiny.
    _inject(monkeypatch, 2, np.array([-1e-9, 1e-9]))
    G = builders.line([0, 1], 2)
    U = np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 1.0]])  # ends pull apart: both edges tight
    res = lp(G, epsilon=math.log(2), utility=U)
    assert verify(res.mechanism, epsilon=math.log(2)).is_private
    assert 0 < res.repair_weight < 1e-6
    assert 0 < res.repair < 1e-6
    assert res.objective == pytest.approx(res.solver_objective, abs=1e-6)


def test_round_off_is_repaired_by_mixing_without_refinement(monkeypatch):
    # Without fixed rows the certified mixing comes first: a round-off-sized violation is
    # repaired by a weight below CHEAP_MIXING, and the least-squares refinement never runs.
    common = importlib.import_module("rainbowdp.design._model")
    real = common.extract

    def noisy(*args):
        P = real(*args)
        P[2] = P[2] + np.array([-1e-11, 1e-11])
        return P

    def no_refine(self, **kw):
        raise AssertionError("refine called")

    monkeypatch.setattr(common, "extract", noisy)
    monkeypatch.setattr(ArrayModel, "refine", no_refine)
    G = builders.line([0, 1], 2)
    U = np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 1.0]])
    res = lp(G, epsilon=math.log(2), utility=U)
    assert certify(res.mechanism, epsilon=math.log(2)).verdict == "private"
    assert 0 < res.repair_weight <= common.CHEAP_MIXING
    assert res.objective == pytest.approx(res.solver_objective, abs=1e-9)


def test_repair_against_a_fixed_row_raises(monkeypatch):
    # P1(0) <= e^eps * 0.25 = 0.5 is tight against the fixed row; uniform (0.5) cannot pull it
    # back, so the repair refuses rather than returning a mechanism far from the optimum.
    _inject(monkeypatch, 1, np.array([1e-9, -1e-9]))
    G = builders.line([0, 1], 2)
    with pytest.raises(NotPrivateError, match="fixed row"):
        lp(G, epsilon=math.log(2), fixed={0: [0.25, 0.75]})


def test_refinement_recovers_a_low_precision_vertex(monkeypatch):
    # CBC reports ~8 significant digits; against a fixed row that breaks tight constraints by
    # ~1e-9, which mixing cannot repair. Refinement recomputes the vertex from its active set.
    for cls in (ModelBuilder, HighsModel):  # PuLP's model and the arrays

        def eight_digits(self, ids, real=cls.values):
            v = real(self, ids)
            return np.array([float(f"{t:.8g}") for t in v])

        monkeypatch.setattr(cls, "values", eight_digits)
    G = builders.line([0, 1, 2], 4)
    b = [1 / 7, 2 / 7, 4 / 7]
    res = lp(G, epsilon=1 / 3, delta=0.0, fixed={0: b}, utility="rank")
    assert verify(res.mechanism, epsilon=1 / 3).is_private
    assert res.repair_weight == 0.0
    s = corrected_line(np.array(b), 4, 1 / 3, 0.0)
    np.testing.assert_allclose(np.cumsum(res.mechanism.probabilities, axis=1), s, atol=1e-12)


# ------------------------------------------------------------------ argument validation
@pytest.mark.parametrize(
    "kwargs,exc,match",
    [
        (dict(epsilon=-1.0), ValueError, r"epsilon=-1\.0"),
        (dict(epsilon=1.0, delta=1.5), ValueError, r"delta=1\.5"),
        (dict(epsilon=1.0, utility="fun"), ValueError, r"utility='fun'"),
        (dict(epsilon=1.0, utility=np.ones((2, 2))), ValueError, r"shape \(3, 2\)"),
        (dict(epsilon=1.0, utility="absolute"), ValueError, "true answers"),
        (dict(epsilon=1.0, fixed={7: [0.5, 0.5]}), ValueError, "node 7"),
        (dict(epsilon=1.0, fixed={0: [0.6, 0.6]}), ValueError, r"fixed\[0\]"),
        (dict(epsilon=1.0, fixed=[0.5, 0.5]), TypeError, r"fixed=\[0\.5, 0\.5\]"),
        (dict(epsilon=1.0, bounds={0: (0.6, 0.5)}), ValueError, r"bounds\[0\].*\(0\.6, 0\.5\)"),
        (dict(epsilon=1.0, bounds={0: 0.5}), ValueError, r"bounds\[0\]"),
        (dict(epsilon=1.0, solver="glpk"), ValueError, r"solver='glpk'"),
        (dict(epsilon=1.0, time_limit=-2), ValueError, r"time_limit=-2"),
        (dict(epsilon=1.0, msg="yes"), TypeError, r"msg='yes'"),
    ],
)
def test_bad_arguments(kwargs, exc, match):
    G = builders.line(["x", "y"], 2)
    with pytest.raises(exc, match=match):
        lp(G, **kwargs)


def test_bad_graph():
    with pytest.raises(TypeError, match="RainbowGraph"):
        lp(nx.path_graph(2), epsilon=1.0)


def test_fixed_neighbours_are_judged_exactly():
    # P0/P1 = 2 exactly on output 0, and e^fl(ln 2) < 2: the fixed rows are not (fl(ln 2), 0)-close
    # in exact arithmetic, so no certifiable design exists; one float step up, they are.
    G = builders.line(["a", "b"], 2)
    fixed = {0: [0.4, 0.6], 1: [0.2, 0.8]}
    with pytest.raises(InfeasibleDesignError, match=r"fixed rows of neighbours 0 and 1"):
        lp(G, epsilon=math.log(2), fixed=fixed)
    eps_up = math.nextafter(math.log(2), math.inf)
    res = lp(G, epsilon=eps_up, fixed=fixed)
    assert certify(res.mechanism, epsilon=eps_up).verdict == "private"
