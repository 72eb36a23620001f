"""The private scikit-learn names skxor uses, all through skxor._utils._sklearn_compat.

Run at the installed scikit-learn (the default suite) and at the lowest one
pyproject.toml declares (``.ci/lowest``): each name is checked for the
behaviour skxor relies on, and no other module of skxor imports a private
name or module of scikit-learn.
"""

import ast
from numbers import Integral, Real
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import BaseEstimator

import skxor
from skxor._utils import _sklearn_compat as compat

ROOT = Path(skxor.__file__).parent


def _private_sklearn_imports(path):
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules, names = [node.module], [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            modules, names = [a.name for a in node.names], []
        else:
            continue
        for module in modules:
            if module.split(".")[0] != "sklearn":
                continue
            if any(part.startswith("_") for part in module.split(".")) or any(
                    name.startswith("_") for name in names):
                found.append(f"{path.relative_to(ROOT.parent)}:{node.lineno}")
    return found


def test_only_the_compat_module_imports_private_scikit_learn():
    found = [hit for path in sorted(ROOT.rglob("*.py")) if path.name != "_sklearn_compat.py"
             for hit in _private_sklearn_imports(path)]
    assert found == []
    # The check sees one (the compat module's own imports).
    assert len(_private_sklearn_imports(ROOT / "_utils" / "_sklearn_compat.py")) == 4


def test_constraints_accept_and_refuse_as_skxor_relies_on():
    positive = compat.Interval(Integral, 1, None, closed="left")
    assert positive.is_satisfied_by(3) and not positive.is_satisfied_by(0)
    assert not positive.is_satisfied_by(2.5)
    unit = compat.Interval(Real, 0, 1, closed="neither")
    assert unit.is_satisfied_by(0.5) and not unit.is_satisfied_by(1.0)
    assert compat.StrOptions({"a", "b"}).is_satisfied_by("a")
    assert not compat.StrOptions({"a", "b"}).is_satisfied_by("c")
    assert compat.Options(Real, {0.0, 1e-5}).is_satisfied_by(1e-5)
    methods = compat.HasMethods(["fit", "predict"])
    assert methods.is_satisfied_by(BaseEstimator) is False
    assert methods.is_satisfied_by(type("M", (), {"fit": print, "predict": print})())
    assert compat.make_constraint(None).is_satisfied_by(None)
    assert issubclass(compat.InvalidParameterError, ValueError)
    assert issubclass(compat.InvalidParameterError, TypeError)


def test_validate_params_names_the_parameter_and_the_values_accepted():
    @compat.validate_params({"n": [compat.Interval(Integral, 1, None, closed="left")]},
                            prefer_skip_nested_validation=True)
    def double(n):
        return 2 * n

    assert double(3) == 6
    with pytest.raises(compat.InvalidParameterError,
                       match=r"The 'n' parameter of \S*double must be an int in the range "
                             r"\[1, inf\)\. Got 0 instead\."):
        double(0)
    with pytest.raises(compat.InvalidParameterError, match="The 'k' parameter of caller"):
        compat.validate_parameter_constraints(
            {"k": [compat.StrOptions({"x"})]}, {"k": "y"}, caller_name="caller")


class _Estimator(BaseEstimator):
    _parameter_constraints = {"alpha": [compat.Interval(Real, 0, None, closed="left")]}

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    @compat.fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        self.y_ = compat.check_y(y, estimator=self)
        return self


def test_fit_context_validates_the_parameters_and_check_y_the_target():
    fitted = _Estimator().fit(None, [0, 1, 1])
    assert isinstance(fitted.y_, np.ndarray) and fitted.y_.tolist() == [0, 1, 1]
    with pytest.raises(compat.InvalidParameterError, match="The 'alpha' parameter of _Estimator"):
        _Estimator(alpha=-1).fit(None, [0, 1])
    with pytest.raises(ValueError, match="NaN"):
        _Estimator().fit(None, [0.0, np.nan])


def test_check_feature_names_in_gives_the_names_seen_or_defaults():
    estimator = _Estimator()
    estimator.n_features_in_ = 2
    assert compat.check_feature_names_in(estimator, None).tolist() == ["x0", "x1"]
    estimator.feature_names_in_ = np.array(["a", "b"], dtype=object)
    assert compat.check_feature_names_in(estimator, None).tolist() == ["a", "b"]
    with pytest.raises(ValueError, match="input_features is not equal to feature_names_in_"):
        compat.check_feature_names_in(estimator, ["a", "c"])
