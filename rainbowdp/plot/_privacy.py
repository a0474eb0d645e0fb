r"""The plots of differential privacy: the privacy profile δ(ε), a mechanism as a heat map, noise
PMFs and CDFs, and utility-versus-privacy trade-off curves.

Every privacy number drawn or written in a legend comes from the verifier
(:func:`rainbowdp.privacy_profile`, :func:`rainbowdp.epsilon_for_delta`): exact upper bounds,
rounded up; numbers shown as text are rounded up too (:func:`_format_up`), so a label never
claims more privacy than the mechanism has.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_CEILING, Decimal
from typing import Any

import numpy as np

from .._validation import check_delta, check_epsilon, check_int, real_array
from ..exceptions import ParameterError, ParameterTypeError
from ..mechanism import Mechanism
from ..order import expected_utility
from ..privacy import epsilon_for_delta, privacy_profile
from ._style import _axes, output_colors

__all__ = [
    "TradeoffSweep",
    "plot_mechanism_heatmap",
    "plot_noise_cdf",
    "plot_noise_pmf",
    "plot_privacy_profile",
    "plot_tradeoff",
    "tradeoff_sweep",
]

#: Number of evenly spaced ε of the default grid of :func:`plot_privacy_profile`.
PROFILE_POINTS = 101
#: The default grid ends at this multiple of the largest finite ε with δ(ε) = 0 ...
GRID_MARGIN = 1.25
#: ... or at this ε when no mechanism reaches δ = 0 at a finite ε.
DEFAULT_EPSILON_MAX = 5.0
#: Mass a noise law may have outside the range chosen for it when no support is given.
TAIL_MASS = 1e-6
#: Largest |k| searched for that range (beyond it, pass ``support``).
MAX_AUTO_SUPPORT = 2**20
#: Values between the supports of several laws are drawn (with probability 0) when the whole
#: range has fewer values than this.
MAX_FILLED_SUPPORT = 100_000
#: Heat maps with at most this many cells are annotated by default, and at most
#: ``MAX_ANNOTATED_CELLS`` cells can be annotated at all.
AUTO_ANNOTATE_CELLS, MAX_ANNOTATED_CELLS = 120, 2500
#: Profiles on at most this many ε are drawn with a dot at each.
_DOTTED_POINTS = 30
#: Height (axes fraction) of the first bar marking δ = 0 on a log axis, and between bars.
_BAR_Y, _BAR_STEP = 0.012, 0.022
#: Rows (columns) up to which every node (output) is named on the axis of a heat map.
MAX_TICK_LABELS = 40


# ------------------------------------------------------------------------------------ helpers
def _format_up(x: float, digits: int = 4) -> str:
    """``x`` rounded *up* to ``digits`` significant digits, for labels and tables.

    A δ or an ε shown rounded up never understates δ, and δ(ε) is non-increasing, so a
    statement "δ(ε) <= d" stays true with both numbers rounded up.

    Examples
    --------
    >>> _format_up(0.333333333), _format_up(0.5), _format_up(0.0), _format_up(math.inf)
    ('0.3334', '0.5', '0', 'inf')
    >>> _format_up(1.2e-7, 2)
    '1.2e-07'
    """
    if not math.isfinite(x):
        return "inf" if x > 0 else ("-inf" if x < 0 else "nan")
    if x == 0:
        return "0"
    d = Decimal(x)  # exact
    quantum = Decimal(1).scaleb(d.adjusted() - digits + 1)
    return f"{float(d.quantize(quantum, rounding=ROUND_CEILING)):.{digits}g}"


def _pair_mechanism(p: Any, q: Any) -> Mechanism:
    """Two output distributions as a mechanism on two neighbouring nodes ``"P"`` ~ ``"Q"``
    (outputs 0..q-1, both rainbows in that order), so the verifier gives their numbers."""
    import networkx as nx

    from .._validation import check_probability_vector
    from ..graph import RainbowGraph

    a = check_probability_vector(p, "p")
    b = check_probability_vector(q, "q", size=a.shape[0])
    outputs = list(range(a.shape[0]))
    g = nx.Graph()
    g.add_edge("P", "Q")
    nx.set_node_attributes(g, {"P": outputs, "Q": outputs}, "rainbow")
    return Mechanism(RainbowGraph(g, outputs), {"P": a, "Q": b})


def _is_pair(value: Any) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and not any(isinstance(v, Mechanism) for v in value)
    )


def _as_mechanism(value: Any, name: str) -> Mechanism:
    if isinstance(value, Mechanism):
        return value
    if _is_pair(value):
        return _pair_mechanism(*value)
    raise ParameterTypeError(
        f"`{name}` must be a Mechanism or a pair (p, q) of distributions, got "
        f"{type(value).__name__}: {name}={value!r:.80}."
    )


def _check_labels(labels: Any, k: int) -> list[str]:
    if isinstance(labels, str) or not isinstance(labels, Sequence):
        raise ParameterTypeError(
            f"`labels` must be a sequence of {k} strings, got labels={labels!r}."
        )
    if len(labels) != k:
        raise ParameterError(f"`labels` must have {k} entries, got {len(labels)}: {labels!r}.")
    return [str(s) for s in labels]


def _collect(mechanisms: Any, labels: Any) -> list[tuple[str, Mechanism]]:
    """``(label, Mechanism)`` for a Mechanism, a pair, a sequence or a mapping of them."""
    if isinstance(mechanisms, Mapping):
        if labels is not None:
            raise ParameterError(
                "`labels` must not be given with a mapping `mechanisms` (its keys are the "
                f"labels), got labels={labels!r}."
            )
        if not mechanisms:
            raise ParameterError("`mechanisms` must not be empty, got an empty mapping.")
        return [(str(k), _as_mechanism(v, f"mechanisms[{k!r}]")) for k, v in mechanisms.items()]
    if isinstance(mechanisms, Mechanism) or _is_pair(mechanisms):
        items = [_as_mechanism(mechanisms, "mechanisms")]
        default = ["(P, Q)" if _is_pair(mechanisms) else "mechanism"]
    elif isinstance(mechanisms, Sequence) and not isinstance(mechanisms, str | bytes):
        if len(mechanisms) == 0:
            raise ParameterError("`mechanisms` must not be empty, got an empty sequence.")
        items = [_as_mechanism(m, f"mechanisms[{i}]") for i, m in enumerate(mechanisms)]
        default = [f"mechanism {i + 1}" for i in range(len(items))]
    else:
        raise ParameterTypeError(
            "`mechanisms` must be a Mechanism, a pair (p, q), a sequence or a mapping of them, "
            f"got {type(mechanisms).__name__}."
        )
    names = default if labels is None else _check_labels(labels, len(items))
    return list(zip(names, items, strict=True))


def _check_grid(values: Any, name: str) -> np.ndarray:
    if isinstance(values, str | bytes):
        raise ParameterTypeError(f"`{name}` must be an array of numbers, got {name}={values!r}.")
    arr = np.atleast_1d(real_array(values, name))
    if arr.ndim != 1 or arr.size == 0:
        raise ParameterError(f"`{name}` must be a non-empty 1-D array, got shape {arr.shape}.")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise ParameterError(f"`{name}` must be finite and >= 0, got {name}={values!r:.200}.")
    return arr


def _zero_from(mechanisms: Sequence[Mechanism]) -> list[float]:
    """Per mechanism, the proved smallest ε with δ(ε) = 0 (``inf`` if there is none)."""
    return [float(epsilon_for_delta(m, 0.0)) for m in mechanisms]


def _default_grid(zero_from: Sequence[float], num: int = PROFILE_POINTS) -> np.ndarray:
    """``num`` evenly spaced ε from 0 to :data:`GRID_MARGIN` times the largest finite entry of
    ``zero_from`` (1 if that is 0; :data:`DEFAULT_EPSILON_MAX` if none is finite), together
    with the finite entries themselves, sorted."""
    finite = [e for e in zero_from if math.isfinite(e)]
    if not finite:
        top = DEFAULT_EPSILON_MAX
    else:
        top = GRID_MARGIN * max(finite) if max(finite) > 0 else 1.0
    grid = np.concatenate([np.linspace(0.0, top, num), np.asarray(finite, dtype=float)])
    return np.unique(grid)


def _legend_outside(ax: Any) -> None:
    """The legend to the right of the axes, where it cannot hide data."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize=8)


