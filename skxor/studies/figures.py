"""What every line figure of the studies does, in one place.

Figures of study summaries (success against d, counts against N, ...) stay
with their studies; these helpers give them what each of them needs so that
no series hides another: a marker and line style per series, small offsets
where series coincide, a labelled tick at every grid value on log axes, one
legend with every series, and error bars from intervals. Histograms,
spectra and attention maps are drawn by :mod:`skxor.plotting`'s displays.
"""

import numpy as np

# Markers and line styles cycled over series (8 markers, 4 line styles), as the
# displays of skxor.plotting cycle them.
from .._utils._docstrings import fill_doc
from .._utils._style import LINESTYLES, MARKERS, axes_or_new

__all__ = [
    "LINESTYLES",
    "MARKERS",
    "NEUTRAL",
    "figure_legend",
    "interval_errorbar",
    "interval_errors",
    "key_legends",
    "legend_below",
    "log_axis",
    "offset",
    "one_value",
    "select_rows",
    "series_style",
    "StudyDisplay",
]


def series_style(index):
    """Marker and line style of series ``index``: no two of the first 8 alike.

    Examples
    --------
    >>> from skxor.studies.figures import series_style
    >>> series_style(0), series_style(5)
    ({'marker': 'o', 'ls': '-'}, {'marker': 'P', 'ls': '--'})
    """
    return {"marker": MARKERS[index % len(MARKERS)], "ls": LINESTYLES[index % len(LINESTYLES)]}


def offset(x, index, count, *, spread=0.04, base=2.0):
    """``x`` moved a little along a log axis, so that coinciding series stay visible.

    Series ``index`` of ``count`` is multiplied by
    ``base ** (spread * (index - (count - 1) / 2))``: the series spread
    symmetrically about the true value, ``spread`` (in powers of ``base``)
    apart.

    Examples
    --------
    >>> from skxor.studies.figures import offset
    >>> offset([8, 16], 0, 2, spread=1.0).tolist(), offset([8, 16], 1, 2, spread=1.0).tolist()
    ([5.656854249492381, 11.313708498984761], [11.313708498984761, 22.627416997969522])
    """
    return np.asarray(x, dtype=float) * float(base) ** (spread * (index - (count - 1) / 2))


def log_axis(ax, values, *, base=10, label=None, pad=None):
    """Log x axis with a labelled tick at every grid value and no minor ticks.

    Parameters
    ----------
    ax : matplotlib Axes
    values : iterable of numbers
        The grid; each value gets a tick labelled as an integer when it is one.
    base : float, default=10
        Base of the logarithm.
    label : str or None, default=None
        The x label, if given.
    pad : float or None, default=None
        Room left and right of the grid, in powers of ``base`` (none when None).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from skxor.studies.figures import log_axis
    >>> ax = Figure().subplots()
    >>> log_axis(ax, [4, 8, 16], base=2, label="N")
    >>> [t.get_text() for t in ax.get_xticklabels()], ax.get_xlabel()
    (['4', '8', '16'], 'N')
    """
    from matplotlib.ticker import FixedLocator, NullLocator

    values = sorted({float(v) for v in values})
    ax.set_xscale("log", base=base)
    ax.xaxis.set_major_locator(FixedLocator(values))
    ax.set_xticklabels([f"{v:g}" if v != int(v) else str(int(v)) for v in values])
    ax.xaxis.set_minor_locator(NullLocator())
    if label is not None:
        ax.set_xlabel(label)
    if pad is not None and values:
        ax.set_xlim(values[0] / base**pad, values[-1] * base**pad)


