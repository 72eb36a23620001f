"""The power of K1, K2, K4 (random_init_sensitivity) and K5 (zero_sensitivity_bound) (issue 50).

Each claim's ``simulate`` draws its table at a design from the spread the
stored full run measured: the constants it reads are recomputed here from the
stored tables, the simulated tables are reproducible from their generator, and
at the new full designs the rules decide right most of the time both ways.
"""

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from skxor.papers.kover.random_init import _rules as random_rules
from skxor.papers.kover.random_init import _simulated as random_simulated
from skxor.papers.kover.zero_sensitivity_bound import _rules as bound_rules
from skxor.papers.kover.zero_sensitivity_bound import _simulated as bound_simulated
from skxor.papers.kover.zero_sensitivity_bound._summary import (bound_exponent,
                                                               vacuous_reason)
from skxor.studies import get_study
from skxor.studies.power import claim_power, planned_design

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "docs" / "results" / "data"


def _stored(study):
    return pd.read_csv(DATA / study / f"{study}.csv.gz")


def _flag(series):
    return series.astype(str).str.lower().isin(["true", "1", "1.0"])


# -- the constants are the stored runs' ----------------------------------------------


def test_random_init_constants_are_the_stored_runs():
    table = _stored("random_init_sensitivity")
    nets = table[(table["function"] == "transformer") & (table["layer_norm_eps"] == 0)]
    nonconstant = nets[~_flag(nets["constant"])]
    assert set(nets.groupby("n_bits").size()) == {random_simulated.STORED_NETWORKS}
    measured = {int(n): (len(g), int(_flag(g["has_zero"]).sum()))
                for n, g in nonconstant.groupby("n_bits")}
    assert measured == random_simulated.STORED_NONCONSTANT
    control = table[table["function"] == "random function"]
    assert set(control["n_functions"].astype(int)) == {random_simulated.STORED_FUNCTIONS}
    assert int(control["n_bits"].max()) == random_simulated.CONTROL_MAX
    from skxor.papers.kover._networks import eps_agreement

    agreement = eps_agreement(table)
    assert (agreement["same"], agreement["pairs"]) == random_simulated.STORED_PAIRS


def test_zero_sensitivity_bound_constants_are_the_stored_runs():
    table = _stored("zero_sensitivity_bound")
    nets = table[table["layer_norm_eps"] == 0].copy()
    # The grid's networks: the screen's (K5's own stage, seeds beyond the grid's at
    # one (D, L, N)) is counted exhaustively only where it finds a network not constant.
    nets = nets[~bound_simulated._screened_cells(nets)]
    nets["nonconstant"] = ~_flag(nets["constant"])
    measured = {}
    for (d, l, n), g in nets.groupby(["d_model", "n_layers", "n_bits"]):
        log10_bound = bound_exponent(d, l) * math.log10(n)
        if not vacuous_reason(log10_bound, n) and (g["method"] == "exhaustive").all():
            measured[(int(d), int(l), int(n))] = (int(g["nonconstant"].sum()), len(g))
    assert measured == bound_simulated.STORED_NONCONSTANT
    one_layer = nets[(nets["n_layers"] == 1) & (nets["n_bits"] >= 12)
                     & (nets["method"] == "exhaustive")]
    d16 = one_layer[one_layer["d_model"] == 16]
    assert d16["nonconstant"].sum() / len(d16) == bound_simulated.NONCONSTANT_LARGE_N
    found = one_layer[one_layer["nonconstant"]]
    assert _flag(found["sign_changes"]).sum() / len(found) == bound_simulated.SCREEN_FINDS
    assert int(table["exhaustive_max"].iloc[0]) == bound_simulated.STORED_EXHAUSTIVE_MAX


# -- simulate is reproducible and names what it draws --------------------------------


def _design(study, preset="full", **overrides):
    study = get_study(study)
    return planned_design(study, study.params(preset, overrides))


@pytest.mark.parametrize("study, simulate", [
    ("random_init_sensitivity", random_rules.simulate_zero_strings),
    ("random_init_sensitivity", random_rules.simulate_random_functions),
    ("random_init_sensitivity", random_rules.simulate_eps),
    ("zero_sensitivity_bound", bound_rules.simulate_bound),
])
def test_simulate_is_reproducible_from_its_generator(study, simulate):
    design = _design(study, "quick")
    for truth in ("holds", "alternative"):
        first = simulate(design.copy(), truth, np.random.default_rng([3, 1]))
        again = simulate(design.copy(), truth, np.random.default_rng([3, 1]))
        pd.testing.assert_frame_equal(first, again)
        assert len(first)


def test_k2_simulates_the_control_of_the_design():
    design = _design("random_init_sensitivity", "full")
    table = random_rules.simulate_random_functions(design, "holds", np.random.default_rng(0))
    assert table["n_bits"].tolist() == [4, 6, 8, 10, 12, 14, 16]
    assert set(table["n_functions"]) == {10_000}


def test_k5_simulates_the_screen_of_the_design():
    design = _design("zero_sensitivity_bound", "full")
    table = bound_rules.simulate_bound(design, "holds", np.random.default_rng(0))
    screen = table[table["screened"]]
    assert len(screen) == 1600 and set(screen["n_bits"]) == {24}
    counted = screen[screen["method"] == "exhaustive"]
    assert 0 < len(counted) < 200 and not counted["constant"].any()
    assert screen.loc[screen["method"] == "screened", "constant"].all()


# -- the new full designs decide both ways -------------------------------------------


@pytest.mark.parametrize("study, claim, overrides", [
    ("random_init_sensitivity", "K1", {}),
    ("random_init_sensitivity", "K2", {}),
    ("random_init_sensitivity", "K4", {}),
    ("zero_sensitivity_bound", "K5", {}),
])
def test_the_full_design_decides_both_ways(study, claim, overrides):
    power = claim_power(study, claim, _design(study, "full", **overrides), n_tables=30)
    assert power.rate("holds")[0] >= 0.7, power.text()
    assert power.rate("alternative")[0] >= 0.7, power.text()


def test_the_stored_k2_and_k5_designs_do_not_decide():
    """The stored runs' sizes (1 000 control functions; 20 networks at N = 24) are why the
    full presets grew."""
    k2 = claim_power("random_init_sensitivity", "K2",
                     _design("random_init_sensitivity", "full", n_random_functions=1000),
                     n_tables=30)
    assert k2.rate("holds")[0] < 0.5, k2.text()
    k5 = claim_power("zero_sensitivity_bound", "K5",
                     _design("zero_sensitivity_bound", "full", screen_seeds=0), n_tables=10)
    assert k5.holds == k5.alternative == 0, k5.text()
