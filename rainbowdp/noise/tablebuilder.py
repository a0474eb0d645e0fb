r"""The ABS TableBuilder noise (Sadeghi, Chien): maximum entropy on [-D, D], its exact (ε, δ)-DP
and the design guide.

The ABS TableBuilder perturbs a count n as :math:`M(x) = n + Z` with integer noise Z whose PMF
maximises the Shannon entropy under zero bias and a variance bound (1.2)–(1.3). On the symmetric
support :math:`[-D, D]` the maximiser is a discrete truncated Gaussian (2.3)–(2.4)
(:func:`pmf`):

.. math:: p(z) = C e^{-\gamma z^2},\quad C = \Big(1 + 2\sum_{z=1}^D e^{-\gamma z^2}\Big)^{-1},

with γ fixed by the variance V through the root :math:`x = e^{-\gamma} \in (0, 1)` of (2.7)
(:func:`gamma_for_variance`; a root exists iff :math:`0 < V < D(D+1)/3`, Proposition 1).

For counts :math:`n \ge D` (footnote 1) and neighbours that differ by one, every pair of
neighbouring rows is a translate of :math:`(p(\cdot), p(\cdot - 1))`, and the exact δ at ε is
(2.19) (:func:`dp_delta`): :math:`p(-D)` plus the terms :math:`p(z) - e^\epsilon p(z - 1)` over
:math:`z \in [-D + 1, z^*]`, :math:`z^* = \lfloor 0.5 - \epsilon/(2\gamma) \rfloor`. For γ in
:math:`[\epsilon/(2D+1), \epsilon/(2D-1))` only :math:`p(-D)` is left: δ = (2.27)
(:func:`proposition3`, :func:`plateau_delta`). The design guide of Section 2.4 (:func:`design`)
increases D with :math:`\gamma = \epsilon/(2D-1) - 2\epsilon/(10(4D^2-1))` until (2.27) meets
the target δ.

Beyond the paper: the general maximum-entropy problem on any finite integer support, solved
through its convex dual (:func:`max_entropy`), the best γ of Fig. 2a (:func:`min_delta`), the
discrete-Gaussian limit of Appendix C (:func:`cks_delta`) and the family :class:`TableBuilder`.

Every number is computed in log space from :math:`e^{-\gamma z^2} \le 1`, so nothing overflows
for any D or γ; every δ reported is an upper bound, raised by a relative :data:`ROUND_UP` and to at
least the next float.

References
----------
.. [1] P. Sadeghi, C.-H. Chien, "On the connection between the ABS perturbation methodology and
   differential privacy" (2023), Sections 1–2, Appendices A–C.
.. [2] C. Canonne, G. Kamath, T. Steinke, "The discrete Gaussian for differential privacy",
   Journal of Privacy and Confidentiality 12(1) (2022), Theorem 2.6.
"""

from __future__ import annotations

import math
from dataclasses import KW_ONLY, dataclass
from typing import Any, ClassVar

import numpy as np

from .._deprecation import deprecated_alias
from .._validation import check_delta, check_epsilon, check_int, real_array
from ..exceptions import InfeasibleDesignError, ParameterError
from ..graph import RainbowGraph, check_graph
from ..mechanism import Mechanism
from ._additive import FLOOR
from ._family import (
    Claim,
    Family,
    Parameter,
    check_default_n,
    contiguous_outputs_of,
    integer_answers_of,
    mechanism_from_rows,
    register,
    unit_steps,
)
from ._tablebuilder_law import (
    MAX_D,
    MAX_GAMMA,
    MAX_SIGMA,
    MIN_SIGMA,
    ROUND_UP,
    check_D,
    check_gamma,
    cks_delta,
    delta_one,
    delta_raw,
    dp_delta,
    gamma_for_variance,
    guide_gamma,
    guide_gammas,
    log_plateau,
    normaliser,
    plateau_delta,
    pmf,
    round_up,
    uniform_variance,
    variance,
    variance_of,
)
from ._tablebuilder_maxent import max_entropy

__all__ = [
    "FIG2_GAMMAS",
    "MAX_D",
    "MAX_GAMMA",
    "MAX_SIGMA",
    "MIN_SIGMA",
    "PROFILE_TOLERANCE",
    "ROUND_UP",
    "Design",
    "Proposition3",
    "TableBuilder",
    "best_delta",
    "cks_delta",
    "delta",
    "design",
    "dp_delta",
    "gamma_for_variance",
    "graph",
    "guide_gamma",
    "max_entropy",
    "mechanism",
    "min_delta",
    "normaliser",
    "plateau_delta",
    "pmf",
    "proposition3",
    "uniform_variance",
    "variance",
]

