"""Symmetry-reduced designs: ``design.lp/milp(..., tied=T)``.

On a circulant graph (Kadam et al.'s modulo-addition instance) the tying map
``T[q, v] = (v - q) mod (n + 1)`` makes every row one noise PMF shifted by q. The LP is convex,
so averaging an optimum over the rotations keeps it optimal: the reduced LP optimum equals the
unreduced one. The MILP is not convex: its tied optimum (the best *additive-noise* mechanism)
can be strictly below the unreduced optimum, so for it we check that merging the constraint
blocks of an orbit is exact (same optimum as the tied model with every pair's block), that the
tied optimum never exceeds the unreduced one, and that they agree on instances where the
best mechanism is additive noise.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import rainbowdp as rdp
from rainbowdp import builders
from rainbowdp.design import _tying
from rainbowdp.exceptions import InfeasibleDesignError, ParameterError, ParameterTypeError
from rainbowdp.privacy import pdp_delta, verify


def modular_tying(n: int) -> np.ndarray:
    q = np.arange(n + 1)
    return (q[None, :] - q[:, None]) % (n + 1)


def instance(seed: int, *, max_n: int = 8, deltas=(0.0, 0.02, 0.1, 0.3)):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, max_n + 1))
    k = int(rng.integers(1, min(3, n) + 1))
    shifts = sorted({int(s) for s in rng.integers(1, n + 1, size=k)})
    directed = bool(seed % 2)
    eps = float(rng.uniform(0.1, 2.5))
    dlt = float(rng.choice(deltas))
    utility = ["accuracy", "absolute", "squared", "rank"][seed % 4]
    return n, shifts, directed, eps, dlt, utility


def circulant_utility(n: int, kind: str) -> np.ndarray:
    """A rotation-invariant utility on the circulant (a function of (v - q) mod (n + 1))."""
    eta = np.arange(n + 1)
    dist = np.minimum(eta, n + 1 - eta).astype(float)
    row = {
        "accuracy": (eta == 0).astype(float),
        "absolute": -dist,
        "squared": -(dist**2),
        "rank": -eta.astype(float),
    }[kind]
    return row[modular_tying(n)]


@pytest.mark.parametrize("seed", range(60))
def test_reduced_lp_equals_unreduced(seed):
    n, shifts, directed, eps, dlt, kind = instance(seed)
    G = builders.circulant(n, shifts, directed=directed)
    U = circulant_utility(n, kind)
    full = rdp.design.lp(G, epsilon=eps, delta=dlt, utility=U)
    red = rdp.design.lp(G, epsilon=eps, delta=dlt, utility=U, tied=modular_tying(n))
    assert red.objective == pytest.approx(full.objective, abs=1e-7, rel=1e-7)
    # one PMF of n + 1 values instead of (n + 1)^2 probabilities
    assert red.n_variables < full.n_variables
    assert verify(red.mechanism, epsilon=eps, delta=dlt, tol=0).is_private
    assert rdp.certify(red.mechanism, epsilon=eps, delta=dlt).verdict == "private"
    # every row of the reduced optimum is the same PMF, rotated
    P = red.mechanism.probabilities
    f = P[0]
    rot = f[modular_tying(n)]
    assert np.max(np.abs(P - rot)) < 1e-6


@pytest.mark.parametrize("seed", range(50))
@pytest.mark.parametrize("formulation", ["definition", "kadam13"])
def test_milp_orbit_merging_is_exact(seed, formulation, monkeypatch):
    n, shifts, directed, eps, dlt, kind = instance(seed, max_n=6, deltas=(0.02, 0.1, 0.3))
    G = builders.circulant(n, shifts, directed=directed)
    U = circulant_utility(n, kind)
    T = modular_tying(n)
    merged = rdp.design.milp(G, epsilon=eps, delta=dlt, utility=U, tied=T, formulation=formulation)
    monkeypatch.setattr(_tying, "MERGE_ORBITS", False)
    every = rdp.design.milp(G, epsilon=eps, delta=dlt, utility=U, tied=T, formulation=formulation)
    assert merged.objective == pytest.approx(every.objective, abs=1e-6)
    assert merged.n_constraints < every.n_constraints
    assert pdp_delta(merged.mechanism, eps) <= dlt


# (n, shifts, directed, eps, delta): small enough for the unreduced MILP to be quick.
_MILP_CASES = [
    (4, [1], False, 1.0, 0.1),
    (4, [1, 2], False, 0.7, 0.05),
    (5, [2], True, 1.2, 0.1),
    (3, [1], True, 0.5, 0.2),
    (5, [1], False, 1.407, 0.05),
    (4, [3, 4], True, 1.513, 0.05),
    (6, [4], True, 1.995, 0.05),
]


@pytest.mark.parametrize(("n", "shifts", "directed", "eps", "dlt"), _MILP_CASES)
def test_reduced_milp_never_beats_unreduced(n, shifts, directed, eps, dlt):
    G = builders.circulant(n, shifts, directed=directed)
    full = rdp.design.milp(G, epsilon=eps, delta=dlt)
    red = rdp.design.milp(G, epsilon=eps, delta=dlt, tied=modular_tying(n))
    assert red.objective <= full.objective + 1e-6
    assert pdp_delta(red.mechanism, eps) <= dlt


def test_best_pdp_mechanism_on_a_circulant_need_not_be_additive():
    # Found by the randomised comparison above: on the directed circulant n = 6, M = {2, 6},
    # the unreduced MILP beats every additive-noise mechanism by more than 0.1 in accuracy.
    n, eps, dlt = 6, 0.205, 0.05
    G = builders.circulant(n, [2, 6], directed=True)
    full = rdp.design.milp(G, epsilon=eps, delta=dlt)
    red = rdp.design.milp(G, epsilon=eps, delta=dlt, tied=modular_tying(n))
    assert full.objective > red.objective + 0.1
    assert pdp_delta(full.mechanism, eps) <= dlt


def test_kadam13_tied_has_one_indicator_per_noise_value():
    # MILP (13) of Kadam et al. on the circulant: one binary per eta, shared by every shift.
    n = 6
    G = builders.circulant(n, [1, 2, 3])
    res = rdp.design.milp(G, epsilon=1.0, delta=0.1, formulation="kadam13", tied=modular_tying(n))
    assert res.n_integer_variables == n + 1
    # (n + 1) PMF values, n + 1 indicators, n + 1 y's
    assert res.n_variables == 3 * (n + 1)


def test_tied_lp_with_fixed_rows_and_bounds():
    # a path whose interior rows are tied to one distribution: the optimum among such designs
    G = builders.line(["a", "b"], 3)
    T = np.array([[0, 1], [2, 3], [2, 3], [4, 5]])
    res = rdp.design.lp(G, epsilon=math.log(2), fixed={0: [0.1, 0.9]}, tied=T)
    P = res.mechanism.probabilities
    assert P[1] == pytest.approx(P[2])
    assert res.mechanism.row(0).tolist() == [0.1, 0.9]
    assert verify(res.mechanism, epsilon=math.log(2), tol=0).is_private
    # rows 1 and 2 tied and 1 <= 2 P(a) limited by the fixed row: P_1(a) <= 0.2
    assert P[1, 0] == pytest.approx(0.2, abs=1e-9)


def test_tied_bounds_that_do_not_overlap_are_infeasible():
    G = builders.line(["a", "b"], 2)
    T = np.array([[0, 1], [0, 1], [2, 3]])
    with pytest.raises(InfeasibleDesignError, match="`tied`"):
        rdp.design.lp(G, epsilon=1.0, bounds={0: ([0.6, 0.0], None), 1: (None, [0.4, 1.0])}, tied=T)


@pytest.mark.parametrize(
    ("tied", "exc", "match"),
    [
        ("abc", ParameterTypeError, "`tied`"),
        (np.zeros((2, 2), dtype=int), ParameterError, r"shape \(3, 2\)"),
        (np.full((3, 2), 0.5), ParameterTypeError, "integers"),
        ([[True, False]] * 3, ParameterTypeError, "tied"),
    ],
)
def test_tied_validation(tied, exc, match):
    G = builders.line(["a", "b"], 2)
    with pytest.raises(exc, match=match):
        rdp.design.lp(G, epsilon=1.0, tied=tied)
    with pytest.raises(exc, match=match):
        rdp.design.milp(G, epsilon=1.0, delta=0.1, tied=tied)


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("method", ["lp", "definition", "kadam13"])
def test_orbit_merging_is_exact_on_random_tyings(seed, method, monkeypatch):
    # Every row a permutation of one distribution, on a random (possibly directed) graph: no
    # symmetry, so nodes and pairs with equal signatures are merged only where the constraint
    # systems coincide; the optimum must not change.
    import networkx as nx

    rng = np.random.default_rng(1000 + seed)
    n, q = int(rng.integers(3, 7)), 3
    directed = bool(seed % 2)
    g = nx.gnp_random_graph(n, 0.5, seed=seed, directed=directed)
    if g.number_of_edges() == 0:
        g.add_edge(0, 1)
    for d in g:
        g.nodes[d]["rainbow"] = [int(x) for x in rng.permutation(q)]
    G = rdp.RainbowGraph(g, list(range(q)))
    T = np.array([rng.permutation(q) for _ in range(n)])
    eps, dlt = float(rng.uniform(0.2, 1.5)), float(rng.choice([0.0, 0.05, 0.2]))

    def run():
        if method == "lp":
            return rdp.design.lp(G, epsilon=eps, delta=dlt, utility="rank", tied=T)
        return rdp.design.milp(
            G, epsilon=eps, delta=max(dlt, 0.01), utility="rank", tied=T, formulation=method
        )

    merged = run()
    monkeypatch.setattr(_tying, "MERGE_ORBITS", False)
    every = run()
    assert merged.objective == pytest.approx(every.objective, abs=1e-6)
    assert merged.n_constraints <= every.n_constraints
    P = merged.mechanism.probabilities
    f = np.empty(q)
    f[T[0]] = P[0]
    assert np.max(np.abs(P - f[T])) < 1e-6  # still tied after the repair
