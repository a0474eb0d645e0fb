"""Compatibility with the R package ``cellKey`` (sdcTools): decimal record keys, its lookup,
sampling weights and its utility measures ``ck_cnt_measures``.

Oracles (R package ``cellKey``, sources read for the rules):

* ``R/cellkey_pkg.R``, ``ck_setup``/``.ck_perturb_cnts``: the cell key is the sum of the record
  keys ``%% 1``; ``lookup_freq`` leaves count 0 untouched (its loop runs over ``d`` in
  ``1..max(i)``), uses ``cellvals == d`` below ``max(i)`` and ``cellvals >= d`` for the last row,
  and picks ``which.max(ck < ub)``: the interval ``p_int_lb <= key < p_int_ub``;
  ``wcavg = wc / uwc`` (NaN -> 0), ``pwc = puwc * wcavg``;
* ``tests/testthat/test_countvars.R``, "checking unweighted version of perturb()": without
  weights ``pwc`` equals ``puwc``;
* ``R/ck_cnt_measures.R`` and its documented example (``man/ck_cnt_measures.Rd``): orig =
  c(1:10, 0, 0), pert[c(1, 5, 7)] <- c(0, 6, 9); the means of d1/d2/d3 are 0.333/0.054/0.063.

cellKey's own count test (``test_countvars.R``: the cell with 1,143 records published as 1,147,
mean weighted published count 52,096.24) needs R's random numbers for its weights and keys and
a ptable solved by the R package ``ptable``, which the repository does not ship; the rule is
therefore checked here on hand-made data (``fixtures/ckey_*``) whose published counts are
derived by hand from the R code above, and against a reference implementation of
``lookup_freq`` in exact rational arithmetic.
"""

from __future__ import annotations

import csv
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from rainbowdp.cellkey import (
    KeysizeWarning,
    Ptable,
    ck_cnt_measures,
    decimal_thresholds,
    perturb,
    utility_measures,
)
from rainbowdp.cellkey._decimal_keys import decimal_cell_keys, decimal_keys
from rainbowdp.exceptions import ParameterError, ParameterTypeError

FIXTURES = Path(__file__).parent / "fixtures"


# ------------------------------------------------------------------------------------ helpers
def _ptable_rows() -> list[dict[str, str]]:
    with open(FIXTURES / "ckey_ptable_D2.csv", newline="") as fh:
        return list(csv.DictReader(fh))


def _fixture_ptable() -> Ptable:
    """The R-layout fixture as a Ptable, from its columns i, j, p (no file reader involved)."""
    rows = _ptable_rows()
    n = max(int(r["i"]) for r in rows) + 1
    m = max(int(r["j"]) for r in rows) + 1
    p = np.zeros((n, m))
    for r in rows:
        p[int(r["i"]), int(r["j"])] = float(r["p"])
    return Ptable(p)


def _micro() -> dict[str, np.ndarray]:
    with open(FIXTURES / "ckey_micro.csv", newline="") as fh:
        recs = list(csv.DictReader(fh))
    return {
        "sex": np.array([r["sex"] for r in recs]),
        "region": np.array([r["region"] for r in recs]),
        "rkey": np.array([r["rkey"] for r in recs]),  # as text: the file's 8 digits
        "w": np.array([float(r["w"]) for r in recs]),
    }


def _r_lookup(rows: list[dict[str, str]], count: int, key: Fraction) -> int:
    """``lookup_freq`` of cellKey (R/cellkey_pkg.R), in exact rationals: the noise v."""
    if count == 0:
        return 0
    top = max(int(r["i"]) for r in rows)
    d = min(count, top)
    block = [r for r in rows if int(r["i"]) == d]
    for r in block:  # which.max(ck < ub): the first row whose upper bound exceeds the key
        if key < Fraction(r["p_int_ub"]):
            return int(r["v"])
    raise AssertionError("a key in [0, 1) always finds its interval")


