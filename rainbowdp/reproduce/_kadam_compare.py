r"""Kadam et al., Figs. 5 and 7: the optimal modulo mechanism against standard ones brought
onto [n] (modular and clamped forms), calibrated at a fixed δ (Fig. 5) or a fixed distortion
(Fig. 7); the competitors' construction, distortion and sound leakage are shared with Figs. 6 and
8 (:mod:`rainbowdp.reproduce._kadam_clamping`).
"""

from __future__ import annotations

import math
from typing import Any, Literal, TypedDict

import numpy as np

from ._curves import CurveFigure, Panel, check_epsilons, check_panel, curve_figure

__all__ = [
    "KADAM_COUNT_D",
    "KADAM_COUNT_SHIFTS",
    "KADAM_FIG6",
    "KADAM_FIG7A_MSE",
    "KADAM_FIG7B_ER",
    "competitor",
    "count_noise",
    "distortion",
    "kadam_figure5",
    "kadam_figure7",
    "sound_deltas",
]

#: The loss spellings :mod:`rainbowdp.noise.modulo` takes: mean squared error, error rate.
Loss = Literal["squared", "error_rate"]


class Fig6Setting(TypedDict):
    """The setting of Kadam et al., Figs. 6 and 8."""

    n: int
    alpha: float
    sigma2: float


class _Comparison(TypedDict, total=False):
    """One panel of Fig. 5 (at a fixed ``delta``) or Fig. 7 (at a fixed distortion ``target``)."""

    n: int
    loss: Loss
    delta: float
    target: float
    mechs: tuple[str, ...]


#: Kadam et al., Fig. 6 caption (and Fig. 8): n = 8, geometric alpha = 0.7, sigma^2 = 3.38.
KADAM_FIG6: Fig6Setting = {"n": 8, "alpha": 0.7, "sigma2": 3.38}
#: Kadam et al., Fig. 7a caption: the common MSE of every mechanism compared (n = 8).
KADAM_FIG7A_MSE = 0.6101
#: Kadam et al., Fig. 7b caption: the common error rate of every mechanism compared (n = 7).
KADAM_FIG7B_ER = 0.3
#: The neighbourhood of Figs. 5, 7 and 8 (the captions give none): the count query's
#: |Q(X) - Q(X')| = 1, i.e. SD with mu_hat = 1, in the paper's one-way reading of eq. (7).
KADAM_COUNT_SHIFTS = (1,)

_OPTIMAL = "optimal (MILP)"
_NAMES = {
    "geometric": "geometric",
    "discrete_gaussian": "discrete Gaussian",
    "gumbel": "Gumbel",
    "data_independent": "data-independent",
}
#: The forms a competitor is brought onto [n] in (the data-independent PMF is already there).
_FORMS_OF = {
    "geometric": ("modular", "clamped"),
    "discrete_gaussian": ("modular", "clamped"),
    "gumbel": ("modular", "truncated"),
    "data_independent": ("modular",),
}
#: The discrete count mechanism of Sadeghi et al. (Kadam et al.'s reference [10]) in Figs. 5b
#: and 7b: its law (14) with the optimal alpha* of Theorem 3 (:mod:`rainbowdp.noise.count`),
#: on [-D, D], taken modulo n + 1. The captions give no D: D = 3, the largest with 2D + 1 <= n + 1
#: at n = 7, so the support does not wrap onto itself.
KADAM_COUNT_D = 3
_COUNT = "discrete count (Sadeghi et al.), modular"

#: Name of each competitor's parameter (noise grows with it).
_PARAMETER = {
    "geometric": "alpha",
    "discrete_gaussian": "sigma",
    "gumbel": "beta",
    "data_independent": "rho",
}


