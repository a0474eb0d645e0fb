"""The key grid a ptable file is applied with: decimal keys from the file's digits, modified
tables quantised piece by piece, keys with fewer digits than the table's grid, grids the audit
cannot hold, and magnitude tables recognised by ``read_ptable``.

Oracles
-------
- ``fixtures/pt_export_*.txt`` (see ``test_layouts.py``): written by R 4.2 through the lines of
  the R package ``ptable`` 0.3.3 (``pt_create_pTable``: bounds rounded with ``round(., 8)``;
  ``pt_export`` with ``format(., digits = 8)``, which prints these bounds with 7 decimals;
  ``modify_cnt_ptable(threshold = 0.2, seed = 123)``: the ``modified`` files).
- The lookup of the R package ``cellKey`` 1.0.2 (``R/cellkey_pkg.R``, ``lookup_freq`` in
  ``.ck_perturb_cnts``): in the lines of row ``d`` *in file order*, ``which.max(ck < ub)``, the
  first line whose upper bound exceeds the cell key; count 0 untouched; the last row for every
  count >= ``max(i)``. :func:`r_lookup_counts` follows it key by key on the grid, comparing the
  key k / K with the bound as written in the file in exact integer arithmetic.
- The R package ``ptable`` 0.3.3, ``create_num_ptable`` (``R/pt_create_pTable.R``): a magnitude
  table has a column ``type`` (``even`` / ``odd``; cellKey adds ``small_cells``) and, with
  ``step > 1``, j in steps of 1 / step; ``pt_export`` writes ``type`` for magnitude tables only.
"""

from __future__ import annotations

import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from rainbowdp.cellkey import (
    KeysizeWarning,
    MagnitudePtable,
    Ptable,
    audit,
    perturb,
    read_ptable,
    write_ptable,
)
from rainbowdp.cellkey._audit import _applied
from rainbowdp.cellkey._decimal_keys import (
    applied_key_counts,
    check_key_digits,
    decimal_noise,
    decimal_thresholds,
)
from rainbowdp.cellkey._ptable_io import _detect_layout
from rainbowdp.cellkey._ptable_ops import KeyType
from rainbowdp.exceptions import ParameterError

FIXTURES = Path(__file__).parent / "fixtures"
MODIFIED = FIXTURES / "pt_export_modified_sas.txt"
PLAIN = FIXTURES / "pt_export_sas.txt"
EXAMPLE1 = Path(__file__).resolve().parents[2] / "graphs" / "ptables" / "abs_example1.csv"
ONS256 = Path(__file__).resolve().parents[2] / "graphs" / "ptables" / "optimal_eps1_ons256.csv"


# ------------------------------------------------------------------------------ brute force
def file_lines(path: Path) -> list[dict[str, str]]:
    """The data lines of a SAS export or a comma-separated R file, as texts (file order)."""
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    delim = ";" if ";" in lines[0] else ","
    names = [c.strip().strip('"') for c in lines[0].split(delim)]
    return [
        dict(zip(names, (f.strip() for f in line.split(delim)), strict=True)) for line in lines[1:]
    ]


def r_lookup_counts(lines: list[dict[str, str]], K: int) -> dict[tuple[int, int], int]:
    """Keys k / K of the grid per (i, j): every key of every row looked up one by one as
    cellKey's ``lookup_freq`` does (the first line of the row, in file order, with key < ub),
    the bound the exact decimal written in the file."""
    out: dict[tuple[int, int], int] = {}
    for i in sorted({int(r["i"]) for r in lines}):
        block = [
            (Fraction(r["p_int_ub"]), int(r["j"])) for r in lines if int(r["i"]) == i
        ]  # file order
        bounds = [(ub.numerator, ub.denominator, j) for ub, j in block]
        for k in range(K):
            for num, den, j in bounds:  # key k / K < num / den, in integers
                if k * den < num * K:
                    out[i, j] = out.get((i, j), 0) + 1
                    break
    return out


def r_lookup_noise(lines: list[dict[str, str]], count: int, k: int, K: int) -> int:
    """cellKey's noise of one (count, key k / K) (``lookup_freq``)."""
    if count == 0:
        return 0
    d = min(count, max(int(r["i"]) for r in lines))
    for r in lines:
        if int(r["i"]) == d and Fraction(k, K) < Fraction(r["p_int_ub"]):
            return int(r["v"])
    raise AssertionError("a key in [0, 1) always finds its line")


