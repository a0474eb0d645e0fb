"""Record keys and cell keys (Sadeghi & Chien, §3, eqs. (3.1)–(3.2))."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from rainbowdp.cellkey._keys import (
    _is_prime,
    big_prime,
    cell_key_components,
    cell_keys,
    key_modulus,
    record_keys,
    record_keys_from_int,
)
from rainbowdp.exceptions import ParameterError, ParameterTypeError

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)
#: False-alarm rate of each chi-square uniformity test: with exactly uniform keys a test fails
#: with this probability over the choice of seed (the seeds are fixed, so the outcome is too).
ALPHA = 1e-3


# ------------------------------------------------------------------------------------ reference
def reference_cell_keys(keys, cells, n_cells, K, method="abs"):
    """(3.1)–(3.2) in Python integers, one record at a time."""
    keys = [[int(x) for x in np.atleast_1d(row)] for row in np.asarray(keys, dtype=object)]
    m = len(keys[0]) if keys else 1
    mod = big_prime(K) if method == "abs" else K
    sums = [[0] * m for _ in range(n_cells)]
    for row, c in zip(keys, cells, strict=True):
        for j in range(m):
            sums[int(c)][j] += row[j]
    out = []
    for s in sums:
        key = 0
        for x in s:
            key ^= x % mod
        out.append(key)
    return out


def chi2_pvalue(values, bins):
    counts = np.bincount(np.asarray(values, dtype=np.int64), minlength=bins)
    assert counts.size == bins
    return stats.chisquare(counts).pvalue


# ------------------------------------------------------------------------------------ big prime
def test_big_prime_of_the_paper_keysizes():
    # §3, (3.1) and footnote 3: bigN is the prime closest to (below) KEYSIZE
    assert big_prime(2**8) == 251
    assert big_prime(2**16) == 65521
    assert big_prime(2**32) == 4294967291  # 2^32 - 5
    assert big_prime(2**61) == 2**61 - 1  # a Mersenne prime
    assert big_prime(2**64) == 2**64 - 59
    assert big_prime(2) == 2 and big_prime(3) == 3 and big_prime(4) == 3


def test_primality_against_a_sieve():
    N = 100_000
    sieve = np.ones(N, dtype=bool)
    sieve[:2] = False
    for p in range(2, int(N**0.5) + 1):
        if sieve[p]:
            sieve[p * p :: p] = False
    assert [_is_prime(k) for k in range(N)] == sieve.tolist()


def test_primality_rejects_strong_pseudoprimes():
    # strong pseudoprimes to several small bases, and Carmichael numbers
    for n in (561, 41041, 3215031751, 3825123056546413051, 318665857834031151167461):
        assert not _is_prime(n)
    assert _is_prime(2**31 - 1) and _is_prime(2**61 - 1) and _is_prime(2**89 - 1)


def test_key_modulus():
    assert key_modulus(2**16) == 65521
    assert key_modulus(2**16, method="sum") == 2**16


# ------------------------------------------------------------------------------------ record keys
@pytest.mark.parametrize("K", [2, 2**8, 2**16, 2**32, 2**40, 2**62])
def test_record_keys_range_shape_and_reproducibility(K):
    k = record_keys(1000, keysize=K, seed=7)
    assert k.shape == (1000, 4) and k.dtype == np.uint64
    assert int(k.max()) < K
    assert int(k.max()) >= K // 2  # the top bit is used (fails with probability 2^-4000)
    assert np.array_equal(k, record_keys(1000, keysize=K, seed=7))
    assert not np.array_equal(k, record_keys(1000, keysize=K, seed=8))
    expected = np.random.default_rng(7).integers(0, K, size=(4, 1000), dtype=np.uint64).T
    assert np.array_equal(k, expected)  # the documented stream


@pytest.mark.parametrize("K", [2**8, 2**32, 2**62])
def test_secure_record_keys_in_range(K):
    k = record_keys(5000, keysize=K, components=3, secure=True)
    assert k.shape == (5000, 3) and k.dtype == np.uint64
    assert int(k.max()) < K
    assert int(k.max()) >= K // 2  # fails with probability 2^-15000
    # 15000 keys of at least 8 random bits: a repeat of the whole array is impossible in practice
    assert not np.array_equal(k, record_keys(5000, keysize=K, components=3, secure=True))


def test_secure_record_keys_uniform():
    k = record_keys(256 * 200, keysize=2**8, components=1, secure=True)
    # not seeded: this assertion fails with probability ALPHA on a correct implementation
    assert chi2_pvalue(k[:, 0], 256) > ALPHA


def test_record_keys_empty_and_components():
    assert record_keys(0, seed=1).shape == (0, 4)
    assert record_keys(3, components=1, seed=1).shape == (3, 1)


def test_record_keys_errors():
    with pytest.raises(ParameterError, match="`seed` must be None when secure=True"):
        record_keys(3, seed=1, secure=True)
    with pytest.raises(ParameterError, match="`keysize` must be a power of two"):
        record_keys(3, keysize=255)
    with pytest.raises(ParameterError, match="`n` must be >= 0"):
        record_keys(-1)
    with pytest.raises(ParameterError, match="`components` must be >= 1"):
        record_keys(3, components=0)
    with pytest.raises(ParameterTypeError, match="`secure` must be a boolean"):
        record_keys(3, secure="yes")
    with pytest.raises(ParameterError, match="`seed` must be None, a non-negative integer"):
        record_keys(3, seed=-5)


# ------------------------------------------------------------------------------------ byte split
def test_record_keys_from_int_bytes():
    # §3: 32-bit record keys combined byte by byte for KEYSIZE 2^8
    k = record_keys_from_int(np.array([0x04030201, 0xFFFFFFFF, 0, 0xA0B0C0D0], dtype=np.uint32))
    assert k.dtype == np.uint64
    assert k.tolist() == [[1, 2, 3, 4], [255] * 4, [0] * 4, [0xD0, 0xC0, 0xB0, 0xA0]]
    keys32 = np.random.default_rng(3).integers(0, 2**32, 1000, dtype=np.uint64)
    b = record_keys_from_int(keys32)
    assert np.array_equal((b << np.arange(0, 32, 8, dtype=np.uint64)).sum(axis=1), keys32)


def test_record_keys_from_int_errors():
    with pytest.raises(ParameterError, match=r"`keys32` must be in \[0, 2\^32\)"):
        record_keys_from_int([2**32])
    with pytest.raises(ParameterError, match="negative"):
        record_keys_from_int([-1])
    with pytest.raises(ParameterError, match="one-dimensional"):
        record_keys_from_int([[1, 2]])
    with pytest.raises(ParameterTypeError, match="integers"):
        record_keys_from_int([1.0])


# ------------------------------------------------------------------------------------ hand values
def test_cell_keys_by_hand():
    # (3.1): 200 + 100 = 300 = 49 (mod 251); 1 + 4 = 5, 2 + 5 = 7, 3 + 6 = 9;
    # (3.2): 49 ^ 5 ^ 7 ^ 9 = 0b110001 ^ 0b101 ^ 0b111 ^ 0b1001 = 58
    keys = [[200, 1, 2, 3], [100, 4, 5, 6], [250, 250, 250, 250], [250, 250, 250, 250]]
    comps = cell_key_components(keys, [0, 0, 2, 2], keysize=2**8)
    # cell 2: 500 = 249 (mod 251) in every component; cell 1: empty
    assert comps.tolist() == [[49, 5, 7, 9], [0, 0, 0, 0], [249, 249, 249, 249]]
    assert cell_keys(keys, [0, 0, 2, 2], keysize=2**8).tolist() == [58, 0, 0]
    assert cell_keys(keys, [0, 0, 2, 2], keysize=2**8, n_cells=5).tolist() == [58, 0, 0, 0, 0]
    # method "sum": one component modulo KEYSIZE: 300 mod 256 = 44
    assert cell_keys([200, 100, 7], [0, 0, 1], keysize=2**8, method="sum").tolist() == [44, 7]
    assert cell_keys([[200], [100]], [0, 0], keysize=2**8, method="sum").tolist() == [44]


def test_cell_keys_empty_input():
    assert cell_keys(np.zeros((0, 4), dtype=np.uint64), [], keysize=2**8).tolist() == []
    assert cell_keys(np.zeros((0, 4), dtype=np.uint64), [], keysize=2**8, n_cells=2).tolist() == [
        0,
        0,
    ]


@given(
    K=st.sampled_from([2, 4, 2**8, 2**16, 2**32, 2**40, 2**62]),
    m=st.integers(1, 4),
    n=st.integers(0, 40),
    n_cells=st.integers(1, 6),
    seed=st.integers(0, 2**32 - 1),
)
@SETTINGS
def test_cell_keys_match_python_integers(K, m, n, n_cells, seed):
    rng = np.random.default_rng(seed)
    keys = record_keys(n, keysize=K, components=m, seed=rng)
    cells = rng.integers(0, n_cells, n)
    got = cell_keys(keys, cells, keysize=K, n_cells=n_cells)
    assert got.dtype == np.uint64
    assert got.tolist() == reference_cell_keys(keys, cells, n_cells, K)
    assert int(got.max()) < K
    one = keys[:, :1]
    assert cell_keys(one[:, 0], cells, keysize=K, n_cells=n_cells, method="sum").tolist() == (
        reference_cell_keys(one, cells, n_cells, K, method="sum")
    )


def test_exact_sums_beyond_float_precision():
    # 3 * 10^6 keys near 2^32 sum to about 1.3e16 > 2^53: a float64 accumulator would round
    n = 3_000_000
    keys = (2**32 - 1 - np.arange(n, dtype=np.uint64) % 1000).reshape(-1, 1)
    total = int(keys.sum(dtype=np.uint64))
    assert total > 2**53
    comps = cell_key_components(keys, np.zeros(n, dtype=np.intp), keysize=2**32)
    assert int(comps[0, 0]) == total % 4294967291
    floated = np.bincount(np.zeros(n, dtype=np.intp), weights=keys[:, 0].astype(np.float64))
    assert int(floated[0]) % 4294967291 != total % 4294967291  # a float route would be wrong
    # keys near 2^62: eight of them overflow uint64; summed in halves and reduced exactly
    big = np.full((8, 2), 2**62 - 1, dtype=np.uint64)
    big[:, 1] = np.arange(8, dtype=np.uint64) * 2**59
    comps = cell_key_components(big, np.zeros(8, dtype=np.intp), keysize=2**62)
    p = big_prime(2**62)
    assert comps[0].tolist() == [8 * (2**62 - 1) % p, sum(k * 2**59 for k in range(8)) % p]


# ------------------------------------------------------------------------------------ uniformity
def binned(keys, K, bins=256, *, low=False):
    """The top (or low) 8 bits of each key."""
    shift = np.uint64(max(K.bit_length() - 1 - 8, 0))
    return keys & np.uint64(bins - 1) if low else keys >> shift


@pytest.mark.parametrize("K", [2**8, 2**16, 2**32])
@pytest.mark.parametrize("per_cell", [1, 10])
def test_cell_keys_uniform(K, per_cell):
    # §3: "CellKey values are uniformly generated in the range [0, KEYSIZE - 1]"; cells with
    # disjoint records have independent keys. 20,000 cells, 256 bins (78 keys a bin expected).
    n_cells = 20_000
    rng = np.random.default_rng(2023 + K + per_cell)
    keys = record_keys(n_cells * per_cell, keysize=K, seed=rng)
    cells = rng.permutation(np.repeat(np.arange(n_cells), per_cell))
    ck = cell_keys(keys, cells, keysize=K)
    assert int(ck.max()) < K
    assert chi2_pvalue(binned(ck, K), 256) > ALPHA
    if K > 2**8:
        assert chi2_pvalue(binned(ck, K, low=True), 256) > ALPHA


@pytest.mark.parametrize("K", [2**8, 2**16])
def test_cell_keys_uniform_on_all_values(K):
    # every one of the K values, 20 keys each expected (KEYSIZE 2^16 needs 1.3 million cells)
    n_cells = 20 * K
    rng = np.random.default_rng(99 + K)
    keys = record_keys(2 * n_cells, keysize=K, seed=rng)
    ck = cell_keys(keys, rng.permutation(np.repeat(np.arange(n_cells), 2)), keysize=K)
    assert chi2_pvalue(ck, K) > ALPHA


def test_byte_split_keys_uniform():
    # the ABS's route: 32-bit keys split into four bytes, KEYSIZE 2^8
    rng = np.random.default_rng(11)
    keys = record_keys_from_int(rng.integers(0, 2**32, 100_000, dtype=np.uint64))
    ck = cell_keys(keys, rng.permutation(np.repeat(np.arange(20_000), 5)), keysize=2**8)
    assert chi2_pvalue(ck, 256) > ALPHA


def test_sum_method_uniform():
    rng = np.random.default_rng(12)
    keys = record_keys(100_000, keysize=2**8, components=1, seed=rng)
    cells = rng.permutation(np.repeat(np.arange(20_000), 5))  # no empty cell (key 0)
    ck = cell_keys(keys[:, 0], cells, keysize=2**8, method="sum")
    assert chi2_pvalue(ck, 256) > ALPHA


def test_uniformity_test_has_power():
    # the same test rejects one component alone (never reaches [bigN, KEYSIZE) = [251, 256))
    rng = np.random.default_rng(13)
    keys = record_keys(200_000, keysize=2**8, seed=rng)
    cells = rng.permutation(np.repeat(np.arange(20_000), 10))
    comps = cell_key_components(keys, cells, keysize=2**8)
    assert chi2_pvalue(comps[:, 0], 256) < 1e-12


# ------------------------------------------------------------------------------------ consistency
def test_same_microdata_same_keys_in_any_record_order():
    rng = np.random.default_rng(5)
    keys = record_keys(5000, keysize=2**32, seed=rng)
    cells = rng.integers(0, 50, 5000)
    first = cell_keys(keys, cells, keysize=2**32)
    assert np.array_equal(first, cell_keys(keys, cells, keysize=2**32))
    order = rng.permutation(5000)
    assert np.array_equal(first, cell_keys(keys[order], cells[order], keysize=2**32))


@pytest.mark.parametrize("K", [2**8, 2**16, 2**32])
def test_margin_keys_from_the_union_of_records(K):
    rng = np.random.default_rng(6 + K)
    n = 3000
    a, b = rng.integers(0, 5, n), rng.integers(0, 4, n)
    keys = record_keys(n, keysize=K, seed=rng)
    interior = cell_key_components(keys, a * 4 + b, keysize=K, n_cells=20)
    margin = cell_key_components(keys, a, keysize=K, n_cells=5)
    p = big_prime(K)
    # additivity of (3.1) before the XOR: margin components = sums of interior ones mod bigN
    summed = interior.reshape(5, 4, 4).sum(axis=1, dtype=np.uint64) % np.uint64(p)
    assert np.array_equal(margin, summed)
    ck_margin = cell_keys(keys, a, keysize=K)
    ck_interior = cell_keys(keys, a * 4 + b, keysize=K).reshape(5, 4)
    assert np.array_equal(ck_margin, np.bitwise_xor.reduce(margin, axis=1))
    if K == 2**32:
        # a margin's key differs from the keys of its interior cells (equal with prob. 2^-32)
        assert (ck_margin[:, None] != ck_interior).all()
        # and the XOR is not additive: the margin's key is not the XOR of the interior keys
        assert (ck_margin != np.bitwise_xor.reduce(ck_interior, axis=1)).all()


# ------------------------------------------------------------------------------------ errors
def test_cell_keys_errors():
    ok = np.zeros((3, 4), dtype=np.uint64)
    with pytest.raises(ParameterError, match=r"`record_keys` must be in \[0, keysize=256\)"):
        cell_keys(np.full((3, 4), 256), [0, 0, 0], keysize=2**8)
    with pytest.raises(ParameterError, match="negative value -1"):
        cell_keys(np.full((3, 4), -1), [0, 0, 0], keysize=2**8)
    with pytest.raises(ParameterTypeError, match="dtype float64"):
        cell_keys(np.zeros((3, 4)), [0, 0, 0], keysize=2**8)
    with pytest.raises(ParameterTypeError, match="booleans"):
        cell_keys(np.zeros((3, 4), dtype=bool), [0, 0, 0], keysize=2**8)
    with pytest.raises(ParameterTypeError, match="must hold integers"):
        cell_keys(np.array([[1, 2], ["a", 3]], dtype=object), [0, 0], keysize=2**8)
    with pytest.raises(ParameterTypeError, match="not integers"):
        cell_keys([[1, 2], ["a", 3]], [0, 0], keysize=2**8)
    with pytest.raises(ParameterError, match="shape \\(n, components\\) for method='abs'"):
        cell_keys([1, 2, 3], [0, 0, 0], keysize=2**8)
    with pytest.raises(ParameterError, match="one key per record"):
        cell_keys(ok, [0, 0, 0], keysize=2**8, method="sum")
    with pytest.raises(ParameterError, match=r"`cells` must have one cell index per record"):
        cell_keys(ok, [0, 0], keysize=2**8)
    with pytest.raises(ParameterError, match="`cells` must be >= 0"):
        cell_keys(ok, [0, -1, 0], keysize=2**8)
    with pytest.raises(ParameterError, match="`cells` must be below n_cells=2"):
        cell_keys(ok, [0, 2, 0], keysize=2**8, n_cells=2)
    with pytest.raises(ParameterTypeError, match="`cells` must be an array of integers"):
        cell_keys(ok, [0.0, 1.0, 0.0], keysize=2**8)
    with pytest.raises(ParameterError, match="`method` must be one of"):
        cell_keys(ok, [0, 0, 0], keysize=2**8, method="xor")
    with pytest.raises(ParameterError, match="`keysize` must be a power of two"):
        cell_keys(ok, [0, 0, 0], keysize=1000)
    with pytest.raises(ParameterTypeError, match="`keysize` must be an integer"):
        cell_keys(ok, [0, 0, 0], keysize=256.0)
    with pytest.raises(ParameterError, match=r"`keysize` must be <= 4611686018427387904"):
        cell_keys(ok, [0, 0, 0], keysize=2**63)
    with pytest.raises(ParameterError, match="`keysize` must be <= "):
        big_prime(2**65)
