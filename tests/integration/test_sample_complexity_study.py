"""The sample-complexity study: per-seed n*, censoring, exponents with intervals, figures."""

import re

import numpy as np
import pandas as pd
import pytest

from skxor.studies import get_study
from skxor.papers import sample_complexity
from skxor.papers import samples_needed
from skxor.papers.han_ghoshdastidar.sample_complexity import (
    PRESETS,
    SETTING_COLUMNS,
    TIME_COLUMNS,
    fit_exponents,
    n_star_per_seed,
    population_outcome,
    population_start,
    sample_complexity_estimator,
    train_sizes,
)
from skxor.datasets import make_sparse_parity
from skxor.papers.han_ghoshdastidar.sample_complexity._section import _exponent_text

from _figures import (
    assert_every_axis_labelled_and_series_in_legend,
    assert_legends_short_and_drawn,
    drawn_beside_another,
)

STUDY = get_study("sample_complexity")


@pytest.fixture(scope="module")
def curves():
    return sample_complexity(
        model=["transformer_multi_step"], d=[10, 20], seeds=3, n_min=16, n_max=2048,
        n_sizes=8, n_test=400,
    )


def test_learning_curves_columns_and_timing(curves):
    # k = 2: no k column (the table the study wrote before it took k).
    assert set(curves.columns) == {"model", "d", "seed", "n", "accuracy",
                                   "population_accuracy", "population_scoring",
                                   "population_success", *SETTING_COLUMNS, *TIME_COLUMNS} - {"k"}
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
                 [0.96, 0.97, 0.99, 1.0],   # at the grid floor: left-censored
                 [0.1, 0.2, 0.3, 0.4]])     # never: right-censored
    per_seed = n_star_per_seed(df)
    assert per_seed["n_star"].tolist() == [40.0, 10.0, np.inf]
    assert per_seed["status"].tolist() == ["reached", "at grid floor", "not reached"]
    # The grid cell (last failing n, first reaching n] holding n*.
    assert per_seed["n_low"].tolist() == [20.0, 0.0, 80.0]
    assert per_seed["n_high"].tolist() == [40.0, 10.0, np.inf]
    table = samples_needed(df)
    assert table["n_star"].tolist() == [40.0]
    assert table["reached"].iloc[0] == "2/3" and table["at_floor"].iloc[0] == 1
    assert table["not_reached"].iloc[0] == 1
    row = table.iloc[0]
    assert row["reached_rate"] == pytest.approx(2 / 3)
    assert row["reached_low"] <= row["reached_rate"] <= row["reached_high"]
    # Three seeds: too few for a 95% interval of the median; the range, said so.
    assert row["median_interval"] == "range"
    assert (row["median_low"], row["median_high"]) == (0.0, np.inf)
    df = _table([[0.1, 0.2, 0.3, 0.4]])
    assert np.isnan(samples_needed(df)["n_star"].iloc[0])


def test_samples_needed_is_nan_when_half_the_seeds_do_not_reach():
    # Documented before as NaN only when "fewer than half" reach; exactly
    # half reaching gives an unbracketed median too, and the text says so now.
    df = _table([[0.5, 1, 1, 1], [0.1, 0.2, 0.3, 0.4]])
    assert np.isnan(samples_needed(df)["n_star"].iloc[0])
    assert "NaN unless more than half" in samples_needed.__doc__


def test_median_interval_is_distribution_free_with_enough_seeds():
    # Ten seeds, n* at 20, 40 or 80: ranks 2 and 9 of the cells' ends.
    rows = [[0.5, 1, 1, 1]] * 3 + [[0.5, 0.5, 1, 1]] * 4 + [[0.5, 0.5, 0.5, 1]] * 3
    table = samples_needed(_table(rows))
    row = table.iloc[0]
    assert row["median_interval"] == "95%"
    assert (row["median_low"], row["median_high"]) == (10.0, 80.0)


