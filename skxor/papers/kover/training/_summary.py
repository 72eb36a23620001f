"""The training study's summaries: success per function and N, how far, where sensitivities sit."""

import json

import numpy as np
import pandas as pd

from skxor._utils._docstrings import fill_doc, study_examples
from skxor.boolean import NAMED_FUNCTIONS
from ..._common import Summary, budget_censored
from skxor.studies.stats import (censored_growth_fit, flag_columns, quantile_interval,
                                 wilson_interval)
from ._cells import at_chance, chance_plateau


#: A sensitivity s with ``|s - N/2| <= HALF_WINDOW`` (and s > 0) is "near N/2":
#: MAJORITY's sensitive strings have N/2 or N/2 + 1 (even N) or (N + 1)/2 (odd N).
HALF_WINDOW = 1


#: "Learned up to N" needs, at N and every smaller length tried, at least this
#: share of the seeds to have learned (2 of 2, 4 of 5, 8 of 10).
LEARNED_UP_TO_RATE = 0.8


#: Settings that, when they differ between runs merged into one table, make
#: separate series.
SETTINGS = ("d_model", "n_layers", "n_heads", "learning_rate", "batch_size", "n_steps",
             "check_every", "target_accuracy", "exhaustive_max", "n_eval", "n_samples")


def clusters(function):
    """The sensitivities around which the named function's own strings sit.

    Read from the Boolean registry (the class's
    :attr:`~skxor.boolean.BooleanFunction.sensitivity_clusters`): Köver et
    al. 2026 describe trained MAJORITY at 0 and N/2 and trained FIRST at 1;
    every string of PARITY has sensitivity N. Empty when the function's
    class states none.

    Examples
    --------
    >>> from skxor.papers.kover.training import clusters
    >>> clusters("PARITY"), clusters("MAJORITY"), clusters("FIRST")
    (('top',), ('zero', 'half'), ('one',))
    """
    return tuple(NAMED_FUNCTIONS[function].sensitivity_clusters)


@fill_doc
def cluster_counts(histogram, n_bits):
    """Strings at sensitivity 0, near N/2 (``|s - N/2| <= HALF_WINDOW``, s > 0) and at 1.

    Parameters
    ----------
    histogram : array-like of shape (N + 1,)
        Number of profiled strings per sensitivity 0..N.
    %(n_bits)s

    Returns
    -------
    counts : dict
        ``zero``, ``half``, ``one`` (string counts) and ``n`` (all profiled
        strings). "Near N/2" and "at 1" overlap for N <= 4.

    Examples
    --------
    >>> from skxor.boolean import get_function
    >>> from skxor.sensitivity import sensitivity_profile
    >>> from skxor.papers.kover.training import cluster_counts
    >>> counts = sensitivity_profile(get_function("MAJORITY", 6), 6).counts
    >>> cluster_counts(counts, 6)
    {'zero': 29, 'half': 35, 'one': 0, 'n': 64}
    """
    counts = np.asarray(histogram, dtype=np.int64)
    if counts.shape != (n_bits + 1,):
        raise ValueError(
            f"histogram must have one count per sensitivity 0..{n_bits} ({n_bits + 1} "
            f"entries); got shape {counts.shape}."
        )
    s = np.arange(n_bits + 1)
    near_half = (np.abs(s - n_bits / 2) <= HALF_WINDOW) & (s > 0)
    return {
        "zero": int(counts[0]),
        "half": int(counts[near_half].sum()),
        "one": int(counts[1]) if n_bits >= 1 else 0,
        "n": int(counts.sum()),
    }


def require_runs(df):
    """ValueError unless ``df`` holds at least one training run."""
    if not len(df) or "function" not in df:
        raise ValueError("the table holds no training run: nothing to summarize or draw; "
                         "pass the table training_sensitivity returned.")


def with_model_setting(df):
    """``df`` with a ``model_setting`` column (tables from before it: the library's)."""
    if "model_setting" in df:
        return df
    return df.assign(model_setting="library")


def series_columns(df):
    """The model setting and every setting that varies at one function and N: with it, a series.

    A budget set per function and N (``budgets``) is not a series of its own:
    at each function and N every run has one.
    """
    df = with_model_setting(df)
    return ["model_setting"] + [
        c for c in SETTINGS
        if c in df and (df.groupby(["function", "n_bits"])[c].nunique() > 1).any()]


