"""Every study's quick-preset table is what it was before the Study API refactor.

``tests/data/quick_tables/<study>.csv.gz`` hold the tables that ``skxor
reproduce`` wrote at commit 43601b0, before the studies were moved onto the
public Study API and split into packages. A refactor must not change one
value: the tables are compared exactly, except the timing columns (wall
seconds of a cell, which no two runs share).

Regenerate the reference only for a deliberate change of a study's results:
``skxor reproduce --out DIR`` and ``gzip -9 -n -c DIR/NAME.csv >
tests/data/quick_tables/NAME.csv.gz``, with the reason in the commit.
"""

from pathlib import Path

import pandas as pd
import pytest

from skxor.studies import STUDIES, run_studies

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "quick_tables"
#: Columns that hold measured time: they differ between any two runs.
TIMING = ("seconds", "floor_seconds")

pytestmark = pytest.mark.slow


def test_every_study_has_a_reference():
    assert sorted(p.name.removesuffix(".csv.gz") for p in REFERENCE.glob("*.csv.gz")) \
        == sorted(STUDIES)


@pytest.mark.parametrize("name", sorted(p.name.removesuffix(".csv.gz")
                                        for p in REFERENCE.glob("*.csv.gz")))
def test_quick_table_is_bit_identical(name, tmp_path):
    run_studies([name], preset="quick", out_dir=tmp_path, progress=False,
                echo=lambda *args: None)
    computed = pd.read_csv(tmp_path / f"{name}.csv")
    stored = pd.read_csv(REFERENCE / f"{name}.csv.gz")
    computed = computed.drop(columns=[c for c in TIMING if c in computed])
    stored = stored.drop(columns=[c for c in TIMING if c in stored])
    # Same columns in the same order, same rows, every value exactly equal.
    assert list(computed.columns) == list(stored.columns)
    pd.testing.assert_frame_equal(computed, stored, check_exact=True)
