"""Tests of rainbowdp.reproduce for Kadam et al., Figs. 5-8, 11, 12 and 14 (comparisons with
standard mechanisms, clamping, sweeps, and the synthetic stand-in for the AMI data)."""

from __future__ import annotations

import json
import math

import matplotlib
import numpy as np
import pytest

from rainbowdp import reproduce as r
from rainbowdp.exceptions import ParameterError, RainbowDPError
from rainbowdp.noise import count, modulo
from rainbowdp.noise._additive import DiscreteGaussianLaw
from rainbowdp.noise.baselines import DiscreteGaussian
from rainbowdp.plot import plot_curves
from rainbowdp.privacy import pdp_delta

matplotlib.use("Agg")

COARSE = (0.25, 1.0, 2.0)


def competitors(fig: r.CurveFigure, panel: int = 0) -> dict:
    return {k: v for k, v in fig.panels[panel].series.items() if k != "optimal (MILP)"}


# ------------------------------------------------------------------------------ Fig. 6
def test_fig6_clamping_raises_pdp_leakage_but_never_the_dp_delta():
    f = r.kadam_figure6()
    pdp, dp = f.panels[0].series, f.panels[1].series
    eps = f.panels[0].x
    # Kadam et al., Fig. 6 / text around eq. (56): "clamping increases delta for the same
    # epsilon, particularly pronounced in the case of the Gaussian mechanism" -- true for the
    # PDP leakage of the discrete Gaussian (strictly, somewhere)
    gain = pdp["discrete Gaussian, clamped"] - pdp["discrete Gaussian, unclamped"]
    assert gain.max() > 0.2
    assert f.findings["pdp_increase_by_clamping"]["discrete Gaussian"] == pytest.approx(gain.max())
    # ... below eps* ~ 2.2 only: from there on the clamped Gaussian is pure eps-DP (leakage 0),
    # the infinite law never is, so clamping lowers the PDP leakage
    star = f.findings["pure_dp_epsilon"]["discrete Gaussian"]
    assert 2.2 < star < 2.25
    low = eps < star
    assert gain[low].min() >= -1e-12
    assert np.all(pdp["discrete Gaussian, clamped"][~low] == 0.0)
    assert np.all(pdp["discrete Gaussian, unclamped"][~low] > 0.0)
    # ... and not for the geometric law: its PDP leakage is 1/(1 + alpha) below ln(1/alpha),
    # 0 above, clamped or not
    e0 = math.log(1 / 0.7)
    expected = np.where(eps < e0, 1 / 1.7, 0.0)
    assert np.allclose(pdp["geometric, clamped"], expected, atol=1e-12)
    assert np.allclose(pdp["geometric, unclamped"], expected, atol=1e-15)
    # Under (epsilon, delta)-DP clamping is post-processing: the clamped delta is never above
    # the unclamped one -- equal (up to round-off) for the geometric law and for the Gaussian
    # below eps*, 0 above it
    for law in ("geometric", "discrete Gaussian"):
        assert np.all(dp[f"{law}, clamped"] <= dp[f"{law}, unclamped"] + 1e-12)
        assert f.findings["dp_excess_of_clamped"][law] <= 1e-12
    assert np.allclose(dp["geometric, clamped"], dp["geometric, unclamped"], rtol=0, atol=1e-12)
    assert f.findings["pure_dp_epsilon"]["geometric"] == pytest.approx(e0)
    gauss_c, gauss_u = dp["discrete Gaussian, clamped"], dp["discrete Gaussian, unclamped"]
    assert np.allclose(gauss_c[low], gauss_u[low], rtol=0, atol=1e-12)
    assert np.all(gauss_c[~low] == 0.0) and np.all(gauss_u[~low] > 0.0)
    # PDP implies DP (Kadam et al., Theorem 1): every DP delta is at most the PDP leakage
    for label in pdp:
        assert np.all(dp[label] <= pdp[label] + 1e-12)


