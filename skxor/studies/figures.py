"""What every line figure of the studies does, in one place.

Figures of study summaries (success against d, counts against N, ...) stay
with their studies; these helpers give them what each of them needs so that
no series hides another: a marker and line style per series, small offsets
where series coincide, a labelled tick at every grid value on log axes, one
legend with every series, and error bars from intervals. Histograms,
spectra and attention maps are drawn by :mod:`skxor.plotting`'s displays.
"""

from numbers import Real

import numpy as np

# Markers and line styles cycled over series (8 markers, 4 line styles), as the
# displays of skxor.plotting cycle them.
from .._utils._style import LINESTYLES, MARKERS
from ._study_display import StudyDisplay, one_value, rows_where, select_rows
from ._legends import NEUTRAL, figure_legend, key_legends, legend_below

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
    "panel_grid",
    "rows_where",
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


def panel_grid(n_rows, n_cols, *, size, pad=(0.0, 0.0), **subplots):
    """A figure of ``n_rows`` by ``n_cols`` panels and its axes, always as a 2-D array.

    The frame of every multi-panel study figure: constrained layout, each
    panel about ``size`` inches, ``pad`` inches more for the figure's
    legends and title.

    Parameters
    ----------
    n_rows, n_cols : int
        The panels (at least 1 each).
    size : tuple of float
        Width and height of one panel, in inches.
    pad : tuple of float, default=(0.0, 0.0)
        Width and height added to the figure, in inches.
    **subplots
        Passed to ``Figure.subplots`` (``sharex``, ``sharey``, ``width_ratios``).

    Returns
    -------
    figure : matplotlib.figure.Figure
    axes : numpy.ndarray of shape (n_rows, n_cols)

    Examples
    --------
    >>> from skxor.studies.figures import panel_grid
    >>> figure, axes = panel_grid(1, 3, size=(4.0, 3.0), pad=(0.5, 0.0), sharey=True)
    >>> axes.shape, figure.get_size_inches().tolist()
    ((1, 3), [12.5, 3.0])
    >>> panel_grid(1, 1, size=3.0)
    Traceback (most recent call last):
    ...
    ValueError: panel_grid: size must be two positive numbers (inches); got 3.0.
    """
    from matplotlib.figure import Figure

    for name, pair, low in (("size", size, 0.0), ("pad", pad, None)):
        if (np.ndim(pair) != 1 or len(pair) != 2
                or not all(isinstance(v, Real) and not isinstance(v, bool) and np.isfinite(v)
                        for v in pair)
                or (low is not None and min(pair) <= low) or min(pair) < 0):
            wanted = "two positive numbers" if low is not None else "two numbers >= 0"
            raise ValueError(f"panel_grid: {name} must be {wanted} (inches); got {pair!r}.")
    figure = Figure(figsize=(size[0] * n_cols + pad[0], size[1] * n_rows + pad[1]),
                    layout="constrained")
    return figure, np.asarray(figure.subplots(n_rows, n_cols, squeeze=False, **subplots))


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
