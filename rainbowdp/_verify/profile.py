r"""The privacy profile at many ε in one pass over the edges.

:func:`rainbowdp.privacy_profile` asks for :math:`\delta(\epsilon_k) = \max_{d \sim d'}
H_{e^{\epsilon_k}}` at k = 1, …, K. Evaluating every edge at every ε costs K passes over the
edges. :func:`profile_one_pass` gathers every edge once, at a few *anchors* of the sorted grid
(placed from a strided sample of edges evaluated at every ε, :func:`_place_anchors`), and
proves for most edges that they cannot attain any of the K maxima; only the others are
evaluated at every ε of their interval.

The proofs rest on three facts about one ordered pair (P, Q) and :math:`x = e^\epsilon`:

* :math:`x \mapsto H_x(P\|Q)` is non-increasing, so after an anchor the divergence is at most
  its value there;
* it is convex, so between two anchors it lies below its chord;
* if its float value at a multiplier :math:`\tilde m 2^k` just below :math:`e^{\epsilon_a}`
  (:func:`rainbowdp._verify.exact.multiplier_below`) is exactly 0, then
  :math:`P(v) \le \mathrm{fl}(\tilde m 2^k Q(v)) \le e^{\epsilon_a} Q(v)` for every
  output, so it is 0 at every ε >= ε_a (for rows with no positive entry below
  :math:`2^{-1000}`, where products cannot be subnormal; edges touching other rows are never
  dropped this way).

Anchor values are computed as :func:`rainbowdp._verify.kernels.directed_divergences` computes, so
:func:`rainbowdp._verify.exact.rounding_error` bounds their error. The rows largest at an anchor are
evaluated at every ε and give lower bounds :math:`L_k \le \delta(\epsilon_k)` (float value
minus :func:`rainbowdp._verify.exact.float_error`, rounded down). An edge is dropped from an
interval when its bound (anchor value, or chord, plus the error) is below :math:`L_k` at every ε of
the interval -- tested for all chords at once through the upper envelope of the lines
:math:`s \mapsto t_k s - L_k` (:func:`_envelope`) -- or when it is zero from the anchor on. An
interval that keeps more than :data:`SPLIT_EDGES` edges is cut in two (where the bounds say δ
may reach 0, otherwise in the middle) and its edges evaluated at the cut. Each ε is then
answered by :func:`rainbowdp._verify.exact.delta_upper` over the edges kept for it.

The exact maximiser is never dropped, so each value is the one the per-ε computation returns:
the smallest float at least the exact maximum. The two can differ only where the per-ε
computation falls back to the float maximum plus its error bound because the exact work would
exceed ``EXACT_WORK``; the one-pass value is then the tighter upper bound.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from . import fused, kernels
from .exact import (
    ExpEnclosure,
    delta_upper,
    enclose_exp,
    float_at_least,
    float_error_of,
    irregular_rows,
    multiplier_below,
    rounding_error,
)
from .kernels import directed_divergences, endpoint_rows, row_divergences

__all__ = ["profile_one_pass"]

#: Intervals (anchors) of the sorted ε grid evaluated for every edge.
N_ANCHORS = 3


def _anchor_values(
    aa: np.ndarray,
    bb: np.ndarray,
    mults: list[tuple[float, int]],
    one_way: bool,
    buf: np.ndarray,
    out: np.ndarray,
) -> None:
    """``out`` (A, n): the larger float divergence of the two directions of each row pair at
    each multiplier ``m 2^k``, computed as :func:`rainbowdp._verify.kernels.directed_divergences`
    does (same roundings, so :func:`rainbowdp._verify.exact.rounding_error` bounds the error)."""
    n, q = aa.shape
    tt = buf[:n]
    ones = np.ones(q)
    col = np.empty(n)
    for j, (m, k) in enumerate(mults):
        row_divergences(aa, bb, m, k, tt, ones, out[j])
        if not one_way:
            row_divergences(bb, aa, m, k, tt, ones, col)
            np.maximum(out[j], col, out=out[j])


def _edges_at(
    p: np.ndarray,
    edges: np.ndarray,
    mults: list[tuple[float, int]],
    one_way: bool,
    buf: np.ndarray,
    out: np.ndarray,
) -> None:
    """:func:`_anchor_values` of the edges ``edges``: in one compiled pass where numba is
    installed (:func:`rainbowdp._verify.fused.multi_divergences`, the same roundings), else gathered
    in chunks."""
    if fused.multi_divergences(p, edges, mults, one_way, out):
        return
    for rows, aa, bb in endpoint_rows(p, edges[:, 0], edges[:, 1]):
        _anchor_values(aa, bb, mults, one_way, buf, out[:, rows])


def _rows_at_all(
    p: np.ndarray, edges: np.ndarray, encs: list[ExpEnclosure], one_way: bool
) -> np.ndarray:
    """(n, K): float divergences (larger direction) of a few edges at every ε of the grid.

    All ε at once, with the roundings of :func:`rainbowdp._verify.kernels.directed_divergences`
    (the scaling by :math:`2^k` is exact, the product rounds once; the sum's error bound holds
    in any order), so :func:`rainbowdp._verify.exact.float_error` bounds each value's error."""
    ms = np.array([enc.m for enc in encs])[:, None, None]
    ks = np.array([enc.k for enc in encs])[:, None, None]
    a, b = p[edges[:, 0]][None], p[edges[:, 1]][None]
    ones = np.ones(p.shape[1])
    with np.errstate(over="ignore"):
        out = np.maximum(a - np.ldexp(b, ks) * ms, 0.0) @ ones
        if not one_way:
            out = np.maximum(out, np.maximum(b - np.ldexp(a, ks) * ms, 0.0) @ ones)
    return out.T


