"""Checks shared by the study-figure tests: labelled axes, every series in a legend."""

from matplotlib.container import Container


def _legend_texts(figure):
    return {t.get_text() for legend in all_legends(figure) for t in legend.get_texts()}


def _key_colours(figure):
    """The colours a legend names (a key of colours: one entry per model, N, scheme...)."""
    out = set()
    for legend in all_legends(figure):
        for handle in legend.legend_handles:
            out |= _colours(handle)
    return out


def assert_every_axis_labelled_and_series_in_legend(figure):
    """Every axes has an x or y label (colour bars their label); every plotted
    line, error-bar series or band carries a label that a legend shows, or a
    colour that a key of colours names."""
    shown = _legend_texts(figure)
    keyed = _key_colours(figure)
    for ax in figure.axes:
        assert ax.get_xlabel() or ax.get_ylabel(), f"axes {ax.get_title()!r} has no label"
        if ax.get_images() or hasattr(ax, "_colorbar"):
            continue  # heatmaps: the colour bar is their legend
        assert ax.get_xlabel() and ax.get_ylabel(), f"axes {ax.get_title()!r} lacks a label"
        in_containers = {id(a) for c in ax.containers for a in c.get_children()}
        series = [c for c in ax.containers if isinstance(c, Container)]
        series += [line for line in ax.lines if id(line) not in in_containers]
        series += [patch for patch in ax.collections if id(patch) not in in_containers]
        for artist in series:
            label = artist.get_label()
            assert label and not label.startswith("_"), f"unlabelled series in {ax.get_title()!r}"
            parts = artist.get_children() if isinstance(artist, Container) else [artist]
            colours = set().union(*(_colours(a) for a in parts if a is not None))
            assert label in shown or colours & keyed, f"series {label!r} has no legend entry"


def assert_legends_clear_of_titles(figure):
    """No legend covers the figure's title or an axes title (drawn with Agg)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(figure).get_renderer()
    figure.draw(renderer)
    titles = [ax.title for ax in figure.axes if ax.get_title()]
    if figure._suptitle is not None:
        titles.append(figure._suptitle)
    for legend in list(figure.legends) + [ax.get_legend() for ax in figure.axes]:
        if legend is None:
            continue
        box = legend.get_window_extent(renderer)
        for title in titles:
            assert not box.overlaps(title.get_window_extent(renderer)), title.get_text()


_NONE = (None, "None", "none", "", " ")


def all_legends(figure):
    """Every legend of ``figure``: its own, each axes' and any added beside an axes."""
    from matplotlib.legend import Legend

    return list(dict.fromkeys(figure.findobj(Legend)))


def _visible(artist):
    """Whether a drawn artist shows something: a line with two finite points or a marker,
    a collection with paths or points, a patch."""
    import numpy as np
    from matplotlib.collections import Collection
    from matplotlib.lines import Line2D

    if not artist.get_visible():
        return False
    if isinstance(artist, Line2D):
        x, y = (np.asarray(v, dtype=float) for v in artist.get_data())
        finite = int(np.sum(np.isfinite(x) & np.isfinite(y))) if x.size and y.size else 0
        has_line = artist.get_linestyle() not in ("None", "none", "", " ")
        has_marker = artist.get_marker() not in (None, "None", "none", "", " ")
        return finite >= 2 and has_line or finite >= 1 and has_marker
    if isinstance(artist, Collection):
        return len(artist.get_paths()) > 0 or len(artist.get_offsets()) > 0
    return True


def _colours(artist):
    import numpy as np
    from matplotlib.collections import Collection
    from matplotlib.colors import to_rgb
    from matplotlib.lines import Line2D

    if isinstance(artist, Line2D):
        found = [artist.get_color(), artist.get_markerfacecolor(), artist.get_markeredgecolor()]
    elif isinstance(artist, Collection):
        found = [*artist.get_facecolor(), *artist.get_edgecolor()]
    else:
        found = [artist.get_facecolor(), artist.get_edgecolor()]
    out = set()
    for c in found:
        try:
            out.add(tuple(np.round(to_rgb(c), 3)))
        except (ValueError, TypeError):
            pass
    return out


