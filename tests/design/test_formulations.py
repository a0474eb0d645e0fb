"""The contract of the formulation registry: every registered model is named, described, cites
its paper, solves its example to a mechanism that certifies private at the stated (ε, δ), and
agrees with an independent route (its ``check``: a closed form, a brute force over leak sets,
another designer on the same instance)."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rainbowdp as rdp
from rainbowdp.design import FORMULATIONS, DesignResult, Formulation, get_formulation
from rainbowdp.design.formulations import register
from rainbowdp.exceptions import ParameterError

#: rainbowdp's own general models (no paper reference required).
GENERAL = {"lp", "milp", "min-delta"}

#: The models of the four papers and the general ones, by name (old spellings as aliases): the
#: designers of every paper family are registered formulations.
REQUIRED = {
    "lp": "lp",
    "milp": "milp",
    "min-delta": "lp",
    "kadam13-printed": "milp",
    "kadam13-per-node": "milp",
    "kadam15-min-delta": "milp",
    "kadam13-fixed-leaks": "lp",
    "sadeghi-lp9-13": "lp",
    "sadeghi-law-lp": "lp",
    "ptable-optimal-law": "lp",
    "ptable-optimal": "lp",
}
ALIASES = {
    "kadam13": "kadam13-per-node",
    "printed": "kadam13-printed",
    "definition": "milp",
    "kadam15": "kadam15-min-delta",
}

NAMES = sorted(FORMULATIONS)


def design_of(result: object) -> DesignResult:
    """The DesignResult of a designer's result (itself, or the one a family result holds)."""
    if isinstance(result, DesignResult):
        return result
    inner = getattr(result, "design", None)
    assert isinstance(inner, DesignResult), f"{type(result).__name__} holds no DesignResult"
    return inner


def test_required_formulations_are_registered():
    for name, kind in REQUIRED.items():
        assert FORMULATIONS[name].kind == kind
    for alias, name in ALIASES.items():
        assert get_formulation(alias) is FORMULATIONS[name]


def test_unknown_and_duplicate_names_are_refused():
    with pytest.raises(ParameterError, match=r"unknown formulation.*known: .*lp"):
        get_formulation("no-such-model")
    f = FORMULATIONS["lp"]
    with pytest.raises(ParameterError, match="already registered"):
        register(f)
    with pytest.raises(ParameterError, match="already registered"):
        register(Formulation("lp-copy", "lp", "", "x", f.solve, f.example, aliases=("printed",)))
    with pytest.raises(TypeError):
        register("lp")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", NAMES)
def test_entry_is_described(name):
    f = FORMULATIONS[name]
    assert f.name == name and name == name.lower() and " " not in name
    assert f.kind in ("lp", "milp")
    assert f.summary and "\n" not in f.summary
    if name not in GENERAL:
        assert f.reference, f"{name}: a paper formulation must cite where it is printed"
    assert callable(f.solve) and callable(f.example)
    assert not set(f.aliases) & set(FORMULATIONS)


def test_names_and_aliases_are_unique():
    every = [n for f in FORMULATIONS.values() for n in (f.name, *f.aliases)]
    assert len(every) == len(set(every))


@pytest.mark.parametrize("name", NAMES)
def test_example_solves_private_and_agrees(name):
    f = FORMULATIONS[name]
    params = f.example()
    t0 = time.perf_counter()
    result = f.solve(**params)
    seconds = time.perf_counter() - t0
    assert seconds < 10, f"{name}: the example took {seconds:.1f} s"
    d = design_of(result)
    assert d.status == "optimal"
    assert d.achieved_delta <= d.delta
    verdict = rdp.certify(d.mechanism, epsilon=d.epsilon, delta=d.delta).verdict
    assert verdict == "private", f"{name}: {verdict}"
    if d.method == "milp":  # probabilistic DP at (eps, delta), the MILPs' guarantee
        assert rdp.privacy.pdp_delta(d.mechanism, d.epsilon) <= d.delta
    assert f.check is not None, f"{name}: no independent route registered (Formulation.check)"
    assert f.check(result, **params), f"{name}: disagrees with its independent route"


# ------------------------------------------------------------------ randomized cross-checks
SMALL = settings(max_examples=5, deadline=None, derandomize=True)


