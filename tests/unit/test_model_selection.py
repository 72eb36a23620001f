"""skxor.model_selection: per-seed learning curves, the clean-label scorer (issue 51, 3 and 5)."""

import pickle

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.linear_model import SGDClassifier
from sklearn.model_selection import GridSearchCV, KFold, ShuffleSplit, learning_curve
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from skxor.datasets import make_sparse_parity
from skxor.model_selection import clean_accuracy_scorer, learning_curve_per_seed


class SeedEcho(ClassifierMixin, BaseEstimator):
    """Scores its own random_state / 100: which initialisation each curve used."""

    def __init__(self, random_state=None):
        self.random_state = random_state

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])

    def score(self, X, y):
        return self.random_state / 100


class Oracle(ClassifierMixin, BaseEstimator):
    """Predicts the clean parity of X[:, support] (spins, labels "pm1")."""

    def __init__(self, support=(0, 1), flip=False):
        self.support = support
        self.flip = flip

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        y = -np.prod(np.asarray(X)[:, list(self.support)], axis=1)
        return -y if self.flip else y


# -- learning_curve_per_seed ---------------------------------------------------------


def test_each_column_is_the_seeds_own_initialisation_and_split():
    X, y = make_sparse_parity(400, 8, random_state=0)
    estimator = SGDClassifier(max_iter=5, tol=None)
    sizes, train, test = learning_curve_per_seed(estimator, X, y, train_sizes=[40, 120, 300],
                                                 seeds=[3, 7], test_size=100)
    assert sizes.tolist() == [40, 120, 300] and train.shape == test.shape == (3, 2)
    for column, seed in enumerate([3, 7]):
        _, train_seed, test_seed = learning_curve(
            clone(estimator).set_params(random_state=seed), X, y, train_sizes=[40, 120, 300],
            cv=ShuffleSplit(1, test_size=100, random_state=seed), shuffle=False)
        np.testing.assert_array_equal(train[:, column], train_seed[:, 0])
        np.testing.assert_array_equal(test[:, column], test_seed[:, 0])
    assert estimator.random_state is None  # the estimator given is left as it was


def test_the_initialisation_is_drawn_per_seed_in_a_pipeline_too():
    # scikit-learn's learning_curve scores one initialisation on every split; here
    # each column's estimator was built with its seed.
    X, y = make_sparse_parity(200, 6, random_state=0)
    for estimator in (SeedEcho(), make_pipeline(StandardScaler(), SeedEcho())):
        _, _, test = learning_curve_per_seed(estimator, X, y, train_sizes=[50, 100], seeds=4)
        np.testing.assert_array_equal(test, np.tile([0.0, 0.01, 0.02, 0.03], (2, 1)))


def test_learning_curve_display_draws_one_column_per_seed():
    pytest.importorskip("matplotlib").use("Agg")
    import matplotlib.pyplot as plt
    from sklearn.model_selection import LearningCurveDisplay

    X, y = make_sparse_parity(300, 6, random_state=0)
    sizes, train, test = learning_curve_per_seed(SGDClassifier(max_iter=5, tol=None), X, y,
                                                 train_sizes=[50, 100, 200], seeds=3)
    display = LearningCurveDisplay(train_sizes=sizes, train_scores=train,
                                   test_scores=test).plot(std_display_style="errorbar")
    (line,) = [c for c in display.errorbar_ if c is not None][-1:]
    np.testing.assert_allclose(line.lines[0].get_ydata(), test.mean(axis=1))
    plt.close(display.figure_)


@pytest.mark.parametrize("seeds, error, match", [
    (0, ValueError, "at least 1"), ([], ValueError, "non-empty"),
    ([1, 1], ValueError, "distinct"), ([1, -2], ValueError, "non-negative"),
    ([True], ValueError, "non-negative ints"), (2.5, TypeError, "an int"),
])
def test_bad_seeds_are_refused(seeds, error, match):
    X, y = make_sparse_parity(60, 4, random_state=0)
    with pytest.raises(error, match=match):
        learning_curve_per_seed(SeedEcho(), X, y, seeds=seeds)


def test_an_estimator_without_random_state_is_refused():
    X, y = make_sparse_parity(60, 4, random_state=0)
    with pytest.raises(ValueError, match="Oracle has no random_state parameter"):
        learning_curve_per_seed(Oracle(), X, y, seeds=2)


# -- clean_accuracy_scorer -------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["pm1", "01"])
@pytest.mark.parametrize("labels", ["pm1", "pm1_even", "01_odd", "01_even"])
def test_the_scorers_clean_labels_are_make_sparse_parity_s(encoding, labels):
    X, y, clean, S = make_sparse_parity(500, 7, k=3, noise=0.2, encoding=encoding,
                                        labels=labels, return_clean=True,
                                        return_support=True, random_state=4)
    scorer = clean_accuracy_scorer(S, encoding=encoding, labels=labels)
    np.testing.assert_array_equal(scorer.clean_labels(X), clean)


def test_in_a_grid_search_the_clean_score_reads_the_clean_labels():
    # GridSearchCV passes the noisy y: accuracy on it tops out near 0.9 for a model
    # that predicts the parity exactly, the clean accuracy is 1.
    X, y, S = make_sparse_parity(2000, 8, noise=0.1, return_support=True, random_state=0)
    search = GridSearchCV(Oracle(support=tuple(S)), {"flip": [False, True]},
                          scoring={"noisy": "accuracy", "clean": clean_accuracy_scorer(S)},
                          refit="clean", cv=KFold(4, shuffle=True, random_state=0)).fit(X, y)
    np.testing.assert_array_equal(search.cv_results_["mean_test_clean"], [1.0, 0.0])
    noisy = search.cv_results_["mean_test_noisy"]
    assert 0.88 < noisy[0] < 0.92 and noisy[0] + noisy[1] == pytest.approx(1.0)
    assert search.best_params_ == {"flip": False}
    # Picklable, so that a search with n_jobs can send it to its workers.
    scorer = pickle.loads(pickle.dumps(clean_accuracy_scorer(S)))
    assert scorer(Oracle(support=tuple(S)), X, y) == 1.0


def test_the_scorer_refuses_what_it_cannot_read():
    X, y = make_sparse_parity(50, 6, support=[1, 4], random_state=0)
    with pytest.raises(ValueError, match="encoding='01'"):
        clean_accuracy_scorer([1, 4], encoding="01")(Oracle((1, 4)), X, y)
    with pytest.raises(ValueError, match=r"\[0, 5\]"):
        clean_accuracy_scorer([1, 6])(Oracle((1, 4)), X, y)
    with pytest.raises(ValueError, match="labels='01_odd'"):
        clean_accuracy_scorer([1, 4], labels="01_odd")(Oracle((1, 4)), X, y)
    with pytest.raises(TypeError, match="support"):
        clean_accuracy_scorer([True, False])
    with pytest.raises(ValueError, match="distinct"):
        clean_accuracy_scorer([2, 2])
    with pytest.raises(ValueError, match="labels"):
        clean_accuracy_scorer([1, 4], labels="odd")
