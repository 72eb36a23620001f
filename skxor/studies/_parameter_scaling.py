"""Parameter efficiency: trainable parameters needed for sparse XOR against d.

Han & Ghoshdastidar prove that a one-layer softmax transformer learns the
2-sparse XOR of d bits with ``n_heads * m = O(polylog d)`` trainable
parameters, while any two-layer feed-forward network has at least ``d + 3``
(Han & Ghoshdastidar 2025, arXiv 2502.07553). This study measures both: for each d and each model it
finds the smallest model size whose trained networks reach a test accuracy
of at least ``threshold`` (0.99), scanning a grid of sizes upwards.

Training budget (the same recipe for every d, size and seed)
-------------------------------------------------------------
* **transformer** (:class:`~skxor.SparseXORTransformer`, 2 heads, softmax,
  size = m, trainable parameters ``2 m``): frozen keys and the
  antisymmetric initial queries exactly as the estimator draws them, then
  one normalised gradient step of length ``step_length`` (100). With
  ``transformer_samples=0`` (the default) the step follows the exact
  population gradient (:func:`skxor.theory.population_step`: infinite data,
  so what is measured is the parameter count, not the sample size); with
  ``transformer_samples=n > 0`` it is the estimator's full-batch step on n
  samples.
* **ffnn** (:class:`~skxor.FFNNParityBaseline`, ReLU, size = width,
  trainable parameters ``width (d + 2) + 1``): trained on
  ``n = max(ffnn_min_samples, ffnn_samples_per_d * d)`` samples
  (``max(5000, 20 d)``) for ``ffnn_epochs`` (5) epochs of Adam, learning
  rate 0.01, mini-batches of 128, logistic loss. The data grow linearly
  with d so that data do not run out before parameters do (with a fixed
  n, a large enough d makes the network over-fit whatever its width).

Both are scored on ``n_test`` (10000) fresh uniform inputs labelled by the
same support. Each cell (model, d, size, seed) uses a data seed and a model
seed derived from ``(random_state, d, seed)``, so every size sees the same
data and support for a given seed.

How seeds combine: a size *reaches* the threshold at d when the **median**
test accuracy over the seeds is >= ``threshold`` (with an odd number of
seeds: a majority of seeds reach it). The reported size is the smallest
grid size that reaches it; the scan stops there. ``success_rate`` is the
share of seeds reaching it at that size. A (model, d) whose whole grid
fails is reported with ``reached=False`` and NaN size and parameters. The
growth is summarised by the least-squares slope of log(params) against
log(d) over the reached rows: about 1 means Omega(d), about 0 polylog.

Measured numbers are not quoted here: run ``skxor run parameter_scaling``
(``--preset quick`` or ``full``) and read its ``report.md``.
"""

import time
from numbers import Integral, Real

import numpy as np
import pandas as pd
import torch
from sklearn.utils._param_validation import Interval, StrOptions

from ..datasets import make_sparse_parity
from ..estimators import FFNNParityBaseline, SparseXORTransformer, count_parameters
from ..nn import SparseXORAttention, sparse_xor_init
from ..theory import population_step
from ._common import Grid, Study, loglog_slope, single_thread
from ._sweep import run_sweep

MODELS = ("transformer", "ffnn")

#: The name of each model's size parameter.
SIZE_NAMES = {"transformer": "m", "ffnn": "width"}

_D_QUICK = [16, 32, 64, 128, 256, 512]
_D_FULL = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]

_POSITIVE = Interval(Integral, 1, None, closed="left")

