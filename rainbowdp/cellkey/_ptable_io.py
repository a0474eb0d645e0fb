r"""Perturbation-table files: the R ``ptable`` layout, its Tau-Argus and SAS exports, modified
tables, and the ONS cell-key layout (:func:`read_ptable`, :func:`write_ptable`).

The R package ``ptable`` lists one line per entry (i, j, p, v and the cumulative interval
bounds; ``pt_export`` writes the Tau-Argus and SAS variants, semicolon-separated); the ONS
tables list one line per count and cell key (pcv, ckey, pvalue): the noise each key gives (a key
map). All read into a :class:`~rainbowdp.cellkey.Ptable`. The rules taken from ``ptable`` are
in ``_layout_r``, those of the ONS tool in ``_layout_ons``.

References
----------
.. [1] P. Sadeghi, C.-H. Chien, "On the connection between the ABS perturbation methodology and
   differential privacy" (2023), Sections 3–4.
"""

from __future__ import annotations

import io
import math
import os
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from ..exceptions import ParameterError
from ..mechanism import Mechanism
from ._layout_csv import Rows
from ._layout_magnitude import MAGNITUDE_LAYOUTS, parse_magnitude_text, write_magnitude_ptable
from ._layout_ons import (
    MAX_ONS_LINES,
    ons_key_map_for_file,
    padded_order,
    split_padding,
)
from ._layout_r import (
    MAX_DIGITS,
    R_DIGITS,
    bound_places,
    bound_texts,
    r_format,
    read_r_family,
    rounded_bounds,
    stored_pieces,
    to_float,
)
from ._magnitude import MagnitudePtable
from ._ptable import Ptable, as_ptable
from ._ptable_ops import (
    LAYOUTS,
    MAX_CELLS,
    MAX_KEY_DIGITS,
    MAX_ROWS,
    ONS_LAST_PCV,
    ONS_LOOP_START,
    SAME_TABLE_TOL,
    Above,
    KeyType,
    check_above,
    check_key_type,
    check_table_keysize,
    key_counts,
    power_of_ten,
)
from ._quantise import MAX_KEYSIZE, KeysizeWarning, check_key_grid, check_keysize

__all__ = ["read_ptable", "write_ptable"]

_Rows = Rows

_PTABLE_COLUMNS = ("i", "j", "p", "v", "p_int_lb", "p_int_ub", "type")
#: The optional last column of the ptable layout: the table's key size on every line.
_KEYSIZE_COLUMN = "keysize"
_ONS_COLUMNS = ("pcv", "ckey", "pvalue")


_TAUARGUS_COLUMNS = ("i", "j", "p", "v", "p_int_ub")
_SAS_COLUMNS = ("i", "j", "p", "v", "p_int_lb", "p_int_ub")
_REQUIRED = {"ptable": _PTABLE_COLUMNS, "tauargus": _TAUARGUS_COLUMNS, "sas": _SAS_COLUMNS}


def _delimiter(text: str) -> str:
    """``;`` when the first non-blank line has semicolons and no comma, else ``,``."""
    for line in text.splitlines():
        if line.strip():
            return ";" if ";" in line and "," not in line else ","
    return ","


#: The layout :func:`_detect_layout` gives a magnitude table (``ptable::create_num_ptable``).
MAGNITUDE = "magnitude"
#: The types of a magnitude table's rows (``ptable``: ``type``; ``cellKey``: ``small_cells``).
_MAGNITUDE_TYPES = ("even", "odd", "small_cells")
#: Lines :func:`_magnitude_sign` reads for fractional j or v when no type word occurs.
_SCAN_LINES = 2000


def _magnitude_sign(text: str, header: str, delim: str) -> str | None:
    """What marks the R-layout file ``text`` as a magnitude table (the line and the value), or
    None (a count table).

    ``ptable::create_num_ptable`` writes the column ``type`` as ``even``, ``odd`` (or cellKey's
    ``small_cells``) and, with ``step > 1``, published values j (and v) in fractional steps; a
    count table has ``type`` ``all`` and integers only.
    """
    names = [c.strip().strip('"').lower() for c in header.split(delim)]
    cols = {c: names.index(c) for c in ("j", "v", "type") if c in names}
    # a word of a magnitude type anywhere: look at every line; else at the first lines only
    # (a table with step > 1 has fractional j in almost every row; a later one in a count
    # table is named by the reader: "column `j` must be an integer")
    lines = text.splitlines()
    lower = text.lower()
    if not any(word in lower for word in _MAGNITUDE_TYPES):
        lines = lines[:_SCAN_LINES]
    seen_header = False
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if not seen_header:
            seen_header = True
            continue
        fields = line.split(delim)
        if len(fields) != len(names):
            continue  # the reader names the line
        kind = fields[cols["type"]].strip().strip('"').lower() if "type" in cols else "all"
        if kind in _MAGNITUDE_TYPES:
            return f"line {number}: type {kind!r}"
        for c in ("j", "v"):
            if c not in cols:
                continue
            value = fields[cols[c]].strip().strip('"')
            try:
                int(value)
            except ValueError:
                try:
                    x = float(value)
                except ValueError:
                    continue  # not a number: the reader names the line
                if math.isfinite(x) and not x.is_integer():
                    return f"line {number}: column `{c}` must be an integer, got {value!r}"
    return None


