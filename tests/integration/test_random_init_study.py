"""The random-initialisation study: Köver et al.'s setting, constant networks, the control."""

import hashlib
import itertools
import json
import math
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest

from skxor.boolean import NAMED_FUNCTIONS
from skxor.nn import BooleanTransformer
from skxor.sensitivity import sensitivity_profile
from skxor.studies import get_study
from skxor.papers._common import key_seed
from skxor.papers.kover._networks import build_network, distinct_networks, eps_agreement, network_key
from skxor.papers.kover.random_init import (
    POISSON_LIMIT,
    RANDOM_FUNCTION,
    STUDY,
    network_cells,
    paper_setting_table,
    random_function_cell,
    random_init_sensitivity,
    summarize_random_init,
)
from skxor.studies.stats import wilson_interval

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
    paper = get_study("random_init_sensitivity").preset("paper")
    assert max(paper["n_bits"]) >= 64 and paper["exhaustive_max"] == 20
    assert set(paper["readout"]) >= {"eos", "last"} and "default" in paper["init"]
    full = get_study("random_init_sensitivity").preset("full")  # the paper's recognizer
    assert full["readout"] == ["eos"] and full["positional"] == ["sinusoidal"]
    assert max(full["n_bits"]) >= 64 and "default" in full["init"]


def test_table(df):
    models = df[df["function"] == "transformer"]
    assert len(models) == 3 * 2 * 2 * 3  # N x eps x init x seeds
    assert set(models["readout"]) == {"eos"} and set(models["positional"]) == {"sinusoidal"}
    assert len(df[df["function"].isin(list(NAMED_FUNCTIONS))]) == 3 * 3
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
    """A row is the profile of the network BooleanTransformer builds from its cell's seed."""
    row = df[(df["function"] == "transformer") & (df["n_bits"] == 6)].iloc[0]
    key = network_key(6, 8, 1, 2, row["init"], 1.0, "eos", "sinusoidal", int(row["seed"]))
    assert int(row["weights_seed"], 16) == key_seed(0, **key)
    model = BooleanTransformer(6, 8, 1, 2, readout="eos", positional="sinusoidal",
                               init=row["init"], layer_norm_eps=row["layer_norm_eps"],
                               seed=key_seed(0, **key)).eval()
    prof = sensitivity_profile(model, 6, method="exhaustive")
    assert prof.zero_fraction == row["zero_fraction"]
    assert prof.n_zero == row["n_zero_found"]


def _fingerprint(model):
    """A hash of every trainable weight: equal only for the same weight draw."""
    return hashlib.sha256(b"".join(p.detach().numpy().tobytes()
                                   for p in model.parameters())).hexdigest()


def _fingerprints(cells):
    return [_fingerprint(build_network(
        int(c["n_bits"]), int(c["d_model"]), int(c["n_layers"]), int(c["n_heads"]),
        float(c["layer_norm_eps"]), c["init"], float(c["init_scale"]), int(c["seed"]),
        int(c["random_state"]), c["readout"], c["positional"])) for c in cells]


def test_each_cell_draws_its_own_network(df):
    """Distinct weight draws, counted from the weights: one per cell but eps (paired).

    Before, a network's weights depended on the seed index only: every N
    (and every init of the same family) reused them.
    """
    models = df[df["function"] == "transformer"].assign(random_state=0)
    models["fingerprint"] = _fingerprints(models.to_dict("records"))
    n_eps = models["layer_norm_eps"].nunique()
    distinct = models["fingerprint"].nunique()
    assert distinct == len(models) // n_eps == distinct_networks(models)
    for _, pool in models.groupby("layer_norm_eps"):  # within one eps: all distinct
        assert pool["fingerprint"].nunique() == len(pool)
    # eps is the declared paired factor: the same weights at each eps.
    assert (models.groupby(["n_bits", "init", "seed"])["fingerprint"].nunique() == 1).all()
    # The units the report states are these networks.
    report = STUDY.render("report", df)
    assert f"{distinct} distinct random transformers" in report
    assert f"paired design: {len(models)} evaluations of {distinct} networks" in report
    at_zero = models[models["layer_norm_eps"] == 0]
    k = int(at_zero["constant"].astype(bool).sum())
    assert f"Over all {len(at_zero)} networks at eps = 0" in report
    assert f"{k}/{len(at_zero)} networks = " in report


