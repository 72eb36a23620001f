"""A user's study that returns the wrong thing gets a named error, never a traceback or a wrong table.

Results named like parameters, hooks returning the wrong type, a key naming
a missing column, ``sys.exit`` in the study file, an empty ``--out``, the
dry run of a study without ``cells=`` (and of a huge one), and the mode of
the files a run writes.
"""

import os
import re
import stat
import textwrap
from numbers import Real

import matplotlib
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.utils._param_validation import Interval

from skxor.cli import main
from skxor.studies import Grid, load_study, run_studies
from skxor.studies._parameters import POSITIVE
from test_study_api import coin_study  # the study API's test study: 2 p x 4 seeds

matplotlib.use("Agg")


def clashing_cell(p, n_flips, seed):
    return {"p": 0.5, "heads": True}


def seed_clashing_cell(p, n_flips, seed):
    return {"seed": 0, "heads": True}


# -- results named like parameters -----------------------------------------------


@pytest.mark.parametrize("cell, name", [(clashing_cell, "p"), (seed_clashing_cell, "seed")])
def test_a_result_named_like_a_parameter_is_refused(cell, name, tmp_path):
    # Before: the result replaced the parameter column, and the next run into
    # the folder merged distinct cells on the overwritten key (9 + 6 rows -> 3).
    study = coin_study(cell=cell)
    with pytest.raises(ValueError, match=rf"named like its parameter\(s\) \['{name}'\], with other"):
        study.run()
    with pytest.raises(ValueError, match=rf"\['{name}'\]"):
        run_studies([study], out_dir=tmp_path, echo=None, progress=False)
    assert not (tmp_path / "coin.csv").exists()


def test_a_parameter_or_result_named_setting_is_refused(tmp_path):
    with pytest.raises(ValueError, match="a parameter 'setting' clashes"):
        coin_study(parameters={"p": [Grid(Interval(Real, 0, 1, closed="both"))],
                               "setting": [POSITIVE], "seeds": [POSITIVE]},
                   presets={"quick": {"p": [0.2], "setting": 3, "seeds": 1}})
    study = coin_study(tabulate=lambda table, params: table.assign(setting="mine"))
    with pytest.raises(ValueError, match="a column 'setting'"):
        run_studies([study], out_dir=tmp_path, echo=None, progress=False)


# -- hooks returning the wrong type -------------------------------------------------

#: hook -> a declaration returning ``value`` from it, and what the message says it must be.
HOOKS = {
    "cells": (lambda v: dict(cells=lambda params: v), "a list"),
    "tabulate": (lambda v: dict(tabulate=lambda table, params: v), "a pandas DataFrame"),
    "compute": (lambda v: dict(compute=lambda params, **kw: v), "a pandas DataFrame"),
    "summary": (lambda v: dict(summary=lambda table: v), "a pandas DataFrame"),
    "figures": (lambda v: dict(figures=lambda table: v), "a dict of names"),
    "report": (lambda v: dict(report=lambda table: v), "a str"),
}
WRONG = [None, 3, 2.5, "text", [1, 2], {"a": 1}, ("t",)]


def _valid(hook, value):
    return ((hook == "cells" and isinstance(value, list) and not value)
            or (hook == "report" and isinstance(value, str))
            or (hook == "figures" and value == {}))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hook=st.sampled_from(sorted(HOOKS)), value=st.sampled_from(WRONG))
def test_every_hook_returning_a_wrong_type_is_named(hook, value, tmp_path_factory):
    if _valid(hook, value):
        return
    declare, must = HOOKS[hook]
    study = coin_study(**declare(value))
    out = tmp_path_factory.mktemp("out")
    if hook == "cells" and isinstance(value, list):  # a list, of things that are not cells
        must_say = "cell 0 must be a dict of parameters"
    else:
        must_say = rf"study 'coin': its {hook} hook must return {must}"
    with pytest.raises(TypeError, match=must_say):
        run_studies([study], out_dir=out, echo=None, progress=False)


HEADER = textwrap.dedent("""
    from skxor.studies import Grid, Study
    from skxor.studies._parameters import POSITIVE

    def cell(x, seed):
        return {"y": x + seed}

    def make(**changes):
        return Study(**{**dict(name="mine", description="d", cell=cell,
                               parameters={"x": [Grid(POSITIVE)], "seeds": [POSITIVE]},
                               presets={"quick": {"x": [1, 2], "seeds": 2}}), **changes})
""")


