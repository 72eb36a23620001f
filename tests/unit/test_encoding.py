"""The one encoding rule (skxor/_utils/_encoding.py), pinned at every entry point.

Bits ``b`` and spins ``1 - 2 b``. The values decide: a 0 means bits, a -1
spins; an array with neither (all ones) is read in the encoding its context
fixed (the one seen in ``fit``, or a stated one) and otherwise as bits. All
zeros are bits. One row or one column is read by its values like any array.
"""

import numpy as np
import pytest
import sklearn.utils.validation as sk_validation
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from skxor import (
    BooleanTransformerClassifier,
    FFNNParityBaseline,
    KParityTransformer,
    SensitivityProfiler,
    SparseXORTransformer,
)
from skxor._utils import _encoding as E
from skxor._utils._evaluate import ModelEvaluator
from skxor.boolean import First, Parity, all_strings, encoded_strings_to_bits, truth_table
from skxor.datasets import make_sparse_parity
from skxor.estimators import _base
from skxor.sensitivity import _profiler


def _estimators(n_heads=2):
    """One small, fast instance of every estimator."""
    return [
        SparseXORTransformer(m=4, n_heads=n_heads, random_state=0),
        FFNNParityBaseline(width=2, max_iter=2, random_state=0),
        KParityTransformer(n_heads=n_heads, max_iter=2, random_state=0),
        BooleanTransformerClassifier(d_model=4, n_layers=1, n_heads=1, max_iter=1,
                                     random_state=0),
    ]


ESTIMATOR_IDS = ["sparse_xor", "ffnn", "k_parity", "boolean_transformer"]

#: Ambiguous and edge inputs, with the bits the one rule reads (no context).
CASES = {
    "all_ones": (np.ones((4, 3), dtype=np.int64), np.ones((4, 3), dtype=np.uint8)),
    "all_zeros": (np.zeros((4, 3)), np.zeros((4, 3), dtype=np.uint8)),
    "one_column_spins": (np.array([[1], [-1], [1], [-1]]), np.array([[0], [1], [0], [1]])),
    "one_column_ones": (np.ones((4, 1)), np.ones((4, 1), dtype=np.uint8)),
    "one_row_spins": (np.array([[1, -1, 1]]), np.array([[0, 1, 0]])),
    "one_row_ones": (np.array([[1, 1, 1]]), np.array([[1, 1, 1]])),
}
RULE = {name: "pm1" if (X == -1).any() else "01" for name, (X, _) in CASES.items()}


# -- the module itself -----------------------------------------------------------


@pytest.mark.parametrize("name", CASES)
def test_detection_follows_the_rule(name):
    X, bits = CASES[name]
    assert E.detect_encoding(X) == RULE[name]
    assert np.array_equal(E.check_strings(X), bits)
    assert np.array_equal(E.to_bits(X, RULE[name]), bits)
    # With a context, an array with neither 0 nor -1 is read in it.
    if not ((X == 0).any() or (X == -1).any()):
        assert E.detect_encoding(X, "pm1") == "pm1"
        assert np.array_equal(E.check_strings(X, encoding="pm1"), 1 - bits)


_bit_arrays = arrays(
    np.uint8,
    st.tuples(st.integers(1, 6), st.integers(1, 6)),
    elements=st.integers(0, 1),
)


@settings(max_examples=200, deadline=None)
@given(_bit_arrays, st.sampled_from([np.int8, np.int64, np.float32, np.float64]))
def test_round_trip_and_detection(bits, dtype):
    spins = E.to_spins(bits, dtype=dtype)
    assert spins.dtype == dtype and set(np.unique(spins)) <= {-1, 1}
    assert np.array_equal(E.to_bits(spins, "pm1"), bits)
    assert np.array_equal(E.to_bits(bits.astype(dtype), "01"), bits)
    assert np.array_equal(E.to_spins(bits).numpy(), spins.astype(np.float32))
    # Detection: the stated encoding comes back, except that an array of
    # only ones (bits all 1, or spins all +1) is bits without a context.
    assert E.detect_encoding(bits.astype(dtype)) == "01"
    assert E.detect_encoding(spins) == ("pm1" if bits.any() else "01")
    assert E.detect_encoding(spins, "pm1") == "pm1"
    assert E.detect_encoding(bits.astype(dtype), "01") == "01"
    assert np.array_equal(E.check_strings(spins, encoding="pm1"), bits)
    assert np.array_equal(E.check_strings(spins), bits if bits.any() else 1 - bits)


