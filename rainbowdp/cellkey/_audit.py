r"""The exact (ε, δ)-DP audit of a perturbation table on the count path, with its bias and
variance (:func:`audit`, :class:`AuditReport`).

References
----------
.. [1] P. Sadeghi, C.-H. Chien, "On the connection between the ABS perturbation methodology and
   differential privacy" (2023), Sections 3–4.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from .._validation import check_delta, check_epsilon, real_array
from .._verify.exact import enclose_exp, float_at_least
from ..exceptions import ParameterError, ParameterTypeError
from ..mechanism import Mechanism
from ._display import html_table, num, require_pandas, up
from ._layout_r import piece_key_counts, stored_pieces
from ._ptable import Ptable, as_ptable
from ._ptable_io import read_count_ptable
from ._ptable_ops import grid_text, power_of_ten
from ._quantise import check_key_grid, check_keysize

__all__ = ["AuditReport", "audit"]


#: The unit round-off of float64: a quantised entry count / K is stored within this relative
#: error of its exact value (round to nearest).
UNIT_ROUNDOFF = Fraction(1, 2**53)
#: Iterations of the rounding allowance of ε at δ before giving up (reporting ε = inf).
_ALLOWANCE_STEPS = 6

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
        K when the quantised table was audited: the number of keys of the grid (a power of
        two for integer keys, :math:`10^d` for decimal keys with d digits, or any K >= 2).
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
            parts.append(f"keysize={grid_text(self.keysize)}")
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
            rows.append(("keysize", grid_text(self.keysize)))
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


#: Decimals of every bound a decimal key grid compares its keys with, beyond which more key
#: digits apply the same table (12 for the rows' bounds; a modified table's pieces up to 15).
_BOUND_PLACES = 12


def _places(x: float) -> int:
    """The decimals of the shortest text of the float ``x``."""
    q = Fraction(repr(float(x)))
    d = 0
    while (q * 10**d).denominator != 1:
        d += 1
    return d


def _check_grid(T: Ptable, keysize: Any) -> int:
    """``keysize`` checked for the audit, with a clear error for decimal grids above 2^53.

    The entries count / K of a grid K above 2^53 that is not a power of two would be rounded
    twice (count itself is not a float). Decimal keys with d digits apply the bounds' own
    decimals at most (12 for the rows' bounds, those of a modified table's pieces), so the
    message names the grid with the same table.
    """
    big_decimal = (
        isinstance(keysize, int | np.integer)
        and not isinstance(keysize, bool)
        and keysize > 2**53
        and power_of_ten(int(keysize)) is not None
    )
    if not big_decimal:
        return check_key_grid(keysize)
    K = int(keysize)
    d = power_of_ten(K)
    pieces = stored_pieces(T)
    same = _BOUND_PLACES
    if pieces is not None:
        ends = np.r_[pieces["p_int_lb"], pieces["p_int_ub"]].tolist()
        same = max([same, *(_places(x) for x in ends)])
    hint = (
        f"; decimal keys with {d} digits apply the same table as keys with {same} (every bound "
        f"has at most {same} decimals): audit with keysize=10**{same}"
        if same <= 15
        else ""
    )
    raise ParameterError(
        f"`keysize` above 2^53 must be a power of two for the audit, got keysize={keysize!r} "
        f"(10^{d}: the entries count / K of its table are rounded twice){hint}."
    )


def _applied(T: Ptable, keysize: Any) -> tuple[Ptable, int | None, int | None, tuple | None]:
    """(the table applied on the key grid, K, lost entries, rows holding them).

    K is ``keysize`` (any integer >= 2) or the table's own; a table with a key map is applied
    through its map, so another K must be a power of two (the table re-quantised, as before).
    A modified table read from a file, on a decimal grid :math:`10^d`, is applied through its
    pieces, each quantised on its own (``cellKey``'s lookup; :func:`piece_key_counts`).
    """
    if keysize is None:
        K = T.keysize
    else:
        K = _check_grid(T, keysize)
        if T.key_map is not None and K != T.keysize:
            if K & (K - 1):
                raise ParameterError(
                    f"`keysize` must be the key map's K = {T.keysize} or a power of two (a "
                    f"table with a key map is applied through its map), got keysize={keysize!r}."
                )
            K = check_keysize(K)
    if K is None:
        return T, None, None, None
    if K > 2**53 and K & (K - 1):
        _check_grid(T, K)  # a decimal grid: the message names the grid with the same table
        raise ParameterError(
            f"`keysize` above 2^53 must be a power of two for the audit, got keysize={K}: the "
            "entries count / K of its table are rounded twice."
        )
    pieces = stored_pieces(T) if power_of_ten(K) is not None else None
    if pieces is not None:
        counts = piece_key_counts(pieces, T.probabilities.shape, K)
        Q = Ptable(
            counts.astype(np.float64) / K,  # counts <= K <= 2^53: exact; one rounding
            above=T.above,
            loop_start=T.loop_start,
            keysize=K,
            key_type="decimal",
            metadata=T.metadata,
        )
    else:
        Q = T.quantised(K)
    p0, pq = T.probabilities, Q.probabilities
    width = max(p0.shape[1], pq.shape[1])
    a = np.pad(p0, ((0, 0), (0, width - p0.shape[1])))
    b = np.pad(pq, ((0, 0), (0, width - pq.shape[1])))
    gone = (a > 0) & (b == 0)
    lost_rows = tuple(int(i) for i in np.flatnonzero(gone.any(axis=1)))
    return Q, K, int(gone.sum()), lost_rows


def _delta_up(delta: float, epsilon: float) -> float:
    r"""δ raised by the rounding allowance :math:`u (1 + e^\epsilon)`, rounded up (at most 1).

    A quantised entry stored as :math:`\tilde p = p (1 + a)`, :math:`|a| \le u = 2^{-53}`,
    changes a hockey-stick divergence :math:`\sum_y (P(y) - e^\epsilon Q(y))^+` by at most
    :math:`\sum_y |P - \tilde P| + e^\epsilon \sum_y |Q - \tilde Q| \le u (1 + e^\epsilon)`.
    """
    if delta >= 1.0:  # an exact table's delta is at most 1 (its rows are distributions)
        return 1.0
    x = enclose_exp(min(epsilon, 1e4)).hi
    return min(1.0, float_at_least(Fraction(delta) + UNIT_ROUNDOFF * (1 + x)))


def _sound_epsilons(M: Mechanism, deltas: tuple[float, ...]) -> tuple[float, ...]:
    r"""ε at each δ of the exact rows that M holds rounded to nearest (entries count / K).

    The verifier's ε at :math:`\delta - \eta` with :math:`\eta \ge u (1 + e^\epsilon)`
    (:func:`_delta_up`), η raised until it covers the ε found; below that, the ε at δ = 0
    plus :math:`\ln((1 + u)/(1 - u)) < 2.0001 u` (a likelihood ratio of the stored entries is
    within that factor of the exact one).
    """
    from ..privacy import epsilon_for_delta

    def at(d: float) -> float:
        return float(epsilon_for_delta(M, np.asarray([d]))[0])

    e0 = at(0.0)
    pure = e0 if math.isinf(e0) else float_at_least(Fraction(e0) + Fraction(1, 2**51))
    out = []
    for d in deltas:
        e = at(d)
        for _ in range(_ALLOWANCE_STEPS):
            if math.isinf(e):
                break
            eta = float_at_least(2 * UNIT_ROUNDOFF * (1 + enclose_exp(min(e, 1e4)).hi))
            if d - eta <= 0.0:
                e = pure
                break
            e_next = at(d - eta)
            if math.isinf(e_next) or UNIT_ROUNDOFF * (1 + enclose_exp(min(e_next, 1e4)).hi) <= (
                Fraction(d) - Fraction(d - eta)
            ):
                e = e_next
                break
            e = e_next
        else:  # pragma: no cover - η covers e^ε after one or two raises
            e = math.inf
        out.append(min(e, pure))
    return tuple(out)


def _profile(
    M: Mechanism, eps_v: tuple[float, ...], dlt_v: tuple[float, ...], exact: bool
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(ε at each δ, δ at each ε) of M, the verifier's; with ``exact=False`` (entries rounded
    to nearest float) raised by the rounding allowance so they bound the exact table."""
    from ..privacy import epsilon_for_delta, privacy_profile

    d_at_e = tuple(float(x) for x in privacy_profile(M, np.asarray(eps_v))) if eps_v else ()
    if exact:
        e_at_d = tuple(float(x) for x in epsilon_for_delta(M, np.asarray(dlt_v))) if dlt_v else ()
        return e_at_d, d_at_e
    d_at_e = tuple(_delta_up(d, e) for d, e in zip(d_at_e, eps_v, strict=True))
    return (_sound_epsilons(M, dlt_v) if dlt_v else ()), d_at_e


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
        Audit the quantised table :math:`p^Q` (:meth:`Ptable.quantised`) on a grid of K keys,
        the mechanism the cell keys actually apply, and report the lost support. Any K >= 2:
        integer keys 0..K−1 (K a power of two) or the decimal keys :math:`k / K` of the R
        package ``cellKey`` and Tau-Argus (:math:`K = 10^d` for d digits; cellKey's record
        keys have 5 to 20, 8 by default), whose rule ``lb <= key < ub`` picks the same entries
        (:func:`quantised_cdf`, Notes). Default: the table's own ``keysize`` (None: the table
        as given; ``read_ptable(path, key_type="decimal")`` gives a file's table the grid of
        its bounds' decimals). A table with a key map takes its own K or a power of two. A
        modified table read from a file (``ptable::modify_cnt_ptable``: its pieces in
        ``metadata["intervals"]``) is applied on a decimal grid :math:`10^d` through its
        pieces, as ``cellKey`` and :func:`perturb` look decimal keys up: each piece gets the
        keys below its own bound, so on a grid coarser than the file's digits the pieces of
        one (i, j) are quantised one by one (and may lose support the merged entry would
        keep); on a finer grid that is the merged probability. A decimal grid above
        :math:`2^{53}` (keys with 16 to 20 digits) is refused, naming the grid that applies the
        same table (:math:`10^{12}`: the bounds' decimals).

    Returns
    -------
    AuditReport

    Notes
    -----
    When K is a power of two (at most :math:`2^{53}`) the quantised entries count / K are exact
    floats and the numbers are the verifier's. Otherwise each entry is stored rounded to
    nearest, within a relative :math:`u = 2^{-53}`; every δ is then raised by
    :math:`u (1 + e^\epsilon)` and every ε is the verifier's at δ lowered by that amount, so the
    report bounds the exact quantised table (in the safe direction, by about 1e-16).

    References
    ----------
    Sadeghi & Chien, Sections 3–4 (the ptable as a mechanism; the quantised PMF (4.5)); the R
    package ``cellKey``, ``lookup_freq`` in ``.ck_perturb_cnts`` (the decimal lookup rule).

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
        table = read_count_ptable(table)
    T = as_ptable(table, "table")
    if epsilon is not None and epsilons is not None:
        raise ParameterError(
            f"give `epsilon` or `epsilons`, not both, got epsilon={epsilon!r}, "
            f"epsilons={epsilons!r}."
        )
    if epsilon is not None:
        epsilons = [check_epsilon(epsilon)]
    eps_v: tuple[float, ...]
    dlt_v: tuple[float, ...]
    if epsilons is None and deltas is None:
        eps_v, dlt_v = DEFAULT_EPSILONS, DEFAULT_DELTAS
    else:
        eps_v = () if epsilons is None else _values(epsilons, "epsilons", check_epsilon)
        dlt_v = () if deltas is None else _values(deltas, "deltas", check_delta)
    # count / K is stored exactly for K a power of two up to 2^53; above 2^53 count itself is
    # rounded to a float, once for a power of two (the allowance u covers it), twice otherwise
    # (refused by _applied)
    T, K, lost, lost_rows = _applied(T, keysize)
    exact = K is None or (not K & (K - 1) and K <= 2**53)
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

    e_at_d, d_at_e = _profile(M, eps_v, dlt_v, exact)
    worst_d = tuple(edge(_worst_at_delta(UA, UB, d)) for d in dlt_v)
    worst_e = tuple(edge(_worst_at_epsilon(UA, UB, e)) for e in eps_v)
    D, top = T.D, T.max_count
    e_ind = d_ind = None
    if top >= D:
        ids = np.unique(inverse[D:])
        e_ind, d_ind = _profile(_pairs_mechanism(UA[ids], UB[ids]), eps_v, dlt_v, exact)
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