def _grid_of(mech: str, n: int, size: int = 240) -> np.ndarray:
    """The search grid of a competitor's parameter, from least to most noise."""
    if mech == "geometric":  # alpha = e^-r, r from 40 down to 0.002
        return np.exp(-np.logspace(math.log10(40.0), math.log10(0.002), size))
    if mech in ("discrete_gaussian", "gumbel"):
        return np.logspace(math.log10(0.05), 2.0, size)
    return np.linspace(0.0, n / (n + 1), size)  # data-independent: rho up to the uniform


def _bounds_of(mech: str, n: int) -> tuple[float, float]:
    g = _grid_of(mech, n, 2)
    return float(g[0]), float(g[-1])


def competitor(mech: str, form: str, p: float, n: int) -> np.ndarray:
    r"""The competitor on [n]: its noise PMF g on [n] (``"modular"``) or its (n + 1, n + 1) rows
    on the count path (``"clamped"``; ``"truncated"`` for the Gumbel mechanism)."""
    from ..noise import DiscreteGaussianLaw, GeometricLaw, additive_rows

    q = np.arange(n + 1)
    if mech == "data_independent":  # Ravi et al. (2022), Kadam et al. Fig. 7b caption
        return np.concatenate([[1.0 - p], np.full(n, p / n)])
    if mech == "gumbel":
        # the exponential mechanism, sampled by the Gumbel-max trick (Adams 2013): scores
        # -distance / beta; on the cycle (modular) the distance is circular, on the path it is
        # |v - q| over the outputs [n] (the exponential mechanism's own, truncated, form)
        if form == "modular":
            w = np.exp(-np.minimum(q, n + 1 - q) / p)
            return w / w.sum()
        return additive_rows(q, q, GeometricLaw(math.exp(-1.0 / p)), form="truncated")
    law = GeometricLaw(p) if mech == "geometric" else DiscreteGaussianLaw(p)
    if form == "modular":
        return additive_rows([0], q, law, form="modular")[0]
    return additive_rows(q, q, law, form="clamped")


def _line_distortion(n: int, loss: Loss) -> np.ndarray:
    """(n + 1, n + 1) distortion of answering v to q on the path: (v - q)^2 or 1[v != q]."""
    q = np.arange(n + 1)
    e = q[None, :] - q[:, None]
    return (e * e).astype(float) if loss == "squared" else (e != 0).astype(float)


def distortion(obj: np.ndarray, n: int, loss: Loss) -> float:
    """Expected distortion: eq. (9) for a modulo PMF, the average over q (uniform) of
    E[rho(q_tilde - q)] for rows on the path."""
    from ..noise import modulo

    if obj.ndim == 1:
        return float(modulo.distortion(n, loss) @ obj)
    return float((obj * _line_distortion(n, loss)).sum() / (n + 1))


def _fast_pdp(stack: np.ndarray, x: float, shifts: tuple) -> np.ndarray:
    """Float PDP leakage of a stack of competitors (used for searching only; the reported
    leakages are the sound ones of :func:`sound_deltas`)."""
    if stack.ndim == 2:  # modulo PMFs, paper reading: f(eta) against f(eta + mu)
        out = np.zeros(stack.shape[0])
        for mu in shifts:
            nxt = np.roll(stack, -mu, axis=1)
            out = np.maximum(out, np.where(stack > x * nxt, stack, 0.0).sum(axis=1))
        return out
    a, b = stack[:, :-1, :], stack[:, 1:, :]  # rows of q and q + 1, both orientations
    fwd = np.where(a > x * b, a, 0.0).sum(axis=2).max(axis=1)
    bwd = np.where(b > x * a, b, 0.0).sum(axis=2).max(axis=1)
    return np.maximum(fwd, bwd)


