r"""Sadeghi & Chien, *On the connection between the ABS perturbation methodology and
differential privacy*: Figs. 1-5 and the comparison with the optimal table, as data plus a
Figure, and the worked Examples 2 and 3 (:func:`abs_example2`, :func:`abs_example3`, tables).

Each figure function returns a :class:`~rainbowdp.reproduce.kadam.CurveFigure` computed by
:mod:`rainbowdp.noise.tablebuilder` and :mod:`rainbowdp.cellkey`:

- :func:`abs_figure1` -- δ_{γ,D}(ε) of (2.19) for D = 11, 15 and V = 4, 10, with the plateau;
- :func:`abs_figure2` -- the design of §2.3: δ of (2.27) at γ -> ε/(2D - 1) against the best δ
  over the paper's γ grid, and the variance (2.26);
- :func:`abs_figure3` -- the PMF of Example 1 (ε = 0.5, δ = 1e-4: D* = 25, V = 49.00);
- :func:`abs_figure4` / :func:`abs_figure5` -- ε^Q and δ^Q after quantised lookup sampling
  against the design's ε and δ for KEYSIZE 2^8, 2^16, 2^32 (§4.3), with the exact δ of the
  quantised PMF beside the paper's heuristic pair;
- :func:`abs_optimal_comparison` -- beyond the paper: the table minimising the exact δ under the
  same constraints (zero bias, variance cap, support [-D, D]) against the max-entropy table.

Every δ drawn from a closed form is checked in the test-suite against the verifier's exact δ of
the same mechanism.
"""

from __future__ import annotations

import decimal
import itertools
import math
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypedDict

import numpy as np

from ._curves import CurveFigure, Panel, check_grid
from ._declare import TableResult, TargetSpec
from ._sadeghi_draw import panel_figure

__all__ = [
    "ABS_EXAMPLE1",
    "ABS_FIG1",
    "ABS_KEYSIZE_EXPERIMENT",
    "PAPER",
    "TARGETS",
    "abs_example2",
    "abs_example3",
    "abs_figure1",
    "abs_figure2",
    "abs_figure3",
    "abs_figure4",
    "abs_figure5",
    "abs_optimal_comparison",
]


class _Fig1(TypedDict):
    Ds: tuple[int, ...]
    variances: tuple[float, ...]
    gammas: tuple[float, ...]


class _Example1(TypedDict):
    epsilon: float
    delta: float
    D: int
    achieved_delta: float
    variance: float
    pmf: dict[int, float]


class _Keysize(TypedDict):
    D: int
    epsilons: tuple[float, ...]
    keysizes: tuple[int, ...]
    support_lost_after: dict[int, float]


# ------------------------------------------------------------------------------ printed numbers
#: Sadeghi & Chien, Fig. 1 caption: D = 11 and 15; V = 4 and 10, "γ = 0.125 and γ ≈ 0.0498".
ABS_FIG1: _Fig1 = {"Ds": (11, 15), "variances": (4.0, 10.0), "gammas": (0.125, 0.0498)}
#: Sadeghi & Chien, Example 1 (§2.4): the target, D*, δ and V printed, and the PMF values (2.30)
#: (the value printed at ±12 is the value at ±11: errata).
ABS_EXAMPLE1: _Example1 = {
    "epsilon": 0.5,
    "delta": 1e-4,
    "D": 25,
    "achieved_delta": 9.91e-5,
    "variance": 49.00,
    "pmf": {
        0: 0.056895481243871,
        1: 0.056320120792644,
        2: 0.054628714970934,
        11: 0.016632589297126,
        24: 0.000163117271714,
        25: 0.000099129808160,
    },
}
#: Sadeghi & Chien, §4.3: D = 10, ε = 0.1..2.5 by 0.1, γ = ε/(2D-1) - 2ε/(10(4D^2-1)), the key
#: sizes, and the ε after which full support is lost ("after ε = 0.6" at 2^8, "after ε = 1.7" at
#: 2^16).
ABS_KEYSIZE_EXPERIMENT: _Keysize = {
    "D": 10,
    "epsilons": tuple(round(0.1 * k, 1) for k in range(1, 26)),
    "keysizes": (2**8, 2**16, 2**32),
    "support_lost_after": {2**8: 0.6, 2**16: 1.7},
}

