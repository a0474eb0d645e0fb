r"""Exact (ε, δ)-DP verification on every edge of a rainbow graph.

Two distributions P, Q on a finite set are (ε, δ)-close (Gu et al., Definition 2) iff

.. math::

    \sup_{S} P(S) - e^\epsilon Q(S) = \sum_v \max\{P(v) - e^\epsilon Q(v), 0\}
    =: H_{e^\epsilon}(P \,\|\, Q) \le \delta

and the same with P and Q swapped: the supremum over the :math:`2^q` events is attained by the
event :math:`S^* = \{v : P(v) > e^\epsilon Q(v)\}`, so the hockey-stick divergence :math:`H`
decides closeness exactly with q operations. :func:`verify` evaluates it on every edge and in
both directions, in chunks of edges so that memory stays bounded.

**Soundness.** Every number reported here errs only in the safe direction
(``docs/verification.md``):
``verify(...).delta_required``, :func:`privacy_profile`, :func:`hockey_stick`,
:func:`epsilon_for_delta` and :func:`pdp_delta` return floats *at least* the exact value for the
stored (dyadic rational) probabilities and the real :math:`e^\epsilon`, computed with the
rigorous filters and exact integer arithmetic of :mod:`rainbowdp._exact`. The verdicts of
:func:`verify` and :func:`are_close` are float decisions with a documented tolerance: the float
divergence is compared with δ + ``tol`` + :func:`float_error_bound`, so "private" means exact
δ* <= δ + ``tol`` + 2 :func:`float_error_bound`; :func:`rainbowdp.certify` decides
without tolerance.

Any finite ε >= 0 is accepted: products :math:`e^\epsilon Q(v)` are formed as
:math:`m\,2^k Q(v)` (no overflow), and from ε = 746 on, where :math:`e^\epsilon` exceeds every
likelihood ratio of float64 probabilities, the divergence is the P-mass where Q vanishes.

:func:`epsilon_for_delta` uses that :math:`H_x(P\|Q)` is convex and piecewise linear in
:math:`x = e^\epsilon` with breakpoints at the likelihood ratios :math:`P(v)/Q(v)`: the smallest
ε is found by sorting the log-ratios (no overflow), not by bisection, then rounded up and proved.

:func:`pdp_delta` is the probabilistic-DP leakage of Kadam et al., Definition 2 and eq. (7):
:math:`\max_{d \sim d'} \Pr_{v \sim P_d}[\ln(P_d(v)/P_{d'}(v)) > \epsilon]`, over ordered pairs.
"""

from __future__ import annotations

import functools
import math
import numbers
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ._exact import (
    _SCALE,
    EXACT_WORK,
    P_SHIFT,
    ExpEnclosure,
    _exact_pairs,
    _lifted,
    _pred_scaled,
    band_pairs,
    compare_exp,
    delta_upper,
    enclose_exp,
    exp_scaled,
    float_at_least,
    float_at_most,
    float_error,
    float_error_of,
    int_list,
    int_scaled,
    irregular_rows,
    multiplier_below,
    pair_epsilon_exact,
    pdp_leakage_upper,
    unproven,
)
from ._groups import GROUP_MIN_ARCS, group_arcs, row_classes
from ._kernels import (
    EPS_SATURATION,
    directed_divergences,
    endpoint_rows,
    float_error_bound,
    scaled_exp,
    scaled_product,
)
from ._profile import profile_one_pass
from ._validation import (
    check_delta,
    check_epsilon,
    check_nonnegative_float,
    check_probability_vector,
    real_array,
)
from .exceptions import NotExactWarning, ParameterError, ParameterTypeError
from .mechanism import Mechanism, check_mechanism

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


def _no_one_way(one_way: Any) -> None:
    """``one_way`` is for pairs: a mechanism's graph says itself which orders are constrained."""
    if one_way is not False:
        raise ParameterError(
            f"`one_way` applies to pairs of distributions only (a mechanism's graph is directed "
            f"or not), got one_way={one_way!r} with a Mechanism."
        )


def _as_pair(p: Any, q: Any) -> tuple[np.ndarray, np.ndarray]:
    a = check_probability_vector(p, "p")
    b = check_probability_vector(q, "q", size=a.shape[0])
    return a, b


def hockey_stick(p: Any, q: Any = None, epsilon: Any = None) -> Any:
    r"""Hockey-stick divergence :math:`H_{e^\epsilon}(P\|Q)=\sum_v (P(v)-e^\epsilon Q(v))_+`.

    It is the smallest δ with :math:`P(S) \le e^\epsilon Q(S) + \delta` for every event S.
    Returned as the smallest float at least the exact value (see the module notes).

    Called as ``hockey_stick(pairs, epsilon)`` with ``pairs`` of shape (E, 2, q) (``pairs[i, 0]``
    is :math:`P_i`, ``pairs[i, 1]`` is :math:`Q_i`), it returns the array (E,) of
    :math:`H_{e^\epsilon}(P_i\|Q_i)`, each as :func:`hockey_stick` of that pair would.

    Parameters
    ----------
    p, q : array_like
        Probability vectors of equal length; or ``p`` a batch (E, 2, q) and ``q`` omitted.
    epsilon : float
        ε >= 0 (the second argument in the batch form).

    Returns
    -------
    float or numpy.ndarray
        A float for two vectors, an array (E,) for a batch.

    Examples
    --------
    >>> hockey_stick([0.5, 0.5], [0.25, 0.75], 0.0)
    0.25
    >>> hockey_stick([0.5, 0.5], [1.0, 0.0], 1000.0)   # the P-mass where Q = 0
    0.5
    >>> hockey_stick([[[0.5, 0.5], [0.25, 0.75]], [[0.5, 0.5], [0.5, 0.5]]], 0.0).tolist()
    [0.25, 0.0]
    """
    if epsilon is None or q is None:  # hockey_stick(pairs, epsilon): a batch of pairs
        return _pair_paths().batch_hockey_stick(p, q if epsilon is None else epsilon)
    a, b = _as_pair(p, q)
    eps = np.array([check_epsilon(epsilon)])
    pair = np.empty((1, 2, a.shape[0]))
    pair[0, 0], pair[0, 1] = a, b
    return float(_pair_paths()._profile(pair, eps, True, float(pair.min()))[0, 0])


@functools.cache
def _pair_paths() -> Any:
    """The module :mod:`rainbowdp._pairs` (imported on first use, since it imports this one)."""
    from . import _pairs

    return _pairs


