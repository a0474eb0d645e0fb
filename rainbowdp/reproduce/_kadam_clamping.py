r"""Kadam et al., Figs. 6 and 8: the effect of clamping on the (ε, δ) trade-off of the geometric
and discrete Gaussian mechanisms, and the optimal PMF against theirs.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._curves import CurveFigure, Panel, check_grid, curve_figure
from ._kadam_compare import KADAM_COUNT_SHIFTS, KADAM_FIG6, competitor, distortion, sound_deltas

__all__ = ["kadam_figure6", "kadam_figure8"]


def _geometric_unclamped(alpha: float, eps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""PDP leakage and exact DP δ of the infinite two-sided geometric law for |q - q'| = 1.

    The privacy loss is :math:`\pm\ln(1/\alpha)`: +ln(1/α) with probability
    :math:`\Pr[\eta \le 0] = 1/(1 + \alpha)` (the side away from the neighbour). So the PDP
    leakage is :math:`1/(1+\alpha)` for ε < ln(1/α) and 0 from there on, and the hockey stick is
    :math:`\sum_{k \le 0} f(k)(1 - \alpha e^\epsilon)_+ = (1 - \alpha e^\epsilon)_+/(1 + \alpha)`.
    """
    e0 = -math.log(alpha)
    pdp = np.where(eps < e0, 1.0 / (1.0 + alpha), 0.0)
    dp = np.maximum(0.0, -np.expm1(math.log(alpha) + eps)) / (1.0 + alpha)
    return pdp, dp


