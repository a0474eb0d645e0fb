"""Exact verifier: brute force over all events, profile / epsilon(delta) consistency, PDP."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rainbowdp._verify.kernels as _kernels
from rainbowdp import builders, exp_bounds
from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism
from rainbowdp.privacy import (
    are_close,
    dp_delta,
    epsilon_for_delta,
    hockey_stick,
    pdp_delta,
    privacy_profile,
    verify,
)

from .soundness_oracle import delta_star_bounds, scaled_rows
from .strategies import deltas, epsilons, mechanisms


def brute_force_delta(M: Mechanism, epsilon: float) -> float:
    """max over edges, directions and all 2^q events S of P(S) - e^eps Q(S)."""
    p = M.probabilities
    q = p.shape[1]
    x = math.exp(epsilon)
    best = 0.0
    events = [list(s) for r in range(q + 1) for s in itertools.combinations(range(q), r)]
    for u, v in M.graph.edges.tolist():
        for a, b in ((p[u], p[v]), (p[v], p[u])):
            for s in events:
                best = max(best, float(a[s].sum() - x * b[s].sum()))
    return best


@settings(max_examples=150, deadline=None)
@given(mechanisms(max_nodes=6, max_outputs=4), epsilons, deltas)
def test_verify_equals_brute_force_over_events(M, eps, delta):
    rep = verify(M, epsilon=eps, delta=delta)
    brute = brute_force_delta(M, eps)
    assert rep.delta_required == pytest.approx(brute, abs=1e-12)
    assert rep.is_private == (brute <= delta + rep.tolerance)
    if M.graph.n_edges:
        # the witness event attains delta_required on worst_edge
        u, v = (M.graph.index_of(n) for n in rep.worst_edge)
        s = [M.graph.output_index[o] for o in rep.witness]
        p = M.probabilities
        attained = p[u, s].sum() - math.exp(eps) * p[v, s].sum()
        assert attained == pytest.approx(rep.delta_required, abs=1e-12)
        assert np.allclose(rep.edge_deltas.max(), rep.delta_required)


@settings(max_examples=150, deadline=None)
@given(
    mechanisms(max_nodes=6, max_outputs=4),
    st.one_of(epsilons, st.floats(0.0, 800.0, allow_nan=False, allow_infinity=False)),
)
def test_dp_delta_is_the_one_point_profile_rounded_up(M, eps):
    d = dp_delta(M, eps)
    assert isinstance(d, float)
    assert d == privacy_profile(M, [eps])[0] == verify(M, epsilon=eps).delta_required
    # the exact oracle: lower <= delta* <= upper; the value is at least delta* (sound) and is
    # the smallest float at least the exact value (tight)
    lo, hi = delta_star_bounds(scaled_rows(M.probabilities.tolist()), M.graph.edges.tolist(), eps)
    assert Fraction(d) >= lo
    assert d == 0.0 or Fraction(np.nextafter(d, -np.inf)) < hi


@settings(max_examples=100, deadline=None)
@given(mechanisms(max_nodes=6, max_outputs=4), deltas)
def test_epsilon_for_delta_is_the_smallest_epsilon(M, delta):
    eps = epsilon_for_delta(M, delta)
    if math.isinf(eps):
        # some output has positive mass at one node and none at a neighbour, beyond delta
        assert privacy_profile(M, [50.0])[0] > delta
        return
    assert privacy_profile(M, [eps])[0] <= delta + 1e-9
    assert verify(M, epsilon=eps, delta=delta, tol=1e-9).is_private
    if eps > 1e-6:
        assert privacy_profile(M, [eps - 1e-6])[0] > delta


@settings(max_examples=60, deadline=None)
@given(mechanisms(max_nodes=5, max_outputs=4))
def test_profile_and_epsilon_are_monotone_and_consistent(M):
    grid = np.linspace(0, 3, 31)
    prof = privacy_profile(M, grid)
    assert np.all(np.diff(prof) <= 1e-12)  # delta(eps) non-increasing
    ds = [0.0, 0.01, 0.1, 0.3, 1.0]
    es = [epsilon_for_delta(M, d) for d in ds]
    assert all(a >= b for a, b in itertools.pairwise(es))  # eps(delta) non-increasing
    for e, d in zip(grid, prof, strict=True):  # profile then inverse: eps(delta(e)) <= e
        # (a profile value above 1 is exact for stored rows that sum to 1 + a few ulps)
        if d <= 1.0:
            assert epsilon_for_delta(M, float(d)) <= e + 1e-7


@settings(max_examples=100, deadline=None)
@given(mechanisms(max_nodes=5, max_outputs=4), epsilons)
def test_pdp_matches_definition_and_dominates_dp(M, eps):
    # Kadam et al., Definition 2 in exact arithmetic: P(v) > e^eps Q(v) decided with rational
    # bounds L <= e^eps <= U; a comparison in the window (L Q, U Q] is undecidable and counted.
    lo, hi = exp_bounds(eps)
    rows = [[Fraction(x) for x in r] for r in M.probabilities.tolist()]
    sure = maybe = Fraction(0)
    for u, v in M.graph.edges.tolist():
        for a, b in ((rows[u], rows[v]), (rows[v], rows[u])):
            sure = max(sure, sum((x for x, y in zip(a, b, strict=True) if x > hi * y), Fraction(0)))
            maybe = max(
                maybe, sum((x for x, y in zip(a, b, strict=True) if x > lo * y), Fraction(0))
            )
    reported = Fraction(pdp_delta(M, eps))
    assert sure <= reported  # never below the exact leakage
    assert reported <= maybe * (1 + Fraction(1, 2**50))  # and tight (rounded up once)
    # sum_{p > xq} p >= sum (p - xq)_+ : PDP leakage bounds the DP delta (Kadam et al., Thm 1)
    assert pdp_delta(M, eps) >= verify(M, epsilon=eps).delta_required - 1e-15


def test_chunked_verification_equals_single_chunk(monkeypatch):
    rng = np.random.default_rng(3)
    g = nx.gnm_random_graph(200, 1500, seed=3)
    for v in g:
        g.nodes[v]["rainbow"] = list(rng.permutation(5))
    G = RainbowGraph(g, outputs=range(5))
    M = Mechanism(G, rng.dirichlet(np.ones(5), size=200))
    whole = verify(M, epsilon=0.7, delta=0.1)
    whole_eps, whole_pdp = epsilon_for_delta(M, 0.1), pdp_delta(M, 0.7)
    monkeypatch.setattr(_kernels, "CHUNK_ELEMENTS", 37)  # many ragged chunks
    chunked = verify(M, epsilon=0.7, delta=0.1)
    assert np.array_equal(whole.edge_deltas, chunked.edge_deltas)
    assert whole.worst_edge == chunked.worst_edge
    assert epsilon_for_delta(M, 0.1) == whole_eps
    assert pdp_delta(M, 0.7) == whole_pdp


def test_randomized_response_closed_form():
    # Binary randomized response with truth probability e^eps / (1 + e^eps) is exactly eps-DP.
    eps = 1.3
    t = math.exp(eps) / (1 + math.exp(eps))
    G = builders.cycle([("a", "b"), ("b", "a"), ("a", "b"), ("b", "a")])
    M = Mechanism.from_rainbow_order(G, [[t, 1 - t]] * 4)
    assert epsilon_for_delta(M, 0.0) == pytest.approx(eps, abs=1e-12)
    assert verify(M, epsilon=eps).is_private
    assert not verify(M, epsilon=eps - 1e-6).is_private
    # delta(eps') for eps' < eps: t - e^{eps'} (1 - t)
    assert privacy_profile(M, [0.5])[0] == pytest.approx(t - math.exp(0.5) * (1 - t))


def test_infinite_epsilon_when_support_differs():
    G = builders.line(["a", "b"], 1)
    M = Mechanism(G, [[0.9, 0.1], [1.0, 0.0]])
    assert math.isinf(epsilon_for_delta(M, 0.05))
    assert epsilon_for_delta(M, 0.1) == 0.0  # TV distance is 0.1
    assert pdp_delta(M, 100.0) == pytest.approx(0.1)


def test_pairwise_helpers():
    assert hockey_stick([0.5, 0.5], [0.25, 0.75], 0.0) == 0.25
    assert are_close([0.5, 0.5], [0.25, 0.75], 0.0, 0.25)
    assert not are_close([0.5, 0.5], [0.25, 0.75], 0.0, 0.2)
    assert are_close([0.5, 0.5], [0.25, 0.75], math.log(2), 0.0)  # ratios 2 and 1.5


def test_report_string_names_edge_and_event():
    G = builders.line(["yes", "no"], 1)
    rep = verify(Mechanism(G, [[0.9, 0.1], [0.1, 0.9]]), epsilon=1.0)
    text = str(rep)
    assert "NOT private" in text and "0 -> 1" in text and "'yes'" in text


@given(st.floats(0, 5), st.floats(0, 1))
@settings(max_examples=50, deadline=None)
def test_graph_without_edges_is_private(eps, delta):
    G = RainbowGraph.from_edges(
        np.empty((0, 2), int), outputs=[0, 1], rainbow_table=[[0, 1]], rainbow_ids=[0, 0]
    )
    M = Mechanism(G, [[1, 0], [0, 1]])
    rep = verify(M, epsilon=eps, delta=delta)
    assert rep.is_private and rep.worst_edge is None
    assert epsilon_for_delta(M, delta) == 0.0


def test_epsilon_for_delta_takes_an_array_of_deltas():
    G = builders.line(["yes", "no", "maybe"], 3)
    M = Mechanism(G, [[0.6, 0.3, 0.1], [0.5, 0.3, 0.2], [0.3, 0.4, 0.3], [0.1, 0.5, 0.4]])
    ds = [0.0, 1e-3, 0.05, 0.2, 1.0]
    out = epsilon_for_delta(M, np.array(ds))
    assert isinstance(out, np.ndarray) and out.shape == (5,)
    assert out.tolist() == [epsilon_for_delta(M, d) for d in ds]
    assert np.all(np.diff(out) <= 0)  # eps(delta) non-increasing
    assert epsilon_for_delta(M, []).shape == (0,)
    with pytest.raises(ValueError, match=r"`delta` must be in \[0, 1\].*1.5"):
        epsilon_for_delta(M, [0.1, 1.5])
    with pytest.raises(ValueError, match=r"`delta` must be a number or a 1-D array.*\(1, 1\)"):
        epsilon_for_delta(M, [[0.1]])
    with pytest.raises(TypeError, match=r"`delta`.*'0.1'"):
        epsilon_for_delta(M, ["0.1"])
    with pytest.raises(TypeError, match=r"`delta`.*'0.1'"):
        epsilon_for_delta(M, "0.1")


def test_are_close_needs_both_directions():
    # P relative to Q holds at e^ε = 2 (0.9 <= 2 * 0.5, 0.1 <= 2 * 0.5), Q relative to P does
    # not (0.5 > 2 * 0.1): Gu et al., Definition 2 asks for both
    assert hockey_stick([0.9, 0.1], [0.5, 0.5], math.log(2)) == 0.0
    assert hockey_stick([0.5, 0.5], [0.9, 0.1], math.log(2)) > 0.29
    assert not are_close([0.9, 0.1], [0.5, 0.5], math.log(2), 0.0)
    assert not are_close([0.5, 0.5], [0.9, 0.1], math.log(2), 0.0)
