"""Unit tests of the command line's parsing and its paths, in this process.

The integration tests run the console command; these call ``main`` with
argument lists and check each path's output and exit status: parsing of
``--set``, the list, a tiny run, an interrupted run, an unreachable
scheduler, the headline command and the demo's own mistakes.
"""

import argparse

import pandas as pd
import pytest

import skxor.studies
from skxor.cli import (
    USAGE_ERROR,
    _collect_overrides,
    _n_jobs,
    _override,
    _parse_value,
    build_parser,
    main,
)

TINY = ["--set", "one_step.d=30", "--set", "m=8", "--set", "seeds=1",
        "--set", "one_step.step_length=100", "--set", "one_step.n_steps=1",
        "--set", "one_step.n_test=100"]


@pytest.mark.parametrize("raw, value", [
    ("3", 3), ("2.5", 2.5), ("true", True), ("[1, 2]", [1, 2]), ('"x"', "x"),
    ("softmax", "softmax"), ("1,2,3", [1, 2, 3]), ("softmax, 3", ["softmax", 3]),
    ("a,b", ["a", "b"]),
])
def test_set_values_parse_as_json_words_or_lists(raw, value):
    assert _parse_value(raw) == value


def test_override_syntax():
    assert _override("one_step.d=100,1000") == ("one_step", "d", [100, 1000])
    assert _override("seeds=3") == (None, "seeds", 3)
    assert _override("a.b.c=1") == ("a.b", "c", 1)
    with pytest.raises(argparse.ArgumentTypeError, match="expected \\[STUDY.\\]PARAM=VALUE"):
        _override("seeds")
    with pytest.raises(argparse.ArgumentTypeError, match="no parameter name"):
        _override("one_step.=3")
    assert _n_jobs("-1") == -1 and _n_jobs("2") == 2
    with pytest.raises(argparse.ArgumentTypeError, match="non-zero"):
        _n_jobs("0")


def test_overrides_go_to_the_studies_that_have_the_parameter():
    names = ["one_step", "sample_complexity"]
    both = [p for p in skxor.studies.get_study("one_step").parameters
            if p in skxor.studies.get_study("sample_complexity").parameters]
    assert "seeds" in both
    got = _collect_overrides([(None, "seeds", 2), ("one_step", "d", [30])], names)
    assert got == {"one_step": {"seeds": 2, "d": [30]}, "sample_complexity": {"seeds": 2}}
    with pytest.raises(ValueError, match="'k_sparse' is not among the studies run"):
        _collect_overrides([("k_sparse", "d", 1)], names)
    with pytest.raises(ValueError, match="unknown parameter 'nope'"):
        _collect_overrides([(None, "nope", 1)], names)


