"""The standard mechanisms against PMFs written independently here (with ``math``), the
discrete Gaussian's nominal δ(ε) against a direct hockey-stick sum, the Gumbel sampler, the
error messages, underflow, and the computed table of ``docs/families.md``."""

from __future__ import annotations

import math
import re
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from scipy import stats

import rainbowdp.noise as noise
from rainbowdp import certify
from rainbowdp.builders import circulant, count_path, cycle, from_records, line
from rainbowdp.exceptions import ParameterError, ParameterTypeError
from rainbowdp.graph import RainbowGraph
from rainbowdp.privacy import epsilon_for_delta

from .reference import reference_rows

FORMS = ["truncated", "clamped", "folded", "modular"]
DOCS = Path(__file__).resolve().parents[2] / "docs" / "families.md"
#: The rows are built at epsilon (1 - 2^-40): relative differences of about |k| 1e-12.
RTOL = 1e-9


# ------------------------------------------------------------------------ independent references
def geometric_pmf(eps: float, sensitivity: int = 1):
    alpha = math.exp(-eps / sensitivity)
    return lambda k: (1 - alpha) / (1 + alpha) * alpha ** abs(k)


def gaussian_pmf(sigma: float):
    reach = int(60 * sigma) + 10
    z = math.fsum(math.exp(-(j * j) / (2 * sigma * sigma)) for j in range(-reach, reach + 1))
    return lambda k: math.exp(-(k * k) / (2 * sigma * sigma)) / z


def staircase_pmf(eps: float, sensitivity: int, gamma: float, reach: int):
    """The continuous staircase density sampled at the integers, renormalised."""

    def density(x: float) -> float:
        x = abs(x)
        j = math.floor(x / sensitivity)
        t = x - j * sensitivity
        return math.exp(-eps * j) * (1.0 if t < gamma * sensitivity else math.exp(-eps))

    z = math.fsum(density(k) for k in range(-reach, reach + 1))
    return lambda k: density(k) / z


# ------------------------------------------------------------------------ rows, every form
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize(("eps", "sens"), [(1.0, 1), (0.3, 1), (0.9, 2)])
def test_geometric_rows(form, eps, sens):
    G = count_path(12, outputs=range(2, 9))
    M = noise.geometric(G, epsilon=eps, form=form, sensitivity=sens)
    ref = reference_rows(geometric_pmf(eps, sens), range(-900, 901), range(13), 2, 8, form)
    np.testing.assert_allclose(M.probabilities, ref, rtol=RTOL, atol=0)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize(("sigma", "sens"), [(1.3, 1), (0.7, 1), (2.5, 3)])
def test_discrete_gaussian_rows(form, sigma, sens):
    G = count_path(10, outputs=range(1, 8))
    M = noise.discrete_gaussian(G, sigma=sigma, form=form, sensitivity=sens)
    ref = reference_rows(
        gaussian_pmf(sigma),
        range(-int(40 * sigma) - 20, int(40 * sigma) + 21),
        range(11),
        1,
        7,
        form,
    )
    np.testing.assert_allclose(M.probabilities, ref, rtol=1e-12, atol=0)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize(
    ("eps", "sens", "gamma"),
    [(1.0, 3, 0.5), (0.6, 2, None), (1.5, 4, 0.0), (1.0, 3, 1.0), (2.0, 5, 0.3)],
)
def test_staircase_rows(form, eps, sens, gamma):
    G = count_path(12, outputs=range(0, 9))
    M = noise.staircase(G, epsilon=eps, gamma=gamma, sensitivity=sens, form=form)
    g = 1 / (1 + math.exp(eps / 2)) if gamma is None else gamma
    reach = int(1000 * sens / eps)
    ref = reference_rows(
        staircase_pmf(eps, sens, g, reach), range(-reach, reach + 1), range(13), 0, 8, form
    )
    np.testing.assert_allclose(M.probabilities, ref, rtol=RTOL, atol=0)


@pytest.mark.parametrize(("eps", "n"), [(1.0, 10), (0.5, 30), (0.1, 100), (2.0, 3)])
def test_truncated_geometric_epsilon_matches_its_closed_form(eps, n):
    # worst edge (0, 1) at output 0: e^eps Z_1 / Z_0 with Z_a = sum_v alpha^|v - a|
    alpha = math.exp(-eps)
    closed = eps + math.log((1 + alpha * (1 - alpha) - alpha**n) / (1 - alpha ** (n + 1)))
    M = noise.geometric(count_path(n), epsilon=eps, form="truncated")
    assert float(epsilon_for_delta(M, 0.0)) == pytest.approx(closed, rel=1e-10)


