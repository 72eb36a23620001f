"""The published documents are what the stored runs give (issue 27): store, generator, claims."""

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from skxor.cli import main
from skxor.studies import STUDIES
from skxor.studies import claims_table, get_study, publish
from skxor.studies.claims import VERDICTS, declared_claims
from skxor.studies._publish import CLAIMS_PAGE, DATA_DIR, load_store, stale_runs
from skxor.studies.stats import wilson_interval

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = ["README.md", "docs/results/measured.rst", "docs/results/claims.rst"]


@pytest.fixture(scope="module")
def store():
    return load_store(ROOT / DATA_DIR)


@pytest.fixture(scope="module")
def claims(store):
    return claims_table(store)


def _one_study_repository(tmp_path, study):
    """README, measured.rst and the stored run of ``study`` (a fast store) under ``tmp_path``."""
    for name in DOCUMENTS[:2]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / DATA_DIR / study, tmp_path / DATA_DIR / study)
    # The stored table, plain or gzipped (pandas reads and writes either by its name).
    return next((tmp_path / DATA_DIR / study).glob(f"{study}.csv*"))


def _drop_checksum(table):
    """Remove the table checksum from the run record beside ``table``."""
    path = table.parent / f"{table.name.split('.')[0]}.run.json"
    data = json.loads(path.read_text())
    del data["runs"][-1]["table_sha256"]
    path.write_text(json.dumps(data))


def test_the_store_reads_each_column_with_one_type():
    # Old load_store: pandas' chunked type inference warned on the stored
    # k_sparse table (a flag column text in one chunk, booleans in another).
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", pd.errors.DtypeWarning)
        store = load_store(ROOT / DATA_DIR)
    assert "k_sparse" in store


def test_every_study_has_a_stored_run_with_its_record(store):
    # A stored run is optional for a study, but its claims are judged on one: every
    # study that declares claims has one, in the registry's order.
    assert list(store) == [name for name in STUDIES if name in store or STUDIES[name].claims]
    for name, entry in store.items():
        assert len(entry["table"]) > 0, name
        assert entry["record"] is not None, f"{name}: no {name}.run.json"
        assert entry["record"]["study"] == name


def test_the_documents_are_what_the_stored_data_give():
    # Regenerate with: skxor publish --write
    assert publish(DATA_DIR, ROOT) == {}


def test_no_generated_document_holds_an_unfilled_placeholder():
    # A format string missing its f prefix printed "{c.ALMOST_SURE_LOW:g}" on the claims page.
    # The committed documents are the generated ones (the test above): scan them.
    documents = {path: path.read_text() for path in
                 [ROOT / "README.md", *(ROOT / DATA_DIR.parent).glob("*.rst"),
                  *(ROOT / DATA_DIR.parent / "generated").glob("*.md")]}
    assert len(documents) >= 10
    for path, text in documents.items():
        # (a MyST directive, ```{include}, is no placeholder)
        assert not re.search(r"(?<!`)\{[A-Za-z_][\w.]*(:[^}]*)?\}", text), path


def test_an_edited_stored_row_makes_the_documents_differ(tmp_path):
    # A store of one study (fast): its documents, then the same after editing one row.
    path = _one_study_repository(tmp_path, "random_init_sensitivity")
    assert main(["publish", "--root", str(tmp_path), "--write"]) == 0
    assert publish(DATA_DIR, tmp_path) == {}
    table = pd.read_csv(path)
    row = table.index[table["function"] == "random function"][0]
    table.loc[row, "with_zero"] += 1  # one row of the random-function control
    table.to_csv(path, index=False)
    # An edited table is refused (test_publish_integrity); without the record's checksum
    # (a record written before it), published --without-record, its numbers are recomputed.
    _drop_checksum(path)
    assert main(["publish", "--root", str(tmp_path), "--check", "--without-record"]) == 1
    differences = publish(DATA_DIR, tmp_path, without_record=True)
    # ... and its kept power is of the table before the edit: not its power any more.
    assert {p.name for p in differences} == {"README.md", "measured.rst", "claims.rst",
                                             "random_init_sensitivity.md",
                                             "random_init_sensitivity.power.json"}
    edited = table.loc[row]
    k, n = int(edited["with_zero"]), int(edited["n_functions"])
    added = [line for line in differences[tmp_path / "docs/results/claims.rst"].splitlines()
             if line.startswith("+") and f"N = {int(edited['n_bits'])}: {k}/{n} = " in line]
    assert added  # the edited count, recomputed