_DEFAULT_FIG1_EPSILONS = tuple(float(e) for e in np.round(np.arange(0.02, 3.001, 0.02), 3))
_DEFAULT_FIG2_EPSILONS = tuple(float(e) for e in np.round(np.arange(0.05, 3.001, 0.05), 3))
_DEFAULT_OPT_EPSILONS = tuple(float(e) for e in np.round(np.arange(0.1, 2.001, 0.1), 2))


def _pair_delta(p: np.ndarray, eps: float) -> float:
    """The verifier's exact δ of additive noise p on neighbouring counts (both orders)."""
    from ..privacy import hockey_stick

    a, b = np.append(p, 0.0), np.insert(p, 0, 0.0)
    return max(hockey_stick(a, b, eps), hockey_stick(b, a, eps))


# ------------------------------------------------------------------------------------ Fig. 1
def abs_figure1(*, epsilons: Any = _DEFAULT_FIG1_EPSILONS) -> CurveFigure:
    r"""Sadeghi & Chien, Fig. 1: δ_{γ,D}(ε) of (2.19) for D = 11 (a) and 15 (b), V = 4 and 10.

    γ is found from V and D by the root of (2.7) (:func:`~rainbowdp.noise.tablebuilder.
    gamma_for_variance`); the caption's γ = 0.125 and 0.0498 are those roots to the printed
    digits. The curve is flat -- the plateau :math:`C e^{-\gamma D^2}` -- from
    :math:`\epsilon = (2D - 1)\gamma` on.

    Returns
    -------
    CurveFigure
        One log-scale panel per D; ``findings`` holds γ per (D, V), the plateau value and the ε
        where it starts.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> f = abs_figure1()
    >>> f.findings["gamma"]["D=11, V=4"].__round__(3)
    0.125
    """
    from ..noise import tablebuilder as tb

    eps = check_grid(epsilons, "epsilons", low=0.0, high=50.0, low_open=True)
    panels, gammas, plateau, start = [], {}, {}, {}
    for D in ABS_FIG1["Ds"]:
        series = {}
        for V in ABS_FIG1["variances"]:
            g = tb.gamma_for_variance(V, D)
            key = f"D={D}, V={V:g}"
            gammas[key] = g
            series[f"V = {V:g} (gamma = {g:.4f})"] = tb.dp_delta(eps, g, D)
            plateau[key] = float(tb.pmf(g, D)[0])
            start[key] = (2 * D - 1) * g
        panels.append(Panel(f"D = {D}", "epsilon", "delta_{gamma,D}(epsilon)", eps, series))
    findings = {"gamma": gammas, "plateau_delta": plateau, "plateau_from_epsilon": start}
    return panel_figure(
        "Sadeghi & Chien, Fig. 1",
        {"Ds": ABS_FIG1["Ds"], "variances": ABS_FIG1["variances"]},
        panels,
        findings,
        suptitle="exact delta of the max-entropy noise (2.19)",
        log=(True, True),
        restyle=True,
    )


