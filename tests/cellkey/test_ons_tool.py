"""rainbowdp against the ONS tool: the same microdata and ptable files give the same counts.

Oracle
------
The ONS tool, ``cell-key-perturbation`` 3.1.0 (Office for National Statistics; PyPI),
``create_perturbed_table(data, ptable, geog=["region"], tab_vars=["sex", "age"],
record_key=..., threshold=...)``, run on ``fixtures/ons_tool_micro.csv`` (4,648 records, 40
cells of region x sex x age: 1001, 1000, 751, 750 and 500 records among them, 5 empty cells,
many below 10; record keys 0..255 drawn with ``numpy.random.default_rng(20281127)``). Its
output, as the tool returns it (``DataFrame.to_csv(index=False)``), is in
``fixtures/ons_tool_output_<table>.csv``: the columns ``region, sex, age, pre_sdc_count, ckey,
pcv, pvalue, count``. The tool's rules (``cell_key_perturbation/create_perturbed_table.py``):

- the table is the full cross-classification (``pivot_table(..., fill_value=0,
  dropna=False)``, empty cells included), **without margins**;
- ``ckey`` = the sum of the cell's record keys modulo K, K = the ptable's largest ckey + 1 (an
  empty cell gets ckey 0);
- ``pcv`` = the count up to 750, ``((count - 1) % 250) + 501`` above;
- ``pvalue`` by a left join on (pcv, ckey), 0 where the file has no such line;
- ``count`` = ``pre_sdc_count + pvalue``, set to missing (empty in the file) where it is below
  ``threshold`` (default 10; 0 suppresses nothing).

rainbowdp reproduces it with ``perturb(..., method="sum", margins=False)`` (one integer key per
record, cell key = sum mod K) on the table ``read_ptable`` reads from the same file. rainbowdp
has no suppression threshold: the suppressed cells are checked as the cells whose perturbed
count is below the threshold.

The three tables (``fixtures/README.md`` says how each output was made):

- ``optimal_eps1_ons256``: ``graphs/ptables/optimal_eps1_ons256.csv`` as shipped (rows 0..3,
  padded to pcv 750), K = 256, threshold 10;
- ``loop16``: ``fixtures/ons_tool_ptable_loop16.csv``, written by ``write_ptable(...,
  layout="ons")`` from :func:`loop_table` (rows 0..750 with the ONS loop at 501, rows 501..750
  not all equal, keys shuffled within each row), K = 16, record keys ``record_key16`` =
  ``record_key % 16``, threshold 0;
- ``10_5_rule``: the ONS tool's own ``data_files/ptable_10_5_rule.csv`` (pcv 1..750, no pcv 0;
  its rule ``_calculate_pvalue`` in ``utils/generate_test_ptable.py``: -pcv below 10, then
  rounding to base 5), rebuilt here byte for byte and checked by its SHA-256, K = 256,
  threshold 10.
"""

from __future__ import annotations

import csv
import hashlib
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest

from rainbowdp.bundled import graphs_dir
from rainbowdp.cellkey import Ptable, perturb, read_ptable, write_ptable
from rainbowdp.cellkey._layout_ons import ons_row

FIXTURES = Path(__file__).parent / "fixtures"
ONS256 = Path(str(graphs_dir())) / "ptables" / "optimal_eps1_ons256.csv"
LOOP16 = FIXTURES / "ons_tool_ptable_loop16.csv"
BY = ["region", "sex", "age"]
#: SHA-256 of data_files/ptable_10_5_rule.csv of the ONS tool (ONSdigital/cell-key-perturbation,
#: commit 6ea4686ba9d05b06a3a6c8048ea9fd101bd083c9, version 3.1.0).
SHA256_10_5 = "05d8eccca94b6943f8b36484a36918dc41025ee8151293923a46e5c837843751"

Cell = tuple[str, str, str]


# ------------------------------------------------------------------------------ the inputs
def loop_table() -> Ptable:
    """The table of ``fixtures/ons_tool_ptable_loop16.csv``: ONS loop rows, K = 16.

    Row 0 publishes 0; rows 1, 2 have the noise law (4, 8, 4)/16 on -1..1; row i >= 3 has
    one of three laws on -2..2 by i mod 3, so the rows 501..750 the ONS tool loops over are
    not all equal (a "last" rule would perturb the counts above 750 otherwise). Each row's
    keys are permuted (``numpy.random.default_rng(2028)``): an ONS file maps keys to noise in
    any order.
    """
    K, top = 16, 750
    laws = {0: [0, 4, 8, 4, 0], 1: [1, 3, 8, 3, 1], 2: [2, 4, 4, 5, 1]}
    P = np.zeros((top + 1, top + 3))
    P[0, 0] = 1.0
    for i in range(1, top + 1):
        for v, weight in zip(range(-2, 3), laws[0 if i < 3 else i % 3], strict=True):
            if weight:
                P[i, i + v] = weight / K
    rng = np.random.default_rng(2028)
    T0 = Ptable(P, above="loop", loop_start=501, keysize=K)
    km = np.array([T0.noise(np.full(K, i), np.arange(K), keysize=K) for i in range(top + 1)])
    km = np.array([row[rng.permutation(K)] for row in km])
    return Ptable(P, above="loop", loop_start=501, key_map=km, keysize=K)


def pvalue_10_5(pcv: int) -> int:
    """The ONS tool's 10-5 rule (``generate_test_ptable._calculate_pvalue``)."""
    if pcv < 10:
        return -pcv
    return (0, -1, -2, 2, 1)[pcv % 5]


