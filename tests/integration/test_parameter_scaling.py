"""The parameter-scaling study: quick preset, like-for-like cells, the "needed"
rule, intervals, figure, report, bad input."""

import io
import math
import re

import numpy as np
import pandas as pd
import pytest

from skxor import FFNNParityBaseline, SparseXORTransformer
from skxor.studies._parameter_scaling import (
    DISPLAY_NAMES,
    MODELS,
    PRESETS,
    cell_data,
    cell_seeds,
    ffnn_epochs,
    parameter_scaling,
    parameter_scaling_cell,
    parameter_slopes,
    per_seed_minimum,
    plot_parameter_scaling,
    report_parameter_scaling,
    seed_minima,
    summarize_parameter_scaling,
    training_size,
    transformer_start,
)
from skxor.studies._stats import format_interval, wilson_interval
from skxor.theory import population_step


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    folder = tmp_path_factory.mktemp("checkpoints")
    return parameter_scaling("quick", checkpoint_dir=folder), folder


def test_quick_preset_measures_all_models_on_the_same_d(quick):
    df, _ = quick
    expected_d = PRESETS["quick"]["d"]
    assert set(df["model"]) == set(MODELS)
    for model in MODELS:
        rows = df[df["model"] == model]
        assert rows["d"].tolist() == expected_d
        assert rows["reached"].all() and (rows["seeds"] == 5).all()
        assert (rows["success_rate"] >= 0.8).all()
    transformers = df[df["model"] != "ffnn"]
    ffnn = df[df["model"] == "ffnn"]
    np.testing.assert_array_equal(transformers["params"], 2 * transformers["size"])
    np.testing.assert_array_equal(ffnn["params"], ffnn["size"] * (ffnn["d"] + 2) + 1)
    # The two finite-sample models share n(d); the population row has none.
    samples = df[df["model"].isin(["transformer", "ffnn"])]
    np.testing.assert_array_equal(samples["n_train"], [training_size(d, 2048, 1.0)
                                                       for d in samples["d"]])
    assert (df.loc[df["model"] == "transformer_population", "n_train"] == 0).all()
    # The Omega(d) floor of any two-layer network, and the gap it opens.
    assert (ffnn["params"].to_numpy() >= ffnn["d"].to_numpy() + 3).all()
    assert ffnn["params"].iloc[-1] > 10 * transformers["params"].max()
    slopes = parameter_slopes(df)
    assert 0.6 < slopes["ffnn"]["slope"] < 1.3
    for model in ("transformer", "transformer_population"):
        assert slopes[model]["slope"] < 0.6
        assert slopes[model]["high"] < slopes["ffnn"]["low"]  # the intervals separate
    for fit in slopes.values():
        assert fit["low"] <= fit["slope"] <= fit["high"]
        assert fit["n_groups"] == 5 and fit["n_d"] == 4


def test_each_seed_scans_upwards_from_size_one_and_stops_at_its_first_success(quick):
    df, _ = quick
    cells = pd.DataFrame(df.attrs["cells"])
    grids = {"transformer": PRESETS["quick"]["transformer_m"],
             "transformer_population": PRESETS["quick"]["transformer_m"],
             "ffnn": PRESETS["quick"]["ffnn_width"]}
    for (model, d, seed), tried in cells.groupby(["model", "d", "seed"]):
        sizes = tried["size"].tolist()
        assert sizes == grids[model][: len(sizes)]  # a prefix of the grid, from 1
        assert (tried["accuracy"].iloc[:-1] < 0.99).all()
        assert tried["accuracy"].iloc[-1] >= 0.99 or len(sizes) == len(grids[model])


def test_needed_is_the_smallest_size_by_which_80_percent_of_seeds_reached(quick):
    df, _ = quick
    cells = pd.DataFrame(df.attrs["cells"])
    for row in df.itertuples():
        tried = cells[(cells["model"] == row.model) & (cells["d"] == row.d)]
        first = tried[tried["accuracy"] >= 0.99].groupby("seed")["size"].min()
        shares = {s: (first <= s).sum() / 5 for s in sorted(tried["size"].unique())}
        needed = min(s for s, share in shares.items() if share >= 0.8)
        assert row.size == needed
        assert row.seeds_reached == (first <= needed).sum()
        assert (row.success_low, row.success_high) == wilson_interval(row.seeds_reached, 5)
        assert row.success_low < row.success_rate <= row.success_high


