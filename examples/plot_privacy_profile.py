"""
Privacy profiles of the standard mechanisms
===========================================

The privacy profile δ(ε) of a mechanism is the smallest δ for which it is (ε, δ)-DP, here on a
count between 0 and 10 (:func:`rainbowdp.builders.count_path`). Every value is the verifier's
sound δ (:func:`rainbowdp.privacy_profile`, rounded up), drawn by
:func:`rainbowdp.plot.plot_privacy_profile` on a log axis with the target (ε, δ) = (1, 10⁻³)
marked. Pure ε-DP mechanisms reach δ = 0 at
their ε (the exponential mechanism before its nominal ε: its bound is loose); the clamped
discrete Gaussian only at ε ≈ 9.5, off the plot (the textbook one never does; here the output set
is finite); truncating the geometric noise (instead of clamping it) costs privacy.
"""

import matplotlib.pyplot as plt
import numpy as np

import rainbowdp as rdp
from rainbowdp import builders, noise

G = builders.count_path(10)
mechanisms = {
    r"geometric, clamped ($\varepsilon$ = 1)": noise.geometric(G, epsilon=1.0, form="clamped"),
    r"geometric, truncated ($\varepsilon$ = 1)": noise.geometric(G, epsilon=1.0, form="truncated"),
    r"discrete Gaussian, clamped ($\sigma$ = 1)": noise.discrete_gaussian(G, sigma=1.0),
    r"exponential ($\varepsilon$ = 1)": noise.exponential(G, epsilon=1.0),
}
epsilons = np.linspace(0.0, 2.0, 81)

fig, ax = plt.subplots(figsize=(8.0, 4.0), layout="constrained")
rdp.plot.plot_privacy_profile(mechanisms, epsilons, target=(1.0, 1e-3), ax=ax)
ax.set_title("privacy profiles on counts 0..10")
for name, M in mechanisms.items():
    print(f"{name}: proved epsilon at delta = 0: {rdp.format_up(rdp.epsilon_for_delta(M, 0.0))}")
