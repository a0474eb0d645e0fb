r"""Files of magnitude ptables: the R layout of ``ptable::create_num_ptable`` and its
Tau-Argus/SAS export (:func:`read_magnitude_ptable`, :func:`write_magnitude_ptable`).

Facts taken from ``ptable`` 0.3.3 (sdcTools, Destatis; ``R/pt_create_pTable.R``,
``R/pt_export.R``):

- The R table (``ptab@pTable``) has the columns ``i, j, p, v, p_int_lb, p_int_ub, type``; j and
  v in steps of ``1 / step`` (half steps for ``step = 2``), bounds rounded to 8 decimals,
  ``p := p_int_ub - p_int_lb``. Written by ``write.csv`` or ``data.table::fwrite``, every
  number is the shortest text of 15 significant digits, in fixed notation unless scientific is
  narrower by more than ``scipen`` characters -- and ``pt_create_pTable`` sets
  ``options(digits = 7, scipen = 7)`` for the session (``pt_optim_entropy`` sets them last),
  so a p of 2.99999999286982e-08 is written ``0.0000000299999999286982`` (:func:`r_number`).
  Fifteen digits lose bits (``fwrite`` rounds differently again), so this module writes the R
  layout by default with the shortest of ``%.15g``, ``%.16g``, ``%.17g`` that reads back as the
  same double (:func:`exact_number`), as the fixtures of this repository are written.
- ``pt_export`` of a magnitude table (``table = "nums"``) takes one table of type ``"all"`` or
  two, of types ``"even"`` and ``"odd"`` (``rbind`` in the order given), and writes the columns
  ``i;j;p;v;p_int_ub;type`` **for both** ``SDCtool = "TauArgus"`` **and** ``"SAS"`` (the SAS
  export of a magnitude table has no ``p_int_lb``), with ``write.table(format(pTable, digits =
  8), sep = ";", quote = FALSE, row.names = FALSE)``: each numeric column formatted as a whole
  (R's ``formatReal``: one number of decimals, right-justified to one width; fixed unless
  scientific is narrower by more than ``scipen``, which is 7 after ``pt_create_pTable``:
  :func:`r_format_column`), the type unpadded. A small-cells table (type ``"small_cells"``, a
  ``cellKey`` label) cannot be exported.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..exceptions import ParameterError, ParameterTypeError
from ._layout_csv import Rows
from ._layout_r import bound_places, r_format
from ._magnitude import MagnitudePtable

__all__ = [
    "MAGNITUDE_LAYOUTS",
    "exact_number",
    "is_magnitude_text",
    "magnitude_text",
    "parse_magnitude_text",
    "r_format_column",
    "r_number",
    "read_magnitude_ptable",
    "write_magnitude_ptable",
]

MAGNITUDE_LAYOUTS = ("ptable", "tauargus", "sas")
#: ``options(scipen = 8)``: set by ``ptable::pt_create_pTable`` for the session.
PTABLE_SCIPEN = 7
_R_COLUMNS = ("i", "j", "p", "v", "p_int_lb", "p_int_ub", "type")
_EXPORT_COLUMNS = ("i", "j", "p", "v", "p_int_ub", "type")


# ------------------------------------------------------------------------------ R's numbers
def r_format_column(
    values: np.ndarray | list[float], digits: int = 8, scipen: int = PTABLE_SCIPEN
) -> list[str]:
    r"""A numeric column as R's ``format(x, digits = digits)`` writes it under
    ``options(scipen = scipen)`` (R's ``formatReal``: one layout for the column, fixed
    notation when its width is at most the scientific width plus ``scipen``).

    Examples
    --------
    >>> r_format_column([1.0, 0.5, 1e-08], 8, 0)
    ['1.00000000', '0.50000000', '0.00000001']
    >>> r_format_column([1.0, 9.9999999e-09], 8, 0)
    ['1.0000000e+00', '9.9999999e-09']
    >>> r_format_column([1.0, 9.9999999e-09], 8, 8)
    ['1.0000000000000000', '0.0000000099999999']
    """
    return r_format(values, digits, scipen)


def exact_number(x: float) -> str:
    """The shortest of ``%.15g``, ``%.16g``, ``%.17g`` that reads back as exactly ``x``.

    Examples
    --------
    >>> exact_number(1.0), exact_number(0.016666669999999995), exact_number(-0.5)
    ('1', '0.016666669999999995', '-0.5')
    """
    for digits in (15, 16):
        text = f"{x:.{digits}g}"
        if float(text) == x:
            return text
    return f"{x:.17g}"


def r_number(x: float, scipen: int = PTABLE_SCIPEN) -> str:
    """One number as ``write.csv``/``fwrite`` write it: 15 significant digits, no padding.

    Examples
    --------
    >>> r_number(0.5), r_number(-10.0), r_number(2.99999999286982e-08)
    ('0.5', '-10', '0.0000000299999999286982')
    >>> r_number(2.99999999286982e-08, scipen=0)
    '2.99999999286982e-08'
    """
    return r_format_column([x], 15, scipen)[0]


# ------------------------------------------------------------------------------ reading
def _header_names(text: str) -> tuple[list[str], str]:
    for line in text.splitlines():
        if line.strip():
            delim = ";" if ";" in line and "," not in line else ","
            return [c.strip().strip('"').lower() for c in line.split(delim)], delim
    return [], ","


def is_magnitude_text(text: str) -> bool:
    r"""Whether a ptable file is a magnitude table (``ptable::create_num_ptable``).

    True when the header has a column ``type`` and either the file is a semicolon export
    (``pt_export`` writes ``type`` only for magnitude tables), or a ``type`` is not ``"all"``,
    or an i, j or v is not an integer, or the rows i have gaps (``icat``, e.g. 0, 1, 5, 10).
    A count table of ``ptable`` (integers, rows 0..I, type ``all``) is not.

    Examples
    --------
    >>> is_magnitude_text("i,j,p,v,p_int_lb,p_int_ub,type\n0,0,1,0,0,1,all\n1,0.5,1,-0.5,0,1,all")
    True
    >>> is_magnitude_text("i,j,p,v,p_int_lb,p_int_ub,type\n0,0,1,0,0,1,all\n1,1,1,0,0,1,all")
    False
    """
    names, delim = _header_names(text)
    if "type" not in names or not {"i", "j", "v"} <= set(names):
        return False
    if delim == ";":
        return True
    idx = [names.index(c) for c in ("i", "j", "v", "type")]
    rows: set[float] = set()
    for line in text.splitlines()[1:]:
        fields = line.split(delim)
        if len(fields) != len(names):
            continue
        try:
            i, j, v = (float(fields[k].strip().strip('"')) for k in idx[:3])
        except ValueError:
            return False
        if fields[idx[3]].strip().strip('"').lower() != "all":
            return True
        if not (i.is_integer() and j.is_integer() and v.is_integer()):
            return True
        rows.add(i)
    return bool(rows) and rows != {float(r) for r in range(int(max(rows)) + 1)}


def parse_magnitude_text(text: str, path: Path) -> MagnitudePtable:
    """The magnitude table of a file's text: the R layout or the ``pt_export`` file."""
    names, delim = _header_names(text)
    kind = "export" if "p_int_lb" not in names else "ptable"
    required = _EXPORT_COLUMNS if kind == "export" else _R_COLUMNS
    rows = Rows(path, text, required, delimiter=delim)
    i, j, v = rows.floats("i"), rows.floats("j"), rows.floats("v")
    p_file, ub = rows.floats("p"), rows.floats("p_int_ub")
    kinds = np.char.lower(np.char.strip(np.char.strip(rows.columns["type"]), '"'))
    if kind == "export":  # the previous line's p_int_ub of the same (type, i), or 0
        lb = np.zeros_like(ub)
        for k in range(1, ub.size):
            if kinds[k] == kinds[k - 1] and i[k] == i[k - 1]:
                lb[k] = ub[k - 1]
    else:
        lb = rows.floats("p_int_lb")
    p = ub - lb  # ptable's own p (p := p_int_ub - p_int_lb)
    off = np.abs(p - p_file) > 1e-9
    if off.any():
        k = int(np.argmax(off))
        rows.fail(rows.lines[k], f"p={rows.columns['p'][k].strip()!r} is not p_int_ub - p_int_lb")
    texts = [rows.columns["p_int_ub"]] + ([rows.columns["p_int_lb"]] if kind == "ptable" else [])
    digits = bound_places(np.concatenate(texts))
    meta: dict[str, object] = {"path": str(path), "layout": kind}
    if digits is not None:
        meta["digits"] = digits
    try:
        return MagnitudePtable(i=i, j=j, p=p, v=v, lb=lb, ub=ub, type=kinds, metadata=meta)
    except ParameterError as exc:
        raise ParameterError(f"`path` {str(path)!r}: {exc}") from None


