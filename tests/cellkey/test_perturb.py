"""Frequency tables and their cell-key perturbation (Sadeghi & Chien, §3–4)."""

from __future__ import annotations

import itertools
import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rainbowdp.cellkey._keys import big_prime, cell_keys, record_keys, record_keys_from_int
from rainbowdp.cellkey._perturb import FrequencyTable, frequency_table, perturb
from rainbowdp.cellkey._ptable import Ptable
from rainbowdp.cellkey._utility import QUANTILES, utility, utility_measures
from rainbowdp.exceptions import ParameterError, ParameterTypeError

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True)
#: Noise -1, 0, +1 with probabilities 1/4, 1/2, 1/4; at KEYSIZE 2^8 the quantised CDF of the
#: rows of counts >= 1 is (64, 192, 256): key < 64 -> -1, 64 <= key < 192 -> 0, else +1 (4.3).
SMALL = Ptable.from_noise([0.25, 0.5, 0.25], low=-1, keysize=2**8)


def noise_law(D: int, gamma: float) -> np.ndarray:
    """The truncated discrete Gaussian (2.3), symmetrised exactly."""
    z = np.arange(-D, D + 1)
    p = np.exp(-gamma * z.astype(float) ** 2)
    p = p / p.sum()
    return (p + p[::-1]) / 2


def random_data(n: int, seed: int, K: int = 2**32) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {
        "a": rng.integers(0, 4, n),
        "b": rng.choice(np.array(["u", "v", "w"]), n),
        "c": rng.integers(10, 13, n),
        "rkey": record_keys(n, keysize=K, seed=rng),
    }


def rows_by_labels(t) -> dict[tuple, int]:
    return {tuple(t[v][i] for v in t.by): i for i in range(len(t))}


# ------------------------------------------------------------------------------------ by hand
HAND = {
    "a": np.array(["x", "x", "x", "y", "y", "z"]),
    "b": np.array([0, 0, 1, 1, 1, 0]),
    "rkey": np.array(
        [
            [100, 1, 0, 0],
            [200, 2, 0, 0],
            [50, 0, 4, 0],
            [250, 0, 0, 8],
            [10, 0, 0, 16],
            [77, 0, 0, 0],
        ],
        dtype=np.uint64,
    ),
}
# Cell keys by hand, KEYSIZE 2^8, bigN = 251, (3.1) then the XOR (3.2):
#  (x,0): [300 mod 251 = 49, 3, 0, 0]        -> 49 ^ 3 = 50
#  (x,1): [50, 0, 4, 0]                      -> 50 ^ 4 = 54
#  (x,T): [350 mod 251 = 99, 3, 4, 0]        -> 99 ^ 3 ^ 4 = 100
#  (y,0): no records                          -> 0
#  (y,1) = (y,T): [260 mod 251 = 9, 0, 0, 24] -> 9 ^ 24 = 17
#  (z,0) = (z,T): [77, 0, 0, 0]               -> 77;  (z,1): no records -> 0
#  (T,0): [377 mod 251 = 126, 3, 0, 0]        -> 126 ^ 3 = 125
#  (T,1): [310 mod 251 = 59, 0, 4, 24]        -> 59 ^ 4 ^ 24 = 39
#  (T,T): [687 mod 251 = 185, 3, 4, 24]       -> 185 ^ 3 ^ 4 ^ 24 = 166
HAND_ROWS = [  # a, b, count, cell key, noise (SMALL: <64 -> -1, <192 -> 0; count 0 -> 0)
    ("x", 0, 2, 50, -1),
    ("x", 1, 1, 54, -1),
    ("x", "Total", 3, 100, 0),
    ("y", 0, 0, 0, 0),
    ("y", 1, 2, 17, -1),
    ("y", "Total", 2, 17, -1),
    ("z", 0, 1, 77, 0),
    ("z", 1, 0, 0, 0),
    ("z", "Total", 1, 77, 0),
    ("Total", 0, 3, 125, 0),
    ("Total", 1, 3, 39, -1),
    ("Total", "Total", 6, 166, 0),
]


