"""The parameter-scaling study's models and cells: one model of one size at one d and seed;
the sweep of rounds up each size grid.

The models and their recipes are described in the package documentation of
:mod:`skxor.papers.han_ghoshdastidar.parameter_scaling`.
"""

import math
import time

import numpy as np
import pandas as pd
import torch
from sklearn.utils import check_random_state

from skxor.boolean import SparseParity
from skxor.datasets import make_sparse_parity
from skxor.estimators import FFNNParityBaseline, SparseXORTransformer, count_parameters
from skxor.nn import SparseXORAttention, sparse_xor_init
from skxor.theory import population_step
from ..._common import single_thread
from skxor.studies import floor_work
from skxor.studies import cell_version, run_sweep

MODELS = ("transformer_population_one_step", "transformer_population", "transformer", "ffnn",
          "ffnn_random_features", "ffnn_online")

#: The name of each model's size parameter.
SIZE_NAMES = {"transformer": "m", "transformer_population": "m",
              "transformer_population_one_step": "m", "ffnn": "width",
              "ffnn_random_features": "width", "ffnn_online": "width"}

#: How each model is named in tables and figures (T: ``transformer_steps``).
DISPLAY_NAMES = {
    "transformer_population_one_step": "transformer, one step (population; the paper's setting)",
    "transformer_population": "transformer, T steps (population)",
    "transformer": "transformer, T steps (samples)",
    "ffnn": "FFNN, trained (samples)",
    "ffnn_random_features": "FFNN, random features (samples)",
    "ffnn_online": "FFNN, trained online (fresh samples each step)",
}

#: Models trained on the finite training sets (the rest use the population gradient).
SAMPLE_MODELS = ("transformer", "ffnn", "ffnn_random_features")

#: The size grid each model takes its sizes from.
GRIDS = {"transformer": "transformer_m", "transformer_population": "transformer_m",
         "transformer_population_one_step": "transformer_m", "ffnn": "ffnn_width",
         "ffnn_random_features": "rf_width", "ffnn_online": "online_width"}

#: Monitoring strings of an online FFNN: it stops once all of them are right,
#: and checks after every ``ONLINE_MONITOR / ffnn_batch_size`` steps.
ONLINE_MONITOR = 1024

def _normalised(params):
    """``params`` with the models in study order and the grids sorted, without repeats."""
    params = dict(params)
    params["model"] = [m for m in MODELS if m in params["model"]]
    for name in ("d", "transformer_m", "ffnn_width", "rf_width", "online_width"):
        if name in params:
            params[name] = sorted(int(v) for v in set(params[name]))
    return params


_FFNN_BUDGET = ("n_test", "ffnn_activation", "ffnn_batch_size", "ffnn_learning_rate")


def cell_budget(params, model, d):
    """The budget entries of a cell of ``model`` at ``d`` (steps, training set, epochs)."""
    if model == "transformer_population_one_step":
        return {"n_test": params["n_test"], "transformer_steps": 1,
                "step_length": params["one_step_length"]}
    transformer = {"n_test": params["n_test"], "transformer_steps":
                   params["transformer_steps"], "step_length": params["step_length"]}
    if model == "transformer_population":
        return transformer
    if model == "ffnn_online":
        return {"online_steps": online_steps(d, params["online_steps_min"],
                                             params["online_steps_per_d"]),
                **{k: params[k] for k in _FFNN_BUDGET}}
    n_train = training_size(d, params["n_train_min"], params["n_train_per_d2"])
    if model == "transformer":
        return {"n_train": n_train, **transformer}
    epochs = ffnn_epochs(n_train, params["ffnn_steps"], params["ffnn_batch_size"])
    return {"n_train": n_train, "ffnn_epochs": epochs, **{k: params[k] for k in _FFNN_BUDGET}}


