"""Tests of rainbowdp.reproduce for Sadeghi, Asoodeh, Calmon, Figs. 1-4 (the count-query noise
against the discrete Gaussian, and Remark 2's bound against the exact DP delta)."""

from __future__ import annotations

import json
import math

import matplotlib
import numpy as np
import pytest

from rainbowdp import reproduce as r
from rainbowdp.exceptions import ParameterError, RainbowDPError
from rainbowdp.noise import count
from rainbowdp.noise._additive import DiscreteGaussianLaw
from rainbowdp.noise.baselines import DiscreteGaussian

matplotlib.use("Agg")

BOUND = "(2D+1) delta* (Remark 2)"
EXACT = "exact delta, Theorem 3 law"
EXACT_OPT = "exact delta, exact-optimal law"
DG = "discrete Gaussian delta_G (45)"
DG_MATCHED = "discrete Gaussian delta_G (45), variance-matched"


@pytest.fixture(scope="module")
def fig1():
    return r.sadeghi_figure1()


@pytest.fixture(scope="module")
def fig2():
    return r.sadeghi_figure2()


@pytest.fixture(scope="module", params=["a", "b"])
def fig3(request):
    return r.sadeghi_figure3(request.param)


@pytest.fixture(scope="module")
def fig4():
    return r.sadeghi_figure4()


def hockey_stick(p: np.ndarray, x: float) -> float:
    """max over both orders of sum_y (p(y) - x p(y - 1))_+ for a law p on consecutive integers."""
    a = np.concatenate([p, [0.0]])
    b = np.concatenate([[0.0], p])
    return float(max(np.maximum(a - x * b, 0).sum(), np.maximum(b - x * a, 0).sum()))


def assert_exact_below_bound(f: r.CurveFigure, Ds) -> None:
    s = f.panels[0].series
    for D in Ds:
        bound, exact, best = (s[f"D = {D}: {k}"] for k in (BOUND, EXACT, EXACT_OPT))
        assert np.all(exact <= bound), D
        assert np.all(best <= exact * (1 + 1e-7) + 1e-15), D  # the LP optimum is below
        assert np.all((0 < best) & (bound <= 1.0)), D
    assert f.findings["exact_above_bound"] == []


# ------------------------------------------------------------------------------ Fig. 1
def test_fig1_printed_numbers(fig1):
    p, f = r.SADEGHI_FIG1, fig1.findings
    assert fig1.parameters == {"epsilon": 2.18, "eta": 0.8, "D": 6, "sigma2": f["ours"]["variance"]}
    # Sadeghi et al., Section III-B: "eps = 2.18 (E = 8.8463), eta = 0.8 (C = 8)"
    assert round(f["E"], 4) == p["E"] and f["C"] == pytest.approx(p["C"])
    # Section III-B: "7.8867 = C_3 < C <= C_2 = 8.1229"
    assert round(f["crossovers"]["C_2"], 4) == p["C_2"]
    assert round(f["crossovers"]["C_3"], 4) == p["C_3"]
    assert f["crossovers"]["C_3"] < f["C"] <= f["crossovers"]["C_2"] and f["k"] == 3
    # Section III-B: "delta-tilde = delta_3 = 0.0049 according to Theorem 2"
    assert round(f["delta_tilde"], 4) == p["delta_tilde"]
    assert f["delta_tilde"] == max(f["lower_bounds"].values()) == f["lower_bounds"]["delta_3"]
    assert f["case"] == "theorem3" and f["delta_star"] == pytest.approx(f["delta_tilde"])
    # Section III-B: "only alpha_1*, alpha_2* and alpha_3* are non-zero ... supported on [-3:3]"
    assert f["support"] == p["support"]
    assert [a > 0 for a in f["alpha"].values()] == [True] * 3 + [False] * 3
    # Section III-B: "p_Z(+-1) = 0.08987 and p_Z(+-2) = 0.00960"
    assert round(f["ours"]["p(1)"], 5) == p["p_Z(1)"]
    assert round(f["ours"]["p(2)"], 5) == p["p_Z(2)"]
    # Section III-B: "alpha_1*/alpha_2* = 9.3617"
    assert round(f["ours"]["ratio"], 4) == p["alpha_ratio"]
    # Section III-B: "p_G,Z(+-1) = 0.11685 and p_G,Z(+-2) = 0.000416"
    g = f["gaussian_paper"]
    assert round(g["p(1)"], 5) == p["p_G(1)"]
    assert round(g["p(2)"], 6) == p["p_G(2)"]
    # Section III-B: the ratio "can be as large as about 282" -- it is 281.12 (e^(3 / (2
    # sigma^2))); the printed, rounded masses give 280.9: "about 282" is 0.3 % high
    assert round(g["ratio"]) == 281 and abs(g["ratio"] / p["gaussian_ratio"] - 1) < 0.005
    assert g["ratio"] == pytest.approx(math.exp(3 / (2 * g["sigma2_parameter"])))
    # Section III-B: "the smallest eps such that p_Y(n-1|n) <= e^eps p_Y(n-1|n+1) + delta-tilde
    # ... is eps = 5.6, while for our mechanism eps = 2.18 is sufficient"
    assert round(g["epsilon_1_2"], 1) == p["gaussian_epsilon"]
    assert g["singleton_epsilon"] == pytest.approx(g["epsilon_1_2"])  # the worst output pair
    assert f["ours"]["singleton_epsilon"] == pytest.approx(2.18)


