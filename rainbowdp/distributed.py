r"""Verification over edge arrays too large for one machine's memory, with Dask.

A mechanism on a rainbow graph is (ε, δ)-DP when every edge is (ε, δ)-close (Gu et al.,
Definition 2), so the privacy numbers of a graph are maxima over its edges. This module splits
the edge array of shape (E, 2) into chunks along E, runs the library's own cores on each chunk
(:mod:`rainbowdp.privacy`), and reduces the answers with maxima:

* :func:`verify` -- the verdict at (ε, δ), the sound ``delta_required``, the worst edge with
  its witness event and the number of violating edges (a :class:`DistributedReport`: a
  :class:`rainbowdp.VerificationReport` without the per-edge array);
* :func:`privacy_profile` -- δ(ε) at each ε;
* :func:`epsilon_for_delta` -- the proved smallest ε at δ.

The probability array P (N × q, one row per node) must fit in memory: it is checked once and
shared with the workers once (broadcast to every worker of a ``dask.distributed`` cluster, one
key of the graph otherwise). The edges may be a Dask array, a ``.npy`` file (or a list of
them, concatenated), a NumPy array or memmap, or a zarr array; files and memmaps are read by
the tasks themselves, chunk by chunk, so on a cluster they must sit on storage every worker
can read. Each chunk is checked (shape (E, 2), integer dtype, indices in ``range(N)``) before
any work; a bad edge raises :class:`~rainbowdp.exceptions.ParameterError` naming its row.

**The numbers are the in-memory ones.** Chunks are cut at multiples of the float kernel's block
(:data:`rainbowdp._verify.kernels.CHUNK_ELEMENTS` // q rows), so every float divergence is the one
:func:`rainbowdp.verify` computes. Then:

* ``delta_required`` is bit for bit that of :func:`rainbowdp.verify`: each chunk keeps the
  directed pairs that may attain the maximum (within 2η of the largest float divergence, η the
  rigorous float error bound of :func:`rainbowdp._verify.exact.float_error`, minus those proved 0),
  the reduction keeps those within 2η of the global maximum, and
  :func:`rainbowdp._verify.exact.delta_upper` is run on exactly the pairs the in-memory call would
  recompute: the smallest float at least the exact maximum, or its rigorous float bound when
  more than :data:`rainbowdp._verify.exact.EXACT_WORK` entries tie.
* ``worst_edge``, ``witness``, ``n_violations`` and ``is_private`` are those of
  :func:`rainbowdp.verify` (the first edge attaining the largest float divergence; violations
  summed over chunks).
* :func:`privacy_profile` is the maximum over chunks of the core of
  :func:`rainbowdp.privacy_profile` on each chunk. Each chunk's value is at least its exact
  δ(ε), so the maximum is at least the exact δ(ε) of the graph; it equals the in-memory value
  whenever each chunk's near-ties fit the exact budget (then every chunk value is the smallest
  float at least its exact maximum). Otherwise both are rigorous bounds within 2η of the exact
  value.
* :func:`epsilon_for_delta` is the maximum over chunks of the core of
  :func:`rainbowdp.epsilon_for_delta`: each chunk's ε̂ is proved for its edges, i.e.
  :math:`H_{L}(P_u\|P_v) \le \delta` for a rational :math:`L \le e^{\hat\epsilon}`, and
  :math:`x \mapsto H_x` is non-increasing, so the largest ε̂ proves every edge. It is also checked
  that the rational bound L at the maximum is at least that of every chunk's value (raising it by
  ulps otherwise), so the library's exact re-check (:func:`rainbowdp.certify`) confirms it.
  The value equals the in-memory one unless near-ties make the in-memory call raise a float
  estimate (both are then proved, and within about :math:`10^{-10}\max(1, \epsilon)` of the
  exact ε).

Dask is an optional dependency (``pip install "rainbowdp[distributed]"``); importing this module
does not import it.

Examples
--------
>>> import numpy as np
>>> from rainbowdp import distributed
>>> P = np.array([[0.5, 0.5], [0.55, 0.45], [0.6, 0.4]])
>>> edges = np.array([[0, 1], [1, 2]])
>>> r = distributed.verify(P, edges, epsilon=0.05, outputs=["yes", "no"])
>>> r.is_private, round(r.delta_required, 6), r.worst_edge, r.witness
(False, 0.029492, (1, 2), ('no',))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ._dask_io import (
    DEFAULT_CHUNK_EDGES,
    Rows,
    active_client,
    as_dask_edges,
    check_bool,
    check_outputs,
    check_probabilities,
    check_scheduler,
    checked_block,
    map_reduce,
    shared,
)
from ._validation import (
    check_delta,
    check_deltas,
    check_epsilon,
    check_epsilons,
    check_int,
    check_nonnegative_float,
)
from ._verify.delta import profile_core
from ._verify.epsilon import epsilon_core
from ._verify.exact import (
    EXACT_WORK,
    GROUP_BAND_MAX,
    ExpEnclosure,
    band_pairs,
    compare_exp,
    delta_upper,
    enclose_exp,
    float_at_most,
    float_error,
)
from ._verify.kernels import directed_divergences, float_error_bound, scaled_product
from ._verify.report import report_dict, report_text

__all__ = [
    "DEFAULT_CHUNK_EDGES",
    "DistributedReport",
    "epsilon_for_delta",
    "privacy_profile",
    "verify",
]


# ---------------------------------------------------------------------- verify
@dataclass(frozen=True)
class DistributedReport:
    r"""Result of :func:`verify`: :class:`rainbowdp.VerificationReport` without the per-edge
    array.

    Attributes
    ----------
    is_private : bool
        No edge has a float divergence above ``delta + tolerance``.
    epsilon, delta : float
        The parameters checked.
    delta_required : float
        :math:`\max_{d \sim d'} \max\{H(P_d\|P_{d'}), H(P_{d'}\|P_d)\}`, the smallest δ at this
        ε, as the smallest float at least the exact value (bit for bit
        ``rainbowdp.verify(...).delta_required`` of the same edges).
    worst_edge : tuple of int or None
        Row indices ``(d, d')`` of the first edge attaining the largest float divergence,
        ordered so that :math:`P_d(S) - e^\epsilon P_{d'}(S)` is the maximum; ``None`` without
        edges.
    witness : tuple
        The event S (outputs, or their column indices) attaining it on ``worst_edge``.
    tolerance : float
        The user's ``tol`` plus :func:`rainbowdp.privacy.float_error_bound`.
    n_violations : int
        Number of edges whose float divergence exceeds ``delta + tolerance``.
    n_edges : int
        Number of edges checked.
    n_chunks : int
        Number of chunks (tasks) the edges were split into.
    """

    is_private: bool
    epsilon: float
    delta: float
    delta_required: float
    worst_edge: tuple | None
    witness: tuple
    tolerance: float
    n_violations: int
    n_edges: int
    n_chunks: int

    def __str__(self) -> str:
        return report_text(self) + f" ({self.n_edges} edges in {self.n_chunks} chunks)"

    def to_dict(self) -> dict[str, Any]:
        """The report as plain Python: the keys of
        :meth:`rainbowdp.VerificationReport.to_dict` (``is_private``, ``epsilon``, ``delta``,
        ``delta_required``, ``worst_edge``, ``witness``, ``n_violations``, ``tolerance``,
        ``n_edges``) and ``n_chunks``.

        Examples
        --------
        >>> import numpy as np
        >>> r = verify(np.array([[0.6, 0.4], [0.4, 0.6]]), np.array([[0, 1]]), epsilon=0.5)
        >>> d = r.to_dict()
        >>> d["is_private"], d["worst_edge"], d["n_edges"], d["n_chunks"]
        (True, [0, 1], 1, 1)
        """
        return report_dict(self) | {"n_edges": int(self.n_edges), "n_chunks": int(self.n_chunks)}


@dataclass
class _VerifyPart:
    """What one chunk (or a merge of chunks) contributes to :func:`verify`.

    ``cand_*`` are the directed pairs (a, b) not proved 0 whose float divergence is within 2η
    of ``h_max`` (the pairs :func:`rainbowdp._verify.exact.delta_upper` recomputes exactly), the
    ``cap`` largest of them; ``complete`` says whether they are all of them.
    """

    n_edges: int
    n_violations: int
    h_max: float
    worst_index: int
    worst_pair: tuple[int, int]
    cand_a: np.ndarray
    cand_b: np.ndarray
    cand_h: np.ndarray
    complete: bool


def _floor(h_max: float, eta: Fraction) -> float:
    """The lower end of the band of :func:`rainbowdp._verify.exact.delta_upper`."""
    return float_at_most(Fraction(h_max) - 2 * eta)


def _top(a: np.ndarray, b: np.ndarray, h: np.ndarray, cap: int) -> tuple[np.ndarray, ...]:
    if h.size <= cap:
        return a, b, h
    keep = np.argpartition(-h, cap - 1)[:cap]
    return a[keep], b[keep], h[keep]


def _verify_block(
    rows: Rows,
    block: np.ndarray,
    start: int,
    enc: ExpEnclosure,
    one_way: bool,
    threshold: float,
    eta: Fraction,
    cap: int,
) -> _VerifyPart:
    p = rows.p
    e = checked_block(block, p.shape[0], start)
    n = e.shape[0]
    if n == 0:
        empty = np.zeros(0, dtype=np.intp)
        return _VerifyPart(0, 0, -math.inf, -1, (0, 0), empty, empty, np.zeros(0), True)
    fwd, bwd = directed_divergences(p, e, enc.m, enc.k, one_way=one_way)
    h = np.maximum(fwd, bwd)
    w = int(np.argmax(h))
    h_max = float(h[w])
    u, v = int(e[w, 0]), int(e[w, 1])
    if bwd[w] > fwd[w]:
        u, v = v, u
    a, b, _, hh = band_pairs(p, e, enc, fwd, bwd, _floor(h_max, eta), h)
    complete = hh.size <= cap
    a, b, hh = _top(a, b, hh, cap)
    return _VerifyPart(
        n, int(np.count_nonzero(h > threshold)), h_max, start + w, (u, v), a, b, hh, complete
    )


def _merge_verify(parts: list[_VerifyPart], eta: Fraction, cap: int) -> _VerifyPart:
    """Merge partial results of :func:`_verify_block`, keeping its invariants."""
    live = [x for x in parts if x.n_edges]
    n_edges = sum(x.n_edges for x in parts)
    n_viol = sum(x.n_violations for x in parts)
    if not live:
        return parts[0]
    # the first edge with the largest float divergence, as np.argmax over all edges
    best = max(live, key=lambda x: (x.h_max, -x.worst_index))
    floor = _floor(best.h_max, eta)
    complete = True
    a, b, hh = [], [], []
    for x in live:
        keep = x.cand_h >= floor
        if not x.complete and keep.all():
            complete = False  # this part alone holds `cap` pairs of the band, or more
        a.append(x.cand_a[keep])
        b.append(x.cand_b[keep])
        hh.append(x.cand_h[keep])
    ca, cb, ch = np.concatenate(a), np.concatenate(b), np.concatenate(hh)
    complete = complete and ch.size <= cap
    ca, cb, ch = _top(ca, cb, ch, cap)
    return _VerifyPart(
        n_edges, n_viol, best.h_max, best.worst_index, best.worst_pair, ca, cb, ch, complete
    )


def verify(
    probabilities: Any,
    edges: Any,
    *,
    epsilon: float,
    delta: float = 0.0,
    tol: float = 0.0,
    directed: bool = False,
    outputs: Sequence[Any] | None = None,
    chunk_size: int | None = None,
    scheduler: Any = None,
) -> DistributedReport:
    r"""Check (ε, δ)-DP on every edge of an edge array too large for memory, with Dask.

    The same check as :func:`rainbowdp.verify` (Gu et al., Definition 2: both hockey-stick
    divergences of every edge at most δ), chunk by chunk; see the module notes for why the
    numbers are the in-memory ones.

    Parameters
    ----------
    probabilities : array_like, shape (N, q)
        Row d is the output distribution of node d (finite, non-negative, summing to 1 within
        1e-9, as in :class:`rainbowdp.Mechanism`). Held in memory and shared with the workers
        once.
    edges : dask array, str or path, list of paths, numpy array or memmap, or zarr array
        The edges (E, 2) as row indices of ``probabilities`` (any integer dtype). A path names a
        ``.npy`` file (a list of paths: their rows one after the other); files and memmaps are
        read by the tasks, so on a cluster they must be on storage all workers can read.
    epsilon : float
        ε >= 0 (any finite value).
    delta : float, default 0
        δ in [0, 1].
    tol : float, default 0
        Extra absolute slack on δ; :func:`rainbowdp.privacy.float_error_bound` is always added.
    directed : bool, default False
        Whether ``edges`` are one-way arcs (u, v) of a directed graph, constraining
        :math:`P_u(S) \le e^\epsilon P_v(S) + \delta` only.
    outputs : sequence, optional
        Labels of the q columns, used for ``witness`` (default: column indices).
    chunk_size : int, optional
        Edges per task. Default: a dask array keeps its chunks (rounded up to multiples of
        ``CHUNK_ELEMENTS // q`` rows, so that the floats are the in-memory ones), other inputs
        get :data:`DEFAULT_CHUNK_EDGES` rounded down to such a multiple. A value given is used
        as it is.
    scheduler : None, str or dask.distributed.Client, optional
        Where to run: None for the active ``dask.distributed`` client if there is one, else
        Dask's default (threads); a Dask scheduler name (``"threads"``, ``"synchronous"``,
        ``"processes"``); or a ``Client``.

    Returns
    -------
    DistributedReport

    Raises
    ------
    ParameterError
        On a bad ε, δ or ``tol``, rows that are not distributions, edges of another shape or
        with an index outside ``range(N)`` (naming the edge's row).
    ParameterTypeError
        On edges that are not integers, or arguments of the wrong type.
    ImportError
        Without Dask.

    Examples
    --------
    >>> import numpy as np
    >>> P = np.array([[0.5, 0.5], [0.55, 0.45], [0.6, 0.4]])
    >>> r = verify(P, np.array([[0, 1], [1, 2]]), epsilon=math.log(1.2))
    >>> r.is_private, r.delta_required, r.n_edges
    (True, 0.0, 2)
    >>> print(verify(P, np.array([[0, 1], [1, 2]]), epsilon=0.05, chunk_size=1))
    (0.05, 0)-DP: NOT private; delta required at this epsilon = 0.0294916 on edge 1 -> 2 with
    event {1}; 2 violating edge(s) (2 edges in 2 chunks)
    """
    p = check_probabilities(probabilities)
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    n_q = p.shape[1]
    slack = check_nonnegative_float(tol, "tol") + float_error_bound(n_q)
    one_way = check_bool(directed, "directed")
    labels = check_outputs(outputs, n_q)
    size = None if chunk_size is None else check_int(chunk_size, "chunk_size", minimum=1)
    scheduler = check_scheduler(scheduler)
    arr = as_dask_edges(edges, n_q, size)
    n_chunks = len(arr.chunks[0])
    if arr.shape[0] == 0:
        return DistributedReport(True, eps, dlt, 0.0, None, (), slack, 0, 0, n_chunks)
    enc = enclose_exp(eps)
    eta = float_error(p, enc)
    # one pair more than delta_upper classes or computes exactly: a set cut at the top `cap`
    # pairs by float value then holds more band pairs than that, and delta_upper reports its
    # rigorous float bound, as on all the edges; a complete set gives delta_upper's own value
    cap = max(GROUP_BAND_MAX, EXACT_WORK // n_q) + 1
    client = active_client(scheduler)
    part = map_reduce(
        arr,
        shared(p, client),
        (_verify_block, (enc, one_way, dlt + slack, eta, cap)),
        (_merge_verify, (eta, cap)),
        client if client is not None else scheduler,
    )
    arcs = np.stack([part.cand_a, part.cand_b], axis=1)
    worst = delta_upper(p, arcs, enc, part.cand_h, np.full(part.cand_h.shape, -np.inf))
    u, v = part.worst_pair
    # S* = {w : P_u(w) > e^eps P_v(w)}, decided exactly (float only inside a 2^-190 window)
    yes, no = compare_exp(p[u], p[v], enc)
    s_mask = yes | (~no & (p[u] > scaled_product(p[v], enc.m, enc.k)))
    return DistributedReport(
        is_private=part.n_violations == 0,
        epsilon=eps,
        delta=dlt,
        delta_required=worst,
        worst_edge=(u, v),
        witness=tuple(o for o, keep in zip(labels, s_mask, strict=True) if keep),
        tolerance=slack,
        n_violations=part.n_violations,
        n_edges=part.n_edges,
        n_chunks=n_chunks,
    )


# ---------------------------------------------------------------------- profile, epsilon
def _profile_block(
    rows: Rows, block: np.ndarray, start: int, one_way: bool, eps: np.ndarray
) -> np.ndarray:
    p = rows.p
    e = checked_block(block, p.shape[0], start)
    if e.shape[0] == 0:
        return np.zeros(eps.shape)
    return profile_core(p, e, one_way, eps)


def _epsilon_block(
    rows: Rows, block: np.ndarray, start: int, one_way: bool, deltas: tuple[float, ...]
) -> np.ndarray:
    p = rows.p
    e = checked_block(block, p.shape[0], start)
    if e.shape[0] == 0:
        return np.zeros((1, len(deltas)))
    return np.array([[epsilon_core(p, e, one_way, d) for d in deltas]])


def _merge_max(parts: list[np.ndarray]) -> np.ndarray:
    """Elementwise maximum of the partial arrays."""
    return np.max(np.stack(parts), axis=0)


def _merge_stack(parts: list[np.ndarray]) -> np.ndarray:
    """The partial arrays (m_i, k) one under the other: every chunk's value is kept, for
    :func:`_settle_epsilon`."""
    return np.concatenate(parts, axis=0)


def _settle_epsilon(best: float, chunk_values: Sequence[float]) -> float:
    r"""``best`` (the largest chunk ε̂), raised by ulps until its rational lower bound on
    :math:`e^{\hat\epsilon}` is at least that of every chunk value: every chunk's proof
    :math:`H_{L(\hat\epsilon_c)} \le \delta` then holds at :math:`L(\text{best})` too."""
    if math.isinf(best) or best == 0.0:
        return best
    need = max(enclose_exp(v).lo for v in set(chunk_values))
    e = best
    while enclose_exp(e).lo < need:  # pragma: no cover - lo is non-decreasing in ε
        e = math.nextafter(e, math.inf)
    return e


def privacy_profile(
    probabilities: Any,
    edges: Any,
    epsilons: Sequence[float] | np.ndarray,
    *,
    directed: bool = False,
    chunk_size: int | None = None,
    scheduler: Any = None,
) -> np.ndarray:
    r"""The privacy profile :math:`\delta(\epsilon) = \max_{d\sim d'} H_{e^\epsilon}` over an
    edge array too large for memory.

    Per chunk, the core of :func:`rainbowdp.privacy_profile`; the maximum over chunks (see the
    module notes: at least the exact value, and equal to the in-memory one unless near-ties
    exceed the exact work budget of a chunk).

    Parameters
    ----------
    probabilities, edges, directed, chunk_size, scheduler
        As in :func:`verify`.
    epsilons : array_like of float
        Values ε >= 0 (finite).

    Returns
    -------
    numpy.ndarray
        δ(ε) for each ε, each the smallest float at least the exact value of its chunk's
        maximum.

    Examples
    --------
    >>> import numpy as np
    >>> P = np.array([[0.75, 0.25], [0.25, 0.75], [0.5, 0.5]])
    >>> privacy_profile(P, np.array([[0, 1], [1, 2]]), [0.0, math.log(3)]).tolist()
    [0.5, 0.0]
    """
    p = check_probabilities(probabilities)
    eps = check_epsilons(epsilons)
    one_way = check_bool(directed, "directed")
    size = None if chunk_size is None else check_int(chunk_size, "chunk_size", minimum=1)
    scheduler = check_scheduler(scheduler)
    arr = as_dask_edges(edges, p.shape[1], size)
    if arr.shape[0] == 0:
        return np.zeros(eps.shape)
    client = active_client(scheduler)
    out = map_reduce(
        arr,
        shared(p, client),
        (_profile_block, (one_way, eps)),
        (_merge_max, ()),
        client if client is not None else scheduler,
    )
    return np.asarray(out, dtype=np.float64)


def epsilon_for_delta(
    probabilities: Any,
    edges: Any,
    delta: Any,
    *,
    directed: bool = False,
    chunk_size: int | None = None,
    scheduler: Any = None,
) -> Any:
    r"""The smallest ε for which the mechanism is (ε, δ)-DP on every edge, rounded up and proved.

    Per chunk, the core of :func:`rainbowdp.epsilon_for_delta` (a proved ε̂ for the chunk's
    edges); the maximum over chunks proves every edge, since :math:`H_x` is non-increasing in
    :math:`x = e^\epsilon` (module notes).

    Parameters
    ----------
    probabilities, edges, directed, chunk_size, scheduler
        As in :func:`verify`.
    delta : float or array_like of float
        δ in [0, 1], or a 1-D array of such values.

    Returns
    -------
    float or numpy.ndarray
        A float for a number δ (``inf`` if some edge puts more than δ of mass where its
        neighbour has none); an array of the same length for an array.

    Examples
    --------
    >>> import numpy as np
    >>> P = np.array([[0.75, 0.25], [0.25, 0.75], [0.5, 0.5]])
    >>> e = epsilon_for_delta(P, np.array([[0, 1], [1, 2]]), 0.0)
    >>> 0 <= e - math.log(3) < 1e-12
    True
    >>> epsilon_for_delta(P, np.array([[0, 1], [1, 2]]), [0.5, 1.0]).tolist()
    [0.0, 0.0]
    """
    p = check_probabilities(probabilities)
    listed, scalar = check_deltas(delta)
    deltas = tuple(listed)
    one_way = check_bool(directed, "directed")
    size = None if chunk_size is None else check_int(chunk_size, "chunk_size", minimum=1)
    scheduler = check_scheduler(scheduler)
    arr = as_dask_edges(edges, p.shape[1], size)
    if arr.shape[0] == 0 or not deltas:
        out = np.zeros(len(deltas))
    else:
        client = active_client(scheduler)
        out = map_reduce(
            arr,
            shared(p, client),
            (_epsilon_block, (one_way, deltas)),
            (_merge_stack, ()),
            client if client is not None else scheduler,
        )
        out = np.array([_settle_epsilon(float(c.max()), c.tolist()) for c in np.asarray(out).T])
    return float(out[0]) if scalar else out
