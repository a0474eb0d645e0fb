r"""Fused gather-and-divergence kernels, compiled with numba when it is installed.

:func:`rainbowdp._verify.kernels.directed_divergences` in numpy gathers both endpoint rows of a
chunk of edges into buffers and then makes four passes over them per direction (product,
subtraction, positive part, row sums). The kernels here read each row once from the mechanism and
form :math:`H_x(P_u\|P_v) = \sum_w \max\{P_u(w) - \mathrm{fl}(x P_v(w)), 0\}` for both directions in
the same loop, so the work is about one gather.

The roundings are those :func:`rainbowdp._verify.exact.float_error` bounds for the numpy kernel: one
rounded product per entry, one subtraction, the positive part, and a sum of q non-negative terms.
Only the order of that sum differs: the kernels are compiled with LLVM's ``reassoc`` flag so the
sum is vectorised, and any order of adding q non-negative terms errs by at most
:math:`(q-1)u` times their sum, the bound used. No other fast-math flag is set: products are not
contracted into FMAs and no NaN/infinity assumption is made. A float result is 0 exactly when
every term is (a sum of non-negative floats is 0 only if each is), so the exact-zero rule of
:mod:`rainbowdp._verify.profile` holds as for numpy.

numba is an optional dependency (extra ``fast``). Without it, or with the environment variable
``RAINBOWDP_NUMBA=0``, :func:`available` is False and the numpy kernels run. The float values of
the two paths differ by at most the error bound, and every reported number is proved by the
exact core, so both give the same certified numbers -- with two exceptions, both sound: where
:func:`rainbowdp._verify.exact.delta_upper` has more near-maximal entries than its exact-work budget
it reports the float maximum plus its error bound, which then differs in the last bits; and
among edges whose float values tie at the maximum, the worst edge reported may differ. The
kernels are compiled on first use (cached on disk by numba).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import cache
from types import ModuleType

import numpy as np

__all__ = [
    "MIN_ELEMENTS",
    "PREFETCH_AHEAD",
    "available",
    "chord_select",
    "divergences",
    "max_ratio",
    "multi_divergences",
    "near_ratios",
    "row_hash",
    "rows_equal",
    "zero_proved",
    "zero_proved_both",
]

#: Fewer entries than this (edges × outputs, rounded down to whole edges) stay on the numpy
#: path: numba is then not even imported, and small problems do not pay its import and first
#: compilation.
MIN_ELEMENTS = 1 << 16


#: Edges ahead whose rows are prefetched: the loads of a row pair are issued while an earlier
#: pair is summed, so the random reads overlap (measured best at 8-16 on 2·10^6-row mechanisms).
PREFETCH_AHEAD = 8


@cache
def _compiled() -> ModuleType | None:
    if os.environ.get("RAINBOWDP_NUMBA", "1").strip().lower() in ("0", "false", "no", "off"):
        return None
    try:
        from . import numba_kernels
    except ImportError:
        return None
    return numba_kernels


def _kernels() -> ModuleType:
    """The compiled kernels, where a caller has checked :func:`available` (or :func:`_usable`)."""
    kern = _compiled()
    if kern is None:  # pragma: no cover - callers check available() first
        raise RuntimeError("the compiled kernels are not available")
    return kern


def available() -> bool:
    """Whether the compiled kernels can run (numba importable and not switched off)."""
    return _compiled() is not None


def _usable(p: np.ndarray, n_edges: int, k: int) -> bool:
    return (
        k == 0
        and n_edges >= MIN_ELEMENTS // max(p.shape[1], 1)  # (a chunk of the profile's pass)
        and p.dtype == np.float64
        and p.flags.c_contiguous
        and available()
    )


def _ends(edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    e = edges if edges.dtype == np.intp else edges.astype(np.intp)
    return e[:, 0], e[:, 1]


def divergences(
    p: np.ndarray,
    edges: np.ndarray,
    m: float,
    k: int,
    fwd: np.ndarray,
    bwd: np.ndarray | None,
    largest: np.ndarray | None = None,
) -> bool:
    r"""Fill ``fwd`` (and ``bwd`` unless None) with :math:`H_{m 2^k}` of every edge in both
    directions, as :func:`rainbowdp._verify.kernels.directed_divergences` does, and ``largest`` (if
    given) with the larger of the two (``fwd`` where ``bwd`` is None); returns False (and
    leaves them alone) where the compiled path does not apply: numba absent or off, ``k != 0``
    (ε > 700), fewer than :data:`MIN_ELEMENTS` entries, or ``p`` not C-contiguous float64."""
    if not _usable(p, edges.shape[0], k):
        return False
    e0, e1 = _ends(edges)
    kern = _kernels()
    if bwd is None:
        kern.one_way(p, e0, e1, float(m), fwd, PREFETCH_AHEAD)
        if largest is not None:
            largest[:] = fwd
    else:
        top = np.empty(0) if largest is None else largest
        kern.two_way(p, e0, e1, float(m), fwd, bwd, top, PREFETCH_AHEAD)
    return True


def multi_divergences(
    p: np.ndarray,
    edges: np.ndarray,
    mults: list[tuple[float, int]],
    one_way: bool,
    out: np.ndarray,
) -> bool:
    r"""``out[j, i]``: the larger float divergence of the two directions of edge i (the forward
    one with ``one_way``) at the multiplier ``mults[j] = (m, k)``, every row read once for all
    multipliers; returns False where the compiled path does not apply (as :func:`divergences`;
    any ``k != 0`` counts)."""
    if any(k for _, k in mults) or not _usable(p, edges.shape[0], 0):
        return False
    e0, e1 = _ends(edges)
    xs = [float(m) for m, _ in mults]
    kern = _kernels()
    if len(xs) == 3 and p.shape[1] >= 16:  # long rows: one load per entry for all three
        kern.multi3(p, e0, e1, *xs, not one_way, out, PREFETCH_AHEAD)
    else:
        kern.multi(p, e0, e1, np.array(xs), not one_way, out, PREFETCH_AHEAD)
    return True


def zero_proved(p: np.ndarray, a: np.ndarray, b: np.ndarray, m: float, k: int) -> np.ndarray | None:
    r"""Per arc (a[i], b[i]), whether every output w has
    :math:`2^{600} P_a(w) \le \mathrm{pred}(\mathrm{fl}(m\,2^{600} P_b(w)))` -- the test of
    :func:`rainbowdp._verify.exact.certified_zero`, with the same one rounded product per entry --
    in one compiled pass that stops at the first failing output; None where the compiled path
    does not apply (as :func:`divergences`: numba absent or off, ``k != 0``, too few entries)."""
    if not _usable(p, a.shape[0], k):
        return None
    out = np.empty(a.shape[0], dtype=np.bool_)
    ia = a if a.dtype == np.intp else a.astype(np.intp)
    ib = b if b.dtype == np.intp else b.astype(np.intp)
    _kernels().zero_proved(p, ia, ib, float(m), out, PREFETCH_AHEAD)
    return out


def zero_proved_both(
    p: np.ndarray, edges: np.ndarray, m: float, k: int
) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`zero_proved` of both orders of every edge (u, v), each row read once: masks
    for (u, v) and for (v, u); None where the compiled path does not apply."""
    if not _usable(p, edges.shape[0], k):
        return None
    e0, e1 = _ends(edges)
    zf = np.empty(edges.shape[0], dtype=np.bool_)
    zb = np.empty(edges.shape[0], dtype=np.bool_)
    _kernels().zero_proved_both(p, e0, e1, float(m), zf, zb, PREFETCH_AHEAD)
    return zf, zb


