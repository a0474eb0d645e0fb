r"""Numbers shown to people, rounded in the safe direction.

A privacy number printed with fewer digits must not look better than it is: an ε or a δ is shown
rounded *up* (:func:`format_up`), a quantity whose larger values are worse for the user's claim
the other way round — e.g. the largest admissible η of a design — *down* (:func:`format_down`).
Python's ``f"{x:.4g}"`` rounds to nearest and can understate δ (0.0643217 prints as 0.06432, but
``round(x, 4)`` gives 0.0643).

Results handed to JSON, pandas or a notebook become plain Python with :func:`plain` (the
``to_dict`` methods) and strict JSON with :func:`nonfinite_to_null` (the ``--json`` output);
:func:`html_table` is the small HTML table of the result objects' ``_repr_html_`` (what a
notebook shows), :func:`dataframe` the table of their ``to_pandas`` (pandas imported there).
"""

from __future__ import annotations

import enum
import html
import math
import numbers
from collections.abc import Mapping, Sequence
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import Any

import numpy as np

from ._validation import check_int
from .exceptions import ParameterError, ParameterTypeError

__all__ = [
    "HTML_MAX_ROWS",
    "dataframe",
    "format_down",
    "format_up",
    "html_table",
    "nonfinite_to_null",
    "plain",
    "short_repr",
]

#: Rows an HTML table shows at most; the rest are counted in a last row.
HTML_MAX_ROWS = 20


def _format(value: Any, digits: Any, rounding: str) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        try:
            import numpy as np

            if isinstance(value, np.floating | np.integer) and not isinstance(value, np.bool_):
                value = float(value)
            else:
                raise TypeError
        except TypeError:
            raise ParameterTypeError(
                f"`value` must be a real number, got value={value!r}."
            ) from None
    digits = check_int(digits, "digits")
    if digits < 1 or digits > 17:
        raise ParameterError(f"`digits` must lie in 1..17, got digits={digits!r}.")
    x = float(value)
    if not math.isfinite(x):
        return "inf" if x > 0 else ("-inf" if x < 0 else "nan")
    if x == 0:
        return "0"
    d = Decimal(x)  # the exact binary value
    quantum = Decimal(1).scaleb(d.adjusted() - digits + 1)
    q = d.quantize(quantum, rounding=rounding)
    short = float(q)
    if not math.isfinite(short):  # rounded past the largest float, e.g. 1e308 up to 2e308
        return format(q, "g")
    text = f"{short:.{digits}g}"  # the short form, e.g. "0.5" and "1.2e-07"
    # Up to 15 digits the short form is q itself; at 16-17 digits the float nearest to q may
    # print as another number (even on the unsafe side of x), so q is written out instead.
    if Decimal(text) != q:
        text = format(q, "g")
    return text


def format_up(value: Any, digits: int = 6) -> str:
    r"""``value`` rounded *up* (towards +∞) to ``digits`` significant digits, as text.

    Use it to print an ε or a δ: the printed number is never below the computed one, so a
    statement such as "δ(ε) ≤ d" read off the printout stays true (δ(ε) is non-increasing in
    ε, so rounding both up keeps it).

    Parameters
    ----------
    value : float
        The number (any real; ``inf`` and ``nan`` are printed as such).
    digits : int, default 6
        Significant digits, 1..17.

    Returns
    -------
    str

    Raises
    ------
    TypeError
        If ``value`` is not a real number or ``digits`` not an integer.
    ValueError
        If ``digits`` is outside 1..17.

    Examples
    --------
    >>> format_up(0.0643217, 4), f"{0.0643217:.4g}"
    ('0.06433', '0.06432')
    >>> format_up(0.5), format_up(0.0), format_up(float("inf"))
    ('0.5', '0', 'inf')
    >>> format_up(-0.123456789, 3)
    '-0.123'
    >>> format_up(0.19393111397246515, 17)  # the float prints as ...515, below its exact value
    '0.19393111397246516'
    """
    return _format(value, digits, ROUND_CEILING)


def format_down(value: Any, digits: int = 6) -> str:
    r"""``value`` rounded *down* (towards −∞) to ``digits`` significant digits, as text.

    For the quantities whose understatement is the safe side, e.g. the largest η or the
    largest variance a design admits.

    Parameters
    ----------
    value : float
    digits : int, default 6
        Significant digits, 1..17.

    Returns
    -------
    str

    Examples
    --------
    >>> format_down(0.0643217, 4)
    '0.06432'
    >>> format_down(0.99999999, 3)
    '0.999'
    """
    return _format(value, digits, ROUND_FLOOR)


