"""The sample-complexity study's section of ``report.md``."""

import numpy as np

from skxor.studies.reporting import interval_texts, section, timing_sentence
from skxor.studies.stats import format_interval
from skxor._utils._docstrings import fill_doc_with
from ._cells import MODELS
from ._summary import (
    DOC_EXAMPLES,
    setting_values,
    sample_complexity_summary,
)
from ._wording import setting_text


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


@fill_doc_with(DOC_EXAMPLES)
def render_report(summary):
    """Markdown: n* per model and d with intervals, censoring-aware exponents; numbers from the table.

    Called as ``get_study("sample_complexity").render("report", table)``, on the
    table's :func:`~skxor.papers.han_ghoshdastidar.sample_complexity.sample_complexity_summary`.

    %(returns_study_report)s
        A Markdown section: the setting, the samples needed per model and d,
        the fitted exponents and the time against the floor.

    %(report_examples)s
    >>> print(report.splitlines()[0])
    ## Sample complexity
    >>> for line in report.splitlines():  # doctest: +NORMALIZE_WHITESPACE
    ...     if line.startswith("| transformer_multi_step"):
    ...         print(line)
    | transformer_multi_step | 10 | 2/2 (1.00 [0.34, 1.00]) | 250 | 250 | (0, 400] range | 100..400 | 2/2 (1.00 [0.34, 1.00]) | 1 | 0 |
    | transformer_multi_step | 20 | 2/2 (1.00 [0.34, 1.00]) | 850 | 850 | (0, 1,600] range | 100..1,600 | 2/2 (1.00 [0.34, 1.00]) | 1 | 0 |
    | transformer_multi_step | 1.17 [-7.44, 10.01] | cured | 0 | 4 | 2 | 2 | 0 | x4.00 |
    """
    if not summary.rows:
        raise ValueError("df holds no rows: there is nothing to summarize.")
    everything, df, target = summary.table, summary.validated, summary.target
    table, fits, rough, seeds = summary.per_cell, summary.fits, summary.rough, summary.seeds
    shown = table.assign(
        median_cell=[f"{_cell(lo, hi)} {kind}" for lo, hi, kind in
                     table[["median_low", "median_high", "median_interval"]].to_numpy()],
        reached=[f"{r} ({text})" for r, text in
                 zip(table["reached"], interval_texts(table, "reached_rate"))],
        seed_range=[_range([a, b]) for a, b in table[["n_star_min", "n_star_max"]].to_numpy()],
        p_pop=[k if k == "-" else f"{k} ({text})" for k, text in
               zip(table["population_success"], interval_texts(table, "p_pop"))],
    )[["model", "d", "p_pop", "n_star", "n_star_cured", "median_cell", "seed_range",
       "reached", "at_floor", "not_reached"]]
    fit_table = fits.assign(
        exponent=[_exponent_text(f) for _, f in fits.iterrows()],
        grid=[f"x{r:.2f}" for r in fits["grid_ratio"]],
    )[["model", "exponent", "seeds_used", "population_failures", "n_points", "n_interval",
       "left_censored", "right_censored", "grid"]]
    blocks = [
        f"Setting: {setting_text(df)}."
        + (f" Rough: {seeds} seeds and {df['d'].nunique()} values of d; read the "
           "exponents as indications only." if rough else "")
        + f"\nn* per seed = the smallest training size from which the test accuracy stays "
        f">= {target:g} at every larger size tried; the grid brackets it in (last failing "
        "size, that size]. p_pop: seeds whose training run succeeds on infinite data "
        "(the same steps on the population loss from the seed's own keys and initial "
        "queries, scored exactly; Wilson 95%; '-' for the FFNN, which has no population "
        "step); a seed failing there has no finite n* (a cure model counts it apart). "
        "n_star below is its median over seeds (NaN unless more than "
        "half reach the target), n_star_cured the same over the seeds whose population "
        "run succeeds; median_cell an interval of that median from the seeds' "
        "grid cells (95%: distribution-free, from order statistics, 6 seeds or more; "
        "range: the whole range of the cells, rough, with fewer seeds); seed_range: "
        "smallest and largest per-seed n*; reached: seeds reaching the target, Wilson "
        "95%; at_floor: seeds already at the target at the smallest size (left-censored); "
        "not_reached: seeds not staying there by the largest size tried (right-censored).",
        shown.to_markdown(index=False, floatfmt=",.0f"),
        "Exponent a of n*(d) ~ d^a: maximum likelihood with log n* normal about a line "
        "in log d, every learning curve (an independent (d, seed) unit) whose population "
        "run succeeds (seeds_used 'cured'; every curve of a model without a population "
        "step, 'all') contributing the probability of its grid cell, censored seeds "
        "included; profile-likelihood 95% interval. population_failures: curves left out "
        "as failing in the population limit; n_interval: curves bracketed on both sides; "
        "grid: the largest ratio of neighbouring sizes, each cell's resolution:",
        fit_table.to_markdown(index=False),
    ]
    lines = []  # the closing list, one item a line
    for _, fit in fits.iterrows():
        part = table[table["model"] == fit["model"]]
        lines.append(
            f"- {fit['model']}: median n* {_range(part['n_star'])} at d = "
            f"{part['d'].min()}..{part['d'].max()}, exponent {_exponent_text(fit)}"
            f"{'' if np.isfinite(fit['exponent']) else ' (no fit: no two d with a seed bracketed on both sides)'}"
            f" from {int(fit['n_points'])} learning curves ({int(fit['left_censored'])} "
            f"left- and {int(fit['right_censored'])} right-censored, kept"
            + (f"; {int(fit['population_failures'])} failing in the population limit left "
               "out" if fit["seeds_used"] == "cured" else "")
            + f"), grid cells up to x{fit['grid_ratio']:.2f} wide."
        )
    lines.append(
        "- Against the theory: Han & Ghoshdastidar's guarantee for one step needs a "
        "number of samples growing as d^4 (up to polylog d), a sufficient bound; they "
        "remark that in practice the samples needed grow about linearly in d. "
        + h5_sentence(fits) + " This holds for the d and the grid run here only."
    )
    lines += _other_settings(everything, df)
    lines += _tradeoff(table)
    lines += filter(None, [timing_sentence(df, "learning curves", "the fits and test scoring")])  # no timing columns: none
    return section("Sample complexity", *blocks, "\n".join(lines))


