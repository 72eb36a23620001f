"""Parameter efficiency: trainable parameters needed for sparse XOR against d.

Han & Ghoshdastidar (2025, arXiv 2502.07553) prove that a one-layer softmax
transformer learns the 2-sparse XOR of d bits after one gradient step with
``n_heads * m = O(polylog d)`` trainable parameters (the queries; the
``d * m`` positional keys are random and frozen), while any two-layer
feed-forward network has at least ``d + 3``. This study measures how many
trainable parameters each model needs, against d, and reports the frozen and
total counts beside them.

Models (one recipe each, the same for every d, size and seed)
--------------------------------------------------------------
* ``"transformer_population_one_step"`` -- the paper's setting: 2 softmax
  heads, size m, one normalised step of length ``one_step_length`` (100,
  the estimator's default) on the exact population gradient
  (:func:`skxor.theory.population_step`): infinite data.
* ``"transformer_population"`` -- the same start, ``transformer_steps`` (T =
  5) normalised population steps of length ``step_length`` (20).
* ``"transformer"`` -- :class:`~skxor.SparseXORTransformer` with those T
  steps on the finite training set (full batch). Five short steps need far
  fewer samples than one long one (see the sample-complexity study).
  All three have ``2 m`` trainable and ``d m`` frozen parameters.
* ``"ffnn"`` -- :class:`~skxor.FFNNParityBaseline`, two-layer, ReLU, size =
  width, every weight trained: ``width (d + 2) + 1`` trainable parameters.
  Adam, learning rate ``ffnn_learning_rate`` (0.01), mini-batches of
  ``ffnn_batch_size`` (128), logistic loss, whole epochs until at least
  ``ffnn_steps`` (256) mini-batch steps are taken (at least one epoch).
* ``"ffnn_random_features"`` -- the same network and recipe with the first
  layer frozen at its random initialization (``train_hidden=False``): only
  the read-out is trained, ``width + 1`` trainable and ``width (d + 1)``
  frozen parameters, so that the comparison is not only about a trained
  dense layer; its widths are ``rf_width``.

Data
----
The finite-sample models are trained on ``n(d) = max(n_train_min,
ceil(n_train_per_d2 * d**2))`` uniform inputs (``max(2048, d**2)``);
every model is scored on ``n_test`` (5000) fresh inputs. ``d**2`` is set by
the transformer, the more sample-hungry of the two trained models, so that
neither is starved of data at the sizes they need; random features need
about as many samples as features, so at large d they may be limited by
n(d) as much as by width (the report says so). The finite-sample models run
only up to ``samples_d_max``; the population rows run at every d.

What "needed" means
-------------------
Every size tried gets its own ``seeds`` independent runs: each cell (d,
size, seed) draws its support, training set, test set and model from seeds
derived from ``(random_state, d, size, seed)`` (:func:`cell_seeds`); models
of the same size at the same (d, seed) share them (a paired comparison).
The size **needed** at d is the smallest size tried at which at least
``success_share`` (80%) of its seeds reach ``threshold`` (99%) test
accuracy, with the Wilson 95% interval of that share. Sizes are tried
upwards from the smallest; after the first size meeting the rule,
``sizes_beyond`` (2) larger ones are run as well, so that a non-monotone
result (a larger size meeting the rule less often) is seen, and shown, not
smoothed. A (model, d) where no size tried meets the rule is *not reached*.

Growth with d is the least-squares slope of log(trainable parameters
needed) against log d, with a bootstrap 95% interval (each size's seeds
resampled) from at least 8 seeds per size; with fewer it is marked rough.
About 1 means Omega(d); a size proportional to log d gives a local slope
that falls with d (0.27 from d = 16 to 128), so slopes this small cannot
separate polylogarithmic growth from a small power of d.
Measured results are in ``docs/results/measured.rst``.
"""

import json
import math
import time
from numbers import Integral, Real

import numpy as np
import pandas as pd
import torch
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import (
    Interval,
    StrOptions,
    validate_parameter_constraints,
)

from ...datasets import make_sparse_parity
from ...estimators import FFNNParityBaseline, SparseXORTransformer, count_parameters
from ...nn import SparseXORAttention, sparse_xor_init
from ...theory import population_step
from .._common import Study, single_thread
from .._figures import interval_errors, log_axis, offset
from .._floor import floor_work
from .._parameters import AT_LEAST_TWO, POSITIVE, SEEDS, Grid, estimator_parameters
from .._stats import (
    MIN_BOOTSTRAP_GROUPS,
    check_n_boot,
    format_interval,
    format_slope,
    wilson_interval,
)
from .._sweep import run_sweep

MODELS = ("transformer_population_one_step", "transformer_population", "transformer", "ffnn",
          "ffnn_random_features")

#: The name of each model's size parameter.
SIZE_NAMES = {"transformer": "m", "transformer_population": "m",
              "transformer_population_one_step": "m", "ffnn": "width",
              "ffnn_random_features": "width"}

#: How each model is named in tables and figures (T: ``transformer_steps``).
DISPLAY_NAMES = {
    "transformer_population_one_step": "transformer, one step (population; the paper's setting)",
    "transformer_population": "transformer, T steps (population)",
    "transformer": "transformer, T steps (samples)",
    "ffnn": "FFNN, trained (samples)",
    "ffnn_random_features": "FFNN, random features (samples)",
}

