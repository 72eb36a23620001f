"""The study registry, runner and command line (the studies' own tests:
test_one_step_study.py, test_sample_complexity_study.py)."""

import io
import platform
import re
import subprocess
import sys

import pandas as pd
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from skxor import __version__
from skxor.cli import main
from skxor.studies import STUDIES
from skxor.papers import one_step, sample_complexity
from skxor.studies import Grid, Study, get_study, register, run_studies


def test_unknown_preset_and_parameters_are_clear_errors():
    with pytest.raises(ValueError, match="preset must be one of"):
        one_step("huge")
    with pytest.raises(ValueError, match=r"unknown parameter\(s\) \['dd'\]"):
        one_step(dd=[3])
    with pytest.raises(ValueError, match=r"'model' parameter of sample_complexity must be"):
        sample_complexity(model=["svm"])
    with pytest.raises(ValueError, match="unknown study"):
        get_study("nope")


def test_run_studies_writes_csv_figures_report_and_resumes(tmp_path):
    overrides = {"one_step": {"d": [50], "m": [8], "seeds": 2, "n_test": 200,
                              "step_length": [100.0], "n_steps": [1]}}
    first = run_studies(["one_step"], out_dir=tmp_path, overrides=overrides, progress=False,
                        echo=lambda line: None)
    for name in ["one_step.csv", "one_step_success.png", "one_step_attention_maps.png", "report.md"]:
        assert (tmp_path / name).stat().st_size > 0
    assert pd.read_csv(tmp_path / "one_step.csv").shape[0] == 6
    cells = sorted((tmp_path / "checkpoints" / "one_step").glob("*.json"))
    stamps = [c.stat().st_mtime_ns for c in cells]
    again = run_studies(["one_step"], out_dir=tmp_path, overrides=overrides, progress=False,
                        echo=lambda line: None)
    assert again["one_step"].equals(first["one_step"])
    assert [c.stat().st_mtime_ns for c in cells] == stamps  # nothing recomputed


def test_command_line_run_list_and_overrides(tmp_path, capsys):
    assert main(["list"]) == 0
    assert "sample_complexity" in capsys.readouterr().out
    code = main([
        "run", "one_step", "--out", str(tmp_path), "--no-progress",
        "--set", "d=30,60", "--set", "one_step.m=4", "--set", "seeds=1", "--set", "n_test=100",
    ])
    assert code == 0
    df = pd.read_csv(tmp_path / "one_step.csv")
    assert sorted(df["d"].unique()) == [30, 60] and (df["m"] == 4).all()
    assert main(["run", "one_step", "--out", str(tmp_path), "--set", "bogus=1"]) == 2
    assert "unknown parameter" in capsys.readouterr().err


# -- the study declarations -------------------------------------------------------


@pytest.mark.parametrize("name", list(STUDIES))
def test_every_study_is_declared_in_one_place(name):
    study = STUDIES[name]
    quick = study.presets["quick"]
    assert set(study.parameters) == set(quick)
    for preset, changes in study.presets.items():
        # Every other preset states only what differs from quick.
        assert all(quick[k] != v for k, v in changes.items()) or preset == "quick"
        assert study.preset(preset) == {**quick, **changes}
        assert study.params(preset) == study.preset(preset)
    assert callable(study.cell) and callable(study.compute)
    assert callable(study.summary) and callable(study.figures) and callable(study.report)
    # The cell lives in the package's _cells module; the declaration in the package.
    module = sys.modules[study.cell.__module__.rsplit(".", 1)[0]]
    assert module.STUDY is study and module.PRESETS is study.presets
    assert module.PARAMETERS is study.parameters


@pytest.mark.parametrize("name", list(STUDIES))
def test_every_parameter_is_checked_against_its_constraints(name):
    study = STUDIES[name]
    for param, constraints in study.parameters.items():
        grid = any(isinstance(c, Grid) for c in constraints)
        bad = [] if grid else object()
        with pytest.raises(InvalidParameterError, match=f"The '{param}' parameter of {name}"):
            study.params("quick", {param: bad})
        if grid:  # a valid single value is a list of one
            value = study.preset("quick")[param][0]
            assert study.params("quick", {param: value})[param] == [value]