def test_clamping_as_kadam_eq_56_printed_loses_the_mass_landing_on_n():
    # Kadam et al., eq. (56): F(-q) at 0, f(k - q) inside, 1 - F(n - q) at n (as printed)
    n, eps = 8, 0.7
    pmf = geometric_pmf(eps)

    def cdf(x: int) -> float:
        return math.fsum(pmf(k) for k in range(-2000, x + 1))

    M = noise.geometric(count_path(n), epsilon=eps, form="clamped")
    for q in range(n + 1):
        printed = [cdf(-q)] + [pmf(k - q) for k in range(1, n)] + [1 - cdf(n - q)]
        assert math.fsum(printed) == pytest.approx(1 - pmf(n - q), rel=1e-12)
        corrected = [*printed[:-1], 1 - cdf(n - q - 1)]
        np.testing.assert_allclose(M.probabilities[q], corrected, rtol=RTOL)


def test_staircase_step_and_default_gamma():
    assert noise.Staircase(1.0, gamma=0.5, sensitivity=3).step == 2  # ceil(1.5)
    assert noise.Staircase(1.0, gamma=1 / 3, sensitivity=3).step == 1  # gamma Delta = 1
    assert noise.Staircase(1.0, gamma=0.2, sensitivity=5).step == 1  # the float 0.2 > 1/5
    assert noise.Staircase(1.0, gamma=0.0, sensitivity=3).step == 0
    assert noise.Staircase(1.0, gamma=1.0, sensitivity=3).step == 3
    assert noise.Staircase(2.0).gamma == pytest.approx(1 / (1 + math.e))
    # Delta = 1: the geometric mechanism, whatever gamma
    G = count_path(6)
    for gamma in (0.0, 0.3, 1.0):
        np.testing.assert_allclose(
            noise.staircase(G, epsilon=0.8, gamma=gamma).probabilities,
            noise.geometric(G, epsilon=0.8).probabilities,
            rtol=1e-13,
        )


@pytest.mark.parametrize(("eps", "sens", "gamma"), [(1.0, 3, 0.5), (0.4, 5, 0.2), (2.0, 2, 0.0)])
def test_discrete_staircase_is_exactly_epsilon_dp_under_shifts_up_to_sensitivity(eps, sens, gamma):
    pmf = staircase_pmf(eps, sens, gamma, 4000)
    logs = {k: math.log(pmf(k)) for k in range(-60, 61)}
    worst = max(
        abs(logs[k] - logs[k + s]) for k in range(-60, 61 - sens) for s in range(1, sens + 1)
    )
    assert worst == pytest.approx(eps, rel=1e-12)
    beyond = max(abs(logs[k] - logs[k + sens + 1]) for k in range(-60, 60 - sens))
    assert beyond > eps  # a larger shift is not covered
    # and the library's law is that density (at the build epsilon, inside the safety margin):
    # its clamped rows on a wide range, away from the two end points
    family = noise.Staircase(eps, gamma=gamma, sensitivity=sens)
    P = family.mechanism(count_path(200, outputs=range(-60, 61))).probabilities
    built = staircase_pmf(noise.build_epsilon(eps), sens, gamma, 4000)
    np.testing.assert_allclose(P[0, 1:-1], [built(v) for v in range(-59, 60)], rtol=1e-12)


def test_exponential_rows():
    eps = 1.3
    G = count_path(7, outputs=range(1, 6))
    P = noise.exponential(G, epsilon=eps).probabilities
    for a in range(8):
        w = [math.exp(-eps * abs(v - a) / 2) for v in range(1, 6)]
        np.testing.assert_allclose(P[a], [x / math.fsum(w) for x in w], rtol=RTOL)
    # a custom loss and sensitivity; answers and outputs of any type
    G = from_records(["x", "y"], size=2, query=len, outputs=[0, 1, 2])
    M = noise.exponential(G, epsilon=eps, loss=lambda v, a: (v - a) ** 2, sensitivity=3.0)
    P = M.probabilities
    for i, a in enumerate(G.answers):
        w = [math.exp(-eps * (v - a) ** 2 / 6) for v in (0, 1, 2)]
        np.testing.assert_allclose(P[i], [x / math.fsum(w) for x in w], rtol=RTOL)
    # no answers: the 0/1 loss against the most preferred output
    G = line(["yes", "no"], 2)
    P = noise.exponential(G, epsilon=eps).probabilities
    top = 1 / (1 + math.exp(-eps / 2))
    np.testing.assert_allclose(P, [[top, 1 - top]] * 3, rtol=RTOL)


