"""ptable files as agencies exchange them: ONS tables that are never short, bit-exact round
trips, the Tau-Argus and SAS exports of the R package ``ptable`` and modified ptables.

Oracles
-------
- The ONS tool (``cell-key-perturbation``, ``create_perturbed_table``): ``pcv = count`` up to
  750, ``((count - 1) % 250) + 501`` above; the noise is a left join on (pcv, ckey) with a
  missing pair filled by ``pvalue = 0``. :func:`ons_tool_noise` follows these rules.
- ``fixtures/pt_export_*.txt``: written by R 4.2 with data.table from a hand-made count table
  (rows i = 0..3), through the lines of ``ptable`` itself: ``pt_create_pTable`` (``p_int_ub :=
  cumsum(p)``, ``p_int_lb := p_int_ub - p``, both ``round(., 8)``, then ``p := p_int_ub -
  p_int_lb``), ``pt_export`` (columns ``i,j,p,v,p_int_ub`` for ``"TauArgus"`` and
  ``i,j,p,v,p_int_lb,p_int_ub`` for ``"SAS"``, written by ``write.table(format(pTable, digits =
  8), sep = ";", dec = ".", row.names = FALSE, col.names = TRUE, quote = FALSE)``) and
  ``modify_cnt_ptable(threshold = 0.2, seed = 123)`` (split at 0.2, ``set.seed(123)``,
  ``sample`` within each i, bounds recomputed and rounded to 8): the ``modified`` files. The
  splitting leaves a piece of width 0 (row 1, j = 0: 0.4 = 2 x 0.2 + 0).
"""

from __future__ import annotations

import csv
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rainbowdp.bundled import graphs_dir
from rainbowdp.cellkey import (
    KeysizeWarning,
    MagnitudePtable,
    Ptable,
    audit,
    read_ptable,
    write_ptable,
)
from rainbowdp.cli import main
from rainbowdp.exceptions import ParameterError

FIXTURES = Path(__file__).parent / "fixtures"
ONS256 = Path(str(graphs_dir())) / "ptables" / "optimal_eps1_ons256.csv"
# the hand-made table of the fixtures, before rounding (rows i = 0..3)
R_ROWS = [
    [1.0],
    [0.4, 0.2, 0.3333333, 0.0666667],
    [0.0000001, 0.3, 0.3999999, 0.25, 0.05],
    [0.0, 0.0512345, 0.2187655, 0.46, 0.2187655, 0.0512345],
]


def meta(T: Ptable) -> dict:
    """The table's metadata (a file's tables always have it)."""
    assert T.metadata is not None
    return dict(T.metadata)


def r_table() -> np.ndarray:
    P = np.zeros((4, 6))
    for i, row in enumerate(R_ROWS):
        P[i, : len(row)] = row
    return P


# ------------------------------------------------------------------------------ the ONS tool
def ons_tool_noise(path: Path, counts: np.ndarray, ckeys: np.ndarray) -> np.ndarray:
    """The noise the ONS tool gives each (count, cell key) from the file at ``path``.

    create_perturbed_table, steps 3-4: pcv = count for count <= 750, else ((count - 1) % 250)
    + 501; ``merge(ptable, how="left", on=["pcv", "ckey"])`` then ``pvalue.fillna(0)``.
    """
    table: dict[tuple[int, int], int] = {}
    with path.open(newline="") as fh:
        for row in csv.DictReader(fh):
            table[int(row["pcv"]), int(row["ckey"])] = int(row["pvalue"])
    pcv = np.where(counts <= 750, counts, (counts - 1) % 250 + 501)
    return np.array([table.get((int(r), int(k)), 0) for r, k in zip(pcv, ckeys, strict=True)])


def _all_pairs(K: int, top: int = 1000) -> tuple[np.ndarray, np.ndarray]:
    counts = np.repeat(np.arange(top + 1), K)
    return counts, np.tile(np.arange(K), top + 1)


