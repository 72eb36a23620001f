"""The study registry, runner and command line (the studies' own tests:
test_one_step_study.py, test_sample_complexity_study.py)."""

import pandas as pd
import pytest

from skxor.cli import main
from skxor.studies import (
    get_study,
    one_step,
    run_studies,
    sample_complexity,
)


def test_unknown_preset_and_parameters_are_clear_errors():
    with pytest.raises(ValueError, match="preset must be one of"):
        one_step("huge")
    with pytest.raises(ValueError, match=r"unknown parameter\(s\) \['dd'\]"):
        one_step(dd=[3])
    with pytest.raises(ValueError, match="model must be among"):
        sample_complexity(model=["svm"])
    with pytest.raises(ValueError, match="unknown study"):
        get_study("nope")


def test_run_studies_writes_csv_figures_report_and_resumes(tmp_path):
    overrides = {"one_step": {"d": [50], "m": [8], "seeds": 2, "n_test": 200}}
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
