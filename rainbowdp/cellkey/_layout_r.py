r"""The files of the R package ``ptable``: interval bounds as ptable computes them, its
Tau-Argus and SAS exports, and modified tables.

Facts taken from the package ``ptable`` (sdcTools, Destatis; R sources):

- ``pt_create_pTable``: ``p_int_ub := cumsum(p)`` and ``p_int_lb := p_int_ub - p`` per row i,
  both rounded with ``round(., ndigits)``, ``ndigits <- 8``; then "due to rounding errors, 'p'
  is replaced by the differences of the rounded intervals": ``p := p_int_ub - p_int_lb``.
- ``pt_export(SDCtool = "TauArgus")`` keeps the columns ``i, j, p, v, p_int_ub`` of a count
  table, ``"SAS"`` the columns ``i, j, p, v, p_int_lb, p_int_ub``, and writes them with
  ``write.table(format(pTable, digits = 8), file = filename, sep = ";", dec = ".",
  row.names = FALSE, col.names = TRUE, quote = FALSE)`` to a ``.txt`` file: a header line,
  semicolons, every column formatted *as a whole* by R's ``format`` with 8 significant digits
  (:func:`r_format`: one number of decimals per column, fixed or scientific notation for the
  whole column, right-justified to one width).
- ``modify_cnt_ptable(threshold, seed)``: every probability of at least ``threshold`` (and
  below 1) is split into pieces of width ``threshold`` and a remainder, the pieces of each row
  are shuffled, and the intervals recomputed (cumulative sums rounded to 8 digits, ``p`` the
  difference of the rounded bounds): the same (i, j) then has several lines, in any order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from ..exceptions import ParameterError
from ._layout_csv import Rows
from ._ptable_ops import MAX_CELLS, MAX_ROWS, SUM_TOL

__all__ = [
    "R_DIGITS",
    "bound_places",
    "bound_texts",
    "piece_key_counts",
    "piece_thresholds",
    "r_format",
    "read_r_family",
    "rounded_bounds",
    "stored_pieces",
    "to_float",
]

#: ``ndigits`` of ``ptable``: bounds rounded to 8 decimals, numbers exported to 8 digits.
R_DIGITS = 8
#: Most decimals of bounds kept as the file's digits (float64 holds 15 significant digits).
MAX_DIGITS = 15


def rounded_bounds(
    P: np.ndarray, digits: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    r"""The lines of a table written as ``ptable`` computes its intervals.

    The upper bound of (i, j) is the row's cumulative sum rounded to ``digits`` decimals, held
    as an integer count of :math:`10^{-d}` (the last one exactly :math:`10^d`), the lower bound
    the previous upper bound (0 first), and p their difference. Entries whose rounded width is
    0 have no line.

    Returns
    -------
    i, j : numpy.ndarray of int64
        The lines' (i, j), row by row in increasing j.
    lb, ub : numpy.ndarray of int64
        The bounds in units of :math:`10^{-d}`; the floats written are ``lb / 10**d`` and
        ``ub / 10**d`` (correctly rounded) and p is ``ub_float - lb_float``, as R computes it.

    Examples
    --------
    >>> i, j, lb, ub = rounded_bounds(np.array([[0.2, 0.3000000001, 0.4999999999]]), 8)
    >>> lb.tolist(), ub.tolist()
    ([0, 20000000, 50000000], [20000000, 50000000, 100000000])
    """
    scale = 10**digits
    first, C = _band(P)
    cs = np.cumsum(C, axis=1)  # zeros between entries add nothing: the rows' own running sums
    ints = np.rint(cs * float(scale)).astype(np.int64)
    n, w = C.shape
    last = w - 1 - np.argmax((C > 0)[:, ::-1], axis=1)
    ints[np.arange(w)[None, :] >= last[:, None]] = scale
    ints = np.maximum.accumulate(np.clip(ints, 0, scale), axis=1)
    lo = np.concatenate([np.zeros((n, 1), dtype=np.int64), ints[:, :-1]], axis=1)
    keep = ints > lo
    i, k = np.nonzero(keep)
    return i.astype(np.int64), (first[i] + k).astype(np.int64), lo[keep], ints[keep]


def _band(P: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row of P from its first to its last positive entry, left-aligned and padded with
    zeros: (first column of each row, the (n, width) band). A ptable's rows are bands of width
    2D + 1 in a matrix of I + D + 1 columns, so the running sums of the band (the same floats:
    adding 0.0 is exact) cost n (2D + 1), not n (I + D + 1)."""
    pos = P > 0
    n, m = P.shape
    first = np.argmax(pos, axis=1)
    last = m - 1 - np.argmax(pos[:, ::-1], axis=1)
    width = int((last - first).max(initial=0)) + 1
    cols = first[:, None] + np.arange(width)[None, :]
    inside = cols <= last[:, None]
    C = np.where(inside, P[np.arange(n)[:, None], np.minimum(cols, m - 1)], 0.0)
    return first.astype(np.int64), C