def test_short_ons_table_is_unperturbed_in_the_ons_tool_and_the_written_one_is_not(
    tmp_path: Path,
) -> None:
    T = read_ptable(ONS256)
    K = T.keysize
    assert K == 256
    counts, keys = _all_pairs(K)
    ours = T.noise(counts, keys)
    # the issue: the file as written before (rows 0..I only; the shipped file had 4) gives
    # every count above I no noise in the ONS tool, where rainbowdp perturbs
    km = T.key_map
    assert km is not None and T.max_count == 3
    short = tmp_path / "short.csv"
    short.write_text(
        "pcv,ckey,pvalue\n"
        + "".join(f"{r},{k},{km[r, k]}\n" for r in range(km.shape[0]) for k in range(K))
    )
    above = counts > T.max_count
    tool_short = ons_tool_noise(short, counts, keys)
    assert np.all(tool_short[above] == 0) and np.count_nonzero(ours[above]) > 0
    assert read_ptable(short) == T  # rainbowdp reads both files as one table
    path = write_ptable(T, tmp_path / "ons.csv", layout="ons")
    assert np.array_equal(ons_tool_noise(path, counts, keys), ours)
    back = read_ptable(path)
    assert back == T and back.max_count == T.max_count and back.above == "last"
    assert np.array_equal(back.noise(counts, keys), ours)


@pytest.mark.parametrize(("rows", "K"), [(4, 16), (6, 256), (40, 64), (501, 8), (749, 4)])
def test_ons_files_always_have_rows_0_to_750(tmp_path: Path, rows: int, K: int) -> None:
    z = np.arange(-4, 5)
    pmf = np.exp(-0.3 * z * z)
    T = Ptable.from_noise(pmf / pmf.sum(), low=-4, rows=rows, keysize=K)
    path = write_ptable(T, tmp_path / "o.csv", layout="ons")
    lines = path.read_text().splitlines()
    pcv = np.array([int(line.split(",")[0]) for line in lines[1:]])
    assert np.array_equal(np.bincount(pcv), np.full(751, K))  # pcv 0..750, K keys each
    counts, keys = _all_pairs(K, 1300)
    assert np.array_equal(ons_tool_noise(path, counts, keys), T.noise(counts, keys))
    back = read_ptable(path)
    assert back.above == "last" or rows == 749  # 749: ascending, read as the ONS loop table
    assert np.array_equal(back.noise(counts, keys), T.noise(counts, keys))
    if rows < 749:
        assert np.array_equal(back.probabilities, T.quantised(K).probabilities)
        assert back.max_count == rows and back.keysize == K
        # the same lines sorted by pcv: the ONS loop table, the same noise for every count
        head, body = lines[0], lines[1:]
        body.sort(key=lambda line: int(line.split(",")[0]))
        path.write_text("\n".join([head, *body]) + "\n")
        resorted = read_ptable(path)
        assert resorted.above == "loop" and resorted.max_count == 750
        assert np.array_equal(resorted.noise(counts, keys), T.noise(counts, keys))


def test_ons_layout_rules_the_ons_tool_cannot_follow(tmp_path: Path) -> None:
    # a loop other than the ONS one
    T = Ptable(np.eye(5), above="loop", loop_start=2, keysize=4)
    with pytest.raises(ParameterError, match="I = 750 and loop_start = 501"):
        write_ptable(T, tmp_path / "x.csv", layout="ons")
    # a 'last' table whose rows differ from the last one above 501: the ONS tool would give
    # the counts above 750 the rows 501..750
    P = np.zeros((601, 602))
    P[np.arange(601), np.arange(601)] = 1.0
    P[600] = 0.0
    P[600, 599:602] = [0.25, 0.5, 0.25]
    with pytest.raises(ParameterError, match="up to row 599 > 501"):
        write_ptable(Ptable(P, keysize=4), tmp_path / "x.csv", layout="ons")
    # a 'last' table longer than 750 whose rows are all equal from row 3 on: written as I = 3
    long = Ptable.from_noise([0.25, 0.5, 0.25], low=-1, rows=900, keysize=4)
    back = read_ptable(write_ptable(long, tmp_path / "l.csv", layout="ons"))
    assert back.max_count == 1
    counts, keys = _all_pairs(4, 2000)
    assert np.array_equal(back.noise(counts, keys), long.noise(counts, keys))
    assert np.array_equal(
        ons_tool_noise(tmp_path / "l.csv", counts, keys), long.noise(counts, keys)
    )


