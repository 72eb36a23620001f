"""The command line: demo, help texts, and no traceback for any user mistake."""

import argparse
import io
import os
import subprocess
import sys

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import skxor.studies
from skxor.cli import build_parser, main, run_demo
from skxor.studies import STUDIES
from skxor.papers import one_step
from skxor.papers.han_ghoshdastidar.one_step import TIME_COLUMNS


def test_demo_runs_the_one_step_study():
    out = io.StringIO()
    table = run_demo(d=30, n=20000, n_test=2000, m=16, step_length=100.0, seeds=2, out=out)
    # Exactly the one-step study's cells for the same parameters.
    study = one_step(d=[30], m=[16], n=[20000], seeds=2, step_length=100.0, n_steps=1,
                     n_test=2000)
    # Cell times differ from run to run; every result column must agree.
    pd.testing.assert_frame_equal(table.drop(columns=list(TIME_COLUMNS)),
                                  study.drop(columns=list(TIME_COLUMNS)))
    rates = table.groupby("attention")["success"].mean()
    assert rates["softmax"] >= 0.5 and rates["linear"] == 0 and rates["erf"] == 0
    text = out.getvalue()
    assert "d=30" in text and "trainable parameters 32" in text
    assert "success_rate" in text and "specialised_rate" in text


def test_demo_command_line(capsys):
    assert main(["demo", "--d", "20", "--n", "5000", "--n-test", "500", "--seeds", "1"]) == 0
    out = capsys.readouterr().out
    assert "Total wall time" in out and "softmax" in out


