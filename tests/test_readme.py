"""Every ```python block of README.md and of docs/**/*.md runs as written, and every ```{plot}
block of docs/**/*.md draws.

README blocks run as before (each block on its own) and their output is checked. The blocks of
one docs page run in order in one namespace, with the working directory set to a temporary
directory (a page may write files such as ``pt.csv``). A block written as a doctest (lines
starting with ``>>>``) is run by :mod:`doctest` in the same namespace, so its shown outputs are
checked too. A block that imports an optional package that is not installed is skipped with
pytest.importorskip, which names the package; nothing else is skipped.

A ```{plot} block (matplotlib's plot directive) is run the way the docs build runs it: on its
own, in a fresh namespace (or, with the ``:context:`` option, in one namespace shared with the
page's earlier ``:context:`` blocks), and it must leave a pyplot figure open, the figure the
built page shows under the code.
"""

from __future__ import annotations

import ast
import doctest
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
# Generated or build output: not pages of the repository.
GENERATED = ("_build", "auto_examples", "generated")
# Packages a docs page may use that `pip install -e .` does not install (the extras).
OPTIONAL = {
    "pandas": "tables",
    "tqdm": "tables",
    "highspy": "highs",
    "dp_accounting": "accounting",
}

FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", flags=re.S | re.M)
PLOT_FENCE = re.compile(r"^```\{plot\}[ \t]*\n(.*?)^```[ \t]*$", flags=re.S | re.M)
# A directive option line at the top of a MyST block, e.g. ":context: close-figs".
OPTION = re.compile(r"^:([\w-]+):(.*)$")


def python_blocks(path: Path) -> list[tuple[int, str]]:
    """The ```python blocks of a Markdown file, with the line number of each opening fence."""
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in FENCE.finditer(text)]


def docs_pages() -> list[Path]:
    return sorted(
        p
        for p in DOCS.rglob("*.md")
        if not any(part in GENERATED for part in p.relative_to(DOCS).parts) and python_blocks(p)
    )


def test_readme_python_example_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "the README should show a Python example"
    for code in blocks:
        exec(compile(code, str(README), "exec"), {})
    out = capsys.readouterr().out
    assert "NOT private" in out and "0.847297" in out  # ln(7/3) = 0.8472978...
    # truncated geometric on counts 0..10: e^1 Z_1 / Z_0, see docs/families.md
    assert "1.20906" in out and "True" in out


