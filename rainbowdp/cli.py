r"""The ``rainbowdp`` command.

::

    rainbowdp demo [--output-dir DIR]
    rainbowdp verify GRAPH --epsilon E [--delta D] [--certify] [--json]
    rainbowdp design GRAPH --epsilon E [--delta D] --method closed-form --boundary FILE
                     -o OUT.json [--json]
    rainbowdp design GRAPH --epsilon E [--delta D] [--method lp|milp] [--utility U]
                     [--fixed FILE] [--solver highs|cbc] [--time-limit S] -o OUT.json [--json]
    rainbowdp design --family modulo --n N --epsilon E [--delta D] [...] [-o OUT.json] [--json]
    rainbowdp design --family count --N N --D D --epsilon E [--eta H | --delta D]
                     [--law singleton|exact] [--n-min M] [-o OUT.json] [--json]
    rainbowdp plot GRAPH -o OUT.png|OUT.pdf|OUT.svg [--dpi N] [--layout NAME] [--labels]
                   [--rainbows] [--mode auto|glyphs|large]
    rainbowdp profile GRAPH [--epsilons 0,0.5,1|START:STOP:NUM] [-o OUT.png|.pdf|.svg|.csv]
                      [--dpi N] [--json]
    rainbowdp reproduce fig3|...|fig14|count-fig1|...|count-fig4|abs-fig1|...|abs-fig5|abs-optimal
                        [-o OUT.png] [--dpi N] [--json]
    rainbowdp reproduce all -o DIR [--only NAME,NAME] [--dpi N] [--json]
    rainbowdp ptable design --epsilon E --delta D [--method maxent|optimal] [--keysize K]
                     [-o PT.csv] [--json]
    rainbowdp ptable audit PT.csv [--epsilon E ...] [--delta D ...] [--keysize K] [--json]
    rainbowdp perturb DATA.csv --by COL1,COL2 --ptable PT.csv [-o TABLE.csv] [--json]
    rainbowdp families [--json]
    rainbowdp families NAME --n N --epsilon E [--form F] [--sigma S] [--json]
    rainbowdp --version

Exit codes
----------
0
    Success; for ``verify``: private.
1
    ``verify``: not private (``demo``: a bundled graph did not get its expected verdict;
    ``reproduce all``: a recomputed value disagrees with the printed one, or a target failed).
2
    Bad input: exactly one line on standard error, never a traceback. Bad input is an error
    of the library (:class:`~rainbowdp.exceptions.RainbowDPError`, which includes every
    argument error), an operating-system error (a missing or unwritable file), or a usage
    error of the command line. Any other exception is a bug and is shown as one (a traceback).
3
    ``verify --certify``: the exact rational certificate is *undecided* (the exact δ required
    lies in the verifier's tolerance band), so privacy is neither proved nor disproved.

With ``--certify`` the exit code follows the certificate, not the float verdict: 0 only when
privacy is proved (``"private"``), 1 when its failure is proved (``"not private"``), 3 when
``"undecided"``.

Arguments are checked before any work: ``--epsilon``, ``--delta`` and ``--time-limit`` must be
finite numbers (``inf``, ``nan`` and overflowing literals such as ``1e400`` are refused; the
range of ε and δ is checked by the library), ``--dpi`` lies in ``[10, 1200]``, every integer
option lies in a range where the work stays reasonable (``--N`` and ``--n-min`` up to
:data:`MAX_COUNT_N`, ``--D`` up to :data:`MAX_COUNT_D`, ``design --family modulo --n`` up to
:data:`MAX_MODULO_N`, ``families --n`` up to :data:`MAX_FAMILY_N`; the message names the
option, the value and the range), an output file (``-o``) must have one of the extensions the
command writes (``.json`` for ``design``; ``.png``, ``.pdf`` or ``.svg`` for images), must not
be a directory, must be in an existing directory and must not be one of the command's input
files. A symbolic link given as ``-o`` is followed (its target is replaced, as ``cp`` and the
shell's ``>`` do). Options that the chosen method would ignore are refused: ``--boundary``
with ``--method lp|milp``, and ``--fixed``, ``--utility``, ``--solver`` or ``--time-limit``
with ``--method closed-form``.

With ``--json`` the output is strict JSON (no ``NaN`` or ``Infinity`` tokens): a number that
is infinite or undefined is written as ``null``; e.g. ``"epsilon_required": null`` means that
no finite ε makes the mechanism (ε, δ)-DP at the given δ.

A closed standard output (``rainbowdp verify ... | head -1``) is not an error: the rest of the
output is discarded, as Python's documentation recommends for ``BrokenPipeError``, and the
command exits with its normal code, printing nothing on standard error.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ._cli_common import (
    EXIT_BAD_INPUT,
    EXIT_NOT_PRIVATE,
    EXIT_OK,
    EXIT_UNDECIDED,
    IMAGE_SUFFIXES,
    MAX_DPI,
    MAX_IMAGE_PIXELS,
    MIN_DPI,
    Parser,
    UsageError,
    bounded_int,
    check_output,
    emit,
    finite_float,
    flush_stdout,
    json_safe,
    parse_dpi,
    print_stdout,
    save_figure,
)
from ._format import format_down, format_up
from .exceptions import GraphFileError, ParameterError, RainbowDPError

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_NOT_PRIVATE",
    "EXIT_OK",
    "EXIT_UNDECIDED",
    "IMAGE_SUFFIXES",
    "MAX_COUNT_D",
    "MAX_COUNT_N",
    "MAX_DPI",
    "MAX_FAMILY_N",
    "MAX_IMAGE_PIXELS",
    "MAX_MODULO_N",
    "MIN_DPI",
    "main",
]

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
#: Largest ``families NAME --n``: the default graphs hold (n + 1)^2 numbers (4.1 s and 365 MB
#: at n = 2000, the limit of the library's default graphs).
MAX_FAMILY_N = 2000


# ---------------------------------------------------------------------------------- verify
def _cmd_verify(args: argparse.Namespace) -> int:
    from .io import load
    from .privacy import epsilon_for_delta, verify

    G, M = load(args.graph)
    if M is None:
        raise GraphFileError(f"{args.graph!r} has no 'mechanism' node attribute to verify.")
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
        f"smallest epsilon at delta={rep.delta:g}: {format_up(eps_needed)}"
    )
    code = EXIT_OK if rep.is_private else EXIT_NOT_PRIVATE
    if args.certify:
        from ._verify.certify import Verdict, certify

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


# ---------------------------------------------------------------------------------- design
_LP_ONLY = (
    ("fixed", "--fixed"),
    ("utility", "--utility"),
    ("solver", "--solver"),
    ("time_limit", "--time-limit"),
    ("progress", "--progress"),
)


#: Options of ``design --family modulo`` (attribute, flag).
_MODULO_ONLY = (
    ("n", "--n"),
    ("neighbourhood", "--neighbourhood"),
    ("reading", "--reading"),
    ("formulation", "--formulation"),
    ("loss", "--loss"),
)
#: Options of ``design --family count`` (attribute, flag).
_COUNT_ONLY = (
    ("N", "--N"),
    ("D", "--D"),
    ("eta", "--eta"),
    ("n_min", "--n-min"),
    ("law", "--law"),
)
#: Options refused without ``--family``.
_FAMILY_ONLY = _MODULO_ONLY + _COUNT_ONLY


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


def _cut(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters for a message."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _design_family(args: argparse.Namespace) -> int:
    """``design --family modulo|count``."""
    if args.graph is not None:
        raise ParameterError(
            f"`GRAPH` is not used with --family (the family builds its graph), got {args.graph}."
        )
    refused = (("method", "--method"), ("boundary", "--boundary"), *_LP_ONLY[:2], _LP_ONLY[-1])
    for attr, flag in refused:
        value = getattr(args, attr)
        if value is not None:
            raise ParameterError(f"`{flag}` does not apply with --family, got {flag} {value}.")
    other = _COUNT_ONLY if args.family == "modulo" else _MODULO_ONLY
    for attr, flag in other:
        value = getattr(args, attr)
        if value is not None:
            raise ParameterError(
                f"`{flag}` does not apply with --family {args.family}, got {flag} {value}."
            )
    if args.family == "count":
        return _design_count(args)
    return _design_modulo(args)


def _family_result(M: Any, info: dict, output: Any, args: argparse.Namespace, text: str) -> int:
    """Write a family design (with its numbers as metadata) if asked, and report it."""
    from .io import save_graph

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


def _design_count(args: argparse.Namespace) -> int:
    """``design --family count``: Sadeghi et al.'s count noise (Theorem 3, restored), its
    singleton delta, Remark 2's bound and the exact DP delta."""
    from .noise import count

    if args.N is None or args.D is None:
        raise ParameterError("`--N` and `--D` are required with --family count.")
    for attr, flag in _LP_ONLY[2:]:
        value = getattr(args, attr)
        if value is not None:
            raise ParameterError(
                f"`{flag}` does not apply with --family count, got {flag} {value}."
            )
    output = (
        check_output(args.output, DESIGN_SUFFIXES, [], "a node-link JSON file")
        if args.output
        else None
    )
    eta = args.eta
    law = args.law or ("singleton" if eta is not None else "exact")
    if eta is None:  # the largest eta whose exact-delta-optimal law meets --delta
        if law != "exact" or args.delta <= 0:
            raise ParameterError(
                "`--eta` is required with --family count, unless --delta > 0 is given with "
                f"--law exact (the default then), got --law {law} --delta {args.delta}."
            )
        eta = count.max_eta(args.D, epsilon=args.epsilon, delta=args.delta)
        if not 0 < eta < 1:
            raise ParameterError(
                f"no eta in (0, 1) meets --delta {args.delta} at --epsilon {args.epsilon} with "
                f"--D {args.D}."
            )
    # a given eta is shown as given; the largest admissible one rounded down (never above it)
    eta_text = f"{eta:.6g}" if args.eta is not None else format_down(eta)
    n_min = args.D if args.n_min is None else args.n_min
    opt = count.optimum(args.D, epsilon=args.epsilon, eta=eta)
    best = count.exact_optimum(args.D, epsilon=args.epsilon, eta=eta)
    alpha = opt.alpha if law == "singleton" else best.alpha
    M = count.mechanism(args.N, args.D, eta=eta, alpha=alpha, n_min=n_min)
    exact = count.dp_delta(M, epsilon=args.epsilon)
    info = {
        "family": "count",
        "N": args.N,
        "D": args.D,
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
        f"count noise, support [-{args.D}, {args.D}], eta = {eta_text}, epsilon = "
        f"{args.epsilon:g}:\n"
        f"  alpha* = {[round(float(x), 6) for x in opt.alpha]} ({case})\n"
        f"  singleton delta* = {format_up(opt.delta)}; Remark 2 bound (2D+1) delta* = "
        f"{format_up(opt.dp_bound)}; exact DP delta of alpha* "
        f"{format_up(info['exact_delta_alpha_star'])}\n"
        f"  the law minimising the exact delta: "
        f"{[round(float(x), 6) for x in best.alpha]}, exact delta {format_up(best.delta)}\n"
        f"  mechanism ({written}) on counts {n_min}..{args.N}: exact DP delta {format_up(exact)}"
    )
    return _family_result(M, info, output, args, text)


