"""The perturbation-table designers of the cell-key method as registered formulations
(rainbowdp.design._tables): each example certifies private and agrees with an independent
route (the closed form 1/c_D of the truncated geometric law; the same model solved by CBC)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import rainbowdp as rdp
from rainbowdp.cellkey import optimal_noise
from rainbowdp.design import DesignResult, available_solvers
from rainbowdp.design.formulations import FORMULATIONS, get_formulation

NAMES = ("ptable-optimal-law", "ptable-optimal")


@pytest.mark.parametrize("name", NAMES)
def test_registered_with_reference_and_example(name):
    f = FORMULATIONS[name]
    assert f.kind == "lp" and "Sadeghi & Chien" in f.reference and f.summary
    res = f.solve(**f.example())
    assert isinstance(res, DesignResult) and res.status == "optimal"
    cert = rdp.certify(res.mechanism, epsilon=res.epsilon, delta=res.achieved_delta)
    assert cert.verdict == "private"
    assert res.achieved_delta == pytest.approx(res.objective, abs=1e-8)


def test_law_example_is_the_truncated_geometric_closed_form():
    # the variance cap is slack for the law p(z) ~ e^{-eps |z|} on [-D, D]: it is optimal with
    # delta = 1/c_D, c_D = x^D + 2 (x^D - 1)/(x - 1) (rainbowdp.cellkey._optimal)
    f = get_formulation("ptable-optimal-law")
    kw = f.example()
    D, eps = kw["D"], kw["epsilon"]
    x = math.exp(eps)
    closed = 1.0 / (x**D + 2 * (x**D - 1) / (x - 1))
    res = f.solve(**kw)
    assert res.objective == pytest.approx(closed, abs=1e-9)
    law = optimal_noise(eps, D=D, variance=kw["variance"])
    assert law.delta == pytest.approx(closed, rel=1e-9)  # the cell-key route, by the verifier
    # row 0 is a zero-bias law within the variance cap
    p = res.mechanism.probabilities[0, : 2 * D + 1]
    z = np.arange(-D, D + 1)
    assert abs(float((z * p).sum())) <= 1e-9 and float((z * z * p).sum()) <= kw["variance"] + 1e-9


@pytest.mark.skipif("cbc" not in available_solvers(), reason="CBC is not installed")
@pytest.mark.parametrize("name", NAMES)
def test_the_optimum_is_the_same_with_cbc(name):
    f = get_formulation(name)
    highs = f.solve(**f.example())
    cbc = f.solve(**f.example(), solver="cbc")
    assert cbc.objective == pytest.approx(highs.objective, abs=1e-7)


def test_rows_keep_the_fixed_law_and_publish_no_negative_count():
    f = get_formulation("ptable-optimal")
    kw = f.example()
    res = f.solve(**kw, rows=5)
    P = res.mechanism.probabilities
    p = kw["pmf"]
    D = (p.size - 1) // 2
    for n in range(D, 6):
        assert np.array_equal(P[n, n - D : n + D + 1], p)
    assert P[0, 0] == pytest.approx(1.0)  # count 0: zero bias and no negative output
