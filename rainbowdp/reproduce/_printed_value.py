r""":class:`Printed`: one number or statement a source paper prints, with where it is printed,
and how a recomputed value is compared with it.

Each :class:`Printed` holds the text exactly as the paper prints it,
the citation (paper, figure / table / equation / example), how to compare a recomputed value
with it, and, where the paper is wrong, the number of the item of ``docs/errata.md`` and the
correction that item gives. The
tolerance is the one the printed digits imply: half a unit of the last printed digit (``0.0049``
stands for [0.00485, 0.00495]); integers, fractions and tuples of integers must agree exactly.
Nothing here is computed: the recomputed values come from running the library
(:mod:`rainbowdp.reproduce._all`).

Kinds of comparison:

``"digits"``
    a number, a fraction or a tuple of them: agrees when every entry is within
    :attr:`Printed.tolerance` of it -- half a unit of its last digit plus four float64 ulps of
    the printed value (plus ``rel_slack`` times it, where an entry sets it; none of the registry
    does) --, decided in exact rational arithmetic. The index shows that tolerance and the
    difference.
``"exact"``
    integers, fractions, tuples or sets of them (``2^32`` is a power, ``1/4`` a fraction):
    agrees when equal (a float recomputed value must equal the fraction exactly).
``"at_most"``
    a printed bound: agrees when the recomputed number is at most it.
``"claim"``
    a statement; the target's extractor decides whether it holds.
``"info"``
    shown beside the recomputed value but not comparable (e.g. the paper's private data).

Kinds of correction (of an entry with an ``erratum``; the check counts as an erratum only when
the recomputed value fails the printed one *and* meets the correction, else it disagrees):

``"value"``
    ``corrected`` is the number the erratum says is right, in the notation and at the precision
    of the printed one (``"0.0082"`` for a printed ``"0.0081"``); the recomputed value must
    agree with it as it would with a printed value (:meth:`Printed.corrects`).
``"statement"``
    no single corrected number exists (a claim in words): ``corrected`` is the corrected
    statement, and the target's extractor returns ``(shown, holds, corrected_holds)`` --
    whether the printed statement and the corrected one hold on the recomputed values.

Privacy numbers are shown in the safe direction: ``rounding="up"`` for an ε or a δ (and always
for ``"at_most"`` bounds), ``"down"`` for a quantity whose understatement is safe
(:func:`rainbowdp.format_up`, :func:`rainbowdp.format_down`); agreement is decided on the
full-precision values.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal

from .._format import format_down, format_up

__all__ = ["CORRECTIONS", "KINDS", "ROUNDINGS", "Printed"]

#: The kinds of comparison (see the module notes).
KINDS = ("digits", "exact", "at_most", "claim", "info")
Kind = Literal["digits", "exact", "at_most", "claim", "info"]
#: The kinds of correction of an erratum (see the module notes).
CORRECTIONS = ("value", "statement")
Correction = Literal["value", "statement"]
#: How a recomputed number is rounded when shown: to nearest, up or down.
ROUNDINGS = ("nearest", "up", "down")
Rounding = Literal["nearest", "up", "down"]


_POWER = re.compile(r"^(\d+)\^(\d+)$")
_FRACTION = re.compile(r"^-?\d+/\d+$")


def _number(text: str) -> Decimal | Fraction:
    t = text.strip().replace("−", "-")
    if "/" in t:
        return Fraction(t)
    return Decimal(t)


def _parse_digits(text: str) -> Any:
    t = text.strip()
    if t.startswith("(") and t.endswith(")"):
        return tuple(_number(s) for s in t[1:-1].split(","))
    return _number(t)


def _parse_exact(text: str) -> Any:
    t = text.strip().replace("−", "-")
    m = _POWER.match(t)
    if m:
        return int(m.group(1)) ** int(m.group(2))
    if _FRACTION.match(t):
        return Fraction(t)
    return ast.literal_eval(t)


def _half_unit(x: Decimal | Fraction) -> float:
    """Half a unit of the last printed digit (0 for an exact fraction)."""
    if isinstance(x, Fraction):
        return 0.0
    return 0.5 * 10.0 ** x.as_tuple().exponent  # type: ignore[operator]


def _significant(x: Decimal | Fraction) -> int:
    if isinstance(x, Fraction):
        return 6
    return max(1, len(x.normalize().as_tuple().digits) if x != 0 else 1)


def _ulps(x: float) -> float:
    """Four float64 units in the last place of ``x``: the round-off allowed in a comparison."""
    return 4.0 * math.ulp(abs(x)) if math.isfinite(x) else 0.0


@dataclass(frozen=True)
class Printed:
    r"""One number or statement printed in a paper.

    Attributes
    ----------
    label : str
        What the number is, e.g. ``"τ_1"`` or ``"δ = 0.1212: f*(3)"``.
    text : str
        The value as printed (``"0.0049"``, ``"1/4"``, ``"(1, 3, 3, 2)"``, ``"2^32"``), or the
        statement for ``kind="claim"`` / ``"info"``.
    citation : str
        Paper and place, e.g. ``"Gu et al., Fig. 3 caption"``.
    kind : {"digits", "exact", "at_most", "claim", "info"}, default "digits"
        How a recomputed value is compared (module notes).
    erratum : int, optional
        The item of ``docs/errata.md`` saying the paper is wrong here: the index then shows
        the printed and recomputed values with the note instead of claiming agreement.
    corrected : str, optional
        Required with ``erratum`` (and only then): what that item says is right -- the
        corrected number (``correction="value"``) or the corrected statement
        (``correction="statement"``).
    correction : {"value", "statement"}, optional
        Required with ``erratum``: the kind of correction (module notes). ``"value"`` needs a
        ``"digits"``, ``"exact"`` or ``"at_most"`` entry and a ``corrected`` number at the
        printed precision; ``"statement"`` a ``"claim"``.
    note : str, default ""
        Shown beside the comparison.
    rel_slack : float, default 0.0
        Relative tolerance added to the digits' one, for a value the library rounds up on
        purpose (sound privacy numbers); the note says why.
    rounding : {"nearest", "up", "down"}, optional
        How :meth:`show` rounds the recomputed number: ``"up"`` for an ε or a δ, ``"down"``
        where understating is safe. Default: ``"up"`` for ``"at_most"`` bounds, else
        ``"nearest"``.

    Raises
    ------
    ValueError
        If ``kind``, ``correction`` or ``rounding`` is unknown, a printed or corrected number
        does not parse, or ``erratum``, ``corrected`` and ``correction`` do not go together.

    Examples
    --------
    >>> p = Printed("delta-tilde", "0.0049", "Sadeghi et al., Section III-B")
    >>> p.tolerance, p.agrees(0.00491), p.agrees(0.0048)
    (5e-05, True, False)
    >>> tau = Printed("tau", "(38, 22, 7, 1, 0)", "Gu et al., Fig. 3", kind="exact")
    >>> tau.agrees((38, 22, 7, 1, 0)), tau.agrees((39, 23, 8, 2, 0))
    (True, False)
    >>> m2 = Printed("m_2", "0.0081", "Gu et al., Section 5.3", erratum=3, corrected="0.0082",
    ...              correction="value")
    >>> m2.agrees(0.0081818), m2.corrects(0.0081818), m2.corrects(0.0081)
    (False, True, False)
    >>> Printed("δ", "9.91e-5", "Sadeghi & Chien", rounding="up").show(9.9112345e-5)
    '9.91124e-05'
    """

    label: str
    text: str
    citation: str
    kind: Kind = "digits"
    erratum: int | None = None
    note: str = ""
    rel_slack: float = 0.0
    corrected: str | None = None
    correction: Correction | None = None
    rounding: Rounding | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"`kind` must be one of {KINDS}, got kind={self.kind!r}.")
        if self.rounding is not None and self.rounding not in ROUNDINGS:
            raise ValueError(
                f"`rounding` must be one of {ROUNDINGS}, got rounding={self.rounding!r}."
            )
        if self.kind in ("digits", "exact", "at_most"):
            self.value  # noqa: B018 - parse now: a typo in a printed number fails at import
        self._check_correction()

    def _check_correction(self) -> None:
        if self.erratum is None:
            if self.corrected is not None or self.correction is not None:
                raise ValueError(
                    f"{self.label!r}: `corrected` and `correction` go with an `erratum`, got "
                    f"corrected={self.corrected!r}, correction={self.correction!r}."
                )
            return
        if self.correction not in CORRECTIONS or not self.corrected:
            raise ValueError(
                f"{self.label!r}: erratum {self.erratum} needs `corrected` (what the erratum "
                f"says is right) and `correction` in {CORRECTIONS}, got "
                f"corrected={self.corrected!r}, correction={self.correction!r}."
            )
        if self.correction == "statement":
            if self.kind != "claim":
                raise ValueError(
                    f"{self.label!r}: correction='statement' needs kind='claim', "
                    f"got kind={self.kind!r}."
                )
            return
        if self.kind not in ("digits", "exact", "at_most"):
            raise ValueError(
                f"{self.label!r}: correction='value' needs a number, got kind={self.kind!r}."
            )
        fixed = self._corrected_entry()
        if fixed._half_units() != self._half_units():
            raise ValueError(
                f"{self.label!r}: `corrected` must be written at the printed precision "
                f"(±{self._half_units()}), got corrected={self.corrected!r} "
                f"(±{fixed._half_units()})."
            )

    def _half_units(self) -> float:
        """Half a unit of the last printed digit (largest over a tuple; 0 if exact)."""
        if self.kind not in ("digits", "at_most"):
            return 0.0
        v = self.value
        return max(_half_unit(x) for x in (v if isinstance(v, tuple) else (v,)))

    def _corrected_entry(self) -> Printed:
        return Printed(
            self.label, str(self.corrected), self.citation, self.kind, rel_slack=self.rel_slack
        )

    def corrects(self, recomputed: Any) -> bool:
        """Whether ``recomputed`` agrees with the erratum's corrected value, at the printed
        precision (``correction="value"`` only).

        Raises
        ------
        TypeError
            If the entry has no corrected value.
        """
        if self.correction != "value":
            raise TypeError(f"{self.label!r} has no corrected value to compare with")
        return self._corrected_entry().agrees(recomputed)

    @property
    def value(self) -> Any:
        """The printed value: a Decimal or Fraction (or a tuple of them) for ``"digits"`` and
        ``"at_most"``, an int / tuple / set for ``"exact"``, the text otherwise."""
        if self.kind in ("digits", "at_most"):
            return _parse_digits(self.text)
        if self.kind == "exact":
            return _parse_exact(self.text)
        return self.text

    @property
    def tolerance(self) -> float | None:
        """The largest allowed ``|printed - recomputed|``: half a unit of the last printed digit
        (0 for a fraction), plus ``rel_slack`` times the printed value, plus four float64 units
        in the last place of the printed value (binary round-off); the largest over a tuple.
        0 for exact values; None for bounds, claims and information. :meth:`agrees` accepts
        exactly the values within it."""
        if self.kind == "exact":
            return 0.0
        if self.kind != "digits":
            return None
        v = self.value
        return max(self._entry_tolerance(x) for x in (v if isinstance(v, tuple) else (v,)))

    def _entry_tolerance(self, printed: Decimal | Fraction) -> float:
        """The allowed gap for one printed entry, rounded up to a float."""
        p = abs(float(printed))
        tol = _half_unit(printed) + self.rel_slack * p + _ulps(p)
        return math.nextafter(tol, math.inf) if tol else 0.0

    def agrees(self, recomputed: Any) -> bool:
        """Whether ``recomputed`` agrees with the printed value (``"digits"``, ``"exact"``,
        ``"at_most"`` only).

        Raises
        ------
        TypeError
            For ``kind="claim"`` or ``"info"`` (the target decides those).
        """
        if self.kind == "exact":
            return _exact_equal(self.value, recomputed)
        if self.kind == "at_most":
            x = float(recomputed)
            return math.isfinite(x) and x <= float(self.value)
        if self.kind != "digits":
            raise TypeError(f"a {self.kind!r} entry has no value to compare with")
        v = self.value
        if isinstance(v, tuple):
            r = tuple(recomputed)
            return len(r) == len(v) and all(self._close(a, b) for a, b in zip(v, r, strict=True))
        return self._close(v, recomputed)

    def _close(self, printed: Decimal | Fraction, recomputed: Any) -> bool:
        """``|printed - recomputed| <= tolerance``, decided in exact rational arithmetic."""
        x = float(recomputed)
        if not math.isfinite(x):
            return False
        gap = abs(Fraction(x) - Fraction(printed))
        return gap <= Fraction(self._entry_tolerance(printed))

    def gap(self, recomputed: Any) -> float | None:
        """The largest ``|printed - recomputed|`` over the entries, rounded up (``"digits"``
        only; None otherwise, or if the recomputed value has another shape or is not finite).

        Examples
        --------
        >>> Printed("x", "0.0049", "c").gap(0.00491) <= Printed("x", "0.0049", "c").tolerance
        True
        """
        if self.kind != "digits":
            return None
        v = self.value
        pairs = (
            list(zip(v, tuple(recomputed), strict=False))
            if isinstance(v, tuple)
            else [(v, recomputed)]
        )
        if isinstance(v, tuple) and len(tuple(recomputed)) != len(v):
            return None
        gaps = []
        for printed, r in pairs:
            x = float(r)
            if not math.isfinite(x):
                return None
            g = abs(Fraction(x) - Fraction(printed))
            f = float(g)
            gaps.append(math.nextafter(f, math.inf) if Fraction(f) < g else f)
        return max(gaps)

    def show(self, recomputed: Any) -> str:
        """``recomputed`` as text, with three significant digits more than printed, rounded as
        ``rounding`` says (an ``"at_most"`` bound: up, to 4 digits)."""
        if self.kind in ("claim", "info") and isinstance(recomputed, str):
            return recomputed
        rounding = self.rounding or ("up" if self.kind == "at_most" else "nearest")
        if self.kind == "digits":
            v = self.value
            if isinstance(v, tuple):
                return (
                    "("
                    + ", ".join(
                        _fmt(r, _significant(p) + 3, rounding)
                        for p, r in zip(v, recomputed, strict=False)
                    )
                    + ")"
                )
            return _fmt(recomputed, _significant(v) + 3, rounding)
        if self.kind == "at_most":
            return _fmt(recomputed, 4, rounding)
        return _plain_text(recomputed)


def _exact_equal(printed: Any, recomputed: Any) -> bool:
    if isinstance(printed, tuple | list):
        r = list(recomputed)
        return len(r) == len(printed) and all(
            _exact_equal(a, b) for a, b in zip(printed, r, strict=True)
        )
    if isinstance(printed, set | frozenset):
        return {_hashable(x) for x in printed} == {_hashable(x) for x in recomputed}
    return printed == recomputed


def _hashable(x: Any) -> Any:
    if isinstance(x, tuple | list):
        return tuple(_hashable(y) for y in x)
    return int(x) if hasattr(x, "__index__") else x


def _fmt(x: Any, sig: int, rounding: str = "nearest") -> str:
    """``x`` to ``sig`` significant digits (4..17), rounded to nearest, up or down."""
    if isinstance(x, bool | str):
        return str(x)
    if isinstance(x, Fraction):
        x = float(x)
    if hasattr(x, "__index__"):
        return str(int(x))
    f = float(x)
    if not math.isfinite(f):
        return str(f)
    digits = min(max(sig, 4), 17)
    if rounding == "up":
        return format_up(f, digits)
    if rounding == "down":
        return format_down(f, digits)
    return format(f, f".{digits}g")


def _plain_text(x: Any) -> str:
    if isinstance(x, tuple | list):
        return "(" + ", ".join(_plain_text(y) for y in x) + ")"
    if isinstance(x, set | frozenset):
        return "{" + ", ".join(sorted(_plain_text(y) for y in x)) + "}"
    if hasattr(x, "__index__") and not isinstance(x, bool):
        return str(int(x))
    if isinstance(x, float):
        return _fmt(x, 6)
    return str(x)
