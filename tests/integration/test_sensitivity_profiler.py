"""SensitivityProfiler: fit/transform/predict, encodings, sklearn tools, bad input."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.tree import DecisionTreeClassifier

from skxor import SparseXORTransformer
from skxor.boolean import all_strings
from skxor.datasets import make_sparse_parity
from skxor.sensitivity import SensitivityProfiler, sensitivity_profile

N_BITS = 10
SUPPORT = [2, 7]


@pytest.fixture(scope="module")
def data():
    return make_sparse_parity(12000, N_BITS, support=SUPPORT, random_state=0)


def learner(**kwargs):
    # A seed for which one normalised step finds the support at this size.
    return SparseXORTransformer(m=16, random_state=2, **kwargs)


def reference_flips(clf, X_bits, encode):
    """Per-flip model evaluation: the brute-force reference for transform."""
    base = clf.predict(encode(X_bits))
    flips = np.empty(X_bits.shape, dtype=np.uint8)
    for i in range(X_bits.shape[1]):
        Xi = X_bits.copy()
        Xi[:, i] ^= 1
        flips[:, i] = clf.predict(encode(Xi)) != base
    return flips


def test_profiles_a_learned_sparse_xor(data):
    X, y = data
    prof = SensitivityProfiler(learner()).fit(X, y)
    assert prof.profile_.method == "exhaustive"
    assert prof.estimator_ is not prof.estimator  # a clone was fitted
    assert sorted(prof.estimator_.support_.tolist()) == SUPPORT
    assert prof.average_sensitivity_ == 2.0 and prof.min_sensitivity_ == 2
    assert prof.zero_sensitivity_fraction_ == 0.0
    assert prof.truth_table_.shape == (2**N_BITS,)
    assert np.array_equal(prof.transform(X[:50]), np.full((50, 1), 2))
    flips = SensitivityProfiler(learner(), per_bit=True).fit(X, y).transform(X[:20])
    assert flips.shape == (20, N_BITS) and flips.dtype == np.uint8
    assert np.flatnonzero(flips.sum(axis=0)).tolist() == SUPPORT
    assert prof.score(X, y) == prof.estimator_.score(X, y) == 1.0
    assert np.array_equal(prof.predict(X[:30]), prof.estimator_.predict(X[:30]))
    assert prof.get_feature_names_out().tolist() == ["sensitivity"]


@pytest.mark.parametrize("method", ["exhaustive", "sampled", "data"])
def test_transform_matches_per_flip_reference(method):
    # A model with a rich profile: a tree on a random labelling of 8 bits.
    rng = np.random.RandomState(0)
    X = rng.randint(0, 2, size=(300, 8))
    y = rng.randint(0, 2, size=300)
    prof = SensitivityProfiler(
        DecisionTreeClassifier(max_depth=5, random_state=0), method=method,
        n_samples=100, random_state=0,
    ).fit(X, y)
    assert (prof.truth_table_ is not None) == (method == "exhaustive")
    flips = reference_flips(prof.estimator_, X, lambda B: B)
    assert np.array_equal(prof.transform(X)[:, 0], flips.sum(axis=1))
    assert np.array_equal(prof.set_params(per_bit=True).transform(X), flips)
    # Chunking (tiny batches) changes nothing.
    assert np.array_equal(prof.set_params(batch_size=7).transform(X), flips)
    assert prof.profile_.average > 0  # not a constant function
    exact = sensitivity_profile(prof.estimator_, 8, method="exhaustive")
    if method == "exhaustive":
        assert np.array_equal(prof.profile_.counts, exact.counts)
    else:
        assert prof.profile_.method == method and prof.profile_.n_strings == 100
        assert prof.profile_.average_ci[0] <= exact.average <= prof.profile_.average_ci[1]


def test_data_profile_counts_the_fit_rows():
    rng = np.random.RandomState(1)
    X = rng.randint(0, 2, size=(80, 12))
    y = X[:, 0] | X[:, 5]
    prof = SensitivityProfiler(LogisticRegression(C=100.0), method="data").fit(X, y)
    sens = prof.transform(X)[:, 0]
    assert np.array_equal(prof.profile_.counts, np.bincount(sens, minlength=13))
    assert prof.profile_.n_strings == 80
    # More rows than n_samples: a seeded subset of that size.
    sub = SensitivityProfiler(LogisticRegression(C=100.0), method="data", n_samples=30,
                              random_state=0).fit(X, y)
    assert sub.profile_.n_strings == 30


def test_auto_uses_fit_rows_when_exhaustive_is_dearer():
    X, y = make_sparse_parity(300, 16, support=[1, 9], random_state=0)
    prof = SensitivityProfiler(learner(), n_samples=100).fit(X, y)
    assert prof.profile_.method == "data" and prof.truth_table_ is None
    small = SensitivityProfiler(learner(), n_samples=100).fit(X[:, :8], y)
    assert small.profile_.method == "exhaustive"


def test_prefit_uses_the_estimator_as_is(data):
    X, y = data
    clf = learner().fit(X, y)
    prof = SensitivityProfiler(clf, prefit=True).fit(X)  # y not needed
    assert prof.estimator_ is clf
    refit = SensitivityProfiler(learner()).fit(X, y)
    assert np.array_equal(prof.profile_.counts, refit.profile_.counts)
    assert np.array_equal(prof.classes_, clf.classes_)


@pytest.mark.parametrize("encoding", ["01", "pm1"])
def test_same_function_in_either_encoding(encoding):
    X, y = make_sparse_parity(3000, 7, support=[0, 3], encoding=encoding, random_state=0)
    prof = SensitivityProfiler(DecisionTreeClassifier(random_state=0)).fit(X, y)
    assert prof.encoding_ == encoding
    assert prof.average_sensitivity_ == 2.0
    with pytest.raises(ValueError, match="same encoding"):
        prof.transform(all_strings(7, encoding="pm1" if encoding == "01" else "01"))


def test_binarize_maps_real_values_to_bits(data):
    X, y = data
    rng = np.random.RandomState(0)
    bits = (X == -1).astype(float)
    real = bits + rng.uniform(-0.3, 0.3, size=X.shape)
    prof = SensitivityProfiler(learner(), binarize=0.5).fit(real, y)
    assert prof.encoding_ == "binarized"
    assert prof.estimator_.encoding_ == "01"  # the inner model saw the bits
    assert prof.average_sensitivity_ == 2.0
    assert np.array_equal(prof.predict(real[:100]), y[:100])
    # Inner model with its own threshold outside [0, 1): fed t + bits.
    own = SparseXORTransformer(m=16, binarize=3.0, random_state=2).fit(bits + 2.6, y)
    prof_own = SensitivityProfiler(own, prefit=True, binarize=0.5).fit(real)
    assert prof_own.average_sensitivity_ == 2.0
    assert np.array_equal(prof_own.predict(real[:100]), y[:100])


def test_in_a_pipeline_and_grid_search(data):
    X, y = data
    X, y = X[:4000], y[:4000]
    pipe = Pipeline([("profile", SensitivityProfiler(learner()))]).fit(X, y)
    assert pipe.score(X, y) == 1.0
    as_features = make_pipeline(SensitivityProfiler(learner()), LogisticRegression())
    as_features.set_output(transform="pandas")
    frame = as_features[:-1].fit(X, y).transform(X[:5])
    assert frame.columns.tolist() == ["sensitivity"]
    grid = GridSearchCV(
        SensitivityProfiler(SparseXORTransformer(random_state=2)),
        {"estimator__m": [2, 16]},
        cv=2,
    ).fit(X, y)
    assert grid.best_params_ == {"estimator__m": 16}
    assert grid.best_estimator_.average_sensitivity_ == 2.0
    assert clone(grid.best_estimator_).get_params()["estimator__m"] == 16


def test_default_estimator_is_a_seeded_sparse_xor_transformer(data):
    X, y = data
    a = SensitivityProfiler(random_state=5).fit(X[:3000], y[:3000])
    b = SensitivityProfiler(random_state=5).fit(X[:3000], y[:3000])
    assert isinstance(a.estimator_, SparseXORTransformer)
    assert a.estimator_.random_state == 5
    assert np.array_equal(a.profile_.counts, b.profile_.counts)


def test_feature_names_with_pandas():
    pd = pytest.importorskip("pandas")
    X, y = make_sparse_parity(500, 4, support=[0, 1], encoding="01", random_state=0)
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    prof = SensitivityProfiler(DecisionTreeClassifier(random_state=0), per_bit=True).fit(frame, y)
    assert prof.get_feature_names_out().tolist() == ["flip_a", "flip_b", "flip_c", "flip_d"]


# -- bad input -------------------------------------------------------------------------


def test_bad_input(data):
    X, y = data
    prof = SensitivityProfiler(DecisionTreeClassifier(random_state=0)).fit(X[:500], y[:500])
    expecting = "X has 9 features, but SensitivityProfiler is expecting 10"
    with pytest.raises(ValueError, match=expecting):
        prof.transform(X[:5, :9])
    with pytest.raises(ValueError, match=r"values \[0.5\]"):
        SensitivityProfiler().fit(np.full((4, 3), 0.5), [0, 1, 0, 1])
    with pytest.raises(ValueError, match="Only binary classification"):
        SensitivityProfiler(DecisionTreeClassifier()).fit(X[:30], np.arange(30) % 3)
    with pytest.raises(NotFittedError):
        SensitivityProfiler(DecisionTreeClassifier(), prefit=True).fit(X[:30])
    with pytest.raises(ValueError, match="prefit=True needs a fitted estimator"):
        SensitivityProfiler(prefit=True).fit(X[:30])
    with pytest.raises(NotFittedError):
        SensitivityProfiler().transform(X[:5])
    with pytest.raises(ValueError, match="method"):
        SensitivityProfiler(method="all").fit(X[:30], y[:30])


def test_exhaustive_request_for_too_many_bits_fails_before_fitting():
    class Refuses(DecisionTreeClassifier):
        def fit(self, X, y):  # pragma: no cover - must not be reached
            raise AssertionError("fitted although the profile cannot be computed")

    X = np.random.RandomState(0).randint(0, 2, size=(20, 30))
    with pytest.raises(ValueError, match="N=30.*method='sampled'"):
        SensitivityProfiler(Refuses(), method="exhaustive").fit(X, np.arange(20) % 2)


def test_decision_function_and_predict_proba_delegate_for_roc_auc():
    from sklearn.model_selection import cross_val_score

    X, y = make_sparse_parity(3000, 10, support=[1, 7], random_state=0)
    prof = SensitivityProfiler(SparseXORTransformer(m=16, random_state=0)).fit(X, y)
    np.testing.assert_array_equal(prof.decision_function(X), prof.estimator_.decision_function(X))
    assert not hasattr(prof, "predict_proba")  # the transformer has none
    auc = cross_val_score(SensitivityProfiler(SparseXORTransformer(m=16, random_state=0)),
                          X, y, cv=2, scoring="roc_auc")
    assert auc.min() > 0.9
    tree = SensitivityProfiler(DecisionTreeClassifier(random_state=0), method="sampled",
                               n_samples=100, random_state=0).fit(X, y)
    assert not hasattr(tree, "decision_function")
    np.testing.assert_allclose(tree.predict_proba(X).sum(axis=1), 1.0)
    assert hasattr(SensitivityProfiler(LogisticRegression()), "decision_function")
