"""The training study's figures (matplotlib is imported when drawing).

One component per module: a function's style and the panels
(``_display_style``), the share learned (``_display_share``) and the loss
curves (``_display_loss``).
"""

import json

import numpy as np

from skxor.studies.figures import interval_errorbar, legend_below, log_axis, offset, panel_grid
from skxor._utils._docstrings import fill_doc_with
from ._cells import LEARNED
from ._display_loss import _plot_loss_curves
from ._display_share import LearnedShareDisplay
from ._display_style import _style
from ._summary import DOC_EXAMPLES, HALF_WINDOW, clusters
from ._wording import preset_label, seeds_per_cell, series_label

__all__ = ["LearnedShareDisplay", "render_figures"]


# Targets: wide, pale and drawn underneath, so a trained series on top of its
# target leaves the target visible on both sides.
_TARGET = dict(color="0.55", lw=5, alpha=0.55, ls="--", zorder=1)


@fill_doc_with(DOC_EXAMPLES)
def render_figures(summary):
    """Figures: success rate, steps to learn, accuracy, sensitivity and cluster shares against N.

    Called as ``get_study("training_sensitivity").render("figures", table)``, on the
    table's :func:`~skxor.papers.kover.training.training_summary`.

    Every series has its own marker and line style, coinciding series are
    offset a little along N, and every N tried has a tick.

    %(returns_study_figures)s
        ``"success"`` (share of seeds that learned, with 95% Wilson
        intervals: a :class:`LearnedShareDisplay`), ``"steps"`` (median
        steps to learn with its 95% order-statistic interval, a median
        beyond the budget as a triangle at it, and the budget per N, one
        panel per function), ``"accuracy"`` (mean and worst seed, one panel per
        function), ``"sensitivity"`` (share of strings at sensitivity 0 and
        average sensitivity, trained against the function itself, one
        column per function), ``"clusters"`` (the shares of strings where
        each function's own strings sit: 0 and near N/2 for MAJORITY, 1 for
        FIRST, N for PARITY, trained against the function) and
        ``"profiles"`` (pooled trained histogram against the function's at
        the largest exhaustively profiled N, one
        :class:`~skxor.plotting.SensitivityProfileDisplay` per function) and
        ``"loss"`` (every run's loss curve, one panel per model setting and
        function, coloured by N, the line style saying whether the run
        stopped at the target, on a flat loss or budget-limited).

    %(examples)s
    >>> figures = STUDY.render("figures", df)
    >>> axes = {name: len(figure.axes) for name, figure in sorted(figures.items())}
    >>> axes  # doctest: +NORMALIZE_WHITESPACE
    {'accuracy': 1, 'clusters': 1, 'loss': 2, 'profiles': 1, 'sensitivity': 2, 'steps': 1,
     'success': 1}
    """
    from matplotlib.figure import Figure

    display = LearnedShareDisplay(summary.table, summary=summary)
    df, series = summary.table, summary.series
    summary = display.summary
    groups = list(summary.groupby(["function", *series], sort=False))
    functions = list(dict.fromkeys(summary["function"]))
    n_values = summary["n_bits"].unique()
    caption = f"{preset_label(df)}, {seeds_per_cell(df, series)} per cell"

    # Success rate with Wilson intervals: the display's panel.
    success = Figure(figsize=(6.0, 3.8), layout="constrained")
    display.plot(ax=success.subplots())
    success.suptitle(f"Training success ({caption})", fontsize="medium")

    # Accuracy, one panel per function: mean and worst seed.
    acc, (axes,) = panel_grid(1, len(functions), size=(3.6, 3.6), sharey=True)
    for i, keys, group, panel, label in _series(groups, functions, series, df):
        ax = axes[panel]
        colour, marker, line = _style(keys[0])
        ax.plot(group["n_bits"], group["accuracy"], color=colour, marker=marker, ls=line,
                label=f"{label}: mean over seeds", mfc="none" if i % 2 else colour)
        ax.plot(group["n_bits"], group["accuracy_min"], color="black", marker="v", ms=4,
                ls=":", label=f"{label}: worst seed", mfc="none" if i % 2 else "black")
    for ax, function in zip(axes, functions):
        ax.axhline(LEARNED, color="grey", lw=0.8, ls="--", label=f"learned: {LEARNED}")
        log_axis(ax, n_values, base=2, label="string length N", pad=0.3)
        ax.set_ylabel("test accuracy")
        ax.set_title(function, fontsize="small")
        ax.set_ylim(0.4, 1.03)
        legend_below(ax)
    acc.suptitle(f"Accuracy after training ({caption})", fontsize="medium")

    # Sensitivity: share at 0 and average, trained against the function itself.
    sens, axes = panel_grid(2, len(functions), size=(3.6, 3.0))
    for i, keys, group, col, label in _series(groups, functions, series, df):
        colour, marker, line = _style(keys[0])
        fill = {"mfc": "none"} if i % 2 else {}  # one setting filled, the other hollow
        interval_errorbar(
            axes[0, col], group["n_bits"], group, "share_zero",
            capsize=3, color=colour, marker=marker, ls=line, label=f"{label} trained", **fill,
        )
        axes[0, col].plot(group["n_bits"], group["target_share_zero"],
                          label=f"{keys[0]} itself (target)", **_TARGET)
        axes[1, col].plot(group["n_bits"], group["average_sensitivity"], color=colour,
                          marker=marker, ls=line, label=f"{label} trained (mean)", **fill)
        axes[1, col].plot(group["n_bits"], group["target_average_sensitivity"],
                          label=f"{keys[0]} itself (target)", **_TARGET)
    for col, function in enumerate(functions):
        axes[0, col].set_title(function, fontsize="small")
        axes[0, col].set_ylabel("share at sensitivity 0")
        axes[0, col].set_ylim(-0.05, 1.05)
        axes[1, col].set_ylabel("average sensitivity")
        for ax in axes[:, col]:
            log_axis(ax, n_values, base=2, label="string length N", pad=0.3)
            legend_below(ax)
    sens.suptitle(f"Sensitivity of the trained models ({caption})", fontsize="medium")

    # Cluster shares: where each function's own strings sit.
    names = {"zero": "at 0", "half": "near N/2", "one": "at 1", "top": "at N"}
    clus, (axes,) = panel_grid(1, len(functions), size=(3.8, 3.8), sharey=True)
    for i, keys, group, panel, label in _series(groups, functions, series, df):
        ax = axes[panel]
        colour = _style(keys[0])[0]
        # The share at 0 and the function's own clusters (from the Boolean registry).
        shown = tuple(dict.fromkeys(("zero", *clusters(keys[0]))))[:2]
        for j, (name, marker, line) in enumerate(zip(shown, ("o", "s"), ("-", "-."))):
            interval_errorbar(
                ax, offset(group["n_bits"], j, 2, spread=0.07), group, f"share_{name}",
                capsize=3, color=colour, marker=marker, ls=line,
                mfc="none" if j else colour, label=f"{label} trained: {names[name]}",
            )
            ax.plot(group["n_bits"], group[f"target_share_{name}"],
                    label=f"{keys[0]} itself (target): {names[name]}",
                    **dict(_TARGET, ls="--" if j == 0 else ":"))
    for ax, function in zip(axes, functions):
        ax.set_title(function, fontsize="small")
        ax.set_ylabel("share of strings")
        ax.set_ylim(-0.05, 1.05)
        log_axis(ax, n_values, base=2, label="string length N", pad=0.3)
        legend_below(ax)
    clus.suptitle(
        f"Where sensitivities sit, near N/2 = within {HALF_WINDOW} of N/2 ({caption})",
        fontsize="medium",
    )

    # Histograms at the largest exhaustively profiled N, drawn by the display.
    from skxor.plotting import SensitivityProfileDisplay

    exhaustive = df[df["method"] == "exhaustive"]
    n_bits = int(exhaustive["n_bits"].max()) if len(exhaustive) else int(df["n_bits"].max())
    prof, (paxes,) = panel_grid(1, len(functions), size=(3.8, 3.4), sharey=True)
    for ax, function in zip(paxes, functions):
        part = df[(df["function"] == function) & (df["n_bits"] == n_bits)]
        if len(part):
            trained = np.sum([json.loads(h) for h in part["histogram"]], axis=0)
            wanted = np.sum([json.loads(h) for h in part["target_histogram"]], axis=0)
            disp = SensitivityProfileDisplay(
                trained / trained.sum(), name=f"trained ({len(part)} seeds pooled)",
                references={f"reference: {function} itself": wanted / wanted.sum()},
            ).plot(ax=ax, reference_style="steps", color=_style(function)[0], alpha=0.6)
            ax.legend(handles=[*disp.bars_, *disp.reference_lines_], fontsize="x-small")
        else:
            ax.set_xlabel("sensitivity s(f, x)")
            ax.set_ylabel("fraction of strings")
        ax.set_title(f"{function}, N = {n_bits}", fontsize="small")
    prof.suptitle(f"Sensitivity histograms ({caption})", fontsize="medium")
    figures = {"loss": _plot_loss_curves(df, caption)} if "loss_curve" in df else {}
    return {**figures, "success": success, "steps": _plot_steps_to_learn(groups, series, df,
                                                                        caption),
            "accuracy": acc, "sensitivity": sens, "clusters": clus, "profiles": prof}


