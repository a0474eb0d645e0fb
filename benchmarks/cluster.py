"""Benchmark: verification past one machine's memory, and parameter sweeps, on a Dask cluster.

Two parts, every figure measured in this run; times are the minimum and the median of
``--repeats`` runs (default 3), ratios min over min and median over median.

(a) ``rainbowdp.distributed.verify`` end to end on a graph stored on disk: ``--edges`` edges
    (default 10^8) on ``--nodes`` nodes (default 10^7), q = ``--outputs`` (default 2), written
    by this script as ``.npy`` shards of ``--shard`` edges (default 10^7) into a temporary
    directory (``--dir``; deleted at the end). The graph is the union of E / shard random
    2-regular graphs (node i joined to node i + s_b under one random permutation of the nodes,
    with a distinct shift s_b per shard): no self-loop, no repeated edge, random row accesses.
    The mechanism has rows (p, 1 - p) with p uniform in [0.3, 0.7]; it is checked at
    ``--epsilon`` (default 1.0, where it is private: the costliest case, every directed pair
    must be proved 0). The cluster is a ``LocalCluster`` of ``--workers`` worker processes (one
    thread each). Printed: wall time and throughput (edges/s) for all edges and for the first
    shard, the in-memory ``rainbowdp.verify`` on that shard (graph in memory, time of the call
    only) with the throughput ratio, whether both give the same numbers, and peak resident
    memory of the client process and of each worker during one distributed run (high-water mark
    reset before the run, minus the resident set before it; see ``_timing``). The shards are
    read through the page cache, warm from being written: disk bandwidth is not measured.

(b) ``rainbowdp.sweep.design_sweep``: ``rainbowdp.design.lp`` at every point of a
    ``--grid`` x ``--grid`` (ε, δ) grid (default 10 x 10 = 100 designs) on a count path of
    ``--sweep-nodes`` nodes, on the same cluster against a serial loop in this process; the
    results must be equal.

Run ``python benchmarks/cluster.py`` (several minutes on 2 cores, 1.6 GB of disk);
``--quick`` for 10^6 edges on 10^5 nodes and a 4 x 4 grid. BLAS runs with one thread per
process (set before NumPy is imported, unless already set), as in Dask's workers.
"""

# ruff: noqa: E402 (BLAS threads are set before NumPy is imported)
from __future__ import annotations

import os

# One BLAS thread per process, as Dask's nanny gives its workers: the serial baselines and the
# workers then do the same work per core (multi-threaded BLAS on a loaded 2-core machine made
# one small least-squares solve of the LP designer's refinement many times slower).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import shutil
import statistics
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
from _timing import MB, reset_peak, status_bytes, timed

from rainbowdp import distributed
from rainbowdp.builders import count_path
from rainbowdp.design import lp
from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism
from rainbowdp.privacy import verify
from rainbowdp.sweep import design_sweep


