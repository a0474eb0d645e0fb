r"""``rainbowdp verify``: check (ε, δ)-DP of a graph file's mechanism.

::

    rainbowdp verify GRAPH --epsilon E [--delta D] [--certify] [--json]

Exit code 0 when private, 1 when not; with ``--certify`` the code follows the exact rational
certificate (0 proved private, 1 proved not private, 3 undecided).
"""

from __future__ import annotations

import argparse
from typing import Any

from .._format import format_up
from ._common import (
    EXIT_NOT_PRIVATE,
    EXIT_OK,
    EXIT_UNDECIDED,
    emit,
    finite_float,
    load_mechanism,
)

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """Add ``verify`` to the subparsers of the ``rainbowdp`` command."""
    v = sub.add_parser("verify", help="check (epsilon, delta)-DP of a graph file's mechanism")
    v.add_argument("graph", help="node-link JSON or GraphML file with a 'mechanism' attribute")
    v.add_argument("--epsilon", type=finite_float("--epsilon"), required=True)
    v.add_argument("--delta", type=finite_float("--delta"), default=0.0)
    v.add_argument(
        "--certify",
        action="store_true",
        help="also re-check the verdict in exact rational arithmetic; the exit code then "
        "follows the certificate (0 private, 1 not private, 3 undecided)",
    )
    v.add_argument(
        "--json",
        action="store_true",
        help="machine-readable output (strict JSON; null = infinite or undefined)",
    )
    v.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``rainbowdp verify``; return the exit code."""
    from ..privacy import epsilon_for_delta, verify

    G, M = load_mechanism(args.graph, "verify")
    rep = verify(M, epsilon=args.epsilon, delta=args.delta)
    eps_needed = epsilon_for_delta(M, args.delta)
    out: dict[str, Any] = {
        "graph": str(args.graph),
        "n_nodes": G.n_nodes,
        "n_edges": G.n_edges,
        "is_private": rep.is_private,
        "epsilon": rep.epsilon,
        "delta": rep.delta,
        "delta_required": rep.delta_required,
        "epsilon_required": eps_needed,
        "worst_edge": rep.worst_edge,
        "witness": list(rep.witness),
        "n_violations": rep.n_violations,
        "tolerance": rep.tolerance,
    }
    text = (
        f"{args.graph}: {G.n_nodes} nodes, {G.n_edges} edges, {G.n_outputs} outputs\n{rep}\n"
        f"smallest epsilon at delta={rep.delta:g}: {format_up(eps_needed)}"
    )
    code = EXIT_OK if rep.is_private else EXIT_NOT_PRIVATE
    if args.certify:
        from .._verify.certify import Verdict, certify

        cert = certify(M, epsilon=args.epsilon, delta=args.delta)
        code = {
            Verdict.PRIVATE: EXIT_OK,
            Verdict.NOT_PRIVATE: EXIT_NOT_PRIVATE,
            Verdict.UNDECIDED: EXIT_UNDECIDED,
        }[cert.verdict]
        out["certificate"] = str(cert.verdict.value)
        out["certificate_delta_bounds"] = [cert.delta_lower, cert.delta_upper]
        text += f"\nexact rational certificate: {cert}"
    emit(out, args.json, text)
    return code
