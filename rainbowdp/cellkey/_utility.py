r"""Utility of a perturbed frequency table: the distances between the true and the published
counts over the cells (:func:`utility_measures`, :func:`utility`).

References
----------
.. [1] P. Sadeghi, C.-H. Chien, "On the connection between the ABS perturbation methodology and
   differential privacy" (2023), Sections 3–4.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from ..exceptions import ParameterError, ParameterTypeError
from ._display import html_table, num, require_pandas
from ._keys import int_array

__all__ = ["QUANTILES", "Distances", "Utility", "utility", "utility_measures"]

#: Quantiles reported by :func:`utility_measures`.
QUANTILES = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99)


@dataclass(frozen=True)
class Distances:
    """Summary of one distance over a set of cells (all NaN when the set is empty).

    Attributes
    ----------
    n : int
        Number of cells summarised.
    mean, max : float
    quantiles : mapping of float to float
        At the probabilities :data:`QUANTILES` (linear interpolation, numpy's default).
    """

    n: int
    mean: float
    max: float
    quantiles: Mapping[float, float]

    @classmethod
    def of(cls, values: np.ndarray) -> Distances:
        if values.size == 0:
            nan = float("nan")
            return cls(0, nan, nan, MappingProxyType(dict.fromkeys(QUANTILES, nan)))
        q = np.quantile(values, QUANTILES)
        return cls(
            int(values.size),
            float(values.mean()),
            float(values.max()),
            MappingProxyType({p: float(x) for p, x in zip(QUANTILES, q, strict=True)}),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "mean": self.mean,
            "max": self.max,
            **{f"q{round(100 * p)}": x for p, x in self.quantiles.items()},
        }

    def __repr__(self) -> str:
        return f"Distances(n={self.n}, mean={num(self.mean)}, max={num(self.max)})"


@dataclass(frozen=True)
class Utility:
    r"""Utility (information loss) of a perturbed table, as users of the R package cellKey know it.

    Attributes
    ----------
    n_cells : int
    absolute : Distances
        d1 = :math:`|\hat n - n|`.
    relative : Distances
        d2 = :math:`|\hat n - n| / n`, over the cells with :math:`n > 0`.
    root : Distances
        d3 = :math:`|\sqrt{\hat n} - \sqrt n|`.
    false_zeros : int
        Cells with :math:`n > 0` published as 0.
    false_nonzeros : int
        Cells with :math:`n = 0` published as non-zero.
    noise_values, noise_counts : numpy.ndarray of int64
        The distribution of the noise :math:`\hat n - n`: its distinct values and how many
        cells got each (cellKey reports :math:`n - \hat n`, the opposite sign).
    exclude_zeros : bool
        Whether d1 and d3 skip the cells with :math:`n = 0`.
    """

    n_cells: int
    absolute: Distances
    relative: Distances
    root: Distances
    false_zeros: int
    false_nonzeros: int
    noise_values: np.ndarray = field(repr=False)
    noise_counts: np.ndarray = field(repr=False)
    exclude_zeros: bool = False

    @property
    def noise_share(self) -> np.ndarray:
        """The share of cells with each noise value."""
        return self.noise_counts / max(self.n_cells, 1)

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_cells": self.n_cells,
            "d1": self.absolute.to_dict(),
            "d2": self.relative.to_dict(),
            "d3": self.root.to_dict(),
            "false_zeros": self.false_zeros,
            "false_nonzeros": self.false_nonzeros,
            "noise": dict(zip(self.noise_values.tolist(), self.noise_counts.tolist(), strict=True)),
            "exclude_zeros": self.exclude_zeros,
        }

    # -------------------------------------------------------------------------------- display
    def _measures(self) -> list[tuple[str, str, Distances]]:
        return [
            ("d1", "|n^ - n|", self.absolute),
            ("d2", "|n^ - n| / n, n > 0", self.relative),
            ("d3", "|sqrt n^ - sqrt n|", self.root),
        ]

    def _noise_text(self, limit: int = 7) -> str:
        pairs = [f"{v}: {c}" for v, c in zip(self.noise_values, self.noise_counts, strict=True)]
        more = len(pairs) - limit
        return ", ".join(pairs[:limit]) + (f", ... ({more} more)" if more > 0 else "")

    def __repr__(self) -> str:
        return (
            f"Utility(n_cells={self.n_cells}, d1_mean={num(self.absolute.mean)}, "
            f"d1_max={num(self.absolute.max)}, d2_mean={num(self.relative.mean)}, "
            f"false_zeros={self.false_zeros}, false_nonzeros={self.false_nonzeros})"
        )

    def __str__(self) -> str:
        scope = " (cells with n > 0 for d1, d3)" if self.exclude_zeros else ""
        lines = [f"utility of a perturbed table: {self.n_cells} cells{scope}"]
        for name, what, d in self._measures():
            lines.append(
                f"  {name} = {what}: mean {num(d.mean)}, max {num(d.max)} over {d.n} cells"
            )
        lines.append(f"  false zeros {self.false_zeros}, false non-zeros {self.false_nonzeros}")
        lines.append(f"  noise n^ - n (value: cells): {self._noise_text()}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = [("cells", str(self.n_cells))]
        for name, what, d in self._measures():
            rows.append((f"{name} = {what}", f"mean {num(d.mean)}, max {num(d.max)} (n = {d.n})"))
        rows.append(("false zeros, false non-zeros", f"{self.false_zeros}, {self.false_nonzeros}"))
        rows.append(("noise (value: cells)", self._noise_text()))
        return html_table("utility of a perturbed table", rows)

    def to_pandas(self) -> Any:
        """The distances as a DataFrame: one row per measure d1, d2, d3; columns ``n``,
        ``mean``, ``max`` and the quantiles ``q10`` ... (as :meth:`Distances.to_dict`).

        Examples
        --------
        >>> utility_measures([0, 1, 2, 4], [0, 0, 3, 4]).to_pandas().loc["d1", "max"]
        np.float64(1.0)
        """
        pd = require_pandas("Utility")
        return pd.DataFrame([d.to_dict() for _, _, d in self._measures()], index=["d1", "d2", "d3"])


def _frozen(arr: np.ndarray) -> np.ndarray:
    arr.setflags(write=False)
    return arr


def _counts(value: Any, name: str) -> np.ndarray:
    arr = int_array(value, name)
    if arr.ndim != 1:
        raise ParameterError(f"`{name}` must be one-dimensional, got shape {arr.shape}.")
    if arr.size and arr.dtype.kind == "i" and arr.min() < 0:
        raise ParameterError(f"`{name}` must be counts >= 0, got {int(arr.min())}.")
    if arr.size and int(arr.max()) > 2**53:
        raise ParameterError(f"`{name}` must be counts <= 2^53, got {int(arr.max())}.")
    return arr.astype(np.int64)


def utility_measures(true: Any, perturbed: Any, *, exclude_zeros: bool = False) -> Utility:
    r"""Utility measures of a perturbed table from its true and published counts.

    Parameters
    ----------
    true, perturbed : array_like of int, shape (cells,)
        True and published counts, >= 0.
    exclude_zeros : bool, default False
        Compute d1 and d3 over the cells with true count > 0 only (cellKey's default is to
        exclude empty cells).

    Returns
    -------
    Utility

    Raises
    ------
    ParameterError, ParameterTypeError
        If the counts are not non-negative integers or their lengths differ.

    Notes
    -----
    d1 = :math:`|\hat n - n|`, d2 = :math:`|\hat n - n| / n` for :math:`n > 0`,
    d3 = :math:`|\sqrt{\hat n} - \sqrt n|`; each summarised by its mean, maximum and quantiles;
    false zeros :math:`\#\{n > 0, \hat n = 0\}`, false non-zeros
    :math:`\#\{n = 0, \hat n > 0\}`, and the distribution of the noise :math:`\hat n - n`.

    Examples
    --------
    >>> u = utility_measures([0, 1, 2, 4], [0, 0, 3, 4])
    >>> u.absolute.mean, u.absolute.max, u.relative.mean, u.false_zeros, u.false_nonzeros
    (0.5, 1.0, 0.5, 1, 0)
    >>> u.noise_values.tolist(), u.noise_counts.tolist()
    ([-1, 0, 1], [1, 2, 1])
    """
    t = _counts(true, "true")
    p = _counts(perturbed, "perturbed")
    if t.shape != p.shape:
        raise ParameterError(
            f"`true` and `perturbed` must have equal lengths, got {t.size} and {p.size}."
        )
    if not isinstance(exclude_zeros, bool | np.bool_):
        raise ParameterTypeError(
            f"`exclude_zeros` must be a boolean, got exclude_zeros={exclude_zeros!r}."
        )
    diff = p - t
    d1 = np.abs(diff).astype(np.float64)
    d3 = np.abs(np.sqrt(p.astype(np.float64)) - np.sqrt(t.astype(np.float64)))
    pos = t > 0
    keep = pos if exclude_zeros else np.ones(t.shape, dtype=bool)
    values, counts = np.unique(diff, return_counts=True)
    return Utility(
        n_cells=int(t.size),
        absolute=Distances.of(d1[keep]),
        relative=Distances.of(d1[pos] / t[pos]),
        root=Distances.of(d3[keep]),
        false_zeros=int(np.count_nonzero(pos & (p == 0))),
        false_nonzeros=int(np.count_nonzero(~pos & (p > 0))),
        noise_values=_frozen(values.astype(np.int64)),
        noise_counts=_frozen(counts.astype(np.int64)),
        exclude_zeros=bool(exclude_zeros),
    )


def utility(table: Any, *, exclude_zeros: bool = False) -> Utility:
    """:func:`utility_measures` of a perturbed table (a FrequencyTable or a DataFrame).

    Uses its columns ``count`` and ``perturbed``.

    Examples
    --------
    >>> from rainbowdp.cellkey import Ptable, perturb
    >>> T = Ptable.from_noise([1.0], low=0, keysize=2**8)   # no noise
    >>> t = perturb({"a": [0, 1, 1], "rkey": [1, 2, 3]}, "a", T)
    >>> utility(t).absolute.max
    0.0
    """
    try:
        true, published = table["count"], table["perturbed"]
    except (KeyError, TypeError, IndexError):
        raise ParameterError(
            "`table` must be a perturbed table with the columns 'count' and 'perturbed' (the "
            f"result of perturb), got table of type {type(table).__name__}."
        ) from None
    return utility_measures(np.asarray(true), np.asarray(published), exclude_zeros=exclude_zeros)
