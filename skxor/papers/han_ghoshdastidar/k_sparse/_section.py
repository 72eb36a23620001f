"""The k-sparse study's section of ``report.md``, every number from its table."""

from skxor.studies.reporting import interval_texts, markdown_table, section
from skxor.studies.stats import MIN_BOOTSTRAP_GROUPS, POOLED_OVER_D_CAVEAT, format_interval
from skxor._utils._docstrings import fill_doc_with
from ._cells import TARGET_ACCURACY
from ._summary import DOC_EXAMPLES, k_sparse_summary
from ._wording import _data_label


def _counts(table, successes, runs):
    """``"successes/runs: rate [low, high]"`` per row of ``table`` (its Wilson 95 % interval)."""
    return [f"{a}/{b}: {text}" for a, b, text in zip(successes, runs,
                                                      interval_texts(table, "success"))]


def _by_steps(table, successes, runs, index):
    """The success of ``table`` as :func:`_counts` cells: rows ``index``, one column per T."""
    table = table.assign(
        cell=_counts(table, successes, runs),
        data=[("population" if n == 0 else f"{n}") for n in table["n"]],
    ).pivot_table(index=index, columns="n_steps", values="cell", aggfunc="first")
    table.columns = [f"T={t}" for t in table.columns]
    return table.reset_index()


def _per_seed(table):
    """Successes out of seeds per row, from the success rate and the seed count."""
    return [int(round(r * s)) for r, s in zip(table["success"], table["seeds"])]


def _success_table(summary):
    """Success with interval: rows (k, d, m, n, init), one column per T."""
    return _by_steps(summary, _per_seed(summary), summary["seeds"], ["k", "d", "m", "data", "init"])


def _pooled_table(pooled):
    """Pooled success: rows (k, data, init), one column per T."""
    return _by_steps(pooled, pooled["successes"], pooled["runs"], ["k", "data", "init"])


def _one_step_lines(pooled):
    """One line per (data, init): the one-step success per k, pooled over d and m."""
    one = pooled[pooled["n_steps"] == pooled["n_steps"].min()] if len(pooled) else pooled
    lines = []
    for (n, init), group in one.groupby(["n", "init"], sort=True):
        steps = int(group["n_steps"].iloc[0])
        parts = [f"k = {r.k}: {r.successes}/{r.runs} = "
                 f"{format_interval(r.success, r.success_low, r.success_high)}"
                 for r in group.itertuples()]
        lines.append(f"- {_data_label(n)}, {init} initial queries, "
                     f"{'one step' if steps == 1 else f'{steps} steps'}: "
                     + "; ".join(parts) + " of runs certified.")
    return lines


