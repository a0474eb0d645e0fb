r"""What Sadeghi et al. print (Example 1, Figs. 1-4), keyed by target name,
and how each recomputed value is read off the target's result.

:data:`PRINTED` maps a target of :mod:`rainbowdp.reproduce.sadeghi` to its printed values (key ->
:class:`~rainbowdp.reproduce._printed_value.Printed`); :data:`EXTRACTORS` maps the same target and
key to the function of the target's result giving the recomputed value (for a ``"claim"``,
``(shown, holds)``, and ``(shown, holds, corrected_holds)`` for a statement erratum);
:data:`NO_NUMBERS` gives, for a target whose paper prints no number, why. Every target of the
paper module is in exactly one of :data:`PRINTED` and :data:`NO_NUMBERS`. The tables are long on
purpose (one entry per printed number); nothing in them is computed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._extract import claim as _claim
from ._extract import claim_fixed as _fixed
from ._extract import nearest as _g
from ._extract import rounds_to as _rounds_to
from ._extract import up as _up
from ._printed_value import Printed

__all__ = ["EXTRACTORS", "NO_NUMBERS", "PRINTED"]

# ------------------------------------------------------------------------------ Sadeghi et al.
_S3B = "Sadeghi et al., Section III-B (Fig. 1)"
_S4 = "Sadeghi et al., Section IV"

#: Target name -> key -> :class:`Printed`, in the order of the index.
PRINTED: dict[str, dict[str, Printed]] = {
    "count-fig1": {
        "E": Printed("E = e^ε, ε = 2.18", "8.8463", _S3B, rounding="up"),
        "C": Printed("C = 2η/(1 − η), η = 0.8", "8", _S3B),
        "C_2": Printed("C_2 (34)", "8.1229", _S3B),
        "C_3": Printed("C_3 (34)", "7.8867", _S3B),
        "delta_tilde": Printed("δ̃ = δ_3 (Theorem 2)", "0.0049", _S3B, rounding="up"),
        "support": Printed("support of α*: [−k : k]", "3", _S3B, "exact"),
        "pZ1": Printed("p_Z(±1) = η̄α_1*/2", "0.08987", _S3B),
        "pZ2": Printed("p_Z(±2) = η̄α_2*/2", "0.00960", _S3B),
        "ratio": Printed("α_1*/α_2*", "9.3617", _S3B),
        "pG1": Printed("discrete Gaussian p_G,Z(±1)", "0.11685", _S3B),
        "pG2": Printed("discrete Gaussian p_G,Z(±2)", "0.000416", _S3B),
        "pG_ratio": Printed(
            "discrete Gaussian p_G,Z(±1)/p_G,Z(±2)",
            "282",
            f"{_S3B}: 'can be as large as about 282'",
            erratum=20,
            corrected="281",
            correction="value",
            note="the ratio of the masses is 281.1 (erratum 20); the printed, rounded masses "
            "give 280.9",
        ),
        "pG_epsilon": Printed(
            "discrete Gaussian: smallest ε with p_Y(n−1|n) ≤ e^ε p_Y(n−1|n+1) + δ̃",
            "5.6",
            _S3B,
            rounding="up",
        ),
        "our_epsilon": Printed(
            "the same for the law (14): smallest ε meeting every singleton constraint with δ̃",
            "2.18",
            f"{_S3B}: 'for our mechanism ε = 2.18 is sufficient'",
            rounding="up",
        ),
        "same_variance": Printed(
            "variance of the discrete Gaussian with σ² = η̄Σα_i* i²",
            "identical variance (σ² = η̄Σα_i* i²)",
            f"{_S3B} and Fig. 1 caption",
            "claim",
            erratum=20,
            corrected="the discrete Gaussian with parameter σ² = 0.2660 has variance 0.2370",
            correction="statement",
            note="σ² is the discrete Gaussian's parameter, not its variance",
        ),
    },
    "count-fig2": {
        "claim": Printed(
            "(2D+1)δ* for D = 8, η = 0.5, from ε = 1.1 on",
            "no greater than 0.001 for D = 8 and ε > 1.1",
            f"{_S4} (Fig. 2)",
            "claim",
        ),
        "range": Printed(
            "η + η̄(α_1* + α_2* + α_3*) at ε = 1.5, D = 8 (the D of the sentence)",
            "0.9945",
            f"{_S4} (Fig. 2)",
        ),
    },
    "count-fig3a": {
        "bound": Printed(
            "(2D+1)δ* at ε = 1.1, η = 0.5, D = 8: (1.1, 10⁻³)-DP",
            "1e-3",
            f"{_S4} (Fig. 3)",
            "at_most",
        ),
        "knee": Printed(
            "η of the knee (C = C_D(ε)), ε = 1.1, D = 8",
            "slightly after η = 0.5",
            f"{_S4} (Fig. 3)",
            "claim",
        ),
    },
    "count-fig3b": {
        "bound": Printed(
            "(2D+1)δ* at ε = 2.2, η = 0.8, D = 8: (2.2, 5·10⁻⁷)-DP",
            "5e-7",
            f"{_S4} (Fig. 3)",
            "at_most",
        ),
        "knee": Printed(
            "η of the knee (C = C_D(ε)), ε = 2.2, D = 8",
            "slightly after η = 0.8",
            f"{_S4} (Fig. 3)",
            "claim",
        ),
    },
    "count-fig4": {
        "from": Printed(
            "smallest ε from which (2D+1)δ* < δ_G (45) on the grid (η = 0.5, D = 6)",
            "1.1",
            f"{_S4} (Fig. 4: 'both mechanisms perform rather poorly for ε < 1.1')",
            rounding="up",
        ),
    },
    "count-example1": {
        **{
            f"p11_{z}": Printed(f"p_Z^(−1,1)(z = {z} | n = 1)", t, "Sadeghi et al., Example 1, (4)")
            for z, t in ((-1, "1/4"), (0, "1/2"))
        },
        "p11_1": Printed(
            "p_Z^(−1,1)(z = 1 | n = 1)",
            "0",
            "Sadeghi et al., Example 1, (4) ('0, otherwise')",
            "exact",
            erratum=30,
            corrected="1/4",
            correction="value",
            note="(4) lists z = −1 and z = 0 only, so z = 1 falls under 'otherwise'; (2) and the "
            "n = 1 column of (5) give 1/4, and the printed masses sum to 3/4",
        ),
        **{
            f"p12_{z}": Printed(f"p_Z^(−1,2)(z = {z} | n = 1)", t, "Sadeghi et al., Example 1, (4)")
            for z, t in ((-1, "1/3"), (0, "1/2"), (2, "1/6"))
        },
        **{
            f"p22_{z}": Printed(f"p_Z^(−2,2)(z = {z} | n = 2)", "1/4", "Sadeghi et al., (5)")
            for z in (-2, 2)
        },
        **{
            f"p21_{z}": Printed(f"p_Z^(−2,1)(z = {z} | n = 2)", t, "Sadeghi et al., (5)")
            for z, t in ((-2, "1/6"), (1, "1/3"))
        },
    },
}


# ------------------------------------------------------------------------------- extractors
def _count_fig1_checks() -> dict[str, Callable[[Any], Any]]:
    def f_(*path: str) -> Callable[[Any], Any]:
        def get(f: Any) -> Any:
            v = f.findings
            for p in path:
                v = v[p]
            return v

        return get

    def same_variance(f: Any) -> tuple[str, bool, bool]:
        """Erratum 20: the discrete Gaussian with parameter σ² = 0.2660 (the variance of the
        law (14)) has variance 0.2370."""
        g, ours = f.findings["gaussian_paper"]["variance"], f.findings["ours"]["variance"]
        return _fixed(
            f"discrete Gaussian variance {_g(g)}; law (14) variance {_g(ours)}",
            abs(g - ours) <= 5e-5,
            _rounds_to(g, "0.2370") and _rounds_to(ours, "0.2660"),
        )

    return {
        "E": f_("E"),
        "C": f_("C"),
        "C_2": f_("crossovers", "C_2"),
        "C_3": f_("crossovers", "C_3"),
        "delta_tilde": f_("delta_tilde"),
        "support": f_("support"),
        "pZ1": f_("ours", "p(1)"),
        "pZ2": f_("ours", "p(2)"),
        "ratio": f_("ours", "ratio"),
        "pG1": f_("gaussian_paper", "p(1)"),
        "pG2": f_("gaussian_paper", "p(2)"),
        "pG_ratio": f_("gaussian_paper", "ratio"),
        "pG_epsilon": f_("gaussian_paper", "epsilon_1_2"),
        "our_epsilon": f_("ours", "singleton_epsilon"),
        "same_variance": same_variance,
    }


def _count_fig2_claim(f: Any) -> tuple[str, bool]:
    c = f.findings["claim"]
    holds = bool(c["holds_on_grid_from_1.1"]) and c["bound_at_1.1"] <= c["delta"]
    return _claim(
        f"{_up(c['bound_at_1.1'], 3)} at ε = 1.1; at most {_g(c['delta'])} at every grid ε ≥ 1.1: "
        f"{c['holds_on_grid_from_1.1']}; from ε = {_up(c['threshold_epsilon'], 5)} exactly",
        holds,
    )


def _knee(f: Any) -> tuple[str, bool]:
    c = f.findings["claim"]
    knee = f.findings["knee_eta"][f"D = {c['D']}"]
    return _claim(f"knee at η = {_g(knee, 5)}", c["eta"] < knee <= c["eta"] + 0.01)


def _count_example1_checks() -> dict[str, Callable[[Any], Any]]:
    def at(law: str, z: int) -> Callable[[Any], float]:
        return lambda t: t.values[law][z + 2]

    laws = {
        "p11": "p^(-1,1)(.|1)",
        "p12": "p^(-1,2)(.|1)",
        "p22": "p^(-2,2)(.|2)",
        "p21": "p^(-2,1)(.|2)",
    }
    out: dict[str, Callable[[Any], Any]] = {}
    for key in PRINTED["count-example1"]:  # "p12_-1": the law p^(-1,2) at z = -1
        law, z = key.split("_")
        out[key] = at(laws[law], int(z))
    return out


#: Target name -> key of PRINTED[name] -> function reading the recomputed value off the result.
EXTRACTORS: dict[str, dict[str, Callable[[Any], Any]]] = {
    "count-example1": _count_example1_checks(),
    "count-fig1": _count_fig1_checks(),
    "count-fig2": {
        "claim": _count_fig2_claim,
        "range": lambda f: f.findings["range_probability"]["D = 8"],
    },
    "count-fig3a": {"bound": lambda f: f.findings["claim"]["bound"], "knee": _knee},
    "count-fig3b": {"bound": lambda f: f.findings["claim"]["bound"], "knee": _knee},
    "count-fig4": {"from": lambda f: f.findings["superior"]["bound"]["from"]},
}

#: Target name -> why the paper prints no number for it (shown in the index).
NO_NUMBERS: dict[str, str] = {}
