"""Model selection on the library's data sets: per-seed learning curves, clean-label scores.

* :func:`learning_curve_per_seed`: a learning curve per seed, the
  estimator's initialisation and the held-out split drawn from that seed,
  as the sample-complexity study fits them; scikit-learn's
  :func:`~sklearn.model_selection.learning_curve` reuses one initialisation
  for every split. The result is shaped as ``learning_curve``'s, one column
  per seed, so that :class:`~sklearn.model_selection.LearningCurveDisplay`
  draws it.
* :func:`clean_accuracy_scorer`: accuracy against the labels without noise
  (``make_sparse_parity(..., noise=...)``), usable as the ``scoring`` of
  :class:`~sklearn.model_selection.GridSearchCV`.
"""

from numbers import Integral

import numpy as np
from sklearn.base import clone
from sklearn.metrics import accuracy_score
from sklearn.model_selection import ShuffleSplit, learning_curve

from ._utils._encoding import ENCODINGS
from ._utils._labels import LABELS, convert_labels, parity_labels
from ._utils._sklearn_compat import StrOptions
from ._utils._support import check_support
from ._utils._validation import validate_params_once

__all__ = ["clean_accuracy_scorer", "learning_curve_per_seed"]


def _seed_list(seeds):
    """``range(seeds)`` for a count, else the given seeds, checked (non-negative ints)."""
    if isinstance(seeds, Integral) and not isinstance(seeds, (bool, np.bool_)):
        if seeds < 1:
            raise ValueError(f"seeds must be at least 1 (a count) or a list of seeds; "
                             f"got {seeds}.")
        return list(range(int(seeds)))
    try:
        values = list(seeds)
    except TypeError:
        raise TypeError(f"seeds must be an int (a count) or a list of ints; got "
                        f"{type(seeds).__name__}.") from None
    bad = [v for v in values
           if not isinstance(v, Integral) or isinstance(v, (bool, np.bool_)) or v < 0]
    if not values or bad:
        raise ValueError(f"seeds must be a non-empty list of non-negative ints; got {values!r}.")
    if len(set(values)) != len(values):
        raise ValueError(f"seeds must be distinct (a repeated seed is the same curve); "
                         f"got {values!r}.")
    return [int(v) for v in values]


def _random_state_params(estimator):
    """The names of every ``random_state`` of ``estimator`` (its own, its steps')."""
    names = [name for name in estimator.get_params()
             if name == "random_state" or name.endswith("__random_state")]
    if not names:
        raise ValueError(
            f"{type(estimator).__name__} has no random_state parameter: its initialisation "
            "cannot be drawn per seed (use sklearn.model_selection.learning_curve).")
    return names


def learning_curve_per_seed(estimator, X, y, *, train_sizes=(0.1, 0.325, 0.55, 0.775, 1.0),
                            seeds=5, test_size=0.25, scoring=None, n_jobs=None,
                            error_score="raise"):
    """Learning curves, one per seed: the initialisation and the split drawn from the seed.

    For each seed ``s``, ``estimator`` is cloned with every ``random_state``
    parameter set to ``s`` (its own, or a pipeline step's), ``X, y`` are
    split once by ``ShuffleSplit(1, test_size=test_size, random_state=s)``,
    and :func:`sklearn.model_selection.learning_curve` fits it on growing
    prefixes of the training part. This is how the sample-complexity study
    (:func:`skxor.studies.sample_complexity`) draws its curves. scikit-learn's
    ``learning_curve`` with several splits reuses the estimator's one
    initialisation for every split, so its spread is the data's only.

    Parameters
    ----------
    estimator : estimator with a ``random_state`` parameter
        Cloned for each seed; never fitted itself.
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    train_sizes : array-like, default=(0.1, 0.325, 0.55, 0.775, 1.0)
        Training sizes, as ``learning_curve`` takes them: fractions of the
        training part, or counts.
    seeds : int or list of int, default=5
        A count (seeds 0, 1, ..., ``seeds - 1``) or the seeds themselves
        (distinct non-negative ints).
    test_size : float or int, default=0.25
        The held-out part of each seed's split, as ``ShuffleSplit`` takes it.
    scoring : str, callable or None, default=None
        As ``learning_curve`` takes it (None: the estimator's ``score``);
        for instance :func:`clean_accuracy_scorer`.
    n_jobs : int or None, default=None
        Passed to ``learning_curve`` (parallel over the training sizes).
    error_score : "raise" or float, default="raise"
        A fit that fails raises (scikit-learn's default, NaN, would hide it
        in the scores).

    Returns
    -------
    train_sizes : ndarray of shape (n_sizes,)
        The training sizes used (counts).
    train_scores : ndarray of shape (n_sizes, n_seeds)
        Scores on the training prefix; column ``j`` is seed ``j`` of ``seeds``.
    test_scores : ndarray of shape (n_sizes, n_seeds)
        Scores on the seed's held-out part.

    See Also
    --------
    sklearn.model_selection.LearningCurveDisplay : draws the three arrays
        (``LearningCurveDisplay(train_sizes=..., train_scores=..., test_scores=...)``).

    Examples
    --------
    >>> from skxor import SparseXORTransformer
    >>> from skxor.datasets import make_sparse_parity
    >>> from skxor.model_selection import learning_curve_per_seed
    >>> X, y = make_sparse_parity(1000, 20, random_state=0)
    >>> sizes, train, test = learning_curve_per_seed(
    ...     SparseXORTransformer(max_iter=5, step_length=20.0), X, y,
    ...     train_sizes=[50, 200, 800], seeds=3, test_size=200)
    >>> sizes.tolist(), test.shape
    ([50, 200, 800], (3, 3))
    >>> test.round(2).tolist()
    [[1.0, 0.46, 0.5], [1.0, 0.5, 0.46], [1.0, 1.0, 1.0]]
    """
    seeds = _seed_list(seeds)
    names = _random_state_params(estimator)
    train_scores, test_scores = [], []
    for seed in seeds:
        fitted = clone(estimator).set_params(**dict.fromkeys(names, seed))
        # Prefixes of one shuffled training part (shuffle=False), as the study fits.
        sizes, train, test = learning_curve(
            fitted, X, y, train_sizes=train_sizes,
            cv=ShuffleSplit(n_splits=1, test_size=test_size, random_state=seed),
            shuffle=False, scoring=scoring, n_jobs=n_jobs, error_score=error_score,
        )
        train_scores.append(train[:, 0])
        test_scores.append(test[:, 0])
    return sizes, np.column_stack(train_scores), np.column_stack(test_scores)