def size_cell(params, model, d, index, seed):
    """The cell of ``model`` at ``d``, the ``index``-th size of its grid, and ``seed``."""
    return {"model": model, "d": d, "size": params[GRIDS[model]][index], "seed": seed,
            "random_state": int(params["random_state"]), **cell_budget(params, model, d)}


def searched(params):
    """The (model, d) pairs a run searches sizes for (sample models only up to
    ``samples_d_max``, the online FFNN up to ``online_d_max``), for ``params`` as
    :func:`_normalised` gives them."""
    d_max = {model: params["samples_d_max"] for model in SAMPLE_MODELS}
    d_max["ffnn_online"] = params["online_d_max"]
    return [(model, d) for model in params["model"] for d in params["d"]
            if d <= d_max.get(model, np.inf)]


def every_cell(params):
    """Every cell a run may try: each size of each grid (the search stops earlier).

    Eight FFNN widths in the quick preset, two seeds: 16 cells.

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.parameter_scaling import STUDY
    >>> from skxor.papers.han_ghoshdastidar.parameter_scaling._cells import every_cell
    >>> len(every_cell(STUDY.params("quick", {"model": ["ffnn"], "d": [16], "seeds": 2})))
    16
    """
    params = _normalised(params)
    return [size_cell(params, model, d, index, seed)
            for model, d in searched(params)
            for index in range(len(params[GRIDS[model]]))
            for seed in range(params["seeds"])]


def parameter_scaling_cost(cell):
    """The dry run's cost of a cell: ``(model, work)``, steps or epochs over its data."""
    d, size, n_test = cell["d"], cell["size"], cell["n_test"]
    if cell["model"] == "transformer_population_one_step":
        work = d * (size + n_test)
    elif cell["model"] == "transformer_population":
        work = d * (size * cell["transformer_steps"] + n_test)
    elif cell["model"] == "transformer":
        work = d * (cell["n_train"] * size * cell["transformer_steps"] + n_test)
    elif cell["model"] == "ffnn_online":
        # Per step: drawing and labelling a fresh batch (d bits each) and a fixed
        # overhead worth about 256 more bits; the width hardly counts at these sizes.
        # Priced at its budget: the calibration's slope carries the share of the
        # budget an average cell takes (a failing run takes all of it).
        work = cell["online_steps"] * (d + 256)
    else:
        work = d * (cell["n_train"] * size * cell["ffnn_epochs"] + n_test)
    return cell["model"], work


def cell_seeds(random_state, d, size, seed):
    """Seeds of one (d, size, seed) run, from ``(random_state, d, size, seed)``.

    Every size gets its own independent seeds; models of the same size share
    them (the same data and start).

    Returns
    -------
    support_seed, train_seed, test_seed, model_seed : int

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.parameter_scaling import cell_seeds
    >>> cell_seeds(0, 16, 4, 0) != cell_seeds(0, 16, 8, 0)
    True
    """
    state = np.random.SeedSequence([random_state, d, size, seed]).generate_state(4)
    return tuple(int(s) for s in state)


def training_size(d, n_train_min, n_train_per_d2):
    """Training-set size at d: ``max(n_train_min, ceil(n_train_per_d2 * d**2))``.

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.parameter_scaling import training_size
    >>> [training_size(d, 2048, 1.0) for d in (16, 64, 128)]
    [2048, 4096, 16384]
    """
    return max(int(n_train_min), math.ceil(n_train_per_d2 * d * d))


def ffnn_epochs(n_train, ffnn_steps, ffnn_batch_size):
    """Whole epochs for at least ``ffnn_steps`` mini-batch steps (at least one).

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.parameter_scaling import ffnn_epochs
    >>> [ffnn_epochs(n, 256, 128) for n in (2048, 16384, 65536)]
    [16, 2, 1]
    """
    steps_per_epoch = math.ceil(n_train / ffnn_batch_size)
    return max(1, math.ceil(ffnn_steps / steps_per_epoch))


