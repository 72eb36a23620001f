"""The studies' catalogue the command line reads without importing torch (issue 51, item 6).

``skxor list``, ``--help`` and the early checks of ``skxor run`` answer from
``skxor/_cli_catalogue.json``; these tests keep it equal to the registry and
check when the command line reads the registry instead.
"""

import json
import sys
from importlib import metadata
from types import SimpleNamespace

import pytest

from skxor import cli
from skxor.cli import CATALOGUE_PATH, build_catalogue


def test_the_stored_catalogue_is_the_registrys():
    # A study, preset, description or cost calibration changed: regenerate with
    # python tools/write_cli_catalogue.py
    assert json.loads(CATALOGUE_PATH.read_text()) == build_catalogue(), (
        "skxor/_cli_catalogue.json is stale: run python tools/write_cli_catalogue.py")


def test_the_entry_point_group_is_the_registrys():
    from skxor.studies import _registry

    assert cli.ENTRY_POINT_GROUP == _registry.ENTRY_POINT_GROUP


def test_the_catalogue_lists_every_library_study_and_attention_type():
    from skxor.nn import attention_names
    from skxor.studies import STUDIES

    catalogue = json.loads(CATALOGUE_PATH.read_text())
    assert [s["name"] for s in catalogue["studies"]] == list(STUDIES)
    assert catalogue["attention"] == list(attention_names())


@pytest.fixture
def registry_not_imported(monkeypatch):
    """As in a fresh ``skxor`` process: the registry not imported, no plugins."""
    monkeypatch.delitem(sys.modules, "skxor.studies._registry", raising=False)
    # skxor's own entry points only (its papers' studies register through them).
    real = metadata.entry_points
    monkeypatch.setattr(metadata, "entry_points", lambda group: [
        point for point in real(group=group) if point.value.startswith("skxor.")])


def test_early_checks_read_the_catalogue(registry_not_imported):
    with pytest.raises(ValueError, match="'one_stp'.*did you mean 'one_step'"):
        cli._check_early(["one_stp"], "quick", [])
    with pytest.raises(ValueError, match="--preset: invalid choice: 'paperr'.*'paper'"):
        cli._check_early(["all"], "paperr", [])
    with pytest.raises(ValueError, match="--set k_sparse.nosuch: unknown parameter"):
        cli._check_early(["k_sparse"], "quick", [("k_sparse", "nosuch", 1)])
    with pytest.raises(ValueError, match="no study file 'missing.py'"):
        cli._check_early(["one_step", "missing.py"], "quick", [])
    # What the catalogue accepts goes on to the registry's own checks.
    entries = cli._check_early(["one_step", "k_sparse"], "full", [(None, "seeds", 2)])
    assert [entry["name"] for entry in entries] == ["one_step", "k_sparse"]
    assert cli._studies() is cli._catalogue()["studies"]


def test_with_plugins_installed_the_registry_decides(monkeypatch):
    # An installed package's study is known to the registry only: a name the
    # catalogue lacks is not refused early.
    monkeypatch.delitem(sys.modules, "skxor.studies._registry", raising=False)
    plugin = SimpleNamespace(name="dice", value="skxor_dice:STUDY")
    own = SimpleNamespace(name="one_step", value="skxor.papers.han_ghoshdastidar:STUDIES")
    monkeypatch.setattr(metadata, "entry_points", lambda group: [own, plugin])
    assert cli._plugins() == [plugin]
    assert cli._check_early(["dice"], "quick", []) is None
    with pytest.raises(ValueError, match="no study file"):  # files are checked all the same
        cli._check_early(["dice", "x.py"], "quick", [])
    monkeypatch.setattr(metadata, "entry_points", lambda group: [own])
    with pytest.raises(ValueError, match="invalid choice: 'dice'"):
        cli._check_early(["dice"], "quick", [])


def test_a_study_registered_in_the_process_is_listed(monkeypatch, capsys):
    from skxor.studies import POSITIVE, STUDIES, Grid, Study

    study = Study(name="squares", description="Squares of x.", cell=lambda x, seed: {},
                  parameters={"x": [Grid(POSITIVE)], "seeds": [POSITIVE]},
                  presets={"quick": {"x": [1, 2], "seeds": 3}})
    monkeypatch.setitem(STUDIES, "squares", study)
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    assert "\nsquares\n    Squares of x.\n    --preset quick                6 cells\n" in out
    assert cli.main(["list", "squares"]) == 0
    assert "seeds      3\nx          1,2\ncells      6 cells" in capsys.readouterr().out


def test_without_its_catalogue_the_command_line_reads_the_registry(monkeypatch, tmp_path,
                                                                    capsys):
    assert cli.main(["list"]) == 0
    from_catalogue = capsys.readouterr().out
    monkeypatch.setattr(cli, "CATALOGUE_PATH", tmp_path / "missing.json")
    cli._catalogue.cache_clear()
    try:
        assert cli._catalogue() is None and cli._registry_needed()
        assert cli.main(["list"]) == 0
        # The same table, priced by the cost model now rather than read from the file.
        from_registry = capsys.readouterr().out
        assert "\n    --preset quick            3,456 cells " in from_registry
        assert from_registry == from_catalogue
        assert list(cli._AttentionNames()) == ["softmax", "linear", "erf"]
    finally:
        cli._catalogue.cache_clear()


def test_a_presets_dry_run_is_stored_as_the_cost_model_prints_it(registry_not_imported,
                                                                   capsys):
    from skxor.studies import dry_run_text

    catalogue = json.loads(CATALOGUE_PATH.read_text())
    for entry in catalogue["studies"]:
        for preset in entry["presets"]:
            assert preset["dry_run"] == dry_run_text(entry["name"], preset["name"], {},
                                                     n_jobs=4)
    assert cli.main(["run", "one_step", "k_sparse", "--preset", "full", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out == dry_run_text("one_step", "full") + "\n\n" + dry_run_text("k_sparse",
                                                                           "full") + "\n"
    # A preset a study named lacks is refused, as the registry refuses it.
    assert cli.main(["run", "one_step", "flip_effect", "--preset", "paper", "--dry-run"]) == 2
    assert capsys.readouterr().err == ("skxor: error: --preset paper: one_step has no such "
                                       "preset (its presets: quick, full).\n")