def _design_modulo(args: argparse.Namespace) -> int:
    """``design --family modulo``: Kadam et al.'s optimal modulo-addition noise on 0..n."""
    from .noise import modulo
    from .privacy import epsilon_for_delta

    if args.n is None:
        raise ParameterError("`--n` is required with --family modulo (query values 0..n).")
    output = (
        check_output(args.output, DESIGN_SUFFIXES, [], "a node-link JSON file")
        if args.output
        else None
    )
    shifts = _parse_neighbourhood(args.neighbourhood or "sd:1", args.n)
    reading = args.reading or "symmetric"
    res = modulo.optimal_pmf(
        args.n,
        epsilon=args.epsilon,
        delta=args.delta,
        shifts=shifts,
        loss=args.loss or "er",
        reading=reading,
        formulation=args.formulation or "printed",
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
        "formulation": args.formulation or "printed",
        "loss": args.loss or "er",
        "pmf": res.pmf.tolist(),
        "objective": res.objective,
        "pdp_leakage": res.leakage,
        "dp_delta": dp,
        "epsilon_for_delta": eps_at if math.isfinite(eps_at) else None,
        "output": str(args.output) if output else None,
    }
    text = (
        f"optimal modulo-addition noise, n = {args.n}, shifts {shifts} ({reading} reading, "
        f"{info['formulation']} formulation, loss {info['loss']}):\n"
        f"  f* = {[round(float(x), 4) for x in res.pmf]}\n"
        f"  expected distortion {format_up(res.objective)}; PDP leakage at epsilon "
        f"{args.epsilon:g}: {format_up(res.leakage)} (<= delta {args.delta:g}); exact DP delta "
        f"{format_up(dp)}; smallest epsilon at delta {args.delta:g}: {format_up(eps_at)}"
    )
    return _family_result(M, info, output, args, text)