def online_steps(d, online_steps_min, online_steps_per_d):
    """Step budget of an online FFNN at d: ``max(online_steps_min, online_steps_per_d * d)``.

    The cell runs it in whole checks of its monitoring set (the last check
    may end a few steps later).

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.parameter_scaling._cells import online_steps
    >>> [online_steps(d, 2048, 32) for d in (16, 512, 2048)]
    [2048, 16384, 65536]
    """
    return int(max(online_steps_min, online_steps_per_d * d))


def cell_data(d, size, n_train, n_test, random_state, seed):
    """Support, training set and test set of one (d, size, seed) run.

    The test set does not depend on ``n_train``, so the population rows
    (``n_train=0``) are scored on the same inputs as the finite-sample
    models of the same size.

    Returns
    -------
    support : ndarray of shape (2,)
    X_train, y_train, X_test, y_test : ndarray
    """
    support_seed, train_seed, test_seed, _ = cell_seeds(random_state, d, size, seed)
    support = np.sort(check_random_state(support_seed).choice(d, size=2, replace=False))
    if n_train > 0:
        X_train, y_train = make_sparse_parity(n_train, d, support=support, random_state=train_seed)
    else:
        X_train = np.empty((0, d), dtype=np.int8)
        y_train = np.empty(0, dtype=np.int64)
    X_test, y_test = make_sparse_parity(n_test, d, support=support, random_state=test_seed)
    return support, X_train, y_train, X_test, y_test


def transformer_start(d, m, seed):
    """Keys (d, m) and initial queries (2, m), drawn as the estimator draws them."""
    return sparse_xor_init(d, m, random_state=seed)  # the estimator's draw


def _population_cell(d, size, support, X_test, y_test, model_seed, steps, length):
    keys, queries = transformer_start(d, size, model_seed)
    for _ in range(steps):
        queries = population_step(queries, keys, support, step_length=length)
    model = SparseXORAttention(torch.as_tensor(keys), torch.as_tensor(queries))
    with torch.no_grad():
        f = model(torch.as_tensor(X_test, dtype=torch.float64)).numpy()
    return float(np.mean(np.where(f > 0, 1, -1) == y_test)), count_parameters(model), keys.size


@cell_version(1, formerly="skxor.studies._parameter_scaling._cells")
def parameter_scaling_cell(model, d, size, seed, random_state, n_train=0, **budget):
    """Train one model of one size at one d and seed; score it on the test set.

    Parameters
    ----------
    model : {"transformer_population_one_step", "transformer_population", \
"transformer", "ffnn", "ffnn_random_features"}
    d, size, seed, random_state : int
    n_train : int, default=0
        Training-set size (unused by the population rows).
    **budget
        The model's recipe: ``n_test``, then ``transformer_steps`` and
        ``step_length`` (transformers) or ``ffnn_activation``,
        ``ffnn_epochs``, ``ffnn_batch_size`` and ``ffnn_learning_rate``.

    Returns
    -------
    result : dict
        ``accuracy`` (test), ``params`` (trainable, via
        :func:`~skxor.count_parameters`), ``frozen`` (parameters kept at
        their random initialization), ``steps`` (gradient steps taken:
        population steps, the transformer's full-batch steps, the FFNNs'
        mini-batches) and ``seconds`` (wall time).
    """
    start = time.perf_counter()
    n_test = budget.pop("n_test")
    model_seed = cell_seeds(random_state, d, size, seed)[3]
    support, X, y, X_test, y_test = cell_data(
        d, size, n_train if model in SAMPLE_MODELS else 0, n_test, random_state, seed
    )
    with single_thread(), floor_work("fits (population steps) and test scoring"):
        if model in ("transformer_population", "transformer_population_one_step"):
            accuracy, params, frozen = _population_cell(
                d, size, support, X_test, y_test, model_seed, budget["transformer_steps"],
                budget["step_length"],
            )
            steps = budget["transformer_steps"]
        else:
            if model == "transformer":
                clf = SparseXORTransformer(
                    m=size, max_iter=budget["transformer_steps"],
                    step_length=budget["step_length"], random_state=model_seed,
                )
            elif model == "ffnn_online":
                clf, X, y = _online_ffnn(d, size, support, budget, model_seed, seed_of_monitor(
                    random_state, d, size, seed))
            else:
                clf = FFNNParityBaseline(
                    width=size, activation=budget["ffnn_activation"],
                    learning_rate=budget["ffnn_learning_rate"], max_iter=budget["ffnn_epochs"],
                    batch_size=budget["ffnn_batch_size"], random_state=model_seed,
                    train_hidden=model == "ffnn",
                )
            clf.fit(X, y)
            # Gradient steps taken (mini-batches for the FFNNs; the budget is stated beside them).
            steps = (int(sum(clf.history_[:, "train_batch_count"])) if model != "transformer"
                     else int(clf.n_iter_))
            accuracy, params = float(clf.score(X_test, y_test)), count_parameters(clf)
            frozen = clf.keys_.size if model == "transformer" else clf.n_frozen_parameters_
    return {"accuracy": accuracy, "params": int(params), "frozen": int(frozen), "steps": steps,
            "seconds": time.perf_counter() - start}


