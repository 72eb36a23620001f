"""Checks shared by the study-figure tests: labelled axes, every series in a legend."""

from matplotlib.container import Container


def _legend_texts(figure):
    legends = [ax.get_legend() for ax in figure.axes] + list(figure.legends)
    return {t.get_text() for legend in legends if legend is not None
            for t in legend.get_texts()}


def assert_every_axis_labelled_and_series_in_legend(figure):
    """Every axes has an x or y label (colour bars their label); every plotted
    line, error-bar series or band carries a label that a legend shows."""
    shown = _legend_texts(figure)
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
            assert label in shown, f"series {label!r} has no legend entry"


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