def test_any_edited_stored_value_changes_the_measured_page(tmp_path):
    # Even a value no published number uses (a timing) changes the table's checksum.
    path = _one_study_repository(tmp_path, "training_sensitivity")  # stored as plain CSV
    publish(DATA_DIR, tmp_path, write=True)
    lines = path.read_text().splitlines(True)
    lines[1] = lines[1].replace(",", ", ", 1)  # the same numbers, other bytes
    path.write_text("".join(lines))
    with pytest.raises(ValueError, match="is not the table its run record describes"):
        publish(DATA_DIR, tmp_path)
    _drop_checksum(path)  # without it the page still shows the changed checksum
    assert tmp_path / "docs/results/measured.rst" in publish(DATA_DIR, tmp_path,
                                                             without_record=True)


def test_a_gzipped_stored_table_gives_the_same_numbers(tmp_path):
    import gzip

    path = _one_study_repository(tmp_path, "training_sensitivity")  # stored as plain CSV
    assert path.suffix == ".csv"
    publish(DATA_DIR, tmp_path, write=True)
    path.with_name(path.name + ".gz").write_bytes(gzip.compress(path.read_bytes()))
    path.unlink()
    differences = publish(DATA_DIR, tmp_path)
    # Only the file name, its size and checksum (measured.rst), the link (claims.rst)
    # and the file named on the study's page.
    assert {p.name for p in differences} == {"measured.rst", "claims.rst",
                                             "training_sensitivity.md"}


def test_stored_runs_match_the_presets_in_code(store):
    assert stale_runs(store) == {}


def test_a_changed_preset_is_caught_unless_marked_as_earlier(store):
    entry = dict(store["one_step"])
    # A record of the preset in code (not of an earlier version), then one seed more.
    record = {k: v for k, v in entry["record"].items() if k != "earlier_version"}
    preset = get_study("one_step").preset(record["preset"])
    entry["record"] = dict(record, params=json.loads(json.dumps(preset)))
    assert stale_runs({"one_step": entry}) == {}
    entry["record"] = dict(record, params=dict(entry["record"]["params"],
                                               seeds=preset["seeds"] + 1))
    assert "seeds" in stale_runs({"one_step": entry})["one_step"]
    entry["record"] = dict(entry["record"], earlier_version="made before seeds changed")
    assert stale_runs({"one_step": entry}) == {}


def test_each_run_record_counts_the_cells_the_cost_model_lists(store):
    from skxor.studies._cost import run_cells

    checked = 0
    for name, entry in store.items():
        record = entry["record"]
        if set(get_study(name).preset(record["preset"])) - set(record["params"]):
            # A run from before its preset gained a parameter: its cells were listed by
            # the code of its commit, which the record names.
            assert record.get("earlier_version"), name
            continue
        checked += 1
        counted = len(run_cells(name, record["params"]))
        done = record["cells"]["computed"] + record["cells"]["loaded"]
        if name == "parameter_scaling":  # stops early: the count is an upper bound
            assert 0 < done <= counted
        else:
            assert done == counted, name
    assert checked >= 4


