"""Tests of rainbowdp.morphism: morphisms, pullbacks (Theorem 1), boundary graphs (Def. 8)."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import depth_first_order

from rainbowdp import builders
from rainbowdp.exceptions import InvalidMechanismError, InvalidMorphismError
from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism
from rainbowdp.morphism import (
    INFINITE_DISTANCE_LABEL,
    Morphism,
    _levels_from_bfs,
    boundary_graph,
    distances_to_boundary,
)
from rainbowdp.privacy import verify

from .strategies import epsilons, mechanisms, rainbow_graphs


def _is_morphism(source: RainbowGraph, target: RainbowGraph, index: np.ndarray) -> bool:
    """Definition 4 by brute force over source edges and the networkx target graph."""
    tg = target.graph
    tn = target.nodes
    for u, v in source.edges.tolist():
        a, b = tn[index[u]], tn[index[v]]
        if a != b and not tg.has_edge(a, b):
            return False
    return True


# ---------------------------------------------------------------------- validation
@settings(max_examples=60, deadline=None)
@given(source=rainbow_graphs(max_nodes=6), target=rainbow_graphs(max_nodes=5), data=st.data())
def test_accepts_exactly_the_morphisms(source, target, data):
    index = np.array(
        data.draw(
            st.lists(
                st.integers(0, target.n_nodes - 1), min_size=source.n_nodes, max_size=source.n_nodes
            )
        )
    )
    expected = _is_morphism(source, target, index)
    if expected:
        g = Morphism(source, target, index)
        assert g.index.tolist() == index.tolist()
        # the dict form gives the same morphism
        mapping = {d: target.nodes[i] for d, i in zip(source.nodes, index.tolist(), strict=True)}
        assert Morphism(source, target, mapping).index.tolist() == index.tolist()
        assert g.to_dict() == mapping
    else:
        with pytest.raises(InvalidMorphismError, match="is not a morphism: the source edge"):
            Morphism(source, target, index)


def test_error_messages_name_the_offending_item():
    P3 = builders.line(["a", "b"], 2)
    P2 = builders.line(["a", "b"], 1)
    with pytest.raises(InvalidMorphismError, match=r"no image for source node 2"):
        Morphism(P3, P2, {0: 0, 1: 1})
    with pytest.raises(InvalidMorphismError, match=r"names 7, which is not a node of the source"):
        Morphism(P3, P2, {0: 0, 1: 1, 2: 0, 7: 1})
    with pytest.raises(
        InvalidMorphismError,
        match=r"node 2 to 5, which is not a node of the "
        r"target",
    ):
        Morphism(P3, P2, {0: 0, 1: 1, 2: 5})
    with pytest.raises(InvalidMorphismError, match=r"node 1 to index 3, outside"):
        Morphism(P3, P2, [0, 3, 0])
    with pytest.raises(InvalidMorphismError, match=r"shape \(3,\), got shape \(2,\)"):
        Morphism(P3, P2, [0, 1])
    with pytest.raises(TypeError, match=r"integer array, got an array of dtype float64"):
        Morphism(P3, P2, [0.0, 1.0, 0.0])
    with pytest.raises(TypeError, match=r"`source` must be a RainbowGraph"):
        Morphism(nx.path_graph(2), P2, [0, 1])
    with pytest.raises(TypeError, match=r"`mapping` must be a dict"):
        Morphism(P3, P2, "abc")
    with pytest.raises(TypeError, match=r"`mapping` must be a dict.*mapping=\[\[0\], \[1, 0\]\]"):
        Morphism(P3, P2, [[0], [1, 0]])
    # path 0-1-2-3 onto path 0-1-2 with 0->0, 1->1, 2->2, 3->0: the edge (2, 3) breaks it
    P4 = builders.line(["a", "b"], 3)
    with pytest.raises(
        InvalidMorphismError, match=r"source edge \(2, 3\) is sent to \(2, 0\), which are distinct"
    ):
        Morphism(P4, P3, [0, 1, 2, 0])


def test_collapsing_edges_is_allowed_and_call_gives_images():
    C5 = builders.cycle([("a", "b")] * 5)
    point = builders.line(["a", "b"], 0)
    g = Morphism(C5, point, np.zeros(5, dtype=int))
    assert g(3) == 0 and g.is_rainbow_preserving()
    assert "Morphism(source=" in repr(g)


# ---------------------------------------------------------------------- Theorem 1
@st.composite
def morphism_instances(draw):
    """A target graph with a mechanism and a source graph built so that a random map is a
    morphism: source edges are drawn among pairs whose images are equal or adjacent."""
    m2 = draw(mechanisms(max_nodes=5))
    target = m2.graph
    n1 = draw(st.integers(1, 7))
    index = draw(st.lists(st.integers(0, target.n_nodes - 1), min_size=n1, max_size=n1))
    tg = target.graph
    tn = target.nodes
    allowed = [
        (u, v)
        for u, v in itertools.combinations(range(n1), 2)
        if index[u] == index[v] or tg.has_edge(tn[index[u]], tn[index[v]])
    ]
    edges = draw(st.lists(st.sampled_from(allowed), unique=True)) if allowed else []
    g = nx.Graph()
    g.add_nodes_from(range(n1))
    g.add_edges_from(edges)
    for i in range(n1):
        g.nodes[i]["rainbow"] = list(target.rainbow(tn[index[i]]))
    return RainbowGraph(g, outputs=target.outputs), target, np.array(index), m2


@settings(max_examples=60, deadline=None)
@given(inst=morphism_instances(), eps=epsilons)
def test_pullback_preserves_privacy(inst, eps):
    source, target, index, m2 = inst
    g = Morphism(source, target, index)
    assert g.is_rainbow_preserving()
    pulled = g.pullback(m2)
    assert np.array_equal(pulled.probabilities, m2.probabilities[index])
    # Theorem 1: every delta that makes M2 (eps, delta)-DP makes the pullback DP as well
    need = verify(m2, epsilon=eps).delta_required
    assert verify(pulled, epsilon=eps).delta_required <= need


def test_pullback_reorders_columns_and_checks_its_argument():
    g1 = nx.path_graph(2)
    g1.nodes[0]["rainbow"] = ["x", "y"]
    g1.nodes[1]["rainbow"] = ["x", "y"]
    source = RainbowGraph(g1, outputs=["y", "x"])  # columns in the other order
    target = builders.line(["x", "y"], 1)
    g = Morphism(source, target, [1, 0])
    assert g.is_rainbow_preserving()
    m = Mechanism(target, [[0.9, 0.1], [0.6, 0.4]])
    assert g.pullback(m).probabilities.tolist() == [[0.4, 0.6], [0.1, 0.9]]
    other = builders.line(["x", "y"], 1)
    with pytest.raises(InvalidMechanismError, match=r"must live on the morphism's target"):
        g.pullback(Mechanism(other, [[0.9, 0.1], [0.6, 0.4]]))
    with pytest.raises(TypeError, match=r"`mechanism` must be a Mechanism, got mechanism=ndarray"):
        g.pullback(np.ones((2, 2)) / 2)
    z = builders.line(["x", "z"], 1)
    h = Morphism(source, z, [0, 1])
    assert not h.is_rainbow_preserving()
    with pytest.raises(InvalidMechanismError, match=r"must be the same set"):
        h.pullback(Mechanism(z, [[0.5, 0.5], [0.5, 0.5]]))


def test_rainbow_preservation_detects_a_changed_rainbow():
    G = builders.cycle([("a", "b"), ("a", "b"), ("b", "a")])
    L = builders.line(["a", "b"], 1)
    assert not Morphism(G, L, {0: 0, 1: 1, 2: 0}).is_rainbow_preserving()
    H = builders.cycle([("a", "b")] * 3)
    assert Morphism(H, L, {0: 0, 1: 1, 2: 0}).is_rainbow_preserving()


# ---------------------------------------------------------------------- boundary graph
def _nx_distances(G: RainbowGraph) -> dict:
    """dist(d, ∂B^f(d)) inside the region, from networkx (None when unreachable)."""
    out = {}
    bmask = G.boundary_mask
    for c in G.rainbows:
        region = [d for d in G.nodes if G.rainbow(d) == c]
        sources = [d for d in region if bmask[G.index_of(d)]]
        lengths = (
            nx.multi_source_dijkstra_path_length(G.graph.subgraph(region), sources)
            if sources
            else {}
        )
        for d in region:
            out[d] = lengths.get(d)
    return out


@settings(max_examples=80, deadline=None)
@given(G=rainbow_graphs(max_nodes=9, max_rainbows=3))
def test_boundary_graph_matches_definition_8(G):
    dist = _nx_distances(G)
    got = distances_to_boundary(G)
    assert [dist[d] if dist[d] is not None else -1 for d in G.nodes] == got.tolist()
    Gb, g = boundary_graph(G)
    # nodes: (c, 0..d_c) for every rainbow with boundary nodes, (c, "inf") when needed
    expected_nodes = set()
    for c in G.rainbows:
        ds = [dist[d] for d in G.nodes if G.rainbow(d) == c]
        finite = [x for x in ds if x is not None]
        if finite:
            expected_nodes |= {(c, i) for i in range(max(finite) + 1)}
        if any(x is None for x in ds):
            expected_nodes.add((c, INFINITE_DISTANCE_LABEL))
    assert set(Gb.nodes) == expected_nodes
    # edges: chains plus heads joined iff some edge joins the two regions
    expected_edges = {
        frozenset({(c, i), (c, i + 1)})
        for (c, i) in expected_nodes
        if i != INFINITE_DISTANCE_LABEL and (c, i + 1) in expected_nodes
    }
    for u, v in G.graph.edges:
        cu, cv = G.rainbow(u), G.rainbow(v)
        if cu != cv:
            expected_edges.add(frozenset({(cu, 0), (cv, 0)}))
    assert {frozenset(e) for e in Gb.graph.edges} == expected_edges
    # the boundary morphism: d -> (f(d), dist), a rainbow-preserving morphism
    for d in G.nodes:
        want = (G.rainbow(d), dist[d] if dist[d] is not None else INFINITE_DISTANCE_LABEL)
        assert g(d) == want
    assert Morphism(G, Gb, g.index).index.tolist() == g.index.tolist()  # full validation
    assert g.is_rainbow_preserving()
    for lab in Gb.nodes:
        assert Gb.rainbow(lab) == lab[0]
    # the boundary graph is its own boundary graph
    Gbb, gb = boundary_graph(Gb)
    assert Gbb.nodes == Gb.nodes and gb.index.tolist() == list(range(Gb.n_nodes))


def test_declared_boundary_and_line():
    L = builders.line(["a", "b", "c"], 4)
    Gb, g = boundary_graph(L)
    assert Gb.nodes == [(("a", "b", "c"), i) for i in range(5)]
    assert g.index.tolist() == [0, 1, 2, 3, 4]
    assert Gb.boundary_mask.tolist() == [True, False, False, False, False]


def test_levels_fallback_by_pointer_jumping():
    # a depth-first order does not have the FIFO property; depths must still be tree depths
    g = nx.balanced_tree(2, 4)
    A = nx.to_scipy_sparse_array(g, format="csr")
    order, pred = depth_first_order(A, 0, directed=True, return_predecessors=True)
    depth = _levels_from_bfs(order, pred, g.number_of_nodes())
    expected = nx.single_source_shortest_path_length(g, 0)
    assert depth.tolist() == [expected[i] for i in range(g.number_of_nodes())]


def test_distances_need_a_rainbow_graph():
    with pytest.raises(TypeError, match=r"`G` must be a RainbowGraph, got G=Graph"):
        distances_to_boundary(nx.Graph())