# ------------------------------------------------------------------------------------ Fig. 2
def abs_figure2(*, epsilons: Any = _DEFAULT_FIG2_EPSILONS) -> CurveFigure:
    r"""Sadeghi & Chien, Fig. 2: (a) δ of (2.27) at :math:`\gamma = \epsilon/(2D - 1)` -- the
    paper's limit from below, attained (errata: the extra term of (2.19) is an exact tie there)
    -- against the smallest δ of (2.19) over the paper's grid γ = 0.0001..0.3; (b) the variance
    (2.26) at that γ. D = 11 and 15.

    Returns
    -------
    CurveFigure
        ``findings["largest_gap"]`` is the largest ratio of the design's δ to the grid's best
        (the paper: "the gaps vary from being small to zero").

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> f = abs_figure2(epsilons=[0.5, 1.0])
    >>> all(r >= 1 - 1e-9 for r in f.findings["largest_gap"].values())
    True
    """
    from ..noise import tablebuilder as tb

    eps = check_grid(epsilons, "epsilons", low=0.0, high=50.0, low_open=True)
    deltas, variances, gap = {}, {}, {}
    for D in ABS_FIG1["Ds"]:
        design = np.array([float(tb.dp_delta(e, e / (2 * D - 1), D)) for e in eps])
        best = np.array([tb.min_delta(e, D)[0] for e in eps])
        deltas[f"D = {D}: (2.27), gamma -> eps/(2D-1)"] = design
        deltas[f"D = {D}: best over the gamma grid"] = best
        variances[f"D = {D}"] = np.array([tb.variance(e / (2 * D - 1), D) for e in eps])
        gap[f"D={D}"] = float(np.max(design / best))
    panels = [
        Panel("(a) delta versus epsilon", "epsilon", "delta", eps, deltas),
        Panel("(b) variance versus epsilon", "epsilon", "V", eps, variances),
    ]
    return panel_figure(
        "Sadeghi & Chien, Fig. 2",
        {"Ds": ABS_FIG1["Ds"], "gamma_grid": "0.0001..0.3 by 0.0001"},
        panels,
        {"largest_gap": gap},
        suptitle="the design of Section 2.3 against the best gamma",
        log=(True, False),
        restyle=True,
    )


# ------------------------------------------------------------------------------------ Fig. 3
def abs_figure3() -> CurveFigure:
    r"""Sadeghi & Chien, Fig. 3 / Example 1: the design guide at ε = 0.5, δ = 1e-4.

    Returns
    -------
    CurveFigure
        A bar panel of the PMF on [-25, 25] (linear and log); ``findings`` holds D*, γ*, V,
        the δ of (2.27) and the exact δ of the verifier.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> f = abs_figure3()
    >>> f.findings["D"], round(f.findings["variance"], 2)
    (25, 49.0)
    """
    from ..noise import tablebuilder as tb

    d = tb.design(ABS_EXAMPLE1["epsilon"], ABS_EXAMPLE1["delta"])
    z = np.arange(-d.D, d.D + 1)
    series = {f"Example 1 PMF (D = {d.D}, V = {d.variance:.2f})": d.pmf}
    findings = {
        "D": d.D,
        "gamma": d.gamma,
        "variance": d.variance,
        "delta": d.delta,
        "verifier_delta": _pair_delta(d.pmf, ABS_EXAMPLE1["epsilon"]),
    }
    panels = [
        Panel("noise PMF", "z", "$p_Z(z)$", z, series, "bars"),
        Panel("the same, log scale", "z", "$p_Z(z)$", z, series, "bars"),
    ]
    return panel_figure(
        "Sadeghi & Chien, Fig. 3",
        {"epsilon": ABS_EXAMPLE1["epsilon"], "delta": ABS_EXAMPLE1["delta"]},
        panels,
        findings,
        suptitle="Example 1: eps = 0.5, delta = 1e-4",
        log=(False, True),
        restyle=True,
    )


# ------------------------------------------------------------------------------- Figs. 4 and 5
def _keysize_sweep(epsilons: np.ndarray, D: int) -> dict:
    """ε^Q, δ^Q, the exact δ of p^Q at the design ε, B^Q, V^Q and full support, per KEYSIZE."""
    from ..cellkey import post_sampling, quantised_cdf
    from ..noise import tablebuilder as tb

    out: dict = {"design_delta": [], "by_keysize": {}}
    pmfs = []
    for e in epsilons:
        g = tb.guide_gamma(float(e), D)
        pmfs.append(tb.pmf(g, D))
        out["design_delta"].append(float(tb.dp_delta(float(e), g, D)))
    for K in ABS_KEYSIZE_EXPERIMENT["keysizes"]:
        rows: dict = {k: [] for k in ("eps_q", "delta_q", "exact", "bias", "var_err", "full")}
        for e, p in zip(epsilons, pmfs, strict=True):
            ps = post_sampling(quantised_cdf(p, K), K)
            V = float(np.arange(-D, D + 1) ** 2 @ p)
            rows["eps_q"].append(ps.epsilon if ps.full_support else math.nan)
            rows["delta_q"].append(ps.delta)
            rows["exact"].append(ps.exact_delta(float(e)))
            rows["bias"].append(ps.bias)
            rows["var_err"].append((ps.variance - V) / V)
            rows["full"].append(bool(ps.full_support))
        out["by_keysize"][K] = {k: np.array(v) for k, v in rows.items()}
    out["design_delta"] = np.array(out["design_delta"])
    return out


