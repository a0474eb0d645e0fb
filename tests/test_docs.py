"""The documentation site builds with warnings as errors, and the pages refer only to things
that exist.

The build is the README's command (``python -m sphinx -W --keep-going -b html docs
docs/_build/html``) run on a copy of ``docs/`` and ``examples/`` in a temporary directory, so
that the generated sources (``api/generated``, ``auto_examples``) never touch the checkout. The
docs packages are part of the ``test`` extra: a missing Sphinx is a failure, not a skip.
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rainbowdp

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXAMPLES = ROOT / "examples"
GENERATED = ("_build", "auto_examples", "generated")


def _pages() -> list[Path]:
    """The Markdown pages of docs/, not the generated ones."""
    pages = DOCS.rglob("*.md")
    return sorted(p for p in pages if not set(p.relative_to(DOCS).parts) & set(GENERATED))


def _texts() -> list[Path]:
    """README, the docs pages and the gallery scripts."""
    return [ROOT / "README.md", *_pages(), *sorted(EXAMPLES.glob("*.py"))]


# -- the build ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def built_site(tmp_path_factory) -> Path:
    try:
        import myst_parser  # noqa: F401
        import numpydoc  # noqa: F401
        import sphinx  # noqa: F401
        import sphinx_gallery  # noqa: F401
    except ImportError as exc:  # pragma: no cover - CI installs the test extra
        pytest.fail(f"the docs packages belong to the `test` extra and must be installed: {exc}")
    work = tmp_path_factory.mktemp("site")
    ignore = shutil.ignore_patterns(*GENERATED, "__pycache__")
    shutil.copytree(DOCS, work / "docs", ignore=ignore)
    shutil.copytree(EXAMPLES, work / "examples", ignore=ignore)
    out = work / "docs" / "_build" / "html"
    env = {**os.environ, "MPLBACKEND": "Agg"}
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html"]
    proc = subprocess.run(
        [*cmd, str(work / "docs"), str(out)],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert proc.returncode == 0, f"sphinx failed ({proc.returncode}):\n{proc.stderr[-20000:]}"
    return out


def test_site_builds_with_its_key_pages(built_site):
    for page in (
        "index.html",
        "installation.html",
        "errata.html",
        "architecture.html",
        "tutorials/index.html",
        "api/index.html",
        "api/generated/rainbowdp.verify.html",
        "api/generated/rainbowdp.RainbowGraph.html",
        "api/generated/rainbowdp.noise.count.html",
        "auto_examples/index.html",
    ):
        assert (built_site / page).is_file(), page
    verify_page = (built_site / "api/generated/rainbowdp.verify.html").read_text("utf-8")
    assert "Parameters" in verify_page and "epsilon" in verify_page


def test_the_site_loads_nothing_from_the_network(built_site):
    # Scripts, styles and images come from the site itself: it reads offline. (Links to other
    # sites, <a href="https://...">, are fine.)
    loads = re.compile(
        r"<(?:script|img|iframe)\b[^>]*\bsrc=\"(?:https?:)?//"
        r"|<link\b[^>]*\brel=\"(?:stylesheet|preload|modulepreload)\"[^>]*\bhref=\"(?:https?:)?//"
        r"|<link\b[^>]*\bhref=\"(?:https?:)?//[^\"]*\"[^>]*\brel=\"(?:stylesheet|preload)\""
    )
    remote = []
    for html in built_site.rglob("*.html"):
        text = html.read_text("utf-8")
        remote += [f"{html.relative_to(built_site)}: {m.group(0)}" for m in loads.finditer(text)]
    assert not remote, "\n".join(remote[:20])


def test_mathjax_is_served_by_the_site(built_site):
    page = (built_site / "api/generated/rainbowdp.verify.html").read_text("utf-8")
    assert 'src="../../_static/mathjax/tex-chtml.js"' in page
    assert (built_site / "_static/mathjax/tex-chtml.js").stat().st_size > 100_000
    assert list((built_site / "_static/mathjax/output/chtml/fonts").rglob("*.woff"))


def test_other_projects_names_link_through_the_stored_inventories(built_site):
    page = (built_site / "api/generated/rainbowdp.verify.html").read_text("utf-8")
    assert 'href="https://docs.python.org/3/library/functions.html#float"' in page
    api = "".join(p.read_text("utf-8") for p in (built_site / "api/generated").glob("*.html"))
    for site in ("https://numpy.org/doc/stable/", "https://matplotlib.org/stable/"):
        assert f'href="{site}' in api, site


def test_every_figure_block_shows_its_figure(built_site):
    for page in _pages():
        text = page.read_text("utf-8")
        blocks = len(re.findall(r"^```\{plot\}[ \t]*$", text, flags=re.M))
        if not blocks:
            continue
        html = (built_site / page.relative_to(DOCS).with_suffix(".html")).read_text("utf-8")
        images = re.findall(r'<img [^>]*class="plot-directive"[^>]*src="([^"]+)"', html)
        assert len(images) >= blocks, f"{page.name}: {blocks} figure blocks, {len(images)} images"
        for src in images:
            assert (built_site / page.relative_to(DOCS).parent / src).is_file(), src


def test_every_markdown_page_is_in_the_site(built_site):
    for page in _pages():
        html = built_site / page.relative_to(DOCS).with_suffix(".html")
        assert html.is_file(), page


def test_every_gallery_script_runs_and_draws(built_site):
    scripts = sorted(EXAMPLES.glob("plot_*.py"))
    assert len(scripts) >= 5
    for script in scripts:
        assert (built_site / "auto_examples" / f"{script.stem}.html").is_file(), script
        images = list((built_site / "_images").glob(f"sphx_glr_{script.stem}_*.png"))
        assert images, f"{script.name} drew no figure"


def test_every_public_module_has_an_api_page(built_site):
    for module in (
        "builders", "design", "noise", "noise.baselines", "noise.modulo", "noise.count",
        "noise.tablebuilder", "cellkey", "optimal", "morphism", "order", "io", "plot",
        "reproduce", "interop", "exceptions",
    ):  # fmt: skip
        assert (built_site / f"api/generated/rainbowdp.{module}.html").is_file(), module


# -- static checks (no build) ------------------------------------------------------------------


def test_api_index_lists_every_top_level_name():
    index = (DOCS / "api" / "index.rst").read_text("utf-8")
    listed = set(re.findall(r"^   ([\w.]+)$", index, flags=re.M))
    for name in rainbowdp.__all__:
        assert name in listed, f"rainbowdp.{name} is missing from docs/api/index.rst"
    for name in listed:  # and nothing stale
        _resolve(f"rainbowdp.{name}")


def _resolve(dotted: str) -> object:
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for part in parts[i:]:
            obj = getattr(obj, part)
        return obj
    raise ModuleNotFoundError(dotted)


DOTTED = re.compile(r"(?<![\w./])(?:rainbowdp|rdp)((?:\.[A-Za-z_]\w*)+)")


def test_every_dotted_rainbowdp_name_in_the_docs_exists():
    missing = []
    for path in [ROOT / "README.md", *_pages()]:
        for lineno, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            for m in DOTTED.finditer(line):
                try:
                    _resolve("rainbowdp" + m.group(1))
                except (ImportError, AttributeError):
                    missing.append(f"{path.relative_to(ROOT)}:{lineno}: {m.group(0)}")
    assert not missing, "names that do not exist:\n" + "\n".join(missing)


def test_the_dotted_name_check_catches_a_missing_name():
    with pytest.raises(AttributeError):
        _resolve("rainbowdp.noise.NoSuchFamily")
    with pytest.raises(AttributeError):
        _resolve("rainbowdp.nosuchmodule")
    assert _resolve("rainbowdp.noise.count.Count") is rainbowdp.noise.count.Count


# A path in the repository: a whole path (not the start of a glob such as examples/plot_*.py).
PATH = re.compile(
    r"(?<![\w/.])((?:rainbowdp|tests|benchmarks|graphs|docs|examples)/[\w./-]*\w)(?![\w*/-]|\.\w)"
)
TEST_NAME = re.compile(r"::\s*(test_\w+)")


def test_repository_paths_and_tests_named_in_the_docs_exist():
    tests = "\n".join(p.read_text("utf-8") for p in (ROOT / "tests").rglob("*.py"))
    missing = []
    for path in [ROOT / "README.md", *_pages()]:
        text = path.read_text("utf-8")
        for m in PATH.finditer(text):
            if set(Path(m.group(1)).parts) & set(GENERATED):
                continue  # made by the build, absent from a clean checkout
            if not (ROOT / m.group(1)).exists():
                missing.append(f"{path.relative_to(ROOT)}: {m.group(1)}")
        for m in TEST_NAME.finditer(text):
            if not re.search(rf"def {m.group(1)}\b", tests):
                missing.append(f"{path.relative_to(ROOT)}: test {m.group(1)}")
    assert not missing, "\n".join(missing)


LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_relative_links_between_pages_resolve():
    broken = []
    for path in [ROOT / "README.md", *_pages()]:
        for target in LINK.findall(path.read_text("utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a web address or an anchor of the same page (checked by the build)
            file = target.split("#", 1)[0]
            resolved = (path.parent / file).resolve()
            if file.startswith("../auto_examples/") or file.startswith("auto_examples/"):
                stem = Path(file).stem  # a generated gallery page: its script must exist
                ok = stem == "index" or (EXAMPLES / f"{stem}.py").is_file()
            else:
                ok = resolved.exists()
            if not ok:
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert not broken, "\n".join(broken)


def test_no_path_points_outside_the_repository():
    for path in _texts():
        text = path.read_text("utf-8")
        for needle in ("../shared", "papers/", "/work/"):
            assert needle not in text, f"{path.relative_to(ROOT)} mentions {needle!r}"


def _inventories():
    spec = importlib.util.spec_from_file_location(
        "docs_intersphinx_update", DOCS / "_intersphinx" / "update.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_stored_inventories_are_whole_and_of_their_project():
    inventories = _inventories()
    assert set(inventories.PROJECTS) >= {"python", "numpy", "scipy", "networkx", "matplotlib"}
    for name, url in inventories.PROJECTS.items():
        assert url.startswith("https://") and url.endswith("/"), url
        what = inventories.check_inventory(inventories.inventory_path(name).read_bytes(), name)
        assert what.lower().startswith(name), (name, what)


def test_the_inventory_check_refuses_a_damaged_file():
    inventories = _inventories()
    whole = inventories.inventory_path("numpy").read_bytes()
    for bad in (b"<html>not found</html>", whole[:200], whole[:-100]):
        with pytest.raises(ValueError, match="numpy"):
            inventories.check_inventory(bad, "numpy")


def test_the_build_fetches_no_inventory():
    # conf.py maps every project to a stored file, so intersphinx never downloads one.
    conf = (DOCS / "conf.py").read_text("utf-8")
    assert "sphinx.ext.intersphinx" in conf and "inventory_path(name)" in conf
    assert "objects.inv" not in conf.replace("``objects.inv``", "")


def test_gallery_scripts_are_headless():
    for script in sorted(EXAMPLES.glob("plot_*.py")):
        text = script.read_text("utf-8")
        assert text.startswith('"""'), f"{script.name}: the gallery needs a docstring title"
        assert "plt.show()" not in text, script.name
