"""The training study: success rates with intervals, how far each function is
learned, where the trained models' sensitivities sit, the report and figures."""

import json
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
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.legend import Legend

from skxor.boolean import First, Majority, Parity
from skxor.sensitivity import sensitivity_profile
from skxor.studies import get_study
from skxor.studies.stats import format_interval, wilson_interval
from skxor.papers.kover.training import (
    budget_of,
    clusters,
    LEARNED,
    MODEL_SETTINGS,
    loss_status,
    setting_label,
    cluster_counts,
    learned_up_to,
    summarize_training,
    training_sensitivity,
)

matplotlib.use("Agg")

STUDY = get_study("training_sensitivity")


@pytest.fixture(scope="module")
def quick_df():
    return training_sensitivity("quick")


# -- the presets ------------------------------------------------------------------


def test_full_preset_reaches_128_with_enough_seeds_for_intervals():
    full = STUDY.preset("full")
    assert max(full["n_bits"]) >= 128
    assert full["seeds"] >= 5
    assert set(full["function"]) == {"PARITY", "MAJORITY", "FIRST"}
    # Early stopping only above the success threshold.
    assert full["target_accuracy"] > LEARNED


def test_the_published_page_is_the_stored_runs_setting():
    # docs/results/generated/training_sensitivity.md is generated from the stored
    # run (skxor publish): its budget sentence is the one the report writes for a
    # table of that run's preset, and it names the preset and the command.
    import re
    from pathlib import Path

    from skxor.studies._record import latest_record, ran_overrides
    from skxor.papers.kover.training import training_cells
    from skxor.papers.kover.training._section import _budget_lines

    root = Path(__file__).parents[2]
    record = latest_record(root / "docs/results/data/training_sensitivity/"
                                  "training_sensitivity.run.json")
    # The run's own parameters (a run of an earlier version of its preset too).
    table = pd.DataFrame(training_cells(STUDY.params(record["preset"],
                                                     ran_overrides(STUDY, record))))
    table["n_parameters"] = 1
    page = (root / "docs/results/generated/training_sensitivity.md").read_text()
    count = re.compile(r"[\d-]+ trainable parameters")
    (budget,) = _budget_lines(table)
    published = next(line for line in page.splitlines() if line.startswith("Budget per run"))
    assert count.sub("N trainable parameters", published) == count.sub(
        "N trainable parameters", budget)
    assert f"preset **{record['preset']}" in page
    assert f"skxor run training_sensitivity --preset {record['preset']}" in page


def test_quick_preset(quick_df):
    quick = STUDY.preset("quick")
    assert len(quick_df) == 3 * len(quick["n_bits"]) * quick["seeds"] * 2
    # Both model settings, labelled, each with its own read-out, positions, init and eps.
    for name, setting in MODEL_SETTINGS.items():
        rows = quick_df[quick_df["model_setting"] == name]
        if name in quick["model_setting"]:
            for column, value in setting.items():
                assert (rows[column] == value).all(), (name, column)
        else:
            assert rows.empty
    assert set(quick_df["stop"]) <= {"target", "flat", "budget"}
    assert (quick_df.loc[quick_df["reached_target"], "stop"] == "target").all()
    for curve, steps, every in zip(quick_df["loss_curve"], quick_df["steps"],
                                   quick_df["check_every"]):
        assert len(json.loads(curve)) * every == steps
    df = quick_df[quick_df["model_setting"] == "library"]
    df = df.set_index(["function", "n_bits", "seed"]).sort_index()
    for function in ("MAJORITY", "FIRST"):
        part = df.loc[function]
        assert part["learned"].all()
        assert (part["steps"] < quick["n_steps"]).all()  # stopped at the target
    parity = df.loc["PARITY"].loc[max(quick["n_bits"])]
    assert not parity["learned"].any()
    assert (parity["steps"] == quick["n_steps"]).all()
    # Histograms count every string (exhaustive) per sensitivity 0..N.
    for (_, n_bits, _), row in df.iterrows():
        hist = json.loads(row["histogram"])
        assert len(hist) == n_bits + 1 and sum(hist) == 2**n_bits == row["n_strings"]
        assert len(json.loads(row["target_histogram"])) == n_bits + 1


