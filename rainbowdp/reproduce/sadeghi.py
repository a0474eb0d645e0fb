r"""Sadeghi, Asoodeh, Calmon, *Differentially private mechanisms for count queries*: Figs. 1-4
as data plus a Figure, and Example 1 (:func:`count_example1`, a table).

Each figure function returns a :class:`~rainbowdp.reproduce.kadam.CurveFigure` computed by
:mod:`rainbowdp.noise.count`:

- :func:`sadeghi_figure1` -- the optimal noise law (14) against the discrete Gaussian with the
  "same variance" (Section III-B);
- :func:`sadeghi_figure2` -- Remark 2's bound :math:`(2D+1)\delta^*` against ε, η = 0.5;
- :func:`sadeghi_figure3` -- the same bound against η, ε = 1.1 and 2.2;
- :func:`sadeghi_figure4` -- the bound against the discrete Gaussian's :math:`\delta_G` of (45).

The paper plots only the bound :math:`(2D+1)\delta^*`; every figure here adds the exact DP δ of
the same mechanism (the verifier's, :func:`~rainbowdp.noise.count.law_dp_delta`) and that of the
law (14) minimising the exact δ (:func:`~rainbowdp.noise.count.exact_optimum`). δ* is the true
singleton optimum (:func:`~rainbowdp.noise.count.optimum`): the printed Theorem 3 where it holds,
the closed form with the constraint Proposition 4 omits restored where it does not (small η,
recorded in the findings).
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any, TypedDict

import numpy as np

from ..exceptions import ParameterError
from ._curves import CurveFigure, Panel, check_grid, check_panel
from ._declare import TableResult, TargetSpec
from ._sadeghi_draw import (
    BOUND,
    DG,
    DG_MATCHED,
    EXACT,
    EXACT_OPT,
    PRINTED_CURVE,
    panel_figure,
)

# ------------------------------------------------------------------------------ printed numbers
_Fig1 = TypedDict(
    "_Fig1",
    {
        "epsilon": float,
        "eta": float,
        "D": int,
        "E": float,
        "C": float,
        "C_2": float,
        "C_3": float,
        "delta_tilde": float,
        "support": int,
        "p_Z(1)": float,
        "p_Z(2)": float,
        "alpha_ratio": float,
        "p_G(1)": float,
        "p_G(2)": float,
        "gaussian_ratio": float,
        "gaussian_epsilon": float,
    },
)


class _Fig2(TypedDict):
    eta: float
    Ds: tuple[int, ...]
    claim_D: int
    claim_delta: float
    claim_epsilon: float
    range_epsilon: float
    range_probability: float


class _Fig3Panel(TypedDict):
    epsilon: float
    eta: float
    delta: float


class _Fig3(TypedDict):
    a: _Fig3Panel
    b: _Fig3Panel
    Ds: tuple[int, ...]
    claim_D: int


class _Fig4(TypedDict):
    eta: float
    D: int
    poor_below: float


#: Sadeghi et al., Section III-B and Fig. 1 caption: the setting of Fig. 1 and the numbers the
#: text prints for it (E = e^eps, C = 2 eta / (1 - eta), the crossovers (34), delta-tilde of
#: Theorem 2, the laws' masses at 1 and 2 and their ratios, and the smallest eps at which the
#: discrete Gaussian meets the singleton constraint between outputs n - 1 with delta-tilde).
SADEGHI_FIG1: _Fig1 = {
    "epsilon": 2.18,
    "eta": 0.8,
    "D": 6,
    "E": 8.8463,
    "C": 8.0,
    "C_2": 8.1229,
    "C_3": 7.8867,
    "delta_tilde": 0.0049,
    "support": 3,
    "p_Z(1)": 0.08987,
    "p_Z(2)": 0.00960,
    "alpha_ratio": 9.3617,
    "p_G(1)": 0.11685,
    "p_G(2)": 0.000416,
    "gaussian_ratio": 282.0,  # printed as "about 282"
    "gaussian_epsilon": 5.6,
}
#: Sadeghi et al., Section IV and Fig. 2 caption: eta = 0.5, the values of D drawn (the text
#: names 2D + 1 = 9 and 13, and D = 8); "(2D+1) delta* is no greater than 0.001 for D = 8 and
#: eps > 1.1"; "eta + eta_bar (alpha_1* + alpha_2* + alpha_3*) = 0.9945 for eps = 1.5".
SADEGHI_FIG2: _Fig2 = {
    "eta": 0.5,
    "Ds": (4, 6, 8),
    "claim_D": 8,
    "claim_delta": 1e-3,
    "claim_epsilon": 1.1,
    "range_epsilon": 1.5,
    "range_probability": 0.9945,
}
#: Sadeghi et al., Section IV and Fig. 3 caption: eps = 1.1 (panel a) and 2.2 (panel b); for
#: D = 8 the mechanism is (1.1, 1e-3)-DP at eta = 0.5 and (2.2, 5e-7)-DP at eta = 0.8.
SADEGHI_FIG3: _Fig3 = {
    "a": {"epsilon": 1.1, "eta": 0.5, "delta": 1e-3},
    "b": {"epsilon": 2.2, "eta": 0.8, "delta": 5e-7},
    "Ds": (4, 6, 8),
    "claim_D": 8,
}
#: Sadeghi et al., Section IV and Fig. 4 caption: eta = 0.5, D = 6; "both mechanisms perform
#: rather poorly for eps < 1.1".
SADEGHI_FIG4: _Fig4 = {"eta": 0.5, "D": 6, "poor_below": 1.1}

#: 0.5..3 by 0.1, and by 0.025 on [1, 1.2] where the bound falls steeply.
_DEFAULT_FIG2_EPSILONS = tuple(
    float(e)
    for e in np.unique(
        np.round(
            np.concatenate(
                [np.arange(0.5, 1.0, 0.1), np.arange(1.0, 1.2, 0.025), np.arange(1.2, 3.01, 0.1)]
            ),
            3,
        )
    )
)
_DEFAULT_FIG3_ETAS = tuple(float(e) for e in np.round(np.arange(0.025, 0.976, 0.025), 3))
_DEFAULT_FIG4_EPSILONS = tuple(float(e) for e in np.round(np.arange(0.1, 4.01, 0.1), 2))


# ------------------------------------------------------------------------------------ helpers
def _check_epsilon_grid(values: Any, name: str = "epsilons") -> np.ndarray:
    return check_grid(values, name, low=0.0, high=10.0)


def _check_eta_grid(values: Any) -> np.ndarray:
    arr = check_grid(values, "etas", low=0.0, high=1.0, low_open=True)
    if np.any(arr >= 1.0):
        raise ParameterError(f"`etas` must lie in (0, 1) (P2), got etas={values!r}.")
    return arr


def _dg_pmf(sigma: float, z: np.ndarray) -> np.ndarray:
    """The discrete Gaussian N_Z(0, sigma^2) (parameter sigma) at the integers z."""
    from ..noise import DiscreteGaussianLaw

    return np.asarray(DiscreteGaussianLaw(sigma).pmf(z), dtype=float)


def dg_variance(sigma: float) -> float:
    r"""The variance of the discrete Gaussian :math:`\mathcal N_{\mathbb Z}(0, \sigma^2)`:
    :math:`\sum_k k^2 f(k)`, which is below the parameter :math:`\sigma^2`.

    Examples
    --------
    >>> round(dg_variance(0.5157670), 4), round(0.5157670**2, 4)    # Fig. 1: not the same
    (0.237, 0.266)
    """
    top = math.ceil(40.0 * sigma) + 2
    k = np.arange(-top, top + 1)
    return float((k * k * _dg_pmf(sigma, k)).sum())


def dg_sigma_for_variance(variance: float) -> float:
    r"""The parameter σ of the discrete Gaussian whose actual variance is ``variance`` (> 0),
    by :func:`scipy.optimize.brentq` on :func:`dg_variance` (increasing in σ).

    Examples
    --------
    >>> s = dg_sigma_for_variance(0.266)
    >>> round(s**2, 4), round(dg_variance(s), 6)
    (0.2881, 0.266)
    """
    from scipy.optimize import brentq

    v = float(variance)
    if not (math.isfinite(v) and v > 0):
        raise ParameterError(f"`variance` must be finite and > 0, got variance={variance!r}.")
    lo = math.sqrt(v) * (1.0 - 1e-6)  # the variance is below sigma^2: the root is above sqrt(v)
    while dg_variance(lo) > v:  # round-off at large sigma
        lo *= 0.5
    hi = 2.0 * lo + 1.0
    while dg_variance(hi) < v:
        hi *= 2.0
    return float(brentq(lambda s: dg_variance(s) - v, lo, hi, xtol=1e-14, rtol=1e-14))


def _singleton_epsilon(p: np.ndarray, delta: float) -> float:
    r"""The smallest ε with :math:`p(z) \le e^\epsilon p(z - 1) + \delta` for every z of a
    symmetric law given on z = 0, 1, ... (the singleton constraints of one edge, both orders)."""
    worst = 0.0
    full = np.concatenate([p[:0:-1], p])  # z = -(m-1)..(m-1)
    for z in range(1, full.size):
        a, b = full[z], full[z - 1]
        for x, y in ((a, b), (b, a)):
            if x - delta > 0:
                worst = max(worst, math.inf if y == 0 else math.log((x - delta) / y))
    return worst


def _intervals(x: np.ndarray, mask: np.ndarray) -> list[tuple[float, float]]:
    """The runs of consecutive grid points where ``mask`` holds, as (first, last) pairs."""
    out: list[tuple[float, float]] = []
    start = None
    for i, m in enumerate(mask.tolist()):
        if m and start is None:
            start = i
        if start is not None and (not m or i == mask.size - 1):
            last = i if m else i - 1
            out.append((float(x[start]), float(x[last])))
            start = None
    return out


def _smallest_from(x: np.ndarray, mask: np.ndarray) -> float | None:
    """The smallest grid value from which ``mask`` holds at every larger grid value."""
    if not mask.size or not mask[-1]:
        return None
    bad = np.flatnonzero(~mask)
    return float(x[0] if bad.size == 0 else x[bad[-1] + 1])


def _type2_epsilon(D: int, eta: float) -> float:
    r"""The ε at which :math:`C_D(\epsilon) = C = 2\eta/\bar\eta`: from it on δ̃ is the Type-II
    bound :math:`\delta_{D+1}` (Theorem 2); below it a Type-I bound, continuous there but rising
    steeply as ε decreases. :math:`C_D` rises from 2/D at ε = 0 to about :math:`e^\epsilon`."""
    from scipy.optimize import brentq

    from ..noise.count import crossovers

    C = 2 * eta / (1 - eta)
    if 2.0 / D >= C:
        return 0.0
    hi = math.log(C) + 5.0
    return float(brentq(lambda e: crossovers(D, epsilon=e)[-1] - C, 0.0, hi, xtol=1e-13))


def _knee_eta(D: int, epsilon: float) -> float:
    r"""The η at which :math:`C = 2\eta/\bar\eta` equals :math:`C_D(\epsilon)`: above it δ̃ is a
    Type-I bound and the bound rises fast to 1 (the "knee" of Fig. 3)."""
    from ..noise.count import crossovers

    c = float(crossovers(D, epsilon=epsilon)[-1])
    return c / (2.0 + c)


def _bound_threshold(D: int, eta: float, delta: float, hi: float) -> float:
    r"""The smallest ε with :math:`(2D+1)\delta^* \le` ``delta`` (the bound is non-increasing in
    ε), by bisection on [0, hi]; ``hi`` must meet it."""
    from ..noise.count import optimum

    lo = 0.0
    if optimum(D, epsilon=lo, eta=eta).dp_bound <= delta:
        return 0.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if optimum(D, epsilon=mid, eta=eta).dp_bound <= delta:
            hi = mid
        else:
            lo = mid
    return hi


def _delta_series(D: int, eta: float, eps: float) -> tuple[Any, float, float, float]:
    """(optimum, its Remark-2 bound, the exact δ of its law, the exact-optimal law's δ)."""
    from ..noise.count import exact_optimum, law_dp_delta, optimum

    opt = optimum(D, epsilon=eps, eta=eta)
    exact = law_dp_delta(opt.alpha, eta=eta, epsilon=eps)
    best = exact_optimum(D, epsilon=eps, eta=eta).delta
    return opt, opt.dp_bound, exact, best


# ------------------------------------------------------------------------------------ Fig. 1
def _dg_findings(sigma: float, delta_tilde: float, eps: float) -> dict:
    from ..noise.baselines import DiscreteGaussian

    p = _dg_pmf(sigma, np.arange(0, 8))
    return {
        "sigma": sigma,
        "sigma2_parameter": sigma * sigma,
        "variance": dg_variance(sigma),
        "p(0)": float(p[0]),
        "p(1)": float(p[1]),
        "p(2)": float(p[2]),
        "ratio": float(p[1] / p[2]),
        "epsilon_1_2": math.log((p[1] - delta_tilde) / p[2]),
        "singleton_epsilon": _singleton_epsilon(p, delta_tilde),
        "dp_delta": DiscreteGaussian(sigma=sigma).dp_delta(eps),
    }


def sadeghi_figure1() -> CurveFigure:
    r"""Sadeghi et al., Fig. 1: the optimal noise law (14) for ε = 2.18, η = 0.8, D = 6 against
    the discrete Gaussian with :math:`\sigma^2 = \bar\eta\sum_i\alpha^*_i i^2`, z >= 0.

    The paper sets the discrete Gaussian's *parameter* σ² to the law's variance 0.2660 and
    calls the two variances "identical"; the discrete Gaussian's actual variance is then 0.2370.
    The truly variance-matched discrete Gaussian (σ found by :func:`dg_sigma_for_variance`) is
    drawn as well.

    Returns
    -------
    CurveFigure
        Two bar panels (linear and log scale) over z = 0..D of the three laws. ``findings``
        holds the crossovers (34), the region k, δ̃ and δ*, α*, the masses and ratios the text
        prints for both laws (``"ours"``, ``"gaussian_paper"``, ``"gaussian_matched"``), the
        smallest ε meeting the singleton constraint with δ̃ (between outputs n - 1 of n and
        n + 1, ``"epsilon_1_2"``, and over every output, ``"singleton_epsilon"``), and the exact
        DP δ at ε = 2.18 of each mechanism beside Remark 2's bound (``"dp_delta"``).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> f = sadeghi_figure1()
    >>> f.findings["k"], round(f.findings["delta_tilde"], 4)
    (3, 0.0049)
    >>> g = f.findings["gaussian_paper"]
    >>> round(g["p(1)"], 5), round(g["p(2)"], 6), round(g["epsilon_1_2"], 1)
    (0.11685, 0.000416, 5.6)
    """
    from ..noise.count import crossovers, exact_optimum, law_dp_delta, lower_bounds, optimum

    eps, eta, D = SADEGHI_FIG1["epsilon"], SADEGHI_FIG1["eta"], SADEGHI_FIG1["D"]
    opt = optimum(D, epsilon=eps, eta=eta)
    z = np.arange(D + 1)
    ours = opt.pmf[D:]
    s2 = opt.variance
    sigma_paper = math.sqrt(s2)
    sigma_matched = dg_sigma_for_variance(s2)
    cs = crossovers(D, epsilon=eps)
    d_tilde = opt.printed_delta
    paper = _dg_findings(sigma_paper, d_tilde, eps)
    matched = _dg_findings(sigma_matched, d_tilde, eps)
    label_ours = "optimal law (14), Definition 2"
    label_paper = f"discrete Gaussian, sigma^2 = {s2:.4f} (paper)"
    label_matched = f"discrete Gaussian, variance {s2:.4f} (sigma^2 = {sigma_matched**2:.4f})"
    series = {
        label_ours: ours,
        label_paper: _dg_pmf(sigma_paper, z),
        label_matched: _dg_pmf(sigma_matched, z),
    }
    findings = {
        "E": math.exp(eps),
        "C": 2 * eta / (1 - eta),
        "crossovers": {f"C_{i + 1}": float(c) for i, c in enumerate(cs)},
        "k": opt.k,
        "case": opt.case,
        "lower_bounds": {
            f"delta_{i + 1}": float(d) for i, d in enumerate(lower_bounds(D, epsilon=eps, eta=eta))
        },
        "delta_tilde": d_tilde,
        "delta_star": opt.delta,
        "alpha": {f"alpha_{i + 1}": float(a) for i, a in enumerate(opt.alpha)},
        "support": int(np.flatnonzero(opt.alpha > 0).max()) + 1,
        "ours": {
            "p(0)": float(ours[0]),
            "p(1)": float(ours[1]),
            "p(2)": float(ours[2]),
            "ratio": float(opt.alpha[0] / opt.alpha[1]),
            "variance": s2,
            "epsilon_1_2": math.log((ours[1] - d_tilde) / ours[2]),
            "singleton_epsilon": _singleton_epsilon(ours, d_tilde),
        },
        "gaussian_paper": paper,
        "gaussian_matched": matched,
        "dp_delta": {
            BOUND: opt.dp_bound,
            EXACT: law_dp_delta(opt.alpha, eta=eta, epsilon=eps),
            EXACT_OPT: exact_optimum(D, epsilon=eps, eta=eta).delta,
            "discrete Gaussian (paper sigma^2)": paper["dp_delta"],
            "discrete Gaussian (variance-matched)": matched["dp_delta"],
        },
    }
    parameters = {"epsilon": eps, "eta": eta, "D": D, "sigma2": s2}
    panels = [
        Panel("noise PMF, z >= 0", "z", "p(z)", z, series, "bars"),
        Panel("the same, log scale", "z", "p(z)", z, series, "bars"),
    ]
    return panel_figure(
        "Sadeghi et al., Fig. 1",
        parameters,
        panels,
        findings,
        suptitle=f"optimal noise vs discrete Gaussian, eps = {eps:g}, eta = {eta:g}, D = {D}",
        log=(False, True),
    )


# ------------------------------------------------------------------------------------ Fig. 2
def sadeghi_figure2(*, epsilons: Any = _DEFAULT_FIG2_EPSILONS) -> CurveFigure:
    r"""Sadeghi et al., Fig. 2: :math:`(2D+1)\delta^*` against ε for η = 0.5, D = 4, 6, 8, with
    the exact DP δ of the same mechanism and of the exact-optimal law (14).

    Parameters
    ----------
    epsilons : sequence of float, default 0.5, 0.6, ..., 3.0 (by 0.025 on [1, 1.2])
        Strictly increasing, each in [0, 10].

    Returns
    -------
    CurveFigure
        One log-scale panel, three series per D (``"D = 8: (2D+1) delta* (Remark 2)"``, ``"D =
        8: exact delta, Theorem 3 law"``, ``"D = 8: exact delta, exact-optimal law"``).
        ``findings["claim"]`` checks "(2D+1)δ* <= 0.001 for D = 8 and ε > 1.1" on the grid and
        by bisection; ``findings["range_probability"]`` is :math:`\eta + \bar\eta(\alpha^*_1 +
        \alpha^*_2 + \alpha^*_3)` at ε = 1.5 for each D (0.9945 is D = 8's); ``"type2_epsilon"``
        the ε where :math:`C_D(\epsilon) = C`, below which δ̃ is a Type-I bound and the curve
        rises steeply.

    Notes
    -----
    The paper's δ* is a singleton-event quantity; the exact δ of the same mechanism is about
    half of the bound on the default grid, and the exact-optimal law's is smaller still. Far
    beyond the default grid (δ* below about 1e-13) the float α* of
    :func:`~rainbowdp.noise.count.optimum` no longer attains δ*, and the exact δ of the law
    built from it can exceed the bound (``findings["exact_above_bound"]`` lists such points).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> f = sadeghi_figure2(epsilons=(1.0, 1.1, 1.5))
    >>> f.findings["claim"]["smallest_grid_epsilon"]
    1.1
    >>> round(f.findings["range_probability"]["D = 8"], 4)
    0.9945
    """
    from ..noise.count import optimum

    eps = _check_epsilon_grid(epsilons)
    eta, Ds = SADEGHI_FIG2["eta"], SADEGHI_FIG2["Ds"]
    series: dict = {}
    cases: dict = {}
    above: list = []
    for D in Ds:
        rows = [_delta_series(D, eta, float(e)) for e in eps]
        series[f"D = {D}: {BOUND}"] = np.array([r[1] for r in rows])
        series[f"D = {D}: {EXACT}"] = np.array([r[2] for r in rows])
        series[f"D = {D}: {EXACT_OPT}"] = np.array([r[3] for r in rows])
        cases[f"D = {D}"] = [r[0].case for r in rows]
        above += [(D, float(e)) for e, r in zip(eps, rows, strict=True) if r[2] > r[1]]
    Dc, target = SADEGHI_FIG2["claim_D"], SADEGHI_FIG2["claim_delta"]
    bound = series[f"D = {Dc}: {BOUND}"]
    exact = series[f"D = {Dc}: {EXACT}"]
    e_claim = SADEGHI_FIG2["claim_epsilon"]
    after = eps >= e_claim - 1e-12
    hi = float(eps[bound <= target][0]) if np.any(bound <= target) else 10.0
    e_range = SADEGHI_FIG2["range_epsilon"]
    findings = {
        "claim": {
            "D": Dc,
            "delta": target,
            "smallest_grid_epsilon": _smallest_from(eps, bound <= target),
            "holds_on_grid_from_1.1": bool(np.all(bound[after] <= target)) if after.any() else None,
            "threshold_epsilon": _bound_threshold(Dc, eta, target, hi),
            "bound_at_1.1": optimum(Dc, epsilon=e_claim, eta=eta).dp_bound,
            "smallest_grid_epsilon_exact": _smallest_from(eps, exact <= target),
        },
        "range_probability": {
            f"D = {D}": eta
            + (1 - eta) * float(optimum(D, epsilon=e_range, eta=eta).alpha[:3].sum())
            for D in Ds
        },
        "type2_epsilon": {f"D = {D}": _type2_epsilon(D, eta) for D in Ds},
        "bound_over_exact": {
            f"D = {D}": [
                float(np.min(series[f"D = {D}: {BOUND}"] / series[f"D = {D}: {EXACT}"])),
                float(np.max(series[f"D = {D}: {BOUND}"] / series[f"D = {D}: {EXACT}"])),
            ]
            for D in Ds
        },
        "cases": cases,
        "exact_above_bound": above,
    }
    parameters = {"eta": eta, "Ds": list(Ds), "epsilons": eps.tolist()}
    panels = [Panel(f"eta = {eta:g}", "epsilon", "delta", eps, series, "line")]
    return panel_figure(
        "Sadeghi et al., Fig. 2",
        parameters,
        panels,
        findings,
        suptitle="(2D+1) delta* and the exact delta vs epsilon",
        log=(True,),
    )


# ------------------------------------------------------------------------------------ Fig. 3
def sadeghi_figure3(panel: str = "a", *, etas: Any = _DEFAULT_FIG3_ETAS) -> CurveFigure:
    r"""Sadeghi et al., Fig. 3: :math:`(2D+1)\delta^*` against η for ε = 1.1 (panel "a") and
    ε = 2.2 (panel "b"), D = 4, 6, 8, with the exact DP δ as in :func:`sadeghi_figure2`.

    Parameters
    ----------
    panel : {"a", "b"}, default "a"
    etas : sequence of float, default 0.025, 0.05, ..., 0.975
        Strictly increasing, each in (0, 1).

    Returns
    -------
    CurveFigure
        One log-scale panel. ``findings["claim"]`` checks the Section IV claim for D = 8
        ((1.1, 1e-3)-DP at η = 0.5; (2.2, 5e-7)-DP at η = 0.8): the bound, the exact δ of the
        same mechanism and of the exact-optimal law there, and the largest η meeting the target
        by :func:`~rainbowdp.noise.count.max_eta` -- exactly (``events="all"``) and by the bound
        (singleton δ at most δ/(2D + 1)). ``findings["knee_eta"]`` is the η at which
        :math:`C = C_D(\epsilon)`, above which the bound rises fast to 1.
        ``findings["restored_etas"]`` lists the grid η where the printed Theorem 3 fails (the
        constraint Proposition 4 omits binds, ``optimum(...).case == "restored"``) and
        ``findings["printed_over_true"]`` the smallest ratio of the printed δ̃ to the true δ*
        there. The curves are the true δ* (the constraint Proposition 4 omits restored,
        ``docs/errata.md`` item 16); where it differs from the paper's closed form (η ≤ 0.1 at
        ε = 1.1, η = 0.025 at ε = 2.2 on the default grid) the series
        ``"D = ...: (2D+1) delta~ as printed (Theorem 3), where it fails"`` marks the paper's
        values (NaN elsewhere).
    """
    from ..noise.count import max_eta, optimum

    panel = check_panel(panel)
    grid = _check_eta_grid(etas)
    spec = SADEGHI_FIG3["a"] if panel == "a" else SADEGHI_FIG3["b"]
    eps, Ds, Dc = spec["epsilon"], SADEGHI_FIG3["Ds"], SADEGHI_FIG3["claim_D"]
    series: dict = {}
    restored: dict = {}
    ratio: dict = {}
    above: list = []
    for D in Ds:
        rows = [_delta_series(D, float(e), eps) for e in grid]
        series[f"D = {D}: {BOUND}"] = np.array([r[1] for r in rows])
        series[f"D = {D}: {EXACT}"] = np.array([r[2] for r in rows])
        series[f"D = {D}: {EXACT_OPT}"] = np.array([r[3] for r in rows])
        series[f"D = {D}: {PRINTED_CURVE}"] = np.array(
            [(2 * D + 1) * r[0].printed_delta if r[0].case == "restored" else np.nan for r in rows]
        )
        rest = [r[0] for r in rows if r[0].case == "restored"]
        restored[f"D = {D}"] = [o.eta for o in rest]
        ratio[f"D = {D}"] = min((o.printed_delta / o.delta for o in rest), default=1.0)
        above += [(D, float(e)) for e, r in zip(grid, rows, strict=True) if r[2] > r[1]]
    eta_c, target = spec["eta"], spec["delta"]
    _, b, ex, best = _delta_series(Dc, eta_c, eps)
    findings = {
        "claim": {
            "D": Dc,
            "epsilon": eps,
            "eta": eta_c,
            "delta": target,
            "bound": b,
            "exact": ex,
            "exact_optimal": best,
            "holds_by_bound": b <= target,
            "max_eta_exact": max_eta(Dc, epsilon=eps, delta=target, events="all"),
            "max_eta_bound": max_eta(
                Dc, epsilon=eps, delta=target / (2 * Dc + 1), events="singleton"
            ),
            "case": optimum(Dc, epsilon=eps, eta=eta_c).case,
        },
        "knee_eta": {f"D = {D}": _knee_eta(D, eps) for D in Ds},
        "restored_etas": restored,
        "printed_over_true": ratio,
        "exact_above_bound": above,
    }
    parameters = {"epsilon": eps, "Ds": list(Ds), "etas": grid.tolist()}
    panels = [Panel(f"eps = {eps:g}", "eta", "delta", grid, series, "line")]
    return panel_figure(
        f"Sadeghi et al., Fig. 3{panel}",
        parameters,
        panels,
        findings,
        suptitle="(2D+1) delta* and the exact delta vs eta\nat small eta: the true delta* "
        "(erratum 16); x: the paper's Theorem 3",
        log=(True,),
    )


# ------------------------------------------------------------------------------------ Fig. 4
def sadeghi_figure4(*, epsilons: Any = _DEFAULT_FIG4_EPSILONS) -> CurveFigure:
    r"""Sadeghi et al., Fig. 4: η = 0.5, D = 6: :math:`(2D+1)\delta^*` against the discrete
    Gaussian's :math:`\delta_G(\epsilon)` of (45) at the same ε, with
    :math:`\sigma^2 = \sigma^2(\eta, D, \epsilon) = \bar\eta\sum_i\alpha^*_i i^2` (so σ depends on
    ε), and the exact δ of the count mechanism.

    (45) is Canonne, Kamath and Steinke's Theorem 7, the exact δ of the discrete Gaussian
    mechanism at sensitivity 1. As in the paper, σ² is the discrete Gaussian's parameter; the
    series ``"... variance-matched"`` uses the discrete Gaussian whose actual variance is
    σ²(η, D, ε) (:func:`dg_sigma_for_variance`).

    Parameters
    ----------
    epsilons : sequence of float, default 0.1, 0.2, ..., 4.0
        Strictly increasing, each in [0, 10].

    Returns
    -------
    CurveFigure
        One log-scale panel. ``findings["superior"]`` holds, for the bound and for the exact δ
        against each discrete Gaussian, the runs of grid ε where the count mechanism's δ is
        below :math:`\delta_G` and the smallest grid ε from which it stays below;
        ``findings["sigma2"]`` the variances σ²(η, D, ε).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> f = sadeghi_figure4(epsilons=(0.5, 1.0, 1.5, 2.0))
    >>> f.findings["superior"]["bound"]["from"]
    1.5
    """
    from ..noise.baselines import DiscreteGaussian

    eps = _check_epsilon_grid(epsilons)
    eta, D = SADEGHI_FIG4["eta"], SADEGHI_FIG4["D"]
    rows = [_delta_series(D, eta, float(e)) for e in eps]
    s2 = np.array([r[0].variance for r in rows])
    bound = np.array([r[1] for r in rows])
    exact = np.array([r[2] for r in rows])
    best = np.array([r[3] for r in rows])
    dg = np.array(
        [
            DiscreteGaussian(sigma=math.sqrt(v)).dp_delta(float(e))
            for v, e in zip(s2, eps, strict=True)
        ]
    )
    dgm = np.array(
        [
            DiscreteGaussian(sigma=dg_sigma_for_variance(float(v))).dp_delta(float(e))
            for v, e in zip(s2, eps, strict=True)
        ]
    )
    series = {BOUND: bound, EXACT: exact, EXACT_OPT: best, DG: dg, DG_MATCHED: dgm}

    def sup(mine: np.ndarray, theirs: np.ndarray) -> dict:
        mask = mine < theirs
        return {"runs": _intervals(eps, mask), "from": _smallest_from(eps, mask)}

    findings = {
        "superior": {
            "bound": sup(bound, dg),
            "exact": sup(exact, dg),
            "bound, variance-matched": sup(bound, dgm),
            "exact, variance-matched": sup(exact, dgm),
        },
        "type2_epsilon": _type2_epsilon(D, eta),
        "sigma2": s2,
        "cases": [r[0].case for r in rows],
        "exact_above_bound": [float(e) for e, b, x in zip(eps, bound, exact, strict=True) if x > b],
    }
    parameters = {"eta": eta, "D": D, "epsilons": eps.tolist()}
    panels = [Panel(f"eta = {eta:g}, D = {D}", "epsilon", "delta", eps, series, "line")]
    return panel_figure(
        "Sadeghi et al., Fig. 4",
        parameters,
        panels,
        findings,
        suptitle="count mechanism vs discrete Gaussian of the same variance",
        log=(True,),
    )


def count_example1() -> TableResult:
    r"""Sadeghi et al., Example 1: the two-point laws (2) for N = 3, η = 1/2, D = 2
    (:func:`rainbowdp.noise.count.two_point`), each on z = -2..2.

    Examples
    --------
    >>> count_example1().values["p^(-1,2)(.|1)"]
    [0.0, 0.3333333333333333, 0.5, 0.0, 0.16666666666666666]
    """
    from ..noise.count import two_point

    laws = {(1, -1, 1), (1, -1, 2), (2, -2, 2), (2, -2, 1)}
    return TableResult(
        "Sadeghi et al., Example 1",
        {
            "N": 3,
            "eta": 0.5,
            "D": 2,
            "z": list(range(-2, 3)),
            **{
                f"p^({i1},{i2})(.|{n})": two_point(n, 2, i1, i2, eta=0.5).tolist()
                for n, i1, i2 in sorted(laws)
            },
        },
    )


#: The key of this paper in :data:`~rainbowdp.reproduce._printed.PAPERS`.
PAPER = "sadeghi"

#: The reproducible targets of Sadeghi et al., in the order of the index (printed values and
#: checks: :mod:`rainbowdp.reproduce._printed_sadeghi`).
TARGETS: tuple[TargetSpec, ...] = (
    TargetSpec("count-example1", "Sadeghi et al., Example 1", count_example1, figure=False),
    TargetSpec("count-fig1", "Sadeghi et al., Fig. 1", sadeghi_figure1),
    TargetSpec("count-fig2", "Sadeghi et al., Fig. 2", sadeghi_figure2),
    TargetSpec(
        "count-fig3a",
        "Sadeghi et al., Fig. 3 (ε = 1.1)",
        partial(sadeghi_figure3, "a"),
        note="substitution: the curves are the true δ* (the constraint Proposition 4 omits "
        "restored, erratum 16), not the paper's Theorem 3; they differ at η ≤ 0.1, where the "
        "figure marks the paper's (lower) values with x",
    ),
    TargetSpec(
        "count-fig3b",
        "Sadeghi et al., Fig. 3 (ε = 2.2)",
        partial(sadeghi_figure3, "b"),
        note="substitution: the curves are the true δ* (erratum 16), not the paper's Theorem 3; "
        "they differ at η = 0.025, where the figure marks the paper's (lower) value with x",
    ),
    TargetSpec("count-fig4", "Sadeghi et al., Fig. 4", sadeghi_figure4),
)