def test_fig6_unclamped_closed_forms_against_a_wide_window():
    # the unclamped laws' PDP leakage and hockey stick, summed directly over |k| <= 80 with the
    # neighbour's law shifted by one
    f = r.kadam_figure6(epsilons=(0.0, 0.2, 0.37, 0.9, 1.7))
    law = DiscreteGaussianLaw(math.sqrt(3.38))
    k = np.arange(-80, 81)
    p, q = law.pmf(k), law.pmf(k - 1)
    geo_p, geo_q = 0.7 ** np.abs(k) * 0.3 / 1.7, 0.7 ** np.abs(k - 1) * 0.3 / 1.7
    for i, e in enumerate(f.panels[0].x):
        x = math.exp(e)
        assert f.series("discrete Gaussian, unclamped", 0)[i] == pytest.approx(p[p > x * q].sum())
        assert f.series("discrete Gaussian, unclamped", 1)[i] == pytest.approx(
            np.maximum(p - x * q, 0).sum(), abs=1e-12
        )
        assert f.series("geometric, unclamped", 0)[i] == pytest.approx(
            geo_p[geo_p > x * geo_q].sum()
        )
        assert f.series("geometric, unclamped", 1)[i] == pytest.approx(
            np.maximum(geo_p - x * geo_q, 0).sum(), abs=1e-12
        )
    assert f.series("discrete Gaussian, unclamped", 1)[2] == pytest.approx(
        DiscreteGaussian(sigma=math.sqrt(3.38)).dp_delta(0.37)
    )


def test_fig6_printed_parameters_and_the_same_mse_claim():
    f = r.kadam_figure6(epsilons=(0.5,))
    assert f.parameters["n"] == 8 and f.parameters["alpha"] == 0.7  # Fig. 6 caption
    mse = f.findings["mse"]
    # "reported for the same MSE = 3.38": the discrete Gaussian's variance is 3.38 ...
    assert mse["discrete Gaussian, unclamped"] == pytest.approx(3.38, abs=1e-9)
    # ... but alpha = 0.7 gives the geometric law variance 2 alpha / (1 - alpha)^2 = 15.56
    assert mse["geometric, unclamped"] == pytest.approx(15.5556, abs=1e-4)
    assert mse["geometric, clamped"] > mse["discrete Gaussian, clamped"] + 3


# ------------------------------------------------------------------------------ Fig. 5
@pytest.mark.parametrize("panel", ["a", "b"])
def test_fig5_the_optimum_has_the_least_distortion(panel):
    f = r.kadam_figure5(panel, epsilons=COARSE)
    n, delta = f.parameters["n"], f.parameters["delta"]
    assert (n, delta) == ((8, 0.3) if panel == "a" else (7, 0.5))  # Fig. 5 captions (arXiv)
    opt = f.series("optimal (MILP)")
    comps = competitors(f)
    expected = (
        {"geometric", "discrete Gaussian", "Gumbel"}
        if panel == "a"
        else {"geometric", "data-independent", "discrete count (Sadeghi et al.)"}
    )
    assert {k.split(",")[0] for k in comps} == expected
    # Kadam et al., Fig. 5 / Section "Numerical results": "the proposed optimal noise mechanism
    # significantly outperforms all these mechanisms" -- at the same (epsilon, delta)-PDP
    for label, values in comps.items():
        assert np.all(np.isfinite(values)), label
        assert np.all(opt <= values + 1e-6), label
        # every mechanism drawn meets the leakage bound, by the sound PDP leakage
        assert np.all(f.findings["pdp_delta"][label] <= delta), label
        # and PDP implies DP (Theorem 1)
        assert np.all(f.findings["dp_delta"][label] <= f.findings["pdp_delta"][label] + 1e-12)
    assert np.all(f.findings["pdp_delta"]["optimal (MILP)"] <= delta)
    # the clamped geometric leaks 1/(1 + alpha) > delta whenever eps < ln(1/alpha): at the bound
    # it must be pure, alpha = e^-eps
    assert np.allclose(
        f.findings["parameters"]["geometric, clamped"], np.exp(-np.array(COARSE)), rtol=1e-6
    )
    if panel == "b":  # error rate, SD mu_hat = 1: Theorem 2 in closed form
        closed = [1 - modulo.sd_pmf(7, epsilon=e, delta=0.5, mu=1)[0] for e in COARSE]
        assert np.allclose(opt, closed, atol=1e-5)