def as_matrix(counts: dict[tuple[int, int], int], shape: tuple[int, int]) -> np.ndarray:
    out = np.zeros(shape, dtype=np.int64)
    for (i, j), n in counts.items():
        out[i, j] += n
    return out


# ------------------------------------------------------------------------------ item 1
def test_decimal_key_type_takes_the_grid_from_the_files_digits() -> None:
    for name in ("tauargus", "sas", "modified_tauargus", "modified_sas"):
        path = FIXTURES / f"pt_export_{name}.txt"
        old = read_ptable(path)  # the default reads as before: no key grid
        assert old.keysize is None and old.key_type == "integer"
        T = read_ptable(path, key_type="decimal")
        # format(., digits = 8) wrote these bounds with 7 decimals: the grid 10^7, on which
        # every bound of the file is a grid point
        assert (T.key_type, T.keysize, T.key_digits) == ("decimal", 10**7, 7)
        assert np.array_equal(T.probabilities, old.probabilities)
        # the audit takes that grid by default: the file's own table, entries count / 10^7
        r = audit(T, epsilons=[1.0, 3.0])
        assert r.keysize == 10**7 and r.lost_support == 0
        assert (
            r.delta_at_epsilon_independent
            == audit(old, epsilons=[1.0, 3.0], keysize=10**7).delta_at_epsilon_independent
        )
    # an 8-digit file of ptable (pt_create_pTable rounds to 8): the grid 10^8
    D8 = read_ptable(FIXTURES / "ckey_ptable_D2.csv", key_type="decimal")
    assert D8.keysize == 10**8 and D8.key_digits == 8
    # an explicit grid: cellKey's 5-digit keys
    assert read_ptable(PLAIN, key_type="decimal", keysize=10**5).key_digits == 5
    assert read_ptable(PLAIN, keysize=10**5).key_type == "decimal"  # told by the keysize
    assert read_ptable(PLAIN, key_type="integer", keysize=2**16).keysize == 2**16


def test_decimal_key_type_refusals(tmp_path: Path) -> None:
    with pytest.raises(
        ParameterError, match=r"file's 'integer' \(its column `keysize` = 4294967296"
    ):
        read_ptable(EXAMPLE1, key_type="decimal")
    with pytest.raises(ParameterError, match=r"ONS layout .* integer keys 0\.\.K-1"):
        read_ptable(ONS256, key_type="decimal")
    with pytest.raises(
        ParameterError,
        match=r"`keysize` must be a power of two \(integer keys\) or 10\^d.*keysize=12",
    ):
        read_ptable(PLAIN, keysize=12)
    with pytest.raises(
        ParameterError, match=r"`keysize` must be 10\^d.*key_type='decimal', got keysize=256"
    ):
        read_ptable(PLAIN, key_type="decimal", keysize=256)
    with pytest.raises(ParameterError, match="`key_type` must be one of"):
        read_ptable(PLAIN, key_type="float")  # type: ignore[arg-type]
    # bounds that are float running sums (17 decimals): no grid to take
    path = tmp_path / "f.csv"
    path.write_text(
        "i,j,p,v,p_int_lb,p_int_ub,type\n0,0,1,0,0,1,all\n"
        "1,0,0.1,-1,0,0.1,all\n1,1,0.2,0,0.1,0.30000000000000004,all\n"
        "1,2,0.7,1,0.30000000000000004,1,all\n"
    )
    assert read_ptable(path).keysize is None
    with pytest.raises(ParameterError, match=r"more than 15 decimals.*pass keysize=10\*\*d"):
        read_ptable(path, key_type="decimal")
    assert read_ptable(path, key_type="decimal", keysize=10**8).keysize == 10**8


