"""Benchmark of mechanism families: symmetry-reduced design, and building standard mechanisms.

Run ``python benchmarks/families.py`` (``--quick`` for smaller instances, ``--part a`` or
``--part b`` for one part). Every figure printed is measured in this run; times are the minimum
and the median of ``--repeats`` runs (default 3).

(a) The LP optimum of additive noise on a circulant (Kadam et al.'s modulo-addition instance,
    n = 200, M = {1, 2, 3}, accuracy utility): ``design.lp`` unreduced (one variable per
    (node, output)) against ``design.lp(..., tied=T)`` with ``T[q, v] = (v - q) mod (n + 1)``
    (one PMF). Same optimum; the model size and the time are compared. Target: the reduced
    model at least 50x smaller and faster.
(b) Building each standard mechanism of ``rainbowdp.noise`` on a count path of 10^6 counts
    with 32 outputs, against one ``verify`` of the result (the least a user does with a
    mechanism once built). Target: each build within 2x one verify.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np
from _timing import timed

import rainbowdp as rdp
from rainbowdp import builders


def part_a(n: int, delta: float, repeats: int) -> None:
    shifts = [1, 2, 3]
    G = builders.circulant(n, shifts)
    q = np.arange(n + 1)
    T = (q[None, :] - q[:, None]) % (n + 1)
    eps = 0.5
    print(
        f"(a) LP on the circulant n = {n}, M = {shifts}, epsilon = {eps}, delta = {delta}, "
        f"accuracy; {repeats} repeats"
    )
    print(f"{'model':<12}{'variables':>11}{'rows':>9}{'min s':>10}{'median s':>10}  optimum")
    red_min, red_med, red = timed(
        lambda: rdp.design.lp(G, epsilon=eps, delta=delta, tied=T), repeats
    )
    full_min, full_med, full = timed(lambda: rdp.design.lp(G, epsilon=eps, delta=delta), repeats)
    for name, r, tmin, tmed in (
        ("unreduced", full, full_min, full_med),
        ("reduced", red, red_min, red_med),
    ):
        print(
            f"{name:<12}{r.n_variables:>11}{r.n_constraints:>9}{tmin:>10.3f}{tmed:>10.3f}  "
            f"{r.objective:.12f}"
        )
    diff = abs(full.objective - red.objective)
    ok = rdp.certify(red.mechanism, epsilon=eps, delta=delta).verdict == "private"
    print(
        f"ratios unreduced/reduced: variables {full.n_variables / red.n_variables:.0f}x, rows "
        f"{full.n_constraints / red.n_constraints:.0f}x, time (min) {full_min / red_min:.0f}x, "
        f"(median) {full_med / red_med:.0f}x; |optimum difference| {diff:.1e}; reduced "
        f"certified private: {ok}"
    )


def part_b(n: int, q: int, repeats: int) -> None:
    import rainbowdp.noise as noise

    G = builders.count_path(n, outputs=range(q))
    eps = 1.0
    builds: list[tuple[str, Callable[[], rdp.Mechanism]]] = [
        (f"geometric {form}", lambda form=form: noise.geometric(G, epsilon=eps, form=form))
        for form in ("clamped", "truncated", "folded", "modular")
    ]
    builds += [
        (
            f"discrete_gaussian {form}",
            lambda form=form: noise.discrete_gaussian(G, sigma=2.0, form=form),
        )
        for form in ("clamped", "truncated")
    ]
    builds += [
        ("exponential", lambda: noise.exponential(G, epsilon=eps)),
        ("randomized_response", lambda: noise.randomized_response(G, epsilon=eps)),
        ("staircase", lambda: noise.staircase(G, epsilon=eps)),
    ]
    print(
        f"\n(b) building standard mechanisms on count_path({n}, outputs=range({q})): "
        f"{G.n_nodes} nodes, {G.n_edges} edges; {repeats} repeats"
    )
    print(f"{'mechanism':<26}{'build min s':>12}{'verify min s':>13}{'ratio':>8}")
    for name, build in builds:
        b_min, _, M = timed(build, repeats)
        v_min, _, _ = timed(lambda M=M: rdp.verify(M, epsilon=eps), repeats)
        print(f"{name:<26}{b_min:>12.3f}{v_min:>13.3f}{b_min / v_min:>8.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="n = 60 in (a), 10^5 counts in (b)")
    ap.add_argument("--part", choices=["a", "b", "both"], default="both")
    ap.add_argument("--delta", type=float, default=0.0, help="delta in (a) (default 0)")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    if args.part in ("a", "both"):
        part_a(60 if args.quick else 200, args.delta, args.repeats)
    if args.part in ("b", "both"):
        part_b(10**5 if args.quick else 10**6, 32, args.repeats)


if __name__ == "__main__":
    main()
