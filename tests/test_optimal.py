"""Tests of rainbowdp.optimal: the operator T, τ, the closed form, line and graph optima."""

from __future__ import annotations

import itertools
import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from rainbowdp import builders, certify
from rainbowdp.exceptions import InvalidBoundaryError, NoOptimalMechanismError, NotPrivateError
from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism
from rainbowdp.morphism import INFINITE_DISTANCE_LABEL, Morphism, boundary_graph
from rainbowdp.optimal import (
    TAU_INFINITY,
    T,
    line_mechanism,
    optimal_mechanism,
    prefix_sums_closed_form,
    switch_threshold,
    tau,
)
from rainbowdp.privacy import are_close, hockey_stick, verify

from .strategies import distributions, rainbow_graphs

EPS_12 = math.log(1.2)
#: Gu et al., Section 5.3: the printed boundary vector, with the last entry "1 minus all the other
#: values" (0.5823; the printed 0.5822 makes the vector sum to 0.9999, see docs/errata.md).
M_PRINTED = np.array([0.0005, 0.0081, 0.1364, 0.2727, 0.5823])
#: The same vector before rounding: 0.001, 0.015, 0.25, 0.5 times e^ε/(1 + e^ε).
M_EXACT = np.array([0.001, 0.015, 0.25, 0.5, 0.0]) * (1.2 / 2.2)
M_EXACT[-1] = 1.0 - M_EXACT[:4].sum()

epsilons = st.sampled_from([0.0, 0.05, 0.3, math.log(2), 1.0, 2.5])
deltas = st.sampled_from([0.0, 1e-6, 1e-3, 0.05, 0.3, 1.0])


# ---------------------------------------------------------------------- independent oracles
def lp_max_prefix(p: np.ndarray, k: int, eps: float, delta: float) -> float:
    """max s''_k over distributions p'' that are (ε, δ)-close to p (hockey-stick LP).

    Variables: p'' (q), a (q) with a >= p'' - e^ε p, b (q) with b >= p - e^ε p''; sum a <= δ,
    sum b <= δ; everything >= 0.
    """
    q = p.shape[0]
    x = math.exp(eps)
    c = np.zeros(3 * q)
    c[:k] = -1.0
    a_ub, b_ub = [], []
    for j in range(q):
        row = np.zeros(3 * q)
        row[j], row[q + j] = 1.0, -1.0  # p''_j - a_j <= x p_j
        a_ub.append(row)
        b_ub.append(x * p[j])
        row = np.zeros(3 * q)
        row[j], row[2 * q + j] = -x, -1.0  # -x p''_j - b_j <= -p_j
        a_ub.append(row)
        b_ub.append(-p[j])
    row = np.zeros(3 * q)
    row[q : 2 * q] = 1.0
    a_ub.append(row)
    b_ub.append(delta)
    row = np.zeros(3 * q)
    row[2 * q :] = 1.0
    a_ub.append(row)
    b_ub.append(delta)
    a_eq = np.zeros((1, 3 * q))
    a_eq[0, :q] = 1.0
    res = linprog(
        c,
        A_ub=np.array(a_ub),
        b_ub=b_ub,
        A_eq=a_eq,
        b_eq=[1.0],
        bounds=[(0, None)] * (3 * q),
        method="highs",
    )
    assert res.status == 0
    return -res.fun


def lp_graph_optimum(
    G: RainbowGraph, fixed: dict[int, np.ndarray], eps: float, delta: float, weights: np.ndarray
) -> np.ndarray:
    """Mechanism (N, q) maximising sum_i sum_k w[i,k] s_{i,k} (prefix sums in node i's rainbow
    order) subject to (ε, δ)-DP on every edge (hockey-stick form) and fixed boundary rows."""
    n, q = G.n_nodes, G.n_outputs
    x = math.exp(eps)
    edges = G.edges.tolist()
    n_p = n * q
    n_a = 2 * len(edges) * q
    nv = n_p + n_a
    c = np.zeros(nv)
    for i in range(n):
        order = G.order[i]
        for pos_l, out in enumerate(order):
            c[i * q + out] -= weights[i, pos_l:].sum()
    a_ub, b_ub = [], []
    for e, (u, v) in enumerate(edges):
        for d, (s, t) in enumerate(((u, v), (v, u))):
            base = n_p + (2 * e + d) * q
            for j in range(q):
                row = np.zeros(nv)
                row[s * q + j], row[t * q + j], row[base + j] = 1.0, -x, -1.0
                a_ub.append(row)
                b_ub.append(0.0)
            row = np.zeros(nv)
            row[base : base + q] = 1.0
            a_ub.append(row)
            b_ub.append(delta)
    a_eq = np.zeros((n, nv))
    for i in range(n):
        a_eq[i, i * q : (i + 1) * q] = 1.0
    bounds = [(0.0, None)] * nv
    for i, row in fixed.items():
        for j in range(q):
            bounds[i * q + j] = (float(row[j]), float(row[j]))
    res = linprog(
        c,
        A_ub=np.array(a_ub) if a_ub else None,
        b_ub=b_ub if b_ub else None,
        A_eq=a_eq,
        b_eq=np.ones(n),
        bounds=bounds,
        method="highs",
    )
    assert res.status == 0, res.message
    return res.x[:n_p].reshape(n, q)


