"""scikit-learn's private helpers that skxor relies on, imported in this one module.

skxor validates every public parameter with scikit-learn's own constraints
(``Interval``, ``StrOptions``, ``validate_params``, as scikit-learn's
estimators do), which live in the private module
``sklearn.utils._param_validation``; the estimators also use the private
``sklearn.utils.validation._check_y`` and ``_check_feature_names_in`` and
``sklearn.base._fit_context`` (the decorator scikit-learn's own ``fit``
methods wear). Private names may move between
releases without a deprecation: every module of skxor imports them from
here, so that a move is one change in one file.
``tests/unit/test_sklearn_compat.py`` checks each name's behaviour, and runs
at the lowest scikit-learn declared (``.ci/lowest``) and at the installed one.

Examples
--------
>>> from numbers import Integral
>>> from skxor._utils._sklearn_compat import Interval
>>> Interval(Integral, 1, None, closed="left").is_satisfied_by(3)
True
"""

from sklearn.base import _fit_context as fit_context
from sklearn.utils._param_validation import (
    HasMethods,
    Interval,
    InvalidParameterError,
    Options,
    StrOptions,
    make_constraint,
    validate_parameter_constraints,
    validate_params,
)
from sklearn.utils.validation import _check_feature_names_in as check_feature_names_in
from sklearn.utils.validation import _check_y as check_y

__all__ = [
    "HasMethods",
    "Interval",
    "InvalidParameterError",
    "Options",
    "StrOptions",
    "check_feature_names_in",
    "check_y",
    "fit_context",
    "make_constraint",
    "validate_parameter_constraints",
    "validate_params",
]
