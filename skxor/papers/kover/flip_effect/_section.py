"""The flip-effect study's section of the report (Markdown)."""

from skxor.studies.reporting import empty_section, interval_texts, markdown_table, rough_text, section
from skxor._utils._docstrings import fill_doc_with
from ._summary import DOC_EXAMPLES, TAIL_N, binding_cap, flip_effect_summary, slope_rule_text

#: The title of the study's section of the report.
TITLE = "Köver et al.'s eps > 0 prediction: one flip's effect against N"


@fill_doc_with(DOC_EXAMPLES)
def render_report(summary):
    """Markdown: the slope of the change on N per (eps, D, L), and the change per N.

    Called as ``get_study("flip_effect").render("report", table)``, on the
    table's :func:`~skxor.papers.kover.flip_effect.flip_effect_summary`.

    %(returns_study_report)s

    %(examples)s
    >>> print(STUDY.render("report", df).splitlines()[0])
    ## Köver et al.'s eps > 0 prediction: one flip's effect against N
    """
    if not summary.rows:
        return empty_section(TITLE, "networks")
    df, seeds, fits = summary.table, summary.seeds, summary.fits.copy()
    fits["slope (95%)"] = interval_texts(fits, "slope", "low", "high")
    by = ["layer_norm_eps", "d_model", "n_layers"]
    fits = fits.merge(summary.readings[[*by, "verdict", "binding"]], on=by, how="left")
    fits["eps binds in"] = [f"{int(r.binding)}/{r.networks}" if r.layer_norm_eps > 0 else "-"
                            for r in fits.itertuples()]
    fits["claim K6 (largest N where eps binds)"] = fits["verdict"].fillna(
        "no bound claimed (eps = 0)")
    summary = summary.per_n.copy()
    summary["constant (95%)"] = interval_texts(summary, "constant")
    rough = rough_text(seeds, f" **Rough: {seeds} seeds per (N, D, L).**")
    return section(
        TITLE,
        f"{summary['networks'].sum() // summary['layer_norm_eps'].nunique()} random "
        f"transformers ({seeds} seeds per (N, D, L), each its own weights, evaluated at "
        f"eps = {', '.join(f'{e:g}' for e in sorted(df['layer_norm_eps'].unique()))}), "
        f"{int(df['n_samples'].iloc[0])} uniform strings each and every single flip of them, "
        "in float64. With eps > 0, Köver et al. bound the change by O(1/N): on log-log axes "
        f"a slope of -1 or steeper.{rough}",
        "**The slope of log(largest change) on log N** (per network, over every network "
        "and N; t interval with the networks as units). Claim K6 reads it only over the "
        "networks where eps binds (their largest layer-norm 1/sqrt(var + eps) at or above "
        f"1/sqrt(2 eps), e.g. {binding_cap(0.1):.3g} at eps = 0.1: eps at least the smallest "
        f"variance met) at the {TAIL_N} largest N among them: {slope_rule_text()}; not "
        "tested where eps binds in no network:",
        markdown_table(fits[["layer_norm_eps", "d_model", "n_layers", "networks",
                             "slope (95%)", "eps binds in",
                             "claim K6 (largest N where eps binds)"]]),
        "**Per N** (medians over the networks; *constant*: no other label among the sampled "
        "strings and their flips, Wilson 95%):",
        markdown_table(summary[["layer_norm_eps", "d_model", "n_layers", "n_bits", "networks",
                                "max_median", "typical_median", "logit_std",
                                "constant (95%)"]]),
    )
