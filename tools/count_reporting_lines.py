"""Count the papers' studies' reporting lines against their computing lines (issue 47).

Every study package under ``skxor/papers/<paper>/<study>/`` splits its code by
role: ``_cells.py`` computes the cells; ``_summary``, ``_section``,
``_display``, ``_bullet``, ``_wording`` and ``_rules`` summarise, report,
draw, headline, word and judge them. The ratio is the physical lines (as
``wc -l`` counts them: code, docstrings, comments and blank lines) of the
reporting modules over those of the computing modules; ``--helpers`` also
counts the domain helpers beside the studies that compute cells
(``_networks``, ``_profiling``, ``_head_scoring``, ``_common``) as computing.
The renderer modules (``_section``, ``_display``, ``_bullet`` and the
framework's ``reporting`` and ``figures``) are listed, largest first.

Run from the repository root::

    python tools/count_reporting_lines.py [--helpers]
"""

import argparse
from pathlib import Path

PAPERS = Path("skxor/papers")
REPORTING = ("_summary", "_section", "_display", "_bullet", "_wording", "_rules")
COMPUTING = ("_cells",)
HELPERS = ("_networks", "_profiling", "_head_scoring", "_common")
RENDERERS = ("_section", "_display", "_bullet")
FRAMEWORK_RENDERERS = ("skxor/studies/reporting.py", "skxor/studies/figures.py")


def lines(path):
    return len(Path(path).read_text().splitlines())


def count(helpers=False):
    """``(reporting lines, computing lines, {renderer path: lines})``."""
    studies = sorted(p.parent for p in PAPERS.glob("*/*/_cells.py"))
    reporting = sum(lines(s / f"{m}.py") for s in studies for m in REPORTING
                    if (s / f"{m}.py").exists())
    computing = sum(lines(s / f"{m}.py") for s in studies for m in COMPUTING)
    if helpers:
        computing += sum(lines(p) for m in HELPERS for p in PAPERS.rglob(f"{m}.py"))
    renderers = {str(s / f"{m}.py"): lines(s / f"{m}.py") for s in studies for m in RENDERERS
                 if (s / f"{m}.py").exists()}
    renderers.update({p: lines(p) for p in FRAMEWORK_RENDERERS})
    return reporting, computing, renderers


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--helpers", action="store_true",
                        help="count the domain helpers as computing lines too")
    args = parser.parse_args(argv)
    reporting, computing, renderers = count(args.helpers)
    print(f"reporting {reporting} : computing {computing} = {reporting / computing:.2f}")
    for path, n in sorted(renderers.items(), key=lambda item: -item[1])[:5]:
        print(f"{n:5d} {path}")


if __name__ == "__main__":
    main()
