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

import math
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from functools import partial
from typing import ClassVar, cast

import numpy as np

from .._deprecation import deprecated_alias
from .._validation import check_epsilon
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
)
from ._additive_family import FORM_PARAMETER, SENSITIVITY_PARAMETER, AdditiveFamily
from ._exponential import Exponential, exponential
from ._family import (
    Claim,
    Family,
    Parameter,
    build_epsilon,
    check_default_n,
    epsilon_parameter,
    mechanism_from_rows,
    register,
)
from ._guarantees import GuaranteeRow, format_guarantee_table, guarantee_rows

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

    parameters: ClassVar[tuple[Parameter, ...]] = (
        epsilon_parameter("the privacy parameter, > 0", positive=True, finite_exp=True),
        FORM_PARAMETER,
        SENSITIVITY_PARAMETER,
    )

    epsilon: float
    _: KW_ONLY
    form: Form = "clamped"
    sensitivity: int | None = None

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
        Δ >= 1; default the graph's (see :class:`Geometric`); 1 for :meth:`dp_delta` and
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

    the hockey-stick divergence between the law centred at 0 and at Δ (:meth:`dp_delta`). No
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
    >>> round(g.dp_delta(1.0), 6)
    0.141351
    """

    name: ClassVar[str] = "discrete_gaussian"
    summary: ClassVar[str] = (
        "discrete Gaussian noise N_Z(0, sigma^2), nominal delta(epsilon) of "
        "Canonne, Kamath, Steinke 2020, Theorem 7"
    )

    parameters: ClassVar[tuple[Parameter, ...]] = (
        Parameter(
            "sigma", "real", "scale of the discrete Gaussian noise", domain=(MIN_SIGMA, MAX_SIGMA)
        ),
        FORM_PARAMETER,
        SENSITIVITY_PARAMETER,
    )

    sigma: float
    _: KW_ONLY
    form: Form = "clamped"
    sensitivity: int | None = None

    def law(self) -> NoiseLaw:
        return DiscreteGaussianLaw(self.sigma)

    def dp_delta(self, epsilon: float) -> float:
        r"""The nominal δ(ε) of Theorem 7 (see Notes) at ``epsilon`` >= 0: the exact
        hockey-stick divergence of the textbook mechanism at sensitivity Δ."""
        e = check_epsilon(epsilon)
        return _dg_delta(DiscreteGaussianLaw(self.sigma), e, self.unit)

    delta_at = deprecated_alias(dp_delta, "DiscreteGaussian.delta_at", "DiscreteGaussian.dp_delta")

    def nominal(self) -> Claim:
        return Claim(
            math.inf,
            "Canonne, Kamath, Steinke (NeurIPS 2020), Theorem 7: "
            "delta(eps) = P[Y > eps sigma^2/D - D/2] - e^eps P[Y > eps sigma^2/D + D/2]",
            profile=self.dp_delta,
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

    parameters: ClassVar[tuple[Parameter, ...]] = (
        epsilon_parameter("the privacy parameter (0: the uniform law)"),
    )

    epsilon: float

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

    parameters: ClassVar[tuple[Parameter, ...]] = (
        epsilon_parameter("the privacy parameter, > 0", positive=True, finite_exp=True),
        Parameter(
            "gamma",
            "real",
            "length of the top step, a fraction of the sensitivity (default: l1-optimal)",
            domain=(0.0, 1.0),
            default=None,
            optional=True,
        ),
        SENSITIVITY_PARAMETER,
        FORM_PARAMETER,
    )

    epsilon: float
    _: KW_ONLY
    gamma: float | None = None  # None: the l1-optimal gamma*, set by __post_init__
    sensitivity: int | None = None
    form: Form = "clamped"

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.gamma is None:  # the l1-optimal gamma* of the continuous staircase
            object.__setattr__(self, "gamma", 1.0 / (1.0 + math.exp(self.epsilon / 2)))

    @property
    def step(self) -> int:
        r"""r = :math:`\lceil \gamma\Delta \rceil`, with γΔ rounded to 9 decimals (a float γ
        such as 0.2 is not exactly the decimal the user meant)."""
        gamma = cast(float, self.gamma)  # never None after __post_init__
        return math.ceil(round(gamma * self.unit, 9))

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
def _default_cases() -> list[tuple[Family, str, Callable[[], RainbowGraph]]]:
    from ..builders import count_path, from_records

    def sums() -> RainbowGraph:
        return from_records([0, 1, 2], size=3, query=sum, outputs=range(7))

    forms: tuple[Form, ...] = ("truncated", "clamped")
    cases: list[tuple[Family, str, Callable[[], RainbowGraph]]] = []
    for eps, n in ((1.0, 10), (0.5, 30)):
        for form in FORMS:
            cases.append((Geometric(eps, form=form), f"count_path({n})", partial(count_path, n)))
    for form in forms:
        cases.append((Geometric(0.1, form=form), "count_path(100)", partial(count_path, 100)))
    for sigma, n in ((1.0, 10), (2.0, 30)):
        for form in FORMS:
            cases.append(
                (DiscreteGaussian(sigma, form=form), f"count_path({n})", partial(count_path, n))
            )
    for form in FORMS:
        cases.append(
            (Staircase(1.0, sensitivity=2, form=form), "sums of 3 records in {0,1,2}", sums)
        )
    cases.append(
        (RandomizedResponse(1.0), "complete(10)", partial(RandomizedResponse(1.0).graph, 10))
    )
    cases.append((Exponential(1.0), "count_path(10)", partial(count_path, 10)))
    cases.append((Exponential(1.0), "count_path(30)", partial(count_path, 30)))
    return cases


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
    return guarantee_rows(_default_cases() if cases is None else cases)
