r"""Kadam et al., Table 1 and Figs. 9, 10, 13: optimal PMFs of :mod:`rainbowdp.noise.modulo`
(:class:`PMFFigure`), with the printed values where the paper prints them.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..exceptions import ParameterError
from ._style import finish

__all__ = [
    "KADAM_EQ59",
    "KADAM_TABLE1",
    "PMFFigure",
    "kadam_figure9",
    "kadam_figure10",
    "kadam_figure13",
    "kadam_table1",
    "step_lengths",
]

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