def test_a_study_whose_presets_do_not_match_its_parameters_is_refused():
    one = STUDIES["one_step"]
    fields = dict(name="x", description="", parameters=one.parameters, cell=one.cell,
                  compute=one.compute, summary=one.summary, figures=one.figures,
                  report=one.report, key=one.key)
    with pytest.raises(ValueError, match=r"missing \['d'\]"):
        Study(presets={"quick": {k: v for k, v in one.presets["quick"].items() if k != "d"}},
              **fields)
    with pytest.raises(ValueError, match=r"preset 'full' sets \['dd'\]"):
        Study(presets={"quick": one.presets["quick"], "full": {"dd": 1}}, **fields)
    with pytest.raises(InvalidParameterError, match="'seeds' parameter of x"):
        Study(presets={"quick": {**one.presets["quick"], "seeds": 0}}, **fields)
    with pytest.raises(ValueError, match="already registered"):
        register(one)


# -- nothing overwritten, concurrent runs ------------------------------------------


def _tiny(d):
    # One step of one length: 3 attention types x seeds x d cells.
    return ["--set", f"d={d}", "--set", "m=2", "--set", "seeds=2", "--set", "n_test=50",
            "--set", "step_length=100", "--set", "n_steps=1", "--no-progress"]


def test_a_later_run_merges_into_the_table_and_keeps_other_sections(tmp_path, capsys):
    out = str(tmp_path)
    assert main(["run", "one_step", "random_init_sensitivity", "--out", out,
                 "--set", "n_bits=4", "--set", "n_layers=1", *_tiny(20)]) == 0
    report = (tmp_path / "report.md").read_text()
    assert "## Sensitivity at random initialisation" in report
    assert main(["run", "one_step", "--out", out, *_tiny("30,40")]) == 0
    table = pd.read_csv(tmp_path / "one_step.csv")
    # 3 attentions x 2 seeds for each d, from both runs.
    assert sorted(table["d"].unique()) == [20, 30, 40] and len(table) == 18
    report = (tmp_path / "report.md").read_text()
    assert "## Sensitivity at random initialisation" in report  # kept
    assert report.count("## Normalised gradient steps") == 1
    assert "18 rows (12 from the latest run, 6 kept from earlier runs)" in report
    # The header states preset, every override, skxor version, date and machine.
    header = report.split("## Runs")[1].split("\n## ")[0]
    assert ("| one_step | quick | d=[30, 40], m=2, seeds=2, n_test=50, step_length=100, "
            "n_steps=1 |") in header
    assert ("| one_step | quick | d=20, m=2, seeds=2, n_test=50, step_length=100, "
            "n_steps=1 |") in header
    assert "n_bits=4, n_layers=1" in header
    assert f"| {__version__} |" in header and platform.node() in header
    assert re.search(r"\| 20\d\d-\d\d-\d\d \d\d:\d\d:\d\d \|", header)
    # The same parameters again: rows replaced, not duplicated, and said so.
    capsys.readouterr()
    assert main(["run", "one_step", "--out", out, *_tiny(20)]) == 0
    assert "replacing 6 earlier row(s)" in capsys.readouterr().out
    assert len(pd.read_csv(tmp_path / "one_step.csv")) == 18


def test_a_report_from_an_older_version_is_kept(tmp_path):
    (tmp_path / "report.md").write_text("# skxor results (quick preset)\nold text\n")
    with pytest.warns(RuntimeWarning, match="without per-study sections"):
        assert main(["run", "one_step", "--out", str(tmp_path), *_tiny(20)]) == 0
    kept = [p for p in tmp_path.glob("report.*.md")]
    assert len(kept) == 1 and "old text" in kept[0].read_text()


def test_concurrent_runs_on_one_folder_lose_nothing(tmp_path):
    # Four runs at once; each shares d = 20 with the others and has its own d.
    own = [30, 40, 50, 60]
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "skxor.cli", "run", "one_step", "--out", str(tmp_path),
             *_tiny(f"20,{d}")],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for d in own
    ]
    results = [p.communicate(timeout=600) for p in procs]
    for proc, (_, err) in zip(procs, results):
        assert proc.returncode == 0, err
        assert "Traceback" not in err
    table = pd.read_csv(tmp_path / "one_step.csv")
    assert sorted(table["d"].unique()) == [20, *own]
    assert len(table) == 5 * 3 * 2 and not table.duplicated(list(STUDIES["one_step"].key)).any()
    report = (tmp_path / "report.md").read_text()
    assert report.count("| one_step | quick |") == 4
    assert "30 rows" in report
    leftovers = [p.name for p in tmp_path.rglob("*") if p.name.endswith(".tmp")
                 or p.name.startswith(".tmp-")]
    assert leftovers == []
    for name in ["one_step_success.png", "one_step_attention_maps.png"]:
        assert (tmp_path / name).read_bytes()[:4] == b"\x89PNG"


