r"""Record keys and cell keys of the cell key method (Sadeghi & Chien, §3, eqs. (3.1)–(3.2)).

Every record of the microdata carries a random *record key*, drawn once and stored with the
record. A table cell's *cell key* is computed from the keys of the records in the cell, so the
same cell -- the same set of records -- gets the same key, and hence the same noise, in every
table it appears in, however often it is requested.

The cell key has components :math:`j = 1, \dots, m` (the paper: m = 4). Component j is the sum of
the records' component j modulo a prime bigN close to KEYSIZE (3.1), and the cell key is the
bitwise XOR of the components (3.2):

.. math::

    \mathrm{CellKey}^j = \sum_{i \in \text{cell}} \mathrm{Rkey}_i^j \bmod \mathrm{bigN},
    \qquad
    \mathrm{CellKey} = \mathrm{CellKey}^1 \oplus \mathrm{CellKey}^2 \oplus \mathrm{CellKey}^3
    \oplus \mathrm{CellKey}^4.

**Where the components come from** (a design choice; the paper fixes only KEYSIZE and m = 4):

* KEYSIZE :math:`2^8` as the ABS did ("combined byte-by-byte"): each record has one 32-bit key
  and its four bytes are the four components (:func:`record_keys_from_int`).
  :func:`record_keys` with ``keysize=2**8`` draws four independent uniform bytes per record,
  which has the same law.
* Larger KEYSIZE (:math:`2^{16}`, :math:`2^{32}`, any power of two up to :math:`2^{62}`): each
  record carries four independent components, each uniform on :math:`[0, K)`.

Since bigN < K = KEYSIZE is a power of two, every component is below K and so is their XOR: the
cell key lies in :math:`[0, K)`. A component alone is not uniform on :math:`[0, K)` (it never
reaches :math:`[\mathrm{bigN}, K)`); the XOR of four nearly uniform components is uniform to
within a relative :math:`10^{-4}` already at K = 2^8, bigN = 251, and the XOR also removes the
additive relation between the keys of interior and margin cells.

``method="sum"`` is the one-component variant used by the ONS (record keys on
:math:`[0, K)`, cell key = sum modulo K): no prime and no XOR; the key is exactly uniform when
the record keys are.

Sums are exact integers: per-cell sums of keys below :math:`2^{32}` are accumulated in uint64
(at most :math:`2^{32}` records, so no overflow) and reduced modulo bigN at the end; keys above
:math:`2^{32}` are summed in two 32-bit halves and reduced in Python integers, one per cell.
A cell with no records has the key of an empty sum, 0.

References
----------
.. [1] P. Sadeghi, C.-H. Chien, "On the connection between the ABS perturbation methodology and
   differential privacy" (2023), Section 3.
"""

from __future__ import annotations

import functools
import os
from typing import Any, Literal, cast

import numpy as np

from .._validation import check_int
from ..exceptions import ParameterError, ParameterTypeError
from ._quantise import check_keysize

__all__ = [
    "METHODS",
    "big_prime",
    "cell_key_components",
    "cell_keys",
    "key_modulus",
    "record_keys",
    "record_keys_from_int",
]

#: The two ways of turning record keys into a cell key.
METHODS = ("abs", "sum")
#: Most records per call: sums of keys below 2^32 then fit in uint64 exactly.
MAX_RECORDS = 2**32
#: Most components a record key may have.
MAX_COMPONENTS = 64
_HALF = 2**32
_U32 = np.uint64(0xFFFFFFFF)

Method = Literal["abs", "sum"]


# ------------------------------------------------------------------------------------ checks
def check_method(method: Any) -> Method:
    """``method`` if it is one of :data:`METHODS`, else ParameterError."""
    if not isinstance(method, str) or method not in METHODS:
        raise ParameterError(f"`method` must be one of {METHODS}, got method={method!r}.")
    return cast(Method, method)


