r"""Numbers shown to people, rounded in the safe direction.

A privacy number printed with fewer digits must not look better than it is: an ε or a δ is shown
rounded *up* (:func:`format_up`), a quantity whose larger values are worse for the user's claim
the other way round — e.g. the largest admissible η of a design — *down* (:func:`format_down`).
Python's ``f"{x:.4g}"`` rounds to nearest and can understate δ (0.0643217 prints as 0.06432, but
``round(x, 4)`` gives 0.0643).
"""

from __future__ import annotations

import math
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import Any

from ._validation import check_int
from .exceptions import ParameterError, ParameterTypeError

__all__ = ["format_down", "format_up"]


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
