r"""Per-node linear side constraints of the designers.

A :class:`RowConstraint` asks, for every node d,

.. math::

    \ell_d \le \sum_v A[d, v]\, P_d(v) \le u_d,

row d of A in ``G.nodes`` order, columns in ``G.outputs`` order; a node with
:math:`\ell_d = -\infty` and :math:`u_d = +\infty` is unconstrained. A is stored as a CSR sparse
array. :func:`answer_probability`, :func:`zero_bias`, :func:`loss_cap` and :func:`support` build
the common ones from a graph with numeric true answers ``G.answers``.

Inside the designers (:func:`check_constraints`, :func:`prepare_constraints`,
:func:`add_constraint_rows`): rows of fixed nodes are data and checked up front; a row with
nonnegative coefficients and :math:`u_d = 0` (what :func:`support` builds) only says that the
probabilities it touches are 0, so those become constant zeros -- no row and no variable --
instead of a model row; the other rows are added to the model. :func:`violation` is the check
every returned mechanism passes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from scipy import sparse

from .._validation import check_delta, check_int, real_array
from .._verify.repair import snap_equal_rows
from ..exceptions import (
    InfeasibleDesignError,
    NotPrivateError,
    ParameterError,
    ParameterTypeError,
)
from ..graph import RainbowGraph, check_graph
from . import _model
from ._model import CONSTRAINED_MARGINS, EQ, GE, LE, ArrayModel, merge_repeats
from ._problem import answers_loss, node_key, numeric_answers
from ._tying import Columns, probability_variables

__all__ = [
    "FIXED_TOL",
    "RESULT_TOL",
    "RowConstraint",
    "answer_probability",
    "loss_cap",
    "support",
    "zero_bias",
]

#: Fixed rows must meet every constraint within this, times the row's :math:`\sum_v |A[d, v]|`.
FIXED_TOL = 1e-12
#: Every designed mechanism meets every constraint within this, times :math:`\sum_v |A[d, v]|`.
RESULT_TOL = 1e-10


def _first_bad(mask: np.ndarray) -> tuple[int, ...]:
    return tuple(int(k) for k in np.argwhere(mask)[0])


def _as_csr(A: Any) -> sparse.csr_array:
    if sparse.issparse(A):
        if A.dtype.kind not in "iuf":
            raise ParameterTypeError(
                f"`A` must hold real numbers, got a sparse array of dtype {A.dtype}."
            )
        M = sparse.csr_array(A, dtype=np.float64)
        M.sum_duplicates()
    else:
        if isinstance(A, str | bytes):
            raise ParameterTypeError(f"`A` must be an (N, q) array of numbers, got A={A!r}.")
        M = real_array(A, "A")
        if M.ndim != 2:
            raise ParameterError(
                f"`A` must be two-dimensional (nodes, outputs), got shape {M.shape}."
            )
        if not np.all(np.isfinite(M)):
            i, j = _first_bad(~np.isfinite(M))
            raise ParameterError(f"`A` must be finite, got A[{i}, {j}]={float(M[i, j])!r}.")
        M = sparse.csr_array(M)
    if M.ndim != 2:
        raise ParameterError(f"`A` must be two-dimensional (nodes, outputs), got shape {M.shape}.")
    if not np.all(np.isfinite(M.data)):
        k = int(np.flatnonzero(~np.isfinite(M.data))[0])
        i = int(np.searchsorted(M.indptr, k, side="right") - 1)
        raise ParameterError(
            f"`A` must be finite, got A[{i}, {int(M.indices[k])}]={float(M.data[k])!r}."
        )
    M.eliminate_zeros()
    return M


def _side(value: Any, n: int, name: str, default: float) -> np.ndarray:
    if value is None:
        return np.full(n, default)
    if isinstance(value, str | bytes):
        raise ParameterTypeError(
            f"`{name}` must be a number or an (N,) array, got {name}={value!r}."
        )
    arr = real_array(value, name)
    if arr.ndim == 0:
        arr = np.full(n, float(arr))
    if arr.shape != (n,):
        raise ParameterError(
            f"`{name}` must be a number or an array of shape ({n},) (one entry per row of A), "
            f"got shape {arr.shape}."
        )
    if np.isnan(arr).any():
        (i,) = _first_bad(np.isnan(arr))
        raise ParameterError(f"`{name}` must not be NaN, got {name}[{i}]=nan.")
    return arr.copy()


@dataclass(frozen=True, eq=False)
class RowConstraint:
    r"""The linear constraint :math:`\ell_d \le \sum_v A[d, v] P_d(v) \le u_d` at every node d.

    Parameters
    ----------
    A : array_like or scipy.sparse array/matrix, shape (N, q)
        Finite coefficients; row d in ``G.nodes`` order, columns in ``G.outputs`` order. Stored
        as a ``scipy.sparse.csr_array`` of float64 (explicit zeros dropped).
    lower : float or array_like of shape (N,), default -inf
        :math:`\ell_d`; ``-inf`` for no lower bound.
    upper : float or array_like of shape (N,), default +inf
        :math:`u_d`; ``+inf`` for no upper bound. A node with both infinite is unconstrained.
    name : str, default "constraint"
        Shown in error messages.

    Raises
    ------
    ParameterError
        On a non-finite A, a NaN bound, ``lower > upper``, ``lower = +inf``, ``upper = -inf``
        or a bound of the wrong length (the parameter is named and the bad entry shown).
    ParameterTypeError
        On non-numbers, or a ``name`` that is not a string.

    Notes
    -----
    The shape is checked against the graph by the designers (the error names
    ``constraints[i]``).

    Examples
    --------
    The probability of output 0 is at least 0.3 at node 1, and node 0 is free:

    >>> import math
    >>> c = RowConstraint([[1.0, 0.0], [1.0, 0.0]], lower=[-math.inf, 0.3], name="p0")
    >>> c.A.nnz, c.lower.tolist(), c.upper.tolist()
    (2, [-inf, 0.3], [inf, inf])
    >>> RowConstraint([[1.0, 0.0]], lower=0.5, upper=0.2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rainbowdp.exceptions.ParameterError: `lower` must be <= `upper` at every row, got ...
    """

    A: Any
    lower: Any = -math.inf
    upper: Any = math.inf
    name: str = "constraint"

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise ParameterTypeError(f"`name` must be a string, got name={self.name!r}.")
        A = _as_csr(self.A)
        n = A.shape[0]
        lo = _side(self.lower, n, "lower", -math.inf)
        hi = _side(self.upper, n, "upper", math.inf)
        if np.any(lo == math.inf):
            (i,) = _first_bad(lo == math.inf)
            raise ParameterError(f"`lower` must be < inf, got lower[{i}]=inf.")
        if np.any(hi == -math.inf):
            (i,) = _first_bad(hi == -math.inf)
            raise ParameterError(f"`upper` must be > -inf, got upper[{i}]=-inf.")
        if np.any(lo > hi):
            (i,) = _first_bad(lo > hi)
            raise ParameterError(
                f"`lower` must be <= `upper` at every row, got lower[{i}]={float(lo[i])!r} > "
                f"upper[{i}]={float(hi[i])!r}."
            )
        object.__setattr__(self, "A", A)
        object.__setattr__(self, "lower", lo)
        object.__setattr__(self, "upper", hi)

    def __repr__(self) -> str:
        n_act = int(np.count_nonzero(self.active))
        return (
            f"RowConstraint(name={self.name!r}, shape={self.A.shape}, nnz={self.A.nnz}, "
            f"constrained rows={n_act})"
        )

    @property
    def active(self) -> np.ndarray:
        """(N,) bool: the rows with a finite bound."""
        return np.isfinite(self.lower) | np.isfinite(self.upper)

    def values(self, P: np.ndarray) -> np.ndarray:
        r""":math:`\sum_v A[d, v] P_d(v)` for every row d of the (N, q) array ``P``."""
        A = self.A
        rows = np.repeat(np.arange(A.shape[0]), np.diff(A.indptr))
        return np.bincount(rows, weights=A.data * P[rows, A.indices], minlength=A.shape[0])

    def scale(self) -> np.ndarray:
        r""":math:`\sum_v |A[d, v]|` for every row d (tolerances are relative to it)."""
        A = self.A
        rows = np.repeat(np.arange(A.shape[0]), np.diff(A.indptr))
        return np.bincount(rows, weights=np.abs(A.data), minlength=A.shape[0])


# ---------------------------------------------------------------------------------- builders
def _selected(G: RainbowGraph, nodes: Any) -> np.ndarray:
    """(N,) bool mask of the ``nodes`` argument (all nodes when ``None``)."""
    if nodes is None:
        return np.ones(G.n_nodes, dtype=bool)
    if isinstance(nodes, str | bytes) or not isinstance(nodes, Iterable):
        raise ParameterTypeError(f"`nodes` must be an iterable of nodes, got nodes={nodes!r}.")
    mask = np.zeros(G.n_nodes, dtype=bool)
    for node in nodes:
        mask[node_key(G, node, "nodes")] = True
    return mask


def _rows(sel: np.ndarray, value: np.ndarray | float, other: float) -> np.ndarray:
    return np.where(sel, value, other)


def _dense_rows(sel: np.ndarray, M: np.ndarray) -> sparse.csr_array:
    """CSR of ``M`` with the unselected rows emptied."""
    A = sparse.csr_array(np.where(sel[:, None], M, 0.0))
    A.eliminate_zeros()
    return A


def answer_probability(
    G: RainbowGraph, eta: float, *, nodes: Iterable | None = None
) -> RowConstraint:
    r"""The constraint :math:`P_d(a(d)) = \eta`: the true answer is released with probability η.

    Parameters
    ----------
    G : RainbowGraph
        A graph with numeric outputs and true answers ``G.answers``, every answer among the
        outputs.
    eta : float
        η in [0, 1].
    nodes : iterable of nodes, optional
        The constrained nodes (default all).

    Returns
    -------
    RowConstraint

    Raises
    ------
    ParameterError
        If the graph has no numeric answers, an answer is not an output, or η is not in [0, 1].

    Examples
    --------
    >>> from rainbowdp import builders
    >>> G = builders.count_path(2)
    >>> c = answer_probability(G, 0.5, nodes=[0, 2])
    >>> c.A.toarray().tolist(), c.lower.tolist()
    ([[1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]], [0.5, -inf, 0.5])
    """
    g = check_graph(G, "G")
    e = check_delta(eta, "eta")
    v, a = numeric_answers(g, "`answer_probability`")
    sel = _selected(g, nodes)
    hit = v[None, :] == a[:, None]
    missing = sel & ~hit.any(axis=1)
    if missing.any():
        i = int(np.flatnonzero(missing)[0])
        assert g.answers is not None  # numeric_answers has checked it
        raise ParameterError(
            f"`answer_probability` needs every answer among the outputs; node {g.nodes[i]!r} has "
            f"answer {g.answers[i]!r}, which is not in G.outputs."
        )
    A = _dense_rows(sel, hit.astype(np.float64))
    return RowConstraint(
        A, _rows(sel, e, -math.inf), _rows(sel, e, math.inf), f"answer_probability(eta={e:g})"
    )


def zero_bias(G: RainbowGraph, *, nodes: Iterable | None = None) -> RowConstraint:
    r"""The constraint :math:`\sum_v (v - a(d))\, P_d(v) = 0`: the output is unbiased.

    Parameters
    ----------
    G : RainbowGraph
        A graph with numeric outputs and true answers ``G.answers``.
    nodes : iterable of nodes, optional
        The constrained nodes (default all).

    Returns
    -------
    RowConstraint

    Examples
    --------
    >>> from rainbowdp import builders
    >>> c = zero_bias(builders.count_path(2))
    >>> c.A.toarray()[1].tolist(), c.upper.tolist()
    ([-1.0, 0.0, 1.0], [0.0, 0.0, 0.0])
    """
    g = check_graph(G, "G")
    v, a = numeric_answers(g, "`zero_bias`")
    sel = _selected(g, nodes)
    A = _dense_rows(sel, v[None, :] - a[:, None])
    return RowConstraint(A, _rows(sel, 0.0, -math.inf), _rows(sel, 0.0, math.inf), "zero_bias")


def loss_cap(
    G: RainbowGraph,
    cap: float | Sequence[float] | np.ndarray,
    *,
    loss: str | Callable[[Any, Any], float] | np.ndarray = "squared",
    nodes: Iterable | None = None,
) -> RowConstraint:
    r"""The constraint :math:`\sum_v L[d, v]\, P_d(v) \le \text{cap}_d`: a bounded expected loss.

    Parameters
    ----------
    G : RainbowGraph
        A graph with numeric outputs and true answers for the named losses and callables.
    cap : float or array_like of shape (N,)
        The largest expected loss (per node, or one for all).
    loss : {"absolute", "squared"}, callable or array_like of shape (N, q), default "squared"
        :math:`|v - a(d)|`, :math:`(v - a(d))^2`, ``loss(output, answer)``, or L itself.
    nodes : iterable of nodes, optional
        The constrained nodes (default all).

    Returns
    -------
    RowConstraint

    Examples
    --------
    >>> from rainbowdp import builders
    >>> c = loss_cap(builders.count_path(2), 0.5, loss="absolute")
    >>> c.A.toarray()[0].tolist(), c.upper.tolist()
    ([0.0, 1.0, 2.0], [0.5, 0.5, 0.5])
    """
    g = check_graph(G, "G")
    n, q = g.n_nodes, g.n_outputs
    if isinstance(loss, str):
        if loss not in ("absolute", "squared"):
            raise ParameterError(
                "`loss` must be 'absolute', 'squared', a callable loss(output, answer) or an "
                f"({n}, {q}) array, got loss={loss!r}."
            )
        v, a = numeric_answers(g, f"`loss_cap` with loss={loss!r}")
        diff = v[None, :] - a[:, None]
        L = np.abs(diff) if loss == "absolute" else diff * diff
        label = loss
    elif callable(loss):
        numeric_answers(g, f"`loss_cap` with loss={loss!r}")
        L = answers_loss(g, loss, f"`loss`={loss!r}")
        label = getattr(loss, "__name__", "callable")
    else:
        L = real_array(loss, "loss")
        if L.shape != (n, q):
            raise ParameterError(
                f"`loss` must have shape ({n}, {q}) (nodes, outputs), got shape {L.shape}."
            )
        label = "array"
    if not np.all(np.isfinite(L)):
        i, j = _first_bad(~np.isfinite(L))
        raise ParameterError(f"`loss` must be finite, got loss[{i}, {j}]={float(L[i, j])!r}.")
    if isinstance(cap, str | bytes):
        raise ParameterTypeError(f"`cap` must be a number or an (N,) array, got cap={cap!r}.")
    c = real_array(cap, "cap")
    c = np.broadcast_to(c, (n,)) if c.ndim == 0 else c
    if c.shape != (n,) or not np.all(np.isfinite(c)):
        raise ParameterError(
            f"`cap` must be a finite number or a finite array of shape ({n},), got cap={cap!r}."
        )
    sel = _selected(g, nodes)
    A = _dense_rows(sel, L)
    return RowConstraint(A, np.full(n, -math.inf), _rows(sel, c, math.inf), f"loss_cap({label})")


def _reach(value: Any, name: str, n: int) -> np.ndarray:
    if value is None:
        return np.full(n, math.inf)
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        return np.full(n, float(check_int(value, name, minimum=0)))
    if isinstance(value, str | bytes | bool) or np.ndim(value) == 0:
        raise ParameterTypeError(
            f"`{name}` must be an integer >= 0, None or an array of shape ({n},), got "
            f"{name}={value!r}."
        )
    arr = real_array(value, name)
    if arr.shape != (n,) or np.isnan(arr).any() or np.any(arr < 0):
        raise ParameterError(
            f"`{name}` as an array must have shape ({n},) and entries >= 0 (inf for unbounded), "
            f"got {name}={value!r}."
        )
    return arr


def support(
    G: RainbowGraph,
    below: int | Sequence[float] | np.ndarray | None,
    above: int | Sequence[float] | np.ndarray | None,
    *,
    nodes: Iterable | None = None,
) -> RowConstraint:
    r"""The constraint :math:`P_d(v) = 0` unless :math:`a(d) - \text{below} \le v \le a(d) +
    \text{above}`.

    Parameters
    ----------
    G : RainbowGraph
        A graph with numeric outputs and true answers ``G.answers``.
    below, above : int >= 0, None, or array_like of shape (N,)
        How far below and above the true answer an output may be; ``None`` (or ``inf`` in an
        array) for no limit. Arrays give one reach per node (``G.nodes`` order).
    nodes : iterable of nodes, optional
        The constrained nodes (default all).

    Returns
    -------
    RowConstraint
        A = 1 on the forbidden outputs, ``upper`` = 0 (the designers turn such rows into
        probabilities fixed at 0, without a model row).

    Examples
    --------
    >>> from rainbowdp import builders
    >>> c = support(builders.count_path(3), 0, 1)
    >>> c.A.toarray().astype(int).tolist()
    [[0, 0, 1, 1], [1, 0, 0, 1], [1, 1, 0, 0], [1, 1, 1, 0]]
    """
    g = check_graph(G, "G")
    n = g.n_nodes
    lo_r, hi_r = _reach(below, "below", n), _reach(above, "above", n)
    v, a = numeric_answers(g, "`support`")
    sel = _selected(g, nodes)
    out = (v[None, :] < (a - lo_r)[:, None]) | (v[None, :] > (a + hi_r)[:, None])
    A = _dense_rows(sel, out.astype(np.float64))
    scalar = all(r is None or np.ndim(r) == 0 for r in (below, above))
    label = f"support(below={below!r}, above={above!r})" if scalar else "support"
    return RowConstraint(A, _rows(sel, 0.0, -math.inf), _rows(sel, 0.0, math.inf), label)


# ---------------------------------------------------------------------------------- designers
def check_constraints(G: RainbowGraph, constraints: Any) -> list[RowConstraint]:
    """Validate the ``constraints`` argument: ``None`` or a sequence of
    :class:`~rainbowdp.design.RowConstraint` whose shapes match ``G``."""
    if constraints is None:
        return []
    if isinstance(constraints, str | bytes) or not isinstance(constraints, Sequence):
        raise ParameterTypeError(
            "`constraints` must be a sequence of RowConstraint (a list or tuple), got "
            f"constraints={constraints!r}."
        )
    n, q = G.n_nodes, G.n_outputs
    out = []
    for i, c in enumerate(constraints):
        if not isinstance(c, RowConstraint):
            raise ParameterTypeError(
                f"`constraints[{i}]` must be a RowConstraint, got constraints[{i}]={c!r}."
            )
        if c.A.shape != (n, q):
            raise ParameterError(
                f"`constraints[{i}]` ({c.name!r}) has A of shape {c.A.shape}, but the graph needs "
                f"({n}, {q}) (nodes, outputs): constraints[{i}]={c!r}."
            )
        out.append(c)
    return out


class SideRows(NamedTuple):
    """The constraints as the model sees them (see :func:`prepare_constraints`)."""

    #: (N, q) bool: free probabilities the constraints force to 0 (constants, not variables).
    zero: np.ndarray
    #: (R,) node and constraint index of every model row; (R, q) CSR coefficients; (R,) bounds.
    node: np.ndarray
    which: np.ndarray
    A: sparse.csr_array
    lower: np.ndarray
    upper: np.ndarray


def _infeasible_zero_row(
    G: RainbowGraph, c: RowConstraint, i: int, d: int, lo: float, hi: float, why: str
) -> InfeasibleDesignError:
    return InfeasibleDesignError(
        f"`constraints[{i}]` ({c.name!r}) cannot hold at node {G.nodes[d]!r}: {why}, and its "
        f"bounds [{lo:g}, {hi:g}] exclude 0."
    )


def prepare_constraints(
    G: RainbowGraph,
    constraints: Sequence[RowConstraint],
    fixed_mask: np.ndarray,
    fixed_values: np.ndarray,
    lower: np.ndarray,
    tied: np.ndarray | None,
) -> SideRows:
    """Check the fixed rows, turn support rows into zero probabilities, collect the others.

    Raises :class:`InfeasibleDesignError` naming the node and the constraint when a fixed row
    violates a constraint (beyond :data:`FIXED_TOL` times the row's absolute sum), when a row
    cannot hold whatever the probabilities, or when the forced zeros contradict ``bounds`` or
    leave a node no output. With a tying map, a variable one of whose probabilities is forced
    to 0 is 0 for all of them.
    """
    n, q = fixed_values.shape
    free = ~fixed_mask
    zero = np.zeros((n, q), dtype=bool)
    kept: list[tuple[int, np.ndarray, sparse.csr_array]] = []
    for i, c in enumerate(constraints):
        A, lo, hi = c.A, c.lower, c.upper
        act = c.active
        fx = np.flatnonzero(act & fixed_mask)
        if fx.size:
            val = c.values(fixed_values)[fx]  # fixed_values is 0 off the fixed rows
            tol = FIXED_TOL * c.scale()[fx]
            bad = (val < lo[fx] - tol) | (val > hi[fx] + tol)
            if bad.any():
                k = int(np.flatnonzero(bad)[0])
                d = int(fx[k])
                raise InfeasibleDesignError(
                    f"the fixed row of node {G.nodes[d]!r} violates `constraints[{i}]` "
                    f"({c.name!r}): sum_v A[d, v] P_d(v) = {val[k]:.17g} is outside "
                    f"[{lo[d]:g}, {hi[d]:g}]; no mechanism satisfies `fixed` and `constraints`."
                )
        fr = np.flatnonzero(act & free)
        if not fr.size:
            continue
        Af = A[fr]
        nnz = np.diff(Af.indptr)
        empty = nnz == 0
        for k in np.flatnonzero(empty & ((lo[fr] > 0) | (hi[fr] < 0))).tolist():
            d = int(fr[k])
            raise _infeasible_zero_row(G, c, i, d, lo[d], hi[d], "its row of A is 0")
        rowmin = np.zeros(fr.size)
        if Af.nnz:
            starts = Af.indptr[:-1][~empty]
            rowmin[~empty] = np.minimum.reduceat(Af.data, starts)
        supp = ~empty & (hi[fr] == 0) & (lo[fr] <= 0) & (rowmin > 0)
        if supp.any():
            Az = Af[np.flatnonzero(supp)]
            rows = np.repeat(fr[supp], np.diff(Az.indptr))
            zero[rows, Az.indices] = True
        rest = ~empty & ~supp
        if rest.any():
            kept.append((i, fr[rest], Af[np.flatnonzero(rest)]))
    if tied is not None and zero.any():
        zero[free] |= np.isin(tied[free], np.unique(tied[zero]))
    if zero.any():
        clash = zero & (lower > 0)
        if clash.any():
            d, v = _first_bad(clash)
            raise InfeasibleDesignError(
                f"`constraints` force P_d(v) = 0 at node {G.nodes[d]!r}, output "
                f"{G.outputs[v]!r}, but `bounds` ask for at least {lower[d, v]:g}."
            )
        none = free & zero.all(axis=1)
        if none.any():
            d = int(np.flatnonzero(none)[0])
            raise InfeasibleDesignError(
                f"`constraints` forbid every output at node {G.nodes[d]!r}: no distribution "
                "remains."
            )
    node_parts, which_parts, A_parts, lo_parts, hi_parts = [], [], [], [], []
    for i, rows, Ak in kept:
        c = constraints[i]
        if zero.any():  # drop the terms of probabilities that are 0
            r = np.repeat(rows, np.diff(Ak.indptr))
            Ak = Ak.copy()
            Ak.data[zero[r, Ak.indices]] = 0.0
            Ak.eliminate_zeros()
            empty = np.diff(Ak.indptr) == 0
            bad = empty & ((c.lower[rows] > 0) | (c.upper[rows] < 0))
            if bad.any():
                d = int(rows[np.flatnonzero(bad)[0]])
                raise _infeasible_zero_row(
                    G, c, i, d, c.lower[d], c.upper[d], "it involves only forced zeros"
                )
            keep = np.flatnonzero(~empty)
            rows, Ak = rows[keep], Ak[keep]
        node_parts.append(rows)
        which_parts.append(np.full(rows.size, i))
        A_parts.append(Ak)
        lo_parts.append(c.lower[rows])
        hi_parts.append(c.upper[rows])
    if A_parts:
        A_all = sparse.csr_array(sparse.vstack(A_parts, format="csr"))
        cat = np.concatenate
        return SideRows(
            zero, cat(node_parts), cat(which_parts), A_all, cat(lo_parts), cat(hi_parts)
        )
    empty_i = np.empty(0, dtype=np.intp)
    return SideRows(zero, empty_i, empty_i, sparse.csr_array((0, q)), np.empty(0), np.empty(0))


def constrained_columns(
    mb: ArrayModel,
    fixed_mask: np.ndarray,
    fixed_values: np.ndarray,
    lower: np.ndarray,
    upper: np.ndarray,
    tied: np.ndarray | None,
    side: SideRows | None,
) -> Columns:
    """The probability variables of a model, the constraints' forced zeros left out and their
    rows added (:func:`add_constraint_rows`); ``side=None`` for a model without constraints."""
    zero = None if side is None else side.zero
    cols = probability_variables(mb, fixed_mask, fixed_values, lower, upper, tied, zero)
    if side is not None:
        add_constraint_rows(mb, cols, side)
    return cols


def add_constraint_rows(mb: ArrayModel, cols: Columns, side: SideRows) -> None:
    """Add the model rows of the constraints on free nodes.

    A row with equal finite bounds is an equality, otherwise one row per finite side. Tied
    columns repeated in a row are merged; with orbit merging, identical rows are kept once.
    """
    A = side.A
    R = A.shape[0]
    if R == 0:
        return
    nnz = np.diff(A.indptr)
    rr = np.repeat(np.arange(R), nnz)
    pos = np.arange(A.nnz) - A.indptr[:-1][rr]
    idx = -np.ones((R, int(nnz.max())), dtype=np.intp)
    coef = np.zeros(idx.shape)
    idx[rr, pos] = cols.col[side.node[rr], A.indices]
    coef[rr, pos] = A.data
    lo, hi, node, which = side.lower, side.upper, side.node, side.which
    if cols.tied:
        idx, coef = merge_repeats(idx, coef)
    if cols.merge_orbits:
        key = np.column_stack([idx.astype(np.float64), coef, lo, hi])
        keep = np.sort(np.unique(key, axis=0, return_index=True)[1])
        idx, coef, lo, hi, node, which = (z[keep] for z in (idx, coef, lo, hi, node, which))
    eq = lo == hi
    ge = np.isfinite(lo) & ~eq
    le = np.isfinite(hi) & ~eq
    for tag, m, sense, rhs in (
        ("eq", eq, EQ, lo),
        ("ge", ge, GE, lo),
        ("le", le, LE, hi),
    ):
        if m.any():
            mb.add_rows((f"side_{tag}", which[m], node[m]), idx[m], coef[m], sense, rhs[m])


def violation(
    G: RainbowGraph, constraints: Sequence[RowConstraint], P: np.ndarray, tol: float = RESULT_TOL
) -> str | None:
    """``None`` if ``P`` meets every constraint within ``tol`` times each row's absolute sum,
    else a sentence naming the first constraint and node that fail."""
    for i, c in enumerate(constraints):
        act = c.active
        if not act.any():
            continue
        val = c.values(P)
        t = tol * c.scale()
        bad = act & ((val < c.lower - t) | (val > c.upper + t))
        if bad.any():
            d = int(np.flatnonzero(bad)[0])
            return (
                f"`constraints[{i}]` ({c.name!r}) at node {G.nodes[d]!r}: sum_v A[d, v] P_d(v) = "
                f"{val[d]:.17g} is outside [{c.lower[d]:g}, {c.upper[d]:g}] by more than "
                f"{t[d]:.3g}"
            )
    return None


def _candidates(
    sol: tuple, G: RainbowGraph, fixed_mask: np.ndarray, fixed_values: np.ndarray
) -> Iterable[np.ndarray]:
    """The solver's point, its refinement to full precision, and that with near-equal
    neighbouring rows snapped together (for ε = 0) -- never a mix with the uniform."""
    mb, col, _, P = sol[:4]
    yield P
    try:
        x = mb.refine()
    except (ValueError, np.linalg.LinAlgError):  # pragma: no cover - numerical failure
        x = None
    R = None
    if x is not None and np.all(np.isfinite(x)):
        R = _model.extract(mb, col, fixed_mask, fixed_values, x)
        yield R
    yield snap_equal_rows(G, P if R is None else R, fixed_mask)


def solve_within_constraints(
    G: RainbowGraph,
    solve: Callable[[float], tuple],
    constraints: Sequence[RowConstraint],
    fixed_mask: np.ndarray,
    fixed_values: np.ndarray,
    private: Callable[[np.ndarray], bool],
    *,
    what: str,
) -> tuple[float, tuple, np.ndarray]:
    """The constraint-aware repair: re-solve at larger safety margins instead of mixing.

    ``solve(rel)`` builds and solves the model at the relative margin ``rel``
    (:func:`~rainbowdp.design._model.safety_margin`) and returns ``(mb, col, outcome, P, ...)``.
    For each margin of :data:`~rainbowdp.design._model.CONSTRAINED_MARGINS` the candidates of
    :func:`_candidates` are tried; the first that ``private`` proves and that meets every
    constraint within :data:`RESULT_TOL` is returned as ``(rel, solve(rel), P)``. If a margin
    makes the model infeasible, the requested parameters (``rel=0``) are tried last.
    Raises :class:`NotPrivateError` saying why every attempt failed.
    """
    reasons: list[str] = []
    margins = list(CONSTRAINED_MARGINS)
    k = 0
    while k < len(margins):
        rel = margins[k]
        try:
            sol = solve(rel)
        except InfeasibleDesignError:
            if rel == 0 and not reasons:
                raise
            if rel > 0:  # parameters at the limit: the requested ones, as a last attempt
                if reasons:
                    reasons.append(f"at margin {rel:g} the model is infeasible")
                margins, k = [0.0], 0
                continue
            reasons.append("at the requested parameters the model is infeasible")
            break
        why = ""
        for P in _candidates(sol, G, fixed_mask, fixed_values):
            why = violation(G, constraints, P) or ("" if private(P) else f"not proved {what}")
            if not why:
                return rel, sol, P
        reasons.append(f"at margin {rel:g}: {why}")
        k += 1
    raise NotPrivateError(
        f"no solution proved {what} and meeting `constraints` within {RESULT_TOL:g} was found "
        f"({'; '.join(reasons)}). With `constraints` the free rows are not mixed with the "
        "uniform distribution (that would break them); loosen the constraints slightly or try "
        "the other solver."
    )
