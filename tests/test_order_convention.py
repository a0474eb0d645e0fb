"""One order convention: boundaries and mechanisms in outputs order or in rainbow order."""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import warnings

import networkx as nx
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rainbowdp import builders, certify
from rainbowdp.boundary import PERMUTED_RULE
from rainbowdp.bundled import graphs_dir
from rainbowdp.cli import main
from rainbowdp.exceptions import (
    GraphFileError,
    InvalidBoundaryError,
    InvalidMechanismError,
    ParameterError,
    ParameterTypeError,
    PermutedBoundaryWarning,
)
from rainbowdp.graph import RainbowGraph
from rainbowdp.io import load, load_assignment, load_graph
from rainbowdp.mechanism import Mechanism
from rainbowdp.optimal import homogeneous_boundary, optimal_mechanism

from .strategies import rainbow_graphs

THREE = builders.cycle([("blue", "red", "green")] * 4 + [("red", "green", "blue")] * 3)
#: Gu et al., Section 5.3 (last entry 1 minus the others) and Example 1: boundary rows with
#: their largest mass on the least preferred output.
GU_53 = [0.0005, 0.0081, 0.1364, 0.2727, 0.5823]
EX1_D1, EX1_D4 = [0.2, 0.1, 0.7], [0.4, 0.1, 0.5]


def rainbow_rows(G: RainbowGraph, rows_out: dict) -> dict:
    """The same boundary written in rainbow order, by hand: entry k on the k-th preference."""
    return {c: [rows_out[c][G.output_index[o]] for o in c] for c in rows_out}


def valid_rows(G: RainbowGraph, eps: float, delta: float, rng, vectors) -> dict:
    """Rows (outputs order) that mix uniform with ``vectors[c]`` (rainbow order) by a weight
    small enough for validity: λ(q + e^ε − 1) <= e^ε − 1 bounds every ratio by e^ε, λ <= δ
    the total variation by δ (as in tests/test_optimal.py)."""
    q = G.n_outputs
    x = math.exp(eps)
    lam = 0.99 * max((x - 1.0) / (q + x - 1.0), delta)
    lam = min(lam, 1.0) * rng.uniform(0.2, 1.0)
    out = {}
    for c, v in vectors.items():
        m = (1.0 - lam) / q + lam * np.asarray(v, dtype=float)
        row = np.empty(q)
        row[[G.output_index[o] for o in c]] = m
        out[c] = row.tolist()
    return out


