"""The legends of the study figures: one per figure, below an axes, or two keys.

Part of :mod:`skxor.studies.figures`, which re-exports every name here.
"""

import numpy as np

__all__ = ["NEUTRAL", "figure_legend", "key_legends", "legend_below"]


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