def figure_legend(figure, axes, **kwargs):
    """One legend for the figure with every labelled series of ``axes``, each once.

    Series only some panels show are listed too. Keywords go to
    ``figure.legend``.

    Returns
    -------
    legend : matplotlib Legend

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from skxor.studies.figures import figure_legend
    >>> fig = Figure()
    >>> a, b = fig.subplots(1, 2)
    >>> _ = a.plot([1, 2], label="x"), b.plot([1, 2], label="x"), b.plot([2, 1], label="y")
    >>> [t.get_text() for t in figure_legend(fig, [a, b]).get_texts()]
    ['x', 'y']
    """
    handles, labels = [], []
    for ax in np.ravel(axes):
        for handle, label in zip(*ax.get_legend_handles_labels()):
            if label not in labels:
                handles.append(handle)
                labels.append(label)
    return figure.legend(handles, labels, **kwargs)


def legend_below(ax, **kwargs):
    """``ax``'s legend under its x label, clear of the data (constrained layout makes room).

    Keywords go to ``ax.legend`` (``fontsize`` defaults to ``"x-small"``).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from skxor.studies.figures import legend_below
    >>> ax = Figure(layout="constrained").subplots()
    >>> _ = ax.plot([1, 2], label="x"), ax.set_xlabel("N")
    >>> legend_below(ax).get_bbox_to_anchor() is not None
    True
    """
    from matplotlib.transforms import offset_copy

    # Anchored to the bottom of the axes, then moved down past the tick labels and
    # the x label (points, not axes fractions: panels of any height).
    below = offset_copy(ax.transAxes, fig=ax.figure, y=-38, units="points")
    handles = dict(zip(*reversed(ax.get_legend_handles_labels())))  # each label once
    return ax.legend(list(handles.values()), list(handles), **{"fontsize": "x-small", "loc": "upper center", "frameon": False,
                        "bbox_to_anchor": (0.5, 0.0), "bbox_transform": below, **kwargs})


def interval_errors(values, low, high):
    """Error-bar lengths ``[values - low, high - values]``; zero where there is no interval.

    Examples
    --------
    >>> from skxor.studies.figures import interval_errors
    >>> interval_errors([0.5, 1.0], [0.25, float("nan")], [0.75, float("nan")]).tolist()
    [[0.25, 0.0], [0.25, 0.0]]
    """
    values, low, high = (np.asarray(v, dtype=float) for v in (values, low, high))
    return np.vstack([np.nan_to_num(values - low), np.nan_to_num(high - values)])


def interval_errorbar(ax, x, rows, column, low=None, high=None, **style):
    """Draw ``rows[column]`` against ``x`` with error bars to its interval; return the container.

    The shape of every rate or mean with its 95% interval drawn against N or
    d: ``ax.errorbar(x, y, yerr=interval_errors(y, low, high), **style)``.

    Parameters
    ----------
    ax : matplotlib Axes
    x : array-like
        The positions (an N or d axis, offset where series coincide).
    rows : pandas.DataFrame
        The summary's rows of the series.
    column : str
        The value drawn.
    low, high : str or None, default=None
        The columns of its interval; None: ``<stem>_low`` and
        ``<stem>_high``, ``<stem>`` being ``column`` less a ``_rate`` suffix
        (the names :func:`~skxor.studies.reporting.summary_table` writes).
    **style
        Passed to ``ax.errorbar`` (marker, colour, label, ``capsize``, ...).

    Returns
    -------
    container : matplotlib.container.ErrorbarContainer

    Examples
    --------
    >>> import pandas as pd
    >>> from matplotlib.figure import Figure
    >>> from skxor.studies.figures import interval_errorbar
    >>> rows = pd.DataFrame({"d": [10, 20], "success_rate": [0.5, 1.0],
    ...                      "success_low": [0.2, 0.7], "success_high": [0.8, 1.0]})
    >>> ax = Figure().subplots()
    >>> bars = interval_errorbar(ax, rows["d"], rows, "success_rate", capsize=2)
    >>> bars.lines[0].get_ydata().tolist()
    [0.5, 1.0]
    """
    stem = column.removesuffix("_rate")
    y = rows[column]
    low = rows[f"{stem}_low" if low is None else low]
    high = rows[f"{stem}_high" if high is None else high]
    return ax.errorbar(x, y, yerr=interval_errors(y, low, high), **style)