def are_close(p: Any, q: Any, epsilon: float, delta: float, *, tol: float = 0.0) -> bool:
    r"""Whether P and Q are (ε, δ)-close (Gu et al., Definition 2), in both directions.

    A float decision, like :func:`verify`: ``tol`` is added to δ together with
    :func:`float_error_bound`.

    Examples
    --------
    >>> are_close([0.6, 0.4], [0.4, 0.6], math.log(1.5), 0.0)
    True
    >>> are_close([0.7, 0.3], [0.4, 0.6], math.log(1.5), 0.0)
    False
    """
    a, b = _as_pair(p, q)
    m, k = scaled_exp(check_epsilon(epsilon))
    delta = check_delta(delta)
    slack = check_nonnegative_float(tol, "tol") + float_error_bound(a.shape[0])
    fwd, bwd = directed_divergences(np.stack([a, b]), np.array([[0, 1]], dtype=np.intp), m, k)
    return bool(max(fwd[0], bwd[0]) <= delta + slack)


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
        :math:`\max_{d \sim d'} \max\{H(P_d\|P_{d'}), H(P_{d'}\|P_d)\}`: the smallest δ at this
        ε, as the smallest float at least the exact value (never under-reported).
    worst_edge : tuple or None
        ``(d, d')`` attaining it, ordered so that :math:`P_d(S) - e^\epsilon P_{d'}(S)` is the
        maximum; ``None`` for a graph without edges.
    witness : tuple
        The event S (outputs) attaining it on ``worst_edge``.
    edge_deltas : numpy.ndarray
        Per edge (rows of ``graph.edges``), the larger of the two directed divergences, in
        float64 (each within :func:`float_error_bound` of the exact value).
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
        return _report_text(self)

    def to_dict(self, *, edge_deltas: bool = False) -> dict[str, Any]:
        """The report as plain Python, for JSON, pandas or a notebook.

        The keys are those of ``rainbowdp verify --json`` (``is_private``, ``epsilon``,
        ``delta``, ``delta_required``, ``worst_edge``, ``witness``, ``n_violations``,
        ``tolerance``, ``n_edges``). Nodes and outputs are kept when JSON can hold them (tuples
        become lists) and written with ``str`` otherwise (:func:`rainbowdp.interop.plain`).
        Floats stay floats; infinite or NaN values need
        :func:`rainbowdp.interop.nonfinite_to_null` for strict JSON (the CLI's ``null``).

        Parameters
        ----------
        edge_deltas : bool, default False
            Also include ``edge_deltas`` (one float per edge; long for large graphs).

        Returns
        -------
        dict

        Examples
        --------
        >>> import json
        >>> from rainbowdp.graph import RainbowGraph
        >>> G = RainbowGraph.line(["yes", "no"], 2)
        >>> M = Mechanism(G, [[0.5, 0.5], [0.55, 0.45], [0.6, 0.4]])
        >>> d = verify(M, epsilon=0.05).to_dict()
        >>> d["is_private"], round(d["delta_required"], 6), d["worst_edge"], d["witness"]
        (False, 0.029492, [1, 2], ['no'])
        >>> json.loads(json.dumps(d)) == d
        True
        """
        out = _report_dict(self)
        out["n_edges"] = int(self.edge_deltas.shape[0])
        if edge_deltas:
            out["edge_deltas"] = self.edge_deltas.tolist()
        return out


def _report_dict(report: Any) -> dict[str, Any]:
    """The fields every verification report shares, as plain Python (see
    :meth:`VerificationReport.to_dict`)."""
    from .interop import plain

    return {
        "is_private": bool(report.is_private),
        "epsilon": float(report.epsilon),
        "delta": float(report.delta),
        "delta_required": float(report.delta_required),
        "worst_edge": plain(report.worst_edge),
        "witness": plain(list(report.witness)),
        "n_violations": int(report.n_violations),
        "tolerance": float(report.tolerance),
    }


def _report_text(report: Any) -> str:
    """The one-line summary of a verification report (:class:`VerificationReport` or
    :class:`rainbowdp.distributed.DistributedReport`)."""
    verdict = "private" if report.is_private else "NOT private"
    s = (
        f"({report.epsilon:g}, {report.delta:g})-DP: {verdict}; delta required at this epsilon "
        f"= {report.delta_required:.6g}"
    )
    if report.worst_edge is not None:
        s += (
            f" on edge {report.worst_edge[0]!r} -> {report.worst_edge[1]!r} with event "
            f"{set(report.witness) if report.witness else '{}'}"
        )
    if not report.is_private:
        s += f"; {report.n_violations} violating edge(s)"
    return s


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
    >>> verify(M, epsilon=800.0).is_private       # any finite epsilon is accepted
    True
    >>> r = verify(M, epsilon=0.05, delta=0.0)
    >>> r.is_private, round(r.delta_required, 6), r.worst_edge, r.witness
    (False, 0.029492, (1, 2), ('no',))
    """
    m = check_mechanism(mechanism)
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    slack = check_nonnegative_float(tol, "tol") + float_error_bound(m.graph.n_outputs)
    g = m.graph
    p = m.probabilities
    edges = g.edges
    if edges.shape[0] == 0:
        return VerificationReport(True, eps, dlt, 0.0, None, (), np.zeros(0), slack, 0)
    enc = enclose_exp(eps)
    edge_deltas = np.empty(edges.shape[0])
    fwd, bwd = directed_divergences(p, edges, enc.m, enc.k, one_way=g.directed, largest=edge_deltas)
    w = int(np.argmax(edge_deltas))
    u, v = int(edges[w, 0]), int(edges[w, 1])
    if bwd[w] > fwd[w]:
        u, v = v, u
    eta = float_error_of(m._row_sum_max(), g.n_outputs, enc)
    worst = delta_upper(p, edges, enc, fwd, bwd, eta, edge_deltas, _classes_of(m))
    # S* = {v : P_u(v) > e^eps P_v(v)}, decided exactly (float only inside a 2^-190 window)
    yes, no = compare_exp(p[u], p[v], enc)
    s_mask = yes | (~no & (p[u] > scaled_product(p[v], enc.m, enc.k)))
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


def _classes_of(m: Mechanism) -> Callable[[], np.ndarray]:
    """The row classes of ``m`` (:func:`rainbowdp._groups.row_classes`) as a function that
    computes them on first use and remembers them on the mechanism."""
    return lambda: m._memo("row_classes", row_classes)


def privacy_profile(
    mechanism: Any, epsilons: Sequence[float] | np.ndarray, *, one_way: bool = False
) -> np.ndarray:
    r"""The privacy profile :math:`\delta(\epsilon) = \max_{d\sim d'} H_{e^\epsilon}` at each ε.

    Parameters
    ----------
    mechanism : Mechanism, pair of array_like, or array_like of shape (2, q) or (E, 2, q)
        A mechanism; or two distributions (P, Q), read as neighbours in both directions (a
        two-node graph with one edge: δ(ε) is the larger of :math:`H(P\|Q)` and
        :math:`H(Q\|P)`); or a batch of E such pairs (:mod:`rainbowdp._pairs`). Pairs need no
        graph and give the same numbers, bit for bit, as that two-node graph.
    epsilons : array_like of float
        Values ε >= 0 (finite).
    one_way : bool, default False
        For pairs only: only P relative to Q (the arc P → Q of a directed graph,
        :math:`H(P\|Q)`).

    Returns
    -------
    numpy.ndarray
        δ(ε) for each ε, the smallest δ for which the mechanism is (ε, δ)-DP, each as the
        smallest float at least the exact value (never under-reported); shape (k,) for k
        values of ε, and (E, k) for a batch of pairs (row i for pair i).

    Examples
    --------
    >>> from rainbowdp.graph import RainbowGraph
    >>> G = RainbowGraph.line(["yes", "no"], 1)
    >>> M = Mechanism(G, [[0.75, 0.25], [0.25, 0.75]])
    >>> privacy_profile(M, [0.0, math.log(3)]).tolist()
    [0.5, 0.0]
    >>> privacy_profile(([0.75, 0.25], [0.25, 0.75]), [0.0, math.log(3)]).tolist()
    [0.5, 0.0]
    """
    if not isinstance(mechanism, Mechanism):
        return _pair_paths().pairs_privacy_profile(mechanism, epsilons, one_way=one_way)
    _no_one_way(one_way)
    m = check_mechanism(mechanism)
    eps = _check_epsilons(epsilons)
    if m.graph.n_edges == 0:
        return np.zeros(eps.shape)
    return _profile_core(m.probabilities, m.graph.edges, m.graph.directed, eps, m)


def _check_epsilons(epsilons: Any) -> np.ndarray:
    """``epsilons`` as a 1-D float array of finite values >= 0 (the check of
    :func:`privacy_profile`)."""
    if type(epsilons) is list and all(
        type(e) is float and 0.0 <= e < math.inf for e in epsilons
    ):  # the common call: a list of plain finite floats >= 0 (NaN fails the comparison)
        return np.array(epsilons, dtype=np.float64)
    if isinstance(epsilons, str | bytes):
        raise ParameterTypeError(
            f"`epsilons` must be an array of numbers, got epsilons={epsilons!r}."
        )
    eps = real_array(epsilons, "epsilons")
    if eps.ndim > 1:
        raise ParameterError(f"`epsilons` must be one-dimensional, got shape {eps.shape}.")
    eps = np.atleast_1d(eps)
    if not np.all(np.isfinite(eps)) or np.any(eps < 0):
        raise ParameterError(f"`epsilons` must be finite and >= 0, got epsilons={epsilons!r}.")
    return eps


def _profile_core(
    p: np.ndarray,
    edges: np.ndarray,
    one_way: bool,
    eps: np.ndarray,
    mechanism: Mechanism | None = None,
) -> np.ndarray:
    """δ(ε) over the edges of the rows ``p`` at each validated ε (both orders unless
    ``one_way``): the computation behind :func:`privacy_profile` and :func:`hockey_stick`.

    Many ε on many edges are answered in one pass over the edges
    (:func:`rainbowdp._profile.profile_one_pass`), a few by one pass per ε; both give
    :func:`~rainbowdp._exact.delta_upper` of all edges at each ε. ``mechanism`` (whose rows
    are ``p``) lends its remembered row sum, irregular rows and row classes.

    For more than one ε the ordered edges are first grouped into classes of equal pairs
    (:func:`_distinct_arcs`), and the representatives are used when they are fewer than the
    edges (the mechanisms users build: every edge ties): δ(ε) is a maximum of a function of
    the pair alone, so the values are the same."""
    if eps.size > 1 and edges.shape[0] >= GROUP_MIN_ARCS:
        arcs = _distinct_arcs(
            p, edges, one_way, None if mechanism is None else _classes_of(mechanism)
        )
        if arcs.shape[0] < edges.shape[0]:
            edges, one_way = arcs, True
    grid, where = np.unique(eps, return_inverse=True)
    if grid.size >= _ONE_PASS_MIN_EPS and edges.shape[0] >= _ONE_PASS_MIN_EDGES:
        known = {}
        if mechanism is not None:
            known = {
                "row_sum": mechanism._row_sum_max(),
                "irregular": mechanism._memo("irregular", irregular_rows),
            }
        return profile_one_pass(p, edges, one_way, grid, **known)[where.reshape(eps.shape)]
    out = np.empty(eps.shape)
    for i, e in enumerate(eps.tolist()):
        enc = _enclose(e)
        fwd, bwd = directed_divergences(p, edges, enc.m, enc.k, one_way=one_way)
        out[i] = delta_upper(p, edges, enc, fwd, bwd)
    return out


#: :func:`_profile_core` evaluates every edge at every ε below these sizes, and in one pass over
#: the edges (:mod:`rainbowdp._profile`) from them on: the same values either way.
_ONE_PASS_MIN_EPS = 3
_ONE_PASS_MIN_EDGES = 1024


@functools.lru_cache(maxsize=4096)
def _eta_upper(epsilon: float, q: int, row_sum: float) -> float:
    """A float at least :func:`~rainbowdp._exact.float_error` for q outputs and rows summing
    to at most ``row_sum`` (that bound grows with the largest row sum), remembered."""
    rows = np.zeros((1, q))
    rows[0, 0] = row_sum
    return float_at_least(float_error(rows, _enclose(epsilon)))


def _edge_delta_upper(
    p: np.ndarray, edges: np.ndarray, enc: ExpEnclosure, fwd: np.ndarray, bwd: np.ndarray
) -> np.ndarray:
    r"""Per edge, what :func:`~rainbowdp._exact.delta_upper` returns for that edge alone.

    That value is the smallest float at least :math:`\max\{H_L(P_u\|P_v), H_L(P_v\|P_u)\}`
    (exact, ``fwd``/``bwd`` as there) whenever the exact work fits :data:`EXACT_WORK`, which
    holds for 2q <= EXACT_WORK; larger q is handed to ``delta_upper`` edge by edge. The same
    proof, vectorised over the edges: per edge the maximiser is an order whose float divergence
    is within 2η of the edge's float maximum (η >= :func:`~rainbowdp._exact.float_error` of all
    rows, with the largest row sum rounded up to a multiple of 2^-20: a bound for every edge;
    the cut below it is lowered by 2η more, which covers the
    rounding of the float cut); orders proved 0 by ``certified_zero`` are left out, and the
    others are recomputed exactly (``_exact_pairs``) on the outputs not proved to give a zero
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
    live = ~(_lifted(pa) <= _pred_scaled(pb, enc.m_lo, enc.k))  # terms not proved <= 0
    width = max(1, int(live.sum(axis=1).max()))
    cols = np.argsort(~live, axis=1, kind="stable")[:, :width]
    keep = np.take_along_axis(live, cols, axis=1)
    rows = np.empty((2 * a.size, width))
    rows[0::2] = np.where(keep, np.take_along_axis(pa, cols, axis=1), 0.0)
    rows[1::2] = np.where(keep, np.take_along_axis(pb, cols, axis=1), 0.0)
    ia = np.arange(0, 2 * a.size, 2)
    exact = _exact_pairs(rows, ia, ia + 1, enc.lo_num)
    best = [0] * n_e
    for i, val in zip(idx.tolist(), exact, strict=True):
        best[i] = max(best[i], val)
    scale = 1 << _SCALE
    for i in set(idx.tolist()):
        out[i] = float_at_least(Fraction(best[i], scale))
    return out


