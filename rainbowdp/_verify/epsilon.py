r"""The smallest ε for a δ over the ordered edges of a mechanism, rounded up and proved.

The engine behind :func:`rainbowdp.epsilon_for_delta` (graphs, pairs and batches). For each
ordered edge, :math:`x \mapsto H_x(P\|Q)` is decreasing, convex and piecewise linear with
breakpoints at the likelihood ratios; the answer is the largest over the ordered edges of the
smallest :math:`x \ge 1` with :math:`H_x \le \delta`, as :math:`\epsilon = \ln x` rounded up.

The computation (:func:`epsilon_core`) is an iteration with bounded exact work, never a
recursion:

1. the ordered edges are grouped into classes of pairs equal up to a permutation of the outputs
   (:mod:`rainbowdp._verify.groups`), one arc per class;
2. at δ = 0 the answer is the largest likelihood ratio, read in one pass
   (:func:`epsilon_at_zero`);
3. otherwise every arc is estimated in floats (:func:`log_estimates`), the near-maximal ones
   solved exactly (:func:`exact_candidates`, at most :data:`EPS_EXACT_WORK` entries a round),
   and the raised estimate proved on all (:func:`rainbowdp._verify.exact.unproven`); beyond
   :data:`FILTER_MIN_EDGES` distinct arcs a strided sample is solved first and one float pass
   discards the arcs provably below it (:func:`epsilon_filtered`);
4. near-ties left after :data:`EPS_ROUNDS` rounds are solved exactly when they fit
   :data:`LAST_RESORT_WORK`, and otherwise the estimate is raised in floats until proved, with
   a :class:`~rainbowdp.exceptions.NotExactWarning`.

Every value returned makes the mechanism (ε, δ)-DP in exact arithmetic (``docs/verification.md``).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from ..exceptions import NotExactWarning
from .exact import (
    EXACT_WORK,
    P_SHIFT,
    enclose,
    float_at_most,
    int_list,
    int_scaled,
    irregular_rows,
    lifted,
    multiplier_below,
    pair_epsilon_exact,
    pred_scaled,
    unproven,
)
from .fused import max_ratio, near_ratios
from .groups import GROUP_MIN_ARCS, group_arcs
from .kernels import CHUNK_ELEMENTS, directed_divergences, endpoint_rows
from .pair_epsilon import batch_epsilons
from .rounding import EPS_BUMP, bumped, log_up


def pair_log_epsilon(a: np.ndarray, b: np.ndarray, delta: float) -> tuple[np.ndarray, np.ndarray]:
    """Float estimate of the smallest ε >= 0 with H_{e^ε}(a_i || b_i) <= delta, per row i.

    Works with log-ratios, so ratios beyond the float range (a subnormal b) are not lost;
    ``inf`` where the a-mass on outputs with b = 0 exceeds ``delta``. Returns the estimates and
    a generous estimate of their error (``inf`` where the linear piece is ambiguous, i.e. H at
    a breakpoint is within round-off of δ; large where ``A_j - δ`` cancels). Not rigorous by
    itself: :func:`epsilon_for_delta` recomputes the candidates for the maximum exactly, rounds
    up and proves the result.
    """
    n, q = a.shape
    zero_q = b <= 0
    budget = delta - np.where(zero_q, a, 0.0).sum(axis=1)  # loss = +inf on those outputs
    with np.errstate(divide="ignore", invalid="ignore"):
        lr = np.where(zero_q | (a <= 0), -np.inf, np.log(a) - np.log(np.where(zero_q, 1.0, b)))
    order = np.argsort(-lr, axis=1, kind="stable")
    r = np.take_along_axis(lr, order, axis=1)
    fin = np.isfinite(r)
    ca = np.cumsum(np.where(fin, np.take_along_axis(a, order, axis=1), 0.0), axis=1)
    cb = np.cumsum(np.where(fin, np.take_along_axis(b, order, axis=1), 0.0), axis=1)
    # H at breakpoint x = e^{r_j} counts the terms strictly before j: A_{j-1} - e^{r_j} B_{j-1},
    # with e^{r_j} B_{j-1} = exp(r_j + ln B_{j-1}) <= A_{j-1} <= 1 (no overflow).
    prev_a = np.concatenate([np.zeros((n, 1)), ca[:, :-1]], axis=1)
    prev_b = np.concatenate([np.zeros((n, 1)), cb[:, :-1]], axis=1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        h_at = np.where(fin, prev_a - np.exp(r + np.log(prev_b)), np.inf)
    j = (h_at <= budget[:, None]).sum(axis=1)  # breakpoints r_1 >= ... >= r_j pass (a prefix)
    # On the segment below r_j the active terms are 1..j: H(x) = A_j - x B_j = budget.
    idx = np.clip(j - 1, 0, None)[:, None]
    aj = np.take_along_axis(ca, idx, axis=1)[:, 0]
    bj = np.take_along_axis(cb, idx, axis=1)[:, 0]
    num = aj - budget
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.where((j > 0) & (bj > 0) & (num > 0), np.log(num) - np.log(bj), 0.0)
        # error: the cancellation in A_j - budget, the logs, and an ambiguous piece
        err = 64 * q * _U64 * (1.0 + (aj + np.abs(budget)) / np.where(num > 0, num, np.inf))
        err = err + 64 * _U64 * np.maximum(1.0, np.abs(e))
        near = np.abs(h_at - budget[:, None]) <= 1e-9 * (1.0 + np.abs(budget[:, None]))
    # H at the first breakpoint is 0 exactly (no active term), and the budget is δ exactly
    # where no output has Q = 0: no round-off can make that comparison ambiguous (at δ = 0 the
    # answer is the largest log-ratio)
    near[:, 0] &= zero_q.any(axis=1)
    err = np.where(near.any(axis=1) | ((j > 0) & (num <= 0)), np.inf, err)
    return np.where(budget < 0, np.inf, np.maximum(e, 0.0)), err


#: Unit round-off of float64.
_U64 = 2.0**-53


#: Budget of exact work in :func:`epsilon_for_delta`: at most this many rational entries
#: (directed edges times outputs) are recomputed exactly per round (about 0.3 s).
EPS_EXACT_WORK = 50_000


#: Rounds of "prove, and on failure recompute the failing pairs exactly (or, if there are very
#: many, raise ε)" before every directed edge is recomputed exactly.
EPS_ROUNDS = 4


#: Breakpoints handed to :func:`pair_epsilon_exact` first by :func:`pair_x_exact` (doubled
#: until the dropped ones are proved inactive).
_PRUNE_START = 8


#: Rows of at most this many outputs are handed to :func:`pair_epsilon_exact` whole.
_NO_PRUNE = 16


def pair_x_exact(pa: np.ndarray, pb: np.ndarray, d: Fraction) -> Fraction | None:
    r""":func:`pair_epsilon_exact` of the rows ``pa``, ``pb`` (δ scaled as ``d``), pruned.

    The exact value depends only on the outputs with :math:`P_b(v) = 0` and on the breakpoints
    :math:`r_v = P_a(v)/P_b(v) \ge x^*`. The answer :math:`x_T` of a subset T holding every
    output with :math:`P_b(v) = 0` and the K largest float log-ratios is therefore the exact
    answer as soon as every dropped output satisfies :math:`P_a(v) \le x_T P_b(v)`: then
    :math:`H_{x_T} = H^T_{x_T} \le \delta`, and :math:`H_x \ge H^T_x > \delta` for
    :math:`1 \le x < x_T`. That is proved as in :func:`rainbowdp._verify.exact.certified_zero`
    (:math:`2^s P_a \le \mathrm{pred}(\mathrm{fl}(m\,2^s P_b))` with :math:`m \le x_T`); K is
    doubled until the proof succeeds (at worst T is every output). Same value, far fewer
    rationals than the whole rows.
    """
    if pa.shape[0] <= _NO_PRUNE:  # short rows, whole (pruning would cost more than it
        # saves), on their own smallest common scale 2^s (δ: from 2^-1074 to 2^s; s >= -1074)
        ints, s = int_scaled(np.stack([pa, pb]))
        q = pa.shape[0]
        return pair_epsilon_exact(ints[:q], ints[q:], d / (1 << (P_SHIFT + s)))
    zero_b = pb == 0
    live = np.flatnonzero(~zero_b & (pa > 0))
    with np.errstate(divide="ignore"):
        lr = np.log(pa[live]) - np.log(pb[live])  # only ranks the breakpoints (a heuristic)
    live = live[np.argsort(-lr, kind="stable")]
    fixed = np.flatnonzero(zero_b)
    k = _PRUNE_START
    while True:
        keep = np.concatenate([fixed, live[:k]])
        x = pair_epsilon_exact(int_list(pa[keep]), int_list(pb[keep]), d)
        drop = live[k:]
        if x is None or drop.size == 0:
            return x
        m = float_at_most(x)
        if bool(np.all(lifted(pa[drop]) <= pred_scaled(pb[drop], m, 0))):
            return x
        k *= 4


def exact_candidates(p: np.ndarray, a: np.ndarray, b: np.ndarray, delta: float) -> float | None:
    """Smallest proved ε covering the directed pairs (a, b) exactly; ``None`` if infinite."""
    d = Fraction(delta) * (1 << P_SHIFT)  # on the scale of int_rows
    best = Fraction(1)
    for i, j in zip(a.tolist(), b.tolist(), strict=True):
        x = pair_x_exact(p[i], p[j], d)
        if x is None:
            return None
        best = max(best, x)
    return log_up(best)


def _surely_infinite(p: np.ndarray, a: np.ndarray, b: np.ndarray, delta: float) -> bool:
    """Whether some pair (a, b) provably puts more than δ of a's mass where b vanishes.

    The float sum of q non-negative terms is at most (1 + (q - 1)u) times the exact one, so a
    float sum above δ (1 + q 2^-52) proves it.
    """
    q = p.shape[1]
    for _, pa, pb in endpoint_rows(p, a, b):
        mass = np.where(pb == 0, pa, 0.0).sum(axis=1)
        if bool(np.any(mass > delta * (1 + q * 2.0**-52))):
            return True
    return False


def log_estimates(
    p: np.ndarray, edges: np.ndarray, one_way: bool, dlt: float
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`pair_log_epsilon` of both orders of every edge: arrays (2, E) ``(cand, err)``.

    Row 0 is P_u relative to P_v for the edge (u, v), row 1 the reverse (``-inf`` and 0 for
    the arcs of a directed graph, which constrain one order only).
    """
    n_e = edges.shape[0]
    cand = np.empty((2, n_e))
    err = np.empty((2, n_e))
    for rows, a, b in endpoint_rows(p, edges[:, 0], edges[:, 1]):
        cand[0, rows], err[0, rows] = pair_log_epsilon(a, b, dlt)
        if not one_way:
            cand[1, rows], err[1, rows] = pair_log_epsilon(b, a, dlt)
    if one_way:  # arcs constrain one order only: the reverse needs no epsilon at all
        cand[1], err[1] = -np.inf, 0.0
    return cand, err