def sound_deltas(obj: np.ndarray, n: int, epsilons: np.ndarray, shifts: tuple) -> tuple:
    """(PDP leakage, exact (ε, δ)-DP δ) at each ε, both rounded up: a modulo PMF under the
    paper reading of ``shifts``, or rows on the count path (both orientations of each edge)."""
    from ..builders import count_path
    from ..mechanism import Mechanism
    from ..noise import modulo
    from ..privacy import pdp_delta, privacy_profile

    if obj.ndim == 1:
        M = modulo.mechanism(obj, shifts=list(shifts), reading="paper")
    else:
        M = Mechanism(count_path(n), obj)
    pdp = np.array([pdp_delta(M, float(e)) for e in epsilons])
    return pdp, privacy_profile(M, epsilons)


def _candidates(mech: str, form: str, n: int, loss: Loss) -> tuple:
    """A competitor's search grid, the competitor at each grid point (stacked) and its
    distortion there (computed once per figure, reused for every ε)."""
    grid = _grid_of(mech, n)
    objs = np.stack([competitor(mech, form, float(p), n) for p in grid])
    dist = np.array([distortion(o, n, loss) for o in objs])
    return grid, objs, dist


def _calibrate_delta(
    mech: str,
    form: str,
    n: int,
    loss: Loss,
    epsilon: float,
    delta: float,
    shifts: tuple,
    candidates: tuple,
) -> tuple[float, float, float, float]:
    """(parameter, distortion, PDP leakage, exact DP δ) of the competitor of least distortion
    whose PDP leakage at ε is at most δ.

    The best feasible point of the parameter grid (float leakage) is refined by bisection
    against its less noisy, infeasible neighbour, then accepted only if the sound leakage
    (:func:`~rainbowdp.privacy.pdp_delta`) is at most δ; otherwise the next noisier grid points
    are tried. NaN if no grid point is feasible.
    """
    grid, objs, dist = candidates
    x = math.exp(epsilon)
    feasible = _fast_pdp(objs, x, shifts) <= delta
    if not feasible.any():
        return math.nan, math.nan, math.nan, math.nan
    i = int(np.argmin(np.where(feasible, dist, np.inf)))
    hi = float(grid[i])
    if i > 0 and not feasible[i - 1]:
        lo = float(grid[i - 1])
        for _ in range(40):
            mid = 0.5 * (lo + hi)
            ok = _fast_pdp(competitor(mech, form, mid, n)[None], x, shifts)[0] <= delta
            lo, hi = (lo, mid) if ok else (mid, hi)
    for p in [hi, *grid[i + 1 :].tolist()]:
        obj = competitor(mech, form, float(p), n)
        pdp, dp = sound_deltas(obj, n, np.array([epsilon]), shifts)
        if pdp[0] <= delta:
            return float(p), distortion(obj, n, loss), float(pdp[0]), float(dp[0])
    return math.nan, math.nan, math.nan, math.nan  # pragma: no cover - uniform end is feasible


def _calibrate_distortion(mech: str, form: str, n: int, loss: Loss, target: float) -> float:
    """The parameter at which a competitor's distortion equals ``target`` (brentq on the
    parameter; NaN if the target is out of the competitor's range)."""
    from scipy.optimize import brentq

    lo, hi = _bounds_of(mech, n)

    def gap(p: float) -> float:
        return distortion(competitor(mech, form, p, n), n, loss) - target

    g_lo, g_hi = gap(lo), gap(hi)
    if g_lo == 0.0:
        return lo
    if g_lo * g_hi > 0:
        return math.nan
    return float(brentq(gap, lo, hi, xtol=1e-14, rtol=1e-13, maxiter=500))


def _dp_of(results: list, eps: np.ndarray, shifts: tuple) -> np.ndarray:
    """The exact DP δ of each optimal PMF at its ε (paper reading)."""
    from ..noise import modulo

    return np.array(
        [
            modulo.dp_delta(r.pmf, epsilon=float(e), shifts=list(shifts), reading="paper")
            for r, e in zip(results, eps, strict=True)
        ]
    )


