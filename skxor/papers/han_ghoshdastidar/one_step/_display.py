"""The one-step study's figures: success against d, against the step length, attention maps.

One component per module: the series' styles (``_display_style``), the
attention maps (``_display_maps``) and the success display
(``_display_success``).
"""

import numpy as np

from skxor.studies.figures import (
    figure_legend,
    interval_errorbar,
    log_axis,
    offset,
    rows_where,
    panel_grid,
)
from skxor._utils._docstrings import fill_doc_with
from ._display_maps import attention_maps, plot_attention_maps
from ._display_style import _label, _style
from ._display_success import _RATES, OneStepSuccessDisplay
from ._wording import setting_text
from ._summary import DOC_EXAMPLES

__all__ = ["OneStepSuccessDisplay", "attention_maps", "plot_attention_maps", "render_figures",
           "specialised_note", "zero_rate_note"]


@fill_doc_with(DOC_EXAMPLES)
def render_figures(summary):
    """Success and specialisation vs d at each variant's best step, success vs step length, maps.

    Called as ``get_study("one_step").render("figures", table)``.

    %(returns_study_figures)s
        ``"success"``: one column per m, success rate (top) and specialised
        rate (bottom) against d with Wilson 95% intervals, one series per
        attention type, n and T, each at its best step length
        (:func:`best_steps`), slightly offset in d so none hides another
        (each panel a :class:`OneStepSuccessDisplay`).
        ``"step_length"``: success rate (pooled over d and m, 95% interval
        with the seeds as the units)
        and median loss after the steps against the step length, one series
        per attention type, n and T: every step length tried.
        ``"attention_maps"``: both heads' weights after one population step
        (d = 60, m = 32) for each attention type on one colour scale.

    %(examples)s
    >>> figures = STUDY.render("figures", df)
    >>> sorted(figures)
    ['attention_maps', 'step_length', 'success']
    >>> len(figures["success"].axes)  # success (top) and specialised (bottom) for m = 32
    2
    >>> [text.get_text() for text in figures["success"].legends[0].get_texts()]
    ['erf, step 10', 'linear, step 10', 'softmax, step 100']
    """
    best, cells = summary.best, summary.cells
    summary = summary.per_cell
    ms = sorted(summary["m"].unique())
    series = list(summary.groupby(["attention", "n", "n_steps"]).groups)
    # At most three m side by side (five panels in a row shrank to unreadable ticks at a
    # page's width): a pair of rows (success above, specialised below) per three m.
    ncols = min(3, len(ms))
    blocks = -(-len(ms) // ncols)
    fig, grid = panel_grid(2 * blocks, ncols, size=(4.4, 2.8), pad=(0.6, 0.4 + 0.2 * len(series)),
                           sharex=True, sharey=True)
    for j in range(len(ms), blocks * ncols):  # the empty places of the last block
        fig.delaxes(grid[2 * (j // ncols), j % ncols])
        fig.delaxes(grid[2 * (j // ncols) + 1, j % ncols])
    # axes[row, j]: row 0 success, row 1 specialised, for the j-th m.
    axes = np.array([[grid[2 * (j // ncols) + row, j % ncols] for j in range(len(ms))]
                     for row in range(2)]).reshape(2, len(ms))
    several_t = summary["n_steps"].nunique() > 1
    for col, m in enumerate(ms):
        for row, rate in enumerate(_RATES):
            OneStepSuccessDisplay(summary, m=m, rate=rate).plot(ax=axes[row, col], legend=False)
        axes[1, col].set_title("")  # the m is named once, above its pair of panels
    figure_legend(fig, axes, loc="outside lower center", ncols=min(len(series), 3),
                  fontsize="x-small", title="each attention type and T at its best step length")
    fig.suptitle(f"Normalised gradient steps: {setting_text(cells)}; each attention at its best "
                 f"step length; bars: Wilson 95%{zero_rate_note(summary)}."
                 f"{specialised_note(summary)}", fontsize="small", wrap=True)

    sweep, (saxes,) = panel_grid(1, 2, size=(4.5, 4.4))
    lengths = sorted(best["step_length"].unique())
    groups = list(best.groupby(["attention", "n", "n_steps"], sort=True).groups)
    for i, (attention, n, steps) in enumerate(groups):
        g = rows_where(best, attention=attention, n=n, n_steps=steps).sort_values("step_length")
        marker, line = _style(attention)
        style = dict(marker=marker, ls=line if steps == 1 else "-.", ms=5, color=f"C{i}",
                     mfc="none" if steps > 1 else None,
                     label=f"{_label(attention, n, steps, several_t)}, T = {steps}"
                     if not several_t else _label(attention, n, steps, several_t))
        interval_errorbar(saxes[0], offset(g["step_length"], i, len(groups), spread=0.03,
                                           base=10), g, "success_rate", capsize=2, **style)
        # Exact zeros (saturated softmax) drawn at the axis floor.
        saxes[1].plot(g["step_length"], np.maximum(g["median_loss"], 1e-12), **style)
    for ax in saxes:
        log_axis(ax, lengths, label="length of each normalised step")
    saxes[0].set_ylim(-0.05, 1.05)
    saxes[0].set_ylabel("success rate, pooled over d and m")
    saxes[1].set_yscale("log")
    saxes[1].axhline(1.0, color="black", lw=0.8, ls=":", zorder=3,
                     label="loss of the zero output (1)")
    saxes[1].set_ylabel("median population loss after the steps\n(floored at 1e-12)")
    figure_legend(sweep, saxes, loc="outside lower center", ncols=4, fontsize="x-small")
    sweep.suptitle(f"Step length swept per attention: {setting_text(cells)}; bars: 95% over "
                   "runs (seeds x d x m) with the seeds as the units", fontsize="small")

    maps, support = attention_maps()
    heat = plot_attention_maps(
        maps, support, "Attention after one population step (n = 0), d = 60, m = 32, seed 1")
    return {"success": fig, "step_length": sweep, "attention_maps": heat}


def zero_rate_note(per_cell):
    """The bars left off: at a rate of 0 or 1, how far its Wilson interval reaches, said
    once in the title.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.han_ghoshdastidar.one_step._display import zero_rate_note
    >>> zero_rate_note(pd.DataFrame({"success_rate": [0.0, 0.5], "success_high": [0.11, 0.7],
    ...                              "success_low": [0.0, 0.3],
    ...                              "specialised_rate": [1.0, 0.5],
    ...                              "specialised_low": [0.89, 0.3],
    ...                              "specialised_high": [1.0, 0.7]}))
    ', none at a rate of 0 or 1 (its interval reaches 0.11 from it)'
    """
    reach = []
    for key in _RATES:
        rate = per_cell[f"{key}_rate"]
        reach += [*per_cell.loc[rate == 0, f"{key}_high"], *(1 - per_cell.loc[rate == 1, f"{key}_low"])]
    return (f", none at a rate of 0 or 1 (its interval reaches {max(reach):.2g} from it)"
            if reach else "")


def specialised_note(per_cell):
    """Why a series can be specialised without success: how little weight its heads put on
    the hidden bits (the median over the drawn cells), for each series that does so.

    "Specialised" asks only that each head's most-attended position be a distinct hidden
    bit. Linear and erf heads peak there with weights near 1/d each, too little to compute
    the XOR; softmax heads put nearly all of theirs there.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.han_ghoshdastidar.one_step._display import specialised_note
    >>> print(specialised_note(pd.DataFrame({
    ...     "attention": ["linear", "softmax"], "n": 0, "n_steps": 1,
    ...     "success_rate": [0.0, 1.0], "specialised_rate": [1.0, 1.0],
    ...     "median_support_mass": [0.01, 1.0]})))  # doctest: +NORMALIZE_WHITESPACE
     Specialised (below) asks only that each head's most-attended position be a distinct
     hidden bit, not that it put much weight there: linear is specialised in 100% of runs
     and succeeds in 0%, its weaker head putting a median 0.01 of its weight on the hidden bits
     (softmax: 1).
    """
    keys = ["attention", "n", "n_steps"]
    several_t = per_cell["n_steps"].nunique() > 1
    series = per_cell.groupby(keys).agg(
        specialised=("specialised_rate", "mean"), success=("success_rate", "mean"),
        mass=("median_support_mass", "median"))
    # Specialised well beyond succeeding: the gap in the measure that needs a word.
    apart = series["specialised"] - series["success"] >= 0.25
    if not apart.any() or series["mass"].isna().all():
        return ""
    parts = [f"{_label(*key, several_t)} is specialised in {row.specialised:.0%} of runs and "
             f"succeeds in {row.success:.0%}, its weaker head putting a median {row.mass:.2g} of "
             "its weight on the hidden bits" for key, row in series[apart].iterrows()]
    others = [f"{_label(*key, several_t)}: {row.mass:.2g}"
              for key, row in series[~apart].iterrows()]
    return (" Specialised (below) asks only that each head's most-attended position be a "
            "distinct hidden bit, not that it put much weight there: " + "; ".join(parts)
            + (f" ({'; '.join(others)})" if others else "") + ".")
