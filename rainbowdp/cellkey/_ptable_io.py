r"""Perturbation-table files: the R ``ptable`` layout and the ONS cell-key layout
(:func:`read_ptable`, :func:`write_ptable`).

The R package ``ptable`` lists one line per positive entry (i, j, p, v and the cumulative
interval bounds); the ONS tables list one line per count and cell key (pcv, ckey, pvalue): the
noise each key gives (a key map). Both read into a :class:`~rainbowdp.cellkey.Ptable`.

References
----------
.. [1] P. Sadeghi, C.-H. Chien, "On the connection between the ABS perturbation methodology and
   differential privacy" (2023), Sections 3–4.
"""

from __future__ import annotations

import csv
import gc
import io
import math
import os
from pathlib import Path
from typing import NoReturn

import numpy as np

from ..exceptions import ParameterError
from ..mechanism import Mechanism
from ._ptable import Ptable, as_ptable
from ._ptable_ops import (
    LAYOUTS,
    MAX_CELLS,
    MAX_ONS_KEYSIZE,
    MAX_ROWS,
    ONS_LAST_PCV,
    ONS_LOOP_START,
    SUM_TOL,
    Above,
    check_above,
    key_counts,
)
from ._quantise import check_keysize

__all__ = ["read_ptable", "write_ptable"]


class _Rows:
    """The parsed data lines of a CSV file: column name -> array of strings, and line numbers."""

    def __init__(
        self, path: Path, text: str, required: tuple[str, ...], optional: tuple[str, ...] = ()
    ) -> None:
        self.path = path
        was_enabled = gc.isenabled()
        gc.disable()  # hundreds of thousands of small lists: collection passes cost most
        try:
            self._parse(path, text, required, optional)
        finally:
            if was_enabled:
                gc.enable()

    def _parse(
        self, path: Path, text: str, required: tuple[str, ...], optional: tuple[str, ...]
    ) -> None:
        reader = csv.reader(io.StringIO(text))
        rows: list[list[str]] = []
        lines: list[int] = []
        if '"' in text:  # a quoted field may span lines: ask the reader for the line numbers
            for row in reader:
                rows.append(row)
                lines.append(reader.line_num)
        else:  # one row per line (a blank line gives an empty row)
            rows = list(reader)
            lines = list(range(1, len(rows) + 1))
        keep = [k for k, r in enumerate(rows) if len(r) > 1 or (r and r[0].strip())]
        if not keep:
            raise ParameterError(f"`path` {str(path)!r} is empty: no header line.")
        header = [c.strip().strip('"').lower() for c in rows[keep[0]]]
        self.header_line = lines[keep[0]]
        keep = keep[1:]
        n_fields = len(header)
        for k in keep:
            if len(rows[k]) != n_fields:
                self.fail(
                    lines[k],
                    f"has {len(rows[k])} fields, the header (line {self.header_line}) has "
                    f"{n_fields}",
                )
        missing = [c for c in required if c not in header]
        if missing:
            raise ParameterError(
                f"`path` {str(path)!r}: the header (line {self.header_line}) misses the "
                f"column(s) {', '.join(missing)} (required: {', '.join(required)}; got "
                f"{', '.join(header)})."
            )
        if not keep:
            raise ParameterError(f"`path` {str(path)!r} has a header but no data lines.")
        self.lines = [lines[k] for k in keep]
        table = np.array([rows[k] for k in keep], dtype=np.str_).reshape(len(keep), n_fields)
        wanted = (*required, *(c for c in optional if c in header))
        self.columns = {name: table[:, header.index(name)] for name in wanted}

    def fail(self, line: int, what: str) -> NoReturn:
        raise ParameterError(f"`path` {str(self.path)!r}, line {line}: {what}.")

    def ints(self, name: str, *, minimum: int | None = None) -> np.ndarray:
        try:  # fast path: every cell a plain integer
            out = self.columns[name].astype(np.int64)
        except (ValueError, OverflowError):
            out = self._ints_slow(name)
        if minimum is not None and out.size and int(out.min()) < minimum:
            k = int(np.argmax(out < minimum))
            self.fail(
                self.lines[k],
                f"column `{name}` must be >= {minimum}, got {self.columns[name][k].strip()!r}",
            )
        return out

    def _ints_slow(self, name: str) -> np.ndarray:
        out = np.empty(len(self.lines), dtype=np.int64)
        for k, text in enumerate(self.columns[name]):
            try:
                x = int(text)
            except ValueError:
                try:
                    f = float(text)
                except ValueError:
                    f = math.nan
                if not f.is_integer():
                    self.fail(
                        self.lines[k],
                        f"column `{name}` must be an integer, got {text.strip()!r}",
                    )
                x = int(f)
            if abs(x) >= 2**62:
                self.fail(self.lines[k], f"column `{name}` is out of range, got {text!r}")
            out[k] = x
        return out

    def floats(self, name: str) -> np.ndarray:
        try:  # fast path (float parsing is exact: the text of a repr reads back bit for bit)
            out = self.columns[name].astype(np.float64)
        except (ValueError, OverflowError):
            out = None
        if out is not None and bool(np.all(np.isfinite(out))):
            return out
        out = np.empty(len(self.lines))
        for k, text in enumerate(self.columns[name]):
            try:
                x = float(text)
            except ValueError:
                self.fail(self.lines[k], f"column `{name}` must be a number, got {text.strip()!r}")
            if not math.isfinite(x):
                self.fail(self.lines[k], f"column `{name}` must be finite, got {text.strip()!r}")
            out[k] = x
        return out

    def first_duplicate(self, a: np.ndarray, b: np.ndarray, what: str) -> None:
        """Fail on the first repeated pair (a, b), naming both lines."""
        order = np.lexsort((np.arange(a.size), b, a))
        same = (a[order][1:] == a[order][:-1]) & (b[order][1:] == b[order][:-1])
        if same.any():
            k = int(np.argmax(same))
            first, second = int(order[k]), int(order[k + 1])
            self.fail(
                self.lines[second],
                f"duplicate {what} ({int(a[first])}, {int(b[first])}), first on line "
                f"{self.lines[first]}",
            )


