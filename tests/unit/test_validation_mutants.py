"""Direct tests of the input validators in ``skxor/_utils/_validation.py`` and
the encoding reader ``skxor/_utils/_encoding.py``.

Each test pins a behaviour that a wrong validator would change: the exact
messages (they name the parameter and what it needs), the accepted and
refused boundary values, the encodings and dtypes returned. They are the
tests the mutation score of this module runs (docs/mutation.rst).
"""

import itertools
from numbers import Integral, Real

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
import torch
from sklearn.base import BaseEstimator
from sklearn.utils import gen_batches
from sklearn.utils._param_validation import Interval

from skxor._utils import _encoding as E
from skxor._utils import _validation as V


def _one_row_batches(monkeypatch):
    # The default block holds 4M elements; one row per block exercises the
    # code that combines blocks.
    monkeypatch.setattr(E, "row_batches", lambda n_rows, n_cols: gen_batches(n_rows, 1))


def test_row_batches_sizes():
    assert list(E.row_batches(10, 3, 7)) == [slice(i, min(i + 2, 10)) for i in range(0, 10, 2)]
    assert list(E.row_batches(5, 0, 4)) == [slice(0, 4), slice(4, 5)]
    assert list(E.row_batches(3, 10, 4)) == [slice(0, 1), slice(1, 2), slice(2, 3)]
    assert list(E.row_batches(5, 1)) == [slice(0, 5)]
    assert len(list(E.row_batches((1 << 22) + 1, 1))) == 2
    assert len(list(E.row_batches(1 << 22, 1))) == 1


def test_offending_values_sorted_distinct_and_limited():
    X = np.array([[7, 0, 6, 1, 5, 4, 3, 2, 2]])
    assert E.offending_values(X, [0, 1]) == [2, 3, 4, 5, 6]
    assert E.offending_values(X, [0, 1], limit=2) == [2, 3]
    assert E.offending_values(np.array([[0, 1], [1, 0]]), [0, 1]) == []


def test_offending_values_across_blocks_stops_at_the_limit(monkeypatch):
    _one_row_batches(monkeypatch)
    X = np.array([[9, 8], [7, 6], [5, 4], [3, 2]])
    # After three rows five values are found; the fourth row is not read.
    assert E.offending_values(X, []) == [4, 5, 6, 7, 8]
    assert E.offending_values(np.array([[3, 3], [2, 3]]), []) == [2, 3]


def _reference_flags(X):
    return (bool((X == 0).any()), bool((X == -1).any()),
            bool((~np.isin(X, [-1, 0, 1])).any()))


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.float32, np.float64])
@pytest.mark.parametrize("one_row_blocks", [False, True])
def test_value_flags_match_the_definition(dtype, one_row_blocks, monkeypatch):
    if one_row_blocks:
        _one_row_batches(monkeypatch)
    for values in itertools.product([-2, -1, 0, 1, 2], repeat=4):
        X = np.array(values, dtype=dtype).reshape(2, 2)
        assert E._value_flags(X) == _reference_flags(X), values
    assert E._value_flags(np.zeros((0, 3), dtype=dtype)) == (False, False, False)
    assert E._value_flags(np.array([[0.5, 1.0]], dtype=np.float64)) == (False, False, True)
    # More rows than columns: every row is read, the last one too.
    for values in ([1, 1, 0], [1, 1, -1], [1, 1, 2]):
        X = np.array(values, dtype=dtype).reshape(3, 1)
        assert E._value_flags(X) == _reference_flags(X), values


def test_detect_encoding_outcomes():
    assert E.detect_encoding(np.array([[True, False]])) == "01"
    assert E.detect_encoding(np.array([[0, 1, 1]])) == "01"
    assert E.detect_encoding(np.array([[-1, 1, 1]])) == "pm1"
    assert E.detect_encoding(np.array([[-1.0, -1.0]])) == "pm1"
    assert E.detect_encoding(np.array([[0.0, 0.0]])) == "01"
    ones = np.ones((2, 2))
    # Neither 0 nor -1: the context's encoding, else bits (the one rule).
    assert E.detect_encoding(ones) == "01"
    assert E.detect_encoding(ones, "01") == "01"
    assert E.detect_encoding(ones, "pm1") == "pm1"
    assert E.detect_encoding(ones, "binarized") == "01"
    assert E.detect_encoding(np.zeros((0, 2))) == "01"


def _message(exc_info):
    return str(exc_info.value)


