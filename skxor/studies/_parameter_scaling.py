"""Parameter efficiency: trainable parameters needed for sparse XOR against d.

Han & Ghoshdastidar (2025, arXiv 2502.07553) prove that a one-layer softmax
transformer learns the 2-sparse XOR of d bits with ``n_heads * m =
O(polylog d)`` trainable parameters, while any two-layer feed-forward
network has at least ``d + 3``. This study measures how many trainable
parameters each model needs, against d, like for like.

Models (one recipe each, the same for every d, size and seed)
--------------------------------------------------------------
* ``"transformer"`` -- :class:`~skxor.SparseXORTransformer`, 2 softmax heads,
  size m, ``2 m`` trainable parameters (the queries; the keys are frozen).
  ``transformer_steps`` (5) normalised full-batch gradient steps of length
  ``step_length`` (20) on the training set. Five short steps need far fewer
  samples than the theorem's single step of length 100 (see the sample
  complexity study), so the finite training sets below suffice for them.
* ``"transformer_population"`` -- the same network, the same keys and initial
  queries (drawn as the estimator draws them) and the same steps, but each
  step follows the exact population gradient
  (:func:`skxor.theory.population_step`): infinite data. A reference for what
  the architecture needs when samples are not the limit; it never sees the
  training set.
* ``"ffnn"`` -- :class:`~skxor.FFNNParityBaseline`, two-layer, ReLU, size =
  width, ``width (d + 2) + 1`` trainable parameters. Adam, learning rate
  ``ffnn_learning_rate`` (0.01), mini-batches of ``ffnn_batch_size`` (128),
  logistic loss, whole epochs until at least ``ffnn_steps`` (256) mini-batch
  steps are taken (at least one epoch).

Like for like
-------------
For each d and seed, the two finite-sample models are trained on the **same**
training set of ``n(d) = max(n_train_min, ceil(n_train_per_d2 * d**2))``
uniform inputs (``max(2048, d**2)``), labelled by the same random support,
from the same model seed; all three models are scored on the same test set
of ``n_test`` (5000) fresh inputs. The rule is set by the transformer, the
more sample-hungry of the two (see the sample-complexity study in
``docs/results/measured.rst``): its samples needed grow faster than linearly
in d, and ``d**2`` keeps ahead of them over the d run here, so that neither
model is starved of data and what limits it is its size. Whether that holds
is visible in the results: the transformer (samples) row should need about
the same m as the population reference. The finite-sample models run only up to
``samples_d_max`` (their data grow like ``d**2``); the population reference
runs at every d.

What "needed" means
-------------------
Sizes are tried upwards from the smallest meaningful one (m = 1, width 1),
separately for every seed; a seed's scan stops at the first size whose test
accuracy is at least ``threshold`` (0.99): its *minimal size* (none if no
size in the grid reaches it). The size **needed** at d is the smallest size
by which at least ``success_share`` (80%) of the seeds have reached the
threshold (that is, at that size or a smaller one) -- the 80% quantile of the
per-seed minimal sizes. Its ``success_rate`` is the share of seeds that had
reached it by then, with its Wilson 95% interval; a (model, d) for which
fewer than 80% of seeds reach the threshold anywhere in the grid is reported
as not reached (NaN size, and the share reached within the grid).

Growth with d is the least-squares slope of log(per-seed minimal parameter
count) against log(d), over every seed that reached the threshold, with a
bootstrap 95% interval over seeds (:func:`~skxor.studies._stats.
bootstrap_loglog_slope`; the number of points is reported). About 1 means
Omega(d), about 0 polylogarithmic.

Each cell (model, d, size, seed) draws its support, training set, test set
and model from seeds derived from ``(random_state, d, seed)``
(:func:`cell_seeds`), so every model and size sees the same data for a given
(d, seed). Measured results are in ``docs/results/measured.rst``.
"""

import json
import math
import time
from numbers import Real

import numpy as np
import pandas as pd
import torch
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions

from ..datasets import make_sparse_parity
from ..estimators import FFNNParityBaseline, SparseXORTransformer, count_parameters
from ..nn import SparseXORAttention, sparse_xor_init
from ..theory import population_step
from ._common import Study, single_thread
from ._figures import interval_errors, log_axis, offset
from ._floor import floor_work
from ._parameters import AT_LEAST_TWO, POSITIVE, SEEDS, Grid, estimator_parameters
from ._stats import bootstrap_loglog_slope, format_interval, wilson_interval
from ._sweep import run_sweep

MODELS = ("transformer", "transformer_population", "ffnn")

#: The name of each model's size parameter.
SIZE_NAMES = {"transformer": "m", "transformer_population": "m", "ffnn": "width"}

#: How each model is named in tables and figures.
DISPLAY_NAMES = {
    "transformer": "transformer (samples)",
    "transformer_population": "transformer (population)",
    "ffnn": "FFNN (samples)",
}

#: Models trained on the finite training sets (the rest use the population gradient).
SAMPLE_MODELS = ("transformer", "ffnn")

_SHARE = Interval(Real, 0, 1, closed="right")