# ------------------------------------------------------------------------------------ profile
def plot_privacy_profile(
    mechanisms: Any,
    epsilons: Any = None,
    *,
    labels: Sequence[str] | None = None,
    target: tuple[float, float] | None = None,
    ax: Any = None,
    logy: bool = True,
    ymin: float | None = None,
    title: str | None = None,
) -> Any:
    r"""The privacy profile :math:`\delta(\epsilon) = \max_{d \sim d'} H_{e^\epsilon}(\mathcal
    M(d) \| \mathcal M(d'))` of one or more mechanisms.

    Each curve is :func:`rainbowdp.privacy_profile` at the grid ``epsilons``: the smallest δ for
    which the mechanism is (ε, δ)-DP, exact and rounded up. The profile is convex and
    non-increasing; it reaches 0 at the smallest ε of pure DP, which the legend states ("δ = 0
    for ε ≥ ...", :func:`rainbowdp.epsilon_for_delta` at δ = 0, proved and rounded up; or
    "δ > 0 at every ε" when no finite ε gives pure DP).
    A log y axis cannot show δ = 0: there the curve stops at its last positive point, and the
    stretch where δ = 0 is a thick bar along the bottom edge of the axes (in the curve's colour,
    from a dotted vertical line at that ε).

    Parameters
    ----------
    mechanisms : Mechanism, pair, sequence or mapping
        A :class:`~rainbowdp.Mechanism`; a pair ``(p, q)`` of two distributions over the same
        outputs (drawn as the mechanism of two neighbouring nodes, so δ(ε) is
        :math:`\max(H_{e^\epsilon}(p\|q), H_{e^\epsilon}(q\|p))`); a sequence of those; or a
        mapping label -> Mechanism or pair.
    epsilons : array_like of float, optional
        The ε grid (finite, >= 0; drawn sorted). Default: :data:`PROFILE_POINTS` values from 0 to
        :data:`GRID_MARGIN` times the largest finite ε with δ(ε) = 0 among the mechanisms (those
        ε themselves included), or to :data:`DEFAULT_EPSILON_MAX` when none is finite.
    labels : sequence of str, optional
        Legend labels (not with a mapping, whose keys are the labels).
    target : (float, float), optional
        A requested (ε, δ), marked by a black star; each mechanism gets a marker at its
        δ(ε) and a legend entry with the verdict: private iff δ(ε) <= δ (a sound verdict, δ(ε)
        being rounded up).
    ax : matplotlib.axes.Axes, optional
        Axes to draw on (default: a new Figure).
    logy : bool, default True
        Log scale on the δ axis.
    ymin : float, optional
        Lower limit of the δ axis (> 0 with ``logy``); parts of curves below it leave the
        axes at the bottom. Default: matplotlib's autoscaling.
    title : str, optional
        Axes title (default: "privacy profile").

    Returns
    -------
    matplotlib.figure.Figure
        The profile of mechanism *i* is the Line2D of ``gid`` ``"privacy_profile"``, labelled
        ``labels[i]`` and the note on δ = 0 in parentheses, whose data are exactly
        ``(ε, δ(ε))``; the bars have ``gid`` ``"zero_delta"``, the target ``"target"``, the
        markers of the verdicts ``"verdict_private"`` or ``"verdict_not_private"``.

    Raises
    ------
    ParameterError
        If ``epsilons`` is empty, not 1-D, negative or not finite, ``labels`` has the wrong
        length or is given with a mapping, ``target`` is not an (ε, δ) pair with ε >= 0 and
        δ in [0, 1], ``ymin`` is not a number > 0, or a pair is not two distributions of the
        same length.
    ParameterTypeError
        If ``mechanisms`` holds something other than Mechanisms or pairs.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rainbowdp import Mechanism, RainbowGraph
    >>> M = Mechanism(RainbowGraph.line(["yes", "no"], 1), [[0.75, 0.25], [0.25, 0.75]])
    >>> fig = plot_privacy_profile(M, [0.0, 0.5, 1.0, 1.5], target=(1.0, 0.1))
    >>> line = [ln for ln in fig.axes[0].lines if ln.get_gid() == "privacy_profile"][0]
    >>> line.get_ydata().tolist() == privacy_profile(M, [0.0, 0.5, 1.0, 1.5]).tolist()
    True
    >>> fig.axes[0].get_yscale()
    'log'
    """
    from matplotlib.transforms import blended_transform_factory

    items = _collect(mechanisms, labels)
    mechs = [m for _, m in items]
    zero_from = _zero_from(mechs)
    grid = (
        _default_grid(zero_from) if epsilons is None else np.sort(_check_grid(epsilons, "epsilons"))
    )
    if not isinstance(logy, bool | np.bool_):
        raise ParameterTypeError(f"`logy` must be True or False, got logy={logy!r}.")
    if ymin is not None:
        ymin = float(check_delta(ymin, "ymin"))
        if logy and ymin <= 0:
            raise ParameterError(f"`ymin` must be > 0 on a log axis, got ymin={ymin!r}.")
    tgt = _check_target(target)
    profiles = [privacy_profile(m, grid) for m in mechs]

    fig, ax = _axes(ax, (9.0, 4.4))
    colors = output_colors(range(len(items)))
    bottom = blended_transform_factory(ax.transData, ax.transAxes)
    n_bars = 0
    for (label, _), d, e0, c in zip(items, profiles, zero_from, colors, strict=True):
        if math.isfinite(e0):
            text = f"{label} (δ = 0 for ε ≥ {_format_up(e0)})"
        else:
            text = f"{label} (δ > 0 at every ε)"
        dots = {"marker": "o", "ms": 3} if grid.size <= _DOTTED_POINTS else {}
        ax.plot(grid, d, color=c, lw=1.6, label=text, gid="privacy_profile", **dots)
        if logy and math.isfinite(e0) and bool(np.any(d == 0)):
            y = _BAR_Y + _BAR_STEP * n_bars
            ax.plot(
                [max(e0, float(grid[0])), float(grid[-1])],
                [y, y],
                transform=bottom,
                color=c,
                lw=4,
                solid_capstyle="butt",
                gid="zero_delta",
            )
            ax.axvline(e0, color=c, ls=":", lw=1.0)
            n_bars += 1
    if n_bars:  # a legend entry for the bars (text in the axes could cover a curve)
        ax.plot([], [], color="0.45", lw=4, solid_capstyle="butt", label="bar at the bottom: δ = 0")
    if tgt is not None:
        _draw_target(ax, tgt, items, colors, logy, bottom)
    if logy:
        positive = [d[d > 0] for d in profiles]
        if tgt is not None and tgt[1] > 0:
            positive.append(np.array([tgt[1]]))
        if not any(p.size for p in positive):  # nothing to scale on: every δ drawn is 0
            ax.set_ylim(1e-3 if ymin is None else min(ymin, 0.5), 1.0)
        ax.set_yscale("log", nonpositive="mask")
        if ymin is not None and any(p.size for p in positive):
            ax.set_ylim(bottom=ymin)
    else:
        ax.set_ylim(bottom=0.0 if ymin is None else ymin)
    ax.set_xlim(float(grid[0]), float(grid[-1]) if grid[-1] > grid[0] else float(grid[0]) + 1)
    if tgt is not None and tgt[0] > ax.get_xlim()[1]:
        ax.set_xlim(right=tgt[0] * 1.05)
    ax.set_xlabel("ε")
    ax.set_ylabel("δ(ε)  (exact, rounded up)")
    ax.set_title("privacy profile" if title is None else title)
    ax.grid(True, which="major", alpha=0.3)
    _legend_outside(ax)
    return fig