#: Models trained on the finite training sets (the rest use the population gradient).
SAMPLE_MODELS = ("transformer", "ffnn", "ffnn_random_features")

#: The size grid each model takes its sizes from.
GRIDS = {"transformer": "transformer_m", "transformer_population": "transformer_m",
         "transformer_population_one_step": "transformer_m", "ffnn": "ffnn_width",
         "ffnn_random_features": "rf_width"}

_SHARE = Interval(Real, 0, 1, closed="right")
_LENGTH = Interval(Real, 0, None, closed="neither")

#: Every parameter of the study and the values it accepts.
PARAMETERS = {
    "model": [Grid(StrOptions(set(MODELS)))],
    # The XOR of two of the d bits.
    "d": [Grid(AT_LEAST_TWO)],
    "samples_d_max": [AT_LEAST_TWO],
    **SEEDS,
    "threshold": [_SHARE],
    "success_share": [_SHARE],
    "sizes_beyond": [Interval(Integral, 0, None, closed="left")],
    "n_test": [POSITIVE],
    "n_train_min": [POSITIVE],
    # Finite: (0, inf) open at both ends.
    "n_train_per_d2": [_LENGTH],
    "transformer_m": [Grid(POSITIVE)],
    "transformer_steps": [POSITIVE],
    "step_length": [_LENGTH],
    "one_step_length": [_LENGTH],
    "ffnn_width": [Grid(POSITIVE)],
    "rf_width": [Grid(POSITIVE)],
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
        sizes_beyond=2,
        n_test=5000,
        n_train_min=2048,
        n_train_per_d2=1.0,
        transformer_m=[1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64],
        transformer_steps=5,
        step_length=20.0,
        one_step_length=100.0,
        ffnn_width=[1, 2, 3, 4, 6, 8, 12, 16],
        rf_width=[16, 64, 256, 1024],
        ffnn_activation="relu",
        ffnn_steps=256,
        ffnn_batch_size=128,
        ffnn_learning_rate=0.01,
        random_state=0,
    ),
    # Only the differences from quick: finite samples to d = 256 (65 536
    # training inputs), the population rows on to d = 8192, 10 seeds per size.
    "full": dict(
        d=[16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192],
        samples_d_max=256,
        seeds=10,
    ),
}


def _check(params):
    # Rules between parameters: something must be left to run.
    population = any(m not in SAMPLE_MODELS for m in params["model"])
    if not population and min(params["d"]) > params["samples_d_max"]:
        raise ValueError(
            f"nothing to run: every d ({sorted(params['d'])}) exceeds "
            f"samples_d_max={params['samples_d_max']}, beyond which only the population "
            "models run, and model includes none of them."
        )


def _normalised(params):
    """``params`` with the models in study order and the grids sorted, without repeats."""
    params = dict(params)
    params["model"] = [m for m in MODELS if m in params["model"]]
    for name in ("d", "transformer_m", "ffnn_width", "rf_width"):
        if name in params:
            params[name] = sorted(int(v) for v in set(params[name]))
    return params


_FFNN_BUDGET = ("n_test", "ffnn_activation", "ffnn_batch_size", "ffnn_learning_rate")


def cell_seeds(random_state, d, size, seed):
    """Seeds of one (d, size, seed) run, from ``(random_state, d, size, seed)``.

    Every size gets its own independent seeds; models of the same size share
    them (the same data and start).

    Returns
    -------
    support_seed, train_seed, test_seed, model_seed : int

    Examples
    --------
    >>> from skxor.studies._parameter_scaling import cell_seeds
    >>> cell_seeds(0, 16, 4, 0) != cell_seeds(0, 16, 8, 0)
    True
    """
    state = np.random.SeedSequence([random_state, d, size, seed]).generate_state(4)
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
        their random initialization) and ``seconds`` (wall time).
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
                    train_hidden=model == "ffnn",
                )
            clf.fit(X, y)
            accuracy, params = float(clf.score(X_test, y_test)), count_parameters(clf)
            frozen = clf.keys_.size if model == "transformer" else clf.n_frozen_parameters_
    return {"accuracy": accuracy, "params": int(params), "frozen": int(frozen),
            "seconds": time.perf_counter() - start}


