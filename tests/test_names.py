"""One name per concept (docs/conventions.md, "Names"): every old name still works for one
release, warns, names the new one, and gives exactly what the new name gives."""

from __future__ import annotations

import warnings

import pytest

from rainbowdp import interop, peer_rules
from rainbowdp.noise import DiscreteGaussian, count, modulo, tablebuilder
from rainbowdp.noise._family import Claim

PAIR = interop.Pair("d", "d'", [0.75, 0.25], [0.25, 0.75])
CLAIM = Claim(1.0, "a paper, Theorem 1")
DG = DiscreteGaussian(sigma=2.0)
TB = tablebuilder.TableBuilder(3, gamma=0.4)

# (old callable, new callable, the new name the warning gives, arguments, keyword arguments)
CASES = [
    (PAIR.delta, PAIR.dp_delta, "Pair.dp_delta", (0.0,), {}),
    (CLAIM.delta, CLAIM.dp_delta, "Claim.dp_delta", (0.5,), {}),
    (DG.delta_at, DG.dp_delta, "DiscreteGaussian.dp_delta", (0.5,), {}),
    (TB.delta, TB.dp_delta, "TableBuilder.dp_delta", (1.0,), {}),
    (tablebuilder.delta, tablebuilder.dp_delta, "tablebuilder.dp_delta", (1.0, 0.3, 4), {}),
    (tablebuilder.best_delta, tablebuilder.min_delta, "tablebuilder.min_delta", (1.0, 4), {}),
    (
        count.optimal_delta,
        count.min_delta,
        "count.min_delta",
        (3,),
        {"epsilon": 1.0, "eta": 0.6},
    ),
    (
        modulo.leakage,
        modulo.pdp_delta,
        "modulo.pdp_delta",
        ([0.5, 0.25, 0.25],),
        {"epsilon": 0.5, "shifts": [1], "reading": "paper"},
    ),
    (
        peer_rules.discrete_gaussian_delta,
        peer_rules.discrete_gaussian_dp_delta,
        "discrete_gaussian_dp_delta",
        (2.0, 1.0),
        {},
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "new_name", "args", "kwargs"), CASES, ids=[c[2] for c in CASES]
)
def test_an_old_name_warns_names_the_new_one_and_gives_the_same(old, new, new_name, args, kwargs):
    expected = new(*args, **kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = old(*args, **kwargs)
    assert [w.category for w in caught] == [DeprecationWarning]
    assert f"use `{new_name}`" in str(caught[0].message)
    assert caught[0].filename == __file__  # the warning points at the caller
    assert got == expected
