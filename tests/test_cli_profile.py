"""``rainbowdp profile``: the table, the CSV and JSON values, the plot, one-line errors."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

import rainbowdp as rdp
from rainbowdp.bundled import graphs_dir
from rainbowdp.cli import main
from rainbowdp.io import load

GRAPHS = graphs_dir()
COUNT = str(GRAPHS / "count_path.json")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_table_rounds_up_and_states_pure_dp(capsys):
    code, out, err = run(capsys, "profile", COUNT, "--epsilons", "0,0.5,1")
    assert code == 0 and not err
    M = load(COUNT)[1]
    expected = rdp.privacy_profile(M, [0.0, 0.5, 1.0])
    rows = [line.split() for line in out.splitlines() if line[:1] == " "][1:]  # after the header
    assert [float(r[0]) for r in rows] == [0.0, 0.5, 1.0]
    shown = [float(r[1]) for r in rows]
    assert all(s >= d for s, d in zip(shown, expected, strict=True))  # never below the profile
    assert shown == pytest.approx(expected.tolist(), rel=1e-5)
    e0 = rdp.epsilon_for_delta(M, 0.0)
    last = out.splitlines()[-1]
    assert last.startswith("delta = 0 for epsilon >= ") and float(last.split()[-1]) >= e0


def test_default_grid_and_json(capsys):
    code, out, _ = run(capsys, "profile", COUNT, "--json")
    assert code == 0
    data = json.loads(out)
    M = load(COUNT)[1]
    e0 = rdp.epsilon_for_delta(M, 0.0)
    assert data["zero_delta_from_epsilon"] == e0
    assert e0 in data["epsilons"] and data["epsilons"][0] == 0.0
    assert data["deltas"] == rdp.privacy_profile(M, data["epsilons"]).tolist()
    assert data["n_nodes"] == M.graph.n_nodes and data["output"] is None


def test_default_grid_ends_past_the_delta_floor(capsys, tmp_path):
    """Without --epsilons the grid runs to 1.25 x the proved epsilon where delta(epsilon) falls
    to --delta-floor: the last value is at most the floor, an earlier one above it."""
    G = rdp.builders.line(["a", "b"], 1)
    M = rdp.Mechanism(G, [[0.9, 0.1], [1e-9, 1 - 1e-9]])  # delta > 0 up to epsilon ~ 20.7
    path = tmp_path / "m.json"
    rdp.save_graph(G, path, mechanism=M)
    ends = []
    for floor in (1e-3, 1e-6):
        code, out, _ = run(capsys, "profile", str(path), "--delta-floor", str(floor), "--json")
        assert code == 0
        data = json.loads(out)
        ends.append(max(data["epsilons"]))
        assert ends[-1] == pytest.approx(1.25 * rdp.epsilon_for_delta(M, floor))
        assert data["deltas"][-1] <= floor < max(data["deltas"])
    assert ends[0] < ends[1]  # a lower floor shows more of the curve


def test_json_is_strict_when_pure_dp_is_impossible(capsys, tmp_path):
    G = rdp.builders.line(["a", "b"], 1)
    M = rdp.Mechanism(G, [[1.0, 0.0], [0.5, 0.5]])  # an output only one node can give
    path = tmp_path / "inf.json"
    rdp.save_graph(G, path, mechanism=M)
    code, out, _ = run(capsys, "profile", str(path), "--epsilons", "0:2:3", "--json")
    assert code == 0 and "Infinity" not in out
    data = json.loads(out)
    assert data["zero_delta_from_epsilon"] is None
    assert data["epsilons"] == [0.0, 1.0, 2.0]
    assert data["deltas"] == rdp.privacy_profile(M, [0.0, 1.0, 2.0]).tolist()
    code, out, _ = run(capsys, "profile", str(path), "--epsilons", "1")
    assert "delta > 0 at every epsilon" in out


def test_csv_equals_privacy_profile(capsys, tmp_path):
    out_file = tmp_path / "p.csv"
    graph = str(GRAPHS / "modulo_circulant_n8.json")
    code, out, _ = run(capsys, "profile", graph, "--epsilons", "0:6:7", "-o", str(out_file))
    assert code == 0 and f"wrote {out_file}" in out
    with out_file.open(newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["epsilon", "delta"]
    eps = np.array([float(r[0]) for r in rows[1:]])
    assert eps.tolist() == np.linspace(0, 6, 7).tolist()
    M = load(graph)[1]
    assert [float(r[1]) for r in rows[1:]] == rdp.privacy_profile(M, eps).tolist()


def test_png_written(capsys, tmp_path):
    out_file = tmp_path / "p.png"
    code, _, err = run(
        capsys, "profile", str(GRAPHS / "three_colour.json"), "-o", str(out_file), "--dpi", "60"
    )
    assert code == 0, err
    assert out_file.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--epsilons", "1:0:3"], "START <= STOP"),
        (["--epsilons", "a,b"], "'a,b'"),
        (["--epsilons", "0:1:0"], "NUM"),
        (["--epsilons", "0:1"], "START:STOP:NUM"),
        (["--epsilons=-1"], "'-1'"),
        (["--epsilons", "nan"], "'nan'"),
        (["-o", "x.txt"], "x.txt"),
        (["--dpi", "100"], "--dpi"),
        (["--dpi", "5", "-o", "x.png"], "--dpi"),
        (["-o", "OUT.csv", "--dpi", "100"], "--dpi"),
        (["--delta-floor", "0"], "--delta-floor"),
        (["--delta-floor", "1"], "--delta-floor"),
        (["--delta-floor", "inf"], "--delta-floor"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, tmp_path, argv, needle):
    argv = [str(tmp_path / "p.csv") if a == "OUT.csv" else a for a in argv]
    code, out, err = run(capsys, "profile", COUNT, *argv)
    assert code == 2 and not out
    assert len(err.strip().splitlines()) == 1 and needle in err and "Traceback" not in err


def test_missing_file_and_file_without_mechanism(capsys, tmp_path):
    code, _, err = run(capsys, "profile", str(tmp_path / "missing.json"))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "missing.json" in err
    G = rdp.builders.line(["a", "b"], 1)
    path = tmp_path / "bare.json"
    rdp.save_graph(G, path)
    code, _, err = run(capsys, "profile", str(path))
    assert code == 2 and "mechanism" in err and len(err.strip().splitlines()) == 1


def test_output_must_not_be_the_input(capsys, tmp_path):
    G, M = load(COUNT)
    path = tmp_path / "g.csv"  # a graph file with a CSV name, read as node-link JSON
    rdp.save_graph(G, tmp_path / "g.json", mechanism=M)
    path.write_bytes((tmp_path / "g.json").read_bytes())
    code, _, err = run(capsys, "profile", str(path), "-o", str(path))
    assert code == 2 and "must not overwrite" in err  # and the file is untouched:
    assert path.read_bytes() == (tmp_path / "g.json").read_bytes()
