"""The training figures' shared drawing: a function's style and a row of panels."""

import numpy as np

from skxor.boolean import NAMED_FUNCTIONS
from skxor.studies.figures import LINESTYLES, MARKERS


_COLOURS = ("tab:red", "tab:blue", "tab:green", "tab:purple", "tab:orange", "tab:brown")


def _style(function):
    """Colour, marker and line style of a named function, by its place in the Boolean
    registry: no two of the first six alike."""
    i = list(NAMED_FUNCTIONS).index(function)
    return _COLOURS[i % len(_COLOURS)], MARKERS[i % len(MARKERS)], LINESTYLES[i % len(LINESTYLES)]



def _panels(n, width, height):
    """A figure of ``n`` panels side by side (one per function), sharing their y axis."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width * n, height), layout="constrained")
    return fig, np.atleast_1d(fig.subplots(1, n, sharey=True))
