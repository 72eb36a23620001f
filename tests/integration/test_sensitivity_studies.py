"""The random-initialisation study (training: test_training_study.py)."""

import json

import matplotlib
import numpy as np
import pandas as pd
import pytest

from skxor.studies._random_init import (
    plot_random_init_sensitivity,
    random_init_sensitivity,
    report_random_init_sensitivity,
    summarise_random_init,
)

matplotlib.use("Agg")

TINY_INIT = dict(
    n_bits=[4, 6, 12], d_model=[8], n_layers=[1], n_heads=2, seeds=3, exhaustive_max=8,
    n_samples=64, n_blowup=32,
)


@pytest.fixture(scope="module")
def init_df():
    return random_init_sensitivity(**TINY_INIT)


def test_random_init_table(init_df):
    df = init_df
    models = df[df["function"] == "transformer"]
    refs = df[df["function"] != "transformer"]
    assert len(models) == 3 * 2 * 3  # N x eps x seeds
    assert len(refs) == 3 * 3  # N x {PARITY, MAJORITY, FIRST}
    assert set(models["layer_norm_eps"]) == {0.0, 1e-5}
    # Exhaustive up to exhaustive_max, sampled (with an interval) beyond.
    assert (df.loc[df["n_bits"] <= 8, "method"] == "exhaustive").all()
    sampled = df[df["n_bits"] == 12]
    assert (sampled["method"] == "sampled").all() and (sampled["n_strings"] == 64).all()
    assert (sampled["zero_fraction_low"] <= sampled["zero_fraction"]).all()
    for _, row in df.iterrows():
        profile = json.loads(row["profile"])
        assert len(profile) == row["n_bits"] + 1
        assert profile[0] == pytest.approx(row["zero_fraction"])
        assert np.dot(np.arange(len(profile)), profile) == pytest.approx(
            row["average_sensitivity"])
        assert row["constant"] == (row["max_sensitivity"] == 0)
    assert (models["ln_inv_std_max"] > 0).all()


def test_random_init_references_are_exact(init_df):
    refs = init_df[init_df["function"] != "transformer"].set_index(["function", "n_bits"])
    for n in (4, 6, 12):
        assert refs.loc[("PARITY", n), "zero_fraction"] == 0.0
        assert refs.loc[("PARITY", n), "average_sensitivity"] == n
        assert refs.loc[("FIRST", n), "zero_fraction"] == 0.0
        assert refs.loc[("FIRST", n), "average_sensitivity"] == 1.0
    # MAJORITY on 4 bits (ties -> 0): 0, 1 or 4 ones are insensitive, 6 of 16.
    assert refs.loc[("MAJORITY", 4), "zero_fraction"] == 6 / 16


def test_random_transformers_have_many_zero_sensitivity_strings(init_df):
    summary = summarise_random_init(init_df)
    models = summary[summary["config"].str.startswith("normal")]
    assert (models["zero_fraction"] > 0.3).all()
    assert models["zero_fraction"].mean() > 0.6


def test_random_init_report_and_figures(init_df):
    report = report_random_init_sensitivity(init_df)
    assert report.startswith("## Sensitivity at random initialisation")
    assert "PARITY" in report and "normal, D=8, L=1, eps=0" in report
    assert "eps = 0 against eps > 0 on the same weights: equal profiles in" in report
    figures = plot_random_init_sensitivity(init_df)
    assert set(figures) == {"zero_fraction", "average_sensitivity", "profiles"}
    assert len(figures["zero_fraction"].axes) == 2  # one panel per eps


def test_random_init_checkpoints_and_reproducibility(tmp_path):
    kwargs = dict(TINY_INIT, n_bits=[4], seeds=2, layer_norm_eps=[0.0])
    a = random_init_sensitivity(checkpoint_dir=tmp_path, **kwargs)
    assert list((tmp_path / "random_init_sensitivity").glob("*.json"))
    b = random_init_sensitivity(checkpoint_dir=tmp_path, **kwargs)  # from checkpoints
    c = random_init_sensitivity(**kwargs)  # recomputed
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(a, c)
    d = random_init_sensitivity(random_state=1, **dict(kwargs, n_bits=[6]))
    e = random_init_sensitivity(**dict(kwargs, n_bits=[6]))
    assert d["profile"].tolist() != e["profile"].tolist()


def test_random_init_bad_overrides():
    with pytest.raises(ValueError, match="unknown parameter"):
        random_init_sensitivity(width=[8])
    with pytest.raises(ValueError, match="divisible by n_heads"):
        random_init_sensitivity(d_model=[10], n_heads=4)
    with pytest.raises(ValueError, match="preset"):
        random_init_sensitivity("huge")
    with pytest.raises(ValueError, match="device"):
        random_init_sensitivity(device="tpu")


@pytest.mark.slow
def test_quick_presets_run():
    ri = random_init_sensitivity("quick")
    assert len(ri) == 6 * 2 * 2 * 6 + 6 * 3