def parameter_scaling(
    preset="quick",
    *,
    checkpoint_dir=None,
    n_jobs=None,
    progress=False,
    scheduler=None,
    **overrides,
):
    """Trainable parameters needed for 99% test accuracy against d.

    Each (model, d) tries sizes from the smallest upwards, every size with
    its own ``seeds`` independent runs (one :func:`~skxor.studies.run_sweep`
    round per size, all (model, d) together), until one size meets the rule
    (at least ``success_share`` of its seeds reach ``threshold``) and
    ``sizes_beyond`` more have run. The models, their recipes and the rule
    are described in the module documentation.

    Parameters
    ----------
    preset : {"quick", "full"}, default="quick"
        ``quick``: d in {16, 32, 64, 128}, all five models, 5 seeds per size
        (rough). ``full``: finite samples for d up to 256, the population
        rows up to d = 8192, 10 seeds per size.
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
        every cell's data and model seeds), ``model`` (list of
        "transformer_population_one_step", "transformer_population",
        "transformer", "ffnn", "ffnn_random_features"), ``d``,
        ``samples_d_max`` (the finite-sample models skip larger d),
        ``seeds``, ``threshold``, ``success_share``, ``sizes_beyond``,
        ``n_test``, ``n_train_min``, ``n_train_per_d2``, ``transformer_m``,
        ``ffnn_width`` and ``rf_width`` (the size grids),
        ``transformer_steps``, ``step_length``, ``one_step_length``,
        ``ffnn_activation``, ``ffnn_steps``, ``ffnn_batch_size``,
        ``ffnn_learning_rate``.

    Returns
    -------
    results : pandas.DataFrame
        One row per (model, d), see :func:`summarize_parameter_scaling`.
        ``results.attrs`` holds ``cells`` (every cell as a list of records:
        one per model, d, size and seed run) and ``params`` (the
        parameters used).

    Examples
    --------
    >>> from skxor.studies import parameter_scaling
    >>> df = parameter_scaling(model=["transformer_population"], d=[16, 64], seeds=3,
    ...                        transformer_m=[2, 8, 32], n_test=2000)
    >>> df[["d", "size", "params", "frozen", "seeds_reached"]].to_dict("list")
    {'d': [16, 64], 'size': [8.0, 32.0], 'params': [16.0, 64.0], 'frozen': [128.0, 2048.0], 'seeds_reached': [3, 3]}
    """
    return STUDY.run(
        preset, checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
        scheduler=scheduler, **overrides,
    )


def _compute(params, *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None):
    params = _normalised(params)
    random_state = params["random_state"]
    seeds = params["seeds"]

    def budget(model, d):
        if model == "transformer_population_one_step":
            return {"n_test": params["n_test"], "transformer_steps": 1,
                    "step_length": params["one_step_length"]}
        transformer = {"n_test": params["n_test"], "transformer_steps":
                       params["transformer_steps"], "step_length": params["step_length"]}
        if model == "transformer_population":
            return transformer
        n_train = training_size(d, params["n_train_min"], params["n_train_per_d2"])
        if model == "transformer":
            return {"n_train": n_train, **transformer}
        epochs = ffnn_epochs(n_train, params["ffnn_steps"], params["ffnn_batch_size"])
        return {"n_train": n_train, "ffnn_epochs": epochs, **{k: params[k] for k in _FFNN_BUDGET}}

    # Per (model, d): the position in its size grid, and where the rule was first met.
    pending = {
        (model, d): 0
        for model in params["model"]
        for d in params["d"]
        if model not in SAMPLE_MODELS or d <= params["samples_d_max"]
    }
    first_met = {}
    rounds = []
    while pending:
        cells = [
            {
                "model": model, "d": d, "size": params[GRIDS[model]][index], "seed": seed,
                "random_state": int(random_state), **budget(model, d),
            }
            for (model, d), index in pending.items()
            for seed in range(seeds)
        ]
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
               "seconds"]
    if rounds:
        cells = pd.concat(rounds, ignore_index=True)
        cells["n_train"] = cells.get("n_train", pd.Series(0, index=cells.index))
        cells["n_train"] = cells["n_train"].fillna(0).astype(int)
        cells = cells[columns]
    else:
        cells = pd.DataFrame(columns=columns)
    summary = summarize_parameter_scaling(cells, params["threshold"], params["success_share"])
    # Records and plain dicts, not DataFrames: pandas compares attrs with ==
    # when concatenating.
    summary.attrs["cells"] = cells.to_dict("records")
    summary.attrs["params"] = {k: v for k, v in params.items()}
    return summary


def size_counts(df):
    """Per (model, d, size): seeds run and seeds reaching the threshold, from the table.

    Read from the ``size_counts`` column (JSON: ``[[size, reached, seeds,
    trainable, frozen], ...]``), so it works on a table read back from
    ``parameter_scaling.csv`` as well as on a fresh result. Rows without it
    (merged from a table an older skxor wrote) contribute nothing.

    Returns
    -------
    counts : pandas.DataFrame
        Columns ``model, d, size, reached, seeds, params, frozen``.
    """
    rows = []
    for row in df.itertuples():
        if not isinstance(getattr(row, "size_counts", None), str):
            continue
        for size, reached, seeds, params, frozen in json.loads(row.size_counts):
            rows.append({"model": row.model, "d": int(row.d), "size": int(size),
                         "reached": int(reached), "seeds": int(seeds), "params": int(params),
                         "frozen": int(frozen)})
    return pd.DataFrame(rows, columns=["model", "d", "size", "reached", "seeds", "params",
                                       "frozen"])


def _needed(reached, seeds, share):
    """Index of the smallest size whose share of seeds meets ``share`` (None if none)."""
    ok = np.flatnonzero(np.asarray(reached) >= share * np.asarray(seeds) - 1e-9)
    return int(ok[0]) if ok.size else None