def _is_integer(x: Any) -> bool:
    return isinstance(x, int | np.integer) and not isinstance(x, bool)


def int_array(value: Any, name: str) -> np.ndarray:
    """``value`` as a numpy integer array (signed or unsigned), refusing floats and booleans."""
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise ParameterError(
            f"`{name}` must be an array of integers of a regular shape ({exc})."
        ) from None
    kind = arr.dtype.kind
    if arr.size == 0 and kind in "fO":  # an empty list
        return arr.astype(np.int64)
    if kind == "O":  # Python integers too large for int64
        bad = next((x for x in arr.flat if not _is_integer(x)), None)
        if bad is not None:
            raise ParameterTypeError(
                f"`{name}` must hold integers, got {bad!r} of type {type(bad).__name__}."
            )
        try:
            arr = arr.astype(np.uint64)
        except (OverflowError, TypeError, ValueError):
            raise ParameterError(
                f"`{name}` must hold integers in [0, 2^64), got values outside that range."
            ) from None
    elif kind not in "iu":
        raise ParameterTypeError(
            f"`{name}` must be an array of integers, got dtype {arr.dtype} "
            f"({'booleans' if kind == 'b' else 'not integers'})."
        )
    return arr


def _unsigned(arr: np.ndarray, name: str, bound: int, what: str) -> np.ndarray:
    """``arr`` (integers) as uint64 after checking ``0 <= arr < bound``."""
    if arr.size:
        lo, hi = arr.min(), arr.max()
        if arr.dtype.kind == "i" and lo < 0:
            raise ParameterError(
                f"`{name}` must be in [0, {what}), got the negative value {int(lo)}."
            )
        if int(hi) >= bound:
            raise ParameterError(f"`{name}` must be in [0, {what}), got the value {int(hi)}.")
    return arr.astype(np.uint64, copy=False)


def check_record_keys(record_keys: Any, K: int, method: str) -> np.ndarray:
    """(n, m) uint64 keys below K; one component for ``method="sum"``."""
    keys = int_array(record_keys, "record_keys")
    if method == "sum":
        if keys.ndim == 2 and keys.shape[1] == 1:
            keys = keys[:, 0]
        if keys.ndim != 1:
            raise ParameterError(
                "`record_keys` must be one key per record, shape (n,) or (n, 1), for "
                f"method='sum', got shape {keys.shape}."
            )
        keys = keys[:, None]
    elif keys.ndim != 2 or not 1 <= keys.shape[1] <= MAX_COMPONENTS:
        raise ParameterError(
            "`record_keys` must have shape (n, components) for method='abs' (the paper: four "
            f"components), got shape {keys.shape}; split 32-bit keys into bytes with "
            "record_keys_from_int, or pass keys[:, None] for one component."
        )
    if keys.shape[0] > MAX_RECORDS:
        raise ParameterError(
            f"`record_keys` may hold at most 2^32 records, got {keys.shape[0]} records."
        )
    return _unsigned(keys, "record_keys", K, f"keysize={K}")


def _check_cells(cells: Any, n: int, n_cells: Any) -> tuple[np.ndarray, int]:
    c = int_array(cells, "cells")
    if c.ndim != 1 or c.shape[0] != n:
        raise ParameterError(
            f"`cells` must have one cell index per record, shape ({n},), got shape {c.shape}."
        )
    if c.size and c.dtype.kind == "i" and c.min() < 0:
        raise ParameterError(f"`cells` must be >= 0, got the cell index {int(c.min())}.")
    top = int(c.max()) + 1 if c.size else 0
    if n_cells is None:
        m = top
    else:
        m = check_int(n_cells, "n_cells", minimum=0)
        if top > m:
            raise ParameterError(
                f"`cells` must be below n_cells={m}, got the cell index {top - 1}."
            )
    return c.astype(np.intp, copy=False), m


# ------------------------------------------------------------------------------------ primes
_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