def to_float(units: np.ndarray, digits: int) -> np.ndarray:
    """``units / 10**digits``, correctly rounded (both exact in float64 for digits <= 15)."""
    return units.astype(np.float64) / float(10**digits)


def bound_places(texts: np.ndarray) -> int | None:
    """The most decimals any of the numbers ``texts`` needs (trailing zeros dropped), or None
    when one needs more than 15 (a float sum, not a rounded bound).

    Examples
    --------
    >>> bound_places(np.array(["0.25", " 1.000e-08", "1.0", "0.78440605"]))
    8
    >>> bound_places(np.array(["0.7844060500000001"])) is None
    True
    """
    best = 0
    for t in np.unique(np.char.lower(np.char.strip(texts))).tolist():
        mant, _, exp = t.partition("e")
        frac = mant.partition(".")[2].rstrip("0")
        places = len(frac) - (int(exp) if exp else 0)
        if places > MAX_DIGITS:
            return None
        best = max(best, places)
    return best


def _scientific(x: float, digits: int) -> tuple[int, int]:
    """(kpower, nsig) of x at ``digits`` significant digits, as R's ``scientific()``."""
    if x == 0.0:
        return 0, 1
    mant, _, exp = f"{abs(x):.{digits - 1}e}".partition("e")
    sig = mant.replace(".", "").rstrip("0")
    return int(exp), max(len(sig), 1)


def r_format(
    values: Sequence[float] | np.ndarray, digits: int = R_DIGITS, scipen: int = 0
) -> list[str]:
    r"""A numeric column as R's ``format(x, digits = digits)`` writes it (``formatReal``).

    One layout for the whole column: every number gets the decimals the most demanding one
    needs at ``digits`` significant digits; fixed notation unless scientific is narrower by
    more than ``scipen`` characters (R's ``options(scipen)``, default 0); all right-justified
    to one width. So an integer column with negatives
    reads ``" 0"``, ``"-1"``, and a column holding 1e-08 and 1.234e-04 goes scientific.

    Examples
    --------
    >>> r_format([1.0, 0.2, 0.05])
    ['1.00', '0.20', '0.05']
    >>> r_format([0, -1, 1])
    [' 0', '-1', ' 1']
    >>> r_format([0.0, 1e-08, 0.0001234, 0.5])
    ['0.000e+00', '1.000e-08', '1.234e-04', '5.000e-01']
    """
    x = [float(v) for v in values]
    if not all(math.isfinite(v) for v in x):
        raise ParameterError("a value to write is not finite.")
    neg = any(v < 0 for v in x)
    mxsl, rgt, mxns, mxe, mne, mxl = 1, 0, 1, 0, 0, -(10**9)
    for v in x:
        kp, nsig = _scientific(v, digits)
        left = kp + 1
        sleft = (v < 0) + (1 if left <= 0 else left)
        rgt = max(rgt, nsig - left)
        mxl, mxsl, mxns = max(mxl, left), max(mxsl, sleft), max(mxns, nsig)
        mxe, mne = max(mxe, kp), min(mne, kp)
    if mxl < 0:
        mxsl = 1 + neg
    width_fixed = mxsl + rgt + (rgt != 0)
    e = 2 if (mxe >= 100 or mne <= -99) else 1
    d = mxns - 1
    width_sci = neg + (d > 0) + d + 4 + e
    if width_fixed <= width_sci + scipen:
        return [f"{v:>{width_fixed}.{rgt}f}" for v in x]
    return [f"{v:>{width_sci}.{d}e}" for v in x]