def test_the_stored_runs_table_puts_the_dry_run_estimate_beside_the_wall_time(store):
    from skxor.studies._cost import estimate
    from skxor.studies._publish import _runs_rst
    from skxor.studies._record import ran_overrides

    text = _runs_rst(store, ROOT / DATA_DIR)
    ratios = []
    for name, entry in store.items():
        r = entry["record"]
        # What the run ran (a run of an earlier version of its preset: its own parameters).
        predicted = estimate(name, r["preset"], ran_overrides(get_study(name), r) or None,
                             n_jobs=r["workers"])["wall_seconds"]
        # the row: study, preset, rows, cells, wall time, then the estimate
        row = text.split(f"``{name}/")[1].split("   * - ")[0].split("\n     - ")
        assert row[5] == f"{predicted:.0f}", name
        if r["cells"].get("loaded"):  # resumed: the last part's wall time, named so
            assert row[4].startswith(f"{r['seconds']} (the last part: "), name
            continue
        assert float(row[4]) == r["seconds"]
        ratios.append(r["seconds"] / predicted)
    assert f"{min(ratios):.2f} to {max(ratios):.2f} times the estimate" in text
    # A record of a preset this version no longer has gets no estimate, and no error.
    entry = dict(store["one_step"], record=dict(store["one_step"]["record"], preset="gone"))
    assert "\n     - -\n" in _runs_rst({"one_step": entry}, ROOT / DATA_DIR)


def test_a_resumed_runs_wall_time_is_named_as_its_last_part_and_left_out_of_the_ratio(store):
    from skxor.studies._publish import _runs_rst

    record = store["one_step"]["record"]
    total = record["cells"]["computed"] + record["cells"]["loaded"]
    resumed = dict(store["one_step"], record=dict(
        record, seconds=1.0, cells={"computed": total - 7, "loaded": 7}))
    runs = dict(store, one_step=resumed)
    text = _runs_rst(runs, ROOT / DATA_DIR)
    assert "     - 1.0 (the last part: 7 cells read from checkpoints)\n" in text
    # A 1-second wall time would be the smallest ratio by far were it counted.
    left_out = [name for name, e in runs.items() if e["record"]["cells"].get("loaded")]
    assert f"Left out: {', '.join(left_out)}, resumed from checkpoints after a stop" in text
    assert f"over these {len(store) - len(left_out)} runs" in text


def test_the_presets_line_names_each_presets_studies(store):
    from skxor.studies._publish import _presets_text

    one = {name: store[name] for name in list(store)[:2]}
    same = {name: dict(e, record=dict(e["record"], preset="full", overrides={},
                                      matches_preset=True, earlier_version=None))
            for name, e in one.items()}
    assert _presets_text(same) == "full (every study)"
    first, second = list(one)
    differ = dict(same, **{second: dict(same[second], record=dict(
        same[second]["record"], earlier_version="before a change"))})
    assert _presets_text(differ) == (
        f"full ({first}); full (from an earlier version: before a change) ({second})")


def test_the_claims_table_has_a_row_per_claim(claims):
    assert list(claims["id"]) == [c.id for _, c in declared_claims(STUDIES)]
    assert len(claims) == 12
    assert set(claims["verdict"]) <= set(VERDICTS)
    page = (ROOT / "docs/results/claims.rst").read_text()
    for r in claims.itertuples():
        assert f"   * - {r.id}\n" in page
        assert r.value in page and r.verdict in page
        assert f"data/{r.study}/{r.study}.csv" in page


