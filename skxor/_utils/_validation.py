"""Validation shared by every estimator: parameters, targets, devices, X's shape.

The encoding of X (0/1 bits, -1/+1 spins, ``binarize``) is read and converted
in :mod:`skxor._utils._encoding`; integer and real parameters are checked
here by one family, :func:`check_interval` on scikit-learn's ``Interval``
(with :func:`check_count` and :func:`check_positive_finite` its two usual
cases), the same constraints that ``_parameter_constraints`` and
``validate_params`` use.
"""

import functools
import inspect
import itertools
import math
from contextlib import contextmanager
from numbers import Integral, Real

import numpy as np
import torch
from sklearn import get_config
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import validate_data

from ._sklearn_compat import Interval, make_constraint, validate_params


def check_binary_target(y, estimator_name):
    """Validate a two-class target and map it to spins.

    Returns
    -------
    classes : ndarray of shape (2,)
        Sorted labels; ``classes[1]`` maps to +1.
    y_spins : ndarray of shape (n_samples,) of float64 in {-1, +1}
    """
    check_classification_targets(y)
    classes, y_index = np.unique(y, return_inverse=True)
    if classes.shape[0] < 2:
        raise ValueError(
            f"{estimator_name} needs samples of 2 classes, but the data "
            f"contains only one class: {classes.tolist()!r}."
        )
    if classes.shape[0] > 2:
        raise ValueError(
            f"Only binary classification is supported. The type of the target "
            f"is {type_of_target(y)}: {estimator_name} got {classes.shape[0]} "
            "classes; pass exactly two labels."
        )
    return classes, 2.0 * y_index - 1.0


class Integers(Interval):
    """``Interval(Integral, ...)`` that refuses booleans.

    ``True`` is an ``Integral`` in Python, so scikit-learn's interval lets
    ``m=True`` through as 1; an integer parameter must be given an integer.
    """

    def __init__(self, left, right, *, closed):
        super().__init__(Integral, left, right, closed=closed)

    def is_satisfied_by(self, val):
        if isinstance(val, (bool, np.bool_)):
            return False
        return super().is_satisfied_by(val)

    def __str__(self):
        return super().__str__().replace("an int", "an int (not a bool)", 1)


@contextmanager
def restore_on_error(estimator):
    """Run a block; on any exception put ``estimator.__dict__`` back as it was.

    ``fit`` replaces fitted attributes by new objects (it never mutates the
    old ones in place), so a shallow copy of the instance dictionary is the
    whole previous state: a failed refit leaves the previous fit intact, a
    failed first fit leaves the estimator unfitted.
    """
    saved = dict(estimator.__dict__)
    try:
        yield
    except BaseException:
        estimator.__dict__.clear()
        estimator.__dict__.update(saved)
        raise


#: Torch device types skxor's estimators run on.
DEVICE_TYPES = ("cpu", "cuda", "mps")


def check_device(device):
    """Return a ``torch.device`` or raise a ValueError naming the problem."""
    if isinstance(device, torch.device):
        dev = device
    elif isinstance(device, str):
        try:
            dev = torch.device(device)
        except RuntimeError as exc:
            raise ValueError(
                f"device={device!r} is not a torch device name such as 'cpu' "
                "or 'cuda'."
            ) from exc
    else:
        dev = None
    if dev is None:
        raise TypeError(
            f"device must be a string such as 'cpu' or a torch.device; got "
            f"{type(device).__name__}."
        )
    if dev.type not in DEVICE_TYPES:
        raise ValueError(
            f"device={device!r} is not supported: skxor's estimators run on "
            f"{', '.join(repr(t) for t in DEVICE_TYPES)} devices."
        )
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(
            f"device={device!r} was requested but CUDA is not available on "
            "this machine; use device='cpu'."
        )
    if dev.type == "mps" and not torch.backends.mps.is_available():
        raise ValueError(f"device={device!r} was requested but MPS is not available.")
    return dev


_DTYPES = {"float32": torch.float32, "float64": torch.float64}


