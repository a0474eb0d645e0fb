r"""Exact certification of a privacy verdict in rational arithmetic.

:func:`rainbowdp.privacy.verify` decides (ε, δ)-DP in float64 with a rigorous slack.
:func:`certify` re-decides it for the *exact* rational numbers stored in the mechanism: every
float64 probability is a dyadic rational, and :math:`e^\epsilon` (irrational for every float
ε > 0) is enclosed in rational bounds :math:`L \le e^\epsilon \le U` (:func:`exp_bounds`). Since
the hockey-stick divergence :math:`x \mapsto H_x(P\|Q) = \sum_v \max\{P(v) - xQ(v), 0\}` is
non-increasing in x,

.. math::

    H_U(P\|Q) \;\le\; H_{e^\epsilon}(P\|Q) \;\le\; H_L(P\|Q),

and both sides are exact rationals. The answer is one of three verdicts: ``"private"`` (proved),
``"not private"`` (proved, and beyond the float verifier's tolerance), or ``"undecided"`` (the
exact δ required lies in the tolerance band, where the float verdict is not a proof either way).

Exact arithmetic over millions of edges is slow, so most edges are settled by two rigorous float
filters; only the edges that they cannot settle, and those near the float maximum, are recomputed
with Python integers. The proof is in ``docs/verification.md``, section "Certification: the
proof".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

import numpy as np

from .._validation import check_delta, check_epsilon, check_int, check_nonnegative_float
from ..exceptions import ParameterError, ParameterTypeError
from ..mechanism import Mechanism, check_mechanism
from .exact import (
    EXP_BITS,
    P_SHIFT,
    ExpEnclosure,
    certified_zero,
    enclose_exp,
    exact_divergences,
    exp_scaled,
    float_at_most,
    float_error,
    int_rows,
)
from .kernels import directed_divergences, float_error_bound

__all__ = ["Certificate", "Verdict", "certify", "exp_bounds"]

#: Largest ε accepted by :func:`exp_bounds`: its bounds have about 1.44 ε + ``bits`` bits.
EXP_BOUNDS_MAX_EPSILON = 1e5
#: Directed edges per block of the exact (Python-integer) computation.
_EXACT_CHUNK = 2048


class Verdict(StrEnum):
    """Outcome of :func:`certify`; compares equal to its string value."""

    PRIVATE = "private"
    NOT_PRIVATE = "not private"
    UNDECIDED = "undecided"


@dataclass(frozen=True)
class Certificate:
    r"""Result of :func:`certify`.

    Attributes
    ----------
    verdict : Verdict
        ``"private"`` iff ``delta_upper <= delta``; ``"not private"`` iff
        ``delta_lower > threshold``; otherwise ``"undecided"``.
    epsilon, delta, tol : float
        The parameters certified.
    delta_lower, delta_upper : fractions.Fraction
        Rigorous bounds on the exact δ required at this ε,
        :math:`\delta^* = \max_{d \sim d'} H_{e^\epsilon}(P_d \| P_{d'})` over both directions of
        every edge, for the exact rationals of the stored probabilities.
    worst_edge : tuple or None
        Directed edge ``(d, d')`` with the largest exact lower bound :math:`H_U(P_d\|P_{d'})`
        among the edges checked exactly; ``None`` for a graph without edges.
    edges_checked_exactly : int
        Number of (undirected) edges recomputed in exact arithmetic.
    threshold : fractions.Fraction
        Exact δ required above which the mechanism is declared not private: the number
        :func:`~rainbowdp.privacy.verify` compares with (``delta + tol + float_error_bound(q)``,
        evaluated in float64 as ``verify`` does) plus the larger of ``float_error`` and
        ``float_error_bound(q)``.
    exp_lower, exp_upper : fractions.Fraction
        The bounds :math:`L \le e^\epsilon \le U` used (for ε >= 746 both are the stand-in
        :math:`2^{2200}`, see Notes).
    float_error : fractions.Fraction
        Rigorous bound on :math:`|\hat H - H_y|` for every directed edge and every
        :math:`y \in [L, U]`, where :math:`\hat H` is the float64 divergence ``verify`` computes.
    """

    verdict: Verdict
    epsilon: float
    delta: float
    tol: float
    delta_lower: Fraction
    delta_upper: Fraction
    worst_edge: tuple | None
    edges_checked_exactly: int
    threshold: Fraction
    exp_lower: Fraction
    exp_upper: Fraction
    float_error: Fraction

    def __str__(self) -> str:
        return (
            f"({self.epsilon:g}, {self.delta:g})-DP certified {self.verdict.value}: exact "
            f"delta required in [{float(self.delta_lower):.17g}, "
            f"{float(self.delta_upper):.17g}] ({self.edges_checked_exactly} edge(s) checked "
            "exactly)"
        )

    def to_dict(self) -> dict:
        """The certificate as plain Python (floats, ints, strings, lists), e.g. for JSON.

        The exact fractions become floats rounded outwards, so the float interval still
        encloses the exact value: ``delta_lower`` and ``exp_lower`` are rounded down,
        ``delta_upper``, ``exp_upper``, ``threshold`` and ``float_error`` up (``exp_lower``
        and ``exp_upper`` may be ``inf`` for large ε; see
        :func:`rainbowdp.interop.nonfinite_to_null` for strict JSON). The exact values stay on
        the object. ``verdict`` is its string value; ``worst_edge`` a list of nodes (see
        :func:`rainbowdp.interop.plain`).

        Examples
        --------
        >>> from rainbowdp import builders
        >>> M = Mechanism(builders.line(["yes", "no"], 1), [[0.75, 0.25], [0.25, 0.75]])
        >>> d = certify(M, epsilon=1.0, delta=0.1).to_dict()
        >>> d["verdict"], d["delta_lower"] <= d["delta_upper"], d["worst_edge"]
        ('private', True, [0, 1])
        """
        from .._format import plain
        from .exact import float_at_least, float_at_most

        return {
            "verdict": str(self.verdict.value),
            "epsilon": float(self.epsilon),
            "delta": float(self.delta),
            "tol": float(self.tol),
            "delta_lower": float_at_most(self.delta_lower),
            "delta_upper": float_at_least(self.delta_upper),
            "worst_edge": plain(self.worst_edge),
            "edges_checked_exactly": int(self.edges_checked_exactly),
            "threshold": float_at_least(self.threshold),
            "exp_lower": float_at_most(self.exp_lower),
            "exp_upper": float_at_least(self.exp_upper),
            "float_error": float_at_least(self.float_error),
        }


# ---------------------------------------------------------------------- e^ε in rationals
def exp_bounds(epsilon: float, *, bits: int = EXP_BITS) -> tuple[Fraction, Fraction]:
    r"""Rational bounds :math:`L \le e^\epsilon \le U` with denominators :math:`2^{\text{bits}}`.

    ε is taken as the exact rational value of the float64 ``epsilon``.

    Parameters
    ----------
    epsilon : float
        ε >= 0.
    bits : int, default 200
        Denominator exponent, in [16, 100000].

    Returns
    -------
    (Fraction, Fraction)
        ``(L, U)``; ``L == U == 1`` for ε = 0, otherwise ``L < U`` and
        :math:`U - L \le 2^{-\text{bits}} (2 + 2^{-10} e^\epsilon)`.

    Raises
    ------
    ParameterTypeError, ParameterError
        If ``epsilon`` is not a finite number in [0, 1e5] (the cost grows with the size of
        :math:`e^\epsilon`, about 1.44 ε bits) or ``bits`` not an integer in range.

    Notes
    -----
    With :math:`r = \epsilon / 2^s < 2^{-8}`, :math:`e^r` is enclosed by its Taylor partial sum
    (every term positive) and the partial sum plus the tail bound
    :math:`\sum_{j > n} r^j/j! \le 2\, r^{n+1}/(n+1)!`; each term is rounded down (lower) or up
    (upper) to a multiple of :math:`2^{-k}`, so the enclosure survives the rounding. Squaring s
    times, rounding outward each time, gives :math:`e^\epsilon`; the working precision
    :math:`k = \text{bits} + s + 16` absorbs the doubling of the relative error per squaring.

    Examples
    --------
    >>> lo, hi = exp_bounds(1.0)
    >>> lo < hi, float(lo) <= math.e <= float(hi), float(hi - lo) < 1e-59
    (True, True, True)
    >>> exp_bounds(0.0)
    (Fraction(1, 1), Fraction(1, 1))
    """
    eps = check_epsilon(epsilon)
    b = check_int(bits, "bits", minimum=16, maximum=100_000)
    if eps > EXP_BOUNDS_MAX_EPSILON:
        raise ParameterError(
            f"`epsilon` must be at most {EXP_BOUNDS_MAX_EPSILON:g} for exp_bounds (the bounds "
            f"would have about {1.44 * eps:.3g} bits), got epsilon={epsilon!r}."
        )
    lo, hi = exp_scaled(Fraction(eps), b)
    return Fraction(lo, 1 << b), Fraction(hi, 1 << b)


# ---------------------------------------------------------------------- certify
def certify(
    mechanism: Mechanism,
    *,
    epsilon: float,
    delta: float = 0.0,
    tol: float = 0.0,
    exact: bool = False,
) -> Certificate:
    r"""Certify (ε, δ)-DP of ``mechanism`` in exact rational arithmetic.

    Decides for the exact rationals of the stored probabilities and the real :math:`e^\epsilon`
    whether :math:`\delta^* = \max_{d\sim d'}\max\{H_{e^\epsilon}(P_d\|P_{d'}),
    H_{e^\epsilon}(P_{d'}\|P_d)\} \le \delta` (Gu et al., Definition 2; one order for the arcs of
    a directed graph), from the rational bounds :math:`H_U \le H_{e^\epsilon} \le H_L` with
    :math:`L \le e^\epsilon \le U` from :func:`exp_bounds`. The verdict is

    * ``"private"`` iff ``delta_upper <= delta``: proved (ε, δ)-DP, no tolerance;
    * ``"not private"`` iff ``delta_lower > threshold`` (about δ + ``tol`` +
      2 ``float_error_bound(q)``): proved, and beyond the float verifier's tolerance, so a float
      verdict "private" of :func:`~rainbowdp.privacy.verify` is never contradicted;
    * ``"undecided"`` otherwise.

    Most edges are settled by two rigorous float filters (a float divergence at most δ minus its
    proved error bound η, or every output proved to satisfy :math:`P(v) \le L\,Q(v)`); the rest,
    and every edge within 2η of the float maximum, are recomputed with Python integers, so both
    modes give the same verdict and the same ``delta_lower``. For ε >= 746 the divergences are
    the P-mass where Q vanishes and the certificate is exact. The proof of each step (η, the
    filters, the large-ε stand-in, the band of the maximum) is in ``docs/verification.md``,
    section "Certification: the proof".

    Parameters
    ----------
    mechanism : Mechanism
        The mechanism; its float64 probabilities are taken as exact rationals.
    epsilon : float
        ε >= 0 (the exact rational value of the float).
    delta : float, default 0
        δ in [0, 1] (the exact rational value of the float).
    tol : float, default 0
        The tolerance that :func:`~rainbowdp.privacy.verify` was (or would be) given: it widens
        the band of required δ reported ``"undecided"`` rather than ``"not private"``.
    exact : bool, default False
        Check every edge in exact arithmetic (no float filter). Meant for small graphs and for
        cross-checking the filtered mode, which returns the same verdict.

    Returns
    -------
    Certificate

    Raises
    ------
    TypeError
        If ``mechanism`` is not a :class:`~rainbowdp.mechanism.Mechanism` or an option has the
        wrong type.
    ValueError
        If ``epsilon``, ``delta`` or ``tol`` is out of range.

    References
    ----------
    .. [1] Y. Gu et al., "Generalized rainbow differential privacy", Definition 2.
    .. [2] N. J. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., SIAM, 2002,
       §2.2 and §4.2 (rounding model, summation error :math:`\gamma_{n}`).

    Examples
    --------
    >>> from rainbowdp import builders
    >>> G = builders.line(["yes", "no"], 1)
    >>> M = Mechanism(G, [[0.75, 0.25], [0.25, 0.75]])
    >>> certify(M, epsilon=math.log(3.5)).verdict
    <Verdict.PRIVATE: 'private'>
    >>> c = certify(M, epsilon=0.0, delta=0.5)    # exact tie: H = 1/2 exactly at e^0 = 1
    >>> c.verdict == "private", c.delta_lower == c.delta_upper == Fraction(1, 2)
    (True, True)
    >>> certify(M, epsilon=math.log(2.9)).verdict
    <Verdict.NOT_PRIVATE: 'not private'>
    """
    check_mechanism(mechanism, "mechanism")
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    t = check_nonnegative_float(tol, "tol")
    if not isinstance(exact, bool):
        raise ParameterTypeError(f"`exact` must be a bool, got exact={exact!r}.")
    g = mechanism.graph
    p = mechanism.probabilities
    edges = g.edges
    enc = enclose_exp(eps)
    beta = float_error_bound(g.n_outputs)
    eta = float_error(p, enc)
    verify_cut = dlt + (t + beta)  # the float number verify() compares with
    threshold = Fraction(verify_cut) + max(eta, Fraction(beta))
    d_frac = Fraction(dlt)
    n_e = edges.shape[0]

    lower = upper = Fraction(0)
    worst: tuple | None = None
    if n_e == 0:
        check = np.arange(0)
    elif exact:
        check = np.arange(n_e)
    else:
        check, lower, upper = _float_filter(p, edges, g.directed, enc, eta, d_frac, threshold)
    if check.size:
        low, up, w = _exact_pass(p, edges, check, g.directed, enc)
        lower, upper = max(lower, low), max(upper, up)
        worst = (g.nodes[w[0]], g.nodes[w[1]])
    if upper <= d_frac:
        verdict = Verdict.PRIVATE
    elif lower > threshold:
        verdict = Verdict.NOT_PRIVATE
    else:
        verdict = Verdict.UNDECIDED
    return Certificate(
        verdict, eps, dlt, t, lower, upper, worst, int(check.size), threshold, enc.lo, enc.hi, eta
    )


def _float_filter(
    p: np.ndarray,
    edges: np.ndarray,
    directed: bool,
    enc: ExpEnclosure,
    eta: Fraction,
    d_frac: Fraction,
    threshold: Fraction,
) -> tuple[np.ndarray, Fraction, Fraction]:
    """The edges :func:`certify` must recompute exactly, and the bounds of the others.

    The float filter of ``docs/verification.md`` ("Certification: the proof"): an edge whose
    two directions are settled by a float divergence at most δ - η or by a certified exact zero
    is filtered, unless it is the float worst edge or within 2η of the float maximum (and not
    exactly zero). Returns ``(check, lower, upper)``: the indices of the edges to recompute and
    the bounds contributed by the filtered ones (``Fraction(0)`` when there are none).
    """
    n_e = edges.shape[0]
    fwd, bwd = directed_divergences(p, edges, enc.m, enc.k, one_way=directed)
    cut = float_at_most(d_frac - eta) if d_frac >= eta else -1.0
    worst_float = int(np.argmax(np.maximum(fwd, bwd)))
    # Smallest float v with v - eta >= threshold: a divergence above it is a proof.
    v_cut = -float_at_most(-(threshold + eta))
    violated = bool(max(fwd[worst_float], bwd[worst_float]) > v_cut)
    settled = []
    bound = []
    for h, a_col, b_col in ((fwd, 0, 1), (bwd, 1, 0)):
        by_float = h <= cut
        if violated:  # verdict settled: float bounds suffice away from the worst edge
            settled.append(np.ones(n_e, dtype=bool))
            bound.append(h)
            continue
        zero = np.zeros(n_e, dtype=bool)
        need = np.flatnonzero(~by_float | (h == 0.0))  # h == 0: try to prove an exact 0
        if need.size:
            zero[need] = certified_zero(p, edges[need, a_col], edges[need, b_col], enc)
        settled.append(by_float | zero)
        # Largest float value whose edge bound is h +/- eta (zero-certified: exactly 0).
        bound.append(np.where(by_float & ~zero, h, -np.inf))
    filtered = settled[0] & settled[1]
    filtered[worst_float] = False
    # The exact maximiser e* of H_U is within 2 eta of the float maximum:
    # h(e*) >= H_U(e*) - eta >= H_U(w) - eta >= h(w) - 2 eta. Recompute every such edge
    # (bar those certified exactly zero), so delta_lower is the exact-mode value.
    h_max = float(max(fwd[worst_float], bwd[worst_float]))
    band_cut = float_at_most(Fraction(h_max) - 2 * eta)
    near = np.maximum(fwd, bwd) >= band_cut
    exact_zero = (bound[0] == -np.inf) & (bound[1] == -np.inf)
    filtered &= ~(near & ~exact_zero)
    lower = upper = Fraction(0)
    if filtered.any():
        top = float(
            max(
                np.max(bound[0], where=filtered, initial=-np.inf),
                np.max(bound[1], where=filtered, initial=-np.inf),
            )
        )
        if top > -math.inf:
            upper = Fraction(top) + eta
            lower = max(lower, Fraction(top) - eta)
    return np.flatnonzero(~filtered), lower, upper


def _exact_pass(
    p: np.ndarray, edges: np.ndarray, check: np.ndarray, directed: bool, enc: ExpEnclosure
) -> tuple[Fraction, Fraction, tuple[int, int]]:
    """Exact bounds over the edges ``check`` (at least one), in Python integers.

    Returns ``(lower, upper, (u, v))``: the largest :math:`H_U` and :math:`H_L` over both orders
    of the edges (one order for arcs), and the node indices of the ordered edge attaining the
    largest :math:`H_U`.
    """
    best_low = -1
    best_up = -1
    worst = (-1, -1)
    nodes_needed, inverse = np.unique(edges[check], return_inverse=True)
    rows = int_rows(p[nodes_needed])
    pairs = inverse.reshape(-1, 2)
    for start in range(0, pairs.shape[0], _EXACT_CHUNK):
        blk = pairs[start : start + _EXACT_CHUNK]
        a, b = rows[blk[:, 0]], rows[blk[:, 1]]
        f_lo = exact_divergences(a, b, enc.hi_num)  # H_U: lower bound
        f_up = exact_divergences(a, b, enc.lo_num)  # H_L: upper bound
        if directed:  # arcs: the reverse order is not constrained
            b_lo = b_up = np.full(f_lo.shape, -1, dtype=object)
        else:
            b_lo = exact_divergences(b, a, enc.hi_num)
            b_up = exact_divergences(b, a, enc.lo_num)
        lows = np.where(b_lo > f_lo, b_lo, f_lo)
        ups = np.where(b_up > f_up, b_up, f_up)
        i = int(np.argmax(lows))
        if lows[i] > best_low:
            best_low = int(lows[i])
            e = check[start + i]
            u, v = int(edges[e, 0]), int(edges[e, 1])
            worst = (v, u) if b_lo[i] > f_lo[i] else (u, v)
        best_up = max(best_up, int(ups.max()))
    scale = 1 << (P_SHIFT + EXP_BITS)
    return Fraction(best_low, scale), Fraction(best_up, scale), worst
