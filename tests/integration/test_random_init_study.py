"""The random-initialisation study: Köver et al.'s setting, constant networks, the control."""

import itertools
import json
import math

import matplotlib
import numpy as np
import pandas as pd
import pytest

from skxor.nn import BooleanTransformer
from skxor.sensitivity import sensitivity_profile
from skxor.studies import get_study
from skxor.studies._random_init import (
    FUNCTIONS,
    POISSON_LIMIT,
    RANDOM_FUNCTION,
    eps_agreement,
    paper_setting_table,
    plot_random_init_sensitivity,
    random_function_cell,
    random_init_sensitivity,
    report_random_init_sensitivity,
    summarise_random_init,
)
from skxor.studies._stats import wilson_interval

matplotlib.use("Agg")

TINY = dict(
    n_bits=[4, 6, 12], init=["normal", "xavier_uniform"], d_model=[8], n_heads=2, seeds=3,
    exhaustive_max=8, n_samples=32, n_blowup=32, n_random_functions=50,
)


@pytest.fixture(scope="module")
def df():
    return random_init_sensitivity(**TINY)


def check_figures(figures):
    """Every axis labelled; every labelled series has a legend entry."""
    assert figures
    for name, fig in figures.items():
        fig.canvas.draw()  # renders: a broken artist fails here
        legend_texts = {t.get_text() for leg in fig.legends for t in leg.get_texts()}
        for ax in fig.axes:
            if ax.get_legend() is not None:
                legend_texts |= {t.get_text() for t in ax.get_legend().get_texts()}
        for ax in fig.axes:
            assert ax.get_xlabel(), f"{name}: an axis without an x label"
            assert ax.get_ylabel(), f"{name}: an axis without a y label"
            labels = [lab for lab in ax.get_legend_handles_labels()[1]
                      if not lab.startswith("_")]
            assert labels, f"{name}: a panel without labelled series"
            missing = set(labels) - legend_texts
            assert not missing, f"{name}: series without a legend entry: {missing}"


def test_default_is_the_papers_setting():
    quick = get_study("random_init_sensitivity").preset("quick")
    assert quick["readout"] == ["eos"] and quick["positional"] == ["sinusoidal"]
    assert {"uniform", "normal", "xavier_uniform", "xavier_normal"} <= set(quick["init"])
    full = get_study("random_init_sensitivity").preset("full")
    assert max(full["n_bits"]) >= 64 and full["exhaustive_max"] == 20
    assert set(full["readout"]) >= {"eos", "last"} and "default" in full["init"]


def test_table(df):
    models = df[df["function"] == "transformer"]
    assert len(models) == 3 * 2 * 2 * 3  # N x eps x init x seeds
    assert set(models["readout"]) == {"eos"} and set(models["positional"]) == {"sinusoidal"}
    assert len(df[df["function"].isin(list(FUNCTIONS))]) == 3 * 3
    control = df[df["function"] == RANDOM_FUNCTION]
    assert sorted(control["n_bits"]) == [4, 6]  # exhaustive N only
    assert (df.loc[df["n_bits"] <= 8, "method"] == "exhaustive").all()
    sampled = models[models["n_bits"] == 12]
    assert (sampled["method"] == "sampled").all() and (sampled["n_strings"] == 32).all()
    for _, row in models.iterrows():
        profile = json.loads(row["profile"])
        assert len(profile) == row["n_bits"] + 1
        assert profile[0] == pytest.approx(row["zero_fraction"])
        assert row["constant"] == (row["max_sensitivity"] == 0)
        assert row["has_zero"] == (row["n_zero_found"] > 0)
        if row["zero_fraction"] > 0:
            assert row["log10_zero_count"] == pytest.approx(
                math.log10(row["zero_fraction"]) + row["n_bits"] * math.log10(2))
        if row["constant"] and row["method"] == "exhaustive":
            # The diagnostic strings are among all strings: T never changes sign.
            assert not row["sign_changes"]
        assert row["logit_std"] >= 0 and row["beta_max"] >= 1