# ------------------------------------------------------------------------------------ keys
def test_decimal_keys_exact_sum_mod_one() -> None:
    """Cell key = sum mod 1 (cellKey: ``%% 1``), exact: 0.7 + 0.1 + 0.1 + 0.1 is 1, key 0.

    In doubles the sum is 0.9999999999999999, which would select the last interval instead.
    """
    assert 0.7 + 0.1 + 0.1 + 0.1 < 1.0  # the float sum misses the integer
    k = decimal_keys([0.7, 0.1, 0.1, 0.1, 0.25])
    assert k.digits == 2
    assert decimal_cell_keys(k, np.array([0, 0, 0, 0, 1]), 3).tolist() == [0, 25, 0]


def test_decimal_keys_digits_and_text() -> None:
    assert decimal_keys([0.12345678, 0.5]).digits == 8
    k = decimal_keys(["0.12345678901234567890", "0.5", "1e-05"])
    assert k.digits == 20
    assert k.values.tolist() == [12345678901234567890, 5 * 10**19, 10**15]
    # more digits than cellKey allows (20), or not in [0, 1): refused
    with pytest.raises(ParameterError, match="at most 20"):
        decimal_keys(["0." + "1" * 21])
    with pytest.raises(ParameterError, match=r"\[0, 1\)"):
        decimal_keys([0.5, 1.0])
    with pytest.raises(ParameterError, match=r"\[0, 1\)"):
        decimal_keys(["-0.1"])
    with pytest.raises(ParameterError, match="missing"):
        decimal_keys([0.5, float("nan")])
    with pytest.raises(ParameterTypeError, match="method='abs' or method='sum'"):
        decimal_keys(np.array([1, 2]))


def test_twenty_digit_keys_sum_exactly() -> None:
    big = decimal_keys(["0.99999999999999999999", "0.00000000000000000002", "0.5"])
    keys = decimal_cell_keys(big, np.array([0, 0, 1]), 2)
    assert keys.tolist() == [1, 5 * 10**19]  # 1.00000000000000000001 mod 1


def test_thresholds_are_the_file_bounds() -> None:
    """The row intervals are the fixture's p_int_ub, exactly, on an 8-digit grid."""
    T = _fixture_ptable()
    c = decimal_thresholds(T, 8)
    for r in _ptable_rows():
        assert c[int(r["i"]), int(r["j"])] == Fraction(r["p_int_ub"]) * 10**8


def test_applied_table_on_the_file_grid_is_the_file_table() -> None:
    """On the 8-digit grid the applied table, (c(j) - c(j - 1)) / 10^8, is the file's p exactly.

    A float running sum alone would not do: 0.04761905 + 0.19047619 is not the double nearest
    to 0.23809524, and a ceiling of the float's exact value can move a bound by one key.
    """
    T = _fixture_ptable()
    c = decimal_thresholds(T, 8)
    for r in _ptable_rows():
        i, j = int(r["i"]), int(r["j"])
        below = c[i, j - 1] if j > 0 else 0
        assert Fraction(int(c[i, j] - below), 10**8) == Fraction(r["p"])