def _detect_layout(path: Path, text: str) -> str:
    """The layout told by the header (the first non-blank line) and, for the R layout, the lines
    (:data:`MAGNITUDE` for a magnitude table: :func:`_magnitude_sign`)."""
    for line in text.splitlines():
        if not line.strip():
            continue
        delim = _delimiter(line)
        names = {c.strip().strip('"').lower() for c in line.split(delim)}
        if {"pcv", "ckey", "pvalue"} <= names:
            return "ons"
        if delim == ";" and set(_TAUARGUS_COLUMNS) <= names:
            if "type" in names:  # pt_export writes a column type for magnitude tables only
                return MAGNITUDE
            return "sas" if "p_int_lb" in names else "tauargus"
        if {"i", "j", "p"} <= names:
            return MAGNITUDE if _magnitude_sign(text, line, delim) is not None else "ptable"
        raise ParameterError(
            f"`path` {str(path)!r}: cannot tell the layout from the header "
            f"{', '.join(sorted(names))} (ptable: {', '.join(_PTABLE_COLUMNS)}; tauargus: "
            f"{';'.join(_TAUARGUS_COLUMNS)}; sas: {';'.join(_SAS_COLUMNS)}; ons: "
            f"{', '.join(_ONS_COLUMNS)}); pass `layout`."
        )
    raise ParameterError(f"`path` {str(path)!r} is empty: no header line.")


def _read_magnitude(path: Path, text: str, **options: Any) -> MagnitudePtable:
    """A magnitude table given to :func:`read_ptable`: read by its own reader
    (:func:`~._layout_magnitude.parse_magnitude_text`); the count-table options do not apply."""
    given = {name: value for name, value in options.items() if value is not None}
    if given:
        name, value = next(iter(given.items()))
        raise ParameterError(
            f"`{name}` does not apply to the magnitude ptable {str(path)!r} (ptable's "
            f"create_num_ptable: its rows are looked up by cellKey's rule for numeric "
            f"variables), got {name}={value!r}."
        )
    return parse_magnitude_text(text, path)


def _file_keysize(rows: _Rows) -> tuple[int, KeyType] | None:
    """The key grid of a ptable-layout file: its ``keysize`` column (one value), or None.

    A power of two is a grid of integer keys (the ABS and ONS keys), :math:`10^d` one of
    decimal keys with d digits (``cellKey``, Tau-Argus; 1 <= d <= 18); any other value is
    refused, naming the line.
    """
    if _KEYSIZE_COLUMN not in rows.columns:
        return None
    ks = rows.ints(_KEYSIZE_COLUMN, minimum=1)
    odd = ks != ks[0]
    if odd.any():
        k = int(np.argmax(odd))
        rows.fail(
            rows.lines[k],
            f"column `keysize` must hold one value, got {int(ks[k])} after {int(ks[0])} "
            f"(line {rows.lines[0]})",
        )
    K = int(ks[0])
    if 2 <= K <= MAX_KEYSIZE and not K & (K - 1):
        return K, "integer"
    d = power_of_ten(K)
    if d is not None and d <= MAX_KEY_DIGITS:
        return K, "decimal"
    rows.fail(
        rows.lines[0],
        f"column `keysize` must be a power of two, got {K} (integer keys; 10^d with 1 <= d <= "
        f"{MAX_KEY_DIGITS} for decimal keys with d digits)",
    )