#: Every parameter of the study and the values it accepts.
PARAMETERS = {
    "model": [Grid(StrOptions(set(MODELS)))],
    # The XOR of two of the d bits.
    "d": [Grid(AT_LEAST_TWO)],
    "samples_d_max": [AT_LEAST_TWO],
    **SEEDS,
    "threshold": [_SHARE],
    "success_share": [_SHARE],
    "n_test": [POSITIVE],
    "n_train_min": [POSITIVE],
    # Finite: (0, inf) open at both ends.
    "n_train_per_d2": [Interval(Real, 0, None, closed="neither")],
    "transformer_m": [Grid(POSITIVE)],
    "transformer_steps": [POSITIVE],
    "step_length": [Interval(Real, 0, None, closed="neither")],
    "ffnn_width": [Grid(POSITIVE)],
    "ffnn_steps": [POSITIVE],
    "ffnn_batch_size": [POSITIVE],
    # The estimator's own constraints for what is passed to it unchanged.
    **estimator_parameters(FFNNParityBaseline, ("activation", "learning_rate"), prefix="ffnn_"),
}

PRESETS = {
    "quick": dict(
        model=list(MODELS),
        d=[16, 32, 64, 128],
        samples_d_max=128,
        seeds=5,
        threshold=0.99,
        success_share=0.8,
        n_test=5000,
        n_train_min=2048,
        n_train_per_d2=1.0,
        transformer_m=[1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64],
        transformer_steps=5,
        step_length=20.0,
        ffnn_width=[1, 2, 3, 4, 6, 8, 12, 16],
        ffnn_activation="relu",
        ffnn_steps=256,
        ffnn_batch_size=128,
        ffnn_learning_rate=0.01,
        random_state=0,
    ),
    # Only the differences from quick: finite samples to d = 256 (65 536
    # training inputs), the population reference on to d = 8192, 10 seeds.
    "full": dict(
        d=[16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192],
        samples_d_max=256,
        seeds=10,
    ),
}


def _check(params):
    # Rules between parameters: something must be left to run.
    population = "transformer_population" in params["model"]
    if not population and min(params["d"]) > params["samples_d_max"]:
        raise ValueError(
            f"nothing to run: every d ({sorted(params['d'])}) exceeds "
            f"samples_d_max={params['samples_d_max']}, beyond which only the "
            "'transformer_population' model runs, and model does not include it."
        )


def _normalised(params):
    """``params`` with the models in study order and the grids sorted, without repeats."""
    params = dict(params)
    params["model"] = [m for m in MODELS if m in params["model"]]
    for name in ("d", "transformer_m", "ffnn_width"):
        params[name] = sorted(int(v) for v in set(params[name]))
    return params


_TRANSFORMER_BUDGET = ("n_test", "transformer_steps", "step_length")
_FFNN_BUDGET = ("n_test", "ffnn_activation", "ffnn_batch_size", "ffnn_learning_rate")


def cell_seeds(random_state, d, seed):
    """Seeds of one (d, seed) instance, from ``(random_state, d, seed)``.

    Returns
    -------
    support_seed, train_seed, test_seed, model_seed : int
    """
    state = np.random.SeedSequence([random_state, d, seed]).generate_state(4)
    return tuple(int(s) for s in state)


def training_size(d, n_train_min, n_train_per_d2):
    """Training-set size at d: ``max(n_train_min, ceil(n_train_per_d2 * d**2))``.

    Examples
    --------
    >>> from skxor.studies._parameter_scaling import training_size
    >>> [training_size(d, 2048, 1.0) for d in (16, 64, 128)]
    [2048, 4096, 16384]
    """
    return max(int(n_train_min), math.ceil(n_train_per_d2 * d * d))


def ffnn_epochs(n_train, ffnn_steps, ffnn_batch_size):
    """Whole epochs for at least ``ffnn_steps`` mini-batch steps (at least one).

    Examples
    --------
    >>> from skxor.studies._parameter_scaling import ffnn_epochs
    >>> [ffnn_epochs(n, 256, 128) for n in (2048, 16384, 65536)]
    [16, 2, 1]
    """
    steps_per_epoch = math.ceil(n_train / ffnn_batch_size)
    return max(1, math.ceil(ffnn_steps / steps_per_epoch))


def cell_data(d, n_train, n_test, random_state, seed):
    """Support, training set and test set of one (d, seed) instance.

    The test set does not depend on ``n_train``, so the population reference
    (``n_train=0``) is scored on the same inputs as the finite-sample models.

    Returns
    -------
    support : ndarray of shape (2,)
    X_train, y_train, X_test, y_test : ndarray
    """
    support_seed, train_seed, test_seed, _ = cell_seeds(random_state, d, seed)
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


def _population_cell(d, size, support, X_test, y_test, model_seed, transformer_steps, step_length):
    keys, queries = transformer_start(d, size, model_seed)
    for _ in range(transformer_steps):
        queries = population_step(queries, keys, support, step_length=step_length)
    model = SparseXORAttention(torch.as_tensor(keys), torch.as_tensor(queries))
    with torch.no_grad():
        f = model(torch.as_tensor(X_test, dtype=torch.float64)).numpy()
    return float(np.mean(np.where(f > 0, 1, -1) == y_test)), count_parameters(model)


