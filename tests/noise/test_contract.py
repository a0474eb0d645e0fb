"""The family contract, run on every registered family and each of its examples.

As networkx runs one test over all of its strategies, every family in ``noise.FAMILIES`` is
checked here against the exact verifier: a family added with ``@register`` is picked up
without a new test.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

import rainbowdp.noise as noise
from rainbowdp import certify
from rainbowdp.exceptions import ParameterError, ParameterTypeError
from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism
from rainbowdp.privacy import epsilon_for_delta, privacy_profile

#: ε grid of the profile claims (the discrete Gaussian) and δ values of their self-consistency.
PROFILE_EPSILONS = [0.0, 0.25, 0.5, 1.0, 2.0, 3.0]
PROFILE_DELTAS = [1e-6, 1e-3, 0.05]


def resolved(family, G):
    """The family as built on G: its sensitivity filled in from the graph where it has one."""
    return family.for_graph(G) if hasattr(family, "for_graph") else family


CASES = [
    pytest.param(family, G, id=f"{name}-{i}-{getattr(family, 'form', 'rows')}")
    for name, cls in sorted(noise.FAMILIES.items())
    for i, (family, G) in enumerate(cls.examples())
]


def test_registry_lists_every_standard_family():
    assert set(noise.FAMILIES) >= {
        "geometric",
        "discrete_gaussian",
        "randomized_response",
        "exponential",
        "staircase",
    }
    with pytest.raises(TypeError):
        noise.FAMILIES["other"] = noise.Geometric  # read-only
    for name, cls in noise.FAMILIES.items():
        assert noise.get_family(name) is cls
        assert cls.name == name and issubclass(cls, noise.Family)
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen
        assert isinstance(cls.summary, str) and "\n" not in cls.summary
        doc = cls.__doc__ or ""
        assert "References" in doc and "Notes" in doc, name


@pytest.mark.parametrize("cls", sorted(noise.FAMILIES.values(), key=lambda c: c.name))
def test_each_family_has_examples_and_a_default_graph(cls):
    examples = cls.examples()
    assert len(examples) >= 4
    for family, G in examples:
        assert isinstance(family, cls) and isinstance(G, RainbowGraph)
    family = examples[0][0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        family.epsilon = 2.0
    G = family.graph(5)
    M = family.mechanism(G)
    assert isinstance(M, Mechanism) and M.graph is G
    if getattr(family, "form", "clamped") != "truncated":
        assert family.holds_on(G) is True
    if type(family).optimum is noise.Family.optimum:  # no closed form: the base raises
        with pytest.raises(NotImplementedError):
            family.optimum()


@pytest.mark.parametrize(("family", "G"), CASES)
def test_mechanism_is_valid(family, G):
    M = family.mechanism(G)
    assert isinstance(M, Mechanism) and M.graph is G
    P = M.probabilities
    assert P.shape == (G.n_nodes, G.n_outputs) and P.dtype == np.float64
    assert np.all(np.isfinite(P)) and P.min() >= 0
    assert np.abs(P.sum(axis=1) - 1).max() <= 1e-12
    assert np.array_equal(Mechanism(G, P).probabilities, P)  # the public constructor agrees


@pytest.mark.parametrize(("family", "G"), CASES)
def test_proved_epsilon_is_certified(family, G):
    M = family.mechanism(G)
    claim = resolved(family, G).nominal()
    finite = 0
    for d in [0.0] if claim.pure else PROFILE_DELTAS:
        e = float(epsilon_for_delta(M, d))
        if math.isinf(e):
            # no epsilon works: even at a saturating epsilon the divergence exceeds d (mass on
            # outputs a neighbour never produces, e.g. the zeros of an optimal modulo PMF)
            assert privacy_profile(M, [800.0])[0] > d, (family, d)
            continue
        finite += 1
        assert certify(M, epsilon=e, delta=d).verdict == "private", (family, d, e)
    assert finite or not claim.pure


@pytest.mark.parametrize(("family", "G"), CASES)
def test_nominal_against_exact(family, G):
    M = family.mechanism(G)
    claim = resolved(family, G).nominal()
    holds = family.holds_on(G)
    assert holds in (True, False, None)
    assert isinstance(claim, noise.Claim) and claim.source
    if claim.pure:
        assert claim.dp_delta(claim.epsilon) == 0.0
        exact = float(epsilon_for_delta(M, 0.0))
        if holds is True:
            assert exact <= claim.epsilon  # upper bound on the exact epsilon: no slack needed
        elif holds is False:
            assert exact > claim.epsilon
    else:
        assert math.isinf(claim.epsilon)
        exact = privacy_profile(M, PROFILE_EPSILONS)
        stated = np.array([claim.dp_delta(e) for e in PROFILE_EPSILONS])
        if holds is True:
            # the stored float64 rows meet the claim within its documented round-off tolerance
            # (0 for pure claims, 2^-44 for the discrete Gaussian; see Claim.tolerance)
            assert np.all(exact <= stated + claim.tolerance), exact - stated
        elif holds is False:
            assert np.any(exact > stated)


@pytest.mark.parametrize("name", sorted(noise.FAMILIES))
def test_every_family_asserts_its_claim_somewhere(name):
    # the contract means something only if each family claims its guarantee on some example
    assert any(f.holds_on(G) is True for f, G in noise.FAMILIES[name].examples())


def test_truncation_is_known_to_fail_for_the_pure_additive_families():
    for cls in (noise.Geometric, noise.Staircase):
        verdicts = [
            f.holds_on(G) for f, G in cls.examples() if getattr(f, "form", "") == "truncated"
        ]
        assert False in verdicts, cls.name


def test_convenience_functions_build_the_family_mechanism():
    from rainbowdp.builders import count_path

    G = count_path(6)
    pairs = [
        (noise.geometric(G, epsilon=0.5, form="folded"), noise.Geometric(0.5, form="folded")),
        (noise.discrete_gaussian(G, sigma=1.2), noise.DiscreteGaussian(1.2)),
        (noise.randomized_response(G, epsilon=0.5), noise.RandomizedResponse(0.5)),
        (noise.exponential(G, epsilon=0.5), noise.Exponential(0.5)),
        (noise.staircase(G, epsilon=0.5, sensitivity=2), noise.Staircase(0.5, sensitivity=2)),
    ]
    for M, family in pairs:
        assert np.array_equal(M.probabilities, family.mechanism(G).probabilities)


def test_the_docs_example_family_meets_the_contract(monkeypatch):
    # docs/families.md, "Writing a family": the example runs, validates, and keeps its claim
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "families.md").read_text("utf-8")
    section = text.split("### Writing a family", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, flags=re.S).group(1)
    monkeypatch.setattr(noise, "register", lambda cls: cls)  # keep FAMILIES as it is
    import sys
    import types

    module = types.ModuleType("docs_families_example")  # dataclasses look their module up
    monkeypatch.setitem(sys.modules, module.__name__, module)
    exec(compile(code, "docs/families.md", "exec"), module.__dict__)
    cls = module.AlphaGeometric
    for family, G in cls.examples():
        M = family.mechanism(G)
        e = float(epsilon_for_delta(M, 0.0))
        assert certify(M, epsilon=e).verdict == "private"
        if family.holds_on(G):
            assert e <= resolved(family, G).nominal().epsilon
    with pytest.raises(ParameterError, match="sensitivity"):
        cls(0.5, sensitivity=0)
    with pytest.raises(ParameterTypeError, match="alpha"):
        cls("x")
    with pytest.raises(ParameterError, match=r"alpha=1\.0"):
        cls(1.0)
    # the example declares its parameters as data, as the registry requires
    assert [p.name for p in cls.parameters] == [f.name for f in _init_fields(cls)]
    assert "__post_init__" not in cls.__dict__


# ------------------------------------------------------------------------ parameter declarations
def _declaring(name):
    return pytest.param(noise.FAMILIES[name], id=name)


def _init_fields(cls):
    return [f for f in dataclasses.fields(cls) if f.init]


@pytest.mark.parametrize("cls", [_declaring(name) for name in sorted(noise.FAMILIES)])
def test_every_family_declares_its_parameters(cls):
    # one declaration per constructor argument, in order, with the dataclass's default
    declared = cls.parameters
    assert declared and all(isinstance(p, noise.Parameter) for p in declared)
    fields = _init_fields(cls)
    assert [p.name for p in declared] == [f.name for f in fields]
    for p, f in zip(declared, fields, strict=True):
        assert p.doc and "\n" not in p.doc, p.name
        if f.default is dataclasses.MISSING:
            assert p.required and p.default is noise.REQUIRED, p.name
        else:
            assert not p.required and p.default == f.default, p.name


def _declared():
    for name, cls in sorted(noise.FAMILIES.items()):
        for p in cls.parameters:
            yield pytest.param(cls, p, id=f"{name}-{p.name}")


def _outside(p):
    """Values outside the declaration of ``p``: (value, error class, text the message echoes)."""
    bad = []
    if not p.optional:
        bad.append((None, noise.Parameter, "None"))
    lo, hi = p.domain
    if p.kind == "real":
        if math.isfinite(lo):
            x = lo if not p.inclusive[0] else math.nextafter(lo, -math.inf)
            bad.append((x, ParameterError, repr(x)))
        if math.isfinite(hi):
            x = hi if not p.inclusive[1] else math.nextafter(hi, math.inf)
            bad.append((x, ParameterError, repr(x)))
        bad += [(math.nan, ParameterError, "nan"), (math.inf, ParameterError, "inf")]
        bad += [("1", ParameterTypeError, "'1'"), (True, ParameterTypeError, "True")]
    elif p.kind in ("integer", "integers"):
        wrap = (lambda v: (v,)) if p.kind == "integers" else (lambda v: v)
        if math.isfinite(lo):
            bad.append((wrap(int(lo) - 1), ParameterError, repr(int(lo) - 1)))
        if math.isfinite(hi):
            bad.append((wrap(int(hi) + 1), ParameterError, repr(int(hi) + 1)))
        bad += [(wrap(1.5), ParameterTypeError, "1.5"), (wrap(True), ParameterTypeError, "True")]
        if p.kind == "integers":
            bad += [((), ParameterError, "()"), ("12", ParameterTypeError, "'12'")]
    elif p.kind == "choice":
        bad += [("no such choice", ParameterError, "'no such choice'"), (1, ParameterError, "1")]
    else:
        bad.append((3, ParameterTypeError, "3"))
    return bad


@pytest.mark.parametrize(("cls", "p"), list(_declared()))
def test_the_validator_rejects_values_outside_each_declaration(cls, p):
    family = cls.examples()[0][0]
    for value, error, echoed in _outside(p):
        if error is noise.Parameter:  # None where it is not allowed: a type error
            error = ParameterTypeError if p.kind != "choice" else ParameterError
        with pytest.raises(error) as info:
            dataclasses.replace(family, **{p.name: value})
        message = str(info.value)
        assert f"`{p.name}`" in message and echoed in message, (value, message)


@pytest.mark.parametrize(("cls", "p"), list(_declared()))
def test_declared_defaults_are_valid_and_offered_on_the_command_line(cls, p):
    import argparse

    family = cls.examples()[0][0]
    if not p.required:
        assert p.check(p.default) == p.default or p.default is None
        rebuilt = dataclasses.replace(family, **{p.name: p.default})
        assert isinstance(rebuilt, cls)
    # the value the family stores passes its own declaration unchanged
    value = getattr(family, p.name)
    assert p.check(value) == value or callable(value)
    if p.on_command_line:
        parser = argparse.ArgumentParser()
        parser.add_argument(p.option, **p.argparse_kwargs())
        if not p.required:
            assert getattr(parser.parse_args([]), p.name) == p.argparse_kwargs()["default"]
    else:
        with pytest.raises(ParameterError, match=p.name):
            p.argparse_kwargs()


def test_register_checks_the_declarations():
    class Swapped(noise.Geometric):
        name = "declared_wrongly"
        parameters = (noise.SENSITIVITY_PARAMETER, *noise.Geometric.parameters[:2])

    class WrongDefault(Swapped):
        parameters = (
            noise.Geometric.parameters[0],
            noise.Parameter("form", "choice", "f", choices=noise.FORMS, default="folded"),
            noise.SENSITIVITY_PARAMETER,
        )

    class BadDefault(Swapped):
        parameters = (
            *noise.Geometric.parameters[:2],
            noise.Parameter("sensitivity", "integer", "s", domain=(2, 9), default=None),
        )

    with pytest.raises(ParameterError, match="in their order"):
        noise.register(Swapped)
    with pytest.raises(ParameterError, match="default of 'form'"):
        noise.register(WrongDefault)
    with pytest.raises(ParameterTypeError, match="`sensitivity`"):
        noise.register(BadDefault)
    assert "declared_wrongly" not in noise.FAMILIES
