"""The shared docstring entries: filled where used, never left as placeholders."""

import importlib
import inspect
import pkgutil

import pytest

import skxor
from skxor._utils._docstrings import DOCS, fill_doc


def _public_objects():
    for info in pkgutil.walk_packages(skxor.__path__, "skxor."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if getattr(obj, "__module__", "").startswith("skxor") and (
                inspect.isclass(obj) or inspect.isfunction(obj)
            ):
                yield f"{obj.__module__}.{name}", obj
                if inspect.isclass(obj):
                    for attr, member in vars(obj).items():
                        yield f"{obj.__module__}.{name}.{attr}", member


def test_no_docstring_keeps_a_placeholder():
    left = [name for name, obj in _public_objects()
            if name != "skxor._utils._docstrings.fill_doc"
            and "%(" in (getattr(obj, "__doc__", None) or "")]
    assert left == []


def test_fill_doc_indents_the_entry_and_leaves_other_percent_signs():
    @fill_doc
    def f():
        """Ninety-five % of it.

        Parameters
        ----------
        %(X_predict)s
        """

    lines = f.__doc__.splitlines()
    assert lines[0] == "Ninety-five % of it."
    assert lines[4:6] == ["        X : array-like of shape (n_samples, n_features)",
                          "            Inputs in the encoding used in fit."]


def test_fill_doc_refuses_an_unknown_entry():
    with pytest.raises(KeyError, match="no shared docstring entry 'nope'"):
        @fill_doc
        def f():
            """Doc.

            %(nope)s
            """


def test_every_entry_is_used():
    # An entry nobody fills is documentation that drifted away from its code.
    sources = "".join(
        inspect.getsource(importlib.import_module(info.name))
        for info in pkgutil.walk_packages(skxor.__path__, "skxor.")
        if not info.name.endswith(("__main__", "_docstrings"))
    )
    assert [key for key in DOCS if f"%({key})s" not in sources] == []


def _exported():
    """``(qualified name, object)`` of every class and function in a public ``__all__``.

    The ``__all__`` of skxor itself and of each public subpackage or module
    (its name not starting with an underscore) that declares one.
    """
    modules = [skxor] + [
        importlib.import_module(f"skxor.{info.name}")
        for info in pkgutil.iter_modules(skxor.__path__)
        if not info.name.startswith("_")
    ]
    for module in modules:
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if inspect.isclass(obj) or inspect.isroutine(obj):
                yield module.__name__, f"{module.__name__}.{name}", obj


def test_every_public_object_has_a_doctested_example():
    exported = list(_exported())
    walked = {module for module, _, _ in exported}
    assert {"skxor", "skxor.boolean", "skxor.datasets", "skxor.nn", "skxor.estimators",
            "skxor.sensitivity", "skxor.theory", "skxor.plotting", "skxor.studies",
            "skxor.utils"} <= walked
    # Its own docstring (a class's, not one inherited): doctest collects only that.
    missing = sorted({name for _, name, obj in exported if ">>>" not in (obj.__doc__ or "")})
    assert missing == []