def parameter_scaling_cell(model, d, size, seed, random_state, n_train=0, **budget):
    """Train one model of one size at one d and seed; score it on the test set.

    Parameters
    ----------
    model : {"transformer", "transformer_population", "ffnn"}
    d, size, seed, random_state : int
    n_train : int, default=0
        Training-set size (unused by the population reference).
    **budget
        The model's recipe: ``n_test``, then ``transformer_steps`` and
        ``step_length`` (transformers) or ``ffnn_activation``,
        ``ffnn_epochs``, ``ffnn_batch_size`` and ``ffnn_learning_rate``.

    Returns
    -------
    result : dict
        ``accuracy`` (test), ``params`` (trainable, via
        :func:`~skxor.count_parameters`) and ``seconds`` (wall time).
    """
    start = time.perf_counter()
    n_test = budget.pop("n_test")
    model_seed = cell_seeds(random_state, d, seed)[3]
    support, X, y, X_test, y_test = cell_data(
        d, n_train if model in SAMPLE_MODELS else 0, n_test, random_state, seed
    )
    with single_thread(), floor_work("fits (population steps) and test scoring"):
        if model == "transformer_population":
            accuracy, params = _population_cell(
                d, size, support, X_test, y_test, model_seed, **budget
            )
        else:
            if model == "transformer":
                clf = SparseXORTransformer(
                    m=size, max_iter=budget["transformer_steps"],
                    step_length=budget["step_length"], random_state=model_seed,
                )
            else:
                clf = FFNNParityBaseline(
                    width=size, activation=budget["ffnn_activation"],
                    learning_rate=budget["ffnn_learning_rate"], max_iter=budget["ffnn_epochs"],
                    batch_size=budget["ffnn_batch_size"], random_state=model_seed,
                )
            clf.fit(X, y)
            accuracy, params = float(clf.score(X_test, y_test)), count_parameters(clf)
    return {"accuracy": accuracy, "params": int(params), "seconds": time.perf_counter() - start}


def parameter_scaling(
    preset="quick",
    *,
    checkpoint_dir=None,
    n_jobs=None,
    progress=False,
    scheduler=None,
    **overrides,
):
    """Trainable parameters needed for 99% test accuracy against d, like for like.

    Every seed of every (model, d) tries sizes from the smallest upwards (one
    :func:`~skxor.studies.run_sweep` round per step, all unresolved seeds
    together) until its test accuracy reaches ``threshold``. The models,
    their recipes, the shared training and test sets and the rule for the
    size "needed" are described in the module documentation.

    Parameters
    ----------
    preset : {"quick", "full"}, default="quick"
        ``quick``: d in {16, 32, 64, 128}, all three models, 5 seeds (rough;
        about half a minute on one core). ``full``: finite samples for d up to
        256, the population reference up to d = 8192, 10 seeds.
    checkpoint_dir : str or path-like or None, default=None
        Where finished cells are stored and reused on rerun.
    n_jobs : int or None, default=None
        joblib workers for the cells.
    progress : bool, default=False
        Show a progress bar per round.
    scheduler : str, distributed.Client or None, default=None
        dask.distributed scheduler for the cells.
    **overrides
        Replace preset entries: ``random_state`` (int, default 0: the root of
        every cell's data and model seeds), ``model`` (list of "transformer",
        "transformer_population", "ffnn"), ``d``, ``samples_d_max`` (the
        finite-sample models skip larger d), ``seeds``, ``threshold``,
        ``success_share``, ``n_test``, ``n_train_min``, ``n_train_per_d2``,
        ``transformer_m`` and ``ffnn_width`` (the size grids),
        ``transformer_steps``, ``step_length``, ``ffnn_activation``,
        ``ffnn_steps``, ``ffnn_batch_size``, ``ffnn_learning_rate``.

    Returns
    -------
    results : pandas.DataFrame
        One row per (model, d), see :func:`summarize_parameter_scaling`.
        ``results.attrs`` holds ``cells`` (every cell as a list of records:
        one per model, d, size and seed tried) and ``params`` (the
        parameters used).

    Examples
    --------
    >>> from skxor.studies import parameter_scaling
    >>> df = parameter_scaling(model=["transformer_population"], d=[16, 64], seeds=3,
    ...                        transformer_m=[2, 8, 32], n_test=2000)
    >>> df[["d", "size", "params", "seeds_reached"]].to_dict("list")
    {'d': [16, 64], 'size': [8.0, 8.0], 'params': [16.0, 16.0], 'seeds_reached': [3, 3]}
    """
    return STUDY.run(
        preset, checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
        scheduler=scheduler, **overrides,
    )


