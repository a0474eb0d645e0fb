r"""The perturbation-table designers of the cell-key method as registered formulations.

An agency's perturbation table (ptable) is a mechanism on the count path: row i is the law of
the published count of a cell whose true count is i (Sadeghi & Chien, §3–4). Both models are the
general min-δ LP (:func:`~rainbowdp.design.min_delta`, every event: exact (ε, δ)-DP) with the
agency's constraints -- zero bias, a variance cap V, noise in [-D, D] and no negative output:

``"ptable-optimal-law"``
    the data-independent noise law of the counts >= D: the count path D, D + 1 with both rows
    tied to one shifted PMF on [-D, D] (every edge of counts >= D is a translate of it);
``"ptable-optimal"``
    the rows of the counts below D, the law of the counts >= D fixed: the count path
    0..I + 1 with the rows D..I + 1 fixed to the law shifted to their count.

The closed forms (the truncated geometric law and its two-block mixtures), the comparison of
the candidates by the verifier and the ptable semantics stay with :mod:`rainbowdp.cellkey`,
which calls these designers.

References
----------
.. [1] P. Sadeghi, C.-H. Chien, "On the connection between the ABS perturbation methodology and
   differential privacy" (2023), Sections 2–4.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._validation import check_epsilon, check_int, check_nonnegative_float, real_array
from ..builders import count_path
from ..exceptions import ParameterError
from ..graph import RainbowGraph
from ._constraints import loss_cap, support, zero_bias
from ._min_delta import min_delta
from ._result import DesignResult
from .formulations import Formulation, register

__all__ = ["geometric_floor", "ptable_law", "ptable_rows", "tied_count_pair"]

#: Largest D of the two designers (the law's LP has about 4D + 4 variables and rows).
MAX_D = 2000


def _check(epsilon: Any, D: Any, variance: Any, max_D: int) -> tuple[float, int, float]:
    eps = check_epsilon(epsilon, finite_exp=True)
    D = check_int(D, "D", minimum=1, maximum=max_D)
    V = check_nonnegative_float(variance, "variance")
    if not (V > 0 and math.isfinite(V)):
        raise ParameterError(f"`variance` must be positive and finite, got variance={variance!r}.")
    return eps, D, V


def tied_count_pair(D: int) -> tuple[RainbowGraph, np.ndarray]:
    """The count path D, D + 1 (outputs 0..2D + 1) and the tying map of one shifted PMF.

    Entry (r, y) of the map is the variable of output y at count D + r: the noise value
    y - (D + r) + D when it lies in [-D, D], else a variable of its own (zeroed by the support
    constraint).
    """
    G = count_path(D + 1, outputs=range(2 * D + 2), start=D)
    q = G.n_outputs
    y = np.arange(q)
    T = np.empty((2, q), dtype=np.int64)
    for r, n in enumerate((D, D + 1)):
        z = y - n
        inside = np.abs(z) <= D
        T[r] = np.where(inside, z + D, 2 * D + 1 + r * q + y)  # outside: own (zeroed) variable
    return G, T


def ptable_law(D: int, *, epsilon: float, variance: float, solver: Any = None) -> DesignResult:
    r"""The zero-bias noise on [-D, D] with :math:`E[Z^2] \le V` and the smallest exact δ at ε,
    by the min-δ LP.

    .. math::

        \min_{p, \delta} \delta \quad\text{s.t.}\quad
        \sum_z p(z) = 1,\; \sum_z z\,p(z) = 0,\; \sum_z z^2 p(z) \le V,\; p \ge 0,\;
        H_{e^\epsilon}(p(\cdot) \,\|\, p(\cdot - 1)) \le \delta,\;
        H_{e^\epsilon}(p(\cdot - 1) \,\|\, p(\cdot)) \le \delta,

    on the count path D, D + 1 (:func:`tied_count_pair`) with the side constraints
    :func:`~rainbowdp.design.support`, :func:`~rainbowdp.design.zero_bias` and
    :func:`~rainbowdp.design.loss_cap` (squared: the variance under zero bias).

    Parameters
    ----------
    D : int
        Largest absolute noise value, 1 <= D <= 2000.
    epsilon : float
        ε >= 0.
    variance : float
        The cap V > 0.
    solver : optional
        As for :func:`rainbowdp.design.min_delta`.

    Returns
    -------
    DesignResult
        Of :func:`~rainbowdp.design.min_delta`: row 0 of the mechanism, outputs 0..2D, is the
        law on z = -D..D; ``achieved_delta`` is its exact δ from the verifier. The LP resolves
        δ only to its tolerances (about 1e-9).

    Examples
    --------
    >>> r = ptable_law(3, epsilon=0.5, variance=1.0)
    >>> r.mechanism.probabilities.shape, r.achieved_delta < 0.5
    ((2, 8), True)
    """
    eps, D, V = _check(epsilon, D, variance, MAX_D)
    G, T = tied_count_pair(D)
    cons = [support(G, D, D), zero_bias(G), loss_cap(G, V, loss="squared")]
    return min_delta(G, epsilon=eps, constraints=cons, tied=T, solver=solver)


def ptable_rows(
    pmf: Any, *, epsilon: float, variance: float, rows: int | None = None, solver: Any = None
) -> DesignResult:
    r"""The rows of the counts below D with the smallest exact δ over every edge, given the law
    of the counts >= D.

    The count path 0..I + 1 (outputs 0..I + 1 + D), I = ``rows`` - 1: the rows D..I + 1 are
    fixed to ``pmf`` shifted to their count; every row has zero bias, :math:`E[(j - i)^2] \le
    V` and support :math:`[i - \min(i, D), i + D]` (no negative output, so count 0 is
    published as 0); minimise the largest δ over every edge (min-δ, every event).

    Parameters
    ----------
    pmf : array_like, shape (2D + 1,)
        The law of the counts >= D on z = -D..D (non-negative, summing to 1).
    epsilon : float
        ε >= 0.
    variance : float
        The cap V > 0.
    rows : int, optional
        Rows 0..rows - 1 of the table (default D + 1; at least D + 1).
    solver : optional
        As for :func:`rainbowdp.design.min_delta`.

    Returns
    -------
    DesignResult
        Of :func:`~rainbowdp.design.min_delta` on the count path 0..I + 1; the table is its
        rows 0..I.

    Examples
    --------
    >>> p = np.array([0.1, 0.2, 0.4, 0.2, 0.1])
    >>> r = ptable_rows(p, epsilon=1.0, variance=2.0)
    >>> r.mechanism.graph.n_nodes, r.achieved_delta < 1.0
    (4, True)
    """
    p = real_array(pmf, "pmf")
    if p.ndim != 1 or p.size % 2 != 1 or p.size < 3:
        raise ParameterError(f"`pmf` must have shape (2D + 1,) with D >= 1, got {p.shape}.")
    eps, D, V = _check(epsilon, (p.size - 1) // 2, variance, MAX_D)
    I_ = D if rows is None else check_int(rows, "rows", minimum=D + 1, maximum=10 * MAX_D) - 1
    q = I_ + 2 + D
    G = count_path(I_ + 1, outputs=range(q))
    fixed = {}
    for n in range(D, I_ + 2):
        row = np.zeros(q)
        row[n - D : n + D + 1] = p
        fixed[n] = row
    counts = np.arange(I_ + 2)
    cons = [
        support(G, np.minimum(counts, D), D),
        zero_bias(G),
        loss_cap(G, V, loss="squared"),
    ]
    return min_delta(G, epsilon=eps, fixed=fixed, constraints=cons, solver=solver)


def _law_example() -> dict[str, Any]:
    return {"D": 3, "epsilon": 1.0, "variance": 2.0}


def _rows_example() -> dict[str, Any]:
    return {"pmf": np.array([0.1, 0.2, 0.4, 0.2, 0.1]), "epsilon": 1.0, "variance": 2.0}


def geometric_floor(D: int, epsilon: float) -> tuple[float, float]:
    r"""The least exact δ at ε of any noise law on [-D, D] for neighbouring counts,
    :math:`1/c_D`, :math:`c_D = x^D + 2(x^D - 1)/(x - 1)` (2D + 1 at ε = 0), attained by the
    truncated geometric law :math:`p(z) \propto x^{-|z|}`, and that law's :math:`E[Z^2]`
    (``docs/cellkey.md``: a symmetric law's mass is at most :math:`c_D \delta`).
    Floats: an independent check of the designers, not a certified value."""
    k = np.arange(D + 1, dtype=np.float64)
    w = np.exp(-epsilon * k)
    mass = float(w[0] + 2.0 * w[1:].sum())
    return float(w[D]) / mass, float(2.0 * (k * k * w).sum()) / mass


def _law_check(
    result: DesignResult, *, D: int, epsilon: float, variance: float, solver: Any = None
) -> bool:
    """The LP's δ is the verifier's δ of its law, never below the floor :math:`1/c_D`, and
    equal to it when the truncated geometric law meets the variance cap."""
    floor, v = geometric_floor(D, epsilon)
    ok = abs(result.achieved_delta - result.objective) <= 1e-8
    ok = ok and result.objective >= floor - 1e-9
    return ok and (v > variance or abs(result.objective - floor) <= 1e-8)


def _rows_check(
    result: DesignResult,
    *,
    pmf: Any,
    epsilon: float,
    variance: float,
    rows: int | None = None,
    solver: Any = None,
) -> bool:
    """The LP's δ is the verifier's δ of the whole table, and at least the δ of the fixed edge
    (D, D + 1) (the law against its shift, both orders), which no choice of the small-count
    rows changes."""
    from ..privacy import hockey_stick

    p = np.asarray(pmf, dtype=np.float64)
    a, b = np.append(p, 0.0), np.insert(p, 0, 0.0)
    fixed = max(float(hockey_stick(a, b, epsilon)), float(hockey_stick(b, a, epsilon)))
    ok = abs(result.achieved_delta - result.objective) <= 1e-8
    return ok and result.objective >= fixed - 1e-9


register(
    Formulation(
        name="ptable-optimal-law",
        kind="lp",
        reference=(
            "Sadeghi & Chien (2023), the constraints of (2.1)-(2.7); exact DP beyond the paper"
        ),
        summary=(
            "zero-bias noise on [-D, D] with variance at most V minimising the exact delta of "
            "neighbouring counts >= D"
        ),
        solve=ptable_law,
        example=_law_example,
        check=_law_check,
    )
)
register(
    Formulation(
        name="ptable-optimal",
        kind="lp",
        reference="Sadeghi & Chien (2023), Sections 3-4 (the ptable); exact DP beyond the paper",
        summary=(
            "the small-count rows of a perturbation table (zero bias, variance cap, no negative "
            "output) minimising the exact delta over every edge, the rows >= D fixed"
        ),
        solve=ptable_rows,
        example=_rows_example,
        check=_rows_check,
    )
)
