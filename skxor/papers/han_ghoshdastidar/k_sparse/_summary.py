"""The k-sparse study's summaries: success with Wilson intervals, the gradient signal, v1."""

import pandas as pd

from skxor._utils._docstrings import fill_doc, study_examples
from ..._common import Summary
from skxor.studies.claims import unit_interval
from skxor.studies.stats import (
    bootstrap_loglog_slope,
    flag_columns,
    rate_columns,
)

def _steps(df):
    part = df[df["part"] == "steps"].copy()
    # Tables written before the initialisation was swept used the simplex.
    part["init"] = (part["init"].fillna("antisymmetric") if "init" in part
                    else "antisymmetric")
    for column in ("k", "d", "m", "n", "n_steps", "seed"):
        part[column] = part[column].astype(int)
    return flag_columns(part, ("success", "specialised", "limit_on_support", "limit_distinct"))


def _v1(df):
    part = df[df["part"] == "v1"].copy()
    for column in ("k", "d", "n", "seed", "m", "n_steps", "epochs", "iterations",
                   "n_parameters"):
        part[column] = part[column].astype(int)
    return flag_columns(part, ("success", "specialised"))


def summarize_k_sparse(df):
    """Success (Wilson interval) and head specialisation per k, d, m, n and T.

    Returns
    -------
    summary : pandas.DataFrame
        One row per (k, d, m, n, n_steps, init) of the steps part: ``success``
        (share with a certificate), ``success_low``/``success_high`` (Wilson
        95 %), ``specialised`` (share), ``bits_found`` (mean number of support
        bits the heads cover), ``support_mass`` (median over seeds of the
        smallest attention mass a head puts on the whole support),
        ``median_loss`` and ``seeds``.
    """
    part = _steps(df)
    rows = []
    for key, group in part.groupby(["k", "d", "m", "n", "n_steps", "init"], sort=True):
        rows.append({
            **dict(zip(["k", "d", "m", "n", "n_steps", "init"], key)),
            "step_length": float(group["path_length"].iloc[0]) / key[4],
            **rate_columns(group["success"], "success", rate=""),
            "specialised": float(group["specialised"].mean()),
            "bits_found": float(group["bits_found"].mean()),
            "support_mass": float(group["support_mass_min"].median()),
            "median_loss": float(group["loss"].median()),
            "seeds": len(group),
        })
    return pd.DataFrame(rows, columns=[
        "k", "d", "m", "n", "n_steps", "init", "step_length", "success", "success_low",
        "success_high", "specialised", "bits_found", "support_mass", "median_loss", "seeds"])


def gradient_signal(df):
    """The population gradient at initialisation, per k, d, m and init (over seeds).

    ``support_gain``: median log attention mass gained on the support per
    unit of normalised path length; ``signal_to_noise``: median gain over the
    spread of score changes elsewhere; ``support_component`` against its
    chance level k/m; ``limit_on_support`` / ``limit_distinct``: shares (with
    Wilson intervals) of seeds where, to first order, an arbitrarily long
    single step puts every head on the support / on distinct support bits.
    """
    part = _steps(df)
    # One initialisation per (k, d, m, init, seed): the same for every n and T.
    part = part.drop_duplicates(["k", "d", "m", "init", "seed"])
    rows = []
    for key, group in part.groupby(["k", "d", "m", "init"], sort=True):
        rows.append({
            **dict(zip(["k", "d", "m", "init"], key)),
            "support_gain": float(group["support_gain"].median()),
            "signal_to_noise": float(group["signal_to_noise"].median()),
            "support_component": float(group["support_component"].median()),
            "chance_component": float(group["chance_component"].iloc[0]),
            **rate_columns(group["limit_on_support"], "limit_on_support", rate=""),
            **rate_columns(group["limit_distinct"], "limit_distinct", rate=""),
            "seeds": len(group),
        })
    return pd.DataFrame(rows)


def gain_slopes(df):
    """Log-log slope of the support gain against d per k, m and init.

    With at least :data:`~skxor.studies.stats.MIN_BOOTSTRAP_GROUPS` seeds the interval is a
    bootstrap 95 % interval over seeds (``interval = "bootstrap 95%"``);
    with fewer, a bootstrap would draw from too few distinct resamples, so
    ``low`` and ``high`` are the smallest and largest per-seed slopes
    (``interval = "range over seeds (rough)"``).

    Returns
    -------
    slopes : pandas.DataFrame
        One row per (k, m, init): ``slope`` (least squares over every
        point), ``low``, ``high``, ``interval``, ``points`` and ``seeds``.

    Examples
    --------
    >>> from skxor.papers import k_sparse
    >>> from skxor.papers.han_ghoshdastidar.k_sparse import gain_slopes
    >>> df = k_sparse(k=[2], d=[20, 40], n_steps=[1], seeds=3, n_test=0, v1_seeds=0,
    ...               init="antisymmetric")
    >>> gain_slopes(df)[["k", "interval", "points", "seeds"]].values.tolist()
    [[2, 'range over seeds (rough)', 6, 3]]
    """
    part = _steps(df).drop_duplicates(["k", "d", "m", "init", "seed"])
    rows = []
    for (k, m, init), group in part.groupby(["k", "m", "init"], sort=True):
        seeds = int(group["seed"].nunique())
        fit = bootstrap_loglog_slope(group["d"], group["support_gain"], groups=group["seed"])
        low, high, interval = fit["low"], fit["high"], "bootstrap 95%"
        if fit["rough"]:
            low, high = fit["range_low"], fit["range_high"]
            interval = "range over seeds (rough)"
        rows.append({"k": k, "m": m, "init": init, "slope": fit["slope"], "low": low,
                     "high": high, "interval": interval, "points": fit["n_points"],
                     "seeds": seeds})
    return pd.DataFrame(rows, columns=["k", "m", "init", "slope", "low", "high", "interval",
                                       "points", "seeds"])


