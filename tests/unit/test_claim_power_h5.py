"""H5's power (issue 50, items 1 and 2): the simulated tables, the spread they take from
the stored run, and the design that decides the claim both ways; the probabilistic n*.

Before: with 10 seeds, one-step n* growing exactly like d (the paper's remark) at the
measured spread (sigma = 1.6) came out "reproduced" in 1% of simulated tables.
"""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from skxor.studies import get_study
from skxor.studies.claims import rule_result
from skxor.studies.power import design_of, planned_design
from skxor.papers.han_ghoshdastidar.sample_complexity import PRESETS, fit_exponents
from skxor.papers.han_ghoshdastidar.sample_complexity import _rules as rules
from skxor.papers.han_ghoshdastidar.sample_complexity import _simulated as simulated
from skxor.papers.han_ghoshdastidar.sample_complexity._summary import (
    PROBABILISTIC_SHARE, _validated, cured, n_star_per_seed,
    probabilistic_n_star, samples_needed)

DATA = Path(__file__).resolve().parents[2] / "docs" / "results" / "data"
STUDY = get_study("sample_complexity")
CLAIM = next(c for c in STUDY.claims if c.id == "H5")


def _n_star_per_seed_loop(df, target=None):
    """:func:`n_star_per_seed` one curve at a time: the reference it is compared with."""
    df, target = _validated(df, target)
    rows = []
    for (model, d, seed), curve in df.groupby(["model", "d", "seed"], sort=True):
        curve = curve.sort_values("n")
        above = (curve["accuracy"] >= target).to_numpy()
        stays = np.flip(np.logical_and.accumulate(np.flip(above)))
        sizes = curve["n"].to_numpy(dtype=float)
        if not stays.any():
            n_star, low, high, status = np.inf, sizes[-1], np.inf, "not reached"
        elif stays[0]:
            n_star, low, high, status = sizes[0], 0.0, sizes[0], "at grid floor"
        else:
            first = int(np.argmax(stays))
            n_star, low, high, status = sizes[first], sizes[first - 1], sizes[first], "reached"
        population = (float(curve["population_success"].iloc[0])
                      if "population_success" in curve else np.nan)
        rows.append({"model": model, "d": d, "seed": seed, "n_star": float(n_star),
                     "n_low": float(low), "n_high": float(high), "status": status,
                     "population_success": population})
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def stored():
    return pd.read_csv(DATA / "sample_complexity" / "sample_complexity.csv.gz",
                       low_memory=False)


def _verdict(table):
    summary = STUDY.summary(table)
    return rule_result(STUDY.name, CLAIM, STUDY.render(CLAIM.rule, table, summary))["verdict"]


def _one_step(design):
    return design[design["model"] == "transformer_one_step"]


def test_the_simulated_spread_is_the_stored_runs(stored):
    fit = fit_exponents(stored).set_index("model").loc["transformer_one_step"]
    spread = simulated.STORED_SPREAD
    assert fit["sigma"] == pytest.approx(spread["sigma"], abs=1e-3)
    assert fit["intercept"] == pytest.approx(spread["intercept"], abs=1e-3)
    assert fit["log_d_centre"] == pytest.approx(spread["log_d_centre"], abs=1e-3)
    curves = stored[stored["model"] == "transformer_one_step"].drop_duplicates(["d", "seed"])
    assert curves["population_success"].mean() == pytest.approx(spread["p_pop"])
    grid = simulated.STORED_GRID
    assert (stored["n"].min(), stored["n"].max()) == (grid["n_min"], grid["n_max"])
    assert stored["n_sizes"].iloc[0] == grid["n_sizes"]
    assert stored["target"].iloc[0] == grid["target"]


def test_simulate_draws_the_stored_grid_from_its_rng(stored):
    design = design_of(STUDY, stored)
    one = rules.simulate(design, "holds", np.random.default_rng(3))
    pd.testing.assert_frame_equal(one, rules.simulate(design, "holds",
                                                      np.random.default_rng(3)))
    assert not one.equals(rules.simulate(design, "holds", np.random.default_rng(4)))
    # Only what the rule reads: the one-step curves, on the stored grid.
    assert set(one["model"]) == {"transformer_one_step"}
    assert sorted(one["n"].unique()) == sorted(
        stored.loc[stored["model"] == "transformer_one_step", "n"].unique())
    assert len(one) == len(stored[stored["model"] == "transformer_one_step"])
    with pytest.raises(ValueError, match="truth must be one of"):
        rules.simulate(design, "maybe", np.random.default_rng(0))


def test_simulate_grows_with_the_stated_exponent():
    design = pd.DataFrame({"model": "transformer_one_step", "d": np.repeat([16, 160], 400),
                           "seed": np.tile(np.arange(400), 2)})
    for truth, exponent in simulated.SIMULATED_EXPONENT.items():
        table = rules.simulate(design, truth, np.random.default_rng(0))
        per_seed = cured(n_star_per_seed(table))
        medians = per_seed.groupby("d")["n_star"].median()
        # The grid's steps of sqrt(2) blur each median by at most that much.
        assert np.log10(medians[160] / medians[16]) == pytest.approx(exponent, abs=0.2)
        share = table.drop_duplicates(["d", "seed"])["population_success"].mean()
        assert share == pytest.approx(simulated.STORED_SPREAD["p_pop"], abs=0.03)


