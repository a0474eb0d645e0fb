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
``verify(...).delta_required``, :func:`dp_delta`, :func:`privacy_profile`, :func:`hockey_stick`,
:func:`epsilon_for_delta` and :func:`pdp_delta` return floats *at least* the exact value for the
stored (dyadic rational) probabilities and the real :math:`e^\epsilon`, computed with the
rigorous filters and exact integer arithmetic of :mod:`rainbowdp._verify.exact`. The verdicts of
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

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._validation import (
    check_delta,
    check_deltas,
    check_epsilon,
    check_epsilons,
    check_nonnegative_float,
    check_probability_vector,
)
from ._verify import pairs
from ._verify.delta import classes_of, profile_core
from ._verify.epsilon import epsilon_core
from ._verify.exact import (
    EXACT_WORK,
    compare_exp,
    delta_upper,
    enclose,
    enclose_exp,
    float_error_of,
    pdp_delta_upper,
)
from ._verify.kernels import (
    directed_divergences,
    float_error_bound,
    scaled_exp,
    scaled_product,
)
from ._verify.report import report_dict, report_html, report_repr, report_text
from .exceptions import ParameterError
from .mechanism import Mechanism, check_mechanism

__all__ = [
    "VerificationReport",
    "are_close",
    "dp_delta",
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
        return pairs.batch_hockey_stick(p, q if epsilon is None else epsilon)
    a, b = _as_pair(p, q)
    eps = np.array([check_epsilon(epsilon)])
    pair = np.empty((1, 2, a.shape[0]))
    pair[0, 0], pair[0, 1] = a, b
    return float(pairs.pair_profiles(pair, eps, True, float(pair.min()))[0, 0])


def are_close(p: Any, q: Any, epsilon: float, delta: float, *, tol: float = 0.0) -> bool:
    r"""Whether P and Q are (ε, δ)-close (Gu et al., Definition 2), in both directions.

    A float decision, like :func:`verify`: ``tol`` is added to δ together with
    :func:`float_error_bound`.

    Examples
    --------
    >>> import math
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
        return report_text(self)

    def __repr__(self) -> str:
        return report_repr(self, int(self.edge_deltas.shape[0]))

    def _repr_html_(self) -> str:
        return report_html(self, int(self.edge_deltas.shape[0]))

    def to_pandas(self, G: Any = None) -> Any:
        """The per-edge table: one row per edge, its δ required at :attr:`epsilon`.

        Parameters
        ----------
        G : RainbowGraph, optional
            The verified mechanism's graph: adds the columns ``u`` and ``v`` (the nodes of
            each edge, as in ``G.edges``).

        Returns
        -------
        pandas.DataFrame
            Columns ``edge`` (the row of ``G.edges``), ``u``, ``v`` (with ``G``),
            ``delta`` (:attr:`edge_deltas`) and ``violates``
            (``delta > self.delta + self.tolerance``).

        Raises
        ------
        ImportError
            If pandas is not installed.
        ParameterError
            If ``G`` does not have one edge per entry of :attr:`edge_deltas`.

        Examples
        --------
        >>> from rainbowdp import builders
        >>> G = builders.line(["yes", "no"], 2)
        >>> M = Mechanism(G, [[0.5, 0.5], [0.55, 0.45], [0.6, 0.4]])
        >>> df = verify(M, epsilon=0.05).to_pandas(G)
        >>> list(df.columns), df[["u", "v"]].values.tolist(), df["violates"].tolist()
        (['edge', 'u', 'v', 'delta', 'violates'], [[0, 1], [1, 2]], [True, True])
        """
        from ._format import dataframe
        from .graph import check_graph

        deltas = self.edge_deltas.tolist()
        limit = self.delta + self.tolerance
        records: list[dict[str, Any]] = [
            {"edge": e, "delta": d, "violates": d > limit} for e, d in enumerate(deltas)
        ]
        columns = ["edge", "delta", "violates"]
        if G is not None:
            check_graph(G, "G")
            if G.n_edges != len(deltas):
                raise ParameterError(
                    f"`G` must be the verified mechanism's graph, with {len(deltas)} "
                    f"edges, got a graph with {G.n_edges} edges."
                )
            nodes = G.nodes
            for rec, (u, v) in zip(records, G.edges.tolist(), strict=True):
                rec["u"], rec["v"] = nodes[u], nodes[v]
            columns = ["edge", "u", "v", "delta", "violates"]
        return dataframe(records, columns, "VerificationReport.to_pandas()")

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
        >>> from rainbowdp import builders
        >>> G = builders.line(["yes", "no"], 2)
        >>> M = Mechanism(G, [[0.5, 0.5], [0.55, 0.45], [0.6, 0.4]])
        >>> d = verify(M, epsilon=0.05).to_dict()
        >>> d["is_private"], round(d["delta_required"], 6), d["worst_edge"], d["witness"]
        (False, 0.029492, [1, 2], ['no'])
        >>> json.loads(json.dumps(d)) == d
        True
        """
        out = report_dict(self)
        out["n_edges"] = int(self.edge_deltas.shape[0])
        if edge_deltas:
            out["edge_deltas"] = self.edge_deltas.tolist()
        return out


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
    >>> import math
    >>> from rainbowdp import builders
    >>> G = builders.line(["yes", "no"], 2)
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
    enc = enclose(eps)
    edge_deltas = np.empty(edges.shape[0])
    fwd, bwd = directed_divergences(p, edges, enc.m, enc.k, one_way=g.directed, largest=edge_deltas)
    w = int(np.argmax(edge_deltas))
    u, v = int(edges[w, 0]), int(edges[w, 1])
    if bwd[w] > fwd[w]:
        u, v = v, u
    if edges.shape[0] <= _PAIR_EDGES and 2 * g.n_outputs <= EXACT_WORK and enc.k == 0:
        # a few edges: each as a pair (rainbowdp._verify.pairs), the same exact value
        rows = p[edges]
        worst = float(pairs.pair_profiles(rows, np.array([eps]), g.directed, rows.min()).max())
    else:
        eta = float_error_of(m._row_sum_max(), g.n_outputs, enc)
        worst = delta_upper(p, edges, enc, fwd, bwd, eta, edge_deltas, classes_of(m))
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