def test_randomized_response_rows():
    eps = 0.7
    e = math.exp(eps)
    G = noise.RandomizedResponse(eps).graph(4)
    P = noise.randomized_response(G, epsilon=eps).probabilities
    expected = np.full((5, 5), 1 / (e + 4))
    np.fill_diagonal(expected, e / (e + 4))
    np.testing.assert_allclose(P, expected, rtol=RTOL)
    # answers outside the outputs: the most preferred output is the true one
    G = count_path(6, outputs=range(3))
    P = noise.randomized_response(G, epsilon=eps).probabilities
    top = [0, 1, 2, 2, 2, 2, 2]
    np.testing.assert_allclose(P[np.arange(7), top], e / (e + 2), rtol=RTOL)
    # no answers at all
    G = cycle([("a", "b", "c")] * 3 + [("c", "a", "b")] * 2)
    P = noise.randomized_response(G, epsilon=eps).probabilities
    assert np.allclose(P[3], [1 / (e + 2), 1 / (e + 2), e / (e + 2)], rtol=RTOL)


def test_default_graphs():
    G = noise.RandomizedResponse(1.0).graph(3)
    H = from_records(
        range(4), size=1, query=lambda ds: ds[0], outputs=range(4), relation="replace_one"
    )
    assert G.n_edges == H.n_edges == 6 and list(G.answers) == list(H.answers)
    assert [G.rainbow(i) for i in range(4)] == [H.rainbow((i,)) for i in range(4)]
    G = noise.Geometric(1.0).graph(5)
    assert G.n_nodes == 6 and G.outputs == tuple(range(6))


def test_modular_rows_on_a_circulant_are_shifted_wrapped_noise():
    n = 6
    G = circulant(n, [1, 2])
    P = noise.geometric(G, epsilon=0.5, form="modular").probabilities
    # shifts 1 and 2: the graph's sensitivity modulo 7 is 2, so the law is at rate 0.5 / 2
    assert noise.Geometric(0.5, form="modular").for_graph(G).sensitivity == 2
    pmf = geometric_pmf(0.5, sensitivity=2)
    wrapped = [math.fsum(pmf(c + m * (n + 1)) for m in range(-400, 401)) for c in range(n + 1)]
    for qq in range(n + 1):
        np.testing.assert_allclose(
            P[qq], [wrapped[(v - qq) % (n + 1)] for v in range(n + 1)], rtol=RTOL
        )


# ------------------------------------------------------------------------ discrete Gaussian maths
@pytest.mark.parametrize("sigma", [0.2, 0.5, 0.99, 1.0, 1.5, 7.3, 40.0])
def test_discrete_gaussian_normaliser(sigma):
    reach = int(60 * sigma) + 10
    z = math.fsum(math.exp(-(j * j) / (2 * sigma * sigma)) for j in range(-reach, reach + 1))
    law = noise.DiscreteGaussianLaw(sigma)
    assert float(law.pmf(np.array([0]))[0]) == pytest.approx(1 / z, rel=1e-15)
    assert float(np.exp(law.log_pmf(np.array([0]))[0])) == pytest.approx(1 / z, rel=1e-14)


@pytest.mark.parametrize("sigma", [0.6, 1.0, 2.0, 5.5])
@pytest.mark.parametrize("sens", [1, 2, 3])
def test_discrete_gaussian_nominal_delta_is_the_hockey_stick(sigma, sens):
    pmf = gaussian_pmf(sigma)
    reach = int(60 * sigma) + 20
    family = noise.DiscreteGaussian(sigma, sensitivity=sens)
    for eps in (0.0, 0.1, 0.5, 1.0, 2.0, 4.0):
        # H_{e^eps}(N_Z(0, s^2) || N_Z(Delta, s^2)) summed directly
        direct = math.fsum(
            max(0.0, pmf(y) - math.exp(eps) * pmf(y - sens)) for y in range(-reach, reach + sens)
        )
        nominal = family.nominal().dp_delta(eps)
        assert nominal == pytest.approx(direct, rel=1e-12, abs=1e-300)
        assert family.dp_delta(eps) == nominal


