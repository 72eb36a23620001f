"""A quick design decides what it can, and says "not decided by this design" elsewhere (issue 50.6).

Before: ``skxor reproduce`` printed "not reproduced" for K5 from one network
and "not tested" for H1 (the quick m below its regime m >= 64); report.md's
Summary gave no hint that the stored full run decides those claims.
"""

import gzip
from pathlib import Path

import pandas as pd
import pytest

from skxor.cli import main
from skxor.papers.han_ghoshdastidar.one_step import PRESETS as ONE_STEP_PRESETS
from skxor.papers.han_ghoshdastidar.one_step._rules import HELD_OUT_SHARE, M_REGIME
from skxor.papers.han_ghoshdastidar.one_step._simulated import _synthetic
from skxor.studies import STUDIES
from skxor.studies.claims import (NOT_DECIDED, Claim, claim_rows, judged, rate_part,
                                  units_to_decide)

QUICK_TABLES = Path(__file__).resolve().parents[1] / "data" / "quick_tables"


def _verdicts(name, table):
    rows = claim_rows({name: {"table": table, "path": None, "record": None}},
                      {name: STUDIES[name]})
    return dict(zip(rows["id"], rows["verdict"]))


def _quick(name):
    with gzip.open(QUICK_TABLES / f"{name}.csv.gz") as f:
        return pd.read_csv(f)


def test_a_part_on_fewer_units_than_the_claim_needs_is_not_decided():
    # 0/3 networks: the interval [0, 0.56] is "not reproduced" at "with high probability",
    # but 3 networks could never give "reproduced" (3/3 is [0.44, 1]): no verdict.
    part = rate_part("N = 10", [False] * 3, range(3), "with high probability",
                     unit="networks")
    assert part.verdict == "not reproduced" and part.n_units == 3
    row = judged([part], min_units=units_to_decide("with high probability"))
    assert row["verdict"] == NOT_DECIDED
    assert "3 of the 9 units needed to decide" in row["value"]
    # Enough units: the same rule decides.
    many = rate_part("N = 10", [False] * 9, range(9), "with high probability")
    assert judged([many], min_units=9)["verdict"] == "not reproduced"
    # A decided part still decides the claim beside an undecided one.
    assert judged([part, rate_part("N = 4", [True] * 9, range(9), "with high probability")],
                  min_units=9)["verdict"] == "reproduced"


def test_the_claims_minimum_reaches_its_rule_through_the_claims_table():
    def rule(table):
        return judged([rate_part("all", table["hit"], table["seed"], "with high probability",
                                 unit="networks")])

    table = pd.DataFrame({"hit": [False] * 3, "seed": range(3)})
    store = {"tiny": {"table": table, "path": None, "record": None}}
    verdict = {}
    for minimum in (0, 9):
        claim = Claim(id="U9", paper="Me", source="notes", name="n", paper_setting="s",
                      statement="t", rule=rule, min_units=minimum)
        study = type("S", (), {"claims": (claim,), "summary": staticmethod(lambda t: t),
                               "render": staticmethod(lambda hook, t, s: hook(t))})
        verdict[minimum] = claim_rows(store, {"tiny": study})["verdict"].iloc[0]
    assert verdict == {0: "not reproduced", 9: NOT_DECIDED}
    with pytest.raises(ValueError, match="min_units must be an int >= 0"):
        Claim(id="U9", paper="Me", source="notes", name="n", paper_setting="s",
              statement="t", rule=rule, min_units=-1)


def test_k5_on_the_quick_table_is_not_decided_from_one_network():
    # Before: "not reproduced" from 0/1 non-constant networks at N = 10.
    assert _verdicts("zero_sensitivity_bound", _quick("zero_sensitivity_bound"))["K5"] \
        == NOT_DECIDED


