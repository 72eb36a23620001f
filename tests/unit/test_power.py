"""The power of a claim's design (skxor.studies.power): simulated tables both ways."""

import json

import numpy as np
import pandas as pd
import pytest

from skxor.studies import POSITIVE, Claim, Grid, Study, judged, rate_part
from skxor.studies.power import (POWER_GOAL, ClaimPower, claim_power, design_of,
                                 planned_design, power_path, power_text, reaching_design,
                                 read_power, stored_power, write_power)


def _rule(table):
    return judged([rate_part("all", table["ok"], table["seed"], "with high probability")])


def _simulate(design, truth, rng):
    """Most seeds work where the paper holds (0.97), about 60% under its alternative."""
    rate = 0.97 if truth == "holds" else 0.6
    return design.assign(ok=rng.random(len(design)) < rate)


def _study(seeds=30, simulate=_simulate, rule=_rule, asymptotic=""):
    claim = Claim(id="U1", paper="Me", source="notes", name="it works", paper_setting="-",
                  statement="it works in most seeds", rule=rule, simulate=simulate,
                  asymptotic=asymptotic, strength="with high probability")
    return Study(name="oks", description="", parameters={"x": [Grid(POSITIVE)],
                 "seeds": [POSITIVE]}, presets={"quick": {"x": [1], "seeds": seeds}},
                 cell=lambda x, seed: {"ok": True}, claims=[claim])


def _design(study, **overrides):
    return planned_design(study, study.params("quick", overrides))


def test_power_counts_the_right_verdicts_both_ways():
    study = _study(seeds=40)
    power = claim_power(study, "U1", _design(study), n_tables=60)
    # 40 seeds: at 0.97 nearly every table reads reproduced, at 0.6 not reproduced.
    assert power.holds >= 50 and power.alternative >= 55 and power.decides()
    # A rule that always says "reproduced" has full power one way and none the other.
    always = _study(rule=lambda table: {"value": "-", "verdict": "reproduced"})
    power = claim_power(always, "U1", _design(always), n_tables=20)
    assert (power.holds, power.alternative) == (20, 0) and not power.decides()


def test_a_small_design_is_underpowered_and_the_reaching_design_is_found():
    study = _study(seeds=4)
    small = claim_power(study, "U1", _design(study), n_tables=40)
    # 4 of 4 seeds give a Wilson lower end of 0.51 < 0.7: never reproduced.
    assert small.holds == 0 and not small.decides()
    found = reaching_design(study, study.claims[0], "quick", n_tables=40)
    assert found["overrides"]["seeds"] in (8, 16, 32, 64)
    reached = claim_power(study, "U1", _design(study, seeds=found["overrides"]["seeds"]),
                          n_tables=40)
    assert reached.decides() and reached.holds == found["holds"]
    # A factor that is too small is not taken: half of it does not reach the goal.
    half = found["overrides"]["seeds"] // 2
    if half >= 8:
        assert not claim_power(study, "U1", _design(study, seeds=half), n_tables=40).decides()


def test_power_is_the_same_whatever_the_workers_and_depends_on_the_seed():
    study = _study(seeds=12)
    design = _design(study)
    one = claim_power(study, "U1", design, n_tables=30, random_state=3)
    assert claim_power(study, "U1", design, n_tables=30, random_state=3, n_jobs=2) == one
    others = {claim_power(study, "U1", design, n_tables=30, random_state=s).holds
              for s in range(4)}
    assert len(others) > 1  # other simulated tables, not one table judged 30 times


def test_a_claim_without_simulate_or_a_bad_simulation_is_named():
    study = _study(simulate=None)
    with pytest.raises(ValueError, match="claim U1 of study 'oks' declares no simulate"):
        claim_power(study, "U1", _design(study))
    with pytest.raises(ValueError, match="declares no claim 'U9'"):
        claim_power(study, "U9", _design(study))
    broken = _study(simulate=lambda design, truth, rng: None)
    with pytest.raises(ValueError, match="its simulate must return a non-empty"):
        claim_power(broken, "U1", _design(broken), n_tables=2)
    with pytest.raises(TypeError, match="simulate must be a function"):
        Claim(id="U1", paper="Me", source="n", name="n", paper_setting="s", statement="t",
              rule=_rule, simulate=3)
    with pytest.raises(ValueError, match="n_tables must be an int >= 1"):
        claim_power(_study(), "U1", _design(_study()), n_tables=0)


