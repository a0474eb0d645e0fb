r"""``rainbowdp reproduce``: one figure, table or worked example of the papers, or all of them.

::

    rainbowdp reproduce NAME [-o OUT.png|OUT.pdf|OUT.svg] [--dpi N] [--json]
    rainbowdp reproduce all -o DIR [--only NAME,NAME] [--dpi N] [--json]

``NAME`` is any target of the registry :data:`rainbowdp.reproduce.TARGETS` (the help lists
them); a new target of a paper module is reachable here without any change to the command.
A worked example is a table: it has no image, so ``-o`` is refused for it.

``reproduce all`` writes ``DIR/NAME.png`` (figures), ``DIR/NAME.json`` (data) and
``DIR/index.md`` / ``DIR/index.html`` (every printed value beside the recomputed one) by
:func:`rainbowdp.reproduce.reproduce_all`; progress goes to standard error when it is a
terminal. Exit code 0 when every check agrees, is a documented erratum or cannot be compared;
1 otherwise; 2 for bad input (no ``-o``, ``-o`` an existing file, an unknown name in
``--only``), with one line on standard error as every ``rainbowdp`` command.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any, NoReturn

from ..exceptions import ParameterError
from ._common import (
    EXIT_OK,
    IMAGE_SUFFIXES,
    MAX_DPI,
    MIN_DPI,
    check_output,
    emit,
    json_safe,
    parse_dpi,
    save_figure,
)

__all__ = ["EXIT_MISMATCH", "add_parser", "run"]

#: Exit code of ``reproduce all`` when a recomputed value disagrees with the printed one (or a
#: target failed).
EXIT_MISMATCH = 1


def _papers_help(targets: Any) -> str:
    """The targets, grouped by paper: ``gu: fig3, fig4, ...; kadam: ...``."""
    groups: dict[str, list[str]] = {}
    for name, t in targets.items():
        groups.setdefault(t.paper, []).append(name)
    return "; ".join(f"{paper}: {', '.join(names)}" for paper, names in groups.items())


def add_parser(sub: Any) -> None:
    """Add ``reproduce`` to the subparsers of the ``rainbowdp`` command."""
    from ..reproduce import TARGETS

    r = sub.add_parser("reproduce", help="reproduce a figure of the papers, or all of them")
    r.add_argument(
        "figure",
        metavar="NAME",
        choices=(*TARGETS, "all"),
        help=f"a figure, table or worked example ({_papers_help(TARGETS)}); all: every target, "
        "with an index comparing each printed number with the recomputed one (-o DIR required)",
    )
    r.add_argument(
        "-o",
        "--output",
        default=None,
        help="image file (.png, .pdf or .svg); with `all`, the output directory (created if "
        "missing)",
    )
    r.add_argument(
        "--only",
        default=None,
        metavar="NAME,NAME",
        help="with `all`: run only these targets",
    )
    r.add_argument(
        "--dpi", type=parse_dpi, default=120, help=f"resolution, {MIN_DPI}..{MAX_DPI} (default 120)"
    )
    r.add_argument("--json", action="store_true", help="machine-readable output (strict JSON)")
    r.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``rainbowdp reproduce NAME`` or ``reproduce all``; return the exit code."""
    if args.figure == "all":
        return _run_all(args)
    if args.only is not None:
        raise ParameterError(
            f"`--only` applies to `reproduce all` only, got --only {args.only} with {args.figure}."
        )
    return _run_one(args)


# ---------------------------------------------------------------------------------- one target
def _run_one(args: argparse.Namespace) -> int:
    """``reproduce NAME``: compute the target, write its image if asked, report its data."""
    from .. import reproduce

    name = args.figure
    target = reproduce.TARGETS[name]
    output = check_output(args.output, IMAGE_SUFFIXES, [], "an image file") if args.output else None
    if output is not None and not getattr(target, "figure", True):
        _no_image(name, args.output)
    result = target.make()
    if output is not None:
        if result.figure is None:
            _no_image(name, args.output)
        save_figure(result.figure, output, args.dpi)
    written = str(args.output) if args.output else None
    if isinstance(result, reproduce.LineFigure):
        wrote = f"; wrote {args.output}" if args.output else ""
        data: dict[str, Any] = {
            "figure": name,
            "tau": [int(t) for t in result.tau],
            "output": written,
        }
        emit(data, args.json, f"{name}: tau = {tuple(data['tau'])}{wrote}")
    elif isinstance(result, reproduce.CurveFigure):
        data = {"figure": name, **result.to_dict(), "output": written}
        emit(data, args.json, _curve_text(result, name, args.output))
    elif isinstance(result, reproduce.TableResult):
        data = {"figure": name, **result.to_dict(), "output": None}
        emit(data, args.json, _table_text(result, name))
    else:
        emit(_pmf_data(result, name, written), args.json, _pmf_text(result, name, args.output))
    return EXIT_OK


