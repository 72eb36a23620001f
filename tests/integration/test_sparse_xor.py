"""SparseXORTransformer end to end and with scikit-learn's tools."""

import pickle

import joblib
import numpy as np
import pytest
import torch
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, learning_curve
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer

from skxor import SparseXORTransformer
from skxor._utils import _encoding
from skxor.datasets import make_sparse_parity
from skxor.nn import SparseXORAttention, sparse_xor_init
from skxor.theory import population_loss


@pytest.fixture(scope="module")
def xor_data():
    X, y, S = make_sparse_parity(30000, 40, support=[3, 17], return_support=True, random_state=0)
    Xt, yt = make_sparse_parity(4000, 40, support=S, random_state=1)
    return X, y, Xt, yt, S


def test_one_softmax_step_recovers_the_support(xor_data):
    X, y, Xt, yt, S = xor_data
    clf = SparseXORTransformer(m=16, random_state=0).fit(X, y)
    assert sorted(clf.support_.tolist()) == S.tolist()  # one head on each bit
    assert clf.support_[0] != clf.support_[1]
    assert clf.score(Xt, yt) == 1.0
    assert clf.attention_[[0, 1], clf.support_].min() > 0.9
    assert clf.n_parameters_ == 32 and clf.n_iter_ == 1 and len(clf.loss_curve_) == 1
    assert clf.keys_.shape == (40, 16) and clf.queries_.shape == (2, 16)
    np.testing.assert_allclose(np.linalg.norm(clf.keys_, axis=1), 1.0)
    # The step has length step_length in query space.
    assert np.linalg.norm(clf.queries_ - clf.initial_queries_) == pytest.approx(100.0, rel=1e-4)
    # The population loss of the learned queries is small.
    assert population_loss(clf.queries_, clf.keys_, S) < 0.05


@pytest.mark.parametrize("attention", ["linear", "erf"])
def test_linear_and_erf_attention_do_not_learn_in_one_step(xor_data, attention):
    X, y, Xt, yt, _ = xor_data
    for seed in range(3):
        clf = SparseXORTransformer(m=16, attention=attention, random_state=seed).fit(X, y)
        assert clf.score(Xt, yt) < 0.7


