"""Shared helpers of the benchmarks: repeated timings and peak resident memory.

Times are reported as the minimum and the median of repeated runs measured in the same process.

Peak memory is measured on Linux from ``/proc/self/status``: :func:`peak_above` collects
garbage, returns freed heap pages to the system (glibc ``malloc_trim(0)``, so that the call
cannot reuse pages already counted as resident without them being counted again), resets the
process's high-water mark (``VmHWM``) to its current resident set (``VmRSS``) by writing ``5``
to ``/proc/self/clear_refs``, runs the function, and returns ``VmHWM - VmRSS_before``: the
largest resident memory the call added on top of what was already resident (its inputs).
Benchmarks call it in a fresh subprocess per measurement, so neither an earlier measurement
nor the construction of the inputs can raise the peak.
"""

from __future__ import annotations

import ctypes
import gc
import statistics
import time
from collections.abc import Callable
from typing import Any

MB = 1e6


def timed(fn: Callable[[], Any], repeats: int) -> tuple[float, float, Any]:
    """(min, median) seconds of ``repeats`` calls of ``fn``, and its last result."""
    times = []
    out = None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times), out


def status_bytes(field: str) -> int:
    """A ``kB`` field of ``/proc/self/status`` (``VmRSS``, ``VmHWM``, ...) in bytes."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise KeyError(field)


def trim_heap() -> None:
    """Give freed heap memory back to the system (glibc only; a no-op elsewhere)."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def reset_peak() -> bool:
    """Reset ``VmHWM`` to the current ``VmRSS``; False where the kernel does not allow it."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        return False
    return True


def peak_above(fn: Callable[[], Any]) -> tuple[int, int | None]:
    """(resident bytes before the call, peak resident bytes the call added or None).

    None when the high-water mark cannot be reset (then no honest figure exists).
    """
    gc.collect()
    trim_heap()
    ok = reset_peak()
    before = status_bytes("VmRSS")
    fn()
    if not ok:
        return before, None
    return before, max(0, status_bytes("VmHWM") - before)
