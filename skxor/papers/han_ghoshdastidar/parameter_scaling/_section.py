"""The parameter-scaling study's section of ``report.md``, every number from its table."""

import numpy as np
import pandas as pd

from skxor._utils._docstrings import fill_doc
from skxor.studies.reporting import empty_section, section
from skxor.studies.stats import MIN_BOOTSTRAP_GROUPS, format_interval, format_slope
from ._cells import DISPLAY_NAMES, MODELS, SAMPLE_MODELS
from ._presets import PRESETS
from ._summary import _by_size, _run_params, parameter_scaling_summary
from ._wording import setting_text


def _online_text(df, p):
    """The online FFNN's recipe and budget, where the table holds it."""
    online = df[df["model"] == "ffnn_online"]
    if online.empty:
        return ""
    return (f" Online FFNN: the trained FFNN on {p.get('ffnn_batch_size')} fresh inputs per "
            f"step (no training set, up to d = {int(online['d'].max())}), at most "
            f"max({p.get('online_steps_min')}, {p.get('online_steps_per_d')} d) steps, stopping "
            "once 1024 monitoring inputs are all right; the succeeding runs' median and "
            "largest steps and the failing runs' median accuracy are in the table's columns "
            "steps_median, steps_max, failures and failure_accuracy.")

def _table(df, tablefmt):
    table = report_table(df)
    return table.to_markdown(index=False, tablefmt=tablefmt) if len(table) else "(no rows)"


