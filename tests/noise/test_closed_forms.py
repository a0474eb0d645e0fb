"""Every closed-form PMF of rainbowdp.noise is finite and normalised over a grid of extremes.

Large ε (up to 709, where e^ε is still a float64), long cycles and tiny δ used to overflow the
single-distance optimum of Kadam et al. (Lemma 3, Theorem 2): ``sd_pmf(24, epsilon=30, mu=1)``
returned ``[inf, 9.36e-14, ...]`` through :math:`\\underline\\delta_k e^{(m-k-h)\\epsilon}` with
an underflowed breakpoint. The grid below covers every closed form that returns a PMF; the
mpmath checks evaluate the paper's formulas at 60 digits where the float64 code overflowed.
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest

from rainbowdp import noise
from rainbowdp.exceptions import ParameterError
from rainbowdp.noise import count, modulo, tablebuilder

EPSILONS = [1e-8, 0.5, 1.0, 20.0, 29.0, 30.0, 36.0, 100.0, 300.0, 700.0, 709.0]
DELTAS = [0.0, 1e-300, 1e-15, 0.01, 0.3, 1.0]
SIZES = [1, 2, 7, 24, 30, 63, 200, 1000]


def check_pmf(f: np.ndarray, what: str) -> None:
    f = np.asarray(f, dtype=np.float64)
    assert np.all(np.isfinite(f)), what
    assert f.min() >= 0.0, what
    assert abs(math.fsum(f.tolist()) - 1.0) <= 1e-12, what


def test_modulo_closed_forms_on_a_grid_of_extremes():
    calls = 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an overflow warning fails too
        for n, eps, dlt in itertools.product(SIZES, EPSILONS, DELTAS):
            for mu in sorted({1, 2, max(1, n // 3), n} & set(range(1, n + 1))):
                check_pmf(modulo.sd_pmf(n, epsilon=eps, delta=dlt, mu=mu), f"sd {n} {eps} {dlt}")
                try:
                    f = modulo.bd_pmf(n, epsilon=eps, delta=dlt, mu_bar=mu)
                except ParameterError:  # outside Theorem 3's hypothesis b + r < mu_bar
                    continue
                check_pmf(f, f"bd {n} {eps} {dlt} {mu}")
                calls += 2
                for rho in (0.0, 0.5, 0.99):
                    try:
                        d = modulo.bd_min_delta(n, epsilon=eps, error_rate=rho, mu_bar=mu)
                    except ParameterError:  # outside Corollary 2's hypothesis
                        break
                    assert 0.0 <= d <= 1.0
    assert calls > 500


def test_other_closed_form_pmfs_on_a_grid_of_extremes():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for gamma, D in itertools.product([0.0, 1e-12, 0.5, 50.0, 700.0, 1e6], [1, 25, 2000]):
            check_pmf(tablebuilder.pmf(gamma, D), f"tablebuilder {gamma} {D}")
        for D, eps, eta in itertools.product([1, 6, 200], [1e-8, 1.0, 30.0, 700.0], [0.1, 0.8]):
            check_pmf(count.optimum(D, epsilon=eps, eta=eta).pmf, f"count {D} {eps} {eta}")
        for eps in EPSILONS:
            for law in (noise.StaircaseLaw(eps), noise.StaircaseLaw(eps, period=3, step=1)):
                for form in noise.FORMS:
                    for answers in ([0, 1, 5], [-(10**6), 3, 10**9]):
                        rows = noise.additive_rows(answers, range(8), law, form=form)
                        assert np.all(np.isfinite(rows)) and rows.min() >= 0
                        assert np.abs(rows.sum(axis=1) - 1.0).max() <= 1e-12


def sd_reference(n: int, eps: float, dlt: float, mu: int) -> list:
    """Lemma 3 / Theorem 2 ((19c)-(21)) of Kadam et al. at 60 digits, sorted masses."""
    mpmath = pytest.importorskip("mpmath")
    with mpmath.workdps(60):
        e = mpmath.mpf(noise.build_epsilon(eps))
        d = mpmath.mpf(dlt - min(dlt / 2, noise.SAFETY_MARGIN))
        x = mpmath.exp(e)
        m = (n + 1) // math.gcd(n + 1, mu) - 1

        def low(k):
            return (
                mpmath.exp(-(m - k) * e) * (1 - mpmath.exp(-e)) / (1 - mpmath.exp(-(m - k + 1) * e))
            )

        def flat(k):
            return [low(k) * mpmath.exp((m - k - h) * e) if h <= m - k else 0 for h in range(m + 1)]

        if d >= 1:
            return flat(m)
        if d <= x * low(0):
            return flat(0)
        for k in range(1, m + 1):
            if d <= low(k):
                rest = 1 - d / low(k)
                return [
                    d * mpmath.exp((m - k - h) * e)
                    if h <= m - k
                    else rest * mpmath.exp((m - h) * e) * (x - 1) / (mpmath.exp(k * e) - 1)
                    for h in range(m + 1)
                ]
            if k == m or d <= x * low(k):
                return flat(k)
        return flat(m)


@pytest.mark.parametrize(
    ("n", "eps", "dlt"),
    [
        (24, 30.0, 0.0),  # f(0) = 1 - 9.36e-14: returned inf
        (30, 29.0, 0.0),  # returned NaN
        (7, 300.0, 1e-300),  # raised OverflowError (e^{k eps} in (21))
        (63, 700.0, 1e-15),
        (2, 700.0, 0.0),
        (7, 36.0, 1e-300),  # a linear region: head d e^{(m-k-h)eps} and a raised tail
    ],
)
def test_sd_pmf_agrees_with_sixty_digits_where_floats_overflowed(n, eps, dlt):
    f = modulo.sd_pmf(n, epsilon=eps, delta=dlt, mu=1)
    check_pmf(f, "sd")
    ref = [float(v) for v in sd_reference(n, eps, dlt, 1)]
    np.testing.assert_allclose(f, ref, rtol=1e-12, atol=1e-300)
    if (n, eps, dlt) == (24, 30.0, 0.0):
        assert f[0] == pytest.approx(1 - 9.357622968840175e-14, rel=1e-15)
        assert f[1] == pytest.approx(9.357622968840175e-14, rel=1e-9)


def test_sd_pmf_still_passes_the_exact_leakage_at_its_parameters():
    # the build margin keeps the closed form inside (eps, delta) in the paper reading
    for n, eps, dlt in [(24, 30.0, 0.0), (7, 36.0, 1e-300), (7, 3.0, 0.05), (12, 1.0, 0.2)]:
        f = modulo.sd_pmf(n, epsilon=eps, delta=dlt, mu=1)
        assert modulo.pdp_delta(f, shifts=[1], epsilon=eps, reading="paper") <= dlt
