"""How the cell-key result objects show themselves: short numbers, small HTML tables, pandas.

Every result object of :mod:`rainbowdp.cellkey` has a one-line ``repr`` (kind, parameters,
sizes, the key ε and δ; never an array), a ``str`` of a few lines, a ``_repr_html_`` (a small
HTML table, for notebooks) and, where a table is natural, ``to_pandas()``. The helpers here
format those. Privacy numbers are shown with :func:`rainbowdp._format.format_up` (δ and ε
rounded up: a shown number is never below the exact one).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from .._format import format_up

__all__ = ["html_table", "num", "require_pandas", "up"]


def up(x: float | None, digits: int = 4) -> str:
    """A privacy number (δ, ε) for people, rounded up; ``"-"`` for None."""
    return "-" if x is None else format_up(float(x), digits)


def num(x: Any, digits: int = 4) -> str:
    """A non-privacy number (variance, bias, counts) with ``digits`` significant digits."""
    if x is None:
        return "-"
    if isinstance(x, (int,)) and not isinstance(x, bool):
        return str(x)
    return f"{float(x):.{digits}g}"


def html_table(title: str, rows: Sequence[tuple[str, Any]]) -> str:
    """A two-column HTML table (name, value) under a caption, every text escaped."""
    body = "".join(
        f"<tr><th style='text-align:left'>{html.escape(str(k))}</th>"
        f"<td style='text-align:left'>{html.escape(str(v))}</td></tr>"
        for k, v in rows
    )
    return f"<table><caption>{html.escape(title)}</caption>{body}</table>"


def require_pandas(what: str) -> Any:
    """Import pandas, or raise an ImportError saying how to install it."""
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - pandas is installed in the test environment
        raise ImportError(
            f"{what}.to_pandas() needs pandas: install the extra `tables` "
            "(pip install 'rainbowdp[tables]')."
        ) from exc
    return pd
