"""Tests of rainbowdp.reproduce.reproduce_all, its registry of printed values and
``rainbowdp reproduce all``."""

from __future__ import annotations

import html
import json
import math
import re
import sys
import types
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import matplotlib
import pytest

from rainbowdp import reproduce as r
from rainbowdp.cli import main
from rainbowdp.exceptions import ParameterError, ParameterTypeError
from rainbowdp.reproduce import CheckResult, _all, _printed, _targets
from rainbowdp.reproduce._printed import KINDS, PAPERS, PRINTED, Printed

matplotlib.use("Agg")

ERRATA = Path(__file__).resolve().parents[1] / "docs" / "errata.md"
REPRODUCE_DOCS = Path(__file__).resolve().parents[1] / "docs" / "reproduce.md"
#: Cheap targets: a figure with two errata, a worked example, the quantised-lookup example.
CHEAP = ("fig3", "gu-example1", "abs-example3")


def md_escaped(text: str) -> str:
    """What the Markdown index makes of a cell's text (CommonMark backslash escapes)."""
    return "".join("\\" + c if c in "\\`*_[]<>|" else c for c in " ".join(text.split()))


@pytest.fixture(scope="module")
def cheap_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("repro") / "new" / "dir"  # created, parents too
    return r.reproduce_all(out, names=list(CHEAP), progress=False, dpi=20)


# ---------------------------------------------------------------------------------- registry
def test_the_figures_are_the_targets_with_an_image():
    figures = [name for name, t in r.TARGETS.items() if t.figure]
    assert len(figures) >= 30
    # the targets beyond the figures are the worked examples (tables, no image)
    extra = set(r.TARGETS) - set(figures)
    assert extra == {"gu-example1", "count-example1", "abs-example2", "abs-example3"}


def test_a_reproduction_is_declared_once_with_its_printed_values_and_its_documentation():
    """Adding a reproduction touches its paper module (compute and declare), its paper's
    printed-values module (printed values and checks, or why there are none) and
    docs/reproduce.md -- and these three must agree."""
    from rainbowdp.reproduce import _printed_abs, _printed_gu, _printed_kadam, _printed_sadeghi

    printed_of = {
        "gu": _printed_gu,
        "kadam": _printed_kadam,
        "sadeghi": _printed_sadeghi,
        "abs": _printed_abs,
    }
    docs = REPRODUCE_DOCS.read_text(encoding="utf-8")
    order = []
    assert [m.PAPER for m in _targets.PAPER_MODULES] == list(PAPERS)
    for module in _targets.PAPER_MODULES:
        names = [spec.name for spec in module.TARGETS]
        order += names
        values = printed_of[module.PAPER]
        # each paper's printed values are keyed by the names of its own targets ...
        assert set(values.PRINTED) | set(values.NO_NUMBERS) == set(names), module.__name__
        # ... every target has printed values or says why there are none, not both ...
        assert not set(values.PRINTED) & set(values.NO_NUMBERS)
        # ... and every printed value has its extractor
        assert set(values.EXTRACTORS) == set(values.PRINTED)
        for name, entries in values.PRINTED.items():
            assert entries and set(values.EXTRACTORS[name]) == set(entries), name
        assert all(r.TARGETS[name].paper == module.PAPER for name in names)
    # the index order: paper by paper, each in the order its module declares
    assert list(r.TARGETS) == order
    assert set(_printed.PRINTED) | set(_printed.NO_NUMBERS) == set(r.TARGETS)
    for name, target in r.TARGETS.items():
        assert (name in _printed.PRINTED) != (name in _printed.NO_NUMBERS), name
        if name in _printed.NO_NUMBERS:
            assert target.note == _printed.NO_NUMBERS[name] and not target.checks
        assert f"`{name}`" in docs, f"docs/reproduce.md does not mention the target {name!r}"


