"""The zero_sensitivity_bound study: random networks compared with Köver et al.'s Theorem 4.5."""

import math
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest
from _figures import (
    assert_every_axis_labelled_and_series_in_legend,
    assert_legends_short_and_drawn,
    drawn_beside_another,
)

from skxor.studies import STUDIES
from skxor.studies import get_study, render_headline
from skxor.papers._common import key_seed
from skxor.papers import random_init_sensitivity
from skxor.papers.kover._networks import distinct_networks, network_key
from skxor.papers.kover.zero_sensitivity_bound import (
    bound_cells,
    bound_exponent,
    bound_verdict,
    summarize_bound,
    zero_sensitivity_bound,
)

STUDY = get_study("zero_sensitivity_bound")

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[2]

TINY = dict(n_bits=[4, 6, 14], d_model=[8], n_layers=[1, 2], seeds=3, exhaustive_max=6,
            n_samples=16, n_blowup=16)


@pytest.fixture(scope="module")
def df():
    return zero_sensitivity_bound(**TINY)


def check_figures(figures):
    """Every axis labelled; every labelled series has a legend entry."""
    for name, fig in figures.items():
        fig.canvas.draw()
        for ax in fig.axes:
            assert ax.get_xlabel() and ax.get_ylabel(), f"{name}: an unlabelled axis"
            labels = [lab for lab in ax.get_legend_handles_labels()[1]
                      if not lab.startswith("_")]
            assert labels, f"{name}: a panel without labelled series"
        # Each series' colour (D) is in a key, every key entry is drawn.
        assert_every_axis_labelled_and_series_in_legend(fig)
        assert_legends_short_and_drawn(fig)


def test_registered_with_the_issues_full_design():
    assert "zero_sensitivity_bound" in STUDIES
    paper = get_study("zero_sensitivity_bound").preset("paper")
    assert paper["layer_norm_eps"] == [0.0, 1e-5]
    assert paper["d_model"] == [8, 16, 32, 64] and paper["n_layers"] == [1, 2, 4]
    assert paper["seeds"] >= 100 and max(paper["n_bits"]) >= 1024 and min(paper["n_bits"]) == 4
    assert paper["exhaustive_max"] == 20 and paper["n_samples"] >= 10_000
    # full: the same design on a 2-core budget, still beyond exhaustive lengths.
    full = get_study("zero_sensitivity_bound").preset("full")
    assert full["d_model"] == paper["d_model"] and full["layer_norm_eps"] == [0.0, 1e-5]
    assert full["seeds"] >= 20 and max(full["n_bits"]) > full["exhaustive_max"]
    # Exact counts at N = 24 for one layer, where the bound is non-vacuous (D = 16).
    assert 24 in full["n_bits"] and full["exhaustive_max"] >= 24
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
    summary = summarize_bound(df)
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
    report = STUDY.render("report", df)
    assert report.startswith("## Theorem 4.5")
    assert "It is not here for (D, L) = (8, 1), (8, 2)" in report
    assert "Rough: 3 seeds" in report
    at_zero = df[df["layer_norm_eps"] == 0]  # eps > 0 repeats the same networks
    k = int(at_zero["has_zero"].sum())
    assert f"Over all {len(at_zero)} networks at eps = 0" in report
    assert f"zero-sensitivity string was found in {k}/{len(at_zero)} networks = " in report
    assert "identical profiles in 18 of 18 networks" in report
    assert "measured" not in report
    figures = STUDY.render("figures", df)
    assert set(figures) == {"count", "shares"}
    check_figures(figures)
    ax = figures["count"].axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["4", "6", "14"]
    labels = ax.get_legend_handles_labels()[1]
    assert any(lab.startswith("reference: bound N^") for lab in labels)
    # Each bound line carries its exponent at its end (it differs per D and L).
    assert any(t.get_text().startswith("N^") for t in ax.texts)


def test_references_drawn_over_the_data_and_legends_clear_of_titles(df):
    figures = STUDY.render("figures", df)
    for ax in figures["count"].axes:
        lines = {line.get_label(): line for line in ax.get_lines()}
        reference = next(v for k, v in lines.items() if "2^N" in k)
        data = [a for a in [*ax.get_lines(), *ax.collections]
                if not str(a.get_label()).startswith("reference")]
        assert data and reference.get_zorder() > max(a.get_zorder() for a in data)
        assert reference.get_alpha() in (None, 1)
    for name, figure in figures.items():
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        canvas = FigureCanvasAgg(figure)
        canvas.draw()
        renderer = canvas.get_renderer()
        title = figure._suptitle.get_window_extent(renderer)
        for legend in figure.legends:
            assert not legend.get_window_extent(renderer).overlaps(title), name


def _synthetic(rows):
    """A study table with given (N, constant, log10 count) per network: D = 32, L = 2."""
    return pd.DataFrame([
        dict(function="transformer", n_bits=n, d_model=32, n_layers=2, layer_norm_eps=0.0,
             seed=i, init="uniform", readout="eos", positional="sinusoidal",
             constant=const, has_zero=True, method="exhaustive", n_strings=2 ** n,
             n_zero_found=round(10 ** log10), log10_zero_count=log10,
             log10_zero_count_low=log10, weights_seed=f"{n}-{i}")
        for i, (n, const, log10) in enumerate(rows)])


