"""``--json`` output is JSON whenever a solver runs.

Every command that takes ``--json`` and can reach a solver is run in a subprocess with the real
solvers (HiGHS through highspy as arrays and through PuLP, CBC through PuLP, HiGHS inside scipy),
and its whole standard output must parse with :func:`json.loads`: a solver banner or log line on
standard output breaks ``rainbowdp ... --json | jq``. The instances are small; what matters is
that each solver path is reached.

``reproduce all`` runs every target (minutes); its runner is covered with ``--only`` and two
targets that solve (``table1``: Kadam et al.'s printed MILP (13) through PuLP; ``abs-optimal``:
the min-δ LP of the optimal perturbation tables), and those and the other targets that reach a
solver are run singly with ``reproduce NAME --json``.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("highspy")

GRAPHS = Path(__file__).resolve().parents[1] / "graphs"

#: Runs the command line with the interpreter running the tests.
_MAIN = "import sys; from rainbowdp.cli import main; sys.exit(main())"


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """Run ``rainbowdp ARGS`` in a subprocess, its standard output captured as a pipe."""
    return subprocess.run(
        [sys.executable, "-c", _MAIN, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def run_json(args: list[str], cwd: Path) -> object:
    """Run ``rainbowdp ARGS`` and parse its whole standard output as one JSON document."""
    proc = run(args, cwd)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Running HiGHS" not in proc.stdout, proc.stdout[:300]
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError as exc:  # show what broke the document
        raise AssertionError(f"stdout is not JSON ({exc}): {proc.stdout[:300]!r}") from exc


def _three_colour() -> str:
    return str(GRAPHS / "three_colour.json")


DESIGN_CASES = {
    # solver="highs" (default): the model as arrays straight into highspy
    "lp-highs": ["--method", "lp"],
    "milp-highs": ["--method", "milp", "--delta", "0.1"],
    # the MILP on CBC through PuLP (a subprocess that inherits standard output)
    "milp-cbc": ["--method", "milp", "--delta", "0.1", "--solver", "cbc"],
    "lp-cbc": ["--method", "lp", "--delta", "0.05", "--solver", "cbc"],
}


@pytest.mark.parametrize("case", sorted(DESIGN_CASES))
def test_design_json(tmp_path, case):
    out = tmp_path / "m.json"
    args = ["design", _three_colour(), "--epsilon", "1", *DESIGN_CASES[case], "--json"]
    data = run_json([*args, "-o", str(out)], tmp_path)
    assert data["status"] == "optimal" and data["is_private"] is True
    assert math.isfinite(data["objective"]) and out.exists()


def test_design_json_time_limit(tmp_path):
    # a time limit too short to prove optimality: JSON all the same (the incumbent, or an
    # error on standard error with exit code 2 and nothing on standard output)
    args = ["design", _three_colour(), "--epsilon", "0.3", "--delta", "0.2", "--method", "milp"]
    args += ["--utility", "rank", "--time-limit", "0.01", "--json", "-o", str(tmp_path / "m.json")]
    proc = run(args, tmp_path)
    if proc.returncode == 0:
        assert json.loads(proc.stdout)["status"] in ("optimal", "time_limit")
    else:
        assert proc.returncode == 2 and proc.stdout == ""


FAMILY_CASES = {
    # MILP (13) as printed: a PuLP problem handed to HiGHS
    "modulo-printed": ["--family", "modulo", "--n", "8", "--epsilon", "1", "--delta", "0.1"],
    # the general MILP on the circulant, tied: arrays into highspy
    "modulo-definition": [
        "--family",
        "modulo",
        "--n",
        "8",
        "--epsilon",
        "1",
        "--delta",
        "0.1",
        "--formulation",
        "definition",
    ],
    # Sadeghi et al.'s count noise: scipy's HiGHS (linprog)
    "count": ["--family", "count", "--N", "10", "--D", "3", "--epsilon", "1", "--eta", "0.5"],
}


@pytest.mark.parametrize("case", sorted(FAMILY_CASES))
def test_design_family_json(tmp_path, case):
    data = run_json(["design", *FAMILY_CASES[case], "--json"], tmp_path)
    assert data["family"] == FAMILY_CASES[case][1]


def test_ptable_design_optimal_json(tmp_path):
    # the optimal table: design.min_delta (an LP) on the count path
    args = ["ptable", "design", "--epsilon", "1", "--delta", "1e-5", "--method", "optimal"]
    data = run_json([*args, "--json"], tmp_path)
    assert isinstance(data, dict) and data


#: Targets of ``reproduce`` that reach a solver, each a few seconds.
SOLVING_TARGETS = ("table1", "abs-optimal", "count-fig1")


@pytest.mark.parametrize("target", SOLVING_TARGETS)
def test_reproduce_target_json(tmp_path, target):
    data = run_json(["reproduce", target, "--json"], tmp_path)
    assert isinstance(data, dict) and data


def test_reproduce_all_only_json(tmp_path):
    out = tmp_path / "all"
    data = run_json(
        ["reproduce", "all", "-o", str(out), "--only", ",".join(SOLVING_TARGETS), "--json"],
        tmp_path,
    )
    assert isinstance(data, dict) and data