def _run_main(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    return code, capsys.readouterr().err


def _existing_file(tmp_path):
    path = tmp_path / "a_file"
    path.write_text("not a folder")
    return str(path)


TINY = ["--set", "d=20", "--set", "m=2", "--set", "seeds=1", "--set", "n_test=10"]

# (argv, fragments the message must contain); "{tmp}" is a fresh folder, "{file}"
# an existing file. The first block is every case of issue 11, items 7 and 8.
MISTAKES = [
    (["run", "one_step", "--set", "d="], ["'d' parameter", "[2, inf)", "Got ''"]),
    (["run", "one_step", "--set", "one_step.d=abc"], ["'d' parameter", "[2, inf)", "'abc'"]),
    (["run", "one_step", "--set", "seeds=abc"], ["'seeds' parameter", "[1, inf)", "'abc'"]),
    (["run", "one_step", "--set", "seeds=1.5"], ["'seeds' parameter", "[1, inf)", "1.5"]),
    (["run", "one_step", "--set", "seeds=true"], ["'seeds' parameter", "[1, inf)", "True"]),
    (["run", "one_step", "--set", "d=100,"], ["'d' parameter", "[2, inf)", "[100, '']"]),
    (["run", "one_step", "--set", "m=0"], ["'m' parameter", "[1, inf)", "Got 0"]),
    (["run", "one_step", "--set", "m=-1"], ["'m' parameter", "[1, inf)", "Got -1"]),
    (["run", "one_step", "--set", "seeds=0"], ["'seeds' parameter", "[1, inf)", "Got 0"]),
    (["run", "one_step", "--set", "n=-5"], ["'n' parameter", "among {0}", "[2, inf)"]),
    (["run", "one_step", "--set", "n_test=0"], ["'n_test' parameter", "[1, inf)"]),
    (["run", "one_step", "--out", "/proc/skxor-test/out"], ["--out", "writable folder"]),
    (["run", "one_step", "--out", "{file}"], ["--out", "existing file", "give a folder"]),
    (["run", "one_step", "--out", "/dev/null/out"], ["--out", "writable folder"]),
    (["run", "one_step", "--scheduler", "tcp://127.0.0.1:1", *TINY],
     ["--scheduler", "tcp://127.0.0.1:1", "within 5 s", "running scheduler"]),
    (["demo", "--d", "1"], ["'d' parameter", "[2, inf)", "Got 1"]),
    (["demo", "--n", "-1"], ["'n' parameter", "among {0}", "[2, inf)", "Got -1"]),
    # Issue 23: training sets that can hold one class, an internal name, no dask.
    (["demo", "--d", "3", "--n", "2"], ["--n", "at least 32", "one class", "got 2"]),
    (["demo", "--d", "3", "--n", "31"], ["--n", "at least 32", "got 31"]),
    (["run", "one_step", "--n-jobs", "abc"], ["--n-jobs", "non-zero int", "'abc'"]),
    (["demo", "--step-length", "1e300"], ["'step_length' parameter", "(0.0, 1000000.0]"]),
    # Further mistakes of the same kinds.
    (["demo", "--d", "abc"], ["argument --d", "invalid int value"]),
    (["run", "nope"], ["argument STUDY", "invalid choice", "one_step"]),
    (["run", "one_step", "--preset", "huge"], ["--preset", "invalid choice", "quick"]),
    (["run", "one_step", "--n-jobs", "0"], ["--n-jobs", "non-zero"]),
    (["run", "one_step", "--set", "bogus=1"], ["unknown parameter 'bogus'", "seeds"]),
    (["run", "one_step", "--set", "nodots"], ["--set", "PARAM=VALUE"]),
    (["run", "one_step", "--set", "training_sensitivity.seeds=1"],
     ["training_sensitivity", "not among the studies run"]),
    (["run", "one_step", "--set", "attention=relu"], ["'attention' parameter", "softmax"]),
    (["run", "one_step", "--set", "step_length=nan"], ["'step_length' parameter"]),
    (["run", "random_init_sensitivity", "--set", "d_model=10"],
     ["d_model=10", "divisible by n_heads=4"]),
    (["run", "training_sensitivity", "--set", "device=tpu"], ["device"]),
    (["run", "sample_complexity", "--set", "n_min=5000", "--set", "n_max=1000"],
     ["n_min must not exceed n_max"]),
    (["run", "parameter_scaling", "--set", "random_state=-1"], ["'random_state' parameter"]),
]


@pytest.mark.parametrize("argv, fragments", MISTAKES, ids=lambda v: " ".join(v)
                         if isinstance(v, list) and v and v[0] in ("run", "demo") else "")
def test_user_mistakes_print_one_line_and_exit_2(argv, fragments, tmp_path, capsys):
    argv = [a.replace("{file}", _existing_file(tmp_path)) for a in argv]
    if argv[0] == "run" and "--out" not in argv:
        argv += ["--out", str(tmp_path / "out")]
    code, err = _run_main(argv, capsys)
    assert code == 2
    assert "skxor: error: " in err and "Traceback" not in err
    for fragment in fragments:
        assert fragment in err
    # Validation happens before any work: nothing was computed or written.
    assert not (tmp_path / "out" / "checkpoints").exists()
    # The scheduler case fails after one bounded wait: tests/unit/test_sweep_runner.py.


def test_scheduler_without_dask_names_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    code, err = _run_main(["run", "one_step", "--scheduler", "tcp://127.0.0.1:8786", *TINY,
                           "--out", str(tmp_path / "out")], capsys)
    assert code == 2 and "Traceback" not in err
    assert "skxor: error: --scheduler" in err and "pip install 'skxor[dask]'" in err
    assert not (tmp_path / "out").exists()  # refused before any work


def test_run_without_matplotlib_names_the_extra_before_any_work(tmp_path, capsys,
                                                                monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    code, err = _run_main(["run", "one_step", *TINY, "--out", str(tmp_path / "out")], capsys)
    assert code == 2 and "Traceback" not in err
    assert "needs matplotlib" in err and "pip install 'skxor[plot]'" in err
    assert not (tmp_path / "out").exists()


def test_a_failing_cell_names_the_values_set(tmp_path, capsys):
    # n = 2 is allowed by the study, but a 2-sample training set can hold one
    # class: the message says which settings the run used.
    code, err = _run_main(["run", "one_step", "--set", "n=2", "--set", "d=3",
                           "--set", "seeds=3", "--set", "m=2", "--set", "n_test=10",
                           "--out", str(tmp_path / "out"), "--no-progress"], capsys)
    assert code == 2 and "Traceback" not in err
    assert "one class" in err and "(with --set n=2 --set d=3" in err


def test_a_json_list_is_a_list_of_values(tmp_path, capsys):
    code = main(["run", "one_step", "--out", str(tmp_path), "--set", "d=[20,30]",
                 "--set", "m=2", "--set", "seeds=1", "--set", "n_test=10", "--no-progress"])
    assert code == 0
    assert sorted(pd.read_csv(tmp_path / "one_step.csv")["d"].unique()) == [20, 30]


def test_the_console_command_shows_no_traceback(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "skxor.cli", "run", "one_step", "--set", "seeds=abc",
         "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("skxor: error: The 'seeds' parameter of one_step")
    assert "Traceback" not in result.stderr


_PARAMS = sorted(STUDIES["one_step"].parameters) + ["bogus", "one_step.d", "x.d"]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(param=st.sampled_from(_PARAMS), value=st.text(max_size=12))
def test_any_set_value_exits_0_or_2_without_a_traceback(
    param, value, tmp_path, capsys, monkeypatch
):
    calls = []
    # Every value is parsed and validated for real; the study is not computed.
    monkeypatch.setattr(skxor.studies, "run_studies", lambda *a, **k: calls.append(k))
    code, err = _run_main(
        ["run", "one_step", "--out", str(tmp_path), "--set", f"{param}={value}"], capsys
    )
    assert code in (0, 2)
    assert "Traceback" not in err
    if code == 2:
        assert err.startswith("skxor: error: ")
        assert not calls
    else:
        assert len(calls) == 1


def _subcommands():
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return parser, sub.choices


def test_every_option_of_every_subcommand_has_help():
    parser, commands = _subcommands()
    assert set(commands) == {"demo", "list", "run", "reproduce", "headline", "publish"}
    for name, command in commands.items():
        for action in command._actions:
            assert action.help and action.help.strip(), (name, action.dest)


def test_run_help_lists_the_studies_and_their_presets(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    text = capsys.readouterr().out
    for name, study in STUDIES.items():
        assert name in text
        for preset in study.presets:
            assert f"--preset {preset}" in text
    assert "--no-progress" in text and "not a terminal" in text


def test_list_of_a_study_shows_each_parameter_per_preset(capsys):
    from skxor.studies import get_study

    assert main(["list", "one_step"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {line.split()[0]: line.split()[1:] for line in lines[4:] if line.strip()}
    assert rows["parameter"] == ["quick", "full"]
    # full shows what differs from quick, as --set takes it; a blank is as in quick.
    assert rows["d"] == ["100,1000,10000", "100,300,1000,3000,10000,30000,100000"]
    assert rows["attention"] == ["softmax,linear,erf"]
    study = get_study("one_step")
    quick, full = (f"{study.count_cells(study.preset(p)):,}" for p in ("quick", "full"))
    cells = rows["cells"]
    assert cells[:2] == [quick, "cells"] and cells[4] == "CPU"
    assert cells[5:7] == [full, "cells"] and cells[-1] == "CPU"
    assert max(len(line) for line in lines) <= 88
    assert main(["list", "one_stp"]) == 2
    assert "did you mean 'one_step'?" in capsys.readouterr().err


def test_progress_bars_are_off_when_output_is_not_a_terminal(tmp_path):
    # stderr of the child is a pipe: no bar, although progress is not disabled.
    result = subprocess.run(
        [sys.executable, "-m", "skxor.cli", "run", "one_step", "--out", str(tmp_path),
         *TINY],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "cell/s" not in result.stderr and "one_step:" not in result.stderr


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX only")
def test_help_of_the_console_entry_point():
    result = subprocess.run([sys.executable, "-m", "skxor.cli", "--help"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0 and "reproduce" in result.stdout


def test_a_warning_reads_as_one_skxor_line(tmp_path):
    # A run record that cannot be read is kept aside with a warning: on the command
    # line that is one "skxor: warning:" line, not a source location and code.
    from skxor.cli import main

    assert main(["run", "one_step", "--out", str(tmp_path), "--no-progress", *TINY]) == 0
    (tmp_path / "one_step.run.json").write_text("{cut short")
    result = subprocess.run(
        [sys.executable, "-m", "skxor.cli", "run", "one_step", "--out", str(tmp_path),
         "--no-progress", *TINY],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if "warning" in line.lower()]
    assert len(lines) == 1 and lines[0].startswith(
        f"skxor: warning: {tmp_path / 'one_step.run.json'} holds no readable run records; "
        "kept it as "), result.stderr
    assert "RuntimeWarning" not in result.stderr and ".py:" not in result.stderr
    assert len(list(tmp_path.glob("one_step.run.*.json"))) == 1