# -- wall time against the study's own floor ------------------------------------------


class _Clock:
    """A clock the runner and the toy share: time passes only when the toy says."""

    now = 0.0

    @classmethod
    def perf_counter(cls):
        return cls.now

    @classmethod
    def sleep(cls, seconds):
        cls.now += seconds


def _toy_floor_compute(params, *, checkpoint_dir, n_jobs, progress, scheduler):
    table = pd.DataFrame({"x": [1, 2]})
    start = _Clock.perf_counter()
    _Clock.sleep(params["sleep"])  # the toy's "unavoidable work", timed like a real floor
    floor = _Clock.perf_counter() - start
    _Clock.sleep(params["sleep"])  # and as much overhead again
    if params["floor"] == "measured":
        table.attrs.update(floor_seconds=floor, floor_description="one sleep\nof the toy")
    elif params["floor"] == "nan":
        table.attrs.update(floor_seconds=float("nan"))
    return table


def _toy_floor_study(monkeypatch):
    from sklearn.utils._param_validation import Interval, StrOptions
    from numbers import Real

    study = Study(
        name="toy_floor", description="A toy that reports its floor.",
        parameters={"sleep": [Interval(Real, 0, None, closed="left")],
                    "floor": [StrOptions({"measured", "absent", "nan"})]},
        presets={"quick": {"sleep": 0.2, "floor": "measured"}},
        cell=_toy_floor_compute, compute=_toy_floor_compute, summary=lambda t: t,
        figures=lambda t: {}, report=lambda t: "## Toy floor", key=("x",), setting=(),
    )
    monkeypatch.setitem(STUDIES, "toy_floor", study)
    # The runner's clock is the toy's: wall time and floor are exact, however
    # slow the machine (a real sleep overran by 0.2 s on a loaded one).
    from skxor.studies import _runner

    monkeypatch.setattr(_runner, "time", _Clock)


def test_a_study_without_its_own_floor_gets_its_cells_floor_work(tmp_path):
    # zero_sensitivity_bound sets no floor_seconds; its cells time their
    # profiles in floor_work, which comes back from joblib workers too.
    import json

    overrides = {"zero_sensitivity_bound": dict(
        n_bits=[4, 6], d_model=[8], n_layers=[1], layer_norm_eps=[0.0], seeds=2)}
    run_studies(["zero_sensitivity_bound"], out_dir=tmp_path, overrides=overrides, n_jobs=2,
                progress=False, echo=None)
    record = json.loads((tmp_path / ".skxor" / "zero_sensitivity_bound.json").read_text())
    run = record["runs"][-1]
    # The floor is summed over the cells of 2 workers: it is no part of the wall
    # time to compare with (a loaded machine stretches either).
    assert run["floor_seconds"] > 0 and run["workers"] == 2
    assert "sensitivity profiles" in run["floor_description"]
    assert "the 4 of 4 computed cells" in run["floor_description"]
    section = (tmp_path / "report.md").read_text()
    assert re.search(r"wall time [\d.]+ s \(joblib, 2 workers\), floor [\d.e-]+ s "
                     r"\(sensitivity profiles", section)


def test_timing_counts_workers_and_cells_read_from_checkpoints(tmp_path):
    # With 2 workers the floor (work summed over cells) is compared per worker;
    # a rerun that reads every cell from its checkpoint computes nothing and
    # must not report a ratio of its wall time to the stored cells' floor.
    import json

    overrides = {"zero_sensitivity_bound": dict(
        n_bits=[4, 6], d_model=[8], n_layers=[1], layer_norm_eps=[0.0], seeds=2)}
    path = tmp_path / ".skxor" / "zero_sensitivity_bound.json"
    run_studies(["zero_sensitivity_bound"], out_dir=tmp_path, overrides=overrides, n_jobs=2,
                progress=False, echo=None)
    first = json.loads(path.read_text())["runs"][-1]
    assert first["workers"] == 2 and first["loaded_cells"] == 0 and first["computed_cells"] == 4
    # The ratio is of the exact wall time, the record's "seconds" rounded to
    # 0.1 s: they agree to that rounding (0.05 s), whatever the machine.
    assert first["floor_ratio"] == pytest.approx(
        first["seconds"] / (first["floor_seconds"] / 2), abs=0.05 / (first["floor_seconds"] / 2) + 1e-9)
    lines = []
    run_studies(["zero_sensitivity_bound"], out_dir=tmp_path, overrides=overrides, n_jobs=2,
                progress=False, echo=lines.append)
    again = json.loads(path.read_text())["runs"][-1]
    assert again["loaded_cells"] == 4 and again["computed_cells"] == 0
    assert again["floor_ratio"] is None
    assert "all 4 cells read from checkpoints" in lines[0]
    assert "ratio" not in lines[0]


