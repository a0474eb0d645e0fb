"""Directed neighbour relations: an arc u -> v constrains P_u(S) <= e^eps P_v(S) + delta only.

Every check is against a brute force written here: the hockey-stick divergence of one order
of each arc, summed in plain Python (``fractions`` where exactness matters).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest

import rainbowdp as rdp
from rainbowdp import builders
from rainbowdp.exceptions import InvalidGraphError


def random_digraph(seed: int, *, both: bool = False):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 7))
    q = int(rng.integers(2, 5))
    arcs = [(u, v) for u, v in itertools.permutations(range(n), 2) if rng.random() < 0.4]
    if not arcs:
        arcs = [(0, 1)]
    if both:
        arcs = sorted({*arcs, *((v, u) for u, v in arcs)})
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from(arcs)
    outs = list(range(q))
    for d in g.nodes:
        g.nodes[d]["rainbow"] = list(rng.permutation(q).tolist())
    G = rdp.RainbowGraph(g, outs)
    P = rng.dirichlet(np.full(q, 0.7), size=n)
    if seed % 3 == 0:  # zeros: infinite loss in one order only
        P[rng.integers(n), rng.integers(q)] = 0.0
        P /= P.sum(axis=1, keepdims=True)
    return G, rdp.Mechanism(G, P), arcs


def brute_delta(P, arcs, eps: float) -> float:
    x = math.exp(eps)
    return max(
        (math.fsum(max(a - x * b, 0.0) for a, b in zip(P[u], P[v], strict=True)) for u, v in arcs),
        default=0.0,
    )


def brute_pdp(P, arcs, eps: float) -> Fraction:
    # Kadam et al., Definition 2: mass where P_u(v) > e^eps P_v(v), decided exactly
    enc = rdp.exp_bounds(eps)
    lo = enc[0]
    out = Fraction(0)
    for u, v in arcs:
        s = sum(
            (
                Fraction(a)
                for a, b in zip(P[u], P[v], strict=True)
                if Fraction(a) > lo * Fraction(b)
            ),
            Fraction(0),
        )
        out = max(out, s)
    return out


@pytest.mark.parametrize("seed", range(40))
def test_verify_equals_one_order_brute_force(seed):
    G, M, arcs = random_digraph(seed)
    P = M.probabilities
    assert G.directed
    for eps in (0.0, 0.3, 1.5):
        r = rdp.verify(M, epsilon=eps, delta=0.0)
        want = brute_delta(P, arcs, eps)
        assert r.delta_required >= want - 1e-15
        assert r.delta_required <= want + 1e-12
        assert r.worst_edge is None or (
            G.index_of(r.worst_edge[0]),
            G.index_of(r.worst_edge[1]),
        ) in {(u, v) for u, v in arcs}
        prof = rdp.privacy_profile(M, [eps])
        assert prof[0] == r.delta_required


@pytest.mark.parametrize("seed", range(30))
def test_undirected_equals_directed_with_both_arcs(seed):
    G, M, _ = random_digraph(seed, both=True)
    und = rdp.RainbowGraph(nx.Graph(G.graph), G.outputs)
    Mu = rdp.Mechanism(und, M.probabilities[[G.index_of(d) for d in und.nodes]])
    for eps in (0.0, 0.7):
        assert (
            rdp.verify(M, epsilon=eps).delta_required == rdp.verify(Mu, epsilon=eps).delta_required
        )
        assert rdp.pdp_delta(M, eps) == rdp.pdp_delta(Mu, eps)
    for dlt in (0.0, 0.1):
        # both are the exact epsilon rounded up (by at most ~1e-13 relative), each proved
        e, eu = rdp.epsilon_for_delta(M, dlt), rdp.epsilon_for_delta(Mu, dlt)
        assert e == eu or abs(e - eu) <= 1e-12 * max(1.0, e)
        if math.isfinite(e):
            assert rdp.certify(M, epsilon=e, delta=dlt).verdict == "private"


@pytest.mark.parametrize("seed", range(30))
def test_epsilon_pdp_and_certify_respect_arcs(seed):
    _, M, arcs = random_digraph(seed)
    P = M.probabilities
    for dlt in (0.0, 0.05):
        e = rdp.epsilon_for_delta(M, dlt)
        if math.isinf(e):
            # some arc puts more than delta on outputs the head never produces
            assert any(
                math.fsum(a for a, b in zip(P[u], P[v], strict=True) if b == 0) > dlt
                for u, v in arcs
            )
            continue
        assert brute_delta(P, arcs, e) <= dlt + 1e-12
        assert rdp.certify(M, epsilon=e, delta=dlt).verdict == "private"
        if e > 1e-9:  # tight: slightly less is not enough
            assert brute_delta(P, arcs, e * (1 - 1e-6)) > dlt - 1e-12
    for eps in (0.2, 1.0):
        assert rdp.pdp_delta(M, eps) >= float(brute_pdp(P, arcs, eps))
        assert rdp.pdp_delta(M, eps) <= float(brute_pdp(P, arcs, eps)) + 1e-12


def test_one_way_is_weaker_than_two_way():
    # 0 -> 1 only: P_0 <= e^eps P_1; the reverse ratio may be anything (here infinite)
    g = nx.DiGraph([(0, 1)])
    nx.set_node_attributes(g, {0: ["x", "y"], 1: ["x", "y"]}, "rainbow")
    G = rdp.RainbowGraph(g, ["x", "y"])
    M = rdp.Mechanism(G, [[1.0, 0.0], [0.5, 0.5]])
    r = rdp.verify(M, epsilon=math.log(2))
    # 1 <= 2 * 0.5 and 0 <= 2 * 0.5 (float ln 2 is one ulp below ln 2: delta is ~1e-17)
    assert r.is_private and r.delta_required < 1e-16
    e = rdp.epsilon_for_delta(M, 0.0)
    assert 0 <= e - math.log(2) < 1e-12
    e = rdp.epsilon_for_delta(M, 0.4)  # 1 - x / 2 <= 0.4 iff x >= 1.2
    assert 0 <= e - math.log(1.2) < 1e-12
    und = rdp.RainbowGraph(nx.Graph(g), ["x", "y"])
    Mu = rdp.Mechanism(und, M.probabilities)
    assert math.isinf(rdp.epsilon_for_delta(Mu, 0.4))  # 0.5 of P_1 where P_0 is 0
    # PDP: P_0(x) = 1 > e^eps P_1(x) = 0.5 e^eps leaks 1 until eps >= ln 2; the reverse leaks
    # P_1(y) = 0.5 at every eps, on the undirected graph only
    assert rdp.pdp_delta(M, 0.0) == 1.0 and rdp.pdp_delta(Mu, 0.0) == 1.0
    assert rdp.pdp_delta(M, 0.8) == 0.0 and rdp.pdp_delta(Mu, 0.8) == 0.5


@pytest.mark.parametrize("seed", range(12))
def test_lp_on_directed_graph_is_optimal_over_one_way_constraints(seed):
    G, _, arcs = random_digraph(seed)
    eps, dlt = 0.5, [0.0, 0.1][seed % 2]
    res = rdp.design.lp(G, epsilon=eps, delta=dlt)
    assert brute_delta(res.mechanism.probabilities, arcs, eps) <= dlt + 1e-12
    assert rdp.certify(res.mechanism, epsilon=eps, delta=dlt).verdict == "private"
    both = rdp.RainbowGraph(nx.Graph(G.graph), G.outputs)
    res2 = rdp.design.lp(both, epsilon=eps, delta=dlt)
    # fewer constraints: at least as good (node order differs, the objective does not)
    assert res.objective >= res2.objective - 1e-9
    pd = rdp.design.milp(G, epsilon=eps, delta=0.1)
    assert float(brute_pdp(pd.mechanism.probabilities, arcs, eps)) <= 0.1


def test_directed_circulant_is_kadams_ordered_pairs():
    # Kadam et al. eqs. (6)-(7): mu = Q(X) - Q(X'), and the pair (X, X') compares f(eta) with
    # f(eta + mu): the arc q -> q - mu, since P_q(v) = f(v - q) and P_{q - mu}(v) = f(v - q + mu)
    G = builders.circulant(6, [1, 2], directed=True)
    assert G.directed and G.n_edges == 14
    assert {tuple(e) for e in G.edges.tolist()} == {
        (q, (q - mu) % 7) for q in range(7) for mu in (1, 2)
    }
    f = np.array([0.4, 0.25, 0.1, 0.05, 0.05, 0.05, 0.1])
    q = np.arange(7)
    M = rdp.Mechanism(G, f[(q[None, :] - q[:, None]) % 7])
    eps = 0.5
    # the paper's leakage: max over mu of sum_eta f(eta) [f(eta) > e^eps f(eta + mu)]
    x = math.exp(eps)
    paper = max(math.fsum(f[e] for e in range(7) if f[e] > x * f[(e + mu) % 7]) for mu in (1, 2))
    assert rdp.pdp_delta(M, eps) == pytest.approx(paper, abs=1e-15)
    Mu = rdp.Mechanism(builders.circulant(6, [1, 2]), M.probabilities)
    assert rdp.pdp_delta(Mu, eps) >= rdp.pdp_delta(M, eps)


def test_symmetric_operations_reject_directed_graphs():
    G = builders.circulant(4, [1], directed=True)
    for call in (
        lambda: rdp.boundary_graph(G),
        lambda: rdp.distances_to_boundary(G),
        lambda: rdp.optimal_mechanism(G, epsilon=1.0, delta=0.0, boundary={}),
        lambda: rdp.Morphism(G, G, {d: d for d in G.nodes}),
    ):
        with pytest.raises(InvalidGraphError, match="must be undirected"):
            call()


def test_directed_graph_files_round_trip(tmp_path):
    G = builders.from_records([0, 1], size=2, query=sum, outputs=[0, 1, 2], relation="add_only")
    assert G.directed and G.n_edges == 6  # () -> (0), (1); (0) -> (0,0), (0,1); (1) -> (0,1), (1,1)
    M = rdp.Mechanism(G, np.full((G.n_nodes, 3), 1 / 3))
    path = rdp.save_graph(G, tmp_path / "g.json", mechanism=M)
    H = rdp.load_graph(path)
    assert H.directed
    assert {(H.nodes[a], H.nodes[b]) for a, b in H.edges.tolist()} == {
        (G.nodes[a], G.nodes[b]) for a, b in G.edges.tolist()
    }


def test_directed_graphml_is_read_as_directed(tmp_path):
    text = """<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="g0" for="graph" attr.name="outputs" attr.type="string"/>
  <key id="d0" for="node" attr.name="rainbow" attr.type="string"/>
  <graph edgedefault="directed">
    <data key="g0">[0, 1]</data>
    <node id="a"><data key="d0">[0, 1]</data></node>
    <node id="b"><data key="d0">[1, 0]</data></node>
    <edge source="a" target="b"/>
  </graph>
</graphml>
"""
    (tmp_path / "d.graphml").write_text(text, encoding="utf-8")
    G = rdp.load_graph(tmp_path / "d.graphml")
    assert G.directed and G.edges.tolist() == [[0, 1]]


def test_from_edges_directed_keeps_arc_order_and_rejects_repeats():
    G = rdp.RainbowGraph.from_edges(
        [[1, 0], [0, 1]], outputs=[0, 1], rainbow_table=[[0, 1]], rainbow_ids=[0, 0], directed=True
    )
    assert G.edges.tolist() == [[1, 0], [0, 1]] and "directed=True" in repr(G)
    assert isinstance(G.graph, nx.DiGraph)
    with pytest.raises(InvalidGraphError, match="each arc once"):
        rdp.RainbowGraph.from_edges(
            [[1, 0], [1, 0]],
            outputs=[0, 1],
            rainbow_table=[[0, 1]],
            rainbow_ids=[0, 0],
            directed=True,
        )
    with pytest.raises(InvalidGraphError, match="each edge once"):
        rdp.RainbowGraph.from_edges(
            [[1, 0], [0, 1]], outputs=[0, 1], rainbow_table=[[0, 1]], rainbow_ids=[0, 0]
        )