def test_design_with_layout_ons_writes_751_rows(capsys, tmp_path: Path) -> None:
    out = tmp_path / "ons.csv"
    argv = "ptable design --epsilon 1 --delta 0.05 --keysize 256 --method optimal --layout ons"
    assert main([*argv.split(), "-o", str(out)]) == 0
    capsys.readouterr()
    with out.open(newline="") as fh:
        pcv = [int(row["pcv"]) for row in csv.DictReader(fh)]
    assert sorted(set(pcv)) == list(range(751)) and len(pcv) == 751 * 256
    T = read_ptable(out)
    assert T.max_count == 3 and T == read_ptable(ONS256)  # the shipped table, padded
    counts, keys = _all_pairs(256)
    assert np.array_equal(ons_tool_noise(out, counts, keys), T.noise(counts, keys))


# ------------------------------------------------------------------------------ round trips
@st.composite
def tables(draw: st.DrawFn) -> Ptable:
    n = draw(st.integers(1, 6))
    m = draw(st.integers(1, 7))
    w = np.array(draw(st.lists(st.integers(0, 10**6), min_size=n * m, max_size=n * m)))
    w = w.reshape(n, m).astype(np.float64)
    w[:, 0] += 1  # no empty row
    scale = draw(st.sampled_from([1.0, 1e-3, 1e-7]))
    w[:, 1:] *= scale
    return Ptable(w / w.sum(axis=1, keepdims=True))


@settings(max_examples=60, deadline=None)
@given(
    T=tables(),
    how=st.sampled_from(
        [("ptable", None), ("ptable", 8), ("ptable", 4), ("tauargus", None), ("sas", 6)]
    ),
)
def test_write_read_write_is_bit_exact(T: Ptable, how: tuple, tmp_path_factory) -> None:
    layout, digits = how
    d = tmp_path_factory.mktemp("rt")
    with warnings.catch_warnings():  # the export of a table off the 8-decimal grid warns
        warnings.simplefilter("ignore", KeysizeWarning)
        first = write_ptable(T, d / "a.txt", layout=layout, digits=digits)
    A = read_ptable(first)
    second = write_ptable(A, d / "b.txt", layout=layout)
    assert second.read_bytes() == first.read_bytes()
    B = read_ptable(second)
    assert np.array_equal(A.probabilities, B.probabilities) and A == B
    if layout == "ptable" and digits is None:
        assert A == T  # the table's own floats, bit for bit
    else:  # the bounds are on the file's decimal grid: d decimals at most
        places = digits or 8
        for line in first.read_text().splitlines()[1:]:
            for text in line.split(",")[4:6] if layout == "ptable" else line.split(";")[4:]:
                assert round(float(text), places) == float(text)


def test_bounds_of_an_8_digit_file_survive_a_round_trip(tmp_path: Path) -> None:
    # running float sums move 8-digit bounds (0.1 + 0.2 = 0.30000000000000004): the bounds are
    # rewritten as ptable computes them, cumulative sums rounded to the file's 8 digits
    text = (
        "i,j,p,v,p_int_lb,p_int_ub,type\n0,0,1,0,0,1,all\n"
        "1,0,0.1,-1,0,0.1,all\n1,1,0.2,0,0.1,0.3,all\n1,2,0.48440605,1,0.3,0.78440605,all\n"
        "1,3,0.21559395,2,0.78440605,1,all\n"
    )
    path = tmp_path / "r.csv"
    path.write_text(text)
    T = read_ptable(path)
    assert meta(T)["digits"] == 8
    assert np.cumsum(T.probabilities[1])[1] != 0.3  # the float running sum is off
    again = write_ptable(T, tmp_path / "w.csv")
    bounds = [line.split(",")[4:6] for line in again.read_text().splitlines()[1:]]
    assert [b for _, b in bounds] == ["1.0", "0.1", "0.3", "0.78440605", "1.0"]
    assert [a for a, _ in bounds] == ["0.0", "0.0", "0.1", "0.3", "0.78440605"]
    U = read_ptable(again)
    assert U == T and write_ptable(U, tmp_path / "w2.csv").read_text() == again.read_text()


