r"""Designing a perturbation table for a target (ε, δ): the noise, the small-count rows, the
quantisation by KEYSIZE, and a check of the table actually applied.

:func:`design_ptable` takes the noise law from the design guide of Sadeghi & Chien (§2.4,
``method="maxent"``: the max-entropy noise with the smallest D meeting δ at ε) or the law with
the smallest exact δ under the same constraints (``method="optimal"``,
:func:`~rainbowdp.cellkey.optimal_table`, which also designs the rows of the counts below D),
builds the table -- for ``"maxent"`` with zero-bias anchored rows for the counts below D
(:meth:`Ptable.from_noise`) --, quantises it at KEYSIZE (the mechanism the cell
keys apply, (4.2)–(4.5)), and audits the quantised table with the verifier. Quantisation can
lose support or raise ε (§4.3); the design then moves to the next D until the *applied* table
meets δ at ε on the counts >= D -- the setting the paper's analysis covers (its footnote 1).
The δ of the edges below D (the anchored rows, data-dependent) is reported beside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

from .._validation import check_delta, check_epsilon, check_int, check_nonnegative_float
from ..exceptions import InfeasibleDesignError, ParameterError
from ._audit import AuditReport, audit
from ._decimal_keys import FLOAT_DIGITS
from ._display import html_table, num, up
from ._ptable import Ptable
from ._ptable_ops import grid_text, grid_type, power_of_ten
from ._quantise import check_key_grid

__all__ = ["METHODS", "PtableDesign", "design_ptable"]

#: The noise laws :func:`design_ptable` can use.
METHODS = ("maxent", "optimal")
#: How many D beyond the first candidate are tried when quantisation breaks the target.
MAX_EXTRA_D = 64
#: Stop after this many consecutive D whose quantised table loses support: a larger D only
#: thins the tails further below 1/KEYSIZE.
MAX_LOST_IN_A_ROW = 4


@dataclass(frozen=True)
class PtableDesign:
    r"""A perturbation table designed for (ε, δ) (:func:`design_ptable`).

    Attributes
    ----------
    table : Ptable
        The quantised table (probabilities :math:`p^Q`, multiples of 1/KEYSIZE) with its
        ``keysize``: exactly what the cell keys apply, ready for :func:`write_ptable`.
    method : str
    epsilon, target_delta : float
    D : int
        Largest absolute noise value.
    gamma : float or None
        γ of the max-entropy law (None for ``method="optimal"``).
    variance : float
        Variance of the noise before quantisation.
    delta : float
        Exact δ at ε of the applied table on the neighbouring counts >= D (the verifier's,
        rounded up): at most ``target_delta``. It does *not* cover the counts below D.
    delta_all_counts : float
        Exact δ at ε over every count, the anchored small-count rows included (far larger:
        with zero bias and count 0 published as 0, the edge (0, 1) alone forces a large δ).
    report : AuditReport
        The audit of the applied table.
    """

    table: Ptable
    method: str
    epsilon: float
    target_delta: float
    D: int
    gamma: float | None
    variance: float
    delta: float
    delta_all_counts: float
    report: AuditReport

    # -------------------------------------------------------------------------------- display
    def _method_text(self) -> str:
        if self.method == "maxent":
            return (
                "max-entropy noise of the design guide (Sadeghi & Chien 2.4); "
                'method="optimal" gives the smallest exact delta under the same constraints'
            )
        return "the smallest exact delta under zero bias, the variance cap and support [-D, D]"

    def _summary(self) -> list[tuple[str, str]]:
        K = self.table.keysize
        return [
            ("method", f"{self.method}: {self._method_text()}"),
            ("epsilon", num(self.epsilon)),
            (f"delta on counts >= {self.D}", f"{up(self.delta)} (target {num(self.target_delta)})"),
            ("delta over all counts", up(self.delta_all_counts)),
            ("D", str(self.D)),
            ("rows", f"0..{self.table.max_count}"),
            ("keysize", "-" if K is None else grid_text(K)),
            ("noise variance", num(self.variance)),
        ]

    def __repr__(self) -> str:
        return (
            f"PtableDesign(method={self.method!r}, epsilon={num(self.epsilon)}, "
            f"delta={up(self.delta)} on counts >= {self.D} (all counts: "
            f"{up(self.delta_all_counts)}), target={num(self.target_delta)}, D={self.D}, "
            f"rows={self.table.max_count + 1}, variance={num(self.variance)})"
        )

    def __str__(self) -> str:
        K = self.table.keysize
        lines = [
            f"perturbation table designed for epsilon = {num(self.epsilon)}, delta = "
            f"{num(self.target_delta)} (method {self.method!r}): D = {self.D}, rows "
            f"0..{self.table.max_count}, keysize {'-' if K is None else grid_text(K)}",
            f"  delta = {up(self.delta)} on neighbouring counts >= {self.D} (the applied, "
            "quantised table)",
            f"  delta = {up(self.delta_all_counts)} over all counts (the rows below {self.D} "
            "included)",
            f"  noise variance {num(self.variance)}",
        ]
        if self.method == "maxent":
            lines.append(
                '  method="optimal" gives the smallest exact delta under the same constraints'
            )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return html_table("perturbation table design", self._summary())

    def to_pandas(self) -> Any:
        """The designed table's entries (:meth:`Ptable.to_pandas`)."""
        return self.table.to_pandas()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (the table itself is written with :func:`write_ptable`)."""
        return {
            "method": self.method,
            "epsilon": self.epsilon,
            "target_delta": self.target_delta,
            "D": self.D,
            "gamma": self.gamma,
            "variance": self.variance,
            "delta": self.delta,
            "delta_all_counts": self.delta_all_counts,
            "keysize": self.table.keysize,
            "rows": self.table.max_count + 1,
        }


def _table(
    method: str, eps: float, D: int, variance: float | None, rows: int, K: int
) -> tuple[Ptable, float | None, float]:
    """(table, γ or None, variance of the noise) of the chosen method at D."""
    from ..noise import tablebuilder as tb

    if method == "maxent":
        g = tb.guide_gamma(eps, D) if variance is None else tb.gamma_for_variance(variance, D)
        T = Ptable.from_noise(
            tb.pmf(g, D), low=-D, rows=rows - 1, keysize=K, key_type=grid_type(K)[0]
        )
        return T, g, tb.variance(g, D)
    from ._optimal import optimal_table

    V = tb.variance(tb.guide_gamma(eps, D), D) if variance is None else variance
    r = optimal_table(eps, D=D, variance=V, rows=rows)
    return (
        Ptable(r.table.probabilities, keysize=K, key_type=grid_type(K)[0]),
        None,
        r.law.variance,
    )


def _design_grid(keysize: Any) -> int:
    """The key grid of :func:`design_ptable`: a power of two, or 10^d (decimal keys)."""
    K = check_key_grid(keysize)
    if K & (K - 1) and (power_of_ten(K) is None or K > 10**FLOAT_DIGITS):
        raise ParameterError(
            "`keysize` must be a power of two (integer keys) or 10**d with d in "
            f"1..{FLOAT_DIGITS} (decimal keys with d digits), got keysize={keysize!r}."
        )
    return K


def design_ptable(
    epsilon: float,
    delta: float,
    *,
    method: Literal["maxent", "optimal"] = "maxent",
    keysize: int = 2**32,
    rows: int | None = None,
    D: int | None = None,
    variance: float | None = None,
) -> PtableDesign:
    r"""A perturbation table whose applied (quantised) mechanism is (ε, δ)-DP on counts >= D.

    Parameters
    ----------
    epsilon : float
        ε > 0.
    delta : float
        Target δ in (0, 1].
    method : {"maxent", "optimal"}, default "maxent"
        ``"maxent"``: the max-entropy noise of the design guide (Sadeghi & Chien §2.4: γ of
        the guide, or the γ of ``variance`` if given). ``"optimal"``: the zero-bias noise on
        [-D, D] with the same variance cap and the smallest exact δ, and the small-count rows
        with the smallest exact δ given it (:func:`~rainbowdp.cellkey.optimal_table`).
    keysize : int, default 2**32
        KEYSIZE of the cell keys: a power of two (integer keys 0..K-1), or :math:`10^d`, d in
        1..15, for the decimal keys with d digits of ``cellKey`` and Tau-Argus (the table is
        quantised and audited on that grid, ``key_type="decimal"``).
    rows : int, optional
        Rows 0..rows - 1 of the table (default D + 1: the last row is data-independent).
    D : int, optional
        Start the search at this D (default: the guide's D*).
    variance : float, optional
        The variance (``"maxent"``) or variance cap (``"optimal"``) instead of the guide's.

    Returns
    -------
    PtableDesign

    Raises
    ------
    InfeasibleDesignError
        If δ < 1/KEYSIZE (δ^Q >= 1/KEYSIZE with full support, §4.2), or no D up to 64 beyond
        the first meets the target after quantisation (the search stops early once 4 D in a
        row lose support: a larger D only thins the tails).

    Examples
    --------
    >>> d = design_ptable(0.5, 1e-4)          # Example 1 at KEYSIZE 2^32
    >>> d.D, d.delta <= 1e-4, d.table.keysize == 2**32
    (25, True, True)
    >>> c = design_ptable(0.5, 1e-4, keysize=10**8)   # for cellKey's 8-digit record keys
    >>> c.table.key_type, c.table.key_digits, c.delta <= 1e-4
    ('decimal', 8, True)
    """
    eps = check_epsilon(epsilon, finite_exp=True)
    if eps <= 0:
        raise ParameterError(f"`epsilon` must be > 0, got epsilon={epsilon!r}.")
    target = check_delta(delta)
    if target <= 0:
        raise ParameterError(f"`delta` must be > 0, got delta={delta!r}.")
    if not isinstance(method, str) or method not in METHODS:
        raise ParameterError(f"`method` must be one of {METHODS}, got method={method!r}.")
    K = _design_grid(keysize)
    V = None if variance is None else check_nonnegative_float(variance, "variance")
    if V is not None and not (0 < V < math.inf):
        raise ParameterError(f"`variance` must be positive and finite, got variance={variance!r}.")
    if D is None:
        from ..noise import tablebuilder as tb

        start = tb.design(eps, target).D if V is None else 1
    else:
        start = check_int(D, "D", minimum=1, maximum=10_000)
    if target < 1.0 / K:
        raise InfeasibleDesignError(
            f"delta={target:g} is below 1/keysize = {1.0 / K:g}: with full support the applied "
            f"table puts at least 1/keysize on each extreme noise value, so its delta is at "
            f"least that (Sadeghi & Chien, 4.2); use a larger `keysize`, got keysize={K}."
        )
    lost_in_a_row = 0
    last = start
    for d in range(start, start + MAX_EXTRA_D + 1):
        last = d
        if V is not None and method == "maxent" and not V < d * (d + 1) / 3:
            continue  # Proposition 1: no max-entropy law of this variance on [-d, d]
        n_rows = d + 1 if rows is None else check_int(rows, "rows", minimum=d + 1)
        T, g, var = _table(method, eps, d, V, n_rows, K)
        rep = audit(T, epsilons=[eps], keysize=K)
        indep = rep.delta_at_epsilon_independent
        got = rep.delta_at_epsilon[0] if indep is None else indep[0]
        lost_in_a_row = lost_in_a_row + 1 if rep.lost_support else 0
        if lost_in_a_row >= MAX_LOST_IN_A_ROW:
            break
        if got <= target and not rep.lost_support:
            return PtableDesign(
                T.quantised(K),
                method,
                eps,
                target,
                d,
                g,
                var,
                got,
                rep.delta_at_epsilon[0],
                rep,
            )
    why = " (larger D lose support: tails below 1/keysize)" if lost_in_a_row else ""
    raise InfeasibleDesignError(
        f"no D in [{start}, {last}] gives a table meeting delta={target:g} at "
        f"epsilon={eps:g} after quantisation with keysize={K}{why}; use a larger `keysize` or "
        "a larger `delta`."
    )
