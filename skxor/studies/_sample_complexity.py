"""Sample complexity: test accuracy against n, and the n needed per d.

Each cell runs :func:`sklearn.model_selection.learning_curve` for one model,
one d and one seed: the model is fitted on growing prefixes of one training
set and scored on a fixed, held-out test split. ``n*(d)`` is the smallest
training size from which the test accuracy stays at or above the target (0.95
by default) for every larger size tried; its
growth with d is summarised by the slope of ``log n*`` against ``log d``
(the median of n* over seeds; a seed that never reaches the target counts as
needing more than the largest size tried).
"""

from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.model_selection import ShuffleSplit, learning_curve
from sklearn.utils._param_validation import Interval, StrOptions

from ..datasets import make_sparse_parity
from ..estimators import FFNNParityBaseline, SparseXORTransformer
from ._common import Grid, Study, expand_grid, loglog_slope
from ._sweep import run_sweep

#: The models compared; each maps to an estimator factory in ``_estimator``.
MODELS = ("transformer_one_step", "transformer_multi_step", "ffnn")

#: Every parameter of the study and the values it accepts.
PARAMETERS = {
    "model": [Grid(StrOptions(set(MODELS)))],
    "d": [Grid(Interval(Integral, 2, None, closed="left"))],
    # Training sizes: a geometric grid of n_sizes values from n_min to n_max.
    "n_min": [Interval(Integral, 2, None, closed="left")],
    "n_max": [Interval(Integral, 2, None, closed="left")],
    "n_sizes": [Interval(Integral, 1, None, closed="left")],
    "seeds": [Interval(Integral, 1, None, closed="left")],
    "target": [Interval(Real, 0, 1, closed="right")],
    "n_test": [Interval(Integral, 1, None, closed="left")],
}

PRESETS = {
    "quick": dict(
        model=["transformer_one_step", "transformer_multi_step"],
        d=[25, 50, 100],
        n_min=250,
        n_max=64000,
        n_sizes=9,
        seeds=3,
        target=0.95,
        n_test=2000,
    ),
    # Only the differences from quick.
    "full": dict(
        model=list(MODELS),
        d=[25, 50, 100, 200, 400],
        n_max=512000,
        n_sizes=12,
        seeds=5,
        n_test=5000,
    ),
}


def _check(params):
    if params["n_min"] > params["n_max"]:
        raise ValueError(
            f"n_min must not exceed n_max; got n_min={params['n_min']}, "
            f"n_max={params['n_max']}."
        )


def _estimator(model, seed):
    if model == "transformer_one_step":
        return SparseXORTransformer(m=32, random_state=seed)
    if model == "transformer_multi_step":
        # Five normalised steps of length 20.
        return SparseXORTransformer(m=32, max_iter=5, step_length=20.0, random_state=seed)
    if model == "ffnn":
        # A bounded budget: 20 epochs with early stopping on a 10% split.
        return FFNNParityBaseline(max_iter=20, early_stopping=True, random_state=seed)
    raise ValueError(f"model must be one of {MODELS}; got {model!r}.")


def train_sizes(n_min, n_max, n_sizes):
    """Geometric grid of integer training sizes from n_min to n_max."""
    return np.unique(np.geomspace(n_min, n_max, n_sizes).astype(int)).tolist()


def sample_complexity_cell(model, d, seed, n_min, n_max, n_sizes, n_test):
    """One learning curve: test accuracy at each training size."""
    sizes = train_sizes(n_min, n_max, n_sizes)
    X, y = make_sparse_parity(n_max + n_test, d, random_state=seed)
    split = ShuffleSplit(n_splits=1, test_size=n_test, random_state=seed)
    sizes_used, _, test_scores = learning_curve(
        _estimator(model, seed), X, y, train_sizes=sizes, cv=split, shuffle=False
    )
    return {"n": [int(s) for s in sizes_used], "accuracy": test_scores[:, 0].tolist()}


def sample_complexity(
    preset="quick", *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None,
    **overrides,
):
    """Test accuracy against training size n for several d (learning curves).

    Parameters
    ----------
    preset : {"quick", "full"}, default="quick"
        ``quick``: one- and five-step transformers at d in {25, 50, 100}, n
        from 250 to 64 000, 3 seeds. ``full``: adds the FFNN, d up to 400 and
        n up to 512 000, 5 seeds.
    checkpoint_dir, n_jobs, progress, scheduler
        As for :func:`run_sweep`.
    **overrides
        Replace preset entries: ``model``, ``d`` (lists), ``n_min``,
        ``n_max``, ``n_sizes``, ``seeds``, ``target``, ``n_test``.

    Returns
    -------
    results : pandas.DataFrame
        Long format: one row per (model, d, seed, n) with ``accuracy`` and
        the accuracy ``target``.

    Examples
    --------
    >>> from skxor.studies import sample_complexity
    >>> df = sample_complexity(model=["transformer_multi_step"], d=[20], seeds=1,
    ...                        n_min=200, n_max=4000, n_sizes=3, n_test=500)
    >>> df[["n", "accuracy"]].to_dict("list")["n"]
    [200, 894, 4000]
    """
    return STUDY.run(
        preset, checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
        scheduler=scheduler, **overrides,
    )


