"""The rainbowdp command: exit codes, one-line errors, JSON output."""

from __future__ import annotations

import json
from pathlib import Path

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


def test_design_progress_is_on_stderr_and_refused_where_no_solver_runs(capfd, tmp_path):
    """``--progress`` forces the solver's progress on (standard error only: the JSON on
    standard output still parses), and is refused where no LP/MILP runs."""
    argv = ["design", str(GRAPHS / "example1_cycle.json"), "--method", "milp", "--epsilon"]
    argv += ["0.5", "--delta", "0.1", "-o", str(tmp_path / "m.json"), "--json", "--progress"]
    code = main(argv)
    out, _ = capfd.readouterr()
    assert code == 0
    info = json.loads(out)
    assert info["status"] == "optimal" and {"best_bound", "gap"} <= set(info)
    closed_form = ["design", str(GRAPHS / "example1_cycle.json"), "--method", "closed-form"]
    for argv in (
        ["design", "--family", "count", "--N", "5", "--D", "2", "--epsilon", "1", "--progress"],
        [*closed_form, "--epsilon", "1", "--boundary", "b.json", "-o", "c.json", "--progress"],
    ):
        assert main(argv) == 2
        out, err = capfd.readouterr()
        assert out == "" and "--progress" in err and len(err.strip().splitlines()) == 1


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


# ------------------------------------------------------------------ exit codes with --certify
def _mechanism_file(tmp_path, name, rows, outputs=("a", "b")):
    from rainbowdp import builders
    from rainbowdp.io import save_graph
    from rainbowdp.mechanism import Mechanism

    G = builders.line(list(outputs), len(rows) - 1)
    return str(save_graph(G, tmp_path / name, mechanism=Mechanism(G, rows)))


def test_certify_exit_code_follows_the_certificate(capsys, tmp_path):
    private = _mechanism_file(tmp_path, "p.json", [[0.5, 0.5], [0.6, 0.4]])
    not_private = _mechanism_file(tmp_path, "n.json", [[1.0, 0.0], [0.0, 1.0]])
    # One float64 ulp apart: the exact delta required, 2**-53, lies in the tolerance band.
    undecided = _mechanism_file(
        tmp_path, "u.json", [[0.5, 0.5], [0.5000000000000001, 0.4999999999999999]]
    )
    cases = [
        (private, "1", 0, "private"),
        (not_private, "1", 1, "not private"),
        (undecided, "0", 3, "undecided"),
    ]
    for path, eps, code, verdict in cases:
        got, out, err = run(capsys, "verify", path, "--epsilon", eps, "--certify", "--json")
        assert (got, err) == (code, "")
        data = json.loads(out)
        assert data["certificate"] == verdict
        lo, hi = data["certificate_delta_bounds"]
        assert 0 <= lo <= hi <= 1
    # Without --certify the float verdict of the undecided case is "private" (exit 0), so the
    # certificate is what keeps it from reporting success.
    assert run(capsys, "verify", undecided, "--epsilon", "0")[0] == 0
    code, out, _ = run(capsys, "verify", undecided, "--epsilon", "0", "--certify")
    assert code == 3 and "certified undecided" in out


@pytest.mark.parametrize(("verdict", "code"), [("not private", 1), ("undecided", 3)])
def test_certify_overrides_a_float_verdict_of_private(capsys, tmp_path, monkeypatch, verdict, code):
    import dataclasses
    import sys

    certify_module = sys.modules["rainbowdp._verify.certify"]
    real = certify_module.certify

    def fake(*args, **kwargs):
        cert = real(*args, **kwargs)
        return dataclasses.replace(cert, verdict=certify_module.Verdict(verdict))

    monkeypatch.setattr(certify_module, "certify", fake)
    path = _mechanism_file(tmp_path, "p.json", [[0.5, 0.5], [0.6, 0.4]])
    assert run(capsys, "verify", path, "--epsilon", "1")[0] == 0  # float verdict: private
    got, out, err = run(capsys, "verify", path, "--epsilon", "1", "--certify", "--json")
    assert (got, err) == (code, "")
    assert json.loads(out)["certificate"] == verdict


# ------------------------------------------------------------------ JSON output
def _strict_json(text):
    def refuse(token):
        raise AssertionError(f"non-JSON token {token} in the output")

    return json.loads(text, parse_constant=refuse)


def test_json_output_is_strict_and_null_means_infinite(capsys, tmp_path):
    # Output "a" has probability 0 at node 1: no finite epsilon works at delta = 0.
    path = _mechanism_file(tmp_path, "z.json", [[1.0, 0.0], [0.0, 1.0]])
    code, out, err = run(capsys, "verify", path, "--epsilon", "1", "--json", "--certify")
    assert (code, err) == (1, "")
    data = _strict_json(out)
    assert data["epsilon_required"] is None and data["delta_required"] == 1.0
    code, out, _ = run(capsys, "verify", path, "--epsilon", "1", "--delta", "1", "--json")
    assert code == 0 and _strict_json(out)["epsilon_required"] == 0.0  # finite: not null