def _check_target(target: Any) -> tuple[float, float] | None:
    if target is None:
        return None
    if isinstance(target, str | bytes) or not isinstance(target, Sequence) or len(target) != 2:
        raise ParameterError(f"`target` must be a pair (epsilon, delta), got target={target!r}.")
    return check_epsilon(target[0], "target[0]"), check_delta(target[1], "target[1]")


def _draw_target(
    ax: Any,
    tgt: tuple[float, float],
    items: list[tuple[str, Mechanism]],
    colors: list,
    logy: bool,
    bottom: Any,
) -> None:
    """The requested (ε, δ) and, per mechanism, δ(ε) with its verdict."""
    eps, dlt = tgt
    on_floor = {"transform": bottom, "clip_on": False}
    where = on_floor if (logy and dlt == 0) else {}
    ax.plot(
        [eps],
        [_BAR_Y if where else dlt],
        "*",
        color="black",
        ms=14,
        zorder=5,
        label=f"target (ε, δ) = ({eps:g}, {dlt:g})",
        gid="target",
        **where,
    )
    for (label, m), c in zip(items, colors, strict=True):
        d = float(privacy_profile(m, [eps])[0])
        private = d <= dlt
        verdict = "private" if private else "NOT private"
        sign = "≤" if private else ">"
        where = on_floor if (logy and d == 0) else {}
        ax.plot(
            [eps],
            [_BAR_Y if where else d],
            "o",
            mfc="white",
            mec=c,
            mew=1.8,
            ms=8,
            zorder=6,
            label=f"{label} at the target: δ = {_format_up(d)} {sign} {dlt:g}, {verdict}",
            gid="verdict_private" if private else "verdict_not_private",
            **where,
        )


