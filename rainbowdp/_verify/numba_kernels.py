"""The numba kernels behind :mod:`rainbowdp._verify.fused` (imported only where numba is installed).

See :mod:`rainbowdp._verify.fused` for what they compute and why their float values carry the error
bound of the numpy kernels. Defined at module level so that numba caches the compiled code on
disk.

Each loop over edges repeats the same few lines that prefetch the rows of edge ``i + d``: as a
jitted helper (even with ``inline="always"``) the call was not inlined and the loop ran five to
six times slower (measured at q = 2 on 4·10^6 edges), so the lines are written out in each
kernel.
"""

import numba
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

__all__ = [
    "chord_keep",
    "multi",
    "multi3",
    "one_way",
    "row_hash",
    "rows_equal",
    "two_way",
    "zero_proved",
    "zero_proved_both",
]


@intrinsic
def prefetch(typingctx, arr, i, j):  # pragma: no cover - compiled
    """Hint the cache to load ``arr[i, j]`` (LLVM's ``llvm.prefetch``: read, high
    locality); no value, no effect on results."""

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(
            context, builder, aryty, ary, [args[1], args[2]], wraparound=False
        )
        i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = builder.module.declare_intrinsic("llvm.prefetch", [i8p], fnty)
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(arr, i, j), codegen


_jit = numba.njit(cache=True, nogil=True, boundscheck=False, fastmath={"reassoc"})


@_jit
def two_way(p, e0, e1, x, fwd, bwd, top, d):  # pragma: no cover - compiled
    """``fwd[i]``, ``bwd[i]``: H_x(P_u || P_v) and H_x(P_v || P_u) of edge i = (e0[i], e1[i]);
    ``top[i]`` their maximum unless ``top`` is empty."""
    q, n = p.shape[1], e0.shape[0]
    with_top = top.shape[0] > 0
    for i in range(n):
        if i + d < n:  # prefetch the rows of edge i + d, one hint per 64-byte line
            u = e0[i + d]
            v = e1[i + d]
            for w in range(0, q, 8):
                prefetch(p, u, w)
                prefetch(p, v, w)
        u = e0[i]
        v = e1[i]
        sf = 0.0
        sb = 0.0
        for w in range(q):
            a = p[u, w]
            b = p[v, w]
            sf += max(a - b * x, 0.0)
            sb += max(b - a * x, 0.0)
        fwd[i] = sf
        bwd[i] = sb
        if with_top:
            top[i] = max(sf, sb)


@_jit
def one_way(p, e0, e1, x, fwd, d):  # pragma: no cover - compiled
    """``fwd[i]``: H_x(P_u || P_v) of arc i = (e0[i], e1[i])."""
    q, n = p.shape[1], e0.shape[0]
    for i in range(n):
        if i + d < n:  # prefetch the rows of edge i + d, one hint per 64-byte line
            u = e0[i + d]
            v = e1[i + d]
            for w in range(0, q, 8):
                prefetch(p, u, w)
                prefetch(p, v, w)
        u = e0[i]
        v = e1[i]
        sf = 0.0
        for w in range(q):
            sf += max(p[u, w] - p[v, w] * x, 0.0)
        fwd[i] = sf


@_jit
def multi(p, e0, e1, xs, both, out, d):  # pragma: no cover - compiled
    """``out[j, i]``: H at ``xs[j]`` of edge i, the larger direction if ``both``."""
    q, n = p.shape[1], e0.shape[0]
    for i in range(n):
        if i + d < n:  # prefetch the rows of edge i + d, one hint per 64-byte line
            u = e0[i + d]
            v = e1[i + d]
            for w in range(0, q, 8):
                prefetch(p, u, w)
                prefetch(p, v, w)
        u = e0[i]
        v = e1[i]
        for j in range(xs.shape[0]):
            x = xs[j]
            sf = 0.0
            sb = 0.0
            for w in range(q):
                a = p[u, w]
                b = p[v, w]
                sf += max(a - b * x, 0.0)
                sb += max(b - a * x, 0.0)
            out[j, i] = max(sf, sb) if both else sf


@_jit
def multi3(p, e0, e1, x0, x1, x2, both, out, d):  # pragma: no cover - compiled
    """:func:`multi` at exactly three multipliers, the six sums in one loop over the row (faster
    for long rows: each entry is loaded once)."""
    q, n = p.shape[1], e0.shape[0]
    for i in range(n):
        if i + d < n:
            u = e0[i + d]
            v = e1[i + d]
            for w in range(0, q, 8):
                prefetch(p, u, w)
                prefetch(p, v, w)
        u = e0[i]
        v = e1[i]
        f0 = 0.0
        f1 = 0.0
        f2 = 0.0
        b0 = 0.0
        b1 = 0.0
        b2 = 0.0
        for w in range(q):
            a = p[u, w]
            b = p[v, w]
            f0 += max(a - b * x0, 0.0)
            f1 += max(a - b * x1, 0.0)
            f2 += max(a - b * x2, 0.0)
            b0 += max(b - a * x0, 0.0)
            b1 += max(b - a * x1, 0.0)
            b2 += max(b - a * x2, 0.0)
        if both:
            out[0, i] = max(f0, b0)
            out[1, i] = max(f1, b1)
            out[2, i] = max(f2, b2)
        else:
            out[0, i] = f0
            out[1, i] = f1
            out[2, i] = f2