def test_digits_argument_checks(tmp_path: Path) -> None:
    T = Ptable.from_noise([0.25, 0.5, 0.25], low=-1)
    bad: object
    for bad in (0, 16, 2.0, True):
        with pytest.raises(ParameterError, match=r"`digits` must be an integer in 1\.\.15"):
            write_ptable(T, tmp_path / "x.csv", digits=bad)  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="at most 8 for the tauargus layout"):
        write_ptable(T, tmp_path / "x.txt", layout="tauargus", digits=9)
    with pytest.raises(ParameterError, match="`keysize` is not part of the sas layout"):
        write_ptable(T, tmp_path / "x.txt", layout="sas", keysize=256)


# ------------------------------------------------------------------------ Tau-Argus and SAS
@pytest.mark.parametrize("name", ["tauargus", "sas", "modified_tauargus", "modified_sas"])
def test_ptable_exports_read_and_write_as_r_writes_them(tmp_path: Path, name: str) -> None:
    fixture = FIXTURES / f"pt_export_{name}.txt"
    T = read_ptable(fixture)
    layout = name.split("_")[-1]
    assert meta(T)["layout"] == layout and T.above == "last" and T.keysize is None
    # the table: the hand-made rows, as ptable rounds them (8 decimals)
    assert T.probabilities.shape == (4, 6)
    assert np.allclose(T.probabilities, r_table(), rtol=0, atol=1e-15)
    # written again: the R file, byte for byte (format(., digits = 8), ";", header, order)
    out = write_ptable(T, tmp_path / "back.txt", layout=layout)
    assert out.read_bytes() == fixture.read_bytes()
    assert read_ptable(out) == T


def test_tauargus_and_sas_are_one_table(tmp_path: Path) -> None:
    ta = read_ptable(FIXTURES / "pt_export_tauargus.txt")
    sas = read_ptable(FIXTURES / "pt_export_sas.txt", layout="sas")
    assert ta == sas and meta(ta)["digits"] == meta(sas)["digits"] == 7
    # R's format: one width per column, fixed decimals (pt_export: format(pTable, digits = 8))
    lines = (FIXTURES / "pt_export_tauargus.txt").read_text().splitlines()
    assert lines[0] == "i;j;p;v;p_int_ub" and lines[1] == "0;0;1.0000000; 0;1.0000000"
    # to the ptable layout and back to Tau-Argus: the same file
    via = read_ptable(write_ptable(ta, tmp_path / "pt.csv"))
    assert via == ta
    back = write_ptable(via, tmp_path / "ta.txt", layout="tauargus")
    assert back.read_bytes() == (FIXTURES / "pt_export_tauargus.txt").read_bytes()


def test_export_of_a_designed_table_and_scientific_columns(tmp_path: Path) -> None:
    # R 4.2: format(c(0, 0, 1e-08, 0, 1.234e-04, 0, 0.5), digits = 8) goes scientific (the
    # fixed width 10 exceeds the scientific 9); with 0.99999999 it stays fixed
    from rainbowdp.cellkey._layout_r import r_format

    assert r_format([0, 0, 1e-08, 0, 1.234e-04, 0, 0.5]) == [
        "0.000e+00", "0.000e+00", "1.000e-08", "0.000e+00", "1.234e-04", "0.000e+00", "5.000e-01"
    ]  # fmt: skip
    T = Ptable.from_noise([1e-8, 0.25 - 1e-8, 0.5, 0.25 - 1e-8, 1e-8], low=-2)
    # its running sums are not 8-decimal bounds: the file is T rounded, and says so
    with pytest.warns(KeysizeWarning, match=r"sas layout rounds the bounds to 8 decimals"):
        path = write_ptable(T, tmp_path / "t.txt", layout="sas")
    lines = path.read_text().splitlines()
    assert lines[0] == "i;j;p;v;p_int_lb;p_int_ub"
    assert all(len(line.split(";")) == 6 for line in lines)
    assert lines[-1] == "2;4;0.00000001; 2;0.99999999;1.00000000"
    back = read_ptable(path)
    assert meta(back)["digits"] == 8
    assert np.allclose(back.probabilities, T.probabilities, rtol=0, atol=5e-9)
    assert write_ptable(back, tmp_path / "u.txt", layout="sas").read_text() == path.read_text()


