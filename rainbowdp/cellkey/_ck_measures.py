r"""The utility measures of the R package ``cellKey``, with its conventions (``ck_cnt_measures``).

``cellKey::ck_cnt_measures(orig, pert, exclude_zeros = TRUE)`` (``R/ck_cnt_measures.R``):

* ``overview``: the distribution of the noise, defined as **orig − pert**;
* ``d1`` = :math:`|p - o|`, ``d2`` = :math:`|p - o| / o` with 0/0 := 0 (a positive value over 0
  stays infinite), ``d3`` = :math:`|\sqrt p - \sqrt o|`; with ``exclude_zeros`` (the default)
  over the cells whose **perturbed** value is not 0, else over all cells;
* ``measures``: per distance, the minimum, the quantiles 10 %–40 %, the mean, the median, the
  quantiles 60 %–90 %, 95 %, 99 % (R's default type 7, numpy's linear) and the maximum, each
  rounded to 3 digits (``get_distr_vals`` in ``R/helpers.R``);
* ``cumdistr_d1``: the cumulative count and share of cells at or below each value of d1;
  ``cumdistr_d2`` and ``cumdistr_d3``: the same over the intervals [0, 0.02], (0.02, 0.05],
  (0.05, 0.1], (0.1, 0.2], (0.2, 0.3], (0.3, 0.4], (0.4, 0.5], (0.5, Inf];
* ``false_zero`` = #{pert = 0, orig ≠ 0}, ``false_nonzero`` = #{orig = 0, pert ≠ 0}, always
  over all cells.

rainbowdp's own measures (:func:`~._utility.utility_measures`: noise = pert − orig, exclusions
by the true count) stay as they are; this function gives the same numbers as ``cellKey`` for
the same counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise
from types import MappingProxyType
from typing import Any

import numpy as np

from ..exceptions import ParameterError, ParameterTypeError
from ._display import html_table, require_pandas

__all__ = ["CUT_POINTS", "MEASURE_NAMES", "CkCntMeasures", "ck_cnt_measures"]

#: The rows of ``measures`` (``get_distr_vals``).
MEASURE_NAMES = (
    "Min",
    "Q10",
    "Q20",
    "Q30",
    "Q40",
    "Mean",
    "Median",
    "Q60",
    "Q70",
    "Q80",
    "Q90",
    "Q95",
    "Q99",
    "Max",
)
#: The bounds of the intervals of ``cumdistr_d2`` and ``cumdistr_d3`` (``quantvals``).
CUT_POINTS = (0.0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, float("inf"))
_PROBS = (0.1, 0.2, 0.3, 0.4, None, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99)


def _labels() -> tuple[str, ...]:
    """R's labels of ``cut(x, quantvals, include.lowest = TRUE)``."""

    def fmt(x: float) -> str:
        return "Inf" if x == float("inf") else f"{x:g}"

    pts = CUT_POINTS
    first = f"[{fmt(pts[0])},{fmt(pts[1])}]"
    return (first, *(f"({fmt(a)},{fmt(b)}]" for a, b in pairwise(pts[1:])))


def _distr_vals(d: np.ndarray) -> np.ndarray:
    """``get_distr_vals``: the 14 statistics of :data:`MEASURE_NAMES`, rounded to 3 digits."""
    d = d[~np.isnan(d)]
    if d.size == 0:
        return np.full(len(MEASURE_NAMES), np.nan)
    with np.errstate(invalid="ignore"):
        stats = [float(d.min())]
        for p in _PROBS:
            stats.append(float(d.mean()) if p is None else float(np.quantile(d, p)))
        stats.append(float(d.max()))
    return np.round(np.array(stats), 3)


@dataclass(frozen=True)
class CumDistr:
    """A cumulative distribution of a distance: category labels, counts at or below, shares."""

    cat: tuple[str, ...]
    cnt: np.ndarray
    pct: np.ndarray

    def to_dict(self) -> dict[str, Any]:
        return {"cat": list(self.cat), "cnt": self.cnt.tolist(), "pct": self.pct.tolist()}


