"""The k-sparse study's bullet in ``skxor headline``, every number from its table."""

from skxor.studies.reporting import rough_text, values_text
from skxor.studies.stats import format_interval


def headline_text(summary):
    """The study's bullet in ``skxor headline``: certified success of the fewest and most steps.

    Called as ``get_study("k_sparse").render("headline", table)``.

    Every number comes from the table (``k_sparse.csv``).
    """
    title = "**k-sparse parity with k heads**"
    df, steps = summary.table, summary.steps
    if len(steps) == 0:
        return f"{title}: the table holds no step runs; nothing to summarize."
    pooled = summary.pooled
    if (pooled["n"] == 0).any():
        pooled, data = pooled[pooled["n"] == 0], steps[steps["n"] == 0]
        kind = "exact population steps"
    else:
        data = steps
        kind = "full-batch steps on n = " + values_text(int(n) for n in steps["n"]) + " samples"
    presets = sorted(set(df["preset"].dropna().astype(str))) if "preset" in df else []
    preset = f"{'/'.join(presets)} preset" if presets else "preset unknown"
    shortest, longest = pooled["n_steps"].min(), pooled["n_steps"].max()
    parts = []
    for init, group in pooled.groupby("init", sort=True):
        each = []
        for k, rows in group.groupby("k", sort=True):
            for r in rows[rows["n_steps"].isin({shortest, longest})].itertuples():
                steps_text = "1 step" if r.n_steps == 1 else f"{r.n_steps} steps"
                each.append(f"k = {k}, {steps_text}: {r.successes}/{r.runs} = "
                            f"{format_interval(r.success, r.success_low, r.success_high)}")
        parts.append(f"{init} initial queries: " + ", ".join(each))
    seeds = data["seed"].nunique()
    return (
        f"{title} ({rough_text(seeds)}{preset}; {kind}, "
        f"{seeds} seeds, "
        f"d = {values_text(int(d) for d in data['d'])}, "
        f"m = {values_text(int(m) for m in data['m'])}; "
        "success certified >= 99% accuracy, in runs = seeds x d x m; 95% intervals with "
        "the seeds as the independent units, beta-binomial profile likelihood, and where every "
        "run agrees at least Wilson's over the seeds, as on the claims page): "
        + "; ".join(parts) + "."
    )
