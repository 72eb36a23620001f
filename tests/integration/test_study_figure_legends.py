"""Every study figure's legends are short and stand for something drawn (issue 37.2).

Drawn from the stored quick-preset tables (what ``skxor reproduce`` writes,
bit for bit: tests/integration/test_quick_tables_unchanged.py) and from the
full-preset tables the documentation publishes (docs/results/data), whose
figures had legends of 11 to 25 entries and listed loss curves that drew
nothing.
"""

from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("matplotlib")

from _figures import all_legends, assert_legends_short_and_drawn, unmatched_legend_entries

from skxor.studies import STUDIES
from skxor.studies import get_study
from skxor.studies._runner import split_settings

ROOT = Path(__file__).resolve().parents[2]
#: At most this many entries in any one legend.
MOST = 8


def _table(path):
    table = pd.read_csv(path, low_memory=False)
    return split_settings(table)[0][1] if "setting" in table else table


def _tables():
    # A study's quick reference table and stored run are optional (docs/architecture.rst):
    # each study is drawn from those it has.
    for name in STUDIES:
        quick = ROOT / "tests" / "data" / "quick_tables" / f"{name}.csv.gz"
        if quick.exists():
            yield pytest.param(name, quick, id=f"{name}-quick")
        published = sorted((ROOT / "docs" / "results" / "data" / name).glob(f"{name}.csv*"))
        if published:
            yield pytest.param(name, published[0], id=f"{name}-published")


@pytest.mark.parametrize(("name", "path"), list(_tables()))
def test_legends_are_short_and_every_entry_is_drawn(name, path):
    figures = get_study(name).render("figures", _table(path))
    assert figures
    for figure_name, figure in figures.items():
        try:
            assert_legends_short_and_drawn(figure, most=MOST)
        except AssertionError as error:
            raise AssertionError(f"{name} figure {figure_name!r}: {error}") from None


def test_the_check_fails_on_a_long_legend_and_on_an_undrawn_entry():
    from matplotlib.figure import Figure

    fig = Figure()
    ax = fig.subplots()
    for i in range(MOST + 1):
        ax.plot([0, 1], [i, i], label=f"series {i}")
    ax.legend()
    with pytest.raises(AssertionError, match="a legend of 9 entries"):
        assert_legends_short_and_drawn(fig, most=MOST)

    # A run that stopped at its first check: one point, drawn as a line without markers.
    fig = Figure()
    ax = fig.subplots()
    ax.plot([0, 1], [1, 0], color="C0", label="N = 8")
    ax.plot([50], [0.7], color="C1", label="N = 4")
    ax.legend()
    assert unmatched_legend_entries(fig) == ["N = 4"]

    # A black key entry for coloured lines matches nothing drawn.
    from matplotlib.lines import Line2D

    fig = Figure()
    ax = fig.subplots()
    ax.plot([0, 1], [1, 0], color="C0", ls="--")
    ax.legend(handles=[Line2D([], [], color="black", ls="--")], labels=["flat at the budget"])
    assert unmatched_legend_entries(fig) == ["flat at the budget"]
    assert len(all_legends(fig)) == 1
