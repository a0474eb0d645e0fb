"""Mechanisms whose edges all tie: the standard mechanisms on symmetric graphs.

Every edge of a translation-invariant mechanism on a path or cycle, or of randomized response on
a ``from_records`` graph, attains the worst ε: the exact engine must decide such edges once per
distinct pair, never recurse, and finish in seconds above the 8,192 edges from which
``epsilon_for_delta`` starts from a sample. Every value is compared with the independent Fraction
oracle of ``tests/soundness_oracle.py`` (Gu et al., Definition 2), evaluated on the distinct
ordered pairs of rows (equal pairs of rows have equal divergences, so the oracle over them is the
oracle over all edges).
"""

from __future__ import annotations

import functools
import json
import math
import warnings
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rainbowdp as rdp
import rainbowdp._verify.epsilon as engine
from rainbowdp import builders, noise
from rainbowdp._verify.groups import group_arcs, row_classes
from rainbowdp.cli import main
from rainbowdp.exceptions import NotExactWarning
from tests.soundness_oracle import (
    Arc,
    delta_star_side,
    pdp_bounds,
    scaled_rows,
)

#: Relative slack of the tightness check of ε(δ) and absolute slack of δ(ε): the documented
#: accuracy (docs/verification.md: ε̂ exceeds ε* by about 1e-13 max(1, ε*)).
EPS_REL_SLACK = 1e-9
DELTA_SLACK = Fraction(1e-12)


def _distinct_orders(M: rdp.Mechanism) -> tuple[list[list[int]], list[Arc]]:
    """The oracle's input: the rows (scaled to integers) of the distinct ordered pairs of rows
    of ``M``'s edges, as arcs of a graph on those rows only."""
    p = M.probabilities
    e = M.graph.edges
    arcs = e if M.graph.directed else np.concatenate([e, e[:, ::-1]])
    seen: dict[tuple[bytes, bytes], tuple[int, int]] = {}
    for a, b in arcs.tolist():
        seen.setdefault((p[a].tobytes(), p[b].tobytes()), (a, b))
    nodes = sorted({x for pair in seen.values() for x in pair})
    pos = {x: i for i, x in enumerate(nodes)}
    rows = scaled_rows(p[nodes].tolist())
    return rows, [Arc((pos[a], pos[b])) for a, b in seen.values()]


def _check_epsilon(M: rdp.Mechanism, delta: float, eps_hat: float) -> None:
    """ε̂ proved (the oracle's H_L at ε̂ is at most δ on every pair) and tight (just below ε̂,
    the oracle's H_U exceeds δ on some pair)."""
    rows, arcs = _distinct_orders(M)
    d = Fraction(delta)
    assert math.isfinite(eps_hat)
    assert delta_star_side(rows, arcs, eps_hat, upper=True) <= d
    margin = EPS_REL_SLACK * max(1.0, eps_hat)
    if eps_hat > margin:
        assert delta_star_side(rows, arcs, eps_hat - margin, upper=False) > d


def _check_delta(M: rdp.Mechanism, epsilon: float, value: float) -> None:
    """A reported δ(ε) at least the exact δ* and within the documented slack above it."""
    rows, arcs = _distinct_orders(M)
    lo = delta_star_side(rows, arcs, epsilon, upper=False)
    hi = delta_star_side(rows, arcs, epsilon, upper=True)
    assert lo <= Fraction(value) <= hi + DELTA_SLACK


