"""Count the papers' studies' reporting lines against their computing lines (issue 47).

Every module of a study package under ``skxor/papers/<paper>/<study>/`` has
one role, named by its file: ``<role>.py``, or ``<role>_<component>.py``
when a role is split one component per file (``_display_share.py`` is a
``_display`` module). The roles:

* reporting: ``_summary``, ``_section``, ``_display``, ``_bullet``,
  ``_wording``, ``_rules`` (summarise, report, draw, headline, word, judge);
* computing: ``_cells`` (the cells);
* simulating: ``_simulated`` (the tables a study's claims are tried on: the
  fixed tables where the paper holds and its counterfactuals, and
  ``simulate``, which draws tables at a design from the stored run's
  spread; written in the claims'-power round, after the issue's baseline
  of 8 719 : 1 486 was measured), counted apart and printed both ways;
* declaring: ``__init__`` (the ``Study`` declaration) and ``_presets``,
  counted on neither side.

A study module of no role stops the count (a split must not hide lines).
The ratio is the physical lines (as ``wc -l`` counts them: code,
docstrings, comments and blank lines) of the reporting modules over those
of the computing modules; ``--helpers`` also counts the domain helpers
beside the studies that compute cells (``_networks``, ``_profiling``,
``_head_scoring``, ``_common``) as computing.

The renderer modules are listed, largest first (``--all``: every one; else
the five largest): each study's ``_section``, ``_display`` and ``_bullet``
modules (split ones too) and every renderer module of the framework, those
that turn a summary into text or figures: ``reporting`` with
``_run_text``, ``figures`` with ``_study_display`` and ``_legends``, ``_page``
and ``_headline`` (``_publish``, which reads stored runs and writes the
pages from what these render, is the publishing pipeline, not a renderer).

Run from the repository root::

    python tools/count_reporting_lines.py [--helpers] [--all]
"""

import argparse
from pathlib import Path

PAPERS = Path("skxor/papers")
REPORTING = ("_summary", "_section", "_display", "_bullet", "_wording", "_rules")
COMPUTING = ("_cells",)
SIMULATING = ("_simulated",)
DECLARING = ("__init__", "_presets")
HELPERS = ("_networks", "_profiling", "_head_scoring", "_common")
RENDERERS = ("_section", "_display", "_bullet")
FRAMEWORK = Path("skxor/studies")
FRAMEWORK_RENDERERS = ("reporting", "_run_text", "figures", "_study_display", "_legends", "_page",
                       "_headline")


def lines(path):
    return len(Path(path).read_text().splitlines())


def role(path):
    """The role of a study module: the role its name is, or starts with followed by ``_``."""
    for name in REPORTING + COMPUTING + SIMULATING + DECLARING:
        if path.stem == name or path.stem.startswith(name + "_"):
            return name
    raise SystemExit(f"{path}: a study module of no role "
                     f"({', '.join(REPORTING + COMPUTING + SIMULATING + DECLARING)}): "
                     "name it <role>.py or <role>_<component>.py")


def count(helpers=False):
    """``(reporting lines, computing lines, simulating lines, {renderer path: lines})``."""
    studies = sorted(p.parent for p in PAPERS.glob("*/*/_cells.py"))
    modules = {path: role(path) for s in studies for path in sorted(s.glob("*.py"))}
    reporting = sum(lines(p) for p, r in modules.items() if r in REPORTING)
    computing = sum(lines(p) for p, r in modules.items() if r in COMPUTING)
    simulating = sum(lines(p) for p, r in modules.items() if r in SIMULATING)
    if helpers:
        computing += sum(lines(p) for m in HELPERS for p in PAPERS.rglob(f"{m}.py"))
    renderers = {str(p): lines(p) for p, r in modules.items() if r in RENDERERS}
    renderers.update({str(FRAMEWORK / f"{m}.py"): lines(FRAMEWORK / f"{m}.py")
                      for m in FRAMEWORK_RENDERERS})
    return reporting, computing, simulating, renderers


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--helpers", action="store_true",
                        help="count the domain helpers as computing lines too")
    parser.add_argument("--all", action="store_true", help="list every renderer module")
    args = parser.parse_args(argv)
    reporting, computing, simulating, renderers = count(args.helpers)
    print(f"reporting {reporting} : computing {computing} = {reporting / computing:.2f} "
          f"(simulating {simulating} apart; counted as reporting: "
          f"{(reporting + simulating) / computing:.2f})")
    listed = sorted(renderers.items(), key=lambda item: -item[1])
    for path, n in listed if args.all else listed[:5]:
        print(f"{n:5d} {path}")


if __name__ == "__main__":
    main()
