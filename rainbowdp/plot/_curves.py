r"""Curves and bars: the optimal line mechanism (Gu et al. Figs. 3-5), noise PMFs, joint PMFs
and labelled families of curves (Kadam et al., Sadeghi et al.)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._format import format_up
from .._validation import check_delta, check_epsilon, check_int, check_probability_vector
from ..exceptions import ParameterError
from ..optimal import TAU_INFINITY, Variant, line_mechanism, prefix_sums_closed_form, tau
from ._style import figure_and_axes, output_colors

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
    colors = output_colors(range(q))
    t_int = np.arange(n + 1)
    for k in range(q):
        ax.plot(grid, curves[:, k], color=colors[k], lw=1.5, label=labels[k])
        ax.plot(t_int, rows[:, k], "o", color=colors[k], ms=2.5)
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
        rf"optimal $(\varepsilon, \delta) = ({format_up(eps, 4)}, {format_up(dlt, 4)})$ "
        "line mechanism" + (" (printed operator)" if variant == "paper" else "")
    )
    ax.legend(loc="center right", fontsize=8)
    return fig


def plot_pmfs(pmfs: Any, *, labels: Sequence[str] | None = None, ax: Any = None) -> Any:
    r"""Grouped bars of one or more noise PMFs f(η), η = 0..n (e.g. Kadam et al., Figs. 9–10).

    Parameters
    ----------
    pmfs : array_like, shape (k, n + 1) or (n + 1,)
        One PMF per row.
    labels : sequence of str, optional
        One legend entry per PMF.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> plot_pmfs([[0.5, 0.3, 0.2], [0.6, 0.3, 0.1]], labels=["a", "b"]).axes[0].get_xlabel()
    'noise eta'
    """
    p = np.atleast_2d(np.asarray(pmfs, dtype=float))
    if p.ndim != 2 or not np.all(np.isfinite(p)):
        raise ParameterError(f"`pmfs` must be finite, of shape (k, n + 1), got shape {p.shape}.")
    k, size = p.shape
    if labels is not None and len(labels) != k:
        raise ParameterError(f"`labels` must have {k} entries, got {len(labels)}.")
    fig, ax = figure_and_axes(ax, (6.0, 3.2))
    width = 0.8 / k
    eta = np.arange(size)
    for i in range(k):
        ax.bar(
            eta + (i - (k - 1) / 2) * width,
            p[i],
            width=width,
            label=None if labels is None else labels[i],
            edgecolor="black",
            linewidth=0.4,
        )
    ax.set_xticks(eta)
    ax.set_xlabel("noise eta")
    ax.set_ylabel("f(eta)")
    if labels is not None:
        ax.legend(fontsize=8)
    return fig


def plot_joint_pmf(pmf: Any, *, ax: Any = None) -> Any:
    r"""A heat map of a joint noise PMF f(η₁, η₂) of a 2-D query (e.g. Kadam et al., Fig. 13),
    each cell labelled with its mass.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> plot_joint_pmf([[0.7, 0.1], [0.1, 0.1]]).axes[0].get_xlabel()
    'eta_2'
    """
    p = np.asarray(pmf, dtype=float)
    if p.ndim != 2 or not np.all(np.isfinite(p)):
        raise ParameterError(f"`pmf` must be a finite 2-D array, got shape {p.shape}.")
    fig, ax = figure_and_axes(ax, (4.2, 3.6))
    im = ax.imshow(p, cmap="viridis", origin="upper")
    for (i, j), v in np.ndenumerate(p):
        ax.text(j, i, f"{v:.4f}", ha="center", va="center", fontsize=6, color="white")
    ax.set_xlabel("eta_2")
    ax.set_ylabel("eta_1")
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
) -> Any:
    r"""Curves sharing one x grid, one per labelled series (e.g. Kadam et al., Figs. 5-7, 11,
    12).

    A series whose label contains "optimal" is drawn thick and black, one containing
    "clamped" or "truncated" dashed, one containing "unclamped" dotted; series whose labels
    agree up to the first comma ("geometric, clamped" and "geometric, modular") share a
    colour. NaN values leave gaps.

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

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ValueError
        If ``x`` is not a finite 1-D grid or a series has another length.

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
    fig, ax = figure_and_axes(ax, (6.0, 3.8))
    families = list(dict.fromkeys(str(k).split(",")[0] for k in series if "optimal" not in str(k)))
    palette = output_colors(families)
    colour = dict(zip(families, palette, strict=True))
    for label, values in series.items():
        y = np.asarray(values, dtype=float)
        if y.shape != xs.shape:
            raise ParameterError(
                f"`series` entry {label!r} must have {xs.size} values (one per x), got shape "
                f"{y.shape}."
            )
        text = str(label)
        style: dict[str, Any] = {"lw": 1.3, "color": colour.get(text.split(",")[0])}
        if "optimal" in text:
            style = {"lw": 2.2, "color": "black"}
        elif "unclamped" in text:
            style["ls"] = ":"
        elif "clamped" in text or "truncated" in text:
            style["ls"] = "--"
        if step:
            ax.step(xs, y, where="post", label=text, **style)
        else:
            ax.plot(xs, y, marker="o", ms=2.5, label=text, **style)
    if xlabel is not None:
        ax.set_xlabel(xlabel)
    if ylabel is not None:
        ax.set_ylabel(ylabel)
    if title is not None:
        ax.set_title(title)
    if series:
        ax.legend(fontsize=7)
    return fig