def test_the_design_of_a_table_is_one_row_per_cell():
    study = _study()
    table = pd.DataFrame({"x": [1, 1, 2, 2], "seed": [0, 1, 0, 1], "ok": [True] * 4})
    design = design_of(study, pd.concat([table, table]))  # a cell's rows counted once
    assert design.to_dict("list") == {"x": [1, 1, 2, 2], "seed": [0, 1, 0, 1]}


def test_kept_power_is_tied_to_its_table(tmp_path):
    table = tmp_path / "oks.csv"
    powers = {"U1": ClaimPower("U1", 190, 170, 200, "30 seeds x 30 cells")}
    write_power(table, powers, checksum="a" * 64)
    assert power_path(table).name == "oks.power.json"
    assert read_power(table, "a" * 64) == powers
    assert read_power(table, "b" * 64) is None  # computed on another table
    power_path(table).write_text("{not json")
    with pytest.raises(ValueError, match="cannot be read as the stored power"):
        read_power(table, "a" * 64)
    power_path(table).write_text(json.dumps({"table_sha256": "a" * 64, "claims": {"U1": {}}}))
    with pytest.raises(ValueError, match="does not hold a power per claim"):
        read_power(table, "a" * 64)


def test_stored_power_searches_a_reaching_design_only_where_needed():
    small = _study(seeds=4)
    table = small.run()
    entry = {"table": table, "record": {"preset": "quick", "overrides": {}}}
    powers = stored_power(small, entry, n_tables=30)
    assert powers["U1"].reaching["overrides"]["seeds"] > 4
    assert "would reach it" in power_text(small.claims[0], powers["U1"])
    # An asymptotic claim is not searched: no finite design can reach it, and it says why.
    asymptotic = _study(seeds=4, asymptotic="a limit in N")
    powers = stored_power(asymptotic, entry, n_tables=30)
    assert powers["U1"].reaching is None
    assert power_text(asymptotic.claims[0], powers["U1"]).endswith(
        "no finite design can reach it: a limit in N")
    large = _study(seeds=40)
    entry = {"table": large.run(), "record": {"preset": "quick", "overrides": {}}}
    power = stored_power(large, entry, n_tables=30)["U1"]
    assert power.reaching is None and "the design decides the claim" in \
        power_text(large.claims[0], power)


def test_power_text_says_what_is_not_computed():
    claim = _study().claims[0]
    assert power_text(claim, None).startswith("not computed for the stored table")
    assert power_text(_study(simulate=None).claims[0], None).startswith(
        "not computed (the claim declares no simulation")
    rate, low, high = ClaimPower("U1", 160, 160, 200).rate("holds")
    assert rate == POWER_GOAL and low < rate < high
    with pytest.raises(ValueError, match="truth must be one of"):
        ClaimPower("U1", 1, 1, 2).rate("maybe")
    assert np.isclose(ClaimPower("U1", 160, 159, 200).rate("alternative")[0], 0.795)
    assert not ClaimPower("U1", 160, 159, 200).decides()


def test_the_command_line_asks_for_what_power_needs(capsys):
    from skxor.cli import main

    assert main(["run", "one_step", "--power"]) == 2
    assert "--power states the power of the design a run would compute: add --dry-run" in \
        capsys.readouterr().err
    assert main(["publish", "--power"]) == 2
    assert "add --write" in capsys.readouterr().err
    assert main(["run", "one_step", "--set", "seeds=2", "--dry-run", "--power"]) == 0
    out = capsys.readouterr().out
    assert "one_step, preset quick with seeds=2" in out
    # One line per claim that declares a simulation, its design and both powers.
    lines = [line for line in out.splitlines() if line.startswith("power for claim ")]
    assert [line.split()[3] for line in lines] == ["H1", "H3"]
    assert all("P(reproduced | holds)" in line for line in lines)


