r"""The index of a run of :func:`rainbowdp.reproduce.reproduce_all`: Markdown and HTML.

One table per paper: for each target its files, and for each printed value the recomputed one,
the precision the printed digits imply and whether they agree (statuses of
:mod:`rainbowdp.reproduce._checks`); then the time per target.
"""

from __future__ import annotations

import html
from typing import Any

from .._format import format_up
from ._checks import AGREE, NOT_COMPARABLE, CheckResult
from ._printed import PAPERS
from ._results import ReproductionSummary, TargetResult, tally

__all__ = ["index_html", "index_markdown"]


_LEGEND = (
    "*printed*: the value as the paper prints it (a bound is shown as ≤, a statement in "
    "words); *recomputed*: the value rainbowdp computes now, with three more significant "
    "digits than printed; *difference*: |printed − recomputed|, rounded up; *precision*: the "
    "largest difference accepted, half a unit of the printed last digit plus four float64 "
    "units in the last place of the printed value (binary round-off), rounded up (*exact* for "
    "integers). *agrees*: **yes** when the difference is at most the precision "
    "(an exact value: equal; a bound: the recomputed value is at most it; a statement: it "
    "holds); "
    "**erratum N** when the paper is wrong there, "
    "explained in item N of `docs/errata.md`, and the recomputed value agrees with that item's "
    "correction (shown in the note); **no** when they disagree; **n/a** when the two cannot be "
    "compared. Privacy numbers (ε, δ, bounds) are shown rounded up."
)


def _precision(c: CheckResult) -> str:
    if c.kind == "exact":
        return "exact"
    if c.kind == "digits" and c.tolerance is not None:
        return f"±{format_up(c.tolerance, 2)}"
    return {"at_most": "bound", "claim": "statement"}.get(c.kind, "—")


def _gap(c: CheckResult) -> str:
    """``|printed - recomputed|``, rounded up, for a number; empty otherwise."""
    return "" if c.gap is None else format_up(c.gap, 2)


def _note(c: CheckResult) -> str:
    """The note, after the erratum's correction when there is one."""
    if c.corrected is None:
        return c.note
    return f"corrected: {c.corrected}. {c.note}".strip()


def _printed_text(c: CheckResult) -> str:
    return f"≤ {c.printed}" if c.kind == "at_most" else c.printed


def _header(s: ReproductionSummary) -> str:
    from .. import __version__

    n, k = s.counts, len(s.targets)
    return (
        f"`rainbowdp reproduce all` (rainbowdp {__version__}) regenerated {k} "
        f"target{'s' if k != 1 else ''} in {s.seconds:.1f} s. {n['checks']} printed values "
        f"compared: {n['agree']} agree, {n['erratum']} are errata of the papers, "
        f"{n['disagree']} disagree, "
        f"{n['not_comparable']} cannot be compared."
        + (f" {n['failed_targets']} targets FAILED." if n["failed_targets"] else "")
    )


def _by_paper(s: ReproductionSummary) -> list[tuple[str, list[TargetResult]]]:
    return [
        (key, [t for t in s.targets if t.paper == key])
        for key in PAPERS
        if any(t.paper == key for t in s.targets)
    ]


_MD_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_[]<>|"})


def _md(text: Any) -> str:
    return " ".join(str(text).split()).translate(_MD_SPECIAL)


def _md_files(t: TargetResult) -> str:
    files = [f"[{f}]({f})" for f in (t.image, t.data) if f]
    return ", ".join(files) if files else "—"


#: The columns of an index row, in both formats (each then adds the source and the note).
_COLUMNS = (
    "target",
    "files",
    "quantity",
    "printed",
    "recomputed",
    "difference",
    "precision",
    "agrees",
)


