"""The sample-complexity study's summaries: n* per seed, per (model, d), and its exponent in d.

n* is defined once: the smallest training size tried from which the test
accuracy stays at or above the target at every larger size tried (the first
n reaching the target does not count when a later size falls back below
it), so a curve crossing the target several times has one n*.

The seeds are read as a *cure model*: each transformer seed's training run
is also computed on infinite data (the exact population steps from its own
keys and initial queries, the table's ``population_success``). A seed whose
population run fails has no finite n* whatever n: it is counted apart, in
p_pop = P(the population run succeeds), and never enters n*'s
distribution. Among the seeds whose population run succeeds (the *cured*
seeds), n* is interval-censored on the grid, and right-censored only when
the curve does not stay at the target by the largest size tried.

Beside each seed's n*, a probabilistic one per model and d
(:func:`probabilistic_n_star`): n*_80, the smallest size from which at least
80% of the cured seeds reach the target.
"""

import warnings

import numpy as np
import pandas as pd

from skxor._utils._docstrings import fill_doc, study_examples
from ..._common import Summary
from skxor.studies.reporting import ROUGH_BELOW_SEEDS
from skxor.studies.stats import (censored_loglog_fit, censored_median_interval, check_confidence,
                                 check_n_boot, rate_columns)
from skxor._utils._warnings import SkxorFutureWarning

#: The columns fixing a learning curve's grid, test split, target and parity (``k``):
#: tables merged from runs with other values are analysed on the latest run's only.
#: ``k`` is a column only of runs at k other than 2 (:func:`setting_values`).
SETTING_COLUMNS = ("n_min", "n_max", "ffnn_n_max", "n_sizes", "n_test", "target", "k")

#: The parity's k of rows without a ``k`` column or value: the study's k before it took k.
DEFAULT_K = 2


def setting_values(df):
    """The setting columns ``df`` has, with a missing ``k`` read as 2.

    A run at k = 2 writes no ``k`` column (its table is the one the study
    wrote before it took ``k``); merged with a run at another k, its rows
    hold NaN there, which mean k = 2.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.han_ghoshdastidar.sample_complexity import setting_values
    >>> df = pd.DataFrame({"n_test": [100, 100], "k": [float("nan"), 3]})
    >>> setting_values(df).values.tolist()
    [[100.0, 2.0], [100.0, 3.0]]
    """
    columns = [c for c in SETTING_COLUMNS if c in df]
    values = df[columns]
    if "k" in values:
        values = values.assign(k=values["k"].fillna(DEFAULT_K))
    return values