# ------------------------------------------------------------------------------------ heat map
def _ordinal(k: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd"."""
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def plot_mechanism_heatmap(
    mechanism: Any,
    *,
    order: str = "outputs",
    ax: Any = None,
    annotate: bool | None = None,
    log: bool = False,
    cmap: str = "viridis",
) -> Any:
    r"""A mechanism as a nodes x outputs heat map of :math:`\mathbb P[\mathcal M(d) = v]`.

    Parameters
    ----------
    mechanism : Mechanism or pair (p, q)
        The mechanism (a pair is drawn as two rows "P" and "Q").
    order : {"outputs", "rainbow"}, default "outputs"
        ``"outputs"``: column j is output ``graph.outputs[j]``; ``"rainbow"``: column k is each
        node's k-th preferred output (:meth:`Mechanism.in_rainbow_order`, columns "1st",
        "2nd", ...), where an order-reasonable mechanism decreases along every row.
    ax : matplotlib.axes.Axes, optional
    annotate : bool, optional
        Write each probability in its cell. Default: only when there are at most
        :data:`AUTO_ANNOTATE_CELLS` cells; never more than :data:`MAX_ANNOTATED_CELLS`.
    log : bool, default False
        Logarithmic colour scale (zeros, which it cannot show, are drawn in light grey).
    cmap : str, default "viridis"
        A matplotlib colormap name.

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[0].images[0].get_array()`` is the array drawn (rows in ``graph.nodes``
        order). Nodes (outputs) are named on the axis when there are at most
        :data:`MAX_TICK_LABELS` of them; large mechanisms (10^4 nodes and more) are drawn
        without cell text, one pixel row possibly averaging several nodes.

    Raises
    ------
    ParameterError
        If ``order`` or ``cmap`` is unknown, or ``annotate=True`` with more than
        :data:`MAX_ANNOTATED_CELLS` cells.
    ParameterTypeError
        If ``mechanism`` is not a Mechanism or a pair, or a flag is not a bool.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rainbowdp import Mechanism, RainbowGraph
    >>> G = RainbowGraph.line(["a", "b", "c"], 2)
    >>> M = Mechanism(G, [[0.6, 0.3, 0.1], [0.5, 0.3, 0.2], [0.4, 0.35, 0.25]])
    >>> fig = plot_mechanism_heatmap(M, order="rainbow")
    >>> fig.axes[0].images[0].get_array().tolist() == M.in_rainbow_order().tolist()
    True
    >>> [t.get_text() for t in fig.axes[0].get_xticklabels()]
    ['1st', '2nd', '3rd']
    """
    import matplotlib as mpl
    from matplotlib.colors import LogNorm, Normalize

    m = _as_mechanism(mechanism, "mechanism")
    if order not in ("outputs", "rainbow"):
        raise ParameterError(f"`order` must be 'outputs' or 'rainbow', got order={order!r}.")
    for name, flag in (("annotate", annotate), ("log", log)):
        if not (flag is None and name == "annotate") and not isinstance(flag, bool | np.bool_):
            raise ParameterTypeError(f"`{name}` must be True or False, got {name}={flag!r}.")
    g = m.graph
    data = m.probabilities if order == "outputs" else m.in_rainbow_order()
    n, q = data.shape
    if annotate is None:
        annotate = n * q <= AUTO_ANNOTATE_CELLS
    elif annotate and n * q > MAX_ANNOTATED_CELLS:
        raise ParameterError(
            f"`annotate` can label at most {MAX_ANNOTATED_CELLS} cells, this mechanism has "
            f"{n} x {q} = {n * q}; got annotate=True."
        )
    if not isinstance(cmap, str) or cmap not in mpl.colormaps:
        raise ParameterError(f"`cmap` must name a matplotlib colormap, got cmap={cmap!r}.")
    colormap = mpl.colormaps[cmap]
    if log:
        positive = data[data > 0]
        hi = float(positive.max())
        lo = float(positive.min())
        norm: Any = LogNorm(vmin=min(lo, hi / 10), vmax=hi)
        colormap = colormap.with_extremes(bad="lightgrey")
        shown = np.ma.masked_less_equal(data, 0.0)
    else:
        norm = Normalize(vmin=0.0, vmax=float(data.max()))
        shown = data
    width = min(max(4.5, 0.55 * q + 2.5), 12.0)
    height = min(max(3.0, 0.35 * n + 1.4), 9.0)
    fig, ax = _axes(ax, (width, height))
    small = n <= 1000 and q <= 1000
    im = ax.imshow(
        shown,
        cmap=colormap,
        norm=norm,
        aspect="auto",
        interpolation="nearest" if small else "antialiased",
        origin="upper",
    )
    if annotate:
        rgba = colormap(norm(shown))
        light = (rgba[..., :3] @ np.array([0.299, 0.587, 0.114])) < 0.5
        for (i, j), v in np.ndenumerate(data):
            ax.text(
                j,
                i,
                f"{v:.3g}",
                ha="center",
                va="center",
                fontsize=7,
                color="white" if light[i, j] else "black",
            )
    if n <= MAX_TICK_LABELS:
        ax.set_yticks(range(n), [str(d) for d in g.nodes])
        ax.set_ylabel("node d")
    else:
        ax.set_ylabel(f"node index (0..{n - 1}, in graph.nodes order)")
    if order == "outputs":
        if q <= MAX_TICK_LABELS:
            ax.set_xticks(range(q), [str(v) for v in g.outputs])
        ax.set_xlabel("output v")
        what = "outputs order"
    else:
        if q <= MAX_TICK_LABELS:
            ax.set_xticks(range(q), [_ordinal(k + 1) for k in range(q)])
        ax.set_xlabel("k-th preferred output of the node's rainbow")
        what = "rainbow order"
    ax.set_title(f"mechanism, {n} nodes x {q} outputs ({what})")
    label = "P[M(d) = v]" if order == "outputs" else "P[M(d) = f(d)_k]"
    fig.colorbar(im, ax=ax, label=label + (" (log; 0 in grey)" if log else ""))
    return fig


# ------------------------------------------------------------------------------- noise laws
def _is_law(value: Any) -> bool:
    from ..noise import AdditiveFamily, NoiseLaw

    return isinstance(value, NoiseLaw | AdditiveFamily)


def _law_of(value: Any) -> Any:
    from ..noise import AdditiveFamily

    return value.law() if isinstance(value, AdditiveFamily) else value


def _check_support(support: Any, size: int | None) -> np.ndarray:
    """``support`` as a strictly increasing int64 array of ``size`` values (None: any size);
    an int is the first of ``size`` consecutive values, None means 0..size-1."""
    if support is None:
        return np.arange(size or 0, dtype=np.int64)
    if isinstance(support, numbers.Integral) and not isinstance(support, bool):
        if size is None:
            raise ParameterError(
                f"`support` must be an array of integers for a noise law, got support={support!r}."
            )
        start = check_int(support, "support")
        return np.arange(start, start + size, dtype=np.int64)
    arr = real_array(support, "support")
    if arr.ndim != 1 or arr.size == 0:
        raise ParameterError(f"`support` must be a non-empty 1-D array, got shape {arr.shape}.")
    if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)) or np.any(abs(arr) > 2**52):
        raise ParameterError(f"`support` must hold integers, got support={support!r:.200}.")
    if arr.size > 1 and np.any(np.diff(arr) <= 0):
        raise ParameterError(
            f"`support` must be strictly increasing, got support={support!r:.200}."
        )
    if size is not None and arr.size != size:
        raise ParameterError(
            f"`support` must have one value per probability ({size}), got {arr.size}."
        )
    return arr.astype(np.int64)


