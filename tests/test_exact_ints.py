"""Exact integers from floats, and the proof that a returned ε covers its exact solution."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rainbowdp._verify.exact import P_SHIFT, enclose, int_list, int_rows, int_scaled
from rainbowdp._verify.kernels import EPS_SATURATION
from rainbowdp._verify.rounding import exp_covers, log_up

FLOATS = st.floats(min_value=0.0, max_value=1.9999999999999998, allow_subnormal=True)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(FLOATS, min_size=0, max_size=40))
def test_int_list_is_the_float_times_2_to_the_1074(vals):
    arr = np.array(vals, dtype=np.float64)
    got = int_list(arr)
    assert len(got) == arr.size
    for v, g in zip(vals, got, strict=True):
        assert isinstance(g, int) and Fraction(g, 1 << P_SHIFT) == Fraction(v)
    rows = arr.reshape(1, -1)
    assert int_rows(rows).ravel().tolist() == got


def test_int_list_edge_values():
    special = [0.0, 5e-324, 1e-310, 2.2250738585072014e-308, 0.5, 1.0, 1.9999999999999998]
    for v, g in zip(special, int_list(np.array(special)), strict=True):
        assert Fraction(g, 1 << P_SHIFT) == Fraction(v)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    st.one_of(
        st.floats(min_value=1e-12, max_value=745.0),
        st.sampled_from([1e-300, 5e-324, 0.5, 1.0, 700.0, 709.78, 745.1]),
    )
)
def test_the_enclosure_is_within_2_to_the_minus_180(e):
    """:func:`exp_covers` relies on L (200 bits) being within 2^-180 of e^ε."""
    enc = enclose(e)
    assert enc.lo <= enc.hi and (enc.hi - enc.lo) <= enc.lo * Fraction(1, 1 << 180)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    num=st.integers(1, 2**80),
    den=st.integers(1, 2**80),
    scale=st.sampled_from([1, 2**10, 2**300, 2**1000, 2**1070]),
)
def test_log_up_covers_its_argument_with_the_library_enclosure(num, den, scale):
    """The ε returned for an exact solution x has L(ε) >= x (L of :func:`enclose`), proved
    by the cheaper 64-bit enclosure, and the proof is not vacuous: a slightly smaller ε fails."""
    x = Fraction(num, den) * scale
    e = log_up(x)
    if x <= 1:
        assert e == 0.0
        return
    assert exp_covers(e, x)
    assert enclose(e).lo >= x
    below = float(np.nextafter(e - 2.0**-40 * max(1.0, e), 0.0))
    if below < EPS_SATURATION:  # (from there on L is a stand-in above every float ratio)
        assert not exp_covers(below, x)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(FLOATS, min_size=1, max_size=40))
def test_int_scaled_is_exact_on_the_largest_common_scale(vals):
    ints, s = int_scaled(np.array(vals, dtype=np.float64))
    for v, g in zip(vals, ints, strict=True):
        assert Fraction(g) * Fraction(2) ** s == Fraction(v)
    if any(ints):  # the largest scale: not every integer is even
        assert any(g % 2 for g in ints)
    else:
        assert s == 0
