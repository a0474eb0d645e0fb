r"""Shared drawing helpers: the axes to draw on, colour-blind-safe palettes, and legend text.

Two palettes, so that the two things coloured in a rainbow-graph drawing never share colours:

* **outputs** (:func:`output_colors`): the Okabe-Ito palette (Okabe & Ito, *Color Universal
  Design*, 2008), 8 colours distinguishable with every common colour-vision deficiency;
* **rainbow classes** (:func:`class_colors`): Paul Tol's "muted" qualitative scheme (Tol,
  *Colour schemes*, SRON technical note, 2021), 9 colours, also colour-blind safe.

Beyond a palette's size, :func:`spread_colors` samples a perceptually uniform colormap
(``viridis`` for classes, ``plasma`` for outputs), whose lightness changes monotonically, so
colours that differ in position differ in lightness, which every reader sees. Colour ``i`` is
taken at position :math:`t_i = \{i\varphi\}` with :math:`\varphi = (\sqrt 5 - 1)/2` (golden-
ratio steps, a low-discrepancy sequence): consecutive indices are at least 0.38 of the map
apart, so adjacent classes of a path (whose ids are consecutive) stay distinguishable, and no
two of the first n colours are closer than about :math:`0.38/n`.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

__all__ = [
    "CLASS_PALETTE",
    "OUTPUT_PALETTE",
    "class_colors",
    "class_labels",
    "figure_and_axes",
    "legend_outside",
    "output_colors",
    "rainbow_label",
    "spread_colors",
]

#: Okabe-Ito palette, ordered so that the first colours differ most (yellow and black last).
OUTPUT_PALETTE = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#D55E00",  # vermillion
    "#56B4E9",  # sky blue
    "#CC79A7",  # reddish purple
    "#F0E442",  # yellow
    "#000000",  # black
)

#: Paul Tol's "muted" qualitative scheme (without its pale grey, which marks missing data).
CLASS_PALETTE = (
    "#CC6677",  # rose
    "#332288",  # indigo
    "#DDCC77",  # sand
    "#117733",  # green
    "#88CCEE",  # cyan
    "#882255",  # wine
    "#44AA99",  # teal
    "#999933",  # olive
    "#AA4499",  # purple
)

#: Colour-blind-safe shade (Okabe-Ito) of the plain colour names, used with ``safe=True``.
_SAFE_SHADES = {
    "blue": "#0072B2",
    "red": "#D55E00",
    "green": "#009E73",
    "orange": "#E69F00",
    "yellow": "#F0E442",
    "purple": "#CC79A7",
    "pink": "#CC79A7",
    "skyblue": "#56B4E9",
    "lightblue": "#56B4E9",
    "cyan": "#56B4E9",
    "black": "#000000",
}

_GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


def figure_and_axes(ax: Any, figsize: tuple[float, float]) -> tuple[Any, Any]:
    """The figure and axes to draw on; a new figure is not registered with pyplot (no global
    state, nothing to close; ``fig.savefig`` works with any backend)."""
    from matplotlib.figure import Figure

    if ax is None:
        fig = Figure(figsize=figsize, layout="constrained")
        return fig, fig.add_subplot()
    return ax.figure, ax


def legend_outside(ax: Any) -> None:
    """The legend of ``ax`` to the right of the axes, where it cannot hide data."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize=8)


def spread_colors(n: int, cmap: str = "viridis", *, lo: float = 0.0, hi: float = 0.92) -> list:
    r"""``n`` colours of a colormap at golden-ratio steps (see the module notes).

    Parameters
    ----------
    n : int
        Number of colours.
    cmap : str, default "viridis"
        A matplotlib colormap name; use a perceptually uniform one.
    lo, hi : float, default 0.0 and 0.92
        The part of the map used (``hi < 1`` leaves out the palest end, which is hard to see
        on white).

    Returns
    -------
    list of RGBA tuples
        Colour i is the map at :math:`lo + (hi - lo) \{i \varphi\}`.

    Examples
    --------
    >>> c = spread_colors(12)
    >>> len(c), len(set(c))
    (12, 12)
    """
    import matplotlib as mpl

    t = lo + (hi - lo) * np.mod(np.arange(n) * _GOLDEN, 1.0)
    return [tuple(float(v) for v in rgba) for rgba in mpl.colormaps[cmap](t)]


