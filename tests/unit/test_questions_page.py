"""docs/questions.rst ("Which study answers my question", issue 51 item 2) names only
studies that are registered and objects that import."""

import importlib
import re
from pathlib import Path

import pytest

from skxor.studies import STUDIES

PAGE = Path(__file__).resolve().parents[2] / "docs" / "questions.rst"


def _runs(text):
    return re.findall(r"skxor run ([A-Za-z_][\w.]*)", text)


def _objects(text):
    return sorted(set(re.findall(r"\bskxor(?:\.[A-Za-z_]\w*)+", text)))


def _resolve(dotted):
    """The object a dotted name names: the longest importable module, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            obj = getattr(obj, attribute)  # AttributeError: the page names a missing object
        return obj
    raise ModuleNotFoundError(dotted)


def test_every_study_the_page_runs_is_registered():
    runs = _runs(PAGE.read_text())
    assert len(runs) >= 8
    studies = [name for name in runs if not name.endswith(".py")]  # a user's study file
    assert set(studies) <= set(STUDIES), sorted(set(studies) - set(STUDIES))
    assert set(STUDIES) <= set(studies)  # and every study has its question


def test_every_object_the_page_names_imports():
    names = _objects(PAGE.read_text())
    assert len(names) >= 20
    for name in names:
        assert _resolve(name) is not None, name


def test_the_checks_fail_on_a_wrong_name():
    assert _runs("``skxor run one_stepp --preset quick``") == ["one_stepp"]
    assert "one_stepp" not in STUDIES
    with pytest.raises(AttributeError):
        _resolve("skxor.papers.one_stepp")
    with pytest.raises(ModuleNotFoundError):
        _resolve("skxorr.papers")


def test_the_page_is_linked_from_the_readme_the_user_guide_and_the_toctree():
    root = PAGE.parents[1]
    assert "docs/questions.rst" in (root / "README.md").read_text()
    assert ":doc:`questions`" in (root / "docs" / "user_guide.rst").read_text()
    toctree = (root / "docs" / "index.rst").read_text().split(".. toctree::")[1]
    assert "\n   questions\n" in toctree
