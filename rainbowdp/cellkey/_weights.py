r"""Sampling weights of a perturbed frequency table, as the R package ``cellKey`` publishes them.

``cellKey`` (sdcTools, ``R/cellkey_pkg.R``, ``.ck_perturb_cnts``) keeps for every cell its
unweighted count ``uwc``, its weight sum ``wc`` and, after the perturbation of ``uwc`` to
``puwc``, the perturbed weighted count

.. math::

    \mathrm{pwc} = \mathrm{puwc} \cdot \frac{\mathrm{wc}}{\mathrm{uwc}}

(``wcavg <- wc / uwc``, NaN set to 0; ``pwc <- puwc * wcavg``): the published count times the
cell's mean weight, 0 for an empty cell.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..exceptions import ParameterError, ParameterTypeError

__all__ = ["perturbed_weighted", "resolve_weights", "weight_sums"]


def record_numbers(
    spec: Any, data: Any, n: int, what: str, *, nonnegative: bool = False
) -> np.ndarray:
    """One finite number per record (>= 0 with ``nonnegative``), from a column name of
    ``data`` or an array; ``what`` names it in the errors (e.g. "the weights (column 'w')").

    Examples
    --------
    >>> record_numbers("x", {"x": [1, -2.5]}, 2, "`variable`").tolist()
    [1.0, -2.5]
    """
    if isinstance(spec, str):
        if spec not in data:
            raise ParameterError(f"{what} names the column {spec!r}, which is not in `data`.")
        raw = data[spec]
    else:
        raw = spec
    try:
        x = np.asarray(raw, dtype=np.float64)
    except (TypeError, ValueError):
        raise ParameterTypeError(
            f"{what} must be numbers, got dtype {np.asarray(raw).dtype}."
        ) from None
    if np.asarray(raw).dtype.kind == "b":
        raise ParameterTypeError(f"{what} must be numbers, got booleans.")
    if x.ndim != 1 or x.shape[0] != n:
        raise ParameterError(f"{what} must be one per record ({n}), got shape {x.shape}.")
    bad = ~np.isfinite(x) | ((x < 0) if nonnegative else False)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        rule = "finite and >= 0" if nonnegative else "finite"
        raise ParameterError(f"{what} must be {rule}, got {float(x[k])!r} at record {k}.")
    return x


def resolve_weights(weights: Any, data: Any, n: int) -> np.ndarray:
    """One finite weight >= 0 per record, from a column name of ``data`` or an array.

    Examples
    --------
    >>> resolve_weights("w", {"w": [1, 2.5]}, 2).tolist()
    [1.0, 2.5]
    """
    if isinstance(weights, str):
        if weights not in data:
            raise ParameterError(f"`weights` names the column {weights!r}, which is not in `data`.")
        label = f"the weights (column {weights!r})"
    else:
        label = "the weights (`weights`)"
    return record_numbers(weights, data, n, label, nonnegative=True)


def weight_sums(
    record_cell: np.ndarray, w: np.ndarray, dims: tuple[int, ...], *, margins: bool
) -> np.ndarray:
    """Per row of the table (C order, margins last on each axis): the cell's weight sum ``wc``.

    Examples
    --------
    >>> weight_sums(np.array([0, 0, 1]), np.array([1.0, 2.0, 4.0]), (2,), margins=True).tolist()
    [3.0, 4.0, 7.0]
    """
    n_interior = int(np.prod(dims)) if dims else 1
    wc = np.bincount(record_cell, weights=w, minlength=n_interior).reshape(dims)
    if margins:
        for ax in range(len(dims)):
            wc = np.concatenate([wc, wc.sum(axis=ax, keepdims=True)], axis=ax)
    return np.ascontiguousarray(wc.reshape(-1), dtype=np.float64)


def perturbed_weighted(published: np.ndarray, wc: np.ndarray, count: np.ndarray) -> np.ndarray:
    """cellKey's ``pwc = puwc * (wc / uwc)``, 0 where the count is 0 (module notes).

    Examples
    --------
    >>> perturbed_weighted(np.array([3, 0]), np.array([30.0, 0.0]), np.array([2, 0])).tolist()
    [45.0, 0.0]
    """
    avg = np.zeros(wc.shape, dtype=np.float64)
    np.divide(wc, count, out=avg, where=count > 0)
    return published * avg
