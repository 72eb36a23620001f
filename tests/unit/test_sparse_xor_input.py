"""Bad input to SparseXORTransformer: a clear ValueError/TypeError, never a torch traceback."""

import numpy as np
import pytest
import scipy.sparse as sp

from skxor import SparseXORTransformer
from skxor.datasets import make_sparse_parity

X, y = make_sparse_parity(64, 6, random_state=0)


def fitted(**params):
    return SparseXORTransformer(m=4, random_state=0, **params).fit(X, y)


@pytest.mark.parametrize(
    "X_bad, match",
    [
        (np.where(X == 1, 2, X), r"contains the values \[2\]"),
        (X * 0.5, r"-0.5, 0.5"),
        (np.where(X == 1, 0, X), r"\[-1, 0\]"),
        (np.where(np.arange(6) < 3, X, (1 - X) // 2), r"\[-1, 0, 1\]"),
        (np.where(X == 1, np.nan, X), "NaN"),
        (np.where(X == 1, np.inf, X), "infinity"),
        (np.empty((0, 6)), "0 sample"),
        (np.empty((64, 0)), "0 feature"),
    ],
)
def test_fit_rejects_bad_X(X_bad, match):
    with pytest.raises(ValueError, match=match):
        SparseXORTransformer(m=4).fit(X_bad, y)


def test_sparse_X_is_a_type_error():
    with pytest.raises(TypeError, match="dense data is required"):
        SparseXORTransformer(m=4).fit(sp.csr_matrix(X), y)


@pytest.mark.parametrize(
    "y_bad, match",
    [
        (np.ones(64), "only one class"),
        (np.arange(64) % 3, "Only binary classification"),
        (np.linspace(0, 1, 64), "Unknown label type"),
        (y[:-1], "inconsistent numbers of samples"),
    ],
)
def test_fit_rejects_bad_y(y_bad, match):
    with pytest.raises(ValueError, match=match):
        SparseXORTransformer(m=4).fit(X, y_bad)


@pytest.mark.parametrize(
    "params, error, match",
    [
        (dict(m=0), ValueError, "'m' parameter"),
        (dict(m=2.5), ValueError, "'m' parameter"),
        (dict(attention="relu"), ValueError, "'attention' parameter"),
        (dict(init="zeros"), ValueError, "'init' parameter"),
        (dict(learning_rate=0.0), ValueError, "'learning_rate' parameter"),
        (dict(learning_rate=-1.0), ValueError, "'learning_rate' parameter"),
        (dict(learning_rate=np.nan), ValueError, "'learning_rate' parameter"),
        (dict(learning_rate=np.inf), ValueError, "'learning_rate' parameter"),
        (dict(step_length=np.inf), ValueError, "'step_length' parameter"),
        (dict(binarize=np.nan), ValueError, "binarize must be a finite"),
        (dict(max_iter=0), ValueError, "'max_iter' parameter"),
        (dict(batch_size=0), ValueError, "'batch_size' parameter"),
        (dict(dtype="float16"), ValueError, "'dtype' parameter"),
        (dict(device="gpu0"), ValueError, "torch device"),
        (dict(n_heads=7), ValueError, r"n_heads=7 features; got 6 feature\(s\)"),
        (dict(n_heads=4, m=2), ValueError, "m >= 3"),
    ],
)
def test_fit_rejects_bad_parameters(params, error, match):
    params = {"m": 4, **params}
    with pytest.raises(error, match=match):
        SparseXORTransformer(**params).fit(X, y)


def test_missing_cuda_is_a_clear_error(monkeypatch):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(ValueError, match="CUDA is not available"):
        SparseXORTransformer(m=4, device="cuda").fit(X, y)


def test_predict_checks_features_and_encoding():
    clf = fitted()
    with pytest.raises(ValueError, match="X has 5 features"):
        clf.predict(X[:, :5])
    with pytest.raises(ValueError, match="fitted on -1/\\+1 spins"):
        clf.predict((1 - X) // 2)
    clf01 = SparseXORTransformer(m=4, random_state=0).fit((1 - X) // 2, y)
    with pytest.raises(ValueError, match="fitted on 0/1 bits"):
        clf01.predict(X)
    with pytest.raises(ValueError, match="contains the values"):
        clf.predict(X * 3)


def test_unfitted_estimator_raises_not_fitted():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        SparseXORTransformer().predict(X)


def test_overflowing_plain_step_is_reported_not_nan():
    with pytest.raises(ValueError, match="smaller learning_rate"):
        SparseXORTransformer(
            m=4, attention="linear", learning_rate=1e300, random_state=0
        ).fit(X, y)


def test_a_failed_fit_leaves_no_fitted_attributes():
    clf = SparseXORTransformer(m=4, attention="linear", learning_rate=1e300, random_state=0)
    with pytest.raises(ValueError, match="smaller learning_rate"):
        clf.fit(X, y)
    # n_features_in_ is set by scikit-learn's validate_data before training.
    fitted = {k for k in vars(clf) if k.endswith("_") and not k.startswith("_")}
    assert fitted <= {"n_features_in_", "feature_names_in_"}
