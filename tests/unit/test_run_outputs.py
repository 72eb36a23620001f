"""A run writes its table, record, figures and report together or not at all (issue 48,
items 7, 13 and 15): a failing hook leaves the previous run's files as they were and
says so, a study file's headline and claims reach its report.md, and figure names
are checked before anything is written."""

import re
import textwrap

import matplotlib
import pytest
from matplotlib.figure import Figure

from skxor.cli import main
from skxor.studies import Claim, Grid, Study, run_studies
from skxor.studies._parameters import POSITIVE

matplotlib.use("Agg")


def together_cell(x, seed):
    return {"hit": (x + seed) % 2 == 0, "y": x * seed}


def _figure(table):
    fig = Figure()
    fig.subplots().plot(table["x"], table["y"], marker="o")
    return fig


def _study(**hooks):
    return Study(name="together", description="Hits.", cell=together_cell,
                 parameters={"x": [Grid(POSITIVE)], "seeds": [POSITIVE]},
                 presets={"quick": {"x": [1, 2], "seeds": 2}}, **hooks)


def _files(folder):
    """Every file a run leaves in ``folder`` (checkpoints and the lock aside), by content."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and "checkpoints" not in p.parts and p.name != "lock"}


def _small(table):
    # The hooks below work on the first run's 4 rows and fail on the second's 6.
    if len(table) > 4:
        raise ZeroDivisionError("the second run's table")


def _failing_figures(table):
    _small(table)
    return {"y": _figure(table)}


def _failing_summary(table):
    _small(table)
    return table.groupby("x", as_index=False)["hit"].mean()


def _failing_report(table):
    _small(table)
    return "## Hits\n\nsome hits"


def _failing_headline(table):
    _small(table)
    return "**Hits**: some"


def _failing_rule(table):
    _small(table)
    return {"value": f"{int(table['hit'].sum())} hits", "verdict": "reproduced"}


_CLAIM = dict(id="T1", paper="Me", source="notes", name="hits", paper_setting="any",
              statement="hits happen")
HOOKS = {
    "figures": dict(figures=_failing_figures),
    "summary": dict(summary=_failing_summary, figures=lambda table: {"y": _figure(table)}),
    "report": dict(report=_failing_report, figures=lambda table: {"y": _figure(table)}),
    "headline": dict(headline=_failing_headline),
    "claim rule": dict(claims=(Claim(rule=_failing_rule, **_CLAIM),)),
}


@pytest.mark.parametrize("hooks", HOOKS.values(), ids=HOOKS.keys())
def test_a_failing_hook_leaves_the_previous_run_as_it_was(tmp_path, hooks):
    # Before: the merged table (6 rows) was already written when the figures or summary
    # hook failed, while its run record still gave 4 rows and the old checksum, and
    # report.md described the previous run.
    study = _study(**hooks)
    run_studies([study], out_dir=tmp_path, echo=None, progress=False)
    before = _files(tmp_path)
    assert {"together.csv", "together.run.json", "report.md"} <= set(before)
    with pytest.raises(Exception, match="the second run's table") as info:
        run_studies([study], out_dir=tmp_path, echo=None, progress=False,
                    overrides={"together": {"seeds": 3}})
    assert _files(tmp_path) == before  # the table, record, figures and report untouched
    note = " ".join(getattr(info.value, "__notes__", []))
    assert "nothing was written" in note and "as the previous run left them" in note
    assert not list(tmp_path.glob(".*.tmp"))  # no temporary left behind
    # Fixed, the same command writes the new set, from the checkpointed cells.
    fixed = _study()
    run_studies([fixed], out_dir=tmp_path, echo=None, progress=False,
                overrides={"together": {"seeds": 3}})
    assert (tmp_path / "together.csv").read_text().count("\n") == 7


def test_a_failing_hook_is_one_error_line_that_says_nothing_was_written(tmp_path, capsys):
    path = tmp_path / "hits.py"
    path.write_text(textwrap.dedent('''
        from skxor.studies import Grid, Study
        from skxor.studies._parameters import POSITIVE

        def cell(x, seed):
            return {"hit": (x + seed) % 2 == 0}

        def figures(table):
            if len(table) > 4:
                raise RuntimeError("no figure for 6 rows")
            return {}

        STUDY = Study(name="hits", description="d", cell=cell, figures=figures,
                      parameters={"x": [Grid(POSITIVE)], "seeds": [POSITIVE]},
                      presets={"quick": {"x": [1, 2], "seeds": 2}})
    '''))
    out = tmp_path / "out"
    assert main(["run", str(path), "--out", str(out), "--no-progress"]) == 0
    before = _files(out)
    capsys.readouterr()
    code = main(["run", str(path), "--out", str(out), "--no-progress", "--set", "seeds=3"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert err.startswith("skxor: error: ") and "no figure for 6 rows" in err
    assert "nothing was written" in err
    assert _files(out) == before


# -- figure names (issue 48.15) ---------------------------------------------------------


@pytest.mark.parametrize("names, message", [
    (["../escape"], "'../escape'"), (["a/b"], "'a/b'"), ([""], "''"),
    (["with space"], "'with space'"), ([".hidden"], "'.hidden'"), (["x.png"], "'x.png'"),
    (["rates", "Rates"], "'Rates' and 'rates'"),
], ids=["parent", "slash", "empty", "space", "dot", "suffix", "same but for case"])
def test_figure_names_that_are_not_plain_names_are_refused(tmp_path, names, message):
    # Before: "../escape" wrote together_../escape.png outside the folder's name scheme
    # (or failed with a FileNotFoundError after the table was written); "rates" and
    # "Rates" overwrite each other on a case-insensitive file system.
    study = _study(figures=lambda table: {name: _figure(table) for name in names})
    with pytest.raises(ValueError, match=re.escape(message)) as info:
        run_studies([study], out_dir=tmp_path, echo=None, progress=False)
    assert "study 'together'" in str(info.value) and "figure name" in str(info.value)
    assert not (tmp_path / "together.csv").exists()
    assert not list(tmp_path.rglob("*.png"))


# -- a study file's headline and claims (issue 48.13) ----------------------------------

FILE = '''
from skxor.studies import Claim, Grid, Study, judged, rate_part
from skxor.studies._parameters import POSITIVE


def cell(x, seed):
    return {"hit": True}


def hits_rule(table):
    part = rate_part("all", table["hit"], table["seed"], "with high probability")
    return judged([part], units=f"{table['seed'].nunique()} seeds")


def broken_rule(table):
    return {"value": str(1 / 0), "verdict": "reproduced"}


def headline(table):
    return f"**Hits**: {int(table['hit'].sum())} of {len(table)} runs hit."


STUDY = Study(name="hits", description="d", cell=cell, headline=headline,
              parameters={"x": [Grid(POSITIVE)], "seeds": [POSITIVE]},
              presets={"quick": {"x": [1, 2], "seeds": 15}},
              claims=(Claim(id="U1", paper="Me", source="notes", name="it hits",
                            paper_setting="any", statement="every run hits",
                            rule=RULE),))
'''


def test_a_study_files_headline_and_claims_reach_its_report(tmp_path, capsys):
    # Before: report.md held no Summary section at all for a study file: its headline
    # was never rendered and its claim rules never called.
    path = tmp_path / "hits.py"
    path.write_text(FILE.replace("RULE", "hits_rule"))
    out = tmp_path / "out"
    assert main(["run", str(path), "--out", str(out), "--no-progress"]) == 0
    report = (out / "report.md").read_text()
    assert "## Summary" in report
    bullet = next(line for line in report.splitlines() if line.startswith("* **hits**"))
    assert "U1 it hits: **reproduced**" in bullet
    assert "**Hits**: 30 of 30 runs hit." in bullet
    # The bullet stays when another study's run rebuilds the report.
    other = tmp_path / "other.py"
    other.write_text(FILE.replace("RULE", "hits_rule").replace('name="hits"', 'name="other"')
                     .replace('id="U1"', 'id="U2"'))
    assert main(["run", str(other), "--out", str(out), "--no-progress"]) == 0
    assert bullet in (out / "report.md").read_text()


def test_an_error_in_a_study_files_claim_rule_is_one_clear_line(tmp_path, capsys):
    path = tmp_path / "hits.py"
    path.write_text(FILE.replace("RULE", "broken_rule"))
    out = tmp_path / "out"
    code = main(["run", str(path), "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "claim U1 of study 'hits' (its rule broken_rule) failed: ZeroDivisionError" in err
    assert not (out / "hits.csv").exists() and not (out / "report.md").exists()
