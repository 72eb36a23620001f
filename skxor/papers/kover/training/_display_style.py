"""The training figures' shared drawing: a function's style."""

from skxor.boolean import NAMED_FUNCTIONS
from skxor.studies.figures import LINESTYLES, MARKERS


_COLOURS = ("tab:red", "tab:blue", "tab:green", "tab:purple", "tab:orange", "tab:brown")


def _style(function):
    """Colour, marker and line style of a named function, by its place in the Boolean
    registry: no two of the first six alike."""
    i = list(NAMED_FUNCTIONS).index(function)
    return _COLOURS[i % len(_COLOURS)], MARKERS[i % len(MARKERS)], LINESTYLES[i % len(LINESTYLES)]