def _synthetic(exponent=2.0, seeds=8, spread=0.2, ds=(10, 20, 40, 80), floor=100):
    rng = np.random.default_rng(0)
    sizes = np.round(floor * 2 ** (np.arange(0, 30) / 2)).astype(int)
    rows = []
    for d in ds:
        for seed in range(seeds):
            n_star = 3 * d**exponent * np.exp(spread * rng.standard_normal())
            for n in sizes:
                rows.append({"model": "m", "d": d, "seed": seed, "n": n,
                             "accuracy": 1.0 if n >= n_star else 0.5, "target": 0.95})
    return pd.DataFrame(rows)


def test_exponent_recovers_a_known_slope_and_keeps_censored_seeds():
    df = _synthetic()
    fit = fit_exponents(df).iloc[0]
    assert fit["low"] <= 2.0 <= fit["high"] and abs(fit["exponent"] - 2) < 0.2
    assert fit["grid_ratio"] == pytest.approx(np.sqrt(2), abs=0.01)
    # d = 10 needs about 300 samples; raise the grid floor to 400 and those
    # seeds become left-censored: kept, and counted.
    floored = df[df["n"] >= 400]
    fit = fit_exponents(floored).iloc[0]
    assert fit["left_censored"] >= 6 and fit["n_points"] == 32
    assert fit["n_interval"] + fit["left_censored"] + fit["right_censored"] == 32
    assert fit["low"] <= 2.0 <= fit["high"]


def test_censoring_aware_fit_is_not_biased_by_a_low_ceiling():
    # Cut the grid so that most seeds at the largest d never reach it: the
    # old fit dropped them and flattened the slope; kept as right-censored
    # they still pull the fit up to the true exponent.
    df = _synthetic(exponent=2.0, spread=0.5, seeds=12)
    capped = df[df["n"] <= 3 * 80**2]
    per_seed = n_star_per_seed(capped)
    assert (per_seed["status"] == "not reached").sum() >= 4
    fit = fit_exponents(capped).iloc[0]
    assert fit["right_censored"] == (per_seed["status"] == "not reached").sum()
    assert fit["low"] <= 2.0 <= fit["high"]
    # Least squares on the reached seeds only (what the old code did) is biased low.
    used = per_seed[per_seed["status"] == "reached"]
    naive = np.polyfit(np.log(used["d"]), np.log(used["n_star"]), 1)[0]
    assert naive < fit["exponent"]


def _valid():
    return _table([[0.5, 0.99, 0.99, 1.0]])


@pytest.mark.parametrize("function", [n_star_per_seed, samples_needed, fit_exponents])
def test_summaries_refuse_impossible_inputs(function):
    # Old code: NaN n marked a seed "reached" with n* = NaN; an empty table
    # raised IndexError; target 2.0 or NaN made every seed "not reached"; a
    # missing column raised KeyError.
    nan_n = _valid().assign(n=[10, np.nan, 40, 80])
    with pytest.raises(ValueError, match=r"\['n'\].*non-finite"):
        function(nan_n)
    with pytest.raises(ValueError, match="no rows"):
        function(_valid().iloc[:0])
    for target in (2.0, float("nan"), 0.5, 0.3):
        with pytest.raises(ValueError, match=r"target must be in \(0.5, 1\]"):
            function(_valid(), target=target)
    with pytest.raises(ValueError, match=r"df\['target'\] must be in \(0.5, 1\]"):
        function(_valid().assign(target=2.0))
    with pytest.raises(ValueError, match=r"lacks the column\(s\) \['target'\]"):
        function(_valid().drop(columns="target"))
    with pytest.raises(ValueError, match=r"lacks the column\(s\) \['model'\]"):
        function(_valid().drop(columns="model"))
    # A target passed explicitly stands in for the column.
    assert len(function(_valid().drop(columns="target"), target=0.95)) == 1