def test_network_matches_a_direct_profile(df):
    """A row is the profile of the network BooleanTransformer builds from its seed."""
    from skxor.studies._common import cell_seed

    row = df[(df["function"] == "transformer") & (df["n_bits"] == 6)].iloc[0]
    model = BooleanTransformer(6, 8, 1, 2, readout="eos", positional="sinusoidal",
                               init=row["init"], layer_norm_eps=row["layer_norm_eps"],
                               seed=cell_seed(0, int(row["seed"]))).eval()
    prof = sensitivity_profile(model, 6, method="exhaustive")
    assert prof.zero_fraction == row["zero_fraction"]
    assert prof.n_zero == row["n_zero_found"]


def _exact_share_with_zero(n_bits):
    """Share of all 2^(2^N) Boolean functions with a zero-sensitivity string."""
    hits = 0
    size = 1 << n_bits
    for values in itertools.product([0, 1], repeat=size):
        table = np.array(values, dtype=np.uint8)
        hits += sensitivity_profile(table, n_bits).n_zero > 0
    return hits / 2 ** size


def test_random_function_control_against_exact_enumeration():
    # N = 1: only the two constants; N = 2 and 3 by enumerating every function.
    assert _exact_share_with_zero(1) == 0.5
    for n_bits in (2, 3):
        exact = _exact_share_with_zero(n_bits)
        cell = random_function_cell(n_bits, 1000, random_state=0)
        low, high = wilson_interval(cell["with_zero"], 1000, confidence=0.999)
        assert low <= exact <= high
        # Each string is insensitive with probability 2^-N: mean count 1.
        assert cell["zero_count_mean"] == pytest.approx(1.0, abs=0.25)


def test_random_function_share_near_the_poisson_limit():
    cell = random_function_cell(10, 400, random_state=1)
    low, high = wilson_interval(cell["with_zero"], 400, confidence=0.999)
    assert low <= POISSON_LIMIT <= high
    assert cell["zero_count_mean"] == pytest.approx(1.0, abs=0.3)


def test_summary_separates_constant_networks(df):
    summary = summarise_random_init(df)
    nets = summary[summary["init"] != RANDOM_FUNCTION]
    assert (nets["networks"] == 3).all()
    for _, row in nets.iterrows():
        assert row["constant_low"] <= row["constant"] <= row["constant_high"]
        if row["nonconstant"] == 0:
            assert np.isnan(row["nonconstant_zero_fraction"])
    models = df[df["function"] == "transformer"]
    g = models[(models["n_bits"] == 6) & (models["init"] == "normal")
               & (models["layer_norm_eps"] == 0)]
    row = nets[(nets["n_bits"] == 6) & (nets["init"] == "normal")
               & (nets["layer_norm_eps"] == 0)].iloc[0]
    assert row["constant"] == g["constant"].mean()
    nonconst = g[~g["constant"].astype(bool)]
    if len(nonconst):
        assert row["nonconstant_zero_fraction"] == pytest.approx(nonconst["zero_fraction"].mean())
    control = summary[summary["init"] == RANDOM_FUNCTION]
    assert (control["with_zero_low"] <= control["with_zero"]).all()


def test_eps_coincide_at_random_init(df):
    agreement = eps_agreement(df)
    assert agreement["pairs"] == 3 * 2 * 3
    assert agreement["same"] == agreement["pairs"]
    assert agreement["inv_std_max"] < 1 / math.sqrt(agreement["eps"])
    assert agreement["beta_max"] <= agreement["beta_bound"]


