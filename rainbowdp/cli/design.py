r"""``rainbowdp design``: design an optimal mechanism on a graph file, or a noise family's.

::

    rainbowdp design GRAPH --epsilon E [--delta D] --method closed-form --boundary FILE
                     -o OUT.json [--json]
    rainbowdp design GRAPH --epsilon E [--delta D] [--method lp|milp] [--utility U]
                     [--fixed FILE] [--solver highs|cbc] [--time-limit S] -o OUT.json [--json]
    rainbowdp design --family NAME --epsilon E [--delta D] [--n N] [--PARAMETER VALUE ...]
                     [-o OUT.json] [--json]

``--family`` accepts every family of the registry :data:`rainbowdp.noise.FAMILIES`, with one
option per parameter a family declares. Two families have a designer with options of its own:
``modulo`` (Kadam et al.'s MILP (13) / LP (14) on 0..n: ``--n``, ``--neighbourhood``,
``--solver``, ``--time-limit``) and ``count`` (Sadeghi et al.'s Theorem 3: ``--N``, ``--n-min``,
``--law``, ``--eta`` or a target ``--delta``). For every other family the design is the
family's mechanism at the given parameters on its default graph of size ``--n``, verified at
(ε, δ): written with ``-o`` when private; exit code 1 and nothing written when not.
"""

from __future__ import annotations

import argparse
import math
import warnings
from typing import Any

from .._format import format_down, format_up
from ..exceptions import ParameterError
from ._common import (
    EXIT_NOT_PRIVATE,
    EXIT_OK,
    MAX_FAMILY_N,
    add_family_options,
    bounded_int,
    check_output,
    emit,
    error_line,
    family_options,
    family_parameters,
    family_summary,
    family_values,
    finite_float,
    integer,
    json_safe,
    loss_name,
    one_line,
)

__all__ = ["MAX_COUNT_D", "MAX_COUNT_N", "MAX_MODULO_N", "add_parser", "run"]

#: Extensions of the files ``design`` writes (node-link JSON).
DESIGN_SUFFIXES = (".json",)

# Bounds of the integer options, where the work stops being reasonable on a laptop (measured
# on one core, Python 3.11; docs/cli.md has the table). The library functions accept more.
#: Largest ``design --family count --N``: 1.9 s and 345 MB at N = 2000, 3.9 s and 615 MB at
#: N = 4000 (the mechanism is dense: N + 1 - n_min rows of N + D + 1 outputs).
MAX_COUNT_N = 2000
#: Largest ``design --family count --D``: 1.5 s and 350 MB at D = 1000, 4.1 s and 1.1 GB at
#: D = 2000 (the exact-delta-optimal law).
MAX_COUNT_D = 1000
#: Largest ``design --family modulo --n``: the MILP (13) takes 4 s at n = 60 and more than
#: 90 s at n = 80 (delta > 0).
MAX_MODULO_N = 64

#: Options of ``--method lp|milp`` only (attribute, flag).
_LP_ONLY = (
    ("fixed", "--fixed"),
    ("utility", "--utility"),
    ("solver", "--solver"),
    ("time_limit", "--time-limit"),
    ("progress", "--progress"),
)
#: Family parameters set by ``--epsilon`` and ``--delta``.
_OWN = ("epsilon", "delta")
#: Options of ``--family`` that are not family parameters (attribute, flag).
_FAMILY_EXTRAS = (
    ("N", "--N"),
    ("n_min", "--n-min"),
    ("law", "--law"),
    ("n", "--n"),
    ("neighbourhood", "--neighbourhood"),
)
#: The families whose designer has options of its own -> the options (attributes) it takes
#: beyond its parameters; every other family takes ``--n`` only.
_DESIGNER_OPTIONS = {
    "count": ("N", "n_min", "law"),
    "modulo": ("n", "neighbourhood", "solver", "time_limit"),
}
#: Argparse types of family options narrower than the declared type.
_PARSERS = {
    "D": bounded_int("--D", 1, MAX_COUNT_D, "the exact-optimal law's work grows as D^2"),
}
#: Help of family options (the families declaring them are appended).
_HELPS = {
    "D": f"noise support [-D, D] (1..{MAX_COUNT_D})",
    "eta": "count: probability of the true count (default: the largest eta whose "
    "exact-delta-optimal law meets --delta)",
    "loss": "modulo: error_rate, absolute or squared (old names er, abs, mse; default error_rate)",
}