def test_detect_encoding_messages():
    tail = (" Encode it as 0/1 or -1/+1, or set binarize=<threshold> to map real "
            "values to bits (value > threshold is bit 1).")
    with pytest.raises(ValueError) as err:
        E.detect_encoding(np.array([[0, -1, 1]]), name="X_new")
    assert _message(err) == ("X_new must be binary, either 0/1 bits or -1/+1 spins (not "
                             "mixed), but it contains the values [-1, 0, 1]." + tail)
    with pytest.raises(ValueError) as err:
        E.detect_encoding(np.array([[0, 1, 2]]))
    assert _message(err) == ("X must be binary, either 0/1 bits or -1/+1 spins, but it "
                             "contains the values [2]." + tail)
    with pytest.raises(ValueError) as err:
        E.detect_encoding(np.array([[-1, 1, 3]]))
    assert _message(err).startswith("X must be binary") and "the values [3]." in _message(err)
    with pytest.raises(ValueError) as err:
        E.detect_encoding(np.array([[0.5, 1.0]]))
    assert "the values [0.5]." in _message(err)
    with pytest.raises(ValueError) as err:
        E.detect_encoding(np.array([[0, 1]]), "pm1", name="Xt")
    assert _message(err) == ("Xt uses 0/1 bits but the estimator was fitted on -1/+1 spins; "
                             "use the same encoding in fit and predict.")
    with pytest.raises(ValueError) as err:
        E.detect_encoding(np.array([[True]]), "pm1")
    assert _message(err).startswith("X uses 0/1 bits but")
    with pytest.raises(ValueError) as err:
        E.detect_encoding(np.array([[-1, 1]]), "01")
    assert _message(err).startswith("X uses -1/+1 spins but the estimator was fitted on 0/1 bits")


def test_detect_encoding_with_a_threshold():
    X = np.array([[0.3, 7.5]])
    assert E.detect_encoding(X, binarize=0.0) == "binarized"
    assert E.detect_encoding(X, "01", binarize=0.5) == "binarized"
    assert E.detect_encoding(np.ones((1, 2)), "01", binarize=None) == "01"
    assert E.detect_encoding(np.array([[0, 1]]), binarize=None) == "01"
    with pytest.raises(ValueError, match="^Xq must be binary"):
        E.detect_encoding(X, name="Xq")
    with pytest.raises(ValueError, match="^X must be binary"):
        E.detect_encoding(X, binarize=None)


def test_to_spins_fresh_tensor():
    spins = E.to_spins(np.array([[0.2, 0.7, 0.5]]), "binarized", 0.5)
    assert spins.dtype == torch.float32 and spins.device.type == "cpu"
    assert spins.tolist() == [[1.0, -1.0, 1.0]]
    spins = E.to_spins(np.array([[0, 1]], dtype=np.int8), "01", dtype=torch.float64)
    assert spins.dtype == torch.float64 and spins.tolist() == [[1.0, -1.0]]
    spins = E.to_spins(np.array([[-1, 1]], dtype=np.int64), "pm1")
    assert spins.dtype == torch.float32 and spins.tolist() == [[-1.0, 1.0]]
    spins = E.to_spins(np.array([[True, False]]), "01")
    assert spins.tolist() == [[-1.0, 1.0]]


@pytest.mark.parametrize("encoding, X, expected", [
    ("binarized", np.array([[0.2, 0.7, 0.5]]), [[1.0, -1.0, 1.0]]),
    ("01", np.array([[0.0, 1.0, 1.0]]), [[1.0, -1.0, -1.0]]),
    ("pm1", np.array([[-1.0, 1.0, -1.0]]), [[-1.0, 1.0, -1.0]]),
])
def test_to_spins_into_a_buffer(encoding, X, expected):
    out = torch.full((1, 3), 9.0, dtype=torch.float64)
    got = E.to_spins(X, encoding, 0.5, dtype=torch.float32, out=out)
    assert got is out
    assert out.dtype == torch.float64 and out.tolist() == expected


@pytest.mark.parametrize("encoding, X", [
    ("binarized", np.array([[0.2, 0.7]])),
    ("01", np.array([[0, 1]])),
    ("pm1", np.array([[-1, 1]])),
])
def test_to_spins_goes_to_the_device_asked(encoding, X):
    # The meta device stands for an accelerator: the tensor must land there.
    spins = E.to_spins(X, encoding, 0.5, dtype=torch.float64, device="meta")
    assert spins.device.type == "meta" and spins.dtype == torch.float64
    assert spins.shape == X.shape