def count_noise(eta: float, epsilon: float, n: int, D: int = KADAM_COUNT_D) -> np.ndarray:
    r"""The discrete count mechanism on [n]: Sadeghi et al.'s law (14),
    :math:`p(0) = \eta`, :math:`p(\pm i) = \alpha_i^* \bar\eta / 2` with the α* of their
    Theorem 3 at (ε, η) (:func:`rainbowdp.noise.count.alpha_star`, the constraint their
    Proposition 4 omits restored), taken modulo n + 1. Its error rate is :math:`1 - \eta`.

    Examples
    --------
    >>> f = count_noise(0.7, 3.0, 7)
    >>> float(f[0]), bool(abs(f.sum() - 1) < 1e-12), bool(f[1] == f[7])
    (0.7, True, True)
    """
    from ..noise import count

    law = count.pmf(count.alpha_star(D, epsilon=epsilon, eta=eta), eta=eta)
    f = np.zeros(n + 1)
    np.add.at(f, np.arange(-D, D + 1) % (n + 1), law)
    return f


def _count_at_delta(
    n: int, epsilon: float, delta: float, shifts: tuple, loss: Loss
) -> tuple[float, float, float, float]:
    """(η, distortion, PDP leakage, exact DP δ) of the count mechanism of largest η whose PDP
    leakage at ε is at most δ (a grid of η, refined by bisection, accepted with the sound
    leakage); NaN if none is."""
    x = math.exp(epsilon)
    grid = np.linspace(1.0, 0.0, 101)[1:-1]  # eta in (0, 1), least noise first

    def leak(eta: float) -> float:
        return float(_fast_pdp(count_noise(eta, epsilon, n)[None], x, shifts)[0])

    ok = np.array([leak(float(e)) <= delta for e in grid])
    if not ok.any():
        return math.nan, math.nan, math.nan, math.nan
    i = int(np.argmax(ok))
    hi = float(grid[i])
    if i > 0:
        bad = float(grid[i - 1])  # infeasible: more eta than hi
        for _ in range(40):
            mid = 0.5 * (bad + hi)
            bad, hi = (mid, hi) if leak(mid) > delta else (bad, mid)
    for eta in [hi, *grid[i + 1 :].tolist()]:
        f = count_noise(float(eta), epsilon, n)
        pdp, dp = sound_deltas(f, n, np.array([epsilon]), shifts)
        if pdp[0] <= delta:
            return float(eta), distortion(f, n, loss), float(pdp[0]), float(dp[0])
    return math.nan, math.nan, math.nan, math.nan  # pragma: no cover - eta = 0 is feasible


def _label(mech: str, form: str) -> str:
    return _NAMES[mech] if mech == "data_independent" else f"{_NAMES[mech]}, {form}"


_COMPARISON: dict[tuple[str, str], _Comparison] = {
    # Fig. 5: distortion against epsilon at a fixed delta
    ("5", "a"): {
        "n": 8,
        "loss": "squared",
        "delta": 0.3,
        "mechs": ("geometric", "discrete_gaussian", "gumbel"),
    },
    ("5", "b"): {
        "n": 7,
        "loss": "error_rate",
        "delta": 0.5,
        "mechs": ("geometric", "data_independent"),
    },
    # Fig. 7: (epsilon, delta) at a fixed distortion
    ("7", "a"): {
        "n": 8,
        "loss": "squared",
        "target": KADAM_FIG7A_MSE,
        "mechs": ("geometric", "discrete_gaussian", "gumbel"),
    },
    ("7", "b"): {
        "n": 7,
        "loss": "error_rate",
        "target": KADAM_FIG7B_ER,
        "mechs": ("geometric", "discrete_gaussian", "data_independent"),
    },
}
_LOSS_NAME: dict[Loss, str] = {"squared": "MSE", "error_rate": "error rate"}
_DEFAULT_EPSILONS = tuple(float(e) for e in np.round(np.linspace(0.25, 3.0, 12), 4))


