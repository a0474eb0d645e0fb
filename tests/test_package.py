"""Tests of the package surface: what ``import rainbowdp`` loads and exports."""

from __future__ import annotations

import subprocess
import sys


def test_import_loads_neither_pulp_nor_matplotlib():
    # Verification needs neither; the designers load PuLP (and a solver) on first use.
    code = (
        "import sys, rainbowdp as rdp\n"
        "print(sorted(m for m in ('pulp', 'highspy', 'matplotlib') if m in sys.modules))\n"
        "rdp.design.lp\n"
        "print('pulp' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[0] == "[]"
    assert out[1] == "True"


def test_parameter_errors_are_exported_and_typed():
    import rainbowdp as rdp

    assert issubclass(rdp.ParameterError, ValueError)
    assert issubclass(rdp.ParameterTypeError, TypeError)
    assert issubclass(rdp.ParameterError, rdp.RainbowDPError)