@pytest.mark.parametrize("n_boot", [0, -5, 2.5, np.nan, np.inf, True])
def test_fit_exponents_names_a_bad_n_boot(n_boot):
    # Old code: IndexError from np.quantile.
    with pytest.raises(ValueError, match="n_boot must be a whole number >= 1"):
        fit_exponents(_valid(), n_boot=n_boot)
    with pytest.warns(FutureWarning, match="no longer bootstraps"):
        fit_exponents(pd.concat([_valid(), _valid().assign(d=20)]), n_boot=100)


def test_fit_exponents_counts_every_seed():
    df = _table([[0.5, 0.99, 0.99, 1.0], [0.99, 1, 1, 1], [0.1, 0.2, 0.3, 0.4]])
    df = pd.concat([df, df.assign(d=20)])
    fit = fit_exponents(df).iloc[0]
    assert fit["n_points"] == 6 == fit["n_interval"] + fit["left_censored"] + fit["right_censored"]
    assert (fit["n_interval"], fit["left_censored"], fit["right_censored"]) == (2, 2, 2)


def test_report_states_numbers_from_the_table(curves):
    text = STUDY.render("report", curves)
    fit = fit_exponents(curves).iloc[0]
    assert f"from {int(fit['n_points'])} learning curves" in text
    assert "Rough: 3 seeds and 2 values of d" in text
    assert "d^4" in text and "Claim H5" in text  # the claims page's verdict
    assert "in line with their finding" not in text
    assert "parameter-scaling study" in text


def test_tradeoff_claims_fewer_samples_only_where_intervals_separate():
    rows = []
    for model, scale in [("ffnn", 1), ("transformer_one_step", 4)]:
        for d in [10, 20, 40]:
            for seed in range(6):
                # At d = 40 both need the same: no claim there.
                need = scale * d if d < 40 else 80
                for n in [10, 20, 40, 80, 160, 320]:
                    rows.append({"model": model, "d": d, "seed": seed, "n": n, "target": 0.95,
                                 "accuracy": 1.0 if n >= need else 0.5})
    text = STUDY.render("report", pd.DataFrame(rows))
    assert ("the FFNN needs fewer at d = 10, 20; the transformer_one_step at d = none; "
            "not separated at d = 40") in text


def test_figures_label_every_axis_and_show_every_series(curves):
    figures = STUDY.render("figures", curves)
    assert set(figures) == {"learning_curves", "samples_needed"}
    for figure in figures.values():
        assert_every_axis_labelled_and_series_in_legend(figure)
    ax = figures["samples_needed"].axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["10", "20"]
    assert any("d^4" in t.get_text() for legend in figures["samples_needed"].legends
               for t in legend.get_texts())
    for figure in figures.values():
        assert_legends_short_and_drawn(figure)


def test_full_preset_is_powered():
    full = PRESETS["full"]
    ds = full["d"]
    assert len(ds) >= 6 and max(ds) / min(ds) >= 10 and full["seeds"] >= 10
    sizes = np.array(train_sizes(full["n_min"], full["n_max"], full["n_sizes"]))
    # No step coarser than x sqrt(2), up to rounding to whole samples.
    assert (sizes[1:] <= np.ceil(sizes[:-1] * np.sqrt(2))).all()
    assert sizes.size == full["n_sizes"]
    # The grid can show n* ~ d^a for a up to at least 4 (the proof's d^4).
    assert np.log(sizes[-1] / sizes[0]) / np.log(max(ds) / min(ds)) >= 4


def test_the_ffnn_curve_stops_at_ffnn_n_max():
    df = sample_complexity(model=["ffnn", "transformer_one_step"], d=[10], seeds=1,
                           n_min=100, n_max=1600, ffnn_n_max=500, n_sizes=3, n_test=200)
    assert df.loc[df["model"] == "ffnn", "n"].tolist() == [100, 400]
    assert df.loc[df["model"] != "ffnn", "n"].tolist() == [100, 400, 1600]
    assert (df["ffnn_n_max"] == 500).all()
    assert df.loc[df["model"] == "ffnn", "population_success"].isna().all()
    with pytest.raises(ValueError, match="ffnn_n_max must lie between"):
        sample_complexity(model=["ffnn"], d=[10], seeds=1, n_min=100, n_max=1600,
                          ffnn_n_max=3200, n_sizes=3, n_test=200)


