"""The claims table's rows where a claim has no stored run, an empty one, or a rule that fails.

Written against mutants of ``claim_rows`` that survived a sampled mutation run
(issue 48; docs/mutation.rst, "Sixth run"): each test states a property of the
row a user reads on the claims page, not a line of the code.
"""

import functools

import pandas as pd
import pytest

from skxor.studies import Claim, Grid, Study, claims_table
from skxor.studies.claims import count, rate_verdict
from skxor.studies._parameters import POSITIVE


def coin_cell(x, seed):
    return {"heads": (x + seed) % 3 != 0}


def _heads_rule(table):
    text, (_, low, high) = count(int(table["heads"].sum()), len(table), "tosses")
    return dict(value=f"heads in {text}", verdict=rate_verdict(low, high))


def _study(rule=_heads_rule, **declared):
    claim = Claim(id="U3", paper="A. Tosser", source="notes", name="coins land heads",
                  paper_setting="fair-ish coins", statement="most tosses land heads",
                  rule=rule, **declared)
    return Study(name="coins_rows", description="Coins.", cell=coin_cell,
                 parameters={"x": [Grid(POSITIVE)], "seeds": [POSITIVE]},
                 presets={"quick": {"x": [1, 2], "seeds": 3}}, claims=(claim,))


RECORD = {"preset": "quick", "matches_preset": True}


def test_a_claim_without_a_stored_run_is_listed_not_tested_with_its_declaration():
    study = _study()
    row = claims_table({}, {study.name: study}).set_index("id").loc["U3"]
    # What the claim declares, as declared; what it leaves out, a dash.
    assert row["statement"] == "most tosses land heads"
    assert row["paper_setting"] == "fair-ish coins"
    assert (row["strength"], row["regime"], row["rule"], row["contradicted_by"]) == \
        ("-", "-", "-", "-")
    # Nothing measured: not tested, with no units, setting or preset to show.
    assert (row["value"], row["judged"], row["verdict"]) == \
        ("no stored run", "no stored run", "not tested")
    assert (row["ours"], row["units"], row["preset"]) == ("-", "-", "-")


def test_what_a_claim_declares_reaches_its_row():
    study = _study(strength="with high probability", regime="every x",
                   rule_text="heads in most tosses", contradicted_by="tails in most")
    row = claims_table({}, {study.name: study}).set_index("id").loc["U3"]
    assert (row["strength"], row["regime"], row["rule"], row["contradicted_by"]) == \
        ("with high probability", "every x", "heads in most tosses", "tails in most")


def test_an_empty_stored_table_is_not_tested_and_names_the_run_it_came_from(tmp_path):
    study = _study()
    store = {study.name: {"table": pd.DataFrame(columns=["x", "seed", "heads"]),
                          "record": RECORD, "path": tmp_path / "coins_rows.csv"}}
    row = claims_table(store, {study.name: study}).set_index("id").loc["U3"]
    assert (row["value"], row["judged"], row["verdict"]) == \
        ("the stored table holds no rows", "the stored table holds no rows", "not tested")
    assert row["preset"] == "quick"


def test_a_judged_row_names_the_preset_of_its_stored_run(tmp_path):
    study = _study()
    table = study.run()
    store = {study.name: {"table": table, "record": RECORD, "path": tmp_path / "t.csv"}}
    row = claims_table(store, {study.name: study}).set_index("id").loc["U3"]
    assert row["verdict"] in ("reproduced", "not reproduced", "inconclusive")
    assert row["preset"] == "quick"
    overridden = dict(RECORD, matches_preset=False)
    store[study.name]["record"] = overridden
    row = claims_table(store, {study.name: study}).set_index("id").loc["U3"]
    assert row["preset"] == "quick with overrides"


def test_the_claims_table_of_no_claims_has_the_columns_of_one_with_claims():
    study = _study()
    some = claims_table({}, {study.name: study})
    none = claims_table({}, {})
    assert none.empty and list(none.columns) == list(some.columns)


def test_a_rule_that_raises_is_named_with_its_claim_in_one_value_error(tmp_path):
    def broken_heads(table):
        return {"value": f"{1 / 0}", "verdict": "reproduced"}

    study = _study(rule=broken_heads)
    store = {study.name: {"table": study.run(), "record": RECORD, "path": tmp_path / "t.csv"}}
    with pytest.raises(ValueError, match=r"claim U3 of study 'coins_rows' \(its rule "
                                         r"broken_heads\) failed: ZeroDivisionError"):
        claims_table(store, {study.name: study})


