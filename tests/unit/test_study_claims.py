"""Claims are declared by the study whose runs test them (issue 33, item 2)."""

import functools
import shutil
from pathlib import Path

import pandas as pd
import pytest

from skxor.studies import STUDIES
from skxor.studies import Claim, Grid, Study, claims_table, register
from skxor.studies.claims import count, rate_verdict, declared_claims
from skxor.studies._parameters import POSITIVE
from skxor.studies._publish import CLAIMS_PAGE, DATA_DIR, render_documents

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = tuple(f"skxor.papers.{s}" for s in (
    "han_ghoshdastidar.one_step", "han_ghoshdastidar.sample_complexity",
    "han_ghoshdastidar.parameter_scaling", "han_ghoshdastidar.k_sparse", "kover.random_init",
    "kover.training", "kover.zero_sensitivity_bound", "kover.flip_effect"))


def coin_cell(x, seed):
    return {"heads": (x + seed) % 3 != 0}


def _heads_rule(table):
    text, (_, low, high) = count(int(table["heads"].sum()), len(table), "tosses")
    return dict(ours=f"x = {sorted(set(table['x']))}", value=f"heads in {text}",
                units=f"{len(table)} tosses", verdict=rate_verdict(low, high))


def _coin_study(name="coins_for_claims", claim_id="U1"):
    claim = Claim(id=claim_id, paper="A. Tosser", source="arXiv 0000.00000v1",
                  name="coins land heads", paper_setting="fair-ish coins",
                  statement="most tosses land heads", rule=_heads_rule)
    return Study(name=name, description="Coins.", cell=coin_cell,
                 parameters={"x": [Grid(POSITIVE)], "seeds": [POSITIVE]},
                 presets={"quick": {"x": [1, 2], "seeds": 3}}, claims=(claim,))


@pytest.fixture
def coins():
    study = register(_coin_study())
    yield study
    STUDIES.pop(study.name)


def test_every_library_claim_is_declared_in_its_study_package():
    # Old layout: eleven _claim_* functions in the shared skxor/studies/claims.py.
    source = (ROOT / "skxor/studies/claims.py").read_text()
    assert "def _claim_" not in source
    declared = {}
    for study, claim in declared_claims(STUDIES):
        package = ".".join(claim.rule.__module__.split(".")[:4])
        assert claim.rule.__module__ == f"{package}._rules", claim.id
        assert package.startswith("skxor.papers."), claim.id
        assert STUDIES[study].cell.__module__.startswith(package), claim.id
        declared[claim.id] = package
    assert sorted(declared) == ["H1", "H2", "H3", "H4", "H5", "H6", "K1", "K2", "K3", "K4",
                                "K5", "K6"]
    assert set(declared.values()) == set(LIBRARY)


def test_a_claim_is_checked_when_declared():
    with pytest.raises(TypeError, match="rule must be a function"):
        Claim(id="U1", paper="p", source="s", name="n", paper_setting="x", statement="y",
              rule="reproduced")
    with pytest.raises(TypeError, match="claims must be skxor.studies.Claim"):
        Study(name="bad", description="d", cell=coin_cell,
              parameters={"x": [Grid(POSITIVE)], "seeds": [POSITIVE]},
              presets={"quick": {"x": [1], "seeds": 1}}, claims=("H1",))


def test_a_claim_id_taken_by_another_study_is_refused():
    with pytest.raises(ValueError, match=r"claim\(s\) \['H1'\], already declared by "
                                         r"\['one_step'\]"):
        register(_coin_study("coins_clash", "H1"))
    assert "coins_clash" not in STUDIES


def test_a_users_study_declares_claims_and_publish_shows_them(coins, tmp_path):
    table = coins.run()
    claims = claims_table({coins.name: {"table": table, "record": None, "path": tmp_path}})
    row = claims.set_index("id").loc["U1"]
    k = int(table["heads"].sum())
    assert row["value"].startswith(f"heads in {k}/6 tosses = ")
    _, (_, low, high) = count(k, 6, "tosses")
    assert row["study"] == coins.name and row["verdict"] == rate_verdict(low, high)
    # The documents skxor publish writes, from a store holding only the user's study.
    for name in ("README.md", "docs/results/measured.rst"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / DATA_DIR / coins.name).mkdir(parents=True)
    table.to_csv(tmp_path / DATA_DIR / coins.name / f"{coins.name}.csv", index=False)
    with pytest.raises(ValueError, match="has no run record"):  # unless said explicitly
        render_documents(root=tmp_path)
    documents = render_documents(root=tmp_path, without_record=True)
    assert f"{coins.name} (no run record); its numbers are tied to no recorded run" in \
        documents[tmp_path / CLAIMS_PAGE]
    page = documents[tmp_path / CLAIMS_PAGE]
    assert "   * - U1\n     - coins land heads (A. Tosser)\n     - **" + row["verdict"] in page
    assert ":Claim: coins land heads (A. Tosser, arXiv 0000.00000v1)" in page
    assert f"heads in {k}/6 tosses" in page
    readme = documents[tmp_path / "README.md"]
    assert f"| U1 coins land heads (A. Tosser) | {row['verdict']} | heads in {k}/6" in readme
    # The library's claims without their stored runs: listed, not tested.
    assert claims_table({}, {coins.name: coins})["id"].tolist() == ["U1"]
    assert set(claims.query("study != @coins.name")["verdict"]) == {"not tested"}