# -- cluster shares ---------------------------------------------------------------


@pytest.mark.parametrize("n_bits", [5, 6, 9, 10])
def test_cluster_counts_of_the_functions_themselves(n_bits):
    n = 2**n_bits
    majority = cluster_counts(sensitivity_profile(Majority(n_bits), n_bits).counts, n_bits)
    # MAJORITY: every string at 0 or near N/2 (N/2, N/2 + 1 or (N + 1)/2).
    assert majority["zero"] + majority["half"] == majority["n"] == n
    assert 0 < majority["zero"] < n
    first = cluster_counts(sensitivity_profile(First(n_bits), n_bits).counts, n_bits)
    assert first["one"] == n and first["zero"] == first["half"] == 0
    parity = cluster_counts(sensitivity_profile(Parity(n_bits), n_bits).counts, n_bits)
    assert parity["zero"] == parity["half"] == parity["one"] == 0


def test_cluster_counts_window():
    # N = 10: "near N/2" is sensitivity 4, 5 or 6; never 0.
    hist = np.zeros(11, dtype=int)
    hist[[0, 1, 3, 4, 5, 6, 7, 10]] = [1, 2, 4, 8, 16, 32, 64, 128]
    assert cluster_counts(hist, 10) == {"zero": 1, "half": 56, "one": 2, "n": 255}
    assert cluster_counts([3, 5, 7], 2) == {"zero": 3, "half": 12, "one": 5, "n": 15}
    with pytest.raises(ValueError, match="one count per sensitivity 0..3"):
        cluster_counts([1, 2, 3], 3)


# -- summaries on a table with known content --------------------------------------


def _row(function, n_bits, seed, learned, hist, target_hist, method="exhaustive"):
    settings = {k: v for k, v in STUDY.preset("quick").items()
                if k not in ("function", "n_bits", "model_setting", "budgets",
                             "seeds")}
    return dict(
        function=function, n_bits=n_bits, model_setting="library", layer_norm_eps=1e-5,
        seed=seed, **settings,
        accuracy=1.0 if learned else 0.5, learned=learned, reached_target=learned,
        stop="target" if learned else "flat", loss_curve=json.dumps([0.7, 0.1]),
        steps=50, final_loss=0.1, n_parameters=100, method=method,
        n_strings=int(sum(hist)), zero_fraction=hist[0] / sum(hist),
        average_sensitivity=1.0, constant=False, histogram=json.dumps(hist),
        target_zero_fraction=target_hist[0] / sum(target_hist),
        target_average_sensitivity=1.0, target_histogram=json.dumps(target_hist),
        profile_distance=0.0, seconds=1.0,
    )


def _table(rates, function="FIRST", seeds=5):
    """FIRST at N = 4, 8, 16, 32 with the given number of seeds that learned."""
    rows = []
    for n_bits, k in zip([4, 8, 16, 32], rates):
        for seed in range(seeds):
            hist = [0] * (n_bits + 1)
            hist[1 if seed < k else 0] = 10
            target = [0] * (n_bits + 1)
            target[1] = 10
            rows.append(_row(function, n_bits, seed, seed < k, hist, target, "sampled"))
    return pd.DataFrame(rows)


def test_summary_rates_carry_wilson_intervals():
    summary = summarize_training(_table([5, 4, 2, 0])).set_index("n_bits")
    for n_bits, k in zip([4, 8, 16, 32], [5, 4, 2, 0]):
        row = summary.loc[n_bits]
        assert row["learned"] == k and row["seeds"] == 5
        assert (row["learned_low"], row["learned_high"]) == pytest.approx(wilson_interval(k, 5))
        # Pooled sampled strings: share at 1 with its Wilson interval.
        assert row["share_one"] == pytest.approx(k / 5)
        assert (row["share_one_low"], row["share_one_high"]) == pytest.approx(
            wilson_interval(10 * k, 50))
        assert row["in_cluster_min"] == (1.0 if k == 5 else 0.0)
        assert row["target_in_cluster"] == 1.0


