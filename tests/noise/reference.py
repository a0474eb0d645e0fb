"""Independent slow references for the noise tests: post-processing of a + eta, in plain Python.

No library code is used here: rows are sums of ``math.fsum`` over the noise values, moved by
the form's map (truncate, clamp, fold, wrap).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable

import numpy as np


def reflect(y: int, lo: int, hi: int) -> int:
    """Reflect y into [lo, hi] at the ends, one reflection at a time."""
    if lo == hi:
        return lo
    while y < lo or y > hi:
        y = 2 * lo - y if y < lo else 2 * hi - y
    return y


def post_process(y: int, lo: int, hi: int, form: str) -> int | None:
    """Where the output a + eta = y lands in [lo, hi] (None: dropped by truncation)."""
    if form == "truncated":
        return y if lo <= y <= hi else None
    if form == "clamped":
        return min(max(y, lo), hi)
    if form == "modular":
        return lo + (y - lo) % (hi - lo + 1)
    return reflect(y, lo, hi)


def reference_rows(
    pmf: Callable[[int], float], support: Iterable[int], answers, lo: int, hi: int, form: str
) -> np.ndarray:
    """Rows of a + eta, eta over ``support`` with probability pmf(k), post-processed."""
    rows = []
    keys = list(support)
    for a in answers:
        mass = defaultdict(list)
        for k in keys:
            out = post_process(a + k, lo, hi, form)
            if out is not None:
                mass[out].append(pmf(k))
        row = [math.fsum(mass[v]) for v in range(lo, hi + 1)]
        if form == "truncated":
            total = math.fsum(row)
            row = [x / total if total > 0 else math.nan for x in row]
        rows.append(row)
    return np.array(rows)
