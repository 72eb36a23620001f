"""Determinism and persistence for every estimator of the library.

The same ``random_state`` gives identical fitted attributes and predictions
across repeated fits and across ``n_jobs`` values (the dask backend is
checked in tests/integration/test_dask.py); pickle and joblib round trips
keep predictions identical; a model whose device is absent predicts on the
CPU.
"""

import pickle
import warnings

import joblib
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV

from skxor import (
    BooleanTransformerClassifier,
    FFNNParityBaseline,
    SensitivityProfiler,
    SparseXORTransformer,
)
from skxor.datasets import make_sparse_parity

FACTORIES = {
    "SparseXORTransformer": (
        lambda: SparseXORTransformer(m=8, random_state=3), {"m": [4, 8]},
    ),
    "SparseXORTransformer(minibatch)": (
        lambda: SparseXORTransformer(m=8, max_iter=3, batch_size=64, step_length=20.0,
                                     random_state=3),
        {"step_length": [10.0, 20.0]},
    ),
    "FFNNParityBaseline": (
        lambda: FFNNParityBaseline(width=8, max_iter=5, random_state=3), {"width": [4, 8]},
    ),
    "BooleanTransformerClassifier": (
        lambda: BooleanTransformerClassifier(d_model=8, n_layers=1, n_heads=2, max_iter=3,
                                             batch_size=64, random_state=3),
        {"layer_norm_eps": [0.0, 1e-5]},
    ),
    "SensitivityProfiler": (
        lambda: SensitivityProfiler(SparseXORTransformer(m=8, random_state=3),
                                    method="sampled", n_samples=200, random_state=3),
        {"n_samples": [100, 200]},
    ),
}


@pytest.fixture(scope="module")
def data():
    return make_sparse_parity(600, 8, support=[1, 5], random_state=0)


def _fitted_state(est):
    state = {}
    for key, value in vars(est).items():
        # history_ holds wall-clock durations; everything else must match.
        if key.endswith("_") and not key.startswith("_") and key != "history_":
            if isinstance(value, (np.ndarray, list, tuple, int, float, str, np.generic)):
                state[key] = value
            elif hasattr(value, "counts"):  # a SensitivityProfile
                state[key] = value.counts
    return state


def _assert_same_state(a, b):
    assert a.keys() == b.keys()
    for key in a:
        np.testing.assert_array_equal(np.asarray(a[key], dtype=object), np.asarray(b[key], dtype=object), err_msg=key)


def _outputs(est, X):
    out = [est.predict(X)]
    for method in ("decision_function", "transform"):
        if hasattr(est, method):
            out.append(getattr(est, method)(X))
    return out


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_repeated_fits_are_identical(name, data):
    X, y = data
    make, _ = FACTORIES[name]
    a, b = make().fit(X, y), make().fit(X, y)
    _assert_same_state(_fitted_state(a), _fitted_state(b))
    for u, v in zip(_outputs(a, X), _outputs(b, X)):
        np.testing.assert_array_equal(u, v)


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_grid_search_is_identical_across_n_jobs(name, data):
    X, y = data
    make, grid = FACTORIES[name]
    runs = [GridSearchCV(make(), grid, cv=2, n_jobs=n_jobs).fit(X, y) for n_jobs in (1, 2)]
    np.testing.assert_array_equal(runs[0].cv_results_["mean_test_score"],
                                  runs[1].cv_results_["mean_test_score"])
    np.testing.assert_array_equal(runs[0].predict(X), runs[1].predict(X))


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_pickle_and_joblib_round_trips(name, data, tmp_path):
    X, y = data
    est = FACTORIES[name][0]().fit(X, y)
    expected = _outputs(est, X)
    joblib.dump(est, tmp_path / "model.joblib")
    for restored in (pickle.loads(pickle.dumps(est)), joblib.load(tmp_path / "model.joblib")):
        for u, v in zip(_outputs(restored, X), expected):
            np.testing.assert_array_equal(u, v)
        assert clone(restored).get_params().keys() == est.get_params().keys()


@pytest.mark.parametrize(
    "name", ["SparseXORTransformer", "FFNNParityBaseline", "BooleanTransformerClassifier"]
)
def test_model_whose_device_is_absent_predicts_on_the_cpu(name, data):
    X, y = data
    est = FACTORIES[name][0]().fit(X, y)
    expected = _outputs(est, X)
    moved = pickle.loads(pickle.dumps(est))
    moved.device = "cuda:63"  # as if fitted on a GPU this machine lacks
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(RuntimeWarning, match="predicting on the CPU"):
            moved.predict(X)
    with pytest.warns(RuntimeWarning, match="predicting on the CPU"):
        for u, v in zip(_outputs(moved, X), expected):
            np.testing.assert_array_equal(u, v)