@pytest.mark.parametrize("eps", ["800", "1e300"])
def test_large_finite_epsilon_is_accepted(capsys, tmp_path, eps):
    path = _mechanism_file(tmp_path, "p.json", [[0.5, 0.5], [0.6, 0.4]])
    code, out, err = run(capsys, "verify", path, "--epsilon", eps, "--json")
    assert (code, err) == (0, "")
    assert _strict_json(out)["epsilon"] == float(eps)


def test_mechanisms_with_zeros_and_subnormals_print_no_warning(capsys, tmp_path):
    # pytest turns warnings into errors here, so a RuntimeWarning would fail the command.
    rows = [[1.0, 0.0], [1.0, 1e-320], [1e-320, 1.0], [0.0, 1.0]]
    path = _mechanism_file(tmp_path, "s.json", rows)
    for argv in (
        ["verify", path, "--epsilon", "0", "--json"],
        ["verify", path, "--epsilon", "1", "--delta", "0.5", "--certify"],
        ["plot", path, "-o", str(tmp_path / "s.png"), "--dpi", "30"],
    ):
        code, _, err = run(capsys, *argv)
        assert code in (0, 1) and err == "", (argv, err)


# ------------------------------------------------------------------ outputs, version, pipes
@pytest.mark.parametrize("name", ["g.png", "g.PDF", "g.svg"])
def test_plot_writes_each_supported_format(capsys, tmp_path, name):
    code, out, err = run(
        capsys, "plot", str(GRAPHS / "binary_path.json"), "-o", str(tmp_path / name), "--dpi", "30"
    )
    assert (code, err) == (0, "") and (tmp_path / name).stat().st_size > 0
    assert str(tmp_path / name) in out


def test_version(capsys):
    from importlib.metadata import version

    code, out, err = run(capsys, "--version")
    assert (code, err) == (0, "") and out.strip() == f"rainbowdp {version('rainbowdp')}"
    code, out, err = run(capsys, "--help")
    assert (code, err) == (0, "") and "3 verify --certify: undecided" in " ".join(out.split())


_MAIN = "import sys; from rainbowdp.cli import main; sys.exit(main())"


def _run_into_closed_pipe(*argv):
    """Run the command with standard output a pipe whose reader is already gone."""
    import os
    import subprocess
    import sys

    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _MAIN, *argv],
            stdout=write_end,
            stderr=subprocess.PIPE,
            timeout=300,
            check=False,
        )
    finally:
        os.close(write_end)
    return proc.returncode, proc.stderr.decode()


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["verify", str(GRAPHS / "count_path.json"), "--epsilon", "0.6932"], 0),
        (["verify", str(GRAPHS / "binary_path.json"), "--epsilon", "1", "--json"], 1),
        (["reproduce", "fig5"], 0),
    ],
)
def test_a_closed_pipe_keeps_the_exit_code_and_stderr_empty(argv, code):
    assert _run_into_closed_pipe(*argv) == (code, "")


def test_a_reader_that_stops_after_one_line(tmp_path):
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-c", _MAIN, "demo", "--output-dir", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    first = proc.stdout.readline()
    proc.stdout.close()  # like `| head -1`
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=300) == 0 and err == ""
    assert first.startswith(b"rainbowdp demo")


def test_reproduce_and_design_write_only_their_own_formats(capsys, tmp_path):
    code, _, err = run(capsys, "reproduce", "fig3", "-o", str(tmp_path / "f.svg"), "--dpi", "20")
    assert (code, err) == (0, "") and (tmp_path / "f.svg").exists()
    out = tmp_path / "lp.json"
    argv = ["design", str(GRAPHS / "binary_path.json"), "--epsilon", "1", "-o", str(out)]
    code, _, err = run(capsys, *argv)
    assert (code, err) == (0, "")
    assert run(capsys, "verify", str(out), "--epsilon", "1", "--certify")[0] == 0
    # nothing was written for refused outputs
    assert run(capsys, *argv[:-1], str(tmp_path / "lp.txt"))[0] == 2
    assert not (tmp_path / "lp.txt").exists() and not (tmp_path / "lp.txt.png").exists()