def test_pure_claims_convert_to_delta():
    claim = noise.Geometric(math.log(3)).nominal()
    assert claim.pure and claim.dp_delta(0.0) == pytest.approx(0.5)
    assert claim.dp_delta(math.log(3)) == 0.0 and claim.dp_delta(5.0) == 0.0
    # randomized response with two outputs attains the conversion exactly
    G = count_path(1)
    M = noise.randomized_response(G, epsilon=math.log(3))
    from rainbowdp.privacy import privacy_profile

    assert privacy_profile(M, [0.0])[0] == pytest.approx(claim.dp_delta(0.0), rel=1e-9)


# ------------------------------------------------------------------------ Gumbel sampler
def test_gumbel_sampler_matches_the_rows():
    family = noise.Exponential(epsilon=1.5)
    G = count_path(8, outputs=range(6))
    row = family.mechanism(G).row(2)
    draws = family.sample_gumbel(G, 2, 40_000, rng=np.random.default_rng(20240601))
    counts = np.bincount(draws, minlength=6)
    assert counts.sum() == 40_000
    assert stats.chisquare(counts, 40_000 * row).pvalue > 1e-3
    one = family.sample_gumbel(G, 3, rng=np.random.default_rng(1))
    assert one in G.outputs
    labels = noise.Exponential(1.0).sample_gumbel(
        line(["yes", "no"], 1), 0, 5, rng=np.random.default_rng(0)
    )
    assert set(labels.tolist()) <= {"yes", "no"}


# ------------------------------------------------------------------------ errors
def _no_answers_graph() -> RainbowGraph:
    return line(["a", "b"], 2)


BAD = [
    (lambda: noise.Geometric(0.0), ParameterError, ["`epsilon`", "epsilon=0.0"]),
    (lambda: noise.Geometric(-1), ParameterError, ["`epsilon`", "epsilon=-1"]),
    (lambda: noise.Geometric(math.nan), ParameterError, ["`epsilon`", "nan"]),
    (lambda: noise.Geometric("1"), ParameterTypeError, ["`epsilon`", "'1'"]),
    (lambda: noise.Geometric(1.0, form="round"), ParameterError, ["`form`", "form='round'"]),
    (lambda: noise.Geometric(1.0, sensitivity=0), ParameterError, ["`sensitivity`", "=0"]),
    (lambda: noise.Geometric(1.0, sensitivity=1.5), ParameterTypeError, ["`sensitivity`", "1.5"]),
    (lambda: noise.DiscreteGaussian(0.0), ParameterError, ["`sigma`", "sigma=0.0"]),
    (lambda: noise.DiscreteGaussian(2e5), ParameterError, ["`sigma`", "sigma=200000.0"]),
    (lambda: noise.DiscreteGaussian(True), ParameterTypeError, ["`sigma`", "sigma=True"]),
    (lambda: noise.Staircase(1.0, gamma=1.5), ParameterError, ["`gamma`", "gamma=1.5"]),
    (lambda: noise.Staircase(1.0, gamma="x"), ParameterTypeError, ["`gamma`", "'x'"]),
    (lambda: noise.RandomizedResponse(-0.5), ParameterError, ["`epsilon`", "epsilon=-0.5"]),
    (lambda: noise.Exponential(1.0, loss=3), ParameterTypeError, ["`loss`", "loss=3"]),
    (lambda: noise.Exponential(1.0, sensitivity=0), ParameterError, ["`sensitivity`", "=0"]),
    (lambda: noise.get_family("laplace"), ParameterError, ["`name`", "name='laplace'"]),
    (lambda: noise.Geometric(1.0).graph(5000), ParameterError, ["`n`", "n=5000"]),
    (
        lambda: noise.geometric(_no_answers_graph(), epsilon=1.0),
        ParameterError,
        ["`G`", "G.answers is None"],
    ),
    (
        lambda: noise.geometric(count_path(4, outputs=[0, 2, 3]), epsilon=1.0),
        ParameterError,
        ["`G`", "consecutive integers", "[0, 2, 3]"],
    ),
    (
        lambda: noise.geometric(
            RainbowGraph.from_query(nx.path_graph(3), [0, 1, 2], answer=lambda d: d + 0.5),
            epsilon=1.0,
        ),
        ParameterError,
        ["`G`", "integers", "0.5"],
    ),
    (lambda: noise.geometric("G", epsilon=1.0), ParameterTypeError, ["`G`", "str"]),
    (
        lambda: noise.Exponential(1.0, loss=lambda v, a: "far").mechanism(count_path(2)),
        ParameterError,
        ["`loss`", "'far'"],
    ),
    (
        lambda: noise.Exponential(1.0).sample_gumbel(count_path(2), 0, rng=0),
        ParameterTypeError,
        ["`rng`", "rng=0"],
    ),
    (
        lambda: noise.additive_rows([0, 1], range(3), "geometric"),
        ParameterTypeError,
        ["`law`", "'geometric'"],
    ),
    (
        lambda: noise.additive_rows([0, 9], range(3), noise.TableLaw([0.5, 0.5]), form="truncated"),
        ParameterError,
        ["no probability", "answer 9"],
    ),
    (
        lambda: noise.additive_rows([0, 1], range(3), noise.GeometricLaw(0.5), form="wrap"),
        ParameterError,
        ["`form`", "form='wrap'"],
    ),
    (lambda: noise.GeometricLaw(1.0), ParameterError, ["`alpha`", "alpha=1.0"]),
    (lambda: noise.TableLaw([0.5, 0.6]), ParameterError, ["`pmf`", "sum"]),
    (lambda: noise.register(int), ParameterTypeError, ["`cls`", "int"]),
]


