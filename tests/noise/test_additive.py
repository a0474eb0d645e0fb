"""The shared additive-noise routine against a slow reference, on random small instances."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rainbowdp.noise as noise
from rainbowdp.exceptions import ParameterError

from .reference import reference_rows

FORMS = ["truncated", "clamped", "folded", "modular"]


# ------------------------------------------------------------------------ random laws
@st.composite
def laws(draw):
    """(law, pmf, support, max |answer - output| allowed without underflow)."""
    kind = draw(st.sampled_from(["geometric", "staircase", "gaussian", "table"]))
    if kind == "geometric":
        alpha = draw(st.floats(0.05, 0.95))
        reach = math.ceil(800 / -math.log(alpha))
        norm = (1 - alpha) / (1 + alpha)
        return noise.GeometricLaw(alpha), lambda k: norm * alpha ** abs(k), reach, 30
    if kind == "staircase":
        rate = draw(st.floats(0.2, 2.5))
        period = draw(st.integers(1, 4))
        step = draw(st.integers(0, period))

        def w(k: int) -> float:
            j, t = divmod(abs(k), period)
            return math.exp(-rate * (j + (t >= step)))

        reach = int(800 * period / rate) + period
        z = math.fsum(w(k) for k in range(-reach, reach + 1))
        law = noise.StaircaseLaw(rate, period=period, step=step)
        return law, lambda k: w(k) / z, reach, 30
    if kind == "gaussian":
        sigma = draw(st.floats(0.8, 4.0))
        reach = int(45 * sigma) + 5
        z = math.fsum(math.exp(-(j * j) / (2 * sigma * sigma)) for j in range(-reach, reach + 1))
        return (
            noise.DiscreteGaussianLaw(sigma),
            lambda k: math.exp(-(k * k) / (2 * sigma * sigma)) / z,
            reach,
            int(5 * sigma) + 6,
        )
    weights = draw(st.lists(st.integers(0, 9), min_size=1, max_size=6))
    if sum(weights) == 0:
        weights[0] = 1
    offset = draw(st.integers(-4, 4))
    p = [x / sum(weights) for x in weights]
    law = noise.TableLaw(p, offset=offset)
    return law, lambda k: p[k - offset] if 0 <= k - offset < len(p) else 0.0, 10, 30


@st.composite
def instances(draw):
    law, pmf, reach, spread = draw(laws())
    lo = draw(st.integers(-5, 5))
    q = draw(st.integers(1, 7))
    hi = lo + q - 1
    answers = draw(
        st.lists(st.integers(lo - min(spread, 12), hi + min(spread, 12)), min_size=1, max_size=8)
    )
    form = draw(st.sampled_from(FORMS))
    return law, pmf, reach, answers, lo, hi, form


@settings(max_examples=150, deadline=None)
@given(instances())
def test_rows_equal_the_post_processed_law(instance):
    law, pmf, reach, answers, lo, hi, form = instance
    expected = reference_rows(pmf, range(-reach, reach + 1), answers, lo, hi, form)
    if form == "truncated" and not np.all(np.isfinite(expected)):  # a table with no mass on R
        with pytest.raises(ParameterError, match="no probability"):
            noise.additive_rows(answers, range(lo, hi + 1), law, form=form)
        return
    rows = noise.additive_rows(answers, range(lo, hi + 1), law, form=form)
    assert rows.shape == (len(answers), hi - lo + 1) and rows.dtype == np.float64
    assert np.abs(rows.sum(axis=1) - 1).max() <= 1e-12
    np.testing.assert_allclose(rows, expected, rtol=1e-11, atol=1e-300)


@settings(max_examples=40, deadline=None)
@given(instances(), st.randoms(use_true_random=False))
def test_output_order_only_permutes_columns(instance, rnd):
    law, _, _, answers, lo, hi, form = instance
    if form == "truncated" and isinstance(law, noise.TableLaw):
        return  # may have nothing to renormalise; covered above
    outputs = list(range(lo, hi + 1))
    shuffled = outputs[:]
    rnd.shuffle(shuffled)
    base = noise.additive_rows(answers, outputs, law, form=form)
    rows = noise.additive_rows(answers, shuffled, law, form=form)
    np.testing.assert_array_equal(rows, base[:, [v - lo for v in shuffled]])


def test_answers_far_outside_the_range_give_correct_rows():
    alpha = 0.5
    law = noise.GeometricLaw(alpha)
    rows = noise.additive_rows([10**6, -(10**6)], range(4), law, form="truncated")
    top = np.array([alpha**3, alpha**2, alpha, 1.0])
    np.testing.assert_allclose(rows[0], top / top.sum(), rtol=1e-15)
    np.testing.assert_allclose(rows[1], top[::-1] / top.sum(), rtol=1e-15)
    for form in ("folded", "modular"):  # periodic in the answer: no loss far away
        far = noise.additive_rows([10**6], range(4), law, form=form)
        near = noise.additive_rows(
            [10**6 % (6 if form == "folded" else 4)], range(4), law, form=form
        )
        np.testing.assert_array_equal(far, near)


def test_entries_that_would_underflow_are_stored_at_the_floor():
    law = noise.DiscreteGaussianLaw(1.0)
    rows = noise.additive_rows([0, 1000], range(3), law, form="truncated")
    # exp(-1000^2 / 2) and exp(-999^2 / 2) relative to the top: far below 2^-1000
    assert rows[1].tolist() == [2.0**-1000, 2.0**-1000, 1.0]
    np.testing.assert_allclose(
        rows[0],
        [1, math.exp(-0.5), math.exp(-2)] / np.sum([1, math.exp(-0.5), math.exp(-2)]),
        rtol=1e-15,
    )
    # flooring never puts mass where the exact law has none
    table = noise.TableLaw([2.0**-1020, 1.0 - 2.0**-1020], offset=0)
    rows = noise.additive_rows([0, 5], range(3), table, form="clamped")
    assert rows[0].tolist() == [2.0**-1000, 1.0, 0.0]


def test_unsorted_and_repeated_answers():
    law = noise.StaircaseLaw(0.8, period=2, step=1)
    answers = [3, -1, 3, 7, 0, -1]
    for form in FORMS:
        rows = noise.additive_rows(answers, range(5), law, form=form)
        single = np.vstack([noise.additive_rows([a], range(5), law, form=form) for a in answers])
        np.testing.assert_allclose(rows, single, rtol=1e-14)


def test_sparse_answers_skip_the_line_of_noise_values():
    law = noise.GeometricLaw(0.3)
    answers = [-(10**9), 0, 10**9]
    rows = noise.additive_rows(answers, range(3), law, form="clamped")
    np.testing.assert_allclose(rows[1], [1 / 1.3, 0.7 * 0.3 / 1.3, 0.09 / 1.3], rtol=1e-14)
    assert rows[0].tolist() == [1.0, 2.0**-1000, 2.0**-1000]
    assert rows[2].tolist() == [2.0**-1000, 2.0**-1000, 1.0]


def test_single_output():
    for form in FORMS:
        rows = noise.additive_rows([0, 5], [2], noise.GeometricLaw(0.5), form=form)
        np.testing.assert_array_equal(rows, [[1.0], [1.0]])


def test_bundled_examples_use_the_routine():
    from rainbowdp import bundled

    ex = {e.name: e for e in bundled.examples()}
    P = ex["count_path"].mechanism.probabilities
    # clamped geometric with alpha = 1/2: neighbouring entries keep the exact ratio 2
    inside = P[:, 1:-1]
    assert np.all((inside[:-1] == 2 * inside[1:]) | (2 * inside[:-1] == inside[1:]))
    assert np.array_equal(P[1:, 0] * 2, P[:-1, 0]) and np.array_equal(P[:-1, -1] * 2, P[1:, -1])
    f = 0.5 ** np.arange(9)
    f /= f.sum()
    Q = ex["modulo_circulant_n8"].mechanism.probabilities
    np.testing.assert_array_equal(Q, f[(np.arange(9)[None, :] - np.arange(9)[:, None]) % 9])
