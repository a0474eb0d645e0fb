r"""The cell-key commands of ``rainbowdp``: ``ptable design``, ``ptable audit`` and ``perturb``.

::

    rainbowdp ptable design --epsilon E --delta D [--method maxent|optimal] [--keysize K]
                            [--rows R] [--D D] [--variance V]
                            [--layout ptable|tauargus|sas|ons]
                            [-o PT.csv] [--json]
    rainbowdp ptable audit PT.csv [--epsilon E ...] [--delta D ...] [--keysize K]
                           [--layout auto|ptable|tauargus|sas|ons] [--json]
    rainbowdp perturb DATA.csv --by COL1,COL2 --ptable PT.csv [--record-key COL[,COL...]]
                      [--seed S] [--keysize K] [--method abs|sum] [--no-margins]
                      [--max-bytes N] [-o TABLE.csv] [--json]

Exit codes and one-line errors are those of :mod:`rainbowdp.cli`.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from .._format import format_up
from ..exceptions import ParameterError
from ._common import (
    EXIT_OK,
    Parser,
    bounded_int,
    check_output,
    emit,
    error_line,
    finite_float,
    integer,
    one_line,
)

__all__ = ["add_parser", "run"]

#: Extension of the files ``ptable design`` and ``perturb`` write.
CSV_SUFFIXES = (".csv",)
#: The file suffix of each ptable layout: CSV, and the .txt of the Tau-Argus and SAS exports (as
#: R's ptable writes them).
PTABLE_SUFFIXES = {
    "ptable": (".csv",),
    "ons": (".csv",),
    "tauargus": (".txt", ".csv"),
    "sas": (".txt", ".csv"),
}
#: ``perturb`` shows progress when reading a file with at least this many bytes.
PROGRESS_BYTES = 50_000_000
#: Largest ``perturb`` data file read by default (``--max-bytes`` raises it).
MAX_DATA_BYTES = 2**30
#: Longest line of a ``perturb`` data file.
MAX_LINE_BYTES = 2**20


def _keysize(text: str) -> int:
    """argparse type: a KEYSIZE as an integer, as 2^k, or as 10^d (decimal keys, d digits)."""
    t = text.replace(" ", "")
    try:
        for base in ("2", "10"):
            if t.startswith(f"{base}^") or t.startswith(f"{base}**"):
                exponent = int(t.split("^")[-1].split("**")[-1])
                if not 0 <= exponent <= 64:
                    raise ValueError
                return int(base) ** exponent
        return int(t)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--keysize must be an integer, 2^k or 10^d, got {text!r}"
        ) from None


# ------------------------------------------------------------------------------ ptable design
#: The decimals of the bounds of a Tau-Argus or SAS file (ptable's pt_export).
EXPORT_DIGITS = 8


def _design_keysize(keysize: int | None, layout: str) -> int:
    """The key grid to design on: the Tau-Argus and SAS files hold bounds with 8 decimals, so a
    table for them is designed (quantised and audited) on a decimal grid 10^d, d <= 8 (10^8 by
    default), and what is written is what was audited; 2^32 for the other layouts."""
    if layout not in ("tauargus", "sas"):
        return 2**32 if keysize is None else keysize
    if keysize is None:
        return 10**EXPORT_DIGITS
    if not any(keysize == 10**d for d in range(1, EXPORT_DIGITS + 1)):
        raise ParameterError(
            f"--layout {layout} writes bounds with {EXPORT_DIGITS} decimals, so the table must "
            f"be designed on a decimal grid 10^d with d <= {EXPORT_DIGITS} (default 10^8): got "
            f"--keysize {keysize}."
        )
    return keysize


def _cmd_ptable_design(args: argparse.Namespace) -> int:
    from .. import cellkey

    out = (
        check_output(args.output, PTABLE_SUFFIXES[args.layout], [], f"a {args.layout} file")
        if args.output
        else None
    )
    d = cellkey.design_ptable(
        args.epsilon,
        args.delta,
        method=args.method,
        keysize=_design_keysize(args.keysize, args.layout),
        rows=args.rows,
        D=args.D,
        variance=args.variance,
    )
    if out is not None:
        cellkey.write_ptable(d.table, out, layout=args.layout)
    data = {**d.to_dict(), "output": str(out) if out else None, "layout": args.layout}
    text = (
        f"ptable ({args.method}): D = {d.D}, variance = {d.variance:.6g}, "
        f"KEYSIZE = {d.table.keysize}, rows 0..{d.table.max_count}\n"
        f"  exact delta at epsilon = {d.epsilon:g}: {format_up(d.delta)} on counts >= D "
        f"(target {d.target_delta:g}); {format_up(d.delta_all_counts)} over all counts "
        "(small-count rows included)"
    )
    if args.method == "maxent":
        text += "\n  --method optimal gives the smallest exact delta under the same constraints"

    if out is not None:
        text += f"\nwrote {out} ({args.layout} layout)"
    emit(data, args.json, text)
    return EXIT_OK


def _count_table(path: Path, **options: Any) -> Any:
    """The count ptable in ``path`` (any layout :func:`cellkey.read_ptable` detects); a
    magnitude table is refused: these commands apply and audit count tables."""
    from .. import cellkey

    table = cellkey.read_ptable(path, **options)
    if isinstance(table, cellkey.MagnitudePtable):
        raise ParameterError(
            f"{str(path)!r} is a magnitude ptable (ptable's create_num_ptable), not a count "
            "table: use the Python functions perturb_numeric and magnitude_row_privacy."
        )
    return table


# ------------------------------------------------------------------------------- ptable audit
def _cmd_ptable_audit(args: argparse.Namespace) -> int:
    from .. import cellkey

    # with --key-type the key grid is the table's (read_ptable checks it fits the keys)
    grid = args.keysize if args.key_type is not None else None
    table = _count_table(args.ptable, layout=args.layout, key_type=args.key_type, keysize=grid)
    epsilons = args.epsilon if args.epsilon else None
    deltas = args.delta if args.delta else None
    rep = cellkey.audit(table, epsilons=epsilons, deltas=deltas, keysize=args.keysize)
    emit({"ptable": str(args.ptable), **rep.to_dict()}, args.json, str(rep))
    return EXIT_OK


# ----------------------------------------------------------------------------------- perturb
def _progress(total: int, label: str) -> Any:
    """A progress bar on standard error for large inputs (tqdm when installed), else None."""
    if total < PROGRESS_BYTES or not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return _PlainProgress(total, label)
    return tqdm(total=total, unit="B", unit_scale=True, desc=label, file=sys.stderr)


class _PlainProgress:
    """A one-line percentage on standard error (used when tqdm is not installed)."""

    def __init__(self, total: int, label: str) -> None:
        self.total, self.done, self.label, self.shown = total, 0, label, -1

    def update(self, n: int) -> None:
        self.done += n
        pct = int(100 * self.done / self.total)
        if pct != self.shown:
            self.shown = pct
            print(f"\r{self.label}: {pct}%", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        print(file=sys.stderr, flush=True)


def _lines(fh: Any, path: Path, max_bytes: int, bar: Any) -> Iterator[str]:
    """The lines of a binary file as text, read defensively: at most ``max_bytes`` bytes in
    all and :data:`MAX_LINE_BYTES` per line (so an endless source such as /dev/zero stops at
    once), each line decoded as UTF-8 (a byte-order mark at the start is dropped)."""
    where = str(path)
    total = shown = 0  # bytes read, bytes reported to the progress bar
    line_no = 0
    while True:
        raw = fh.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        line_no += 1
        total += len(raw)
        if len(raw) > MAX_LINE_BYTES:
            raise ParameterError(
                f"`data` file {where!r}, line {line_no}: longer than {MAX_LINE_BYTES} bytes "
                "(not a CSV file of records?)."
            )
        if total > max_bytes:
            raise ParameterError(
                f"`data` file {where!r} is larger than the limit of {max_bytes} bytes; raise "
                "it with --max-bytes."
            )
        if line_no == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ParameterError(
                f"`data` file {where!r}, line {line_no}: not UTF-8 text (byte "
                f"0x{raw[exc.start]:02x} at byte {exc.start + 1} of the line: {exc.reason}); "
                "save the file as UTF-8."
            ) from None
        if bar is not None and line_no % 100_000 == 0:
            bar.update(total - shown)
            shown = total
        yield text


def _read_csv(
    path: Path, columns: list[str], *, max_bytes: int | None = None
) -> dict[str, np.ndarray]:
    """The named columns of a CSV file of records, as strings.

    Refused with a one-line :class:`ParameterError`: a file larger than ``max_bytes``
    (default :data:`MAX_DATA_BYTES`) or with a line longer than :data:`MAX_LINE_BYTES`, text
    that is not UTF-8, a header that repeats a column name, a line with another number of
    fields than the header, and an empty field in a named column (a missing value: the API
    refuses missing values too).
    """
    limit = MAX_DATA_BYTES if max_bytes is None else max_bytes
    where = str(path)
    try:
        size = path.stat().st_size
        fh = path.open("rb")
    except OSError as exc:
        raise ParameterError(f"cannot read `data` file {where!r}: {exc.strerror or exc}.") from None
    if path.is_dir():
        fh.close()
        raise ParameterError(f"cannot read `data` file {where!r}: it is a directory.")
    if path.is_file() and size > limit:  # a regular file: refused before reading
        fh.close()
        raise ParameterError(
            f"`data` file {where!r} is larger than the limit of {limit} bytes; raise it with "
            "--max-bytes."
        )
    bar = _progress(size, f"reading {path.name}")
    with fh:
        reader = csv.reader(_lines(fh, path, limit, bar))
        try:
            header = next(reader)
            counts: dict[str, int] = {}
            for k, name in enumerate(header):
                if name in counts:
                    raise ParameterError(
                        f"`data` file {where!r}: the header repeats the column {name!r} "
                        f"(fields {counts[name] + 1} and {k + 1}); rename one."
                    )
                counts[name] = k
            missing = [c for c in columns if c not in header]
            if missing:
                raise ParameterError(
                    f"`data` file {where!r} has no column(s) {missing}; its columns are {header}."
                )
            idx = [header.index(c) for c in columns]
            values: list[list[str]] = [[] for _ in columns]
            for row in reader:
                if len(row) != len(header):
                    raise ParameterError(
                        f"`data` file {where!r}, line {reader.line_num}: {len(row)} fields, "
                        f"expected {len(header)}."
                    )
                for k, i in enumerate(idx):
                    v = row[i]
                    if not v.strip():
                        raise ParameterError(
                            f"`data` file {where!r}, line {reader.line_num}: column "
                            f"{columns[k]!r} is empty (a missing value; fill it or drop the "
                            "record)."
                        )
                    values[k].append(v)
        except StopIteration:
            raise ParameterError(f"`data` file {where!r} is empty.") from None
        except csv.Error as exc:
            raise ParameterError(
                f"`data` file {where!r}, line {reader.line_num}: not valid CSV ({exc})."
            ) from None
        finally:
            if bar is not None:
                bar.close()
    return {c: np.asarray(v) for c, v in zip(columns, values, strict=True)}


def _int_column(values: np.ndarray, name: str) -> np.ndarray:
    try:
        return values.astype(np.uint64)
    except (ValueError, OverflowError):  # not an integer; negative or >= 2^64
        bad = next((v for v in values if not (v.strip().isdigit() and int(v) < 2**64)), values[0])
        raise ParameterError(
            f"record key column {name!r} must hold integers in [0, 2^64), got {str(bad)!r}."
        ) from None


def _float_column(values: np.ndarray, name: str) -> np.ndarray:
    """A column of weights as floats (the library checks they are finite and >= 0)."""
    try:
        return values.astype(np.float64)
    except ValueError:
        bad = next(v for v in values if not _is_float(v))
        raise ParameterError(
            f"weight column {name!r} must hold numbers, got {str(bad)!r}."
        ) from None


def _is_float(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _write_table(table: Any, path: Path) -> None:
    cols = list(table.columns)
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(cols)
        arrays = [np.asarray(table.columns[c]) for c in cols]
        for row in zip(*arrays, strict=True):
            w.writerow([str(x) for x in row])


def _hierarchies(specs: list[str], by: list[str]) -> dict[str, Any]:
    """``--hierarchy VAR=FILE.json`` (repeatable): each variable's tree from a JSON file, a
    nested object (a node -> its list of leaves, an object, or null for a leaf) or an object
    child -> parent (null: the root), as ``perturb(..., hierarchies=)`` takes it."""
    from ..io import read_bytes

    out: dict[str, Any] = {}
    for spec in specs:
        name, sep, file = spec.partition("=")
        name, file = name.strip(), file.strip()
        if not sep or not name or not file:
            raise ParameterError(f"--hierarchy must be VAR=FILE.json, got {spec!r}.")
        if name not in by:
            raise ParameterError(f"--hierarchy names {name!r}, which is not a --by column.")
        if name in out:
            raise ParameterError(f"--hierarchy gives {name!r} twice.")
        raw = read_bytes(Path(file), "hierarchy file")
        try:
            out[name] = json.loads(raw.decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise ParameterError(
                f"--hierarchy {name}: {file!r} is not a JSON file: {one_line(exc)}"
            ) from None
    return out


def _cmd_perturb(args: argparse.Namespace) -> int:
    from .. import cellkey

    data_path = Path(args.data)
    out = (
        check_output(args.output, CSV_SUFFIXES, [args.data, args.ptable], "a table file")
        if args.output
        else None
    )
    by = [c.strip() for c in args.by.split(",") if c.strip()]
    if not by:
        raise ParameterError(f"`--by` must name at least one column, got --by={args.by!r}.")
    key_cols = [c.strip() for c in args.record_key.split(",") if c.strip()]
    weight_cols = [args.weights] if args.weights else []
    table = _count_table(args.ptable)
    decimal = args.method == "cellkey"
    if decimal and (args.seed is not None or args.keysize is not None or len(key_cols) != 1):
        raise ParameterError(
            "--method cellkey reads one column of decimal record keys in [0, 1) (cellKey's, "
            "summed exactly mod 1): give one --record-key column and no --seed or --keysize."
        )
    K = args.keysize if args.keysize is not None else (table.keysize or 2**32)
    if args.seed is not None:
        data = _read_csv(data_path, by + weight_cols, max_bytes=args.max_bytes)
        n = len(data[by[0]])
        keys: Any = cellkey.record_keys(
            n, keysize=K, components=1 if args.method == "sum" else 4, seed=args.seed
        )
    else:
        data = _read_csv(data_path, by + key_cols + weight_cols, max_bytes=args.max_bytes)
        if decimal:
            keys = key_cols[0]  # the column, decimals as written in the file
        else:
            keys = np.stack([_int_column(data.pop(c), c) for c in key_cols], axis=1)
            if keys.shape[1] == 1:
                keys = keys[:, 0]
    weights = _float_column(data.pop(args.weights), args.weights) if args.weights else None
    hierarchies = _hierarchies(args.hierarchy or [], by)
    if hierarchies and args.no_margins:
        raise ParameterError("--hierarchy lists subtotals: it cannot go with --no-margins.")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", cellkey.KeysizeWarning)
        res = cellkey.perturb(
            data,
            by,
            table,
            record_keys=keys,
            keysize=None if decimal else K,
            margins=not args.no_margins,
            method=args.method,
            weights=weights,
            hierarchies=hierarchies or None,
        )
    for w in caught:  # a warning is one line on standard error, never a traceback
        error_line(f"rainbowdp: warning: {one_line(w.message)}")
    if out is not None:
        _write_table(res, out)
    u = cellkey.utility(res)
    summary = {
        "cells": len(res.columns["count"]),
        "records": len(res.record_cell),
        "keysize": "decimal" if decimal else K,
        "utility": u.to_dict() if hasattr(u, "to_dict") else str(u),
        "output": str(out) if out else None,
    }
    text = (
        f"perturbed {summary['cells']} cells from {summary['records']} records "
        f"({'decimal record keys' if decimal else f'KEYSIZE {K}'})\n"
        f"  |perturbed - true|: mean {u.absolute.mean:.4g}, max {u.absolute.max:.4g}; "
        f"relative (true > 0): mean {u.relative.mean:.4g}, max {u.relative.max:.4g}\n"
        f"  false zeros: {u.false_zeros}, false non-zeros: {u.false_nonzeros}"
    )
    if out is not None:
        text += f"\nwrote {out}"
    emit(summary, args.json, text)
    return EXIT_OK


# ------------------------------------------------------------------------------------ parsers
def run(args: argparse.Namespace) -> int:
    """Run ``rainbowdp ptable design``, ``ptable audit`` or ``perturb``; return the exit code."""
    if args.command == "perturb":
        return _cmd_perturb(args)
    if args.ptable_command == "design":
        return _cmd_ptable_design(args)
    return _cmd_ptable_audit(args)


def add_parser(sub: Any) -> None:
    """Add ``ptable`` (with ``design`` and ``audit``) and ``perturb`` to the subparsers."""
    pt = sub.add_parser("ptable", help="design or audit a perturbation table (cell-key method)")
    pts = pt.add_subparsers(dest="ptable_command", required=True, parser_class=Parser)
    _add_design_parser(pts)
    _add_audit_parser(pts)
    _add_perturb_parser(sub)


def _add_design_parser(pts: Any) -> None:
    """``ptable design``."""
    d = pts.add_parser(
        "design", help="design a ptable meeting (epsilon, delta) after quantisation by KEYSIZE"
    )
    d.add_argument("--epsilon", type=finite_float("--epsilon"), required=True)
    d.add_argument("--delta", type=finite_float("--delta"), required=True)
    d.add_argument(
        "--method",
        choices=["maxent", "optimal"],
        default="maxent",
        help="maxent: the max-entropy noise of the design guide (Sadeghi & Chien 2.4); optimal: "
        "the zero-bias noise with the same variance cap and the smallest exact delta",
    )
    d.add_argument(
        "--keysize",
        type=_keysize,
        default=None,
        help="KEYSIZE (default 2^32; 10^8 for --layout tauargus|sas, the grid of their "
        "8-decimal bounds)",
    )
    d.add_argument("--rows", type=integer("--rows"), default=None, help="rows 0..R-1 (default D+1)")
    d.add_argument("--D", type=integer("--D"), default=None, help="start the search at this D")
    d.add_argument("--variance", type=finite_float("--variance", positive=True), default=None)
    d.add_argument(
        "--layout",
        choices=["ptable", "tauargus", "sas", "ons"],
        default="ptable",
        help="file layout: R ptable, its Tau-Argus or SAS export (ptable::pt_export), or ONS "
        "(always pcv 0..750)",
    )
    d.add_argument("-o", "--output", default=None, help="ptable file (.csv)")
    d.add_argument("--json", action="store_true", help="machine-readable output (strict JSON)")
    d.set_defaults(run=run)


def _add_audit_parser(pts: Any) -> None:
    """``ptable audit``."""
    a = pts.add_parser("audit", help="exact epsilon, delta, bias and variance of a ptable file")
    a.add_argument("ptable", help="ptable file (R ptable or ONS layout, .csv)")
    a.add_argument(
        "--epsilon",
        type=finite_float("--epsilon"),
        action="append",
        default=None,
        help="an epsilon at which to report the exact delta (repeatable; default 1)",
    )
    a.add_argument(
        "--delta",
        type=finite_float("--delta"),
        action="append",
        default=None,
        help="a delta at which to report the exact epsilon (repeatable; default 0 and 1e-6)",
    )
    a.add_argument(
        "--keysize",
        type=_keysize,
        default=None,
        help="audit the table quantised at this KEYSIZE (what the cell keys apply)",
    )
    a.add_argument(
        "--key-type",
        choices=["integer", "decimal"],
        default=None,
        help="the keys the table is applied with; decimal: cellKey's / Tau-Argus' decimal keys, "
        "audited on the grid 10^d of the file's d-decimal bounds (default: what the file says)",
    )
    a.add_argument(
        "--layout",
        choices=["auto", "ptable", "tauargus", "sas", "ons"],
        default="auto",
        help="file layout (default: told by the header)",
    )
    a.add_argument("--json", action="store_true", help="machine-readable output (strict JSON)")
    a.set_defaults(run=run)


def _add_perturb_parser(sub: Any) -> None:
    """``perturb``."""
    p = sub.add_parser("perturb", help="perturb the frequency table of a CSV file (cell keys)")
    p.add_argument("data", help="microdata (.csv with a header)")
    p.add_argument("--by", required=True, help="the columns to cross-tabulate, e.g. sex,region")
    p.add_argument("--ptable", required=True, help="ptable file (.csv)")
    p.add_argument(
        "--record-key",
        default="rkey",
        help="column(s) of the record keys (default rkey; 4 comma-separated columns for 4 "
        "components)",
    )
    p.add_argument(
        "--seed",
        type=integer("--seed"),
        default=None,
        help="draw the record keys from this seed instead of reading them (consistent only for "
        "the same file in the same row order)",
    )
    p.add_argument("--keysize", type=_keysize, default=None, help="KEYSIZE (default the table's)")
    p.add_argument(
        "--method",
        choices=["abs", "sum", "cellkey"],
        default="abs",
        help="how record keys make a cell key: abs (the ABS's), sum (integer keys summed mod K), "
        "cellkey (the R package cellKey's decimal keys, summed mod 1)",
    )
    p.add_argument(
        "--weights",
        default=None,
        help="a column of sampling weights: adds the weighted counts (perturbed x weight sum / "
        "count, as cellKey publishes them)",
    )
    p.add_argument("--no-margins", action="store_true", help="interior cells only")
    p.add_argument(
        "--hierarchy",
        action="append",
        default=None,
        metavar="VAR=FILE.json",
        help="subtotals over a hierarchy of the --by column VAR (repeatable): a JSON object, "
        'node -> leaves (e.g. {"north": ["n1", "n2"], "south": null}) or child -> parent',
    )
    p.add_argument(
        "--max-bytes",
        type=bounded_int("--max-bytes", 1, 2**62),
        default=MAX_DATA_BYTES,
        help=f"refuse a data file larger than this (default {MAX_DATA_BYTES} bytes)",
    )
    p.add_argument("-o", "--output", default=None, help="perturbed table (.csv)")
    p.add_argument("--json", action="store_true", help="machine-readable output (strict JSON)")
    p.set_defaults(run=run)
