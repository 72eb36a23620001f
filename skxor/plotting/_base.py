"""Shared drawing helpers of the displays (matplotlib is imported lazily)."""

from collections.abc import Mapping

import numpy as np

from .._utils._style import LINESTYLES, MARKERS, axes_or_new, check_matplotlib
from ..boolean import NAMED_FUNCTIONS, TruthTable, get_function

#: Hatches, markers and colours cycled over series so that no series hides
#: another: bars of one group stand side by side, each with its own hatch.
HATCHES = ("", "//", "..", "xx", "\\\\", "++", "oo", "--")
COLOURS = ("C0", "C1", "C2", "C3", "C4", "C5", "C6", "C7")
#: Greys of references drawn as steps: they read as references, not as data.
REFERENCE_COLOURS = ("black", "0.45", "0.25", "0.6")


def as_real_array(values, what):
    """``values`` as a float64 ndarray, or a TypeError saying ``what`` must be real numbers.

    ``np.asarray(values, dtype=float)`` alone says "could not convert string
    to float" (or drops imaginary parts with a warning) without naming the input.
    """
    try:
        array = np.asarray(values)
    except ValueError:  # ragged nesting
        array = None
    if array is None or array.dtype.kind not in "biuf":
        got = "a ragged nesting" if array is None else f"dtype {array.dtype}"
        raise TypeError(
            f"{what} must be real numbers; got {type(values).__name__} of {got}."
        )
    return array.astype(np.float64)


def begin_plot(display, ax, name):
    """Axes and figure to draw on, and the label of the display's first series.

    The label is ``name`` if given, else the display's ``name``, else ``"f"``.
    """
    ax, figure = axes_or_new(ax, f"{type(display).__name__}.plot")
    if name is None:
        name = display.name if display.name is not None else "f"
    return ax, figure, name


def resolve_references(references, n_bits):
    """``{label: function}`` from None, names, or a mapping of label -> anything.

    Names are those of :data:`skxor.boolean.NAMED_FUNCTIONS` in any case
    ("parity", "majority", "first"; built for ``n_bits`` and labelled by
    their registered name); a mapping's values are left to the caller
    (functions, tables, results).
    """
    if references is None:
        return {}
    if isinstance(references, str):
        references = [references]
    if isinstance(references, Mapping):
        return {str(label): value for label, value in references.items()}
    out = {}
    for name in references:
        label = name.upper() if isinstance(name, str) else None
        if label not in NAMED_FUNCTIONS:
            raise ValueError(
                f"a reference must be one of {sorted(n.lower() for n in NAMED_FUNCTIONS)} "
                f"or given as a mapping {{label: function}}; got {name!r}."
            )
        out[label] = get_function(label, n_bits)
    return out


def grouped_bars(ax, x, heights, labels, *, errors=None, bar_kwargs=None):
    """One bar per series at each x, side by side, each series its own hatch.

    Parameters
    ----------
    heights : list of ndarray
        One array per series, aligned with ``x``.
    errors : list of (ndarray of shape (2, len(x)) or None) or None
        Asymmetric error bars per series.

    Returns
    -------
    containers : list of matplotlib BarContainer
    """
    n = len(heights)
    width = 0.8 / n
    containers = []
    for s, (height, label) in enumerate(zip(heights, labels)):
        kwargs = dict(
            width=width,
            label=label,
            color=COLOURS[s % len(COLOURS)],
            hatch=HATCHES[s % len(HATCHES)],
            edgecolor="black",
            linewidth=0.5,
        )
        if errors is not None and errors[s] is not None:
            kwargs.update(yerr=errors[s], capsize=2, ecolor="black")
        if s == 0 and bar_kwargs:
            kwargs.update(bar_kwargs)
        offset = (s - (n - 1) / 2) * width
        containers.append(ax.bar(np.asarray(x) + offset, height, **kwargs))
    return containers


#: How the references of a bar display are drawn: bars beside the function's
#: (``"bars"``) or outlines over them (``"steps"``, which keeps many series
#: readable: one line style and marker each).
REFERENCE_STYLES = ("bars", "steps")


