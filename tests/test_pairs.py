"""Pairs of distributions and batches of pairs: the same numbers as the two-node graph, exactly."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rainbowdp as rdp
from rainbowdp._verify.epsilon import pair_x_exact
from rainbowdp._verify.exact import P_SHIFT, int_rows, pair_epsilon_exact
from rainbowdp.exceptions import ParameterError, ParameterTypeError
from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism

DELTAS = [0.0, 1e-300, 1e-12, 1e-6, 1e-3, 0.25, 0.5, 1 - 1e-12, 1.0]
EPSILONS = [0.0, 1e-300, 1e-12, 1e-6, 0.3, 1.0, 5.0, 40.0, 700.5, 745.9, 746.0, 1e4]


def oracle_mechanism(p: np.ndarray, q: np.ndarray, one_way: bool) -> Mechanism:
    """The graph path: two nodes, outputs 0..q-1, one edge (an arc 0 -> 1 if one_way)."""
    n = p.shape[0]
    g = RainbowGraph.from_edges(
        [[0, 1]],
        outputs=list(range(n)),
        rainbow_table=[list(range(n))],
        rainbow_ids=[0, 0],
        directed=one_way,
    )
    return Mechanism(g, np.stack([p, q]))


def normalised(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if x.sum() == 0:
        x = x.copy()
        x[0] = 1.0
    return x / x.sum()


def special_pairs(rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray]]:
    out = []
    for n in (1, 2, 3, 7, 30, 100):
        a = rng.dirichlet(np.ones(n))
        b = rng.dirichlet(np.ones(n) * 0.3)
        point = np.zeros(n)
        point[rng.integers(n)] = 1.0
        holes = a.copy()
        holes[rng.random(n) < 0.4] = 0.0
        holes = normalised(holes)
        spiky = normalised(rng.random(n) ** 12)
        tiny = np.full(n, 1.0 / n)
        if n > 1:
            tiny[0] = 5e-324
            tiny = normalised(tiny)
        out += [(a, b), (a, a.copy()), (point, a), (a, point), (point, point.copy())]
        out += [(holes, a), (a, holes), (spiky, b), (tiny, a), (holes, spiky)]
    return [(p, q) for p, q in out if abs(p.sum() - 1) <= 1e-9 and abs(q.sum() - 1) <= 1e-9]


@pytest.fixture(scope="module")
def grid() -> list[tuple[np.ndarray, np.ndarray]]:
    return special_pairs(np.random.default_rng(20240611))


def test_pair_x_exact_equals_pair_epsilon_exact():
    rng = np.random.default_rng(7)
    for a, b in special_pairs(rng):
        for d in (0.0, 1e-9, 0.01, 0.3, 1.0):
            scaled = Fraction(d) * (1 << P_SHIFT)
            full = pair_epsilon_exact(int_rows(a).tolist(), int_rows(b).tolist(), scaled)
            assert pair_x_exact(a, b, scaled) == full


@pytest.mark.parametrize("one_way", [False, True])
def test_epsilon_for_delta_single_and_batch_match_graph(grid, one_way):
    batch = np.stack([np.stack(pair) for pair in grid if pair[0].shape[0] == 30])
    for p, q in grid:
        m = oracle_mechanism(p, q, one_way)
        want = [rdp.epsilon_for_delta(m, d) for d in DELTAS]
        got = [rdp.epsilon_for_delta((p, q), d, one_way=one_way) for d in DELTAS]
        assert got == want
        arr = rdp.epsilon_for_delta(np.stack([p, q]), DELTAS, one_way=one_way)
        assert arr.tolist() == want
    want_b = np.array(
        [[rdp.epsilon_for_delta(oracle_mechanism(*pr, one_way), d) for d in DELTAS] for pr in batch]
    )
    got_b = rdp.epsilon_for_delta(batch, DELTAS, one_way=one_way)
    assert got_b.shape == (batch.shape[0], len(DELTAS))
    assert np.array_equal(got_b, want_b)
    got_one = rdp.epsilon_for_delta(batch, 1e-6, one_way=one_way)
    assert got_one.shape == (batch.shape[0],)
    assert np.array_equal(got_one, want_b[:, DELTAS.index(1e-6)])


@pytest.mark.parametrize("one_way", [False, True])
def test_privacy_profile_single_and_batch_match_graph(grid, one_way):
    for n in (3, 100):
        pairs = [pr for pr in grid if pr[0].shape[0] == n]
        batch = np.stack([np.stack(pr) for pr in pairs])
        want = np.stack(
            [rdp.privacy_profile(oracle_mechanism(p, q, one_way), EPSILONS) for p, q in pairs]
        )
        got = rdp.privacy_profile(batch, EPSILONS, one_way=one_way)
        assert got.shape == (len(pairs), len(EPSILONS))
        assert np.array_equal(got, want)
        for (p, q), row in zip(pairs, want, strict=True):
            assert np.array_equal(rdp.privacy_profile([p, q], EPSILONS, one_way=one_way), row)


def test_two_way_is_the_larger_direction(grid):
    for p, q in grid[:20]:
        both = rdp.privacy_profile((p, q), EPSILONS)
        fwd = rdp.privacy_profile((p, q), EPSILONS, one_way=True)
        bwd = rdp.privacy_profile((q, p), EPSILONS, one_way=True)
        assert np.array_equal(both, np.maximum(fwd, bwd))
        e2 = rdp.epsilon_for_delta((p, q), 1e-6)
        assert e2 >= rdp.epsilon_for_delta((p, q), 1e-6, one_way=True)
        assert e2 >= rdp.epsilon_for_delta((q, p), 1e-6, one_way=True)


def test_hockey_stick_batch(grid):
    pairs = [pr for pr in grid if pr[0].shape[0] == 7]
    batch = np.stack([np.stack(pr) for pr in pairs])
    for e in EPSILONS:
        got = rdp.hockey_stick(batch, e)
        assert got.shape == (len(pairs),)
        assert got.tolist() == [rdp.hockey_stick(p, q, e) for p, q in pairs]
        assert np.array_equal(rdp.hockey_stick(batch, epsilon=e), got)


def test_infinite_and_empty_batch():
    p, q = np.array([0.5, 0.5]), np.array([1.0, 0.0])
    assert rdp.epsilon_for_delta((p, q), 0.4) == math.inf
    assert rdp.epsilon_for_delta((p, q), 0.4, one_way=True) == math.inf
    assert rdp.epsilon_for_delta((q, p), 0.4, one_way=True) < math.inf
    assert rdp.epsilon_for_delta(np.zeros((0, 2, 3)), 0.1).shape == (0,)
    assert rdp.privacy_profile(np.zeros((0, 2, 3)), [0.1, 1.0]).shape == (0, 2)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    n=st.integers(1, 100),
    seed=st.integers(0, 2**32 - 1),
    zeros=st.floats(0.0, 0.9),
    same=st.booleans(),
    one_way=st.booleans(),
    delta=st.sampled_from(DELTAS),
    eps=st.sampled_from(EPSILONS),
)
def test_random_pairs_match_graph(n, seed, zeros, same, one_way, delta, eps):
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(n) * rng.choice([0.1, 1.0, 10.0]))
    p[rng.random(n) < zeros] = 0.0
    p = normalised(p)
    q = p.copy() if same else normalised(rng.dirichlet(np.ones(n)) * (rng.random(n) >= zeros))
    m = oracle_mechanism(p, q, one_way)
    assert rdp.epsilon_for_delta((p, q), delta, one_way=one_way) == rdp.epsilon_for_delta(m, delta)
    got = rdp.privacy_profile(np.stack([p, q])[None], [eps], one_way=one_way)
    assert got.tolist() == [[float(rdp.privacy_profile(m, [eps])[0])]]


def test_bad_input():
    p = [0.5, 0.5]
    with pytest.raises(ParameterError, match="equal length"):
        rdp.epsilon_for_delta(([0.5, 0.5], [0.2, 0.3, 0.5]), 0.0)
    with pytest.raises(ParameterError, match="shape"):
        rdp.privacy_profile(np.ones((3, 2)) / 2, [0.1])
    with pytest.raises(ParameterError, match="Q of pair 1"):
        rdp.epsilon_for_delta(np.array([[p, p], [p, [0.5, 0.6]]]), 0.0)
    with pytest.raises(ParameterError, match="P must be a distribution"):
        rdp.epsilon_for_delta(([-0.5, 1.5], p), 0.0)
    with pytest.raises(ParameterTypeError, match="one_way"):
        rdp.epsilon_for_delta((p, p), 0.0, one_way=1)
    m = oracle_mechanism(np.array(p), np.array(p), False)
    with pytest.raises(ParameterError, match="one_way"):
        rdp.epsilon_for_delta(m, 0.0, one_way=True)
    with pytest.raises(ParameterError, match="one_way"):
        rdp.privacy_profile(m, [0.0], one_way=True)
    with pytest.raises(ParameterError, match="batch"):
        rdp.hockey_stick(np.array([p, p]), 0.1)
    with pytest.raises(ParameterError, match="delta"):
        rdp.epsilon_for_delta((p, p), 1.5)
    with pytest.raises(ParameterError, match="epsilons"):
        rdp.privacy_profile((p, p), [-1.0])
    with pytest.raises(ParameterTypeError):
        rdp.privacy_profile("pq", [0.1])


def _pair_epsilon_reference(a: list[int], b: list[int], delta: Fraction) -> Fraction | None:
    """The definition, in Fractions: sort the breakpoints, walk to the piece where H = δ."""
    budget = delta - sum(x for x, y in zip(a, b, strict=True) if y == 0)
    if budget < 0:
        return None
    pts = sorted(
        ((Fraction(x, y), x, y) for x, y in zip(a, b, strict=True) if y > 0 and x > 0),
        key=lambda t: t[0],
        reverse=True,
    )
    big_a = big_b = 0
    for r, x, y in pts:
        if big_a - r * big_b > budget:
            break
        big_a += x
        big_b += y
    if big_b == 0:
        return Fraction(1)
    return max(Fraction(1), (big_a - budget) / big_b)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    pairs=st.lists(
        st.tuples(
            st.sampled_from([0, 1, 2, 3, 5, 7, 2**60, 3 * 2**59, 2**1074, 2**1075 - 1]),
            st.sampled_from([0, 1, 2, 3, 6, 2**61, 2**1074, 2**1073 + 1]),
        ),
        min_size=1,
        max_size=40,
    ),
    scale=st.integers(0, 1100),
    delta=st.sampled_from([Fraction(0), Fraction(1, 3), Fraction(1, 2**40), Fraction(2, 3)]),
)
def test_pair_epsilon_exact_in_integers_matches_the_definition(pairs, scale, delta):
    a = [x for x, _ in pairs]
    b = [y for _, y in pairs]
    d = delta * (1 << scale)
    assert pair_epsilon_exact(a, b, d) == _pair_epsilon_reference(a, b, d)


def test_single_pair_rows_must_sum_to_one():
    """One pair (not a batch) whose P or Q does not sum to 1 is refused, naming the row; within
    the tolerance of :class:`rainbowdp.Mechanism` (1e-9) it is read as the two-node graph."""
    p = [0.5, 0.5]
    with pytest.raises(ParameterError, match="P must be a distribution"):
        rdp.epsilon_for_delta(([0.5, 0.6], p), 0.0)
    with pytest.raises(ParameterError, match="Q must be a distribution"):
        rdp.privacy_profile((p, [0.3, 0.3]), [0.1])
    with pytest.raises(ParameterError, match="Q must be a distribution"):
        rdp.epsilon_for_delta(np.array([p, [0.5, 0.5 + 1e-6]]), 1e-3)
    near = [0.75 + 4e-10, 0.25]
    m = oracle_mechanism(np.array(near), np.array([0.25, 0.75]), False)
    assert rdp.epsilon_for_delta((near, [0.25, 0.75]), 0.0) == rdp.epsilon_for_delta(m, 0.0)
