"""The page ``report.md``: long tables folded, and the glossary of the reports' terms.

The studies' sections (:mod:`skxor.studies.reporting`) are gathered into
``report.md`` by the runner and into the published pages by ``skxor
publish``; both fold long tables the same way and close with one glossary.
"""

from .reporting import section

#: A Markdown table longer than this many rows is collapsed (``<details>``).
COLLAPSE_ROWS = 12


def collapse_long_tables(markdown, most=COLLAPSE_ROWS):
    """``markdown`` with every table of more than ``most`` rows folded in ``<details>``.

    The table stays in the text (a reader opens it with one click; Sphinx's
    MyST and GitHub both render it), led by a line saying how many rows it
    holds.

    Examples
    --------
    >>> from skxor.studies._page import collapse_long_tables
    >>> table = "| x |\\n|--:|\\n" + "\\n".join(f"| {i} |" for i in range(3))
    >>> print(collapse_long_tables("Before.\\n\\n" + table + "\\n\\nAfter.", most=2))
    Before.
    <BLANKLINE>
    <details><summary>Table of 3 rows (click to open)</summary>
    <BLANKLINE>
    | x |
    |--:|
    | 0 |
    | 1 |
    | 2 |
    <BLANKLINE>
    </details>
    <BLANKLINE>
    After.
    >>> collapse_long_tables(table, most=3) == table
    True
    """
    lines = markdown.split("\n")
    out, i = [], 0
    while i < len(lines):
        j = i
        while j < len(lines) and lines[j].startswith("|"):
            j += 1
        if j == i:
            out.append(lines[i])
            i += 1
            continue
        block = lines[i:j]
        rows = len(block) - 2  # the header and the alignment line
        if rows > most:
            out += [f"<details><summary>Table of {rows} rows (click to open)</summary>", "",
                    *block, "", "</details>"]
        else:
            out += block
        i = j
    return "\n".join(out)


#: The terms of the studies' reports, defined once (report.md's glossary).
GLOSSARY = (
    ("Wilson 95% interval", "`0.80 [0.49, 0.94]`: a rate and the interval that covers the "
     "true rate with 95% confidence, over the independent units named (usually the seeds)."),
    ("floor", "the unavoidable work of a run (its fits, gradient steps or profiles, timed "
     "as the run made them); *ratio* is the wall time over the floor per worker, how much "
     "the run spent beyond that work."),
    ("design-effect sample size", "when runs share a seed's draws (pooled over m or d), "
     "they are not independent: the number of independent units an interval is computed "
     "over is then the seeds, not the runs (the seed-clustered interval)."),
    ("`_Data: ...` lines", "under a table or figure: which rows of `<study>.csv` it was "
     "computed from (the setting, how many rows, cells and seeds)."),
    ("setting", "the parameters a run shares across its cells (`n_test`, step lengths...); "
     "rows of different settings are never pooled."),
    ("preset", "`quick` (minutes, rough: few seeds) or `full` (the runs the documentation "
     "publishes)."),
    ("verdict", "reproduced, not reproduced or inconclusive, by the rule of each claim "
     "(docs/results/claims.rst states the rules)."),
)


def glossary_section():
    """The ``## Glossary`` section of report.md: each term of :data:`GLOSSARY` once.

    Examples
    --------
    >>> from skxor.studies._page import glossary_section
    >>> print(glossary_section().split("\\n")[2])
    * **Wilson 95% interval**: `0.80 [0.49, 0.94]`: a rate and the interval that covers the true rate with 95% confidence, over the independent units named (usually the seeds).
    """
    return section("Glossary", "\n".join(f"* **{term}**: {text}" for term, text in GLOSSARY))
