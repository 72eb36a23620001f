"""The parameter-scaling study: quick preset, like-for-like cells, the "needed"
rule, intervals, figure, report, bad input."""

import io
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _figures import (
    assert_every_axis_labelled_and_series_in_legend,
    assert_legends_short_and_drawn,
    drawn_beside_another,
)

from skxor import FFNNParityBaseline, SparseXORTransformer
from skxor.studies import get_study
from skxor.papers.han_ghoshdastidar.parameter_scaling import (
    DISPLAY_NAMES,
    GRIDS,
    MODELS,
    PRESETS,
    cell_data,
    cell_seeds,
    ffnn_epochs,
    parameter_scaling,
    parameter_scaling_cell,
    parameter_slopes,
    size_counts,
    summarize_parameter_scaling,
    training_size,
    transformer_start,
)
from skxor.studies.stats import (
    MIN_BOOTSTRAP_GROUPS,
    format_interval,
    format_slope,
    wilson_interval,
)
from skxor.theory import population_step

STUDY = get_study("parameter_scaling")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    folder = tmp_path_factory.mktemp("checkpoints")
    return parameter_scaling("quick", checkpoint_dir=folder), folder


def test_quick_preset_reports_each_model_with_frozen_and_total_counts(quick):
    df, _ = quick
    expected_d = PRESETS["quick"]["d"]
    assert set(df["model"]) == set(PRESETS["quick"]["model"]) == set(MODELS) - {"ffnn_online"}
    for model in PRESETS["quick"]["model"]:
        rows = df[df["model"] == model]
        assert rows["d"].tolist() == expected_d and (rows["seeds"] == 5).all()
    reached = df[df["reached"]]
    transformers = reached[reached["model"].str.startswith("transformer")]
    np.testing.assert_array_equal(transformers["params"], 2 * transformers["size"])
    np.testing.assert_array_equal(transformers["frozen"], transformers["d"] * transformers["size"])
    ffnn = reached[reached["model"] == "ffnn"]
    np.testing.assert_array_equal(ffnn["params"], ffnn["size"] * (ffnn["d"] + 2) + 1)
    assert (ffnn["frozen"] == 0).all()
    rf = reached[reached["model"] == "ffnn_random_features"]
    np.testing.assert_array_equal(rf["params"], rf["size"] + 1)
    np.testing.assert_array_equal(rf["frozen"], rf["size"] * (rf["d"] + 1))
    np.testing.assert_array_equal(reached["total"], reached["params"] + reached["frozen"])
    # The paper's one population step and T = 5 steps both met the rule at every d.
    for model in ("transformer_population_one_step", "transformer_population", "ffnn"):
        assert df[df["model"] == model]["reached"].all(), model
    samples = df[df["model"].isin(["transformer", "ffnn", "ffnn_random_features"])]
    np.testing.assert_array_equal(samples["n_train"], [training_size(d, 2048, 1.0)
                                                       for d in samples["d"]])
    assert (df.loc[df["model"].str.contains("population"), "n_train"] == 0).all()
    # The Omega(d) floor of any trained two-layer network.
    assert (ffnn["params"].to_numpy() >= ffnn["d"].to_numpy() + 3).all()
    slopes = parameter_slopes(df)
    assert 0.6 < slopes["ffnn"]["slope"] < 1.3
    for fit in slopes.values():
        # 5 seeds per size: no bootstrap interval, marked rough.
        assert fit["rough"] and np.isnan(fit["low"]) and fit["n_groups"] == 5


