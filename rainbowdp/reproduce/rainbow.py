r"""Gu et al., *Generalized rainbow differential privacy*: Figs. 3-5 (as data plus a Figure) and
Example 1.

The optimal (log 1.2, δ)-DP mechanism on a line with five outputs and the boundary condition of
Section 5.3, for δ = 0, 10⁻³ and 10⁻². Each function returns a :class:`LineFigure` holding the
computed numbers, the values printed in the paper, and the Figure drawn by
:func:`rainbowdp.plot.plot_line_mechanism`.

The boundary vector is the printed (rounded) one, whose τ values are the printed ones; its last
entry is 0.5823, "1 minus all the other values" as the paper defines it (the printed 0.5822
makes the vector sum to 0.9999; see ``docs/errata.md``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ..optimal import line_mechanism, tau
from ._declare import TableResult, TargetSpec

__all__ = [
    "GU_BOUNDARY",
    "GU_EPSILON",
    "PAPER",
    "TARGETS",
    "LineFigure",
    "figure_3",
    "figure_4",
    "figure_5",
    "gu_example1",
]

#: The operator T of Figs. 3-5: the corrected one, or the printed (4.3).
Variant = Literal["corrected", "paper"]

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


#: δ of Figs. 3-5 as Gu et al. print it (Section 5.3).
_DELTA_TEXT = {0.0: "0", 1e-3: "10^{-3}", 1e-2: "0.01"}


def _line_figure(number: int, delta: float, n: int, variant: Variant) -> LineFigure:
    from ..plot import plot_line_mechanism

    m = np.array(GU_BOUNDARY)
    rows = line_mechanism(m, n, GU_EPSILON, delta, variant=variant)
    taus = tuple(int(v) for v in tau(m, GU_EPSILON, delta, variant=variant))
    fig = plot_line_mechanism(m, n, GU_EPSILON, delta, variant=variant)
    # the parameters as the paper prints them (ε = log 1.2; δ = 0, 10^-3, 0.01), not as
    # rounded-up floats: the float nearest 10^-3 is above it, and rounds up to 0.001001
    shown = _DELTA_TEXT.get(delta, f"{delta:g}")
    fig.axes[0].set_title(
        rf"Gu et al., Fig. {number}: optimal $(\varepsilon, \delta) = (\log 1.2, {shown})$ line "
        "mechanism" + (" (printed operator)" if variant == "paper" else ""),
        fontsize=9,
    )
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


def figure_3(*, n: int = 45, variant: Variant = "corrected") -> LineFigure:
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


def figure_4(*, n: int = 45, variant: Variant = "corrected") -> LineFigure:
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


def figure_5(*, n: int = 45, variant: Variant = "corrected") -> LineFigure:
    r"""Gu et al., Fig. 5: the optimal (log 1.2, 10⁻²)-DP line mechanism (τ = 13, 12, 6, 1, 0).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> figure_5(variant="paper").tau
    (13, 12, 6, 1, 0)
    """
    return _line_figure(5, 1e-2, n, variant)


def gu_example1() -> TableResult:
    r"""Gu et al., Example 1: two valid mechanisms and no optimum (``docs/example1.md``).

    The cycle d1 ~ ... ~ d5 ~ d1, e^ε = 2, δ = 0, boundary rows M(d1) = (0.2, 0.1, 0.7),
    M(d4) = (0.4, 0.1, 0.5) and M(d5) = (0.3, 0.1, 0.6) (the example leaves M(d5) open,
    ``docs/errata.md`` item 4). M_3 is built from the operator T (Lemma 1) applied to the
    boundary rows, as the example argues; every verdict is :func:`rainbowdp.verify`'s.

    Examples
    --------
    >>> ex = gu_example1()
    >>> ex.values["M3"]["is_private"], ex.values["optimum_refused"]
    (False, True)
    """
    from .. import builders
    from ..exceptions import NoOptimalMechanismError
    from ..mechanism import Mechanism
    from ..optimal import T, optimal_mechanism
    from ..privacy import verify

    G = builders.cycle([(1, 2, 3)] * 4 + [(1, 3, 2)])
    eps = math.log(2.0)
    d1, d4, d5 = (0.2, 0.1, 0.7), (0.4, 0.1, 0.5), (0.3, 0.1, 0.6)

    def report(d2: Any, d3: Any) -> dict:
        r = verify(Mechanism(G, [d1, d2, d3, d4, d5]), epsilon=eps)
        return {
            "rows": [list(map(float, d2)), list(map(float, d3))],
            "is_private": bool(r.is_private),
            "delta_required": float(r.delta_required),
            "worst_edge": None if r.worst_edge is None else [int(v) for v in r.worst_edge],
            "witness": [int(v) for v in r.witness],
        }

    t1, t4 = T(d1, eps, 0.0), T(d4, eps, 0.0)
    try:
        optimal_mechanism(G, epsilon=eps, boundary={0: d1, 3: d4, 4: d5})
        refused, reason = False, ""
    except NoOptimalMechanismError as exc:
        refused, reason = True, str(exc)
    return TableResult(
        "Gu et al., Example 1",
        {
            "epsilon": eps,
            "boundary": {"d1": d1, "d4": d4, "d5": d5},
            "M1": report((0.4, 0.2, 0.4), (0.4, 0.2, 0.4)),
            "M2": report((0.4, 0.1, 0.5), (0.7, 0.05, 0.25)),
            "T(M(d1))": t1,
            "T(M(d4))": t4,
            "M3": report(t1, t4),
            "optimum_refused": refused,
            "refusal": reason,
        },
    )


#: The key of this paper in :data:`~rainbowdp.reproduce._printed.PAPERS`.
PAPER = "gu"

#: The reproducible targets of Gu et al., in the order of the index (printed values and checks:
#: :mod:`rainbowdp.reproduce._printed_gu`).
TARGETS: tuple[TargetSpec, ...] = (
    TargetSpec("fig3", "Gu et al., Fig. 3", figure_3),
    TargetSpec("fig4", "Gu et al., Fig. 4", figure_4),
    TargetSpec("fig5", "Gu et al., Fig. 5", figure_5),
    TargetSpec("gu-example1", "Gu et al., Example 1", gu_example1, figure=False),
)
