r"""Shared drawing helpers: the axes to draw on, legends and legend text.

The palettes live in :mod:`rainbowdp.plot.palette`; ``OUTPUT_PALETTE``, ``CLASS_PALETTE``,
:func:`output_colors`, :func:`class_colors` and :func:`spread_colors` are re-exported here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np

from ..exceptions import ParameterError, ParameterTypeError
from ._mpl import require_matplotlib
from .palette import (
    CLASS_PALETTE,
    OUTPUT_PALETTE,
    class_colors,
    output_colors,
    series_styles,
    spread_colors,
)

__all__ = [
    "CLASS_PALETTE",
    "OUTPUT_PALETTE",
    "class_colors",
    "class_labels",
    "figure_and_axes",
    "legend_outside",
    "output_colors",
    "rainbow_label",
    "resolve_styles",
    "series_styles",
    "spread_colors",
    "wrap_label",
]


def figure_and_axes(ax: Any, figsize: tuple[float, float]) -> tuple[Any, Any]:
    """The figure and axes to draw on; a new figure is not registered with pyplot (no global
    state, nothing to close; ``fig.savefig`` works with any backend)."""
    require_matplotlib()
    from matplotlib.figure import Figure

    if ax is None:
        fig = Figure(figsize=figsize, layout="constrained")
        return fig, fig.add_subplot()
    return ax.figure, ax


def _visible(word: str) -> int:
    """Characters a word shows: a mathtext command (``\\varepsilon``) counts as one."""
    return len(re.sub(r"\\[A-Za-z]+", "x", word).replace("$", "").replace("{", "").replace("}", ""))


def wrap_label(text: str, width: int = 32) -> str:
    r"""Legend text broken into lines of about ``width`` visible characters, never inside a
    mathtext span (``$...$``) and never inside a word.

    Examples
    --------
    >>> wrap_label(r"geometric (δ = 0 for $\varepsilon \geq$ 1.2)", 20)
    'geometric (δ = 0 for\n$\\varepsilon \\geq$ 1.2)'
    >>> wrap_label("short")
    'short'
    """
    lines: list[list[str]] = [[]]
    words: list[str] = []
    for word in text.split(" "):
        if words and words[-1].count("$") % 2 == 1:  # inside a $...$ span: keep together
            words[-1] += " " + word
        else:
            words.append(word)
    for word in words:
        shown = sum(_visible(w) for w in lines[-1]) + len(lines[-1])
        if lines[-1] and shown + _visible(word) > width:
            lines.append([])
        lines[-1].append(word)
    return "\n".join(" ".join(line) for line in lines)


def legend_outside(
    ax: Any, handles: list | None = None, labels: list | None = None, *, width: int = 32
) -> Any:
    """The legend of ``ax`` to the right of the axes, where it cannot hide data, with its text
    wrapped (:func:`wrap_label`) and in as many columns as its height needs to fit the
    figure. Returns the Legend (None when there is nothing to show).

    The room to the right is made by the figure's layout engine (every figure made here has
    one); on axes of a figure without one, which nothing would make room in, the legend goes
    inside the axes, where it covers the least data (``loc="best"``)."""
    if handles is None or labels is None:
        handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    labels = [wrap_label(str(t), width) for t in labels]
    rows = sum(t.count("\n") + 1 for t in labels) + 0.4 * len(labels)
    fontsize = 8.0
    fits = max(1, int(ax.figure.get_figheight() * 72 / (fontsize * 1.45)) - 3)
    ncols = max(1, -(-math.ceil(rows) // fits))
    if ax.figure.get_layout_engine() is None:
        return ax.legend(handles, labels, loc="best", fontsize=fontsize, ncols=ncols)
    return ax.legend(
        handles,
        labels,
        loc="upper left",
        bbox_to_anchor=(1.0, 1.0),
        borderaxespad=0.6,
        fontsize=fontsize,
        ncols=ncols,
    )


def resolve_styles(styles: Any, n: int, name: str = "styles") -> list[dict[str, Any]]:
    """``n`` line styles: :func:`series_styles` by default, else the ``styles`` given (a
    sequence of at least ``n`` mappings of ``ax.plot`` keyword arguments).

    Examples
    --------
    >>> resolve_styles(None, 2)[1]["linestyle"]
    '--'
    >>> resolve_styles([{"color": "k"}], 1)
    [{'color': 'k'}]
    """
    if styles is None:
        return series_styles(n)
    if isinstance(styles, str | bytes | Mapping) or not isinstance(styles, Sequence):
        raise ParameterTypeError(
            f"`{name}` must be a sequence of dicts of plot keywords, got {name}={styles!r}."
        )
    if len(styles) < n:
        raise ParameterError(
            f"`{name}` must have at least {n} entries (one per series), got {len(styles)}: "
            f"{name}={styles!r}."
        )
    out = []
    for i, style in enumerate(styles[:n]):
        if not isinstance(style, Mapping):
            raise ParameterTypeError(
                f"`{name}[{i}]` must be a dict of plot keywords, got {name}[{i}]={style!r}."
            )
        out.append(dict(style))
    return out


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