#: Every parameter of the study and the values it accepts.
PARAMETERS = {
    "model": [Grid(StrOptions(set(MODELS)))],
    # The XOR of two of the d bits.
    "d": [Grid(Interval(Integral, 2, None, closed="left"))],
    "ffnn_d_max": [_POSITIVE],
    "seeds": [_POSITIVE],
    "threshold": [Interval(Real, 0, 1, closed="right")],
    "n_test": [_POSITIVE],
    "transformer_m": [Grid(_POSITIVE)],
    "transformer_samples": [Interval(Integral, 0, None, closed="left")],
    "step_length": [Interval(Real, 0, 1e6, closed="right")],
    "ffnn_width": [Grid(_POSITIVE)],
    # The estimator's own constraints for what is passed to it unchanged.
    "ffnn_activation": FFNNParityBaseline._parameter_constraints["activation"],
    "ffnn_samples_per_d": [_POSITIVE],
    "ffnn_min_samples": [_POSITIVE],
    "ffnn_epochs": [_POSITIVE],
    "ffnn_batch_size": [_POSITIVE],
    "ffnn_learning_rate": FFNNParityBaseline._parameter_constraints["learning_rate"],
    # Names the cells of the checkpointed sweep, so a plain int.
    "random_state": [Interval(Integral, 0, None, closed="left")],
}

PRESETS = {
    "quick": dict(
        model=list(MODELS),
        d=_D_QUICK,
        ffnn_d_max=512,
        seeds=5,
        threshold=0.99,
        n_test=10000,
        transformer_m=[1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128],
        transformer_samples=0,
        step_length=100.0,
        ffnn_width=[1, 2, 3, 4, 6, 8, 12, 16, 24, 32],
        ffnn_activation="relu",
        ffnn_samples_per_d=20,
        ffnn_min_samples=5000,
        ffnn_epochs=5,
        ffnn_batch_size=128,
        ffnn_learning_rate=0.01,
        random_state=0,
    ),
    # Only the differences from quick: the transformer to d = 8192; the FFNN,
    # whose training set is 20 d rows of d floats, to d = 4096 (about 1.3 GB
    # per fit there).
    "full": dict(d=_D_FULL, ffnn_d_max=4096, seeds=9),
}

_TRANSFORMER_BUDGET = ("n_test", "transformer_samples", "step_length")
_FFNN_BUDGET = (
    "n_test", "ffnn_activation", "ffnn_samples_per_d", "ffnn_min_samples",
    "ffnn_epochs", "ffnn_batch_size", "ffnn_learning_rate",
)


def cell_seeds(random_state, d, seed):
    """(data seed, model seed) of one cell, from ``(random_state, d, seed)``."""
    data_seed, model_seed = np.random.SeedSequence([random_state, d, seed]).generate_state(2)
    return int(data_seed), int(model_seed)


def transformer_start(d, m, seed):
    """Keys (d, m) and initial queries (2, m), drawn as the estimator draws them."""
    return sparse_xor_init(d, m, random_state=seed)  # the estimator's draw


def _transformer_cell(d, size, data_seed, model_seed, n_test, transformer_samples, step_length):
    n_train = transformer_samples
    X, y, support = make_sparse_parity(
        n_train + n_test, d, return_support=True, random_state=data_seed
    )
    if n_train == 0:
        keys, queries = transformer_start(d, size, model_seed)
        queries = population_step(queries, keys, support, step_length=step_length)
        model = SparseXORAttention(torch.as_tensor(keys), torch.as_tensor(queries))
        with torch.no_grad():
            f = model(torch.as_tensor(X[n_train:], dtype=torch.float64)).numpy()
        accuracy = float(np.mean(np.where(f > 0, 1, -1) == y[n_train:]))
        params = count_parameters(model)
    else:
        clf = SparseXORTransformer(m=size, step_length=step_length, random_state=model_seed)
        clf.fit(X[:n_train], y[:n_train])
        accuracy = float(clf.score(X[n_train:], y[n_train:]))
        params = count_parameters(clf)
    return accuracy, params


