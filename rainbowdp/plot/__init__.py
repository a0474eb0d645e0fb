r"""Matplotlib drawings of rainbow graphs, mechanisms and privacy curves.

matplotlib is imported inside the functions, so importing :mod:`rainbowdp` never needs it. Every
function draws on ``ax`` when given (else on a new :class:`matplotlib.figure.Figure`, created
without pyplot, so it needs no closing) and returns the Figure; save it with
``fig.savefig("out.png")``. Nothing calls ``plt.show()``.

Modules: ``_style`` (axes, colour-blind-safe palettes, legend text), ``_graph`` (rainbow graphs:
one colour per rainbow class, full-order rings, the mechanism at each node, labels, boundary
marks), ``_large`` (layouts that scale and the size-aware mode for hundreds to 10^5 nodes),
``_curves`` (line mechanisms, PMFs and labelled curves), ``_privacy`` (privacy profiles,
mechanism heat maps, noise PMF/CDF, utility-privacy trade-offs).
"""

from ._curves import plot_curves, plot_joint_pmf, plot_line_mechanism, plot_pmfs
from ._graph import draw_rainbow_graph
from ._privacy import (
    TradeoffSweep,
    plot_mechanism_heatmap,
    plot_noise_cdf,
    plot_noise_pmf,
    plot_privacy_profile,
    plot_tradeoff,
    tradeoff_sweep,
)
from ._style import class_colors, output_colors, rainbow_label

__all__ = [
    "TradeoffSweep",
    "class_colors",
    "draw_rainbow_graph",
    "output_colors",
    "plot_curves",
    "plot_joint_pmf",
    "plot_line_mechanism",
    "plot_mechanism_heatmap",
    "plot_noise_cdf",
    "plot_noise_pmf",
    "plot_pmfs",
    "plot_privacy_profile",
    "plot_tradeoff",
    "rainbow_label",
    "tradeoff_sweep",
]
