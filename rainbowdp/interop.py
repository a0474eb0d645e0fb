r"""Hand-off to other differential-privacy libraries, and plain-data reports.

A mechanism on a rainbow graph is a family of output distributions :math:`P_d`, one per
dataset, and its (ε, δ)-DP is decided pair by pair over the neighbour relation (Gu et al.,
Definition 2). Accountants such as Google's ``dp_accounting`` work on *one* pair of
distributions at a time -- its privacy loss distribution (PLD) -- and compose PLDs. This module
makes that hand-off:

* :func:`pair` and :func:`worst_pair` give a :class:`Pair`: two nodes and their two PMFs, in
  the order of ``graph.outputs``, with the direction(s) the neighbour relation constrains;
  :func:`worst_pair` takes it from the verifier's own report (:func:`rainbowdp.privacy.verify`
  at ε, or the pair that needs the largest proved :func:`~rainbowdp.privacy.epsilon_for_delta`
  at δ), so it is the pair rainbowdp reports, not a float recomputation.
* :func:`to_dp_accounting` exports a pair as a ``dp_accounting`` ``PrivacyLossDistribution``
  and :func:`compose` composes k releases there. ``dp_accounting`` is an optional dependency
  (``pip install "rainbowdp[accounting]"``); importing this module does not import it.
* :func:`plain` and :func:`nonfinite_to_null` turn results into plain Python (the ``to_dict``
  methods of :class:`~rainbowdp.privacy.VerificationReport`,
  :class:`~rainbowdp.design.DesignResult` and :class:`~rainbowdp.Certificate` use them), for
  JSON, pandas or a notebook.

**What the exported numbers mean.** The numbers returned by ``dp_accounting`` are its own: the
privacy losses :math:`\ln(P_a(v)/P_b(v))` are rounded *up* to multiples of
``value_discretization_interval`` Δ (``pessimistic_estimate=True``), which can only increase
every hockey-stick divergence, so for one release

.. math::

    \delta(\epsilon) \;\le\; \delta_{\mathrm{dp\_accounting}}(\epsilon)
    \;\le\; \delta(\epsilon - \Delta)

(each loss moves up by at most Δ, which is the same as evaluating the exact divergence at
ε − Δ), up to float64 rounding in ``dp_accounting`` and in the logarithms of the exported
probabilities. rainbowdp's own numbers (:func:`~rainbowdp.privacy.privacy_profile`,
:func:`~rainbowdp.privacy.epsilon_for_delta`) are exact upper bounds; those of
``dp_accounting`` are float estimates that err on the safe side only through the
discretisation.

References
----------
Gu et al., "Generalized rainbow differential privacy", Definition 2 (closeness of two
distributions, hence per-pair divergences). S. Meiser, E. Mohammadi, "Tight on budget? Tight
bounds for r-fold approximate differential privacy", CCS 2018 (privacy buckets: pessimistic
discretisation of the privacy loss). V. Doroshenko, B. Ghazi, P. Kamath, R. Kumar,
P. Manurangsi, "Connect the dots: tighter discrete approximations of privacy loss
distributions", PoPETs 2022 (the PLDs of ``dp_accounting``). Y. Zhu, J. Dong, Y.-X. Wang,
"Optimal accounting of differential privacy via characteristic function", AISTATS 2022
(dominating pairs: one pair need not be worst for every ε or every number of compositions).
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from ._deprecation import deprecated_alias
from ._format import format_up, html_table, nonfinite_to_null, plain, short_repr
from ._validation import (
    check_delta,
    check_epsilon,
    check_int,
    check_nonnegative_float,
    check_probability_vector,
)
from ._verify.kernels import endpoint_rows
from .exceptions import ParameterError, ParameterTypeError
from .graph import RainbowGraph
from .mechanism import ROW_ATOL, Mechanism, check_mechanism
from .privacy import epsilon_for_delta, privacy_profile, verify

__all__ = [
    "DEFAULT_DISCRETIZATION",
    "INSTALL_HINT",
    "MAX_PAIRS",
    "Composition",
    "Pair",
    "compose",
    "nonfinite_to_null",
    "pair",
    "plain",
    "to_dp_accounting",
    "worst_pair",
]

#: Default ``value_discretization_interval`` Δ of the exported PLDs (``dp_accounting``'s own
#: default): every privacy loss is rounded up to a multiple of Δ, so δ(ε) is over-estimated by at
#: most δ(ε − Δ) − δ(ε).
DEFAULT_DISCRETIZATION = 1e-4
#: How to install the optional dependency.
INSTALL_HINT = 'pip install "rainbowdp[accounting]"'
#: Default limit on the number of distinct neighbouring pairs :func:`compose` composes.
MAX_PAIRS = 1000
#: ε at which the verifier's divergence is the P-mass where Q vanishes (e^ε beyond every
#: likelihood ratio of float64 probabilities; see :mod:`rainbowdp.privacy`).
_SATURATED_EPSILON = 1000.0
#: Relative gap below the proved ε(δ) at which :func:`worst_pair` looks for the binding pairs:
#: larger than the overshoot of :func:`~rainbowdp.privacy.epsilon_for_delta` (at most about
#: 2^-33 max(1, ε)), so the binding pair violates δ there.
_GAP = 2.0**-30
#: Directed pairs whose proved ε(δ) :func:`worst_pair` computes, at most.
_CANDIDATES = 16


# ------------------------------------------------------------------------------ pairs
@dataclass(frozen=True, eq=False)
class Pair:
    r"""Two datasets and their output distributions: what a per-pair accountant takes.

    Attributes
    ----------
    a, b : hashable
        The two nodes, ordered so that :math:`P_a(S) - e^\epsilon P_b(S)` is the constrained
        (for :func:`worst_pair`: the larger) divergence :math:`H_{e^\epsilon}(P_a\|P_b)`.
    p_a, p_b : numpy.ndarray
        Their PMFs (float64, read-only), in the order of ``outputs``.
    outputs : tuple
        The output set, the column order of the mechanism's graph (default ``0..q-1``).
    order : numpy.ndarray
        (2, q) output indices of the two rainbows (most preferred first), as ``graph.order``
        (default: both ``0..q-1``). Rainbows play no part in privacy; they make
        :attr:`mechanism` a mechanism of the same rainbows.
    one_way : bool
        Whether only :math:`P_a(S) \le e^\epsilon P_b(S) + \delta` is constrained: ``a -> b`` is
        an arc of a directed graph and ``b -> a`` is not (see
        :attr:`~rainbowdp.graph.RainbowGraph.directed`). Otherwise both orders are.
    neighbours : bool
        Whether ``a`` and ``b`` are neighbours (joined by an edge or an arc) in the graph.

    Raises
    ------
    ParameterError, ParameterTypeError
        If a PMF is not a probability vector (finite, non-negative, summing to 1 within
        :data:`~rainbowdp.mechanism.ROW_ATOL`), the two differ in length, ``a == b``, or
        ``outputs`` / ``order`` do not fit.

    Examples
    --------
    >>> P = Pair("d", "d'", [0.75, 0.25], [0.25, 0.75])
    >>> P.outputs, P.dp_delta(0.0), P.epsilon(0.0) >= math.log(3)
    ((0, 1), 0.5, True)
    """

    a: Hashable
    b: Hashable
    p_a: np.ndarray = field(repr=False)
    p_b: np.ndarray = field(repr=False)
    outputs: tuple | None = field(default=None, repr=False)
    order: np.ndarray | None = field(default=None, repr=False)
    one_way: bool = False
    neighbours: bool = True

    def __post_init__(self) -> None:
        if self.a == self.b:
            raise ParameterError(
                f"`a` and `b` must be two distinct nodes, got a={self.a!r} and b={self.b!r}."
            )
        pa = check_probability_vector(self.p_a, "p_a", atol=ROW_ATOL).copy()
        q = pa.shape[0]
        pb = check_probability_vector(self.p_b, "p_b", size=q, atol=ROW_ATOL).copy()
        outputs = tuple(range(q)) if self.outputs is None else tuple(self.outputs)
        if len(outputs) != q:
            raise ParameterError(
                f"`outputs` must have {q} entries (one per probability), got {len(outputs)}: "
                f"outputs={self.outputs!r}."
            )
        order = np.tile(np.arange(q), (2, 1)) if self.order is None else np.array(self.order)
        if order.shape != (2, q) or not np.array_equal(
            np.sort(order, axis=1), np.tile(np.arange(q), (2, 1))
        ):
            raise ParameterError(
                f"`order` must be two permutations of range({q}) (shape (2, {q})), got "
                f"order={self.order!r}."
            )
        for name in ("one_way", "neighbours"):
            if not isinstance(getattr(self, name), bool | np.bool_):
                raise ParameterTypeError(
                    f"`{name}` must be a bool, got {name}={getattr(self, name)!r}."
                )
        for arr in (pa, pb, order):
            arr.setflags(write=False)
        for name, value in (("p_a", pa), ("p_b", pb), ("outputs", outputs), ("order", order)):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "one_way", bool(self.one_way))
        object.__setattr__(self, "neighbours", bool(self.neighbours))

    @property
    def _outputs(self) -> tuple:
        """:attr:`outputs`, set (to a tuple) by the constructor."""
        return self.outputs if self.outputs is not None else tuple(range(self.p_a.shape[0]))

    @cached_property
    def mechanism(self) -> Mechanism:
        """The pair as a mechanism on a two-node graph: one edge ``a -- b``, or the arc
        ``a -> b`` when :attr:`one_way`; every function of :mod:`rainbowdp.privacy` applies.

        Examples
        --------
        >>> from rainbowdp.builders import count_path
        >>> from rainbowdp.noise import randomized_response
        >>> P = pair(randomized_response(count_path(2), epsilon=1.0), 0, 2)
        >>> P.mechanism.graph.nodes, P.neighbours
        ([0, 2], False)
        """
        g = RainbowGraph.from_edges(
            [[0, 1]],
            outputs=self._outputs,
            rainbow_table=self.order,
            rainbow_ids=[0, 1],
            nodes=[self.a, self.b],
            directed=self.one_way,
        )
        return Mechanism(g, np.stack([self.p_a, self.p_b]))

    def dp_delta(self, epsilon: float) -> float:
        r"""The smallest δ at ε for this pair (both constrained orders), never under-reported:
        :func:`~rainbowdp.privacy.privacy_profile` of the two PMFs (the same number as
        :func:`~rainbowdp.privacy.dp_delta` of :attr:`mechanism`, without building it)."""
        eps = [check_epsilon(epsilon)]
        return float(privacy_profile((self.p_a, self.p_b), eps, one_way=self.one_way)[0])

    delta = deprecated_alias(dp_delta, "Pair.delta", "Pair.dp_delta")

    def epsilon(self, delta: float) -> float:
        """The smallest ε at δ for this pair, rounded up and proved:
        :func:`~rainbowdp.privacy.epsilon_for_delta` of the two PMFs (the same number as for
        :attr:`mechanism`, without building it)."""
        dlt = check_delta(delta)
        return float(epsilon_for_delta((self.p_a, self.p_b), dlt, one_way=self.one_way))

    def to_dict(self) -> dict:
        """Plain data (see :func:`plain`): nodes, outputs, the two PMFs and the direction flags.

        Examples
        --------
        >>> from rainbowdp.builders import count_path
        >>> from rainbowdp.noise import randomized_response
        >>> d = pair(randomized_response(count_path(1), epsilon=math.log(3)), 0, 1).to_dict()
        >>> d["a"], d["b"], d["outputs"], [round(x, 9) for x in d["p_a"]], d["one_way"]
        (0, 1, [0, 1], [0.75, 0.25], False)
        """
        return {
            "a": plain(self.a),
            "b": plain(self.b),
            "outputs": plain(self.outputs),
            "p_a": self.p_a.tolist(),
            "p_b": self.p_b.tolist(),
            "one_way": self.one_way,
            "neighbours": self.neighbours,
        }

    def __repr__(self) -> str:
        return (
            f"Pair(a={short_repr(self.a, 30)}, b={short_repr(self.b, 30)}, "
            f"{self.p_a.shape[0]} outputs, one_way={self.one_way}, "
            f"neighbours={self.neighbours})"
        )

    def _repr_html_(self) -> str:
        arrow = "->" if self.one_way else "--"
        rows = [
            [short_repr(o, 20), f"{x:.6g}", f"{y:.6g}"]
            for o, x, y in zip(
                self._outputs[:20], self.p_a[:20].tolist(), self.p_b[:20].tolist(), strict=True
            )
        ]
        return html_table(
            f"Pair {short_repr(self.a, 30)} {arrow} {short_repr(self.b, 30)}"
            + ("" if self.neighbours else " (not neighbours)"),
            ["output", f"P_a ({short_repr(self.a, 20)})", f"P_b ({short_repr(self.b, 20)})"],
            rows,
            n_rows=self.p_a.shape[0],
        )


def _arc(g: RainbowGraph, i: int, j: int) -> bool:
    """Whether (i, j) is a row of ``g.edges`` (for an undirected graph, either order)."""
    e = g.edges
    if not g.directed and i > j:
        i, j = j, i
    return bool(np.any((e[:, 0] == i) & (e[:, 1] == j)))


def _node(g: RainbowGraph, node: Any, name: str) -> int:
    try:
        return g.node_index[node]
    except (KeyError, TypeError):
        raise ParameterError(
            f"`{name}` must be a node of the mechanism's graph, got {name}={node!r}."
        ) from None


def pair(mechanism: Mechanism, a: Hashable, b: Hashable) -> Pair:
    r"""The pair of nodes ``(a, b)`` of ``mechanism`` and their two output distributions.

    Parameters
    ----------
    mechanism : Mechanism
    a, b : hashable
        Two distinct nodes of its graph, in this order.

    Returns
    -------
    Pair
        ``one_way`` is true when the graph is directed, ``a -> b`` is an arc and ``b -> a`` is
        not. Two nodes that are not neighbours give a two-way pair with ``neighbours=False``
        (e.g. for group privacy).

    Raises
    ------
    ParameterError
        If ``a`` or ``b`` is not a node, ``a == b``, or in a directed graph only the arc
        ``b -> a`` joins them (then the constrained order is ``pair(mechanism, b, a)``).
    ParameterTypeError
        If ``mechanism`` is not a :class:`~rainbowdp.mechanism.Mechanism`.

    Examples
    --------
    >>> from rainbowdp.builders import from_records
    >>> from rainbowdp.noise import randomized_response
    >>> G = from_records([0, 1], size=1, query=sum, outputs=[0, 1], relation="add_only")
    >>> M = randomized_response(G, epsilon=1.0)
    >>> G.directed, pair(M, (), (1,)).one_way
    (True, True)
    """
    m = check_mechanism(mechanism)
    g = m.graph
    i, j = _node(g, a, "a"), _node(g, b, "b")
    if i == j:
        raise ParameterError(f"`a` and `b` must be two distinct nodes, got a={a!r} and b={b!r}.")
    forward = _arc(g, i, j)
    backward = forward if not g.directed else _arc(g, j, i)
    if g.directed and backward and not forward:
        raise ParameterError(
            f"only the arc b -> a joins a={a!r} and b={b!r} in this directed graph: it constrains "
            "P_b(S) <= e^eps P_a(S) + delta; use pair(mechanism, b, a)."
        )
    p = m.probabilities
    return Pair(
        a=g.nodes[i],
        b=g.nodes[j],
        p_a=p[i],
        p_b=p[j],
        outputs=g.outputs,
        order=np.asarray(g.order[[i, j]]),
        one_way=bool(g.directed and forward and not backward),
        neighbours=forward or backward,
    )


def _one_of(epsilon: Any, delta: Any) -> tuple[float | None, float | None]:
    if (epsilon is None) == (delta is None):
        raise ParameterError(
            f"give exactly one of `epsilon` and `delta`, got epsilon={epsilon!r} and "
            f"delta={delta!r}."
        )
    if epsilon is not None:
        return check_epsilon(epsilon), None
    return None, check_delta(delta)


def worst_pair(
    mechanism: Mechanism, epsilon: float | None = None, delta: float | None = None
) -> Pair:
    r"""The neighbouring pair that needs the largest δ at ε, or the largest ε at δ.

    Give exactly one of ``epsilon`` and ``delta``.

    * At ε: the ``worst_edge`` of :func:`rainbowdp.privacy.verify` -- the edge and direction
      ``a -> b`` with the largest :math:`H_{e^\epsilon}(P_a\|P_b)` (Gu et al., Definition 2).
      Its divergence is the report's ``delta_required``; the choice among edges is made on the
      verifier's float divergences, so edges within :func:`~rainbowdp.privacy.float_error_bound`
      of the maximum count as tied.
    * At δ: a pair whose proved :func:`~rainbowdp.privacy.epsilon_for_delta` is the largest, so
      ``worst_pair(M, delta=d).epsilon(d)`` equals ``epsilon_for_delta(M, d)`` up to the
      upward rounding of each proved value (about :math:`10^{-13}` relative). The binding
      edges are those the verifier finds violating δ just below the proved ε* (at
      :math:`\epsilon^*(1 - 2^{-30})`); the directed pairs of at most 16 of them, those with the
      largest divergences there, are solved exactly one by one and the largest taken. If more
      than 16 edges are that close, any of them is within :math:`2^{-30}` (relative) of ε*.
      When ε* = 0 every edge attains it and the pair with the largest divergence at ε = 0 is
      returned; when ε* is infinite, the pair with the most mass where the other vanishes.

    The worst pair depends on ε (or δ): it is not in general worst at another ε, nor after
    composition (see :func:`compose`, which takes every pair).

    Parameters
    ----------
    mechanism : Mechanism
        A mechanism on a graph with at least one edge.
    epsilon : float, optional
        ε >= 0.
    delta : float, optional
        δ in [0, 1].

    Returns
    -------
    Pair
        Ordered as the binding direction ``a -> b``; two-way for an undirected edge, one-way
        for an arc.

    Raises
    ------
    ParameterError
        If both or neither of ``epsilon`` and ``delta`` are given, one is out of range, or the
        graph has no edge.
    ParameterTypeError
        If ``mechanism`` is not a :class:`~rainbowdp.mechanism.Mechanism`.

    Examples
    --------
    >>> from rainbowdp import builders
    >>> G = builders.line(["yes", "no"], 2)
    >>> M = Mechanism(G, [[0.5, 0.5], [0.55, 0.45], [0.6, 0.4]])
    >>> P = worst_pair(M, epsilon=0.05)
    >>> (P.a, P.b), P.p_a.tolist(), P.p_b.tolist()
    ((1, 2), [0.55, 0.45], [0.6, 0.4])
    >>> P.dp_delta(0.05) == verify(M, epsilon=0.05).delta_required
    True
    >>> P = worst_pair(M, delta=0.0)
    >>> P.epsilon(0.0) == epsilon_for_delta(M, 0.0)
    True
    """
    m = check_mechanism(mechanism)
    eps, dlt = _one_of(epsilon, delta)
    g = m.graph
    if g.n_edges == 0:
        raise ParameterError("`mechanism` must be on a graph with at least one edge (a pair).")
    if eps is not None:
        a, b = verify(m, epsilon=eps).worst_edge  # type: ignore[misc]
        return pair(m, a, b)
    assert dlt is not None
    eps_star = float(epsilon_for_delta(m, dlt))
    if eps_star == 0.0 or math.isinf(eps_star):
        a, b = verify(m, epsilon=0.0 if eps_star == 0.0 else _SATURATED_EPSILON).worst_edge  # type: ignore[misc]
        return pair(m, a, b)
    below = max(0.0, eps_star - _GAP * max(1.0, eps_star))
    rep = verify(m, epsilon=below, delta=dlt)
    cand = np.flatnonzero(rep.edge_deltas >= dlt - rep.tolerance)
    cand = cand[np.argsort(-rep.edge_deltas[cand], kind="stable")][:_CANDIDATES]
    best: tuple[float, int, int] | None = None
    directions = ((0, 1),) if g.directed else ((0, 1), (1, 0))
    for e in cand.tolist():
        for s, t in directions:
            i, j = int(g.edges[e, s]), int(g.edges[e, t])
            one = Pair(
                a=g.nodes[i],
                b=g.nodes[j],
                p_a=m.probabilities[i],
                p_b=m.probabilities[j],
                outputs=g.outputs,
                order=np.asarray(g.order[[i, j]]),
                one_way=True,
            )
            x = one.epsilon(dlt)
            if best is None or x > best[0]:
                best = (x, i, j)
    if best is None:  # pragma: no cover - the binding edge violates delta below eps*
        a, b = rep.worst_edge  # type: ignore[misc]
        return pair(m, a, b)
    return pair(m, g.nodes[best[1]], g.nodes[best[2]])


def _resolve(mechanism_or_pair: Any, epsilon: Any, delta: Any) -> Pair:
    if isinstance(mechanism_or_pair, Pair):
        if epsilon is not None or delta is not None:
            raise ParameterError(
                "`epsilon` and `delta` select the worst pair of a mechanism; with a Pair give "
                f"neither, got epsilon={epsilon!r} and delta={delta!r}."
            )
        return mechanism_or_pair
    if not isinstance(mechanism_or_pair, Mechanism):
        raise ParameterTypeError(
            "`mechanism_or_pair` must be a Mechanism or a Pair, got "
            f"{type(mechanism_or_pair).__name__}: {mechanism_or_pair!r}."
        )
    return worst_pair(mechanism_or_pair, epsilon, delta)


# ------------------------------------------------------------------------------ dp_accounting
def _pld_module() -> Any:
    """``dp_accounting.pld.privacy_loss_distribution``, or an ImportError saying how to get it."""
    try:
        from dp_accounting.pld import privacy_loss_distribution
    except ImportError as exc:
        raise ImportError(
            "this function needs the optional package dp_accounting; install it with "
            f"{INSTALL_HINT}"
        ) from exc
    return privacy_loss_distribution


def _check_interval(value: Any) -> float:
    x = check_nonnegative_float(value, "value_discretization_interval")
    if x <= 0:
        raise ParameterError(
            "`value_discretization_interval` must be > 0, got "
            f"value_discretization_interval={value!r}."
        )
    return x


def _log_pmf(p: np.ndarray) -> dict[int, float]:
    """{output index: ln P(v)} over the support (outputs of probability 0 are left out)."""
    idx = np.flatnonzero(p > 0)
    return dict(zip(idx.tolist(), np.log(p[idx]).tolist(), strict=True))


def _export(pld: Any, p: Pair, interval: float) -> Any:
    return pld.from_two_probability_mass_functions(
        _log_pmf(p.p_b),  # mu_lower
        _log_pmf(p.p_a),  # mu_upper
        pessimistic_estimate=True,
        value_discretization_interval=interval,
        symmetric=p.one_way,
    )


def to_dp_accounting(
    mechanism_or_pair: Mechanism | Pair,
    *,
    epsilon: float | None = None,
    delta: float | None = None,
    value_discretization_interval: float = DEFAULT_DISCRETIZATION,
) -> Any:
    r"""A pair's privacy loss distribution in ``dp_accounting``.

    Built with ``dp_accounting.pld.privacy_loss_distribution.from_two_probability_mass_functions``
    from the log-PMFs ``{output index: ln P(v)}`` of the pair, with ``pessimistic_estimate=True``
    (losses rounded up to multiples of ``value_discretization_interval``) and no truncation of
    small masses.

    **Which distribution is which.** ``dp_accounting``'s PLD of (``mu_upper``, ``mu_lower``)
    is the law of :math:`\ln(\mu_{upper}(v)/\mu_{lower}(v))` for :math:`v \sim \mu_{upper}`,
    and its ``get_delta_for_epsilon`` is :math:`H_{e^\epsilon}(\mu_{upper}\|\mu_{lower})`. The
    export sets ``mu_upper`` = :math:`P_a` and ``mu_lower`` = :math:`P_b`, so that divergence
    is :math:`H_{e^\epsilon}(P_a\|P_b)` -- the direction an arc ``a -> b`` constrains. For a
    two-way pair (an undirected edge) it passes ``symmetric=False``: ``dp_accounting`` then
    keeps a second PLD with the roles exchanged (its "add" part; the first is its "remove"
    part) and reports the larger of :math:`H(P_a\|P_b)` and :math:`H(P_b\|P_a)`. For a one-way
    pair it passes ``symmetric=True`` ("the add and remove PLDs are the same"), so only
    :math:`H(P_a\|P_b)` counts.

    Parameters
    ----------
    mechanism_or_pair : Mechanism or Pair
        A :class:`Pair` is exported as it is; for a mechanism, :func:`worst_pair` at the given
        ``epsilon`` or ``delta`` (exactly one) is exported.
    epsilon, delta : float, optional
        Select the worst pair of a mechanism (not with a :class:`Pair`).
    value_discretization_interval : float, default 1e-4
        Δ > 0. For one release, the exported δ(ε) lies between the exact δ(ε) and the exact
        δ(ε − Δ) (module notes). Each PLD has about (largest loss - smallest loss) / Δ values
        once composed, so a small Δ with large losses costs memory and time.

    Returns
    -------
    dp_accounting.pld.privacy_loss_distribution.PrivacyLossDistribution

    Raises
    ------
    ImportError
        If ``dp_accounting`` is not installed (the message gives the pip command).
    ParameterError, ParameterTypeError
        On bad arguments (see :func:`worst_pair`).

    Examples
    --------
    >>> from rainbowdp.builders import count_path
    >>> from rainbowdp.noise import randomized_response
    >>> M = randomized_response(count_path(1), epsilon=math.log(3))
    >>> pld = to_dp_accounting(M, epsilon=0.5)
    >>> exact = float(privacy_profile(M, [0.5])[0])           # (3 - e^0.5) / 4, about 0.338
    >>> bool(exact <= pld.get_delta_for_epsilon(0.5) <= privacy_profile(M, [0.5 - 1e-4])[0])
    True
    """
    interval = _check_interval(value_discretization_interval)
    p = _resolve(mechanism_or_pair, epsilon, delta)
    return _export(_pld_module(), p, interval)


@dataclass(frozen=True)
class Composition:
    r"""Result of :func:`compose`: ``dp_accounting``'s numbers for k releases.

    These are ``dp_accounting``'s float estimates on discretised PLDs (pessimistic: every
    privacy loss rounded up to a multiple of ``value_discretization_interval``), not
    rainbowdp's exact bounds.

    Attributes
    ----------
    releases : int
        k, the number of independent releases of the mechanism on the same dataset.
    epsilon, delta : float
        The k-fold composition is (ε, δ)-DP according to ``dp_accounting``: one of the two was
        given, the other (``solved_for``) computed.
    solved_for : str
        ``"delta"`` (``get_delta_for_epsilon``) or ``"epsilon"`` (``get_epsilon_for_delta``).
    pair : tuple
        ``(a, b)``: the pair attaining the maximum over the pairs composed.
    n_pairs : int
        Number of distinct pairs composed (pairs with the same multiset of probability pairs
        have the same PLD and are composed once).
    value_discretization_interval : float
    accountant : str
        Which library computed the numbers, with its version.
    """

    releases: int
    epsilon: float
    delta: float
    solved_for: str
    pair: tuple
    n_pairs: int
    value_discretization_interval: float
    accountant: str

    def __str__(self) -> str:
        # the solved number rounded up (never shown better than computed), the given one as is
        if self.solved_for == "delta":
            eps, delta = f"{self.epsilon:g}", format_up(self.delta)
        else:
            eps, delta = format_up(self.epsilon), f"{self.delta:g}"
        return (
            f"{self.releases} release(s): ({eps}, {delta})-DP according to "
            f"{self.accountant} (PLD discretised at {self.value_discretization_interval:g}, "
            f"pessimistic; {self.solved_for} computed); worst pair {self.pair[0]!r} -> "
            f"{self.pair[1]!r} of {self.n_pairs}"
        )

    def __repr__(self) -> str:
        return (
            f"Composition(releases={self.releases}, epsilon={self.epsilon!r}, "
            f"delta={self.delta!r}, solved_for={self.solved_for!r}, "
            f"pair={short_repr(self.pair, 40)}, n_pairs={self.n_pairs})"
        )

    def _repr_html_(self) -> str:
        if self.solved_for == "delta":
            eps, delta = f"{self.epsilon:g}", format_up(self.delta)
        else:
            eps, delta = format_up(self.epsilon), f"{self.delta:g}"
        rows = [
            ["releases", str(self.releases)],
            ["epsilon", eps],
            ["delta", delta],
            ["computed", f"{self.solved_for} (rounded up)"],
            ["worst pair", f"{short_repr(self.pair[0], 30)} -> {short_repr(self.pair[1], 30)}"],
            ["distinct pairs", str(self.n_pairs)],
            ["PLD discretisation", f"{self.value_discretization_interval:g} (pessimistic)"],
        ]
        return html_table(f"Composition according to {self.accountant}", ["", "value"], rows)

    def to_dict(self) -> dict:
        """Plain data (see :func:`plain`)."""
        return {
            "releases": self.releases,
            "epsilon": self.epsilon,
            "delta": self.delta,
            "solved_for": self.solved_for,
            "pair": plain(self.pair),
            "n_pairs": self.n_pairs,
            "value_discretization_interval": self.value_discretization_interval,
            "accountant": self.accountant,
        }


def _distinct_pairs(m: Mechanism) -> list[tuple[int, int]]:
    """One (u, v) per distinct multiset of probability pairs {(P_u(o), P_v(o))} over the edges
    (arcs for a directed graph), in edge order: equal multisets have equal PLDs."""
    g = m.graph
    edges = g.edges
    q = g.n_outputs
    seen: set[bytes] = set()
    out: list[tuple[int, int]] = []
    dtype = np.dtype([("a", np.float64), ("b", np.float64)])
    for rows, pa, pb in endpoint_rows(m.probabilities, edges[:, 0], edges[:, 1]):
        s = np.empty(pa.shape, dtype=dtype)
        s["a"], s["b"] = pa, pb
        s.sort(axis=1)  # lexicographic on (a, b): the multiset, as a canonical row
        keys = s.view(np.dtype((np.void, dtype.itemsize * q))).ravel()
        _, first = np.unique(keys, return_index=True)
        for r in np.sort(first).tolist():
            k = keys[r].tobytes()
            if k not in seen:
                seen.add(k)
                e = rows.start + r
                out.append((int(edges[e, 0]), int(edges[e, 1])))
    return out


def _accountant_name() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"dp_accounting {version('dp-accounting')}"
    except PackageNotFoundError:  # pragma: no cover - imported but not installed as a package
        return "dp_accounting"


def compose(
    mechanism_or_pair: Mechanism | Pair,
    k: int,
    epsilon: float | None = None,
    delta: float | None = None,
    *,
    value_discretization_interval: float = DEFAULT_DISCRETIZATION,
    max_pairs: int = MAX_PAIRS,
) -> Composition:
    r"""k independent releases of a mechanism, composed by ``dp_accounting``.

    Releasing :math:`\mathcal M(d)` k times with independent randomness is the mechanism
    :math:`d \mapsto P_d^{\otimes k}` on the same graph, so its δ(ε) is the maximum over the
    neighbouring pairs of :math:`H_{e^\epsilon}(P_a^{\otimes k}\|P_b^{\otimes k})` (both orders
    of an edge, one for an arc). Each pair's PLD (:func:`to_dp_accounting`) is composed k times
    with ``self_compose`` and the maximum over the pairs is returned. Every distinct pair is
    composed: the pair worst for one release need not be worst for k (Zhu, Dong, Wang 2022).

    Parameters
    ----------
    mechanism_or_pair : Mechanism or Pair
        A mechanism (every neighbouring pair) or one :class:`Pair`.
    k : int
        Number of releases, >= 1.
    epsilon, delta : float, optional
        Exactly one: ``dp_accounting``'s δ at this ε, or its ε at this δ, for the composition.
    value_discretization_interval : float, default 1e-4
        Δ of the exported PLDs (see :func:`to_dp_accounting`).
    max_pairs : int, default 1000
        Refuse mechanisms with more distinct neighbouring pairs than this (each is composed
        separately); pass a :class:`Pair` to compose one.

    Returns
    -------
    Composition
        ``dp_accounting``'s numbers (discretised, pessimistic): for k = 1 they lie between
        rainbowdp's exact δ(ε) and δ(ε − Δ).

    Raises
    ------
    ImportError
        If ``dp_accounting`` is not installed.
    ParameterError, ParameterTypeError
        On bad arguments, a graph without edges, or more than ``max_pairs`` distinct pairs.

    Examples
    --------
    >>> from rainbowdp.builders import count_path
    >>> from rainbowdp.noise import geometric
    >>> M = geometric(count_path(4), epsilon=0.5)
    >>> one, two = compose(M, 1, epsilon=0.5), compose(M, 2, epsilon=0.5)
    >>> one.solved_for, one.delta < 1e-6, two.delta > one.delta
    ('delta', True, True)
    """
    interval = _check_interval(value_discretization_interval)
    kk = check_int(k, "k", minimum=1)
    limit = check_int(max_pairs, "max_pairs", minimum=1)
    eps, dlt = _one_of(epsilon, delta)
    if isinstance(mechanism_or_pair, Pair):
        pairs = [mechanism_or_pair]
    else:
        m = check_mechanism(mechanism_or_pair, "mechanism_or_pair")
        g = m.graph
        if g.n_edges == 0:
            raise ParameterError(
                "`mechanism_or_pair` must be on a graph with at least one edge (a pair)."
            )
        idx = _distinct_pairs(m)
        if len(idx) > limit:
            raise ParameterError(
                f"`max_pairs`: the mechanism has {len(idx)} distinct neighbouring pairs, more "
                f"than max_pairs={max_pairs!r}; raise it, or compose one Pair (worst_pair)."
            )
        pairs = [pair(m, g.nodes[i], g.nodes[j]) for i, j in idx]
    pld = _pld_module()
    best: tuple[float, Pair] | None = None
    for p in pairs:
        composed = _export(pld, p, interval).self_compose(kk)
        x = float(
            composed.get_delta_for_epsilon(eps)
            if eps is not None
            else composed.get_epsilon_for_delta(dlt)
        )
        if best is None or x > best[0]:
            best = (x, p)
    assert best is not None
    x, worst = best
    return Composition(
        releases=kk,
        epsilon=x if eps is None else eps,
        delta=x if dlt is None else dlt,
        solved_for="delta" if eps is not None else "epsilon",
        pair=(worst.a, worst.b),
        n_pairs=len(pairs),
        value_discretization_interval=interval,
        accountant=_accountant_name(),
    )
