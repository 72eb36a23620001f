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
    # The filling helpers' own docstrings show a placeholder.
    helpers = {f"skxor._utils._docstrings.{name}"
               for name in ("fill_doc", "fill_doc_with", "study_examples")}
    left = [name for name, obj in _public_objects()
            if name not in helpers and "%(" in (getattr(obj, "__doc__", None) or "")]
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


# -- every accepted option value is documented -------------------------------------


def _parameter_entry(doc, name):
    """The numpydoc entry of parameter ``name``: its type line and description."""
    import re

    section = doc.split("Parameters\n", 1)[1]
    match = re.search(rf"^( *){re.escape(name)}( *,[^:\n]*)? : (.*?)(?=^\1\S|\Z)", section,
                      re.M | re.S)
    assert match, f"parameter {name!r} is not documented"
    return match.group(0)


def _option_parameters():
    """(owner, parameter, accepted string values) for every option-valued parameter."""
    from sklearn.utils._param_validation import StrOptions

    from skxor import nn

    cases = []
    for name in skxor.__all__:
        obj = getattr(skxor, name)
        for param, constraints in getattr(obj, "_parameter_constraints", {}).items():
            for constraint in constraints:
                if isinstance(constraint, StrOptions):
                    cases.append((obj, param, sorted(constraint.options)))
    # The module's options are its configuration's constraints.
    for param, constraints in nn.BooleanTransformerConfig.constraints.items():
        for constraint in constraints:
            if isinstance(constraint, StrOptions):
                cases.append((nn.BooleanTransformer, param, sorted(constraint.options)))
    return cases


@pytest.mark.parametrize("owner, param, options", _option_parameters(),
                         ids=lambda v: v.__name__ if isinstance(v, type) else str(v))
def test_every_accepted_option_value_is_in_the_docstring(owner, param, options):
    entry = _parameter_entry(owner.__doc__, param)
    missing = [option for option in options if f'"{option}"' not in entry]
    assert not missing, f"{owner.__name__}.{param} accepts {missing} but its docstring omits them"