def summarize_parameter_scaling(cells, threshold, success_share):
    """One row per (model, d) from the per-cell results.

    Parameters
    ----------
    cells : pandas.DataFrame
        One row per (model, d, size, seed) run: ``accuracy``, ``params``
        (trainable), ``frozen``, ``n_train``, ``seconds``.
    threshold : float
        Test accuracy that counts as success, in (0, 1].
    success_share : float
        Share of a size's seeds that must succeed, in (0, 1].

    Returns
    -------
    table : pandas.DataFrame
        ``d``, ``model``, ``size`` (the size needed: the smallest size tried
        at which at least ``success_share`` of its seeds reach
        ``threshold``; NaN when none does), ``params``, ``frozen`` and
        ``total`` (trainable, frozen and all parameters at that size),
        ``size_name``, ``n_train`` (0 for the population rows), ``seeds``
        (per size), ``seeds_reached``, ``success_rate`` with its Wilson 95%
        interval ``success_low``, ``success_high`` (at the size needed; when
        not reached, at the size that came closest), ``reached``,
        ``non_monotone`` (a larger size tried met the rule less: True where
        one did not meet it), ``sizes_tried``, ``seconds`` (compute time of
        all the cells) and ``size_counts`` (JSON ``[[size, reached, seeds,
        trainable, frozen], ...]`` for every size tried, so that the figure
        and the slopes need only the table).

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies._parameter_scaling import summarize_parameter_scaling
    >>> cells = pd.DataFrame({"model": "ffnn", "d": 8, "size": [1] * 5 + [2] * 5 + [3] * 5,
    ...                       "seed": list(range(5)) * 3, "n_train": 100,
    ...                       "accuracy": [0.5] * 5 + [1.0] * 4 + [0.5] + [1.0] * 3 + [0.5] * 2,
    ...                       "params": [11] * 5 + [21] * 5 + [31] * 5, "frozen": 0,
    ...                       "seconds": 0.1})
    >>> row = summarize_parameter_scaling(cells, 0.99, 0.8).iloc[0]
    >>> int(row["size"]), int(row["seeds_reached"]), bool(row["non_monotone"]), row["size_counts"]
    (2, 4, True, '[[1, 0, 5, 11, 0], [2, 4, 5, 21, 0], [3, 3, 5, 31, 0]]')
    """
    validate_parameter_constraints(
        {"threshold": [_SHARE], "success_share": [_SHARE]},
        {"threshold": threshold, "success_share": success_share},
        caller_name="summarize_parameter_scaling",
    )
    cells = pd.DataFrame(cells)
    rows = []
    for (model, d), group in (cells.groupby(["model", "d"], sort=True) if len(cells) else []):
        per_size = group.groupby("size", sort=True).agg(
            reached=("accuracy", lambda a: int((a >= threshold).sum())),
            seeds=("accuracy", "size"), params=("params", "first"),
            frozen=("frozen", "first"))
        sizes = per_size.index.to_numpy()
        index = _needed(per_size["reached"], per_size["seeds"], success_share)
        ok = index is not None
        shown = index if ok else int(np.argmax(per_size["reached"] / per_size["seeds"]))
        k, n = int(per_size["reached"].iloc[shown]), int(per_size["seeds"].iloc[shown])
        low, high = wilson_interval(k, n)
        met = per_size["reached"] >= success_share * per_size["seeds"] - 1e-9
        counts = [[int(s), int(r.reached), int(r.seeds), int(r.params), int(r.frozen)]
                  for s, r in zip(sizes, per_size.itertuples())]
        rows.append({
            "d": int(d),
            "model": model,
            "size": float(sizes[index]) if ok else np.nan,
            "params": float(per_size["params"].iloc[index]) if ok else np.nan,
            "frozen": float(per_size["frozen"].iloc[index]) if ok else np.nan,
            "total": float(per_size["params"].iloc[index] + per_size["frozen"].iloc[index])
            if ok else np.nan,
            "size_name": SIZE_NAMES[model],
            "n_train": int(group["n_train"].iloc[0]),
            "seeds": n,
            "seeds_reached": k,
            "success_rate": k / n,
            "success_low": low,
            "success_high": high,
            "reached": bool(ok),
            "non_monotone": bool(ok and not met.iloc[index:].all()),
            "sizes_tried": len(sizes),
            "seconds": float(group["seconds"].sum()),
            "size_counts": json.dumps(counts),
        })
    order = {model: i for i, model in enumerate(MODELS)}
    table = pd.DataFrame(rows, columns=[
        "d", "model", "size", "params", "frozen", "total", "size_name", "n_train", "seeds",
        "seeds_reached", "success_rate", "success_low", "success_high", "reached",
        "non_monotone", "sizes_tried", "seconds", "size_counts",
    ])
    table = table.sort_values(
        ["model", "d"], key=lambda s: s.map(order) if s.name == "model" else s
    )
    return table.reset_index(drop=True)


def _loglog(d, p):
    return float(np.polyfit(np.log(d), np.log(p), 1)[0])


