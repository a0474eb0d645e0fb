r"""Directed pairs of rows that are the same pair, decided once rather than once per edge.

Every number the verifier forms for a directed pair :math:`(P_a, P_b)` -- the divergences
:math:`H_x(P_a\|P_b)`, the smallest ε at a δ, a certified zero, the probabilistic-DP leakage --
is a symmetric function of the multiset of columns :math:`\{(P_a(v), P_b(v)) : v \in V\}`: it
does not change when the outputs are permuted, the same permutation applied to both rows. The
mechanisms users build repeat few such pairs over many edges: a standard mechanism on a
symmetric graph ties on every edge (randomized response on a ``from_records`` graph has one
pair per two answers, however many datasets; an additive-noise mechanism on a path has one pair
per shift). Where exact work is needed, it is done once per class of this relation.

Three steps, all exact (a class never joins two different pairs):

1. :func:`row_classes` numbers the distinct rows: a 64-bit hash of each row's bits groups the
   candidates, and every row is then compared with its group's first row entry by entry; rows
   that differ from it (a hash collision) are grouped again among themselves.
2. :func:`group_arcs` keeps one arc per pair of row classes, so equal pairs of rows are one
   arc (where every row is distinct and none is a permutation of another, nothing can merge
   and the arcs are returned as they are).
3. While few arcs remain (:data:`CANON_ENTRIES`) and two different rows are permutations of
   each other (:func:`_permuted`; otherwise no further merge is possible), the arcs whose pairs
   are equal up to a permutation of the outputs are merged: the columns of each pair sorted (as
   complex numbers, real part :math:`P_a(v)`, imaginary part :math:`P_b(v)`) and compared
   bytewise.

Cost: one hash pass (compiled where numba is installed), one sort of the N hashes and one
comparison of the N rows; then a lookup table (few classes) or one sort of the E arc keys; the
third step sorts at most :data:`CANON_ENTRIES` entries.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .fused import row_hash, rows_equal

__all__ = ["CANON_ENTRIES", "GROUP_MIN_ARCS", "group_arcs", "row_classes"]

#: Arcs from which :func:`group_arcs` is worth its passes (below, callers keep every arc).
GROUP_MIN_ARCS = 64
#: The arcs left after merging equal pairs of rows are merged up to a permutation of the
#: outputs only while they hold at most this many entries (arcs times outputs): a sort of
#: the columns of each arc.
CANON_ENTRIES = 1 << 20


#: Odd 64-bit multipliers of the row hash (fixed: the classes are reproducible).
_MULTIPLIERS = np.random.default_rng(0x5EED).integers(1, 2**63, size=4096, dtype=np.uint64) | 1


def _row_hash(rows: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each row's bits: ``sum_j bits_j * c_j`` modulo 2^64."""
    q = rows.shape[1]
    bits = np.ascontiguousarray(rows, dtype=np.float64).view(np.uint64)
    mult = _MULTIPLIERS[np.arange(q) % _MULTIPLIERS.size]
    if q > _MULTIPLIERS.size:
        mult = mult ^ np.arange(q, dtype=np.uint64)
    fast = row_hash(bits, mult)
    return (bits * mult).sum(axis=1, dtype=np.uint64) if fast is None else fast


def row_classes(rows: np.ndarray) -> np.ndarray:
    """Class number of each row of ``rows`` (N, q): equal ids for equal rows only.

    Rows are grouped by a hash of their bits and each row is then compared with its group's
    first row, entry by entry: a row that differs from it (a hash collision) is regrouped with
    the other such rows, and after a few rounds keeps an id of its own. So two rows share an id
    only if they are equal (never merged otherwise). Equal rows whose bits differ (``0.0`` and
    ``-0.0``) may get two ids, which costs only repeated work.
    """
    rows = np.ascontiguousarray(rows, dtype=np.float64)
    n = rows.shape[0]
    ids = np.empty(n, dtype=np.intp)
    todo = np.arange(n, dtype=np.intp)
    next_id = 0
    for round_ in range(3):
        if todo.size == 0:
            return ids
        sub = rows if round_ == 0 else np.ascontiguousarray(rows[todo][:, ::-1])
        h = _row_hash(sub)  # (reversed rows: another hash for the rows that collided)
        _, first, inv = np.unique(h, return_index=True, return_inverse=True)
        inv = inv.ravel()
        same = rows_equal(sub, first[inv])
        ids[todo[same]] = next_id + inv[same]
        next_id += first.size
        todo = todo[~same]
    ids[todo] = next_id + np.arange(todo.size)
    return ids


