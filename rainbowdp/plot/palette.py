r"""The one palette of every figure: output colours, rainbow-class colours and series styles.

Three families, chosen so that no two things a figure colours can be confused:

* **outputs** (:func:`output_colors`): the Okabe-Ito palette (Okabe & Ito, *Color Universal
  Design*, 2008), 8 saturated colours distinguishable with every common colour-vision
  deficiency; colour-named outputs ("red", "green", "blue") keep their name, or with
  ``safe=True`` the Okabe-Ito shade of their hue.
* **rainbow classes** (:func:`class_colors`): a family of *pale tints* (CIELAB lightness 75 to
  95, chroma at most about 40), drawn as disks under the saturated output glyphs. Every class
  colour is at least :data:`CLASS_OUTPUT_SEPARATION` CIELAB units (:math:`\Delta E^*_{76}`)
  from every output colour (Okabe-Ito, their safe shades, the plain "red", "green", "blue" and
  the ``plasma`` colours used beyond 8 outputs), with normal vision and under simulated
  deuteranopia and protanopia (Machado, Oliveira & Fernandes, *A physiologically-based model
  for simulation of color vision deficiency*, IEEE TVCG 2009, severity 1). The first
  :data:`CLASS_PALETTE` entries were picked for the largest pairwise distance under the same
  three simulations; more classes are drawn greedily (farthest point first) from the pale tints
  that keep the separation.
* **series** (:func:`series_styles`): line styles for curves drawn together. Colour, line style
  and marker cycle together with coprime periods (7, 4 and 5), so no two of the first 140
  series share all three, and markers are staggered along the curve, so curves that coincide
  stay visible.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from .._validation import check_int
from ._mpl import require_matplotlib

__all__ = [
    "CLASS_OUTPUT_SEPARATION",
    "CLASS_PALETTE",
    "LINE_COLORS",
    "LINE_STYLES",
    "MARKERS",
    "MARKER_SIZES",
    "OUTPUT_PALETTE",
    "class_colors",
    "output_colors",
    "series_styles",
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

#: Pale tints for rainbow classes (see the module notes), the most different first.
CLASS_PALETTE = (
    "#E8A8B0",  # rose
    "#80E0F8",  # pale sky
    "#B0D898",  # sage
    "#F8E8A0",  # cream
    "#E0C8D8",  # mauve
    "#C8F0F8",  # ice
    "#F0C0B0",  # peach
    "#E0F0C8",  # pale lime
    "#E8E0D8",  # linen
)

#: Smallest CIELAB distance between a class colour and an output colour, with normal vision
#: and simulated deuteranopia and protanopia.
CLASS_OUTPUT_SEPARATION = 20.0

#: Colours of :func:`series_styles`: Okabe-Ito without its yellow (too pale for lines).
LINE_COLORS = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#D55E00",
    "#CC79A7",
    "#56B4E9",
    "#000000",
)
#: Line styles of :func:`series_styles`.
LINE_STYLES = ("-", "--", "-.", ":")
#: Markers of :func:`series_styles`.
MARKERS = ("o", "s", "^", "D", "v")

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

#: Machado et al. (2009) simulation matrices, severity 1, on linear RGB.
_CVD = (
    np.eye(3),
    np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.01182, 0.04294, 0.968881],
        ]
    ),
    np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
)
_SRGB_TO_XYZ = np.array(
    [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]
)
_WHITE = np.array([0.95047, 1.0, 1.08883])


def spread_colors(n: int, cmap: str = "viridis", *, lo: float = 0.0, hi: float = 0.92) -> list:
    r"""``n`` colours of a colormap at golden-ratio steps.

    Colour ``i`` is taken at position :math:`t_i = \{i\varphi\}` with
    :math:`\varphi = (\sqrt 5 - 1)/2` (a low-discrepancy sequence): consecutive indices are at
    least 0.38 of the map apart, and no two of the first n colours are closer than about
    :math:`0.38/n`.

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
    mpl = require_matplotlib()

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
    require_matplotlib()
    from matplotlib.colors import is_color_like

    outs = list(outputs)
    if outs and all(isinstance(o, str) and is_color_like(o) for o in outs):
        if not safe:
            return outs
        shaded = [_SAFE_SHADES.get(str(o).lower().replace(" ", ""), o) for o in outs]
        return shaded if len(set(shaded)) == len(set(outs)) else outs
    if len(outs) <= len(OUTPUT_PALETTE):
        return list(OUTPUT_PALETTE[: len(outs)])
    return spread_colors(len(outs), "plasma", hi=0.88)


def class_colors(n: int) -> list:
    """One pale tint per rainbow class, never close to an output colour (see the module notes).

    Parameters
    ----------
    n : int
        Number of rainbow classes (distinct preference orders).

    Returns
    -------
    list
        ``n`` distinct matplotlib colours: :data:`CLASS_PALETTE` when ``n <= 9``; beyond, the
        palette then pale tints picked farthest-first (hex strings). Past the number of
        admissible tints (about two thousand) the tints repeat.

    Examples
    --------
    >>> class_colors(2)
    ['#E8A8B0', '#80E0F8']
    >>> len(set(class_colors(40)))
    40
    """
    n = check_int(n, "n", minimum=0)
    if n <= len(CLASS_PALETTE):
        return list(CLASS_PALETTE[:n])
    want = n - len(CLASS_PALETTE)
    extra = _farthest_tints(1 << (want - 1).bit_length())
    return [*CLASS_PALETTE, *(extra[i % len(extra)] for i in range(n - len(CLASS_PALETTE)))]