def test_hand_checked_table():
    assert big_prime(2**8) == 251
    t = perturb(HAND, ["a", "b"], SMALL)
    assert isinstance(t, FrequencyTable)
    assert len(t) == 12 and t.shape == (4, 3) and t.dims == (3, 2)
    got = list(
        zip(
            t["a"].tolist(),
            t["b"].tolist(),
            t["count"].tolist(),
            t["cell_key"].tolist(),
            t["noise"].tolist(),
            strict=True,
        )
    )
    assert got == HAND_ROWS
    assert t["perturbed"].tolist() == [c + v for _, _, c, _, v in HAND_ROWS]
    assert t["cell_key"].dtype == np.uint64
    assert t["noise"].dtype == np.int64 and t["perturbed"].dtype == np.int64
    assert t.is_margin.tolist() == [False, False, True] * 3 + [True] * 3
    assert t.codes[2].tolist() == [0, -1] and t.codes[-1].tolist() == [-1, -1]
    assert [lv.tolist() for lv in t.levels] == [["x", "y", "z"], [0, 1]]
    assert t.record_cell.tolist() == [0, 0, 1, 3, 3, 4]


def test_hand_checked_table_without_margins():
    t = perturb(HAND, ["a", "b"], SMALL, margins=False)
    interior = [r for r in HAND_ROWS if "Total" not in r[:2]]
    assert len(t) == 6 and t.shape == (3, 2)
    assert t["cell_key"].tolist() == [r[3] for r in interior]
    assert t["b"].dtype.kind == "i"  # labels keep their type without margins
    assert not t.is_margin.any()


def test_hand_table_noise_matches_the_ptable():
    t = perturb(HAND, ["a", "b"], SMALL)
    assert np.array_equal(t["noise"], SMALL.noise(t["count"], t["cell_key"], keysize=2**8))


# ------------------------------------------------------------------------------------ tables
def test_frequency_table_counts_and_margins():
    data = random_data(2000, 1)
    t = frequency_table(data, ["a", "b", "c"])
    assert t.shape == (5, 4, 4) and len(t) == 80
    grid = t["count"].reshape(t.shape)
    inner = grid[:4, :3, :3]
    assert inner.sum() == 2000 == grid[-1, -1, -1]
    # every margin is the sum of the interior cells it covers
    for axes in itertools.chain.from_iterable(
        itertools.combinations(range(3), r) for r in range(1, 4)
    ):
        idx = tuple(-1 if ax in axes else slice(0, d) for ax, d in enumerate((4, 3, 3)))
        assert np.array_equal(grid[idx], inner.sum(axis=axes))
    # counts by brute force
    for i, (a, b, c) in enumerate(itertools.product(range(4), "uvw", range(10, 13))):
        row = rows_by_labels(t)[(a, b, c)]
        want = np.count_nonzero((data["a"] == a) & (data["b"] == b) & (data["c"] == c))
        assert t["count"][row] == want
        assert t.record_cell.tolist().count(i) == want


def test_empty_cells_are_listed():
    t = frequency_table({"a": [0, 0, 1], "b": [5, 6, 5]}, ["a", "b"], margins=False)
    assert list(zip(t["a"].tolist(), t["b"].tolist(), t["count"].tolist(), strict=True)) == [
        (0, 5, 1),
        (0, 6, 1),
        (1, 5, 1),
        (1, 6, 0),
    ]


def test_wide_integer_and_float_categories():
    # a range too wide for counting sort, and float categories, go through numpy.unique
    t = frequency_table({"a": [10**15, -3, 10**15], "f": [0.5, 0.25, 0.5]}, ["a", "f"])
    assert t.levels[0].tolist() == [-3, 10**15] and t.levels[1].tolist() == [0.25, 0.5]
    assert t["count"].reshape(t.shape)[:2, :2].tolist() == [[1, 0], [0, 2]]


