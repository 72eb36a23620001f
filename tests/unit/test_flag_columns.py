"""Every public summary of rates on flag columns that are not flags.

A success flag read from CSV can come back as text or with gaps: a missing
value is ``bool(nan) == True`` and the string "False" is true to Python,
so casting them to bool counted them as successes
(``rate_with_interval(pd.Series([True, nan, False, nan], dtype=object))``
gave 0.75). Each summary must refuse them, naming the column, or (the
default summary of a user's study) count missing values apart and say so.
"""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skxor.papers import summarize_bound, summarize_one_step
from skxor.papers.han_ghoshdastidar.k_sparse._summary import pooled_success, summarize_k_sparse
from skxor.papers.han_ghoshdastidar.one_step._summary import best_steps
from skxor.papers.kover.random_init._summary import summarize_random_init
from skxor.studies.reporting import summary_table
from skxor.studies.stats import as_flags, clustered_rate_interval, rate_with_interval
from skxor._utils._files import read_table

DATA = Path(__file__).resolve().parents[2] / "docs" / "results" / "data"

#: What is not a flag: missing values, strings that read as true, other numbers.
NOT_FLAGS = [np.nan, None, pd.NA, "False", "True", "0", "", 0.5, 2, -1.0]


def _stored(name, rows, where=None):
    path = next(p for p in (DATA / name).glob(f"{name}.csv*"))
    table = read_table(path)
    if where is not None:
        table = table[where(table)]
    return table.head(rows).reset_index(drop=True)


@pytest.fixture(scope="module")
def tables():
    return {
        "one_step": _stored("one_step", 300),
        "k_sparse": _stored("k_sparse", 300, lambda t: t["part"] == "steps"),
        "zero_sensitivity_bound": _stored("zero_sensitivity_bound", 200),
        "random_init_sensitivity": _stored(
            "random_init_sensitivity", 200, lambda t: t["function"] == "transformer"),
    }


#: (summary, table, a flag column it reads)
SUMMARIES = [
    (summarize_one_step, "one_step", "success"),
    (summarize_one_step, "one_step", "specialised"),
    (best_steps, "one_step", "success"),
    (summarize_k_sparse, "k_sparse", "success"),
    (pooled_success, "k_sparse", "success"),
    (summarize_k_sparse, "k_sparse", "limit_distinct"),
    (summarize_bound, "zero_sensitivity_bound", "has_zero"),
    (summarize_bound, "zero_sensitivity_bound", "constant"),
    (summarize_random_init, "random_init_sensitivity", "has_zero"),
    (summarize_random_init, "random_init_sensitivity", "constant"),
]


@pytest.mark.parametrize("summary, name, column", SUMMARIES,
                         ids=[f"{s.__name__}-{c}" for s, _, c in SUMMARIES])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.sampled_from(NOT_FLAGS), row=st.integers(0, 150))
def test_every_summary_refuses_what_is_not_a_flag(tables, summary, name, column, value, row):
    table = tables[name].copy()
    table[column] = table[column].astype(object)
    table.loc[row, column] = value
    with pytest.raises(ValueError, match=rf"\['{column}'\]"):
        summary(table)


def test_the_summaries_run_on_the_untouched_tables(tables):
    # The refusals above are for the bad value, not for the table.
    for summary, name, _ in SUMMARIES:
        assert len(summary(tables[name])) > 0


@given(flags=st.lists(st.sampled_from([True, False, 0, 1, 0.0, 1.0]), min_size=1),
       bad=st.sampled_from(NOT_FLAGS), at=st.integers(0, 50))
@settings(max_examples=60, deadline=None)
def test_rate_functions_refuse_one_bad_value_among_flags(flags, bad, at):
    values = np.array(flags, dtype=object)
    assert rate_with_interval(values)[0] == pytest.approx(np.mean([bool(v) for v in flags]))
    values = np.insert(values, at % (len(flags) + 1), bad)
    with pytest.raises(ValueError, match="flags"):
        rate_with_interval(values)
    with pytest.raises(ValueError, match="flags"):
        clustered_rate_interval(values, np.arange(values.size) % 3)
    with pytest.raises(ValueError, match="flags"):
        rate_with_interval(pd.Series(values))


def test_the_issue_reproducers():
    with pytest.raises(ValueError, match="2 missing value"):
        rate_with_interval(pd.Series([True, np.nan, False, np.nan], dtype=object))
    with pytest.raises(ValueError, match="'False'"):
        rate_with_interval(["False", "True"])
    with pytest.raises(ValueError, match="0.5"):
        rate_with_interval([0.5, 1.0])
    with pytest.raises(ValueError, match="missing label"):
        clustered_rate_interval([True, False, True], [0, np.nan, 1])
    assert as_flags(pd.Series([True, False], dtype="boolean")).tolist() == [True, False]
    with pytest.raises(ValueError, match="missing"):
        as_flags(pd.Series([True, None], dtype="boolean"))


def test_the_default_summary_counts_missing_flags_apart():
    table = pd.DataFrame({"x": [1, 1, 1, 2, 2], "seed": [0, 1, 2, 0, 1],
                          "reached": [True, np.nan, False, True, True]})
    summary = summary_table(table, ["x"]).set_index("x")
    # Rates over the rows that have the flag; the rest counted and shown apart.
    assert summary.loc[1, "reached_rate"] == 0.5 and summary.loc[1, "reached_missing"] == 1
    assert summary.loc[2, "reached_rate"] == 1.0 and summary.loc[2, "reached_missing"] == 0
    assert summary.loc[1, "rows"] == 3
    # Read back from CSV the column is object-typed with NaN: still a flag.
    import io
    back = read_table(io.StringIO(table.to_csv(index=False)))
    assert back["reached"].dtype == object
    assert summary_table(back, ["x"]).set_index("x").loc[1, "reached_missing"] == 1


@pytest.fixture(scope="module")
def training_table():
    return _stored("training_sensitivity", 360)


@pytest.mark.parametrize("value", NOT_FLAGS, ids=repr)
def test_the_training_summaries_refuse_what_is_not_a_flag(training_table, value):
    # censored_by_budget read `learned` with astype(bool): "False" and NaN were
    # runs that learned, so a failed run was neither a failure nor censored.
    from skxor.papers.kover.training import censored_by_budget, summarize_training

    table = training_table.copy()
    failed = int(np.flatnonzero(~table["learned"].to_numpy(bool))[0])
    table["learned"] = table["learned"].astype(object)
    table.loc[failed, "learned"] = value
    for summary in (censored_by_budget, summarize_training):
        with pytest.raises(ValueError, match=r"df\['learned'\]"):
            summary(table)


def test_the_training_summaries_read_0_and_1_as_flags(training_table):
    from skxor.papers.kover.training import censored_by_budget, summarize_training

    numbers = training_table.assign(learned=training_table["learned"].astype(int))
    assert censored_by_budget(numbers).equals(censored_by_budget(training_table))
    pd.testing.assert_frame_equal(summarize_training(numbers),
                                  summarize_training(training_table))
