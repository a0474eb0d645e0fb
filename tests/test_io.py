"""Graph files: node-link JSON round trips, GraphML, malformed files, bundled graphs."""

from __future__ import annotations

import json
import os
import stat

import networkx as nx
import numpy as np
import pytest

from rainbowdp import builders, bundled, certify
from rainbowdp.exceptions import GraphFileError, ParameterError
from rainbowdp.io import load, load_assignment, load_graph, load_mechanism, save_graph
from rainbowdp.mechanism import Mechanism
from rainbowdp.privacy import verify


def test_round_trip_with_tuple_nodes_and_mechanism(tmp_path):
    G = builders.from_records(["a", "b"], size=2, query=len, outputs=[0, 1, 2])
    M = Mechanism.from_rainbow_order(G, np.tile([0.5, 0.3, 0.2], (G.n_nodes, 1)))
    path = save_graph(G, tmp_path / "records.json", mechanism=M, metadata={"note": "x"})
    H, N = load(path)
    assert H.nodes == G.nodes and np.array_equal(H.edges, G.edges)
    assert np.array_equal(N.probabilities, M.probabilities)
    assert H.graph.graph["note"] == "x"
    data = json.loads(path.read_text())
    assert "edges" in data and data["graph"]["outputs"] == [0, 1, 2]
    # any networkx user can read the file
    g = nx.node_link_graph(data, edges="edges")
    assert g.number_of_edges() == G.n_edges


def test_legacy_links_key_and_graphml(tmp_path):
    G = builders.line(["yes", "no"], 2)
    data = nx.node_link_data(G.graph, edges="links")
    (tmp_path / "old.json").write_text(json.dumps(data))
    assert load_graph(tmp_path / "old.json").n_edges == 2
    g = nx.path_graph(3)
    g.graph["outputs"] = json.dumps(["yes", "no"])
    for v in g:
        g.nodes[v]["rainbow"] = json.dumps(["yes", "no"] if v < 2 else ["no", "yes"])
        g.nodes[v]["mechanism"] = json.dumps([0.5, 0.5])
    nx.write_graphml(g, tmp_path / "g.graphml")
    H, M = load(tmp_path / "g.graphml")
    assert H.rainbow("2") == ("no", "yes") and M is not None


def test_bundled_files_match_their_source_and_verdicts():
    d = bundled.graphs_dir()
    assert d is not None
    for ex in bundled.examples():
        G, M = load(d / f"{ex.name}.json")
        assert G.nodes == ex.graph.nodes and np.array_equal(G.edges, ex.graph.edges)
        assert np.array_equal(G.ranks, ex.graph.ranks)
        assert np.array_equal(M.probabilities, ex.mechanism.probabilities)
        expected = G.graph.graph["expected"]
        assert expected["private"] == ex.private
        rep = verify(M, epsilon=expected["epsilon"], delta=expected["delta"])
        assert rep.is_private == expected["private"], ex.name
        # the stated verdicts hold in exact arithmetic, not only within the float tolerance
        cert = certify(M, epsilon=expected["epsilon"], delta=expected["delta"])
        assert cert.verdict == ("private" if ex.private else "not private"), ex.name


def test_atomic_write_leaves_no_temporary_files(tmp_path):
    G = builders.line(["a", "b"], 1)
    save_graph(G, tmp_path / "x.json")
    save_graph(G, tmp_path / "x.json")  # overwrite in place
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.json"]


def test_assignments(tmp_path):
    G = builders.cycle([(1, 2, 3)] * 4 + [(1, 3, 2)])
    (tmp_path / "b.json").write_text(
        json.dumps(
            {
                "rainbows": [{"rainbow": [1, 2, 3], "distribution": [0.5, 0.3, 0.2]}],
                "nodes": {"4": [0.4, 0.2, 0.4]},
            }
        )
    )
    a = load_assignment(tmp_path / "b.json", G)
    assert a == {(1, 2, 3): [0.5, 0.3, 0.2], 4: [0.4, 0.2, 0.4]}


