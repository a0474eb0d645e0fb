r"""``rainbowdp demo``: verify the bundled graphs and design one optimal mechanism.

::

    rainbowdp demo [--output-dir DIR]

Exit code 0 when every bundled graph gets its expected verdict, 1 otherwise.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .._format import format_up
from ..exceptions import GraphFileError, ParameterError
from ._common import EXIT_NOT_PRIVATE, EXIT_OK, print_stdout

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """Add ``demo`` to the subparsers of the ``rainbowdp`` command."""
    d = sub.add_parser("demo", help="verify the bundled graphs and design an optimal mechanism")
    d.add_argument(
        "--output-dir",
        default="rainbowdp-demo",
        help="where the demo writes its drawing (default: ./rainbowdp-demo)",
    )
    d.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``rainbowdp demo``; return the exit code."""
    from ..bundled import examples, graphs_dir
    from ..io import load
    from ..privacy import epsilon_for_delta, verify

    out_dir = Path(args.output_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise ParameterError(
            f"`--output-dir` must be a directory, got output_dir={args.output_dir!r}, "
            "which is a file."
        )
    src = graphs_dir()
    print_stdout(
        "rainbowdp demo: exact (epsilon, delta)-DP verification of the bundled graphs"
        + (f" ({src})" if src else " (built in memory)")
    )
    print_stdout(
        f"{'graph':<22}{'nodes':>6}{'edges':>6}{'|V|':>5}  {'(eps, delta)':<16}"
        f"{'verdict':<12}{'delta needed':>13}{'eps needed':>11}  as expected"
    )
    ok = True
    for ex in examples():
        if src is not None and (src / f"{ex.name}.json").exists():
            G, M = load(src / f"{ex.name}.json")
        else:
            G, M = ex.graph, ex.mechanism
        if M is None:  # a bundled graph file edited by hand
            raise GraphFileError(f"{ex.name}.json has no 'mechanism' node attribute to verify.")
        rep = verify(M, epsilon=ex.epsilon, delta=ex.delta)
        eps = epsilon_for_delta(M, ex.delta)
        same = rep.is_private == ex.private
        ok &= same
        pair = f"({ex.epsilon:.3f}, {ex.delta:g})"
        print_stdout(
            f"{ex.name:<22}{G.n_nodes:>6}{G.n_edges:>6}{G.n_outputs:>5}  {pair:<16}"
            f"{'private' if rep.is_private else 'NOT private':<12}"
            f"{format_up(rep.delta_required, 4):>13}{format_up(eps, 4):>11}  "
            f"{'yes' if same else 'NO'}"
        )
    _design(out_dir)
    return EXIT_OK if ok else EXIT_NOT_PRIVATE


def _design(out_dir: Path) -> None:
    """Design the optimal mechanism of the three-colour graph (Gu et al., Thm 2) and draw it."""
    from ..bundled import examples
    from ..optimal import homogeneous_boundary, optimal_mechanism
    from ..plot import draw_rainbow_graph
    from ..privacy import verify

    ex = next(e for e in examples() if e.name == "three_colour")
    G, eps, delta = ex.graph, 1.0, 0.0
    # Homogeneous boundary: every rainbow outputs its top colour w.p. 0.5, then 0.3, then 0.2.
    boundary = homogeneous_boundary(G, [0.5, 0.3, 0.2])
    M = optimal_mechanism(G, epsilon=eps, delta=delta, boundary=boundary, order="outputs")
    rep = verify(M, epsilon=eps, delta=delta)
    top = M.in_rainbow_order()[:, 0]
    print_stdout(
        f"\noptimal ({eps:g}, {delta:g})-DP mechanism on three_colour (Gu et al., Thm 2) with a "
        f"homogeneous boundary (0.5, 0.3, 0.2):\n  P[top colour] ranges "
        f"{top.min():.3f}..{top.max():.3f} (boundary 0.5); re-verified: "
        f"{'private' if rep.is_private else 'NOT private'}"
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    fig = draw_rainbow_graph(G, M)
    path = out_dir / "three_colour_optimal.png"
    fig.savefig(path, dpi=120, bbox_inches="tight")
    print_stdout(f"  drawing: {path}")
