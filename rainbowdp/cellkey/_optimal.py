r"""The noise law with the smallest exact δ under an agency's constraints (beyond the paper).

An agency's perturbation table is specified by its noise on counts large enough for the noise
to be data-independent: a PMF p on :math:`[-D, D]` with zero bias, a variance cap V, and no
negative output for counts :math:`n \ge D`. The maximum-entropy table (Sadeghi & Chien,
(2.1)–(2.7)) picks the p of largest entropy; :func:`optimal_noise` picks the p of smallest
exact (ε, δ)-DP δ at a given ε under the same constraints:

.. math::

    \min_{p, \delta} \delta \quad\text{s.t.}\quad
    \sum_z p(z) = 1,\; \sum_z z\,p(z) = 0,\; \sum_z z^2 p(z) \le V,\; p \ge 0,\;
    H_{e^\epsilon}(p(\cdot) \,\|\, p(\cdot - 1)) \le \delta,\;
    H_{e^\epsilon}(p(\cdot - 1) \,\|\, p(\cdot)) \le \delta,

the hockey-stick divergences of the neighbouring counts n, n + 1 in both orders -- every event,
exact DP. Every edge (n, n + 1) with n >= D is a translate of one, so the law is optimal for all
of them.

The optimum is known in closed form where the variance cap allows it. With
:math:`x = e^\epsilon`, a symmetric law's mass is at most
:math:`\sum_j c_j s_j \le c_D \delta`, where :math:`s_j = (p(-j) - x\,p(-j-1))^+` and
:math:`c_j = x^j + 2 (x^j - 1)/(x - 1)` (2j + 1 at ε = 0); symmetrising never raises δ (the
divergence is convex), so **no law on [-D, D] has δ below** :math:`1/c_D`, and the truncated
geometric law :math:`p(z) \propto x^{-|z|}` attains it. When its variance exceeds V, the best
mixture of two truncated geometric laws with variance V is taken (δ and variance are linear
along such mixtures). Either is compared with the registered formulation
``"ptable-optimal-law"`` of :mod:`rainbowdp.design.formulations`, the general designer
:func:`rainbowdp.design.min_delta` on the count path D, D + 1 with the rows tied to one shifted
PMF and the side constraints :func:`~rainbowdp.design.zero_bias`,
:func:`~rainbowdp.design.loss_cap` (squared: the variance under zero bias) and
:func:`~rainbowdp.design.support`, and the law of smaller exact δ (the verifier's) is
returned. The LP alone cannot resolve a δ below its tolerances (about 1e-9): it returned
δ = 1.664e-8 at ε = 1.4 for D = 25, V = 49, where the optimum is
:math:`1/c_{25} \approx 3.8 \cdot 10^{-16}`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import check_epsilon, check_int, check_nonnegative_float
from ..exceptions import ParameterError, SolverError
from ._display import html_table, num, require_pandas, up

if TYPE_CHECKING:
    from ..design import DesignResult

__all__ = ["OptimalNoise", "OptimalTable", "optimal_noise", "optimal_table"]

#: Largest D of :func:`optimal_noise` (the LP has about 4D + 4 variables and rows).
MAX_D = 2000


@dataclass(frozen=True)
class OptimalNoise:
    r"""The result of :func:`optimal_noise`.

    Attributes
    ----------
    pmf : numpy.ndarray
        p(z) for z = -D..D, symmetric bit for bit (so zero bias exactly).
    D : int
    epsilon, variance_cap : float
        The design's ε and V.
    delta : float
        The exact (ε, δ)-DP δ of the law on neighbouring counts >= D, from the verifier
        (rounded up): an upper bound on the true value.
    result : DesignResult or None
        The general LP designer's result (mechanism on the count path D, D + 1): the
        ``"lp"`` candidate, kept for comparison even when the closed form is returned; None
        if the solver failed (then the closed form is returned).
    source : str
        The candidate returned: ``"geometric"`` (the closed form, proved optimal),
        ``"two-block"`` (the best mixture of two truncated geometric laws; the variance cap
        binds) or ``"lp"`` (the LP's law, symmetrised).
    lp_delta : float or None
        The verifier's δ of the LP's law (symmetrised, within the variance cap): ``delta`` is
        never above it (None without an LP result).
    """

    pmf: np.ndarray
    D: int
    epsilon: float
    variance_cap: float
    delta: float
    result: DesignResult | None
    source: str = "lp"
    lp_delta: float | None = None

    def _moment(self, power: int) -> float:
        """:math:`\\sum_z z^k p(z) / \\sum_z p(z)`, the sums exact (rounded once)."""
        exact = [Fraction(float(x)) for x in self.pmf]
        z = range(-self.D, self.D + 1)
        return float(
            sum(Fraction(k**power) * x for k, x in zip(z, exact, strict=True)) / sum(exact)
        )

    @property
    def bias(self) -> float:
        """:math:`\\sum_z z\\,p(z)`: 0 exactly for the symmetric law returned."""
        return self._moment(1)

    @property
    def variance(self) -> float:
        """:math:`E[Z^2] - \\text{bias}^2` of the stored law (normalised), at most the cap."""
        return self._moment(2) - self.bias**2

    @property
    def mechanism(self) -> Any:
        """The law as a mechanism on the count path D, D + 1 (outputs 0..2D + 1): the returned
        law at count D and its shift at D + 1 (what ``delta`` is the verified δ of)."""
        from ..mechanism import Mechanism
        from ..noise.count import graph

        G = graph(self.D + 1, self.D, n_min=self.D)
        P = np.zeros((2, G.n_outputs))
        P[0, : 2 * self.D + 1] = self.pmf
        P[1, 1 : 2 * self.D + 2] = self.pmf
        return Mechanism(G, P)

    def _rows(self) -> list[tuple[str, str]]:
        return [
            ("epsilon", num(self.epsilon)),
            ("delta (counts >= D)", up(self.delta)),
            ("D", str(self.D)),
            ("variance cap", num(self.variance_cap)),
            ("variance used", num(self.variance)),
            ("law", self.source),
            ("LP's delta", up(self.lp_delta)),
        ]

    def __repr__(self) -> str:
        return (
            f"OptimalNoise(epsilon={num(self.epsilon)}, delta={up(self.delta)}, D={self.D}, "
            f"variance={num(self.variance)} <= {num(self.variance_cap)}, source={self.source!r})"
        )

    def __str__(self) -> str:
        return (
            f"optimal noise on [-{self.D}, {self.D}] ({self.source}): delta = "
            f"{up(self.delta)} at epsilon = {num(self.epsilon)} on neighbouring counts >= "
            f"{self.D}\n"
            f"  zero bias, variance {num(self.variance)} (cap {num(self.variance_cap)})\n"
            f"  the LP designer's law: delta = {up(self.lp_delta)}"
        )

    def _repr_html_(self) -> str:
        return html_table("optimal noise law", self._rows())

    def to_pandas(self) -> Any:
        """The law as a DataFrame: columns ``noise`` (z = -D..D) and ``probability``."""
        pd = require_pandas("OptimalNoise")
        return pd.DataFrame({"noise": np.arange(-self.D, self.D + 1), "probability": self.pmf})


def _designer(name: str) -> Any:
    """The ``solve`` of the registered formulation ``name`` (:mod:`rainbowdp.design.formulations`:
    the models live in the design layer; this module keeps the ptable semantics)."""
    from ..design.formulations import get_formulation

    return get_formulation(name).solve


def _geometric_blocks(eps: float, D: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""The laws :math:`L_j(z) \propto e^{-\epsilon |z|}` on :math:`|z| \le j`, j = 0..D.

    Returns (half, delta, variance): ``half[j, k]`` is :math:`L_j(k)` for k = 0..D (the law is
    symmetric), ``delta[j]`` its δ at ε, :math:`L_j(j)` (the mass past the end; every ratio
    inside is exactly :math:`e^{\epsilon}`), and ``variance[j]`` its :math:`E[Z^2]`, all in
    floats: they only choose the candidate, whose δ is then computed by the verifier.
    """
    k = np.arange(D + 1, dtype=np.float64)
    w = np.exp(-eps * k)  # x^{-k}; underflows harmlessly to 0 far out
    mass = np.cumsum(np.where(k == 0, 1.0, 2.0) * w)
    moment = np.cumsum(2.0 * k * k * w)
    half = np.where(k[None, :] <= k[:, None], w[None, :], 0.0) / mass[:, None]
    return half, w / mass, moment / mass


def _two_block_law(eps: float, D: int, V: float) -> tuple[np.ndarray, str]:
    r"""The best mixture of at most two laws :math:`L_i, L_j` with :math:`E[Z^2] \le V`.

    δ and :math:`E[Z^2]` are linear along such a mixture (every ratio of a mixture of laws
    decreasing at rate :math:`e^{\epsilon}` is at most :math:`e^\epsilon`, so its δ is the mass
    past its end), so the best mixture is the lower convex hull of the points
    (variance_j, δ_j) at V. With :math:`L_D` feasible it is :math:`L_D` (module notes: then
    optimal). Returns the half law k = 0..D and ``"geometric"`` or ``"two-block"``.
    """
    half, d, v = _geometric_blocks(eps, D)
    if v[D] <= V:
        return half[D].copy(), "geometric"
    ok = np.flatnonzero(v <= V)  # never empty: L_0, the point mass, has variance 0
    far = np.flatnonzero(v > V)
    vi, vj = v[ok][:, None], v[far][None, :]
    theta = (vj - V) / (vj - vi)  # the weight of L_i; the mixture's variance is V
    cost = theta * d[ok][:, None] + (1.0 - theta) * d[far][None, :]
    a, b = np.unravel_index(int(np.argmin(cost)), cost.shape)
    single = int(ok[np.argmin(d[ok])])
    if d[single] <= cost[a, b]:
        return half[single].copy(), "two-block"
    t = float(theta[a, b])
    return t * half[ok[a]] + (1.0 - t) * half[far[b]], "two-block"


def _full(half: np.ndarray) -> np.ndarray:
    """The symmetric law on -D..D from its half k = 0..D (bit for bit symmetric: zero bias)."""
    return np.concatenate([half[:0:-1], half])


def _ratio_sweep(half: np.ndarray, eps: float) -> np.ndarray:
    r"""The half law with :math:`a_k \le e^\epsilon a_{k+1}` exactly for the stored floats.

    A law built in floating point misses the ratio :math:`e^\epsilon` by rounding, and each
    miss costs δ about one ulp of :math:`a_k` -- far above :math:`1/c_D` when ε D is large.
    Raising :math:`a_{k+1}` to :math:`a_k / x` rounded up (x at most :math:`e^\epsilon`, never
    above :math:`a_k`) where that is a change of at most 1e-13 relative removes every miss;
    the designed ends of a mixture's laws (a real drop) are kept.
    """
    a = half.copy()
    x = max(1.0, float(np.nextafter(np.nextafter(math.exp(eps), 0.0), 0.0)))
    for k in range(a.size - 1):
        need = a[k] if x == 1.0 else min(a[k], float(np.nextafter(a[k] / x, math.inf)))
        if a[k + 1] < need <= a[k + 1] * (1.0 + 1e-13):  # a rounding miss, not a designed end
            a[k + 1] = need
    return a


def _within_variance(p: np.ndarray, V: float) -> np.ndarray:
    r"""p itself if :math:`\sum_z z^2 p(z) \le V \sum_z p(z)` exactly; else p mixed with the
    point mass at 0 until it holds (a symmetric law stays symmetric)."""
    D = (p.size - 1) // 2
    z2 = [Fraction(z * z) for z in range(-D, D + 1)]
    Vf = Fraction(V)
    for _ in range(60):
        exact = [Fraction(float(x)) for x in p]
        m2, mass = sum(a * b for a, b in zip(z2, exact, strict=True)), sum(exact)
        if m2 <= Vf * mass:
            return p
        lam = min(1.0, 1.0 - float(Vf * mass / m2) + 1e-15)
        p = (1.0 - lam) * p
        p[D] += lam
    raise SolverError(f"could not bring the law's variance to {V!r}.")  # pragma: no cover


def _law_delta(p: np.ndarray, eps: float) -> float:
    """The verifier's exact δ at ε of additive noise p on neighbouring counts (both orders)."""
    from ..privacy import hockey_stick

    a, b = np.append(p, 0.0), np.insert(p, 0, 0.0)
    return max(float(hockey_stick(a, b, eps)), float(hockey_stick(b, a, eps)))


def optimal_noise(epsilon: float, *, D: int, variance: float, solver: Any = None) -> OptimalNoise:
    r"""The zero-bias noise on [-D, D] with variance at most V and the smallest exact δ at ε.

    Parameters
    ----------
    epsilon : float
        ε >= 0.
    D : int
        Largest absolute noise value, 1 <= D <= 2000.
    variance : float
        The cap V > 0 on :math:`E[Z^2]`.
    solver : optional
        As for :func:`rainbowdp.design.min_delta`.

    Returns
    -------
    OptimalNoise
        The law is symmetric (zero bias exactly), its :math:`E[Z^2]` is at most V exactly (in
        rational arithmetic on the stored floats), and ``delta`` is the verifier's δ of the
        stored law, rounded up. ``source`` says which candidate it is.

    Raises
    ------
    ParameterError
        For a bad argument.
    InfeasibleDesignError
        Never for valid arguments (the point mass at 0 is feasible).

    Notes
    -----
    Two candidates, the one of smaller exact δ returned (module notes):

    - ``"geometric"`` / ``"two-block"``: the closed form. With :math:`x = e^\epsilon`, the law
      :math:`L_D(z) \propto x^{-|z|}` on [-D, D] has δ :math:`1/c_D`,
      :math:`c_D = x^D + 2 (x^D - 1)/(x - 1)`, and *no* law on [-D, D] has a smaller δ (a
      symmetric law's mass is at most :math:`\sum_j c_j s_j \le c_D \delta`, :math:`s_j`
      the excess :math:`(p(-j) - x p(-j - 1))^+`; symmetrising never raises δ, the
      hockey-stick divergence being convex): when :math:`E_{L_D}[Z^2] \le V` it is the
      optimum. Otherwise the best mixture of two truncations :math:`L_i, L_j` with variance V;
    - ``"lp"``: the formulation ``"ptable-optimal-law"`` (the general designer
      :func:`rainbowdp.design.min_delta` on the count path D, D + 1, rows tied to one shifted
      PMF; side constraints zero bias, variance cap, support), symmetrised. Its δ is only as
      good as the solver's tolerances (about 1e-9 absolute): where the optimum is far below
      that, it is far from optimal, which the closed form is not.

    The maximum-entropy law with the same D and V is feasible, so ``delta`` is at most its
    δ_{γ,D}(ε) (Sadeghi & Chien, (2.19)); the comparison is
    :func:`rainbowdp.reproduce.abs_optimal_comparison`.

    Examples
    --------
    >>> res = optimal_noise(0.5, D=3, variance=1.0)
    >>> res.pmf.shape, res.bias == 0.0, res.variance <= 1.0
    ((7,), True, True)
    >>> res = optimal_noise(1.4, D=25, variance=49.0)
    >>> res.source, res.delta < 1e-15
    ('geometric', True)
    """
    eps = check_epsilon(epsilon, finite_exp=True)
    D = check_int(D, "D", minimum=1, maximum=MAX_D)
    V = check_nonnegative_float(variance, "variance")
    if not (V > 0 and math.isfinite(V)):
        raise ParameterError(f"`variance` must be positive and finite, got variance={variance!r}.")
    closed_half, kind = _two_block_law(eps, D, V * (1.0 - 1e-12))
    closed = _within_variance(_full(_ratio_sweep(closed_half, eps)), V)
    closed_delta = _law_delta(closed, eps)
    try:
        res = _designer("ptable-optimal-law")(D, epsilon=eps, variance=V, solver=solver)
    except SolverError:  # e.g. HiGHS on the badly scaled LP of a large eps D: the closed form
        return OptimalNoise(closed, D, eps, V, closed_delta, None, kind, None)
    row = np.maximum(res.mechanism.probabilities[0, : 2 * D + 1], 0.0)
    lp_law = _within_variance(_full(((row + row[::-1]) / 2)[D:]), V)
    lp_delta = _law_delta(lp_law, eps)
    if closed_delta <= lp_delta:
        return OptimalNoise(closed, D, eps, V, closed_delta, res, kind, lp_delta)
    return OptimalNoise(lp_law, D, eps, V, lp_delta, res, "lp", lp_delta)


@dataclass(frozen=True)
class OptimalTable:
    r"""The result of :func:`optimal_table`.

    Attributes
    ----------
    table : Ptable
        Rows 0..I: the designed small-count rows below D, the optimal law from D on.
    law : OptimalNoise
        Stage 1: the law of the counts >= D.
    delta_independent : float
        Exact δ at ε of the counts >= D (the law's, the verifier's).
    delta : float
        Exact δ at ε over every count (the verifier's, rounded up).
    result : DesignResult
        Stage 2: the general designer's result on the count path 0..I + 1.
    """

    table: Any
    law: OptimalNoise
    delta_independent: float
    delta: float
    result: DesignResult

    def _summary(self) -> list[tuple[str, str]]:
        return [
            ("epsilon", num(self.law.epsilon)),
            (f"delta on counts >= {self.law.D}", up(self.delta_independent)),
            ("delta over all counts", up(self.delta)),
            ("D", str(self.law.D)),
            ("rows", f"0..{self.table.max_count}"),
            ("variance cap", num(self.law.variance_cap)),
            ("law of the counts >= D", self.law.source),
        ]

    def __repr__(self) -> str:
        return (
            f"OptimalTable(epsilon={num(self.law.epsilon)}, delta={up(self.delta_independent)} "
            f"on counts >= {self.law.D} (all counts: {up(self.delta)}), D={self.law.D}, "
            f"rows={self.table.max_count + 1}, variance_cap={num(self.law.variance_cap)})"
        )

    def __str__(self) -> str:
        return (
            f"optimal perturbation table: rows 0..{self.table.max_count}, noise in "
            f"[-{self.law.D}, {self.law.D}], variance cap {num(self.law.variance_cap)}\n"
            f"  delta = {up(self.delta_independent)} at epsilon = {num(self.law.epsilon)} on "
            f"neighbouring counts >= {self.law.D} ({self.law.source} law)\n"
            f"  delta = {up(self.delta)} over all counts (the rows below {self.law.D} included)"
        )

    def _repr_html_(self) -> str:
        return html_table("optimal perturbation table", self._summary())

    def to_pandas(self) -> Any:
        """The table's entries (:meth:`Ptable.to_pandas`)."""
        return self.table.to_pandas()


def optimal_table(
    epsilon: float, *, D: int, variance: float, rows: int | None = None, solver: Any = None
) -> OptimalTable:
    r"""The perturbation table with the smallest exact δ at ε under an agency's constraints.

    Every row i has zero bias, :math:`E[(j - i)^2] \le V`, noise in [-D, D] and no negative
    output (support :math:`[i - \min(i, D), i + D]`; so count 0 is published as 0). Two stages
    of :func:`rainbowdp.design.min_delta`: (1) the data-independent law of the counts >= D
    (:func:`optimal_noise`, symmetrised); (2) with those rows fixed, the rows of the counts
    below D minimising the largest δ over every edge of the count path 0..I + 1 (the registered
    formulation ``"ptable-optimal"``).

    Parameters
    ----------
    epsilon, D, variance, solver
        As for :func:`optimal_noise`.
    rows : int, optional
        Rows 0..rows - 1 (default D + 1).

    Returns
    -------
    OptimalTable

    Notes
    -----
    Lexicographic on purpose: the smallest δ over every edge is set by the edges of small
    counts (with zero bias and count 0 published as 0, edge (0, 1) alone forces a large δ), and
    a single LP would leave the data-independent law anywhere below that level. Stage 1 makes
    the law of the counts >= D optimal on its own; stage 2 makes the worst edge as good as it
    can be given that law.

    Examples
    --------
    >>> r = optimal_table(1.0, D=3, variance=2.0)
    >>> r.table.max_count, r.delta_independent <= r.delta
    (3, True)
    """
    from ._ptable import Ptable

    law = optimal_noise(epsilon, D=D, variance=variance, solver=solver)
    D, eps, V = law.D, law.epsilon, law.variance_cap
    I_ = D if rows is None else check_int(rows, "rows", minimum=D + 1, maximum=10 * MAX_D) - 1
    p = np.maximum(law.pmf, 0.0)
    p = p / p.sum()
    p = (p + p[::-1]) / 2  # symmetric, as optimal as p (see design_ptable)
    res = _designer("ptable-optimal")(p, epsilon=eps, variance=V, rows=I_ + 1, solver=solver)
    P = res.mechanism.probabilities[: I_ + 1]
    table = Ptable(P / P.sum(axis=1, keepdims=True))
    return OptimalTable(table, law, law.delta, float(res.achieved_delta), res)