# ------------------------------------------------------------------------------------ reading
def _check_lines(rows: Rows, kind: str) -> tuple[np.ndarray, ...]:
    """The columns i, j, p, lb, ub of the lines, checked one by one (lb derived for Tau-Argus)."""
    i = rows.ints("i", minimum=0)
    j = rows.ints("j", minimum=0)
    v = rows.ints("v")
    p = rows.floats("p")
    ub = rows.floats("p_int_ub")
    if kind == "tauargus":  # no p_int_lb: the previous line's p_int_ub of the same row, or 0
        order = np.argsort(i, kind="stable")
        lb = np.zeros_like(ub)
        prev = np.r_[0.0, ub[order][:-1]]
        prev[np.r_[True, i[order][1:] != i[order][:-1]]] = 0.0
        lb[order] = prev
    else:
        lb = rows.floats("p_int_lb")
    bad = (p < 0) | (v != j - i)
    if kind == "ptable":
        kinds = np.char.lower(np.char.strip(np.char.strip(rows.columns["type"]), '"'))
        bad |= kinds != "all"
    if bad.any():
        k = int(np.argmax(bad))
        if p[k] < 0:
            rows.fail(rows.lines[k], f"negative probability p={rows.columns['p'][k].strip()!r}")
        if v[k] != j[k] - i[k]:
            rows.fail(rows.lines[k], f"v={v[k]} is not j - i = {j[k] - i[k]}")
        rows.fail(
            rows.lines[k],
            f"type {rows.columns['type'][k].strip()!r} is not supported (only 'all': one table "
            "for every count)",
        )
    if int(i.max()) >= MAX_ROWS:
        k = int(np.argmax(i))
        rows.fail(rows.lines[k], f"row i={int(i[k])} exceeds the limit of {MAX_ROWS} rows")
    if (int(i.max()) + 1) * (int(j.max()) + 1) > MAX_CELLS:
        k = int(np.argmax(j))
        rows.fail(
            rows.lines[k],
            f"j={int(j[k])} makes the table larger than {MAX_CELLS} entries ((I + 1)(J + 1))",
        )
    return i, j, p, lb, ub


def _pieces_order(i: np.ndarray, j: np.ndarray, lb: np.ndarray, ub: np.ndarray) -> np.ndarray:
    """The lines in interval order: by row, then lower bound, upper bound and j."""
    return np.lexsort((j, ub, lb, i))


def _check_repeats(
    rows: Rows, i: np.ndarray, j: np.ndarray, p: np.ndarray, order: np.ndarray
) -> bool:
    """Whether the file is a modified table (repeated (i, j) or intervals out of j order).

    A repeated (i, j) is a piece of a split interval (``modify_cnt_ptable``); it is refused as
    a duplicate only in a file whose intervals are all in increasing j and when one of the
    repeated lines has p = 0 (a line that splits nothing).
    """
    i_s, j_s = i[order], j[order]
    same_row = i_s[1:] == i_s[:-1]
    shuffled = bool((same_row & (j_s[1:] < j_s[:-1])).any())
    key = i * (int(j.max()) + 1) + j
    uniq, counts = np.unique(key, return_counts=True)
    repeated = np.isin(key, uniq[counts > 1])
    empty = repeated & (p == 0)
    if empty.any() and not shuffled:
        k = int(np.argmax(empty))
        first = int(np.argmax((key == key[k]) & (np.arange(key.size) != k)))
        rows.fail(
            rows.lines[k],
            f"duplicate (i, j) ({int(i[k])}, {int(j[k])}), first on line {rows.lines[first]}",
        )
    return shuffled or bool(repeated.any())