def _ffnn_cell(
    d, size, data_seed, model_seed, n_test, ffnn_activation, ffnn_samples_per_d,
    ffnn_min_samples, ffnn_epochs, ffnn_batch_size, ffnn_learning_rate,
):
    n_train = max(ffnn_min_samples, ffnn_samples_per_d * d)
    X, y = make_sparse_parity(n_train + n_test, d, random_state=data_seed)
    clf = FFNNParityBaseline(
        width=size,
        activation=ffnn_activation,
        learning_rate=ffnn_learning_rate,
        max_iter=ffnn_epochs,
        batch_size=ffnn_batch_size,
        random_state=model_seed,
    ).fit(X[:n_train], y[:n_train])
    return float(clf.score(X[n_train:], y[n_train:])), count_parameters(clf)


def parameter_scaling_cell(model, d, size, seed, random_state, **budget):
    """Train one model of one size at one d and seed; score it on fresh data.

    Returns
    -------
    result : dict
        ``accuracy`` (test), ``params`` (trainable, via
        :func:`~skxor.estimators._parameters.count_parameters`) and
        ``seconds`` (wall time of the cell).
    """
    start = time.perf_counter()
    data_seed, model_seed = cell_seeds(random_state, d, seed)
    run = _transformer_cell if model == "transformer" else _ffnn_cell
    with single_thread():
        accuracy, params = run(d, size, data_seed, model_seed, **budget)
    return {
        "accuracy": accuracy,
        "params": int(params),
        "seconds": time.perf_counter() - start,
    }


def parameter_scaling(
    preset="quick",
    *,
    checkpoint_dir=None,
    n_jobs=None,
    progress=False,
    scheduler=None,
    **overrides,
):
    """Smallest trainable-parameter count reaching 99% test accuracy, against d.

    For every d and model, sizes are tried from the smallest upwards (one
    :func:`~skxor.studies.run_sweep` round per size, all seeds of all
    unresolved (model, d) pairs together) until the median test accuracy
    over the seeds reaches ``threshold``. The training budget and the seed
    rule are described in the module documentation.

    Parameters
    ----------
    preset : {"quick", "full"}, default="quick"
        ``quick``: d in {16, 32, ..., 512}, 5 seeds (well under a minute on
        two cores). ``full``: d up to 8192 for the transformer and up to 4096
        for the FFNN, 9 seeds.
    checkpoint_dir : str or path-like or None, default=None
        Where finished cells are stored and reused on rerun.
    n_jobs : int or None, default=None
        joblib workers for the cells.
    progress : bool, default=False
        Show a progress bar per round.
    scheduler : str, distributed.Client or None, default=None
        dask.distributed scheduler for the cells.
    **overrides
        Replace preset entries: ``random_state`` (int, default 0: the root
        of every cell's data and model seeds), ``model`` (list of "transformer", "ffnn"),
        ``d``, ``ffnn_d_max`` (the FFNN skips larger d), ``seeds``,
        ``threshold``, ``n_test``, ``transformer_m`` and ``ffnn_width`` (the
        size grids), ``transformer_samples`` (0: population step),
        ``step_length``, ``ffnn_activation``, ``ffnn_samples_per_d``,
        ``ffnn_min_samples``, ``ffnn_epochs``, ``ffnn_batch_size``,
        ``ffnn_learning_rate``.

    Returns
    -------
    results : pandas.DataFrame
        One row per (model, d): ``d``, ``model``, ``params`` (smallest
        trainable-parameter count reaching the threshold; NaN if none in the
        grid), ``accuracy`` (median test accuracy over seeds at that size, or
        at the largest size tried), ``seeds``, ``seconds`` (compute time of
        all cells of the search), ``size_name``, ``size``,
        ``success_rate`` (share of seeds reaching the threshold at that size)
        and ``reached``. ``results.attrs["cells"]`` holds every cell as a
        list of records (``pandas.DataFrame(results.attrs["cells"])``: one
        row per model, d, size and seed) and ``results.attrs["threshold"]``
        the threshold.

    Examples
    --------
    >>> from skxor.studies import parameter_scaling
    >>> df = parameter_scaling(model=["transformer"], d=[16, 64], seeds=3,
    ...                        transformer_m=[2, 8, 32], n_test=2000)
    >>> df[["d", "size", "params"]].to_dict("list")
    {'d': [16, 64], 'size': [8.0, 32.0], 'params': [16.0, 64.0]}
    """
    return STUDY.run(
        preset, checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
        scheduler=scheduler, **overrides,
    )