# ------------------------------------------------------------------------------ Fig. 7
@pytest.mark.parametrize("panel", ["a", "b"])
def test_fig7_equal_distortion_and_the_least_pdp_leakage(panel):
    f = r.kadam_figure7(panel, epsilons=COARSE)
    target = 0.6101 if panel == "a" else 0.3  # the numbers printed in the Fig. 7 captions
    assert f.parameters["target"] == target
    assert f.parameters["n"] == (8 if panel == "a" else 7)
    for label, d in f.findings["distortion"].items():
        if label == "optimal (MILP)":
            assert np.all(np.asarray(d) <= target + 1e-7)
        else:  # brentq matched every competitor to the printed distortion
            assert d == pytest.approx(target, abs=1e-9), label
    pdp, dp = f.panels[0].series, f.panels[1].series
    opt = pdp["optimal (MILP)"]
    # Kadam et al., Fig. 7: the optimum has the least delta at every epsilon (PDP, the notion
    # of the MILP (15))
    for label, values in competitors(f).items():
        assert np.all(opt <= values + 1e-9), label
        assert np.all(dp[label] <= values + 1e-12), label  # Theorem 1
    if panel == "b":
        # ... but not "significantly ... for all eps > 0": at small eps f(0) = 0.7 must leak,
        # and the data-independent mechanism (rho = 0.3) leaks exactly as much
        assert f.findings["parameters"]["data-independent"] == pytest.approx(0.3)
        assert opt[0] == pytest.approx(0.7, abs=1e-6)
        assert pdp["data-independent"][0] == pytest.approx(0.7, abs=1e-9)
        # and under exact (eps, delta)-DP the PDP-optimal PMF is beaten there
        assert dp["optimal (MILP)"][0] > dp["geometric, clamped"][0] + 0.05
        assert dp["optimal (MILP)"][0] > dp["data-independent"][0] + 0.05
    else:
        assert dp["optimal (MILP)"][0] > dp["discrete Gaussian, clamped"][0]


# ------------------------------------------------------------------------------ Fig. 8
def test_fig8_the_optimum_has_the_largest_mass_at_zero():
    f = r.kadam_figure8()
    p = f.panels[0]
    assert p.kind == "bars" and p.x.tolist() == list(range(9))
    pmfs = p.series
    opt = pmfs["optimal (eps = 1, delta = 0)"]
    for v in pmfs.values():
        assert v.sum() == pytest.approx(1.0)
    # Kadam et al., Fig. 8: "the probability mass at eta = 0 is maximum for the proposed
    # mechanism, which validates our claim of the least error rate"
    others = [v for k, v in pmfs.items() if k != "optimal (eps = 1, delta = 0)"]
    assert all(opt[0] > v[0] + 0.4 for v in others)
    assert (
        min(f.findings["error_rate"].values())
        == f.findings["error_rate"]["optimal (eps = 1, delta = 0)"]
    )
    # Lemma 3 (SD mu_hat = 1, delta = 0): f(eta) proportional to e^-eta; the MSE optimum equals it
    w = np.exp(-np.arange(9.0))
    assert np.allclose(opt, w / w.sum(), atol=1e-6)
    assert np.allclose(f.findings["optimal_mse_pmf"], opt, atol=1e-6)
    assert f.findings["pdp_delta"]["optimal (eps = 1, delta = 0)"] == 0.0
    # the caption's alpha = 0.7 and sigma^2 = 3.38 do not give "the same MSE"
    assert f.findings["variance"]["geometric"] == pytest.approx(15.5556, abs=1e-4)
    assert f.findings["variance"]["discrete Gaussian"] == 3.38