def test_the_runner_records_wall_time_and_the_studys_floor(tmp_path, monkeypatch):
    import json

    _toy_floor_study(monkeypatch)
    lines = []
    run_studies(["toy_floor"], out_dir=tmp_path, progress=False, echo=lines.append)
    record = json.loads((tmp_path / ".skxor" / "toy_floor.json").read_text())["runs"][-1]
    # 0.2 s of floor and 0.2 s of overhead on the toy's clock: wall time 0.4 s.
    assert record["floor_seconds"] == pytest.approx(0.2) and record["seconds"] == 0.4
    assert record["floor_description"] == "one sleep of the toy"  # one line
    assert record["floor_ratio"] == pytest.approx(2.0)
    report = (tmp_path / "report.md").read_text()
    assert ("wall time 0.4 s, floor 0.2 s (one sleep of the toy), ratio 2.00x"
            in report.split("## Toy floor")[1]), report
    assert "floor" in report.split("## Toy floor")[0]  # the header lists it too
    assert "floor" in lines[0] and "ratio" in lines[0]

    run_studies(["toy_floor"], out_dir=tmp_path, overrides={"toy_floor": {"floor": "absent"}},
                progress=False, echo=None)
    record = json.loads((tmp_path / ".skxor" / "toy_floor.json").read_text())["runs"][-1]
    assert record["floor_seconds"] is None and record["floor_ratio"] is None
    section = (tmp_path / "report.md").read_text().split("## Toy floor")[1]
    assert re.search(r"wall time [\d.]+ s, floor not measured", section)
    with pytest.warns(RuntimeWarning, match="floor_seconds must be a finite number"):
        run_studies(["toy_floor"], out_dir=tmp_path, overrides={"toy_floor": {"floor": "nan"}},
                    progress=False, echo=None)
    assert "floor not measured" in (tmp_path / "report.md").read_text().split("## Toy floor")[1]


# -- settings: merged, never replaced by another setting, never pooled -------------------

#: Parameters that are neither part of a run's setting nor a key column, and why.
_NOT_IN_SETTING = {
    "seeds": "a count of per-seed rows: the seed is a key column",
    "v1_seeds": "a count of per-seed v1 rows: the seed is a key column",
    "samples_d_max": "chooses which d the finite-sample models run; d is a key column",
    "online_d_max": "chooses which d the online FFNN runs; d is a key column",
    "v1_k": "the k column of the v1 rows", "v1_d": "the d column of the v1 rows",
    "v1_n": "the n column of the v1 rows",
    "regime_seeds": "a count of per-seed rows in H1's and H3's regime: the seed is a key column",
    "one_bit": "adds (d, m) cells where linear heads can attend to one bit: d and m are key "
               "columns",
    "screen_seeds": "a count of screened networks: the seed is a key column",
    "screen_n_bits": "the N of the screened networks: n_bits is a key column",
    "screen_d_model": "the D of the screened networks: d_model is a key column",
}


@pytest.mark.parametrize("name", list(STUDIES))
def test_every_parameter_defining_a_row_is_in_its_merge_key(name):
    # A row is replaced only by a row of the same cell and the same setting:
    # every parameter is a key column (a sweep axis) or part of the setting.
    study = STUDIES[name]
    covered = set(study.key) | set(study.setting)
    if name == "parameter_scaling":  # one row per (model, d) pools its seeds
        assert "seeds" in study.setting
    missing = [p for p in study.parameters if p not in covered and p not in _NOT_IN_SETTING]
    assert missing == []


def test_run_setting_is_canonical():
    from skxor.studies._runner import run_setting

    study = STUDIES["parameter_scaling"]
    preset = run_setting(study, study.params("quick"))
    same = run_setting(study, study.params("quick", {
        "step_length": 20, "transformer_m": [64, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 2],
        "seeds": 5, "d": [16]}))
    assert same == preset
    assert run_setting(study, study.params("quick", {"seeds": 6})) != preset
    assert run_setting(study, study.params("quick", {"ffnn_width": [1, 2]})) != preset