def formula_mechanism(
    G: RainbowGraph, rows: dict[tuple, np.ndarray], eps: float, delta: float
) -> np.ndarray:
    """End of Section 4: P[M(d) = c(k)] = (T^{dist(d, ∂B^c)}(m~^c))_k, with distances from
    networkx inside each region; point mass where the region part has no boundary node."""
    g = G.graph
    out = np.zeros((G.n_nodes, G.n_outputs))
    bmask = G.boundary_mask
    for c in G.rainbows:
        region = [d for d in G.nodes if G.rainbow(d) == c]
        sub = g.subgraph(region)
        sources = [d for d in region if bmask[G.index_of(d)]]
        dist = nx.multi_source_dijkstra_path_length(sub, sources) if sources else {}
        cols = [G.output_index[o] for o in c]
        for d in region:
            if d in dist:
                vec = rows[c][cols]
                for _ in range(dist[d]):
                    vec = T(vec, eps, delta)
            else:
                vec = np.zeros(G.n_outputs)
                vec[0] = 1.0
            out[G.index_of(d), cols] = vec
    return out


def assert_closed_form_or_certified_mix(M: Mechanism, R: np.ndarray, eps: float, delta: float):
    """M is the closed form R if R is proved private, else R mixed with uniform (documented).

    optimal_mechanism returns a mechanism that certify proves (eps, delta)-DP; where the float
    closed form misses by round-off, some rows are mixed with the uniform distribution by one
    common weight lam (optimal.py, _certified). This checks exactly that, and that lam is small.
    """
    P = M.probabilities
    if certify(Mechanism(M.graph, R), epsilon=eps, delta=delta).verdict == "private":
        assert np.allclose(P, R, atol=1e-12)
        return
    assert certify(M, epsilon=eps, delta=delta).verdict == "private"
    q = R.shape[1]
    # rows the repair mixed (others may differ by the renormalisation of the boundary, an ulp)
    changed = np.flatnonzero(np.any(np.abs(P - R) > 1e-15, axis=1))
    assert np.allclose(np.delete(P, changed, axis=0), np.delete(R, changed, axis=0), atol=1e-15)
    if changed.size == 0:  # a mix below 1e-15 per entry
        return
    # least-squares weight of P - R along U - R on the changed rows
    d, u = P[changed] - R[changed], 1.0 / q - R[changed]
    lam = float((d * u).sum() / (u * u).sum())
    assert -1e-15 <= lam <= 1e-6  # ~1e-16 / delta at epsilon = 0 (estimate: +-1e-16 noise)
    mixed = (1 - lam) * R[changed] + lam / q
    assert np.allclose(P[changed], mixed, atol=1e-15, rtol=0)


def valid_boundary(
    G: RainbowGraph, eps: float, delta: float, rng: np.random.Generator
) -> dict[tuple, np.ndarray]:
    """Random homogeneous boundary rows, valid by construction.

    Each row mixes the uniform distribution with weight 1 - λ and a random one with weight λ.
    With λ (q + e^ε - 1) <= e^ε - 1 all likelihood ratios are at most e^ε; with λ <= δ the
    total variation (hence every hockey-stick divergence) is at most δ.
    """
    q = G.n_outputs
    x = math.exp(eps)
    lam = 0.99 * max((x - 1.0) / (q + x - 1.0), delta)
    lam = min(lam, 1.0) * rng.uniform(0.2, 1.0)
    rows = {}
    for c in G.rainbows:
        r = rng.dirichlet(np.ones(q) * 0.5)
        rows[c] = (1.0 - lam) / q + lam * r
    for a, b in itertools.combinations(rows.values(), 2):
        assert are_close(a, b, eps, delta)
    return rows


