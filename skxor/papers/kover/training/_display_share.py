"""The training study's main figure: :class:`LearnedShareDisplay`."""

from skxor._utils._docstrings import fill_doc
from skxor.studies.figures import StudyDisplay, interval_errorbar, log_axis, offset, select_rows
from ._cells import LEARNED
from ._display_style import _style
from ._summary import require_runs, training_summary
from ._wording import series_label


@fill_doc
class LearnedShareDisplay(StudyDisplay):
    """The share of seeds that learned each function against N: the study's main figure.

    Follows :mod:`skxor.plotting`'s displays (and scikit-learn's): build it
    with :meth:`from_table` from a training-sensitivity table, or from the
    table, then :meth:`plot` on any axes. One series per function and
    series setting (the model setting and any setting that varies within a
    function), each the share of seeds whose test accuracy reached the
    study's ``LEARNED``, with its Wilson 95% interval, against N on a log
    axis. A function keeps its colour, marker and line style; every other
    series is drawn hollow. Series are offset slightly along N so
    coinciding points stay visible.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`~skxor.papers.training_sensitivity` (or its
        stored table): one row per function, N, model setting and seed.
    function : str, list of str or None, default=None
        The functions drawn (all when None).
    summary : sklearn.utils.Bunch or None, default=None
        The study's summary of ``df``
        (:func:`~skxor.papers.kover.training.training_summary`) when computed;
        None: computed here.

    Attributes
    ----------
    summary : pandas.DataFrame
        :func:`~skxor.papers.kover.training.summarize_training` of the table,
        the rows of the functions drawn.
    %(display_drawn)s
        The legend of the series, beside the axes (empty with
        ``legend=False``).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from skxor.papers import LearnedShareDisplay, training_sensitivity
    >>> df = training_sensitivity(function=["FIRST", "PARITY"], n_bits=[3, 4], d_model=8,
    ...                           n_layers=1, n_heads=2, seeds=1, n_steps=50, check_every=10)
    >>> ax = Figure(layout="constrained").subplots()
    >>> display = LearnedShareDisplay.from_table(df, ax=ax, function="FIRST")
    >>> display.ax_ is ax, [t.get_text() for t in display.legends_[0].get_texts()]
    (True, ['FIRST (library)', 'FIRST (paper, xavier_uniform init)'])
    >>> LearnedShareDisplay(df, function="XOR")
    Traceback (most recent call last):
    ...
    ValueError: function ['XOR'] is not in the table; it has ['FIRST', 'PARITY'].
    """

    def __init__(self, df, *, function=None, summary=None):
        require_runs(df)
        summary = training_summary(df) if summary is None else summary
        self.df = summary.table
        # The series of the whole table, so that a selection keeps its labels.
        self.series = summary.series
        self.summary = select_rows(summary.per_cell, "function", function)

    @classmethod
    def from_table(cls, df, *, function=None, ax=None):
        return cls(df, function=function).plot(ax=ax)

    def _draw(self, ax):
        groups = list(self.summary.groupby(["function", *self.series], sort=False))
        for i, (keys, group) in enumerate(groups):
            colour, marker, line = _style(keys[0])
            interval_errorbar(
                ax, offset(group["n_bits"], i, len(groups), spread=0.07), group, "learned_rate",
                capsize=3, ms=5, label=series_label(keys[0], keys[1:], self.series, self.df),
                color=colour, marker=marker, ls=line, mfc="none" if i % 2 else colour,
            )
        log_axis(ax, self.summary["n_bits"].unique(), base=2, label="string length N", pad=0.3)
        ax.set_ylim(-0.05, 1.05)
        ax.set_ylabel(f"share of seeds learned\n(accuracy >= {LEARNED}; 95% Wilson)")
        return lambda: [ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0),
                                  frameon=False)]