def _read_ons_layout(rows: _Rows, keysize: int | None) -> tuple[np.ndarray, np.ndarray, int]:
    pcv = rows.ints("pcv", minimum=0)
    ckey = rows.ints("ckey", minimum=0)
    pvalue = rows.ints("pvalue")
    neg = pcv + pvalue < 0
    if neg.any():
        k = int(np.argmax(neg))
        rows.fail(
            rows.lines[k],
            f"pcv {int(pcv[k])} with pvalue {int(pvalue[k])} publishes the negative count "
            f"{int(pcv[k] + pvalue[k])}",
        )
    if int(pcv.max()) >= MAX_ROWS:
        k = int(np.argmax(pcv))
        rows.fail(rows.lines[k], f"pcv {int(pcv[k])} exceeds the limit of {MAX_ROWS} rows")
    far = np.abs(pvalue) > 2 * MAX_ROWS
    if far.any():
        k = int(np.argmax(far))
        rows.fail(rows.lines[k], f"pvalue {int(pvalue[k])} exceeds the limit of {2 * MAX_ROWS}")
    width = int(pcv.max()) + int(pvalue.max()) + 1
    if (int(pcv.max()) + 1) * width > MAX_CELLS:
        raise ParameterError(
            f"`path` {str(rows.path)!r}: the table would have more than {MAX_CELLS} entries."
        )
    rows.first_duplicate(pcv, ckey, "(pcv, ckey)")
    top = int(pcv.max())
    first = int(pcv.min())
    if first > 1:
        raise ParameterError(
            f"`path` {str(rows.path)!r}: pcv must start at 0 or 1, got smallest pcv {first}."
        )
    n_keys = np.bincount(pcv, minlength=top + 1)
    K = int(ckey.max()) + 1
    short = n_keys[first:] != K
    if short.any():
        r = first + int(np.argmax(short))
        if n_keys[r] == 0:
            raise ParameterError(
                f"`path` {str(rows.path)!r}: pcv {r} is missing (pcv must run {first}..{top} "
                "without gaps)."
            )
        have = np.zeros(K, dtype=bool)
        have[ckey[pcv == r]] = True
        lines = np.asarray(rows.lines)[pcv == r]
        raise ParameterError(
            f"`path` {str(rows.path)!r}: pcv {r} (lines {lines.min()}-{lines.max()}) has "
            f"{int(n_keys[r])} ckeys, missing ckey {int(np.argmin(have))}; every pcv needs the "
            f"ckeys 0..K-1, K = {K}."
        )
    try:
        check_keysize(K, "K")
    except ParameterError:
        raise ParameterError(
            f"`path` {str(rows.path)!r}: the number of ckeys per pcv, K = {K}, must be a power "
            "of two."
        ) from None
    if keysize is not None and check_keysize(keysize) != K:
        raise ParameterError(
            f"`keysize` must be the file's K = {K} (ckeys per pcv), got keysize={keysize!r}."
        )
    key_map = np.zeros((top + 1, K), dtype=np.int64)
    key_map[pcv, ckey] = pvalue
    own = split_padding(pcv, key_map)
    if own is not None:  # the rows written only for the ONS tool: copies of the last row
        key_map = key_map[: own + 1]
        top = own
    j = key_map + np.arange(top + 1)[:, None]
    return key_counts(j, int(j.max()) + 1) / K, key_map, K


def _read_r_file(
    p: Path, text: str, kind: str
) -> tuple[np.ndarray, dict[str, Any], tuple[int, KeyType] | None, int | None]:
    """A file of the ``ptable`` family: its table, what it says besides, its key grid and the
    decimals of its bounds (None: more than 15)."""
    optional = (_KEYSIZE_COLUMN,) if kind == "ptable" else ()
    rows = _Rows(p, text, _REQUIRED[kind], optional, delimiter=_delimiter(text))
    P, extra = read_r_family(rows, kind)
    return P, extra, _file_keysize(rows), bound_places(bound_texts(rows))


def _requested_grid(keysize: Any, key_type: Any) -> tuple[int | None, KeyType | None]:
    """The grid asked of :func:`read_ptable`: (K or None, key type or None), checked."""
    t: KeyType | None = None
    if key_type is not None:
        t = check_key_type(key_type)  # type: ignore[assignment]
    if keysize is None:
        return None, t
    K = check_key_grid(keysize)
    if t is None:
        if K & (K - 1) and power_of_ten(K) is None:
            raise ParameterError(
                f"`keysize` must be a power of two (integer keys) or 10^d (decimal keys with d "
                f"digits), got keysize={keysize!r}."
            )
        t = "integer" if not K & (K - 1) else "decimal"
    return check_table_keysize(K, t), t