def row_hash(bits: np.ndarray, mult: np.ndarray) -> np.ndarray | None:
    """``sum_j bits[i, j] * mult[j]`` modulo 2^64 per row of the uint64 array ``bits`` (N, q)
    (the row hash of :mod:`rainbowdp._verify.groups`), compiled; None where numba is absent or off
    or the array is small."""
    if bits.size < MIN_ELEMENTS or not available():
        return None
    out = np.empty(bits.shape[0], dtype=np.uint64)
    _kernels().row_hash(bits, mult, out)
    return out


def rows_equal(p: np.ndarray, rep: np.ndarray) -> np.ndarray:
    """Per row i of ``p`` (N, q), whether it equals row ``rep[i]`` entry by entry: compiled
    where numba is available (no gathered copy), numpy otherwise."""
    if p.size >= MIN_ELEMENTS and p.dtype == np.float64 and p.flags.c_contiguous and available():
        out = np.empty(p.shape[0], dtype=np.bool_)
        _kernels().rows_equal(p, rep.astype(np.intp, copy=False), out)
        return out
    return np.all(p == p[rep], axis=1)


def max_ratio(p: np.ndarray, arcs: np.ndarray) -> tuple[float, bool] | None:
    """The largest float likelihood ratio over the arcs and the outputs where the tail's
    probability is positive, and whether some output has a zero tail probability under a
    positive head one (then the pass stops early); None where the compiled path does not
    apply."""
    if not _usable(p, arcs.shape[0], 0):
        return None
    e0, e1 = _ends(arcs)
    best, infinite = _kernels().max_ratio(p, e0, e1, PREFETCH_AHEAD)
    return float(best), bool(infinite)


