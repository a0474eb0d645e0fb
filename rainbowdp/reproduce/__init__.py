r"""Figures, tables and worked examples of the source papers, as data plus a matplotlib Figure.

One module per paper:

- :mod:`rainbowdp.reproduce.rainbow` -- Gu et al., Figs. 3-5 and Example 1 (:func:`figure_3`,
  ..., :func:`gu_example1`);
- :mod:`rainbowdp.reproduce.kadam` -- Kadam et al., Table 1 and Figs. 5-14
  (:func:`kadam_table1`, :func:`kadam_figure5`, ...);
- :mod:`rainbowdp.reproduce.sadeghi` -- Sadeghi et al., Example 1 and Figs. 1-4
  (:func:`count_example1`, :func:`sadeghi_figure1`, ..., :func:`sadeghi_figure4`);
- :mod:`rainbowdp.reproduce.abs` -- Sadeghi & Chien (the ABS perturbation), Figs. 1-5, Examples
  2 and 3 and the comparison with the optimal table (:func:`abs_figure1`, ...,
  :func:`abs_example2`, :func:`abs_optimal_comparison`).

Each paper module declares its targets (``TARGETS``); :data:`TARGETS` (name -> :class:`Target`)
assembles them, in the order of the index, with the printed values of :data:`PRINTED`.
Every name is re-exported here; ``rainbowdp reproduce NAME`` draws each figure target and
``rainbowdp reproduce all`` (:func:`reproduce_all`) runs every target and writes the index
(``docs/reproduce.md``).
"""

from __future__ import annotations

from ._all import (
    TARGETS,
    Check,
    CheckResult,
    ReproductionSummary,
    TableResult,
    Target,
    TargetResult,
    abs_example2,
    abs_example3,
    count_example1,
    gu_example1,
    reproduce_all,
)
from ._printed import PRINTED, Printed
from ._results import tally
from .abs import (
    ABS_EXAMPLE1,
    ABS_FIG1,
    ABS_KEYSIZE_EXPERIMENT,
    abs_figure1,
    abs_figure2,
    abs_figure3,
    abs_figure4,
    abs_figure5,
    abs_optimal_comparison,
)
from .kadam import (
    KADAM_COUNT_D,
    KADAM_COUNT_SHIFTS,
    KADAM_EQ59,
    KADAM_FIG6,
    KADAM_FIG7A_MSE,
    KADAM_FIG7B_ER,
    KADAM_TABLE1,
    CurveFigure,
    Panel,
    PMFFigure,
    count_noise,
    kadam_figure5,
    kadam_figure6,
    kadam_figure7,
    kadam_figure8,
    kadam_figure9,
    kadam_figure10,
    kadam_figure11,
    kadam_figure12,
    kadam_figure13,
    kadam_figure14,
    kadam_table1,
    step_lengths,
    synthetic_ami,
)
from .rainbow import (
    GU_BOUNDARY,
    GU_EPSILON,
    LineFigure,
    figure_3,
    figure_4,
    figure_5,
)
from .sadeghi import (
    SADEGHI_FIG1,
    SADEGHI_FIG2,
    SADEGHI_FIG3,
    SADEGHI_FIG4,
    dg_sigma_for_variance,
    dg_variance,
    sadeghi_figure1,
    sadeghi_figure2,
    sadeghi_figure3,
    sadeghi_figure4,
)

__all__ = [
    "ABS_EXAMPLE1",
    "ABS_FIG1",
    "ABS_KEYSIZE_EXPERIMENT",
    "GU_BOUNDARY",
    "GU_EPSILON",
    "KADAM_COUNT_D",
    "KADAM_COUNT_SHIFTS",
    "KADAM_EQ59",
    "KADAM_FIG6",
    "KADAM_FIG7A_MSE",
    "KADAM_FIG7B_ER",
    "KADAM_TABLE1",
    "PRINTED",
    "SADEGHI_FIG1",
    "SADEGHI_FIG2",
    "SADEGHI_FIG3",
    "SADEGHI_FIG4",
    "TARGETS",
    "Check",
    "CheckResult",
    "CurveFigure",
    "LineFigure",
    "PMFFigure",
    "Panel",
    "Printed",
    "ReproductionSummary",
    "TableResult",
    "Target",
    "TargetResult",
    "abs_example2",
    "abs_example3",
    "abs_figure1",
    "abs_figure2",
    "abs_figure3",
    "abs_figure4",
    "abs_figure5",
    "abs_optimal_comparison",
    "count_example1",
    "count_noise",
    "dg_sigma_for_variance",
    "dg_variance",
    "figure_3",
    "figure_4",
    "figure_5",
    "gu_example1",
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
    "reproduce_all",
    "sadeghi_figure1",
    "sadeghi_figure2",
    "sadeghi_figure3",
    "sadeghi_figure4",
    "step_lengths",
    "synthetic_ami",
    "tally",
]
