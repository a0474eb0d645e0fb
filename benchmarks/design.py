"""Benchmark of rainbowdp.design: LP at scale with HiGHS and CBC, and a MILP on 50 nodes.

Run ``python benchmarks/design.py`` (``--quick`` for a smaller instance). Prints a table of
build and solve times; the baseline is the same LP built the textbook PuLP way (operator
overloading, one expression per constraint term), timed in the same run.
"""

from __future__ import annotations

import argparse
import itertools
import math
import time

import numpy as np
import pulp

from rainbowdp.design import lp, milp
from rainbowdp.exceptions import SolverTimeLimitError
from rainbowdp.graph import RainbowGraph
from rainbowdp.privacy import pdp_delta, verify


def random_graph(n: int, m: int, q: int, seed: int) -> RainbowGraph:
    rng = np.random.default_rng(seed)
    keys: set[tuple[int, int]] = set()
    while len(keys) < m:
        u, v = (int(x) for x in rng.integers(0, n, 2))
        if u != v:
            keys.add((min(u, v), max(u, v)))
    perms = np.array(list(itertools.permutations(range(q))))
    ids = rng.integers(0, len(perms), n)
    return RainbowGraph.from_edges(
        np.array(sorted(keys)), outputs=list(range(q)), rainbow_table=perms, rainbow_ids=ids
    )


def naive_build(G: RainbowGraph, epsilon: float, delta: float) -> float:
    """Seconds to build the same LP with PuLP operator overloading (the baseline)."""
    t0 = time.perf_counter()
    x = math.exp(epsilon)
    n, q = G.n_nodes, G.n_outputs
    prob = pulp.LpProblem("naive", pulp.LpMaximize)
    P = [[prob.add_variable(f"p_{i}_{v}", 0, 1) for v in range(q)] for i in range(n)]
    U = (G.ranks == 0).astype(float)
    prob += pulp.lpSum(U[i, v] * P[i][v] for i in range(n) for v in range(q))
    for i in range(n):
        prob += pulp.lpSum(P[i]) == 1
    for a, b in G.edges.tolist():
        for u, w in ((a, b), (b, a)):
            ts = [prob.add_variable(f"t_{u}_{w}_{v}", 0) for v in range(q)]
            for v in range(q):
                prob += P[u][v] - x * P[w][v] - ts[v] <= 0
            prob += pulp.lpSum(ts) <= delta
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="100 nodes / 500 edges instead")
    ap.add_argument("--cbc-time-limit", type=float, default=300.0)
    ap.add_argument("--milp-time-limit", type=float, default=60.0)
    args = ap.parse_args()
    n, m, q = (100, 500, 5) if args.quick else (1000, 5000, 5)
    eps, dlt = 1.0, 0.01
    G = random_graph(n, m, q, seed=0)
    print(f"LP: {n} nodes, {m} edges, |V| = {q}, epsilon = {eps}, delta = {dlt}")
    print(f"{'run':<34}{'build s':>9}{'solve s':>10}{'total s':>10}  notes")
    base = naive_build(G, eps, dlt)
    print(f"{'baseline: PuLP operator build':<34}{base:>9.2f}{'':>10}{'':>10}")
    ref = None
    sizes: list[str] = []
    for solver in ("highs", "cbc"):
        t0 = time.perf_counter()
        try:
            r = lp(
                G,
                epsilon=eps,
                delta=dlt,
                solver=solver,
                time_limit=args.cbc_time_limit if solver == "cbc" else None,
            )
        except SolverTimeLimitError:
            total = time.perf_counter() - t0
            print(
                f"{'lp ' + solver:<34}{'':>9}{'':>10}{total:>10.2f}  time limit "
                f"{args.cbc_time_limit:g} s hit"
            )
            continue
        total = time.perf_counter() - t0
        ok = verify(r.mechanism, epsilon=eps, delta=dlt).is_private
        agree = "" if ref is None else f", |diff| vs highs {abs(r.objective - ref):.1e}"
        ref = r.objective if ref is None else ref
        print(
            f"{'lp ' + solver:<34}{r.build_seconds:>9.2f}{r.solve_seconds:>10.2f}"
            f"{total:>10.2f}  utility {r.objective:.6f}, verified {ok}, repair "
            f"{r.repair:.1e}, build/baseline {r.build_seconds / base:.2f}{agree}"
        )
        sizes.append(f"{solver} {r.n_variables:,} variables, {r.n_constraints:,} constraints")

    print(f"  model size (as built in this run): {'; '.join(sizes) or 'no model solved'}")

    print(
        f"\nMILP (definition), q = 3, epsilon = 0.5, delta = 0.1, utility 'rank', time limit "
        f"{args.milp_time_limit:g} s; LP(eps, 0) <= MILP <= LP(eps, delta)"
    )
    print(f"{'run':<34}{'build s':>9}{'solve s':>10}{'total s':>10}  notes")
    for nm in (10, 20, 50):
        H = random_graph(nm, 3 * nm // 2, 3, seed=1)
        lo = lp(H, epsilon=0.5, utility="rank").objective
        hi = lp(H, epsilon=0.5, delta=0.1, utility="rank").objective
        for solver in ("highs", "cbc"):
            label = f"milp {solver} {nm} nodes {3 * nm // 2} edges"
            t0 = time.perf_counter()
            try:
                r = milp(
                    H,
                    epsilon=0.5,
                    delta=0.1,
                    utility="rank",
                    solver=solver,
                    time_limit=args.milp_time_limit,
                )
            except SolverTimeLimitError as exc:
                detail = str(exc).split("(", 2)[-1].rsplit(";", 1)[0]
                print(
                    f"{label:<34}{'':>9}{'':>10}{time.perf_counter() - t0:>10.2f}  NOT optimal: "
                    f"{detail} (LPs {lo:.4f}, {hi:.4f})"
                )
                continue
            print(
                f"{label:<34}{r.build_seconds:>9.2f}{r.solve_seconds:>10.2f}"
                f"{time.perf_counter() - t0:>10.2f}  optimal {r.objective:.6f} in "
                f"[{lo:.4f}, {hi:.4f}], pdp_delta {pdp_delta(r.mechanism, 0.5):.4f}, "
                f"{r.n_integer_variables} binaries"
            )


if __name__ == "__main__":
    main()
