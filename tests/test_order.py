"""Tests of rainbowdp.order: dominance ordering (Gu et al., Definition 3) and utilities."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rainbowdp import builders
from rainbowdp.exceptions import InvalidMechanismError
from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism
from rainbowdp.order import (
    dominates,
    expected_utility,
    is_order_reasonable,
    mechanism_dominates,
    prefix_sums,
    utility_from_ranks,
)

# Small integers: exact float arithmetic, and many comparable / equal pairs.
_VEC = st.integers(1, 5).flatmap(
    lambda q: st.tuples(*[st.lists(st.integers(0, 3), min_size=q, max_size=q)] * 3)
)


@settings(max_examples=400, deadline=None)
@given(_VEC)
def test_dominance_is_a_partial_order(xyz) -> None:
    x, y, z = (np.array(v, dtype=float) for v in xyz)
    assert dominates(x, x, tol=0.0)  # reflexive
    if dominates(x, y, tol=0.0) and dominates(y, x, tol=0.0):  # antisymmetric
        assert np.array_equal(x, y)
    if dominates(x, y, tol=0.0) and dominates(y, z, tol=0.0):  # transitive
        assert dominates(x, z, tol=0.0)
    # Definition 3 written out with Python sums.
    expect = all(sum(x[:k]) >= sum(y[:k]) for k in range(1, len(x) + 1))
    assert dominates(x, y, tol=0.0) == expect


def _move_down(rng: np.random.Generator, v: np.ndarray, moves: int) -> np.ndarray:
    """Move mass from a preferred position to a less preferred one (result is dominated)."""
    w = v.copy()
    n, q = w.shape
    for _ in range(moves):
        k = rng.integers(0, q - 1, size=n)
        j = k + 1 + rng.integers(0, q - 1 - k)  # j > k
        rows = np.arange(n)
        amount = w[rows, k] * rng.random(n)
        w[rows, k] -= amount
        w[rows, j] += amount
    return w


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 5), st.integers(1, 4))
def test_chains_built_by_moving_mass_are_ordered(seed: int, q: int, moves: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.dirichlet(np.ones(q), size=6)
    y = _move_down(rng, x, moves)
    z = _move_down(rng, y, moves)
    assert dominates(x, y).all() and dominates(y, z).all() and dominates(x, z).all()
    # 2-D input gives the 1-D answer row by row.
    back = dominates(z, x)
    assert back.dtype == bool and back.shape == (6,)
    assert back.tolist() == [dominates(a, b) for a, b in zip(z, x, strict=True)]
    # Strictly moved rows are not dominated back (beyond the tolerance).
    moved = np.abs(z - x).max(axis=1) > 1e-6
    assert not back[moved].any()


def _random_graph(rng: np.random.Generator, n: int, q: int) -> RainbowGraph:
    g = nx.gnp_random_graph(n, 0.5, seed=int(rng.integers(2**31)))
    perms = [tuple(int(o) for o in rng.permutation(q)) for _ in range(3)]
    nx.set_node_attributes(g, {d: list(perms[rng.integers(3)]) for d in g.nodes}, "rainbow")
    return RainbowGraph(g, outputs=list(range(q)))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 8), st.integers(2, 5))
def test_order_reasonable_utilities_are_monotone(seed: int, n: int, q: int) -> None:
    rng = np.random.default_rng(seed)
    g = _random_graph(rng, n, q)
    v = rng.dirichlet(np.ones(q), size=n)
    m1 = Mechanism.from_rainbow_order(g, v)
    m2 = Mechanism.from_rainbow_order(g, _move_down(rng, v, 3))
    assert mechanism_dominates(m1, m2)
    # Utilities by rank (Gu et al., Section 2: u_d non-increasing along f(d)).
    w = np.sort(rng.normal(size=q))[::-1]
    u = utility_from_ranks(g, w)
    assert is_order_reasonable(u, g)
    assert expected_utility(m1, u) >= expected_utility(m2, u) - 1e-12
    assert expected_utility(m1, w) == pytest.approx(expected_utility(m1, u), abs=1e-12)
    # Per-node monotone utilities with different values at every node.
    per_node = np.sort(rng.normal(size=(n, q)), axis=1)[:, ::-1]
    u_nodes = np.take_along_axis(per_node, g.ranks, axis=1)
    assert is_order_reasonable(u_nodes, g)
    assert expected_utility(m1, u_nodes) >= expected_utility(m2, u_nodes) - 1e-12
    # A utility increasing along the rainbow reverses the inequality: the test can fail.
    assert not is_order_reasonable(w[::-1].copy(), g) or np.ptp(w) == 0
    assert expected_utility(m1, w[::-1].copy()) <= expected_utility(m2, w[::-1].copy()) + 1e-12


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 6), st.integers(2, 5))
def test_non_dominance_has_a_witness_utility(seed: int, n: int, q: int) -> None:
    # If M does not dominate M', some order-reasonable utility (a top-k indicator at one node)
    # prefers M': dominance is exactly "better for every order-reasonable utility".
    rng = np.random.default_rng(seed)
    g = _random_graph(rng, n, q)
    v1, v2 = rng.dirichlet(np.ones(q), size=n), rng.dirichlet(np.ones(q), size=n)
    m1, m2 = Mechanism.from_rainbow_order(g, v1), Mechanism.from_rainbow_order(g, v2)
    gap = prefix_sums(v1) - prefix_sums(v2)
    if mechanism_dominates(m1, m2, tol=1e-9):  # the last prefix sums differ by round-off
        assert gap.min() >= -1e-9
        return
    d, k = np.unravel_index(np.argmin(gap), gap.shape)
    by_rank = np.zeros((n, q))
    by_rank[d, : k + 1] = 1.0
    u = np.take_along_axis(by_rank, g.ranks, axis=1)
    assert is_order_reasonable(u, g)
    assert expected_utility(m1, u) < expected_utility(m2, u) - 1e-9


def test_paper_example_vectors() -> None:
    # Definition 3 is dominance of prefix sums (majorisation-like), not lexicographic order:
    # (0.5, 0.1, 0.4) is lexicographically above (0.4, 0.5, 0.1) but not dominant
    # (Gu et al., Section 1: dominance is stronger than lexicographic ordering).
    assert not dominates([0.5, 0.1, 0.4], [0.4, 0.5, 0.1])
    assert not dominates([0.4, 0.5, 0.1], [0.5, 0.1, 0.4])
    assert dominates([0.5, 0.4, 0.1], [0.4, 0.5, 0.1])
    assert prefix_sums([[0.5, 0.5], [1.0, 0.0]]).tolist() == [[0.5, 1.0], [1.0, 1.0]]


def test_tolerance() -> None:
    x, y = [0.5, 0.5], [0.5 + 1e-13, 0.5 - 1e-13]
    assert dominates(x, y) and not dominates(x, y, tol=0.0)


def test_mechanism_dominates_graph_identity_and_structure() -> None:
    rainbows = [("a", "b"), ("a", "b"), ("b", "a")]
    g1, g2 = builders.cycle(rainbows), builders.cycle(rainbows)
    m1 = Mechanism.from_rainbow_order(g1, [[0.8, 0.2]] * 3)
    m2 = Mechanism.from_rainbow_order(g2, [[0.6, 0.4]] * 3)
    assert mechanism_dominates(m1, m2) and not mechanism_dominates(m2, m1)  # equal structure
    g3 = builders.cycle([("a", "b"), ("b", "a"), ("b", "a")])
    m3 = Mechanism.from_rainbow_order(g3, [[0.6, 0.4]] * 3)
    with pytest.raises(InvalidMechanismError, match=r"`m1` and `m2` must live on the same"):
        mechanism_dominates(m1, m3)
    with pytest.raises(ValueError, match="same rainbow graph"):
        mechanism_dominates(m1, Mechanism(builders.line(["a", "b"], 2), [[0.5, 0.5]] * 3))
    with pytest.raises(TypeError, match=r"`m2` must be a Mechanism, got m2=list"):
        mechanism_dominates(m1, [[0.5, 0.5]] * 3)  # type: ignore[arg-type]


def test_bad_inputs() -> None:
    g = builders.line(["a", "b", "c"], 1)
    m = Mechanism(g, [[0.5, 0.3, 0.2], [0.2, 0.3, 0.5]])
    with pytest.raises(ValueError, match=r"same shape, got \(2,\) and \(3,\)"):
        dominates([1, 0], [1, 0, 0])
    with pytest.raises(ValueError, match=r"`x` must be finite, got x=\[nan, 1.0\]"):
        dominates([float("nan"), 1.0], [0.5, 0.5])
    with pytest.raises(ValueError, match=r"`y` must be a non-empty 1-D vector or 2-D array"):
        dominates([0.5, 0.5], np.zeros((1, 1, 2)))
    with pytest.raises(ValueError, match=r"`tol`.*tol=-1"):
        dominates([1.0], [1.0], tol=-1)
    with pytest.raises(TypeError, match=r"`vectors` must hold real numbers.*'a'"):
        prefix_sums(["a", "b"])
    with pytest.raises(ValueError, match=r"`weights` must be non-increasing.*weights=\[0, 1, 2\]"):
        utility_from_ranks(g, [0, 1, 2])
    with pytest.raises(ValueError, match=r"`weights` must be a vector of 3 numbers"):
        utility_from_ranks(g, [1, 0])
    with pytest.raises(TypeError, match=r"`G` must be a RainbowGraph, got G=str"):
        utility_from_ranks("G", [1, 0, 0])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"`utility` must have shape \(2, 3\) or \(3,\)"):
        expected_utility(m, np.ones((3, 3)))
    with pytest.raises(ValueError, match=r"must have 3 entries, got 2"):
        expected_utility(m, [1.0, 0.0])
    with pytest.raises(TypeError, match=r"`mechanism` must be a Mechanism"):
        expected_utility(g, [1.0, 0.0, 0.0])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"`utility` must have shape"):
        is_order_reasonable(np.ones((5, 3)), g)
    with pytest.raises(ValueError, match=r"`tol`.*tol=-0.5"):
        is_order_reasonable([1, 0, 0], g, tol=-0.5)
    assert is_order_reasonable([2, 1, 1], g) and not is_order_reasonable([1, 2, 0], g)
    assert is_order_reasonable([1, 1.5, 0], g, tol=0.5)
