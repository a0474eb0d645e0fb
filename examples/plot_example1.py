"""
Example 1 of Gu et al.: two valid mechanisms, no optimum
========================================================

Five datasets on a cycle, outputs {1, 2, 3}, e^ε = 2 (Gu et al., *Generalized rainbow
differential privacy*, Example 1 and Fig. 2). M1 is best at d2 and M2 at d3; the pointwise best
combination M3 violates ε-DP on the edge d2 ~ d3. Each node is a disk in the colour of its
rainbow class, with its distribution as the pie inside; the titles give the verifier's verdict.
"""

import math

import matplotlib.pyplot as plt

import rainbowdp as rdp

G = rdp.builders.cycle([(1, 2, 3)] * 4 + [(1, 3, 2)])
eps = math.log(2)
d1, d4, d5 = [0.2, 0.1, 0.7], [0.4, 0.1, 0.5], [0.3, 0.1, 0.6]
rows = {
    "M1": ([0.4, 0.2, 0.4], [0.4, 0.2, 0.4]),
    "M2": ([0.4, 0.1, 0.5], [0.7, 0.05, 0.25]),
    "M3": ([0.4, 0.2, 0.4], [0.7, 0.05, 0.25]),
}
positions = {d: (math.cos(2 * math.pi * d / 5), math.sin(2 * math.pi * d / 5)) for d in G.nodes}

fig, axes = plt.subplots(1, 3, figsize=(13, 3.0), layout="constrained")
for ax, (name, (d2, d3)) in zip(axes, rows.items(), strict=True):
    M = rdp.Mechanism(G, [d1, d2, d3, d4, d5])
    report = rdp.verify(M, epsilon=eps)
    rdp.plot.draw_rainbow_graph(G, M, ax=ax, pos=positions)
    need = rdp.format_up(report.delta_required, 2)  # shown rounded up
    verdict = "private" if report.is_private else rf"needs $\delta$ = {need}"
    ax.set_title(f"{name}: {verdict}")
    print(name, report)

# %%
# With a homogeneous boundary condition (one row per rainbow) the optimum exists and dominates
# every valid mechanism; it is what :func:`rainbowdp.optimal_mechanism` builds.

boundary = {(1, 2, 3): d4, (1, 3, 2): d5}  # rows over the outputs 1, 2, 3
M = rdp.optimal_mechanism(G, epsilon=eps, boundary=boundary, order="outputs")
fig, ax = plt.subplots(figsize=(6.8, 3.4), layout="constrained")
rdp.plot.draw_rainbow_graph(G, M, ax=ax, pos=positions)
ax.set_title("the optimum for a homogeneous condition")
print(M.probabilities.round(3))
