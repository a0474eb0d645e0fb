"""The sensitivity of a graph, and the additive families that take it from the graph.

A median query is the standard example of a large sensitivity: replacing one record of
(0, 0, 4) by a 4 moves the median from 0 to 4, so the geometric mechanism must use
α = e^{-ε/4} to be ε-DP (Ghosh, Roughgarden, Sundararajan 2009: the α-geometric mechanism is
ε-DP for answers that differ by at most Δ when α = e^{-ε/Δ}).
"""

from __future__ import annotations

import math
import statistics
import time
from decimal import Decimal
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rainbowdp as rdp
from rainbowdp import noise
from rainbowdp.builders import circulant, count_path, from_records, line
from rainbowdp.exceptions import ParameterError, ParameterTypeError


def median_graph():
    """Medians (the lower one) of three records from {0, 2, 4}, replace-one neighbours."""
    return from_records(
        [0, 2, 4], size=3, query=statistics.median_low, outputs=range(5), relation="replace_one"
    )


def naive(G) -> float:
    """max |a(u) - a(v)| over the edges, in exact arithmetic, edge by edge."""
    a = G.answers
    return max((abs(Fraction(a[u]) - Fraction(a[v])) for u, v in G.edges.tolist()), default=0)


# ------------------------------------------------------------------------------------ the value
def test_median_graph_has_sensitivity_four():
    G = median_graph()
    s = rdp.sensitivity(G)
    assert s.value == 4 and isinstance(s.value, int)
    u, v = s.edge
    assert s.answers == (statistics.median_low(u), statistics.median_low(v))
    assert abs(s.answers[0] - s.answers[1]) == 4
    assert G.graph.has_edge(u, v)
    assert repr(s).startswith("Sensitivity(4, edge=(") and "\n" not in repr(s)


def test_count_path_and_circulant():
    assert rdp.sensitivity(count_path(7)).value == 1
    G = circulant(6, [1, 3])  # answers 0..6, the edges q ~ q + mu (mod 7)
    assert rdp.sensitivity(G).value == 6  # the edge 6 ~ 0 as plain numbers
    assert rdp.sensitivity(G, modulus=7).value == 3  # the largest shift, cyclically
    assert rdp.sensitivity(G, modulus=7).modulus == 7


def test_graph_without_edges_has_sensitivity_zero():
    G = rdp.RainbowGraph.from_query(nx.empty_graph(3), [0, 1], answer={0: 0, 1: 1, 2: 5})
    s = rdp.sensitivity(G)
    assert (s.value, s.edge, s.answers) == (0, None, None)


def test_exact_reals_and_large_integers():
    g = nx.path_graph(3)
    G = rdp.RainbowGraph.from_query(
        g, ["x"], answer={0: Fraction(1, 3), 1: Fraction(2, 3), 2: Fraction(1, 2)}
    )
    s = rdp.sensitivity(G)
    assert s.value >= 1 / 3 and s.value == float(np.nextafter(1 / 3, 1))  # 1/3 rounded up
    G = rdp.RainbowGraph.from_query(g, ["x"], answer={0: Decimal("0.5"), 1: 2, 2: 2})
    assert rdp.sensitivity(G).value == 1.5
    big = 2**70
    G = rdp.RainbowGraph.from_query(g, ["x"], answer={0: big, 1: big + 3, 2: -big})
    assert rdp.sensitivity(G).value == 2 * big + 3  # exact, beyond int64
    # answers of magnitude 2^62 fit int64 but their difference 2^63 does not: still exact
    edge = 2**62
    G = rdp.RainbowGraph.from_query(g, ["x"], answer={0: edge, 1: -edge, 2: -edge + 1})
    s = rdp.sensitivity(G)
    assert (s.value, s.edge) == (2**63, (0, 1))


def test_errors_name_the_problem():
    with pytest.raises(ParameterError, match="no true answers"):
        rdp.sensitivity(line(["a", "b"], 3))
    G = rdp.RainbowGraph.from_query(nx.path_graph(2), ["a", "b"], answer={0: "a", 1: "b"})
    with pytest.raises(ParameterError, match="non-numeric true answer 'a'"):
        rdp.sensitivity(G)
    with pytest.raises(ParameterTypeError, match="`G`"):
        rdp.sensitivity("G")
    G = rdp.RainbowGraph.from_query(nx.path_graph(2), [0.0], answer={0: 0.5, 1: 1.0})
    with pytest.raises(ParameterError, match="modulus"):
        rdp.sensitivity(G, modulus=3)
    with pytest.raises(ParameterError, match="modulus"):
        rdp.sensitivity(count_path(3), modulus=0)


