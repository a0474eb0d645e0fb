r"""How a printed value is compared with the recomputed one, and how each recomputed value is
read off the result of a target.

A :class:`Check` pairs a :class:`~rainbowdp.reproduce._printed.Printed` value with an extractor
(a function of the target's result); :func:`evaluate` runs the extractor and gives a
:class:`CheckResult` with one of the statuses below. The extractors of every target of
:data:`rainbowdp.reproduce.TARGETS` are in its paper's printed-values module
(:data:`rainbowdp.reproduce._printed.EXTRACTORS`): every recomputed value is read off the result
of running the library, none is typed in. A worked example's result is a
:class:`~rainbowdp.reproduce._declare.TableResult` (a table, no image).

Statuses: ``"yes"`` (agrees at the printed precision, or the statement holds), ``"no"``,
``"erratum N"`` (the printed value is wrong, ``docs/errata.md`` item N, *and* the recomputed
value agrees with the erratum's correction), ``"n/a"`` (not comparable) and ``"error"``
(reading the value off the result failed).

Numbers shown in the text of a statement are rounded to nearest, except privacy numbers: an ε or
a δ, and the largest of several, is rounded up (:func:`rainbowdp.format_up`), the smallest of
several down (:func:`rainbowdp.format_down`). Agreement is always decided on the full-precision
values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ._declare import TableResult, plain_json
from ._printed_value import Printed

__all__ = ["Check", "CheckResult", "TableResult", "evaluate", "not_computed", "plain_json"]

#: The status of a check whose recomputed value agrees with the printed one.
AGREE = "yes"
#: The status of a check that disagrees with the printed value (and, for an erratum, with
#: its correction).
DISAGREE = "no"
#: The status of a check whose recomputed value could not be read off the result.
ERROR = "error"
#: The status of a check that cannot be compared (e.g. the paper's private data).
NOT_COMPARABLE = "n/a"


# --------------------------------------------------------------------------------- data model
@dataclass(frozen=True)
class Check:
    r"""A printed value and how to read the recomputed one off a target's result.

    Attributes
    ----------
    key : str
        The key of the printed value in :data:`~rainbowdp.reproduce._printed.PRINTED`.
    printed : Printed
        The printed value, its citation, tolerance and erratum.
    extract : callable
        ``extract(result)`` -> the recomputed value; for ``printed.kind == "claim"`` a pair
        ``(shown, holds)`` -- a triple ``(shown, holds, corrected_holds)`` when the printed
        statement has an erratum (``printed.correction == "statement"``) --, for ``"info"`` the
        text shown.
    """

    key: str
    printed: Printed
    extract: Callable[[Any], Any] = field(repr=False, compare=False)


@dataclass(frozen=True)
class CheckResult:
    r"""One printed value beside the recomputed one.

    Attributes
    ----------
    label, citation, note : str
        From the :class:`Printed` entry.
    printed : str
        The value or statement as printed.
    recomputed : Any
        The recomputed value (for a claim: the text shown); None if extracting it failed.
    shown : str
        ``recomputed`` as text (the error message if extracting it failed).
    status : str
        ``"yes"`` (agrees within the printed precision, or the claim holds), ``"no"``,
        ``"erratum N"`` (the paper is wrong here, ``docs/errata.md`` item N, and the
        recomputed value meets that item's correction), ``"n/a"`` (not comparable) or
        ``"error"`` (extracting the value failed).
    tolerance : float or None
        The largest ``|printed - recomputed|`` accepted (:attr:`Printed.tolerance`: half a
        unit of the printed last digit plus float64 round-off; 0 for exact values; None for
        claims and bounds).
    kind : str
        How the values are compared (see :mod:`rainbowdp.reproduce._printed`).
    corrected : str or None
        The erratum's correction (a number or a statement), None without an erratum.
    gap : float or None
        ``|printed - recomputed|`` (largest over a tuple, rounded up) for ``kind="digits"``;
        None otherwise.

    Raises
    ------
    ValueError
        If ``status`` is ``"yes"`` for a ``"digits"`` value whose ``gap`` exceeds
        ``tolerance``: no row agrees beyond its stated tolerance.
    """

    label: str
    printed: str
    recomputed: Any
    shown: str
    status: str
    tolerance: float | None
    kind: str
    citation: str
    note: str
    corrected: str | None = None
    gap: float | None = None

    def __post_init__(self) -> None:
        if self.status == AGREE and self.kind == "digits":
            if self.gap is None or self.tolerance is None or self.gap > self.tolerance:
                raise ValueError(
                    f"{self.label!r}: status 'yes' needs |printed - recomputed| <= tolerance, "
                    f"got gap={self.gap!r}, tolerance={self.tolerance!r}."
                )

    @property
    def ok(self) -> bool:
        """The check agrees, is a documented erratum, or is not comparable."""
        return self.status not in (DISAGREE, ERROR)

    def to_dict(self) -> dict:
        """Plain values, e.g. for JSON."""
        return {
            "label": self.label,
            "printed": self.printed,
            "recomputed": plain_json(self.recomputed),
            "shown": self.shown,
            "status": self.status,
            "tolerance": self.tolerance,
            "kind": self.kind,
            "citation": self.citation,
            "note": self.note,
            "corrected": self.corrected,
            "gap": self.gap,
        }


# ------------------------------------------------------------------------------- comparing
def _check_result(
    p: Printed, recomputed: Any, shown: str, status: str, note: str | None = None
) -> CheckResult:
    gap = None
    if p.kind == "digits" and recomputed is not None:
        try:
            gap = p.gap(recomputed)
        except (TypeError, ValueError):  # not a number: the status says why
            gap = None
    return CheckResult(
        label=p.label,
        printed=p.text,
        recomputed=recomputed,
        shown=shown,
        status=status,
        tolerance=p.tolerance,
        kind=p.kind,
        citation=p.citation,
        note=p.note if note is None else note,
        corrected=p.corrected,
        gap=gap,
    )


def not_computed(check: Check) -> CheckResult:
    """The result of a check whose target raised: status ``"error"``."""
    return _check_result(check.printed, None, "not computed", ERROR)


def _status(p: Printed, holds: bool, fixed: bool | None) -> tuple[str, str | None]:
    """Status and note of a comparison: ``holds`` against the printed value, ``fixed`` against
    the erratum's correction (None without an erratum)."""
    if p.erratum is None:
        return (AGREE if holds else DISAGREE), None
    if holds:  # the errata say the paper is wrong here, yet it agrees
        return DISAGREE, f"agrees, although erratum {p.erratum} says it does not. {p.note}".strip()
    if not fixed:
        return DISAGREE, (
            f"agrees neither with the printed value nor with the correction of erratum "
            f"{p.erratum} ({p.corrected}). {p.note}"
        ).strip()
    return f"erratum {p.erratum}", None


def evaluate(check: Check, result: Any) -> CheckResult:
    """Compare one printed value (and, for an erratum, its correction) with the value read off
    ``result``.

    Parameters
    ----------
    check : Check
    result : object
        What the target's ``make()`` returned.

    Returns
    -------
    CheckResult
        Status ``"yes"`` when the recomputed value agrees with the printed one; for an entry
        with an erratum, ``"erratum N"`` only when it disagrees with the printed value *and*
        agrees with the correction, else ``"no"``; ``"n/a"`` for information; ``"error"`` when
        the extractor raised (reported, not raised).

    Examples
    --------
    >>> p = Printed("m_2", "0.0081", "Gu et al.", erratum=3, corrected="0.0082",
    ...             correction="value")
    >>> evaluate(Check("m_2", p, lambda r: r), 0.0081818).status
    'erratum 3'
    >>> evaluate(Check("m_2", p, lambda r: r), 0.0090).status  # neither printed nor corrected
    'no'
    """
    p = check.printed
    fixed: bool | None = None
    try:
        value = check.extract(result)
        if p.kind == "info":
            return _check_result(p, value, str(value), NOT_COMPARABLE)
        if p.kind == "claim":
            if p.correction == "statement":
                shown, holds, fixed = value
            else:
                shown, holds = value
            recomputed: Any = shown
        else:
            holds, shown, recomputed = p.agrees(value), p.show(value), value
            if p.correction == "value":
                fixed = p.corrects(value)
    except Exception as exc:  # a broken extractor is reported in the index, not raised
        return _check_result(p, None, f"{type(exc).__name__}: {exc}", ERROR)
    status, note = _status(p, bool(holds), None if fixed is None else bool(fixed))
    return _check_result(p, recomputed, shown, status, note)
