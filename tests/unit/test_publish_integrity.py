"""skxor publish refuses a store it cannot vouch for, naming the file (issue 34, items 5 and 8).

A table cut or edited after its run, a run record whose rows were edited, a
run whose preset changed in code since, a table missing a column and a
truncated ``.csv.gz``: one ``skxor: error:`` line naming the file, exit
status 2, and no document rewritten.
"""

import gzip
import json

import pandas as pd
import pytest

from skxor.cli import main
from skxor.studies import get_study
from skxor.studies._publish import load_store
from skxor.studies._record import table_checksum

from test_publish import DATA_DIR, ROOT, _drop_checksum, _one_study_repository


def _record(table):
    return table.parent / f"{table.name.split('.')[0]}.run.json"


def _as_its_preset_now(tmp_path, monkeypatch, name="training_sensitivity"):
    """The copied stored run of ``name`` read as a run of its preset as defined now.

    A stored run marked ``earlier_version`` (its preset changed since, rerun pending)
    is exempt from the staleness checks: these tests drop the mark from the copy and
    set the preset in code to the record's parameters, so that only what each test
    changes makes the run stale.
    """
    path = _record(next((tmp_path / DATA_DIR / name).glob(f"{name}.csv*")))
    data = json.loads(path.read_text())
    record = data["runs"][-1]
    record.pop("earlier_version", None)
    path.write_text(json.dumps(data))
    study = get_study(name)
    preset = study.presets[record["preset"]]
    for key, value in record["params"].items():
        if json.loads(json.dumps(study.preset(record["preset"]).get(key))) != value:
            monkeypatch.setitem(preset, key, value)
    return record


def _publish(tmp_path, capsys, *mode):
    readme = (tmp_path / "README.md").read_text()
    code = main(["publish", "--root", str(tmp_path), *mode])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert (tmp_path / "README.md").read_text() == readme  # nothing rewritten
    return code, err


def test_every_stored_record_holds_its_tables_rows_and_checksum():
    for name, entry in load_store(ROOT / DATA_DIR).items():
        record = entry["record"]
        assert record["table_rows"] == len(entry["table"]), name
        assert record["table_sha256"] == table_checksum(entry["path"]), name