class _CleanAccuracyScorer:
    """Accuracy of ``estimator.predict(X)`` against the parity of ``X[:, support]``."""

    def __init__(self, support, encoding, labels):
        self.support = support
        self.encoding = encoding
        self.labels = labels

    def __repr__(self):
        return (f"clean_accuracy_scorer(support={self.support.tolist()}, "
                f"encoding={self.encoding!r}, labels={self.labels!r})")

    def clean_labels(self, X):
        """The labels of ``X`` without noise, in the convention ``labels``."""
        X = np.asarray(X)
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D (samples, bits); got shape {X.shape}.")
        check_support(self.support, X.shape[1])
        alphabet = (-1, 1) if self.encoding == "pm1" else (0, 1)
        if not np.isin(X[:, self.support], alphabet).all():
            raise ValueError(
                f"X's support columns {self.support.tolist()} hold values outside "
                f"{set(alphabet)}, which encoding={self.encoding!r} reads; pass the "
                "encoding make_sparse_parity gave X.")
        spins = X if self.encoding == "pm1" else 1 - 2 * X.astype(np.int64)
        return convert_labels(parity_labels(spins, self.support), self.labels)

    def __call__(self, estimator, X, y=None):
        # y (the noisy labels GridSearchCV passes) is not read.
        clean = self.clean_labels(X)
        predicted = np.asarray(estimator.predict(X))
        alphabet = {-1, 1} if self.labels.startswith("pm1") else {0, 1}
        unknown = set(np.unique(predicted).tolist()) - alphabet
        if unknown:
            raise ValueError(
                f"the estimator predicts {sorted(unknown)}, not labels of "
                f"labels={self.labels!r} ({sorted(alphabet)}); pass the labels "
                "convention y was made with.")
        return float(accuracy_score(clean, predicted))


@validate_params_once(
    {
        "support": ["array-like"],
        "encoding": [StrOptions(set(ENCODINGS))],
        "labels": [StrOptions(set(LABELS))],
    },
    prefer_skip_nested_validation=True,
)
def clean_accuracy_scorer(support, *, encoding="pm1", labels="pm1"):
    """A scorer: accuracy against the labels without noise, recomputed from X.

    A search (:class:`~sklearn.model_selection.GridSearchCV`,
    :func:`~sklearn.model_selection.cross_validate`, :func:`learning_curve_per_seed`)
    calls a scorer with the estimator, X and the labels it was given, which
    are the noisy ones. This scorer does not read them: it recomputes each
    row's clean label from X, the parity of the support bits (the target
    :func:`~skxor.datasets.make_sparse_parity` labelled X by), and scores the
    estimator's predictions against it. The support must then be known, as
    it is for a synthetic data set (``return_support=True``).

    Parameters
    ----------
    support : array-like of int
        The relevant positions of the parity (0-based, distinct).
    encoding : {"pm1", "01"}, default="pm1"
        How X holds the bits, as ``make_sparse_parity`` gave them: spins
        ``1 - 2 b`` or bits. A value outside it is refused.
    labels : {"pm1", "pm1_even", "01_odd", "01_even"}, default="pm1"
        The label convention y was made with (``make_sparse_parity``'s
        ``labels``). A prediction outside its label values is refused.

    Returns
    -------
    scorer : callable
        ``scorer(estimator, X, y=None)``: the accuracy, in [0, 1]. Picklable
        (searches with ``n_jobs``); ``scorer.clean_labels(X)`` gives the
        labels it compares with.

    Examples
    --------
    >>> from sklearn.model_selection import cross_validate
    >>> from skxor import SparseXORTransformer
    >>> from skxor.datasets import make_sparse_parity
    >>> from skxor.model_selection import clean_accuracy_scorer
    >>> X, y, y_clean, S = make_sparse_parity(3000, 20, noise=0.1, return_clean=True,
    ...                                       return_support=True, random_state=0)
    >>> scorer = clean_accuracy_scorer(S)
    >>> bool((scorer.clean_labels(X) == y_clean).all())
    True
    >>> scores = cross_validate(SparseXORTransformer(random_state=0), X, y, cv=3,
    ...                         scoring={"noisy": "accuracy", "clean": scorer})
    >>> scores["test_noisy"].round(2).tolist(), scores["test_clean"].round(2).tolist()
    ([0.88, 0.89, 0.9], [1.0, 1.0, 1.0])
    """
    # Types, repeats and signs checked now; the largest position against X's width
    # when scoring (a support is not tied to one width).
    support = check_support(support, np.iinfo(np.int64).max)
    return _CleanAccuracyScorer(support, encoding, labels)
