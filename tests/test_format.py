"""format_up / format_down: printed numbers never on the unsafe side of the float."""

from __future__ import annotations

import math
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rainbowdp as rdp
from rainbowdp.exceptions import ParameterError, ParameterTypeError

FINITE = st.floats(allow_nan=False, allow_infinity=False)


@settings(max_examples=2000, deadline=None, derandomize=True)
@given(FINITE, st.integers(1, 17))
def test_rounded_text_is_on_the_safe_side_and_close(x, digits):
    up, down = Decimal(rdp.format_up(x, digits)), Decimal(rdp.format_down(x, digits))
    exact = Decimal(x)
    assert down <= exact <= up
    if x != 0:  # within one unit of the last shown digit
        unit = Decimal(1).scaleb(exact.adjusted() - digits + 1)
        assert up - exact <= unit and exact - down <= unit


def test_examples_and_special_values():
    assert rdp.format_up(0.0643217, 4) == "0.06433" and rdp.format_down(0.0643217, 4) == "0.06432"
    assert rdp.format_up(0.5) == "0.5" and rdp.format_up(0.0) == "0"
    assert rdp.format_up(math.inf) == "inf" and rdp.format_up(-math.inf) == "-inf"
    assert rdp.format_up(math.nan) == "nan"
    # at 17 digits the nearest float's shortest form would be below the exact value
    x = 0.19393111397246515
    assert Decimal(rdp.format_up(x, 17)) >= Decimal(x)  # Decimal(x): the float's exact value


@pytest.mark.parametrize("digits", [0, 18, -1])
def test_bad_digits(digits):
    with pytest.raises(ParameterError, match="`digits`"):
        rdp.format_up(0.5, digits)


@pytest.mark.parametrize("value", ["0.5", None, True])
def test_bad_value(value):
    with pytest.raises(ParameterTypeError, match="`value`"):
        rdp.format_up(value)