def _median_graph() -> rdp.RainbowGraph:
    """The median of 14 records over 5 values, neighbours by replacing one record (3,060
    nodes, 23,800 edges): the new user's graph of the reproducer."""
    return builders.from_records(
        range(5), size=14, query=lambda d: d[len(d) // 2], outputs=range(5), relation="replace_one"
    )


# ---------------------------------------------------------------------- the reproducers
@pytest.mark.parametrize("delta", [0.0, 1e-6, 0.05])
def test_randomized_response_on_the_median_graph(delta):
    """Randomized response ties on every edge of the ``from_records`` graph (23,800 edges)."""
    G = _median_graph()
    assert G.n_edges > engine.FILTER_MIN_EDGES
    M = noise.randomized_response(G, epsilon=1.0)
    eps = rdp.epsilon_for_delta(M, delta)
    _check_epsilon(M, delta, eps)
    assert rdp.certify(M, epsilon=eps, delta=delta).verdict == "private"
    assert rdp.verify(M, epsilon=eps, delta=delta).is_private
    if delta == 0.0:  # randomized response is (ε, 0)-DP for its ε (the float rows: to 1e-11)
        assert abs(eps - 1.0) <= 1e-11


def test_constant_rows_on_a_long_path():
    """A constant mechanism: ε = 0 exactly, on 9,000 tied edges."""
    G = builders.line(["a", "b", "c"], 9000)
    M = rdp.Mechanism(G, np.tile([0.2, 0.3, 0.5], (G.n_nodes, 1)))
    assert rdp.epsilon_for_delta(M, 0.0) == 0.0
    assert rdp.epsilon_for_delta(M, 1e-9) == 0.0


@pytest.mark.parametrize("k", [2, 3, 7])
def test_alternating_k_rr_on_a_path(k):
    """Two k-RR rows alternating on a path of 8,300 nodes: ε(0) = ln 3 style ratio, exactly."""
    G = builders.line(list(range(k)), 8300)
    a = np.full(k, 1.0 / (k + 2))
    a[0] = 3.0 / (k + 2)
    b = np.roll(a, 1)
    M = rdp.Mechanism(G, np.where((np.arange(G.n_nodes) % 2 == 0)[:, None], a, b))
    for delta in (0.0, 1e-3):
        eps = rdp.epsilon_for_delta(M, delta)
        _check_epsilon(M, delta, eps)
    assert 0 <= rdp.epsilon_for_delta(M, 0.0) - math.log(3.0) <= 1e-12


@pytest.mark.parametrize("directed", [False, True])
def test_two_distinct_rows_on_a_large_random_graph(directed):
    """60,000 edges of a random graph carrying two distinct rows."""
    rng = np.random.default_rng(5)
    n = 20_000
    edges = rng.integers(0, n, size=(61_000, 2))
    edges = edges[edges[:, 0] != edges[:, 1]]
    edges = np.unique(np.sort(edges, axis=1), axis=0)[:60_000]
    G = rdp.RainbowGraph.from_edges(
        edges,
        outputs=range(4),
        rainbow_table=[list(range(4))],
        rainbow_ids=np.zeros(n, int),
        directed=directed,
    )
    rows = np.array([[0.4, 0.3, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4]])
    M = rdp.Mechanism(G, rows[rng.integers(0, 2, n)])
    for delta in (0.0, 0.01):
        _check_epsilon(M, delta, rdp.epsilon_for_delta(M, delta))
    _check_delta(M, 0.5, float(rdp.privacy_profile(M, [0.5, 1.0])[0]))


# ---------------------------------------------------------------------- standard × symmetric
def _grid(k: int) -> rdp.RainbowGraph:
    """A k × k grid of datasets whose answer is i + j (sensitivity 1), outputs 0..2k-2."""
    g = nx.convert_node_labels_to_integers(nx.grid_2d_graph(k, k), label_attribute="ij")
    answers = {d: sum(g.nodes[d]["ij"]) for d in g}
    return rdp.RainbowGraph.from_query(g, range(2 * k - 1), answer=answers)


def _cycle(n: int, k: int) -> rdp.RainbowGraph:
    """A cycle of n datasets whose answer is i mod k, outputs 0..k-1 (n a multiple of k: every
    edge moves the answer by 1 modulo k)."""
    g = nx.cycle_graph(n)
    return rdp.RainbowGraph.from_query(g, range(k), answer={d: d % k for d in g})


def _add_only_sums() -> rdp.RainbowGraph:
    """Sums of up to 3 records in {0, 1, 2}, add-only arcs (a directed graph)."""
    return builders.from_records(
        [0, 1, 2], size=3, query=sum, outputs=range(7), relation="add_only"
    )


GRAPHS = {
    "path(12000)": lambda: builders.count_path(12_000, outputs=range(16)),
    "grid(40)": lambda: _grid(40),
    "cycle(12000) mod 16": lambda: _cycle(12_000, 16),
    "median(14 of 5)": _median_graph,
    "add-only sums": _add_only_sums,
}

MECHANISMS = {
    "geometric clamped": lambda G: noise.geometric(G, epsilon=1.0, form="clamped"),
    "geometric truncated": lambda G: noise.geometric(G, epsilon=0.7, form="truncated"),
    "geometric folded": lambda G: noise.geometric(G, epsilon=1.0, form="folded"),
    "geometric modular": lambda G: noise.geometric(G, epsilon=1.0, form="modular"),
    "discrete gaussian": lambda G: noise.discrete_gaussian(G, sigma=1.5),
    "staircase": lambda G: noise.staircase(G, epsilon=1.0, sensitivity=1),
    "exponential": lambda G: noise.exponential(G, epsilon=1.0),
    "randomized response": lambda G: noise.randomized_response(G, epsilon=1.0),
}


@functools.cache
def _graph(name: str) -> rdp.RainbowGraph:
    return GRAPHS[name]()


def _build(mech: str, graph: str) -> rdp.Mechanism | None:
    G = _graph(graph)
    try:
        return MECHANISMS[mech](G)
    except (ValueError, TypeError):  # a family that does not apply to this graph
        return None


@pytest.mark.parametrize("graph", sorted(GRAPHS))
@pytest.mark.parametrize("mech", sorted(MECHANISMS))
def test_all_ties_against_the_oracle(mech, graph):
    M = _build(mech, graph)
    if M is None:
        pytest.skip(f"{mech} does not apply to {graph}")
    with warnings.catch_warnings():
        warnings.simplefilter("error", NotExactWarning)  # tied edges are decided exactly
        for delta in (0.0, 1e-6):
            _check_epsilon(M, delta, rdp.epsilon_for_delta(M, delta))
        eps = [0.25, 0.5, 1.0]
        for e, v in zip(eps, rdp.privacy_profile(M, eps).tolist(), strict=True):
            _check_delta(M, e, v)
        r = rdp.verify(M, epsilon=0.5)
        _check_delta(M, 0.5, r.delta_required)
        rows, arcs = _distinct_orders(M)  # probabilistic DP (Kadam et al., Definition 2)
        lo, hi = pdp_bounds(rows, arcs, 0.5)
        assert lo <= Fraction(rdp.pdp_delta(M, 0.5)) <= hi + DELTA_SLACK


def test_every_family_applies_somewhere():
    """The suite above is not vacuous: each mechanism builds on at least two of the graphs."""
    for mech in MECHANISMS:
        built = [g for g in GRAPHS if _build(mech, g) is not None]
        assert len(built) >= 2, (mech, built)


# ---------------------------------------------------------------------- the command line
def test_cli_verify_and_profile_on_a_long_tied_file(tmp_path, capsys):
    G = builders.line(["a", "b", "c"], 9000)
    P = np.array([[0.6, 0.2, 0.2], [0.2, 0.6, 0.2]])
    M = rdp.Mechanism(G, P[np.arange(G.n_nodes) % 2])
    path = tmp_path / "tied.json"
    rdp.save_graph(G, path, mechanism=M)
    code = main(["verify", str(path), "--epsilon", "1.0", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["is_private"] is False  # ln 3 > 1
    eps = rdp.epsilon_for_delta(M, 0.0)
    assert 0 <= eps - math.log(3.0) <= 1e-12
    assert main(["verify", str(path), "--epsilon", repr(eps), "--json"]) == 0
    capsys.readouterr()
    assert main(["profile", str(path), "--epsilons", "0.5,1.5", "--json"]) == 0
    json.loads(capsys.readouterr().out)
    assert main(["profile", str(path), "--json"]) == 0  # the default grid: ε(0) first
    json.loads(capsys.readouterr().out)


# ---------------------------------------------------------------------- the grouping itself
@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_rows=st.integers(1, 6),
    q=st.integers(1, 5),
    n_arcs=st.integers(1, 400),
    permute=st.booleans(),
)
def test_group_arcs_merges_exactly_the_equal_pairs(seed, n_rows, q, n_arcs, permute):
    """Each arc equals its representative up to a common permutation of the outputs, and no
    two representatives are equal pairs: the classes are exact."""
    rng = np.random.default_rng(seed)
    base = rng.dirichlet(np.ones(q), size=n_rows)
    if permute:  # rows that are permutations of each other: pairs equal up to a permutation
        base = np.concatenate([base, base[:, rng.permutation(q)]])
    p = base[rng.integers(0, base.shape[0], size=3 * n_arcs)]
    heads = rng.integers(0, p.shape[0], size=n_arcs)
    tails = rng.integers(0, p.shape[0], size=n_arcs)
    reps, inverse = group_arcs(p, heads, tails)

    def canon(a: int, b: int) -> tuple:
        return tuple(sorted(zip(p[a].tolist(), p[b].tolist(), strict=True)))

    assert np.all(np.diff(reps) > 0)
    for i in range(n_arcs):
        r = reps[inverse[i]]
        assert canon(heads[i], tails[i]) == canon(heads[r], tails[r])
    keys = [canon(heads[r], tails[r]) for r in reps]
    assert len(set(keys)) == len(keys)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), n_rows=st.integers(1, 5), q=st.integers(1, 4))