def _r_grid(
    p: Path,
    places: int | None,
    file_grid: tuple[int, KeyType] | None,
    want: tuple[int | None, KeyType | None],
) -> tuple[int | None, KeyType]:
    """The key grid of an R-family table: the file's column ``keysize``, else the one asked
    for; ``key_type="decimal"`` alone takes :math:`10^d`, d the decimals of the file's
    bounds (at least 1; the coarsest grid on which the file's table is applied exactly: keys
    with more digits apply the same table)."""
    K, t = want
    if file_grid is not None:
        Kf, tf = file_grid
        if K is not None and K != Kf:
            raise ParameterError(
                f"`keysize` must be the file's key size {Kf} (its column `keysize`), got "
                f"keysize={K!r}."
            )
        if t is not None and t != tf:
            raise ParameterError(
                f"`key_type` must be the file's {tf!r} (its column `keysize` = {Kf}), got "
                f"key_type={t!r}."
            )
        return Kf, tf
    if K is not None:
        return K, t or "integer"
    if t == "decimal":
        if places is None:
            raise ParameterError(
                f"`key_type` 'decimal' needs the key grid: the bounds of {str(p)!r} have more "
                "than 15 decimals (running float sums); pass keysize=10**d, got "
                f"key_type={t!r}, keysize=None."
            )
        return 10 ** max(places, 1), "decimal"
    return None, t or "integer"


