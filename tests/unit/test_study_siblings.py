"""No study imports another study: what several share lives in a shared module."""

import ast
from pathlib import Path

from skxor.studies._registry import LIBRARY_STUDIES

STUDIES_DIR = Path(__file__).resolve().parents[2] / "skxor" / "studies"


def _files(name, root):
    package = root / name
    return sorted(package.rglob("*.py")) if package.is_dir() else [root / f"{name}.py"]


def sibling_imports(root=STUDIES_DIR, studies=LIBRARY_STUDIES):
    """``file:line: module`` of every import of a study module from another study."""
    found = []
    for name in studies:
        for path in _files(name, root):
            # The package skxor/studies, seen from this file: ".." inside a study
            # package, "." in a study module.
            depth = len(path.relative_to(root).parts) - 1
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.ImportFrom) or node.level != depth + 1:
                    continue
                modules = ([node.module.split(".")[0]] if node.module
                           else [alias.name for alias in node.names])
                for module in modules:
                    if module in studies and module != name:
                        found.append(f"{path.relative_to(root)}:{node.lineno}: {module}")
    return found


def test_no_study_imports_another_study():
    assert sibling_imports() == []


def test_the_check_sees_a_sibling_import(tmp_path):
    (tmp_path / "_a").mkdir()
    (tmp_path / "_a" / "__init__.py").write_text("from .._b import X\nfrom .._common import Y\n")
    (tmp_path / "_a" / "_cells.py").write_text("from .. import _b\nfrom ._summary import Z\n")
    (tmp_path / "_b.py").write_text("from ._a import W\nfrom ._networks import V\n")
    assert sibling_imports(tmp_path, ("_a", "_b")) == [
        "_a/__init__.py:1: _b", "_a/_cells.py:1: _b", "_b.py:1: _a"]


def shared_imports(root=STUDIES_DIR, studies=LIBRARY_STUDIES):
    """``file:line: module`` of every import of a study from a shared module of ``root``.

    The shared modules are the files directly in ``skxor/studies/`` but its
    ``__init__.py``, which exports the studies' public functions; imports
    inside functions count (they run all the same).
    """
    found = []
    for path in sorted(root.glob("*.py")):
        if path.name == "__init__.py" or path.stem in studies:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                modules = ([node.module.split(".")[0]] if node.module
                           else [alias.name for alias in node.names])
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""])
                modules = [n.split(".")[2] for n in names
                           if n.startswith("skxor.studies.") and n.count(".") >= 2]
            else:
                continue
            found += [f"{path.name}:{node.lineno}: {m}" for m in modules if m in studies]
    return found


def test_no_shared_module_imports_a_study():
    # Old _cost.py and _claims.py: 8 and 9 imports from the seven study packages.
    assert shared_imports() == []


def test_the_check_sees_a_shared_module_importing_a_study(tmp_path):
    (tmp_path / "_a").mkdir()
    (tmp_path / "_a" / "__init__.py").write_text("from .._stats import X\n")
    (tmp_path / "__init__.py").write_text("from ._a import public\n")
    (tmp_path / "_cost.py").write_text(
        "from ._stats import Y\n\ndef f():\n    from ._a._cells import cell\n")
    (tmp_path / "_claims.py").write_text("import skxor.studies._a\nfrom . import _a\n")
    assert shared_imports(tmp_path, ("_a",)) == [
        "_claims.py:1: _a", "_claims.py:2: _a", "_cost.py:4: _a"]
