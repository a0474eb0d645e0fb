"""The cell-key commands: ``rainbowdp ptable design``, ``rainbowdp ptable audit`` and
``rainbowdp perturb`` (exit codes, one-line errors, JSON, files written)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from rainbowdp.bundled import graphs_dir
from rainbowdp.cellkey import read_ptable
from rainbowdp.cli import main

PTABLES = graphs_dir() / "ptables"
EXAMPLE1 = PTABLES / "abs_example1.csv"
ONS256 = PTABLES / "optimal_eps1_ons256.csv"
K32 = 2**32
# The commands that generated the shipped files.
EXAMPLE1_ARGS = ["--epsilon", "0.5", "--delta", "1e-4"]
ONS256_ARGS = "--epsilon 1 --delta 0.05 --keysize 256 --method optimal --layout ons".split()


def _no_constant(name: str) -> None:
    raise ValueError(f"non-strict JSON constant {name}")


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv) -> dict:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    assert err == ""
    return json.loads(out, parse_constant=_no_constant)  # strict JSON


def one_line_error(capsys, *argv) -> str:
    code, out, err = run(capsys, *argv)
    assert code == 2, (code, out, err)
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    return err


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


# ------------------------------------------------------------------------ the shipped files
def test_shipped_example1_file_is_generated_by_the_library(capsys, tmp_path) -> None:
    out = tmp_path / "abs_example1.csv"
    data = run_json(capsys, "ptable", "design", *EXAMPLE1_ARGS, "-o", out)
    assert out.read_bytes() == EXAMPLE1.read_bytes()
    assert read_ptable(out).keysize == K32  # the key size is kept
    # Sadeghi & Chien, Example 1: D* = 25, V ~ 49.00; Example 3: delta^Q = p^Q(-25) = 425760/2^32
    assert data["D"] == 25 and data["rows"] == 26 and data["keysize"] == K32
    assert round(data["variance"], 2) == 49.00
    assert 425760 / K32 <= data["delta"] <= 425760 / K32 * (1 + 1e-12)
    assert data["delta"] <= data["target_delta"] == 1e-4
    assert data["layout"] == "ptable" and data["output"] == str(out)


def test_shipped_ons_file_is_generated_by_the_library(capsys, tmp_path) -> None:
    out = tmp_path / "optimal_eps1_ons256.csv"
    data = run_json(capsys, "ptable", "design", *ONS256_ARGS, "-o", out)
    assert out.read_bytes() == ONS256.read_bytes()
    assert data["method"] == "optimal" and data["keysize"] == 256 and data["gamma"] is None
    assert data["delta"] <= 0.05 and data["layout"] == "ons"


def test_audit_of_the_shipped_example1_file(capsys) -> None:
    rep = run_json(capsys, "ptable", "audit", EXAMPLE1, "--epsilon", "0.5")
    assert rep["max_count"] == 25 and rep["D"] == 25
    assert rep["keysize"] == read_ptable(EXAMPLE1).keysize  # the file's own key size, if any
    # Example 3: at eps = 0.5 >= eps^Q ~ 0.498 the delta of the counts >= D is p^Q(-25)
    exact = 425760 / K32
    assert exact <= rep["delta_at_epsilon_independent"][0] <= exact * (1 + 1e-12)
    assert rep["delta_at_epsilon"][0] > 0.2 and rep["worst_edge_at_epsilon"] == [[0, 1]]
    assert rep["zeros_stay_zeros"] is True and rep["negative_outputs"] is False
    # Example 3: B^Q = -5.820766091346741e-9 (= -25 / 2^32) in the data-independent rows
    assert rep["bias"][25] == pytest.approx(-25 / K32, rel=1e-6)
    # re-quantising at 2^32 changes nothing: the file holds the applied table
    again = run_json(capsys, "ptable", "audit", EXAMPLE1, "--epsilon", "0.5", "--keysize", "2^32")
    assert again["keysize"] == K32 and again["lost_support"] == 0
    assert again["delta_at_epsilon"] == rep["delta_at_epsilon"]
    code, text, _ = run(capsys, "ptable", "audit", EXAMPLE1, "--epsilon", "0.5")
    assert code == 0 and text.startswith("ptable audit: I=25, D=25")


def test_audit_of_the_shipped_ons_file(capsys) -> None:
    rep = run_json(capsys, "ptable", "audit", ONS256, "--epsilon", "1", "--layout", "ons")
    assert rep["keysize"] == 256 and rep["D"] == 3 and rep["max_count"] == 3
    assert rep["delta_at_epsilon_independent"][0] <= 0.05
    assert rep["zeros_stay_zeros"] is True and rep["lost_support"] == 0
    auto = run_json(capsys, "ptable", "audit", ONS256, "--epsilon", "1")
    assert auto["delta_at_epsilon"] == rep["delta_at_epsilon"]
    T = read_ptable(ONS256)
    assert T.key_map is not None and T.keysize == 256
    assert np.array_equal(T.probabilities * 256, np.floor(T.probabilities * 256))


# ------------------------------------------------------------------------ design -> audit
@pytest.mark.parametrize(
    "argv",
    [
        "--epsilon 1 --delta 1e-3".split(),
        "--epsilon 1 --delta 0.05 --keysize 2^8 --layout ons".split(),
        "--epsilon 2 --delta 0.01 --keysize 65536 --rows 9".split(),
        "--epsilon 1 --delta 0.05 --method optimal --keysize 1024 --layout ons".split(),
    ],
)
def test_design_then_audit_round_trip(capsys, tmp_path, argv) -> None:
    out = tmp_path / "pt.csv"
    d = run_json(capsys, "ptable", "design", *argv, "-o", out)
    eps = argv[argv.index("--epsilon") + 1]
    rep = run_json(capsys, "ptable", "audit", out, "--epsilon", eps, "--delta", "1e-6")
    assert rep["delta_at_epsilon_independent"][0] == d["delta"] <= d["target_delta"]
    assert rep["delta_at_epsilon"][0] == d["delta_all_counts"]
    assert rep["D"] == d["D"] and rep["max_count"] + 1 == d["rows"]
    assert len(rep["epsilon_at_delta"]) == 1
    if "--rows" in argv:
        assert d["rows"] == 9
    if "ons" in argv:
        rep_ons = run_json(capsys, "ptable", "audit", out, "--epsilon", eps, "--layout", "ons")
        assert rep_ons["delta_at_epsilon"] == rep["delta_at_epsilon"]
        assert rep["keysize"] == d["keysize"]
        assert out.read_text().splitlines()[0] == "pcv,ckey,pvalue"
    else:  # the R layout with the key size in a last column
        assert out.read_text().splitlines()[0] == "i,j,p,v,p_int_lb,p_int_ub,type,keysize"
        assert read_ptable(out).keysize == d["keysize"]
    code, text, _ = run(capsys, "ptable", "design", *argv)  # the text report, no file
    assert code == 0 and f"D = {d['D']}" in text and "exact delta" in text
    assert ("--method optimal gives" in text) == ("optimal" not in argv)


# ----------------------------------------------------------------------------- perturb
def write_data(path: Path, *, keys: bool = True) -> list[tuple[str, str, int]]:
    """40 records with a in {x, y, z}, b in {u, v} (no record (z, v): an empty cell)."""
    rng = np.random.default_rng(12345)
    a = rng.choice(["x", "y", "z"], size=40)
    b = rng.choice(["u", "v"], size=40)
    b[a == "z"] = "u"
    rkey = rng.integers(0, 2**32, size=40, dtype=np.uint64)
    rkey[0] = 2**32 - 1
    rows = [(str(x), str(y), int(k)) for x, y, k in zip(a, b, rkey, strict=True)]
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["a", "b", "rkey"] if keys else ["a", "b"])
        for r in rows:
            w.writerow(r if keys else r[:2])
    return rows


def check_table(rows_out: list[dict[str, str]], records, *, margins: bool) -> None:
    counts = Counter((x, y) for x, y, _ in records)
    cells = {(r["a"], r["b"]): r for r in rows_out}
    assert list(rows_out[0]) == ["a", "b", "count", "cell_key", "noise", "perturbed"]
    interior = [(x, y) for x in ("x", "y", "z") for y in ("u", "v")]
    expected = set(interior)
    if margins:
        expected |= {(x, "Total") for x in ("x", "y", "z", "Total")}
        expected |= {("Total", y) for y in ("u", "v")}
    assert set(cells) == expected and len(rows_out) == len(expected)
    for (x, y), r in cells.items():
        true = sum(c for (p, q), c in counts.items() if x in (p, "Total") and y in (q, "Total"))
        assert int(r["count"]) == true, (x, y)
        assert int(r["perturbed"]) == int(r["count"]) + int(r["noise"]) >= 0, (x, y)
    assert int(cells[("z", "v")]["count"]) == 0
    assert int(cells[("z", "v")]["perturbed"]) == 0  # zeros stay zeros (row 0: point mass)


def test_perturb_with_the_sum_method_and_example1(capsys, tmp_path) -> None:
    data = tmp_path / "data.csv"
    records = write_data(data)
    out = tmp_path / "table.csv"
    summary = run_json(
        capsys, "perturb", data, "--by", "a,b", "--ptable", EXAMPLE1, "--method", "sum", "-o", out
    )
    assert summary["cells"] == 12 and summary["records"] == 40 and summary["keysize"] == K32
    assert summary["output"] == str(out)
    rows = read_csv(out)
    check_table(rows, records, margins=True)
    # the one-component cell key: the sum of the record keys of the cell modulo KEYSIZE
    for r in rows:
        keys = [k for x, y, k in records if r["a"] in (x, "Total") and r["b"] in (y, "Total")]
        assert int(r["cell_key"]) == sum(keys) % K32
    # the noise is the table's: row min(count, 25) shifted, looked up by the cell key
    T = read_ptable(EXAMPLE1)
    counts = np.array([int(r["count"]) for r in rows])
    ckeys = np.array([int(r["cell_key"]) for r in rows], dtype=np.uint64)
    assert T.noise(counts, ckeys, keysize=K32).tolist() == [int(r["noise"]) for r in rows]
    # deterministic: the same input gives the same file
    again = tmp_path / "again.csv"
    argv = ["perturb", data, "--by", "a,b", "--ptable", EXAMPLE1, "--method", "sum", "-o", again]
    assert run(capsys, *argv)[0] == 0
    assert again.read_bytes() == out.read_bytes()


def test_perturb_with_the_ons_table_and_byte_keys(capsys, tmp_path) -> None:
    data = tmp_path / "data.csv"
    records = write_data(data)
    out = tmp_path / "t.csv"
    code, text, err = run(capsys, "perturb", data, "--by", "a,b", "--ptable", ONS256, "-o", out)
    assert code == 0, err
    assert "perturbed 12 cells from 40 records (KEYSIZE 256)" in text
    rows = read_csv(out)
    check_table(rows, records, margins=True)
    assert all(0 <= int(r["cell_key"]) < 256 for r in rows)
    assert all(-3 <= int(r["noise"]) <= 3 for r in rows)  # D = 3
    out2 = tmp_path / "t2.csv"
    assert run(capsys, "perturb", data, "--by", "a,b", "--ptable", ONS256, "-o", out2)[0] == 0
    assert out2.read_bytes() == out.read_bytes()
    # interior cells only
    out3 = tmp_path / "t3.csv"
    s = run_json(
        capsys, "perturb", data, "--by", "a,b", "--ptable", ONS256, "--no-margins", "-o", out3
    )
    assert s["cells"] == 6
    inner = read_csv(out3)
    check_table(inner, records, margins=False)
    assert all("Total" not in (r["a"], r["b"]) for r in inner)
    # the interior cells are the same with and without margins
    with_margins = {(r["a"], r["b"]): r for r in rows}
    for r in inner:
        assert r == with_margins[(r["a"], r["b"])]


def test_perturb_with_seeded_keys(capsys, tmp_path) -> None:
    data = tmp_path / "data.csv"
    records = write_data(data, keys=False)  # no key column: the seed draws them
    outs = []
    for name, seed in (("s1.csv", 7), ("s2.csv", 7), ("s3.csv", 8)):
        out = tmp_path / name
        argv = ["perturb", data, "--by", "a,b", "--ptable", ONS256, "--seed", seed, "-o", out]
        code, _, err = run(capsys, *argv)
        assert code == 0, err
        outs.append(out)
        check_table(read_csv(out), records, margins=True)
    assert outs[0].read_bytes() == outs[1].read_bytes()  # the same seed, the same table
    keys = [[r["cell_key"] for r in read_csv(o)] for o in (outs[0], outs[2])]
    assert keys[0] != keys[1]  # another seed, other keys


# ------------------------------------------------------------------------------- errors
def test_perturb_errors_are_one_line(capsys, tmp_path) -> None:
    data = tmp_path / "data.csv"
    write_data(data)
    base = ["perturb", data, "--by", "a,b", "--ptable", ONS256]
    err = one_line_error(capsys, "perturb", data, "--by", "a,c", "--ptable", ONS256)
    assert "['c']" in err and "'a', 'b', 'rkey'" in err
    err = one_line_error(capsys, *base, "--record-key", "key")
    assert "['key']" in err
    assert "keysize=1000" in one_line_error(capsys, *base, "--keysize", "1000")
    assert "'abc'" in one_line_error(capsys, *base, "--keysize", "abc")
    err = one_line_error(capsys, *base, "-o", tmp_path / "out.txt")
    assert ".csv" in err and "out.txt" in err
    assert not (tmp_path / "out.txt").exists()
    # one 32-bit key per record is split into four bytes at KEYSIZE 2^8 only
    err = one_line_error(capsys, "perturb", data, "--by", "a,b", "--ptable", EXAMPLE1)
    assert "`record_keys`" in err and "keysize=2**8" in err
    bad_keys = tmp_path / "bad_keys.csv"
    bad_keys.write_text("a,b,rkey\nx,u,12\ny,v,1.5\n")
    err = one_line_error(capsys, "perturb", bad_keys, "--by", "a,b", "--ptable", ONS256)
    assert "'1.5'" in err and "'rkey'" in err


@pytest.mark.parametrize(
    ("content", "needles"),
    [
        # Latin-1 text: "é" is the single byte 0xe9
        (b"a,b,rkey\nx,u,12\n\xe9,v,13\n", ["line 3", "not UTF-8", "0xe9"]),
        # the column a twice: the second used to be dropped silently
        (b"a,b,a,rkey\nx,u,y,12\n", ["repeats the column 'a'", "fields 1 and 3"]),
        # an empty field in a classifying column: a missing value, refused as by the API
        (b"a,b,rkey\nx,u,12\ny,,13\n", ["line 3", "column 'b' is empty"]),
        (b"a,b,rkey\nx,u,12\n  ,v,13\n", ["line 3", "column 'a' is empty"]),
        # an empty record key
        (b"a,b,rkey\nx,u,\n", ["line 2", "column 'rkey' is empty"]),
        (b"", ["is empty"]),
        (b'a,b,rkey\nx,"u,12\n', ["line 2", "2 fields, expected 3"]),  # an unclosed quote
    ],
)
def test_perturb_refuses_bad_data_files_in_one_line(capsys, tmp_path, content, needles) -> None:
    data = tmp_path / "data.csv"
    data.write_bytes(content)
    err = one_line_error(capsys, "perturb", data, "--by", "a,b", "--ptable", ONS256)
    assert str(data) in err
    for needle in needles:
        assert needle in err, (needle, err)


def test_perturb_data_file_size_cap(capsys, tmp_path) -> None:
    data = tmp_path / "data.csv"
    write_data(data)
    size = data.stat().st_size
    argv = ["perturb", data, "--by", "a,b", "--ptable", ONS256]
    err = one_line_error(capsys, *argv, "--max-bytes", size - 1)
    assert f"limit of {size - 1} bytes" in err and "--max-bytes" in err
    assert run(capsys, *argv, "--max-bytes", size)[0] == 0  # exactly at the cap: read
    assert "--max-bytes" in one_line_error(capsys, *argv, "--max-bytes", "0")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_perturb_of_an_endless_source_stops_with_one_line() -> None:
    # /dev/zero has no size and no end of line: the reader stops after one long line
    argv = ["perturb", "/dev/zero", "--by", "a,b", "--ptable", str(ONS256)]
    proc = subprocess.run(
        [sys.executable, "-m", "rainbowdp.cli", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert "'/dev/zero'" in proc.stderr and "longer than" in proc.stderr


@pytest.mark.parametrize("key", ["-3", "99999999999999999999999"])
def test_perturb_rejects_out_of_range_record_keys_in_one_line(capsys, tmp_path, key) -> None:
    bad_keys = tmp_path / "bad_keys.csv"
    bad_keys.write_text(f"a,b,rkey\nx,u,12\ny,v,{key}\n")
    err = one_line_error(capsys, "perturb", bad_keys, "--by", "a,b", "--ptable", ONS256)
    assert repr(key) in err and "'rkey'" in err


def malformed_ptable(tmp_path: Path) -> Path:
    """An R-layout file whose row i = 1 sums to 0.9."""
    path = tmp_path / "bad.csv"
    path.write_text(
        "i,j,p,v,p_int_lb,p_int_ub,type\n"
        "0,0,1.0,0,0.0,1.0,all\n"
        "1,0,0.3,-1,0.0,0.3,all\n"
        "1,1,0.6,0,0.3,0.9,all\n"
    )
    return path


def test_malformed_ptable_file_is_one_line(capsys, tmp_path) -> None:
    bad = malformed_ptable(tmp_path)
    data = tmp_path / "data.csv"
    write_data(data)
    for argv in (
        ["ptable", "audit", bad],
        ["perturb", data, "--by", "a,b", "--ptable", bad, "--method", "sum"],
    ):
        err = one_line_error(capsys, *argv)
        assert "row i=1" in err and "sums to" in err and "bad.csv" in err


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--epsilon", "1", "--delta", "0.05", "-o", "pt.txt"], ".csv"),
        (["--epsilon", "0.5", "--delta", "1e-4", "--keysize", "256"], "keysize=256"),
        (["--epsilon", "1", "--delta", "0.05", "--keysize", "1001"], "keysize=1001"),
        (["--epsilon", "1", "--delta", "0.05", "--keysize", "2^x"], "'2^x'"),
        (["--epsilon", "0", "--delta", "0.05"], "epsilon=0"),
        (["--epsilon", "1", "--delta", "2"], "delta=2"),
        (["--epsilon", "1", "--delta", "0.05", "--method", "best"], "best"),
        (["--epsilon", "1", "--delta", "0.05", "--variance", "-1"], "--variance"),
        (["--epsilon", "1", "--delta", "0.05", "--layout", "ons", "-o", "pt.csv"], "keysize"),
        (["--epsilon", "1"], "--delta"),
    ],
)
def test_design_errors_are_one_line(capsys, tmp_path, argv, needle) -> None:
    argv = [str(tmp_path / a) if a.startswith("pt.") else a for a in argv]
    err = one_line_error(capsys, "ptable", "design", *argv)
    assert needle in err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_audit_errors_are_one_line(capsys, tmp_path) -> None:
    assert "missing.csv" in one_line_error(capsys, "ptable", "audit", tmp_path / "missing.csv")
    err = one_line_error(capsys, "ptable", "audit", ONS256, "--keysize", "1000")
    assert "keysize=1000" in err
    err = one_line_error(capsys, "ptable", "audit", ONS256, "--delta", "1.5")
    assert "1.5" in err


def test_perturb_with_cellkeys_decimal_keys_and_weights(capsys, tmp_path) -> None:
    # the command line gives the library's table: decimal record keys summed mod 1 (cellKey's
    # rule) and weighted counts (tests/cellkey/test_cellkey_compat.py checks those by hand)
    import csv

    from rainbowdp import cellkey

    fixtures = Path(__file__).parent / "cellkey" / "fixtures"
    data, table = fixtures / "ckey_micro.csv", fixtures / "ckey_ptable_D2.csv"
    out = tmp_path / "pert.csv"
    summary = run_json(
        capsys, "perturb", data, "--by", "sex,region", "--ptable", table,
        "--method", "cellkey", "--weights", "w", "-o", out,
    )  # fmt: skip
    assert summary["keysize"] == "decimal" and summary["records"] == 9
    with data.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    columns = {k: np.array([r[k] for r in rows]) for k in ("sex", "region", "rkey")}
    weights = np.array([float(r["w"]) for r in rows])
    ref = cellkey.perturb(
        columns, ["sex", "region"], cellkey.read_ptable(table), method="cellkey", weights=weights
    )
    with out.open(newline="") as fh:
        written = list(csv.DictReader(fh))
    assert [int(r["perturbed"]) for r in written] == [int(x) for x in ref.columns["perturbed"]]
    assert [float(r["perturbed_weighted"]) for r in written] == [
        float(x) for x in ref.columns["perturbed_weighted"]
    ]
    for bad in (["--seed", "3"], ["--keysize", "1000"], ["--record-key", "a,b"]):
        err = one_line_error(
            capsys, "perturb", data, "--by", "sex", "--ptable", table, "--method", "cellkey", *bad
        )
        assert "--method cellkey" in err
    err = one_line_error(
        capsys, "perturb", data, "--by", "sex", "--ptable", table, "--method", "cellkey",
        "--weights", "sex",
    )  # fmt: skip
    assert "weight column 'sex'" in err


FIXTURES = Path(__file__).parent / "cellkey" / "fixtures"


def test_design_for_decimal_keys_and_audit_a_file_on_its_decimal_grid(capsys, tmp_path) -> None:
    # a table for cellKey's 8-digit keys: designed, quantised and audited on the grid 10^8
    out = tmp_path / "pt.txt"
    d = run_json(
        capsys,
        "ptable",
        "design",
        "--epsilon",
        "0.5",
        "--delta",
        "1e-4",
        "--keysize",
        "10^8",
        "--layout",
        "tauargus",
        "-o",
        out,
        "--json",
    )
    assert d["keysize"] == 10**8 and d["delta"] <= 1e-4
    # the Tau-Argus file has no key size; --key-type decimal audits it on its bounds' grid
    a = run_json(
        capsys, "ptable", "audit", out, "--key-type", "decimal", "--epsilon", "0.5", "--json"
    )
    assert a["keysize"] == 10**8
    assert a["delta_at_epsilon_independent"][0] <= 1e-4
    assert "--keysize must be an integer, 2^k or 10^d" in one_line_error(
        capsys, "ptable", "design", "--epsilon", "1", "--delta", "0.1", "--keysize", "10^x"
    )


def test_commands_refuse_a_magnitude_table_in_one_line(capsys) -> None:
    # ptable 0.3.3, pt_ex_nums(): a magnitude table; the count commands name what to use
    msg = one_line_error(capsys, "ptable", "audit", FIXTURES / "ptable_nums_all.csv")
    assert "magnitude ptable" in msg and "perturb_numeric" in msg


def test_perturb_warns_in_one_line_when_the_keys_apply_another_table(capsys, tmp_path) -> None:
    # 5-digit decimal keys on a table of 8-digit bounds (ptable 0.3.3, create_cnt_ptable(D = 3,
    # V = 1)): the keys apply its quantisation at 10^5, which its default audit does not show
    rng = np.random.default_rng(5)
    data = tmp_path / "m.csv"
    rows = [f"{rng.choice(['f', 'm'])},0.{int(k):05d}" for k in rng.integers(0, 10**5, 200)]
    data.write_text("sex,rkey\n" + "\n".join(rows) + "\n")
    pt = FIXTURES / "ptable_D3_V1.csv"
    code, _out, err = run(
        capsys, "perturb", data, "--by", "sex", "--ptable", pt, "--method", "cellkey"
    )
    assert code == 0 and "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("rainbowdp: warning: `record_keys` have 5")
    assert "keysize=10**5" in err


def test_perturb_with_a_hierarchy_file(capsys, tmp_path) -> None:
    # --hierarchy VAR=FILE.json: every node of the tree is a row, each subtotal keyed by its
    # own records, exactly as perturb(..., hierarchies=) in Python
    rng = np.random.default_rng(11)
    region = rng.choice(["n1", "n2", "s1"], 300)
    keys = [f"0.{int(k):08d}" for k in rng.integers(0, 10**8, 300)]
    data = tmp_path / "h.csv"
    data.write_text(
        "region,rkey\n" + "".join(f"{r},{k}\n" for r, k in zip(region, keys, strict=True))
    )
    tree = {"north": ["n1", "n2"], "south": ["s1"]}
    (tmp_path / "reg.json").write_text(json.dumps(tree))
    out = tmp_path / "t.csv"
    pt = FIXTURES / "ptable_D3_V1.csv"
    argv = ["perturb", data, "--by", "region", "--ptable", pt, "--method", "cellkey"]
    code, _out, err = run(
        capsys, *argv, "--hierarchy", f"region={tmp_path / 'reg.json'}", "-o", out
    )
    assert code == 0, err
    rows = read_csv(out)
    from rainbowdp.cellkey import perturb

    want = perturb(
        {"region": region, "rkey": np.array(keys)},
        "region",
        read_ptable(pt),
        method="cellkey",
        hierarchies={"region": tree},
    )
    assert [r["region"] for r in rows] == list(want["region"])
    assert [int(r["perturbed"]) for r in rows] == want["perturbed"].tolist()
    assert "not a --by column" in one_line_error(
        capsys, *argv, "--hierarchy", f"age={tmp_path / 'reg.json'}"
    )
    assert "must be VAR=FILE.json" in one_line_error(capsys, *argv, "--hierarchy", "region")
