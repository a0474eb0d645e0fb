r"""Magnitude perturbation tables: the ptables of the R package ``ptable`` for numeric variables
(:class:`MagnitudePtable`).

Facts taken from ``ptable`` 0.3.3 (sdcTools, Destatis; ``R/pt_create_pParams.R``,
``R/pt_create_pTable.R``, ``R/pt_examples.R``) and ``cellKey`` 1.0.2 (``R/helpers.R``,
``.chk_ptab``; ``R/ck_params_nums.R``):

- ``create_num_ptable(D, V, step, icat, type)`` builds one row per original value
  :math:`i \in \{0\} \cup \text{icat}` (``icat`` integers, containing 1 and D, at most D): the
  published values are ``j = seq(max(i - D, 0), i + D, by = 1 / step)`` rounded to 4 decimals,
  the noise ``v = round(j - i, 4)``; so ``step = 2`` gives half steps. Row 0 is the single line
  ``j = 0, v = 0, p = 1``. The bounds are the row's cumulative sums rounded to 8 decimals and
  ``p := p_int_ub - p_int_lb``; the column ``type`` is ``"all"``, ``"even"`` or ``"odd"``.
- ``cellKey`` combines several tables into one with a column ``type``: ``"all"`` (one table for
  every cell) or ``"even"`` and ``"odd"`` (looked up by the parity of the number of
  contributors), and optionally ``"small_cells"`` (a further table, relabelled by ``cellKey``,
  for values below the separation point). Its lookup takes, among the lines of the type and
  row, the **first** line with ``cell key < p_int_ub`` (``.lookup_v_flex``).

The table is a finite-output mechanism per type: row i is the law of the noise v (or of the
published value j = i + v) when the lookup value is exactly i (:meth:`MagnitudePtable.law`).
Its exact (ε, δ) between two rows of a type (:func:`row_privacy`) is well posed; the privacy of
a *published magnitude* is not (see :mod:`._numeric`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import numpy as np

from .._validation import check_epsilon
from ..exceptions import ParameterError, ParameterTypeError
from ._layout_r import R_DIGITS, rounded_bounds, to_float

__all__ = ["MAGNITUDE_TYPES", "MagnitudePtable", "row_privacy"]

#: The largest x with a finite ``math.exp(x)`` (with margin).
_MAX_EXP_ARG = 700.0

#: The values of the column ``type`` (``ptable``: all/even/odd; ``cellKey``: small_cells).
MAGNITUDE_TYPES = ("all", "even", "odd", "small_cells")
#: Tolerance of the checks of sums and bounds (as the count tables').
TOL = 1e-9
#: ``ptable`` rounds j and v to 4 decimals; v must be j - i within this.
V_TOL = 1e-9
#: Most lines of a magnitude table.
MAX_LINES = 10**6

_COLUMNS = ("i", "j", "p", "v", "lb", "ub")


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


def _float_column(values: Any, name: str) -> np.ndarray:
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ParameterTypeError(
            f"`{name}` must be numbers, got {np.asarray(values).dtype}."
        ) from None
    if arr.ndim != 1:
        raise ParameterError(f"`{name}` must be 1-D (one value per line), got shape {arr.shape}.")
    if not np.all(np.isfinite(arr)):
        k = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise ParameterError(f"`{name}` must be finite, got {float(arr[k])!r} at line {k}.")
    return arr


@dataclass(frozen=True, eq=False)
class MagnitudePtable:
    r"""A magnitude perturbation table: one table per ``type``, each with rows i, noise values
    v (floats, e.g. half steps) and interval bounds, as ``ptable::create_num_ptable`` builds it
    and ``cellKey`` applies it.

    The lines are kept in their given order (the order a file lists them, which ``cellKey``'s
    "first line with key < p_int_ub" depends on); every array is read-only.

    Parameters
    ----------
    i, j, p, v, lb, ub : array_like of float, shape (n,)
        One line per (type, i, j): the row (an integer >= 0), the published value j, its
        probability p, the noise v = j - i, and the bounds ``p_int_lb`` and ``p_int_ub``.
    type : array_like of str, shape (n,)
        One of ``"all"``, ``"even"``, ``"odd"``, ``"small_cells"`` per line.
    metadata : mapping, optional
        What a file said besides (layout, digits of the bounds, path).

    Raises
    ------
    ParameterError
        A line with p < 0 or v != j - i (beyond 1e-9), a type other than the four, both
        ``"all"`` and ``"even"``/``"odd"``, a type without row 0, a
        row whose intervals do not tile [0, 1] in line order (each ``lb`` the previous
        ``ub``, the first 0, the last 1, ``ub - lb = p``, all within 1e-9), a non-integer row.

    Examples
    --------
    >>> T = MagnitudePtable.from_rows({"all": {0: ([0.0], [1.0]),
    ...                                        1: ([-1.0, -0.5, 0.0, 0.5, 1.0],
    ...                                            [0.1, 0.2, 0.4, 0.2, 0.1])}})
    >>> T.types, T.rows("all").tolist(), T.law("all", 1)[0].tolist()
    (('all',), [0.0, 1.0], [-1.0, -0.5, 0.0, 0.5, 1.0])
    >>> T.lookup("all", 1, 0.25), T.lookup("all", 1, 0.3)
    (-0.5, 0.0)
    """

    i: np.ndarray
    j: np.ndarray
    p: np.ndarray
    v: np.ndarray
    lb: np.ndarray
    ub: np.ndarray
    type: np.ndarray
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        cols = {name: _float_column(getattr(self, name), name) for name in _COLUMNS}
        n = cols["i"].shape[0]
        for name, arr in cols.items():
            if arr.shape[0] != n:
                raise ParameterError(
                    f"`{name}` must have one value per line ({n}), got {arr.shape[0]}."
                )
        if n == 0 or n > MAX_LINES:
            raise ParameterError(f"a magnitude table must have 1..{MAX_LINES} lines, got {n}.")
        kinds = np.asarray(self.type)
        if kinds.shape != (n,) or kinds.dtype.kind not in "UO":
            raise ParameterError(
                f"`type` must hold one string per line ({n}), got {kinds.dtype} {kinds.shape}."
            )
        kinds = np.array([str(t) for t in kinds.tolist()], dtype=np.str_)
        for name, arr in cols.items():
            object.__setattr__(self, name, _frozen(arr))
        object.__setattr__(self, "type", _frozen(kinds))
        object.__setattr__(self, "metadata", MappingProxyType(dict(self.metadata or {})))
        self._validate()

    # --------------------------------------------------------------------------- checks
    def _fail(self, k: int, what: str) -> None:
        raise ParameterError(
            f"magnitude table line {k} (type {self.type[k]!r}, i={self.i[k]!r}, "
            f"j={self.j[k]!r}): {what}."
        )

    def _validate(self) -> None:
        bad_type = ~np.isin(self.type, MAGNITUDE_TYPES)
        if bad_type.any():
            self._fail(int(np.argmax(bad_type)), f"type must be one of {MAGNITUDE_TYPES}")
        types = set(self.type.tolist())
        if "all" in types and types & {"even", "odd"}:
            raise ParameterError(
                "a magnitude table has either type 'all' or the types 'even' and 'odd' (cellKey's "
                f"ck_params_nums), got {sorted(types)}."
            )
        checks = [
            (self.i < 0, "i must be >= 0"),
            (self.i != np.floor(self.i), "i must be an integer (ptable's icat)"),
            (self.p < 0, "p must be >= 0"),
            (np.abs(self.v - (self.j - self.i)) > V_TOL, "v must be j - i"),
            (np.abs(self.ub - self.lb - self.p) > TOL, "p_int_ub - p_int_lb must be p"),
        ]
        for bad, what in checks:
            if bad.any():
                self._fail(int(np.argmax(bad)), what)
        for t in self.types:
            sel = np.flatnonzero(self.type == t)
            if not (self.i[sel] == 0).any():
                raise ParameterError(f"type {t!r} has no row i = 0 (ptable always writes it).")
            for r in np.unique(self.i[sel]).tolist():
                self._check_row(sel[self.i[sel] == r])

    def _check_row(self, lines: np.ndarray) -> None:
        lb, ub = self.lb[lines], self.ub[lines]
        prev = np.r_[0.0, ub[:-1]]
        bad = np.abs(lb - prev) > TOL
        if bad.any():
            self._fail(int(lines[np.argmax(bad)]), "p_int_lb is not the previous p_int_ub (or 0)")
        if abs(ub[-1] - 1.0) > TOL:
            self._fail(int(lines[-1]), f"the row's last p_int_ub={float(ub[-1])!r} is not 1")

    # --------------------------------------------------------------------------- access
    @property
    def types(self) -> tuple[str, ...]:
        """The types, in the order of their first line."""
        _, first = np.unique(self.type, return_index=True)
        return tuple(self.type[np.sort(first)].tolist())

    def _lines(self, type: str, i: float | None = None) -> np.ndarray:
        if type not in self.types:
            raise ParameterError(f"`type` must be one of the table's {self.types}, got {type!r}.")
        sel = self.type == type
        if i is not None:
            sel &= self.i == i
            if not sel.any():
                raise ParameterError(
                    f"`i` must be a row of type {type!r} ({self.rows(type).tolist()}), got {i!r}."
                )
        return np.flatnonzero(sel)

    def rows(self, type: str) -> np.ndarray:
        """The sorted rows i of ``type`` (``cellKey``'s ``poss``)."""
        return np.unique(self.i[self._lines(type)])

    def max_i(self, type: str) -> float:
        """The largest row of ``type`` (``cellKey``'s ``max_i``, ptable's D)."""
        return float(self.rows(type)[-1])

    def law(self, type: str, i: float) -> tuple[np.ndarray, np.ndarray]:
        """Row i of ``type``: its noise values v and their probabilities p (``ub - lb``)."""
        k = self._lines(type, i)
        return self.v[k].copy(), self.p[k].copy()

    def lookup(self, type: str, i: float, key: float) -> float:
        """``cellKey``'s lookup: v of the first line of (type, i) with ``key < p_int_ub``.

        ``key`` is compared as a float (``cellKey`` compares doubles); :func:`lookup_exact`
        compares a decimal key exactly with the decimal bounds.
        """
        k = self._lines(type, i)
        hit = np.flatnonzero(key < self.ub[k])
        if hit.size == 0:
            raise ParameterError(f"`key` must be in [0, 1), got {key!r}.")
        return float(self.v[k[hit[0]]])

    def lookup_exact(self, type: str, i: float, key: int, digits: int) -> float:
        r"""The same lookup for the decimal key :math:`k / 10^d`, compared exactly with each
        bound as the decimal its shortest text stands for (``0.27968425``, as the file)."""
        k = self._lines(type, i)
        scale = 10**digits
        for line in k.tolist():
            if Fraction(key, scale) < Fraction(repr(float(self.ub[line]))):
                return float(self.v[line])
        raise ParameterError(f"`key` must be in [0, 10**{digits}), got {key!r}.")

    # --------------------------------------------------------------------------- builders
    @classmethod
    def from_rows(
        cls,
        rows: Mapping[str, Mapping[float, tuple[Any, Any]]],
        *,
        digits: int = R_DIGITS,
    ) -> MagnitudePtable:
        r"""A table from each type's rows ``{i: (v, p)}``, bounds as ``ptable`` computes them.

        The bounds are the row's cumulative sums rounded to ``digits`` decimals and p their
        difference (``pt_create_pTable``); lines of width 0 are dropped, j = i + v (rounded
        to 4 decimals where that moves it by at most 1e-9, as ``ptable`` rounds j).
        """
        cols: dict[str, list[Any]] = {c: [] for c in (*_COLUMNS, "type")}
        for t, table in rows.items():
            for r in sorted(table):
                v = _float_column(table[r][0], "v")
                pr = _float_column(table[r][1], "p")
                if v.shape != pr.shape:
                    raise ParameterError(
                        f"row {r} of type {t!r}: `v` and `p` must have equal lengths, got "
                        f"{v.shape[0]} and {pr.shape[0]}."
                    )
                if (pr < 0).any() or abs(float(pr.sum()) - 1.0) > TOL:
                    raise ParameterError(
                        f"row {r} of type {t!r}: `p` must be >= 0 and sum to 1, got {pr.tolist()}."
                    )
                _, jj, lo, hi = rounded_bounds(pr[None, :], digits)
                lb_f, ub_f = to_float(lo, digits), to_float(hi, digits)
                cols["i"] += [float(r)] * jj.size
                j = float(r) + v[jj]
                near = np.round(j, 4)  # ptable: j = round(seq(...), 4)
                cols["j"] += np.where(np.abs(near - j) <= V_TOL, near, j).tolist()
                cols["v"] += v[jj].tolist()
                cols["lb"] += lb_f.tolist()
                cols["ub"] += ub_f.tolist()
                cols["p"] += (ub_f - lb_f).tolist()
                cols["type"] += [t] * jj.size
        return cls(**cols, metadata={"digits": digits})  # type: ignore[arg-type]

    @classmethod
    def combine(cls, tables: Mapping[str, MagnitudePtable]) -> MagnitudePtable:
        """``cellKey``'s list of ptables as one table: ``{"all": T}`` or ``{"even": T1, "odd":
        T2}``, optionally with ``"small_cells": T3``; each table's lines take the key's type
        (as ``cellKey`` relabels the small-cells table), in the order ``all``/``even``,
        ``odd``, ``small_cells`` (``.chk_ptab``)."""
        order = [t for t in MAGNITUDE_TYPES if t in tables]
        unknown = set(tables) - set(MAGNITUDE_TYPES)
        if unknown or not order:
            raise ParameterError(
                f"`tables` keys must be among {MAGNITUDE_TYPES}, got {sorted(map(str, tables))}."
            )
        parts: dict[str, list[np.ndarray]] = {c: [] for c in (*_COLUMNS, "type")}
        for t in order:
            T = tables[t]
            if not isinstance(T, MagnitudePtable):
                raise ParameterTypeError(
                    f"`tables[{t!r}]` must be a MagnitudePtable, got {type(T).__name__}."
                )
            if len(T.types) != 1:
                raise ParameterError(
                    f"`tables[{t!r}]` must hold one type, got {T.types}; select one first."
                )
            for c in _COLUMNS:
                parts[c].append(getattr(T, c))
            parts["type"].append(np.full(T.i.shape[0], t))
        return cls(**{c: np.concatenate(a) for c, a in parts.items()})  # type: ignore[arg-type]

    def select(self, types: Sequence[str]) -> MagnitudePtable:
        """The lines of the given types only (file order kept)."""
        keep = np.isin(self.type, list(types))
        return MagnitudePtable(
            **{c: getattr(self, c)[keep] for c in (*_COLUMNS, "type")},
            metadata=self.metadata,
        )

    # --------------------------------------------------------------------------- protocol
    def __len__(self) -> int:
        return int(self.i.shape[0])

    def __eq__(self, other: object) -> bool:
        """Bit-for-bit equality of every line (metadata aside)."""
        if not isinstance(other, MagnitudePtable):
            return NotImplemented
        return all(np.array_equal(getattr(self, c), getattr(other, c)) for c in (*_COLUMNS, "type"))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        rows = "; ".join(
            f"{t}: rows {', '.join(f'{r:g}' for r in self.rows(t).tolist())}" for t in self.types
        )
        return f"MagnitudePtable({len(self)} lines; {rows})"


def row_privacy(
    table: MagnitudePtable,
    type: str,
    i1: float,
    i2: float,
    *,
    epsilon: float | None = None,
    delta: float | None = None,
) -> float:
    r"""The exact privacy of two rows of one type, as a pair of laws of the published value.

    Row i is the law of :math:`j = i + v` when ``cellKey``'s lookup value is exactly i (module
    notes); two rows are compared on the union of their j. With ``epsilon``: the hockey-stick
    δ of the pair in both directions, :math:`\max(H_{e^\epsilon}(P\|Q), H_{e^\epsilon}(Q\|P))`;
    with ``delta``: the smallest ε at that δ. Both from :mod:`rainbowdp.privacy`, rounded up
    (proved), and for the rounding of each p (``p_int_ub - p_int_lb`` as a double) to the
    decimal width it stands for: δ is raised by :math:`\eta (1 + e^\epsilon)`,
    :math:`\eta = n 2^{-52}` for n published values. This is the privacy of telling "lookup
    value i1" from "i2" with the same, public multiplier; it is not a privacy statement on a
    published magnitude (:mod:`._numeric`).

    Examples
    --------
    >>> T = MagnitudePtable.from_rows({"all": {0: ([0.0], [1.0]),
    ...                                        1: ([-1.0, 0.0, 1.0], [0.25, 0.5, 0.25]),
    ...                                        2: ([-1.0, 0.0, 1.0], [0.25, 0.5, 0.25])}})
    >>> round(row_privacy(T, "all", 1, 2, epsilon=0.0), 12)   # shifted by 1
    0.5
    >>> round(row_privacy(T, "all", 1, 2, delta=0.3), 12)     # j=0 spends 0.25: log 1.8
    0.587786664902
    >>> row_privacy(T, "all", 1, 2, delta=0.2)                # j=0 alone is above delta
    inf
    """
    from ..privacy import epsilon_for_delta, hockey_stick

    if epsilon is not None:
        epsilon = check_epsilon(epsilon, finite_exp=True)
    if (epsilon is None) == (delta is None):
        raise ParameterError(
            f"give exactly one of `epsilon` and `delta`, got epsilon={epsilon!r}, delta={delta!r}."
        )
    if not isinstance(table, MagnitudePtable):
        raise ParameterTypeError(
            f"`table` must be a MagnitudePtable, got {table.__class__.__name__}."
        )
    laws = [table.law(type, r) for r in (i1, i2)]
    js = [r + v for r, (v, _) in zip((i1, i2), laws, strict=True)]
    support = np.unique(np.round(np.concatenate(js), 9))
    P = np.zeros((2, support.size))
    for row, (j, (_, p)) in enumerate(zip(js, laws, strict=True)):
        np.add.at(P[row], np.searchsorted(support, np.round(j, 9)), p)
    # each line's p = ub - lb (ub, lb <= 1, each read within 2^-54 of its decimal, the
    # difference rounded within 2^-53) is within 2^-52 of the decimal width the file stands
    # for, and each merge of a line into P adds at most 2^-53: with n lines in the two rows the
    # decimal laws differ from P by at most eta = n 2^-51 on every set, so delta moves by at
    # most eta (1 + e^eps) (P(S) <= P'(S) + eta <= e^eps (Q'(S) + eta) + delta' + eta)
    eta = float(sum(v.size for v, _ in laws)) * 2.0**-51
    if epsilon is not None:
        hs = max(hockey_stick(P[0], P[1], epsilon), hockey_stick(P[1], P[0], epsilon))
        return min(1.0, float(hs) + eta * (1.0 + math.exp(epsilon)) * (1 + 2.0**-50))
    assert delta is not None
    eps0 = float(epsilon_for_delta((P[0], P[1]), delta))
    if not math.isfinite(eps0) or eps0 + 1.0 > _MAX_EXP_ARG:
        return math.inf  # no finite epsilon at delta, or one whose e^eps overflows: inf is safe
    lowered = float(delta) - eta * (1.0 + math.exp(eps0 + 1.0)) * (1 + 2.0**-50)
    eps = float(epsilon_for_delta((P[0], P[1]), max(0.0, lowered)))
    return eps if lowered >= 0 and eps <= eps0 + 1.0 else math.inf
