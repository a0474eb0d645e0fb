r"""Kadam et al., *Optimum noise mechanism for differentially private queries in discrete
finite sets*: Table 1 and Figs. 5-14, as data plus a Figure.

Table 1 and Figs. 9, 10, 13 (:func:`kadam_table1`, :func:`kadam_figure9`, ...) are each a
:class:`PMFFigure` of optimal PMFs computed by :mod:`rainbowdp.noise.modulo`, with the printed
values where the paper prints them. The comparison and sweep figures 5-8, 11, 12 and 14
(:func:`kadam_figure5` ... :func:`kadam_figure14`) are each a :class:`CurveFigure` of curves
(one :class:`Panel` per drawn axes) and findings. Fig. 6 shows that clamping raises the PDP
leakage of the discrete Gaussian but never the (ε, δ)-DP δ (post-processing); Fig. 14 runs on
synthetic data (:func:`synthetic_ami`), the paper's being private.

The code lives in private modules by figure group: ``_kadam_pmfs`` (Table 1, Figs. 9, 10, 13),
``_kadam_compare`` (Figs. 5, 7 and the competitors), ``_kadam_clamping`` (Figs. 6, 8) and
``_kadam_sweeps`` (Figs. 11, 12, 14). :data:`TARGETS` declares this paper's reproducible
targets, in the order of the index; their printed values and checks are in
:mod:`rainbowdp.reproduce._printed_kadam`.
"""

from __future__ import annotations

from functools import partial

from ._curves import (
    CurveFigure,
    Panel,
    check_deltas,
    check_epsilons,
    check_grid,
    check_panel,
)
from ._declare import TargetSpec
from ._kadam_clamping import kadam_figure6, kadam_figure8
from ._kadam_compare import (
    KADAM_COUNT_D,
    KADAM_COUNT_SHIFTS,
    KADAM_FIG6,
    KADAM_FIG7A_MSE,
    KADAM_FIG7B_ER,
    count_noise,
    kadam_figure5,
    kadam_figure7,
)
from ._kadam_pmfs import (
    KADAM_EQ59,
    KADAM_TABLE1,
    PMFFigure,
    kadam_figure9,
    kadam_figure10,
    kadam_figure13,
    kadam_table1,
    step_lengths,
)
from ._kadam_sweeps import kadam_figure11, kadam_figure12, kadam_figure14, synthetic_ami

__all__ = [
    "KADAM_COUNT_D",
    "KADAM_COUNT_SHIFTS",
    "KADAM_EQ59",
    "KADAM_FIG6",
    "KADAM_FIG7A_MSE",
    "KADAM_FIG7B_ER",
    "KADAM_TABLE1",
    "PAPER",
    "TARGETS",
    "CurveFigure",
    "PMFFigure",
    "Panel",
    "check_deltas",
    "check_epsilons",
    "check_grid",
    "check_panel",
    "count_noise",
    "kadam_figure5",
    "kadam_figure6",
    "kadam_figure7",
    "kadam_figure8",
    "kadam_figure9",
    "kadam_figure10",
    "kadam_figure11",
    "kadam_figure12",
    "kadam_figure13",
    "kadam_figure14",
    "kadam_table1",
    "step_lengths",
    "synthetic_ami",
]

#: The key of this paper in :data:`~rainbowdp.reproduce._printed.PAPERS`.
PAPER = "kadam"

_COUNT_MECHANISM = (
    "the paper's 'discrete count mechanism' (its reference [10], Sadeghi et al.) is drawn as "
    "rainbowdp.noise.count's law (14)"
)

#: The reproducible targets of Kadam et al., in the order of the index.
TARGETS: tuple[TargetSpec, ...] = (
    TargetSpec("table1", "Kadam et al., Table 1", kadam_table1),
    TargetSpec("fig5a", "Kadam et al., Fig. 5a", partial(kadam_figure5, "a")),
    TargetSpec(
        "fig5b",
        "Kadam et al., Fig. 5b",
        partial(kadam_figure5, "b"),
        note=f"{_COUNT_MECHANISM} with the α* of Theorem 3, D = 3, taken modulo n + 1 = 8, at "
        "the largest η whose PDP leakage is at most δ = 0.5 (the caption gives neither D nor how "
        "it was calibrated); the discrete Gaussian is not in this panel, as in the caption",
    ),
    TargetSpec("fig6", "Kadam et al., Fig. 6 (clamping)", kadam_figure6),
    TargetSpec("fig7a", "Kadam et al., Fig. 7a", partial(kadam_figure7, "a")),
    TargetSpec(
        "fig7b",
        "Kadam et al., Fig. 7b",
        partial(kadam_figure7, "b"),
        note=f"{_COUNT_MECHANISM} with η = 0.7 (error rate 0.3) and the α* of Theorem 3 at each "
        "ε, D = 3, taken modulo n + 1 = 8 (the caption gives no D); its PDP leakage coincides "
        "with the modular discrete Gaussian's on this grid",
    ),
    TargetSpec("fig8", "Kadam et al., Fig. 8", kadam_figure8),
    TargetSpec("fig9a", "Kadam et al., Fig. 9a", partial(kadam_figure9, "a")),
    TargetSpec("fig9b", "Kadam et al., Fig. 9b", partial(kadam_figure9, "b")),
    TargetSpec("fig10a", "Kadam et al., Fig. 10a", partial(kadam_figure10, "a")),
    TargetSpec("fig10b", "Kadam et al., Fig. 10b", partial(kadam_figure10, "b")),
    TargetSpec("fig11a", "Kadam et al., Fig. 11a", partial(kadam_figure11, "a")),
    TargetSpec("fig11b", "Kadam et al., Fig. 11b", partial(kadam_figure11, "b")),
    TargetSpec("fig12a", "Kadam et al., Fig. 12a", partial(kadam_figure12, "a")),
    TargetSpec("fig12b", "Kadam et al., Fig. 12b", partial(kadam_figure12, "b")),
    TargetSpec("fig13a", "Kadam et al., Fig. 13a / eq. (59)", partial(kadam_figure13, "a")),
    TargetSpec("fig13b", "Kadam et al., Fig. 13b", partial(kadam_figure13, "b")),
    TargetSpec(
        "fig14",
        "Kadam et al., Fig. 14 (synthetic data)",
        kadam_figure14,
        note="the paper's smart-meter data is not public; seeded synthetic data is used",
    ),
)