@pytest.mark.parametrize(("call", "error", "needles"), BAD)
def test_bad_arguments_name_the_parameter(call, error, needles):
    with pytest.raises(error) as info:
        call()
    message = str(info.value)
    for needle in needles:
        assert needle in message, message


def test_register_refuses_a_second_family_under_a_taken_name():
    class Impostor(noise.Geometric):
        name = "geometric"

    class Unnamed(noise.Geometric):
        name = "not an identifier"

    with pytest.raises(ParameterError, match="identifier"):
        noise.register(Unnamed)
    with pytest.raises(ParameterError, match="already registered"):
        noise.register(Impostor)
    assert noise.get_family("geometric") is noise.Geometric


# ------------------------------------------------------------------------ underflow
def test_truncated_geometric_on_a_long_range_stays_private_in_floats():
    # rows spanning e^-800 would underflow to 0 next to subnormals (no finite epsilon); stored
    # at the floor 2^-1000, the ratios stay within the truncated law's
    G = count_path(400)
    M = noise.geometric(G, epsilon=2.0, form="truncated")
    e = epsilon_for_delta(M, 0.0)
    assert 2.0 < e <= 4.0  # truncation adds at most the normaliser's ratio, e^epsilon
    assert certify(M, epsilon=e).verdict == "private"
    assert noise.Geometric(2.0, form="truncated").holds_on(G) is False


def test_clamped_far_answers_are_floored_and_keep_the_nominal_epsilon():
    G = count_path(600, outputs=range(4))
    M = noise.geometric(G, epsilon=2.0, form="clamped")
    P = M.probabilities
    assert np.all(np.isfinite(P)) and np.abs(P.sum(axis=1) - 1).max() <= 1e-12
    assert P[-1].tolist() == [2.0**-1000, 2.0**-1000, 2.0**-1000, 1.0]
    assert epsilon_for_delta(M, 0.0) <= 2.0  # the nominal guarantee holds for the float rows
    assert noise.Geometric(2.0, form="clamped").holds_on(G) is True


def test_large_count_path_clamped_forms_are_private():
    G = count_path(10**5, outputs=range(32))
    for M in (
        noise.geometric(G, epsilon=1.0, form="clamped"),
        noise.staircase(G, epsilon=1.0, form="clamped"),
    ):
        assert epsilon_for_delta(M, 0.0) <= 1.0


# ------------------------------------------------------------------------ the docs table
def test_docs_table_is_computed_by_the_library():
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(
        r"<!-- guarantee-table:start -->\n(.*?)\n<!-- guarantee-table:end -->", text, re.S
    )
    assert found, "docs/families.md must hold the generated table between its markers"
    assert found.group(1) == noise.format_guarantee_table(noise.guarantee_table())


