"""End to end: the noise a perturbed table gets over many cells follows the applied law p^Q.

Sadeghi & Chien, §4.2: the mechanism the cell keys apply is the quantised PMF (4.5), not the
designed one. Cell keys of cells with distinct records are (close to) uniform (§3), so over many
cells of one count the observed noise frequencies must match p^Q; a chi-square test with a
stated false-alarm rate checks it, and the same test rejects the unquantised law where the two
differ.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from scipy import stats

import rainbowdp as rdp

#: False-alarm rate of the chi-square tests (the data are seeded, so the outcome is fixed).
ALPHA = 1e-6
ROOT = Path(__file__).resolve().parents[2]


def _observed_noise(T, keysize: int, count: int, n_cells: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    cell = np.repeat(np.arange(n_cells), count)
    keys = rdp.cellkey.record_keys(cell.size, keysize=keysize, components=4, seed=rng)
    out = rdp.cellkey.perturb(
        {"cell": cell}, ["cell"], T, record_keys=keys, keysize=keysize, margins=False
    )
    assert np.array_equal(out.columns["count"], np.full(n_cells, count))
    return np.asarray(out.columns["noise"])


def _chi2_pvalue(noise: np.ndarray, law: np.ndarray, low: int) -> float:
    support = np.flatnonzero(law > 0)
    observed = np.bincount(noise - low, minlength=law.size)
    assert observed[law == 0].sum() == 0  # never a noise value the law cannot give
    expected = law[support] * noise.size
    return float(stats.chisquare(observed[support], expected).pvalue)


def test_noise_over_many_cells_follows_the_quantised_law():
    # the shipped ONS table: KEYSIZE 2^8, D = 3 (docs/cellkey.md)
    T = rdp.cellkey.read_ptable(ROOT / "graphs" / "ptables" / "optimal_eps1_ons256.csv")
    K, D, count = 256, T.D, 10  # counts >= D use the data-independent last row
    law = T.noise_laws[-1]  # p^Q on [-D, D], multiples of 1/256
    assert np.all(np.round(law * K) == law * K)
    noise = _observed_noise(T, K, count, n_cells=20_000, seed=11)
    assert _chi2_pvalue(noise, law, -D) > ALPHA


def test_the_test_rejects_a_wrong_law():
    # Example 1 at KEYSIZE 2^8: the unquantised law and p^Q differ; the sample of p^Q must
    # reject the unquantised law (power), while it accepts p^Q.
    d = rdp.noise.tablebuilder.design(0.5, 1e-4)
    K = 2**8
    T = rdp.cellkey.Ptable.from_noise(d.pmf, low=-d.D, keysize=K)
    noise = _observed_noise(T, K, 40, n_cells=40_000, seed=5)
    applied = T.quantised(K).noise_laws[-1]
    assert _chi2_pvalue(noise, applied, -d.D) > ALPHA
    observed = np.bincount(noise + d.D, minlength=2 * d.D + 1)
    p_design = stats.chisquare(observed, d.pmf * noise.size).pvalue
    assert p_design < ALPHA
