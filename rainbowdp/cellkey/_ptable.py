r"""Perturbation tables (ptables): the transition matrix of a cell-key count perturbation.

A ptable gives, for each original count :math:`i = 0, \dots, I`, the probabilities
:math:`P(j \mid i)` of publishing :math:`j = i + v`, v the noise. Counts above the last row
:math:`I` use a data-independent row chosen by the *above-rule*:

``"last"``
    every count :math:`c > I` uses row I shifted to c (the R package ``ptable``);
``"loop"``
    a count :math:`c > I` uses row :math:`((c - s) \bmod (I - s + 1)) + s`, shifted to c (the
    ONS cell-key tables: :math:`s = 501` for :math:`I = 750`).

A cell key :math:`k \in [0, K)` picks the noise of row r by the quantised cumulative intervals
(Sadeghi & Chien, §4, (4.1)–(4.3)): :math:`v = j - r` with
:math:`c^Q_r(j - 1) \le k < c^Q_r(j)`, or directly from an ONS key map.

The table *is* a mechanism on the count path :math:`0 - 1 - 2 - \cdots` (neighbouring counts
differ by one record): :meth:`Ptable.mechanism` builds it, :func:`audit` computes its exact
(ε, δ) with the library's verifier, and :func:`read_ptable` / :func:`write_ptable` read and write
the R ``ptable`` and the ONS file layouts.

References
----------
.. [1] P. Sadeghi, C.-H. Chien, "On the connection between the ABS perturbation methodology and
   differential privacy" (2023), Sections 3–4.
"""

from __future__ import annotations

import csv
import gc
import io
import math
import os
import time
from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import Any, Literal, NoReturn

import numpy as np

from .._validation import check_delta, check_epsilon, check_int, real_array
from ..exceptions import ParameterError, ParameterTypeError
from ..mechanism import Mechanism, check_mechanism
from ._display import html_table, num, require_pandas, up
from ._quantise import check_keysize, quantised_cdf

__all__ = [
    "ABOVE_RULES",
    "LAYOUTS",
    "AuditReport",
    "Ptable",
    "audit",
    "read_ptable",
    "write_ptable",
]

#: The rules for counts above the last row.
ABOVE_RULES = ("last", "loop")
#: File layouts: the R package ``ptable`` and the ONS cell-key tables.
LAYOUTS = ("ptable", "ons")
#: Rows must sum to 1 within this (as :func:`quantised_cdf` requires).
SUM_TOL = 1e-9
#: The ONS loop: the largest pcv and the first pcv of the loop.
ONS_LAST_PCV, ONS_LOOP_START = 750, 501
#: Largest KEYSIZE written in the ONS layout (one line per key and row).
MAX_ONS_KEYSIZE = 2**20
#: Largest number of rows of a ptable.
MAX_ROWS = 10**6
#: Largest number of entries (I + 1)(J + 1) of a table read from a file.
MAX_CELLS = 2**27

Above = Literal["last", "loop"]


# ------------------------------------------------------------------------------------ checks
def _check_above(above: Any) -> str:
    if not isinstance(above, str) or above not in ABOVE_RULES:
        raise ParameterError(f"`above` must be one of {ABOVE_RULES}, got above={above!r}.")
    return above


def _int_array(value: Any, name: str) -> np.ndarray:
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


def _key_counts(j: np.ndarray, width: int) -> np.ndarray:
    """(rows, width) float: how many keys of each row publish each j (j: (rows, K))."""
    n = j.shape[0]
    flat = (j + width * np.arange(n)[:, None]).ravel()
    return np.bincount(flat, minlength=n * width).reshape(n, width).astype(np.float64)


def _trim_columns(p: np.ndarray) -> np.ndarray:
    """``p`` without its trailing all-zero columns (at least one column is kept)."""
    nz = np.flatnonzero(p.any(axis=0))
    return p[:, : int(nz[-1]) + 1] if nz.size else p[:, :1]


def _validate_rows(p: np.ndarray, name: str) -> None:
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