def test_the_claims_table_of_no_claims_has_its_columns():
    empty = claims_table({}, {})
    assert empty.empty and "verdict" in empty and "preset" in empty
    assert isinstance(empty, pd.DataFrame)
    # ... those of a table with claims, in their order (issue 48, sixth mutation run).
    study = _rows_study()
    assert list(empty.columns) == list(claims_table({}, {study.name: study}).columns)


def _returning(result):
    def odd_rule(table):
        return result
    return odd_rule


def _study_with_rule(rule):
    claim = Claim(id="U7", paper="A. Tosser", source="notes", name="odd", paper_setting="x",
                  statement="y", rule=rule)
    return Study(name="coins_odd", description="Coins.", cell=coin_cell,
                 parameters={"x": [Grid(POSITIVE)], "seeds": [POSITIVE]},
                 presets={"quick": {"x": [1, 2], "seeds": 3}}, claims=(claim,))


@pytest.mark.parametrize("result, error, message", [
    (dict(value="1/2", verdict="maybe"), ValueError, "verdict 'maybe'"),
    (dict(value="1/2", verdict="Reproduced"), ValueError, "verdict 'Reproduced'"),
    (dict(value="1/2", verdict=None), ValueError, "verdict None"),
    (dict(value="1/2"), ValueError, "no 'verdict'"),
    (dict(verdict="reproduced"), ValueError, "no 'value'"),
    (dict(value="1/2", verdict="reproduced", id="H1"), ValueError, r"\['id'\]"),
    (dict(value="1/2", verdict="reproduced", study="one_step"), ValueError, r"\['study'\]"),
    (dict(value="1/2", verdict="reproduced", preset="full"), ValueError, r"\['preset'\]"),
    (dict(value="1/2", verdict="reproduced", note="x"), ValueError, r"\['note'\]"),
    (dict(value=0.5, verdict="reproduced"), TypeError, "'value' must be a str"),
    ("reproduced", TypeError, "must return a dict with .value. and .verdict.; it returned str"),
    (None, TypeError, "must return a dict with .value. and .verdict.; it returned NoneType"),
], ids=["maybe", "capitalised", "None verdict", "no verdict", "no value", "id", "study",
        "preset", "unknown key", "value not text", "a str", "None"])
def test_what_a_rule_returns_is_checked(result, error, message, tmp_path):
    # Issue 48.3. Before: "maybe" and "Reproduced" entered the claims table and its counts,
    # id/study overwrote the row's identity, and a str failed as "cannot be summarized".
    study = _study_with_rule(_returning(result))
    entry = {"table": study.run(), "record": None, "path": tmp_path / "coins_odd.csv"}
    with pytest.raises(error, match=message) as info:
        claims_table({study.name: entry}, {study.name: study})
    text = str(info.value)
    assert "claim U7" in text and "odd_rule" in text and "coins_odd" in text
    assert "cannot be summarized" not in text


def test_a_valid_rule_result_keeps_the_rows_identity(tmp_path):
    study = _study_with_rule(_returning(dict(value="2/3", verdict="inconclusive", ours="x = 1",
                                             units="3 seeds", judged="2/3 (inconclusive)")))
    entry = {"table": study.run(), "record": None, "path": tmp_path / "coins_odd.csv"}
    row = claims_table({study.name: entry}, {study.name: study}).iloc[0]
    assert (row["id"], row["study"], row["verdict"], row["units"]) == \
        ("U7", "coins_odd", "inconclusive", "3 seeds")

# -- the claims table's rows where a claim has no stored run, an empty one, or a rule
# that fails (issue 48, sixth mutation run: each test states a property of the row a
# user reads on the claims page, written against a survivor of claim_rows) ---------


def _rows_study(rule=_heads_rule, **declared):
    claim = Claim(id="U3", paper="A. Tosser", source="notes", name="coins land heads",
                  paper_setting="fair-ish coins", statement="most tosses land heads",
                  rule=rule, **declared)
    return Study(name="coins_rows", description="Coins.", cell=coin_cell,
                 parameters={"x": [Grid(POSITIVE)], "seeds": [POSITIVE]},
                 presets={"quick": {"x": [1, 2], "seeds": 3}}, claims=(claim,))