def _check_tiling(
    rows: Rows, i: np.ndarray, p: np.ndarray, lb: np.ndarray, ub: np.ndarray, order: np.ndarray
) -> None:
    """Fail unless each row's intervals tile [0, 1] and each width is its p (within SUM_TOL)."""
    line = np.asarray(rows.lines)
    i_s, p_s, lb_s, ub_s, ln = i[order], p[order], lb[order], ub[order], line[order]
    start = np.r_[True, i_s[1:] != i_s[:-1]]
    end = np.r_[i_s[1:] != i_s[:-1], True]
    prev_ub = np.r_[0.0, ub_s[:-1]]
    prev_ub[start] = 0.0
    problems = [
        (np.abs(lb_s - prev_ub) > SUM_TOL, "p_int_lb={} is not the previous p_int_ub (or 0)", lb_s),
        (np.abs(ub_s - lb_s - p_s) > SUM_TOL, "p_int_ub - p_int_lb is not p={}", p_s),
        (end & (np.abs(ub_s - 1.0) > SUM_TOL), "the row's last p_int_ub={} is not 1", ub_s),
    ]
    for bad, what, values in problems:
        if bad.any():
            k = int(np.argmax(bad))
            rows.fail(int(ln[k]), f"row i={int(i_s[k])}: " + what.format(repr(float(values[k]))))


def bound_texts(rows: Rows) -> np.ndarray:
    """The texts of the file's interval bounds (``p_int_ub``, and ``p_int_lb`` if present)."""
    texts = [rows.columns["p_int_ub"]]
    if "p_int_lb" in rows.columns:
        texts.append(rows.columns["p_int_lb"])
    return np.concatenate(texts)


def _file_digits(
    rows: Rows, P: np.ndarray, i: np.ndarray, j: np.ndarray, ub: np.ndarray, lb: np.ndarray
) -> tuple[np.ndarray, int | None]:
    """The table and the digits of the file's bounds (None: float running sums).

    A file whose bounds are the running float sums of its p (as :func:`write_ptable` writes a
    table without digits) has none. Otherwise, if every bound has at most 15 decimals, d = the
    most decimals, and the table is the file's p when its cumulative sums rounded to d decimals
    give back every bound, else p = p_int_ub - p_int_lb (``ptable``'s own definition).
    """
    first, C = _band(P)
    cs = np.minimum(np.cumsum(C, axis=1), 1.0)
    last = C.shape[1] - 1 - np.argmax((C > 0)[:, ::-1], axis=1)
    cs[np.arange(C.shape[1])[None, :] >= last[:, None]] = 1.0
    k = j - first[i]
    inband = (k >= 0) & (k < C.shape[1])
    running = np.where(inband, cs[i, np.clip(k, 0, C.shape[1] - 1)], np.where(k < 0, 0.0, 1.0))
    if np.array_equal(running, ub):
        return P, None
    d = bound_places(bound_texts(rows))
    if d is None:
        return P, None
    want = np.rint(ub * float(10**d)).astype(np.int64)
    wide = ub > lb
    for table in (P, None):
        if table is None:
            table = np.zeros_like(P)
            np.add.at(table, (i, j), ub - lb)
        ri, rj, _, rub = rounded_bounds(table, d)
        m = P.shape[1]
        written = ri * m + rj  # the lines rounded_bounds writes, in increasing (i, j)
        asked = i[wide] * m + j[wide]
        at = np.minimum(np.searchsorted(written, asked), max(written.size - 1, 0))
        got = np.where(written[at] == asked, rub[at], 0) if written.size else 0 * asked
        if np.array_equal(got, want[wide]):
            return table, d
    return P, None