# ------------------------------------------------------------------------------------ perturb
#: Hand-derived from cellKey's lookup_freq (module docstring) for fixtures/ckey_micro.csv and
#: fixtures/ckey_ptable_D2.csv. Rows: (sex, region) over f, m, Total x e, n, s, Total.
EXPECTED = {
    # cell: (count, cell key, noise)       derivation
    ("f", "e"): (0, "0", 0),  # empty: untouched
    ("f", "n"): (2, "0.76190476", 1),  # key == ub of j=2 in row 2: next interval j=3
    ("f", "s"): (1, "0.27272727", 0),  # key == ub of j=0 in row 1: next interval j=1
    ("f", "Total"): (3, "0.03463203", -2),  # 1.03463203 mod 1; row 3, first interval j=1
    ("m", "e"): (1, "0.04761905", -1),  # row 1, j=0 (a false zero)
    ("m", "n"): (4, "0", -2),  # 0.7+0.1+0.1+0.1 = 1 exactly; count 4 > 3: the last row, j=1
    ("m", "s"): (1, "0.99999999", 1),  # row 1, j=2
    ("m", "Total"): (6, "0.04761904", -2),  # just below the bound 0.04761905: j=1
    ("Total", "e"): (1, "0.04761905", -1),
    ("Total", "n"): (6, "0.76190476", 1),  # on the bound 0.76190476 of row 3: j=4
    ("Total", "s"): (2, "0.27272726", 0),  # row 2, [0.23809524, 0.76190476): j=2
    ("Total", "Total"): (9, "0.08225107", -1),  # row 3, [0.04761905, 0.23809524): j=2
}
#: The cells' weight sums (wc) from the fixture's column w.
WEIGHT_SUMS = {
    ("f", "e"): 0.0,
    ("f", "n"): 30.0,
    ("f", "s"): 30.0,
    ("f", "Total"): 60.0,
    ("m", "e"): 90.0,
    ("m", "n"): 220.0,
    ("m", "s"): 80.0,
    ("m", "Total"): 390.0,
    ("Total", "e"): 90.0,
    ("Total", "n"): 250.0,
    ("Total", "s"): 110.0,
    ("Total", "Total"): 450.0,
}


def test_fixture_published_counts_cell_for_cell() -> None:
    t = perturb(_micro(), ["sex", "region"], _fixture_ptable(), method="cellkey", weights="w")
    cells = list(zip(t["sex"].tolist(), t["region"].tolist(), strict=True))
    assert set(cells) == set(EXPECTED)
    for r, cell in enumerate(cells):
        count, key, noise = EXPECTED[cell]
        assert int(t["count"][r]) == count, cell
        assert t["cell_key"][r] == float(key), cell
        assert int(t["noise"][r]) == noise, cell
        assert int(t["perturbed"][r]) == count + noise, cell
        # cellKey: pwc = puwc * (wc / uwc), 0 for an empty cell
        wc = WEIGHT_SUMS[cell]
        assert t["weighted"][r] == wc, cell
        expected_pwc = (count + noise) * (wc / count) if count else 0.0
        assert t["perturbed_weighted"][r] == pytest.approx(expected_pwc, rel=1e-15), cell
    # two hand-checked values: (f, n) 3 x 30/2 = 45; (Total, Total) 8 x 450/9 = 400
    assert t["perturbed_weighted"][cells.index(("f", "n"))] == 45.0
    assert t["perturbed_weighted"][cells.index(("Total", "Total"))] == 400.0


def test_float_keys_give_the_same_table_as_text_keys() -> None:
    data = _micro()
    as_text = perturb(data, ["sex", "region"], _fixture_ptable(), method="cellkey")
    data["rkey"] = data["rkey"].astype(np.float64)
    as_float = perturb(data, ["sex", "region"], _fixture_ptable(), method="cellkey")
    assert as_text["noise"].tolist() == as_float["noise"].tolist()
    assert as_text["cell_key"].tolist() == as_float["cell_key"].tolist()