#: Edges up to which :func:`verify` finds ``delta_required`` pair by pair (the pair path's
#: exact values, which are the graph path's bit for bit): fewer fixed costs than the band.
_PAIR_EDGES = 8


def privacy_profile(
    mechanism: Any, epsilons: Sequence[float] | np.ndarray, *, one_way: bool = False
) -> np.ndarray:
    r"""The privacy profile :math:`\delta(\epsilon) = \max_{d\sim d'} H_{e^\epsilon}` at each ε.

    Parameters
    ----------
    mechanism : Mechanism, pair of array_like, or array_like of shape (2, q) or (E, 2, q)
        A mechanism; or two distributions (P, Q), read as neighbours in both directions (a
        two-node graph with one edge: δ(ε) is the larger of :math:`H(P\|Q)` and
        :math:`H(Q\|P)`); or a batch of E such pairs (:mod:`rainbowdp._verify.pairs`). Pairs need no
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
    >>> import math
    >>> from rainbowdp import builders
    >>> G = builders.line(["yes", "no"], 1)
    >>> M = Mechanism(G, [[0.75, 0.25], [0.25, 0.75]])
    >>> privacy_profile(M, [0.0, math.log(3)]).tolist()
    [0.5, 0.0]
    >>> privacy_profile(([0.75, 0.25], [0.25, 0.75]), [0.0, math.log(3)]).tolist()
    [0.5, 0.0]
    """
    if not isinstance(mechanism, Mechanism):
        return pairs.pairs_privacy_profile(mechanism, epsilons, one_way=one_way)
    _no_one_way(one_way)
    m = check_mechanism(mechanism)
    eps = check_epsilons(epsilons)
    if m.graph.n_edges == 0:
        return np.zeros(eps.shape)
    return profile_core(m.probabilities, m.graph.edges, m.graph.directed, eps, m)


def dp_delta(mechanism: Mechanism, epsilon: float) -> float:
    r"""The exact (ε, δ)-DP δ of ``mechanism`` at one ε, rounded up.

    :math:`\delta(\epsilon) = \max_{d \sim d'} H_{e^\epsilon}(P_d \| P_{d'})` over both
    orders of every edge (one order for the arcs of a directed graph): the smallest δ for which
    the mechanism is (ε, δ)-DP (Gu et al., Definition 2). It is the privacy profile at one point,
    :func:`privacy_profile` ``(mechanism, [epsilon])[0]``, and the same number as
    ``verify(mechanism, epsilon=epsilon).delta_required``: the smallest float at least the exact
    value for the stored probabilities and the real :math:`e^\epsilon` (never under-reported).

    Parameters
    ----------
    mechanism : Mechanism
        The mechanism.
    epsilon : float
        ε >= 0 (finite).

    Returns
    -------
    float
        δ(ε), at least the exact value.

    Examples
    --------
    >>> import math
    >>> from rainbowdp import builders
    >>> G = builders.line(["yes", "no"], 1)
    >>> M = Mechanism(G, [[0.75, 0.25], [0.25, 0.75]])
    >>> dp_delta(M, 0.0), dp_delta(M, math.log(3))
    (0.5, 0.0)
    """
    m = check_mechanism(mechanism)
    return float(privacy_profile(m, np.array([check_epsilon(epsilon)]))[0])


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
    (:mod:`rainbowdp._verify.pairs`). Pairs need no graph and give the same numbers, bit for bit, as
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
    e^{\hat\epsilon}` (:mod:`rainbowdp._verify.exact`). Edges that fail are recomputed in exact
    rational arithmetic and the estimate raised to cover them. The result :math:`\hat\epsilon`
    therefore makes the mechanism (ε̂, δ)-DP exactly, and exceeds the exact
    :math:`\epsilon^*` by about :math:`10^{-13}\max(1, \epsilon^*)`, and by at most
    :math:`2^{-45} 16^3 \max(1, \epsilon) \approx 10^{-10}\max(1, \epsilon)` when more near-tied
    edges than the exact work budget must be moved away from in floats.

    Examples
    --------
    >>> import math
    >>> from rainbowdp import builders
    >>> G = builders.line(["yes", "no"], 1)
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
        return pairs.pairs_epsilon_for_delta(mechanism, delta, one_way=one_way)
    _no_one_way(one_way)
    m = check_mechanism(mechanism)
    deltas, scalar = check_deltas(delta)
    if scalar:
        return _epsilon_for_delta(m, deltas[0])
    return np.array([_epsilon_for_delta(m, d) for d in deltas])


def _epsilon_for_delta(m: Mechanism, dlt: float) -> float:
    """:func:`epsilon_for_delta` for one validated δ."""
    return epsilon_core(
        m.probabilities, m.graph.edges, m.graph.directed, dlt, classes=classes_of(m)
    )


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
    >>> import math
    >>> from rainbowdp import builders
    >>> G = builders.line(["yes", "no"], 1)
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
        return pdp_delta_upper(p, edges[:, 0], edges[:, 1], enc)
    a = np.concatenate([edges[:, 0], edges[:, 1]])
    b = np.concatenate([edges[:, 1], edges[:, 0]])
    return pdp_delta_upper(p, a, b, enc)
