"""The package's layering beyond what import-linter checks (its contracts live in
``pyproject.toml`` and run in CI as ``lint-imports``): no module imports another module's
private name (a name with one leading underscore)."""

from __future__ import annotations

import ast
from pathlib import Path

import rainbowdp

PACKAGE = Path(rainbowdp.__file__).parent


def _target(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` statement reads from."""
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _is_module(target: str, name: str) -> bool:
    """Whether ``target.name`` is a module or package (importing a private submodule is a
    module import, checked by import-linter's private-modules contract)."""
    path = PACKAGE.parent.joinpath(*target.split("."), name)
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def private_name_imports() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        is_package = parts[-1] == "__init__"
        module = ".".join(parts[:-1] if is_package else parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            target = _target(module, is_package, node)
            if not target.startswith("rainbowdp"):
                continue
            for alias in node.names:
                name = alias.name
                if name.startswith("_") and not name.startswith("__"):
                    if not _is_module(target, name):
                        found.append(f"{module}:{node.lineno} from {target} import {name}")
    return found


def test_no_module_imports_another_modules_private_name():
    assert private_name_imports() == []


def test_the_scan_sees_private_names():
    """The scan is not vacuous: a private name imported in a snippet is found."""
    tree = ast.parse("from .privacy import _x, y\nfrom . import _verify\n")
    nodes = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert _target("rainbowdp.cli", False, nodes[0]) == "rainbowdp.privacy"
    assert [a.name for a in nodes[0].names if a.name.startswith("_")] == ["_x"]
    assert _is_module("rainbowdp", "_verify") and not _is_module("rainbowdp.privacy", "_x")


# The solvers' packages, and the solver entry points of scipy: only rainbowdp.design builds and
# solves optimisation models; the families and the cell-key tables call it.
SOLVER_MODULES = ("pulp", "highspy")
SOLVER_NAMES = {"scipy.optimize": ("linprog", "milp", "LinearConstraint", "Bounds")}
SOLVER_FREE_PACKAGES = ("noise", "cellkey")


def solver_imports(root: Path = PACKAGE) -> list[str]:
    """Imports of a solver (PuLP, highspy, scipy's linprog / milp) outside rainbowdp.design."""
    found = []
    for pkg in SOLVER_FREE_PACKAGES:
        for path in sorted((root / pkg).rglob("*.py")):
            where = path.relative_to(root.parent)
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    for alias in node.names:
                        if alias.name.split(".")[0] in SOLVER_MODULES:
                            found.append(f"{where}:{node.lineno} import {alias.name}")
                elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                    if node.module.split(".")[0] in SOLVER_MODULES:
                        found.append(f"{where}:{node.lineno} from {node.module}")
                    banned = SOLVER_NAMES.get(node.module, ())
                    for alias in node.names:
                        if alias.name in banned:
                            found.append(f"{where}:{node.lineno} {node.module}.{alias.name}")
    return found


def test_only_design_builds_optimisation_models():
    assert solver_imports() == []


def test_the_solver_scan_sees_solver_imports(tmp_path):
    """The scan is not vacuous: each kind of solver import in a snippet is found."""
    pkg = tmp_path / "pkg"
    (pkg / "noise").mkdir(parents=True)
    (pkg / "cellkey").mkdir()
    (pkg / "noise" / "a.py").write_text(
        "import pulp\nfrom highspy import Highs\nfrom scipy.optimize import brentq, linprog\n"
    )
    (pkg / "cellkey" / "b.py").write_text("def f():\n    from scipy.optimize import milp\n")
    found = solver_imports(pkg)
    assert [f.split(" ", 1)[1] for f in found] == [
        "import pulp",
        "from highspy",
        "scipy.optimize.linprog",
        "scipy.optimize.milp",
    ]
