r"""Matplotlib drawings of rainbow graphs, mechanisms and privacy curves.

matplotlib is imported inside the functions, so importing :mod:`rainbowdp` never needs it. Every
function draws on ``ax`` when given (else on a new :class:`matplotlib.figure.Figure`, created
without pyplot, so it needs no closing) and returns the Figure; save it with
``fig.savefig("out.png")``. Nothing calls ``plt.show()``.

Modules: ``_style`` (axes and palettes), ``_graph`` (rainbow graphs and the mechanism at each
node), ``_curves`` (line mechanisms, PMFs and labelled curves).
"""

from ._curves import plot_curves, plot_joint_pmf, plot_line_mechanism, plot_pmfs
from ._graph import draw_rainbow_graph
from ._style import output_colors

__all__ = [
    "draw_rainbow_graph",
    "output_colors",
    "plot_curves",
    "plot_joint_pmf",
    "plot_line_mechanism",
    "plot_pmfs",
]