_PTABLE_COLUMNS = ("i", "j", "p", "v", "p_int_lb", "p_int_ub", "type")
#: The optional last column of the ptable layout: the table's key size on every line.
_KEYSIZE_COLUMN = "keysize"
_ONS_COLUMNS = ("pcv", "ckey", "pvalue")


def _detect_layout(path: Path, text: str) -> str:
    for row in csv.reader(io.StringIO(text)):
        if any(c.strip() for c in row):
            names = {c.strip().strip('"').lower() for c in row}
            if {"pcv", "ckey", "pvalue"} <= names:
                return "ons"
            if {"i", "j", "p"} <= names:
                return "ptable"
            raise ParameterError(
                f"`path` {str(path)!r}: cannot tell the layout from the header "
                f"{', '.join(sorted(names))} (ptable: {', '.join(_PTABLE_COLUMNS)}; ons: "
                f"{', '.join(_ONS_COLUMNS)}); pass `layout`."
            )
    raise ParameterError(f"`path` {str(path)!r} is empty: no header line.")


def _file_keysize(rows: _Rows) -> int | None:
    """The key size of a ptable-layout file: its ``keysize`` column (one value), or None."""
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
    try:
        return check_keysize(int(ks[0]), "keysize")
    except ParameterError:
        rows.fail(rows.lines[0], f"column `keysize` must be a power of two, got {int(ks[0])}")


def _read_ptable_layout(rows: _Rows) -> np.ndarray:
    i = rows.ints("i", minimum=0)
    j = rows.ints("j", minimum=0)
    v = rows.ints("v")
    p = rows.floats("p")
    lb = rows.floats("p_int_lb")
    ub = rows.floats("p_int_ub")
    kinds = np.char.lower(np.char.strip(np.char.strip(rows.columns["type"]), '"'))
    bad = (p < 0) | (v != j - i) | (kinds != "all")
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
    rows.first_duplicate(i, j, "(i, j)")
    present = np.zeros(int(i.max()) + 1, dtype=bool)
    present[i] = True
    if not present.all():
        gap = int(np.argmin(present))
        raise ParameterError(
            f"`path` {str(rows.path)!r}: row i={gap} is missing (rows must be i = 0..{i.max()} "
            "without gaps)."
        )
    P = np.zeros((present.size, int(j.max()) + 1))
    P[i, j] = p
    line = np.asarray(rows.lines)
    order = np.lexsort((j, i))
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
    sums = P.sum(axis=1)
    off = np.abs(sums - 1.0) > SUM_TOL
    if off.any():
        r = int(np.argmax(off))
        lines = line[i == r]
        raise ParameterError(
            f"`path` {str(rows.path)!r}: row i={r} (lines {lines.min()}-{lines.max()}) sums to "
            f"{float(sums[r])!r}, not 1 (within {SUM_TOL:g})."
        )
    for bad, what, values in problems:
        if bad.any():
            k = int(np.argmax(bad))
            rows.fail(int(ln[k]), f"row i={int(i_s[k])}: " + what.format(repr(float(values[k]))))
    return P


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
    j = key_map + np.arange(top + 1)[:, None]
    return key_counts(j, int(j.max()) + 1) / K, key_map, K