def _file(tmp_path, text):
    path = tmp_path / "my_study.py"
    path.write_text(HEADER + text)
    return path


@pytest.mark.parametrize("text, message", [
    ("STUDY = make(report=lambda table: 3)\n", "its report hook must return a str; it returned int"),
    ("STUDY = make(figures=lambda table: [1])\n", "its figures hook must return a dict"),
    ("STUDY = make(key=('x', 'seed', 'z'))\n", r"its key names column\(s\) \['z'\]"),
    ("import sys\nsys.exit(3)\n", "could not be imported: SystemExit: 3"),
])
def test_the_command_line_names_a_broken_study_file(tmp_path, capsys, text, message):
    code = main(["run", str(_file(tmp_path, text)), "--out", str(tmp_path / "out"),
                 "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err, err
    assert err.startswith("skxor: error: ") and re.search(message, err)


def test_sys_exit_in_a_study_file_is_an_import_error(tmp_path):
    with pytest.raises(ValueError, match="SystemExit: 3"):
        load_study(_file(tmp_path, "import sys\nsys.exit(3)\n"))


def test_an_empty_out_is_refused(tmp_path, capsys, monkeypatch):
    # Before: it wrote into the current folder and said "Wrote /report.md".
    monkeypatch.chdir(tmp_path)
    code = main(["run", str(_file(tmp_path, "STUDY = make()\n")), "--out", "", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "--out is empty" in err
    assert not (tmp_path / "report.md").exists() and not (tmp_path / "mine.csv").exists()


# -- the dry run -------------------------------------------------------------------------


def test_dry_run_of_a_study_without_cells(tmp_path, capsys):
    # Before: skxor: error: 'NoneType' object is not callable.
    path = _file(tmp_path, "STUDY = make()\n")
    assert main(["run", str(path), "--dry-run"]) == 0
    assert "mine, preset quick: 4 cells" in capsys.readouterr().out
    assert main(["run", str(path), "--dry-run", "--set", "seeds=100000000"]) == 0
    assert "mine, preset quick: 200000000 cells" in capsys.readouterr().out


def test_dry_run_counts_every_cell_of_a_library_study():
    # Issue 48.6: the dry run no longer extrapolates from 1, 2 and 3 seeds (exact only
    # when every seed adds the same cells); it counts each cell the study lists.
    from skxor.studies import get_study
    from skxor.studies._cost import estimate, run_cells

    params = get_study("k_sparse").params("quick", {"seeds": 7})
    e = estimate("k_sparse", "quick", {"seeds": 7})
    cells = run_cells("k_sparse", params)
    assert e["cells"] == len(cells) > 0
    assert e["by_kind"].keys() == {c.kind for c in cells}


# -- file modes ----------------------------------------------------------------------------


@pytest.mark.parametrize("mask", [0o022, 0o027])
def test_written_files_get_the_umask_mode(tmp_path, mask):
    import matplotlib.pyplot as plt

    def figures(table):
        fig, ax = plt.subplots()
        ax.plot(table["p"], table["score"])
        return {"score": fig}

    old = os.umask(mask)
    try:
        run_studies([coin_study(figures=figures)], out_dir=tmp_path, echo=None, progress=False)
    finally:
        os.umask(old)
    written = [tmp_path / "coin.csv", tmp_path / "coin.run.json", tmp_path / "report.md",
               tmp_path / "coin_score.png", *(tmp_path / "checkpoints" / "coin").glob("*.json")]
    assert len(written) > 5
    for path in written:
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask, path
    assert pd.read_csv(tmp_path / "coin.csv").shape[0] == 8


@pytest.mark.parametrize("package, error, match", [
    (None, TypeError, "package must be a study package's module name"),  # was "No module named 'None'"
    (b"json", TypeError, "package must be a study package's module name"),
    ("no_such_study_package_zz", ValueError, "no package 'no_such_study_package_zz'"),
    ("json.decoder", ValueError, "'json.decoder' is a module, not a package"),  # was {}
])
def test_role_hooks_of_what_is_no_package_is_named(package, error, match):
    from skxor.studies import role_hooks

    with pytest.raises(error, match=match):
        role_hooks(package)


def test_role_hooks_keeps_the_error_of_what_a_role_module_imports(tmp_path, monkeypatch):
    from skxor.studies import role_hooks

    package = tmp_path / "broken_roles_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "_section.py").write_text("import no_such_dependency_zz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="no_such_dependency_zz"):
        role_hooks("broken_roles_pkg")
