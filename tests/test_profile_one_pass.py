"""The privacy profile in one pass over the edges: the values of one pass per ε, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rainbowdp._verify.fused as fused
import rainbowdp._verify.kernels as kernels
import rainbowdp._verify.profile as one_pass
from rainbowdp._verify.exact import delta_upper, enclose_exp
from rainbowdp._verify.kernels import directed_divergences
from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism
from rainbowdp.privacy import privacy_profile


def per_epsilon(p: np.ndarray, edges: np.ndarray, one_way: bool, grid: np.ndarray) -> np.ndarray:
    """The reference: every edge evaluated at every ε, then ``delta_upper`` over all edges."""
    out = np.empty(grid.shape)
    for i, e in enumerate(grid.tolist()):
        enc = enclose_exp(e)
        fwd, bwd = directed_divergences(p, edges, enc.m, enc.k, one_way=one_way)
        out[i] = delta_upper(p, edges, enc, fwd, bwd)
    return out


def rows(rng: np.random.Generator, n: int, q: int, kind: str) -> np.ndarray:
    if kind == "uniform":
        p = rng.random((n, q)) + 0.05
    elif kind == "dirichlet":
        p = rng.dirichlet(np.full(q, 0.3), size=n)
    elif kind == "holes":  # zeros: infinite ratios, δ > 0 at every ε
        p = rng.random((n, q)) * (rng.random((n, q)) < 0.6)
        p[:, 0] += 1e-3
    elif kind == "ties":  # few distinct rows: many edges share the maximum
        base = rng.dirichlet(np.ones(q), size=4)
        p = base[rng.integers(0, 4, n)]
    else:  # subnormal entries: ratios beyond the float range
        p = rng.random((n, q)) + 0.05
        p[rng.random((n, q)) < 0.1] = 5e-324
    return p / p.sum(axis=1, keepdims=True)


def random_edges(rng: np.random.Generator, n: int, m: int) -> np.ndarray:
    e = rng.integers(0, n, size=(m, 2))
    return e[e[:, 0] != e[:, 1]]


GRIDS = {
    "linear": lambda rng: np.linspace(0.0, 3.0, 40),
    "past the ratios": lambda rng: np.linspace(0.0, 12.0, 25),
    "log": lambda rng: np.geomspace(1e-6, 30.0, 30),
    "random": lambda rng: np.sort(rng.random(17) * 4.0),
    "huge": lambda rng: np.array([0.0, 0.5, 699.0, 700.5, 709.9, 745.9, 746.0, 1e4]),
    "dense": lambda rng: 1.0 + np.arange(12) * 2.0**-45,
}


@settings(max_examples=120, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 60),
    m=st.integers(1, 400),
    q=st.sampled_from([1, 2, 3, 8, 33]),
    kind=st.sampled_from(["uniform", "dirichlet", "holes", "ties", "subnormal"]),
    grid=st.sampled_from(sorted(GRIDS)),
    one_way=st.booleans(),
    anchors=st.integers(1, 6),
    chunk=st.sampled_from([8, 64, 1 << 16]),
    split=st.sampled_from([0, 5, 2048]),
    sample=st.sampled_from([1, 7, 1024]),
    compiled=st.booleans(),
)
def test_one_pass_equals_per_epsilon(
    seed, n, m, q, kind, grid, one_way, anchors, chunk, split, sample, compiled
):
    rng = np.random.default_rng(seed)
    p = rows(rng, n, q, kind)
    edges = random_edges(rng, n, m)
    if edges.shape[0] == 0:
        return
    g = GRIDS[grid](rng)
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(one_pass, "N_ANCHORS", anchors)
        mp.setattr(kernels, "CHUNK_ELEMENTS", chunk)  # many chunks: the bounds L_k grow
        mp.setattr(one_pass, "SPLIT_EDGES", split)  # intervals cut in two, recursively
        mp.setattr(one_pass, "SAMPLE_EDGES", sample)  # anchors placed from a sample, or not
        # the compiled kernels (where numba is installed) at every size, or numpy only
        mp.setattr(fused, "MIN_ELEMENTS", 0 if compiled else 1 << 62)
        got = one_pass.profile_one_pass(p, edges, one_way, g)
    finally:
        mp.undo()
    assert np.array_equal(got, per_epsilon(p, edges, one_way, g))


def test_privacy_profile_uses_one_pass_with_the_same_values(monkeypatch):
    rng = np.random.default_rng(7)
    n, q = 400, 5
    edges = random_edges(rng, n, 3000)
    G = RainbowGraph.from_edges(
        np.unique(np.sort(edges, axis=1), axis=0),
        outputs=range(q),
        rainbow_table=[list(range(q))],
        rainbow_ids=np.zeros(n, dtype=int),
    )
    M = Mechanism(G, rows(rng, n, q, "dirichlet"))
    eps = np.array([2.0, 0.0, 0.5, 2.0, 1.0, 0.25, 3.0])  # unsorted, with a repeat
    calls, sizes = [], []
    real, real_upper = one_pass.profile_one_pass, one_pass.delta_upper
    monkeypatch.setattr(
        "rainbowdp._verify.delta.profile_one_pass", lambda *a, **k: calls.append(k) or real(*a, **k)
    )
    monkeypatch.setattr(
        one_pass, "delta_upper", lambda p, e, *a: sizes.append(len(e)) or real_upper(p, e, *a)
    )
    got = privacy_profile(M, eps)
    assert calls, "the one-pass path was not taken"
    # the mechanism's remembered row sum and irregular rows are lent, not recomputed
    assert calls[0]["row_sum"] == float(M.probabilities.sum(axis=1).max())
    assert calls[0]["irregular"].size == 0
    # most edges are proved unable to attain any maximum and are never evaluated again
    assert len(sizes) == np.unique(eps).size and max(sizes) < G.n_edges / 10
    want = per_epsilon(M.probabilities, G.edges, False, eps)
    assert np.array_equal(got, want)
    assert np.all(np.diff(got[np.argsort(eps, kind="stable")]) <= 0)  # δ(ε) non-increasing


def test_anchors_end_where_the_sample_reaches_zero():
    """Anchors spread over the part of the grid where δ > 0, not over the whole grid: on a grid
    reaching far past every likelihood ratio, the last anchor is the first ε at which the sample
    is 0, and the others lie before it."""
    rng = np.random.default_rng(5)
    n, q = 2000, 4
    p = rows(rng, n, q, "uniform")
    edges = random_edges(rng, n, 20000)
    grid = np.linspace(0.0, 12.0, 100)
    seen = []

    def learn(picks):
        enc = [enclose_exp(float(e)) for e in grid]
        f = one_pass._rows_at_all(p, edges[picks], enc, False)
        seen.append(picks.size)
        return f.max(axis=0)

    anchors = one_pass._place_anchors(learn, edges.shape[0], grid)
    assert seen == [one_pass.SAMPLE_EDGES]
    a, b = p[edges[:, 0]], p[edges[:, 1]]
    top = np.log(np.maximum(a / b, b / a).max())  # the largest log-ratio over all edges
    assert 0.5 < top < 4.0
    # the sample is 0 from the first ε past its own largest ratio, at most the edges' largest
    assert grid[anchors[-1]] <= top + grid[1]
    assert anchors[0] == 0 and anchors.size == one_pass.N_ANCHORS
    assert np.all(np.diff(anchors) > 0)
    # evenly in ε: the middle anchor near the middle of [0, ε_end]
    assert abs(grid[anchors[1]] - grid[anchors[-1]] / 2) <= grid[1]


def test_envelope_is_the_maximum_of_its_lines():
    rng = np.random.default_rng(3)
    for _ in range(50):
        k = int(rng.integers(1, 30))
        t = np.sort(rng.random(k))
        if rng.random() < 0.3:
            t[: k // 2] = t[0]  # equal slopes
        c = rng.random(k)
        env = one_pass._envelope(t, c)
        s = np.concatenate([rng.normal(0, 3, 200), [-1e6, 0.0, 1e6]])
        want = (t[None, :] * s[:, None] - c[None, :]).max(axis=1)
        got = one_pass._envelope_at(env, s)
        assert np.allclose(got, want, rtol=1e-12, atol=1e-9)
        assert np.all(got >= want - 1e-9 * (1 + np.abs(s)))