def _compute(params, *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None):
    params = _normalised(params)
    random_state = params["random_state"]
    grids = {
        "transformer": params["transformer_m"],
        "transformer_population": params["transformer_m"],
        "ffnn": params["ffnn_width"],
    }

    def budget(model, d):
        if model == "transformer_population":
            return {k: params[k] for k in _TRANSFORMER_BUDGET}
        n_train = training_size(d, params["n_train_min"], params["n_train_per_d2"])
        if model == "transformer":
            return {"n_train": n_train, **{k: params[k] for k in _TRANSFORMER_BUDGET}}
        epochs = ffnn_epochs(n_train, params["ffnn_steps"], params["ffnn_batch_size"])
        return {"n_train": n_train, "ffnn_epochs": epochs, **{k: params[k] for k in _FFNN_BUDGET}}

    # Position in the size grid of every (model, d, seed) still being searched.
    pending = {
        (model, d, seed): 0
        for model in params["model"]
        for d in params["d"]
        if model == "transformer_population" or d <= params["samples_d_max"]
        for seed in range(params["seeds"])
    }
    rounds = []
    while pending:
        cells = [
            {
                "model": model, "d": d, "size": grids[model][index], "seed": seed,
                "random_state": int(random_state), **budget(model, d),
            }
            for (model, d, seed), index in pending.items()
        ]
        done = run_sweep(
            parameter_scaling_cell, cells, study="parameter_scaling",
            checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
            scheduler=scheduler,
        )
        rounds.append(done)
        for row in done.itertuples():
            key = (row.model, row.d, row.seed)
            if row.accuracy >= params["threshold"] or pending[key] + 1 == len(grids[row.model]):
                del pending[key]
            else:
                pending[key] += 1
    columns = ["model", "d", "size", "seed", "n_train", "accuracy", "params", "seconds"]
    if rounds:
        cells = pd.concat(rounds, ignore_index=True)
        cells["n_train"] = cells.get("n_train", pd.Series(0, index=cells.index))
        cells["n_train"] = cells["n_train"].fillna(0).astype(int)
        cells = cells[columns]
    else:
        cells = pd.DataFrame(columns=columns)
    summary = summarize_parameter_scaling(
        cells, params["threshold"], params["success_share"], params["seeds"]
    )
    # Records and plain dicts, not DataFrames: pandas compares attrs with ==
    # when concatenating.
    summary.attrs["cells"] = cells.to_dict("records")
    summary.attrs["params"] = {k: v for k, v in params.items()}
    return summary


def per_seed_minimum(cells, threshold):
    """Each seed's minimal size reaching ``threshold`` (NaN if none), per (model, d).

    Parameters
    ----------
    cells : pandas.DataFrame
        The cells of :func:`parameter_scaling` (``results.attrs["cells"]``).
    threshold : float

    Returns
    -------
    minima : pandas.DataFrame
        One row per (model, d, seed): ``size`` and ``params`` of the smallest
        size tried whose test accuracy reached the threshold (NaN if none).
    """
    cells = pd.DataFrame(cells)
    rows = []
    for (model, d, seed), group in cells.groupby(["model", "d", "seed"], sort=True):
        hit = group[group["accuracy"] >= threshold].sort_values("size")
        rows.append({
            "model": model, "d": int(d), "seed": int(seed),
            "size": float(hit["size"].iloc[0]) if len(hit) else np.nan,
            "params": float(hit["params"].iloc[0]) if len(hit) else np.nan,
        })
    return pd.DataFrame(rows, columns=["model", "d", "seed", "size", "params"])


def _json_list(values):
    return json.dumps([None if not np.isfinite(v) else int(v) for v in values])


def seed_minima(df):
    """Each seed's minimal size and parameter count, per (model, d), from the table.

    Read from the ``seed_sizes`` and ``seed_params`` columns, so it works on
    a table read back from ``parameter_scaling.csv`` (with rows merged from
    several runs) as well as on a fresh result. Rows without them (merged
    from a table an older skxor wrote) contribute no seeds.

    Returns
    -------
    minima : pandas.DataFrame
        As :func:`per_seed_minimum`: one row per (model, d, seed) with
        ``size`` and ``params`` (NaN where the seed never reached the
        threshold).
    """
    rows = []
    for row in df.itertuples():
        if not isinstance(row.seed_sizes, str):
            continue  # a row merged from a table written without per-seed columns
        sizes, params = json.loads(row.seed_sizes), json.loads(row.seed_params)
        for seed, (size, count) in enumerate(zip(sizes, params)):
            rows.append({
                "model": row.model, "d": int(row.d), "seed": seed,
                "size": np.nan if size is None else float(size),
                "params": np.nan if count is None else float(count),
            })
    return pd.DataFrame(rows, columns=["model", "d", "seed", "size", "params"])


def summarize_parameter_scaling(cells, threshold, success_share, n_seeds):
    """One row per (model, d) from the per-cell results.

    Returns
    -------
    table : pandas.DataFrame
        ``d``, ``model``, ``params`` and ``size`` (the size needed and its
        trainable-parameter count; NaN when fewer than ``success_share`` of
        the seeds reach ``threshold`` within the grid), ``size_name``,
        ``n_train`` (0 for the population reference), ``seeds``,
        ``seeds_reached`` (seeds that reached the threshold by that size, or
        anywhere in the grid when not reached), ``success_rate`` with its
        Wilson 95% interval ``success_low``, ``success_high``,
        ``median_size`` (median of the per-seed minimal sizes; NaN when more
        than half the seeds never reach), ``reached``, ``seconds``
        (compute time of all the cells), and ``seed_sizes`` and
        ``seed_params``: each seed's minimal size and parameter count (JSON
        lists in seed order, null where the seed never reached the
        threshold), so that the figure and the slopes need only the table.
    """
    cells = pd.DataFrame(cells)
    minima = per_seed_minimum(cells, threshold) if len(cells) else None
    need = math.ceil(success_share * n_seeds - 1e-9)
    rows = []
    for (model, d), group in (cells.groupby(["model", "d"], sort=True) if len(cells) else []):
        sizes = minima[(minima["model"] == model) & (minima["d"] == d)]["size"].to_numpy()
        finite = np.sort(sizes[np.isfinite(sizes)])
        ok = finite.size >= need
        size = float(finite[need - 1]) if ok else np.nan
        k = int((finite <= size).sum()) if ok else int(finite.size)
        low, high = wilson_interval(k, n_seeds)
        params = group.loc[group["size"] == size, "params"]
        median = np.median(np.where(np.isfinite(sizes), sizes, np.inf))
        seed_rows = minima[(minima["model"] == model) & (minima["d"] == d)]
        rows.append({
            "d": int(d),
            "model": model,
            "params": float(params.iloc[0]) if ok else np.nan,
            "size": size,
            "size_name": SIZE_NAMES[model],
            "n_train": int(group["n_train"].iloc[0]),
            "seeds": int(n_seeds),
            "seeds_reached": k,
            "success_rate": k / n_seeds,
            "success_low": low,
            "success_high": high,
            "median_size": float(median) if np.isfinite(median) else np.nan,
            "reached": bool(ok),
            "seconds": float(group["seconds"].sum()),
            "seed_sizes": _json_list(seed_rows["size"]),
            "seed_params": _json_list(seed_rows["params"]),
        })
    order = {model: i for i, model in enumerate(MODELS)}
    table = pd.DataFrame(rows, columns=[
        "d", "model", "params", "size", "size_name", "n_train", "seeds", "seeds_reached",
        "success_rate", "success_low", "success_high", "median_size", "reached", "seconds",
        "seed_sizes", "seed_params",
    ])
    table = table.sort_values(
        ["model", "d"], key=lambda s: s.map(order) if s.name == "model" else s
    )
    return table.reset_index(drop=True)