@fill_doc
def render_report(summary, tablefmt="pipe"):
    """Markdown summary: the setting, the table of sizes needed and the slopes.

    Called as ``get_study("parameter_scaling").render("report", table)``, on the
    table's :func:`~skxor.papers.han_ghoshdastidar.parameter_scaling.parameter_scaling_summary`.

    Every number in the text is computed from the table (its rows and
    ``attrs["params"]``, or the ``setting`` column of a table read back from CSV).

    Parameters
    ----------
    tablefmt : str, default="pipe"
        :mod:`tabulate` format of the table ("pipe": Markdown; "rst" for the
        documentation).

    %(returns_study_report)s
        The Markdown section, starting with its ``## Parameter scaling`` line.

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.parameter_scaling import STUDY
    >>> df = STUDY.run(model=["transformer_population"], d=[16, 64], seeds=3,
    ...                transformer_m=[2, 8, 32], n_test=2000)
    >>> report = STUDY.render("report", df)
    >>> print(report.splitlines()[0])
    ## Parameter scaling
    >>> for line in report.splitlines():  # doctest: +NORMALIZE_WHITESPACE
    ...     if line.startswith("| transformer"):
    ...         print(line)
    | transformer, T steps (population) | 16 | population | m = 8 | 16 | 128 | 144 |
      3/3 = 1.00 [0.44, 1.00] | 2: 0/3, 8: 3/3, 32: 3/3 |
    | transformer, T steps (population) | 64 | population | m = 32 | 64 | 2048 | 2112 |
      3/3 = 1.00 [0.44, 1.00] | 2: 0/3, 8: 2/3, 32: 3/3 |
    """
    if not summary.rows:
        return empty_section("Parameter scaling")
    df, p, samples = summary.table, summary.params, summary.samples_d_max
    seeds = int(df["seeds"].iloc[0])
    threshold, share = p["threshold"], p["success_share"]
    blocks = [
        f"Setting: {setting_text(df)}, d in {{{', '.join(str(d) for d in sorted(set(df['d'])))}}}. "
        f"The finite-sample models are trained on n(d) = max({p['n_train_min']}, "
        f"{_coef(p['n_train_per_d2'])}d²) uniform inputs"
        + (f" (up to d = {samples})" if samples else "")
        + f"; every model is scored on {p['n_test']} fresh test inputs. Transformer: 2 "
        "softmax heads, random frozen keys (d m frozen parameters), 2 m trainable queries; "
        f"one step = one normalised population step of length {p['one_step_length']:g} "
        f"(the paper's setting); T steps = {p['transformer_steps']} normalised steps of "
        f"length {p['step_length']:g}, on the population gradient or full batch on the "
        f"training set. FFNN: two-layer, {p['ffnn_activation']}, Adam (learning rate "
        f"{p['ffnn_learning_rate']:g}, batches of {p['ffnn_batch_size']}), whole epochs "
        f"for at least {p['ffnn_steps']} steps; trained: width (d + 2) + 1 trainable "
        "parameters; random features: the first layer frozen at its random "
        "initialization (width (d + 1) frozen), width + 1 trainable." + _online_text(df, p),
        f"Needed: the smallest size tried at which at least {share:.0%} of its {seeds} "
        f"seeds reached {threshold:.0%} test accuracy; every size has its own independent "
        "seeds (data, support and start), and after the first size meeting the rule "
        f"{p['sizes_beyond']} larger ones were run too. The last column gives every size "
        "tried (non-monotone: a larger size met the rule less often; shown as measured). "
        f"- = no size tried met the rule (grids: m up to {max(p['transformer_m'])}, "
        f"width up to {max(p['ffnn_width'])}, random-feature width up to "
        f"{max(p['rf_width'])}).",
        _table(df, tablefmt),
        "Log-log slope of the trainable parameters needed against d (least squares over "
        f"the d where the rule was met; bootstrap 95% over seeds from "
        f"{MIN_BOOTSTRAP_GROUPS} seeds per size on):",
    ]
    slopes = summary.report_slopes
    bullets = []
    for key in [k for m in MODELS for k in (m, m + "_all") if k in slopes]:
        fit = slopes[key]
        name = DISPLAY_NAMES[key.removesuffix("_all")] + (", all d" if key.endswith("_all")
                                                          else "")
        bullets.append(
            f"* {name}: {format_slope(fit)} ({fit['n_points']} value"
            f"{'' if fit['n_points'] == 1 else 's'} of d"
            + (f", {fit['d_min']} to {fit['d_max']}" if fit["n_points"] else "") + ")"
        )
    left_out = [
        f"{DISPLAY_NAMES[model]} at d = {', '.join(str(d) for d in part['d'])}"
        for model, part in df[~df["reached"]].groupby("model", sort=False)
        if model in slopes and slopes[model]["n_points"] >= 2
    ]
    if left_out:
        bullets.append(
            "* Left out of these slopes, where no size tried met the rule: "
            + "; ".join(left_out) + ". Their size needed lies above the largest size "
            "tried, so leaving them out can only make a slope flatter when they are the "
            "largest d (read such a slope as a lower estimate)."
        )
    ranges = sorted({(f["d_min"], f["d_max"]) for f in slopes.values() if f["n_d"] >= 2})
    blocks += ["\n".join(bullets), "About 1: linear in d (as for any two-layer network with its first layer "
              "trained). A size proportional to log d has a local slope that falls with d"
              + (": " + " and ".join(f"{_log_slope(lo, hi):.2f} over d = {lo} to {hi}"
                                     for lo, hi in ranges) if ranges else "")
              + "."]
    small = [DISPLAY_NAMES[k.removesuffix("_all")] + (", all d" if k.endswith("_all") else "")
             for k, f in slopes.items() if k.startswith("transformer") and f["slope"] < 0.6]
    if small:
        blocks[-1] += (f" The slopes of {'; '.join(small)} are consistent with polylogarithmic "
                      "growth, and equally with a small power of d: over these ranges slopes "
                      "cannot separate the two.")
    blocks += _comparison(df)
    if any(df["non_monotone"]):
        flagged = df[df["non_monotone"]]
        blocks += ["Non-monotone (a size above the one needed met the rule less often): "
                  + ", ".join(f"{DISPLAY_NAMES[r.model]} at d = {r.d}"
                              for r in flagged.itertuples()) + "."]
    widths = (df["success_high"] - df["success_low"]).to_numpy()
    spread = f"Wilson intervals of the shares up to {np.nanmax(widths):.2f} wide"
    if seeds < MIN_BOOTSTRAP_GROUPS:
        blocks += [f"Rough: {seeds} seed{'s' if seeds != 1 else ''} per size, too few for "
                  f"an interval of the slopes; {spread}. The full preset "
                  f"({PRESETS['full']['seeds']} seeds per size) gives them intervals."]
    else:
        blocks += [f"Uncertainty: {seeds} seeds per size; {spread}."]
    return section("Parameter scaling", *blocks)


def _log_slope(d_min, d_max):
    """Log-log slope of log d itself between two d: a polylogarithmic reference."""
    return float(np.log(np.log(d_max) / np.log(d_min)) / np.log(d_max / d_min))


