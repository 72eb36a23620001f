"""The random-initialisation study's figures (matplotlib is imported when drawing).

One component per module: the styles and legends (``_display_style``), the
shares display (``_display_share``) and the profiles (``_display_profiles``).
"""

import math

import numpy as np

from skxor.studies.figures import log_axis, offset, series_style, panel_grid
from skxor._utils._docstrings import fill_doc_with
from .._networks import require_networks
from ._cells import RANDOM_FUNCTION
from ._display_profiles import _plot_profiles
from ._display_share import _SHARES, RandomInitShareDisplay
from ._display_style import FULL_LEGEND_MAX, _drawing, _each_setting, _legend
from ._summary import DOC_EXAMPLES

__all__ = ["FULL_LEGEND_MAX", "RandomInitShareDisplay", "render_figures"]


@fill_doc_with(DOC_EXAMPLES)
def render_figures(summary):
    """Figures: zero-sensitivity count, constant networks, why they are constant, profiles.

    Called as ``get_study("random_init_sensitivity").render("figures", table)``, on the
    table's :func:`~skxor.papers.kover.random_init.random_init_summary`.

    %(returns_study_figures)s
        ``"zero_count"``: log10 of the mean number of zero-sensitivity
        strings against N, on a linear N axis (exponential growth is a
        straight line) and a log N axis (polynomial growth is a straight
        line), for all networks and the non-constant ones, beside the
        random-function control (measured, and its exact expectation 1)
        and the constant function's 2^N (a labelled reference).
        ``"shares"``: the share of constant networks and the share with a
        zero-sensitivity string (all; non-constant) with Wilson bands,
        beside the control and its limit 1 - 1/e (each panel a
        :class:`RandomInitShareDisplay`). ``"diagnostic"``: the
        median ``|mean| / std`` of the logit for constant and non-constant
        networks, and the largest layer-norm 1/std seen against
        1/sqrt(eps). ``"profiles"``: one
        :class:`~skxor.plotting.SensitivityProfileDisplay` per scheme, the
        mean profile of its non-constant networks at the largest exhaustive
        N against PARITY, MAJORITY and FIRST. When eps = 0 and eps > 0
        give identical profiles on every pair of networks, eps = 0 is drawn
        and the titles say so.

    %(examples)s
    >>> figures = STUDY.render("figures", df)
    >>> {name: len(figure.axes) for name, figure in sorted(figures.items())}
    {'diagnostic': 2, 'profiles': 1, 'shares': 3, 'zero_count': 2}
    """
    require_networks(summary.table)
    df, models, agreement = summary.table, summary.drawn_models, summary.agreement
    summary_models = summary.models
    summary = summary.drawn
    nets = summary[summary["init"] != RANDOM_FUNCTION]
    control = summary[summary["init"] == RANDOM_FUNCTION]
    ns = sorted(int(n) for n in df["n_bits"].dropna().unique())
    seeds = int(models["seed"].nunique()) if len(models) else 0
    eps_note = ""
    if agreement is not None and agreement["same"] == agreement["pairs"]:
        eps_note = (f"\neps = {agreement['eps']:g} gives identical profiles "
                    f"({agreement['pairs']} of {agreement['pairs']} networks): not drawn.")
    styles, offsets, eps_values = _drawing(nets, bool(eps_note))
    figures = {}

    def each_setting():
        return _each_setting(nets, styles, eps_values, bool(eps_note))

    series = set()

    def named(label):
        series.add(label)
        return label

    # -- count of zero-sensitivity strings
    fig, (axes,) = panel_grid(1, 2, size=(6.0, 4.4), sharey=True)
    for ax, logx in zip(axes, (False, True)):
        for key, label, style, g in each_setting():
            x = g["n_bits"] * offsets[key] if logx else g["n_bits"] + 8 * np.log2(offsets[key])
            ax.plot(x, g["log10_zero_count"], label=named(f"{label}: all"), **style)
            ax.plot(x, g["nonconstant_log10_zero_count"], alpha=0.7, mfc="none",
                    label=named(f"{label}: non-constant"), **style)
        if len(control):
            c = control.sort_values("n_bits")
            ax.plot(c["n_bits"], c["log10_zero_count"], "k*", ms=8,
                    label="random function (measured mean)")
        ax.plot(ns, [0.0] * len(ns), color="black", lw=1.0, ls=(0, (1, 1)), zorder=5,
                label="reference: random function, exact expectation 1")
        ax.plot(ns, [n * math.log10(2) for n in ns], color="black", lw=1.4, ls=(0, (2, 2)),
                zorder=10, label="reference: constant function, 2^N (drawn over the data)")
        ax.set_xlabel("string length N" + (" (log scale)" if logx else ""))
        if logx:
            log_axis(ax, ns, base=2)
        else:
            ax.set_xticks(ns, [str(n) for n in ns])
    for ax in axes:
        ax.set_ylabel("log10 mean number of zero-sensitivity strings")
    axes[0].set_title("linear N: exponential growth is a straight line", fontsize="small")
    axes[1].set_title("log N: polynomial growth is a straight line", fontsize="small")
    fig.suptitle(f"Random initialisation, {seeds} seeds per point.{eps_note}",
                 fontsize="small")
    _legend(fig, axes, styles, eps_values,
            [("all networks", True), ("non-constant networks", False)], series)
    figures["zero_count"] = fig

    # -- shares
    fig, (axes,) = panel_grid(1, 3, size=(4.0, 4.2), sharey=True)
    for ax, share in zip(axes, _SHARES):
        display = RandomInitShareDisplay(summary, share=share, identical=bool(eps_note))
        series.update(display.plot(ax=ax, legend=False).series_)
    fig.suptitle(f"Random initialisation, {seeds} seeds per point.{eps_note}",
                 fontsize="small")
    _legend(fig, axes, styles, eps_values, [], series)
    figures["shares"] = fig

    # -- why constant
    fig, (axes,) = panel_grid(1, 2, size=(6.0, 4.2))
    for key, label, style, g in each_setting():
        x = g["n_bits"] * offsets[key]
        axes[0].plot(x, g["logit_offset_constant"], label=named(f"{label}: constant"), **style)
        axes[0].plot(x, g["logit_offset_nonconstant"], alpha=0.7, mfc="none",
                     label=named(f"{label}: non-constant"), **style)
    axes[0].set_yscale("log")
    axes[0].set_ylabel("median |mean| / std of the logit T(x) over strings")
    axes[0].set_title("constant when the logit's offset dwarfs its spread", fontsize="small")
    all_models = summary_models
    by_eps = list(all_models.groupby("layer_norm_eps"))
    for j, (eps, g) in enumerate(by_eps):
        worst = g.groupby("n_bits")["ln_inv_std_max"].max()
        axes[1].plot(offset(worst.index, j, len(by_eps)), worst.values, **series_style(j),
                     label=f"largest 1/std seen, eps={eps:g}")
        if eps > 0:
            axes[1].plot(ns, [1 / math.sqrt(eps)] * len(ns), color="black", lw=1.2,
                         ls=(0, (5, 2)), zorder=10,
                         label=f"reference: 1/sqrt(eps) for eps={eps:g}")
    axes[1].set_yscale("log")
    axes[1].set_ylabel("layer-norm 1 / sqrt(var + eps)")
    if any(eps > 0 for eps, _ in by_eps):
        axes[1].set_title("eps matters only where 1/std nears 1/sqrt(eps) (dashed)",
                          fontsize="small")
    else:  # no eps > 0 in the table: nothing to compare with
        axes[1].set_title("largest layer-norm 1/std seen (eps = 0 only)", fontsize="small")
    axes[1].legend(fontsize="xx-small")
    for ax in axes:
        log_axis(ax, ns, base=2)
        ax.set_xlabel("string length N")
    _legend(fig, axes[:1], styles, eps_values,
            [("constant networks", True), ("non-constant networks", False)], series)
    figures["diagnostic"] = fig

    # -- mean profile per scheme, drawn by SensitivityProfileDisplay
    figures["profiles"] = _plot_profiles(df, models, eps_note)
    return figures
