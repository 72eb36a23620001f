"""A study of one's own, in a file, run through the command line like a library study."""

import json

import pandas as pd

from skxor.cli import main

#: A whole study in a file, as the user guide shows one (under 40 lines).
STUDY_FILE = '''
"""Majority of n coin flips: how often do heads win, per bias p?"""
from numbers import Real
from pathlib import Path

import numpy as np
from sklearn.utils._param_validation import Interval

from skxor.studies import Grid, Study
from skxor.studies._parameters import POSITIVE

CALLS = Path(__file__).with_name("calls")


def flips_cell(p, n_flips, seed):
    CALLS.mkdir(exist_ok=True)
    (CALLS / f"{p}-{n_flips}-{seed}").touch()  # counts the computed cells
    heads = int(np.random.default_rng([seed, n_flips]).binomial(n_flips, p))
    return {"heads": heads, "majority": heads > n_flips / 2}


STUDY = Study(
    name="flips",
    description="Biased coins: how often heads win a majority of n flips.",
    parameters={"p": [Grid(Interval(Real, 0, 1, closed="both"))],
                "n_flips": [POSITIVE], "seeds": [POSITIVE]},
    presets={"quick": {"p": [0.3, 0.7], "n_flips": 11, "seeds": 3},
             "full": {"seeds": 100}},
    cell=flips_cell,
)
'''


def _run(path, out, capsys, *options):
    # Two loky worker processes, which cannot import the study file: its cell
    # function must travel by value (without that: BrokenProcessPool).
    code = main(["run", str(path), "--out", str(out), "--n-jobs", "2", "--no-progress",
                 *options])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def test_a_study_file_runs_resumes_and_merges_like_a_library_study(tmp_path, capsys):
    assert len(STUDY_FILE.strip().splitlines()) <= 40
    path = tmp_path / "flips_study.py"
    path.write_text(STUDY_FILE)
    out = tmp_path / "results"
    calls = tmp_path / "calls"

    _run(path, out, capsys)
    table = pd.read_csv(out / "flips.csv")
    assert len(table) == 6 and sorted(table["p"].unique()) == [0.3, 0.7]
    assert table["seed"].tolist() == [0, 1, 2, 0, 1, 2]
    rng_heads = [int(__import__("numpy").random.default_rng([s, 11]).binomial(11, p))
                 for p in (0.3, 0.7) for s in range(3)]
    assert table["heads"].tolist() == rng_heads
    assert (table["majority"] == (table["heads"] > 5.5)).all()
    assert set(table["setting"]) == {json.dumps({"n_flips": 11})}
    assert len(list(calls.iterdir())) == 6
    report = (out / "report.md").read_text()
    assert "## flips" in report and "| flips | quick | none | 6 |" in report
    assert "Run: quick preset, 3 seeds per cell; setting: n_flips=11." in report
    assert len(list((out / "checkpoints" / "flips").glob("*.json"))) == 6

    # The same run again: every cell read from its checkpoint, none computed.
    (calls / "0.3-11-0").unlink()
    again = _run(path, out, capsys)
    assert "all 6 cells read from checkpoints" in again
    assert not (calls / "0.3-11-0").exists()
    pd.testing.assert_frame_equal(pd.read_csv(out / "flips.csv"), table)

    # More seeds: the first three of each p reused, two computed; one merged table.
    _run(path, out, capsys, "--set", "seeds=5")
    merged = pd.read_csv(out / "flips.csv")
    assert len(merged) == 10 and len(list(calls.iterdir())) == 5 + 4
    # Another setting: its rows kept beside the others, analysed on their own.
    _run(path, out, capsys, "--set", "n_flips=21", "--set", "p=0.5")
    merged = pd.read_csv(out / "flips.csv")
    assert len(merged) == 10 + 3 and merged["setting"].nunique() == 2
    report = (out / "report.md").read_text()
    assert "holds rows of 2 settings" in report
    assert report.count("## flips") == 2  # one part per setting


def test_the_user_guide_study_runs_as_the_page_says(tmp_path, capsys):
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "your_own_study.rst").read_text()
    block = re.search(r"``coin_flips.py``:\n\n\.\. code-block:: python\n\n(.*?)\n\S", page,
                      flags=re.S).group(1)
    path = tmp_path / "coin_flips.py"
    path.write_text("\n".join(line[4:] for line in block.splitlines()))
    assert len(path.read_text().strip().splitlines()) <= 40
    out = tmp_path / "results"
    _run(path, out, capsys)
    table = pd.read_csv(out / "coin_flips.csv")
    # "one row per p and seed: n_flips, p, seed, heads, majority and the run's setting"
    assert list(table.columns) == ["n_flips", "p", "seed", "heads", "majority", "setting"]
    assert len(table) == 3 * 20
    assert sorted(p.name for p in out.iterdir()) == [".skxor", "checkpoints", "coin_flips.csv",
                                                      "report.md"]
    # "--set seeds=50: 20 seeds read back, 30 computed" (per p).
    lines = _run(path, out, capsys, "--set", "seeds=50")
    assert "60 cells read from checkpoints" in lines
    assert len(pd.read_csv(out / "coin_flips.csv")) == 3 * 50


def test_a_study_file_runs_on_a_dask_scheduler(tmp_path, capsys):
    # As a library study on --scheduler: the same table as a local run.
    distributed = __import__("pytest").importorskip("distributed")
    path = tmp_path / "flips_study.py"
    path.write_text(STUDY_FILE)
    _run(path, tmp_path / "local", capsys)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=None, processes=True) as cluster:
        code = main(["run", str(path), "--out", str(tmp_path / "remote"), "--no-progress",
                     "--scheduler", cluster.scheduler_address])
        assert code == 0, capsys.readouterr().err
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "remote" / "flips.csv"),
                                  pd.read_csv(tmp_path / "local" / "flips.csv"))
