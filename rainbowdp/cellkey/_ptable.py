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

from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

import numpy as np

from .._validation import check_int, real_array
from ..exceptions import ParameterError, ParameterTypeError
from ..mechanism import Mechanism
from ._display import html_table, num, require_pandas
from ._layout_r import piece_key_counts, piece_noise, stored_pieces
from ._ptable_ops import (
    ABOVE_RULES,
    KEY_TYPES,
    LAYOUTS,
    MAX_ROWS,
    Above,
    KeyType,
    anchored_rows,
    band_thresholds,
    check_above,
    check_key_map,
    check_key_type,
    check_loop_start,
    check_table_keysize,
    count_path_rows,
    counts_and_keys,
    grid_type,
    int_array,
    keysize_text,
    lookup_noise,
    power_of_ten,
    shifted_rows,
    summary_rows,
    summary_text,
    trim_columns,
    validate_rows,
)
from ._quantise import check_key_grid

__all__ = ["ABOVE_RULES", "KEY_TYPES", "LAYOUTS", "Ptable", "as_ptable"]


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
        K, the number of keys of the grid the table is applied on: the default key size of
        :meth:`noise` (and of :func:`audit` and the ONS layout). A power of two for integer
        keys, :math:`10^d` for decimal keys with d digits. With ``key_map`` it must equal
        ``key_map.shape[1]`` (the default).
    key_type : {"integer", "decimal"}, default "integer"
        What the keys are. ``"integer"``: cell keys 0..K−1 (the ABS and ONS keys, K a power of
        two; :func:`record_keys`). ``"decimal"``: cell keys :math:`k / K` in [0, 1) with
        :math:`K = 10^d` (the R package ``cellKey`` and Tau-Argus: record keys with d digits,
        the cell key their sum mod 1, ``ck_generate_rkeys(nr_digits = 8)`` by default). Both
        grids apply the same quantised table :math:`\lceil c K \rceil`
        (:func:`quantised_cdf`); a decimal key :math:`k / K` is looked up as the integer k.
        Files record it (:func:`read_ptable` sets it), and :func:`audit` audits the table on
        its own grid by default.
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
    key_type: KeyType = "integer"
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
        validate_rows(p, "probabilities")
        p = np.ascontiguousarray(trim_columns(p))
        p.setflags(write=False)
        n_rows = p.shape[0]
        above = check_above(self.above)
        s = check_loop_start(above, self.loop_start, n_rows)
        key_type = check_key_type(self.key_type)
        K = None if self.keysize is None else check_table_keysize(self.keysize, key_type)
        km = self.key_map
        if km is not None:
            km, K = check_key_map(km, p, K, self.keysize)
        if self.metadata is not None and not isinstance(self.metadata, Mapping):
            raise ParameterTypeError(
                f"`metadata` must be a mapping, got metadata={self.metadata!r}."
            )
        object.__setattr__(self, "probabilities", p)
        object.__setattr__(self, "above", above)
        object.__setattr__(self, "loop_start", s)
        object.__setattr__(self, "key_map", km)
        object.__setattr__(self, "keysize", K)
        object.__setattr__(self, "key_type", key_type)
        object.__setattr__(self, "metadata", None if self.metadata is None else dict(self.metadata))

    # -------------------------------------------------------------------------------- equality
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ptable):
            return NotImplemented
        a, b = self.key_map, other.key_map
        same_map = (a is None and b is None) or (
            a is not None and b is not None and bool(np.array_equal(a, b))
        )
        return (
            self.probabilities.shape == other.probabilities.shape
            and bool(np.array_equal(self.probabilities, other.probabilities))
            and self.above == other.above
            and self.loop_start == other.loop_start
            and self.keysize == other.keysize
            and self.key_type == other.key_type
            and same_map
        )

    __hash__ = None  # type: ignore[assignment]

    # -------------------------------------------------------------------------------- properties
    @property
    def key_digits(self) -> int | None:
        """d for decimal keys with d digits (``keysize`` :math:`= 10^d`), else None.

        Examples
        --------
        >>> Ptable([[1.0]], keysize=10**5, key_type="decimal").key_digits
        5
        """
        if self.key_type != "decimal" or self.keysize is None:
            return None
        return len(str(self.keysize)) - 1

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
        c = int_array(counts, "counts")
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
            cq = band_thresholds(self._band()[1], K)
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
        K = check_key_grid(keysize)
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
        r"""The table actually applied on a grid of K keys: :math:`p^Q = (c^Q(j) - c^Q(j-1)) / K`.

        Sadeghi & Chien, (4.5), for any K >= 2 (:func:`check_key_grid`): the integer keys
        0..K−1 (K a power of two) or the decimal keys :math:`k / K` (:math:`K = 10^d`), which
        pick the same entries (:func:`quantised_cdf`, Notes). The result has ``keysize=K`` and
        the key type of that grid (``"integer"`` for a power of two, ``"decimal"`` for a power
        of ten); for any other K, ``keysize`` None. A table with a key map of the same K is
        returned unchanged.

        Every entry of the result is a multiple of 1/K: exactly so in float64 when K is a
        power of two up to :math:`2^{53}`; otherwise ``count / K`` rounded to nearest (which
        :func:`audit` allows for).

        Examples
        --------
        >>> Ptable([[1.0, 0.0], [0.3, 0.7]]).quantised(8).probabilities.tolist()
        [[1.0, 0.0], [0.375, 0.625]]
        >>> Q = Ptable([[1.0, 0.0], [0.3, 0.7]]).quantised(10**5)
        >>> Q.key_type, Q.key_digits, Q.probabilities[1].tolist()
        ('decimal', 5, [0.3, 0.7])
        """
        K = check_key_grid(keysize)
        if self.key_map is not None and self.keysize == K:
            return self
        pieces = self._decimal_pieces(K)
        if pieces is not None:  # a modified table on decimal keys: each piece on its own
            counts = piece_key_counts(pieces, self.probabilities.shape, K)
            meta = {k: v for k, v in (self.metadata or {}).items() if k != "intervals"}
            return Ptable(
                np.asarray(counts, dtype=np.float64) / K,
                above=self.above,
                loop_start=self.loop_start,
                keysize=K,
                key_type="decimal",
                metadata=meta,
            )
        D, _ = self._band()
        lawq = np.diff(self._band_thresholds(K), axis=1, prepend=0).astype(np.float64) / K
        n, m = self.probabilities.shape
        r, t = np.nonzero(lawq > 0)
        pq = np.zeros((n, m))
        pq[r, r + t - D] = lawq[r, t]
        key_type, KQ = grid_type(K)
        return Ptable(
            pq,
            above=self.above,
            loop_start=self.loop_start,
            keysize=KQ,
            key_type=key_type,
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
            Keys in [0, K); broadcast against ``counts``. A decimal key :math:`k / K` is given
            as the integer k (the same interval: :math:`k / K < c \iff k < \lceil cK \rceil`).
        keysize : int, optional
            K; default the table's ``keysize`` (required if the table has none): a power of two
            for integer keys, :math:`10^d` for decimal keys (``key_type``). With a key map it
            must equal the map's K.

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
        K = self.keysize if keysize is None else check_table_keysize(keysize, self.key_type)
        if K is None:
            raise ParameterError(
                "`keysize` is required: the table has no keysize of its own, got keysize=None."
            )
        if self.key_map is not None and K != self.keysize:
            raise ParameterError(
                f"`keysize` must be the key map's K = {self.keysize}, got keysize={keysize!r}."
            )
        c, k = counts_and_keys(counts, cell_keys, K)
        r = self._row_of(c)
        if self.key_map is not None:
            return self.key_map[r, k].astype(np.int64)
        pieces = self._decimal_pieces(K)
        if pieces is not None:  # the key picks the piece lb <= k / K < ub, in file order
            rr, kk = np.broadcast_arrays(r, k)
            return piece_noise(pieces, rr, kk, K)
        return lookup_noise(self._band_thresholds(K), r, k, self.D)

    def _decimal_pieces(self, K: int) -> dict[str, np.ndarray] | None:
        """The pieces of a modified table read from a file (``metadata["intervals"]``) when
        keys on the decimal grid K = 10^d look them up, else None (module notes of
        :func:`~._layout_r.piece_thresholds`)."""
        if power_of_ten(K) is None or K & (K - 1) == 0:
            return None
        return stored_pieces(self)

    # -------------------------------------------------------------------------------- builders
    @classmethod
    def from_noise(
        cls,
        pmf: Any,
        *,
        low: int,
        rows: int | None = None,
        keysize: int | None = None,
        key_type: KeyType = "integer",
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
        key_type : {"integer", "decimal"}, default "integer"
            The table's keys (class Parameters).

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
        P = anchored_rows(pmf, low, rows)
        return cls(P, above="last", keysize=keysize, key_type=key_type)

    @classmethod
    def from_parameters(
        cls, D: int, V: float, *, js: int = 0, pstay: Any = None, mono: Any = True
    ) -> Ptable:
        r"""The count table of the R package ``ptable``, ``create_cnt_ptable(D, V, js, pstay,
        mono)``: per row the maximum-entropy law with zero mean, variance at most V, the counts
        1..js blocked, :math:`P(i \mid i) \ge` ``pstay`` and ``mono``, bounds rounded to 8
        decimals. Rows 0..ncat (ncat = D, or D + js + 1 with js > 0), ``above="last"``, no
        key size; ``metadata`` holds the parameters and the rounds of ptable's pstay loop. The
        rules, parameters and errors: ``_from_parameters.parameter_probabilities``.

        Examples
        --------
        >>> T = Ptable.from_parameters(2, 1.05, js=1, mono=[True, True, False, True])
        >>> T.max_count, T.D, round(float(T.variance.max()), 6)
        (4, 2, 1.05)
        """
        from ._from_parameters import parameter_probabilities

        P, meta = parameter_probabilities(D, V, js=js, pstay=pstay, mono=mono)
        return cls(P, above="last", metadata=meta)

    @classmethod
    def from_mechanism(
        cls,
        mechanism: Mechanism,
        *,
        above: Above = "last",
        loop_start: int | None = None,
        keysize: int | None = None,
        key_type: KeyType = "integer",
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
        P = count_path_rows(mechanism)
        return cls(P, above=above, loop_start=loop_start, keysize=keysize, key_type=key_type)

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
        return shifted_rows(self.probabilities, self._row_of(counts), counts, q)

    # -------------------------------------------------------------------------------- display
    def _keysize_text(self) -> str:
        return keysize_text(self)

    def _summary(self) -> list[tuple[str, str]]:
        return summary_rows(self)

    def __repr__(self) -> str:
        n, m = self.probabilities.shape
        K = "None" if self.keysize is None else self._keysize_text()
        return (
            f"Ptable(I={n - 1}, D={self.D}, J={m - 1}, above={self.above!r}, keysize={K}, "
            f"max_variance={num(float(self.variance.max()))})"
        )

    def __str__(self) -> str:
        return summary_text(self)

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
            "key_type": self.key_type,
            "key_digits": self.key_digits,
            "probabilities": self.probabilities.tolist(),
            "key_map": None if self.key_map is None else self.key_map.tolist(),
            "bias": self.bias.tolist(),
            "variance": self.variance.tolist(),
            "metadata": None if self.metadata is None else dict(self.metadata),
        }


def as_ptable(value: Any, name: str) -> Ptable:
    """A Ptable, or the Ptable of a Mechanism on a count path."""
    if isinstance(value, Ptable):
        return value
    if isinstance(value, Mechanism):
        return Ptable.from_mechanism(value)
    raise ParameterTypeError(
        f"`{name}` must be a Ptable or a Mechanism on a count path, got {type(value).__name__}: "
        f"{name}={value!r}."
    )
