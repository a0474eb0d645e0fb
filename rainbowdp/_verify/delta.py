r"""δ(ε) of the edges of a mechanism: per ε, in one pass, or pair by pair for few edges.

The engine behind :func:`rainbowdp.privacy_profile` and :func:`rainbowdp.hockey_stick`
(:func:`profile_core`). Every value is the smallest float at least the exact :math:`\max
H_{e^\epsilon}` (:func:`rainbowdp._verify.exact.delta_upper`), or a rigorous bound within
:math:`2\eta` of it past the exact-work budget.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..mechanism import Mechanism
from . import pairs
from .epsilon import distinct_arcs
from .exact import (
    EXACT_WORK,
    delta_upper,
    enclose,
    irregular_rows,
)
from .groups import GROUP_MIN_ARCS, row_classes
from .kernels import directed_divergences
from .profile import profile_one_pass


def profile_core(
    p: np.ndarray,
    edges: np.ndarray,
    one_way: bool,
    eps: np.ndarray,
    mechanism: Mechanism | None = None,
) -> np.ndarray:
    """δ(ε) over the edges of the rows ``p`` at each validated ε (both orders unless
    ``one_way``): the computation behind :func:`privacy_profile` and :func:`hockey_stick`.

    Many ε on many edges are answered in one pass over the edges
    (:func:`rainbowdp._verify.profile.profile_one_pass`), a few by one pass per ε; both give
    :func:`~rainbowdp._verify.exact.delta_upper` of all edges at each ε. ``mechanism`` (whose rows
    are ``p``) lends its remembered row sum, irregular rows and row classes.

    For more than one ε the ordered edges are first grouped into classes of equal pairs
    (:func:`distinct_arcs`), and the representatives are used when they are fewer than the
    edges (the mechanisms users build: every edge ties): δ(ε) is a maximum of a function of
    the pair alone, so the values are the same."""
    if eps.size > 1 and edges.shape[0] >= GROUP_MIN_ARCS:
        arcs = distinct_arcs(
            p, edges, one_way, None if mechanism is None else classes_of(mechanism)
        )
        if arcs.shape[0] < edges.shape[0]:
            edges, one_way = arcs, True
    q = p.shape[1]
    if edges.shape[0] <= PAIR_PATH_ARCS and 2 * q <= EXACT_WORK:
        # few (distinct) ordered edges: each as a pair, the pair path's values, which are
        # the graph path's bit for bit (rainbowdp._verify.pairs); the maximum over them
        rows = p[edges]
        return pairs.pair_profiles(rows, eps, one_way, float(rows.min())).max(axis=0)
    grid, where = np.unique(eps, return_inverse=True)
    if grid.size >= ONE_PASS_MIN_EPS and edges.shape[0] >= ONE_PASS_MIN_EDGES:
        known = {}
        if mechanism is not None:
            known = {
                "row_sum": mechanism._row_sum_max(),
                "irregular": mechanism._memo("irregular", irregular_rows),
            }
        return profile_one_pass(p, edges, one_way, grid, **known)[where.reshape(eps.shape)]
    out = np.empty(eps.shape)
    for i, e in enumerate(eps.tolist()):
        enc = enclose(e)
        fwd, bwd = directed_divergences(p, edges, enc.m, enc.k, one_way=one_way)
        out[i] = delta_upper(p, edges, enc, fwd, bwd)
    return out


#: :func:`profile_core` evaluates every edge at every ε below these sizes, and in one pass over
#: the edges (:mod:`rainbowdp._verify.profile`) from them on: the same values either way.
ONE_PASS_MIN_EPS = 3


ONE_PASS_MIN_EDGES = 1024
#: Ordered edges up to which :func:`profile_core` answers each as a pair
#: (:func:`rainbowdp._verify.pairs.pair_profiles`): fewer numpy calls per ε than the band.
PAIR_PATH_ARCS = 512


def classes_of(m: Mechanism) -> Callable[[], np.ndarray]:
    """The row classes of ``m`` (:func:`rainbowdp._verify.groups.row_classes`) as a function
    that computes them on first use and remembers them on the mechanism."""
    return lambda: m._memo("row_classes", row_classes)
