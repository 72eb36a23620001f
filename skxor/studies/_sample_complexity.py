"""Sample complexity: test accuracy against n, and the n needed per d.

Each cell runs :func:`sklearn.model_selection.learning_curve` for one model,
one d and one seed: the model is fitted on growing prefixes of one training
set and scored on a fixed, held-out test split. A seed's ``n*`` is the
smallest training size from which the test accuracy stays at or above the
target (0.95 by default) at every larger size tried. A seed whose n* is the
smallest size tried is *censored* (its true n* may be smaller) and one that
never stays above the target is *unreached*; both are counted and left out
of the fit. The growth of n* with d is the least-squares slope of log n*
against log d over the per-seed points, with a bootstrap 95% interval over
seeds (:func:`fit_exponents`); Han & Ghoshdastidar's one-step bound grows as
d^4 up to polylog factors.
"""

import time
from numbers import Real

import numpy as np
import pandas as pd
from sklearn.model_selection import ShuffleSplit, learning_curve
from sklearn.utils._param_validation import Interval, StrOptions

from .._utils._docstrings import fill_doc
from ..datasets import make_sparse_parity
from ..estimators import FFNNParityBaseline, SparseXORTransformer
from ._common import Study, expand_grid, run_preset, seeds_text, single_thread
from ._figures import MARKERS, log_axis, offset
from ._floor import TIME_COLUMNS, timing_sentence
from ._parameters import AT_LEAST_TWO, POSITIVE, Grid
from ._stats import bootstrap_loglog_slope, format_interval, rate_with_interval
from ._sweep import run_sweep

#: The models compared; each maps to an estimator factory in ``_estimator``.
MODELS = ("transformer_one_step", "transformer_multi_step", "ffnn")

#: The columns fixing a learning curve's grid, test split and target: tables
#: merged from runs with other values are analysed on the latest run's only.
SETTING_COLUMNS = ("n_min", "n_max", "n_sizes", "n_test", "target")

#: Every parameter of the study and the values it accepts.
PARAMETERS = {
    "model": [Grid(StrOptions(set(MODELS)))],
    "d": [Grid(AT_LEAST_TWO)],
    # Training sizes: a geometric grid of n_sizes values from n_min to n_max.
    "n_min": [AT_LEAST_TWO],
    "n_max": [AT_LEAST_TWO],
    "n_sizes": [POSITIVE],
    "seeds": [POSITIVE],
    # Above 1/2, the accuracy of guessing.
    "target": [Interval(Real, 0.5, 1, closed="right")],
    "n_test": [POSITIVE],
}