def parameter_slopes(df, d_max=None, n_boot=2000):
    """Log-log slope of the per-seed minimal parameter count against d, per model.

    Least squares over every (d, seed) whose seed reached the threshold, with
    a bootstrap 95% interval over seeds
    (:func:`~skxor.studies._stats.bootstrap_loglog_slope`).

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`parameter_scaling` (its ``seed_params`` column).
    d_max : int or None, default=None
        Use only d <= d_max (to compare models over the same d).
    n_boot : int, default=2000

    Returns
    -------
    slopes : dict of str to dict
        Per model: ``slope``, ``low``, ``high``, ``n_points``, ``n_groups``
        (seeds), ``n_d`` (distinct d) and ``d_min``, ``d_max``.
    """
    minima = seed_minima(df)
    if d_max is not None:
        minima = minima[minima["d"] <= d_max]
    slopes = {}
    for model in [m for m in MODELS if m in set(df["model"])]:
        rows = minima[(minima["model"] == model) & np.isfinite(minima["params"])]
        fit = bootstrap_loglog_slope(rows["d"], rows["params"], groups=rows["seed"], n_boot=n_boot)
        fit["n_d"] = int(rows["d"].nunique())
        fit["d_min"] = int(rows["d"].min()) if len(rows) else 0
        fit["d_max"] = int(rows["d"].max()) if len(rows) else 0
        slopes[model] = fit
    return slopes


def _samples_d_max(df):
    sample_d = df.loc[df["model"].isin(SAMPLE_MODELS), "d"]
    return int(sample_d.max()) if len(sample_d) else None


def _setting(df):
    """One line for titles: the preset the parameters match best, what differs, seeds.

    Derived from ``df.attrs["params"]`` (the parameters the study ran with),
    so it reads the same whether the table came from
    :func:`parameter_scaling` or from ``skxor run``.
    """
    seeds = int(df["seeds"].iloc[0]) if len(df) else 0
    params = df.attrs.get("params") or ("setting" in df and len(df) and _run_params(df))
    if not params:
        return f"{seeds} seeds"
    params = _normalised(params)
    differences = {
        name: [k for k in PARAMETERS if params.get(k) != preset.get(k)]
        for name, preset in ((n, _normalised(STUDY.preset(n))) for n in PRESETS)
    }
    preset = min(differences, key=lambda name: len(differences[name]))
    text = f"{preset} preset"
    if differences[preset]:
        text += " with " + ", ".join(differences[preset]) + " overridden"
    return f"{text}, {seeds} seeds"


