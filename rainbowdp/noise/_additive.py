r"""Additive integer noise on a finite range of outputs: the laws and the one rows routine.

An additive mechanism answers :math:`a + \eta` with :math:`\eta` drawn from an integer-valued
noise law :math:`f`. When the outputs are the finite range :math:`R = \{lo, \dots, hi\}`
(q = hi − lo + 1 outputs), the infinite output has to be brought into R; the four *forms*:

``"truncated"``
    the noise restricted to R and renormalised:
    :math:`P_a(v) = f(v - a) / \sum_{w \in R} f(w - a)`. This is **not** a post-processing of
    the textbook mechanism: the normaliser depends on a, and its ratio between neighbours adds to
    the privacy loss (up to doubling ε for the geometric mechanism).
``"clamped"``
    the mass beyond an end piled onto that end point (Ghosh et al.'s range restriction; Kadam
    et al., eqs. (55)–(56)): :math:`P_a(lo) = \Pr[\eta \le lo - a]`,
    :math:`P_a(v) = f(v - a)` inside, :math:`P_a(hi) = \Pr[\eta \ge hi - a]`.
``"folded"``
    :math:`a + \eta` reflected at the ends, repeatedly: the output is :math:`lo + \tau(s)` with
    :math:`s = (a + \eta - lo) \bmod 2(q-1)` and :math:`\tau(s) = \min(s, 2(q-1) - s)`.
``"modular"``
    :math:`a + \eta` wrapped modulo q: the output is :math:`lo + ((a + \eta - lo) \bmod q)`
    (Kadam et al.'s modulo addition, natural on :func:`~rainbowdp.builders.circulant` graphs).

Clamping, folding and wrapping are deterministic functions of :math:`a + \eta`, so they keep
every (ε, δ) guarantee of the infinite mechanism (post-processing). Folded and modular rows
depend on a only through a residue (modulo 2(q − 1), resp. q), so at most 2(q − 1) distinct rows
are computed, whatever the number of nodes.

**Accuracy.** A truncated row is formed in log space and normalised by subtracting its largest
log weight before exponentiating, so an answer far outside the range still gives the right row
(not 0/0); for laws with an exact log-PMF (:meth:`NoiseLaw.exponents`: the geometric, staircase
and discrete Gaussian laws) the differences of log weights are exact before one rounding, so the
row stays accurate to a few units of round-off however far the answer is. A clamped row is the
exact probabilities as they stand, its end masses from the laws' tails (closed forms for the
geometric and staircase laws -- powers of the ratio times one constant --, reverse cumulative
sums for the discrete Gaussian), never from ``1 - sum(...)``. Folded and modular rows come from
the law modulo the period (:meth:`NoiseLaw.wrapped`). Rows sum to 1 within about
:math:`10 q\,2^{-53}`.

**Underflow.** A row entry whose exact value lies below the smallest normal float64
(:math:`2.2 \times 10^{-308}`) would be stored as 0 or as a subnormal number with few
significant bits, and a zero next to a positive entry in a neighbour's row makes the stored
mechanism not ε-DP for any finite ε, whatever the exact law promises (the truncated geometric at
ε = 2 on ``count_path(400)``; every clamped form on ``count_path(10**6, outputs=range(32))``).
:func:`additive_rows` therefore stores every entry that is positive in the exact law but below
:data:`FLOOR` (:math:`2^{-1000} \approx 9.3 \times 10^{-302}`) as :data:`FLOOR`. Flooring only
moves likelihood ratios towards 1: if :math:`x \le e^\epsilon y` and :math:`y \le e^\epsilon x`
then :math:`\max(x, F) \le e^\epsilon \max(y, F)` and the reverse, so a pure ε-DP law stays ε-DP
in float64, and a hockey-stick divergence grows by at most :math:`qF` (about
:math:`10^{-298}` per output). The rows then differ from the exact law by at most :math:`qF` in
total variation.
"""

from __future__ import annotations

import numbers
from typing import Any, Literal, get_args

import numpy as np

