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