# -- estimators -------------------------------------------------------------------


def _labels(n_rows):
    return np.arange(n_rows) % 2


@pytest.mark.parametrize("name", ["all_ones", "all_zeros", "one_column_spins", "one_column_ones"])
@pytest.mark.parametrize("estimator", _estimators(n_heads=1), ids=ESTIMATOR_IDS)
def test_estimator_fit_reads_the_rule(estimator, name):
    X, _ = CASES[name]
    est = estimator.fit(X, _labels(X.shape[0]))
    assert est.encoding_ == RULE[name]


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("estimator", _estimators(n_heads=1), ids=ESTIMATOR_IDS)
def test_estimator_predict_follows_fit(estimator, name):
    # Two fits on the same strings, as spins and as bits, give the same model;
    # an ambiguous X in predict is read in each fit's own encoding.
    X, bits = CASES[name]
    d = X.shape[1]
    train_bits = all_strings(d)
    labels = _labels(train_bits.shape[0])
    from sklearn.base import clone

    on_spins = clone(estimator).fit(1 - 2 * train_bits, labels)
    on_bits = clone(estimator).fit(train_bits, labels)
    assert (on_spins.encoding_, on_bits.encoding_) == ("pm1", "01")
    rule = RULE[name]
    for est, context in ((on_spins, "pm1"), (on_bits, "01")):
        if rule != context and ((X == 0).any() or (X == -1).any()):
            with pytest.raises(ValueError, match="fitted on"):
                est.predict(X)
            continue
        read = E.to_bits(X, context)  # the context decides an all-ones X
        expected = est.decision_function(read if context == "01" else E.to_spins(read, dtype=np.int8))
        np.testing.assert_array_equal(est.decision_function(X), expected)


# -- the profiler, the evaluators, the Boolean functions, the data sets -----------


@pytest.mark.parametrize("name", ["all_ones", "all_zeros", "one_column_spins", "one_column_ones"])
def test_profiler_fit_reads_the_rule(name):
    X, _ = CASES[name]
    est = FFNNParityBaseline(width=2, max_iter=2, random_state=0)
    prof = SensitivityProfiler(est).fit(X, _labels(X.shape[0]))
    assert prof.encoding_ == RULE[name] == prof.estimator_.encoding_


@pytest.mark.parametrize("name", CASES)
def test_profiler_transform_follows_fit(name):
    X, bits = CASES[name]
    d = X.shape[1]
    train = all_strings(d)
    prof = SensitivityProfiler(FFNNParityBaseline(width=2, max_iter=2, random_state=0))
    prof.fit(1 - 2 * train, Parity(d)(train))
    if RULE[name] == "01" and (X == 0).any():
        with pytest.raises(ValueError, match="fitted on"):
            prof.transform(X)
        return
    # Fitted on spins: an all-ones X is the string of bits 0.
    expected = prof.transform(E.to_spins(E.to_bits(X, "pm1"), dtype=np.int8))
    np.testing.assert_array_equal(prof.transform(X), expected)
    np.testing.assert_array_equal(prof.predict(X), prof.predict(E.to_spins(E.to_bits(X, "pm1"), dtype=np.int8)))


@pytest.mark.parametrize("name", ["all_ones", "all_zeros", "one_column_spins"])
def test_evaluators_present_strings_in_the_encoding_read_in_fit(name):
    X, _ = CASES[name]
    est = FFNNParityBaseline(width=2, max_iter=2, random_state=0).fit(X, _labels(X.shape[0]))
    d = X.shape[1]
    evaluator = ModelEvaluator(est, d)
    assert evaluator.input_encoding == RULE[name]
    strings = all_strings(d)
    shown = strings if RULE[name] == "01" else 1 - 2 * strings
    expected = (est.predict(shown) == est.classes_[1]).astype(np.uint8)
    np.testing.assert_array_equal(truth_table(est, d), expected)