def _law_range(law: Any) -> np.ndarray:
    """An integer range holding all but :data:`TAIL_MASS` of a law's mass."""
    try:
        lo, hi = law.window()
        return np.arange(lo, hi + 1, dtype=np.int64)
    except NotImplementedError:
        pass
    r = 1
    while True:
        outside = float(law.cdf(np.array([-r - 1]))[0] + law.sf(np.array([r + 1]))[0])
        if outside <= TAIL_MASS / 2:
            break
        if r >= MAX_AUTO_SUPPORT:
            raise ParameterError(
                f"the noise law {law!r} has more than {TAIL_MASS:g} of its mass beyond "
                f"+-{MAX_AUTO_SUPPORT}; pass `support` to choose the range shown."
            )
        r *= 2
    k = np.arange(-r, r + 1, dtype=np.int64)
    keep = (law.cdf(k) > TAIL_MASS / 4) & (law.sf(k) > TAIL_MASS / 4)
    return k[keep] if np.any(keep) else k


def _laws(pmf: Any, support: Any, labels: Any) -> tuple[np.ndarray, list, list, list]:
    """The common support, and per law: its label, PMF and CDF on that support and the CDF
    just below it."""
    if isinstance(pmf, Mapping):
        if labels is not None:
            raise ParameterError(
                "`labels` must not be given with a mapping `pmf` (its keys are the labels), "
                f"got labels={labels!r}."
            )
        if not pmf:
            raise ParameterError("`pmf` must not be empty, got an empty mapping.")
        names, entries = [str(k) for k in pmf], list(pmf.values())
    elif _is_law(pmf):
        names, entries = [repr(pmf)], [pmf]
    elif isinstance(pmf, list | tuple) and pmf and any(_is_law(v) for v in pmf):
        names, entries = [repr(v) for v in pmf], list(pmf)
    else:
        if isinstance(pmf, str | bytes):
            raise ParameterTypeError(f"`pmf` must be an array of numbers, got pmf={pmf!r}.")
        arr = real_array(pmf, "pmf")
        if arr.ndim not in (1, 2) or arr.size == 0:
            raise ParameterError(
                f"`pmf` must be a non-empty array of shape (n,) or (k, n), got shape {arr.shape}."
            )
        rows = np.atleast_2d(arr)
        names = [f"law {i + 1}" for i in range(rows.shape[0])] if rows.shape[0] > 1 else ["pmf"]
        entries = list(rows)
    if labels is not None:
        names = _check_labels(labels, len(entries))
    explicit = None if support is None or isinstance(support, numbers.Integral) else support
    pieces: list[tuple[Any, np.ndarray]] = []  # (law or None, values on own support)
    supports: list[np.ndarray] = []
    for name, entry in zip(names, entries, strict=True):
        if _is_law(entry):
            law = _law_of(entry)
            k = _check_support(explicit, None) if explicit is not None else _law_range(law)
            pieces.append((law, k))
            supports.append(k)
            continue
        if isinstance(entry, str | bytes):
            raise ParameterTypeError(f"`pmf` entry {name!r} must be numbers, got {entry!r}.")
        row = real_array(entry, f"pmf[{name!r}]")
        if row.ndim != 1 or row.size == 0:
            raise ParameterError(
                f"`pmf` entry {name!r} must be a non-empty 1-D array, got shape {row.shape}."
            )
        if not np.all(np.isfinite(row)) or np.any(row < 0) or row.sum() > 1 + 1e-9:
            raise ParameterError(
                f"`pmf` entry {name!r} must hold finite probabilities >= 0 summing to at most "
                f"1, got {row.tolist()!r:.200}."
            )
        k = _check_support(support, row.size)
        pieces.append((None, row))
        supports.append(k)
    grid = np.unique(np.concatenate(supports))
    if grid[-1] - grid[0] < MAX_FILLED_SUPPORT:  # values between supports have probability 0
        grid = np.arange(grid[0], grid[-1] + 1, dtype=np.int64)
    pmfs, cdfs, before = [], [], []
    for (law, values), k in zip(pieces, supports, strict=True):
        if law is None:
            p = np.zeros(grid.size)
            p[np.searchsorted(grid, k)] = values
            pmfs.append(p)
            cdfs.append(np.cumsum(p))
            before.append(0.0)
        else:
            pmfs.append(np.asarray(law.pmf(grid), dtype=float))
            cdfs.append(np.asarray(law.cdf(grid), dtype=float))
            before.append(float(law.cdf(grid[:1] - 1)[0]))
    return grid, names, pmfs, list(zip(cdfs, before, strict=True))


