"""
Count-query noise: singleton δ, Remark 2's bound and the exact δ
================================================================

Sadeghi, Asoodeh and Calmon's zero-bias count noise with P(Z = 0) = η = 0.5 and support
[−D, D], D = 6. For each ε the closed-form optimum α* minimises the *singleton* δ*; Remark 2
bounds the DP δ by (2D + 1)δ*. The verifier gives the exact DP δ of the same law
(:func:`rainbowdp.noise.count.law_dp_delta`), and :func:`rainbowdp.noise.count.exact_optimum`
the law with the smallest exact δ.
"""

import matplotlib.pyplot as plt
import numpy as np

from rainbowdp import plot
from rainbowdp.noise import count

D, eta = 6, 0.5
epsilons = np.linspace(0.5, 3.0, 11)
bound, exact, best = [], [], []
for eps in epsilons:
    opt = count.optimum(D, epsilon=eps, eta=eta)
    bound.append(opt.dp_bound)
    exact.append(count.law_dp_delta(opt.alpha, eta=eta, epsilon=eps))
    best.append(count.exact_optimum(D, epsilon=eps, eta=eta).delta)

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8), layout="constrained")
plot.plot_curves(
    epsilons,
    {
        r"Remark 2: $(2D + 1)\delta^*$": bound,
        r"exact $\delta$ of $\alpha^*$": exact,
        "exact-optimal law": best,
    },
    ax=left,
    xlabel=r"$\varepsilon$",
    ylabel=r"$\delta$",
    title=rf"$D$ = {D}, $\eta$ = {eta}",
)
left.set_yscale("log")

opt = count.optimum(D, epsilon=1.5, eta=eta)
z = np.arange(-D, D + 1)
right.bar(z, count.pmf(opt.alpha, eta=eta), color="tab:blue")
right.set_xlabel("noise z")
right.set_ylabel("P(Z = z)")
right.set_title(r"the optimal law (14) at $\varepsilon$ = 1.5")
print("ratio bound / exact:", np.round(np.array(bound) / np.array(exact), 2))