# ------------------------------------------------------------------------------ Fig. 11
def test_fig11_error_rate_grows_with_mu_bar():
    mus = (1, 2, 3, 5, 9)
    a = r.kadam_figure11("a", mu_bars=mus, epsilons=(1.0, 2.0))
    b = r.kadam_figure11("b", mu_bars=mus, deltas=(0.0, 0.2))
    assert a.parameters["delta"] == 0.2 and b.parameters["epsilon"] == 2.0  # Fig. 11 caption
    for fig in (a, b):
        assert fig.panels[0].x.tolist() == list(mus)
        for label, rho in fig.panels[0].series.items():
            # Kadam et al., Fig. 11: a larger mu_bar adds constraints, so rho cannot decrease
            assert np.all(np.diff(rho) >= -1e-6), label
    # a larger epsilon (left) or delta (right) relaxes them
    assert np.all(a.series("eps = 2") <= a.series("eps = 1") + 1e-6)
    assert np.all(b.series("delta = 0.2") <= b.series("delta = 0") + 1e-6)
    # the two panels meet at (eps, delta) = (2, 0.2)
    assert np.allclose(a.series("eps = 2"), b.series("delta = 0.2"), atol=1e-6)
    # delta = 0: mu_bar = 1 is SD (Lemma 3), mu_bar = 3 is Lemma 4's staircase
    assert b.series("delta = 0")[0] == pytest.approx(
        1 - modulo.sd_pmf(9, epsilon=2.0, mu=1)[0], abs=1e-6
    )
    assert b.series("delta = 0")[2] == pytest.approx(
        1 - modulo.bd_pmf(9, epsilon=2.0, mu_bar=3)[0], abs=1e-6
    )


# ------------------------------------------------------------------------------ Fig. 12
def test_fig12a_matches_theorem2_and_is_piecewise_linear():
    grid = np.round(np.linspace(0.0, 1.0, 11), 4)
    f = r.kadam_figure12("a", deltas=grid, epsilons=(1.0,))
    milp, closed = f.series("eps = 1"), f.series("closed form, eps = 1")
    # Theorem 2 in closed form (modulo.sd_pmf) equals the MILP on the grid
    assert np.allclose(milp, closed, atol=1e-5)
    assert np.all(np.diff(milp) <= 1e-6) and milp[-1] == pytest.approx(0.0, abs=1e-6)
    # delta = 0 (Lemma 3, a cycle of 10 values): 1 - (1 - e^-1) / (1 - e^-10)
    assert milp[0] == pytest.approx(1 - (1 - math.exp(-1)) / (1 - math.exp(-10)), abs=1e-6)
    # Theorem 2 / eq. (19c): flat on [low_k, e^eps low_k], linear in between
    low, high = f.findings["breakpoints"]["eps = 1"][-2]  # k = m - 1: [0.2689, 0.7311]
    assert (round(low, 4), round(high, 4)) == (0.2689, 0.7311)
    flat = r.kadam_figure12("a", deltas=(low + 1e-4, 0.5, high - 1e-4), epsilons=(1.0,))
    assert np.ptp(flat.series("eps = 1")) < 1e-6
    lin = r.kadam_figure12("a", deltas=(0.8, 0.85, 0.9), epsilons=(1.0,)).series("eps = 1")
    assert lin[0] - lin[1] == pytest.approx(lin[1] - lin[2], abs=1e-6)
    assert lin[1] == pytest.approx(0.15, abs=1e-6)  # 1 - delta in the last linear region


def test_fig12b_error_rate_falls_with_delta():
    grid = (0.0, 0.1, 0.3, 0.6, 1.0)
    f = r.kadam_figure12("b", deltas=grid, epsilons=(1.0,))
    rho = f.series("eps = 1")
    assert np.all(np.diff(rho) <= 1e-6) and rho[-1] == pytest.approx(0.0, abs=1e-6)
    assert rho[0] == pytest.approx(1 - modulo.bd_pmf(9, epsilon=1.0, mu_bar=3)[0], abs=1e-6)
    assert f.parameters["shifts"] == [1, 2, 3] and "breakpoints" not in f.findings