def _options() -> dict[str, Any]:
    from ..noise import FAMILIES

    return family_options(FAMILIES, skip=_OWN)


# ------------------------------------------------------------------------------------ parser
def add_parser(sub: Any) -> None:
    """Add ``design`` to the subparsers of the ``rainbowdp`` command."""
    from ..noise import FAMILIES

    g = sub.add_parser("design", help="design an optimal mechanism and write it to a file")
    g.add_argument("graph", nargs="?", default=None, help="graph file (not with --family)")
    g.add_argument(
        "--method",
        choices=["closed-form", "lp", "milp"],
        default=None,
        help="closed-form (Gu et al. Thm 2, needs --boundary), lp ((eps, delta)-DP) "
        "or milp (probabilistic DP); default closed-form with --boundary, else lp",
    )
    g.add_argument("--epsilon", type=finite_float("--epsilon"), required=True)
    g.add_argument("--delta", type=finite_float("--delta"), default=0.0)
    g.add_argument(
        "--boundary",
        help="closed-form only. JSON: {'order': 'outputs'|'rainbow', 'rainbows': "
        "[{'rainbow': [...], 'distribution': [...]}]} or {'order': ..., 'nodes': {node: "
        "[...]}}; 'order' (default 'outputs'): each distribution follows the graph's outputs, "
        "or its rainbow (most preferred output first)",
    )
    g.add_argument(
        "--utility",
        default=None,
        choices=["accuracy", "rank", "absolute", "squared"],
        help="lp/milp only (default accuracy): accuracy = P[top output], rank = linear in "
        "rank, absolute/squared = minus |output - answer| or its square (query graphs)",
    )
    g.add_argument(
        "--fixed", help="lp/milp only. JSON {'nodes': {node: [...]}}: rows the design must keep"
    )
    g.add_argument("--solver", choices=["highs", "cbc"], default=None, help="lp/milp only")
    g.add_argument(
        "--time-limit",
        type=finite_float("--time-limit", positive=True),
        default=None,
        help="lp/milp only: seconds; a MILP stopped with a feasible incumbent returns it "
        "(status time_limit, with the solver's bound and gap)",
    )
    g.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="lp/milp only: solver progress on standard error (default: when standard error "
        "is a terminal)",
    )
    g.add_argument(
        "-o", "--output", default=None, help="output graph file (.json); optional with --family"
    )
    g.add_argument("--json", action="store_true", help="machine-readable output (strict JSON)")
    g.add_argument(
        "--family",
        choices=sorted(FAMILIES),
        default=None,
        help="design a noise family's mechanism instead of reading GRAPH: modulo = Kadam et "
        "al.'s modulo-addition noise on 0..n (MILP (13) / LP (14)); count = Sadeghi et al.'s "
        "count-query noise (Theorem 3, the omitted constraint restored); any other family: its "
        "mechanism at the given parameters on its default graph (see `rainbowdp families`)",
    )
    _add_family_extras(g)
    add_family_options(g, _options(), helps=_HELPS)
    g.set_defaults(run=run)


def _add_family_extras(g: argparse.ArgumentParser) -> None:
    """The options of ``--family`` that are not family parameters."""
    g.add_argument(
        "--N",
        type=bounded_int("--N", 1, MAX_COUNT_N, "the mechanism holds about N (N + D) numbers"),
        default=None,
        help=f"--family count: counts n_min..N (1..{MAX_COUNT_N})",
    )
    g.add_argument(
        "--n-min",
        type=bounded_int("--n-min", 1, MAX_COUNT_N, "the counts are n_min..N"),
        default=None,
        help="--family count: smallest count, 1..N (default D, the closed form's domain; "
        "below D the rows are anchored at 0)",
    )
    g.add_argument(
        "--law",
        choices=["singleton", "exact"],
        default=None,
        help="--family count: write alpha* (singleton, the paper's; default with --eta) or the "
        "law minimising the exact delta (exact; default without --eta)",
    )
    g.add_argument(
        "--n",
        type=integer("--n"),
        default=None,
        help=f"--family modulo: query values 0..n (1..{MAX_MODULO_N}); a family built in closed "
        f"form: the size of its default graph (1..{MAX_FAMILY_N})",
    )
    g.add_argument(
        "--neighbourhood",
        default=None,
        help="--family modulo: sd:K (single distance), bd:K (shifts 1..K) or a list 1,3,5 "
        "of shifts in 1..n (default sd:1)",
    )