def near_ratios(
    p: np.ndarray, arcs: np.ndarray, cut: float
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The pairs of values (head, tail) of every arc and output with a positive tail and a
    float ratio at least ``cut``, in blocks ``(heads, tails)`` (a value equal to the one just
    before is left out; the buffers are reused: read each block before the next), compiled
    (the caller checks :func:`max_ratio` first)."""
    e0, e1 = _ends(arcs)
    cap = max(1 << 20, 2 * p.shape[1])
    buf_a, buf_b = np.empty(cap), np.empty(cap)
    start = 0
    while start < e0.shape[0]:
        start, k = _kernels().near_ratios(p, e0, e1, float(cut), start, buf_a, buf_b)
        yield buf_a[:k], buf_b[:k]


def chord_select(
    fa: np.ndarray,
    fb: np.ndarray | None,
    odd: np.ndarray | None,
    thr: float,
    lines: tuple[np.ndarray, np.ndarray] | None,
    margin: float,
) -> np.ndarray | None:
    r"""Indices of the edges of an interval of the grid that may attain one of its maxima, in
    one compiled pass; None where numba is absent or off (or fewer than :data:`MIN_ELEMENTS`
    edges), for the numpy path of :func:`rainbowdp._verify.profile.profile_one_pass`.

    Edge i is kept if its value ``fa[i]`` at the anchor is positive (or ``odd[i]``: it touches
    a row where a zero proves nothing), at least ``thr``, and, given the lines
    :math:`(t_l, c_l)` of an upper envelope, :math:`f_a + \max_l (t_l (f_b - f_a) - c_l) +`
    ``margin`` :math:`\ge 0` (its chord reaches some lower bound). The maximum over the lines is
    formed directly; ``margin`` covers its few roundings as it does the numpy evaluation's.
    """
    if fa.shape[0] < MIN_ELEMENTS or not available():
        return None
    t, c = lines if lines is not None else (np.empty(0), np.empty(0))
    keep = np.empty(fa.shape[0], dtype=np.bool_)
    _kernels().chord_keep(
        fa,
        fa if fb is None else fb,
        np.zeros(0, dtype=np.bool_) if odd is None else odd,
        float(thr),
        np.ascontiguousarray(t, dtype=np.float64),
        np.ascontiguousarray(c, dtype=np.float64),
        float(margin),
        keep,
    )
    return np.flatnonzero(keep)