def read_ptable(
    path: str | os.PathLike,
    *,
    layout: str = "auto",
    keysize: int | None = None,
    key_type: KeyType | None = None,
    above: Above | None = None,
    loop_start: int | None = None,
) -> Ptable | MagnitudePtable:
    r"""Read a ptable file: the R ``ptable`` layout, its Tau-Argus or SAS export, or the ONS
    layout.

    ``"ptable"`` (the R package ``ptable``): columns ``i, j, p, v, p_int_lb, p_int_ub, type``,
    one line per (i, j) (lines with p = 0 may be left out); rows i = 0..I without gaps, each
    summing to 1 within 1e-9, with ``v = j - i``, intervals that tile [0, 1]
    (``p_int_ub - p_int_lb = p``) and type ``all``. Default above-rule ``"last"``. An optional
    last column ``keysize`` (one value on every line, as :func:`write_ptable` writes it) is the
    table's key grid: a power of two for integer keys, :math:`10^d` for decimal keys with d
    digits (``key_type="decimal"``). A magnitude table (``ptable::create_num_ptable``: a
    ``type`` even / odd / small_cells, or j in fractional steps; a ``pt_export`` file with a
    column ``type``) is read as a :class:`~._magnitude.MagnitudePtable`
    (:func:`~._layout_magnitude.read_magnitude_ptable`; the count-table options do not apply).

    ``"tauargus"`` and ``"sas"``: the files of ``ptable::pt_export(SDCtool = "TauArgus")``
    (columns ``i;j;p;v;p_int_ub``; each line's lower bound is the previous line's upper bound
    of its row) and ``"SAS"`` (``i;j;p;v;p_int_lb;p_int_ub``): semicolons, numbers padded with
    spaces and possibly in scientific notation (R's ``format``), the same rules as above.

    **Bounds** rounded to d <= 15 decimals (``ptable`` rounds to 8) give
    ``metadata["digits"] = d``: :func:`write_ptable` computes them again as ``ptable`` does, so
    a read and a write keep every bound bit for bit (running float sums of p: no digits).

    **Modified tables** (``ptable::modify_cnt_ptable``: an (i, j) repeats, its interval split
    into pieces shuffled within the row): the pieces of each (i, j) are summed into one
    probability. That is the table, what :func:`audit` sees (a row's law does not depend on
    how its intervals are cut or ordered) and what :meth:`Ptable.noise` looks integer keys up
    in. The pieces, in file order, are kept in ``metadata["intervals"]`` (lists ``i, j, p,
    p_int_lb, p_int_ub``) and written back by :func:`write_ptable`; a lookup of decimal keys in
    the intervals themselves must use them. A repeated (i, j) with p = 0 in a file whose
    intervals all run in increasing j is refused as a duplicate.

    ``"ons"``: columns ``pcv, ckey, pvalue``, one line per pcv and cell key: the noise
    ``pvalue`` of count ``pcv`` for key ``ckey``. Every pcv has the keys 0..K−1, K a power of
    two (the table's ``keysize``); pcv runs 0..P or 1..P (then count 0 publishes 0). The table
    keeps the key map; its probabilities are the share of keys of each noise. Default
    above-rule ``"loop"`` with s = 501 when P = 750 (the ONS tables), ``"last"`` otherwise. A
    file padded to pcv 750 by :func:`write_ptable` (its own rows 0..I in increasing pcv, then
    copies of row I from pcv 750 down to I + 1) reads back as the table with rows 0..I and
    ``"last"``, the same mechanism.

    Parameters
    ----------
    path : str or os.PathLike
    layout : {"auto", "ptable", "tauargus", "sas", "ons"}, default "auto"
        ``"auto"`` tells the layout from the header.
    keysize : int, optional
        The table's key size; it must equal the file's when the file has one (the ONS
        layout's K, the ptable layout's column ``keysize``). A power of two (integer keys) or
        :math:`10^d` (decimal keys with d digits).
    key_type : {None, "integer", "decimal"}, default None
        What the keys the table is applied with are. None: what the file says (its column
        ``keysize``, or the ONS layout's K, integer keys), else no key grid, as before.
        ``"decimal"``: the decimal keys of ``cellKey`` and Tau-Argus; without ``keysize`` or
        a column ``keysize`` the grid is :math:`10^d`, d the most decimals of the file's
        bounds (8 for a file of ``ptable``, at least 1), so that :func:`audit` without
        ``keysize`` audits the table on that grid. Every bound of the file is then a grid
        point, and keys with d or more digits apply the file's table exactly (fewer digits
        quantise it: audit with their ``keysize``). A file whose bounds are not rounded
        decimals needs ``keysize``; an ONS table (integer keys) refuses it. ``"integer"``:
        integer keys (``keysize`` or the file's).
    above, loop_start : optional
        Override the above-rule (``loop_start`` defaults to 501 for ``above="loop"`` and
        P = 750).

    Returns
    -------
    Ptable or MagnitudePtable
        ``metadata`` holds the path and the layout, and ``"digits"`` and ``"intervals"``
        (above) when the file has them (a modified table: both, when its bounds are rounded
        decimals). A modified table applied with decimal keys is looked up in its pieces
        (:func:`perturb` with ``method="cellkey"``) and audited so (:func:`audit` on a grid
        :math:`10^d`: each piece quantised on its own).

    Raises
    ------
    ParameterError
        A malformed file; the message names the line or the row.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> T = Ptable.from_noise([0.25, 0.5, 0.25], low=-1)
    >>> _ = write_ptable(T, d / "t.csv")
    >>> print((d / "t.csv").read_text().splitlines()[2])
    1,0,0.25,-1,0.0,0.25,all
    >>> read_ptable(d / "t.csv") == T
    True
    >>> _ = write_ptable(T, d / "t.txt", layout="tauargus")   # 2-decimal bounds
    >>> D = read_ptable(d / "t.txt", key_type="decimal")
    >>> D.key_type, D.keysize, D.key_digits
    ('decimal', 100, 2)
    """
    from ..io import check_path, read_bytes

    p = check_path(path)
    if not isinstance(layout, str) or layout not in ("auto", *LAYOUTS):
        raise ParameterError(
            f"`layout` must be one of {('auto', *LAYOUTS)}, got layout={layout!r}."
        )
    want = _requested_grid(keysize, key_type)
    if above is not None:
        check_above(above)
    try:
        text = read_bytes(p, "ptable file").decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ParameterError(f"`path` {str(p)!r} is not UTF-8 text: {exc}.") from None
    kind = _detect_layout(p, text) if layout == "auto" else layout
    if kind == MAGNITUDE:
        try:
            return _read_magnitude(
                p, text, keysize=keysize, key_type=key_type, above=above, loop_start=loop_start
            )
        except ParameterError as exc:
            if layout != "auto" or _delimiter(text.lstrip()) != ",":
                raise
            # neither table: a count table with a typo, or a broken magnitude table
            try:
                return read_ptable(
                    p,
                    layout="ptable",
                    keysize=keysize,
                    key_type=key_type,
                    above=above,
                    loop_start=loop_start,
                )
            except ParameterError as count_exc:
                raise ParameterError(f"{count_exc} (read as a magnitude table: {exc})") from None
    key_map = None
    extra: dict[str, Any] = {}
    K: int | None
    t: KeyType
    if kind in _REQUIRED:
        P, extra, file_grid, places = _read_r_file(p, text, kind)
        K, t = _r_grid(p, places, file_grid, want)
        rule = above or "last"
    else:
        if want[1] == "decimal":
            raise ParameterError(
                f"the ONS layout of {str(p)!r} has integer keys 0..K-1 (its key map), not "
                f"decimal ones: got key_type={key_type!r}, keysize={keysize!r}."
            )
        P, key_map, K = _read_ons_layout(_Rows(p, text, _ONS_COLUMNS), want[0])
        t = "integer"
        rule = above or ("loop" if P.shape[0] - 1 == ONS_LAST_PCV else "last")
    s = loop_start
    if rule == "loop" and s is None and P.shape[0] - 1 == ONS_LAST_PCV:
        s = ONS_LOOP_START
    return Ptable(
        P,
        above=rule,
        loop_start=s,
        key_map=key_map,
        keysize=K,
        key_type=t,
        metadata={"path": str(p), "layout": kind, **extra},
    )