def test_check_binary_target():
    classes, y = V.check_binary_target(np.array(["b", "a", "b"]), "Est")
    assert classes.tolist() == ["a", "b"]
    assert y.dtype == np.float64 and y.tolist() == [1.0, -1.0, 1.0]
    with pytest.raises(ValueError) as err:
        V.check_binary_target(np.array([3, 3]), "Est")
    assert _message(err) == "Est needs samples of 2 classes, but the data contains only one class: [3]."
    with pytest.raises(ValueError) as err:
        V.check_binary_target(np.array([0, 1, 2]), "Est")
    assert _message(err) == ("Only binary classification is supported. The type of the target is "
                             "multiclass: Est got 3 classes; pass exactly two labels.")
    with pytest.raises(ValueError, match="Unknown label type"):
        V.check_binary_target(np.array([0.5, 1.5]), "Est")


def test_integers_refuse_booleans():
    c = V.Integers(1, None, closed="left")
    assert c.type is Integral and c.left == 1 and c.right is None and c.closed == "left"
    assert c.is_satisfied_by(1) and c.is_satisfied_by(np.int64(5))
    for val in (True, np.bool_(True), False, 0, 1.0):
        assert not c.is_satisfied_by(val), val
    assert str(c) == "an int (not a bool) in the range [1, inf)"
    bounded = V.Integers(1, 5, closed="both")
    assert bounded.right == 5
    assert bounded.is_satisfied_by(5) and not bounded.is_satisfied_by(6)


class _Box:
    pass


@pytest.mark.parametrize("error", [ValueError, KeyboardInterrupt])
def test_restore_on_error_puts_the_state_back(error):
    box = _Box()
    box.a, box.kept = 1, [1]
    with pytest.raises(error):
        with V.restore_on_error(box):
            box.a = 2
            box.b_ = 3
            del box.kept
            raise error("stop")
    assert box.__dict__ == {"a": 1, "kept": [1]}
    with V.restore_on_error(box):
        box.a = 5
    assert box.__dict__ == {"a": 5, "kept": [1]}


def test_check_device_accepts(monkeypatch):
    cpu = torch.device("cpu")
    assert V.check_device(cpu) is cpu
    assert V.check_device("cpu") == cpu
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: True)
    assert V.check_device("cuda") == torch.device("cuda")
    assert V.check_device("mps") == torch.device("mps")


def test_check_device_refuses(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: False)
    assert V.check_device("cpu") == torch.device("cpu")
    cases = [
        ("nonsense", ValueError,
         "device='nonsense' is not a torch device name such as 'cpu' or 'cuda'."),
        (3, TypeError, "device must be a string such as 'cpu' or a torch.device; got int."),
        (None, TypeError,
         "device must be a string such as 'cpu' or a torch.device; got NoneType."),
        ("meta", ValueError,
         "device='meta' is not supported: skxor's estimators run on 'cpu', 'cuda', 'mps' devices."),
        ("cuda", ValueError,
         "device='cuda' was requested but CUDA is not available on this machine; use "
         "device='cpu'."),
        (torch.device("cuda:1"), ValueError,
         "device=device(type='cuda', index=1) was requested but CUDA is not available on this "
         "machine; use device='cpu'."),
        ("mps", ValueError, "device='mps' was requested but MPS is not available."),
    ]
    for device, error, message in cases:
        with pytest.raises(error) as err:
            V.check_device(device)
        assert _message(err) == message


def test_check_dtype():
    for dtype in (torch.float32, np.float32, "float32"):
        assert V.check_dtype(dtype) is torch.float32
    for dtype in (torch.float64, np.float64, float, "float64"):
        assert V.check_dtype(dtype) is torch.float64
    for dtype in ("float16", np.float16, torch.float16, 3, None):
        with pytest.raises(ValueError) as err:
            V.check_dtype(dtype)
        assert _message(err) == f"dtype must be 'float32' or 'float64'; got {dtype!r}."


def test_is_finite():
    assert V._is_finite(1) and V._is_finite(-2.5) and V._is_finite(10**300)
    for value in (float("inf"), float("-inf"), float("nan"), 10**400, -(10**400)):
        assert not V._is_finite(value)


def test_check_positive_finite():
    assert V.check_positive_finite(2, "lr") == 2.0
    assert type(V.check_positive_finite(2, "lr")) is float
    assert V.check_positive_finite(1e-300, "lr") == 1e-300
    for value in (True, "1", None):
        with pytest.raises(TypeError) as err:
            V.check_positive_finite(value, "lr")
        assert _message(err) == f"lr must be a positive finite number; got {value!r}."
    for value in (0, 0.0, -1, float("inf"), float("nan"), 10**400):
        with pytest.raises(ValueError) as err:
            V.check_positive_finite(value, "lr")
        assert _message(err) == f"lr must be a positive finite number; got {value!r}."


