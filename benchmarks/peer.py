"""Benchmark: rainbowdp against Google's dp_accounting on the same pairs of distributions.

dp_accounting (``pip install "rainbowdp[accounting]"``) builds a privacy loss distribution (PLD)
from two PMFs (``privacy_loss_distribution.from_two_probability_mass_functions``, called as
``rainbowdp.interop`` does: ``pessimistic_estimate=True``, ``symmetric=False`` so both
directions of the pair count, as in rainbowdp) and answers ``get_delta_for_epsilon`` and
``get_epsilon_for_delta``. Every figure printed is measured in this run; times are the minimum
and the median of ``--repeats`` runs (default 3).

(a) Per pair, q = 2, 10, 100 outputs, random pairs with positive entries: microseconds per pair
    of ``privacy_profile((p, r), [eps])`` and ``epsilon_for_delta((p, r), delta)`` (the pair
    path, both directions, validation included; one call per pair and one batch) against
    dp_accounting's PLD + ``get_delta_for_epsilon`` / + ``get_epsilon_for_delta``. dp_accounting's
    inputs (the log-PMF dictionaries) are built before timing, so its figures exclude that step.
(b) A count path of ``--path`` counts (default 10^6 edges) with a random mechanism (or the
    clamped geometric mechanism, ``--mechanism geometric``): rainbowdp's ``verify`` and
    ``epsilon_for_delta`` on every pair, against dp_accounting on a random sample of pairs,
    timed and extrapolated to every pair (labelled so).
(c) dp_accounting's error against rainbowdp's exact values on the pairs of (a) and the sample
    of (b): delta(eps) against the sound (rounded-up) hockey-stick divergence, and eps(delta)
    against the proved ``epsilon_for_delta``. With ``pessimistic_estimate=True`` each privacy
    loss is rounded up to a multiple of the discretisation interval Delta, so the exact delta(eps)
    <= dp_accounting's <= the exact delta(eps - Delta) (up to float rounding): the rows count the
    pairs outside that band.

Run ``python benchmarks/peer.py`` (``--quick`` for a 10^4-count path and fewer pairs).
"""

from __future__ import annotations

import argparse
from importlib.metadata import version

import numpy as np
from _timing import timed
from dp_accounting.pld import privacy_loss_distribution as pld

from rainbowdp.builders import count_path
from rainbowdp.interop import DEFAULT_DISCRETIZATION
from rainbowdp.mechanism import Mechanism
from rainbowdp.noise import geometric
from rainbowdp.privacy import epsilon_for_delta, privacy_profile, verify


def random_rows(rng: np.random.Generator, k: int, q: int) -> np.ndarray:
    """k random probability vectors over q outputs, every entry positive."""
    p = rng.random((k, q)) + 0.05
    return p / p.sum(axis=1, keepdims=True)


def log_pmf(p: np.ndarray) -> dict[int, float]:
    """{output index: ln P(v)} over the support, the input format of dp_accounting."""
    idx = np.flatnonzero(p > 0)
    return dict(zip(idx.tolist(), np.log(p[idx]).tolist(), strict=True))


class Peer:
    """dp_accounting's answers for a list of pairs (log-PMFs prepared once)."""

    def __init__(self, a: np.ndarray, b: np.ndarray, interval: float) -> None:
        self.logs = [(log_pmf(x), log_pmf(y)) for x, y in zip(a, b, strict=True)]
        self.interval = interval

    def _pld(self, la: dict, lb: dict):
        return pld.from_two_probability_mass_functions(
            lb,  # mu_lower
            la,  # mu_upper
            pessimistic_estimate=True,
            value_discretization_interval=self.interval,
            symmetric=False,
        )

    def deltas(self, eps: float) -> np.ndarray:
        return np.array([self._pld(la, lb).get_delta_for_epsilon(eps) for la, lb in self.logs])

    def epsilons(self, delta: float) -> np.ndarray:
        return np.array([self._pld(la, lb).get_epsilon_for_delta(delta) for la, lb in self.logs])


