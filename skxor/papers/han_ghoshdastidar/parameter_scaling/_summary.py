"""The parameter-scaling study's summaries: the size needed per (model, d), the slopes.

Everything here reads the study's table (its ``size_counts`` column), so it
works on a fresh result and on a table read back from CSV alike.
"""

import json
from numbers import Real

import numpy as np
import pandas as pd
from sklearn.utils import Bunch, check_random_state

from skxor._utils._docstrings import fill_doc
from skxor._utils._sklearn_compat import Interval, validate_parameter_constraints
from skxor.studies.stats import (MIN_BOOTSTRAP_GROUPS, check_n_boot, format_interval,
                                 loglog_slope, wilson_interval)
from skxor.studies import merge_preset
from ._cells import DISPLAY_NAMES, MODELS, SAMPLE_MODELS, SIZE_NAMES
from ._presets import _SHARE, PRESETS


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


def _meets(reached, seeds, share):
    """Whether ``reached`` of ``seeds`` meets ``share``, elementwise (arrays or Series)."""
    return reached >= share * seeds - 1e-9


def _needed(reached, seeds, share):
    """Index of the smallest size whose share of seeds meets ``share`` (None if none)."""
    ok = np.flatnonzero(_meets(np.asarray(reached), np.asarray(seeds), share))
    return int(ok[0]) if ok.size else None


def _steps_used(group, threshold):
    """Median and largest steps of a (model, d)'s succeeding runs (NaN when none succeeded,
    or for cells from before steps were recorded); how many runs failed, at any size,
    and their median test accuracy (a plateau at 1/2 or above it)."""
    failed = group.loc[group["accuracy"] < threshold, "accuracy"]
    out = {"steps_median": np.nan, "steps_max": np.nan, "failures": int(failed.size),
           "failure_accuracy": float(failed.median()) if failed.size else np.nan}
    if "steps" not in group:
        return out
    steps = group.loc[group["accuracy"] >= threshold, "steps"].dropna()
    if len(steps):
        out.update(steps_median=float(steps.median()), steps_max=float(steps.max()))
    return out


def summarize_parameter_scaling(cells, threshold, success_share):
    """One row per (model, d) from the per-cell results.

    Parameters
    ----------
    cells : pandas.DataFrame
        One row per (model, d, size, seed) run: ``accuracy``, ``params``
        (trainable), ``frozen``, ``n_train``, ``steps``, ``seconds``.
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
        one did not meet it), ``sizes_tried``, ``steps_median`` and
        ``steps_max`` (gradient steps of the runs that succeeded, at any
        size: how much of its budget a model used; NaN when none
        succeeded), ``failures`` and ``failure_accuracy`` (runs below the
        threshold at any size tried, and their median test accuracy),
        ``seconds`` (compute time of
        all the cells) and ``size_counts`` (JSON ``[[size, reached, seeds,
        trainable, frozen], ...]`` for every size tried, so that the figure
        and the slopes need only the table).

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.han_ghoshdastidar.parameter_scaling import summarize_parameter_scaling
    >>> cells = pd.DataFrame({"model": "ffnn", "d": 8, "size": [1] * 5 + [2] * 5 + [3] * 5,
    ...                       "seed": list(range(5)) * 3, "n_train": 100,
    ...                       "accuracy": [0.5] * 5 + [1.0] * 4 + [0.5] + [1.0] * 3 + [0.5] * 2,
    ...                       "params": [11] * 5 + [21] * 5 + [31] * 5, "frozen": 0,
    ...                       "steps": 256, "seconds": 0.1})
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
        met = _meets(per_size["reached"], per_size["seeds"], success_share)
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
            **_steps_used(group, threshold),
            "seconds": float(group["seconds"].sum()),
            "size_counts": json.dumps(counts),
        })
    order = {model: i for i, model in enumerate(MODELS)}
    table = pd.DataFrame(rows, columns=[
        "d", "model", "size", "params", "frozen", "total", "size_name", "n_train", "seeds",
        "seeds_reached", "success_rate", "success_low", "success_high", "reached",
        "non_monotone", "sizes_tried", "steps_median", "steps_max", "failures",
        "failure_accuracy", "seconds", "size_counts",
    ])
    table = table.sort_values(
        ["model", "d"], key=lambda s: s.map(order) if s.name == "model" else s
    )
    return table.reset_index(drop=True)


def _bootstrap_slopes(groups, seeds_of, values_of, met, d, share, n_boot, rng):
    """The slopes of the bootstrap draws that meet the rule at the same d as the data.

    Every draw resamples each size's successes binomially from its observed
    share. All draws are made in one call, in the order a loop over draws
    and then sizes would make them (C order), so the stream and the slopes
    are those of that loop.
    """
    seeds = np.concatenate(seeds_of)
    shares = np.concatenate([g["reached"].to_numpy() / s for g, s in zip(groups, seeds_of)])
    reached = rng.binomial(np.broadcast_to(seeds, (n_boot, seeds.size)),
                           np.broadcast_to(shares, (n_boot, seeds.size)))
    # Per d: whether each draw meets the rule at some size, and the first such size.
    bounds = np.cumsum([0] + [s.size for s in seeds_of])
    ok = [_meets(reached[:, a:b], s, share) for a, b, s in zip(bounds, bounds[1:], seeds_of)]
    same_d = np.all([o.any(axis=1) == m for o, m in zip(ok, met)], axis=0)
    first = [o.argmax(axis=1) for o in ok]
    values = [v for v, m in zip(values_of, met) if m]
    first = [f for f, m in zip(first, met) if m]
    return [loglog_slope(d, np.array([v[f[row]] for v, f in zip(values, first)], float))
            for row in np.flatnonzero(same_d)]


def parameter_slopes(df, d_max=None, n_boot=2000, random_state=0, column="params"):
    """Log-log slope of the parameters needed against d, per model, with its uncertainty.

    Least squares of log(parameters needed) on log d over the d where the
    rule was met. The interval is a bootstrap over seeds: each size's
    seeds are resampled (its count of successes drawn binomially from its
    observed share), the size needed recomputed at every d and the slope
    refitted; it is given only with at least
    :data:`~skxor.studies.stats.MIN_BOOTSTRAP_GROUPS` seeds per size and
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
    >>> from skxor.papers import parameter_scaling
    >>> from skxor.papers.han_ghoshdastidar.parameter_scaling import parameter_slopes
    >>> df = parameter_scaling(model="transformer_population", d=[16, 32, 64], seeds=2,
    ...                        transformer_m=[4, 8, 16, 32], n_test=1000)
    >>> df["size"].tolist()
    [8.0, 8.0, 16.0]
    >>> fit = parameter_slopes(df)["transformer_population"]
    >>> round(fit["slope"], 2), fit["rough"], fit["n_points"]
    (0.5, True, 3)
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
        seeds_of = [g["seeds"].to_numpy() for g in groups]
        values_of = [g["value"].to_numpy(float) for g in groups]
        indices = [_needed(g["reached"].to_numpy(), s, share) for g, s in zip(groups, seeds_of)]
        met = [i is not None for i in indices]
        d = np.array([g["d"].iloc[0] for g, m in zip(groups, met) if m], float)
        p = np.array([v[i] for v, i in zip(values_of, indices) if i is not None], float)
        seeds = int(part["seeds"].min()) if len(part) else 0
        fit = {"slope": nan, "low": nan, "high": nan, "n_points": int(d.size),
               "n_groups": seeds, "rough": seeds < MIN_BOOTSTRAP_GROUPS,
               "range_low": nan, "range_high": nan, "n_d": int(d.size),
               "d_min": int(d.min()) if d.size else 0, "d_max": int(d.max()) if d.size else 0}
        if d.size >= 2:
            fit["slope"] = loglog_slope(d, p)
            if not fit["rough"]:
                draws = _bootstrap_slopes(groups, seeds_of, values_of, met, d, share,
                                          int(n_boot), rng)
                if len(draws) >= 0.9 * n_boot:
                    fit["low"], fit["high"] = (float(q) for q in
                                               np.quantile(draws, [0.025, 0.975]))
        slopes[model] = fit
    return slopes


