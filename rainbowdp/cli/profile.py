r"""The ``rainbowdp profile`` command: the privacy profile δ(ε) of a graph file's mechanism.

::

    rainbowdp profile GRAPH [--epsilons 0,0.5,1 | --epsilons START:STOP:NUM]
                      [--delta-floor F] [-o PROFILE.png|.pdf|.svg|.csv] [--dpi N] [--json]

δ(ε) is :func:`rainbowdp.privacy_profile` (exact, rounded up). The table printed rounds ε and
δ *up* to 6 significant digits (δ(ε) is non-increasing, so "δ(ε) <= δ" stays true); the CSV
file (header ``epsilon,delta``) and ``--json`` hold the exact float64 values (shortest
round-trip form). Without ``--epsilons`` the table has 21 values of ε from 0 to 1.25 times the
smallest ε with δ(ε) at most ``--delta-floor`` (:func:`rainbowdp.plot.floor_epsilons`; default
:data:`rainbowdp.plot.DELTA_FLOOR`, 1e-12), plus the smallest ε with δ = 0 when it lies in
that range; an image is then drawn on the finer default grid of
:func:`rainbowdp.plot.plot_privacy_profile`, with its δ axis stopping at the floor. ``--dpi``
applies to images only.

Exit codes and one-line errors are those of :mod:`rainbowdp.cli`.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

import numpy as np

from ..exceptions import ParameterError
from ._common import (
    EXIT_OK,
    IMAGE_SUFFIXES,
    MAX_DPI,
    MIN_DPI,
    check_output,
    emit,
    finite_float,
    load_mechanism,
    parse_dpi,
    save_figure,
)

__all__ = ["add_parser", "run"]

#: Extension of the table ``profile`` writes (images: :data:`IMAGE_SUFFIXES`).
CSV_SUFFIXES = (".csv",)
#: Number of ε in the table when ``--epsilons`` is not given.
TABLE_POINTS = 21
#: Largest number of ε ``--epsilons`` may ask for.
MAX_EPSILONS = 10_000
#: Significant digits of the printed table (rounded up).
TABLE_DIGITS = 6


def _epsilons(text: str) -> np.ndarray:
    """argparse type: ``0,0.5,1`` (a list) or ``START:STOP:NUM`` (NUM evenly spaced values)."""

    def number(part: str) -> float:
        try:
            value = float(part)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"--epsilons must be numbers separated by commas or START:STOP:NUM, got {text!r}"
            ) from None
        if not math.isfinite(value) or value < 0:
            raise argparse.ArgumentTypeError(
                f"--epsilons values must be finite numbers >= 0, got {part.strip()!r}"
                + ("" if part == text else f" in {text!r}")
            )
        return value

    if ":" in text:
        parts = text.split(":")
        if len(parts) != 3:
            raise argparse.ArgumentTypeError(
                f"--epsilons range must be START:STOP:NUM, got {text!r}"
            )
        start, stop = number(parts[0]), number(parts[1])
        try:
            num = int(parts[2])
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"--epsilons NUM must be an integer, got {parts[2].strip()!r} in {text!r}"
            ) from None
        if not 1 <= num <= MAX_EPSILONS:
            raise argparse.ArgumentTypeError(
                f"--epsilons NUM must be in [1, {MAX_EPSILONS}], got {num} in {text!r}"
            )
        if stop < start:
            raise argparse.ArgumentTypeError(
                f"--epsilons range must have START <= STOP, got {text!r}"
            )
        return np.linspace(start, stop, num)
    values = [number(part) for part in text.split(",")]
    if len(values) > MAX_EPSILONS:
        raise argparse.ArgumentTypeError(
            f"--epsilons may list at most {MAX_EPSILONS} values, got {len(values)}"
        )
    return np.array(values)


def _delta_floor(text: str) -> float:
    """argparse type of ``--delta-floor``: a number in (0, 1)."""
    value = finite_float("--delta-floor", positive=True)(text)
    if value >= 1:
        raise argparse.ArgumentTypeError(f"--delta-floor must be < 1, got {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    """Run ``rainbowdp profile``; return the exit code."""
    from .._format import format_up
    from ..io import write_atomic
    from ..plot import (
        DELTA_FLOOR,
        default_grid,
        floor_epsilons,
        plot_privacy_profile,
        zero_delta_epsilons,
    )
    from ..privacy import privacy_profile

    output = (
        check_output(
            args.output, IMAGE_SUFFIXES + CSV_SUFFIXES, [args.graph], "an image or a CSV file"
        )
        if args.output
        else None
    )
    is_csv = output is not None and output.suffix.lower() in CSV_SUFFIXES
    if args.dpi is not None and (output is None or is_csv):
        raise ParameterError(
            f"`--dpi` applies to image output (-o .png, .pdf or .svg) only, got --dpi {args.dpi}"
            + (f" with -o {args.output}." if output is not None else " without -o.")
        )
    G, M = load_mechanism(args.graph, "profile")
    zero_from = zero_delta_epsilons([M])[0]
    floor = DELTA_FLOOR if args.delta_floor is None else args.delta_floor
    if args.epsilons is None:
        floor_from = floor_epsilons([M], floor)
        eps = default_grid([zero_from], TABLE_POINTS, floor_from=floor_from)
    else:
        eps = args.epsilons
    deltas = privacy_profile(M, eps)
    if output is not None:
        if is_csv:
            rows = [f"{float(e)!r},{float(d)!r}" for e, d in zip(eps, deltas, strict=True)]
            write_atomic(output, "\n".join(["epsilon,delta", *rows]) + "\n")
        else:
            fig = plot_privacy_profile(
                {Path(args.graph).name: M},
                None if args.epsilons is None else eps,
                delta_floor=floor,
            )
            save_figure(fig, output, 120 if args.dpi is None else args.dpi)
    data: dict[str, Any] = {
        "graph": str(args.graph),
        "n_nodes": G.n_nodes,
        "n_edges": G.n_edges,
        "n_outputs": G.n_outputs,
        "epsilons": [float(e) for e in eps],
        "deltas": [float(d) for d in deltas],
        "zero_delta_from_epsilon": zero_from,
        "output": str(args.output) if output is not None else None,
    }
    width = TABLE_DIGITS + 6
    lines = [
        f"{args.graph}: {G.n_nodes} nodes, {G.n_edges} edges, {G.n_outputs} outputs",
        f"privacy profile (epsilon and delta rounded up to {TABLE_DIGITS} significant digits):",
        f"{'epsilon':>{width}}  {'delta':>{width}}",
        *(
            f"{format_up(float(e), TABLE_DIGITS):>{width}}  "
            f"{format_up(float(d), TABLE_DIGITS):>{width}}"
            for e, d in zip(eps, deltas, strict=True)
        ),
        (
            f"delta = 0 for epsilon >= {format_up(zero_from, TABLE_DIGITS)}"
            if math.isfinite(zero_from)
            else "delta > 0 at every epsilon (no finite epsilon gives pure DP)"
        ),
    ]
    if output is not None:
        lines.append(f"wrote {args.output}")
    emit(data, args.json, "\n".join(lines))
    return EXIT_OK


def add_parser(sub: Any) -> None:
    """Add ``profile`` to the subparsers of the ``rainbowdp`` command."""
    p = sub.add_parser(
        "profile",
        help="the privacy profile delta(epsilon) of a graph file's mechanism (table, plot, CSV)",
    )
    p.add_argument("graph", help="node-link JSON or GraphML file with a 'mechanism' attribute")
    p.add_argument(
        "--epsilons",
        type=_epsilons,
        default=None,
        help="epsilon values: a list 0,0.5,1 or a range START:STOP:NUM (default: 21 values "
        "from 0 to 1.25 x the smallest epsilon with delta <= --delta-floor, and the smallest "
        "epsilon with delta = 0 when it lies in that range)",
    )
    p.add_argument(
        "--delta-floor",
        type=_delta_floor,
        default=None,
        help="the smallest delta of interest, 0 < F < 1 (default 1e-12): where the "
        "default epsilon grid ends and the plot's delta axis stops",
    )
    p.add_argument(
        "-o",
        "--output",
        default=None,
        help="write a plot (.png, .pdf or .svg) or the table (.csv, header epsilon,delta)",
    )
    p.add_argument(
        "--dpi",
        type=parse_dpi,
        default=None,
        help=f"image resolution, {MIN_DPI}..{MAX_DPI} (default 120)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="machine-readable output (strict JSON; null = infinite)",
    )
    p.set_defaults(run=run)