RECORD = {"preset": "quick", "matches_preset": True}


def test_a_claim_without_a_stored_run_is_listed_not_tested_with_its_declaration():
    study = _rows_study()
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
    study = _rows_study(strength="with high probability", regime="every x",
                        rule_text="heads in most tosses", contradicted_by="tails in most")
    row = claims_table({}, {study.name: study}).set_index("id").loc["U3"]
    assert (row["strength"], row["regime"], row["rule"], row["contradicted_by"]) == \
        ("with high probability", "every x", "heads in most tosses", "tails in most")


def test_an_empty_stored_table_is_not_tested_and_names_the_run_it_came_from(tmp_path):
    study = _rows_study()
    store = {study.name: {"table": pd.DataFrame(columns=["x", "seed", "heads"]),
                          "record": RECORD, "path": tmp_path / "coins_rows.csv"}}
    row = claims_table(store, {study.name: study}).set_index("id").loc["U3"]
    assert (row["value"], row["judged"], row["verdict"]) == \
        ("the stored table holds no rows", "the stored table holds no rows", "not tested")
    assert row["preset"] == "quick"


def test_a_judged_row_names_the_preset_of_its_stored_run(tmp_path):
    study = _rows_study()
    table = study.run()
    store = {study.name: {"table": table, "record": RECORD, "path": tmp_path / "t.csv"}}
    row = claims_table(store, {study.name: study}).set_index("id").loc["U3"]
    assert row["verdict"] in ("reproduced", "not reproduced", "inconclusive")
    assert row["preset"] == "quick"
    overridden = dict(RECORD, matches_preset=False)
    store[study.name]["record"] = overridden
    row = claims_table(store, {study.name: study}).set_index("id").loc["U3"]
    assert row["preset"] == "quick with overrides"


def test_a_rule_that_raises_is_named_with_its_claim_in_one_value_error(tmp_path):
    def broken_heads(table):
        return {"value": f"{1 / 0}", "verdict": "reproduced"}

    study = _rows_study(rule=broken_heads)
    store = {study.name: {"table": study.run(), "record": RECORD, "path": tmp_path / "t.csv"}}
    with pytest.raises(ValueError, match=r"claim U3 of study 'coins_rows' \(its rule "
                                         r"broken_heads\) failed: ZeroDivisionError"):
        claims_table(store, {study.name: study})


def test_a_rule_without_a_name_is_named_by_its_repr(tmp_path):
    # A claim's rule may be any callable: a functools.partial has no __name__.
    def scaled(table, scale):
        return {"value": f"{scale / 0}", "verdict": "reproduced"}

    study = _rows_study(rule=functools.partial(scaled, scale=2))
    store = {study.name: {"table": study.run(), "record": RECORD, "path": tmp_path / "t.csv"}}
    with pytest.raises(ValueError, match=r"claim U3 of study 'coins_rows' \(its rule "
                                         r"functools\.partial\(.*scaled.*\) failed: "
                                         r"ZeroDivisionError"):
        claims_table(store, {study.name: study})


def test_unknown_keys_of_any_type_are_named_not_sorted_into_a_type_error(tmp_path):
    def extra_keys(table):
        return {"value": "v", "verdict": "reproduced", 1: "one", "note": "two"}

    study = _rows_study(rule=extra_keys)
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
    study = _rows_study(rule=lambda table: result)
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
                  claims=_rows_study().claims)
    table = study.run().drop(columns="heads")  # a stored table edited: its column gone
    path = tmp_path / "coins_rows.csv"
    store = {study.name: {"table": table, "record": RECORD, "path": path}}
    with pytest.raises(ValueError, match=rf"^{path} cannot be summarized as a coins_rows table"):
        claims_table(store, {study.name: study})


def test_a_rule_reading_a_column_the_table_lacks_names_the_file_and_the_study(tmp_path):
    def heads_count(table):
        return {"value": str(table["heads_count"].sum()), "verdict": "reproduced"}

    study = _rows_study(rule=heads_count)
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

    base = _rows_study(rule=from_summary)
    study = Study(name="coins_rows", description="Coins.", cell=coin_cell,
                  parameters={"x": [Grid(POSITIVE)], "seeds": [POSITIVE]},
                  presets={"quick": {"x": [1, 2], "seeds": 3}}, summary=heads_by_x,
                  claims=base.claims)
    table = study.run()
    store = {study.name: {"table": table, "record": RECORD, "path": tmp_path / "t.csv"}}
    calls.clear()
    row = claims_table(store, {study.name: study}).iloc[0]
    assert row["value"] == "2 settings" and calls == [len(table)]
