r"""``rainbowdp plot``: draw a rainbow graph and its mechanism.

::

    rainbowdp plot GRAPH -o OUT.png|OUT.pdf|OUT.svg [--dpi N] [--layout NAME] [--labels]
                   [--rainbows] [--mode auto|glyphs|large]
"""

from __future__ import annotations

import argparse
from typing import Any

from ._common import (
    EXIT_OK,
    IMAGE_SUFFIXES,
    MAX_DPI,
    MIN_DPI,
    check_output,
    parse_dpi,
    print_stdout,
    save_figure,
)

__all__ = ["LAYOUTS", "add_parser", "run"]

#: The node placements of ``--layout`` (those of :func:`rainbowdp.plot.draw_rainbow_graph`).
LAYOUTS = (
    "auto",
    "line",
    "pivot_mds",
    "spring",
    "kamada_kawai",
    "circular",
    "spectral",
    "shell",
)


def add_parser(sub: Any) -> None:
    """Add ``plot`` to the subparsers of the ``rainbowdp`` command."""
    pl = sub.add_parser("plot", help="draw a rainbow graph and its mechanism")
    pl.add_argument("graph")
    pl.add_argument("-o", "--output", required=True, help="image file (.png, .pdf or .svg)")
    pl.add_argument(
        "--dpi", type=parse_dpi, default=120, help=f"resolution, {MIN_DPI}..{MAX_DPI} (default 120)"
    )
    pl.add_argument(
        "--layout",
        choices=LAYOUTS,
        default="auto",
        help="node placement (default auto: paths on a line, cycles on a circle, up to 100 "
        "nodes kamada_kawai, larger graphs pivot_mds)",
    )
    pl.add_argument("--labels", action="store_true", help="label every node with its name")
    pl.add_argument(
        "--rainbows",
        action="store_true",
        help="show each node's whole preference order as rings (outermost = most preferred)",
    )
    pl.add_argument(
        "--mode",
        choices=["auto", "glyphs", "large"],
        default="auto",
        help="glyphs: a pie (and rings) per node; large: coloured disks only, for big graphs "
        "(default auto: glyphs up to 200 nodes)",
    )
    pl.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``rainbowdp plot``; return the exit code."""
    from ..io import load
    from ..plot import draw_rainbow_graph

    output = check_output(args.output, IMAGE_SUFFIXES, [args.graph], "an image file")
    G, M = load(args.graph)
    fig = draw_rainbow_graph(
        G, M, layout=args.layout, labels=args.labels, rainbows=args.rainbows, mode=args.mode
    )
    save_figure(fig, output, args.dpi)
    print_stdout(f"wrote {args.output}")
    return EXIT_OK
