"""The one-step study: exact and sequential scoring, intervals, figures and report."""

import itertools
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import torch
from sklearn.utils import check_random_state

from skxor.studies import get_study
from skxor.datasets import make_sparse_parity
from skxor._utils._sphere import initial_queries, sphere_keys
from skxor.nn import SparseXORAttention, attention_weights
from skxor.papers import one_step
from skxor.papers.han_ghoshdastidar.one_step import (
    TIME_COLUMNS,
    dominant_accuracy,
    one_step_cell,
    score_heads,
    summarize_one_step,
)
from skxor.theory import population_step

from _figures import (
    assert_every_axis_labelled_and_series_in_legend,
    assert_legends_clear_of_titles,
    drawn_beside_another,
)

STUDY = get_study("one_step")


@pytest.fixture(scope="module")
def small():
    return one_step(d=[100, 1000], m=[16, 32], seeds=5, n_test=1000, step_length=100.0,
                    n_steps=1)


def test_softmax_succeeds_where_linear_and_erf_fail(small):
    assert len(small) == 3 * 2 * 2 * 5
    rate = small.groupby("attention")["success"].mean()
    assert rate["softmax"] >= 0.8 and rate["linear"] == 0 and rate["erf"] == 0
    soft = small[small["attention"] == "softmax"]
    # Where softmax succeeds the heads lock onto distinct support bits with most mass.
    assert soft.loc[soft["success"], "specialised"].all()
    assert soft.loc[soft["success"], "support_mass_min"].median() > 0.99
    assert soft.loc[soft["success"], "support_mass_min"].min() > 0.5
    assert soft.loc[soft["success"], "loss_after_step"].median() < 0.05
    assert soft.loc[soft["success"], "loss_after_step"].max() < 0.5
    assert (small[small["attention"] == "erf"]["loss_after_step"] > 0.9).all()
    # Linear heads often land on the support and still fail.
    assert small[small["attention"] == "linear"]["specialised"].any()


def test_intervals_exist_and_contain_the_estimates(small):
    cells = small
    assert (cells["accuracy_low"] <= cells["test_accuracy"]).all()
    assert (cells["test_accuracy"] <= cells["accuracy_high"]).all()
    summary = summarize_one_step(small)
    for key in ("success", "specialised"):
        rate, low, high = (summary[f"{key}_{s}"] for s in ("rate", "low", "high"))
        assert ((low <= rate) & (rate <= high)).all()
        assert ((0 <= low) & (high <= 1)).all()
        # Wilson intervals over 5 seeds are never degenerate.
        assert ((high - low) > 0.2).all()


def test_timing_columns_and_floor(small):
    for name in TIME_COLUMNS:
        assert (small[name] >= 0).all()
    assert (small["floor_seconds"] <= small["seconds"]).all()


def _old_accuracy(cell):
    """The scoring the study used before: a fresh n_test x d test set per cell."""
    _, _, support = make_sparse_parity(1, cell["d"], return_support=True,
                                       random_state=cell["seed"])
    rng = check_random_state(cell["seed"])
    keys = sphere_keys(cell["d"], cell["m"], rng)
    theta = population_step(initial_queries(2, cell["m"], "antisymmetric", rng), keys,
                            support, cell["attention"], step_length=cell["step_length"])
    Xt, yt = make_sparse_parity(cell["n_test"], cell["d"], support=support,
                                random_state=10**6 + cell["seed"])
    with torch.no_grad():
        gamma = attention_weights(torch.as_tensor(keys) @ torch.as_tensor(theta).T,
                                  cell["attention"])
        f = SparseXORAttention.read_out(torch.as_tensor(Xt, dtype=torch.float32),
                                        gamma.to(torch.float32))
    return float(np.mean(np.where(f.numpy() > 0, 1, -1) == yt))