@st.composite
def answered_graphs(draw):
    n = draw(st.integers(1, 12))
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=30))
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from((u, v) for u, v in pairs if u != v)
    numbers = draw(
        st.sampled_from(
            [
                st.integers(-(2**40), 2**40),
                st.integers(-(2**63), 2**63 - 1),  # int64's range: differences overflow it
                st.integers(-5, 5),
                st.floats(-1e6, 1e6, allow_nan=False),
                st.floats(-1e300, 1e300, allow_nan=False),
            ]
        )
    )
    answers = {d: draw(numbers) for d in range(n)}
    return rdp.RainbowGraph.from_query(g, [0], answer=answers)


@settings(max_examples=150, deadline=None)
@given(answered_graphs())
def test_sensitivity_is_the_largest_answer_change_over_the_edges(G):
    s = rdp.sensitivity(G)
    exact = naive(G)
    if isinstance(s.value, int):
        assert s.value == exact
    else:  # floats: never below the exact difference, and at most one float above it
        assert Fraction(s.value) >= exact
        assert s.value <= np.nextafter(float(exact), math.inf)
    if G.n_edges:
        a, b = s.answers
        assert abs(Fraction(a) - Fraction(b)) == exact
        assert G.graph.has_edge(*s.edge)


def test_large_graph_is_one_vectorised_pass():
    rng = np.random.default_rng(1)
    n, m = 50_000, 300_000
    edges = rng.integers(0, n, size=(m, 2))
    edges = np.unique(np.sort(edges[edges[:, 0] != edges[:, 1]], axis=1), axis=0)
    answers = rng.integers(0, 1000, size=n)
    G = rdp.RainbowGraph.from_edges(
        edges,
        outputs=[0, 1],
        rainbow_table=[[0, 1]],
        rainbow_ids=np.zeros(n, dtype=np.intp),
        answers=answers.tolist(),
    )
    start = time.perf_counter()
    s = rdp.sensitivity(G)
    elapsed = time.perf_counter() - start
    assert s.value == int(np.abs(answers[edges[:, 0]] - answers[edges[:, 1]]).max())
    assert elapsed < 5.0  # about 0.1 s; a loop over a million edges in Python takes seconds


# ------------------------------------------------------------------------------------ families
def test_geometric_takes_the_sensitivity_of_the_graph():
    G = median_graph()
    M = noise.geometric(G, epsilon=1.0)
    # alpha = e^{-1/4}: (1, 0)-DP by the exact verifier, not (4, 0)
    assert float(rdp.epsilon_for_delta(M, 0.0)) <= 1.0
    assert rdp.certify(M, epsilon=1.0).verdict == "private"
    assert noise.Geometric(1.0).for_graph(G).sensitivity == 4
    assert noise.Geometric(1.0).holds_on(G) is True
    # the rows at sensitivity 1, as the old default built them, are about 4-DP on this graph
    rows = noise.additive_rows(
        G.answers, G.outputs, noise.StaircaseLaw(noise.build_epsilon(1.0)), form="clamped"
    )
    assert float(rdp.epsilon_for_delta(rdp.Mechanism(G, rows), 0.0)) > 3.9


def test_a_sensitivity_below_the_graphs_is_refused():
    G = median_graph()
    s = rdp.sensitivity(G)
    for build in (
        lambda: noise.geometric(G, epsilon=1.0, sensitivity=1),
        lambda: noise.geometric(G, epsilon=1.0, sensitivity=3, form="truncated"),
        lambda: noise.discrete_gaussian(G, sigma=2.0, sensitivity=2),
        lambda: noise.staircase(G, epsilon=1.0, sensitivity=1),
        lambda: noise.exponential(G, epsilon=1.0, sensitivity=1.0),
    ):
        with pytest.raises(ParameterError) as info:
            build()
        text = str(info.value)
        assert "`sensitivity`" in text and ("sensitivity 4" in text or "graph 4" in text)
        assert repr(s.edge) in text or "edge (" in text
    assert noise.Geometric(1.0, sensitivity=1).holds_on(G) is False
    assert noise.DiscreteGaussian(2.0, sensitivity=2).holds_on(G) is False
    assert noise.Exponential(1.0, sensitivity=1.0).holds_on(G) is False


