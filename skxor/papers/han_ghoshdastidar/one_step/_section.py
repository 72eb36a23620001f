"""The one-step study's section of ``report.md``."""

import numpy as np

from skxor.nn import attention_names, get_attention
from skxor.studies.reporting import timing_sentence
from skxor.studies.reporting import empty_section, interval_table, interval_texts, markdown_table, rate_text, section, values_text
from skxor.studies.figures import rows_where
from skxor.studies.stats import POOLED_OVER_D_CAVEAT, format_interval, rate_with_interval
from skxor._utils._docstrings import fill_doc_with
from ._cells import SUCCESS_ACCURACY
from ._summary import DOC_EXAMPLES, one_step_summary
from ._wording import setting_text, steps_text


@fill_doc_with(DOC_EXAMPLES)
def render_report(summary):
    """Markdown: each attention at its best step length, with Wilson 95% intervals; every number from the table.

    Called as ``get_study("one_step").render("report", table)``, on the
    table's :func:`~skxor.papers.han_ghoshdastidar.one_step.one_step_summary`.

    %(returns_study_report)s
        A Markdown section: the setting, every (attention, n, T, step
        length) pooled over d and m with the best step length marked, a
        table per (attention, d, m, n, T) at the best step length, pooled
        rates per attention type and T, the largest attention weights, how
        the cells were scored and the time against the floor.

    %(report_examples)s
    >>> print(report.splitlines()[0])
    ## Normalised gradient steps: softmax vs linear vs erf attention, each at its best step length
    >>> for line in report.splitlines():  # doctest: +NORMALIZE_WHITESPACE
    ...     if line.startswith(("- softmax", "- erf,", "- erf weights")):
    ...         print(line)
    - softmax, 1 step of 100 (its best of 10, 100): success in 3/3 = 1.00 [0.44, 1.00]
      of runs (seeds x d x m); heads on distinct support bits in 3/3 = 1.00 [0.44, 1.00].
    - erf, 1 step of 10 (its best of 10, 100): success in 0/3 = 0.00 [0.00, 0.56]
      of runs (seeds x d x m); heads on distinct support bits in 3/3 = 1.00 [0.44, 1.00].
    - erf weights are (1 + erf(s)) / d <= 2/d by definition; the largest weight in any
      erf run times d is 2.000.
    """
    title = ("Normalised gradient steps: softmax vs linear vs erf attention, each at its "
             "best step length")
    if summary.rows == 0:
        return empty_section(title, "runs")
    cells, best, at_best = summary.cells, summary.best, summary.best_cells
    per_cell = summary.per_cell
    table = interval_table(per_cell)[["attention", "d", "m", "n", "n_steps", "step_length", "success", "specialised",
       "median_loss", "median_support_mass", "seeds"]]
    sweep = best.assign(
        success=interval_texts(best, "success_rate", counts=("successes", "runs")),
        best=np.where(best["best"], "best", ""),
    )[["attention", "n", "n_steps", "step_length", "success", "specialised", "median_loss",
       "median_max_weight", "best"]]
    ns = sorted(int(n) for n in cells["n"].unique())
    lengths = values_text(cells["step_length"].astype(float))
    blocks = [
        f"Setting: {setting_text(cells)}. "
        + ("Every step here is a population step (n = 0): the exact gradient of the "
           "population loss, no training samples."
           if ns == [0] else
           "Rows with n = 0 are exact population steps; rows with n > 0 take "
           "full-batch steps on n training samples.")
        + f"\nT normalised steps of the given length each (T = 1 is the paper's one step); "
        f"step lengths tried: {lengths}. Success = test accuracy >= {SUCCESS_ACCURACY} "
        "after the steps; specialised = the two heads' most-attended positions are the "
        "two support bits. A run is one seed at one d and m; the three attention types, "
        "every step length and every T share each run's keys, initial queries and support "
        "(paired). Rates in [brackets]: Wilson 95% intervals; pooled over d and m, 95% "
        "intervals with the seeds as the independent units. "
        + POOLED_OVER_D_CAVEAT,
        "Every step length, pooled over d and m (`best`: the step length with the most "
        "successes, ties broken by the lower median loss - chosen on these runs, so "
        "optimistic for every variant; `median_max_weight`: median of the largest "
        "attention weight of either head):",
        markdown_table(sweep),
        "Per d and m, each attention type and T at its best step length:",
        markdown_table(table),
    ]
    lines = []  # the closing list, one item a line
    order = {name: i for i, name in enumerate(attention_names())}
    keys = sorted(at_best.groupby(["attention", "n", "n_steps"]).groups,
                  key=lambda k: (k[1], k[2], order.get(k[0], len(order)), k[0]))
    for attention, n, steps in keys:
        part = rows_where(at_best, attention=attention, n=n, n_steps=steps)
        length = float(part["step_length"].iloc[0])
        tried = values_text(rows_where(cells, attention=attention, n=n,
                                       n_steps=steps)["step_length"])
        data = "" if n == 0 else f", n = {n:,}"
        lines.append(
            f"- {attention}{data}, {steps_text(steps)} of {length:g} (its best of {tried}): "
            f"success in {rate_text(part['success'])} of runs (seeds x d x m); "
            f"heads on distinct support bits in {rate_text(part['specialised'])}."
        )
    one = at_best[at_best["n_steps"] == 1]
    # The unnormalised types (the paper's linear and erf), which one step leaves diffuse.
    for attention in [a for a in attention_names() if not get_attention(a).normalised]:
        part = one[one["attention"] == attention]
        landed = part["specialised"]
        if len(part) and landed.any() and not part.loc[landed, "success"].any():
            rate, low, high, n = rate_with_interval(landed)
            lines.append(
                f"- {attention} heads, one step at its best length, do land on the support "
                f"bits in {int(landed.sum())} of {n} runs ({format_interval(rate, low, high)}) "
                f"and still fail: each of them has test accuracy below "
                f"{SUCCESS_ACCURACY} (at most {part.loc[landed, 'test_accuracy'].max():.3f}), "
                f"with median support mass {part.loc[landed, 'support_mass_min'].median():.3g} "
                "per head - the weights are not concentrated enough."
            )
    if "max_weight" in cells:
        erf = cells[cells["attention"] == "erf"]
        if len(erf):
            scaled = (erf["max_weight"] * erf["d"]).max()
            lines.append(
                f"- erf weights are (1 + erf(s)) / d <= 2/d by definition; the largest weight "
                f"in any erf run times d is {scaled:.3f}."
            )
    widths = per_cell["success_high"] - per_cell["success_low"]
    if len(widths) and widths.max() > 0.3:
        lines.append(
            f"- Rough: with {int(per_cell['seeds'].min())} seeds per cell the per-cell "
            f"intervals are up to {widths.max():.2f} wide."
        )
    exact = cells["scoring"] == "exact" if "scoring" in cells else None
    if exact is not None:
        sampled = cells.loc[~exact, "n_scored"]
        lines.append(
            f"- Scoring: {int(exact.sum())} of {len(cells)} cells exactly (every head has a "
            "dominant position, so the accuracy is 0, 1/2 or 1 on all inputs), "
            f"{len(sampled)} by sequential sampling"
            + (f" (median {int(sampled.median())}, at most {int(sampled.max())} inputs)"
               if len(sampled) else "") + "."
        )
    lines += filter(None, [timing_sentence(cells, "cells", "steps or fits, and exact losses")])  # no timing columns: none
    return section(title, *blocks, "\n".join(lines))