def prefix_in_rainbow_order(G: RainbowGraph, p: np.ndarray) -> np.ndarray:
    return np.cumsum(np.take_along_axis(p, G.order, axis=1), axis=1)


# ---------------------------------------------------------------------- T (Lemma 1, corrected)
@settings(max_examples=60, deadline=None)
@given(p=st.integers(2, 5).flatmap(distributions), eps=epsilons, delta=deltas)
def test_T_is_close_and_maximal(p, eps, delta):
    out = T(p, eps, delta)
    assert np.all(out >= 0) and abs(out.sum() - 1.0) < 1e-12
    # (1) T(p) is (ε, δ)-close to p (exact check with only the float error bound as slack)
    assert are_close(out, p, eps, delta)
    # (2) every prefix sum is the largest any (ε, δ)-close distribution can have (LP per k)
    s = np.cumsum(out)
    for k in range(1, p.shape[0]):
        assert s[k - 1] == pytest.approx(lp_max_prefix(p, k, eps, delta), abs=1e-8)


@settings(max_examples=40, deadline=None)
@given(p=st.integers(2, 5).flatmap(distributions), eps=epsilons, delta=deltas)
def test_T_matches_the_corrected_formula_and_rows(p, eps, delta):
    x = math.exp(eps)
    s = np.cumsum(p)
    s[-1] = 1.0
    expected = np.minimum.reduce([np.ones_like(s), x * s + delta, 1 - (1 - s - delta) / x])
    assert np.allclose(np.cumsum(T(p, eps, delta)), expected, atol=1e-12)
    both = T(np.vstack([p, p[::-1]]), eps, delta)
    assert np.array_equal(both[0], T(p, eps, delta))
    assert np.array_equal(both[1], T(p[::-1], eps, delta))


@settings(max_examples=40, deadline=None)
@given(data=st.data(), q=st.integers(2, 5), eps=epsilons, delta=deltas)
def test_T_preserves_dominance(data, q, eps, delta):
    # Lemma 2: p ⪰ p' implies T(p) ⪰ T(p'); build p ⪰ p' by moving mass to better outputs
    p2 = data.draw(distributions(q))
    j = data.draw(st.integers(1, q - 1))
    share = data.draw(st.floats(0, 1))
    p1 = p2.copy()
    moved = p1[j] * share
    p1[j] -= moved
    p1[data.draw(st.integers(0, j - 1))] += moved
    assert np.all(np.cumsum(p1) >= np.cumsum(p2) - 1e-15)
    assert np.all(np.cumsum(T(p1, eps, delta)) >= np.cumsum(T(p2, eps, delta)) - 1e-12)


