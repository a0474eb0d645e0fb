"""Benchmark of rainbowdp.noise.modulo: the printed MILP (13) by size, closed forms vs solvers.

Run ``python benchmarks/modulo.py`` (``--max-n 128`` for a quick run). Every figure printed is
measured in this run; times are the minimum and the median of ``--repeats`` runs (default 3).

(1) MILP (13) exactly as printed, BD neighbourhood mu_bar = 3 (paper reading), epsilon = 1,
    delta = 0.05, error rate, n = 8 ... 512: time to proven optimality with the default solver
    (HiGHS when installed). Target: n = 512 under 5 s.
(2) Closed forms against the optimisation at n = 128: Lemma 3 / Theorem 2 (SD, mu = 5),
    Theorem 3 (BD, mu_bar = 16, so that b + r < mu_bar) and Lemma 4 (BD, mu_bar = 3,
    delta = 0) against optimal_pmf on the same instance: speed-up
    and |f*(0) difference|. Target: >= 1000x faster, same f*(0) to 1e-9 (the solver's margin
    of 1e-7 on non-leaking ratios bounds how close the MILP can come).
(3) The 2-D MILP (13) as printed, n = 8 (81 outcomes), BD M = {0,1,2}^2 minus (0,0), paper
    reading: time to proven optimality. Target: <= 30 s.
"""

from __future__ import annotations

import argparse

from _timing import timed

from rainbowdp.noise import modulo


def part_milp(max_n: int, repeats: int) -> None:
    print("(1) MILP (13) as printed, BD mu_bar = 3, epsilon = 1, delta = 0.05, error rate")
    print(f"{'n':>6}{'min s':>10}{'median s':>10}  f*(0)      leakage")
    n = 8
    while n <= max_n:
        tmin, tmed, r = timed(
            lambda n=n: modulo.optimal_pmf(
                n, epsilon=1.0, delta=0.05, shifts=[1, 2, 3], reading="paper"
            ),
            repeats,
        )
        print(f"{n:>6}{tmin:>10.3f}{tmed:>10.3f}  {r.pmf[0]:.8f} {r.leakage:.6g}")
        n *= 2


def part_closed(repeats: int) -> None:
    n = 128
    print(f"\n(2) closed forms against the optimisation at n = {n} ({repeats} repeats)")
    print(f"{'instance':<34}{'closed s':>10}{'solver s':>10}{'ratio':>9}  |f*(0) diff|")
    cases = [
        (
            "Lemma 3, SD mu = 5, eps = 1, delta = 0",
            lambda: modulo.sd_pmf(n, epsilon=1.0, mu=5),
            lambda: modulo.optimal_pmf(n, epsilon=1.0, delta=0.0, shifts=[5], reading="paper"),
        ),
        (
            "Theorem 2, SD mu = 5, delta = 0.05",
            lambda: modulo.sd_pmf(n, epsilon=1.0, delta=0.05, mu=5),
            lambda: modulo.optimal_pmf(n, epsilon=1.0, delta=0.05, shifts=[5], reading="paper"),
        ),
        (
            "Theorem 3, BD mu_bar = 16, d = 0.05",
            lambda: modulo.bd_pmf(n, epsilon=1.0, delta=0.05, mu_bar=16),
            lambda: modulo.optimal_pmf(
                n, epsilon=1.0, delta=0.05, shifts=range(1, 17), reading="paper"
            ),
        ),
        (
            "Lemma 4, BD mu_bar = 3, delta = 0",
            lambda: modulo.bd_pmf(n, epsilon=1.0, mu_bar=3),
            lambda: modulo.optimal_pmf(
                n, epsilon=1.0, delta=0.0, shifts=[1, 2, 3], reading="paper"
            ),
        ),
    ]
    for name, closed, solve in cases:
        c_min, _, f = timed(closed, max(repeats, 100))
        s_min, _, r = timed(solve, repeats)
        print(
            f"{name:<34}{c_min:>10.2e}{s_min:>10.3f}{s_min / c_min:>9.0f}  "
            f"{abs(f[0] - r.pmf[0]):.1e}"
        )


def part_2d(repeats: int) -> None:
    n = 8
    shifts = [(a, b) for a in range(3) for b in range(3) if (a, b) != (0, 0)]
    outcomes = (n + 1) ** 2
    print(f"\n(3) 2-D MILP (13) as printed, n = {n} ({outcomes} outcomes), BD {{0,1,2}}^2 - (0,0)")
    print(f"{'epsilon':>8}{'delta':>8}{'min s':>10}{'median s':>10}  f*(0,0)     status")
    for eps, dlt in [(1.0, 0.05), (3.0, 0.05), (3.0, 0.0)]:
        tmin, tmed, r = timed(
            lambda eps=eps, dlt=dlt: modulo.optimal_pmf(
                n, epsilon=eps, delta=dlt, shifts=shifts, reading="paper"
            ),
            repeats,
        )
        print(f"{eps:>8g}{dlt:>8g}{tmin:>10.3f}{tmed:>10.3f}  {r.pmf[0, 0]:.8f}  {r.design.status}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--max-n", type=int, default=512)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    part_milp(args.max_n, args.repeats)
    part_closed(args.repeats)
    part_2d(args.repeats)


if __name__ == "__main__":
    main()