def test_fig1_same_variance_is_approximate(fig1):
    f = fig1.findings
    s2 = f["ours"]["variance"]
    # Section III-B: sigma^2 = eta_bar sum_i alpha_i* i^2 is set as the discrete Gaussian's
    # parameter ...
    alpha = np.array(list(f["alpha"].values()))
    assert s2 == pytest.approx(0.2 * float((alpha * np.arange(1, 7) ** 2).sum()))
    g, m = f["gaussian_paper"], f["gaussian_matched"]
    assert g["sigma2_parameter"] == pytest.approx(s2)
    # ... whose actual variance is then 0.2370, not 0.2660 ("identical variance", Fig. 1 caption)
    assert round(s2, 4) == 0.2660 and round(g["variance"], 4) == 0.2370
    # the truly variance-matched discrete Gaussian has parameter sigma^2 = 0.2881
    assert m["variance"] == pytest.approx(s2, rel=1e-12)
    assert round(m["sigma2_parameter"], 4) == 0.2881
    z = np.arange(-30, 31)
    q = DiscreteGaussianLaw(m["sigma"]).pmf(z)
    assert float((z * z * q).sum()) == pytest.approx(s2, rel=1e-12)
    # Fig. 1 caption: "the more graceful transition from z = 1 to z = 2 results in improved
    # privacy" -- the matched discrete Gaussian's step is steep too (ratio 182.5, eps 5.17)
    assert m["ratio"] > 150 and m["epsilon_1_2"] > 5.0


def test_fig1_exact_dp_delta(fig1):
    d = fig1.findings["dp_delta"]
    # Remark 2: (2D+1) delta* = 13 x 0.0049 = 0.0643 bounds the exact delta 0.0154; at this
    # setting alpha* also minimises the exact delta among the laws (14)
    assert round(d[BOUND], 4) == 0.0643 and round(d[EXACT], 4) == 0.0154
    assert d[EXACT_OPT] == pytest.approx(d[EXACT], rel=1e-9)
    # an independent hockey-stick sum over the law (14)
    opt = count.optimum(6, epsilon=2.18, eta=0.8)
    assert hockey_stick(opt.pmf, math.exp(2.18)) == pytest.approx(d[EXACT], abs=1e-12)
    # the discrete Gaussians' exact delta at eps = 2.18 (CKS Theorem 7, eq. (45)) is above both
    # the exact delta and the bound of the count mechanism
    g = fig1.findings["gaussian_paper"]
    z = np.arange(-40, 41)
    q = DiscreteGaussianLaw(g["sigma"]).pmf(z)
    assert hockey_stick(q, math.exp(2.18)) == pytest.approx(g["dp_delta"], abs=1e-12)
    assert round(g["dp_delta"], 4) == 0.1136
    assert round(fig1.findings["gaussian_matched"]["dp_delta"], 4) == 0.1246
    for label in ("discrete Gaussian (paper sigma^2)", "discrete Gaussian (variance-matched)"):
        assert d[label] > d[BOUND] > d[EXACT]


def test_fig1_figure(fig1):
    p = fig1.panels[0]
    assert p.kind == "bars" and p.x.tolist() == list(range(7))
    ours = p.series["optimal law (14), Definition 2"]
    assert ours[0] == pytest.approx(0.8) and np.all(ours[4:] == 0)
    assert ours[0] + 2 * ours[1:].sum() == pytest.approx(1.0)
    axes = fig1.figure.axes
    assert len(axes) == 2 and axes[1].get_yscale() == "log"
    assert len(axes[0].patches) == 3 * 7
    assert fig1.figure._suptitle.get_text().startswith("Sadeghi et al., Fig. 1")


