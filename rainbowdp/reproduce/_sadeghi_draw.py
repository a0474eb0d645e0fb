r"""The drawing of Sadeghi et al.'s and Sadeghi & Chien's figures: panels side by side
(:func:`panel_figure`), the series labels of Sadeghi et al.'s figures and their line styles.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._curves import CurveFigure, Panel
from ._style import finish, mathtext

__all__ = [
    "BOUND",
    "DG",
    "DG_MATCHED",
    "EXACT",
    "EXACT_OPT",
    "PRINTED_CURVE",
    "STYLES",
    "panel_figure",
]

BOUND = "(2D+1) delta* (Remark 2)"
EXACT = "exact delta, Theorem 3 law"
EXACT_OPT = "exact delta, exact-optimal law"
DG = "discrete Gaussian delta_G (45)"
DG_MATCHED = "discrete Gaussian delta_G (45), variance-matched"
#: Fig. 3: the paper's own curve where it differs from the true optimum (erratum 16).
PRINTED_CURVE = "(2D+1) delta~ as printed (Theorem 3), where it fails"
STYLES = (
    (EXACT_OPT, ":"),
    (EXACT, "--"),
    (DG_MATCHED, (0, (5, 1, 1, 1))),
    (DG, "-."),
    (PRINTED_CURVE, "none"),
)


#: A line panel with more series than this has its legend beside the axes, not over the curves.
_LEGEND_INSIDE = 4


def _draw_lines(ax: Any, p: Panel) -> None:
    """One colour per group (the label's text before ": "), one line style per kind."""
    from ..plot import output_colors

    groups = list(dict.fromkeys(str(k).split(": ")[0] for k in p.series))
    colour = dict(zip(groups, output_colors(groups), strict=True))
    for label, values in p.series.items():
        text = str(label)
        ls: Any = next((s for key, s in STYLES if text.endswith(key)), "-")
        ax.plot(
            p.x,
            np.asarray(values, dtype=float),
            ls=ls,
            marker="o" if ls == "-" else "x" if ls == "none" else None,
            ms=2.5,
            lw=1.3,
            color=colour[text.split(": ")[0]],
            label=text,
        )
    if len(p.series) <= _LEGEND_INSIDE:
        ax.legend(fontsize=6)
    else:  # beside the axes (the figure's layout makes room), where it cannot hide a curve
        ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def _bars(ax: Any, p: Panel) -> None:
    """The series of a bar panel side by side at their own x positions, one colour each
    (:func:`rainbowdp.plot.palette.series_styles`), with a legend."""
    from ..plot.palette import series_styles

    labels = list(p.series)
    k = len(labels)
    width = 0.8 / k
    x = np.asarray(p.x, dtype=float)
    for i, (label, style) in enumerate(zip(labels, series_styles(k), strict=True)):
        ax.bar(
            x + (i - (k - 1) / 2) * width,
            p.series[label],
            width=width,
            label=label,
            color=style["color"],
        )
    ax.legend(fontsize=7)


def panel_figure(
    name: str,
    parameters: dict,
    panels: list[Panel],
    findings: dict,
    *,
    suptitle: str,
    log: tuple[bool, ...],
    restyle: bool = False,
    markers_every: int | None = None,
) -> CurveFigure:
    """A :class:`~rainbowdp.reproduce.kadam.CurveFigure` drawing ``panels`` side by side.

    A ``"bars"`` panel is drawn as bars at its own x values (one legend for the figure's bar
    panels), any other as lines, one colour per group of series (the label's text before
    ``": "``) and one line style per kind -- or, with ``restyle``, one colour, line style and
    marker per series (:func:`rainbowdp.plot.palette.series_styles`; markers at every
    ``markers_every``-th point). ``log[i]`` puts panel i on a log y axis. Titles, axis labels
    and legends are written with mathtext Greek.
    """
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    k = len(panels)
    beside = sum(p.kind != "bars" and len(p.series) > _LEGEND_INSIDE for p in panels)
    fig = Figure(figsize=(5.8 * k + 3.0 * beside, 4.0), layout="constrained")
    axes = fig.subplots(1, k, squeeze=False)[0]
    for ax, p, lg in zip(axes, panels, log, strict=True):
        if p.kind == "bars":
            _bars(ax, p)
            ax.xaxis.set_major_locator(MaxNLocator(nbins=11, steps=[1, 2, 5, 10], integer=True))
            if ax is not axes[0]:  # one legend for the figure's bar panels
                ax.get_legend().remove()
        else:
            _draw_lines(ax, p)
        if lg:
            ax.set_yscale("log")
            if p.kind == "bars":
                ax.set_ylim(1e-9, 2.0)
        ax.set_xlabel(p.xlabel)
        ax.set_ylabel(p.ylabel)
        ax.set_title(p.title, fontsize=8)
    fig.suptitle(mathtext(f"{name}: {suptitle}"), fontsize=9)
    finish(fig, restyle=restyle, markers_every=markers_every)
    return CurveFigure(name, parameters, tuple(panels), findings, fig)
