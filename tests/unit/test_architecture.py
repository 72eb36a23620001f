"""The house's two directions: the framework imports no science and no study; the
papers' studies use the framework's public names only, and no study imports another.

The framework is ``skxor/studies`` (domain-free: sweeps, tables, reports,
figures, claims, publishing); the science is the rest of ``skxor`` (Boolean
functions, networks, estimators, theory, sensitivity, plotting); the papers'
studies (``skxor/papers``) sit on top of both and reach the framework as a
third party's study does.
"""

import ast
from pathlib import Path

import pytest

import skxor.studies

SKXOR = Path(__file__).resolve().parents[2] / "skxor"
FRAMEWORK = SKXOR / "studies"
PAPERS = SKXOR / "papers"
#: skxor's own modules the framework may use: its utilities, nothing of its science.
FRAMEWORK_MAY_IMPORT = ("skxor.studies", "skxor._utils", "skxor._version")


def module_of(path, root=SKXOR):
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path, root=SKXOR):
    """``(line, absolute module, names)`` of every import in ``path`` (inside functions too)."""
    here = module_of(path, root)
    package = here if path.name == "__init__.py" else here.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, ()
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            yield node.lineno, module, tuple(alias.name for alias in node.names)


def framework_violations(root=SKXOR):
    """Imports of skxor's science or of a study from a framework module."""
    found = []
    for path in sorted((root / "studies").rglob("*.py")):
        for line, module, names in imports(path, root):
            targets = [module] + [f"{module}.{n}" for n in names]
            if module == "skxor":
                targets = [f"skxor.{n}" for n in names]
            for target in targets:
                if (target.startswith("skxor.") or target == "skxor") and not any(
                        target == ok or target.startswith(ok + ".")
                        for ok in FRAMEWORK_MAY_IMPORT):
                    found.append(f"{path.relative_to(root)}:{line}: {target}")
                    break
    return found


def public_names(module):
    import importlib

    return set(getattr(importlib.import_module(module), "__all__", ()))


def study_violations(root=SKXOR):
    """Imports of the framework's private modules or names, and of another study."""
    found = []
    for path in sorted((root / "papers").rglob("*.py")):
        mine = module_of(path, root).split(".")[:4]  # skxor.papers.<paper>.<study>
        for line, module, names in imports(path, root):
            where = f"{path.relative_to(root)}:{line}"
            if module == "skxor.studies" or module.startswith("skxor.studies."):
                private = [p for p in module.split(".") if p.startswith("_")]
                if private:
                    found.append(f"{where}: {module} (a private module of the framework)")
                    continue
                outside = sorted(set(names) - public_names(module))
                if outside:
                    found.append(f"{where}: {outside} not in {module}.__all__")
            parts = module.split(".")
            if (len(parts) >= 4 and parts[:2] == ["skxor", "papers"] and len(mine) == 4
                    and not parts[3].startswith("_") and parts[:4] != mine):
                found.append(f"{where}: {module} (another study)")
    return found


def test_the_framework_imports_no_science_and_no_study():
    assert framework_violations() == []


def test_the_studies_use_the_frameworks_public_names_only():
    assert study_violations() == []


def test_importing_the_framework_imports_no_study_and_no_torch():
    import subprocess
    import sys

    code = ("import sys, skxor.studies; "
            "print(sorted(m for m in sys.modules if m.startswith(('skxor.papers', 'torch'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


def test_the_papers_studies_are_registered_through_the_entry_point_group():
    from importlib import metadata

    points = {p.value for p in metadata.entry_points(group=skxor.studies.ENTRY_POINT_GROUP)}
    assert {"skxor.papers.han_ghoshdastidar", "skxor.papers.kover"} <= points
    assert list(skxor.studies.STUDIES)[:4] == [
        "one_step", "sample_complexity", "parameter_scaling", "k_sparse"]


def _write(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_checks_see_each_kind_of_violation(tmp_path):
    root = tmp_path / "skxor"
    _write(root, {
        "__init__.py": "",
        "studies/__init__.py": "from ._sweep import run_sweep\n",
        "studies/_sweep.py": "from ..nn import BooleanTransformer\nfrom .._utils import x\n",
        "studies/_cost.py": "def f():\n    from skxor.papers.kover import flip_effect\n",
        "papers/__init__.py": "",
        "papers/kover/__init__.py": "",
        "papers/kover/a/__init__.py": (
            "from skxor.studies._stats import format_interval\n"
            "from skxor.studies import _private_name\n"
            "from skxor.studies import Study\n"
            "from skxor.papers.kover.b import STUDY\n"
            "from .._networks import build\n"),
        "papers/kover/b/__init__.py": "",
    })
    assert framework_violations(root) == [
        "studies/_cost.py:2: skxor.papers.kover", "studies/_sweep.py:1: skxor.nn"]
    assert study_violations(root) == [
        "papers/kover/a/__init__.py:1: skxor.studies._stats (a private module of the framework)",
        "papers/kover/a/__init__.py:2: ['_private_name'] not in skxor.studies.__all__",
        "papers/kover/a/__init__.py:4: skxor.papers.kover.b (another study)"]


@pytest.mark.parametrize("name", ["one_step", "summarize_bound"])
def test_a_name_that_moved_says_where(name):
    with pytest.raises(ImportError, match=f"skxor.studies.{name} moved to skxor.papers"):
        getattr(skxor.studies, name)


@pytest.mark.parametrize("module, name, call", [
    ("skxor.studies", "plot_one_step", 'get_study("one_step").render("figures", table)'),
    ("skxor.studies", "report_k_sparse", 'get_study("k_sparse").render("report", table)'),
    ("skxor.papers", "report_flip_effect", 'get_study("flip_effect").render("report", table)'),
    ("skxor.papers.kover.training", "headline",
     'get_study("training_sensitivity").render("headline", table)'),
    ("skxor.papers.han_ghoshdastidar.k_sparse", "plot_k_sparse",
     'get_study("k_sparse").render("figures", table)'),
])
def test_a_removed_wrapper_names_the_generic_call(module, name, call):
    # The 24 per-study wrappers (plot_<study>, report_<study>, headline) did what
    # Study.render does for every study; an import of one names that call.
    import importlib
    import re

    with pytest.raises(ImportError, match=f"{re.escape(module)}.{name} was removed: .*"
                                          f"{re.escape(call)}"):
        exec(f"from {module} import {name}", {})
    assert not hasattr(importlib.import_module(module), "no_such_name")
