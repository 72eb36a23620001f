"""The package's layout rules (issue 13): no reaching into another package's private module."""

import ast
from pathlib import Path

import pytest

import skxor

ROOT = Path(skxor.__file__).parent
#: Private modules every subpackage may use.
SHARED = {"_utils", "_version"}


def _imported_modules(path, root):
    """``(line, absolute module)`` of every ``from ... import`` in ``path``."""
    package = ["skxor", *path.relative_to(root).parent.parts]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = [*base, *(node.module.split(".") if node.module else [])]
                # "from .. import _x" imports the module _x itself.
                names = [[*module, a.name] for a in node.names]
            else:
                module = node.module.split(".")
                names = [module]
            for name in names:
                yield node.lineno, name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")


def private_cross_imports(root=ROOT):
    """Imports of a private module (or package) of another subpackage of skxor."""
    found = []
    for path in sorted(root.rglob("*.py")):
        own = path.relative_to(root).parts[0]  # subpackage, or module at the top
        for line, module in _imported_modules(path, root):
            if module[:1] != ["skxor"] or len(module) < 3:
                continue
            package, inner = module[1], module[2]
            if package in SHARED or package == own or not package.isidentifier():
                continue
            if package.startswith("_") or inner.startswith("_"):
                found.append(f"{path.relative_to(root.parent)}:{line}: {'.'.join(module[:3])}")
    return found


def test_no_module_imports_another_packages_private_module():
    assert private_cross_imports() == []


def test_the_check_sees_a_private_import(tmp_path):
    """The walker flags ``from ..nn._ffnn import`` (so the test above can fail)."""
    fake = tmp_path / "skxor"
    (fake / "estimators").mkdir(parents=True)
    (fake / "estimators" / "_x.py").write_text(
        "from ..nn._ffnn import TwoLayerNetwork\nfrom .._utils._torch import seed_from\n"
        "from ..nn import ACTIVATIONS\nfrom ._base import B\nfrom ..studies import _common\n"
    )
    assert private_cross_imports(fake) == [
        "skxor/estimators/_x.py:1: skxor.nn._ffnn",
        "skxor/estimators/_x.py:5: skxor.studies._common",
    ]


#: What the ground floor, skxor/_utils, may import from skxor: itself.
GROUND_FLOOR = {"_utils", "_version"}


def upward_imports_from_utils(root=ROOT):
    """Imports in skxor/_utils of anything of skxor above it, at any depth.

    ``ast.walk`` reaches every import, a late one inside a function body too:
    importing up "late, to avoid a cycle" is still an upward arrow.
    """
    found = []
    for path in sorted((root / "_utils").rglob("*.py")):
        for line, module in _imported_modules(path, root):
            if module[:1] == ["skxor"] and (len(module) < 2 or module[1] not in GROUND_FLOOR):
                found.append(f"{path.relative_to(root.parent)}:{line}: {'.'.join(module)}")
    return found


def test_utils_imports_nothing_above_it():
    assert upward_imports_from_utils() == []


def test_the_check_sees_a_late_upward_import(tmp_path):
    """A function-level ``from .. import estimators`` in _utils is flagged (issue 25)."""
    fake = tmp_path / "skxor"
    (fake / "_utils").mkdir(parents=True)
    (fake / "_utils" / "_x.py").write_text(
        "from ._bits import popcount\nfrom .. import _version\n\n\n"
        "def f():\n    from ..boolean import BooleanFunction\n"
        "    from .. import estimators\n    import skxor.nn\n"
    )
    assert upward_imports_from_utils(fake) == [
        "skxor/_utils/_x.py:6: skxor.boolean.BooleanFunction",
        "skxor/_utils/_x.py:7: skxor.estimators",
        "skxor/_utils/_x.py:8: skxor.nn",
    ]


PUBLIC_PACKAGES = [
    "skxor", "skxor.boolean", "skxor.datasets", "skxor.estimators", "skxor.model_selection",
    "skxor.nn",
    "skxor.plotting", "skxor.sensitivity", "skxor.studies", "skxor.theory", "skxor.utils",
]


def public_definitions_without_examples():
    import importlib
    import inspect

    missing, seen = [], set()
    for name in PUBLIC_PACKAGES:
        package = importlib.import_module(name)
        for attr in getattr(package, "__all__", []):
            obj = getattr(package, attr)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)) or id(obj) in seen:
                continue
            seen.add(id(obj))
            if ">>>" not in (inspect.getdoc(obj) or ""):
                missing.append(f"{name}.{attr}")
    return missing


def test_every_public_definition_has_a_doctested_example():
    assert public_definitions_without_examples() == []


def test_the_package_root_exports_every_estimator_lazily():
    # skxor's names are imported on first use (skxor._utils._lazy); the root's
    # list must still hold every name of skxor.estimators, each the same object.
    import subprocess
    import sys

    import skxor
    import skxor.estimators
    from skxor import sensitivity

    assert set(skxor.__all__) == {*skxor.estimators.__all__, "SensitivityProfiler",
                                  "__version__"}
    for name in skxor.estimators.__all__:
        assert getattr(skxor, name) is getattr(skxor.estimators, name)
    assert skxor.SensitivityProfiler is sensitivity.SensitivityProfiler
    assert set(skxor.__all__) <= set(dir(skxor))
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        skxor.nope
    # A fresh `import skxor` imports no torch until an estimator is asked for.
    code = ("import sys, skxor; a = 'torch' in sys.modules; skxor.SparseXORTransformer; "
            "print(a, 'torch' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=300)
    assert result.stdout.split() == ["False", "True"], result.stderr