def read_r_family(rows: Rows, kind: str) -> tuple[np.ndarray, dict[str, object]]:
    """The table of a ``ptable``, Tau-Argus or SAS file, and what the file says besides.

    Returns P and a dict with ``"digits"`` (the decimals of the bounds, when they are rounded
    as ``ptable`` rounds them) or ``"intervals"`` (a modified table: its lines in file order,
    columns ``i, j, p, p_int_lb, p_int_ub``).
    """
    i, j, p, lb, ub = _check_lines(rows, kind)
    order = _pieces_order(i, j, lb, ub)
    modified = _check_repeats(rows, i, j, p, order)
    present = np.zeros(int(i.max()) + 1, dtype=bool)
    present[i] = True
    if not present.all():
        gap = int(np.argmin(present))
        raise ParameterError(
            f"`path` {str(rows.path)!r}: row i={gap} is missing (rows must be i = 0..{i.max()} "
            "without gaps)."
        )
    P = np.zeros((present.size, int(j.max()) + 1))
    np.add.at(P, (i, j), p)
    sums = P.sum(axis=1)
    off = np.abs(sums - 1.0) > SUM_TOL
    if off.any():
        r = int(np.argmax(off))
        lines = np.asarray(rows.lines)[i == r]
        raise ParameterError(
            f"`path` {str(rows.path)!r}: row i={r} (lines {lines.min()}-{lines.max()}) sums to "
            f"{float(sums[r])!r}, not 1 (within {SUM_TOL:g})."
        )
    _check_tiling(rows, i, p, lb, ub, order)
    if modified:
        # cellKey and Tau-Argus take the first line of the row, in file order, whose p_int_ub
        # exceeds the key: that is the interval lb <= key < ub only when the row's lines come
        # in increasing bounds, as modify_cnt_ptable writes them
        in_file = np.argsort(i, kind="stable")
        if not np.array_equal(order, in_file):
            k = int(np.argmax(order != in_file))
            rows.fail(
                int(np.asarray(rows.lines)[in_file[k]]),
                f"row i={int(i[in_file[k]])}: the intervals of a modified table must come in "
                "increasing order within the row (the tools look a key up in file order)",
            )
        pieces = {"i": i, "j": j, "p": p, "p_int_lb": lb, "p_int_ub": ub}
        extra: dict[str, object] = {"intervals": {k: a.tolist() for k, a in pieces.items()}}
        d = bound_places(bound_texts(rows))
        if d is not None:  # the pieces' own decimals (modify_cnt_ptable rounds them to 8)
            extra["digits"] = d
        return P, extra
    P, d = _file_digits(rows, P, i, j, ub, lb)
    return P, ({} if d is None else {"digits": d})


# ------------------------------------------------------------------------ modified tables
def stored_pieces(T: Any) -> dict[str, np.ndarray] | None:
    """The pieces of a modified table (``metadata["intervals"]``) if they still make up T.

    Their probabilities, summed per (i, j) in file order, must give ``T.probabilities`` bit
    for bit (so a quantised or otherwise changed table no longer has them); else None.
    """
    meta = getattr(T, "metadata", None) or {}
    raw = meta.get("intervals")
    if not isinstance(raw, dict) or getattr(T, "key_map", None) is not None:
        return None
    P = np.asarray(T.probabilities)
    try:
        pieces = {k: np.asarray(raw[k]) for k in ("i", "j", "p", "p_int_lb", "p_int_ub")}
        i, j = pieces["i"].astype(np.int64), pieces["j"].astype(np.int64)
        merged = np.zeros(P.shape)
        np.add.at(merged, (i, j), pieces["p"].astype(np.float64))
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    if not np.array_equal(merged, P):
        return None
    return {**pieces, "i": i, "j": j}


def _decimal(x: float) -> Fraction:
    """The decimal a bound was written as: the shortest text that reads back as the float."""
    return Fraction(repr(float(x)))