#: The γ grid of Fig. 2a: 0.0001 to 0.3 in steps of 0.0001.
FIG2_GAMMAS = np.arange(1, 3001) / 10_000


# ------------------------------------------------------------------------------------ Prop. 3
@dataclass(frozen=True)
class Proposition3:
    r"""The ranges of Proposition 3 at (ε, D) (:func:`proposition3`).

    For γ in :math:`[\epsilon/(2D+1), \epsilon/(2D-1))` (2.20), :math:`z^* = -D` and the
    mechanism is (ε, δ)-DP with δ = (2.27). V and δ decrease in γ, C increases.

    Attributes
    ----------
    epsilon : float
    D : int
    gamma_low, gamma_high : float
        (2.20): :math:`\epsilon/(2D+1) \le \gamma < \epsilon/(2D-1)`.
    variance_low, variance_high : float
        (2.22): V(γ_high) < V <= V(γ_low).
    C_low, C_high : float
        (2.23): C(γ_low) <= C < C(γ_high).
    delta_low, delta_high : float
        (2.24): (2.27) at γ_high < δ <= (2.27) at γ_low (both rounded up). At γ_high itself
        δ = (2.27) as well: the extra term of (2.19) is an exact tie (errata), so δ_low is
        attained.
    """

    epsilon: float
    D: int
    gamma_low: float
    gamma_high: float
    variance_low: float
    variance_high: float
    C_low: float
    C_high: float
    delta_low: float
    delta_high: float

    def contains(self, gamma: float) -> bool:
        """Whether γ lies in the range (2.20)."""
        g = check_gamma(gamma)
        return self.gamma_low <= g < self.gamma_high


def proposition3(epsilon: float, D: int) -> Proposition3:
    r"""Proposition 3: the γ range (2.20) and the V, C, δ ranges (2.22)–(2.24) at (ε, D).

    Parameters
    ----------
    epsilon : float
        ε > 0.
    D : int

    References
    ----------
    Sadeghi, Chien (2023), Section 2.3, (2.20)–(2.27), Remark 1, Proposition 3.

    Examples
    --------
    >>> r = proposition3(0.5, 25)
    >>> round(r.gamma_low, 6), round(r.gamma_high, 6)
    (0.009804, 0.010204)
    >>> r.contains(0.5 / 49 - 1 / 24990)          # Example 1's gamma
    True
    """
    eps = check_epsilon(epsilon)
    if eps <= 0:
        raise ParameterError(f"`epsilon` must be > 0 (Proposition 3), got epsilon={epsilon!r}.")
    D = check_D(D)
    lo, hi = eps / (2 * D + 1), eps / (2 * D - 1)
    return Proposition3(
        epsilon=eps,
        D=D,
        gamma_low=lo,
        gamma_high=hi,
        variance_low=variance_of(hi, D),
        variance_high=variance_of(lo, D),
        C_low=normaliser(lo, D),
        C_high=normaliser(hi, D),
        delta_low=plateau_delta(hi, D),
        delta_high=plateau_delta(lo, D),
    )


# ------------------------------------------------------------------------------------ design
@dataclass(frozen=True)
class Design:
    r"""A TableBuilder noise designed by the guide of Section 2.4 (:func:`design`).

    Attributes
    ----------
    epsilon : float
        The target ε.
    target_delta : float
        The target δ.
    D : int
        D*: the first D whose δ meets the target.
    gamma : float
        γ* = :func:`guide_gamma` (ε, D*).
    variance : float
        V of (2.26) at γ*.
    delta : float
        The exact δ at ε (:func:`dp_delta`; = (2.27) by Proposition 3), rounded up, <= target.
    """

    epsilon: float
    target_delta: float
    D: int
    gamma: float
    variance: float
    delta: float

    @property
    def pmf(self) -> np.ndarray:
        """The PMF (2.28) on z = -D*..D*."""
        return pmf(self.gamma, self.D)

    @property
    def family(self) -> TableBuilder:
        """The designed noise as a :class:`TableBuilder` family."""
        return TableBuilder(self.D, gamma=self.gamma)

    @property
    def proposition3(self) -> Proposition3:
        """The ranges of Proposition 3 at (ε, D*)."""
        return proposition3(self.epsilon, self.D)