def plot_noise_pmf(
    pmf: Any,
    support: Any = None,
    *,
    labels: Sequence[str] | None = None,
    kind: str | None = None,
    logy: bool = False,
    ax: Any = None,
) -> Any:
    r"""The PMF :math:`f(k) = \Pr[\eta = k]` of one or more integer noise laws.

    Parameters
    ----------
    pmf : array_like, NoiseLaw, AdditiveFamily, sequence or mapping
        An array of probabilities of shape (n,) (one law) or (k, n) (k laws on one support);
        a :class:`rainbowdp.noise.NoiseLaw` (e.g. ``noise.TableLaw(p, offset=-2)``,
        ``noise.GeometricLaw(alpha)``); an additive family such as ``noise.Geometric(1.0)``
        (its :meth:`~rainbowdp.noise.AdditiveFamily.law`, at the family's build ε); a list of
        laws; or a mapping label -> any of these (arrays then share ``support``).
    support : int or array_like of int, optional
        The noise values of the array entries: an int is the value of entry 0 (default 0),
        an array gives one strictly increasing integer per entry. For laws, an array chooses
        the values shown; by default a law's finite window, or the smallest range
        :math:`[-2^j, 2^j]`, trimmed, outside which it has at most :data:`TAIL_MASS` of its
        mass. Several laws are drawn on the union of their supports, filled to a range of
        consecutive integers (values outside every support have probability 0) unless that
        range has :data:`MAX_FILLED_SUPPORT` values or more.
    labels : sequence of str, optional
        Legend labels (not with a mapping).
    kind : {"stem", "bar", "line"}, optional
        Stems (laws side by side), grouped bars, or lines with markers. Default: stems when
        there are at most 120 (law, value) pairs, else lines.
    logy : bool, default False
        Log scale on the probability axis (zero probabilities are not drawn).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ParameterError
        If an array has negative or non-finite entries or sums to more than 1, ``support`` is
        not strictly increasing integers of the right length, ``kind`` is unknown or
        ``labels`` has the wrong length.
    ParameterTypeError
        If ``pmf`` is neither numbers nor noise laws.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> fig = plot_noise_pmf([0.25, 0.5, 0.25], support=-1)
    >>> stems = fig.axes[0].containers[0]
    >>> stems.markerline.get_xdata().tolist(), stems.markerline.get_ydata().tolist()
    ([-1.0, 0.0, 1.0], [0.25, 0.5, 0.25])
    """
    grid, names, pmfs, _ = _laws(pmf, support, labels)
    n_laws = len(pmfs)
    if kind is None:
        kind = "stem" if n_laws * grid.size <= 120 else "line"
    if kind not in ("stem", "bar", "line"):
        raise ParameterError(f"`kind` must be 'stem', 'bar' or 'line', got kind={kind!r}.")
    if not isinstance(logy, bool | np.bool_):
        raise ParameterTypeError(f"`logy` must be True or False, got logy={logy!r}.")
    fig, ax = _axes(ax, (7.0, 3.8))
    colors = output_colors(range(n_laws))
    width = 0.8 / n_laws
    x = grid.astype(float)
    floor = 0.0
    if logy:
        positive = np.concatenate([p[p > 0] for p in pmfs])
        floor = float(positive.min()) / 3 if positive.size else 1e-3
    for i, (name, p, c) in enumerate(zip(names, pmfs, colors, strict=True)):
        shift = (i - (n_laws - 1) / 2) * width if kind != "line" else 0.0
        if kind == "stem":
            st = ax.stem(x + shift, p, linefmt="-", markerfmt="o", basefmt=" ", bottom=floor)
            st.set_label(name)
            for art in (st.markerline, st.stemlines):
                art.set_color(c)
            st.markerline.set_markersize(4)
            st.stemlines.set_linewidth(1.2)
        elif kind == "bar":
            ax.bar(x + shift, p, width=width, color=c, label=name, edgecolor="black", lw=0.3)
        else:
            ax.plot(x, p, "-o", ms=2.5, lw=1.2, color=c, label=name, gid="pmf")
    if logy:
        ax.set_yscale("log", nonpositive="mask")
        ax.set_ylim(bottom=floor)
    else:
        ax.set_ylim(bottom=0.0)
    if grid.size <= 25:
        ax.set_xticks(grid)
    ax.set_xlabel("noise value k")
    ax.set_ylabel("P[η = k]")
    ax.set_title("noise PMF")
    ax.grid(True, axis="y", alpha=0.3)
    if n_laws > 1 or labels is not None or isinstance(pmf, Mapping):
        _legend_outside(ax)
    return fig