def _keysize_run(epsilons: Any) -> tuple[np.ndarray, int, dict]:
    """The checked ε grid (default §4.3's), D = 10 and the sweep over the key sizes."""
    eps = check_grid(
        ABS_KEYSIZE_EXPERIMENT["epsilons"] if epsilons is None else epsilons,
        "epsilons",
        low=0.0,
        high=20.0,
        low_open=True,
    )
    D = ABS_KEYSIZE_EXPERIMENT["D"]
    return eps, D, _keysize_sweep(eps, D)


def _keysize_findings(sweep: dict, eps: np.ndarray) -> dict:
    f: dict = {}
    for K, r in sweep["by_keysize"].items():
        full = r["full"]
        lost = eps[~full]
        f[f"KEYSIZE=2^{int(math.log2(K))}"] = {
            "largest_abs_bias": float(np.max(np.abs(r["bias"]))),
            "largest_abs_variance_error": float(np.max(np.abs(r["var_err"]))),
            "support_lost_from_epsilon": float(lost.min()) if lost.size else math.nan,
            "eps_q_above_eps": int(np.sum(r["eps_q"][full] > eps[full])),
            "largest_exact_delta_ratio": float(np.max(r["exact"] / sweep["design_delta"])),
        }
    return f


def abs_figure4(*, epsilons: Any = None) -> CurveFigure:
    r"""Sadeghi & Chien, Fig. 4: ε^Q (4.8)–(4.10) against the design ε for KEYSIZE 2^8, 2^16
    and 2^32 (§4.3: D = 10, γ of the design guide); ε^Q is drawn where the support is full
    (infinite otherwise).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> f = abs_figure4()
    >>> f.findings["KEYSIZE=2^8"]["support_lost_from_epsilon"]
    0.7
    """
    eps, D, sweep = _keysize_run(epsilons)
    series = {"design epsilon": eps.copy()}
    for K, r in sweep["by_keysize"].items():
        series[f"KEYSIZE = 2^{int(math.log2(K))}: eps^Q"] = r["eps_q"]
    panels = [Panel("eps^Q versus eps (D = 10)", "design epsilon", "eps^Q", eps, series)]
    return panel_figure(
        "Sadeghi & Chien, Fig. 4",
        {"D": D, "keysizes": ABS_KEYSIZE_EXPERIMENT["keysizes"]},
        panels,
        _keysize_findings(sweep, eps),
        suptitle="epsilon after quantised lookup sampling",
        log=(False,),
        restyle=True,
    )


def abs_figure5(*, epsilons: Any = None) -> CurveFigure:
    r"""Sadeghi & Chien, Fig. 5: δ^Q (4.11) against the design δ (2.27) for KEYSIZE 2^8, 2^16
    and 2^32 (§4.3), with the exact δ of the quantised PMF at the design ε (the verifier's,
    beyond the paper).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> f = abs_figure5()
    >>> f.findings["KEYSIZE=2^32"]["largest_exact_delta_ratio"] < 1.001
    True
    """
    eps, D, sweep = _keysize_run(epsilons)
    x = sweep["design_delta"]
    series = {"design delta": x.copy()}
    for K, r in sweep["by_keysize"].items():
        k = int(math.log2(K))
        series[f"KEYSIZE = 2^{k}: delta^Q"] = r["delta_q"]
        series[f"KEYSIZE = 2^{k}: exact delta of p^Q at eps"] = r["exact"]
    order = np.argsort(x)
    panels = [
        Panel(
            "delta^Q versus delta (D = 10)",
            "design delta",
            "delta^Q",
            x[order],
            {k: np.asarray(v)[order] for k, v in series.items()},
        )
    ]
    return panel_figure(
        "Sadeghi & Chien, Fig. 5",
        {"D": D, "keysizes": ABS_KEYSIZE_EXPERIMENT["keysizes"]},
        panels,
        _keysize_findings(sweep, eps),
        suptitle="delta after quantised lookup sampling",
        log=(True,),
        restyle=True,
    )


