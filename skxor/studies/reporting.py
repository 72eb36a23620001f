"""The report text every study writes: sections, tables, rates, the run's preset and seeds.

One place for the Markdown scaffolding of ``report.md`` sections and
headline bullets, so that every study states its preset, seeds and
intervals the same way. The numbers come from :mod:`skxor.studies.stats`.
"""

import numpy as np
import pandas as pd

from ._floor import TIME_COLUMNS, timing_sentence
from ._hooks import hook_result
from ._run_text import preset_text, run_preset, run_text, seeds_text, values_text
from .stats import format_interval, rate_columns, rate_with_interval

__all__ = [
    "ROUGH_BELOW_SEEDS",
    "TIME_COLUMNS",
    "empty_section",
    "interval_table",
    "interval_texts",
    "markdown_table",
    "preset_text",
    "rate_text",
    "run_preset",
    "rough_text",
    "run_text",
    "section",
    "seeds_text",
    "study_section",
    "summary_table",
    "timing_sentence",
    "values_text",
]


#: Fewer independent seeds than this per setting: a headline calls its figures rough.
ROUGH_BELOW_SEEDS = 10


def section(title, *blocks):
    """A report section: ``## title``, then each non-empty block, blank lines between.

    Examples
    --------
    >>> from skxor.studies.reporting import section
    >>> print(section("Squares", "One paragraph.", "", "| x |\\n|---|"))
    ## Squares
    <BLANKLINE>
    One paragraph.
    <BLANKLINE>
    | x |
    |---|
    """
    return "\n\n".join([f"## {title}", *(str(b) for b in blocks if b)])


def empty_section(title, what="rows"):
    """The section of a study whose table holds nothing: ``## title`` and one sentence.

    Examples
    --------
    >>> from skxor.studies.reporting import empty_section
    >>> empty_section("Squares", "runs")
    '## Squares\\n\\nThe table holds no runs: nothing to report.'
    """
    return section(title, f"The table holds no {what}: nothing to report.")


def markdown_table(table, floatfmt=".3g", index=False):
    """``table`` as a Markdown table; ``"(no rows)"`` when it is empty.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies.reporting import markdown_table
    >>> print(markdown_table(pd.DataFrame({"x": [1.23456]})))
    |    x |
    |-----:|
    | 1.23 |
    >>> markdown_table(pd.DataFrame({"x": []}))
    '(no rows)'
    """
    if len(table) == 0:
        return "(no rows)"
    return table.to_markdown(index=index, floatfmt=floatfmt)


def interval_table(summary, digits=2):
    """``summary`` with each ``<c>_rate``, ``<c>_low``, ``<c>_high`` triple as one column ``<c>``.

    The column reads ``"0.80 [0.49, 0.94]"`` (:func:`format_interval`).

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies.reporting import interval_table
    >>> summary = pd.DataFrame({"d": [10], "success_rate": [0.8], "success_low": [0.49],
    ...                         "success_high": [0.94], "rows": [10]})
    >>> interval_table(summary).values.tolist()
    [[10, '0.80 [0.49, 0.94]', 10]]
    """
    table = summary.copy()
    for column in list(table.columns):
        if not column.endswith("_rate"):
            continue
        name = column[: -len("_rate")]
        low, high = f"{name}_low", f"{name}_high"
        if low not in table or high not in table:
            continue
        table[column] = interval_texts(table, column, digits=digits)
        table = table.drop(columns=[low, high]).rename(columns={column: name})
    return table


def interval_texts(table, column, low=None, high=None, *, counts=None, digits=2):
    """``column`` of each row of ``table`` with its interval: ``"0.80 [0.49, 0.94]"``.

    The shape of every rate or slope with its 95% interval in a report
    table or sentence (:func:`~skxor.studies.stats.format_interval`).

    Parameters
    ----------
    table : pandas.DataFrame
    column : str
        The value.
    low, high : str or None, default=None
        The columns of its interval; None: ``<stem>_low`` and
        ``<stem>_high``, ``<stem>`` being ``column`` less a ``_rate`` suffix
        (the names :func:`summary_table` writes).
    counts : tuple of (str, str) or None, default=None
        Columns of successes and runs, written before the value as
        ``"8/10 = "``.
    digits : int, default=2

    Returns
    -------
    texts : list of str

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies.reporting import interval_texts
    >>> table = pd.DataFrame({"success_rate": [0.8], "success_low": [0.49],
    ...                       "success_high": [0.94], "k": [8], "n": [10]})
    >>> interval_texts(table, "success_rate"), interval_texts(table, "success_rate",
    ...                                                        counts=("k", "n"))
    (['0.80 [0.49, 0.94]'], ['8/10 = 0.80 [0.49, 0.94]'])
    """
    stem = column.removesuffix("_rate")
    low, high = (f"{stem}_low" if low is None else low), (f"{stem}_high" if high is None else high)
    texts = [format_interval(r, lo, hi, digits)
             for r, lo, hi in table[[column, low, high]].to_numpy(dtype=float)]
    if counts is None:
        return texts
    return [f"{int(k)}/{int(n)} = {text}"
            for k, n, text in zip(table[counts[0]], table[counts[1]], texts)]


def rough_text(seeds, text="rough: "):
    """``text`` when ``seeds`` is below :data:`ROUGH_BELOW_SEEDS` (a headline's figures
    from so few seeds are rough), else ``""``.

    Examples
    --------
    >>> from skxor.studies.reporting import rough_text
    >>> rough_text(4), rough_text(10)
    ('rough: ', '')
    """
    return text if seeds < ROUGH_BELOW_SEEDS else ""


