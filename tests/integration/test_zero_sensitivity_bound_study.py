"""The zero_sensitivity_bound study: Köver et al.'s Theorem 4.5 measured."""

import math

import matplotlib
import numpy as np
import pytest

from skxor.studies import STUDIES, get_study
from skxor.studies._random_init import random_init_sensitivity
from skxor.studies._zero_sensitivity_bound import (
    bound_exponent,
    plot_zero_sensitivity_bound,
    report_zero_sensitivity_bound,
    summarise_bound,
    zero_sensitivity_bound,
)

matplotlib.use("Agg")

TINY = dict(n_bits=[4, 6, 14], d_model=[8], n_layers=[1, 2], seeds=3, exhaustive_max=6,
            n_samples=16, n_blowup=16)


@pytest.fixture(scope="module")
def df():
    return zero_sensitivity_bound(**TINY)


def check_figures(figures):
    """Every axis labelled; every labelled series has a legend entry."""
    for name, fig in figures.items():
        fig.canvas.draw()
        legend_texts = {t.get_text() for leg in fig.legends for t in leg.get_texts()}
        for ax in fig.axes:
            if ax.get_legend() is not None:
                legend_texts |= {t.get_text() for t in ax.get_legend().get_texts()}
        for ax in fig.axes:
            assert ax.get_xlabel() and ax.get_ylabel(), f"{name}: an unlabelled axis"
            labels = [lab for lab in ax.get_legend_handles_labels()[1]
                      if not lab.startswith("_")]
            assert labels, f"{name}: a panel without labelled series"
            missing = set(labels) - legend_texts
            assert not missing, f"{name}: series without a legend entry: {missing}"


def test_registered_with_the_issues_full_design():
    assert "zero_sensitivity_bound" in STUDIES
    full = get_study("zero_sensitivity_bound").preset("full")
    assert full["layer_norm_eps"] == [0.0, 1e-5]
    assert full["d_model"] == [8, 16, 32, 64] and full["n_layers"] == [1, 2, 4]
    assert full["seeds"] >= 100 and max(full["n_bits"]) >= 1024 and min(full["n_bits"]) == 4
    assert full["exhaustive_max"] == 20 and full["n_samples"] >= 10_000
    quick = get_study("zero_sensitivity_bound").preset("quick")
    assert quick["readout"] == "eos" and quick["init"] == "uniform"


def test_bound_exponent_and_vacuous_rule():
    assert bound_exponent(32, 1) == 10.5
    for D in (8, 16, 32, 64):
        for L in (1, 2, 4):
            assert (bound_exponent(D, L) > 0) == (D - 1 > 10 * L)


def test_table_and_summary(df):
    assert len(df) == 3 * 2 * 2 * 3  # N x L x eps x seeds
    assert (df.loc[df["n_bits"] <= 6, "method"] == "exhaustive").all()
    assert (df.loc[df["n_bits"] == 14, "method"] == "sampled").all()
    summary = summarise_bound(df)
    assert len(summary) == 3 * 2 * 2
    for _, row in summary.iterrows():
        g = df[(df["n_bits"] == row["n_bits"]) & (df["n_layers"] == row["n_layers"])
               & (df["layer_norm_eps"] == row["layer_norm_eps"])]
        assert row["log10_bound"] == pytest.approx(
            bound_exponent(8, row["n_layers"]) * math.log10(row["n_bits"]))
        assert row["vacuous"]  # D = 8: D - 1 <= 10 L
        fraction = g["n_zero_found"].sum() / g["n_strings"].sum()
        assert row["log10_count"] == pytest.approx(
            math.log10(fraction) + row["n_bits"] * math.log10(2))
        if row["method"] == "sampled":
            assert row["log10_count_low"] <= row["log10_count"] <= row["log10_count_high"]
        for name in ("with_zero", "nonconstant_with_zero", "meets_bound"):
            if row[f"{name}_low"] == row[f"{name}_low"]:  # not NaN
                assert row[f"{name}_low"] <= row[name] <= row[f"{name}_high"]
        assert row["with_zero"] == g["has_zero"].mean()
        assert row["constant"] == g["constant"].mean()
        assert row["nonconstant"] == (~g["constant"].astype(bool)).sum()
    # Constant networks have every string at sensitivity 0.
    const = df[df["constant"].astype(bool) & (df["method"] == "exhaustive")]
    assert (const["zero_fraction"] == 1.0).all()


def test_same_networks_as_the_random_init_study(df):
    row = df[(df["n_bits"] == 6) & (df["n_layers"] == 1) & (df["seed"] == 2)
             & (df["layer_norm_eps"] == 0)].iloc[0]
    other = random_init_sensitivity(
        n_bits=[6], d_model=[8], n_layers=[1], n_heads=2, layer_norm_eps=[0.0],
        init=["uniform"], seeds=3, exhaustive_max=6, n_blowup=16, n_random_functions=0)
    mine = other[(other["function"] == "transformer") & (other["seed"] == 2)].iloc[0]
    for column in ("profile", "logit_mean", "n_zero_found", "beta_max"):
        assert row[column] == mine[column]


def test_report_and_figures(df):
    report = report_zero_sensitivity_bound(df)
    assert report.startswith("## Theorem 4.5")
    assert "It is not here for (D, L) = (8, 1), (8, 2)" in report
    assert "Rough: 3 seeds" in report
    k = int(df.loc[df["layer_norm_eps"] == 0, "has_zero"].sum())  # eps > 0 repeats them
    assert f"had a zero-sensitivity string found ({k})" in report
    assert "identical profiles in 18 of 18 pairs" in report
    figures = plot_zero_sensitivity_bound(df)
    assert set(figures) == {"count", "shares"}
    check_figures(figures)
    ax = figures["count"].axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["4", "6", "14"]
    labels = ax.get_legend_handles_labels()[1]
    assert any(lab.startswith("reference: bound") and "vacuous" in lab for lab in labels)


def test_bad_overrides():
    with pytest.raises(ValueError, match="divisible by n_heads"):
        zero_sensitivity_bound(d_model=[9])
    with pytest.raises(ValueError, match="exhaustive_max"):
        zero_sensitivity_bound(exhaustive_max=30)
    with pytest.raises(ValueError, match="unknown parameter"):
        zero_sensitivity_bound(width=3)


@pytest.mark.slow
def test_quick_preset_figures():
    df = get_study("zero_sensitivity_bound").run("quick")
    check_figures(plot_zero_sensitivity_bound(df))
    assert not np.isnan(summarise_bound(df)["with_zero"]).any()
