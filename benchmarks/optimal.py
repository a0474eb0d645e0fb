r"""Benchmark: the closed-form optimal mechanism on a 10^6-node rainbow graph.

The graph is a 1000 x 1000 grid with 4-neighbour and both diagonal edges (3 994 002 edges), and
six rainbows over five outputs assigned by angular sector around the centre, so every region is
contiguous and most nodes are far from the boundary (distances up to ~500).

``optimal_mechanism`` (boundary graph by one breadth-first search, line mechanisms, pullback,
and its own re-verification of every edge) is timed against a baseline measured in the same run:
one :func:`scipy.sparse.csgraph.breadth_first_order` from one node over the same CSR adjacency
plus one :func:`rainbowdp.privacy.verify` of the result. Target: ratio <= 1.5.

Run: ``python benchmarks/optimal.py [--side 1000] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import itertools
import math
import resource
import sys
import time

import numpy as np
from scipy.sparse.csgraph import breadth_first_order

from rainbowdp.graph import RainbowGraph
from rainbowdp.morphism import boundary_graph
from rainbowdp.optimal import optimal_mechanism
from rainbowdp.privacy import are_close, verify


def grid_graph(side: int, n_rainbows: int = 6, q: int = 5) -> RainbowGraph:
    """side x side grid with 8-neighbourhood; rainbow by angular sector around the centre."""
    idx = np.arange(side * side).reshape(side, side)
    pairs = [
        (idx[:, :-1], idx[:, 1:]),  # horizontal
        (idx[:-1, :], idx[1:, :]),  # vertical
        (idx[:-1, :-1], idx[1:, 1:]),  # diagonal
        (idx[:-1, 1:], idx[1:, :-1]),  # anti-diagonal
    ]
    edges = np.concatenate([np.column_stack([a.ravel(), b.ravel()]) for a, b in pairs])
    yy, xx = np.divmod(np.arange(side * side), side)
    angle = np.arctan2(yy - (side - 1) / 2, xx - (side - 1) / 2)
    sector = np.minimum(
        ((angle + math.pi) / (2 * math.pi) * n_rainbows).astype(np.intp), n_rainbows - 1
    )
    perms = list(itertools.permutations(range(q)))
    rng = np.random.default_rng(0)
    table = np.array([perms[i] for i in rng.choice(len(perms), n_rainbows, replace=False)])
    return RainbowGraph.from_edges(
        edges, outputs=[f"v{j}" for j in range(q)], rainbow_table=table, rainbow_ids=sector
    )


def boundary_rows(G: RainbowGraph, epsilon: float) -> dict:
    """Valid homogeneous boundary: uniform mixed with weight λ = (e^ε-1)/(q+e^ε-1)/2."""
    q = G.n_outputs
    x = math.exp(epsilon)
    lam = 0.5 * (x - 1) / (q + x - 1)
    rng = np.random.default_rng(1)
    rows = {c: (1 - lam) / q + lam * rng.dirichlet(np.ones(q)) for c in G.rainbows}
    assert all(are_close(a, b, epsilon, 0.0) for a, b in itertools.combinations(rows.values(), 2))
    return rows


def timed(fn, repeat: int):
    best, first, out = math.inf, None, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t0
        first = dt if first is None else first
        best = min(best, dt)
    return out, first, best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--side", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--epsilon", type=float, default=0.5)
    ap.add_argument("--delta", type=float, default=1e-4)
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    G = grid_graph(args.side)
    _ = G.adjacency  # the CSR adjacency is shared by both sides
    t_build = time.perf_counter() - t0
    rows = boundary_rows(G, args.epsilon)
    eps, dlt = args.epsilon, args.delta

    _, bfs_first, bfs = timed(
        lambda: breadth_first_order(G.adjacency, 0, directed=True, return_predecessors=False),
        args.repeat,
    )
    (gb, _g), bg_first, bg = timed(lambda: boundary_graph(G), args.repeat)
    M, opt_first, opt = timed(
        lambda: optimal_mechanism(G, epsilon=eps, delta=dlt, boundary=rows), args.repeat
    )
    rep, ver_first, ver = timed(lambda: verify(M, epsilon=eps, delta=dlt), args.repeat)
    assert rep.is_private
    baseline = bfs + ver
    ratio = opt / baseline
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    print(
        f"graph: {G.n_nodes} nodes, {G.n_edges} edges, {G.rainbow_table.shape[0]} rainbows, "
        f"q = {G.n_outputs}; boundary graph: {gb.n_nodes} nodes; built in {t_build:.2f} s"
    )
    print(
        f"(epsilon, delta) = ({eps:g}, {dlt:g}); delta required by the result = "
        f"{rep.delta_required:.3g}; times are the best of {args.repeat} (first run in "
        "brackets)"
    )
    print()
    print(f"{'step':<44}{'seconds':>10}{'first':>10}")
    print("-" * 64)
    lines = [
        ("BFS from one node (scipy, same CSR)", bfs, bfs_first),
        ("verify(result)", ver, ver_first),
        ("baseline = BFS + verify", baseline, bfs_first + ver_first),
        ("boundary_graph (BFS + chains + morphism)", bg, bg_first),
        ("optimal_mechanism (incl. re-verification)", opt, opt_first),
    ]
    for name, a, b in lines:
        print(f"{name:<44}{a:>10.3f}{b:>10.3f}")
    print("-" * 64)
    print(f"{'ratio optimal_mechanism / baseline':<44}{ratio:>10.2f}   (target <= 1.5)")
    print(f"{'peak memory (ru_maxrss, MiB)':<44}{peak_mb:>10.0f}")
    return 0 if ratio <= 1.5 else 1


if __name__ == "__main__":
    sys.exit(main())
