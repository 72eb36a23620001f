"""The one-step study's main figure: :class:`OneStepSuccessDisplay`."""

from skxor._utils._docstrings import fill_doc
from skxor.studies.figures import (StudyDisplay, interval_errors, legend_below, log_axis,
                                   offset, one_value, rows_where)
from ._display_style import _label, _style
from ._summary import one_step_summary


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
            group = rows_where(part, attention=attention, n=n, n_steps=steps)
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