def test_paper_operator_is_only_e_eps_delta_close():
    # docs/errata.md item 1 (Gu et al., eq. (4.3), Fig. 4): between consecutive nodes of the
    # Fig. 4 line, the printed operator needs delta = e^eps * 0.001 = 0.0012, not 0.001.
    rows = line_mechanism(M_PRINTED, 30, EPS_12, 1e-3, variant="paper")
    need = max(
        max(hockey_stick(a, b, EPS_12), hockey_stick(b, a, EPS_12))
        for a, b in itertools.pairwise(rows)
    )
    assert need == pytest.approx(1.2e-3, abs=1e-12)  # Gu et al., Fig. 4 parameters
    bad = [t for t in range(30) if not are_close(rows[t], rows[t + 1], EPS_12, 1e-3)]
    assert bad  # some edge of the line violates it
    fixed = line_mechanism(M_PRINTED, 30, EPS_12, 1e-3)
    need_fixed = max(
        max(hockey_stick(a, b, EPS_12), hockey_stick(b, a, EPS_12))
        for a, b in itertools.pairwise(fixed)
    )
    assert need_fixed == pytest.approx(1e-3, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(p=st.integers(2, 5).flatmap(distributions), eps=epsilons, delta=deltas)
def test_paper_operator_close_with_e_eps_delta_and_equal_for_delta_zero(p, eps, delta):
    paper = T(p, eps, delta, variant="paper")
    assert are_close(paper, p, eps, min(1.0, math.exp(eps) * delta))
    if delta == 0.0:
        assert np.allclose(paper, T(p, eps, 0.0), atol=1e-12)
    # a positive delta only helps: T_{eps,delta}(p) dominates T_{eps,0}(p)
    assert np.all(np.cumsum(T(p, eps, delta)) >= np.cumsum(T(p, eps, 0.0)) - 1e-12)


def test_T_examples_by_hand():
    # Gu et al., Example 1: one step from M(d1) and M(d4) with e^eps = 2
    assert np.allclose(T([0.2, 0.1, 0.7], math.log(2), 0.0), [0.4, 0.2, 0.4])
    assert np.allclose(T([0.4, 0.1, 0.5], math.log(2), 0.0), [0.7, 0.05, 0.25])
    # delta = 1 moves everything to the top; epsilon = delta = 0 is the identity
    assert np.array_equal(T([0.1, 0.2, 0.7], 0.7, 1.0), [1.0, 0.0, 0.0])
    assert np.allclose(T([0.1, 0.2, 0.7], 0.0, 0.0), [0.1, 0.2, 0.7])


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"p": [0.5, 0.6], "epsilon": 1.0, "delta": 0.0}, r"`p` must sum to 1.*0\.5, 0\.6"),
        ({"p": [1.5, -0.5], "epsilon": 1.0, "delta": 0.0}, r"`p` must be non-negative.*-0\.5"),
        ({"p": [[0.5, 0.5], [0.9, 0.3]], "epsilon": 1.0, "delta": 0.0}, r"`p` row 1.*0\.9, 0\.3"),
        ({"p": [0.5, 0.5], "epsilon": -1.0, "delta": 0.0}, r"`epsilon`.*epsilon=-1\.0"),
        ({"p": [0.5, 0.5], "epsilon": 1.0, "delta": 1.5}, r"`delta` must be in \[0, 1\].*1\.5"),
        (
            {"p": [0.5, 0.5], "epsilon": 1.0, "delta": 0.0, "variant": "printed"},
            r"`variant`.*'printed'",
        ),
        ({"p": np.ones((2, 2, 2)) / 2, "epsilon": 1.0, "delta": 0.0}, r"`p`.*shape \(2, 2, 2\)"),
    ],
)
def test_T_rejects_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        T(**kwargs)


# ---------------------------------------------------------------------- τ (eqs. 5.1, 5.4)
@pytest.mark.parametrize(
    ("delta", "expected"),
    [
        (0.0, [38, 22, 7, 1, 0]),  # Gu et al., Fig. 3
        (1e-3, [25, 20, 7, 1, 0]),  # Gu et al., Fig. 4
        (0.01, [13, 12, 6, 1, 0]),  # Gu et al., Fig. 5
    ],
)
@pytest.mark.parametrize("variant", ["corrected", "paper"])
def test_tau_printed_values(delta, expected, variant):
    # Both operators reproduce the printed tau from the printed (rounded) boundary vector.
    assert tau(M_PRINTED, EPS_12, delta, variant=variant).tolist() == expected
    # ... and tau is the first t with s_k^t >= threshold when T is iterated (no "+1")
    rows = line_mechanism(M_PRINTED, 45, EPS_12, delta, variant=variant)
    s = np.cumsum(rows, axis=1)
    thr = switch_threshold(EPS_12, delta, variant=variant)
    first = [int(np.argmax(s[:, k] >= thr)) for k in range(5)]
    assert first == expected


def test_tau_plus_one_and_unrounded_vector_do_not_give_the_printed_values():
    # docs/errata.md item 2: with the "+1" of (5.1) every finite tau_k < q would be one larger
    s0 = np.cumsum(M_PRINTED)
    plus_one = np.ceil(np.maximum(-np.log(s0 * 2.2) / EPS_12 + 1, 0)).astype(int)
    assert plus_one.tolist() == [39, 23, 8, 2, 0]  # not Gu et al., Fig. 3
    # the unrounded vector gives tau_1 = 37 at delta = 0: Fig. 3 used the rounded one
    assert tau(M_EXACT, EPS_12, 0.0).tolist() == [37, 22, 7, 1, 0]


