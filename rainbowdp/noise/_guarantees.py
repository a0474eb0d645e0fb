r"""Nominal against exact guarantees of finite mechanisms: the table of ``docs/families.md``.

:func:`guarantee_rows` builds each family's mechanism on its graph and sets the guarantee the
literature states (:meth:`~rainbowdp.noise.Family.nominal`) next to the one the verifier proves
for the finite mechanism; :func:`format_guarantee_table` writes the rows as Markdown. The
default cases are those of :func:`rainbowdp.noise.guarantee_table`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from typing import Literal

from ..graph import RainbowGraph
from ._family import Family

__all__ = ["TABLE_GAUSSIAN_EPSILON", "GuaranteeRow", "format_guarantee_table", "guarantee_rows"]


@dataclass(frozen=True)
class GuaranteeRow:
    """One line of :func:`guarantee_table`.

    Attributes
    ----------
    family, form, graph, parameters : str
        What was built (``form`` is "-" for families without forms).
    measure : {"epsilon", "delta"}
        Whether the row compares ε (pure claims, at δ = 0) or δ at :attr:`at_epsilon`.
    at_epsilon : float
        The ε of a δ row (``nan`` for an ε row).
    nominal, exact : float
        The nominal ε (or δ(ε)) and the library's exact one for the finite mechanism (proved
        ε from :func:`~rainbowdp.epsilon_for_delta`, or δ from
        :func:`~rainbowdp.privacy_profile`; both upper bounds on the exact value).
    holds_on : bool or None
        :meth:`Family.holds_on` for this graph.
    """

    family: str
    form: str
    graph: str
    parameters: str
    measure: Literal["epsilon", "delta"]
    at_epsilon: float
    nominal: float
    exact: float
    holds_on: bool | None


# its public home: where the documentation describes it and pickle finds it
GuaranteeRow.__module__ = "rainbowdp.noise.baselines"


def _parameters(family: Family) -> str:
    parts = []
    for f in fields(family):
        if f.name in ("form", "loss"):
            continue
        value = getattr(family, f.name)
        parts.append(f"{f.name}={value:.6g}" if isinstance(value, float) else f"{f.name}={value}")
    return ", ".join(parts)


#: The ε at which the discrete Gaussian rows of :func:`guarantee_table` compare δ.
TABLE_GAUSSIAN_EPSILON = 1.0


def guarantee_rows(
    cases: Iterable[tuple[Family, str, Callable[[], RainbowGraph]]],
) -> list[GuaranteeRow]:
    """The rows of :func:`rainbowdp.noise.guarantee_table` for ``cases``: nominal against
    exact guarantees, computed by the library.

    Parameters
    ----------
    cases : iterable of (family, graph label, graph factory)

    Returns
    -------
    list of GuaranteeRow
        Pure claims compare ε at δ = 0 (:func:`~rainbowdp.epsilon_for_delta`); profile claims
        compare δ at ε = 1 (:func:`~rainbowdp.privacy_profile`).

    Examples
    --------
    >>> from rainbowdp.builders import count_path
    >>> from rainbowdp.noise import Geometric
    >>> rows = guarantee_rows([(Geometric(1.0, form="truncated"), "count_path(4)",
    ...                         lambda: count_path(4))])
    >>> rows[0].holds_on, rows[0].nominal, round(rows[0].exact, 4)
    (False, 1.0, 1.2009)
    """
    from ..privacy import epsilon_for_delta, privacy_profile

    out = []
    for family, label, factory in cases:
        G = factory()
        resolve = getattr(family, "for_graph", None)
        if resolve is not None:  # the sensitivity the mechanism is built at, shown in the row
            family = resolve(G)
        M = family.mechanism(G)
        claim = family.nominal()
        form = getattr(family, "form", "-")
        measure: Literal["epsilon", "delta"]
        if claim.pure:
            measure, at = "epsilon", math.nan
            nominal, exact = claim.epsilon, float(epsilon_for_delta(M, 0.0))
        else:
            measure, at = "delta", TABLE_GAUSSIAN_EPSILON
            nominal, exact = claim.dp_delta(at), float(privacy_profile(M, [at])[0])
        out.append(
            GuaranteeRow(
                family.name,
                form,
                label,
                _parameters(family),
                measure,
                at,
                nominal,
                exact,
                family.holds_on(G),
            )
        )
    return out


def _num(x: float) -> str:
    if math.isinf(x):
        return "∞"
    return f"{x:.6g}"


def format_guarantee_table(rows: list[GuaranteeRow]) -> str:
    """The rows of :func:`guarantee_table` as a Markdown table (6 significant digits).

    Examples
    --------
    >>> from rainbowdp.builders import count_path
    >>> from rainbowdp.noise import Geometric, guarantee_table
    >>> rows = guarantee_table([(Geometric(1.0), "count_path(4)", lambda: count_path(4))])
    >>> print(format_guarantee_table(rows))
    | family | form | graph | parameters | measure | nominal | exact | exact / nominal | holds_on |
    | --- | --- | --- | --- | --- | --- | --- | --- | --- |
    | geometric | clamped | count_path(4) | epsilon=1, sensitivity=1 | ε | 1 | 1 | 1 | True |
    """
    head = (
        "| family | form | graph | parameters | measure | nominal | exact | exact / nominal "
        "| holds_on |"
    )
    lines = [head, "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        measure = "ε" if r.measure == "epsilon" else f"δ(ε={r.at_epsilon:g})"
        ratio = r.exact / r.nominal if r.nominal > 0 else math.inf
        lines.append(
            f"| {r.family} | {r.form} | {r.graph} | {r.parameters} | {measure} | "
            f"{_num(r.nominal)} | {_num(r.exact)} | {_num(ratio)} | {r.holds_on} |"
        )
    return "\n".join(lines)