def _series(groups, functions, series, df):
    """Each of ``groups``' series with what every panel of them needs: its index, keys,
    rows, the index of its function's panel and its label."""
    for i, (keys, group) in enumerate(groups):
        yield i, keys, group, functions.index(keys[0]), series_label(keys[0], keys[1:], series, df)


def _plot_steps_to_learn(groups, series, df, caption):
    """Median steps to learn against N, one panel per function, every series.

    A median beyond the budget (more than half the seeds did not learn) is an
    upward triangle at the budget; an interval's upper end beyond it is cut
    there. The budget of each N is the grey line.
    """
    functions = list(dict.fromkeys(k[0] for k, _ in groups))
    fig, (axes,) = panel_grid(1, len(functions), size=(3.8, 3.6), sharey=True)
    for i, keys, group, panel, label in _series(groups, functions, series, df):
        ax = axes[panel]
        colour, marker, line = _style(keys[0])
        x = offset(group["n_bits"], i, len(groups), spread=0.07)
        budget = group["n_steps"].to_numpy(float)
        median = group["steps_to_learn"].to_numpy(float)
        low = np.maximum(group["steps_to_learn_low"].to_numpy(float), 1.0)
        high = np.minimum(group["steps_to_learn_high"].to_numpy(float), budget)
        inside = np.isfinite(median)
        fill = "none" if i % 2 else colour
        if inside.any():
            ax.errorbar(np.asarray(x)[inside], median[inside],
                        yerr=[median[inside] - low[inside], high[inside] - median[inside]],
                        capsize=3, color=colour, marker=marker, ls=line, mfc=fill,
                        label=f"{label}: lower median [95%]")
        if not inside.all():
            ax.plot(np.asarray(x)[~inside], budget[~inside], ls="none", marker="^",
                    color=colour, mfc=fill, label=f"{label}: median beyond the budget")
        ax.plot(group["n_bits"], budget, color="grey", lw=0.8, ls="--", drawstyle="steps-mid",
                label=f"{label}: budget")
    for ax, function in zip(axes, functions):
        ax.set_yscale("log")
        log_axis(ax, df["n_bits"].unique(), base=2, label="string length N", pad=0.3)
        ax.set_ylabel("steps to learn (median over seeds)")
        ax.set_title(function, fontsize="small")
        legend_below(ax)
    fig.suptitle(f"Steps to learn (accuracy >= {LEARNED}; a run that did not learn needs "
                 f"more than its budget) ({caption})", fontsize="medium")
    return fig
