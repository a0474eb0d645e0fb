"""Benchmark: exact (epsilon, delta)-DP verification at scale.

A random graph (default 10^6 nodes and 4*10^6 edges), 16 random rainbows and a random mechanism
(positive rows), for q = 2, 8 and 32 outputs. Every figure printed is measured in this run;
times are the minimum and the median of ``--repeats`` runs (default 3).

Rows per q:

- graph construction (``RainbowGraph.from_edges``, validation included);
- the floor: the least work the job must do, done the best way -- the gather of both endpoint
  rows of every edge in chunks of ``rainbowdp._verify.kernels.CHUNK_ELEMENTS`` numbers (the
  library's chunk size) into two reused buffers (``np.take(..., out=buf)``), with no arithmetic;
- the compiled floor, where numba is installed: both endpoint rows of every edge read once and
  summed (one number per edge), compiled with the same prefetching and vectorised sum as the
  library's compiled kernel -- the least reading any kernel can do;
- ``verify`` (both directions of every edge, sound delta), on the compiled kernels where numba
  is installed (``rainbowdp._verify.fused``), and on the numpy kernels (the path without numba);
- the numpy baseline a competent user writes: per chunk (same chunk size),
  ``np.maximum(P[e0] - x * P[e1], 0).sum(1)`` both ways, maximum over the edges, compared to
  delta; and the same without chunks (one expression over all edges, the first thing one
  writes; ``--no-unchunked`` skips it);
- a per-edge pure-Python loop, timed on a sample of edges and extrapolated to all edges;
- ``privacy_profile`` at 100 values of ε on three grids (within the mechanisms' ratios, past
  them, log-spaced), against one pass per ε (the method before, timed on a few ε and
  extrapolated; its values compared), and ``epsilon_for_delta`` at δ = 0 and at ``--delta``;
  target: each <= 3 x verify;
- peak resident memory above the inputs of ``verify`` and of the numpy baselines, each in a
  fresh subprocess (``_timing.peak_above``: high-water mark reset after the inputs are built);
  ``verify`` is measured on its second call, and on its first (``verify-first-call``, which
  includes importing numba and loading the compiled kernels).

Ratios are ``verify / row`` (min over min; median over median). Targets: verify <= 1.5 x the
floor, peak memory <= inputs + 150 MB, construction <= 10 s. The summary gives verify over both
floors.

Run ``python benchmarks/verify.py`` (a few minutes on 2 cores; ``--quick`` for 10^5 nodes).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from _timing import MB, peak_above, timed

import rainbowdp._verify.fused as fused
from rainbowdp._verify.exact import delta_upper, enclose_exp
from rainbowdp._verify.kernels import CHUNK_ELEMENTS, directed_divergences
from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism
from rainbowdp.privacy import epsilon_for_delta, privacy_profile, verify

N_RAINBOWS = 16


def random_edges(n: int, m: int, rng: np.random.Generator) -> np.ndarray:
    """m distinct random edges (u < v) on n nodes."""
    e = np.empty((0, 2), dtype=np.intp)
    while e.shape[0] < m:
        extra = rng.integers(0, n, size=(int((m - e.shape[0]) * 1.05) + 16, 2))
        extra = np.sort(extra, axis=1)
        extra = extra[extra[:, 0] != extra[:, 1]]
        e = np.unique(np.concatenate([e, extra]), axis=0)
    return e[rng.permutation(e.shape[0])[:m]]


def chunk_rows(q: int) -> int:
    """Edges per chunk: CHUNK_ELEMENTS numbers, as the library's kernel."""
    return max(1, CHUNK_ELEMENTS // q)


def floor_gather(p: np.ndarray, e0: np.ndarray, e1: np.ndarray) -> None:
    """Chunked gather of both endpoint rows into two reused buffers; no arithmetic."""
    m, q = e0.shape[0], p.shape[1]
    rows = chunk_rows(q)
    a = np.empty((min(rows, m), q))
    b = np.empty((min(rows, m), q))
    for s in range(0, m, rows):
        k = min(rows, m - s)
        np.take(p, e0[s : s + k], axis=0, out=a[:k])
        np.take(p, e1[s : s + k], axis=0, out=b[:k])


def compiled_floor():
    """The compiled floor (None without numba): read both rows of every edge, one sum each."""
    kern = fused._compiled()
    if kern is None:
        return None
    import numba

    prefetch = kern.prefetch

    @numba.njit(nogil=True, boundscheck=False, fastmath={"reassoc"})
    def read_rows(p, e0, e1, out, d):
        q, n = p.shape[1], e0.shape[0]
        for i in range(n):
            if i + d < n:
                u = e0[i + d]
                v = e1[i + d]
                for w in range(0, q, 8):
                    prefetch(p, u, w)
                    prefetch(p, v, w)
            u = e0[i]
            v = e1[i]
            s = 0.0
            for w in range(q):
                s += p[u, w] + p[v, w]
            out[i] = s

    def run(p: np.ndarray, e0: np.ndarray, e1: np.ndarray, out: np.ndarray) -> None:
        read_rows(p, e0, e1, out, fused.PREFETCH_AHEAD)

    return run


class numpy_kernels:
    """Context: the library's numpy kernels (the path without numba)."""

    def __enter__(self):
        self.saved = fused.MIN_ELEMENTS
        fused.MIN_ELEMENTS = 1 << 62

    def __exit__(self, *exc):
        fused.MIN_ELEMENTS = self.saved


def numpy_chunked(p: np.ndarray, e0: np.ndarray, e1: np.ndarray, x: float) -> float:
    """Largest hockey-stick divergence over the edges, both ways, chunk by chunk."""
    rows = chunk_rows(p.shape[1])
    worst = 0.0
    for s in range(0, e0.shape[0], rows):
        a, b = p[e0[s : s + rows]], p[e1[s : s + rows]]
        fwd = np.maximum(a - x * b, 0).sum(1).max()
        bwd = np.maximum(b - x * a, 0).sum(1).max()
        worst = max(worst, float(fwd), float(bwd))
    return worst


def numpy_unchunked(p: np.ndarray, e0: np.ndarray, e1: np.ndarray, x: float) -> float:
    """The same in one expression over all edges."""
    fwd = np.maximum(p[e0] - x * p[e1], 0).sum(1)
    bwd = np.maximum(p[e1] - x * p[e0], 0).sum(1)
    return float(np.maximum(fwd, bwd).max())


def profile_grids(k: int) -> list[tuple[str, np.ndarray]]:
    """The grids of ε timed for ``privacy_profile``: within the ratios of the random
    mechanisms (their largest log-ratio is about 3), and past every ratio, where δ = 0."""
    return [
        (f"{k} eps in [0, 3]", np.linspace(0.0, 3.0, k)),
        (f"{k} eps in [0, 12]", np.linspace(0.0, 12.0, k)),
        (f"{k} eps log-spaced in [1e-4, 10]", np.geomspace(1e-4, 10.0, k)),
    ]


def per_epsilon(p: np.ndarray, edges: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """δ(ε) with one pass over the edges per ε (every edge evaluated at every ε)."""
    out = np.empty(grid.shape)
    for i, e in enumerate(grid.tolist()):
        enc = enclose_exp(e)
        fwd, bwd = directed_divergences(p, edges, enc.m, enc.k)
        out[i] = delta_upper(p, edges, enc, fwd, bwd)
    return out


def python_loop(rows: list, edges: list, x: float) -> float:
    worst = 0.0
    for u, v in edges:
        a, b = rows[u], rows[v]
        d1 = sum(max(ai - x * bi, 0.0) for ai, bi in zip(a, b, strict=True))
        d2 = sum(max(bi - x * ai, 0.0) for ai, bi in zip(a, b, strict=True))
        worst = max(worst, d1, d2)
    return worst


def build(edges: np.ndarray, table: np.ndarray, ids: np.ndarray, p: np.ndarray) -> Mechanism:
    q = table.shape[1]
    G = RainbowGraph.from_edges(edges, outputs=range(q), rainbow_table=table, rainbow_ids=ids)
    return Mechanism(G, p)


# ------------------------------------------------------------------------ memory (subprocess)
def child(what: str, data: Path, q: int, eps: float, delta: float) -> None:
    """Build the inputs from saved arrays, then print the peak memory of one call as JSON."""
    edges = np.load(data / "edges.npy")
    M = build(edges, np.load(data / f"table{q}.npy"), np.load(data / "ids.npy"),
              np.load(data / f"p{q}.npy"))  # fmt: skip
    del edges
    p, e0, e1, x = M.probabilities, M.graph.edges[:, 0], M.graph.edges[:, 1], math.exp(eps)
    if what == "verify":
        verify(M, epsilon=eps, delta=delta)  # measure the second call
    calls = {
        "verify": lambda: verify(M, epsilon=eps, delta=delta),
        "verify-first-call": lambda: verify(M, epsilon=eps, delta=delta),
        "numpy-chunked": lambda: numpy_chunked(p, e0, e1, x) <= delta,
        "numpy-unchunked": lambda: numpy_unchunked(p, e0, e1, x) <= delta,
    }
    before, peak = peak_above(calls[what])
    print(json.dumps({"rss_inputs": before, "peak_above": peak}))


def measure_memory(what: str, data: Path, q: int, eps: float, delta: float) -> dict:
    cmd = [sys.executable, __file__, "--child", what, "--data", str(data), "--outputs", str(q)]
    cmd += ["--epsilon", repr(eps), "--delta", repr(delta)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


# ------------------------------------------------------------------------------------- main
def row(name: str, tmin: float, tmed: float, ratio: str = "", target: str = "") -> None:
    print(f"  {name:<48}{tmin:>9.3f}{tmed:>9.3f}{ratio:>18}  {target}")


def ratio(vmin: float, vmed: float, tmin: float, tmed: float, digits: int = 2) -> str:
    return f"{vmin / tmin:.{digits}f} / {vmed / tmed:.{digits}f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nodes", type=int, default=1_000_000)
    ap.add_argument("--edges", type=int, default=4_000_000)
    ap.add_argument("--outputs", type=int, nargs="+", default=[2, 8, 32], help="values of q")
    ap.add_argument("--epsilon", type=float, default=1.0)
    ap.add_argument("--delta", type=float, default=1e-6)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--loop-edges", type=int, default=10_000, help="sample of the Python loop")
    ap.add_argument("--quick", action="store_true", help="10^5 nodes, 4*10^5 edges")
    ap.add_argument("--no-unchunked", action="store_true", help="skip the unchunked baseline")
    ap.add_argument("--no-memory", action="store_true", help="skip the memory subprocesses")
    ap.add_argument("--no-profile", action="store_true", help="skip privacy_profile / eps(delta)")
    ap.add_argument("--profile-points", type=int, default=100, help="epsilons per profile")
    ap.add_argument("--per-eps-sample", type=int, default=4,
                    help="epsilons timed for the one-pass-per-epsilon baseline")  # fmt: skip
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--data", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    eps, delta = args.epsilon, args.delta
    if args.child:
        child(args.child, args.data, args.outputs[0], eps, delta)
        return
    n, m = (100_000, 400_000) if args.quick else (args.nodes, args.edges)
    x = math.exp(eps)
    rng = np.random.default_rng(0)
    edges = random_edges(n, m, rng)
    ids = rng.integers(0, N_RAINBOWS, size=n)
    print(
        f"verify benchmark: {n:,} nodes, {m:,} random edges, {N_RAINBOWS} rainbows, random "
        f"mechanism; (eps, delta) = ({eps}, {delta}); {args.repeats} runs per row, seconds "
        f"(min, median); ratio = verify / row (min/min, med/med); chunk = {CHUNK_ELEMENTS} "
        f"numbers; {os.cpu_count()} CPUs"
    )
    floor_c = compiled_floor()
    kernel = "compiled" if fused.available() else "numpy"
    print(f"kernels: {kernel} (numba {'installed' if floor_c else 'not installed or off'})")
    summary = []
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        np.save(data / "edges.npy", edges)
        np.save(data / "ids.npy", ids)
        for q in args.outputs:
            table = np.array([rng.permutation(q) for _ in range(N_RAINBOWS)])
            p = rng.random((n, q)) + 0.05
            p /= p.sum(axis=1, keepdims=True)
            np.save(data / f"table{q}.npy", table)
            np.save(data / f"p{q}.npy", p)

            b_min, b_med, G = timed(
                lambda t=table, q=q: RainbowGraph.from_edges(
                    edges, outputs=range(q), rainbow_table=t, rainbow_ids=ids
                ),
                args.repeats,
            )
            M = Mechanism(G, p)
            del p
            P, e0, e1 = M.probabilities, G.edges[:, 0], G.edges[:, 1]
            v_min, v_med, rep = timed(lambda M=M: verify(M, epsilon=eps, delta=delta), args.repeats)
            f_min, f_med, _ = timed(lambda P=P, e0=e0, e1=e1: floor_gather(P, e0, e1), args.repeats)
            g_min = g_med = math.nan
            if floor_c is not None:
                sink = np.empty(e0.shape[0])
                floor_c(P, e0[:10], e1[:10], sink)  # compile outside the timing
                g_min, g_med, _ = timed(
                    lambda P=P, e0=e0, e1=e1, s=sink: floor_c(P, e0, e1, s), args.repeats
                )
                del sink
            with numpy_kernels():
                n_min, n_med, rep_np = timed(
                    lambda M=M: verify(M, epsilon=eps, delta=delta), args.repeats
                )
            assert rep_np.to_dict() == rep.to_dict(), "the two kernels disagree"
            c_min, c_med, worst = timed(
                lambda P=P, e0=e0, e1=e1: numpy_chunked(P, e0, e1, x), args.repeats
            )
            print(
                f"\nq = {q}: private {rep.is_private}, delta required {rep.delta_required:.6g} "
                f"(numpy baseline's max {worst:.6g}, |diff| {abs(worst - rep.delta_required):.1e})"
            )
            print(f"  {'measure':<48}{'min s':>9}{'med s':>9}{'verify/row':>18}  target")
            row("graph construction (from_edges)", b_min, b_med, "", "<= 10 s")
            row(
                "floor: chunked gather of both endpoint rows",
                f_min,
                f_med,
                ratio(v_min, v_med, f_min, f_med),
                "verify <= 1.5 x floor",
            )
            if floor_c is not None:
                row(
                    "compiled floor: read both rows once, one sum",
                    g_min,
                    g_med,
                    ratio(v_min, v_med, g_min, g_med),
                    "verify <= 1.5 x floor",
                )
            row(f"verify ({kernel} kernels)", v_min, v_med, "1.00 / 1.00")
            row(
                "verify, numpy kernels (same report)",
                n_min,
                n_med,
                ratio(v_min, v_med, n_min, n_med),
                f"{ratio(n_min, n_med, f_min, f_med)} x floor",
            )
            row(
                "numpy baseline, chunked (same chunk size)",
                c_min,
                c_med,
                ratio(v_min, v_med, c_min, c_med),
            )
            u_min = u_med = math.nan
            if not args.no_unchunked:
                u_min, u_med, _ = timed(
                    lambda P=P, e0=e0, e1=e1: numpy_unchunked(P, e0, e1, x), args.repeats
                )
                row("numpy baseline, unchunked", u_min, u_med, ratio(v_min, v_med, u_min, u_med))
            k = min(args.loop_edges, m)
            rows, el = P.tolist(), G.edges[:k].tolist()
            l_min, l_med, _ = timed(lambda r=rows, el=el: python_loop(r, el, x), args.repeats)
            l_min, l_med = l_min * m / k, l_med * m / k
            row(
                f"Python loop (extrapolated from {k:,} edges)",
                l_min,
                l_med,
                ratio(v_min, v_med, l_min, l_med, 4),
            )
            del rows, el
            many = {}
            if not args.no_profile:
                print(f"  {'many epsilon / delta (same graph)':<48}{'min s':>9}{'med s':>9}"
                      f"{'row/verify':>18}  target")  # fmt: skip
                for label, grid in profile_grids(args.profile_points):
                    p_min, p_med, prof = timed(
                        lambda M=M, g=grid: privacy_profile(M, g), args.repeats
                    )
                    many[label] = (p_min, p_med)
                    row(f"privacy_profile, {label}", p_min, p_med,
                        ratio(p_min, p_med, v_min, v_med), "<= 3 x verify")  # fmt: skip
                    # one pass per epsilon (the method before), on a few values, extrapolated
                    few = grid[:: max(1, grid.size // args.per_eps_sample)]
                    o_min, o_med, old = timed(lambda P=P, E=G.edges, f=few: per_epsilon(P, E, f), 1)
                    scale = grid.size / few.size
                    same = np.array_equal(old, prof[:: max(1, grid.size // args.per_eps_sample)])
                    row(f"  one pass per epsilon (extrapolated from {few.size})", o_min * scale,
                        o_med * scale, ratio(o_min * scale, o_med * scale, v_min, v_med),
                        f"same values: {same}")  # fmt: skip
                for d in (0.0, delta):
                    e_min, e_med, e_val = timed(
                        lambda M=M, d=d: epsilon_for_delta(M, d), args.repeats
                    )
                    many[f"eps({d:g})"] = (e_min, e_med)
                    row(f"epsilon_for_delta, delta = {d:g} (eps = {e_val:.6g})", e_min, e_med,
                        ratio(e_min, e_med, v_min, v_med), "<= 3 x verify")  # fmt: skip
            mem = {}
            if not args.no_memory:
                kinds = ["verify", "verify-first-call", "numpy-chunked"]
                kinds += [] if args.no_unchunked else ["numpy-unchunked"]
                print(
                    f"  {'peak RSS above inputs (fresh subprocess each)':<48}{'MB':>9}"
                    f"{'inputs MB':>11}{'':>16}  target"
                )
                for kind in kinds:
                    r = measure_memory(kind, data, q, eps, delta)
                    pk = math.nan if r["peak_above"] is None else r["peak_above"] / MB
                    mem[kind] = pk
                    tgt = "<= inputs + 150 MB" if kind.startswith("verify") else ""
                    print(f"  {kind:<48}{pk:>9.0f}{r['rss_inputs'] / MB:>11.0f}{'':>16}  {tgt}")
            summary.append(
                (q, v_min, v_med, f_min, f_med, g_min, g_med, c_min, c_med, u_min, u_med, mem, many)
            )
            del M, G, P, e0, e1
    print(
        "\nsummary (min/min ; med/med):\n"
        f"  {'q':>3}{'verify s':>10}{'verify/floor':>16}{'/compiled floor':>17}"
        f"{'verify/numpy':>16}{'verify/unchunked':>18}{'verify peak MB':>16}"
    )
    for q, v_min, v_med, f_min, f_med, g_min, g_med, c_min, c_med, u_min, u_med, mem, _ in summary:
        print(
            f"  {q:>3}{v_min:>10.3f}{ratio(v_min, v_med, f_min, f_med):>16}"
            f"{ratio(v_min, v_med, g_min, g_med):>17}"
            f"{ratio(v_min, v_med, c_min, c_med):>16}{ratio(v_min, v_med, u_min, u_med):>18}"
            f"{mem.get('verify', math.nan):>16.0f}"
        )
    if not args.no_profile:
        print("\nmany epsilon / delta, time / verify (min/min ; med/med), target <= 3:")
        for q, v_min, v_med, *_, many in summary:
            cells = "".join(f"  {k}: {ratio(a, b, v_min, v_med)}" for k, (a, b) in many.items())
            print(f"  q = {q}:{cells}")
    print("(the machine may be shared: compare ratios measured in the same run)")


if __name__ == "__main__":
    main()
