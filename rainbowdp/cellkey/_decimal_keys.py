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
import warnings
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

import numpy as np

from ..exceptions import ParameterError, ParameterTypeError
from ._keys import component_sums
from ._layout_r import piece_key_counts, piece_noise, stored_pieces
from ._ptable_ops import SAME_TABLE_TOL
from ._quantise import BOUND_DIGITS, KeysizeWarning, decimal_bounds

__all__ = [
    "BOUND_DIGITS",
    "DecimalKeys",
    "applied_key_counts",
    "check_key_digits",
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
    # a key read by another parser may be a unit or two in the last place off the nearest
    # double (R's ``as.numeric("0.79537215")`` is one ulp below it): the decimal of d digits
    # within 2 ulp is the key, so keys written by R and read back as doubles keep their value
    slack = 2.0 * np.spacing(x)
    for d in range(FLOAT_DIGITS + 1):
        scale = 10.0**d
        k = np.rint(x * scale)
        if np.all(np.abs(k / scale - x) <= slack) and not np.any(k >= scale):
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


def applied_key_counts(ptable: Any, digits: int) -> np.ndarray:
    r"""The number of decimal keys :math:`k / 10^d` that pick each (i, j): the table applied.

    A modified table read from a file (its pieces in ``metadata["intervals"]``, still summing
    to its probabilities) is looked up in its pieces, as ``cellKey`` looks it up
    (:func:`~rainbowdp.cellkey._layout_r.piece_key_counts`); any other table in the intervals
    of its rows (:func:`decimal_thresholds`). Divided by :math:`10^d` this is the table the
    keys apply, row by row: what :func:`audit` at ``keysize = 10**d`` examines.

    Returns
    -------
    numpy.ndarray, shape of ``ptable.probabilities``
        int64 for d <= 18, Python ints above; each row sums to :math:`10^d`.

    Examples
    --------
    >>> from rainbowdp.cellkey import Ptable
    >>> applied_key_counts(Ptable([[1.0, 0.0, 0.0], [0.25, 0.5, 0.25]]), 1).tolist()
    [[10, 0, 0], [3, 5, 2]]
    """
    pieces = stored_pieces(ptable)
    if pieces is not None:
        return piece_key_counts(pieces, np.asarray(ptable.probabilities).shape, 10**digits)
    return np.diff(decimal_thresholds(ptable, digits), axis=1, prepend=0)


def _warn_other_table(ptable: Any, digits: int, name: str) -> None:
    """Warn when keys with ``digits`` digits apply another table than the one :func:`audit`
    examines by default for a table without a decimal grid (as given, or quantised on its
    integer grid): that audit would not describe the perturbation."""
    K = 10**digits
    applied = np.asarray(applied_key_counts(ptable, digits), dtype=np.float64) / K
    grid = getattr(ptable, "keysize", None)
    audited = np.asarray(
        (ptable if grid is None else ptable.quantised(grid)).probabilities, dtype=np.float64
    )
    n = min(applied.shape[1], audited.shape[1])
    same = (
        not np.any(applied[:, n:])
        and not np.any(audited[:, n:])
        and bool(np.all(np.abs(applied[:, :n] - audited[:, :n]) <= SAME_TABLE_TOL))
    )
    if not same:
        where = "as given" if grid is None else f"on its key grid keysize={grid}"
        warnings.warn(
            f"`{name}` have {digits} decimal digits: they apply the table quantised at "
            f"10^{digits}, not the table audit() examines by default ({where}); audit the "
            f"perturbation with keysize=10**{digits}, or read the table with "
            "key_type='decimal' to record its grid.",
            KeysizeWarning,
            stacklevel=4,
        )


def check_key_digits(ptable: Any, digits: int, name: str = "record_keys") -> None:
    r"""Refuse decimal keys whose grid applies another table than the ptable's own grid.

    A ptable that records a decimal key grid (``key_type="decimal"``, ``keysize`` =
    :math:`10^t`) is audited on that grid by default. Keys with d digits apply the table
    quantised at :math:`10^d`: when d ≠ t that is the same table only if every entry gets the
    same share of keys on both grids (e.g. a table whose bounds have at most min(d, t)
    decimals). Otherwise the table's audit would not describe what the keys apply: fewer
    digits can lose support and raise δ (5-digit keys on a table designed for 2^32 keys: δ
    1.116e-4 instead of 9.9e-5 at ε = 0.5), so such keys are refused with a clear error. A table
    without a decimal grid (integer keys, or none recorded) is audited by default as it is (or
    quantised on its integer grid): when the keys apply another table, a
    :class:`~._quantise.KeysizeWarning` names the audit that describes them
    (``keysize=10**d``).

    Raises
    ------
    ParameterError
        Naming ``name``, the keys' digits and the table's key size.

    Examples
    --------
    >>> from rainbowdp.cellkey import Ptable
    >>> T = Ptable([[1.0, 0.0], [0.3, 0.7]], keysize=10**5, key_type="decimal")
    >>> check_key_digits(T, 1)        # 0.3 is on the grid 10^-1: the same table
    >>> T2 = Ptable([[1.0, 0.0], [0.25, 0.75]], keysize=10**5, key_type="decimal")
    >>> check_key_digits(T2, 1)       # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    rainbowdp.exceptions.ParameterError: `record_keys` have 1 decimal digits, fewer than ...
    """
    if getattr(ptable, "key_type", None) != "decimal" or ptable.keysize is None:
        _warn_other_table(ptable, digits, name)
        return
    t = int(ptable.key_digits)
    if digits == t:
        return
    fine, coarse = max(digits, t), min(digits, t)
    same = applied_key_counts(ptable, coarse) * 10 ** (fine - coarse) == applied_key_counts(
        ptable, fine
    )
    if bool(np.all(same)):
        return
    raise ParameterError(
        f"`{name}` have {digits} decimal digits, {'fewer' if digits < t else 'more'} than the "
        f"ptable's key grid (keysize=10^{t}, {t} digits): the table they apply (its "
        f"quantisation at 10^{digits}) is not the one on 10^{t}; audit it with "
        f"keysize=10**{digits} and give the table keysize=10**{digits} (key_type='decimal'), "
        f"or use keys with {t} digits."
    )


def decimal_noise(ptable: Any, counts: np.ndarray, keys: np.ndarray, digits: int) -> np.ndarray:
    r"""cellKey's lookup: the noise of each (count, cell key on the grid :math:`10^{-d}`).

    Count 0 gets noise 0 (``cellKey`` leaves empty cells untouched; the table's row 0 must
    then be the point mass at 0, or the table would not describe what is applied). A count c
    > 0 uses row r(c) (the table's above-rule: the last row for ``"last"``, as ``cellKey``) and
    the interval :math:`p\_int\_lb \le \text{key} < p\_int\_ub`; the noise is j − r. A
    modified table read from a file is looked up in its pieces, in interval order, as
    ``cellKey`` looks up the lines of the file (``which.max(ck < ub)``). Keys whose grid
    applies another table than the ptable's own decimal grid are refused
    (:func:`check_key_digits`).

    Examples
    --------
    >>> from rainbowdp.cellkey import Ptable
    >>> T = Ptable([[1.0, 0.0, 0.0], [0.3, 0.5, 0.2]])     # bounds on the keys' grid 10^-1
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
    noise = np.zeros(counts.shape, dtype=np.int64)
    positive = counts > 0
    if not positive.any():
        return noise
    check_key_digits(ptable, digits)
    rows = np.asarray(ptable.row_of(counts))
    pieces = stored_pieces(ptable)
    if pieces is not None:
        noise[positive] = piece_noise(pieces, rows[positive], keys[positive], 10**digits)
        return noise
    thresholds = decimal_thresholds(ptable, digits)
    for r in np.unique(rows[positive]).tolist():
        sel = positive & (rows == r)
        j = np.searchsorted(thresholds[r], keys[sel], side="right")
        noise[sel] = j - r
    return noise