@fill_doc_with(DOC_EXAMPLES)
def render_report(summary):
    """Markdown: success by k, d, init and T; the gradient signal; the v1 reference.

    Called as ``get_study("k_sparse").render("report", table)``, on the
    table's :func:`~skxor.papers.han_ghoshdastidar.k_sparse.k_sparse_summary`.

    Every number and table in the text is computed from the table, so a table read
    back from ``k_sparse.csv`` gives the section of its run.

    %(returns_study_report)s
        A Markdown section: certified success per (k, d, m, data) and T, where
        the heads are, the exact population gradient at initialisation, the
        log-log slope of its support gain against d and, with v1 rows, the v1
        reference.

    %(report_examples)s
    >>> print(report.splitlines()[0])
    ## k-sparse parity with k heads: one step against T steps
    >>> for line in report.splitlines()[6:10]:
    ...     print(line)
    |   k | data       | init          | T=1                    | T=2                    |
    |----:|:-----------|:--------------|:-----------------------|:-----------------------|
    |   2 | population | antisymmetric | 2/2: 1.00 [0.34, 1.00] | 2/2: 1.00 [0.34, 1.00] |
    |   2 | population | random        | 0/2: 0.00 [0.00, 0.66] | 2/2: 1.00 [0.34, 1.00] |
    """
    df, steps, pooled, ref = summary.table, summary.steps, summary.pooled, summary.v1_summary
    signal, slopes = summary.signal, summary.slopes
    summary = summary.per_cell
    path = float(steps["path_length"].iloc[0]) if len(summary) else float("nan")
    signal_table = signal.assign(
        limit_on_support=interval_texts(signal, "limit_on_support"),
        limit_distinct=interval_texts(signal, "limit_distinct"),
    )[["k", "d", "m", "init", "support_gain", "signal_to_noise", "support_component",
       "chance_component", "limit_on_support", "limit_distinct", "seeds"]]
    slopes = slopes.assign(slope=interval_texts(slopes, "slope", "low", "high"))[
        ["k", "m", "init", "slope", "interval", "points", "seeds"]]
    heads = summary.assign(
        cell=[f"{b:.1f} / {mass:.2f}" for b, mass in zip(summary["bits_found"],
                                                        summary["support_mass"])]
    ).pivot_table(index=["k", "d", "m", "n", "init"], columns="n_steps", values="cell",
                  aggfunc="first")
    heads.columns = [f"T={t}" for t in heads.columns]
    blocks = [
        f"T normalised steps of length {path:g}/T each (total path length {path:g}), "
        f"H = k heads, softmax. Success = an exact certificate of accuracy >= "
        f"{TARGET_ACCURACY:g}: "
        "every head puts > 1/2 of its attention on its own support bit (accuracy "
        "exactly 1), or the exact population loss is <= 0.01 (error rate <= loss). "
        "Cells: successes/seeds, rate [Wilson 95 %]; data = population (exact loss) "
        "or the number of samples; init = the initial queries (antisymmetric: a "
        "uniformly rotated regular simplex, the estimator's default; random: k "
        "independent uniform unit vectors; both share each seed's keys and support).",
        "Pooled over d and m (runs = seeds x d x m). " + POOLED_OVER_D_CAVEAT,
        markdown_table(_pooled_table(pooled)),
        "\n".join(_one_step_lines(pooled)),
        "Per d and m:",
        markdown_table(_success_table(summary)),
        "Where the heads are: mean number of distinct support bits among the heads' "
        "most-attended positions (k when every head has its own bit) / median of the "
        "smallest attention mass a head puts on the whole support:",
        markdown_table(heads.reset_index()),
        "Exact population gradient at initialisation (medians over seeds): "
        "`support_gain` = log attention mass gained on the support per unit of "
        "normalised path length; `signal_to_noise` = that gain over the spread of "
        "score changes at the other positions; `support_component` = share of the "
        "gradient's squared norm in the span of the support keys (chance level k/m); "
        "`limit_on_support` / `limit_distinct` = share of seeds (Wilson 95 %) where "
        "every head's largest score increase is at a support bit / at distinct "
        "support bits (where an arbitrarily long single step sends the heads, to "
        "first order).",
        markdown_table(signal_table),
        "Log-log slope of the support gain against d (least squares over every point; "
        f"the interval: bootstrap 95 % over seeds with at least {MIN_BOOTSTRAP_GROUPS} "
        "seeds, otherwise the range of the per-seed slopes, rough):",
        markdown_table(slopes),
    ]
    if (df["part"] == "v1").any():
        ref = ref.assign(success=_counts(ref, _per_seed(ref), ref["seeds"]))[
            ["k", "d", "n", "model", "budget", "success", "specialised", "iterations",
             "seconds", "n_parameters", "scored_on"]]
        blocks += [
            "### Reference: the v1 k-parity model (Han & Ghoshdastidar, arXiv 2502.07553 v1)",
            "Both models on the same training strings per seed; success = accuracy >= "
            f"{TARGET_ACCURACY:g} "
            "(on all 2^d strings for d <= 16); `iterations` = epochs (v1, stopped at "
            "training accuracy 1) or steps (median); `seconds` = median wall time of "
            "`fit` on one thread.",
            markdown_table(ref),
        ]
    return section("k-sparse parity with k heads: one step against T steps", *blocks)