@pytest.mark.parametrize(
    ("content", "match"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "top level must be a JSON object"),
        ('{"directed": "yes", "nodes": []}', "'directed' must be true or false"),
        ('{"multigraph": true, "nodes": []}', "'multigraph' must be false"),
        ('{"nodes": 3}', "'nodes' must be a list"),
        ('{"graph": {"outputs": [0, 1]}, "nodes": [{"rainbow": [0, 1]}]}', r"nodes\[0\]"),
        (
            '{"graph": {"outputs": [0, 1]}, "nodes": [{"id": 0, "rainbow": [0, 1]}], '
            '"edges": [{"source": 0, "target": 9}]}',
            "unknown node 9",
        ),
        ('{"graph": {}, "nodes": [{"id": 0, "rainbow": [0, 1]}]}', "'outputs' must be a list"),
        (
            '{"graph": {"outputs": [0, 1]}, "nodes": [{"id": 0, "rainbow": [0, 2]}]}',
            r"node 0 must be a permutation.*\[0, 2\]",
        ),
        (
            '{"graph": {"outputs": [0, 1]}, "nodes": [{"id": 0, "rainbow": [0, 1], '
            '"mechanism": [0.7, 0.7]}]}',
            "field 'mechanism'.*1.4",
        ),
        (
            '{"graph": {"outputs": [0, 1]}, "nodes": [{"id": 0, "rainbow": [0, 1], '
            '"mechanism": [1, 0]}, {"id": 1, "rainbow": [0, 1]}]}',
            "node 1 has no 'mechanism'",
        ),
    ],
)
def test_malformed_files_name_file_and_field(tmp_path, content, match):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(GraphFileError, match=match) as info:
        load(path)
    assert "bad.json" in str(info.value)


def test_missing_file_and_missing_mechanism(tmp_path):
    with pytest.raises(GraphFileError, match=r"nope\.json"):
        load_graph(tmp_path / "nope.json")
    save_graph(builders.line(["a", "b"], 1), tmp_path / "plain.json")
    with pytest.raises(GraphFileError, match="no 'mechanism'"):
        load_mechanism(tmp_path / "plain.json")


def test_true_answers_survive_a_file_round_trip(tmp_path):
    G = builders.count_path(4)
    H = load_graph(save_graph(G, tmp_path / "c.json"))
    assert H.answers == G.answers == (0, 1, 2, 3, 4)
    assert load_graph(save_graph(builders.line([0, 1], 2), tmp_path / "l.json")).answers is None


# ------------------------------------------------------------------ permissions of saved files
def _saved_mode(path, umask, G):
    old = os.umask(umask)
    try:
        save_graph(G, path)
    finally:
        os.umask(old)
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_new_files_get_the_umask_permissions_and_existing_files_keep_theirs(tmp_path):
    G = builders.line(["a", "b"], 1)
    assert _saved_mode(tmp_path / "a.json", 0o022, G) == 0o644
    assert _saved_mode(tmp_path / "b.json", 0o077, G) == 0o600
    assert _saved_mode(tmp_path / "c.json", 0o002, G) == 0o664
    # overwriting keeps the permission bits the user gave the file
    (tmp_path / "a.json").chmod(0o640)
    assert _saved_mode(tmp_path / "a.json", 0o022, G) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json", "c.json"]


@pytest.mark.skipif(os.name != "posix", reason="symbolic links")
def test_saving_through_a_symlink_replaces_its_target(tmp_path):
    G = builders.line(["a", "b"], 1)
    target = save_graph(builders.line(["a", "b"], 3), tmp_path / "target.json")
    (tmp_path / "link.json").symlink_to(target)
    save_graph(G, tmp_path / "link.json")
    assert (tmp_path / "link.json").is_symlink()
    assert load_graph(target).n_nodes == 2


def test_failed_writes_leave_no_file_behind(tmp_path, monkeypatch):
    G = builders.line(["a", "b"], 1)
    (tmp_path / "d.json").mkdir()
    with pytest.raises(IsADirectoryError):
        save_graph(G, tmp_path / "d.json")

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied", str(dst))

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(PermissionError):
        save_graph(G, tmp_path / "x.json")
    with pytest.raises(ParameterError, match="'outputs'"):
        save_graph(G, tmp_path / "y.json", metadata={"outputs": ["z"]})
    assert [p.name for p in tmp_path.iterdir()] == ["d.json"]


# ------------------------------------------------------------------ what is written and read
def test_files_are_strict_json_and_graph_attributes_are_not_parameters(tmp_path):
    G = builders.line(["a", "b"], 2)
    path = save_graph(
        G, tmp_path / "g.json", metadata={"incoming_graph_data": [[0, 9]], "note": "n"}
    )
    text = path.read_text()

    def refuse(token):
        raise AssertionError(token)

    json.loads(text, parse_constant=refuse)
    H = load_graph(path)  # an attribute named like an nx.Graph parameter adds no edge
    assert H.n_edges == 2 and H.graph.graph["incoming_graph_data"] == [[0, 9]]


