"""Bad input across the API, files and the CLI: the documented error, naming the bad value."""

from __future__ import annotations

import json

import networkx as nx
import pytest

from rainbowdp.cli import main
from rainbowdp.exceptions import GraphFileError, InvalidGraphError, InvalidMechanismError
from rainbowdp.graph import RainbowGraph
from rainbowdp.io import load
from rainbowdp.mechanism import Mechanism
from rainbowdp.privacy import epsilon_for_delta, hockey_stick, pdp_delta, privacy_profile, verify

G = RainbowGraph.line(["a", "b"], 2)
M = Mechanism(G, [[0.5, 0.5], [0.6, 0.4], [0.7, 0.3]])


def _bad_rainbow_graph():
    g = nx.path_graph(2)
    nx.set_node_attributes(g, {0: [0, 1], 1: [0, 5]}, "rainbow")
    return RainbowGraph(g, [0, 1])


API_CASES = [
    (lambda: verify(M, epsilon=-1), ValueError, "epsilon=-1"),
    (lambda: verify(M, epsilon=float("nan")), ValueError, "epsilon=nan"),
    (lambda: verify(M, epsilon=True), TypeError, "epsilon=True"),
    (lambda: verify(M, epsilon=1, delta=1.5), ValueError, "delta=1.5"),
    (lambda: verify(M, epsilon=1, delta="0.1"), TypeError, "delta='0.1'"),
    (lambda: verify("M", epsilon=1), TypeError, "str"),
    (lambda: verify(M, epsilon=1, tol=-1), ValueError, "tol=-1"),
    (lambda: hockey_stick([0.5, 0.6], [0.5, 0.5], 0), ValueError, "1.1"),
    (lambda: hockey_stick([0.5, 0.5], [1.0], 0), ValueError, "q=[1.0]"),
    (lambda: privacy_profile(M, [-1.0]), ValueError, "-1.0"),
    (lambda: epsilon_for_delta(M, 2), ValueError, "delta=2"),
    (lambda: pdp_delta(M, -0.5), ValueError, "epsilon=-0.5"),
    (lambda: Mechanism(G, [[0.5, 0.6], [0.5, 0.5], [0.5, 0.5]]), InvalidMechanismError, "1.1"),
    (lambda: Mechanism(G, [[1.1, -0.1], [0.5, 0.5], [0.5, 0.5]]), InvalidMechanismError, "-0.1"),
    (lambda: M.quantised(0), ValueError, "bits=0"),
    (lambda: M.sample(0, size=-1), ValueError, "size=-1"),
    (lambda: M.sample("zz"), InvalidGraphError, "'zz'"),
    (lambda: RainbowGraph.line(["a", "a"], 1), InvalidGraphError, "'a'"),
    (lambda: RainbowGraph.circulant(4, [7]), ValueError, "distances=7"),
    (lambda: RainbowGraph.count_path(0), ValueError, "n=0"),
    (
        lambda: RainbowGraph.from_records([0], size=1, query=len, outputs=[0, 1], relation="xyz"),
        ValueError,
        "relation='xyz'",
    ),
    (
        lambda: RainbowGraph.from_query(nx.path_graph(2), [0, 1], answer=lambda d: d, loss=3),
        TypeError,
        "loss=3",
    ),
    (_bad_rainbow_graph, InvalidGraphError, "[0, 5]"),
    (lambda: G.region(["q"]), InvalidGraphError, "['q']"),
]


@pytest.mark.parametrize(("call", "exc", "value"), API_CASES)
def test_api_errors_name_the_bad_value(call, exc, value):
    with pytest.raises(exc) as info:
        call()
    assert value in str(info.value)


FILE_CASES = [
    ({"graph": {"outputs": [0, 1]}, "nodes": 3}, "3"),
    (
        {
            "graph": {"outputs": [0, 1]},
            "nodes": [{"id": 0, "rainbow": [0, 1], "mechanism": [0.7, 0.7]}],
        },
        "1.4",
    ),
    (
        {
            "graph": {"outputs": [0, 1]},
            "nodes": [{"id": 0, "rainbow": [0, 1]}],
            "edges": [{"source": 0, "target": 9}],
        },
        "9",
    ),
    ({"graph": {"outputs": [0, 1]}, "nodes": [{"id": 0, "rainbow": [0, 2]}]}, "[0, 2]"),
    ({"graph": {"outputs": "01"}, "nodes": []}, "'01'"),
]


@pytest.mark.parametrize(("content", "value"), FILE_CASES)
def test_file_errors_name_file_field_and_value(tmp_path, content, value):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(content))
    with pytest.raises(GraphFileError) as info:
        load(path)
    assert value in str(info.value) and "g.json" in str(info.value)


CLI_CASES = [
    (["verify", "GRAPH", "--epsilon", "1", "--delta", "1.5"], "delta=1.5"),
    (["verify", "GRAPH", "--epsilon", "abc"], "'abc'"),
    (["verify", "missing.json", "--epsilon", "1"], "missing.json"),
    (["reproduce", "fig9"], "'fig9'"),
]


@pytest.mark.parametrize(("argv", "value"), CLI_CASES)
def test_cli_errors_exit_2_with_one_line_naming_the_value(tmp_path, capsys, argv, value):
    path = tmp_path / "g.json"
    from rainbowdp.io import save_graph

    save_graph(G, path, mechanism=M)
    code = main([str(path) if a == "GRAPH" else a for a in argv])
    _, err = capsys.readouterr()
    assert code == 2 and value in err and len(err.strip().splitlines()) == 1


def test_at_least_25_bad_inputs_are_covered():
    assert len(API_CASES) + len(FILE_CASES) + len(CLI_CASES) >= 25
