"""Markers and line styles cycled over the series of a figure, and the axes a
display draws on: one definition for the displays of :mod:`skxor.plotting` and
the displays and figures of the studies (matplotlib is imported lazily)."""

#: Markers cycled over series (8 distinct).
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
#: Line styles cycled over series (4 distinct).
LINESTYLES = ("-", "--", "-.", ":")


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