@pytest.fixture(scope="module")
def ptable_10_5(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``ptable_10_5_rule.csv`` as the ONS tool ships it: quoted header, CRLF, pcv 1..750."""
    lines = ['"pcv","ckey","pvalue"']
    lines += [f"{pcv},{k},{pvalue_10_5(pcv)}" for pcv in range(1, 751) for k in range(256)]
    path = tmp_path_factory.mktemp("ons") / "ptable_10_5_rule.csv"
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode())
    return path


def micro() -> dict[str, list[Any]]:
    with open(FIXTURES / "ons_tool_micro.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    data: dict[str, list[Any]] = {name: [r[name] for r in rows] for name in BY}
    for key in ("record_key", "record_key16"):
        data[key] = [int(r[key]) for r in rows]
    return data


class ToolCell(NamedTuple):
    """One line of the ONS tool's output; ``published`` None where the tool suppressed it."""

    pre_sdc_count: int
    ckey: int
    pcv: int
    pvalue: int
    published: int | None  # the column ``count``


def tool_output(name: str) -> dict[Cell, ToolCell]:
    """The ONS tool's table, by cell."""
    with open(FIXTURES / f"ons_tool_output_{name}.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == [*BY, "pre_sdc_count", "ckey", "pcv", "pvalue", "count"]
    return {
        (r["region"], r["sex"], r["age"]): ToolCell(
            int(r["pre_sdc_count"]),
            int(r["ckey"]),
            int(r["pcv"]),
            int(r["pvalue"]),
            int(r["count"]) if r["count"] else None,
        )
        for r in rows
    }


def rainbowdp_table(T: Ptable, key: str) -> dict[Cell, dict[str, int]]:
    t = perturb(micro(), BY, T, record_keys=key, method="sum", margins=False)
    cols = ("count", "cell_key", "noise", "perturbed")
    return {
        (str(a), str(b), str(c)): {name: int(t[name][i]) for name in cols}
        for i, (a, b, c) in enumerate(zip(t["region"], t["sex"], t["age"], strict=True))
    }


# name, record-key column, threshold of the tool's run (fixtures/README.md)
CASES = [
    ("optimal_eps1_ons256", "record_key", 10),
    ("loop16", "record_key16", 0),
    ("10_5_rule", "record_key", 10),
]


def table_for(name: str, ptable_10_5: Path) -> Ptable:
    path = {"optimal_eps1_ons256": ONS256, "loop16": LOOP16, "10_5_rule": ptable_10_5}[name]
    return read_ptable(path)


# ------------------------------------------------------------------------------ the tests
def test_the_10_5_file_is_the_ons_tools(ptable_10_5: Path) -> None:
    # Oracle: SHA-256 of the ONS tool's data_files/ptable_10_5_rule.csv (3.1.0, commit above).
    assert hashlib.sha256(ptable_10_5.read_bytes()).hexdigest() == SHA256_10_5


def test_the_loop_file_is_what_write_ptable_writes(tmp_path: Path) -> None:
    T = loop_table()
    out = write_ptable(T, tmp_path / "loop16.csv", layout="ons")
    assert out.read_bytes() == LOOP16.read_bytes()
    assert read_ptable(LOOP16) == T  # the key map, the loop at 501 and K = 16 kept


@pytest.mark.parametrize(("name", "key", "threshold"), CASES)
def test_rainbowdp_publishes_the_ons_tools_counts(
    name: str, key: str, threshold: int, ptable_10_5: Path
) -> None:
    # Oracle: fixtures/ons_tool_output_<name>.csv, written by cell-key-perturbation 3.1.0.
    tool = tool_output(name)
    ours = rainbowdp_table(table_for(name, ptable_10_5), key)
    assert set(ours) == set(tool) and len(tool) == 40  # every cell, empty ones included
    suppressed = 0
    for cell, t in tool.items():
        o = ours[cell]
        assert o["count"] == t.pre_sdc_count, cell
        assert o["cell_key"] == t.ckey, cell
        assert o["noise"] == t.pvalue, cell
        assert ons_row(np.array([o["count"]]))[0] == t.pcv, cell
        if t.published is None:  # suppressed by the tool: rainbowdp publishes below threshold
            suppressed += 1
            assert o["perturbed"] < threshold, cell
        else:
            assert o["perturbed"] == t.published >= threshold, cell
    if threshold == 0:
        assert suppressed == 0


@pytest.mark.parametrize(("name", "key", "threshold"), CASES)
def test_the_fixtures_exercise_the_rules(
    name: str, key: str, threshold: int, ptable_10_5: Path
) -> None:
    tool = tool_output(name)
    counts = sorted(t.pre_sdc_count for t in tool.values())
    assert counts[-4:] == [750, 751, 1000, 1001] and counts[:5] == [0] * 5
    big = [t for t in tool.values() if t.pre_sdc_count > 750]
    assert sorted(t.pcv for t in big) == [501, 501, 750]  # 751, 1001 -> 501; 1000 -> 750
    # the tool perturbs counts above 3 (optimal_eps1_ons256 has its own rows 0..3 only: as a
    # 4-row file, without the rows up to 750, the tool gave those counts pvalue 0)
    assert any(t.pvalue != 0 for t in tool.values() if t.pre_sdc_count > 3)
    if threshold:  # the tool suppressed some cells (and published none below threshold)
        assert any(t.published is None for t in tool.values())
    T = table_for(name, ptable_10_5)
    if T.above == "loop":
        # the loop matters: a last-row rule would publish other counts above 750
        last = Ptable(T.probabilities, key_map=T.key_map, keysize=T.keysize)
        ours = rainbowdp_table(T, key)
        other = rainbowdp_table(last, key)
        assert any(ours[c]["noise"] != other[c]["noise"] for c in ours)