def _is_prime(n: int) -> bool:
    """Deterministic Miller–Rabin: the first 13 primes as bases decide every n < 3.3e24."""
    if n < 2:
        return False
    for p in _BASES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in _BASES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@functools.lru_cache(maxsize=64)
def _largest_prime(k: int) -> int:
    while not _is_prime(k):
        k -= 1
    return k


def big_prime(keysize: int) -> int:
    r"""bigN of (3.1): the largest prime :math:`\le` ``keysize``.

    Parameters
    ----------
    keysize : int
        An integer in :math:`[2, 2^{64}]` (usually KEYSIZE, a power of two).

    Returns
    -------
    int

    Notes
    -----
    Primality is decided by Miller–Rabin with the first 13 primes as bases, which is exact for
    every integer below :math:`3.3 \cdot 10^{24}`. The paper asks for a prime "as close to
    KEYSIZE as possible" (footnote 3), below it so that every component is below KEYSIZE.

    References
    ----------
    Sadeghi & Chien, §3, eq. (3.1) and footnote 3.

    Examples
    --------
    >>> big_prime(2**8), big_prime(2**16), big_prime(2**32)
    (251, 65521, 4294967291)
    """
    k = check_int(keysize, "keysize", minimum=2, maximum=2**64)
    return _largest_prime(k)


def key_modulus(keysize: int, *, method: Method = "abs") -> int:
    """The modulus of the component sums: bigN for ``"abs"`` (3.1), KEYSIZE for ``"sum"``.

    Examples
    --------
    >>> key_modulus(2**8), key_modulus(2**8, method="sum")
    (251, 256)
    """
    K = check_keysize(keysize)
    return big_prime(K) if check_method(method) == "abs" else K


# ------------------------------------------------------------------------------------ record keys
def record_keys(
    n: int,
    *,
    keysize: int = 2**32,
    components: int = 4,
    seed: Any = None,
    secure: bool = False,
) -> np.ndarray:
    r"""Draw record keys: ``components`` independent uniform integers in :math:`[0, K)` per record.

    Parameters
    ----------
    n : int
        Number of records.
    keysize : int, default 2**32
        K = KEYSIZE, a power of two (at most :math:`2^{62}`). With :math:`2^8` the four
        components have the law of the four bytes of one uniform 32-bit key (the ABS's
        byte-by-byte combination).
    components : int, default 4
        Components per record (the paper's cell key has four; use 1 for ``method="sum"``).
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator
        Passed to ``numpy.random.default_rng``. Must be None when ``secure=True``.
    secure : bool, default False
        Draw from the operating system's cryptographic source (``os.urandom``) instead: each
        component is the low :math:`\log_2 K` bits of fresh random bytes, exactly uniform.

    Returns
    -------
    numpy.ndarray of uint64, shape (n, components)
        Column-contiguous (the transpose of a (components, n) array), so each component is one
        contiguous vector. With a seed the keys are
        ``default_rng(seed).integers(0, K, size=(components, n), dtype=uint64).T``.

    Raises
    ------
    ParameterError
        If ``n`` or ``components`` is out of range, ``keysize`` is not a power of two, or a
        seed is given with ``secure=True``.

    Notes
    -----
    Draw the keys once and store them with the microdata: consistency of the published tables
    rests on every query seeing the same keys. Keys from a seeded generator are reproducible by
    anyone who knows the seed; a production release should use ``secure=True`` (or keys kept as
    secret as the microdata).

    References
    ----------
    Sadeghi & Chien, §3 ("record keys ... generated from uniform distribution").

    Examples
    --------
    >>> k = record_keys(5, keysize=2**8, seed=1)
    >>> k.shape, k.dtype.name, bool(k.max() < 2**8)
    ((5, 4), 'uint64', True)
    """
    n = check_int(n, "n", minimum=0, maximum=MAX_RECORDS)
    K = check_keysize(keysize)
    m = check_int(components, "components", minimum=1, maximum=MAX_COMPONENTS)
    if not isinstance(secure, bool | np.bool_):
        raise ParameterTypeError(f"`secure` must be a boolean, got secure={secure!r}.")
    if secure:
        if seed is not None:
            raise ParameterError(
                f"`seed` must be None when secure=True (the OS source cannot be seeded), "
                f"got seed={seed!r}."
            )
        if K <= _HALF:
            raw = np.frombuffer(os.urandom(4 * m * n), dtype=np.uint32)
            keys = (raw & np.uint32(K - 1)).astype(np.uint64)
        else:
            raw = np.frombuffer(os.urandom(8 * m * n), dtype=np.uint64)
            keys = raw & np.uint64(K - 1)
        return keys.reshape(m, n).T
    try:
        rng = np.random.default_rng(seed)
    except (TypeError, ValueError) as exc:
        raise ParameterError(
            f"`seed` must be None, a non-negative integer, a SeedSequence or a Generator, "
            f"got seed={seed!r} ({exc})."
        ) from None
    return rng.integers(0, K, size=(m, n), dtype=np.uint64).T