def plot_parameter_scaling(df):
    """Parameters needed against d (log-log) and the share of seeds reaching 99%.

    Left: each seed's minimal parameter count (small points), the count
    needed by 80% of the seeds (large markers), and each model's fitted
    log-log slope with its bootstrap 95% band; as references, the ``d + 3``
    lower bound of any two-layer network and a curve proportional to log d.
    Right: the share of seeds that reached the threshold by the size needed,
    with Wilson 95% intervals.
    Series are offset slightly along d so coinciding points stay visible.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`parameter_scaling`.

    Returns
    -------
    figures : dict of str to matplotlib.figure.Figure
        ``{"parameter_scaling": figure}``.

    Examples
    --------
    >>> from skxor.studies import parameter_scaling, plot_parameter_scaling
    >>> df = parameter_scaling(model=["transformer_population"], d=[16, 64], seeds=3,
    ...                        transformer_m=[2, 8, 32], n_test=2000)
    >>> fig = plot_parameter_scaling(df)["parameter_scaling"]
    >>> parameters, shares = fig.axes
    >>> [text.get_text() for text in shares.get_legend().get_texts()]
    ['reference: the 80% rule', 'transformer (population)']
    >>> for text in parameters.get_legend().get_texts()[:2]:
    ...     print(text.get_text())
    transformer (population): each seed's minimum
    transformer (population): needed (80% of seeds)
    """
    from matplotlib.figure import Figure  # lazily: matplotlib is optional

    params = _run_params(df)
    threshold = params.get("threshold", 0.99)
    share = params.get("success_share", 0.8)
    slopes = parameter_slopes(df)
    minima = seed_minima(df)
    style = {
        "transformer": dict(color="C0", marker="o", ls="-"),
        "transformer_population": dict(color="C2", marker="s", ls="--"),
        "ffnn": dict(color="C3", marker="^", ls="-."),
    }
    fig = Figure(figsize=(11.0, 6.4), layout="constrained")
    ax, ax_share = fig.subplots(1, 2, width_ratios=[3, 2])
    models = [m for m in MODELS if m in set(df["model"])]
    for i, model in enumerate(models):
        shift = float(offset(1.0, i, len(models), base=1.06, spread=1.0))
        name, st = DISPLAY_NAMES[model], style[model]
        rows = df[df["model"] == model]
        seeds = minima[(minima["model"] == model) & np.isfinite(minima["params"])]
        if len(seeds):
            ax.plot(seeds["d"] * shift, seeds["params"], ls="none", marker=st["marker"],
                    color=st["color"], ms=3.5, alpha=0.35, label=f"{name}: each seed's minimum")
        reached = rows[rows["reached"]]
        if len(reached):
            ax.plot(reached["d"] * shift, reached["params"], ls=st["ls"], marker=st["marker"],
                    color=st["color"], ms=7, mfc="white", mew=1.5,
                    label=f"{name}: needed ({share:.0%} of seeds)")
        fit = slopes[model]
        if np.isfinite(fit["slope"]):
            d = seeds["d"].to_numpy(dtype=float)
            logp = np.log(seeds["params"].to_numpy(dtype=float))
            grid = np.geomspace(d.min(), d.max(), 50)
            centre_d, centre_p = np.mean(np.log(d)), np.mean(logp)

            def line(a, centre_d=centre_d, centre_p=centre_p, grid=grid):
                return np.exp(centre_p + a * (np.log(grid) - centre_d))

            ax.plot(grid, line(fit["slope"]), color=st["color"], lw=1, ls=":",
                    label=f"{name}: fit, slope "
                          f"{format_interval(fit['slope'], fit['low'], fit['high'])}")
            if np.isfinite(fit["low"]):
                lo, hi = line(fit["low"]), line(fit["high"])
                ax.fill_between(grid, np.minimum(lo, hi), np.maximum(lo, hi),
                                color=st["color"], alpha=0.12, lw=0)
        ax_share.errorbar(
            rows["d"] * shift, rows["success_rate"],
            yerr=interval_errors(rows["success_rate"], rows["success_low"],
                                 rows["success_high"]),
            ls=st["ls"], marker=st["marker"], color=st["color"], capsize=3, label=name,
        )
    d_all = np.unique(df["d"].to_numpy(dtype=float))
    if d_all.size:
        ax.plot(d_all, d_all + 3, color="grey", lw=1, ls=(0, (6, 3)),
                label="reference: d + 3 (any two-layer network)")
        anchor = df[df["reached"] & (df["model"] != "ffnn")].sort_values("d")
        if len(anchor):  # through the first transformer point, to compare shapes
            d0, p0 = float(anchor["d"].iloc[0]), float(anchor["params"].iloc[0])
            ax.plot(d_all, p0 * np.log(d_all) / np.log(d0), color="black", lw=1,
                    ls=(0, (1, 2)), label="reference: proportional to log d")
    ax_share.axhline(share, color="grey", lw=1, ls=(0, (6, 3)),
                     label=f"reference: the {share:.0%} rule")
    for a in (ax, ax_share):
        # Label exactly the d values run; log-scale minor labels would collide.
        log_axis(a, d_all, label="input length d")
    ax.set_yscale("log")
    ax.set_ylabel(f"trainable parameters for {threshold:.0%} test accuracy")
    ax_share.set_ylabel(f"share of seeds reaching {threshold:.0%} by the size needed")
    ax_share.set_ylim(-0.03, 1.03)
    # Below the axes: inside, it would hide the FFNN's points at large d.
    ax.legend(fontsize="x-small", loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2)
    ax_share.legend(fontsize="x-small", loc="lower left")
    ax_share.set_title("Wilson 95% intervals", fontsize="small")
    ax.set_title("bands: bootstrap 95% over seeds", fontsize="small")
    samples = _samples_d_max(df)
    n_rule = (f"max({params.get('n_train_min')}, {_coef(params.get('n_train_per_d2'))}d²)"
              if params else "n(d)")
    fig.suptitle(
        f"Parameter scaling ({_setting(df)}): samples = the same n = {n_rule} training "
        f"inputs for both models" + (f" (d ≤ {samples})" if samples else "")
        + "; population = exact gradient",
        fontsize="medium",
    )
    return {"parameter_scaling": fig}


def _run_params(df):
    """The parameters of the rows' run: ``attrs["params"]`` (a fresh result, or the
    latest setting of a merged table), else the run's setting stored in the
    ``setting`` column (rows of an earlier setting); quick's where unknown."""
    if df.attrs.get("params"):
        return df.attrs["params"]
    params = STUDY.preset("quick")
    if "setting" in df and len(df) and isinstance(df["setting"].iloc[0], str):
        params.update(json.loads(df["setting"].iloc[0]))
        params["model"] = [m for m in MODELS if m in set(df["model"])]
        params["d"] = sorted(int(d) for d in set(df["d"]))
    return params


