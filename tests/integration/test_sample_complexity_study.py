"""The sample-complexity study: per-seed n*, censoring, exponents with intervals, figures."""

import numpy as np
import pandas as pd
import pytest

from skxor.studies import plot_sample_complexity, report_sample_complexity, sample_complexity
from skxor.studies import samples_needed
from skxor.studies._sample_complexity import (
    PRESETS,
    SETTING_COLUMNS,
    TIME_COLUMNS,
    fit_exponents,
    n_star_per_seed,
    train_sizes,
)

from _figures import assert_every_axis_labelled_and_series_in_legend


@pytest.fixture(scope="module")
def curves():
    return sample_complexity(
        model=["transformer_multi_step"], d=[10, 20], seeds=3, n_min=16, n_max=2048,
        n_sizes=8, n_test=400,
    )


def test_learning_curves_columns_and_timing(curves):
    assert set(curves.columns) == {"model", "d", "seed", "n", "accuracy",
                                   *SETTING_COLUMNS, *TIME_COLUMNS}
    assert sorted(curves["n"].unique()) == [16, 32, 64, 128, 256, 512, 1024, 2048]
    # Each curve's times sit on its first row only, so sums are totals.
    firsts = curves.groupby(["model", "d", "seed"])["seconds"].apply(lambda s: (s > 0).sum())
    assert (firsts == 1).all()
    assert 0 < curves["floor_seconds"].sum() <= curves["seconds"].sum()
    assert (curves[curves["n"] == 2048]["accuracy"] >= 0.95).all()


def _table(accuracies, sizes=(10, 20, 40, 80)):
    rows = []
    for seed, accs in enumerate(accuracies):
        rows += [{"model": "m", "d": 10, "seed": seed, "n": n, "accuracy": a, "target": 0.95}
                 for n, a in zip(sizes, accs)]
    return pd.DataFrame(rows)


def test_n_star_per_seed_requires_staying_above_and_flags_censoring():
    df = _table([[0.99, 0.5, 0.97, 0.98],   # reached at 40 (the 10 is a lucky dip)
                 [0.96, 0.97, 0.99, 1.0],   # at the grid floor: censored
                 [0.1, 0.2, 0.3, 0.4]])     # never
    per_seed = n_star_per_seed(df)
    assert per_seed["n_star"].tolist() == [40.0, 10.0, np.inf]
    assert per_seed["status"].tolist() == ["reached", "at grid floor", "not reached"]
    table = samples_needed(df)
    assert table["n_star"].tolist() == [40.0]
    assert table["reached"].iloc[0] == "2/3" and table["at_floor"].iloc[0] == 1
    row = table.iloc[0]
    assert row["reached_rate"] == pytest.approx(2 / 3)
    assert row["reached_low"] <= row["reached_rate"] <= row["reached_high"]
    df = _table([[0.1, 0.2, 0.3, 0.4]])
    assert np.isnan(samples_needed(df)["n_star"].iloc[0])


def test_exponent_recovers_a_known_slope_and_leaves_out_censored_points():
    rng = np.random.default_rng(0)
    sizes = np.round(100 * 2 ** (np.arange(0, 30) / 2)).astype(int)
    rows = []
    for d in [10, 20, 40, 80]:
        for seed in range(8):
            n_star = 3 * d**2 * np.exp(0.2 * rng.standard_normal())
            for n in sizes:
                rows.append({"model": "m", "d": d, "seed": seed, "n": n,
                             "accuracy": 1.0 if n >= n_star else 0.5, "target": 0.95})
    df = pd.DataFrame(rows)
    fit = fit_exponents(df).iloc[0]
    assert fit["low"] <= 2.0 <= fit["high"] and abs(fit["exponent"] - 2) < 0.2
    assert fit["low"] <= fit["exponent"] <= fit["high"]
    # d = 10 needs about 300 samples; raise the grid floor to 400 and those
    # seeds become censored: they are counted and left out.
    floored = df[df["n"] >= 400]
    fit = fit_exponents(floored).iloc[0]
    assert fit["left_out_floor"] >= 6
    assert fit["n_points"] == 32 - fit["left_out_floor"] - fit["left_out_unreached"]


