"""Sphinx configuration of the rainbowdp documentation.

Build (from the repository root; warnings are errors)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

The site is made of the Markdown pages of ``docs/`` (MyST), an API reference generated from the
numpydoc docstrings (autosummary, ``docs/api/``) and a gallery of figures made by the scripts in
``examples/`` (sphinx-gallery). The pages draw their figures when the site is built: a
```` ```{plot} ```` block (matplotlib's plot directive) runs the code it shows and puts the figure
under it.

Nothing is fetched from the network, neither by the build nor by the pages it makes: MathJax is
served from the site itself (the ``sphinx-mathjax-offline`` package of the ``docs`` extra copies
it into ``_static/mathjax``), and intersphinx reads the inventories of the projects it links to
(Python, numpy, scipy, networkx, matplotlib, pandas) from ``_intersphinx/``, refreshed by
``python docs/_intersphinx/update.py`` when the network is open.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")

import matplotlib

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # a checkout that is not installed
    sys.path.insert(0, str(ROOT))

from docutils import nodes  # noqa: E402
from docutils.parsers.rst import Parser as RSTParser  # noqa: E402
from docutils.parsers.rst.states import RSTStateMachine  # noqa: E402
from docutils.utils import new_document  # noqa: E402
from matplotlib.sphinxext.plot_directive import PlotDirective  # noqa: E402
from sphinx.application import Sphinx  # noqa: E402

import rainbowdp  # noqa: E402

# -- Project -----------------------------------------------------------------------------------
project = "rainbowdp"
author = "rainbowdp"
copyright = "rainbowdp, BSD-3-Clause"
version = release = rainbowdp.__version__

# -- Extensions --------------------------------------------------------------------------------
extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "sphinx-mathjax-offline",  # MathJax 3 from the package, not from a CDN; after ext.mathjax
    "matplotlib.sphinxext.plot_directive",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
templates_path = ["_templates"]
exclude_patterns = ["_build", "**.ipynb_checkpoints", "auto_examples/*.ipynb"]

# -- MyST --------------------------------------------------------------------------------------
# The pages are plain CommonMark plus pipe tables; headings get anchors so that
# [text](page.md#a-heading) links resolve.
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 4

# -- autodoc / autosummary / numpydoc --------------------------------------------------------
autosummary_generate = True
autosummary_ignore_module_all = False  # a module's public names are its __all__
autosummary_imported_members = True  # the packages re-export from private modules
autodoc_default_options = {"member-order": "bysource"}
# The signatures carry the type hints; the numpydoc Parameters sections say the same in words.
autodoc_typehints = "none"
autodoc_preserve_defaults = True
numpydoc_show_class_members = False  # methods are documented on the class page itself
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = True
numpydoc_xref_param_type = True  # "int", "numpy.ndarray", ... link to their documentation
numpydoc_validation_checks: set[str] = set()

# A type that no inventory names (e.g. "array_like of float", "hashable") is left as text, not
# an error.
nitpicky = False

# -- intersphinx: other projects' names, from inventories stored in the repository --------------
# Each entry is (address the links point to, local inventory): the build never fetches one.
_spec = importlib.util.spec_from_file_location(
    "rainbowdp_docs_intersphinx", Path(__file__).resolve().parent / "_intersphinx" / "update.py"
)
_inventories = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_inventories)
intersphinx_mapping = {
    name: (url, str(_inventories.inventory_path(name)))
    for name, url in _inventories.PROJECTS.items()
}
intersphinx_timeout = 1  # never used: no inventory is fetched

# numpydoc renders a "References" section as reST citations; a module or function may list the
# papers it implements without citing each of them inline, which docutils reports as an
# unreferenced citation (ref.citation). That is the intended use of the section, not an error.
suppress_warnings = ["ref.citation"]

# -- Figures of the pages (matplotlib's plot directive) -------------------------------------------
# A ```{plot} block shows its code and, under it, the figures the code leaves open in pyplot. The
# rainbowdp drawing functions return a Figure made without pyplot; a block ends with
# ``plt.figure(fig)`` to hand it over. No file is written besides the PNG of the page.
plot_include_source = True
plot_html_show_source_link = False
plot_html_show_formats = False
plot_formats = [("png", 110)]
plot_pre_code = ""  # a block imports what it uses, so that it runs as shown
plot_rcparams = {"savefig.bbox": "tight", "savefig.pad_inches": 0.05}

# -- sphinx-gallery ----------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",  # every plot_*.py is executed
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "image_scrapers": ("matplotlib",),
    "matplotlib_animations": False,
    "reset_modules": ("matplotlib",),
    "abort_on_example_error": True,
    "show_memory": False,
    "plot_gallery": "True",
    "parallel": False,
    "backreferences_dir": None,
    "doc_module": (),
    "first_notebook_cell": None,
    "min_reported_time": 1e9,
    "write_computation_times": False,  # no sg_execution_times.rst in the source tree
}

# -- HTML --------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"rainbowdp {release}"
html_show_sourcelink = False
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
}
html_static_path: list[str] = []


# -- The plot directive in Markdown pages ------------------------------------------------------
class MarkdownPlotDirective(PlotDirective):
    """matplotlib's ``plot`` directive, usable from a MyST ```` ```{plot} ```` fence too.

    The directive writes its result (the code, the figure) as reST lines and feeds them back to
    the reST state machine (``insert_input``), which MyST's stand-in state machine does not
    have. In a Markdown page the lines are parsed here, as reST, and their nodes returned; in a
    reST page the directive runs unchanged.
    """

    def run(self) -> list[nodes.Node]:
        if isinstance(self.state_machine, RSTStateMachine):
            return super().run()
        generated: list[tuple[list[str], str]] = []
        self.state_machine.insert_input = lambda lines, source: generated.append(
            (list(lines), source)
        )
        result = super().run()
        for lines, source in generated:
            document = new_document(source, self.state.document.settings)
            document.reporter = self.state.document.reporter
            RSTParser().parse("\n" * self.lineno + "\n".join(lines), document)
            result.extend(document.children)
        return result


def setup(app: Sphinx) -> None:
    """Register the ``plot`` directive for Markdown pages (after matplotlib's own)."""
    app.add_directive("plot", MarkdownPlotDirective, override=True)
