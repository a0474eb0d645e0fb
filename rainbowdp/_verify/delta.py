r"""δ(ε) of the edges of a mechanism: per ε or in one pass, and per edge.

The engine behind :func:`rainbowdp.privacy_profile` and :func:`rainbowdp.hockey_stick`
(:func:`profile_core`), and the per-edge values of batches of pairs (:func:`edge_delta_upper`).
Every value is the smallest float at least the exact :math:`\max H_{e^\epsilon}`
(:func:`rainbowdp._verify.exact.delta_upper`), or a rigorous bound within :math:`2\eta` of it
past the exact-work budget.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from ..mechanism import Mechanism
from .epsilon import distinct_arcs
from .exact import (
    EXACT_WORK,
    SCALE,
    ExpEnclosure,
    band_pairs,
    delta_upper,
    enclose,
    exact_pairs,
    float_at_least,
    float_error,
    irregular_rows,
    lifted,
    pred_scaled,
)
from .groups import GROUP_MIN_ARCS, row_classes
from .kernels import directed_divergences
from .profile import profile_one_pass


def profile_core(
    p: np.ndarray,
    edges: np.ndarray,
    one_way: bool,
    eps: np.ndarray,
    mechanism: Mechanism | None = None,
) -> np.ndarray:
    """δ(ε) over the edges of the rows ``p`` at each validated ε (both orders unless
    ``one_way``): the computation behind :func:`privacy_profile` and :func:`hockey_stick`.

    Many ε on many edges are answered in one pass over the edges
    (:func:`rainbowdp._verify.profile.profile_one_pass`), a few by one pass per ε; both give
    :func:`~rainbowdp._verify.exact.delta_upper` of all edges at each ε. ``mechanism`` (whose rows
    are ``p``) lends its remembered row sum, irregular rows and row classes.

    For more than one ε the ordered edges are first grouped into classes of equal pairs
    (:func:`distinct_arcs`), and the representatives are used when they are fewer than the
    edges (the mechanisms users build: every edge ties): δ(ε) is a maximum of a function of
    the pair alone, so the values are the same."""
    if eps.size > 1 and edges.shape[0] >= GROUP_MIN_ARCS:
        arcs = distinct_arcs(
            p, edges, one_way, None if mechanism is None else classes_of(mechanism)
        )
        if arcs.shape[0] < edges.shape[0]:
            edges, one_way = arcs, True
    grid, where = np.unique(eps, return_inverse=True)
    if grid.size >= ONE_PASS_MIN_EPS and edges.shape[0] >= ONE_PASS_MIN_EDGES:
        known = {}
        if mechanism is not None:
            known = {
                "row_sum": mechanism._row_sum_max(),
                "irregular": mechanism._memo("irregular", irregular_rows),
            }
        return profile_one_pass(p, edges, one_way, grid, **known)[where.reshape(eps.shape)]
    out = np.empty(eps.shape)
    for i, e in enumerate(eps.tolist()):
        enc = enclose(e)
        fwd, bwd = directed_divergences(p, edges, enc.m, enc.k, one_way=one_way)
        out[i] = delta_upper(p, edges, enc, fwd, bwd)
    return out


#: :func:`profile_core` evaluates every edge at every ε below these sizes, and in one pass over
#: the edges (:mod:`rainbowdp._verify.profile`) from them on: the same values either way.
ONE_PASS_MIN_EPS = 3


ONE_PASS_MIN_EDGES = 1024


@functools.lru_cache(maxsize=4096)
def _eta_upper(epsilon: float, q: int, row_sum: float) -> float:
    """A float at least :func:`~rainbowdp._verify.exact.float_error` for q outputs and rows summing
    to at most ``row_sum`` (that bound grows with the largest row sum), remembered."""
    rows = np.zeros((1, q))
    rows[0, 0] = row_sum
    return float_at_least(float_error(rows, enclose(epsilon)))


def edge_delta_upper(
    p: np.ndarray, edges: np.ndarray, enc: ExpEnclosure, fwd: np.ndarray, bwd: np.ndarray
) -> np.ndarray:
    r"""Per edge, what :func:`~rainbowdp._verify.exact.delta_upper` returns for that edge alone.

    That value is the smallest float at least :math:`\max\{H_L(P_u\|P_v), H_L(P_v\|P_u)\}`
    (exact, ``fwd``/``bwd`` as there) whenever the exact work fits :data:`EXACT_WORK`, which
    holds for 2q <= EXACT_WORK; larger q is handed to ``delta_upper`` edge by edge. The same
    proof, vectorised over the edges: per edge the maximiser is an order whose float divergence
    is within 2η of the edge's float maximum (η >= :func:`~rainbowdp._verify.exact.float_error` of
    all rows, with the largest row sum rounded up to a multiple of 2^-20: a bound for every edge;
    the cut below it is lowered by 2η more, which covers the
    rounding of the float cut); orders proved 0 by ``certified_zero`` are left out, and the
    others are recomputed exactly (``exact_pairs``) on the outputs not proved to give a zero
    term (:math:`P_u(v) \le L\,P_v(v)`, the ``certified_zero`` test per output), which leaves
    each exact sum unchanged.
    """
    n_e, q = edges.shape[0], p.shape[1]
    out = np.zeros(n_e)
    if n_e == 0:
        return out
    if 2 * q > EXACT_WORK:
        two = np.array([[0, 1]], dtype=np.intp)
        for i, (u, v) in enumerate(edges.tolist()):
            out[i] = delta_upper(p[[u, v]], two, enc, fwd[i : i + 1], bwd[i : i + 1])
        return out
    eta = _eta_upper(enc.epsilon, q, math.ceil(float(p.sum(axis=1).max()) * 2.0**20) / 2.0**20)
    h = np.maximum(fwd, bwd)
    cut = np.nextafter(h - 4.0 * eta, -np.inf)
    a, b, idx, _ = band_pairs(p, edges, enc, fwd, bwd, cut, h)
    if a.size == 0:
        return out
    pa, pb = p[a], p[b]
    live = ~(lifted(pa) <= pred_scaled(pb, enc.m_lo, enc.k))  # terms not proved <= 0
    width = max(1, int(live.sum(axis=1).max()))
    cols = np.argsort(~live, axis=1, kind="stable")[:, :width]
    keep = np.take_along_axis(live, cols, axis=1)
    rows = np.empty((2 * a.size, width))
    rows[0::2] = np.where(keep, np.take_along_axis(pa, cols, axis=1), 0.0)
    rows[1::2] = np.where(keep, np.take_along_axis(pb, cols, axis=1), 0.0)
    ia = np.arange(0, 2 * a.size, 2)
    exact = exact_pairs(rows, ia, ia + 1, enc.lo_num)
    best = [0] * n_e
    for i, val in zip(idx.tolist(), exact, strict=True):
        best[i] = max(best[i], val)
    scale = 1 << SCALE
    for i in set(idx.tolist()):
        out[i] = float_at_least(Fraction(best[i], scale))
    return out


def classes_of(m: Mechanism) -> Callable[[], np.ndarray]:
    """The row classes of ``m`` (:func:`rainbowdp._verify.groups.row_classes`) as a function
    that computes them on first use and remembers them on the mechanism."""
    return lambda: m._memo("row_classes", row_classes)
