r"""Constants and array checks shared by the perturbation-table modules: the above-rules, the
file layouts and their limits, integer arrays, row checks, the key counts of a key map, and the
row-building steps of :class:`~rainbowdp.cellkey.Ptable` (its key-map check, the quantised
thresholds of its noise laws, the lookup of a key's noise, the anchored rows of a noise law and
the rows of a mechanism on a count path).

References
----------
.. [1] P. Sadeghi, C.-H. Chien, "On the connection between the ABS perturbation methodology and
   differential privacy" (2023), Sections 3–4.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from ..exceptions import ParameterError, ParameterTypeError

__all__ = [
    "ABOVE_RULES",
    "KEY_TYPES",
    "LAYOUTS",
    "MAX_CELLS",
    "MAX_ONS_KEYSIZE",
    "MAX_ROWS",
    "ONS_LAST_PCV",
    "ONS_LOOP_START",
    "SUM_TOL",
    "Above",
    "KeyType",
    "check_above",
    "check_key_type",
    "check_table_keysize",
    "grid_text",
    "grid_type",
    "int_array",
    "key_counts",
    "trim_columns",
    "validate_rows",
]

#: The rules for counts above the last row.
ABOVE_RULES = ("last", "loop")
#: File layouts: the R package ``ptable`` (its CSV, and its Tau-Argus and SAS exports) and the
#: ONS cell-key tables.
LAYOUTS = ("ptable", "tauargus", "sas", "ons")
#: Rows must sum to 1 within this (as :func:`quantised_cdf` requires).
SUM_TOL = 1e-9
#: Entries of two tables this close are the same table (the float noise of decimal bounds).
SAME_TABLE_TOL = 1e-12
#: The ONS loop: the largest pcv and the first pcv of the loop.
ONS_LAST_PCV, ONS_LOOP_START = 750, 501
#: Largest KEYSIZE written in the ONS layout (one line per key and row).
MAX_ONS_KEYSIZE = 2**20
#: Largest number of rows of a ptable.
MAX_ROWS = 10**6
#: Largest number of entries (I + 1)(J + 1) of a table read from a file.
MAX_CELLS = 2**27

Above = Literal["last", "loop"]
#: What cell keys are: integers 0..K-1 (the ABS and ONS keys, K a power of two) or decimals
#: k / K in [0, 1), K = 10^d (the R package ``cellKey`` and Tau-Argus, d digits).
KEY_TYPES = ("integer", "decimal")
KeyType = Literal["integer", "decimal"]
#: Most digits of a decimal key grid (10^18 <= 2^62, the largest key grid).
MAX_KEY_DIGITS = 18


# ------------------------------------------------------------------------------------ checks
def check_above(above: Any) -> str:
    if not isinstance(above, str) or above not in ABOVE_RULES:
        raise ParameterError(f"`above` must be one of {ABOVE_RULES}, got above={above!r}.")
    return above


def check_key_type(key_type: Any) -> str:
    if not isinstance(key_type, str) or key_type not in KEY_TYPES:
        raise ParameterError(f"`key_type` must be one of {KEY_TYPES}, got key_type={key_type!r}.")
    return key_type


def power_of_ten(K: int) -> int | None:
    """d if K = 10^d with d >= 1, else None."""
    text = str(K)
    return len(text) - 1 if K >= 10 and text == "1" + "0" * (len(text) - 1) else None


def check_table_keysize(keysize: Any, key_type: str, name: str = "keysize") -> int:
    """A table's key size: a power of two for integer keys (:func:`check_keysize`), 10^d with
    1 <= d <= 18 for decimal keys."""
    from ._quantise import check_key_grid, check_keysize

    if key_type == "integer":
        return check_keysize(keysize, name)
    K = check_key_grid(keysize, name)
    d = power_of_ten(K)
    if d is None or d > MAX_KEY_DIGITS:
        raise ParameterError(
            f"`{name}` must be 10^d (decimal keys with d digits, 1 <= d <= {MAX_KEY_DIGITS}) for "
            f"key_type='decimal', got {name}={keysize!r}."
        )
    return K


def grid_type(K: int) -> tuple[KeyType, int | None]:
    """The key type of a grid of K keys and the keysize a table on it records: ("integer", K)
    for a power of two, ("decimal", K) for a power of ten, ("integer", None) otherwise."""
    if not K & (K - 1):
        return "integer", K
    if power_of_ten(K) is not None and K <= 10**MAX_KEY_DIGITS:
        return "decimal", K
    return "integer", None


def grid_text(K: int) -> str:
    """A key grid's size as shown: ``2^k``, ``10^d`` or the integer.

    Examples
    --------
    >>> grid_text(2**32), grid_text(10**5), grid_text(12)
    ('2^32', '10^5', '12')
    """
    if not K & (K - 1):
        return f"2^{K.bit_length() - 1}"
    d = power_of_ten(K)
    return str(K) if d is None else f"10^{d}"


def int_array(value: Any, name: str) -> np.ndarray:
    """``value`` as an int64 array; integer dtypes only (uint64 beyond int64 is refused)."""
    if isinstance(value, str | bytes):
        raise ParameterTypeError(f"`{name}` must be an array of integers, got {name}={value!r}.")
    arr = np.asarray(value)
    if arr.size == 0:
        return arr.astype(np.int64)
    if arr.dtype.kind not in "iu":
        raise ParameterTypeError(
            f"`{name}` must be an array of integers (integer dtype), got dtype {arr.dtype} for "
            f"{name}={value!r}."
        )
    if arr.dtype.kind == "u" and arr.size and int(arr.max()) > np.iinfo(np.int64).max:
        raise ParameterError(f"`{name}` must be below 2^63, got max {int(arr.max())}.")
    return arr.astype(np.int64)


def key_counts(j: np.ndarray, width: int) -> np.ndarray:
    """(rows, width) float: how many keys of each row publish each j (j: (rows, K))."""
    n = j.shape[0]
    flat = (j + width * np.arange(n)[:, None]).ravel()
    return np.bincount(flat, minlength=n * width).reshape(n, width).astype(np.float64)


def trim_columns(p: np.ndarray) -> np.ndarray:
    """``p`` without its trailing all-zero columns (at least one column is kept)."""
    nz = np.flatnonzero(p.any(axis=0))
    return p[:, : int(nz[-1]) + 1] if nz.size else p[:, :1]


def validate_rows(p: np.ndarray, name: str) -> None:
    """ParameterError naming the first row i that is not a distribution."""
    bad = ~np.isfinite(p) | (p < 0)
    if bad.any():
        i, j = (int(x) for x in np.argwhere(bad)[0])
        raise ParameterError(
            f"`{name}` must hold finite non-negative probabilities, got P[{i}, {j}] = "
            f"{float(p[i, j])!r} in row i={i}."
        )
    sums = p.sum(axis=1)
    off = np.abs(sums - 1.0) > SUM_TOL
    if off.any():
        i = int(np.argmax(off))
        raise ParameterError(
            f"`{name}` rows must sum to 1 (within {SUM_TOL:g}), got sum {float(sums[i])!r} in "
            f"row i={i}."
        )


# ------------------------------------------------------------------------------------ rows
def check_key_map(km: Any, p: np.ndarray, K: int | None, keysize: Any) -> tuple[np.ndarray, int]:
    r"""A key map as a read-only int64 (I + 1, K) array consistent with the rows ``p``:
    :math:`P[i, i + v] = \#\{k : \mathrm{key\_map}[i, k] = v\} / K` within 1e-12. Returns
    (key map, K); ``K`` is the table's keysize (None: the map's)."""
    from ._quantise import check_keysize

    n_rows = p.shape[0]
    km = int_array(km, "key_map")
    if km.ndim != 2 or km.shape[0] != n_rows:
        raise ParameterError(
            f"`key_map` must have shape ({n_rows}, K), one row per count, got shape {km.shape}."
        )
    Kk = check_keysize(km.shape[1], "key_map.shape[1]")
    if K is not None and K != Kk:
        raise ParameterError(
            f"`keysize` must equal the key map's K = {Kk}, got keysize={keysize!r}."
        )
    j = km + np.arange(n_rows)[:, None]
    bad = (j < 0) | (j >= p.shape[1])
    if bad.any():
        i, k = (int(x) for x in np.argwhere(bad)[0])
        raise ParameterError(
            f"`key_map` gives noise {int(km[i, k])} to count {i} (key {k}), a published "
            f"count outside the table's 0..{p.shape[1] - 1}, in row i={i}."
        )
    counts = key_counts(j, p.shape[1])
    diff = np.abs(counts / Kk - p)
    if diff.max() > 1e-12:
        i, jj = (int(x) for x in np.unravel_index(int(np.argmax(diff)), diff.shape))
        raise ParameterError(
            f"`key_map` is inconsistent with `probabilities` in row i={i}: "
            f"{int(counts[i, jj])} of {Kk} keys give j={jj}, but P[{i}, {jj}] = "
            f"{float(p[i, jj])!r}."
        )
    km.setflags(write=False)
    return km, Kk


def band_thresholds(law: np.ndarray, K: int) -> np.ndarray:
    r""":math:`c^Q` of the noise laws (I + 1, 2D + 1) at key size K, each row quantised on its
    own support (right-aligned: leading zeros add exact zeros to the CDF; from the last positive
    entry on the CDF is exactly K)."""
    from ._quantise import quantised_cdf

    w = law.shape[1]
    last = w - 1 - np.argmax(law[:, ::-1] > 0, axis=1)  # last positive entry per row
    shift = (w - 1) - last  # right-align: leading zeros add exact zeros to the CDF
    cols = np.arange(w)[None, :] - shift[:, None]
    aligned = np.where(cols >= 0, np.take_along_axis(law, np.maximum(cols, 0), axis=1), 0.0)
    cq_aligned = quantised_cdf(aligned, K)
    back = np.minimum(np.arange(w)[None, :] + shift[:, None], w - 1)
    cq = np.take_along_axis(cq_aligned, back, axis=1)
    cq[np.arange(w)[None, :] > last[:, None]] = K
    cq.setflags(write=False)
    return cq


def counts_and_keys(counts: Any, cell_keys: Any, K: int) -> tuple[np.ndarray, np.ndarray]:
    """Counts >= 0 and cell keys in [0, K) as int64 arrays broadcast together."""
    c = int_array(counts, "counts")
    raw = np.asarray(cell_keys)
    if raw.dtype.kind == "u" and raw.size and int(raw.max()) >= K:
        raise ParameterError(
            f"`cell_keys` must lie in [0, K) = [0, {K}), got max {int(raw.max())}."
        )
    k = int_array(raw, "cell_keys")
    if c.size and int(c.min()) < 0:
        raise ParameterError(f"`counts` must be >= 0, got min {int(c.min())}.")
    if k.size and (int(k.min()) < 0 or int(k.max()) >= K):
        raise ParameterError(
            f"`cell_keys` must lie in [0, K) = [0, {K}), got values from {int(k.min())} to "
            f"{int(k.max())}."
        )
    try:
        c, k = np.broadcast_arrays(c, k)
    except ValueError:
        raise ParameterError(
            f"`counts` and `cell_keys` must broadcast together, got shapes {c.shape} and {k.shape}."
        ) from None
    return c, k


def lookup_noise(cq: np.ndarray, r: np.ndarray, k: np.ndarray, D: int) -> np.ndarray:
    r"""The noise v = t − D of the first t with :math:`c^Q_r(t) > k` (Sadeghi & Chien, (4.3)),
    by a vectorised binary search over the thresholds ``cq`` (I + 1, 2D + 1) of the rows r."""
    w = cq.shape[1]
    lo = np.zeros(r.shape, dtype=np.int64)
    hi = np.full(r.shape, w - 1, dtype=np.int64)
    for _ in range(max(1, int(w).bit_length())):  # first t with cq[r, t] > k
        mid = (lo + hi) // 2
        up = cq[r, mid] > k
        hi = np.where(up, mid, hi)
        lo = np.where(up, lo, mid + 1)
    return hi - D


def anchored_rows(pmf: Any, low: Any, rows: Any) -> np.ndarray:
    r"""The rows 0..I of the ptable of a noise law with anchored rows near zero (the body of
    :meth:`~rainbowdp.cellkey.Ptable.from_noise`, which states the construction)."""
    from .._validation import check_int, real_array

    p = real_array(pmf, "pmf")
    if p.ndim != 1 or p.size == 0:
        raise ParameterError(f"`pmf` must be a non-empty vector, got shape {p.shape}.")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ParameterError(f"`pmf` must be finite and non-negative, got pmf={pmf!r}.")
    total = float(p.sum())
    if abs(total - 1.0) > SUM_TOL:
        raise ParameterError(f"`pmf` must sum to 1 (within {SUM_TOL:g}), got sum {total!r}.")
    lo = check_int(low, "low", minimum=-MAX_ROWS, maximum=MAX_ROWS)
    nz = np.flatnonzero(p > 0)
    p = p[nz[0] : nz[-1] + 1]
    lo = lo + int(nz[0])
    hi = lo + p.size - 1
    D = max(abs(lo), abs(hi))
    neg = max(0, -lo)
    if neg and (lo != -hi or not np.array_equal(p, p[::-1])):
        raise ParameterError(
            "`pmf` must be symmetric, p(-v) = p(v) exactly, when it has negative noise (the "
            f"anchored rows need noise pairs); got support [{lo}, {hi}] and pmf={pmf!r}. "
            "Symmetrise it, e.g. (pmf + pmf[::-1]) / 2."
        )
    I_ = D if rows is None else check_int(rows, "rows", minimum=neg, maximum=MAX_ROWS - 1)
    P = np.zeros((I_ + 1, I_ + hi + 1))
    i = np.arange(I_ + 1)
    v = np.arange(lo, hi + 1)
    plain = i >= neg
    ii = i[plain][:, None]
    P[ii, ii + v[None, :]] = p[None, :]
    if neg:
        a = i[~plain]  # anchored rows 0..neg-1
        P[a, a] = p[neg]  # v = 0
        w = np.arange(1, neg + 1)  # pairs +-w, p symmetric: p(w) = p[neg + w]
        mass = 2.0 * p[neg + w]
        A, W = np.meshgrid(a, w, indexing="ij")
        M = np.broadcast_to(mass, A.shape)
        inside = W <= A
        np.add.at(P, (A[inside], A[inside] - W[inside]), M[inside] / 2)
        np.add.at(P, (A[inside], A[inside] + W[inside]), M[inside] / 2)
        out = ~inside
        Ao, Wo, Mo = A[out], W[out], M[out]
        np.add.at(P, (Ao, np.zeros_like(Ao)), Mo * Wo / (Wo + Ao))
        np.add.at(P, (Ao, Ao + Wo), Mo * Ao / (Wo + Ao))
        P[0] = 0.0  # row 0: every pair goes to 0 (the sum above is 1 up to round-off)
        P[0, 0] = 1.0
    return P


def count_path_rows(mechanism: Any) -> np.ndarray:
    """The rows of a mechanism on a count path, ordered by the true answers 0..I (the body of
    :meth:`~rainbowdp.cellkey.Ptable.from_mechanism`)."""
    from ..mechanism import check_mechanism

    m = check_mechanism(mechanism)
    G = m.graph
    q = G.n_outputs
    if G.outputs != tuple(range(q)):
        raise ParameterError(
            f"`mechanism` must have the outputs 0..q-1 of a count path, got outputs "
            f"{G.outputs[:5]!r}..."
        )
    answers = G.answers
    if answers is None:
        raise ParameterError(
            "`mechanism` must be on a count path with the true answers 0..I, got a graph "
            "without answers."
        )
    try:
        a = int_array(np.asarray(answers), "G.answers")
    except (ParameterError, ParameterTypeError) as exc:
        raise ParameterError(f"`mechanism` is not on a count path: {exc}") from None
    order = np.argsort(a, kind="stable")
    if not np.array_equal(a[order], np.arange(a.size)):
        raise ParameterError(
            f"`mechanism` must be on a count path with the answers 0..I each once, got "
            f"answers from {int(a.min())} to {int(a.max())} for {a.size} nodes."
        )
    e = np.sort(a[G.edges], axis=1)
    if G.directed or e.shape[0] != a.size - 1 or not np.all(e[:, 1] - e[:, 0] == 1):
        raise ParameterError(
            "`mechanism` must be on a count path (edges between counts i and i + 1 only), "
            f"got {e.shape[0]} edges on {a.size} nodes."
        )
    return m.probabilities[order]


def check_loop_start(above: str, s: Any, n_rows: int) -> int | None:
    """``loop_start``: required in [0, I] with ``"loop"``, refused with ``"last"``."""
    from .._validation import check_int

    if above == "loop":
        if s is None:
            raise ParameterError("`loop_start` is required with above='loop', got None.")
        return check_int(s, "loop_start", minimum=0, maximum=n_rows - 1)
    if s is not None:
        raise ParameterError(
            f"`loop_start` applies to above='loop' only, got loop_start={s!r} with above={above!r}."
        )
    return None


def shifted_rows(p: np.ndarray, r: np.ndarray, counts: np.ndarray, q: int) -> np.ndarray:
    """The (len(counts), q) laws of the published counts 0..q-1: row r[u] of ``p`` shifted by
    counts[u] - r[u]."""
    m = p.shape[1]
    out = np.zeros((counts.size, q))
    cols = np.arange(m)[None, :] + (counts - r)[:, None]
    keep = cols < q
    rr = np.broadcast_to(np.arange(counts.size)[:, None], cols.shape)
    src = p[r]
    if (src[~keep] > 0).any():
        raise ParameterError(f"the outputs 0..{q - 1} do not hold the rows (too few).")
    out[rr[keep], cols[keep]] = src[keep]
    return out


# ------------------------------------------------------------------------------------ display
def keysize_text(T: Any) -> str:
    """The key size of a ptable as shown: ``2^k`` (and whether from a key map), ``10^d
    (decimal keys)``, or ``-``."""
    K = T.keysize
    if K is None:
        return "-"
    if T.key_type == "decimal":
        return f"{grid_text(K)} (decimal keys)"
    return grid_text(K) + (" (key map)" if T.key_map is not None else "")


def summary_rows(T: Any) -> list[tuple[str, str]]:
    """The (name, value) lines of a ptable's summary (its HTML table and ``str``)."""
    from ._display import num

    n, m = T.probabilities.shape
    rule = T.above if T.loop_start is None else f"{T.above}, s = {T.loop_start}"
    var = T.variance
    rows = [
        ("counts with a row", f"0..{n - 1}"),
        ("published counts", f"0..{m - 1}"),
        ("largest |noise| D", str(T.D)),
        ("above-rule", rule),
        ("keysize", keysize_text(T)),
        ("max |bias|", num(float(np.abs(T.bias).max()))),
        ("variance", f"{num(float(var.min()))} .. {num(float(var.max()))}"),
    ]
    source = None if T.metadata is None else T.metadata.get("path")
    if source is not None:
        rows.append(("read from", str(source)))
    return rows


def summary_text(T: Any) -> str:
    """A few lines describing a ptable (its ``str``)."""
    n, m = T.probabilities.shape
    s = dict(summary_rows(T))
    lines = [
        f"perturbation table: counts 0..{n - 1} (rows), published 0..{m - 1}, noise in "
        f"[-{T.D}, {T.D}]",
        f"  above-rule {s['above-rule']}; keysize {s['keysize']}",
        f"  max |bias| {s['max |bias|']}, variance {s['variance']}",
        "  (audit(table) for its exact epsilon and delta)",
    ]
    if "read from" in s:
        lines.append(f"  read from {s['read from']}")
    return "\n".join(lines)
