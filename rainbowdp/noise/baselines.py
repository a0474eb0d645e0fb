r"""The standard mechanisms of the literature, as registered noise families.

- :class:`Geometric`: two-sided geometric / discrete Laplace noise (Ghosh, Roughgarden,
  Sundararajan 2009), nominal ε-DP;
- :class:`DiscreteGaussian`: discrete Gaussian noise (Canonne, Kamath, Steinke 2020), nominal
  profile δ(ε) of their Theorem 7;
- :class:`RandomizedResponse`: k-ary randomized response (Warner 1965; Kairouz, Oh, Viswanath
  2014), nominal ε-DP;
- :class:`Exponential`: the exponential mechanism (McSherry, Talwar 2007), nominal ε-DP;
- :class:`Staircase`: the discrete staircase (Geng, Viswanath 2016), nominal ε-DP.

Each family is a frozen dataclass; the functions :func:`geometric`, :func:`discrete_gaussian`,
:func:`randomized_response`, :func:`exponential` and :func:`staircase` build it and return its
mechanism on a graph. :func:`guarantee_table` compares every nominal guarantee with the exact
one computed by the verifier on small instances (the table of ``docs/families.md``).
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Callable, Hashable
from dataclasses import KW_ONLY, dataclass, fields
from typing import Any, ClassVar, Literal

import numpy as np

from .._sensitivity import Sensitivity, abs_diff_up
from .._validation import check_epsilon, check_int
from .._verify.kernels import CHUNK_ELEMENTS
from ..exceptions import ParameterError, ParameterTypeError
from ..graph import RainbowGraph, check_graph
from ..mechanism import Mechanism
from ._additive import (
    FLOOR,
    FORMS,
    MAX_SIGMA,
    MIN_SIGMA,
    DiscreteGaussianLaw,
    Form,
    NoiseLaw,
    StaircaseLaw,
    additive_rows,
    contiguous_outputs,
    integer_answers,
)
from ._family import (
    AdditiveFamily,
    Claim,
    Family,
    build_epsilon,
    check_additive,
    check_default_n,
    check_positive_epsilon,
    check_real_sensitivity,
    mechanism_from_rows,
    register,
    too_small_sensitivity,
)

__all__ = [
    "DiscreteGaussian",
    "Exponential",
    "Geometric",
    "GuaranteeRow",
    "RandomizedResponse",
    "Staircase",
    "discrete_gaussian",
    "exponential",
    "format_guarantee_table",
    "geometric",
    "guarantee_table",
    "randomized_response",
    "staircase",
]


def _set(obj: Any, name: str, value: Any) -> None:
    object.__setattr__(obj, name, value)


# ------------------------------------------------------------------------------------ geometric
@register
@dataclass(frozen=True)
class Geometric(AdditiveFamily):
    r"""The two-sided geometric (discrete Laplace) mechanism :math:`a(d) + \eta`.

    .. math::

        f(k) = \frac{1 - \alpha}{1 + \alpha}\,\alpha^{|k|}, \qquad
        \alpha = e^{-\epsilon/\Delta}, \quad k \in \mathbb Z.

    Parameters
    ----------
    epsilon : float
        ε > 0.
    form : {"clamped", "truncated", "folded", "modular"}, default "clamped"
        How the infinite output is brought into the output range (:mod:`rainbowdp.noise`).
    sensitivity : int, optional
        Δ >= 1: the largest change of the answer between neighbours. Default: the graph's
        (:meth:`~rainbowdp.noise.AdditiveFamily.for_graph`); a given Δ below the graph's is
        refused when the mechanism is built.

    Raises
    ------
    ParameterError
        If ε is not a finite number > 0 (at most 709.78), ``form`` is unknown or Δ < 1.
    ParameterTypeError
        If ε is not a real number or Δ not an integer.

    Notes
    -----
    ε-DP of the textbook mechanism: for answers a, a' with :math:`|a - a'| = d \le \Delta`,
    :math:`f(y - a) / f(y - a') = \alpha^{|y-a| - |y-a'|} \le \alpha^{-d} \le e^\epsilon`.
    Clamped, folded and modular rows are post-processings of :math:`a + \eta` and keep it;
    truncated rows divide by :math:`Z_a = \sum_{v} f(v - a)`, and the ratio
    :math:`Z_{a'} / Z_a` adds to the loss. Rows are built at ε minus the safety margin of
    :mod:`rainbowdp.noise` (:func:`~rainbowdp.noise.build_epsilon`).

    References
    ----------
    A. Ghosh, T. Roughgarden, M. Sundararajan, "Universally utility-maximizing privacy
    mechanisms", STOC 2009 (SIAM J. Comput. 41(6), 2012): the α-geometric mechanism and its
    α-differential privacy (α = e^{-ε}).

    Examples
    --------
    >>> from rainbowdp.builders import count_path
    >>> M = Geometric(epsilon=math.log(2)).mechanism(count_path(2))
    >>> (M.probabilities * 6).round(9).tolist()
    [[4.0, 1.0, 1.0], [2.0, 2.0, 2.0], [1.0, 1.0, 4.0]]
    """

    name: ClassVar[str] = "geometric"
    summary: ClassVar[str] = (
        "two-sided geometric (discrete Laplace) noise, alpha = exp(-epsilon/sensitivity) "
        "(Ghosh, Roughgarden, Sundararajan 2009)"
    )

    epsilon: float
    _: KW_ONLY
    form: Form = "clamped"
    sensitivity: int | None = None

    def __post_init__(self) -> None:
        _set(self, "epsilon", check_positive_epsilon(self.epsilon))
        form, sens = check_additive(self.form, self.sensitivity)
        _set(self, "form", form)
        _set(self, "sensitivity", sens)

    @property
    def alpha(self) -> float:
        r""":math:`\alpha = e^{-\epsilon/\Delta}` (nominal; Δ = 1 when unset)."""
        return math.exp(-self.epsilon / self.unit)

    def law(self) -> NoiseLaw:
        return StaircaseLaw(build_epsilon(self.epsilon) / self.unit)

    def nominal(self) -> Claim:
        return Claim(
            self.epsilon,
            "Ghosh, Roughgarden, Sundararajan (STOC 2009): the alpha-geometric mechanism, "
            "alpha = exp(-epsilon/sensitivity), is epsilon-DP",
        )

    @classmethod
    def examples(cls) -> list[tuple[Family, RainbowGraph]]:
        from ..builders import circulant, count_path, from_records

        out: list[tuple[Family, RainbowGraph]] = []
        for form in FORMS:
            out.append((cls(epsilon=1.0, form=form), count_path(6)))
            out.append((cls(epsilon=0.4, form=form), count_path(9, outputs=range(2, 6))))
        sums = from_records([0, 1, 2], size=2, query=sum, outputs=range(5))
        out.append((cls(epsilon=0.8, form="clamped", sensitivity=2), sums))
        out.append((cls(epsilon=0.8, form="truncated", sensitivity=2), sums))
        out.append((cls(epsilon=0.8, form="folded"), sums))  # sensitivity 2 from the graph
        out.append((cls(epsilon=0.8, form="clamped", sensitivity=3), sums))  # conservative
        out.append((cls(epsilon=0.7, form="modular"), circulant(6, [1])))
        out.append((cls(epsilon=0.7, form="folded"), circulant(6, [1])))
        out.append((cls(epsilon=0.7, form="modular"), circulant(6, [1], directed=True)))
        return out


def geometric(
    G: RainbowGraph, *, epsilon: float, form: Form = "clamped", sensitivity: int | None = None
) -> Mechanism:
    """The geometric mechanism on ``G``: ``Geometric(epsilon, form, sensitivity).mechanism(G)``.

    The sensitivity defaults to the graph's (:func:`rainbowdp.sensitivity`); a given one below
    it raises ParameterError.

    Examples
    --------
    >>> from rainbowdp.builders import count_path
    >>> geometric(count_path(3), epsilon=1.0, form="truncated").probabilities.shape
    (4, 4)
    """
    return Geometric(epsilon=epsilon, form=form, sensitivity=sensitivity).mechanism(G)


# ------------------------------------------------------------------------------------ gaussian
#: Absolute δ by which the stored rows of the discrete Gaussian may exceed its profile (the
#: round-off of rows built without a safety margin; see DiscreteGaussian, Notes). Measured
#: excesses are about 1e-16.
PROFILE_TOLERANCE = 2.0**-44


def _dg_delta(law: DiscreteGaussianLaw, epsilon: float, sensitivity: int) -> float:
    r"""CKS Theorem 7: :math:`\Pr[Y > t] - e^\epsilon \Pr[Y > t + \Delta]`,
    :math:`t = \epsilon\sigma^2/\Delta - \Delta/2`, as :math:`\sum_{y \ge m}
    (f(y) - e^\epsilon f(y + \Delta))` with m the least integer above t."""
    s2 = law.sigma**2
    t = epsilon * s2 / sensitivity - sensitivity / 2.0
    if t > 2**52:
        return 0.0
    m = math.floor(t) + 1
    log_a, log_b = (float(x) for x in law.log_sf(np.array([m, m + sensitivity])))
    if not math.isfinite(log_a):
        return 0.0
    gap = epsilon + log_b - log_a
    if gap >= 0:
        return 0.0
    return math.exp(log_a) * -math.expm1(gap)


@register
@dataclass(frozen=True)
class DiscreteGaussian(AdditiveFamily):
    r"""The discrete Gaussian mechanism :math:`a(d) + \eta`, :math:`\eta \sim
    \mathcal N_{\mathbb Z}(0, \sigma^2)`.

    .. math::

        f(k) = \frac{e^{-k^2/(2\sigma^2)}}{\sum_{j \in \mathbb Z} e^{-j^2/(2\sigma^2)}},
        \qquad k \in \mathbb Z,

    with the exact normaliser (:class:`~rainbowdp.noise.DiscreteGaussianLaw`).

    Parameters
    ----------
    sigma : float
        1e-100 <= σ <= 1e5.
    form : {"clamped", "truncated", "folded", "modular"}, default "clamped"
    sensitivity : int, optional
        Δ >= 1; default the graph's (see :class:`Geometric`); 1 for :meth:`delta_at` and
        :meth:`nominal` while unset.

    Raises
    ------
    ParameterError
        If σ is not in [1e-100, 1e5], ``form`` is unknown or Δ < 1.
    ParameterTypeError
        If σ is not a real number or Δ not an integer.

    Notes
    -----
    The nominal guarantee is the privacy profile of Canonne, Kamath and Steinke, Theorem 7:
    for every ε >= 0 the textbook mechanism is (ε, δ(ε))-DP for answers that differ by at most
    Δ, with

    .. math::

        \delta(\epsilon) = \Pr[Y > \tfrac{\epsilon\sigma^2}{\Delta} - \tfrac{\Delta}{2}]
        - e^\epsilon \Pr[Y > \tfrac{\epsilon\sigma^2}{\Delta} + \tfrac{\Delta}{2}],
        \qquad Y \sim \mathcal N_{\mathbb Z}(0, \sigma^2),

    the hockey-stick divergence between the law centred at 0 and at Δ (:meth:`delta_at`). No
    finite ε gives δ = 0 (``nominal().epsilon`` is ``inf``).

    Unlike the pure-DP families, the rows are built at the requested σ, without a safety
    margin: δ(ε) is not monotone in σ (at σ = 0.6, ε = 2 it *increases* with σ), so no nearby
    σ is uniformly more private. Where :meth:`holds_on` is True the exact finite mechanism
    meets the profile (post-processing), and the stored float64 rows -- each entry within a few
    units of round-off, relative -- meet it within an absolute :math:`2^{-44}`, the claim's
    :attr:`~rainbowdp.noise.Claim.tolerance` (excesses of about 1e-16 are seen).

    References
    ----------
    C. L. Canonne, G. Kamath, T. Steinke, "The discrete Gaussian for differential privacy",
    NeurIPS 2020 (arXiv:2004.00010): Definition 1 (the law), Theorem 7 (its (ε, δ) profile).

    Examples
    --------
    >>> g = DiscreteGaussian(sigma=1.0)
    >>> round(g.delta_at(1.0), 6)
    0.141351
    """

    name: ClassVar[str] = "discrete_gaussian"
    summary: ClassVar[str] = (
        "discrete Gaussian noise N_Z(0, sigma^2), nominal delta(epsilon) of "
        "Canonne, Kamath, Steinke 2020, Theorem 7"
    )

    sigma: float
    _: KW_ONLY
    form: Form = "clamped"
    sensitivity: int | None = None

    def __post_init__(self) -> None:
        s = self.sigma
        if isinstance(s, bool) or not isinstance(s, numbers.Real):
            raise ParameterTypeError(f"`sigma` must be a real number, got sigma={s!r}.")
        s = float(s)
        if not (math.isfinite(s) and MIN_SIGMA <= s <= MAX_SIGMA):
            raise ParameterError(
                f"`sigma` must be in [{MIN_SIGMA:g}, {MAX_SIGMA:g}], got sigma={self.sigma!r}."
            )
        _set(self, "sigma", s)
        form, sens = check_additive(self.form, self.sensitivity)
        _set(self, "form", form)
        _set(self, "sensitivity", sens)

    def law(self) -> NoiseLaw:
        return DiscreteGaussianLaw(self.sigma)

    def delta_at(self, epsilon: float) -> float:
        r"""The nominal δ(ε) of Theorem 7 (see Notes) at ``epsilon`` >= 0."""
        e = check_epsilon(epsilon)
        return _dg_delta(DiscreteGaussianLaw(self.sigma), e, self.unit)

    def nominal(self) -> Claim:
        return Claim(
            math.inf,
            "Canonne, Kamath, Steinke (NeurIPS 2020), Theorem 7: "
            "delta(eps) = P[Y > eps sigma^2/D - D/2] - e^eps P[Y > eps sigma^2/D + D/2]",
            profile=self.delta_at,
            tolerance=PROFILE_TOLERANCE,
        )

    @classmethod
    def examples(cls) -> list[tuple[Family, RainbowGraph]]:
        from ..builders import circulant, count_path, from_records

        out: list[tuple[Family, RainbowGraph]] = []
        for form in FORMS:
            out.append((cls(sigma=1.0, form=form), count_path(6)))
        out.append((cls(sigma=0.6, form="clamped"), count_path(8, outputs=range(2, 6))))
        out.append((cls(sigma=2.5, form="clamped", sensitivity=2), count_path(7)))
        out.append((cls(sigma=1.5, form="modular"), circulant(6, [1])))
        sums = from_records([0, 1, 2], size=2, query=sum, outputs=range(5))
        out.append((cls(sigma=2.0, form="clamped"), sums))  # its profile at Δ = 2, from the graph
        return out


def discrete_gaussian(
    G: RainbowGraph, *, sigma: float, form: Form = "clamped", sensitivity: int | None = None
) -> Mechanism:
    """The discrete Gaussian mechanism on ``G`` (sensitivity: the graph's by default).

    Examples
    --------
    >>> from rainbowdp.builders import count_path
    >>> M = discrete_gaussian(count_path(4), sigma=1.0)
    >>> bool(abs(M.probabilities.sum(axis=1) - 1).max() < 1e-12)
    True
    """
    return DiscreteGaussian(sigma=sigma, form=form, sensitivity=sensitivity).mechanism(G)


# ------------------------------------------------------------------------------------ RR
def _true_outputs(G: RainbowGraph) -> np.ndarray:
    """Index (into G.outputs) of each node's true output: its answer if every answer is an
    output, else its most preferred output."""
    answers = G.answers
    if answers is not None:
        index = G.output_index
        try:
            idx = [index.get(a) for a in answers]
        except TypeError:  # an unhashable answer cannot be an output
            idx = [None]
        if all(i is not None for i in idx):
            return np.asarray(idx, dtype=np.intp)
    return np.asarray(G.order[:, 0], dtype=np.intp)


@register
@dataclass(frozen=True)
class RandomizedResponse(Family):
    r"""k-ary randomized response on any output set of k outputs.

    .. math::

        P_d(v) = \begin{cases} \dfrac{e^\epsilon}{e^\epsilon + k - 1} & v = t(d)\\[1ex]
        \dfrac{1}{e^\epsilon + k - 1} & v \ne t(d)\end{cases}

    where the true output t(d) is the node's answer when every answer of the graph is an
    output, and otherwise the node's most preferred output (the first of its rainbow).

    Parameters
    ----------
    epsilon : float
        ε >= 0 (ε = 0 is the uniform distribution).

    Raises
    ------
    ParameterError
        If ε is negative, NaN or infinite.
    ParameterTypeError
        If ε is not a real number.

    Notes
    -----
    Every row takes only the two values above, so any two rows -- not only neighbours' --
    have likelihood ratios in :math:`[e^{-\epsilon}, e^\epsilon]`: ε-DP on every graph
    (:meth:`holds_on` is always True). The default graph is the complete graph on the answers
    0..n: replace-one neighbours of a dataset of one record (``from_records(range(n + 1),
    size=1, relation="replace_one")`` up to node labels). Rows are built at ε minus the safety
    margin (:func:`~rainbowdp.noise.build_epsilon`).

    References
    ----------
    S. L. Warner, "Randomized response", J. Amer. Statist. Assoc. 60 (1965), k = 2;
    P. Kairouz, S. Oh, P. Viswanath, "Extremal mechanisms for local differential privacy",
    NeurIPS 2014 / JMLR 17 (2016): k-ary randomized response.

    Examples
    --------
    >>> G = RandomizedResponse(epsilon=math.log(3)).graph(2)
    >>> (RandomizedResponse(epsilon=math.log(3)).mechanism(G).probabilities * 5).round(9)[0]
    array([3., 1., 1.])
    """

    name: ClassVar[str] = "randomized_response"
    summary: ClassVar[str] = (
        "k-ary randomized response: the true output w.p. e^epsilon/(e^epsilon + k - 1) "
        "(Warner 1965; Kairouz, Oh, Viswanath 2014)"
    )

    epsilon: float

    def __post_init__(self) -> None:
        _set(self, "epsilon", check_epsilon(self.epsilon))

    def graph(self, n: int) -> RainbowGraph:
        """The complete graph on answers 0..n, outputs 0..n, rainbows by distance."""
        from ..builders import count_path

        n = check_default_n(n)
        path = count_path(n)
        u, v = np.triu_indices(n + 1, k=1)
        return RainbowGraph.from_edges(
            np.column_stack([u, v]),
            outputs=path.outputs,
            rainbow_table=path.rainbow_table,
            rainbow_ids=path.rainbow_ids,
            answers=range(n + 1),
        )

    def mechanism(self, G: RainbowGraph) -> Mechanism:
        check_graph(G, "G")
        k = G.n_outputs
        t = _true_outputs(G)
        x = math.exp(-build_epsilon(self.epsilon))  # 1 / e^eps, no overflow
        # at eps above ~693 the other outputs' mass falls below FLOOR (2^-1000): stored as FLOOR,
        # the ratio to the true output's mass is at most 2^1000 < e^eps (see _additive.FLOOR)
        other = max(x / (1.0 + (k - 1) * x), FLOOR)
        rows = np.full((G.n_nodes, k), other)
        rows[np.arange(G.n_nodes), t] = 1.0 / (1.0 + (k - 1) * x)
        return mechanism_from_rows(G, rows)

    def nominal(self) -> Claim:
        return Claim(
            self.epsilon,
            "Warner (1965); Kairouz, Oh, Viswanath (2014, 2016): k-ary randomized response "
            "is epsilon-DP",
        )

    def holds_on(self, G: RainbowGraph) -> bool | None:
        check_graph(G, "G")
        return True

    @classmethod
    def examples(cls) -> list[tuple[Family, RainbowGraph]]:
        from ..builders import count_path, cycle

        return [
            (cls(epsilon=1.0), cls(epsilon=1.0).graph(4)),
            (cls(epsilon=0.3), count_path(5)),
            (cls(epsilon=2.0), count_path(9, outputs=range(3))),
            (cls(epsilon=0.0), count_path(3)),
            (cls(epsilon=0.9), cycle([("yes", "no", "maybe")] * 3 + [("no", "maybe", "yes")] * 2)),
        ]


def randomized_response(G: RainbowGraph, *, epsilon: float) -> Mechanism:
    """k-ary randomized response on ``G``: ``RandomizedResponse(epsilon).mechanism(G)``.

    Examples
    --------
    >>> from rainbowdp.builders import line
    >>> M = randomized_response(line(["yes", "no"], 1), epsilon=math.log(3))
    >>> M.probabilities.round(9).tolist()
    [[0.75, 0.25], [0.75, 0.25]]
    """
    return RandomizedResponse(epsilon=epsilon).mechanism(G)


# ------------------------------------------------------------------------------------ exponential
def _path2() -> Any:
    import networkx as nx

    return nx.path_graph(2)


def _is_number(x: Any) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool | np.bool_)


@register
@dataclass(frozen=True)
class Exponential(Family):
    r"""The exponential mechanism for a loss :math:`\ell(v, a)` of sensitivity Δ.

    .. math::

        P_d(v) = \frac{\exp(-\epsilon\,\ell(v, a(d)) / (2\Delta))}
        {\sum_{w} \exp(-\epsilon\,\ell(w, a(d)) / (2\Delta))}

    over the graph's outputs, where a(d) is the node's true answer (its most preferred output
    when the graph has no answers).

    Parameters
    ----------
    epsilon : float
        ε >= 0.
    loss : callable, optional
        ``loss(output, answer) -> float``. Default: :math:`|v - a|` when every output and
        answer is a real number, else 0 for the true answer and 1 otherwise.
    sensitivity : float, optional
        Δ > 0, a bound on :math:`|\ell(v, a(d)) - \ell(v, a(d'))|` over neighbours d ~ d'.
        Default: the loss's sensitivity on the graph (:meth:`loss_sensitivity`, 1 when it is 0);
        a given Δ below it is refused when the mechanism is built.

    Raises
    ------
    ParameterError
        If ε is negative or not finite, Δ is not a finite number > 0, or (when the mechanism is
        built) ``loss`` returns something other than a finite real number.
    ParameterTypeError
        If ε or Δ is not a real number or ``loss`` is not callable.

    Notes
    -----
    ε-DP: the numerator changes by a factor at most :math:`e^{\epsilon/2}` between neighbours,
    and so does the normaliser. :meth:`holds_on` is True when the loss's sensitivity on the
    graph's edges is at most Δ (always, for Δ taken from the graph), False when a given Δ is
    below it (then :meth:`mechanism` refuses to build). With the default loss on integer
    answers and consecutive integer outputs the mechanism is the truncated geometric law at rate
    ε/(2Δ), built by the shared routine :func:`~rainbowdp.noise.additive_rows`.

    :meth:`sample_gumbel` draws :math:`\arg\max_v (-\epsilon \ell(v, a)/(2\Delta) + G_v)` with
    i.i.d. standard Gumbel :math:`G_v` -- the Gumbel-max form of the same distribution.

    References
    ----------
    F. McSherry, K. Talwar, "Mechanism design via differential privacy", FOCS 2007 (the
    exponential mechanism and its privacy); C. Dwork, A. Roth, "The algorithmic foundations of
    differential privacy" (2014), Theorem 3.10; E. J. Gumbel, "Statistical theory of extreme
    values" (1954) for the Gumbel-max identity.

    Examples
    --------
    >>> from rainbowdp.builders import count_path
    >>> M = Exponential(epsilon=2 * math.log(2)).mechanism(count_path(2))
    >>> (M.probabilities[0] * 7).round(9).tolist()
    [4.0, 2.0, 1.0]
    """

    name: ClassVar[str] = "exponential"
    summary: ClassVar[str] = (
        "exponential mechanism exp(-epsilon loss/(2 sensitivity)), default loss |v - a| "
        "(McSherry, Talwar 2007)"
    )

    epsilon: float
    _: KW_ONLY
    loss: Callable[[Any, Any], float] | None = None
    sensitivity: float | None = None

    def __post_init__(self) -> None:
        _set(self, "epsilon", check_epsilon(self.epsilon))
        if self.loss is not None and not callable(self.loss):
            raise ParameterTypeError(f"`loss` must be callable or None, got loss={self.loss!r}.")
        _set(self, "sensitivity", check_real_sensitivity(self.sensitivity))

    def graph(self, n: int) -> RainbowGraph:
        """``count_path(n)``."""
        from ..builders import count_path

        return count_path(check_default_n(n))

    # -- the loss table over the distinct answers
    def _answers(self, G: RainbowGraph) -> list:
        if G.answers is not None:
            return list(G.answers)
        return [G.outputs[j] for j in G.order[:, 0].tolist()]

    def _integer_fast_path(self, G: RainbowGraph, answers: list) -> bool:
        if self.loss is not None:
            return False
        try:
            integer_answers(answers)
            contiguous_outputs(G.outputs)
        except (ParameterError, ParameterTypeError):
            return False
        return True

    def _loss_table(self, G: RainbowGraph, answers: list) -> tuple[np.ndarray, np.ndarray]:
        """(U, q) losses for the distinct answers and each node's index into them."""
        outs = G.outputs
        keys: dict[Any, int] = {}
        index = np.empty(len(answers), dtype=np.intp)
        distinct: list = []
        for i, a in enumerate(answers):
            try:
                key = (type(a), a)
                j = keys.setdefault(key, len(distinct))
            except TypeError:  # unhashable answer: its own entry
                j = len(distinct)
            if j == len(distinct):
                distinct.append(a)
            index[i] = j
        if self.loss is None:
            if all(map(_is_number, outs)) and all(map(_is_number, distinct)):
                v = np.asarray(outs, dtype=np.float64)
                a = np.asarray(distinct, dtype=np.float64)
                table = np.abs(v[None, :] - a[:, None])
            else:
                table = np.array([[0.0 if o == a else 1.0 for o in outs] for a in distinct])
        else:
            table = np.empty((len(distinct), len(outs)))
            for u, a in enumerate(distinct):
                for j, o in enumerate(outs):
                    x = self.loss(o, a)
                    if not _is_number(x) or not math.isfinite(float(x)):
                        raise ParameterError(
                            f"`loss` must return finite real numbers, got {x!r} for "
                            f"output={o!r} and answer={a!r}."
                        )
                    table[u, j] = float(x)
        return table, index

    def _scores(self, table: np.ndarray) -> np.ndarray:
        return -build_epsilon(self.epsilon) * table / (2.0 * (self.sensitivity or 1.0))

    def loss_sensitivity(self, G: RainbowGraph) -> Sensitivity:
        r"""The loss's sensitivity on ``G``: :math:`\max_{(u,v) \in E} \max_w
        |\ell(w, a(u)) - \ell(w, a(v))|`, each difference rounded up.

        Returns a ``Sensitivity`` (value, an edge attaining it, its answers; as
        :func:`rainbowdp.sensitivity` does).

        Examples
        --------
        >>> from rainbowdp.builders import count_path
        >>> Exponential(1.0).loss_sensitivity(count_path(4)).value
        1.0
        """
        check_graph(G, "G")
        edges = G.edges
        answers = self._answers(G)
        if edges.shape[0] == 0:
            return Sensitivity(0.0, None, None)
        outs = G.outputs
        if self.loss is None and all(map(_is_number, outs)) and all(map(_is_number, answers)):
            # |w - a| - |w - b| is monotone in w: its largest size is at the smallest or the
            # largest output, so two columns of the loss table suffice
            v = np.asarray(outs, dtype=np.float64)
            a = np.asarray(answers, dtype=np.float64)
            ends = np.abs(np.array([v.min(), v.max()])[None, :] - a[:, None])
            diff = abs_diff_up(ends[edges[:, 0]], ends[edges[:, 1]]).max(axis=1)
            at = int(np.argmax(diff))
            worst = float(diff[at])
        else:
            table, index = self._loss_table(G, answers)
            worst, at = 0.0, 0
            chunk = max(1, CHUNK_ELEMENTS // table.shape[1])
            for start in range(0, edges.shape[0], chunk):
                e = edges[start : start + chunk]
                diff = abs_diff_up(table[index[e[:, 0]]], table[index[e[:, 1]]]).max(axis=1)
                k = int(np.argmax(diff))
                if float(diff[k]) > worst:
                    worst, at = float(diff[k]), start + k
        u, v = int(edges[at, 0]), int(edges[at, 1])
        nodes = G.nodes
        return Sensitivity(worst, (nodes[u], nodes[v]), (answers[u], answers[v]))

    def _too_small(self, found: Sensitivity) -> bool:
        # a relative 2^-45 below the float loss differences is covered by the build margin
        return self.sensitivity is not None and self.sensitivity < found.value * (1 - 2.0**-45)

    def for_graph(self, G: RainbowGraph) -> Exponential:
        """This family with its sensitivity set for ``G``: the loss's sensitivity
        (:meth:`loss_sensitivity`; 1 when it is 0) when unset, else the given one.

        Raises
        ------
        ParameterError
            If the given sensitivity is below the loss's sensitivity on ``G``.
        """
        found = self.loss_sensitivity(G)
        if self.sensitivity is None:
            return dataclasses.replace(self, sensitivity=float(found.value) or 1.0)
        if self._too_small(found):
            raise too_small_sensitivity(
                self.sensitivity, found, self.name, "the loss's sensitivity on the graph"
            )
        return self

    def mechanism(self, G: RainbowGraph) -> Mechanism:
        family = self.for_graph(G)
        return family._rows(G)

    def _rows(self, G: RainbowGraph) -> Mechanism:
        answers = self._answers(G)
        eps = build_epsilon(self.epsilon)
        if eps > 0 and self._integer_fast_path(G, answers):
            law = StaircaseLaw(eps / (2.0 * (self.sensitivity or 1.0)))
            rows = additive_rows(answers, list(G.outputs), law, form="truncated")
            return mechanism_from_rows(G, rows)
        table, index = self._loss_table(G, answers)
        lw = self._scores(table)
        lw -= lw.max(axis=1, keepdims=True)
        rows = np.exp(lw)
        rows /= rows.sum(axis=1, keepdims=True)
        # every entry is positive in the exact mechanism: one that would underflow is stored
        # as FLOOR, which keeps likelihood ratios within the exact ones (_additive.FLOOR)
        np.maximum(rows, FLOOR, out=rows)
        return mechanism_from_rows(G, rows[index])

    def sample_gumbel(
        self,
        G: RainbowGraph,
        node: Hashable,
        size: int | None = None,
        *,
        rng: np.random.Generator,
    ) -> Any:
        r"""Draw outputs at ``node`` by the Gumbel-max trick.

        Returns :math:`\arg\max_v\,(-\epsilon\,\ell(v, a(d))/(2\Delta) + G_v)` with i.i.d.
        standard Gumbel :math:`G_v`, whose law is the row of :meth:`mechanism`. It uses
        floating-point Gumbel noise, so it illustrates the identity rather than replacing the
        exact sampler :meth:`rainbowdp.Mechanism.sample`.

        Parameters
        ----------
        G : RainbowGraph
        node : hashable
            A node of ``G``.
        size : int, optional
            Number of draws (``None``: one output label).
        rng : numpy.random.Generator

        Examples
        --------
        >>> from rainbowdp.builders import count_path
        >>> rng = np.random.default_rng(0)
        >>> Exponential(epsilon=1.0).sample_gumbel(count_path(3), 1, 4, rng=rng).tolist()
        [3, 2, 3, 1]
        """
        check_graph(G, "G")
        i = G.index_of(node)
        n = 1 if size is None else check_int(size, "size", minimum=0, maximum=2**24)
        if not isinstance(rng, np.random.Generator):
            raise ParameterTypeError(f"`rng` must be a numpy.random.Generator, got rng={rng!r}.")
        family = self.for_graph(G)
        answers = self._answers(G)
        table, index = self._loss_table(G, [answers[i]])
        scores = family._scores(table)[index[0]]
        chunk = max(1, CHUNK_ELEMENTS // G.n_outputs)  # bounded memory whatever the size
        draws = np.concatenate(
            [
                np.argmax(scores[None, :] + rng.gumbel(size=(m, G.n_outputs)), axis=1)
                for m in [min(chunk, n - s) for s in range(0, n, chunk)] or [0]
            ]
        )
        outs = G.outputs
        if size is None:
            return outs[int(draws[0])]
        labels = np.empty(len(outs), dtype=object)
        for j, o in enumerate(outs):
            labels[j] = o
        picked = labels[draws]
        if all(isinstance(o, int | np.integer) and not isinstance(o, bool) for o in outs):
            return picked.astype(np.int64)
        return picked

    def nominal(self) -> Claim:
        return Claim(
            self.epsilon,
            "McSherry, Talwar (FOCS 2007); Dwork, Roth (2014), Theorem 3.10: the exponential "
            "mechanism with exp(-epsilon loss/(2 sensitivity)) is epsilon-DP",
        )

    def holds_on(self, G: RainbowGraph) -> bool | None:
        """True when the loss's sensitivity on ``G`` is at most Δ (always for Δ taken from the
        graph), False when a given Δ is below it."""
        check_graph(G, "G")
        if G.edges.shape[0] == 0 or self.sensitivity is None:
            return True
        answers = self._answers(G)
        numeric = all(map(_is_number, answers)) and all(map(_is_number, G.outputs))
        if self.loss is None and numeric:  # the loss is |v - a| (see _loss_table)
            edges = G.edges
            a = np.asarray(answers, dtype=np.float64)
            if float(np.max(abs_diff_up(a[edges[:, 0]], a[edges[:, 1]]))) <= self.sensitivity:
                return True  # | |v - a| - |v - b| | <= |a - b|
        return not self._too_small(self.loss_sensitivity(G))

    @classmethod
    def examples(cls) -> list[tuple[Family, RainbowGraph]]:
        from ..builders import count_path, cycle, from_records

        return [
            (cls(epsilon=1.0), count_path(6)),
            (cls(epsilon=0.5), count_path(9, outputs=range(2, 6))),
            (cls(epsilon=1.0), count_path(5, outputs=[0.0, 1.5, 4.0])),
            (cls(epsilon=1.2), cycle([("yes", "no", "maybe")] * 3 + [("no", "maybe", "yes")] * 2)),
            (
                cls(epsilon=0.8, sensitivity=2.0),
                from_records([0, 1, 2], size=2, query=sum, outputs=range(5)),
            ),
            (
                cls(epsilon=1.0, loss=lambda v, a: min(abs(v - a), 2)),
                count_path(6),
            ),
            (  # a non-numeric output: the 0/1 loss, its sensitivity 1 taken from the graph
                cls(epsilon=1.0),
                RainbowGraph.from_query(_path2(), [0, 0.25, "x"], answer={0: 0, 1: 0.25}),
            ),
            (  # sums of two records: the loss's sensitivity 2 taken from the graph
                cls(epsilon=0.8),
                from_records([0, 1, 2], size=2, query=sum, outputs=range(5)),
            ),
        ]


def exponential(
    G: RainbowGraph,
    *,
    epsilon: float,
    loss: Callable[[Any, Any], float] | None = None,
    sensitivity: float | None = None,
) -> Mechanism:
    """The exponential mechanism on ``G`` (sensitivity: the loss's on ``G`` by default).

    Examples
    --------
    >>> from rainbowdp.builders import count_path
    >>> exponential(count_path(3), epsilon=1.0).probabilities.shape
    (4, 4)
    """
    return Exponential(epsilon=epsilon, loss=loss, sensitivity=sensitivity).mechanism(G)


# ------------------------------------------------------------------------------------ staircase
@register
@dataclass(frozen=True)
class Staircase(AdditiveFamily):
    r"""The staircase mechanism of Geng and Viswanath, discretised on the integers.

    **The continuous staircase.** For ε > 0, sensitivity Δ and γ ∈ [0, 1], the density is
    symmetric, equal to :math:`c` on :math:`[0, \gamma\Delta)`, to :math:`c\,e^{-\epsilon}` on
    :math:`[\gamma\Delta, \Delta)`, and :math:`f(x + \Delta) = e^{-\epsilon} f(x)` for x >= 0.

    **The discretisation.** The discrete staircase is that density *sampled at the integers*
    and renormalised: for k >= 0 written k = jΔ + t with 0 <= t < Δ,

    .. math::

        f(\pm k) \propto e^{-\epsilon\, g(k)}, \qquad
        g(k) = j + [\,t \ge r\,], \qquad r = \lceil \gamma \Delta \rceil \in \{0, \dots, \Delta\}

    (an integer t lies in :math:`[0, \gamma\Delta)` iff :math:`t < \lceil\gamma\Delta\rceil`;
    γΔ is rounded to 9 decimals first, so that γ = 0.2 with Δ = 5 means γΔ = 1, r = 1, although
    the float 0.2 is slightly above 1/5).
    Each block of Δ integers is a step of r values and a step of Δ − r values
    :math:`e^{-\epsilon}` lower -- the integer staircase of Geng and Viswanath, with r
    consecutive top values. For Δ = 1 it is the geometric mechanism with α = :math:`e^{-\epsilon}`
    whatever γ; r = 0 and r = Δ give the same law.

    Parameters
    ----------
    epsilon : float
        ε > 0.
    gamma : float, optional
        γ ∈ [0, 1]; default the ℓ1-optimal :math:`\gamma^* = 1/(1 + e^{\epsilon/2})` of the
        continuous staircase.
    sensitivity : int, optional
        Δ >= 1 (an integer: answers are integers); default the graph's (see
        :class:`Geometric`), 1 for :attr:`step` and :meth:`law` while unset.
    form : {"clamped", "truncated", "folded", "modular"}, default "clamped"

    Raises
    ------
    ParameterError
        If ε is not a finite number > 0 (at most 709.78), γ is outside [0, 1], ``form`` is
        unknown or Δ < 1.
    ParameterTypeError
        If ε or γ is not a real number or Δ not an integer.

    Notes
    -----
    **Proof that the discrete staircase is ε-DP under answer shifts of at most Δ.** The ratio
    of the laws at answers a and a + s, :math:`|s| \le \Delta`, at output y is
    :math:`f(y - a) / f(y - a - s) = e^{\epsilon (g(|y - a - s|) - g(|y - a|))}`, so it suffices
    that :math:`|g(m) - g(n)| \le 1` whenever :math:`m, n \ge 0` and :math:`|m - n| \le \Delta`.
    (i) g is non-decreasing: inside a block the indicator :math:`[t \ge r]` switches from 0 to 1
    at most once, and from the last integer of block j, where :math:`g \le j + 1`, to the first of
    block j + 1, where :math:`g \ge j + 1`, it does not decrease. (ii)
    :math:`g(m + \Delta) = g(m) + 1`: adding Δ increments j and keeps t. Hence for
    :math:`m \le n \le m + \Delta`, :math:`g(m) \le g(n) \le g(m + \Delta) = g(m) + 1`. ∎ The
    bound is attained (g jumps by one somewhere within every Δ consecutive integers), so the
    textbook discrete staircase is exactly ε-DP, and the clamped, folded and modular forms
    inherit it (post-processing).

    Closed forms of the normaliser and tails are in :class:`~rainbowdp.noise.StaircaseLaw`.
    Rows are built at ε minus the safety margin (:func:`~rainbowdp.noise.build_epsilon`).

    References
    ----------
    Q. Geng, P. Viswanath, "The optimal noise-adding mechanism in differential privacy", IEEE
    Trans. Inf. Theory 62(2), 2016: the staircase-shaped densities, their ℓ1-optimal γ*, and the
    staircase-shaped PMFs for integer-valued queries.

    Examples
    --------
    >>> s = Staircase(epsilon=1.0, sensitivity=3, gamma=0.5)
    >>> s.step
    2
    >>> np.exp(s.law().log_pmf(np.arange(7)) - s.law().log_pmf(np.array([0]))).round(4).tolist()
    [1.0, 1.0, 0.3679, 0.3679, 0.3679, 0.1353, 0.1353]
    """

    name: ClassVar[str] = "staircase"
    summary: ClassVar[str] = (
        "discrete staircase noise with step gamma (default the l1-optimal 1/(1+e^(epsilon/2))) "
        "(Geng, Viswanath 2016)"
    )

    epsilon: float
    _: KW_ONLY
    gamma: float | None = None
    sensitivity: int | None = None
    form: Form = "clamped"

    def __post_init__(self) -> None:
        eps = check_positive_epsilon(self.epsilon)
        _set(self, "epsilon", eps)
        g = self.gamma
        if g is None:
            g = 1.0 / (1.0 + math.exp(eps / 2)) if eps < 1400 else 0.0
        elif isinstance(g, bool) or not isinstance(g, numbers.Real):
            raise ParameterTypeError(f"`gamma` must be a real number, got gamma={g!r}.")
        g = float(g)
        if not (0.0 <= g <= 1.0):
            raise ParameterError(f"`gamma` must be in [0, 1], got gamma={self.gamma!r}.")
        _set(self, "gamma", g)
        form, sens = check_additive(self.form, self.sensitivity)
        _set(self, "form", form)
        _set(self, "sensitivity", sens)

    @property
    def step(self) -> int:
        r"""r = :math:`\lceil \gamma\Delta \rceil`, with γΔ rounded to 9 decimals (a float γ
        such as 0.2 is not exactly the decimal the user meant)."""
        return math.ceil(round(self.gamma * self.unit, 9))

    def law(self) -> NoiseLaw:
        return StaircaseLaw(build_epsilon(self.epsilon), period=self.unit, step=self.step)

    def nominal(self) -> Claim:
        return Claim(
            self.epsilon,
            "Geng, Viswanath (IEEE Trans. IT 2016): the staircase mechanism is epsilon-DP; "
            "discrete version proved in rainbowdp.noise.Staircase (Notes)",
        )

    @classmethod
    def examples(cls) -> list[tuple[Family, RainbowGraph]]:
        from ..builders import count_path, from_records

        sums = from_records([0, 1, 2, 3], size=2, query=sum, outputs=range(7))
        out: list[tuple[Family, RainbowGraph]] = []
        for form in FORMS:
            out.append((cls(epsilon=1.0, sensitivity=3, form=form), sums))
        out.append((cls(epsilon=0.7, sensitivity=2, gamma=0.0), count_path(6)))
        out.append((cls(epsilon=1.5, sensitivity=1), count_path(6)))
        out.append((cls(epsilon=0.9, sensitivity=3, gamma=1.0, form="truncated"), count_path(7)))
        return out


def staircase(
    G: RainbowGraph,
    *,
    epsilon: float,
    gamma: float | None = None,
    sensitivity: int | None = None,
    form: Form = "clamped",
) -> Mechanism:
    """The discrete staircase mechanism on ``G`` (sensitivity: the graph's by default).

    Examples
    --------
    >>> from rainbowdp.builders import count_path
    >>> staircase(count_path(4), epsilon=1.0, sensitivity=2).probabilities.shape
    (5, 5)
    """
    return Staircase(epsilon=epsilon, gamma=gamma, sensitivity=sensitivity, form=form).mechanism(G)


# ------------------------------------------------------------------------------------ table
@dataclass(frozen=True)
class GuaranteeRow:
    """One line of :func:`guarantee_table`.

    Attributes
    ----------
    family, form, graph, parameters : str
        What was built (``form`` is "-" for families without forms).
    measure : {"epsilon", "delta"}
        Whether the row compares ε (pure claims, at δ = 0) or δ at :attr:`at_epsilon`.
    at_epsilon : float
        The ε of a δ row (``nan`` for an ε row).
    nominal, exact : float
        The nominal ε (or δ(ε)) and the library's exact one for the finite mechanism (proved
        ε from :func:`~rainbowdp.epsilon_for_delta`, or δ from
        :func:`~rainbowdp.privacy_profile`; both upper bounds on the exact value).
    holds_on : bool or None
        :meth:`Family.holds_on` for this graph.
    """

    family: str
    form: str
    graph: str
    parameters: str
    measure: Literal["epsilon", "delta"]
    at_epsilon: float
    nominal: float
    exact: float
    holds_on: bool | None


def _default_cases() -> list[tuple[Family, str, Callable[[], RainbowGraph]]]:
    from ..builders import count_path, from_records

    def sums() -> RainbowGraph:
        return from_records([0, 1, 2], size=3, query=sum, outputs=range(7))

    cases: list[tuple[Family, str, Callable[[], RainbowGraph]]] = []
    for eps, n in ((1.0, 10), (0.5, 30)):
        for form in FORMS:
            cases.append((Geometric(eps, form=form), f"count_path({n})", lambda n=n: count_path(n)))
    for form in ("truncated", "clamped"):
        cases.append((Geometric(0.1, form=form), "count_path(100)", lambda: count_path(100)))
    for sigma, n in ((1.0, 10), (2.0, 30)):
        for form in FORMS:
            cases.append(
                (DiscreteGaussian(sigma, form=form), f"count_path({n})", lambda n=n: count_path(n))
            )
    for form in FORMS:
        cases.append(
            (Staircase(1.0, sensitivity=2, form=form), "sums of 3 records in {0,1,2}", sums)
        )
    cases.append(
        (RandomizedResponse(1.0), "complete(10)", lambda: RandomizedResponse(1.0).graph(10))
    )
    cases.append((Exponential(1.0), "count_path(10)", lambda: count_path(10)))
    cases.append((Exponential(1.0), "count_path(30)", lambda: count_path(30)))
    return cases


def _parameters(family: Family) -> str:
    parts = []
    for f in fields(family):  # type: ignore[arg-type]
        if f.name in ("form", "loss"):
            continue
        value = getattr(family, f.name)
        parts.append(f"{f.name}={value:.6g}" if isinstance(value, float) else f"{f.name}={value}")
    return ", ".join(parts)


#: The ε at which the discrete Gaussian rows of :func:`guarantee_table` compare δ.
TABLE_GAUSSIAN_EPSILON = 1.0


def guarantee_table(
    cases: list[tuple[Family, str, Callable[[], RainbowGraph]]] | None = None,
) -> list[GuaranteeRow]:
    """Nominal against exact guarantees of finite mechanisms, computed by the library.

    Parameters
    ----------
    cases : list of (family, graph label, graph factory), optional
        Default: every standard family and form on small count paths (the table of
        ``docs/families.md``).

    Returns
    -------
    list of GuaranteeRow
        Pure claims compare ε at δ = 0 (:func:`~rainbowdp.epsilon_for_delta`); profile claims
        compare δ at ε = 1 (:func:`~rainbowdp.privacy_profile`).

    Examples
    --------
    >>> from rainbowdp.builders import count_path
    >>> rows = guarantee_table([(Geometric(1.0, form="truncated"), "count_path(4)",
    ...                          lambda: count_path(4))])
    >>> rows[0].holds_on, rows[0].nominal, round(rows[0].exact, 4)
    (False, 1.0, 1.2009)
    """
    from ..privacy import epsilon_for_delta, privacy_profile

    out = []
    for family, label, factory in _default_cases() if cases is None else cases:
        G = factory()
        resolve = getattr(family, "for_graph", None)
        if resolve is not None:  # the sensitivity the mechanism is built at, shown in the row
            family = resolve(G)
        M = family.mechanism(G)
        claim = family.nominal()
        form = getattr(family, "form", "-")
        if claim.pure:
            measure, at = "epsilon", math.nan
            nominal, exact = claim.epsilon, float(epsilon_for_delta(M, 0.0))
        else:
            measure, at = "delta", TABLE_GAUSSIAN_EPSILON
            nominal, exact = claim.delta(at), float(privacy_profile(M, [at])[0])
        out.append(
            GuaranteeRow(
                family.name,
                form,
                label,
                _parameters(family),
                measure,
                at,
                nominal,
                exact,
                family.holds_on(G),
            )
        )
    return out


def _num(x: float) -> str:
    if math.isinf(x):
        return "∞"
    return f"{x:.6g}"


def format_guarantee_table(rows: list[GuaranteeRow]) -> str:
    """The rows of :func:`guarantee_table` as a Markdown table (6 significant digits).

    Examples
    --------
    >>> from rainbowdp.builders import count_path
    >>> rows = guarantee_table([(Geometric(1.0), "count_path(4)", lambda: count_path(4))])
    >>> print(format_guarantee_table(rows))
    | family | form | graph | parameters | measure | nominal | exact | exact / nominal | holds_on |
    | --- | --- | --- | --- | --- | --- | --- | --- | --- |
    | geometric | clamped | count_path(4) | epsilon=1, sensitivity=1 | ε | 1 | 1 | 1 | True |
    """
    head = (
        "| family | form | graph | parameters | measure | nominal | exact | exact / nominal "
        "| holds_on |"
    )
    lines = [head, "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        measure = "ε" if r.measure == "epsilon" else f"δ(ε={r.at_epsilon:g})"
        ratio = r.exact / r.nominal if r.nominal > 0 else math.inf
        lines.append(
            f"| {r.family} | {r.form} | {r.graph} | {r.parameters} | {measure} | "
            f"{_num(r.nominal)} | {_num(r.exact)} | {_num(ratio)} | {r.holds_on} |"
        )
    return "\n".join(lines)