def record_keys_from_int(keys32: Any) -> np.ndarray:
    r"""Split 32-bit record keys into their four bytes: the ABS's components for KEYSIZE 2^8.

    Parameters
    ----------
    keys32 : array_like of int, shape (n,)
        One key in :math:`[0, 2^{32})` per record.

    Returns
    -------
    numpy.ndarray of uint64, shape (n, 4)
        Column j is byte j of the key, least significant first.

    Raises
    ------
    ParameterError, ParameterTypeError
        If the keys are not integers in :math:`[0, 2^{32})` or not one-dimensional.

    References
    ----------
    Sadeghi & Chien, §3 (record keys "combined byte-by-byte" to cell keys of size 2^8).

    Examples
    --------
    >>> record_keys_from_int([0x04030201, 255]).tolist()
    [[1, 2, 3, 4], [255, 0, 0, 0]]
    """
    k = int_array(keys32, "keys32")
    if k.ndim != 1:
        raise ParameterError(f"`keys32` must be one-dimensional, got shape {k.shape}.")
    k = _unsigned(k, "keys32", _HALF, "2^32")
    out = np.empty((4, k.shape[0]), dtype=np.uint64)
    for j in range(4):
        np.bitwise_and(k >> np.uint64(8 * j), np.uint64(0xFF), out=out[j])
    return out.T


# ------------------------------------------------------------------------------------ cell keys
def component_sums(keys: np.ndarray, cells: np.ndarray, n_cells: int, K: int) -> np.ndarray:
    """Exact per-cell sums of each component, shape (n_cells, m).

    uint64 when K <= 2^32 (at most 2^32 records of keys below 2^32: no overflow); otherwise an
    object array of Python integers, summed from the two 32-bit halves of every key.
    """
    m = keys.shape[1]
    if K <= _HALF:
        out = np.zeros((m, n_cells), dtype=np.uint64)
        for j in range(m):
            np.add.at(out[j], cells, keys[:, j])
        return out.T
    lo = np.zeros((m, n_cells), dtype=np.uint64)
    hi = np.zeros((m, n_cells), dtype=np.uint64)
    for j in range(m):
        np.add.at(lo[j], cells, keys[:, j] & _U32)
        np.add.at(hi[j], cells, keys[:, j] >> np.uint64(32))
    return (hi.astype(object) * _HALF + lo.astype(object)).T


def components_from_sums(sums: np.ndarray, modulus: int) -> np.ndarray:
    """(3.1): the exact sums modulo ``modulus``, as uint64."""
    if sums.dtype == object:
        return (sums % modulus).astype(np.uint64)
    return sums % np.uint64(modulus)


def keys_from_components(components: np.ndarray) -> np.ndarray:
    """(3.2): the XOR of the components along the last axis."""
    return np.bitwise_xor.reduce(components, axis=-1)


