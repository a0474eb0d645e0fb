r"""The ``rainbowdp`` command.

::

    rainbowdp demo [--output-dir DIR]
    rainbowdp verify GRAPH --epsilon E [--delta D] [--certify] [--json]
    rainbowdp design GRAPH --epsilon E [--delta D] [--method closed-form|lp|milp]
                     [--boundary FILE] [--utility U] [--fixed FILE] [--solver highs|cbc]
                     [--time-limit S] -o OUT.json [--json]
    rainbowdp plot GRAPH -o OUT.png
    rainbowdp reproduce fig3|fig4|fig5 -o OUT.png [--json]

Exit codes: 0 success (``verify``: private), 1 ``verify``: not private, 2 bad input -- one line
on standard error, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from .exceptions import RainbowDPError

__all__ = ["main"]


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit code 2 (handled in main)
        raise _UsageError(f"{self.prog}: {message}")


def _float(name: str):
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a number, got {text!r}") from None
        if math.isnan(value):
            raise argparse.ArgumentTypeError(f"{name} must be a number, got {text!r}")
        return value

    return parse


def _jsonable(x: Any) -> Any:
    if isinstance(x, tuple | list):
        return [_jsonable(y) for y in x]
    if hasattr(x, "item"):
        return x.item()
    return x


def _emit(obj: dict, as_json: bool, text: str) -> None:
    print(json.dumps(obj, default=_jsonable) if as_json else text)


# ---------------------------------------------------------------------------------- verify
def _cmd_verify(args: argparse.Namespace) -> int:
    from .io import load
    from .privacy import epsilon_for_delta, verify

    G, M = load(args.graph)
    if M is None:
        raise RainbowDPError(f"{args.graph!r} has no 'mechanism' node attribute to verify.")
    rep = verify(M, epsilon=args.epsilon, delta=args.delta)
    eps_needed = epsilon_for_delta(M, args.delta)
    out = {
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
        f"smallest epsilon at delta={rep.delta:g}: {eps_needed:.6g}"
    )
    if args.certify:
        from .certify import certify

        cert = certify(M, epsilon=args.epsilon, delta=args.delta)
        out["certificate"] = str(cert.verdict)
        text += f"\nexact rational certificate: {cert}"
    _emit(out, args.json, text)
    return 0 if rep.is_private else 1


# ---------------------------------------------------------------------------------- design
def _cmd_design(args: argparse.Namespace) -> int:
    from .io import load, load_assignment, save_graph

    method = args.method or ("closed-form" if args.boundary else "lp")
    if method == "closed-form" and not args.boundary:
        raise RainbowDPError("`--boundary FILE` is required with --method closed-form.")
    G, _ = load(args.graph)
    info: dict[str, Any] = {"method": method}
    if method == "closed-form":
        if not args.boundary:
            raise RainbowDPError("`--boundary FILE` is required with --method closed-form.")
        from .optimal import optimal_mechanism

        boundary = load_assignment(args.boundary, G)
        M = optimal_mechanism(G, epsilon=args.epsilon, delta=args.delta, boundary=boundary)
    else:
        from . import design

        fixed = load_assignment(args.fixed, G, kinds=("nodes",)) if args.fixed else None
        kw = {
            "epsilon": args.epsilon,
            "delta": args.delta,
            "fixed": fixed,
            "solver": args.solver,
            "time_limit": args.time_limit,
        }
        if args.utility is not None:
            kw["utility"] = args.utility
        res = (design.lp if method == "lp" else design.milp)(G, **kw)
        M = res.mechanism
        info.update(
            objective=res.objective,
            status=res.status,
            solver=res.solver,
            build_seconds=res.build_seconds,
            solve_seconds=res.solve_seconds,
        )
    from .privacy import pdp_delta, verify

    rep = verify(M, epsilon=args.epsilon, delta=args.delta)
    info.update(
        output=str(args.output), is_private=rep.is_private, delta_required=rep.delta_required
    )
    if method == "milp":
        info["pdp_delta"] = pdp_delta(M, args.epsilon)
    save_graph(
        G,
        args.output,
        mechanism=M,
        metadata={
            "design": {k: v for k, v in info.items() if k != "output"},
            "expected": {"epsilon": args.epsilon, "delta": args.delta, "private": rep.is_private},
        },
    )
    text = (
        f"designed ({args.epsilon:g}, {args.delta:g})-DP mechanism by {method} on "
        f"{G.n_nodes} nodes -> {args.output}; verified: "
        f"{'private' if rep.is_private else 'NOT private'}"
    )
    if "objective" in info:
        text += (
            f"; utility {info['objective']:.6g} ({info['status']}, {info['solver']}, "
            f"{info['build_seconds'] + info['solve_seconds']:.2f} s)"
        )
    _emit(info, args.json, text)
    return 0


# ---------------------------------------------------------------------------------- plot
def _cmd_plot(args: argparse.Namespace) -> int:
    from .io import load
    from .plot import draw_rainbow_graph

    G, M = load(args.graph)
    fig = draw_rainbow_graph(G, M)
    fig.savefig(args.output, dpi=args.dpi, bbox_inches="tight")
    print(f"wrote {args.output}")
    return 0


# ---------------------------------------------------------------------------------- reproduce
def _cmd_reproduce(args: argparse.Namespace) -> int:
    from . import reproduce

    fn = {"fig3": reproduce.figure_3, "fig4": reproduce.figure_4, "fig5": reproduce.figure_5}
    result = fn[args.figure]()
    fig = result.figure
    if args.output:
        fig.savefig(args.output, dpi=args.dpi, bbox_inches="tight")
    data = {
        "figure": args.figure,
        "tau": [int(t) for t in result.tau],
        "output": str(args.output) if args.output else None,
    }
    _emit(
        data,
        args.json,
        f"{args.figure}: tau = {tuple(data['tau'])}"
        + (f"; wrote {args.output}" if args.output else ""),
    )
    return 0


# ---------------------------------------------------------------------------------- demo
def _cmd_demo(args: argparse.Namespace) -> int:
    from .bundled import examples, graphs_dir
    from .io import load
    from .privacy import epsilon_for_delta, verify

    src = graphs_dir()
    print(
        "rainbowdp demo: exact (epsilon, delta)-DP verification of the bundled graphs"
        + (f" ({src})" if src else " (built in memory)")
    )
    print(
        f"{'graph':<22}{'nodes':>6}{'edges':>6}{'|V|':>5}  {'(eps, delta)':<16}"
        f"{'verdict':<12}{'delta needed':>13}{'eps needed':>11}  as expected"
    )
    ok = True
    for ex in examples():
        if src is not None and (src / f"{ex.name}.json").exists():
            G, M = load(src / f"{ex.name}.json")
        else:
            G, M = ex.graph, ex.mechanism
        rep = verify(M, epsilon=ex.epsilon, delta=ex.delta)
        eps = epsilon_for_delta(M, ex.delta)
        same = rep.is_private == ex.private
        ok &= same
        pair = f"({ex.epsilon:.3f}, {ex.delta:g})"
        print(
            f"{ex.name:<22}{G.n_nodes:>6}{G.n_edges:>6}{G.n_outputs:>5}  {pair:<16}"
            f"{'private' if rep.is_private else 'NOT private':<12}"
            f"{rep.delta_required:>13.4g}{eps:>11.4f}  {'yes' if same else 'NO'}"
        )
    _demo_design(Path(args.output_dir))
    return 0 if ok else 1


def _demo_design(out_dir: Path) -> None:
    """Design the optimal mechanism of the three-colour graph and draw it."""
    try:
        from .optimal import optimal_mechanism
        from .plot import draw_rainbow_graph
    except ImportError:  # pragma: no cover - optional parts not installed
        return
    import numpy as np

    from .bundled import examples
    from .privacy import verify

    ex = next(e for e in examples() if e.name == "three_colour")
    G, eps, delta = ex.graph, 1.0, 0.0
    # Homogeneous boundary: every rainbow outputs its top colour w.p. 0.5, then 0.3, then 0.2.
    boundary = {}
    for c in G.rainbows:
        vec = np.zeros(G.n_outputs)
        vec[[G.output_index[o] for o in c]] = [0.5, 0.3, 0.2]
        boundary[c] = vec.tolist()
    M = optimal_mechanism(G, epsilon=eps, delta=delta, boundary=boundary)
    rep = verify(M, epsilon=eps, delta=delta)
    top = M.in_rainbow_order()[:, 0]
    print(
        f"\noptimal ({eps:g}, {delta:g})-DP mechanism on three_colour (Gu et al., Thm 2) with a "
        f"homogeneous boundary (0.5, 0.3, 0.2):\n  P[top colour] ranges "
        f"{top.min():.3f}..{top.max():.3f} (boundary 0.5); re-verified: "
        f"{'private' if rep.is_private else 'NOT private'}"
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    fig = draw_rainbow_graph(G, M)
    path = out_dir / "three_colour_optimal.png"
    fig.savefig(path, dpi=120, bbox_inches="tight")
    print(f"  drawing: {path}")


# ---------------------------------------------------------------------------------- parser
def _parser() -> _Parser:
    p = _Parser(
        prog="rainbowdp",
        description="Design and verify differentially private mechanisms on rainbow graphs.",
    )
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    d = sub.add_parser("demo", help="verify the bundled graphs and design an optimal mechanism")
    d.add_argument(
        "--output-dir",
        default="rainbowdp-demo",
        help="where the demo writes its drawing (default: ./rainbowdp-demo)",
    )
    d.set_defaults(func=_cmd_demo)

    v = sub.add_parser("verify", help="check (epsilon, delta)-DP of a graph file's mechanism")
    v.add_argument("graph", help="node-link JSON or GraphML file with a 'mechanism' attribute")
    v.add_argument("--epsilon", type=_float("--epsilon"), required=True)
    v.add_argument("--delta", type=_float("--delta"), default=0.0)
    v.add_argument(
        "--certify",
        action="store_true",
        help="also re-check the verdict in exact rational arithmetic",
    )
    v.add_argument("--json", action="store_true", help="machine-readable output")
    v.set_defaults(func=_cmd_verify)

    g = sub.add_parser("design", help="design an optimal mechanism and write it to a file")
    g.add_argument("graph")
    g.add_argument(
        "--method",
        choices=["closed-form", "lp", "milp"],
        default=None,
        help="closed-form (Gu et al. Thm 2, needs --boundary), lp ((eps, delta)-DP) "
        "or milp (probabilistic DP); default closed-form with --boundary, else lp",
    )
    g.add_argument("--epsilon", type=_float("--epsilon"), required=True)
    g.add_argument("--delta", type=_float("--delta"), default=0.0)
    g.add_argument(
        "--boundary",
        help="JSON: {'rainbows': [{'rainbow': [...], "
        "'distribution': [...]}]} or {'nodes': {node: [...]}}",
    )
    g.add_argument(
        "--utility",
        default=None,
        choices=["accuracy", "rank", "absolute", "squared"],
        help="utility for lp/milp (default accuracy): accuracy = P[top output], rank = linear in "
        "rank, absolute/squared = minus |output - answer| or its square (query graphs)",
    )
    g.add_argument("--fixed", help="JSON {'nodes': {node: [...]}}: rows the design must keep")
    g.add_argument("--solver", choices=["highs", "cbc"], default=None)
    g.add_argument("--time-limit", type=_float("--time-limit"), default=None)
    g.add_argument("-o", "--output", required=True, help="output graph file (.json)")
    g.add_argument("--json", action="store_true")
    g.set_defaults(func=_cmd_design)

    pl = sub.add_parser("plot", help="draw a rainbow graph and its mechanism")
    pl.add_argument("graph")
    pl.add_argument("-o", "--output", required=True, help="image file (.png, .pdf, .svg)")
    pl.add_argument("--dpi", type=int, default=120)
    pl.set_defaults(func=_cmd_plot)

    r = sub.add_parser("reproduce", help="reproduce a figure of the papers")
    r.add_argument(
        "figure",
        choices=["fig3", "fig4", "fig5"],
        help="Gu et al., Figs. 3-5 (optimal line mechanisms)",
    )
    r.add_argument("-o", "--output", default=None)
    r.add_argument("--dpi", type=int, default=120)
    r.add_argument("--json", action="store_true")
    r.set_defaults(func=_cmd_reproduce)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
        return int(args.func(args))
    except _UsageError as exc:
        print(f"{exc}", file=sys.stderr)
        return 2
    except (RainbowDPError, ValueError, TypeError, OSError, ImportError) as exc:
        msg = " ".join(str(exc).split()) or type(exc).__name__
        print(f"rainbowdp: error: {msg}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
