"""The public Study API: defaults built from the declaration, validation, loading a file."""

import re
import sys
import textwrap
from numbers import Real

import pandas as pd
import pytest
from sklearn.utils._param_validation import Interval, InvalidParameterError

from skxor.cli import main
from skxor.studies import STUDIES
from skxor.studies import Grid, Study, get_study, load_study, render_headline
from skxor.studies._parameters import POSITIVE


def coin_cell(p, n_flips, seed):
    heads = (seed * 7 + n_flips) % 10 < p * 10
    return {"heads": bool(heads), "score": float(seed + p)}


def coin_study(**changes):
    declaration = dict(
        name="coin", description="A coin.",
        parameters={"p": [Grid(Interval(Real, 0, 1, closed="both"))],
                    "n_flips": [POSITIVE], "seeds": [POSITIVE]},
        presets={"quick": {"p": [0.2, 0.8], "n_flips": 3, "seeds": 4}},
        cell=coin_cell,
    )
    declaration.update(changes)
    return Study(**declaration)


def test_defaults_come_from_the_declaration():
    study = coin_study()
    assert study.grid_axes() == ("p",)
    assert study.key == ("p", "seed")
    assert study.setting == ("n_flips",)
    assert study.figures(pd.DataFrame()) == {}
    assert study.headline is None
    cells = study.grid_cells(study.params())
    # Every grid value times every seed, the scalar the cell takes included.
    assert len(cells) == 8 and cells[0] == {"n_flips": 3, "p": 0.2, "seed": 0}


def test_default_compute_summary_and_report():
    study = coin_study()
    table = study.run(seeds=4)
    assert list(table.columns) == ["n_flips", "p", "seed", "heads", "score"]
    assert table.attrs["preset"] == "quick" and table.attrs["rows"] == 8
    expected = [coin_cell(p, 3, s)["heads"] for p in (0.2, 0.8) for s in range(4)]
    assert table["heads"].tolist() == expected
    summary = study.summary(table)
    # A boolean result is a rate with its Wilson interval; a number a mean.
    assert list(summary.columns) == ["p", "heads_rate", "heads_low", "heads_high",
                                     "score_mean", "rows"]
    low = summary.loc[summary["p"] == 0.2]
    assert low["rows"].item() == 4
    assert low["heads_rate"].item() == sum(expected[:4]) / 4
    assert low["heads_low"].item() <= low["heads_rate"].item() <= low["heads_high"].item()
    report = study.report(table)
    assert report.startswith("## coin\n\nA coin.")
    assert "quick preset, 4 seeds per cell" in report and "n_flips=3" in report
    assert "| 0.2 | 0.25 [0.05, 0.70] |" in report  # the summary table with intervals


def test_cells_hook_and_tabulate_hook():
    order = []

    def cells(params):
        order.append(params["seeds"])
        return [{"p": 0.5, "n_flips": 1, "seed": s} for s in reversed(range(params["seeds"]))]

    def tabulate(table, params):
        return table.assign(doubled=table["score"] * 2)

    study = coin_study(cells=cells, tabulate=tabulate)
    table = study.run(seeds=3)
    assert order == [3] and table["seed"].tolist() == [2, 1, 0]
    assert (table["doubled"] == 2 * table["score"]).all()


def test_a_cell_with_kwargs_gets_every_scalar():
    def cell(**params):
        return {"n": len(params)}

    study = coin_study(cell=cell)
    assert study.run(seeds=1, p=[0.5])["n"].tolist() == [3]  # n_flips, p, seed


def test_parameters_are_validated_like_a_library_study():
    study = coin_study()
    with pytest.raises(InvalidParameterError, match="'p' parameter of coin"):
        study.params("quick", {"p": [2.0]})
    with pytest.raises(ValueError, match=r"unknown parameter\(s\) \['q'\]"):
        study.params("quick", {"q": 1})
    with pytest.raises(ValueError, match="preset must be one of"):
        study.params("huge")
    assert study.params("quick", {"p": 0.5})["p"] == [0.5]