def _summary(df):
    """The table the report shows: per model and d, the size needed and the share of seeds."""
    rows = []
    for row in df.itertuples():
        rows.append({
            "model": DISPLAY_NAMES[row.model],
            "d": row.d,
            "n train": "population" if row.model == "transformer_population" else row.n_train,
            "size needed": "-" if not row.reached else f"{row.size_name} = {int(row.size)}",
            "params needed": "-" if not row.reached else str(int(row.params)),
            "seeds reaching 99% [95% CI]": (
                f"{row.seeds_reached}/{row.seeds} = "
                + format_interval(row.success_rate, row.success_low, row.success_high)
            ),
            "median per-seed size": "-" if not np.isfinite(row.median_size)
            else f"{row.median_size:g}",
        })
    threshold = _run_params(df)["threshold"]
    return pd.DataFrame(rows).rename(columns={
        "seeds reaching 99% [95% CI]": f"seeds reaching {threshold:.0%} [95% CI]",
    })


def _table(df, tablefmt):
    table = _summary(df)
    return table.to_markdown(index=False, tablefmt=tablefmt) if len(table) else "(no rows)"


def report_parameter_scaling(df, tablefmt="pipe"):
    """Markdown summary: the setting, the table of sizes needed and the slopes.

    Every number in the text is computed from ``df``.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`parameter_scaling`.
    tablefmt : str, default="pipe"
        :mod:`tabulate` format of the table ("pipe": Markdown; "rst" for the
        documentation).

    Returns
    -------
    text : str

    Examples
    --------
    >>> from skxor.studies import parameter_scaling, report_parameter_scaling
    >>> df = parameter_scaling(model=["transformer_population"], d=[16, 64], seeds=3,
    ...                        transformer_m=[2, 8, 32], n_test=2000)
    >>> report = report_parameter_scaling(df)
    >>> print(report.splitlines()[0])
    ## Parameter scaling
    >>> for line in report.splitlines():  # doctest: +NORMALIZE_WHITESPACE
    ...     if line.startswith(("| model", "| transformer")):
    ...         print(line)
    | model | d | n train | size needed | params needed | seeds reaching 99% [95% CI] |
      median per-seed size |
    | transformer (population) | 16 | population | m = 8 | 16 | 3/3 = 1.00 [0.44, 1.00] | 8 |
    | transformer (population) | 64 | population | m = 8 | 16 | 3/3 = 1.00 [0.44, 1.00] | 8 |
    """
    p = _run_params(df)
    seeds = int(df["seeds"].iloc[0]) if len(df) else 0
    threshold, share = p["threshold"], p["success_share"]
    samples = _samples_d_max(df)
    lines = [
        "## Parameter scaling",
        "",
        f"Setting: {_setting(df)}, d in {{{', '.join(str(d) for d in sorted(set(df['d'])))}}}. "
        "Like for like: for each d and seed, the transformer (samples) and the FFNN "
        f"(samples) are trained on the same n(d) = max({p['n_train_min']}, "
        f"{_coef(p['n_train_per_d2'])}d²) uniform inputs with the same support and model seed"
        + " (" + (f"up to d = {samples}; " if samples else "")
        + "d² is set by the transformer, the more sample-hungry model, so that size, "
        "not data, limits both)"
        + f"; every model is scored on the same {p['n_test']} fresh test inputs. "
        f"Transformer: 2 softmax heads, frozen keys, {p['transformer_steps']} normalised "
        f"full-batch steps of length {p['step_length']:g} (2 m trainable parameters). "
        "Transformer (population): the same start and steps on the exact population "
        "gradient (infinite data), a reference. "
        f"FFNN: two-layer, {p['ffnn_activation']}, Adam (learning rate "
        f"{p['ffnn_learning_rate']:g}, batches of {p['ffnn_batch_size']}), whole epochs "
        f"for at least {p['ffnn_steps']} steps (width (d + 2) + 1 trainable parameters).",
        "",
        f"Needed: the smallest size by which at least {share:.0%} of the {seeds} seeds "
        f"reached {threshold:.0%} test accuracy (each seed tries sizes upwards from "
        f"m = {min(p['transformer_m'])} and width {min(p['ffnn_width'])} and stops at its "
        "first success); the share of seeds that had reached it by then, with its Wilson "
        f"95% interval; - = fewer than {share:.0%} of seeds reached it within the grid "
        f"(m up to {max(p['transformer_m'])}, width up to {max(p['ffnn_width'])}).",
        "",
        _table(df, tablefmt),
        "",
        "Log-log slope of each seed's minimal parameter count against d (least squares "
        "over the seeds that reached the threshold; bootstrap 95% interval over seeds):",
        "",
    ]
    slopes = parameter_slopes(df)
    population_all = slopes.get("transformer_population")
    if samples is not None and population_all is not None and population_all["d_max"] > samples:
        # Like for like: the population slope over the finite-sample d, then over all d.
        slopes["transformer_population"] = parameter_slopes(
            df[df["model"] == "transformer_population"], d_max=samples
        )["transformer_population"]
        slopes["transformer_population_all"] = population_all
    for key, fit in slopes.items():
        name = DISPLAY_NAMES.get(key, DISPLAY_NAMES["transformer_population"] + ", all d")
        lines.append(
            f"* {name}: {format_interval(fit['slope'], fit['low'], fit['high'])} "
            f"({fit['n_points']} points from {fit['n_groups']} seeds at {fit['n_d']} values "
            f"of d, {fit['d_min']} to {fit['d_max']})"
        )
    ranges = sorted({(f["d_min"], f["d_max"]) for f in slopes.values() if f["n_d"] >= 2})
    lines += ["", "About 1: linear in d (as for any two-layer network). Polylogarithmic "
              "growth has a local slope that falls with d"
              + (": a size proportional to log d would give a slope of "
                 + " and ".join(f"{_log_slope(lo, hi):.2f} over d = {lo} to {hi}"
                                for lo, hi in ranges) if ranges else "")
              + "."]
    lines += _comparison(df)
    widths = (df["success_high"] - df["success_low"]).to_numpy()
    slope_widths = [f["high"] - f["low"] for f in slopes.values() if np.isfinite(f["high"])]
    widest = max(slope_widths) if slope_widths else np.nan
    if len(df):
        spread = (f"Wilson intervals of the shares up to {np.nanmax(widths):.2f} wide"
                  + (f", slope intervals up to {widest:.2f} wide" if np.isfinite(widest) else ""))
        if seeds < PRESETS["full"]["seeds"] or not widest <= 0.5:
            more = (f" The full preset ({PRESETS['full']['seeds']} seeds) narrows them."
                    if seeds < PRESETS["full"]["seeds"] else "")
            lines += ["", f"Rough: {seeds} seed{'s' if seeds != 1 else ''}; {spread}.{more}"]
        else:
            lines += ["", f"Uncertainty: {seeds} seeds; {spread}."]
    return "\n".join(lines)


