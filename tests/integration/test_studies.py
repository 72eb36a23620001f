"""The one-step and sample-complexity studies, and the command line that runs them."""

import numpy as np
import pandas as pd
import pytest

from skxor.cli import main
from skxor.studies import (
    get_study,
    one_step,
    plot_one_step,
    plot_sample_complexity,
    report_one_step,
    report_sample_complexity,
    run_studies,
    sample_complexity,
    samples_needed,
)


def test_one_step_softmax_succeeds_where_linear_and_erf_fail():
    df = one_step(d=[100, 1000], m=[32], seeds=5, n_test=1000)
    assert len(df) == 3 * 2 * 5
    rate = df.groupby("attention")["success"].mean()
    assert rate["softmax"] >= 0.8 and rate["linear"] == 0 and rate["erf"] == 0
    soft = df[df["attention"] == "softmax"]
    # Where softmax succeeds the heads lock onto distinct support bits with ~all mass.
    assert soft.loc[soft["success"], "specialised"].all()
    assert soft.loc[soft["success"], "support_mass_min"].min() > 0.9
    assert soft.loc[soft["success"], "loss_after_step"].max() < 0.05
    assert (df[df["attention"] == "erf"]["loss_after_step"] > 0.9).all()
    assert "| softmax" in report_one_step(df)
    assert set(plot_one_step(df)) == {"success", "attention_maps"}


def test_one_step_on_finite_samples_uses_the_estimator():
    df = one_step(attention=["softmax"], d=[40], m=[16], n=[20000], seeds=2, n_test=1000)
    assert df["n"].tolist() == [20000, 20000]
    assert df["test_accuracy"].between(0, 1).all()


def test_sample_complexity_learning_curves_and_n_star():
    df = sample_complexity(
        model=["transformer_multi_step"], d=[20, 40], seeds=2, n_min=100, n_max=6400,
        n_sizes=4, n_test=1000,
    )
    assert set(df.columns) == {"model", "d", "seed", "n", "accuracy", "target"}
    assert sorted(df["n"].unique()) == [100, 400, 1600, 6400]
    big = df[df["n"] == 6400]
    assert (big["accuracy"] >= 0.95).all()
    table = samples_needed(df)
    assert table["n_star"].notna().all() and (table["n_star"] <= 6400).all()
    assert "Fitted exponent" in report_sample_complexity(df)
    assert set(plot_sample_complexity(df)) == {"learning_curves", "samples_needed"}


def test_samples_needed_requires_staying_above_target():
    df = pd.DataFrame(
        {
            "model": "m", "d": 10, "seed": 0, "n": [10, 20, 40, 80],
            "accuracy": [0.99, 0.5, 0.97, 0.98], "target": 0.95,
        }
    )
    assert samples_needed(df)["n_star"].tolist() == [40]
    df["accuracy"] = [0.1, 0.2, 0.3, 0.4]
    table = samples_needed(df)
    assert np.isnan(table["n_star"].iloc[0]) and table["reached"].iloc[0] == "0/1"


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
