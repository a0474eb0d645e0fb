r"""Curves and bars: the optimal line mechanism (Gu et al. Figs. 3-5), noise PMFs, joint PMFs
and labelled families of curves (Kadam et al., Sadeghi et al.)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._validation import check_delta, check_epsilon, check_int, check_probability_vector
from ..exceptions import ParameterError
from ..optimal import TAU_INFINITY, Variant, line_mechanism, prefix_sums_closed_form, tau
from ._style import figure_and_axes, legend_outside, resolve_styles, series_styles
from .palette import LINE_STYLES

__all__ = ["plot_curves", "plot_joint_pmf", "plot_line_mechanism", "plot_pmfs"]


def plot_line_mechanism(
    m: Any,
    n: int,
    epsilon: float,
    delta: float,
    *,
    ax: Any = None,
    labels: Sequence[str] | None = None,
    variant: Variant = "corrected",
) -> Any:
    r"""Probability of each output against the distance t on the optimal (c, n)-line.

    Curves interpolate non-integer t with :func:`~rainbowdp.optimal.prefix_sums_closed_form`
    (as Gu et al. do in Figs. 3-5); dots are :math:`T^t(\vec m)` at integer t; dotted vertical
    lines mark the switch times :math:`\tau_k` that fall inside ``[0, n]``.

    Parameters
    ----------
    m : array_like, shape (q,)
        Boundary distribution in rainbow order.
    n : int
        Largest distance shown.
    epsilon, delta : float
        Privacy parameters.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on.
    labels : sequence of str, optional
        One label per output (default ``"k = 1"``, ...).
    variant : {"corrected", "paper"}, default "corrected"
        Operator, see :func:`rainbowdp.optimal.T`.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ValueError
        If ``labels`` has the wrong length or another argument is invalid.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> fig = plot_line_mechanism([0.2, 0.3, 0.5], 10, 0.3, 0.0)
    >>> len(fig.axes[0].lines) >= 3
    True
    """
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    n = check_int(n, "n", minimum=1)
    arr = check_probability_vector(m, "m")
    q = arr.shape[0]
    if labels is None:
        labels = [f"k = {k + 1}" for k in range(q)]
    labels = list(labels)
    if len(labels) != q:
        raise ParameterError(
            f"`labels` must have {q} entries (one per output), got {len(labels)}: "
            f"labels={labels!r}."
        )
    rows = line_mechanism(arr, n, eps, dlt, variant=variant)
    grid = np.linspace(0.0, float(n), 40 * n + 1)
    s = prefix_sums_closed_form(arr, grid, eps, dlt, variant=variant)
    curves = np.diff(s, axis=1, prepend=0.0)
    taus = tau(arr, eps, dlt, variant=variant)
    fig, ax = figure_and_axes(ax, (7.0, 4.2))
    looks = series_styles(q)
    colors = [look["color"] for look in looks]
    t_int = np.arange(n + 1)
    for k in range(q):
        look = {key: v for key, v in looks[k].items() if key not in ("marker", "markevery")}
        ax.plot(grid, curves[:, k], lw=1.5, label=labels[k], **look)
        ax.plot(t_int, rows[:, k], looks[k]["marker"], color=colors[k], ms=3)
        if taus[k] != TAU_INFINITY and taus[k] <= n:
            ax.axvline(float(taus[k]), color=colors[k], ls=":", lw=1.0)
            ax.annotate(
                rf"$\tau_{k + 1}={int(taus[k])}$",
                (float(taus[k]), 1.0),
                xycoords=("data", "axes fraction"),
                rotation=90,
                va="top",
                ha="right",
                fontsize=7,
                color=colors[k],
            )
    ax.set_xlabel("distance t to the boundary")
    ax.set_ylabel(r"$\mathbb{P}[\mathcal{M}(t) = k]$")
    ax.set_xlim(0, n)
    ax.set_ylim(0, 1)
    ax.set_title(
        rf"optimal $(\varepsilon, \delta) = ({eps:g}, {dlt:g})$ "
        "line mechanism" + (" (printed operator)" if variant == "paper" else "")
    )
    legend_outside(ax)
    return fig


def plot_pmfs(
    pmfs: Any,
    *,
    labels: Sequence[str] | None = None,
    ax: Any = None,
    styles: Sequence[Mapping[str, Any]] | None = None,
) -> Any:
    r"""Grouped bars of one or more noise PMFs f(η), η = 0..n (e.g. Kadam et al., Figs. 9–10).

    Parameters
    ----------
    pmfs : array_like, shape (k, n + 1) or (n + 1,)
        One PMF per row.
    labels : sequence of str, optional
        One legend entry per PMF (the legend sits outside the axes, to the right).
    ax : matplotlib.axes.Axes, optional
    styles : sequence of dict, optional
        Per PMF, ``color`` and optionally ``hatch`` of its bars (default: the colours of
        :func:`rainbowdp.plot.series_styles`, and a hatch per PMF after the first, so bars stay
        apart in grey print).

    Returns
    -------
    matplotlib.figure.Figure
        Bar *i* of PMF *j* is centred within 0.4 of η = i (the x ticks are the η themselves).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> plot_pmfs([[0.5, 0.3, 0.2], [0.6, 0.3, 0.1]], labels=["a", "b"]).axes[0].get_xlabel()
    'noise $\\eta$'
    """
    p = np.atleast_2d(np.asarray(pmfs, dtype=float))
    if p.ndim != 2 or not np.all(np.isfinite(p)):
        raise ParameterError(f"`pmfs` must be finite, of shape (k, n + 1), got shape {p.shape}.")
    k, size = p.shape
    if labels is not None and len(labels) != k:
        raise ParameterError(f"`labels` must have {k} entries, got {len(labels)}.")
    given = styles is not None
    looks = resolve_styles(styles, k)
    fig, ax = figure_and_axes(ax, (6.0, 3.2))
    width = 0.8 / k
    eta = np.arange(size)
    for i in range(k):
        hatch = looks[i].get("hatch", None if given else _HATCHES[i % len(_HATCHES)])
        ax.bar(
            eta + (i - (k - 1) / 2) * width,
            p[i],
            width=width,
            label=None if labels is None else labels[i],
            color=looks[i].get("color"),
            hatch=hatch,
            edgecolor="black",
            linewidth=0.4,
        )
    ax.set_xticks(eta)
    if size > 25:  # label every few ticks so that labels never overlap
        step = -(-size // 20)
        ax.set_xticks(eta[::step])
    ax.set_xlabel(r"noise $\eta$")
    ax.set_ylabel(r"$f(\eta)$")
    if labels is not None:
        legend_outside(ax)
    return fig


def plot_joint_pmf(pmf: Any, *, ax: Any = None) -> Any:
    r"""A heat map of a joint noise PMF f(η₁, η₂) of a 2-D query (e.g. Kadam et al., Fig. 13),
    each cell labelled with its mass.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> plot_joint_pmf([[0.7, 0.1], [0.1, 0.1]]).axes[0].get_xlabel()
    '$\\eta_2$'
    """
    p = np.asarray(pmf, dtype=float)
    if p.ndim != 2 or not np.all(np.isfinite(p)):
        raise ParameterError(f"`pmf` must be a finite 2-D array, got shape {p.shape}.")
    fig, ax = figure_and_axes(ax, (4.2, 3.6))
    im = ax.imshow(p, cmap="viridis", origin="upper")
    light = im.norm(p) > 0.6  # viridis is pale above 0.6: write on it in black
    for (i, j), v in np.ndenumerate(p):
        color = "black" if light[i, j] else "white"
        ax.text(j, i, f"{v:.4f}", ha="center", va="center", fontsize=6, color=color)
    for axis, size in ((ax.xaxis, p.shape[1]), (ax.yaxis, p.shape[0])):
        step = -(-size // 12)
        axis.set_ticks(np.arange(0, size, step))
    ax.set_xlabel(r"$\eta_2$")
    ax.set_ylabel(r"$\eta_1$")
    fig.colorbar(im, ax=ax, shrink=0.8)
    return fig


def plot_curves(
    x: Any,
    series: Mapping[str, Any],
    *,
    ax: Any = None,
    step: bool = False,
    xlabel: str | None = None,
    ylabel: str | None = None,
    title: str | None = None,
    styles: Mapping[str, Mapping[str, Any]] | Sequence[Mapping[str, Any]] | None = None,
) -> Any:
    r"""Curves sharing one x grid, one per labelled series (e.g. Kadam et al., Figs. 5-7, 11,
    12).

    Default styles (:func:`rainbowdp.plot.series_styles`): a series whose label contains
    "optimal" is drawn thick, black and without markers; series whose labels agree up to the
    first comma ("geometric, clamped" and "geometric, modular") are one family and share a
    colour and a marker; within a family, "clamped" or "truncated" is dashed, "unclamped"
    dotted, other members solid, and members that would share a line style get the next free
    one, so no two series look alike; members after the first have hollow markers. Markers are
    spread along each curve, staggered by series, so coinciding curves stay visible. NaN values
    leave gaps. The legend sits outside the axes.

    Parameters
    ----------
    x : array_like, shape (m,)
        The grid.
    series : mapping str -> array_like of shape (m,)
        The curves.
    ax : matplotlib.axes.Axes, optional
    step : bool, default False
        Draw steps (``where="post"``) instead of straight segments, for piecewise-constant
        curves such as a PDP leakage.
    xlabel, ylabel, title : str, optional
    styles : mapping or sequence of dict, optional
        ``ax.plot`` keywords per series, by label (series not named keep their default style)
        or in order (one per series); they replace the default style of that series.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ValueError
        If ``x`` is not a finite 1-D grid, a series has another length, or ``styles`` names
        a series that does not exist or has too few entries.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> fig = plot_curves([0, 1, 2], {"optimal": [1, 0.5, 0.2], "geometric, clamped": [1, 1, 1]})
    >>> len(fig.axes[0].lines)
    2
    """
    xs = np.asarray(x, dtype=float)
    if xs.ndim != 1 or xs.size == 0 or not np.all(np.isfinite(xs)):
        raise ParameterError(f"`x` must be a finite non-empty 1-D grid, got shape {xs.shape}.")
    if not isinstance(series, Mapping):
        raise ParameterError(f"`series` must map labels to arrays, got series={series!r}.")
    names = [str(k) for k in series]
    looks = _curve_styles(names)
    if isinstance(styles, Mapping):
        unknown = [k for k in styles if str(k) not in names]
        if unknown:
            raise ParameterError(
                f"`styles` names series that do not exist: {unknown!r} (series: {names!r})."
            )
        for k, look in styles.items():
            looks[names.index(str(k))] = dict(resolve_styles([look], 1, f"styles[{k!r}]")[0])
    elif styles is not None:
        looks = resolve_styles(styles, len(names))
    fig, ax = figure_and_axes(ax, (6.0, 3.8))
    for (label, values), text, style in zip(series.items(), names, looks, strict=True):
        y = np.asarray(values, dtype=float)
        if y.shape != xs.shape:
            raise ParameterError(
                f"`series` entry {label!r} must have {xs.size} values (one per x), got shape "
                f"{y.shape}."
            )
        if step:
            ax.step(xs, y, where="post", label=text, **style)
        else:
            ax.plot(xs, y, label=text, **style)
    if xlabel is not None:
        ax.set_xlabel(xlabel)
    if ylabel is not None:
        ax.set_ylabel(ylabel)
    if title is not None:
        ax.set_title(title)
    if series:
        legend_outside(ax)
    return fig


#: Hatches of the bars of the second, third, ... PMF of :func:`plot_pmfs`.
_HATCHES = (None, "//", "..", "xx", "\\\\", "oo")


def _curve_styles(names: list[str]) -> list[dict[str, Any]]:
    """The default styles of :func:`plot_curves` (see there)."""
    families = list(dict.fromkeys(t.split(",")[0] for t in names if "optimal" not in t))
    base = dict(zip(families, series_styles(len(families)), strict=True))
    used: dict[str, set] = {f: set() for f in [*families, "optimal"]}
    looks: list[dict[str, Any]] = []
    for i, text in enumerate(names):
        if "optimal" in text:
            free = [s for s in LINE_STYLES if s not in used["optimal"]] or ["-"]
            used["optimal"].add(free[0])
            looks.append({"color": "black", "lw": 2.4, "linestyle": free[0], "zorder": 3})
            continue
        family = text.split(",")[0]
        look = {**base[family], "lw": 1.3}
        if used[family]:  # a second member: hollow markers at other places along the curve
            look["markerfacecolor"] = "white"
        start, every = look["markevery"]
        look["markevery"] = (round((start + every * ((i * 0.382) % 1.0)) % every, 4), every)
        if "unclamped" in text:
            wanted = ":"
        elif "clamped" in text or "truncated" in text:
            wanted = "--"
        else:
            wanted = "-"
        free = [s for s in (wanted, *LINE_STYLES) if s not in used[family]]
        look["linestyle"] = free[0] if free else wanted
        used[family].add(look["linestyle"])
        looks.append(look)
    return looks