def _log_slope(d_min, d_max):
    """Log-log slope of log d itself between two d: a polylogarithmic reference."""
    return float(np.log(np.log(d_max) / np.log(d_min)) / np.log(d_max / d_min))


def _comparison(df):
    """One generated sentence: both finite-sample models at the largest shared d."""
    needed = df[df["reached"]].pivot_table(index="d", columns="model", values="params")
    sizes = df[df["reached"]].pivot_table(index="d", columns="model", values="size")
    if not {"transformer", "ffnn"} <= set(needed.columns):
        return []
    both = needed[["transformer", "ffnn"]].dropna()
    if both.empty:
        return []
    d = int(both.index.max())
    ffnn, transformer = both.loc[d, "ffnn"], both.loc[d, "transformer"]
    lines = []
    if "transformer_population" in sizes.columns:
        shared = sizes.loc[sizes.index <= d, ["transformer", "transformer_population"]].dropna()
        if len(shared):
            samples, population = shared["transformer"], shared["transformer_population"]
            lines += ["", (
                f"Over d = {int(shared.index.min())} to {int(shared.index.max())}, the "
                f"transformer needed m = {int(samples.min())} to {int(samples.max())} on the "
                f"training sets and m = {int(population.min())} to {int(population.max())} on "
                "the population gradient."
            )]
    return lines + ["", (
        f"At d = {d}, the largest d where both finite-sample models reached "
        f"the threshold, on the same training sets: FFNN {int(ffnn)} trainable parameters "
        f"(width {int(sizes.loc[d, 'ffnn'])}), transformer {int(transformer)} "
        f"(m = {int(sizes.loc[d, 'transformer'])}), {ffnn / transformer:.0f} times fewer."
    )]


def _coef(value):
    """``"d²"`` for 1, ``"0.5 d²"`` otherwise (the caller appends ``d²``)."""
    return "" if value == 1 else f"{value:g} "


STUDY = Study(
    name="parameter_scaling",
    description=(
        "Trainable parameters needed for 99% test accuracy vs d, like for like: "
        "transformer and two-layer FFNN on the same training sets, the "
        "population-gradient transformer as a reference; sizes needed by 80% of seeds "
        "(Wilson) and log-log slopes (bootstrap)."
    ),
    parameters=PARAMETERS,
    presets=PRESETS,
    cell=parameter_scaling_cell,
    compute=_compute,
    summary=_summary,
    figures=plot_parameter_scaling,
    report=report_parameter_scaling,
    # One row per (model, d) of a setting: seeds, threshold, size grids, training
    # sets, budgets and random state all define the row (the runner merges on
    # key plus setting), so a run with other settings never replaces it.
    # samples_d_max only chooses which d the finite-sample models run.
    key=("model", "d"),
    check=_check,
    setting=("seeds", "threshold", "success_share", "n_test", "n_train_min",
             "n_train_per_d2", "transformer_m", "transformer_steps", "step_length",
             "ffnn_width", "ffnn_activation", "ffnn_steps", "ffnn_batch_size",
             "ffnn_learning_rate", "random_state"),
)

__all__ = [
    "DISPLAY_NAMES",
    "MODELS",
    "PARAMETERS",
    "PRESETS",
    "SAMPLE_MODELS",
    "SIZE_NAMES",
    "STUDY",
    "cell_data",
    "cell_seeds",
    "ffnn_epochs",
    "parameter_scaling",
    "parameter_scaling_cell",
    "parameter_slopes",
    "per_seed_minimum",
    "plot_parameter_scaling",
    "report_parameter_scaling",
    "seed_minima",
    "summarize_parameter_scaling",
    "training_size",
    "transformer_start",
]
