r"""A mechanism as a nodes x outputs heat map of its probabilities."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..exceptions import ParameterError, ParameterTypeError
from ..mechanism import check_order
from ._inputs import as_mechanism
from ._mpl import require_matplotlib
from ._style import figure_and_axes

__all__ = ["plot_mechanism_heatmap"]

#: Heat maps with at most this many cells are annotated by default, and at most
#: ``MAX_ANNOTATED_CELLS`` cells can be annotated at all.
AUTO_ANNOTATE_CELLS, MAX_ANNOTATED_CELLS = 120, 2500
#: Rows (columns) up to which every node (output) is named on the axis of a heat map.
MAX_TICK_LABELS = 40


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
    >>> from rainbowdp import Mechanism, builders
    >>> G = builders.line(["a", "b", "c"], 2)
    >>> M = Mechanism(G, [[0.6, 0.3, 0.1], [0.5, 0.3, 0.2], [0.4, 0.35, 0.25]])
    >>> fig = plot_mechanism_heatmap(M, order="rainbow")
    >>> fig.axes[0].images[0].get_array().tolist() == M.in_rainbow_order().tolist()
    True
    >>> [t.get_text() for t in fig.axes[0].get_xticklabels()]
    ['1st', '2nd', '3rd']
    """
    mpl = require_matplotlib()
    from matplotlib.colors import LogNorm, Normalize

    m = as_mechanism(mechanism, "mechanism")
    order = check_order(order)
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
        shown: np.ndarray = np.ma.masked_less_equal(data, 0.0)
    else:
        norm = Normalize(vmin=0.0, vmax=float(data.max()))
        shown = data
    width = min(max(4.5, 0.55 * q + 2.5), 12.0)
    height = min(max(3.0, 0.35 * n + 1.4), 9.0)
    fig, ax = figure_and_axes(ax, (width, height))
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