def _cum_values(d: np.ndarray) -> CumDistr:
    vals, cnt = np.unique(d, return_counts=True)
    cum = np.cumsum(cnt)
    return CumDistr(tuple(f"{v:g}" for v in vals.tolist()), cum, cum / max(d.size, 1))


def _cum_intervals(d: np.ndarray) -> CumDistr:
    pts = np.array(CUT_POINTS)
    # right-closed intervals, the first closed at 0 (include.lowest = TRUE)
    idx = np.searchsorted(pts, d, side="left") - 1
    idx[d == pts[0]] = 0
    idx = idx[(idx >= 0) & (idx < len(pts) - 1)]  # NaN falls out, as R's NA
    counts = np.bincount(idx, minlength=len(pts) - 1)
    cum = np.cumsum(counts)
    return CumDistr(_labels(), cum, cum / max(d.size, 1))


@dataclass(frozen=True)
class CkCntMeasures:
    """The result of :func:`ck_cnt_measures`, with ``cellKey``'s element names.

    Attributes
    ----------
    overview : mapping
        ``noise`` (the distinct values of orig − pert, increasing), ``cnt`` and ``pct`` (share
        of all cells).
    measures : mapping
        ``what`` (:data:`MEASURE_NAMES`) and ``d1``, ``d2``, ``d3``: the statistics of each
        distance, rounded to 3 digits.
    cumdistr_d1, cumdistr_d2, cumdistr_d3 : CumDistr
    false_zero, false_nonzero : int
    exclude_zeros : bool
    """

    overview: Mapping[str, np.ndarray]
    measures: Mapping[str, Any]
    cumdistr_d1: CumDistr
    cumdistr_d2: CumDistr
    cumdistr_d3: CumDistr
    false_zero: int
    false_nonzero: int
    exclude_zeros: bool

    def measure(self, what: str) -> tuple[float, float, float]:
        """(d1, d2, d3) of one statistic, e.g. ``measure("Mean")``."""
        if what not in MEASURE_NAMES:
            raise ParameterError(f"`what` must be one of {MEASURE_NAMES}, got what={what!r}.")
        i = MEASURE_NAMES.index(what)
        return tuple(float(self.measures[d][i]) for d in ("d1", "d2", "d3"))  # type: ignore[return-value]

    def to_dict(self) -> dict[str, Any]:
        return {
            "overview": {k: v.tolist() for k, v in self.overview.items()},
            "measures": {
                k: (list(v) if k == "what" else v.tolist()) for k, v in self.measures.items()
            },
            "cumdistr_d1": self.cumdistr_d1.to_dict(),
            "cumdistr_d2": self.cumdistr_d2.to_dict(),
            "cumdistr_d3": self.cumdistr_d3.to_dict(),
            "false_zero": self.false_zero,
            "false_nonzero": self.false_nonzero,
            "exclude_zeros": self.exclude_zeros,
        }

    def to_pandas(self) -> Any:
        """The ``measures`` table as a pandas DataFrame (pandas is imported here)."""
        pd = require_pandas("CkCntMeasures")
        return pd.DataFrame({k: list(v) for k, v in self.measures.items()})

    def __repr__(self) -> str:
        d1, d2, d3 = self.measure("Mean")
        return (
            f"CkCntMeasures(mean d1={d1:g}, d2={d2:g}, d3={d3:g}, false_zero={self.false_zero}, "
            f"false_nonzero={self.false_nonzero}, exclude_zeros={self.exclude_zeros})"
        )

    def __str__(self) -> str:
        lines = ["cellKey count measures (ck_cnt_measures conventions)"]
        for what in ("Min", "Mean", "Median", "Max"):
            d1, d2, d3 = self.measure(what)
            lines.append(f"  {what:<6} d1 = {d1:g}, d2 = {d2:g}, d3 = {d3:g}")
        lines.append(
            f"  false zeros: {self.false_zero}, false non-zeros: {self.false_nonzero}, "
            f"exclude_zeros = {self.exclude_zeros}"
        )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = []
        for what in ("Min", "Mean", "Median", "Max"):
            d1, d2, d3 = self.measure(what)
            rows.append((what, f"d1 = {d1:g}, d2 = {d2:g}, d3 = {d3:g}"))
        rows.append(("false zeros / non-zeros", f"{self.false_zero} / {self.false_nonzero}"))
        return html_table("cellKey count measures", rows)