def _compute(params, *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None):
    random_state = params["random_state"]
    for name in ("d", "transformer_m", "ffnn_width"):
        params[name] = sorted(set(params[name]))
    grids = {"transformer": params["transformer_m"], "ffnn": params["ffnn_width"]}
    budgets = {
        "transformer": {k: params[k] for k in _TRANSFORMER_BUDGET},
        "ffnn": {k: params[k] for k in _FFNN_BUDGET},
    }
    seeds = list(range(params["seeds"]))
    # Position in the size grid of every (model, d) still being searched.
    pending = {
        (model, d): 0
        for model in params["model"]
        for d in params["d"]
        if model != "ffnn" or d <= params["ffnn_d_max"]
    }
    rounds = []
    while pending:
        cells = [
            {
                "model": model, "d": d, "size": grids[model][index], "seed": seed,
                "random_state": int(random_state), **budgets[model],
            }
            for (model, d), index in pending.items()
            for seed in seeds
        ]
        done = run_sweep(
            parameter_scaling_cell, cells, study="parameter_scaling",
            checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
            scheduler=scheduler,
        )
        rounds.append(done)
        median = done.groupby(["model", "d"])["accuracy"].median()
        for key in list(pending):
            if median[key] >= params["threshold"] or pending[key] + 1 == len(grids[key[0]]):
                del pending[key]
            else:
                pending[key] += 1
    columns = ["model", "d", "size", "seed", "accuracy", "params", "seconds"]
    cells = pd.concat(rounds, ignore_index=True)[columns] if rounds else pd.DataFrame(
        columns=columns
    )
    summary = summarize_parameter_scaling(cells, params["threshold"], len(seeds))
    # Records, not a DataFrame: pandas compares attrs with == when concatenating.
    summary.attrs["cells"] = cells.to_dict("records")
    summary.attrs["threshold"] = params["threshold"]
    return summary


def summarize_parameter_scaling(cells, threshold, n_seeds):
    """One row per (model, d) from the per-cell results (see :func:`parameter_scaling`)."""
    rows = []
    for (model, d), group in cells.groupby(["model", "d"], sort=True):
        by_size = group.groupby("size")
        median = by_size["accuracy"].median()
        reached = median[median >= threshold]
        size = reached.index.min() if len(reached) else median.index.max()
        at_size = by_size.get_group(size)
        ok = len(reached) > 0
        rows.append({
            "d": int(d),
            "model": model,
            "params": float(at_size["params"].iloc[0]) if ok else np.nan,
            "accuracy": float(median[size]),
            "seeds": int(n_seeds),
            "seconds": float(group["seconds"].sum()),
            "size_name": SIZE_NAMES[model],
            "size": float(size) if ok else np.nan,
            "success_rate": float((at_size["accuracy"] >= threshold).mean()),
            "reached": bool(ok),
        })
    order = {model: i for i, model in enumerate(MODELS)}
    table = pd.DataFrame(rows, columns=[
        "d", "model", "params", "accuracy", "seeds", "seconds", "size_name", "size",
        "success_rate", "reached",
    ])
    table = table.sort_values(["model", "d"], key=lambda s: s.map(order) if s.name == "model" else s)
    return table.reset_index(drop=True)


def parameter_slopes(df):
    """Slope of log(params) against log(d) per model, over the reached rows."""
    return {
        model: loglog_slope(group["d"], group["params"])
        for model, group in df.groupby("model", sort=False)
    }


