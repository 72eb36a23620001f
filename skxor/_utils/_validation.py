"""Input conventions shared by every estimator (see the user guide).

Bits ``b in {0, 1}`` and spins ``x = 1 - 2 b in {-1, +1}``; the library works
in spins internally. X may come in either encoding (any numeric dtype, bool
too); anything else is rejected with a ``ValueError`` naming the values, unless
a ``binarize`` threshold maps real values to bits first.
"""

import math
from contextlib import contextmanager
from numbers import Integral, Real

import numpy as np
import torch
from sklearn.utils import gen_batches
from sklearn.utils._param_validation import Interval
from sklearn.utils.multiclass import check_classification_targets, type_of_target

#: Rows handled at once when checking or converting X: bounds temporaries.
_CHECK_CHUNK_ELEMENTS = 1 << 22

ENCODINGS = ("01", "pm1", "binarized")


def row_batches(n_rows, n_cols, max_elements=_CHECK_CHUNK_ELEMENTS):
    """Row slices covering ``n_rows`` with at most ``max_elements`` per block."""
    return gen_batches(n_rows, max(1, max_elements // max(1, n_cols)))


def _offending_values(X, allowed, limit=5):
    """Up to ``limit`` distinct values of X that are not in ``allowed``."""
    found = []
    for rows in row_batches(X.shape[0], X.shape[1]):
        block = np.asarray(X[rows])
        bad = block[~np.isin(block, allowed)]
        if bad.size:
            found.extend(np.unique(bad)[:limit].tolist())
            found = sorted(set(found))[:limit]
            if len(found) >= limit:
                break
    return found


def _value_flags(X):
    """Whether X holds 0, -1, and values outside {-1, 0, 1}."""
    if X.size == 0:
        return False, False, False
    if np.issubdtype(X.dtype, np.integer):
        # Integers in [-1, 1] are exactly {-1, 0, 1}: two fast reductions
        # replace three elementwise comparisons (this is on fit's hot path).
        lo, hi = X.min(), X.max()
        if lo >= -1 and hi <= 1:
            has_minus = bool(lo == -1)
            has_zero = bool(lo == 0) or (has_minus and np.count_nonzero(X) < X.size)
            return has_zero, has_minus, False
        return bool((X == 0).any()), bool((X == -1).any()), True
    has_zero = has_minus = has_other = False
    for rows in row_batches(X.shape[0], X.shape[1]):
        block = X[rows]
        is_zero = block == 0
        is_minus = block == -1
        has_zero |= bool(is_zero.any())
        has_minus |= bool(is_minus.any())
        has_other |= not bool((is_zero | is_minus | (block == 1)).all())
    return has_zero, has_minus, has_other


def detect_encoding(X, expected=None, *, name="X"):
    """Return ``"01"`` or ``"pm1"`` for a validated 2-D numeric array.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Finite numeric (or bool) array.
    expected : {"01", "pm1"} or None
        The encoding seen in ``fit``; when given, X must use it.
    name : str
        How X is called in error messages.

    Returns
    -------
    encoding : {"01", "pm1"}
    """
    if X.dtype == bool:
        encoding = "01"
    else:
        has_zero, has_minus, has_other = _value_flags(X)
        if has_other or (has_zero and has_minus):
            if has_zero and has_minus:  # 0/1 bits mixed with -1 spins: list all
                bad = _offending_values(X, [])
            else:
                bad = _offending_values(X, [0, 1] if has_zero else [-1, 1])
            raise ValueError(
                f"{name} must be binary, either 0/1 bits or -1/+1 spins, but it "
                f"contains the values {bad}. Encode it as 0/1 or -1/+1, or set "
                "binarize=<threshold> to map real values to bits "
                "(value > threshold is bit 1)."
            )
        if has_zero:
            encoding = "01"
        elif has_minus:
            encoding = "pm1"
        else:
            # Only the value 1: both readings are possible; follow fit's choice.
            encoding = expected if expected in ("01", "pm1") else "pm1"
    if expected in ("01", "pm1") and encoding != expected:
        seen = {"01": "0/1 bits", "pm1": "-1/+1 spins"}
        raise ValueError(
            f"{name} uses {seen[encoding]} but the estimator was fitted on "
            f"{seen[expected]}; use the same encoding in fit and predict."
        )
    return encoding


def binary_encoding(X, binarize, expected=None, *, name="X"):
    """Encoding of X under the estimator's ``binarize`` setting."""
    if binarize is not None:
        return "binarized"
    return detect_encoding(X, expected, name=name)


def to_spins(X, encoding, binarize=None, *, dtype=torch.float32, device="cpu", out=None):
    """Convert a block of X to a spins tensor (+1 for bit 0, -1 for bit 1).

    Parameters
    ----------
    X : ndarray of shape (n_rows, n_features)
        Already validated block.
    encoding : {"01", "pm1", "binarized"}
    binarize : float or None
        Threshold used when ``encoding == "binarized"``.
    dtype, device
        Of the returned tensor.
    out : Tensor of shape (n_rows, n_features) or None, default=None
        Written in place and returned when given (its dtype and device are
        used): a loop over chunks reuses one buffer instead of allocating,
        and page-faulting, a fresh one per chunk.

    Returns
    -------
    spins : torch.Tensor of shape (n_rows, n_features)
    """
    if encoding == "binarized":
        bits = torch.from_numpy(np.ascontiguousarray(X > binarize))
        if out is not None:
            return out.copy_(bits).mul_(-2).add_(1)
        return (1 - 2 * bits.to(device=device, dtype=dtype))
    block = torch.from_numpy(np.ascontiguousarray(X))
    if out is not None:
        out.copy_(block)
        return out.mul_(-2).add_(1) if encoding == "01" else out
    block = block.to(device=device, dtype=dtype)
    if encoding == "01":
        return 1 - 2 * block
    return block


def spins_to_encoding(spins, encoding):
    """Map a spins array back to the user's encoding (``binarized`` gives bits)."""
    spins = np.asarray(spins)
    if encoding == "pm1":
        return spins.astype(np.int8)
    return ((1 - spins) // 2).astype(np.int8)


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


def check_positive_finite(value, name):
    """A positive finite real, else ValueError/TypeError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{name} must be a positive finite number; got {value!r}.")
    if not _is_finite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive finite number; got {value!r}.")
    return float(value)


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


def check_count(value, name, minimum=1):
    """An integer >= minimum, else ValueError/TypeError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{name} must be an integer >= {minimum}; got {value!r}.")
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}.")
    return int(value)


def validate_binary_data(estimator, X="no_validation", y="no_validation", **kwargs):
    """``sklearn.utils.validation.validate_data`` with a clear message for empty X.

    scikit-learn reports a DataFrame or list with no columns as "at least one
    array or dtype is required"; this names the problem instead.
    """
    from sklearn.utils.validation import validate_data

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