# ------------------------------------------------------------------------------------- run
def run(args: argparse.Namespace) -> int:
    """Run ``rainbowdp design``; return the exit code."""
    if args.family is not None:
        return _design_family(args)
    options = _options()
    given = [(attr, flag) for attr, flag in _FAMILY_EXTRAS]
    given += [(name, used[0][1].flag) for name, used in options.items()]
    for attr, flag in given:
        value = getattr(args, attr)
        if value is not None:
            raise ParameterError(f"`{flag}` applies with --family only, got {flag} {value}.")
    if args.graph is None:
        raise ParameterError("`GRAPH` is required (a graph file), unless --family is given.")
    if args.output is None:
        raise ParameterError("`-o/--output` is required (the output graph file).")
    method = args.method or ("closed-form" if args.boundary else "lp")
    if method == "closed-form":
        if not args.boundary:
            raise ParameterError("`--boundary FILE` is required with --method closed-form.")
        for attr, flag in _LP_ONLY:
            value = getattr(args, attr)
            if value is not None:
                raise ParameterError(
                    f"`{flag}` applies to --method lp or milp only, got {flag} {value} with "
                    "--method closed-form."
                )
    elif args.boundary:
        raise ParameterError(
            f"`--boundary` applies to --method closed-form only, got --boundary {args.boundary} "
            f"with --method {method} (use --fixed to keep rows fixed in an LP/MILP design)."
        )
    return _design_graph(args, method)


def _closed_form(args: argparse.Namespace, G: Any) -> Any:
    """Gu et al.'s optimal mechanism (Thm 2) from the ``--boundary`` file; a warning is one
    line on standard error."""
    from ..exceptions import PermutedBoundaryWarning
    from ..io import load_assignment
    from ..optimal import optimal_mechanism

    # rows come back in outputs order; a file that states its order is taken at its word
    boundary, stated = load_assignment(args.boundary, G, return_order=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PermutedBoundaryWarning)
        M = optimal_mechanism(
            G,
            epsilon=args.epsilon,
            delta=args.delta,
            boundary=boundary,
            order=None if stated is None else "outputs",
        )
    for w in caught:  # a warning is one line on standard error, never a traceback
        error_line(f"rainbowdp: warning: {one_line(w.message)}")
    return M


def _solved(args: argparse.Namespace, G: Any, method: str, info: dict[str, Any]) -> Any:
    """The LP or MILP design (``rainbowdp.design.lp`` / ``.milp``); its numbers into ``info``."""
    from .. import design
    from ..io import load_assignment

    fixed = load_assignment(args.fixed, G, kinds=("nodes",)) if args.fixed else None
    kw: dict[str, Any] = {
        "epsilon": args.epsilon,
        "delta": args.delta,
        "fixed": fixed,
        "solver": args.solver,
        "time_limit": args.time_limit,
        "progress": args.progress,
    }
    if args.utility is not None:
        kw["utility"] = args.utility
    res = (design.lp if method == "lp" else design.milp)(G, **kw)
    info.update(
        objective=res.objective,
        status=res.status,
        solver=res.solver,
        build_seconds=res.build_seconds,
        solve_seconds=res.solve_seconds,
        best_bound=res.best_bound,
        gap=res.gap,
    )
    return res.mechanism


