r"""How the reproduced figures look: mathtext Greek and one distinct style per series.

The figure functions keep their data keys in plain ASCII (``"eps = 0.5"``, ``"eps^Q"``: the keys
of the JSON data and of the checks); :func:`mathtext` turns such text into matplotlib mathtext
(``"$\varepsilon$ = 0.5"``, ``"$\varepsilon^Q$"``) for titles, axis labels and legends, and
:func:`finish` applies it to a whole figure and gives every line of every axes its own colour,
line style and marker (:func:`rainbowdp.plot.palette.series_styles`, colour-blind safe), so that
curves that coincide stay visible.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["finish", "mathtext", "style_lines"]

#: ASCII Greek words and their mathtext, longest first (``mu_bar`` before ``mu``).
_GREEK = {
    "epsilon": r"\varepsilon",
    "eps": r"\varepsilon",
    "delta": r"\delta",
    "gamma": r"\gamma",
    "alpha": r"\alpha",
    "sigma": r"\sigma",
    "beta": r"\beta",
    "rho": r"\rho",
    "mu_bar": r"\bar{\mu}",
    "mu_hat": r"\hat{\mu}",
    "tau": r"\tau",
    "eta": r"\eta",
    "mu": r"\mu",
}
_WORD = "|".join(sorted(_GREEK, key=len, reverse=True))
#: A Greek word (not inside a longer word) and its super- and subscripts: ``eps^Q``,
#: ``delta_{gamma,D}``, ``sigma^2``, ``delta*``.
_TOKEN = re.compile(
    rf"(?<![A-Za-z\\$])({_WORD})(?![A-Za-z])((?:\^\{{[^}}]*\}}|\^[\w]+|_\{{[^}}]*\}}|_\w+|\*)*)"
)
_INNER = re.compile(rf"(?<![A-Za-z\\])({_WORD})(?![A-Za-z])")


def _script(suffix: str) -> str:
    """The super- and subscripts of a token, in mathtext (Greek inside them converted)."""
    out = suffix.replace("*", "^*")
    return _INNER.sub(lambda m: _GREEK[m.group(1)] + " ", out).replace(" }", "}").replace(" ,", ",")


def mathtext(text: str) -> str:
    r"""``text`` with its ASCII Greek words as matplotlib mathtext.

    Text already holding ``$`` (mathtext) is returned unchanged.

    Examples
    --------
    >>> mathtext("eps = 0.5, delta = 1e-4")
    '$\\varepsilon$ = 0.5, $\\delta$ = 1e-4'
    >>> mathtext("KEYSIZE = 2^8: eps^Q")
    'KEYSIZE = 2^8: $\\varepsilon^Q$'
    >>> mathtext("delta_{gamma,D}(epsilon)")
    '$\\delta_{\\gamma,D}$($\\varepsilon$)'
    >>> mathtext("BD mu_bar = 3, Gaussian, beta")
    'BD $\\bar{\\mu}$ = 3, Gaussian, $\\beta$'
    >>> mathtext("(2D+1) delta*")
    '(2D+1) $\\delta^*$'
    """
    if "$" in text:
        return text
    out = _TOKEN.sub(lambda m: f"${_GREEK[m.group(1)]}{_script(m.group(2))}$", text)
    return out.replace("->", "→")


def style_lines(ax: Any, *, markers_every: int | None = None) -> None:
    """Give each labelled line of ``ax`` its own colour, line style and marker (in drawing
    order) and redraw the legend if the axes has one.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    markers_every : int, optional
        Draw a marker at every k-th computed point (1: at every point); default the
        staggered spacing of :func:`~rainbowdp.plot.palette.series_styles`.
    """
    from matplotlib.container import BarContainer

    from ..plot.palette import series_styles

    lines = [ln for ln in ax.get_lines() if not str(ln.get_label()).startswith("_")]
    for ln, style in zip(lines, series_styles(len(lines)), strict=True):
        ln.set(**style)
        if markers_every is not None:
            ln.set_markevery(markers_every)
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    for bar, style in zip(bars, series_styles(len(bars)), strict=True):
        for patch in bar.patches:
            patch.set_facecolor(style["color"])
            patch.set_edgecolor(style["color"])
    if (lines or bars) and ax.get_legend() is not None:
        ax.legend(fontsize=7)


def finish(fig: Any, *, restyle: bool = True, markers_every: int | None = None) -> Any:
    """Mathtext Greek in every title, axis label and legend entry of ``fig``; one style per
    line and bar series (:func:`style_lines`) unless ``restyle`` is False. Returns ``fig``."""
    for ax in fig.axes:
        if restyle:
            style_lines(ax, markers_every=markers_every)
        for text in (ax.title, ax.xaxis.label, ax.yaxis.label):
            text.set_text(mathtext(text.get_text()))
        legend = ax.get_legend()
        if legend is not None:
            for t in legend.get_texts():
                t.set_text(mathtext(t.get_text()))
    for legend in fig.legends:
        for t in legend.get_texts():
            t.set_text(mathtext(t.get_text()))
    return fig
