r"""Exact (ε, δ)-DP verification on every edge of a rainbow graph.

Two distributions P, Q on a finite set are (ε, δ)-close (Gu et al., Definition 2) iff

.. math::

    \sup_{S} P(S) - e^\epsilon Q(S) = \sum_v \max\{P(v) - e^\epsilon Q(v), 0\}
    =: H_{e^\epsilon}(P \,\|\, Q) \le \delta

and the same with P and Q swapped: the supremum over the :math:`2^q` events is attained by the
event :math:`S^* = \{v : P(v) > e^\epsilon Q(v)\}`, so the hockey-stick divergence :math:`H`
decides closeness exactly with q operations. :func:`verify` evaluates it on every edge and in
both directions, in chunks of edges so that memory stays bounded.

The floating-point evaluation of :math:`H` errs by at most :math:`(q + 3)\,2^{-52}` (every
positive term satisfies :math:`e^\epsilon Q(v) < P(v) \le 1`); that bound is added to the
user's tolerance, and :func:`rainbowdp.certify.certify` re-checks verdicts in exact rational
arithmetic.

:func:`epsilon_for_delta` uses that :math:`H_x(P\|Q)` is convex and piecewise linear in
:math:`x = e^\epsilon` with breakpoints at the likelihood ratios :math:`P(v)/Q(v)`: the exact
smallest ε is found by sorting the ratios, not by bisection.

:func:`pdp_delta` is the probabilistic-DP leakage of Kadam et al., Definition 2 and eq. (7):
:math:`\max_{d \sim d'} \Pr_{v \sim P_d}[\ln(P_d(v)/P_{d'}(v)) > \epsilon]`, over ordered pairs.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._validation import (
    check_delta,
    check_epsilon,
    check_nonnegative_float,
    check_probability_vector,
)
from .exceptions import ParameterError, ParameterTypeError
from .mechanism import Mechanism

__all__ = [
    "VerificationReport",
    "are_close",
    "epsilon_for_delta",
    "float_error_bound",
    "hockey_stick",
    "pdp_delta",
    "privacy_profile",
    "verify",
]

#: Rows of (q float64) gathered per chunk: keeps the working set in cache and memory bounded.
CHUNK_ELEMENTS = 1 << 16


def float_error_bound(n_outputs: int) -> float:
    r"""Bound on the floating-point error of one hockey-stick evaluation over q outputs.

    Each positive term :math:`P(v) - x Q(v)` has :math:`xQ(v) < P(v) \le 1` and errs by at most
    :math:`3u P(v)`; summing q non-negative terms adds at most :math:`q u`; with
    :math:`u = 2^{-53}` and a factor 2 of slack for ``exp``, :math:`(q + 3) 2^{-52}`.
    """
    return (n_outputs + 3) * 2.0**-52


def _as_pair(p: Any, q: Any) -> tuple[np.ndarray, np.ndarray]:
    a = check_probability_vector(p, "p")
    b = check_probability_vector(q, "q", size=a.shape[0])
    return a, b


def hockey_stick(p: Any, q: Any, epsilon: float) -> float:
    r"""Hockey-stick divergence :math:`H_{e^\epsilon}(P\|Q)=\sum_v (P(v)-e^\epsilon Q(v))_+`.

    It is the smallest δ with :math:`P(S) \le e^\epsilon Q(S) + \delta` for every event S.

    Parameters
    ----------
    p, q : array_like
        Probability vectors of equal length.
    epsilon : float
        ε >= 0.

    Examples
    --------
    >>> hockey_stick([0.5, 0.5], [0.25, 0.75], 0.0)
    0.25
    """
    a, b = _as_pair(p, q)
    x = math.exp(check_epsilon(epsilon))
    return float(np.maximum(a - x * b, 0.0).sum())


def are_close(p: Any, q: Any, epsilon: float, delta: float, *, tol: float = 0.0) -> bool:
    r"""Whether P and Q are (ε, δ)-close (Gu et al., Definition 2), in both directions.

    ``tol`` is added to δ together with :func:`float_error_bound`.

    Examples
    --------
    >>> are_close([0.6, 0.4], [0.4, 0.6], math.log(1.5), 0.0)
    True
    >>> are_close([0.7, 0.3], [0.4, 0.6], math.log(1.5), 0.0)
    False
    """
    a, b = _as_pair(p, q)
    x = math.exp(check_epsilon(epsilon))
    delta = check_delta(delta)
    slack = check_nonnegative_float(tol, "tol") + float_error_bound(a.shape[0])
    d = max(np.maximum(a - x * b, 0.0).sum(), np.maximum(b - x * a, 0.0).sum())
    return bool(d <= delta + slack)


@dataclass(frozen=True)
class VerificationReport:
    r"""Result of :func:`verify`.

    Attributes
    ----------
    is_private : bool
        ``delta_required <= delta + tolerance``.
    epsilon, delta : float
        The parameters checked.
    delta_required : float
        :math:`\max_{d \sim d'} \max\{H(P_d\|P_{d'}), H(P_{d'}\|P_d)\}`: the smallest δ at this ε.
    worst_edge : tuple or None
        ``(d, d')`` attaining it, ordered so that :math:`P_d(S) - e^\epsilon P_{d'}(S)` is the
        maximum; ``None`` for a graph without edges.
    witness : tuple
        The event S (outputs) attaining it on ``worst_edge``.
    edge_deltas : numpy.ndarray
        Per edge (rows of ``graph.edges``), the larger of the two directed divergences.
    tolerance : float
        Slack used: the user's ``tol`` plus the floating-point error bound.
    n_violations : int
        Number of edges with ``edge_delta > delta + tolerance``.
    """

    is_private: bool
    epsilon: float
    delta: float
    delta_required: float
    worst_edge: tuple | None
    witness: tuple
    edge_deltas: np.ndarray = field(repr=False)
    tolerance: float
    n_violations: int

    def __str__(self) -> str:
        verdict = "private" if self.is_private else "NOT private"
        s = (
            f"({self.epsilon:g}, {self.delta:g})-DP: {verdict}; delta required at this epsilon "
            f"= {self.delta_required:.6g}"
        )
        if self.worst_edge is not None:
            s += (
                f" on edge {self.worst_edge[0]!r} -> {self.worst_edge[1]!r} with event "
                f"{set(self.witness) if self.witness else '{}'}"
            )
        if not self.is_private:
            s += f"; {self.n_violations} violating edge(s)"
        return s


def _check_mechanism(mechanism: Any) -> Mechanism:
    if not isinstance(mechanism, Mechanism):
        raise ParameterTypeError(
            f"`mechanism` must be a Mechanism, got {type(mechanism).__name__}."
        )
    return mechanism


def _endpoint_rows(
    p: np.ndarray, u: np.ndarray, v: np.ndarray
) -> Iterator[tuple[slice, np.ndarray, np.ndarray]]:
    """Yield ``(rows, p[u[rows]], p[v[rows]])`` for consecutive chunks of the index arrays.

    Each chunk holds about ``CHUNK_ELEMENTS`` numbers, so the working set stays in cache and the
    memory is bounded whatever the number of pairs. The two arrays are buffers reused by the
    next chunk: use them before advancing, and do not keep references to them.
    """
    n, q = u.shape[0], p.shape[1]
    chunk = max(1, CHUNK_ELEMENTS // max(q, 1))
    m = min(chunk, n)
    a = np.empty((m, q))
    b = np.empty((m, q))
    for start in range(0, n, chunk):
        stop = min(start + chunk, n)
        k = stop - start
        np.take(p, u[start:stop], axis=0, out=a[:k])
        np.take(p, v[start:stop], axis=0, out=b[:k])
        yield slice(start, stop), a[:k], b[:k]


def _directed_divergences(
    p: np.ndarray,
    edges: np.ndarray,
    x: float,
) -> tuple[np.ndarray, np.ndarray]:
    """H_x(P_u||P_v) and H_x(P_v||P_u) for every edge (u, v), computed in chunks."""
    n_e, q = edges.shape[0], p.shape[1]
    fwd = np.empty(n_e)
    bwd = np.empty(n_e)
    t = np.empty((min(max(1, CHUNK_ELEMENTS // max(q, 1)), n_e), q))
    for rows, aa, bb in _endpoint_rows(p, edges[:, 0], edges[:, 1]):
        tt = t[: aa.shape[0]]
        np.multiply(bb, x, out=tt)
        np.subtract(aa, tt, out=tt)
        np.maximum(tt, 0.0, out=tt)
        tt.sum(axis=1, out=fwd[rows])
        np.multiply(aa, x, out=tt)
        np.subtract(bb, tt, out=tt)
        np.maximum(tt, 0.0, out=tt)
        tt.sum(axis=1, out=bwd[rows])
    return fwd, bwd


def verify(
    mechanism: Mechanism, *, epsilon: float, delta: float = 0.0, tol: float = 0.0
) -> VerificationReport:
    r"""Check (ε, δ)-DP of ``mechanism`` on every edge of its graph, exactly.

    For every edge :math:`d \sim d'` both hockey-stick divergences are computed; the mechanism
    is (ε, δ)-DP iff their maximum is at most δ (Gu et al., Definition 2).

    Parameters
    ----------
    mechanism : Mechanism
        The mechanism.
    epsilon : float
        ε >= 0.
    delta : float, default 0
        δ in [0, 1].
    tol : float, default 0
        Extra absolute slack on δ; :func:`float_error_bound` is always added.

    Returns
    -------
    VerificationReport

    Examples
    --------
    >>> from rainbowdp.graph import RainbowGraph
    >>> G = RainbowGraph.line(["yes", "no"], 2)
    >>> M = Mechanism(G, [[0.5, 0.5], [0.55, 0.45], [0.6, 0.4]])
    >>> r = verify(M, epsilon=math.log(1.2), delta=0.0)
    >>> r.is_private, r.delta_required
    (True, 0.0)
    >>> r = verify(M, epsilon=0.05, delta=0.0)
    >>> r.is_private, round(r.delta_required, 6), r.worst_edge, r.witness
    (False, 0.029492, (1, 2), ('no',))
    """
    m = _check_mechanism(mechanism)
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    slack = check_nonnegative_float(tol, "tol") + float_error_bound(m.graph.n_outputs)
    g = m.graph
    p = m.probabilities
    x = math.exp(eps)
    edges = g.edges
    if edges.shape[0] == 0:
        return VerificationReport(True, eps, dlt, 0.0, None, (), np.zeros(0), slack, 0)
    fwd, bwd = _directed_divergences(p, edges, x)
    edge_deltas = np.maximum(fwd, bwd)
    w = int(np.argmax(edge_deltas))
    u, v = int(edges[w, 0]), int(edges[w, 1])
    if bwd[w] > fwd[w]:
        u, v = v, u
    worst = float(edge_deltas[w])
    s_mask = p[u] > x * p[v]
    witness = tuple(o for o, keep in zip(g.outputs, s_mask, strict=True) if keep)
    n_viol = int(np.count_nonzero(edge_deltas > dlt + slack))
    return VerificationReport(
        is_private=n_viol == 0,
        epsilon=eps,
        delta=dlt,
        delta_required=worst,
        worst_edge=(g.nodes[u], g.nodes[v]),
        witness=witness,
        edge_deltas=edge_deltas,
        tolerance=slack,
        n_violations=n_viol,
    )


def privacy_profile(mechanism: Mechanism, epsilons: Sequence[float] | np.ndarray) -> np.ndarray:
    r"""The privacy profile :math:`\delta(\epsilon) = \max_{d\sim d'} H_{e^\epsilon}` at each ε.

    Parameters
    ----------
    mechanism : Mechanism
    epsilons : array_like of float
        Values ε >= 0.

    Returns
    -------
    numpy.ndarray
        δ(ε) for each ε, the smallest δ for which the mechanism is (ε, δ)-DP.

    Examples
    --------
    >>> from rainbowdp.graph import RainbowGraph
    >>> G = RainbowGraph.line(["yes", "no"], 1)
    >>> M = Mechanism(G, [[0.75, 0.25], [0.25, 0.75]])
    >>> privacy_profile(M, [0.0, math.log(3)]).round(12).tolist()
    [0.5, 0.0]
    """
    m = _check_mechanism(mechanism)
    eps = np.asarray(epsilons, dtype=float)
    if eps.ndim > 1:
        raise ParameterError(f"`epsilons` must be one-dimensional, got shape {eps.shape}.")
    eps = np.atleast_1d(eps)
    if not np.all(np.isfinite(eps)) or np.any(eps < 0):
        raise ParameterError(f"`epsilons` must be finite and >= 0, got epsilons={epsilons!r}.")
    if m.graph.n_edges == 0:
        return np.zeros(eps.shape)
    out = np.empty(eps.shape)
    for i, e in enumerate(eps):
        fwd, bwd = _directed_divergences(m.probabilities, m.graph.edges, math.exp(e))
        out[i] = max(fwd.max(), bwd.max())
    return out


def _pair_epsilon(a: np.ndarray, b: np.ndarray, delta: float) -> np.ndarray:
    """Exact smallest x = e^ε >= 1 with H_x(a_i || b_i) <= delta for each row i."""
    n, _ = a.shape
    zero_q = b <= 0
    mass_inf = np.where(zero_q, a, 0.0).sum(axis=1)  # loss = +inf on these outputs
    budget = delta - mass_inf
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(zero_q | (a <= 0), -np.inf, a / np.where(zero_q, 1.0, b))
    order = np.argsort(-ratio, axis=1, kind="stable")
    r = np.take_along_axis(ratio, order, axis=1)
    pa = np.where(np.isfinite(r), np.take_along_axis(a, order, axis=1), 0.0)
    pb = np.where(np.isfinite(r), np.take_along_axis(b, order, axis=1), 0.0)
    ca = np.cumsum(pa, axis=1)
    cb = np.cumsum(pb, axis=1)
    # H at breakpoint x = r_j counts the terms strictly before j: A_{j-1} - r_j B_{j-1}.
    prev_a = np.concatenate([np.zeros((n, 1)), ca[:, :-1]], axis=1)
    prev_b = np.concatenate([np.zeros((n, 1)), cb[:, :-1]], axis=1)
    with np.errstate(invalid="ignore"):
        h_at = np.where(np.isfinite(r), prev_a - r * prev_b, np.inf)
    ok = h_at <= budget[:, None]
    j = ok.sum(axis=1)  # breakpoints r_1 >= ... >= r_j satisfy H <= budget (a prefix)
    # On the segment below r_j the active terms are 1..j: H(x) = A_j - x B_j.
    idx = np.clip(j - 1, 0, None)
    aj = np.take_along_axis(ca, idx[:, None], axis=1)[:, 0]
    bj = np.take_along_axis(cb, idx[:, None], axis=1)[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        x = np.where((j > 0) & (bj > 0), (aj - budget) / bj, 1.0)
    x = np.where(budget < 0, np.inf, np.maximum(x, 1.0))
    return x


def epsilon_for_delta(mechanism: Mechanism, delta: float) -> float:
    r"""The exact smallest ε for which ``mechanism`` is (ε, δ)-DP.

    For each ordered edge, :math:`x \mapsto H_x(P\|Q)` is decreasing, convex and piecewise
    linear with breakpoints at the likelihood ratios; the ratios are sorted and the linear piece
    containing the solution of :math:`H_x = \delta` is solved in closed form. Outputs with
    :math:`Q(v) = 0 < P(v)` have infinite privacy loss: if their mass exceeds δ the answer is
    ``inf``.

    Examples
    --------
    >>> from rainbowdp.graph import RainbowGraph
    >>> G = RainbowGraph.line(["yes", "no"], 1)
    >>> M = Mechanism(G, [[0.75, 0.25], [0.25, 0.75]])
    >>> round(epsilon_for_delta(M, 0.0), 12) == round(math.log(3), 12)
    True
    >>> epsilon_for_delta(M, 0.5)
    0.0
    """
    m = _check_mechanism(mechanism)
    dlt = check_delta(delta)
    p = m.probabilities
    edges = m.graph.edges
    if edges.shape[0] == 0:
        return 0.0
    best = 1.0
    for _, a, b in _endpoint_rows(p, edges[:, 0], edges[:, 1]):
        x = max(_pair_epsilon(a, b, dlt).max(), _pair_epsilon(b, a, dlt).max())
        best = max(best, float(x))
    return math.inf if math.isinf(best) else max(0.0, math.log(best))


def pdp_delta(mechanism: Mechanism, epsilon: float, *, tol: float = 0.0) -> float:
    r"""Probabilistic-DP leakage (Kadam et al., Definition 2, eqs. (3) and (7)).

    .. math::

        \delta^\epsilon = \max_{d \sim d'} \sum_v P_d(v)\,
        \mathbf 1[P_d(v) > e^\epsilon P_{d'}(v) + \text{tol}]

    over both orientations of every edge. A mechanism is (ε, δ)-PDP iff this is at most δ;
    PDP implies DP (Kadam et al., Theorem 1). ``tol`` (default 0, the exact definition) absorbs
    solver round-off at ties (see ``docs/errata.md``).

    Examples
    --------
    >>> from rainbowdp.graph import RainbowGraph
    >>> G = RainbowGraph.line(["yes", "no"], 1)
    >>> M = Mechanism(G, [[0.75, 0.25], [0.25, 0.75]])
    >>> pdp_delta(M, 1.0), pdp_delta(M, 1.2)
    (0.75, 0.0)
    """
    m = _check_mechanism(mechanism)
    x = math.exp(check_epsilon(epsilon))
    t = check_nonnegative_float(tol, "tol")
    p = m.probabilities
    edges = m.graph.edges
    worst = 0.0
    for _, a, b in _endpoint_rows(p, edges[:, 0], edges[:, 1]):
        fwd = np.where(a > x * b + t, a, 0.0).sum(axis=1)
        bwd = np.where(b > x * a + t, b, 0.0).sum(axis=1)
        worst = max(worst, float(fwd.max()), float(bwd.max()))
    return worst