def _design_graph(args: argparse.Namespace, method: str) -> int:
    """``design GRAPH``: closed form, LP or MILP; the mechanism written and verified."""
    from ..io import load, save_graph
    from ..privacy import pdp_delta, verify

    output = check_output(
        args.output,
        DESIGN_SUFFIXES,
        [args.graph, args.boundary, args.fixed],
        "a node-link JSON file",
    )
    G, _ = load(args.graph)
    info: dict[str, Any] = {"method": method}
    M = _closed_form(args, G) if method == "closed-form" else _solved(args, G, method, info)
    rep = verify(M, epsilon=args.epsilon, delta=args.delta)
    info.update(
        output=str(args.output), is_private=rep.is_private, delta_required=rep.delta_required
    )
    if method == "milp":
        info["pdp_delta"] = pdp_delta(M, args.epsilon)
    save_graph(
        G,
        output,
        mechanism=M,
        metadata={
            "design": json_safe({k: v for k, v in info.items() if k != "output"}),
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
            f"; utility {format_down(info['objective'])} ({info['status']}, {info['solver']}, "
            f"{info['build_seconds'] + info['solve_seconds']:.2f} s)"
        )
        if info["status"] == "time_limit":
            bound = "unknown" if info["best_bound"] is None else format_up(info["best_bound"])
            gap = "unknown" if info["gap"] is None else f"{format_up(100 * info['gap'], 4)} %"
            text += f"; solver bound {bound}, gap {gap}"
    emit(info, args.json, text)
    return EXIT_OK


# ------------------------------------------------------------------------------- --family
def _design_family(args: argparse.Namespace) -> int:
    """``design --family NAME``: the family's designer, or its mechanism at the parameters."""
    from ..noise import get_family

    if args.graph is not None:
        raise ParameterError(
            f"`GRAPH` is not used with --family (the family builds its graph), got {args.graph}."
        )
    refused = (("method", "--method"), ("boundary", "--boundary"), *_LP_ONLY[:2], _LP_ONLY[-1])
    for attr, flag in refused:
        value = getattr(args, attr)
        if value is not None:
            raise ParameterError(f"`{flag}` does not apply with --family, got {flag} {value}.")
    name = args.family
    takes = _DESIGNER_OPTIONS.get(name, ("n",))
    for attr, flag in (*_FAMILY_EXTRAS, *_LP_ONLY[2:4]):
        value = getattr(args, attr)
        if value is not None and attr not in takes:
            raise ParameterError(
                f"`{flag}` does not apply with --family {name}, got {flag} {value}."
            )
    cls = get_family(name)
    values = family_values(f"with --family {name}", cls, args, _options(), parsers=_PARSERS)
    output = (
        check_output(args.output, DESIGN_SUFFIXES, [], "a node-link JSON file")
        if args.output
        else None
    )
    if name == "count":
        return _design_count(args, values, output)
    n_max, why, what = (
        (MAX_MODULO_N, "the MILP's time grows steeply with n", "query values 0..n")
        if name == "modulo"
        else (MAX_FAMILY_N, "the default graphs hold (n + 1)^2 numbers", "its default graph")
    )
    if args.n is None:
        raise ParameterError(f"`--n` is required with --family {name} ({what}).")
    if not 1 <= args.n <= n_max:
        raise ParameterError(
            f"--n must be an integer in [1, {n_max}]; {why}, got --n={args.n} (--family {name})."
        )
    if name == "modulo":
        return _design_modulo(args, cls, values, output)
    return _design_built(args, cls, values, output)


def _write_family(M: Any, info: dict, output: Any, args: argparse.Namespace, text: str) -> int:
    """Write a family design (with its numbers as metadata) if asked, and report it."""
    from ..io import save_graph

    if output is not None:
        save_graph(
            M.graph,
            output,
            mechanism=M,
            metadata={"design": json_safe({k: v for k, v in info.items() if k != "output"})},
        )
        text += f"\nwrote {args.output}"
    emit(info, args.json, text)
    return EXIT_OK


def _count_eta(args: argparse.Namespace, D: int, eta: float | None, law: str) -> float:
    """``--eta``, or the largest η whose exact-δ-optimal law meets ``--delta``."""
    from ..noise import count

    if eta is not None:
        return eta
    if law != "exact" or args.delta <= 0:
        raise ParameterError(
            "`--eta` is required with --family count, unless --delta > 0 is given with "
            f"--law exact (the default then), got --law {law} --delta {args.delta}."
        )
    eta = float(count.max_eta(D, epsilon=args.epsilon, delta=args.delta))
    if not 0 < eta < 1:
        raise ParameterError(
            f"no eta in (0, 1) meets --delta {args.delta} at --epsilon {args.epsilon} with --D {D}."
        )
    return eta


def _design_count(args: argparse.Namespace, values: dict[str, Any], output: Any) -> int:
    """``design --family count``: Sadeghi et al.'s count noise (Theorem 3, restored), its
    singleton delta, Remark 2's bound and the exact DP delta."""
    from ..noise import count

    D = values.get("D")
    if args.N is None or D is None:
        raise ParameterError("`--N` and `--D` are required with --family count.")
    given_eta = values.get("eta")
    law = args.law or ("singleton" if given_eta is not None else "exact")
    eta = _count_eta(args, D, given_eta, law)
    # a given eta is shown as given; the largest admissible one rounded down (never above it)
    eta_text = f"{eta:.6g}" if given_eta is not None else format_down(eta)
    n_min = D if args.n_min is None else args.n_min
    opt = count.optimum(D, epsilon=args.epsilon, eta=eta)
    best = count.exact_optimum(D, epsilon=args.epsilon, eta=eta)
    alpha = opt.alpha if law == "singleton" else best.alpha
    M = count.mechanism(args.N, D, eta=eta, alpha=alpha, n_min=n_min)
    exact = count.dp_delta(M, epsilon=args.epsilon)
    info = {
        "family": "count",
        "N": args.N,
        "D": D,
        "n_min": n_min,
        "epsilon": args.epsilon,
        "eta": eta,
        "law": law,
        "alpha": alpha.tolist(),
        "alpha_star": opt.alpha.tolist(),
        "case": opt.case,
        "singleton_delta": opt.delta,
        "printed_delta": opt.printed_delta,
        "remark2_bound": opt.dp_bound,
        "exact_delta_alpha_star": count.law_dp_delta(opt.alpha, eta=eta, epsilon=args.epsilon),
        "exact_optimal_delta": best.delta,
        "exact_delta": exact,
        "output": str(args.output) if output else None,
    }
    case = (
        "Theorem 3 as printed"
        if opt.case == "theorem3"
        else "restored constraint binds; the printed delta~ "
        f"{format_up(opt.printed_delta)} is too low"
    )
    written = "alpha*" if law == "singleton" else "the exact-delta-optimal law"
    text = (
        f"count noise, support [-{D}, {D}], eta = {eta_text}, epsilon = {args.epsilon:g}:\n"
        f"  alpha* = {[round(float(x), 6) for x in opt.alpha]} ({case})\n"
        f"  singleton delta* = {format_up(opt.delta)}; Remark 2 bound (2D+1) delta* = "
        f"{format_up(opt.dp_bound)}; exact DP delta of alpha* "
        f"{format_up(info['exact_delta_alpha_star'])}\n"
        f"  the law minimising the exact delta: "
        f"{[round(float(x), 6) for x in best.alpha]}, exact delta {format_up(best.delta)}\n"
        f"  mechanism ({written}) on counts {n_min}..{args.N}: exact DP delta {format_up(exact)}"
    )
    return _write_family(M, info, output, args, text)


def _cut(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters for a message."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _parse_neighbourhood(text: str, n: int) -> list[int]:
    """``sd:K`` -> [K], ``bd:K`` -> [1..K], ``1,3,5`` -> [1, 3, 5].

    ``bd:K`` needs K in 1..n, checked before a list of K shifts is made; the shifts themselves
    are checked by :func:`rainbowdp.noise.modulo.optimal_pmf` (its messages name `shifts`).
    """
    kind, _, value = text.partition(":")
    try:
        if kind in ("sd", "bd") and value:
            k = int(value)
            if kind == "sd":
                return [k]
            if 1 <= k <= n:
                return list(range(1, k + 1))
            bad_k = True
        elif not value:
            return [int(v) for v in text.split(",")]
        else:
            bad_k = False
    except ValueError:
        bad_k = False
    if bad_k:
        raise ParameterError(
            f"`--neighbourhood` bd:K needs K in [1, n] = [1, {n}], got --neighbourhood "
            f"{_cut(text)}."
        )
    raise ParameterError(
        "`--neighbourhood` must be sd:K, bd:K or a comma-separated list of shifts in 1..n, got "
        f"--neighbourhood {_cut(text)}."
    )


def _design_modulo(args: argparse.Namespace, cls: type, values: dict[str, Any], output: Any) -> int:
    """``design --family modulo``: Kadam et al.'s optimal modulo-addition noise on 0..n (the
    family's defaults where an option is not given)."""
    from ..noise import modulo
    from ..privacy import epsilon_for_delta

    shifts = _parse_neighbourhood(args.neighbourhood or "sd:1", args.n)
    chosen = {p.name: values.get(p.name, p.default) for p in family_parameters(cls)}
    reading, formulation, loss = chosen["reading"], chosen["formulation"], chosen["loss"]
    res = modulo.optimal_pmf(
        args.n,
        epsilon=args.epsilon,
        delta=args.delta,
        shifts=shifts,
        loss=loss,
        reading=reading,
        formulation=formulation,
        solver=args.solver,
        time_limit=args.time_limit,
    )
    M = modulo.mechanism(res.pmf, shifts=shifts, reading=reading)
    dp = modulo.dp_delta(res.pmf, epsilon=args.epsilon, shifts=shifts, reading=reading)
    eps_at = float(epsilon_for_delta(M, args.delta))
    info = {
        "family": "modulo",
        "n": args.n,
        "shifts": shifts,
        "reading": reading,
        "formulation": formulation,
        "loss": loss_name(loss),
        "pmf": res.pmf.tolist(),
        "objective": res.objective,
        "pdp_leakage": res.leakage,
        "dp_delta": dp,
        "epsilon_for_delta": eps_at if math.isfinite(eps_at) else None,
        "output": str(args.output) if output else None,
    }
    text = (
        f"optimal modulo-addition noise, n = {args.n}, shifts {shifts} ({reading} reading, "
        f"{formulation} formulation, loss {info['loss']}):\n"
        f"  f* = {[round(float(x), 4) for x in res.pmf]}\n"
        f"  expected distortion {format_up(res.objective)}; PDP leakage at epsilon "
        f"{args.epsilon:g}: {format_up(res.leakage)} (<= delta {args.delta:g}); exact DP delta "
        f"{format_up(dp)}; smallest epsilon at delta {args.delta:g}: {format_up(eps_at)}"
    )
    return _write_family(M, info, output, args, text)


def _design_built(args: argparse.Namespace, cls: type, values: dict[str, Any], output: Any) -> int:
    """``design --family NAME`` for a family without a designer of its own: the family's
    mechanism at the given parameters on its default graph of size ``--n``, verified at
    (ε, δ); written (``-o``) only when private (exit code 1 otherwise)."""
    from ..privacy import epsilon_for_delta, verify

    own = {"epsilon": args.epsilon, "delta": args.delta}
    kw: dict[str, Any] = {}
    missing = []
    for p in family_parameters(cls):
        if p.name in own:
            kw[p.name] = own[p.name]
        elif p.name in values:
            kw[p.name] = values[p.name]
        elif p.required:
            missing.append(p.flag if p.type is not None else p.name)
    if missing:
        raise ParameterError(
            f"`{', '.join(missing)}` {'is' if len(missing) == 1 else 'are'} required with "
            f"--family {args.family}, got no {missing[0]}."
        )
    family = cls(**kw)
    G = family.graph(args.n)
    if hasattr(family, "for_graph"):  # an additive family: its sensitivity is the graph's
        family = family.for_graph(G)
    M = family.mechanism(G)
    rep = verify(M, epsilon=args.epsilon, delta=args.delta)
    eps_needed = float(epsilon_for_delta(M, args.delta))
    claim = family.nominal()
    private = bool(rep.is_private)
    info = {
        "family": args.family,
        **family_summary(family, args.n, G),
        "epsilon": args.epsilon,
        "delta": args.delta,
        "is_private": private,
        "delta_required": rep.delta_required,
        "epsilon_required": eps_needed,
        "nominal_delta": claim.dp_delta(args.epsilon),
        "holds_on": family.holds_on(G),
        "source": claim.source,
        "output": str(args.output) if output is not None and private else None,
    }
    text = (
        f"{family!r} on its default graph (n={args.n}: {G.n_nodes} nodes, {G.n_edges} edges, "
        f"{G.n_outputs} outputs), verified at ({args.epsilon:g}, {args.delta:g}): "
        f"{'private' if private else 'NOT private'}\n"
        f"  delta required {format_up(rep.delta_required)} (nominal "
        f"{format_up(info['nominal_delta'])}, {claim.source}); smallest epsilon at delta "
        f"{args.delta:g}: {format_up(eps_needed)}"
    )
    if not private:
        emit(info, args.json, text + ("\nnothing written" if output is not None else ""))
        return EXIT_NOT_PRIVATE
    return _write_family(M, info, output, args, text)
