"""The documentation builds offline with warnings as errors, gallery examples run."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_sphinx_build_has_no_warnings(tmp_path):
    pytest.importorskip("sphinx")
    pytest.importorskip("numpydoc")
    pytest.importorskip("sphinx_gallery")
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         "-d", str(tmp_path / "doctrees"), str(DOCS), str(tmp_path / "html")],
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "SKXOR_DOCS_RUN_GALLERY": "1", "MPLBACKEND": "Agg"},
    )
    assert result.returncode == 0, result.stderr[-5000:]
    assert (tmp_path / "html" / "api.html").exists()
    assert (tmp_path / "html" / "auto_examples" / "index.html").exists()
    # Every example ran and drew at least one figure.
    examples = sorted(p.stem for p in (DOCS.parent / "examples").glob("plot_*.py"))
    images = {p.name for p in (tmp_path / "html" / "_images").glob("sphx_glr_*_001.png")}
    assert examples and all(f"sphx_glr_{name}_001.png" in images for name in examples)