@numba.njit(cache=True, nogil=True, boundscheck=False)
def chord_keep(fa, fb, odd, thr, t, c, margin, keep):  # pragma: no cover - compiled
    """``keep[i]``: edge i may attain a maximum of its interval (see
    :func:`rainbowdp._verify.fused.chord_select`); returns how many are kept."""
    kept = 0
    for i in range(fa.shape[0]):
        a = fa[i]
        ok = (a > 0.0 or (odd.shape[0] > 0 and odd[i])) and a >= thr
        if ok and t.shape[0]:
            s = fb[i] - a
            g = t[0] * s - c[0]
            for j in range(1, t.shape[0]):
                g = max(g, t[j] * s - c[j])
            ok = a + g + margin >= 0.0
        keep[i] = ok
        kept += ok
    return kept


#: The products of :func:`zero_proved` are formed without any fast-math flag: each is one
#: correctly rounded IEEE product, as in numpy.
_jit_strict = numba.njit(cache=True, nogil=True, boundscheck=False)


@_jit_strict
def zero_proved(p, e0, e1, m, out, d):  # pragma: no cover - compiled
    """``out[i]``: every output w of arc i = (e0[i], e1[i]) has
    ``2^600 P_u(w) <= pred(fl(m 2^600 P_v(w)))``, the test of ``_exact.certified_zero``
    (scaling by 2^600 is exact for entries below 2).

    For floats a, t >= 0, ``a <= pred(t)`` holds iff ``a < t`` or ``a == 0`` (pred(t) is the
    largest float below t for t > 0, pred(0) = 0 and pred(inf) is the largest finite float),
    so an output fails iff ``a > 0`` and ``a >= t``: no ``nextafter`` call, and a loop the
    compiler vectorises.
    """
    q, n = p.shape[1], e0.shape[0]
    lift = 2.0**600
    for i in range(n):
        if i + d < n:  # prefetch the rows of edge i + d, one hint per 64-byte line
            u = e0[i + d]
            v = e1[i + d]
            for w in range(0, q, 8):
                prefetch(p, u, w)
                prefetch(p, v, w)
        u = e0[i]
        v = e1[i]
        bad = 0
        for w in range(q):
            a = p[u, w] * lift
            t = (p[v, w] * lift) * m
            bad += (a > 0.0) & (a >= t)
        out[i] = bad == 0


@_jit_strict
def zero_proved_both(p, e0, e1, m, zf, zb, d):  # pragma: no cover - compiled
    """:func:`zero_proved` of both orders of edge i = (e0[i], e1[i]) in one read of its rows:
    ``zf[i]`` for (u, v), ``zb[i]`` for (v, u)."""
    q, n = p.shape[1], e0.shape[0]
    lift = 2.0**600
    for i in range(n):
        if i + d < n:  # prefetch the rows of edge i + d, one hint per 64-byte line
            u = e0[i + d]
            v = e1[i + d]
            for w in range(0, q, 8):
                prefetch(p, u, w)
                prefetch(p, v, w)
        u = e0[i]
        v = e1[i]
        bad_f = 0
        bad_b = 0
        for w in range(q):
            a = p[u, w] * lift
            b = p[v, w] * lift
            bad_f += (a > 0.0) & (a >= b * m)
            bad_b += (b > 0.0) & (b >= a * m)
        zf[i] = bad_f == 0
        zb[i] = bad_b == 0


@_jit_strict
def row_hash(bits, mult, out):  # pragma: no cover - compiled
    """``out[i] = sum_j bits[i, j] * mult[j]`` modulo 2^64 (unsigned wrap-around)."""
    n, q = bits.shape
    for i in range(n):
        h = numba.uint64(0)
        for j in range(q):
            h += bits[i, j] * mult[j]
        out[i] = h


@_jit_strict
def rows_equal(p, rep, out):  # pragma: no cover - compiled
    """``out[i]``: row i of ``p`` equals row ``rep[i]`` entry by entry."""
    n, q = p.shape
    for i in range(n):
        r = rep[i]
        ok = True
        if r != i:
            for j in range(q):
                if p[i, j] != p[r, j]:
                    ok = False
                    break
        out[i] = ok


@_jit_strict
def max_ratio(p, e0, e1, d):  # pragma: no cover - compiled
    """The largest float ratio ``P_u(w) / P_v(w)`` over the arcs (e0[i], e1[i]) and outputs
    with ``P_v(w) > 0``, and whether some output has ``P_v(w) = 0 < P_u(w)`` (selects, no
    branches: the loop over outputs is vectorised)."""
    q, n = p.shape[1], e0.shape[0]
    best = 0.0
    zero = 0
    for i in range(n):
        if i + d < n:  # prefetch the rows of edge i + d, one hint per 64-byte line
            u = e0[i + d]
            v = e1[i + d]
            for w in range(0, q, 8):
                prefetch(p, u, w)
                prefetch(p, v, w)
        u = e0[i]
        v = e1[i]
        for w in range(q):
            a = p[u, w]
            b = p[v, w]
            pos = b > 0.0
            r = a / (b if pos else 1.0)
            best = max(best, r if pos else 0.0)
            zero += (not pos) & (a > 0.0)
    return best, zero > 0


@_jit_strict
def near_ratios(p, e0, e1, cut, start, buf_a, buf_b):  # pragma: no cover - compiled
    """From arc ``start`` on, the values ``(P_u(w), P_v(w))`` with ``P_v(w) > 0`` and
    ``P_u(w) / P_v(w) >= cut``, written to the buffers (a value equal to the one written just
    before is skipped) until the next arc might not fit; returns (the next arc to read, the
    number of values written)."""
    q, n = p.shape[1], e0.shape[0]
    cap = buf_a.shape[0]
    k = 0
    i = start
    while i < n and k + q <= cap:
        u = e0[i]
        v = e1[i]
        for w in range(q):
            a = p[u, w]
            b = p[v, w]
            if b > 0.0 and a / b >= cut:
                if k == 0 or a != buf_a[k - 1] or b != buf_b[k - 1]:
                    buf_a[k] = a
                    buf_b[k] = b
                    k += 1
        i += 1
    return i, k