@pytest.mark.parametrize("mode", [["--write"], ["--check"]])
def test_a_table_cut_after_its_run_is_refused(tmp_path, capsys, mode):
    # Before: --write returned 0 and presented half the rows as the recorded run.
    table = _one_study_repository(tmp_path, "sample_complexity")
    rows = pd.read_csv(table)
    rows.head(len(rows) // 2).to_csv(table, index=False)
    code, err = _publish(tmp_path, capsys, *mode)
    assert code == 2
    assert f"{table.name} holds {len(rows) // 2} rows, its run record says " \
           f"{len(rows)}" in err


def test_a_value_edited_within_range_is_refused(tmp_path, capsys):
    table = _one_study_repository(tmp_path, "sample_complexity")
    rows = pd.read_csv(table)
    rows.loc[3, "accuracy"] = 0.5 if rows.loc[3, "accuracy"] != 0.5 else 0.6
    rows.to_csv(table, index=False)
    code, err = _publish(tmp_path, capsys, "--write")
    assert code == 2
    assert f"{table.name} is not the table its run record describes" in err


def test_rows_edited_in_a_run_record_are_caught(tmp_path, capsys):
    # Before: rows edited to 1 in the record passed --check.
    table = _one_study_repository(tmp_path, "training_sensitivity")
    path = _record(table)
    data = json.loads(path.read_text())
    data["runs"][-1]["table_rows"] = data["runs"][-1]["rows"] = 1
    path.write_text(json.dumps(data))
    code, err = _publish(tmp_path, capsys, "--check")
    assert code == 2 and "its run record says 1" in err


def test_a_stale_preset_is_named(tmp_path, capsys, monkeypatch):
    # Before: --check failed only on a dry-run estimate line, and --write made it
    # pass while the documents still called the old run by the preset's name.
    _one_study_repository(tmp_path, "training_sensitivity")
    study = get_study("training_sensitivity")
    record = _as_its_preset_now(tmp_path, monkeypatch)
    monkeypatch.setitem(study.presets[record["preset"]], "seeds", record["params"]["seeds"] + 1)
    for mode in (["--write"], ["--check"]):
        code, err = _publish(tmp_path, capsys, *mode)
        assert code == 2
        assert "training_sensitivity.run.json: the stored run is stale" in err
        assert "['seeds']" in err and "earlier_version" in err


def test_a_run_of_an_earlier_cell_version_is_stale(tmp_path, capsys, monkeypatch):
    # A cell given a new explicit version (skxor.studies.cell_version) after its run
    # was stored: the stored run was computed by other code, and publish says so.
    _one_study_repository(tmp_path, "training_sensitivity")
    _as_its_preset_now(tmp_path, monkeypatch)
    study = get_study("training_sensitivity")
    monkeypatch.setattr(study.cell, "skxor_cell_version", 2, raising=False)
    for mode in (["--write"], ["--check"]):
        code, err = _publish(tmp_path, capsys, *mode)
        assert code == 2
        assert "training_sensitivity.run.json: the stored run is stale" in err
        assert f"computed by version 1 of {study.cell.__name__}, which is now version 2" in err


def test_a_new_run_records_its_cell_version(tmp_path):
    from skxor.studies import Grid, POSITIVE, Study, cell_version, run_studies
    from skxor.studies._record import read_records

    @cell_version(3)
    def cell(p, seed):
        return {"hit": seed % 2 == 0}

    study = Study(name="versioned", description="x", cell=cell,
                  parameters={"p": [Grid(POSITIVE)], "seeds": [POSITIVE]},
                  presets={"quick": {"p": [1], "seeds": 2}})
    run_studies([study], out_dir=tmp_path, progress=False, echo=None)
    assert read_records(tmp_path / "versioned.run.json")[-1]["cell_version"] == 3


def test_a_table_missing_a_column_is_named(tmp_path, capsys):
    # Before: AttributeError: 'Pandas' object has no attribute 'size_counts'.
    table = _one_study_repository(tmp_path, "parameter_scaling")
    pd.read_csv(table).drop(columns="size_counts").to_csv(table, index=False)
    code, err = _publish(tmp_path, capsys)
    assert code == 2 and "parameter_scaling.csv is not the table its run record" in err
    _drop_checksum(table)  # published without its checksum: the summary names the file
    code, err = _publish(tmp_path, capsys, "--without-record")
    assert code == 2
    assert "parameter_scaling.csv cannot be summarized as a parameter_scaling table" in err
    assert "size_counts" in err


def test_a_truncated_gzipped_table_is_named(tmp_path, capsys):
    # Before: EOFError, with a traceback.
    table = _one_study_repository(tmp_path, "zero_sensitivity_bound")
    assert table.name.endswith(".csv.gz")
    data = table.read_bytes()
    assert len(gzip.decompress(data)) > 0
    table.write_bytes(data[: len(data) // 2])
    code, err = _publish(tmp_path, capsys)
    assert code == 2 and "zero_sensitivity_bound.csv.gz cannot be read as a table" in err


def test_every_stored_run_records_the_version_of_the_cell_that_computed_it():
    # Issue 38.7: each library study has a stored full run whose record names the
    # cell version it ran (two records of runs before explicit versions had none),
    # and it is the cell's version now; a cell given a new version after its run
    # makes publish refuse the store (test_a_run_of_an_earlier_cell_version_is_stale).
    from skxor.studies import STUDIES
    from skxor.studies._sweep import cell_version_of

    store = load_store(ROOT / DATA_DIR)
    assert sorted(store) == sorted(name for name in STUDIES if name in store or STUDIES[name].claims)
    for name, entry in store.items():
        record = entry["record"]
        assert record["preset"] == "full" and record["matches_preset"], name
        assert record["cell_version"] == cell_version_of(STUDIES[name].cell), name
    # ... and all of them ran the same code: one commit for the whole store.
    commits = {name: entry["record"]["commit"] for name, entry in store.items()}
    assert len(set(commits.values())) == 1, commits


# -- a missing record or checksum (issue 48.8), a record without its cell version (48.27)


def _edit_one_value(table):
    rows = pd.read_csv(table)
    rows.loc[0, "accuracy"] = 0.5 if rows.loc[0, "accuracy"] != 0.5 else 0.6
    rows.to_csv(table, index=False)


@pytest.mark.parametrize("mode", [["--write"], ["--check"]])
def test_a_table_whose_run_record_is_gone_is_refused(tmp_path, capsys, mode):
    # Before: removing the record turned every store check off, and --write exited 0
    # with the edited numbers; the refusal message itself suggested removing the record.
    table = _one_study_repository(tmp_path, "training_sensitivity")
    _record(table).unlink()
    _edit_one_value(table)
    code, err = _publish(tmp_path, capsys, *mode)
    assert code == 2
    assert "training_sensitivity.csv has no run record" in err and "--without-record" in err
    assert "remov" not in err and "delet" not in err


def test_a_record_without_its_tables_checksum_is_refused(tmp_path, capsys):
    # Before: a record without table_sha256 was accepted, so an edited value passed.
    table = _one_study_repository(tmp_path, "training_sensitivity")
    _drop_checksum(table)
    _edit_one_value(table)
    for mode in (["--write"], ["--check"]):
        code, err = _publish(tmp_path, capsys, *mode)
        assert code == 2
        assert "holds no checksum of the table" in err and "--without-record" in err
        assert "remov" not in err and "delet" not in err


@pytest.mark.parametrize("damage", ["no record", "no checksum"])
def test_without_record_publishes_and_the_documents_say_so(tmp_path, capsys, damage):
    table = _one_study_repository(tmp_path, "training_sensitivity")
    if damage == "no record":
        _record(table).unlink()
    else:
        _drop_checksum(table)
    assert main(["publish", "--root", str(tmp_path), "--write", "--without-record"]) == 0
    capsys.readouterr()
    assert main(["publish", "--root", str(tmp_path), "--check", "--without-record"]) == 0
    why = "no run record" if damage == "no record" else "no checksum of the table"
    page = (tmp_path / "docs/results/generated/training_sensitivity.md").read_text()
    claims = (tmp_path / "docs/results/claims.rst").read_text()
    readme = (tmp_path / "README.md").read_text()
    measured = (tmp_path / "docs/results/measured.rst").read_text()
    for text in (page, claims, readme, measured):
        assert "training_sensitivity" in text and why in text
        assert "tied to no recorded run" in text
    # The flag is needed every time, also to check what it wrote.
    assert main(["publish", "--root", str(tmp_path), "--check"]) == 2


@pytest.mark.parametrize("text", ["{cut short", '{"runs": [{"seeds": 5}]}'])
def test_an_unusable_record_is_refused_without_suggesting_its_removal(tmp_path, capsys, text):
    table = _one_study_repository(tmp_path, "training_sensitivity")
    _record(table).write_text(text)
    for flags in ([], ["--without-record"]):
        code, err = _publish(tmp_path, capsys, *flags)
        assert code == 2 and "holds no usable run record" in err
        assert "remov" not in err and "delet" not in err


@pytest.mark.parametrize("version_now", [1, 2])
def test_a_record_without_its_cell_version_is_stale(tmp_path, capsys, monkeypatch,
                                                    version_now):
    # Issue 48.27: the mutant reading a missing cell_version as the cell's version now
    # survived every test. A record that names no cell version cannot be told from a
    # run of another version of the cell: it is stale whatever the version now.
    table = _one_study_repository(tmp_path, "training_sensitivity")
    _as_its_preset_now(tmp_path, monkeypatch)
    path = _record(table)
    data = json.loads(path.read_text())
    del data["runs"][-1]["cell_version"]
    path.write_text(json.dumps(data))
    study = get_study("training_sensitivity")
    monkeypatch.setattr(study.cell, "skxor_cell_version", version_now, raising=False)
    for mode in (["--write"], ["--check"]):
        code, err = _publish(tmp_path, capsys, *mode)
        assert code == 2
        assert "training_sensitivity.run.json: the stored run is stale" in err
        assert "names no cell version" in err
        assert f"now version {version_now}" in err


def test_a_record_of_the_cells_version_now_is_not_stale(tmp_path, capsys):
    _one_study_repository(tmp_path, "training_sensitivity")
    code, err = _publish(tmp_path, capsys, "--check")
    assert "stale" not in err and code in (0, 1)