@pytest.mark.parametrize("name", CASES)
def test_boolean_functions_read_the_rule(name):
    X, bits = CASES[name]
    f = First(X.shape[1])
    np.testing.assert_array_equal(f(X), bits[:, 0])
    if RULE[name] == "01":
        np.testing.assert_array_equal(encoded_strings_to_bits(X, "01"), bits)


@pytest.mark.parametrize("encoding", ["01", "pm1"])
def test_datasets_state_their_encoding(encoding):
    # Seeds 2 and 9 draw one string of all bits 1 and of all bits 0.
    for seed, bit in ((2, 1), (9, 0)):
        X, _ = make_sparse_parity(1, 3, encoding=encoding, random_state=seed)
        assert E.detect_encoding(X, encoding) == encoding
        np.testing.assert_array_equal(E.to_bits(X, encoding), np.full((1, 3), bit))
        # Without the stated encoding the rule reads an all-ones draw as bits.
        if (X == 1).all():
            assert E.detect_encoding(X) == "01"


# -- validate once ---------------------------------------------------------------


def _count_validations(monkeypatch):
    """Count X's array validations (check_array on X) and encoding reads."""
    counts = {"check_array": 0, "detect_encoding": 0}
    real_check, real_detect = sk_validation.check_array, E.detect_encoding

    def check_array(array, *args, **kwargs):
        if kwargs.get("input_name") == "X":
            counts["check_array"] += 1
        return real_check(array, *args, **kwargs)

    def detect_encoding(*args, **kwargs):
        counts["detect_encoding"] += 1
        return real_detect(*args, **kwargs)

    monkeypatch.setattr(sk_validation, "check_array", check_array)
    for module in (_base, _profiler):
        monkeypatch.setattr(module, "detect_encoding", detect_encoding)
    return counts


@pytest.mark.parametrize("method, incremental", [
    ("exhaustive", True), ("data", True), ("data", False), ("sampled", True),
])
@pytest.mark.parametrize("make", [
    lambda: SparseXORTransformer(m=8, random_state=0),
    lambda: FFNNParityBaseline(width=4, max_iter=2, random_state=0),
], ids=["sparse_xor", "ffnn"])
def test_profiler_fit_validates_X_once(monkeypatch, make, method, incremental):
    X, y = make_sparse_parity(600, 8, random_state=0)
    counts = _count_validations(monkeypatch)
    prof = SensitivityProfiler(make(), method=method, n_samples=50, incremental=incremental,
                               random_state=0).fit(X, y)
    assert counts == {"check_array": 1, "detect_encoding": 1}
    # The inner estimator was still fitted and checks X itself when called.
    assert prof.estimator_.n_features_in_ == 8 and prof.estimator_.encoding_ == "pm1"
    prof.estimator_.predict(X[:5])
    assert counts == {"check_array": 2, "detect_encoding": 2}


def test_checked_fit_is_the_fit(monkeypatch):
    X, y = make_sparse_parity(600, 8, random_state=0)
    for est in _estimators():
        a = est.fit(X, y).decision_function(X)
        b = est._fit_checked(np.asarray(X), y, "pm1").decision_function(X)
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(est._decision_checked(X), b)
    with pytest.raises(ValueError, match="requires y"):
        SparseXORTransformer()._fit_checked(X, None, "pm1")
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        SparseXORTransformer()._fit_checked(X, y[:5], "pm1")


# -- the converters and checks, each form and message (gaps mutation testing found) ----

_BITS = np.array([[0, 1, 1], [1, 0, 0]])
_FORMS = {  # encoding -> (its values of _BITS, binarize)
    "01": (_BITS, None),
    "pm1": (1 - 2 * _BITS, None),
    # 0.5 sits on the threshold: a value above it is bit 1, the threshold itself bit 0.
    "binarized": (np.where(_BITS == 1, 0.9, 0.5), 0.5),
}


@pytest.mark.parametrize("encoding", list(_FORMS))
@pytest.mark.parametrize("as_tensor, dtype", [
    (False, None), (False, np.int8), (False, np.float64), (False, torch.float64),
    # a numpy dtype asks for an ndarray: tensors (already on their device) are not given one
    (True, None), (True, torch.float64),
], ids=["ndarray", "ndarray-np.int8", "ndarray-np.float64", "ndarray-torch.float64",
        "tensor", "tensor-torch.float64"])
