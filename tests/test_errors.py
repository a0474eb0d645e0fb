"""A catalogue of bad inputs across the API, files and the CLI.

Every entry asserts the documented error class *and* that the message names the parameter (or
the file and field) and echoes the bad value. CLI entries assert exit code 2, exactly one line
on standard error and no traceback.
"""

from __future__ import annotations

import json
import math
import os
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest

from rainbowdp import builders, design, exp_bounds
from rainbowdp import io as rio
from rainbowdp.cli import main
from rainbowdp.exceptions import (
    GraphFileError,
    InvalidGraphError,
    InvalidMechanismError,
    ParameterError,
    ParameterTypeError,
    RainbowDPError,
)
from rainbowdp.graph import RainbowGraph
from rainbowdp.io import load, load_assignment, save_graph
from rainbowdp.mechanism import MAX_SAMPLE_SIZE, Mechanism
from rainbowdp.optimal import T, line_mechanism, optimal_mechanism, switch_threshold, tau
from rainbowdp.privacy import (
    are_close,
    epsilon_for_delta,
    hockey_stick,
    pdp_delta,
    privacy_profile,
    verify,
)

G = builders.line(["a", "b"], 2)
M = Mechanism(G, [[0.5, 0.5], [0.6, 0.4], [0.7, 0.3]])
ROWS = [[0.5, 0.5], [0.6, 0.4], [0.7, 0.3]]


def _path_graph(rainbows, outputs=(0, 1)):
    g = nx.path_graph(len(rainbows))
    nx.set_node_attributes(g, dict(enumerate(rainbows)), "rainbow")
    return RainbowGraph(g, list(outputs))


def _with_node_attribute(name):
    g = nx.path_graph(2)
    nx.set_node_attributes(g, {0: ["a", "b"], 1: ["a", "b"]}, "rainbow")
    g.nodes[1][name] = "x"
    return RainbowGraph(g, ["a", "b"])