# ------------------------------------------------------------------------ beyond: optimal table
def abs_optimal_comparison(
    *, D: int = 25, variance: float = 49.0, epsilons: Any = _DEFAULT_OPT_EPSILONS
) -> CurveFigure:
    r"""The table with the smallest exact δ under the agency's constraints against the
    max-entropy table with the same D and variance cap (beyond the paper).

    For each ε: the max-entropy noise with :math:`E[Z^2] = V` (δ_{γ,D}(ε) of (2.19)), and the
    zero-bias noise on [-D, D] with :math:`E[Z^2] \le V` minimising the exact δ
    (:func:`rainbowdp.cellkey.optimal_noise`: the closed form or the general LP designer,
    whichever has the smaller exact δ); the variance the
    optimum uses, and the max-entropy δ at that smaller variance. Default: Example 1's D = 25,
    V = 49.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> f = abs_optimal_comparison(D=5, variance=4.0, epsilons=[0.5, 1.0])
    >>> bool(np.all(f.series("optimal law: exact delta") <= f.series("max-entropy: delta")))
    True
    """
    from ..cellkey import optimal_noise
    from ..noise import tablebuilder as tb

    eps = check_grid(epsilons, "epsilons", low=0.0, high=20.0, low_open=True)
    g = tb.gamma_for_variance(variance, D)
    maxent = np.array([float(tb.dp_delta(float(e), g, D)) for e in eps])
    opt, used, maxent_used = [], [], []
    for e in eps:
        r = optimal_noise(float(e), D=D, variance=variance)
        opt.append(r.delta)
        used.append(r.variance)
        v = min(max(r.variance, 1e-9), D * (D + 1) / 3 * (1 - 1e-9))
        maxent_used.append(float(tb.dp_delta(float(e), tb.gamma_for_variance(v, D), D)))
    deltas = {
        "max-entropy: delta": maxent,
        "optimal law: exact delta": np.array(opt),
        "max-entropy at the optimal law's variance: delta": np.array(maxent_used),
    }
    variances = {
        "max-entropy": np.full(eps.shape, float(variance)),
        "optimal law": np.array(used),
    }
    panels = [
        Panel(f"exact delta (D = {D}, variance cap {variance:g})", "epsilon", "delta", eps, deltas),
        Panel("variance used", "epsilon", "variance", eps, variances),
    ]
    findings = {
        "largest_ratio_maxent_to_optimal": float(np.max(maxent / np.array(opt))),
        "smallest_ratio_maxent_to_optimal": float(np.min(maxent / np.array(opt))),
    }
    return panel_figure(
        "Optimal table vs max-entropy table",
        {"D": D, "variance_cap": variance},
        panels,
        findings,
        suptitle="smallest exact delta under zero bias, a variance cap and support [-D, D]",
        log=(True, False),
        restyle=True,
        markers_every=1,  # a marker at every computed point: nothing is drawn between them
    )


# ------------------------------------------------------------------------------ Examples 2, 3
def _example1_pmf() -> tuple[Any, np.ndarray]:
    from ..noise import tablebuilder as tb

    d = tb.design(ABS_EXAMPLE1["epsilon"], ABS_EXAMPLE1["delta"])
    return d, d.pmf