from ..exceptions import ParameterError, ParameterTypeError
from ._laws import (
    MAX_ABS_INTEGER,
    MAX_SIGMA,
    MAX_WRAP_TERMS,
    MIN_SIGMA,
    DiscreteGaussianLaw,
    GeometricLaw,
    NoiseLaw,
    StaircaseLaw,
    TableLaw,
)

__all__ = [
    "FLOOR",
    "FORMS",
    "MAX_ABS_INTEGER",
    "MAX_SIGMA",
    "MAX_WRAP_TERMS",
    "MIN_SIGMA",
    "DiscreteGaussianLaw",
    "Form",
    "GeometricLaw",
    "NoiseLaw",
    "StaircaseLaw",
    "TableLaw",
    "additive_rows",
    "check_form",
    "contiguous_outputs",
    "integer_answers",
]

#: How a finite mechanism is made from additive noise (see the module notes).
Form = Literal["truncated", "clamped", "folded", "modular"]
#: The forms, in documentation order.
FORMS: tuple[Form, ...] = get_args(Form)

#: Entries positive in the exact law but smaller than this are stored as this (module notes).
FLOOR = 2.0**-1000


# ------------------------------------------------------------------------------------ checks
def integer_answers(answers: Any, name: str = "answers") -> np.ndarray:
    """``answers`` as an int64 array, or a ParameterError naming ``name``."""
    if isinstance(answers, str | bytes):
        raise ParameterTypeError(f"`{name}` must be a sequence of integers, got {answers!r}.")
    try:
        arr = np.asarray(answers)
    except (TypeError, ValueError):
        arr = np.asarray(list(answers), dtype=object)
    if arr.ndim != 1 or arr.size == 0:
        raise ParameterError(
            f"`{name}` must be a non-empty one-dimensional sequence of integers, got "
            f"shape {arr.shape}."
        )
    kind = arr.dtype.kind

    def too_large(value: Any) -> ParameterError:
        return ParameterError(
            f"`{name}` must be integers of at most {MAX_ABS_INTEGER} in absolute value, got "
            f"{value!r} in {name}."
        )

    if kind in "iu":
        high, low = (arr.max(), arr.min()) if arr.size else (0, 0)
        if high > MAX_ABS_INTEGER or (kind == "i" and low < -MAX_ABS_INTEGER):
            raise too_large(int(high if high > MAX_ABS_INTEGER else low))
        out = arr.astype(np.int64)
    elif kind == "f":
        if not (np.all(np.isfinite(arr)) and np.all(arr == np.round(arr))):
            bad = float(arr[~(np.isfinite(arr) & (arr == np.round(arr)))][0])
            raise ParameterError(
                f"`{name}` must be integers for additive noise, got {bad!r} in {name}."
            )
        if arr.size and float(np.max(np.abs(arr))) > MAX_ABS_INTEGER:
            raise too_large(float(arr[np.argmax(np.abs(arr))]))
        out = arr.astype(np.int64)
    elif kind == "O":
        for x in arr.tolist():
            if isinstance(x, bool) or not isinstance(x, numbers.Integral):
                raise ParameterError(
                    f"`{name}` must be integers for additive noise, got {x!r} in {name}."
                )
        big = [x for x in arr.tolist() if abs(x) > MAX_ABS_INTEGER]
        if big:
            raise too_large(big[0])
        out = arr.astype(np.int64)
    else:
        first = arr.ravel()[0]
        first = first.item() if isinstance(first, np.generic) else first
        raise ParameterError(
            f"`{name}` must be integers for additive noise, got {first!r} in {name}."
        )
    return out