def test_group_arcs_of_both_orders_without_building_them(seed, n_rows, q):
    """``both=True`` classes the n edges and their reverses as the 2n arcs built explicitly."""
    rng = np.random.default_rng(seed)
    base = rng.dirichlet(np.ones(q), size=n_rows)
    base = np.concatenate([base, base[:, ::-1]])
    p = base[rng.integers(0, base.shape[0], size=300)]
    heads, tails = rng.integers(0, 300, size=150), rng.integers(0, 300, size=150)
    reps, inverse = group_arcs(p, heads, tails, both=True)
    h2, t2 = np.concatenate([heads, tails]), np.concatenate([tails, heads])

    def canon(a: int, b: int) -> tuple:
        return tuple(sorted(zip(p[a].tolist(), p[b].tolist(), strict=True)))

    keys = {canon(h2[i], t2[i]) for i in range(300)}
    assert len(reps) == len(keys)
    for i in range(300):
        r = reps[inverse[i]]
        assert canon(h2[i], t2[i]) == canon(h2[r], t2[r])


def test_row_classes_survive_hash_collisions(monkeypatch):
    """With a hash that maps every row to 0, unequal rows still never share a class."""
    import rainbowdp._verify.groups as groups

    monkeypatch.setattr(groups, "_row_hash", lambda rows: np.zeros(rows.shape[0], np.uint64))
    rng = np.random.default_rng(3)
    p = rng.dirichlet(np.ones(4), size=5)[rng.integers(0, 5, size=200)]
    ids = row_classes(p)
    for i in range(p.shape[0]):
        for j in range(p.shape[0]):
            assert (ids[i] == ids[j]) <= bool(np.array_equal(p[i], p[j]))