def h5_sentence(fits):
    """Claim H5's verdict on the one-step exponent, as the claims page states it.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.han_ghoshdastidar.sample_complexity._section import h5_sentence
    >>> h5_sentence(pd.DataFrame({"model": ["transformer_one_step"], "exponent": [2.16],
    ...                           "low": [1.59], "high": [2.74]}))
    "Claim H5 ('about linear': the one-step exponent's 95% interval inside [0.5, 1.5]) reads 2.16 [1.59, 2.74]: not reproduced."
    """
    from ._rules import LINEAR_BAND, exponent_verdict  # the rules import this module

    one = fits[fits["model"] == "transformer_one_step"]
    if one.empty or not np.isfinite(one.iloc[0]["exponent"]):
        return "Claim H5 is not tested: no one-step exponent."
    r = one.iloc[0]
    return (f"Claim H5 ('about linear': the one-step exponent's 95% interval inside "
            f"[{LINEAR_BAND[0]:g}, {LINEAR_BAND[1]:g}]) reads "
            f"{format_interval(r['exponent'], r['low'], r['high'])}: "
            f"{exponent_verdict(r['low'], r['high'])}.")


def _other_settings(everything, analysed):
    """Sentences naming the rows of other settings that ``like_for_like`` left out."""
    others = everything[~everything.index.isin(analysed.index)]
    if others.empty:
        return []
    values = setting_values(others)
    columns = list(values.columns)
    counts = values.groupby(columns, sort=False).size()
    listed = "; ".join(
        ", ".join(f"{c}={v:g}" for c, v in zip(columns, values)) + f": {count} rows"
        for values, count in counts.items()
    )
    return [
        f"- Not pooled: this analysis uses the latest setting only; the table also holds "
        f"{len(others)} rows of {len(counts)} other setting(s) of {', '.join(columns)} "
        f"({listed}). Analyse one with `get_study(\"sample_complexity\").render(\"report\", "
        "table[table.n_test == ...])` (select on every column that differs); `skxor run` "
        "writes one part of report.md per setting."
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
