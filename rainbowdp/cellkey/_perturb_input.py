r"""The input of :func:`~._perturb.frequency_table` and :func:`~._perturb.perturb`: data,
classifying variables, their categories, and the record keys (integer or decimal).

References
----------
.. [1] P. Sadeghi, C.-H. Chien, "On the connection between the ABS perturbation methodology and
   differential privacy" (2023), Section 3 (record keys).
.. [2] R package ``cellKey`` (sdcTools), ``R/cellkey_pkg.R`` (the record key column ``rkey``).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..exceptions import ParameterError, ParameterTypeError
from ._decimal_keys import DecimalKeys, decimal_keys
from ._keys import check_record_keys, int_array, record_keys_from_int

#: Column names the tables add; a ``by`` variable may not use them.
RESERVED = ("count", "cell_key", "noise", "perturbed", "weighted", "perturbed_weighted")
#: The default column of record keys (the R package ``cellKey`` calls it ``rkey``).
RKEY = "rkey"


def is_frame(data: Any) -> bool:
    """A pandas DataFrame (pandas is imported only if the caller already has)."""
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(data, pd.DataFrame)


def check_data(data: Any) -> tuple[bool, Any]:
    if is_frame(data):
        return True, data
    if not isinstance(data, Mapping):
        raise ParameterTypeError(
            "`data` must be a pandas DataFrame or a mapping {column name: 1-D array}, got "
            f"data of type {type(data).__name__}."
        )
    return False, data


def check_by(by: Any, data: Any) -> tuple[str, ...]:
    names = (by,) if isinstance(by, str) else by
    if not isinstance(names, Sequence) or isinstance(names, bytes) or not names:
        raise ParameterError(f"`by` must be a non-empty list of column names, got by={by!r}.")
    names = tuple(names)
    for name in names:
        if not isinstance(name, str):
            raise ParameterTypeError(f"`by` must hold column names (str), got {name!r} in {by!r}.")
        if name not in data:
            raise ParameterError(
                f"`by` names the column {name!r}, which is not in `data` (columns: "
                f"{list(data)[:20]!r})."
            )
        if name in RESERVED:
            raise ParameterError(
                f"`by` may not use the reserved column name {name!r} (reserved: {RESERVED})."
            )
    if len(set(names)) != len(names):
        raise ParameterError(f"`by` must not repeat a column, got by={by!r}.")
    return names


def column(data: Any, name: str, frame: bool) -> Any:
    """A column as given (a pandas Series, or an array for a mapping)."""
    if frame:
        return data[name]
    col = np.asarray(data[name])
    if col.ndim == 0:
        raise ParameterError(
            f"`data` column {name!r} must be a 1-D array, got a scalar {data[name]!r}."
        )
    return col


def length(col: Any) -> int:
    return int(col.shape[0])


def check_total(total: Any) -> str:
    if not isinstance(total, str) or not total:
        raise ParameterTypeError(f"`total` must be a non-empty string, got total={total!r}.")
    return total


def factorize(col: Any, name: str, frame: bool) -> tuple[np.ndarray, np.ndarray]:
    """(levels, codes): the sorted categories of a column and each record's index into them.

    A pandas categorical keeps all its declared categories (unused ones give empty cells).
    """
    if frame:
        import pandas as pd

        if isinstance(col.dtype, pd.CategoricalDtype):
            codes = col.cat.codes.to_numpy().astype(np.intp)
            levels = np.asarray(col.cat.categories)
        else:
            try:
                codes, uniques = pd.factorize(col, sort=True, use_na_sentinel=True)
            except TypeError as exc:
                raise ParameterTypeError(
                    f"`data` column {name!r} mixes values that cannot be sorted ({exc})."
                ) from None
            codes = codes.astype(np.intp, copy=False)
            levels = np.asarray(uniques)
        if codes.size and codes.min() < 0:
            raise ParameterError(
                f"`data` column {name!r} has missing values (record {int(np.argmin(codes))}); "
                "recode them as a category of their own."
            )
        return levels, codes
    arr = col
    if arr.ndim != 1:
        raise ParameterError(f"`data` column {name!r} must be a 1-D array, got shape {arr.shape}.")
    kind = arr.dtype.kind
    if kind in "iu" and arr.size:
        lo, hi = int(arr.min()), int(arr.max())
        if hi - lo < max(2 * arr.size, 2**16):  # a small range: counting instead of sorting
            shifted = (arr - lo).astype(np.intp) if lo else arr.astype(np.intp, copy=False)
            present = np.bincount(shifted, minlength=hi - lo + 1) > 0
            index = np.cumsum(present) - 1
            return (np.flatnonzero(present) + lo).astype(arr.dtype), index[shifted]
    if kind == "f" and np.isnan(arr).any():
        raise ParameterError(
            f"`data` column {name!r} has missing values (NaN at record "
            f"{int(np.flatnonzero(np.isnan(arr))[0])}); recode them as a category of their own."
        )
    if kind == "O":
        missing = [i for i, x in enumerate(arr) if x is None or (isinstance(x, float) and x != x)]
        if missing:
            raise ParameterError(
                f"`data` column {name!r} has missing values (None or NaN at record "
                f"{missing[0]}); recode them as a category of their own."
            )
    try:
        levels, codes = np.unique(arr, return_inverse=True)
    except TypeError as exc:
        raise ParameterTypeError(
            f"`data` column {name!r} mixes values that cannot be sorted ({exc})."
        ) from None
    return levels, codes.reshape(-1).astype(np.intp, copy=False)


def resolve_decimal_keys(record_keys: Any, data: Any, n: int) -> DecimalKeys:
    """One decimal key per record, from a column name (default ``"rkey"``) or an array."""
    if record_keys is None:
        record_keys = RKEY
    if isinstance(record_keys, str):
        if record_keys not in data:
            raise ParameterError(
                f"`record_keys` names the column {record_keys!r}, which is not in `data`."
            )
        keys = decimal_keys(np.asarray(data[record_keys]), f"record_keys ({record_keys!r})")
    elif (
        isinstance(record_keys, Sequence)
        and not isinstance(record_keys, bytes)
        and all(isinstance(x, str) for x in record_keys)
    ):
        raise ParameterError(
            "`record_keys` must be one column (one decimal key per record) for "
            f"method='cellkey', got the columns {list(record_keys)!r}."
        )
    else:
        keys = decimal_keys(record_keys, "record_keys")
    if keys.values.shape[0] != n:
        raise ParameterError(
            f"`record_keys` must have one key per record ({n}), got {keys.values.shape[0]}."
        )
    return keys


def resolve_keys(record_keys: Any, data: Any, n: int, K: int, method: str) -> np.ndarray:
    """The (n, m) uint64 record keys from a column name, column names or an array."""
    if record_keys is None:
        if RKEY not in data:
            raise ParameterError(
                f"`record_keys` is None and `data` has no column {RKEY!r}: draw keys once with "
                "record_keys(n) and store them with the microdata, then pass the column name "
                "or the array."
            )
        record_keys = RKEY
    if isinstance(record_keys, str):
        if record_keys not in data:
            raise ParameterError(
                f"`record_keys` names the column {record_keys!r}, which is not in `data`."
            )
        raw = np.asarray(data[record_keys])
    elif (
        isinstance(record_keys, Sequence)
        and record_keys
        and all(isinstance(x, str) for x in record_keys)
    ):
        missing = [x for x in record_keys if x not in data]
        if missing:
            raise ParameterError(
                f"`record_keys` names the columns {missing!r}, which are not in `data`."
            )
        raw = np.stack([np.asarray(data[x]) for x in record_keys], axis=1)
    else:
        raw = record_keys
    keys = int_array(raw, "record_keys")
    if keys.ndim == 0 or keys.shape[0] != n:
        raise ParameterError(
            f"`record_keys` must have one key per record ({n}), got shape {keys.shape}."
        )
    if method == "abs" and keys.ndim == 1:
        if K != 2**8:
            raise ParameterError(
                "`record_keys` must have several components per record, shape (n, m), for "
                f"method='abs' with keysize={K}; one key per record is split into its four "
                "bytes at keysize=2**8 only."
            )
        keys = record_keys_from_int(keys)
    return check_record_keys(keys, K, method)