def summarize_v1(df):
    """The v1 k-parity model against the k-head sparse-XOR model, on the same data."""
    part = _v1(df)
    rows = []
    for key, group in part.groupby(["k", "d", "n", "model", "n_steps", "epochs"], sort=True):
        k, d, n, model, n_steps, epochs = key
        budget = (f"{epochs} epochs (Adam, lr {group['learning_rate'].iloc[0]:g})"
                  if model == "k_parity"
                  else f"{n_steps} step(s) of {group['path_length'].iloc[0] / n_steps:g}")
        rows.append({
            "k": k, "d": d, "n": n, "model": model, "budget": budget,
            **rate_columns(group["success"], "success", rate=""),
            "specialised": float(group["specialised"].mean()),
            "iterations": float(group["iterations"].median()),
            "seconds": float(group["seconds"].median()),
            "n_parameters": int(group["n_parameters"].iloc[0]),
            "scored_on": group["scored_on"].iloc[0],
            "seeds": len(group),
        })
    return pd.DataFrame(rows)


def pooled_success(df):
    """Certified success per k, data, initialisation and T, pooled over d and m.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`k_sparse`; only its steps rows (``part == "steps"``)
        are read.

    Returns
    -------
    table : pandas.DataFrame
        One row per (k, n, init, n_steps): ``successes``, ``runs`` (seeds x d
        x m; every run draws its own support and initial queries, but for
        one seed and m the keys at a smaller d are the first rows of those
        at a larger d, and the T and the n of one seed share everything),
        ``seeds``, ``success``, ``success_low`` and ``success_high`` (95 %,
        seeds as the independent units: the claims page's
        :func:`~skxor.studies.claims.unit_interval`).

    Examples
    --------
    >>> from skxor.papers import k_sparse
    >>> from skxor.papers.han_ghoshdastidar.k_sparse import pooled_success
    >>> df = k_sparse(k=[2], d=[20], n_steps=[1], seeds=2, v1_seeds=0)
    >>> pooled_success(df)[["k", "init", "successes", "runs"]].values.tolist()
    [[2, 'antisymmetric', 2, 2], [2, 'random', 0, 2]]
    """
    part = _steps(df)
    keys = ["k", "n", "init", "n_steps"]
    rows = []
    for key, group in part.groupby(keys, sort=True):
        # Runs of one seed share keys across d: the seeds are the units.
        rate, low, high, runs, seeds = unit_interval(group["success"], group["seed"])
        rows.append({**dict(zip(keys, key)), "successes": int(group["success"].sum()),
                     "runs": runs, "seeds": seeds, "success": rate, "success_low": low,
                     "success_high": high})
    return pd.DataFrame(rows, columns=[*keys, "successes", "runs", "seeds", "success",
                                       "success_low", "success_high"])


@fill_doc
def k_sparse_summary(df):
    """The k-sparse study's summary of one setting's rows: what its renderers and claim read.

    %(returns_study_summary)s
        ``rows``, ``table`` (the rows), ``steps`` and ``v1`` (the checked
        rows of each part; empty where the table has none); with step rows,
        ``per_cell`` (:func:`summarize_k_sparse`), ``pooled``
        (:func:`pooled_success`), ``signal`` (:func:`gradient_signal`) and
        ``slopes`` (:func:`gain_slopes`); ``v1_summary``
        (:func:`summarize_v1`; empty without v1 rows); each part where the
        table has the columns it reads
        (:meth:`~skxor.papers._common.Summary.add_readable`).

    Examples
    --------
    >>> from skxor.papers import k_sparse
    >>> from skxor.papers.han_ghoshdastidar.k_sparse import k_sparse_summary
    >>> summary = k_sparse_summary(k_sparse(k=[2], d=[20], n_steps=[1], seeds=2, v1_seeds=0))
    >>> len(summary.steps), len(summary.v1), summary.pooled["successes"].tolist()
    (4, 0, [2, 0])
    """
    has = (lambda part: "part" in df and bool((df["part"] == part).any()))
    steps = _steps(df) if has("steps") else df.iloc[:0]
    v1 = _v1(df) if has("v1") else df.iloc[:0]
    summary = Summary(rows=len(df), table=df, steps=steps, v1=v1).add_readable(
        df, v1_summary=lambda t: summarize_v1(t) if len(v1) else pd.DataFrame())
    if len(steps):
        summary.add_readable(df, per_cell=summarize_k_sparse, pooled=pooled_success,
                             signal=gradient_signal, slopes=gain_slopes)
    return summary


#: The study's small run, which the doctests of its report, figures and bullet render.
DOC_EXAMPLES = study_examples(""">>> from skxor.papers.han_ghoshdastidar.k_sparse import STUDY
>>> df = STUDY.run(k=[2], d=[20], n_steps=[1, 2], seeds=2, n_test=200, v1_seeds=0)""")