@settings(max_examples=60, deadline=None)
@given(
    p=st.integers(2, 5).flatmap(distributions),
    eps=epsilons,
    delta=deltas,
    variant=st.sampled_from(["corrected", "paper"]),
)
def test_tau_is_first_crossing_of_iteration(p, eps, delta, variant):
    taus = tau(p, eps, delta, variant=variant)
    thr = switch_threshold(eps, delta, variant=variant)
    finite = taus != TAU_INFINITY
    horizon = int(taus[finite].max()) + 2 if finite.any() else 5
    assume(horizon < 3000)
    s = np.cumsum(line_mechanism(p, horizon, eps, delta, variant=variant), axis=1)
    for k in range(p.shape[0]):
        hit = np.flatnonzero(s[:, k] >= thr * (1 - 1e-12) - 1e-15)
        # exact up to ties at the threshold (a sum equal to it in exact arithmetic lands an ulp
        # either side in floats), where both branches agree: the earlier index is the tie
        if finite[k]:
            assert hit.size and abs(int(hit[0]) - int(taus[k])) <= 1
            if int(hit[0]) != int(taus[k]):
                first = min(int(hit[0]), int(taus[k]))
                assert s[first, k] == pytest.approx(thr, rel=1e-9)
        else:
            assert np.all(s[hit, k] == pytest.approx(thr, rel=1e-9))


def test_tau_infinite_cases():
    assert tau([0.0, 1.0], 1.0, 0.0).tolist() == [TAU_INFINITY, 0]
    assert tau([0.2, 0.8], 0.0, 0.0).tolist() == [TAU_INFINITY, 0]
    assert tau([0.2, 0.8], 0.0, 0.1).tolist() == [3, 0]  # 0.2 + 3 * 0.1 >= 0.45


# ---------------------------------------------------------------------- closed form (5.2)/(5.5)
@settings(max_examples=60, deadline=None)
@given(
    p=st.integers(2, 5).flatmap(distributions),
    eps=epsilons,
    delta=deltas,
    n=st.integers(0, 60),
    variant=st.sampled_from(["corrected", "paper"]),
)
def test_closed_form_equals_iteration(p, eps, delta, n, variant):
    it = np.cumsum(line_mechanism(p, n, eps, delta, variant=variant), axis=1)
    cf = prefix_sums_closed_form(p, np.arange(n + 1), eps, delta, variant=variant)
    assert np.allclose(it, cf, atol=1e-9)
    rows = line_mechanism(p, n, eps, delta, variant=variant, method="closed-form")
    assert np.allclose(rows, line_mechanism(p, n, eps, delta, variant=variant), atol=1e-9)


def test_paper_closed_form_with_plus_one_does_not_match_iteration():
    # docs/errata.md item 2: (5.5) evaluated with the printed tau (with "+1") vs iteration
    eps, delta = EPS_12, 1e-3
    x, rho = 1.2, delta / 0.2
    s0 = np.cumsum(M_PRINTED)
    s0[-1] = 1.0
    tau_plus = np.ceil(np.maximum(np.log((1 / (x + 1) + rho) / (s0 + rho)) / eps + 1, 0))

    def eq_5_5(t, taus):
        first = np.minimum(1, np.exp(t * eps) * (s0 + rho) - rho)
        s_tau = np.minimum(1, np.exp(taus * eps) * (s0 + rho) - rho)
        second = np.minimum(1, 1 + x * rho - np.exp(-eps * (t - taus)) * (1 - s_tau + x * rho))
        return np.where(t <= taus, first, second)

    it = np.cumsum(line_mechanism(M_PRINTED, 40, eps, delta, variant="paper"), axis=1)
    with_plus = np.array([eq_5_5(t, tau_plus) for t in range(41)])
    without = np.array(
        [eq_5_5(t, tau(M_PRINTED, eps, delta, variant="paper").astype(float)) for t in range(41)]
    )
    assert np.abs(with_plus - it).max() > 1e-3
    assert np.abs(without - it).max() < 1e-12


def test_positive_delta_reaches_the_top_in_finitely_many_steps():
    for variant in ("corrected", "paper"):
        rows = line_mechanism(M_PRINTED, 60, EPS_12, 0.01, variant=variant)
        top = np.flatnonzero(rows[:, 0] == 1.0)
        assert top.size and np.all(rows[top[0] :, 0] == 1.0)
        cf = prefix_sums_closed_form(M_PRINTED, top[0], EPS_12, 0.01, variant=variant)
        assert np.all(cf == 1.0)
    # with delta = 0 it never does
    assert np.all(line_mechanism(M_PRINTED, 60, EPS_12, 0.0)[:, 0] < 1.0)


def test_closed_form_interpolates_and_rejects_bad_t():
    s = prefix_sums_closed_form(M_PRINTED, [0.5, 1.0, 1.5], EPS_12, 0.0)
    assert s.shape == (3, 5)
    assert np.all(np.diff(s, axis=0) > -1e-15)  # monotone in t
    with pytest.raises(ValueError, match=r"`t` must be finite and >= 0.*-1"):
        prefix_sums_closed_form(M_PRINTED, [-1.0], EPS_12, 0.0)