def design(epsilon: float, delta: float, *, max_D: int = 10_000) -> Design:
    r"""The design guide of Section 2.4: the smallest D whose (2.27) meets δ at ε.

    For D = 1, 2, ... take :math:`\gamma = \epsilon/(2D-1) - 2\epsilon/(10(4D^2-1))`
    (:func:`guide_gamma`, inside (2.20)) and stop at the first D with (2.27)
    :math:`= Ce^{-\gamma D^2} \le \delta`; V is (2.26) and the PMF (2.28). The scan is
    vectorised over blocks of D of doubling size; the stopping test uses the exact δ at ε,
    rounded up, so the reported δ never exceeds the target.

    Parameters
    ----------
    epsilon : float
        ε > 0.
    delta : float
        Target δ in (0, 1].
    max_D : int, default 10000
        Largest D tried.

    Returns
    -------
    Design

    Raises
    ------
    InfeasibleDesignError
        If no D <= ``max_D`` meets the target.

    References
    ----------
    Sadeghi, Chien (2023), Section 2.4, (2.28), Example 1, (2.29)–(2.30).

    Examples
    --------
    Example 1 (ε = 0.5, δ = 1e-4): D* = 25, δ ≈ 9.91e-5, V ≈ 49.00.

    >>> d = design(0.5, 1e-4)
    >>> d.D, f"{d.delta:.3g}", round(d.variance, 2)
    (25, '9.91e-05', 49.0)
    """
    eps = check_epsilon(epsilon)
    if eps <= 0:
        raise ParameterError(f"`epsilon` must be > 0 (Section 2.4), got epsilon={epsilon!r}.")
    target = check_delta(delta)
    if target <= 0:
        raise ParameterError(
            f"`delta` must be > 0: every TableBuilder noise has delta >= p(-D) > 0 (2.12), "
            f"got delta={delta!r}."
        )
    top = check_int(max_D, "max_D", minimum=1, maximum=MAX_D)
    lo = 1
    while lo <= top:
        hi = min(top, 2 * lo)  # the block lo..hi
        Ds = np.arange(lo, hi + 1)
        gs = guide_gammas(eps, Ds)
        vals = round_up(np.exp(log_plateau(gs, Ds)))
        for i in np.flatnonzero(np.atleast_1d(vals) <= target).tolist():
            D, g = int(Ds[i]), float(gs[i])
            d = delta_one(eps, g, D)  # = (2.27) by Proposition 3; the exact delta decides
            if d <= target:
                return Design(eps, target, D, g, variance_of(g, D), d)
        lo = hi + 1
    raise InfeasibleDesignError(
        f"no D <= max_D={top} meets delta={target:g} at epsilon={eps:g} with the guide's gamma "
        f"(Section 2.4); raise `max_D`, got max_D={max_D!r}."
    )


def min_delta(epsilon: float, D: int, *, gammas: Any = None) -> tuple[float, float]:
    r"""Fig. 2a's "numerically optimised" δ: the smallest (2.19) over a grid of γ.

    Parameters
    ----------
    epsilon : float
        ε >= 0.
    D : int
    gammas : array_like of float, optional
        Values γ >= 0; default the paper's grid 0.0001..0.3 in steps of 0.0001
        (:data:`FIG2_GAMMAS`).

    Returns
    -------
    (float, float)
        The smallest δ (rounded up) and the first γ of the grid attaining it.

    Notes
    -----
    On the paper's grid (D = 11, 15, ε from 0.01 to 5) the minimum is below the δ of the design
    guide's γ (:func:`guide_gamma`) everywhere, by up to 38%: it is often attained at γ above
    ε/(2D−1), in the second case of (2.19), so the first case is not always the better one
    (footnote 2 calls the design a heuristic). Against the limit γ → ε/(2D−1) (the curve of
    Fig. 2a) the grid's minimum is up to 2% higher at large ε, where the grid is too coarse.

    References
    ----------
    Sadeghi, Chien (2023), Section 2.3, Fig. 2a, footnote 2.

    Examples
    --------
    >>> d, g = min_delta(1.0, 11)
    >>> f"{d:.4g}", g
    ('0.0002896', 0.0526)
    >>> d < dp_delta(1.0, guide_gamma(1.0, 11), 11)
    True
    """
    eps = check_epsilon(epsilon)
    D = check_D(D)
    if gammas is None:
        grid = FIG2_GAMMAS
    else:
        grid = np.atleast_1d(real_array(gammas, "gammas")).ravel()
        if grid.size == 0 or not (np.all(np.isfinite(grid)) and grid.min() >= 0):
            raise ParameterError(
                f"`gammas` must be a non-empty array of finite numbers >= 0, got gammas={gammas!r}."
            )
    raw = delta_raw(np.full(grid.shape, eps), grid, D)
    i = int(np.argmin(raw))
    return float(round_up(raw[i])), float(grid[i])