def contiguous_outputs(outputs: Any, name: str = "outputs") -> tuple[int, int, np.ndarray | None]:
    """(lo, q, perm) for outputs that are the consecutive integers lo..lo+q-1 in some order.

    ``perm`` is None when they are in increasing order, else the column order:
    ``rows_sorted[:, perm]`` are the rows in the order of ``outputs``.
    """
    if isinstance(outputs, str | bytes):
        raise ParameterTypeError(f"`{name}` must be a sequence of integers, got {outputs!r}.")
    values = list(outputs)
    ints = []
    for v in values:
        if isinstance(v, bool | np.bool_) or not isinstance(v, int | np.integer):
            raise ParameterError(
                f"`{name}` must be consecutive integers lo..hi for additive noise, got "
                f"{v!r} in {name}={_short(values)}."
            )
        ints.append(int(v))
    if not ints:
        raise ParameterError(f"`{name}` must not be empty, got {name}=[].")
    lo, hi = min(ints), max(ints)
    if hi - lo + 1 != len(ints) or len(set(ints)) != len(ints):
        raise ParameterError(
            f"`{name}` must be consecutive integers lo..hi for additive noise, got "
            f"{name}={_short(values)}."
        )
    if max(abs(lo), abs(hi)) > MAX_ABS_INTEGER:
        raise ParameterError(
            f"`{name}` must be integers of at most {MAX_ABS_INTEGER} in absolute value, got "
            f"{name}={_short(values)}."
        )
    arr = np.asarray(ints, dtype=np.int64)
    perm = None if np.all(np.diff(arr) > 0) else (arr - lo).astype(np.intp)
    return lo, len(ints), perm


def _short(values: list) -> str:
    text = repr(values)
    return text if len(text) <= 80 else text[:60] + " ... " + text[-15:]


def check_form(form: Any, allowed: tuple[Form, ...] = FORMS) -> Form:
    """Validate a form name against ``allowed``."""
    if not isinstance(form, str) or form not in allowed:
        choices = ", ".join(repr(f) for f in allowed)
        raise ParameterError(f"`form` must be one of {choices}, got form={form!r}.")
    return form


# ------------------------------------------------------------------------------------ rows
#: exp(x) is 0 in float64 for x below this (the smallest subnormal is about e^-744.44); such
#: entries are set to 0 without calling exp, whose underflow path is slow.
_EXP_FLOOR = -746.0