def test_record_rows_and_margin_keys_from_records():
    # a margin's key is computed from the union of its records: the same as the table's key
    data = random_data(3000, 2)
    t = perturb(data, ["a", "b", "c"], SMALL, keysize=2**32)
    for keep in itertools.chain.from_iterable(
        itertools.combinations(("a", "b", "c"), r) for r in range(4)
    ):
        rows = t.record_rows(keep)
        direct = cell_keys(data["rkey"], rows, keysize=2**32, n_cells=len(t))
        used = np.unique(rows)
        assert np.array_equal(direct[used], t["cell_key"][used])
        assert np.array_equal(np.bincount(rows, minlength=len(t))[used], t["count"][used])
    # the margins' keys differ from the keys of the interior cells inside them
    grid = t["cell_key"].reshape(t.shape)
    assert (grid[:4, :3, -1][..., None] != grid[:4, :3, :3]).all()
    assert (grid[-1, -1, -1] != grid[:4, :3, :3]).all()


# ------------------------------------------------------------------------------------ consistency
def test_same_cell_same_key_and_noise_across_queries():
    data = random_data(5000, 3)
    T = Ptable.from_noise(noise_law(5, 0.1), low=-5, keysize=2**32)
    abc = perturb(data, ["a", "b", "c"], T)
    ab = perturb(data, ["a", "b"], T)
    a = perturb(data, ["a"], T)
    ba = perturb(data, ["b", "a"], T)
    cols = ("count", "cell_key", "noise", "perturbed")
    r_abc, r_ab, r_a, r_ba = map(rows_by_labels, (abc, ab, a, ba))
    for (x, y, z), i in r_abc.items():
        if z == "Total":  # [a, b, c] summed over c is the table by [a, b]
            j = r_ab[(x, y)]
            assert all(abc[col][i] == ab[col][j] for col in cols)
            k = r_ba[(y, x)]  # the order of the variables does not matter
            assert all(abc[col][i] == ba[col][k] for col in cols)
        if y == "Total" and z == "Total":  # ... and summed over b, c the table by [a]
            j = r_a[(x,)]
            assert all(abc[col][i] == a[col][j] for col in cols)
    assert ab["perturbed"][-1] == a["perturbed"][-1] == abc["perturbed"][-1]


def test_deterministic_and_order_free():
    data = random_data(4000, 4)
    T = Ptable.from_noise(noise_law(5, 0.1), low=-5, keysize=2**32)
    first = perturb(data, ["a", "b"], T)
    again = perturb(data, ["a", "b"], T)
    order = np.random.default_rng(0).permutation(4000)
    shuffled = perturb({k: v[order] for k, v in data.items()}, ["a", "b"], T)
    for col in ("count", "cell_key", "noise", "perturbed"):
        assert np.array_equal(first[col], again[col])
        assert np.array_equal(first[col], shuffled[col])
    other = perturb({**data, "rkey": record_keys(4000, seed=99)}, ["a", "b"], T)
    assert not np.array_equal(first["cell_key"], other["cell_key"])


@given(n=st.integers(0, 25), seed=st.integers(0, 2**32 - 1), method=st.sampled_from(["abs", "sum"]))
@SETTINGS
def test_against_brute_force(n, seed, method):
    rng = np.random.default_rng(seed)
    K = 2**16
    data = {"a": rng.integers(0, 3, n), "b": rng.integers(0, 2, n)}
    keys = record_keys(n, keysize=K, components=4 if method == "abs" else 1, seed=rng)
    T = Ptable.from_noise(noise_law(3, 0.3), low=-3, keysize=K)
    t = perturb(data, ["a", "b"], T, record_keys=keys, method=method)
    mod = big_prime(K) if method == "abs" else K
    for i in range(len(t)):
        sel = np.ones(n, dtype=bool)
        for v in ("a", "b"):
            if t[v][i] != "Total":
                sel &= data[v] == t[v][i]
        sums = [sum(int(x) for x in keys[sel, j]) % mod for j in range(keys.shape[1])]
        key = 0
        for s in sums:
            key ^= s
        assert t["count"][i] == sel.sum()
        assert t["cell_key"][i] == key
        assert t["noise"][i] == T.noise([int(sel.sum())], [key], keysize=K)[0]
    assert (t["perturbed"] >= 0).all()


