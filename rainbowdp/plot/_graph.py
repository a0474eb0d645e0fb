r"""Drawings of rainbow graphs and the mechanism at each node."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .._validation import check_int
from ..exceptions import ParameterError
from ..graph import RainbowGraph, check_graph
from ..mechanism import Mechanism, check_mechanism
from ._style import _axes, output_colors

__all__ = ["draw_rainbow_graph"]

_LAYOUTS = ("spring", "kamada_kawai", "circular", "spectral", "shell")


def draw_rainbow_graph(
    G: RainbowGraph,
    mechanism: Mechanism | None = None,
    *,
    ax: Any = None,
    pos: Mapping | None = None,
    layout: str = "spring",
    seed: int = 0,
) -> Any:
    r"""Draw a rainbow graph: nodes coloured by their top output, boundary nodes outlined.

    With a mechanism, each node also shows its output distribution as a small pie (one wedge
    per output, in the output's colour) inside the node disk.

    Parameters
    ----------
    G : RainbowGraph
        The graph (a few hundred nodes draw in well under a second: all shapes go into three
        collections).
    mechanism : Mechanism, optional
        A mechanism on ``G``.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on.
    pos : mapping node -> (x, y), optional
        Node positions; default from ``layout``.
    layout : {"spring", "kamada_kawai", "circular", "spectral", "shell"}, default "spring"
        networkx layout used when ``pos`` is not given.
    seed : int, default 0
        Seed of the spring layout.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    TypeError
        If ``G`` or ``mechanism`` has the wrong type.
    ValueError
        If ``mechanism`` lives on another graph, ``layout`` is unknown, or ``pos`` misses a
        node (the node is named).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> G = RainbowGraph.cycle([("blue", "red")] * 4 + [("red", "blue")] * 2)
    >>> fig = draw_rainbow_graph(G, layout="circular")
    >>> fig.axes[0].get_title()
    'rainbow graph: 6 nodes, 6 edges, 2 rainbows'
    """
    import matplotlib.patches as mpatches
    import networkx as nx
    from matplotlib.collections import LineCollection, PatchCollection

    check_graph(G, "G")
    if mechanism is not None:
        check_mechanism(mechanism, "mechanism")
        if mechanism.graph is not G:
            raise ParameterError("`mechanism` must live on `G` (the same RainbowGraph object).")
    if pos is None:
        if layout not in _LAYOUTS:
            raise ParameterError(f"`layout` must be one of {_LAYOUTS}, got layout={layout!r}.")
        g = G.graph
        if layout == "spring":
            pos = nx.spring_layout(g, seed=check_int(seed, "seed"))
        else:
            pos = getattr(nx, f"{layout}_layout")(g)
    missing = next((d for d in G.nodes if d not in pos), None)
    if missing is not None:
        raise ParameterError(f"`pos` has no position for node {missing!r}.")
    xy = np.array([pos[d] for d in G.nodes], dtype=float).reshape(G.n_nodes, 2)
    span = float(np.ptp(xy, axis=0).max()) if G.n_nodes > 1 else 1.0
    span = span if span > 0 else 1.0
    radius = 0.35 * span / max(np.sqrt(G.n_nodes), 2.0)
    colors = output_colors(G.outputs)
    top = G.order[:, 0]

    fig, ax = _axes(ax, (7.0, 7.0))
    e = G.edges
    if e.shape[0]:
        ax.add_collection(LineCollection(xy[e], colors="0.6", linewidths=0.8, zorder=1))
    bmask = G.boundary_mask
    disks = [mpatches.Circle(tuple(c), radius) for c in xy]
    ax.add_collection(
        PatchCollection(
            disks,
            facecolors=[colors[j] for j in top],
            edgecolors=["black" if b else "none" for b in bmask],
            linewidths=[2.0 if b else 0.0 for b in bmask],
            zorder=2,
        )
    )
    if mechanism is not None:
        p = mechanism.probabilities
        start = np.concatenate([np.zeros((G.n_nodes, 1)), np.cumsum(p, axis=1)[:, :-1]], axis=1)
        wedges, faces = [], []
        for i, j in zip(*np.nonzero(p > 0), strict=True):
            a0 = 90.0 + 360.0 * start[i, j]
            wedges.append(mpatches.Wedge(tuple(xy[i]), 0.65 * radius, a0, a0 + 360.0 * p[i, j]))
            faces.append(colors[j])
        ax.add_collection(
            PatchCollection(wedges, facecolors=faces, edgecolors="white", linewidths=0.3, zorder=3)
        )
    ax.set_xlim(xy[:, 0].min() - 2 * radius, xy[:, 0].max() + 2 * radius)
    ax.set_ylim(xy[:, 1].min() - 2 * radius, xy[:, 1].max() + 2 * radius)
    ax.set_aspect("equal")
    ax.set_axis_off()
    handles = [mpatches.Patch(color=colors[j], label=str(o)) for j, o in enumerate(G.outputs)]
    handles.append(
        mpatches.Patch(facecolor="white", edgecolor="black", linewidth=2.0, label="boundary node")
    )
    ax.legend(handles=handles, loc="upper right", fontsize=8, title="top output", title_fontsize=8)
    ax.set_title(
        f"rainbow graph: {G.n_nodes} nodes, {G.n_edges} edges, {G.rainbow_table.shape[0]} rainbows"
    )
    return fig