def test_steps_to_learn_count_a_failure_as_beyond_its_budget():
    # PARITY with 10 seeds: all learn at N = 4, 7 of 10 at N = 8, 2 of 10 at N = 16.
    table = _table([10, 7, 2, 0], function="PARITY", seeds=10)
    steps = {4: [100 + 10 * s for s in range(10)], 8: [1000 + 100 * s for s in range(10)],
             16: [9000, 12000] + [20000] * 8, 32: [1000] * 10}
    table["n_steps"] = table["n_bits"].map({4: 20000, 8: 20000, 16: 20000, 32: 1000})
    table["steps"] = [steps[n][s] for n, s in zip(table["n_bits"], table["seed"])]
    summary = summarize_training(table).set_index("n_bits")
    # Sorted needs at N = 8: 1000 ... 1600, then three beyond the budget; the
    # lower median is the 5th, the interval the 2nd and 9th order statistics.
    assert tuple(summary.loc[8, ["steps_to_learn", "steps_to_learn_low",
                                 "steps_to_learn_high"]]) == (1400, 1100, np.inf)
    assert tuple(summary.loc[4, ["steps_to_learn", "steps_to_learn_low",
                                 "steps_to_learn_high"]]) == (140, 110, 180)
    assert summary.loc[16, "steps_to_learn"] == np.inf
    report = STUDY.render("report", table)
    # Every run that learned spent its first check (25 steps) at chance.
    assert ("PARITY: 140 [110, 180] at N = 4 (at chance first for a median of 25 steps, at "
            "most 25), 1400 [1100, > 20000] at N = 8 (x10.0; at chance first for a median of "
            "25 steps, at most 25), > 20000 [12000, > 20000] at N = 16 (at chance first for a "
            "median of 25 steps, at most 25)." in report)
    # Learned at N = 16 by more than half: the growth goes on, but not into N = 32,
    # whose 1 000-step budget is shorter than the 20 000 before it.
    more = table.copy()
    more.loc[(more["n_bits"] == 16) & (more["seed"] < 6), "learned"] = True
    growth = STUDY.render("report", more).split("Steps to learn PARITY")[1].split("###")[0]
    assert "at N = 16 (x" in growth and "at N = 32" not in growth
    # Budgets per function and N in words, and in the claim's row.
    assert "at most 20000 (PARITY at N = 4, 8, 16), 1000 (PARITY at N = 32) AdamW steps" \
        in report
    (claim,) = STUDY.claims
    row = STUDY.render(claim.rule, table)
    assert ("PARITY's lower median steps to learn [95%, seeds as units; a run that did not learn "
            "needs more than its budget] (shown): PARITY: 140 [110, 180] at N = 4" in row["value"])
    assert "budget: at most 20000 (PARITY at N = 4, 8, 16), 1000 (PARITY at N = 32) steps" \
        in row["value"]


def test_learned_up_to_states_its_rule():
    # 80% of seeds needed at N and every smaller N: 5/5, 4/5 pass; 2/5 stops it.
    reach = learned_up_to(_table([5, 4, 2, 5])).iloc[0]
    assert reach["learned_up_to"] == 8
    assert reach["first_short"] == 16
    assert reach["largest_with_success"] == 32
    assert (reach["low"], reach["high"]) == pytest.approx(wilson_interval(5, 5))
    none = learned_up_to(_table([0, 0, 0, 0])).iloc[0]
    assert none["learned_up_to"] == 0 and none["largest_with_success"] == 0
    assert learned_up_to(_table([5, 5, 5, 5])).iloc[0]["learned_up_to"] == 32