def test_the_message_names_value_sensitivity_and_edge():
    G = median_graph()
    s = rdp.sensitivity(G)
    with pytest.raises(ParameterError) as info:
        noise.geometric(G, epsilon=1.0, sensitivity=1)
    text = str(info.value)
    assert "sensitivity=1" in text and f"edge {s.edge!r}" in text
    assert f"answers {s.answers[0]} and {s.answers[1]}" in text


def test_a_larger_sensitivity_is_allowed_and_conservative():
    G = median_graph()
    M = noise.geometric(G, epsilon=1.0, sensitivity=6)
    assert float(rdp.epsilon_for_delta(M, 0.0)) <= 4 / 6 + 1e-9  # rate 1/6, largest change 4
    assert noise.Geometric(1.0, sensitivity=6).holds_on(G) is True


@pytest.mark.parametrize("form", noise.FORMS)
def test_every_derived_pure_family_verifies_at_its_epsilon(form):
    G = median_graph()
    for family in (noise.Geometric(0.8, form=form), noise.Staircase(0.8, form=form)):
        M = family.mechanism(G)
        assert family.for_graph(G).sensitivity == (2 if form == "modular" else 4)
        if form != "truncated":  # post-processing of an 0.8-DP release
            assert family.holds_on(G) is True
            assert rdp.certify(M, epsilon=0.8).verdict == "private"
        else:  # not a post-processing: holds_on decides it with the verifier
            holds = family.holds_on(G)
            assert holds in (True, False)
            exact = float(rdp.epsilon_for_delta(M, 0.0))
            assert (exact <= 0.8) if holds else (exact > 0.8)
    M = noise.exponential(G, epsilon=0.8)
    assert rdp.certify(M, epsilon=0.8).verdict == "private"


def test_discrete_gaussian_meets_its_profile_at_the_graph_sensitivity():
    G = median_graph()
    family = noise.DiscreteGaussian(2.0)
    resolved = family.for_graph(G)
    assert resolved.sensitivity == 4 and family.holds_on(G) is True
    claim = resolved.nominal()
    eps = [0.0, 0.5, 1.0, 2.0, 4.0]
    exact = rdp.privacy_profile(family.mechanism(G), eps)
    stated = np.array([claim.dp_delta(e) for e in eps])
    assert np.all(exact <= stated + claim.tolerance)
    # the profile at sensitivity 1 (the old default) is exceeded on this graph
    unit = noise.DiscreteGaussian(2.0, sensitivity=1).nominal()
    assert np.any(exact > np.array([unit.dp_delta(e) for e in eps]) + 1e-3)


def test_modular_form_measures_cyclic_distances():
    G = circulant(6, [1, 2])
    assert noise.Geometric(1.0, form="modular").for_graph(G).sensitivity == 2
    assert noise.Geometric(1.0, form="clamped").for_graph(G).sensitivity == 6
    with pytest.raises(ParameterError, match="modulo 7"):
        noise.geometric(G, epsilon=1.0, form="modular", sensitivity=1)


@st.composite
def integer_query_graphs(draw):
    n = draw(st.integers(2, 9))
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=20))
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from((u, v) for u, v in pairs if u != v)
    answers = {d: draw(st.integers(-2, 9)) for d in range(n)}
    return rdp.RainbowGraph.from_query(g, range(draw(st.integers(1, 7))), answer=answers)


@settings(max_examples=40, deadline=None)
@given(
    integer_query_graphs(),
    st.sampled_from(["clamped", "folded", "modular"]),
    st.sampled_from([0.3, 1.0, 2.5]),
)
def test_derived_sensitivity_mechanisms_are_proved_private_at_their_epsilon(G, form, eps):
    # post-processing forms: the textbook guarantee at the graph's sensitivity carries over
    for family in (noise.Geometric(eps, form=form), noise.Staircase(eps, form=form)):
        assert family.holds_on(G) is True
        assert rdp.certify(family.mechanism(G), epsilon=eps).verdict == "private"
