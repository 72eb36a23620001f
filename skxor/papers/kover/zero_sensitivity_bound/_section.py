"""The zero-sensitivity-bound study's section of the report (Markdown)."""

import math

import numpy as np
import pandas as pd

from skxor._utils._docstrings import fill_doc_with
from .._networks import distinct_networks, paired_eps_text, profiled_text, share_text
from skxor.studies.reporting import empty_section, rough_text, section
from skxor.studies.stats import format_count, format_interval
from ._summary import DOC_EXAMPLES, bound_summary


#: The title of the study's section of the report.
TITLE = "Theorem 4.5: zero-sensitivity strings against N^((D-1)/(2L) - 5)"


def _log10_cell(row):
    if not np.isfinite(row["log10_count"]):
        high = row["log10_count_high"]
        return "none found" + (f" (< 10^{high:.2f})" if np.isfinite(high) else "")
    if row["method"] == "exhaustive":
        return f"{row['log10_count']:.2f}"
    return format_interval(row["log10_count"], max(row["log10_count_low"], -99),
                           row["log10_count_high"])


@fill_doc_with(DOC_EXAMPLES)
def render_report(summary):
    """Markdown: counts against the bound, shares, where the bound is vacuous.

    Called as ``get_study("zero_sensitivity_bound").render("report", table)``, on the
    table's :func:`~skxor.papers.kover.zero_sensitivity_bound.bound_summary`.

    %(returns_study_report)s
        A Markdown section: the bound's exponent per (D, L), a table per
        (eps, D, L, N) of the count against the bound and of the shares, and
        sentences on the networks overall.

    %(report_examples)s
    >>> print(report.splitlines()[0])
    ## Theorem 4.5: zero-sensitivity strings against N^((D-1)/(2L) - 5)
    >>> for line in report.splitlines():  # doctest: +NORMALIZE_WHITESPACE
    ...     if line.startswith("|     0"):  # the rows: eps = 0
    ...         print(line)
    | 0 | 8 | 1 | 4 | -0.9 | vacuous (bound < 1) | 1.1 | 0.78 | 3/3 = 1.00 [0.29, 1.00] |
      1/1 = 1.00 [0.03, 1.00] | 2/3 = 0.67 [0.21, 0.94] | 1/1 = 1.00 [0.03, 1.00] |
    | 0 | 8 | 1 | 8 | -1.35 | vacuous (bound < 1) | 2.41 | - | 3/3 = 1.00 [0.29, 1.00] |
      - (none) | 3/3 = 1.00 [0.44, 1.00] | - (none) |
    >>> print(report.splitlines()[-1])
    Compared with the bound at eps = 0: every row is vacuous, so these data do not test the bound.
    """
    if not summary.networks:
        return empty_section(TITLE, "random network")
    df, seeds, summary_all = summary.table, summary.seeds, summary.per_row
    verdict, agreement, identical = summary.verdict, summary.agreement, summary.identical
    summary = summary.drawn
    configs = summary[["d_model", "n_layers", "exponent"]].drop_duplicates()
    vacuous = configs[configs["exponent"] < 0]
    rough = rough_text(seeds, f" **Rough: {seeds} seeds per configuration.**")
    blocks = [
        f"{distinct_networks(df)} distinct random transformers ({seeds} seeds per "
        "configuration, each (N, D, L, seed) with its own weights; init "
        f"{', '.join(sorted(df['init'].unique()))}, read-out "
        f"{', '.join(sorted(df['readout'].unique()))}, positions "
        f"{', '.join(sorted(df['positional'].unique()))}), profiled over "
        + profiled_text(df) + f".{rough}" + paired_eps_text(df),
        "The bound's exponent (D - 1)/(2L) - 5 is positive only when D - 1 > 10 L. "
        + ("It is not here for (D, L) = "
           + ", ".join(f"({int(d)}, {int(l)})"
                       for d, l in vacuous[["d_model", "n_layers"]].values) + ": "
           "there the bound is below 1 and asks for no more than one zero-sensitivity "
           "string (vacuous as a growth rate). " if len(vacuous) else "")
        + "Exponents: "
        + ", ".join(f"D={int(d)}, L={int(l)}: {e:g}" for d, l, e in configs.values) + ".",
        "Count: log10 of the mean number of zero-sensitivity strings (fraction x 2^N, "
        "strings pooled over the networks; [Wilson 95%] for the sampling of strings "
        "when sampled). Shares of networks with a zero-sensitivity string: "
        "Clopper-Pearson 95% (a lower bound on 'almost surely'); constant: Wilson 95%. "
        "'reaches bound (non-const.)': non-constant networks whose count (its Wilson lower "
        "end when sampled) is at or above the bound. 'bound': vacuous where the bound is "
        "below 1 or above 2^N.",
    ]
    table = pd.DataFrame({
        "eps": summary["layer_norm_eps"].map(lambda e: f"{e:g}"),
        "D": summary["d_model"], "L": summary["n_layers"], "N": summary["n_bits"],
        "log10 bound": summary["log10_bound"].map(lambda v: f"{v:.2f}"),
        "bound": summary["vacuous_reason"].map(lambda r: f"vacuous ({r})" if r else "tested"),
        "log10 count": summary.apply(_log10_cell, axis=1),
        "median log10 count (non-const.)": summary["nonconstant_median_log10_count"].map(
            lambda v: "-" if not np.isfinite(v) else f"{v:.2f}"),
        "with zero (all)": summary.apply(lambda r: share_text(r, "with_zero"), axis=1),
        "with zero (non-const.)": summary.apply(
            lambda r: share_text(r, "nonconstant_with_zero", "nonconstant"), axis=1),
        "constant": summary.apply(lambda r: share_text(r, "constant"), axis=1),
        "reaches bound (non-const.)": summary.apply(
            lambda r: share_text(r, "nonconstant_meets_bound", "nonconstant"), axis=1),
    })
    if identical:
        table = table.drop(columns="eps")
    blocks.append(table.to_markdown(index=False))
    # eps is paired (the same networks at each eps): pool at the theorem's eps, the
    # smallest, so that each network counts once.
    pool_eps = float(df["layer_norm_eps"].min())
    pool = df[df["layer_norm_eps"] == pool_eps]
    rows = summary_all[summary_all["layer_norm_eps"] == pool_eps]
    at = f" at eps = {pool_eps:g}" + (
        " (eps > 0 gives the same functions on these networks)" if identical else "")
    nonconst = pool[~pool["constant"].astype(bool)]
    k = int(pool["has_zero"].astype(bool).sum())
    k_nc = int(nonconst["has_zero"].astype(bool).sum())
    k_c = int(pool["constant"].astype(bool).sum())
    blocks.append(
        f"Over all {len(pool)} networks{at}: a zero-sensitivity string was found in "
        f"{format_count(k, len(pool), 'networks', 'clopper-pearson')}; among the "
        f"{len(nonconst)} non-constant ones, in "
        f"{format_count(k_nc, len(nonconst), 'networks', 'clopper-pearson')}; "
        f"{format_count(k_c, len(pool), 'networks')} are constant.")
    vacuous = rows[rows["vacuous"]]
    if len(vacuous):
        blocks.append(
            f"Vacuous rows ({len(vacuous)} of {len(rows)} (D, L, N) at eps = {pool_eps:g}, "
            "marked in the table): the bound is below 1 (it names no growth) in "
            f"{int((vacuous['vacuous_reason'] == 'bound < 1').sum())} and above 2^N, the "
            "number of all strings (no function reaches it; the theorem is for large N), "
            f"in {int((vacuous['vacuous_reason'] == 'bound > 2^N').sum())}. They do not "
            "count toward the verdict.")
    blocks.append(f"Compared with the bound at eps = {pool_eps:g}: {verdict['text']}")
    if agreement is not None:
        blocks.append(
            f"eps = 0 and eps = {agreement['eps']:g} gave identical profiles in "
            f"{agreement['same']} of {agreement['pairs']} networks evaluated at both "
            f"(largest layer-norm 1/std seen: {agreement['inv_std_max']:.3g}, "
            f"against 1/sqrt(eps) = {1 / math.sqrt(agreement['eps']):.3g})"
            + ("; the table shows eps = 0." if identical else "."))
    return section(TITLE, *blocks)
