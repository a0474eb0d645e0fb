"""Tests of the package surface: what ``import rainbowdp`` loads and exports."""

from __future__ import annotations

import subprocess
import sys


def test_import_loads_neither_pulp_nor_matplotlib():
    # Verification needs neither; the designers load a solver when they solve, the plots
    # matplotlib when they draw.
    code = (
        "import sys, rainbowdp as rdp\n"
        "heavy = ('pulp', 'highspy', 'matplotlib')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
        "rdp.design.lp, rdp.design.FORMULATIONS['lp'], rdp.noise.modulo, rdp.cellkey.audit\n"
        "rdp.plot.draw_rainbow_graph\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
        "rdp.design.lp(rdp.builders.line([0, 1], 1), epsilon=1.0, solver='cbc')\n"
        "print('pulp' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[0] == "[]"
    assert out[1] == "[]"
    assert out[2] == "True"


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

    G = rdp.builders.line(["a", "b"], 1)
    M = rdp.Mechanism(G, [[0.6, 0.4], [0.4, 0.6]])
    rdp.save_graph(G, tmp_path / "g.json", mechanism=M)
    H = rdp.load_graph(tmp_path / "g.json")
    assert H.nodes == G.nodes
    assert callable(rdp.plot.draw_rainbow_graph)


# The packages of the extras; the quick start's `pip install -e .` installs none of them.
EXTRAS_ONLY = ("highspy", "pandas", "tqdm", "dp_accounting", "dask", "distributed", "numba", "zarr")


def test_demo_runs_without_any_optional_package(tmp_path):
    # The README's quick start runs `rainbowdp demo` after `pip install -e .` alone: with every
    # package of the extras made unimportable, the demo must still succeed (and so use PuLP's
    # bundled CBC, not HiGHS).
    code = (
        "import sys\n"
        f"blocked = {EXTRAS_ONLY!r}\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in blocked:\n"
        "            raise ModuleNotFoundError(f'No module named {name!r} (blocked)', name=name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from rainbowdp.cli import main\n"
        f"status = main(['demo', '--output-dir', {str(tmp_path / 'out')!r}])\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in blocked)\n"
        "print(status, loaded)\n"
        "sys.exit(status)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert proc.stdout.rstrip().endswith("0 []"), proc.stdout[-500:]
    assert "as expected" in proc.stdout  # the verdict table of the bundled graphs
    assert list((tmp_path / "out").glob("*.png")), "the demo drew no figure"


def test_package_data_patterns_name_files_that_exist():
    # Every pattern of [tool.setuptools.package-data] must match a file of the package: a
    # pattern naming a missing folder ships nothing and hides the mistake.
    import tomllib
    from pathlib import Path

    import rainbowdp

    root = Path(rainbowdp.__file__).parent
    config = tomllib.loads((root.parent / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["rainbowdp"]
    assert patterns
    for pattern in patterns:
        assert list(root.glob(pattern)), pattern