def test_summary_of_a_grid_that_fewer_than_80_percent_of_seeds_get_through():
    cells = pd.DataFrame({
        "model": "ffnn", "d": 8, "size": [1, 2, 1, 2, 1, 2], "seed": [0, 0, 1, 1, 2, 2],
        "n_train": 100, "accuracy": [0.7, 1.0, 0.7, 0.75, 0.7, 0.75],
        "params": [11, 21] * 3, "seconds": 0.1,
    })
    row = summarize_parameter_scaling(cells, 0.99, 0.8, 3).iloc[0]
    assert not row["reached"] and np.isnan(row["size"]) and np.isnan(row["params"])
    assert row["seeds_reached"] == 1 and math.isclose(row["success_rate"], 1 / 3)
    assert np.isnan(row["median_size"])  # two of three seeds never reach
    row = summarize_parameter_scaling(cells, 0.99, 0.3, 3).iloc[0]
    assert row["reached"] and row["size"] == 2 and row["params"] == 21


def test_rerun_reuses_the_checkpoints(quick):
    df, folder = quick
    again = parameter_scaling("quick", checkpoint_dir=folder)
    # Recorded compute seconds come back unchanged: nothing was recomputed.
    pd.testing.assert_frame_equal(again, df)
    assert again.attrs == df.attrs
    # Results of two runs concatenate (attrs hold plain records).
    assert len(pd.concat([df, again])) == 2 * len(df)


def test_figure_shows_every_series_with_labels_and_ticks(quick):
    df, _ = quick
    fig = plot_parameter_scaling(df)["parameter_scaling"]
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    assert buffer.getvalue()[:4] == b"\x89PNG"
    assert "quick preset, 5 seeds" in fig.get_suptitle()
    assert "population" in fig.get_suptitle() and "samples" in fig.get_suptitle()
    for ax in fig.axes:
        assert ax.get_xlabel() and ax.get_ylabel()
        assert [t.get_text() for t in ax.get_xticklabels()] == ["16", "32", "64", "128"]
        handles, labels = ax.get_legend_handles_labels()
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        assert legend == labels
        for model in MODELS:
            assert any(label.startswith(DISPLAY_NAMES[model]) for label in labels)
        assert any(label.startswith("reference:") for label in labels)
    params_ax, share_ax = fig.axes
    labels = params_ax.get_legend_handles_labels()[1]
    slopes = parameter_slopes(df)
    for model in MODELS:
        fit = slopes[model]
        assert (f"{DISPLAY_NAMES[model]}: fit, slope "
                f"{format_interval(fit['slope'], fit['low'], fit['high'])}") in labels
    # Distinct markers and line styles, one per model.
    needed = [line for line in params_ax.get_lines() if "needed" in line.get_label()]
    assert len({line.get_marker() for line in needed}) == len(MODELS)
    assert len({str(line.get_linestyle()) for line in needed}) == len(MODELS)
    # Wilson intervals drawn as error bars for each model.
    assert len(share_ax.containers) == len(MODELS)


def test_report_numbers_come_from_the_table(quick):
    df, _ = quick
    text = report_parameter_scaling(df)
    for row in df.itertuples():
        share = format_interval(row.success_rate, row.success_low, row.success_high)
        assert f"{row.seeds_reached}/5 = {share}" in text
    for model, fit in parameter_slopes(df).items():
        assert (f"{DISPLAY_NAMES[model]}: {format_interval(fit['slope'], fit['low'], fit['high'])} "
                f"({fit['n_points']} points from 5 seeds") in text
    assert "Rough: 5 seeds" in text and "The full preset (10 seeds) narrows them" in text
    d = max(PRESETS["quick"]["d"])
    row = df[(df["d"] == d) & (df["model"] == "ffnn")].iloc[0]
    assert f"At d = {d}, the largest d where both" in text
    assert f"FFNN {int(row.params)} trainable parameters (width {int(row['size'])})" in text
    m = df[df["model"] == "transformer"]["size"]
    assert (f"Over d = 16 to {d}, the transformer needed m = {int(m.min())} to {int(m.max())} "
            "on the training sets") in text
    assert "population" in text and "same n(d) = max(2048, d²)" in text
    rst = report_parameter_scaling(df, tablefmt="rst")
    assert "=====" in rst


