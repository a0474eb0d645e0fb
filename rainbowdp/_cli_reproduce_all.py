r"""``rainbowdp reproduce all``: regenerate every figure and table of the papers and index them.

::

    rainbowdp reproduce all -o DIR [--only NAME,NAME] [--dpi N] [--json]

Writes ``DIR/NAME.png`` (figures), ``DIR/NAME.json`` (data) and ``DIR/index.md`` /
``DIR/index.html`` (every printed value beside the recomputed one) by
:func:`rainbowdp.reproduce.reproduce_all`; progress goes to standard error when it is a
terminal. Exit code 0 when every check agrees, is a documented erratum or cannot be compared;
1 otherwise; 2 for bad input (no ``-o``, ``-o`` an existing file, an unknown name in
``--only``), with one line on standard error as every ``rainbowdp`` command.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ._cli_common import EXIT_OK, emit
from .exceptions import ParameterError

__all__ = ["EXIT_MISMATCH", "run"]

#: Exit code when a recomputed value disagrees with the printed one (or a target failed).
EXIT_MISMATCH = 1


def _only(text: str | None) -> list[str] | None:
    """``--only NAME,NAME`` -> the names (None when not given); unknown names are refused."""
    from .reproduce import TARGETS

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


def run(args: argparse.Namespace) -> int:
    """Run ``rainbowdp reproduce all`` with the parsed arguments (``output``, ``only``,
    ``dpi``, ``json``); return the exit code."""
    from .reproduce import reproduce_all, tally

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