@pytest.mark.parametrize("digits", [5, 8, 12])
def test_random_tables_match_the_r_lookup(digits: int) -> None:
    """Random microdata: every cell, margins included, as the exact-rational lookup_freq."""
    rng = np.random.default_rng(digits)
    n = 400
    keys = rng.integers(0, 10**digits, n)
    texts = np.array([f"0.{k:0{digits}d}" for k in keys.tolist()])
    # snap some keys onto interval bounds, where lb <= key < ub decides
    bounds = [r["p_int_ub"] for r in _ptable_rows() if r["p_int_ub"] not in ("0", "1")]
    snap = rng.random(n) < 0.2
    texts[snap] = rng.choice(bounds, int(snap.sum()))
    data = {"a": rng.integers(0, 6, n), "b": rng.integers(0, 40, n), "rkey": texts}
    rows = _ptable_rows()
    with warnings.catch_warnings():  # keys of other digits than the table's: the lookup holds
        warnings.simplefilter("ignore", KeysizeWarning)
        t = perturb(data, ["a", "b"], _fixture_ptable(), method="cellkey")
    for r in range(len(t)):
        a, b = t["a"][r], t["b"][r]
        sel = np.ones(n, dtype=bool)
        if a != "Total":
            sel &= data["a"] == a
        if b != "Total":
            sel &= data["b"] == b
        key = sum((Fraction(x) for x in texts[sel].tolist()), Fraction(0)) % 1
        count = int(sel.sum())
        assert int(t["count"][r]) == count
        assert int(t["noise"][r]) == _r_lookup(rows, count, key), (a, b, key)


def test_margins_are_consistent_across_queries() -> None:
    data = _micro()
    T = _fixture_ptable()
    two = perturb(data, ["sex", "region"], T, method="cellkey")
    one = perturb({"sex": data["sex"], "rkey": data["rkey"]}, "sex", T, method="cellkey")
    for r in range(len(one)):
        match = [
            i
            for i in range(len(two))
            if two["sex"][i] == one["sex"][r] and two["region"][i] == "Total"
        ]
        assert two["noise"][match[0]] == one["noise"][r]


def test_unweighted_equals_weighted_with_unit_weights() -> None:
    """cellKey test_countvars.R, "checking unweighted version of perturb()": pwc == puwc."""
    data = _micro()
    data["one"] = np.ones(len(data["w"]))
    t = perturb(data, ["sex", "region"], _fixture_ptable(), method="cellkey", weights="one")
    assert t["perturbed_weighted"].tolist() == t["perturbed"].astype(float).tolist()


def test_weights_with_integer_keys() -> None:
    T = Ptable.from_noise([0.25, 0.5, 0.25], low=-1, keysize=2**8)
    data = {"a": [0, 0, 1], "rkey": [[10, 0, 0, 0], [20, 0, 0, 0], [200, 0, 0, 0]]}
    t = perturb(data, ["a"], T, weights=[1.0, 3.0, 2.5])
    assert t["perturbed"].tolist() == [1, 2, 4]  # perturb's own doctest: unchanged
    assert t["weighted"].tolist() == [4.0, 2.5, 6.5]
    assert t["perturbed_weighted"].tolist() == [2.0, 5.0, 4 * 6.5 / 3]


def test_pandas_output_has_the_weighted_columns() -> None:
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(_micro())
    out = perturb(df, ["sex", "region"], _fixture_ptable(), method="cellkey", weights="w")
    assert list(out.columns)[-3:] == ["perturbed", "weighted", "perturbed_weighted"]
    assert out["perturbed"].sum() == sum(c + v for c, _, v in EXPECTED.values())


# ------------------------------------------------------------------------------------ errors
@pytest.mark.parametrize(
    ("bad", "match"),
    [
        ([1.0, -2.0, 1.0], "finite and >= 0.*-2.0 at record 1"),
        ([1.0, float("nan"), 1.0], "finite and >= 0"),
        ([1.0, float("inf"), 1.0], "finite and >= 0"),
        ([1.0, 2.0], "one per record"),
    ],
)
def test_bad_weights_name_the_column(bad: list[float], match: str) -> None:
    data = {"a": np.array([0, 0, 1]), "rkey": np.array([0.1, 0.2, 0.3]), "wt": np.array(bad)}
    with pytest.raises(ParameterError, match="column 'wt'.*" + match):
        perturb(data, "a", _fixture_ptable(), method="cellkey", weights="wt")