def test_claim_numbers_are_recomputed_from_the_stored_rows(store, claims):
    by_id = claims.set_index("id")
    # K2: the random-function control per N, straight from its rows.
    table = store["random_init_sensitivity"]["table"]
    control = table[table["function"] == "random function"]
    for r in control.itertuples():
        k, n = int(r.with_zero), int(r.n_functions)
        assert f"N = {int(r.n_bits)}: {k}/{n} = {k / n:.3f}" in by_id.loc["K2", "value"]
    # H1: softmax, one population step, m >= 64, per d on the seeds after the first sixth
    # held out, at the step length with the most successes on those held out.
    steps = store["one_step"]["table"]
    one = steps[(steps["attention"] == "softmax") & (steps["n_steps"] == 1) & (steps["n"] == 0)
                & (steps["m"] >= 64)]
    seeds = np.sort(one["seed"].unique())
    first = seeds[len(seeds) // 6]  # the first seed reported on
    held = one[one["seed"] < first].groupby("step_length")["success"].sum()
    step = held[held == held.max()].index.min()
    rest = one[(one["seed"] >= first) & (one["step_length"] == step)]
    for d, g in rest.groupby("d"):
        assert f"d = {d}: {int(g['success'].sum())}/{len(g)} runs over " \
            f"{g['seed'].nunique()} seeds" in by_id.loc["H1", "value"]
    # K1: non-constant random networks with a zero-sensitivity string, per N.
    nets = table[table["function"] == "transformer"]
    nets = nets[nets["layer_norm_eps"] == nets["layer_norm_eps"].min()]
    varied = nets[nets["constant"].astype(str) != "True"]
    for n_bits, g in varied.groupby("n_bits"):
        k = int((g["has_zero"].astype(str) == "True").sum())
        assert f"N = {n_bits}: {k}/{len(g)} non-constant networks" in by_id.loc["K1", "value"]


def test_the_claims_intervals_are_those_of_the_study_pages(claims):
    # Old claims and headline: the parameter-scaling slopes from 1 000
    # bootstrap draws, the study page and its figure from 2 000, so the same
    # slope read 0.13 [0.06, 0.21] in README and [0.06, 0.22] on its page.
    intervals = re.compile(r"\d+\.\d+ \[\d+\.\d+, \d+\.\d+\]")
    by_id = claims.set_index("id")
    checked = 0
    for claim_id in ("H3", "H5"):
        page = (FRAGMENTS / f"{by_id.loc[claim_id, 'study']}.md").read_text()
        for text in intervals.findall(by_id.loc[claim_id, "value"]):
            assert text in page, (claim_id, text)
            checked += 1
    assert checked >= 2


def test_the_documents_name_the_stored_preset(store):
    presets = {e["record"]["preset"] for e in store.values()}
    page = (ROOT / "docs/results/claims.rst").read_text()
    for preset in presets:
        assert f"({preset} preset)" in page
    assert "Stored presets: " in (ROOT / "docs/results/measured.rst").read_text()


def test_publish_reports_a_missing_store_without_a_traceback(tmp_path, capsys):
    assert main(["publish", "--root", str(tmp_path)]) == 2
    assert "skxor: error: no stored run" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["{cut short", '{"runs": [5]}', '{"runs": [{"seeds": 5}]}',
                                  '{"runs": []}'])
