"""The summary handed on once (issue 33, item 3): the runner, ``skxor publish`` and the
claims table compute each study's summary once per setting and hand it to the report,
figures, headline and claims; the library's renderers format it, never recompute it."""

import ast
from numbers import Real
from pathlib import Path

import pytest
from matplotlib.figure import Figure
from sklearn.utils._param_validation import Interval

from skxor.studies import STUDIES
from skxor.studies import Claim, Grid, Study, run_studies
from skxor.studies.claims import claim_rows
from skxor.studies._parameters import POSITIVE
from skxor.studies.reporting import summary_table
from skxor.studies._study import _keywords

PACKAGES = Path(__file__).resolve().parents[2] / "skxor" / "papers"


def coin_cell(p, n_flips, seed):
    return {"heads": bool((seed * 7 + n_flips) % 10 < p * 10), "score": float(seed + p)}


def counting_study(calls, seen):
    """A user's study whose summary counts its calls; every renderer names ``summary``."""

    def summary(table):
        calls.append(len(table))
        return summary_table(table, ["p"], skip=["p", "n_flips", "seed"])

    def report(summary):
        seen.append("report")
        return "## coin\n\n" + summary.to_string(index=False)

    def figures(summary, table):  # both: the summary and the rows
        seen.append("figures")
        fig = Figure()
        fig.subplots().plot(summary["p"], summary["heads_rate"], "o", label=f"{len(table)}")
        return {"heads": fig}

    def headline(summary):
        seen.append("headline")
        return f"**Coin**: heads in {summary['heads_rate'].max():.2f} at most."

    def rule(summary):
        seen.append("rule")
        return dict(value=f"{summary['heads_rate'].min():.2f}", verdict="inconclusive")

    def old_rule(table):  # a rule written before the summary was handed on
        seen.append("old rule")
        return dict(value=f"{len(table)} rows", verdict="inconclusive")

    claims = [Claim(id=f"C{i}", paper="Me", source="notes", name="coin", paper_setting="-",
                    statement="-", rule=r) for i, r in enumerate([rule, rule, old_rule], 1)]
    return Study(
        name="coin", description="A coin.",
        parameters={"p": [Grid(Interval(Real, 0, 1, closed="both"))],
                    "n_flips": [POSITIVE], "seeds": [POSITIVE]},
        presets={"quick": {"p": [0.2, 0.8], "n_flips": 3, "seeds": 4}},
        cell=coin_cell, summary=summary, report=report, figures=figures,
        headline=headline, claims=claims)


def test_the_runner_computes_each_settings_summary_once(tmp_path, monkeypatch):
    calls, seen = [], []
    study = counting_study(calls, seen)
    monkeypatch.setitem(STUDIES, "coin", study)  # registered: report.md's Summary asks it
    run_studies([study], out_dir=tmp_path, echo=None, progress=False)
    # One setting: one summary, for the figures, the section and the Summary's
    # headline and claims.
    assert calls == [8]
    assert sorted(seen) == ["figures", "headline", "old rule", "report", "rule", "rule"]
    report = (tmp_path / "report.md").read_text()
    assert "**Coin**: heads in" in report and "C1 coin: **inconclusive**" in report
    del calls[:], seen[:]
    # A second setting: each setting's summary once (the new one for the figures and
    # the Summary too, the earlier one for its part of the section).
    run_studies([study], out_dir=tmp_path, echo=None, progress=False,
                overrides={"coin": {"n_flips": 5}})
    assert calls == [8, 8]
    assert seen.count("report") == 2 and seen.count("figures") == 1


def test_claims_and_publish_compute_a_stored_runs_summary_once(tmp_path, monkeypatch):
    from skxor.studies._publish import _headline, render_fragment

    calls, seen = [], []
    study = counting_study(calls, seen)
    monkeypatch.setitem(STUDIES, "coin", study)
    table = study.run()
    entry = {"table": table, "path": tmp_path / "coin.csv", "record": None}
    rows = claim_rows({"coin": entry}, {"coin": study})
    assert calls == [8] and rows["value"].tolist() == ["0.25", "0.25", "8 rows"]
    # The study's page (report, headline, claims) and the headline block reuse it.
    render_fragment("coin", entry)
    assert _headline({"coin": entry}).startswith("* **Coin**")
    assert calls == [8]