def test_byte_split_at_keysize_2_8():
    # one 32-bit key per record at KEYSIZE 2^8: the four bytes are the components (§3)
    rng = np.random.default_rng(5)
    keys32 = rng.integers(0, 2**32, 500, dtype=np.uint64)
    data = {"a": rng.integers(0, 5, 500), "rkey": keys32}
    t1 = perturb(data, "a", SMALL)
    t2 = perturb(data, "a", SMALL, record_keys=record_keys_from_int(keys32))
    assert np.array_equal(t1["cell_key"], t2["cell_key"])
    assert np.array_equal(t1["perturbed"], t2["perturbed"])


def test_key_columns_and_sum_method():
    rng = np.random.default_rng(6)
    k = record_keys(300, keysize=2**16, seed=rng)
    data = {"a": rng.integers(0, 3, 300), **{f"k{j}": k[:, j] for j in range(4)}}
    T = Ptable.from_noise(noise_law(2, 0.5), low=-2, keysize=2**16)
    t1 = perturb(data, "a", T, record_keys=["k0", "k1", "k2", "k3"])
    t2 = perturb(data, "a", T, record_keys=k)
    assert np.array_equal(t1["cell_key"], t2["cell_key"])
    t3 = perturb(data, "a", T, record_keys="k0", method="sum")
    want = cell_keys(k[:, 0], t3.record_rows(["a"]), keysize=2**16, method="sum", n_cells=4)
    assert t3["cell_key"][:3].tolist() == want[:3].tolist()
    assert t3["cell_key"][3] == int(k[:, 0].sum()) % 2**16  # the grand total


# ------------------------------------------------------------------------------------ small counts
def test_never_negative_and_zeros_stay_zeros():
    data = random_data(400, 7)
    data["d"] = np.random.default_rng(8).integers(0, 60, 400)  # many empty and small cells
    T = Ptable.from_noise(noise_law(10, 0.02), low=-10, keysize=2**32)
    t = perturb(data, ["a", "b", "d"], T)
    count, published = t["count"], t["perturbed"]
    assert (published >= 0).all()
    assert (count == 0).sum() > 100 and ((count > 0) & (count < 10)).sum() > 100
    assert (t["cell_key"][count == 0] == 0).all()  # empty sum
    assert (published[count == 0] == 0).all()  # zeros stay zeros (row 0: point mass at 0)
    assert (published[count > 0] != count[count > 0]).any()  # the other cells are perturbed


class NegativeTable:
    keysize = 2**8

    def noise(self, counts, cell_keys, *, keysize=None):
        return np.full(np.shape(counts), -5, dtype=np.int64)


def test_negative_publication_is_refused():
    with pytest.raises(ParameterError, match="`ptable` would publish a negative count"):
        perturb(HAND, ["a"], NegativeTable())


# ------------------------------------------------------------------------------------ pandas
def test_pandas_and_dict_give_the_same_table():
    pd = pytest.importorskip("pandas")
    data = random_data(3000, 9)
    T = Ptable.from_noise(noise_law(5, 0.1), low=-5, keysize=2**32)
    plain = perturb(data, ["a", "b", "c"], T)
    frame = {k: v for k, v in data.items() if k != "rkey"}
    df = pd.DataFrame(frame)
    out = perturb(df, ["a", "b", "c"], T, record_keys=data["rkey"])
    assert isinstance(out, pd.DataFrame)
    assert list(out.columns) == ["a", "b", "c", "count", "cell_key", "noise", "perturbed"]
    for col in ("a", "b", "c", "count", "cell_key", "noise", "perturbed"):
        assert out[col].tolist() == plain[col].tolist()
    assert out.equals(plain.to_pandas())
    ft = frequency_table(df, ["a", "b"])
    assert ft["count"].tolist() == frequency_table(frame, ["a", "b"])["count"].tolist()