def test_new_scoring_agrees_with_the_old_fresh_test_set():
    """Exact cells equal the old score (1 or 0) or its expectation (1/2, within
    the old sample's Wilson interval); sampled cells' intervals hold the old
    score; success agrees everywhere."""
    from skxor.studies.stats import wilson_interval

    n_test = 3000
    cells = [dict(attention=a, d=d, m=m, n=0, seed=s, step_length=100.0, n_test=n_test)
             for a, d, m, s in itertools.product(["softmax", "linear", "erf"], [50, 400],
                                                 [8, 32], range(4))]
    kinds = set()
    for cell in cells:
        new = one_step_cell(**cell)
        old = _old_accuracy(cell)
        kinds.add((new["scoring"], new["test_accuracy"] if new["scoring"] == "exact" else None))
        assert new["success"] == (old >= 0.99), cell
        if new["scoring"] == "exact" and new["test_accuracy"] in (0.0, 1.0):
            assert old == new["test_accuracy"], cell
        elif new["scoring"] == "exact":
            # 1/2 in expectation; the old sample scatters around it (99.9% interval).
            low, high = wilson_interval(round(old * n_test), n_test, confidence=0.999)
            assert low <= 0.5 <= high, cell
        else:
            assert new["accuracy_low"] - 0.02 <= old <= new["accuracy_high"] + 0.02, cell
    assert ("exact", 1.0) in kinds and ("sampled", None) in kinds


@pytest.mark.parametrize("seed", range(20))
def test_dominant_accuracy_equals_the_count_over_all_inputs(seed):
    rng = np.random.default_rng(seed)
    d = 7
    support = np.sort(rng.choice(d, 2, replace=False))
    gamma = rng.normal(size=(d, 2)) * 0.1
    top = rng.integers(0, d, size=2)
    if seed % 3 == 0:
        top = support.copy()
    gamma[top, [0, 1]] = rng.choice([-1.0, 1.0], size=2) * rng.uniform(1.0, 2.0, size=2)
    X = 1 - 2 * ((np.arange(2**d)[:, None] >> np.arange(d)) & 1)
    y = -X[:, support[0]] * X[:, support[1]]
    f = -np.prod(X @ gamma, axis=1)
    truth = float(np.mean(np.where(f > 0, 1, -1) == y))
    got = dominant_accuracy(gamma, support)
    dominant = np.all(np.abs(gamma).max(0) > np.abs(gamma).sum(0) - np.abs(gamma).max(0))
    assert (got is not None) == bool(dominant)
    if got is not None:
        assert got == truth


def test_sequential_scoring_stops_once_the_interval_excludes_the_threshold():
    uniform = np.full((40, 2), 1 / 40)
    r = score_heads(uniform, [3, 7], n_test=10000, random_state=0)
    assert r["scoring"] == "sampled" and r["n_scored"] == 256 and r["accuracy_high"] < 0.99
    # Heads on the support but far from dominant: accuracy close to 1, so the
    # sampling goes on until the interval clears 0.99 or n_test is spent.
    gamma = np.full((40, 2), 0.004)
    gamma[3, 0] = gamma[7, 1] = 0.1
    r = score_heads(gamma, [3, 7], n_test=4096, random_state=0)
    assert r["scoring"] == "sampled"
    assert r["n_scored"] == 4096 or not (r["accuracy_low"] <= 0.99 <= r["accuracy_high"])
    assert r["accuracy_low"] <= r["test_accuracy"] <= r["accuracy_high"]


def test_finite_samples_use_the_estimator():
    df = one_step(attention=["softmax"], d=[40], m=[16], n=[20000], seeds=2, n_test=1000,
                  step_length=100.0, n_steps=1)
    assert df["n"].tolist() == [20000, 20000]
    assert df["test_accuracy"].between(0, 1).all()
    assert "n = 20,000" in STUDY.render("report", df) or "n > 0" in STUDY.render("report", df)


def test_report_numbers_come_from_the_table(small):
    text = STUDY.render("report", small)
    assert "population steps (n = 0)" in text
    linear = small[small["attention"] == "linear"]
    k, n = int(linear["specialised"].sum()), len(linear)
    assert f"linear heads, one step at its best length, do land on the support bits in {k} of {n} runs" in text
    assert re.search(r"\| softmax .*\[", text)  # intervals in the table
    assert "Rough: with 5 seeds" in text
    assert f"{int((small['scoring'] == 'exact').sum())} of {len(small)} cells exactly" in text