def censored_by_budget(df, series=None):
    """Which runs that did not learn are censored by their budget rather than failures.

    A run that did not learn is a failure when its loss ended at chance
    (:func:`~skxor.papers.kover.training.at_chance`) after a budget at least as
    long as every run of the same function and series that learned at a
    smaller N needed. It is censored otherwise: stopped by its budget while
    still above chance (:func:`~skxor.papers._common.budget_censored`, the
    rule the k-sparse study's v1 reference shares; more steps might have
    reached the target), or at chance within a shorter budget --
    PARITY's runs sit at chance for thousands of steps and then learn within
    a few hundred, so a plateau at chance shorter than learning took at a
    smaller N says nothing about learnability.

    Parameters
    ----------
    df : pandas.DataFrame
        The study's table.
    series : list of str or None, default=None
        The series columns (:func:`series_columns` of ``df`` when None).

    Returns
    -------
    censored : pandas.Series of bool
        Indexed like ``df``. A table without loss curves censors no run (every
        failure counts); without ``steps``, only runs above chance.

    Raises
    ------
    ValueError
        ``learned`` holds a value that is not a flag (True/False or 0/1): a
        string such as "False" (true to Python), another number, or a
        missing outcome (NaN, None). A run whose outcome is missing is
        neither a failure nor censored: drop it first.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.kover.training import censored_by_budget
    >>> chance, falling = "[0.7, 0.694, 0.693, 0.693]", "[0.7, 0.4, 0.2, 0.1]"
    >>> df = pd.DataFrame({"function": "PARITY", "model_setting": "library",
    ...                    "n_bits": [8, 8, 64, 64], "learned": [True, False, False, False],
    ...                    "steps": [3000, 20000, 1000, 1000],
    ...                    "n_steps": [20000, 20000, 1000, 1000],
    ...                    "loss_curve": [falling, chance, chance, falling]})
    >>> censored_by_budget(df).tolist()  # N = 64 at chance: 1000 steps < the 3000 N = 8 took
    [False, False, True, True]
    """
    # Checked before anything else: bool("False") and bool(nan) are True.
    df = flag_columns(with_model_setting(df), ["learned"])
    if "loss_curve" not in df:
        return pd.Series(False, index=df.index)
    series = series_columns(df) if series is None else list(series)
    learned = df["learned"]
    chance = df["loss_curve"].map(at_chance).astype(bool)
    # Every run that did not reach its target ran to its budget (the cell stops
    # early only there); a table without steps says no more.
    stopped = (df["steps"] >= df["n_steps"] if "steps" in df and "n_steps" in df
               else pd.Series(True, index=df.index))
    censored = pd.Series(budget_censored(learned, stopped, ~chance), index=df.index)
    if "steps" not in df or "n_steps" not in df:
        return censored
    # Per function and series: the longest any run that learned took at a smaller N.
    keys = ["function", *series]
    cells = df[keys + ["n_bits"]].drop_duplicates().sort_values(keys + ["n_bits"])
    took = df[learned].groupby(keys + ["n_bits"])["steps"].max()
    cells["took"] = pd.MultiIndex.from_frame(cells).map(took).to_numpy(dtype=float)
    cells["longest"] = cells.groupby(keys, sort=False)["took"].transform(
        lambda s: s.cummax().ffill().shift())
    longest = df[keys + ["n_bits"]].merge(cells, on=keys + ["n_bits"], how="left")["longest"]
    short = df["n_steps"].to_numpy(dtype=float) < longest.to_numpy(dtype=float)  # NaN: False
    return censored | (~learned & chance & short)


def _shares(histograms, n_bits):
    """Pooled cluster counts of several histograms, plus each histogram's own."""
    each = [json.loads(h) if isinstance(h, str) else h for h in histograms]
    per_seed = []
    for h in each:
        counts = cluster_counts(h, n_bits)
        counts["top"] = int(h[n_bits])
        per_seed.append(counts)
    pooled = {key: sum(c[key] for c in per_seed) for key in per_seed[0]}
    return pooled, per_seed