# (call, error class, substrings the message must contain: parameter and bad value)
API_CASES = [
    # --- privacy (argument checks of the verifier)
    (lambda: verify(M, epsilon=-1), ParameterError, ["`epsilon`", "epsilon=-1"]),
    (lambda: verify(M, epsilon=float("nan")), ParameterError, ["`epsilon`", "epsilon=nan"]),
    (lambda: verify(M, epsilon=True), ParameterTypeError, ["`epsilon`", "epsilon=True"]),
    (lambda: verify(M, epsilon=1, delta=1.5), ParameterError, ["`delta`", "delta=1.5"]),
    (lambda: verify(M, epsilon=1, delta="0.1"), ParameterTypeError, ["`delta`", "delta='0.1'"]),
    (lambda: verify("M", epsilon=1), ParameterTypeError, ["`mechanism`", "str"]),
    (lambda: verify(M, epsilon=1, tol=-1), ParameterError, ["`tol`", "tol=-1"]),
    (lambda: privacy_profile(M, [-1.0]), ParameterError, ["`epsilons`", "-1.0"]),
    (lambda: epsilon_for_delta(M, 2), ParameterError, ["`delta`", "delta=2"]),
    (lambda: pdp_delta(M, -0.5), ParameterError, ["`epsilon`", "epsilon=-0.5"]),
    # --- huge numbers: beyond float64, or e^epsilon beyond float64 where it must be a float
    (lambda: verify(M, epsilon=10**400), ParameterError, ["`epsilon`", "float64", "401"]),
    (lambda: epsilon_for_delta(M, Fraction(10**400)), ParameterError, ["`delta`", "float64"]),
    (lambda: pdp_delta(M, -(10**400)), ParameterError, ["`epsilon`", "float64"]),
    (lambda: privacy_profile(M, [10**400]), ParameterError, ["`epsilons`", "float64"]),
    (lambda: privacy_profile(M, ["0.5"]), ParameterTypeError, ["`epsilons`", "'0.5'"]),
    (lambda: privacy_profile(M, [True]), ParameterTypeError, ["`epsilons`", "True"]),
    (lambda: privacy_profile(M, "1.0"), ParameterTypeError, ["`epsilons`", "'1.0'"]),
    (lambda: exp_bounds(1e12), ParameterError, ["`epsilon`", "1000000000000.0", "bits"]),
    (lambda: T([0.5, 0.5], 800.0, 0.0), ParameterError, ["`epsilon`", "709.78", "epsilon=800"]),
    (lambda: switch_threshold(710.0, 0.0), ParameterError, ["`epsilon`", "epsilon=710"]),
    (lambda: tau([0.5, 0.5], 1e300, 0.0), ParameterError, ["`epsilon`", "epsilon=1e+300"]),
    (lambda: line_mechanism([0.5, 0.5], 3, 800.0, 0.0), ParameterError, ["`epsilon`", "800"]),
    (
        lambda: optimal_mechanism(G, epsilon=800.0, boundary={("a", "b"): [0.5, 0.5]}),
        ParameterError,
        ["`epsilon`", "epsilon=800"],
    ),
    (lambda: design.lp(G, epsilon=800.0), ParameterError, ["`epsilon`", "epsilon=800"]),
    (
        lambda: design.milp(G, epsilon=10**400, delta=0.1),
        ParameterError,
        ["`epsilon`", "float64"],
    ),
    # --- probability vectors taken by the API: numbers only, of the right length
    (lambda: hockey_stick(["0.5", "0.5"], [0.5, 0.5], 0), ParameterTypeError, ["`p`", "'0.5'"]),
    (lambda: hockey_stick([True, False], [1.0, 0.0], 0), ParameterTypeError, ["`p`", "True"]),
    (lambda: hockey_stick([0.5, 0.5], [1.0], 0), ParameterError, ["`q`", "[1.0]"]),
    (lambda: are_close([0.5, 0.5], [0.5, 0.5], 1, 2), ParameterError, ["`delta`", "delta=2"]),
    (lambda: T(["0.5", "0.5"], 1.0, 0.0), ParameterTypeError, ["`p`", "'0.5'"]),
    (
        lambda: optimal_mechanism(G, epsilon=1.0, boundary={("a", "b"): ["0.6", "0.4"]}),
        ParameterTypeError,
        ["boundary", "'0.6'"],
    ),
    (
        lambda: design.lp(G, epsilon=1.0, fixed={0: ["0.6", "0.4"]}),
        ParameterTypeError,
        ["`fixed[0]`", "'0.6'"],
    ),
    (
        lambda: design.lp(G, epsilon=1.0, utility=[["1", "0"]] * 3),
        ParameterTypeError,
        ["`utility`", "'1'"],
    ),
    # --- mechanism: rows
    (
        lambda: Mechanism(G, [[0.5, 0.6], [0.5, 0.5], [0.5, 0.5]]),
        InvalidMechanismError,
        ["node 0", "1.1"],
    ),
    (
        lambda: Mechanism(G, [[1.1, -0.1], [0.5, 0.5], [0.5, 0.5]]),
        InvalidMechanismError,
        ["node 0", "-0.1"],
    ),
    (
        lambda: Mechanism(G, [[0.5, "0.5"], [0.5, 0.5], [0.5, 0.5]]),
        ParameterTypeError,
        ["`probabilities`", "'0.5'", "node 0"],
    ),
    (
        lambda: Mechanism(G, [["0.5", "0.5"]] * 3),
        ParameterTypeError,
        ["`probabilities`", "'0.5'", "a string"],
    ),
    (
        lambda: Mechanism(G, [[0.5, 0.5], [True, False], [0.5, 0.5]]),
        ParameterTypeError,
        ["`probabilities`", "True", "node 1"],
    ),
    (
        lambda: Mechanism(G, np.array([[True, False]] * 3)),
        ParameterTypeError,
        ["`probabilities`", "a boolean", "True"],
    ),
    (
        lambda: Mechanism(G, {0: [0.5, 0.5], 1: [0.5, 0.5], 2: ["0.7", "0.3"]}),
        ParameterTypeError,
        ["`probabilities`", "'0.7'", "node 2"],
    ),
    (
        lambda: Mechanism(G, {0: [0.5, 0.5], 1: [1, False], 2: [0.5, 0.5]}),
        ParameterTypeError,
        ["`probabilities`", "False", "node 1"],
    ),
    (
        lambda: Mechanism(G, [[0.5, 0.5], [0.5, 0.5], [0.5, None]]),
        ParameterTypeError,
        ["`probabilities`", "None", "node 2"],
    ),
    (
        lambda: Mechanism(G, [[1 + 0j, 0], [0.5, 0.5], [0.5, 0.5]]),
        ParameterTypeError,
        ["`probabilities`", "(1+0j)"],
    ),
    (
        lambda: Mechanism(G, [[10**400, 0], [0.5, 0.5], [0.5, 0.5]]),
        InvalidMechanismError,
        ["`probabilities`", "float64", "1000000000"],
    ),
    (
        lambda: Mechanism(G, [[0.5, 0.5], [0.5]]),
        InvalidMechanismError,
        ["`probabilities`", "[0.5]"],
    ),
    (
        lambda: Mechanism.from_rainbow_order(G, [["0.9", "0.1"]] * 3),
        ParameterTypeError,
        ["`vectors`", "'0.9'", "node 0"],
    ),
    (lambda: Mechanism("graph", [[1.0, 0.0]]), ParameterTypeError, ["`G`", "G=str"]),
    # --- mechanism: atol
    (lambda: Mechanism(G, ROWS, atol=float("nan")), ParameterError, ["`atol`", "atol=nan"]),
    (lambda: Mechanism(G, ROWS, atol=5), ParameterError, ["`atol`", "atol=5"]),
    (lambda: Mechanism(G, ROWS, atol=-1e-9), ParameterError, ["`atol`", "atol=-1e-09"]),
    (lambda: Mechanism(G, ROWS, atol=math.inf), ParameterError, ["`atol`", "atol=inf"]),
    (lambda: Mechanism(G, ROWS, atol="1e-9"), ParameterTypeError, ["`atol`", "atol='1e-9'"]),
    (lambda: Mechanism(G, ROWS, atol=True), ParameterTypeError, ["`atol`", "atol=True"]),
    (
        lambda: Mechanism.from_rainbow_order(G, ROWS, atol=0.5),
        ParameterError,
        ["`atol`", "atol=0.5"],
    ),
    # --- mechanism: quantisation and sampling
    (lambda: M.quantised(0), ParameterError, ["`bits`", "bits=0"]),
    (lambda: M.sample(0, bits=54), ParameterError, ["`bits`", "bits=54"]),
    (lambda: M.sample(0, size=-1), ParameterError, ["`size`", "size=-1"]),
    (lambda: M.sample(0, size=2**61), ParameterError, ["`size`", f"size={2**61}"]),
    (
        lambda: M.sample(0, size=MAX_SAMPLE_SIZE + 1),
        ParameterError,
        ["`size`", f"size={MAX_SAMPLE_SIZE + 1}"],
    ),
    (lambda: M.sample(0, size="3"), ParameterTypeError, ["`size`", "size='3'"]),
    (lambda: M.sample(0, size=2.0), ParameterTypeError, ["`size`", "size=2.0"]),
    (lambda: M.sample(0, rng="fast"), ParameterError, ["`rng`", "rng='fast'"]),
    (lambda: M.sample(0, rng=42), ParameterTypeError, ["`rng`", "rng=42"]),
    (lambda: M.sample("zz"), InvalidGraphError, ["node", "'zz'"]),
    (lambda: M.sample([0]), InvalidGraphError, ["node", "[0]"]),
    # --- graphs
    (lambda: builders.line(["a", "a"], 1), InvalidGraphError, ["`rainbow`", "'a'"]),
    (lambda: builders.line({"a", "b"}, 1), ParameterTypeError, ["`rainbow`", "a set"]),
    (lambda: builders.line(["a"], -1), ParameterError, ["`n`", "n=-1"]),
    (lambda: builders.circulant(4, [7]), ParameterError, ["`distances`", "distances=7"]),
    (lambda: builders.count_path(0), ParameterError, ["`n`", "n=0"]),
    (
        lambda: builders.from_records([0], size=1, query=len, outputs=[0, 1], relation="xyz"),
        ParameterError,
        ["`relation`", "relation='xyz'"],
    ),
    (
        lambda: builders.from_records({"a", "b"}, size=1, query=len, outputs=[0, 1]),
        ParameterTypeError,
        ["`universe`", "a set"],
    ),
    (
        lambda: RainbowGraph.from_query(nx.path_graph(2), [0, 1], answer=lambda d: d, loss=3),
        ParameterTypeError,
        ["`loss`", "loss=3"],
    ),
    (lambda: _path_graph([[0, 1], [0, 5]]), InvalidGraphError, ["node 1", "[0, 5]"]),
    (
        lambda: _path_graph([[0, 1], {1: "first", 0: "second"}]),
        InvalidGraphError,
        ["node 1", "a mapping", "{1: 'first', 0: 'second'}"],
    ),
    (lambda: _path_graph([[0, 1], {0, 1}]), InvalidGraphError, ["node 1", "a set", "{0, 1}"]),
    (lambda: _path_graph([[0, 1], "01"]), InvalidGraphError, ["node 1", "'01'"]),
    (lambda: _path_graph([[0, 1], [True, 0]]), InvalidGraphError, ["node 1", "True"]),
    (
        lambda: RainbowGraph(nx.path_graph(2), {0, 1}),
        ParameterTypeError,
        ["`outputs`", "a set", "outputs={0, 1}"],
    ),
    (
        lambda: RainbowGraph(nx.path_graph(2), {"x": 0, "y": 1}),
        ParameterTypeError,
        ["`outputs`", "a mapping"],
    ),
    (
        lambda: RainbowGraph(nx.path_graph(2), [0, 1], rainbow=["r"]),
        ParameterTypeError,
        ["`rainbow`", "rainbow=['r']"],
    ),
    (
        lambda: builders.cycle([(0, 1), {0, 1}, (1, 0)]),
        InvalidGraphError,
        ["node 1", "rainbows[1]"],
    ),
    (
        lambda: builders.cycle({(0, 1), (1, 0), (0, 2)}),
        ParameterTypeError,
        ["`rainbows`", "a set"],
    ),
    (
        lambda: RainbowGraph.from_edges(
            [[0, 1]], outputs=[0, 1], rainbow_table=[[0, 1]], rainbow_ids=[0, 0], nodes={"x", "y"}
        ),
        ParameterTypeError,
        ["`nodes`", "nodes={"],
    ),
    (
        lambda: builders.circulant(4, [1], distortion=["a"] * 5),
        ParameterTypeError,
        ["`distortion`", "distortion=['a'"],
    ),
    (
        lambda: RainbowGraph.from_query(
            nx.path_graph(2), ["x", "y"], answer={0: "x", 1: "y"}, loss=lambda o, a: "far"
        ),
        ParameterTypeError,
        ["`loss`", "'far'", "output='x'"],
    ),
    (
        lambda: RainbowGraph.from_edges(
            [[0, 1], [2]], outputs=[0, 1], rainbow_table=[[0, 1]], rainbow_ids=[0, 0, 0]
        ),
        InvalidGraphError,
        ["`edges`", "edges=[[0, 1], [2]]"],
    ),
    (
        lambda: RainbowGraph(_path_graph([[0, 1], [1, 0]]).graph, [0, 1], boundary=[7]),
        InvalidGraphError,
        ["`boundary`", "node 7"],
    ),
    (lambda: G.region(["q"]), InvalidGraphError, ["`rainbow`", "['q']"]),
    (lambda: G.region({"a", "b"}), ParameterTypeError, ["`rainbow`", "rainbow={"]),
    (lambda: G.region(iter(["a", "b"])), ParameterTypeError, ["`rainbow`", "iterator"]),
    # --- files, through the API
    (
        lambda: save_graph(G, os.devnull, metadata={"outputs": ["x"]}),
        ParameterError,
        ["`metadata`", "'outputs'", "['x']"],
    ),
    (
        lambda: save_graph(G, os.devnull, metadata={"boundary": [1]}),
        ParameterError,
        ["`metadata`", "'boundary'", "[1]"],
    ),
    (
        lambda: save_graph(G, os.devnull, metadata={"directed": True}),
        ParameterError,
        ["`metadata`", "'directed'", "True"],
    ),
    (
        lambda: save_graph(G, os.devnull, metadata={"multigraph": True}),
        ParameterError,
        ["`metadata`", "'multigraph'"],
    ),
    (
        lambda: save_graph(G, os.devnull, metadata={7: "x"}),
        ParameterTypeError,
        ["`metadata`", "7"],
    ),
    (
        lambda: save_graph(G, os.devnull, metadata="notes"),
        ParameterTypeError,
        ["`metadata`", "metadata='notes'"],
    ),
    (
        lambda: save_graph(G, os.devnull, metadata={"x": float("nan")}),
        ParameterError,
        ["JSON", "nan"],
    ),
    (
        lambda: save_graph(G, os.devnull, metadata={"x": Fraction(1, 3)}),
        ParameterTypeError,
        ["JSON", "Fraction(1, 3)"],
    ),
    (lambda: save_graph(G, 3), ParameterTypeError, ["`path`", "path=3"]),
    (lambda: save_graph(G, ""), ParameterError, ["`path`", "path=''"]),
    (lambda: save_graph(G, "g.graphml"), ParameterError, ["`path`", "'.graphml'"]),
    (lambda: save_graph("G", "g.json"), ParameterTypeError, ["`G`", "G=str"]),
    (
        lambda: save_graph(_with_node_attribute("id"), os.devnull),
        ParameterError,
        ["node 1", "'id'", "id='x'"],
    ),
    (lambda: load(3), ParameterTypeError, ["`path`", "path=3"]),
    (lambda: load(b"g.json"), ParameterTypeError, ["`path`", "path=b'g.json'"]),
    (
        lambda: load_assignment(os.devnull, G, kinds=("edges",)),
        ParameterError,
        ["`kinds`", "kinds=('edges',)"],
    ),
    (
        lambda: load_assignment(os.devnull, "G"),
        ParameterTypeError,
        ["`G`", "G=str"],
    ),
]


