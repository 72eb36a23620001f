"""The sample-complexity study's cells: one learning curve each, then the long table."""

import time

import numpy as np
from sklearn.model_selection import ShuffleSplit, learning_curve

from skxor.datasets import make_sparse_parity
from skxor.estimators import FFNNParityBaseline, SparseXORTransformer
from skxor.nn import sparse_xor_init
from skxor.theory import population_step
from ..._common import single_thread
from skxor.studies.reporting import TIME_COLUMNS
from skxor.studies import cell_version
from .._head_scoring import head_weights, score_heads
from ._summary import SETTING_COLUMNS

#: The models compared; each maps to an estimator factory in ``_estimator``.
MODELS = ("transformer_one_step", "transformer_multi_step", "ffnn")


#: The estimator of each model, as named parameters (what the study fits).
#: ``transformer_multi_step``: five normalised steps of length 20 (measured:
#: 10/10 seeds at d = 100, n = 5000). ``ffnn``: a bounded budget, ``max_iter``
#: counting epochs (passes over the training set), with early stopping on a 10%
#: validation split.
ESTIMATOR_PARAMS = {
    "transformer_one_step": {"m": 32},
    "transformer_multi_step": {"m": 32, "max_iter": 5, "step_length": 20.0},
    "ffnn": {"max_iter": 20, "early_stopping": True},
}


def sample_complexity_estimator(model, random_state=None):
    """The estimator the sample-complexity study fits for ``model``.

    Parameters
    ----------
    model : {"transformer_one_step", "transformer_multi_step", "ffnn"}
    random_state : int or None, default=None

    Returns
    -------
    estimator : SparseXORTransformer or FFNNParityBaseline
        Unfitted, with the parameters of :data:`ESTIMATOR_PARAMS`.

    Examples
    --------
    >>> from skxor.papers import sample_complexity_estimator
    >>> est = sample_complexity_estimator("transformer_multi_step", random_state=0)
    >>> {k: est.get_params()[k] for k in ("m", "max_iter", "step_length")}
    {'m': 32, 'max_iter': 5, 'step_length': 20.0}
    >>> sample_complexity_estimator("ffnn").get_params()["max_iter"]  # epochs
    20
    """
    if model not in ESTIMATOR_PARAMS:
        raise ValueError(f"model must be one of {MODELS}; got {model!r}.")
    factory = FFNNParityBaseline if model == "ffnn" else SparseXORTransformer
    return factory(**ESTIMATOR_PARAMS[model], random_state=random_state)


def _estimator(model, seed):
    return sample_complexity_estimator(model, random_state=seed)


def population_start(model, d, seed):
    """The support, frozen keys and initial queries of ``model``'s fit on seed ``seed``.

    The support is the one :func:`~skxor.datasets.make_sparse_parity` draws
    first from ``random_state=seed`` (the cell's data); the keys and queries
    are the ones the estimator draws from ``random_state=seed`` at ``d``
    features.

    Returns
    -------
    support : ndarray of shape (2,)
    keys : ndarray of shape (d, m)
    queries : ndarray of shape (n_heads, m)

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.sample_complexity import population_start
    >>> support, keys, queries = population_start("transformer_one_step", 20, 0)
    >>> keys.shape, queries.shape
    ((20, 32), (2, 32))
    """
    if model not in ESTIMATOR_PARAMS or model == "ffnn":
        raise ValueError(f"model must be a transformer model of {MODELS}; got {model!r}.")
    params = sample_complexity_estimator(model).get_params()
    support = make_sparse_parity(1, d, return_support=True, random_state=seed)[2]
    keys, queries = sparse_xor_init(d, params["m"], params["n_heads"], params["init"],
                                    random_state=seed)
    return support, keys, queries


