"""ε(δ) of many edges from a sample and one filtering pass: the values of the direct solve."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rainbowdp as rdp
import rainbowdp._verify.epsilon as engine
import rainbowdp.privacy as privacy
from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism
from tests.test_profile_one_pass import random_edges, rows


def arcs_of(edges: np.ndarray, one_way: bool) -> np.ndarray:
    """The ordered edges: the arcs as given, or both orders of every edge."""
    return edges if one_way else np.concatenate([edges, edges[:, ::-1]])


def direct(p: np.ndarray, edges: np.ndarray, one_way: bool, dlt: float) -> float:
    """The reference: every edge estimated, the near-maximal ones solved exactly, all proved."""
    return engine.epsilon_core(p, edges, one_way, dlt, engine.log_estimates(p, edges, one_way, dlt))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 300),
    m=st.integers(1, 3000),
    q=st.sampled_from([1, 2, 3, 8, 33]),
    kind=st.sampled_from(["uniform", "dirichlet", "holes", "ties", "subnormal"]),
    dlt=st.sampled_from([0.0, 1e-12, 1e-6, 1e-3, 0.05, 0.3, 1.0]),
    one_way=st.booleans(),
    sample=st.sampled_from([1, 16, 256]),
)
def test_filtered_equals_direct(seed, n, m, q, kind, dlt, one_way, sample):
    rng = np.random.default_rng(seed)
    p = rows(rng, n, q, kind)
    edges = random_edges(rng, n, m)
    if edges.shape[0] == 0:
        return
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(engine, "FILTER_SAMPLE", sample)
        got = engine.epsilon_filtered(p, arcs_of(edges, one_way), dlt)
    finally:
        mp.undo()
    want = direct(p, edges, one_way, dlt)
    assert got == want or (math.isinf(got) and math.isinf(want))


def test_epsilon_for_delta_takes_the_filter_with_the_same_values(monkeypatch):
    rng = np.random.default_rng(11)
    n, q = 3000, 6
    edges = np.unique(np.sort(random_edges(rng, n, 12000), axis=1), axis=0)
    G = RainbowGraph.from_edges(
        edges, outputs=range(q), rainbow_table=[list(range(q))], rainbow_ids=np.zeros(n, int)
    )
    M = Mechanism(G, rows(rng, n, q, "uniform"))
    assert G.n_edges > engine.FILTER_MIN_EDGES
    calls, sizes = [], []
    real_filter, real_direct = engine.epsilon_filtered, engine.epsilon_direct
    monkeypatch.setattr(engine, "epsilon_filtered", lambda *a: calls.append(1) or real_filter(*a))
    monkeypatch.setattr(
        engine, "epsilon_direct", lambda p, e, *a: sizes.append(len(e)) or real_direct(p, e, *a)
    )
    for dlt in (1e-6, 0.01, 0.2):  # (δ = 0: the largest ratio, one pass; tested below)
        calls.clear()
        sizes.clear()
        got = privacy.epsilon_for_delta(M, dlt)
        assert calls, "the filtered path was not taken"
        # two direct solves, never a recursion: the sample, then the sample and the few
        # ordered edges the filter could not settle (not all 2E orders)
        assert len(sizes) == 2 and sizes[1] < G.n_edges / 2
        assert got == direct(M.probabilities, G.edges, False, dlt)
        assert privacy.verify(M, epsilon=got, delta=dlt).is_private


def test_delta_zero_is_the_largest_ratio_with_the_direct_value():
    """At δ = 0 the graph path reads the largest likelihood ratio in one pass (no sample, no
    filter): the value of the direct solve, which solves every order exactly here."""
    rng = np.random.default_rng(12)
    for kind in ("uniform", "dirichlet", "holes", "ties", "subnormal"):
        n, q = 400, 5
        edges = np.unique(np.sort(random_edges(rng, n, 1500), axis=1), axis=0)
        p = rows(rng, n, q, kind)
        G = RainbowGraph.from_edges(
            edges, outputs=range(q), rainbow_table=[list(range(q))], rainbow_ids=np.zeros(n, int)
        )
        got = privacy.epsilon_for_delta(Mechanism(G, p), 0.0)
        want = direct(p, edges, False, 0.0)
        assert got == want or (math.isinf(got) and math.isinf(want)), kind


def test_filtered_where_the_direct_solve_truncates_its_exact_set():
    """Rows with tiny entries at δ = 0: most float estimates are ambiguous, so the direct solve
    keeps only part of them for exact work and may return a raised float estimate, proved but
    not the rounded exact maximum. The filtered path solves the maximiser exactly: both are
    proved, they agree to a few ulps, and the filtered one is the sample-independent
    ``log_up`` of the exact maximum."""
    rng = np.random.default_rng(11)
    n, q = 3000, 6
    edges = np.unique(np.sort(random_edges(rng, n, 12000), axis=1), axis=0)
    p = rows(rng, n, q, "dirichlet")
    got = engine.epsilon_filtered(p, arcs_of(edges, False), 0.0)
    want = direct(p, edges, False, 0.0)
    assert abs(got - want) <= 4 * math.ulp(want)
    cand, _ = engine.log_estimates(p, edges, False, 0.0)
    d, e = np.unravel_index(np.argmax(cand), cand.shape)
    a, b = edges[e] if d == 0 else edges[e][::-1]
    assert got == engine.exact_candidates(p, np.array([a]), np.array([b]), 0.0)
    G = RainbowGraph.from_edges(
        edges, outputs=range(q), rainbow_table=[list(range(q))], rainbow_ids=np.zeros(n, int)
    )
    M = Mechanism(G, p)
    assert privacy.verify(M, epsilon=got, delta=0.0).is_private
    assert privacy.verify(M, epsilon=want, delta=0.0).is_private


@settings(max_examples=30, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    kind=st.sampled_from(["uniform", "dirichlet", "holes", "ties", "subnormal"]),
    dlt=st.sampled_from([1e-12, 1e-6, 1e-3, 0.05, 0.3]),
    one_way=st.booleans(),
)
def test_graphs_of_few_distinct_edges_take_the_pair_path(seed, kind, dlt, one_way):
    """Up to ``PAIR_ARCS`` distinct ordered edges, each is answered as a pair (the pair path's
    exact value): the graph's ε is their maximum, at most the direct solve's (which may only
    raise it) and proved (certify)."""
    rng = np.random.default_rng(seed)
    n, q = 60, 4
    edges = np.unique(np.sort(random_edges(rng, n, 200), axis=1), axis=0)
    p = rows(rng, n, q, kind)
    G = RainbowGraph.from_edges(
        edges,
        outputs=range(q),
        rainbow_table=[list(range(q))],
        rainbow_ids=np.zeros(n, int),
        directed=one_way,
    )
    M = Mechanism(G, p)
    got = privacy.epsilon_for_delta(M, dlt)
    want = direct(p, edges, one_way, dlt)
    assert got <= want or (math.isinf(got) and math.isinf(want))
    if math.isfinite(got):
        assert rdp.certify(M, epsilon=got, delta=dlt).verdict == "private"
        assert got >= want * (1 - 1e-9) - 1e-12  # and tight: the direct value is near exact