def seed_of_monitor(random_state, d, size, seed):
    """Seed of an online run's monitoring strings (apart from the four of :func:`cell_seeds`)."""
    return int(np.random.SeedSequence([random_state, d, size, seed, 1]).generate_state(1)[0])


def _online_ffnn(d, size, support, budget, model_seed, monitor_seed):
    """An online FFNN (fresh strings every step) and its monitoring strings, labelled."""
    steps_per_check = ONLINE_MONITOR // budget["ffnn_batch_size"]
    X, y = make_sparse_parity(ONLINE_MONITOR, d, support=support, random_state=monitor_seed)
    clf = FFNNParityBaseline(
        width=size, activation=budget["ffnn_activation"],
        learning_rate=budget["ffnn_learning_rate"], batch_size=budget["ffnn_batch_size"],
        max_iter=-(-budget["online_steps"] // steps_per_check), random_state=model_seed,
        target_function=SparseParity(d, support), target_accuracy=1.0,
    )
    return clf, X, y


def size_rounds(params, *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None):
    """The study's cells, run in rounds: each (model, d) goes up its size grid until the
    rule is met and ``sizes_beyond`` more sizes are run; one row per cell."""
    params = _normalised(params)
    # Per (model, d): the position in its size grid, and where the rule was first met.
    pending = {key: 0 for key in searched(params)}
    first_met = {}
    rounds = []
    while pending:
        cells = [size_cell(params, model, d, index, seed)
                 for (model, d), index in pending.items()
                 for seed in range(params["seeds"])]
        done = run_sweep(
            parameter_scaling_cell, cells, study="parameter_scaling",
            checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
            scheduler=scheduler,
        )
        rounds.append(done)
        met = (done["accuracy"] >= params["threshold"]).groupby(
            [done["model"], done["d"]]).mean() >= params["success_share"] - 1e-12
        for key in list(pending):
            index = pending[key]
            if met.get(key, False) and key not in first_met:
                first_met[key] = index
            last = len(params[GRIDS[key[0]]]) - 1
            if index == last or index >= first_met.get(key, np.inf) + params["sizes_beyond"]:
                del pending[key]
            else:
                pending[key] = index + 1
    columns = ["model", "d", "size", "seed", "n_train", "accuracy", "params", "frozen",
               "steps", "seconds"]
    if not rounds:
        return pd.DataFrame(columns=columns)
    cells = pd.concat(rounds, ignore_index=True)
    cells["n_train"] = cells.get("n_train", pd.Series(0, index=cells.index))
    cells["n_train"] = cells["n_train"].fillna(0).astype(int)
    return cells[columns]
