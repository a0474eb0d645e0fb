r"""Symmetry-reduced models: tied probability columns and one constraint block per orbit.

A *tying map* is an (N, q) integer array T: the probabilities :math:`P_d(v)` with equal
``T[d, v]`` are one variable. For additive noise on a circulant graph,
:math:`T[q, \tilde v] = (\tilde v - q) \bmod (n + 1)` makes every row the same PMF f shifted by
q, and the design problem becomes one over f (n + 1 variables instead of :math:`(n+1)^2`).

Every constraint of the LP and the MILP on an ordered pair of neighbours (a, b) depends on the
rows only through the multiset of variable pairs :math:`\{(T[a, v], T[b, v])\}_v`. Pairs with
the same multiset give *identical* constraints, so one block per such class (an *orbit* of
directed pairs under the symmetry) is kept; the others are implied. Rows of fixed nodes enter as
constants: each distinct constant value is a pseudo-variable, so pairs against equal fixed rows
are merged too.

Without a tying map every (node, output) is its own variable and no pair is merged: the
unreduced model, built by the same code.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._validation import real_array
from ..exceptions import InfeasibleDesignError, ParameterError, ParameterTypeError
from ..graph import RainbowGraph
from ._model import EQ, ArrayModel

__all__: list[str] = []

#: Keep one constraint block per orbit of pairs when columns are tied. Switching it off builds
#: the tied model with every pair's block (the same feasible set; used by the tests to show
#: that merging orbits changes nothing).
MERGE_ORBITS = True


def check_tied(G: RainbowGraph, tied: Any) -> np.ndarray | None:
    """Validate the ``tied`` argument: ``None`` or an (N, q) integer array."""
    if tied is None:
        return None
    if isinstance(tied, str | bytes):
        raise ParameterTypeError(f"`tied` must be an (N, q) integer array, got tied={tied!r}.")
    T = real_array(tied, "tied")
    if not np.issubdtype(T.dtype, np.integer):
        if np.all(np.isfinite(T)) and np.array_equal(T, np.round(T)):
            T = T.astype(np.int64)
        else:
            raise ParameterTypeError(
                f"`tied` must hold integers (variable ids), got dtype {T.dtype}: tied={tied!r}."
            )
    if T.shape != (G.n_nodes, G.n_outputs):
        raise ParameterError(
            f"`tied` must have shape ({G.n_nodes}, {G.n_outputs}) (nodes, outputs), got shape "
            f"{T.shape}."
        )
    return T.astype(np.int64)


class Columns(NamedTuple):
    """The probability variables of a model (see :func:`probability_variables`)."""

    #: (N, q) column index of each free probability, -1 on fixed rows (as ``extract`` expects).
    col: np.ndarray
    #: (N, q) extended ids: ``col`` on free rows; ``n_vars + c`` on fixed rows, c indexing
    #: ``consts`` (equal values share an id).
    ext: np.ndarray
    n_vars: int
    consts: np.ndarray
    #: Whether columns are tied (a column may then repeat within a row).
    tied: bool
    #: Whether equal constraint blocks are merged (tied and :data:`MERGE_ORBITS`).
    merge_orbits: bool


def probability_variables(
    mb: ArrayModel,
    fixed_mask: np.ndarray,
    fixed_values: np.ndarray,
    lower: np.ndarray,
    upper: np.ndarray,
    tied: np.ndarray | None,
    zero: np.ndarray | None = None,
) -> Columns:
    """Add the probability columns and the row-sum rows; return the column maps.

    With ``tied``, one column per distinct id among the free rows (its bounds: the tightest of
    its members'), and one row-sum constraint per distinct multiset of ids in a row. ``zero``
    ((N, q) bool, free rows only) marks probabilities known to be 0 (side constraints): they get
    no column (``col`` = -1) and enter the constraints as the constant 0.
    """
    n, q = lower.shape
    free = np.flatnonzero(~fixed_mask)
    col = -np.ones((n, q), dtype=np.intp)
    if free.size:
        live = np.ones((free.size, q), dtype=bool) if zero is None else ~zero[free]
        ids = -np.ones((free.size, q), dtype=np.intp)
        if tied is None:
            ids[live] = np.arange(np.count_nonzero(live), dtype=np.intp)
        else:
            _, inv = np.unique(tied[free][live], return_inverse=True)
            ids[live] = inv.ravel()
        col[free] = ids
    n_vars = int(col.max()) + 1 if free.size else 0
    if n_vars:
        flat = col[free].ravel()
        pos = np.flatnonzero(flat >= 0)
        flat = flat[pos]
        first = np.full(n_vars, free.size * q, dtype=np.intp)
        np.minimum.at(first, flat, pos)
        fi, fv = free[first // q], first % q
        lo = np.zeros(n_vars)
        hi = np.ones(n_vars)
        np.maximum.at(lo, flat, lower[free].ravel()[pos])
        np.minimum.at(hi, flat, upper[free].ravel()[pos])
        if np.any(lo > hi):
            k = int(np.flatnonzero(lo > hi)[0])
            raise InfeasibleDesignError(
                f"`tied` joins probabilities whose `bounds` do not overlap (variable of node "
                f"index {int(fi[k])}, output index {int(fv[k])}: lower {lo[k]:g} > upper "
                f"{hi[k]:g})."
            )
        mb.add_columns(("p", fi, fv), lo, hi)
        rows = col[free]
        row_nodes = free
        if tied is not None:
            rows, keep = np.unique(np.sort(rows, axis=1), axis=0, return_index=True)
            row_nodes = free[keep]
        mb.add_sum_rows(("sum", row_nodes), rows, EQ, np.ones(rows.shape[0]))
    fixed = np.flatnonzero(fixed_mask)
    ext = col.copy()
    known = fixed_values[fixed].ravel()
    has_zero = zero is not None and bool(zero.any())
    consts = np.unique(np.concatenate([known, [0.0]]) if has_zero else known)
    if fixed.size:
        ext[fixed] = n_vars + np.searchsorted(consts, fixed_values[fixed])
    if has_zero:
        ext[zero] = n_vars + np.searchsorted(consts, 0.0)
    return Columns(col, ext, n_vars, consts, tied is not None, tied is not None and MERGE_ORBITS)


class Blocks(NamedTuple):
    """One constraint block per orbit of directed pairs (see :func:`pair_blocks`)."""

    #: (R, q) extended ids of the first and second row of each block's pairs, per position.
    first: np.ndarray
    second: np.ndarray
    #: (R,) node indices of a representative pair (a, b) of each block, for names.
    a: np.ndarray
    b: np.ndarray
    #: (R,) block of the reversed pairs (b, a), -1 if the reverse is not constrained.
    reverse: np.ndarray
    #: (R, q) position in the reverse block holding the reversed variable pair.
    reverse_pos: np.ndarray


def pair_blocks(cols: Columns, a: np.ndarray, b: np.ndarray) -> Blocks:
    """The constraint blocks of the directed pairs ``(a[k], b[k])``.

    Untied, every pair is its own block with positions in output order. Tied, the pairs are
    classed by the sorted multiset of their variable pairs and one representative per class is
    kept, positions in sorted order.
    """
    ext = cols.ext
    q = ext.shape[1]
    K = np.int64(cols.n_vars + cols.consts.size)
    if a.size == 0:
        e = np.empty((0, q), dtype=np.intp)
        return Blocks(e, e, a, b, np.empty(0, dtype=np.intp), e)
    if not cols.merge_orbits:
        n = ext.shape[0]
        key = a.astype(np.int64) * n + b
        order = np.argsort(key)
        want = b.astype(np.int64) * n + a
        pos = np.searchsorted(key[order], want)
        pos = np.minimum(pos, key.size - 1)
        rev = np.where(key[order][pos] == want, order[pos], -1)
        positions = np.broadcast_to(np.arange(q), (a.size, q))
        return Blocks(ext[a], ext[b], a, b, rev.astype(np.intp), positions)
    keys = np.sort(ext[a].astype(np.int64) * K + ext[b], axis=1)
    uniq, rep = np.unique(keys, axis=0, return_index=True)
    first, second = (uniq // K).astype(np.intp), (uniq % K).astype(np.intp)
    index = {row.tobytes(): r for r, row in enumerate(uniq)}
    rkeys = np.sort(second.astype(np.int64) * K + first, axis=1)
    rev = np.array([index.get(row.tobytes(), -1) for row in rkeys], dtype=np.intp)
    rpos = np.zeros(uniq.shape, dtype=np.intp)
    for r in np.flatnonzero(rev >= 0).tolist():
        rpos[r] = np.searchsorted(uniq[rev[r]], second[r].astype(np.int64) * K + first[r])
    return Blocks(first, second, a[rep], b[rep], rev, rpos)


def node_orbits(cols: Columns, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N,) orbit id of every node for indicators shared per node (MILP (13)).

    Nodes with the same *signature* -- the multiset of their row's ids and the set of variable
    pairs ``(ext[a, v], ext[b, v])`` over their out-pairs (a, b) -- take part in identical
    constraints (given the probabilities, and without the tie waiver, which the tied models
    drop), so one indicator block serves them all. Untied, every node is its own orbit.
    """
    ext = cols.ext
    n = ext.shape[0]
    if not cols.merge_orbits:
        return np.arange(n)
    K = np.int64(cols.n_vars + cols.consts.size)
    q = ext.shape[1]
    owner = np.repeat(a, q)
    keys = (ext[a].astype(np.int64) * K + ext[b]).ravel()
    pairs = np.unique(np.column_stack([owner, keys]), axis=0)
    starts = np.searchsorted(pairs[:, 0], np.arange(n + 1))
    rows = np.sort(ext, axis=1)
    index: dict[tuple[bytes, bytes], int] = {}
    orbit = np.empty(n, dtype=np.intp)
    for i in range(n):
        sig = (rows[i].tobytes(), pairs[starts[i] : starts[i + 1], 1].tobytes())
        orbit[i] = index.setdefault(sig, len(index))
    return orbit


def split(cols: Columns, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(column index or -1, constant value or 0)`` for extended ids."""
    is_var = ids < cols.n_vars
    if cols.consts.size:
        const = np.where(is_var, 0.0, cols.consts[np.clip(ids - cols.n_vars, 0, None)])
    else:
        const = np.zeros(ids.shape)
    return np.where(is_var, ids, -1), const


def unique_pairs(first: np.ndarray, second: np.ndarray, merge: bool) -> tuple[np.ndarray, ...]:
    """Flattened ``(first, second)`` id pairs, duplicates removed when ``merge``."""
    f, s = first.ravel(), second.ravel()
    if not merge:
        return f, s
    both = np.unique(np.column_stack([f, s]), axis=0)
    return both[:, 0], both[:, 1]
