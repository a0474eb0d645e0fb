r"""Decimal record keys and the cell-key lookup of the R package ``cellKey`` (sdcTools).

Agencies that perturb with ``cellKey`` or Tau-Argus store one record key per record, a decimal
in [0, 1) with a fixed number of digits (``cellKey::ck_generate_rkeys``: ``round(runif(n),
nr_digits)``, 8 digits by default, 5 to 20 allowed). ``cellKey`` then

* sums the record keys of a cell and keeps the fractional part: the cell key is
  :math:`\big(\sum_{i \in \text{cell}} \mathrm{rkey}_i\big) \bmod 1` (``cellkey_pkg.R``,
  ``res[[cols_ck[i]]] %% 1``);
* leaves a cell with count 0 untouched, uses row i of the ptable for a count i below the
  ptable's largest i and the last row for every count at or above it (``lookup_freq`` in
  ``.ck_perturb_cnts``: ``cellvals == d`` for ``d < max(i)``, ``cellvals >= d`` for the last);
* picks, in the row, the first entry whose upper bound exceeds the key (``which.max(ck < ub)``),
  i.e. the interval :math:`p\_int\_lb \le \text{key} < p\_int\_ub`, where the bounds are the
  running sums of the row's probabilities (``ptable``: ``p_int_ub = cumsum(p)``, rounded to the
  table's digits).

Here the keys are **exact**: each decimal key is the integer :math:`k` on the grid
:math:`10^{-d}` (d the number of digits, read from the keys themselves), sums are exact integer
sums reduced modulo :math:`10^d`, and the comparison with a bound :math:`u` is the exact
:math:`k < \lceil u \cdot 10^d \rceil`. The bounds are the row's running sums rounded to
:data:`BOUND_DIGITS` decimals (the last one of every row exactly 1), so a table read from a file
with at most that many digits has exactly the file's bounds. (``cellKey`` adds doubles; its cell
key can differ from the exact one by a rounding step, which matters only for a key exactly on a
bound.)

On the grid :math:`10^{-d}` the table applied is therefore row by row
:math:`p^Q(j) = (c(j) - c(j-1)) / 10^d` with :math:`c(j) = \lceil u_j 10^d \rceil`
(:func:`decimal_thresholds`): what an audit at ``keysize = 10**d`` must examine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

import numpy as np

from ..exceptions import ParameterError, ParameterTypeError
from ._keys import component_sums
from ._quantise import BOUND_DIGITS, decimal_bounds

__all__ = [
    "BOUND_DIGITS",
    "DecimalKeys",
    "decimal_cell_keys",
    "decimal_keys",
    "decimal_noise",
    "decimal_thresholds",
]

#: Most digits of a decimal record key (``cellKey::ck_generate_rkeys`` allows 5 to 20).
MAX_DIGITS = 20
#: Most digits read from float keys (a double holds 15 significant decimal digits exactly).
FLOAT_DIGITS = 15
#: Digits up to which keys, sums and thresholds are int64 (object arrays of Python ints above).
_INT64_DIGITS = 18
_LIMB = 10**9
_NUMBER = re.compile(r"^\s*[+]?(\d*\.?\d*(?:[eE][+-]?\d+)?)\s*$")


@dataclass(frozen=True)
class DecimalKeys:
    """Decimal keys in [0, 1) as exact integers on the grid :math:`10^{-d}`.

    Attributes
    ----------
    values : numpy.ndarray
        The integers :math:`k = \\text{key} \\cdot 10^d`: int64 for d <= 18, else an object
        array of Python ints.
    digits : int
        d, the number of decimal digits.
    """

    values: np.ndarray
    digits: int

    @property
    def scale(self) -> int:
        """:math:`10^d`."""
        return 10**self.digits

    def as_float(self) -> np.ndarray:
        """The keys as float64 (correctly rounded)."""
        if self.values.dtype == object:
            return np.array([k / self.scale for k in self.values.tolist()], dtype=np.float64)
        return self.values / float(self.scale)


def _from_floats(x: np.ndarray, name: str) -> DecimalKeys:
    if x.size and not np.all(np.isfinite(x)):
        bad = int(np.flatnonzero(~np.isfinite(x))[0])
        raise ParameterError(f"`{name}` has a missing or infinite key at record {bad}.")
    _check_range(x, name)
    for d in range(FLOAT_DIGITS + 1):
        scale = 10.0**d
        k = np.rint(x * scale)
        if np.array_equal(k / scale, x):
            return DecimalKeys(k.astype(np.int64), d)
    raise ParameterError(
        f"`{name}` holds floats that are not decimals of at most {FLOAT_DIGITS} digits (e.g. "
        f"{float(x[np.argmax(np.rint(x * 1e15) / 1e15 != x)])!r}); pass the keys as strings "
        "(e.g. read the column as text) to use more digits."
    )


def _check_range(x: np.ndarray, name: str) -> None:
    if x.size and (x.min() < 0 or x.max() >= 1):
        i = int(np.flatnonzero((x < 0) | (x >= 1))[0])
        raise ParameterError(
            f"`{name}` must hold decimal record keys in [0, 1), got {float(x[i])!r} at record {i}."
        )


def _from_text(values: list[Any], name: str) -> DecimalKeys:
    parsed: list[Decimal] = []
    digits = 0
    for i, s in enumerate(values):
        if isinstance(s, bytes):
            s = s.decode("ascii", errors="replace")
        if not isinstance(s, str) or not _NUMBER.match(s) or not s.strip(" +.eE"):
            raise ParameterError(
                f"`{name}` must hold decimal record keys in [0, 1), got {s!r} at record {i}."
            )
        try:
            v = Decimal(s.strip())
        except InvalidOperation:
            raise ParameterError(
                f"`{name}` must hold decimal record keys in [0, 1), got {s!r} at record {i}."
            ) from None
        if not (0 <= v < 1):
            raise ParameterError(
                f"`{name}` must hold decimal record keys in [0, 1), got {s!r} at record {i}."
            )
        exponent = v.as_tuple().exponent
        assert isinstance(exponent, int)
        digits = max(digits, -exponent)
        parsed.append(v)
    if digits > MAX_DIGITS:
        raise ParameterError(
            f"`{name}` has keys with {digits} decimal digits; at most {MAX_DIGITS} are allowed "
            "(cellKey's limit)."
        )
    ints = [int(v.scaleb(digits)) for v in parsed]
    dtype = np.int64 if digits <= _INT64_DIGITS else object
    return DecimalKeys(np.array(ints, dtype=dtype), digits)


def decimal_keys(raw: Any, name: str = "record_keys") -> DecimalKeys:
    """Decimal record keys in [0, 1), as exact integers on their own decimal grid.

    Parameters
    ----------
    raw : array_like, shape (n,)
        Floats (at most 15 digits: the shortest decimal each double stands for) or strings
        such as ``"0.12345"`` (up to 20 digits). The number of digits d is the largest any
        key uses; keys with fewer digits are the same numbers on the finer grid.
    name : str
        The argument's name, for messages.

    Returns
    -------
    DecimalKeys

    Raises
    ------
    ParameterError, ParameterTypeError
        Integers or booleans (integer keys go with ``method="abs"`` or ``"sum"``), a key
        outside [0, 1), a missing key, more than 20 digits.

    Examples
    --------
    >>> k = decimal_keys([0.5, 0.25, 0.12345])
    >>> k.values.tolist(), k.digits
    ([50000, 25000, 12345], 5)
    >>> decimal_keys(["0.1", "0.00000000000000000001"]).digits
    20
    """
    try:
        arr = np.asarray(raw)
    except (TypeError, ValueError) as exc:
        raise ParameterError(f"`{name}` must be a 1-D array of decimal keys ({exc}).") from None
    if arr.ndim != 1:
        raise ParameterError(
            f"`{name}` must hold one decimal key per record, shape (n,), got shape {arr.shape}."
        )
    kind = arr.dtype.kind
    if kind in "iub":
        raise ParameterTypeError(
            f"`{name}` must hold decimal keys in [0, 1) for method='cellkey', got dtype "
            f"{arr.dtype}; integer keys go with method='abs' or method='sum'."
        )
    if arr.size == 0:
        return DecimalKeys(np.zeros(0, dtype=np.int64), 0)
    if kind == "f":
        return _from_floats(arr.astype(np.float64), name)
    if kind in "US":
        return _from_text(arr.tolist(), name)
    if kind == "O":
        items = arr.tolist()
        if all(isinstance(x, str | bytes) for x in items):
            return _from_text(items, name)
        bad = next((i for i, x in enumerate(items) if not isinstance(x, float | np.floating)), None)
        if bad is not None:
            raise ParameterError(
                f"`{name}` must hold decimal keys in [0, 1), got {items[bad]!r} at record {bad}."
            )
        return _from_floats(np.array(items, dtype=np.float64), name)
    raise ParameterTypeError(f"`{name}` must hold decimal keys in [0, 1), got dtype {arr.dtype}.")


def decimal_cell_keys(keys: DecimalKeys, cells: np.ndarray, n_cells: int) -> np.ndarray:
    r"""Exact per-cell sums of decimal keys, modulo :math:`10^d` (the cell key on the grid).

    The keys are split into base-:math:`10^9` limbs, each summed exactly in uint64 (at most
    :math:`2^{32}` records), and recombined modulo :math:`10^d`: int64 for d <= 18, Python ints
    above. An empty cell has key 0.

    Examples
    --------
    >>> k = decimal_keys([0.6, 0.7, 0.25])
    >>> decimal_cell_keys(k, np.array([0, 0, 1]), 3).tolist()      # 1.3 mod 1, 0.25, empty
    [30, 25, 0]
    """
    scale = keys.scale
    vals = keys.values
    if keys.digits <= 9:
        sums = component_sums(vals.astype(np.uint64)[:, None], cells, n_cells, 2**32)[:, 0]
        return (sums % np.uint64(scale)).astype(np.int64)
    limbs: list[np.ndarray] = []
    rest = vals.astype(object) if vals.dtype == object else vals.copy()
    while len(limbs) * 9 < keys.digits:
        limbs.append(np.asarray(rest % _LIMB).astype(np.uint64))
        rest = rest // _LIMB
    sums = component_sums(np.stack(limbs, axis=1), cells, n_cells, 2**32).astype(object)
    total = np.zeros(n_cells, dtype=object)
    for j in range(len(limbs) - 1, -1, -1):
        total = total * _LIMB + sums[:, j]
    total = total % scale
    return total.astype(np.int64) if keys.digits <= _INT64_DIGITS else total


def decimal_thresholds(ptable: Any, digits: int) -> np.ndarray:
    r"""Per row and published count j: :math:`c(j) = \lceil u_j \cdot 10^d \rceil`.

    Key k (on the grid :math:`10^{-d}`) of row r falls in the interval of the first j with
    :math:`k < c(j)`; the table applied at ``keysize = 10**d`` is
    :math:`(c(j) - c(j - 1)) / 10^d` (module notes). int64 for d <= 18, Python ints above.

    Examples
    --------
    >>> from rainbowdp.cellkey import Ptable
    >>> T = Ptable([[1.0, 0.0, 0.0], [0.25, 0.5, 0.25]])
    >>> decimal_thresholds(T, 1).tolist()            # 0.25 -> 3 keys (0.0, 0.1, 0.2) below it
    [[10, 10, 10], [3, 8, 10]]
    """
    ub = decimal_bounds(ptable.probabilities)
    if digits >= BOUND_DIGITS:
        factor = 10 ** (digits - BOUND_DIGITS)
        return ub.astype(object) * factor if digits > _INT64_DIGITS else ub * factor
    div = 10 ** (BOUND_DIGITS - digits)
    return -((-ub) // div)


def decimal_noise(ptable: Any, counts: np.ndarray, keys: np.ndarray, digits: int) -> np.ndarray:
    r"""cellKey's lookup: the noise of each (count, cell key on the grid :math:`10^{-d}`).

    Count 0 gets noise 0 (``cellKey`` leaves empty cells untouched; the table's row 0 must
    then be the point mass at 0, or the table would not describe what is applied). A count c
    > 0 uses row r(c) (the table's above-rule: the last row for ``"last"``, as ``cellKey``) and
    the interval :math:`p\_int\_lb \le \text{key} < p\_int\_ub`; the noise is j − r.

    Examples
    --------
    >>> from rainbowdp.cellkey import Ptable
    >>> T = Ptable([[1.0, 0.0, 0.0], [0.25, 0.5, 0.25]])
    >>> decimal_noise(T, np.array([0, 1, 1, 1, 5]), np.array([9, 2, 3, 8, 9]), 1).tolist()
    [0, -1, 0, 1, 1]
    """
    if getattr(ptable, "key_map", None) is not None:
        raise ParameterError(
            "`ptable` has a key map (an ONS table: integer cell keys pick the noise); "
            "method='cellkey' looks up decimal keys in intervals: use method='sum'."
        )
    p = np.asarray(ptable.probabilities)
    if p[0, 0] != 1.0:
        raise ParameterError(
            "method='cellkey' leaves count 0 untouched (as cellKey does), so the ptable's row 0 "
            f"must publish 0 with probability 1; got P(0 | 0) = {p[0, 0]!r}."
        )
    thresholds = decimal_thresholds(ptable, digits)
    noise = np.zeros(counts.shape, dtype=np.int64)
    positive = counts > 0
    rows = np.asarray(ptable.row_of(counts))
    for r in np.unique(rows[positive]).tolist():
        sel = positive & (rows == r)
        j = np.searchsorted(thresholds[r], keys[sel], side="right")
        noise[sel] = j - r
    return noise