# ------------------------------------------------------------------------------------ instance
def graph(N: int, D: int) -> RainbowGraph:
    r"""The count-path instance where (2.19) applies: counts D..N (footnote 1), neighbours
    n ~ n ± 1, outputs 0..N + D, rainbows by :math:`|y - n|`
    (:func:`rainbowdp.noise.count.graph` with ``n_min = D``).

    Examples
    --------
    >>> G = graph(4, 2)
    >>> list(G.nodes), G.outputs
    ([2, 3, 4], (0, 1, 2, 3, 4, 5, 6))
    """
    from . import count

    D = check_D(D)
    N = check_int(N, "N", minimum=D + 1)
    return count.graph(N, D, n_min=D)


def _rows(counts: np.ndarray, outputs: np.ndarray, p: np.ndarray, D: int) -> np.ndarray:
    r"""Row n: p(y - n) at each output y (0 outside [n - D, n + D]).

    Entries of the support below :data:`rainbowdp.noise._additive.FLOOR` (:math:`2^{-1000}`; they
    underflow for :math:`\gamma z^2 \gtrsim 690`) are stored as the floor, as every family
    does: flooring only moves likelihood ratios towards 1, where an underflow to 0 next to a
    positive entry would add a spurious term to the rows' δ.
    """
    Z = outputs[None, :] - counts[:, None]
    inside = np.abs(Z) <= D
    return np.where(inside, np.maximum(p, FLOOR)[np.clip(Z + D, 0, 2 * D)], 0.0)


def mechanism(gamma: float, D: int, *, N: int | None = None) -> Mechanism:
    r"""The TableBuilder mechanism on :func:`graph` (N, D): each row the PMF shifted to its count.

    Parameters
    ----------
    gamma : float
    D : int
    N : int, optional
        Largest count (default D + 1: one edge, which decides δ, since every edge is a
        translate of it).

    Examples
    --------
    >>> M = mechanism(0.125, 11)
    >>> from rainbowdp import privacy_profile
    >>> d = float(privacy_profile(M, [1.0])[0])
    >>> 0 <= dp_delta(1.0, 0.125, 11) - d <= 2e-12 * d      # the closed form, rounded up
    True
    """
    g = check_gamma(gamma)
    D = check_D(D)
    G = graph(D + 1 if N is None else N, D)
    counts = np.asarray(G.answers, dtype=np.int64)
    rows = _rows(counts, np.arange(G.n_outputs, dtype=np.int64), pmf(g, D), D)
    return mechanism_from_rows(G, rows)


# ------------------------------------------------------------------------------------ family
#: Absolute δ by which the stored float64 rows may exceed the closed form (the rows' round-off;
#: measured excesses are about 1e-17).
PROFILE_TOLERANCE = 2.0**-44


