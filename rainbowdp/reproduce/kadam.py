r"""Kadam et al., *Optimum noise mechanism for differentially private queries in discrete
finite sets*: Table 1 and Figs. 5-14, as data plus a Figure.

Table 1 and Figs. 9, 10, 13 (:func:`kadam_table1`, :func:`kadam_figure9`, ...) are each a
:class:`PMFFigure` of optimal PMFs computed by :mod:`rainbowdp.noise.modulo`, with the printed
values where the paper prints them. The comparison and sweep figures 5-8, 11, 12 and 14
(:func:`kadam_figure5` ... :func:`kadam_figure14`) are each a :class:`CurveFigure` of curves
(one :class:`Panel` per drawn axes) and findings. Fig. 6 shows that clamping raises the PDP
leakage of the discrete Gaussian but never the (ε, δ)-DP δ (post-processing); Fig. 14 runs on
synthetic data (:func:`synthetic_ami`), the paper's being private.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..exceptions import ParameterError
from ._style import finish, mathtext

# ------------------------------------------------------------------------------------ Kadam et al.
#: Kadam et al., Table 1 (n = 8, BD mu_bar = 3, epsilon = 1.5), columns by delta, as printed.
KADAM_TABLE1 = {
    0.0: (0.5432, 0.1212, 0.1212, 0.1212, 0.0270, 0.0270, 0.0270, 0.0060, 0.0060),
    0.1212: (0.5432, 0.1212, 0.1212, 0.1212, 0.0270, 0.0270, 0.0270, 0.0060, 0.0060),
    0.1238: (0.5548, 0.1238, 0.1238, 0.1238, 0.0276, 0.0276, 0.0062, 0.0062, 0.0062),
    0.1522: (0.5575, 0.1244, 0.1244, 0.1244, 0.0278, 0.0278, 0.0062, 0.0062, 0.0014),
}
#: Kadam et al., eq. (59): the 2-D optimum of Fig. 13a (n = 4, epsilon = 3, delta = 0), printed.
KADAM_EQ59 = (
    (0.6954, 0.0346, 0.0346, 0.0017, 0.0017),
    (0.0346, 0.0346, 0.0346, 0.0017, 0.0017),
    (0.0346, 0.0346, 0.0346, 0.0017, 0.0017),
    (0.0017, 0.0017, 0.0017, 0.0017, 0.0017),
    (0.0017, 0.0017, 0.0017, 0.0017, 0.0017),
)


@dataclass(frozen=True)
class PMFFigure:
    r"""Data of one optimal-PMF figure or table of Kadam et al.

    Attributes
    ----------
    name : str
        e.g. ``"Kadam et al., Table 1"``.
    parameters : dict
        n, ε, the shifts, the reading and the formulation.
    deltas : tuple of float
        One PMF per δ.
    pmfs : numpy.ndarray
        (len(deltas), n + 1), or (len(deltas), n + 1, n + 1) for a 2-D query.
    printed : numpy.ndarray or None
        The values printed in the paper, where it prints them (same shape as ``pmfs``).
    figure : matplotlib.figure.Figure
    """

    name: str
    parameters: dict
    deltas: tuple
    pmfs: np.ndarray = field(repr=False)
    printed: Any = field(repr=False)
    figure: Any = field(repr=False, compare=False)

    @property
    def matches_paper(self) -> bool | None:
        """Whether the computed PMFs equal the printed values to their 4 decimals (None if the
        paper prints none)."""
        if self.printed is None:
            return None
        return bool(np.all(np.abs(self.pmfs - np.asarray(self.printed)) <= 5e-5))


def step_lengths(pmf: Any, *, tol: float = 5e-5) -> tuple[int, ...]:
    """Lengths of the runs of equal masses (within ``tol``) of a 1-D PMF, from η = 0.

    Examples
    --------
    >>> step_lengths([0.5, 0.2, 0.2, 0.05, 0.05])
    (1, 2, 2)
    """
    f = np.asarray(pmf, dtype=float)
    runs = [1]
    for a, b in itertools.pairwise(f):
        if abs(a - b) <= tol:
            runs[-1] += 1
        else:
            runs.append(1)
    return tuple(runs)


def _kadam(
    name: str,
    n: int,
    epsilon: float,
    shifts: list,
    deltas: tuple,
    printed: Any,
    title: str,
) -> PMFFigure:
    from ..noise import modulo
    from ..plot import plot_joint_pmf, plot_pmfs

    pmfs = np.array(
        [
            modulo.optimal_pmf(
                n, epsilon=epsilon, delta=d, shifts=shifts, reading="paper", formulation="printed"
            ).pmf
            for d in deltas
        ]
    )
    if pmfs.ndim == 2:
        fig = plot_pmfs(pmfs, labels=[f"δ = {d:g}" for d in deltas])
    else:
        fig = plot_joint_pmf(pmfs[0])
    fig.axes[0].set_title(f"{name}: {title}", fontsize=9)
    finish(fig, restyle=pmfs.ndim == 2)
    return PMFFigure(
        name=name,
        parameters={
            "n": n,
            "epsilon": epsilon,
            "shifts": list(shifts),
            "reading": "paper",
            "formulation": "printed",
        },
        deltas=tuple(deltas),
        pmfs=pmfs,
        printed=None if printed is None else np.asarray(printed),
        figure=fig,
    )


def kadam_table1() -> PMFFigure:
    r"""Kadam et al., Table 1 (and Fig. 10b): the optimal PMF for n = 8, BD μ̄ = 3, ε = 1.5 at
    δ = 0, 0.1212, 0.1238, 0.1522, under the MILP (13) as printed.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> t = kadam_table1()
    >>> t.matches_paper, [step_lengths(f) for f in t.pmfs[1:]]
    (True, [(1, 3, 3, 2), (1, 3, 2, 3), (1, 3, 2, 2, 1)])
    """
    deltas = tuple(KADAM_TABLE1)
    return _kadam(
        "Kadam et al., Table 1",
        8,
        1.5,
        [1, 2, 3],
        deltas,
        [KADAM_TABLE1[d] for d in deltas],
        "n = 8, BD mu_bar = 3, eps = 1.5",
    )


def kadam_figure9(panel: str = "a", *, deltas: tuple = (0.0, 0.05, 0.1, 0.2)) -> PMFFigure:
    r"""Kadam et al., Fig. 9: optimal PMFs for the SD neighbourhood, n = 7, ε = 0.75, μ̂ = 3
    (panel "a", coprime with 8: every mass positive) or 2 (panel "b": zeros at odd η).

    The paper prints no values; the figure's claims (orders and zeros) are asserted in the
    tests.
    """
    if panel not in ("a", "b"):
        raise ParameterError(f"`panel` must be 'a' or 'b', got panel={panel!r}.")
    mu = 3 if panel == "a" else 2
    return _kadam(
        f"Kadam et al., Fig. 9{panel}",
        7,
        0.75,
        [mu],
        tuple(deltas),
        None,
        f"SD mu = {mu}, n = 7, eps = 0.75",
    )


def kadam_figure10(panel: str = "a") -> PMFFigure:
    r"""Kadam et al., Fig. 10: the BD staircase, n = 8, μ̄ = 3, ε = 1.5, at δ = 0 (panel "a")
    and at δ = 0.1212, 0.1238, 0.1522 (panel "b", step lengths (1,3,3,2), (1,3,2,3),
    (1,3,2,2,1) as the caption says)."""
    if panel not in ("a", "b"):
        raise ParameterError(f"`panel` must be 'a' or 'b', got panel={panel!r}.")
    deltas = (0.0,) if panel == "a" else (0.1212, 0.1238, 0.1522)
    return _kadam(
        f"Kadam et al., Fig. 10{panel}",
        8,
        1.5,
        [1, 2, 3],
        deltas,
        [KADAM_TABLE1[d] for d in deltas],
        "BD mu_bar = 3, n = 8, eps = 1.5",
    )


def kadam_figure13(panel: str = "a") -> PMFFigure:
    r"""Kadam et al., Fig. 13: optimal joint PMFs of a 2-D query at δ = 0, ε = 3.

    Panel "a": n = 4, BD M = {0, 1, 2}² minus (0, 0), printed as eq. (59) in the arXiv version.
    Panel "b": n = 6, M = {1, 3} × {2, 5}; the second largest masses sit at the four shifts.
    """
    if panel not in ("a", "b"):
        raise ParameterError(f"`panel` must be 'a' or 'b', got panel={panel!r}.")
    if panel == "a":
        shifts = [(a, b) for a in range(3) for b in range(3) if (a, b) != (0, 0)]
        return _kadam(
            "Kadam et al., Fig. 13a", 4, 3.0, shifts, (0.0,), [KADAM_EQ59], "2-D BD, n = 4"
        )
    shifts = [(1, 2), (1, 5), (3, 2), (3, 5)]
    return _kadam("Kadam et al., Fig. 13b", 6, 3.0, shifts, (0.0,), None, "2-D, n = 6")


# ------------------------------------------------------------ Kadam et al., Figs. 5-8, 11, 12, 14
#: Kadam et al., Fig. 6 caption (and Fig. 8): n = 8, geometric alpha = 0.7, sigma^2 = 3.38.
KADAM_FIG6 = {"n": 8, "alpha": 0.7, "sigma2": 3.38}
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


@dataclass(frozen=True)
class Panel:
    r"""One panel of a :class:`CurveFigure`: curves (or bars) over a common x grid.

    Attributes
    ----------
    title, xlabel, ylabel : str
    x : numpy.ndarray
        The grid (ε, δ, μ̄ or η).
    series : dict
        label -> numpy.ndarray of the values at ``x`` (NaN where undefined, e.g. a competitor
        that cannot reach the required distortion).
    kind : {"line", "step", "bars"}
        How the panel is drawn.
    """

    title: str
    xlabel: str
    ylabel: str
    x: np.ndarray = field(repr=False)
    series: dict = field(repr=False)
    kind: str = "line"


@dataclass(frozen=True)
class CurveFigure:
    r"""Data of one comparison or sweep figure of Kadam et al. (Figs. 5-8, 11, 12, 14).

    Attributes
    ----------
    name : str
        e.g. ``"Kadam et al., Fig. 6"``.
    parameters : dict
        The fixed parameters (n, ε or δ, the shifts, the reading, ...), with the choices made
        where the paper is silent.
    panels : tuple of Panel
        The computed curves, one Panel per drawn axes.
    findings : dict
        Numbers derived from the curves (calibrated competitor parameters, exact DP δ, ...).
    figure : matplotlib.figure.Figure
    """

    name: str
    parameters: dict
    panels: tuple
    findings: dict = field(repr=False)
    figure: Any = field(repr=False, compare=False)

    def series(self, label: str, panel: int = 0) -> np.ndarray:
        """The values of one series of one panel (KeyError naming the labels if absent)."""
        p = self.panels[panel]
        if label not in p.series:
            raise KeyError(f"no series {label!r} in panel {panel}; have {list(p.series)}")
        return p.series[label]

    def to_dict(self) -> dict:
        """Plain lists and numbers (NaN kept as float NaN), e.g. for JSON."""
        return {
            "name": self.name,
            "parameters": _plain(self.parameters),
            "panels": [
                {
                    "title": p.title,
                    "xlabel": p.xlabel,
                    "ylabel": p.ylabel,
                    "kind": p.kind,
                    "x": _plain(p.x),
                    "series": _plain(p.series),
                }
                for p in self.panels
            ],
            "findings": _plain(self.findings),
        }


def _plain(x: Any) -> Any:
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_plain(v) for v in x]
    if isinstance(x, np.ndarray):
        return _plain(x.tolist())
    if isinstance(x, np.generic):
        return x.item()
    return x


# ------------------------------------------------------------------------------- validation
def check_panel(panel: Any, allowed: tuple[str, ...] = ("a", "b")) -> str:
    """``panel`` if it is one of ``allowed``, else ParameterError."""
    if not isinstance(panel, str) or panel not in allowed:
        raise ParameterError(f"`panel` must be one of {allowed}, got panel={panel!r}.")
    return panel


def check_grid(
    values: Any,
    name: str,
    *,
    low: float,
    high: float,
    low_open: bool = False,
    integer: bool = False,
) -> np.ndarray:
    """A non-empty, strictly increasing 1-D grid of finite numbers in [low, high] (or
    (low, high] with ``low_open``); integers if ``integer``."""
    from .._validation import real_array

    if isinstance(values, str | bytes):
        raise ParameterError(f"`{name}` must be a sequence of numbers, got {name}={values!r}.")
    if isinstance(values, range):
        values = list(values)
    arr = real_array(values, name)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    bracket = "(" if low_open else "["
    if (
        arr.ndim != 1
        or arr.size == 0
        or not np.all(np.isfinite(arr))
        or np.any(arr > high)
        or np.any(arr <= low if low_open else arr < low)
    ):
        raise ParameterError(
            f"`{name}` must be a non-empty 1-D sequence of numbers in {bracket}{low:g}, {high:g}], "
            f"got {name}={values!r}."
        )
    if integer and np.any(arr != np.round(arr)):
        raise ParameterError(f"`{name}` must hold integers, got {name}={values!r}.")
    if np.any(np.diff(arr) <= 0):
        raise ParameterError(f"`{name}` must be strictly increasing, got {name}={values!r}.")
    return arr


def check_epsilons(values: Any, name: str = "epsilons") -> np.ndarray:
    return check_grid(values, name, low=0.0, high=30.0, low_open=True)


def check_deltas(values: Any, name: str = "deltas") -> np.ndarray:
    return check_grid(values, name, low=0.0, high=1.0)


# ------------------------------------------------------------------------------- competitors
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


def _build(mech: str, form: str, p: float, n: int) -> np.ndarray:
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


def _line_distortion(n: int, loss: str) -> np.ndarray:
    """(n + 1, n + 1) distortion of answering v to q on the path: (v - q)^2 or 1[v != q]."""
    q = np.arange(n + 1)
    e = q[None, :] - q[:, None]
    return (e * e).astype(float) if loss == "mse" else (e != 0).astype(float)


def _distortion(obj: np.ndarray, n: int, loss: str) -> float:
    """Expected distortion: eq. (9) for a modulo PMF, the average over q (uniform) of
    E[rho(q_tilde - q)] for rows on the path."""
    from ..noise import modulo

    if obj.ndim == 1:
        return float(modulo.distortion(n, loss) @ obj)
    return float((obj * _line_distortion(n, loss)).sum() / (n + 1))


def _fast_pdp(stack: np.ndarray, x: float, shifts: tuple) -> np.ndarray:
    """Float PDP leakage of a stack of competitors (used for searching only; the reported
    leakages are the sound ones of :func:`_sound`)."""
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


def _sound(obj: np.ndarray, n: int, epsilons: np.ndarray, shifts: tuple) -> tuple:
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


def _candidates(mech: str, form: str, n: int, loss: str) -> tuple:
    """A competitor's search grid, the competitor at each grid point (stacked) and its
    distortion there (computed once per figure, reused for every ε)."""
    grid = _grid_of(mech, n)
    objs = np.stack([_build(mech, form, float(p), n) for p in grid])
    dist = np.array([_distortion(o, n, loss) for o in objs])
    return grid, objs, dist


def _calibrate_delta(
    mech: str,
    form: str,
    n: int,
    loss: str,
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
            ok = _fast_pdp(_build(mech, form, mid, n)[None], x, shifts)[0] <= delta
            lo, hi = (lo, mid) if ok else (mid, hi)
    for p in [hi, *grid[i + 1 :].tolist()]:
        obj = _build(mech, form, float(p), n)
        pdp, dp = _sound(obj, n, np.array([epsilon]), shifts)
        if pdp[0] <= delta:
            return float(p), _distortion(obj, n, loss), float(pdp[0]), float(dp[0])
    return math.nan, math.nan, math.nan, math.nan  # pragma: no cover - uniform end is feasible


def _calibrate_distortion(mech: str, form: str, n: int, loss: str, target: float) -> float:
    """The parameter at which a competitor's distortion equals ``target`` (brentq on the
    parameter; NaN if the target is out of the competitor's range)."""
    from scipy.optimize import brentq

    lo, hi = _bounds_of(mech, n)

    def gap(p: float) -> float:
        return _distortion(_build(mech, form, p, n), n, loss) - target

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
    n: int, epsilon: float, delta: float, shifts: tuple, loss: str
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
        pdp, dp = _sound(f, n, np.array([epsilon]), shifts)
        if pdp[0] <= delta:
            return float(eta), _distortion(f, n, loss), float(pdp[0]), float(dp[0])
    return math.nan, math.nan, math.nan, math.nan  # pragma: no cover - eta = 0 is feasible