def _gaussian_unclamped(sigma: float, eps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""PDP leakage and exact DP δ of the infinite discrete Gaussian for |q - q'| = 1.

    The privacy loss at noise k (neighbour on the right) is :math:`(1 - 2k)/(2\sigma^2)`, which
    exceeds ε iff :math:`k < 1/2 - \epsilon\sigma^2`; by symmetry the leakage is
    :math:`\Pr[Y > \epsilon\sigma^2 - 1/2] = \Pr[Y \ge \lfloor \epsilon\sigma^2 - 1/2 \rfloor + 1]`.
    The DP δ is Canonne-Kamath-Steinke's Theorem 7 (:meth:`DiscreteGaussian.dp_delta
    <rainbowdp.noise.DiscreteGaussian.dp_delta>`), exact for Δ = 1.
    """
    from ..noise import DiscreteGaussianLaw
    from ..noise.baselines import DiscreteGaussian

    law = DiscreteGaussianLaw(sigma)
    first = np.floor(eps * sigma * sigma - 0.5).astype(np.int64) + 1
    pdp = law.sf(first)
    dp = np.array([DiscreteGaussian(sigma=sigma).dp_delta(float(e)) for e in eps])
    return pdp, dp


def kadam_figure6(*, epsilons: Any = None) -> CurveFigure:
    r"""Kadam et al., Fig. 6: the effect of clamping (eqs. (55)–(56)) on the (ε, δ) trade-off
    of the geometric (α = 0.7) and discrete Gaussian (σ² = 3.38) mechanisms, n = 8.

    Query values 0..8, neighbours :math:`|q - q'| = 1` (the count path
    :func:`~rainbowdp.builders.count_path`). The clamped mechanisms are the rows of eq. (56)
    (:func:`~rainbowdp.noise.additive_rows`, ``form="clamped"``); the unclamped ones are the
    infinite-support laws, for which both notions are computed in closed form.

    Parameters
    ----------
    epsilons : sequence of float, optional
        The ε grid (default 0, 0.05, ..., 3): strictly increasing, each in [0, 30].

    Returns
    -------
    CurveFigure
        Panel 0: the PDP leakage (Definition 2, the notion of the paper's figure); panel 1: the
        exact (ε, δ)-DP δ (hockey stick, :func:`~rainbowdp.privacy.privacy_profile`); series
        ``"<law>, clamped"`` and ``"<law>, unclamped"``. ``findings`` holds the largest
        increase of the PDP leakage by clamping, the largest excess of the clamped DP δ over the
        unclamped one (never positive beyond round-off: clamping is post-processing), the
        smallest ε at which each clamped mechanism is pure ε-DP (``"pure_dp_epsilon"``) and the
        laws' MSEs.

    Raises
    ------
    ParameterError
        If ``epsilons`` is invalid.

    Notes
    -----
    The paper says "clamping increases δ for the same ε". That holds for the PDP leakage of the
    discrete Gaussian below ε* ≈ 2.2 only (by up to 0.217): PDP is not closed under
    post-processing (Meiser 2018), and the clamped end point collects noise values of low
    privacy loss together with the high-loss tail, so it leaks as a whole. From ε* on, clamping
    *lowers* it: the clamped discrete Gaussian on 0..8 is pure ε-DP there (leakage 0), the
    infinite law never is. For the geometric law the PDP leakage is unchanged,
    :math:`1/(1 + \alpha) = 0.5882` below :math:`\epsilon_0 = \ln(1/0.7) = 0.3567` and 0 above,
    clamped or not (every clamped output has the same loss ±ε₀ as the values it collects). Under
    (ε, δ)-DP clamping is post-processing and can never increase δ: it leaves δ unchanged for
    the geometric law and for the discrete Gaussian below ε* (the hockey stick's positive part
    lies on one tail, which the clamp merges), and lowers it to 0 from ε* on.

    The text says the two laws are "reported for the same MSE = 3.38": σ² = 3.38 is the
    discrete Gaussian's variance, but the geometric law with α = 0.7 has variance
    :math:`2\alpha/(1-\alpha)^2 = 15.56` (α = 0.4717 would give 3.38). ``findings`` records
    both variances and the clamped mechanisms' MSEs averaged over q.
    """
    from ..builders import count_path
    from ..mechanism import Mechanism
    from ..noise import DiscreteGaussianLaw, GeometricLaw, additive_rows
    from ..privacy import epsilon_for_delta, pdp_delta, privacy_profile

    if epsilons is None:
        epsilons = np.round(np.linspace(0.0, 3.0, 61), 4)
    eps = check_grid(epsilons, "epsilons", low=0.0, high=30.0)
    n, alpha, s2 = KADAM_FIG6["n"], KADAM_FIG6["alpha"], KADAM_FIG6["sigma2"]
    sigma = math.sqrt(s2)
    q = np.arange(n + 1)
    G = count_path(n)
    pdp: dict = {}
    dp: dict = {}
    mse: dict = {}
    pure: dict = {}
    laws = {"geometric": GeometricLaw(alpha), "discrete Gaussian": DiscreteGaussianLaw(sigma)}
    exact = {
        "geometric": _geometric_unclamped(alpha, eps),
        "discrete Gaussian": _gaussian_unclamped(sigma, eps),
    }
    for name, law in laws.items():
        rows = additive_rows(q, q, law, form="clamped")
        M = Mechanism(G, rows)
        pdp[f"{name}, clamped"] = np.array([pdp_delta(M, float(e)) for e in eps])
        dp[f"{name}, clamped"] = privacy_profile(M, eps)
        pdp[f"{name}, unclamped"], dp[f"{name}, unclamped"] = exact[name]
        mse[f"{name}, clamped"] = distortion(rows, n, "squared")
        pure[name] = float(epsilon_for_delta(M, 0.0))
    mse["geometric, unclamped"] = 2 * alpha / (1 - alpha) ** 2
    k = np.arange(-200, 201)
    mse["discrete Gaussian, unclamped"] = float(laws["discrete Gaussian"].pmf(k) @ (k * k))
    findings = {
        "epsilon0_geometric": -math.log(alpha),
        "pdp_increase_by_clamping": {
            name: float(np.max(pdp[f"{name}, clamped"] - pdp[f"{name}, unclamped"]))
            for name in laws
        },
        "dp_excess_of_clamped": {
            name: float(np.max(dp[f"{name}, clamped"] - dp[f"{name}, unclamped"])) for name in laws
        },
        "pure_dp_epsilon": pure,
        "mse": mse,
    }
    panels = [
        Panel(
            "PDP leakage (Definition 2; the paper's Fig. 6)", "epsilon", "delta", eps, pdp, "step"
        ),
        Panel("exact (epsilon, delta)-DP (hockey stick)", "epsilon", "delta", eps, dp, "line"),
    ]
    parameters = {"n": n, "alpha": alpha, "sigma2": s2, "neighbours": "|q - q'| = 1 on 0..n"}
    return curve_figure(
        "Kadam et al., Fig. 6",
        parameters,
        panels,
        findings,
        suptitle=f"clamping, n = {n}, alpha = {alpha:g}, sigma^2 = {s2:g}",
    )


def kadam_figure8() -> CurveFigure:
    r"""Kadam et al., Fig. 8: the optimal PMF against the geometric (α = 0.7) and discrete
    Gaussian (σ² = 3.38) ones, n = 8, ε = 1, δ = 0.

    The optimum is the LP (14) for SD :math:`\hat\mu = 1` in the paper reading (as in
    :func:`kadam_figure5`); at δ = 0 the error-rate and MSE optima coincide (both are
    :math:`f(\eta) \propto e^{-\eta\epsilon}`, Lemma 3). The competitors' PMFs on [n] are their
    laws taken modulo 9 (the PMF of their modular form); ``findings["laws"]`` also holds the
    unwrapped :math:`f(\eta)`, η = 0..8.

    Returns
    -------
    CurveFigure
        One bar panel; ``findings`` holds each PMF's f(0), MSE (eq. (11)), error rate, and its
        PDP leakage and exact DP δ at ε = 1 (paper reading, M = {1}).

    Notes
    -----
    The text says the three are compared "for the same MSE parameter": they are not -- the
    laws' variances are 15.56 (geometric) and 3.38 (discrete Gaussian), and the MSEs of eq. (11)
    of the three PMFs differ too (``findings["mse"]``). The claim the figure supports, that the
    optimum has the largest mass at η = 0, holds by a wide margin.
    """
    from ..noise import modulo

    n, alpha, s2 = KADAM_FIG6["n"], KADAM_FIG6["alpha"], KADAM_FIG6["sigma2"]
    eps, shifts = 1.0, list(KADAM_COUNT_SHIFTS)
    opt = modulo.optimal_pmf(
        n,
        epsilon=eps,
        delta=0.0,
        shifts=shifts,
        loss="error_rate",
        reading="paper",
        formulation="printed",
    ).pmf
    pmfs = {
        "optimal (eps = 1, delta = 0)": opt,
        f"geometric, alpha = {alpha:g} (mod {n + 1})": competitor("geometric", "modular", alpha, n),
        f"discrete Gaussian, sigma^2 = {s2:g} (mod {n + 1})": competitor(
            "discrete_gaussian", "modular", math.sqrt(s2), n
        ),
    }
    from ..noise import DiscreteGaussianLaw, GeometricLaw

    eta = np.arange(n + 1)
    findings = {
        "f0": {k: float(v[0]) for k, v in pmfs.items()},
        "mse": {k: distortion(v, n, "squared") for k, v in pmfs.items()},
        "error_rate": {k: distortion(v, n, "error_rate") for k, v in pmfs.items()},
        "pdp_delta": {
            k: float(sound_deltas(v, n, np.array([eps]), (1,))[0][0]) for k, v in pmfs.items()
        },
        "dp_delta": {
            k: float(sound_deltas(v, n, np.array([eps]), (1,))[1][0]) for k, v in pmfs.items()
        },
        "laws": {
            "geometric": GeometricLaw(alpha).pmf(eta),
            "discrete Gaussian": DiscreteGaussianLaw(math.sqrt(s2)).pmf(eta),
        },
        "variance": {"geometric": 2 * alpha / (1 - alpha) ** 2, "discrete Gaussian": s2},
        "optimal_mse_pmf": modulo.optimal_pmf(
            n, epsilon=eps, delta=0.0, shifts=shifts, loss="squared", reading="paper"
        ).pmf,
    }
    parameters = {
        "n": n,
        "epsilon": eps,
        "delta": 0.0,
        "alpha": alpha,
        "sigma2": s2,
        "shifts": shifts,
        "reading": "paper",
    }
    panels = [Panel("PMFs on [n]", "noise eta", "f(eta)", eta, pmfs, "bars")]
    return curve_figure(
        "Kadam et al., Fig. 8",
        parameters,
        panels,
        findings,
        suptitle=f"PMFs, n = {n}, eps = 1, delta = 0",
    )