# ------------------------------------------------------------------------ float extremes
def test_exponential_general_path_floors_entries_that_would_underflow():
    # non-integer outputs take the general path: exp(-30 * 60 / 2) would underflow to 0
    G = count_path(60, outputs=[x + 0.5 for x in range(61)])
    family = noise.Exponential(30.0)
    M = family.mechanism(G)
    assert M.probabilities.min() == 2.0**-1000
    assert family.holds_on(G) is True
    assert epsilon_for_delta(M, 0.0) <= 30.0
    G = count_path(1600)  # a custom loss: general path too
    M = noise.exponential(G, epsilon=1.0, loss=lambda v, a: abs(v - a))
    assert epsilon_for_delta(M, 0.0) <= 1.0


def test_exponential_holds_on_uses_the_loss_the_mechanism_uses():
    # a non-numeric output switches the default loss to 0/1, whose sensitivity is 1 > 0.25
    g = nx.path_graph(2)
    G = RainbowGraph.from_query(g, [0, 0.25, "x"], answer={0: 0, 1: 0.25})
    family = noise.Exponential(1.0, sensitivity=0.25)
    assert family.holds_on(G) is False
    with pytest.raises(ParameterError) as info:
        family.mechanism(G)
    text = str(info.value)
    assert "sensitivity=0.25" in text and "the loss's sensitivity on the graph 1.0" in text
    assert "edge (0, 1), answers 0 and 0.25" in text
    assert noise.Exponential(1.0).for_graph(G).sensitivity == 1.0  # the 0/1 loss's, from G
    assert noise.Exponential(1.0).holds_on(G) is True
    assert epsilon_for_delta(noise.exponential(G, epsilon=1.0), 0.0) <= 1.0


@pytest.mark.parametrize("eps", [600.0, 700.0, 709.0, 725.72, 750.0, 1e4])
def test_randomized_response_at_huge_epsilon_stays_private(eps):
    G = count_path(2)
    M = noise.randomized_response(G, epsilon=eps)
    assert epsilon_for_delta(M, 0.0) <= eps
    assert M.probabilities.min() >= 2.0**-1000


@pytest.mark.parametrize(
    ("answers", "match"),
    [
        ([1e19, 0.0], "at most 4503599627370496"),
        (np.array([2**64 - 1, 0], dtype=np.uint64), "18446744073709551615"),
        (np.array([-(2**63), 0], dtype=np.int64), "-9223372036854775808"),
        ([2**70, 0], "1180591620717411303424"),
    ],
)
def test_huge_answers_are_rejected(answers, match):
    with pytest.raises(ParameterError, match=match):
        noise.additive_rows(answers, range(3), noise.GeometricLaw(0.5), form="modular")


def test_law_parameters_are_typed():
    with pytest.raises(ParameterTypeError, match="`rate`"):
        noise.StaircaseLaw("a")
    with pytest.raises(ParameterTypeError, match="`alpha`"):
        noise.GeometricLaw("x")
    with pytest.raises(ParameterError, match="`sigma` must be in"):
        noise.DiscreteGaussian(1e-170)
    with pytest.raises(ParameterError, match="`sigma` must be in"):
        noise.DiscreteGaussianLaw(1e-170)


def test_table_law_is_renormalised():
    rows = noise.additive_rows([0, 1], range(3), noise.TableLaw([0.5, 0.5 + 5e-10]), form="clamped")
    assert np.abs(rows.sum(axis=1) - 1).max() <= 1e-15


def test_holds_on_is_cheap_on_dense_graphs():
    # the complete graph on 401 answers has 80 200 edges x 401 outputs: chunked, not one array
    G = noise.RandomizedResponse(1.0).graph(400)
    # sensitivity 400 from the graph: the truncated rows at rate 1/400 are proved 1-DP
    assert noise.Geometric(1.0, form="truncated").holds_on(G) is True
    assert noise.Geometric(1.0, form="truncated", sensitivity=1).holds_on(G) is False
    # on a count path the truncated rows exceed epsilon: found by the chunked log-space check
    assert noise.Geometric(1.0, form="truncated").holds_on(count_path(3000)) is False
    assert noise.Exponential(1.0, sensitivity=400.0).holds_on(G) is True