@pytest.mark.parametrize(("call", "exc", "needles"), API_CASES)
def test_api_errors_name_the_parameter_and_the_bad_value(call, exc, needles):
    with pytest.raises(exc) as info:
        call()
    assert isinstance(info.value, RainbowDPError)  # the library's own error, never a raw one
    msg = str(info.value)
    for needle in needles:
        assert needle in msg, (needle, msg)


# ------------------------------------------------------------------------------------ files
def _node_link(**node_attrs):
    """A one-edge node-link document whose node 0 gets ``node_attrs``."""
    node0 = {"id": 0, "rainbow": [0, 1], "mechanism": [0.5, 0.5], **node_attrs}
    return {
        "graph": {"outputs": [0, 1]},
        "nodes": [node0, {"id": 1, "rainbow": [0, 1], "mechanism": [0.5, 0.5]}],
        "edges": [{"source": 0, "target": 1}],
    }


def _graphml(key_type="string", value="[0, 1]", edgedefault="undirected", extra=""):
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="g0" for="graph" attr.name="outputs" attr.type="string"/>
  <key id="d0" for="node" attr.name="rainbow" attr.type="{key_type}"/>
  {extra}
  <graph edgedefault="{edgedefault}">
    <data key="g0">[0, 1]</data>
    <node id="n0"><data key="d0">{value}</data></node>
  </graph>