# ------------------------------------------------------------------------------------ Ptable
@dataclass(frozen=True, eq=False)
class Ptable:
    r"""A perturbation table: :math:`P[i, j] = P(j \mid i)` for counts i = 0..I.

    Parameters
    ----------
    probabilities : array_like, shape (I + 1, J + 1)
        Row i is the law of the published count j = 0..J given the original count i. Rows are
        finite, non-negative and sum to 1 within 1e-9. Trailing all-zero columns are dropped
        (so J is the largest published count with positive probability).
    above : {"last", "loop"}, default "last"
        The row used for counts above I (module notes).
    loop_start : int, optional
        s of the ``"loop"`` rule, in [0, I] (required for ``"loop"``, refused for ``"last"``).
    key_map : array_like of int, shape (I + 1, K), optional
        ``key_map[i, k]`` is the noise v of count i for cell key k (an ONS table). It must be
        consistent with ``probabilities``: :math:`P[i, i + v] = \#\{k : \mathrm{key\_map}[i, k]
        = v\} / K` within 1e-12. Without it, keys pick the noise by the quantised intervals.
    keysize : int, optional
        K, a power of two: the default key size of :meth:`noise` (and of :func:`audit` and the
        ONS layout). With ``key_map`` it must equal ``key_map.shape[1]`` (the default).
    metadata : mapping, optional
        Free-form information (e.g. the file a table was read from).

    Raises
    ------
    ParameterError
        A row that is not a distribution (the message names the row i), an inconsistent key
        map, a bad above-rule.

    Notes
    -----
    For a count c the *row* is :math:`r(c) = c` for :math:`c \le I`; above I it is I
    (``"last"``) or :math:`((c - s) \bmod (I - s + 1)) + s` (``"loop"``). The law of the
    published count is row r(c) shifted by :math:`c - r(c)`: :math:`P(c + v \mid c) =
    P[r(c), r(c) + v]`. A shifted row never puts mass below 0, since row r has none below
    :math:`j = 0`, i.e. no noise below :math:`-r \ge -c`.

    References
    ----------
    Sadeghi & Chien, Sections 3–4.

    Examples
    --------
    >>> T = Ptable([[1.0, 0.0, 0.0], [0.25, 0.5, 0.25]])
    >>> T.max_count, T.D, T.bias.tolist(), T.variance.tolist()
    (1, 1, [0.0, 0.0], [0.0, 0.5])
    >>> T.noise([0, 1, 5, 5], [200, 200, 10, 250], keysize=256).tolist()
    [0, 1, -1, 1]
    """

    probabilities: np.ndarray
    _: KW_ONLY
    above: Above = "last"
    loop_start: int | None = None
    key_map: np.ndarray | None = None
    keysize: int | None = None
    metadata: Mapping[str, Any] | None = None
    _cache: dict = field(init=False, repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        p = real_array(self.probabilities, "probabilities")
        if p.ndim != 2 or p.shape[0] == 0 or p.shape[1] == 0:
            raise ParameterError(
                f"`probabilities` must be a non-empty (I + 1, J + 1) matrix, got shape {p.shape}."
            )
        if p.shape[0] > MAX_ROWS:
            raise ParameterError(
                f"`probabilities` must have at most {MAX_ROWS} rows, got {p.shape[0]}."
            )
        _validate_rows(p, "probabilities")
        p = np.ascontiguousarray(_trim_columns(p))
        p.setflags(write=False)
        n_rows = p.shape[0]
        above = _check_above(self.above)
        s = self.loop_start
        if above == "loop":
            if s is None:
                raise ParameterError("`loop_start` is required with above='loop', got None.")
            s = check_int(s, "loop_start", minimum=0, maximum=n_rows - 1)
        elif s is not None:
            raise ParameterError(
                f"`loop_start` applies to above='loop' only, got loop_start={s!r} with "
                f"above={above!r}."
            )
        K = None if self.keysize is None else check_keysize(self.keysize)
        km = self.key_map
        if km is not None:
            km = _int_array(km, "key_map")
            if km.ndim != 2 or km.shape[0] != n_rows:
                raise ParameterError(
                    f"`key_map` must have shape ({n_rows}, K), one row per count, got shape "
                    f"{km.shape}."
                )
            Kk = check_keysize(km.shape[1], "key_map.shape[1]")
            if K is not None and K != Kk:
                raise ParameterError(
                    f"`keysize` must equal the key map's K = {Kk}, got keysize={self.keysize!r}."
                )
            K = Kk
            j = km + np.arange(n_rows)[:, None]
            bad = (j < 0) | (j >= p.shape[1])
            if bad.any():
                i, k = (int(x) for x in np.argwhere(bad)[0])
                raise ParameterError(
                    f"`key_map` gives noise {int(km[i, k])} to count {i} (key {k}), a published "
                    f"count outside the table's 0..{p.shape[1] - 1}, in row i={i}."
                )
            counts = _key_counts(j, p.shape[1])
            diff = np.abs(counts / Kk - p)
            if diff.max() > 1e-12:
                i, jj = (int(x) for x in np.unravel_index(int(np.argmax(diff)), diff.shape))
                raise ParameterError(
                    f"`key_map` is inconsistent with `probabilities` in row i={i}: "
                    f"{int(counts[i, jj])} of {Kk} keys give j={jj}, but P[{i}, {jj}] = "
                    f"{float(p[i, jj])!r}."
                )
            km.setflags(write=False)
        if self.metadata is not None and not isinstance(self.metadata, Mapping):
            raise ParameterTypeError(
                f"`metadata` must be a mapping, got metadata={self.metadata!r}."
            )
        object.__setattr__(self, "probabilities", p)
        object.__setattr__(self, "above", above)
        object.__setattr__(self, "loop_start", s)
        object.__setattr__(self, "key_map", km)
        object.__setattr__(self, "keysize", K)
        object.__setattr__(self, "metadata", None if self.metadata is None else dict(self.metadata))

    # -------------------------------------------------------------------------------- equality
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ptable):
            return NotImplemented
        same_map = (self.key_map is None) == (other.key_map is None) and (
            self.key_map is None or np.array_equal(self.key_map, other.key_map)
        )
        return (
            self.probabilities.shape == other.probabilities.shape
            and bool(np.array_equal(self.probabilities, other.probabilities))
            and self.above == other.above
            and self.loop_start == other.loop_start
            and self.keysize == other.keysize
            and same_map
        )

    __hash__ = None  # type: ignore[assignment]

    # -------------------------------------------------------------------------------- properties
    @property
    def max_count(self) -> int:
        """I: the largest count with its own row."""
        return self.probabilities.shape[0] - 1

    @property
    def rows_noise(self) -> np.ndarray:
        """(I + 1, J + 1) int64: the noise :math:`v = j - i` of every entry."""
        n, m = self.probabilities.shape
        return np.arange(m)[None, :] - np.arange(n)[:, None]

    def _band(self) -> tuple[int, np.ndarray]:
        """(D, the noise laws); cached."""
        if "band" not in self._cache:
            p = self.probabilities
            r, c = np.nonzero(p > 0)
            D = int(np.abs(c - r).max())
            law = np.zeros((p.shape[0], 2 * D + 1))
            law[r, c - r + D] = p[r, c]
            law.setflags(write=False)
            self._cache["band"] = (D, law)
        return self._cache["band"]

    @property
    def D(self) -> int:
        """The largest :math:`|v|` with positive probability in any row."""
        return self._band()[0]

    @property
    def noise_laws(self) -> np.ndarray:
        r"""(I + 1, 2D + 1): entry [i, v + D] is :math:`P(i + v \mid i)`, the noise law of row i.

        Examples
        --------
        >>> Ptable.from_noise([0.25, 0.5, 0.25], low=-1).noise_laws.tolist()
        [[0.0, 1.0, 0.0], [0.25, 0.5, 0.25]]
        """
        return self._band()[1]

    @property
    def bias(self) -> np.ndarray:
        r"""Per row: :math:`\mathbb E[V \mid i] = \sum_j (j - i) P[i, j]`."""
        D, law = self._band()
        return law @ np.arange(-D, D + 1, dtype=np.float64)

    @property
    def variance(self) -> np.ndarray:
        r"""Per row: :math:`\operatorname{Var}[V \mid i]`, about the row's own mean."""
        D, law = self._band()
        v = np.arange(-D, D + 1, dtype=np.float64)[None, :] - self.bias[:, None]
        return (v * v * law).sum(axis=1)

    # -------------------------------------------------------------------------------- rows
    def row_of(self, counts: Any) -> np.ndarray:
        r"""The row :math:`r(c)` used for each count c >= 0 (the above-rule; class notes).

        Examples
        --------
        >>> T = Ptable(np.eye(4), above="loop", loop_start=2)
        >>> T.row_of([0, 3, 4, 5, 6, 7]).tolist()
        [0, 3, 2, 3, 2, 3]
        """
        c = _int_array(counts, "counts")
        if c.size and int(c.min()) < 0:
            raise ParameterError(f"`counts` must be >= 0, got min {int(c.min())}.")
        return self._row_of(c)

    def _row_of(self, c: np.ndarray) -> np.ndarray:
        top = self.max_count
        if self.above == "last":
            return np.minimum(c, top)
        s = self.loop_start
        assert s is not None
        return np.where(c > top, (c - s) % (top - s + 1) + s, c)

    def _band_thresholds(self, K: int) -> np.ndarray:
        """:math:`c^Q` of the noise laws, (I + 1, 2D + 1); cached per K."""
        key = ("cq", K)
        if key not in self._cache:
            _, law = self._band()
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
            self._cache[key] = cq
        return self._cache[key]

    def thresholds(self, keysize: int) -> np.ndarray:
        r"""(I + 1, J + 1) int64: :math:`c^Q_i(j)` of each row, as :func:`quantised_cdf`.

        Each row is quantised on its own support: the CDF is accumulated from the row's first
        positive entry upwards (Sadeghi & Chien, (4.1)–(4.2) and Example 2: from −D upwards)
        and is exactly K from its last positive entry on (a trailing zero never gains mass).
        Key k of row i maps to the first j with :math:`c^Q_i(j) > k`.

        Examples
        --------
        >>> Ptable([[0.25, 0.5, 0.25]]).thresholds(256).tolist()
        [[64, 192, 256]]
        """
        K = check_keysize(keysize)
        D, _ = self._band()
        cqb = self._band_thresholds(K)
        n, m = self.probabilities.shape
        cols = np.arange(n)[:, None] + np.arange(-D, D + 1)[None, :]
        cq = np.where(np.arange(m)[None, :] < np.arange(n)[:, None], 0, K).astype(np.int64)
        ok = (cols >= 0) & (cols < m)
        rows = np.broadcast_to(np.arange(n)[:, None], cols.shape)
        cq[rows[ok], cols[ok]] = cqb[ok]
        return cq

    def quantised(self, keysize: int) -> Ptable:
        r"""The table actually applied with key size K: :math:`p^Q = (c^Q(j) - c^Q(j-1)) / K`.

        Sadeghi & Chien, (4.5). A table with a key map of the same K is returned unchanged.

        Examples
        --------
        >>> Ptable([[1.0, 0.0], [0.3, 0.7]]).quantised(8).probabilities.tolist()
        [[1.0, 0.0], [0.375, 0.625]]
        """
        K = check_keysize(keysize)
        if self.key_map is not None and self.keysize == K:
            return self
        D, _ = self._band()
        lawq = np.diff(self._band_thresholds(K), axis=1, prepend=0).astype(np.float64) / K
        n, m = self.probabilities.shape
        r, t = np.nonzero(lawq > 0)
        pq = np.zeros((n, m))
        pq[r, r + t - D] = lawq[r, t]
        return Ptable(
            pq,
            above=self.above,
            loop_start=self.loop_start,
            keysize=K,
            metadata=self.metadata,
        )

    def noise(self, counts: Any, cell_keys: Any, *, keysize: int | None = None) -> np.ndarray:
        r"""The noise of each (count, cell key): deterministic, vectorised.

        The count c uses row r = r(c) (the above-rule) and key k the v = j − r of the row's
        quantised interval :math:`c^Q_r(j - 1) \le k < c^Q_r(j)` (Sadeghi & Chien, (4.3)); with
        a key map, ``key_map[r, k]``.

        Parameters
        ----------
        counts : array_like of int
            Original counts, >= 0.
        cell_keys : array_like of int (e.g. uint64)
            Keys in [0, K); broadcast against ``counts``.
        keysize : int, optional
            K; default the table's ``keysize`` (required if the table has none). With a key map
            it must equal the map's K.

        Returns
        -------
        numpy.ndarray of int64
            The noise v; the published count is ``counts + v`` (never negative).

        Examples
        --------
        >>> T = Ptable.from_noise([0.25, 0.5, 0.25], low=-1)
        >>> T.thresholds(256)[1].tolist()
        [64, 192, 256]
        >>> T.noise([3, 3, 3, 3], [63, 64, 191, 192], keysize=256).tolist()
        [-1, 0, 0, 1]
        """
        K = self.keysize if keysize is None else check_keysize(keysize)
        if K is None:
            raise ParameterError(
                "`keysize` is required: the table has no keysize of its own, got keysize=None."
            )
        if self.key_map is not None and K != self.keysize:
            raise ParameterError(
                f"`keysize` must be the key map's K = {self.keysize}, got keysize={keysize!r}."
            )
        c = _int_array(counts, "counts")
        raw = np.asarray(cell_keys)
        if raw.dtype.kind == "u" and raw.size and int(raw.max()) >= K:
            raise ParameterError(
                f"`cell_keys` must lie in [0, K) = [0, {K}), got max {int(raw.max())}."
            )
        k = _int_array(raw, "cell_keys")
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
                f"`counts` and `cell_keys` must broadcast together, got shapes {c.shape} and "
                f"{k.shape}."
            ) from None
        r = self._row_of(c)
        if self.key_map is not None:
            return self.key_map[r, k].astype(np.int64)
        D, _ = self._band()
        cq = self._band_thresholds(K)
        w = cq.shape[1]
        lo = np.zeros(r.shape, dtype=np.int64)
        hi = np.full(r.shape, w - 1, dtype=np.int64)
        for _ in range(max(1, int(w).bit_length())):  # first t with cq[r, t] > k
            mid = (lo + hi) // 2
            up = cq[r, mid] > k
            hi = np.where(up, mid, hi)
            lo = np.where(up, lo, mid + 1)
        return hi - D

    # -------------------------------------------------------------------------------- builders
    @classmethod
    def from_noise(
        cls,
        pmf: Any,
        *,
        low: int,
        rows: int | None = None,
        keysize: int | None = None,
    ) -> Ptable:
        r"""The ptable of a data-independent noise law, with anchored rows near zero.

        Counts :math:`i \ge -\mathrm{low}` get the noise law shifted to i. A smaller count
        would publish a negative value for the noise pairs :math:`\pm v` with :math:`v > i`;
        their mass :math:`m_v = p(-v) + p(v)` is moved onto the two-point zero-mean law on
        :math:`\{-i, +v\}` (*anchored* rows):

        .. math::

            P(0 \mid i) \mathrel{+}= m_v \frac{v}{v + i}, \qquad
            P(i + v \mid i) \mathrel{+}= m_v \frac{i}{v + i}.

        So every row has zero bias, :math:`P(i \mid i) = p(0)` for i >= 1, no negative output,
        and **zeros stay zeros**: row 0 publishes 0 with probability 1 (every pair goes to
        :math:`v/(v + 0) = 1` at j = 0). This is Proposition 1 of Sadeghi, Asoodeh and Calmon's
        count mechanisms (the two-point laws with :math:`i_1 = -i`).

        A law with negative noise must be symmetric, :math:`p(-v) = p(v)` exactly (an
        asymmetric law has no canonical zero-bias anchoring: the mass at :math:`-u` can be
        balanced against any positive point); a law on non-negative noise needs no anchoring
        and may be asymmetric.

        Parameters
        ----------
        pmf : array_like, shape (m,)
            The noise law on :math:`[\mathrm{low}, \mathrm{low} + m - 1]`, summing to 1 within
            1e-9. Leading and trailing zeros are ignored.
        low : int
            The smallest noise value of ``pmf[0]``.
        rows : int, optional
            I, the last row (default D, the largest :math:`|v|`); at least the largest negative
            noise, so that row I and every count above it get the plain shifted law.
        keysize : int, optional
            The table's default key size.

        Returns
        -------
        Ptable
            With ``above="last"``.

        Examples
        --------
        >>> T = Ptable.from_noise([0.25, 0.5, 0.25], low=-1, rows=2)
        >>> T.probabilities.tolist()
        [[1.0, 0.0, 0.0, 0.0], [0.25, 0.5, 0.25, 0.0], [0.0, 0.25, 0.5, 0.25]]
        >>> T2 = Ptable.from_noise([0.2, 0.2, 0.2, 0.2, 0.2], low=-2)
        >>> T2.probabilities[1].tolist(), float(T2.bias[1])
        ([0.4666666666666667, 0.2, 0.2, 0.13333333333333333, 0.0], 0.0)
        """
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
        n_cols = I_ + hi + 1
        P = np.zeros((I_ + 1, n_cols))
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
        return cls(P, above="last", keysize=keysize)

    @classmethod
    def from_mechanism(
        cls,
        mechanism: Mechanism,
        *,
        above: Above = "last",
        loop_start: int | None = None,
        keysize: int | None = None,
    ) -> Ptable:
        r"""The ptable of a mechanism on a count path.

        The graph must be a path whose nodes have the integer true answers 0..I (in any node
        order), neighbours differing by one, and outputs 0..q−1; row i of the table is the row
        of the node with answer i.

        Examples
        --------
        >>> from rainbowdp.builders import count_path
        >>> M = Mechanism(count_path(1, outputs=range(3)), [[1, 0, 0], [0.25, 0.5, 0.25]])
        >>> Ptable.from_mechanism(M).probabilities.tolist()
        [[1.0, 0.0, 0.0], [0.25, 0.5, 0.25]]
        """
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
            a = _int_array(np.asarray(answers), "G.answers")
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
        return cls(m.probabilities[order], above=above, loop_start=loop_start, keysize=keysize)

    def mechanism(self, *, n_max: int | None = None) -> Mechanism:
        r"""The table as a Mechanism on the count path 0..n (default n = I + 1).

        Outputs are 0..n + D; count c gets row r(c) shifted by c − r(c).

        The path 0..I + 1 is enough for the privacy of every count: an edge (c, c + 1) with
        c > I compares rows r(c) and r(c + 1), shifted by c − r(c). With ``"last"`` both rows
        are I, so the edge is a translate of (I, I + 1). With ``"loop"``, r(c + 1) = r(c) + 1
        when r(c) < I, a translate of the inner edge (r(c), r(c) + 1), and r(c + 1) = s when
        r(c) = I, a translate of (I, I + 1) (whose r(I + 1) = s). Hockey-stick divergences
        are invariant under translating both outputs, so every edge's divergence occurs on the
        path 0..I + 1.

        The rows are dense, (n + 1) × (n + D + 1) floats: :func:`audit` does not need this
        matrix (it verifies the distinct edge pairs only).

        Examples
        --------
        >>> M = Ptable.from_noise([0.25, 0.5, 0.25], low=-1).mechanism()
        >>> M.graph.n_nodes, M.graph.outputs
        (3, (0, 1, 2, 3))
        >>> M.probabilities[2].tolist()
        [0.0, 0.25, 0.5, 0.25]
        """
        from ..builders import count_path
        from ..noise import mechanism_from_rows

        n = self.max_count + 1 if n_max is None else check_int(n_max, "n_max", minimum=1)
        q = n + self.D + 1
        G = count_path(n, outputs=range(q))
        return mechanism_from_rows(G, self._rows(np.arange(n + 1), q))

    def _rows(self, counts: np.ndarray, q: int) -> np.ndarray:
        """The (len(counts), q) laws of the published counts 0..q-1 of ``counts``."""
        p = self.probabilities
        m = p.shape[1]
        r = self._row_of(counts)
        out = np.zeros((counts.size, q))
        cols = np.arange(m)[None, :] + (counts - r)[:, None]
        keep = cols < q
        rr = np.broadcast_to(np.arange(counts.size)[:, None], cols.shape)
        src = p[r]
        if (src[~keep] > 0).any():
            raise ParameterError(f"the outputs 0..{q - 1} do not hold the rows (too few).")
        out[rr[keep], cols[keep]] = src[keep]
        return out

    # -------------------------------------------------------------------------------- display
    def _keysize_text(self) -> str:
        K = self.keysize
        if K is None:
            return "-"
        return f"2^{K.bit_length() - 1}" + (" (key map)" if self.key_map is not None else "")

    def _summary(self) -> list[tuple[str, str]]:
        n, m = self.probabilities.shape
        rule = self.above if self.loop_start is None else f"{self.above}, s = {self.loop_start}"
        var = self.variance
        rows = [
            ("counts with a row", f"0..{n - 1}"),
            ("published counts", f"0..{m - 1}"),
            ("largest |noise| D", str(self.D)),
            ("above-rule", rule),
            ("keysize", self._keysize_text()),
            ("max |bias|", num(float(np.abs(self.bias).max()))),
            ("variance", f"{num(float(var.min()))} .. {num(float(var.max()))}"),
        ]
        source = None if self.metadata is None else self.metadata.get("path")
        if source is not None:
            rows.append(("read from", str(source)))
        return rows

    def __repr__(self) -> str:
        n, m = self.probabilities.shape
        K = "None" if self.keysize is None else self._keysize_text()
        return (
            f"Ptable(I={n - 1}, D={self.D}, J={m - 1}, above={self.above!r}, keysize={K}, "
            f"max_variance={num(float(self.variance.max()))})"
        )

    def __str__(self) -> str:
        n, m = self.probabilities.shape
        s = dict(self._summary())
        lines = [
            f"perturbation table: counts 0..{n - 1} (rows), published 0..{m - 1}, noise in "
            f"[-{self.D}, {self.D}]",
            f"  above-rule {s['above-rule']}; keysize {s['keysize']}",
            f"  max |bias| {s['max |bias|']}, variance {s['variance']}",
            "  (audit(table) for its exact epsilon and delta)",
        ]
        if "read from" in s:
            lines.append(f"  read from {s['read from']}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return html_table("perturbation table", self._summary())

    def to_pandas(self) -> Any:
        """The table in long form, one line per positive entry, as the R package ``ptable``
        lists it: columns ``i`` (count), ``j`` (published), ``v`` (noise j - i), ``p``.

        Examples
        --------
        >>> Ptable([[1.0, 0.0], [0.5, 0.5]]).to_pandas().values.tolist()
        [[0.0, 0.0, 0.0, 1.0], [1.0, 0.0, -1.0, 0.5], [1.0, 1.0, 0.0, 0.5]]
        """
        pd = require_pandas("Ptable")
        i, j = np.nonzero(self.probabilities > 0)
        return pd.DataFrame({"i": i, "j": j, "v": j - i, "p": self.probabilities[i, j]})

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description (probabilities as nested lists).

        Examples
        --------
        >>> Ptable([[1.0, 0.0], [0.5, 0.5]]).to_dict()["D"]
        1
        """
        return {
            "max_count": self.max_count,
            "D": self.D,
            "above": self.above,
            "loop_start": self.loop_start,
            "keysize": self.keysize,
            "probabilities": self.probabilities.tolist(),
            "key_map": None if self.key_map is None else self.key_map.tolist(),
            "bias": self.bias.tolist(),
            "variance": self.variance.tolist(),
            "metadata": None if self.metadata is None else dict(self.metadata),
        }


# ------------------------------------------------------------------------------------ files
def _check_table(value: Any, name: str) -> Ptable:
    """A Ptable, or the Ptable of a Mechanism on a count path."""
    if isinstance(value, Ptable):
        return value
    if isinstance(value, Mechanism):
        return Ptable.from_mechanism(value)
    raise ParameterTypeError(
        f"`{name}` must be a Ptable or a Mechanism on a count path, got {type(value).__name__}: "
        f"{name}={value!r}."
    )


class _Rows:
    """The parsed data lines of a CSV file: column name -> array of strings, and line numbers."""

    def __init__(
        self, path: Path, text: str, required: tuple[str, ...], optional: tuple[str, ...] = ()
    ) -> None:
        self.path = path
        was_enabled = gc.isenabled()
        gc.disable()  # hundreds of thousands of small lists: collection passes cost most
        try:
            self._parse(path, text, required, optional)
        finally:
            if was_enabled:
                gc.enable()

    def _parse(
        self, path: Path, text: str, required: tuple[str, ...], optional: tuple[str, ...]
    ) -> None:
        reader = csv.reader(io.StringIO(text))
        rows: list[list[str]] = []
        lines: list[int] = []
        if '"' in text:  # a quoted field may span lines: ask the reader for the line numbers
            for row in reader:
                rows.append(row)
                lines.append(reader.line_num)
        else:  # one row per line (a blank line gives an empty row)
            rows = list(reader)
            lines = list(range(1, len(rows) + 1))
        keep = [k for k, r in enumerate(rows) if len(r) > 1 or (r and r[0].strip())]
        if not keep:
            raise ParameterError(f"`path` {str(path)!r} is empty: no header line.")
        header = [c.strip().strip('"').lower() for c in rows[keep[0]]]
        self.header_line = lines[keep[0]]
        keep = keep[1:]
        n_fields = len(header)
        for k in keep:
            if len(rows[k]) != n_fields:
                self.fail(
                    lines[k],
                    f"has {len(rows[k])} fields, the header (line {self.header_line}) has "
                    f"{n_fields}",
                )
        missing = [c for c in required if c not in header]
        if missing:
            raise ParameterError(
                f"`path` {str(path)!r}: the header (line {self.header_line}) misses the "
                f"column(s) {', '.join(missing)} (required: {', '.join(required)}; got "
                f"{', '.join(header)})."
            )
        if not keep:
            raise ParameterError(f"`path` {str(path)!r} has a header but no data lines.")
        self.lines = [lines[k] for k in keep]
        table = np.array([rows[k] for k in keep], dtype=np.str_).reshape(len(keep), n_fields)
        wanted = (*required, *(c for c in optional if c in header))
        self.columns = {name: table[:, header.index(name)] for name in wanted}

    def fail(self, line: int, what: str) -> NoReturn:
        raise ParameterError(f"`path` {str(self.path)!r}, line {line}: {what}.")

    def ints(self, name: str, *, minimum: int | None = None) -> np.ndarray:
        try:  # fast path: every cell a plain integer
            out = self.columns[name].astype(np.int64)
        except (ValueError, OverflowError):
            out = self._ints_slow(name)
        if minimum is not None and out.size and int(out.min()) < minimum:
            k = int(np.argmax(out < minimum))
            self.fail(
                self.lines[k],
                f"column `{name}` must be >= {minimum}, got {self.columns[name][k].strip()!r}",
            )
        return out

    def _ints_slow(self, name: str) -> np.ndarray:
        out = np.empty(len(self.lines), dtype=np.int64)
        for k, text in enumerate(self.columns[name]):
            try:
                x = int(text)
            except ValueError:
                try:
                    f = float(text)
                except ValueError:
                    f = math.nan
                if not f.is_integer():
                    self.fail(
                        self.lines[k],
                        f"column `{name}` must be an integer, got {text.strip()!r}",
                    )
                x = int(f)
            if abs(x) >= 2**62:
                self.fail(self.lines[k], f"column `{name}` is out of range, got {text!r}")
            out[k] = x
        return out

    def floats(self, name: str) -> np.ndarray:
        try:  # fast path (float parsing is exact: the text of a repr reads back bit for bit)
            out = self.columns[name].astype(np.float64)
        except (ValueError, OverflowError):
            out = None
        if out is not None and bool(np.all(np.isfinite(out))):
            return out
        out = np.empty(len(self.lines))
        for k, text in enumerate(self.columns[name]):
            try:
                x = float(text)
            except ValueError:
                self.fail(self.lines[k], f"column `{name}` must be a number, got {text.strip()!r}")
            if not math.isfinite(x):
                self.fail(self.lines[k], f"column `{name}` must be finite, got {text.strip()!r}")
            out[k] = x
        return out

    def first_duplicate(self, a: np.ndarray, b: np.ndarray, what: str) -> None:
        """Fail on the first repeated pair (a, b), naming both lines."""
        order = np.lexsort((np.arange(a.size), b, a))
        same = (a[order][1:] == a[order][:-1]) & (b[order][1:] == b[order][:-1])
        if same.any():
            k = int(np.argmax(same))
            first, second = int(order[k]), int(order[k + 1])
            self.fail(
                self.lines[second],
                f"duplicate {what} ({int(a[first])}, {int(b[first])}), first on line "
                f"{self.lines[first]}",
            )


_PTABLE_COLUMNS = ("i", "j", "p", "v", "p_int_lb", "p_int_ub", "type")
#: The optional last column of the ptable layout: the table's key size on every line.
_KEYSIZE_COLUMN = "keysize"
_ONS_COLUMNS = ("pcv", "ckey", "pvalue")


def _detect_layout(path: Path, text: str) -> str:
    for row in csv.reader(io.StringIO(text)):
        if any(c.strip() for c in row):
            names = {c.strip().strip('"').lower() for c in row}
            if {"pcv", "ckey", "pvalue"} <= names:
                return "ons"
            if {"i", "j", "p"} <= names:
                return "ptable"
            raise ParameterError(
                f"`path` {str(path)!r}: cannot tell the layout from the header "
                f"{', '.join(sorted(names))} (ptable: {', '.join(_PTABLE_COLUMNS)}; ons: "
                f"{', '.join(_ONS_COLUMNS)}); pass `layout`."
            )
    raise ParameterError(f"`path` {str(path)!r} is empty: no header line.")


def _file_keysize(rows: _Rows) -> int | None:
    """The key size of a ptable-layout file: its ``keysize`` column (one value), or None."""
    if _KEYSIZE_COLUMN not in rows.columns:
        return None
    ks = rows.ints(_KEYSIZE_COLUMN, minimum=1)
    odd = ks != ks[0]
    if odd.any():
        k = int(np.argmax(odd))
        rows.fail(
            rows.lines[k],
            f"column `keysize` must hold one value, got {int(ks[k])} after {int(ks[0])} "
            f"(line {rows.lines[0]})",
        )
    try:
        return check_keysize(int(ks[0]), "keysize")
    except ParameterError:
        rows.fail(rows.lines[0], f"column `keysize` must be a power of two, got {int(ks[0])}")


def _read_ptable_layout(rows: _Rows) -> np.ndarray:
    i = rows.ints("i", minimum=0)
    j = rows.ints("j", minimum=0)
    v = rows.ints("v")
    p = rows.floats("p")
    lb = rows.floats("p_int_lb")
    ub = rows.floats("p_int_ub")
    kinds = np.char.lower(np.char.strip(np.char.strip(rows.columns["type"]), '"'))
    bad = (p < 0) | (v != j - i) | (kinds != "all")
    if bad.any():
        k = int(np.argmax(bad))
        if p[k] < 0:
            rows.fail(rows.lines[k], f"negative probability p={rows.columns['p'][k].strip()!r}")
        if v[k] != j[k] - i[k]:
            rows.fail(rows.lines[k], f"v={v[k]} is not j - i = {j[k] - i[k]}")
        rows.fail(
            rows.lines[k],
            f"type {rows.columns['type'][k].strip()!r} is not supported (only 'all': one table "
            "for every count)",
        )
    if int(i.max()) >= MAX_ROWS:
        k = int(np.argmax(i))
        rows.fail(rows.lines[k], f"row i={int(i[k])} exceeds the limit of {MAX_ROWS} rows")
    if (int(i.max()) + 1) * (int(j.max()) + 1) > MAX_CELLS:
        k = int(np.argmax(j))
        rows.fail(
            rows.lines[k],
            f"j={int(j[k])} makes the table larger than {MAX_CELLS} entries ((I + 1)(J + 1))",
        )
    rows.first_duplicate(i, j, "(i, j)")
    present = np.zeros(int(i.max()) + 1, dtype=bool)
    present[i] = True
    if not present.all():
        gap = int(np.argmin(present))
        raise ParameterError(
            f"`path` {str(rows.path)!r}: row i={gap} is missing (rows must be i = 0..{i.max()} "
            "without gaps)."
        )
    P = np.zeros((present.size, int(j.max()) + 1))
    P[i, j] = p
    line = np.asarray(rows.lines)
    order = np.lexsort((j, i))
    i_s, p_s, lb_s, ub_s, ln = i[order], p[order], lb[order], ub[order], line[order]
    start = np.r_[True, i_s[1:] != i_s[:-1]]
    end = np.r_[i_s[1:] != i_s[:-1], True]
    prev_ub = np.r_[0.0, ub_s[:-1]]
    prev_ub[start] = 0.0
    problems = [
        (np.abs(lb_s - prev_ub) > SUM_TOL, "p_int_lb={} is not the previous p_int_ub (or 0)", lb_s),
        (np.abs(ub_s - lb_s - p_s) > SUM_TOL, "p_int_ub - p_int_lb is not p={}", p_s),
        (end & (np.abs(ub_s - 1.0) > SUM_TOL), "the row's last p_int_ub={} is not 1", ub_s),
    ]
    sums = P.sum(axis=1)
    off = np.abs(sums - 1.0) > SUM_TOL
    if off.any():
        r = int(np.argmax(off))
        lines = line[i == r]
        raise ParameterError(
            f"`path` {str(rows.path)!r}: row i={r} (lines {lines.min()}-{lines.max()}) sums to "
            f"{float(sums[r])!r}, not 1 (within {SUM_TOL:g})."
        )
    for bad, what, values in problems:
        if bad.any():
            k = int(np.argmax(bad))
            rows.fail(int(ln[k]), f"row i={int(i_s[k])}: " + what.format(repr(float(values[k]))))
    return P


def _read_ons_layout(rows: _Rows, keysize: int | None) -> tuple[np.ndarray, np.ndarray, int]:
    pcv = rows.ints("pcv", minimum=0)
    ckey = rows.ints("ckey", minimum=0)
    pvalue = rows.ints("pvalue")
    neg = pcv + pvalue < 0
    if neg.any():
        k = int(np.argmax(neg))
        rows.fail(
            rows.lines[k],
            f"pcv {int(pcv[k])} with pvalue {int(pvalue[k])} publishes the negative count "
            f"{int(pcv[k] + pvalue[k])}",
        )
    if int(pcv.max()) >= MAX_ROWS:
        k = int(np.argmax(pcv))
        rows.fail(rows.lines[k], f"pcv {int(pcv[k])} exceeds the limit of {MAX_ROWS} rows")
    far = np.abs(pvalue) > 2 * MAX_ROWS
    if far.any():
        k = int(np.argmax(far))
        rows.fail(rows.lines[k], f"pvalue {int(pvalue[k])} exceeds the limit of {2 * MAX_ROWS}")
    width = int(pcv.max()) + int(pvalue.max()) + 1
    if (int(pcv.max()) + 1) * width > MAX_CELLS:
        raise ParameterError(
            f"`path` {str(rows.path)!r}: the table would have more than {MAX_CELLS} entries."
        )
    rows.first_duplicate(pcv, ckey, "(pcv, ckey)")
    top = int(pcv.max())
    first = int(pcv.min())
    if first > 1:
        raise ParameterError(
            f"`path` {str(rows.path)!r}: pcv must start at 0 or 1, got smallest pcv {first}."
        )
    n_keys = np.bincount(pcv, minlength=top + 1)
    K = int(ckey.max()) + 1
    short = n_keys[first:] != K
    if short.any():
        r = first + int(np.argmax(short))
        if n_keys[r] == 0:
            raise ParameterError(
                f"`path` {str(rows.path)!r}: pcv {r} is missing (pcv must run {first}..{top} "
                "without gaps)."
            )
        have = np.zeros(K, dtype=bool)
        have[ckey[pcv == r]] = True
        lines = np.asarray(rows.lines)[pcv == r]
        raise ParameterError(
            f"`path` {str(rows.path)!r}: pcv {r} (lines {lines.min()}-{lines.max()}) has "
            f"{int(n_keys[r])} ckeys, missing ckey {int(np.argmin(have))}; every pcv needs the "
            f"ckeys 0..K-1, K = {K}."
        )
    try:
        check_keysize(K, "K")
    except ParameterError:
        raise ParameterError(
            f"`path` {str(rows.path)!r}: the number of ckeys per pcv, K = {K}, must be a power "
            "of two."
        ) from None
    if keysize is not None and check_keysize(keysize) != K:
        raise ParameterError(
            f"`keysize` must be the file's K = {K} (ckeys per pcv), got keysize={keysize!r}."
        )
    key_map = np.zeros((top + 1, K), dtype=np.int64)
    key_map[pcv, ckey] = pvalue
    j = key_map + np.arange(top + 1)[:, None]
    return _key_counts(j, int(j.max()) + 1) / K, key_map, K


def read_ptable(
    path: str | os.PathLike,
    *,
    layout: str = "auto",
    keysize: int | None = None,
    above: Above | None = None,
    loop_start: int | None = None,
) -> Ptable:
    r"""Read a ptable CSV file in the R ``ptable`` or the ONS layout.

    ``"ptable"`` (the R package ``ptable``): columns ``i, j, p, v, p_int_lb, p_int_ub, type``,
    one line per (i, j) (lines with p = 0 may be left out); rows i = 0..I without gaps, each
    summing to 1 within 1e-9, with ``v = j - i``, intervals that tile [0, 1] in increasing j
    (``p_int_ub - p_int_lb = p``) and type ``all``. Default above-rule ``"last"``. An optional
    last column ``keysize`` (one value on every line, a power of two, as :func:`write_ptable`
    writes it) is the table's key size.

    ``"ons"``: columns ``pcv, ckey, pvalue``, one line per pcv and cell key: the noise
    ``pvalue`` of count ``pcv`` for key ``ckey``. Every pcv has the keys 0..K−1, K a power of
    two (the table's ``keysize``); pcv runs 0..P or 1..P (then count 0 publishes 0). The table
    keeps the key map; its probabilities are the share of keys of each noise. Default
    above-rule ``"loop"`` with s = 501 when P = 750 (the ONS tables), ``"last"`` otherwise.

    Parameters
    ----------
    path : str or os.PathLike
    layout : {"auto", "ptable", "ons"}, default "auto"
        ``"auto"`` tells the layout from the header.
    keysize : int, optional
        The table's key size; it must equal the file's when the file has one (the ONS
        layout's K, the ptable layout's column ``keysize``).
    above, loop_start : optional
        Override the above-rule (``loop_start`` defaults to 501 for ``above="loop"`` and
        P = 750).

    Returns
    -------
    Ptable
        ``metadata`` holds the path and the layout.

    Raises
    ------
    ParameterError
        A malformed file; the message names the line or the row.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> T = Ptable.from_noise([0.25, 0.5, 0.25], low=-1)
    >>> _ = write_ptable(T, d / "t.csv")
    >>> print((d / "t.csv").read_text().splitlines()[2])
    1,0,0.25,-1,0.0,0.25,all
    >>> read_ptable(d / "t.csv") == T
    True
    """
    from ..io import check_path, read_bytes

    p = check_path(path)
    if not isinstance(layout, str) or layout not in ("auto", *LAYOUTS):
        raise ParameterError(
            f"`layout` must be one of {('auto', *LAYOUTS)}, got layout={layout!r}."
        )
    if keysize is not None:
        check_keysize(keysize)
    if above is not None:
        _check_above(above)
    try:
        text = read_bytes(p, "ptable file").decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ParameterError(f"`path` {str(p)!r} is not UTF-8 text: {exc}.") from None
    kind = _detect_layout(p, text) if layout == "auto" else layout
    key_map = None
    if kind == "ptable":
        rows = _Rows(p, text, _PTABLE_COLUMNS, (_KEYSIZE_COLUMN,))
        P = _read_ptable_layout(rows)
        rule = above or "last"
        K = _file_keysize(rows)
        if K is None:
            K = keysize
        elif keysize is not None and check_keysize(keysize) != K:
            raise ParameterError(
                f"`keysize` must be the file's key size {K} (its column `keysize`), got "
                f"keysize={keysize!r}."
            )
    else:
        P, key_map, K = _read_ons_layout(_Rows(p, text, _ONS_COLUMNS), keysize)
        top = P.shape[0] - 1
        rule = above or ("loop" if top == ONS_LAST_PCV else "last")
    s = loop_start
    if rule == "loop" and s is None and P.shape[0] - 1 == ONS_LAST_PCV:
        s = ONS_LOOP_START
    return Ptable(
        P,
        above=rule,
        loop_start=s,
        key_map=key_map,
        keysize=K,
        metadata={"path": str(p), "layout": kind},
    )


def _fmt(x: float) -> str:
    """The shortest text that reads back as exactly ``x``."""
    return repr(float(x))


def write_ptable(
    table: Ptable | Mechanism,
    path: str | os.PathLike,
    *,
    layout: str = "ptable",
    keysize: int | None = None,
) -> Path:
    r"""Write a ptable (or a Mechanism on a count path) as CSV, atomically.

    ``"ptable"``: one line ``i,j,p,v,p_int_lb,p_int_ub,all`` per (i, j) with p > 0, floats
    written with ``repr`` (read back bit for bit). Without ``keysize`` the probabilities are the
    table's and the intervals their running sums (the last one exactly 1); with ``keysize`` the
    quantised table :math:`p^Q` (:meth:`Ptable.quantised`) and its intervals
    :math:`c^Q(j)/K`, exactly what the keys apply. A last column ``keysize`` holds K
    (``keysize``, else the table's own; no column when neither is set), so :func:`read_ptable`
    gets the key size back. This layout has no above-rule: a ``"loop"`` table is refused.

    ``"ons"``: one line ``pcv,ckey,pvalue`` per count 0..I and key 0..K−1 (K = ``keysize`` or
    the table's own, at most 2^20): the table's key map, or the quantised intervals. The reader
    restores ``"loop"`` with s = 501 for I = 750 and ``"last"`` otherwise; another
    combination is refused.

    Returns
    -------
    pathlib.Path
        The path written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> T = Ptable.from_noise([0.25, 0.5, 0.25], low=-1)
    >>> _ = write_ptable(T, d / "o.csv", layout="ons", keysize=4)
    >>> (d / "o.csv").read_text().splitlines()[5:9]
    ['1,0,-1', '1,1,0', '1,2,0', '1,3,1']
    """
    from ..io import check_path, write_atomic

    T = _check_table(table, "table")
    p = check_path(path)
    if not isinstance(layout, str) or layout not in LAYOUTS:
        raise ParameterError(f"`layout` must be one of {LAYOUTS}, got layout={layout!r}.")
    K = None if keysize is None else check_keysize(keysize)
    if layout == "ptable":
        if T.above != "last":
            raise ParameterError(
                f"the ptable layout has no above-rule (it reads back as 'last'), got a table "
                f"with above={T.above!r}; write layout='ons' or keep the rule in code."
            )
        if K is None:
            P = T.probabilities
            ub = np.minimum(np.cumsum(P, axis=1), 1.0)
        else:
            cq = T.thresholds(K)
            P = np.diff(cq, axis=1, prepend=0).astype(np.float64) / K
            ub = cq / K
        K = K if K is not None else T.keysize
        tail = "" if K is None else f",{K}"
        out = io.StringIO()
        out.write(",".join(_PTABLE_COLUMNS) + ("" if K is None else f",{_KEYSIZE_COLUMN}") + "\n")
        for i in range(P.shape[0]):
            js = np.flatnonzero(P[i] > 0)
            hi = ub[i, js].copy()
            hi[-1] = 1.0
            lo = np.r_[0.0, hi[:-1]]
            for j, pj, a, b in zip(
                js.tolist(), P[i, js].tolist(), lo.tolist(), hi.tolist(), strict=True
            ):
                out.write(f"{i},{j},{_fmt(pj)},{j - i},{_fmt(a)},{_fmt(b)},all{tail}\n")
        text = out.getvalue()
    else:
        K = K if K is not None else T.keysize
        if K is None:
            raise ParameterError(
                "`keysize` is required for the ONS layout (the table has none), got None."
            )
        if K > MAX_ONS_KEYSIZE:
            raise ParameterError(
                f"`keysize` must be at most {MAX_ONS_KEYSIZE} for the ONS layout (one line per "
                f"key), got keysize={K}."
            )
        top = T.max_count
        ons_rule = ("loop", ONS_LOOP_START) if top == ONS_LAST_PCV else ("last", None)
        if (T.above, T.loop_start) != ons_rule:
            raise ParameterError(
                f"the ONS layout reads back with above={ons_rule[0]!r}, "
                f"loop_start={ons_rule[1]!r} for I={top}, got a table with above={T.above!r}, "
                f"loop_start={T.loop_start!r}."
            )
        if T.key_map is not None and T.keysize == K:
            km = T.key_map
        else:
            cq = T.thresholds(K)
            widths = np.diff(cq, axis=1, prepend=0)
            v = T.rows_noise
            km = np.repeat(v.ravel(), widths.ravel()).reshape(top + 1, K)
        pcv = np.repeat(np.arange(top + 1), K).astype(np.str_)
        ckey = np.tile(np.arange(K), top + 1).astype(np.str_)
        pv = km.ravel().astype(np.str_)
        body = np.char.add(np.char.add(np.char.add(np.char.add(pcv, ","), ckey), ","), pv)
        text = ",".join(_ONS_COLUMNS) + "\n" + "\n".join(body.tolist()) + "\n"
    write_atomic(p, text)
    return p


# ------------------------------------------------------------------------------------ audit
#: Defaults of :func:`audit` when neither ε nor δ values are given.
DEFAULT_DELTAS = (0.0, 1e-6)
DEFAULT_EPSILONS = (1.0,)


@dataclass(frozen=True)
class AuditReport:
    r"""The exact privacy and the utility of a ptable (:func:`audit`).

    Privacy numbers are the verifier's: ε rounded up and proved, δ the smallest float at least
    the exact value. ``*_independent`` are over the edges (c, c + 1) with c >= D only (None if
    I < D); the worst edges are ``(c, c + 1)`` pairs of counts, located in floats (an edge
    attaining the maximum up to round-off; the first such edge when several tie).

    Attributes
    ----------
    max_count, D, above, loop_start : the audited table's
    keysize : int or None
        K when the quantised table was audited.
    deltas, epsilon_at_delta, worst_edge_at_delta : tuples
        Exact ε at each δ over the whole count path, and where it is attained.
    epsilons, delta_at_epsilon, worst_edge_at_epsilon : tuples
        Exact δ at each ε, and where.
    epsilon_at_delta_independent, delta_at_epsilon_independent : tuples or None
    bias, variance : tuples
        Per row i = 0..I.
    max_abs_bias, max_variance : float
    negative_outputs : bool
        Whether some count can be published below 0 (never, for a valid table).
    zeros_stay_zeros : bool
        Whether count 0 is published as 0 with probability 1.
    lost_support : int or None
        With ``keysize``: the number of entries (i, j) with p > 0 but :math:`p^Q = 0`.
    lost_rows : tuple or None
        The rows i holding them.
    seconds : float
        Time taken.
    """

    max_count: int
    D: int
    above: str
    loop_start: int | None
    keysize: int | None
    deltas: tuple[float, ...]
    epsilon_at_delta: tuple[float, ...]
    worst_edge_at_delta: tuple[tuple[int, int], ...]
    epsilons: tuple[float, ...]
    delta_at_epsilon: tuple[float, ...]
    worst_edge_at_epsilon: tuple[tuple[int, int], ...]
    epsilon_at_delta_independent: tuple[float, ...] | None
    delta_at_epsilon_independent: tuple[float, ...] | None
    bias: tuple[float, ...]
    variance: tuple[float, ...]
    max_abs_bias: float
    max_variance: float
    negative_outputs: bool
    zeros_stay_zeros: bool
    lost_support: int | None
    lost_rows: tuple[int, ...] | None
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (tuples as lists; infinite ε as ``"inf"``)."""

        def conv(x: Any) -> Any:
            if isinstance(x, tuple):
                return [conv(y) for y in x]
            if isinstance(x, float) and not math.isfinite(x):
                return "inf" if x > 0 else "-inf"
            return x

        return {k: conv(getattr(self, k)) for k in self.__dataclass_fields__}

    def _lines(self) -> list[dict[str, Any]]:
        """One dict per audited δ, then per audited ε (the rows of :meth:`to_pandas`)."""
        out = []
        ind_d, ind_e = self.delta_at_epsilon_independent, self.epsilon_at_delta_independent
        for k, (d, e) in enumerate(zip(self.deltas, self.epsilon_at_delta, strict=True)):
            out.append(
                {
                    "given": "delta",
                    "value": d,
                    "result": "epsilon",
                    "all_counts": e,
                    "worst_edge": self.worst_edge_at_delta[k],
                    "counts_from_D": None if ind_e is None else ind_e[k],
                }
            )
        for k, (e, d) in enumerate(zip(self.epsilons, self.delta_at_epsilon, strict=True)):
            out.append(
                {
                    "given": "epsilon",
                    "value": e,
                    "result": "delta",
                    "all_counts": d,
                    "worst_edge": self.worst_edge_at_epsilon[k],
                    "counts_from_D": None if ind_d is None else ind_d[k],
                }
            )
        return out

    def __repr__(self) -> str:
        parts = [f"I={self.max_count}", f"D={self.D}"]
        if self.keysize is not None:
            parts.append(f"keysize=2^{self.keysize.bit_length() - 1}")
        for line in self._lines():
            ind = line["counts_from_D"]
            tail = "" if ind is None else f" (counts>=D: {up(ind)})"
            parts.append(
                f"{line['result']}({line['given']}={num(line['value'])})="
                f"{up(line['all_counts'])}{tail}"
            )
        return f"AuditReport({', '.join(parts)})"

    def __str__(self) -> str:
        rule = self.above if self.loop_start is None else f"{self.above}, s={self.loop_start}"
        head = f"ptable audit: I={self.max_count}, D={self.D}, above-rule {rule}"
        if self.keysize is not None:
            head += f", quantised with KEYSIZE={self.keysize} (lost support: {self.lost_support})"
        lines = [head]
        for line in self._lines():
            ind = line["counts_from_D"]
            tail = "" if ind is None else f"; counts >= D: {line['result']} = {up(ind, 6)}"
            lines.append(
                f"  {line['given']} = {num(line['value'], 6)}: {line['result']} = "
                f"{up(line['all_counts'], 6)} (worst edge {line['worst_edge']}){tail}"
            )
        lines.append(
            f"  max |bias| = {self.max_abs_bias:.3g}, max variance = {self.max_variance:.6g}, "
            f"zeros stay zeros: {self.zeros_stay_zeros}, negative outputs: "
            f"{self.negative_outputs}"
        )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = [("counts with a row", f"0..{self.max_count}"), ("D", str(self.D))]
        if self.keysize is not None:
            rows.append(("keysize", f"2^{self.keysize.bit_length() - 1}"))
            rows.append(("entries that lost support", str(self.lost_support)))
        for line in self._lines():
            ind = line["counts_from_D"]
            rows.append(
                (
                    f"{line['result']} at {line['given']} = {num(line['value'], 6)}",
                    f"{up(line['all_counts'], 6)} (counts >= D: {up(ind, 6)}; worst edge "
                    f"{line['worst_edge']})",
                )
            )
        rows.append(
            ("max |bias|, max variance", f"{num(self.max_abs_bias)}, {num(self.max_variance)}")
        )
        return html_table("ptable audit", rows)

    def to_pandas(self) -> Any:
        """The audited numbers as a DataFrame: one row per audited δ (its ε), then per audited ε
        (its δ); columns ``given``, ``value``, ``result``, ``all_counts`` (over every count),
        ``worst_edge`` and ``counts_from_D`` (over the counts >= D; None if I < D)."""
        pd = require_pandas("AuditReport")
        return pd.DataFrame(self._lines())


def _edge_pairs(T: Ptable) -> tuple[np.ndarray, np.ndarray]:
    r"""The laws of counts c and c + 1 of every edge c = 0..I, in a window of 2D + 2 outputs.

    Column t is the published count c − D + t; both rows are zero outside the window (count c
    publishes within c ± D, count c + 1 within c + 1 ± D). Returns (A, B), each (I + 1, 2D + 2).
    """
    law = T.noise_laws
    n = law.shape[0]
    c = np.arange(n)
    zero = np.zeros((n, 1))
    A = np.hstack([law[T._row_of(c)], zero])
    B = np.hstack([zero, law[T._row_of(c + 1)]])
    return A, B


def _pairs_mechanism(A: np.ndarray, B: np.ndarray) -> Mechanism:
    """One Mechanism on disjoint edges (2u, 2u + 1) with the rows A[u], B[u]."""
    from ..graph import RainbowGraph
    from ..noise import mechanism_from_rows

    u, w = A.shape
    G = RainbowGraph.from_edges(
        np.column_stack([np.arange(0, 2 * u, 2), np.arange(1, 2 * u, 2)]),
        outputs=range(w),
        rainbow_table=np.arange(w)[None, :],
        rainbow_ids=np.zeros(2 * u, dtype=np.intp),
    )
    rows = np.empty((2 * u, w))
    rows[0::2], rows[1::2] = A, B
    return mechanism_from_rows(G, rows)


def _worst_at_epsilon(A: np.ndarray, B: np.ndarray, eps: float) -> int:
    """Index of a pair with the largest float hockey-stick divergence at ε (a locator)."""
    from .._verify.kernels import directed_divergences, scaled_exp

    m, k = scaled_exp(eps)
    p = np.vstack([A, B])
    u = A.shape[0]
    edges = np.column_stack([np.arange(u), np.arange(u, 2 * u)])
    fwd, bwd = directed_divergences(p, edges, m, k)
    return int(np.argmax(np.maximum(fwd, bwd)))


def _worst_at_delta(A: np.ndarray, B: np.ndarray, delta: float) -> int:
    """Index of a pair with the largest float ε estimate at δ (a locator)."""
    from .._verify.epsilon import pair_log_epsilon

    fwd, _ = pair_log_epsilon(A, B, delta)
    bwd, _ = pair_log_epsilon(B, A, delta)
    return int(np.argmax(np.maximum(fwd, bwd)))


def _values(value: Any, name: str, check: Any) -> tuple[float, ...]:
    if isinstance(value, str | bytes):
        raise ParameterTypeError(f"`{name}` must be a sequence of numbers, got {name}={value!r}.")
    arr = np.atleast_1d(real_array(value, name))
    if arr.ndim != 1:
        raise ParameterError(f"`{name}` must be one-dimensional, got shape {arr.shape}.")
    return tuple(check(float(x), name) for x in arr)


def audit(
    table: Ptable | Mechanism | str | os.PathLike,
    *,
    epsilons: Any = None,
    deltas: Any = None,
    epsilon: float | None = None,
    keysize: int | None = None,
) -> AuditReport:
    r"""The exact (ε, δ)-DP of a ptable on the count path, with its bias and variance.

    The table is the mechanism of :meth:`Ptable.mechanism` on the counts 0..I + 1, which covers
    every edge (c, c + 1) of the infinite count path up to translation (see there). Each edge's
    pair of laws is cut to the window of 2D + 2 published counts that holds both; equal pairs
    (the translates in the data-independent part) are kept once, and the distinct pairs form
    one Mechanism on disjoint edges, verified with :func:`rainbowdp.privacy_profile` (δ at
    each ε) and :func:`rainbowdp.epsilon_for_delta` (ε at each δ). Dropping outputs where both
    laws are zero and relabelling the others leaves every hockey-stick divergence unchanged,
    so these are the verifier's numbers for the whole path, rounded up.

    Parameters
    ----------
    table : Ptable, Mechanism on a count path, or path of a ptable file
    epsilons : array_like of float, optional
        ε values at which δ is computed.
    deltas : array_like of float, optional
        δ values in [0, 1] at which ε is computed. When neither ``epsilons``, ``epsilon`` nor
        ``deltas`` is given: δ in (0, 1e-6) and ε = 1.
    epsilon : float, optional
        One ε (instead of ``epsilons``).
    keysize : int, optional
        Audit the quantised table :math:`p^Q` (:meth:`Ptable.quantised`), the mechanism the
        cell keys actually apply, and report the lost support. Default: the table's own
        ``keysize`` (None: the table as given).

    Returns
    -------
    AuditReport

    References
    ----------
    Sadeghi & Chien, Sections 3–4 (the ptable as a mechanism; the quantised PMF (4.5)).

    Examples
    --------
    >>> T = Ptable.from_noise([0.25, 0.5, 0.25], low=-1, rows=3)
    >>> r = audit(T, epsilons=[1.0], deltas=[0.75])
    >>> r.worst_edge_at_epsilon, r.delta_at_epsilon, r.delta_at_epsilon_independent
    (((0, 1),), (0.75,), (0.25,))
    >>> r.epsilon_at_delta     # row 1 puts 1/4 on each side of count 1, row 0 none
    (0.0,)
    >>> r.zeros_stay_zeros, r.max_abs_bias
    (True, 0.0)
    """
    start = time.perf_counter()
    if isinstance(table, str | os.PathLike):
        table = read_ptable(table)
    T = _check_table(table, "table")
    if epsilon is not None and epsilons is not None:
        raise ParameterError(
            f"give `epsilon` or `epsilons`, not both, got epsilon={epsilon!r}, "
            f"epsilons={epsilons!r}."
        )
    if epsilon is not None:
        epsilons = [check_epsilon(epsilon)]
    if epsilons is None and deltas is None:
        eps_v, dlt_v = DEFAULT_EPSILONS, DEFAULT_DELTAS
    else:
        eps_v = () if epsilons is None else _values(epsilons, "epsilons", check_epsilon)
        dlt_v = () if deltas is None else _values(deltas, "deltas", check_delta)
    K = T.keysize if keysize is None else check_keysize(keysize)
    lost = lost_rows = None
    if K is not None:
        Q = T.quantised(K)
        p0, pq = T.probabilities, Q.probabilities
        width = max(p0.shape[1], pq.shape[1])
        a = np.pad(p0, ((0, 0), (0, width - p0.shape[1])))
        b = np.pad(pq, ((0, 0), (0, width - pq.shape[1])))
        gone = (a > 0) & (b == 0)
        lost = int(gone.sum())
        lost_rows = tuple(int(i) for i in np.flatnonzero(gone.any(axis=1)))
        T = Q
    from ..privacy import epsilon_for_delta, privacy_profile

    A, B = _edge_pairs(T)
    uniq, first, inverse = np.unique(
        np.hstack([A, B]), axis=0, return_index=True, return_inverse=True
    )
    inverse = inverse.ravel()
    w = A.shape[1]
    UA, UB = uniq[:, :w], uniq[:, w:]
    M = _pairs_mechanism(UA, UB)
    # the first edge c of each distinct pair (np.unique sorts the pairs, not the edges)
    first_edge = np.full(uniq.shape[0], A.shape[0], dtype=np.int64)
    np.minimum.at(first_edge, inverse, np.arange(A.shape[0]))
    del first

    def edge(u: int) -> tuple[int, int]:
        c = int(first_edge[u])
        return (c, c + 1)

    e_at_d = tuple(float(x) for x in epsilon_for_delta(M, np.asarray(dlt_v))) if dlt_v else ()
    d_at_e = tuple(float(x) for x in privacy_profile(M, np.asarray(eps_v))) if eps_v else ()
    worst_d = tuple(edge(_worst_at_delta(UA, UB, d)) for d in dlt_v)
    worst_e = tuple(edge(_worst_at_epsilon(UA, UB, e)) for e in eps_v)
    D, top = T.D, T.max_count
    e_ind = d_ind = None
    if top >= D:
        ids = np.unique(inverse[D:])
        Mi = _pairs_mechanism(UA[ids], UB[ids])
        e_ind = tuple(float(x) for x in epsilon_for_delta(Mi, np.asarray(dlt_v))) if dlt_v else ()
        d_ind = tuple(float(x) for x in privacy_profile(Mi, np.asarray(eps_v))) if eps_v else ()
    bias, var = T.bias, T.variance
    counts = np.arange(top + 2)
    rows_c = T._row_of(counts)
    lowest = np.argmax(T.probabilities > 0, axis=1)  # smallest published count of each row
    negative = bool(np.any(counts - rows_c + lowest[rows_c] < 0))
    return AuditReport(
        max_count=top,
        D=D,
        above=T.above,
        loop_start=T.loop_start,
        keysize=K,
        deltas=dlt_v,
        epsilon_at_delta=e_at_d,
        worst_edge_at_delta=worst_d,
        epsilons=eps_v,
        delta_at_epsilon=d_at_e,
        worst_edge_at_epsilon=worst_e,
        epsilon_at_delta_independent=e_ind,
        delta_at_epsilon_independent=d_ind,
        bias=tuple(bias.tolist()),
        variance=tuple(var.tolist()),
        max_abs_bias=float(np.abs(bias).max()),
        max_variance=float(var.max()),
        negative_outputs=negative,
        zeros_stay_zeros=not bool(T.probabilities[0, 1:].any()),
        lost_support=lost,
        lost_rows=lost_rows,
        seconds=time.perf_counter() - start,
    )