def plot_noise_cdf(
    pmf: Any,
    support: Any = None,
    *,
    labels: Sequence[str] | None = None,
    ax: Any = None,
) -> Any:
    r"""The CDF :math:`F(k) = \Pr[\eta \le k]` of one or more integer noise laws, as steps.

    Arguments are those of :func:`plot_noise_pmf`. For an array the CDF is the cumulative sum
    of its entries (it ends at their sum, 1 for a full PMF); for a law it is the law's own
    :meth:`~rainbowdp.noise.NoiseLaw.cdf` (which also counts mass outside the values shown).
    Each curve starts one value before the support, at the CDF there, and ends one value after.

    Returns
    -------
    matplotlib.figure.Figure
        Curve *i* is the Line2D of ``gid`` ``"cdf"`` whose y data are
        ``[F(k_0 - 1), F(k_0), ..., F(k_last), F(k_last)]``.

    Raises
    ------
    ParameterError, ParameterTypeError
        As :func:`plot_noise_pmf`.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> fig = plot_noise_cdf([0.25, 0.5, 0.25], support=-1)
    >>> fig.axes[0].lines[0].get_ydata().tolist()
    [0.0, 0.25, 0.75, 1.0, 1.0]
    """
    grid, names, _, cdfs = _laws(pmf, support, labels)
    fig, ax = _axes(ax, (7.0, 3.8))
    colors = output_colors(range(len(cdfs)))
    x = np.concatenate([[grid[0] - 1], grid, [grid[-1] + 1]]).astype(float)
    for name, (cdf, before), c in zip(names, cdfs, colors, strict=True):
        y = np.concatenate([[before], cdf, cdf[-1:]])
        ax.step(x, y, where="post", color=c, lw=1.5, label=name, gid="cdf")
    ax.axhline(1.0, color="grey", ls=":", lw=0.8)
    ax.set_ylim(-0.02, 1.05)
    ax.set_xlim(x[0], x[-1])
    ax.set_xlabel("noise value k")
    ax.set_ylabel("P[η ≤ k]")
    ax.set_title("noise CDF")
    ax.grid(True, alpha=0.3)
    if len(cdfs) > 1 or labels is not None or isinstance(pmf, Mapping):
        _legend_outside(ax)
    return fig


# ------------------------------------------------------------------------------------ trade-off
@dataclass(frozen=True)
class TradeoffSweep:
    r"""Privacy and utility of families of mechanisms built at a grid of ε
    (:func:`tradeoff_sweep`).

    Attributes
    ----------
    epsilons : numpy.ndarray
        The ε passed to every builder.
    delta : float
        The δ at which :attr:`proved_epsilon` is computed.
    labels : tuple of str
        The families, in the order given.
    proved_epsilon : dict str -> numpy.ndarray
        :func:`rainbowdp.epsilon_for_delta` (M, δ) of each built mechanism: the smallest ε it
        satisfies at :attr:`delta`, proved and rounded up (``inf`` if there is none).
    delta_at_epsilon : dict str -> numpy.ndarray
        :func:`rainbowdp.privacy_profile` of each built mechanism at the ε it was built for.
    utility : dict str -> numpy.ndarray
        :func:`rainbowdp.expected_utility` of each built mechanism (divided by the number of
        nodes when :attr:`average`).
    utility_name : str
        What :attr:`utility` measures (for axis labels).
    average : bool
        Whether :attr:`utility` is a mean over the nodes rather than a sum.
    """

    epsilons: np.ndarray
    delta: float
    labels: tuple[str, ...]
    proved_epsilon: dict[str, np.ndarray]
    delta_at_epsilon: dict[str, np.ndarray]
    utility: dict[str, np.ndarray]
    utility_name: str
    average: bool

    def to_dict(self) -> dict:
        """Plain lists and numbers (``inf`` kept as a float)."""
        return {
            "epsilons": self.epsilons.tolist(),
            "delta": self.delta,
            "labels": list(self.labels),
            "proved_epsilon": {k: v.tolist() for k, v in self.proved_epsilon.items()},
            "delta_at_epsilon": {k: v.tolist() for k, v in self.delta_at_epsilon.items()},
            "utility": {k: v.tolist() for k, v in self.utility.items()},
            "utility_name": self.utility_name,
            "average": self.average,
        }


def _utility_of(m: Mechanism, utility: Any) -> float:
    """:func:`expected_utility` for a numeric spec, else via the designers' utility matrix."""
    if isinstance(utility, np.ndarray) or (
        isinstance(utility, list | tuple)
        and not (len(utility) == 2 and isinstance(utility[0], str))
    ):
        return expected_utility(m, utility)
    from ..design import utility_matrix

    return expected_utility(m, utility_matrix(m.graph, utility))


def tradeoff_sweep(
    builders: Mapping[str, Callable[[float], Mechanism]],
    epsilons: Any,
    *,
    delta: float = 0.0,
    utility: Any = "accuracy",
    average: bool = True,
) -> TradeoffSweep:
    r"""Build each family of mechanisms at every ε and measure its privacy and utility.

    Parameters
    ----------
    builders : mapping str -> callable
        ``builder(epsilon) -> Mechanism`` per family, e.g. ``lambda e: noise.geometric(G,
        epsilon=e)`` or ``lambda e: design.lp(G, epsilon=e).mechanism``.
    epsilons : array_like of float
        The ε to build at (finite, >= 0; 0 only if every builder accepts it).
    delta : float, default 0
        The δ of the proved ε.
    utility : str, array_like, callable or ("loss", L), default "accuracy"
        A (q,) vector by rank or an (N, q) array (:func:`rainbowdp.expected_utility`), or any
        specification of :func:`rainbowdp.design.utility_matrix`: ``"accuracy"`` (probability
        of the top of the rainbow), ``"rank"``, ``"absolute"``, ``"squared"`` (minus the error
        of numeric outputs), a loss ``loss(output, answer)`` or ``("loss", L)``.
    average : bool, default True
        Report the mean over the nodes (each dataset weighted equally) instead of the sum
        :func:`rainbowdp.expected_utility` computes.

    Returns
    -------
    TradeoffSweep

    Raises
    ------
    ParameterError
        If ``builders`` is empty or ``epsilons`` is empty, not 1-D, negative or not finite.
    ParameterTypeError
        If a builder is not callable or returns something other than a Mechanism (the family is
        named).

    Examples
    --------
    >>> from rainbowdp import noise
    >>> from rainbowdp.builders import count_path
    >>> G = count_path(6)
    >>> s = tradeoff_sweep({"geometric": lambda e: noise.geometric(G, epsilon=e)}, [0.5, 1.0])
    >>> bool(s.proved_epsilon["geometric"][1] <= 1.0), s.utility["geometric"].shape
    (True, (2,))
    """
    if not isinstance(builders, Mapping) or not builders:
        raise ParameterError(
            f"`builders` must be a non-empty mapping label -> callable(epsilon), got "
            f"builders={builders!r:.120}."
        )
    eps = _check_grid(epsilons, "epsilons")
    dlt = check_delta(delta)
    if not isinstance(average, bool | np.bool_):
        raise ParameterTypeError(f"`average` must be True or False, got average={average!r}.")
    proved: dict[str, np.ndarray] = {}
    at_eps: dict[str, np.ndarray] = {}
    util: dict[str, np.ndarray] = {}
    for key, build in builders.items():
        label = str(key)
        if not callable(build):
            raise ParameterTypeError(
                f"`builders[{key!r}]` must be a callable epsilon -> Mechanism, got {build!r}."
            )
        pe, de, ue = [], [], []
        for e in eps.tolist():
            m = build(e)
            if not isinstance(m, Mechanism):
                raise ParameterTypeError(
                    f"`builders[{key!r}]` must return a Mechanism, got "
                    f"{type(m).__name__} at epsilon={e!r}."
                )
            pe.append(float(epsilon_for_delta(m, dlt)))
            de.append(float(privacy_profile(m, [e])[0]))
            u = _utility_of(m, utility)
            ue.append(u / m.graph.n_nodes if average else u)
        proved[label], at_eps[label], util[label] = np.array(pe), np.array(de), np.array(ue)
    name = utility if isinstance(utility, str) else "given utility"
    return TradeoffSweep(
        epsilons=eps,
        delta=dlt,
        labels=tuple(proved),
        proved_epsilon=proved,
        delta_at_epsilon=at_eps,
        utility=util,
        utility_name=str(name),
        average=bool(average),
    )


