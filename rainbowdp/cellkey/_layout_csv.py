"""The parsed data lines of a ptable file (CSV with commas or semicolons), with the line numbers
that error messages name."""

from __future__ import annotations

import csv
import gc
import io
import math
from pathlib import Path
from typing import NoReturn

import numpy as np

from ..exceptions import ParameterError

__all__ = ["Rows"]


class Rows:
    """The parsed data lines of a CSV file: column name -> array of strings, and line numbers."""

    def __init__(
        self,
        path: Path,
        text: str,
        required: tuple[str, ...],
        optional: tuple[str, ...] = (),
        delimiter: str = ",",
    ) -> None:
        self.path = path
        self.delimiter = delimiter
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
        reader = csv.reader(io.StringIO(text), delimiter=self.delimiter)
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
                self.fail(
                    self.lines[k], f"column `{name}` is out of range, got {str(text).strip()!r}"
                )
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
