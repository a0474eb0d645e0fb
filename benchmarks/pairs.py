"""Benchmark: privacy numbers of pairs of distributions, one call and in batches.

Random pairs (P, Q) of Dirichlet(1) distributions on q outputs (default q = 10 and 100). Every
figure printed is measured in this run, as microseconds per pair, the minimum and the median
of ``--repeats`` runs (default 3):

- ``epsilon_for_delta((P, Q), delta)``, one call per pair (``--single`` pairs);
- ``privacy_profile((P, Q), epsilons)`` at ``--n-eps`` values of ε, one call per pair, and at
  ``--many-eps`` values (default 100; one pair's likelihood ratios are sorted once from 8 on);
- the same two on a stacked batch (E, 2, q) of ``--batch`` pairs (default 10^4), per pair;
- the graph path they replace: a two-node ``RainbowGraph``, a ``Mechanism`` of the two rows,
  then ``epsilon_for_delta(M, delta)`` / ``privacy_profile(M, epsilons)``, per pair (graph
  and mechanism construction included).

Every pair answer is proved and rounded up (``docs/verification.md``); the pair and graph
paths return the same floats (``tests/test_pairs.py``), checked here again on the timed pairs.

Run ``python benchmarks/pairs.py`` (a few minutes on 2 cores; ``--quick`` for a smaller run).
"""

from __future__ import annotations

import argparse

import numpy as np
from _timing import timed

import rainbowdp as rdp
from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism


def graph_mechanism(pair: np.ndarray) -> Mechanism:
    q = pair.shape[1]
    g = RainbowGraph.from_edges(
        [[0, 1]], outputs=list(range(q)), rainbow_table=[list(range(q))], rainbow_ids=[0, 0]
    )
    return Mechanism(g, pair)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qs", type=int, nargs="+", default=[10, 100])
    ap.add_argument("--single", type=int, default=300, help="pairs timed one call each")
    ap.add_argument("--batch", type=int, default=10_000, help="pairs in the batch")
    ap.add_argument("--n-eps", type=int, default=3, help="values of epsilon in the profile")
    ap.add_argument("--many-eps", type=int, default=100, help="epsilons of the long profile")
    ap.add_argument("--delta", type=float, default=1e-6)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="100 single, 1000 in the batch")
    args = ap.parse_args()
    if args.quick:
        args.single, args.batch = 100, 1000
    eps = np.linspace(0.1, 1.0, args.n_eps)
    many = np.linspace(0.0, 3.0, args.many_eps)
    rng = np.random.default_rng(0)
    r = args.repeats
    n_graph = max(1, args.single // 3)
    print(f"delta = {args.delta:g}; profile at {args.n_eps} epsilons; us per pair, min / median")
    print(f"{'q':>4} {'what':<44} {'min':>10} {'median':>10}")
    for q in args.qs:
        n = max(args.single, args.batch)
        pairs = np.stack([rng.dirichlet(np.ones(q), size=n), rng.dirichlet(np.ones(q), size=n)], 1)
        one = pairs[: args.single]
        bat = pairs[: args.batch]
        rows = [
            (
                "epsilon_for_delta((P, Q), delta), one call",
                args.single,
                lambda one=one: [rdp.epsilon_for_delta(pr, args.delta) for pr in one],
            ),
            (
                "privacy_profile((P, Q), eps), one call",
                args.single,
                lambda one=one: [rdp.privacy_profile(pr, eps) for pr in one],
            ),
            (
                f"privacy_profile((P, Q), {args.many_eps} eps), one call",
                n_graph,
                lambda one=one: [rdp.privacy_profile(pr, many) for pr in one[:n_graph]],
            ),
            (
                f"epsilon_for_delta, batch of {args.batch}",
                args.batch,
                lambda bat=bat: rdp.epsilon_for_delta(bat, args.delta),
            ),
            (
                f"privacy_profile, batch of {args.batch}",
                args.batch,
                lambda bat=bat: rdp.privacy_profile(bat, eps),
            ),
            (
                "graph path: epsilon_for_delta(M, delta)",
                n_graph,
                lambda one=one: [
                    rdp.epsilon_for_delta(graph_mechanism(pr), args.delta) for pr in one[:n_graph]
                ],
            ),
            (
                "graph path: privacy_profile(M, eps)",
                n_graph,
                lambda one=one: [
                    rdp.privacy_profile(graph_mechanism(pr), eps) for pr in one[:n_graph]
                ],
            ),
        ]
        results = {}
        for name, count, fn in rows:
            lo, med, out = timed(fn, r)
            results[name] = out
            print(f"{q:>4} {name:<44} {lo / count * 1e6:>10.1f} {med / count * 1e6:>10.1f}")
        # the timed answers agree, bit for bit
        e_one = np.array(results["epsilon_for_delta((P, Q), delta), one call"])
        e_bat = results[f"epsilon_for_delta, batch of {args.batch}"]
        e_graph = np.array(results["graph path: epsilon_for_delta(M, delta)"])
        k = min(e_one.size, e_bat.size)
        assert np.array_equal(e_one[:k], e_bat[:k])
        assert np.array_equal(e_graph, e_one[:n_graph])
        long_graph = [rdp.privacy_profile(graph_mechanism(pr), many) for pr in one[:3]]
        assert np.array_equal(
            np.array(long_graph),
            results[f"privacy_profile((P, Q), {args.many_eps} eps), one call"][:3],
        )
        p_graph = np.array(results["graph path: privacy_profile(M, eps)"])
        assert np.array_equal(p_graph, results[f"privacy_profile, batch of {args.batch}"][:n_graph])


if __name__ == "__main__":
    main()