def group_arcs(
    p: np.ndarray,
    heads: np.ndarray,
    tails: np.ndarray,
    classes: np.ndarray | Callable[[], np.ndarray] | None = None,
    *,
    inverse: bool = True,
    both: bool = False,
) -> tuple[np.ndarray, np.ndarray | None]:
    """Classes of the arcs whose pairs of rows are equal up to a common permutation of the
    outputs (see the module notes): one representative arc per class.

    Parameters
    ----------
    p : numpy.ndarray
        The rows (N, q).
    heads, tails : numpy.ndarray
        The arcs (heads[i], tails[i]) as integer arrays of equal length.
    classes : numpy.ndarray or callable, optional
        :func:`row_classes` of ``p``, or a function returning it (e.g. a mechanism's
        remembered one). A function is called only when the arcs touch many of the rows (at
        least half as many arcs as rows); otherwise only the rows they touch are numbered.
    inverse : bool, default True
        Whether to return ``inverse`` (None otherwise: fewer passes when only the
        representatives are needed).
    both : bool, default False
        Also the reversed arcs: the arcs are then (heads[i], tails[i]) for i < n and
        (tails[i - n], heads[i - n]) for n <= i < 2n (both orders of n edges, without
        building them).

    Returns
    -------
    (reps, inverse)
        ``reps``: indices into the arcs, one per class, increasing; ``inverse``: for each arc,
        the position in ``reps`` of its class. Arc i is, as a pair of rows, equal to arc
        ``reps[inverse[i]]`` up to a permutation of the outputs.
    """
    n_edges = heads.shape[0]
    n_arcs = 2 * n_edges if both else n_edges
    if n_arcs <= 1:
        return np.arange(n_arcs, dtype=np.intp), np.zeros(
            n_arcs, dtype=np.intp
        ) if inverse else None
    if isinstance(classes, np.ndarray) or p.shape[0] <= 2 * n_edges:
        ids = classes if isinstance(classes, np.ndarray) else (
            row_classes(p) if classes is None else classes())  # fmt: skip
        rows = p
        ch, ct = ids[heads], ids[tails]
    else:  # few arcs on many rows: number the rows they touch only
        nodes, at_node = np.unique(np.concatenate([heads, tails]), return_inverse=True)
        rows = p[nodes]
        ids = row_classes(rows)
        ch, ct = ids[at_node[:n_edges]], ids[at_node[n_edges:]]
    n_ids = int(ids.max()) + 1
    q = p.shape[1]
    small = q <= 1 or n_ids * q > CANON_ENTRIES
    permuted = None if small else _permuted(rows, ids)
    if n_ids == ids.size and not permuted:
        # every row distinct and none a permutation of another: no two arcs are equal pairs
        # (see _permuted), unless an arc is listed twice, which only repeats work
        every = np.arange(n_arcs, dtype=np.intp)
        return every, every if inverse else None
    key = ch * n_ids
    key += ct
    if both:
        back = ct * n_ids
        back += ch
        key = np.concatenate([key, back])
    reps, inv = _compact(key, inverse)
    if reps.size <= 1 or reps.size * q > CANON_ENTRIES or not permuted:
        return reps, inv  # (no pair can equal another up to a permutation: see _permuted)
    at = reps % n_edges
    forward = reps < n_edges
    cols = np.empty((reps.size, q), dtype=np.complex128)
    cols.real = p[np.where(forward, heads[at], tails[at])]
    cols.imag = p[np.where(forward, tails[at], heads[at])]
    cols += 0.0  # -0.0 and 0.0 alike in the bytes
    cols.sort(axis=1)  # lexicographic: by P_a(v), then P_b(v)
    keys = cols.view(np.dtype((np.void, 16 * q)))[:, 0]
    _, first, inv2 = np.unique(keys, return_index=True, return_inverse=True)
    if first.size == reps.size:
        return reps, inv
    order = np.argsort(first)  # the merged classes, numbered by their first representative
    rank = np.empty(order.size, dtype=np.intp)
    rank[order] = np.arange(order.size)
    return reps[first[order]], None if inv is None else rank[inv2.ravel()][inv]


def _permuted(rows: np.ndarray, ids: np.ndarray) -> bool:
    """Whether two different rows of ``rows`` (with :func:`row_classes` ``ids``) are
    permutations of each other.

    If not, two arcs equal up to a common permutation σ of the outputs have equal rows: the
    head of one is σ applied to the head of the other, a permutation of it, hence the same row
    (and so are the tails), so the arcs already share their pair of row classes."""
    first = np.unique(ids, return_index=True)[1]
    return bool(row_classes(np.sort(rows[first], axis=1)).max() + 1 < first.size)


def _compact(key: np.ndarray, inverse: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
    """``(reps, inverse)`` of integer keys >= 0: one entry's index per distinct key (the
    indices increasing) and, per entry, the position of its key's index in ``reps`` (None
    unless ``inverse``). A lookup table when the keys are small; which entry stands for a key
    is then unspecified, which is fine where all entries of a key are equal pairs."""
    n = key.shape[0]
    top = int(key.max()) + 1
    if top <= 4 * n + 1024:
        pos = np.full(top, -1, dtype=np.intp)
        pos[key] = np.arange(n, dtype=np.intp)  # some member of each key (any one will do)
        first = pos[pos >= 0]
        if not inverse:
            first.sort()
            return first, None
        lut = np.full(top, -1, dtype=np.intp)
        lut[key[first]] = np.arange(first.size, dtype=np.intp)
        idx = lut[key]
    else:
        _, first, idx = np.unique(key, return_index=True, return_inverse=True)
        idx = idx.ravel()
    order = np.argsort(first)
    rank = np.empty(order.size, dtype=np.intp)
    rank[order] = np.arange(order.size)
    return first[order].astype(np.intp), rank[idx].astype(np.intp)