def test_every_size_has_its_own_seeds_and_the_scan_runs_past_the_first_success(quick):
    df, _ = quick
    cells = pd.DataFrame(df.attrs["cells"])
    params = df.attrs["params"]
    for (model, d), tried in cells.groupby(["model", "d"]):
        sizes = sorted(tried["size"].unique())
        grid = params[GRIDS[model]]
        assert sizes == grid[: len(sizes)]  # a prefix of the grid, from the smallest
        assert (tried.groupby("size")["seed"].nunique() == 5).all()
        shares = tried.groupby("size")["accuracy"].apply(lambda a: (a >= 0.99).mean())
        met = [s for s in sizes if shares[s] >= 0.8]
        if met:  # sizes_beyond = 2 more, unless the grid ends
            assert len(sizes) == min(len(grid), grid.index(met[0]) + 3)
        else:
            assert len(sizes) == len(grid)
    # Independent draws per size: the data and start differ between sizes.
    assert cell_seeds(0, 16, 4, 0) != cell_seeds(0, 16, 6, 0)


def test_needed_is_the_smallest_size_at_which_80_percent_of_its_seeds_succeed(quick):
    df, _ = quick
    cells = pd.DataFrame(df.attrs["cells"])
    for row in df.itertuples():
        tried = cells[(cells["model"] == row.model) & (cells["d"] == row.d)]
        hits = tried.groupby("size")["accuracy"].apply(lambda a: int((a >= 0.99).sum()))
        met = [s for s in hits.index if hits[s] >= 4]
        if not met:
            assert not row.reached and np.isnan(row.size)
            continue
        assert row.size == met[0] and row.seeds_reached == hits[met[0]]
        assert row.non_monotone == any(hits[s] < 4 for s in hits.index if s > met[0])
        assert (row.success_low, row.success_high) == wilson_interval(row.seeds_reached, 5)


def test_summary_keeps_non_monotone_results():
    # Size 2 meets the rule (4/5), size 3 does not (3/5): needed is 2, flagged.
    cells = pd.DataFrame({
        "model": "ffnn", "d": 8, "size": [1] * 5 + [2] * 5 + [3] * 5,
        "seed": list(range(5)) * 3, "n_train": 100,
        "accuracy": [0.5] * 5 + [1.0] * 4 + [0.5] + [1.0] * 3 + [0.5] * 2,
        "params": [11] * 5 + [21] * 5 + [31] * 5, "frozen": 0, "seconds": 0.1,
    })
    row = summarize_parameter_scaling(cells, 0.99, 0.8).iloc[0]
    assert row["reached"] and row["size"] == 2 and row["non_monotone"]
    never = cells.assign(accuracy=0.7)
    row = summarize_parameter_scaling(never, 0.99, 0.8).iloc[0]
    assert not row["reached"] and np.isnan(row["size"]) and row["success_rate"] == 0


def test_rerun_reuses_the_checkpoints(quick):
    df, folder = quick
    again = parameter_scaling("quick", checkpoint_dir=folder)
    pd.testing.assert_frame_equal(again, df)
    assert again.attrs == df.attrs
    assert len(pd.concat([df, again])) == 2 * len(df)


def test_checkpoints_stored_before_the_study_became_a_package_are_reused():
    """A first-format checkpoint (keyed by the cell's import path) is still found."""
    from skxor.studies._sweep import _legacy_keys

    # The name the cell {"d": 16} had at commit 739953f, when the study was one module.
    assert "372534218f2becf96fd1394f" in [
        key for key, _ in _legacy_keys("parameter_scaling", parameter_scaling_cell, {"d": 16})]


def test_the_study_declares_its_headline(quick, tmp_path):
    """The bullet comes from the study's own headline, not from the fallback table."""
    from skxor.studies import get_study, render_headline
    from skxor.studies._headline import headline_renderers

    df, _ = quick
    assert headline_renderers()["parameter_scaling"] is get_study("parameter_scaling").headline
    bullet = get_study("parameter_scaling").render("headline", df)
    assert bullet.startswith("**Parameter scaling** (rough: 5 seeds per size")
    df.to_csv(tmp_path / "parameter_scaling.csv", index=False)
    assert bullet in render_headline(tmp_path)