def _pair_log_epsilon(a: np.ndarray, b: np.ndarray, delta: float) -> tuple[np.ndarray, np.ndarray]:
    """Float estimate of the smallest ε >= 0 with H_{e^ε}(a_i || b_i) <= delta, per row i.

    Works with log-ratios, so ratios beyond the float range (a subnormal b) are not lost;
    ``inf`` where the a-mass on outputs with b = 0 exceeds ``delta``. Returns the estimates and
    a generous estimate of their error (``inf`` where the linear piece is ambiguous, i.e. H at
    a breakpoint is within round-off of δ; large where ``A_j - δ`` cancels). Not rigorous by
    itself: :func:`epsilon_for_delta` recomputes the candidates for the maximum exactly, rounds
    up and proves the result.
    """
    n, q = a.shape
    zero_q = b <= 0
    budget = delta - np.where(zero_q, a, 0.0).sum(axis=1)  # loss = +inf on those outputs
    with np.errstate(divide="ignore", invalid="ignore"):
        lr = np.where(zero_q | (a <= 0), -np.inf, np.log(a) - np.log(np.where(zero_q, 1.0, b)))
    order = np.argsort(-lr, axis=1, kind="stable")
    r = np.take_along_axis(lr, order, axis=1)
    fin = np.isfinite(r)
    ca = np.cumsum(np.where(fin, np.take_along_axis(a, order, axis=1), 0.0), axis=1)
    cb = np.cumsum(np.where(fin, np.take_along_axis(b, order, axis=1), 0.0), axis=1)
    # H at breakpoint x = e^{r_j} counts the terms strictly before j: A_{j-1} - e^{r_j} B_{j-1},
    # with e^{r_j} B_{j-1} = exp(r_j + ln B_{j-1}) <= A_{j-1} <= 1 (no overflow).
    prev_a = np.concatenate([np.zeros((n, 1)), ca[:, :-1]], axis=1)
    prev_b = np.concatenate([np.zeros((n, 1)), cb[:, :-1]], axis=1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        h_at = np.where(fin, prev_a - np.exp(r + np.log(prev_b)), np.inf)
    j = (h_at <= budget[:, None]).sum(axis=1)  # breakpoints r_1 >= ... >= r_j pass (a prefix)
    # On the segment below r_j the active terms are 1..j: H(x) = A_j - x B_j = budget.
    idx = np.clip(j - 1, 0, None)[:, None]
    aj = np.take_along_axis(ca, idx, axis=1)[:, 0]
    bj = np.take_along_axis(cb, idx, axis=1)[:, 0]
    num = aj - budget
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.where((j > 0) & (bj > 0) & (num > 0), np.log(num) - np.log(bj), 0.0)
        # error: the cancellation in A_j - budget, the logs, and an ambiguous piece
        err = 64 * q * _U64 * (1.0 + (aj + np.abs(budget)) / np.where(num > 0, num, np.inf))
        err = err + 64 * _U64 * np.maximum(1.0, np.abs(e))
        near = np.abs(h_at - budget[:, None]) <= 1e-9 * (1.0 + np.abs(budget[:, None]))
    # H at the first breakpoint is 0 exactly (no active term), and the budget is δ exactly
    # where no output has Q = 0: no round-off can make that comparison ambiguous (at δ = 0 the
    # answer is the largest log-ratio)
    near[:, 0] &= zero_q.any(axis=1)
    err = np.where(near.any(axis=1) | ((j > 0) & (num <= 0)), np.inf, err)
    return np.where(budget < 0, np.inf, np.maximum(e, 0.0)), err


#: Relative amount by which :func:`epsilon_for_delta` raises its float estimate before proving
#: it: far above float64 round-off, so the rigorous float filters settle almost every edge.
_EPS_BUMP = 2.0**-45
#: Unit round-off of float64.
_U64 = 2.0**-53
#: Budget of exact work in :func:`epsilon_for_delta`: at most this many rational entries
#: (directed edges times outputs) are recomputed exactly per round (about 0.3 s).
_EPS_EXACT_WORK = 50_000
#: Rounds of "prove, and on failure recompute the failing pairs exactly (or, if there are very
#: many, raise ε)" before every directed edge is recomputed exactly.
_EPS_ROUNDS = 4


@functools.lru_cache(maxsize=4096)
def _enclose(epsilon: float) -> ExpEnclosure:
    """:func:`enclose_exp`, remembered: a pure function of the float ε (frozen result)."""
    return enclose_exp(epsilon)


def _bumped(e: float) -> float:
    return 0.0 if e <= 0 else e + _EPS_BUMP * max(1.0, e)


_TWO_1000 = Fraction(2**1000)


def _log_up(x: Fraction) -> float:
    r"""A float ε with :math:`L(\epsilon) \ge x` for the rational lower bound L of e^ε."""
    if x <= 1:
        return 0.0
    if x < 2:
        e = math.log1p(float(x - 1))
    elif x < _TWO_1000:
        e = math.log(float(x))
    else:
        e = math.log(x.numerator) - math.log(x.denominator)
    e = _bumped(e)
    while not _exp_covers(e, x):  # pragma: no cover - the bump exceeds the log's error
        e = _bumped(e)
    return e


#: Bits of the enclosure of e^ε with which :func:`_exp_covers` proves its bound.
_COVER_BITS = 64
#: :func:`_exp_lower` is used below this ε (its table and products stay far from overflow).
_FAST_COVER_MAX = 690.0
#: Lower bounds on 1/k!, k = 2..6, as floats (each at most the real value).
_INV_FACT = tuple(float_at_most(Fraction(1, math.factorial(k))) for k in range(2, 7))


@functools.cache  # at most 64 * 690 entries
def _exp_lower_table(j: int) -> float:
    """A float at most :math:`e^{j/64}` (from :func:`rainbowdp._exact.exp_scaled`)."""
    lo, _ = exp_scaled(Fraction(j, 64), _COVER_BITS)
    return float_at_most(Fraction(lo, 1 << _COVER_BITS))


def _exp_lower(e: float) -> float:
    r"""A float :math:`\ell \le e^e` within about :math:`2^{-47}` of it, for a float
    :math:`0 \le e <` :data:`_FAST_COVER_MAX`: a cheaper lower bound than 64-bit integers.

    With j = floor(64 e) and r = e - j/64 (exact: e * 64 is a scaling by a power of two and
    e - j/64 is exact by Sterbenz's lemma for j >= 1), :math:`e^e = e^{j/64} e^r`, the first
    factor bounded below by a remembered float and the second by its Taylor polynomial of
    degree 6 with coefficients rounded down (every dropped term is positive, r < 1/64). The
    float evaluation rounds at most 14 times, each within :math:`2^{-53}` relative, so the
    final factor :math:`1 - 2^{-48}` (rounded too) keeps the result below the real product.
    """
    j = math.floor(e * 64.0)
    r = e - j / 64.0
    c2, c3, c4, c5, c6 = _INV_FACT
    poly = 1.0 + r * (1.0 + r * (c2 + r * (c3 + r * (c4 + r * (c5 + r * c6)))))
    return _exp_lower_table(j) * poly * (1.0 - 2.0**-48)


def _exp_exceeds(e: float, c: float) -> bool:
    r"""Whether :func:`_exp_lower` proves :math:`e^e \ge x (1 + 2^{-50})` for every real x with
    :math:`x \le c (1 + 3 \cdot 2^{-53})` (c a float close to x, e.g. fl(x)): fl(c (1 + 2^-47))
    is at least :math:`c (1 + 2^{-47})(1 - 2^{-53})`, above that bound. The first test of
    :func:`_exp_covers` (L(e) >= x then follows, L being within 2^-180 of e^e)."""
    return e < _FAST_COVER_MAX and _exp_lower(e) >= c * (1.0 + 2.0**-47)


def _exp_covers(e: float, x: Fraction) -> bool:
    r"""Whether :math:`L(e) \ge x` is proved, for the lower bound L of :func:`_enclose`.

    A 64-bit enclosure (:func:`rainbowdp._exact.exp_scaled`, a third of the cost of L's 200
    bits) suffices: its lower end :math:`\ell \le e^e` with :math:`\ell \ge x(1 + 2^{-50})`
    gives :math:`L \ge e^e (1 - 2^{-180}) \ge x (1 + 2^{-50})(1 - 2^{-180}) > x`, L being
    within :math:`2^{-180}` of :math:`e^e` (its enclosure is that tight, tested). The bump of
    :func:`_bumped` (:math:`2^{-45}`) leaves that margin with room to spare. Saturated ε
    (``EPS_SATURATION`` and above) are checked on L itself.
    """
    if e >= EPS_SATURATION:
        return _enclose(e).lo >= x
    if e < _FAST_COVER_MAX and _exp_exceeds(e, float(x)):  # (_log_up: x <~ e^e < 2^996)
        return True
    lo, _ = exp_scaled(Fraction(e), _COVER_BITS)
    # lo / 2^64 >= x (1 + 2^-50), in integers
    return lo * x.denominator * (1 << 50) >= x.numerator * ((1 << 50) + 1) << _COVER_BITS


#: Breakpoints handed to :func:`pair_epsilon_exact` first by :func:`_pair_x_exact` (doubled
#: until the dropped ones are proved inactive).
_PRUNE_START = 8
#: Rows of at most this many outputs are handed to :func:`pair_epsilon_exact` whole.
_NO_PRUNE = 16


def _pair_x_exact(pa: np.ndarray, pb: np.ndarray, d: Fraction) -> Fraction | None:
    r""":func:`pair_epsilon_exact` of the rows ``pa``, ``pb`` (δ scaled as ``d``), pruned.

    The exact value depends only on the outputs with :math:`P_b(v) = 0` and on the breakpoints
    :math:`r_v = P_a(v)/P_b(v) \ge x^*`. The answer :math:`x_T` of a subset T holding every
    output with :math:`P_b(v) = 0` and the K largest float log-ratios is therefore the exact
    answer as soon as every dropped output satisfies :math:`P_a(v) \le x_T P_b(v)`: then
    :math:`H_{x_T} = H^T_{x_T} \le \delta`, and :math:`H_x \ge H^T_x > \delta` for
    :math:`1 \le x < x_T`. That is proved as in :func:`rainbowdp._exact.certified_zero`
    (:math:`2^s P_a \le \mathrm{pred}(\mathrm{fl}(m\,2^s P_b))` with :math:`m \le x_T`); K is
    doubled until the proof succeeds (at worst T is every output). Same value, far fewer
    rationals than the whole rows.
    """
    if pa.shape[0] <= _NO_PRUNE:  # short rows, whole (pruning would cost more than it
        # saves), on their own smallest common scale 2^s (δ: from 2^-1074 to 2^s; s >= -1074)
        ints, s = int_scaled(np.stack([pa, pb]))
        q = pa.shape[0]
        return pair_epsilon_exact(ints[:q], ints[q:], d / (1 << (P_SHIFT + s)))
    zero_b = pb == 0
    live = np.flatnonzero(~zero_b & (pa > 0))
    with np.errstate(divide="ignore"):
        lr = np.log(pa[live]) - np.log(pb[live])  # only ranks the breakpoints (a heuristic)
    live = live[np.argsort(-lr, kind="stable")]
    fixed = np.flatnonzero(zero_b)
    k = _PRUNE_START
    while True:
        keep = np.concatenate([fixed, live[:k]])
        x = pair_epsilon_exact(int_list(pa[keep]), int_list(pb[keep]), d)
        drop = live[k:]
        if x is None or drop.size == 0:
            return x
        m = float_at_most(x)
        if bool(np.all(_lifted(pa[drop]) <= _pred_scaled(pb[drop], m, 0))):
            return x
        k *= 4


def _exact_candidates(p: np.ndarray, a: np.ndarray, b: np.ndarray, delta: float) -> float | None:
    """Smallest proved ε covering the directed pairs (a, b) exactly; ``None`` if infinite."""
    d = Fraction(delta) * (1 << P_SHIFT)  # on the scale of int_rows
    best = Fraction(1)
    for i, j in zip(a.tolist(), b.tolist(), strict=True):
        x = _pair_x_exact(p[i], p[j], d)
        if x is None:
            return None
        best = max(best, x)
    return _log_up(best)


def _surely_infinite(p: np.ndarray, a: np.ndarray, b: np.ndarray, delta: float) -> bool:
    """Whether some pair (a, b) provably puts more than δ of a's mass where b vanishes.

    The float sum of q non-negative terms is at most (1 + (q - 1)u) times the exact one, so a
    float sum above δ (1 + q 2^-52) proves it.
    """
    q = p.shape[1]
    for _, pa, pb in endpoint_rows(p, a, b):
        mass = np.where(pb == 0, pa, 0.0).sum(axis=1)
        if bool(np.any(mass > delta * (1 + q * 2.0**-52))):
            return True
    return False


def epsilon_for_delta(mechanism: Any, delta: Any, *, one_way: bool = False) -> Any:
    r"""The smallest ε for which ``mechanism`` is (ε, δ)-DP, rounded up and proved.

    ``delta`` is a number (a float is returned) or a 1-D array of numbers (an array of the
    same length is returned, one proved ε per δ).

    ``mechanism`` may also be two distributions: a pair ``(P, Q)`` of 1-D arrays or an array
    of shape (2, q), read as neighbours in both directions (a two-node graph with one edge: the
    smallest ε with :math:`P(S) \le e^\epsilon Q(S) + \delta` *and* :math:`Q(S) \le
    e^\epsilon P(S) + \delta`); with ``one_way=True`` only the first (the arc P → Q of a
    directed graph). Or a batch, an array (E, 2, q) of such pairs: the result then has one
    value per pair, shape (E,) for a number δ and (E, k) for k values of δ
    (:mod:`rainbowdp._pairs`). Pairs need no graph and give the same numbers, bit for bit, as
    the two-node graph.

    For each ordered edge, :math:`x \mapsto H_x(P\|Q)` is decreasing, convex and piecewise
    linear with breakpoints at the likelihood ratios; the log-ratios are sorted and the linear
    piece containing the solution of :math:`H_x = \delta` is solved in closed form. Outputs with
    :math:`Q(v) = 0 < P(v)` have infinite privacy loss: if their mass exceeds δ the answer is
    ``inf``.

    On a graph with many edges, a strided sample is solved first and one float pass proves most
    edges below it, so that only the few others are estimated (see docs/verification.md); the
    value is that of estimating every edge.

    The float estimate is raised by :math:`2^{-45}\max(1, \epsilon)` and then *proved*: every
    directed edge must satisfy :math:`H_L \le \delta` exactly for a rational :math:`L \le
    e^{\hat\epsilon}` (:mod:`rainbowdp._exact`). Edges that fail are recomputed in exact
    rational arithmetic and the estimate raised to cover them. The result :math:`\hat\epsilon`
    therefore makes the mechanism (ε̂, δ)-DP exactly, and exceeds the exact
    :math:`\epsilon^*` by about :math:`10^{-13}\max(1, \epsilon^*)`, and by at most
    :math:`2^{-45} 16^3 \max(1, \epsilon) \approx 10^{-10}\max(1, \epsilon)` when more near-tied
    edges than the exact work budget must be moved away from in floats.

    Examples
    --------
    >>> from rainbowdp.graph import RainbowGraph
    >>> G = RainbowGraph.line(["yes", "no"], 1)
    >>> M = Mechanism(G, [[0.75, 0.25], [0.25, 0.75]])
    >>> e = epsilon_for_delta(M, 0.0)
    >>> 0 <= e - math.log(3) < 1e-12
    True
    >>> epsilon_for_delta(M, 0.5)
    0.0
    >>> M2 = Mechanism(G, [[0.5, 0.5], [5e-324, 1.0]])   # a ratio beyond the float range
    >>> round(epsilon_for_delta(M2, 0.0), 3)
    743.747
    >>> epsilon_for_delta(M, [0.5, 1.0]).tolist()
    [0.0, 0.0]
    >>> epsilon_for_delta(([0.75, 0.25], [0.25, 0.75]), 0.0) == e    # the same pair, no graph
    True
    """
    if not isinstance(mechanism, Mechanism):
        return _pair_paths().pairs_epsilon_for_delta(mechanism, delta, one_way=one_way)
    _no_one_way(one_way)
    m = check_mechanism(mechanism)
    deltas, scalar = _check_deltas(delta)
    if scalar:
        return _epsilon_for_delta(m, deltas[0])
    return np.array([_epsilon_for_delta(m, d) for d in deltas])


def _check_deltas(delta: Any) -> tuple[list[float], bool]:
    """``delta`` (a number, or a 1-D array of numbers) as a list of checked δ, and whether it
    was a number (the check of :func:`epsilon_for_delta`)."""
    if type(delta) is float and 0.0 <= delta <= 1.0:  # the common call, already valid
        return [delta], True
    if isinstance(delta, numbers.Real) and not isinstance(delta, bool):
        return [check_delta(delta)], True
    if isinstance(delta, str | bytes):
        raise ParameterTypeError(
            f"`delta` must be a number or an array of numbers, got delta={delta!r}."
        )
    arr = real_array(delta, "delta")
    if arr.ndim != 1:
        raise ParameterError(f"`delta` must be a number or a 1-D array, got shape {arr.shape}.")
    return [check_delta(float(d)) for d in arr], False


def _epsilon_for_delta(m: Mechanism, dlt: float) -> float:
    """:func:`epsilon_for_delta` for one validated δ."""
    return _epsilon_core(
        m.probabilities, m.graph.edges, m.graph.directed, dlt, classes=_classes_of(m)
    )


def _log_estimates(
    p: np.ndarray, edges: np.ndarray, one_way: bool, dlt: float
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_pair_log_epsilon` of both orders of every edge: arrays (2, E) ``(cand, err)``.

    Row 0 is P_u relative to P_v for the edge (u, v), row 1 the reverse (``-inf`` and 0 for
    the arcs of a directed graph, which constrain one order only).
    """
    n_e = edges.shape[0]
    cand = np.empty((2, n_e))
    err = np.empty((2, n_e))
    for rows, a, b in endpoint_rows(p, edges[:, 0], edges[:, 1]):
        cand[0, rows], err[0, rows] = _pair_log_epsilon(a, b, dlt)
        if not one_way:
            cand[1, rows], err[1, rows] = _pair_log_epsilon(b, a, dlt)
    if one_way:  # arcs constrain one order only: the reverse needs no epsilon at all
        cand[1], err[1] = -np.inf, 0.0
    return cand, err


def _unproven_orders(
    p: np.ndarray, edges: np.ndarray, todo: np.ndarray, dlt: float, eps_hat: float
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`unproven` at ``eps_hat`` asked only about the orders ``todo`` (2, E): row 0 the
    edges (u, v) as given, row 1 reversed; masks (forward, backward), False elsewhere."""
    f, b = np.flatnonzero(todo[0]), np.flatnonzero(todo[1])
    arcs = np.concatenate([edges[f], edges[b][:, ::-1]])
    bad = unproven(p, arcs, _enclose(eps_hat), dlt, max_work=EXACT_WORK, one_way=True).forward
    bad_f = np.zeros(edges.shape[0], dtype=bool)
    bad_b = np.zeros(edges.shape[0], dtype=bool)
    bad_f[f] = bad[: f.size]
    bad_b[b] = bad[f.size :]
    return bad_f, bad_b


def _epsilon_core(
    p: np.ndarray,
    edges: np.ndarray,
    one_way: bool,
    dlt: float,
    estimates: tuple[np.ndarray, np.ndarray] | None = None,
    classes: Callable[[], np.ndarray] | None = None,
) -> float:
    """The proved smallest ε over the edges (u, v) of the rows ``p`` (both orders unless
    ``one_way``): the one computation behind :func:`epsilon_for_delta`, for a mechanism's graph
    and for pairs of distributions (:mod:`rainbowdp._pairs`).

    No recursion, and bounded exact work: the ordered edges are first grouped into classes of
    equal pairs (:func:`rainbowdp._groups.group_arcs`; one arc per class stands for all), then
    solved directly (:func:`_epsilon_direct`), or from :data:`_FILTER_MIN_EDGES` distinct arcs
    on by a sample and one filtering pass (:func:`_epsilon_filtered`). ``estimates`` are
    :func:`_log_estimates` of these edges when already computed (for a batch of pairs, in one
    vectorised pass): the edges are then solved directly as given. ``classes`` gives the row
    classes of ``p`` when a mechanism remembers them."""
    n_e = edges.shape[0]
    if n_e == 0:
        return 0.0
    if n_e == 1 and 2 * p.shape[1] <= EXACT_WORK:
        # one edge (a pair): both orders solved exactly, which proves the answer by itself
        # (see _epsilon_direct) and needs no estimate
        u, v = (int(x) for x in edges[0])
        heads, tails = (np.array([u]), np.array([v])) if one_way else (
            np.array([u, v]), np.array([v, u]))  # fmt: skip
        worst = _exact_candidates(p, heads, tails, dlt)
        return math.inf if worst is None else worst
    if estimates is not None:
        return _epsilon_direct(p, edges, one_way, dlt, estimates)
    arcs = _distinct_arcs(p, edges, one_way, classes)
    if dlt == 0.0:
        return _epsilon_at_zero(p, arcs)
    if arcs.shape[0] > _FILTER_MIN_EDGES:
        return _epsilon_filtered(p, arcs, dlt)
    return _epsilon_direct(p, arcs, True, dlt)


def _epsilon_at_zero(p: np.ndarray, arcs: np.ndarray) -> float:
    r"""ε(0) of the arcs (a, b): the log of the largest likelihood ratio
    :math:`\max_{(a,b),v} P_a(v)/P_b(v)` (at least 1; infinite where some
    :math:`P_b(v) = 0 < P_a(v)`), rounded up and proved, in one float pass over the arcs.

    :math:`H_x(P_a\|P_b) = 0` iff :math:`x \ge P_a(v)/P_b(v)` for every v, so ε(0) is the log
    of that maximum :math:`r^*`. Each float ratio errs by at most one rounding
    (:math:`u = 2^{-53}` relative; an overflow to ``inf`` is kept as a candidate), so every
    (arc, output) attaining :math:`r^*` has a float ratio at least :math:`(1 - 2^{-50})` times
    the float maximum. Those candidates are compared exactly, once per distinct pair of values
    :math:`(P_a(v), P_b(v))`, and :func:`_log_up` of the exact maximum is returned: the value
    :func:`pair_epsilon_exact` gives each pair at δ = 0, maximised."""
    best = 0.0
    for _, pa, pb in endpoint_rows(p, arcs[:, 0], arcs[:, 1]):
        if bool(np.any((pb == 0) & (pa > 0))):
            return math.inf  # exact: a float zero is a zero
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            r = np.where(pb > 0, pa / np.where(pb > 0, pb, 1.0), 0.0)
        best = max(best, float(r.max(initial=0.0)))
    if best == 0.0:
        return 0.0
    cut = best * (1.0 - 2.0**-50)
    pairs: set[tuple[float, float]] = set()
    for _, pa, pb in endpoint_rows(p, arcs[:, 0], arcs[:, 1]):
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            r = np.where(pb > 0, pa / np.where(pb > 0, pb, 1.0), 0.0)
        hit = r >= cut
        if hit.any():
            cand = np.unique(np.stack([pa[hit], pb[hit]], axis=1), axis=0)
            pairs.update(map(tuple, cand.tolist()))
    x = max(Fraction(a) / Fraction(b) for a, b in pairs)
    return _log_up(x) if x > 1 else 0.0


def _distinct_arcs(
    p: np.ndarray,
    edges: np.ndarray,
    one_way: bool,
    classes: Callable[[], np.ndarray] | None = None,
) -> np.ndarray:
    """The ordered edges (both orders of each edge unless ``one_way``) as arcs (n, 2), one per
    class of equal pairs of rows (:func:`rainbowdp._groups.group_arcs`) from
    :data:`~rainbowdp._groups.GROUP_MIN_ARCS` arcs on: every ε of this module is the maximum
    of a function of the pair alone, so the representatives give the same value."""
    arcs = edges if one_way else np.concatenate([edges, edges[:, ::-1]])
    if arcs.shape[0] < GROUP_MIN_ARCS:
        return arcs
    reps, _ = group_arcs(p, arcs[:, 0], arcs[:, 1], classes)
    return arcs if reps.size == arcs.shape[0] else arcs[reps]


def _epsilon_direct(
    p: np.ndarray,
    edges: np.ndarray,
    one_way: bool,
    dlt: float,
    estimates: tuple[np.ndarray, np.ndarray] | None = None,
) -> float:
    """:func:`_epsilon_core` on every given edge: each order estimated in floats, the
    near-maximal ones solved exactly (at most :data:`_EPS_EXACT_WORK` entries per round), the
    result proved on all; when near-ties remain after :data:`_EPS_ROUNDS` rounds, every order
    is solved exactly if that fits :data:`_LAST_RESORT_WORK`, and otherwise the estimate is
    raised in floats until proved (:func:`_raised_until_proved`: an upper bound, not the exact
    value, with a :class:`~rainbowdp.exceptions.NotExactWarning`)."""
    if estimates is None:
        cand, err = _log_estimates(p, edges, one_way, dlt)
    else:
        cand, err = (x.copy() for x in estimates)
    heads = (edges[:, 0], edges[:, 1])
    tails = (edges[:, 1], edges[:, 0])

    def pairs(dirs: np.ndarray, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (
            np.where(dirs == 0, heads[0][idx], heads[1][idx]),
            np.where(dirs == 0, tails[0][idx], tails[1][idx]),
        )

    inf_pairs = np.isposinf(cand)  # -inf: an unconstrained reverse order
    if inf_pairs.any() and _surely_infinite(p, *pairs(*np.nonzero(inf_pairs)), dlt):
        return math.inf
    if inf_pairs.any():  # decide "infinite" exactly: float sums of the zero-Q mass may round
        worst = _exact_candidates(p, *pairs(*np.nonzero(inf_pairs)), dlt)
        if worst is None:
            return math.inf
        cand[inf_pairs], err[inf_pairs] = worst, 0.0
    # The directed edges that may attain the maximum are recomputed exactly (tightness);
    # the others keep their float estimate, raised by the bump. Then everything is proved.
    floor = float(np.max(cand - err))
    maybe = np.flatnonzero(((cand + err >= floor) & (cand > -np.inf)).ravel())
    limit = max(1, _EPS_EXACT_WORK // p.shape[1])
    if maybe.size > limit:  # the most likely maxima; the rest are covered by bump and proof
        maybe = maybe[np.argsort(-(cand + err).ravel()[maybe])[:limit]]
    exact_eps = _exact_candidates(p, *pairs(*np.unravel_index(maybe, cand.shape)), dlt)
    if exact_eps is None:  # pragma: no cover - infinite pairs were decided above
        return math.inf
    rest = np.ones(cand.size, dtype=bool)
    rest[maybe] = False
    if not np.any(cand.ravel()[rest] > -np.inf):
        # Every constrained order was solved exactly: its exact x satisfies H_x <= δ and
        # L(exact_eps) >= x (_log_up), so H_L <= δ on each -- the proof below would find nothing
        # unproven (and its work, maybe.size * q <= _EPS_EXACT_WORK, is within EXACT_WORK).
        return exact_eps
    eps_hat = max(exact_eps, _bumped(float(cand.ravel()[rest].max(initial=0.0))))
    n_dirs = int(np.count_nonzero(cand > -np.inf))
    for round_ in range(_EPS_ROUNDS):
        if round_ == 0 and eps_hat == exact_eps and n_dirs * p.shape[1] <= EXACT_WORK:
            # At eps_hat = exact_eps the orders solved exactly are proved (see above); with the
            # work within EXACT_WORK, unproven() decides "H_L > δ" exactly for every order, so
            # asking it about the other orders only gives the same masks.
            todo = rest.reshape(cand.shape) & (cand > -np.inf)
            bad_f, bad_b = _unproven_orders(p, edges, todo, dlt, eps_hat)
        else:
            bad_f, bad_b, _ = unproven(
                p, edges, _enclose(eps_hat), dlt, max_work=EXACT_WORK, one_way=one_way
            )
        n_bad = int(bad_f.sum() + bad_b.sum())
        if n_bad == 0:
            return eps_hat
        if n_bad > limit:  # many near-ties: move away from them in floats
            eps_hat = eps_hat + _EPS_BUMP * 16 ** (round_ + 1) * max(1.0, eps_hat)
            continue
        a = np.concatenate([heads[0][bad_f], heads[1][bad_b]])
        b = np.concatenate([tails[0][bad_f], tails[1][bad_b]])
        worst = _exact_candidates(p, a, b, dlt)
        if worst is None:  # pragma: no cover - infinite pairs were decided above
            return math.inf
        eps_hat = max(eps_hat, worst)
    if n_dirs * p.shape[1] > _LAST_RESORT_WORK:
        return _raised_until_proved(p, edges, one_way, dlt, eps_hat, n_dirs)
    # last resort (many near-ties with a flat slope): every directed edge in exact arithmetic;
    # the exact maximum is proved by itself (and tight), so it replaces the raised estimate
    if one_way:
        worst = _exact_candidates(p, heads[0], tails[0], dlt)
    else:
        worst = _exact_candidates(
            p, np.concatenate([heads[0], heads[1]]), np.concatenate([tails[0], tails[1]]), dlt
        )
    return math.inf if worst is None else worst


#: Entries (directed edges times outputs) up to which :func:`_epsilon_direct` solves every
#: order exactly as its last resort (about 2 s of rational arithmetic); beyond, it raises the
#: estimate in floats until proved (:func:`_raised_until_proved`).
_LAST_RESORT_WORK = 200_000


def _raised_until_proved(
    p: np.ndarray, edges: np.ndarray, one_way: bool, dlt: float, eps_hat: float, n_dirs: int
) -> float:
    r"""A proved upper bound on the smallest ε from the unproven estimate ``eps_hat``, in a
    bounded number of float passes, flagged by a
    :class:`~rainbowdp.exceptions.NotExactWarning` (it may exceed the exact value by more than
    the documented :math:`10^{-10}` relative).

    The estimate is raised geometrically (by :math:`2^{-45} 16^r \max(1, \epsilon)`, r = 5,
    6, ...) until :func:`unproven` (within :data:`EXACT_WORK`) proves every order; within 16
    raises ε passes every finite log-ratio of float64 rows (:math:`2^{-45} 16^{20} = 2^{35}`),
    where every order is proved zero. The interval between the last unproved and the first
    proved value is then halved :data:`_BISECTIONS` times in floats alone (no exact work),
    keeping the proved end.
    """
    lo = hi = eps_hat
    for round_ in range(_EPS_ROUNDS, _EPS_ROUNDS + 16):
        lo, hi = hi, hi + _EPS_BUMP * 16 ** (round_ + 1) * max(1.0, hi)
        if _all_proved(p, edges, one_way, dlt, hi):
            break
    else:  # pragma: no cover - beyond every finite log-ratio every order is proved
        hi = math.inf
    for _ in range(_BISECTIONS if math.isfinite(hi) else 0):
        mid = lo + (hi - lo) / 2
        if not lo < mid < hi:
            break
        if _all_proved(p, edges, one_way, dlt, mid, 0):
            hi = mid
        else:
            lo = mid
    warnings.warn(
        f"epsilon_for_delta: {n_dirs} near-tied ordered edges exceed the exact-work budget; "
        f"returning the proved upper bound {hi!r}, not the exact smallest epsilon.",
        NotExactWarning,
        stacklevel=4,
    )
    return hi


#: Halvings of the bracket of :func:`_raised_until_proved` (each one float pass).
_BISECTIONS = 24


def _all_proved(
    p: np.ndarray,
    edges: np.ndarray,
    one_way: bool,
    dlt: float,
    eps: float,
    max_work: int = EXACT_WORK,
) -> bool:
    """Whether :func:`unproven` (with ``max_work``) proves :math:`H_L \\le \\delta` on every
    order at ``eps``."""
    return not unproven(p, edges, _enclose(eps), dlt, max_work=max_work, one_way=one_way).any()


#: Arcs of a strided sample solved first by :func:`_epsilon_filtered` (twice this many), and
#: the number of distinct arcs from which :func:`_epsilon_core` starts with such a sample.
_FILTER_SAMPLE = 2048
_FILTER_MIN_EDGES = 4 * _FILTER_SAMPLE
#: Below this δ, :func:`_epsilon_filtered` proves edges by exact zeros rather than float bounds.
_FILTER_ZERO_DELTA = 2.0**-40


def _epsilon_filtered(p: np.ndarray, arcs: np.ndarray, dlt: float) -> float:
    r""":func:`_epsilon_core` of many arcs: a sample first, then one filtering pass.

    The proved ε of a strided sample of the arcs, :math:`\epsilon_S`, is nearly the exact
    :math:`\epsilon_S^*` (raised by about :math:`2^{-45}`). One float pass at
    :math:`\epsilon' = \epsilon_S - 2^{-40}\max(1, \epsilon_S)` (:func:`unproven` with no
    exact work) proves :math:`H_{L'} \le \delta` for most arcs, so each of them has its exact
    :math:`x_e \le L' < e^{\epsilon_S^*}`: none of them is the maximiser, and each is proved
    at every ε whose lower enclosure is at least :math:`L'`. The sample and the arcs left over
    are then solved directly (:func:`_epsilon_direct`). The maximiser is among them, so the
    value is the one the direct solve gives on all arcs (the one exception: many near-ties
    moved away from in floats, where both are proved upper bounds); it is accepted only if its
    lower enclosure is at least :math:`L'`, and otherwise every arc is solved directly. No
    call recurses: the work is two direct solves at most.
    """
    n_a = arcs.shape[0]
    sample = np.unique(np.linspace(0, n_a - 1, 2 * _FILTER_SAMPLE).astype(np.intp))
    s_arcs = arcs[sample]
    eps_s = _epsilon_direct(p, s_arcs, True, dlt)
    if math.isinf(eps_s):
        return eps_s
    eps_f = max(0.0, eps_s - 2.0**-40 * max(1.0, eps_s))
    enc = _enclose(eps_f)
    todo = arcs
    if dlt < _FILTER_ZERO_DELTA:
        # δ ~ 0: the float filter cannot prove H_L <= δ, but an exact zero can
        # (multiplier_below), which leaves far fewer arcs to certified_zero
        fwd, _ = directed_divergences(p, arcs, *multiplier_below(enc), one_way=True)
        keep = fwd > 0
        odd = irregular_rows(p)
        if odd.size:
            keep |= np.isin(arcs[:, 0], odd) | np.isin(arcs[:, 1], odd)
        todo = arcs[keep]
    bad = unproven(p, todo, enc, dlt, max_work=0, one_way=True).forward
    left = np.concatenate([s_arcs, todo[bad]])
    if left.shape[0] < n_a:
        result = _epsilon_direct(p, left, True, dlt)
        if math.isinf(result) or (result >= eps_f and _enclose(result).lo >= _enclose(eps_f).lo):
            return result
    return _epsilon_direct(p, arcs, True, dlt, _log_estimates(p, arcs, True, dlt))


def pdp_delta(mechanism: Mechanism, epsilon: float) -> float:
    r"""Probabilistic-DP leakage (Kadam et al., Definition 2, eqs. (3) and (7)).

    .. math::

        \delta^\epsilon = \max_{d \sim d'} \sum_v P_d(v)\,
        \mathbf 1[P_d(v) > e^\epsilon P_{d'}(v)]

    over both orientations of every edge. A mechanism is (ε, δ)-PDP iff this is at most δ;
    PDP implies DP (Kadam et al., Theorem 1).

    Every comparison is decided soundly -- in float where a rigorous error bound settles it,
    otherwise in exact arithmetic against rational bounds on :math:`e^\epsilon` -- and a
    comparison that remains undecidable is counted as leaking; the leaked mass is summed
    exactly and rounded up. The result is never below the exact leakage.

    Examples
    --------
    >>> from rainbowdp.graph import RainbowGraph
    >>> G = RainbowGraph.line(["yes", "no"], 1)
    >>> M = Mechanism(G, [[0.75, 0.25], [0.25, 0.75]])
    >>> pdp_delta(M, 1.0), pdp_delta(M, 1.2)
    (0.75, 0.0)
    >>> pdp_delta(M, math.log(3))    # a tie P = e^eps Q does not leak (strict inequality)
    0.0
    """
    m = check_mechanism(mechanism)
    enc = enclose_exp(check_epsilon(epsilon))
    p = m.probabilities
    edges = m.graph.edges
    if edges.shape[0] == 0:
        return 0.0
    if m.graph.directed:  # arcs: one order only
        return pdp_leakage_upper(p, edges[:, 0], edges[:, 1], enc)
    a = np.concatenate([edges[:, 0], edges[:, 1]])
    b = np.concatenate([edges[:, 1], edges[:, 0]])
    return pdp_leakage_upper(p, a, b, enc)
