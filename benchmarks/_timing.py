"""Shared timing helper of the benchmarks: minimum and median of repeated runs."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def timed(fn: Callable[[], Any], repeats: int) -> tuple[float, float, Any]:
    """(min, median) seconds of ``repeats`` calls of ``fn``, and its last result."""
    times = []
    out = None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times), out
