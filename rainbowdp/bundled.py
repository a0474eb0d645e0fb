r"""The ready-made example graphs shipped in ``graphs/`` and used by ``rainbowdp demo``.

Each example is a rainbow graph with a mechanism and the verdict it is expected to get. This module
is the single source of the files in ``graphs/``: ``python -m rainbowdp.bundled graphs/``
rewrites them, and the test-suite checks that the files and this module agree.

==========================  ================================================================
file                        content
==========================  ================================================================
example1_cycle.json         Gu et al. Example 1: 5-cycle, two rainbows, mechanism
                            :math:`\mathcal M_1`; (ln 2, 0)-DP, ratios exactly 2 on 3 edges
binary_path.json            binary path (yes | no), a too-accurate mechanism: not (1, 0)-DP
three_colour.json           a three-colour graph in the spirit of Gu et al. Fig. 1: (1, 0)-DP
count_path.json             count query 0..10 with the clamped geometric mechanism: (ln 2, 0)-DP
modulo_circulant_n8.json    Kadam et al. modulo noise, n = 8, M = {1, 2, 3}, one-sided
                            geometric noise: not (ln 2, 0.1)-DP (the wrap-around leaks)
==========================  ================================================================
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

from . import builders
from .graph import RainbowGraph
from .mechanism import Mechanism
from .noise import GeometricLaw, TableLaw, additive_rows

__all__ = ["Example", "examples", "graphs_dir", "write_examples"]


@dataclass(frozen=True)
class Example:
    """A bundled graph with its mechanism and the verdict it is expected to get."""

    name: str
    graph: RainbowGraph
    mechanism: Mechanism
    epsilon: float
    delta: float
    private: bool
    description: str
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def metadata(self) -> dict[str, Any]:
        """Graph attributes written to the file."""
        return {
            "name": self.name,
            "description": self.description,
            "expected": {"epsilon": self.epsilon, "delta": self.delta, "private": self.private},
            **self.extra,
        }


#: ln 2 rounded up. The float ``math.log(2)`` is below ln 2, so at that ε a likelihood ratio of
#: exactly 2 exceeds e^ε by one rounding and ``certify`` cannot prove (ln 2, 0)-DP; the examples
#: whose ratios are 2 state ε as the next float up, where it is proved.
LN2_UP = math.nextafter(math.log(2.0), math.inf)


def _example1() -> Example:
    # Gu et al., Example 1: d1 ~ d2 ~ d3 ~ d4 ~ d5 ~ d1, e^eps = 2, delta = 0,
    # f(d_i) = (1, 2, 3) for i <= 4 and f(d5) = (1, 3, 2).
    g = nx.cycle_graph([f"d{i}" for i in range(1, 6)])
    for i in range(1, 5):
        g.nodes[f"d{i}"]["rainbow"] = [1, 2, 3]
    g.nodes["d5"]["rainbow"] = [1, 3, 2]
    G = RainbowGraph(g, outputs=[1, 2, 3])
    # M1 of Example 1 (d5 is not given in the paper; (0.3, 0.1, 0.6) keeps M1 (ln 2, 0)-DP).
    m1 = {
        "d1": [0.2, 0.1, 0.7],
        "d2": [0.4, 0.2, 0.4],
        "d3": [0.4, 0.2, 0.4],
        "d4": [0.4, 0.1, 0.5],
        "d5": [0.3, 0.1, 0.6],
    }
    return Example(
        "example1_cycle",
        G,
        Mechanism(G, m1),
        LN2_UP,
        0.0,
        True,
        "Gu et al., Generalized rainbow DP, Example 1 (mechanism M1; M(d5) chosen here). "
        "The boundary condition is not homogeneous, so no optimal mechanism exists.",
        {
            "boundary_conditions": {"d1": [0.2, 0.1, 0.7], "d4": [0.4, 0.1, 0.5]},
            "mechanism_M2": {"d2": [0.4, 0.1, 0.5], "d3": [0.7, 0.05, 0.25]},
        },
    )


def _binary_path() -> Example:
    g = nx.path_graph(7)
    for v in g:
        g.nodes[v]["rainbow"] = ["yes", "no"] if v <= 2 else ["no", "yes"]
    G = RainbowGraph(g, outputs=["yes", "no"])
    p = np.where(np.arange(7)[:, None] <= 2, [0.9, 0.1], [0.1, 0.9])
    return Example(
        "binary_path",
        G,
        Mechanism(G, p),
        1.0,
        0.0,
        False,
        "Binary path: datasets 0-2 answer 'yes', 3-6 answer 'no'. Truthful with "
        "probability 0.9 everywhere: the ratio 9 across the boundary edge (2, 3) "
        "exceeds e^1, so the mechanism is not (1, 0)-DP.",
    )


def _three_colour() -> Example:
    b, r, gr = "blue", "red", "green"
    rainbows = {
        "d1": [b, r, gr],
        "d2": [b, r, gr],
        "d3": [b, r, gr],
        "d5": [b, r, gr],
        "d4": [r, gr, b],
        "d9": [r, gr, b],
        "d10": [r, gr, b],
        "d6": [b, gr, r],
        "d7": [b, gr, r],
        "d8": [b, gr, r],
        "d11": [gr, r, b],
        "d12": [gr, r, b],
        "d13": [r, b, gr],
    }
    g = nx.Graph(
        [
            ("d1", "d2"),
            ("d2", "d3"),
            ("d1", "d5"),
            ("d3", "d4"),
            ("d5", "d6"),
            ("d6", "d7"),
            ("d7", "d8"),
            ("d4", "d9"),
            ("d9", "d10"),
            ("d9", "d13"),
            ("d10", "d11"),
            ("d11", "d12"),
            ("d8", "d12"),
            ("d2", "d5"),
        ]
    )
    nx.set_node_attributes(g, rainbows, "rainbow")
    G = RainbowGraph(g, outputs=[b, r, gr])
    vec = np.tile([0.5, 0.3, 0.2], (G.n_nodes, 1))  # in each node's rainbow order
    M = Mechanism.from_rainbow_order(G, vec)
    return Example(
        "three_colour",
        G,
        M,
        1.0,
        0.0,
        True,
        "Three colours (blue, red, green) and five rainbows, in the spirit of Gu et al. "
        "Fig. 1. Every node outputs its first colour w.p. 0.5, its second w.p. 0.3 "
        "and its third w.p. 0.2: likelihood ratios are at most 2.5 < e, so (1, 0)-DP.",
    )


def _count_path() -> Example:
    n, eps = 10, LN2_UP
    G = builders.count_path(n)
    # Clamping the two-sided geometric (alpha = 1/2) to [0, n] moves each tail onto its end point.
    p = additive_rows(G.answers, G.outputs, GeometricLaw(0.5), form="clamped")
    return Example(
        "count_path",
        G,
        Mechanism(G, p),
        eps,
        0.0,
        True,
        "Count query over counts 0..10 (add/remove one record), answered with the "
        "two-sided geometric mechanism (alpha = 1/2) clamped to [0, 10]: ln 2-DP.",
    )


def _modulo() -> Example:
    n = 8
    G = builders.circulant(n, [1, 2, 3])
    f = 0.5 ** np.arange(n + 1)
    f /= f.sum()
    # row q: the one-sided noise law f shifted by q, modulo n + 1
    p = additive_rows(G.answers, G.outputs, TableLaw(f), form="modular")
    return Example(
        "modulo_circulant_n8",
        G,
        Mechanism(G, p),
        math.log(2),
        0.1,
        False,
        "Kadam et al. modulo-addition noise on [8] with neighbourhood M = {1, 2, 3}: "
        "q ~ q + mu (mod 9). One-sided geometric noise f(eta) ~ 2^-eta wraps around "
        "(f(0)/f(8) = 256), so it is not (ln 2, 0.1)-DP.",
    )


def examples() -> list[Example]:
    """All bundled examples, in a fixed order."""
    return [_example1(), _binary_path(), _three_colour(), _count_path(), _modulo()]


def graphs_dir() -> Path | None:
    """The repository's ``graphs/`` folder when running from a checkout, else ``None``."""
    d = Path(__file__).resolve().parent.parent / "graphs"
    return d if d.is_dir() else None


def write_examples(directory: str | Path) -> list[Path]:
    """Write every bundled example to ``directory/<name>.json``."""
    from .io import save_graph

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    return [
        save_graph(ex.graph, out / f"{ex.name}.json", mechanism=ex.mechanism, metadata=ex.metadata)
        for ex in examples()
    ]


if __name__ == "__main__":  # pragma: no cover - maintenance entry point
    for path in write_examples(sys.argv[1] if len(sys.argv) > 1 else "graphs"):
        print(path)