def test_weight_errors() -> None:
    data = {"a": np.array([0, 0, 1]), "rkey": np.array([0.1, 0.2, 0.3]), "s": ["x", "y", "z"]}
    with pytest.raises(ParameterError, match="not in `data`"):
        perturb(data, "a", _fixture_ptable(), method="cellkey", weights="nope")
    with pytest.raises(ParameterTypeError, match=r"column 's'.*numbers"):
        perturb(data, "a", _fixture_ptable(), method="cellkey", weights="s")
    with pytest.raises(ParameterTypeError, match="booleans"):
        perturb(data, "a", _fixture_ptable(), method="cellkey", weights=[True, False, True])


def test_cellkey_method_errors() -> None:
    T = _fixture_ptable()
    ints = {"a": np.array([0, 1]), "rkey": np.array([3, 4])}
    with pytest.raises(ParameterTypeError, match="method='abs' or method='sum'"):
        perturb(ints, "a", T, method="cellkey")
    dec = {"a": np.array([0, 1]), "rkey": np.array([0.3, 0.4])}
    with pytest.raises(ParameterError, match="keysize"):
        perturb(dec, "a", T, method="cellkey", keysize=2**8)
    with pytest.raises(ParameterError, match="one column"):
        perturb(dec, "a", T, method="cellkey", record_keys=["rkey", "rkey"])
    with pytest.raises(ParameterError, match="one key per record"):
        perturb(dec, "a", T, method="cellkey", record_keys=np.array([0.1]))
    with pytest.raises(ParameterError, match="'abs', 'sum', 'cellkey'"):
        perturb(dec, "a", T, method="xor")
    # cellKey leaves count 0 untouched: a row 0 that is not the point mass at 0 is refused
    moving_zero = Ptable(np.array([[0.5, 0.5], [0.5, 0.5]]))
    with pytest.raises(ParameterError, match="row 0"):
        perturb(dec, "a", moving_zero, method="cellkey")


def test_above_rule_of_the_table_is_used() -> None:
    """cellKey uses the last row for every count >= max(i) (``cellvals >= d``)."""
    T = _fixture_ptable()
    n = 50
    data = {"a": np.zeros(n, dtype=int), "rkey": np.array(["0.00000001"] * n)}
    t = perturb(data, "a", T, method="cellkey", margins=False)
    # key 0.0000005 < 0.04761905: the first interval of row 3, j = 1, noise -2
    assert t["noise"].tolist() == [-2]


# ------------------------------------------------------------------------------------ measures
def _doc_example() -> tuple[list[int], list[int]]:
    """``?ck_cnt_measures``: orig <- c(1:10, 0, 0); pert[c(1, 5, 7)] <- c(0, 6, 9)."""
    orig = [*range(1, 11), 0, 0]
    pert = list(orig)
    pert[0], pert[4], pert[6] = 0, 6, 9
    return orig, pert


def test_ck_cnt_measures_documented_example() -> None:
    """cellKey man/ck_cnt_measures.Rd example: means d1/d2/d3 = 0.333 / 0.054 / 0.063."""
    m = ck_cnt_measures(*_doc_example())
    assert m.exclude_zeros is True
    assert m.measure("Mean") == (0.333, 0.054, 0.063)
    assert m.false_zero == 1 and m.false_nonzero == 0
    # noise = orig - pert: 1 - 0 = 1, 5 - 6 = -1, 7 - 9 = -2; nine cells unchanged
    assert m.overview["noise"].tolist() == [-2, -1, 0, 1]
    assert m.overview["cnt"].tolist() == [1, 1, 9, 1]
    # the 9 cells with pert != 0: d1 = 0 (7 cells), 1, 2
    assert m.cumdistr_d1.cat == ("0", "1", "2")
    assert m.cumdistr_d1.cnt.tolist() == [7, 8, 9]
    assert m.measure("Max") == (2.0, 0.286, 0.354)  # 2/7; sqrt(9) - sqrt(7)
    # d2 = 1/5 in (0.1, 0.2], 2/7 in (0.2, 0.3]
    assert m.cumdistr_d2.cat[3] == "(0.1,0.2]"
    assert m.cumdistr_d2.cnt.tolist() == [7, 7, 7, 8, 9, 9, 9, 9]


