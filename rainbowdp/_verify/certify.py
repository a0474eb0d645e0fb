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
filters (see :func:`certify`, Notes); only the edges that they cannot settle, and the float worst
edge, are recomputed with Python integers.
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
        >>> from rainbowdp.graph import RainbowGraph
        >>> M = Mechanism(RainbowGraph.line(["yes", "no"], 1), [[0.75, 0.25], [0.25, 0.75]])
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

    Notes
    -----
    **Exact quantity.** :math:`\delta^* = \max_{d\sim d'}\max\{H_x(P_d\|P_{d'}),
    H_x(P_{d'}\|P_d)\}` at :math:`x = e^\epsilon`, the smallest δ for which the stored mechanism
    is (ε, δ)-DP (Gu et al., Definition 2). With :math:`L \le x \le U` from
    :func:`exp_bounds` and H non-increasing in x, every directed edge has
    :math:`H_U \le H_x \le H_L`, computed exactly with Python integers (probabilities scaled by
    :math:`2^{1074}`, L and U by :math:`2^{200}`).

    **Verdicts.** Let q be the number of outputs, :math:`\beta` = ``float_error_bound(q)`` and
    :math:`\eta` = ``float_error`` (below), and let
    :math:`t = \mathrm{fl}(\delta + \mathrm{fl}(\text{tol} + \beta))` be the number ``verify``
    compares each float edge divergence :math:`\hat H` with. Then

    * ``"private"`` iff ``delta_upper`` :math:`\le \delta`: proved (ε, δ)-DP, no tolerance.
    * ``"not private"`` iff ``delta_lower`` :math:`> t + \max(\eta, \beta)` (``threshold``,
      about :math:`\delta + \text{tol} + 2\beta`).
    * ``"undecided"`` otherwise: :math:`\delta^*` may lie in the band
      :math:`(\delta, t + \max(\eta, \beta)]`.

    A float verdict "private" is never contradicted: it means :math:`\hat H \le t` on every
    directed edge, hence :math:`H_y \le t + \eta` for all :math:`y \in [L, U]` and every edge,
    so no lower bound exceeds ``threshold``.

    **Float error bound** :math:`\eta`. ``verify`` evaluates :math:`\hat H` at
    :math:`\hat x = m\,2^k` (:func:`rainbowdp._verify.kernels.scaled_exp`: ``math.exp(epsilon)`` up
    to ε = 700, a scaled float above, so that no product overflows; :math:`2^k Q` is exact and the
    product rounds once). Per output, with unit round-off :math:`u = 2^{-53}` and absolute
    underflow error :math:`\tau \le 2^{-1075}`, the computed
    :math:`\max\{\mathrm{fl}(P - \mathrm{fl}(\hat x Q)), 0\}` differs from
    :math:`\max\{P - \hat xQ, 0\}` by at most :math:`2u(1 + 4u)P + 2\tau` (a non-zero term has
    :math:`\hat x Q \le (P + \tau)/(1 - u)`; the product and the difference each underflow by
    at most τ), and the sum of q non-negative terms adds
    :math:`\gamma_{q-1} \le (q-1)u(1 + 2^{-32})` times their sum :math:`\le S`, the largest row
    sum. Moving x from :math:`\hat x` to any :math:`y \in [L, U]` changes H by at most
    :math:`|y - \hat x|\, Q(\{P > m Q\}) \le |y - \hat x|\, S / m` with
    :math:`m = \min(L, \hat x)`. Hence

    .. math::

        \eta = (q + 2)\,u\,S\,(1 + 2^{-30}) + 2q\tau
               + \frac{\max(U, \hat x) - \min(L, \hat x)}{\min(L, \hat x)}\,S

    (S rounded up). When ``math.exp`` is faithful, :math:`\eta \le \beta`.

    **Large ε.** Every positive float64 probability is at least :math:`2^{-1074}` and every
    entry is below 2, so for :math:`e^\epsilon \ge 2^{1075}` (ε >= 746 is used) every term with
    :math:`Q(v) > 0` is negative and :math:`H` is the P-mass where Q vanishes, whatever ε. There
    ``exp_lower == exp_upper == 2**2200`` -- a stand-in with the same divergences, not a bound
    on :math:`e^\epsilon` -- and the certificate is exact; no cost grows with ε.

    **Filter (default mode).** A directed edge needs no exact work if either

    1. :math:`\hat H \le c`, the largest float with :math:`c + \eta \le \delta`: then
       :math:`H_y \le \delta` for all :math:`y \in [L, U]` (so also in exact mode), and
       :math:`\max(\hat H - \eta, 0) \le H_y \le \hat H + \eta`;
    2. for every output :math:`P(v) \le \mathrm{pred}(\mathrm{fl}(\ell Q(v)))`, where
       :math:`\ell \le L` is a float and pred the next float towards 0: round-to-nearest gives
       :math:`\ell Q(v) > \mathrm{pred}(\mathrm{fl}(\ell Q(v)))` (also for subnormals and
       overflow), so :math:`P(v) \le L Q(v)` and :math:`H_L = H_U = 0` exactly. This settles
       pure-DP checks (δ = 0) with slack without exact work.

    Edges whose two directions are settled are *filtered*; all others, and the edge with the
    largest :math:`\hat H`, are recomputed exactly (``edges_checked_exactly``). Filtered edges
    have :math:`H_L \le \delta` and :math:`H_U \le \delta \le` ``threshold``, so they can neither
    prevent "private" nor cause "not private": both modes give the same verdict. The largest
    filtered lower bound :math:`\hat H - \eta` is at most the exact :math:`H_U` of the float worst
    edge, so ``delta_lower`` is exact-mode quality; ``delta_upper`` takes
    :math:`\max(\hat H + \eta)` over filtered edges, and can exceed the exact-mode value by at
    most :math:`2\eta` while staying :math:`\le \delta`.

    **Early proof of a violation.** If the float worst edge has :math:`\hat H - \eta >`
    ``threshold``, the verdict is "not private" in both modes (its :math:`H_U` exceeds
    ``threshold``); then no edge needs recomputing for the verdict, and every edge outside the
    band below contributes :math:`\hat H + \eta` to ``delta_upper``.

    **The band of the maximum.** In both cases every edge whose float divergence is within
    :math:`2\eta` of the float maximum :math:`\hat H(w)` is recomputed exactly (unless it is
    certified exactly zero): the exact maximiser :math:`e^*` of :math:`H_U` satisfies
    :math:`\hat H(e^*) \ge H_U(e^*) - \eta \ge H_U(w) - \eta \ge \hat H(w) - 2\eta`, so it is
    among them, and ``delta_lower`` equals the exact-mode value.

    References
    ----------
    .. [1] Y. Gu et al., "Generalized rainbow differential privacy", Definition 2.
    .. [2] N. J. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., SIAM, 2002,
       §2.2 and §4.2 (rounding model, summation error :math:`\gamma_{n}`).

    Examples
    --------
    >>> from rainbowdp.graph import RainbowGraph
    >>> G = RainbowGraph.line(["yes", "no"], 1)
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
    q = g.n_outputs
    enc = enclose_exp(eps)
    lo_num, hi_num, lo, hi = enc.lo_num, enc.hi_num, enc.lo, enc.hi
    beta = float_error_bound(q)
    eta = float_error(p, enc)
    verify_cut = dlt + (t + beta)  # the float number verify() compares with
    threshold = Fraction(verify_cut) + max(eta, Fraction(beta))
    d_frac = Fraction(dlt)
    n_e = edges.shape[0]

    def result(
        verdict: Verdict, lower: Fraction, upper: Fraction, worst: tuple | None, n_exact: int
    ) -> Certificate:
        return Certificate(
            verdict, eps, dlt, t, lower, upper, worst, n_exact, threshold, lo, hi, eta
        )

    if n_e == 0:
        return result(Verdict.PRIVATE, Fraction(0), Fraction(0), None, 0)

    lower = Fraction(0)
    upper = Fraction(0)
    if exact:
        check = np.arange(n_e)
    else:
        fwd, bwd = directed_divergences(p, edges, enc.m, enc.k, one_way=g.directed)
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
        check = np.flatnonzero(~filtered)

    best_low = -1
    best_up = -1
    worst: tuple | None = None
    if check.size:
        nodes_needed, inverse = np.unique(edges[check], return_inverse=True)
        rows = int_rows(p[nodes_needed])
        pairs = inverse.reshape(-1, 2)
        for start in range(0, pairs.shape[0], _EXACT_CHUNK):
            blk = pairs[start : start + _EXACT_CHUNK]
            a, b = rows[blk[:, 0]], rows[blk[:, 1]]
            f_lo = exact_divergences(a, b, hi_num)  # H_U: lower bound
            f_up = exact_divergences(a, b, lo_num)  # H_L: upper bound
            if g.directed:  # arcs: the reverse order is not constrained
                b_lo = b_up = np.full(f_lo.shape, -1, dtype=object)
            else:
                b_lo = exact_divergences(b, a, hi_num)
                b_up = exact_divergences(b, a, lo_num)
            lows = np.where(b_lo > f_lo, b_lo, f_lo)
            ups = np.where(b_up > f_up, b_up, f_up)
            i = int(np.argmax(lows))
            if lows[i] > best_low:
                best_low = int(lows[i])
                e = check[start + i]
                u, v = int(edges[e, 0]), int(edges[e, 1])
                if b_lo[i] > f_lo[i]:
                    u, v = v, u
                worst = (g.nodes[u], g.nodes[v])
            best_up = max(best_up, int(ups.max()))
        scale = 1 << (P_SHIFT + EXP_BITS)
        lower = max(lower, Fraction(best_low, scale))
        upper = max(upper, Fraction(best_up, scale))
    if upper <= d_frac:
        verdict = Verdict.PRIVATE
    elif lower > threshold:
        verdict = Verdict.NOT_PRIVATE
    else:
        verdict = Verdict.UNDECIDED
    return result(verdict, lower, upper, worst, int(check.size))