def test_quick_preset_figures(tmp_path):
    df = sample_complexity("quick")
    for name, figure in STUDY.render("figures", df).items():
        assert_every_axis_labelled_and_series_in_legend(figure)
        figure.savefig(tmp_path / f"{name}.png", dpi=60)
    assert "quick preset" in STUDY.render("figures", df)["samples_needed"].get_suptitle()
    assert "Rough" in STUDY.render("report", df)


def test_a_one_class_first_prefix_names_n_min(tmp_path, capsys):
    # Old code: exit 2 with a message embedding scikit-learn's "All the 1
    # fits failed ... Traceback".
    from skxor.cli import main

    argv = ["run", "sample_complexity", "--set", "model=transformer_one_step", "--set", "d=2",
            "--set", "n_min=2", "--set", "n_max=2", "--set", "n_sizes=1", "--set", "seeds=1",
            "--set", "n_test=1", "--out", str(tmp_path)]
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2
    assert "n_min=2 is too small" in err and "n_min >= 16" in err
    assert "Traceback" not in err and "fits failed" not in err


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
    text = STUDY.render("report", table)
    assert "the table also holds 3 rows of 1 other setting(s)" in text
    assert "n_test=100" in text


def test_headline_renders_degenerate_tables(tmp_path):
    # Tables the study can write: only a header, or one value of d. Old code:
    # IndexError on the empty table.
    from skxor.studies import render_headline

    columns = ["model", "d", "seed", "n", "accuracy", *SETTING_COLUMNS[:-1], *TIME_COLUMNS]
    pd.DataFrame(columns=columns).to_csv(tmp_path / "sample_complexity.csv", index=False)
    assert "nothing to summarize" in render_headline(tmp_path)
    one_d = _table([[0.5, 0.99, 0.99, 1.0], [0.99, 1, 1, 1]])
    one_d.to_csv(tmp_path / "sample_complexity.csv", index=False)
    text = render_headline(tmp_path)
    assert "m: no exponent" in text and "2 learning curves; 1 censored" in text
    assert "nan" not in text.lower()


def test_report_bounds_its_censoring_words_by_the_grid(curves):
    # Old text: "not_reached: seeds never staying there" - a measurement can
    # only say that a seed did not stay up by the largest size tried.
    text = STUDY.render("report", curves)
    assert not re.search(r"\bnever\b", text, flags=re.IGNORECASE)
    assert "not staying there by the largest size tried" in text


def _cells():
    d = np.repeat([10.0, 20.0, 40.0], 4)
    high = 5.0 * d**2 * np.tile([0.8, 0.9, 1.1, 1.25], 3)
    return d, high / 2, high


@pytest.mark.parametrize("change, message", [
    (lambda d, lo, hi: (d, lo[:-1], hi), "one entry per observation"),
    (lambda d, lo, hi: (np.r_[np.nan, d[1:]], lo, hi), "d must hold finite numbers > 0"),
    (lambda d, lo, hi: (np.r_[0.0, d[1:]], lo, hi), "d must hold finite numbers > 0"),
    (lambda d, lo, hi: (np.r_[-10.0, d[1:]], lo, hi), "d must hold finite numbers > 0"),
    (lambda d, lo, hi: (d, hi, lo), "n_high must exceed n_low"),
    (lambda d, lo, hi: (d, lo, np.r_[np.nan, hi[1:]]), "n_high must exceed n_low"),
    (lambda d, lo, hi: (d, -lo, hi), "n_low must hold finite sizes >= 0"),
    (lambda d, lo, hi: (["a"] * 12, lo, hi), "d must hold numbers"),
    (lambda d, lo, hi: (d[:, None], lo, hi), "d must be 1-D"),
])
def test_censored_fit_names_impossible_inputs(change, message):
    # Old code: NaN or negative d gave exponent 0.0 without a word, d = 0 a
    # LinAlgError, n_low > n_high or a NaN n_high an exponent with no
    # interval, mismatched lengths numpy's broadcast error.
    from skxor.studies.stats import censored_loglog_fit

    with pytest.raises(ValueError, match=message):
        censored_loglog_fit(*change(*_cells()))