def test_a_run_of_an_earlier_preset_is_scaled_from_what_it_ran():
    # The preset in code now has 40 seeds; the stored run ran 4 (an earlier version).
    study = _study(seeds=40)
    table = _study(seeds=4).run()
    record = {"preset": "quick", "overrides": {}, "params": {"x": [1], "seeds": 4}}
    power = stored_power(study, {"table": table, "record": record}, n_tables=30)["U1"]
    # The preset as it is in code now is tried first: it reaches the goal.
    assert power.holds == 0 and power.reaching["overrides"] == {"seeds": 40}
    assert power.reaching_text().startswith("the quick preset in code (seeds = 40) would reach")


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(random_state=-1), ValueError, "random_state must be an int >= 0"),
    (dict(random_state=1.5), ValueError, "random_state must be an int >= 0"),
    (dict(n_tables=True), ValueError, "n_tables must be an int >= 1"),
    (dict(design=[{"x": 1, "seed": 0}]), TypeError, "design must be a non-empty pandas"),
    (dict(design=pd.DataFrame()), TypeError, "design must be a non-empty pandas"),
])
def test_bad_arguments_are_named(kwargs, error, match):
    study = _study(seeds=2)
    arguments = dict(design=_design(study), n_tables=2) | kwargs
    with pytest.raises(error, match=match):
        claim_power(study, "U1", **arguments)


def test_kept_power_of_another_version_of_the_claim_is_stale(tmp_path):
    from skxor.studies._publish import unpowered
    from skxor.studies.power import claim_code

    study = _study(seeds=6)
    table = tmp_path / "oks.csv"
    study.run().to_csv(table, index=False)
    power = claim_power(study, "U1", _design(study), n_tables=4)
    assert power.code == claim_code(study.claims[0])
    write_power(table, {"U1": power}, checksum="a" * 64)
    entry = {"path": table, "power": {"U1": power}}
    assert unpowered({"oks": entry}, {"oks": study}) == {}
    older = ClaimPower("U1", power.holds, power.alternative, 4, code="0" * 16)
    stale = unpowered({"oks": dict(entry, power={"U1": older})}, {"oks": study})
    assert "claim(s) U1 changed their rule or simulation since" in stale["oks"]


def test_a_run_before_a_parameter_was_added_tries_the_preset_in_code_first():
    # The record predates the parameter x: the preset in code (x = [1], 40 seeds) is tried
    # first, and named with what it changes.
    study = _study(seeds=40)
    record = {"preset": "quick", "overrides": {}, "params": {"seeds": 4}}
    power = stored_power(study, {"table": _study(seeds=4).run(), "record": record},
                         n_tables=30)["U1"]
    assert power.reaching["label"] == "the quick preset in code"
    assert power.reaching["overrides"] == {"seeds": 40, "x": [1]}


# -- hostile input: named, never a traceback from within nor a silently wrong power --------

def test_a_simulation_the_rule_cannot_read_or_that_fails_is_named():
    # A table without the column the rule reads: was a bare KeyError: 'ok' from the rule.
    bare = _study(simulate=lambda design, truth, rng: design)
    with pytest.raises(ValueError, match=r"claim U1 of study 'oks': its rule failed on a "
                       r"table its simulate returned .*columns \['seed', 'x'\]\).*KeyError"):
        claim_power(bare, "U1", _design(bare), n_tables=2)

    def broken(design, truth, rng):
        raise RuntimeError("my simulation broke")

    failing = _study(simulate=broken)
    with pytest.raises(ValueError, match="its simulate failed .*RuntimeError: my simulation"):
        claim_power(failing, "U1", _design(failing), n_tables=2)


def test_a_simulation_that_draws_beside_its_rng_is_refused():
    # numpy's global generator: the power could not be recomputed from random_state
    # (was accepted, each call another power).
    def global_draws(design, truth, rng):
        return design.assign(ok=np.random.random(len(design)) < 0.9)

    study = _study(simulate=global_draws)
    with pytest.raises(ValueError, match="different tables from two equal rng"):
        claim_power(study, "U1", _design(study), n_tables=2)


@pytest.mark.parametrize("edit, match", [
    (dict(holds=999), "holds must count tables between 0 and n_tables = 200"),
    (dict(alternative=-3), "alternative must count tables"),
    (dict(n_tables=0), "n_tables must be an int >= 1"),
    (dict(holds=190.7), "holds must be an int"),   # was read as 190
    (dict(holds="190"), "holds must be an int"),   # was read as 190
    (dict(holds=True), "holds must be an int"),    # was read as 1
    (dict(reaching="x"), "reaching must be a dict"),
])
def test_an_edited_kept_power_is_refused_naming_its_file(tmp_path, edit, match):
    table = tmp_path / "oks.csv"
    write_power(table, {"U1": ClaimPower("U1", 190, 170, 200)}, checksum="a" * 64)
    data = json.loads(power_path(table).read_text())
    data["claims"]["U1"].update(edit)
    power_path(table).write_text(json.dumps(data))
    with pytest.raises(ValueError, match=f"oks.power.json does not hold a power per claim: "
                       f".*{match}"):
        read_power(table, "a" * 64)
    power_path(table).write_text("[1, 2]")  # JSON, but no stored power (was: none kept)
    with pytest.raises(ValueError, match="does not hold a stored power"):
        read_power(table, "a" * 64)