def test_check_finite_params():
    box = _Box()
    box.binarize, box.lr, box.scale, box.mode = None, 0.1, 2, "normalized"
    V.check_finite_params(box, ["binarize", "mode", "lr", "scale"])
    # A value that is not a real number (a type, a list) is the parameter
    # constraints' to refuse: it is let through, not passed to isfinite.
    box.kind, box.items = np.float32, [1.0]
    V.check_finite_params(box, ["kind", "items", "lr"])
    box.lr = float("nan")
    with pytest.raises(ValueError) as err:
        V.check_finite_params(box, ["binarize", "mode", "lr"])
    assert _message(err) == "lr must be finite (within float range); got nan."
    box.lr, box.binarize = 0.1, float("inf")
    with pytest.raises(ValueError) as err:
        V.check_finite_params(box, ["lr", "binarize"])
    assert _message(err) == "binarize must be a finite threshold or None (within float range); got inf."
    box.binarize, box.scale = None, 10**400
    with pytest.raises(ValueError, match=r"^scale must be finite \(within float range\)"):
        V.check_finite_params(box, ["binarize", "scale"])


def test_real_parameters():
    class Est:
        _parameter_constraints = {
            "a": [Real],
            "b": [Interval(Real, 0, None, closed="left")],
            "c": [Interval(Integral, 1, None, closed="left")],
            "d": [str, None],
            "e": [None, Interval(Real, 0, 1, closed="both")],
            "f": [Integral],
        }
    assert V.real_parameters(Est()) == ["a", "b", "e"]
    assert V.real_parameters(_Box()) == []


def test_check_head_split():
    assert V.check_head_split(8, 2) is None
    assert V.check_head_split(6, 6) is None
    with pytest.raises(ValueError) as err:
        V.check_head_split(8, 3)
    assert _message(err) == ("d_model=8 must be divisible by n_heads=3 "
                             "(each head gets d_model / n_heads dimensions).")


def test_check_count():
    assert V.check_count(1, "m") == 1
    assert V.check_count(0, "m", minimum=0) == 0
    got = V.check_count(np.int64(3), "m")
    assert got == 3 and type(got) is int
    for value in (True, 1.0, "2"):
        with pytest.raises(TypeError) as err:
            V.check_count(value, "m")
        assert _message(err) == f"m must be an integer >= 1; got {value!r}."
    with pytest.raises(ValueError) as err:
        V.check_count(0, "m")
    assert _message(err) == "m must be an integer >= 1; got 0."
    with pytest.raises(ValueError) as err:
        V.check_count(1, "n", minimum=2)
    assert _message(err) == "n must be an integer >= 2; got 1."


class _Est(BaseEstimator):
    pass


@pytest.mark.parametrize("X", [np.zeros((0, 3)), np.zeros((2, 0)),
                               pd.DataFrame(index=range(2))])
def test_validate_binary_data_names_an_empty_X(X):
    with pytest.raises(ValueError) as err:
        V.validate_binary_data(_Est(), X, [0, 1][: X.shape[0]] or [0])
    n, p = X.shape
    assert _message(err) == (f"Found array with {n} sample(s) and {p} feature(s) "
                             f"(shape={(n, p)}) while a minimum of 1 is required by _Est.")


def test_validate_binary_data_passes_the_rest_to_scikit_learn():
    est = _Est()
    X = V.validate_binary_data(est, [[0, 1], [1, 0]])
    assert isinstance(X, np.ndarray) and X.shape == (2, 2) and est.n_features_in_ == 2
    X, y = V.validate_binary_data(_Est(), [[0, 1], [1, 0]], [0, 1])
    y_only = V.validate_binary_data(_Est(), y=[1, 0])
    assert isinstance(y_only, np.ndarray) and y_only.tolist() == [1, 0]
    assert X.shape == (2, 2) and y.tolist() == [0, 1]
    # Sparse input is scikit-learn's to refuse (dense data is required),
    # even with no rows; a 1-D X gets scikit-learn's "2D array" message.
    with pytest.raises(TypeError, match="dense data is required"):
        V.validate_binary_data(_Est(), sp.csr_matrix((0, 3)))
    with pytest.raises(ValueError, match="Expected 2D array"):
        V.validate_binary_data(_Est(), np.zeros(0))
    X = V.validate_binary_data(_Est(), [[0, 1]], reset=True, dtype=np.float32)
    assert X.dtype == np.float32