# ------------------------------------------------------------------------------ Fig. 2
def test_fig2_printed_claims(fig2):
    f = fig2.findings
    assert fig2.parameters["eta"] == 0.5 and fig2.parameters["Ds"] == [4, 6, 8]  # Fig. 2 caption
    c = f["claim"]
    # Section IV: "(2D+1) delta* is no greater than 0.001 for D = 8 and eps > 1.1" -- from
    # eps = 1.1 on the grid (1.075 fails), from 1.0979 exactly; it is 0.000857 at 1.1
    assert c["smallest_grid_epsilon"] == 1.1
    assert c["holds_on_grid_from_1.1"] is True
    assert 1.075 < c["threshold_epsilon"] <= 1.1 and round(c["threshold_epsilon"], 4) == 1.0979
    assert round(c["bound_at_1.1"], 6) == 0.000857
    assert count.optimum(8, epsilon=c["threshold_epsilon"], eta=0.5).dp_bound <= 1e-3
    # Section IV: "eta + eta_bar (alpha_1* + alpha_2* + alpha_3*) = 0.9945 for eps = 1.5" -- this
    # is D = 8; D = 6 gives 0.9946 (errata)
    rp = f["range_probability"]
    assert round(rp["D = 8"], 4) == r.SADEGHI_FIG2["range_probability"]
    assert round(rp["D = 6"], 4) == 0.9946
    # the printed Theorem 3 holds on the whole grid (eta = 0.5)
    assert all(cs == "theorem3" for v in f["cases"].values() for cs in v)


def test_fig2_exact_delta_below_the_bound(fig2):
    assert_exact_below_bound(fig2, (4, 6, 8))
    # the bound is 2.1 to 5.4 times the exact delta of the same mechanism
    lo, hi = fig2.findings["bound_over_exact"]["D = 8"]
    assert 2.0 < lo < hi < 6.0
    # both fall steeply where C_D(eps) reaches C = 2 (Theorem 2: delta-tilde becomes delta_{D+1})
    for D in (4, 6, 8):
        e = fig2.findings["type2_epsilon"][f"D = {D}"]
        assert count.crossovers(D, epsilon=e)[-1] == pytest.approx(2.0)
        assert count.optimum(D, epsilon=e + 1e-6, eta=0.5).k == D + 1
    # larger D: a smaller bound past the fall
    s = fig2.panels[0].series
    after = fig2.panels[0].x >= 1.1
    assert np.all(s[f"D = 8: {BOUND}"][after] < s[f"D = 6: {BOUND}"][after])
    assert np.all(s[f"D = 6: {BOUND}"][after] < s[f"D = 4: {BOUND}"][after])


def test_fig2_figure_and_json(fig2):
    ax = fig2.figure.axes[0]
    assert ax.get_yscale() == "log" and len(ax.lines) == 9
    assert ax.get_xlabel() == r"$\varepsilon$"
    d = json.loads(json.dumps(fig2.to_dict()))
    assert d["name"] == "Sadeghi et al., Fig. 2" and len(d["panels"][0]["series"]) == 9


# ------------------------------------------------------------------------------ Fig. 3
def test_fig3_printed_claims(fig3):
    panel = fig3.name[-1]
    spec = r.SADEGHI_FIG3[panel]
    c = fig3.findings["claim"]
    # Fig. 3 caption: eps = 1.1 (left), 2.2 (right)
    assert fig3.parameters["epsilon"] == c["epsilon"] == spec["epsilon"]
    # Section IV: "assuming D = 8, our mechanism provides (1.1, 1e-3)-DP and (2.2, 5e-7)-DP
    # while presenting eta = 0.5 and eta = 0.8": the bound is 0.000857 and 2.76e-7
    assert c["D"] == 8 and c["holds_by_bound"] and c["bound"] <= spec["delta"]
    assert c["case"] == "theorem3"
    expected = {"a": (8.573e-4, 4.035e-4, 7.553e-5), "b": (2.756e-7, 1.297e-7, 1.823e-8)}[panel]
    for key, v in zip(("bound", "exact", "exact_optimal"), expected, strict=True):
        assert c[key] == pytest.approx(v, rel=1e-3), key
    # Section IV: "eps = 1.1 and 2.2 were numerically chosen such that the knee occurs slightly
    # after eta = 0.5 and eta = 0.8": the knee C = C_8(eps) is at 0.5007 and 0.8005, and the
    # largest eta meeting the target is 0.5008 / 0.8005 by the bound, 0.5010 / 0.8005 exactly
    knee = fig3.findings["knee_eta"]["D = 8"]
    assert spec["eta"] < knee < spec["eta"] + 1e-3
    assert spec["eta"] < c["max_eta_bound"] <= c["max_eta_exact"] < spec["eta"] + 2e-3
    assert round(c["max_eta_bound"], 4) == {"a": 0.5008, "b": 0.8005}[panel]
    assert round(c["max_eta_exact"], 4) == {"a": 0.5010, "b": 0.8005}[panel]
    opt = count.optimum(8, epsilon=spec["epsilon"], eta=c["max_eta_bound"])
    assert opt.dp_bound <= spec["delta"] * (1 + 1e-6)