#: Colour of the handles of a legend that explains line styles and markers
#: (the colours being explained by another legend).
NEUTRAL = "0.45"


def key_legends(where, colours=None, kinds=None, *, colour_title=None, kind_title=None,
                fontsize="x-small", below=False, kind_ncols=1):
    """Two short legends outside the data: one for the colours, one for the kinds.

    A figure with many series crossed from two factors (a model and what is
    drawn of it, a function and a setting) lists each factor once: the
    colour legend has a line of each colour, the kind legend a grey line
    with each marker and line style. Both sit to the right of ``where``
    (an Axes: beside it; a Figure: in its right margin, which constrained
    layout makes room for), or below a Figure's panels with ``below=True``.

    Parameters
    ----------
    where : matplotlib Axes or Figure
    colours : dict of str to colour or dict, optional
        Label of each colour (or of each ``Line2D`` keywords with a colour,
        to show a series' marker and line style too, or a handle made
        already).
    kinds : dict of str to dict, optional
        Label of each kind and its ``Line2D`` keywords (``marker``, ``ls``,
        ``mfc``, ``lw``...); its colour is :data:`NEUTRAL` unless given.
        A value ``{"patch": True, ...}`` draws a filled patch (a band); a
        value that is not a dict is a handle made already.
    colour_title, kind_title : str, optional
        The legends' titles.
    fontsize : str, default="x-small"
    below : bool, default=False
        With a Figure ``where``: both legends side by side in its bottom
        margin (the colour legend left, the kind legend right) instead of
        its right margin, so that a figure with long legend entries keeps
        its width for the data.
    kind_ncols : int, default=1
        Columns of the kind legend (several keep a legend below short).

    Returns
    -------
    legends : list of matplotlib Legend
        The colour legend first (each that has entries).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from skxor.studies.figures import key_legends
    >>> fig = Figure(layout="constrained")
    >>> ax = fig.subplots()
    >>> legends = key_legends(ax, {"ffnn": "C0", "transformer": "C1"},
    ...                       {"n* per seed": {"marker": "o", "ls": "none"},
    ...                        "fit": {"ls": "-"}}, colour_title="model")
    >>> [[t.get_text() for t in legend.get_texts()] for legend in legends]
    [['ffnn', 'transformer'], ['n* per seed', 'fit']]
    >>> below = key_legends(fig, {"ffnn": "C0"}, {"fit": {"ls": "-"}, "band": {"patch": True}},
    ...                     below=True, kind_ncols=2)
    >>> [legend._loc for legend in below], below[1]._ncols
    ([3, 4], 2)
    """
    from matplotlib.axes import Axes
    from matplotlib.legend import Legend
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    def handle(style):
        if not isinstance(style, dict):  # a handle already made
            return style
        style = dict(style)
        if style.pop("patch", False):
            return Patch(**{"facecolor": NEUTRAL, "alpha": 0.3, **style})
        return Line2D([], [], **{"color": NEUTRAL, **style})

    groups = []
    if colours:
        groups.append(([Line2D([], [], **c) if isinstance(c, dict) else
                        c if hasattr(c, "get_label") else
                        Line2D([], [], color=c, lw=2) for c in colours.values()],
                       list(colours), colour_title))
    if kinds:
        groups.append(([handle(s) for s in kinds.values()], list(kinds), kind_title))
    legends = []
    on_axes = isinstance(where, Axes)
    if below and on_axes:
        raise ValueError("below=True places the legends in a figure's bottom margin: pass "
                         "the Figure, not an Axes.")
    for (handles, labels, title), upper in zip(groups, (True, False)):
        kwargs = dict(title=title, fontsize=fontsize, title_fontsize=fontsize, frameon=False,
                      alignment="left")
        if on_axes:
            # Beside the axes: the first legend from its top, the second from its bottom.
            legend = Legend(where, handles, labels, loc="upper left" if upper else "lower left",
                            bbox_to_anchor=(1.02, 1.0 if upper else 0.0), borderaxespad=0.0,
                            **kwargs)
            where.add_artist(legend)
            legend.set_clip_on(False)  # add_artist clips to the axes: the legend is beside it
        else:
            side = ("lower left" if upper else "lower right") if below else \
                ("right upper" if upper else "right lower")
            legend = where.legend(handles, labels, **kwargs, loc=f"outside {side}",
                                  ncols=1 if upper else kind_ncols)
        legends.append(legend)
    return legends