def kadam_figure5(panel: str = "a", *, epsilons: Any = _DEFAULT_EPSILONS) -> CurveFigure:
    r"""Kadam et al., Fig. 5: expected distortion against ε at a fixed δ, the optimal modulo
    mechanism against standard ones.

    Panel "a": MSE (Definition 4, eq. (11)) at δ = 0.3, n = 8, against the geometric, discrete
    Gaussian and Gumbel (exponential) mechanisms. Panel "b": error rate (Definition 3,
    eq. (10)) at δ = 0.5, n = 7, against the geometric and the data-independent mechanism.
    The journal's caption of panel (b) is garbled ("δ = 0.3 and n = 8.1 plot (b) ... δ = 0.5
    and n = 7"); the arXiv version's caption reads δ = 0.5, n = 7, which is used here. Panel
    "b" also draws the paper's discrete count mechanism (Sadeghi et al. 2020, its reference
    [10]) as :func:`count_noise`: for each ε the largest η (error rate 1 − η) whose PDP leakage
    is at most δ.

    Parameters
    ----------
    panel : {"a", "b"}, default "a"
    epsilons : sequence of float, default 0.25, 0.5, ..., 3.0
        The ε grid: strictly increasing, each in (0, 30].

    Returns
    -------
    CurveFigure
        One panel: distortion against ε, one series per mechanism (NaN where no parameter of
        a competitor meets the leakage bound). ``findings`` holds, per series, the calibrated
        parameter (``"parameters"``), the sound PDP leakage at ε (``"pdp_delta"``, at most δ)
        and the exact (ε, δ)-DP δ (``"dp_delta"``) of the mechanism plotted.

    Raises
    ------
    ParameterError
        If ``panel`` or ``epsilons`` is invalid.

    Notes
    -----
    *Neighbourhood.* The captions give none; the count query's :math:`|Q(X) - Q(X')| = 1` is
    used, i.e. SD with :math:`\hat\mu = 1` in the paper's one-way reading of eq. (7)
    (:data:`KADAM_COUNT_SHIFTS`, ``reading="paper"``). The optimum is the printed MILP (13)
    with the loss of the panel (:func:`rainbowdp.noise.modulo.optimal_pmf`).

    *Competitors on [n].* Each competitor is brought onto [n] in two forms:

    ``modular``
        its noise taken modulo n + 1 (the geometric and discrete Gaussian laws wrapped; the
        Gumbel / exponential mechanism with the circular distance as score). It is then a
        modulo-addition PMF on [n] -- the class the MILP optimises over -- and is scored
        exactly like the optimum: PDP leakage of eq. (7) in the paper reading and distortion
        (9). The optimum can only be better, so these curves check the MILP.
    ``clamped`` (``truncated`` for the Gumbel mechanism)
        eq. (55) for the geometric and discrete Gaussian (the paper's own competitors, and
        Ghosh et al.'s range restriction); the exponential mechanism over the outputs [n]
        with score :math:`-|v - q|` (its own form, a truncated geometric law). These are
        mechanisms on the count path
        0..n (:func:`~rainbowdp.builders.count_path`); their PDP leakage is
        :func:`~rainbowdp.privacy.pdp_delta` over both orientations of every edge (for these
        symmetric laws the same as the one-way reading, by the reflection q -> n - q) and their
        distortion is the average over q (uniform) of :math:`E[(\tilde q - q)^2]` or
        :math:`\Pr[\tilde q \ne q]` -- the true error on the path, which for the clamped
        forms is not the :math:`\eta^2` of eq. (11).

    *Calibration at a fixed δ.* For each ε, each competitor takes the parameter (α, σ, the
    Gumbel scale β' or ρ) of least distortion among those whose PDP leakage at ε is at most δ,
    searched on a 240-point grid, refined by bisection and accepted with the sound leakage.
    """
    from ..noise import modulo

    panel = check_panel(panel)
    eps = check_epsilons(epsilons)
    cfg = _COMPARISON[("5", panel)]
    n, loss, delta = cfg["n"], cfg["loss"], cfg["delta"]
    shifts = KADAM_COUNT_SHIFTS
    series: dict = {}
    params: dict = {}
    pdp: dict = {}
    dp: dict = {}
    opt = [
        modulo.optimal_pmf(
            n,
            epsilon=float(e),
            delta=delta,
            shifts=list(shifts),
            loss=loss,
            reading="paper",
            formulation="printed",
        )
        for e in eps
    ]
    series[_OPTIMAL] = np.array([r.objective for r in opt])
    pdp[_OPTIMAL] = np.array([r.leakage for r in opt])
    dp[_OPTIMAL] = _dp_of(opt, eps, shifts)
    for mech in cfg["mechs"]:
        for form in _FORMS_OF[mech]:
            label = _label(mech, form)
            cands = _candidates(mech, form, n, loss)
            rows = np.array(
                [_calibrate_delta(mech, form, n, loss, float(e), delta, shifts, cands) for e in eps]
            )
            params[label], series[label], pdp[label], dp[label] = rows.T
    if panel == "b":  # the paper's discrete count mechanism [10]
        rows = np.array([_count_at_delta(n, float(e), delta, shifts, loss) for e in eps])
        params[_COUNT], series[_COUNT], pdp[_COUNT], dp[_COUNT] = rows.T
    what = _LOSS_NAME[loss]
    panels = [
        Panel(
            f"{what} at delta = {delta:g} (PDP, paper reading, M = {{1}}), n = {n}",
            "epsilon",
            what,
            eps,
            series,
        )
    ]
    names = {_label(m, f): _PARAMETER[m] for m in cfg["mechs"] for f in _FORMS_OF[m]}
    if panel == "b":
        names[_COUNT] = "eta"
    findings = {
        "parameter_names": names,
        "parameters": params,
        "pdp_delta": pdp,
        "dp_delta": dp,
        "optimal_pmfs": np.array([r.pmf for r in opt]),
    }
    parameters = {
        "n": n,
        "delta": delta,
        "loss": loss,
        "shifts": list(shifts),
        "reading": "paper",
        "formulation": "printed",
        **({"count_D": KADAM_COUNT_D} if panel == "b" else {}),
    }
    return curve_figure(
        f"Kadam et al., Fig. 5{panel}",
        parameters,
        panels,
        findings,
        suptitle=f"{what} vs epsilon at delta = {delta:g}, n = {n}",
    )