def test_a_claim_power_of_no_tables_is_refused():
    with pytest.raises(ValueError, match="n_tables must be an int >= 1"):
        ClaimPower("U1", 0, 0, 0)  # was a ZeroDivisionError in .text()


def test_units_that_are_no_parameter_of_the_study_are_named():
    claim = Claim(id="U1", paper="Me", source="n", name="n", paper_setting="-", statement="s",
                  rule=_rule, simulate=_simulate, units_parameter="runs")
    study = Study(name="oks", description="", parameters={"x": [Grid(POSITIVE)],
                  "seeds": [POSITIVE]}, presets={"quick": {"x": [1], "seeds": 4}},
                  cell=lambda x, seed: {"ok": True}, claims=[claim])
    # Was {"overrides": None, "tried": "the claim's units 'runs' are not a count"}.
    with pytest.raises(ValueError, match="units_parameter 'runs' is no parameter of study"):
        reaching_design(study, claim, "quick", n_tables=2)
    with pytest.raises(TypeError, match="units_parameter must be the name"):
        Claim(id="U1", paper="Me", source="n", name="n", paper_setting="-", statement="s",
              rule=_rule, units_parameter=3)


def test_the_design_of_what_is_no_table_of_the_study_is_refused():
    with pytest.raises(TypeError, match="table must be the study's table"):
        design_of(_study(), [1, 2])  # was an AttributeError
    with pytest.raises(ValueError, match="none of study 'oks''s grid axes or seed"):
        design_of(_study(), pd.DataFrame({"a": [1]}))  # was a design of no column


def test_a_study_files_broken_simulation_is_one_error_line(tmp_path, capsys):
    from skxor.cli import main

    path = tmp_path / "bare_sim.py"
    path.write_text(
        "from skxor.studies import POSITIVE, Claim, Grid, Study, judged, rate_part\n"
        "def rule(table):\n"
        "    return judged([rate_part('all', table['ok'], table['seed'], 'with high "
        "probability')])\n"
        "STUDY = Study(name='bare_sim', description='', parameters={'x': [Grid(POSITIVE)],\n"
        "              'seeds': [POSITIVE]}, presets={'quick': {'x': [1], 'seeds': 4}},\n"
        "              cell=lambda x, seed: {'ok': True},\n"
        "              claims=[Claim(id='B1', paper='Me', source='n', name='n',\n"
        "                            paper_setting='-', statement='s', rule=rule,\n"
        "                            simulate=lambda design, truth, rng: design)])\n")
    # Was a traceback ending in KeyError: 'ok' (exit status 1).
    assert main(["run", str(path), "--dry-run", "--power"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("skxor: error: claim B1 of study 'bare_sim': its rule failed")
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_what_is_no_power_is_not_written_nor_a_store_entry_read(tmp_path):
    table = tmp_path / "oks.csv"
    with pytest.raises(TypeError, match="powers must map claim ids to ClaimPower"):
        write_power(table, {"U1": 3}, checksum="a" * 64)  # was an AttributeError
    assert not power_path(table).exists()
    with pytest.raises(TypeError, match="entry must be the store's entry"):
        stored_power(_study(), {})  # was a KeyError: 'table'


def test_kept_numbers_edited_by_hand_are_refused(tmp_path):
    # A plausible edit (0.12 made 0.87: the claims page would say the design decides the
    # claim) was published as it stood.
    table = tmp_path / "oks.csv"
    write_power(table, {"U1": ClaimPower("U1", 200, 24, 200)}, checksum="a" * 64)
    assert read_power(table, "a" * 64)["U1"].alternative == 24
    data = json.loads(power_path(table).read_text())
    data["claims"]["U1"]["alternative"] = 174
    power_path(table).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    with pytest.raises(ValueError, match="its numbers are not those skxor wrote"):
        read_power(table, "a" * 64)
    del data["claims_sha256"]  # a file without the digest is not trusted either
    power_path(table).write_text(json.dumps(data))
    with pytest.raises(ValueError, match="claims_sha256, differs or is missing"):
        read_power(table, "a" * 64)
