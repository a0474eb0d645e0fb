"""Shared drawing helpers: the axes to draw on and the colours of outputs."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any


def _axes(ax: Any, figsize: tuple[float, float]) -> tuple[Any, Any]:
    """The figure and axes to draw on; a new figure is not registered with pyplot (no global
    state, nothing to close; ``fig.savefig`` works with any backend)."""
    from matplotlib.figure import Figure

    if ax is None:
        fig = Figure(figsize=figsize, layout="constrained")
        return fig, fig.add_subplot()
    return ax.figure, ax


def output_colors(outputs: Sequence[Hashable]) -> list:
    """One colour per output: the output itself if it names a colour ("blue"), else tab10/tab20.

    Examples
    --------
    >>> output_colors(["blue", "red"])
    ['blue', 'red']
    >>> len(output_colors([0, 1, 2]))
    3
    """
    import matplotlib as mpl
    from matplotlib.colors import is_color_like

    outs = list(outputs)
    if outs and all(isinstance(o, str) and is_color_like(o) for o in outs):
        return outs
    cmap = mpl.colormaps["tab10" if len(outs) <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(len(outs))]
