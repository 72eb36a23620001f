"""Markers and line styles cycled over the series of a figure: one definition for the
displays of :mod:`skxor.plotting` and the figures of the studies."""

#: Markers cycled over series (8 distinct).
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
#: Line styles cycled over series (4 distinct).
LINESTYLES = ("-", "--", "-.", ":")