# ---------------------------------------------------------------------- lines (Theorem 4)
@settings(max_examples=30, deadline=None)
@given(p=st.integers(2, 5).flatmap(distributions), eps=epsilons, delta=deltas, n=st.integers(1, 12))
def test_line_mechanism_is_optimal_on_the_line(p, eps, delta, n):
    rb = tuple(range(p.shape[0]))
    G = builders.line(rb, n)
    rows = line_mechanism(p, n, eps, delta)
    assert verify(Mechanism(G, rows), epsilon=eps, delta=delta).is_private
    M = optimal_mechanism(G, epsilon=eps, delta=delta, boundary={rb: p})
    assert_closed_form_or_certified_mix(M, rows, eps, delta)


def test_line_mechanism_rejects_bad_arguments():
    with pytest.raises(ValueError, match=r"`n` must be >= 0.*n=-1"):
        line_mechanism([0.5, 0.5], -1, 1.0, 0.0)
    with pytest.raises(ValueError, match=r"`method`.*'exact'"):
        line_mechanism([0.5, 0.5], 2, 1.0, 0.0, method="exact")


# ---------------------------------------------------------------------- graphs (Theorems 2-3)
@settings(max_examples=40, deadline=None)
@given(
    G=rainbow_graphs(connected=True, max_nodes=7, max_outputs=4),
    eps=epsilons,
    delta=deltas,
    seed=st.integers(0, 2**32 - 1),
)
def test_optimal_mechanism_is_private_homogeneous_and_dominates_lp(G, eps, delta, seed):
    rng = np.random.default_rng(seed)
    rows = valid_boundary(G, eps, delta, rng)
    M = optimal_mechanism(G, epsilon=eps, delta=delta, boundary=rows)
    P = M.probabilities
    assert verify(M, epsilon=eps, delta=delta).is_private
    # boundary homogeneous (Definition 6), with the given rows up to the certified mix
    fixed = {}
    first: dict = {}
    for i in np.flatnonzero(G.boundary_mask):
        c = G.rainbows[G.rainbow_ids[i]]
        assert np.array_equal(P[i], P[first.setdefault(c, i)])
        assert np.allclose(P[i], rows[c] / rows[c].sum(), atol=1e-6, rtol=0)
        fixed[int(i)] = P[i]
    # equals the end-of-Section-4 formula (distances from networkx, T iterated by hand)
    assert_closed_form_or_certified_mix(M, formula_mechanism(G, rows, eps, delta), eps, delta)
    # dominates the LP optimum of a random positive combination of prefix sums
    w = rng.uniform(0.1, 1.0, size=(G.n_nodes, G.n_outputs))
    lp = lp_graph_optimum(G, fixed, eps, delta, w)
    ours, theirs = prefix_in_rainbow_order(G, P), prefix_in_rainbow_order(G, lp)
    assert np.all(ours >= theirs - 1e-7)
    assert (w * ours).sum() == pytest.approx((w * theirs).sum(), abs=1e-6)


@settings(max_examples=30, deadline=None)
@given(
    G=rainbow_graphs(connected=False, max_nodes=7),
    eps=epsilons,
    delta=deltas,
    seed=st.integers(0, 2**32 - 1),
)
def test_optimal_mechanism_on_disconnected_graphs(G, eps, delta, seed):
    rows = valid_boundary(G, eps, delta, np.random.default_rng(seed))
    M = optimal_mechanism(G, epsilon=eps, delta=delta, boundary=rows)
    assert verify(M, epsilon=eps, delta=delta).is_private
    assert_closed_form_or_certified_mix(M, formula_mechanism(G, rows, eps, delta), eps, delta)


def test_components_without_boundary_get_the_point_mass():
    g = nx.union(nx.path_graph(3), nx.path_graph([10, 11]))
    nx.set_node_attributes(g, {0: "ab", 1: "ab", 2: "ba", 10: "ab", 11: "ab"}, "rainbow")
    for v in g.nodes:
        g.nodes[v]["rainbow"] = list(g.nodes[v]["rainbow"])
    G = RainbowGraph(g, outputs=["a", "b"])
    _, gmap = boundary_graph(G)
    assert gmap(10) == (("a", "b"), INFINITE_DISTANCE_LABEL)
    M = optimal_mechanism(G, epsilon=1.0, boundary={("a", "b"): [0.5, 0.5], ("b", "a"): [0.5, 0.5]})
    assert M.row(10).tolist() == [1.0, 0.0] and M.row(11).tolist() == [1.0, 0.0]
    # a single-rainbow graph with no declared boundary needs no boundary distribution at all
    H = RainbowGraph(
        nx.relabel_nodes(g.subgraph([10, 11]).copy(), {10: 0, 11: 1}), outputs=["a", "b"]
    )
    M2 = optimal_mechanism(H, epsilon=1.0, boundary={("b", "a"): [0.5, 0.5]})
    assert M2.probabilities.tolist() == [[1.0, 0.0], [1.0, 0.0]]


