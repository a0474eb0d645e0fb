"""The fixtures of cellKey's magnitude test are cellKey's own numbers (no rainbowdp code here).

Oracle: the R package ``cellKey`` 1.0.2 (sdcTools), ``tests/testthat/test_numvars.R``: its test
data (``ck_create_testdata()`` plus the variables the test adds, 8-digit record keys), the
magnitude ptable ``ptable::pt_ex_nums(parity = TRUE, separation = FALSE)``, the parameters of
``income`` (``type = "top_contr"``, top 3, flex function) and ``savings`` (``type = "mean"``,
simple), perturbed by cellKey's own R code and written to ``fixtures/cellkey_numvars_*.csv``
(see ``fixtures/README.md``). These tests pin the fixtures to the test file's printed
expectations and to the rules they were computed by, for the implementation of numeric
perturbation to be checked against, cell for cell and contributor for contributor.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

FIXTURES = Path(__file__).parent / "fixtures"
BY = ["sex", "age"]
TOTAL = "Total"


def _read(name: str, **kw: Any) -> pd.DataFrame:
    return pd.read_csv(FIXTURES / f"cellkey_numvars_{name}.csv", **kw)


@pytest.fixture(scope="module")
def micro() -> pd.DataFrame:
    return _read("micro", dtype={"rkey": str})


@pytest.fixture(scope="module")
def expected() -> pd.DataFrame:
    return _read("expected", dtype={"ck_text": str, "ck_nz_text": str})


@pytest.fixture(scope="module")
def contributions() -> pd.DataFrame:
    return _read("contributions", dtype={"ckey_text": str})


def _in_cell(micro: pd.DataFrame, sex: str, age: str) -> np.ndarray:
    keep = np.ones(len(micro), dtype=bool)
    if sex != TOTAL:
        keep &= (micro["sex"] == sex).to_numpy()
    if age != TOTAL:
        keep &= (micro["age"] == age).to_numpy()
    return keep


def test_micro_is_cellkeys_test_data(micro: pd.DataFrame) -> None:
    # cellKey 1.0.2, tests/testthat/test_numvars.R,
    # "checking dimension and structure of generated testdata is ok"
    assert len(micro) == 4580
    assert round(float(micro["rkey_double"].mean()), 3) == 0.5
    assert (micro["mixed"].min(), micro["mixed"].max()) == (-20, 10)
    assert int((micro["sex"] == "male").sum()) == 2296
    assert int((micro["sex"] == "female").sum()) == 2284
    # cnt_highincome is taken before the test multiplies the incomes of records 1297 and 3503
    # by 25
    boosted = micro["id"].isin([1297, 3503])
    assert int(((micro["income"] >= 9000) & ~boosted).sum()) == 445
    assert (micro.loc[boosted, "income"] % 25 == 0).all()
    # keys: 8 decimals as text; the text read as a double is the double R holds
    assert micro["rkey"].str.fullmatch(r"0\.\d{8}").all()
    assert (micro["rkey"].astype(float) == micro["rkey_double"]).all()


def test_ptable_and_parameters_are_cellkeys() -> None:
    # cellKey 1.0.2, tests/testthat/test_numvars.R, "checking perturbation parameters"
    pt = _read("ptable")
    assert pt.shape == (96, 7)
    assert round(float(pt["p"].mean()), 3) == 0.042
    assert set(pt["type"]) == {"all"}
    assert set((pt["j"] * 2).round() / 2) == set(pt["j"])  # j in half steps
    prm = _read("params", dtype=str).set_index(["vname", "parameter"])["value"]
    assert prm["income", "type"] == "top_contr"
    assert prm["income", "top_k"] == "3"
    assert float(prm["income", "mu_c"]) == 2.5
    assert float(prm["income", "E"]) == 1.34
    assert float(prm["income", "zs"]) == 0
    assert float(prm["income", "mult_fp"]) == 1000
    assert float(prm["income", "mult_p_small"]) == 0.2
    assert float(prm["income", "mult_p_large"]) == 0.03
    assert prm["income", "mult_epsilon"] == "1 0.5 0.3"
    assert (prm["income", "same_key"], prm["income", "use_zero_rkeys"]) == ("FALSE", "TRUE")
    assert (prm["income", "even_odd"], prm["income", "separation"]) == ("FALSE", "FALSE")
    assert (prm["savings", "type"], prm["savings", "same_key"]) == ("mean", "TRUE")
    assert prm["savings", "use_zero_rkeys"] == "FALSE"


def test_expected_is_cellkeys_numtab(expected: pd.DataFrame) -> None:
    # cellKey 1.0.2, tests/testthat/test_numvars.R, "variable was correctly perturbed"
    # (expect_equal: tolerance 1.5e-8 relative)
    means = {
        ("income", "pws"): 13181967.1,
        ("income", "ws"): 13184145.52,
        ("savings", "pws"): 1306306.6,
        ("savings", "ws"): 1306303.048,
        ("income", "pws_mean_before_sum"): 13179895.45,
        ("savings", "pws_mean_before_sum"): 1306310.272,
    }
    for (v, col), want in means.items():
        sub = expected[expected["vname"] == v]
        assert len(sub) == 21
        assert round(float(sub[col].mean()), 3) == pytest.approx(want, rel=1.5e-8)
    # pws = ws + the cell's total perturbation; mean_before_sum: pws * pws / ws
    e = expected
    assert np.allclose(e["pws"], e["ws"] + e["pert_total"], rtol=1e-13, atol=0)
    assert np.allclose(e["pws_mean_before_sum"], e["pws"] ** 2 / e["ws"], rtol=1e-13, atol=0)


def test_expected_sums_and_cell_keys_follow_the_micro_data(
    micro: pd.DataFrame, expected: pd.DataFrame
) -> None:
    keys = micro["rkey"].str[2:].astype(np.int64).to_numpy()  # exact, on the 1e-8 grid
    w = micro["sampling_weight"].to_numpy()
    for row in expected.itertuples():
        cell = _in_cell(micro, row.sex, row.age)
        val = micro[row.vname].to_numpy()
        assert row.uws == val[cell].sum()
        assert row.ws == (w * val)[cell].sum()
        # cellKey's cell keys: a double sum mod 1 (within its rounding) of all the cell's keys
        # (ck) and of the keys of the records with a non-zero value (ck_nz)
        assert abs(row.ck - (keys[cell].sum() % 10**8) / 1e8) < 1e-9
        assert abs(row.ck_nz - (keys[cell & (val != 0)].sum() % 10**8) / 1e8) < 1e-9
        # ck_text is R's as.character() of that double: 15 significant digits
        assert float(row.ck_text) == pytest.approx(row.ck, rel=1e-14)


def _scramble(text: str, k: int) -> list[str]:
    # cellKey's .scramble_ckeys (R/utils_numtabs.R), same_key = FALSE: the digits after "0."
    # rotated left by one for each further contributor
    out = ["0." + (text[3:] or "0") + text[2]]
    for _ in range(1, k):
        prev = out[-1]
        out.append("0." + prev[3:] + prev[2])
    return out


def test_contributions_follow_cellkeys_rules(
    micro: pd.DataFrame, expected: pd.DataFrame, contributions: pd.DataFrame
) -> None:
    c, e = contributions, expected
    assert len(c) == 21 * 3 + 21
    w = micro.set_index("id")["sampling_weight"]
    inc = micro.set_index("id")["income"]
    for row in e.itertuples():
        mine = c[(c["vname"] == row.vname) & (c["sex"] == row.sex) & (c["age"] == row.age)]
        assert mine["x_hat"].sum() == pytest.approx(row.pert_total, rel=1e-12, abs=1e-9)
        assert np.allclose(mine["cv"], row.ws) and np.allclose(mine["cv_p"], row.pws)
        if row.vname == "savings":
            # type "mean", same_key: one contributor, x = the weighted mean, the key ck_nz
            assert mine["x"].iloc[0] == pytest.approx(row.w_mean, rel=1e-15)
            assert mine["ckey"].iloc[0] == row.ck_nz
            continue
        # type "top_contr": the 3 largest |value| (ties: larger weight first), x = w * value,
        # keys: ck's text scrambled
        ids = mine["record_id"].to_numpy()
        assert np.array_equal(mine["x"], (w[ids] * inc[ids]).to_numpy())
        cell = micro[_in_cell(micro, row.sex, row.age)]
        top = cell.assign(a=cell["income"].abs()).sort_values(
            ["a", "sampling_weight"], ascending=False, kind="stable"
        )
        assert np.array_equal(mine["x"], (top["sampling_weight"] * top["income"]).to_numpy()[:3])
        scrambled = [float(t) for t in _scramble(row.ck_text, 3)]
        assert np.array_equal(mine["ckey"], scrambled)
        assert np.array_equal(mine["ckey"], mine["ckey_text"].astype(float))
