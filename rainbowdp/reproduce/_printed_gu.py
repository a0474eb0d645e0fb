r"""What Gu et al. print (Figs. 3-5, Example 1), keyed by target name,
and how each recomputed value is read off the target's result.

:data:`PRINTED` maps a target of :mod:`rainbowdp.reproduce.rainbow` to its printed values (key ->
:class:`~rainbowdp.reproduce._printed_value.Printed`); :data:`EXTRACTORS` maps the same target and
key to the function of the target's result giving the recomputed value (for a ``"claim"``,
``(shown, holds)``, and ``(shown, holds, corrected_holds)`` for a statement erratum);
:data:`NO_NUMBERS` gives, for a target whose paper prints no number, why. Every target of the
paper module is in exactly one of :data:`PRINTED` and :data:`NO_NUMBERS`. The tables are long on
purpose (one entry per printed number); nothing in them is computed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ._declare import TableResult
from ._extract import claim as _claim
from ._extract import up as _up
from ._printed_value import Printed
from .rainbow import GU_BOUNDARY

__all__ = ["EXTRACTORS", "NO_NUMBERS", "PRINTED"]


# ------------------------------------------------------------------------------------ Gu et al.
def _gu_tau(fig: int, taus: tuple[int, ...]) -> dict[str, Printed]:
    return {
        f"tau_{k + 1}": Printed(f"τ_{k + 1}", str(t), f"Gu et al., Fig. {fig} caption", "exact")
        for k, t in enumerate(taus)
    }


_GU_M = "Gu et al., Section 5.3 (boundary condition of Figs. 3-5)"

_GU_DRAWN = "rainbowdp.reproduce.GU_BOUNDARY, row t = 0 of Figs. 3-5"
_GU_PRINTED_M = ("0.0005", "0.0081", "0.1364", "0.2727")

#: Target name -> key -> :class:`Printed`, in the order of the index.
PRINTED: dict[str, dict[str, Printed]] = {
    "fig3": {
        **_gu_tau(3, (38, 22, 7, 1, 0)),
        "m_1": Printed("m_1 = 0.001 e^ε/(1 + e^ε)", "0.0005", _GU_M),
        "m_2": Printed(
            "m_2 = 0.015 e^ε/(1 + e^ε)",
            "0.0081",
            _GU_M,
            erratum=3,
            corrected="0.0082",
            correction="value",
            note="0.015 e^ε/(1 + e^ε) = 0.0081818 at ε = log 1.2; rainbowdp draws Figs. 3-5 "
            "with the printed 0.0081",
        ),
        "m_3": Printed("m_3 = 0.25 e^ε/(1 + e^ε)", "0.1364", _GU_M),
        "m_4": Printed("m_4 = 0.5 e^ε/(1 + e^ε)", "0.2727", _GU_M),
        "m_5": Printed(
            "m_5 = 1 minus the other printed entries",
            "0.5822",
            _GU_M,
            erratum=3,
            corrected="0.5823",
            correction="value",
            note="the printed vector sums to 0.9999; rainbowdp uses 0.5823",
        ),
        **{
            f"drawn_{k + 1}": Printed(
                f"m_{k + 1} of the vector Figs. 3-5 are drawn with",
                t,
                _GU_M,
                note=f"read off {_GU_DRAWN}",
            )
            for k, t in enumerate(_GU_PRINTED_M)
        },
    },
    "fig4": _gu_tau(4, (25, 20, 7, 1, 0)),
    "fig5": _gu_tau(5, (13, 12, 6, 1, 0)),
    "gu-example1": {
        "M1_private": Printed(
            "M_1 (M_1(d2) = M_1(d3) = (0.4, 0.2, 0.4)) is ε-DP, e^ε = 2",
            "a valid DP mechanism",
            "Gu et al., Example 1",
            "claim",
            note="the example leaves M(d5) unspecified (erratum 4); (0.3, 0.1, 0.6) is used",
        ),
        "M2_private": Printed(
            "M_2 (M_2(d2) = (0.4, 0.1, 0.5), M_2(d3) = (0.7, 0.05, 0.25)) is ε-DP",
            "a valid DP mechanism",
            "Gu et al., Example 1",
            "claim",
            note="with M(d5) = (0.3, 0.1, 0.6) (erratum 4)",
        ),
        "M3_d2": Printed(
            "M_3(d2): the largest row ε-close to M(d1) = (0.2, 0.1, 0.7), T(M(d1))",
            "(0.4, 0.2, 0.4)",
            "Gu et al., Example 1 (M_3(d2) = M_1(d2))",
        ),
        "M3_d3": Printed(
            "M_3(d3): the largest row ε-close to M(d4) = (0.4, 0.1, 0.5), T(M(d4))",
            "(0.7, 0.05, 0.25)",
            "Gu et al., Example 1 (M_3(d3) = M_2(d3))",
        ),
        "M3_not_private": Printed(
            "M_3 is not ε-DP",
            "M_3(d2)_2 > e^ε M_3(d3)_2 + δ",
            "Gu et al., Example 1",
            "claim",
        ),
        "no_optimum": Printed(
            "no optimal mechanism for this (non-homogeneous) boundary condition",
            "there is no optimal DP mechanism",
            "Gu et al., Example 1",
            "claim",
        ),
    },
}


# ------------------------------------------------------------------------------- extractors
def _tau(k: int) -> Callable[[Any], int]:
    return lambda f: int(f.tau[k])


def _gu_checks(fig: int) -> dict[str, Callable[[Any], Any]]:
    out: dict[str, Callable[[Any], Any]] = {f"tau_{k + 1}": _tau(k) for k in range(5)}
    if fig == 3:

        def m(c: float) -> Callable[[Any], float]:
            return lambda f: c * math.exp(f.epsilon) / (1.0 + math.exp(f.epsilon))

        def drawn(k: int) -> Callable[[Any], float]:
            """Entry k of row t = 0 of the figure: the boundary vector it is drawn with, which
            must be ``GU_BOUNDARY[k]``."""

            def get(f: Any) -> float:
                row = float(f.probabilities[0][k])
                if not math.isclose(row, GU_BOUNDARY[k], rel_tol=1e-12, abs_tol=1e-15):
                    raise ValueError(
                        f"the figure starts from m_{k + 1} = {row!r}, not "
                        f"GU_BOUNDARY[{k}] = {GU_BOUNDARY[k]!r}"
                    )
                return row

            return get

        out |= {"m_1": m(0.001), "m_2": m(0.015), "m_3": m(0.25), "m_4": m(0.5)}
        out["m_5"] = lambda f: 1.0 - math.fsum(f.boundary[:4])
        out |= {f"drawn_{k + 1}": drawn(k) for k in range(4)}
    return out


def _gu_example1_checks() -> dict[str, Callable[[Any], Any]]:
    def private(which: str) -> Callable[[Any], Any]:
        def get(t: TableResult) -> tuple[str, bool]:
            r = t.values[which]
            return _claim(
                f"verify: {'ε-DP' if r['is_private'] else 'not ε-DP'} "
                f"(δ required {_up(r['delta_required'])})",
                r["is_private"],
            )

        return get

    def not_private(t: TableResult) -> tuple[str, bool]:
        r = t.values["M3"]
        a, b = r["worst_edge"]
        return _claim(
            f"verify: not ε-DP; edge d{a + 1} ~ d{b + 1}, output {r['witness']}, "
            f"δ required {_up(r['delta_required'])}",
            not r["is_private"],
        )

    def refused(t: TableResult) -> tuple[str, bool]:
        ok = t.values["optimum_refused"]
        return _claim(
            "optimal_mechanism raises NoOptimalMechanismError" if ok else "an optimum was built",
            ok,
        )

    return {
        "M1_private": private("M1"),
        "M2_private": private("M2"),
        "M3_d2": lambda t: tuple(t.values["T(M(d1))"]),
        "M3_d3": lambda t: tuple(t.values["T(M(d4))"]),
        "M3_not_private": not_private,
        "no_optimum": refused,
    }


#: Target name -> key of PRINTED[name] -> function reading the recomputed value off the result.
EXTRACTORS: dict[str, dict[str, Callable[[Any], Any]]] = {
    "fig3": _gu_checks(3),
    "fig4": _gu_checks(4),
    "fig5": _gu_checks(5),
    "gu-example1": _gu_example1_checks(),
}

#: Target name -> why the paper prints no number for it (shown in the index).
NO_NUMBERS: dict[str, str] = {}