def summarize_training(df):
    """Per function, N and series: success rate with its Wilson interval, accuracy, shares.

    Parameters
    ----------
    df : pandas.DataFrame
        The study's table (:func:`training_sensitivity`).

    Returns
    -------
    summary : pandas.DataFrame
        One row per function, ``n_bits``, ``model_setting`` (and any setting
        that varies within a function) with ``seeds``, ``n_steps`` (the
        budget), ``stopped_target``, ``stopped_flat`` and ``stopped_budget``
        (runs that stopped at the target accuracy, ended on a flat loss, or
        were still improving at the budget: budget-limited; see
        :func:`loss_status`), ``at_chance`` and ``censored`` (runs that did
        not learn: failures, their loss at chance after a budget as long as
        learning took at a smaller N, or censored by the budget; see
        :func:`censored_by_budget`), ``learned`` (seeds that
        learned), ``learned_rate`` and its 95% Wilson interval
        ``learned_low``/``learned_high``; ``accuracy`` (mean over seeds),
        ``accuracy_min`` (worst seed), ``steps`` (median); ``steps_to_learn``
        (the median steps to learn, a run that did not learn counted as
        needing more than its budget: ``inf`` when more than half did not; the lower median)
        with its distribution-free 95% interval over the seeds
        ``steps_to_learn_low``/``steps_to_learn_high``
        (:func:`~skxor.studies.stats.quantile_interval`); ``plateau_median``
        and ``plateau_max``: the steps the runs that learned spent at chance
        first (:func:`~skxor.papers.kover.training.chance_plateau`; NaN when none
        learned); the profile
        ``method`` and the strings profiled over all seeds (``n_strings``);
        the pooled shares of strings at sensitivity 0 (``share_zero``), near
        N/2 (``share_half``, see :data:`HALF_WINDOW`), at 1 (``share_one``)
        and at N (``share_top``), each with ``_low``/``_high`` (a Wilson
        interval over the pooled sampled strings; NaN where every string was
        profiled, the share then being exact for these networks), the
        target's (``target_share_*``), ``in_cluster`` (the share in the
        target's clusters, :func:`clusters`; NaN where none are stated), its lowest value over seeds
        ``in_cluster_min`` and the target's ``target_in_cluster``;
        ``average_sensitivity`` (mean), ``target_average_sensitivity``,
        ``profile_distance`` (mean), ``n_parameters`` and ``seconds`` (sum).

    Raises
    ------
    ValueError
        No run in ``df``, or ``learned`` holding a value that is not a flag
        (see :func:`censored_by_budget`).
    """
    require_runs(df)
    df = flag_columns(with_model_setting(df), ["learned"])
    series = series_columns(df)
    censored = censored_by_budget(df, series)
    rows = []
    for keys, group in df.groupby(["function", "n_bits", *series], sort=False):
        function, n_bits = keys[0], int(keys[1])
        k, n = int(group["learned"].sum()), len(group)
        low, high = wilson_interval(k, n)
        row = dict(zip(["function", "n_bits", *series], keys))
        stops = group["stop"] if "stop" in group else pd.Series(dtype=str)
        row.update(
            n_bits=n_bits, seeds=n, learned=k, learned_rate=k / n, learned_low=low,
            learned_high=high, accuracy=float(group["accuracy"].mean()),
            accuracy_min=float(group["accuracy"].min()),
            steps=float(group["steps"].median()), n_steps=int(group["n_steps"].max()),
            stopped_target=int((stops == "target").sum()),
            stopped_flat=int((stops == "flat").sum()),
            stopped_budget=int((stops == "budget").sum()),
        )
        # How long the runs that learned sat at chance first.
        won = group[group["learned"].astype(bool)]
        plateaus = ([chance_plateau(c, e) for c, e in zip(won["loss_curve"], won["check_every"])]
                    if "loss_curve" in won and len(won) else [])
        row["plateau_median"] = float(np.median(plateaus)) if plateaus else np.nan
        row["plateau_max"] = float(np.max(plateaus)) if plateaus else np.nan
        # Steps to learn: a run that did not learn needed more than its budget.
        needed = np.where(group["learned"].astype(bool), group["steps"], np.inf)
        row["steps_to_learn"], row["steps_to_learn_low"], row["steps_to_learn_high"] = \
            quantile_interval(needed)
        # Tables from before loss curves were recorded tell neither: 0 and 0.
        failed = int((~group["learned"].astype(bool)).sum()) if "loss_curve" in group else 0
        cut = int(censored[group.index].sum())
        row.update(at_chance=failed - cut, censored=cut)
        sampled = bool((group["method"] == "sampled").any())
        pooled, per_seed = _shares(group["histogram"], n_bits)
        target, _ = _shares(group["target_histogram"], n_bits)
        row.update(method="sampled" if sampled else "exhaustive", n_strings=pooled["n"])
        for name in ("zero", "half", "one", "top"):
            row[f"share_{name}"] = pooled[name] / pooled["n"]
            low, high = (wilson_interval(pooled[name], pooled["n"]) if sampled
                         else (float("nan"), float("nan")))
            row[f"share_{name}_low"], row[f"share_{name}_high"] = low, high
            row[f"target_share_{name}"] = target[name] / target["n"]
        cluster = clusters(function)
        if cluster:
            row["in_cluster"] = sum(pooled[c] for c in cluster) / pooled["n"]
            row["in_cluster_min"] = min(sum(s[c] for c in cluster) / s["n"] for s in per_seed)
            row["target_in_cluster"] = sum(target[c] for c in cluster) / target["n"]
        else:  # the function's class states no clusters: nothing to compare
            row["in_cluster"] = row["in_cluster_min"] = row["target_in_cluster"] = np.nan
        row.update(
            average_sensitivity=float(group["average_sensitivity"].mean()),
            target_average_sensitivity=float(group["target_average_sensitivity"].mean()),
            profile_distance=float(group["profile_distance"].mean()),
            n_parameters=int(group["n_parameters"].max()),
            seconds=float(group["seconds"].sum()) if "seconds" in group else float("nan"),
        )
        rows.append(row)
    summary = pd.DataFrame(rows)
    order = {name: i for i, name in enumerate(NAMED_FUNCTIONS)}
    return summary.sort_values(
        ["function", *series, "n_bits"],
        key=lambda col: col.map(order) if col.name == "function" else col,
        ignore_index=True,
    )


