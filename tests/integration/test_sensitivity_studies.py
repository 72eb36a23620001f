"""The paper-2 training study (random initialisation: test_random_init_study.py)."""


import matplotlib
import pytest

from skxor.studies._training import (
    learned_up_to,
    plot_training_sensitivity,
    report_training_sensitivity,
    training_sensitivity,
)

matplotlib.use("Agg")

TINY_TRAINING = dict(
    n_bits=[4, 6], d_model=16, n_layers=2, n_heads=4, seeds=1, n_steps=200, check_every=50,
)


@pytest.fixture(scope="module")
def training_df():
    return training_sensitivity(**TINY_TRAINING)


def test_training_learns_majority_and_first_but_not_parity(training_df):
    df = training_df.set_index(["function", "n_bits"])
    for function in ("MAJORITY", "FIRST"):
        for n in (4, 6):
            row = df.loc[(function, n)]
            assert row["learned"] and row["accuracy"] == 1.0
            assert row["steps"] < 200  # stopped at the target accuracy
            # Learned exactly on all strings: the profile is the target's.
            assert row["profile"] == row["target_profile"]
            assert row["profile_distance"] == 0.0
    parity = df.loc[("PARITY", 6)]
    assert not parity["learned"] and parity["steps"] == 200
    # What it computes instead is far less sensitive than PARITY (every
    # string of sensitivity 6).
    assert parity["average_sensitivity"] < 3 < parity["target_average_sensitivity"] == 6
    assert parity["profile_distance"] > 0.5
    table = learned_up_to(training_df).set_index("function")
    assert table.loc["MAJORITY", "learned_up_to"] == 6
    assert table.loc["FIRST", "learned_up_to"] == 6
    assert table.loc["PARITY", "learned_up_to"] < 6


def test_training_report_and_figures(training_df):
    report = report_training_sensitivity(training_df)
    assert report.startswith("## Training on PARITY, MAJORITY and FIRST")
    assert "Budget: 200 steps of 64 fresh strings" in report
    figures = plot_training_sensitivity(training_df)
    assert set(figures) == {"accuracy", "sensitivity", "profiles"}


def test_training_beyond_exhaustive_is_sampled():
    df = training_sensitivity(
        function=["FIRST"], n_bits=[7], exhaustive_max=5, n_eval=500, n_samples=50,
        **{k: v for k, v in TINY_TRAINING.items() if k != "n_bits"},
    )
    row = df.iloc[0]
    assert row["method"] == "sampled"
    assert row["learned"]
    assert row["target_zero_fraction"] == 0.0 and row["target_average_sensitivity"] == 1.0


def test_training_bad_overrides():
    with pytest.raises(ValueError, match=r"'function' parameter .* among \{"):
        training_sensitivity(function=["XOR"])
    with pytest.raises(ValueError, match="divisible by n_heads"):
        training_sensitivity(d_model=10)
    with pytest.raises(ValueError, match="device"):
        training_sensitivity(device="tpu")


@pytest.mark.slow
def test_quick_presets_run():
    tr = training_sensitivity("quick")
    assert len(tr) == 3 * 3 * 2