def _comparison(df):
    """Generated paragraphs: one step against T steps; the models at the largest shared d."""
    reached = df[df["reached"]]
    lines = []
    sizes = reached.pivot_table(index="d", columns="model", values="size")
    one, many = "transformer_population_one_step", "transformer_population"
    if {one, many} <= set(sizes.columns):
        both = sizes[[one, many]].dropna()
        if len(both):
            lines += [(
                f"On the population gradient over d = {int(both.index.min())} to "
                f"{int(both.index.max())}: one step needed m = {int(both[one].min())} to "
                f"{int(both[one].max())}, {_run_params(df)['transformer_steps']} steps m = "
                f"{int(both[many].min())} to {int(both[many].max())}."
            )]
    trained = reached[reached["model"] == "ffnn"]
    if len(trained):
        widths = sorted({int(w) for w in trained["size"]})
        lines += [(
            f"The trained FFNN's width needed is {widths[0]}"
            + (f" to {widths[-1]}" if len(widths) > 1 else "")
            + f" at every d where it met the rule (d = {int(trained['d'].min())} to "
            f"{int(trained['d'].max())}): its count, width (d + 2) + 1, grows with d because "
            "each hidden unit has d input weights, which is what its slope measures."
        )]
    needed = reached.pivot_table(index="d", columns="model", values="params")
    models = [m for m in SAMPLE_MODELS if m in needed.columns]
    if "transformer" in models and len(models) > 1:
        both = needed[models].dropna(subset=["transformer"])
        for other in [m for m in models if m != "transformer"]:
            shared = both[other].dropna()
            if shared.empty:
                missing = df[(df["model"] == other) & ~df["reached"]]["d"].tolist()
                if missing:
                    lines += [f"{DISPLAY_NAMES[other]}: no width tried met the rule at "
                              f"d = {', '.join(map(str, missing))}."]
                continue
            d = int(shared.index.max())
            width = int(sizes.loc[d, other])
            lines += [(
                f"At d = {d}, the largest d where both met the rule: {DISPLAY_NAMES[other]} "
                f"{int(shared.loc[d])} trainable parameters (width {width}), transformer "
                f"{int(both.loc[d, 'transformer'])} (m = {int(sizes.loc[d, 'transformer'])}, "
                f"plus {int(df[(df.model == 'transformer') & (df.d == d)]['frozen'].iloc[0])} "
                "frozen)."
            )]
            missing = df[(df["model"] == other) & ~df["reached"]]["d"].tolist()
            if missing:
                lines[-1] += (f" No width tried met the rule at d = "
                              f"{', '.join(map(str, missing))}"
                              + (" (random features need about as many samples as "
                                 "features: n(d) may limit them there as much as width)."
                                 if other == "ffnn_random_features" else "."))
    return lines


def _coef(value):
    """``"d²"`` for 1, ``"0.5 d²"`` otherwise (the caller appends ``d²``)."""
    return "" if value == 1 else f"{value:g} "


def report_table(df):
    """The table the report shows: per model and d, the size needed and its parameters."""
    rows = []
    for row in df.itertuples():
        rows.append({
            "model": DISPLAY_NAMES[row.model],
            "d": row.d,
            "n train": (row.n_train if row.model in SAMPLE_MODELS
                        else "fresh each step" if row.model == "ffnn_online" else "population"),
            "size needed": "-" if not row.reached else f"{row.size_name} = {int(row.size)}",
            "trainable": "-" if not row.reached else str(int(row.params)),
            "frozen": "-" if not row.reached else str(int(row.frozen)),
            "total": "-" if not row.reached else str(int(row.total)),
            "seeds reaching [95% CI]": (
                f"{row.seeds_reached}/{row.seeds} = "
                + format_interval(row.success_rate, row.success_low, row.success_high)
                + ("" if row.reached else " (closest size)")
            ),
            f"seeds reaching, by {row.size_name}": _by_size(row.size_counts)
            + (" (non-monotone)" if row.non_monotone else ""),
        })
    table = pd.DataFrame(rows)
    if len(table):  # one column for both size names
        by = [c for c in table.columns if c.startswith("seeds reaching, by")]
        table["seeds reaching, by size"] = table[by].bfill(axis=1).iloc[:, 0]
        table = table.drop(columns=by)
    return table