@pytest.mark.parametrize("confidence", [0, 1.5, np.nan, True, "x"])
def test_censored_fit_names_a_bad_confidence(confidence):
    # Old code: 0 gave a zero-width "interval", 1.5 / NaN / True silently no
    # interval, "x" numpy's UFuncTypeError.
    from skxor.studies.stats import censored_loglog_fit

    with pytest.raises(ValueError, match="confidence must be a number in"):
        censored_loglog_fit(*_cells(), confidence=confidence)


def test_a_table_with_d_zero_is_refused_by_name():
    df = pd.concat([_valid(), _valid().assign(d=0), _valid().assign(d=20)])
    with pytest.raises(ValueError, match="d must hold finite numbers > 0"):
        fit_exponents(df)


def test_samples_needed_display_draws_on_the_given_axes(curves):
    """Issue 33.10: the study's main figure as a display (from_table, plot(ax=...)),
    the same drawing the study's figures put on a figure of its own."""
    from skxor.papers import SamplesNeededDisplay

    display = drawn_beside_another(SamplesNeededDisplay.from_table, curves)
    right = display.ax_
    assert len(display.legends_) == 2
    again = SamplesNeededDisplay(curves).plot()  # a new figure's axes
    assert again.ax_ is not right
    ours = STUDY.render("figures", curves)["samples_needed"].axes[0]
    assert len(ours.lines) == len(right.lines)
    assert [t.get_text() for t in ours.get_xticklabels()] == \
        [t.get_text() for t in right.get_xticklabels()]


@pytest.mark.parametrize("model", ["transformer_one_step", "transformer_multi_step"])
@pytest.mark.parametrize("seed", [0, 7])
def test_population_step_starts_where_the_fitted_estimator_starts(model, seed):
    d = 16
    support, keys, queries = population_start(model, d, seed)
    X, y, data_support = make_sparse_parity(300, d, return_support=True, random_state=seed)
    est = sample_complexity_estimator(model, random_state=seed).fit(X, y)
    np.testing.assert_array_equal(est.keys_, keys)
    np.testing.assert_array_equal(est.initial_queries_, queries)
    np.testing.assert_array_equal(data_support, support)


def test_population_outcome_is_recorded_per_curve(curves):
    per_curve = curves.drop_duplicates(["model", "d", "seed"])
    for row in per_curve.itertuples():
        outcome = population_outcome(row.model, row.d, row.seed, row.n_test, row.target)
        assert row.population_accuracy == outcome["population_accuracy"]
        assert row.population_success == (outcome["population_accuracy"] >= row.target)
    # Every row of a curve carries its curve's outcome.
    assert (curves.groupby(["model", "d", "seed"])["population_accuracy"].nunique() == 1).all()


def test_the_ffnn_has_no_population_outcome():
    outcome = population_outcome("ffnn", 16, 0, 100, 0.95)
    assert np.isnan(outcome["population_accuracy"]) and outcome["population_scoring"] == "none"


def _cure_table(exponent, failure_rate, seeds=10, random_state=0, fallen=True):
    """Step curves with n* = 100 (d / 16)^exponent (log-normal spread 0.15) and population failures.

    A failing seed's curve reaches the target at small n and falls back
    (``fallen``) or never reaches it: under the old reading it is
    right-censored, above every n*.
    """
    rng = np.random.default_rng(random_state)
    sizes = train_sizes(25, 409600, 29)
    rows = []
    for d in (16, 25, 40, 64, 100, 160):
        for seed in range(seeds):
            fails = seed < round(failure_rate(d) * seeds)
            n_star = 100 * (d / 16) ** exponent * np.exp(0.15 * rng.standard_normal())
            for n in sizes:
                if fails:
                    accuracy = 1.0 if fallen and 100 <= n < 1000 else 0.6
                else:
                    accuracy = 1.0 if n >= n_star else 0.5
                rows.append(dict(model="transformer_one_step", d=d, seed=seed, n=n,
                                 accuracy=accuracy, population_success=float(not fails),
                                 target=0.95))
    return pd.DataFrame(rows)