def test_binary_and_ternary_cycles():
    # binary: D'Oliveira et al. graph colouring; ternary: any q works with the same code
    for q in (2, 3):
        outs = tuple(range(q))
        other = tuple(reversed(outs))
        G = builders.cycle([outs] * 6 + [other] * 3)
        u = np.full(q, 1.0 / q)
        M = optimal_mechanism(G, epsilon=0.5, delta=0.01, boundary={outs: u, other: u})
        assert verify(M, epsilon=0.5, delta=0.01).is_private
        # the two interior nodes of the long arc (distance 2 from the boundary)
        far = M.in_rainbow_order()[2]
        assert np.allclose(far, T(T(u, 0.5, 0.01), 0.5, 0.01))


def test_node_wise_homogeneous_boundary_equals_rainbow_wise():
    G = builders.cycle([(1, 2, 3)] * 4 + [(1, 3, 2)])
    rows = {(1, 2, 3): [0.3, 0.3, 0.4], (1, 3, 2): [0.3, 0.3, 0.4]}
    by_node = {0: rows[(1, 2, 3)], 3: rows[(1, 2, 3)], 4: rows[(1, 3, 2)]}
    a = optimal_mechanism(G, epsilon=math.log(2), boundary=rows)
    b = optimal_mechanism(G, epsilon=math.log(2), boundary=by_node)
    assert np.array_equal(a.probabilities, b.probabilities)


def test_paper_variant_fails_reverification_for_positive_delta():
    G = builders.line((1, 2, 3, 4, 5), 40)
    with pytest.raises(NotPrivateError, match=r"not \(0\.182322, 0\.001\)-DP.*errata"):
        optimal_mechanism(
            G, epsilon=EPS_12, delta=1e-3, boundary={(1, 2, 3, 4, 5): M_PRINTED}, variant="paper"
        )
    M = optimal_mechanism(
        G, epsilon=EPS_12, delta=0.0, boundary={(1, 2, 3, 4, 5): M_PRINTED}, variant="paper"
    )
    assert verify(M, epsilon=EPS_12).is_private


# ---------------------------------------------------------------------- Example 1 (Gu et al.)
EX1_RAINBOWS = [(1, 2, 3)] * 4 + [(1, 3, 2)]
EX1_D1, EX1_D4 = [0.2, 0.1, 0.7], [0.4, 0.1, 0.5]  # Gu et al., Example 1
EX1_D5 = [0.3, 0.1, 0.6]  # not given in the paper; any row close to M(d1) and M(d4) works


def _example1(d2, d3) -> Mechanism:
    G = builders.cycle(EX1_RAINBOWS)
    return Mechanism(G, [EX1_D1, d2, d3, EX1_D4, EX1_D5])


def test_example1_two_valid_mechanisms_and_no_optimum():
    eps = math.log(2)  # Gu et al., Example 1: e^eps = 2
    m1 = _example1([0.4, 0.2, 0.4], [0.4, 0.2, 0.4])  # M1
    m2 = _example1([0.4, 0.1, 0.5], [0.7, 0.05, 0.25])  # M2
    assert verify(m1, epsilon=eps).is_private
    assert verify(m2, epsilon=eps).is_private
    # the pointwise best rows: T of each boundary row (the largest close rows) ...
    assert np.allclose(T(EX1_D1, eps, 0.0), [0.4, 0.2, 0.4])
    assert np.allclose(T(EX1_D4, eps, 0.0), [0.7, 0.05, 0.25])
    # ... M3 takes M1 at d2 and M2 at d3, and is not DP: M3(d2)_2 = 0.2 > 2 * 0.05
    m3 = _example1([0.4, 0.2, 0.4], [0.7, 0.05, 0.25])
    r = verify(m3, epsilon=eps)
    assert not r.is_private
    assert r.worst_edge == (1, 2) and r.witness == (2,)
    assert r.delta_required == pytest.approx(0.1)
    with pytest.raises(NoOptimalMechanismError, match=r"nodes 0 and 3.*\(1, 2, 3\).*Example 1"):
        optimal_mechanism(m1.graph, epsilon=eps, boundary={0: EX1_D1, 3: EX1_D4, 4: EX1_D5})


