r"""Helpers of the extractors: the functions reading a recomputed value or deciding a printed
statement off a target's result (``EXTRACTORS`` of the printed-values modules).

Numbers shown in the text of a statement are rounded to nearest, except privacy numbers: an ε or
a δ, and the largest of several, is rounded up (:func:`rainbowdp.format_up`), the smallest of
several down (:func:`rainbowdp.format_down`). Agreement is always decided on the full-precision
values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .._format import format_down, format_up
from ._printed_value import Printed

__all__ = ["claim", "claim_fixed", "down", "listed", "nearest", "rounds_to", "up"]


def claim(shown: str, holds: bool) -> tuple[str, bool]:
    """A statement: the text shown and whether the printed statement holds."""
    return shown, bool(holds)


def claim_fixed(shown: str, holds: bool, corrected_holds: bool) -> tuple[str, bool, bool]:
    """A statement with an erratum: whether the printed and the corrected statement hold."""
    return shown, bool(holds), bool(corrected_holds)


def rounds_to(x: float, text: str) -> bool:
    """``x`` agrees with the number ``text`` at the precision of its digits (a number quoted
    from ``docs/errata.md``)."""
    return Printed("", text, "").agrees(x)


def nearest(x: float, digits: int = 4) -> str:
    """To nearest: for numbers that are not privacy parameters (masses, variances)."""
    return format(float(x), f".{digits}g")


def up(x: float, digits: int = 4) -> str:
    """Rounded up: an ε, a δ, or the largest of several values."""
    return format_up(float(x), digits)


def down(x: float, digits: int = 4) -> str:
    """Rounded down: the smallest of several values (e.g. a margin)."""
    return format_down(float(x), digits)


def listed(xs: Iterable[float], digits: int = 4, fmt: Callable[[float, int], str] = nearest) -> str:
    """Numbers as text, comma separated, each by ``fmt``."""
    return ", ".join(fmt(x, digits) for x in xs)