def _labelled(figure, label):
    """The data artists of ``figure`` labelled ``label`` (an error-bar series: its parts)."""
    out = []
    for ax in figure.axes:
        for artist in [*ax.lines, *ax.collections, *ax.patches]:
            if artist.get_label() == label:
                out.append(artist)
        for container in ax.containers:
            if container.get_label() == label:
                out += [a for a in container.get_children() if a is not None]
    return out


def _drawn(figure, legend):
    """The figure's visible data artists (lines, collections, patches), legends left out."""
    from matplotlib.collections import Collection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    out = []
    for ax in figure.axes:
        for artist in [*ax.lines, *ax.collections, *ax.patches]:
            if isinstance(artist, (Line2D, Collection, Patch)) and _visible(artist):
                out.append(artist)
    return out


def unmatched_legend_entries(figure):
    """The legend entries of ``figure`` that stand for nothing drawn.

    An entry whose handle is itself a plotted artist must show something
    (a line of two points or a marker). An entry drawn for the legend only
    (a key of colours or of kinds) must match a visible artist: by colour
    when its colour is not the neutral grey of kinds, else by marker and
    line style (a patch: by being a band, a filled collection).
    """
    import numpy as np
    from matplotlib.collections import Collection
    from matplotlib.colors import to_rgb
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from skxor.studies.figures import NEUTRAL

    neutral = tuple(np.round(to_rgb(NEUTRAL), 3))
    missing = []
    for legend in all_legends(figure):
        drawn = _drawn(figure, legend)
        for handle, text in zip(legend.legend_handles, legend.get_texts()):
            label = text.get_text()
            owned = _labelled(figure, label)
            if owned:
                # The entry of a plotted series: that series shows something.
                ok = any(_visible(a) for a in owned)
            elif isinstance(handle, Line2D):
                colour = tuple(np.round(to_rgb(handle.get_color()), 3))
                if colour != neutral:
                    ok = any(colour in _colours(a) for a in drawn)
                else:
                    # A kind: the marker and line style it shows (those it sets).
                    marker, style = handle.get_marker(), handle.get_linestyle()
                    lines = [a for a in drawn if isinstance(a, Line2D)]
                    if marker not in _NONE:
                        lines = [a for a in lines if a.get_marker() == marker]
                    if style not in _NONE:
                        lines = [a for a in lines if a.get_linestyle() == style]
                    ok = bool(lines)
                    if not ok and marker in _NONE:
                        # A plain line style may stand for line collections (vlines).
                        ok = any(isinstance(a, Collection) and not a.get_facecolor().size
                                 for a in drawn)
            elif isinstance(handle, Patch):
                colour = tuple(np.round(to_rgb(handle.get_facecolor()), 3))
                ok = any(isinstance(a, Collection) and len(a.get_facecolor())
                         and (colour == neutral or colour in _colours(a)) for a in drawn)
                ok = ok or any(isinstance(a, Patch) for a in drawn)
            else:
                ok = False
            if not ok:
                missing.append(label)
    return missing


def assert_legends_short_and_drawn(figure, most=8):
    """Every legend lists at most ``most`` entries, each standing for something drawn."""
    for legend in all_legends(figure):
        texts = [t.get_text() for t in legend.get_texts()]
        assert len(texts) <= most, f"a legend of {len(texts)} entries: {texts}"
    missing = unmatched_legend_entries(figure)
    assert not missing, f"legend entries with nothing drawn: {missing}"


def drawn_beside_another(from_table, table, **kwargs):
    """A study display's ``from_table(table, ax=...)`` drawn on the right of two axes.

    Checks that it drew there only, on that figure, and that its legends are
    short and stand for what is drawn; returns the display.
    """
    from matplotlib.figure import Figure

    fig = Figure(layout="constrained")
    left, right = fig.subplots(1, 2)
    display = from_table(table, ax=right, **kwargs)
    assert display.ax_ is right and display.figure_ is fig
    assert not left.lines and not left.collections and not left.containers
    assert_legends_short_and_drawn(fig)
    return display