def test_export_detection_and_refusals(tmp_path: Path) -> None:
    path = tmp_path / "num.txt"
    path.write_text("i;j;p;v;p_int_ub;type\n0;0;1;0;1;even\n")
    # pt_export writes the column type for magnitude tables only: read by their reader
    assert isinstance(read_ptable(path), MagnitudePtable)
    with pytest.raises(ParameterError, match="`keysize` does not apply to the magnitude"):
        read_ptable(path, keysize=256)
    path.write_text("i;j;p;v;p_int_ub\n0;0;1;0;1\n1;0;0.5;-1;0.5\n1;2;0.4;1;0.9\n")
    with pytest.raises(ParameterError, match=r"row i=1 \(lines 3-4\) sums to"):
        read_ptable(path)
    path.write_text("i;j;p;v;p_int_ub\n0;0;1;0;1\n1;0;0.5;-1;0.4\n1;2;0.5;1;1\n")
    with pytest.raises(ParameterError, match=r"line 3: row i=1: p_int_ub - p_int_lb is not p"):
        read_ptable(path)
    with pytest.raises(ParameterError, match="no above-rule"):
        write_ptable(Ptable(np.eye(3), above="loop", loop_start=1), path, layout="tauargus")


# ------------------------------------------------------------------------------ modified
def test_modified_ptable_merges_the_pieces_and_keeps_them(tmp_path: Path) -> None:
    mod = read_ptable(FIXTURES / "pt_export_modified_sas.txt")
    plain = read_ptable(FIXTURES / "pt_export_sas.txt")
    # the pieces of each (i, j) sum to its probability; the law of each row is unchanged
    assert np.allclose(mod.probabilities, plain.probabilities, rtol=0, atol=1e-15)
    pieces = meta(mod)["intervals"]
    assert len(pieces["i"]) == 25 and pieces["j"][:3] == [0, 3, 1]  # file order (shuffled)
    assert pieces["p"][6] == 0.0  # the empty piece of the split 0.4 = 0.2 + 0.2 + 0
    # what the audit sees: the probabilities, as for the unmodified table
    a, b = audit(mod, epsilons=[1.0]), audit(plain, epsilons=[1.0])
    assert a.delta_at_epsilon == pytest.approx(b.delta_at_epsilon, rel=1e-12)
    # the pieces survive the ptable layout and come back in the Tau-Argus export
    via = read_ptable(write_ptable(mod, tmp_path / "m.csv"))
    assert via == mod and meta(via)["intervals"] == pieces
    ta = write_ptable(via, tmp_path / "m.txt", layout="tauargus")
    assert ta.read_bytes() == (FIXTURES / "pt_export_modified_tauargus.txt").read_bytes()


def test_hand_made_modified_file(tmp_path: Path) -> None:
    # row 1 split in order (repeated (1, 2) with positive widths) and row 2 shuffled
    text = (
        "i,j,p,v,p_int_lb,p_int_ub,type\n0,0,1,0,0,1,all\n"
        "1,0,0.25,-1,0,0.25,all\n1,1,0.25,0,0.25,0.5,all\n1,2,0.2,1,0.5,0.7,all\n"
        "1,2,0.3,1,0.7,1,all\n"
        "2,3,0.2,1,0,0.2,all\n2,1,0.3,-1,0.2,0.5,all\n2,2,0.5,0,0.5,1,all\n"
    )
    path = tmp_path / "m.csv"
    path.write_text(text)
    T = read_ptable(path)
    assert T.probabilities[1].tolist() == [0.25, 0.25, 0.5, 0.0]
    assert T.probabilities[2].tolist() == [0.0, 0.3, 0.5, 0.2]
    assert meta(T)["intervals"]["j"] == [0, 0, 1, 2, 2, 3, 1, 2]
    out = write_ptable(T, tmp_path / "w.csv")
    assert meta(read_ptable(out))["intervals"] == meta(T)["intervals"]
    # a repeated (i, j) of width 0 in a file in j order is a duplicate line, not a piece
    path.write_text(text + "1,2,0.0,1,1,1,all\n")
    T2 = read_ptable(path)  # row 2 is shuffled: the file is modified, the empty piece is kept
    assert T2 == T
    ordered = text.replace("2,3,0.2,1,0,0.2,all\n2,1,0.3,-1,0.2,0.5,all\n", "").replace(
        "2,2,0.5,0,0.5,1,all\n", "2,2,1,0,0,1,all\n"
    )
    path.write_text(ordered + "1,2,0.0,1,1,1,all\n")
    with pytest.raises(
        ParameterError, match=r"line 8: duplicate \(i, j\) \(1, 2\), first on line 5"
    ):
        read_ptable(path)
    # a table that no longer matches its pieces is written from its probabilities
    other = Ptable(T.probabilities[:2], metadata=T.metadata)
    lines = write_ptable(other, tmp_path / "o.csv").read_text().splitlines()
    assert len(lines) == 1 + 1 + 3