def test_verdict_counts_non_constant_networks_in_non_vacuous_rows():
    # D = 32, L = 2: bound N^2.75. At N = 4 it exceeds 2^4 (vacuous); at N = 10 it is
    # 10^2.75 = 562 <= 1024. Three constant networks (count 2^10) reach it trivially;
    # the one non-constant network (10 strings) does not.
    df = _synthetic([(4, True, 4 * math.log10(2)), (4, False, 0.5),
                     (10, True, 10 * math.log10(2)), (10, True, 10 * math.log10(2)),
                     (10, True, 10 * math.log10(2)), (10, False, 1.0)])
    summary = summarize_bound(df)
    assert summary["vacuous_reason"].tolist() == ["bound > 2^N", ""]
    assert summary["meets_bound"].tolist() == [0.0, 0.75]
    verdict = bound_verdict(df)
    assert (verdict["tested"], verdict["networks"], verdict["meets"]) == (1, 1, 0)
    assert "0/1 networks = 0.00" in verdict["text"]
    report = STUDY.render("report", df)
    assert "vacuous (bound > 2^N)" in report and "Compared with the bound" in report
    # Only constant networks in the tested row: the data do not test the bound.
    only_constant = _synthetic([(10, True, 10 * math.log10(2))] * 2)
    assert "do not test the bound" in bound_verdict(only_constant)["text"]


@pytest.mark.parametrize("preset", ["quick", "full", "paper"])
def test_presets_draw_one_network_per_cell_but_eps(preset):
    params = get_study("zero_sensitivity_bound").preset(preset)
    cells = bound_cells(params)
    seeds = {key_seed(params["random_state"], **network_key(
        c["n_bits"], c["d_model"], c["n_layers"], c["n_heads"], c["init"], c["init_scale"],
        c["readout"], c["positional"], c["seed"])) for c in cells}
    assert len(seeds) == len(cells) // len(params["layer_norm_eps"])


def test_each_network_is_counted_once_in_the_report(df):
    report = STUDY.render("report", df)
    networks = distinct_networks(df)
    assert networks == len(df) // 2  # eps paired
    assert f"{networks} distinct random transformers" in report


def test_headline_on_all_constant_networks(tmp_path):
    """Issue 23: every network constant (N = 1) gave 'cannot convert float NaN'."""
    zero_sensitivity_bound(n_bits=[1], d_model=[8], n_layers=[1], layer_norm_eps=[0.0],
                           seeds=2).to_csv(tmp_path / "zero_sensitivity_bound.csv", index=False)
    text = render_headline(tmp_path)
    assert "2/2 networks" in text and "nan" not in text.lower()
    pd.read_csv(tmp_path / "zero_sensitivity_bound.csv").iloc[:0].to_csv(
        tmp_path / "zero_sensitivity_bound.csv", index=False)
    assert "holds no network to summarize" in render_headline(tmp_path)


def test_bad_overrides():
    with pytest.raises(ValueError, match="divisible by n_heads"):
        zero_sensitivity_bound(d_model=[9])
    with pytest.raises(ValueError, match="exhaustive_max"):
        zero_sensitivity_bound(exhaustive_max=33)
    with pytest.raises(ValueError, match="unknown parameter"):
        zero_sensitivity_bound(width=3)


@pytest.mark.slow
def test_quick_preset_figures():
    df = get_study("zero_sensitivity_bound").run("quick")
    check_figures(STUDY.render("figures", df))
    assert not np.isnan(summarize_bound(df)["with_zero"]).any()


def test_summaries_of_an_empty_table(df):
    empty = df.iloc[:0]
    assert "holds no random network" in STUDY.render("report", empty)
    assert bound_verdict(empty)["networks"] == 0
    assert "does not test the bound" in bound_verdict(empty)["text"]
    with pytest.raises(ValueError, match="holds no random network"):
        STUDY.render("figures", empty)


def test_beyond_20_bits_only_one_layer_networks_are_counted_exhaustively():
    """One layer takes the exhaustive path (all 2^21 strings, exact count); two layers
    would need 2^21 forward passes and are sampled; the dry run's cost says the same."""
    from skxor.papers.kover._networks import network_cell, profile_work

    args = dict(n_bits=21, d_model=8, n_heads=2, layer_norm_eps=0.0, init="uniform",
                init_scale=1.0, seed=0, random_state=0, exhaustive_max=21, n_samples=20,
                n_blowup=8)
    one, two = (network_cell(n_layers=L, **args) for L in (1, 2))
    assert (one["method"], one["n_strings"]) == ("exhaustive", 2 ** 21)
    assert one["zero_fraction_low"] is None  # exact: no interval
    assert (two["method"], two["n_strings"]) == ("sampled", 20)
    one_work, two_work = (profile_work(21, 8, L, 21, 20) for L in (1, 2))
    assert one_work == 2.0 ** 21 * 8 * 10 and two_work < one_work
    # Up to 20 bits every function is counted over all strings; beyond, the
    # references and the random-function control are sampled (no such path).
    from skxor.boolean import Parity
    from skxor.nn import BooleanTransformer
    from skxor.papers.kover._profiling import exhaustive
    from skxor.papers.kover.random_init._cells import control_cells

    assert exhaustive(BooleanTransformer(20, d_model=8, n_layers=2, seed=0), 20, 21)
    assert exhaustive(Parity(20), 20, 21) and not exhaustive(Parity(21), 21, 21)
    assert [c["n_bits"] for c in control_cells(
        {"n_bits": [16, 20, 24], "exhaustive_max": 24, "n_random_functions": 3,
         "random_state": 0})] == [16, 20]