def check_dtype(dtype):
    """Map ``"float32"``/``"float64"`` (or numpy/torch equivalents) to torch."""
    if dtype in (torch.float32, np.float32):
        return torch.float32
    if dtype in (torch.float64, np.float64, float):
        return torch.float64
    if isinstance(dtype, str) and dtype in _DTYPES:
        return _DTYPES[dtype]
    raise ValueError(f"dtype must be 'float32' or 'float64'; got {dtype!r}.")


def _is_finite(value):
    """``math.isfinite`` for any real; an int beyond float range (10**400) is not."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def check_interval(value, name, interval, what=None):
    """``value`` if the scikit-learn constraint ``interval`` admits it, else an error.

    The one checker of integer and real arguments outside the estimators'
    ``_parameter_constraints``: the same ``Interval`` objects, with their
    bounds, plus finiteness (an ``Interval`` without an upper bound admits
    inf) and no booleans.

    Parameters
    ----------
    value : object
        The argument.
    name : str
        Its name, for the message.
    interval : sklearn.utils._param_validation.Interval
        The admitted values, e.g. ``Integers(1, None, closed="left")``.
    what : str or None, default=None
        How the message states the constraint (default: the interval's own words).

    Returns
    -------
    value : int or float
        As a Python int for an integer interval, else as a float.

    Raises
    ------
    TypeError
        If ``value`` is a bool or not of the interval's type.
    ValueError
        If it lies outside the interval or is not finite.

    Examples
    --------
    >>> from skxor._utils._validation import Integers, check_interval
    >>> check_interval(3, "n", Integers(1, None, closed="left"))
    3
    >>> check_interval(0, "n", Integers(1, None, closed="left"), "an integer >= 1")
    Traceback (most recent call last):
    ...
    ValueError: n must be an integer >= 1; got 0.
    """
    what = str(interval) if what is None else what
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, interval.type):
        raise TypeError(f"{name} must be {what}; got {value!r}.")
    if not (_is_finite(value) and interval.is_satisfied_by(value)):
        raise ValueError(f"{name} must be {what}; got {value!r}.")
    return int(value) if interval.type is Integral else float(value)


def check_positive_finite(value, name):
    """A positive finite real, else ValueError/TypeError naming ``name``."""
    return check_interval(
        value, name, Interval(Real, 0, None, closed="neither"), "a positive finite number"
    )


def check_finite_params(estimator, names):
    """Refuse inf or NaN in the float parameters ``names`` (None is let through).

    scikit-learn's ``Interval`` constraints without an upper bound admit inf,
    and ``[Real, None]`` admits NaN; this is the check that follows them.
    """
    for name in names:
        value = getattr(estimator, name)
        if value is None or isinstance(value, str) or not isinstance(value, Real):
            continue  # strings (e.g. "normalized") and types are the constraints' job
        if not _is_finite(value):
            what = "a finite threshold or None" if name == "binarize" else "finite"
            raise ValueError(f"{name} must be {what} (within float range); got {value!r}.")


def real_parameters(estimator):
    """Names of the parameters whose constraints admit a real number.

    Every such parameter must be finite: the list is read from
    ``_parameter_constraints`` so that a new float parameter cannot be left
    out of :func:`check_finite_params`.
    """
    names = []
    for name, constraints in getattr(estimator, "_parameter_constraints", {}).items():
        if any(c is Real or (isinstance(c, Interval) and c.type is Real) for c in constraints):
            names.append(name)
    return names


def check_head_split(d_model, n_heads):
    """Refuse a model width that the heads cannot split evenly (ValueError)."""
    if d_model % n_heads:
        raise ValueError(
            f"d_model={d_model} must be divisible by n_heads={n_heads} "
            "(each head gets d_model / n_heads dimensions)."
        )


@functools.lru_cache(maxsize=None)
def _at_least(minimum):
    # Built once per minimum: making an Interval checks its own arguments,
    # which was most of a small call's check.
    return Integers(minimum, None, closed="left")


def check_count(value, name, minimum=1):
    """An integer >= minimum (not a bool), else ValueError/TypeError naming ``name``."""
    if type(value) is int and value >= minimum:  # the common case, without ABC checks
        return value
    return check_interval(value, name, _at_least(minimum), f"an integer >= {minimum}")


def validate_binary_data(estimator, X="no_validation", y="no_validation", **kwargs):
    """``sklearn.utils.validation.validate_data`` with a clear message for empty X.

    scikit-learn reports a DataFrame or list with no columns as "at least one
    array or dtype is required"; this names the problem instead.
    """
    # Only objects that know their shape (arrays, DataFrames); anything else,
    # sparse matrices included, goes to scikit-learn as is.
    shape = None if hasattr(X, "tocsr") else getattr(X, "shape", None)
    if isinstance(shape, tuple) and len(shape) == 2 and 0 in shape:
        raise ValueError(
            f"Found array with {shape[0]} sample(s) and {shape[1]} feature(s) "
            f"(shape={shape}) while a minimum of 1 is required by "
            f"{type(estimator).__name__}."
        )
    return validate_data(estimator, X, y, **kwargs)


#: Types whose values cannot change once checked (see validate_params_once).
_PLAIN = frozenset({int, float, str, bool, type(None)})
#: At most this many remembered values per function.
_PASSED_MAX = 4096


def validate_params_once(parameter_constraints, *, prefer_skip_nested_validation=True):
    """scikit-learn's ``validate_params``, at a few microseconds per call.

    The same constraints and the same errors (``InvalidParameterError``
    naming the parameter and the function), so the function body need not
    check its arguments again. scikit-learn's wrapper binds the signature
    and builds every constraint on each call (0.06 ms, as much as a
    profile of a 10-bit truth table); here the constraints are built once,
    only the arguments given are checked (a default satisfies its
    constraint: a test checks it), a value of a plain immutable type (int,
    float, str, bool, None) that passed once is not checked again, and a value that fails, or a call the
    quick check cannot map to the signature, goes through scikit-learn's
    wrapper, which raises its usual error. ``skip_parameter_validation``
    (scikit-learn's config) is honoured.

    Parameters
    ----------
    parameter_constraints : dict
        As for ``validate_params`` (``"no_validation"`` skips a parameter).
    prefer_skip_nested_validation : bool, default=True
        Passed to scikit-learn's wrapper on the error path.

    Returns
    -------
    decorator : callable

    Examples
    --------
    >>> from numbers import Integral
    >>> from skxor._utils._sklearn_compat import Interval
    >>> from skxor._utils._validation import validate_params_once
    >>> @validate_params_once({"k": [Interval(Integral, 1, None, closed="left")]})
    ... def twice(k=1):
    ...     return 2 * k
    >>> twice(k=3)
    6
    >>> twice(k=0)
    Traceback (most recent call last):
    ...
    sklearn.utils._param_validation.InvalidParameterError: The 'k' parameter of twice must be an int in the range [1, inf). Got 0 instead.
    """
    def decorator(func):
        checked = validate_params(
            parameter_constraints, prefer_skip_nested_validation=prefer_skip_nested_validation
        )(func)
        parameters = inspect.signature(func).parameters.values()
        positional = [p.name for p in parameters
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        constraints = {name: [make_constraint(c) for c in options]
                       for name, options in parameter_constraints.items()
                       if options != "no_validation"}

        # (name, type, value) of plain immutable values that passed: a repeated
        # call (n_bits=10 again) skips the constraints (5 of a 31 us profile).
        passed = set()

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if get_config()["skip_parameter_validation"]:
                return func(*args, **kwargs)
            if len(args) > len(positional):
                return checked(*args, **kwargs)  # its TypeError
            for name, value in itertools.chain(zip(positional, args), kwargs.items()):
                options = constraints.get(name)
                if options is None:
                    continue
                key = (name, type(value), value) if type(value) in _PLAIN else None
                if key is not None and key in passed:
                    continue
                if not any(c.is_satisfied_by(value) for c in options):
                    return checked(*args, **kwargs)  # raises the error that names it
                if key is not None and len(passed) < _PASSED_MAX:
                    passed.add(key)
            return func(*args, **kwargs)

        wrapper._skl_parameter_constraints = parameter_constraints
        return wrapper

    return decorator