def plain(value: Any) -> Any:
    """``value`` as plain JSON-able Python: ``None``, bool, int, float, str, list and dict.

    Numpy scalars and arrays become Python numbers and (nested) lists, tuples become lists,
    enumerations their value, dictionary keys strings; floats stay floats (``inf`` and ``nan``
    included, see :func:`nonfinite_to_null`); anything else -- e.g. a ``frozenset`` or a
    ``Fraction`` used as a node label -- becomes ``str(value)``.

    Parameters
    ----------
    value : object

    Returns
    -------
    object
        A value that :func:`json.dumps` writes (with its default ``allow_nan=True``).

    Raises
    ------
    ParameterError
        If two keys of a dictionary become the same string (e.g. ``1`` and ``"1"``): one entry
        would be lost silently.

    Examples
    --------
    >>> plain({"edge": (np.int64(0), (1, "a")), "d": np.float64(0.5), 3: np.array([1, 2])})
    {'edge': [0, [1, 'a']], 'd': 0.5, '3': [1, 2]}
    >>> plain(frozenset({1})), plain(float("inf"))
    ('frozenset({1})', inf)
    >>> try:
    ...     plain({1: "a", "1": "b"})
    ... except ParameterError as exc:
    ...     print(exc)
    `value` has two dictionary keys that both become the string '1': '1' and an earlier one;
    rename one.
    """
    if isinstance(value, enum.Enum):
        value = value.value
    if isinstance(value, np.generic):
        value = value.item()
    if value is None:
        return None
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            key = k if isinstance(k, str) else str(plain(k))
            if key in out:
                raise ParameterError(
                    f"`value` has two dictionary keys that both become the string {key!r}: "
                    f"{k!r} and an earlier one; rename one."
                )
            out[key] = plain(v)
        return out
    return str(value)


def nonfinite_to_null(value: Any) -> Any:
    """``value`` with every infinite or NaN float replaced by ``None``: strict JSON.

    The convention of the ``--json`` output of the ``rainbowdp`` command: ``null`` stands for a
    number that is infinite or undefined (e.g. no finite ε at the given δ).

    Examples
    --------
    >>> import json
    >>> json.dumps(nonfinite_to_null({"epsilon": float("inf"), "x": [1.0, float("nan")]}),
    ...            allow_nan=False)
    '{"epsilon": null, "x": [1.0, null]}'
    """
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, list | tuple):
        return [nonfinite_to_null(v) for v in value]
    if isinstance(value, dict):
        return {k: nonfinite_to_null(v) for k, v in value.items()}
    return value


def short_repr(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters (ending in ``...``) when longer.

    Examples
    --------
    >>> short_repr(tuple(range(100)), 20)
    '(0, 1, 2, 3, 4, 5...'
    """
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def html_table(
    caption: str,
    header: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    n_rows: int | None = None,
    note: str = "",
) -> str:
    """A small HTML table: ``caption``, one header row, at most :data:`HTML_MAX_ROWS` rows.

    Cells are shown with ``str`` and escaped; the caller rounds privacy numbers the safe way
    (:func:`format_up`) before. Rows beyond :data:`HTML_MAX_ROWS` (of ``n_rows``, default
    ``len(rows)``: the caller may pass only the first rows) are counted in a last row;
    ``note`` (escaped) is a line under the table.

    Examples
    --------
    >>> html_table("t", ["a"], [["<b>"]]).count("&lt;b&gt;")
    1
    """
    esc = html.escape
    head = "".join(f"<th>{esc(str(h))}</th>" for h in header)
    body = [
        "<tr>" + "".join(f"<td>{esc(str(c))}</td>" for c in row) + "</tr>"
        for row in rows[:HTML_MAX_ROWS]
    ]
    total = len(rows) if n_rows is None else n_rows
    if total > len(body):
        body.append(f'<tr><td colspan="{len(header)}">... {total - len(body)} more rows</td></tr>')
    foot = f"<p>{esc(note)}</p>" if note else ""
    return (
        f"<table><caption>{esc(caption)}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>{foot}"
    )


def dataframe(records: Sequence[Mapping[str, Any]], columns: Sequence[str], what: str) -> Any:
    """A :class:`pandas.DataFrame` of ``records`` with ``columns``; pandas is imported here.

    Raises
    ------
    ImportError
        If pandas is not installed; the message names ``what`` and the extra to install.
    """
    try:
        import pandas as pd
    except ImportError as exc:
        raise ImportError(
            f"{what} needs pandas, which is not installed: pip install pandas (or the "
            "rainbowdp extra `tables`)."
        ) from exc
    return pd.DataFrame.from_records(list(records), columns=list(columns))