def test_report_numbers_come_from_the_table():
    df = _table([5, 4, 2, 1])
    report = STUDY.render("report", df)
    assert report.startswith("## Training on PARITY, MAJORITY and FIRST")
    assert "custom settings, 5 seeds per (function, N)" in report
    assert "Rough" not in report
    assert f"1/5 seeds: {format_interval(0.2, *wilson_interval(1, 5))}" in report
    assert "learned up to N = 8 (4 lengths tried, N = 4 to 32)" in report
    assert "The first length short of the rule is N = 16" in report
    assert "budget-limited (loss still falling), so a larger budget" not in report
    assert "Budget-limited runs" not in report
    budget = STUDY.preset("quick")["n_steps"]
    df.loc[(df["n_bits"] == 16) & ~df["learned"], "stop"] = "budget"
    text = STUDY.render("report", df)
    assert (f"At N = 16, of 5 runs ({budget}-step budget), 2 stopped at the target, 0 ended "
            "on a flat loss and 3 were budget-limited (loss still falling), so a larger "
            "budget may move this length.") in text
    assert "Budget-limited runs (loss still falling when the budget ran out): FIRST at N = 16"\
        in text
    # The cluster sentence quotes the pooled share at 1 with its interval.
    assert (f"Trained FIRST at N = 32: {format_interval(0.2, *wilson_interval(10, 50))} of "
            "the strings at sensitivity 1 (lowest seed 0.00)") in report
    # One more seed learning at N = 32 changes the text.
    df.loc[(df["n_bits"] == 32) & (df["seed"] == 1), ["learned", "histogram"]] = [
        True, json.dumps([0, 10] + [0] * 31)]
    assert (f"2/5 seeds: {format_interval(0.4, *wilson_interval(2, 5))}"
            in STUDY.render("report", df))


def test_quick_report(quick_df):
    report = STUDY.render("report", quick_df)
    quick = STUDY.preset("quick")
    assert f"quick preset, {quick['seeds']} seeds per (function, N)" in report
    assert "Rough" in report
    assert (f"at most {quick['n_steps']} AdamW steps (learning rate "
            f"{quick['learning_rate']:g}, weight decay 0.01) of {quick['batch_size']}") in report
    assert "Köver et al. (2026, arXiv 2606.08768)" in report
    assert "asymptotic" in report
    summary = summarize_training(quick_df)
    majority = summary[(summary["function"] == "MAJORITY")
                       & (summary["model_setting"] == "library")].iloc[-1]
    assert (f"Trained MAJORITY (library) at N = {majority['n_bits']}: "
            f"{majority['share_zero']:.2f} of the strings at sensitivity 0 and "
            f"{majority['share_half']:.2f} near N/2") in report
    # Each model setting is named and described.
    assert "library: last-token read-out, learned positions, PyTorch's default init" in report
    assert ("Köver et al.'s setting: eos read-out, sinusoidal positions, xavier_uniform "
            "init, eps = 0") in report
    assert all(clusters(f) for f in set(summary["function"]))


def test_preset_label_follows_the_table(quick_df):
    assert "quick preset" in STUDY.render("report", quick_df)
    fewer = quick_df[quick_df["seed"] == 0]
    assert "custom settings, 1 seeds" in STUDY.render("report", fewer)


# -- figures ----------------------------------------------------------------------


def _legend_texts(ax):
    legend = ax.get_legend()
    return set() if legend is None else {t.get_text() for t in legend.get_texts()}


def test_quick_figures_label_every_axis_and_series(quick_df):
    figures = STUDY.render("figures", quick_df)
    assert set(figures) == {"success", "steps", "accuracy", "sensitivity", "clusters", "profiles",
                            "loss"}
    n_values = sorted(quick_df["n_bits"].unique())
    for name, fig in figures.items():
        assert fig._suptitle is not None and "quick preset" in fig._suptitle.get_text()
        assert "2 seeds" in fig._suptitle.get_text()
        for ax in fig.axes:
            assert ax.get_xlabel() and ax.get_ylabel(), (name, ax.get_title())
            texts = _legend_texts(ax)
            in_containers = set()
            for container in ax.containers:
                assert isinstance(container, (ErrorbarContainer, BarContainer))
                assert container.get_label() in texts, (name, container.get_label())
                for part in container:
                    if isinstance(part, tuple):
                        in_containers.update(part)
                    elif part is not None:
                        in_containers.add(part)
            if name != "loss":
                for line in ax.lines:
                    if line not in in_containers and not line.get_label().startswith("_"):
                        assert line.get_label() in texts, (name, line.get_label())
        # Loss curves: a key of the N (colours) and of how runs stopped (line
        # styles), each entry drawn; every run's every logged point visible.
        assert_legends_short_and_drawn(fig)
        if name == "loss":
            assert_every_axis_labelled_and_series_in_legend(fig)
            for ax in fig.axes:
                for line in ax.lines:
                    assert line.get_marker() not in (None, "None", "none", "")
            if name not in ("profiles", "loss"):
                # A labelled tick at every N tried on the log axis.
                assert ax.get_xscale() == "log"
                assert sorted(int(round(t)) for t in ax.get_xticks()) == n_values
                assert [t.get_text() for t in ax.get_xticklabels()] == [str(n) for n in n_values]


