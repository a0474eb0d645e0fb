"""``Ptable.from_parameters``: the count ptable of the R package ``ptable`` rebuilt from D, V,
js, pstay and mono, its audit, and the comparison with rainbowdp's design.

Oracles
-------
- ``fixtures/ptable_*.csv``: tables written by ``ptable`` 0.3.3's own R code (R 4.2, nloptr
  2.0.3; ``fixtures/README.md`` gives each file's R call): ``pt_ex_cnts()``,
  ``create_cnt_ptable(D=5, V=3, js=2, pstay=0.5)`` (cellKey 1.0.2's test table), ``mono``
  binding (D=3, V=2), ``pstay`` binding (D=3, V=1, pstay=0.45) and relaxed (pstay=0.6), and
  the default parameters D=3/V=1, D=5/V=2, D=10/V=5.
- ptable 1.0.0 ``tests/testthat/test-examples.R`` ("Example is correct"): the p vector of
  ``pt_ex_cnts()``.
- cellKey 1.0.2 ``tests/testthat/test_countvars.R`` ("checking perturbation parameters for
  counts"): the D=5, V=3, js=2, pstay=0.5 table has 66 lines and means of p, p_int_lb,
  p_int_ub, v of 0.136, 0.562, 0.698, 1.045; ``test_params_cnts`` expects max(i) = 8.
- ``fixtures/README.md`` ("Binding constraints"): row 1 of D=3, V=2 with ``mono=FALSE``, the
  solves of the relaxed pstay row and the variances of rows that stop below V.
- :func:`rainbowdp.noise.tablebuilder.max_entropy` (the dual solver of the same problem where
  only the mean and variance bind).
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rainbowdp.cellkey import Ptable, audit
from rainbowdp.cellkey._compare_agency import PtableComparison, compare_with_design
from rainbowdp.cellkey._from_parameters import (
    LOWER_BOUND,
    parameter_probabilities,
    parameter_rows,
    ptable_parameters,
    solve_row,
)
from rainbowdp.exceptions import ParameterError, ParameterTypeError
from rainbowdp.noise.tablebuilder import max_entropy

FIXTURES = Path(__file__).parent / "fixtures"

#: fixture -> the create_cnt_ptable call of fixtures/README.md (ptable 0.3.3)
CALLS = {
    "ptable_ex_cnts": ((2, 1.05), {"js": 1, "mono": [True, True, False, True]}),
    "ptable_D5_V3_js2_pstay05": ((5, 3), {"js": 2, "pstay": 0.5}),
    "ptable_mono_binding": ((3, 2), {}),
    "ptable_pstay_binding": ((3, 1), {"pstay": 0.45}),
    "ptable_pstay_relaxed": ((3, 1), {"pstay": 0.6}),
    "ptable_D3_V1": ((3, 1), {}),
    "ptable_D5_V2": ((5, 2), {}),
    "ptable_D10_V5": ((10, 5), {}),
}


def fixture_lines(name: str) -> list[dict[str, float]]:
    with open(FIXTURES / f"{name}.csv", newline="") as f:
        return [{k: float(v) for k, v in r.items() if k != "type"} for r in csv.DictReader(f)]


def fixture_matrix(name: str) -> np.ndarray:
    lines = fixture_lines(name)
    n = int(max(r["i"] for r in lines)) + 1
    m = int(max(r["j"] for r in lines)) + 1
    P = np.zeros((n, m))
    for r in lines:
        P[int(r["i"]), int(r["j"])] = r["p"]
    return P


@pytest.fixture(scope="module")
def tables() -> dict[str, Ptable]:
    return {name: Ptable.from_parameters(*a, **k) for name, (a, k) in CALLS.items()}


# ------------------------------------------------------------------------ ptable's own tables
@pytest.mark.parametrize("name", list(CALLS))
def test_reproduces_ptable_fixture(tables, name):
    # oracle: fixtures/<name>.csv, written by ptable 0.3.3 (fixtures/README.md)
    R = fixture_matrix(name)
    P = tables[name].probabilities
    assert P.shape[0] == R.shape[0]
    m = max(P.shape[1], R.shape[1])
    Pm, Rm = np.zeros((P.shape[0], m)), np.zeros((P.shape[0], m))
    Pm[:, : P.shape[1]], Rm[:, : R.shape[1]] = P, R
    assert np.abs(Pm - Rm).max() <= 1e-7
    assert np.array_equal(Pm > 0, Rm > 0)  # the same entries


def test_pt_ex_cnts_vector_of_ptable_tests(tables):
    # oracle: ptable 1.0.0 tests/testthat/test-examples.R, "Example is correct"
    expected = [1.00000000, 0.50833333, 0.47500000, 0.01666667, 0.16155827, 0.55565037]
    expected += [0.24246618, 0.04032518, 0.41231301, 0.28806097, 0.18693903, 0.11268699]
    expected += [0.07012498, 0.24450007, 0.37074990, 0.24450007, 0.07012498]
    P = tables["ptable_ex_cnts"].probabilities
    i, j = np.nonzero(P > 0)  # row by row, increasing j: ptable's order
    assert np.abs(P[i, j] - expected).max() <= 1e-8


def test_cellkey_test_table_statistics(tables):
    # oracle: cellKey 1.0.2 tests/testthat/test_countvars.R and test_params_cnts.R
    T = tables["ptable_D5_V3_js2_pstay05"]
    df = T.to_pandas()
    ub = df.groupby("i")["p"].cumsum()
    lb = ub - df["p"]
    assert len(df) == 66 and int(df["i"].max()) == 8
    means = [df["p"].mean(), lb.mean(), ub.mean(), df["v"].mean()]
    assert [round(float(x), 3) for x in means] == [0.136, 0.562, 0.698, 1.045]


def test_mono_binds_and_without_it_the_row_of_the_readme(tables):
    # oracle: fixtures/README.md, "Binding constraints": D=3, V=2, row i = 1
    v = parameter_rows(3, 0)[0]
    with_mono = solve_row(1, v, 2.0, 0, 0.0, True).p
    assert with_mono[0] == pytest.approx(with_mono[1], abs=1e-12)  # p(-1) = p(0): active
    free = Ptable.from_parameters(3, 2, mono=False).probabilities[1, :5]
    readme = [0.45935758, 0.26079447, 0.14806276, 0.08406076, 0.04772443]
    assert np.abs(free - readme).max() <= 1e-7
    assert free[0] > free[1]  # violates p(-1) <= p(0)
    assert tables["ptable_mono_binding"].metadata["rounds"] == [20, 1, 1]


def test_pstay_binds_and_relaxes(tables):
    # oracle: fixtures/README.md: pstay=0.45 holds in rows 1..3; pstay=0.6 ends at 0.45 in
    # row 1 after 4 solves, rows 2 and 3 keep 0.6
    P = tables["ptable_pstay_binding"].probabilities
    assert [P[i, i] for i in (1, 2, 3)] == pytest.approx([0.45] * 3, abs=1e-12)
    T = tables["ptable_pstay_relaxed"]
    assert T.metadata["rounds"][0] == 4
    assert T.metadata["stay_bounds"] == pytest.approx([0.45, 0.6, 0.6], abs=1e-12)
    assert [T.probabilities[i, i] for i in (1, 2, 3)] == pytest.approx([0.45, 0.6, 0.6])


@pytest.mark.parametrize(
    ("name", "rows", "variances"),
    [
        ("ptable_mono_binding", [1], [1.10728]),
        ("ptable_D5_V2", [1], [1.30247]),
        ("ptable_D10_V5", [1, 2], [1.41920, 4.17494]),
    ],
)
def test_rows_that_stop_below_v(tables, name, rows, variances):
    # oracle: fixtures/README.md, "optim=1 ... rows near 0 can end with a smaller variance"
    T = tables[name]
    assert [round(float(T.variance[i]), 5) for i in rows] == variances
    assert all(T.metadata["rounds"][i - 1] == 20 for i in rows)


def test_rows_agree_with_the_dual_solver_where_only_mean_and_variance_bind():
    # oracle: rainbowdp.noise.tablebuilder.max_entropy (an independent dual solver)
    # (without mono, which binds in rows 1..3, and with the variance slack in rows 1 and 2)
    for i, v in enumerate(parameter_rows(10, 0), start=1):
        p = solve_row(i, v, 5.0, 0, 0.0, False).p
        assert np.abs(p - max_entropy(v, variance=5.0)).max() <= 1e-10


# ------------------------------------------------------------------------ properties
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    D=st.integers(1, 6),
    V=st.floats(0.2, 8.0),
    js=st.integers(0, 2),
    pstay=st.one_of(st.none(), st.floats(0.05, 0.95)),
    mono=st.booleans(),
)
def test_rows_are_zero_mean_pmfs_within_the_constraints(D, V, js, pstay, mono):
    try:
        T = Ptable.from_parameters(D, V, js=js, pstay=pstay, mono=mono)
    except ParameterError as exc:
        assert "too small" in str(exc) or "no zero-mean" in str(exc)
        assume(False)
    P = T.probabilities
    ncat = D if js == 0 else D + js + 1
    assert T.max_count == ncat and T.above == "last"
    assert np.allclose(P.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert np.all(np.abs(T.bias) <= 1e-7 * D)  # bounds rounded to 8 decimals
    assert np.all(T.variance <= V + 1e-7 * D * D)
    for i in range(1, ncat + 1):
        j = np.flatnonzero(P[i] > 0)
        assert j.min() >= max(i - D, 0) and j.max() <= i + D
        assert not np.any((j >= 1) & (j <= js))  # blocked counts never published
        assert np.all(P[i, j] >= LOWER_BOUND - 1.5e-8)
        if mono and i > js:  # non-decreasing up to v = 0
            left = P[i, max(i - D, 0) : i + 1]
            left = left[left > 0]
            assert np.all(np.diff(left) >= -2e-8)
        bound = T.metadata["stay_bounds"][i - 1]
        if i > js:
            assert P[i, i] >= bound - 2e-8
    assert P[0, 0] == 1.0


@pytest.mark.parametrize("D", [1, 2, 4])
def test_maximum_entropy_beats_feasible_perturbations(D):
    # the solution is optimal: no feasible direction (mean, sum kept) raises the entropy
    V = 0.8 * D
    rng = np.random.default_rng(D)
    for i, v in enumerate(parameter_rows(D, 0), start=1):
        p = solve_row(i, v, V, 0, 0.0, False).p
        h = -(p @ np.log(p))
        A = np.vstack([np.ones(v.size), v, v * v])
        _, _, vt = np.linalg.svd(A)
        null = vt[3:]
        for _ in range(20):
            d = rng.normal(size=null.shape[0]) @ null if null.size else np.zeros(v.size)
            q = p + 1e-4 * d / max(1.0, np.abs(d).max())
            if q.min() > 0 and (v * v) @ q <= V + 1e-12:
                assert -(q @ np.log(q)) <= h + 1e-12


def test_lower_bounds_bind_at_the_kkt_point():
    # D=10, V=1: the tails of the last row sit on ptable's bound 1e-8. Optimality (KKT): off
    # the bound, log p is one quadratic in v (a Gibbs law); on it, that quadratic is below
    # log 1e-8 (a non-negative multiplier)
    v = parameter_rows(10, 0)[-1]
    p = solve_row(10, v, 1.0, 0, 0.0, True).p
    on = p <= LOWER_BOUND * (1 + 1e-12)
    assert on.sum() >= 4 and p.sum() == pytest.approx(1.0, abs=1e-14)
    coef = np.polyfit(v[~on], np.log(p[~on]), 2)
    assert np.abs(np.polyval(coef, v[~on]) - np.log(p[~on])).max() <= 1e-9
    assert np.all(np.polyval(coef, v[on]) <= math.log(LOWER_BOUND))
    assert abs(v @ p) <= 1e-14 and (v * v) @ p == pytest.approx(1.0, abs=1e-13)


# ------------------------------------------------------------------------ the audit
def test_audit_runs_on_the_result(tables):
    T = tables["ptable_D5_V3_js2_pstay05"]
    rep = audit(T, epsilons=[1.0], deltas=[1e-3], keysize=10**8)
    assert 0 < rep.delta_at_epsilon[0] < 1 and rep.keysize == 10**8
    assert rep.zeros_stay_zeros and not rep.negative_outputs
    assert rep.max_abs_bias <= 1e-7 and rep.max_variance <= 3 + 1e-6
    assert rep.lost_support == 0


def test_classmethod_and_metadata(tables):
    T = tables["ptable_ex_cnts"]
    P, meta = parameter_probabilities(2, 1.05, js=1, mono=[True, True, False, True])
    assert np.array_equal(T.probabilities, P[:, : T.probabilities.shape[1]])
    assert T.metadata == meta and T.above == "last" and T.keysize is None
    assert meta["V"] == 1.05 and meta["mono"] == [True, True, False, True]
    assert meta["pstay"] == [None] * 4 and meta["js"] == 1


# ------------------------------------------------------------------------ errors
@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"D": 0, "V": 1}, ParameterError, "`D`"),
        ({"D": 1.5, "V": 1}, ParameterError, "`D`"),
        ({"D": "2", "V": 1}, ParameterTypeError, "`D`"),
        ({"D": True, "V": 1}, ParameterTypeError, "`D`"),
        ({"D": 2, "V": 0}, ParameterError, "`V`"),
        ({"D": 2, "V": -1.0}, ParameterError, "`V`"),
        ({"D": 2, "V": math.nan}, ParameterError, "`V`"),
        ({"D": 2, "V": "1"}, ParameterTypeError, "`V`"),
        ({"D": 2, "V": 1, "js": -1}, ParameterError, "`js`"),
        ({"D": 2, "V": 1, "js": 0.5}, ParameterError, "`js`"),
        ({"D": 2, "V": 1, "pstay": 0}, ParameterError, "`pstay`"),
        ({"D": 2, "V": 1, "pstay": 1}, ParameterError, "`pstay`"),
        ({"D": 2, "V": 1, "pstay": 1.5}, ParameterError, "`pstay`"),
        ({"D": 2, "V": 1, "pstay": "a"}, ParameterTypeError, "`pstay`"),
        ({"D": 2, "V": 1, "pstay": [0.5, 0.5, 0.5]}, ParameterError, "ncat = 2"),
        ({"D": 2, "V": 1, "mono": [True, False, True]}, ParameterError, "ncat = 2"),
        ({"D": 2, "V": 1.05, "js": 1, "mono": [True, True]}, ParameterError, "ncat = 4"),
        ({"D": 2, "V": 1, "mono": "yes"}, ParameterTypeError, "`mono`"),
        ({"D": 2, "V": 1, "mono": [1, 0]}, ParameterTypeError, "`mono`"),
    ],
)
def test_bad_parameters(kwargs, error, match):
    # the lengths: ptable 0.3.3 pt_create_pParams ("must be of length ncat"; ncat = D if
    # js = 0, else D + js + 1); pstay 0 and 1 are refused there too
    args = (kwargs.pop("D"), kwargs.pop("V"))
    with pytest.raises(error, match=match):
        Ptable.from_parameters(*args, **kwargs)


def test_infeasible_variance_is_reported():
    # ptable 0.3.3 stops with "The variance parameter you set is too small!" (checked with
    # its R code for D=2, V=0.5, js=1): row 1 can only publish 0, 2, 3, variance >= 1
    with pytest.raises(ParameterError, match=r"too small for count i = 1.*least variance is 1"):
        Ptable.from_parameters(2, 0.5, js=1)
    # D=1, js=2: row 1 can only publish 0 (nloptr fails with NLOPT_INVALID_ARGS in ptable)
    with pytest.raises(ParameterError, match="no zero-mean noise law exists for count i = 1"):
        Ptable.from_parameters(1, 1.0, js=2)


def test_parameter_vectors_per_row():
    d, v, js, stays, monos = ptable_parameters(2, 1, js=1, pstay=[None, 0.3, math.nan, 0.4])
    assert (d, v, js, stays, monos) == (2, 1.0, 1, [0.0, 0.3, 0.0, 0.4], [True] * 4)
    assert ptable_parameters(3, 1, mono=np.array([True, False, True]))[4] == [True, False, True]


# ------------------------------------------------------------------------ the comparison
@pytest.fixture(scope="module")
def comparison(tables) -> PtableComparison:
    return compare_with_design(tables["ptable_D5_V3_js2_pstay05"], epsilon=1.0, keysize=10**8)


def test_comparison_same_d_and_variance(comparison, tables):
    c = comparison
    assert isinstance(c, PtableComparison)
    assert c.D == 5 and c.design.D == 5 and c.keysize == 10**8
    assert c.variance == pytest.approx(3.0, abs=1e-6)
    # the design is quantised on the agency's grid 10^8 (what its keys apply): each entry moves
    # by less than 1/K, so a row's variance by less than (entries) * D^2 / K over the cap
    Q = c.design.table
    slack = Q.probabilities.shape[1] * Q.D**2 / 10**8
    assert float(Q.variance.max()) <= c.variance + slack
    assert Q.key_type == "decimal" and Q.keysize == 10**8
    # the agency's numbers are its own audit's
    rep = audit(tables["ptable_D5_V3_js2_pstay05"], epsilons=[1.0], keysize=10**8)
    assert c.agency_delta == rep.delta_at_epsilon_independent[0]
    # same utility, far smaller delta (the optimal noise), and a smaller epsilon at its delta
    assert c.designed_delta < c.agency_delta / 10
    assert c.designed_epsilon < 1.0


def test_comparison_display(comparison):
    c = comparison
    df = c.to_pandas()
    assert list(df["table"]) == ["agency", "rainbowdp (optimal)"]
    assert df.loc[0, "delta_counts_from_D"] == c.agency_delta
    assert df.loc[1, "delta_counts_from_D"] == c.designed_delta
    assert "agency ptable vs rainbowdp (optimal) for D = 5" in str(c)
    assert repr(c).startswith("PtableComparison(epsilon=1, D=5")
    assert "<table>" in c._repr_html_()
    assert json.loads(json.dumps(c.to_dict()))["tables"][1]["D"] == 5


def test_comparison_from_a_file_and_maxent():
    c = compare_with_design(FIXTURES / "ptable_D3_V1.csv", epsilon=0.5, method="maxent")
    assert c.D == 3 and c.keysize is None and c.method == "maxent"
    assert c.designed_delta <= c.agency_delta


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"epsilon": 0.0}, "`epsilon`"), ({"method": "lp"}, "`method`"), ({"keysize": 1}, "keysize")],
)
def test_comparison_errors(tables, kwargs, match):
    with pytest.raises(ParameterError, match=match):
        compare_with_design(tables["ptable_D3_V1"], **kwargs)
