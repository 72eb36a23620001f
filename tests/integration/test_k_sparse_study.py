"""The k-sparse study: one step against T steps with k heads, the gradient signal, v1."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.container import ErrorbarContainer
from sklearn.utils import check_random_state

from skxor import SparseXORTransformer
from skxor.cli import main
from skxor.datasets import make_sparse_parity
from skxor.studies import get_study
from skxor.papers import k_sparse
from skxor.papers._common import cell_seed
from skxor.papers.han_ghoshdastidar.k_sparse import (
    gradient_signal,
    k_sparse_cell,
    summarize_k_sparse,
    summarize_v1,
    v1_cell,
)
from skxor.theory import population_loss

from _figures import (
    all_legends,
    assert_legends_clear_of_titles,
    assert_legends_short_and_drawn,
    drawn_beside_another,
)

STUDY = get_study("k_sparse")


@pytest.fixture(scope="module")
def small():
    # k = 2 and 3 at d = 20 on the population, k = 3 also on samples: seconds.
    return k_sparse(k=[2, 3], d=[20], m=[32], n_steps=[1, 10], n=[0], seeds=5, n_test=2000,
                    v1_seeds=0, init="antisymmetric")


def test_one_step_learns_k2_and_ten_steps_learn_k3(small):
    summary = summarize_k_sparse(small).set_index(["k", "n_steps"])
    assert summary.loc[(2, 1), "success"] >= 0.8
    assert summary.loc[(3, 10), "success"] == 1.0
    # One step of the same total length does worse for k = 3 than ten.
    assert summary.loc[(3, 1), "success"] < summary.loc[(3, 10), "success"]
    assert summary.loc[(3, 1), "success_low"] <= summary.loc[(3, 1), "success"]
    assert (summary["seeds"] == 5).all()


def test_the_certificate_is_sound(small):
    # Success is a proof of accuracy >= 0.99; the sampled accuracy must agree.
    assert small["success"].any()
    assert small.loc[small["success"], "test_accuracy"].min() >= 0.99
    certified_by_mass = small["specialised"] & (small["own_mass_min"] > 0.5)
    assert (certified_by_mass <= small["success"]).all()
    assert (small.loc[small["success"], "bits_found"] == small.loc[small["success"], "k"]).all()


def test_the_initial_signal_reaches_the_support_but_does_not_split_the_heads(small):
    signal = gradient_signal(small).set_index("k")
    # Both k: the gradient points at the support far above chance ...
    assert (signal["support_component"] > 5 * signal["chance_component"]).all()
    assert (signal["support_gain"] > 0).all()
    # ... but only for k = 2 does a long first step send the heads to distinct bits.
    assert signal.loc[2, "limit_distinct"] >= 0.8
    assert signal.loc[3, "limit_distinct"] < signal.loc[2, "limit_distinct"]
    # The signal is a property of the initialisation: the same for every T.
    per_seed = small.groupby(["k", "seed"])["support_gain"].nunique()
    assert (per_seed == 1).all()


def test_population_and_sample_cells_share_the_initialisation():
    cell = dict(k=2, d=20, m=16, n_steps=1, path_length=100.0, seed=3, random_state=0,
                n_test=0)
    population = k_sparse_cell(n=0, **cell)
    samples = k_sparse_cell(n=100000, **cell)
    for column in ("gradient_norm", "support_gain", "limit_distinct"):
        assert population[column] == samples[column]
    assert population["success"] and samples["success"]
    # The population cell draws keys and queries as the estimator does.
    _, _, support = make_sparse_parity(1, 20, k=2, return_support=True,
                                       random_state=cell_seed(0, 3, 1))
    X, y = make_sparse_parity(100000, 20, k=2, support=support,
                              random_state=cell_seed(0, 3, 3))
    clf = SparseXORTransformer(m=16, random_state=cell_seed(0, 3, 2)).fit(X, y)
    assert population_loss(clf.queries_, clf.keys_, support) == pytest.approx(samples["loss"])
    assert np.isnan(population["test_accuracy"]) and population["accurate"] is None


def test_v1_reference_on_the_same_data():
    df = k_sparse(k=[2], d=[20], n_steps=[1, 5], seeds=1, v1_k=[2], v1_d=[6], v1_n=[500],
                  v1_epochs=150, v1_seeds=2)
    ref = df[df["part"] == "v1"]
    assert sorted(ref["model"].unique()) == ["k_parity", "sparse_xor"]
    assert len(ref) == 2 * (1 + 2)
    parity = ref[ref["model"] == "k_parity"]
    assert (parity["n_parameters"] == 4).all()  # 2 per head
    assert (ref.loc[ref["model"] == "sparse_xor", "n_parameters"] == 2 * 32).all()
    assert (parity["iterations"] <= 150).all() and (ref["seconds"] > 0).all()
    assert (ref["scored_on"] == "all strings").all()
    summary = summarize_v1(df)
    assert set(summary["budget"]) == {"150 epochs (Adam, lr 0.1)", "1 step(s) of 100",
                                      "5 step(s) of 20"}
    # A success is accuracy >= 0.99 on all 64 strings.
    assert (ref["success"] == (ref["accuracy"] >= 0.99)).all()
    assert "### Reference: the v1 k-parity model" in STUDY.render("report", df)
    assert set(STUDY.render("figures", df)) == {"success", "gradient", "v1"}


def test_v1_cell_scores_a_long_input_on_fresh_strings():
    row = v1_cell("sparse_xor", k=2, d=30, n=20000, seed=0, random_state=0, n_test=500,
                  epochs=0, learning_rate=0.0, batch_size=0, m=16, n_steps=5,
                  path_length=100.0)
    assert row["scored_on"] == "500 fresh strings" and row["success"]


@pytest.mark.parametrize("overrides, message", [
    ({"d": [5], "k": [2, 5, 3], "m": [8]}, None),
    ({"d": [4]}, "parameter of k_sparse"),  # below the declared range
    ({"k": [5], "d": [20], "m": [3]}, "every m must be at least k - 1 = 4"),
    ({"v1_k": [3], "v1_d": [2]}, "every v1_d must be at least the largest v1_k"),
    ({"v1_k": [4], "v1_m": 2}, "v1_m must be at least v1_k - 1 = 3"),
    ({"k": [6]}, "parameter of k_sparse"),
])
def test_parameters_are_checked(overrides, message):
    study = get_study("k_sparse")
    if message is None:
        assert study.params("quick", overrides)["k"] == [2, 5, 3]
        return
    with pytest.raises(ValueError, match=message):
        study.params("quick", overrides)


def test_the_command_line_runs_the_study(tmp_path, capsys):
    args = ["run", "k_sparse", "--out", str(tmp_path), "--no-progress", "--set", "k=2,3",
            "--set", "d=20", "--set", "n_steps=1,2", "--set", "seeds=2", "--set", "v1_seeds=0"]
    assert main(args) == 0
    table = pd.read_csv(tmp_path / "k_sparse.csv")
    # k x T x seeds x the two initialisations.
    assert len(table) == 2 * 2 * 2 * 2 and set(table["preset"]) == {"custom"}
    report = (tmp_path / "report.md").read_text()
    assert "## k-sparse parity with k heads" in report
    assert (tmp_path / "k_sparse_success.png").exists()
    assert (tmp_path / "k_sparse_gradient.png").exists()
    # A user's mistake is a message, not a traceback.
    assert main(["run", "k_sparse", "--out", str(tmp_path), "--set", "k=7"]) == 2
    assert "skxor: error:" in capsys.readouterr().err


def _check_figures(figures, df):
    summary = summarize_k_sparse(df)
    for name, fig in figures.items():
        assert all_legends(fig), name
        for ax in fig.axes:
            assert ax.get_xlabel() and ax.get_ylabel(), (name, ax.get_title())
            handles, labels = ax.get_legend_handles_labels()
            series = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
            series += [line for line in ax.lines if not line.get_label().startswith("_")]
            assert len(series) == len(handles), name
        # Every legend entry stands for something drawn; each legend short.
        assert_legends_short_and_drawn(fig)
        assert_legends_clear_of_titles(fig)
    # One series per (T, m) in every success panel that has data.
    per_panel = summary["n_steps"].nunique() * summary["m"].nunique()
    for ax in figures["success"].axes:
        assert len(ax.containers) == per_panel
        assert len(ax.get_xticks()) == summary["d"].nunique()  # a tick at every d
        assert "population" in ax.get_title() or "samples" in ax.get_title()
        assert "initial queries" in ax.get_title()
    # One row of panels per (data, initialisation).
    rows = summary[["n", "init"]].drop_duplicates()
    assert len(figures["success"].axes) == len(rows) * summary["k"].nunique()
    assert "seeds" in figures["success"].get_suptitle()
    assert "preset" in figures["success"].get_suptitle()


def test_figures_show_every_series():
    df = k_sparse(k=[2, 3], d=[20, 40], m=[8, 16], n_steps=[1, 2], seeds=2, n=[0, 5000],
                  n_test=0, v1_seeds=0)
    _check_figures(STUDY.render("figures", df), df)


@pytest.mark.slow
def test_the_quick_preset_renders_every_figure(tmp_path):
    df = k_sparse("quick")
    assert set(df["preset"]) == {"quick"}
    figures = STUDY.render("figures", df)
    assert set(figures) == {"success", "gradient", "v1"}
    _check_figures(figures, df)
    report = STUDY.render("report", df)
    assert "| T=1" in report and "T=10" in report


def test_the_estimators_draw_is_mirrored():
    # Keys then queries from one RandomState, as SparseXORTransformer draws them.
    from skxor._utils._sphere import initial_queries, sphere_keys

    X, y = make_sparse_parity(200, 12, k=3, random_state=0)
    clf = SparseXORTransformer(m=8, n_heads=3, random_state=5).fit(X, y)
    rng = check_random_state(5)
    np.testing.assert_array_equal(sphere_keys(12, 8, rng), clf.keys_)
    np.testing.assert_array_equal(initial_queries(3, 8, "antisymmetric", rng),
                                  clf.initial_queries_)


def test_the_initialisation_is_a_swept_setting_with_its_own_rates():
    from skxor.nn import sparse_xor_init
    from skxor.papers.han_ghoshdastidar.k_sparse import pooled_success

    df = k_sparse(k=[2, 3], d=[20, 50], n_steps=[1], seeds=4, n_test=0, v1_seeds=0)
    assert set(df["init"]) == {"antisymmetric", "random"}
    pooled = pooled_success(df)
    assert len(pooled) == 2 * 2 and (pooled["runs"] == 8).all()
    for r in pooled.itertuples():
        part = df[(df["k"] == r.k) & (df["init"] == r.init)]
        assert r.successes == int(part["success"].sum())
    # Both initialisations of a seed share its keys and support, not its queries:
    # the gradient at initialisation differs.
    pairs = df.pivot_table(index=["k", "d", "seed"], columns="init", values="gradient_norm")
    assert (pairs["antisymmetric"] != pairs["random"]).all()
    cell = dict(k=3, d=20, m=8, n=0, n_steps=1, path_length=100.0, seed=0, random_state=0,
                n_test=0)
    _, q = sparse_xor_init(20, 8, n_heads=3, init="random",
                           random_state=cell_seed(0, 0, 2))
    assert not np.allclose(q @ q.T, np.where(np.eye(3, dtype=bool), 1.0, -0.5))
    random_cell = k_sparse_cell(init="random", **cell)
    assert random_cell["gradient_norm"] != k_sparse_cell(**cell)["gradient_norm"]
    report = STUDY.render("report", df)
    for init in ("antisymmetric", "random"):
        r = pooled[(pooled["k"] == 3) & (pooled["init"] == init)].iloc[0]
        assert (f"- population (exact), {init} initial queries, one step: " in report)
        assert f"k = 3: {r.successes}/{r.runs} = " in report


def test_gain_slopes_bootstrap_only_from_eight_seeds():
    from skxor.papers.han_ghoshdastidar.k_sparse import gain_slopes

    few = k_sparse(k=[2], d=[20, 60], n_steps=[1], seeds=3, n_test=0, v1_seeds=0,
                   init="antisymmetric")
    row = gain_slopes(few).iloc[0]
    assert row["interval"] == "range over seeds (rough)" and row["seeds"] == 3
    per_seed = []
    for _, g in few.groupby("seed"):
        g = g.sort_values("d")
        per_seed.append(np.diff(np.log(g["support_gain"]))[0] / np.diff(np.log(g["d"]))[0])
    assert row["low"] == pytest.approx(min(per_seed)) and row["high"] == pytest.approx(max(per_seed))
    many = k_sparse(k=[2], d=[20, 60], n_steps=[1], seeds=8, n_test=0, v1_seeds=0,
                    init="antisymmetric")
    assert gain_slopes(many).iloc[0]["interval"] == "bootstrap 95%"
    assert "range of the per-seed slopes, rough" in STUDY.render("report", few)


def test_report_says_runs_pooled_over_d_share_keys(small):
    # Old docstring of pooled_success: "every run has its own support, keys
    # and initial queries"; the keys of one seed at a smaller d are the first
    # rows of those at a larger d, and the report did not say so.
    from skxor.nn import sparse_xor_init

    small_keys, _ = sparse_xor_init(20, 16, n_heads=3, random_state=5)
    large_keys, _ = sparse_xor_init(50, 16, n_heads=3, random_state=5)
    assert np.array_equal(small_keys, large_keys[:20])
    text = " ".join(STUDY.render("report", small).split())
    assert "Runs of one seed at different d are not independent draws" in text
    from skxor.papers.han_ghoshdastidar.k_sparse import pooled_success
    assert "every run has its own support, keys" not in pooled_success.__doc__


def test_checkpoints_stored_before_the_study_became_a_package_are_reused():
    """A first-format checkpoint (keyed by the cell's import path) is still found."""
    from skxor.studies._sweep import _legacy_keys

    # The names the cells had at commit 739953f, when the study was one module.
    assert "6c9dc6931374226102d22a29" in [k for k, _ in _legacy_keys("k_sparse", k_sparse_cell,
                                                                     {"d": 20})]
    assert "8e0f924f8bd678101c527477" in [k for k, _ in _legacy_keys("k_sparse", v1_cell,
                                                                     {"d": 6})]


def test_the_study_declares_its_headline(small, tmp_path):
    """The bullet comes from the study's own headline, not from the fallback table."""
    from skxor.studies import render_headline
    from skxor.studies._headline import headline_renderers

    study = get_study("k_sparse")
    assert headline_renderers()["k_sparse"] is get_study("k_sparse").headline
    bullet = study.render("headline", small)
    assert bullet.startswith("**k-sparse parity with k heads** (rough: ")
    assert "k = 3, 10 steps: " in bullet and "d = 20, m = 32" in bullet
    small.to_csv(tmp_path / "k_sparse.csv", index=False)
    assert bullet in render_headline(tmp_path)


def test_pooled_success_takes_the_seeds_as_units():
    # Old pooled_success: a Wilson interval over runs, counting the 3 values
    # of d of one seed (which share keys) as independent runs.
    from skxor.papers.han_ghoshdastidar.k_sparse import pooled_success
    from skxor.studies.stats import clustered_rate_interval, wilson_interval

    seeds = np.repeat(np.arange(8), 3)
    wins = seeds < 6  # every run of a seed agrees
    df = pd.DataFrame({"part": "steps", "k": 3, "d": np.tile([20, 100, 1000], 8), "m": 32,
                       "n": 0, "n_steps": 1, "init": "antisymmetric", "seed": seeds,
                       "success": wins, "specialised": wins, "limit_on_support": wins,
                       "limit_distinct": wins})
    row = pooled_success(df).iloc[0]
    assert (row.successes, row.runs, row.seeds) == (18, 24, 8)
    # The seeds are the units: at least as wide as Wilson over the 8 seeds, and
    # exactly the seed-clustered interval.
    low, high = wilson_interval(6, 8)
    assert row.success_low <= low and row.success_high >= high
    assert (row.success_low, row.success_high) == pytest.approx(
        clustered_rate_interval(wins, seeds)[1:3])


@pytest.mark.parametrize("seeds, rough", [(5, True), (10, False)])
def test_headline_is_rough_only_below_ten_seeds(seeds, rough):
    # Old headline: "rough" whatever the number of seeds.
    df = pd.DataFrame({"part": "steps", "k": 2, "d": 20, "m": 32, "n": 0, "n_steps": 1,
                       "init": "antisymmetric", "seed": range(seeds), "success": True,
                       "specialised": True, "limit_on_support": True,
                       "limit_distinct": True, "preset": "full"})
    assert ("(rough: full preset" in STUDY.render("headline", df)) is rough
    assert "full preset" in STUDY.render("headline", df)


def test_k_sparse_success_display_draws_the_table_on_the_given_axes():
    """Issue 33.10: the study's main panel (one k, data size and initialisation) as a display
    (from_table, plot(ax=...)), drawn from the stored quick table (no steps taken), as the
    study's figure draws it."""
    import matplotlib.pyplot as plt

    from skxor.papers import KSparseSuccessDisplay

    table = pd.read_csv(Path(__file__).resolve().parents[1] / "data" / "quick_tables"
                        / "k_sparse.csv.gz", low_memory=False)
    display = drawn_beside_another(KSparseSuccessDisplay.from_table, table, k=3,
                                   init="random")
    right = display.ax_
    assert len(display.legends_) == 2 and right.get_title().startswith("k = H = 3, ")
    # One series per T (and m), its points the summary's certified success against d.
    summary = summarize_k_sparse(table)
    here = summary[(summary["k"] == 3) & (summary["init"] == "random")]
    series = {c.get_label(): c for c in right.containers}
    assert len(series) == here.groupby(["n_steps", "m"]).ngroups == 4
    for (steps, m), rows in here.groupby(["n_steps", "m"]):
        rows = rows.sort_values("d")
        label = f"T = {steps} (steps of {rows['step_length'].iloc[0]:g}), m = {m}"
        assert series[label].lines[0].get_ydata().tolist() == rows["success"].tolist()
    steps = here[["n_steps", "step_length"]].drop_duplicates().sort_values("n_steps")
    assert [t.get_text() for t in display.legends_[0].get_texts()] == [
        f"T = {t} (steps of {length:g})" for t, length in zip(steps["n_steps"],
                                                               steps["step_length"])]
    other = KSparseSuccessDisplay(summary, k=5, init="antisymmetric").plot()  # a new figure
    assert other.ax_ is not right and other.figure_ is not display.figure_
    assert sorted(y for c in other.ax_.containers for y in c.lines[0].get_ydata()) == sorted(
        summary.loc[(summary["k"] == 5) & (summary["init"] == "antisymmetric"), "success"])
    plt.close(other.figure_)
    with pytest.raises(ValueError, match=r"several init \(\['antisymmetric', 'random'\]\)"):
        KSparseSuccessDisplay(summary, k=3)
    with pytest.raises(ValueError, match=r"k \[6\] is not in the table; it has \[2, 3, 4, 5\]"):
        KSparseSuccessDisplay(summary, k=6, init="random")
    # The figure's second row (random initial queries), second column (k = 3).
    panel = STUDY.render("figures", table)["success"].axes[5]
    assert panel.get_title() == right.get_title()
    assert [line.get_ydata().tolist() for line in panel.lines] == \
        [line.get_ydata().tolist() for line in right.lines]
