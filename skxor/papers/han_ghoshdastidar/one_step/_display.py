"""The one-step study's figures: success against d, against the step length, attention maps."""

import numpy as np

from skxor.datasets import make_sparse_parity
from skxor.nn import attention_names, sparse_xor_init
from skxor.theory import population_step
from skxor._utils._docstrings import fill_doc
from skxor.studies.figures import figure_legend, interval_errorbar, interval_errors, legend_below, log_axis, offset, one_value, StudyDisplay
from .._head_scoring import head_weights
from ._summary import one_step_summary
from ._wording import setting_text


#: Marker and line style of each attention type, in registration order (then a default).
_STYLES = [("o", "-"), ("s", "--"), ("^", ":")]


def _style(attention):
    names = attention_names()
    at = names.index(attention) if attention in names else len(_STYLES)
    return _STYLES[at] if at < len(_STYLES) else ("D", "-.")


def _label(attention, n, steps, several_t, step_length=None):
    """A series' legend label: the attention, n when sampled, T when several, the step."""
    text = attention if n == 0 else f"{attention}, n = {n:,}"
    if several_t:
        text += f", T = {steps}"
    return text + ("" if step_length is None else f", step {step_length:g}")


def attention_maps(d=60, m=32, seed=1, step_length=100.0):
    """Attention of both heads after one population step, per attention type.

    Returns
    -------
    maps : dict of str to ndarray of shape (2, d)
    support : ndarray of shape (2,)
    """
    _, _, support = make_sparse_parity(1, d, return_support=True, random_state=seed)
    maps = {}
    for attention in attention_names():
        keys, theta0 = sparse_xor_init(d, m, random_state=seed)
        theta = population_step(
            theta0, keys, support, attention,
            step_length=step_length,
        )
        maps[attention] = head_weights(keys, theta, attention).T
    return maps, support


def plot_attention_maps(maps, support, title):
    """Each attention type's heads as an :class:`~skxor.plotting.AttentionDisplay`, one row each.

    All rows share one colour scale (:meth:`AttentionDisplay.shared_norm
    <skxor.plotting.AttentionDisplay.shared_norm>`) and one colour bar, so
    weights of about 1/d look as small as they are; crosses mark each head's
    most attended position, triangles the support.

    Parameters
    ----------
    maps : dict of str to array-like of shape (n_heads, d)
        Attention weights per attention type, one row per head (as returned
        by :func:`~skxor.papers.han_ghoshdastidar.one_step.attention_maps`).
    support : array-like of int
        The support positions, marked above each row.
    title : str
        The figure's title.

    Returns
    -------
    figure : matplotlib.figure.Figure
        One row of axes per attention type, then the shared colour bar.

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.one_step import plot_attention_maps
    >>> from skxor.papers.han_ghoshdastidar.one_step import attention_maps
    >>> maps, support = attention_maps(d=20, m=8)
    >>> support.tolist()
    [3, 16]
    >>> fig = plot_attention_maps(maps, support, "One population step, d = 20, m = 8")
    >>> len(fig.axes)  # three attention types and the colour bar
    4
    >>> for ax in fig.axes[:3]:
    ...     print(ax.get_title(loc="left"))
    softmax: largest weight 1, most attended [16, 3]
    linear: largest weight 2.27, most attended [3, 3]
    erf: largest weight 0.1, most attended [1, 1]
    """
    from matplotlib.figure import Figure

    from skxor.plotting import AttentionDisplay

    norm = AttentionDisplay.shared_norm(maps.values())
    heat = Figure(figsize=(9, 1.5 * len(maps) + 1.2), layout="constrained")
    axes = np.atleast_1d(heat.subplots(len(maps), 1, sharex=True))
    displays = []
    for row, (ax, (attention, gamma)) in enumerate(zip(axes, maps.items())):
        gamma = np.asarray(gamma)
        name = (f"{attention}: largest weight {gamma.max():.3g}, most attended "
                f"{gamma.argmax(axis=1).tolist()}")
        displays.append(AttentionDisplay(gamma, support=support, name=name).plot(
            ax=ax, norm=norm, colorbar=False, legend=row == 0))
        if row < len(maps) - 1:
            ax.set_xlabel("")  # one "position" label, under the last row
    heat.colorbar(displays[0].image_, ax=axes.tolist(),
                  label="attention weight (one scale for all rows)")
    heat.suptitle(title, fontsize="small")
    return heat


