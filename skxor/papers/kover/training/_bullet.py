"""The training study's headline bullet (``skxor headline``), every number from its table."""

import pandas as pd

from skxor.studies.reporting import rough_text, values_text
from skxor.studies.stats import format_interval
from skxor._utils._docstrings import fill_doc_with
from ._cells import LEARNED
from ._wording import budget_text, growth_sentences, series_label, setting_description
from ._summary import DOC_EXAMPLES


@fill_doc_with(DOC_EXAMPLES)
def headline_text(summary):
    """The training study's bullet in ``skxor headline``: how far each function was learned.

    Called as ``get_study("training_sensitivity").render("headline", table)``.

    From the table of :func:`~skxor.papers.training_sensitivity`, one
    paragraph of Markdown: per function and model setting, the largest N
    learned by the rule of ``LEARNED_UP_TO_RATE`` and the success at the
    largest N tried (Wilson 95%); then the budget-limited runs.

    %(examples)s
    >>> print(STUDY.render("headline", df).split("): ", 1)[1])  # doctest: +NORMALIZE_WHITESPACE
    FIRST (library) learned up to N = 3 (at N = 4: 0/1 seeds, 0.00 [0.00, 0.79]); FIRST
    (paper, xavier_uniform init) learned up to N = 4 (at N = 4: 1/1 seeds, 1.00 [0.21,
    1.00]). 1 of 4 runs were budget-limited (loss still falling at the budget). Köver et
    al. prove FIRST and PARITY unlearnable only as N grows, which no finite N tests.
    """
    head = "**Training**"
    if not summary.rows:
        return f"{head}: the table holds no training run to summarize."
    df, reach, series = summary.table, summary.reach, summary.series
    parts = []
    for _, r in reach.iterrows():
        name = series_label(r["function"], [r[c] for c in series], series, df)
        if r["learned_up_to"]:
            head_text = f"{name} learned up to N = {r['learned_up_to']}"
        else:
            head_text = f"{name} not learned at the shortest N tried"
        parts.append(
            f"{head_text} (at N = {r['largest_n_tried']}: {r['learned']}/{r['seeds']} seeds, "
            f"{format_interval(r['rate'], r['low'], r['high'])})"
        )
    stops = df["stop"] if "stop" in df else pd.Series(dtype=str)
    limited = int((stops == "budget").sum())
    settings = "; ".join(setting_description(m) for m in df["model_setting"].unique())
    seeds = int(df["seed"].nunique()) if "seed" in df else 0
    growth = "; ".join(growth_sentences(summary.per_cell, series, df)) \
        if "per_cell" in summary else ""
    growth = f"Median steps to learn (95%, order statistics): {growth}. " if growth else ""
    return (
        f"{head} ({rough_text(seeds)}{seeds} seeds, "
        f"{budget_text(df)}, N = "
        f"{', '.join(map(str, sorted(df['n_bits'].unique())))}; model settings: {settings}; "
        f"learned = accuracy >= {LEARNED:g} (runs stop early at "
        f"{values_text(float(a) for a in df['target_accuracy'])} on monitoring strings), 95% "
        "Wilson intervals): " + "; ".join(parts) + ". " + growth +
        f"{limited} of {len(df)} runs were budget-limited (loss still falling at the "
        "budget). Köver et al. prove FIRST and PARITY unlearnable only as N grows, which "
        "no finite N tests."
    )
