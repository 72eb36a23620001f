"""Sample complexity: test accuracy against n, and the n needed per d.

Each cell runs :func:`sklearn.model_selection.learning_curve` for one model,
one d and one seed: the model is fitted on growing prefixes of one training
set and scored on a fixed, held-out test split. A seed's ``n*`` is the
smallest training size from which the test accuracy stays at or above the
target (0.95 by default) at every larger size tried. The grid only brackets
it: the true n* lies in ``(last failing n, first reaching n]``, the grid
cell below the first size from which the accuracy stays up. A seed whose
accuracy stays up from the smallest size tried is *left-censored* (n* in
``(0, n_min]``), one that does not stay up by n_max is *right-censored* (n* > n_max);
both are kept. The growth of n* with d is fitted by maximum likelihood to
these intervals (:func:`fit_exponents`): log n* normal around
``b + a log d`` with a common spread, each seed contributing the probability
of its interval, with a profile-likelihood 95% interval for the exponent a.
Han & Ghoshdastidar's one-step bound grows as d^4 up to polylog factors, and
their own experiments found far fewer samples than the bound to suffice.
"""

import time
import warnings
from numbers import Real

import numpy as np
import pandas as pd
from scipy import optimize, stats
from sklearn.model_selection import ShuffleSplit, learning_curve
from sklearn.utils._param_validation import Interval, StrOptions

from .._utils._docstrings import fill_doc
from ..datasets import make_sparse_parity
from ..estimators import FFNNParityBaseline, SparseXORTransformer
from ._common import Study, expand_grid, run_preset, seeds_text, single_thread
from ._figures import MARKERS, log_axis, offset
from ._floor import TIME_COLUMNS, timing_sentence
from ._parameters import AT_LEAST_TWO, POSITIVE, Grid
from ._stats import check_confidence, check_n_boot, format_interval, rate_with_interval
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


#: Columns a learning-curve table needs (``target`` too unless passed).
REQUIRED_COLUMNS = ("model", "d", "seed", "n", "accuracy")

#: The per-seed status of n* and what it means for the interval.
STATUSES = {
    "reached": "interval-censored: n* in (last failing n, first reaching n]",
    "at grid floor": "left-censored: n* <= the smallest size tried",
    "not reached": "right-censored: n* > the largest size tried",
}