@SMALL
@given(st.floats(0.1, 2.0), st.floats(0.02, 0.4), st.sampled_from(["accuracy", "rank"]))
def test_milps_equal_the_brute_force_over_leak_sets(eps, dlt, utility):
    from rainbowdp.design._registered import _three_nodes, brute_force_pdp

    G = _three_nodes()
    for name, per_node in (("milp", False), ("kadam13-per-node", True)):
        res = FORMULATIONS[name].solve(G, epsilon=eps, delta=dlt, utility=utility)
        best = brute_force_pdp(G, epsilon=eps, delta=dlt, utility=utility, per_node=per_node)
        assert best - 1e-5 <= res.objective <= best + 1e-9


@SMALL
@given(
    st.integers(2, 5).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n))),
    st.floats(0.2, 2.0),
    st.floats(0.0, 0.5),
)
def test_printed_milp_equals_the_brute_force_and_closed_form(n_mu, eps, dlt):
    from rainbowdp.design._registered import _circulant_example, brute_force_printed
    from rainbowdp.noise import modulo

    n, mu = n_mu
    G, T, rho = _circulant_example(n, [mu])
    res = FORMULATIONS["kadam13-printed"].solve(G, epsilon=eps, delta=dlt, tied=T, distortion=rho)
    got = -res.objective / G.n_nodes
    best = brute_force_printed(G, epsilon=eps, tied=T, distortion=rho, delta=dlt)
    assert best - 1e-9 <= got <= best + 1e-5
    # single distance: Theorem 2 (rebuilt) is the closed form of the same optimum
    f = modulo.sd_pmf(n, epsilon=eps, delta=dlt, mu=mu)
    assert math.isclose(1 - f[0], got, abs_tol=2e-5)


def test_per_node_is_never_above_definition():
    from rainbowdp.design._registered import _three_nodes

    G = _three_nodes()
    kw = {"epsilon": 0.4, "delta": 0.15, "utility": "rank"}
    a = FORMULATIONS["milp"].solve(G, **kw).objective
    b = FORMULATIONS["kadam13-per-node"].solve(G, **kw).objective
    assert b <= a + 1e-9
    # and both lie between the LP at (eps, 0) and at (eps, delta) (PDP implies DP)
    lo = rdp.design.lp(G, epsilon=0.4, delta=0.0, utility="rank").objective
    hi = rdp.design.lp(G, epsilon=0.4, delta=0.15, utility="rank").objective
    assert lo - 1e-5 <= b and a <= hi + 1e-9


def test_fixed_leaks_reaches_the_printed_optimum_at_its_leak_set():
    from rainbowdp.design._registered import _circulant_example

    G, T, rho = _circulant_example(8, [1, 2, 3])
    kw = {"epsilon": 1.5, "delta": 0.1238, "tied": T, "distortion": rho}
    printed = FORMULATIONS["kadam13-printed"].solve(G, **kw)
    f = printed.mechanism.probabilities[0]
    assert round(float(f[0]), 4) == 0.5548  # Kadam et al., Table 1
    x = math.exp(1.5)
    leaks = np.array([any(f[e] > x * f[(e + mu) % 9] for mu in (1, 2, 3)) for e in range(9)])
    assert leaks.sum() == 1
    polished = FORMULATIONS["kadam13-fixed-leaks"].solve(G, leaks=leaks, **kw)
    assert polished.objective == pytest.approx(printed.objective, abs=1e-9)


def test_kadam_designers_name_a_bad_argument():
    from rainbowdp.builders import circulant
    from rainbowdp.design import kadam13_fixed_leaks, kadam15_min_delta
    from rainbowdp.exceptions import ParameterTypeError

    T = (np.arange(9)[None, :] - np.arange(9)[:, None]) % 9
    G = circulant(8, [1, 2, 3], directed=True)
    rho = 1.0 * (np.arange(9) > 0)
    for bad in ("0.5", True):
        with pytest.raises(ParameterTypeError, match="`max_distortion`"):
            kadam15_min_delta(G, epsilon=1.5, tied=T, distortion=rho, max_distortion=bad)
    for bad in (np.full(9, 0.5), ["a"] * 9, np.full(9, 2)):
        with pytest.raises(ParameterTypeError, match="`leaks`"):
            kadam13_fixed_leaks(G, epsilon=1.5, delta=0.0, tied=T, distortion=rho, leaks=bad)
    with pytest.raises(ParameterError, match="`leaks`"):
        kadam13_fixed_leaks(G, epsilon=1.5, delta=0.0, tied=T, distortion=rho, leaks=[0, 1])