def _compute(params, *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None):
    cells = expand_grid(
        model=params["model"], d=params["d"], seed=list(range(params["seeds"])),
        n_min=[params["n_min"]], n_max=[params["n_max"]], n_sizes=[params["n_sizes"]],
        n_test=[params["n_test"]],
    )
    wide = run_sweep(
        sample_complexity_cell, cells, study="sample_complexity",
        checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress, scheduler=scheduler,
    )
    long = wide.explode(["n", "accuracy"], ignore_index=True)
    long = long.astype({"n": int, "accuracy": float})
    long["target"] = params["target"]
    return long[["model", "d", "seed", "n", "accuracy", "target"]]


def samples_needed(df, target=None):
    """Samples needed per model and d: median over seeds of the n from which accuracy stays >= target.

    Returns
    -------
    table : pandas.DataFrame
        Columns ``model, d, n_star, reached`` (seeds reaching the target /
        seeds); ``n_star`` is NaN when fewer than half the seeds reach it.
    """
    target = float(df["target"].iloc[0]) if target is None else target
    rows = []
    for (model, d), group in df.groupby(["model", "d"]):
        per_seed = []
        for _, curve in group.groupby("seed"):
            curve = curve.sort_values("n")
            # From n* on, every larger size must also reach the target: one lucky
            # small sample does not count.
            above = (curve["accuracy"] >= target).to_numpy()
            stays = np.flip(np.logical_and.accumulate(np.flip(above)))
            per_seed.append(curve["n"].to_numpy()[stays][0] if stays.any() else np.inf)
        per_seed = np.array(per_seed, dtype=float)
        median = float(np.median(per_seed))
        rows.append(
            {
                "model": model,
                "d": d,
                "n_star": median if np.isfinite(median) else np.nan,
                "reached": f"{int(np.isfinite(per_seed).sum())}/{per_seed.size}",
            }
        )
    return pd.DataFrame(rows)


def exponents(table):
    """Slope of log n* against log d per model."""
    return {
        model: loglog_slope(group["d"], group["n_star"])
        for model, group in table.groupby("model")
    }


def plot_sample_complexity(df):
    """Learning curves per d, and n*(d) on log-log axes with fitted slopes."""
    from matplotlib.figure import Figure

    models = sorted(df["model"].unique())
    curves = Figure(figsize=(4.2 * len(models), 3.4), layout="constrained")
    axes = np.atleast_1d(curves.subplots(1, len(models), sharey=True))
    mean = df.groupby(["model", "d", "n"])["accuracy"].mean().reset_index()
    for ax, model in zip(axes, models):
        for d, group in mean[mean["model"] == model].groupby("d"):
            ax.plot(group["n"], group["accuracy"], marker="o", label=f"d={d}")
        ax.axhline(df["target"].iloc[0], color="grey", lw=0.8, ls="--")
        ax.set_xscale("log")
        ax.set_xlabel("training samples n")
        ax.set_title(model, fontsize="small")
    axes[0].set_ylabel("test accuracy (mean over seeds)")
    axes[-1].legend(fontsize="small")

    table = samples_needed(df)
    slopes = exponents(table)
    scaling = Figure(figsize=(4.5, 3.6), layout="constrained")
    ax = scaling.subplots()
    for model, group in table.groupby("model"):
        ax.plot(group["d"], group["n_star"], marker="o",
                label=f"{model} (slope {slopes[model]:.2f})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("d")
    ax.set_ylabel(f"n* (accuracy >= {df['target'].iloc[0]})")
    ax.legend(fontsize="small")
    return {"learning_curves": curves, "samples_needed": scaling}


def report_sample_complexity(df):
    """Markdown: n*(d) per model and the fitted exponents."""
    table = samples_needed(df)
    slopes = exponents(table)
    lines = [
        "## Sample complexity",
        "",
        f"n* = median over seeds of the smallest training size from which the "
        f"test accuracy stays >= {df['target'].iloc[0]}.",
        "",
        table.to_markdown(index=False, floatfmt=".4g"),
        "",
        "Fitted exponent of n*(d) ~ d^a: "
        + ", ".join(f"{model}: a = {a:.2f}" for model, a in slopes.items()),
    ]
    return "\n".join(lines)


STUDY = Study(
    name="sample_complexity",
    description=(
        "Learning curves (sklearn learning_curve): test accuracy vs n per d, the "
        "samples n*(d) needed for 95% accuracy and its fitted exponent."
    ),
    parameters=PARAMETERS,
    presets=PRESETS,
    cell=sample_complexity_cell,
    compute=_compute,
    summary=samples_needed,
    figures=plot_sample_complexity,
    report=report_sample_complexity,
    key=("model", "d", "seed", "n", "target"),
    check=_check,
)