def test_publish_refuses_a_record_it_cannot_use_without_a_traceback(tmp_path, capsys, text):
    table = _one_study_repository(tmp_path, "training_sensitivity")
    (table.parent / "training_sensitivity.run.json").write_text(text)
    assert main(["publish", "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "training_sensitivity.run.json holds no usable run record" in err
    assert "'preset' and 'params'" in err and "Traceback" not in err


@pytest.mark.parametrize("edit", [
    lambda t: t.assign(accuracy=["abc"] + list(t["accuracy"].iloc[1:])),  # a typed-over value
    lambda t: t.drop(columns="function"),
    lambda t: t.drop(columns="accuracy"),
], ids=["text in a number column", "no function column", "no accuracy column"])
def test_publish_names_a_stored_table_it_cannot_summarize(tmp_path, capsys, edit):
    table = _one_study_repository(tmp_path, "training_sensitivity")
    edit(pd.read_csv(table)).to_csv(table, index=False)
    _drop_checksum(table)  # else refused first as not the recorded run's table
    assert main(["publish", "--root", str(tmp_path), "--without-record"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("skxor: error: ") and "Traceback" not in err
    assert ("training_sensitivity.csv cannot be summarized as a training_sensitivity "
            "table: ") in err


def test_a_stored_record_holds_every_parameter_of_its_preset(store):
    # A parameter a study took after the run (its ``added``, at the value the run had)
    # reads at that value: sample_complexity's k = 2.
    for name, entry in store.items():
        record = entry["record"]
        study = get_study(name)
        code = json.loads(json.dumps(study.params(record["preset"], record["overrides"])))
        ran = set(study.with_added(record["params"]))
        if record.get("earlier_version"):  # a run of an earlier preset: it lacks what came later
            assert ran <= set(code), name
        else:
            assert ran == set(code), name


# -- the per-study pages (docs/results/generated/<study>.md) ---------------------------

FRAGMENTS = ROOT / "docs" / "results" / "generated"


def test_each_stored_study_has_its_generated_page_listed_on_the_measured_page(store):
    pages = sorted(p.stem for p in FRAGMENTS.glob("*.md"))
    assert pages == sorted(store)
    measured = (ROOT / "docs/results/measured.rst").read_text()
    for name, entry in store.items():
        page = (FRAGMENTS / f"{name}.md").read_text()
        record = entry["record"]
        assert page.splitlines()[2].startswith("# ")  # the report's title, the page's title
        assert f"preset **{record['preset']}" in page and (
            f"preset **{record['preset']}**" in page
            or f"(from an earlier version: {record.get('earlier_version')})**" in page)
        assert f"{len(entry['table'])} rows" in page
        assert f"{record['seeds']} seeds" in page
        assert record["commit"].removesuffix("+dirty")[:12] in page
        assert record["started"] in page and f"wall time {record['seconds']} s" in page
        assert f"skxor run {name} --preset {record['preset']}" in page
        assert f"   /results/generated/{name}\n" in measured


def test_the_reproduce_command_gives_back_the_stored_preset_and_overrides():
    import shlex

    from skxor.cli import _override
    from skxor.studies._publish import reproduce_command

    record = {"preset": "full", "overrides": {"d": [20, 100], "attention": "softmax",
                                              "step_length": 10.0}}
    words = shlex.split(reproduce_command("one_step", record))
    assert words[:5] == ["skxor", "run", "one_step", "--preset", "full"]
    given = [_override(words[i + 1]) for i, w in enumerate(words) if w == "--set"]
    assert {param: value for _, param, value in given} == record["overrides"]
    assert {study for study, _, _ in given} == {"one_step"}
    assert words[words.index("--n-jobs") + 1] == "2"


def test_an_edited_stored_row_changes_its_study_page(tmp_path):
    path = _one_study_repository(tmp_path, "one_step")
    publish(DATA_DIR, tmp_path, write=True)
    page = tmp_path / "docs/results/generated/one_step.md"
    before = page.read_text()
    table = pd.read_csv(path)
    # One failed softmax run (one step, population, largest step) now succeeds.
    rows = table.index[(table["attention"] == "softmax") & (table["n_steps"] == 1)
                       & (table["step_length"] == table["step_length"].max())
                       & ~table["success"].astype(bool)]
    assert len(rows)
    table.loc[rows[0], "success"] = True
    table.to_csv(path, index=False)
    _drop_checksum(path)  # else refused as not the recorded run's table
    differences = publish(DATA_DIR, tmp_path, without_record=True)
    assert page in differences
    publish(DATA_DIR, tmp_path, write=True, without_record=True)
    assert page.read_text() != before


def test_a_page_of_a_study_no_longer_stored_is_reported_and_removed(tmp_path):
    _one_study_repository(tmp_path, "training_sensitivity")  # a small store: fast
    publish(DATA_DIR, tmp_path, write=True)
    stale = tmp_path / "docs/results/generated/one_step.md"
    stale.write_text("# an old page\n")
    assert stale in publish(DATA_DIR, tmp_path)
    publish(DATA_DIR, tmp_path, write=True)
    assert not stale.exists() and publish(DATA_DIR, tmp_path) == {}


# -- no measured number typed by hand -----------------------------------------------

#: Numbers allowed in the hand-written prose, each a name or a definition, not a
#: measurement: the papers' identifiers, the theorem's number, the claim ids, the
#: paper's sample bound d^4 and its eps = 0 setting, the coverage of every interval,
#: the numbers of a Markdown list.
ALLOWED = [r"(?m)^\d\. ", r"arXiv 2502\.07553", r"arXiv 2606\.08768", r"ICML 2026", r"Theorem 4\.5",
           r"\b[HK][1-6]\b", r"d\^4", r"eps = 0\b", r"\b95% (?:interval|Wilson)"]


def _prose_outside_generated_blocks(text, fmt):
    from skxor.studies._blocks import markers

    for name in ("headline", "claims", "stored-runs", "studies", "highlights", "figure"):
        start, end = markers(name, fmt)
        text = re.sub(re.escape(start) + r".*?" + re.escape(end), "", text, flags=re.S)
    return text


def _typed_numbers(text):
    for pattern in ALLOWED:
        text = re.sub(pattern, "", text)
    return [m.group(0) for m in re.finditer(r"\S*\d\S*", text)]


def test_no_number_is_typed_into_the_results_prose():
    readme = (ROOT / "README.md").read_text()
    # The results sections: the claims and the headline; the papers' page (what it
    # reproduces) and the quick start's comparison of the studies.
    quick = (ROOT / "docs" / "quick_start.md").read_text()
    sections = [readme[readme.index("## The papers' claims"):readme.index("## How it is built")],
                (ROOT / "docs" / "papers.md").read_text(),
                quick[quick.index("## The studies side by side"):quick.index("`skxor demo` runs")]]
    measured = (ROOT / "docs/results/measured.rst").read_text()
    for section in sections:
        assert _typed_numbers(_prose_outside_generated_blocks(section, "md")) == []
    assert _typed_numbers(_prose_outside_generated_blocks(measured, "rst")) == []


def test_the_typed_number_scan_finds_measurements():
    # The scan fails on what the hand-typed sections held before.
    typed = "succeeds in 102/150 = 0.68 [0.60, 0.75] of runs; medians 2 263; 3x faster"
    assert _typed_numbers(typed) == ["102/150", "0.68", "[0.60,", "0.75]", "2", "263;", "3x"]
    assert _typed_numbers("Theorem 4.5 (arXiv 2606.08768), claims K1 to K5, d^4") == []


def test_every_claim_says_not_tested_without_rows(store):
    """A store whose tables hold no rows: each claim says so, none is given a verdict."""
    empty = {name: dict(entry, table=entry["table"].iloc[:0]) for name, entry in store.items()}
    rows = claims_table(empty)
    assert len(rows) == len(declared_claims(STUDIES))
    assert set(rows["verdict"]) == {"not tested"}


def test_a_claim_missing_one_side_is_not_tested(store):
    """Rows of one kind removed (softmax, linear and erf, the FFNN): the claims that
    need them are not tested, and the others keep their verdicts."""
    one_step = store["one_step"]["table"]
    scaling = store["parameter_scaling"]["table"]
    cut = dict(store)
    cut["one_step"] = dict(store["one_step"], table=one_step[one_step["attention"] == "softmax"])
    cut["parameter_scaling"] = dict(store["parameter_scaling"],
                                    table=scaling[scaling["model"] != "ffnn"])
    before, after = (claims_table(s).set_index("id")["verdict"] for s in (store, cut))
    assert after["H3"] == after["H2"] == "not tested"
    assert after["H1"] == before["H1"] and after["K1"] == before["K1"]


@pytest.mark.parametrize("study, keep, untested", [
    ("one_step", lambda t: t["attention"] != "softmax", {"H1", "H4"}),
    ("k_sparse", lambda t: t["part"] != "v1", {"H6"}),  # H6 is judged on v1's model
    ("random_init_sensitivity", lambda t: t["function"] != "transformer", {"K1", "K4"}),
    ("random_init_sensitivity", lambda t: t["function"] != "random function", {"K2"}),
    ("zero_sensitivity_bound", lambda t: t["constant"].astype(bool), {"K5"}),
])
def test_claims_without_the_rows_they_need_are_not_tested(store, study, keep, untested):
    table = store[study]["table"]
    cut = dict(store, **{study: dict(store[study], table=table[keep(table)])})
    verdicts = claims_table(cut).set_index("id")["verdict"]
    assert {cid for cid in untested if verdicts[cid] == "not tested"} == untested


def test_the_claims_name_a_missing_record_and_an_earlier_version(store):
    entry = store["one_step"]
    missing = dict(store, one_step=dict(entry, record=None))
    earlier = dict(store, one_step=dict(entry, record=dict(entry["record"],
                                                           earlier_version="0.0.9")))
    assert set(claims_table(missing).query("study == 'one_step'")["preset"]) \
        == {"run record missing"}
    assert all(p.endswith("(from an earlier version: 0.0.9)")
               for p in claims_table(earlier).query("study == 'one_step'")["preset"])


# -- the README in short (issue 51.1) ---------------------------------------------------

def test_the_readme_claims_table_shows_short_deciding_numbers_the_claims_page_in_full():
    readme = (ROOT / "README.md").read_text()
    rows = [line for line in readme.splitlines() if re.match(r"\| [HK]\d ", line)]
    assert len(rows) == 12
    numbers = [row.split(" | ")[2] for row in rows]
    assert max(len(n) for n in numbers) <= 160, max(numbers, key=len)
    # H4's deciding part ran to a paragraph in the table; in full only on the claims page.
    long_h4 = "which the stored runs do not record"
    assert long_h4 not in readme and long_h4 in (ROOT / CLAIMS_PAGE).read_text()
    # One count line, over the papers' claims only.
    assert readme.count("Of the stored runs") == 1 and "claims of the papers" in readme


def test_short_text_drops_long_asides_and_cuts_at_a_clause():
    from skxor.studies._publish import short_text

    text = ("d = 100: 47/50 runs = 0.94 [0.80, 0.99] (pooled over m = 64, 128 and over the "
            "seeds' draws); d = 1000: 48/50 runs = 0.96 [0.85, 0.99]")
    assert short_text(text, limit=200) == ("d = 100: 47/50 runs = 0.94 [0.80, 0.99]; "
                                          "d = 1000: 48/50 runs = 0.96 [0.85, 0.99]")
    assert short_text(text, limit=60) == "d = 100: 47/50 runs = 0.94 [0.80, 0.99]"
    assert short_text("softmax (steps of 10) 3/5", limit=60) == "softmax (steps of 10) 3/5"


def test_the_readme_headline_bullets_are_short_and_link_their_study():
    readme = (ROOT / "README.md").read_text()
    block = readme.split("<!-- skxor-highlights:start -->")[1].split("<!-- skxor-highlights:end")[0]
    bullets = [line for line in block.splitlines() if line.startswith("* ")]
    assert len(bullets) == len(load_store(ROOT / DATA_DIR))
    for bullet in bullets:
        assert len(bullet) <= 420, bullet
        assert re.search(r"\(\[more\]\(docs/results/generated/\w+\.md\)\)$", bullet), bullet


def test_the_readme_figure_names_the_stored_table_it_was_drawn_from(tmp_path):
    from matplotlib.figure import Figure

    from skxor.studies._publish import README_FIGURE, _publish_figure, png_text

    record = json.loads((ROOT / DATA_DIR / "one_step" / "one_step.run.json").read_text())
    source = png_text(ROOT / README_FIGURE)["Source"]
    assert source == f"one_step.csv.gz sha256 {record['runs'][-1]['table_sha256']}"
    assert f"]({README_FIGURE.as_posix()})" in (ROOT / "README.md").read_text()
    # A figure drawn from another table is a difference --check reports.
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    shutil.copytree(ROOT / DATA_DIR / "one_step", tmp_path / DATA_DIR / "one_step")
    (tmp_path / README_FIGURE).parent.mkdir(parents=True, exist_ok=True)
    Figure().savefig(tmp_path / README_FIGURE, metadata={"Source": "one_step.csv.gz sha256 0"})
    store = load_store(tmp_path / DATA_DIR)
    why = _publish_figure(tmp_path, store, write=False)
    assert why and "drawn from one_step.csv.gz sha256 0, not from the stored" in why
    shutil.copy(ROOT / README_FIGURE, tmp_path / README_FIGURE)
    assert _publish_figure(tmp_path, store, write=False) is None
