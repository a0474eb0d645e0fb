"""Benchmark of rainbowdp.noise.count: the closed form against the LPs it solves, and the exact δ.

Run ``python benchmarks/count.py`` (about 1.5 minutes on 2 cores; ``--quick`` for small sizes only,
under 30 s; ``--part 1|2|3`` for one part). Every figure printed is measured in this run; times
are the minimum and the median of ``--repeats`` runs (default 3), and every ratio is of two times
measured in the same run. The closed form is timed over many calls per run (enough for about
0.3 s, between 10 and 1000 calls) and reported per call.

(1) Closed form ``optimum`` against Proposition 2's LP (9)-(13) (``proposition2_lp``) on the counts
    [D : N] (n_min = D), epsilon = 0.5, eta = 0.5 (delta* ~ 0.15, far above the solver's
    tolerance), D = 6 ... 200, N = 3D (the smallest N with N - D >= 2D, where the two optima are
    equal), 1000 and 10000. The LP has about N D^2 variables and 8 N D^2 non-zeros; it is solved
    only where N D^2 <= --max-lp (default 2.6e6: up to N = 1000, D = 50, about 40 s and 5 GB)
    and N <= --max-lp-n (default 1000; at N = 10000 the LP takes minutes even for D = 6),
    ``--lp-repeats`` times (default 1), or ``--repeats`` times when its first solve takes under
    1 s. LP times are of the whole call (building the LP and the mechanism included); "solve s"
    is the solver's share in the fastest run. Target: at N = 1000, D = 50 the closed form is
    >= 1000x faster than the LP and |delta_LP - delta*| <= 1e-9.
(2) Closed form against the LP of the data-independent law (14) with singleton events (D + 1
    variables), D = 6 ... 1000, at four (epsilon, eta): two where Theorem 3 holds as printed and
    two at small eta where the constraint Proposition 4 omits binds (case "restored"). Reports the
    speed-up, |delta_LP - delta*| and the same relative to delta* (the LP cannot resolve a delta*
    below its tolerance of about 1e-10).
(3) Exact DP delta: time of the verifier on the one edge that decides the law's exact delta
    (``law_dp_delta``) and of ``exact_optimum`` (the law minimising the exact delta, by LP), for
    D = 6, 50, 200; then, at the settings the documentation compares, the singleton delta*,
    Remark 2's bound (2D + 1) delta*, the exact delta of alpha* and the exact-optimal delta.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable
from typing import Any

from _timing import timed

from rainbowdp.exceptions import InfeasibleDesignError, SolverError
from rainbowdp.noise import count

TARGET_D, TARGET_N = 50, 1000
TARGET_RATIO, TARGET_DIFF = 1000.0, 1e-9


def per_call(fn: Callable[[], Any], repeats: int, budget: float = 0.3) -> tuple[float, float, int]:
    """(min, median) seconds per call of ``fn`` over ``repeats`` runs of n calls each, and n.

    n is chosen from one calibration call so that a run lasts about ``budget`` seconds
    (10 <= n <= 1000).
    """
    t0 = time.perf_counter()
    fn()
    one = time.perf_counter() - t0
    n = max(10, min(1000, math.ceil(budget / max(one, 1e-9))))

    def batch() -> None:
        for _ in range(n):
            fn()

    tmin, tmed, _ = timed(batch, repeats)
    return tmin / n, tmed / n, n


def fmt_err(exc: Exception) -> str:
    msg = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {msg[:70]}"


# ------------------------------------------------------------------------------------ part 1
def part_lp(ds: tuple[int, ...], ns: tuple[int | None, ...], args: argparse.Namespace) -> None:
    eps, eta = 0.5, 0.5
    print(
        f"(1) closed form vs the LP (9)-(13) on counts [D : N], epsilon = {eps}, eta = {eta}; "
        f"LP run where N D^2 <= {args.max_lp:g} and N <= {args.max_lp_n}, "
        f"{args.lp_repeats} run(s) each, "
        f"{args.repeats} when the first takes < 1 s"
    )
    print("    (the closed form does not depend on N: timed once per D)")
    head = (
        f"{'D':>4}{'N':>7}{'LP vars':>10}{'nnz':>11}{'runs':>5}{'LP min s':>10}{'LP med s':>10}"
        f"{'solve s':>9}{'closed min':>11}{'closed med':>11}{'calls':>6}{'ratio':>9}"
        f"  |dLP - d*|"
    )
    print(head)
    found: tuple[float, float] | None = None
    for D in ds:
        c_min, c_med, calls = per_call(
            lambda D=D: count.optimum(D, epsilon=eps, eta=eta), args.repeats
        )
        d_star = count.optimum(D, epsilon=eps, eta=eta).delta
        closed = f"{c_min:>11.2e}{c_med:>11.2e}{calls:>6}"
        for n_spec in ns:
            N = 3 * D if n_spec is None else n_spec
            if N < 3 * D:
                continue
            lead = f"{D:>4}{N:>7}"
            if N * D * D > args.max_lp or N > args.max_lp_n:
                print(f"{lead}{'skipped (size)':>55}{closed}")
                continue
            times: list[float] = []
            res = None
            try:
                while True:
                    t0 = time.perf_counter()
                    r = count.proposition2_lp(N, D, epsilon=eps, eta=eta, n_min=D)
                    times.append(time.perf_counter() - t0)
                    if res is None or r.seconds < res.seconds:
                        res = r
                    runs = args.repeats if times[0] < 1.0 else args.lp_repeats
                    if len(times) >= max(1, runs):
                        break
            except (SolverError, InfeasibleDesignError) as exc:
                print(f"{lead}  {fmt_err(exc)}")
                continue
            assert res is not None
            lp_min, lp_med = min(times), statistics.median(times)
            diff = abs(res.delta - d_star)
            ratio = lp_min / c_min
            print(
                f"{lead}{res.n_variables:>10}{res.nnz:>11}{len(times):>5}{lp_min:>10.3f}"
                f"{lp_med:>10.3f}{res.seconds:>9.3f}{closed}{ratio:>9.0f}  {diff:.1e}"
            )
            if (D, N) == (TARGET_D, TARGET_N):
                found = (ratio, diff)
    if found is None:
        print(f"target (N = {TARGET_N}, D = {TARGET_D}): not measured in this run")
    else:
        ratio, diff = found
        met = ratio >= TARGET_RATIO and diff <= TARGET_DIFF
        print(
            f"target (N = {TARGET_N}, D = {TARGET_D}: ratio >= {TARGET_RATIO:g} and "
            f"|diff| <= {TARGET_DIFF:g}): ratio {ratio:.0f}, |diff| {diff:.1e} -> "
            f"{'met' if met else 'NOT met'}"
        )


# ------------------------------------------------------------------------------------ part 2
def part_law(ds: tuple[int, ...], args: argparse.Namespace) -> None:
    settings = [(0.5, 0.5), (2.18, 0.8), (0.25, 0.05), (0.02, 0.01)]
    print(f"\n(2) closed form vs the law's singleton LP (D + 1 variables), {args.repeats} runs")
    print(
        f"{'D':>5}{'eps':>6}{'eta':>6}  {'case':<9}{'delta*':>10}{'closed min':>11}"
        f"{'closed med':>11}{'calls':>6}{'LP min s':>10}{'LP med s':>10}{'ratio':>8}"
        f"  |diff|   |diff|/d*"
    )
    for D in ds:
        for eps, eta in settings:
            c_min, c_med, calls = per_call(
                lambda D=D, eps=eps, eta=eta: count.optimum(D, epsilon=eps, eta=eta),
                args.repeats,
            )
            opt = count.optimum(D, epsilon=eps, eta=eta)
            lead = f"{D:>5}{eps:>6g}{eta:>6g}  {opt.case:<9}{opt.delta:>10.3e}"
            closed = f"{c_min:>11.2e}{c_med:>11.2e}{calls:>6}"
            try:
                l_min, l_med, out = timed(
                    lambda D=D, eps=eps, eta=eta: count._law_lp(
                        D, math.exp(eps), eta=eta, delta=None, events="singleton"
                    ),
                    args.repeats,
                )
            except (SolverError, InfeasibleDesignError) as exc:
                print(f"{lead}{closed}  {fmt_err(exc)}")
                continue
            diff = abs(out[1] - opt.delta)
            print(
                f"{lead}{closed}{l_min:>10.4f}{l_med:>10.4f}{l_min / c_min:>8.0f}"
                f"  {diff:.1e}  {diff / opt.delta:.1e}"
            )


# ------------------------------------------------------------------------------------ part 3
def part_exact(ds: tuple[int, ...], args: argparse.Namespace) -> None:
    eps, eta = 0.5, 0.5
    print(
        f"\n(3) exact DP delta at epsilon = {eps}, eta = {eta}: the verifier on one edge "
        f"(law_dp_delta of alpha*) and exact_optimum, {args.repeats} runs"
    )
    print(
        f"{'D':>5}{'verify min':>11}{'verify med':>11}{'calls':>6}{'exact min':>11}"
        f"{'exact med':>11}{'calls':>6}  delta(alpha*)  exact-optimal delta"
    )
    for D in ds:
        a = count.optimum(D, epsilon=eps, eta=eta).alpha
        v_min, v_med, v_calls = per_call(
            lambda a=a: count.law_dp_delta(a, eta=eta, epsilon=eps), args.repeats
        )
        try:
            x_min, x_med, x_calls = per_call(
                lambda D=D: count.exact_optimum(D, epsilon=eps, eta=eta), args.repeats
            )
        except (SolverError, InfeasibleDesignError) as exc:
            print(f"{D:>5}{v_min:>11.2e}{v_med:>11.2e}{v_calls:>6}  {fmt_err(exc)}")
            continue
        d_a = count.law_dp_delta(a, eta=eta, epsilon=eps)
        d_x = count.exact_optimum(D, epsilon=eps, eta=eta).delta
        print(
            f"{D:>5}{v_min:>11.2e}{v_med:>11.2e}{v_calls:>6}{x_min:>11.2e}{x_med:>11.2e}"
            f"{x_calls:>6}  {d_a:<13.6g}  {d_x:.6g}"
        )
    print("\n    the settings the documentation compares (counts >= D; exact = the verifier's)")
    print(
        f"{'D':>5}{'eps':>6}{'eta':>6}  {'case':<9}{'singleton d*':>13}{'(2D+1)d*':>11}"
        f"{'exact d(a*)':>12}{'exact opt':>11}{'bound/exact':>12}"
    )
    for D, eps2, eta2 in [(6, 2.18, 0.8), (8, 1.1, 0.5), (8, 2.2, 0.8), (6, 1.5, 0.5)]:
        opt = count.optimum(D, epsilon=eps2, eta=eta2)
        d_a = count.law_dp_delta(opt.alpha, eta=eta2, epsilon=eps2)
        d_x = count.exact_optimum(D, epsilon=eps2, eta=eta2).delta
        print(
            f"{D:>5}{eps2:>6g}{eta2:>6g}  {opt.case:<9}{opt.delta:>13.4e}{opt.dp_bound:>11.4e}"
            f"{d_a:>12.4e}{d_x:>11.4e}{opt.dp_bound / d_a:>12.2f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--quick", action="store_true", help="small sizes only (under 30 s)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument(
        "--max-lp",
        type=float,
        default=None,
        help="largest N*D^2 for which the LP (9)-(13) is solved (default 2.6e6; 1e5 with --quick)",
    )
    ap.add_argument(
        "--max-lp-n",
        type=int,
        default=1000,
        help="largest N for which the LP (9)-(13) is solved (default 1000; 10000 adds about "
        "4 minutes: the LP's time grows with N faster than with its size)",
    )
    ap.add_argument("--lp-repeats", type=int, default=1, help="runs of an LP taking >= 1 s")
    ap.add_argument("--part", choices=["1", "2", "3", "all"], default="all")
    args = ap.parse_args()
    if args.max_lp is None:
        args.max_lp = 1e5 if args.quick else 2.6e6
    # import the solver before any timing
    count._law_lp(2, math.e, eta=0.5, delta=None, events="singleton")
    count.proposition2_lp(6, 2, epsilon=1.0, eta=0.5, n_min=2)
    t0 = time.perf_counter()
    if args.part in ("1", "all"):
        if args.quick:
            part_lp((6, 10, 20), (None, 1000), args)
        else:
            part_lp((6, 10, 20, 50, 100, 200), (None, 1000, 10_000), args)
    if args.part in ("2", "all"):
        part_law((6, 50) if args.quick else (6, 50, 200, 1000), args)
    if args.part in ("3", "all"):
        part_exact((6, 50) if args.quick else (6, 50, 200), args)
    print(f"\ntotal {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