def select_rows(table, column, values):
    """The rows of ``table`` whose ``column`` is among ``values`` (all of them when None).

    A display drawing a selection of a study's table says which values the
    table has when asked for one it lacks.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies.figures import select_rows
    >>> table = pd.DataFrame({"d_model": [8, 32, 32]})
    >>> len(select_rows(table, "d_model", 32)), len(select_rows(table, "d_model", None))
    (2, 3)
    >>> select_rows(table, "d_model", [16])
    Traceback (most recent call last):
    ...
    ValueError: d_model [16] is not in the table; it has [8, 32].
    """
    if values is None:
        return table
    values = np.atleast_1d(values)
    missing = sorted(set(values.tolist()) - set(table[column].tolist()))
    if missing:
        raise ValueError(f"{column} {missing} is not in the table; it has "
                         f"{sorted(table[column].unique().tolist())}.")
    return table[table[column].isin(values)]


def one_value(table, column, value):
    """``value`` of ``column``, checked to be in ``table``; when None, the table's only one.

    A display that draws one value per axes (one depth, one width) takes it
    from the table when the table has no other.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies.figures import one_value
    >>> one_value(pd.DataFrame({"n_layers": [2, 2]}), "n_layers", None)
    2
    >>> one_value(pd.DataFrame({"n_layers": [1, 2]}), "n_layers", None)
    Traceback (most recent call last):
    ...
    ValueError: the table has several n_layers ([1, 2]): choose one with n_layers.
    """
    if value is None:
        values = sorted(table[column].unique().tolist())
        if len(values) != 1:
            raise ValueError(f"the table has several {column} ({values}): choose one with "
                             f"{column}.")
        return values[0]
    select_rows(table, column, value)  # one of the table's
    return value


class StudyDisplay:
    """Base of the study displays, after scikit-learn's Display API.

    A display holds what it draws (built by its ``from_table`` or from a
    summary); :meth:`plot` draws it on any axes through one hook,
    ``_draw(ax)``, which draws the data and returns a function building the
    legends (called only with ``legend=True``).
    """

    @classmethod
    @fill_doc
    def from_table(cls, df, *, ax=None):
        """Build the display from its study's table and plot it.

        Every study display's ``from_table``: a display that draws part of
        the table (one panel of its study's figure) takes the keywords of its
        class that select that part, with the meaning the class gives them.

        Parameters
        ----------
        %(display_table)s
        %(ax)s

        Returns
        -------
        display : StudyDisplay
            The display, drawn.
        """
        return cls(df).plot(ax=ax)

    @fill_doc
    def plot(self, ax=None, *, legend=True):
        """Draw the display.

        Parameters
        ----------
        %(plot_ax_legend)s

        Returns
        -------
        self : display
            With ``ax_``, ``figure_`` and ``legends_`` (empty with
            ``legend=False``) set.
        """
        ax, figure = axes_or_new(ax, f"{type(self).__name__}.plot")
        legends = self._draw(ax)
        self.legends_ = list(legends()) if legend else []
        self.ax_, self.figure_ = ax, figure
        return self

    def _draw(self, ax):  # pragma: no cover - abstract
        raise NotImplementedError