def _ps(tmp_path, **changes):
    tiny = {"model": ["transformer_population", "transformer"], "d": [16],
            "transformer_m": [2, 8], "n_test": 300, "n_train_min": 256, "seeds": 2}
    return run_studies(["parameter_scaling"], out_dir=tmp_path, progress=False,
                       overrides={"parameter_scaling": {**tiny, **changes}},
                       echo=lambda line: None)["parameter_scaling"]


def test_parameter_scaling_runs_with_other_settings_coexist_and_are_reported_apart(tmp_path):
    # Before the fix the key was (model, d): the second run replaced the first's rows.
    first = _ps(tmp_path)
    second = _ps(tmp_path, seeds=3, n_test=400)
    table = pd.read_csv(tmp_path / "parameter_scaling.csv")
    assert len(table) == len(first) + len(second) == 4
    assert table["setting"].nunique() == 2
    for run in (first, second):  # no row lost, none altered or mixed
        rows = table[table["seeds"] == run["seeds"].iloc[0]].reset_index(drop=True)
        pd.testing.assert_frame_equal(
            rows[list(run.columns)], pd.read_csv(io.StringIO(run.to_csv(index=False))),
            check_dtype=False)
    report = (tmp_path / "report.md").read_text()
    assert "## Parameter scaling (the latest run's setting, 1 of 2)" in report
    assert "## Parameter scaling (an earlier run's setting, 2 of 2)" in report
    assert "seeds=3, threshold=0.99" in report and "seeds=2, threshold=0.99" in report
    assert '"n_test": 400' in report and '"n_test": 300' in report
    assert "4 rows (2 from the latest run, 2 kept from earlier runs; 2 settings)" in report
    # Each part analyses its own rows: 3 seeds in one, 2 in the other.
    latest, earlier = report.split("(an earlier run's setting, 2 of 2)")
    assert "/3 = " in latest and "/2 = " not in latest
    assert "/2 = " in earlier and "/3 = " not in earlier
    # The same setting again: replaced by the identical recomputation, not duplicated.
    _ps(tmp_path, seeds=3, n_test=400)
    again = pd.read_csv(tmp_path / "parameter_scaling.csv")
    assert len(again) == 4 and not again.duplicated(["model", "d", "setting"]).any()
    pd.testing.assert_frame_equal(
        again.drop(columns="seconds").sort_values(["setting", "model"], ignore_index=True),
        table.drop(columns="seconds").sort_values(["setting", "model"], ignore_index=True))


def test_one_step_runs_with_other_settings_coexist_via_the_command_line(tmp_path, capsys):
    out = str(tmp_path)
    assert main(["run", "one_step", "--out", out, *_tiny(20)]) == 0
    assert main(["run", "one_step", "--out", out, *_tiny("20,30"), "--set", "n_test=60"]) == 0
    table = pd.read_csv(tmp_path / "one_step.csv")
    # 6 rows at n_test = 50, 12 at n_test = 60: the shared d = 20 is kept at both.
    assert len(table) == 18
    assert table.groupby("n_test").size().to_dict() == {50: 6, 60: 12}
    assert "2 settings, each analysed on its own" in capsys.readouterr().out
    report = (tmp_path / "report.md").read_text()
    assert report.count("best step length (the latest run's setting, 1 of 2)") == 1
    latest, earlier = report.split("(an earlier run's setting, 2 of 2)")
    assert "n_test=60" in latest and "(12 rows)" in latest
    assert "n_test=50" in earlier and "(6 rows)" in earlier


def test_the_headline_refuses_a_table_of_several_settings(tmp_path):
    from skxor.studies import render_headline

    pd.DataFrame({"attention": "softmax", "n": 0, "d": 100, "m": 16, "seed": [0, 1],
                  "success": True, "specialised": True, "setting": ["a", "b"]}
                 ).to_csv(tmp_path / "one_step.csv", index=False)
    with pytest.raises(ValueError, match="holds rows of 2 settings"):
        render_headline(tmp_path)


def test_a_table_written_before_the_setting_column_is_merged(tmp_path):
    out = str(tmp_path)
    assert main(["run", "one_step", "--out", out, *_tiny(20)]) == 0
    older = pd.read_csv(tmp_path / "one_step.csv").drop(columns="setting")
    older.to_csv(tmp_path / "one_step.csv", index=False)
    assert main(["run", "one_step", "--out", out, *_tiny(30)]) == 0
    table = pd.read_csv(tmp_path / "one_step.csv")
    # Its settings are read from its own columns: one setting, 12 rows, nothing set aside.
    assert len(table) == 12 and table["setting"].nunique() == 1
    assert list(tmp_path.glob("one_step.*.csv")) == []
