"""Benchmark: exact (epsilon, delta)-DP verification at scale.

A random graph with 10^6 nodes, 4*10^6 edges and |V| = 8 outputs (16 rainbows), and a random
mechanism. Printed, all measured in this run:

- graph construction from the edge array (``RainbowGraph.from_edges``, validation included);
- ``verify`` (both directions of every edge);
- the memory floor: one numpy gather of the two endpoint rows for every edge;
- a plain per-edge Python loop, timed on 2*10^4 edges and scaled to all edges;
- peak resident memory of the process.

Targets: verify <= 1.5x the floor, >= 20x faster than the loop, peak memory <= 3 GB,
construction <= 10 s.  Run: ``python benchmarks/verify.py [--nodes N --edges E]``.
"""

from __future__ import annotations

import argparse
import math
import resource
import time

import numpy as np

from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism
from rainbowdp.privacy import verify


def random_edges(n: int, m: int, rng: np.random.Generator) -> np.ndarray:
    """m distinct random edges (u < v) on n nodes."""
    e = np.empty((0, 2), dtype=np.intp)
    while e.shape[0] < m:
        extra = rng.integers(0, n, size=(int((m - e.shape[0]) * 1.05) + 16, 2))
        extra = np.sort(extra, axis=1)
        extra = extra[extra[:, 0] != extra[:, 1]]
        e = np.unique(np.concatenate([e, extra]), axis=0)
    return e[rng.permutation(e.shape[0])[:m]]


def best_of(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=1_000_000)
    ap.add_argument("--edges", type=int, default=4_000_000)
    ap.add_argument("--outputs", type=int, default=8)
    ap.add_argument("--loop-edges", type=int, default=20_000)
    args = ap.parse_args()
    n, m, q = args.nodes, args.edges, args.outputs
    rng = np.random.default_rng(0)
    edges = random_edges(n, m, rng)
    table = np.array([rng.permutation(q) for _ in range(16)])
    ids = rng.integers(0, 16, size=n)

    t0 = time.perf_counter()
    G = RainbowGraph.from_edges(edges, outputs=range(q), rainbow_table=table, rainbow_ids=ids)
    t_build = time.perf_counter() - t0

    p = rng.random((n, q)) + 0.05
    p /= p.sum(axis=1, keepdims=True)
    M = Mechanism(G, p)
    eps, delta = 1.0, 1e-6

    t_verify = best_of(lambda: verify(M, epsilon=eps, delta=delta))
    rep = verify(M, epsilon=eps, delta=delta)

    e0, e1 = G.edges[:, 0], G.edges[:, 1]
    probs = M.probabilities

    def gather() -> None:
        a = probs[e0]
        b = probs[e1]
        del a, b

    t_floor = best_of(gather)

    k = min(args.loop_edges, m)
    rows = probs.tolist()
    el = G.edges[:k].tolist()
    x = math.exp(eps)

    def loop() -> float:
        worst = 0.0
        for u, v in el:
            a, b = rows[u], rows[v]
            d1 = sum(max(ai - x * bi, 0.0) for ai, bi in zip(a, b, strict=True))
            d2 = sum(max(bi - x * ai, 0.0) for ai, bi in zip(a, b, strict=True))
            worst = max(worst, d1, d2)
        return worst

    t_loop = best_of(loop, repeat=1) * m / k
    peak_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2

    print(
        f"graph: {n:,} nodes, {m:,} edges, |V| = {q}; (eps, delta) = ({eps}, {delta}); "
        f"private: {rep.is_private}, delta required {rep.delta_required:.4f}"
    )
    print(f"{'measure':<44}{'seconds':>10}{'ratio':>10}  target")
    print(f"{'graph construction (from_edges)':<44}{t_build:>10.3f}{'':>10}  <= 10 s")
    print(f"{'gather of endpoint rows (floor)':<44}{t_floor:>10.3f}{1.0:>10.2f}")
    print(f"{'verify':<44}{t_verify:>10.3f}{t_verify / t_floor:>10.2f}  <= 1.5 x floor")
    label = f"per-edge Python loop (scaled from {k:,})"
    print(f"{label:<44}{t_loop:>10.3f}{t_loop / t_verify:>10.1f}  >= 20 x verify")
    print(f"{'peak resident memory (GB)':<44}{peak_gb:>10.2f}{'':>10}  <= 3 GB")


if __name__ == "__main__":
    main()