def kadam_figure7(panel: str = "a", *, epsilons: Any = _DEFAULT_EPSILONS) -> CurveFigure:
    r"""Kadam et al., Fig. 7: the (ε, δ) trade-off at a fixed distortion, the optimal modulo
    mechanism against standard ones.

    Panel "a": every mechanism has MSE (eq. (11)) 0.6101 (the caption's number,
    :data:`KADAM_FIG7A_MSE`), n = 8, against the geometric, discrete Gaussian and Gumbel
    mechanisms. Panel "b": every mechanism has error rate 0.3 (:data:`KADAM_FIG7B_ER`), n = 7,
    against the geometric, the discrete Gaussian (named in the text) and the data-independent
    mechanism of the arXiv caption, :math:`f(0) = 1 - \rho`, :math:`f(\eta) = \rho / n`, and the
    discrete count mechanism of the caption (Sadeghi et al. 2020, reference [10];
    :func:`count_noise`) with η = 0.7 (error rate 0.3) and the α* of its Theorem 3 at each ε.

    Parameters
    ----------
    panel : {"a", "b"}, default "a"
    epsilons : sequence of float, default 0.25, 0.5, ..., 3.0
        Strictly increasing, each in (0, 30].

    Returns
    -------
    CurveFigure
        Two panels over ε: the PDP leakage δ (Definition 2, the paper's notion) and the exact
        (ε, δ)-DP δ (hockey stick) of each mechanism. ``findings["parameters"]`` holds each
        competitor's parameter, ``findings["distortion"]`` the distortion each mechanism
        reaches (the target, up to the root finder's and the solver's tolerances).

    Raises
    ------
    ParameterError
        If ``panel`` or ``epsilons`` is invalid.

    Notes
    -----
    The optimum is the min-δ MILP (15) with the distortion cap (15b) equal to the target
    (:func:`rainbowdp.noise.modulo.min_delta_pmf`), per ε; its DP δ is
    :func:`rainbowdp.noise.modulo.dp_delta` of the PMF found. Each competitor's parameter is the
    root of "distortion = target" (:func:`scipy.optimize.brentq`); the competitor is then fixed
    and its δ(ε) computed soundly. Forms, neighbourhood and distortions as in
    :func:`kadam_figure5`.
    """
    from ..noise import modulo

    panel = check_panel(panel)
    eps = check_epsilons(epsilons)
    cfg = _COMPARISON[("7", panel)]
    n, loss, target = cfg["n"], cfg["loss"], cfg["target"]
    shifts = KADAM_COUNT_SHIFTS
    pdp: dict = {}
    dp: dict = {}
    params: dict = {}
    reached: dict = {}
    opt = [
        modulo.min_delta_pmf(
            n,
            epsilon=float(e),
            max_distortion=target,
            shifts=list(shifts),
            loss=loss,
            reading="paper",
        )
        for e in eps
    ]
    pdp[_OPTIMAL] = np.array([r.delta for r in opt])
    dp[_OPTIMAL] = _dp_of(opt, eps, shifts)
    reached[_OPTIMAL] = np.array([r.objective for r in opt])
    for mech in cfg["mechs"]:
        for form in _FORMS_OF[mech]:
            label = _label(mech, form)
            p = _calibrate_distortion(mech, form, n, loss, target)
            params[label] = p
            if math.isnan(p):
                pdp[label] = dp[label] = np.full(eps.shape, math.nan)
                reached[label] = math.nan
                continue
            obj = competitor(mech, form, p, n)
            pdp[label], dp[label] = sound_deltas(obj, n, eps, shifts)
            reached[label] = distortion(obj, n, loss)
    if panel == "b":  # the paper's discrete count mechanism [10], error rate 1 - eta
        eta = 1.0 - target
        laws = [count_noise(eta, float(e), n) for e in eps]
        rows = np.array(
            [sound_deltas(f, n, np.array([e]), shifts) for f, e in zip(laws, eps, strict=True)]
        )
        pdp[_COUNT], dp[_COUNT] = rows[:, 0, 0], rows[:, 1, 0]
        params[_COUNT] = eta
        reached[_COUNT] = max(distortion(f, n, loss) for f in laws)
    what = _LOSS_NAME[loss]
    panels = [
        Panel("PDP leakage (Definition 2, paper reading)", "epsilon", "delta", eps, pdp, "line"),
        Panel("exact (epsilon, delta)-DP (hockey stick)", "epsilon", "delta", eps, dp, "line"),
    ]
    names = {_label(m, f): _PARAMETER[m] for m in cfg["mechs"] for f in _FORMS_OF[m]}
    if panel == "b":
        names[_COUNT] = "eta"
    findings = {
        "parameter_names": names,
        "parameters": params,
        "distortion": reached,
        "optimal_pmfs": np.array([r.pmf for r in opt]),
    }
    parameters = {
        "n": n,
        "loss": loss,
        "target": target,
        "shifts": list(shifts),
        "reading": "paper",
        "formulation": "printed (min-delta variant (15))",
        **({"count_D": KADAM_COUNT_D} if panel == "b" else {}),
    }
    return curve_figure(
        f"Kadam et al., Fig. 7{panel}",
        parameters,
        panels,
        findings,
        suptitle=f"(epsilon, delta) at {what} = {target:g}, n = {n}",
    )