# ------------------------------------------------------------------------------ Fig. 14
def test_fig14_synthetic_data_and_the_mass_on_the_observed_shifts():
    f = r.kadam_figure14()
    assert "synthetic" in f.name and "SYNTHETIC" in f.figure.get_suptitle()
    assert "synthetic" in f.parameters["data"]
    assert [p.x.size for p in f.panels] == [11, 17]
    for p, (key, shifts) in zip(f.panels, f.findings["shifts"].items(), strict=True):
        n = p.x.size - 1
        assert key == f"n = {n}" and shifts and set(shifts) <= set(range(1, n + 1))
        assert "SYNTHETIC" in p.title
        pmf = f.findings["pmfs"][key]
        inside = [0, *shifts]
        outside = [e for e in range(n + 1) if e not in inside]
        # Kadam et al., Fig. 14: "f*(eta) is considerably larger for eta in M u {0} than
        # elsewhere"
        assert pmf[inside].min() > pmf[outside].max() * math.e * 0.99
        assert np.argmax(pmf) == 0
    # seeded: the same data and shift sets again
    assert r.kadam_figure14(levels=(11,)).findings["shifts"] == {
        "n = 10": f.findings["shifts"]["n = 10"]
    }


def test_synthetic_ami_table():
    data = r.synthetic_ami(seed=3, households=50, circuits=5, days=4)
    assert len(data) == 20 and sum(x.size for x in data[::4]) == 50
    assert all(np.all(x > 0) for x in data)
    again = r.synthetic_ami(seed=3, households=50, circuits=5, days=4)
    assert all(np.array_equal(a, b) for a, b in zip(data, again, strict=True))
    with pytest.raises(ParameterError, match=r"`households` must be >= 5.*households=4"):
        r.synthetic_ami(households=4, circuits=5)
    with pytest.raises(ParameterError, match=r"`seed` must be >= 0.*seed=-1"):
        r.synthetic_ami(seed=-1)


# ------------------------------------------------------------------------------ structure, CLI
def test_curve_figure_dict_and_drawing():
    f = r.kadam_figure6(epsilons=(0.1, 0.5))
    d = f.to_dict()
    assert d["name"] == "Kadam et al., Fig. 6" and len(d["panels"]) == 2
    assert d["panels"][0]["x"] == [0.1, 0.5] and d["panels"][0]["kind"] == "step"
    json.dumps(d)  # plain Python types only
    assert len(f.figure.axes) == 2 and f.figure.axes[1].get_legend() is not None
    with pytest.raises(KeyError, match="no series 'x'"):
        f.series("x")


def test_plot_curves_styles_and_errors():
    fig = plot_curves(
        [0, 1], {"optimal": [1, 0], "geometric, clamped": [1, 1], "geometric, modular": [2, 2]}
    )
    lines = fig.axes[0].lines
    assert lines[0].get_color() == "black" and lines[1].get_linestyle() == "--"
    assert lines[1].get_color() == lines[2].get_color()  # one colour per mechanism
    with pytest.raises(ValueError, match=r"`series` entry 'a' must have 2 values"):
        plot_curves([0, 1], {"a": [1, 2, 3]})
    with pytest.raises(ValueError, match=r"`x` must be a finite non-empty 1-D grid"):
        plot_curves([], {})


