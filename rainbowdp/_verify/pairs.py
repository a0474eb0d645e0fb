r"""Privacy numbers of two distributions, or of a batch of pairs, without a graph.

The pair entry points of :func:`rainbowdp.epsilon_for_delta`, :func:`rainbowdp.privacy_profile`
and :func:`rainbowdp.hockey_stick`. A pair (P, Q) is read as a rainbow graph with two nodes and
one edge between them, and its answer is the one that graph would give, to the last bit: the
same exact value, found by float classification and exact sums (:mod:`rainbowdp._verify.pair_delta`,
:mod:`rainbowdp._verify.pair_epsilon`) with the integer cores of :mod:`rainbowdp.privacy` behind
them, so the numbers are the rounded up, proved ones of ``docs/verification.md``.

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

from typing import Any, NoReturn

import numpy as np

from .._validation import check_deltas, check_epsilon, check_epsilons, real_array
from ..exceptions import ParameterError, ParameterTypeError
from ..mechanism import ROW_ATOL
from .epsilon import epsilon_core
from .exact import EXACT_WORK, edge_delta_upper, enclose
from .kernels import CHUNK_ELEMENTS, directed_divergences
from .pair_delta import LIMB_MIN, pair_delta, pair_delta_positive, pair_profile, rows_deltas
from .pair_epsilon import batch_epsilons, pair_epsilon

__all__ = ["batch_hockey_stick", "pairs_epsilon_for_delta", "pairs_privacy_profile"]

#: The one edge of a pair's two-node graph: row 0 (P) and row 1 (Q).
_EDGE = np.array([[0, 1]], dtype=np.intp)

_FORMS = "a pair (P, Q) of probability vectors, an array of shape (2, q) or (E, 2, q)"


def _check_one_way(one_way: Any) -> bool:
    if not isinstance(one_way, bool):
        raise ParameterTypeError(f"`one_way` must be a bool, got one_way={one_way!r}.")
    return one_way


def as_pairs(value: Any, name: str = "mechanism") -> tuple[np.ndarray, bool, float]:
    """``value`` as a C-contiguous float64 array (E, 2, q) of checked pairs, whether it was
    a batch (an (E, 2, q) array) rather than one pair, and its least entry (0 if empty).

    Raises
    ------
    ParameterTypeError
        If the entries are not real numbers.
    ParameterError
        On another shape, P and Q of different lengths, or a row that is not a distribution.
    """
    found = _float_pairs(value)
    arr, batched = _pair_array(value, name) if found is None else found
    flat = arr.reshape(-1, arr.shape[2])
    if flat.size == 0:
        return arr, batched, 0.0
    low = flat.min()
    if low >= 0.0 and _sums_ok(flat.sum(axis=1)):
        return arr, batched, float(low)  # (a NaN fails both tests, an infinity the second)
    _bad_rows(arr, batched, name)


def _float_pairs(value: Any) -> tuple[np.ndarray, bool] | None:
    """:func:`as_pairs`'s array for the common calls, float64 already (no per-item type
    check needed): two vectors, or an array (2, q) or (E, 2, q); ``None`` for other forms."""
    if type(value) is tuple and len(value) == 2:
        p, r = value
        if (
            type(p) is np.ndarray
            and type(r) is np.ndarray
            and p.dtype == np.float64
            and r.dtype == np.float64
            and p.ndim == 1
            and p.shape == r.shape
            and p.size
        ):
            arr = np.empty((1, 2, p.size))
            arr[0, 0] = p
            arr[0, 1] = r
            return arr, False
    elif (
        type(value) is np.ndarray
        and value.dtype == np.float64
        and value.ndim in (2, 3)
        and value.shape[-2] == 2
        and value.shape[-1]
    ):
        return np.ascontiguousarray(value if value.ndim == 3 else value[None]), value.ndim == 3
    return None


def _sums_ok(sums: np.ndarray) -> bool:
    """Whether every row sum is 1 within ``ROW_ATOL`` (one pair: on Python floats)."""
    if sums.shape[0] == 2:
        s, t = sums.tolist()
        return abs(s - 1.0) <= ROW_ATOL and abs(t - 1.0) <= ROW_ATOL
    return bool(np.all(np.abs(sums - 1.0) <= ROW_ATOL))


def _bad_rows(arr: np.ndarray, batched: bool, name: str) -> NoReturn:
    """Raise the error of :func:`as_pairs`: the first row of ``arr`` that is not a
    distribution."""
    flat = arr.reshape(-1, arr.shape[2])
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
    rows, batched, low = as_pairs(value)
    one_way = _check_one_way(one_way)
    deltas, scalar = check_deltas(delta)
    n, q = rows.shape[0], rows.shape[2]
    fast = 2 * q <= EXACT_WORK  # (longer rows: the graph path's computation, see pair_profiles)
    positive = low >= LIMB_MIN
    if scalar and not batched and fast:  # the common call: one pair, one δ
        e = pair_epsilon(rows[0], deltas[0], one_way, positive)
        return float(epsilon_core(rows[0], _EDGE, one_way, deltas[0])) if e is None else e
    out = np.empty((n, len(deltas)))
    for j, dlt in enumerate(deltas):
        if not fast:
            out[:, j] = [epsilon_core(pair, _EDGE, one_way, dlt) for pair in rows]
        elif n == 1:  # one pair: the same floats on Python numbers (no numpy calls)
            e = pair_epsilon(rows[0], dlt, one_way, positive)
            out[0, j] = epsilon_core(rows[0], _EDGE, one_way, dlt) if e is None else e
        else:
            for start in _chunks(n, q):
                sub = rows[start : start + max(1, CHUNK_ELEMENTS // q)]
                # the floats of _pair_epsilon where they decide, else the integers (one edge:
                # solved exactly, see epsilon_core): the same value either way
                for i, e in enumerate(batch_epsilons(sub, dlt, one_way)):
                    exact = e is None
                    out[start + i, j] = epsilon_core(sub[i], _EDGE, one_way, dlt) if exact else e
    if scalar:
        out = out[:, 0]
    return out if batched else (float(out[0]) if scalar else out[0])


def pair_profiles(rows: np.ndarray, eps: np.ndarray, one_way: bool, low: float = 0.0) -> np.ndarray:
    """(E, k): per pair of ``rows`` (E, 2, q), δ(ε) at each checked ε.

    The value of each pair is the graph path's (the exact :math:`H_L` of both directions,
    rounded up), from :mod:`rainbowdp._verify.pair_delta`: on Python floats for one short pair, with
    the classification vectorised otherwise. ε whose enclosure of e^ε leaves the float range
    (ε above 700) take the graph path's float kernels and exact band, and so do rows of more
    than ``EXACT_WORK / 2`` outputs (there the graph path reports its proved float bound, not
    the exact value, when the exact work exceeds its budget; the pair path gives the same).
    ``low`` is the least entry of ``rows``: one long pair whose entries are all at least
    :math:`2^{-60}` takes :func:`rainbowdp._verify.pair_delta.pair_delta_positive`."""
    n, q = rows.shape[0], rows.shape[2]
    encs = [enclose(e) for e in eps.tolist()]
    plain = [not enc.saturated and enc.k == 0 and 2 * q <= EXACT_WORK for enc in encs]
    out = np.empty((n, eps.shape[0]))
    if n <= _SORT_PAIRS and len(encs) >= _SORT_EPS and all(plain):
        for i in range(n):  # each pair's ratios sorted once for all ε
            out[i] = pair_profile(rows[i], encs, one_way)
        return out
    positive = low >= LIMB_MIN and q < 2**15  # (and row sums 1 within 1e-9)
    if n == 1 and (q <= _SHORT_Q or positive):
        by_limbs = None  # the plain ε of a long positive pair, all at once
        if positive and q > _POSITIVE_Q:
            sel = [enc for enc, ok in zip(encs, plain, strict=True) if ok]
            by_limbs = iter(pair_delta_positive(rows[0], sel, one_way))
        for j, enc in enumerate(encs):
            if not plain[j]:
                out[0, j] = _profile_exact(rows, enc.epsilon, one_way)[0]
            elif by_limbs is not None:
                out[0, j] = next(by_limbs)
            else:
                out[0, j] = pair_delta(rows[0], enc, one_way)
        return out
    for start in _chunks(n, q):
        sub = rows[start : start + max(1, CHUNK_ELEMENTS // q)]
        m = sub.shape[0]
        a = sub[:, 0] if one_way else sub.reshape(2 * m, q)
        b = sub[:, 1] if one_way else np.ascontiguousarray(sub[:, ::-1]).reshape(2 * m, q)
        for j, enc in enumerate(encs):
            if not plain[j]:
                out[start : start + m, j] = _profile_exact(sub, enc.epsilon, one_way)
                continue
            h = rows_deltas(a, b, enc)  # (rounding up is monotone: max of the rounded)
            out[start : start + m, j] = h if one_way else np.maximum(h[0::2], h[1::2])
    return out


#: Outputs up to which one pair is answered on Python floats (above, numpy classifies).
_SHORT_Q = 256
#: Values of ε from which a pair is answered from its ratios sorted once.
_SORT_EPS = 8
#: Pairs up to which each is answered so (more pairs: one vectorised pass per ε).
_SORT_PAIRS = 16
#: Outputs above which one pair with every entry at least 2^-60 is answered by
#: :func:`rainbowdp._verify.pair_delta.pair_delta_positive` (fewer numpy calls than Python loops).
_POSITIVE_Q = 48


def _profile_exact(sub: np.ndarray, e: float, one_way: bool) -> np.ndarray:
    """(m,): δ(e) of each pair of ``sub`` (m, 2, q) by the graph path's float kernels and exact
    band (:func:`rainbowdp.privacy.edge_delta_upper`)."""
    m = sub.shape[0]
    p = sub.reshape(2 * m, sub.shape[2])
    edges = np.arange(2 * m, dtype=np.intp).reshape(-1, 2)
    enc = enclose(e)
    fwd, bwd = directed_divergences(p, edges, enc.m, enc.k, one_way=one_way)
    return edge_delta_upper(p, edges, enc, fwd, bwd)


def pairs_privacy_profile(value: Any, epsilons: Any, *, one_way: bool = False) -> np.ndarray:
    """:func:`rainbowdp.privacy_profile` of a pair (array (k,)) or a batch (array (E, k))."""
    rows, batched, low = as_pairs(value)
    one_way = _check_one_way(one_way)
    out = pair_profiles(rows, check_epsilons(epsilons), one_way, low)
    return out if batched else out[0]


def batch_hockey_stick(value: Any, epsilon: Any) -> np.ndarray:
    r""":math:`H_{e^\epsilon}(P_i\|Q_i)` for each pair of an (E, 2, q) batch: an array (E,)."""
    rows, batched, _ = as_pairs(value, "p")
    if not batched:
        raise ParameterError(
            f"`p` must be a batch of shape (E, 2, q) when `q` is not given, got shape "
            f"{rows.shape[1:]}; for one pair call hockey_stick(p, q, epsilon)."
        )
    eps = np.array([check_epsilon(epsilon)])
    return pair_profiles(rows, eps, True)[:, 0]