def test_profiles_are_drawn_by_the_sensitivity_display(quick_df):
    from unittest import mock

    from skxor.plotting import SensitivityProfileDisplay

    plot = SensitivityProfileDisplay.plot
    with mock.patch.object(SensitivityProfileDisplay, "plot", autospec=True,
                           side_effect=plot) as drawn:
        figure = STUDY.render("figures", quick_df)["profiles"]
    assert drawn.call_count == 3  # PARITY, MAJORITY, FIRST
    for call, ax in zip(drawn.call_args_list, figure.axes):
        display = call.args[0]
        function = ax.get_title().split(",")[0]
        assert list(display.references) == [f"reference: {function} itself"]
        assert len(display.bars_) == 1 and len(display.reference_lines_) == 1
        assert ax.get_xlabel() == "sensitivity s(f, x)"


def test_coinciding_series_are_offset(quick_df):
    # MAJORITY and FIRST both succeed at every N: their points must not coincide.
    ax = STUDY.render("figures", quick_df)["success"].axes[0]
    xs = {c.get_label(): c.lines[0].get_xdata() for c in ax.containers}
    majority, first = xs["MAJORITY (library)"], xs["FIRST (library)"]
    assert not np.allclose(majority, first)
    # Six series (3 functions x 2 settings), offset in steps of 0.07 octaves.
    np.testing.assert_allclose(np.log2(majority) - np.log2(first), -0.14)


def test_loss_curves_show_every_run_and_how_it_stopped(quick_df):
    figure = STUDY.render("figures", quick_df)["loss"]
    assert len(figure.axes) == 3 * 2  # functions x model settings
    drawn = sum(len(ax.get_lines()) for ax in figure.axes)
    assert drawn == len(quick_df)
    # One key for the figure, beside the top right panel: every N drawn and
    # every way a run stopped.
    texts = {t.get_text() for ax in figure.axes for legend in ax.findobj(Legend)
             for t in legend.get_texts()}
    assert {f"N = {n}" for n in quick_df["n_bits"].unique()} <= texts
    for ax in figure.axes:
        function, setting = ax.get_title().split(", ", 1)
        runs = quick_df[(quick_df["function"] == function)
                        & (quick_df["model_setting"].map(setting_label) == setting)]
        assert len(ax.get_lines()) == len(runs)
    if (quick_df["stop"] == "budget").any():
        assert "budget-limited (still falling)" in texts


def test_loss_status():
    # Last two checks against the two before: (0.65 - 0.45) / 0.65.
    assert loss_status([0.7, 0.6, 0.5, 0.4], False) == ("budget", pytest.approx(0.2 / 0.65))
    assert loss_status([0.7, 0.7, 0.7, 0.7], False)[0] == "flat"
    assert loss_status([0.7, 0.6, 0.5], False)[0] == "short"
    assert loss_status([0.7], True)[0] == "target"


def test_paper_preset_is_koevers_setting_beside_the_library():
    paper = STUDY.preset("paper")
    assert set(paper["model_setting"]) == set(MODEL_SETTINGS)
    for name, setting in MODEL_SETTINGS.items():
        if name.startswith("paper_"):
            assert setting["readout"] == "eos" and setting["positional"] == "sinusoidal"
            assert setting["layer_norm_eps"] == 0.0
    assert {s["init"] for s in MODEL_SETTINGS.values()} >= {
        "uniform", "normal", "xavier_uniform", "xavier_normal"}
    # The full preset's grid and budgets, in every setting.
    assert {k: v for k, v in paper.items() if k != "model_setting"} == {
        k: v for k, v in STUDY.preset("full").items() if k != "model_setting"}
    majority = budget_of("MAJORITY", max(paper["n_bits"]), paper["n_steps"], paper["budgets"])
    assert majority >= 4 * paper["n_steps"] and max(paper["n_bits"]) >= 64


