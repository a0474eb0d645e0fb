r"""Vectorised floating-point kernels shared by the verifier and the exact certifier.

* :func:`scaled_exp` represents :math:`\hat x \approx e^\epsilon` as :math:`m\,2^k` so that
  products :math:`\hat x\,Q(v)` are formed without overflow for any finite ε (``math.exp``
  overflows above ε ≈ 709.78).
* :func:`endpoint_rows` gathers the rows of both endpoints of many pairs in cache-sized chunks.
* :func:`directed_divergences` evaluates the hockey-stick divergence
  :math:`H_{\hat x}(P_u\|P_v) = \sum_w \max\{P_u(w) - \hat x P_v(w), 0\}` in both directions of
  every edge.

Large ε needs no special case: every positive float64 probability is at least
:math:`2^{-1074}` and every entry of a mechanism is below 2, so once :math:`e^\epsilon \ge 2^{1075}`
every term with :math:`Q(v) > 0` is negative and :math:`H` is the P-mass where Q vanishes --
exactly what the scaled product gives (it overflows to ``inf`` for every :math:`Q(v) > 0`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from . import fused

__all__ = [
    "CHUNK_ELEMENTS",
    "EPS_SATURATION",
    "directed_divergences",
    "endpoint_rows",
    "float_error_bound",
    "row_divergences",
    "scaled_exp",
    "scaled_product",
]

#: Rows of (q float64) gathered per chunk: keeps the working set in cache and memory bounded.
CHUNK_ELEMENTS = 1 << 16

#: ε from which :math:`e^\epsilon > 2^{1075}`: above it (ε, δ)-closeness no longer depends on
#: ε (1075 ln 2 = 745.13...).
EPS_SATURATION = 746.0

#: ln 2 = _LN2_HI + _LN2_LO to about 2^-85: hi has 32 significant bits, so k * hi is exact for
#: integers k < 2^21 (the classic fdlibm split).
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10

#: Binary exponent used for "e^ε is beyond every ratio" (ε >= EPS_SATURATION).
_K_SATURATED = 2200


def float_error_bound(n_outputs: int) -> float:
    r"""Bound on the floating-point error of one hockey-stick evaluation over q outputs.

    Each positive term :math:`P(v) - x Q(v)` has :math:`xQ(v) < P(v) \le 1` and errs by at most
    :math:`3u P(v)`; summing q non-negative terms adds at most :math:`q u`; with
    :math:`u = 2^{-53}` and a factor 2 of slack for ``exp``, :math:`(q + 3) 2^{-52}`.

    Examples
    --------
    >>> float_error_bound(2) == 5 * 2.0**-52
    True
    """
    return (n_outputs + 3) * 2.0**-52


def scaled_exp(epsilon: float) -> tuple[float, int]:
    r"""``(m, k)`` with :math:`m\,2^k \approx e^\epsilon`, m finite and ``k >= 0``.

    For ε <= 700, ``(math.exp(ε), 0)``. Above, :math:`k = \lfloor \epsilon/\ln 2\rfloor` and
    :math:`m = e^{\epsilon - k \ln 2} \in [1, 2)` with a two-part ln 2 (relative error of a few
    ulps, which the certifier's error bound accounts for). From :data:`EPS_SATURATION` on,
    ``(1.0, 2200)``: a stand-in larger than every likelihood ratio of float64 probabilities, at
    which the hockey-stick divergence equals its value at :math:`e^\epsilon` exactly.

    Examples
    --------
    >>> scaled_exp(0.0)
    (1.0, 0)
    >>> m, k = scaled_exp(720.0)
    >>> k > 0 and abs(math.log(m) + k * math.log(2) - 720.0) < 1e-9
    True
    """
    if epsilon <= 700.0:
        return math.exp(epsilon), 0
    if epsilon >= EPS_SATURATION:
        return 1.0, _K_SATURATED
    k = math.floor(epsilon / math.log(2.0))
    # Cody-Waite: k * _LN2_HI is exact (k < 2^11, _LN2_HI has 32 significant bits) and so is
    # epsilon - k * _LN2_HI (Sterbenz), so r = epsilon - k ln 2 in [0, ln 2) errs by about one
    # ulp of r and m = e^r by about one ulp.
    return math.exp((epsilon - k * _LN2_HI) - k * _LN2_LO), k


def scaled_product(q: np.ndarray, m: float, k: int, out: np.ndarray | None = None) -> np.ndarray:
    r""":math:`\mathrm{fl}(m\,(2^k Q))` elementwise: one rounding (``inf`` on overflow, 0 where Q
    is 0). Scaling by :math:`2^k` first is exact, so subnormal Q lose no precision."""
    if k:
        with np.errstate(over="ignore"):
            out = np.ldexp(q, k, out=out)
            return np.multiply(out, m, out=out)
    return np.multiply(q, m, out=out)


def endpoint_rows(
    p: np.ndarray, u: np.ndarray, v: np.ndarray
) -> Iterator[tuple[slice, np.ndarray, np.ndarray]]:
    """Yield ``(rows, p[u[rows]], p[v[rows]])`` for consecutive chunks of the index arrays.

    Each chunk holds about ``CHUNK_ELEMENTS`` numbers, so the working set stays in cache and the
    memory is bounded whatever the number of pairs. The two arrays are buffers reused by the
    next chunk: use them before advancing, and do not keep references to them.
    """
    n, q = u.shape[0], p.shape[1]
    chunk = max(1, CHUNK_ELEMENTS // max(q, 1))
    m = min(chunk, n)
    a = np.empty((m, q))
    b = np.empty((m, q))
    for start in range(0, n, chunk):
        stop = min(start + chunk, n)
        k = stop - start
        np.take(p, u[start:stop], axis=0, out=a[:k])
        np.take(p, v[start:stop], axis=0, out=b[:k])
        yield slice(start, stop), a[:k], b[:k]


def directed_divergences(
    p: np.ndarray,
    edges: np.ndarray,
    m: float,
    k: int = 0,
    *,
    one_way: bool = False,
    largest: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    r""":math:`H_{\hat x}(P_u\|P_v)` and :math:`H_{\hat x}(P_v\|P_u)` for every edge (u, v).

    :math:`\hat x = m\,2^k` (see :func:`scaled_exp`); computed in chunks, or in one compiled
    pass where numba is installed (:mod:`rainbowdp._verify.fused`). With ``one_way``
    (the arcs of a directed graph) only the first is computed and the second is ``-inf``
    everywhere: no constraint, below every δ and never a maximum. ``largest``, if given, is
    filled with the larger of the two (in the same pass where compiled).
    """
    n_e, q = edges.shape[0], p.shape[1]
    fwd = np.empty(n_e)
    bwd = np.full(n_e, -np.inf) if one_way else np.empty(n_e)
    if fused.divergences(p, edges, m, k, fwd, None if one_way else bwd, largest):
        return fwd, bwd  # compiled: the same roundings in one pass (rainbowdp._verify.fused)
    t = np.empty((min(max(1, CHUNK_ELEMENTS // max(q, 1)), n_e), q))
    # Row sums as a product with a vector of ones (BLAS): faster than ``sum(axis=1)`` over short
    # rows, and the same error bound -- any order of adding q non-negative terms errs by at
    # most (q - 1)u times their sum (an FMA with 1.0 rounds like an addition), the bound
    # :func:`rainbowdp._verify.exact.float_error` uses.
    ones = np.ones(q)
    for rows, aa, bb in endpoint_rows(p, edges[:, 0], edges[:, 1]):
        tt = t[: aa.shape[0]]
        row_divergences(aa, bb, m, k, tt, ones, fwd[rows])
        if not one_way:
            row_divergences(bb, aa, m, k, tt, ones, bwd[rows])
    if largest is not None:
        np.maximum(fwd, bwd, out=largest)
    return fwd, bwd


def row_divergences(
    aa: np.ndarray,
    bb: np.ndarray,
    m: float,
    k: int,
    tt: np.ndarray,
    ones: np.ndarray,
    out: np.ndarray,
) -> None:
    r"""``out[i]`` = :math:`H_{m 2^k}(A_i\|B_i)` of gathered rows, in the roundings whose error
    :func:`rainbowdp._verify.exact.float_error` bounds: one rounded product per entry
    (:func:`scaled_product`), one subtraction, the positive part, and the row sums as a product
    with ``ones`` (BLAS). ``tt`` is scratch of the rows' shape."""
    scaled_product(bb, m, k, out=tt)
    np.subtract(aa, tt, out=tt)
    np.maximum(tt, 0.0, out=tt)
    np.matmul(tt, ones, out=out)
