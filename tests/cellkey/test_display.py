"""How the cell-key result objects show themselves: a one-line repr without arrays, a str of a few
lines, a small HTML table for notebooks, and to_pandas() where a table is natural
(rainbowdp.cellkey._display and the methods of the result classes)."""

from __future__ import annotations

import re
import sys

import numpy as np
import pytest

from rainbowdp.cellkey import (
    AuditReport,
    Ptable,
    audit,
    design_ptable,
    frequency_table,
    optimal_noise,
    optimal_table,
    perturb,
    post_sampling,
    quantised_cdf,
    record_keys,
    utility,
    utility_measures,
)


@pytest.fixture(scope="module")
def maxent_design():
    return design_ptable(1.0, 1e-5)  # the guide's max-entropy table, KEYSIZE 2^32


@pytest.fixture(scope="module")
def objects(maxent_design) -> dict:
    T = maxent_design.table
    rng = np.random.default_rng(3)
    data = {"a": rng.integers(0, 3, 300).tolist(), "b": rng.integers(0, 4, 300).tolist()}
    t = perturb(data, ["a", "b"], T, record_keys=record_keys(300, seed=5))
    return {
        "design": maxent_design,
        "ptable": T,
        "audit": maxent_design.report,
        "frequency": t,
        "utility": utility(t),
        "post": post_sampling(quantised_cdf([0.25, 0.5, 0.25], 256), 256),
        "noise": optimal_noise(1.0, D=4, variance=3.0),
        "table": optimal_table(1.0, D=3, variance=2.0),
        "plain frequency": frequency_table(data, ["a", "b"]),
    }


NAMES = [
    "design", "ptable", "audit", "frequency", "utility", "post", "noise", "table",
    "plain frequency",
]  # fmt: skip


@pytest.mark.parametrize("name", NAMES)
def test_repr_is_one_short_line_without_arrays(objects, name) -> None:
    r = repr(objects[name])
    assert "\n" not in r and len(r) <= 200, r
    assert "array(" not in r and "[" not in r, r
    assert r.startswith(type(objects[name]).__name__ + "("), r


@pytest.mark.parametrize("name", NAMES)
def test_str_is_a_few_lines(objects, name) -> None:
    s = str(objects[name])
    lines = s.splitlines()
    assert 1 <= len(lines) <= 10 and len(s) <= 1200, s
    assert "array(" not in s


@pytest.mark.parametrize("name", NAMES)
def test_html_is_a_small_table(objects, name) -> None:
    h = objects[name]._repr_html_()
    assert h.startswith("<table>") and h.endswith("</table>") and len(h) <= 3000, h
    assert h.count("<tr>") == h.count("</tr>") >= 3


def test_the_design_summary_says_where_its_delta_holds(maxent_design) -> None:
    # before: print(design_ptable(1, 1e-5)) dumped 14 kB in 190 lines (the whole table)
    d = maxent_design
    s = str(d)
    assert len(s) < 600
    assert f"on neighbouring counts >= {d.D}" in s
    assert "over all counts" in s
    assert "'maxent'" in s and 'method="optimal"' in s  # the stronger method is named
    # the numbers shown are rounded up: never below the exact ones
    shown = [float(x) for x in re.findall(r"^  delta = ([0-9.e+-]+)", s, flags=re.M)]
    assert shown[0] >= d.delta and shown[1] >= d.delta_all_counts
    assert shown[0] <= d.delta * (1 + 1e-3) and shown[1] <= d.delta_all_counts * (1 + 1e-3)
    assert d.delta_all_counts > 1e3 * d.delta  # 0.34 against 9.5e-6 here
    r = repr(d)
    assert f"on counts >= {d.D}" in r and "all counts" in r and "method='maxent'" in r


def test_the_optimal_design_summary_names_its_method() -> None:
    d = design_ptable(1.0, 0.05, keysize=2**8, method="optimal")
    s = str(d)
    assert "'optimal'" in s and 'method="optimal" gives' not in s
    assert f"on neighbouring counts >= {d.D}" in s and "over all counts" in s


def test_ptable_to_pandas_is_its_long_form(maxent_design) -> None:
    T = maxent_design.table
    df = T.to_pandas()
    assert list(df.columns) == ["i", "j", "v", "p"]
    back = np.zeros_like(T.probabilities)
    back[df["i"].to_numpy(), df["j"].to_numpy()] = df["p"].to_numpy()
    assert np.array_equal(back, T.probabilities)
    assert (df["v"] == df["j"] - df["i"]).all() and (df["p"] > 0).all()
    assert maxent_design.to_pandas().equals(df)


def test_audit_to_pandas_holds_the_audited_numbers() -> None:
    T = Ptable.from_noise([0.25, 0.5, 0.25], low=-1, rows=3)
    rep: AuditReport = audit(T, epsilons=[0.5, 1.0], deltas=[0.0, 0.1])
    df = rep.to_pandas()
    assert len(df) == 4
    at_eps = df[df["given"] == "epsilon"]
    assert at_eps["value"].tolist() == [0.5, 1.0]
    assert at_eps["all_counts"].tolist() == list(rep.delta_at_epsilon)
    assert at_eps["counts_from_D"].tolist() == list(rep.delta_at_epsilon_independent)
    at_delta = df[df["given"] == "delta"]
    assert at_delta["all_counts"].tolist() == list(rep.epsilon_at_delta)
    assert at_delta["worst_edge"].tolist() == list(rep.worst_edge_at_delta)


def test_utility_to_pandas_and_text() -> None:
    u = utility_measures([0, 1, 2, 4], [0, 0, 3, 4])
    df = u.to_pandas()
    assert list(df.index) == ["d1", "d2", "d3"]
    assert df.loc["d1", "mean"] == u.absolute.mean == 0.5
    assert df.loc["d2", "n"] == u.relative.n == 3  # the cells with n > 0
    s = str(u)
    assert "false zeros 1" in s and "-1: 1, 0: 2, 1: 1" in s


def test_optimal_noise_to_pandas_and_post_sampling_to_pandas(objects) -> None:
    r = objects["noise"]
    df = r.to_pandas()
    assert df["noise"].tolist() == list(range(-4, 5))
    assert np.array_equal(df["probability"].to_numpy(), r.pmf)
    ps = objects["post"]
    dp = ps.to_pandas()
    assert dp["noise"].tolist() == [-1, 0, 1] and dp["cq"].tolist() == [64, 192, 256]


def test_to_pandas_without_pandas_says_how_to_install_it(monkeypatch, objects) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)  # `import pandas` now raises ImportError
    for name in ("ptable", "audit", "utility", "noise", "post", "frequency"):
        with pytest.raises(ImportError, match=r"needs pandas.*rainbowdp\[tables\]"):
            objects[name].to_pandas()
