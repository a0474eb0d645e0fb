r"""Certified repair: turn a nearly private mechanism into one that is *proved* private.

Closed forms evaluated in floating point and solver output are private up to round-off: the
exact rationals they store may exceed δ by :math:`10^{-17}`. The soundness rule
(``docs/verification.md``) asks that everything the library builds certify ``PRIVATE`` exactly,
so these points are repaired by mixing the free rows with the uniform distribution,

.. math:: P_\lambda = (1 - \lambda) P + \lambda\, U, \qquad U = (1/q, \dots, 1/q),

with the smallest λ the search finds for which an exact prover (:func:`proves_dp`, or a sound
PDP check) accepts :math:`P_\lambda`. For ε > 0 every positive hockey-stick term shrinks by
:math:`\lambda(e^\epsilon - 1)/q` plus λ times itself, so λ of the order of the round-off
suffices; for ε = 0 and δ > 0 the divergence scales by (1 - λ); for ε = δ = 0 the rows of each
connected component are made identical. The utility lost is reported by the callers.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from scipy.sparse.csgraph import connected_components

from ..exceptions import NotPrivateError
from ..graph import RainbowGraph
from .exact import EXACT_WORK, enclose_exp, unproven

__all__ = [
    "MAX_REPAIR_WITH_FIXED",
    "dp_mixing_bound",
    "equalise_components",
    "find_mixing",
    "mix",
    "proves_dp",
    "repair",
    "snap_equal_rows",
]


def proves_dp(G: RainbowGraph, P: np.ndarray, epsilon: float, delta: float) -> bool:
    r"""True iff the rows ``P`` on ``G`` are proved (ε, δ)-DP in exact arithmetic.

    Every directed edge must satisfy :math:`H_L \le \delta` for a rational
    :math:`L \le e^\epsilon` (:func:`rainbowdp._verify.exact.unproven`); then
    :func:`rainbowdp.certify` answers ``"private"``. ``False`` may also mean "more than
    :data:`~rainbowdp._verify.exact.EXACT_WORK` pairs are too close to call in floats", which the
    repair answers by mixing (so the exact work stays bounded on large graphs).
    """
    if G.n_edges == 0:
        return True
    enc = enclose_exp(epsilon)
    return not unproven(P, G.edges, enc, delta, max_work=EXACT_WORK, one_way=G.directed).any()


def mix(P: np.ndarray, free: np.ndarray, lam: float) -> np.ndarray:
    """``(1 - lam) P + lam U`` on the free rows (U uniform); fixed rows untouched."""
    out = P.copy()
    q = P.shape[1]
    out[free] = (1.0 - lam) * P[free] + lam / q
    return out


def equalise_components(G: RainbowGraph, P: np.ndarray, fixed_mask: np.ndarray) -> np.ndarray:
    """For ε = δ = 0: one row per connected component (the fixed row if any, else the mean)."""
    n_comp, labels = connected_components(G.adjacency, directed=False)
    out = P.copy()
    for c in range(n_comp):
        members = labels == c
        fixed_here = np.flatnonzero(members & fixed_mask)
        if fixed_here.size:  # the fixed row as given: renormalising could move it by an ulp
            row = P[fixed_here[0]]
        else:
            row = P[members].mean(axis=0)
            row = row / row.sum()
        out[members & ~fixed_mask] = row
    return out


#: Rows of neighbours closer than this (max-abs) are taken to be equal by :func:`snap_equal_rows`.
SNAP_ATOL = 1e-9


def snap_equal_rows(G: RainbowGraph, P: np.ndarray, fixed_mask: np.ndarray) -> np.ndarray:
    r"""Make neighbouring rows that agree within :data:`SNAP_ATOL` identical floats.

    At ε = 0 a non-leaking output needs :math:`P_a(v) \le P_b(v)` and, in the other direction,
    :math:`P_b(v) \le P_a(v)`: exact equality, which a solver's rows meet only up to round-off.
    Neighbours whose rows agree within the tolerance are grouped (connected components of
    those edges); every free row of a group becomes the group's fixed row, if it has one, or
    the group's mean renormalised once -- one float vector shared by the whole group.
    """
    e = G.edges
    if e.shape[0] == 0:
        return P
    near = np.max(np.abs(P[e[:, 0]] - P[e[:, 1]]), axis=1) <= SNAP_ATOL
    if not near.any():
        return P
    from scipy.sparse import coo_array

    n = G.n_nodes
    ee = e[near]
    adj = coo_array((np.ones(ee.shape[0]), (ee[:, 0], ee[:, 1])), shape=(n, n))
    n_comp, labels = connected_components(adj, directed=False)
    out = P.copy()
    sizes = np.bincount(labels, minlength=n_comp)
    for c in np.flatnonzero(sizes > 1).tolist():
        members = labels == c
        fixed_here = np.flatnonzero(members & fixed_mask)
        row = P[fixed_here[0]] if fixed_here.size else P[members].mean(axis=0)
        out[members & ~fixed_mask] = row / row.sum() if not fixed_here.size else row
    return out


#: Mixing weights up to this are not refined by bisection in :func:`find_mixing`.
NEGLIGIBLE_MIXING = 1e-10


def find_mixing(
    P: np.ndarray, free: np.ndarray, ok: Callable[[np.ndarray], bool], start: float
) -> tuple[float, np.ndarray] | None:
    r"""Smallest λ found with ``ok(mix(P, λ))``: try ``start``, double until it passes, then bisect.

    ``ok`` is the exact verifier, so whatever λ is returned is certified by it; the search
    only affects how much utility is lost. A λ at most :data:`NEGLIGIBLE_MIXING` is returned
    without bisection (it is within a factor 4 of the smallest, and its cost is negligible).
    Returns ``None`` if even λ = 1 fails.
    """
    lam = min(1.0, max(start, 1e-16))
    bad = 0.0
    cand = mix(P, free, lam)
    while not ok(cand):
        if lam >= 1.0:
            return None
        bad = lam
        lam = min(1.0, lam * 4.0)
        cand = mix(P, free, lam)
    good, good_p = lam, cand
    for _ in range(30):
        if good <= NEGLIGIBLE_MIXING or good - bad <= 1e-3 * good:
            break
        mid = 0.5 * (good + bad)
        c = mix(P, free, mid)
        if ok(c):
            good, good_p = mid, c
        else:
            bad = mid
    return good, good_p


def dp_mixing_bound(
    P: np.ndarray, a: np.ndarray, b: np.ndarray, epsilon: float, delta: float
) -> float:
    r"""Closed-form λ making ``(1-λ)P + λU`` (ε, δ)-DP on the pairs ``(a, b)`` (all rows mixed).

    With :math:`D_v = P_a(v) - e^\epsilon P_b(v)` and :math:`c = (e^\epsilon - 1)/q`, the mixed
    pair has :math:`H = \sum_v \max\{(1-λ) D_v - λ c, 0\}`. This is at most :math:`(1-λ) H`, so
    :math:`λ \ge 1 - δ/H` suffices when δ > 0; and every term vanishes when
    :math:`λ \ge D_v / (D_v + c)`, which suffices when ε > 0. The smaller bound is returned.
    """
    x = math.exp(epsilon)  # epsilon <= 709.78: checked by every caller
    q = P.shape[1]
    if a.size == 0:
        return 0.0
    D = P[a] - x * P[b]
    H = np.maximum(D, 0.0).sum(axis=1)
    hmax = float(H.max())
    cands = []
    if hmax <= delta:
        return 0.0
    if delta > 0:
        cands.append(1.0 - delta / hmax)
    if epsilon > 0:
        c = (x - 1.0) / q
        dmax = float(D.max())
        cands.append(dmax / (dmax + c))
    return min(cands) if cands else 1.0


#: Largest mixing weight accepted when fixed rows are present (see :func:`repair`).
MAX_REPAIR_WITH_FIXED = 1e-6


def repair(
    G: RainbowGraph,
    P: np.ndarray,
    fixed_mask: np.ndarray,
    ok: Callable[[np.ndarray], bool],
    *,
    start: float,
    what: str,
    equalise: bool = False,
    snap: bool = False,
) -> tuple[np.ndarray, float]:
    r"""Return ``(P', λ)`` with ``ok(P')``, repairing ``P`` if needed; raise if impossible.

    Repair (see ``docs/design.md``): free rows are mixed with the uniform distribution,
    :math:`(1-λ)P + λU`, with the smallest λ the search finds (``start`` first), each candidate
    checked by ``ok`` -- the exact verifier. With ``equalise`` (ε = δ = 0) the rows of each
    connected component are made identical instead, which is what (0, 0)-DP requires.

    Without fixed rows a small λ always exists (the closed-form bound). With fixed rows, mixing
    cannot move a fixed row, so a violation against one may need a large λ; rather than return
    a mechanism far from the optimum, λ above :data:`MAX_REPAIR_WITH_FIXED` raises.
    """
    if ok(P):
        return P, 0.0
    free = ~fixed_mask
    if snap:
        Q = snap_equal_rows(G, P, fixed_mask)
        if ok(Q):
            return Q, 0.0
    if equalise:
        Q = equalise_components(G, P, fixed_mask)
        if ok(Q):
            return Q, float("nan")
    found = find_mixing(P, free, ok, start) if free.any() else None
    has_fixed = bool(fixed_mask.any())
    if found is None or (has_fixed and found[0] > MAX_REPAIR_WITH_FIXED):
        detail = (
            ""
            if found is None
            else f" (mixing weight {found[0]:.3g} needed, more than the {MAX_REPAIR_WITH_FIXED:g} "
            "accepted)"
        )
        raise NotPrivateError(
            f"the computed mechanism fails the exact {what} check by round-off and mixing the "
            f"free rows with the uniform distribution does not repair it{detail}"
            + (
                "; the violation is against a fixed row, which mixing cannot move -- try the "
                "other solver, or loosen `fixed` by a tiny amount"
                if has_fixed
                else ""
            )
            + "."
        )
    lam, Q = found
    return Q, lam
