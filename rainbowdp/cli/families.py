r"""``rainbowdp families``: list the noise families, or build one and compare its nominal
guarantee with the exact one.

::

    rainbowdp families [--json]
    rainbowdp families NAME --n N --epsilon E [--PARAMETER VALUE ...] [--json]

The families and their options come from the registry :data:`rainbowdp.noise.FAMILIES`: one
option per parameter a family declares (``--form``, ``--sigma``, ``--sensitivity``, ...; see
``rainbowdp families --help``), refused with a family that does not declare it.
"""

from __future__ import annotations

import argparse
from typing import Any

from .._format import format_up
from ..exceptions import ParameterError
from ._common import (
    EXIT_OK,
    MAX_FAMILY_N,
    add_family_options,
    bounded_int,
    emit,
    family_options,
    family_parameters,
    family_summary,
    family_values,
    finite_float,
)

__all__ = ["add_parser", "run"]

#: Options the command sets itself rather than from a family's declarations.
_OWN = ("epsilon",)


def _options() -> dict[str, Any]:
    from ..noise import FAMILIES

    return family_options(FAMILIES, skip=_OWN)


def add_parser(sub: Any) -> None:
    """Add ``families`` to the subparsers of the ``rainbowdp`` command."""
    from ..noise import FAMILIES

    fa = sub.add_parser(
        "families",
        help="list the noise families, or build one and compare its nominal guarantee with the "
        "exact one",
    )
    fa.add_argument(
        "name",
        nargs="?",
        default=None,
        help=f"a family (omit to list them): {', '.join(sorted(FAMILIES))}",
    )
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
        help="the family's epsilon (a family without one, e.g. discrete_gaussian: the epsilon "
        "at which delta is compared)",
    )
    add_family_options(fa, _options())
    fa.add_argument("--json", action="store_true", help="machine-readable output (strict JSON)")
    fa.set_defaults(run=run)


def _listing(args: argparse.Namespace, options: dict[str, Any]) -> int:
    """``rainbowdp families``: one line per registered family."""
    from ..noise import FAMILIES

    given = [("--n", args.n), ("--epsilon", args.epsilon)]
    given += [(used[0][1].flag, getattr(args, name)) for name, used in options.items()]
    for flag, value in given:
        if value is not None:
            raise ParameterError(
                f"`{flag}` needs a family NAME (see `rainbowdp families`), got {flag} {value}."
            )
    listing = [{"name": k, "summary": v.summary} for k, v in sorted(FAMILIES.items())]
    width = max(len(item["name"]) for item in listing)
    emit(
        {"families": listing},
        args.json,
        "\n".join(f"{item['name']:<{width}}  {item['summary']}" for item in listing),
    )
    return EXIT_OK


def _build(args: argparse.Namespace, options: dict[str, Any]) -> Any:
    """The family NAME at the parameters given (``--epsilon`` and the family's options)."""
    from ..noise import get_family

    cls = get_family(args.name)
    for flag, value in (("--n", args.n), ("--epsilon", args.epsilon)):
        if value is None:
            raise ParameterError(f"`{flag}` is required with a family NAME, got no {flag}.")
    values = family_values(f"to the {args.name} family", cls, args, options)
    kw: dict[str, Any] = {}
    missing = []
    for p in family_parameters(cls):
        if p.name == "epsilon":
            kw["epsilon"] = args.epsilon
        elif p.name in values:
            kw[p.name] = values[p.name]
        elif p.required:
            missing.append(p.flag if p.type is not None else p.name)
    if missing:
        raise ParameterError(
            f"`{', '.join(missing)}` {'is' if len(missing) == 1 else 'are'} required for the "
            f"{args.name} family (`rainbowdp design --family {args.name}` also builds it), got "
            f"no {missing[0]}."
        )
    return cls(**kw)


def run(args: argparse.Namespace) -> int:
    """Run ``rainbowdp families``; return the exit code."""
    from ..privacy import epsilon_for_delta, privacy_profile

    options = _options()
    if args.name is None:
        return _listing(args, options)
    family = _build(args, options)
    G = family.graph(args.n)
    if hasattr(family, "for_graph"):  # an additive family: its sensitivity is the graph's
        family = family.for_graph(G)
    M = family.mechanism(G)
    claim = family.nominal()
    if claim.pure:
        measure, nominal, exact = "epsilon", claim.epsilon, float(epsilon_for_delta(M, 0.0))
        shown = "epsilon"
    else:
        measure = "delta"
        nominal = claim.dp_delta(args.epsilon)
        exact = float(privacy_profile(M, [args.epsilon])[0])
        shown = f"delta(epsilon={args.epsilon:g})"
    holds = family.holds_on(G)
    out = {
        "family": args.name,
        **family_summary(family, args.n, G),
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
