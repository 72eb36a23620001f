"""Shared drawing helpers of the displays (matplotlib is imported lazily)."""

from collections.abc import Mapping

import numpy as np

from ..boolean import First, Majority, Parity

#: Hatches, markers and colours cycled over series so that no series hides
#: another: bars of one group stand side by side, each with its own hatch.
HATCHES = ("", "//", "..", "xx", "\\\\", "++", "oo", "--")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
COLOURS = ("C0", "C1", "C2", "C3", "C4", "C5", "C6", "C7")

#: Reference functions that can be named: display label and constructor.
REFERENCES = {
    "parity": ("PARITY", Parity),
    "majority": ("MAJORITY", Majority),
    "first": ("FIRST", First),
}


def check_matplotlib(caller):
    """Import matplotlib.pyplot, or say how to install it."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError(
            f"{caller} needs matplotlib; install it with `pip install skxor[plot]`."
        ) from exc
    return plt


def axes_or_new(ax, caller):
    """The given axes, or those of a new figure."""
    plt = check_matplotlib(caller)
    if ax is None:
        _, ax = plt.subplots()
    return ax, ax.figure


def resolve_references(references, n_bits):
    """``{label: function}`` from None, names, or a mapping of label -> anything.

    Names are "parity", "majority" and "first" (built for ``n_bits``); a
    mapping's values are left to the caller (functions, tables, results).
    """
    if references is None:
        return {}
    if isinstance(references, str):
        references = [references]
    if isinstance(references, Mapping):
        return {str(label): value for label, value in references.items()}
    out = {}
    for name in references:
        key = name.lower() if isinstance(name, str) else None
        if key not in REFERENCES:
            raise ValueError(
                f"a reference must be one of {sorted(REFERENCES)} or given as a "
                f"mapping {{label: function}}; got {name!r}."
            )
        label, cls = REFERENCES[key]
        out[label] = cls(n_bits)
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


def legend_with_headroom(ax, heights, errors=None, *, log=False):
    """A legend, with room made above the bars so that it covers none of them."""
    top = max(float(np.max(h)) for h in heights)
    if errors is not None:
        for h, e in zip(heights, errors):
            if e is not None:
                top = max(top, float(np.max(np.asarray(h) + e[1])))
    if not log and top > 0:
        # One legend line is about 6% of the axes height; keep the bars below it.
        ax.set_ylim(0, top * (1.08 + 0.09 * len(heights)))
    ax.legend(loc="upper right" if not log else "best")


def default_name(f):
    """A legend label for a function, model or table."""
    if isinstance(f, np.ndarray):
        return "truth table"
    if type(f).__name__ in ("function", "builtin_function_or_method"):
        return getattr(f, "__name__", "f").replace("<lambda>", "f")
    return type(f).__name__


def estimator_n_bits(estimator, n_bits):
    """``n_bits``, or the fitted ``estimator``'s ``n_features_in_`` when None."""
    from sklearn.utils.validation import check_is_fitted

    check_is_fitted(estimator)
    if n_bits is None:
        n_bits = getattr(estimator, "n_features_in_", None)
        if n_bits is None:
            raise ValueError(f"{type(estimator).__name__} has no n_features_in_; pass n_bits.")
    return n_bits


def finish_bars(display, ax, figure, x, *, xlabel, ylabel, heights, errors=None, log=False):
    """Label the axes of a bar display, thin the ticks, place the legend, store ``ax_``."""
    if log:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_xticks(x if x.size <= 16 else x[:: int(np.ceil(x.size / 16))])
    legend_with_headroom(ax, heights, errors, log=log)
    display.ax_ = ax
    display.figure_ = figure
    return display