def _fmt(x: float) -> str:
    """The shortest text that reads back as exactly ``x``."""
    return repr(float(x))


def _metadata_digits(T: Ptable) -> int | None:
    """``metadata["digits"]`` if the table is still on that grid (its probabilities the
    rounded widths within 1e-12: not, e.g., after :meth:`Ptable.quantised`), else None."""
    d = (T.metadata or {}).get("digits")
    if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= MAX_DIGITS:
        return None
    P = T.probabilities
    i, j, lo, hi = rounded_bounds(P, d)
    widths = np.zeros_like(P)
    widths[i, j] = to_float(hi - lo, d)
    return d if bool(np.all(np.abs(widths - P) <= 1e-12)) else None


def _r_lines(T: Ptable, digits: int | None) -> dict[str, np.ndarray]:
    """The lines (i, j, p, p_int_lb, p_int_ub) of T in the ``ptable`` layouts.

    A modified table's stored pieces; with ``digits``, the bounds as ``ptable`` computes them
    (:func:`rounded_bounds`: cumulative sums rounded, p = ub - lb in decimals, each written as
    the nearest float); without, the running float sums of the probabilities (the last one
    exactly 1).
    """
    stored = stored_pieces(T)
    if stored is not None:
        return stored
    P = T.probabilities
    if digits is not None:
        i, j, lo, hi = rounded_bounds(P, digits)
        p = to_float(hi - lo, digits)  # ub - lb, exactly in decimals, then to the nearest float
        return {
            "i": i,
            "j": j,
            "p": p,
            "p_int_lb": to_float(lo, digits),
            "p_int_ub": to_float(hi, digits),
        }
    ub_all = np.minimum(np.cumsum(P, axis=1), 1.0)
    i, j = np.nonzero(P > 0)
    last = np.r_[i[1:] != i[:-1], True]
    ub = ub_all[i, j]
    ub[last] = 1.0
    lb = np.r_[0.0, ub[:-1]]
    lb[np.r_[True, i[1:] != i[:-1]]] = 0.0
    return {"i": i, "j": j, "p": P[i, j], "p_int_lb": lb, "p_int_ub": ub}


def _ptable_text(T: Ptable, K: int | None, digits: int | None) -> str:
    """The R ``ptable`` layout (comma-separated, floats by ``repr``)."""
    if T.above != "last":
        raise ParameterError(
            f"the ptable layout has no above-rule (it reads back as 'last'), got a table "
            f"with above={T.above!r}; write layout='ons' or keep the rule in code."
        )
    if K is not None:  # the quantised table: bounds c^Q / K, exact in binary
        cq = T.thresholds(K)
        P = np.diff(cq, axis=1, prepend=0).astype(np.float64) / K
        i, j = np.nonzero(P > 0)
        ub = cq[i, j] / K
        lb = np.r_[0.0, ub[:-1]]
        lb[np.r_[True, i[1:] != i[:-1]]] = 0.0
        lines = {"i": i, "j": j, "p": P[i, j], "p_int_lb": lb, "p_int_ub": ub}
    else:
        lines = _r_lines(T, digits)
    K = K if K is not None else T.keysize
    tail = "" if K is None else f",{K}"
    out = io.StringIO()
    out.write(",".join(_PTABLE_COLUMNS) + ("" if K is None else f",{_KEYSIZE_COLUMN}") + "\n")
    for i, j, pj, a, b in zip(
        lines["i"].tolist(),
        lines["j"].tolist(),
        lines["p"].tolist(),
        lines["p_int_lb"].tolist(),
        lines["p_int_ub"].tolist(),
        strict=True,
    ):
        out.write(f"{i},{j},{_fmt(pj)},{j - i},{_fmt(a)},{_fmt(b)},all{tail}\n")
    return out.getvalue()


def _warn_if_rounded(T: Ptable, lines: dict[str, np.ndarray], layout: str, d: int) -> None:
    """Warn when the bounds rounded to ``d`` decimals make the file another table than T."""
    written = np.zeros(T.probabilities.shape)
    np.add.at(written, (lines["i"], lines["j"]), lines["p"])
    moved = np.abs(written - T.probabilities)
    if float(moved.max(initial=0.0)) <= SAME_TABLE_TOL:
        return
    lost = int(np.count_nonzero((T.probabilities > 0) & (written == 0)))
    warnings.warn(
        f"the {layout} layout rounds the bounds to {d} decimals: the file holds another table "
        f"than the one given (entries up to {float(moved.max()):.3g} apart"
        + (f", {lost} losing their support" if lost else "")
        + f"); design or quantise the table at keysize=10**{d} first, and audit the file "
        "itself (read_ptable(path, key_type='decimal')).",
        KeysizeWarning,
        stacklevel=4,
    )


