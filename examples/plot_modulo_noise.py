"""
Modulo-addition noise: the paper's reading and the symmetric one
================================================================

Kadam et al. answer a query with values 0..n by (q + η) mod (n + 1). For the bounded-distance
neighbourhood M = {1, 2, 3}, n = 8, ε = 1.5, δ = 0, the optimal noise PMF of the paper
(Lemma 4, which constrains the ordered pairs (q, q − μ) only) is a staircase; the optimum for an
undirected neighbourhood (both orders constrained, :func:`rainbowdp.noise.modulo.optimal_pmf`
with ``reading="symmetric"``) is symmetric and gives up about 0.13 of probability at η = 0.
"""

import matplotlib.pyplot as plt

from rainbowdp import plot
from rainbowdp.noise import modulo

n, eps, shifts = 8, 1.5, [1, 2, 3]
paper = modulo.bd_pmf(n, epsilon=eps, mu_bar=3)
symmetric = modulo.optimal_pmf(n, epsilon=eps, delta=0.0, shifts=shifts, reading="symmetric").pmf

fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
plot.plot_pmfs([paper, symmetric], labels=["paper reading (Lemma 4)", "symmetric reading"], ax=ax)
ax.set_title(r"optimal modulo noise, $n$ = 8, $M = \{1, 2, 3\}$, $\varepsilon$ = 1.5")
for name, f in (("paper", paper), ("symmetric", symmetric)):
    print(
        name,
        "leakage, paper reading:",
        modulo.pdp_delta(f, epsilon=eps, shifts=shifts, reading="paper"),
        "symmetric reading:",
        modulo.pdp_delta(f, epsilon=eps, shifts=shifts, reading="symmetric"),
    )