_AXES = {
    "epsilon": "ε the mechanism was built for",
    "proved_epsilon": "proved ε at δ = {delta:g} (rounded up)",
    "delta_at_epsilon": "δ(ε) at the ε it was built for (rounded up)",
}


def plot_tradeoff(
    sweep: TradeoffSweep,
    *,
    x: str = "epsilon",
    y: str = "utility",
    ax: Any = None,
    logx: bool = False,
    title: str | None = None,
) -> Any:
    r"""Utility against privacy: one curve per family of a :func:`tradeoff_sweep`.

    Parameters
    ----------
    sweep : TradeoffSweep
    x : {"epsilon", "proved_epsilon"}, default "epsilon"
        The ε each mechanism was built for, or the ε it is proved to satisfy at
        ``sweep.delta`` (the honest privacy axis when a family over- or under-states its ε;
        infinite values are left out and counted in the legend).
    y : {"utility", "proved_epsilon", "delta_at_epsilon"}, default "utility"
        What to draw: the expected utility, the proved ε (with the diagonal "proved = built"
        when ``x="epsilon"``), or δ(ε) at the ε built for.
    ax : matplotlib.axes.Axes, optional
    logx : bool, default False
        Log scale on the x axis.
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
        Family *i* is the Line2D of ``gid`` ``"tradeoff"`` and label ``sweep.labels[i]``.
        A family whose label contains "optimal" is drawn thick and black.

    Raises
    ------
    ParameterError
        If ``x`` or ``y`` is not one of the names above, or both are the same.
    ParameterTypeError
        If ``sweep`` is not a :class:`TradeoffSweep`.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rainbowdp import noise
    >>> from rainbowdp.builders import count_path
    >>> G = count_path(4)
    >>> s = tradeoff_sweep({"geometric": lambda e: noise.geometric(G, epsilon=e)}, [0.5, 1, 2])
    >>> fig = plot_tradeoff(s)
    >>> fig.axes[0].lines[0].get_ydata().tolist() == s.utility["geometric"].tolist()
    True
    """
    if not isinstance(sweep, TradeoffSweep):
        raise ParameterTypeError(
            f"`sweep` must be a TradeoffSweep (from tradeoff_sweep), got {type(sweep).__name__}."
        )
    if x not in ("epsilon", "proved_epsilon"):
        raise ParameterError(f"`x` must be 'epsilon' or 'proved_epsilon', got x={x!r}.")
    if y not in ("utility", "proved_epsilon", "delta_at_epsilon"):
        raise ParameterError(
            f"`y` must be 'utility', 'proved_epsilon' or 'delta_at_epsilon', got y={y!r}."
        )
    if x == y:
        raise ParameterError(f"`x` and `y` must differ, got x={x!r} and y={y!r}.")
    fig, ax = _axes(ax, (7.5, 4.2))
    others = [k for k in sweep.labels if "optimal" not in k]
    palette = dict(zip(others, output_colors(others), strict=True))
    for label in sweep.labels:
        xs = sweep.epsilons if x == "epsilon" else sweep.proved_epsilon[label]
        ys = getattr(sweep, y)[label]
        hidden = int(np.sum(~np.isfinite(xs) | ~np.isfinite(ys)))
        xs = np.where(np.isfinite(xs), xs, np.nan)
        ys = np.where(np.isfinite(ys), ys, np.nan)
        text = label + (f" ({hidden} point(s) with ε = inf not drawn)" if hidden else "")
        style: dict[str, Any] = {"color": palette.get(label), "lw": 1.4, "ms": 4}
        if "optimal" in label:
            style = {"color": "black", "lw": 2.4, "ms": 5}
        ax.plot(xs, ys, "-o", label=text, gid="tradeoff", **style)
    if x == "epsilon" and y == "proved_epsilon":
        lo, hi = float(sweep.epsilons.min()), float(sweep.epsilons.max())
        ax.plot([lo, hi], [lo, hi], ls="--", color="grey", lw=0.9, label="proved = built")
    if logx:
        ax.set_xscale("log", nonpositive="mask")
    names = {
        **_AXES,
        "utility": f"expected utility ({sweep.utility_name}"
        + (", mean over nodes)" if sweep.average else ", sum over nodes)"),
    }
    ax.set_xlabel(names[x].format(delta=sweep.delta))
    ax.set_ylabel(names[y].format(delta=sweep.delta))
    ax.set_title("utility-privacy trade-off" if title is None else title)
    ax.grid(True, alpha=0.3)
    _legend_outside(ax)
    return fig