def index_markdown(summary: ReproductionSummary) -> str:
    """The Markdown index of a run (see :func:`reproduce_all`)."""
    lines = ["# Reproduced figures and tables", "", _header(summary), "", _LEGEND, ""]
    for key, targets in _by_paper(summary):
        lines += [f"## {PAPERS[key]}", ""]
        head = (*_COLUMNS, "source", "note")
        lines += ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
        for t in targets:
            first = [f"**{_md(t.name)}**: {_md(t.description)}", _md_files(t)]
            if t.error is not None:
                lines.append(
                    "| "
                    + " | ".join([*first, "—", "—", "—", "—", "—", "**FAILED**", "", _md(t.error)])
                    + " |"
                )
            if not t.checks and t.error is None:
                lines.append(
                    "| "
                    + " | ".join([*first, "—", "—", "—", "—", "—", "—", "", _md(t.note)])
                    + " |"
                )
            if t.checks and t.note:  # a substitution or choice, said beside the numbers
                lines.append(
                    "| "
                    + " | ".join([*first, "(note)", "—", "—", "", "—", "—", "", _md(t.note)])
                    + " |"
                )
                first = ["", ""]
            for i, c in enumerate(t.checks):
                cells = first if i == 0 else ["", ""]
                status = f"**{c.status}**" if c.status != AGREE else c.status
                lines.append(
                    "| "
                    + " | ".join(
                        [
                            *cells,
                            _md(c.label),
                            _md(_printed_text(c)),
                            _md(c.shown),
                            _md(_gap(c)),
                            _md(_precision(c)),
                            status,
                            _md(c.citation),
                            _md(_note(c)),
                        ]
                    )
                    + " |"
                )
        lines.append("")
    lines += ["## Time per target", "", "| target | seconds | result |", "| --- | ---: | --- |"]
    for t in summary.targets:
        lines.append(f"| {_md(t.name)} | {t.seconds:.2f} | {_md(tally(t))} |")
    lines.append(f"| total | {sum(t.seconds for t in summary.targets):.2f} | |")
    return "\n".join(lines) + "\n"


_CSS = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin-bottom: 2em; font-size: 0.9em; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.5em; vertical-align: top; text-align: left; }
th { background: #eee; }
td.yes { background: #e6f4e6; } td.no, td.error, td.FAILED { background: #f8d7d7; }
td.erratum { background: #fff3cd; } td.na { background: #eef; }
img { max-width: 220px; display: block; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
"""


def _status_class(status: str) -> str:
    if status.startswith("erratum"):
        return "erratum"
    return {AGREE: "yes", NOT_COMPARABLE: "na"}.get(status, "no")


def index_html(summary: ReproductionSummary) -> str:
    """The HTML index of a run: one self-contained page (inline style, images beside it)."""
    e = html.escape
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>Reproduced figures and tables</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>Reproduced figures and tables</h1>",
        f"<p>{e(_header(summary).replace('`', ''))}</p>",
        f"<p>{e(_LEGEND.replace('*', '').replace('`', ''))}</p>",
    ]
    head = (
        *_COLUMNS,
        "source",
        "note",
    )
    for key, targets in _by_paper(summary):
        out.append(f"<h2>{e(PAPERS[key].replace('*', ''))}</h2>")
        out.append("<table><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>")
        for t in targets:
            extra = bool(t.checks and t.note and t.error is None)
            rows = max(1, len(t.checks) + (t.error is not None) + extra)
            files = "".join(f'<a href="{e(f)}">{e(f)}</a><br>' for f in (t.image, t.data) if f)
            if t.image:
                files += f'<a href="{e(t.image)}"><img src="{e(t.image)}" alt="{e(t.name)}"></a>'
            first = (
                f'<td rowspan="{rows}"><b>{e(t.name)}</b><br>{e(t.description)}<br>'
                f"{t.seconds:.2f} s</td>"
                f'<td rowspan="{rows}">{files or "—"}</td>'
            )
            cells = []
            if t.error is not None:
                cells.append(
                    '<td colspan="5">—</td><td class="FAILED">FAILED</td>'
                    f"<td></td><td>{e(t.error)}</td>"
                )
            elif not t.checks:
                cells.append(f'<td colspan="6">—</td><td></td><td>{e(t.note)}</td>')
            elif t.note:  # a substitution or choice, said beside the numbers
                cells.append(f'<td>(note)</td><td colspan="5">—</td><td></td><td>{e(t.note)}</td>')
            for c in t.checks:
                num = ' class="num"' if c.kind in ("digits", "exact", "at_most") else ""
                cells.append(
                    f"<td>{e(c.label)}</td><td{num}>{e(_printed_text(c))}</td>"
                    f"<td{num}>{e(c.shown)}</td><td{num}>{e(_gap(c))}</td>"
                    f"<td>{e(_precision(c))}</td>"
                    f'<td class="{_status_class(c.status)}">{e(c.status)}</td>'
                    f"<td>{e(c.citation)}</td><td>{e(_note(c))}</td>"
                )
            for i, row in enumerate(cells):
                out.append("<tr>" + (first if i == 0 else "") + row + "</tr>")
        out.append("</table>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
