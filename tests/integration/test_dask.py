"""Scale-out: the same results on a dask.distributed cluster on 127.0.0.1."""

import numpy as np
import pytest
from joblib import parallel_config
from sklearn.model_selection import GridSearchCV

from skxor import (
    BooleanTransformerClassifier,
    FFNNParityBaseline,
    SensitivityProfiler,
    SparseXORTransformer,
)
from skxor.datasets import make_sparse_parity
from skxor.papers import one_step
from skxor.papers.han_ghoshdastidar.one_step import TIME_COLUMNS

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None,
        processes=True,
    ) as cluster, distributed.Client(cluster) as client:
        yield cluster, client


def _search():
    return GridSearchCV(
        SparseXORTransformer(random_state=0),
        {"m": [4, 16], "attention": ["softmax", "erf"]},
        cv=3,
        n_jobs=-1,
    )


def test_grid_search_on_dask_matches_the_local_run(cluster):
    X, y = make_sparse_parity(9000, 30, random_state=0)
    local = _search().fit(X, y)
    with parallel_config(backend="dask"):
        remote = _search().fit(X, y)
    np.testing.assert_array_equal(
        remote.cv_results_["mean_test_score"], local.cv_results_["mean_test_score"]
    )
    assert remote.best_params_ == local.best_params_
    np.testing.assert_array_equal(remote.predict(X[:200]), local.predict(X[:200]))


def test_study_on_a_scheduler_address_matches_the_local_run(cluster):
    address = cluster[0].scheduler_address
    assert address.startswith("tcp://127.0.0.1:")
    params = dict(d=[100], m=[8], seeds=3, n_test=500, step_length=100.0, n_steps=1)
    # Cell times differ from run to run; every result column must agree.
    local = one_step(**params).drop(columns=list(TIME_COLUMNS))
    remote = one_step(scheduler=address, **params).drop(columns=list(TIME_COLUMNS))
    assert remote.equals(local)


@pytest.mark.parametrize(
    "estimator, grid",
    [
        (FFNNParityBaseline(width=8, max_iter=3, random_state=1), {"width": [4, 8]}),
        (
            BooleanTransformerClassifier(d_model=8, n_layers=1, n_heads=2, max_iter=3,
                                         batch_size=64, random_state=1),
            {"layer_norm_eps": [0.0, 1e-5]},
        ),
        (SensitivityProfiler(SparseXORTransformer(m=8, random_state=1), method="sampled",
                             n_samples=100, random_state=1), {"n_samples": [50, 100]}),
    ],
    ids=lambda p: type(p).__name__ if not isinstance(p, dict) else "",
)
def test_every_estimator_is_deterministic_on_dask(cluster, estimator, grid):
    X, y = make_sparse_parity(600, 8, support=[2, 6], random_state=0)
    local = GridSearchCV(estimator, grid, cv=2, n_jobs=-1).fit(X, y)
    with parallel_config(backend="dask"):
        remote = GridSearchCV(estimator, grid, cv=2, n_jobs=-1).fit(X, y)
    np.testing.assert_array_equal(
        remote.cv_results_["mean_test_score"], local.cv_results_["mean_test_score"]
    )
    np.testing.assert_array_equal(remote.predict(X), local.predict(X))


def test_exhaustive_profile_on_dask_workers_matches_the_local_run(cluster, monkeypatch):
    # Issue 36.3: slabs of the bit-packed table (blocks of high bits) on the
    # cluster's 2 workers; 16 slabs of 2^8 strings at N = 12.
    from skxor.nn import BooleanTransformer
    from skxor.sensitivity import sensitivity_profile

    monkeypatch.setattr("skxor.sensitivity._packed._SLAB_BITS", 8)
    model = BooleanTransformer(12, d_model=16, n_layers=1, readout="eos", init="normal",
                               positional="sinusoidal", layer_norm_eps=0.0, seed=9)
    local = sensitivity_profile(model, 12, method="exhaustive")
    with parallel_config(backend="dask"):
        remote = sensitivity_profile(model, 12, method="exhaustive", n_jobs=-1)
    np.testing.assert_array_equal(remote.counts, local.counts)
    np.testing.assert_array_equal(remote.flip_counts, local.flip_counts)
    assert 0 < remote.counts[0] < 2**12  # a non-constant network