def test_report_numbers_come_from_the_table(df):
    report = report_random_init_sensitivity(df)
    models = df[(df["function"] == "transformer") & (df["layer_norm_eps"] == 0)]
    k = int(models["constant"].sum())
    assert f"({k} of {len(models)})" in report  # eps > 0 repeats them: counted once
    assert "Rough: 3 seeds" in report
    agreement = eps_agreement(df)
    assert (f"identical profiles in {agreement['same']} of {agreement['pairs']} pairs"
            in report)
    assert "1 - 1/e = 0.632" in report
    table = paper_setting_table(df)
    assert list(table.columns) == ["normal", "xavier_uniform", RANDOM_FUNCTION]
    assert table.loc[12, RANDOM_FUNCTION] == "not enumerated; expected count 1"


def test_figures_show_every_series(df):
    figures = plot_random_init_sensitivity(df)
    assert set(figures) == {"zero_count", "shares", "diagnostic", "profiles"}
    check_figures(figures)
    # eps = 1e-5 coincides with eps = 0: drawn once, and the title says so.
    assert "identical profiles" in figures["zero_count"].get_suptitle()
    # Ticks at every N on the log axes.
    ax = figures["shares"].axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["4", "6", "12"]


def test_profiles_are_drawn_by_the_sensitivity_display(df):
    from unittest import mock

    from skxor.plotting import SensitivityProfileDisplay

    plot = SensitivityProfileDisplay.plot
    with mock.patch.object(SensitivityProfileDisplay, "plot", autospec=True,
                           side_effect=plot) as drawn:
        figure = plot_random_init_sensitivity(df)["profiles"]
    assert drawn.call_count == 2  # one display per scheme
    for call, ax, init in zip(drawn.call_args_list, figure.axes, ["normal", "xavier_uniform"]):
        display = call.args[0]
        assert call.kwargs["ax"] is ax and init in ax.get_title()
        assert set(display.references) == {"reference: PARITY", "reference: MAJORITY",
                                           "reference: FIRST"}
        texts = [t.get_text() for t in ax.get_legend().get_texts()]
        assert texts[0].startswith("mean of") and texts[1].startswith("reference: PARITY")
        # The bars are the mean profile of the scheme's non-constant networks at N = 6.
        nets = df[(df["function"] == "transformer") & (df["n_bits"] == 6)
                  & (df["init"] == init) & (df["layer_norm_eps"] == 0)
                  & ~df["constant"].astype(bool)]
        mean = np.mean([json.loads(p) for p in nets["profile"]], axis=0)
        np.testing.assert_allclose([b.get_height() for b in ax.containers[0]], mean)


def test_checkpoints_and_reproducibility(tmp_path):
    kwargs = dict(TINY, n_bits=[4], seeds=2, layer_norm_eps=[0.0], n_random_functions=5)
    a = random_init_sensitivity(checkpoint_dir=tmp_path, **kwargs)
    assert list((tmp_path / "random_init_sensitivity").glob("*.json"))
    b = random_init_sensitivity(checkpoint_dir=tmp_path, **kwargs)
    pd.testing.assert_frame_equal(a, b)
    c = random_init_sensitivity(random_state=1, **dict(kwargs, n_bits=[6]))
    d = random_init_sensitivity(**dict(kwargs, n_bits=[6]))
    assert c["logit_mean"].tolist() != d["logit_mean"].tolist()


def test_bad_overrides():
    with pytest.raises(ValueError, match="unknown parameter"):
        random_init_sensitivity(width=[8])
    with pytest.raises(ValueError, match="divisible by n_heads"):
        random_init_sensitivity(d_model=[10], n_heads=4)
    with pytest.raises(ValueError, match="readout"):
        random_init_sensitivity(readout=["middle"])
    with pytest.raises(ValueError, match="exhaustive_max"):
        random_init_sensitivity(exhaustive_max=24)
    with pytest.raises(ValueError, match="device"):
        random_init_sensitivity(device="tpu")


@pytest.mark.slow
def test_quick_preset_figures():
    df = get_study("random_init_sensitivity").run("quick")
    check_figures(plot_random_init_sensitivity(df))
    assert report_random_init_sensitivity(df).startswith("## Sensitivity at random")
