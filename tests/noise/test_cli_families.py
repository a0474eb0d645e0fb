"""The ``rainbowdp families`` command: listing, building, JSON, and one-line errors."""

from __future__ import annotations

import json

import pytest

import rainbowdp.noise as noise
from rainbowdp.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_lists_every_registered_family(capsys):
    code, out, err = run(capsys, "families")
    assert code == 0 and err == ""
    lines = out.strip().splitlines()
    assert [line.split()[0] for line in lines] == sorted(noise.FAMILIES)
    for line in lines:
        name = line.split()[0]
        assert noise.FAMILIES[name].summary in line
    code, out, _ = run(capsys, "families", "--json")
    data = json.loads(out)
    assert [f["name"] for f in data["families"]] == sorted(noise.FAMILIES)


@pytest.mark.parametrize(
    ("argv", "measure", "holds"),
    [
        (["geometric", "--n", "10", "--epsilon", "1"], "epsilon", True),
        (["geometric", "--n", "10", "--epsilon", "1", "--form", "truncated"], "epsilon", False),
        (["discrete_gaussian", "--n", "10", "--epsilon", "1", "--sigma", "1"], "delta", True),
        (["randomized_response", "--n", "4", "--epsilon", "0.5"], "epsilon", True),
        (["exponential", "--n", "6", "--epsilon", "2"], "epsilon", True),
        (["staircase", "--n", "6", "--epsilon", "1", "--form", "modular"], "epsilon", True),
    ],
)
def test_builds_and_compares_nominal_with_exact(capsys, argv, measure, holds):
    code, out, err = run(capsys, "families", *argv, "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["family"] == argv[0] and data["measure"] == measure
    assert data["holds_on"] is holds and "warnings" not in data
    assert data["graph"]["n"] == int(argv[2])
    if holds:  # the float rows meet the claim within its documented tolerance
        slack = noise.get_family(argv[0]).examples()[0][0].nominal().tolerance
        assert data["exact"] <= data["nominal"] + slack
    else:
        assert data["exact"] > data["nominal"]
    code, text, _ = run(capsys, "families", *argv)
    assert code == 0 and "nominal" in text and "exact" in text and data["source"] in text


def test_the_gaussian_compares_delta_at_the_given_epsilon(capsys):
    _, out, _ = run(
        capsys,
        "families",
        "discrete_gaussian",
        "--n",
        "8",
        "--epsilon",
        "0.5",
        "--sigma",
        "2",
        "--json",
    )
    data = json.loads(out)
    assert data["nominal"] == pytest.approx(noise.DiscreteGaussian(2.0).dp_delta(0.5))
    assert data["parameters"] == {"sigma": 2.0, "form": "clamped", "sensitivity": 1}


def test_entries_below_the_float_floor_keep_the_mechanism_private(capsys):
    # the truncated geometric at epsilon = 2 on counts 0..400 spans e^-800: entries below 2^-1000
    # are stored as 2^-1000, which keeps every likelihood ratio within the truncated law's
    code, out, err = run(
        capsys,
        "families",
        "geometric",
        "--n",
        "400",
        "--epsilon",
        "2",
        "--form",
        "truncated",
        "--json",
    )
    assert code == 0 and err == ""
    data = json.loads(out)
    # truncation can double epsilon (the normaliser's ratio adds at most epsilon)
    assert data["exact"] is not None and 2.0 < data["exact"] <= 4.0
    assert data["holds_on"] is False


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["families", "laplace", "--n", "3", "--epsilon", "1"], "name='laplace'"),
        (["families", "geometric", "--epsilon", "1"], "--n"),
        (["families", "geometric", "--n", "3"], "--epsilon"),
        (["families", "geometric", "--n", "x", "--epsilon", "1"], "'x'"),
        (["families", "geometric", "--n", "0", "--epsilon", "1"], "n=0"),
        (["families", "geometric", "--n", "5000", "--epsilon", "1"], "n=5000"),
        (["families", "geometric", "--n", "3", "--epsilon", "nan"], "'nan'"),
        (["families", "geometric", "--n", "3", "--epsilon", "0"], "epsilon=0.0"),
        (["families", "geometric", "--n", "3", "--epsilon", "1", "--sigma", "2"], "--sigma"),
        (["families", "discrete_gaussian", "--n", "3", "--epsilon", "1"], "--sigma"),
        (
            ["families", "discrete_gaussian", "--n", "3", "--epsilon", "1", "--sigma", "-1"],
            "sigma=-1.0",
        ),
        (["families", "exponential", "--n", "3", "--epsilon", "1", "--form", "clamped"], "--form"),
        (["families", "geometric", "--n", "3", "--epsilon", "1", "--form", "wrap"], "wrap"),
        (["families", "--n", "3"], "NAME"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert needle in err and "Traceback" not in err


# ------------------------------------------------------------------------ design --family modulo
def test_design_family_modulo_reproduces_table1(capsys, tmp_path):
    out = tmp_path / "mod.json"
    argv = ["design", "--family", "modulo", "--n", "8", "--neighbourhood", "bd:3"]
    argv += ["--epsilon", "1.5", "--delta", "0.1238", "--reading", "paper", "-o", str(out)]
    code, text, err = run(capsys, *argv, "--json")
    assert code == 0 and err == ""
    data = json.loads(text)
    # Kadam et al., Table 1, delta = 0.1238 column
    assert data["pmf"][:7] == pytest.approx(
        [0.5548, 0.1238, 0.1238, 0.1238, 0.0276, 0.0276, 0.0062], abs=5e-5
    )
    assert data["pdp_leakage"] <= 0.1238 and data["dp_delta"] <= data["pdp_leakage"]
    assert data["shifts"] == [1, 2, 3] and data["formulation"] == "printed"
    # the written mechanism verifies on its own (directed) graph
    code, _, _ = run(capsys, "verify", str(out), "--epsilon", "1.5", "--delta", "0.1238")
    assert code == 0
    code, text, _ = run(capsys, *argv[:-2])  # without -o: printed only
    assert code == 0 and "0.5548" in text


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["design", "--family", "modulo", "--epsilon", "1"], "`--n`"),
        (["design", "--epsilon", "1", "-o", "x.json"], "`GRAPH`"),
        (["design", "g.json", "--epsilon", "1"], "`-o/--output`"),
        (
            ["design", "--family", "modulo", "--n", "4", "--neighbourhood", "xx", "--epsilon", "1"],
            "`--neighbourhood`",
        ),
        (
            [
                "design",
                "--family",
                "modulo",
                "--n",
                "4",
                "--neighbourhood",
                "sd:9",
                "--epsilon",
                "1",
            ],
            "`shifts`",
        ),
        (
            ["design", "--family", "modulo", "--n", "4", "--utility", "rank", "--epsilon", "1"],
            "`--utility`",
        ),
        (["design", "g.json", "--n", "4", "--epsilon", "1", "-o", "x.json"], "`--n`"),
    ],
)
def test_design_family_errors(capsys, argv, needle):
    code, _, err = run(capsys, *argv)
    assert code == 2 and needle in err and err.count("\n") == 1


