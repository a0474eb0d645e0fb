"""
The ABS TableBuilder noise and its exact δ
==========================================

Sadeghi and Chien: the maximum-entropy noise on [−D, D] with variance V is a truncated discrete
Gaussian, p(z) ∝ e^(−γz²), γ the root of (2.7). Its exact (ε, δ)-DP δ (2.19) falls with ε down
to the plateau p(−D), the mass at the edge of the support that no neighbour can match (Fig. 1
of the paper, D = 11).
"""

import matplotlib.pyplot as plt
import numpy as np

import rainbowdp as rdp
from rainbowdp import plot
from rainbowdp.noise import tablebuilder as tb

D = 11
epsilons = np.linspace(0.05, 3.0, 60)
pmfs, deltas = {}, {}
for V in (4.0, 10.0):
    gamma = tb.gamma_for_variance(V, D)
    pmfs[f"V = {V:g} (γ = {gamma:.4f})"] = tb.pmf(gamma, D)
    deltas[f"V = {V:g}"] = tb.dp_delta(epsilons, gamma, D)
    plateau = rdp.format_up(tb.plateau_delta(gamma, D), 4)  # shown rounded up
    print(f"V = {V:g}: gamma = {gamma:.6f}, plateau delta = {plateau}")

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8), layout="constrained")
z = np.arange(-D, D + 1)
for i, (label, p) in enumerate(pmfs.items()):
    left.bar(z + (i - 0.5) * 0.4, p, width=0.4, label=label)
left.set_xlabel("noise z")
left.set_ylabel("p(z)")
left.legend()
plot.plot_curves(
    epsilons,
    deltas,
    ax=right,
    xlabel=r"$\varepsilon$",
    ylabel=r"exact $\delta$ (2.19)",
    title=f"D = {D}",
)
right.set_yscale("log")