def _export_text(T: Ptable, layout: str, digits: int | None) -> str:
    """``ptable::pt_export`` of a count table: Tau-Argus or SAS (``_layout_r``, the facts)."""
    if T.above != "last":
        raise ParameterError(
            f"the {layout} layout has no above-rule (counts above the table use the last "
            f"row), got a table with above={T.above!r}."
        )
    d = R_DIGITS if digits is None else digits
    if d > R_DIGITS:
        raise ParameterError(
            f"`digits` must be at most {R_DIGITS} for the {layout} layout (ptable exports 8 "
            f"significant digits), got digits={digits!r}."
        )
    lines = _r_lines(T, d)
    i, j = lines["i"], lines["j"]
    if digits is None:  # rounded to 8 decimals without being asked: say so if it moves T
        _warn_if_rounded(T, lines, layout, d)
    cols = (
        ["i", "j", "p", "v", "p_int_lb", "p_int_ub"] if layout == "sas" else list(_TAUARGUS_COLUMNS)
    )
    values = {**lines, "v": j - i}
    texts = [r_format(values[c].astype(np.float64)) for c in cols]
    body = [";".join(fields) for fields in zip(*texts, strict=True)]
    return ";".join(cols) + "\n" + "\n".join(body) + "\n"


def _ons_text(T: Ptable, K: int | None) -> str:
    """The ONS layout, always pcv 0..750 (``_layout_ons``: the ONS tool's rules)."""
    K = K if K is not None else T.keysize
    if K is None:
        raise ParameterError(
            "`keysize` is required for the ONS layout (the table has none), got None."
        )
    if (ONS_LAST_PCV + 1) * K > MAX_ONS_LINES:
        raise ParameterError(
            f"`keysize` must be at most {MAX_ONS_LINES // (ONS_LAST_PCV + 1)} for the ONS "
            f"layout (one line per key for each of the rows 0..750), got keysize={K}."
        )
    top = T.max_count
    if T.key_map is not None and T.keysize == K:
        km = T.key_map
    else:
        cq = T.thresholds(K)
        widths = np.diff(cq, axis=1, prepend=0)
        v = T.rows_noise
        km = np.repeat(v.ravel(), widths.ravel()).reshape(top + 1, K)
    full, n_own = ons_key_map_for_file(T, km)
    order = padded_order(n_own)
    pcv = np.repeat(order, K).astype(np.str_)
    ckey = np.tile(np.arange(K), order.size).astype(np.str_)
    pv = full[order].ravel().astype(np.str_)
    body = np.char.add(np.char.add(np.char.add(np.char.add(pcv, ","), ckey), ","), pv)
    return ",".join(_ONS_COLUMNS) + "\n" + "\n".join(body.tolist()) + "\n"


def read_count_ptable(path: str | os.PathLike, **options: Any) -> Ptable:
    """:func:`read_ptable` for the callers that need a count table (:func:`audit`, the
    command line's ``perturb``): a magnitude table is refused with what to use instead."""
    T = read_ptable(path, **options)
    if isinstance(T, MagnitudePtable):
        raise ParameterError(
            f"`ptable` {str(path)!r} is a magnitude ptable (ptable's create_num_ptable), not a "
            "count table: perturb numeric variables with perturb_numeric and audit a pair of "
            "its rows with magnitude_row_privacy."
        )
    return T


def _write_magnitude(
    table: MagnitudePtable, path: Any, layout: Any, keysize: Any, digits: Any
) -> Path:
    """:func:`write_ptable` of a magnitude table: its own writer, layouts ptable/tauargus/sas."""
    if not isinstance(layout, str) or layout not in MAGNITUDE_LAYOUTS:
        raise ParameterError(
            f"`layout` of a magnitude ptable must be one of {MAGNITUDE_LAYOUTS} (the ONS "
            f"layout has count tables only), got layout={layout!r}."
        )
    for name, value in (("keysize", keysize), ("digits", digits)):
        if value is not None:
            raise ParameterError(
                f"`{name}` does not apply to a magnitude ptable (written as read, bit for "
                f"bit), got {name}={value!r}."
            )
    return write_magnitude_ptable(table, path, layout=layout)


