r"""An agency's perturbation table next to the table rainbowdp designs for the same D and the
same variance cap: both exact (ε, δ), in one call (:func:`compare_with_design`).

The comparison keeps what the agency chose for utility -- the largest noise D and the largest
noise variance of its rows, V -- and asks what those cost in privacy. At the agency's ε it
gives the exact δ of its table and of :func:`design_ptable`'s table with the same D and
variance cap (``method="optimal"`` by default: the zero-bias noise on [-D, D] with the smallest
exact δ, and small-count rows designed for the smallest δ too; ``"maxent"``: the max-entropy
noise of variance V of Sadeghi & Chien, (2.1)–(2.7)). It also gives the ε each table needs for
the agency's own δ. Same D and same variance means the same worst-case and average distortion,
so the δ (or ε) difference is the privacy the agency's table leaves on the table.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any, Literal

from .._validation import check_epsilon
from ..exceptions import ParameterError
from ..mechanism import Mechanism
from ._audit import AuditReport, audit
from ._design import METHODS, PtableDesign, design_ptable
from ._display import html_table, num, require_pandas, up
from ._ptable import Ptable, as_ptable
from ._ptable_io import read_ptable
from ._ptable_ops import grid_text, power_of_ten

__all__ = ["DESIGN_KEYSIZE", "PtableComparison", "compare_with_design"]

#: Key grid of the designed table when the agency's grid is not a power of two (the grids
#: :func:`design_ptable` designs for); the designed table is then audited on the agency's grid.
DESIGN_KEYSIZE = 2**32


@dataclass(frozen=True)
class PtableComparison:
    r"""An agency's ptable and the table designed for its D and variance cap
    (:func:`compare_with_design`).

    Attributes
    ----------
    epsilon : float
        The ε at which δ is compared.
    D : int
        The agency table's largest noise (the design starts there).
    variance : float
        V: the largest noise variance of the agency table's rows, the design's variance cap.
    keysize : int or None
        The key grid both tables were audited on (None: the agency table as given, the
        designed table on its own grid).
    method : str
        The design's noise (``"optimal"`` or ``"maxent"``).
    table : Ptable
        The agency's table.
    agency : AuditReport
        Its audit at ε and at its own δ.
    design : PtableDesign
        The designed table (``design.table``; ``design.D`` > D when quantisation forced a
        larger D).
    designed : AuditReport
        The designed table's audit on the same grid, at ε and at the agency's δ.
    """

    epsilon: float
    D: int
    variance: float
    keysize: int | None
    method: str
    table: Ptable
    agency: AuditReport
    design: PtableDesign
    designed: AuditReport

    # ----------------------------------------------------------------------------- numbers
    @staticmethod
    def _from_d(report: AuditReport, which: str) -> float:
        ind = getattr(report, f"{which}_independent")
        return float((ind if ind is not None else getattr(report, which))[0])

    @property
    def agency_delta(self) -> float:
        """Exact δ at ε of the agency's table on the counts >= D (rounded up)."""
        return self._from_d(self.agency, "delta_at_epsilon")

    @property
    def designed_delta(self) -> float:
        """Exact δ at ε of the designed table on the counts >= D (rounded up)."""
        return self._from_d(self.designed, "delta_at_epsilon")

    @property
    def designed_epsilon(self) -> float:
        """The exact ε of the designed table at the agency's δ, on the counts >= D."""
        return self._from_d(self.designed, "epsilon_at_delta")

    @property
    def agency_epsilon(self) -> float:
        """The exact ε of the agency's table at its own δ, on the counts >= D: ε itself, up to
        the verifier's upward rounding."""
        return self._from_d(self.agency, "epsilon_at_delta")

    def _lines(self) -> list[dict[str, Any]]:
        out = []
        for name, rep, T, D in (
            ("agency", self.agency, self.table, self.D),
            (f"rainbowdp ({self.method})", self.designed, self.design.table, self.design.D),
        ):
            out.append(
                {
                    "table": name,
                    "D": D,
                    "rows": T.max_count + 1,
                    "max_variance": float(T.variance.max()),
                    "epsilon": self.epsilon,
                    "delta_counts_from_D": self._from_d(rep, "delta_at_epsilon"),
                    "delta_all_counts": float(rep.delta_at_epsilon[0]),
                    "epsilon_at_agency_delta": self._from_d(rep, "epsilon_at_delta"),
                }
            )
        return out

    @property
    def grid(self) -> str:
        """The key grid the tables are compared on, as shown: "keysize 10^8", or "as given"."""
        return "as given" if self.keysize is None else f"keysize {grid_text(self.keysize)}"

    # ----------------------------------------------------------------------------- display
    def __repr__(self) -> str:
        return (
            f"PtableComparison(epsilon={num(self.epsilon)}, D={self.D}, "
            f"variance={num(self.variance)}, agency_delta={up(self.agency_delta)}, "
            f"designed_delta={up(self.designed_delta)}, method={self.method!r})"
        )

    def __str__(self) -> str:
        grid = self.grid
        lines = [
            f"agency ptable vs rainbowdp ({self.method}) for D = {self.D}, variance cap "
            f"{num(self.variance)} ({grid})",
            f"  at epsilon = {num(self.epsilon)}: delta (counts >= D) agency "
            f"{up(self.agency_delta)}, rainbowdp {up(self.designed_delta)}",
            f"  at the agency's delta: epsilon agency {up(self.agency_epsilon)}, rainbowdp "
            f"{up(self.designed_epsilon)}",
            f"  delta over all counts: agency {up(self.agency.delta_at_epsilon[0])}, "
            f"rainbowdp {up(self.designed.delta_at_epsilon[0])}",
        ]
        if self.design.D != self.D:
            lines.append(
                f"  the design needed D = {self.design.D} after quantisation: its 'counts >= D'"
                f" numbers are on the counts >= {self.design.D}"
            )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = [
            ("epsilon", num(self.epsilon)),
            ("D, variance cap", f"{self.D}, {num(self.variance)}"),
            ("delta agency (counts >= D)", up(self.agency_delta)),
            (f"delta rainbowdp {self.method} (counts >= D)", up(self.designed_delta)),
            ("epsilon rainbowdp at the agency's delta", up(self.designed_epsilon)),
        ]
        return html_table("agency ptable vs rainbowdp design", rows)

    def to_pandas(self) -> Any:
        """One line per table: D, rows, largest variance, δ at ε (counts >= D, all counts),
        ε at the agency's δ (counts >= D)."""
        pd = require_pandas("PtableComparison")
        return pd.DataFrame(self._lines())

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (the two audits as dicts)."""
        return {
            "epsilon": self.epsilon,
            "D": self.D,
            "variance": self.variance,
            "keysize": self.keysize,
            "method": self.method,
            "tables": self._lines(),
            "agency": self.agency.to_dict(),
            "designed": self.designed.to_dict(),
        }


def _design_keysize(keysize: int | None) -> int:
    """The agency's grid if :func:`design_ptable` designs for it (a power of two up to 2^53,
    or 10^d with d <= 15: decimal keys), else :data:`DESIGN_KEYSIZE`."""
    if keysize is not None and 2 <= keysize <= 2**53:
        if keysize & (keysize - 1) == 0 or power_of_ten(keysize) is not None:
            return keysize
    return DESIGN_KEYSIZE


def compare_with_design(
    table: Ptable | Mechanism | str | os.PathLike,
    *,
    epsilon: float = 1.0,
    keysize: int | None = None,
    method: Literal["maxent", "optimal"] = "optimal",
) -> PtableComparison:
    r"""An agency's ptable and the table rainbowdp designs for the same D and variance cap, both
    audited exactly: δ at the agency's ε, and ε at the agency's δ.

    The agency's table (e.g. :meth:`Ptable.from_parameters` or :func:`read_ptable` of its file)
    fixes D (its largest noise) and V (the largest variance of its rows). :func:`design_ptable`
    then builds the table with noise on [-D, D], variance at most V and a δ at ε no larger
    than the agency's (counts >= D), starting at D -- a larger D only if quantisation at the
    key grid requires it. Both tables are audited on the same key grid: δ at ε and ε at the
    agency's δ, over the counts >= D and over all counts. ``method="optimal"`` gives the
    smallest δ at this ε; at other ε its δ can be larger than the agency's (the figure of
    ``rainbowdp.plot`` draws both δ(ε) curves).

    Parameters
    ----------
    table : Ptable, Mechanism on a count path, or path of a ptable file
    epsilon : float, default 1.0
        The ε at which the tables are compared (> 0).
    keysize : int, optional
        The key grid the tables are applied on (e.g. ``10**8`` for cellKey's 8-digit record
        keys, ``2**32`` for the ABS). Default: the agency table's own ``keysize`` (None: as
        given). The design is made for this grid if it is a power of two or ten, else for
        :data:`DESIGN_KEYSIZE` keys, and audited on this grid either way.
    method : {"optimal", "maxent"}, default "optimal"
        The designed noise (:func:`design_ptable`).

    Returns
    -------
    PtableComparison

    Raises
    ------
    ParameterError
        For a bad ε, key grid or method.
    InfeasibleDesignError
        When no table of that D (or up to 64 more) meets the agency's δ after quantisation.

    References
    ----------
    Sadeghi & Chien (2023), Sections 2.4 and 4 (the design and its quantisation); the R package
    ``ptable`` (``create_cnt_ptable``) for agency tables built from parameters.

    Examples
    --------
    >>> T = Ptable.from_parameters(3, 1.0)                  # ptable's defaults, D = 3, V = 1
    >>> c = compare_with_design(T, epsilon=1.0)
    >>> c.D, round(c.variance, 6), c.designed_delta <= c.agency_delta
    (3, 1.0, True)
    """
    eps = check_epsilon(epsilon, finite_exp=True)
    if eps <= 0:
        raise ParameterError(f"`epsilon` must be > 0, got epsilon={epsilon!r}.")
    if not isinstance(method, str) or method not in METHODS:
        raise ParameterError(f"`method` must be one of {METHODS}, got method={method!r}.")
    read: Any = read_ptable(table) if isinstance(table, str | os.PathLike) else table
    T = as_ptable(read, "table")  # a magnitude table is refused here
    agency0 = audit(T, epsilons=[eps], keysize=keysize)
    K = agency0.keysize
    ind = agency0.delta_at_epsilon_independent
    delta_a = float((ind if ind is not None else agency0.delta_at_epsilon)[0])
    agency = audit(T, epsilons=[eps], deltas=[delta_a], keysize=keysize)
    D = T.D
    V = float(T.variance.max())
    if not (V > 0 and math.isfinite(V)):
        raise ParameterError(f"`table` must have noise (a row with positive variance), got {T!r}.")
    Kd = _design_keysize(K)
    target = min(1.0, max(delta_a, 1.0 / Kd))
    design = design_ptable(
        eps, target, method=method, keysize=Kd, D=D, variance=V, rows=max(D, T.max_count) + 1
    )
    designed = audit(design.table, epsilons=[eps], deltas=[delta_a], keysize=K)
    return PtableComparison(eps, D, V, K, method, T, agency, design, designed)