def _numbers(value: Any, name: str) -> np.ndarray:
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise ParameterTypeError(f"`{name}` must be a numeric vector ({exc}).") from None
    if arr.dtype.kind not in "iuf" or arr.ndim != 1:
        raise ParameterTypeError(
            f"`{name}` must be a numeric vector (1-D), got dtype {arr.dtype}, shape {arr.shape}."
        )
    arr = arr.astype(np.float64)
    if arr.size and (not np.all(np.isfinite(arr)) or arr.min() < 0):
        raise ParameterError(f"`{name}` must hold finite counts >= 0.")
    return arr


def ck_cnt_measures(orig: Any, pert: Any, *, exclude_zeros: bool = True) -> CkCntMeasures:
    r"""Utility measures of perturbed counts as the R package ``cellKey`` computes them.

    Parameters
    ----------
    orig, pert : array_like of numbers, shape (cells,)
        Original and perturbed counts (>= 0).
    exclude_zeros : bool, default True
        ``cellKey``'s default: compute d1, d2, d3 over the cells whose *perturbed* value is
        not 0 only; False uses every cell.

    Returns
    -------
    CkCntMeasures

    Raises
    ------
    ParameterError, ParameterTypeError
        Non-numeric or negative input, unequal lengths, a non-boolean ``exclude_zeros``.

    Notes
    -----
    The conventions of ``cellKey::ck_cnt_measures`` (module notes): noise = orig − pert;
    d2 with 0/0 := 0; statistics rounded to 3 digits.

    References
    ----------
    R package ``cellKey`` (sdcTools), ``R/ck_cnt_measures.R`` and ``get_distr_vals`` in
    ``R/helpers.R``.

    Examples
    --------
    ``cellKey``'s documented example (``?ck_cnt_measures``):

    >>> orig = list(range(1, 11)) + [0, 0]
    >>> pert = list(orig); pert[0], pert[4], pert[6] = 0, 6, 9
    >>> m = ck_cnt_measures(orig, pert)
    >>> m.measure("Mean")
    (0.333, 0.054, 0.063)
    >>> m.false_zero, m.false_nonzero
    (1, 0)
    """
    o = _numbers(orig, "orig")
    p = _numbers(pert, "pert")
    if o.shape != p.shape:
        raise ParameterError("Number of elements in `orig` and `pert` differs.")
    if not isinstance(exclude_zeros, bool | np.bool_):
        raise ParameterTypeError(
            f"`exclude_zeros` must be a scalar logical value, got exclude_zeros={exclude_zeros!r}."
        )
    noise_values, noise_counts = np.unique(o - p, return_counts=True)
    keep = p != 0 if exclude_zeros else np.ones(o.shape, dtype=bool)
    ov, pv = o[keep], p[keep]
    d1 = np.abs(pv - ov)
    with np.errstate(divide="ignore", invalid="ignore"):
        d2 = d1 / ov
    d2[np.isnan(d2)] = 0.0
    d3 = np.abs(np.sqrt(pv) - np.sqrt(ov))
    measures: dict[str, Any] = {"what": MEASURE_NAMES}
    for name, d in (("d1", d1), ("d2", d2), ("d3", d3)):
        vals = _distr_vals(d)
        vals.setflags(write=False)
        measures[name] = vals
    overview = {
        "noise": noise_values,
        "cnt": noise_counts.astype(np.int64),
        "pct": noise_counts / max(o.size, 1),
    }
    return CkCntMeasures(
        overview=MappingProxyType(overview),
        measures=MappingProxyType(measures),
        cumdistr_d1=_cum_values(d1),
        cumdistr_d2=_cum_intervals(d2),
        cumdistr_d3=_cum_intervals(d3),
        false_zero=int(np.count_nonzero((p == 0) & (o != 0))),
        false_nonzero=int(np.count_nonzero((o == 0) & (p != 0))),
        exclude_zeros=bool(exclude_zeros),
    )
