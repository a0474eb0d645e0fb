"""What other libraries promise, checked (rainbowdp.peer_rules, docs/peers.md).

The reported numbers come from the libraries themselves: diffprivlib 0.6.6's
``GaussianDiscrete(epsilon, delta)._scale`` for the σ values below, OpenDP 0.16.0's
``make_zCDP_to_approxDP(make_gaussian(...)).map(1).epsilon(delta)`` for its ε, and the reported
exact δ of the three unsound diffprivlib requests (1.0000033e-3, 1.00000012e-3, 1.0000387e-9).
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

import rainbowdp as rdp
from rainbowdp import peer_rules as pr
from rainbowdp.builders import count_path
from rainbowdp.noise import DiscreteGaussian, discrete_gaussian

ROOT = Path(__file__).resolve().parent.parent

# (epsilon, delta) -> sigma returned by diffprivlib 0.6.6, the reported exact delta and its
# significant digits
UNSOUND = {
    (2.0, 1e-3): (1.4644103050231934, 1.0000033e-3, 8),
    (0.1, 1e-3): (17.404441833496094, 1.00000012e-3, 9),
    (3.0, 1e-9): (1.9488859176635742, 1.0000387e-9, 8),
}
# sigma -> OpenDP 0.16.0's epsilon at delta = 1e-6 and 1e-3
OPENDP = {
    0.5: (11.688596249354896, 8.416064294321279),
    1.0: (5.22153444453017, 3.5365618461689596),
    2.0: (2.4190931768671953, 1.5460961269033575),
    5.0: (0.899935267660642, 0.5306767190421007),
}


@pytest.fixture(scope="module")
def rows() -> list[pr.PeerRow]:
    return pr.peer_table()


def _fsum_delta(sigma: float, epsilon: float, shift: int = 1) -> float:
    """H_{e^eps}(N_Z(0) || N_Z(shift)) by a direct float sum over |y| <= 60 sigma + 60: an
    independent computation, accurate to about 1e-15 relative."""
    top = math.ceil(60 * sigma) + 60
    y = np.arange(-top, top + 1, dtype=np.float64)
    w = np.exp(-(y * y) / (2 * sigma**2))
    z = math.fsum(w)
    p, q = w / z, np.exp(-((y - shift) ** 2) / (2 * sigma**2)) / z
    return math.fsum(np.maximum(p - math.exp(epsilon) * q, 0.0))


# -- the diffprivlib rule and its unsound answers ------------------------------------------------


@pytest.mark.parametrize(("request_", "reported"), list(UNSOUND.items()))
def test_diffprivlib_rule_gives_the_libraries_sigma(request_, reported):
    assert pr.diffprivlib_gaussian_discrete_sigma(*request_) == reported[0]


@pytest.mark.parametrize(("request_", "reported"), list(UNSOUND.items()))
def test_unsound_diffprivlib_answers_are_detected(request_, reported):
    eps, delta = request_
    sigma, exact_reported, digits = reported
    b = pr.discrete_gaussian_dp_delta(sigma, eps)
    assert delta < b.lower <= b.upper  # proved: the stated (eps, delta) fails
    assert b.upper - b.lower <= 1e-12 * b.upper
    for bound in (b.lower, b.upper):  # the reported exact delta, to its printed digits
        assert float(f"{bound:.{digits - 1}e}") == exact_reported
    assert pr.certify_discrete_gaussian(sigma, eps, delta) == "not private"


def test_the_bounds_enclose_independent_computations():
    for sigma, eps in [(0.6, 2.0), (1.0, 1.0), (2.5, 0.3), (17.404441833496094, 0.1)]:
        b = pr.discrete_gaussian_dp_delta(sigma, eps)
        for other in (_fsum_delta(sigma, eps), DiscreteGaussian(sigma=sigma).dp_delta(eps)):
            assert b.lower * (1 - 1e-12) <= other <= b.upper * (1 + 1e-12)


def test_clamping_at_the_threshold_loses_nothing():
    """The clamped discrete Gaussian of the library on a wide count range has the same delta:
    the window of peer_rules (4 outputs) does not under-count."""
    sigma, eps = 1.4644103050231934, 2.0
    G = count_path(1, outputs=range(-30, 31))
    wide = rdp.privacy_profile(discrete_gaussian(G, sigma=sigma, sensitivity=1), [eps])[0]
    b = pr.discrete_gaussian_dp_delta(sigma, eps)
    assert abs(wide - b.upper) <= 1e-15


def test_sensitivity_takes_the_worst_shift():
    sigma, eps = 3.0, 0.5
    b2 = pr.discrete_gaussian_dp_delta(sigma, eps, sensitivity=2)
    assert b2.lower <= _fsum_delta(sigma, eps, shift=2) <= b2.upper
    assert b2.lower > pr.discrete_gaussian_dp_delta(sigma, eps).upper  # shift 2 leaks more


def test_about_half_of_diffprivlibs_answers_are_unsound():
    """docs/peers.md: 23 of the 44 requests are proved unsound."""
    unsound = conservative = 0
    for eps in (0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0):
        for delta in (1e-3, 1e-5, 1e-6, 1e-9):
            b = pr.discrete_gaussian_dp_delta(
                pr.diffprivlib_gaussian_discrete_sigma(eps, delta), eps
            )
            unsound += b.lower > delta
            conservative += b.upper <= delta
            assert b.lower <= delta * (1 + 3.9e-5) and b.upper >= delta * (1 - 2.1e-4)
    assert (unsound, conservative) == (23, 21)


# -- the conservative claims are conservative ----------------------------------------------------


@pytest.mark.parametrize("sigma", sorted(OPENDP))
def test_opendp_rule_gives_the_libraries_epsilon(sigma):
    for delta, expected in zip((1e-6, 1e-3), OPENDP[sigma], strict=True):
        assert pr.opendp_discrete_gaussian_epsilon(sigma, delta) == pytest.approx(expected, 4e-16)


def test_cdp_conversion_matches_its_published_test_value():
    """OpenDP's own test of the conversion: rho = 1/32 (scale 4), delta = 1e-3."""
    assert pr.cdp_epsilon(1 / 32, 1e-3) == pytest.approx(0.6880024554878086, 4e-16)
    assert pr.cdp_delta(1 / 32, pr.cdp_epsilon(1 / 32, 1e-3)) <= 1e-3