def test_every_printed_value_is_cited_parsed_and_paired_with_an_extractor():
    errata = set(re.findall(r"^### (\d+)\.", ERRATA.read_text(encoding="utf-8"), re.M))
    assert set(PRINTED) <= set(r.TARGETS)
    n = 0
    for name, target in r.TARGETS.items():
        assert target.paper in PAPERS
        assert [c.key for c in target.checks] == list(PRINTED.get(name, {}))
        assert target.checks or target.note, name  # no number printed: the index says why
        for c in target.checks:
            p = c.printed
            n += 1
            assert p.kind in KINDS and p.label and p.text and callable(c.extract)
            assert p.citation.split(",")[0] in {
                "Gu et al.",
                "Kadam et al.",
                "Sadeghi et al.",
                "Sadeghi & Chien",
            }, p.citation
            if p.erratum is not None:  # every erratum cited exists in docs/errata.md
                assert str(p.erratum) in errata, (name, p.erratum)
            if p.kind == "digits":
                assert p.tolerance is not None and p.tolerance >= 0
    assert n == sum(len(v) for v in PRINTED.values()) > 150


# ---------------------------------------------------------------------------- printed values
@pytest.mark.parametrize(
    ("text", "tolerance", "inside", "outside"),
    [
        ("0.0049", 5e-5, 0.004949, 0.00496),
        ("9.91e-5", 5e-8, 9.914e-5, 9.916e-5),
        ("49.00", 5e-3, 49.0049, 49.006),
        ("-0.04", 5e-3, -0.0390625, -0.0349),
        ("282", 0.5, 281.6, 281.1),
        ("0.056895481243871", 5e-16, 0.0568954812438714, 0.0568954812438720),
    ],
)
def test_the_tolerance_is_half_a_unit_of_the_last_printed_digit(text, tolerance, inside, outside):
    p = Printed("x", text, "Gu et al., nowhere")
    # half a unit of the last digit plus four float64 ulps of the printed value, no more
    round_off = 4 * math.ulp(abs(float(Decimal(text))))
    assert tolerance <= p.tolerance <= tolerance * (1 + 1e-12) + round_off * (1 + 1e-12)
    assert p.value == Decimal(text)
    assert p.agrees(inside) and not p.agrees(outside)
    assert not p.agrees(math.nan) and not p.agrees(math.inf)


def test_fractions_tuples_exact_values_and_bounds():
    quarter = Printed("x", "1/4", "c")
    assert quarter.value == Fraction(1, 4)
    assert 4 * math.ulp(0.25) <= quarter.tolerance <= 4 * math.ulp(0.25) * (1 + 1e-12)
    assert quarter.agrees(0.25) and not quarter.agrees(0.25 + 1e-12)
    third = Printed("x", "1/3", "c")  # the nearest float to 1/3 is 1.9e-17 away from it
    assert third.agrees(1 / 3) and third.gap(1 / 3) <= third.tolerance < 1e-15
    row = Printed("row", "(0.7, 0.05, 0.25)", "c")
    assert 0.05 <= row.tolerance <= 0.05 + 1e-15
    assert row.agrees((0.72, 0.046, 0.25)) and not row.agrees((0.72, 0.056, 0.25))
    assert not row.agrees((0.7, 0.05))
    assert row.show((0.7, 0.05, 0.25)) == "(0.7, 0.05, 0.25)"
    power = Printed("c^Q(25)", "2^32", "c", "exact")
    assert power.value == 2**32 and power.agrees(4294967296) and not power.agrees(2**32 - 1)
    pairs = Printed("peaks", "{(1, 2), (3, 5)}", "c", "exact")
    assert pairs.agrees({(3, 5), (1, 2)}) and not pairs.agrees({(1, 2)})
    steps = Printed("steps", "(1, 3, 3, 2)", "c", "exact")
    assert steps.agrees((1, 3, 3, 2)) and not steps.agrees((1, 3, 2, 3))
    bound = Printed("bound", "5e-7", "c", "at_most")
    assert bound.tolerance is None and bound.agrees(2.76e-7) and not bound.agrees(5.1e-7)
    slack = Printed("eps", "0.498039387067656", "c", rel_slack=1e-12)
    assert slack.agrees(0.498039387067656 * (1 + 9e-13))
    assert not Printed("eps", "0.498039387067656", "c").agrees(0.498039387067656 * (1 + 9e-13))
    with pytest.raises(TypeError, match="claim"):
        Printed("s", "it holds", "c", "claim").agrees(True)
    with pytest.raises(ValueError, match="`kind`"):
        Printed("s", "1", "c", "approx")  # type: ignore[arg-type]
    with pytest.raises(ArithmeticError):
        Printed("s", "1.2.3", "c")  # a typo in a printed number fails at once