def _quick_start_commands() -> list[str]:
    """The ```bash blocks of the README's "Quick start" section."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [b.strip() for b in re.findall(r"^```bash\n(.*?)^```", section, flags=re.S | re.M)]


def test_quick_start_installs_the_base_then_the_test_extra():
    install, tests = _quick_start_commands()
    for command in (install, tests):
        assert "\n" not in command, f"one command to copy, not several lines: {command!r}"
    # The demo needs the base dependencies only: no extra before it.
    assert install.startswith("python3 -m venv .venv && .venv/bin/pip install -e . && ")
    assert install.endswith(".venv/bin/rainbowdp demo") and "[" not in install
    assert tests.startswith('.venv/bin/pip install -e ".[test]" && ')
    assert tests.endswith(".venv/bin/python -m pytest")


def test_ci_runs_exactly_the_readme_commands_in_order():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    commands = _quick_start_commands()
    positions = [ci.index(command) for command in commands]  # whole lines, verbatim
    assert positions == sorted(positions)
    assert ci.index("rm -rf .venv") < positions[0]  # from a fresh virtual environment
    # no other pip install or pytest run than the README's
    assert sum("pip install" in line for line in ci) == 2
    assert sum("pytest" in line and not line.startswith("#") for line in ci) == 1


def test_fence_pattern_finds_every_python_block():
    # A block the pattern missed would silently not run: count the opening fences directly.
    for path in [README, *docs_pages()]:
        text = path.read_text(encoding="utf-8")
        opening = len(re.findall(r"^```python[ \t]*$", text, flags=re.M))
        assert len(python_blocks(path)) == opening, path


def _imported_top_level_names(code: str) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _require_optional_packages(code: str, where: str) -> None:
    for name in sorted(_imported_top_level_names(code) & OPTIONAL.keys()):
        if importlib.util.find_spec(name) is None:
            pytest.importorskip(
                name,
                reason=f"{where} needs {name} (the `{OPTIONAL[name]}` extra), not installed",
            )


def test_only_a_missing_optional_package_skips_a_block(monkeypatch):
    monkeypatch.setitem(OPTIONAL, "rainbowdp_no_such_package", "nothing")
    with pytest.raises(pytest.skip.Exception, match="rainbowdp_no_such_package"):
        _require_optional_packages("import rainbowdp_no_such_package as x", "page.md:1")
    # an installed optional package, or a missing package that is not optional, never skips
    # (the latter then fails when the block runs)
    _require_optional_packages("import pytest\nfrom not_optional_xyz import y", "page.md:1")


def _run_doctest_block(code: str, namespace: dict, name: str, lineno: int) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(code, namespace, name, name, lineno)
    runner = doctest.DocTestRunner(
        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS, verbose=False
    )
    report: list[str] = []
    runner.run(test, out=report.append, clear_globs=False)
    assert runner.failures == 0, "".join(report)
    namespace.update(test.globs)  # DocTest works on a copy: carry its names to the next block


@pytest.fixture
def restore_family_registry():
    # A page may show how to register a noise family; the registry is global, so the
    # registration must not leak into the rest of the test session.
    from rainbowdp.noise import _family

    saved = dict(_family._REGISTRY)
    yield
    _family._REGISTRY.clear()
    _family._REGISTRY.update(saved)


@pytest.mark.parametrize("page", docs_pages(), ids=lambda p: str(p.relative_to(DOCS)))
def test_docs_page_python_blocks_run(page, tmp_path, monkeypatch, restore_family_registry):
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__main__"}
    blocks = python_blocks(page)
    assert blocks
    for lineno, code in blocks:
        where = f"{page.relative_to(ROOT)}:{lineno}"
        if code.lstrip().startswith(">>>"):
            _require_optional_packages(
                "\n".join(ex.source for ex in doctest.DocTestParser().get_examples(code)), where
            )
            _run_doctest_block(code, namespace, where, lineno)
        else:
            _require_optional_packages(code, where)
            # Padded so that line numbers are those of the Markdown file: a traceback shows
            # the page and its lines.
            # dont_inherit: this module's `from __future__ import annotations` must not turn the
            # page's annotations into strings (a page's dataclass would then see no KW_ONLY).
            code = compile("\n" * lineno + code, str(page), "exec", dont_inherit=True)
            exec(code, namespace)


# -- the figures of the pages ---------------------------------------------------------------


def plot_blocks(path: Path) -> list[tuple[int, dict[str, str], str]]:
    """The ```{plot} blocks of a page: line of the opening fence, options, code.

    The code keeps its line numbers: option lines are blanked, not removed.
    """
    text = path.read_text(encoding="utf-8")
    blocks = []
    for m in PLOT_FENCE.finditer(text):
        options: dict[str, str] = {}
        lines = m.group(1).split("\n")
        for i, line in enumerate(lines):
            option = OPTION.match(line)
            if not option:
                break
            options[option.group(1)] = option.group(2).strip()
            lines[i] = ""
        blocks.append((text.count("\n", 0, m.start()) + 1, options, "\n".join(lines)))
    return blocks


def plot_pages() -> list[Path]:
    return sorted(
        p
        for p in DOCS.rglob("*.md")
        if not any(part in GENERATED for part in p.relative_to(DOCS).parts) and plot_blocks(p)
    )


def test_plot_fence_pattern_finds_every_plot_block():
    for path in plot_pages():
        text = path.read_text(encoding="utf-8")
        opening = len(re.findall(r"^```\{plot\}[ \t]*$", text, flags=re.M))
        assert len(plot_blocks(path)) == opening, path


def test_plot_block_options_are_read_and_keep_line_numbers(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("text\n\n```{plot}\n:context: close-figs\nx = 1\n```\n", encoding="utf-8")
    [(lineno, options, code)] = plot_blocks(page)
    assert (lineno, options) == (3, {"context": "close-figs"})
    assert code.split("\n")[1] == "x = 1"  # the option line is blank, the code where it was


def test_pages_with_figures_include_these():
    # The drawing manual and the pages below show what they draw (a page that loses its last
    # figure would silently drop out of the test below).
    with_figures = {str(p.relative_to(DOCS)) for p in plot_pages()}
    for page in ("drawing.md", "privacy_plots.md", "example1.md", "optimal.md",
                 "tutorials/records.md", "tutorials/custom_graph.md", "tutorials/count.md",
                 "tutorials/modulo.md"):  # fmt: skip
        assert page in with_figures, page


@pytest.mark.parametrize("page", plot_pages(), ids=lambda p: str(p.relative_to(DOCS)))
def test_docs_page_plot_blocks_draw(page, tmp_path, monkeypatch, restore_family_registry):
    import matplotlib.pyplot as plt

    monkeypatch.chdir(tmp_path)
    shared: dict = {"__name__": "__main__"}
    plt.close("all")
    try:
        for lineno, options, code in plot_blocks(page):
            where = f"{page.relative_to(ROOT)}:{lineno}"
            _require_optional_packages(code, where)
            namespace = shared if "context" in options else {"__name__": "__main__"}
            if "context" not in options or options["context"].startswith("close-figs"):
                plt.close("all")
            exec(compile("\n" * lineno + code, str(page), "exec", dont_inherit=True), namespace)
            assert plt.get_fignums(), (
                f"{where}: the block leaves no pyplot figure, so the page shows none "
                "(the rainbowdp drawing functions make their Figure without pyplot: end the "
                "block with plt.figure(fig))"
            )
    finally:
        plt.close("all")