def draw_series(ax, x, heights, labels, *, errors=None, reference_style="bars",
                bar_kwargs=None):
    """The first series as bars, the others (references) as bars beside it or steps over it.

    Steps are grey, each with its own line style and marker.

    Returns
    -------
    bars : list of matplotlib BarContainer
        One per series drawn as bars, the first series first.
    lines : list of matplotlib Line2D
        One per reference drawn as steps (empty with ``"bars"``).
    """
    if reference_style not in REFERENCE_STYLES:
        raise ValueError(
            f"reference_style must be one of {list(REFERENCE_STYLES)}; got {reference_style!r}."
        )
    if reference_style == "bars":
        return grouped_bars(ax, x, heights, labels, errors=errors, bar_kwargs=bar_kwargs), []
    bars = grouped_bars(ax, x, heights[:1], labels[:1], errors=None if errors is None
                        else errors[:1], bar_kwargs=bar_kwargs)
    lines = []
    for s, (height, label) in enumerate(zip(heights[1:], labels[1:]), start=1):
        (line,) = ax.plot(
            x, height, drawstyle="steps-mid",
            color=REFERENCE_COLOURS[(s - 1) % len(REFERENCE_COLOURS)],
            ls=LINESTYLES[(s - 1) % len(LINESTYLES)], marker=MARKERS[s % len(MARKERS)],
            ms=4, lw=1.5, label=label, zorder=3,
        )
        lines.append(line)
    return bars, lines


def legend_with_headroom(ax, heights, errors=None, *, log=False, handles=None):
    """A legend, with room made above the bars so that it covers none of them."""
    top = max(float(np.max(h)) for h in heights)
    if errors is not None:
        for h, e in zip(heights, errors):
            if e is not None:
                top = max(top, float(np.max(np.asarray(h) + e[1])))
    if not log and top > 0:
        # One legend line is about 6% of the axes height; keep the bars below it.
        ax.set_ylim(0, top * (1.12 + 0.09 * len(heights)))
    # In the order of the series (matplotlib would list lines before bars).
    kwargs = {} if handles is None else {"handles": handles}
    ax.legend(loc="upper right" if not log else "best", **kwargs)


def default_name(f):
    """A legend label for a function, model or table."""
    if isinstance(f, np.ndarray):
        return "truth table"
    if type(f).__name__ in ("function", "builtin_function_or_method"):
        return getattr(f, "__name__", "f").replace("<lambda>", "f")
    return type(f).__name__


class FunctionDisplayMixin:
    """``from_estimator`` and ``from_predictions`` of a display built by ``from_function``.

    Both tabulate what they are given and pass it, with every other keyword,
    to the display's own ``from_function``.
    """

    #: Keywords ``from_predictions`` adds for ``from_function``.
    _predictions_kwargs = {}

    @classmethod
    def from_estimator(cls, estimator, n_bits=None, *, name=None, **kwargs):
        """Draw what a fitted classifier computes (its predictions).

        Parameters
        ----------
        estimator : fitted classifier
            Its predicted class ``classes_[1]`` is the value 1; it gets
            strings in the encoding it was fitted with (see
            :mod:`skxor.boolean`).
        n_bits : int or None, default=None
            String length N; ``estimator.n_features_in_`` when None.
        name : str or None, default=None
            Legend label; the estimator's class name when None.
        **kwargs
            Passed to ``from_function``: ``references``, ``ax`` and the
            display's own options.

        Returns
        -------
        display
            The display, drawn.
        """
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(estimator)
        if n_bits is None:
            n_bits = getattr(estimator, "n_features_in_", None)
            if n_bits is None:
                raise ValueError(f"{type(estimator).__name__} has no n_features_in_; pass n_bits.")
        return cls.from_function(estimator, n_bits, name=name or type(estimator).__name__,
                                 **kwargs)

    @classmethod
    def from_predictions(cls, X, y_pred, *, input_encoding="01", values="01", name=None,
                         **kwargs):
        """Draw what saved predictions on all 2^N strings compute.

        Parameters
        ----------
        X : array-like of shape (2^N, N)
            Every string once, in any order.
        y_pred : array-like of shape (2^N,) or (2^N, 1)
            The prediction on each string.
        input_encoding : {"01", "1-2b", "2b-1", "pm1"}, default="01"
            How X encodes bits (see
            :meth:`skxor.boolean.TruthTable.from_predictions`).
        values : {"01", "pm1", "f", "1-f", "2f-1", "1-2f"}, default="01"
            How ``y_pred`` encodes f.
        name : str or None, default=None
            Legend label; ``"predictions"`` when None.
        **kwargs
            As in :meth:`from_estimator`.

        Returns
        -------
        display : instance of the display's class
        """
        table = TruthTable.from_predictions(
            X, y_pred, input_encoding=input_encoding, values=values
        )
        return cls.from_function(table.table, table.n_bits, name=name or "predictions",
                                 **dict(kwargs, **cls._predictions_kwargs))


def finish_bars(display, ax, figure, x, *, xlabel, ylabel, heights, errors=None, log=False):
    """Label the axes of a bar display, thin the ticks, place the legend, store ``ax_``."""
    if log:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_xticks(x if x.size <= 16 else x[:: int(np.ceil(x.size / 16))])
    legend_with_headroom(ax, heights, errors, log=log,
                         handles=[*display.bars_, *display.reference_lines_])
    display.ax_ = ax
    display.figure_ = figure
    return display