def test_figure_shows_every_series_with_labels_and_ticks(quick):
    df, _ = quick
    fig = STUDY.render("figures", df)["parameter_scaling"]
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    assert buffer.getvalue()[:4] == b"\x89PNG"
    assert "quick preset, 5 seeds per size" in fig.get_suptitle()
    for ax in fig.axes:
        assert ax.get_xlabel() and ax.get_ylabel()
        assert [t.get_text() for t in ax.get_xticklabels()] == ["16", "32", "64", "128"]
    assert_every_axis_labelled_and_series_in_legend(fig)
    assert_legends_short_and_drawn(fig)
    params_ax, share_ax = fig.axes
    models, kinds = fig.legends  # below the panels: the models, and what is drawn
    labels = [t.get_text() for t in models.get_texts()]
    assert len(labels) == df["model"].nunique() == len(PRESETS["quick"]["model"])
    for model, fit in parameter_slopes(df).items():
        label = next(lab for lab in labels if lab.startswith(f"{DISPLAY_NAMES[model]}: "))
        # Never "slope -" (no slope) or "slope -0.00" (a slope that rounds to zero).
        assert not label.endswith("slope -") and "-0.00" not in label
        if np.isfinite(fit["slope"]):
            assert label.startswith(f"{DISPLAY_NAMES[model]}: slope ")
        else:
            assert label.endswith("no slope (the rule met at fewer than two d)")
    kind_labels = [t.get_text() for t in kinds.get_texts()]
    assert any("frozen" in label for label in kind_labels)
    assert any(label.startswith("reference:") for label in kind_labels)
    assert len(share_ax.containers) == df["model"].nunique()


def test_report_numbers_come_from_the_table(quick):
    df, _ = quick
    text = STUDY.render("report", df)
    for row in df.itertuples():
        share = format_interval(row.success_rate, row.success_low, row.success_high)
        assert f"{row.seeds_reached}/5 = {share}" in text
    for model, fit in parameter_slopes(df).items():
        assert f"{DISPLAY_NAMES[model]}: {format_slope(fit)}" in text
    assert "Rough: 5 seeds per size" in text
    assert "one normalised population step of length 100 (the paper's setting)" in text
    assert "consistent with polylogarithmic growth, and equally with a small power" in text
    d = max(PRESETS["quick"]["d"])
    row = df[(df["d"] == d) & (df["model"] == "ffnn")].iloc[0]
    assert (f"At d = {d}, the largest d where both met the rule: FFNN, trained (samples) "
            f"{int(row.params)} trainable parameters (width {int(row['size'])})") in text
    from skxor.papers.han_ghoshdastidar.parameter_scaling._section import render_report
    assert "=====" in render_report(STUDY.summary(df), tablefmt="rst")