def test_figures_label_every_axis_and_show_every_series(small):
    figures = STUDY.render("figures", small)
    assert set(figures) == {"success", "step_length", "attention_maps"}
    for figure in figures.values():
        assert_every_axis_labelled_and_series_in_legend(figure)
    # One colour bar for the shared scale of all attention maps.
    images = [im for ax in figures["attention_maps"].axes for im in ax.get_images()]
    assert len(images) == 3 and len({im.norm for im in images}) == 1
    assert len({(im.norm.vmin, im.norm.vmax) for im in images}) == 1


@pytest.mark.slow
def test_quick_preset_figures(tmp_path):
    df = one_step("quick")
    # 3 attentions x 3 d x 2 m x 4 step lengths x 2 T x 24 seeds.
    assert len(df) == 3456
    figures = STUDY.render("figures", df)
    for name, figure in figures.items():
        assert_every_axis_labelled_and_series_in_legend(figure)
        figure.savefig(tmp_path / f"{name}.png", dpi=60)
        assert_legends_clear_of_titles(figure)
    title = figures["success"].get_suptitle()
    assert "population" in title and "quick preset" in title and "10 seeds" in title
    # Every (attention, T) at every step length tried: 6 series of 4 points each.
    sweep = figures["step_length"].axes[0]
    assert len(sweep.containers) == 6
    assert all(len(c.lines[0].get_xdata()) == 4 for c in sweep.containers)


def test_compute_states_its_floor_for_the_runner():
    df = one_step(attention=["softmax"], d=[50], m=[8], seeds=2, n_test=100, step_length=100.0,
                  n_steps=1)
    assert df.attrs["floor_seconds"] == pytest.approx(df["floor_seconds"].sum())
    assert "exact losses" in df.attrs["floor_description"]
    assert df.attrs["preset"] is None and df.attrs["rows"] == 2
    assert "quick preset" not in STUDY.render("report", df)


def test_attention_maps_are_drawn_by_attention_display():
    from unittest import mock

    from skxor.plotting import AttentionDisplay
    from skxor.papers.han_ghoshdastidar.one_step import plot_attention_maps

    maps = {"softmax": np.array([[0.0, 0.9, 0.1], [0.5, 0.0, 0.5]]),
            "linear": np.array([[-0.1, 0.6, 0.5], [0.3, 0.3, 0.4]])}
    plot = AttentionDisplay.plot
    with mock.patch.object(AttentionDisplay, "plot", autospec=True, side_effect=plot) as drawn:
        figure = plot_attention_maps(maps, np.array([1, 2]), "title")
    assert drawn.call_count == 2
    norms = {call.kwargs["norm"] for call in drawn.call_args_list}
    assert len(norms) == 1 and (norms.pop().vmin, figure.axes[0].images[0].norm.vmax) == (-0.1, 0.9)
    heat = [ax for ax in figure.axes if ax.get_images()]
    # The display's artists: crosses on each head's argmax, triangles on the support.
    for ax, gamma in zip(heat, maps.values()):
        crosses = [ln for ln in ax.lines if ln.get_label() == "most attended position"]
        np.testing.assert_array_equal(crosses[0].get_xdata(), gamma.argmax(axis=1))
        assert any(ln.get_label() == "true support [1, 2]" for ln in ax.lines)
    assert len(figure.axes) == 3  # two maps and one shared colour bar
    assert_every_axis_labelled_and_series_in_legend(figure)


@pytest.fixture(scope="module")
def swept():
    """Every attention at four step lengths, one step and 50 steps."""
    return one_step(d=[100, 1000], m=[16], seeds=4, n_test=1000,
                    step_length=[1.0, 10.0, 100.0, 1000.0], n_steps=[1, 50])