def learned_up_to(df, summary=None):
    """How far each function was learned, by the rule of :data:`LEARNED_UP_TO_RATE`.

    "Learned up to N" is the largest N such that at N and at every smaller
    length tried, at least 80% of the seeds learned (accuracy >=
    :data:`LEARNED`): 2 of 2, 4 of 5, 8 of 10. The success rate at the
    largest N tried comes with its 95% Wilson interval.

    Returns
    -------
    table : pandas.DataFrame
        Per function (and series): ``learned_up_to`` (0 if the smallest N
        already falls short), ``first_short`` (the first N that falls short,
        0 if none), ``largest_with_success`` (the largest N at which any seed
        learned, 0 if none), ``largest_n_tried``, and ``learned``, ``seeds``,
        ``rate``, ``low``, ``high`` at the largest N tried.
    """
    summary = summarize_training(df) if summary is None else summary
    series = series_columns(df)
    rows = []
    for keys, group in summary.groupby(["function", *series], sort=False):
        group = group.sort_values("n_bits")
        ok, first_short = 0, 0
        for n, rate in zip(group["n_bits"], group["learned_rate"]):
            if rate < LEARNED_UP_TO_RATE - 1e-12:
                first_short = int(n)
                break
            ok = int(n)
        some = group[group["learned"] > 0]
        last = group.iloc[-1]
        row = dict(zip(["function", *series], keys))
        row.update(
            learned_up_to=ok, first_short=first_short,
            largest_with_success=int(some["n_bits"].max()) if len(some) else 0,
            largest_n_tried=int(last["n_bits"]), learned=int(last["learned"]),
            seeds=int(last["seeds"]), rate=float(last["learned_rate"]),
            low=float(last["learned_low"]), high=float(last["learned_high"]),
        )
        rows.append(row)
    return pd.DataFrame(rows)