def test_cells_match_direct_fits():
    d, size, seed, random_state, n_train, n_test = 10, 6, 0, 4, 3000, 1000
    support, X, y, X_test, y_test = cell_data(d, size, n_train, n_test, random_state, seed)
    _, _, _, X_test0, y_test0 = cell_data(d, size, 0, n_test, random_state, seed)
    np.testing.assert_array_equal(X_test, X_test0)
    np.testing.assert_array_equal(y_test, y_test0)
    np.testing.assert_array_equal(y, -X[:, support[0]] * X[:, support[1]])
    model_seed = cell_seeds(random_state, d, size, seed)[3]
    common = dict(d=d, size=size, seed=seed, random_state=random_state, n_test=n_test)

    cell = parameter_scaling_cell("transformer", n_train=n_train, transformer_steps=5,
                                  step_length=20.0, **common)
    clf = SparseXORTransformer(m=6, max_iter=5, step_length=20.0, random_state=model_seed)
    assert cell["accuracy"] == clf.fit(X, y).score(X_test, y_test)
    assert (cell["params"], cell["frozen"]) == (12, 60)

    epochs = ffnn_epochs(n_train, 256, 128)
    budget = dict(n_train=n_train, ffnn_activation="relu", ffnn_epochs=epochs,
                  ffnn_batch_size=128, ffnn_learning_rate=0.01)
    for model, trained in (("ffnn", True), ("ffnn_random_features", False)):
        cell = parameter_scaling_cell(model, **budget, **common)
        clf = FFNNParityBaseline(width=6, max_iter=epochs, batch_size=128, learning_rate=0.01,
                                 random_state=model_seed, train_hidden=trained)
        assert cell["accuracy"] == clf.fit(X, y).score(X_test, y_test)
        assert (cell["params"], cell["frozen"]) == ((73, 0) if trained else (7, 66))

    for model, steps, length in (("transformer_population", 5, 20.0),
                                 ("transformer_population_one_step", 1, 100.0)):
        cell = parameter_scaling_cell(model, transformer_steps=steps, step_length=length,
                                      **common)
        keys, queries = transformer_start(d, size, model_seed)
        for _ in range(steps):
            queries = population_step(queries, keys, support, step_length=length)
        scores = np.exp(queries @ keys.T)
        scores /= scores.sum(axis=1, keepdims=True)
        f = -(X_test @ scores[0]) * (X_test @ scores[1])
        assert cell["accuracy"] == np.mean(np.where(f > 0, 1, -1) == y_test)
        assert (cell["params"], cell["frozen"]) == (12, 60)


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
    row_pattern = (r"\|\s*FFNN, trained \(samples\)\s*\|\s*8\s*\|\s*500\s*\|\s*-\s*\|"
                   r"\s*-\s*\|\s*-\s*\|\s*-\s*\|\s*0/1 = 0.00")
    assert re.search(row_pattern, STUDY.render("report", df))
    assert np.isnan(parameter_slopes(df)["ffnn"]["slope"])
    STUDY.render("figures", df)  # nothing to fit; the references and shares still draw


def test_samples_d_max_limits_the_finite_sample_models_only():
    df = parameter_scaling(d=[8, 32], samples_d_max=8, seeds=2, transformer_m=[32],
                           ffnn_width=[8], rf_width=[8], n_train_min=500, ffnn_steps=10,
                           n_test=200, threshold=0.9, success_share=0.5)
    assert df[df["model"] == "transformer_population"]["reached"].all()
    for model in ("ffnn", "ffnn_random_features", "transformer"):
        assert df[df["model"] == model]["d"].tolist() == [8]
    for model in ("transformer_population", "transformer_population_one_step"):
        assert df[df["model"] == model]["d"].tolist() == [8, 32]
    text = STUDY.render("report", df)
    # Its slope over every d, separately.
    assert "transformer, T steps (population), all d" in text