def test_each_attention_is_reported_at_its_best_step_length(swept):
    from skxor.papers.han_ghoshdastidar.one_step import best_steps

    table = best_steps(swept)
    assert len(table) == 3 * 2 * 4
    best = table[table["best"]]
    assert len(best) == 3 * 2  # one per (attention, T)
    for _, row in best.iterrows():
        rivals = table[(table["attention"] == row["attention"])
                       & (table["n_steps"] == row["n_steps"])]
        # No other step length of the same variant has more successes, nor as
        # many with a lower median loss.
        assert row["successes"] == rivals["successes"].max()
        tied = rivals[rivals["successes"] == row["successes"]]
        assert row["median_loss"] == tied["median_loss"].min()
    # The counts are the table's own.
    one = swept[(swept["attention"] == "softmax") & (swept["n_steps"] == 1)
                & (swept["step_length"] == 100.0)]
    row = table[(table["attention"] == "softmax") & (table["n_steps"] == 1)
                & (table["step_length"] == 100.0)].iloc[0]
    assert (row["successes"], row["runs"]) == (int(one["success"].sum()), len(one))
    text = STUDY.render("report", swept)
    for _, row in best.iterrows():
        steps = "1 step" if row["n_steps"] == 1 else f"{row['n_steps']} steps"
        assert (f"- {row['attention']}, {steps} of {row['step_length']:g} (its best of "
                "1, 10, 100, 1000): success in "
                f"{row['successes']}/{row['runs']} = ") in text


def test_swept_figures_show_every_step_length_clear_of_the_title(swept):
    figures = STUDY.render("figures", swept)
    for figure in figures.values():
        assert_every_axis_labelled_and_series_in_legend(figure)
        assert_legends_clear_of_titles(figure)
    sweep = figures["step_length"].axes[0]
    assert len(sweep.containers) == 6
    assert all(len(c.lines[0].get_xdata()) == 4 for c in sweep.containers)
    labels = {t.get_text() for t in figures["success"].legends[0].get_texts()}
    assert "softmax, T = 50, step 10" in labels or "softmax, T = 50, step 1" in labels


def test_linear_and_erf_fail_at_every_step_length_and_with_50_steps(swept):
    weak = swept[swept["attention"].isin(["linear", "erf"])]
    assert not weak["success"].any()
    assert (weak[weak["n_steps"] == 50]["loss_after_step"] > 0.5).all()
    soft = swept[(swept["attention"] == "softmax") & (swept["n_steps"] == 50)
                 & (swept["step_length"] == 10.0)]
    assert soft["success"].mean() >= 0.75


def test_erf_weights_never_exceed_two_over_d_and_linear_weights_span_keys(swept):
    erf = swept[swept["attention"] == "erf"]
    assert (erf["max_weight"] <= 2.0 / erf["d"] + 1e-12).all()
    # Linear weights (1 + v_i . theta) / d lie in span(1, keys): m + 1 dimensions.
    from skxor.nn import sparse_xor_init
    from skxor.theory import population_step as step

    keys, theta = sparse_xor_init(200, 8, random_state=0)
    for _ in range(5):
        theta = step(theta, keys, [3, 7], "linear", step_length=10.0)
    gamma = attention_weights(torch.as_tensor(keys) @ torch.as_tensor(theta).T,
                              "linear").numpy()
    basis = np.column_stack([np.ones(200), keys])
    assert np.linalg.matrix_rank(np.column_stack([basis, gamma])) == 8 + 1


def test_several_steps_are_taken_and_the_estimator_takes_them_too():
    cell = dict(attention="softmax", d=60, m=8, seed=0, step_length=10.0, n_test=256)
    one, many = one_step_cell(n=0, n_steps=1, **cell), one_step_cell(n=0, n_steps=20, **cell)
    assert many["loss_after_step"] < one["loss_after_step"]
    samples = one_step_cell(n=20000, n_steps=20, **cell)
    assert samples["loss_after_step"] < one_step_cell(n=20000, n_steps=1, **cell)["loss_after_step"]


def test_report_says_runs_pooled_over_d_share_keys(small):
    # Old report: "Wilson 95% intervals over runs" with no word that the runs
    # of one seed at different d share the first rows of their keys (the
    # intervals pooled over d count them as independent).
    from skxor.nn import sparse_xor_init

    small_keys, _ = sparse_xor_init(20, 16, random_state=3)
    large_keys, _ = sparse_xor_init(50, 16, random_state=3)
    assert np.array_equal(small_keys, large_keys[:20])  # what the caveat states
    text = " ".join(STUDY.render("report", small).split())
    assert "Runs of one seed at different d are not independent draws" in text
    assert "seeds as the independent units" in text