def read_ptable(
    path: str | os.PathLike,
    *,
    layout: str = "auto",
    keysize: int | None = None,
    above: Above | None = None,
    loop_start: int | None = None,
) -> Ptable:
    r"""Read a ptable CSV file in the R ``ptable`` or the ONS layout.

    ``"ptable"`` (the R package ``ptable``): columns ``i, j, p, v, p_int_lb, p_int_ub, type``,
    one line per (i, j) (lines with p = 0 may be left out); rows i = 0..I without gaps, each
    summing to 1 within 1e-9, with ``v = j - i``, intervals that tile [0, 1] in increasing j
    (``p_int_ub - p_int_lb = p``) and type ``all``. Default above-rule ``"last"``. An optional
    last column ``keysize`` (one value on every line, a power of two, as :func:`write_ptable`
    writes it) is the table's key size.

    ``"ons"``: columns ``pcv, ckey, pvalue``, one line per pcv and cell key: the noise
    ``pvalue`` of count ``pcv`` for key ``ckey``. Every pcv has the keys 0..K−1, K a power of
    two (the table's ``keysize``); pcv runs 0..P or 1..P (then count 0 publishes 0). The table
    keeps the key map; its probabilities are the share of keys of each noise. Default
    above-rule ``"loop"`` with s = 501 when P = 750 (the ONS tables), ``"last"`` otherwise.

    Parameters
    ----------
    path : str or os.PathLike
    layout : {"auto", "ptable", "ons"}, default "auto"
        ``"auto"`` tells the layout from the header.
    keysize : int, optional
        The table's key size; it must equal the file's when the file has one (the ONS
        layout's K, the ptable layout's column ``keysize``).
    above, loop_start : optional
        Override the above-rule (``loop_start`` defaults to 501 for ``above="loop"`` and
        P = 750).

    Returns
    -------
    Ptable
        ``metadata`` holds the path and the layout.

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
    """
    from ..io import check_path, read_bytes

    p = check_path(path)
    if not isinstance(layout, str) or layout not in ("auto", *LAYOUTS):
        raise ParameterError(
            f"`layout` must be one of {('auto', *LAYOUTS)}, got layout={layout!r}."
        )
    if keysize is not None:
        check_keysize(keysize)
    if above is not None:
        check_above(above)
    try:
        text = read_bytes(p, "ptable file").decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ParameterError(f"`path` {str(p)!r} is not UTF-8 text: {exc}.") from None
    kind = _detect_layout(p, text) if layout == "auto" else layout
    key_map = None
    if kind == "ptable":
        rows = _Rows(p, text, _PTABLE_COLUMNS, (_KEYSIZE_COLUMN,))
        P = _read_ptable_layout(rows)
        rule = above or "last"
        K = _file_keysize(rows)
        if K is None:
            K = keysize
        elif keysize is not None and check_keysize(keysize) != K:
            raise ParameterError(
                f"`keysize` must be the file's key size {K} (its column `keysize`), got "
                f"keysize={keysize!r}."
            )
    else:
        P, key_map, K = _read_ons_layout(_Rows(p, text, _ONS_COLUMNS), keysize)
        top = P.shape[0] - 1
        rule = above or ("loop" if top == ONS_LAST_PCV else "last")
    s = loop_start
    if rule == "loop" and s is None and P.shape[0] - 1 == ONS_LAST_PCV:
        s = ONS_LOOP_START
    return Ptable(
        P,
        above=rule,
        loop_start=s,
        key_map=key_map,
        keysize=K,
        metadata={"path": str(p), "layout": kind},
    )


def _fmt(x: float) -> str:
    """The shortest text that reads back as exactly ``x``."""
    return repr(float(x))


