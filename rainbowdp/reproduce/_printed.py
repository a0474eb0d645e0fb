r"""The numbers and statements the source papers print, each with where it is printed.

:data:`PRINTED` maps a target of :func:`rainbowdp.reproduce.reproduce_all` to its printed values,
in the order of the index. Each :class:`Printed` holds the text exactly as the paper prints it,
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
from .kadam import KADAM_EQ59, KADAM_TABLE1

__all__ = ["CORRECTIONS", "KINDS", "PAPERS", "PRINTED", "Printed"]

#: The kinds of comparison (see the module notes).
KINDS = ("digits", "exact", "at_most", "claim", "info")
Kind = Literal["digits", "exact", "at_most", "claim", "info"]
#: The kinds of correction of an erratum (see the module notes).
CORRECTIONS = ("value", "statement")
Correction = Literal["value", "statement"]
#: How a recomputed number is rounded when shown: to nearest, up or down.
ROUNDINGS = ("nearest", "up", "down")
Rounding = Literal["nearest", "up", "down"]

#: Paper key -> full reference, in the order of the index.
PAPERS = {
    "gu": "Gu, Zhou, Günlü, D'Oliveira, Sadeghi, Médard, Schaefer, *Generalized rainbow "
    "differential privacy*",
    "kadam": "Kadam, Scaglione, Ravi, Peisert, Lunghino, Shumavon, *Optimum noise mechanism for "
    "differentially private queries in discrete finite sets*",
    "sadeghi": "Sadeghi, Asoodeh, Calmon, *Differentially private mechanisms for count queries*",
    "abs": "Sadeghi, Chien, *On the connection between the ABS perturbation methodology and "
    "differential privacy*",
}

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


# ------------------------------------------------------------------------------------ Gu et al.
def _gu_tau(fig: int, taus: tuple[int, ...]) -> dict[str, Printed]:
    return {
        f"tau_{k + 1}": Printed(f"τ_{k + 1}", str(t), f"Gu et al., Fig. {fig} caption", "exact")
        for k, t in enumerate(taus)
    }


_GU_M = "Gu et al., Section 5.3 (boundary condition of Figs. 3-5)"

_GU_DRAWN = "rainbowdp.reproduce.GU_BOUNDARY, row t = 0 of Figs. 3-5"
_GU_PRINTED_M = ("0.0005", "0.0081", "0.1364", "0.2727")

_GU = {
    "fig3": {
        **_gu_tau(3, (38, 22, 7, 1, 0)),
        "m_1": Printed("m_1 = 0.001 e^ε/(1 + e^ε)", "0.0005", _GU_M),
        "m_2": Printed(
            "m_2 = 0.015 e^ε/(1 + e^ε)",
            "0.0081",
            _GU_M,
            erratum=3,
            corrected="0.0082",
            correction="value",
            note="0.015 e^ε/(1 + e^ε) = 0.0081818 at ε = log 1.2; rainbowdp draws Figs. 3-5 "
            "with the printed 0.0081",
        ),
        "m_3": Printed("m_3 = 0.25 e^ε/(1 + e^ε)", "0.1364", _GU_M),
        "m_4": Printed("m_4 = 0.5 e^ε/(1 + e^ε)", "0.2727", _GU_M),
        "m_5": Printed(
            "m_5 = 1 minus the other printed entries",
            "0.5822",
            _GU_M,
            erratum=3,
            corrected="0.5823",
            correction="value",
            note="the printed vector sums to 0.9999; rainbowdp uses 0.5823",
        ),
        **{
            f"drawn_{k + 1}": Printed(
                f"m_{k + 1} of the vector Figs. 3-5 are drawn with",
                t,
                _GU_M,
                note=f"read off {_GU_DRAWN}",
            )
            for k, t in enumerate(_GU_PRINTED_M)
        },
    },
    "fig4": _gu_tau(4, (25, 20, 7, 1, 0)),
    "fig5": _gu_tau(5, (13, 12, 6, 1, 0)),
    "gu-example1": {
        "M1_private": Printed(
            "M_1 (M_1(d2) = M_1(d3) = (0.4, 0.2, 0.4)) is ε-DP, e^ε = 2",
            "a valid DP mechanism",
            "Gu et al., Example 1",
            "claim",
            note="the example leaves M(d5) unspecified (erratum 4); (0.3, 0.1, 0.6) is used",
        ),
        "M2_private": Printed(
            "M_2 (M_2(d2) = (0.4, 0.1, 0.5), M_2(d3) = (0.7, 0.05, 0.25)) is ε-DP",
            "a valid DP mechanism",
            "Gu et al., Example 1",
            "claim",
            note="with M(d5) = (0.3, 0.1, 0.6) (erratum 4)",
        ),
        "M3_d2": Printed(
            "M_3(d2): the largest row ε-close to M(d1) = (0.2, 0.1, 0.7), T(M(d1))",
            "(0.4, 0.2, 0.4)",
            "Gu et al., Example 1 (M_3(d2) = M_1(d2))",
        ),
        "M3_d3": Printed(
            "M_3(d3): the largest row ε-close to M(d4) = (0.4, 0.1, 0.5), T(M(d4))",
            "(0.7, 0.05, 0.25)",
            "Gu et al., Example 1 (M_3(d3) = M_2(d3))",
        ),
        "M3_not_private": Printed(
            "M_3 is not ε-DP",
            "M_3(d2)_2 > e^ε M_3(d3)_2 + δ",
            "Gu et al., Example 1",
            "claim",
        ),
        "no_optimum": Printed(
            "no optimal mechanism for this (non-homogeneous) boundary condition",
            "there is no optimal DP mechanism",
            "Gu et al., Example 1",
            "claim",
        ),
    },
}


# -------------------------------------------------------------------------------- Kadam et al.
def _pmf_table(deltas: dict, citation: str) -> dict[str, Printed]:
    out = {}
    for delta, column in deltas.items():
        for eta, value in enumerate(column):
            out[f"{delta:g}/{eta}"] = Printed(f"δ = {delta:g}: f*({eta})", f"{value:.4f}", citation)
    return out


def _steps(text: str, citation: str, label: str) -> Printed:
    return Printed(label, text, citation, "exact")


_K10 = "Kadam et al., Fig. 10 caption"
_K_RESULTS = "Kadam et al., Section Numerical results"

_KADAM = {
    "table1": _pmf_table(KADAM_TABLE1, "Kadam et al., Table 1"),
    "fig9a": {
        "order": Printed(
            "order of the masses, at every δ drawn",
            "f*(0) ≥ f*(3) ≥ f*(6) ≥ f*(1) ≥ f*(4) ≥ f*(7) ≥ f*(2) ≥ f*(5)",
            f"{_K_RESULTS} (Fig. 9a)",
            "claim",
        ),
        "positive": Printed(
            "every mass positive at δ = 0 (n + 1 = 8 and μ̂ = 3 coprime)",
            "f*(η) is non-zero for all η",
            f"{_K_RESULTS} (Fig. 9a)",
            "claim",
            note="the text does not give the δ of Fig. 9; for δ > 0 Theorem 2 sets the masses "
            "beyond its flat region to 0",
        ),
        "f0_grows": Printed(
            "f*(0) as δ grows",
            "as δ increases, f*(0) increases",
            f"{_K_RESULTS} (Fig. 9)",
            "claim",
        ),
    },
    "fig9b": {
        "zeros": Printed(
            "masses at odd η, at every δ drawn",
            "f*(1) = f*(3) = f*(5) = f*(7) = 0",
            f"{_K_RESULTS} (Fig. 9b)",
            "claim",
        ),
        "order": Printed(
            "order of the even masses, at every δ drawn",
            "f*(0) ≥ f*(2) ≥ f*(4) ≥ f*(6)",
            f"{_K_RESULTS} (Fig. 9b)",
            "claim",
        ),
    },
    "fig10a": {
        "steps": _steps(
            "(1, 3, 3, 2)",
            f"{_K10} (a): from η = 1, b = 2 steps of length μ̄ = 3 and a last step r = 2",
            "step lengths of f* at δ = 0",
        ),
    },
    "fig10b": {
        f"steps_{d}": _steps(t, f"{_K10} (b)", f"step lengths of f* at δ = {d}")
        for d, t in (
            ("0.1212", "(1, 3, 3, 2)"),
            ("0.1238", "(1, 3, 2, 3)"),
            ("0.1522", "(1, 3, 2, 2, 1)"),
        )
    },
    "fig13a": {
        f"{i},{j}": Printed(
            f"f*({i}, {j})", f"{v:.4f}", "Kadam et al., eq. (59) (arXiv version), Fig. 13a"
        )
        for i, row in enumerate(KADAM_EQ59)
        for j, v in enumerate(row)
    },
    "fig13b": {
        "second": Printed(
            "where the second largest masses sit",
            "{(1, 2), (1, 5), (3, 2), (3, 5)}",
            "Kadam et al., Fig. 13 caption (b)",
            "exact",
        ),
    },
    "fig5a": {
        "best": Printed(
            "MSE of the optimum against every competitor, at every ε (δ = 0.3)",
            "the proposed optimal noise mechanism significantly outperforms all these mechanisms",
            f"{_K_RESULTS} (Fig. 5)",
            "claim",
        ),
    },
    "fig5b": {
        "best": Printed(
            "error rate of the optimum against every competitor, at every ε (δ = 0.5)",
            "the proposed optimal noise mechanism significantly outperforms all these mechanisms",
            f"{_K_RESULTS} (Fig. 5)",
            "claim",
        ),
    },
    "fig6": {
        "mse_gauss": Printed(
            "variance of the discrete Gaussian, σ² = 3.38",
            "3.38",
            f"{_K_RESULTS} (Fig. 6: 'for the same MSE = 3.38')",
        ),
        "mse_geo": Printed(
            "variance of the geometric law, α = 0.7",
            "3.38",
            f"{_K_RESULTS} (Fig. 6: 'for the same MSE = 3.38')",
            erratum=15,
            corrected="15.56",
            correction="value",
            note="2α/(1 − α)² = 15.56; α = 0.4717 would give 3.38",
        ),
        "clamping": Printed(
            "clamping raises δ at the same ε",
            "clamping increases δ for the same ε budget",
            f"{_K_RESULTS} (Fig. 6)",
            "claim",
            erratum=15,
            corrected="clamping raises the PDP δ of the discrete Gaussian only, and only below "
            "ε ≈ 2.2, and never the (ε, δ)-DP δ",
            correction="statement",
            note="true only for the PDP leakage of the discrete Gaussian below ε ≈ 2.2; clamping "
            "is post-processing and never raises the (ε, δ)-DP δ (errata 8 and 15)",
        ),
    },
    "fig7a": {
        "best": Printed(
            "PDP δ of the optimum below every competitor's positive δ, at every ε (MSE 0.6101)",
            "significantly outperforms all these mechanisms ∀ε > 0",
            f"{_K_RESULTS} (Fig. 7)",
            "claim",
        ),
    },
    "fig7b": {
        "best": Printed(
            "PDP δ of the optimum below every competitor's positive δ, at every ε (error rate 0.3)",
            "significantly outperforms all these mechanisms ∀ε > 0",
            f"{_K_RESULTS} (Fig. 7)",
            "claim",
            erratum=15,
            corrected="below every competitor's positive δ at every ε, except at ε ≤ 0.75, where "
            "the optimum and the data-independent mechanism both have δ = 0.7",
            correction="statement",
            note="for ε ≤ 0.75 an error rate of 0.3 forces f(0) = 0.7 to leak: the optimum and "
            "the data-independent mechanism both have δ = 0.7",
        ),
    },
    "fig8": {
        "largest_f0": Printed(
            "the optimum's mass at η = 0 against the other PMFs",
            "the probability mass at η = 0 is maximum for the proposed mechanism",
            f"{_K_RESULTS} (Fig. 8)",
            "claim",
        ),
        "same_mse": Printed(
            "MSE (eq. (11)) of the three PMFs",
            "the same MSE parameter for all the distributions",
            f"{_K_RESULTS} (Fig. 8)",
            "claim",
            erratum=15,
            corrected="eq. (11) MSEs 1.25 (the optimum), 21.5 and 22.2",
            correction="statement",
        ),
    },
    "fig12a": {
        "theorem2": Printed(
            "largest gap between MILP (13) and Theorem 2's closed form over the δ grid",
            "confirming the trends predicted by Theorems 2 and 3",
            "Kadam et al., Fig. 12 caption",
            "claim",
        ),
    },
    "fig14": {
        "M_10": Printed(
            "observed shift set M, 11 levels (n = 10)",
            "{1, 2, 3, 4}",
            "Kadam et al., Fig. 14 caption",
            "info",
            note="the paper's smart-meter data is not public: recomputed on seeded synthetic data",
        ),
        "M_16": Printed(
            "observed shift set M, 17 levels (n = 16)",
            "{1, 3, 5, 6}",
            "Kadam et al., Fig. 14 caption",
            "info",
            note="the paper's smart-meter data is not public: recomputed on seeded synthetic data",
        ),
        "larger_on_M": Printed(
            "f*(η) on M ∪ {0} against elsewhere, both level counts",
            "f*(η) is considerably larger for η ∈ M ∪ {0}",
            "Kadam et al., Fig. 14 caption",
            "claim",
        ),
    },
}

# ------------------------------------------------------------------------------ Sadeghi et al.
_S3B = "Sadeghi et al., Section III-B (Fig. 1)"
_S4 = "Sadeghi et al., Section IV"

_SADEGHI = {
    "count-fig1": {
        "E": Printed("E = e^ε, ε = 2.18", "8.8463", _S3B, rounding="up"),
        "C": Printed("C = 2η/(1 − η), η = 0.8", "8", _S3B),
        "C_2": Printed("C_2 (34)", "8.1229", _S3B),
        "C_3": Printed("C_3 (34)", "7.8867", _S3B),
        "delta_tilde": Printed("δ̃ = δ_3 (Theorem 2)", "0.0049", _S3B, rounding="up"),
        "support": Printed("support of α*: [−k : k]", "3", _S3B, "exact"),
        "pZ1": Printed("p_Z(±1) = η̄α_1*/2", "0.08987", _S3B),
        "pZ2": Printed("p_Z(±2) = η̄α_2*/2", "0.00960", _S3B),
        "ratio": Printed("α_1*/α_2*", "9.3617", _S3B),
        "pG1": Printed("discrete Gaussian p_G,Z(±1)", "0.11685", _S3B),
        "pG2": Printed("discrete Gaussian p_G,Z(±2)", "0.000416", _S3B),
        "pG_ratio": Printed(
            "discrete Gaussian p_G,Z(±1)/p_G,Z(±2)",
            "282",
            f"{_S3B}: 'can be as large as about 282'",
            erratum=20,
            corrected="281",
            correction="value",
            note="the ratio of the masses is 281.1 (erratum 20); the printed, rounded masses "
            "give 280.9",
        ),
        "pG_epsilon": Printed(
            "discrete Gaussian: smallest ε with p_Y(n−1|n) ≤ e^ε p_Y(n−1|n+1) + δ̃",
            "5.6",
            _S3B,
            rounding="up",
        ),
        "our_epsilon": Printed(
            "the same for the law (14): smallest ε meeting every singleton constraint with δ̃",
            "2.18",
            f"{_S3B}: 'for our mechanism ε = 2.18 is sufficient'",
            rounding="up",
        ),
        "same_variance": Printed(
            "variance of the discrete Gaussian with σ² = η̄Σα_i* i²",
            "identical variance (σ² = η̄Σα_i* i²)",
            f"{_S3B} and Fig. 1 caption",
            "claim",
            erratum=20,
            corrected="the discrete Gaussian with parameter σ² = 0.2660 has variance 0.2370",
            correction="statement",
            note="σ² is the discrete Gaussian's parameter, not its variance",
        ),
    },
    "count-fig2": {
        "claim": Printed(
            "(2D+1)δ* for D = 8, η = 0.5, from ε = 1.1 on",
            "no greater than 0.001 for D = 8 and ε > 1.1",
            f"{_S4} (Fig. 2)",
            "claim",
        ),
        "range": Printed(
            "η + η̄(α_1* + α_2* + α_3*) at ε = 1.5, D = 8 (the D of the sentence)",
            "0.9945",
            f"{_S4} (Fig. 2)",
        ),
    },
    "count-fig3a": {
        "bound": Printed(
            "(2D+1)δ* at ε = 1.1, η = 0.5, D = 8: (1.1, 10⁻³)-DP",
            "1e-3",
            f"{_S4} (Fig. 3)",
            "at_most",
        ),
        "knee": Printed(
            "η of the knee (C = C_D(ε)), ε = 1.1, D = 8",
            "slightly after η = 0.5",
            f"{_S4} (Fig. 3)",
            "claim",
        ),
    },
    "count-fig3b": {
        "bound": Printed(
            "(2D+1)δ* at ε = 2.2, η = 0.8, D = 8: (2.2, 5·10⁻⁷)-DP",
            "5e-7",
            f"{_S4} (Fig. 3)",
            "at_most",
        ),
        "knee": Printed(
            "η of the knee (C = C_D(ε)), ε = 2.2, D = 8",
            "slightly after η = 0.8",
            f"{_S4} (Fig. 3)",
            "claim",
        ),
    },
    "count-fig4": {
        "from": Printed(
            "smallest ε from which (2D+1)δ* < δ_G (45) on the grid (η = 0.5, D = 6)",
            "1.1",
            f"{_S4} (Fig. 4: 'both mechanisms perform rather poorly for ε < 1.1')",
            rounding="up",
        ),
    },
    "count-example1": {
        **{
            f"p11_{z}": Printed(f"p_Z^(−1,1)(z = {z} | n = 1)", t, "Sadeghi et al., Example 1, (4)")
            for z, t in ((-1, "1/4"), (0, "1/2"))
        },
        "p11_1": Printed(
            "p_Z^(−1,1)(z = 1 | n = 1)",
            "0",
            "Sadeghi et al., Example 1, (4) ('0, otherwise')",
            "exact",
            erratum=30,
            corrected="1/4",
            correction="value",
            note="(4) lists z = −1 and z = 0 only, so z = 1 falls under 'otherwise'; (2) and the "
            "n = 1 column of (5) give 1/4, and the printed masses sum to 3/4",
        ),
        **{
            f"p12_{z}": Printed(f"p_Z^(−1,2)(z = {z} | n = 1)", t, "Sadeghi et al., Example 1, (4)")
            for z, t in ((-1, "1/3"), (0, "1/2"), (2, "1/6"))
        },
        **{
            f"p22_{z}": Printed(f"p_Z^(−2,2)(z = {z} | n = 2)", "1/4", "Sadeghi et al., (5)")
            for z in (-2, 2)
        },
        **{
            f"p21_{z}": Printed(f"p_Z^(−2,1)(z = {z} | n = 2)", t, "Sadeghi et al., (5)")
            for z, t in ((-2, "1/6"), (1, "1/3"))
        },
    },
}

# ---------------------------------------------------------------------------- Sadeghi & Chien
_A1 = "Sadeghi & Chien, Fig. 1 caption and Section 2.2"
_EX1 = "Sadeghi & Chien, Example 1 (Section 2.4)"
_EX1_PMF = "Sadeghi & Chien, Example 1, (2.30)"
_EX2 = "Sadeghi & Chien, Example 2, (4.4)"
_EX3 = "Sadeghi & Chien, Example 3"
_A43 = "Sadeghi & Chien, Section 4.3"

_ABS = {
    "abs-fig1": {
        "g_11_4": Printed("γ for D = 11, V = 4 (root of (2.7))", "0.125", _A1),
        "g_11_10": Printed("γ for D = 11, V = 10", "0.0498", _A1),
        "g_15_4": Printed("γ for D = 15, V = 4", "0.125", _A1),
        "g_15_10": Printed(
            "γ for D = 15, V = 10",
            "0.0498",
            _A1,
            erratum=27,
            corrected="0.0500",
            correction="value",
            note="0.0498 is the root at D = 11",
        ),
    },
    "abs-fig2": {
        "gaps": Printed(
            "largest ratio of the design's δ (2.27) to the best δ over the γ grid",
            "the gaps vary from being small to zero",
            "Sadeghi & Chien, Section 2.3 (Fig. 2a)",
            "claim",
            erratum=28,
            corrected="the grid's best δ is up to 26.5 % (D = 11) and 33.2 % (D = 15) below the "
            "curve (2.27), and at most 1.1 % above it",
            correction="statement",
            note="'small' read as within 10 %",
        ),
        "D_helps": Printed(
            "δ of the design, D = 15 against D = 11",
            "as D increases, δ decreases",
            "Sadeghi & Chien, Section 2.3 (Fig. 2a)",
            "claim",
        ),
    },
    "abs-fig3": {
        "D": Printed("D*", "25", _EX1, "exact"),
        "delta": Printed("δ (2.27)", "9.91e-5", _EX1, rounding="up"),
        "V": Printed("V", "49.00", _EX1),
        **{
            f"p{z}": Printed(f"p_Z(±{z})", t, _EX1_PMF)
            for z, t in (
                (0, "0.056895481243871"),
                (1, "0.056320120792644"),
                (2, "0.054628714970934"),
            )
        },
        "p12": Printed(
            "p_Z(±12)",
            "0.016632589297126",
            _EX1_PMF,
            erratum=22,
            corrected="0.013165377565781",
            correction="value",
            note="the printed value is p_Z(±11) = 0.016632589297126",
        ),
        **{
            f"p{z}": Printed(f"p_Z(±{z})", t, _EX1_PMF)
            for z, t in ((24, "0.000163117271714"), (25, "0.000099129808160"))
        },
        "symmetric": Printed("p_Z(−z) against p_Z(z)", "P(Z = −z) = P(Z = z)", _EX1_PMF, "claim"),
    },
    "abs-example2": {
        "cdf_-24": Printed("CDF at −24 before quantising", "0.0002622470798742925", _EX2),
        "cdf_-23": Printed("CDF at −23 before quantising", "0.0005252540370388639", _EX2),
        "cq_-25": Printed("c^Q(−25), KEYSIZE 2^32", "425760", _EX2, "exact"),
        "cq_-24": Printed("c^Q(−24)", "1126343", _EX2, "exact"),
        "cq_-23": Printed("c^Q(−23)", "2255949", _EX2, "exact"),
        "cq_25": Printed("c^Q(25)", "2^32", _EX2, "exact"),
        "key_2552": Printed(
            "noise S for CellKey 2552 (4.3)", "-25", "Sadeghi & Chien, Example 2", "exact"
        ),
        "key_1200124": Printed(
            "noise S for CellKey 1200124 (4.3)", "-23", "Sadeghi & Chien, Example 2", "exact"
        ),
        "cq8": Printed(
            "(c^Q(−25), c^Q(−24), c^Q(−23)) at KEYSIZE 2^8",
            "(1, 1, 1)",
            "Sadeghi & Chien, Example 2",
            "exact",
        ),
        "lost8": Printed(
            "support at KEYSIZE 2^8",
            "not all values in the support [−D, D] can be realised",
            "Sadeghi & Chien, Example 2",
            "claim",
        ),
    },
    "abs-example3": {
        "pq_-25": Printed("p^Q(−25) = 425760/2^32", "0.000099129974842", f"{_EX3}, (4.12)"),
        "pq_-24": Printed("p^Q(−24)", "0.000163117190823", f"{_EX3}, (4.12)"),
        "pq_-23": Printed("p^Q(−23)", "0.0002630068920552731", f"{_EX3}, (4.12)"),
        "cq_24": Printed("c^Q(24)", "4294541537", f"{_EX3}, (4.12)", "exact"),
        "pq_25": Printed("p^Q(25)", "0.00009912974201142788", f"{_EX3}, (4.12)"),
        "bias": Printed("B^Q (4.6)", "-5.820766091346741e-9", _EX3),
        "variance": Printed("V^Q (4.7)", "49.002167175291106", _EX3),
        "epsilon": Printed(
            "ε^Q (4.8)-(4.10), exact: ln of the largest ratio of adjacent key counts",
            "0.498039387067656",
            _EX3,
            rounding="up",
            note="the exact value, from the quantised CDF's key counts to 40 digits; "
            "rainbowdp.cellkey.post_sampling reports it rounded up by at most 1e-12 (relative), "
            "so that it is never below the true value (the data file holds both)",
        ),
        "below": Printed(
            "ε^Q against the design ε = 0.5", "slightly smaller than ε = 0.5", _EX3, "claim"
        ),
        "delta": Printed("δ^Q = p^Q(−D) (4.11)", "9.9129974842e-5", _EX3, rounding="up"),
        "above": Printed(
            "δ^Q against Example 1's δ",
            "only slightly larger than the original δ",
            _EX3,
            "claim",
        ),
    },
    "abs-fig4": {
        "full_8": Printed(
            "largest ε with full support, KEYSIZE 2^8",
            "0.6",
            f"{_A43}: 'this happens after ε = 0.6'",
            rounding="down",
        ),
        "full_16": Printed(
            "largest ε with full support, KEYSIZE 2^16",
            "1.7",
            f"{_A43}: 'this happens after ε = 1.7'",
            rounding="down",
        ),
        "full_32": Printed("support at KEYSIZE 2^32", "full support for all ε", _A43, "claim"),
        "above_8": Printed(
            "ε^Q against ε, KEYSIZE 2^8 (ε with full support)",
            "ε^Q > ε",
            f"{_A43} (Fig. 4)",
            "claim",
        ),
        "above_16": Printed(
            "ε^Q against ε, KEYSIZE 2^16 (ε with full support)",
            "ε^Q > ε",
            f"{_A43} (Fig. 4)",
            "claim",
            erratum=26,
            corrected="with full support, ε^Q > ε at ε = 0.8 and 1.0-1.7 only",
            correction="statement",
        ),
        "close_32": Printed(
            "ε^Q against ε, KEYSIZE 2^32",
            "ε^Q is either very close to ε or slightly lower",
            f"{_A43} (Fig. 4)",
            "claim",
        ),
        "bias_32": Printed("B^Q, KEYSIZE 2^32", "-2.3e-9", _A43),
        "bias_16": Printed("B^Q, KEYSIZE 2^16", "-1.5e-4", _A43),
        "bias_8": Printed("B^Q, KEYSIZE 2^8", "-0.04", _A43),
        "var_32": Printed(
            "largest normalised variance error (V^Q − V)/V, KEYSIZE 2^32",
            "in the order of 1e-9",
            _A43,
            "claim",
        ),
        "var_16": Printed(
            "largest normalised variance error, KEYSIZE 2^16",
            "in the order of 1e-4",
            _A43,
            "claim",
        ),
        "var_8": Printed(
            "largest normalised variance error, KEYSIZE 2^8, over the whole ε grid",
            "0.007",
            f"{_A43}: 'can be as high as ≈ 0.007'",
            erratum=26,
            corrected="0.069",
            correction="value",
            note="0.0067 over the ε with full support (0.1-0.6) only",
        ),
    },
    "abs-fig5": {
        "above_8": Printed("δ^Q against δ, KEYSIZE 2^8", "δ^Q > δ", f"{_A43} (Fig. 5)", "claim"),
        "same_16": Printed(
            "largest δ^Q/δ, KEYSIZE 2^16",
            "δ^Q is almost identical to the original δ",
            f"{_A43} (Fig. 5)",
            "claim",
            erratum=26,
            corrected="with full support (ε ≤ 1.7), δ^Q is up to 28 % above δ, at ε = 1.7",
            correction="statement",
            note="'almost identical' read as within 1 %; where the support is full (ε ≤ 1.7) "
            "δ^Q is up to 1.28 δ",
        ),
        "same_32": Printed(
            "largest δ^Q/δ, KEYSIZE 2^32",
            "δ^Q is almost identical to the original δ",
            f"{_A43} (Fig. 5)",
            "claim",
            note="'almost identical' read as within 1 %",
        ),
    },
}

#: Target name -> key -> :class:`Printed`, in the order of the index. Targets that print no
#: number (e.g. the sweeps of Kadam et al., Figs. 11-12) have no entry.
PRINTED: dict[str, dict[str, Printed]] = {**_GU, **_KADAM, **_SADEGHI, **_ABS}