def test_to_spins_is_one_minus_two_bits_in_every_form(encoding, as_tensor, dtype):
    values, binarize = _FORMS[encoding]
    X = torch.tensor(values, dtype=torch.float64) if as_tensor else np.asfortranarray(values)
    spins = E.to_spins(X, encoding, binarize, dtype=dtype)
    expected = 1 - 2 * _BITS
    if dtype is not None and not isinstance(dtype, torch.dtype):
        assert isinstance(spins, np.ndarray) and spins.dtype == dtype
        assert spins.flags.c_contiguous  # a Fortran-ordered X too
        np.testing.assert_array_equal(spins, expected)
        return
    assert isinstance(spins, torch.Tensor) and spins.device.type == "cpu"
    # None keeps a tensor's dtype and makes float32 of an ndarray.
    assert spins.dtype == (dtype or (torch.float64 if as_tensor else torch.float32))
    np.testing.assert_array_equal(spins.numpy(), expected)


@pytest.mark.parametrize("encoding", list(_FORMS))
def test_to_spins_writes_into_out(encoding):
    values, binarize = _FORMS[encoding]
    out = torch.empty(_BITS.shape, dtype=torch.float64)
    assert E.to_spins(values, encoding, binarize, out=out) is out
    np.testing.assert_array_equal(out.numpy(), 1 - 2 * _BITS)


def test_to_spins_keeps_a_tensors_device_unless_told():
    on_meta = torch.zeros(2, 3, device="meta")
    assert E.to_spins(on_meta).device.type == "meta"  # not copied to the CPU
    assert E.to_spins(torch.zeros(2, 3), device="meta").device.type == "meta"
    int_tensor = torch.zeros(2, 3, dtype=torch.int8)
    assert E.to_spins(int_tensor, dtype=torch.float64).dtype == torch.float64


def test_to_bits_reads_the_threshold_itself_as_bit_0():
    np.testing.assert_array_equal(E.to_bits(np.array([0.4, 0.5, 0.6]), "binarized", 0.5),
                                  [0, 0, 1])


@pytest.mark.parametrize("X", [
    torch.tensor([[0.0, 1.0]], requires_grad=True),  # numpy() alone would refuse it
    torch.tensor([[1, -1]]),
], ids=["float tensor with grad", "int spins"])
def test_check_strings_takes_tensors(X):
    np.testing.assert_array_equal(E.check_strings(X), [[0, 1]])


def test_check_strings_returns_uint8_bits_of_bools():
    bits = E.check_strings(np.array([[True, False]]))
    assert bits.dtype == np.uint8 and bits.tolist() == [[1, 0]]


@pytest.mark.parametrize("call, error, message", [
    (lambda: E.check_strings([[0, 2]]), ValueError,
     "X must be binary, either 0/1 bits or -1/+1 spins, but it contains the values [2]."),
    (lambda: E.check_strings([[0, -1]], name="strings"), ValueError,
     "strings must be binary, either 0/1 bits or -1/+1 spins (not mixed), but it contains "
     "the values [-1, 0]."),
    (lambda: E.check_strings([[0, 1, 2, -1]], encoding="01"), ValueError,
     "X must be binary, either 0/1 bits or -1/+1 spins (not mixed); read as 0/1 bits it "
     "contains the values [-1, 2]."),
    (lambda: E.check_strings([[0, 1]], encoding="bits"), ValueError,
     "encoding must be 'auto', '01' or 'pm1'; got 'bits'."),
    (lambda: E.check_strings(np.zeros((2, 2, 2)), name="strings"), ValueError,
     "strings must be one string (1-D) or a 2-D array of strings; got an array of shape "
     "(2, 2, 2)."),
    (lambda: E.check_strings([[0, 1, 1]], n_bits=2), ValueError,
     "X holds strings of length 3, but the function takes n_bits=2 bits."),
    (lambda: E.check_strings(np.array([["a", "b"]])), TypeError,
     "X must be a numeric or bool array; got dtype <U1."),
], ids=["values", "mixed, named", "explicit encoding", "encoding", "ndim", "length", "dtype"])
def test_check_strings_errors_say_exactly_what_is_wrong(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message
