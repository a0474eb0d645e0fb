"""cellKey's own count test, cell for cell: ``perturb(method="cellkey")`` against ``cellKey``.

Oracle: the R package ``cellKey`` 1.0.2 (sdcTools), ``tests/testthat/test_countvars.R``. Its
test data (``ck_create_testdata()`` after ``set.seed(120, sample.kind = "Reject")``: 4,580
records, sampling weights), its record keys (``ck_generate_rkeys(dat, nr_digits = 5)``), its
ptable (``ptable::create_cnt_ptable(D = 5, V = 3, js = 2, pstay = 0.5, optim = 1, mono =
TRUE)``) and its table (sex x age with the margins "Total") were generated with cellKey's and
ptable's own R code and written to the fixtures ``fixtures/cellkey_countvars_*.csv`` (see
``fixtures/README.md``):

* ``cellkey_countvars_micro.csv``: per record ``sex``, ``age``, ``rec_key`` (the key as R holds
  it, 5 decimals) and ``sampling_weight``;
* ``cellkey_countvars_ptable.csv``: the ptable's columns ``i, j, p, v, p_int_lb, p_int_ub,
  type``;
* ``cellkey_countvars_expected.csv``: per cell ``uwc``, ``wc``, ``ckey`` (cellKey's double),
  ``ckey_e5`` (the exact cell key x 10^5), ``row_nr`` and ``pert`` (``$mod_cnts()``), ``puwc``
  and ``pwc`` (``$freqtab("total")``).

The printed expectations of ``test_countvars.R`` are asserted on the fixtures and on
rainbowdp's output (each assertion names its ``test_that`` block).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rainbowdp.cellkey import KeysizeWarning, perturb, read_ptable
from rainbowdp.exceptions import ParameterError

FIXTURES = Path(__file__).parent / "fixtures"
BY = ["sex", "age"]


@pytest.fixture(scope="module")
def micro() -> pd.DataFrame:
    return pd.read_csv(FIXTURES / "cellkey_countvars_micro.csv", dtype={"rec_key": str})


@pytest.fixture(scope="module")
def expected() -> pd.DataFrame:
    return pd.read_csv(FIXTURES / "cellkey_countvars_expected.csv")


@pytest.fixture(scope="module")
def ptable_frame() -> pd.DataFrame:
    return pd.read_csv(FIXTURES / "cellkey_countvars_ptable.csv")


def _ptable_on_the_keys_grid():
    """The test's ptable as applied by its 5-digit keys (ck_generate_rkeys(nr_digits = 5)):
    read with that key grid recorded, so the table's default audit is what the keys apply."""
    return read_ptable(FIXTURES / "cellkey_countvars_ptable.csv", key_type="decimal", keysize=10**5)


def test_keys_coarser_than_the_file_warn_without_the_grid(micro: pd.DataFrame) -> None:
    # the file's bounds have 8 decimals; its 5-digit keys apply the table quantised at 10^5,
    # which its default audit (the table as given) does not describe: a warning names the audit
    T = read_ptable(FIXTURES / "cellkey_countvars_ptable.csv")
    with pytest.warns(KeysizeWarning, match=r"5 decimal digits.*keysize=10\*\*5"):
        plain = perturb(micro, BY, T, record_keys="rec_key", method="cellkey")
    on_grid = perturb(
        micro, BY, _ptable_on_the_keys_grid(), record_keys="rec_key", method="cellkey"
    )
    assert np.array_equal(plain["perturbed"], on_grid["perturbed"])


@pytest.fixture(scope="module")
def published(micro: pd.DataFrame, expected: pd.DataFrame) -> pd.DataFrame:
    T = _ptable_on_the_keys_grid()
    t = perturb(micro, BY, T, record_keys="rec_key", method="cellkey", weights="sampling_weight")
    merged = expected.merge(t, on=BY, how="outer", validate="one_to_one", indicator=True)
    assert (merged["_merge"] == "both").all()
    # cellKey's row order (sdcTable: sex slowest, Total first), so that uwc[3] is its uwc[3]
    order = list(zip(expected["sex"], expected["age"], strict=True))
    return merged.set_index(BY).loc[order].reset_index()


def test_fixture_is_cellkeys_test_data(micro: pd.DataFrame) -> None:
    # cellKey 1.0.2, tests/testthat/test_countvars.R, "check rkey generation and seed is ok"
    # and "checking dimension and structure of generated testdata is ok"
    keys = micro["rec_key"].astype(float)
    assert round(float(keys.mean()), 3) == 0.501
    assert round(float(micro["sampling_weight"].mean()), 3) == 59.719
    assert len(micro) == 4580
    assert int((micro["sex"] == "male").sum()) == 2296
    # keys as ck_generate_rkeys(nr_digits = 5) writes them: 5 decimals, in [0, 1)
    assert micro["rec_key"].str.fullmatch(r"0\.\d{5}").all()


def test_fixture_ptable_is_cellkeys(ptable_frame: pd.DataFrame) -> None:
    # cellKey 1.0.2, tests/testthat/test_countvars.R, "ck_params_cnts() is ok" and
    # "checking perturbation parameters for counts"
    pt = ptable_frame
    assert pt.shape == (66, 7)
    assert pt["i"].max() == 8
    assert round(float(pt["p"].mean()), 3) == 0.136
    assert round(float(pt["p_int_lb"].mean()), 3) == 0.562
    assert round(float(pt["p_int_ub"].mean()), 3) == 0.698
    assert round(float(pt["v"].mean()), 3) == 1.045