# ------------------------------------------------------------------------------ the runner
def test_cheap_targets_write_files_and_an_index_with_every_check(cheap_run):
    s = cheap_run
    assert [t.name for t in s.targets] == list(CHEAP) and s.ok
    assert s.directory.is_dir() and s.index_markdown.exists() and s.index_html.exists()
    fig3, example, ex3 = s.targets
    assert fig3.image == "fig3.png" and fig3.data is None
    assert (s.directory / "fig3.png").read_bytes()[:4] == b"\x89PNG"
    for t in (example, ex3):  # tables: data, no image
        assert t.image is None and t.data == f"{t.name}.json"
        json.loads((s.directory / t.data).read_text(encoding="utf-8"))
    md = s.index_markdown.read_text(encoding="utf-8")
    page = s.index_html.read_text(encoding="utf-8")
    for t in s.targets:
        assert len(t.checks) == len(r.TARGETS[t.name].checks) > 0
        assert t.seconds > 0 and t.error is None
        for c in t.checks:
            assert c.status in ("yes", "erratum 3")
            for text in (c.label, c.printed, c.shown, c.citation):
                assert md_escaped(text) in md, text
                assert html.escape(text) in page, text
    # one table per paper, one row per check
    sections = {part.split("\n")[0]: part for part in md.split("\n## ")[1:]}
    assert list(sections) == [PAPERS["gu"], PAPERS["abs"], "Time per target"]

    def rows(section: str) -> int:
        return sum(1 for line in section.splitlines() if line.startswith("| ")) - 2  # header

    assert rows(sections[PAPERS["gu"]]) == len(fig3.checks) + len(example.checks)
    assert rows(sections[PAPERS["abs"]]) == len(ex3.checks)
    assert "fig3.png" in md and "[gu-example1.json](gu-example1.json)" in md
    assert "<script" not in page and "http" not in page  # self-contained


def test_recomputed_values_come_from_the_library(cheap_run):
    fig3 = {c.label: c for c in cheap_run.targets[0].checks}
    f = r.figure_3()
    for k, tau in enumerate(f.tau):
        c = fig3[f"τ_{k + 1}"]
        assert c.recomputed == tau and c.printed == str(tau) and c.status == "yes"
    # Gu et al., Section 5.3: "0.5822 is 1 minus all the other values" -- it is 0.5823
    m5 = fig3["m_5 = 1 minus the other printed entries"]
    assert m5.printed == "0.5822" and m5.status == "erratum 3"
    assert m5.recomputed == pytest.approx(1 - sum(r.GU_BOUNDARY[:4]), abs=1e-15)
    ex3 = {c.label: c for c in cheap_run.targets[2].checks}
    assert ex3["c^Q(24)"].recomputed == 4294541537 and ex3["c^Q(24)"].kind == "exact"
    assert ex3["B^Q (4.6)"].recomputed == -25 / 2**32
    eps = next(c for c in ex3.values() if c.label.startswith("ε^Q (4.8)-(4.10)"))
    # Example 3 prints 0.498039387067656 (15 digits): the exact ε^Q agrees within half a unit
    # of its last digit; the library's rounded-up ε^Q is above the exact one
    assert eps.status == "yes" and eps.gap <= 5e-16 + 4 * math.ulp(0.5)
    table = r.abs_example3().values
    assert table["epsilon_q"] >= eps.recomputed == table["epsilon_q_exact"]
    example = {c.label: c for c in cheap_run.targets[1].checks}
    assert example["M_3 is not ε-DP"].status == "yes"
    assert "d2 ~ d3" in example["M_3 is not ε-DP"].shown
    counts = cheap_run.counts
    assert counts["checks"] == sum(len(t.checks) for t in cheap_run.targets)
    assert counts["erratum"] == 2 and counts["disagree"] == 0 and counts["agree"] > 20


FIX3 = {"erratum": 3, "corrected": "3.0", "correction": "value"}
FIX15 = {"erratum": 15, "corrected": "2.0", "correction": "value"}


