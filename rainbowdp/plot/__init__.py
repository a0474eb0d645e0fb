r"""Matplotlib drawings of rainbow graphs, mechanisms and privacy curves.

matplotlib is imported inside the functions, so importing :mod:`rainbowdp` never needs it. Every
function draws on ``ax`` when given (else on a new :class:`matplotlib.figure.Figure`, created
without pyplot, so it needs no closing) and returns the Figure; save it with
``fig.savefig("out.png")``. Nothing calls ``plt.show()``.

Modules: ``palette`` (public: the one palette of every figure: output colours, rainbow-class
colours that are never confused with them, and series styles), ``_style`` (axes, legends
outside the axes with wrapped text, style overrides, legend text), ``_graph`` (rainbow graphs:
one colour per rainbow class, full-order rings, the mechanism at each node, labels, boundary
marks, arrows for the arcs of a directed graph), ``_large`` (layouts that scale and the
size-aware mode for hundreds to 10^5 nodes), ``_curves`` (line mechanisms, PMFs and labelled
curves), ``_profile`` (privacy profiles δ(ε) with a target's verdict), ``_heatmap``
(mechanisms as heat maps), ``_noise`` (noise PMFs and CDFs), ``_ptable`` (an agency's
perturbation table next to the one designed for the same D and variance: exact δ(ε) of both),
``_tradeoff`` (utility-privacy trade-off sweeps and curves), and ``_inputs`` (the argument
checks these four share).
"""

from ._curves import plot_curves, plot_joint_pmf, plot_line_mechanism, plot_pmfs
from ._graph import draw_rainbow_graph
from ._heatmap import plot_mechanism_heatmap
from ._noise import plot_noise_cdf, plot_noise_pmf
from ._profile import (
    DELTA_FLOOR,
    default_grid,
    floor_epsilons,
    plot_privacy_profile,
    zero_delta_epsilons,
)
from ._ptable import plot_ptable_comparison
from ._style import rainbow_label
from ._tradeoff import TradeoffSweep, plot_tradeoff, tradeoff_sweep
from .palette import class_colors, output_colors, series_styles

__all__ = [
    "DELTA_FLOOR",
    "TradeoffSweep",
    "class_colors",
    "default_grid",
    "draw_rainbow_graph",
    "floor_epsilons",
    "output_colors",
    "plot_curves",
    "plot_joint_pmf",
    "plot_line_mechanism",
    "plot_mechanism_heatmap",
    "plot_noise_cdf",
    "plot_noise_pmf",
    "plot_pmfs",
    "plot_privacy_profile",
    "plot_ptable_comparison",
    "plot_tradeoff",
    "rainbow_label",
    "series_styles",
    "tradeoff_sweep",
    "zero_delta_epsilons",
]