# ------------------------------------------------------------------------------ item 2
def test_keysize_column_holds_integer_and_decimal_grids(tmp_path: Path) -> None:
    P = read_ptable(PLAIN).probabilities
    grids: list[tuple[int, KeyType]] = [(10**5, "decimal"), (10**8, "decimal"), (2**16, "integer")]
    for K, kind in grids:
        T = Ptable(P, keysize=K, key_type=kind)
        path = write_ptable(T, tmp_path / f"t{K}.csv")
        assert path.read_text().splitlines()[1].endswith(f",all,{K}")
        back = read_ptable(path)
        assert back == T and back.key_type == kind
        assert write_ptable(back, tmp_path / f"u{K}.csv").read_bytes() == path.read_bytes()
    for bad in ("12", "3000", "10000000000000000000", "1"):
        path = tmp_path / "bad.csv"
        path.write_text(f"i,j,p,v,p_int_lb,p_int_ub,type,keysize\n0,0,1.0,0,0.0,1.0,all,{bad}\n")
        match = (
            f"column `keysize` is out of range, got '{bad}'"
            if len(bad) > 18
            else f"column `keysize` must be a power of two, got {bad}"
        )
        with pytest.raises(ParameterError, match=rf"line 2: {match}"):
            read_ptable(path)


# ------------------------------------------------------------------------------ item 3
@pytest.mark.parametrize("digits", [1, 2, 3, 4, 5])
def test_modified_table_on_a_coarser_grid_is_quantised_piece_by_piece(digits: int) -> None:
    """Fewer key digits than the file's 7: each piece gets the keys below its own bound."""
    K = 10**digits
    T = read_ptable(MODIFIED)
    brute = as_matrix(r_lookup_counts(file_lines(MODIFIED), K), T.probabilities.shape)
    assert np.array_equal(np.asarray(applied_key_counts(T, digits), dtype=np.int64), brute)
    Q, KQ, lost, _ = _applied(T, K)  # the audit's table: exactly the keys' counts over K
    width = Q.probabilities.shape[1]  # trailing all-zero columns are dropped
    assert KQ == K and np.array_equal(np.rint(Q.probabilities * K), brute[:, :width])
    assert not brute[:, width:].any()
    assert lost == int(np.count_nonzero((T.probabilities > 0) & (brute == 0)))
    # the numbers are those of the brute-force table itself
    R = Ptable(brute / K, keysize=K, key_type="decimal")
    mine = audit(T, epsilons=[1.0, 2.0], deltas=[0.1], keysize=K)
    ref = audit(R, epsilons=[1.0, 2.0], deltas=[0.1])
    assert mine.delta_at_epsilon == ref.delta_at_epsilon
    assert mine.epsilon_at_delta == ref.epsilon_at_delta
    assert mine.delta_at_epsilon_independent == ref.delta_at_epsilon_independent


def test_the_merged_quantisation_would_under_count_the_lost_support() -> None:
    """At 2 digits the piece [0.7999999, 0.8) of (2, 0) holds no key; merged, (2, 0) would
    come first in its row with [0, 0.0000001) and keep one key."""
    T = read_ptable(MODIFIED)
    brute = as_matrix(r_lookup_counts(file_lines(MODIFIED), 100), T.probabilities.shape)
    assert brute[2, 0] == 0 and T.probabilities[2, 0] > 0
    merged = Ptable(T.probabilities)  # the same law without its pieces
    assert merged.quantised(100).probabilities[2, 0] > 0  # the merged table's quantisation
    assert T.quantised(100).probabilities[2, 0] == 0  # the table the keys apply
    r = audit(T, epsilons=[1.0], keysize=100)
    assert r.lost_support == 1 and r.lost_rows == (2,)
    assert audit(read_ptable(PLAIN), epsilons=[1.0], keysize=100).lost_support == 0


@pytest.mark.parametrize("digits", [7, 8, 12])
def test_modified_table_on_a_finer_grid_is_the_merged_table(digits: int) -> None:
    """At least the file's 7 digits: every bound is a grid point, so each (i, j) gets its
    merged probability (the sum of its pieces, exact decimals of the file) times K."""
    K = 10**digits
    T = read_ptable(MODIFIED)
    merged: dict[tuple[int, int], Fraction] = {}
    for r in file_lines(MODIFIED):
        key = (int(r["i"]), int(r["j"]))
        merged[key] = (
            merged.get(key, Fraction(0)) + Fraction(r["p_int_ub"]) - Fraction(r["p_int_lb"])
        )
    want = np.zeros(T.probabilities.shape, dtype=np.int64)
    for (i, j), p in merged.items():
        assert (p * K).denominator == 1
        want[i, j] = int(p * K)
    got = np.asarray(applied_key_counts(T, digits), dtype=np.int64)
    assert np.array_equal(got, want)
    assert np.array_equal(got, np.diff(decimal_thresholds(T, digits), axis=1, prepend=0))
    assert audit(T, epsilons=[1.0], keysize=K).lost_support == 0