def test_corrections_are_required_with_an_erratum_and_at_the_printed_precision():
    with pytest.raises(ValueError, match="needs `corrected`"):
        Printed("x", "1.0", "c", erratum=3)
    with pytest.raises(ValueError, match="printed precision"):
        Printed("x", "0.0081", "c", erratum=3, corrected="0.008", correction="value")
    with pytest.raises(ValueError, match="needs kind='claim'"):
        Printed("x", "1.0", "c", erratum=3, corrected="it is 2", correction="statement")
    with pytest.raises(ValueError, match="needs a number"):
        Printed("x", "it holds", "c", "claim", erratum=3, corrected="2.0", correction="value")
    with pytest.raises(ValueError, match="go with an `erratum`"):
        Printed("x", "1.0", "c", corrected="2.0")
    with pytest.raises(TypeError, match="no corrected value"):
        Printed("x", "1.0", "c").corrects(1.0)
    # every erratum of the registry states its correction; numbers parse at the printed precision
    for entries in PRINTED.values():
        for p in entries.values():
            assert (p.erratum is None) == (p.corrected is None) == (p.correction is None)
            if p.correction == "value":
                fixed = float(_exact_number(p.corrected))  # "0.0082" or a fraction "1/4"
                assert p.corrects(fixed) and not p.agrees(fixed)
            elif p.correction == "statement":
                assert p.kind == "claim"


@pytest.mark.parametrize("key", ["m_2", "m_5"])
def test_an_erratum_check_with_a_broken_extractor_disagrees(key):
    # Gu et al., Section 5.3 (errata item 3): m_2 is 0.0082, m_5 is 0.5823
    check = next(c for c in r.TARGETS["fig3"].checks if c.key == key)
    f = r.figure_3()
    good = _all.evaluate(check, f)
    assert good.status == "erratum 3" and good.corrected == check.printed.corrected
    wrong = {"m_2": 0.0095, "m_5": 0.6}[key]  # neither the printed nor the corrected value
    broken = r.Check(check.key, check.printed, lambda f: wrong)
    bad = _all.evaluate(broken, f)
    assert bad.status == "no" and not bad.ok and "neither" in bad.note
    # the printed value itself, for an erratum, is a disagreement too
    printed = r.Check(check.key, check.printed, lambda f: float(check.printed.text))
    assert _all.evaluate(printed, f).status == "no"


def test_a_broken_statement_erratum_disagrees(monkeypatch):
    # Kadam et al., Fig. 8 (errata item 15): the MSEs are 1.25, 21.5 and 22.2
    check = next(c for c in r.TARGETS["fig8"].checks if c.key == "same_mse")
    fake = types.SimpleNamespace(findings={"mse": {"a": 1.25, "b": 21.5, "c": 22.2}})
    assert _all.evaluate(check, fake).status == "erratum 15"
    fake.findings["mse"]["c"] = 30.0  # the printed claim fails, the corrected one too
    assert _all.evaluate(check, fake).status == "no"


def test_gu_boundary_checks_read_the_vector_the_figures_use(monkeypatch):
    f = r.figure_3()
    drawn = [c for c in r.TARGETS["fig3"].checks if c.key.startswith("drawn_")]
    assert [_all.evaluate(c, f).recomputed for c in drawn] == list(r.GU_BOUNDARY[:4])
    shifted = types.SimpleNamespace(probabilities=f.probabilities + 1e-3)
    assert all(_all.evaluate(c, shifted).status == "error" for c in drawn)


def test_privacy_numbers_are_shown_rounded_up():
    eps = next(c for c in r.TARGETS["abs-example3"].checks if c.key == "epsilon").printed
    assert eps.rounding == "up"
    x = 0.4980393870676561234
    assert float(eps.show(x)) >= x
    bound = Printed("bound", "1e-3", "c", "at_most")
    assert bound.show(0.00064321701) == "0.0006433"  # up, never the nearest 0.0006432
    assert Printed("eps", "0.6", "c", rounding="down").show(0.64321) == "0.6432"
    assert Printed("x", "0.6", "c").show(0.643217) == "0.6432"  # not a privacy number
    with pytest.raises(ValueError, match="`rounding`"):
        Printed("x", "0.6", "c", rounding="out")  # type: ignore[arg-type]