def test_pooled_intervals_take_the_seeds_as_units():
    # Old best_steps: a Wilson interval over runs, so 6 seeds x 5 values of d
    # counted as 30 independent runs although a seed's runs share keys.
    import pandas as pd

    from skxor.papers.han_ghoshdastidar.one_step import best_steps
    from skxor.studies.stats import clustered_rate_interval, wilson_interval

    seeds = np.repeat(np.arange(6), 5)
    wins = np.isin(seeds, [0, 1, 2, 3])  # every run of a seed agrees
    df = pd.DataFrame({"attention": "softmax", "n": 0, "d": np.tile([10, 20, 30, 40, 50], 6),
                       "m": 16, "n_steps": 1, "step_length": 10.0, "seed": seeds,
                       "success": wins, "specialised": wins, "loss_after_step": 0.0})
    row = best_steps(df).iloc[0]
    assert (row.successes, row.runs, row.seeds) == (20, 30, 6)
    # The seeds are the units: at least as wide as Wilson over the 6 seeds, and
    # exactly the seed-clustered interval.
    low, high = wilson_interval(4, 6)
    clustered = pytest.approx(clustered_rate_interval(wins, seeds)[1:3])
    assert row.success_low <= low and row.success_high >= high
    assert (row.success_low, row.success_high) == clustered
    assert (row.specialised_low, row.specialised_high) == clustered


@pytest.mark.parametrize("function", ["best_steps", "summarize_one_step"])
def test_summaries_name_a_table_that_is_not_a_one_step_table(function, small):
    # Old code: KeyError 'n' (an empty DataFrame) or 'success'.
    from skxor.papers.han_ghoshdastidar import one_step as _one_step

    with pytest.raises(ValueError, match="lacks the column"):
        getattr(_one_step, function)(pd.DataFrame())
    with pytest.raises(ValueError, match=r"lacks the column\(s\) \['success'\]"):
        getattr(_one_step, function)(small.drop(columns="success"))
    with pytest.raises(TypeError, match="pandas DataFrame"):
        getattr(_one_step, function)(small.to_dict())


def test_one_step_success_display_draws_the_table_on_the_given_axes():
    """Issue 33.10: the study's main panel (one m) as a display (from_table, plot(ax=...)),
    drawn from the stored quick table (no steps taken), as the study's figure draws it."""
    import matplotlib.pyplot as plt

    from skxor.papers import OneStepSuccessDisplay
    from skxor.papers.han_ghoshdastidar.one_step._summary import best_cells

    table = pd.read_csv(Path(__file__).resolve().parents[1] / "data" / "quick_tables"
                        / "one_step.csv.gz")
    display = drawn_beside_another(OneStepSuccessDisplay.from_table, table, m=64)
    right = display.ax_
    assert len(display.legends_) == 1 and right.get_title() == "m = 64"
    # One series per attention and T, its points the summary's success rates at m = 64.
    summary = summarize_one_step(best_cells(table))
    series = {c.get_label(): c for c in right.containers}
    assert list(series) == [t.get_text() for t in display.legends_[0].get_texts()]
    here = summary[summary["m"] == 64]
    groups = here.groupby(["attention", "n_steps"])
    assert len(series) == groups.ngroups == 6
    for (attention, steps), rows in groups:
        label = f"{attention}, T = {steps}, step {rows['step_length'].iloc[0]:g}"
        line = series[label].lines[0]
        assert line.get_ydata().tolist() == rows["success_rate"].tolist()
    specialised = OneStepSuccessDisplay(summary, m=128, rate="specialised").plot()
    assert specialised.ax_ is not right and "specialised" in specialised.ax_.get_ylabel()
    assert sorted(y for c in specialised.ax_.containers for y in c.lines[0].get_ydata()) == \
        sorted(summary.loc[summary["m"] == 128, "specialised_rate"])
    plt.close(specialised.figure_)
    with pytest.raises(ValueError, match=r"several m \(\[64, 128\]\): choose one with m"):
        OneStepSuccessDisplay(summary)
    with pytest.raises(ValueError, match=r"m \[16\] is not in the table; it has \[64, 128\]"):
        OneStepSuccessDisplay(summary, m=16)
    with pytest.raises(ValueError, match="rate must be one of"):
        OneStepSuccessDisplay(summary, m=64, rate="accuracy")
    panel = STUDY.render("figures", table)["success"].axes[0]
    assert [line.get_ydata().tolist() for line in panel.lines] == \
        [line.get_ydata().tolist() for line in right.lines]