def test_fixture_expected_is_cellkeys_table(
    expected: pd.DataFrame, ptable_frame: pd.DataFrame
) -> None:
    # cellKey 1.0.2, tests/testthat/test_countvars.R, "weighted version of ck_perturb() is ok"
    e = expected
    assert len(e) == 21
    assert (e["uwc"][2], e["puwc"][2]) == (1143, 1147)
    assert round(float(e["pwc"].mean()), 3) == 52096.24
    assert round(float(e["puwc"].mean()), 3) == 872.333
    assert round(float(e["ckey"].mean()), 3) == 0.456
    assert round(float(e["pert"].mean()), 3) == -0.048
    assert (e["row_nr"].min(), e["row_nr"].max()) == (40, 65)
    # each cell's ptable row (row_nr, 1-based) holds its noise and its key: lb <= ckey < ub
    rows = ptable_frame.iloc[e["row_nr"] - 1].reset_index(drop=True)
    assert (rows["v"] == e["pert"]).all()
    assert (rows["i"] == np.minimum(e["uwc"], 8)).all()
    assert ((rows["p_int_lb"] <= e["ckey"]) & (e["ckey"] < rows["p_int_ub"])).all()
    assert np.allclose(e["ckey_e5"] / 10**5, e["ckey"], rtol=0, atol=1e-9)


def test_cell_keys_equal_cellkeys(published: pd.DataFrame) -> None:
    # exact decimal sums mod 1: the exact key, and cellKey's double sum to its rounding error
    m = published
    assert np.array_equal(m["cell_key"].to_numpy(), m["ckey_e5"].to_numpy() / 10**5)
    assert np.allclose(m["cell_key"], m["ckey"], rtol=0, atol=1e-9)
    assert np.array_equal(m["count"], m["uwc"])


def test_published_counts_equal_cellkeys(published: pd.DataFrame) -> None:
    m = published
    assert np.array_equal(m["noise"], m["pert"])
    assert np.array_equal(m["perturbed"], m["puwc"])
    assert np.allclose(m["weighted"], m["wc"], rtol=1e-12, atol=0)
    assert np.allclose(m["perturbed_weighted"], m["pwc"], rtol=1e-9, atol=0)
    # cellKey 1.0.2, tests/testthat/test_countvars.R,
    # "check ck_define_table() with already existing rec-keys"
    assert (int(m["count"][2]), int(m["perturbed"][2])) == (1143, 1147)
    assert round(float(m["perturbed_weighted"].mean()), 3) == 52096.24
    assert round(float(m["perturbed"].mean()), 3) == 872.333
    # "weighted version of ck_perturb() is ok" ($mod_cnts())
    assert round(float(m["cell_key"].mean()), 3) == 0.456
    assert round(float(m["noise"].mean()), 3) == -0.048


def test_unweighted_and_float_keys(micro: pd.DataFrame, expected: pd.DataFrame) -> None:
    # cellKey 1.0.2, tests/testthat/test_countvars.R, "checking unweighted version of
    # perturb()": the same perturbed counts without weights (there pwc == puwc); keys read as
    # doubles (as R holds them) give the same table as keys read as text
    T = _ptable_on_the_keys_grid()
    floats = micro.assign(rec_key=micro["rec_key"].astype(float))
    t = perturb(floats, BY, T, record_keys="rec_key", method="cellkey")
    assert "perturbed_weighted" not in t.columns
    m = expected.merge(t, on=BY, validate="one_to_one")
    assert len(m) == 21
    assert np.array_equal(m["perturbed"], m["puwc"])
    assert round(float(m["perturbed"].mean()), 3) == 872.333
    cell = (m["sex"] == "Total") & (m["age"] == "age_group2")
    assert int(m.loc[cell, "perturbed"].iloc[0]) == 1147


def test_keys_one_ulp_off_as_r_parses_them(micro: pd.DataFrame, expected: pd.DataFrame) -> None:
    # R's parser (as.numeric, read.csv, fread) reads "0.79537215" one unit in the last place
    # below the nearest double (fixtures/README.md): keys an agency read in R and passed on as
    # doubles are the same 8-digit keys, and the table is still cellKey's
    nearest = 0.79537215
    r_parsed = np.nextafter(nearest, 0.0)
    keys = micro["rec_key"].astype(float).to_numpy().copy()
    keys[0] = r_parsed
    keys[1] = np.nextafter(float(keys[1]), 1.0)
    exact = micro.assign(rec_key=micro["rec_key"].astype(float).to_numpy())
    exact.loc[0, "rec_key"] = nearest
    T = read_ptable(FIXTURES / "cellkey_countvars_ptable.csv", key_type="decimal")  # 10^8
    a = perturb(micro.assign(rec_key=keys), BY, T, record_keys="rec_key", method="cellkey")
    b = perturb(exact, BY, T, record_keys="rec_key", method="cellkey")
    assert np.array_equal(a["cell_key"], b["cell_key"])
    assert np.array_equal(a["perturbed"], b["perturbed"])
    # a float that is no decimal of at most 15 digits is still refused
    keys[2] = 0.1 + 1e-13 * np.pi
    with pytest.raises(ParameterError, match="not decimals of at most 15 digits"):
        perturb(micro.assign(rec_key=keys), BY, T, record_keys="rec_key", method="cellkey")