@pytest.mark.parametrize("changes, message", [
    (dict(name="my study"), "letters, digits and underscores"),
    (dict(name="1st"), "letters, digits and underscores"),
    (dict(cell="not a function"), "cell must be a function"),
    (dict(summary=3), "summary must be a function or None"),
    (dict(parameters={"p": Grid(POSITIVE)}), "non-empty list of constraints"),
    (dict(presets={"full": {}}), "presets must include 'quick'"),
    (dict(presets={"quick": {"p": [0.5], "seeds": 1}}), r"missing \['n_flips'\]"),
    (dict(presets={"quick": {"p": [2.0], "n_flips": 1, "seeds": 1}}), "'p' parameter"),
    (dict(setting=("nope",)), "setting names undeclared"),
    (dict(compute=lambda params, **kw: None, tabulate=lambda t, p: t), "not both"),
])
def test_a_bad_declaration_is_refused_with_its_reason(changes, message):
    with pytest.raises((ValueError, TypeError), match=message):
        coin_study(**changes)


def biased_coin_cell(p, n_flips, seed, bias=0.0):
    return {"heads": bool((seed * 7 + n_flips) % 10 < (p + bias) * 10)}


def biased_coin_study(**changes):
    """The coin study after it took a parameter ``bias``; its runs before had bias 0."""
    declaration = dict(
        parameters={"p": [Grid(Interval(Real, 0, 1, closed="both"))], "n_flips": [POSITIVE],
                    "seeds": [POSITIVE], "bias": [Interval(Real, 0, 1, closed="both")]},
        presets={"quick": {"p": [0.2, 0.8], "n_flips": 3, "seeds": 4, "bias": 0.0}},
        cell=biased_coin_cell, added={"bias": 0.0})
    declaration.update(changes)
    return coin_study(**declaration)


def test_an_added_parameter_at_its_earlier_value_keeps_keys_setting_and_records(monkeypatch):
    # Issue 51.3: sample_complexity took k; its runs at k = 2 must keep their checkpoints'
    # keys, their stored tables' setting and their records' parameters.
    from skxor.studies._publish import stale_runs
    from skxor.studies._runner import run_setting
    from skxor.studies._sweep import _cell_key

    before, after = coin_study(), biased_coin_study()
    old_cells = before.grid_cells(before.params("quick"))
    new_cells = after.grid_cells(after.params("quick"))
    assert new_cells == old_cells  # no "bias" in a cell at bias 0
    assert [_cell_key("coin", biased_coin_cell, c) for c in new_cells] == \
        [_cell_key("coin", biased_coin_cell, c) for c in old_cells]
    assert run_setting(after, after.params("quick")) == run_setting(before, before.params("quick"))
    # 0 given as an int is the same value; True is not 1 and 0.5 is another value.
    assert after.omitted("bias", 0) and not after.omitted("bias", 0.5)
    assert not after.omitted("n_flips", 3) and not biased_coin_study(added={}).omitted("bias", 0.0)
    moved = after.grid_cells(after.params("quick", {"bias": 0.5}))
    assert {c["bias"] for c in moved} == {0.5}
    assert '"bias": 0.5' in run_setting(after, after.params("quick", {"bias": 0.5}))
    # The run computes at the cell function's default: the same results as before.
    assert after.run()["heads"].tolist() == before.run()["heads"].tolist()
    # A record written before bias existed is current; one that differs otherwise is not.
    record = {"preset": "quick", "matches_preset": True, "overrides": {},
              "params": before.params("quick"), "cell_version": 1}
    # The registry module the publisher imports (sys.modules'), whatever another test
    # did to the package's attributes.
    import importlib

    registry = importlib.import_module("skxor.studies._registry")
    monkeypatch.setattr(registry, "get_study", lambda name: after)
    assert stale_runs({"coin": {"record": record}}) == {}
    stale = stale_runs({"coin": {"record": dict(record, params={**record["params"],
                                                               "bias": 0.5})}})
    assert "['bias']" in stale["coin"]


@pytest.mark.parametrize("changes, message", [
    (dict(added=["bias"]), "added must be a dict"),
    (dict(added={"nope": 1}), "undeclared parameter 'nope'"),
    (dict(added={"p": 0.5}), "'p' is a sweep axis"),
    (dict(added={"bias": 0.5}), "default for the added parameter 'bias' must be"),
    (dict(cell=coin_cell), "takes no 'bias'"),
])
def test_a_bad_added_parameter_is_refused(changes, message):
    with pytest.raises((ValueError, TypeError), match=message):
        biased_coin_study(**changes)


