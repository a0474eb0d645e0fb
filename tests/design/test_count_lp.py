"""The count-query LPs of Sadeghi, Asoodeh and Calmon as registered formulations
(rainbowdp.design._count_lp): each example certifies private and agrees with the family's
closed forms (Theorem 3 with the omitted constraint restored, the exact δ of the law (14))."""

from __future__ import annotations

import numpy as np
import pytest

import rainbowdp as rdp
from rainbowdp.design import DesignResult
from rainbowdp.design.formulations import FORMULATIONS, get_formulation
from rainbowdp.exceptions import ParameterError
from rainbowdp.noise import count

NAMES = ("sadeghi-lp9-13", "sadeghi-law-lp")


@pytest.mark.parametrize("name", NAMES)
def test_registered_with_reference_and_example(name):
    f = FORMULATIONS[name]
    assert f.kind == "lp" and "Sadeghi" in f.reference and f.summary
    res = f.solve(**f.example())
    assert isinstance(res, DesignResult) and res.formulation == name
    assert res.status == "optimal" and res.achieved_delta >= 0.0
    cert = rdp.certify(res.mechanism, epsilon=res.epsilon, delta=res.achieved_delta)
    assert cert.verdict == "private"


def test_lp9_13_example_is_the_restored_closed_form():
    # errata item 16: D = 2, eps = 0.25, eta = 0.1 on counts 2..8 (N - D >= 2D): the LP optimum
    # is the restored closed form 0.1608, above the printed delta~ 0.1370
    f = get_formulation("sadeghi-lp9-13")
    kw = f.example()
    res = f.solve(**kw)
    opt = count.optimum(kw["D"], epsilon=kw["epsilon"], eta=kw["eta"])
    assert opt.case == "restored"
    assert res.objective == pytest.approx(opt.delta, abs=1e-9)
    # the singleton delta of the returned mechanism, measured by the family, is the LP's value
    assert count.singleton_delta(res.mechanism, epsilon=kw["epsilon"]) == pytest.approx(
        res.objective, abs=1e-9
    )
    # the exact DP delta is at least the singleton one and at most Remark 2's bound's scale
    assert res.objective - 1e-9 <= res.achieved_delta <= (2 * kw["D"] + 1) * opt.delta + 1e-9


def test_law_lp_example_agrees_with_the_verifier_and_theorem3():
    f = get_formulation("sadeghi-law-lp")
    kw = f.example()
    D, eps, eta = kw["D"], kw["epsilon"], kw["eta"]
    res = f.solve(**kw)
    # the exact delta of the LP's law, by the verifier, is the LP's optimum
    row = res.mechanism.probabilities[0]
    alpha = row[D + 1 : 2 * D + 1] / row[D + 1 : 2 * D + 1].sum()
    assert count.law_dp_delta(alpha, eta=eta, epsilon=eps) == pytest.approx(res.objective, abs=1e-9)
    # and it beats the exact delta of alpha* (designed for the singleton delta)
    star = count.law_dp_delta(count.alpha_star(D, epsilon=eps, eta=eta), eta=eta, epsilon=eps)
    assert res.objective <= star + 1e-9
    # the singleton variant is Theorem 3's closed form; the max-eta variant inverts it
    single = f.solve(D, epsilon=eps, eta=eta, events="singleton")
    assert single.objective == pytest.approx(count.min_delta(D, epsilon=eps, eta=eta), abs=1e-9)
    back = f.solve(D, epsilon=eps, delta=single.objective, events="singleton")
    assert back.method == "lp" and back.objective == pytest.approx(eta, abs=1e-7)


def test_law_lp_needs_exactly_one_target():
    f = get_formulation("sadeghi-law-lp")
    with pytest.raises(ParameterError, match="exactly one"):
        f.solve(3, epsilon=1.0)
    with pytest.raises(ParameterError, match="events"):
        f.solve(3, epsilon=1.0, eta=0.5, events="pairs")


def test_lp9_13_rows_meet_p1_p3():
    res = get_formulation("sadeghi-lp9-13").solve(10, 3, epsilon=1.0, eta=0.5)
    P = res.mechanism.probabilities
    y = np.arange(P.shape[1])
    for row, n in zip(P, res.mechanism.graph.nodes, strict=True):
        assert abs(row[n] - 0.5) <= 1e-9 and abs(float(((y - n) * row).sum())) <= 1e-9
        assert row[y < n - min(n, 3)].sum() == 0.0 and row[y > n + 3].sum() == 0.0