def _cmd_design(args: argparse.Namespace) -> int:
    from .io import load, load_assignment, save_graph

    if args.family is not None:
        return _design_family(args)
    for attr, flag in _FAMILY_ONLY:
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
    output = check_output(
        args.output,
        DESIGN_SUFFIXES,
        [args.graph, args.boundary, args.fixed],
        "a node-link JSON file",
    )
    G, _ = load(args.graph)
    info: dict[str, Any] = {"method": method}
    if method == "closed-form":
        import warnings

        from .exceptions import PermutedBoundaryWarning
        from .optimal import optimal_mechanism

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
            _error(f"rainbowdp: warning: {_one_line(w.message)}")
    else:
        from . import design

        fixed = load_assignment(args.fixed, G, kinds=("nodes",)) if args.fixed else None
        kw = {
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
        M = res.mechanism
        info.update(
            objective=res.objective,
            status=res.status,
            solver=res.solver,
            build_seconds=res.build_seconds,
            solve_seconds=res.solve_seconds,
            best_bound=res.best_bound,
            gap=res.gap,
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
            bound = "unknown" if res.best_bound is None else format_up(res.best_bound)
            gap = "unknown" if res.gap is None else f"{format_up(100 * res.gap, 4)} %"
            text += f"; solver bound {bound}, gap {gap}"
    emit(info, args.json, text)
    return EXIT_OK


# ---------------------------------------------------------------------------------- plot
def _cmd_plot(args: argparse.Namespace) -> int:
    from .io import load
    from .plot import draw_rainbow_graph

    output = check_output(args.output, IMAGE_SUFFIXES, [args.graph], "an image file")
    G, M = load(args.graph)
    fig = draw_rainbow_graph(
        G, M, layout=args.layout, labels=args.labels, rainbows=args.rainbows, mode=args.mode
    )
    save_figure(fig, output, args.dpi)
    print_stdout(f"wrote {args.output}")
    return EXIT_OK


# ---------------------------------------------------------------------------------- reproduce
def _cmd_reproduce(args: argparse.Namespace) -> int:
    from . import reproduce

    if args.figure == "all":
        from ._cli_reproduce_all import run

        return run(args)
    if args.only is not None:
        raise ParameterError(
            f"`--only` applies to `reproduce all` only, got --only {args.only} with {args.figure}."
        )
    output = check_output(args.output, IMAGE_SUFFIXES, [], "an image file") if args.output else None
    result = _reproducible()[args.figure][1]()
    if output is not None:
        save_figure(result.figure, output, args.dpi)
    if isinstance(result, reproduce.LineFigure):
        wrote = f"; wrote {args.output}" if args.output else ""
        data = {
            "figure": args.figure,
            "tau": [int(t) for t in result.tau],
            "output": str(args.output) if args.output else None,
        }
        emit(data, args.json, f"{args.figure}: tau = {tuple(data['tau'])}{wrote}")
        return EXIT_OK
    if isinstance(result, reproduce.CurveFigure):
        data = {"figure": args.figure, **result.to_dict()}
        data["output"] = str(args.output) if args.output else None
        emit(data, args.json, _curve_text(result, args.figure, args.output))
        return EXIT_OK
    data = {
        "figure": args.figure,
        "name": result.name,
        "parameters": result.parameters,
        "deltas": list(result.deltas),
        "pmfs": result.pmfs.tolist(),
        "matches_paper": result.matches_paper,
        "output": str(args.output) if args.output else None,
    }
    lines = [f"{result.name} ({args.figure})"]
    for d, f in zip(result.deltas, result.pmfs, strict=True):
        rounded = [round(float(x), 4) for x in f.ravel()]
        lines.append(f"  delta = {d:g}: f* = {rounded}")
    if result.matches_paper is not None:
        lines.append(f"  matches the printed values: {result.matches_paper}")
    if args.output:
        lines.append(f"wrote {args.output}")
    emit(data, args.json, "\n".join(lines))
    return EXIT_OK


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


def _reproducible() -> dict[str, tuple[str, Any]]:
    """name -> (description, function returning the figure's data), from the registry
    :data:`rainbowdp.reproduce.TARGETS` (which ``reproduce all`` runs)."""
    from .reproduce import TARGETS

    return {name: (TARGETS[name].description, TARGETS[name].make) for name in REPRODUCIBLE_NAMES}


#: The names ``rainbowdp reproduce`` accepts (see :func:`_reproducible`).
REPRODUCIBLE_NAMES = (
    "fig3",
    "fig4",
    "fig5",
    "table1",
    "fig9a",
    "fig9b",
    "fig10a",
    "fig10b",
    "fig13a",
    "fig13b",
    "fig5a",
    "fig5b",
    "fig6",
    "fig7a",
    "fig7b",
    "fig8",
    "fig11a",
    "fig11b",
    "fig12a",
    "fig12b",
    "fig14",
    "count-fig1",
    "count-fig2",
    "count-fig3a",
    "count-fig3b",
    "count-fig4",
    "abs-fig1",
    "abs-fig2",
    "abs-fig3",
    "abs-fig4",
    "abs-fig5",
    "abs-optimal",
)


# ---------------------------------------------------------------------------------- families
def _cmd_families(args: argparse.Namespace) -> int:
    import dataclasses

    from . import noise

    if args.name is None:
        for flag, value in (
            ("--n", args.n),
            ("--epsilon", args.epsilon),
            ("--form", args.form),
            ("--sigma", args.sigma),
        ):
            if value is not None:
                raise ParameterError(
                    f"`{flag}` needs a family NAME (see `rainbowdp families`), got {flag} {value}."
                )
        listing = [{"name": k, "summary": v.summary} for k, v in sorted(noise.FAMILIES.items())]
        width = max(len(item["name"]) for item in listing)
        emit(
            {"families": listing},
            args.json,
            "\n".join(f"{item['name']:<{width}}  {item['summary']}" for item in listing),
        )
        return EXIT_OK
    cls = noise.get_family(args.name)
    names = {f.name for f in dataclasses.fields(cls)}
    for flag, value in (("--n", args.n), ("--epsilon", args.epsilon)):
        if value is None:
            raise ParameterError(f"`{flag}` is required with a family NAME, got no {flag}.")
    kw: dict[str, Any] = {}
    if "epsilon" in names:
        kw["epsilon"] = args.epsilon
    if "sigma" in names:
        if args.sigma is None:
            raise ParameterError(f"`--sigma` is required for the {args.name} family.")
        kw["sigma"] = args.sigma
    elif args.sigma is not None:
        raise ParameterError(
            f"`--sigma` applies to the discrete_gaussian family only, got --sigma {args.sigma} "
            f"with {args.name}."
        )
    if args.form is not None:
        if "form" not in names:
            raise ParameterError(
                f"`--form` applies to the additive families only, got --form {args.form} with "
                f"{args.name}."
            )
        kw["form"] = args.form
    missing = [
        f.name
        for f in dataclasses.fields(cls)
        if f.init
        and f.name not in kw
        and f.default is dataclasses.MISSING
        and f.default_factory is dataclasses.MISSING
    ]
    if missing:
        hint = " (use `rainbowdp design --family count`)" if args.name == "count" else ""
        raise ParameterError(
            f"the {args.name} family needs {', '.join(missing)}, which `families` does not set"
            f"{hint}, got family {args.name}."
        )
    family = cls(**kw)
    G = family.graph(args.n)
    if hasattr(family, "for_graph"):  # an additive family: its sensitivity is the graph's
        family = family.for_graph(G)
    M = family.mechanism(G)
    claim = family.nominal()
    from .privacy import epsilon_for_delta, privacy_profile

    if claim.pure:
        measure, nominal, exact = "epsilon", claim.epsilon, float(epsilon_for_delta(M, 0.0))
        shown = "epsilon"
    else:
        measure = "delta"
        nominal = claim.delta(args.epsilon)
        exact = float(privacy_profile(M, [args.epsilon])[0])
        shown = f"delta(epsilon={args.epsilon:g})"
    holds = family.holds_on(G)
    params = {
        f.name: getattr(family, f.name) for f in dataclasses.fields(family) if f.name != "loss"
    }
    out = {
        "family": args.name,
        "parameters": params,
        "graph": {
            "n": args.n,
            "n_nodes": G.n_nodes,
            "n_edges": G.n_edges,
            "n_outputs": G.n_outputs,
        },
        "measure": measure,
        "epsilon": args.epsilon,
        "nominal": nominal,
        "exact": exact,
        "holds_on": holds,
        "source": claim.source,
    }
    how = "proved smallest epsilon at delta=0" if claim.pure else "sound delta"
    text = (
        f"{family!r} on its default graph (n={args.n}: {G.n_nodes} nodes, {G.n_edges} edges, "
        f"{G.n_outputs} outputs)\n"
        f"nominal {shown}: {format_up(nominal)}  ({claim.source})\n"
        f"exact   {shown}: {format_up(exact)}  ({how} of the finite mechanism)\n"
        f"holds_on: {holds}"
    )
    emit(out, args.json, text)
    return EXIT_OK


# ---------------------------------------------------------------------------------- demo
def _cmd_demo(args: argparse.Namespace) -> int:
    from .bundled import examples, graphs_dir
    from .io import load
    from .privacy import epsilon_for_delta, verify

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
    _demo_design(out_dir)
    return EXIT_OK if ok else EXIT_NOT_PRIVATE


def _demo_design(out_dir: Path) -> None:
    """Design the optimal mechanism of the three-colour graph and draw it."""
    from .bundled import examples
    from .optimal import homogeneous_boundary, optimal_mechanism
    from .plot import draw_rainbow_graph
    from .privacy import verify

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


# ---------------------------------------------------------------------------------- parser
def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("rainbowdp")
    except metadata.PackageNotFoundError:  # running from a source tree that is not installed
        from . import __version__

        return __version__


def _parser() -> Parser:
    p = Parser(
        prog="rainbowdp",
        description="Design and verify differentially private mechanisms on rainbow graphs.",
        epilog="Exit codes: 0 success (verify: private), 1 not private, 2 bad input, "
        "3 verify --certify: undecided.",
    )
    p.add_argument("--version", action="version", version=f"rainbowdp {_version()}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)

    d = sub.add_parser("demo", help="verify the bundled graphs and design an optimal mechanism")
    d.add_argument(
        "--output-dir",
        default="rainbowdp-demo",
        help="where the demo writes its drawing (default: ./rainbowdp-demo)",
    )
    d.set_defaults(func=_cmd_demo)

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
    v.set_defaults(func=_cmd_verify)

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
        choices=["modulo", "count"],
        default=None,
        help="design a family's optimum instead of reading GRAPH: modulo = Kadam et al.'s "
        "modulo-addition noise on 0..n (MILP (13) / LP (14)); count = Sadeghi et al.'s "
        "count-query noise (Theorem 3, the omitted constraint restored)",
    )
    g.add_argument(
        "--N",
        type=bounded_int("--N", 1, MAX_COUNT_N, "the mechanism holds about N (N + D) numbers"),
        default=None,
        help=f"--family count: counts n_min..N (1..{MAX_COUNT_N})",
    )
    g.add_argument(
        "--D",
        type=bounded_int("--D", 1, MAX_COUNT_D, "the exact-optimal law's work grows as D^2"),
        default=None,
        help=f"--family count: noise support [-D, D] (1..{MAX_COUNT_D})",
    )
    g.add_argument(
        "--eta",
        type=finite_float("--eta"),
        default=None,
        help="--family count: probability of the true count (default: the largest eta whose "
        "exact-delta-optimal law meets --delta)",
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
        type=bounded_int("--n", 1, MAX_MODULO_N, "the MILP's time grows steeply with n"),
        default=None,
        help=f"--family modulo: query values 0..n (1..{MAX_MODULO_N})",
    )
    g.add_argument(
        "--neighbourhood",
        default=None,
        help="--family modulo: sd:K (single distance), bd:K (shifts 1..K) or a list 1,3,5 "
        "of shifts in 1..n (default sd:1)",
    )
    g.add_argument("--reading", choices=["symmetric", "paper"], default=None)
    g.add_argument("--formulation", choices=["printed", "definition"], default=None)
    g.add_argument("--loss", choices=["er", "mse", "abs"], default=None)
    g.set_defaults(func=_cmd_design)

    pl = sub.add_parser("plot", help="draw a rainbow graph and its mechanism")
    pl.add_argument("graph")
    pl.add_argument("-o", "--output", required=True, help="image file (.png, .pdf or .svg)")
    pl.add_argument(
        "--dpi", type=parse_dpi, default=120, help=f"resolution, {MIN_DPI}..{MAX_DPI} (default 120)"
    )
    pl.add_argument(
        "--layout",
        choices=[
            "auto",
            "line",
            "pivot_mds",
            "spring",
            "kamada_kawai",
            "circular",
            "spectral",
            "shell",
        ],
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
    pl.set_defaults(func=_cmd_plot)

    r = sub.add_parser("reproduce", help="reproduce a figure of the papers, or all of them")
    r.add_argument(
        "figure",
        choices=(*REPRODUCIBLE_NAMES, "all"),
        help="fig3-fig5: Gu et al. (optimal line mechanisms); table1, fig9a/b, fig10a/b, "
        "fig13a/b: Kadam et al. (optimal modulo-addition noise); fig5a/b, fig6, fig7a/b, fig8, "
        "fig11a/b, fig12a/b, fig14: Kadam et al. (comparisons, clamping, sweeps; fig14 on "
        "synthetic data); count-fig1..count-fig4: Sadeghi et al. (count queries); "
        "abs-fig1..abs-fig5, abs-optimal: Sadeghi & Chien (ABS perturbation, cell keys); "
        "all: every figure, table and worked example, with an index comparing each printed "
        "number with the recomputed one (-o DIR required)",
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
        help="with `all`: run only these targets (figure names, gu-example1, count-example1, "
        "abs-example2, abs-example3)",
    )
    r.add_argument(
        "--dpi", type=parse_dpi, default=120, help=f"resolution, {MIN_DPI}..{MAX_DPI} (default 120)"
    )
    r.add_argument("--json", action="store_true", help="machine-readable output (strict JSON)")
    r.set_defaults(func=_cmd_reproduce)

    fa = sub.add_parser(
        "families",
        help="list the noise families, or build one and compare its nominal guarantee with the "
        "exact one",
    )
    fa.add_argument("name", nargs="?", default=None, help="a family (omit to list them)")
    fa.add_argument(
        "--n",
        type=bounded_int("--n", 1, MAX_FAMILY_N, "the default graphs hold (n + 1)^2 numbers"),
        default=None,
        help=f"size of the default graph (1..{MAX_FAMILY_N})",
    )
    fa.add_argument(
        "--epsilon",
        type=finite_float("--epsilon"),
        default=None,
        help="the family's epsilon (discrete_gaussian: the epsilon at which delta is compared)",
    )
    fa.add_argument(
        "--form",
        choices=["truncated", "clamped", "folded", "modular"],
        default=None,
        help="additive families only (default clamped)",
    )
    fa.add_argument(
        "--sigma", type=finite_float("--sigma"), default=None, help="discrete_gaussian only"
    )
    fa.add_argument("--json", action="store_true", help="machine-readable output (strict JSON)")
    fa.set_defaults(func=_cmd_families)

    from ._cli_cellkey import add_parsers

    add_parsers(sub)
    from ._cli_profile import add_parsers as add_profile_parsers

    add_profile_parsers(sub)
    return p


def _error(message: str) -> None:
    try:
        print(" ".join(message.split()), file=sys.stderr)
    except OSError:  # pragma: no cover - standard error itself is gone
        pass


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror and exc.filename is not None:
        return f"{exc.strerror}: {os.fsdecode(exc.filename)!r}"
    return " ".join(str(exc).split()) or type(exc).__name__


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (see the module notes)."""
    parser = _parser()
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help and --version print and exit successfully
            flush_stdout()
            return exc.code if isinstance(exc.code, int) else EXIT_OK
        code = int(args.func(args))
    except UsageError as exc:
        _error(str(exc))
        return EXIT_BAD_INPUT
    except (RainbowDPError, OSError) as exc:
        _error(f"rainbowdp: error: {_one_line(exc)}")
        return EXIT_BAD_INPUT
    flush_stdout()
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
