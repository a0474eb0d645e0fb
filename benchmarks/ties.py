r"""Benchmark: the verification engine on the mechanisms users build, where every edge ties.

The standard mechanisms on symmetric graphs attain their worst ε on every edge, which is where
the exact engine used to fall back to per-edge rationals. Every figure is measured in this run
(min and median of ``--repeats`` calls); each target is a ratio against a baseline run beside
it.

(a) **The new user's reproducer**: the median of 14 records over 5 values, neighbours by
    replacing one record (``from_records``: 3,060 nodes, 23,800 edges), randomized response at
    ε = 1. ``epsilon_for_delta`` at δ = 1e-6 and 0, ``privacy_profile`` at 100 ε and
    ``certify`` at the returned ε, each against one ``verify`` at ε = 1. Every call gets a
    fresh ``Mechanism`` (nothing remembered from an earlier call). Target: ε(δ) ≤ 2× verify.
(b) **verify of every standard mechanism** on ``count_path(10**6, outputs=range(32))`` at its
    own ε (where every edge ties at the maximum) and at half of it, against ``verify`` of random
    rows of the same shape (Dirichlet, every edge distinct). Target: ≤ 2× random rows.
(c) **The tied query set per edge**: a clamped geometric mechanism (ε = 1) on a path of 100
    counts, δ at 6 values of ε and ε at 3 values of δ, against dp_accounting's PLD answers for
    the same 6 + 3 queries on both directions of every edge (extra ``accounting``; the peer's
    values are discretised estimates, rainbowdp's proved exact values). Target: faster per edge.
(d) **ε(δ) and the 100-ε profile against one verify** from 10^4 edges up, on random graphs
    with random rows and on the clamped geometric count path. Target: ≤ 3×.
(e) **Fixed costs**: ``verify`` of a 2-node graph against the numpy expression
    ``max(sum(max(P - e^ε Q, 0)), sum(max(Q - e^ε P, 0)))``. Target: ≤ 5×.
(f) ``rainbowdp families NAME --n 1000`` for every family (one process each, wall time).

Run from the repository root: ``python benchmarks/ties.py`` (a few minutes);
``--quick`` shrinks (b) and (d) to 10^5 and skips (f); ``--parts a c e`` runs some parts only.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import timed

import rainbowdp as rdp
from rainbowdp import builders, noise


def fresh(M: rdp.Mechanism, k: int) -> list[rdp.Mechanism]:
    """k copies of ``M`` that remember nothing (built outside the timings), plus one more
    for the warm-up call of :func:`timed_warm`."""
    return [rdp.Mechanism(M.graph, M.probabilities) for _ in range(k + 1)]


def timed_warm(fn, r: int) -> tuple:
    """:func:`timed` after one untimed call (kernels compiled or loaded, caches of the
    process filled; each call still gets a fresh mechanism)."""
    fn()
    return timed(fn, r)


def row(name: str, t: tuple[float, float], base: tuple[float, float] | None, unit="s") -> None:
    scale = 1e3 if unit == "ms" else (1e6 if unit == "us" else 1.0)
    ratio = "" if base is None else f"{t[0] / base[0]:8.2f}  {t[1] / base[1]:8.2f}"
    print(f"  {name:<58}{t[0] * scale:>10.3f}{t[1] * scale:>10.3f}  {ratio}")


def header(title: str, unit: str, against: str) -> None:
    print(f"\n{title}")
    print(f"  {'computation':<58}{'min ' + unit:>10}{'med ' + unit:>10}  {against} (min, med)")


def part_a(r: int) -> None:
    G = builders.from_records(
        range(5), size=14, query=lambda d: d[len(d) // 2], outputs=range(5), relation="replace_one"
    )
    M = noise.randomized_response(G, epsilon=1.0)
    header(
        f"(a) randomized response (eps = 1) on the median graph: {G.n_nodes:,} nodes, "
        f"{G.n_edges:,} edges",
        "ms",
        "/ verify",
    )
    ms = fresh(M, r)
    v = timed_warm(lambda: rdp.verify(ms.pop(), epsilon=1.0), r)
    row("verify(epsilon=1)", v[:2], None, "ms")
    for d in (1e-6, 0.0):
        ms = fresh(M, r)
        t = timed_warm(lambda d=d, ms=ms: rdp.epsilon_for_delta(ms.pop(), d), r)
        row(f"epsilon_for_delta(delta={d:g}) = {t[2]!r}", t[:2], v[:2], "ms")
    eps = rdp.epsilon_for_delta(M, 1e-6)
    grid = np.linspace(0.0, 2.0, 100)
    ms = fresh(M, r)
    row(
        "privacy_profile (100 eps)",
        timed_warm(lambda: rdp.privacy_profile(ms.pop(), grid), r)[:2],
        v[:2],
        "ms",
    )
    ms = fresh(M, r)
    c = timed_warm(lambda: rdp.certify(ms.pop(), epsilon=eps, delta=1e-6), r)
    row(f"certify at that epsilon: {c[2].verdict}", c[:2], v[:2], "ms")


STANDARD = {
    "geometric clamped": lambda G: noise.geometric(G, epsilon=1.0, form="clamped"),
    "geometric truncated": lambda G: noise.geometric(G, epsilon=1.0, form="truncated"),
    "geometric folded": lambda G: noise.geometric(G, epsilon=1.0, form="folded"),
    "geometric modular": lambda G: noise.geometric(G, epsilon=1.0, form="modular"),
    "discrete gaussian (sigma 2; eps 1)": lambda G: noise.discrete_gaussian(G, sigma=2.0),
    "staircase": lambda G: noise.staircase(G, epsilon=1.0),
    "exponential": lambda G: noise.exponential(G, epsilon=1.0),
    "randomized response": lambda G: noise.randomized_response(G, epsilon=1.0),
}


def part_b(r: int, n: int) -> None:
    G = builders.count_path(n, outputs=range(32))
    rng = np.random.default_rng(1)
    R = rdp.Mechanism(G, rng.dirichlet(np.ones(32), size=G.n_nodes))
    header(f"(b) verify on count_path({n:,}, outputs=range(32))", "s", "/ random rows")
    rdp.verify(R, epsilon=1.0)  # compile and load the kernels once
    base = timed(lambda: rdp.verify(R, epsilon=1.0), r)[:2]
    row("random rows (Dirichlet), eps = 1", base, None)
    worst = 0.0
    for name, make in STANDARD.items():
        M = make(G)
        for e in (1.0, 0.5):
            ms = fresh(M, r)
            t = timed_warm(lambda e=e, ms=ms: rdp.verify(ms.pop(), epsilon=e), r)[:2]
            row(f"{name}, eps = {e:g}", t, base)
            worst = max(worst, t[0] / base[0])
    print(f"  largest ratio (min over min): {worst:.2f}  (target <= 2)")


def part_c(r: int) -> None:
    try:
        from dp_accounting.pld import privacy_loss_distribution as pld
    except ImportError:
        print("\n(c) skipped: dp_accounting is not installed (extra `accounting`)")
        return
    G = builders.count_path(100)
    M = noise.geometric(G, epsilon=1.0, form="clamped")
    p = M.probabilities
    eps = [0.25, 0.5, 0.75, 1.0, 1.25, 1.5]
    dls = [1e-6, 1e-3, 0.05]
    e = G.edges
    logs = []
    for a, b in np.concatenate([e, e[:, ::-1]]).tolist():
        idx = np.flatnonzero(p[a] > 0)
        jdx = np.flatnonzero(p[b] > 0)
        logs.append(
            (
                dict(zip(idx.tolist(), np.log(p[a][idx]).tolist(), strict=True)),
                dict(zip(jdx.tolist(), np.log(p[b][jdx]).tolist(), strict=True)),
            )
        )

    def peer() -> None:
        for la, lb in logs:
            d = pld.from_two_probability_mass_functions(
                lb, la, pessimistic_estimate=True, value_discretization_interval=1e-4
            )
            for x in eps:
                d.get_delta_for_epsilon(x)
            for x in dls:
                d.get_epsilon_for_delta(x)

    def own() -> None:
        m = rdp.Mechanism(G, p)
        rdp.privacy_profile(m, eps)
        rdp.epsilon_for_delta(m, dls)

    n_e = G.n_edges
    header(
        f"(c) clamped geometric on count_path(100): delta at 6 eps and eps at 3 delta, per edge "
        f"({n_e} edges)",
        "us",
        "/ rainbowdp",
    )
    mine = timed(own, r)[:2]
    theirs = timed(peer, r)[:2]
    per = (mine[0] / n_e, mine[1] / n_e)
    row("rainbowdp (proved values)", per, None, "us")
    row(
        "dp_accounting PLD, both directions (estimates)",
        (theirs[0] / n_e, theirs[1] / n_e),
        per,
        "us",
    )


def part_d(r: int, sizes: list[int]) -> None:
    header(
        "(d) epsilon_for_delta and privacy_profile (100 eps) against one verify", "s", "/ verify"
    )
    rng = np.random.default_rng(2)
    grid = np.linspace(0.0, 3.0, 100)
    for n_e in sizes:
        n = max(2, n_e // 4)
        edges = np.sort(rng.integers(0, n, size=(n_e + n_e // 4, 2)), axis=1)
        edges = np.unique(edges[edges[:, 0] != edges[:, 1]], axis=0)[:n_e]
        q = 8
        Gr = rdp.RainbowGraph.from_edges(
            edges, outputs=range(q), rainbow_table=[list(range(q))], rainbow_ids=np.zeros(n, int)
        )
        cases = {
            f"random graph, random rows, {Gr.n_edges:,} edges, q = {q}": rdp.Mechanism(
                Gr, rng.dirichlet(np.ones(q), size=n)
            ),
            f"clamped geometric (eps 1), count_path({n_e:,}), q = 32": noise.geometric(
                builders.count_path(n_e, outputs=range(32)), epsilon=1.0
            ),
        }
        for name, M in cases.items():
            print(f"  {name}")
            rdp.verify(M, epsilon=1.0)
            ms = fresh(M, r)
            v = timed_warm(lambda ms=ms: rdp.verify(ms.pop(), epsilon=1.0), r)[:2]
            row("  verify(epsilon=1)", v, None)
            for d in (1e-6, 0.0):
                ms = fresh(M, r)
                row(
                    f"  epsilon_for_delta(delta={d:g})",
                    timed_warm(lambda d=d, ms=ms: rdp.epsilon_for_delta(ms.pop(), d), r)[:2],
                    v,
                )
            ms = fresh(M, r)
            row(
                "  privacy_profile (100 eps)",
                timed_warm(lambda ms=ms: rdp.privacy_profile(ms.pop(), grid), r)[:2],
                v,
            )


def part_e(r: int) -> None:
    G = rdp.builders.line(["a", "b", "c", "d"], 1)
    P = np.array([[0.4, 0.3, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4]])
    M = rdp.Mechanism(G, P)
    x = math.exp(1.0)
    a, b = P

    def plain() -> float:
        return max(np.maximum(a - x * b, 0.0).sum(), np.maximum(b - x * a, 0.0).sum())

    k = 2000
    header("(e) a 2-node graph, per call", "us", "/ numpy expression")
    base = timed(lambda: [plain() for _ in range(k)], r)[:2]
    base = (base[0] / k, base[1] / k)
    row("numpy: max of the two hockey-stick sums", base, None, "us")
    t = timed(lambda: [rdp.verify(M, epsilon=1.0) for _ in range(k)], r)[:2]
    row("verify(M, epsilon=1) (a proved delta_required)", (t[0] / k, t[1] / k), base, "us")
    t = timed(lambda: [rdp.hockey_stick(a, b, 1.0) for _ in range(k)], r)[:2]
    row("hockey_stick(P, Q, 1) (one direction, proved)", (t[0] / k, t[1] / k), base, "us")


def part_f() -> None:
    print("\n(f) rainbowdp families NAME --n 1000 (one process each, wall seconds)")
    exe = [sys.executable, "-m", "rainbowdp.cli"]
    listing = subprocess.run([*exe, "families"], capture_output=True, text=True, check=True).stdout
    for name in [line.split()[0] for line in listing.splitlines() if line.strip()]:
        args = [*exe, "families", name, "--n", "1000", "--epsilon", "1"]
        if name == "discrete_gaussian":
            args += ["--sigma", "2"]
        t0 = time.perf_counter()
        res = subprocess.run(args, capture_output=True, text=True)
        dt = time.perf_counter() - t0
        what = "ok" if res.returncode == 0 else f"exit {res.returncode}: " + res.stderr.strip()[:60]
        print(f"  {name:<22}{dt:>8.2f}  {what}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--parts", nargs="*", default=list("abcdef"))
    args = ap.parse_args()
    warnings.simplefilter("error", rdp.NotExactWarning)  # every value here must be exact
    n_b = 10**5 if args.quick else 10**6
    sizes = [10**4, 10**5] if args.quick else [10**4, 10**5, 10**6]
    print(f"rainbowdp benchmarks/ties.py: min and median of {args.repeats} calls")
    if "a" in args.parts:
        part_a(args.repeats)
    if "b" in args.parts:
        part_b(args.repeats, n_b)
    if "c" in args.parts:
        part_c(args.repeats)
    if "d" in args.parts:
        part_d(args.repeats, sizes)
    if "e" in args.parts:
        part_e(args.repeats)
    if "f" in args.parts and not args.quick:
        part_f()


if __name__ == "__main__":
    main()