def render_figures(summary):
    """Success and specialisation vs d at each variant's best step, success vs step length, maps.

    Called as ``get_study("one_step").render("figures", table)``.

    Returns
    -------
    figures : dict of str to matplotlib.figure.Figure
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

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.one_step import STUDY
    >>> df = STUDY.run(d=[100], m=[32], seeds=3, n_test=256, step_length=[10.0, 100.0],
    ...                n_steps=1)
    >>> figures = STUDY.render("figures", df)
    >>> sorted(figures)
    ['attention_maps', 'step_length', 'success']
    >>> len(figures["success"].axes)  # success (top) and specialised (bottom) for m = 32
    2
    >>> [text.get_text() for text in figures["success"].legends[0].get_texts()]
    ['erf, step 10', 'linear, step 10', 'softmax, step 100']
    """
    from matplotlib.figure import Figure

    best, cells = summary.best, summary.cells
    summary = summary.per_cell
    ms = sorted(summary["m"].unique())
    series = list(summary.groupby(["attention", "n", "n_steps"]).groups)
    # At most three m side by side (five panels in a row shrank to unreadable ticks at a
    # page's width): a pair of rows (success above, specialised below) per three m.
    ncols = min(3, len(ms))
    blocks = -(-len(ms) // ncols)
    fig = Figure(figsize=(4.4 * ncols + 0.6, 5.6 * blocks + 0.4 + 0.2 * len(series)),
                 layout="constrained")
    grid = np.asarray(fig.subplots(2 * blocks, ncols, sharex=True, sharey=True)).reshape(
        2 * blocks, ncols)
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

    sweep = Figure(figsize=(9.0, 4.4), layout="constrained")
    saxes = sweep.subplots(1, 2)
    lengths = sorted(best["step_length"].unique())
    groups = list(best.groupby(["attention", "n", "n_steps"], sort=True).groups)
    for i, (attention, n, steps) in enumerate(groups):
        g = best[(best["attention"] == attention) & (best["n"] == n)
                 & (best["n_steps"] == steps)].sort_values("step_length")
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


#: The rates :class:`OneStepSuccessDisplay` draws, each with its axis label.
_RATES = {
    "success": "success rate (acc. >= 0.99)",
    "specialised": "specialised rate\n(each head's peak a distinct support bit)",
}


@fill_doc
class OneStepSuccessDisplay(StudyDisplay):
    """Success rate against d per attention type at its best step length: the study's main
    figure.

    Follows :mod:`skxor.plotting`'s displays (and scikit-learn's): build it
    with :meth:`from_table` from a one-step table, or from its summary at
    the best steps, then :meth:`plot` on any axes. One width m per axes:
    per attention type, n and T, the share of runs reaching test accuracy
    0.99 (or whose heads sit on distinct support bits) with its Wilson 95%
    interval, against d on a log axis, each at its best step length
    (:func:`~skxor.papers.best_steps`). Series are offset slightly along d
    so none hides another; T > 1 is drawn hollow and dash-dotted.

    Parameters
    ----------
    summary : pandas.DataFrame
        :func:`~skxor.papers.summarize_one_step` of the table's best cells
        (``best_cells``), rows of any m.
    m : int or None, default=None
        The width m drawn; may be None when the summary has one.
    rate : {"success", "specialised"}, default="success"
        The success rate, or the rate of runs whose heads are on distinct
        support bits.

    Attributes
    ----------
    summary : pandas.DataFrame
        The summary's rows of that m (colours, offsets and the d axis are
        those of every m, so that panels agree).
    %(display_drawn)s
    legends_ : list of matplotlib Legend
        The legend of the series, below the axes (empty with
        ``legend=False``).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from skxor.papers import OneStepSuccessDisplay, one_step
    >>> df = one_step(d=[20, 100], m=[32], seeds=3, n_test=256, step_length=[10.0, 100.0],
    ...               n_steps=1)
    >>> ax = Figure(layout="constrained").subplots()
    >>> display = OneStepSuccessDisplay.from_table(df, ax=ax)
    >>> display.ax_ is ax, ax.get_title()
    (True, 'm = 32')
    >>> [t.get_text() for t in display.legends_[0].get_texts()]
    ['erf, step 10', 'linear, step 10', 'softmax, step 100']
    >>> OneStepSuccessDisplay(display.summary, rate="accuracy")
    Traceback (most recent call last):
    ...
    ValueError: rate must be one of ['specialised', 'success']; got 'accuracy'.
    """

    def __init__(self, summary, *, m=None, rate="success"):
        if rate not in _RATES:
            raise ValueError(f"rate must be one of {sorted(_RATES)}; got {rate!r}.")
        self.m = one_value(summary, "m", m)
        self.rate = rate
        # Series, d and T of every m, so that the panels of several m agree.
        self._series = list(summary.groupby(["attention", "n", "n_steps"]).groups)
        self._several_t = summary["n_steps"].nunique() > 1
        self._ds = sorted(summary["d"].unique())
        self.summary = summary[summary["m"] == self.m]

    @classmethod
    def from_table(cls, df, *, m=None, rate="success", ax=None):
        return cls(one_step_summary(df).per_cell, m=m, rate=rate).plot(ax=ax)

    def _draw(self, ax):
        part, key = self.summary, self.rate
        for i, (attention, n, steps) in enumerate(self._series):
            group = part[(part["attention"] == attention) & (part["n"] == n)
                         & (part["n_steps"] == steps)]
            if group.empty:
                continue
            marker, line = _style(attention)
            step_length = float(group["step_length"].iloc[0])
            rate = group[f"{key}_rate"]
            errors = interval_errors(rate, group[f"{key}_low"], group[f"{key}_high"])
            # No bar where no run (or every run) succeeded: rows of identical bars from 0
            # (or 1) to the same bound (0.11 from it at 30 seeds) hid the series between;
            # the title gives that bound (zero_rate_note).
            errors[:, rate.isin([0.0, 1.0]).to_numpy()] = 0.0
            ax.errorbar(
                offset(group["d"], i, len(self._series), spread=0.035, base=10), rate,
                yerr=errors,
                marker=marker, ls=line if steps == 1 else "-.",
                capsize=2, ms=5, mfc="none" if steps > 1 else None,
                label=_label(attention, n, steps, self._several_t, step_length),
                color=f"C{i}",
            )
        ax.set_title(f"m = {self.m}")
        log_axis(ax, self._ds, label="d (input length)")
        ax.set_ylim(-0.05, 1.05)
        ax.xaxis.set_tick_params(labelbottom=True)  # every panel of a shared row reads its d
        if len(self._ds) > 4:
            ax.tick_params(axis="x", labelrotation=30)
        ax.set_ylabel(_RATES[key])
        return lambda: [legend_below(ax, title="each attention type and T at its best step "
                                     "length")]
