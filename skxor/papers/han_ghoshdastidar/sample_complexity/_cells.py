"""The sample-complexity study's cells: one learning curve each, then the long table."""

import time

import numpy as np
from sklearn.model_selection import ShuffleSplit, learning_curve

from skxor.datasets import make_sparse_parity
from skxor.estimators import FFNNParityBaseline, KParityTransformer, SparseXORTransformer
from skxor.nn import sparse_xor_init
from skxor.theory import population_step
from ..._common import single_thread
from skxor.studies.reporting import TIME_COLUMNS
from skxor.studies import cell_version
from .._head_scoring import head_weights, score_heads
from ._summary import SETTING_COLUMNS

#: The models compared; each maps to an estimator factory in ``_estimator``.
#: ``k_parity`` (Han & Ghoshdastidar's first version's k-parity model) is run only
#: on request: no preset includes it.
MODELS = ("transformer_one_step", "transformer_multi_step", "ffnn", "k_parity")

#: The models that have a population step (the same steps on infinite data).
POPULATION_MODELS = ("transformer_one_step", "transformer_multi_step")


#: The estimator of each model, as named parameters (what the study fits).
#: ``transformer_multi_step``: five normalised steps of length 20 (measured:
#: 10/10 seeds at d = 100, n = 5000). ``ffnn``: a bounded budget, ``max_iter``
#: counting epochs (passes over the training set), with early stopping on a 10%
#: validation split. ``k_parity``: the authors' training (Adam, learning rate 0.1, up to
#: 2 000 full-batch epochs) in their label orientation, stopped at training accuracy 1.
#: Each model's heads (``n_heads``) are the parity's k (:func:`sample_complexity_estimator`).
ESTIMATOR_PARAMS = {
    "transformer_one_step": {"m": 32},
    "transformer_multi_step": {"m": 32, "max_iter": 5, "step_length": 20.0},
    "ffnn": {"max_iter": 20, "early_stopping": True},
    "k_parity": {"orientation": "odd", "target_accuracy": 1.0},
}

#: The models with heads: one head per bit of the parity (``n_heads = k``).
_HEADED = ("transformer_one_step", "transformer_multi_step", "k_parity")


def sample_complexity_estimator(model, random_state=None, k=2):
    """The estimator the sample-complexity study fits for ``model``.

    Parameters
    ----------
    model : {"transformer_one_step", "transformer_multi_step", "ffnn", "k_parity"}
    random_state : int or None, default=None
    k : int, default=2
        The parity's number of bits: the transformers and the k-parity model
        get ``n_heads=k`` (one head per bit); the FFNN does not depend on it.

    Returns
    -------
    estimator : SparseXORTransformer, FFNNParityBaseline or KParityTransformer
        Unfitted, with the parameters of :data:`ESTIMATOR_PARAMS`.

    Examples
    --------
    >>> from skxor.papers import sample_complexity_estimator
    >>> est = sample_complexity_estimator("transformer_multi_step", random_state=0)
    >>> {k: est.get_params()[k] for k in ("m", "max_iter", "step_length")}
    {'m': 32, 'max_iter': 5, 'step_length': 20.0}
    >>> sample_complexity_estimator("ffnn").get_params()["max_iter"]  # epochs
    20
    >>> sample_complexity_estimator("transformer_one_step", k=3).get_params()["n_heads"]
    3
    >>> type(sample_complexity_estimator("k_parity", k=3)).__name__
    'KParityTransformer'
    """
    if not isinstance(model, str) or model not in ESTIMATOR_PARAMS:
        raise ValueError(f"model must be one of {MODELS}; got {model!r}.")
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"k must be an int (the parity's number of bits); got "
                        f"{type(k).__name__}.")
    if k < 1:
        raise ValueError(f"k must be at least 1; got {k}.")
    factory = {"ffnn": FFNNParityBaseline, "k_parity": KParityTransformer}.get(
        model, SparseXORTransformer)
    heads = {"n_heads": int(k)} if model in _HEADED else {}
    return factory(**ESTIMATOR_PARAMS[model], **heads, random_state=random_state)


def _estimator(model, seed, k=2):
    return sample_complexity_estimator(model, random_state=seed, k=k)


