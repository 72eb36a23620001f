"""The parameter-scaling study's bullet in ``skxor headline``, every number from its table."""

from skxor.studies.reporting import rough_text
from skxor.studies.stats import format_slope
from ._cells import DISPLAY_NAMES, MODELS


def headline_text(summary):
    """The study's bullet in ``skxor headline``: per model the size needed, its slope.

    Called as ``get_study("parameter_scaling").render("headline", table)``.

    Every number comes from the table (``parameter_scaling.csv``).
    """
    if not summary.rows:
        return "**Parameter scaling**: the table holds no rows; nothing to summarize."
    df, slopes, run = summary.table, summary.slopes, summary.params

    def span(values):
        values = sorted({int(v) for v in values})
        return f"{values[0]}" if len(values) == 1 else f"{values[0]}-{values[-1]}"

    parts = []
    for model in [m for m in MODELS if m in set(df["model"])]:
        rows = df[df["model"] == model].sort_values("d")
        met = rows[rows["reached"].astype(bool)]
        name = DISPLAY_NAMES[model].replace("T steps", f"{run['transformer_steps']} steps")
        size = "m" if model.startswith("transformer") else "width"
        if len(met):
            text = (f"{name}: {size} = {span(met['size'])}, {span(met['params'])} trainable"
                    + (f" + {span(met['frozen'])} frozen" if (met["frozen"] > 0).any() else "")
                    + f" at d = {span(met['d'])}")
            if len(met) > 1:
                text += f", slope {format_slope(slopes[model])}"
        else:
            text = f"{name}: no {size} tried met the rule"
        missing = rows[~rows["reached"].astype(bool)]["d"].tolist()
        if len(met) and missing:
            text += f"; no {size} tried met the rule at d = {', '.join(map(str, missing))}"
        elif missing:
            text += f" at d = {', '.join(map(str, missing))}"
        if missing and model == "ffnn_random_features":
            text += " (random features need about as many samples as features: n(d) may limit them)"
        parts.append(text)
    seeds = int(df["seeds"].min())
    return (
        f"**Parameter scaling** ({rough_text(seeds)}"
        f"{seeds} seeds per size, each "
        f"size with its own; needed = the smallest size at which at least "
        f"{run['success_share']:.0%} of its seeds reach {run['threshold']:.0%} test accuracy; "
        "log-log slope of the trainable parameters needed against "
        "d; about 1 means Omega(d); slopes of a few tenths are consistent with polylog d and "
        "with a small power alike): " + "; ".join(parts) + "."
    )