def write_shards(
    folder: Path, n: int, n_edges: int, shard: int, rng: np.random.Generator
) -> list[Path]:
    """Write the edges as .npy shards of ``shard`` rows; return their paths."""
    perm = rng.permutation(n)
    n_shards = -(-n_edges // shard)
    shifts = rng.choice(np.arange(1, (n - 1) // 2 + 1), size=n_shards, replace=False)
    paths = []
    for b in range(n_shards):
        m = min(shard, n_edges - b * shard)
        i = (np.arange(m, dtype=np.int64) + b * shard) % n
        e = np.sort(np.stack([perm[i], perm[(i + shifts[b]) % n]], axis=1), axis=1)  # u < v
        path = folder / f"edges-{b:04d}.npy"
        np.save(path, e)
        paths.append(path)
    return paths


def mechanism_rows(n: int, q: int, rng: np.random.Generator) -> np.ndarray:
    """Rows (p, 1 - p) for q = 2; for larger q, p spread over the outputs by random weights in
    [0.3, 0.7] normalised."""
    if q == 2:
        p = rng.uniform(0.3, 0.7, size=n)
        return np.stack([p, 1.0 - p], axis=1)
    w = rng.uniform(0.3, 0.7, size=(n, q))
    return w / w.sum(axis=1, keepdims=True)


def _vm_rss() -> int:
    reset_peak()
    return status_bytes("VmRSS")


def _vm_hwm() -> int:
    return status_bytes("VmHWM")


def _cpu_times() -> tuple[float, float]:
    """(user, system) CPU seconds of this process."""
    t = os.times()
    return t.user, t.system


def row(label: str, t: tuple[float, float], edges: int) -> None:
    lo, med = t
    print(
        f"  {label:<46} {lo:8.2f} s {med:8.2f} s   {edges / lo / 1e6:8.2f} M edges/s "
        f"(median {edges / med / 1e6:.2f})"
    )


def part_a(args: argparse.Namespace, client, folder: Path) -> None:
    rng = np.random.default_rng(args.seed)
    n, q, n_edges = args.nodes, args.outputs, args.edges
    print(f"(a) verify: {n:,} nodes, {n_edges:,} edges, q = {q}, epsilon = {args.epsilon}")
    t0 = time.perf_counter()
    paths = write_shards(folder, n, n_edges, args.shard, rng)
    size = sum(p.stat().st_size for p in paths)
    print(f"  wrote {len(paths)} shards, {size / MB:,.0f} MB, in {time.perf_counter() - t0:.1f} s")
    p = mechanism_rows(n, q, rng)
    files = [str(x) for x in paths]

    def dist_all():
        return distributed.verify(p, files, epsilon=args.epsilon, scheduler=client)

    def dist_first():
        return distributed.verify(p, files[0], epsilon=args.epsilon, scheduler=client)

    # the first timed run of the whole graph also measures memory and the workers' CPU split
    before_workers = client.run(_vm_rss)
    before_client = _vm_rss()
    cpu0 = client.run(_cpu_times)
    times = []
    for k in range(args.repeats):
        t0 = time.perf_counter()
        report = dist_all()
        times.append(time.perf_counter() - t0)
        if k == 0:
            peak_client = _vm_hwm() - before_client
            peak_workers = {w: client.run(_vm_hwm)[w] - before_workers[w] for w in before_workers}
            cpu1 = client.run(_cpu_times)
    user = sum(cpu1[w][0] - cpu0[w][0] for w in cpu0)
    system = sum(cpu1[w][1] - cpu0[w][1] for w in cpu0)
    t_all = (min(times), statistics.median(times), report)
    t_first = timed(dist_first, args.repeats)

    e0 = np.load(paths[0])
    G = RainbowGraph.from_edges(
        e0,
        outputs=list(range(q)),
        rainbow_table=[list(range(q))],
        rainbow_ids=np.zeros(n, dtype=np.intp),
    )
    M = Mechanism(G, p)
    t_mem = timed(lambda: verify(M, epsilon=args.epsilon), args.repeats)
    ref = t_mem[2]
    got = t_first[2]
    same = (
        ref.delta_required == got.delta_required
        and ref.worst_edge == got.worst_edge
        and ref.witness == got.witness
        and ref.n_violations == got.n_violations
    )
    m0 = e0.shape[0]
    print(f"  {'':<46} {'min':>10} {'median':>10}   throughput")
    row(f"distributed, all {n_edges:,} edges ({report.n_chunks} chunks)", t_all[:2], n_edges)
    row(f"distributed, first shard ({m0:,} edges)", t_first[:2], m0)
    row(f"in memory, first shard ({m0:,} edges)", t_mem[:2], m0)
    r_all = (t_mem[0] / m0) / (t_all[0] / n_edges), (t_mem[1] / m0) / (t_all[1] / n_edges)
    r_one = t_mem[0] / t_first[0], t_mem[1] / t_first[1]
    print(
        f"  throughput ratio distributed (all edges) / in memory: {r_all[0]:.2f} "
        f"(median {r_all[1]:.2f}); on the same shard: {r_one[0]:.2f} (median {r_one[1]:.2f})"
    )
    print(f"  same numbers on the first shard as in memory: {same}")
    print(f"  workers' CPU in the first run of all edges: user {user:.1f} s, system {system:.1f} s")
    print(f"  result on all edges: {report}")
    print(
        f"  peak RSS above the start of one run: client {peak_client / MB:,.0f} MB; workers "
        + ", ".join(f"{v / MB:,.0f} MB" for v in peak_workers.values())
        + f" (P is {p.nbytes / MB:,.0f} MB; the in-memory graph of one shard "
        f"{(G.edges.nbytes + p.nbytes) / MB:,.0f} MB with P)"
    )


def part_b(args: argparse.Namespace, client) -> None:
    G = count_path(args.sweep_nodes)
    eps = np.linspace(0.2, 2.0, args.grid)
    dls = np.concatenate([[0.0], np.geomspace(1e-4, 1e-1, args.grid - 1)])
    n_pts = eps.size * dls.size
    print(
        f"(b) design sweep: design.lp on count_path({args.sweep_nodes}) "
        f"({G.n_nodes} nodes, {G.n_outputs} outputs) at {n_pts} (epsilon, delta) points"
    )

    def serial():
        return [[lp(G, epsilon=float(e), delta=float(d)) for d in dls] for e in eps]

    def on_cluster():
        return design_sweep(G, eps, dls, executor=client, progress=False)

    t_ser = timed(serial, args.repeats)
    t_par = timed(on_cluster, args.repeats)
    same = all(
        t_par[2].results[i, j].objective == t_ser[2][i][j].objective
        and np.array_equal(
            t_par[2].results[i, j].mechanism.probabilities,
            t_ser[2][i][j].mechanism.probabilities,
        )
        for i in range(eps.size)
        for j in range(dls.size)
    )
    print(f"  {'':<46} {'min':>10} {'median':>10}   per point")
    for label, t in (("serial loop", t_ser), (f"sweep on {args.workers} workers", t_par)):
        print(f"  {label:<46} {t[0]:8.2f} s {t[1]:8.2f} s   {t[0] / n_pts * 1e3:8.1f} ms")
    print(
        f"  speed-up: {t_ser[0] / t_par[0]:.2f} (median {t_ser[1] / t_par[1]:.2f}); "
        f"same designs: {same}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nodes", type=int, default=10_000_000)
    ap.add_argument("--edges", type=int, default=100_000_000)
    ap.add_argument("--shard", type=int, default=10_000_000, help="edges per .npy file")
    ap.add_argument("--outputs", type=int, default=2, help="q")
    ap.add_argument("--epsilon", type=float, default=1.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--grid", type=int, default=10, help="grid side of the design sweep")
    ap.add_argument("--sweep-nodes", type=int, default=30, help="count path of the sweep")
    ap.add_argument("--dir", type=Path, help="where to write the shards (default: a tempdir)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="10^6 edges on 10^5 nodes, 4x4 grid")
    ap.add_argument("--no-verify", action="store_true", help="skip part (a)")
    ap.add_argument("--no-sweep", action="store_true", help="skip part (b)")
    args = ap.parse_args()
    if args.quick:
        args.nodes, args.edges, args.shard, args.grid = 100_000, 1_000_000, 100_000, 4
    from distributed import Client, LocalCluster

    print(
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; {args.workers} worker "
        f"processes with one thread each; OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']}"
    )
    folder = Path(tempfile.mkdtemp(prefix="rainbowdp-bench-", dir=args.dir))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ResourceWarning)
            with (
                LocalCluster(
                    n_workers=args.workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    worker_dashboard_address=None,
                ) as cluster,
                Client(cluster) as client,
            ):
                if not args.no_verify:
                    part_a(args, client, folder)
                if not args.no_sweep:
                    part_b(args, client)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"deleted {folder}; load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