def test_a_cell_not_returning_a_dict_is_named():
    study = coin_study(cell=lambda p, n_flips, seed: 1.0)
    with pytest.raises(TypeError, match="must return a dict of results"):
        study.run(seeds=1)


def test_function_is_the_studys_public_entry_point():
    study = coin_study()
    coin = study.function('''Run the coin.

    Parameters
    ----------
    preset : str, default="quick"
    %(study_options)s

    Examples
    --------
    >>> 1
    1
    ''')
    assert coin.__name__ == "coin" and coin.__module__ == __name__
    assert "n_jobs : int or None, default=None" in coin.__doc__
    assert "scheduler : str or None" in coin.__doc__ and "%(" not in coin.__doc__
    pd.testing.assert_frame_equal(coin(seeds=2).drop(columns=[]), study.run(seeds=2))
    with pytest.raises(TypeError):
        coin("quick", "positional options are refused")


def _write(tmp_path, text, name="my_study.py"):
    path = tmp_path / name
    path.write_text(text)
    return path


HEADER = textwrap.dedent("""
    from skxor.studies import Grid, Study
    from skxor.studies._parameters import POSITIVE

    def cell(x, seed):
        return {"y": x + seed}

    def make(name):
        return Study(name=name, description="d", cell=cell,
                     parameters={"x": [Grid(POSITIVE)], "seeds": [POSITIVE]},
                     presets={"quick": {"x": [1], "seeds": 1}})
""")


def test_load_study_takes_STUDY_or_the_only_study(tmp_path):
    assert load_study(_write(tmp_path, HEADER + "STUDY = make('a')\n")).name == "a"
    assert load_study(_write(tmp_path, HEADER + "mine = make('b')\n", "b.py")).name == "b"
    two = _write(tmp_path, HEADER + "one, two = make('c'), make('d')\nSTUDY = two\n", "c.py")
    assert load_study(two).name == "d"


