"""Benchmark of the cell key method: perturbing a frequency table from microdata end to end.

Run ``python benchmarks/cellkey.py`` (about 2 minutes on 2 cores with pandas installed; ``--quick``
for 10^6 records; ``--part 1|2|3`` for one part). Every figure printed is measured in this run;
times are the minimum and the median of ``--repeats`` runs (default 3).

(1) rainbowdp: a two-way table of 10^7 records by a (50 categories) and b (20 categories) plus
    margins (51 x 21 = 1071 cells), KEYSIZE 2^32, four key components per record, the ptable of
    Sadeghi & Chien's Example 1 (D = 25, gamma = 0.5/49 - 1/(10 * 2499)). Stages: record keys
    (seeded; the OS source on one more line), aggregation (frequency_table: categories, cell of
    each record, counts with margins), cell keys (exact component sums (3.1), margins by
    additivity, XOR (3.2)), lookup (Ptable.noise, (4.3)); then perturb() end to end, on a dict of
    arrays and on a DataFrame, and keys + perturb. Target: keys + perturb <= 10 s.
(2) The baseline a competent pandas user would write: groupby + sum of the key columns for each
    margin, modulo bigN, XOR, then a merge on the ptable in long form (row, key interval, noise)
    and a filter on the interval. Checked to give the same counts, keys and noise.
(3) Auditing a ptable (rainbowdp.cellkey.audit) with D = 25 and 1,000 rows, at KEYSIZE 2^32,
    with its default epsilon and delta grids.
(4) An agency's workflow (cellKey's rule): 8-digit decimal record keys and sampling weights,
    the table of ptable's parameters D = 10, V = 5 (Ptable.from_parameters), perturb with
    method="cellkey" on the flat table (margins "Total") and on a three-level hierarchy of the
    first variable (10 regions of 5 districts); the floor is the flat table on the same records
    and keys, the hierarchy adds the subtotals. Then from_parameters and compare_with_design.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from _timing import timed

from rainbowdp.cellkey import audit as audit_ptable
from rainbowdp.cellkey import compare_with_design
from rainbowdp.cellkey._keys import (
    big_prime,
    component_sums,
    components_from_sums,
    keys_from_components,
    record_keys,
)
from rainbowdp.cellkey._perturb import _with_margins, frequency_table, perturb
from rainbowdp.cellkey._ptable import Ptable

K = 2**32
D = 25
TARGET = 10.0


def example1_pmf() -> np.ndarray:
    """Sadeghi & Chien, Example 1: p(z) = C exp(-gamma z^2) on [-25, 25], symmetric exactly."""
    gamma = 0.5 / 49 - 1 / (10 * 2499)
    z = np.arange(-D, D + 1, dtype=np.float64)
    p = np.exp(-gamma * z * z)
    p /= p.sum()
    return (p + p[::-1]) / 2


def line(name: str, tmin: float, tmed: float, extra: str = "") -> None:
    print(f"    {name:<44}{tmin:>9.4f}{tmed:>9.4f}  {extra}")


# ------------------------------------------------------------------------------------ part 1
def part_rainbowdp(n: int, args: argparse.Namespace) -> dict:
    rng = np.random.default_rng(2023)
    data = {"a": rng.integers(0, 50, n), "b": rng.integers(0, 20, n)}
    T = Ptable.from_noise(example1_pmf(), low=-D, keysize=K)
    print(
        f"(1) rainbowdp: {n:,} records, 50 x 20 categories + margins, KEYSIZE 2^32, D = {D}; "
        f"{args.repeats} runs"
    )
    print(f"    {'stage':<44}{'min s':>9}{'med s':>9}")
    k_min, k_med, keys = timed(lambda: record_keys(n, keysize=K, seed=1), args.repeats)
    line("record keys (seeded, 4 x uint64 per record)", k_min, k_med)
    s_min, s_med, _ = timed(lambda: record_keys(n, keysize=K, secure=True), args.repeats)
    line("record keys (secure, os.urandom)", s_min, s_med)

    a_min, a_med, table = timed(lambda: frequency_table(data, ["a", "b"]), args.repeats)
    line("aggregation (frequency_table)", a_min, a_med, f"{len(table)} cells")

    def keys_of_cells() -> np.ndarray:
        sums = component_sums(keys, table.record_cell, math.prod(table.dims), K)
        sums = _with_margins(sums.reshape(*table.dims, 4), 2).reshape(-1, 4)
        return keys_from_components(components_from_sums(sums, big_prime(K)))

    c_min, c_med, ck = timed(keys_of_cells, args.repeats)
    line("cell keys (sums (3.1), margins, XOR (3.2))", c_min, c_med)
    l_min, l_med, noise = timed(lambda: T.noise(table["count"], ck, keysize=K), args.repeats)
    line("lookup (Ptable.noise)", l_min, l_med)
    line(
        "sum of the stages",
        k_min + a_min + c_min + l_min,
        k_med + a_med + c_med + l_med,
    )
    p_min, p_med, out = timed(lambda: perturb(data, ["a", "b"], T, record_keys=keys), args.repeats)
    line("perturb() on a dict of arrays", p_min, p_med)
    assert np.array_equal(out["cell_key"], ck) and np.array_equal(out["noise"], noise)

    def end_to_end() -> object:
        k = record_keys(n, keysize=K, seed=1)
        return perturb(data, ["a", "b"], T, record_keys=k)

    e_min, e_med, _ = timed(end_to_end, args.repeats)
    line("keys + perturb() (end to end)", e_min, e_med)
    try:
        import pandas as pd
    except ImportError:
        pd = None
        print("    perturb() on a DataFrame: pandas is not installed")
    if pd is not None:
        df = pd.DataFrame(data)
        f_min, f_med, fout = timed(
            lambda: perturb(df, ["a", "b"], T, record_keys=keys), args.repeats
        )
        line("perturb() on a DataFrame", f_min, f_med)
        assert np.array_equal(fout["noise"].to_numpy(), noise)
    met = e_min <= TARGET
    print(
        f"    target (keys + perturb <= {TARGET:g} s): {e_min:.2f} s -> "
        f"{'met' if met else 'NOT met'}"
    )
    return {
        "data": data,
        "keys": keys,
        "T": T,
        "out": out,
        "total": e_min,
        "perturb": (p_min, p_med),
    }


# ------------------------------------------------------------------------------------ part 2
def pandas_baseline(df: object, T: Ptable, n_rows: int) -> object:
    """groupby + sum of the keys per margin, mod bigN, XOR; merge on the long ptable."""
    import pandas as pd

    p = np.uint64(big_prime(K))
    kcols = ["k0", "k1", "k2", "k3"]
    parts = []
    for keep in (["a", "b"], ["a"], ["b"], []):
        if keep:
            g = df.groupby(keep, sort=True)
            sums = g[kcols].sum()
            sums["count"] = g.size()
            sums = sums.reset_index()
        else:
            sums = df[kcols].sum().to_frame().T
            sums["count"] = len(df)
        for v in ("a", "b"):
            if v not in keep:
                sums[v] = "Total"
        parts.append(sums)
    cells = pd.concat(parts, ignore_index=True)
    comps = cells[kcols].to_numpy(dtype=np.uint64) % p
    cells["cell_key"] = np.bitwise_xor.reduce(comps, axis=1)
    cells["row"] = np.minimum(cells["count"].to_numpy(), n_rows - 1)
    cq = T.thresholds(K)
    r, j = np.nonzero(np.diff(cq, axis=1, prepend=0) > 0)
    long = pd.DataFrame(
        {
            "row": r,
            "lower": np.where(j > 0, cq[r, np.maximum(j - 1, 0)], 0),
            "upper": cq[r, j],
            "noise": j - r,
        }
    )
    merged = cells.merge(long, on="row")
    hit = (merged["lower"] <= merged["cell_key"]) & (merged["cell_key"] < merged["upper"])
    res = merged.loc[hit, ["a", "b", "count", "cell_key", "noise"]].reset_index(drop=True)
    res["perturbed"] = res["count"] + res["noise"]
    return res


def part_pandas(ours: dict, args: argparse.Namespace) -> None:
    print(
        "\n(2) pandas baseline: groupby + sum of keys per margin, mod bigN, XOR, merge on the "
        "ptable"
    )
    try:
        import pandas as pd
    except ImportError:
        print("    pandas is not installed: skipped")
        return
    data, keys, T = ours["data"], ours["keys"], ours["T"]
    df = pd.DataFrame({**data, **{f"k{j}": keys[:, j] for j in range(4)}})
    n_rows = T.probabilities.shape[0]
    b_min, b_med, res = timed(lambda: pandas_baseline(df, T, n_rows), args.repeats)
    print(f"    {'':<44}{'min s':>9}{'med s':>9}")
    line("pandas: aggregation, cell keys and lookup", b_min, b_med, f"pandas {pd.__version__}")
    line("rainbowdp perturb() (part 1)", *ours["perturb"])
    out = ours["out"]
    got = {
        (a, b): (c, k, v)
        for a, b, c, k, v in zip(
            out["a"], out["b"], out["count"], out["cell_key"], out["noise"], strict=True
        )
    }
    base = {
        (a, b): (c, k, v)
        for a, b, c, k, v in zip(
            res["a"], res["b"], res["count"], res["cell_key"], res["noise"], strict=True
        )
    }
    same = got == base
    print(
        f"    same counts, cell keys and noise in all {len(got)} cells: {'yes' if same else 'NO'}; "
        f"speed-up of perturb() over the baseline: {b_min / ours['perturb'][0]:.1f}x (min over min)"
    )


# ------------------------------------------------------------------------------------ part 3
def part_audit(args: argparse.Namespace) -> None:
    print("\n(3) audit of a ptable with D = 25 and 1,000 rows (KEYSIZE 2^32)")
    T = Ptable.from_noise(example1_pmf(), low=-D, rows=999, keysize=K)
    t_min, t_med, rep = timed(lambda: audit_ptable(T), args.repeats)
    print(f"    {'':<44}{'min s':>9}{'med s':>9}")
    line("audit(T) (default grids)", t_min, t_med, f"{T.max_count + 1} rows, D = {T.D}")
    for e, d in zip(rep.epsilons, rep.delta_at_epsilon, strict=True):
        print(f"    epsilon = {e:g}: delta = {d:.6g} (verifier, rounded up)")
    for d, e in zip(rep.deltas, rep.epsilon_at_delta, strict=True):
        print(f"    delta = {d:g}: epsilon = {e:.6g} (verifier, rounded up)")
    if rep.delta_at_epsilon_independent is not None:
        print("    counts >= D only (the rows of the noise law itself):")
        for e, d in zip(rep.epsilons, rep.delta_at_epsilon_independent, strict=True):
            print(f"    epsilon = {e:g}: delta = {d:.6g}")
        for d, e in zip(rep.deltas, rep.epsilon_at_delta_independent, strict=True):
            print(f"    delta = {d:g}: epsilon = {e:.6g}")


# ------------------------------------------------------------------------------------ part 4
def part_agency(n: int, args: argparse.Namespace) -> None:
    print(
        f"\n(4) an agency's workflow: {n:,} records, 8-digit decimal keys, weights, "
        "ptable's D = 10, V = 5"
    )
    rng = np.random.default_rng(2026)
    district = rng.integers(0, 50, n)
    data = {
        "district": np.array([f"d{k:02d}" for k in range(50)])[district],
        "age": rng.integers(0, 6, n),
        "rkey": rng.integers(0, 10**8, n) / 10**8,  # 8-digit keys, as ck_generate_rkeys
        "w": rng.uniform(10.0, 100.0, n),
    }
    regions = {f"r{g}": [f"d{5 * g + k:02d}" for k in range(5)] for g in range(10)}
    t_min, t_med, T = timed(lambda: Ptable.from_parameters(10, 5), args.repeats)
    print(f"    {'':<44}{'min s':>9}{'med s':>9}")
    line("Ptable.from_parameters(10, 5)", t_min, t_med, f"{T.max_count + 1} rows")
    kw = {"record_keys": "rkey", "method": "cellkey", "weights": "w"}
    f_min, f_med, flat = timed(lambda: perturb(data, ["district", "age"], T, **kw), args.repeats)
    line("perturb cellkey + weights, flat", f_min, f_med, f"{len(flat['count'])} cells")
    h_min, h_med, tree = timed(
        lambda: perturb(data, ["district", "age"], T, hierarchies={"district": regions}, **kw),
        args.repeats,
    )
    line(
        "perturb cellkey + weights, 3-level hierarchy",
        h_min,
        h_med,
        f"{len(tree['count'])} cells; hierarchy / flat {h_min / f_min:.2f} (min over min)",
    )
    c_min, c_med, c = timed(
        lambda: compare_with_design(T, epsilon=1.0, keysize=10**8), args.repeats
    )
    line(
        "compare_with_design(T, epsilon=1, keysize=10**8)",
        c_min,
        c_med,
        f"delta agency {c.agency_delta:.3g}, designed {c.designed_delta:.3g}",
    )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--quick", action="store_true", help="10^6 records instead of 10^7")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--part", choices=["1", "2", "3", "4", "all"], default="all")
    args = ap.parse_args()
    n = 10**6 if args.quick else 10**7
    t0 = time.perf_counter()
    ours = None
    if args.part in ("1", "2", "all"):
        ours = part_rainbowdp(n, args)
    if args.part in ("2", "all"):
        assert ours is not None
        part_pandas(ours, args)
    if args.part in ("3", "all"):
        part_audit(args)
    if args.part in ("4", "all"):
        part_agency(n // 10, args)
    print(f"\ntotal {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