def test_cells_train_both_models_on_the_same_sets_and_match_direct_fits():
    d, seed, random_state, n_train, n_test = 10, 0, 4, 3000, 1000
    support, X, y, X_test, y_test = cell_data(d, n_train, n_test, random_state, seed)
    # The test set does not depend on the training size (the population row shares it).
    _, _, _, X_test0, y_test0 = cell_data(d, 0, n_test, random_state, seed)
    np.testing.assert_array_equal(X_test, X_test0)
    np.testing.assert_array_equal(y_test, y_test0)
    np.testing.assert_array_equal(y, -X[:, support[0]] * X[:, support[1]])
    model_seed = cell_seeds(random_state, d, seed)[3]
    common = dict(d=d, seed=seed, random_state=random_state, n_test=n_test)

    cell = parameter_scaling_cell("transformer", size=6, n_train=n_train, transformer_steps=5,
                                  step_length=20.0, **common)
    clf = SparseXORTransformer(m=6, max_iter=5, step_length=20.0, random_state=model_seed)
    assert cell["accuracy"] == clf.fit(X, y).score(X_test, y_test) and cell["params"] == 12

    epochs = ffnn_epochs(n_train, 256, 128)
    cell = parameter_scaling_cell("ffnn", size=3, n_train=n_train, ffnn_activation="relu",
                                  ffnn_epochs=epochs, ffnn_batch_size=128,
                                  ffnn_learning_rate=0.01, **common)
    clf = FFNNParityBaseline(width=3, max_iter=epochs, batch_size=128, learning_rate=0.01,
                             random_state=model_seed)
    assert cell["accuracy"] == clf.fit(X, y).score(X_test, y_test) and cell["params"] == 37

    cell = parameter_scaling_cell("transformer_population", size=6, transformer_steps=5,
                                  step_length=20.0, **common)
    keys, queries = transformer_start(d, 6, model_seed)
    for _ in range(5):
        queries = population_step(queries, keys, support, step_length=20.0)
    scores = np.exp(queries @ keys.T)
    scores /= scores.sum(axis=1, keepdims=True)
    f = -(X_test @ scores[0]) * (X_test @ scores[1])
    assert cell["accuracy"] == np.mean(np.where(f > 0, 1, -1) == y_test)


def test_training_size_and_ffnn_budget_rules():
    assert [training_size(d, 2048, 1.0) for d in (16, 45, 46, 256)] == [2048, 2048, 2116, 65536]
    assert training_size(10, 1, 0.5) == 50
    # Whole epochs, at least 256 steps of 128 and at least one epoch.
    assert [ffnn_epochs(n, 256, 128) for n in (2048, 2200, 32768, 65536)] == [16, 15, 1, 1]
    assert ffnn_epochs(100, 256, 128) == 256


def test_a_grid_that_never_reaches_the_threshold():
    # One ReLU unit cannot compute an XOR of two bits (at most 3 of 4 cases).
    df = parameter_scaling(model=["ffnn"], d=[8], seeds=1, ffnn_width=[1],
                           n_train_min=500, ffnn_steps=20, n_test=500)
    row = df.iloc[0]
    assert not row["reached"] and np.isnan(row["params"]) and np.isnan(row["size"])
    assert row["success_rate"] == 0.0 and row["seeds_reached"] == 0
    row_pattern = r"\|\s*FFNN \(samples\)\s*\|\s*8\s*\|\s*500\s*\|\s*-\s*\|\s*-\s*\|\s*0/1 = 0.00"
    assert re.search(row_pattern, report_parameter_scaling(df))
    assert np.isnan(parameter_slopes(df)["ffnn"]["slope"])
    assert per_seed_minimum(df.attrs["cells"], 0.99)["size"].isna().all()
    plot_parameter_scaling(df)  # nothing to fit; the references and shares still draw


def test_samples_d_max_limits_the_finite_sample_models_only():
    df = parameter_scaling(d=[8, 32], samples_d_max=8, seeds=1, transformer_m=[32],
                           ffnn_width=[8], n_train_min=500, ffnn_steps=10, n_test=200)
    assert df[df["model"] == "ffnn"]["d"].tolist() == [8]
    assert df[df["model"] == "transformer"]["d"].tolist() == [8]
    assert df[df["model"] == "transformer_population"]["d"].tolist() == [8, 32]
    text = report_parameter_scaling(df)
    assert "transformer (population), all d" in text  # its slope over every d, separately


