"""The flip-effect study's figures, drawn from its stored quick-preset table (no networks
built): the main panel as a display (issue 33.10)."""

from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("matplotlib")

from _figures import drawn_beside_another

from skxor.studies import get_study
from skxor.papers.kover.flip_effect import summarize_flip_effect

STUDY = get_study("flip_effect")

ROOT = Path(__file__).resolve().parents[2]


def test_flip_change_display_draws_the_table_on_the_given_axes():
    """Issue 33.10: the study's main panel as a display (from_table, plot(ax=...)), drawn
    from the stored quick table (no networks built), as the study's figure draws it."""
    import matplotlib.pyplot as plt

    from skxor.papers import FlipChangeDisplay

    table = pd.read_csv(ROOT / "tests" / "data" / "quick_tables" / "flip_effect.csv.gz",
                        low_memory=False)
    display = drawn_beside_another(FlipChangeDisplay.from_table, table)
    right = display.ax_
    assert len(display.legends_) == 1
    # One series per eps, its points the medians over the networks at each N.
    summary = summarize_flip_effect(table)
    series = {c.get_label(): c for c in right.containers}
    assert list(series) == [f"eps = {eps:g}" for eps in sorted(summary["layer_norm_eps"].unique())]
    for eps, rows in summary.groupby("layer_norm_eps"):
        line = series[f"eps = {eps:g}"].lines[0]
        assert line.get_ydata().tolist() == rows.sort_values("n_bits")["max_median"].tolist()
    typical = FlipChangeDisplay.from_table(table, change="typical")
    assert typical.ax_ is not right and "typical" in typical.ax_.get_ylabel()
    assert sorted(y for c in typical.ax_.containers for y in c.lines[0].get_ydata()) == \
        sorted(summary["typical_median"])
    plt.close(typical.figure_)
    with pytest.raises(ValueError, match=r"d_model \[8\] is not in the table; it has \[16\]"):
        FlipChangeDisplay(summary, d_model=8)
    with pytest.raises(ValueError, match="change must be one of"):
        FlipChangeDisplay(summary, change="mean")
    panel = STUDY.render("figures", table)["change"].axes[0]
    assert [line.get_ydata().tolist() for line in panel.lines] == \
        [line.get_ydata().tolist() for line in right.lines]