def read_magnitude_ptable(path: str | os.PathLike[str]) -> MagnitudePtable:
    r"""Read a magnitude ptable: the R layout (``i, j, p, v, p_int_lb, p_int_ub, type``, commas,
    quoted or not) or ``pt_export``'s file (``i;j;p;v;p_int_ub;type``, padded numbers).

    p is taken as ``p_int_ub - p_int_lb`` (``ptable``'s definition; the file's p must agree
    within 1e-9), so a table read, written and read again is the same bit for bit.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "nums.csv"
    >>> _ = f.write_text("i,j,p,v,p_int_lb,p_int_ub,type\n0,0,1,0,0,1,even\n"
    ...                  "1,0.5,0.5,-0.5,0,0.5,even\n1,1.5,0.5,0.5,0.5,1,even\n"
    ...                  "0,0,1,0,0,1,odd\n1,1,1,0,0,1,odd\n")
    >>> T = read_magnitude_ptable(f)
    >>> T.types, T.law("even", 1)[0].tolist(), T.metadata["digits"]
    (('even', 'odd'), [-0.5, 0.5], 1)
    """
    from ..io import check_path, read_bytes

    p = check_path(path)
    try:
        text = read_bytes(p, "ptable file").decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ParameterError(f"`path` {str(p)!r} is not UTF-8 text: {exc}.") from None
    return parse_magnitude_text(text, p)