def test_disagreements_errata_and_failures_are_reported(tmp_path, monkeypatch):
    def boom():
        raise RuntimeError("no figure today")

    one = r.TableResult("t", {"x": 2.0})
    fake = {
        "bad": r.Target(
            "bad",
            "disagrees",
            "gu",
            lambda: one,
            (r.Check("x", Printed("x", "1.0", "Gu et al., here"), lambda t: t.values["x"]),),
        ),
        "wrong-erratum": r.Target(
            "wrong-erratum",
            "agrees with an erratum",
            "gu",
            lambda: one,
            (r.Check("x", Printed("x", "2.0", "Gu et al., here", **FIX3), lambda t: 2.0),),
        ),
        "erratum": r.Target(
            "erratum",
            "a documented erratum",
            "kadam",
            lambda: one,
            (
                r.Check("x", Printed("x", "1.0", "Kadam et al., here", **FIX15), lambda t: 2.0),
                r.Check("y", Printed("y", "the data", "Kadam et al.", "info"), lambda t: "other"),
                r.Check("z", Printed("z", "1", "Kadam et al.", "exact"), lambda t: t.values["z"]),
            ),
        ),
        "fails": r.Target(
            "fails",
            "raises",
            "abs",
            boom,
            (r.Check("x", Printed("x", "1", "Sadeghi & Chien"), lambda t: 1.0),),
        ),
    }
    monkeypatch.setattr(_all, "TARGETS", fake)
    s = r.reproduce_all(tmp_path, progress=False)
    status = {t.name: [c.status for c in t.checks] for t in s.targets}
    assert status == {
        "bad": ["no"],
        "wrong-erratum": ["no"],
        "erratum": ["erratum 15", "n/a", "error"],
        "fails": ["error"],
    }
    assert "KeyError" in s.targets[2].checks[2].shown
    assert s.targets[3].error == "RuntimeError: no figure today"
    assert not s.ok and [t.ok for t in s.targets] == [False, False, False, False]
    assert s.counts == {
        "checks": 6,
        "agree": 0,
        "erratum": 1,
        "disagree": 4,
        "not_comparable": 1,
        "failed_targets": 1,
    }
    md = s.index_markdown.read_text(encoding="utf-8")
    assert "**FAILED**" in md and "no figure today" in md and "1 targets FAILED" in md
    assert "although erratum 3 says" in md
    # the command exits 1 on a disagreement (and writes the same index)
    assert main(["reproduce", "all", "-o", str(tmp_path / "cli")]) == 1
    # ... and 0 when the only mismatches are a documented erratum and an incomparable value
    ok = r.Target("ok", "fine", "kadam", lambda: one, fake["erratum"].checks[:2])
    monkeypatch.setattr(_all, "TARGETS", {"ok": ok})
    assert main(["reproduce", "all", "-o", str(tmp_path / "cli3")]) == 0


# ---------------------------------------------------------------------------------- progress
def test_progress_lines_without_tqdm_and_silence_when_not_a_terminal(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm -> ImportError
    r.reproduce_all(tmp_path, names=["gu-example1", "count-example1"], progress=True)
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and err[0].startswith("[1/2] gu-example1") and "6/6 agree" in err[0]
    r.reproduce_all(tmp_path, names="gu-example1")  # default: not a terminal here, no output
    r.reproduce_all(tmp_path, names="gu-example1", progress=False)
    assert capsys.readouterr().err == ""


def test_progress_uses_tqdm_when_installed(tmp_path, monkeypatch):
    calls = []

    class FakeBar:
        def __init__(self, **kwargs):
            calls.append(("init", kwargs["total"]))

        def set_postfix_str(self, text):
            calls.append(("at", text))

        def update(self, n):
            calls.append(("update", n))

        def close(self):
            calls.append(("close",))

    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(tqdm=FakeBar))
    r.reproduce_all(tmp_path, names=["gu-example1", "count-example1"], progress=True)
    assert calls == [
        ("init", 2),
        ("at", "gu-example1"),
        ("update", 1),
        ("at", "count-example1"),
        ("update", 1),
        ("close",),
    ]