</graphml>
"""


# (file name, content: str, bytes or JSON-able object, substrings besides the file name)
FILE_CASES = [
    # networkx refuses None as a node with a bare ValueError: the reader names file and field
    (
        "nullid.json",
        {"graph": {"outputs": [0, 1]}, "nodes": [{"id": None, "rainbow": [0, 1]}]},
        ["nodes[0]", "null"],
    ),
    ("nodes.json", {"graph": {"outputs": [0, 1]}, "nodes": 3}, ["'nodes'", "3"]),
    (
        "sum.json",
        {
            "graph": {"outputs": [0, 1]},
            "nodes": [{"id": 0, "rainbow": [0, 1], "mechanism": [0.7, 0.7]}],
        },
        ["'mechanism'", "1.4"],
    ),
    (
        "edge.json",
        {
            "graph": {"outputs": [0, 1]},
            "nodes": [{"id": 0, "rainbow": [0, 1]}],
            "edges": [{"source": 0, "target": 9}],
        },
        ["edges[0]", "9"],
    ),
    (
        "perm.json",
        {"graph": {"outputs": [0, 1]}, "nodes": [{"id": 0, "rainbow": [0, 2]}]},
        ["node 0", "[0, 2]"],
    ),
    ("outs.json", {"graph": {"outputs": "01"}, "nodes": []}, ["'outputs'", "'01'"]),
    ("deep.json", "[" * 100_000 + "]" * 100_000, ["nested too deeply"]),
    (
        "deepid.json",
        '{"graph": {"outputs": [0, 1]}, "nodes": [{"id": ' + "[" * 950 + "]" * 950 + "}]}",
        ["nested too deeply"],
    ),
    ("latin1.json", '{"graph": {"outputs": ["é"]}}'.encode("latin-1"), ["UTF-8", "\\xe9"]),
    ("strings.json", _node_link(mechanism=["0.5", "0.5"]), ["'mechanism'", "node 0", "'0.5'"]),
    ("bools.json", _node_link(mechanism=[True, False]), ["'mechanism'", "node 0", "True"]),
    ("scalar.json", _node_link(mechanism=0.5), ["'mechanism'", "node 0", "0.5"]),
    ("nested.json", _node_link(mechanism=[[0.5], [0.5]]), ["'mechanism'", "node 0", "[0.5]"]),
    (
        "inf.json",
        '{"graph": {"outputs": [0, 1]}, "nodes": [{"id": 0, "rainbow": [0, 1], '
        '"mechanism": [1e999, 0]}]}',
        ["'mechanism'", "node 0", "inf"],
    ),
    (
        "digits.json",
        '{"graph": {"outputs": [0, 1]}, "nodes": [{"id": ' + "1" * 5000 + "}]}",
        ["not valid JSON", "digits"],
    ),
    ("dictrb.json", _node_link(rainbow={"0": 1, "1": 2}), ["node 0", "mapping", "{'0': 1"]),
    ("strrb.json", _node_link(rainbow="01"), ["node 0", "'01'"]),
    ("boolrb.json", _node_link(rainbow=[True, 0]), ["node 0", "True"]),
    ("dictid.json", {"graph": {"outputs": [0, 1]}, "nodes": [{"id": {"a": 1}}]}, ["nodes[0]"]),
    (
        "directed.json",
        {"directed": "yes", "graph": {"outputs": [0, 1]}, "nodes": []},
        ["'directed'", "'yes'"],
    ),
    ("graphattr.json", {"graph": [1], "nodes": []}, ["'graph'", "[1]"]),
    (
        "links.json",
        {"graph": {"outputs": [0, 1]}, "nodes": [], "links": {"a": 1}},
        ["'links'", "{'a': 1}"],
    ),
    (
        "boundary.json",
        {"graph": {"outputs": [0, 1], "boundary": 0}, "nodes": [{"id": 0, "rainbow": [0, 1]}]},
        ["'boundary'", "0"],
    ),
    (
        "bnode.json",
        {"graph": {"outputs": [0, 1], "boundary": [7]}, "nodes": [{"id": 0, "rainbow": [0, 1]}]},
        ["node 7"],
    ),
    ("type.graphml", _graphml(key_type="quaternion"), ["attr.type", "'quaternion'", "'rainbow'"]),
    ("bool.graphml", _graphml(key_type="boolean", value="maybe"), ["'maybe'"]),
    ("int.graphml", _graphml(key_type="int", value="1.5"), ["GraphML", "1.5"]),
    ("xml.graphml", "<graphml><graph", ["GraphML"]),
    ("json.graphml", _graphml(value="[0, 1"), ["'rainbow' of node 'n0'", "[0, 1"]),
    ("empty.graphml", '<graphml xmlns="http://graphml.graphdrawing.org/xmlns"/>', ["<graph>"]),
]


def _write(path, content):
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_text(json.dumps(content), encoding="utf-8")
    return path


@pytest.mark.parametrize(("name", "content", "needles"), FILE_CASES)
def test_file_errors_name_file_field_and_value(tmp_path, name, content, needles):
    path = _write(tmp_path / name, content)
    with pytest.raises(GraphFileError) as info:
        load(path)
    msg = str(info.value)
    assert name in msg, msg
    for needle in needles:
        assert needle in msg, (needle, msg)


def test_file_size_limit_is_checked_before_reading(tmp_path, monkeypatch):
    path = tmp_path / "big.json"
    path.write_text(json.dumps(_node_link(description="x" * 2000)))
    load(path)  # fine under the default limit
    monkeypatch.setattr(rio, "MAX_FILE_BYTES", 1000)
    with pytest.raises(GraphFileError, match=r"big\.json.*larger than the limit of 1000 bytes"):
        load(path)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_file_stops_at_the_limit(monkeypatch):
    monkeypatch.setattr(rio, "MAX_FILE_BYTES", 4096)
    with pytest.raises(GraphFileError, match=r"/dev/zero.*larger than the limit of 4096 bytes"):
        load("/dev/zero")


def test_a_directory_is_not_a_graph_file(tmp_path):
    with pytest.raises(GraphFileError, match="directory") as info:
        load(tmp_path)
    assert str(tmp_path) in str(info.value)


ASSIGNMENT_CASES = [
    (
        {"rainbows": [{"rainbow": ["a", "b"], "distribution": ["0.5", "0.5"]}]},
        ["rainbows[0].distribution", "'0.5'"],
    ),
    (
        {"rainbows": [{"rainbow": ["a", "b"], "distribution": [True, False]}]},
        ["rainbows[0].distribution", "True"],
    ),
    ({"rainbows": [{"rainbow": "ab", "distribution": [1, 0]}]}, ["rainbows[0].rainbow", "'ab'"]),
    (
        {
            "rainbows": [
                {"rainbow": ["a", "b"], "distribution": [1, 0]},
                {"rainbow": ["a", "b"], "distribution": [0, 1]},
            ]
        },
        ["rainbows[1]", "['a', 'b']"],
    ),
    ({"nodes": {"x": [1, 0], '"x"': [0, 1]}}, ["node 'x'", "twice"]),
    ('{"nodes": {"x": [1, 0], "x": [0, 1]}}', ["'x'", "twice"]),
    ({"nodes": {"x": "1, 0"}}, ["nodes['x']", "'1, 0'"]),
    ({"nodes": {"z": [1, 0]}}, ["unknown node", "'z'"]),
]


@pytest.mark.parametrize(("content", "needles"), ASSIGNMENT_CASES)
def test_assignment_file_errors(tmp_path, content, needles):
    path = _write(tmp_path / "assign.json", content)
    g = nx.Graph([("x", "y")])
    nx.set_node_attributes(g, ["a", "b"], "rainbow")
    with pytest.raises(GraphFileError) as info:
        load_assignment(path, RainbowGraph(g, ["a", "b"]))
    msg = str(info.value)
    assert "assign.json" in msg
    for needle in needles:
        assert needle in msg, (needle, msg)


# -------------------------------------------------------------------------------------- CLI
@pytest.fixture
def files(tmp_path):
    """Named inputs for the CLI cases; ``{name}`` in an argument is replaced by its path."""
    save_graph(G, tmp_path / "graph.json", mechanism=M)
    save_graph(G, tmp_path / "plain.json")
    (tmp_path / "imgdir.png").mkdir()
    (tmp_path / "outdir.json").mkdir()
    (tmp_path / "regular.txt").write_text("not a directory")
    paths = {
        "graph": tmp_path / "graph.json",
        "plain": tmp_path / "plain.json",
        "imgdir": tmp_path / "imgdir.png",
        "outdir": tmp_path / "outdir.json",
        "regular": tmp_path / "regular.txt",
        "tmp": tmp_path,
    }
    for name, content, _ in FILE_CASES:
        stem = name.replace(".", "_")
        paths[stem] = _write(tmp_path / name, content)
    paths["boundary"] = _write(
        tmp_path / "b.json", {"rainbows": [{"rainbow": ["a", "b"], "distribution": [0.6, 0.4]}]}
    )
    paths["fixed"] = _write(tmp_path / "f.json", {"nodes": {"0": [0.5, 0.5]}})
    return paths


DESIGN = ["design", "{graph}", "--epsilon", "1"]

CLI_CASES = [
    (["verify", "{graph}", "--epsilon", "1", "--delta", "1.5"], ["`delta`", "delta=1.5"]),
    (["verify", "{graph}", "--epsilon", "-1"], ["`epsilon`", "epsilon=-1.0"]),
    (["verify", "{graph}", "--epsilon", "abc"], ["--epsilon", "'abc'"]),
    (["verify", "{graph}", "--epsilon", "1e400"], ["--epsilon", "finite", "'1e400'"]),
    (["verify", "{graph}", "--epsilon", "inf"], ["--epsilon", "finite", "'inf'"]),
    (["verify", "{graph}", "--epsilon", "1", "--delta", "nan"], ["--delta", "'nan'"]),
    (["verify", "{graph}", "--epsilon", "1", "--delta=-inf"], ["--delta", "'-inf'"]),
    (["verify", "{graph}"], ["--epsilon"]),
    (["verify", "{tmp}/missing.json", "--epsilon", "1"], ["missing.json"]),
    (["verify", "{plain}", "--epsilon", "1"], ["plain.json", "no 'mechanism'"]),
    (["verify", "{tmp}", "--epsilon", "1"], ["directory"]),
    (["verify", "{deep_json}", "--epsilon", "1"], ["deep.json", "nested too deeply"]),
    (["verify", "{latin1_json}", "--epsilon", "1"], ["latin1.json", "UTF-8"]),
    (["verify", "{strings_json}", "--epsilon", "1"], ["strings.json", "'0.5'"]),
    (["verify", "{bools_json}", "--epsilon", "1"], ["bools.json", "True"]),
    (["verify", "{type_graphml}", "--epsilon", "1"], ["type.graphml", "'quaternion'"]),
    (["verify", "{dictrb_json}", "--epsilon", "1"], ["dictrb.json", "node 0"]),
    (["plot", "{graph}", "-o", "{tmp}/g.png", "--dpi", "100000"], ["--dpi", "'100000'"]),
    (["plot", "{graph}", "-o", "{tmp}/g.png", "--dpi", "0"], ["--dpi", "'0'"]),
    (["plot", "{graph}", "-o", "{tmp}/g.png", "--dpi", "1e3"], ["--dpi", "'1e3'"]),
    (["plot", "{graph}", "-o", "{graph}"], ["-o/--output", "graph.json"]),
    (["plot", "{graph}", "-o", "{imgdir}"], ["-o/--output", "imgdir.png", "directory"]),
    (["plot", "{graph}", "-o", "{tmp}/picture"], ["-o/--output", "picture", ".png"]),
    (["plot", "{graph}", "-o", "{tmp}/picture.jpg"], ["-o/--output", "picture.jpg"]),
    (["plot", "{graph}", "-o", "{tmp}/nowhere/g.png"], ["-o/--output", "g.png", "does not exist"]),
    (["plot", "{regular}", "-o", "{tmp}/g.png"], ["regular.txt"]),
    (["reproduce", "fig9"], ["'fig9'"]),
    (["reproduce", "fig3", "-o", "{tmp}/fig.gif"], ["-o/--output", "fig.gif"]),
    (["reproduce", "fig3", "-o", "{tmp}/f.png", "--dpi", "5"], ["--dpi", "'5'"]),
    (
        ["design", "{graph}", "--epsilon", "1", "--method", "closed-form", "-o", "{tmp}/o.json"],
        ["--boundary", "closed-form"],
    ),
    (
        [*DESIGN, "--method", "lp", "--boundary", "{boundary}", "-o", "{tmp}/o.json"],
        ["`--boundary`", "b.json", "--method lp"],
    ),
    (
        [*DESIGN, "--method", "milp", "--boundary", "{boundary}", "-o", "{tmp}/o.json"],
        ["`--boundary`", "--method milp"],
    ),
    (
        [*DESIGN, "--boundary", "{boundary}", "--fixed", "{fixed}", "-o", "{tmp}/o.json"],
        ["`--fixed`", "f.json", "closed-form"],
    ),
    (
        [*DESIGN, "--boundary", "{boundary}", "--utility", "rank", "-o", "{tmp}/o.json"],
        ["`--utility`", "rank"],
    ),
    (
        [*DESIGN, "--boundary", "{boundary}", "--solver", "cbc", "-o", "{tmp}/o.json"],
        ["`--solver`", "cbc"],
    ),
    (["design", "{graph}", "--epsilon", "1", "-o", "{graph}"], ["-o/--output", "graph.json"]),
    (
        ["design", "{graph}", "--epsilon", "1", "--fixed", "{fixed}", "-o", "{fixed}"],
        ["-o/--output", "f.json"],
    ),
    (["design", "{graph}", "--epsilon", "1", "-o", "{tmp}/o.png"], ["-o/--output", "o.png"]),
    (
        ["design", "{graph}", "--epsilon", "1", "-o", "{tmp}/o.graphml"],
        ["-o/--output", "o.graphml"],
    ),
    (["design", "{graph}", "--epsilon", "1", "-o", "{outdir}"], ["outdir.json", "directory"]),
    (
        ["design", "{graph}", "--epsilon", "1", "-o", "{tmp}/nowhere/o.json"],
        ["-o/--output", "o.json", "nowhere", "does not exist"],
    ),
    (
        ["design", "{graph}", "--epsilon", "1", "-o", "{regular}/o.json"],
        ["-o/--output", "o.json", "regular.txt", "is not a directory"],
    ),
    (
        ["design", "{graph}", "--epsilon", "1", "--time-limit", "-1", "-o", "{tmp}/o.json"],
        ["--time-limit", "'-1'"],
    ),
    (
        ["design", "{graph}", "--epsilon", "1", "--time-limit", "inf", "-o", "{tmp}/o.json"],
        ["--time-limit", "'inf'"],
    ),
    (["demo", "--output-dir", "{regular}"], ["--output-dir", "regular.txt"]),
    # an OSError raised while working (mkdir under a regular file) is bad input too
    (["demo", "--output-dir", "{regular}/sub"], ["Not a directory", "regular.txt/sub"]),
    (["verify", "{nullid_json}", "--epsilon", "1"], ["nullid.json", "nodes[0]", "null"]),
    (["frobnicate"], ["frobnicate"]),
]


def _argv(argv, files):
    return [a.format(**{k: str(v) for k, v in files.items()}) for a in argv]


@pytest.mark.parametrize(("argv", "needles"), CLI_CASES)
def test_cli_errors_exit_2_with_one_line(files, capsys, argv, needles):
    code = main(_argv(argv, files))
    out, err = capsys.readouterr()
    assert code == 2, (code, out, err)  # never 0 or 1 on bad input
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err, (needle, err)


def test_cli_never_writes_over_its_input(files, capsys):
    before = files["graph"].read_bytes()
    assert main(["plot", str(files["graph"]), "-o", str(files["graph"])]) == 2
    assert main(["design", str(files["graph"]), "--epsilon", "1", "-o", str(files["graph"])]) == 2
    assert files["graph"].read_bytes() == before
    capsys.readouterr()


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root may write anywhere"
)
def test_cli_unwritable_output_directory_exits_2(files, capsys):
    locked = files["tmp"] / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        code = main(["design", str(files["graph"]), "--epsilon", "1", "-o", str(locked / "o.json")])
    finally:
        locked.chmod(0o700)
    _, err = capsys.readouterr()
    assert code == 2 and "Permission denied" in err and "o.json" in err
    assert len(err.strip().splitlines()) == 1 and list(locked.iterdir()) == []


@pytest.mark.parametrize("bug", [ZeroDivisionError, ValueError, TypeError, KeyError])
def test_a_bug_is_not_reported_as_bad_input(files, capsys, monkeypatch, bug):
    # Only the library's own errors and OSError are bad input; anything else must surface.
    import rainbowdp.privacy

    def broken(*args, **kwargs):
        raise bug("a genuine bug")

    monkeypatch.setattr(rainbowdp.privacy, "verify", broken)
    with pytest.raises(bug, match="a genuine bug"):
        main(["verify", str(files["graph"]), "--epsilon", "1"])
    capsys.readouterr()


def test_the_catalogue_has_at_least_60_entries():
    n = len(API_CASES) + len(FILE_CASES) + len(ASSIGNMENT_CASES) + len(CLI_CASES)
    assert n >= 60