@fill_doc
def training_summary(df):
    """The training study's summary of one setting's rows: what its renderers and claim read.

    %(returns_study_summary)s
        ``rows`` and ``table`` (the rows with their ``model_setting``: the
        texts list budgets and stops, the figures draw every run); with
        training runs, ``series`` (:func:`series_columns`) and, where the
        table has the columns they read
        (:meth:`~skxor.papers._common.Summary.add_readable`), ``per_cell``
        (:func:`summarize_training`) and ``reach`` (:func:`learned_up_to`).

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.kover.training import training_summary
    >>> summary = training_summary(pd.DataFrame())
    >>> summary.rows, sorted(summary)
    (0, ['rows', 'table'])
    """
    if not len(df) or "function" not in df:
        return Summary(rows=len(df), table=df)
    table = with_model_setting(df)
    summary = Summary(rows=len(df), table=table, series=series_columns(table))
    # reach reads per_cell: where that is left out, so is reach, for the same reason.
    return summary.add_readable(table, per_cell=summarize_training,
                                reach=lambda t: learned_up_to(t, summary.per_cell))


def steps_interval(df):
    """Each run's steps to learn as an interval ``(low, high]``: right-censored at its budget.

    A run that learned did so within its last stretch of ``check_every``
    steps: ``(steps - check_every, steps]``; a run that did not learn needs
    more than its budget: ``(n_steps, inf)``, whatever the reason it stopped
    (the growth of the steps to learn reads every run, so no run is dropped
    or counted as a failure).

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.kover.training._summary import steps_interval
    >>> df = pd.DataFrame({"learned": [True, False], "steps": [300, 1000],
    ...                    "n_steps": [1000, 1000], "check_every": 50})
    >>> [list(map(float, v)) for v in steps_interval(df)]
    [[250.0, 1000.0], [300.0, inf]]
    """
    learned = flag_columns(df, ["learned"])["learned"].to_numpy(dtype=bool)
    steps = df["steps"].to_numpy(dtype=float)
    every = df["check_every"].to_numpy(dtype=float)
    low = np.where(learned, np.maximum(steps - every, 0.0), df["n_steps"].to_numpy(dtype=float))
    high = np.where(learned, steps, np.inf)
    return low, high


def steps_growth(n_bits, low, high, confidence=0.95):
    """How fast the steps to learn grow with N: log2 steps per added bit, censored.

    ln(steps to learn) is modelled as normal around ``c + a ln 2 (N - mean
    N)`` with one spread sigma: the steps grow like ``2^(a N)``. Each run
    contributes the probability that its steps fall in its interval
    ``(low, high]`` (:func:`steps_interval`: ``high = inf`` for a run the
    budget stopped, right-censored). Maximum likelihood; the interval of
    ``a`` is Wald's from the observed information (a quick interval, so
    that a simulated table is judged in milliseconds).

    Parameters
    ----------
    n_bits, low, high : array-like of shape (n_runs,)
    confidence : float, default=0.95
        Coverage of Wald's interval of ``a``.

    Returns
    -------
    fit : dict
        ``rate`` (a, log2 steps per bit), ``se``, ``low``, ``high``,
        ``sigma`` (of ln steps), ``centre`` (ln steps at the mean N),
        ``mean_n``, ``runs`` and ``learned`` (runs bracketed on both sides);
        NaN unless runs learned at two N or more.

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.papers.kover.training._summary import steps_growth
    >>> rng = np.random.default_rng(0)
    >>> n = np.repeat([4, 8, 12], 20)
    >>> need = 2 ** (0.5 * n + 6 + 0.5 * rng.standard_normal(n.size))
    >>> steps = 50 * np.ceil(need / 50)  # learned within the last 50 steps before a check
    >>> fit = steps_growth(n, steps - 50, steps)
    >>> bool(fit["low"] < 0.5 < fit["high"]), fit["learned"]
    (True, 60)
    """
    fit = censored_growth_fit(n_bits, low, high, confidence)
    return {**fit, "mean_n": fit["mean_x"], "runs": fit["n_points"],
            "learned": fit["n_bracketed"]}


#: The study's small run, which the doctests of its report, figures and bullet render.
DOC_EXAMPLES = study_examples(""">>> from skxor.papers.kover.training import STUDY
>>> df = STUDY.run(function=["FIRST"], n_bits=[3, 4], seeds=1, d_model=8,
...                n_layers=1, n_heads=2, n_steps=50, check_every=10)""")