def test_report_states_numbers_from_the_table(curves):
    text = report_sample_complexity(curves)
    fit = fit_exponents(curves).iloc[0]
    assert f"from {int(fit['n_points'])} points" in text
    assert "Rough: 3 seeds and 2 values of d" in text
    assert "d^4" in text
    assert "parameter-scaling study" in text


def test_tradeoff_sentence_compares_medians():
    rows = []
    for model, scale in [("ffnn", 1), ("transformer_one_step", 4)]:
        for d in [10, 20]:
            for n in [10, 20, 40, 80, 160, 320]:
                rows.append({"model": model, "d": d, "seed": 0, "n": n, "target": 0.95,
                             "accuracy": 1.0 if n >= scale * d else 0.5})
    text = report_sample_complexity(pd.DataFrame(rows))
    assert "the FFNN's median n* is below the transformer_one_step's at 2 of the 2" in text


def test_figures_label_every_axis_and_show_every_series(curves):
    figures = plot_sample_complexity(curves)
    assert set(figures) == {"learning_curves", "samples_needed"}
    for figure in figures.values():
        assert_every_axis_labelled_and_series_in_legend(figure)
    ax = figures["samples_needed"].axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["10", "20"]
    assert any("d^4" in t.get_text() for t in ax.get_legend().get_texts())


def test_full_preset_is_powered():
    full = PRESETS["full"]
    ds = full["d"]
    assert len(ds) >= 6 and max(ds) / min(ds) >= 10 and full["seeds"] >= 10
    sizes = np.array(train_sizes(full["n_min"], full["n_max"], full["n_sizes"]))
    # No step coarser than x sqrt(2), up to rounding to whole samples.
    assert (sizes[1:] <= np.ceil(sizes[:-1] * np.sqrt(2))).all()
    assert sizes.size == full["n_sizes"]


def test_quick_preset_figures(tmp_path):
    df = sample_complexity("quick")
    for name, figure in plot_sample_complexity(df).items():
        assert_every_axis_labelled_and_series_in_legend(figure)
        figure.savefig(tmp_path / f"{name}.png", dpi=60)
    assert "quick preset" in plot_sample_complexity(df)["samples_needed"].axes[0].get_title()
    assert "Rough" in report_sample_complexity(df)


def test_a_merged_table_is_analysed_on_the_latest_setting(tmp_path):
    from skxor.studies import run_studies

    tiny = dict(model=["transformer_multi_step"], d=[10], seeds=1, n_min=16, n_max=64,
                n_sizes=3, n_test=100)
    run = dict(out_dir=tmp_path, progress=False, echo=None)
    first = run_studies(["sample_complexity"], overrides={"sample_complexity": tiny}, **run)
    attrs = first["sample_complexity"].attrs
    assert attrs["floor_seconds"] == pytest.approx(
        first["sample_complexity"]["floor_seconds"].sum())
    assert attrs["floor_description"] and attrs["preset"] is None
    # Another test split: other measurements, kept beside the first (the key
    # holds the setting), and left out of the analysis of the latest run.
    run_studies(["sample_complexity"], overrides={"sample_complexity": {**tiny, "n_test": 200}},
                **run)
    table = pd.read_csv(tmp_path / "sample_complexity.csv")
    assert len(table) == 6 and sorted(table["n_test"].unique()) == [100, 200]
    assert (n_star_per_seed(table)["seed"] == 0).all() and len(n_star_per_seed(table)) == 1
    report = (tmp_path / "report.md").read_text()
    # The runner analyses each setting in its own part; called on the merged
    # table, the report analyses the latest and names the rows it left out.
    assert "## Sample complexity (an earlier run's setting, 2 of 2)" in report
    assert "n_test=100" in report and "n_test=200" in report
    text = report_sample_complexity(table)
    assert "the table also holds 3 rows of 1 other setting(s)" in text
    assert "n_test=100" in text
