"""Test-session set-up shared by tests/ and the doctests in rainbowdp/."""

import importlib.util
import os

os.environ.setdefault("MPLBACKEND", "Agg")

from hypothesis import HealthCheck, settings

# CI runs derandomised (same examples every run); locally tests explore new examples.
settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# The compiled kernels import numba at module level; without the optional extra, skip them.
collect_ignore = [] if importlib.util.find_spec("numba") else ["rainbowdp/_numba_kernels.py"]