def test_fig3_restored_case_at_small_eta(fig3):
    # errata: the constraint Proposition 4 omits binds at small eta; there the printed Theorem 3
    # (delta-tilde) is below the true delta*
    panel = fig3.name[-1]
    rest = fig3.findings["restored_etas"]
    expected = {"a": [0.025, 0.05, 0.075, 0.1], "b": [0.025]}[panel]
    assert rest["D = 4"] == expected and rest["D = 6"] == expected
    assert rest["D = 8"] == expected[:3] if panel == "a" else rest["D = 8"] == expected
    for D in (4, 6, 8):
        assert fig3.findings["printed_over_true"][f"D = {D}"] < 0.4
        for eta in rest[f"D = {D}"]:
            opt = count.optimum(D, epsilon=fig3.parameters["epsilon"], eta=eta)
            assert opt.case == "restored" and opt.printed_delta < opt.delta


def test_fig3_exact_delta_below_the_bound_and_the_knee(fig3):
    assert_exact_below_bound(fig3, (4, 6, 8))
    eta = fig3.panels[0].x
    s = fig3.panels[0].series
    # Section IV: "there exists a threshold for eta above which (2D+1) delta* grows fast to one"
    for D in (4, 6, 8):
        knee = fig3.findings["knee_eta"][f"D = {D}"]
        b = s[f"D = {D}: {BOUND}"]
        assert b[eta < knee].max() < 0.2 and b[eta > knee + 0.1].min() > 0.5
    ax = fig3.figure.axes[0]
    assert ax.get_yscale() == "log" and ax.get_xlabel() == r"$\eta$" and len(ax.lines) == 12
    # erratum 16: where Theorem 3 fails the figure marks the paper's (lower) values beside
    # the true delta*, and nowhere else
    for D in (4, 6, 8):
        printed = s[f"D = {D}: (2D+1) delta~ as printed (Theorem 3), where it fails"]
        shown = eta[~np.isnan(printed)]
        assert shown.tolist() == fig3.findings["restored_etas"][f"D = {D}"] and shown.size
        assert np.all(printed[~np.isnan(printed)] < s[f"D = {D}: {BOUND}"][~np.isnan(printed)])
    assert "erratum 16" in fig3.figure.get_suptitle()


# ------------------------------------------------------------------------------ Fig. 4
def test_fig4_superior_to_the_discrete_gaussian(fig4):
    f = fig4.findings
    sup = f["superior"]
    assert fig4.parameters["eta"] == 0.5 and fig4.parameters["D"] == 6  # Fig. 4 caption
    # Section IV: "superior to the discrete Gaussian mechanism with the same variance for a wide
    # range of privacy parameters": the bound is below delta_G from eps = 1.1 to the end of the
    # grid (above it below 1.1), against either discrete Gaussian
    for key in ("bound", "bound, variance-matched"):
        assert sup[key]["runs"] == [(1.1, 4.0)] and sup[key]["from"] == 1.1
    # the exact delta is below delta_G from eps = 0.9, and at eps <= 0.2 too
    for key in ("exact", "exact, variance-matched"):
        assert sup[key]["runs"] == [(0.1, 0.2), (0.9, 4.0)] and sup[key]["from"] == 0.9
    # the bound falls where C_6(eps) reaches C = 2, just below 1.1
    assert 1.0 < f["type2_epsilon"] < 1.1
    # Section IV: "both mechanisms perform rather poorly for eps < 1.1, resulting in quite high
    # delta": at least 0.24 (bound) and 0.12 (delta_G) there
    eps = fig4.panels[0].x
    s = fig4.panels[0].series
    low = eps < 1.1
    assert s[BOUND][low].min() > 0.24 and s[DG][low].min() > 0.12
    assert np.all(s[EXACT] <= s[BOUND]) and np.all(s[EXACT_OPT] <= s[EXACT] * (1 + 1e-7))
    assert f["exact_above_bound"] == [] and all(c == "theorem3" for c in f["cases"])