# -- beyond exhaustive profiling and bad input -------------------------------------


def test_training_beyond_exhaustive_is_sampled():
    df = training_sensitivity(
        function=["FIRST"], n_bits=[7], exhaustive_max=5, n_eval=500, n_samples=50, seeds=1,
    )
    row = df.iloc[0]
    assert row["method"] == "sampled" and row["n_strings"] == 50
    assert row["learned"]
    assert row["target_zero_fraction"] == 0.0 and row["target_average_sensitivity"] == 1.0
    summary = summarize_training(df).iloc[0]
    assert summary["share_one_low"] < summary["share_one"] <= summary["share_one_high"]
    assert "sampled: 50" in STUDY.render("report", df)


def test_training_bad_overrides():
    with pytest.raises(ValueError, match=r"'function' parameter .* among \{"):
        training_sensitivity(function=["XOR"])
    with pytest.raises(ValueError, match="divisible by n_heads"):
        training_sensitivity(d_model=10)
    with pytest.raises(ValueError, match="device"):
        training_sensitivity(device="tpu")
    # A budget block without n_steps, with a key it does not know, a function
    # outside the registry, or a bool for a count: the parameter is named.
    for bad in ([{"function": "PARITY"}], [{"n_steps": 10, "seed": 1}],
                [{"function": "XOR", "n_steps": 10}], [{"n_steps": True}],
                {"function": "PARITY", "n_steps": 10}, [{"n_bits": [0], "n_steps": 10}]):
        with pytest.raises(ValueError, match=r"'budgets' parameter"):
            training_sensitivity(budgets=bad)


def test_budgets_set_each_runs_budget_and_the_first_block_wins():
    cells = STUDY.cells({**STUDY.preset("quick"), "n_steps": 100, "budgets": [
        {"function": "PARITY", "n_bits": [4], "n_steps": 900},
        {"function": ["PARITY", "MAJORITY"], "n_steps": 300}]})
    budget = {(c["function"], c["n_bits"]): c["n_steps"] for c in cells}
    assert budget[("PARITY", 4)] == 900 and budget[("PARITY", 8)] == 300
    assert budget[("MAJORITY", 4)] == 300 and budget[("FIRST", 8)] == 100
    assert budget_of("FIRST", 8, 100, None) == 100


def test_headline_on_a_table_without_runs(tmp_path, quick_df):
    """Issue 23: a study table the headline cannot summarize says so (no traceback)."""
    from skxor.studies import render_headline

    quick_df.iloc[:0].to_csv(tmp_path / "training_sensitivity.csv", index=False)
    assert "holds no training run to summarize" in render_headline(tmp_path)
    quick_df.to_csv(tmp_path / "training_sensitivity.csv", index=False)
    text = render_headline(tmp_path)
    assert "MAJORITY (paper, xavier_uniform init)" in text and "budget-limited" in text