# ------------------------------------------------------------------------------ writing
def magnitude_text(
    table: MagnitudePtable, layout: str = "ptable", *, quote: bool = False, exact: bool = True
) -> str:
    r"""The text of a magnitude table in ``layout`` (:func:`write_magnitude_ptable`).

    Examples
    --------
    >>> T = MagnitudePtable.from_rows({"all": {0: ([0.0], [1.0]), 1: ([-0.5, 0.5], [0.5, 0.5])}})
    >>> print(magnitude_text(T))
    i,j,p,v,p_int_lb,p_int_ub,type
    0,0,1,0,0,1,all
    1,0.5,0.5,-0.5,0,0.5,all
    1,1.5,0.5,0.5,0.5,1,all
    <BLANKLINE>
    >>> print(magnitude_text(T, "tauargus"))
    i;j;p;v;p_int_ub;type
    0;0.0;1.0; 0.0;1.0;all
    1;0.5;0.5;-0.5;0.5;all
    1;1.5;0.5; 0.5;1.0;all
    <BLANKLINE>
    """
    if not isinstance(table, MagnitudePtable):
        raise ParameterTypeError(
            f"`table` must be a MagnitudePtable, got {table.__class__.__name__}."
        )
    if not isinstance(layout, str) or layout not in MAGNITUDE_LAYOUTS:
        raise ParameterError(f"`layout` must be one of {MAGNITUDE_LAYOUTS}, got {layout!r}.")
    cols = {"i": table.i, "j": table.j, "p": table.p, "v": table.v}
    cols.update({"p_int_lb": table.lb, "p_int_ub": table.ub})
    if layout == "ptable":
        q = '"' if quote else ""
        head = ",".join(f"{q}{c}{q}" for c in _R_COLUMNS)
        fmt = exact_number if exact else r_number
        num = [[fmt(x) for x in cols[c].tolist()] for c in _R_COLUMNS[:-1]]
        kinds = [f"{q}{t}{q}" for t in table.type.tolist()]
        body = [",".join(f) for f in zip(*num, kinds, strict=True)]
        return head + "\n" + "\n".join(body) + "\n"
    types = table.types
    if set(types) not in ({"all"}, {"even", "odd"}):
        raise ParameterError(
            f"ptable's pt_export writes a magnitude table of type 'all' or the types 'even' and "
            f"'odd', got {types} (a 'small_cells' table is a cellKey label; export it alone "
            "as type 'all')."
        )
    texts = [r_format_column(cols[c]) for c in _EXPORT_COLUMNS[:-1]]
    body = [";".join(f) for f in zip(*texts, table.type.tolist(), strict=True)]
    return ";".join(_EXPORT_COLUMNS) + "\n" + "\n".join(body) + "\n"


def write_magnitude_ptable(
    table: MagnitudePtable,
    path: str | os.PathLike[str],
    *,
    layout: str = "ptable",
    quote: bool = False,
    exact: bool = True,
) -> Path:
    r"""Write a magnitude ptable, atomically.

    ``"ptable"``: the R table's columns, comma-separated, unquoted (``quote=True``: the header
    and the type quoted, as ``write.csv``), every number as :func:`exact_number` writes it
    (read back bit for bit); ``exact=False``: at 15 significant digits as ``write.csv``
    writes it (:func:`r_number`; byte for byte R's file, but p loses its last bits).
    ``"tauargus"`` and ``"sas"``: ``ptable::pt_export``'s file, the same for both (module
    notes). A table read from either file and written in the same layout gives the same bytes.

    Returns
    -------
    pathlib.Path
    """
    from ..io import check_path, write_atomic

    if not isinstance(quote, bool):
        raise ParameterTypeError(f"`quote` must be a boolean, got quote={quote!r}.")
    if not isinstance(exact, bool):
        raise ParameterTypeError(f"`exact` must be a boolean, got exact={exact!r}.")
    text = magnitude_text(table, layout, quote=quote, exact=exact)
    p = check_path(path)
    write_atomic(p, text)
    return p
