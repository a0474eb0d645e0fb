"""RainbowGraph: validation, regions (Gu et al., Definition 5), derived arrays, builders."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings

from rainbowdp import builders
from rainbowdp.exceptions import InvalidGraphError
from rainbowdp.graph import RainbowGraph

from .strategies import rainbow_graphs


def test_example1_regions():
    # Gu et al., Example 1: B^c = {d1..d4}, boundary {d1, d4}, interior {d2, d3}.
    G = builders.cycle([(1, 2, 3)] * 4 + [(1, 3, 2)])
    assert G.region((1, 2, 3)) == [0, 1, 2, 3]
    assert G.boundary((1, 2, 3)) == [0, 3]
    assert G.interior((1, 2, 3)) == [1, 2]
    assert G.boundary((1, 3, 2)) == [4] and G.interior((1, 3, 2)) == []


@settings(max_examples=80, deadline=None)
@given(rainbow_graphs(max_nodes=8, max_outputs=4))
def test_derived_arrays_agree_with_networkx(G):
    g = G.graph
    # ranks and order are inverse permutations, and order lists the node's rainbow
    n, q = G.n_nodes, G.n_outputs
    assert np.array_equal(
        np.take_along_axis(G.ranks, G.order, axis=1), np.tile(np.arange(q), (n, 1))
    )
    for i, node in enumerate(G.nodes):
        assert [G.outputs[j] for j in G.order[i]] == list(G.rainbow(node))
    # edges and adjacency
    assert {frozenset((G.nodes[a], G.nodes[b])) for a, b in G.edges.tolist()} == {
        frozenset(e) for e in g.edges
    }
    assert (G.adjacency != G.adjacency.T).nnz == 0
    assert G.adjacency.sum() == 2 * G.n_edges
    # Definition 5 by hand: boundary = nodes with a neighbour of another rainbow
    for node in G.nodes:
        on_boundary = any(G.rainbow(nb) != G.rainbow(node) for nb in g.neighbors(node))
        assert G.boundary_mask[G.index_of(node)] == on_boundary
        c = G.rainbow(node)
        assert (node in G.boundary(c)) == on_boundary
        assert (node in G.interior(c)) == (not on_boundary)


@settings(max_examples=40, deadline=None)
@given(rainbow_graphs(max_nodes=8))
def test_from_edges_equals_networkx_construction(G):
    H = RainbowGraph.from_edges(
        G.edges[:, ::-1],
        outputs=G.outputs,
        rainbow_table=G.rainbow_table,
        rainbow_ids=G.rainbow_ids,
        nodes=G.nodes,
    )
    assert np.array_equal(H.edges, G.edges)
    assert np.array_equal(H.ranks, G.ranks)
    assert np.array_equal(H.boundary_mask, G.boundary_mask)
    assert nx.utils.graphs_equal(nx.Graph(H.graph.edges), nx.Graph(G.graph.edges))


def test_line_declares_node_zero_boundary():
    # Gu et al., Definition 7: dataset 0 is the boundary of the (c, n)-line.
    G = builders.line(["r", "g", "b"], 4)
    assert G.boundary(["r", "g", "b"]) == [0]
    assert G.interior(["r", "g", "b"]) == [1, 2, 3, 4]
    assert G.graph.graph["boundary"] == [0]


def test_circulant_is_the_modulo_neighbourhood():
    # Kadam et al.: q ~ q + mu (mod n + 1) for mu in M.
    G = builders.circulant(8, [1, 2, 3])
    assert G.n_edges == 27
    expected = {frozenset((q, (q + mu) % 9)) for q in range(9) for mu in (1, 2, 3)}
    assert {frozenset(e) for e in G.edges.tolist()} == expected
    # rows are shifts: node q prefers q, q+1, ... (distortion eta = q~ - q mod 9)
    for q in range(9):
        assert G.rainbow(q) == tuple((q + k) % 9 for k in range(9))
    # mu and n+1-mu give the same edges; mu = (n+1)/2 gives each edge once
    assert builders.circulant(7, [4]).n_edges == 4
    # circular distortion: ties broken by eta, so rows stay shifts
    G2 = builders.circulant(4, [1], distortion=[0, 1, 2, 2, 1])
    assert G2.rainbow(0) == (0, 1, 4, 2, 3) and G2.rainbow(1) == (1, 2, 0, 3, 4)


def test_from_query_and_count_path():
    G = builders.count_path(3)
    assert G.rainbow(0) == (0, 1, 2, 3) and G.rainbow(2) == (2, 1, 3, 0)
    assert G.answers == (0, 1, 2, 3)
    g = nx.path_graph(3)
    nx.set_node_attributes(g, {0: "x", 1: "y", 2: "y"}, "answer")
    H = RainbowGraph.from_query(g, ["x", "y", "z"])  # 0/1 loss for non-numbers, stable ties
    assert H.rainbow(0) == ("x", "y", "z") and H.rainbow(1) == ("y", "x", "z")
    K = RainbowGraph.from_query(
        nx.path_graph(2), [0, 1, 2], answer={0: 2, 1: 0}, loss=lambda v, a: (v - a) ** 2
    )
    assert K.rainbow(0) == (2, 1, 0)


def test_from_records_neighbourhoods():
    # add/remove one record over the universe {a, b}, datasets of at most 2 records
    G = builders.from_records(["a", "b"], size=2, query=len, outputs=[0, 1, 2])
    assert set(G.nodes) == {(), ("a",), ("b",), ("a", "a"), ("a", "b"), ("b", "b")}
    assert G.graph.has_edge(("a",), ("a", "b")) and not G.graph.has_edge((), ("a", "b"))
    assert G.rainbow(("a", "b")) == (2, 1, 0)
    # replace one record: datasets of exactly 2 records, neighbours differ in one record
    R = builders.from_records(
        ["a", "b", "c"],
        size=2,
        query=lambda d: d.count("a"),
        outputs=[0, 1, 2],
        relation="replace_one",
        multiset=False,
    )
    assert set(R.nodes) == {("a", "b"), ("a", "c"), ("b", "c")}
    assert R.n_edges == 3


@pytest.mark.parametrize(
    ("make", "exc", "match"),
    [
        (lambda: RainbowGraph(nx.MultiGraph([(0, 1)]), [0]), InvalidGraphError, "multigraph"),
        (lambda: RainbowGraph(nx.Graph(), [0]), InvalidGraphError, "empty"),
        (lambda: RainbowGraph([(0, 1)], [0]), TypeError, "graph=list"),
        (lambda: RainbowGraph(nx.Graph([(0, 0)]), [0]), InvalidGraphError, r"self-loops.*\(0, 0\)"),
        (lambda: builders.line(["a", "a"], 2), InvalidGraphError, "'a' twice"),
        (lambda: builders.line([["a"], "b"], 2), TypeError, "unhashable output"),
        (
            lambda: builders.line([], 2),
            InvalidGraphError,
            r"`rainbow` must not be empty.*rainbow=\[\]",
        ),
        (lambda: builders.line(["a"], -1), ValueError, "n=-1"),
        (lambda: builders.circulant(4, [0]), ValueError, "distances=0"),
        (lambda: builders.cycle([(0, 1)] * 2), InvalidGraphError, "got 2"),
    ],
)
def test_bad_graphs(make, exc, match):
    with pytest.raises(exc, match=match):
        make()


def test_bad_rainbows_name_the_node():
    g = nx.path_graph(3)
    nx.set_node_attributes(g, {0: [0, 1], 1: [0, 1]}, "rainbow")
    with pytest.raises(InvalidGraphError, match="node 2 has no `rainbow`"):
        RainbowGraph(g, [0, 1])
    g.nodes[2]["rainbow"] = [0, 0]
    with pytest.raises(InvalidGraphError, match=r"node 2 must be a permutation.*\[0, 0\]"):
        RainbowGraph(g, [0, 1])
    g.nodes[2]["rainbow"] = [0, 5]
    with pytest.raises(InvalidGraphError, match=r"node 2.*\[0, 5\]"):
        RainbowGraph(g, [0, 1])


def test_from_edges_rejects_bad_arrays():
    kw = {"outputs": [0, 1], "rainbow_table": [[0, 1]], "rainbow_ids": [0, 0, 0]}
    with pytest.raises(InvalidGraphError, match=r"\[1, 2\] twice"):
        RainbowGraph.from_edges([[1, 2], [2, 1]], **kw)
    with pytest.raises(InvalidGraphError, match=r"self-loops.*\[1, 1\]"):
        RainbowGraph.from_edges([[1, 1]], **kw)
    with pytest.raises(InvalidGraphError, match=r"\[0, 3\]"):
        RainbowGraph.from_edges([[0, 3]], **kw)
    with pytest.raises(InvalidGraphError, match=r"row 0 .*\[1, 1\]"):
        RainbowGraph.from_edges(
            [[0, 1]], outputs=[0, 1], rainbow_table=[[1, 1]], rainbow_ids=[0, 0, 0]
        )
    with pytest.raises(InvalidGraphError, match="no node has the rainbow"):
        builders.line([0, 1], 2).region([1, 0])


def test_the_callers_graph_is_copied(tmp_path):
    from rainbowdp.io import load, save_graph
    from rainbowdp.mechanism import Mechanism
    from rainbowdp.privacy import verify

    g = nx.path_graph(3)
    nx.set_node_attributes(g, {0: ["a", "b"], 1: ["a", "b"], 2: ["b", "a"]}, "rainbow")
    g.graph["description"] = "before"
    G = RainbowGraph(g, ["a", "b"])
    M = Mechanism(G, [[0.6, 0.4], [0.6, 0.4], [0.4, 0.6]])
    before = verify(M, epsilon=0.1)
    # the caller edits its graph afterwards ...
    g.add_edge(0, 2)
    g.add_node(9, rainbow=["a", "b"])
    g.nodes[0]["rainbow"] = ["b", "a"]
    g.nodes[1]["colour"] = "red"
    g.graph["description"] = "after"
    # ... and neither the verifier nor the file sees it
    assert G.n_nodes == 3 and G.n_edges == 2 and G.rainbow(0) == ("a", "b")
    assert verify(M, epsilon=0.1).delta_required == before.delta_required
    H, N = load(save_graph(G, tmp_path / "g.json", mechanism=M))
    assert H.nodes == [0, 1, 2] and np.array_equal(H.edges, G.edges)
    assert H.rainbow(0) == ("a", "b") and "colour" not in H.graph.nodes[1]
    assert H.graph.graph["description"] == "before"
    assert np.array_equal(N.probabilities, M.probabilities)


def test_the_networkx_view_is_frozen_and_agrees_with_the_arrays():
    g = nx.path_graph(2)
    nx.set_node_attributes(g, {0: ("a", "b"), 1: np.array(["b", "a"])}, "rainbow")
    G = RainbowGraph(g, ("a", "b"))
    assert G.graph.nodes[1]["rainbow"] == ["b", "a"] and G.rainbow(1) == ("b", "a")
    with pytest.raises(nx.NetworkXError, match="Frozen"):
        G.graph.add_edge(0, 5)
    editable = nx.Graph(G.graph)
    editable.add_edge(0, 5)
    assert G.n_edges == 1 and G.graph.number_of_edges() == 1
    # graphs built from arrays hold no networkx graph until asked, then a frozen one
    H = RainbowGraph.from_edges(
        [[0, 1]], outputs=["a", "b"], rainbow_table=[[0, 1]], rainbow_ids=[0, 0]
    )
    assert H._nx is None
    assert nx.is_frozen(H.graph) and sorted(H.graph.edges) == [(0, 1)]


def test_rainbows_are_ordered_sequences():
    g = nx.path_graph(3)
    rainbows = {0: [0, 1, 2], 1: (0, 1, 2), 2: range(3)}
    nx.set_node_attributes(g, rainbows, "rainbow")
    assert RainbowGraph(g, [0, 1, 2]).rainbow_table.shape == (1, 3)
    for unordered in ({0, 1, 2}, frozenset({0, 1, 2}), {0: "x", 1: "y", 2: "z"}):
        g.nodes[2]["rainbow"] = unordered
        with pytest.raises(InvalidGraphError, match=r"node 2 must be a sequence"):
            RainbowGraph(g, [0, 1, 2])
    # booleans are outputs of their own: True is not the output 1
    B = builders.line([True, False], 1)
    assert B.rainbow(0) == (True, False) and B.region([True, False]) == [0, 1]
    with pytest.raises(InvalidGraphError, match="booleans and integers"):
        builders.line([0, 1], 1).region([False, True])


def test_answers_given_to_the_constructor():
    g = nx.path_graph(3)
    nx.set_node_attributes(g, {0: [0, 1], 1: [0, 1], 2: [1, 0]}, "rainbow")
    assert RainbowGraph(g, [0, 1], answers=[0, 0, 1]).answers == (0, 0, 1)
    assert RainbowGraph(g, [0, 1], answers={2: 1, 0: 0, 1: 0}).answers == (0, 0, 1)
    assert RainbowGraph(g, [0, 1]).answers is None
    with pytest.raises(ValueError, match=r"`answers` must have one answer per node \(3\)"):
        RainbowGraph(g, [0, 1], answers=[0, 1])
    with pytest.raises(ValueError, match=r"`answers` has no answer for node 2"):
        RainbowGraph(g, [0, 1], answers={0: 0, 1: 0})
    with pytest.raises(TypeError, match=r"`answers` must be an ordered sequence.*a set"):
        RainbowGraph(g, [0, 1], answers={0, 1, 2})


# ------------------------------------------------------------------ objects that read well
def _wide_graph(n_outputs=1000, n_nodes=300):
    rng = np.random.default_rng(0)
    table = np.array([rng.permutation(n_outputs) for _ in range(40)])
    return RainbowGraph.from_edges(
        [[i, i + 1] for i in range(n_nodes - 1)],
        outputs=[f"out{j}" for j in range(n_outputs)],
        rainbow_table=table,
        rainbow_ids=np.arange(n_nodes) % 40,
    )


def test_repr_is_one_short_line_whatever_the_size():
    G = _wide_graph()
    text = repr(G)
    assert "\n" not in text and len(text) < 200, text
    assert "n_nodes=300" in text and "n_outputs=1000" in text and "'out0'" in text
    assert "'out999'" in text and "'out500'" not in text  # the ends, not the middle
    small = builders.line(["yes", "no"], 2)
    assert "outputs=('yes', 'no')" in repr(small)  # few outputs are all shown


def test_html_view_is_a_small_table_of_rainbows():
    G = _wide_graph()
    page = G._repr_html_()
    assert page.startswith("<table>") and len(page) < 20_000
    assert page.count("<tr>") == 1 + 20 + 1  # header, 20 rainbows, "... 20 more rows"
    assert "20 more rows" in page and "300 nodes" in page
    # each rainbow's node count, from the graph's own ids
    counts = np.bincount(G.rainbow_ids)
    assert f"<td>0</td><td>{counts[0]}</td>" in page


def test_an_unknown_node_says_what_nodes_look_like():
    G = RainbowGraph.from_edges(
        [[0, 1]], outputs=["a", "b"], rainbow_table=[[0, 1]], rainbow_ids=[0, 0],
        nodes=[(0, 1), (1, 1)],
    )  # fmt: skip
    with pytest.raises(InvalidGraphError) as info:
        G.index_of([1, 1])
    msg = str(info.value)
    assert "tuples such as (0, 1)" in msg and "got list [1, 1]" in msg
    assert "use the tuple (1, 1)" in msg
    with pytest.raises(InvalidGraphError, match=r"integers such as 0; got str '3'"):
        builders.line(["a", "b"], 3).index_of("3")
    with pytest.raises(InvalidGraphError, match=r"got list \[\[1\]\]\.$"):  # unhashable items
        G.index_of([[1]])