def _label(mech: str, form: str) -> str:
    return _NAMES[mech] if mech == "data_independent" else f"{_NAMES[mech]}, {form}"


def _curve_figure(
    name: str, parameters: dict, panels: list[Panel], findings: dict, *, suptitle: str
) -> CurveFigure:
    from matplotlib.figure import Figure

    from ..plot import plot_curves, plot_pmfs

    k = len(panels)
    fig = Figure(figsize=(5.6 * k, 3.8), layout="constrained")
    axes = fig.subplots(1, k, squeeze=False)[0]
    for ax, p in zip(axes, panels, strict=True):
        if p.kind == "bars":
            labels = list(p.series)
            plot_pmfs(np.array([p.series[s] for s in labels]), labels=labels, ax=ax)
        else:
            plot_curves(p.x, p.series, ax=ax, step=p.kind == "step")
        ax.set_xlabel(p.xlabel)
        ax.set_ylabel(p.ylabel)
        ax.set_title(p.title, fontsize=8)
    fig.suptitle(mathtext(f"{name}: {suptitle}"), fontsize=9)
    finish(fig)
    return CurveFigure(name, parameters, tuple(panels), findings, fig)


_COMPARISON = {
    # Fig. 5: distortion against epsilon at a fixed delta
    ("5", "a"): {
        "n": 8,
        "loss": "mse",
        "delta": 0.3,
        "mechs": ("geometric", "discrete_gaussian", "gumbel"),
    },
    ("5", "b"): {"n": 7, "loss": "er", "delta": 0.5, "mechs": ("geometric", "data_independent")},
    # Fig. 7: (epsilon, delta) at a fixed distortion
    ("7", "a"): {
        "n": 8,
        "loss": "mse",
        "target": KADAM_FIG7A_MSE,
        "mechs": ("geometric", "discrete_gaussian", "gumbel"),
    },
    ("7", "b"): {
        "n": 7,
        "loss": "er",
        "target": KADAM_FIG7B_ER,
        "mechs": ("geometric", "discrete_gaussian", "data_independent"),
    },
}
_LOSS_NAME = {"mse": "MSE", "er": "error rate"}
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
    return _curve_figure(
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
            obj = _build(mech, form, p, n)
            pdp[label], dp[label] = _sound(obj, n, eps, shifts)
            reached[label] = _distortion(obj, n, loss)
    if panel == "b":  # the paper's discrete count mechanism [10], error rate 1 - eta
        eta = 1.0 - target
        laws = [count_noise(eta, float(e), n) for e in eps]
        rows = np.array(
            [_sound(f, n, np.array([e]), shifts) for f, e in zip(laws, eps, strict=True)]
        )
        pdp[_COUNT], dp[_COUNT] = rows[:, 0, 0], rows[:, 1, 0]
        params[_COUNT] = eta
        reached[_COUNT] = max(_distortion(f, n, loss) for f in laws)
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
    return _curve_figure(
        f"Kadam et al., Fig. 7{panel}",
        parameters,
        panels,
        findings,
        suptitle=f"(epsilon, delta) at {what} = {target:g}, n = {n}",
    )


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
    The DP δ is Canonne-Kamath-Steinke's Theorem 7 (:meth:`DiscreteGaussian.delta_at
    <rainbowdp.noise.DiscreteGaussian.delta_at>`), exact for Δ = 1.
    """
    from ..noise import DiscreteGaussianLaw
    from ..noise.baselines import DiscreteGaussian

    law = DiscreteGaussianLaw(sigma)
    first = np.floor(eps * sigma * sigma - 0.5).astype(np.int64) + 1
    pdp = law.sf(first)
    dp = np.array([DiscreteGaussian(sigma=sigma).delta_at(float(e)) for e in eps])
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
        mse[f"{name}, clamped"] = _distortion(rows, n, "mse")
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
    return _curve_figure(
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
        n, epsilon=eps, delta=0.0, shifts=shifts, loss="er", reading="paper", formulation="printed"
    ).pmf
    pmfs = {
        "optimal (eps = 1, delta = 0)": opt,
        f"geometric, alpha = {alpha:g} (mod {n + 1})": _build("geometric", "modular", alpha, n),
        f"discrete Gaussian, sigma^2 = {s2:g} (mod {n + 1})": _build(
            "discrete_gaussian", "modular", math.sqrt(s2), n
        ),
    }
    from ..noise import DiscreteGaussianLaw, GeometricLaw

    eta = np.arange(n + 1)
    findings = {
        "f0": {k: float(v[0]) for k, v in pmfs.items()},
        "mse": {k: _distortion(v, n, "mse") for k, v in pmfs.items()},
        "error_rate": {k: _distortion(v, n, "er") for k, v in pmfs.items()},
        "pdp_delta": {k: float(_sound(v, n, np.array([eps]), (1,))[0][0]) for k, v in pmfs.items()},
        "dp_delta": {k: float(_sound(v, n, np.array([eps]), (1,))[1][0]) for k, v in pmfs.items()},
        "laws": {
            "geometric": GeometricLaw(alpha).pmf(eta),
            "discrete Gaussian": DiscreteGaussianLaw(math.sqrt(s2)).pmf(eta),
        },
        "variance": {"geometric": 2 * alpha / (1 - alpha) ** 2, "discrete Gaussian": s2},
        "optimal_mse_pmf": modulo.optimal_pmf(
            n, epsilon=eps, delta=0.0, shifts=shifts, loss="mse", reading="paper"
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
    return _curve_figure(
        "Kadam et al., Fig. 8",
        parameters,
        panels,
        findings,
        suptitle=f"PMFs, n = {n}, eps = 1, delta = 0",
    )


def _error_rate(n: int, epsilon: float, delta: float, shifts: list) -> float:
    from ..noise import modulo

    return modulo.optimal_pmf(
        n,
        epsilon=epsilon,
        delta=delta,
        shifts=shifts,
        loss="er",
        reading="paper",
        formulation="printed",
    ).objective


def kadam_figure11(
    panel: str = "a",
    *,
    mu_bars: Any = range(1, 10),
    epsilons: Any = (0.5, 1.0, 1.5, 2.0),
    deltas: Any = (0.0, 0.1, 0.2, 0.3),
) -> CurveFigure:
    r"""Kadam et al., Fig. 11: the optimal error rate against μ̄ for the BD neighbourhood
    :math:`M = \{1, \dots, \bar\mu\}`, n = 9 (printed MILP (13), paper reading).

    Panel "a": δ = 0.2, one curve per ε in ``epsilons``; panel "b": ε = 2, one curve per δ in
    ``deltas`` (the caption fixes only δ, resp. ε; the other values are choices).

    Parameters
    ----------
    panel : {"a", "b"}, default "a"
    mu_bars : sequence of int, default 1..9
        Strictly increasing, each in 1..9.
    epsilons : sequence of float, default (0.5, 1, 1.5, 2)
        Panel "a" only; each in (0, 30].
    deltas : sequence of float, default (0, 0.1, 0.2, 0.3)
        Panel "b" only; each in [0, 1].

    Returns
    -------
    CurveFigure

    Raises
    ------
    ParameterError
        If an argument is invalid.

    Notes
    -----
    A larger μ̄ adds constraints to (13), so the error rate cannot decrease with μ̄; a larger ε
    or δ relaxes them, so it cannot increase with either.
    """
    panel = check_panel(panel)
    mus = check_grid(mu_bars, "mu_bars", low=1, high=9, integer=True).astype(int)
    eps = check_epsilons(epsilons)
    dls = check_deltas(deltas)
    n = 9
    series: dict = {}
    if panel == "a":
        for e in eps:
            series[f"eps = {e:g}"] = np.array(
                [_error_rate(n, float(e), 0.2, list(range(1, m + 1))) for m in mus]
            )
        fixed = {"delta": 0.2, "epsilons": eps.tolist()}
        sub = "delta = 0.2"
    else:
        for d in dls:
            series[f"delta = {d:g}"] = np.array(
                [_error_rate(n, 2.0, float(d), list(range(1, m + 1))) for m in mus]
            )
        fixed = {"epsilon": 2.0, "deltas": dls.tolist()}
        sub = "epsilon = 2"
    panels = [Panel(f"BD, n = {n}, {sub}", "mu_bar", "error rate", mus, series, "line")]
    parameters = {"n": n, **fixed, "reading": "paper", "formulation": "printed"}
    return _curve_figure(
        f"Kadam et al., Fig. 11{panel}",
        parameters,
        panels,
        {},
        suptitle=f"error rate vs mu_bar, {sub}",
    )


def _sd_breakpoints(cycle: int, eps: float) -> list[tuple[float, float]]:
    r"""Theorem 2's flat regions :math:`[\underline\delta_k, e^\epsilon\underline\delta_k]`
    (19c) on a cycle of ``cycle`` values (m = cycle − 1), k = 0..m."""
    m = cycle - 1
    out = []
    for k in range(m + 1):
        low = math.exp(-(m - k) * eps) * -math.expm1(-eps) / -math.expm1(-(m - k + 1) * eps)
        out.append((low, min(1.0, math.exp(eps) * low)))
    return out


def kadam_figure12(
    panel: str = "a",
    *,
    deltas: Any = None,
    epsilons: Any = (0.5, 1.0, 1.5),
) -> CurveFigure:
    r"""Kadam et al., Fig. 12: the optimal error rate ρ against δ, n = 9: panel "a" SD
    :math:`\hat\mu = 3`, panel "b" BD :math:`\bar\mu = 3` (printed MILP (13), paper reading).

    The caption gives no ε; one curve per ε in ``epsilons``. ρ is piecewise linear in δ, flat
    on :math:`[\underline\delta_k, e^\epsilon\underline\delta_k]` and linear in between
    (Theorem 2, eq. (19c); Theorem 3 for BD). Panel "a" adds the closed form of Theorem 2
    (:func:`rainbowdp.noise.modulo.sd_pmf`) as ``"closed form, eps = ..."`` series and its
    breakpoints in ``findings["breakpoints"]``.

    Parameters
    ----------
    panel : {"a", "b"}, default "a"
    deltas : sequence of float, optional
        Default 0, 0.025, ..., 1; strictly increasing, each in [0, 1].
    epsilons : sequence of float, default (0.5, 1, 1.5)
        Each in (0, 30].

    Returns
    -------
    CurveFigure

    Raises
    ------
    ParameterError
        If an argument is invalid.
    """
    from ..noise import modulo

    panel = check_panel(panel)
    if deltas is None:
        deltas = np.round(np.linspace(0.0, 1.0, 41), 4)
    dls = check_deltas(deltas)
    eps = check_epsilons(epsilons)
    n = 9
    shifts = [3] if panel == "a" else [1, 2, 3]
    series: dict = {}
    findings: dict = {}
    for e in eps:
        series[f"eps = {e:g}"] = np.array([_error_rate(n, float(e), float(d), shifts) for d in dls])
    if panel == "a":
        for e in eps:
            series[f"closed form, eps = {e:g}"] = np.array(
                [1.0 - modulo.sd_pmf(n, epsilon=float(e), delta=float(d), mu=3)[0] for d in dls]
            )
        cycle = (n + 1) // math.gcd(n + 1, 3)
        findings["breakpoints"] = {f"eps = {e:g}": _sd_breakpoints(cycle, float(e)) for e in eps}
    kind = "SD mu_hat = 3" if panel == "a" else "BD mu_bar = 3"
    panels = [Panel(f"{kind}, n = {n}", "delta", "error rate", dls, series, "line")]
    parameters = {
        "n": n,
        "shifts": shifts,
        "epsilons": eps.tolist(),
        "reading": "paper",
        "formulation": "printed",
    }
    return _curve_figure(
        f"Kadam et al., Fig. 12{panel}",
        parameters,
        panels,
        findings,
        suptitle=f"error rate vs delta, {kind}",
    )


def synthetic_ami(
    *, seed: int = 0, households: int = 1416, circuits: int = 12, days: int = 30
) -> list[np.ndarray]:
    r"""A seeded **synthetic** stand-in for the AMI smart-meter table of Kadam et al., Fig. 14.

    The paper's data (1416 houses on 12 distribution circuits in California) is not public.
    This draws ``households`` houses split at random over ``circuits`` circuits (at least one
    each), each with a log-normal base daily consumption (median 18 kWh, log-sd 0.3) times a
    circuit factor (log-sd 0.25), a seasonal factor (1 ± 0.25) and a daily log-normal factor
    (log-sd 0.15). The spreads were chosen so that, quantised to 11 levels, the shift set of
    :func:`kadam_figure14` has the size of the paper's; nothing else is fitted to the paper.

    Returns
    -------
    list of numpy.ndarray
        One dataset per (circuit, day): the daily consumptions (kWh) of the circuit's houses.

    Raises
    ------
    ParameterError
        If an argument is not a positive integer (``seed`` >= 0) or ``households`` <
        ``circuits``.

    Examples
    --------
    >>> data = synthetic_ami(households=30, circuits=3, days=2)
    >>> len(data), sum(len(x) for x in data[::2])
    (6, 30)
    """
    from .._validation import check_int

    seed = check_int(seed, "seed", minimum=0)
    circuits = check_int(circuits, "circuits", minimum=1, maximum=10_000)
    households = check_int(households, "households", minimum=circuits, maximum=10**6)
    days = check_int(days, "days", minimum=1, maximum=10_000)
    rng = np.random.default_rng(seed)
    sizes = rng.multinomial(households - circuits, np.full(circuits, 1.0 / circuits)) + 1
    factor = rng.lognormal(0.0, 0.25, size=circuits)
    season = 1.0 + 0.25 * np.sin(2 * np.pi * np.arange(days) / max(days, 2))
    data = []
    for c, size in enumerate(sizes.tolist()):
        base = rng.lognormal(math.log(18.0), 0.3, size=size) * factor[c]
        for d in range(days):
            data.append(base * season[d] * rng.lognormal(0.0, 0.15, size=size))
    return data


def _observed_shifts(data: list[np.ndarray], levels: int) -> tuple[list[int], np.ndarray]:
    r"""The quantised peak query on every dataset and the shift set M of its neighbours.

    Q(X) = the peak (largest) house consumption of the dataset, quantised uniformly to
    ``levels`` levels on [0, largest peak]; X' = X without one house. Only removing the
    peak house changes the peak (to the second largest), so M is the set of non-zero
    :math:`|Q(X) - Q(X')|` over datasets of at least two houses.
    """
    top = max(float(x.max()) for x in data)

    def level(v: float) -> int:
        return min(int(levels * v / top), levels - 1)

    queries = np.array([level(float(x.max())) for x in data])
    shifts = set()
    for x in data:
        if x.size >= 2:
            first, second = np.sort(x)[-2:][::-1]
            mu = abs(level(float(first)) - level(float(second)))
            if mu:
                shifts.add(mu)
    return sorted(shifts), queries


def kadam_figure14(
    *,
    levels: Any = (11, 17),
    epsilon: float = 1.0,
    delta: float = 0.0,
    seed: int = 0,
) -> CurveFigure:
    r"""Kadam et al., Fig. 14, on **synthetic** data: optimal PMFs for the shift set M observed
    on a smart-meter table quantised to 11 and 17 levels (n = 10, 16).

    The paper's AMI data (1416 houses, 12 circuits, California) is not public, so the same
    pipeline runs on :func:`synthetic_ami` (seeded): the query is the peak house consumption of
    a circuit on a day, quantised to L levels; neighbouring datasets differ by one house
    (removed); M is the set of observed :math:`|Q(X) - Q(X')| \ne 0` (the caption's
    :math:`\tilde\mu`); the optimal error-rate PMF is the printed MILP (13) for M, paper reading.
    The caption gives neither ε nor δ (defaults ε = 1, δ = 0 here). The paper observed
    M = {1, 2, 3, 4} (n = 10) and {1, 3, 5, 6} (n = 16) on its data; the synthetic M differ.

    Parameters
    ----------
    levels : sequence of int, default (11, 17)
        Quantisation levels (n = L − 1), each in 2..64, strictly increasing.
    epsilon : float, default 1.0
        ε > 0.
    delta : float, default 0.0
    seed : int, default 0
        Seed of :func:`synthetic_ami`.

    Returns
    -------
    CurveFigure
        One bar panel per level count; ``findings["shifts"]`` holds each M,
        ``findings["pmfs"]`` each optimal PMF.

    Raises
    ------
    ParameterError
        If an argument is invalid.

    Notes
    -----
    The caption's observation, :math:`f^\star(\eta)` larger on :math:`M \cup \{0\}` than
    elsewhere, follows at δ = 0 from the constraints :math:`f(0) \le e^\epsilon f(\mu)`: the
    optimum is :math:`f^\star(\eta) \propto e^{-\epsilon\,d(\eta)}` with d(η) the least number
    of steps in M from 0 to η modulo n + 1, so d = 1 exactly on M.
    """
    from .._validation import check_delta, check_epsilon
    from ..noise import modulo

    ls = check_grid(levels, "levels", low=2, high=64, integer=True).astype(int)
    eps = check_epsilon(epsilon, finite_exp=True)
    if eps <= 0 or eps > 30:
        raise ParameterError(f"`epsilon` must be in (0, 30], got epsilon={epsilon!r}.")
    dlt = check_delta(delta)
    data = synthetic_ami(seed=seed)
    panels = []
    found: dict = {"shifts": {}, "pmfs": {}, "queries": {}}
    for L in ls.tolist():
        n = L - 1
        shifts, queries = _observed_shifts(data, L)
        if not shifts:  # pragma: no cover - the default data always shows some shift
            raise ParameterError(f"no neighbouring datasets differ at levels={L}.")
        f = modulo.optimal_pmf(
            n,
            epsilon=eps,
            delta=dlt,
            shifts=shifts,
            loss="er",
            reading="paper",
            formulation="printed",
        ).pmf
        found["shifts"][f"n = {n}"] = shifts
        found["pmfs"][f"n = {n}"] = f
        found["queries"][f"n = {n}"] = np.bincount(queries, minlength=L)
        panels.append(
            Panel(
                f"SYNTHETIC data, {L} levels (n = {n}), M = {shifts}",
                "noise eta",
                "f*(eta)",
                np.arange(n + 1),
                {f"optimal, M = {shifts}": f},
                "bars",
            )
        )
    parameters = {
        "levels": ls.tolist(),
        "epsilon": eps,
        "delta": dlt,
        "seed": seed,
        "data": "synthetic (rainbowdp.reproduce.synthetic_ami); the paper's AMI data is not public",
        "query": "peak house consumption per circuit and day, quantised",
        "reading": "paper",
        "formulation": "printed",
    }
    return _curve_figure(
        "Kadam et al., Fig. 14 (synthetic data)",
        parameters,
        panels,
        found,
        suptitle=f"SYNTHETIC smart-meter data, eps = {eps:g}, delta = {dlt:g}",
    )