@pytest.mark.parametrize("exponent", [1.0, 3.0])
def test_cure_model_exponent_ignores_population_failures(exponent):
    # More failures at larger d: the old censored reading sees n* rise faster.
    table = _cure_table(exponent, lambda d: 0.1 + 0.4 * (d >= 64))
    fit = fit_exponents(table).iloc[0]
    assert fit["seeds_used"] == "cured" and fit["population_failures"] == 1 * 3 + 5 * 3
    assert fit["n_points"] == 60 - 18
    assert fit["low"] < exponent < fit["high"] and fit["high"] - fit["low"] < 0.5
    # The failures' curves do not enter: changing them leaves the fit as it is.
    other = _cure_table(exponent, lambda d: 0.1 + 0.4 * (d >= 64), fallen=False)
    assert fit_exponents(other).iloc[0]["exponent"] == fit["exponent"]
    # The old reading (every seed, failures right-censored) is biased upward.
    assert fit_exponents(table, cure=False).iloc[0]["exponent"] > fit["high"]


def test_cure_model_counts_population_failures_apart():
    table = _cure_table(1.0, lambda d: 0.3)
    needed = samples_needed(table)
    assert (needed["population_success"] == "7/10").all()
    np.testing.assert_allclose(needed["p_pop"], 0.7)
    assert (needed["p_pop_low"] < 0.7).all() and (needed["p_pop_high"] > 0.7).all()
    # Among the cured seeds every curve reaches: none is censored.
    assert (needed["cured_not_reached"] == 0).all()
    assert needed["n_star_cured"].notna().all()
    # Without the population outcome, every seed is used (the old reading).
    old = fit_exponents(table.drop(columns="population_success")).iloc[0]
    assert old["seeds_used"] == "all" and old["n_points"] == 60


def test_samples_needed_figure_draws_population_failures_apart():
    from skxor.papers import SamplesNeededDisplay

    table = _cure_table(1.0, lambda d: 0.1 + 0.4 * (d >= 64))
    # A right-censored cured seed too: every kind of mark at once.
    cured_seed = (table["d"] == 160) & (table["seed"] == 9)
    table.loc[cured_seed, "accuracy"] = 0.5
    display = drawn_beside_another(SamplesNeededDisplay.from_table, table)
    models, kinds = ([t.get_text() for t in legend.get_texts()] for legend in display.legends_)
    assert models == [f"transformer_one_step: p_pop 42/60, a = "
                      f"{_exponent_text(display.fits.loc['transformer_one_step'])} "
                      "(42 curves, 1 censored)"]
    assert "population run fails (no n*, not fitted)" in kinds and len(kinds) <= 8
    crosses = [line for line in display.ax_.get_lines() if line.get_marker() == "x"]
    assert sum(len(line.get_xdata()) for line in crosses) == 18


# -- k-sparse parities (issue 51.3) ---------------------------------------------------

def test_the_presets_cells_keep_their_checkpoint_keys_at_k_2():
    # The digests of every cell key of each preset, computed at 89e4416, before the
    # study took k: a run of a preset still finds the checkpoints written then.
    import hashlib

    from skxor.studies import get_study
    from skxor.studies._sweep import _cell_key

    study = get_study("sample_complexity")
    digests = {}
    # The full preset then had 10 seeds (60 since issue 50.2): its first 10 seeds' cells.
    for preset, overrides in (("quick", {}), ("full", {"seeds": 10})):
        keys = [_cell_key(study.name, study.cell, cell)[0]
                for cell in study.grid_cells(study.params(preset, overrides))]
        digests[preset] = hashlib.sha256("".join(keys).encode()).hexdigest()[:16]
    assert digests == {"quick": "63fbff96546986de", "full": "eaa73cdfe4432853"}
    assert study.params("quick")["k"] == 2
    assert "k_parity" not in study.params("full")["model"]