def output_colors(outputs: Sequence[Hashable], *, safe: bool = False) -> list:
    """One colour per output: the output itself if it names a colour ("blue"), else Okabe-Ito.

    Parameters
    ----------
    outputs : sequence of hashable
        The outputs, in column order.
    safe : bool, default False
        If every output names a colour, replace the plain names that have a colour-blind-safe
        shade of the same hue ("blue", "red", "green", "orange", "yellow", "purple", "pink",
        "skyblue", "lightblue", "cyan", "black") by that Okabe-Ito shade, so red and green
        stay apart for red-green colour-blind readers; other names are kept.

    Returns
    -------
    list
        Matplotlib colours. Up to 8 outputs that are not all colour names get the Okabe-Ito
        palette (:data:`OUTPUT_PALETTE`); more get :func:`spread_colors` of ``plasma``.

    Examples
    --------
    >>> output_colors(["blue", "red"])
    ['blue', 'red']
    >>> output_colors(["blue", "red"], safe=True)
    ['#0072B2', '#D55E00']
    >>> output_colors([0, 1, 2])
    ['#0072B2', '#E69F00', '#009E73']
    """
    from matplotlib.colors import is_color_like

    outs = list(outputs)
    if outs and all(isinstance(o, str) and is_color_like(o) for o in outs):
        if not safe:
            return outs
        shaded = [_SAFE_SHADES.get(o.lower().replace(" ", ""), o) for o in outs]
        return shaded if len(set(shaded)) == len(set(outs)) else outs
    if len(outs) <= len(OUTPUT_PALETTE):
        return list(OUTPUT_PALETTE[: len(outs)])
    return spread_colors(len(outs), "plasma", hi=0.88)


def class_colors(n: int) -> list:
    """One colour per rainbow class: Tol's muted scheme, or golden-ratio ``viridis`` beyond 9.

    Parameters
    ----------
    n : int
        Number of rainbow classes (distinct preference orders).

    Returns
    -------
    list
        ``n`` distinct matplotlib colours: :data:`CLASS_PALETTE` when ``n <= 9``, else
        :func:`spread_colors` (all from the same map, so the colours stay comparable).

    Examples
    --------
    >>> class_colors(2)
    ['#CC6677', '#332288']
    >>> len(set(class_colors(40)))
    40
    """
    if n <= len(CLASS_PALETTE):
        return list(CLASS_PALETTE[:n])
    return spread_colors(n, "viridis")


def _short(label: Any, width: int = 14) -> str:
    text = str(label)
    return text if len(text) <= width else text[: width - 1] + "…"


def rainbow_label(order: Sequence[Hashable], *, head: int = 3, full: int = 6) -> str:
    """A preference order as legend text, most preferred first: ``"red > blue > green"``.

    Orders of more than ``full`` outputs show their first ``head`` and the count, e.g.
    ``"0 > 1 > 2 > … (11 outputs)"``; output names longer than 14 characters are cut.

    Examples
    --------
    >>> rainbow_label(["red", "blue", "green"])
    'red > blue > green'
    >>> rainbow_label(range(11))
    '0 > 1 > 2 > … (11 outputs)'
    """
    items = [_short(o) for o in order]
    if len(items) <= full:
        return " > ".join(items)
    return " > ".join([*items[:head], "…"]) + f" ({len(items)} outputs)"


def class_labels(outputs: Sequence[Hashable], table: np.ndarray, ids: np.ndarray) -> list[str]:
    """Legend text of every rainbow class: its order (:func:`rainbow_label`) and its size.

    Examples
    --------
    >>> class_labels(["a", "b"], np.array([[0, 1], [1, 0]]), np.array([0, 0, 1]))
    ['a > b · 2 nodes', 'b > a · 1 node']
    """
    counts = np.bincount(ids, minlength=table.shape[0])
    return [
        f"{rainbow_label([outputs[j] for j in row])} · {c} node{'s' if c != 1 else ''}"
        for row, c in zip(table.tolist(), counts.tolist(), strict=True)
    ]