def test_an_entry_copied_with_another_table_gets_that_tables_summary():
    from skxor.studies.claims import stored_summary

    calls, seen = [], []
    study = counting_study(calls, seen)
    table = study.run()
    entry = {"table": table, "path": None}
    first = stored_summary(study, entry)
    assert stored_summary(study, entry) is first and calls == [8]
    cut = dict(entry, table=table[table["p"] < 0.5])  # the cached summary comes along
    assert len(stored_summary(study, cut)) == 1 and calls == [8, 4]


def test_a_hook_gets_the_keywords_it_names():
    calls, seen = [], []
    study = counting_study(calls, seen)
    table = study.run()
    summary = study.summary(table)
    assert study.render(lambda df: len(df), table, summary) == 8  # old style: the rows
    assert study.render(lambda summary: summary, table, summary) is summary
    assert study.render(lambda **kw: sorted(kw), table, summary) == ["summary", "table"]
    assert calls == [8]  # none of them recomputed it
    assert study.render(lambda summary: len(summary), table) == 2 and calls == [8, 8]


#: Per study package, the computations of its summary (``_summary.py``): a renderer
#: module calls none of them, only the package's one summary function, in the public
#: functions that take a table for users.
COMPUTATIONS = {
    "han_ghoshdastidar/one_step": {"checked", "summarize_one_step", "best_steps", "best_cells", "analysed",
                  "at_best"},
    "kover/flip_effect": {"summarize_flip_effect", "flip_slopes"},
    "han_ghoshdastidar/k_sparse": {"_steps", "_v1", "summarize_k_sparse", "pooled_success", "gradient_signal",
                  "gain_slopes", "summarize_v1"},
    "han_ghoshdastidar/parameter_scaling": {"parameter_slopes", "size_counts", "summarize_parameter_scaling",
                           "_samples_d_max"},
    "han_ghoshdastidar/sample_complexity": {"like_for_like", "_analysed", "_validated", "fit_exponents",
                           "n_star_per_seed", "samples_needed", "_is_rough", "_grid"},
    "kover/random_init": {"summarize_random_init", "drawn_networks", "paper_setting_table",
                     "eps_agreement", "network_rows"},
    "kover/training": {"summarize_training", "learned_up_to", "with_model_setting",
                  "series_columns"},
    "kover/zero_sensitivity_bound": {"summarize_bound", "bound_verdict", "drawn_summary"},
}
#: The renderer roles; a role split one component per file (``_display_share.py``)
#: is checked in every one of its modules.
RENDERERS = ("_section", "_display", "_bullet", "_rules")


def _called_names(path):
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            function = node.func
            names.add(function.id if isinstance(function, ast.Name)
                      else getattr(function, "attr", None))
    return names


@pytest.mark.parametrize("package", sorted(COMPUTATIONS))
def test_renderers_format_and_do_not_recompute(package):
    paths = [path for role in RENDERERS for path in sorted((PACKAGES / package).glob("*.py"))
             if path.stem == role or path.stem.startswith(role + "_")]
    assert {path.stem for path in paths} >= set(RENDERERS)
    for path in paths:
        called = _called_names(path) & COMPUTATIONS[package]
        assert not called, f"{package}/{path.name} recomputes {sorted(called)}: read the summary"


@pytest.mark.parametrize("package", sorted(COMPUTATIONS))
def test_the_study_hooks_are_the_summary_taking_renderers(package):
    study = next(s for s in STUDIES.values()
                 if s.report.__module__.startswith(f"skxor.papers.{package.replace('/', '.')}."))
    for hook in ("report", "figures", "headline"):
        # The summary, and options with defaults (the report's table format).
        takes = _keywords(getattr(study, hook))
        assert "summary" in takes and "table" not in takes, (package, hook)
    for claim in study.claims:
        assert _keywords(claim.rule) == {"summary"}, claim.id