PRESETS = {
    "quick": dict(
        model=["transformer_one_step", "transformer_multi_step"],
        d=[16, 32, 64],
        n_min=16,
        n_max=8192,
        n_sizes=10,
        seeds=3,
        target=0.95,
        n_test=1000,
    ),
    # Only the differences from quick.
    "full": dict(
        model=list(MODELS),
        d=[16, 25, 40, 64, 100, 160],
        n_min=25,
        n_max=102400,
        n_sizes=25,
        seeds=10,
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
        # Five normalised steps of length 20 (measured: 10/10 seeds at d=100, n=5000).
        return SparseXORTransformer(m=32, max_iter=5, step_length=20.0, random_state=seed)
    if model == "ffnn":
        # A bounded budget: 20 epochs with early stopping on a 10% split.
        return FFNNParityBaseline(max_iter=20, early_stopping=True, random_state=seed)
    raise ValueError(f"model must be one of {MODELS}; got {model!r}.")


def train_sizes(n_min, n_max, n_sizes):
    """Geometric grid of training sizes from n_min to n_max, rounded to whole samples."""
    return np.unique(np.rint(np.geomspace(n_min, n_max, n_sizes)).astype(int)).tolist()


def sample_complexity_cell(model, d, seed, n_min, n_max, n_sizes, n_test):
    """One learning curve: test accuracy at each training size.

    Returns
    -------
    result : dict
        ``n`` and ``accuracy`` (lists, one entry per training size),
        ``seconds`` (the whole cell) and ``floor_seconds`` (the fits and the
        scoring of the test split, as timed by ``learning_curve``).

    Examples
    --------
    >>> from skxor.studies._sample_complexity import sample_complexity_cell
    >>> r = sample_complexity_cell("transformer_multi_step", 20, 0, 200, 4000, 3, 500)
    >>> r["n"], r["floor_seconds"] <= r["seconds"]
    ([200, 894, 4000], True)
    """
    start = time.perf_counter()
    sizes = train_sizes(n_min, n_max, n_sizes)
    X, y = make_sparse_parity(n_max + n_test, d, random_state=seed)
    split = ShuffleSplit(n_splits=1, test_size=n_test, random_state=seed)
    with single_thread():  # parallelism comes from n_jobs
        sizes_used, _, test_scores, fit_times, score_times = learning_curve(
            _estimator(model, seed), X, y, train_sizes=sizes, cv=split, shuffle=False,
            return_times=True,
        )
    return {
        "n": [int(s) for s in sizes_used],
        "accuracy": test_scores[:, 0].tolist(),
        "seconds": time.perf_counter() - start,
        "floor_seconds": float(np.sum(fit_times) + np.sum(score_times)),
    }


def sample_complexity(
    preset="quick", *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None,
    **overrides,
):
    """Test accuracy against training size n for several d (learning curves).

    Parameters
    ----------
    preset : {"quick", "full"}, default="quick"
        ``quick`` (rough, seconds): one- and five-step transformers at d in
        {16, 32, 64}, n from 16 to 8 192 in steps of x2, 3 seeds. ``full``:
        adds the FFNN; d in {16, 25, 40, 64, 100, 160}, n from 25 to 102 400
        in steps of x sqrt(2) (25 sizes), 10 seeds (hours on 2 cores; use
        ``n_jobs`` or a dask scheduler).
    checkpoint_dir, n_jobs, progress, scheduler
        As for :func:`run_sweep`.
    **overrides
        Replace preset entries: ``model``, ``d`` (lists), ``n_min``,
        ``n_max``, ``n_sizes``, ``seeds``, ``target``, ``n_test``.

    Returns
    -------
    results : pandas.DataFrame
        Long format: one row per (model, d, seed, n) with ``accuracy``, the
        settings ``n_min``, ``n_max``, ``n_sizes``, ``n_test`` and the
        accuracy ``target``, and ``seconds`` and ``floor_seconds`` (the
        learning curve's time and the part spent fitting and scoring, on its
        first row; 0 on the others). ``attrs`` holds the parameters used
        (``params``), the preset they equal (``preset``, None when
        overridden), the rows computed (``rows``), and ``floor_seconds`` and
        ``floor_description`` (the summed floor time and what it covers).

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
    # The curve's times stay on its first row (0 on the others) so that the
    # column sums are the study's totals.
    long = wide.explode(["n", "accuracy"], ignore_index=True)
    long = long.astype({"n": int, "accuracy": float})
    first = ~long.duplicated(["model", "d", "seed"], keep="first").to_numpy()
    for name in TIME_COLUMNS:
        long[name] = np.where(first, long[name].astype(float), 0.0)
    long["target"] = params["target"]
    long = long[["model", "d", "seed", "n", "accuracy", *SETTING_COLUMNS, *TIME_COLUMNS]]
    return STUDY.stamp(long, params, "the fits and test scoring of every learning curve")


def like_for_like(df):
    """The rows sharing the last row's grid, test split and target.

    A table merged from runs with other settings (see ``SETTING_COLUMNS``)
    is analysed on the latest run's setting only, so that every curve and
    every n* compared uses the same sizes, test split and target. Columns
    the table lacks are not compared.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies._sample_complexity import like_for_like
    >>> df = pd.DataFrame({"n": [10, 20, 10], "target": [0.9, 0.9, 0.95]})
    >>> like_for_like(df)["n"].tolist()
    [10]
    """
    columns = [c for c in SETTING_COLUMNS if c in df]
    if not columns or df.empty:
        return df
    last = df[columns].iloc[-1]
    return df[(df[columns] == last).all(axis=1)]


@fill_doc
def n_star_per_seed(df, target=None):
    """Per model, d and seed: the smallest n from which the accuracy stays >= target.

    Parameters
    ----------
    %(sample_complexity_table)s

    Returns
    -------
    per_seed : pandas.DataFrame
        Columns ``model, d, seed, n_star, status``: ``n_star`` is the smallest
        training size tried from which every larger size tried reaches the
        target (inf when the largest does not); ``status`` is ``"reached"``,
        ``"at grid floor"`` (n* is the smallest size tried: the true n* may
        be smaller, the value is censored) or ``"not reached"``.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies._sample_complexity import n_star_per_seed
    >>> df = pd.DataFrame({"model": "m", "d": 10, "seed": 0, "n": [10, 20, 40, 80],
    ...                    "accuracy": [0.99, 0.5, 0.97, 0.98], "target": 0.95})
    >>> n_star_per_seed(df)[["n_star", "status"]].values.tolist()
    [[40.0, 'reached']]
    """
    df = like_for_like(df)
    target = float(df["target"].iloc[0]) if target is None else float(target)
    rows = []
    for (model, d, seed), curve in df.groupby(["model", "d", "seed"], sort=True):
        curve = curve.sort_values("n")
        # From n* on, every larger size must also reach the target: one lucky
        # small sample does not count.
        above = (curve["accuracy"] >= target).to_numpy()
        stays = np.flip(np.logical_and.accumulate(np.flip(above)))
        sizes = curve["n"].to_numpy()
        if not stays.any():
            n_star, status = np.inf, "not reached"
        else:
            n_star = float(sizes[stays][0])
            status = "at grid floor" if stays[0] else "reached"
        rows.append({"model": model, "d": d, "seed": seed, "n_star": n_star, "status": status})
    return pd.DataFrame(rows)


def samples_needed(df, target=None):
    """Samples needed per model and d, over seeds.

    Returns
    -------
    table : pandas.DataFrame
        Columns ``model, d, n_star`` (median over seeds of the per-seed n*,
        a seed that never reaches the target counting as more than the
        largest size; NaN when fewer than half reach it), ``n_star_min``,
        ``n_star_max`` (range over the seeds that reach it), ``reached``
        (``"k/n"``), ``reached_rate``, ``reached_low``, ``reached_high``
        (Wilson 95%) and ``at_floor`` (seeds whose n* is the smallest size
        tried, i.e. censored).

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies import samples_needed
    >>> df = pd.DataFrame({"model": "m", "d": 10, "seed": [0] * 3 + [1] * 3,
    ...                    "n": [10, 20, 40] * 2, "accuracy": [0.5, 1, 1, 0.5, 0.5, 1],
    ...                    "target": 0.95})
    >>> samples_needed(df)[["n_star", "reached", "at_floor"]].values.tolist()
    [[30.0, '2/2', 0]]
    """
    per_seed = n_star_per_seed(df, target)
    rows = []
    for (model, d), group in per_seed.groupby(["model", "d"], sort=True):
        values = group["n_star"].to_numpy(dtype=float)
        finite = values[np.isfinite(values)]
        median = float(np.median(values))
        rate, low, high, n = rate_with_interval(np.isfinite(values))
        rows.append({
            "model": model, "d": d,
            "n_star": median if np.isfinite(median) else np.nan,
            "n_star_min": float(finite.min()) if finite.size else np.nan,
            "n_star_max": float(finite.max()) if finite.size else np.nan,
            "reached": f"{finite.size}/{n}",
            "reached_rate": rate, "reached_low": low, "reached_high": high,
            "at_floor": int((group["status"] == "at grid floor").sum()),
        })
    return pd.DataFrame(rows)


@fill_doc
def fit_exponents(df, target=None, *, n_boot=2000, random_state=0):
    """Exponent a of n*(d) ~ d^a per model, fitted to the per-seed n*, with a bootstrap interval.

    Seeds whose n* is at the grid floor (censored) or that never reach the
    target are left out of the fit and counted.

    Parameters
    ----------
    %(sample_complexity_table)s
    n_boot : int, default=2000
        Bootstrap resamples of the seeds.
    random_state : int, default=0
        Seeds the bootstrap.

    Returns
    -------
    exponents : pandas.DataFrame
        Columns ``model, exponent, low, high`` (bootstrap 95% over seeds),
        ``n_points``, ``n_seeds``, ``left_out_floor``, ``left_out_unreached``.

    Examples
    --------
    >>> from skxor.studies import fit_exponents, n_star_per_seed, sample_complexity
    >>> df = sample_complexity(model=["transformer_multi_step"], d=[10, 20], seeds=2,
    ...                        n_min=100, n_max=6400, n_sizes=4, n_test=500)
    >>> n_star_per_seed(df)[["d", "seed", "n_star", "status"]]
        d  seed  n_star         status
    0  10     0   100.0  at grid floor
    1  10     1   400.0        reached
    2  20     0   100.0  at grid floor
    3  20     1  1600.0        reached
    >>> fits = fit_exponents(df)
    >>> fits[["n_points", "n_seeds", "left_out_floor", "left_out_unreached"]].values.tolist()
    [[2, 1, 2, 0]]
    >>> round(float(fits["exponent"].iloc[0]), 2)  # n* from 400 to 1600 as d doubles
    2.0
    """
    per_seed = n_star_per_seed(df, target)
    rows = []
    for model, group in per_seed.groupby("model", sort=True):
        used = group[group["status"] == "reached"]
        fit = bootstrap_loglog_slope(used["d"], used["n_star"], groups=used["seed"],
                                     n_boot=n_boot, random_state=random_state)
        rows.append({
            "model": model, "exponent": fit["slope"], "low": fit["low"], "high": fit["high"],
            "n_points": fit["n_points"], "n_seeds": fit["n_groups"],
            "left_out_floor": int((group["status"] == "at grid floor").sum()),
            "left_out_unreached": int((group["status"] == "not reached").sum()),
        })
    return pd.DataFrame(rows)


def exponents(df):
    """``{model: exponent}`` from :func:`fit_exponents` (point estimates only)."""
    return dict(zip(*fit_exponents(df)[["model", "exponent"]].to_numpy().T))


def _grid(df):
    sizes = np.sort(df["n"].unique())
    ratio = float(np.max(sizes[1:] / sizes[:-1])) if sizes.size > 1 else float("nan")
    return sizes, ratio


def _analysed(df):
    """``like_for_like(df)``, keeping the attrs (and their row count) when nothing is left out."""
    kept = like_for_like(df)
    if len(kept) < len(df):
        kept = kept.copy()
        kept.attrs = {}
    return kept


def _setting(df):
    count = seeds_text(df.groupby(["model", "d"])["seed"].nunique())
    preset = run_preset(df)
    where = "" if preset is None else f"{preset} preset, "
    sizes, ratio = _grid(df)
    return (f"{where}{count}, n from {sizes.min():,} to {sizes.max():,} "
            f"(steps of at most x{ratio:.2f})")


def _is_rough(df):
    seeds = int(df.groupby(["model", "d"])["seed"].nunique().min())
    return seeds < 10 or df["d"].nunique() < 6, seeds


_MARKERS = {"transformer_one_step": "o", "transformer_multi_step": "s", "ffnn": "^"}


def plot_sample_complexity(df):
    """Learning curves per d, and n*(d) per seed on log-log axes with fits and bands.

    Returns
    -------
    figures : dict of str to matplotlib.figure.Figure
        ``"learning_curves"`` (mean test accuracy over seeds against n, one
        panel per model, one line per d) and ``"samples_needed"`` (per-seed
        n*, hollow where censored at the grid floor, triangles above the grid
        where the target was not reached; the least-squares fit per model
        with its bootstrap 95% slope band; a labelled d^4 reference slope).

    Examples
    --------
    >>> from skxor.studies import plot_sample_complexity, sample_complexity
    >>> df = sample_complexity(model=["transformer_multi_step"], d=[10, 20], seeds=2,
    ...                        n_min=100, n_max=6400, n_sizes=4, n_test=500)
    >>> figures = plot_sample_complexity(df)
    >>> curves = figures["learning_curves"].axes[0]
    >>> [text.get_text() for text in curves.get_legend().get_texts()]
    ['d = 10', 'd = 20', 'target 0.95']
    >>> for text in figures["samples_needed"].axes[0].get_legend().get_texts():
    ...     print(text.get_text())
    transformer_multi_step: a = 2.00 [2.00, 2.00] (2 points)
    transformer_multi_step: at grid floor (censored)
    transformer_multi_step: fit
    transformer_multi_step: 95% slope band
    reference slope d^4 (the proof's bound, up to polylog d)
    grid floor n = 100
    """
    from matplotlib.figure import Figure

    df = _analysed(df)
    target = float(df["target"].iloc[0])
    models = [m for m in MODELS if m in set(df["model"])]
    ds = sorted(df["d"].unique())
    curves = Figure(figsize=(4.0 * len(models) + 0.8, 3.6), layout="constrained")
    axes = np.atleast_1d(curves.subplots(1, len(models), sharey=True))
    mean = df.groupby(["model", "d", "n"])["accuracy"].mean().reset_index()
    for ax, model in zip(axes, models):
        for i, d in enumerate(ds):
            group = mean[(mean["model"] == model) & (mean["d"] == d)]
            ax.plot(group["n"], group["accuracy"], marker=MARKERS[i % len(MARKERS)], ms=3,
                    ls="-", lw=1, label=f"d = {d}", color=f"C{i}")
        ax.axhline(target, color="grey", lw=0.8, ls="--", label=f"target {target:g}")
        ax.set_xscale("log")
        ax.set_xlabel("training samples n")
        ax.set_title(model, fontsize="small")
        ax.set_ylabel("test accuracy (mean over seeds)")
    axes[-1].legend(fontsize="x-small")
    curves.suptitle(f"Learning curves: {_setting(df)}", fontsize="small")

    per_seed = n_star_per_seed(df)
    fits = fit_exponents(df).set_index("model")
    sizes, _ = _grid(df)
    scaling = Figure(figsize=(9.5, 4.8), layout="constrained")
    ax = scaling.subplots()
    lo_d, hi_d = np.log(min(ds)), np.log(max(ds))
    grid_d = np.exp(np.linspace(lo_d, hi_d, 50))
    above = sizes.max() * 1.5  # where unreached seeds are drawn
    for i, model in enumerate(models):
        color, marker = f"C{i}", _MARKERS.get(model, "D")
        shift = float(offset(1.0, i, len(models), spread=0.012, base=10))  # models apart
        part = per_seed[per_seed["model"] == model]
        jitter = 10 ** (0.006 * (part["seed"].to_numpy() % 5 - 2))
        x = part["d"].to_numpy() * shift * jitter
        fit = fits.loc[model]
        label = (f"{model}: a = {format_interval(fit['exponent'], fit['low'], fit['high'])}"
                 f" ({int(fit['n_points'])} points)")
        ok = (part["status"] == "reached").to_numpy()
        ax.plot(x[ok], part["n_star"].to_numpy()[ok], ls="none", marker=marker, ms=4,
                color=color, alpha=0.7, label=label)
        floor = (part["status"] == "at grid floor").to_numpy()
        if floor.any():
            ax.plot(x[floor], part["n_star"].to_numpy()[floor], ls="none", marker=marker,
                    ms=5, mfc="none", color=color, label=f"{model}: at grid floor (censored)")
        missing = (part["status"] == "not reached").to_numpy()
        if missing.any():
            ax.plot(x[missing], np.full(missing.sum(), above), ls="none", marker="^", ms=5,
                    mfc="none", color=color, label=f"{model}: not reached by n = {sizes.max():,}")
        used = part[ok]
        if np.isfinite(fit["exponent"]):
            cx, cy = np.log(used["d"]).mean(), np.log(used["n_star"]).mean()
            line = np.exp(cy + fit["exponent"] * (np.log(grid_d) - cx))
            ax.plot(grid_d, line, color=color, lw=1.2, label=f"{model}: fit")
            if np.isfinite(fit["low"]):
                band = [np.exp(cy + s * (np.log(grid_d) - cx)) for s in (fit["low"], fit["high"])]
                ax.fill_between(grid_d, np.minimum(*band), np.maximum(*band), color=color,
                                alpha=0.15, lw=0, label=f"{model}: 95% slope band")
    reachable = per_seed.loc[per_seed["status"] != "not reached", "n_star"]
    anchor = float(reachable.min()) if len(reachable) else float(sizes.min())
    ax.plot(grid_d, anchor * (grid_d / min(ds)) ** 4, color="black", ls="--", lw=1,
            label="reference slope d^4 (the proof's bound, up to polylog d)")
    ax.axhline(sizes.min(), color="grey", lw=0.6, ls=":", label=f"grid floor n = {sizes.min():,}")
    log_axis(ax, ds, label="d (input length)")
    ax.set_yscale("log")
    ax.set_ylim(sizes.min() / 1.5, above * 1.5)
    ax.set_ylabel(f"n* per seed (accuracy stays >= {target:g})")
    ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.set_title(f"Samples needed: {_setting(df)}\nlines: fit to the per-seed n*, "
                 "bands: bootstrap 95% over seeds", fontsize="small")
    return {"learning_curves": curves, "samples_needed": scaling}


def _range(values):
    values = [v for v in values if np.isfinite(v)]
    if not values:
        return "-"
    lo, hi = min(values), max(values)
    return f"{lo:,.0f}" if lo == hi else f"{lo:,.0f}..{hi:,.0f}"


def report_sample_complexity(df):
    """Markdown: per-seed n*, its median per model and d, exponents with intervals; numbers from ``df``.

    Parameters
    ----------
    df : pandas.DataFrame
        The long table of :func:`sample_complexity`; only the rows of its
        latest setting are analysed (:func:`like_for_like`), the others are
        counted.

    Returns
    -------
    text : str
        A Markdown section: the setting, the samples needed per model and d,
        the fitted exponents and the time against the floor.

    Examples
    --------
    >>> from skxor.studies import report_sample_complexity, sample_complexity
    >>> df = sample_complexity(model=["transformer_multi_step"], d=[10, 20], seeds=2,
    ...                        n_min=100, n_max=6400, n_sizes=4, n_test=500)
    >>> report = report_sample_complexity(df)
    >>> print(report.splitlines()[0])
    ## Sample complexity
    >>> for line in report.splitlines():  # doctest: +NORMALIZE_WHITESPACE
    ...     if line.startswith("| transformer_multi_step"):
    ...         print(line)
    | transformer_multi_step | 10 | 250 | 100..400 | 2/2 (1.00 [0.34, 1.00]) | 1 |
    | transformer_multi_step | 20 | 850 | 100..1,600 | 2/2 (1.00 [0.34, 1.00]) | 1 |
    | transformer_multi_step | 2.00 [2.00, 2.00] | 2 | 1 | 2 | 0 |
    """
    everything = df
    df = _analysed(df)
    target = float(df["target"].iloc[0])
    table = samples_needed(df)
    fits = fit_exponents(df)
    rough, seeds = _is_rough(df)
    shown = table.assign(
        reached=[f"{r} ({format_interval(v, lo, hi)})" for r, v, lo, hi in
                 table[["reached", "reached_rate", "reached_low", "reached_high"]].to_numpy()],
        seed_range=[_range([a, b]) for a, b in table[["n_star_min", "n_star_max"]].to_numpy()],
    )[["model", "d", "n_star", "seed_range", "reached", "at_floor"]]
    fit_table = fits.assign(
        exponent=[format_interval(a, lo, hi) for a, lo, hi in
                  fits[["exponent", "low", "high"]].to_numpy()],
    )[["model", "exponent", "n_points", "n_seeds", "left_out_floor", "left_out_unreached"]]
    lines = [
        "## Sample complexity",
        "",
        f"Setting: {_setting(df)}."
        + (f" Rough: {seeds} seeds and {df['d'].nunique()} values of d; read the "
           "exponents as indications only." if rough else ""),
        f"n* per seed = the smallest training size from which the test accuracy stays "
        f">= {target:g} at every larger size tried; n_star below is its median over "
        "seeds (seed_range: smallest and largest per-seed n*; reached: seeds reaching "
        "the target, Wilson 95%; at_floor: seeds whose n* is the smallest size tried, "
        "so that the true value may be smaller).",
        "",
        shown.to_markdown(index=False, floatfmt=",.0f"),
        "",
        "Exponent a of n*(d) ~ d^a: least squares on log n* against log d over the "
        "per-seed points, bootstrap 95% over seeds; points at the grid floor (censored) "
        "and seeds that never reach the target are left out and counted:",
        "",
        fit_table.to_markdown(index=False),
        "",
    ]
    for _, fit in fits.iterrows():
        part = table[table["model"] == fit["model"]]
        lines.append(
            f"- {fit['model']}: median n* {_range(part['n_star'])} at d = "
            f"{part['d'].min()}..{part['d'].max()}, exponent "
            f"{format_interval(fit['exponent'], fit['low'], fit['high'])}"
            f"{'' if np.isfinite(fit['low']) else ' (no interval: too few seeds or d)'} from "
            f"{int(fit['n_points'])} points ({int(fit['left_out_floor'])} at the grid floor "
            f"and {int(fit['left_out_unreached'])} unreached left out); the proof's bound "
            "grows as d^4 up to polylog factors."
        )
    lines += _other_settings(everything, df)
    lines += _tradeoff(table)
    timing = timing_sentence(df, "learning curves", "the fits and test scoring")
    if timing:
        lines.append(timing)
    return "\n".join(lines)


def _other_settings(everything, analysed):
    """Sentences naming the rows of other settings that ``like_for_like`` left out."""
    others = everything[~everything.index.isin(analysed.index)]
    if others.empty:
        return []
    columns = [c for c in SETTING_COLUMNS if c in everything]
    counts = others.groupby(columns, sort=False).size()
    listed = "; ".join(
        ", ".join(f"{c}={v:g}" for c, v in zip(columns, values)) + f": {count} rows"
        for values, count in counts.items()
    )
    return [
        f"- Not pooled: this analysis uses the latest setting only; the table also holds "
        f"{len(others)} rows of {len(counts)} other setting(s) of {', '.join(columns)} "
        f"({listed}). Analyse one with `report_sample_complexity(table[table.n_test == "
        "...])` (select on every column that differs); `skxor run` writes one part of "
        "report.md per setting."
    ]


def _tradeoff(table):
    """Side-by-side sentences: which model needs fewer samples, from the table."""
    if "ffnn" not in set(table["model"]):
        return ["- The FFNN is not among these rows (`--set model=ffnn` measures its samples "
                "needed, as the full preset does); trainable parameters needed are in the "
                "parameter-scaling study."]
    wide = table.pivot(index="d", columns="model", values="n_star")
    lines = []
    for model in [m for m in MODELS if m != "ffnn" and m in wide]:
        both = wide[["ffnn", model]].dropna()
        fewer = int((both["ffnn"] < both[model]).sum())
        lines.append(
            f"- Samples: the FFNN's median n* is below the {model}'s at {fewer} of the "
            f"{len(both)} values of d where both reach the target "
            f"(FFNN {_range(both['ffnn'])}, {model} {_range(both[model])})."
        )
    lines.append(
        "- Trainable parameters, the other side of the comparison: the transformer "
        "has 2 m of them whatever d, the FFNN width (d + 2) + 1; the parameter-scaling "
        "study (`skxor run parameter_scaling`) measures how many each needs, with "
        "intervals."
    )
    return lines


STUDY = Study(
    name="sample_complexity",
    description=(
        "Learning curves (sklearn learning_curve): test accuracy vs n per d, the "
        "per-seed samples n*(d) needed for 95% accuracy (censoring flagged) and its "
        "fitted exponent with a bootstrap interval."
    ),
    parameters=PARAMETERS,
    presets=PRESETS,
    cell=sample_complexity_cell,
    compute=_compute,
    summary=samples_needed,
    figures=plot_sample_complexity,
    report=report_sample_complexity,
    key=("model", "d", "seed", "n", *SETTING_COLUMNS),
    check=_check,
    setting=SETTING_COLUMNS,
)

__all__ = [
    "MODELS",
    "PARAMETERS",
    "PRESETS",
    "SETTING_COLUMNS",
    "STUDY",
    "TIME_COLUMNS",
    "exponents",
    "fit_exponents",
    "like_for_like",
    "n_star_per_seed",
    "plot_sample_complexity",
    "report_sample_complexity",
    "sample_complexity",
    "sample_complexity_cell",
    "samples_needed",
    "train_sizes",
]