def test_design_family_count(capsys, tmp_path):
    # rainbowdp design --family count: alpha*, singleton delta*, Remark 2's bound, exact delta
    from rainbowdp.io import load
    from rainbowdp.noise import count

    code, out, err = run(
        capsys, "design", "--family", "count", "--N", "20", "--D", "6", "--eta", "0.5",
        "--epsilon", "1.1", "--json",
    )  # fmt: skip
    assert code == 0 and err == ""
    data = json.loads(out)
    opt = count.optimum(6, epsilon=1.1, eta=0.5)
    assert data["alpha_star"] == opt.alpha.tolist() and data["law"] == "singleton"
    assert data["singleton_delta"] == opt.delta and data["remark2_bound"] == opt.dp_bound
    assert data["n_min"] == 6 and data["case"] == "theorem3"
    assert data["singleton_delta"] < data["exact_delta"] < data["remark2_bound"]
    assert data["exact_optimal_delta"] <= data["exact_delta_alpha_star"]
    # without --eta, the largest eta whose exact-optimal law meets --delta; written and certified
    path = tmp_path / "count.json"
    code, out, err = run(
        capsys, "design", "--family", "count", "--N", "20", "--D", "8", "--epsilon", "1.1",
        "--delta", "1e-3", "-o", str(path),
    )  # fmt: skip
    assert code == 0 and "exact-delta-optimal law" in out and path.exists()
    M = load(path)[1]
    from rainbowdp import certify

    assert certify(M, epsilon=1.1, delta=1e-3).verdict == "private"
    assert abs(M.probabilities[0, 8] - 0.5) < 0.01  # Section IV: eta = 0.5 at (1.1, 1e-3), D = 8


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--N", "20", "--eta", "0.5", "--epsilon", "1"], "--D"),
        (["--N", "20", "--D", "3", "--eta", "1.5", "--epsilon", "1"], "eta"),
        (["--N", "20", "--D", "3", "--epsilon", "1"], "--eta"),
        (["--N", "20", "--D", "3", "--eta", "0.5", "--epsilon", "1", "--n", "4"], "--n"),
        (["--N", "20", "--D", "3", "--eta", "0.5", "--epsilon", "1", "--utility", "rank"], "util"),
    ],
)
def test_design_family_count_errors(capsys, argv, needle):
    code, out, err = run(capsys, "design", "--family", "count", *argv)
    assert code == 2 and out == "" and needle in err and len(err.strip().splitlines()) == 1


def test_families_count_needs_design(capsys):
    code, _, err = run(capsys, "families", "count", "--n", "5", "--epsilon", "1")
    assert code == 2 and "design --family count" in err


