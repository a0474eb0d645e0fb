"""Hypothesis strategies shared by the test-suite: random rainbow graphs and mechanisms."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
from hypothesis import strategies as st

from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism


@st.composite
def rainbow_graphs(
    draw,
    *,
    min_nodes: int = 2,
    max_nodes: int = 7,
    min_outputs: int = 2,
    max_outputs: int = 4,
    max_rainbows: int = 3,
    connected: bool = False,
):
    """A random simple graph with random rainbows drawn from a small pool."""
    n = draw(st.integers(min_nodes, max_nodes))
    q = draw(st.integers(min_outputs, max_outputs))
    pairs = list(itertools.combinations(range(n), 2))
    chosen = (
        draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs))) if pairs else []
    )
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(chosen)
    if connected:
        for i in range(n - 1):  # a random spanning path keeps it connected
            if not nx.has_path(g, i, i + 1):
                g.add_edge(i, i + 1)
    perms = list(itertools.permutations(range(q)))
    pool = draw(st.lists(st.sampled_from(perms), min_size=1, max_size=max_rainbows, unique=True))
    for v in range(n):
        g.nodes[v]["rainbow"] = list(draw(st.sampled_from(pool)))
    return RainbowGraph(g, outputs=list(range(q)))


@st.composite
def distributions(draw, q: int, *, zeros: bool = True):
    """A probability vector of length q (possibly with zeros)."""
    lo = 0 if zeros else 1
    w = np.array(draw(st.lists(st.integers(lo, 20), min_size=q, max_size=q)), dtype=float)
    if w.sum() == 0:
        w[draw(st.integers(0, q - 1))] = 1.0
    return w / w.sum()


@st.composite
def mechanisms(draw, graph: RainbowGraph | None = None, **graph_kw):
    """A random mechanism on ``graph`` (or on a random rainbow graph)."""
    g = graph if graph is not None else draw(rainbow_graphs(**graph_kw))
    rows = [draw(distributions(g.n_outputs)) for _ in range(g.n_nodes)]
    return Mechanism(g, np.array(rows))


epsilons = st.sampled_from([0.0, 0.1, 0.5, float(np.log(2)), 1.0, 2.0])
deltas = st.sampled_from([0.0, 1e-3, 0.05, 0.2])