def test_zero_count_display_draws_the_table_on_the_given_axes():
    """Issue 33.10: the study's main panel (one L) as a display (from_table, plot(ax=...)),
    drawn from the stored quick table (no networks built), as the study's figure draws it."""
    import matplotlib.pyplot as plt

    from skxor.papers import ZeroCountDisplay

    table = pd.read_csv(ROOT / "tests" / "data" / "quick_tables" / "zero_sensitivity_bound.csv.gz",
                        low_memory=False)
    display = drawn_beside_another(ZeroCountDisplay.from_table, table, n_layers=2)
    right = display.ax_
    assert len(display.legends_) == 2 and right.get_title() == "L = 2"
    # eps > 0 repeats eps = 0 here: one series per width, its points the summary's counts.
    summary = summarize_bound(table)
    summary = summary[(summary["n_layers"] == 2) & (summary["layer_norm_eps"] == 0)]
    series = {c.get_label(): c for c in right.containers}
    assert list(series) == [f"D={d}: mean count" for d in sorted(summary["d_model"].unique())]
    for d, rows in summary.groupby("d_model"):
        rows = rows.sort_values("n_bits")
        np.testing.assert_array_equal(series[f"D={d}: mean count"].lines[0].get_ydata(),
                                      rows["log10_count"].to_numpy())
    only = ZeroCountDisplay.from_table(table, n_layers=1, d_model=32)
    assert [c.get_label() for c in only.ax_.containers] == ["D=32: mean count"]
    assert only.ax_ is not right
    plt.close(only.figure_)
    with pytest.raises(ValueError, match=r"several n_layers \(\[1, 2\]\): choose one"):
        ZeroCountDisplay.from_table(table)
    with pytest.raises(ValueError, match=r"n_layers \[3\] is not in the table"):
        ZeroCountDisplay.from_table(table, n_layers=3)
    panel = STUDY.render("figures", table)["count"].axes[1]
    assert [line.get_label() for line in panel.lines] == [line.get_label() for line in right.lines]
    for ours, theirs in zip(panel.lines, right.lines):
        np.testing.assert_array_equal(ours.get_ydata(), theirs.get_ydata())


def test_the_screen_counts_what_it_finds_non_constant_and_keeps_the_grids_keys():
    """K5's screen: more one-layer networks at one (N, D), eps = 0, seeds after the grid's;
    those its sampled check finds non-constant counted over all strings, the others
    recorded as the screen's ("screened") and left out of the non-constant count. The
    grid's cells keep their parameters (so their checkpoints' keys)."""
    from skxor.papers.kover.zero_sensitivity_bound._cells import (screen_cells,
                                                                  screened_bound_cell)

    study = get_study("zero_sensitivity_bound")
    params = study.params("quick", dict(n_bits=[10], d_model=[16], n_layers=[1],
                                        layer_norm_eps=[0.0], seeds=2, screen_n_bits=10,
                                        screen_d_model=16, screen_seeds=24, n_samples=8,
                                        n_blowup=8))
    assert all("screened" not in c for c in bound_cells(params))
    cells = screen_cells(params)
    assert [c["seed"] for c in cells] == list(range(2, 26))
    assert all(c["screened"] and c["n_layers"] == 1 and c["layer_norm_eps"] == 0.0
               for c in cells)
    assert study.count_cells(params) == 26
    table = study.run(**params)
    screen = table[table["screened"] == True]  # noqa: E712
    assert len(screen) == 24 and set(screen["method"]) <= {"exhaustive", "screened"}
    counted = screen[screen["method"] == "exhaustive"]
    assert not counted["constant"].astype(bool).any()
    assert screen.loc[screen["method"] == "screened", "constant"].astype(bool).all()
    # A counted network is the grid's cell of the same key: the same count.
    cell = dict(cells[0], screened=True)
    result = screened_bound_cell(**cell)
    if result["method"] == "exhaustive":
        assert result["n_strings"] == 2 ** 10
    summary = summarize_bound(table)
    row = summary[summary["screened"]].iloc[0]
    assert row["method"] == "screened" and row["networks"] == 24
    assert row["nonconstant"] == len(counted)
    assert not summary[~summary["screened"]]["method"].eq("screened").any()
