r"""Privacy numbers of two distributions, or of a batch of pairs, without a graph.

The pair entry points of :func:`rainbowdp.epsilon_for_delta`, :func:`rainbowdp.privacy_profile`
and :func:`rainbowdp.hockey_stick`. A pair (P, Q) is read as a rainbow graph with two nodes and
one edge between them, and its answer is the one that graph would give, to the last bit: the
same cores of :mod:`rainbowdp.privacy` run on the rows directly, so the numbers are the rounded
up, proved ones of ``docs/verification.md``.

* **Both directions** (the default): P and Q are neighbours both ways, like an undirected edge,
  so the answer is the larger of the two directions: :math:`\delta(\epsilon) =
  \max\{H_{e^\epsilon}(P\|Q), H_{e^\epsilon}(Q\|P)\}`, and the smallest ε with both
  :math:`P(S) \le e^\epsilon Q(S) + \delta` and :math:`Q(S) \le e^\epsilon P(S) + \delta`.
* ``one_way=True``: only P relative to Q, as the arc P → Q of a directed rainbow graph
  (:class:`rainbowdp.RainbowGraph` with a ``networkx.DiGraph``): only
  :math:`P(S) \le e^\epsilon Q(S) + \delta` is required, i.e. :math:`H_{e^\epsilon}(P\|Q)`.

Accepted forms of the pairs: a tuple or list ``(P, Q)`` of two 1-D arrays of equal length, an
array of shape ``(2, q)`` (one pair), or an array of shape ``(E, 2, q)`` whose ``[i, 0]`` and
``[i, 1]`` are the P and Q of pair i (a batch: one answer per pair). Every row must be a
distribution as in :class:`rainbowdp.Mechanism` (finite, non-negative, sum 1 within 1e-9).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from ._exact import EXP_BITS, _lifted, _pred_scaled, float_at_least, int_scaled
from ._kernels import CHUNK_ELEMENTS, directed_divergences
from ._validation import check_epsilon, real_array
from .exceptions import ParameterError, ParameterTypeError
from .mechanism import ROW_ATOL
from .privacy import (
    _check_deltas,
    _check_epsilons,
    _edge_delta_upper,
    _enclose,
    _epsilon_core,
)

__all__ = ["batch_hockey_stick", "pairs_epsilon_for_delta", "pairs_privacy_profile"]

#: The one edge of a pair's two-node graph: row 0 (P) and row 1 (Q).
_EDGE = np.array([[0, 1]], dtype=np.intp)

_FORMS = "a pair (P, Q) of probability vectors, an array of shape (2, q) or (E, 2, q)"


def _check_one_way(one_way: Any) -> bool:
    if not isinstance(one_way, bool):
        raise ParameterTypeError(f"`one_way` must be a bool, got one_way={one_way!r}.")
    return one_way


def as_pairs(value: Any, name: str = "mechanism") -> tuple[np.ndarray, bool]:
    """``value`` as a C-contiguous float64 array (E, 2, q) of checked pairs, and whether it was
    a batch (an (E, 2, q) array) rather than one pair.

    Raises
    ------
    ParameterTypeError
        If the entries are not real numbers.
    ParameterError
        On another shape, P and Q of different lengths, or a row that is not a distribution.
    """
    if (
        type(value) is tuple
        and len(value) == 2
        and all(type(v) is np.ndarray and v.dtype == np.float64 and v.ndim == 1 for v in value)
        and value[0].shape == value[1].shape
        and value[0].size
    ):  # the common call, two float64 vectors: no per-item type check needed
        arr, batched = np.stack(value)[None], False
    else:
        arr, batched = _pair_array(value, name)
    flat = arr.reshape(-1, arr.shape[2])
    if flat.size == 0 or (flat.min() >= 0.0 and np.all(np.abs(flat.sum(axis=1) - 1.0) <= ROW_ATOL)):
        return arr, batched  # (a NaN fails both tests, an infinity the second)
    bad = ~np.isfinite(flat).all(axis=1) | (flat < 0).any(axis=1)
    if not bad.any():
        bad = np.abs(flat.sum(axis=1) - 1.0) > ROW_ATOL
    i = int(np.flatnonzero(bad)[0])
    where = ("P", "Q")[i % 2] + (f" of pair {i // 2}" if batched else "")
    raise ParameterError(
        f"`{name}`: {where} must be a distribution (finite, non-negative, sum 1 within "
        f"{ROW_ATOL:g}), got {flat[i].tolist()}."
    )


def _pair_array(value: Any, name: str) -> tuple[np.ndarray, bool]:
    """``value`` as a C-contiguous float64 array (E, 2, q) of real numbers (rows not yet
    checked), and whether it was a batch: the shape and type checks of :func:`as_pairs`."""
    if isinstance(value, tuple | list) and len(value) == 2:
        sizes = [np.shape(v) for v in value]
        if all(len(s) == 1 for s in sizes) and sizes[0] != sizes[1]:
            raise ParameterError(
                f"`{name}` must be a pair (P, Q) of vectors of equal length, got lengths "
                f"{sizes[0][0]} and {sizes[1][0]}."
            )
    arr = real_array(value, name)
    if arr.ndim == 2 and arr.shape[0] == 2:
        arr, batched = arr[None], False
    elif arr.ndim == 3 and arr.shape[1] == 2:
        batched = True
    else:
        raise ParameterError(
            f"`{name}` must be a Mechanism or {_FORMS}, got an array of shape {arr.shape}."
        )
    if arr.shape[2] == 0:
        raise ParameterError(f"`{name}` must have at least one output, got shape {arr.shape}.")
    return np.ascontiguousarray(arr, dtype=np.float64), batched


def _chunks(n: int, q: int) -> range:
    return range(0, n, max(1, CHUNK_ELEMENTS // q))


def pairs_epsilon_for_delta(value: Any, delta: Any, *, one_way: bool = False) -> Any:
    """:func:`rainbowdp.epsilon_for_delta` of a pair or a batch (see the module notes).

    Returns a float (one pair, one δ), an array (k,) (one pair, k values of δ), (E,) (a batch,
    one δ) or (E, k) (a batch, k values of δ).
    """
    rows, batched = as_pairs(value)
    one_way = _check_one_way(one_way)
    deltas, scalar = _check_deltas(delta)
    n = rows.shape[0]
    out = np.empty((n, len(deltas)))
    for j, dlt in enumerate(deltas):
        for i in range(n):  # one edge: solved exactly (see _epsilon_core)
            out[i, j] = _epsilon_core(rows[i], _EDGE, one_way, dlt)
    if scalar:
        out = out[:, 0]
    return out if batched else (float(out[0]) if scalar else out[0])


def _pair_profile(pair: np.ndarray, eps: np.ndarray, one_way: bool) -> np.ndarray:
    r"""(k,): δ(ε) of one pair (2, q) at each checked ε, in exact integer arithmetic.

    The exact :math:`H_L` at the lower enclosure :math:`L \le e^\epsilon` of each direction,
    as :func:`rainbowdp._exact.delta_upper` computes it for the band of near-maximal directions
    (here both), rounded up: the same float, with no float pass to choose the band."""
    encs = [_enclose(e) for e in eps.tolist()]
    q = pair.shape[1]
    if q > 16:
        # outputs proved to give a zero term at every ε (P(v) <= L P'(v), as certified_zero;
        # m_lo 2^k below every L) are left out of the exact sums, which leaves them unchanged
        lo_m = min(enc.m_lo for enc in encs)
        lo_k = min(enc.k for enc in encs)
        fwd = ~(_lifted(pair[0]) <= _pred_scaled(pair[1], lo_m, lo_k))
        bwd = ~(_lifted(pair[1]) <= _pred_scaled(pair[0], lo_m, lo_k))
        if one_way:
            bwd[:] = False
        cols = np.flatnonzero(fwd | bwd)
        ints, s = int_scaled(pair[:, cols])  # entry = int * 2^s
        a, b = ints[: cols.size], ints[cols.size :]
        f, g = fwd[cols].tolist(), bwd[cols].tolist()
    else:  # every output (short rows: no float pass)
        ints, s = int_scaled(pair)
        a, b = ints[:q], ints[q:]
        f, g = [True] * q, [not one_way] * q
    terms = [(x << EXP_BITS, y) for x, y, keep in zip(a, b, f, strict=True) if keep]
    back = [(y << EXP_BITS, x) for x, y, keep in zip(a, b, g, strict=True) if keep]
    out = np.empty(eps.shape[0])
    scale = Fraction(1 << EXP_BITS) / Fraction(2) ** s  # H = sum / scale
    for i, enc in enumerate(encs):
        lo = enc.lo_num
        best = 0
        for side in (terms, back):
            h = 0
            for x, y in side:
                t = x - y * lo
                if t > 0:
                    h += t
            best = max(best, h)
        out[i] = float_at_least(best / scale) if best else 0.0
    return out


#: Outputs up to which :func:`_profile` answers a single pair in exact integers directly.
_PAIR_EXACT_Q = 256


def _profile(rows: np.ndarray, eps: np.ndarray, one_way: bool) -> np.ndarray:
    """(E, k): per pair of ``rows`` (E, 2, q), δ(ε) at each checked ε."""
    n, q = rows.shape[0], rows.shape[2]
    if n == 1 and q <= _PAIR_EXACT_Q:
        return _pair_profile(rows[0], eps, one_way)[None]
    p = rows.reshape(2 * n, q)
    out = np.empty((n, eps.shape[0]))
    for start in _chunks(n, q):
        stop = min(n, start + max(1, CHUNK_ELEMENTS // q))
        sub = p[2 * start : 2 * stop]
        edges = np.arange(2 * (stop - start), dtype=np.intp).reshape(-1, 2)
        for j, e in enumerate(eps.tolist()):
            enc = _enclose(e)
            fwd, bwd = directed_divergences(sub, edges, enc.m, enc.k, one_way=one_way)
            out[start:stop, j] = _edge_delta_upper(sub, edges, enc, fwd, bwd)
    return out


def pairs_privacy_profile(value: Any, epsilons: Any, *, one_way: bool = False) -> np.ndarray:
    """:func:`rainbowdp.privacy_profile` of a pair (array (k,)) or a batch (array (E, k))."""
    rows, batched = as_pairs(value)
    one_way = _check_one_way(one_way)
    out = _profile(rows, _check_epsilons(epsilons), one_way)
    return out if batched else out[0]


def batch_hockey_stick(value: Any, epsilon: Any) -> np.ndarray:
    r""":math:`H_{e^\epsilon}(P_i\|Q_i)` for each pair of an (E, 2, q) batch: an array (E,)."""
    rows, batched = as_pairs(value, "p")
    if not batched:
        raise ParameterError(
            f"`p` must be a batch of shape (E, 2, q) when `q` is not given, got shape "
            f"{rows.shape[1:]}; for one pair call hockey_stick(p, q, epsilon)."
        )
    eps = np.array([check_epsilon(epsilon)])
    return _profile(rows, eps, True)[:, 0]