# ------------------------------------------------------------------------- bad output paths
#: Every command that writes a file with -o, with the suffix it writes. ``{o}`` is the output.
_WRITERS = {
    "design": ["design", str(GRAPHS / "binary_path.json"), "--epsilon", "1", "-o", "{o}.json"],
    "design-count": [
        "design", "--family", "count", "--N", "20", "--D", "6", "--eta", "0.5",
        "--epsilon", "1.1", "-o", "{o}.json",
    ],
    "design-modulo": [
        "design", "--family", "modulo", "--n", "4", "--epsilon", "1", "-o", "{o}.json",
    ],
    "plot": ["plot", str(GRAPHS / "binary_path.json"), "-o", "{o}.png"],
    "profile-image": ["profile", str(GRAPHS / "binary_path.json"), "-o", "{o}.svg"],
    "profile-csv": ["profile", str(GRAPHS / "binary_path.json"), "-o", "{o}.csv"],
    "reproduce": ["reproduce", "fig3", "-o", "{o}.pdf"],
    "ptable-design": ["ptable", "design", "--epsilon", "1", "--delta", "0.01", "-o", "{o}.csv"],
    "perturb": [
        "perturb", "{tmp}/data.csv", "--by", "a", "--ptable", "{tmp}/pt.csv", "-o", "{o}.csv",
    ],
}  # fmt: skip


def _bad_output(tmp_path, kind):
    """An output path (without suffix) that cannot be written, and the words its error names."""
    (tmp_path / "regular").write_text("a regular file, not a directory")
    if kind == "missing-directory":
        return str(tmp_path / "nowhere" / "out"), ["nowhere", "does not exist"]
    if kind == "under-a-file":  # fails even for root
        return str(tmp_path / "regular" / "out"), ["regular", "is not a directory"]
    return str(tmp_path / "adir"), ["adir", "directory"]  # kind == "directory"