def _no_image(name: str, output: str) -> NoReturn:
    """Refuse ``-o`` for a target that is a table."""
    raise ParameterError(
        f"`-o/--output` does not apply to {name}, a table with no image (its values are "
        f"printed; --json gives them as data), got output={output!r}."
    )


def _pmf_data(result: Any, name: str, written: str | None) -> dict[str, Any]:
    """The data of a figure of optimal PMFs (one per δ)."""
    return {
        "figure": name,
        "name": result.name,
        "parameters": result.parameters,
        "deltas": list(result.deltas),
        "pmfs": result.pmfs.tolist(),
        "matches_paper": result.matches_paper,
        "output": written,
    }


def _pmf_text(result: Any, name: str, output: str | None) -> str:
    """The text report of a figure of optimal PMFs (4 decimals)."""
    lines = [f"{result.name} ({name})"]
    for d, f in zip(result.deltas, result.pmfs, strict=True):
        rounded = [round(float(x), 4) for x in f.ravel()]
        lines.append(f"  delta = {d:g}: f* = {rounded}")
    if result.matches_paper is not None:
        lines.append(f"  matches the printed values: {result.matches_paper}")
    if output:
        lines.append(f"wrote {output}")
    return "\n".join(lines)


def _rounded(values: Any) -> list:
    return [None if not math.isfinite(float(v)) else round(float(v), 4) for v in values]


def _curve_text(result: Any, figure: str, output: str | None) -> str:
    """The text report of a CurveFigure: each panel's grid and series (4 decimals; None where
    undefined) and the findings that are numbers or tables of numbers."""
    lines = [f"{result.name} ({figure})"]
    for p in result.panels:
        lines.append(f"  [{p.title}]")
        lines.append(f"    {p.xlabel}: {_rounded(p.x)}")
        for label, values in p.series.items():
            lines.append(f"    {label}: {_rounded(values)}")
    for key, value in result.findings.items():
        if isinstance(value, int | float):
            lines.append(f"  {key}: {round(float(value), 6)}")
        elif isinstance(value, dict) and all(isinstance(v, int | float) for v in value.values()):
            shown = {k: round(float(v), 6) for k, v in value.items()}
            lines.append(f"  {key}: {shown}")
        elif isinstance(value, dict) and all(
            isinstance(v, list) and all(isinstance(x, int) for x in v) for v in value.values()
        ):
            lines.append(f"  {key}: {value}")
    if output:
        lines.append(f"wrote {output}")
    return "\n".join(lines)


def _table_text(result: Any, name: str) -> str:
    """The text report of a worked example: each recomputed value as plain data, one line per
    top-level entry."""
    lines = [f"{result.name} ({name})"]
    for key, value in result.to_dict()["values"].items():
        lines.append(f"  {key}: {json.dumps(json_safe(value), allow_nan=False)}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------- all targets
def _only(text: str | None) -> list[str] | None:
    """``--only NAME,NAME`` -> the names (None when not given); unknown names are refused."""
    from ..reproduce import TARGETS

    if text is None:
        return None
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise ParameterError(f"`--only` must name at least one target, got --only {text!r}.")
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        raise ParameterError(
            f"`--only` names unknown targets {', '.join(unknown)} (known: {', '.join(TARGETS)}); "
            f"got --only {text}."
        )
    return names


def _run_all(args: argparse.Namespace) -> int:
    """``reproduce all``: every target (or those of ``--only``) into ``-o DIR``, indexed."""
    from ..reproduce import reproduce_all, tally

    if args.output is None:
        raise ParameterError(
            "`-o/--output` is required with `reproduce all`: the directory to write the figures "
            "and the index into."
        )
    if Path(args.output).exists() and not Path(args.output).is_dir():
        raise ParameterError(
            f"`-o/--output` must be a directory with `reproduce all`, got output={args.output!r}, "
            "an existing file."
        )
    summary = reproduce_all(args.output, names=_only(args.only), dpi=args.dpi)
    n = summary.counts
    lines = [f"{t.name:<15} {t.seconds:7.2f} s  {tally(t)}" for t in summary.targets]
    lines.append(
        f"{n['checks']} printed values in {len(summary.targets)} targets ({summary.seconds:.1f} s):"
        f" {n['agree']} agree, {n['erratum']} errata, {n['disagree']} disagree, "
        f"{n['not_comparable']} not comparable"
        + (f", {n['failed_targets']} targets FAILED" if n["failed_targets"] else "")
    )
    lines.append(f"wrote {summary.index_markdown} and {summary.index_html}")
    emit(summary.to_dict(), args.json, "\n".join(lines))
    return EXIT_OK if summary.ok else EXIT_MISMATCH
