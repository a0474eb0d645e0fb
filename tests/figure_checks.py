r"""Checks that any rendered matplotlib Figure can be given: what a reader would see is there.

:func:`check_figure` draws the figure once, recording every text, legend and axes actually drawn
(tick labels outside the view are never drawn, so they are not checked), and asserts:

* every drawn text, legend and axes lies inside the figure (nothing clipped, titles included);
  a text clipped to its axes lies inside those axes;
* a legend is never wider or taller than the figure, and a legend that overlaps its axes lies
  inside them (a legend outside the axes, deliberately, needs only to be inside the figure);
* the entries of a legend have pairwise distinct styles (colour, line style, marker for lines;
  face, edge, hatch for patches) and no label appears twice;
* the tick labels of an axis do not overlap each other;
* no text spells a Greek letter in ASCII (``eps``, ``epsilon``, ``delta``, ``eta``,
  ``mu_bar``, ``sigma``, ``lambda`` as whole words): they must be mathtext
  (``r"$\varepsilon$"``).

:func:`check_ticks_match_data` asserts that data drawn at x positions ``xs`` sits under tick
labels that say so (a PMF drawn at 0..50 under ticks labelled -25..25 fails).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

import numpy as np

__all__ = [
    "ASCII_GREEK",
    "Drawn",
    "check_ascii_greek",
    "check_figure",
    "check_inside",
    "check_legends",
    "check_tick_labels_apart",
    "check_ticks_match_data",
    "render",
    "tick_values",
]

#: ASCII spellings of Greek letters that must not appear as whole words in a figure's text.
ASCII_GREEK = ("eps", "epsilon", "delta", "eta", "mu_bar", "sigma", "lambda")
_GREEK_RE = re.compile(
    r"(?<![\\A-Za-z0-9_])(" + "|".join(ASCII_GREEK) + r")(?![A-Za-z0-9_])", re.IGNORECASE
)
#: Tolerance in pixels for "inside" (anti-aliasing of extents).
_PX = 1.0


@dataclass
class Drawn:
    """What one draw of a figure put on the canvas."""

    renderer: Any
    texts: list = field(default_factory=list)
    legends: list = field(default_factory=list)
    axes: list = field(default_factory=list)


def render(fig: Any) -> Drawn:
    """Draw ``fig`` once and record the texts, legends and axes that were drawn."""
    from matplotlib.axes import Axes
    from matplotlib.legend import Legend
    from matplotlib.text import Text

    if not hasattr(fig.canvas, "get_renderer"):  # a Figure made without pyplot
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
    drawn = Drawn(renderer=None)
    originals = {Text: Text.draw, Legend: Legend.draw, Axes: Axes.draw}
    sinks = {Text: drawn.texts, Legend: drawn.legends, Axes: drawn.axes}

    def wrap(cls: type) -> Any:
        original, sink = originals[cls], sinks[cls]

        def draw(self: Any, renderer: Any, *args: Any, **kwargs: Any) -> Any:
            if self.get_visible():
                sink.append(self)
            return original(self, renderer, *args, **kwargs)

        return draw

    with ExitStack() as stack:
        for cls in originals:
            stack.enter_context(mock.patch.object(cls, "draw", wrap(cls)))
        fig.canvas.draw()
    drawn.renderer = fig.canvas.get_renderer()
    drawn.texts = [t for t in dict.fromkeys(drawn.texts) if t.get_text().strip()]
    drawn.legends = list(dict.fromkeys(drawn.legends))
    drawn.axes = [a for a in dict.fromkeys(drawn.axes) if a.get_visible()]
    return drawn


def _inside(inner: Any, outer: Any, tol: float = _PX) -> bool:
    return (
        inner.x0 >= outer.x0 - tol
        and inner.y0 >= outer.y0 - tol
        and inner.x1 <= outer.x1 + tol
        and inner.y1 <= outer.y1 + tol
    )


def _overlap(a: Any, b: Any, tol: float = _PX) -> bool:
    return min(a.x1, b.x1) - max(a.x0, b.x0) > tol and min(a.y1, b.y1) - max(a.y0, b.y0) > tol


def _what(artist: Any) -> str:
    text = getattr(artist, "get_text", None)
    return f"{type(artist).__name__} {text()!r}" if text else type(artist).__name__


def _clip_extent(text: Any) -> Any:
    """The display box a text is clipped to, or None."""
    if not text.get_clip_on():
        return None
    box = text.get_clip_box()
    path = text.get_clip_path()
    if path is not None:
        return path.get_fully_transformed_path().get_extents()
    return box


def check_inside(fig: Any, drawn: Drawn | None = None) -> Drawn:
    """Every drawn text, legend and axes lies inside the figure; clipped texts inside their
    clip box."""
    drawn = drawn or render(fig)
    r, box = drawn.renderer, fig.bbox
    for artist in [*drawn.texts, *drawn.legends]:
        ext = artist.get_window_extent(r)
        assert _inside(ext, box), f"{_what(artist)} at {ext} is outside the figure {box}"
    for text in drawn.texts:
        clip = _clip_extent(text)
        if clip is not None:
            ext = text.get_window_extent(r)
            assert _inside(ext, clip), f"{_what(text)} at {ext} is clipped by its axes {clip}"
    for ax in drawn.axes:
        ext = ax.get_window_extent(r)
        assert _inside(ext, box), f"axes {ax.get_title()!r} at {ext} is outside the figure"
    return drawn


def _legend_key(handle: Any) -> tuple:
    from matplotlib.colors import to_rgba
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    if isinstance(handle, Line2D):
        marker = handle.get_marker()
        marker = None if marker in ("", "None", " ", None) else str(marker)
        style = handle.get_linestyle()
        style = None if style in ("None", "", " ", "none") else style
        if marker is None and style is None:
            return ()
        face = handle.get_markerfacecolor() if marker else None
        return ("line", to_rgba(handle.get_color()), style, marker, str(face))
    if isinstance(handle, Patch):
        face, edge = handle.get_facecolor(), handle.get_edgecolor()
        if face[3] == 0 and (edge[3] == 0 or handle.get_linewidth() == 0):
            return ()
        return ("patch", tuple(face), tuple(edge), handle.get_hatch(), handle.get_linestyle())
    colors = getattr(handle, "get_facecolor", None)
    face = tuple(map(tuple, np.atleast_2d(colors()))) if colors else None
    edges = getattr(handle, "get_edgecolor", None)
    edge = tuple(map(tuple, np.atleast_2d(edges()))) if edges else None
    return (type(handle).__name__, face, edge)


def check_legends(fig: Any, drawn: Drawn | None = None) -> Drawn:
    """Legends fit the figure, stay inside their axes unless wholly outside them, have no
    label twice and no two entries in the same style."""
    drawn = drawn or render(fig)
    r, box = drawn.renderer, fig.bbox
    for legend in drawn.legends:
        ext = legend.get_window_extent(r)
        assert ext.width <= box.width + _PX, f"legend {ext.width:.0f}px wider than the figure"
        assert ext.height <= box.height + _PX, f"legend {ext.height:.0f}px taller than figure"
        ax = legend.axes if legend.parent is legend.axes else None
        if ax is not None:
            axbox = ax.get_window_extent(r)
            if _overlap(ext, axbox, tol=2 * _PX):
                assert _inside(ext, axbox), f"legend at {ext} overlaps and exceeds its axes {axbox}"
        labels = [t.get_text() for t in legend.get_texts()]
        dup = [k for k in set(labels) if labels.count(k) > 1]
        assert not dup, f"legend labels appear twice: {dup}"
        keys = [_legend_key(h) for h in legend.legend_handles if h is not None]
        keyed = [(k, lab) for k, lab in zip(keys, labels, strict=False) if k]
        for (k1, l1), (k2, l2) in itertools.combinations(keyed, 2):
            assert k1 != k2, f"legend entries {l1!r} and {l2!r} share the style {k1}"
    return drawn


def _axis_labels(axis: Any, drawn: Drawn) -> list:
    ids = {id(t) for t in drawn.texts}
    labels = [*axis.get_majorticklabels(), *axis.get_minorticklabels()]
    return [t for t in labels if id(t) in ids]


def check_tick_labels_apart(fig: Any, drawn: Drawn | None = None) -> Drawn:
    """The drawn tick labels of each axis do not overlap each other."""
    drawn = drawn or render(fig)
    for ax in drawn.axes:
        for axis in (ax.xaxis, ax.yaxis):
            labels = _axis_labels(axis, drawn)
            boxes = [t.get_window_extent(drawn.renderer) for t in labels]
            for (a, ta), (b, tb) in itertools.combinations(zip(boxes, labels, strict=True), 2):
                assert not _overlap(a, b), (
                    f"tick labels {ta.get_text()!r} and {tb.get_text()!r} overlap"
                )
    return drawn


def check_ascii_greek(fig: Any, drawn: Drawn | None = None) -> Drawn:
    """No drawn text spells a Greek letter in ASCII."""
    drawn = drawn or render(fig)
    for text in drawn.texts:
        found = _GREEK_RE.search(text.get_text())
        assert found is None, f"{_what(text)} spells {found.group(0)!r} in ASCII: use mathtext"
    return drawn


def check_figure(fig: Any) -> Drawn:
    """All of the checks above on one draw of ``fig``; returns what was drawn."""
    drawn = render(fig)
    check_inside(fig, drawn)
    check_legends(fig, drawn)
    check_tick_labels_apart(fig, drawn)
    check_ascii_greek(fig, drawn)
    return drawn


_POW = re.compile(r"^(?:(-?[\d.]+)\s*(?:\\times|×)\s*)?10\^(-?\d+)$")


def _number(text: str) -> float | None:
    """The number a tick label writes ("0.5", "−2", "$\\mathdefault{10^{-3}}$"), or None."""
    s = text.replace("\\mathdefault", "").replace("$", "").replace("{", "").replace("}", "")
    s = s.replace("\u2212", "-").replace(",", "").strip()
    m = _POW.match(s)
    if m:
        return float(m.group(1) or 1.0) * 10.0 ** int(m.group(2))
    try:
        return float(s)
    except ValueError:
        return None


def tick_values(ax: Any, drawn: Drawn | None = None, axis: str = "x") -> list[tuple[float, float]]:
    """(location, value written) of the numeric tick labels drawn on an axis of ``ax``."""
    drawn = drawn or render(ax.figure)
    ax_ = ax.xaxis if axis == "x" else ax.yaxis
    ids = {id(t) for t in _axis_labels(ax_, drawn)}
    out = []
    for tick in ax_.get_major_ticks():
        if id(tick.label1) in ids:
            value = _number(tick.label1.get_text())
            if value is not None:
                out.append((float(tick.get_loc()), value))
    return out


def check_ticks_match_data(ax: Any, xs: Iterable[float], drawn: Drawn | None = None) -> None:
    """Data drawn at x positions ``xs`` lies within the range of the x tick labels shown (give
    or take one tick spacing), and every numeric tick label names its own position."""
    ticks = tick_values(ax, drawn, "x")
    assert len(ticks) >= 2, f"fewer than two numeric x tick labels: {ticks}"
    xs = np.asarray(list(xs), dtype=float)
    locs = np.array([t[0] for t in ticks])
    values = np.array([t[1] for t in ticks])
    if not ax.xaxis.get_offset_text().get_text():
        scale = max(1.0, float(np.max(np.abs(locs))))
        bad = [(loc, v) for loc, v in ticks if abs(loc - v) > 1e-6 * scale]
        assert not bad, f"tick labels do not name their positions (position, label): {bad}"
    spacing = float(np.min(np.diff(np.sort(values)))) if len(values) > 1 else 0.0
    lo, hi = float(values.min()) - spacing, float(values.max()) + spacing
    assert xs.min() >= lo and xs.max() <= hi, (
        f"data at x in [{xs.min()}, {xs.max()}] outside tick labels [{values.min()}, "
        f"{values.max()}]"
    )