def _unproven_orders(
    p: np.ndarray, edges: np.ndarray, todo: np.ndarray, dlt: float, eps_hat: float
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`unproven` at ``eps_hat`` asked only about the orders ``todo`` (2, E): row 0 the
    edges (u, v) as given, row 1 reversed; masks (forward, backward), False elsewhere."""
    f, b = np.flatnonzero(todo[0]), np.flatnonzero(todo[1])
    arcs = np.concatenate([edges[f], edges[b][:, ::-1]])
    bad = unproven(p, arcs, enclose(eps_hat), dlt, max_work=EXACT_WORK, one_way=True).forward
    bad_f = np.zeros(edges.shape[0], dtype=bool)
    bad_b = np.zeros(edges.shape[0], dtype=bool)
    bad_f[f] = bad[: f.size]
    bad_b[b] = bad[f.size :]
    return bad_f, bad_b


def epsilon_core(
    p: np.ndarray,
    edges: np.ndarray,
    one_way: bool,
    dlt: float,
    estimates: tuple[np.ndarray, np.ndarray] | None = None,
    classes: Callable[[], np.ndarray] | None = None,
) -> float:
    """The proved smallest ε over the edges (u, v) of the rows ``p`` (both orders unless
    ``one_way``): the one computation behind :func:`epsilon_for_delta`, for a mechanism's graph
    and for pairs of distributions (:mod:`rainbowdp._verify.pairs`).

    No recursion, and bounded exact work: the ordered edges are first grouped into classes of
    equal pairs (:func:`rainbowdp._verify.groups.group_arcs`; one arc per class stands for all),
    then solved directly (:func:`epsilon_direct`), or from :data:`FILTER_MIN_EDGES` distinct arcs
    on by a sample and one filtering pass (:func:`epsilon_filtered`). ``estimates`` are
    :func:`log_estimates` of these edges when already computed (for a batch of pairs, in one
    vectorised pass): the edges are then solved directly as given. ``classes`` gives the row
    classes of ``p`` when a mechanism remembers them."""
    n_e = edges.shape[0]
    if n_e == 0:
        return 0.0
    if n_e == 1 and 2 * p.shape[1] <= EXACT_WORK:
        # one edge (a pair): both orders solved exactly, which proves the answer by itself
        # (see epsilon_direct) and needs no estimate
        u, v = (int(x) for x in edges[0])
        heads, tails = (np.array([u]), np.array([v])) if one_way else (
            np.array([u, v]), np.array([v, u]))  # fmt: skip
        worst = exact_candidates(p, heads, tails, dlt)
        return math.inf if worst is None else worst
    if estimates is not None:
        return epsilon_direct(p, edges, one_way, dlt, estimates)
    arcs = distinct_arcs(p, edges, one_way, classes)
    if dlt == 0.0:
        return epsilon_at_zero(p, arcs)
    if arcs.shape[0] <= EXACT_ARCS and 2 * p.shape[1] <= EXACT_WORK:
        # few distinct ordered edges (ties): each solved exactly, which proves it by itself
        worst = exact_candidates(p, arcs[:, 0], arcs[:, 1], dlt)
        return math.inf if worst is None else worst
    if arcs.shape[0] <= PAIR_ARCS and 2 * p.shape[1] <= EXACT_WORK:
        by_pairs = epsilon_by_pairs(p, arcs, dlt)
        if by_pairs is not None:
            return by_pairs
    if arcs.shape[0] > FILTER_MIN_EDGES:
        return epsilon_filtered(p, arcs, dlt)
    return epsilon_direct(p, arcs, True, dlt)


def epsilon_at_zero(p: np.ndarray, arcs: np.ndarray) -> float:
    r"""ε(0) of the arcs (a, b): the log of the largest likelihood ratio
    :math:`\max_{(a,b),v} P_a(v)/P_b(v)` (at least 1; infinite where some
    :math:`P_b(v) = 0 < P_a(v)`), rounded up and proved, in one float pass over the arcs.

    :math:`H_x(P_a\|P_b) = 0` iff :math:`x \ge P_a(v)/P_b(v)` for every v, so ε(0) is the log
    of that maximum :math:`r^*`. Each float ratio errs by at most one rounding
    (:math:`u = 2^{-53}` relative; an overflow to ``inf`` is kept as a candidate), so every
    (arc, output) attaining :math:`r^*` has a float ratio at least :math:`(1 - 2^{-50})` times
    the float maximum. Those candidates are compared exactly, once per distinct pair of values
    :math:`(P_a(v), P_b(v))`, and :func:`log_up` of the exact maximum is returned: the value
    :func:`pair_epsilon_exact` gives each pair at δ = 0, maximised."""
    compiled = max_ratio(p, arcs)
    if compiled is not None:
        best, infinite = compiled
    else:
        best, infinite = 0.0, False
        for _, pa, pb in endpoint_rows(p, arcs[:, 0], arcs[:, 1]):
            if bool(np.any((pb == 0) & (pa > 0))):
                infinite = True  # exact: a float zero is a zero
                break
            best = max(best, float(_ratios(pa, pb).max(initial=0.0)))
    if infinite:
        return math.inf
    if best == 0.0:
        return 0.0
    cut = best * (1.0 - 2.0**-50)
    pairs: set[tuple[float, float]] = set()
    if compiled is not None:
        for heads, tails in near_ratios(p, arcs, cut):
            pairs.update(zip(heads.tolist(), tails.tolist(), strict=True))
    else:
        for _, pa, pb in endpoint_rows(p, arcs[:, 0], arcs[:, 1]):
            hit = _ratios(pa, pb) >= cut
            if hit.any():
                pairs.update(zip(pa[hit].tolist(), pb[hit].tolist(), strict=True))
    if not pairs:  # unreachable (the float maximum is a candidate); infinity is the safe answer
        return math.inf
    x = _largest_ratio(pairs)
    return log_up(x) if x > 1 else 0.0


def _largest_ratio(pairs: set[tuple[float, float]]) -> Fraction:
    """The exact largest a / b over pairs of floats (b > 0), by integer cross-multiplication
    (a float is n / 2^k exactly, so a1 / b1 > a2 / b2 iff n_a1 d_b1 d_a2 n_b2 > n_a2 d_b2 d_a1
    n_b1): one Fraction in all; 0 for no pairs (the caller answers those itself)."""
    best = (0, 1)
    for a, b in pairs:
        na, da = a.as_integer_ratio()
        nb, db = b.as_integer_ratio()
        num, den = na * db, da * nb  # a / b = num / den
        if num * best[1] > best[0] * den:
            best = (num, den)
    return Fraction(*best)


def _ratios(pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
    """Float ratios ``pa / pb`` where ``pb > 0`` (0 elsewhere; ``inf`` on overflow)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.where(pb > 0, pa / np.where(pb > 0, pb, 1.0), 0.0)


def distinct_arcs(
    p: np.ndarray,
    edges: np.ndarray,
    one_way: bool,
    classes: Callable[[], np.ndarray] | None = None,
) -> np.ndarray:
    """The ordered edges (both orders of each edge unless ``one_way``) as arcs (n, 2), one per
    class of equal pairs of rows (:func:`rainbowdp._verify.groups.group_arcs`) from
    :data:`~rainbowdp._verify.groups.GROUP_MIN_ARCS` arcs on: every ε of this module is the maximum
    of a function of the pair alone, so the representatives give the same value."""
    n_e = edges.shape[0]
    heads, tails = edges[:, 0], edges[:, 1]
    if n_e * (1 if one_way else 2) >= GROUP_MIN_ARCS:
        reps, _ = group_arcs(p, heads, tails, classes, inverse=False, both=not one_way)
        if reps.size < n_e * (1 if one_way else 2):
            at, forward = reps % n_e, reps < n_e
            return np.stack(
                [np.where(forward, heads[at], tails[at]), np.where(forward, tails[at], heads[at])],
                axis=1,
            )
    return edges if one_way else np.concatenate([edges, edges[:, ::-1]])


def epsilon_direct(
    p: np.ndarray,
    edges: np.ndarray,
    one_way: bool,
    dlt: float,
    estimates: tuple[np.ndarray, np.ndarray] | None = None,
) -> float:
    """:func:`epsilon_core` on every given edge: each order estimated in floats, the
    near-maximal ones solved exactly (at most :data:`EPS_EXACT_WORK` entries per round), the
    result proved on all; when near-ties remain after :data:`EPS_ROUNDS` rounds, every order
    is solved exactly if that fits :data:`LAST_RESORT_WORK`, and otherwise the estimate is
    raised in floats until proved (:func:`_raised_until_proved`: an upper bound, not the exact
    value, with a :class:`~rainbowdp.exceptions.NotExactWarning`)."""
    if estimates is None:
        cand, err = log_estimates(p, edges, one_way, dlt)
    else:
        cand, err = (x.copy() for x in estimates)
    heads = (edges[:, 0], edges[:, 1])
    tails = (edges[:, 1], edges[:, 0])

    def pairs(dirs: np.ndarray, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (
            np.where(dirs == 0, heads[0][idx], heads[1][idx]),
            np.where(dirs == 0, tails[0][idx], tails[1][idx]),
        )

    inf_pairs = np.isposinf(cand)  # -inf: an unconstrained reverse order
    if inf_pairs.any() and _surely_infinite(p, *pairs(*np.nonzero(inf_pairs)), dlt):
        return math.inf
    if inf_pairs.any():  # decide "infinite" exactly: float sums of the zero-Q mass may round
        worst = exact_candidates(p, *pairs(*np.nonzero(inf_pairs)), dlt)
        if worst is None:
            return math.inf
        cand[inf_pairs], err[inf_pairs] = worst, 0.0
    # The directed edges that may attain the maximum are recomputed exactly (tightness);
    # the others keep their float estimate, raised by the bump. Then everything is proved.
    floor = float(np.max(cand - err))
    maybe = np.flatnonzero(((cand + err >= floor) & (cand > -np.inf)).ravel())
    limit = max(1, EPS_EXACT_WORK // p.shape[1])
    if maybe.size > limit:  # the most likely maxima; the rest are covered by bump and proof
        maybe = maybe[np.argsort(-(cand + err).ravel()[maybe])[:limit]]
    exact_eps = exact_candidates(p, *pairs(*np.unravel_index(maybe, cand.shape)), dlt)
    if exact_eps is None:  # pragma: no cover - infinite pairs were decided above
        return math.inf
    rest = np.ones(cand.size, dtype=bool)
    rest[maybe] = False
    if not np.any(cand.ravel()[rest] > -np.inf):
        # Every constrained order was solved exactly: its exact x satisfies H_x <= δ and
        # L(exact_eps) >= x (log_up), so H_L <= δ on each -- the proof below would find nothing
        # unproven (and its work, maybe.size * q <= EPS_EXACT_WORK, is within EXACT_WORK).
        return exact_eps
    eps_hat = max(exact_eps, bumped(float(cand.ravel()[rest].max(initial=0.0))))
    n_dirs = int(np.count_nonzero(cand > -np.inf))
    for round_ in range(EPS_ROUNDS):
        if round_ == 0 and eps_hat == exact_eps and n_dirs * p.shape[1] <= EXACT_WORK:
            # At eps_hat = exact_eps the orders solved exactly are proved (see above); with the
            # work within EXACT_WORK, unproven() decides "H_L > δ" exactly for every order, so
            # asking it about the other orders only gives the same masks.
            todo = rest.reshape(cand.shape) & (cand > -np.inf)
            bad_f, bad_b = _unproven_orders(p, edges, todo, dlt, eps_hat)
        else:
            bad_f, bad_b, _ = unproven(
                p, edges, enclose(eps_hat), dlt, max_work=EXACT_WORK, one_way=one_way
            )
        n_bad = int(bad_f.sum() + bad_b.sum())
        if n_bad == 0:
            return eps_hat
        if n_bad > limit:  # many near-ties: move away from them in floats
            eps_hat = eps_hat + EPS_BUMP * 16 ** (round_ + 1) * max(1.0, eps_hat)
            continue
        a = np.concatenate([heads[0][bad_f], heads[1][bad_b]])
        b = np.concatenate([tails[0][bad_f], tails[1][bad_b]])
        worst = exact_candidates(p, a, b, dlt)
        if worst is None:  # pragma: no cover - infinite pairs were decided above
            return math.inf
        eps_hat = max(eps_hat, worst)
    if n_dirs * p.shape[1] > LAST_RESORT_WORK:
        return _raised_until_proved(p, edges, one_way, dlt, eps_hat, n_dirs)
    # last resort (many near-ties with a flat slope): every directed edge in exact arithmetic;
    # the exact maximum is proved by itself (and tight), so it replaces the raised estimate
    if one_way:
        worst = exact_candidates(p, heads[0], tails[0], dlt)
    else:
        worst = exact_candidates(
            p, np.concatenate([heads[0], heads[1]]), np.concatenate([tails[0], tails[1]]), dlt
        )
    return math.inf if worst is None else worst


#: Distinct ordered edges up to which :func:`epsilon_core` solves every one exactly
#: (:func:`exact_candidates`) instead of estimating them first.
EXACT_ARCS = 16

#: Distinct ordered edges up to which :func:`epsilon_core` answers each as a pair
#: (:func:`epsilon_by_pairs`).
PAIR_ARCS = 4096


def epsilon_by_pairs(p: np.ndarray, arcs: np.ndarray, dlt: float) -> float | None:
    """The largest ε of the arcs each read as a pair: the pair path's value of every arc
    (:func:`rainbowdp._verify.pair_epsilon.batch_epsilons`: float active sets proved with a
    margin, exact sums, one exact quotient, rounded up by :func:`log_up`), and for the arcs it
    leaves undecided the exact search (:func:`exact_candidates`). Each value makes its arc
    (ε, δ)-close, proved, so their maximum proves the graph; each is the arc's exact ε rounded
    up, so the maximum is tight. ``None`` when the undecided arcs hold more than
    :data:`LAST_RESORT_WORK` entries (the caller then solves directly, within its budgets)."""
    q = p.shape[1]
    step = max(1, CHUNK_ELEMENTS // (2 * q))
    worst = 0.0
    undecided: list[int] = []
    for start in range(0, arcs.shape[0], step):
        sub = arcs[start : start + step]
        vals = batch_epsilons(p[sub], dlt, True)
        decided = [e for e in vals if e is not None]
        if decided:
            worst = max(worst, max(decided))
        undecided.extend(start + i for i, e in enumerate(vals) if e is None)
        if len(undecided) * q > LAST_RESORT_WORK:
            return None
    if undecided:
        left = np.array(undecided, dtype=np.intp)
        rest = exact_candidates(p, arcs[left, 0], arcs[left, 1], dlt)
        if rest is None:
            return math.inf
        worst = max(worst, rest)
    return worst


#: Entries (directed edges times outputs) up to which :func:`epsilon_direct` solves every
#: order exactly as its last resort (about 2 s of rational arithmetic); beyond, it raises the
#: estimate in floats until proved (:func:`_raised_until_proved`).
LAST_RESORT_WORK = 200_000


def _raised_until_proved(
    p: np.ndarray, edges: np.ndarray, one_way: bool, dlt: float, eps_hat: float, n_dirs: int
) -> float:
    r"""A proved upper bound on the smallest ε from the unproven estimate ``eps_hat``, in a
    bounded number of float passes, flagged by a
    :class:`~rainbowdp.exceptions.NotExactWarning` (it may exceed the exact value by more than
    the documented :math:`10^{-10}` relative).

    The estimate is raised geometrically (by :math:`2^{-45} 16^r \max(1, \epsilon)`, r = 5,
    6, ...) until :func:`unproven` (within :data:`EXACT_WORK`) proves every order; within 16
    raises ε passes every finite log-ratio of float64 rows (:math:`2^{-45} 16^{20} = 2^{35}`),
    where every order is proved zero. The interval between the last unproved and the first
    proved value is then halved :data:`_BISECTIONS` times in floats alone (no exact work),
    keeping the proved end.
    """
    lo = hi = eps_hat
    for round_ in range(EPS_ROUNDS, EPS_ROUNDS + 16):
        lo, hi = hi, hi + EPS_BUMP * 16 ** (round_ + 1) * max(1.0, hi)
        if _all_proved(p, edges, one_way, dlt, hi):
            break
    else:  # pragma: no cover - beyond every finite log-ratio every order is proved
        hi = math.inf
    for _ in range(_BISECTIONS if math.isfinite(hi) else 0):
        mid = lo + (hi - lo) / 2
        if not lo < mid < hi:
            break
        if _all_proved(p, edges, one_way, dlt, mid, 0):
            hi = mid
        else:
            lo = mid
    warnings.warn(
        f"epsilon_for_delta: {n_dirs} near-tied ordered edges exceed the exact-work budget; "
        f"returning the proved upper bound {hi!r}, not the exact smallest epsilon.",
        NotExactWarning,
        stacklevel=4,
    )
    return hi


#: Halvings of the bracket of :func:`_raised_until_proved` (each one float pass).
_BISECTIONS = 24


def _all_proved(
    p: np.ndarray,
    edges: np.ndarray,
    one_way: bool,
    dlt: float,
    eps: float,
    max_work: int = EXACT_WORK,
) -> bool:
    """Whether :func:`unproven` (with ``max_work``) proves :math:`H_L \\le \\delta` on every
    order at ``eps``."""
    return not unproven(p, edges, enclose(eps), dlt, max_work=max_work, one_way=one_way).any()


#: Arcs of a strided sample solved first by :func:`epsilon_filtered` (twice this many), and
#: the number of distinct arcs from which :func:`epsilon_core` starts with such a sample.
FILTER_SAMPLE = 2048


FILTER_MIN_EDGES = 4 * FILTER_SAMPLE


#: Below this δ, :func:`epsilon_filtered` proves edges by exact zeros rather than float bounds.
_FILTER_ZERO_DELTA = 2.0**-40


def epsilon_filtered(p: np.ndarray, arcs: np.ndarray, dlt: float) -> float:
    r""":func:`epsilon_core` of many arcs: a sample first, then one filtering pass.

    The proved ε of a strided sample of the arcs, :math:`\epsilon_S`, is nearly the exact
    :math:`\epsilon_S^*` (raised by about :math:`2^{-45}`). One float pass at
    :math:`\epsilon' = \epsilon_S - 2^{-40}\max(1, \epsilon_S)` (:func:`unproven` with no
    exact work) proves :math:`H_{L'} \le \delta` for most arcs, so each of them has its exact
    :math:`x_e \le L' < e^{\epsilon_S^*}`: none of them is the maximiser, and each is proved
    at every ε whose lower enclosure is at least :math:`L'`. The sample and the arcs left over
    are then solved directly (:func:`epsilon_direct`). The maximiser is among them, so the
    value is the one the direct solve gives on all arcs (the one exception: many near-ties
    moved away from in floats, where both are proved upper bounds); it is accepted only if its
    lower enclosure is at least :math:`L'`, and otherwise every arc is solved directly. No
    call recurses: the work is two direct solves at most.
    """
    n_a = arcs.shape[0]
    sample = np.unique(np.linspace(0, n_a - 1, 2 * FILTER_SAMPLE).astype(np.intp))
    s_arcs = arcs[sample]
    eps_s = epsilon_direct(p, s_arcs, True, dlt)
    if math.isinf(eps_s):
        return eps_s
    eps_f = max(0.0, eps_s - 2.0**-40 * max(1.0, eps_s))
    enc = enclose(eps_f)
    todo = arcs
    if dlt < _FILTER_ZERO_DELTA:
        # δ ~ 0: the float filter cannot prove H_L <= δ, but an exact zero can
        # (multiplier_below), which leaves far fewer arcs to certified_zero
        fwd, _ = directed_divergences(p, arcs, *multiplier_below(enc), one_way=True)
        keep = fwd > 0
        odd = irregular_rows(p)
        if odd.size:
            keep |= np.isin(arcs[:, 0], odd) | np.isin(arcs[:, 1], odd)
        todo = arcs[keep]
    bad = unproven(p, todo, enc, dlt, max_work=0, one_way=True).forward
    left = np.concatenate([s_arcs, todo[bad]])
    if left.shape[0] < n_a:
        result = epsilon_direct(p, left, True, dlt)
        if math.isinf(result) or (result >= eps_f and enclose(result).lo >= enclose(eps_f).lo):
            return result
    return epsilon_direct(p, arcs, True, dlt, log_estimates(p, arcs, True, dlt))