def test_a_rule_without_a_name_is_named_by_its_repr(tmp_path):
    # A claim's rule may be any callable: a functools.partial has no __name__.
    def scaled(table, scale):
        return {"value": f"{scale / 0}", "verdict": "reproduced"}

    study = _study(rule=functools.partial(scaled, scale=2))
    store = {study.name: {"table": study.run(), "record": RECORD, "path": tmp_path / "t.csv"}}
    with pytest.raises(ValueError, match=r"claim U3 of study 'coins_rows' \(its rule "
                                         r"functools\.partial\(.*scaled.*\) failed: "
                                         r"ZeroDivisionError"):
        claims_table(store, {study.name: study})


def test_unknown_keys_of_any_type_are_named_not_sorted_into_a_type_error(tmp_path):
    def extra_keys(table):
        return {"value": "v", "verdict": "reproduced", 1: "one", "note": "two"}

    study = _study(rule=extra_keys)
    store = {study.name: {"table": study.run(), "record": RECORD, "path": tmp_path / "t.csv"}}
    with pytest.raises(ValueError, match=r"returned unknown key\(s\) \[1, 'note'\]"):
        claims_table(store, {study.name: study})


@pytest.mark.parametrize("result, error, message", [
    ({"value": "v", "verdict": "reproduced", "id": "H1"}, ValueError,
     r"returned \['id'\], which the claims table takes from the claim and the store"),
    ({}, ValueError, r"returned no 'value' and no 'verdict'; a rule returns the measured "
                     r"'value' and its 'verdict'\.$"),
    ({"value": 0.5, "verdict": "reproduced"}, TypeError,
     r"its 'value' must be a str; it returned float \(0\.5\)\.$"),
], ids=["identity", "neither value nor verdict", "value not text"])
def test_what_is_wrong_with_a_rules_result_is_said_in_full(result, error, message, tmp_path):
    study = _study(rule=lambda table: result)
    store = {study.name: {"table": study.run(), "record": RECORD, "path": tmp_path / "t.csv"}}
    with pytest.raises(error, match=r"claim U3 of study 'coins_rows' \(its rule <lambda>\):? "
                                    + message):
        claims_table(store, {study.name: study})


def test_a_stored_table_its_summary_cannot_read_names_the_file_and_the_study(tmp_path):
    def heads_by_x(table):
        return table.groupby("x", as_index=False)["heads"].mean()

    study = Study(name="coins_rows", description="Coins.", cell=coin_cell,
                  parameters={"x": [Grid(POSITIVE)], "seeds": [POSITIVE]},
                  presets={"quick": {"x": [1, 2], "seeds": 3}}, summary=heads_by_x,
                  claims=_study().claims)
    table = study.run().drop(columns="heads")  # a stored table edited: its column gone
    path = tmp_path / "coins_rows.csv"
    store = {study.name: {"table": table, "record": RECORD, "path": path}}
    with pytest.raises(ValueError, match=rf"^{path} cannot be summarized as a coins_rows table"):
        claims_table(store, {study.name: study})


def test_a_rule_reading_a_column_the_table_lacks_names_the_file_and_the_study(tmp_path):
    def heads_count(table):
        return {"value": str(table["heads_count"].sum()), "verdict": "reproduced"}

    study = _study(rule=heads_count)
    path = tmp_path / "coins_rows.csv"
    store = {study.name: {"table": study.run(), "record": RECORD, "path": path}}
    with pytest.raises(ValueError, match=rf"\(its rule heads_count\) failed: ValueError: "
                                         rf"{path} cannot be summarized as a coins_rows table: "
                                         r"'heads_count'"):
        claims_table(store, {study.name: study})


def test_the_rule_gets_the_summary_computed_once_for_its_table(tmp_path):
    calls = []

    def heads_by_x(table):
        calls.append(len(table))
        return table.groupby("x", as_index=False)["heads"].mean()

    def from_summary(summary):
        return {"value": f"{len(summary)} settings", "verdict": "inconclusive"}

    base = _study(rule=from_summary)
    study = Study(name="coins_rows", description="Coins.", cell=coin_cell,
                  parameters={"x": [Grid(POSITIVE)], "seeds": [POSITIVE]},
                  presets={"quick": {"x": [1, 2], "seeds": 3}}, summary=heads_by_x,
                  claims=base.claims)
    table = study.run()
    store = {study.name: {"table": table, "record": RECORD, "path": tmp_path / "t.csv"}}
    calls.clear()
    row = claims_table(store, {study.name: study}).iloc[0]
    assert row["value"] == "2 settings" and calls == [len(table)]