def exact_deltas(a: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    """rainbowdp's sound delta(eps) of each pair, both directions (the pair path, one call per
    pair)."""
    return np.array([privacy_profile((x, y), [eps])[0] for x, y in zip(a, b, strict=True)])


def exact_epsilons(a: np.ndarray, b: np.ndarray, delta: float) -> np.ndarray:
    """rainbowdp's proved eps(delta) of each pair (the pair path, one call per pair)."""
    return np.array([epsilon_for_delta((x, y), delta) for x, y in zip(a, b, strict=True)])


def us(t: float, k: int) -> float:
    return t / k * 1e6


def line(name: str, tmin: float, tmed: float, digits: int, extra: str = "") -> None:
    print(f"  {name:<56}{tmin:>10.{digits}f}{tmed:>10.{digits}f}  {extra}")


def vs(peer_min: float, peer_med: float, own_min: float, own_med: float) -> str:
    """dp_accounting / rainbowdp, min over min and median over median."""
    return f"{peer_min / own_min:.3g} / {peer_med / own_med:.3g}"


def error_rows(
    a: np.ndarray,
    b: np.ndarray,
    eps: float,
    delta: float,
    interval: float,
    peer_delta: np.ndarray,
    exact_delta: np.ndarray,
    peer_eps: np.ndarray,
    exact_eps: np.ndarray,
) -> None:
    """Part (c): dp_accounting against rainbowdp on these pairs."""
    below = exact_deltas(a, b, max(eps - interval, 0.0))  # delta(eps - Delta), both ways
    err = peer_delta - exact_delta
    e_err = peer_eps - exact_eps
    k = a.shape[0]
    print(
        f"  (c) error of dp_accounting (Delta = {interval:g}, pessimistic) over these {k:,} "
        "pairs, dp_accounting - exact:"
    )
    print(
        f"      delta({eps}): max |error| {np.max(np.abs(err)):.2e}, signed min "
        f"{err.min():.2e}, max {err.max():.2e}; {int(np.sum(err < 0))} pairs below exact, "
        f"{int(np.sum(peer_delta > below))} above exact delta(eps - Delta)"
    )
    print(
        f"      eps({delta:g}): max |error| {np.max(np.abs(e_err)):.2e}, signed min "
        f"{e_err.min():.2e}, max {e_err.max():.2e}; {int(np.sum(e_err < 0))} pairs below exact, "
        f"{int(np.sum(e_err > interval))} more than Delta above"
    )


def part_a(args: argparse.Namespace, rng: np.random.Generator) -> None:
    eps, delta, k = args.epsilon, args.delta, args.pairs
    print(f"\n(a) per pair: {k} random pairs per run, microseconds per pair (min, median)")
    print(f"  {'q / computation':<56}{'min us':>10}{'med us':>10}  dp_accounting / rainbowdp")
    for q in args.outputs:
        a, b = random_rows(rng, k, q), random_rows(rng, k, q)
        h_min, h_med, hs = timed(lambda a=a, b=b: exact_deltas(a, b, eps), args.repeats)
        e_min, e_med, es = timed(lambda a=a, b=b: exact_epsilons(a, b, delta), args.repeats)
        batch = np.stack([a, b], axis=1)  # (k, 2, q)
        bd_min, bd_med, bd = timed(lambda x=batch: privacy_profile(x, [eps])[:, 0], args.repeats)
        be_min, be_med, be = timed(lambda x=batch: epsilon_for_delta(x, delta), args.repeats)
        assert np.array_equal(bd, hs) and np.array_equal(be, es)  # batch = one call per pair
        peer = Peer(a, b, args.interval)
        d_min, d_med, pd = timed(lambda peer=peer: peer.deltas(eps), args.repeats)
        p_min, p_med, pe = timed(lambda peer=peer: peer.epsilons(delta), args.repeats)
        print(f"  q = {q}")
        line(f"rainbowdp privacy_profile((p, q), [{eps}])", us(h_min, k), us(h_med, k), 1)
        line(f"  the same, one batch of {k} pairs", us(bd_min, k), us(bd_med, k), 1)
        line(
            "dp_accounting PLD + get_delta_for_epsilon",
            us(d_min, k),
            us(d_med, k),
            1,
            vs(d_min, d_med, h_min, h_med),
        )
        line(f"rainbowdp epsilon_for_delta((p, q), {delta:g})", us(e_min, k), us(e_med, k), 1)
        line(f"  the same, one batch of {k} pairs", us(be_min, k), us(be_med, k), 1)
        line(
            "dp_accounting PLD + get_epsilon_for_delta",
            us(p_min, k),
            us(p_med, k),
            1,
            vs(p_min, p_med, e_min, e_med),
        )
        error_rows(a, b, eps, delta, args.interval, pd, hs, pe, np.asarray(es))


def part_b(args: argparse.Namespace, rng: np.random.Generator) -> None:
    eps, delta, n, q = args.epsilon, args.delta, args.path, args.path_outputs
    G = count_path(n, outputs=range(q))
    if args.mechanism == "geometric":
        M = geometric(G, epsilon=args.noise_epsilon, form="clamped")
        what = f"clamped geometric mechanism (epsilon {args.noise_epsilon})"
    else:
        M = Mechanism(G, random_rows(rng, G.n_nodes, q))
        what = "random mechanism (positive rows)"
    m = G.n_edges
    print(
        f"\n(b) count path 0..{n:,} ({m:,} pairs of neighbours), q = {q} outputs, {what}; "
        f"eps = {eps}, delta = {delta:g}; seconds (min, median)"
    )
    print(f"  {'computation':<56}{'min s':>10}{'med s':>10}  dp_accounting / rainbowdp")
    v_min, v_med, rep = timed(lambda: verify(M, epsilon=eps, delta=delta), args.repeats)
    e_min, e_med, e_all = timed(lambda: epsilon_for_delta(M, delta), args.repeats)
    k = min(args.sample, m)
    idx = np.sort(rng.choice(m, size=k, replace=False))
    P, edges = M.probabilities, G.edges[idx]
    a, b = P[edges[:, 0]], P[edges[:, 1]]
    peer = Peer(a, b, args.interval)
    d_min, d_med, pd = timed(lambda: peer.deltas(eps), args.repeats)
    p_min, p_med, pe = timed(lambda: peer.epsilons(delta), args.repeats)
    scale = m / k
    line(f"rainbowdp verify, all pairs: delta({eps}) = {rep.delta_required:.6g}", v_min, v_med, 3)
    line(
        f"dp_accounting delta, extrapolated from {k:,} pairs",
        d_min * scale,
        d_med * scale,
        3,
        vs(d_min * scale, d_med * scale, v_min, v_med),
    )
    line(f"rainbowdp epsilon_for_delta, all pairs: eps = {e_all:.6g}", e_min, e_med, 3)
    line(
        f"dp_accounting epsilon, extrapolated from {k:,} pairs",
        p_min * scale,
        p_med * scale,
        3,
        vs(p_min * scale, p_med * scale, e_min, e_med),
    )
    error_rows(a, b, eps, delta, args.interval, pd, exact_deltas(a, b, eps), pe,
               exact_epsilons(a, b, delta))  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--outputs", type=int, nargs="+", default=[2, 10, 100], help="q of (a)")
    ap.add_argument("--pairs", type=int, default=500, help="pairs per run in (a)")
    ap.add_argument("--path", type=int, default=1_000_000, help="largest count of (b)")
    ap.add_argument("--path-outputs", type=int, default=10, help="q of (b)")
    ap.add_argument("--mechanism", choices=["random", "geometric"], default="random")
    ap.add_argument("--noise-epsilon", type=float, default=1.5, help="of --mechanism geometric")
    ap.add_argument("--sample", type=int, default=2000, help="pairs given to dp_accounting in (b)")
    ap.add_argument("--epsilon", type=float, default=1.0)
    ap.add_argument("--delta", type=float, default=1e-6)
    ap.add_argument("--interval", type=float, default=DEFAULT_DISCRETIZATION, help="of the PLDs")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="10^4-count path, 100 pairs")
    args = ap.parse_args()
    if args.quick:
        args.path, args.pairs, args.sample = 10_000, 100, 300
    print(
        f"rainbowdp vs dp_accounting {version('dp-accounting')}: PLDs with "
        f"value_discretization_interval = {args.interval:g}, pessimistic_estimate = True, "
        f"symmetric = False (both directions); {args.repeats} runs per row"
    )
    rng = np.random.default_rng(0)
    part_a(args, rng)
    part_b(args, rng)
    print("(the machine may be shared: compare ratios measured in the same run)")


if __name__ == "__main__":
    main()