def summary_table(table, by, skip=()):
    """Per ``by`` group: each boolean (or 0/1) column as a rate with its Wilson 95% interval, each number as its mean.

    A flag column ``c`` becomes ``c_rate``, ``c_low`` and ``c_high`` (over
    the group's rows where it is not missing) and, when some rows lack it,
    ``c_missing`` (how many of the group's rows do: a missing flag counts
    as neither success nor failure); another numeric column ``c_mean``; ``rows`` counts the
    group's rows. The ``by`` and ``skip`` columns, ``seed``, ``setting`` and
    the timing columns are left out.

    Parameters
    ----------
    table : pandas.DataFrame
    by : list of str
        The columns of one group (none: the whole table is one group).
    skip : sequence of str, default=()
        Other columns to leave out (parameters, seeds).

    Returns
    -------
    summary : pandas.DataFrame

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies.reporting import summary_table
    >>> table = pd.DataFrame({"model": "ffnn", "d": 16, "seed": [0, 1],
    ...                       "reached": [True, False], "accuracy": [0.9, 0.7]})
    >>> summary_table(table, ["model", "d"]).iloc[0].to_dict()  # doctest: +ELLIPSIS
    {'model': 'ffnn', 'd': 16, 'reached_rate': 0.5, 'reached_low': 0.09..., 'reached_high': 0.90..., 'accuracy_mean': 0.8, 'rows': 2}
    """
    by = list(by)
    leave = {*by, *skip, "seed", "setting", *TIME_COLUMNS}
    results = [c for c in table.columns if c not in leave]
    rates = [c for c in results if _is_flag(table[c])]
    means = [c for c in results if c not in rates and pd.api.types.is_numeric_dtype(table[c])]
    rows = []
    for key, group in (table.groupby(by, sort=True, dropna=False) if by else [((), table)]):
        row = dict(zip(by, key if isinstance(key, tuple) else (key,)))
        for column in rates:
            # Missing flags are neither successes nor failures: counted apart.
            row.update(rate_columns(group[column].dropna(), column))
            if table[column].isna().any():
                row[f"{column}_missing"] = int(group[column].isna().sum())
        for column in means:
            row[f"{column}_mean"] = float(group[column].mean())
        row["rows"] = int(len(group))
        rows.append(row)
    return pd.DataFrame(rows)


def _is_flag(column):
    """Whether a column holds booleans or only 0 and 1 (a success flag), missing values aside."""
    if pd.api.types.is_bool_dtype(column):
        return True
    present = column.dropna()
    if len(present) == 0:
        return False
    if pd.api.types.is_numeric_dtype(present):
        return bool(present.isin([0, 1]).all())
    # An object column of booleans with gaps (a flag that some rows lack, read from CSV).
    return bool(present.map(lambda v: isinstance(v, (bool, np.bool_))).all())


def _summary_of(study, table, summary=None):
    summary = study.summary(table) if summary is None else summary
    return hook_result(study.name, "summary", summary, pd.DataFrame)


def study_section(study, table, summary=None):
    """A study's report section from its declaration: title, description, run, summary table.

    The section of a :class:`~skxor.studies.Study` that declares no
    ``report``: its ``summary`` as a Markdown table, rates with their
    Wilson 95% intervals (:func:`interval_table`). ``summary``: the study's
    ``summary(table)`` when the caller computed it; None: computed here.

    Examples
    --------
    >>> from skxor.studies import Grid, Study
    >>> from skxor.studies._parameters import POSITIVE
    >>> from skxor.studies.reporting import study_section
    >>> study = Study(
    ...     name="squares", description="Is x squared above 2?",
    ...     cell=lambda x, seed: {"above": x * x > 2, "square": x * x},
    ...     parameters={"x": [Grid(POSITIVE)], "seeds": [POSITIVE]},
    ...     presets={"quick": {"x": [1, 2], "seeds": 3}})
    >>> print(study_section(study, study.run()))
    ## squares
    <BLANKLINE>
    Is x squared above 2?
    <BLANKLINE>
    Run: quick preset, 3 seeds per cell.
    <BLANKLINE>
    Per x (rates: Wilson 95% intervals over the rows, the seeds; other columns: means):
    <BLANKLINE>
    |   x | above             |   square_mean |   rows |
    |----:|:------------------|--------------:|-------:|
    |   1 | 0.00 [0.00, 0.56] |             1 |      3 |
    |   2 | 1.00 [0.44, 1.00] |             4 |      3 |
    """
    if len(table) == 0:
        return empty_section(study.name)
    per = [k for k in study.key if k != "seed"]
    return section(
        study.name, study.description, run_text(table, study),
        f"Per {', '.join(per) or 'run'} (rates: Wilson 95% intervals over the rows, "
        "the seeds; other columns: means):",
        markdown_table(interval_table(_summary_of(study, table, summary))),
    )


def rate_text(flags):
    """``"3/4 = 0.75 [0.30, 0.95]"``: successes out of runs, with the Wilson 95% interval.

    Examples
    --------
    >>> from skxor.studies.reporting import rate_text
    >>> rate_text([True, True, True, False])
    '3/4 = 0.75 [0.30, 0.95]'
    """
    rate, low, high, n = rate_with_interval(flags)
    return f"{int(round(rate * n)) if n else 0}/{n} = {format_interval(rate, low, high)}"