def test_brute_force_on_a_finer_grid_of_a_two_digit_modified_file(tmp_path: Path) -> None:
    text = (
        "i,j,p,v,p_int_lb,p_int_ub,type\n0,0,1,0,0,1,all\n"
        "1,2,0.25,1,0,0.25,all\n1,0,0.25,-1,0.25,0.5,all\n1,1,0.13,0,0.5,0.63,all\n"
        "1,2,0.02,1,0.63,0.65,all\n1,1,0.35,0,0.65,1,all\n"
    )
    path = tmp_path / "m.csv"
    path.write_text(text)
    T = read_ptable(path)
    for digits in (1, 2, 3, 4):
        K = 10**digits
        brute = as_matrix(r_lookup_counts(file_lines(path), K), T.probabilities.shape)
        assert np.array_equal(np.asarray(applied_key_counts(T, digits), dtype=np.int64), brute)
        if digits >= 2:
            assert brute[1].tolist() == [K // 4, 48 * K // 100, 27 * K // 100]
    # 1 digit: (1, 2) gets 0.0, 0.1, 0.2 (< 0.25) and no key of [0.63, 0.65)
    assert applied_key_counts(T, 1)[1].tolist() == [2, 5, 3]


def test_perturb_applies_what_the_audit_examines_on_a_modified_table() -> None:
    """decimal_noise on every key of the grid: cellKey's noise, key by key, and in total the
    audit's table."""
    lines = file_lines(MODIFIED)
    T = read_ptable(MODIFIED)
    for digits in (2, 3):
        K = 10**digits
        keys = np.arange(K)
        Q = _applied(T, K)[0]
        for count in (1, 2, 3, 9):
            with pytest.warns(KeysizeWarning):  # T has no grid: the keys quantise it
                noise = decimal_noise(T, np.full(K, count), keys, digits)
            want = [r_lookup_noise(lines, count, k, K) for k in range(K)]
            assert noise.tolist() == want
            r = T.row_of([count])[0]
            hist = np.bincount(noise + r, minlength=Q.probabilities.shape[1])
            assert np.array_equal(hist, np.rint(Q.probabilities[r] * K).astype(np.int64))


# ------------------------------------------------------------------------------ item 4
def _micro(digits: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(4)
    n = 60
    keys = rng.integers(0, 10**digits, n)
    return {
        "a": rng.choice(["x", "y"], n),
        "rkey": np.array([f"0.{k:0{digits}d}" for k in keys.tolist()]),
    }


def test_keys_with_fewer_digits_than_the_tables_grid() -> None:
    P = read_ptable(FIXTURES / "ckey_ptable_D2.csv").probabilities  # 8-digit bounds
    T8 = Ptable(P, keysize=10**8, key_type="decimal")
    with pytest.raises(
        ParameterError, match=r"`record_keys` have 5 decimal digits, fewer than .*keysize=10\^8"
    ):
        perturb(_micro(5), "a", T8, method="cellkey")
    # declared for 5-digit keys, the table is audited on the grid they apply
    T5 = Ptable(P, keysize=10**5, key_type="decimal")
    out = perturb(_micro(5), "a", T5, method="cellkey")
    assert out["perturbed"].min() >= 0
    # a table whose bounds all lie on the coarser grid applies the same table: accepted
    coarse = Ptable(np.array([[1.0, 0.0, 0.0], [0.3, 0.5, 0.2]]), keysize=10**8, key_type="decimal")
    check_key_digits(coarse, 1)
    perturb(_micro(5), "a", coarse, method="cellkey")
    with pytest.raises(ParameterError, match="fewer than"):
        halves = np.array([[1.0, 0.0], [0.25, 0.75]])
        check_key_digits(Ptable(halves, keysize=10**8, key_type="decimal"), 1)
    # a table without a decimal grid is audited as given: keys that apply another table warn,
    # naming the audit that describes them; keys that apply the same table do not
    with pytest.warns(KeysizeWarning, match=r"5 decimal digits.*keysize=10\*\*5"):
        perturb(_micro(5), "a", Ptable(P), method="cellkey")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        perturb(_micro(8), "a", Ptable(P), method="cellkey")


@pytest.mark.parametrize("digits", [16, 17, 19, 20])
def test_decimal_grids_above_2_to_53_name_the_grid_with_the_same_table(digits: int) -> None:
    T = read_ptable(PLAIN)
    with pytest.raises(
        ParameterError,
        match=rf"`keysize` above 2\^53 must be a power of two for the audit, got "
        rf"keysize={10**digits} \(10\^{digits}.*audit with keysize=10\*\*12",
    ):
        audit(T, epsilons=[1.0], keysize=10**digits)
    # the claim of the message: from 12 digits on, more digits apply the same table
    assert np.array_equal(
        decimal_thresholds(T, digits),
        np.asarray(decimal_thresholds(T, 12)).astype(object) * 10 ** (digits - 12),
    )
    a, b = (audit(T, epsilons=[1.0], keysize=10**d) for d in (12, 15))
    assert a.delta_at_epsilon == b.delta_at_epsilon


# ------------------------------------------------------------------------------ magnitude
def test_magnitude_tables_are_recognised(tmp_path: Path) -> None:
    path = tmp_path / "nums.csv"
    count = "i,j,p,v,p_int_lb,p_int_ub,type\n0,0,1,0,0,1,all\n1,0,0.5,-1,0,0.5,all\n"
    cases = {
        "even": count + "1,2,0.5,1,0.5,1,all\n0,0,1,0,0,1,even\n",
        "step": count.replace("1,0,0.5,-1", "1,0.5,0.5,-0.5") + "1,1.5,0.5,0.5,0.5,1,all\n",
        "export": "i;j;p;v;p_int_ub;type\n0;0;1;0;1;all\n",
    }
    for name, text in cases.items():
        path.write_text(text)
        assert _detect_layout(path, text) == "magnitude", name
    # read by the magnitude reader: a valid table reads, a mixed one is refused by its rules
    for name in ("step", "export"):
        path.write_text(cases[name])
        assert isinstance(read_ptable(path), MagnitudePtable), name
    path.write_text(cases["even"])
    with pytest.raises(ParameterError, match=r"type 'all' or the types 'even' and 'odd'"):
        read_ptable(path)
    with pytest.raises(ParameterError, match=r"line 5: type 'even'"):
        read_ptable(path, layout="ptable")
    path.write_text(cases["step"])
    with pytest.raises(ParameterError, match="is a magnitude ptable"):
        audit(path, epsilons=[1.0])
    plain = count + "1,2,0.5,1,0.5,1,all\n"
    assert _detect_layout(path, plain) == "ptable"


@pytest.mark.parametrize("digits", [1, 2, 3, 5, 7])
def test_modified_table_quantised_and_noise_use_the_pieces_on_decimal_grids(digits: int) -> None:
    # ptable::modify_cnt_ptable (fixtures/pt_export_modified_sas.txt): on a grid 10^d the keys
    # look the pieces up (cellKey's which.max(ck < ub)), so Ptable.quantised and Ptable.noise
    # must give what perturb's decimal lookup and the audit give, piece by piece
    T = read_ptable(MODIFIED)
    K = 10**digits
    Q = T.quantised(K)
    counts = applied_key_counts(T, digits)
    m = Q.probabilities.shape[1]
    assert np.array_equal(Q.probabilities, counts[:, :m].astype(np.float64) / K)
    assert not np.any(counts[:, m:])
    assert Q.key_type == "decimal" and Q.keysize == K and "intervals" not in Q.metadata
    D = Ptable(T.probabilities, keysize=K, key_type="decimal", metadata=T.metadata)
    keys = np.arange(K)
    for c in range(1, 6):
        cs = np.full(K, c)
        assert np.array_equal(D.noise(cs, keys), decimal_noise(D, cs, keys, digits))
    if 2 <= digits <= 6:  # the piece [0.7999999, 0.8) of (2, 0) holds no key here
        assert Q.probabilities[2, 0] == 0 < T.quantised(2**20).probabilities[2, 0]
