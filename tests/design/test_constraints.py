"""Tests of the designers' side constraints (rainbowdp.design.RowConstraint and its builders)
and of rainbowdp.design.min_delta: validation, the constraints on every returned mechanism,
certified privacy, optima against independent scipy formulations, tied models, and the
count-query instance of Sadeghi et al."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

import rainbowdp as rdp
from rainbowdp import builders, certify
from rainbowdp.design import (
    RowConstraint,
    answer_probability,
    loss_cap,
    lp,
    milp,
    min_delta,
    support,
    utility_matrix,
    zero_bias,
)
from rainbowdp.design import _lp as lp_module
from rainbowdp.exceptions import (
    InfeasibleDesignError,
    NotPrivateError,
    ParameterError,
    ParameterTypeError,
)
from rainbowdp.graph import RainbowGraph
from rainbowdp.privacy import pdp_delta

from ..strategies import deltas, epsilons, rainbow_graphs

SETTINGS = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


# ------------------------------------------------------------------ helpers
def assert_holds(c: RowConstraint, P: np.ndarray, tol: float = 1e-10) -> None:
    """Every constrained row within ``tol`` times its absolute coefficient sum (dense check)."""
    A = c.A.toarray()
    val = (A * P).sum(axis=1)
    t = tol * np.abs(A).sum(axis=1)
    assert np.all(val >= c.lower - t), (c.name, val, c.lower)
    assert np.all(val <= c.upper + t), (c.name, val, c.upper)


def assert_certified(M, eps: float, dlt: float) -> None:
    assert certify(M, epsilon=eps, delta=dlt).verdict == "private"


def pairs_of(G: RainbowGraph) -> list[tuple[int, int]]:
    e = [(int(a), int(b)) for a, b in G.edges]
    return e if G.directed else e + [(b, a) for a, b in e]


def reference(
    G: RainbowGraph,
    eps: float,
    *,
    delta: float | None = None,
    events: str = "all",
    U: np.ndarray | None = None,
    constraints: tuple = (),
    fixed: dict | None = None,
) -> float | None:
    """An independent dense scipy LP.

    ``delta`` given: max <U, P> under (ε, δ)-DP (hockey-stick slacks t when δ > 0). ``delta``
    None: min δ over all events (slacks t, budgets <= δ) or single outputs (rows
    P_a(v) - x P_b(v) <= δ). Side constraints from their dense A and bounds; variables
    P (N*q), then t, then δ. Returns the optimum, or None if infeasible.
    """
    n, q = G.n_nodes, G.n_outputs
    x = math.exp(eps)
    pairs = pairs_of(G)
    use_t = (delta is None and events == "all") or (delta is not None and delta > 0)
    nt = len(pairs) * q if use_t else 0
    nv = n * q + nt + (1 if delta is None else 0)
    di = nv - 1
    A_ub, b_ub, A_eq, b_eq = [], [], [], []
    for k, (a, b) in enumerate(pairs):
        for v in range(q):
            row = np.zeros(nv)
            row[a * q + v] += 1.0
            row[b * q + v] -= x
            if use_t:
                row[n * q + k * q + v] = -1.0
            elif delta is None:
                row[di] = -1.0
            A_ub.append(row)
            b_ub.append(0.0)
        if use_t:
            row = np.zeros(nv)
            row[n * q + k * q : n * q + (k + 1) * q] = 1.0
            if delta is None:
                row[di] = -1.0
            A_ub.append(row)
            b_ub.append(0.0 if delta is None else delta)
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
    for c in constraints:
        A = c.A.toarray()
        for i in range(n):
            row = np.zeros(nv)
            row[i * q : (i + 1) * q] = A[i]
            if c.lower[i] == c.upper[i]:
                A_eq.append(row)
                b_eq.append(c.lower[i])
                continue
            if np.isfinite(c.upper[i]):
                A_ub.append(row)
                b_ub.append(c.upper[i])
            if np.isfinite(c.lower[i]):
                A_ub.append(-row)
                b_ub.append(-c.lower[i])
    cost = np.zeros(nv)
    if delta is None:
        cost[di] = 1.0
    else:
        cost[: n * q] = -U.ravel()
    res = linprog(
        cost,
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
    return res.fun if delta is None else -res.fun


def count_graph(lo: int = 2, hi: int = 12, extra: int = 2) -> RainbowGraph:
    """Counts lo..hi on a path (neighbours differ by one), outputs 0..hi+extra, rainbows by
    distance to the count (as ``builders.count_path``)."""
    counts = np.arange(lo, hi + 1)
    v = np.arange(hi + extra + 1, dtype=float)
    order = np.argsort(np.abs(v[None, :] - counts[:, None]), axis=1, kind="stable")
    table, ids = np.unique(order, axis=0, return_inverse=True)
    m = counts.size
    return RainbowGraph.from_edges(
        np.column_stack([np.arange(m - 1), np.arange(1, m)]),
        outputs=list(range(hi + extra + 1)),
        rainbow_table=table,
        rainbow_ids=ids.ravel(),
        nodes=[int(c) for c in counts],
        answers=[int(c) for c in counts],
    )


def modular_tying(n: int) -> np.ndarray:
    q = np.arange(n + 1)
    return (q[None, :] - q[:, None]) % (n + 1)


# ------------------------------------------------------------------ validation
@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"A": [[1.0, np.nan]]}, ParameterError, r"`A` must be finite, got A\[0, 1\]=nan"),
        ({"A": [[1.0, np.inf]]}, ParameterError, r"`A`.*A\[0, 1\]=inf"),
        ({"A": sp.csr_array(np.array([[0.0, np.inf]]))}, ParameterError, r"`A`.*A\[0, 1\]"),
        ({"A": [1.0, 2.0]}, ParameterError, r"`A` must be two-dimensional"),
        ({"A": "ab"}, ParameterTypeError, r"`A`"),
        ({"A": [["a", 1]]}, ParameterTypeError, r"`A`"),
        ({"A": [[1.0, 0]], "lower": [np.nan]}, ParameterError, r"`lower`.*lower\[0\]=nan"),
        ({"A": [[1.0, 0]], "upper": np.nan}, ParameterError, r"`upper`"),
        ({"A": [[1.0, 0]], "lower": [0.0, 1.0]}, ParameterError, r"`lower`.*shape \(1,\)"),
        ({"A": [[1.0, 0]], "lower": 0.6, "upper": 0.5}, ParameterError, r"lower\[0\]=0.6"),
        ({"A": [[1.0, 0]], "lower": np.inf}, ParameterError, r"`lower` must be < inf"),
        ({"A": [[1.0, 0]], "upper": -np.inf}, ParameterError, r"`upper` must be > -inf"),
        ({"A": [[1.0, 0]], "lower": "x"}, ParameterTypeError, r"`lower`"),
        ({"A": [[1.0, 0]], "name": 3}, ParameterTypeError, r"`name`.*name=3"),
    ],
)
def test_row_constraint_validation(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        RowConstraint(**kwargs)


def test_row_constraint_storage_is_sparse():
    big = sp.identity(10_000, format="coo")  # a scipy.sparse matrix, 10^4 x 10^4
    c = RowConstraint(big, lower=0.1, upper=0.9, name="diagonal")
    assert isinstance(c.A, sp.csr_array) and c.A.nnz == 10_000
    assert c.lower.shape == (10_000,) and "diagonal" in repr(c)
    dense = RowConstraint(np.array([[0.0, 2.0]]))
    assert dense.A.nnz == 1 and dense.active.tolist() == [False]
    np.testing.assert_allclose(dense.values(np.array([[0.5, 0.5]])), [1.0])


def test_designer_constraint_argument_validation():
    G = builders.count_path(3)
    ok = answer_probability(G, 0.5)
    with pytest.raises(ParameterTypeError, match=r"`constraints` must be a sequence"):
        lp(G, epsilon=1.0, constraints=ok)
    with pytest.raises(ParameterTypeError, match=r"`constraints`"):
        lp(G, epsilon=1.0, constraints="abc")
    with pytest.raises(ParameterTypeError, match=r"`constraints\[1\]` must be a RowConstraint"):
        lp(G, epsilon=1.0, constraints=[ok, object()])
    wrong = RowConstraint(np.ones((3, 4)), upper=1.0, name="small")
    with pytest.raises(ParameterError, match=r"`constraints\[1\]` \('small'\).*\(4, 4\)"):
        lp(G, epsilon=1.0, constraints=[ok, wrong])
    with pytest.raises(ParameterError, match=r"`constraints\[0\]`"):
        milp(G, epsilon=1.0, delta=0.1, constraints=[wrong])
    with pytest.raises(ParameterError, match=r"`constraints\[0\]`"):
        min_delta(G, epsilon=1.0, constraints=[wrong])
    with pytest.raises(ParameterError, match=r"`events` must be one of"):
        min_delta(G, epsilon=1.0, events="pairs")
    with pytest.raises(ParameterError, match=r"`epsilon`"):
        min_delta(G, epsilon=-1.0)


def test_builder_validation():
    G = builders.count_path(3)
    line = builders.line(["yes", "no"], 2)
    with pytest.raises(ParameterError, match=r"`answer_probability` needs a graph with true"):
        answer_probability(line, 0.5)
    with pytest.raises(ParameterError, match=r"`zero_bias` needs a graph"):
        zero_bias(line)
    with pytest.raises(ParameterError, match=r"`support` needs"):
        support(line, 1, 1)
    with pytest.raises(ParameterError, match=r"`loss_cap` with loss='squared' needs"):
        loss_cap(line, 1.0)
    with pytest.raises(ParameterError, match=r"`eta`.*eta=1.5"):
        answer_probability(G, 1.5)
    short = builders.count_path(4, outputs=range(3))
    with pytest.raises(ParameterError, match=r"node 3 has answer 3"):
        answer_probability(short, 0.5)
    assert answer_probability(short, 0.5, nodes=[0, 2]).A.nnz == 2
    with pytest.raises(ParameterError, match=r"`nodes` names node 'x'"):
        zero_bias(G, nodes=["x"])
    with pytest.raises(ParameterTypeError, match=r"`nodes` must be an iterable"):
        zero_bias(G, nodes="01")
    with pytest.raises(ParameterError, match=r"`loss` must be 'absolute'"):
        loss_cap(G, 1.0, loss="cubic")
    with pytest.raises(ParameterError, match=r"`loss` must have shape \(4, 4\)"):
        loss_cap(G, 1.0, loss=np.ones((2, 2)))
    with pytest.raises(ParameterError, match=r"`loss` must be finite"):
        loss_cap(G, 1.0, loss=np.full((4, 4), np.inf))
    with pytest.raises(ParameterError, match=r"`cap`.*cap=nan"):
        loss_cap(G, np.nan)
    with pytest.raises(ParameterError, match=r"`below`"):
        support(G, -1, 1)
    with pytest.raises(ParameterError, match=r"`above` as an array"):
        support(G, 1, [1, 2])
    with pytest.raises(ParameterTypeError, match=r"`below`"):
        support(G, 1.5, 1)


def test_builders_encode_the_definitions():
    G = builders.count_path(4)
    a = np.arange(5.0)
    v = np.arange(5.0)
    np.testing.assert_array_equal(answer_probability(G, 0.3).A.toarray(), np.eye(5))
    np.testing.assert_array_equal(zero_bias(G).A.toarray(), v[None, :] - a[:, None])
    np.testing.assert_array_equal(
        loss_cap(G, 2.0, loss="absolute").A.toarray(), np.abs(v[None, :] - a[:, None])
    )
    lc = loss_cap(G, [1, 2, 3, 4, 5], loss=lambda o, t: (o - t) ** 4, nodes=[1])
    assert lc.upper.tolist() == [np.inf, 2.0, np.inf, np.inf, np.inf]
    np.testing.assert_array_equal(lc.A.toarray()[1], (v - 1) ** 4)
    s = support(G, np.array([0, 1, 2, 0, np.inf]), None)
    expect = v[None, :] < (a - [0, 1, 2, 0, np.inf])[:, None]
    np.testing.assert_array_equal(s.A.toarray(), expect.astype(float))
    assert np.all(s.upper == 0)


# ------------------------------------------------------------------ infeasibility
def test_fixed_row_violating_a_constraint_is_infeasible():
    G = builders.count_path(3)
    c = answer_probability(G, 0.5)
    with pytest.raises(InfeasibleDesignError, match=r"node 1 violates `constraints\[0\]`"):
        lp(G, epsilon=1.0, fixed={1: [0.25, 0.25, 0.25, 0.25]}, constraints=[c])
    with pytest.raises(InfeasibleDesignError, match=r"answer_probability"):
        min_delta(G, epsilon=1.0, fixed={1: [0.25, 0.25, 0.25, 0.25]}, constraints=[c])
    # within 1e-12 of the row's absolute sum is accepted as data
    near = {1: [0.2, 0.5 + 1e-13, 0.2 - 1e-13, 0.1]}
    res = lp(G, epsilon=1.0, delta=0.1, fixed=near, constraints=[c])
    assert res.status == "optimal"


def test_contradictions_are_infeasible():
    G = builders.count_path(3)
    with pytest.raises(InfeasibleDesignError, match=r"forbid every output at node 1"):
        none_at_1 = np.outer(np.arange(4) == 1, np.ones(4)).astype(float)
        lp(G, epsilon=1.0, constraints=[RowConstraint(none_at_1, upper=0.0, name="none at 1")])
    with pytest.raises(InfeasibleDesignError, match=r"`bounds` ask for at least 0.1"):
        lp(G, epsilon=1.0, bounds={0: (0.1, None)}, constraints=[support(G, 0, 0)])
    zero_row = RowConstraint(np.zeros((4, 4)), lower=[0.1, -np.inf, -np.inf, -np.inf])
    with pytest.raises(InfeasibleDesignError, match=r"`constraints\[0\]`.*node 0.*row of A is 0"):
        lp(G, epsilon=1.0, constraints=[zero_row])
    # P_0(0) = 1 and P_1(0) = 0 cannot be (1, 0)-DP; with delta they can
    pin = [answer_probability(G, 1.0, nodes=[0]), support(G, 0, 0, nodes=[1])]
    with pytest.raises(InfeasibleDesignError):
        lp(G, epsilon=1.0, constraints=pin)
    res = lp(G, epsilon=1.0, delta=1.0, constraints=pin)
    assert res.mechanism.probabilities[0, 0] == 1.0 and res.mechanism.probabilities[1, 0] == 0


# ------------------------------------------------------------------ helpers on the designers
@pytest.mark.parametrize(("eps", "dlt"), [(0.0, 0.3), (0.5, 0.15), (1.0, 0.05), (2.0, 0.01)])
def test_every_helper_holds_on_lp_and_certifies(eps, dlt):
    G = builders.count_path(5, outputs=range(7))
    cons = [
        answer_probability(G, 0.4, nodes=[1, 2, 3]),
        zero_bias(G, nodes=[2, 3, 4]),
        loss_cap(G, 4.0, loss="squared"),
        support(G, 3, 3),
    ]
    res = lp(G, epsilon=eps, delta=dlt, utility="absolute", constraints=cons)
    P = res.mechanism.probabilities
    for c in cons:
        assert_holds(c, P)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=0, atol=1e-15)
    assert_certified(res.mechanism, eps, dlt)
    assert res.repair_weight == 0.0 and res.achieved_delta <= dlt
    ref = reference(G, eps, delta=dlt, U=utility_matrix(G, "absolute"), constraints=tuple(cons))
    assert res.objective == pytest.approx(ref, abs=1e-7)


def test_helpers_hold_on_lp_at_delta_zero():
    G = builders.count_path(5, outputs=range(7))
    cons = [answer_probability(G, 0.3), loss_cap(G, 3.0)]
    res = lp(G, epsilon=1.5, utility="squared", constraints=cons)
    for c in cons:
        assert_holds(c, res.mechanism.probabilities)
    assert_certified(res.mechanism, 1.5, 0.0)
    ref = reference(G, 1.5, delta=0.0, U=utility_matrix(G, "squared"), constraints=tuple(cons))
    assert res.objective == pytest.approx(ref, abs=1e-7)


@pytest.mark.parametrize(("eps", "dlt"), [(1.0, 0.2), (0.5, 0.3), (2.5, 0.0), (0.0, 0.6)])
def test_helpers_hold_on_milp_and_it_is_pdp(eps, dlt):
    G = builders.count_path(3, outputs=range(5))
    cons = [answer_probability(G, 0.4), loss_cap(G, [1, 1, 1, 0.8])]
    res = milp(G, epsilon=eps, delta=dlt, utility="squared", constraints=cons)
    for c in cons:
        assert_holds(c, res.mechanism.probabilities)
    assert pdp_delta(res.mechanism, eps) <= dlt
    assert_certified(res.mechanism, eps, dlt)
    assert res.method == "milp" and res.repair_weight == 0.0
    dp = lp(G, epsilon=eps, delta=dlt, utility="squared", constraints=cons)
    assert res.objective <= dp.objective + 1e-6  # PDP implies DP


def test_milp_with_constraints_and_tying():
    n = 5
    G = builders.circulant(n, [1])
    cons = [answer_probability(G, 0.5)]
    red = milp(G, epsilon=1.0, delta=0.2, constraints=cons, tied=modular_tying(n))
    full = milp(G, epsilon=1.0, delta=0.2, constraints=cons)
    assert red.objective <= full.objective + 1e-7
    for res in (red, full):
        assert_holds(cons[0], res.mechanism.probabilities)
        assert pdp_delta(res.mechanism, 1.0) <= 0.2


# ------------------------------------------------------------------ the constraint-aware repair
def test_unproved_points_are_resolved_at_larger_margins(monkeypatch):
    G = builders.count_path(3)
    cons = [answer_probability(G, 0.5)]
    real = lp_module.proves_dp
    calls = {"n": 0}

    def fussy(g, P, eps, dlt):  # reject every candidate of the first margin
        calls["n"] += 1
        return calls["n"] > 3 and real(g, P, eps, dlt)

    monkeypatch.setattr(lp_module, "proves_dp", fussy)
    res = lp(G, epsilon=1.0, delta=0.01, constraints=cons)
    assert res.solved_epsilon == pytest.approx(1.0 - 1e-9, abs=1e-15)
    assert res.solved_delta == pytest.approx(0.01 - 1e-9, abs=1e-15)
    assert res.repair_weight == 0.0
    assert_holds(cons[0], res.mechanism.probabilities)
    assert_certified(res.mechanism, 1.0, 0.01)

    monkeypatch.setattr(lp_module, "proves_dp", lambda *a: False)
    with pytest.raises(NotPrivateError, match=r"not proved \(1, 0.01\)-DP.*not mixed"):
        lp(G, epsilon=1.0, delta=0.01, constraints=cons)


# ------------------------------------------------------------------ random instances vs scipy
@st.composite
def constrained_instances(draw):
    G = draw(rainbow_graphs(max_nodes=4, max_outputs=4))
    n, q = G.n_nodes, G.n_outputs
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    # a common support S: the uniform distribution on S at every node is (0, 0)-DP and meets
    # every constraint below, so each instance is feasible
    S = rng.random(q) < 0.7
    S[rng.integers(q)] = True
    P0 = np.tile(S / S.sum(), (n, 1))
    cons = []
    for k in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["eq", "range", "le", "ge", "support"]))
        rows = rng.random(n) < 0.7
        if kind == "support":
            A = (~S)[None, :] * rng.integers(1, 3, (n, q)) * rows[:, None]
            cons.append(RowConstraint(A, upper=0.0, name=f"support{k}"))
            continue
        A = rng.integers(-3, 4, (n, q)).astype(float)
        ref = (A * P0).sum(axis=1)
        lo = {"eq": ref, "range": ref - 0.2, "le": -np.inf, "ge": ref - 0.1}[kind]
        hi = {"eq": ref, "range": ref + 0.1, "le": ref + 0.05, "ge": np.inf}[kind]
        lo = np.where(rows, lo, -np.inf)
        hi = np.where(rows, hi, np.inf)
        cons.append(RowConstraint(A, lower=lo, upper=hi, name=f"{kind}{k}"))
    fixed = {G.nodes[0]: P0[0]} if draw(st.booleans()) else None
    U = rng.integers(-5, 6, (n, q)) / 5
    return G, cons, fixed, U


@SETTINGS
@given(inst=constrained_instances(), eps=epsilons, dlt=deltas)
def test_lp_with_constraints_matches_scipy(inst, eps, dlt):
    G, cons, fixed, U = inst
    ref = reference(G, eps, delta=dlt, U=U, constraints=tuple(cons), fixed=fixed)
    assert ref is not None
    res = lp(G, epsilon=eps, delta=dlt, utility=U, constraints=cons, fixed=fixed)
    assert res.objective == pytest.approx(ref, abs=1e-6)
    for c in cons:
        assert_holds(c, res.mechanism.probabilities)
    assert_certified(res.mechanism, eps, dlt)


@SETTINGS
@given(inst=constrained_instances(), eps=epsilons, events=st.sampled_from(["all", "singleton"]))
def test_min_delta_matches_scipy(inst, eps, events):
    G, cons, fixed, _ = inst
    ref = reference(G, eps, events=events, constraints=tuple(cons), fixed=fixed)
    res = min_delta(G, epsilon=eps, events=events, constraints=cons, fixed=fixed)
    assert res.objective == pytest.approx(ref, abs=1e-7)
    assert res.method == "min_delta" and res.formulation == events
    P = res.mechanism.probabilities
    for c in cons:
        assert_holds(c, P)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=0, atol=1e-15)
    if events == "all":
        assert res.achieved_delta >= res.objective - 1e-7
        assert res.achieved_delta <= res.objective + 1e-7
    assert_certified(res.mechanism, eps, res.achieved_delta)


def test_min_delta_without_constraints_and_with_fixed_ends():
    G = builders.line(["yes", "no"], 3)
    ends = {0: [0.1, 0.9], 3: [0.9, 0.1]}
    for events in ("all", "singleton"):
        ref = reference(G, 0.4, events=events, fixed=ends)
        res = min_delta(G, epsilon=0.4, events=events, fixed=ends)
        assert res.objective == pytest.approx(ref, abs=1e-8)
        assert_certified(res.mechanism, 0.4, res.achieved_delta)
    # two fixed neighbours set a floor on delta
    G2 = builders.line(["yes", "no"], 1)
    res = min_delta(G2, epsilon=0.0, fixed={0: [0.2, 0.8], 1: [0.5, 0.5]})
    assert res.objective == pytest.approx(0.3, abs=1e-12)
    res = min_delta(G2, epsilon=0.0, fixed={0: [0.2, 0.8], 1: [0.5, 0.5]}, events="singleton")
    assert res.objective == pytest.approx(0.3, abs=1e-12)
    # no constraints at all: the constant mechanism, delta = 0
    assert min_delta(builders.count_path(3), epsilon=0.5).objective == pytest.approx(0, abs=1e-9)


# ------------------------------------------------------------------ symmetry
@pytest.mark.parametrize(
    ("n", "shifts", "eps", "dlt", "window"),
    [(5, [1], 0.7, 0.15, True), (6, [1, 2], 0.4, 0.6, True), (5, [1], 2.0, 0.0, False)],
)
def test_tied_with_constraints_equals_untied(n, shifts, eps, dlt, window):
    G = builders.circulant(n, shifts)
    eta = modular_tying(n)
    dist = np.minimum(eta, n + 1 - eta).astype(float)  # circular distance of output and answer
    cons = [answer_probability(G, 0.4), loss_cap(G, 1.2, loss=dist**2)]
    if window:  # a support (nonnegative A, upper 0): constants instead of variables
        cons.append(RowConstraint((dist > 2).astype(float), upper=0.0, name="circular support"))
    U = -dist
    T = modular_tying(n)
    full = lp(G, epsilon=eps, delta=dlt, utility=U, constraints=cons)
    red = lp(G, epsilon=eps, delta=dlt, utility=U, constraints=cons, tied=T)
    assert red.objective == pytest.approx(full.objective, abs=1e-7)
    assert red.n_variables < full.n_variables and red.n_constraints < full.n_constraints
    for res in (full, red):
        for c in cons:
            assert_holds(c, res.mechanism.probabilities)
        assert_certified(res.mechanism, eps, dlt)
    for events in ("all", "singleton"):
        a = min_delta(G, epsilon=eps, events=events, constraints=cons)
        b = min_delta(G, epsilon=eps, events=events, constraints=cons, tied=T)
        assert b.objective == pytest.approx(a.objective, abs=1e-8)
        assert_certified(b.mechanism, eps, b.achieved_delta)


# ------------------------------------------------------------------ the count-query instance
def count_query_reference(D: int, eta: float, eps: float) -> float:
    """Sadeghi et al.'s singleton min-δ LP for counts 2..12, outputs 0..14, written out from
    the definitions: P(v | n) = 0 outside [n - min(n, D), n + D], P(n | n) = eta, zero bias."""
    counts = list(range(2, 13))
    outs = list(range(15))
    m, q = len(counts), len(outs)
    nv = m * q + 1
    x = math.exp(eps)
    A_ub, b_ub, A_eq, b_eq = [], [], [], []
    bounds = [(0, None)] * nv
    for i, n in enumerate(counts):
        for v in outs:
            if not n - min(n, D) <= v <= n + D:
                bounds[i * q + v] = (0, 0)
        row = np.zeros(nv)
        row[i * q : (i + 1) * q] = 1
        A_eq.append(row)
        b_eq.append(1)
        row = np.zeros(nv)
        row[i * q + n] = 1
        A_eq.append(row)
        b_eq.append(eta)
        row = np.zeros(nv)
        row[i * q : (i + 1) * q] = np.array(outs) - n
        A_eq.append(row)
        b_eq.append(0)
    for i in range(m - 1):
        for a, b in ((i, i + 1), (i + 1, i)):
            for v in range(q):
                row = np.zeros(nv)
                row[a * q + v], row[b * q + v], row[-1] = 1, -x, -1
                A_ub.append(row)
                b_ub.append(0)
    cost = np.zeros(nv)
    cost[-1] = 1
    res = linprog(cost, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds, method="highs")
    assert res.status == 0, res.message
    return res.fun


@pytest.mark.parametrize("D", [2, 3])
def test_count_query_min_delta_singleton(D):
    G = count_graph()
    counts = np.array(G.answers)
    cons = [
        support(G, np.minimum(counts, D), D),
        answer_probability(G, 0.5),
        zero_bias(G),
    ]
    res = min_delta(G, epsilon=1.0, events="singleton", constraints=cons)
    ref = count_query_reference(D, 0.5, 1.0)
    assert res.objective == pytest.approx(ref, abs=1e-9)
    P = res.mechanism.probabilities
    for c in cons:
        assert_holds(c, P)
    assert np.all(P[np.abs(np.arange(15)[None, :] - counts[:, None]) > D] == 0.0)
    assert_certified(res.mechanism, 1.0, res.achieved_delta)
    full = min_delta(G, epsilon=1.0, events="all", constraints=cons)
    assert full.objective >= res.objective - 1e-9  # more events, larger delta
    assert res.achieved_delta >= res.objective - 1e-9
    # the forbidden outputs are constants, not variables
    assert res.n_variables < G.n_nodes * G.n_outputs // 2
    # at the delta found for all events, the utility LP with the same constraints is feasible
    best = lp(
        G,
        epsilon=1.0,
        delta=min(1.0, full.achieved_delta * (1 + 1e-6)),
        constraints=cons,
        utility="squared",
    )
    for c in cons:
        assert_holds(c, best.mechanism.probabilities)
    assert_certified(best.mechanism, 1.0, min(1.0, full.achieved_delta * (1 + 1e-6)))


def test_public_names():
    for name in (
        "RowConstraint",
        "answer_probability",
        "zero_bias",
        "loss_cap",
        "support",
        "min_delta",
    ):
        assert hasattr(rdp.design, name) and name in rdp.design.__all__