@pytest.mark.parametrize("preset", ["quick", "full", "paper"])
def test_presets_draw_one_network_per_cell_but_eps(preset):
    """Every preset's cells: as many weight seeds as networks the report counts."""
    params = STUDY.preset(preset)
    cells = network_cells(params)
    seeds = [key_seed(params["random_state"], **network_key(
        c["n_bits"], c["d_model"], c["n_layers"], c["n_heads"], c["init"], c["init_scale"],
        c["readout"], c["positional"], c["seed"])) for c in cells]
    networks = len(cells) // len(params["layer_norm_eps"])
    assert len(set(seeds)) == networks
    assert distinct_networks(pd.DataFrame(cells).assign(weights_seed=seeds)) == networks
    if preset == "quick":  # and the weights themselves differ
        assert len(set(_fingerprints(cells))) == networks == 900


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
    summary = summarize_random_init(df)
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
    report = STUDY.render("report", df)
    models = df[(df["function"] == "transformer") & (df["layer_norm_eps"] == 0)]
    k = int(models["constant"].sum())
    assert f"{k}/{len(models)} networks" in report  # eps > 0 repeats them: counted once
    assert "Rough: 3 seeds" in report
    agreement = eps_agreement(df)
    assert (f"identical profiles in {agreement['same']} of {agreement['pairs']} pairs"
            in report)
    assert "1 - 1/e = 0.632" in report
    table = paper_setting_table(df)
    assert list(table.columns) == ["normal", "xavier_uniform", RANDOM_FUNCTION]
    assert table.loc[12, RANDOM_FUNCTION] == "not enumerated; expected count 1"


def test_figures_show_every_series(df):
    figures = STUDY.render("figures", df)
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
        figure = STUDY.render("figures", df)["profiles"]
    assert drawn.call_count == 2  # one display per scheme
    for call, ax, init in zip(drawn.call_args_list, figure.axes, ["normal", "xavier_uniform"]):
        display = call.args[0]
        assert call.kwargs["ax"] is ax and init in ax.get_title()
        assert set(display.references) == {"reference: PARITY", "reference: MAJORITY",
                                           "reference: FIRST"}
        texts = [t.get_text() for t in ax.get_legend().get_texts()]
        assert texts[1].startswith("reference: PARITY")
        # The bars are the mean profile of the scheme's non-constant networks at N = 6
        # (of all of them, when every one is constant).
        nets = df[(df["function"] == "transformer") & (df["n_bits"] == 6)
                  & (df["init"] == init) & (df["layer_norm_eps"] == 0)]
        if (~nets["constant"].astype(bool)).any():
            assert texts[0].startswith("mean of")
            nets = nets[~nets["constant"].astype(bool)]
        else:
            assert texts[0].startswith(f"all {len(nets)} networks constant")
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


def test_cells_keep_the_checkpoint_names_they_had_before_the_package_split():
    # A first-format checkpoint file was found by a hash of the cell's module
    # and name: a checkpointed run from before the study became a package resumes.
    from skxor.papers.kover.random_init import random_function_cell, random_init_cell, reference_cell
    from skxor.studies._sweep import _legacy_keys

    for cell in (random_init_cell, reference_cell, random_function_cell):
        paths = [i["function"] for _, i in _legacy_keys("random_init_sensitivity", cell, {})]
        assert f"skxor.papers.kover.random_init.{cell.__name__}" in paths


def test_bad_overrides():
    with pytest.raises(ValueError, match="unknown parameter"):
        random_init_sensitivity(width=[8])
    with pytest.raises(ValueError, match="divisible by n_heads"):
        random_init_sensitivity(d_model=[10], n_heads=4)
    with pytest.raises(ValueError, match="readout"):
        random_init_sensitivity(readout=["middle"])
    with pytest.raises(ValueError, match="exhaustive_max"):
        random_init_sensitivity(exhaustive_max=33)
    with pytest.raises(ValueError, match="device"):
        random_init_sensitivity(device="tpu")


@pytest.mark.slow
def test_quick_preset_figures():
    df = get_study("random_init_sensitivity").run("quick")
    check_figures(STUDY.render("figures", df))
    assert STUDY.render("report", df).startswith("## Sensitivity at random")


def test_blowup_panel_draws_the_reference_its_title_names(df):
    panel = STUDY.render("figures", df)["diagnostic"].axes[1]
    assert "1/sqrt(eps)" in panel.get_title()
    eps = df.loc[df["layer_norm_eps"] > 0, "layer_norm_eps"].min()
    line = next(l for l in panel.get_lines() if l.get_label().startswith("reference: 1/sqrt"))
    np.testing.assert_allclose(line.get_ydata(), 1 / math.sqrt(eps))
    assert line.get_zorder() > max(l.get_zorder() for l in panel.get_lines() if l is not line)
    # eps = 0 only: no 1/sqrt(eps) to draw, and the title does not name one.
    at_zero = df[df["layer_norm_eps"].fillna(0) == 0]
    title = STUDY.render("figures", at_zero)["diagnostic"].axes[1].get_title()
    assert "sqrt" not in title