def test_list_prints_every_study_and_its_presets(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    flat = " ".join(out.split())
    for name, study in skxor.studies.STUDIES.items():
        assert f"\n{name}\n    " in out and " ".join(study.description.split()) in flat
    assert out.count("--preset quick ") == len(skxor.studies.STUDIES)


def test_list_is_a_readable_table_with_cells_and_times(capsys):
    # Issue 51, item 6: every preset was printed as a raw dict (36 lines, the
    # longest 760 characters).
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 88 and "{" not in out
    # Each preset's CPU time as the cost model prices it (not pinned: it is recalibrated).
    from skxor.studies import format_duration
    from skxor.studies._cost import estimate

    one_step = format_duration(estimate("one_step", "quick")["cpu_seconds"])
    scaling = format_duration(estimate("parameter_scaling", "full")["cpu_seconds"])
    assert f"\n    --preset quick            3,456 cells   {one_step} CPU\n" in out
    assert f"\n    --preset full     at most 4,240 cells   {scaling} CPU\n" in out


def test_a_tiny_run_writes_its_table_and_report(tmp_path, capsys):
    out = tmp_path / "res"
    assert main(["run", "one_step", "--out", str(out), "--no-progress", *TINY]) == 0
    printed = capsys.readouterr().out
    assert f"Wrote {out}/report.md in " in printed
    assert len(pd.read_csv(out / "one_step.csv")) == 3
    # "all" and duplicates name each study once; a bad value stops before work.
    assert main(["run", "one_step", "one_step", "--out", str(out), "--no-progress",
                 *TINY, "--set", "one_step.d=-3"]) == USAGE_ERROR
    assert "skxor: error:" in capsys.readouterr().err


def test_an_interrupted_run_says_where_its_cells_are(tmp_path, capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(skxor.studies, "run_studies", interrupted)
    assert main(["run", "one_step", "--out", str(tmp_path), *TINY]) == 130
    err = capsys.readouterr().err
    assert f"finished cells are kept in {tmp_path}/checkpoints" in err


@pytest.mark.parametrize("error, fragment", [
    (ConnectionError("no scheduler answered"), "skxor: error: --scheduler: no scheduler"),
    (OSError("disk full"), "skxor: error: disk full"),
    (ValueError("bad cell"), "skxor: error: bad cell"),
])
def test_errors_during_a_run_are_one_line(tmp_path, capsys, monkeypatch, error, fragment):
    def failing(*args, **kwargs):
        raise error

    monkeypatch.setattr(skxor.studies, "run_studies", failing)
    assert main(["reproduce", "--out", str(tmp_path), "--no-progress"]) == USAGE_ERROR
    err = capsys.readouterr().err
    assert err.strip() == fragment or err.startswith(fragment)
    assert "Traceback" not in err


def test_reproduce_runs_every_study(tmp_path, monkeypatch):
    seen = {}

    def record(names, **kwargs):
        seen.update(names=names, **kwargs)

    monkeypatch.setattr(skxor.studies, "run_studies", record)
    assert main(["reproduce", "--out", str(tmp_path), "--preset", "full", "--n-jobs", "2"]) == 0
    assert seen["names"] == list(skxor.studies.STUDIES)
    assert seen["preset"] == "full" and seen["n_jobs"] == 2 and seen["progress"] is True


def test_headline_errors_and_output(tmp_path, capsys, monkeypatch):
    assert main(["headline", "--from", str(tmp_path / "missing")]) == USAGE_ERROR
    assert capsys.readouterr().err.startswith("skxor: error:")
    monkeypatch.setattr(skxor.studies, "render_headline", lambda folder: f"* from {folder}")
    assert main(["headline", "--from", "x"]) == 0
    assert capsys.readouterr().out == "* from x\n"
    written = []
    monkeypatch.setattr(skxor.studies, "write_headline", lambda f, p: written.append((f, p)))
    assert main(["headline", "--from", "x", "--write", "a.md", "b.rst"]) == 0
    assert written == [("x", ["a.md", "b.rst"])]
    assert "into a.md, b.rst" in capsys.readouterr().out


@pytest.mark.parametrize("argv, fragment", [
    (["demo", "--d", "1", "--seeds", "1", "--n", "0"], "d"),
    (["demo", "--step-length", "-1", "--seeds", "1", "--d", "20", "--n", "0"], "step_length"),
])
def test_demo_mistakes_are_one_line(argv, fragment, capsys):
    assert main(argv + ["--no-progress"]) == USAGE_ERROR
    err = capsys.readouterr().err
    assert err.startswith("skxor: error:") and fragment in err and "Traceback" not in err


def test_parser_errors_exit_2_with_the_skxor_prefix(capsys):
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args(["run"])
    assert exc.value.code == USAGE_ERROR
    assert "skxor: error:" in capsys.readouterr().err


class _ClosedPipe:
    """A standard output whose reader went away (as in ``skxor list | head``)."""

    def write(self, text):
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self):
        pass


@pytest.mark.parametrize("argv", [["list"], ["run", "one_step", "--dry-run"]])
def test_a_closed_pipe_is_not_an_error(argv, monkeypatch, capsys):
    from skxor.cli import main

    monkeypatch.setattr("sys.stdout", _ClosedPipe())
    assert main(argv) == 0
    assert "error" not in capsys.readouterr().err


def test_version_prints_the_package_version(capsys):
    from skxor import __version__

    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"skxor {__version__}\n"


# Runs the command line in a fresh interpreter and reports, after it, which of
# the heavy packages it imported (its exit status is kept).
_FRESH = """
import sys
from skxor.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
print("@@", sorted(m for m in ("torch", "sklearn", "pandas", "skxor.studies")
                   if m in sys.modules), file=sys.stderr)
sys.exit(code)
"""


@pytest.mark.parametrize("argv, code", [
    (["--version"], 0), (["--help"], 0),
    *[([command, "--help"], 0)
      for command in ("demo", "list", "run", "reproduce", "headline", "publish")],
    (["run", "one_step", "--set", "d100"], USAGE_ERROR), (["lst"], USAGE_ERROR),
    (["run", "one_step", "--n-jobs", "0"], USAGE_ERROR), (["demo", "--d", "abc"], USAGE_ERROR),
    # Issue 51, item 6 and issue 48, item 18: these imported torch first (3.5 s of
    # CPU, 22 to 30 s on a busy machine); they read the studies' catalogue.
    (["list"], 0), (["list", "one_step", "k_sparse"], 0), (["list", "one_stp"], USAGE_ERROR),
    (["run", "nosuch"], USAGE_ERROR), (["run", "one_stp"], USAGE_ERROR),
    (["run", "nosuch.py"], USAGE_ERROR), (["run", "one_step", "nosuch.py"], USAGE_ERROR),
    (["run", "one_step", "--preset", "quik"], USAGE_ERROR),
    (["run", "all", "--set", "nosuch=1"], USAGE_ERROR),
    (["run", "one_step", "--set", "k_sparse.k=3"], USAGE_ERROR),
    (["reproduce", "--preset", "paperr"], USAGE_ERROR),
    (["run", "one_step", "--dry-run"], 0), (["reproduce", "--preset", "full", "--dry-run"], 0),
    (["demo", "--attention", "relu"], USAGE_ERROR),
])
def test_answers_that_need_no_model_import_no_torch(argv, code):
    # The command line's quick answers must not wait for torch (seconds on a
    # loaded machine) nor scikit-learn: only what the command uses is imported.
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-c", _FRESH, *argv], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == code, result.stderr
    assert result.stderr.splitlines()[-1] == "@@ []"


@pytest.mark.parametrize("argv, line", [
    (["run", "one_step", "--set", "d100"],
     "skxor: error: argument --set: expected [STUDY.]PARAM=VALUE, for example d=100,1000; "
     "got 'd100' (see 'skxor run --help')"),
    (["lst"], "skxor: error: argument COMMAND: invalid choice: 'lst' (choose from 'demo', "
              "'list', 'run', 'reproduce', 'headline', 'publish') (see 'skxor --help')"),
    (["run"], "skxor: error: the following arguments are required: STUDY "
              "(see 'skxor run --help')"),
    (["demo", "--attention", "relu"], "skxor: error: argument --attention: invalid choice: "
     "'relu' (choose from 'softmax', 'linear', 'erf') (see 'skxor demo --help')"),
])
def test_every_argument_error_is_one_line(argv, line, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == USAGE_ERROR
    assert capsys.readouterr().err == line + "\n"


@pytest.mark.parametrize("argv, suggestion", [
    (["run", "one_stp"], "did you mean 'one_step'?"),
    (["run", "sample_complexty", "one_step"], "did you mean 'sample_complexity'?"),
    (["run", "one_step", "--preset", "quik"], "did you mean 'quick'?"),
])
def test_a_mistyped_study_or_preset_gets_a_suggestion(argv, suggestion, tmp_path, capsys):
    assert main([*argv, "--out", str(tmp_path / "out")]) == USAGE_ERROR
    err = capsys.readouterr().err
    assert err.startswith("skxor: error: argument ") and err.count("\n") == 1
    assert err.rstrip().endswith(suggestion)


def test_no_suggestion_for_a_name_like_no_study(tmp_path, capsys):
    assert main(["run", "zzzz", "--out", str(tmp_path)]) == USAGE_ERROR
    assert "did you mean" not in capsys.readouterr().err


def test_publish_outside_the_repository_points_to_root(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["publish", "--check"]) == USAGE_ERROR
    err = capsys.readouterr().err
    assert err.startswith("skxor: error: no stored run") and err.count("\n") == 1
    assert f"{tmp_path} is not the repository root" in err and "--root DIR" in err
