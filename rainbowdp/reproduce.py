r"""Figures of the source papers, as data plus a matplotlib Figure.

Kadam et al. (modulo-addition noise): Table 1 and Figs. 9, 10, 13 (:func:`kadam_table1`,
:func:`kadam_figure9`, ...), each a :class:`PMFFigure` of optimal PMFs computed by
:mod:`rainbowdp.noise.modulo`, with the printed values where the paper prints them.

Gu et al., Figs. 3-5: the optimal (log 1.2, δ)-DP mechanism on a line with five outputs and the
boundary condition of Section 5.3, for δ = 0, 10⁻³ and 10⁻². Each function returns a
:class:`LineFigure` holding the computed numbers, the values printed in the paper, and the
Figure drawn by :func:`rainbowdp.plot.plot_line_mechanism`.

The boundary vector is the printed (rounded) one, whose τ values are the printed ones; its last
entry is 0.5823, "1 minus all the other values" as the paper defines it (the printed 0.5822
makes the vector sum to 0.9999; see ``docs/errata.md``).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .exceptions import ParameterError
from .optimal import line_mechanism, tau

__all__ = [
    "GU_BOUNDARY",
    "GU_EPSILON",
    "KADAM_EQ59",
    "KADAM_TABLE1",
    "LineFigure",
    "PMFFigure",
    "figure_3",
    "figure_4",
    "figure_5",
    "kadam_figure9",
    "kadam_figure10",
    "kadam_figure13",
    "kadam_table1",
    "step_lengths",
]

#: Gu et al., Section 5.3: boundary condition of Figs. 3-5 (rounded as printed; last entry
#: 1 minus the others).
GU_BOUNDARY = (0.0005, 0.0081, 0.1364, 0.2727, 0.5823)
#: Gu et al., Section 5.3: ε = log 1.2.
GU_EPSILON = math.log(1.2)
#: τ printed in the captions of Figs. 3, 4 and 5.
_PRINTED_TAU = {0.0: (38, 22, 7, 1, 0), 1e-3: (25, 20, 7, 1, 0), 1e-2: (13, 12, 6, 1, 0)}


@dataclass(frozen=True)
class LineFigure:
    r"""Data of one line-mechanism figure.

    Attributes
    ----------
    name : str
        e.g. ``"Gu et al., Fig. 3"``.
    epsilon, delta : float
        Privacy parameters.
    boundary : tuple of float
        :math:`\vec m`, in rainbow order.
    variant : str
        Operator used ("corrected" or the printed "paper" one).
    t : numpy.ndarray
        Distances 0..n.
    probabilities : numpy.ndarray
        (n+1, q): row t is :math:`T^t(\vec m)`.
    tau : tuple of int
        Computed switch times :math:`\tau_k`.
    printed_tau : tuple of int
        τ printed in the paper's caption.
    figure : matplotlib.figure.Figure
        The drawing.
    """

    name: str
    epsilon: float
    delta: float
    boundary: tuple
    variant: str
    t: np.ndarray = field(repr=False)
    probabilities: np.ndarray = field(repr=False)
    tau: tuple
    printed_tau: tuple
    figure: Any = field(repr=False, compare=False)

    @property
    def matches_paper(self) -> bool:
        """Whether the computed τ equal the printed ones."""
        return self.tau == self.printed_tau


def _line_figure(number: int, delta: float, n: int, variant: str) -> LineFigure:
    from .plot import plot_line_mechanism

    m = np.array(GU_BOUNDARY)
    rows = line_mechanism(m, n, GU_EPSILON, delta, variant=variant)
    taus = tuple(int(v) for v in tau(m, GU_EPSILON, delta, variant=variant))
    fig = plot_line_mechanism(m, n, GU_EPSILON, delta, variant=variant)
    fig.axes[0].set_title(f"Gu et al., Fig. {number}: " + fig.axes[0].get_title(), fontsize=9)
    return LineFigure(
        name=f"Gu et al., Fig. {number}",
        epsilon=GU_EPSILON,
        delta=delta,
        boundary=GU_BOUNDARY,
        variant=variant,
        t=np.arange(n + 1),
        probabilities=rows,
        tau=taus,
        printed_tau=_PRINTED_TAU[delta],
        figure=fig,
    )


def figure_3(*, n: int = 45, variant: str = "corrected") -> LineFigure:
    r"""Gu et al., Fig. 3: the optimal (log 1.2, 0)-DP line mechanism (τ = 38, 22, 7, 1, 0).

    For δ = 0 both operators coincide.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> f = figure_3()
    >>> f.tau, f.matches_paper
    ((38, 22, 7, 1, 0), True)
    """
    return _line_figure(3, 0.0, n, variant)


def figure_4(*, n: int = 45, variant: str = "corrected") -> LineFigure:
    r"""Gu et al., Fig. 4: the optimal (log 1.2, 10⁻³)-DP line mechanism (τ = 25, 20, 7, 1, 0).

    ``variant="paper"`` draws the printed operator (4.3), which is only (ε, e^ε δ)-DP; both
    give the printed τ.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> figure_4().tau
    (25, 20, 7, 1, 0)
    """
    return _line_figure(4, 1e-3, n, variant)


def figure_5(*, n: int = 45, variant: str = "corrected") -> LineFigure:
    r"""Gu et al., Fig. 5: the optimal (log 1.2, 10⁻²)-DP line mechanism (τ = 13, 12, 6, 1, 0).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> figure_5(variant="paper").tau
    (13, 12, 6, 1, 0)
    """
    return _line_figure(5, 1e-2, n, variant)


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
    from .noise import modulo
    from .plot import plot_joint_pmf, plot_pmfs

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