def test_encodings_and_label_types_give_the_same_model(xor_data):
    X, y, *_ = xor_data
    a = SparseXORTransformer(m=8, random_state=3).fit(X[:3000], y[:3000])
    b = SparseXORTransformer(m=8, random_state=3).fit((1 - X[:3000]) // 2, y[:3000])
    labels = np.where(y[:3000] > 0, "odd", "even")
    c = SparseXORTransformer(m=8, random_state=3).fit(X[:3000].astype(float), labels)
    np.testing.assert_array_equal(a.queries_, b.queries_)
    np.testing.assert_array_equal(a.queries_, c.queries_)
    assert list(c.classes_) == ["even", "odd"]
    assert set(c.predict(X[:50])) <= {"even", "odd"}
    np.testing.assert_array_equal(c.predict(X[:500]) == "odd", a.predict(X[:500]) == 1)


def test_binarize_maps_real_values_to_bits(xor_data):
    X, y, *_ = xor_data
    real = np.where(X > 0, -0.3, 2.5)  # spin +1 -> below threshold -> bit 0
    a = SparseXORTransformer(m=8, binarize=1.0, random_state=0).fit(real[:3000], y[:3000])
    b = SparseXORTransformer(m=8, random_state=0).fit(X[:3000], y[:3000])
    np.testing.assert_array_equal(a.queries_, b.queries_)
    assert a.encoding_ == "binarized"


def test_chunked_computation_matches_a_single_chunk(monkeypatch, xor_data):
    X, y, *_ = xor_data
    params = dict(m=8, dtype="float64", random_state=0)
    whole = SparseXORTransformer(**params).fit(X[:5000], y[:5000])
    monkeypatch.setattr(_encoding, "_CHECK_CHUNK_ELEMENTS", 40 * 7)  # 7 rows a chunk
    chunked = SparseXORTransformer(**params).fit(X[:5000], y[:5000])
    np.testing.assert_allclose(chunked.queries_, whole.queries_, rtol=1e-10)
    np.testing.assert_allclose(
        chunked.decision_function(X[:300]), whole.decision_function(X[:300]), rtol=1e-10
    )


def test_float32_and_float64_agree(xor_data):
    X, y, *_ = xor_data
    a = SparseXORTransformer(m=8, random_state=0).fit(X[:5000], y[:5000])
    b = SparseXORTransformer(m=8, dtype="float64", random_state=0).fit(X[:5000], y[:5000])
    np.testing.assert_allclose(a.queries_, b.queries_, atol=1e-3)
    # The step writes into the trained queries, never into the initial ones.
    np.testing.assert_array_equal(a.initial_queries_, b.initial_queries_)
    assert not np.allclose(b.initial_queries_, b.queries_)


def test_multi_step_and_mini_batches(xor_data):
    X, y, Xt, yt, _ = xor_data
    clf = SparseXORTransformer(
        m=16, learning_rate=1e4, max_iter=5, batch_size=5000, random_state=0
    ).fit(X, y)
    assert clf.n_iter_ == 5 and len(clf.loss_curve_) == 5
    assert clf.loss_curve_[-1] < clf.loss_curve_[0]
    assert np.isfinite(clf.decision_function(Xt)).all()


def test_three_heads_for_three_sparse_parity():
    X, y, S = make_sparse_parity(20000, 12, k=3, return_support=True, random_state=4)
    clf = SparseXORTransformer(m=16, n_heads=3, random_state=0).fit(X, y)
    assert clf.attention_.shape == (3, 12) and clf.n_parameters_ == 48
    f = clf.decision_function(X[:100])
    gamma = clf.attention_.T
    np.testing.assert_allclose(f, -np.prod(X[:100] @ gamma, axis=1), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("attention", ["softmax", "linear", "erf"])
def test_query_norms_in_the_thousands_stay_finite(xor_data, dtype, attention):
    X, y, Xt, *_ = xor_data
    clf = SparseXORTransformer(
        m=8, attention=attention, step_length=5000.0, dtype=dtype, random_state=0
    ).fit(X[:2000], y[:2000])
    assert np.linalg.norm(clf.queries_, axis=1).min() > 1000
    assert np.isfinite(clf.attention_).all() and np.isfinite(clf.decision_function(Xt)).all()


def test_grid_search_over_m_and_attention(xor_data):
    X, y, *_ = xor_data
    search = GridSearchCV(
        SparseXORTransformer(random_state=0),
        {"m": [4, 16], "attention": ["softmax", "linear"]},
        cv=2,
    ).fit(X[:20000], y[:20000])
    assert search.best_params_["attention"] == "softmax"
    assert search.best_score_ > 0.95


def test_learning_curve_accuracy_grows_with_n(xor_data):
    X, y, *_ = xor_data
    sizes, _, test_scores = learning_curve(
        SparseXORTransformer(m=16, random_state=0),
        X,
        y,
        train_sizes=[200, 15000],
        cv=2,
        shuffle=True,
        random_state=0,
    )
    assert list(sizes) == [200, 15000]
    assert test_scores[1].mean() > test_scores[0].mean() + 0.2


def test_pipeline_and_clone(xor_data):
    X, y, Xt, yt, _ = xor_data
    pipe = make_pipeline(
        FunctionTransformer(lambda Z: (1 - Z) // 2), SparseXORTransformer(m=16, random_state=0)
    )
    assert pipe.fit(X, y).score(Xt, yt) == 1.0
    est = SparseXORTransformer(m=5, attention="erf", random_state=7)
    twin = clone(est)
    assert twin.get_params() == est.get_params() and not hasattr(twin, "queries_")


def test_pickle_round_trip_keeps_predictions(xor_data, tmp_path):
    X, y, Xt, *_ = xor_data
    clf = SparseXORTransformer(m=16, random_state=0).fit(X, y)
    restored = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(restored.decision_function(Xt), clf.decision_function(Xt))
    joblib.dump(clf, tmp_path / "model.joblib")
    np.testing.assert_array_equal(joblib.load(tmp_path / "model.joblib").predict(Xt), clf.predict(Xt))


def test_model_fitted_on_cuda_predicts_on_cpu(xor_data):
    X, y, Xt, *_ = xor_data
    clf = SparseXORTransformer(m=8, random_state=0).fit(X[:3000], y[:3000])
    expected = clf.decision_function(Xt)
    moved = pickle.loads(pickle.dumps(clf))
    moved.device = "cuda:0" if not __import__("torch").cuda.is_available() else "cuda:99"
    with pytest.warns(RuntimeWarning, match="predicting on the CPU"):
        np.testing.assert_array_equal(moved.decision_function(Xt), expected)


def _fit_queries(X, y, seed):
    return SparseXORTransformer(m=8, random_state=seed).fit(X, y).queries_


def test_same_random_state_is_bit_identical_across_runs_and_workers(xor_data):
    X, y, *_ = xor_data
    X, y = X[:8000], y[:8000]
    first = _fit_queries(X, y, 11)
    np.testing.assert_array_equal(first, _fit_queries(X, y, 11))
    results = joblib.Parallel(n_jobs=2)(joblib.delayed(_fit_queries)(X, y, s) for s in [11, 11, 12])
    np.testing.assert_array_equal(results[0], first)
    np.testing.assert_array_equal(results[1], first)
    assert not np.array_equal(results[2], first)


def test_a_million_positions_with_query_norms_in_the_thousands():
    X, y = make_sparse_parity(32, 1_000_000, random_state=0)
    clf = SparseXORTransformer(m=16, step_length=5000.0, random_state=0).fit(X, y)
    assert np.linalg.norm(clf.queries_, axis=1).min() > 1000
    assert np.isfinite(clf.attention_).all()
    np.testing.assert_allclose(clf.attention_.sum(axis=1), 1.0, rtol=1e-5)
    assert np.isfinite(clf.decision_function(X)).all()


# -- many heads: the product over heads below the dtype's range ------------------


@pytest.mark.parametrize("n_heads, d", [(16, 4000), (24, 4000), (40, 400), (260, 300)])
def test_many_heads_take_the_same_step_in_float32_and_float64(n_heads, d):
    # Products of n_heads - 1 head averages (about 1/sqrt(d) each) are below
    # float32's range from about 16 heads at d = 4000, and below float64's at
    # 260 heads on d = 300: the step must be taken all the same.
    X, y = make_sparse_parity(400 if d > 1000 else 1000, d, random_state=0)
    fits = {dtype: SparseXORTransformer(m=8, n_heads=n_heads, init="random", dtype=dtype,
                                        random_state=0).fit(X, y)
            for dtype in ("float32", "float64")}
    for clf in fits.values():
        step = np.linalg.norm(clf.queries_ - clf.initial_queries_)
        assert step == pytest.approx(100.0, rel=1e-5)
    np.testing.assert_allclose(fits["float32"].queries_, fits["float64"].queries_,
                               atol=1e-4 * 100.0)
    f32, f64 = (clf.decision_function(X) for clf in fits.values())
    # No output rounds to 0 (a lost prediction): the sign survives any H.
    assert (f32 != 0).all() and (f64 != 0).all()
    np.testing.assert_array_equal(np.sign(f32), np.sign(f64))


def test_many_heads_plain_learning_rate_steps_by_the_true_gradient():
    # learning_rate=float: the gradient itself is below float32's range at
    # 24 heads; float32 and float64 agree (both steps are far below the
    # queries' rounding, so the queries stay where they were).
    X, y = make_sparse_parity(400, 4000, random_state=0)
    fits = [SparseXORTransformer(m=8, n_heads=24, init="random", learning_rate=1.0,
                                 dtype=dtype, random_state=0).fit(X, y)
            for dtype in ("float32", "float64")]
    for clf in fits:
        np.testing.assert_allclose(clf.queries_, clf.initial_queries_, rtol=1e-6)


def test_float64_fit_with_few_heads_is_unchanged_by_the_scaled_gradient():
    # The gradient is scaled by powers of two only: with two heads a fit is
    # bit for bit the product form's, e.g. mini-batches of plain descent.
    X, y = make_sparse_parity(600, 30, random_state=3)
    clf = SparseXORTransformer(m=8, batch_size=64, learning_rate=0.5, max_iter=3,
                               dtype="float64", random_state=0).fit(X, y)
    model = SparseXORAttention(torch.tensor(clf.keys_), torch.tensor(clf.initial_queries_))
    rng = np.random.RandomState(0)
    sparse_xor_init(30, 8, 2, "antisymmetric", random_state=rng)  # the draws fit made
    spins = torch.tensor(X, dtype=torch.float64)
    target = torch.tensor(np.where(y > 0, 1.0, -1.0))
    for _ in range(3):
        order = rng.permutation(600)
        for start in range(0, 600, 64):
            rows = order[start:start + 64]
            model.queries.grad = None
            ((model(spins[rows]) - target[rows]) ** 2).mean().backward()
            with torch.no_grad():
                model.queries -= 0.5 * model.queries.grad
    np.testing.assert_allclose(clf.queries_, model.queries.detach().numpy(), rtol=1e-10,
                               atol=1e-12)