# ---------------------------------------------------------------------- errors
def _two_rainbow_path():
    g = nx.path_graph(4)
    for v in g.nodes:
        g.nodes[v]["rainbow"] = ["a", "b"] if v < 2 else ["b", "a"]
    return RainbowGraph(g, outputs=["a", "b"])


def test_invalid_boundary_names_edge_and_needed_delta():
    G = _two_rainbow_path()
    with pytest.raises(
        InvalidBoundaryError, match=r"edge \(1, 2\).*not \(0\.5, 0\)-close.*delta >= 0\.470256"
    ):
        optimal_mechanism(G, epsilon=0.5, boundary={("a", "b"): [0.8, 0.2], ("b", "a"): [0.2, 0.8]})
    # the same rows are fine with delta large enough: need = 0.8 - e^0.5 * 0.2
    need = 0.8 - math.exp(0.5) * 0.2
    M = optimal_mechanism(
        G, epsilon=0.5, delta=need + 1e-9, boundary={("a", "b"): [0.8, 0.2], ("b", "a"): [0.2, 0.8]}
    )
    assert verify(M, epsilon=0.5, delta=need + 1e-9).is_private


@pytest.mark.parametrize(
    ("boundary", "error", "match"),
    [
        (
            {("a", "b"): [0.5, 0.5]},
            InvalidBoundaryError,
            r"no distribution for rainbow \('b', 'a'\)",
        ),
        ({}, InvalidBoundaryError, r"no distribution for rainbow \('a', 'b'\)"),
        ({("a", "b"): [0.5, 0.5], "zz": [0.5, 0.5]}, InvalidBoundaryError, r"key 'zz'"),
        (
            {1: [0.5, 0.5], 2: [0.5, 0.5], 0: [0.5, 0.5]},
            InvalidBoundaryError,
            r"node 0, which is not a boundary node",
        ),
        ({1: [0.5, 0.5]}, InvalidBoundaryError, r"no distribution for boundary node 2"),
        (
            {("a", "b"): [0.5, 0.6], ("b", "a"): [0.5, 0.5]},
            InvalidBoundaryError,
            r"boundary\[\('a', 'b'\)\].*sum to 1.*0\.5, 0\.6",
        ),
        ({("a", "b"): [1.0], ("b", "a"): [0.5, 0.5]}, InvalidBoundaryError, r"must have 2 entries"),
        ([0.5, 0.5], TypeError, r"`boundary` must be a mapping.*\[0\.5, 0\.5\]"),
    ],
)
def test_bad_boundaries(boundary, error, match):
    with pytest.raises(error, match=match):
        optimal_mechanism(_two_rainbow_path(), epsilon=1.0, boundary=boundary)


def test_bad_parameters():
    G = _two_rainbow_path()
    ok = {("a", "b"): [0.5, 0.5], ("b", "a"): [0.5, 0.5]}
    with pytest.raises(ValueError, match=r"`epsilon`.*epsilon=nan"):
        optimal_mechanism(G, epsilon=float("nan"), boundary=ok)
    with pytest.raises(ValueError, match=r"`delta`.*delta=-0\.1"):
        optimal_mechanism(G, epsilon=1.0, delta=-0.1, boundary=ok)
    with pytest.raises(ValueError, match=r"`variant`.*'x'"):
        optimal_mechanism(G, epsilon=1.0, boundary=ok, variant="x")
    with pytest.raises(TypeError, match=r"`G` must be a RainbowGraph.*Graph"):
        optimal_mechanism(nx.Graph(), epsilon=1.0, boundary=ok)


def test_result_is_a_pullback_from_the_boundary_graph():
    G = builders.cycle([(1, 2, 3)] * 5 + [(2, 1, 3)] * 4)
    rows = {(1, 2, 3): [0.3, 0.3, 0.4], (2, 1, 3): [0.3, 0.35, 0.35]}
    M = optimal_mechanism(G, epsilon=0.4, delta=0.02, boundary=rows)
    Gb, g = boundary_graph(G)
    Mb = optimal_mechanism(Gb, epsilon=0.4, delta=0.02, boundary=rows)
    assert np.array_equal(Morphism(G, Gb, g.index).pullback(Mb).probabilities, M.probabilities)