def test_byte_order_mark_and_graphml_typed_attributes(tmp_path):
    G = builders.line(["a", "b"], 1)
    text = save_graph(G, tmp_path / "g.json").read_text(encoding="utf-8")
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert load_graph(tmp_path / "bom.json").n_nodes == 2
    g = nx.path_graph(2)
    g.graph["outputs"] = json.dumps([0, 1])
    for v in g:
        g.nodes[v]["rainbow"] = json.dumps([0, 1])
        g.nodes[v]["weight"] = 1.5  # a typed (double) attribute is kept
    nx.write_graphml(g, tmp_path / "g.graphml")
    H = load_graph(tmp_path / "g.graphml")
    assert H.graph.nodes["0"]["weight"] == 1.5 and H.outputs == (0, 1)


def test_mechanism_numbers_in_files_are_read_exactly(tmp_path):
    data = {
        "graph": {"outputs": [0, 1]},
        "nodes": [
            {"id": 0, "rainbow": [0, 1], "mechanism": [1, 0]},
            {"id": 1, "rainbow": [1, 0], "mechanism": [0.25, 0.75]},
        ],
        "edges": [{"source": 0, "target": 1}],
    }
    (tmp_path / "m.json").write_text(json.dumps(data))
    assert load_mechanism(tmp_path / "m.json").probabilities.tolist() == [[1, 0], [0.25, 0.75]]


# ------------------------------------------------------------------ errors name the path
def test_writing_into_a_bad_place_names_the_path(tmp_path):
    G = builders.line(["a", "b"], 1)
    (tmp_path / "d").mkdir()
    (tmp_path / "f").write_text("a regular file")
    cases = [
        (tmp_path / "d", IsADirectoryError, ["Is a directory", "file name"]),
        (tmp_path / "nowhere" / "g.json", FileNotFoundError, ["nowhere", "does not exist"]),
        (tmp_path / "f" / "g.json", NotADirectoryError, ["'" + str(tmp_path / "f") + "'"]),
    ]
    for path, exc, needles in cases:
        with pytest.raises(exc) as info:
            save_graph(G, path)
        msg = str(info.value)
        assert str(path) in msg and all(n in msg for n in needles), msg
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d", "f"]


def test_any_parser_error_becomes_a_graph_file_error_naming_the_file(tmp_path, monkeypatch):
    import rainbowdp.io as rio

    path = save_graph(builders.line(["a", "b"], 1), tmp_path / "g.json")
    (tmp_path / "b.json").write_text(json.dumps({"nodes": {"0": [0.5, 0.5]}}))
    G = load_graph(path)
    for bug in (ValueError, KeyError, TypeError, IndexError, nx.NetworkXError):

        def broken(*args, _bug=bug, **kwargs):
            raise _bug("bare error of a parser")

        monkeypatch.setattr(rio, "RainbowGraph", broken)
        with pytest.raises(GraphFileError, match=r"g\.json.*bare error of a parser") as info:
            load(path)
        assert bug.__name__ in str(info.value) and "\n" not in str(info.value)
        monkeypatch.undo()
        monkeypatch.setattr(rio, "_check_distribution", broken)
        with pytest.raises(GraphFileError, match=r"b\.json.*bare error of a parser"):
            load_assignment(tmp_path / "b.json", G)
        monkeypatch.undo()


def test_every_reader_is_size_capped(tmp_path, monkeypatch):
    import rainbowdp.io as rio

    G = builders.line(["a", "b"], 1)
    json_path = save_graph(G, tmp_path / "g.json")
    graphml = tmp_path / "g.graphml"
    h = nx.Graph()
    h.graph["outputs"] = json.dumps(["a", "b"])
    h.add_node(0, rainbow=json.dumps(["a", "b"]))
    nx.write_graphml(h, graphml)
    assignment = tmp_path / "a.json"
    assignment.write_text(json.dumps({"nodes": {"0": [0.5, 0.5]}, "pad": "x" * 200}))
    load(graphml), load(json_path), load_assignment(assignment, G, kinds=("nodes",))
    monkeypatch.setattr(rio, "MAX_FILE_BYTES", 100)
    for read in (
        lambda: load(json_path),
        lambda: load(graphml),
        lambda: load_assignment(assignment, G),
    ):
        with pytest.raises(GraphFileError, match="larger than the limit of 100 bytes"):
            read()