def piece_thresholds(
    pieces: dict[str, np.ndarray], keysize: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""The lookup of decimal keys :math:`k / K` in the pieces of a modified table.

    The R package ``cellKey`` looks a cell key up in the lines of the row in file order and
    takes the first whose upper bound exceeds it (``which.max(ck < ub)`` in ``lookup_freq`` of
    ``.ck_perturb_cnts``); ``modify_cnt_ptable`` writes the pieces of a row with increasing
    bounds, so that is the piece :math:`lb \le key < ub`. Each piece therefore gets the keys
    :math:`k` with :math:`\lceil lb K \rceil \le k < \lceil ub K \rceil`: on a grid coarser
    than the file's digits the pieces of one (i, j) are quantised one by one, and their keys
    summed.

    Returns
    -------
    i, j : numpy.ndarray of int64
        The pieces in interval order (by row, lower bound, upper bound, j).
    c : numpy.ndarray
        The number of keys of the row below each piece's upper bound, :math:`\lceil ub K
        \rceil` exactly (ub the decimal the bound was written as), non-decreasing in the row,
        K for its last piece (the keys at or above a last bound written below 1 would find no
        piece). int64 for K <= 2^62, Python ints above.

    Examples
    --------
    >>> pieces = {"i": np.array([0, 0, 0]), "j": np.array([1, 0, 1]),
    ...           "p_int_lb": np.array([0.0, 0.25, 0.5]), "p_int_ub": np.array([0.25, 0.5, 1.0])}
    >>> i, j, c = piece_thresholds(pieces, 10)   # keys 0.0 .. 0.9
    >>> j.tolist(), c.tolist()
    ([1, 0, 1], [3, 5, 10])
    """
    i = np.asarray(pieces["i"], dtype=np.int64)
    j = np.asarray(pieces["j"], dtype=np.int64)
    lb = np.asarray(pieces["p_int_lb"], dtype=np.float64)
    ub = np.asarray(pieces["p_int_ub"], dtype=np.float64)
    order = np.lexsort((j, ub, lb, i))
    i, j, ub = i[order], j[order], ub[order]
    last = np.r_[i[1:] != i[:-1], True]
    counts: list[int] = []
    starts = np.r_[True, last[:-1]]
    floor = 0
    for u, end, new_row in zip(ub.tolist(), last.tolist(), starts.tolist(), strict=True):
        if new_row:
            floor = 0
        c = keysize if end else min(keysize, max(0, math.ceil(_decimal(u) * keysize)))
        floor = max(floor, c)
        counts.append(floor)
    dtype = np.int64 if keysize <= 2**62 else object
    return i, j, np.array(counts, dtype=dtype)


def piece_noise(
    pieces: dict[str, np.ndarray], rows: np.ndarray, keys: np.ndarray, keysize: int
) -> np.ndarray:
    """The noise j - r of each (row r, key k / K) looked up in the pieces of a modified table:
    the first piece of the row, in file order, whose upper bound exceeds the key
    (:func:`piece_thresholds`).

    Examples
    --------
    >>> pieces = {"i": np.array([0, 0, 0]), "j": np.array([1, 0, 1]),
    ...           "p_int_lb": np.array([0.0, 0.25, 0.5]), "p_int_ub": np.array([0.25, 0.5, 1.0])}
    >>> piece_noise(pieces, np.zeros(4, dtype=np.int64), np.array([0, 3, 4, 9]), 10).tolist()
    [1, 0, 0, 1]
    """
    pi, pj, pc = piece_thresholds(pieces, keysize)
    out = np.empty(rows.shape, dtype=np.int64)
    for r in np.unique(rows).tolist():
        sel = rows == r
        mine = pi == r
        out[sel] = pj[mine][np.searchsorted(pc[mine], keys[sel], side="right")] - r
    return out


def piece_key_counts(pieces: dict[str, np.ndarray], shape: tuple[int, int], keysize: int) -> Any:
    r"""The number of keys :math:`k / K` that pick each (i, j) of a modified table.

    The sum over the pieces of (i, j) of their keys (:func:`piece_thresholds`): the table
    applied with decimal keys on the grid :math:`K = 10^d` is this count over K. On a grid
    at least as fine as the file's digits every bound is a grid point and the count is
    :math:`p_{ij} K` of the merged probability; on a coarser one each piece is quantised on
    its own.

    Returns
    -------
    numpy.ndarray, shape ``shape``
        int64 for K <= 2^62, Python ints (object) above; every row sums to K.

    Examples
    --------
    >>> pieces = {"i": np.array([0, 0, 0]), "j": np.array([1, 0, 1]),
    ...           "p_int_lb": np.array([0.0, 0.25, 0.5]), "p_int_ub": np.array([0.25, 0.5, 1.0])}
    >>> piece_key_counts(pieces, (1, 2), 10).tolist()   # j=1: 3 + 5 keys, j=0: 2 keys
    [[2, 8]]
    >>> piece_key_counts(pieces, (1, 2), 100).tolist()
    [[25, 75]]
    """
    i, j, c = piece_thresholds(pieces, keysize)
    prev = np.r_[np.zeros(1, dtype=c.dtype), c[:-1]]
    prev[np.r_[True, i[1:] != i[:-1]]] = 0
    widths = c - prev
    dtype = np.int64 if keysize <= 2**62 else object
    out = np.zeros(shape, dtype=dtype)
    for a, b, w in zip(i.tolist(), j.tolist(), widths.tolist(), strict=True):
        out[a, b] += w
    return out
