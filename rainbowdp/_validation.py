r"""Shared argument checks.

Every public function validates its arguments with these helpers *before* doing any work. The
messages follow one pattern: they name the parameter in backticks and echo the bad value, e.g.
"`delta` must be in [0, 1], got delta=1.5."
"""

from __future__ import annotations

import decimal
import math
import numbers
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from .exceptions import ParameterError, ParameterTypeError

__all__ = [
    "check_delta",
    "check_epsilon",
    "check_int",
    "check_nonnegative_float",
    "check_probability_vector",
    "real_array",
]


def _is_real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _shown(value: Any) -> str:
    """``repr(value)``, shortened for huge numbers (a 400-digit integer stays readable)."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:25]}...{text[-10:]} ({len(text)} characters)"


def _as_float(value: Any, name: str) -> float:
    if not _is_real(value):
        raise ParameterTypeError(f"`{name}` must be a real number, got {name}={_shown(value)}.")
    try:
        return float(value)
    except OverflowError:
        raise ParameterError(
            f"`{name}` must be a finite number, got {name}={_shown(value)}, beyond the float64 "
            "range."
        ) from None


def check_nonnegative_float(value: Any, name: str, *, allow_inf: bool = False) -> float:
    """Return ``value`` as a float after checking it is a real number ``>= 0``."""
    x = _as_float(value, name)
    if math.isnan(x) or x < 0 or (math.isinf(x) and not allow_inf):
        bound = "[0, inf]" if allow_inf else "[0, inf)"
        raise ParameterError(
            f"`{name}` must be a finite number in {bound}, got {name}={_shown(value)}."
        )
    return x


#: Largest ε for which e^ε is a finite float64 (ln of the largest float64, about 709.78).
EPS_MAX_EXP = math.log(sys.float_info.max)


def check_epsilon(value: Any, name: str = "epsilon", *, finite_exp: bool = False) -> float:
    r"""Check a privacy parameter ε: a finite real number ``>= 0``.

    Verification accepts any finite ε. Computations that need :math:`e^\epsilon` as a float64
    (the closed forms, the designers' constraint coefficients) pass ``finite_exp=True``, which
    also requires ε <= :data:`EPS_MAX_EXP`.
    """
    x = check_nonnegative_float(value, name)
    if finite_exp and x > EPS_MAX_EXP:
        raise ParameterError(
            f"`{name}` must be at most {EPS_MAX_EXP:.2f} here (e^{name} must be a finite float64 "
            f"for this computation), got {name}={_shown(value)}."
        )
    return x


def check_delta(value: Any, name: str = "delta") -> float:
    """Check a privacy parameter δ: a real number in ``[0, 1]``."""
    x = _as_float(value, name)
    if not (0.0 <= x <= 1.0):
        raise ParameterError(f"`{name}` must be in [0, 1], got {name}={_shown(value)}.")
    return x


def check_int(
    value: Any, name: str, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    """Check an integer argument (``bool`` is rejected) and optional bounds."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ParameterTypeError(f"`{name}` must be an integer, got {name}={value!r}.")
    x = int(value)
    if minimum is not None and x < minimum:
        raise ParameterError(f"`{name}` must be >= {minimum}, got {name}={value!r}.")
    if maximum is not None and x > maximum:
        raise ParameterError(f"`{name}` must be <= {maximum}, got {name}={value!r}.")
    return x


def _is_number_type(t: type) -> bool:
    """A real-number type that is not a bool (Python, numpy, Fraction or Decimal)."""
    return issubclass(t, numbers.Real | decimal.Decimal) and not issubclass(t, bool | np.bool_)


def _plain_numbers(value: Any) -> bool:
    """A flat list/tuple of Python floats and ints (no bools), or of numeric numpy arrays:
    nothing numpy could have upcast from a non-number (the fast path of :func:`real_array`)."""
    if not isinstance(value, list | tuple):
        return False
    return all(type(x) in (float, int) for x in value) or all(
        isinstance(x, np.ndarray) and x.dtype.kind in "iuf" for x in value
    )


def real_array(
    value: Any,
    name: str,
    where: Callable[[tuple], str] | None = None,
    *,
    error: type[Exception] = ParameterError,
) -> np.ndarray:
    """``value`` as a float64 array, refusing strings, booleans and other non-numbers.

    ``np.asarray(["0.5"], dtype=float)`` would parse the string and ``True`` would become 1.0;
    a mechanism is made of numbers, so the types are checked before converting: the dtype of an
    array, and the type of every item of a (nested) list, since numpy silently upcasts a
    ``True`` next to floats. ``where(index)`` describes the place of the first bad entry (e.g.
    "for node 'd1'") for the message; ``error`` is raised for a ragged or out-of-range array.
    """
    if where is None:

        def where(idx: tuple) -> str:
            return f"at index {list(idx)}"

    try:
        raw = np.asarray(value)
    except (TypeError, ValueError) as exc:  # ragged nesting
        raise error(
            f"`{name}` must be an array of numbers of a regular shape, got {name}={value!r} "
            f"({exc})."
        ) from None
    kind = raw.dtype.kind
    items = raw
    if kind in "iuf" and not isinstance(value, np.ndarray) and not _plain_numbers(value):
        items = np.array(value, dtype=object)  # the Python items, before numpy upcasts them
        kind = "O"
    bad: int | None = None
    if kind == "O":
        types = set(map(type, items.flat))
        if not all(_is_number_type(t) for t in types):
            bad = next(k for k, x in enumerate(items.flat) if not _is_number_type(type(x)))
    elif kind not in "iuf":
        bad = 0
    if bad is not None:
        if items.size == 0:
            raise ParameterTypeError(f"`{name}` must hold real numbers, got {name}={value!r}.")
        item = items.flat[bad]
        item = item.item() if isinstance(item, np.generic) else item
        if isinstance(item, bool):
            what = "a boolean"
        elif isinstance(item, str | bytes):
            what = "a string"
        else:
            what = f"a value of type {type(item).__name__}"
        idx = np.unravel_index(bad, items.shape) if items.ndim else ()
        raise ParameterTypeError(
            f"`{name}` must hold real numbers (not strings or booleans), got {what}, "
            f"{item!r}, {where(tuple(int(k) for k in idx))}."
        )
    try:
        return raw.astype(np.float64)
    except (OverflowError, ValueError, TypeError, ArithmeticError):
        raise error(
            f"`{name}` must hold numbers representable as float64, got {name}={value!r}."
        ) from None


def check_probability_vector(
    value: Any,
    name: str,
    *,
    size: int | None = None,
    atol: float = 1e-9,
    error: type[Exception] = ParameterError,
) -> np.ndarray:
    """Return ``value`` as a 1-D float64 array after checking it is a probability vector.

    The entries must be finite and non-negative and sum to one within ``atol``.
    """
    if (
        type(value) is np.ndarray
        and value.dtype == np.float64
        and value.ndim == 1
        and value.size
        and (size is None or value.shape[0] == size)
        and value.min() >= 0.0  # (False for a NaN)
        and abs(float(value.sum()) - 1.0) <= atol  # (False for an infinity)
    ):  # a valid float64 vector: the checks below would pass
        return value
    arr = real_array(value, name, error=error)
    if arr.ndim != 1:
        raise error(
            f"`{name}` must be one-dimensional, got shape {arr.shape} for {name}={value!r}."
        )
    if size is not None and arr.shape[0] != size:
        raise error(f"`{name}` must have {size} entries, got {arr.shape[0]}: {name}={value!r}.")
    if not np.all(np.isfinite(arr)):
        raise error(f"`{name}` must be finite, got {name}={value!r}.")
    if np.any(arr < 0):
        raise error(f"`{name}` must be non-negative, got {name}={value!r}.")
    total = float(arr.sum())
    if abs(total - 1.0) > atol:
        raise error(
            f"`{name}` must sum to 1 (within {atol:g}), got sum {total!r} for {name}={value!r}."
        )
    return arr


def check_epsilons(epsilons: Any) -> np.ndarray:
    """``epsilons`` as a 1-D float array of finite values >= 0 (the check of
    :func:`privacy_profile`)."""
    if type(epsilons) is list and all(
        type(e) is float and 0.0 <= e < math.inf for e in epsilons
    ):  # the common call: a list of plain finite floats >= 0 (NaN fails the comparison)
        return np.array(epsilons, dtype=np.float64)
    if isinstance(epsilons, str | bytes):
        raise ParameterTypeError(
            f"`epsilons` must be an array of numbers, got epsilons={epsilons!r}."
        )
    eps = real_array(epsilons, "epsilons")
    if eps.ndim > 1:
        raise ParameterError(f"`epsilons` must be one-dimensional, got shape {eps.shape}.")
    eps = np.atleast_1d(eps)
    if not np.all(np.isfinite(eps)) or np.any(eps < 0):
        raise ParameterError(f"`epsilons` must be finite and >= 0, got epsilons={epsilons!r}.")
    return eps


def check_deltas(delta: Any) -> tuple[list[float], bool]:
    """``delta`` (a number, or a 1-D array of numbers) as a list of checked δ, and whether it
    was a number (the check of :func:`epsilon_for_delta`)."""
    if type(delta) is float and 0.0 <= delta <= 1.0:  # the common call, already valid
        return [delta], True
    if isinstance(delta, numbers.Real) and not isinstance(delta, bool):
        return [check_delta(delta)], True
    if isinstance(delta, str | bytes):
        raise ParameterTypeError(
            f"`delta` must be a number or an array of numbers, got delta={delta!r}."
        )
    arr = real_array(delta, "delta")
    if arr.ndim != 1:
        raise ParameterError(f"`delta` must be a number or a 1-D array, got shape {arr.shape}.")
    return [check_delta(float(d)) for d in arr], False
