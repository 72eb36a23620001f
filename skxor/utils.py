"""Utilities for working with skxor as a whole."""

import importlib
import inspect

from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, TransformerMixin

__all__ = ["all_estimators"]

#: Public subpackages that may define estimators.
_ESTIMATOR_PACKAGES = ("skxor.estimators", "skxor.sensitivity")

_TYPE_MIXINS = {
    "classifier": ClassifierMixin,
    "regressor": RegressorMixin,
    "transformer": TransformerMixin,
}


def all_estimators(type_filter=None):
    """The public estimators of skxor, like ``sklearn.utils.all_estimators``.

    Every scikit-learn estimator class exported (``__all__``) by a public
    skxor subpackage is listed, so the common checks cannot miss a new one.

    Parameters
    ----------
    type_filter : {"classifier", "regressor", "transformer"}, list of them or \
None, default=None
        Keep only estimators of any of these kinds (by scikit-learn mixin);
        None keeps all.

    Returns
    -------
    estimators : list of (str, type)
        ``(name, class)`` pairs sorted by name.

    Examples
    --------
    >>> from skxor.utils import all_estimators
    >>> [name for name, _ in all_estimators(type_filter="transformer")]
    ['SensitivityProfiler']
    """
    if type_filter is None:
        kinds = []
    elif isinstance(type_filter, str):
        kinds = [type_filter]
    else:
        kinds = list(type_filter)
    unknown = [kind for kind in kinds if kind not in _TYPE_MIXINS]
    if unknown:
        raise ValueError(
            f"type_filter must be None or among {sorted(_TYPE_MIXINS)}; got {type_filter!r}."
        )
    found = {}
    for package in _ESTIMATOR_PACKAGES:
        module = importlib.import_module(package)
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if (
                inspect.isclass(obj)
                and issubclass(obj, BaseEstimator)
                and not inspect.isabstract(obj)
                and not name.startswith("_")
            ):
                found[name] = obj
    return sorted(
        (name, cls)
        for name, cls in found.items()
        if not kinds or any(issubclass(cls, _TYPE_MIXINS[kind]) for kind in kinds)
    )