def test_paper_preset_on_the_command_line(tmp_path, capsys):
    from skxor.cli import main

    # "paper" is the training study's own preset: for one_step alone it is no choice.
    assert main(["run", "one_step", "--preset", "paper", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("skxor: error: argument --preset: invalid choice: 'paper' (choose")
    assert "'full'" in err and "'quick'" in err
    assert "Traceback" not in err
    assert not (tmp_path / "o").exists()
    # Beside the training study it is a choice, and one_step is refused by name.
    assert main(["run", "one_step", "training_sensitivity", "--preset", "paper",
                 "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("skxor: error: --preset paper: one_step has no such preset")
    assert "Traceback" not in err


@pytest.mark.parametrize("preset", ["quick", "full", "paper"])
def test_every_cell_trains_its_own_network_on_its_own_strings(preset):
    """Seeds from the whole cell key: no two runs of a preset share a network or data.

    Before, the seeds depended on the seed index only: every function and N of
    one seed index started from the same weights and monitoring strings.
    """
    from skxor.papers._common import key_seed
    from skxor.papers.kover.training import training_cells, training_key

    params = STUDY.preset(preset)
    cells = training_cells(params)
    keys = [training_key(c["function"], c["n_bits"], c["model_setting"], c["d_model"],
                         c["n_layers"], c["n_heads"], c["seed"]) for c in cells]
    for salt, bits in ((10, 63), (11, 32)):  # the strings, the network
        seeds = {key_seed(params["random_state"], salt, bits=bits, **k) for k in keys}
        assert len(seeds) == len(cells)



def test_summaries_of_an_empty_table(quick_df):
    empty = quick_df.iloc[:0]
    assert "holds no training run" in STUDY.render("report", empty)
    figures = lambda table: STUDY.render("figures", table)  # noqa: E731
    for summary in (summarize_training, learned_up_to, figures):
        with pytest.raises(ValueError, match="holds no training run"):
            summary(empty)


def test_tables_from_before_the_model_settings_still_summarize(quick_df):
    old = quick_df[quick_df["model_setting"] == "library"].drop(
        columns=["model_setting", "stop", "loss_curve", "loss_drop", "readout", "positional",
                 "init"])
    assert "library: last-token read-out" in STUDY.render("report", old)
    assert "loss" not in STUDY.render("figures", old)  # no curves were recorded
    summary = summarize_training(old)
    assert (summary["stopped_target"] + summary["stopped_flat"] + summary["stopped_budget"]
            == 0).all()
    assert (summary["at_chance"] + summary["censored"] == 0).all()  # no curves: unknown


def test_learned_share_display_draws_the_table_on_the_given_axes():
    """Issue 33.10: the study's main panel as a display (from_table, plot(ax=...)), drawn
    from the stored quick table (no training), as the study's figure draws it."""
    import matplotlib.pyplot as plt

    from skxor.papers import LearnedShareDisplay

    table = pd.read_csv(Path(__file__).resolve().parents[1] / "data" / "quick_tables"
                        / "training_sensitivity.csv.gz")
    display = drawn_beside_another(LearnedShareDisplay.from_table, table)
    right = display.ax_
    assert len(display.legends_) == 1
    # One series per function and model setting, its points the summary's learned rates.
    summary = summarize_training(table)
    series = {c.get_label(): c for c in right.containers}
    assert list(series) == [t.get_text() for t in display.legends_[0].get_texts()]
    assert len(series) == summary.groupby(["function", "model_setting"]).ngroups == 6
    for (function, setting), rows in summary.groupby(["function", "model_setting"], sort=False):
        line = series[f"{function} ({setting_label(setting)})"].lines[0]
        assert line.get_ydata().tolist() == rows["learned_rate"].tolist()
    assert sorted(y for c in right.containers for y in c.lines[0].get_ydata()) == \
        sorted(summary["learned_rate"])
    first = LearnedShareDisplay(table, function=["FIRST"]).plot()  # a new figure's axes
    assert first.ax_ is not right and first.figure_ is not display.figure_
    assert {c.get_label().split(" (")[0] for c in first.ax_.containers} == {"FIRST"}
    plt.close(first.figure_)
    with pytest.raises(ValueError, match=r"function \['XOR'\] is not in the table; it has"):
        LearnedShareDisplay(table, function="XOR")
    panel = STUDY.render("figures", table)["success"].axes[0]
    assert [line.get_ydata().tolist() for line in panel.lines] == \
        [line.get_ydata().tolist() for line in right.lines]


def test_exhaustive_max_beyond_one_pass_per_string_is_refused_before_any_cell(monkeypatch):
    # Issue 48.12: exhaustive_max=25 was accepted, every cell trained and then
    # failed inside all_strings. The range is checked up front: no cell runs.
    from skxor.papers.kover import _profiling
    ran = []

    def no_cell(*args):
        ran.append(args)
        raise RuntimeError("a cell ran")
    monkeypatch.setattr("skxor.papers.kover.training._cells.get_function", no_cell)
    for bad in (21, 25, -1):
        with pytest.raises(ValueError, match=r"'exhaustive_max' .* range \[0, 20\]"):
            training_sensitivity(function=["FIRST"], n_bits=[4, 25], exhaustive_max=bad,
                                 seeds=1)
    assert ran == []
    assert _profiling.STRING_BY_STRING_MAX == 20