def population_outcome(model, d, seed, n_test, target):
    """The test accuracy of ``model``'s training run on infinite data (the exact population steps).

    The estimator's steps (number, length, attention) taken on the
    population loss (:func:`skxor.theory.population_step`) from the seed's
    own keys and initial queries (:func:`population_start`), then scored on
    uniform inputs: exactly when every head has a dominant position, else on
    up to ``n_test`` fresh inputs (sampling stops once the Wilson 95%
    interval excludes ``target``). The FFNN has no population step in the
    library: its outcome is NaN.

    Returns
    -------
    outcome : dict
        ``population_accuracy`` (NaN for the FFNN) and ``population_scoring``
        (``"exact"``, ``"sampled"`` or ``"none"``).

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.sample_complexity import population_outcome
    >>> population_outcome("transformer_one_step", 16, 0, 1000, 0.95)
    {'population_accuracy': 1.0, 'population_scoring': 'exact'}
    >>> population_outcome("transformer_one_step", 16, 7, 1000, 0.95)["population_accuracy"]
    0.5
    """
    if model == "ffnn":
        return {"population_accuracy": float("nan"), "population_scoring": "none"}
    support, keys, queries = population_start(model, d, seed)
    params = sample_complexity_estimator(model).get_params()
    if params["learning_rate"] == "normalized":
        step = {"step_length": params["step_length"]}
    else:
        step = {"learning_rate": params["learning_rate"]}
    for _ in range(params["max_iter"]):
        queries = population_step(queries, keys, support, params["attention"], **step)
    gamma = head_weights(keys, queries, params["attention"])
    # Fresh inputs, apart from the cell's data (as the one-step study scores).
    score = score_heads(gamma, support, n_test=n_test, random_state=10**6 + seed,
                        threshold=target)
    return {"population_accuracy": float(score["test_accuracy"]),
            "population_scoring": score["scoring"]}


def train_sizes(n_min, n_max, n_sizes):
    """Geometric grid of training sizes from n_min to n_max, rounded to whole samples."""
    return np.unique(np.rint(np.geomspace(n_min, n_max, n_sizes)).astype(int)).tolist()


def model_sizes(model, n_min, n_max, n_sizes, ffnn_n_max=None):
    """The training sizes of ``model``'s curve: the grid, cut at ``ffnn_n_max`` for the FFNN.

    The FFNN's epochs over n samples cost far more than a transformer's one
    pass, so its curve may stop earlier on the same grid (None: at n_max).

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.sample_complexity import model_sizes
    >>> model_sizes("ffnn", 100, 6400, 4, ffnn_n_max=1000)
    [100, 400]
    >>> model_sizes("transformer_one_step", 100, 6400, 4, ffnn_n_max=1000)
    [100, 400, 1600, 6400]
    """
    sizes = train_sizes(n_min, n_max, n_sizes)
    if model == "ffnn" and ffnn_n_max is not None:
        sizes = [s for s in sizes if s <= ffnn_n_max]
    return sizes