def test_ck_cnt_measures_all_cells() -> None:
    """exclude_zeros = FALSE: 12 cells; d2 of the two 0/0 cells is 0 (``is.nan -> 0``).

    Hand: d1 = 4/12; d2 = (1 + 1/5 + 2/7)/12 = 0.1238; d3 = (1 + (sqrt 6 - sqrt 5) +
    (3 - sqrt 7))/12 = 0.1306.
    """
    m = ck_cnt_measures(*_doc_example(), exclude_zeros=False)
    assert m.measure("Mean") == (0.333, 0.124, 0.131)
    assert m.cumdistr_d1.cnt.tolist() == [9, 11, 12]


def test_ck_cnt_measures_conventions_differ_from_rainbowdps_own() -> None:
    """rainbowdp's measures keep their names and conventions (0.4 / 0.149 / 0.157 here)."""
    orig, pert = _doc_example()
    own = utility_measures(orig, pert, exclude_zeros=True)
    assert round(own.absolute.mean, 3) == 0.4
    assert round(own.relative.mean, 3) == 0.149
    assert round(own.root.mean, 3) == 0.157
    assert own.noise_values.tolist() == [-1, 0, 1, 2]  # pert - orig


def test_ck_cnt_measures_false_nonzero_and_errors() -> None:
    m = ck_cnt_measures([0, 0, 2], [1, 0, 2])
    assert m.false_nonzero == 1 and m.false_zero == 0
    assert m.measure("Max")[1] == float("inf")  # |1 - 0| / 0 stays infinite in R
    with pytest.raises(ParameterError, match="differs"):
        ck_cnt_measures([1, 2], [1])
    with pytest.raises(ParameterTypeError, match="numeric"):
        ck_cnt_measures(["a"], ["b"])
    with pytest.raises(ParameterTypeError, match="scalar logical"):
        ck_cnt_measures([1], [1], exclude_zeros=1)  # type: ignore[arg-type]
    assert "d1 = 0.333" in str(ck_cnt_measures(*_doc_example()))
    assert repr(ck_cnt_measures(*_doc_example())).startswith("CkCntMeasures(mean d1=0.333")


def test_keys_finer_than_a_decimal_tables_grid_are_refused() -> None:
    """A table declared for 5-digit keys is audited on that grid; 8-digit keys are refused."""
    import dataclasses

    if "key_type" not in {f.name for f in dataclasses.fields(Ptable)}:
        pytest.skip("Ptable has no key type")
    p = _fixture_ptable().probabilities
    T5 = Ptable(p, keysize=10**5, key_type="decimal")
    data = _micro()
    with pytest.raises(ParameterError, match="8 decimal digits"):
        perturb(data, ["sex", "region"], T5, method="cellkey")
    T8 = Ptable(p, keysize=10**8, key_type="decimal")
    t = perturb(data, ["sex", "region"], T8, method="cellkey")
    assert t["noise"].tolist() == [v for _, _, v in EXPECTED.values()]


def test_float_keys_near_one_are_not_read_as_one() -> None:
    # a double within 2 ulp of a short decimal is that decimal (as R's parser leaves keys), but
    # never the key 1, outside cellKey's [0, 1): 0.9999999999999999 is no decimal of <= 15
    # digits, and a key near 1 among 8-digit keys keeps its 16 digits' refusal
    with pytest.raises(ParameterError, match="not decimals of at most 15 digits"):
        decimal_keys(np.array([0.9999999999999999]), "rkey")
    with pytest.raises(ParameterError, match="not decimals of at most 15 digits"):
        decimal_keys(np.array([0.12345678, 0.9999999999999999]), "rkey")
    k = decimal_keys(np.array([0.12345678, np.nextafter(0.99999999, 1.0)]), "rkey")
    assert k.digits == 8 and k.values.tolist() == [12345678, 99999999]