def test_command_line_writes_and_audits_the_exports(capsys, tmp_path: Path) -> None:
    for layout in ("tauargus", "sas"):
        out = tmp_path / f"pt_{layout}.csv"  # the command writes .csv names only
        argv = ["ptable", "design", "--epsilon", "1", "--delta", "1e-3", "--layout", layout]
        assert main([*argv, "-o", str(out)]) == 0
        header = out.read_text().splitlines()[0]
        assert header == (
            "i;j;p;v;p_int_ub" if layout == "tauargus" else "i;j;p;v;p_int_lb;p_int_ub"
        )
        capsys.readouterr()
        assert main(["ptable", "audit", str(out), "--epsilon", "1", "--layout", layout]) == 0
        assert capsys.readouterr().out.startswith("ptable audit: I=")
    assert main(["ptable", "audit", str(FIXTURES / "pt_export_modified_tauargus.txt")]) == 0


def test_file_digits_are_dropped_when_the_table_leaves_their_grid(tmp_path: Path) -> None:
    T = read_ptable(FIXTURES / "pt_export_sas.txt")
    assert meta(T)["digits"] == 7
    Q = T.quantised(2**32)  # multiples of 2^-32: not on the 7-decimal grid any more
    back = read_ptable(write_ptable(Q, tmp_path / "q.csv"))
    assert back == Q and "digits" not in meta(back)
    # an explicit digits= rounds anyway
    seven = read_ptable(write_ptable(Q, tmp_path / "q7.csv", digits=7))
    assert np.allclose(seven.probabilities, T.probabilities, rtol=0, atol=1e-7)


def test_modified_table_out_of_bound_order_is_refused(tmp_path: Path) -> None:
    # cellKey's lookup_freq (and Tau-Argus) take the first line of the row in file order with
    # key < p_int_ub: a row whose pieces are not in increasing bounds would be looked up
    # differently there than by the intervals, so such a file is refused (ptable's
    # modify_cnt_ptable writes them in order: fixtures/pt_export_modified_sas.txt reads)
    lines = (FIXTURES / "pt_export_modified_sas.txt").read_text().splitlines()
    row1 = [k for k, line in enumerate(lines[1:], 1) if line.split(";")[0].strip() == "1"]
    lines[row1[0]], lines[row1[1]] = lines[row1[1]], lines[row1[0]]
    path = tmp_path / "swapped.txt"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ParameterError, match=r"line 3: row i=1: the intervals of a modified"):
        read_ptable(path)


def _dense_rounded_bounds(P: np.ndarray, digits: int) -> tuple[np.ndarray, ...]:
    """ptable's bounds over the whole dense row (cumsum of every column), as a reference."""
    scale = 10**digits
    ints = np.rint(np.cumsum(P, axis=1) * float(scale)).astype(np.int64)
    n, m = P.shape
    last = m - 1 - np.argmax((P > 0)[:, ::-1], axis=1)
    ints[np.arange(m)[None, :] >= last[:, None]] = scale
    ints = np.maximum.accumulate(np.clip(ints, 0, scale), axis=1)
    lo = np.concatenate([np.zeros((n, 1), dtype=np.int64), ints[:, :-1]], axis=1)
    keep = ints > lo
    i, j = np.nonzero(keep)
    return i, j, lo[keep], ints[keep]


@settings(max_examples=60, deadline=None)
@given(T=tables(), digits=st.sampled_from([2, 4, 8, 12]))
def test_rounded_bounds_on_the_band_are_the_dense_ones(T: Ptable, digits: int) -> None:
    # the running sums are taken over each row's band (first to last positive entry): the same
    # floats as over the whole row, so the same bounds bit for bit
    from rainbowdp.cellkey._layout_r import rounded_bounds

    got = rounded_bounds(T.probabilities, digits)
    want = _dense_rounded_bounds(T.probabilities, digits)
    assert all(np.array_equal(a, b) for a, b in zip(got, want, strict=True))