# ------------------------------------------------------------- design --family: every family
#: Options of the families whose designer takes options beyond its parameters.
_DESIGNER_ARGV = {
    "count": lambda fam: ["--N", str(fam.D + 6)],
    "modulo": lambda fam: ["--n", "8", "--neighbourhood", ",".join(map(str, fam.shifts))],
}


def _design_argv(name):
    """``design --family NAME`` on a small instance: the family's first example whose nominal
    guarantee holds on its default graph, every parameter it sets given as an option."""
    from rainbowdp.cli._common import family_parameters

    cls = noise.get_family(name)
    fam = next(f for f, _ in cls.examples() if f.holds_on(f.graph(6)))
    epsilon = getattr(fam, "epsilon", 1.0)
    if name in _DESIGNER_ARGV:
        delta = getattr(fam, "delta", 0.0)
        argv = _DESIGNER_ARGV[name](fam)
    else:  # the family's mechanism itself, verified at its nominal (epsilon, delta)
        claim = fam.nominal()
        delta = 0.0 if claim.pure else min(1.0, claim.dp_delta(epsilon) + 1e-9)
        argv = ["--n", "6"]
    for p in family_parameters(cls):
        value = getattr(fam, p.name)
        if p.type is not None and p.name not in ("epsilon", "delta") and value is not None:
            argv += [p.flag, str(value)]
    return [*argv, "--epsilon", repr(epsilon), "--delta", repr(delta)], epsilon, delta


@pytest.mark.parametrize("name", sorted(noise.FAMILIES))
def test_design_accepts_every_registered_family(capsys, tmp_path, name):
    argv, epsilon, delta = _design_argv(name)
    out = tmp_path / f"{name}.json"
    code, text, err = run(capsys, "design", "--family", name, *argv, "-o", str(out), "--json")
    assert (code, err) == (0, ""), (argv, err)
    data = json.loads(text, parse_constant=lambda token: pytest.fail(f"{token} in the JSON"))
    assert data["family"] == name and out.exists()
    if name != "count":  # count writes its exact-delta law (its own tests verify it)
        assert run(capsys, "verify", str(out), "--epsilon", repr(epsilon), "--delta",
                   repr(delta))[0] == 0  # fmt: skip


def test_design_of_a_family_that_fails_its_guarantee_writes_nothing(capsys, tmp_path):
    out = tmp_path / "g.json"
    argv = ["design", "--family", "geometric", "--n", "10", "--epsilon", "1", "--form"]
    code, text, err = run(capsys, *argv, "truncated", "-o", str(out), "--json")
    assert (code, err) == (1, "") and not out.exists()
    data = json.loads(text)
    assert data["is_private"] is False and data["holds_on"] is False and data["output"] is None
    assert data["epsilon_required"] > 1.0


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--family", "geometric", "--n", "5", "--sigma", "1"], "`--sigma`"),
        (["--family", "discrete_gaussian", "--n", "5"], "`--sigma`"),
        (["--family", "geometric", "--epsilon", "1"], "`--n`"),
        (["--family", "geometric", "--n", "2001"], "[1, 2000]"),
        (["--family", "exponential", "--n", "5", "--form", "clamped"], "`--form`"),
        (["--family", "randomized_response", "--n", "5", "--solver", "highs"], "`--solver`"),
        (["--family", "geometric", "--n", "5", "--sensitivity", "x"], "'x'"),
        (["--family", "laplace", "--n", "5"], "laplace"),
    ],
)
def test_design_family_options_come_from_the_family(capsys, argv, needle):
    extra = [] if "--epsilon" in argv else ["--epsilon", "1"]
    code, out, err = run(capsys, "design", *argv, *extra)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert needle in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("old", "new"), [("er", "error_rate"), ("mse", "squared"), ("abs", "absolute")]
)
def test_design_modulo_loss_names_and_their_old_spellings(capsys, old, new):
    base = ["design", "--family", "modulo", "--n", "5", "--epsilon", "1", "--json"]
    _, by_old, _ = run(capsys, *base, "--loss", old)
    _, by_new, _ = run(capsys, *base, "--loss", new)
    a, b = json.loads(by_old), json.loads(by_new)
    assert a == b and a["loss"] == new


def test_families_options_come_from_the_registry(capsys):
    # a parameter beyond --form and --sigma: the staircase's gamma, the tablebuilder's D
    code, out, err = run(
        capsys, "families", "tablebuilder", "--n", "4", "--epsilon", "1", "--D", "3", "--gamma",
        "0.4", "--json",
    )  # fmt: skip
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["parameters"] == {"D": 3, "gamma": 0.4} and data["measure"] == "delta"
    from rainbowdp.cli._common import family_parameters

    flags = {p.flag for c in noise.FAMILIES.values() for p in family_parameters(c) if p.type}
    for command in ("families", "design"):
        code, out, _ = run(capsys, command, "--help")
        assert code == 0 and all(f in out.split() for f in flags - {"--epsilon", "--delta"})