# -------------------------------------------------------------------------------- validation
@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"names": []}, ParameterError, r"`names` must name at least one target"),
        ({"names": ["fig3", "nope"]}, ParameterError, r"unknown targets \['nope'\].*fig3, fig4"),
        ({"names": 3}, ParameterTypeError, r"`names` must be a sequence.*names=3"),
        ({"dpi": 5}, ParameterError, r"`dpi` must be >= 10.*dpi=5"),
        ({"dpi": 2.5}, ParameterTypeError, r"`dpi` must be an integer"),
        ({"progress": "yes"}, ParameterTypeError, r"`progress` must be True, False or None"),
    ],
)
def test_arguments_are_checked_before_any_work(tmp_path, kwargs, error, match):
    out = tmp_path / "never"
    with pytest.raises(error, match=match):
        r.reproduce_all(out, **kwargs)
    assert not out.exists()


def test_directory_must_be_a_directory(tmp_path):
    f = tmp_path / "file.txt"
    f.write_text("x")
    with pytest.raises(ParameterError, match=r"`directory` must be a directory.*file\.txt"):
        r.reproduce_all(f, names=["gu-example1"])
    with pytest.raises(ParameterTypeError, match=r"`directory` must be a path"):
        r.reproduce_all(3, names=["gu-example1"])  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match=r"non-empty"):
        r.reproduce_all("", names=["gu-example1"])


# ------------------------------------------------------------------------------------- CLI
@pytest.mark.parametrize(
    ("argv", "match"),
    [
        (["reproduce", "all"], r"`-o/--output` is required with `reproduce all`"),
        (["reproduce", "all", "-o", "{file}"], r"`-o/--output` must be a directory.*an existing"),
        (["reproduce", "all", "-o", "{dir}", "--only", "fig3,nope"], r"unknown targets nope"),
        (["reproduce", "all", "-o", "{dir}", "--only", " , "], r"at least one target"),
        (["reproduce", "fig3", "--only", "fig3"], r"`--only` applies to `reproduce all` only"),
        (["reproduce", "all", "-o", "{dir}", "--dpi", "5"], r"--dpi"),
    ],
)
def test_cli_errors_are_one_line_with_exit_2(tmp_path, capsys, argv, match):
    f = tmp_path / "file.png"
    f.write_text("x")
    argv = [a.format(file=f, dir=tmp_path / "d") for a in argv]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and re.search(match, err), err
    assert not (tmp_path / "d").exists()


def test_cli_runs_the_chosen_targets(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["reproduce", "all", "-o", str(out), "--only", "gu-example1,abs-example3"]) == 0
    text = capsys.readouterr().out
    assert "gu-example1" in text and "abs-example3" in text and f"wrote {out / 'index.md'}" in text
    assert sorted(p.name for p in out.iterdir()) == [
        "abs-example3.json",
        "gu-example1.json",
        "index.html",
        "index.md",
    ]
    argv = ["reproduce", "all", "-o", str(out), "--only", "fig4", "--dpi", "20", "--json"]
    assert main(argv) == 0

    def strict(name):
        raise ValueError(name)

    data = json.loads(capsys.readouterr().out, parse_constant=strict)
    assert data["ok"] is True and [t["name"] for t in data["targets"]] == ["fig4"]
    assert [c["recomputed"] for c in data["targets"][0]["checks"]] == [25, 20, 7, 1, 0]
    assert data["counts"]["agree"] == 5 and (out / "fig4.png").exists()


# ------------------------------------------------------------------------------- full run
@pytest.mark.slow  # the full run takes about a minute: pytest -m slow
def test_full_run(tmp_path):
    s = r.reproduce_all(tmp_path, progress=False)
    assert s.ok, [(t.name, c.label, c.status) for t in s.targets for c in t.checks if not c.ok]
    assert [t.name for t in s.targets] == list(r.TARGETS)
    for t in s.targets:
        assert t.error is None
        if t.image:
            assert (tmp_path / t.image).stat().st_size > 0
    assert s.counts["checks"] == sum(len(v) for v in PRINTED.values())
    assert s.seconds < 600