def like_for_like(df):
    """The rows sharing the last row's grid, test split and target.

    A table merged from runs with other settings (see ``SETTING_COLUMNS``)
    is analysed on the latest run's setting only, so that every curve and
    every n* compared uses the same sizes, test split and target. Columns
    the table lacks are not compared.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.han_ghoshdastidar.sample_complexity import like_for_like
    >>> df = pd.DataFrame({"n": [10, 20, 10], "target": [0.9, 0.9, 0.95]})
    >>> like_for_like(df)["n"].tolist()
    [10]
    """
    values = setting_values(df)
    if values.columns.empty or df.empty:
        return df
    return df[(values == values.iloc[-1]).all(axis=1)]


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
        raise ValueError(f"{name} holds no rows: there is nothing to summarize.")
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
        Columns ``model, d, seed, n_star, n_low, n_high, status,
        population_success``:
        ``n_star`` is the smallest training size tried from which every
        larger size tried reaches the target (inf when the largest does
        not); the true n* lies in ``(n_low, n_high]``: ``n_low`` is the last
        size that failed (0 when the smallest size already stays up),
        ``n_high`` is ``n_star``. ``status`` is ``"reached"``
        (interval-censored), ``"at grid floor"`` (left-censored: n* is at
        most the smallest size tried) or ``"not reached"`` (right-censored:
        n* exceeds the largest size tried, ``n_low`` is that size).
        ``population_success`` is the curve's population outcome (1.0, 0.0;
        NaN for a model without a population step or a table without the
        column).

    Raises
    ------
    ValueError
        An empty table, a missing column, a non-finite ``n``, ``d`` or
        ``accuracy``, or a target outside (0.5, 1].

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.han_ghoshdastidar.sample_complexity import n_star_per_seed
    >>> df = pd.DataFrame({"model": "m", "d": 10, "seed": 0, "n": [10, 20, 40, 80],
    ...                    "accuracy": [0.99, 0.5, 0.97, 0.98], "target": 0.95})
    >>> n_star_per_seed(df)[["n_star", "n_low", "n_high", "status"]].values.tolist()
    [[40.0, 20.0, 40.0, 'reached']]
    """
    df, target = _validated(df, target)
    # One pass over the curves, sorted as groupby(["model", "d", "seed"]) and by n
    # within each: a curve's n* is the size after its last failing size.
    df = df.dropna(subset=["model", "d", "seed"]).sort_values(
        ["model", "d", "seed", "n"], kind="mergesort")
    keys = df[["model", "d", "seed"]]
    starts = np.flatnonzero(~keys.duplicated().to_numpy())
    ends = np.r_[starts[1:], len(df)] - 1
    above = (df["accuracy"] >= target).to_numpy()
    sizes = df["n"].to_numpy(dtype=float)
    # From n* on, every larger size must also reach the target: one lucky
    # small sample does not count.
    last_fail = np.maximum.reduceat(np.where(above, -1, np.arange(len(df))), starts)
    never = last_fail == ends
    floor = last_fail < starts
    first = np.where(never | floor, starts, last_fail + 1)
    n_star = np.where(never, np.inf, sizes[first])
    low = np.where(never, sizes[ends], np.where(floor, 0.0, sizes[np.maximum(last_fail, 0)]))
    status = np.where(never, "not reached", np.where(floor, "at grid floor", "reached"))
    population = (df["population_success"].to_numpy(dtype=float)[starts]
                  if "population_success" in df else np.full(starts.size, np.nan))
    per_seed = keys.iloc[starts].reset_index(drop=True)
    return per_seed.assign(n_star=n_star.astype(float), n_low=low.astype(float),
                           n_high=n_star.astype(float), status=status.astype(object),
                           population_success=population)


def cured(per_seed):
    """The seeds of ``per_seed`` whose population run succeeds, per model; all of a model without one.

    A model whose seeds all have a NaN ``population_success`` (the FFNN, or
    a table recorded before the population outcome was) keeps every seed.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.han_ghoshdastidar.sample_complexity._summary import cured
    >>> per_seed = pd.DataFrame({"model": ["a", "a", "b"], "seed": [0, 1, 0],
    ...                          "population_success": [1.0, 0.0, float("nan")]})
    >>> cured(per_seed)[["model", "seed"]].values.tolist()
    [['a', 0], ['b', 0]]
    """
    population = per_seed["population_success"]
    known = population.notna().groupby(per_seed["model"]).transform("any")
    return per_seed[~known | (population == 1)]


#: The share of the cured seeds that the probabilistic n* asks to reach the target
#: (issue 50, item 2): n*_80 of :func:`probabilistic_n_star`.
PROBABILISTIC_SHARE = 0.8


def probabilistic_n_star(df, target=None, share=PROBABILISTIC_SHARE):
    """Per model and d: the smallest n from which at least ``share`` of the cured seeds reach the target.

    The seeds are the cured ones (:func:`cured`: those whose population run
    succeeds; every seed of a model without a population step). At each
    training size tried, the share of them whose test accuracy is at least
    the target; n*_80 (for ``share=0.8``) is the smallest size from which
    that share is at least ``share`` at every larger size tried. Where every
    curve crosses the target once, it is the ``share`` quantile of the
    per-seed n* (:func:`n_star_per_seed`); a seed's dip below the target at
    one size costs it one seed's share at that size only.

    Returns
    -------
    table : pandas.DataFrame
        Columns ``model, d, n_star_80`` (inf when the share is below
        ``share`` at the largest size tried), ``n_star_80_low`` (the last
        size below it; 0 when the share stays up from the smallest size, the
        largest size when it is never reached) and ``cured_seeds`` (the seeds
        counted).

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.han_ghoshdastidar.sample_complexity._summary import (
    ...     probabilistic_n_star)
    >>> curves = [[0.5, 0.5, 1.0, 1.0], [0.5, 1.0, 1.0, 1.0], [0.5, 0.5, 0.5, 1.0],
    ...           [0.5, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]
    >>> df = pd.DataFrame([dict(model="m", d=10, seed=seed, n=n, accuracy=a, target=0.95)
    ...                    for seed, accs in enumerate(curves)
    ...                    for n, a in zip((10, 20, 40, 80), accs)])
    >>> probabilistic_n_star(df)[["n_star_80", "n_star_80_low"]].values.tolist()
    [[40.0, 20.0]]
    """
    df, target = _validated(df, target)
    if "population_success" in df:
        population = pd.to_numeric(df["population_success"], errors="coerce")
        known = population.notna().groupby(df["model"]).transform("any")
        df = df[~known | (population == 1)]
    reach = (df["accuracy"] >= target).groupby([df["model"], df["d"], df["n"]]).mean()
    rows = []
    for (model, d), shares in reach.groupby(level=["model", "d"], sort=True):
        sizes = shares.index.get_level_values("n").to_numpy(dtype=float)
        stays = np.flip(np.logical_and.accumulate(np.flip(shares.to_numpy() >= share)))
        if not stays.any():
            n80, low = np.inf, sizes[-1]
        elif stays[0]:
            n80, low = sizes[0], 0.0
        else:
            first = int(np.argmax(stays))
            n80, low = sizes[first], sizes[first - 1]
        seeds = df.loc[(df["model"] == model) & (df["d"] == d), "seed"].nunique()
        rows.append({"model": model, "d": d, "n_star_80": float(n80),
                     "n_star_80_low": float(low), "cured_seeds": int(seeds)})
    return pd.DataFrame(rows, columns=["model", "d", "n_star_80", "n_star_80_low",
                                       "cured_seeds"])


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
        and ``not_reached`` (right-censored seeds); the cure model's
        ``population_success`` (``"k/n"`` seeds whose population run
        succeeds; ``"-"`` without a population step), ``p_pop``,
        ``p_pop_low``, ``p_pop_high`` (that share with its Wilson 95%
        interval over seeds; NaN without a population step), and over the
        cured seeds only (every seed without a population step)
        ``n_star_cured`` (the median n*, NaN unless more than half of them
        reach the target) and ``cured_not_reached`` (cured seeds
        right-censored: the population run succeeds but the curve does not
        stay at the target by the largest size); the probabilistic n*
        (:func:`probabilistic_n_star`): ``n_star_80`` and ``n_star_80_low``,
        the smallest size from which at least 80% of the cured seeds reach
        the target, and the size before it.

    Raises
    ------
    ValueError
        As :func:`n_star_per_seed`.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers import samples_needed
    >>> df = pd.DataFrame({"model": "m", "d": 10, "seed": [0] * 3 + [1] * 3,
    ...                    "n": [10, 20, 40] * 2, "accuracy": [0.5, 1, 1, 0.5, 0.5, 1],
    ...                    "target": 0.95})
    >>> samples_needed(df)[["n_star", "median_low", "median_high", "median_interval",
    ...                     "reached", "at_floor"]].values.tolist()
    [[30.0, 10.0, 40.0, 'range', '2/2', 0]]

    With the population outcome, a seed that fails in the population limit
    is counted in ``p_pop`` and left out of ``n_star_cured``:

    >>> df["population_success"] = [1.0] * 3 + [0.0] * 3
    >>> samples_needed(df)[["population_success", "p_pop", "n_star_cured"]].values.tolist()
    [['1/2', 0.5, 20.0]]
    """
    per_seed = n_star_per_seed(df, target)
    rows = []
    for (model, d), group in per_seed.groupby(["model", "d"], sort=True):
        values = group["n_star"].to_numpy(dtype=float)
        finite = values[np.isfinite(values)]
        # The median is bracketed only when more than half the seeds reach.
        median = float(np.median(values)) if 2 * finite.size > values.size else np.nan
        low, high, kind = censored_median_interval(group["n_low"].to_numpy(float),
                                                   group["n_high"].to_numpy(float))
        # Without a population step no seed is known: p_pop and its interval are NaN.
        known = group["population_success"].dropna() == 1
        successes = f"{int(known.sum())}/{known.size}" if known.size else "-"
        cure = cured(group)["n_star"].to_numpy(dtype=float)
        cure_finite = cure[np.isfinite(cure)]
        rows.append({
            "model": model, "d": d,
            "n_star": median,
            "n_star_min": float(finite.min()) if finite.size else np.nan,
            "n_star_max": float(finite.max()) if finite.size else np.nan,
            "median_low": low, "median_high": high, "median_interval": kind,
            "seeds": values.size,
            "reached": f"{finite.size}/{values.size}",
            **rate_columns(np.isfinite(values), "reached"),
            "at_floor": int((group["status"] == "at grid floor").sum()),
            "not_reached": int((group["status"] == "not reached").sum()),
            "population_success": successes,
            **rate_columns(known, "p_pop", rate=""),
            "n_star_cured": (float(np.median(cure)) if 2 * cure_finite.size > cure.size
                             else np.nan),
            "cured_not_reached": int((~np.isfinite(cure)).sum()),
        })
    probabilistic = probabilistic_n_star(df, target)[["model", "d", "n_star_80",
                                                      "n_star_80_low"]]
    return pd.DataFrame(rows).merge(probabilistic, on=["model", "d"], how="left")


@fill_doc
def fit_exponents(df, target=None, *, cure=True, confidence=0.95, n_boot=None,
                  random_state=None):
    """Exponent a of n*(d) ~ d^a per model, fitted to the per-seed grid cells of n*.

    With ``cure=True`` (the cure model) the fit uses the seeds whose
    population run succeeds only (:func:`cured`): a seed that fails in the
    population limit has no finite n* and is counted apart (``p_pop`` of
    :func:`samples_needed`), never read as right-censored. A model without
    a population outcome (the FFNN) keeps every seed. Each kept seed's n* is
    known to lie in a grid cell (reached), below the smallest size
    (left-censored) or above the largest (right-censored), and the fit
    (:func:`censored_loglog_fit`, a censored regression: maximum likelihood
    with log n* normal about a line in log d) uses exactly that; the
    interval is the profile-likelihood interval over the seeds kept. The
    learning curves are the independent units: each (d, seed) has its own
    data and initialisation.

    Parameters
    ----------
    %(sample_complexity_table)s
    cure : bool, default=True
        Fit on the seeds whose population run succeeds (the cure model);
        False reads every seed as before, population failures as
        right-censored (biased upward when failures are many at large d).
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
        ``n_points`` (learning curves used), ``seeds_used`` (``"cured"``:
        the population-succeeding seeds, or ``"all"``),
        ``population_failures`` (curves left out as failing in the
        population limit), ``n_d``, ``n_seeds``,
        ``n_interval``, ``left_censored``, ``right_censored`` and
        ``grid_ratio`` (the largest ratio of neighbouring sizes: the
        resolution of each interval).

    Raises
    ------
    ValueError
        As :func:`n_star_per_seed`, and for ``confidence`` outside (0, 1).

    Examples
    --------
    >>> from skxor.papers import fit_exponents, n_star_per_seed, sample_complexity
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
                      SkxorFutureWarning, stacklevel=2)
    per_seed = n_star_per_seed(df, target)
    _, ratio = _grid(like_for_like(df))
    rows = []
    for model, everything in per_seed.groupby("model", sort=True):
        has_population = bool(everything["population_success"].notna().any())
        group = cured(everything) if cure else everything
        fit = censored_loglog_fit(group["d"], group["n_low"], group["n_high"], confidence)
        rows.append({
            "model": model, "exponent": fit["exponent"], "low": fit["low"],
            "high": fit["high"], "sigma": fit["sigma"], "intercept": fit["intercept"],
            "log_d_centre": fit["log_d_centre"],
            "n_points": fit["n_points"],
            "seeds_used": "cured" if cure and has_population else "all",
            "population_failures": int((everything["population_success"] == 0).sum()),
            "n_d": int(group["d"].nunique()),
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


def _is_rough(df):
    seeds = int(df.groupby(["model", "d"])["seed"].nunique().min())
    return seeds < ROUGH_BELOW_SEEDS or df["d"].nunique() < 6, seeds


@fill_doc
def sample_complexity_summary(df):
    """The study's summary of one setting's rows: what its report, figures, headline and
    claim read.

    %(returns_study_summary)s
        ``rows`` and ``table`` (the rows, whose other settings the report
        names); when ``rows`` > 0: ``analysed`` (the latest setting's rows,
        :func:`like_for_like`), ``fits`` (:func:`fit_exponents`) and, where
        the table has the columns they read, ``validated`` and ``target``
        (the rows checked), ``per_cell`` (:func:`samples_needed`),
        ``per_seed`` (:func:`n_star_per_seed`), ``rough`` and ``seeds`` (fewer
        than ten seeds or six d) and ``grid`` (the sizes and their largest
        ratio).

    Examples
    --------
    >>> from skxor.papers import sample_complexity
    >>> from skxor.papers.han_ghoshdastidar.sample_complexity import sample_complexity_summary
    >>> df = sample_complexity(d=[16, 32], n_sizes=4, seeds=2, model=["ffnn"])
    >>> summary = sample_complexity_summary(df)
    >>> summary.fits["model"].tolist(), summary.rough
    (['ffnn'], True)
    """
    if df.empty:
        return Summary(rows=0, table=df)
    analysed = _analysed(df)
    summary = Summary(rows=len(df), table=df, analysed=analysed, fits=fit_exponents(analysed))
    summary.add_readable(analysed, checked=lambda t: _validated(t, None))
    if "checked" in summary:
        validated, target = summary.pop("checked")
        summary.update(validated=validated, target=target, per_cell=samples_needed(validated))
        summary.add_readable(analysed, per_seed=n_star_per_seed, grid=_grid)
        summary.rough, summary.seeds = _is_rough(validated)
    return summary


#: The study's small run, which the doctests of its report, figures and bullet render.
DOC_EXAMPLES = study_examples(""">>> from skxor.papers.han_ghoshdastidar.sample_complexity import STUDY
>>> df = STUDY.run(model=["transformer_multi_step"], d=[10, 20], seeds=2,
...                n_min=100, n_max=6400, n_sizes=4, n_test=500)""")