def cell_key_components(
    record_keys: Any,
    cells: Any,
    *,
    keysize: int,
    n_cells: int | None = None,
    method: Method = "abs",
) -> np.ndarray:
    r"""The components (3.1) of every cell's key: per-cell sums of the record keys modulo bigN.

    The components are additive: the components of the union of disjoint cells are the sums of
    theirs modulo bigN. The XOR (3.2) in :func:`cell_keys` removes that relation from the keys.

    Parameters
    ----------
    record_keys, cells, keysize, n_cells, method
        As in :func:`cell_keys`.

    Returns
    -------
    numpy.ndarray of uint64, shape (n_cells, m)
        Entries below bigN (``"abs"``) or below KEYSIZE (``"sum"``, m = 1).

    References
    ----------
    Sadeghi & Chien, §3, eq. (3.1).

    Examples
    --------
    >>> keys = [[200, 1, 2, 3], [100, 4, 5, 6]]
    >>> cell_key_components(keys, [0, 0], keysize=2**8).tolist()   # 300 mod 251 = 49
    [[49, 5, 7, 9]]
    """
    K = check_keysize(keysize)
    meth = check_method(method)
    keys = check_record_keys(record_keys, K, meth)
    c, m = _check_cells(cells, keys.shape[0], n_cells)
    return components_from_sums(component_sums(keys, c, m, K), key_modulus(K, method=meth))


def cell_keys(
    record_keys: Any,
    cells: Any,
    *,
    keysize: int,
    n_cells: int | None = None,
    method: Method = "abs",
) -> np.ndarray:
    r"""Cell keys from record keys: (3.1) per component, then the XOR of the components (3.2).

    Parameters
    ----------
    record_keys : array_like of int, shape (n, m) (``"abs"``) or (n,) (``"sum"``)
        The records' keys, each component in :math:`[0, K)` (see :func:`record_keys`,
        :func:`record_keys_from_int`).
    cells : array_like of int, shape (n,)
        The cell of each record, in :math:`[0, \text{n\_cells})`.
    keysize : int
        K = KEYSIZE, a power of two.
    n_cells : int, optional
        Number of cells (default: the largest index + 1). Cells without records get key 0.
    method : {"abs", "sum"}, default "abs"
        ``"abs"``: component j of a cell is the sum of its records' component j modulo bigN =
        :func:`big_prime` (K), and the key is the XOR of the components (§3). ``"sum"``: one
        component, the key is the sum modulo K (the ONS's variant).

    Returns
    -------
    numpy.ndarray of uint64, shape (n_cells,)
        Keys in :math:`[0, K)`.

    Raises
    ------
    ParameterError, ParameterTypeError
        If a key is not an integer in :math:`[0, K)`, the shapes do not match, a cell index is
        negative or not below ``n_cells``, or ``method`` is unknown.

    Notes
    -----
    .. math::

        \mathrm{CellKey} = \bigoplus_{j=1}^{m}
        \Big(\sum_{i \in \text{cell}} \mathrm{Rkey}_i^j \bmod \mathrm{bigN}\Big).

    Sums are exact integers (no floating point): see the module notes. 10^7 records with four
    components take about 0.2 s.

    References
    ----------
    Sadeghi & Chien, §3, eqs. (3.1)–(3.2).

    Examples
    --------
    >>> keys = [[200, 1, 2, 3], [100, 4, 5, 6], [7, 7, 7, 8]]
    >>> cell_keys(keys, [0, 0, 2], keysize=2**8).tolist()   # 49^5^7^9 = 58; cell 1 is empty
    [58, 0, 15]
    >>> cell_keys([200, 100, 7], [0, 0, 1], keysize=2**8, method="sum").tolist()  # 300 mod 256
    [44, 7]
    """
    return keys_from_components(
        cell_key_components(record_keys, cells, keysize=keysize, n_cells=n_cells, method=method)
    )
