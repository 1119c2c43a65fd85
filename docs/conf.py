"""Sphinx configuration of the PatienceLab documentation site (`make docs` builds it into build/docs/).

Sphinx, because the docstrings are written for it: ``:class:`` and ``:meth:`` roles and ``#:`` comments on
constants, which autodoc reads as they are. The guides are Markdown (MyST), the example notebooks are executed by
MyST-NB at build time. Nothing on a page is fetched from outside the site: no web fonts, no CDN scripts.
"""

from __future__ import annotations

import os
import pathlib
import sys

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE / "_ext"))
# The notebooks run here play games: their statistics go to a folder of the build, never the user's own.
os.environ["PATIENCELAB_HOME"] = str(HERE.parent / "build" / "docs-home")

project = "PatienceLab"
author = "PatienceLab developers"
copyright = "PatienceLab developers"
release = version = "0.1.0"

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx_copybutton",
    "patiencelab_docs",
]
exclude_patterns = ["_build", "_ext", "Thumbs.db", ".DS_Store", "**/.ipynb_checkpoints"]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
language = "en"

# Markdown
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# The API reference: signatures from the type hints, members in their order in the source.
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
autodoc_preserve_defaults = True
autodoc_default_options = {"members": True}
add_module_names = False
python_display_short_literal_types = True
# A reference to a PatienceLab name that does not exist fails the build (-n -W); names of Python and of other
# libraries are plain text here (the site works offline, with no inventories fetched), see _ext/patiencelab_docs.py.
nitpicky = True
# Two modules that hand on one name (`patiencelab.Klondike`, `patiencelab.core.game.Klondike`) are one object:
# an unqualified type hint may match both, which is no error.
suppress_warnings = ["ref.python"]
# The type variables of the argument checker (`check_instance`), of `portfolio.finish` and of the offers are no names
# to look up.
nitpick_ignore = [
    ("py:class", "patiencelab.core.limits.T"),
    ("py:class", "patiencelab.solver.portfolio.T"),
    ("py:class", "patiencelab.widget.offers.T"),
]

# The gallery: every example notebook runs at build time; the board is shown as the picture it saves (the
# widget's own front end needs a kernel), and no widget script is loaded from a CDN.
nb_execution_mode = "force"
nb_execution_timeout = 180
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_ipywidgets_js: dict[str, dict[str, str]] = {}
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
nb_merge_streams = True

# The theme: Furo draws with the system's fonts and loads nothing from outside.
html_theme = "furo"
html_title = "PatienceLab"
html_static_path = ["_static"]
html_css_files = ["patiencelab.css"]
html_copy_source = False
html_show_sourcelink = False
html_last_updated_fmt = None
html_theme_options = {
    "source_repository": "",
    "navigation_with_keys": True,
}
