"""Sphinx configuration of the rainbowdp documentation.

Build (from the repository root; warnings are errors)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

The site is made of the Markdown pages of ``docs/`` (MyST), an API reference generated from the
numpydoc docstrings (autosummary, ``docs/api/``) and a gallery of figures made by the scripts in
``examples/`` (sphinx-gallery). Nothing is fetched from the network: intersphinx is not used.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")

import matplotlib

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # a checkout that is not installed
    sys.path.insert(0, str(ROOT))

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
    "sphinx.ext.mathjax",
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
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()

# Unresolvable cross-references (numpy, networkx, matplotlib types without intersphinx) are not
# errors: only the pages of this project are linked.
nitpicky = False

# numpydoc renders a "References" section as reST citations; a module or function may list the
# papers it implements without citing each of them inline, which docutils reports as an
# unreferenced citation (ref.citation). That is the intended use of the section, not an error.
suppress_warnings = ["ref.citation"]

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