def test_headline_on_all_constant_networks(tmp_path):
    """Issue 23: every network constant (N = 1) gave 'cannot convert float NaN to integer'."""
    from skxor.studies import render_headline

    df = random_init_sensitivity(n_bits=[1], init=["normal"], seeds=2, n_random_functions=5)
    assert df.loc[df["function"] == "transformer", "constant"].all()
    df.to_csv(tmp_path / "random_init_sensitivity.csv", index=False)
    text = render_headline(tmp_path)
    assert "2/2 networks = 1.00" in text and "no network is non-constant" in text
    df[df["function"] != "transformer"].to_csv(tmp_path / "random_init_sensitivity.csv",
                                               index=False)
    assert "holds no random network to summarize" in render_headline(tmp_path)


def test_summaries_of_a_table_without_networks(df):
    """Issue 23's family: a degenerate table gets a clear answer, never a traceback."""
    refs = df[df["function"] != "transformer"]
    assert "holds no random network" in STUDY.render("report", refs)
    with pytest.raises(ValueError, match="holds no random network"):
        STUDY.render("figures", refs)


def test_figures_of_many_settings_keep_a_readable_key():
    # Old figures: one legend entry per series; the stored full run (5 schemes
    # x 4 shapes x 2 eps, 80 series) filled the figure with the legend and
    # covered the data. Now a key of schemes, shapes, variants and eps.
    from pathlib import Path

    from skxor.papers.kover.random_init._display import FULL_LEGEND_MAX

    from _figures import all_legends, assert_legends_clear_of_titles, assert_legends_short_and_drawn

    stored = (Path(__file__).resolve().parents[2] / "docs" / "results" / "data"
              / "random_init_sensitivity" / "random_init_sensitivity.csv.gz")
    table = pd.read_csv(stored)
    nets = table[table["function"] == "transformer"]
    figures = STUDY.render("figures", table)
    for name in ("zero_count", "shares", "diagnostic"):
        legends = all_legends(figures[name])
        texts = [t.get_text() for legend in legends for t in legend.get_texts()]
        assert_legends_short_and_drawn(figures[name])
        for init in nets["init"].unique():
            assert f"init: {init}" in texts, (name, init)
        for d in nets["d_model"].unique():
            assert any(f"D={int(d)}," in t for t in texts), (name, d)
        if name != "shares":
            for eps in nets["layer_norm_eps"].unique():
                assert any(t.startswith(f"eps = {eps:g}:") for t in texts), (name, eps)
        assert_legends_clear_of_titles(figures[name])


def test_random_init_share_display_draws_the_table_on_the_given_axes():
    """Issue 33.10: the study's main panel as a display (from_table, plot(ax=...)), drawn
    from the stored quick table (no networks built), as the study's figure draws it."""
    import matplotlib.pyplot as plt

    from _figures import drawn_beside_another
    from skxor.papers import RandomInitShareDisplay

    table = pd.read_csv(Path(__file__).resolve().parents[1] / "data" / "quick_tables"
                        / "random_init_sensitivity.csv.gz", low_memory=False)
    display = drawn_beside_another(RandomInitShareDisplay.from_table, table)
    right = display.ax_
    assert "zero-sensitivity" in right.get_title()
    # One series per scheme and eps (ten: more than a legend lists one by one, so two
    # short legends key them), its points the summary's shares; then the control.
    summary = summarize_random_init(table)
    nets = summary[summary["init"] != RANDOM_FUNCTION]
    series = {c.get_label(): c for c in right.containers}
    assert display.series_ == list(series)[:-1]
    assert len(display.series_) == nets.groupby(["init", "layer_norm_eps"]).ngroups == 10
    assert len(display.legends_) == 2
    shown = [t.get_text() for legend in display.legends_ for t in legend.get_texts()]
    assert {f"init: {init}" for init in nets["init"].unique()} <= set(shown)
    for (init, eps), rows in nets.groupby(["init", "layer_norm_eps"]):
        label, = [name for name in display.series_
                  if name.startswith(f"{init}, ") and name.endswith(f"eps={eps:g}")]
        assert series[label].lines[0].get_ydata().tolist() == \
            rows.sort_values("n_bits")["with_zero"].tolist()
    control = summary[summary["init"] == RANDOM_FUNCTION].sort_values("n_bits")
    assert series["random function (measured)"].lines[0].get_ydata().tolist() == \
        control["with_zero"].tolist()
    assert "reference: random function, limit 1 - 1/e" in shown
    constant = RandomInitShareDisplay.from_table(table, share="constant")  # a new figure
    assert constant.ax_ is not right and constant.ax_.get_title() == "share of constant networks"
    assert sorted(y for c in constant.ax_.containers for y in c.lines[0].get_ydata()) == \
        sorted(nets["constant"])  # no random functions: they are never constant
    plt.close(constant.figure_)
    with pytest.raises(ValueError, match="share must be one of"):
        RandomInitShareDisplay(summary, share="zero_count")
    panel = STUDY.render("figures", table)["shares"].axes[1]
    assert [line.get_ydata().tolist() for line in panel.lines] == \
        [line.get_ydata().tolist() for line in right.lines]