def parameter_slopes(df, d_max=None, n_boot=2000, random_state=0, column="params"):
    """Log-log slope of the parameters needed against d, per model, with its uncertainty.

    Least squares of log(parameters needed) on log d over the d where the
    rule was met. The interval is a bootstrap over seeds: each size's
    seeds are resampled (its count of successes drawn binomially from its
    observed share), the size needed recomputed at every d and the slope
    refitted; it is given only with at least
    :data:`~skxor.studies._stats.MIN_BOOTSTRAP_GROUPS` seeds per size and
    when at least 90% of the draws have a size needed at the same d.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`parameter_scaling` (its ``size_counts`` column).
    d_max : int or None, default=None
        Use only d <= d_max (to compare models over the same d); a number
        > 0.
    n_boot : int, default=2000
        Bootstrap draws; at least 1.
    random_state : int, default=0
    column : {"params", "total"}, default="params"
        Trainable parameters, or trainable plus frozen.

    Returns
    -------
    slopes : dict of str to dict
        Per model: ``slope``, ``low``, ``high``, ``rough`` (fewer seeds per
        size than the bootstrap needs), ``n_points`` (values of d with a
        size needed), ``n_groups`` (seeds per size), ``n_d`` and ``d_min``,
        ``d_max``.

    Examples
    --------
    >>> from skxor.studies import parameter_scaling
    >>> from skxor.studies._parameter_scaling import parameter_slopes
    >>> df = parameter_scaling(model=["transformer_population"], d=[16, 64], seeds=3,
    ...                        transformer_m=[2, 8, 32], n_test=2000)
    >>> fit = parameter_slopes(df)["transformer_population"]
    >>> round(fit["slope"], 2), fit["rough"], fit["n_points"]
    (1.0, True, 2)
    """
    n_boot = check_n_boot(n_boot)
    validate_parameter_constraints({"d_max": [Interval(Real, 0, None, closed="neither"), None]},
                                   {"d_max": d_max}, caller_name="parameter_slopes")
    if column not in ("params", "total"):
        raise ValueError(f"column must be 'params' or 'total'; got {column!r}.")
    counts = size_counts(df)
    if d_max is not None:
        counts = counts[counts["d"] <= d_max]
    share = float(_run_params(df).get("success_share", 0.8))
    rng = check_random_state(random_state)
    nan = float("nan")
    slopes = {}
    for model in [m for m in MODELS if m in set(df["model"])]:
        part = counts[counts["model"] == model]
        value = part["params"] + (part["frozen"] if column == "total" else 0)
        part = part.assign(value=value)
        groups = [g.sort_values("size") for _, g in part.groupby("d", sort=True)]

        def needed_points(reached_per_d):
            d, p = [], []
            for g, reached in zip(groups, reached_per_d):
                index = _needed(reached, g["seeds"], share)
                if index is not None:
                    d.append(g["d"].iloc[0])
                    p.append(g["value"].iloc[index])
            return np.array(d, float), np.array(p, float)

        d, p = needed_points([g["reached"].to_numpy() for g in groups])
        seeds = int(part["seeds"].min()) if len(part) else 0
        fit = {"slope": nan, "low": nan, "high": nan, "n_points": int(d.size),
               "n_groups": seeds, "rough": seeds < MIN_BOOTSTRAP_GROUPS,
               "range_low": nan, "range_high": nan, "n_d": int(d.size),
               "d_min": int(d.min()) if d.size else 0, "d_max": int(d.max()) if d.size else 0}
        if d.size >= 2:
            fit["slope"] = _loglog(d, p)
            if not fit["rough"]:
                draws = []
                for _ in range(int(n_boot)):
                    resampled = [rng.binomial(g["seeds"].to_numpy(),
                                              g["reached"].to_numpy() / g["seeds"].to_numpy())
                                 for g in groups]
                    bd, bp = needed_points(resampled)
                    if np.array_equal(bd, d):
                        draws.append(_loglog(bd, bp))
                if len(draws) >= 0.9 * n_boot:
                    fit["low"], fit["high"] = (float(q) for q in
                                               np.quantile(draws, [0.025, 0.975]))
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
        return f"{seeds} seeds per size"
    params = _normalised(params)
    differences = {
        name: [k for k in PARAMETERS if params.get(k) != preset.get(k)]
        for name, preset in ((n, _normalised(STUDY.preset(n))) for n in PRESETS)
    }
    preset = min(differences, key=lambda name: len(differences[name]))
    text = f"{preset} preset"
    if differences[preset]:
        text += " with " + ", ".join(differences[preset]) + " overridden"
    return f"{text}, {seeds} seeds per size"


_STYLE = {
    "transformer_population_one_step": dict(color="C4", marker="D", ls=":"),
    "transformer_population": dict(color="C2", marker="s", ls="--"),
    "transformer": dict(color="C0", marker="o", ls="-"),
    "ffnn": dict(color="C3", marker="^", ls="-."),
    "ffnn_random_features": dict(color="C1", marker="v", ls=(0, (3, 1, 1, 1))),
}