def abs_example2() -> TableResult:
    r"""Sadeghi & Chien, Example 2: the quantised CDF (4.2) of Example 1's PMF at KEYSIZE 2^32
    and 2^8, and two lookups (4.3) (:mod:`rainbowdp.cellkey`).

    Examples
    --------
    >>> abs_example2().values["cq_2^32"][:3].tolist()
    [425760, 1126343, 2255949]
    """
    from ..cellkey import lookup, post_sampling, quantised_cdf

    d, p = _example1_pmf()
    cq = quantised_cdf(p, 2**32)
    cq8 = quantised_cdf(p, 2**8)
    ps8 = post_sampling(cq8, 2**8)
    return TableResult(
        "Sadeghi & Chien, Example 2",
        {
            "D": d.D,
            "cdf": np.cumsum(p),
            "cq_2^32": cq,
            "lookup": {k: int(lookup(cq, k, low=-d.D)) for k in (2552, 1200124)},
            "cq_2^8": cq8,
            "full_support_2^8": bool(ps8.full_support),
            "lost_2^8": list(ps8.lost),
        },
    )


def abs_example3() -> TableResult:
    r"""Sadeghi & Chien, Example 3: the quantised PMF (4.5) at KEYSIZE 2^32 and its
    post-sampling measures (4.6)-(4.11) (:func:`rainbowdp.cellkey.post_sampling`).

    ``epsilon_q`` is the library's :math:`\epsilon^Q`, rounded up (relative 1e-12) so that it
    is never below the true value; ``epsilon_q_exact`` is the exact value, the logarithm of the
    largest ratio of adjacent key counts of the quantised CDF taken to 40 digits, rounded to
    the nearest float (the number to compare with the paper's 15 printed digits).

    Examples
    --------
    >>> int(abs_example3().values["cq"][-2])
    4294541537
    """
    from ..cellkey import post_sampling, quantised_cdf, quantised_pmf

    d, p = _example1_pmf()
    cq = quantised_cdf(p, 2**32)
    ps = post_sampling(cq, 2**32, epsilon=d.epsilon)
    counts = np.diff(np.concatenate([[0], np.asarray(cq, dtype=np.int64)])).tolist()
    ratio = max(
        Fraction(max(a, b), min(a, b)) for a, b in itertools.pairwise(int(c) for c in counts)
    )
    with decimal.localcontext() as ctx:
        ctx.prec = 40
        exact = (Decimal(ratio.numerator) / Decimal(ratio.denominator)).ln()
    return TableResult(
        "Sadeghi & Chien, Example 3",
        {
            "design_epsilon": d.epsilon,
            "design_delta": d.delta,
            "cq": cq,
            "pq": quantised_pmf(cq, 2**32),
            "bias": ps.bias,
            "variance": ps.variance,
            "epsilon_q": ps.epsilon,
            "epsilon_q_exact": float(exact),
            "epsilon_q_ratio": f"{ratio.numerator}/{ratio.denominator}",
            "delta_q": ps.delta,
            "full_support": bool(ps.full_support),
        },
    )


#: The key of this paper in :data:`~rainbowdp.reproduce._printed.PAPERS`.
PAPER = "abs"

#: The reproducible targets of Sadeghi & Chien, in the order of the index (printed values and
#: checks: :mod:`rainbowdp.reproduce._printed_abs`).
TARGETS: tuple[TargetSpec, ...] = (
    TargetSpec("abs-fig1", "Sadeghi & Chien, Fig. 1", abs_figure1),
    TargetSpec("abs-fig2", "Sadeghi & Chien, Fig. 2", abs_figure2),
    TargetSpec(
        "abs-fig3",
        "Sadeghi & Chien, Fig. 3 / Example 1",
        abs_figure3,
        note="drawn at z = −25..25 (the paper's figure); the printed masses are read at "
        "z = 0, ±1, ±2, ±12, ±24, ±25",
    ),
    TargetSpec("abs-example2", "Sadeghi & Chien, Example 2", abs_example2, figure=False),
    TargetSpec("abs-example3", "Sadeghi & Chien, Example 3", abs_example3, figure=False),
    TargetSpec("abs-fig4", "Sadeghi & Chien, Fig. 4 (KEYSIZE)", abs_figure4),
    TargetSpec("abs-fig5", "Sadeghi & Chien, Fig. 5 (KEYSIZE)", abs_figure5),
    TargetSpec("abs-optimal", "optimal table vs max-entropy table", abs_optimal_comparison),
)