@cell_version(1, formerly="skxor.studies._sample_complexity._cells")
def sample_complexity_cell(model, d, seed, n_min, n_max, n_sizes, n_test, target,
                           ffnn_n_max=None):
    """One learning curve: test accuracy at each training size, and the population outcome.

    Returns
    -------
    result : dict
        ``n`` and ``accuracy`` (lists, one entry per training size),
        ``population_accuracy`` and ``population_scoring`` (the same
        training run on infinite data, :func:`population_outcome`; NaN and
        ``"none"`` for the FFNN), ``seconds`` (the whole cell) and
        ``floor_seconds`` (the fits and the scoring of the test split, as
        timed by ``learning_curve``).

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.sample_complexity import sample_complexity_cell
    >>> r = sample_complexity_cell("transformer_multi_step", 20, 0, 200, 4000, 3, 500, 0.95)
    >>> r["n"], r["floor_seconds"] <= r["seconds"], r["population_accuracy"]
    ([200, 894, 4000], True, 1.0)
    """
    start = time.perf_counter()
    sizes = model_sizes(model, n_min, n_max, n_sizes, ffnn_n_max)
    # The same data and split for every model: the FFNN's cut grid uses a prefix.
    X, y = make_sparse_parity(n_max + n_test, d, random_state=seed)
    split = ShuffleSplit(n_splits=1, test_size=n_test, random_state=seed)
    # learning_curve fits on prefixes of the training split; a prefix with one
    # class cannot be fitted (the smallest, n_min, is the likeliest).
    train = next(split.split(X))[0]
    for size in sizes:
        if np.unique(y[train[:size]]).size < 2:
            raise ValueError(
                f"n_min={n_min} is too small: the first {size} training samples of seed "
                f"{seed} (d={d}) hold one class only, and a classifier needs both; use "
                "n_min >= 16 (a random set of 16 holds one class with probability 2^-15)."
            )
    with single_thread():  # parallelism comes from n_jobs
        sizes_used, _, test_scores, fit_times, score_times = learning_curve(
            _estimator(model, seed), X, y, train_sizes=sizes, cv=split, shuffle=False,
            return_times=True,
        )
        population = population_outcome(model, d, seed, n_test, target)
    return {
        "n": [int(s) for s in sizes_used],
        "accuracy": test_scores[:, 0].tolist(),
        **population,
        "seconds": time.perf_counter() - start,
        "floor_seconds": float(np.sum(fit_times) + np.sum(score_times)),
    }


def sample_complexity_cost(cell):
    """The dry run's cost of a cell: ``(model, work)``, its fits at every training size."""
    sizes = model_sizes(cell["model"], cell["n_min"], cell["n_max"], cell["n_sizes"],
                        cell.get("ffnn_n_max"))
    return cell["model"], cell["d"] * (float(np.sum(sizes)) + len(sizes) * cell["n_test"])


def learning_curves(table, params):
    """The long table: one row per (model, d, seed, n) from the sweep's one row per curve.

    A curve's times stay on its first row (0 on the others), so that the
    column sums are the study's totals; ``target`` is the run's. The
    population outcome is repeated on every row of its curve, with
    ``population_success`` (1.0 when ``population_accuracy >= target``, else
    0.0; NaN for the FFNN, which has no population step).

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.han_ghoshdastidar.sample_complexity import learning_curves
    >>> wide = pd.DataFrame({"model": ["ffnn"], "d": [8], "seed": [0], "n_min": [10],
    ...                      "n_max": [20], "n_sizes": [2], "n_test": [5], "n": [[10, 20]],
    ...                      "accuracy": [[0.5, 1.0]], "seconds": [3.0],
    ...                      "floor_seconds": [2.0]})
    >>> learning_curves(wide, {"target": 0.9})[["n", "accuracy", "seconds"]].values.tolist()
    [[10.0, 0.5, 3.0], [20.0, 1.0, 0.0]]
    """
    long = table.explode(["n", "accuracy"], ignore_index=True)
    long = long.astype({"n": int, "accuracy": float})
    first = ~long.duplicated(["model", "d", "seed"], keep="first").to_numpy()
    for name in TIME_COLUMNS:
        long[name] = np.where(first, long[name].astype(float), 0.0)
    long["target"] = params["target"]
    # Recorded resolved (None: the FFNN's curves run to n_max), so that runs compare.
    long["ffnn_n_max"] = params.get("ffnn_n_max") or long["n_max"]
    population = []
    if "population_accuracy" in long:
        accuracy = long["population_accuracy"].astype(float)
        # 1.0 / 0.0, NaN where there is no population step: reads back from CSV as floats.
        long["population_success"] = (accuracy >= params["target"]).astype(float).where(
            accuracy.notna())
        population = ["population_accuracy", "population_scoring", "population_success"]
    return long[["model", "d", "seed", "n", "accuracy", *population, *SETTING_COLUMNS,
                 *TIME_COLUMNS]]