def test_population_start_is_the_estimators_start():
    _, X, y, _, _ = cell_data(12, 100, 10, 0, 0)
    clf = SparseXORTransformer(m=5, random_state=7).fit(X, y)
    keys, queries = transformer_start(12, 5, 7)
    np.testing.assert_array_equal(keys, clf.keys_)
    np.testing.assert_array_equal(queries, clf.initial_queries_)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"preset": "medium"}, ValueError, "preset must be one of"),
        ({"widths": [1]}, ValueError, "unknown parameter"),
        ({"model": ["rnn"]}, ValueError, r"'model' parameter .* among \{"),
        ({"d": [1]}, ValueError, r"'d' parameter .* range \[2, inf\)"),
        ({"ffnn_width": [0]}, ValueError, r"'ffnn_width' parameter .* range \[1, inf\)"),
        ({"threshold": 1.5}, ValueError, "threshold"),
        ({"success_share": 0}, ValueError, "'success_share' parameter of parameter_scaling"),
        ({"seeds": 0}, ValueError,
         r"'seeds' parameter of parameter_scaling must be an int in the range \[1, inf\)"),
        ({"n_train_per_d2": -1.0}, ValueError, "'n_train_per_d2' parameter"),
        ({"n_train_per_d2": float("inf")}, ValueError, "'n_train_per_d2' parameter"),
        ({"samples_d_max": 1}, ValueError, r"'samples_d_max' parameter .* range \[2, inf\)"),
        ({"ffnn_activation": "softplus"}, ValueError,
         "'ffnn_activation' parameter of parameter_scaling must be a str among"),
        ({"random_state": None}, TypeError, r"'random_state' parameter .* range \[0, inf\)"),
        ({"model": ["ffnn"], "d": [64], "samples_d_max": 32}, ValueError, "nothing to run"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        parameter_scaling(**kwargs)


def test_outputs_come_from_the_table_when_the_runner_merges_runs(tmp_path):
    # Two runs on one folder: the CSV keeps d = 8 from the first, d = 16 from the
    # second; the figure and report are drawn from the merged table (per-seed
    # minima in its seed_sizes/seed_params columns, not the latest run's cells).
    from skxor.studies import run_studies

    tiny = dict(model=["transformer_population"], seeds=2, transformer_m=[2, 8, 32],
                n_test=500)
    for d in (8, 16):
        run_studies(["parameter_scaling"], out_dir=tmp_path, echo=None,
                    overrides={"parameter_scaling": dict(tiny, d=[d])})
    table = pd.read_csv(tmp_path / "parameter_scaling.csv")
    assert table["d"].tolist() == [8, 16]
    minima = seed_minima(table)
    assert len(minima) == 4 and sorted(minima["d"].unique()) == [8, 16]
    slope = parameter_slopes(table)["transformer_population"]
    assert slope["n_d"] == 2 and slope["n_points"] == minima["params"].notna().sum()
    text = (tmp_path / "report.md").read_text()
    assert "d in {8, 16}" in text
    assert "quick preset with model, d, seeds, n_test, transformer_m overridden" in text
    assert (tmp_path / "parameter_scaling_parameter_scaling.png").stat().st_size > 0


def test_seed_columns_match_the_cells(quick):
    df, _ = quick
    order = ["model", "d", "seed"]
    cells = per_seed_minimum(df.attrs["cells"], 0.99).sort_values(order, ignore_index=True)
    table = seed_minima(df).sort_values(order, ignore_index=True)
    pd.testing.assert_frame_equal(table, cells)
    assert len(table) == len(df) * 5
    # A row merged from an older table without the per-seed columns adds no seeds.
    older = df.copy()
    older.loc[0, ["seed_sizes", "seed_params"]] = np.nan
    assert len(seed_minima(older)) == len(table) - 5


@pytest.mark.slow
def test_full_preset_population_reference_reaches_8192():
    df = parameter_scaling("full", model=["transformer_population"])
    assert df["d"].max() == 8192 and df["reached"].all()