def plot_parameter_scaling(df):
    """Log-log plot of the parameters needed against d, with fitted slopes.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`parameter_scaling`.

    Returns
    -------
    figures : dict of str to matplotlib.figure.Figure
        ``{"parameter_scaling": figure}``.
    """
    from matplotlib.figure import Figure  # lazily: matplotlib is optional
    from matplotlib.ticker import NullLocator

    slopes = parameter_slopes(df)
    fig = Figure(figsize=(5.0, 3.8), layout="constrained")
    ax = fig.subplots()
    for model, group in df.groupby("model", sort=False):
        group = group[group["reached"]]
        if group.empty:
            continue
        (line,) = ax.plot(
            group["d"], group["params"], marker="o", ls="none",
            label=f"{model} (slope {slopes[model]:.2f})",
        )
        if np.isfinite(slopes[model]):
            d = group["d"].to_numpy(dtype=float)
            p = group["params"].to_numpy(dtype=float)
            intercept = np.mean(np.log(p) - slopes[model] * np.log(d))
            grid = np.geomspace(d.min(), d.max(), 50)
            ax.plot(grid, np.exp(intercept) * grid ** slopes[model], color=line.get_color(), lw=1)
    d_all = np.unique(df["d"].to_numpy(dtype=float))
    ax.plot(d_all, d_all, color="grey", lw=0.8, ls="--", label="params = d")
    ax.set_xscale("log")
    ax.set_yscale("log")
    # Label exactly the d values run; log-scale minor labels would collide.
    ax.set_xticks(d_all, labels=[str(int(d)) for d in d_all])
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlabel("input length d")
    threshold = df.attrs.get("threshold", 0.99)
    ax.set_ylabel(f"trainable parameters for {threshold:.0%} accuracy")
    ax.legend(fontsize="small")
    return {"parameter_scaling": fig}


def report_parameter_scaling(df):
    """Markdown summary: parameters needed per d for each model and the slopes.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`parameter_scaling`.

    Returns
    -------
    text : str
    """
    threshold = df.attrs.get("threshold", 0.99)
    slopes = parameter_slopes(df)
    wide = None
    for model, group in df.groupby("model", sort=False):
        part = pd.DataFrame({
            "d": group["d"].to_numpy(),
            f"{model} {SIZE_NAMES[model]}": [_fmt(v) for v in group["size"]],
            f"{model} params": [_fmt(v) for v in group["params"]],
            f"{model} success": [f"{r:.0%}" for r in group["success_rate"]],
        })
        wide = part if wide is None else wide.merge(part, on="d", how="outer")
    seeds = int(df["seeds"].iloc[0]) if len(df) else 0
    lines = [
        "## Parameter scaling",
        "",
        f"Smallest size (and trainable-parameter count) at which the median test "
        f"accuracy over {seeds} seed{'s' if seeds != 1 else ''} reaches {threshold:.0%}; success = share of "
        "seeds reaching it at that size; - = not reached in the grid (or not run).",
        "",
        wide.sort_values("d").fillna("-").to_markdown(index=False) if wide is not None else "",
        "",
        "Fitted log-log slope of params against d: "
        + ", ".join(f"{model}: {a:.2f}" for model, a in slopes.items())
        + " (about 1: linear in d; about 0: polylogarithmic).",
    ]
    return "\n".join(lines)


def _fmt(value):
    return "-" if not np.isfinite(value) else f"{int(value)}"


STUDY = Study(
    name="parameter_scaling",
    description=(
        "Smallest trainable-parameter count reaching 99% test accuracy vs d: the "
        "transformer (search over m) vs the two-layer FFNN (search over width), "
        "with log-log slopes."
    ),
    parameters=PARAMETERS,
    presets=PRESETS,
    cell=parameter_scaling_cell,
    compute=_compute,
    summary=summarize_parameter_scaling,
    figures=plot_parameter_scaling,
    report=report_parameter_scaling,
    key=("model", "d"),
)