def test_the_quick_one_step_preset_lies_in_h1s_regime_with_enough_seeds():
    quick = ONE_STEP_PRESETS["quick"]
    assert min(quick["m"]) >= M_REGIME
    reported = quick["seeds"] - max(1, int(quick["seeds"] * HELD_OUT_SHARE))
    assert reported >= units_to_decide("with high probability")


def test_h1_from_a_quick_sized_table_in_the_regime_is_decided():
    # The quick design (d = 1e2, 1e3, 1e4; m = 64, 128; 16 seeds) at the stored run's
    # softmax success rates in the regime (0.99 at step lengths 100 and 1000, 0.4 at 10).
    quick = ONE_STEP_PRESETS["quick"]
    rates = {1.0: 0.0, 10.0: 0.4, 100.0: 0.99, 1000.0: 0.99}
    table = _synthetic(lambda a, d, m, s: rates[s], d=quick["d"], m=quick["m"],
                       seeds=quick["seeds"], step_length=tuple(rates))
    assert _verdicts("one_step", table)["H1"] == "reproduced"
    # And a quick-sized table where softmax fails at d = 10 000 is not reproduced.
    failing = _synthetic(lambda a, d, m, s: 0.0 if d >= 10000 else rates[s], d=quick["d"],
                         m=quick["m"], seeds=quick["seeds"], step_length=tuple(rates))
    assert _verdicts("one_step", failing)["H1"] == "not reproduced"


def test_the_quick_reference_tables_decide_h1_and_k1():
    # The tables `skxor reproduce` wrote with the quick presets (before: H1 "not tested",
    # K1 "inconclusive" from 1 to 6 non-constant networks per N).
    assert _verdicts("one_step", _quick("one_step"))["H1"] == "reproduced"
    assert _verdicts("random_init_sensitivity",
                     _quick("random_init_sensitivity"))["K1"] == "reproduced"


STUDY_FILE = '''
from skxor.studies import POSITIVE, Claim, Grid, Study, judged, rate_part
from skxor.studies.claims import units_to_decide


def cell(x, seed):
    return {"hit": x == 2}


def rule(table):
    return judged([rate_part("all", table["hit"], table["seed"], "with high probability",
                             unit="networks")])


STUDY = Study(name="hits_design", description="d", cell=cell,
              parameters={"x": [Grid(POSITIVE)], "seeds": [POSITIVE]},
              presets={"quick": {"x": [1], "seeds": 3}, "full": {"x": [2], "seeds": 12}},
              claims=(Claim(id="U1", paper="Me", source="notes", name="it hits",
                            paper_setting="any", statement="every run hits", rule=rule,
                            min_units=units_to_decide("with high probability")),))
'''


def _bullet(out):
    report = (out / "report.md").read_text()
    return next(line for line in report.splitlines() if line.startswith("* **hits_design**"))


def test_the_summary_points_an_undecided_claim_at_the_stored_verdict(tmp_path, monkeypatch):
    path = tmp_path / "hits_design.py"
    path.write_text(STUDY_FILE)
    store = tmp_path / "store"
    monkeypatch.setattr("skxor.studies._publish.stored_data_dir", lambda: store)
    quick = tmp_path / "quick"
    # No stored run: the Summary says so.
    assert main(["run", str(path), "--out", str(quick), "--no-progress"]) == 0
    assert ("U1 it hits: **not decided by this design**; decided by the full preset (no "
            "stored run") in _bullet(quick)
    # The stored full run (12 seeds, all hit) decides: its verdict stands beside.
    assert main(["run", str(path), "--preset", "full", "--out", str(store / "hits_design"),
                 "--no-progress"]) == 0
    assert "U1 it hits: **reproduced**" in _bullet(store / "hits_design")
    assert main(["run", str(path), "--out", str(tmp_path / "again"), "--no-progress"]) == 0
    assert ("U1 it hits: **not decided by this design**; decided by the full preset "
            "(stored verdict: **reproduced**)") in _bullet(tmp_path / "again")