def _samples_d_max(df):
    sample_d = df.loc[df["model"].isin(SAMPLE_MODELS), "d"]
    return int(sample_d.max()) if len(sample_d) else None


def _run_params(df):
    """The parameters of the rows' run: ``attrs["params"]`` (a fresh result, or the
    latest setting of a merged table), else the run's setting stored in the
    ``setting`` column (rows of an earlier setting); quick's where unknown."""
    if df.attrs.get("params"):
        return df.attrs["params"]
    params = merge_preset(PRESETS, "quick")
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


#: The model whose sizes the claim H2 fits (a logistic curve per d).
CLAIM_MODEL = "transformer_population_one_step"

#: Share of seeds at which the fitted success curve reads the size needed.
SHARE = 0.8


@fill_doc
def parameter_scaling_summary(df):
    """The study's summary of one setting's rows: what its report, figures, headline and
    claim read.

    %(returns_study_summary)s
        ``rows`` and ``table`` (the rows: one per model and d, which the
        texts and figures list); when ``rows`` > 0: ``params`` (the run's
        parameters), ``samples_d_max`` (the largest d of the finite-sample
        models, or None), ``slopes`` (:func:`parameter_slopes`),
        ``report_slopes`` (the same, each population model's fitted over the
        finite-sample d like for like, and over all d as ``<model>_all``)
        ``claim_counts`` (:func:`size_counts` of the rows of
        :data:`CLAIM_MODEL`) and ``online_counts`` (the same for the online
        FFNN, shown beside the claim over the same d).

    Examples
    --------
    >>> from skxor.papers import parameter_scaling
    >>> from skxor.papers.han_ghoshdastidar.parameter_scaling import parameter_scaling_summary
    >>> df = parameter_scaling(model=["transformer_population"], d=[16, 64], seeds=3,
    ...                        transformer_m=[2, 8, 32], n_test=2000)
    >>> summary = parameter_scaling_summary(df)
    >>> sorted(summary.slopes), summary.samples_d_max
    (['transformer_population'], None)
    """
    if df.empty:
        return Bunch(rows=0, table=df)
    slopes = parameter_slopes(df)
    samples = _samples_d_max(df)
    report_slopes = dict(slopes)
    for key in [m for m in ("transformer_population_one_step", "transformer_population")
                if m in slopes]:
        if samples is not None and slopes[key]["d_max"] > samples:
            # Like for like: the population slope over the finite-sample d, then over all d.
            report_slopes[key + "_all"] = slopes[key]
            report_slopes[key] = parameter_slopes(df[df["model"] == key], d_max=samples)[key]
    return Bunch(rows=len(df), table=df, params=_run_params(df), samples_d_max=samples,
                 slopes=slopes, report_slopes=report_slopes,
                 claim_counts=size_counts(df[df["model"] == CLAIM_MODEL]),
                 online_counts=size_counts(df[df["model"] == "ffnn_online"]))