def test_population_start_is_the_estimators_start():
    _, X, y, _, _ = cell_data(12, 5, 100, 10, 0, 0)
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
        ({"sizes_beyond": -1}, ValueError, "'sizes_beyond' parameter"),
        ({"rf_width": [0]}, ValueError, r"'rf_width' parameter .* range \[1, inf\)"),
        ({"one_step_length": 0.0}, ValueError, "'one_step_length' parameter"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        parameter_scaling(**kwargs)


def test_outputs_come_from_the_table_when_the_runner_merges_runs(tmp_path):
    # Two runs on one folder: the CSV keeps d = 8 from the first, d = 16 from the
    # second; the figure and report are drawn from the merged table (per-size
    # counts in its size_counts column, not the latest run's cells).
    from skxor.studies import run_studies

    tiny = dict(model=["transformer_population"], seeds=2, transformer_m=[2, 8, 32],
                n_test=500)
    for d in (8, 16):
        run_studies(["parameter_scaling"], out_dir=tmp_path, echo=None,
                    overrides={"parameter_scaling": dict(tiny, d=[d])})
    table = pd.read_csv(tmp_path / "parameter_scaling.csv")
    assert table["d"].tolist() == [8, 16]
    counts = size_counts(table)
    assert sorted(counts["d"].unique()) == [8, 16] and (counts["seeds"] == 2).all()
    slope = parameter_slopes(table)["transformer_population"]
    assert slope["n_d"] == table["reached"].sum()
    text = (tmp_path / "report.md").read_text()
    assert "d in {8, 16}" in text
    assert "quick preset with model, d, seeds, n_test, transformer_m overridden" in text
    assert (tmp_path / "parameter_scaling_parameter_scaling.png").stat().st_size > 0


def test_size_counts_match_the_cells(quick):
    df, _ = quick
    cells = pd.DataFrame(df.attrs["cells"])
    counts = size_counts(df).set_index(["model", "d", "size"])
    grouped = cells.groupby(["model", "d", "size"])
    assert len(counts) == grouped.ngroups
    for key, group in grouped:
        assert counts.loc[key, "reached"] == (group["accuracy"] >= 0.99).sum()
        assert counts.loc[key, "seeds"] == len(group)
    # A row merged from an older table without the column adds nothing.
    older = df.copy()
    older.loc[0, "size_counts"] = np.nan
    assert len(size_counts(older)) == len(counts) - df["sizes_tried"].iloc[0]


def test_slopes_get_a_bootstrap_interval_from_eight_seeds_per_size():
    rows = []
    for d, needed in ((16, 4), (32, 6), (64, 8), (128, 12)):
        for size in (2, 4, 6, 8, 12, 16):
            for seed in range(10):
                rows.append({"model": "transformer_population", "d": d, "size": size,
                             "seed": seed, "n_train": 0, "params": 2 * size,
                             "frozen": d * size, "seconds": 0.0,
                             "accuracy": 1.0 if size >= needed or seed == 0 else 0.5})
    table = summarize_parameter_scaling(pd.DataFrame(rows), 0.99, 0.8)
    fit = parameter_slopes(table, n_boot=200)["transformer_population"]
    assert not fit["rough"] and fit["low"] <= fit["slope"] <= fit["high"]
    assert fit["slope"] == pytest.approx(np.polyfit(np.log([16, 32, 64, 128]),
                                                    np.log([8, 12, 16, 24]), 1)[0])
    total = parameter_slopes(table, n_boot=10, column="total")["transformer_population"]
    assert total["slope"] > fit["slope"]  # the frozen d m keys grow with d
    # Old code: None / NaN / inf reached int() (TypeError, ValueError or
    # OverflowError naming nothing).
    for bad in (0, None, np.nan, np.inf):
        with pytest.raises(ValueError, match="n_boot must be a whole number >= 1"):
            parameter_slopes(table, n_boot=bad)


def _reference_intervals(table, n_boot, random_state, share=0.8):
    """The bootstrap written plainly: one random stream over the models in order; per
    draw, per d, per size one binomial draw of its successes from its observed share;
    the slopes of the draws that meet the rule at the same d as the data."""
    counts = size_counts(table)
    rng = np.random.RandomState(random_state)
    intervals = {}
    for model in [m for m in MODELS if m in set(table["model"])]:
        groups = [g.sort_values("size") for _, g in
                  counts[counts["model"] == model].groupby("d", sort=True)]

        def needed(reached_per_d):
            d, p = [], []
            for g, reached in zip(groups, reached_per_d):
                ok = np.flatnonzero(reached >= share * g["seeds"].to_numpy() - 1e-9)
                if ok.size:
                    d.append(g["d"].iloc[0])
                    p.append(g["params"].iloc[ok[0]])
            return np.log(d), np.log(p)

        d, _ = needed([g["reached"].to_numpy() for g in groups])
        if d.size < 2 or min(g["seeds"].min() for g in groups) < MIN_BOOTSTRAP_GROUPS:
            continue
        draws = []
        for _ in range(n_boot):
            bd, bp = needed([rng.binomial(g["seeds"].to_numpy(),
                                          g["reached"].to_numpy() / g["seeds"].to_numpy())
                             for g in groups])
            if np.array_equal(bd, d):
                draws.append(np.polyfit(bd, bp, 1)[0])
        if len(draws) >= 0.9 * n_boot:
            intervals[model] = tuple(np.quantile(draws, [0.025, 0.975]))
    return intervals


@pytest.mark.parametrize("random_state", [0, 7])
def test_the_slope_bootstrap_is_the_plain_loop_over_draws_and_sizes(random_state):
    # The stored full run: 10 seeds per size, sizes that fail, pass and fail again.
    table = pd.read_csv(ROOT / "docs/results/data/parameter_scaling/parameter_scaling.csv")
    slopes = parameter_slopes(table, n_boot=300, random_state=random_state)
    reference = _reference_intervals(table, 300, random_state)
    assert len(reference) >= 3  # the one-step and T-step transformers, the trained FFNN
    for model, fit in slopes.items():
        assert reference.get(model, (None, None)) == (
            (fit["low"], fit["high"]) if not np.isnan(fit["low"]) else (None, None)), model


def test_headline_renders_degenerate_tables(tmp_path, quick):
    from skxor.studies import render_headline

    df, _ = quick
    df.iloc[:0].to_csv(tmp_path / "parameter_scaling.csv", index=False)
    assert "nothing to summarize" in render_headline(tmp_path)
    cells = pd.DataFrame(df.attrs["cells"])
    cells = cells[cells["model"] == "ffnn"].assign(accuracy=0.5)
    never = summarize_parameter_scaling(cells, 0.99, 0.8)
    never.to_csv(tmp_path / "parameter_scaling.csv", index=False)
    text = render_headline(tmp_path)
    assert "nan" not in text.lower() and "no width tried met the rule at d = 16" in text
    df.to_csv(tmp_path / "parameter_scaling.csv", index=False)
    text = render_headline(tmp_path)
    assert "one step (population; the paper's setting)" in text and "frozen" in text


@pytest.mark.slow
def test_full_preset_population_reference_reaches_8192():
    df = parameter_scaling("full", model=["transformer_population"])
    assert df["d"].max() == 8192 and df["reached"].all()


@pytest.mark.parametrize("threshold, share", [(np.nan, 0.8), (0.99, np.nan), (2.0, 0.8),
                                              (0.99, 0.0), ("high", 0.8)])
def test_summary_names_a_bad_threshold_or_share(threshold, share):
    # Old code: NaN or 2.0 made every (model, d) "not reached" without a
    # word, and a share of 0 made the smallest size "needed".
    cells = pd.DataFrame({"model": "ffnn", "d": 8, "size": [1, 2], "seed": 0, "n_train": 10,
                          "accuracy": [0.5, 1.0], "params": [11, 21], "frozen": 0,
                          "seconds": 0.1})
    with pytest.raises(ValueError, match="threshold|success_share"):
        summarize_parameter_scaling(cells, threshold, share)


@pytest.mark.parametrize("d_max", [np.nan, -1, 0, "x"])
def test_slopes_name_a_bad_d_max(d_max):
    # Old code: NaN or -1 dropped every d (slope NaN without a word); "x"
    # raised pandas' "Invalid comparison".
    cells = pd.DataFrame({"model": "transformer_population", "d": [16, 32], "size": 2,
                          "seed": 0, "n_train": 0, "accuracy": 1.0, "params": 4,
                          "frozen": [32, 64], "seconds": 0.0})
    table = summarize_parameter_scaling(cells, 0.99, 0.8)
    with pytest.raises(ValueError, match="d_max"):
        parameter_slopes(table, d_max=d_max)


def test_report_says_which_d_the_slope_leaves_out():
    # d = 64 meets the rule at no size tried (m up to 8): its size needed is
    # above the grid, and the slope over d = 16, 32 leaves it out. The old
    # report said only "least squares over the d where the rule was met".
    df = parameter_scaling(model=["transformer_population"], d=[16, 32, 64], seeds=2,
                           transformer_m=[4, 8], n_test=2000)
    assert df["reached"].tolist() == [True, True, False]
    text = " ".join(STUDY.render("report", df).split())
    assert ("Left out of these slopes, where no size tried met the rule: transformer, "
            "T steps (population) at d = 64.") in text
    assert "lower estimate" in text


def test_parameters_needed_display_draws_the_table_on_the_given_axes():
    """Issue 33.10: the study's main panel as a display (from_table, plot(ax=...)), drawn
    from the stored quick table (no training), the same drawing as the study's figure."""
    import matplotlib.pyplot as plt

    from skxor.papers import ParametersNeededDisplay

    table = pd.read_csv(ROOT / "tests" / "data" / "quick_tables" / "parameter_scaling.csv.gz")
    display = drawn_beside_another(ParametersNeededDisplay.from_table, table)
    right = display.ax_
    assert len(display.legends_) == 2
    # Per model, one point per d where the rule was met, at its trainable count.
    needed = table[table["reached"]]
    lines = {line.get_label(): line for line in right.lines}
    drawn = 0
    for model in table["model"].unique():
        line = lines[f"{DISPLAY_NAMES[model]}: trainable"]
        rows = needed[needed["model"] == model]
        assert line.get_ydata().tolist() == rows["params"].tolist()
        shift = np.asarray(line.get_xdata(), dtype=float) / rows["d"].to_numpy()
        assert np.allclose(shift, shift[:1])  # one offset per model: 1.06^k, |k| <= 2
        assert np.all(np.abs(np.log(shift)) <= 2 * np.log(1.06) + 1e-9)
        drawn += len(rows)
    assert drawn == len(display.needed) == len(needed) > 0
    again = ParametersNeededDisplay(table).plot()  # a new figure's axes
    assert again.ax_ is not right and again.figure_ is not display.figure_
    plt.close(again.figure_)
    ours = STUDY.render("figures", table)["parameter_scaling"].axes[0]
    assert [(line.get_label(), line.get_ydata().tolist()) for line in ours.lines] == \
        [(line.get_label(), line.get_ydata().tolist()) for line in right.lines]


def test_online_ffnn_trains_on_fresh_strings_within_its_stated_budget():
    """The online FFNN: every weight trained, no training set, steps within the budget."""
    df = parameter_scaling(model=["ffnn_online"], d=[16, 64], seeds=3, online_width=[2, 4, 8],
                           n_test=2000, online_steps_min=1024)
    assert df["model"].eq("ffnn_online").all() and df["d"].tolist() == [16, 64]
    assert (df["n_train"] == 0).all()  # fresh strings: no training set
    reached = df[df["reached"]]
    assert len(reached) == 2
    np.testing.assert_array_equal(reached["params"], reached["size"] * (reached["d"] + 2) + 1)
    assert (reached["frozen"] == 0).all()
    cells = pd.DataFrame(df.attrs["cells"])
    budget = np.maximum(1024, 32 * cells["d"])
    # Whole checks of 1024 monitoring strings at batch 128: 8 steps each.
    assert (cells["steps"] % 8 == 0).all() and (cells["steps"] <= budget).all()
    assert (df["steps_max"] <= np.maximum(1024, 32 * df["d"])).all()
    assert (df["steps_median"] <= df["steps_max"]).all()
    # A run that stopped early reached every monitoring string: it succeeded on the test set too.
    early = cells[cells["steps"] < budget]
    assert len(early) and (early["accuracy"] >= 0.95).all()


def test_report_names_the_online_ffnns_data_as_fresh_not_population():
    """The report's 'n train' column: the online FFNN draws fresh strings, it is no
    population model (the stored full run's rows)."""
    from skxor.papers.han_ghoshdastidar.parameter_scaling._section import report_table

    table = pd.read_csv(ROOT / "docs" / "results" / "data" / "parameter_scaling"
                        / "parameter_scaling.csv")
    shown = report_table(table).assign(model=table["model"].to_numpy())
    assert set(shown.loc[shown["model"] == "ffnn_online", "n train"]) == {"fresh each step"}
    assert set(shown.loc[shown["model"].str.contains("population"), "n train"]) == {"population"}