@register
@dataclass(frozen=True)
class TableBuilder(Family):
    r"""The ABS TableBuilder's maximum-entropy noise on [-D, D] (Sadeghi, Chien) as a family.

    The mechanism on a count graph (integer counts, consecutive integer outputs that hold every
    window [n - D, n + D]) puts :func:`pmf` (γ, D) shifted to each count.

    Parameters
    ----------
    D : int
        Noise support [-D, D].
    gamma : float
        γ >= 0 (:meth:`from_variance` for a variance V).

    Notes
    -----
    The nominal guarantee is the exact privacy profile δ(ε) = :func:`dp_delta` (ε, γ, D) of
    Proposition 2, (2.19), stated for every ε. It is exact for any pair of neighbouring rows
    that are translates by one, so :meth:`holds_on` is True on graphs whose rows all fit in the
    outputs (for outputs 0.., the counts n >= D of footnote 1) and whose neighbours' counts
    differ by at most one; otherwise None (the family builds no mechanism for counts whose
    window leaves the outputs). The stored float64 rows meet the profile within
    :data:`PROFILE_TOLERANCE`.

    References
    ----------
    P. Sadeghi, C.-H. Chien, "On the connection between the ABS perturbation methodology and
    differential privacy" (2023): (2.3)–(2.7), Propositions 1–3.

    Examples
    --------
    >>> fam = TableBuilder.from_variance(11, variance=4.0)
    >>> G = fam.graph(5)
    >>> G.nodes[0], G.n_outputs, fam.holds_on(G)
    (11, 28, True)
    >>> f"{fam.nominal().dp_delta(1.0):.4g}"
    '0.007249'
    """

    name: ClassVar[str] = "tablebuilder"
    summary: ClassVar[str] = (
        "ABS TableBuilder max-entropy noise C exp(-gamma z^2) on [-D, D] (Sadeghi & Chien 2023)"
    )

    parameters: ClassVar[tuple[Parameter, ...]] = (
        Parameter("D", "integer", "noise support [-D, D]", domain=(1, MAX_D)),
        Parameter(
            "gamma",
            "real",
            "decay of C exp(-gamma z^2) (0: the uniform law)",
            domain=(0.0, MAX_GAMMA),
        ),
    )

    D: int
    _: KW_ONLY
    gamma: float

    @classmethod
    def from_variance(cls, D: int, *, variance: float) -> TableBuilder:
        """The family with γ = :func:`gamma_for_variance` (variance, D)."""
        return cls(D, gamma=gamma_for_variance(variance, D))

    @property
    def pmf(self) -> np.ndarray:
        """The noise PMF on z = -D..D."""
        return pmf(self.gamma, self.D)

    @property
    def variance(self) -> float:
        """The noise variance (2.26)."""
        return variance(self.gamma, self.D)

    def dp_delta(self, epsilon: Any) -> Any:
        """The exact δ(ε) (:func:`dp_delta`)."""
        return dp_delta(epsilon, self.gamma, self.D)

    delta = deprecated_alias(dp_delta, "TableBuilder.delta", "TableBuilder.dp_delta")

    def graph(self, n: int) -> RainbowGraph:
        """The closed form's domain: counts D .. D + n (n >= 1), outputs 0 .. 2D + n."""
        n = check_default_n(n)
        return graph(self.D + n, self.D)

    def _inputs(self, G: RainbowGraph) -> tuple[np.ndarray, np.ndarray, bool]:
        check_graph(G, "G")
        what = "TableBuilder noise"
        counts = integer_answers_of(G, what)
        lo, q, _ = contiguous_outputs_of(G, what)
        fits = bool(
            counts.size == 0 or (counts.min() - self.D >= lo and counts.max() + self.D < lo + q)
        )
        return counts, np.asarray(G.outputs, dtype=np.int64), fits

    def mechanism(self, G: RainbowGraph) -> Mechanism:
        r"""The rows :math:`p(y - n)` for every count n of ``G``.

        Raises
        ------
        ParameterError
            If ``G`` has no integer counts, its outputs are not consecutive integers, or some
            window [n - D, n + D] leaves the outputs (for outputs 0.., a count below D).
        """
        counts, outputs, fits = self._inputs(G)
        if not fits:
            raise ParameterError(
                f"`G` must have every window [n - D, n + D] inside its outputs [{outputs.min()}, "
                f"{outputs.max()}] for D={self.D} (footnote 1: counts n >= D on outputs 0..), "
                f"got counts from {int(counts.min())} to {int(counts.max())}."
            )
        return mechanism_from_rows(G, _rows(counts, outputs, self.pmf, self.D))

    def nominal(self) -> Claim:
        g, D = self.gamma, self.D
        return Claim(
            math.inf,
            f"Sadeghi & Chien (2023), Proposition 2, (2.19): exact delta_(gamma={g:.6g}, D={D})"
            "(eps) on counts >= D",
            profile=lambda e: dp_delta(e, g, D),
            tolerance=PROFILE_TOLERANCE,
        )

    def holds_on(self, G: RainbowGraph) -> bool | None:
        counts, _, fits = self._inputs(G)
        if not fits:
            return None
        return True if unit_steps(G, counts) else None

    @classmethod
    def examples(cls) -> list[tuple[Family, RainbowGraph]]:
        from ..builders import count_path

        return [
            (cls(25, gamma=guide_gamma(0.5, 25)), graph(28, 25)),  # Example 1
            (cls.from_variance(11, variance=4.0), graph(15, 11)),  # Fig. 1a, V = 4
            (cls.from_variance(15, variance=10.0), graph(18, 15)),  # Fig. 1b, V = 10
            (cls(3, gamma=0.0), graph(7, 3)),  # the uniform law: V = D(D+1)/3
            (cls(2, gamma=0.4), count_path(8, outputs=range(-2, 11))),  # outputs below 0
        ]


delta = deprecated_alias(dp_delta, "tablebuilder.delta", "tablebuilder.dp_delta")
best_delta = deprecated_alias(min_delta, "tablebuilder.best_delta", "tablebuilder.min_delta")