def plot_parameter_scaling(df):
    """Parameters needed against d (log-log) and the share of seeds at the size needed.

    Left: per model, the trainable parameters needed (filled markers; every
    size run has its own seeds) and, for the models with frozen random
    weights, the total with them (hollow markers, thin line); as references,
    the ``d + 3`` lower bound of any two-layer network and a curve
    proportional to log d. Right: the share of seeds reaching the threshold
    at the size needed, with Wilson 95% intervals (at the closest size where
    the rule was not met, drawn hollow). Series are offset slightly along d
    so coinciding points stay visible.

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
    ['reference: the 80% rule', 'transformer, T steps (population)']
    >>> for text in parameters.get_legend().get_texts()[:2]:
    ...     print(text.get_text())
    transformer, T steps (population): trainable, slope 1.00 (rough: no interval)
    transformer, T steps (population): total, with frozen
    """
    from matplotlib.figure import Figure  # lazily: matplotlib is optional

    params = _run_params(df)
    threshold = params.get("threshold", 0.99)
    share = params.get("success_share", 0.8)
    slopes = parameter_slopes(df)
    fig = Figure(figsize=(12.0, 10.0), layout="constrained")
    ax, ax_share = fig.subplots(1, 2, width_ratios=[3, 2])
    models = [m for m in MODELS if m in set(df["model"])]
    for i, model in enumerate(models):
        shift = float(offset(1.0, i, len(models), base=1.06, spread=1.0))
        name, st = DISPLAY_NAMES[model], _STYLE[model]
        rows = df[df["model"] == model]
        reached = rows[rows["reached"]]
        ax.plot(reached["d"] * shift, reached["params"], ls=st["ls"], marker=st["marker"],
                color=st["color"], ms=7, mew=1.5,
                label=f"{name}: trainable, slope {_short_slope(slopes[model])}")
        with_frozen = reached[reached["frozen"] > 0]
        if len(with_frozen):
            ax.plot(with_frozen["d"] * shift, with_frozen["total"], ls=st["ls"], lw=0.8,
                    marker=st["marker"], mfc="white", color=st["color"], ms=5,
                    label=f"{name}: total, with frozen")
        ax_share.errorbar(
            rows["d"] * shift, rows["success_rate"],
            yerr=interval_errors(rows["success_rate"], rows["success_low"],
                                 rows["success_high"]),
            ls="none", marker=st["marker"], color=st["color"], capsize=3, label=name,
        )
    d_all = np.unique(df["d"].to_numpy(dtype=float))
    if d_all.size:
        ax.plot(d_all, d_all + 3, color="grey", lw=1, ls=(0, (6, 3)), zorder=5,
                label="reference: d + 3 (any two-layer network, all trained)")
        anchor = df[df["reached"] & df["model"].str.startswith("transformer")].sort_values("d")
        if len(anchor):  # through the first transformer point, to compare shapes
            d0, p0 = float(anchor["d"].iloc[0]), float(anchor["params"].iloc[0])
            ax.plot(d_all, p0 * np.log(d_all) / np.log(d0), color="black", lw=1, zorder=5,
                    ls=(0, (1, 2)), label="reference: proportional to log d")
    ax_share.axhline(share, color="grey", lw=1, ls=(0, (6, 3)), zorder=5,
                     label=f"reference: the {share:.0%} rule")
    for a in (ax, ax_share):
        # Label exactly the d values run; log-scale minor labels would collide.
        log_axis(a, d_all, label="input length d")
    ax.set_yscale("log")
    ax.set_ylabel(f"parameters at the size needed for {threshold:.0%} test accuracy")
    ax_share.set_ylabel(f"share of seeds reaching {threshold:.0%} at the size needed")
    ax_share.set_ylim(-0.03, 1.03)
    # Below the axes: inside, they would hide points.
    ax.legend(fontsize="x-small", loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=1)
    ax_share.legend(fontsize="x-small", loc="upper center", bbox_to_anchor=(0.5, -0.1))
    ax_share.set_title("Wilson 95% intervals", fontsize="small")
    ax.set_title("filled: trainable; hollow: trainable + frozen", fontsize="small")
    samples = _samples_d_max(df)
    n_rule = (f"max({params.get('n_train_min')}, {_coef(params.get('n_train_per_d2'))}d²)"
              if params else "n(d)")
    fig.suptitle(
        f"Parameter scaling ({_setting(df)}): samples = n = {n_rule} training inputs"
        + (f" (d ≤ {samples})" if samples else "") + "; population = exact gradient; "
        f"T = {params.get('transformer_steps')} steps",
        fontsize="medium",
    )
    return {"parameter_scaling": fig}


def _short_slope(fit):
    """A slope for a legend: its interval, or "(rough)" without one."""
    if not np.isfinite(fit["slope"]):
        return "-"
    text = format_interval(fit["slope"], fit["low"], fit["high"])
    return text + (" (rough: no interval)" if fit.get("rough") else "")


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
        if _samples_d_max(df) is not None:  # not part of the setting: read off the rows
            params["samples_d_max"] = _samples_d_max(df)
    return params


def _by_size(text):
    """``"m=1 0/5, m=2 3/5, ..."`` from a ``size_counts`` JSON cell."""
    return ", ".join(f"{s}: {r}/{n}" for s, r, n, _, _ in json.loads(text))