def test_opendp_claims_are_conservative_and_the_exact_epsilon_is_near_exact(rows):
    od = [r for r in rows if r.library == "OpenDP" and r.mechanism == "discrete Gaussian"]
    assert len(od) == 18
    for r in od:
        sigma = float(r.setting.split()[2].rstrip(","))
        assert r.exact_upper < r.stated and r.verdict == "conservative"
        # the proved bound is within 1e-9 of the exact epsilon: delta just below it fails
        assert pr.discrete_gaussian_dp_delta(sigma, r.exact_upper - 1e-9).lower > r.at
        assert pr.discrete_gaussian_dp_delta(sigma, r.exact_upper).upper <= r.at
    margins = [r.excess for r in od]
    assert 0.017 <= min(margins) < 0.018 and 0.404 <= max(margins) < 0.405  # docs: 1.7 %, 40.4 %
    big = [r.excess for r in od if not r.setting.startswith(("σ = 0.5,", "σ = 1,"))]
    assert 0.056 <= min(big) < 0.057 and 0.231 <= max(big) < 0.232  # docs: 5.6 %, 23.1 %


def test_diffprivlib_exponential_states_twice_the_epsilon(rows):
    for k in (2, 3, 10):
        e = rdp.epsilon_for_delta(pr.diffprivlib_exponential_rr(1.0, k), 0.0)
        assert 0.5 <= e < 0.5 + 1e-12  # randomized response at epsilon / 2
    exp_rows = [r for r in rows if r.mechanism.startswith("Exponential")]
    assert exp_rows and all(r.verdict == "conservative" for r in exp_rows)
    assert all(0.9999 <= r.excess < 1 for r in exp_rows)