def test_pandas_categorical_keeps_unused_categories():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(
        {
            "a": pd.Categorical(["lo", "hi", "hi"], categories=["lo", "mid", "hi"]),
            "rkey": [1, 2, 3],
        }
    )
    out = perturb(df, "a", SMALL)
    assert out["a"].tolist() == ["lo", "mid", "hi", "Total"]
    assert out["count"].tolist() == [1, 0, 2, 3]
    assert out["perturbed"].tolist()[1] == 0


def test_pandas_missing_values_refused():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"a": ["x", None, "y"], "rkey": [1, 2, 3]})
    with pytest.raises(ParameterError, match="column 'a' has missing values"):
        perturb(df, "a", SMALL)


def test_works_without_pandas():
    code = (
        "import sys; sys.modules['pandas'] = None\n"
        "from rainbowdp.cellkey import perturb, utility\n"
        "from rainbowdp.cellkey._ptable import Ptable\n"
        "T = Ptable.from_noise([0.25, 0.5, 0.25], low=-1, keysize=256)\n"
        "t = perturb({'a': [0, 0, 1], 'rkey': [10, 20, 200]}, ['a'], T)\n"
        "print(t['perturbed'].tolist(), utility(t).false_zeros)\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr
    # keys 30, 200, 230 (one byte each): noise -1, +1, +1 on the counts 2, 1, 3
    assert res.stdout.split("\n")[0] == "[1, 2, 4] 0"


# ------------------------------------------------------------------------------------ utility
def test_utility_measures_by_hand():
    true = [0, 0, 1, 2, 4, 10]
    pert = [0, 1, 0, 3, 4, 8]
    u = utility_measures(true, pert)
    assert u.n_cells == 6
    # d1 = |pert - true| = 0, 1, 1, 1, 0, 2
    assert u.absolute.n == 6 and u.absolute.mean == 5 / 6 and u.absolute.max == 2.0
    assert u.absolute.quantiles[0.5] == 1.0
    # d2 over true > 0: 1/1, 1/2, 0/4, 2/10
    assert u.relative.n == 4
    assert u.relative.mean == pytest.approx((1 + 0.5 + 0 + 0.2) / 4, rel=1e-15)
    assert u.relative.max == 1.0
    # d3 = |sqrt(pert) - sqrt(true)|
    d3 = np.abs(np.sqrt(pert) - np.sqrt(true))
    assert u.root.mean == pytest.approx(d3.mean(), rel=1e-15)
    assert u.false_zeros == 1  # true 1 published 0
    assert u.false_nonzeros == 1  # true 0 published 1
    assert u.noise_values.tolist() == [-2, -1, 0, 1]
    assert u.noise_counts.tolist() == [1, 1, 2, 2]
    assert u.noise_share.tolist() == [1 / 6, 1 / 6, 2 / 6, 2 / 6]
    assert tuple(u.absolute.quantiles) == QUANTILES
    assert list(u.to_dict()["d1"])[:4] == ["n", "mean", "max", "q10"]
    assert u.to_dict()["noise"] == {-2: 1, -1: 1, 0: 2, 1: 2}
    ex = utility_measures(true, pert, exclude_zeros=True)
    assert ex.absolute.n == 4 and ex.absolute.mean == 1.0  # d1 over true > 0: 1, 1, 0, 2


def test_utility_of_tables_and_empty_cases():
    t = perturb(HAND, ["a", "b"], SMALL)
    u = utility(t)
    assert u.n_cells == 12 and u.false_zeros == 1  # (x, 1): count 1 published 0
    assert u.false_nonzeros == 0
    assert u.absolute.mean == 5 / 12  # five cells got noise -1
    empty = utility_measures([0, 0], [0, 0])
    assert empty.relative.n == 0 and math.isnan(empty.relative.mean)
    assert math.isnan(utility_measures([], []).absolute.max)


# ------------------------------------------------------------------------------------ errors
def test_errors():
    with pytest.raises(ParameterError, match="`by` names the column 'q'"):
        perturb(HAND, ["a", "q"], SMALL)
    with pytest.raises(ParameterError, match="`data` columns must have equal lengths"):
        frequency_table({"a": [1, 2], "b": [1]}, ["a", "b"])
    with pytest.raises(ParameterError, match="one key per record \\(6\\)"):
        perturb(HAND, "a", SMALL, record_keys=np.zeros((5, 4), dtype=np.uint64))
    with pytest.raises(ParameterError, match=r"`record_keys` must be in \[0, keysize=256\)"):
        perturb(HAND, "a", SMALL, record_keys=np.full((6, 4), 300))
    with pytest.raises(ParameterTypeError, match="`record_keys` must be an array of integers"):
        perturb(HAND, "a", SMALL, record_keys=np.zeros((6, 4)))
    with pytest.raises(ParameterError, match="several components per record"):
        perturb(HAND, "a", SMALL, record_keys=np.arange(6), keysize=2**16)
    with pytest.raises(ParameterError, match="`record_keys` names the column 'key'"):
        perturb(HAND, "a", SMALL, record_keys="key")
    with pytest.raises(ParameterError, match="has no column 'rkey'"):
        perturb({"a": [1, 2]}, "a", SMALL)
    with pytest.raises(ParameterError, match="`keysize` is required"):
        perturb(HAND, "a", Ptable.from_noise([0.5, 0.5], low=0))
    with pytest.raises(ParameterTypeError, match="`ptable` must be a Ptable"):
        perturb(HAND, "a", [[1.0]])
    with pytest.raises(ParameterTypeError, match="`data` must be a pandas DataFrame or a mapping"):
        frequency_table([[1, 2]], ["a"])
    with pytest.raises(ParameterError, match="`by` must be a non-empty list"):
        frequency_table(HAND, [])
    with pytest.raises(ParameterError, match="`by` must not repeat"):
        frequency_table(HAND, ["a", "a"])
    with pytest.raises(ParameterError, match="reserved column name 'count'"):
        frequency_table({"count": [1]}, ["count"])
    with pytest.raises(ParameterError, match="category equal to the margin label"):
        frequency_table({"a": ["Total", "x"]}, ["a"])
    assert len(frequency_table({"a": ["Total", "x"]}, ["a"], total="All")) == 3
    with pytest.raises(ParameterError, match="column 'f' has missing values"):
        frequency_table({"f": [1.0, np.nan]}, ["f"])
    with pytest.raises(ParameterError, match="column 'o' has missing values"):
        frequency_table({"o": np.array(["x", None], dtype=object)}, ["o"])
    with pytest.raises(ParameterTypeError, match="cannot be sorted"):
        frequency_table({"o": np.array(["x", 1], dtype=object)}, ["o"])
    with pytest.raises(ParameterError, match="must be a 1-D array"):
        frequency_table({"a": np.zeros((2, 2), dtype=int)}, ["a"])
    with pytest.raises(ParameterError, match="more than the 100000000 allowed"):
        frequency_table({v: np.arange(200) for v in "abcd"}, list("abcd"))
    with pytest.raises(ParameterError, match="`method` must be one of"):
        perturb(HAND, "a", SMALL, method="xor")
    with pytest.raises(ParameterError, match="`keep` must name variables"):
        frequency_table(HAND, ["a", "b"]).record_rows(["z"])
    with pytest.raises(ParameterError, match="`keep` must name every variable"):
        frequency_table(HAND, ["a", "b"], margins=False).record_rows(["a"])
    with pytest.raises(ParameterError, match="`true` and `perturbed` must have equal lengths"):
        utility_measures([1, 2], [1])
    with pytest.raises(ParameterError, match="`true` must be counts >= 0"):
        utility_measures([-1], [1])
    with pytest.raises(ParameterTypeError, match="`perturbed` must be an array of integers"):
        utility_measures([1], [1.5])
    with pytest.raises(ParameterError, match="columns 'count' and 'perturbed'"):
        utility(frequency_table(HAND, ["a"]))