#: Marker sizes of the series styles, largest first: curves drawn later get smaller markers.
MARKER_SIZES = (7.0, 4.5, 3.0)


def series_styles(n: int) -> list[dict[str, Any]]:
    """``n`` styles of curves drawn together: keyword arguments of ``ax.plot``.

    Parameters
    ----------
    n : int
        Number of curves.

    Returns
    -------
    list of dict
        Style ``i`` has ``color`` :data:`LINE_COLORS` ``[i % 7]``, ``linestyle``
        :data:`LINE_STYLES` ``[i % 4]``, ``marker`` :data:`MARKERS` ``[i % 5]``, a
        ``markevery`` spacing of a tenth of the axes with a start staggered by series (so the
        markers of coinciding curves do not cover each other) and ``markersize``
        :data:`MARKER_SIZES` ``[i % 3]``: a curve drawn later has smaller markers, so where the
        markers of coinciding curves fall on the same points (few points) they nest and all
        show. Beyond 140
        series the colours come from :func:`spread_colors`, all distinct. No two styles share
        (color, linestyle, marker).

    Examples
    --------
    >>> s = series_styles(3)
    >>> [(d["color"], d["linestyle"], d["marker"]) for d in s]
    [('#0072B2', '-', 'o'), ('#E69F00', '--', 's'), ('#009E73', '-.', '^')]
    >>> len({(d["color"], d["linestyle"], d["marker"]) for d in series_styles(200)})
    200
    """
    n = check_int(n, "n", minimum=0)
    period = math.lcm(len(LINE_COLORS), len(LINE_STYLES), len(MARKERS))
    colors = (
        [LINE_COLORS[i % len(LINE_COLORS)] for i in range(n)]
        if n <= period
        else spread_colors(n, "viridis", hi=0.85)
    )
    step = 0.1
    return [
        {
            "color": colors[i],
            "linestyle": LINE_STYLES[i % len(LINE_STYLES)],
            "marker": MARKERS[i % len(MARKERS)],
            "markevery": (round(step * ((i * _GOLDEN) % 1.0), 4), step),
            "markersize": MARKER_SIZES[i % len(MARKER_SIZES)],
        }
        for i in range(n)
    ]


def _lab(rgb: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """CIELAB (D65) of sRGB colours as seen through a colour-vision simulation matrix."""
    c = np.asarray(rgb, dtype=float)
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    lin = np.clip(lin @ matrix.T, 0.0, 1.0)
    xyz = (lin @ _SRGB_TO_XYZ.T) / _WHITE
    f = np.where(xyz > 216 / 24389, np.cbrt(xyz), (24389 / 27 * xyz + 16) / 116)
    return np.stack(
        [116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1
    )


def _output_reference() -> np.ndarray:
    """Every output colour a figure may use, as sRGB rows (see the module notes)."""
    mpl = require_matplotlib()
    from matplotlib.colors import to_rgb

    names = [*OUTPUT_PALETTE, *_SAFE_SHADES.values(), "red", "green", "blue"]
    plasma = mpl.colormaps["plasma"](np.linspace(0.0, 0.88, 89))[:, :3]
    return np.vstack([np.array([to_rgb(c) for c in names]), plasma])


@functools.lru_cache(maxsize=1)
def _tint_pool() -> tuple[np.ndarray, list[np.ndarray]]:
    """The admissible pale tints (sRGB rows) and their CIELAB under each simulation."""
    levels = np.arange(0, 256, 12) / 255.0
    grid = np.stack(np.meshgrid(levels, levels, levels, indexing="ij"), -1).reshape(-1, 3)
    seen = [_lab(grid, m) for m in _CVD]
    chroma = np.hypot(seen[0][:, 1], seen[0][:, 2])
    keep = (seen[0][:, 0] >= 72) & (seen[0][:, 0] <= 93) & (chroma <= 40)
    grid, seen = grid[keep], [lab[keep] for lab in seen]
    gap = np.full(len(grid), np.inf)
    ref = _output_reference()
    for m, lab in zip(_CVD, seen, strict=True):
        r = _lab(ref, m)
        gap = np.minimum(gap, np.sqrt(((lab[:, None, :] - r[None]) ** 2).sum(-1)).min(1))
    keep = gap >= CLASS_OUTPUT_SEPARATION
    return grid[keep], [lab[keep] for lab in seen]


@functools.lru_cache(maxsize=8)
def _farthest_tints(count: int) -> tuple[str, ...]:
    """Up to ``count`` admissible pale tints beyond :data:`CLASS_PALETTE`, each the farthest
    from those picked before (the smallest distance under the three simulations)."""
    require_matplotlib()
    from matplotlib.colors import to_hex, to_rgb

    rgb, pool = _tint_pool()

    def dist(points: list[np.ndarray]) -> np.ndarray:
        return np.minimum.reduce(
            [
                np.sqrt(((p[:, None, :] - q[None]) ** 2).sum(-1)).min(1)
                for p, q in zip(pool, points, strict=True)
            ]
        )

    base = np.array([to_rgb(c) for c in CLASS_PALETTE])
    nearest = dist([_lab(base, m) for m in _CVD])
    picked: list[str] = []
    for _ in range(min(count, len(rgb))):
        i = int(np.argmax(nearest))
        picked.append(to_hex(rgb[i]).upper())
        nearest = np.minimum(nearest, dist([p[i : i + 1] for p in pool]))
    return tuple(picked)