def write_ptable(
    table: Ptable | Mechanism | MagnitudePtable,
    path: str | os.PathLike,
    *,
    layout: str = "ptable",
    keysize: int | None = None,
    digits: int | None = None,
) -> Path:
    r"""Write a ptable (or a Mechanism on a count path) as a file, atomically.

    ``"ptable"``: one line ``i,j,p,v,p_int_lb,p_int_ub,all`` per (i, j) with p > 0, floats
    written with ``repr`` (read back bit for bit). Without ``keysize`` or ``digits`` the
    probabilities are the table's and the intervals their running sums (the last one exactly
    1). With ``digits`` (default the table's ``metadata["digits"]``, from the file it was read
    from) the bounds are computed as ``ptable`` computes them: cumulative sums rounded to
    ``digits`` decimals, p = p_int_ub − p_int_lb (the decimal difference), so a file read and
    written again keeps its bounds bit for bit. With ``keysize`` the table is the quantised
    :math:`p^Q` (:meth:`Ptable.quantised`) with the intervals :math:`c^Q(j)/K`, exactly what
    the keys apply. A last column ``keysize`` holds K (``keysize``, else the table's own; no
    column when neither is set), so :func:`read_ptable` gets the key size back. This layout
    has no above-rule: a ``"loop"`` table is refused. A modified table read from a file
    (``metadata["intervals"]``) is written with its pieces, as read.

    ``"tauargus"`` and ``"sas"``: what ``ptable::pt_export(SDCtool = "TauArgus")`` and
    ``"SAS"`` write for a count table: a header ``i;j;p;v;p_int_ub`` (SAS:
    ``i;j;p;v;p_int_lb;p_int_ub``), semicolons, the bounds rounded to 8 decimals (``digits``,
    at most 8) and every column formatted as R's ``format(., digits = 8)`` formats it. The key
    size is not part of these files. ``ptable`` names them ``.txt``.

    ``"ons"``: one line ``pcv,ckey,pvalue`` per count and key 0..K−1 (K = ``keysize`` or the
    table's own, at most 2^15): the table's key map, or the quantised intervals, **always for
    pcv 0..750**. The ONS tool gives the counts above 750 the rows 501..750 and no noise to a
    count whose row is missing, so a shorter file would publish the larger counts unperturbed
    there: a ``"last"`` table with I < 750 gets the rows I + 1..750 as copies of row I (what
    the last-row rule gives them), written after its own rows from pcv 750 down, and
    :func:`read_ptable` reads it back as the same table. A ``"loop"`` table must be the ONS
    one (I = 750, s = 501); a ``"last"`` table whose rows from 501 on differ from its last row
    is refused (the ONS tool would apply them to the counts above 750).

    Returns
    -------
    pathlib.Path
        The path written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> T = Ptable.from_noise([0.25, 0.5, 0.25], low=-1)
    >>> lines = write_ptable(T, d / "o.csv", layout="ons", keysize=4).read_text().splitlines()
    >>> lines[5:9], len(lines) - 1
    (['1,0,-1', '1,1,0', '1,2,0', '1,3,1'], 3004)
    >>> lines[9:11], lines[-1]
    (['750,0,-1', '750,1,0'], '2,3,1')
    >>> print(write_ptable(T, d / "t.txt", layout="tauargus").read_text())
    i;j;p;v;p_int_ub
    0;0;1.00; 0;1.00
    1;0;0.25;-1;0.25
    1;1;0.50; 0;0.75
    1;2;0.25; 1;1.00
    <BLANKLINE>
    """
    from ..io import check_path, write_atomic

    if isinstance(table, MagnitudePtable):
        return _write_magnitude(table, path, layout, keysize, digits)
    T = as_ptable(table, "table")
    p = check_path(path)
    if not isinstance(layout, str) or layout not in LAYOUTS:
        raise ParameterError(f"`layout` must be one of {LAYOUTS}, got layout={layout!r}.")
    K = None if keysize is None else check_keysize(keysize)
    if digits is not None and (
        isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= MAX_DIGITS
    ):
        raise ParameterError(
            f"`digits` must be an integer in 1..{MAX_DIGITS}, got digits={digits!r}."
        )
    d = digits if digits is not None else _metadata_digits(T)
    if layout == "ptable":
        text = _ptable_text(T, K, d)
    elif layout == "ons":
        text = _ons_text(T, K)
    else:
        if K is not None:
            raise ParameterError(
                f"`keysize` is not part of the {layout} layout (8-digit bounds); write the "
                f"quantised table with layout='ptable' or 'ons', got keysize={keysize!r}."
            )
        text = _export_text(T, layout, d)
    write_atomic(p, text)
    return p