# ------------------------------------------------------------------- honesty of every row
#: The targets whose printed values are numbers (the others print claims only): about 6 s.
NUMERIC = (
    "fig3",
    "table1",
    "fig6",
    "fig13a",
    "count-example1",
    "count-fig1",
    "count-fig2",
    "count-fig4",
    "abs-fig1",
    "abs-fig3",
    "abs-example2",
    "abs-example3",
    "abs-fig4",
)


def _exact_number(text: str) -> Fraction:
    t = text.strip().replace("−", "-")
    return Fraction(t) if "/" in t else Fraction(Decimal(t))


def _half_unit_of(text: str) -> Fraction:
    t = text.strip().replace("−", "-")
    if "/" in t:
        return Fraction(0)
    return Fraction(1, 2) * Fraction(10) ** Decimal(t).as_tuple().exponent


def _entries(text: str, recomputed) -> list[tuple[Fraction, float]]:
    if text.startswith("("):
        printed = [_exact_number(s) for s in text[1:-1].split(",")]
        values = list(recomputed)
        assert len(values) == len(printed)
        return list(zip(printed, values, strict=True))
    return [(_exact_number(text), recomputed)]


def test_every_numeric_row_agrees_only_within_its_stated_tolerance(tmp_path):
    s = r.reproduce_all(tmp_path, names=list(NUMERIC), progress=False, dpi=10)
    assert [t.name for t in s.targets] == list(NUMERIC) and s.ok
    md = s.index_markdown.read_text(encoding="utf-8")
    rows = [line for line in md.splitlines() if line.startswith("| ")]
    seen = 0
    for t in s.targets:
        assert t.error is None, t.error
        for c in t.checks:
            if c.kind != "digits":
                continue
            seen += 1
            gaps = [abs(Fraction(float(x)) - p) for p, x in _entries(c.printed, c.recomputed)]
            assert c.tolerance is not None
            # the stated tolerance is half a unit of the last printed digit (none for a
            # fraction) plus four float64 ulps of the printed value, and no more
            allowed = max(
                _half_unit_of(text) + Fraction(4 * math.ulp(abs(float(p))))
                for p, text in zip(
                    [p for p, _ in _entries(c.printed, c.recomputed)],
                    c.printed.strip("()").split(","),
                    strict=True,
                )
            )
            assert Fraction(c.tolerance) <= allowed * (1 + Fraction(1, 10**12)), c.label
            within = max(gaps) <= Fraction(c.tolerance)
            assert (c.status == "yes") == within or c.status.startswith("erratum"), (
                t.name,
                c.label,
                c.status,
                float(max(gaps)),
                c.tolerance,
            )
            if c.status.startswith("erratum"):
                assert not within, (t.name, c.label)  # an erratum is a real difference
                if c.corrected is not None and Printed("x", c.corrected, "c").kind == "digits":
                    fixed = [
                        abs(Fraction(float(x)) - p) for p, x in _entries(c.corrected, c.recomputed)
                    ]
                    assert max(fixed) <= Fraction(c.tolerance), (t.name, c.label)
            # the index row shows the status the comparison gave
            row = next(line for line in rows if f"| {md_escaped(c.label)} |" in line)
            assert f"| {c.status} |" in row or f"| **{c.status}** |" in row
    assert seen > 120


def test_a_yes_beyond_the_stated_tolerance_is_refused():
    # Sadeghi & Chien, Example 3 prints eps^Q = 0.498039387067656: the library's rounded-up
    # 0.49803938706815432 is 5e-13 away, 1000 times half a unit of the last printed digit
    p = Printed("eps^Q", "0.498039387067656", "Sadeghi & Chien, Example 3")
    assert not p.agrees(0.49803938706815432) and p.gap(0.49803938706815432) > 4e-13
    assert p.agrees(0.49803938706765617) and p.gap(0.49803938706765617) < 2e-16

    def yes(recomputed: float) -> CheckResult:
        return CheckResult(
            label="eps^Q",
            printed=p.text,
            recomputed=recomputed,
            shown="",
            status="yes",
            tolerance=p.tolerance,
            kind="digits",
            citation=p.citation,
            note="",
            gap=p.gap(recomputed),
        )

    assert yes(0.49803938706765617).ok
    with pytest.raises(ValueError, match="tolerance"):
        yes(0.49803938706815432)