def test_fig4_discrete_gaussian_delta(fig4):
    # eq. (45) at sigma^2 = sigma^2(eta, D, eps), against a direct hockey-stick sum
    eps = fig4.panels[0].x
    s2 = np.asarray(fig4.findings["sigma2"])
    z = np.arange(-60, 61)
    for i in (0, 9, 20, 39):
        opt = count.optimum(6, epsilon=float(eps[i]), eta=0.5)
        assert s2[i] == pytest.approx(opt.variance)
        q = DiscreteGaussianLaw(math.sqrt(s2[i])).pmf(z)
        direct = hockey_stick(q, math.exp(eps[i]))
        assert fig4.series(DG)[i] == pytest.approx(direct, rel=1e-9, abs=1e-15)
        m = r.dg_sigma_for_variance(float(s2[i]))
        assert fig4.series(DG_MATCHED)[i] == pytest.approx(
            DiscreteGaussian(sigma=m).dp_delta(float(eps[i]))
        )
    ax = fig4.figure.axes[0]
    assert ax.get_yscale() == "log" and len(ax.lines) == 5


# ------------------------------------------------------------------------------ helpers, errors
def test_discrete_gaussian_variance_helpers():
    for v in (1e-6, 0.05, 0.266, 1.0, 7.5, 400.0):
        s = r.dg_sigma_for_variance(v)
        assert r.dg_variance(s) == pytest.approx(v, rel=1e-12)
        assert s * s >= v * (1 - 1e-12)  # the discrete Gaussian's variance is below sigma^2
    with pytest.raises(ParameterError):
        r.dg_sigma_for_variance(0.0)


@pytest.mark.parametrize(
    ("call", "kwargs"),
    [
        (r.sadeghi_figure2, {"epsilons": (1.0, 0.5)}),
        (r.sadeghi_figure2, {"epsilons": (-0.1, 1.0)}),
        (r.sadeghi_figure4, {"epsilons": "1.0"}),
        (r.sadeghi_figure4, {"epsilons": (1.0, 11.0)}),
        (r.sadeghi_figure3, {"panel": "c"}),
        (r.sadeghi_figure3, {"etas": (0.5, 1.0)}),
        (r.sadeghi_figure3, {"etas": (0.0, 0.5)}),
    ],
)
def test_invalid_arguments(call, kwargs):
    with pytest.raises(ParameterError) as info:
        call(**kwargs)
    assert isinstance(info.value, RainbowDPError)


def test_small_grids():
    f = r.sadeghi_figure3("b", etas=(0.5, 0.8))
    assert f.panels[0].x.tolist() == [0.5, 0.8] and f.findings["restored_etas"]["D = 8"] == []
    f = r.sadeghi_figure2(epsilons=(0.0, 1.5))
    assert f.series(f"D = 8: {BOUND}")[0] == 1.0  # eps = 0: no privacy from the bound
    assert f.findings["claim"]["smallest_grid_epsilon"] == 1.5


def test_cli_reproduces_the_count_figures(tmp_path, capsys):
    from rainbowdp.cli import main

    for name in ("count-fig1", "count-fig2", "count-fig3a", "count-fig3b", "count-fig4"):
        assert r.TARGETS[name].figure  # reachable alone as `rainbowdp reproduce NAME`
    assert main(["reproduce", "count-fig1", "-o", str(tmp_path / "c1.png"), "--dpi", "20"]) == 0
    out = capsys.readouterr().out
    assert "Sadeghi et al., Fig. 1" in out and (tmp_path / "c1.png").exists()


def test_example1_law_at_plus_one() -> None:
    # Sadeghi et al., Example 1, (4) lists p^(-1,1)(z|1) = 1/4 at z = -1, 1/2 at z = 0 and
    # "0, otherwise": z = +1 gets 0 and the masses sum to 3/4. The law (2) (and the n = 1
    # column of (5)) puts eta_bar |i1| / (i2 + |i1|) = 1/4 there: docs/errata.md item 30.
    law = count.two_point(1, 2, -1, 1, eta=0.5)
    assert law.tolist() == [0.0, 0.25, 0.5, 0.25, 0.0] and law.sum() == 1.0
    checks = {c.key: c for c in r.TARGETS["count-example1"].checks}
    printed = checks["p11_1"].printed
    assert printed.text == "0" and printed.erratum == 30 and printed.corrected == "1/4"
    assert not printed.agrees(law[3]) and printed.corrects(law[3])
    assert {checks[f"p11_{z}"].printed.text for z in (-1, 0)} == {"1/4", "1/2"}