def _exp(x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """exp(x), computing only the entries that do not underflow to 0 (``out`` may be ``x``)."""
    keep = x >= _EXP_FLOOR
    if out is None:
        out = np.zeros_like(x)
        np.exp(x, out=out, where=keep)
        return out
    np.exp(x, out=out, where=keep)
    if not keep.all():
        np.copyto(out, 0.0, where=np.logical_not(keep, out=keep))
    return out


def _span(ua: np.ndarray, q: int) -> tuple[int, np.ndarray] | None:
    """(length, starts) of one line of noise values covering every row, or None if too long.

    Row u needs the noise values lo - a_u + j, j = 0..q-1: a window of one line of values
    ``lo - max(a) .. hi - min(a)`` when the distinct answers are dense, so the law is evaluated
    once per distinct noise value.
    """
    span = int(ua[-1] - ua[0]) + q
    if span > 8 * ua.size * q + 4096:
        return None
    return span, (ua[-1] - ua).astype(np.intp)


def _gather(line: np.ndarray, starts: np.ndarray, q: int) -> np.ndarray:
    """The (U, q) array whose row u is ``line[starts[u] : starts[u] + q]`` (a fresh array)."""
    windows = np.lib.stride_tricks.sliding_window_view(line, q)
    if starts.size > 1 and np.all(np.diff(starts) == -1):  # consecutive answers: a reversed view
        stop = starts[-1] - 1 if starts[-1] else None
        return np.ascontiguousarray(windows[starts[0] : stop : -1])
    return np.array(windows[starts])


def _noise_rows(fn: Any, ua: np.ndarray, lo: int, q: int) -> np.ndarray:
    """(U, q) fresh array of ``fn(lo + j - a_u)`` for a vectorised function of the noise."""
    found = _span(ua, q)
    if found is not None:
        k0 = lo - int(ua[-1])
        return _gather(fn(np.arange(k0, k0 + found[0], dtype=np.int64)), found[1], q)
    return np.asarray(fn((lo - ua)[:, None] + np.arange(q, dtype=np.int64)[None, :]), np.float64)


def _truncated(
    law: NoiseLaw, ua: np.ndarray, lo: int, q: int
) -> tuple[np.ndarray, np.ndarray | bool | None]:
    """Truncated rows, and whether some entry may lie below FLOOR."""
    hi = lo + q - 1
    probe = np.array([lo - int(ua[-1]), hi - int(ua[0])], dtype=np.int64)
    exact = law.exponents(probe) if law.full_support else None
    if exact is not None:
        # log f = scale * e + const with e exact and unimodal: subtract the e of the output
        # nearest the answer exactly, then round once -- accurate however far the answer is
        scale = exact[1]

        def exponents(k: np.ndarray) -> np.ndarray:
            found = law.exponents(k)
            if found is None:  # pragma: no cover - exact at the probe means exact everywhere
                raise ParameterError(f"the noise law {law!r} has no exact exponents at {k!r}.")
            return found[0]

        e = _noise_rows(exponents, ua, lo, q)
        e -= exponents(np.clip(0, lo - ua, hi - ua))[:, None]
        e *= scale
        rows = _exp(e, out=e)
        rows /= rows.sum(axis=1, keepdims=True)
        return rows, bool(np.minimum(rows[:, 0], rows[:, -1]).min() < FLOOR)
    lw = _noise_rows(law.log_pmf, ua, lo, q)
    m = lw.max(axis=1)
    if not np.all(np.isfinite(m)):
        bad = int(ua[np.flatnonzero(~np.isfinite(m))[0]])
        raise ParameterError(
            f"the noise law {law!r} gives no probability to the outputs {lo}..{hi} "
            f"from the answer {bad}: form='truncated' has nothing to renormalise."
        )
    positive = None if law.full_support else np.isfinite(lw)
    lw -= m[:, None]  # every row's largest log weight becomes 0: no 0/0 far from the range
    rows = _exp(lw, out=lw)
    rows /= rows.sum(axis=1, keepdims=True)
    return rows, positive


def _clamped(
    law: NoiseLaw, ua: np.ndarray, lo: int, q: int
) -> tuple[np.ndarray, np.ndarray | None]:
    if q == 1:
        return np.ones((ua.size, 1)), None
    # A clamped row is a distribution as it stands: the exact probabilities, no renormalisation
    # -- the law's values inside, its tails at the two ends.
    rows = _noise_rows(law.pmf, ua, lo, q)
    rows[:, 0] = law.cdf(lo - ua)
    rows[:, -1] = law.sf(lo + q - 1 - ua)
    positive = None
    if not law.full_support:
        positive = np.isfinite(_noise_rows(law.log_pmf, ua, lo, q))
        positive[:, 0] = np.isfinite(law.log_cdf(lo - ua))
        positive[:, -1] = np.isfinite(law.log_sf(lo + q - 1 - ua))
    return rows, positive


def _periodic(
    law: NoiseLaw, ua: np.ndarray, lo: int, q: int, form: str
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """Rows for the distinct residues of the answers, and the residue index of each answer."""
    if q == 1:
        return np.ones((1, 1)), None, np.zeros(ua.size, dtype=np.intp)
    period = q if form == "modular" else 2 * (q - 1)
    g = law.wrapped(period)  # the residue classes partition the law: rows sum to 1
    res, index = np.unique(np.mod(ua - lo, period), return_inverse=True)
    j = np.arange(q, dtype=np.int64)
    first = np.mod(j[None, :] - res[:, None], period)
    if form == "modular":
        rows = g[first]
        positive = None if law.full_support else np.isfinite(law.log_wrapped(period))[first]
    else:  # output lo + t collects s = t and s = period - t (once at t = 0 and t = q - 1)
        second = np.mod(-j[None, :] - res[:, None], period)
        inner = (j > 0) & (j < q - 1)
        rows = np.where(inner, g[first] + g[second], g[first])
        positive = None
        if not law.full_support:
            fin = np.isfinite(law.log_wrapped(period))
            positive = np.where(inner, fin[first] | fin[second], fin[first])
    return rows, positive, index.ravel().astype(np.intp)


def additive_rows(
    answers: Any,
    outputs: Any,
    law: NoiseLaw,
    *,
    form: Form = "clamped",
) -> np.ndarray:
    r"""The (N, q) rows of the additive mechanism :math:`a_i + \eta` in a finite ``form``.

    The one routine behind every additive family (:mod:`rainbowdp.noise`) and the bundled
    examples: shift the noise law to each true answer, then truncate, clamp, fold or wrap it
    onto the outputs (module notes). Vectorised: one evaluation of the law per distinct noise
    value, and a few passes over the (N, q) result.

    Parameters
    ----------
    answers : array_like of int, shape (N,)
        True answers :math:`a_i` (integers of at most :math:`2^{52}` in absolute value).
    outputs : sequence of int
        The consecutive integers lo..hi, in any order (the column order of the result).
    law : NoiseLaw
        The noise law (:class:`GeometricLaw`, :class:`StaircaseLaw`,
        :class:`DiscreteGaussianLaw`, :class:`TableLaw` or a subclass of :class:`NoiseLaw`).
    form : {"truncated", "clamped", "folded", "modular"}, default "clamped"

    Returns
    -------
    numpy.ndarray
        float64 array of shape (N, q); each row sums to 1 within about :math:`10 q 2^{-53}`.

    Raises
    ------
    ParameterError
        If an answer is not an integer, the outputs are not consecutive integers, ``form`` is
        unknown, or a truncated row would have no mass.
    ParameterTypeError
        If ``law`` is not a :class:`NoiseLaw`.

    Entries positive in the exact law but below :data:`FLOOR` are stored as :data:`FLOOR`
    (module notes: this keeps a pure ε-DP law ε-DP in float64).

    Notes
    -----
    Truncated: :math:`P_a(v) = \exp(\ell_a(v) - m_a) / \sum_w \exp(\ell_a(w) - m_a)` with
    :math:`\ell_a(v) = \log f(v - a)` and :math:`m_a = \max_v \ell_a(v)`. Clamped:
    :math:`P_a = \exp` of the exact log-probabilities (ends from the log-tails). Folded and
    modular: with :math:`g_c = \Pr[\eta \equiv c \pmod P]` (:meth:`NoiseLaw.log_wrapped`),
    the row of residue :math:`r = (a - lo) \bmod P` is :math:`g_{(j - r) \bmod q}` (modular,
    P = q) or :math:`g_{(t - r) \bmod P} + g_{(-t - r) \bmod P}` (folded, P = 2(q − 1), one term
    at t = 0 and t = q − 1).

    References
    ----------
    Kadam et al., "Optimum noise mechanism for differentially private queries in discrete finite
    sets", Cybersecurity (2024): modulo addition, eq. (4); clamping, eqs. (55)–(56).

    Examples
    --------
    >>> rows = additive_rows([0, 1, 2], range(3), GeometricLaw(0.5), form="clamped")
    >>> (rows * 6).round(12).tolist()
    [[4.0, 1.0, 1.0], [2.0, 2.0, 2.0], [1.0, 1.0, 4.0]]
    >>> additive_rows([5], range(3), GeometricLaw(0.5), form="modular").round(6).tolist()
    [[0.285714, 0.285714, 0.428571]]
    """
    a = integer_answers(answers)
    lo, q, perm = contiguous_outputs(outputs)
    if not isinstance(law, NoiseLaw):
        raise ParameterTypeError(
            f"`law` must be a NoiseLaw (e.g. GeometricLaw(0.5)), got law={law!r}."
        )
    form = check_form(form)
    increasing = a.size < 2 or bool(np.all(a[1:] > a[:-1]))
    if increasing:
        ua, inverse = a, None
    else:
        ua, inverse = np.unique(a, return_inverse=True)
        inverse = inverse.ravel()
    if form in ("folded", "modular"):
        table, positive, index = _periodic(law, ua, lo, q, form)
        low = table < FLOOR if positive is None else (table < FLOOR) & positive
        if low.any():
            table = np.where(low, FLOOR, table)
        index = index if inverse is None else index[inverse]
        rows = table[index]
    else:
        build = _truncated if form == "truncated" else _clamped
        rows, found = build(law, ua, lo, q)
        positive = None
        if isinstance(found, bool):  # unimodal rows: the smallest entries are at the ends
            small = found
        else:
            positive = found
            small = bool(rows.size and rows.min() < FLOOR)
        if small:
            low = rows < FLOOR
            if positive is not None:
                low &= positive
            rows[low] = FLOOR
        if inverse is not None:
            rows = rows[inverse]
    if perm is not None:
        rows = rows[:, perm]
    return np.ascontiguousarray(rows)