def test_dp_accounting_pld_is_tight_and_rdp_conservative(rows):
    pld = [r for r in rows if r.library == "dp_accounting (PLD)"]
    rdp_rows = [r for r in rows if r.library == "dp_accounting (RDP)"]
    assert len(pld) == 5 and len(rdp_rows) == 3
    for r in pld:
        assert r.verdict == "tight" and abs(r.exact_upper - r.stated) <= 2e-13
    margins = [r.excess for r in rdp_rows]
    assert all(r.verdict == "conservative" for r in rdp_rows)
    assert 0.062 <= min(margins) and max(margins) <= 0.161  # docs: 6.2 %-16.1 %
    od = {(r.setting, r.at): r.stated for r in rows if r.library == "OpenDP"}
    for r in rdp_rows:  # docs: within 4e-6 of OpenDP's epsilon
        assert abs(r.stated / od[(r.setting, r.at)] - 1) <= 4e-6


def test_discrete_laplace_claims_are_tight(rows):
    for a in (0.1, 0.5, 2.0):
        e = pr.discrete_laplace_epsilon(a, 0.0)
        assert a <= e <= a * (1 + 1e-12)  # exact: a (the ratio e^a is attained)
        assert a * 2 <= pr.discrete_laplace_epsilon(a, 0.0, sensitivity=2) <= 2 * a * (1 + 1e-12)
    # delta > 0: eps(delta) = ln((P[Y <= 0] - delta) / P[Y <= -1]), alpha = e^-a
    a, delta = 0.5, 1e-6
    alpha = math.exp(-a)
    p0, p1 = 1 / (1 + alpha), alpha / (1 + alpha)
    assert pr.discrete_laplace_epsilon(a, delta) == pytest.approx(
        math.log((p0 - delta) / p1), 1e-12
    )
    geo = [r for r in rows if r.mechanism in ("Geometric", "discrete Laplace")]
    assert len(geo) == 4 and all(r.verdict == "tight" for r in geo)


# -- the page --------------------------------------------------------------------------------------


def test_the_table_in_the_page_is_the_recomputed_one(rows):
    text = (ROOT / "docs" / "peers.md").read_text("utf-8")
    block = text.split("<!-- peer-table:start -->\n", 1)[1].split("<!-- peer-table:end -->", 1)[0]
    assert block.strip() == pr.format_peer_table(rows)


def test_verdicts_of_the_page(rows):
    by_verdict: dict[str, int] = {}
    for r in rows:
        by_verdict[r.verdict] = by_verdict.get(r.verdict, 0) + 1
    assert by_verdict == {"unsound": 3, "conservative": 25, "tight": 7}


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "needle"),
    [
        (lambda: pr.discrete_gaussian_dp_delta(0.0, 1.0), ValueError, "sigma=0.0"),
        (lambda: pr.discrete_gaussian_dp_delta(1.0, -1.0), ValueError, "epsilon=-1.0"),
        (lambda: pr.discrete_gaussian_dp_delta("1", 1.0), TypeError, "sigma='1'"),
        (lambda: pr.discrete_gaussian_epsilon(1.0, 1.0), ValueError, "delta=1.0"),
        (
            lambda: pr.discrete_gaussian_dp_delta(1.0, 1.0, sensitivity=0),
            ValueError,
            "sensitivity=0",
        ),
        (
            lambda: pr.discrete_gaussian_dp_delta(1.0, 1.0, sensitivity=1.5),
            TypeError,
            "sensitivity",
        ),
        (lambda: pr.diffprivlib_gaussian_discrete_sigma(0.0, 1e-3), ValueError, "epsilon=0.0"),
        (lambda: pr.diffprivlib_exponential_rr(1.0, 1), ValueError, "k=1"),
        (lambda: pr.diffprivlib_exponential_rr(1.0, True), TypeError, "k=True"),
        (lambda: pr.cdp_epsilon(-1.0, 1e-3), ValueError, "rho=-1.0"),
        (lambda: pr.discrete_laplace_epsilon(1.0, math.nan), ValueError, "delta=nan"),
        (lambda: pr.certify_discrete_gaussian(1.0, 1.0, 2.0), ValueError, "delta=2.0"),
    ],
)
def test_bad_input_names_the_parameter(call, error, needle):
    with pytest.raises(error, match=re.escape(needle)):
        call()