def test_the_full_preset_has_the_seeds_the_issue_asks():
    assert PRESETS["full"]["seeds"] >= 40


def _rate(design, truth, n_tables, right):
    verdicts = [_verdict(rules.simulate(design, truth, np.random.default_rng([7, i])))
                for i in range(n_tables)]
    return np.mean([v == right for v in verdicts])


@pytest.mark.parametrize("truth, right", [("holds", "reproduced"),
                                          ("alternative", "not reproduced")])
def test_the_full_design_decides_h5_both_ways(truth, right):
    design = _one_step(planned_design(STUDY, STUDY.params("full")))
    assert _rate(design, truth, 30, right) >= 0.7


def test_ten_of_the_stored_seeds_could_not_reproduce_h5(stored):
    # The issue's finding on the earlier 10-seed run: at 10 seeds even a true exponent
    # of 1 stays inconclusive. The same cells as the stored design, its first 10 seeds.
    design = _one_step(design_of(STUDY, stored))
    assert design["seed"].nunique() >= 40
    assert _rate(design[design["seed"] < 10], "holds", 10, "reproduced") <= 0.2


# -- the probabilistic n* ---------------------------------------------------------------


def _curves(accuracies, population=None, sizes=(10, 20, 40, 80)):
    rows = []
    for seed, accs in enumerate(accuracies):
        rows += [dict(model="m", d=10, seed=seed, n=n, accuracy=a, target=0.95,
                      population_success=np.nan if population is None else population[seed])
                 for n, a in zip(sizes, accs)]
    return pd.DataFrame(rows)


def test_the_probabilistic_n_star_counts_the_cured_seeds_at_each_size():
    up = [0.5, 0.5, 1.0, 1.0]
    # 4 of 5 seeds up from 40; the fifth fails in the population limit: left out.
    table = _curves([up] * 4 + [[0.5] * 4], population=[1, 1, 1, 1, 0])
    row = probabilistic_n_star(table).iloc[0]
    assert (row["n_star_80"], row["n_star_80_low"], row["cured_seeds"]) == (40, 20, 4)
    # Read without the population outcome, the fifth seed counts: 4/5 is still 80%.
    assert probabilistic_n_star(table.drop(columns="population_success"))[
        "n_star_80"].iloc[0] == 40
    # A dip of one seed at 80 (3/4 < 80%) moves n*_80 past the grid; the per-seed n*
    # of that seed is above the grid too.
    dipped = _curves([up] * 3 + [[0.5, 0.5, 1.0, 0.5]], population=[1] * 4)
    row = probabilistic_n_star(dipped).iloc[0]
    assert (row["n_star_80"], row["n_star_80_low"]) == (np.inf, 80)
    # Up from the smallest size: left-censored, its lower end 0.
    assert probabilistic_n_star(_curves([[1.0] * 4] * 5))["n_star_80_low"].iloc[0] == 0


def test_the_probabilistic_n_star_is_the_80_percent_quantile_for_single_crossings():
    table = rules.simulate(pd.DataFrame({"model": "transformer_one_step", "d": 40,
                                         "seed": range(50)}), "holds",
                           np.random.default_rng(1))
    per_seed = cured(n_star_per_seed(table))["n_star"].sort_values().to_numpy()
    k = int(np.ceil(PROBABILISTIC_SHARE * per_seed.size))
    assert probabilistic_n_star(table)["n_star_80"].iloc[0] == per_seed[k - 1]


def test_samples_needed_shows_the_probabilistic_n_star_beside_the_median(stored):
    table = samples_needed(stored)
    assert {"n_star", "n_star_cured", "n_star_80", "n_star_80_low"} <= set(table)
    one = table[table["model"] == "transformer_one_step"]
    assert (one["n_star_80"] >= one["n_star_cured"]).all()


def test_the_rule_shows_the_probabilistic_n_star_and_judges_the_fit(stored):
    row = STUDY.render(CLAIM.rule, stored, STUDY.summary(stored))
    assert "n*_80 (the smallest n from which at least 80%" in row["value"]
    # The slope recomputed from the stored rows: the per-d n*_80 of the one-step model.
    per_d = probabilistic_n_star(stored[stored["model"] == "transformer_one_step"])
    finite = per_d[np.isfinite(per_d["n_star_80"])]
    slope = np.polyfit(np.log(finite["d"]), np.log(finite["n_star_80"]), 1)[0]
    assert f"slope of log n*_80 on log d {slope:.2f}" in row["value"]
    assert "n*_80" not in row["judged"]
    assert rules.PROBABILISTIC_TEXT in CLAIM.rule_text
    assert f"{PROBABILISTIC_SHARE:.0%}" in rules.PROBABILISTIC_TEXT


# -- the summary's speed-ups keep its results --------------------------------------------


def test_n_star_per_seed_matches_the_curve_by_curve_reading(stored):
    rng = np.random.default_rng(0)
    noisy = stored.assign(accuracy=rng.random(len(stored)))
    for table in (stored, stored.sample(frac=1, random_state=0), noisy,
                  rules.linear_samples_with_population_failures()):
        pd.testing.assert_frame_equal(n_star_per_seed(table), _n_star_per_seed_loop(table))