def test_cli_reproduces_the_curve_figures(capsys, tmp_path):
    from rainbowdp.cli import main

    for name in ("fig5a", "fig5b", "fig6", "fig7a", "fig7b", "fig8", "fig11a", "fig12b", "fig14"):
        assert r.TARGETS[name].figure  # reachable alone as `rainbowdp reproduce NAME`
    assert main(["reproduce", "fig8", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["figure"] == "fig8" and data["name"] == "Kadam et al., Fig. 8"
    assert data["panels"][0]["x"] == list(range(9)) and data["output"] is None
    assert main(["reproduce", "fig14", "-o", str(tmp_path / "f14.png"), "--dpi", "20"]) == 0
    text = capsys.readouterr().out
    assert "SYNTHETIC" in text and "shifts:" in text and f"wrote {tmp_path}" in text
    assert (tmp_path / "f14.png").stat().st_size > 0


# ------------------------------------------------------------------------------ validation
@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: r.kadam_figure5("c"), r"`panel` must be one of \('a', 'b'\).*panel='c'"),
        (lambda: r.kadam_figure7(1), r"`panel`.*panel=1"),
        (lambda: r.kadam_figure5(epsilons=(0.0, 1.0)), r"`epsilons` must .*\(0, 30\].*0\.0"),
        (lambda: r.kadam_figure7(epsilons=(2.0, 1.0)), r"`epsilons` must be strictly incr"),
        (lambda: r.kadam_figure6(epsilons=[]), r"`epsilons` must be a non-empty"),
        (lambda: r.kadam_figure6(epsilons=(-1.0,)), r"`epsilons`.*\[0, 30\].*-1\.0"),
        (lambda: r.kadam_figure6(epsilons="0.5"), r"`epsilons` must be a sequence.*'0\.5'"),
        (lambda: r.kadam_figure11(mu_bars=(0, 1)), r"`mu_bars`.*\[1, 9\].*\(0, 1\)"),
        (lambda: r.kadam_figure11(mu_bars=(1.5,)), r"`mu_bars` must hold integers.*1\.5"),
        (lambda: r.kadam_figure11("b", deltas=(0.5, 2.0)), r"`deltas`.*\[0, 1\].*2\.0"),
        (lambda: r.kadam_figure12("z"), r"`panel`.*panel='z'"),
        (lambda: r.kadam_figure12(deltas=(0.1, float("nan"))), r"`deltas`.*nan"),
        (lambda: r.kadam_figure14(levels=(1,)), r"`levels`.*\[2, 64\].*\(1,\)"),
        (lambda: r.kadam_figure14(epsilon=0.0), r"`epsilon` must be in \(0, 30\].*0\.0"),
        (lambda: r.kadam_figure14(delta=1.5), r"`delta` must be in \[0, 1\].*1\.5"),
    ],
)
def test_arguments_are_validated(call, match):
    with pytest.raises(ParameterError, match=match):
        call()


def test_non_numbers_are_refused():
    with pytest.raises(RainbowDPError, match=r"`epsilons` must hold real numbers"):
        r.kadam_figure5(epsilons=["a"])


# ----------------------------------------------------------- the discrete count mechanism
def test_figs_5b_and_7b_draw_the_discrete_count_mechanism():
    # Kadam et al., Figs. 5b and 7b compare with the "discrete count mechanism" of their
    # reference [10] (Sadeghi et al.): the law (14) with the alpha* of its Theorem 3, here on
    # [-3, 3] taken modulo 8; its error rate is 1 - eta
    label = "discrete count (Sadeghi et al.), modular"
    for e in COARSE:
        law = count.pmf(count.alpha_star(3, epsilon=e, eta=0.7), eta=0.7)
        f = r.count_noise(0.7, e, 7)
        assert f[0] == 0.7 and f[1:4].tolist() == law[4:].tolist()
        assert f[5:].tolist() == law[:3].tolist() and f[4] == 0.0  # z = 4 is not in [-3, 3]
    f5 = r.kadam_figure5("b", epsilons=COARSE)
    eta = f5.findings["parameters"][label]
    assert np.allclose(f5.series(label), 1 - eta, atol=1e-12)
    assert np.all(f5.findings["pdp_delta"][label] <= 0.5)
    for e, h in zip(COARSE, eta, strict=True):  # the largest eta meeting delta = 0.5
        bigger = r.count_noise(min(h + 0.01, 0.999), e, 7)
        assert pdp_delta(modulo.mechanism(bigger, shifts=[1], reading="paper"), e) > 0.5
    f7 = r.kadam_figure7("b", epsilons=COARSE)
    assert f7.findings["parameters"][label] == pytest.approx(0.7)
    assert f7.findings["distortion"][label] == pytest.approx(0.3, abs=1e-12)
    assert "count_D" in f7.parameters and "omitted" not in f7.parameters