def _validated(df, target, name="df"):
    """The latest setting's rows of ``df`` and the target, checked (ValueError naming the input)."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame (the table of sample_complexity); "
                        f"got {type(df).__name__}.")
    needed = list(REQUIRED_COLUMNS) + (["target"] if target is None else [])
    missing = [c for c in needed if c not in df]
    if missing:
        raise ValueError(
            f"{name} lacks the column(s) {missing} (a learning-curve table has "
            f"{', '.join(REQUIRED_COLUMNS)} and target" + (
                "; or pass target=" if "target" in missing else "") + ").")
    if df.empty:
        raise ValueError(f"{name} holds no rows: there is nothing to summarise.")
    df = like_for_like(df)
    for column in ("n", "d", "accuracy"):
        values = pd.to_numeric(df[column], errors="coerce").to_numpy(dtype=float)
        bad = ~np.isfinite(values)
        if bad.any():
            raise ValueError(f"{name}[{column!r}] holds {int(bad.sum())} missing or "
                             "non-finite value(s); every row needs a finite value.")
    if (df["n"] < 1).any() or (df["n"] != np.round(df["n"])).any():
        raise ValueError(f"{name}['n'] must hold whole training sizes >= 1; got "
                         f"{sorted(set(df['n'][(df['n'] < 1) | (df['n'] != np.round(df['n']))]))[:5]}.")
    if not df["accuracy"].between(0, 1).all():
        raise ValueError(f"{name}['accuracy'] must lie in [0, 1].")
    if target is None:
        target = df["target"].iloc[0]
        where = f"{name}['target']"
    else:
        where = "target"
    try:
        target = float(target)
    except (TypeError, ValueError):
        raise ValueError(f"{where} must be a number in (0.5, 1]; got {target!r}.") from None
    # As the study's own parameter: above 1/2, the accuracy of guessing.
    if not 0.5 < target <= 1:
        raise ValueError(f"{where} must be in (0.5, 1] (above the 0.5 of guessing); "
                         f"got {target!r}.")
    return df, target


@fill_doc
def n_star_per_seed(df, target=None):
    """Per model, d and seed: the grid cell holding n*, the n from which the accuracy stays >= target.

    Parameters
    ----------
    %(sample_complexity_table)s

    Returns
    -------
    per_seed : pandas.DataFrame
        Columns ``model, d, seed, n_star, n_low, n_high, status``:
        ``n_star`` is the smallest training size tried from which every
        larger size tried reaches the target (inf when the largest does
        not); the true n* lies in ``(n_low, n_high]``: ``n_low`` is the last
        size that failed (0 when the smallest size already stays up),
        ``n_high`` is ``n_star``. ``status`` is ``"reached"``
        (interval-censored), ``"at grid floor"`` (left-censored: n* is at
        most the smallest size tried) or ``"not reached"`` (right-censored:
        n* exceeds the largest size tried, ``n_low`` is that size).

    Raises
    ------
    ValueError
        An empty table, a missing column, a non-finite ``n``, ``d`` or
        ``accuracy``, or a target outside (0.5, 1].

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies._sample_complexity import n_star_per_seed
    >>> df = pd.DataFrame({"model": "m", "d": 10, "seed": 0, "n": [10, 20, 40, 80],
    ...                    "accuracy": [0.99, 0.5, 0.97, 0.98], "target": 0.95})
    >>> n_star_per_seed(df)[["n_star", "n_low", "n_high", "status"]].values.tolist()
    [[40.0, 20.0, 40.0, 'reached']]
    """
    df, target = _validated(df, target)
    rows = []
    for (model, d, seed), curve in df.groupby(["model", "d", "seed"], sort=True):
        curve = curve.sort_values("n")
        # From n* on, every larger size must also reach the target: one lucky
        # small sample does not count.
        above = (curve["accuracy"] >= target).to_numpy()
        stays = np.flip(np.logical_and.accumulate(np.flip(above)))
        sizes = curve["n"].to_numpy(dtype=float)
        if not stays.any():
            n_star, low, high, status = np.inf, sizes[-1], np.inf, "not reached"
        elif stays[0]:
            n_star, low, high, status = sizes[0], 0.0, sizes[0], "at grid floor"
        else:
            first = int(np.argmax(stays))
            n_star, low, high, status = sizes[first], sizes[first - 1], sizes[first], "reached"
        rows.append({"model": model, "d": d, "seed": seed, "n_star": float(n_star),
                     "n_low": float(low), "n_high": float(high), "status": status})
    return pd.DataFrame(rows)


def _median_interval(low, high, confidence=0.95):
    """Distribution-free interval of the median of values known only to lie in (low, high].

    Order statistics: with n values, ``[X_(r), X_(n+1-r)]`` covers the median
    with probability ``1 - 2 P(Bin(n, 1/2) < r)``; the lower end is taken
    from the intervals' lower ends and the upper from their upper ends.
    With too few values for that coverage (n < 6 at 95%), the range of the
    intervals instead, marked ``"range"``.
    """
    low, high = np.sort(low), np.sort(high)
    n = low.size
    # Largest r with P(Bin(n, 1/2) <= r - 1) <= (1 - confidence) / 2.
    r = int(stats.binom.ppf((1 - confidence) / 2, n, 0.5))
    if r >= 1 and stats.binom.cdf(r - 1, n, 0.5) <= (1 - confidence) / 2 + 1e-12:
        return float(low[r - 1]), float(high[n - r]), f"{confidence:.0%}"
    return float(low[0]), float(high[-1]), "range"


def samples_needed(df, target=None):
    """Samples needed per model and d, over seeds, with an interval of the median.

    Returns
    -------
    table : pandas.DataFrame
        Columns ``model, d, n_star`` (median over seeds of the per-seed n*,
        a seed that does not reach the target by the largest size counting as more than the
        largest size; NaN unless more than half the seeds reach it, since
        with half or more above the grid the median is not bracketed),
        ``n_star_min``, ``n_star_max`` (range over the seeds that reach it),
        ``median_low``, ``median_high`` and ``median_interval`` (an interval
        of the median n* from the per-seed grid cells: distribution-free
        95% from order statistics with 6 seeds or more, ``"95%"``; with
        fewer, the range of the cells, ``"range"``, rough; ``median_high``
        is inf when the median may lie above the grid), ``seeds``,
        ``reached`` (``"k/n"``), ``reached_rate``, ``reached_low``,
        ``reached_high`` (Wilson 95%), ``at_floor`` (left-censored seeds)
        and ``not_reached`` (right-censored seeds).

    Raises
    ------
    ValueError
        As :func:`n_star_per_seed`.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies import samples_needed
    >>> df = pd.DataFrame({"model": "m", "d": 10, "seed": [0] * 3 + [1] * 3,
    ...                    "n": [10, 20, 40] * 2, "accuracy": [0.5, 1, 1, 0.5, 0.5, 1],
    ...                    "target": 0.95})
    >>> samples_needed(df)[["n_star", "median_low", "median_high", "median_interval",
    ...                     "reached", "at_floor"]].values.tolist()
    [[30.0, 10.0, 40.0, 'range', '2/2', 0]]
    """
    per_seed = n_star_per_seed(df, target)
    rows = []
    for (model, d), group in per_seed.groupby(["model", "d"], sort=True):
        values = group["n_star"].to_numpy(dtype=float)
        finite = values[np.isfinite(values)]
        # The median is bracketed only when more than half the seeds reach.
        median = float(np.median(values)) if 2 * finite.size > values.size else np.nan
        low, high, kind = _median_interval(group["n_low"].to_numpy(float),
                                           group["n_high"].to_numpy(float))
        rate, r_low, r_high, n = rate_with_interval(np.isfinite(values))
        rows.append({
            "model": model, "d": d,
            "n_star": median,
            "n_star_min": float(finite.min()) if finite.size else np.nan,
            "n_star_max": float(finite.max()) if finite.size else np.nan,
            "median_low": low, "median_high": high, "median_interval": kind,
            "seeds": n,
            "reached": f"{finite.size}/{n}",
            "reached_rate": rate, "reached_low": r_low, "reached_high": r_high,
            "at_floor": int((group["status"] == "at grid floor").sum()),
            "not_reached": int((group["status"] == "not reached").sum()),
        })
    return pd.DataFrame(rows)


def _log_likelihood(params, x, lo, hi):
    """Log-likelihood of log n* ~ Normal(b + a x, sigma) for the intervals (lo, hi] of log n*."""
    a, b, log_sigma = params
    mu = b + a * x
    sigma = np.exp(log_sigma)
    zl, zh = (lo - mu) / sigma, (hi - mu) / sigma
    # log(Phi(zh) - Phi(zl)), from the side of the smaller tail.
    upper = zl > 0
    big, small = np.where(upper, stats.norm.logsf(zl), stats.norm.logcdf(zh)), np.where(
        upper, stats.norm.logsf(zh), stats.norm.logcdf(zl))
    with np.errstate(divide="ignore"):
        terms = big + np.log1p(-np.exp(np.minimum(small - big, 0.0)))
    return float(np.sum(np.maximum(terms, -1e6)))


#: Bounds of log sigma: the spread of log n* is kept above 1e-3 (the
#: likelihood of intervals stays finite as it shrinks, the optimiser need not).
_LOG_SIGMA = (np.log(1e-3), np.log(20.0))


def _maximise(x, lo, hi, a=None, start=None):
    """Maximum likelihood over (a, b, log sigma), or over (b, log sigma) with ``a`` fixed.

    Nelder-Mead from a few starts (or from ``start``, a previous optimum):
    three parameters at most, and no gradient to get wrong.
    """
    if start is not None:
        starts = [start]
    else:
        mid = np.where(np.isfinite(lo) & np.isfinite(hi), (lo + hi) / 2,
                       np.where(np.isfinite(hi), hi, lo))
        slope = np.polyfit(x, mid, 1)[0] if np.unique(x).size > 1 else 0.0
        a0 = slope if a is None else a
        b0 = float(np.mean(mid - a0 * x))
        s0 = float(np.log(max(np.std(mid - a0 * x), 0.1)))
        starts = [[a0, b0, s] for s in (s0, np.log(0.3), np.log(2.0))]
    bounds = [(-50, 50), (-200, 200), _LOG_SIGMA]
    best = None
    for point in starts:
        if a is None:
            res = optimize.minimize(lambda p: -_log_likelihood(p, x, lo, hi), point,
                                    method="Nelder-Mead", bounds=bounds,
                                    options={"xatol": 1e-5, "fatol": 1e-7, "maxiter": 4000})
            value, found = -res.fun, res.x
        else:
            res = optimize.minimize(lambda p: -_log_likelihood([a, *p], x, lo, hi), point[1:],
                                    method="Nelder-Mead", bounds=bounds[1:],
                                    options={"xatol": 1e-5, "fatol": 1e-7, "maxiter": 4000})
            value, found = -res.fun, np.array([a, *res.x])
        if best is None or value > best[0]:
            best = (value, found)
    return best


def _censored_inputs(d, n_low, n_high):
    """``d, n_low, n_high`` as float arrays of one length, checked (ValueError naming them)."""
    arrays = []
    for name, values in (("d", d), ("n_low", n_low), ("n_high", n_high)):
        try:
            values = np.asarray(values, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(f"{name} must hold numbers; got {values!r:.80}.") from None
        if values.ndim != 1:
            raise ValueError(f"{name} must be 1-D; got shape {values.shape}.")
        arrays.append(values)
    d, n_low, n_high = arrays
    if not d.size == n_low.size == n_high.size:
        raise ValueError(f"d, n_low and n_high need one entry per observation; got "
                         f"lengths {d.size}, {n_low.size} and {n_high.size}.")
    if not (np.isfinite(d) & (d > 0)).all():
        raise ValueError(f"d must hold finite numbers > 0; got {d[~(np.isfinite(d) & (d > 0))][:5]}.")
    if not (np.isfinite(n_low) & (n_low >= 0)).all():
        raise ValueError("n_low must hold finite sizes >= 0 (0: left-censored); got "
                         f"{n_low[~(np.isfinite(n_low) & (n_low >= 0))][:5]}.")
    # inf (right-censored) is allowed, NaN is not; every cell is (n_low, n_high].
    if not (n_high > n_low).all():
        raise ValueError("n_high must exceed n_low in every row (inf: right-censored); "
                         f"got {int((~(n_high > n_low)).sum())} row(s) where it does not "
                         "(or is NaN).")
    return d, n_low, n_high


def censored_loglog_fit(d, n_low, n_high, confidence=0.95):
    """Exponent a of n* ~ d^a by maximum likelihood on interval-censored n*.

    log n* is modelled as normal around ``b + a (log d - mean log d)`` with
    one spread sigma; each observation contributes the probability that
    log n* falls in its interval ``(log n_low, log n_high]`` (``n_low = 0``:
    left-censored; ``n_high = inf``: right-censored). The interval of a is
    the profile-likelihood interval (likelihood-ratio test, chi-squared with
    one degree of freedom).

    Parameters
    ----------
    d, n_low, n_high : array-like of shape (n_points,)
        One entry per independent observation (a learning curve).
    confidence : float, default=0.95

    Returns
    -------
    fit : dict
        ``exponent``, ``low``, ``high`` (NaN when unbounded within a = +-50),
        ``sigma`` (the spread of log n* about the line), ``intercept`` (log
        n* at the mean log d), ``log_d_centre``, ``n_points``. All NaN
        unless some observation is bracketed on both sides at two distinct d.

    Raises
    ------
    ValueError
        Inputs of different lengths or not 1-D; a d that is not a finite
        number > 0; an ``n_low`` that is not finite and >= 0; an ``n_high``
        not above its ``n_low`` (or NaN); ``confidence`` outside (0, 1).

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.studies._sample_complexity import censored_loglog_fit
    >>> d = np.repeat([10, 20, 40], 4)
    >>> n = 5.0 * d ** 2 * np.tile([0.8, 0.9, 1.1, 1.25], 3)
    >>> grid = 2.0 ** np.arange(20)
    >>> high = grid[np.searchsorted(grid, n)]
    >>> fit = censored_loglog_fit(d, high / 2, high)
    >>> bool(fit["low"] < 2 < fit["high"]), fit["n_points"]
    (True, 12)
    """
    confidence = check_confidence(confidence)
    d, n_low, n_high = _censored_inputs(d, n_low, n_high)
    lo = np.log(n_low, where=n_low > 0, out=np.full(d.size, -np.inf))
    hi = np.log(n_high)
    nan = float("nan")
    fit = {"exponent": nan, "low": nan, "high": nan, "sigma": nan, "intercept": nan,
           "log_d_centre": nan, "n_points": int(d.size)}
    bracketed = np.isfinite(lo) & np.isfinite(hi)
    if np.unique(d[bracketed]).size < 2:
        return fit
    centre = float(np.mean(np.log(d)))
    x = np.log(d) - centre
    best, (a, b, log_sigma) = _maximise(x, lo, hi)
    fit.update(exponent=float(a), intercept=float(b), sigma=float(np.exp(log_sigma)),
               log_d_centre=centre)
    drop = stats.chi2.ppf(confidence, 1) / 2

    def gap(value):
        # Warm-started at the optimum: the profile is smooth in a.
        return best - _maximise(x, lo, hi, a=value, start=[value, b, log_sigma])[0] - drop

    for side, limit in (("low", -50.0), ("high", 50.0)):
        step = 0.25 if side == "high" else -0.25
        inner, outer = a, a + step
        while gap(outer) < 0 and abs(outer) < abs(limit):
            inner, outer = outer, np.clip(outer + step, -50, 50)
            step *= 2
        if gap(outer) >= 0:
            fit[side] = float(optimize.brentq(gap, min(inner, outer), max(inner, outer),
                                              xtol=1e-3))
    return fit


@fill_doc
def fit_exponents(df, target=None, *, confidence=0.95, n_boot=None, random_state=None):
    """Exponent a of n*(d) ~ d^a per model, fitted to the per-seed grid cells of n*.

    Every seed is kept: its n* is known to lie in a grid cell (reached),
    below the smallest size (left-censored) or above the largest
    (right-censored), and the fit (:func:`censored_loglog_fit`, maximum
    likelihood with log n* normal about a line in log d) uses exactly that.
    The learning curves are the independent units: each (d, seed) has its
    own data and initialisation.

    Parameters
    ----------
    %(sample_complexity_table)s
    confidence : float, default=0.95
        Coverage of the profile-likelihood interval.
    n_boot, random_state : None
        No longer used (the interval was a bootstrap over seeds before it
        became a profile-likelihood interval): passing either warns with a
        ``FutureWarning``; ``n_boot`` must still be a whole number >= 1.

    Returns
    -------
    exponents : pandas.DataFrame
        Columns ``model, exponent, low, high`` (profile likelihood; NaN where
        unbounded), ``sigma`` (spread of log n* about the fit),
        ``n_points`` (learning curves, all used), ``n_d``, ``n_seeds``,
        ``n_interval``, ``left_censored``, ``right_censored`` and
        ``grid_ratio`` (the largest ratio of neighbouring sizes: the
        resolution of each interval).

    Raises
    ------
    ValueError
        As :func:`n_star_per_seed`, and for ``confidence`` outside (0, 1).

    Examples
    --------
    >>> from skxor.studies import fit_exponents, n_star_per_seed, sample_complexity
    >>> df = sample_complexity(model=["transformer_multi_step"], d=[10, 20], seeds=2,
    ...                        n_min=100, n_max=6400, n_sizes=4, n_test=500)
    >>> n_star_per_seed(df)[["d", "seed", "n_low", "n_high", "status"]]
        d  seed  n_low  n_high         status
    0  10     0    0.0   100.0  at grid floor
    1  10     1  100.0   400.0        reached
    2  20     0    0.0   100.0  at grid floor
    3  20     1  400.0  1600.0        reached
    >>> fits = fit_exponents(df)
    >>> fits[["n_points", "n_interval", "left_censored", "right_censored"]].values.tolist()
    [[4, 2, 2, 0]]
    """
    confidence = check_confidence(confidence)
    if n_boot is not None:
        check_n_boot(n_boot)
    if n_boot is not None or random_state is not None:
        warnings.warn("fit_exponents no longer bootstraps: n_boot and random_state are "
                      "ignored (the interval is a profile-likelihood interval).",
                      FutureWarning, stacklevel=2)
    per_seed = n_star_per_seed(df, target)
    _, ratio = _grid(like_for_like(df))
    rows = []
    for model, group in per_seed.groupby("model", sort=True):
        fit = censored_loglog_fit(group["d"], group["n_low"], group["n_high"], confidence)
        rows.append({
            "model": model, "exponent": fit["exponent"], "low": fit["low"],
            "high": fit["high"], "sigma": fit["sigma"], "intercept": fit["intercept"],
            "log_d_centre": fit["log_d_centre"],
            "n_points": fit["n_points"], "n_d": int(group["d"].nunique()),
            "n_seeds": int(group["seed"].nunique()),
            "n_interval": int((group["status"] == "reached").sum()),
            "left_censored": int((group["status"] == "at grid floor").sum()),
            "right_censored": int((group["status"] == "not reached").sum()),
            "grid_ratio": ratio,
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
        panel per model, one line per d) and ``"samples_needed"`` (each
        seed's n* as its grid cell, a bar from the last failing size to the
        first size from which the accuracy stays up; hollow, down to the
        axis, where left-censored at the grid floor; triangles above the
        grid where right-censored; the maximum-likelihood fit of the median
        n* per model with its profile-likelihood 95% slope band; a labelled
        d^4 reference slope).

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
    transformer_multi_step: grid cell (last failing n, n*] per seed
    transformer_multi_step: n* per seed
    transformer_multi_step: left-censored cell (0, n*]
    transformer_multi_step: at grid floor (left-censored)
    transformer_multi_step: ML fit, a = 1.17 [-7.44, 10.01] (4 curves, 2 censored)
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
    above = sizes.max() * 1.5  # where right-censored seeds are drawn
    bottom = sizes.min() / 1.5
    for i, model in enumerate(models):
        color, marker = f"C{i}", _MARKERS.get(model, "D")
        shift = float(offset(1.0, i, len(models), spread=0.012, base=10))  # models apart
        part = per_seed[per_seed["model"] == model]
        jitter = 10 ** (0.006 * (part["seed"].to_numpy() % 5 - 2))
        x = part["d"].to_numpy() * shift * jitter
        low, high = part["n_low"].to_numpy(float), part["n_high"].to_numpy(float)
        ok = (part["status"] == "reached").to_numpy()
        if ok.any():
            ax.vlines(x[ok], low[ok], high[ok], color=color, lw=1, alpha=0.6,
                      label=f"{model}: grid cell (last failing n, n*] per seed")
            ax.plot(x[ok], high[ok], ls="none", marker=marker, ms=4, color=color, alpha=0.7,
                    label=f"{model}: n* per seed")
        floor = (part["status"] == "at grid floor").to_numpy()
        if floor.any():
            ax.vlines(x[floor], bottom, high[floor], color=color, lw=1, ls=":", alpha=0.6,
                      label=f"{model}: left-censored cell (0, n*]")
            ax.plot(x[floor], high[floor], ls="none", marker=marker, ms=5, mfc="none",
                    color=color, label=f"{model}: at grid floor (left-censored)")
        missing = (part["status"] == "not reached").to_numpy()
        if missing.any():
            ax.plot(x[missing], np.full(missing.sum(), above), ls="none", marker="^", ms=5,
                    mfc="none", color=color,
                    label=f"{model}: not reached by n = {sizes.max():,} (right-censored)")
        fit = fits.loc[model]
        if np.isfinite(fit["exponent"]):
            centred = np.log(grid_d) - fit["log_d_centre"]
            ax.plot(grid_d, np.exp(fit["intercept"] + fit["exponent"] * centred), color=color,
                    lw=1.2, label=f"{model}: ML fit, a = {_exponent_text(fit)} "
                                  f"({int(fit['n_points'])} curves, "
                                  f"{int(fit['left_censored'] + fit['right_censored'])} censored)")
            if np.isfinite(fit["low"]) and np.isfinite(fit["high"]):
                band = [np.exp(fit["intercept"] + a * centred) for a in (fit["low"], fit["high"])]
                ax.fill_between(grid_d, np.minimum(*band), np.maximum(*band), color=color,
                                alpha=0.15, lw=0, label=f"{model}: 95% slope band")
    reachable = per_seed.loc[per_seed["status"] != "not reached", "n_star"]
    anchor = float(reachable.min()) if len(reachable) else float(sizes.min())
    ax.plot(grid_d, anchor * (grid_d / min(ds)) ** 4, color="black", ls="--", lw=1, zorder=5,
            label="reference slope d^4 (the proof's bound, up to polylog d)")
    ax.axhline(sizes.min(), color="grey", lw=0.6, ls=":", zorder=5,
               label=f"grid floor n = {sizes.min():,}")
    log_axis(ax, ds, label="d (input length)")
    ax.set_yscale("log")
    ax.set_ylim(bottom, above * 1.5)
    ax.set_ylabel(f"n* per seed (accuracy stays >= {target:g})")
    ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.set_title(f"Samples needed: {_setting(df)}\nlines: ML fit of the median n* (censored "
                 "kept); bands: profile likelihood 95%", fontsize="small")
    return {"learning_curves": curves, "samples_needed": scaling}


def _exponent_text(fit):
    """The exponent with its interval; a one-sided or missing interval says so."""
    a, low, high = fit["exponent"], fit["low"], fit["high"]
    if not np.isfinite(a):
        return "-"
    if np.isfinite(low) and np.isfinite(high):
        return format_interval(a, low, high)
    ends = (f"{low:.2f}" if np.isfinite(low) else "unbounded",
            f"{high:.2f}" if np.isfinite(high) else "unbounded")
    return f"{a:.2f} [{ends[0]}, {ends[1]}]"


def _range(values):
    values = [v for v in values if np.isfinite(v)]
    if not values:
        return "-"
    lo, hi = min(values), max(values)
    return f"{lo:,.0f}" if lo == hi else f"{lo:,.0f}..{hi:,.0f}"


def _cell(low, high):
    """A median interval as text: ``(400, 800]``, ``> 102,400``."""
    if not np.isfinite(high):
        return f"> {low:,.0f}"
    return f"({low:,.0f}, {high:,.0f}]"


def report_sample_complexity(df):
    """Markdown: n* per model and d with intervals, censoring-aware exponents; numbers from ``df``.

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
    | transformer_multi_step | 10 | 250 | (0, 400] range | 100..400 | 2/2 (1.00 [0.34, 1.00]) | 1 | 0 |
    | transformer_multi_step | 20 | 850 | (0, 1,600] range | 100..1,600 | 2/2 (1.00 [0.34, 1.00]) | 1 | 0 |
    | transformer_multi_step | 1.17 [-7.44, 10.01] | 4 | 2 | 2 | 0 | x4.00 |
    """
    everything = df
    df = _analysed(df)
    df, target = _validated(df, None)
    table = samples_needed(df)
    fits = fit_exponents(df)
    rough, seeds = _is_rough(df)
    shown = table.assign(
        median_cell=[f"{_cell(lo, hi)} {kind}" for lo, hi, kind in
                     table[["median_low", "median_high", "median_interval"]].to_numpy()],
        reached=[f"{r} ({format_interval(v, lo, hi)})" for r, v, lo, hi in
                 table[["reached", "reached_rate", "reached_low", "reached_high"]].to_numpy()],
        seed_range=[_range([a, b]) for a, b in table[["n_star_min", "n_star_max"]].to_numpy()],
    )[["model", "d", "n_star", "median_cell", "seed_range", "reached", "at_floor",
       "not_reached"]]
    fit_table = fits.assign(
        exponent=[_exponent_text(f) for _, f in fits.iterrows()],
        grid=[f"x{r:.2f}" for r in fits["grid_ratio"]],
    )[["model", "exponent", "n_points", "n_interval", "left_censored", "right_censored",
       "grid"]]
    lines = [
        "## Sample complexity",
        "",
        f"Setting: {_setting(df)}."
        + (f" Rough: {seeds} seeds and {df['d'].nunique()} values of d; read the "
           "exponents as indications only." if rough else ""),
        f"n* per seed = the smallest training size from which the test accuracy stays "
        f">= {target:g} at every larger size tried; the grid brackets it in (last failing "
        "size, that size]. n_star below is its median over seeds (NaN unless more than "
        "half reach the target); median_cell an interval of that median from the seeds' "
        "grid cells (95%: distribution-free, from order statistics, 6 seeds or more; "
        "range: the whole range of the cells, rough, with fewer seeds); seed_range: "
        "smallest and largest per-seed n*; reached: seeds reaching the target, Wilson "
        "95%; at_floor: seeds already at the target at the smallest size (left-censored); "
        "not_reached: seeds not staying there by the largest size tried (right-censored).",
        "",
        shown.to_markdown(index=False, floatfmt=",.0f"),
        "",
        "Exponent a of n*(d) ~ d^a: maximum likelihood with log n* normal about a line "
        "in log d, every learning curve (an independent (d, seed) unit) contributing the "
        "probability of its grid cell, censored seeds included; profile-likelihood 95% "
        "interval. n_interval: curves bracketed on both sides; grid: the largest ratio "
        "of neighbouring sizes, each cell's resolution:",
        "",
        fit_table.to_markdown(index=False),
        "",
    ]
    for _, fit in fits.iterrows():
        part = table[table["model"] == fit["model"]]
        lines.append(
            f"- {fit['model']}: median n* {_range(part['n_star'])} at d = "
            f"{part['d'].min()}..{part['d'].max()}, exponent {_exponent_text(fit)}"
            f"{'' if np.isfinite(fit['exponent']) else ' (no fit: no two d with a seed bracketed on both sides)'}"
            f" from {int(fit['n_points'])} learning curves ({int(fit['left_censored'])} "
            f"left- and {int(fit['right_censored'])} right-censored, kept), grid cells up "
            f"to x{fit['grid_ratio']:.2f} wide."
        )
    below = [f"{f['model']} (upper end {f['high']:.2f})" for _, f in fits.iterrows()
             if np.isfinite(f["high"]) and f["high"] < 4]
    lines.append(
        "- Against the theory: Han & Ghoshdastidar's guarantee for one step needs a "
        "number of samples growing as d^4 (up to polylog d), and their own experiments "
        "found far fewer samples than that bound to suffice. "
        + (f"Here the interval of the exponent ends below 4 for {', '.join(below)}, in "
           "line with their finding (a sufficient condition may be loose); "
           if below else "Here no interval of the exponent ends below 4: these data "
           "cannot place the exponent against the bound; ")
        + "this holds for the d and the grid run here only."
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
    """Side-by-side sentences: which model needs fewer samples, where the intervals separate."""
    if "ffnn" not in set(table["model"]):
        return ["- The FFNN is not among these rows (`--set model=ffnn` measures its samples "
                "needed, as the full preset does); trainable parameters needed are in the "
                "parameter-scaling study."]
    lines = []
    by = table.set_index(["model", "d"])
    for model in [m for m in MODELS if m != "ffnn" and m in set(table["model"])]:
        ds = sorted(set(table.loc[table["model"] == model, "d"])
                    & set(table.loc[table["model"] == "ffnn", "d"]))
        ffnn_fewer, model_fewer, overlap = [], [], []
        for d in ds:
            f, t = by.loc[("ffnn", d)], by.loc[(model, d)]
            if f["median_high"] <= t["median_low"]:
                ffnn_fewer.append(d)
            elif t["median_high"] <= f["median_low"]:
                model_fewer.append(d)
            else:
                overlap.append(d)

        def listed(values):
            return ", ".join(str(v) for v in values) if values else "none"

        lines.append(
            f"- Samples, FFNN against {model} (a side counts as needing fewer only where "
            "the intervals of the two medians do not overlap): the FFNN needs fewer at "
            f"d = {listed(ffnn_fewer)}; the {model} at d = {listed(model_fewer)}; not "
            f"separated at d = {listed(overlap)}."
        )
    lines.append(
        "- Trainable parameters, the other side of the comparison: the transformer "
        "has 2 m of them whatever d (and d m frozen keys), the FFNN width (d + 2) + 1; the "
        "parameter-scaling study (`skxor run parameter_scaling`) measures how many each "
        "needs, with intervals."
    )
    return lines


STUDY = Study(
    name="sample_complexity",
    description=(
        "Learning curves (sklearn learning_curve): test accuracy vs n per d, the "
        "per-seed samples n*(d) needed for 95% accuracy as grid cells (censored seeds "
        "kept) and its exponent by censoring-aware maximum likelihood, with a "
        "profile-likelihood interval."
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
    "censored_loglog_fit",
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
