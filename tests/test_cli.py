"""The rainbowdp command: exit codes, one-line errors, JSON output."""

from __future__ import annotations

import json

import pytest

from rainbowdp.bundled import graphs_dir
from rainbowdp.cli import main

GRAPHS = graphs_dir()


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_verify_private_and_not_private(capsys):
    code, out, _ = run(capsys, "verify", str(GRAPHS / "count_path.json"), "--epsilon", "0.6932")
    assert code == 0 and "private" in out
    code, out, _ = run(
        capsys, "verify", str(GRAPHS / "binary_path.json"), "--epsilon", "1", "--json"
    )
    assert code == 1
    data = json.loads(out)
    assert data["is_private"] is False and data["worst_edge"] == [2, 3]
    assert data["epsilon_required"] == pytest.approx(2.1972245773362196)  # ln 9


def test_demo_runs_and_reports_expected_verdicts(capsys, tmp_path):
    code, out, err = run(capsys, "demo", "--output-dir", str(tmp_path))
    assert code == 0, err
    from rainbowdp.bundled import examples

    names = [ex.name for ex in examples()]
    rows = [line for line in out.splitlines() if line.split(" ")[0] in names]
    assert len(rows) == len(names)
    assert all(line.rstrip().endswith("yes") for line in rows)  # every verdict as expected


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["verify", "missing.json", "--epsilon", "1"], "missing.json"),
        (["verify", "GRAPH", "--epsilon", "abc"], "'abc'"),
        (["verify", "GRAPH", "--epsilon", "-1"], "epsilon=-1.0"),
        (["verify", "GRAPH", "--epsilon", "1", "--delta", "1.5"], "delta=1.5"),
        (["verify", "GRAPH"], "--epsilon"),
        (["frobnicate"], "frobnicate"),
        (
            ["design", "GRAPH", "--epsilon", "1", "--method", "closed-form", "-o", "x.json"],
            "--boundary",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, needle):
    argv = [str(GRAPHS / "count_path.json") if a == "GRAPH" else a for a in argv]
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert needle in err
    assert "Traceback" not in err


def _homogeneous_boundary_file(tmp_path, weights):
    """A --boundary file for three_colour: each rainbow gets ``weights`` along its own order."""
    from rainbowdp.io import load_graph

    G = load_graph(GRAPHS / "three_colour.json")
    rows = []
    for c in G.rainbows:
        vec = [0.0] * G.n_outputs
        for w, o in zip(weights, c, strict=True):
            vec[G.output_index[o]] = w
        rows.append({"rainbow": list(c), "distribution": vec})
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"rainbows": rows}))
    return path


def test_design_closed_form_plot_and_reproduce(capsys, tmp_path):
    # three_colour has 5 rainbows; every rainbow's boundary row: 0.5 / 0.3 / 0.2 along it
    boundary = _homogeneous_boundary_file(tmp_path, [0.5, 0.3, 0.2])
    out = tmp_path / "opt.json"
    code, text, err = run(
        capsys,
        "design",
        str(GRAPHS / "three_colour.json"),
        "--epsilon",
        "1",
        "--boundary",
        str(boundary),
        "-o",
        str(out),
        "--json",
    )
    assert code == 0, err
    info = json.loads(text)
    assert info["method"] == "closed-form" and info["is_private"] is True
    # the written file verifies with the CLI itself
    code, _, _ = run(capsys, "verify", str(out), "--epsilon", "1")
    assert code == 0
    code, _, err = run(capsys, "plot", str(out), "-o", str(tmp_path / "g.png"))
    assert code == 0 and (tmp_path / "g.png").stat().st_size > 10_000, err
    code, text, _ = run(capsys, "reproduce", "fig5", "--json")
    assert json.loads(text)["tau"] == [13, 12, 6, 1, 0]  # Gu et al., Fig. 5 caption


def test_design_rejects_invalid_boundary(capsys, tmp_path):
    # blue-first vs red-first rows that are far apart: not (1, 0)-close across a head edge
    _homogeneous_boundary_file(tmp_path, [0.98, 0.01, 0.01])
    code, _, err = run(
        capsys,
        "design",
        str(GRAPHS / "three_colour.json"),
        "--epsilon",
        "1",
        "--boundary",
        str(tmp_path / "b.json"),
        "-o",
        str(tmp_path / "o.json"),
    )
    assert code == 2 and "edge" in err and len(err.strip().splitlines()) == 1


def test_design_lp_and_milp_write_verified_mechanisms(capsys, tmp_path):
    out = tmp_path / "lp.json"
    code, text, err = run(
        capsys,
        "design",
        str(GRAPHS / "count_path.json"),
        "--method",
        "lp",
        "--epsilon",
        "0.7",
        "--utility",
        "absolute",
        "-o",
        str(out),
        "--json",
    )
    assert code == 0, err
    info = json.loads(text)
    assert info["status"] == "optimal" and info["is_private"] is True
    # the LP optimum is at least as good as the bundled clamped geometric mechanism (ln 2 < 0.7)
    from rainbowdp.design import utility_matrix
    from rainbowdp.io import load

    G, M = load(GRAPHS / "count_path.json")
    geometric = float((utility_matrix(G, "absolute") * M.probabilities).sum())
    assert info["objective"] >= geometric - 1e-9
    assert run(capsys, "verify", str(out), "--epsilon", "0.7")[0] == 0
    code, text, err = run(
        capsys,
        "design",
        str(GRAPHS / "example1_cycle.json"),
        "--method",
        "milp",
        "--epsilon",
        "0.5",
        "--delta",
        "0.1",
        "-o",
        str(tmp_path / "m.json"),
        "--json",
    )
    assert code == 0, err
    assert json.loads(text)["pdp_delta"] <= 0.1


def test_design_with_contradictory_fixed_rows_exits_2(capsys, tmp_path):
    fixed = tmp_path / "f.json"
    fixed.write_text(json.dumps({"nodes": {"d1": [0.2, 0.1, 0.7], "d2": [0.9, 0.05, 0.05]}}))
    code, _, err = run(
        capsys,
        "design",
        str(GRAPHS / "example1_cycle.json"),
        "--method",
        "lp",
        "--epsilon",
        "0.1",
        "--fixed",
        str(fixed),
        "-o",
        str(tmp_path / "o.json"),
    )
    assert code == 2 and "'d1'" in err and "'d2'" in err and len(err.strip().splitlines()) == 1