@pytest.mark.parametrize("text, message", [
    (HEADER, "defines no skxor.studies.Study"),
    (HEADER + "one, two = make('c'), make('d')\n", "defines 2 studies (c, d)"),
    (HEADER + "STUDY = 3\n", "STUDY must be a skxor.studies.Study"),
    (HEADER + "1 / 0\n", "could not be imported: ZeroDivisionError"),
    (HEADER + "STUDY = make('bad name')\n", "could not be imported: ValueError"),
])
def test_a_file_without_one_study_is_a_clear_error(tmp_path, text, message, capsys):
    path = _write(tmp_path, text)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_study(path)
    # On the command line: one line, exit status 2, no traceback, nothing run.
    code = main(["run", str(path), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and "skxor: error: " in err and "Traceback" not in err
    assert message.split(" (")[0].split(":")[0] in err
    assert not (tmp_path / "out").exists()


def test_a_study_file_may_not_take_a_registered_name(tmp_path, capsys):
    path = _write(tmp_path, HEADER + "STUDY = make('one_step')\n")
    code = main(["run", str(path), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and "named 'one_step', as a registered study is" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("path, message", [
    ("missing.py", "no such file"), ("notes.txt", "invalid choice"),
])
def test_a_missing_or_non_python_file_is_a_clear_error(tmp_path, path, message, capsys):
    code = main(["run", str(tmp_path / path), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err


def test_a_failing_cell_of_a_study_file_is_an_error_not_a_traceback(tmp_path, capsys):
    path = _write(tmp_path, HEADER.replace("x + seed", "x / seed") + "STUDY = make('z')\n")
    code = main(["run", str(path), "--out", str(tmp_path / "out"), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "ZeroDivisionError" in err and "Traceback" not in err


def test_a_preset_of_a_study_file_is_accepted(tmp_path, capsys):
    text = HEADER.replace('presets={"quick": {"x": [1], "seeds": 1}}',
                          'presets={"quick": {"x": [1], "seeds": 1}, "tiny": {"x": [2]}}')
    path = _write(tmp_path, text + "STUDY = make('t')\n")
    assert main(["run", str(path), "--preset", "tiny", "--out", str(tmp_path / "o"),
                 "--no-progress"]) == 0
    assert pd.read_csv(tmp_path / "o" / "t.csv")["y"].tolist() == [2]
    assert main(["run", str(path), "--preset", "paper", "--out", str(tmp_path / "o")]) == 2
    assert "invalid choice: 'paper'" in capsys.readouterr().err


def test_headline_asks_each_registered_study(tmp_path, monkeypatch):
    study = coin_study(headline=lambda table: f"**Coin**: {len(table)} rows.")
    monkeypatch.setitem(STUDIES, "coin", study)
    study.run(seeds=2).to_csv(tmp_path / "coin.csv", index=False)
    assert render_headline(tmp_path) == "* **Coin**: 4 rows."


class _EntryPoint:
    def __init__(self, name, load):
        self.name, self.value, self.load = name, f"plugin:{name}", load


def test_installed_packages_register_studies_through_entry_points(monkeypatch):
    from importlib import metadata

    from skxor.studies import _registry

    def broken():
        raise ImportError("no module named plugin")

    points = [_EntryPoint("coin", lambda: coin_study()), _EntryPoint("broken", broken)]
    seen = []
    monkeypatch.setattr(metadata, "entry_points",
                        lambda group: seen.append(group) or points)
    with pytest.warns(RuntimeWarning, match="'broken'.*could not be loaded: ImportError"):
        studies = _registry._entry_point_studies()
    assert seen == ["skxor.studies"] and [s.name for s in studies] == ["coin"]


def test_list_shows_a_registered_study(monkeypatch, capsys):
    monkeypatch.setitem(STUDIES, "coin", coin_study())
    assert main(["list"]) == 0
    assert "coin\n    A coin." in capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(STUDIES))
def test_each_study_function_documents_every_preset(name):
    # Old docstrings of random_init_sensitivity and zero_sensitivity_bound
    # described their former full preset after it had become ``paper``.
    # The function, where a study has one, beside its declaration (optional).
    package = sys.modules[get_study(name).cell.__module__.rsplit(".", 1)[0]]
    if not callable(getattr(package, name, None)):
        pytest.skip(f"{name} declares no public function")
    doc = getattr(package, name).__doc__
    line = next(line for line in doc.splitlines() if line.strip().startswith("preset :"))
    listed = re.findall(r'"(\w+)"', line.split("default=")[0])
    assert sorted(listed) == sorted(get_study(name).presets)
    for preset in get_study(name).presets:
        assert f"``{preset}``" in doc, preset


def test_the_study_authors_guide_and_the_study_docstring_use_no_private_import():
    # Old guide: skxor.studies.stats and skxor.studies._floor.floor_work; old
    # Study docstring: skxor.studies._parameters.POSITIVE.
    import re
    from pathlib import Path

    import skxor.studies as studies
    from skxor.studies import Study

    guide = (Path(__file__).resolve().parents[2] / "docs" / "your_own_study.rst").read_text()
    # The guide's code and the names it tells a user to call (the last section,
    # on the library's own packages, names its files).
    user_part = guide.split("A study of the library itself")[0]
    private = re.compile(r"skxor\.studies\._\w+")
    assert private.findall(user_part) == []
    assert private.findall(Study.__doc__) == []
    for name in ("POSITIVE", "NON_NEGATIVE", "AT_LEAST_TWO", "rate_with_interval",
                 "wilson_interval", "format_interval", "format_count", "floor_work",
                 "rate_verdict", "cell_version", "Claim"):
        assert name in studies.__all__ and name in guide, name


@pytest.mark.parametrize("old, new", [("summarise_one_step", "summarize_one_step"),
                                      ("summarise_bound", "summarize_bound")])
def test_the_former_spelling_says_where_the_name_went(old, new):
    # The old spellings went with the move of the papers' studies: the error names both.
    import skxor.studies as studies

    with pytest.raises(ImportError, match=rf"{old} moved to skxor.papers \(spelled {new}\)"):
        getattr(studies, old)
    with pytest.raises(AttributeError, match="no attribute 'summarise_training'"):
        studies.summarise_training  # noqa: B018 - was never public