def write_ptable(
    table: Ptable | Mechanism,
    path: str | os.PathLike,
    *,
    layout: str = "ptable",
    keysize: int | None = None,
) -> Path:
    r"""Write a ptable (or a Mechanism on a count path) as CSV, atomically.

    ``"ptable"``: one line ``i,j,p,v,p_int_lb,p_int_ub,all`` per (i, j) with p > 0, floats
    written with ``repr`` (read back bit for bit). Without ``keysize`` the probabilities are the
    table's and the intervals their running sums (the last one exactly 1); with ``keysize`` the
    quantised table :math:`p^Q` (:meth:`Ptable.quantised`) and its intervals
    :math:`c^Q(j)/K`, exactly what the keys apply. A last column ``keysize`` holds K
    (``keysize``, else the table's own; no column when neither is set), so :func:`read_ptable`
    gets the key size back. This layout has no above-rule: a ``"loop"`` table is refused.

    ``"ons"``: one line ``pcv,ckey,pvalue`` per count 0..I and key 0..K−1 (K = ``keysize`` or
    the table's own, at most 2^20): the table's key map, or the quantised intervals. The reader
    restores ``"loop"`` with s = 501 for I = 750 and ``"last"`` otherwise; another
    combination is refused.

    Returns
    -------
    pathlib.Path
        The path written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> T = Ptable.from_noise([0.25, 0.5, 0.25], low=-1)
    >>> _ = write_ptable(T, d / "o.csv", layout="ons", keysize=4)
    >>> (d / "o.csv").read_text().splitlines()[5:9]
    ['1,0,-1', '1,1,0', '1,2,0', '1,3,1']
    """
    from ..io import check_path, write_atomic

    T = as_ptable(table, "table")
    p = check_path(path)
    if not isinstance(layout, str) or layout not in LAYOUTS:
        raise ParameterError(f"`layout` must be one of {LAYOUTS}, got layout={layout!r}.")
    K = None if keysize is None else check_keysize(keysize)
    if layout == "ptable":
        if T.above != "last":
            raise ParameterError(
                f"the ptable layout has no above-rule (it reads back as 'last'), got a table "
                f"with above={T.above!r}; write layout='ons' or keep the rule in code."
            )
        if K is None:
            P = T.probabilities
            ub = np.minimum(np.cumsum(P, axis=1), 1.0)
        else:
            cq = T.thresholds(K)
            P = np.diff(cq, axis=1, prepend=0).astype(np.float64) / K
            ub = cq / K
        K = K if K is not None else T.keysize
        tail = "" if K is None else f",{K}"
        out = io.StringIO()
        out.write(",".join(_PTABLE_COLUMNS) + ("" if K is None else f",{_KEYSIZE_COLUMN}") + "\n")
        for i in range(P.shape[0]):
            js = np.flatnonzero(P[i] > 0)
            hi = ub[i, js].copy()
            hi[-1] = 1.0
            lo = np.r_[0.0, hi[:-1]]
            for j, pj, a, b in zip(
                js.tolist(), P[i, js].tolist(), lo.tolist(), hi.tolist(), strict=True
            ):
                out.write(f"{i},{j},{_fmt(pj)},{j - i},{_fmt(a)},{_fmt(b)},all{tail}\n")
        text = out.getvalue()
    else:
        K = K if K is not None else T.keysize
        if K is None:
            raise ParameterError(
                "`keysize` is required for the ONS layout (the table has none), got None."
            )
        if K > MAX_ONS_KEYSIZE:
            raise ParameterError(
                f"`keysize` must be at most {MAX_ONS_KEYSIZE} for the ONS layout (one line per "
                f"key), got keysize={K}."
            )
        top = T.max_count
        ons_rule = ("loop", ONS_LOOP_START) if top == ONS_LAST_PCV else ("last", None)
        if (T.above, T.loop_start) != ons_rule:
            raise ParameterError(
                f"the ONS layout reads back with above={ons_rule[0]!r}, "
                f"loop_start={ons_rule[1]!r} for I={top}, got a table with above={T.above!r}, "
                f"loop_start={T.loop_start!r}."
            )
        if T.key_map is not None and T.keysize == K:
            km = T.key_map
        else:
            cq = T.thresholds(K)
            widths = np.diff(cq, axis=1, prepend=0)
            v = T.rows_noise
            km = np.repeat(v.ravel(), widths.ravel()).reshape(top + 1, K)
        pcv = np.repeat(np.arange(top + 1), K).astype(np.str_)
        ckey = np.tile(np.arange(K), top + 1).astype(np.str_)
        pv = km.ravel().astype(np.str_)
        body = np.char.add(np.char.add(np.char.add(np.char.add(pcv, ","), ckey), ","), pv)
        text = ",".join(_ONS_COLUMNS) + "\n" + "\n".join(body.tolist()) + "\n"
    write_atomic(p, text)
    return p