def test_k_gives_a_k_sparse_parity_and_k_heads():
    from skxor.studies import get_study
    from skxor.studies._runner import run_setting

    support, keys, queries = population_start("transformer_one_step", 12, 0, k=3)
    assert support.shape == (3,) and queries.shape == (3, 32)
    # The cell's data: the support drawn first from the seed, now of 3 bits.
    X, y = make_sparse_parity(50, 12, k=3, random_state=0)
    np.testing.assert_array_equal(y, -np.prod(X[:, support], axis=1))
    # k = 2 is the study before it took k: the same support, keys and queries.
    for a, b in zip(population_start("transformer_one_step", 12, 0),
                    population_start("transformer_one_step", 12, 0, k=2)):
        np.testing.assert_array_equal(a, b)
    for model in ("transformer_one_step", "transformer_multi_step", "k_parity"):
        assert sample_complexity_estimator(model, k=4).get_params()["n_heads"] == 4
    assert "n_heads" not in sample_complexity_estimator("ffnn", k=4).get_params()
    assert population_outcome("k_parity", 12, 0, 100, 0.95, k=3)["population_scoring"] == "none"
    study = get_study("sample_complexity")
    assert '"k": 3' in run_setting(study, study.params("quick", {"k": 3}))
    assert "k" not in run_setting(study, study.params("quick"))


def test_a_3_sparse_run_records_k_and_its_population_outcome():
    df = sample_complexity(model=["transformer_multi_step"], d=[12], k=3, seeds=2, n_min=100,
                           n_max=3200, n_sizes=3, n_test=400)
    assert df["k"].tolist() == [3] * 6
    assert list(df.columns[-4:]) == ["target", "k", "seconds", "floor_seconds"]
    # Each curve's population outcome is its own 3-head run's.
    for seed, curve in df.groupby("seed"):
        outcome = population_outcome("transformer_multi_step", 12, seed, 400, 0.95, k=3)
        assert curve["population_accuracy"].iloc[0] == outcome["population_accuracy"]
    # A k = 2 run writes no k column: the table the study wrote before it took k.
    assert "k" not in sample_complexity(model=["transformer_multi_step"], d=[12], seeds=1,
                                        n_min=100, n_max=400, n_sizes=2, n_test=200)
    # Merged with a k = 2 run (NaN k), the latest setting is analysed alone.
    from skxor.papers.han_ghoshdastidar.sample_complexity import like_for_like

    two = df.drop(columns="k").assign(accuracy=0.5)
    merged = pd.concat([df, two], ignore_index=True)
    assert like_for_like(merged)["accuracy"].eq(0.5).all()
    assert like_for_like(pd.concat([two, df], ignore_index=True))["k"].eq(3).all()


@pytest.mark.parametrize("overrides, error, message", [
    ({"k": 13, "d": [12, 40]}, ValueError, "k must not exceed the number of bits d"),
    ({"k": 1}, Exception, "'k' parameter of sample_complexity"),
    ({"k": 40, "d": [64]}, ValueError, "need m >= k - 1"),
])
def test_a_bad_k_is_refused_naming_it(overrides, error, message):
    from skxor.studies import get_study

    with pytest.raises(error, match=message):
        get_study("sample_complexity").params("quick", overrides)


def test_sample_complexity_estimator_refuses_a_bad_k():
    with pytest.raises(TypeError, match="k must be an int"):
        sample_complexity_estimator("ffnn", k=2.0)
    with pytest.raises(ValueError, match="k must be at least 1"):
        sample_complexity_estimator("ffnn", k=0)
    with pytest.raises(ValueError, match="model must be one of"):
        sample_complexity_estimator("nope")
