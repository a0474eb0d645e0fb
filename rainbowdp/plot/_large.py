r"""Layouts that scale, and the size-aware ("large") drawing of a rainbow graph.

Everything here works on the graph's integer arrays (:attr:`RainbowGraph.adjacency`, a CSR
matrix), never on a networkx graph, so a graph built with :meth:`RainbowGraph.from_edges` is
laid out and drawn without materialising one.

Layouts
-------
* **coordinates**: the nodes' own coordinates, when every node has a ``"pos"`` attribute
  ``(x, y)`` (networkx's lattice generators set it; read up to :data:`POS_NODES` nodes), or
  every node *is* a pair of numbers whose
  edges are all about equally long (at most :data:`LATTICE_RATIO` times the shortest), as the
  ``(i, j)`` nodes of ``networkx.grid_2d_graph``.
* **line**: a path in path order (other graphs in node order), on one row up to
  :data:`ROW_LENGTH` nodes, else on a serpentine of rows of ``max(ROW_LENGTH, ceil(sqrt(N)))``
  nodes, one unit apart.
* **cycle order**: a cycle on a circle, neighbours one unit apart.
* **pivot MDS** (Brandes & Pich, *Eigensolver methods for progressive multidimensional scaling
  of large data*, Graph Drawing 2006): breadth-first hop distances from ``k`` pivots chosen by
  max-min distance, classical scaling of the (N, k) distance matrix; cost O(k (N + E) + N k^2).
  Each connected component is laid out on its own (components of fewer than
  :data:`MDS_MIN` nodes on a small circle) and the components are packed in rows, largest
  first; coordinates are in hops, so an edge is about one unit long.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._mpl import require_matplotlib

__all__ = [
    "EDGE_LIMIT",
    "LATTICE_RATIO",
    "MDS_MIN",
    "MIN_DOT_DISK",
    "POS_NODES",
    "ROW_LENGTH",
    "coordinate_positions",
    "cycle_order",
    "draw_large",
    "large_fill",
    "line_positions",
    "path_order",
    "pivot_mds",
    "radii",
    "relax",
]

#: Longest path drawn on a single row by the line layout.
ROW_LENGTH = 40
#: Components with fewer nodes are put on a circle instead of pivot MDS.
MDS_MIN = 8
#: Large mode draws edges only up to this many (above, they would hide the nodes).
EDGE_LIMIT = 30_000
#: Large mode draws the most-likely-output dots only in disks at least this wide (points);
#: smaller disks are filled with the output colour instead.
MIN_DOT_DISK = 5.0
#: ``"pos"`` node attributes are read on graphs of at most this many nodes (reading them builds
#: the networkx view of the graph); pass ``pos`` for larger ones.
POS_NODES = 20_000
#: Pairs of numbers are taken as node coordinates when the longest edge is at most this many
#: times the shortest.
LATTICE_RATIO = 2.0


# ---------------------------------------------------------------------------------- layouts
def _undirected(adj: Any) -> tuple[np.ndarray, int]:
    """Degrees and number of undirected edges of a symmetric CSR adjacency."""
    deg = np.diff(adj.indptr)
    return deg, int(deg.sum()) // 2


def path_order(adj: Any) -> np.ndarray | None:
    """Node indices along the path if the (undirected) graph is a path, else ``None``.

    The walk starts at the end node of smaller index. A single node is a path.
    """
    from scipy.sparse.csgraph import depth_first_order

    n = adj.shape[0]
    deg, m = _undirected(adj)
    if m != n - 1 or (n > 1 and deg.max() > 2):
        return None
    if n == 1:
        return np.zeros(1, dtype=np.intp)
    start = int(np.flatnonzero(deg == 1)[0])
    order = depth_first_order(adj, start, directed=False, return_predecessors=False)
    return order if order.shape[0] == n else None  # a path plus a cycle is not connected


def cycle_order(adj: Any) -> np.ndarray | None:
    """Node indices around the cycle if the (undirected) graph is one cycle, else ``None``."""
    from scipy.sparse.csgraph import depth_first_order

    n = adj.shape[0]
    deg, m = _undirected(adj)
    if n < 3 or m != n or np.any(deg != 2):
        return None
    order = depth_first_order(adj, 0, directed=False, return_predecessors=False)
    return order if order.shape[0] == n else None


def _pair(value: Any) -> tuple[float, float] | None:
    """``value`` as a finite (x, y), or None."""
    import numbers

    if not isinstance(value, tuple | list | np.ndarray) or len(value) != 2:
        return None
    if not all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value):
        return None
    x, y = float(value[0]), float(value[1])
    return (x, y) if math.isfinite(x) and math.isfinite(y) else None


def coordinate_positions(G: Any) -> np.ndarray | None:
    """(N, 2) positions from the nodes' own coordinates (see the module notes), or None.

    Examples
    --------
    >>> import networkx as nx
    >>> from rainbowdp import RainbowGraph
    >>> from rainbowdp import builders
    >>> g = nx.grid_2d_graph(2, 3)
    >>> for d in g:
    ...     g.nodes[d]["rainbow"] = ["a", "b"]
    >>> coordinate_positions(RainbowGraph(g, outputs=["a", "b"])).tolist()[:2]
    [[0.0, 0.0], [0.0, 1.0]]
    >>> coordinate_positions(builders.line(["a", "b"], 3)) is None
    True
    """
    nodes = G.nodes
    if not nodes:
        return None
    pairs = [_pair(d) for d in nodes]
    if all(p is not None for p in pairs):
        xy = np.array(pairs, dtype=float)
        e = G.edges
        if e.shape[0]:
            length = np.hypot(*(xy[e[:, 0]] - xy[e[:, 1]]).T)
            if length.min() > 0 and length.max() <= LATTICE_RATIO * length.min():
                return xy
    if len(nodes) > POS_NODES:
        return None
    attrs = G.graph.nodes
    pos = [_pair(attrs[d].get("pos")) for d in nodes]
    if all(p is not None for p in pos):
        return np.array(pos, dtype=float)
    return None


def line_positions(order: np.ndarray) -> np.ndarray:
    """(N, 2) positions of the nodes ``order[0], order[1], ...`` along a (serpentine) line."""
    n = order.shape[0]
    width = n if n <= ROW_LENGTH else max(ROW_LENGTH, math.ceil(math.sqrt(n)))
    k = np.arange(n)
    row, col = np.divmod(k, width)
    col = np.where(row % 2 == 1, width - 1 - col, col)
    xy = np.empty((n, 2))
    xy[order, 0] = col
    xy[order, 1] = -row
    return xy


def circle_positions(order: np.ndarray) -> np.ndarray:
    """(N, 2) positions around a circle on which consecutive nodes of ``order`` are 1 apart."""
    n = order.shape[0]
    radius = 0.5 / math.sin(math.pi / n) if n > 1 else 0.0
    t = 0.5 * math.pi - 2.0 * math.pi * np.arange(n) / max(n, 1)
    xy = np.empty((n, 2))
    xy[order, 0] = radius * np.cos(t)
    xy[order, 1] = radius * np.sin(t)
    return xy


def pivot_mds(adj: Any, *, pivots: int | None = None, seed: int = 0) -> np.ndarray:
    """(N, 2) pivot-MDS positions of a graph, component by component, then :func:`relax`-ed
    when many nodes nearly coincide (see the module notes).

    ``pivots`` defaults to 40 up to 20000 nodes and 24 above.
    """
    import scipy.sparse as sp
    from scipy.sparse.csgraph import connected_components

    n = adj.shape[0]
    adj = sp.csr_array((np.ones(adj.indices.shape[0]), adj.indices, adj.indptr), shape=(n, n))
    if pivots is None:
        pivots = 40 if n <= 20_000 else 24
    n_comp, label = connected_components(adj, directed=True, connection="weak")
    xy = _mds_component(adj, pivots, seed) if n_comp == 1 else _components(adj, label, pivots, seed)
    return _spread(xy, adj, seed)


def _spread(xy: np.ndarray, adj: Any, seed: int) -> np.ndarray:
    """Relax the layout if a tenth of the nodes are within 0.3 edge lengths of another."""
    from scipy.spatial import cKDTree

    n = xy.shape[0]
    if n < 3:
        return xy
    d, _ = cKDTree(xy).query(xy, k=2)
    if np.quantile(d[:, 1], 0.1) >= 0.3:
        return xy
    coo = adj.tocoo()
    keep = coo.row < coo.col
    edges = np.stack([coo.row[keep], coo.col[keep]], axis=1)
    return relax(xy, edges, 30 if n <= 10_000 else 8, seed=seed)


def _components(adj: Any, label: np.ndarray, pivots: int, seed: int) -> np.ndarray:
    """Lay out each component on its own and pack them in rows, largest first."""
    n = adj.shape[0]
    n_comp = int(label.max()) + 1
    perm = np.argsort(label, kind="stable")
    sizes = np.bincount(label, minlength=n_comp)
    starts = np.concatenate([[0], np.cumsum(sizes)])
    local = np.empty((n, 2))
    small = sizes < MDS_MIN
    # small components: regular polygons with unit sides, vectorised
    comp_of = label[perm]
    rank = np.arange(n) - starts[comp_of]
    m = sizes[comp_of].astype(float)
    radius = np.where(m > 1, 0.5 / np.sin(np.pi / np.maximum(m, 2.0)), 0.0)
    t = 0.5 * np.pi - 2.0 * np.pi * rank / m
    local[:, 0] = radius * np.cos(t)
    local[:, 1] = radius * np.sin(t)
    big = np.flatnonzero(~small)
    if big.size:
        padj = adj[perm][:, perm]
        for c in big:
            s, e = starts[c], starts[c + 1]
            local[s:e] = _mds_component(padj[s:e][:, s:e], pivots, seed)
    # pack the components in rows, largest first (shelf packing), one unit plus a gap apart
    lo = np.full((n_comp, 2), np.inf)
    hi = np.full((n_comp, 2), -np.inf)
    np.minimum.at(lo, comp_of, local)
    np.maximum.at(hi, comp_of, local)
    box = hi - lo + 1.5
    shelf = math.sqrt(float(np.sum(box[:, 0] * box[:, 1]))) * 1.3
    offset = np.empty((n_comp, 2))
    x = y = row_h = 0.0
    for c in np.argsort(-sizes, kind="stable").tolist():
        w, h = box[c]
        if x > 0 and x + w > shelf:
            x, y, row_h = 0.0, y - row_h, 0.0
        offset[c] = (x - lo[c, 0], y - hi[c, 1])
        x += w
        row_h = max(row_h, h)
    xy = np.empty((n, 2))
    xy[perm] = local + offset[comp_of]
    return xy


def _hops(adj: Any, source: int) -> np.ndarray:
    """Hop distances from ``source`` in a connected graph given by a symmetric float64 CSR
    matrix: a breadth-first tree, then the depth of every node by pointer jumping (O(N log
    depth), vectorised)."""
    from scipy.sparse.csgraph import breadth_first_order

    _, parent = breadth_first_order(adj, source, directed=True, return_predecessors=True)
    parent = parent.astype(np.intp)
    parent[source] = source
    depth = (np.arange(parent.shape[0]) != source).astype(np.int64)
    while True:
        grand = parent[parent]
        if np.array_equal(grand, parent):
            return depth.astype(float)
        depth += depth[parent] * (parent != source)
        parent = grand


def _mds_component(adj: Any, pivots: int, seed: int) -> np.ndarray:
    """Pivot MDS of one connected graph; coordinates in hops."""
    n = adj.shape[0]
    if n <= 2:
        return np.array([[0.0, 0.0], [1.0, 0.0]])[:n]
    k = min(pivots, n)
    dist = np.empty((k, n))
    nearest = np.full(n, np.inf)
    p = int(np.random.default_rng(seed).integers(n))
    for i in range(k):
        dist[i] = _hops(adj, p)
        np.minimum(nearest, dist[i], out=nearest)
        p = int(np.argmax(nearest))
    d2 = dist.T**2  # (n, k)
    c = d2 - d2.mean(axis=0) - d2.mean(axis=1, keepdims=True) + d2.mean()
    c *= -0.5
    w, v = np.linalg.eigh(c.T @ c)
    xy = c @ v[:, [-1, -2]]
    norm = np.sqrt(np.maximum(w[[-1, -2]], 0.0))
    xy /= np.where(norm > 0, np.sqrt(norm), 1.0)  # C v / sqrt(sigma) = U sqrt(sigma)
    if not np.all(np.isfinite(xy)) or np.ptp(xy, axis=0).max() == 0:
        return circle_positions(np.arange(n))
    # scale so that the median edge is one unit long
    rows = np.repeat(np.arange(n), np.diff(adj.indptr))
    lengths = np.linalg.norm(xy[rows] - xy[adj.indices], axis=1)
    med = float(np.median(lengths)) if lengths.size else 0.0
    return xy / med if med > 0 else xy


def relax(xy: np.ndarray, edges: np.ndarray, iterations: int, *, seed: int = 0) -> np.ndarray:
    """Spread a layout whose edges are about one unit long: each round moves the two ends of
    every edge halfway to length 1 and pushes apart every pair closer than 1 (found with a
    k-d tree), each node by the mean of its moves, with a step that shrinks from 1 to 0.2.

    Pivot MDS maps nodes with the same distances to every pivot (twins, common in random and
    geometric graphs) to one point; a few rounds separate them at a cost of O(N log N) each.
    """
    from scipy.spatial import cKDTree

    n = xy.shape[0]
    if n < 2 or iterations <= 0:
        return xy
    xy = xy.copy()
    jitter = np.random.default_rng(seed).normal(scale=1e-3, size=xy.shape)
    xy += jitter  # coincident nodes need a direction to separate along
    u, v = edges[:, 0], edges[:, 1]
    for t in range(iterations):
        step = 1.0 - 0.8 * t / max(iterations - 1, 1)
        pairs = cKDTree(xy).query_pairs(1.0, output_type="ndarray")
        a = np.concatenate([u, pairs[:, 0]])
        b = np.concatenate([v, pairs[:, 1]])
        target = np.ones(a.shape[0])
        delta = xy[b] - xy[a]
        dist = np.maximum(np.linalg.norm(delta, axis=1), 1e-9)
        # edges: towards length 1 (both ways); close pairs: apart up to 1 (never pulled in)
        gap = (dist - target) / dist
        gap[u.shape[0] :] = np.minimum(gap[u.shape[0] :], 0.0)
        move = 0.5 * gap[:, None] * delta
        acc = np.zeros_like(xy)
        np.add.at(acc, a, move)
        np.add.at(acc, b, -move)
        cnt = np.bincount(np.concatenate([a, b]), minlength=n)
        xy += step * acc / np.maximum(cnt, 1)[:, None]
    return xy


def radii(xy: np.ndarray, fraction: float = 0.45) -> np.ndarray:
    r"""Disk radius of every node: ``fraction`` times the smaller of its nearest-neighbour
    distance and the median one.

    Since :math:`r_i + r_j \le f (d_i + d_j) \le 2 f \lVert x_i - x_j \rVert` (each nearest-
    neighbour distance :math:`d` is at most the distance between the two), disks never overlap
    for ``fraction <= 0.5``; capping at the median keeps isolated nodes from growing. Nodes at
    the same place share one disk (distances are taken between distinct places); a single
    place gets ``fraction``.
    """
    from scipy.spatial import cKDTree

    uniq, inverse = np.unique(xy, axis=0, return_inverse=True)
    if uniq.shape[0] < 2:
        return np.full(xy.shape[0], fraction)
    d, _ = cKDTree(uniq).query(uniq, k=2)
    near = d[:, 1]
    return (fraction * np.minimum(near, np.median(near[inverse.ravel()])))[inverse.ravel()]


# ---------------------------------------------------------------------------------- drawing
def large_fill(has_top: bool, diameter_pt: float) -> bool:
    """Whether large mode fills the disks with output colours (``has_top``: a mechanism, or
    ``rainbows=True``, gives each node an output to show) because a dot would be too small."""
    return has_top and diameter_pt < MIN_DOT_DISK


def draw_large(
    ax: Any,
    G: Any,
    top: np.ndarray | None,
    xy: np.ndarray,
    radius: np.ndarray,
    cls_colors: list,
    out_colors: list,
    ppd: float,
) -> str:
    """Large mode: node disks, no per-node glyphs.

    Disks have diameter ``2 * radius`` (one radius per node) in data units (an
    :class:`EllipseCollection` with ``units="xy"``), so they never overlap whatever the figure
    size; ``ppd`` is the number of points per data unit. ``top`` is the output shown at each
    node (its most likely output under the mechanism, or its most preferred one), or None.

    * without ``top``: disks in the class colours (``"classes"``);
    * disks at least :data:`MIN_DOT_DISK` points wide: class disks with a dot of 0.45 times
      their diameter in the colour of the node's output (``"dots"``);
    * smaller disks: the disks themselves in the output colours, and the borders between
      rainbow classes as dark lines (``"fill"``): across each edge joining two classes, the
      segment of its perpendicular bisector as long as the edge (on a grid these join into the
      borders of the classes' cells).

    Edges are drawn thin and transparent up to :data:`EDGE_LIMIT` (the arcs of a directed graph
    as lines, once per pair of nodes). Returns the kind drawn.
    """
    require_matplotlib()
    from matplotlib.collections import EllipseCollection, LineCollection
    from matplotlib.colors import to_rgba_array

    n = G.n_nodes
    e = G.edges
    if G.directed and 0 < e.shape[0] <= EDGE_LIMIT:  # a pair of opposite arcs: one line
        e = np.unique(np.sort(e, axis=1), axis=0)
    if 0 < e.shape[0] <= EDGE_LIMIT:
        alpha = float(np.clip(12.0 / math.sqrt(e.shape[0]), 0.15, 0.6))
        ax.add_collection(
            LineCollection(xy[e], colors="0.4", linewidths=0.5, alpha=alpha, zorder=1)
        )
    d = 2.0 * radius
    diameter_pt = float(np.median(d)) * ppd
    width = float(np.clip(0.1 * diameter_pt, 0.2, 1.2))
    fill = top is not None and large_fill(True, diameter_pt)
    faces = to_rgba_array(out_colors)[top] if fill else to_rgba_array(cls_colors)[G.rainbow_ids]
    nodes = EllipseCollection(
        d,
        d,
        np.zeros(n),
        units="xy",
        offsets=xy,
        offset_transform=ax.transData,
        facecolors=faces,
        # one line width, transparent edges off the boundary (per-node widths are slow)
        edgecolors=np.where(G.boundary_mask[:, None], to_rgba_array("black"), 0.0),
        linewidths=0.0 if fill else width,
        zorder=2,
    )
    nodes.set_gid("most-likely-output" if fill else "rainbow-classes")
    ax.add_collection(nodes)
    if fill:
        ids = G.rainbow_ids
        border = G.edges[ids[G.edges[:, 0]] != ids[G.edges[:, 1]]] if G.edges.shape[0] else e
        if 0 < border.shape[0] <= EDGE_LIMIT:
            a, b = xy[border[:, 0]], xy[border[:, 1]]
            mid, half = (a + b) / 2, (b - a) / 2
            normal = np.stack([-half[:, 1], half[:, 0]], axis=1)  # the edge turned 90 degrees
            segments = np.stack([mid - normal, mid + normal], axis=1)
            lines = LineCollection(list(segments), colors="black", linewidths=0.8, zorder=3)
            lines.set_gid("class-borders")
            ax.add_collection(lines)
        return "fill"
    if top is None:
        return "classes"
    dots = EllipseCollection(
        0.45 * d,
        0.45 * d,
        np.zeros(n),
        units="xy",
        offsets=xy,
        offset_transform=ax.transData,
        facecolors=to_rgba_array(out_colors)[top],
        linewidths=0.0,
        zorder=3,
    )
    dots.set_gid("most-likely-output")
    ax.add_collection(dots)
    return "dots"