def _envelope(slopes: np.ndarray, cuts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""The upper envelope :math:`g(s) = \max_k (t_k s - c_k)` of lines with increasing slopes.

    Returns ``(breaks, t, c)``: on :math:`s \le` ``breaks[0]`` the first line is the maximum,
    between ``breaks[i-1]`` and ``breaks[i]`` line i; evaluate with
    :func:`numpy.searchsorted` (see :func:`_envelope_at`).
    """
    hull: list[int] = []
    for k in range(slopes.size):
        if hull and slopes[k] == slopes[hull[-1]]:
            if cuts[k] >= cuts[hull[-1]]:
                continue
            hull.pop()
        while len(hull) >= 2:
            i, j = hull[-2], hull[-1]
            # line j is useless if lines i and k meet below it
            if (cuts[k] - cuts[i]) * (slopes[j] - slopes[i]) <= (cuts[j] - cuts[i]) * (
                slopes[k] - slopes[i]
            ):
                hull.pop()
            else:
                break
        hull.append(k)
    h = np.array(hull)
    t, c = slopes[h], cuts[h]
    breaks = (c[1:] - c[:-1]) / (t[1:] - t[:-1])
    return breaks, t, c


def _envelope_at(env: tuple[np.ndarray, np.ndarray, np.ndarray], s: np.ndarray) -> np.ndarray:
    breaks, t, c = env
    i = np.searchsorted(breaks, s)
    return t[i] * s - c[i]


#: Edges (a strided sample) evaluated at every ε before the pass, to place the anchors.
SAMPLE_EDGES = 1024


def _place_anchors(
    learn: Callable[[np.ndarray], np.ndarray], n_e: int, grid: np.ndarray
) -> np.ndarray:
    """Grid indices of the anchors: :data:`N_ANCHORS` of them, spread evenly in ε over the
    part of the grid where a strided sample of :data:`SAMPLE_EDGES` edges (``learn``, which
    also turns them into lower bounds) is not yet 0, the last where it first is.

    Past that point δ is 0 or carried by the few edges whose likelihood ratios reach further,
    which the exact-zero rule keeps; spreading the anchors over the whole grid would leave a
    wide interval across the drop to 0, which no chord prunes.
    """
    n_k = grid.size
    end = n_k - 1
    if n_e > SAMPLE_EDGES and n_k > N_ANCHORS:
        est = learn(np.linspace(0, n_e - 1, SAMPLE_EDGES).astype(np.intp))
        zero = np.flatnonzero(est <= 0.0)
        if zero.size:
            end = int(zero[0])
    targets = np.linspace(float(grid[0]), float(grid[end]), min(N_ANCHORS, n_k))
    at = np.searchsorted(grid[: end + 1], targets).clip(0, end)
    return np.unique(np.concatenate([[0], at, [end]])).astype(np.intp)


#: Kept edges above which an interval of the grid is cut in two (one more evaluation of them).
SPLIT_EDGES = 2048


def profile_one_pass(
    p: np.ndarray,
    edges: np.ndarray,
    one_way: bool,
    grid: np.ndarray,
    row_sum: float | None = None,
    irregular: np.ndarray | None = None,
) -> np.ndarray:
    """δ(ε) over the edges at each ε of ``grid`` (sorted, distinct, finite, >= 0).

    The same values as :func:`rainbowdp._verify.exact.delta_upper` at each ε over all edges (see the
    module notes), with one gather of all edges. ``row_sum`` (the largest row sum of ``p``)
    and ``irregular`` (:func:`rainbowdp._verify.exact.irregular_rows` of ``p``) are computed when
    not given.
    """
    run = _OnePass(p, edges, one_way, grid, row_sum)
    anchors = _place_anchors(run.learn, edges.shape[0], grid)
    vals = run.at_anchors(anchors)
    # An edge whose value at a multiplier m 2^k is exactly 0 has P_a(v) <= fl(m 2^k P_b(v)) <=
    # m 2^k (1 + u) P_b(v) <= L P_b(v) on every output, hence H = 0 at every ε from there on
    # -- provided no product m 2^k P_b(v) > 0 is subnormal: no positive entry below 2^-1000.
    if irregular is None:
        irregular = irregular_rows(p)
    if irregular.size:
        run.odd = np.isin(edges[:, 0], irregular) | np.isin(edges[:, 1], irregular)
    n_a = anchors.size
    bounds = np.append(anchors, grid.shape[0])
    for j in range(n_a - 1, -1, -1):
        fb = vals[j + 1] if j + 1 < n_a else None
        run.solve(int(bounds[j]), int(bounds[j + 1]), None, vals[j], fb)
    return run.out


class _OnePass:
    """The state of one :func:`profile_one_pass`: the grid's enclosures and error bounds, the
    lower bounds ``low`` learnt so far, and the values ``out`` found."""

    def __init__(
        self,
        p: np.ndarray,
        edges: np.ndarray,
        one_way: bool,
        grid: np.ndarray,
        row_sum: float | None,
    ) -> None:
        n_e, q = edges.shape[0], p.shape[1]
        self.p, self.edges, self.one_way = p, edges, one_way
        self.n_k = n_k = grid.shape[0]
        self.encs = encs = [enclose_exp(float(e)) for e in grid.tolist()]
        if row_sum is None:
            row_sum = float(p.sum(axis=1).max())
        self.eta_exact = [float_error_of(row_sum, q, enc) for enc in encs]
        self.etas = np.array([float_at_least(e) for e in self.eta_exact])
        self.err = float_at_least(rounding_error(row_sum, q))
        self.mults = mults = [multiplier_below(enc) for enc in encs]
        with np.errstate(over="ignore"):
            self.xs = np.exp(grid)  # to within 16 ulps (numpy's exp is far more accurate)
        self.xm = [math.ldexp(m, k) if k < 1000 else math.inf for m, k in mults]  # inf: no chord
        self.low = np.full(n_k, -np.inf)  # L_k <= δ(ε_k), from rows evaluated at every ε
        self.chunk = max(1, kernels.CHUNK_ELEMENTS // max(q, 1))  # edges per chunk of the pass
        self.buf = np.empty((min(self.chunk, n_e), q))
        self.odd: np.ndarray | None = None  # edges with an irregular row (no exact-zero rule)
        self.out = np.zeros(n_k)

    def learn(self, picks: np.ndarray) -> np.ndarray:
        """Lower bounds from the edges ``picks``; returns their largest float values."""
        p, edges, n_k = self.p, self.edges, self.n_k
        top = np.full(n_k, -np.inf)
        step = max(1, kernels.CHUNK_ELEMENTS // max(p.shape[1] * n_k, 1))
        for s in range(0, picks.size, step):
            f = _rows_at_all(p, edges[picks[s : s + step]], self.encs, self.one_way)
            np.maximum(top, f.max(axis=0), out=top)
        self.low = np.maximum(self.low, np.nextafter(top - self.etas, -np.inf))
        return top

    def at_anchors(self, anchors: np.ndarray) -> np.ndarray:
        """Phase 1, one gather: every edge at the anchors (one contiguous row per anchor), and
        lower bounds from the rows largest at some anchor."""
        n_a, n_e, chunk = anchors.size, self.edges.shape[0], self.chunk
        vals = np.empty((n_a, n_e))
        best = np.full(n_a, -np.inf)
        a_mults = [self.mults[i] for i in anchors.tolist()]
        for start in range(0, n_e, chunk):
            v = vals[:, start : start + chunk]
            _edges_at(self.p, self.edges[start : start + chunk], a_mults, self.one_way, self.buf, v)
            top = np.argmax(v, axis=1)
            gain = v[np.arange(n_a), top] > best
            if gain.any():
                best = np.maximum(best, v.max(axis=1))
                self.learn(np.unique(top[gain]) + start)
        return vals

    def at(self, idx: np.ndarray, k: int) -> np.ndarray:
        """Values of the edges ``idx`` at the multiplier below e^{ε_k}."""
        out_k = np.empty((1, idx.size))
        _edges_at(self.p, self.edges[idx], [self.mults[k]], self.one_way, self.buf, out_k)
        return out_k[0]

    def solve(
        self, k0: int, k1: int, idx: np.ndarray | None, fa: np.ndarray, fb: np.ndarray | None
    ) -> None:
        """δ at grid indices k0 .. k1 - 1 from the edges ``idx`` (None: all; a superset of those
        that can attain the maximum there); ``fa``, ``fb``: their values at k0 and at k1
        (None: k1 is past the grid)."""
        odd = self.odd
        odd_here = None if odd is None else (odd if idx is None else odd[idx])
        cuts = self.low[k0:k1]
        low0 = np.flatnonzero(cuts <= 2.0 * self.err)
        inner = fa.size > SPLIT_EDGES and low0.size and 0 < low0[0] < k1 - k0 - 1
        flat = low0 if inner else None
        sel = self._select(k0, k1, cuts, fa, fb, odd_here, flat is None)
        idx = sel if idx is None else idx[sel]
        fa = fa[sel]
        fb = None if fb is None else fb[sel]
        if flat is not None:
            # δ may reach ~0 inside: no bound prunes there but a zero; cut where it may start
            self.split(k0, int(k0 + flat[0]), k1, idx, fa, fb)
            return
        if idx.size == 0:
            return
        if idx.size > SPLIT_EDGES and k1 - k0 > 2:
            self.split(k0, (k0 + k1) // 2, k1, idx, fa, fb)
            return
        sub = self.edges[idx]
        for k in range(k0, k1):
            enc = self.encs[k]
            fwd, bwd = directed_divergences(self.p, sub, enc.m, enc.k, one_way=self.one_way)
            self.out[k] = delta_upper(self.p, sub, enc, fwd, bwd, self.eta_exact[k])

    def _select(
        self,
        k0: int,
        k1: int,
        cuts: np.ndarray,
        fa: np.ndarray,
        fb: np.ndarray | None,
        odd_here: np.ndarray | None,
        prune: bool,
    ) -> np.ndarray:
        """The edges (positions in ``fa``) that may attain δ somewhere in k0 .. k1 - 1: not
        certified zero at k0, and where ``prune`` not below the lower bounds ``cuts`` by the
        threshold or by the chord."""
        err = self.err
        finite = bool(np.all(np.isfinite(cuts)))
        # H(x) <= H(x_a) <= F_a + err on the interval: drop F_a + err < min L (threshold
        # rounded down twice, so the real-number inequality holds)
        thr = np.nextafter(float(cuts.min()) - err, -np.inf) if finite else -np.inf
        # H is convex in x = e^ε: below its chord between the multipliers x1 < x_k and x2
        # (beyond x2, below H(x2)); t_k = (x_k - x1) / (x2 - x1) errs by at most tau (float exp
        # and division) and |F_b - F_a| <= 2
        x1 = self.xm[k0]
        x2 = self.xm[k1] if fb is not None else math.inf
        tau = 64 * 2.0**-53 * x2 / (x2 - x1) if x1 < x2 < math.inf else math.inf
        chord = finite and tau <= 2.0**-20
        env = None
        if chord:
            env = _envelope(np.clip((self.xs[k0:k1] - x1) / (x2 - x1), 0.0, 1.0), cuts)
        # (+ 2^-40: the float evaluation of the envelope, a few ulps of numbers <= 2)
        margin = err + 2 * tau + 2.0**-40
        sel = None
        if prune:  # every test in one compiled pass, where numba is installed
            lines = None if env is None else env[1:]
            sel = fused.chord_select(fa, fb, odd_here, thr, lines, margin)
        if sel is None:
            keep = fa > 0.0
            if odd_here is not None:
                keep |= odd_here
            if prune:
                keep &= fa >= thr
            sel = np.flatnonzero(keep)
            if prune and env is not None and fb is not None and sel.size:  # (env: fb given)
                ok = fa[sel] + _envelope_at(env, fb[sel] - fa[sel]) + margin >= 0
                sel = sel[ok]
        return sel

    def split(
        self, k0: int, km: int, k1: int, idx: np.ndarray, fa: np.ndarray, fb: np.ndarray | None
    ) -> None:
        """:meth:`solve` on k0 .. km - 1 and km .. k1 - 1, the edges evaluated at km."""
        fm = self.at(idx, km)
        self.learn(idx[[int(np.argmax(fm))]])
        self.solve(km, k1, idx, fm, fb)
        self.solve(k0, km, idx, fa, fm)
