"""The framework's figure shapes refuse what they cannot draw from, by name."""

import pandas as pd
import pytest

from skxor.studies.figures import rows_where


def test_rows_where_picks_rows_by_value_and_names_a_missing_column():
    table = pd.DataFrame({"k": [2, 2, 3], "m": [8, 32, 32]})
    assert rows_where(table, k=2, m=32).index.tolist() == [1]
    assert rows_where(table, k=4).empty
    with pytest.raises(ValueError, match=r"no column \['d'\]"):
        rows_where(table, k=2, d=16)


def test_panel_grid_frames_every_panel_and_refuses_sizes_it_cannot_draw():
    from skxor.studies.figures import panel_grid

    figure, axes = panel_grid(2, 3, size=(4.0, 2.5), pad=(0.6, 0.4), sharey=True)
    assert axes.shape == (2, 3) and len(figure.axes) == 6
    assert figure.get_size_inches().tolist() == pytest.approx([12.6, 5.4])
    assert panel_grid(1, 1, size=(3, 2))[1].shape == (1, 1)  # always 2-D
    for size, pad, name in [((0, 1), (0, 0), "size"), ((1, 1), (-0.5, 0), "pad"),
                            ((1,), (0, 0), "size"), ((1, 1), (0, float("inf")), "pad")]:
        with pytest.raises(ValueError, match=f"panel_grid: {name} must be"):
            panel_grid(1, 1, size=size, pad=pad)
