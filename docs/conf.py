"""Sphinx configuration for skxor (builds offline: no intersphinx fetches)."""

import os
import sys

sys.path.insert(0, os.path.abspath(".."))
sys.path.insert(0, os.path.abspath("."))  # _gallery_cpu, the examples' CPU clock

import skxor  # noqa: E402
from skxor.studies import write_figures  # noqa: E402
from _gallery_cpu import CPUClock  # noqa: E402

# Every stored study's figures, drawn from its stored table (docs/results/data)
# for the page docs/results/generated/<study>.md; never committed.
os.environ.setdefault("MPLBACKEND", "Agg")
write_figures(root=os.path.abspath(".."))

project = "skxor"
author = "the skxor developers"
copyright = "2026, the skxor developers"
version = release = skxor.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    # The per-study pages docs/results/generated/*.md (written by skxor publish).
    "myst_parser",
]

autosummary_generate = True
autodoc_default_options = {
    "members": True,
    # scikit-learn's generated metadata-routing setters document sklearn internals.
    "exclude-members": "set_fit_request,set_predict_request,set_score_request,"
    "set_transform_request,set_output",
}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
templates_path = ["_templates"]
# results/measured.rst is included by studies.rst, not a page of its own; the
# figure snippets are included by the per-study pages.
exclude_patterns = ["_build", "auto_examples/*.ipynb", "auto_examples/*.py.md5",
                    "results/measured.rst", "results/generated/figures"]
html_theme = "alabaster"
html_static_path = []
# Pages as wide as the window (alabaster's default body is 800 px of a 940 px
# page): figures and tables legible at 1 400 px (tools/screenshot_docs.py).
html_theme_options = {"page_width": "96%", "body_max_width": "none", "sidebar_width": "230px"}

# Examples run when SKXOR_DOCS_RUN_GALLERY=1 (as tests/test_docs.py does);
# otherwise the gallery pages are built from the sources without running them.
sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "plot_gallery": os.environ.get("SKXOR_DOCS_RUN_GALLERY", "0") == "1",
    "download_all_examples": False,
    "within_subsection_order": "FileNameSortKey",
    # Each example's `# sphinx_gallery_multi_image = "single"` (every figure full
    # width, one under another, not thumbnails) is read, then hidden.
    "remove_config_comments": True,
    # matplotlib reset as by default; each example's CPU seconds recorded for the
    # gallery test's limit (SKXOR_GALLERY_CPU_FILE, see _gallery_cpu.py).
    "reset_modules": ("matplotlib", CPUClock()),
    "reset_modules_order": "both",
    # When measured, every example runs, not only those changed since the last build.
    "run_stale_examples": bool(os.environ.get("SKXOR_GALLERY_CPU_FILE")),
}
