"""The published figures read at a glance (issue 51, item 9): drawn from the stored full
runs (docs/results/data) as ``skxor publish`` draws them, each checked on the drawn
figure's geometry and text.

Before: the samples-needed title ran past the figure's left edge ("ines: ML fit ...");
the legends of samples needed and parameter scaling took 45% and 33% of the figure's
width; one_step_success drew a row of identical Wilson bars (0 to 0.11) along 0, and
linear attention "specialised" at 1.0 where it never succeeded, with no word why.
"""

import functools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("matplotlib")

from skxor.studies import get_study
from skxor.studies._publish import figure_caption
from skxor.studies._runner import split_settings

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "docs" / "results" / "data"


@functools.lru_cache  # one drawing per study for the whole module
def _figures(name):
    path = sorted((DATA / name).glob(f"{name}.csv*"))[0]
    table = pd.read_csv(path, low_memory=False)
    rows = split_settings(table)[0][1] if "setting" in table else table
    return get_study(name).render("figures", rows)


def _extents(figure):
    """Each legend's and text's box, and the data axes', in figure fractions."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(figure).get_renderer()
    figure.draw_without_rendering()  # constrained layout placed
    to_fraction = figure.transFigure.inverted().transform_bbox
    legends = [to_fraction(legend.get_window_extent(renderer)) for legend in
               [*figure.legends, *(a for ax in figure.axes for a in ax.artists)]]
    axes = [to_fraction(ax.get_window_extent(renderer)) for ax in figure.axes]
    return legends, axes, renderer, to_fraction


@pytest.mark.parametrize(("name", "figure_name"), [("sample_complexity", "samples_needed"),
                                                   ("parameter_scaling", "parameter_scaling")])
def test_legends_leave_the_data_most_of_the_width(name, figure_name):
    figure = _figures(name)[figure_name]
    legends, axes, _, _ = _extents(figure)
    assert legends
    # The panels span the figure; the legends sit under them, not beside them.
    assert min(a.x0 for a in axes) < 0.1 and max(a.x1 for a in axes) > 0.9
    assert all(legend.y1 <= min(a.y0 for a in axes) for legend in legends)
    # Side by side, not overlapping.
    if len(legends) == 2:
        first, second = sorted(legends, key=lambda b: b.x0)
        assert first.x1 <= second.x0


@pytest.mark.parametrize(("name", "figure_name"), [("sample_complexity", "samples_needed"),
                                                   ("sample_complexity", "learning_curves"),
                                                   ("parameter_scaling", "parameter_scaling"),
                                                   ("one_step", "success")])
def test_titles_lie_inside_the_figure(name, figure_name):
    figure = _figures(name)[figure_name]
    _, _, renderer, to_fraction = _extents(figure)
    titles = [figure._suptitle, *(ax.title for ax in figure.axes)]
    for title in [t for t in titles if t is not None and t.get_text()]:
        box = to_fraction(title.get_window_extent(renderer))
        assert box.x0 >= 0 and box.x1 <= 1 and box.y1 <= 1, title.get_text()[:60]


def test_sample_complexity_captions_say_why_curves_level_off_and_what_crosses_are():
    figures = _figures("sample_complexity")
    curves = figure_caption(figures["learning_curves"])
    # The seeds still at chance at the largest n, per model and d, from the stored table.
    table = pd.read_csv(DATA / "sample_complexity" / "sample_complexity.csv.gz",
                        low_memory=False)
    one = table[table["model"] == "transformer_one_step"]
    last = one.loc[one.groupby(["d", "seed"])["n"].idxmax()]
    short = last.assign(below=last["accuracy"] < last["target"]).groupby("d")["below"]
    expected = ", ".join(f"{d} ({below}/{seeds})" for d, below, seeds in
                         zip(short.sum().index, short.sum(), short.size()) if below)
    assert f"transformer_one_step at d = {expected}" in curves
    assert "crosses at the top: seeds whose population run fails" in figure_caption(
        figures["samples_needed"])


def test_one_step_success_draws_no_bar_at_a_rate_of_zero_and_says_why_linear_specialises():
    figure = _figures("one_step")["success"]
    bars = 0
    for ax in figure.axes:
        for container in ax.containers:  # each errorbar: its points and its bars
            y = np.asarray(container.lines[0].get_ydata(), dtype=float)
            for collection in container.lines[2]:
                for segment, at in zip(collection.get_segments(), y):
                    length = abs(segment[1][1] - segment[0][1])
                    if at in (0.0, 1.0):
                        assert length == 0, f"a bar of {length:.2f} at a rate of {at}"
                    bars += length > 0
    assert bars > 50  # the rates between 0 and 1 keep theirs
    caption = figure_caption(figure)
    assert "none at a rate of 0 or 1 (its interval reaches 0.11 from it)" in caption
    # Linear attention is specialised without success: the title says by how little weight,
    # recomputed here from the stored rows (linear, T = 50, population steps, at its best
    # step length; the mean over the (d, m) cells of each rate, the median of the cells'
    # median weight).
    table = pd.read_csv(DATA / "one_step" / "one_step.csv.gz", low_memory=False)
    linear = table[(table["attention"] == "linear") & (table["n_steps"] == 50)
                   & (table["n"] == 0)]
    by_step = linear.groupby("step_length")["success"].mean()
    best = linear[linear["step_length"] == by_step[by_step == by_step.max()].index.min()]
    cells = best.groupby(["d", "m"]).agg(
        success=("success", "mean"), specialised=("specialised", "mean"),
        mass=("support_mass_min", "median"))
    assert cells["specialised"].mean() - cells["success"].mean() >= 0.25  # why it is named
    assert (f"linear, T = 50 is specialised in {cells['specialised'].mean():.0%} of runs and "
            f"succeeds in {cells['success'].mean():.0%}, its weaker head putting a median "
            f"{cells['mass'].median():.2g} of its weight on the hidden bits") in caption