def population_start(model, d, seed, k=2):
    """The support, frozen keys and initial queries of ``model``'s fit on seed ``seed``.

    The support is the one :func:`~skxor.datasets.make_sparse_parity` draws
    first from ``random_state=seed`` (the cell's data, a k-sparse parity);
    the keys and queries are the ones the estimator (``n_heads = k``) draws
    from ``random_state=seed`` at ``d`` features.

    Returns
    -------
    support : ndarray of shape (k,)
    keys : ndarray of shape (d, m)
    queries : ndarray of shape (k, m)

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.sample_complexity import population_start
    >>> support, keys, queries = population_start("transformer_one_step", 20, 0)
    >>> keys.shape, queries.shape
    ((20, 32), (2, 32))
    >>> population_start("transformer_one_step", 20, 0, k=3)[2].shape
    (3, 32)
    """
    if model not in POPULATION_MODELS:
        raise ValueError(f"model must be a transformer model with a population step, one "
                         f"of {POPULATION_MODELS}; got {model!r}.")
    params = sample_complexity_estimator(model, k=k).get_params()
    support = make_sparse_parity(1, d, k=k, return_support=True, random_state=seed)[2]
    keys, queries = sparse_xor_init(d, params["m"], params["n_heads"], params["init"],
                                    random_state=seed)
    return support, keys, queries


def population_outcome(model, d, seed, n_test, target, k=2):
    """The test accuracy of ``model``'s training run on infinite data (the exact population steps).

    The estimator's steps (number, length, attention) taken on the
    population loss (:func:`skxor.theory.population_step`) from the seed's
    own keys and initial queries (:func:`population_start`), then scored on
    uniform inputs: exactly when every head has a dominant position, else on
    up to ``n_test`` fresh inputs (sampling stops once the Wilson 95%
    interval excludes ``target``). The FFNN and the k-parity model have no
    population step in the library: their outcome is NaN. ``k`` is the
    parity's number of bits (and the transformer's heads).

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
    if model not in POPULATION_MODELS:
        return {"population_accuracy": float("nan"), "population_scoring": "none"}
    support, keys, queries = population_start(model, d, seed, k)
    params = sample_complexity_estimator(model, k=k).get_params()
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
                           ffnn_n_max=None, k=2):
    """One learning curve: test accuracy at each training size, and the population outcome.

    The data are a k-sparse parity (k = 2: sparse XOR) of ``d`` bits; the
    transformers and the k-parity model have k heads. Seed ``seed`` draws
    the data, the split and the estimator's initialisation.

    Returns
    -------
    result : dict
        ``n`` and ``accuracy`` (lists, one entry per training size),
        ``population_accuracy`` and ``population_scoring`` (the same
        training run on infinite data, :func:`population_outcome`; NaN and
        ``"none"`` for the FFNN and the k-parity model), ``seconds`` (the whole cell) and
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
    X, y = make_sparse_parity(n_max + n_test, d, k=k, random_state=seed)
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
            _estimator(model, seed, k), X, y, train_sizes=sizes, cv=split, shuffle=False,
            return_times=True,
        )
        population = population_outcome(model, d, seed, n_test, target, k)
    return {
        "n": [int(s) for s in sizes_used],
        "accuracy": test_scores[:, 0].tolist(),
        **population,
        "seconds": time.perf_counter() - start,
        "floor_seconds": float(np.sum(fit_times) + np.sum(score_times)),
    }


def sample_complexity_cost(cell):
    """The dry run's cost of a cell: ``(model, work)``, its fits at every training size.

    The k-parity model, never calibrated, is priced at the FFNN's rate
    (the study's costliest) times its epochs over the FFNN's, times its k
    heads: a rough upper figure.
    """
    sizes = model_sizes(cell["model"], cell["n_min"], cell["n_max"], cell["n_sizes"],
                        cell.get("ffnn_n_max"))
    work = cell["d"] * (float(np.sum(sizes)) + len(sizes) * cell["n_test"])
    if cell["model"] == "k_parity":
        work *= cell.get("k", 2) * KParityTransformer().max_iter / ESTIMATOR_PARAMS["ffnn"]["max_iter"]
    return cell["model"], work


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
    if "k" in long:  # a run at k = 2 has none: the columns of the runs before k was a parameter
        long["k"] = long["k"].astype(int)
    if "population_accuracy" in long:
        accuracy = long["population_accuracy"].astype(float)
        # 1.0 / 0.0, NaN where there is no population step: reads back from CSV as floats.
        long["population_success"] = (accuracy >= params["target"]).astype(float).where(
            accuracy.notna())
        population = ["population_accuracy", "population_scoring", "population_success"]
    settings = [c for c in SETTING_COLUMNS if c in long]
    return long[["model", "d", "seed", "n", "accuracy", *population, *settings,
                 *TIME_COLUMNS]]