@pytest.mark.parametrize("kind", ["missing-directory", "directory", "under-a-file"])
@pytest.mark.parametrize("command", sorted(_WRITERS))
def test_every_output_option_refuses_a_bad_path_with_exit_2(capsys, tmp_path, command, kind):
    out, needles = _bad_output(tmp_path, kind)
    argv = [a.format(o=out, tmp=tmp_path) for a in _WRITERS[command]]
    if kind == "directory":
        Path(argv[-1]).mkdir()  # a directory with the command's own suffix
    before = sorted(p.name for p in tmp_path.rglob("*"))
    code, stdout, err = run(capsys, *argv)
    assert code == 2, (code, stdout, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert "-o/--output" in err and all(n in err for n in needles), err
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # nothing written


@pytest.mark.parametrize(
    "argv",
    [
        # the OSError arises while working (mkdir under a regular file): still bad input
        ["demo", "--output-dir", "{regular}/sub"],
        ["reproduce", "all", "-o", "{regular}/sub", "--only", "fig3"],
    ],
)
def test_an_os_error_while_working_exits_2_with_one_line(capsys, tmp_path, argv):
    (tmp_path / "regular").write_text("x")
    code, _, err = run(capsys, *[a.format(regular=tmp_path / "regular") for a in argv])
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert "Not a directory" in err and "sub" in err


def test_a_failed_write_after_the_work_exits_2_and_leaves_no_file(capsys, tmp_path, monkeypatch):
    import os

    def refuse(src, dst):  # the atomic rename fails, as on a full or read-only file system
        raise PermissionError(13, "Permission denied", str(dst))

    monkeypatch.setattr(os, "replace", refuse)
    out = tmp_path / "lp.json"
    code, _, err = run(
        capsys, "design", str(GRAPHS / "binary_path.json"), "--epsilon", "1", "-o", str(out)
    )
    assert code == 2 and err.count("\n") == 1 and "Permission denied" in err and "lp.json" in err
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------------------ symbolic links
@pytest.mark.skipif(not hasattr(Path, "symlink_to"), reason="symbolic links")
def test_output_through_a_symbolic_link_replaces_its_target(capsys, tmp_path):
    # docs/cli.md: -o follows a symbolic link, as cp and the shell's > do
    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    code, _, err = run(
        capsys, "design", str(GRAPHS / "binary_path.json"), "--epsilon", "1", "-o", str(link)
    )
    assert (code, err) == (0, "")
    assert link.is_symlink() and json.loads(target.read_text())["graph"]["outputs"]
    # a link to the input graph is the input: refused, and the input is untouched
    graph = tmp_path / "g.json"
    graph.write_bytes((GRAPHS / "binary_path.json").read_bytes())
    (tmp_path / "to_input.json").symlink_to(graph)
    before = graph.read_bytes()
    code, _, err = run(
        capsys, "design", str(graph), "--epsilon", "1", "-o", str(tmp_path / "to_input.json")
    )
    assert code == 2 and "must not overwrite the input file" in err and graph.read_bytes() == before
    # a dangling link into a missing directory: exit 2, naming that directory
    (tmp_path / "dangling.png").symlink_to(tmp_path / "gone" / "x.png")
    code, _, err = run(capsys, "plot", str(graph), "-o", str(tmp_path / "dangling.png"))
    assert code == 2 and "gone" in err and "does not exist" in err


# ------------------------------------------------------------------- bounds of integer options
@pytest.mark.parametrize(
    ("argv", "option", "value", "bound"),
    [
        (["design", "--family", "count", "--N", "10000000", "--D", "5", "--eta", "0.5"],
         "--N", "10000000", "[1, 2000]"),
        (["design", "--family", "count", "--N", "20", "--D", "1001", "--eta", "0.5"],
         "--D", "1001", "[1, 1000]"),
        (["design", "--family", "count", "--N", "20", "--D", "0", "--eta", "0.5"],
         "--D", "0", "[1, 1000]"),
        (["design", "--family", "count", "--N", "20", "--D", "5", "--n-min", "-3"],
         "--n-min", "-3", "[1, 2000]"),
        (["design", "--family", "modulo", "--n", "1000000"], "--n", "1000000", "[1, 64]"),
        (["design", "--family", "modulo", "--n", "65"], "--n", "65", "[1, 64]"),
        (["families", "geometric", "--n", "2001"], "--n", "2001", "[1, 2000]"),
        (["design", "--family", "modulo", "--n", "4", "--neighbourhood", "bd:10000000000"],
         "--neighbourhood", "bd:10000000000", "[1, 4]"),
        (["design", "--family", "modulo", "--n", "4", "--neighbourhood", "bd:5"],
         "--neighbourhood", "bd:5", "[1, 4]"),
        (["plot", str(GRAPHS / "binary_path.json"), "-o", "x.png", "--dpi", "1201"],
         "--dpi", "1201", "[10, 1200]"),
        (["profile", str(GRAPHS / "binary_path.json"), "--epsilons", "0:1:10001"],
         "--epsilons", "10001", "[1, 10000]"),
    ],
)  # fmt: skip
def test_integer_options_are_bounded_before_any_work(capsys, argv, option, value, bound):
    extra = [] if argv[0] in ("plot", "profile") else ["--epsilon", "1"]
    code, _, err = run(capsys, *argv, *extra)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert option in err and value in err and bound in err, err


def test_integer_bounds_admit_their_limits():
    from rainbowdp import cli
    from rainbowdp.cli._common import bounded_int

    parse = bounded_int("--N", 1, cli.MAX_COUNT_N)
    assert parse("1") == 1 and parse(str(cli.MAX_COUNT_N)) == cli.MAX_COUNT_N
    with pytest.raises(Exception, match=r"--N=2001"):
        parse(str(cli.MAX_COUNT_N + 1))
    with pytest.raises(Exception, match=r"must be an integer, got '9999999999999999999999999"):
        parse("9" * 5000)  # more digits than int() converts: the message stays short
    # the limit of families --n is that of the library's default graphs
    from rainbowdp.noise import get_family

    get_family("geometric")(epsilon=1.0).graph(cli.MAX_FAMILY_N)  # accepted by the library
    with pytest.raises(ValueError, match="n=2001"):
        get_family("geometric")(epsilon=1.0).graph(cli.MAX_FAMILY_N + 1)


def test_help_states_the_bounds(capsys):
    for argv, words in [
        (["design", "--help"], ["1..2000", "1..1000", "1..64"]),
        (["families", "--help"], ["1..2000"]),
    ]:
        code, out, _ = run(capsys, *argv)
        assert code == 0 and all(w in " ".join(out.split()) for w in words), out


# ------------------------------------------------------------------ reproduce: the registry
def test_reproduce_help_lists_every_target(capsys):
    from rainbowdp.reproduce import TARGETS

    code, out, err = run(capsys, "reproduce", "--help")
    assert (code, err) == (0, "")
    words = set(out.replace(",", " ").replace(";", " ").replace(")", " ").split())
    assert set(TARGETS) <= words


def test_reproduce_accepts_a_worked_example(capsys, tmp_path):
    code, out, err = run(capsys, "reproduce", "gu-example1", "--json")
    assert (code, err) == (0, "")
    data = _strict_json(out)
    assert data["figure"] == "gu-example1" and data["values"]["optimum_refused"] is True
    code, out, err = run(capsys, "reproduce", "gu-example1")
    assert code == 0 and "Gu et al., Example 1" in out
    # a table has no image: -o is refused, nothing written
    code, _, err = run(capsys, "reproduce", "gu-example1", "-o", str(tmp_path / "x.png"))
    assert code == 2 and "-o/--output" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x.png").exists()