def test_row_classes_merge_equal_rows():
    p = np.array([[0.5, 0.5], [0.25, 0.75], [0.5, 0.5], [0.25, 0.75], [1e-300, 1.0], [0.0, 1.0]])
    ids = row_classes(p)
    assert ids[0] == ids[2] and ids[1] == ids[3]
    assert len({ids[0], ids[1], ids[4], ids[5]}) == 4  # 1e-300 is not 0


# ---------------------------------------------------------------------- bounded exact work
def test_over_budget_returns_a_proved_bound_with_a_warning(monkeypatch):
    """Many distinct near-tied edges with a flat slope (H falls by 2^-40 per unit of e^ε, far
    below the float error), beyond the exact budgets: a proved upper bound, flagged, after a
    bounded number of float passes -- never an unbounded exact search. Unpatched, the same
    graph is solved exactly, and the bound is at least that value."""
    n, q = 202, 200
    rows = []
    for i in range(n):
        if i % 2 == 0:
            r = np.full(q, 0.5 / (q - 1))
            r[0] = 0.5
        else:
            r = np.full(q, (1 - 2.0**-40) / (q - 1))
            r[0] = 2.0**-40
        r[1] *= 1 + i * 2.0**-50  # every row distinct, no two pairs equal
        rows.append(r / r.sum())
    M = rdp.Mechanism(builders.line(list(range(q)), n - 1), np.array(rows))
    delta = 0.5 - q * 2.0**-40
    for name in ("LAST_RESORT_WORK", "EPS_EXACT_WORK", "EXACT_WORK"):  # budgets of 10 pairs
        monkeypatch.setattr(engine, name, 10 * q)
    monkeypatch.setattr(engine, "PAIR_ARCS", 0)  # (the pair path settles these: bypass it)
    with pytest.warns(NotExactWarning, match="proved upper bound"):
        bound = rdp.epsilon_for_delta(M, delta)
    rows_int, arcs = _distinct_orders(M)
    assert len(arcs) == 2 * (n - 1)
    assert delta_star_side(rows_int, arcs, bound, upper=True) <= Fraction(delta)
    monkeypatch.undo()
    with warnings.catch_warnings():
        warnings.simplefilter("error", NotExactWarning)
        exact = rdp.epsilon_for_delta(M, delta)
    _check_epsilon(M, delta, exact)
    assert exact <= bound <= exact * (1 + 1e-3)
