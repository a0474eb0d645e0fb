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


def test_public_functions_are_not_shadowed_by_modules():
    # certify, design.lp and design.milp are functions; their modules are private.
    import rainbowdp as rdp
    from rainbowdp._verify import certify as certify_module
    from rainbowdp.design import _lp, _milp

    assert rdp.certify is certify_module.certify and rdp.exp_bounds is certify_module.exp_bounds
    assert rdp.design.lp is _lp.lp and rdp.design.milp is _milp.milp
    assert callable(rdp.certify) and callable(rdp.design.lp) and callable(rdp.design.milp)


def test_files_and_drawings_are_reachable_from_the_package(tmp_path):
    import rainbowdp as rdp

    G = rdp.RainbowGraph.line(["a", "b"], 1)
    M = rdp.Mechanism(G, [[0.6, 0.4], [0.4, 0.6]])
    rdp.save_graph(G, tmp_path / "g.json", mechanism=M)
    H = rdp.load_graph(tmp_path / "g.json")
    assert H.nodes == G.nodes
    assert callable(rdp.plot.draw_rainbow_graph)
