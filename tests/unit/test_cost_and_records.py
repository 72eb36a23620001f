"""Dry runs (cells and estimated cost, nothing computed), run records and report data lines."""

import json

import pytest
import torch

from skxor.cli import main
from skxor.studies import STUDIES
from skxor.studies import estimate, get_study, run_studies
from skxor.studies._cost import CostModel

TINY = {"d": [50], "m": [8], "seeds": 2, "n_test": 100, "step_length": [100.0, 10.0],
        "n_steps": [1]}


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("run")
    run_studies(["one_step"], out_dir=out, overrides={"one_step": TINY}, echo=None,
                progress=False)
    return out


def test_a_dry_run_counts_the_cells_the_run_computes(tiny_run, capsys):
    record = json.loads((tiny_run / "one_step.run.json").read_text())["runs"][-1]
    assert record["cells"] == {"computed": 12, "loaded": 0}
    args = ["run", "one_step", "--dry-run", "--out", str(tiny_run / "dry")]
    for key, value in TINY.items():
        args += ["--set", f"{key}={json.dumps(value)}"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("one_step, preset quick with ")
    assert ": 12 cells\n" in out
    assert "--n-jobs" in out and "--scheduler" in out
    assert not (tiny_run / "dry").exists()  # nothing computed, nothing written


def test_dry_runs_of_every_preset_compute_nothing(monkeypatch):
    # A dry run only lists cells: no network is ever evaluated. (How long it takes is
    # a speed question, not a test's: CI machines are shared and noisy.)
    def refuse(*args, **kwargs):
        raise AssertionError("a dry run evaluated a network")

    monkeypatch.setattr(torch.nn.Module, "__call__", refuse)
    model = CostModel()
    for name, study in STUDIES.items():
        for preset in study.presets:
            e = estimate(name, preset, model=model)
            assert e["cells"] > 0 and e["cpu_seconds"] > 0, (name, preset)


def test_the_cost_model_scales_with_the_cells_parameters():
    quick = estimate("one_step", "quick", {"d": 100})
    larger = estimate("one_step", "quick", {"d": 100000})
    assert quick["cells"] == larger["cells"]
    assert larger["cpu_seconds"] > 5 * quick["cpu_seconds"]
    assert estimate("one_step", "full")["cpu_seconds"] > estimate("one_step")["cpu_seconds"]
    two = estimate("one_step", "full", n_jobs=2)
    assert two["wall_seconds"] == pytest.approx(two["cpu_seconds"] / 2)


def test_a_device_study_says_how_to_use_a_gpu(capsys):
    assert main(["run", "zero_sensitivity_bound", "--preset", "paper", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "--set device=cuda" in out and "36000 cells" in out


def test_a_bad_dry_run_is_a_usage_error(capsys):
    assert main(["run", "one_step", "--dry-run", "--set", "seeds=0"]) == 2
    assert "skxor: error:" in capsys.readouterr().err


def test_the_run_record_holds_what_made_the_table(tiny_run):
    runs = json.loads((tiny_run / "one_step.run.json").read_text())["runs"]
    record = runs[-1]
    assert record["study"] == "one_step" and record["preset"] == "quick"
    assert record["matches_preset"] is False
    assert record["overrides"] == TINY
    assert record["params"] == json.loads(json.dumps(get_study("one_step").params("quick", TINY)))
    assert record["seeds"] == 2 and record["random_state"] == 0
    assert set(record["machine"]) == {"platform", "node", "cpu_count", "python", "torch",
                                      "device"}
    assert record["machine"]["device"] == "cpu"
    assert record["commit"] == "unknown" or len(record["commit"].split("+")[0]) == 40
    assert record["started"].endswith("Z") and record["seconds"] > 0
    assert record["floor_seconds"] > 0 and record["floor_description"]
    assert record["rows"] == 12 and record["skxor"]


def test_a_later_run_adds_its_record_after_the_earlier_ones(tmp_path):
    from skxor.studies._record import add_record, latest_record, read_records, record_path

    path = record_path(tmp_path / "one_step.csv")
    for seeds in (1, 2):
        add_record(path, {"study": "one_step", "seeds": seeds},
                   lambda p, text: p.write_text(text))
    assert [r["seeds"] for r in read_records(path)] == [1, 2]
    assert latest_record(path)["seeds"] == 2
    path.write_text("not json")
    assert read_records(path) == [] and latest_record(path) is None


@pytest.mark.parametrize("text", ["not json", '{"runs": 3}', "[1, 2]"])
def test_an_unreadable_record_file_is_kept_aside_not_overwritten(tmp_path, text):
    from skxor.studies._record import add_record, read_records, record_path

    path = record_path(tmp_path / "one_step.csv")
    path.write_text(text)
    with pytest.warns(RuntimeWarning, match="holds no readable run records; kept it as"):
        add_record(path, {"seeds": 1}, lambda p, t: p.write_text(t))
    assert read_records(path) == [{"seeds": 1}]
    kept = [p for p in tmp_path.iterdir() if p != path]
    assert len(kept) == 1 and kept[0].read_text() == text


def test_an_empty_record_list_is_extended_without_a_warning(tmp_path, recwarn):
    from skxor.studies._record import add_record, read_records, record_path

    path = record_path(tmp_path / "one_step.csv")
    path.write_text('{"runs": []}')
    add_record(path, {"seeds": 1}, lambda p, t: p.write_text(t))
    assert read_records(path) == [{"seeds": 1}] and list(tmp_path.iterdir()) == [path]
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def test_the_report_names_the_rows_of_each_table_and_figure(tiny_run):
    report = (tiny_run / "report.md").read_text()
    lines = report.splitlines()
    runs = next(i for i, line in enumerate(lines) if line.startswith("| study | preset"))
    runs_end = next(i for i in range(runs, len(lines)) if not lines[i].startswith("|"))
    tables = sum(1 for i, line in enumerate(lines[:-1]) if line.startswith("|")
                 and not lines[i + 1].startswith("|") and i > runs_end)  # the study's tables
    data = [line for line in lines if line.startswith("_Data: rows of `one_step.csv`")]
    assert len(data) == tables >= 1
    assert all("12 rows, 12 cells" in line and "seeds 0-1 (2)" in line for line in data)
    figures = [line for line in lines if line.startswith("_Figures ")]
    assert len(figures) == 1 and "`one_step_success.png`" in figures[0]


def test_the_cost_models_random_network_grid_is_the_studys():
    from skxor.studies._cost import run_cells
    from skxor.papers.kover.random_init import network_cells

    params = get_study("random_init_sensitivity").params("quick", {"readout": ["eos", "cls"]})

    def key(cell):
        return tuple(sorted((k, str(v)) for k, v in cell.items()))

    listed = [c.params for c in run_cells("random_init_sensitivity", params)
              if c.kind == "network"]
    assert sorted(map(key, listed)) == sorted(map(key, network_cells(params)))


def _squares_cell(x, seed):
    return {"y": x * x + seed}


def _squares(**hooks):
    from skxor.studies import Grid, Study
    from skxor.studies._parameters import POSITIVE

    return Study(name="squares_cost", description="Squares.", cell=_squares_cell,
                 parameters={"x": [Grid(POSITIVE)], "seeds": [POSITIVE]},
                 presets={"quick": {"x": [1, 2, 3], "seeds": 2}}, **hooks)


def test_a_users_study_gets_a_time_from_its_cost_hook():
    # Old dry run: a user's study got its cell count only (no cost model for it).
    from skxor.studies import dry_run_text

    study = _squares(cost=lambda cell: 0.5 * cell["x"])
    e = estimate(study, "quick", n_jobs=2)
    assert e["cells"] == 6 and e["cpu_seconds"] == pytest.approx(0.5 * 2 * (1 + 2 + 3))
    assert e["largest_cell_seconds"] == pytest.approx(1.5)
    text = dry_run_text(study, "quick")
    assert text.startswith("squares_cost, preset quick: 6 cells\n")
    assert "estimated CPU time: 6.0 s (costliest cell 1.5 s), from the study's own " \
        "cost(cell)" in text
    # Without a cost hook it counts its grid's cells, and says why there is no time.
    assert dry_run_text(_squares(), "quick").startswith(
        "squares_cost, preset quick: 6 cells (the study declares no cost(cell)")


def test_every_library_study_prices_its_cells_in_its_own_package():
    import inspect

    from skxor.studies import _cost

    source = inspect.getsource(_cost)
    # Old _cost.py: seven per-study cost functions, a CELLS dict and 8 imports of packages.
    assert "CELLS" not in source and "from ._one_step" not in source
    for name, study in STUDIES.items():
        assert study.cost is not None, name
        assert study.cost.__module__.startswith("skxor.papers."), name
        assert not study.cost.__module__.startswith("skxor.studies"), name
    # A study that stops early says so, and the dry run reads it from the study.
    assert get_study("parameter_scaling").stops_early
    assert estimate("parameter_scaling")["upper_bound"]
    assert not estimate("one_step", "quick", {"d": 100, "seeds": 1})["upper_bound"]


def test_the_dry_run_lists_the_cells_a_compute_study_runs():
    from skxor.studies._cost import run_cells
    from skxor.papers.han_ghoshdastidar.k_sparse import k_sparse_cell, step_cells, v1_cell, v1_cells

    params = get_study("k_sparse").preset("quick")
    cells = run_cells("k_sparse", params)
    steps = [c.params for c in cells if c.function is k_sparse_cell]
    v1 = [c.params for c in cells if c.function is v1_cell]
    assert steps == step_cells(params)
    assert v1 == [c for part in v1_cells(params) for c in part]
    assert {c.kind for c in cells if c.function is v1_cell} == {"v1_k_parity",
                                                                 "v1_sparse_xor"}


def _growing_cells(params):
    # One cell per x and seed, and one more per x for every seed beyond the fifth:
    # the count is 3 s up to 5 seeds and 3 s + 3 (s - 5) after.
    seeds = params["seeds"]
    return [{"x": x, "seed": s} for x in params["x"] for s in range(seeds)] + [
        {"x": x, "seed": s, "extra": True} for x in params["x"] for s in range(5, seeds)]


@pytest.mark.parametrize("cost", [None, lambda cell: 2.0 if cell.get("extra") else 1.0],
                         ids=["no cost", "seconds"])
def test_the_dry_run_counts_a_cells_hook_whose_count_changes_beyond_three_seeds(cost):
    # Issue 48.6. Before: counted from 1, 2 and 3 seeds and extrapolated, so 20 seeds
    # gave 60 cells (and 60 s) where the run computes 105 (and 150 s).
    from skxor.studies import dry_run_text

    study = _squares(cells=_growing_cells, cost=cost)
    listed = _growing_cells(study.params("quick", {"seeds": 20}))
    assert len(listed) == 105
    assert ": 105 cells" in dry_run_text(study, "quick", {"seeds": 20}).splitlines()[0]
    if cost is not None:
        e = estimate(study, "quick", {"seeds": 20})
        assert e["cells"] == 105 and e["cpu_seconds"] == pytest.approx(60 + 2 * 45)


def _seed_priced(cell):
    # A cost that reads the seed: seeds from the fourth on cost ten times more.
    return 10.0 if cell["seed"] >= 3 else 1.0


def test_the_dry_run_prices_every_seed_of_the_default_grid():
    # The grid itself has the same cells per seed, but a cost may read the seed.
    e = estimate(_squares(cost=_seed_priced), "quick", {"seeds": 10})
    assert e["cells"] == 30 and e["cpu_seconds"] == pytest.approx(3 * (3 + 7 * 10))


@pytest.mark.parametrize("bad, kind", [
    (-1.0, "ValueError"), (float("nan"), "ValueError"), (float("inf"), "ValueError"),
    (("fit", -5.0), "ValueError"), (("fit", float("nan")), "ValueError"),
    ("3", "TypeError"), (True, "TypeError"), (None, "TypeError"), ((3, 1.0), "TypeError"),
], ids=["negative", "nan", "inf", "negative work", "nan work", "str", "bool", "None",
        "kind not a str"])
def test_a_cost_that_is_not_a_finite_non_negative_number_is_refused(bad, kind, capsys):
    # Issue 48.10. Before: -1 s gave "estimated CPU time: -6.0 s", NaN "nan s".
    from skxor.studies import dry_run_text

    study = _squares(cost=lambda cell: bad if cell["x"] == 2 else 1.0)
    with pytest.raises(Exception) as info:
        dry_run_text(study, "quick")
    assert type(info.value).__name__ == kind
    message = str(info.value)
    assert "study 'squares_cost'" in message and "cost(cell)" in message
    assert "'x': 2" in message  # the cell named
