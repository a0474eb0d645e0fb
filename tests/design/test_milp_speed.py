"""The MILP's speed-ups change nothing but speed: the big-M derived from the bounds and the warm
start from the (ε, 0)-DP optimum reach the optimum of the printed formulation (unit big-M, no
start), and the result certifies."""

from __future__ import annotations

import importlib
import itertools

import numpy as np
import pytest

from rainbowdp import certify
from rainbowdp.design import lp, milp
from rainbowdp.graph import RainbowGraph
from rainbowdp.privacy import pdp_delta

_milp = importlib.import_module("rainbowdp.design._milp")
_highs = importlib.import_module("rainbowdp.design._highs")


def random_graph(n: int, m: int, q: int, seed: int) -> RainbowGraph:
    rng = np.random.default_rng(seed)
    keys: set[tuple[int, int]] = set()
    while len(keys) < m:
        u, v = (int(x) for x in rng.integers(0, n, 2))
        if u != v:
            keys.add((min(u, v), max(u, v)))
    perms = np.array(list(itertools.permutations(range(q))))
    return RainbowGraph.from_edges(
        np.array(sorted(keys)),
        outputs=list(range(q)),
        rainbow_table=perms,
        rainbow_ids=rng.integers(0, len(perms), n),
    )


@pytest.mark.parametrize(
    ("seed", "kw"),
    [
        (0, {}),
        (1, {"fixed": {0: [0.5, 0.3, 0.2]}}),
        (2, {"formulation": "kadam13"}),
    ],
)
def test_tight_big_m_and_warm_start_keep_the_optimum(seed, kw, monkeypatch):
    G = random_graph(10, 15, 3, seed)
    eps, dlt = 0.5, 0.1
    starts = []
    real = _highs.HighsModel.set_start

    def spy(self, x):
        starts.append(x)
        real(self, x)

    monkeypatch.setattr(_highs.HighsModel, "set_start", spy)
    new = milp(G, epsilon=eps, delta=dlt, utility="rank", solver="highs", **kw)
    if "fixed" not in kw:  # free rows, untied: every tie waived, the pure-DP point is feasible
        assert len(starts) == 1
    monkeypatch.setattr(_milp, "TIGHT_BIG_M", False)
    monkeypatch.setattr(_milp, "WARM_START", False)
    old = milp(G, epsilon=eps, delta=dlt, utility="rank", solver="highs", **kw)
    assert len(starts) <= 1  # no start offered by the old settings
    assert new.objective == pytest.approx(old.objective, abs=1e-6)
    assert new.n_variables == old.n_variables and new.n_constraints == old.n_constraints
    fixed = kw.get("fixed")
    pure = lp(G, epsilon=eps, utility="rank", fixed=fixed).objective
    assert new.objective >= pure - 1e-4  # at least the warm start's value (up to the margin)
    assert pdp_delta(new.mechanism, eps) <= dlt
    assert certify(new.mechanism, epsilon=eps, delta=dlt).verdict == "private"


def test_warm_start_is_a_feasible_point_of_the_model(monkeypatch):
    # the start offered is checked against every row: rebuild one and look at it directly
    G = random_graph(8, 12, 3, 3)
    seen = []
    real = _highs.HighsModel.solve

    def keep(self, solver, time_limit):
        seen.append(self)
        return real(self, solver, time_limit)

    monkeypatch.setattr(_highs.HighsModel, "solve", keep)
    milp(G, epsilon=0.5, delta=0.1, utility="rank", solver="highs")
    lp_model, mb = seen  # the (eps, 0) LP of the start, then the MILP
    assert lp_model.n_integer == 0 and lp_model.start is None and mb.n_integer > 0
    assert mb.start is not None
    lo, hi, integer = mb.columns()
    x = mb.start
    assert np.all(x >= lo) and np.all(x <= hi)
    assert np.array_equal(x[integer], np.round(x[integer]))
    assert mb.residuals(x).max() <= 1e-9
    assert float(mb.cost @ x) <= float(mb.cost @ mb.values(np.arange(mb.n_cols))) + 1e-9