def _summary(df):
    """The table the report shows: per model and d, the size needed and its parameters."""
    rows = []
    for row in df.itertuples():
        rows.append({
            "model": DISPLAY_NAMES[row.model],
            "d": row.d,
            "n train": "population" if row.model not in SAMPLE_MODELS else row.n_train,
            "size needed": "-" if not row.reached else f"{row.size_name} = {int(row.size)}",
            "trainable": "-" if not row.reached else str(int(row.params)),
            "frozen": "-" if not row.reached else str(int(row.frozen)),
            "total": "-" if not row.reached else str(int(row.total)),
            "seeds reaching [95% CI]": (
                f"{row.seeds_reached}/{row.seeds} = "
                + format_interval(row.success_rate, row.success_low, row.success_high)
                + ("" if row.reached else " (closest size)")
            ),
            f"seeds reaching, by {row.size_name}": _by_size(row.size_counts)
            + (" (non-monotone)" if row.non_monotone else ""),
        })
    table = pd.DataFrame(rows)
    if len(table):  # one column for both size names
        by = [c for c in table.columns if c.startswith("seeds reaching, by")]
        table["seeds reaching, by size"] = table[by].bfill(axis=1).iloc[:, 0]
        table = table.drop(columns=by)
    return table


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
    ...     if line.startswith("| transformer"):
    ...         print(line)
    | transformer, T steps (population) | 16 | population | m = 8 | 16 | 128 | 144 |
      3/3 = 1.00 [0.44, 1.00] | 2: 0/3, 8: 3/3, 32: 3/3 |
    | transformer, T steps (population) | 64 | population | m = 32 | 64 | 2048 | 2112 |
      3/3 = 1.00 [0.44, 1.00] | 2: 0/3, 8: 2/3, 32: 3/3 |
    """
    if df.empty:
        return "## Parameter scaling\n\nThe table holds no rows: nothing to summarise."
    p = _run_params(df)
    seeds = int(df["seeds"].iloc[0])
    threshold, share = p["threshold"], p["success_share"]
    samples = _samples_d_max(df)
    lines = [
        "## Parameter scaling",
        "",
        f"Setting: {_setting(df)}, d in {{{', '.join(str(d) for d in sorted(set(df['d'])))}}}. "
        f"The finite-sample models are trained on n(d) = max({p['n_train_min']}, "
        f"{_coef(p['n_train_per_d2'])}d²) uniform inputs"
        + (f" (up to d = {samples})" if samples else "")
        + f"; every model is scored on {p['n_test']} fresh test inputs. Transformer: 2 "
        "softmax heads, random frozen keys (d m frozen parameters), 2 m trainable queries; "
        f"one step = one normalised population step of length {p['one_step_length']:g} "
        f"(the paper's setting); T steps = {p['transformer_steps']} normalised steps of "
        f"length {p['step_length']:g}, on the population gradient or full batch on the "
        f"training set. FFNN: two-layer, {p['ffnn_activation']}, Adam (learning rate "
        f"{p['ffnn_learning_rate']:g}, batches of {p['ffnn_batch_size']}), whole epochs "
        f"for at least {p['ffnn_steps']} steps; trained: width (d + 2) + 1 trainable "
        "parameters; random features: the first layer frozen at its random "
        "initialization (width (d + 1) frozen), width + 1 trainable.",
        "",
        f"Needed: the smallest size tried at which at least {share:.0%} of its {seeds} "
        f"seeds reached {threshold:.0%} test accuracy; every size has its own independent "
        "seeds (data, support and start), and after the first size meeting the rule "
        f"{p['sizes_beyond']} larger ones were run too. The last column gives every size "
        "tried (non-monotone: a larger size met the rule less often; shown as measured). "
        f"- = no size tried met the rule (grids: m up to {max(p['transformer_m'])}, "
        f"width up to {max(p['ffnn_width'])}, random-feature width up to "
        f"{max(p['rf_width'])}).",
        "",
        _table(df, tablefmt),
        "",
        "Log-log slope of the trainable parameters needed against d (least squares over "
        f"the d where the rule was met; bootstrap 95% over seeds from "
        f"{MIN_BOOTSTRAP_GROUPS} seeds per size on):",
        "",
    ]
    slopes = parameter_slopes(df)
    population = [m for m in ("transformer_population_one_step", "transformer_population")
                  if m in slopes]
    for key in population:
        if samples is not None and slopes[key]["d_max"] > samples:
            # Like for like: the population slope over the finite-sample d, then over all d.
            slopes[key + "_all"] = slopes[key]
            slopes[key] = parameter_slopes(df[df["model"] == key], d_max=samples)[key]
    for key in [k for m in MODELS for k in (m, m + "_all") if k in slopes]:
        fit = slopes[key]
        name = DISPLAY_NAMES[key.removesuffix("_all")] + (", all d" if key.endswith("_all")
                                                          else "")
        lines.append(
            f"* {name}: {format_slope(fit)} ({fit['n_points']} value"
            f"{'' if fit['n_points'] == 1 else 's'} of d"
            + (f", {fit['d_min']} to {fit['d_max']}" if fit["n_points"] else "") + ")"
        )
    left_out = [
        f"{DISPLAY_NAMES[model]} at d = {', '.join(str(d) for d in part['d'])}"
        for model, part in df[~df["reached"]].groupby("model", sort=False)
        if model in slopes and slopes[model]["n_points"] >= 2
    ]
    if left_out:
        lines.append(
            "* Left out of these slopes, where no size tried met the rule: "
            + "; ".join(left_out) + ". Their size needed lies above the largest size "
            "tried, so leaving them out can only make a slope flatter when they are the "
            "largest d (read such a slope as a lower estimate)."
        )
    ranges = sorted({(f["d_min"], f["d_max"]) for f in slopes.values() if f["n_d"] >= 2})
    lines += ["", "About 1: linear in d (as for any two-layer network with its first layer "
              "trained). A size proportional to log d has a local slope that falls with d"
              + (": " + " and ".join(f"{_log_slope(lo, hi):.2f} over d = {lo} to {hi}"
                                     for lo, hi in ranges) if ranges else "")
              + "."]
    small = [DISPLAY_NAMES[k.removesuffix("_all")] + (", all d" if k.endswith("_all") else "")
             for k, f in slopes.items() if k.startswith("transformer") and f["slope"] < 0.6]
    if small:
        lines[-1] += (f" The slopes of {'; '.join(small)} are consistent with polylogarithmic "
                      "growth, and equally with a small power of d: over these ranges slopes "
                      "cannot separate the two.")
    lines += _comparison(df)
    if any(df["non_monotone"]):
        flagged = df[df["non_monotone"]]
        lines += ["", "Non-monotone (a size above the one needed met the rule less often): "
                  + ", ".join(f"{DISPLAY_NAMES[r.model]} at d = {r.d}"
                              for r in flagged.itertuples()) + "."]
    widths = (df["success_high"] - df["success_low"]).to_numpy()
    spread = f"Wilson intervals of the shares up to {np.nanmax(widths):.2f} wide"
    if seeds < MIN_BOOTSTRAP_GROUPS:
        lines += ["", f"Rough: {seeds} seed{'s' if seeds != 1 else ''} per size, too few for "
                  f"an interval of the slopes; {spread}. The full preset "
                  f"({PRESETS['full']['seeds']} seeds per size) gives them intervals."]
    else:
        lines += ["", f"Uncertainty: {seeds} seeds per size; {spread}."]
    return "\n".join(lines)


def _log_slope(d_min, d_max):
    """Log-log slope of log d itself between two d: a polylogarithmic reference."""
    return float(np.log(np.log(d_max) / np.log(d_min)) / np.log(d_max / d_min))


def _comparison(df):
    """Generated sentences: one step against T steps; the models at the largest shared d."""
    reached = df[df["reached"]]
    lines = []
    sizes = reached.pivot_table(index="d", columns="model", values="size")
    one, many = "transformer_population_one_step", "transformer_population"
    if {one, many} <= set(sizes.columns):
        both = sizes[[one, many]].dropna()
        if len(both):
            lines += ["", (
                f"On the population gradient over d = {int(both.index.min())} to "
                f"{int(both.index.max())}: one step needed m = {int(both[one].min())} to "
                f"{int(both[one].max())}, {_run_params(df)['transformer_steps']} steps m = "
                f"{int(both[many].min())} to {int(both[many].max())}."
            )]
    trained = reached[reached["model"] == "ffnn"]
    if len(trained):
        widths = sorted({int(w) for w in trained["size"]})
        lines += ["", (
            f"The trained FFNN's width needed is {widths[0]}"
            + (f" to {widths[-1]}" if len(widths) > 1 else "")
            + f" at every d where it met the rule (d = {int(trained['d'].min())} to "
            f"{int(trained['d'].max())}): its count, width (d + 2) + 1, grows with d because "
            "each hidden unit has d input weights, which is what its slope measures."
        )]
    needed = reached.pivot_table(index="d", columns="model", values="params")
    models = [m for m in SAMPLE_MODELS if m in needed.columns]
    if "transformer" in models and len(models) > 1:
        both = needed[models].dropna(subset=["transformer"])
        for other in [m for m in models if m != "transformer"]:
            shared = both[other].dropna()
            if shared.empty:
                missing = df[(df["model"] == other) & ~df["reached"]]["d"].tolist()
                if missing:
                    lines += ["", f"{DISPLAY_NAMES[other]}: no width tried met the rule at "
                              f"d = {', '.join(map(str, missing))}."]
                continue
            d = int(shared.index.max())
            width = int(sizes.loc[d, other])
            lines += ["", (
                f"At d = {d}, the largest d where both met the rule: {DISPLAY_NAMES[other]} "
                f"{int(shared.loc[d])} trainable parameters (width {width}), transformer "
                f"{int(both.loc[d, 'transformer'])} (m = {int(sizes.loc[d, 'transformer'])}, "
                f"plus {int(df[(df.model == 'transformer') & (df.d == d)]['frozen'].iloc[0])} "
                "frozen)."
            )]
            missing = df[(df["model"] == other) & ~df["reached"]]["d"].tolist()
            if missing:
                lines[-1] += (f" No width tried met the rule at d = "
                              f"{', '.join(map(str, missing))}"
                              + (" (random features need about as many samples as "
                                 "features: n(d) may limit them there as much as width)."
                                 if other == "ffnn_random_features" else "."))
    return lines


def _coef(value):
    """``"d²"`` for 1, ``"0.5 d²"`` otherwise (the caller appends ``d²``)."""
    return "" if value == 1 else f"{value:g} "


STUDY = Study(
    name="parameter_scaling",
    description=(
        "Trainable (and frozen) parameters needed for 99% test accuracy vs d: the "
        "transformer after one population step (the paper's setting) and after T "
        "steps (population and samples), a trained two-layer FFNN and one with a frozen "
        "random first layer; every size with its own seeds, the smallest size where "
        "80% of them succeed (Wilson), log-log slopes (bootstrap from 8 seeds per size)."
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
    setting=("seeds", "threshold", "success_share", "sizes_beyond", "n_test", "n_train_min",
             "n_train_per_d2", "transformer_m", "transformer_steps", "step_length",
             "one_step_length", "ffnn_width", "rf_width", "ffnn_activation", "ffnn_steps",
             "ffnn_batch_size", "ffnn_learning_rate", "random_state"),
)

__all__ = [
    "DISPLAY_NAMES",
    "GRIDS",
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
    "plot_parameter_scaling",
    "report_parameter_scaling",
    "size_counts",
    "summarize_parameter_scaling",
    "training_size",
    "transformer_start",
]
