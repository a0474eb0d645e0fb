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