@contextlib.contextmanager
def no_permuted_warning():
    """Fail on a PermutedBoundaryWarning (whatever the global warning filters)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", PermutedBoundaryWarning)
        yield


def assert_private(M: Mechanism, eps: float, delta: float) -> None:
    assert certify(M, epsilon=eps, delta=delta).verdict == "private"


# ---------------------------------------------------------------------- Mechanism(order=...)
def test_mechanism_order_keyword_matches_from_rainbow_order():
    rng = np.random.default_rng(1)
    v = rng.dirichlet(np.ones(3), size=THREE.n_nodes)
    a = Mechanism(THREE, v, order="rainbow")
    b = Mechanism.from_rainbow_order(THREE, v)
    assert np.array_equal(a.probabilities, b.probabilities)
    assert np.array_equal(a.in_rainbow_order(), v)
    c = Mechanism(THREE, dict(zip(THREE.nodes, v.tolist(), strict=True)), order="rainbow")
    assert np.array_equal(c.probabilities, a.probabilities)
    d = Mechanism(THREE, a.probabilities, order="outputs")
    assert np.array_equal(d.probabilities, Mechanism(THREE, a.probabilities).probabilities)
    # node 4 prefers red: its row [0.6, 0.3, 0.1] in rainbow order is red 0.6, green 0.3, blue 0.1
    e = Mechanism(THREE, [[0.6, 0.3, 0.1]] * THREE.n_nodes, order="rainbow")
    assert e.row(4).tolist() == [0.1, 0.6, 0.3] and e.row(0).tolist() == [0.6, 0.3, 0.1]


@pytest.mark.parametrize(
    ("order", "error", "match"),
    [
        ("preference", ParameterError, r"`order` must be 'outputs' or 'rainbow'.*'preference'"),
        (None, ParameterTypeError, r"`order`.*order=None"),
        (1, ParameterTypeError, r"`order`.*order=1"),
    ],
)
def test_mechanism_rejects_bad_order(order, error, match):
    with pytest.raises(error, match=match):
        Mechanism(THREE, [[1 / 3] * 3] * THREE.n_nodes, order=order)


def test_mechanism_in_rainbow_order_still_validates_rows():
    rows = [[0.6, 0.3, 0.1]] * THREE.n_nodes
    rows[5] = [0.6, 0.3, 0.2]
    with pytest.raises(InvalidMechanismError, match=r"node 5 must sum to 1"):
        Mechanism(THREE, rows, order="rainbow")


# ---------------------------------------------------------------------- the homogeneous helper
def test_homogeneous_boundary_equals_the_hand_built_dict():
    G = load_graph(graphs_dir() / "three_colour.json")
    v = [0.5, 0.3, 0.2]
    by_hand = {}
    for c in G.rainbows:
        row = [0.0] * G.n_outputs
        for w, o in zip(v, c, strict=True):
            row[G.output_index[o]] = w
        by_hand[c] = row
    assert homogeneous_boundary(G, v) == by_hand
    a = optimal_mechanism(G, epsilon=1.0, boundary=by_hand, order="outputs")
    b = optimal_mechanism(G, epsilon=1.0, boundary=v, order="rainbow")
    c = optimal_mechanism(G, epsilon=1.0, boundary=homogeneous_boundary(G, v))
    assert np.array_equal(a.probabilities, b.probabilities)
    assert np.array_equal(a.probabilities, c.probabilities)
    # every boundary node gets v along its own rainbow
    assert np.allclose(b.in_rainbow_order()[G.boundary_mask], v, rtol=0, atol=1e-12)
    assert_private(b, 1.0, 0.0)


@pytest.mark.parametrize(
    ("vector", "error", "match"),
    [
        ([0.5, 0.5], ParameterError, r"`vector` must have 3 entries.*\[0\.5, 0\.5\]"),
        ([0.5, 0.3, 0.3], ParameterError, r"`vector` must sum to 1.*0\.5, 0\.3, 0\.3"),
        ([0.5, 0.6, -0.1], ParameterError, r"`vector` must be non-negative"),
        (["0.5", "0.3", "0.2"], ParameterTypeError, r"`vector` must hold real numbers"),
        ([[0.5, 0.3, 0.2]], ParameterError, r"`vector` must be one-dimensional"),
    ],
)
def test_homogeneous_boundary_rejects_bad_vectors(vector, error, match):
    with pytest.raises(error, match=match):
        homogeneous_boundary(THREE, vector)


def test_a_single_vector_needs_a_stated_order():
    with pytest.raises(TypeError, match=r"`boundary` must be a mapping.*order='rainbow'"):
        optimal_mechanism(THREE, epsilon=1.0, boundary=[0.5, 0.3, 0.2])
    with pytest.raises(InvalidBoundaryError, match=r"`boundary` must have 3 entries"):
        optimal_mechanism(THREE, epsilon=1.0, boundary=[0.5, 0.5], order="rainbow")
    with pytest.raises(TypeError, match=r"`boundary` must be a mapping.*'abc'"):
        optimal_mechanism(THREE, epsilon=1.0, boundary="abc", order="rainbow")
    with pytest.raises(ParameterError, match=r"`order` must be 'outputs' or 'rainbow'.*'rows'"):
        optimal_mechanism(THREE, epsilon=1.0, boundary={}, order="rows")
    # with order='outputs' the vector is the same row over the outputs at every boundary
    M = optimal_mechanism(THREE, epsilon=1.0, boundary=[0.5, 0.3, 0.2], order="outputs")
    assert np.array_equal(M.probabilities[THREE.boundary_mask], np.tile([0.5, 0.3, 0.2], (4, 1)))


# ---------------------------------------------------------------------- both orders, one result
@settings(max_examples=25, deadline=None, derandomize=True)
@given(
    G=rainbow_graphs(connected=True, max_nodes=6, max_outputs=4),
    eps=st.sampled_from([0.0, 0.3, math.log(2), 1.5]),
    delta=st.sampled_from([0.0, 1e-3, 0.1]),
    seed=st.integers(0, 2**32 - 1),
    node_wise=st.booleans(),
)
def test_the_same_boundary_in_both_orders_gives_the_same_mechanism(G, eps, delta, seed, node_wise):
    rng = np.random.default_rng(seed)
    q = G.n_outputs
    vecs = {c: rng.dirichlet(np.ones(q) * 0.5) for c in G.rainbows}
    rows_out = valid_rows(G, eps, delta, rng, vecs)
    rows_rb = rainbow_rows(G, rows_out)
    if node_wise:
        bnodes = [G.nodes[i] for i in np.flatnonzero(G.boundary_mask)]
        rows_out = {d: rows_out[G.rainbow(d)] for d in bnodes}
        rows_rb = {d: rows_rb[G.rainbow(d)] for d in bnodes}
    a = optimal_mechanism(G, epsilon=eps, delta=delta, boundary=rows_out, order="outputs")
    b = optimal_mechanism(G, epsilon=eps, delta=delta, boundary=rows_rb, order="rainbow")
    assert np.array_equal(a.probabilities, b.probabilities)
    assert_private(b, eps, delta)


def test_node_wise_rows_in_rainbow_order_follow_each_nodes_rainbow():
    # Gu et al., Example 1 graph: d5 (node 4) prefers 1 > 3 > 2
    G = builders.cycle([(1, 2, 3)] * 4 + [(1, 3, 2)])
    eps = math.log(2)
    by_rainbow = {(1, 2, 3): EX1_D4, (1, 3, 2): [0.3, 0.6, 0.1]}  # rainbow order
    by_node = {0: EX1_D4, 3: EX1_D4, 4: [0.3, 0.6, 0.1]}
    a = optimal_mechanism(G, epsilon=eps, boundary=by_rainbow, order="rainbow")
    b = optimal_mechanism(G, epsilon=eps, boundary=by_node, order="rainbow")
    c = optimal_mechanism(G, epsilon=eps, boundary={0: EX1_D4, 3: EX1_D4, 4: [0.3, 0.1, 0.6]})
    assert np.array_equal(a.probabilities, b.probabilities)
    assert np.array_equal(a.probabilities, c.probabilities)
    assert a.row(4).tolist() == [0.3, 0.1, 0.6]
    assert_private(a, eps, 0.0)


# ---------------------------------------------------------------------- the permuted-order rule
def test_the_demo_mix_up_warns_naming_rainbows_order_and_row():
    # [0.5, 0.3, 0.2] meant along each rainbow but given as a row over (blue, red, green):
    # nodes preferring red would output blue with probability 0.5
    mixed = {c: [0.5, 0.3, 0.2] for c in THREE.rainbows}
    with pytest.warns(PermutedBoundaryWarning) as rec:
        M = optimal_mechanism(THREE, epsilon=1.0, boundary=mixed)
    assert len(rec) == 1
    msg = str(rec[0].message)
    assert "('red', 'green', 'blue')" in msg and "('blue', 'red', 'green')" in msg
    assert "[0.5, 0.3, 0.2]" in msg and "[0.3, 0.2, 0.5]" in msg  # the row, and as red sees it
    assert PERMUTED_RULE in msg and "`order`" in msg and '"order"' in msg
    assert rec[0].filename == __file__  # points at the caller
    assert_private(M, 1.0, 0.0)
    # stating the order silences it, and both statements give what they say
    with no_permuted_warning():
        as_rows = optimal_mechanism(THREE, epsilon=1.0, boundary=mixed, order="outputs")
        as_rb = optimal_mechanism(THREE, epsilon=1.0, boundary=mixed, order="rainbow")
    assert np.array_equal(as_rows.probabilities, M.probabilities)
    assert as_rb.row(4).tolist() == [0.2, 0.5, 0.3]  # red 0.5, green 0.3, blue 0.2
    assert as_rows.row(4).tolist() == [0.5, 0.3, 0.2]


def test_node_wise_mix_up_warns_too():
    bnodes = [THREE.nodes[i] for i in np.flatnonzero(THREE.boundary_mask)]
    with pytest.warns(PermutedBoundaryWarning, match=r"same row \[0\.6, 0\.4, 0\]"):
        optimal_mechanism(THREE, epsilon=1.0, boundary={d: [0.6, 0.4, 0.0] for d in bnodes})


@pytest.mark.parametrize(
    "rows",
    [
        # uniform: both readings agree
        {("blue", "red", "green"): [1 / 3] * 3, ("red", "green", "blue"): [1 / 3] * 3},
        # homogeneous in rainbow order, written correctly over the outputs
        {("blue", "red", "green"): [0.5, 0.3, 0.2], ("red", "green", "blue"): [0.2, 0.5, 0.3]},
        # the same increasing row for both (mass on blue, least preferred by one of them):
        # read in rainbow order it would not dominate, so it is not a mix-up of a ranking
        {("blue", "red", "green"): [0.2, 0.3, 0.5], ("red", "green", "blue"): [0.2, 0.3, 0.5]},
        # Gu et al., Example 1: a row with most mass on the least preferred output
        {("blue", "red", "green"): EX1_D4, ("red", "green", "blue"): [0.3, 0.2, 0.5]},
        # ... and the same row for both: read in rainbow order, (0.4, 0.1, 0.5) would give red
        # more on its top output but less on its top two (0.5 < 0.6): no dominance, no warning
        {("blue", "red", "green"): EX1_D4, ("red", "green", "blue"): EX1_D4},
    ],
)
def test_natural_boundaries_do_not_warn(rows):
    with no_permuted_warning():
        M = optimal_mechanism(THREE, epsilon=1.0, boundary=rows)
    assert_private(M, 1.0, 0.0)


def _path(outputs, rainbows, boundary) -> RainbowGraph:
    g = nx.path_graph(len(rainbows))
    for v, c in enumerate(rainbows):
        g.nodes[v]["rainbow"] = list(c)
    return RainbowGraph(g, outputs=outputs, boundary=boundary)


def test_one_vector_along_every_rainbow_never_warns():
    # m = (0.1, 0.1, 0.8) along (a, b, c) and (b, a, c) is the same row over the outputs; listed
    # as (c, a, b) that row is [0.8, 0.1, 0.1], which read in rainbow order would dominate m --
    # but both rainbows get the same vector m, so the condition is homogeneous in rainbow order
    # and is not flagged
    G = _path(["c", "a", "b"], [("a", "b", "c")] * 3 + [("b", "a", "c")] * 3, [0, 5])
    rows = homogeneous_boundary(G, [0.1, 0.1, 0.8])
    assert rows[("a", "b", "c")] == rows[("b", "a", "c")] == [0.8, 0.1, 0.1]
    with no_permuted_warning():
        M = optimal_mechanism(G, epsilon=0.5, boundary=rows)
    assert_private(M, 0.5, 0.0)


@pytest.mark.parametrize("outputs", [[1, 2, 3, 4, 5], [5, 4, 3, 2, 1], [3, 1, 5, 2, 4]])
def test_gu_section_5_3_boundary_never_warns(outputs):
    # The paper's boundary puts 0.5823 on the least preferred output: natural, never flagged,
    # whatever the listing of the outputs.
    eps = math.log(1.2)
    c, d = (1, 2, 3, 4, 5), (2, 1, 3, 5, 4)
    line = _path(outputs, [c] * 6, [0])
    two = _path(outputs, [c] * 4 + [d] * 4, [0, 7])
    with no_permuted_warning():
        # one rainbow: a single row is never judged
        M = optimal_mechanism(line, epsilon=eps, boundary=homogeneous_boundary(line, GU_53))
        # two rainbows, the paper's vector along each
        H = optimal_mechanism(
            two, epsilon=eps, delta=1.0, boundary=homogeneous_boundary(two, GU_53)
        )
    assert np.allclose(M.in_rainbow_order()[0], GU_53, rtol=0, atol=1e-12)
    assert np.allclose(H.in_rainbow_order()[[0, 7]], GU_53, rtol=0, atol=1e-12)
    assert_private(M, eps, 0.0)
    assert_private(H, eps, 1.0)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(q=st.integers(2, 4), data=st.data())
def test_non_increasing_rainbow_order_rows_never_warn(q, data):
    # every rainbow on q outputs, one per node of a path; rows drawn from a coarse grid (or one
    # vector for all) so ties are frequent and rows of different rainbows often coincide
    perms = list(itertools.permutations(range(q)))
    order = data.draw(st.permutations(perms))
    G = _path(data.draw(st.permutations(range(q))), order, [0])
    grid = st.lists(st.integers(0, 2), min_size=q, max_size=q).filter(any)
    shared = data.draw(st.booleans())
    w = None
    rows = {}
    for c in G.rainbows:
        if w is None or not shared:
            w = sorted(data.draw(grid), reverse=True)
        rows[c] = [0.0] * q
        for k, o in enumerate(c):
            rows[c][G.output_index[o]] = w[k] / sum(w)
    if shared and w[0] == w[1]:  # the rule is exercised: some rows coincide
        assert len({tuple(r) for r in rows.values()}) < len(rows)
    with no_permuted_warning():
        M = optimal_mechanism(G, epsilon=0.5, delta=1.0, boundary=rows)
    assert_private(M, 0.5, 1.0)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(
    G=rainbow_graphs(connected=True, max_nodes=6, min_outputs=2, max_outputs=4, max_rainbows=3),
    eps=st.sampled_from([0.0, 0.5, 2.0]),
    data=st.data(),
)
def test_one_strictly_decreasing_vector_as_every_row_warns(G, eps, data):
    # the mix-up: one ranking vector written as the row of every rainbow (always valid: all
    # rows are equal); it warns whenever two rainbows have boundary nodes
    assume(len(set(G.rainbow_ids[G.boundary_mask].tolist())) >= 2)
    q = G.n_outputs
    w = data.draw(st.lists(st.integers(1, 30), min_size=q, max_size=q, unique=True))
    v = np.sort(np.array(w, dtype=float) / sum(w))[::-1]
    rows = {c: v.tolist() for c in G.rainbows}
    with pytest.warns(PermutedBoundaryWarning):
        M = optimal_mechanism(G, epsilon=eps, boundary=rows)
    assert_private(M, eps, 0.0)
    with no_permuted_warning():
        stated = optimal_mechanism(G, epsilon=eps, boundary=rows, order="outputs")
    assert np.array_equal(stated.probabilities, M.probabilities)


def test_invalid_boundary_says_when_rainbow_order_would_be_valid():
    g = nx.path_graph(4)
    for v in g.nodes:
        g.nodes[v]["rainbow"] = ["a", "b"] if v < 2 else ["b", "a"]
    G = RainbowGraph(g, outputs=["a", "b"])
    rows = {("a", "b"): [0.8, 0.2], ("b", "a"): [0.2, 0.8]}
    with pytest.raises(InvalidBoundaryError, match=r"delta >= 0\.470256.*order='rainbow'"):
        optimal_mechanism(G, epsilon=0.5, boundary=rows)
    with pytest.raises(
        InvalidBoundaryError, match=r"delta >= 0\.470256 at this epsilon \(rounded up\)\.$"
    ):
        optimal_mechanism(G, epsilon=0.5, boundary=rows, order="outputs")
    with no_permuted_warning():
        M = optimal_mechanism(G, epsilon=0.5, boundary=rows, order="rainbow")
    assert np.allclose(M.probabilities[[1, 2]], [0.8, 0.2], rtol=0, atol=1e-12)
    assert_private(M, 0.5, 0.0)


# ---------------------------------------------------------------------- files
def _write(path, data) -> str:
    path.write_text(json.dumps(data))
    return str(path)


def test_file_order_field_round_trips(tmp_path):
    G = load_graph(graphs_dir() / "three_colour.json")
    rows_out = homogeneous_boundary(G, [0.5, 0.3, 0.2])
    rows_rb = rainbow_rows(G, rows_out)
    as_out = [{"rainbow": list(c), "distribution": r} for c, r in rows_out.items()]
    as_rb = [{"rainbow": list(c), "distribution": r} for c, r in rows_rb.items()]
    plain = _write(tmp_path / "plain.json", {"rainbows": as_out})
    stated = _write(tmp_path / "out.json", {"order": "outputs", "rainbows": as_out})
    rainbow = _write(tmp_path / "rb.json", {"order": "rainbow", "rainbows": as_rb})
    assert load_assignment(plain, G, return_order=True) == (rows_out, None)
    assert load_assignment(stated, G, return_order=True) == (rows_out, "outputs")
    assert load_assignment(rainbow, G, return_order=True) == (rows_out, "rainbow")
    assert load_assignment(rainbow, G) == rows_out
    # node-wise, each node's rainbow
    bnodes = [G.nodes[i] for i in np.flatnonzero(G.boundary_mask)]
    nodes_rb = {json.dumps(d): rows_rb[G.rainbow(d)] for d in bnodes}
    path = _write(tmp_path / "nodes.json", {"order": "rainbow", "nodes": nodes_rb})
    assert load_assignment(path, G) == {d: rows_out[G.rainbow(d)] for d in bnodes}
    # the numbers are kept exactly as written (ints stay ints), only rearranged
    path = _write(
        tmp_path / "ints.json",
        {
            "order": "rainbow",
            "rainbows": [{"rainbow": ["red", "green", "blue"], "distribution": [1, 0, 0]}],
        },
    )
    assert load_assignment(path, G) == {("red", "green", "blue"): [0, 1, 0]}


@pytest.mark.parametrize(
    ("order", "match"),
    [
        ("Rainbow", r"field 'order' must be 'outputs' or 'rainbow', got 'Rainbow'"),
        (None, r"field 'order' must be 'outputs' or 'rainbow', got None"),
        (1, r"field 'order' must be 'outputs' or 'rainbow', got 1"),
    ],
)
def test_file_order_field_is_validated(tmp_path, order, match):
    path = _write(tmp_path / "b.json", {"order": order, "nodes": {}})
    with pytest.raises(GraphFileError, match=match):
        load_assignment(path, THREE)


def test_file_in_rainbow_order_needs_q_entries(tmp_path):
    path = _write(tmp_path / "b.json", {"order": "rainbow", "nodes": {"0": [0.5, 0.5]}})
    with pytest.raises(GraphFileError, match=r"nodes\['0'\] must have 3 entries.*rainbow order"):
        load_assignment(path, THREE)
    with pytest.raises(TypeError, match=r"`return_order` must be True or False.*'yes'"):
        load_assignment(path, THREE, return_order="yes")


# ---------------------------------------------------------------------- the command line
def _design(capsys, tmp_path, boundary_file, out_name):
    out = tmp_path / out_name
    code = main(
        [
            "design",
            str(graphs_dir() / "three_colour.json"),
            "--epsilon",
            "1",
            "--boundary",
            boundary_file,
            "-o",
            str(out),
        ]
    )
    _, err = capsys.readouterr()
    return code, err, out


def test_cli_rainbow_order_file_and_the_one_line_warning(capsys, tmp_path):
    G = load_graph(graphs_dir() / "three_colour.json")
    ranking = [{"rainbow": list(c), "distribution": [0.5, 0.3, 0.2]} for c in G.rainbows]
    rb = _write(tmp_path / "rb.json", {"order": "rainbow", "rainbows": ranking})
    mixed = _write(tmp_path / "mixed.json", {"rainbows": ranking})
    stated = _write(tmp_path / "stated.json", {"order": "outputs", "rainbows": ranking})
    code, err, out = _design(capsys, tmp_path, rb, "rb_out.json")
    assert code == 0 and err == ""
    _, M = load(out)
    assert np.array_equal(
        M.probabilities,
        optimal_mechanism(G, epsilon=1.0, boundary=[0.5, 0.3, 0.2], order="rainbow").probabilities,
    )
    code, err, out = _design(capsys, tmp_path, mixed, "mixed_out.json")
    assert code == 0 and out.exists()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rainbowdp: warning: ")
    assert "Traceback" not in err and "[0.5, 0.3, 0.2]" in err and '"order"' in err
    code, err, _ = _design(capsys, tmp_path, stated, "stated_out.json")
    assert code == 0 and err == ""


def test_cli_bad_order_field_is_one_line_exit_2(capsys, tmp_path):
    bad = _write(tmp_path / "bad.json", {"order": "preference", "rainbows": []})
    code, err, _ = _design(capsys, tmp_path, bad, "o.json")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "field 'order'" in err and "'preference'" in err
