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
exact DP. It is solved by the general designer :func:`rainbowdp.design.min_delta` on the count
path D, D + 1 with the rows tied to one shifted PMF and the side constraints
:func:`~rainbowdp.design.zero_bias`, :func:`~rainbowdp.design.loss_cap` (squared, the variance
under zero bias) and :func:`~rainbowdp.design.support`; every edge (n, n + 1) with n >= D is a
translate of that one, so the law is optimal for all of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import check_epsilon, check_int, check_nonnegative_float
from ..exceptions import ParameterError

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
        p(z) for z = -D..D (the designed mechanism's row at count D, re-indexed).
    D : int
    epsilon, variance_cap : float
        The design's ε and V.
    delta : float
        The exact (ε, δ)-DP δ of the law on neighbouring counts >= D, from the verifier
        (rounded up): an upper bound on the true value.
    result : DesignResult
        The general designer's result (mechanism on the count path D, D + 1).
    """

    pmf: np.ndarray
    D: int
    epsilon: float
    variance_cap: float
    delta: float
    result: DesignResult

    @property
    def bias(self) -> float:
        """:math:`\\sum_z z\\,p(z)` (0 up to the solver's tolerance)."""
        z = np.arange(-self.D, self.D + 1)
        return float(z @ self.pmf)

    @property
    def variance(self) -> float:
        """:math:`\\sum_z z^2 p(z) - \\text{bias}^2`."""
        z = np.arange(-self.D, self.D + 1, dtype=np.float64)
        return float((z * z) @ self.pmf - self.bias**2)


def _tied_count_pair(D: int) -> tuple[Any, np.ndarray]:
    """The count path D, D + 1 (outputs 0..2D + 1) and the tying map of one shifted PMF."""
    from ..noise.count import graph

    G = graph(D + 1, D, n_min=D)
    q = G.n_outputs
    y = np.arange(q)
    T = np.empty((2, q), dtype=np.int64)
    for r, n in enumerate((D, D + 1)):
        z = y - n
        inside = np.abs(z) <= D
        T[r] = np.where(inside, z + D, 2 * D + 1 + r * q + y)  # outside: own (zeroed) variable
    return G, T


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

    Raises
    ------
    ParameterError
        For a bad argument.
    InfeasibleDesignError
        Never for valid arguments (the point mass at 0 is feasible).

    Notes
    -----
    The maximum-entropy law with the same D and V is feasible, so ``delta`` is at most its
    δ_{γ,D}(ε) (Sadeghi & Chien, (2.19)) up to the solver's tolerance; the comparison is
    :func:`rainbowdp.reproduce.abs_optimal_comparison`.

    Examples
    --------
    >>> res = optimal_noise(0.5, D=3, variance=1.0)
    >>> res.pmf.shape, abs(res.bias) < 1e-9, res.variance <= 1.0 + 1e-9
    ((7,), True, True)
    """
    from .. import design

    eps = check_epsilon(epsilon, finite_exp=True)
    D = check_int(D, "D", minimum=1, maximum=MAX_D)
    V = check_nonnegative_float(variance, "variance")
    if not (V > 0 and math.isfinite(V)):
        raise ParameterError(f"`variance` must be positive and finite, got variance={variance!r}.")
    G, T = _tied_count_pair(D)
    cons = [
        design.support(G, D, D),
        design.zero_bias(G),
        design.loss_cap(G, V, loss="squared"),
    ]
    res = design.min_delta(G, epsilon=eps, constraints=cons, tied=T, solver=solver)
    row = res.mechanism.probabilities[0, : 2 * D + 1].copy()
    return OptimalNoise(row, D, eps, V, float(res.achieved_delta), res)


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


def optimal_table(
    epsilon: float, *, D: int, variance: float, rows: int | None = None, solver: Any = None
) -> OptimalTable:
    r"""The perturbation table with the smallest exact δ at ε under an agency's constraints.

    Every row i has zero bias, :math:`E[(j - i)^2] \le V`, noise in [-D, D] and no negative
    output (support :math:`[i - \min(i, D), i + D]`; so count 0 is published as 0). Two stages
    of :func:`rainbowdp.design.min_delta`: (1) the data-independent law of the counts >= D
    (:func:`optimal_noise`, symmetrised); (2) with those rows fixed, the rows of the counts
    below D minimising the largest δ over every edge of the count path 0..I + 1.

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
    from .. import design
    from ..builders import count_path
    from ._ptable import Ptable

    law = optimal_noise(epsilon, D=D, variance=variance, solver=solver)
    D, eps, V = law.D, law.epsilon, law.variance_cap
    I_ = D if rows is None else check_int(rows, "rows", minimum=D + 1, maximum=10 * MAX_D) - 1
    p = np.maximum(law.pmf, 0.0)
    p = p / p.sum()
    p = (p + p[::-1]) / 2  # symmetric, as optimal as p (see design_ptable)
    q = I_ + 2 + D
    G = count_path(I_ + 1, outputs=range(q))
    fixed = {}
    for n in range(D, I_ + 2):
        row = np.zeros(q)
        row[n - D : n + D + 1] = p
        fixed[n] = row
    counts = np.arange(I_ + 2)
    cons = [
        design.support(G, np.minimum(counts, D), D),
        design.zero_bias(G),
        design.loss_cap(G, V, loss="squared"),
    ]
    res = design.min_delta(G, epsilon=eps, fixed=fixed, constraints=cons, solver=solver)
    P = res.mechanism.probabilities[: I_ + 1]
    table = Ptable(P / P.sum(axis=1, keepdims=True))
    return OptimalTable(table, law, law.delta, float(res.achieved_delta), res)
