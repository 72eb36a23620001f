"""A study of one's own, in a file, run through the command line like a library study."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import skxor
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


def _guide_study(folder):
    """The study of docs/your_own_study.rst, written to ``folder / "coin_flips.py"``."""
    import re

    page = (Path(__file__).resolve().parents[2] / "docs" / "your_own_study.rst").read_text()
    block = re.search(r"``coin_flips.py``:\n\n\.\. code-block:: python\n\n(.*?)\n\S", page,
                      flags=re.S).group(1)
    path = folder / "coin_flips.py"
    path.write_text("\n".join(line[4:] for line in block.splitlines()))
    return path


def test_the_user_guide_study_runs_as_the_page_says(tmp_path, capsys):
    path = _guide_study(tmp_path)
    assert len(path.read_text().strip().splitlines()) <= 40
    out = tmp_path / "results"
    _run(path, out, capsys)
    table = pd.read_csv(out / "coin_flips.csv")
    # "one row per p and seed: n_flips, p, seed, heads, majority and the run's setting"
    assert list(table.columns) == ["n_flips", "p", "seed", "heads", "majority", "setting"]
    assert len(table) == 3 * 20
    assert sorted(p.name for p in out.iterdir()) == [".skxor", "checkpoints", "coin_flips.csv",
                                                      "coin_flips.run.json", "report.md"]
    # "--set seeds=50: 20 seeds read back, 30 computed" (per p).
    lines = _run(path, out, capsys, "--set", "seeds=50")
    assert "60 cells read from checkpoints" in lines
    assert len(pd.read_csv(out / "coin_flips.csv")) == 3 * 50


#: Runs the study file given on a LocalCluster of two worker processes (which
#: cannot import the file) through the command line; prints this process's id.
CLUSTER_SCRIPT = """
import os, sys
import distributed
from skxor.cli import main

if __name__ == "__main__":
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=None, processes=True) as cluster:
        code = main(["run", sys.argv[1], "--out", sys.argv[2], "--no-progress",
                     "--scheduler", cluster.scheduler_address])
    print("client", os.getpid(), "code", code)
"""

#: Bounds the cluster run: a hang fails the test instead of the suite.
CLUSTER_TIMEOUT = 400


def test_a_study_file_runs_on_a_dask_scheduler(tmp_path, capsys):
    # As a library study on --scheduler: the same table as a local run, the
    # cells computed in the workers. dask pickled the cell by its module's
    # name, which no worker can import: the run waited for good (a cluster of
    # one worker thread hid it: joblib then runs the cells in the client).
    pytest.importorskip("distributed")
    path = tmp_path / "flips_study.py"
    path.write_text(STUDY_FILE.replace("from pathlib import Path", "import os\nfrom pathlib "
                                       "import Path").replace(
        '"majority": heads > n_flips / 2}', '"majority": heads > n_flips / 2, '
                                            '"pid": os.getpid()}'))
    _run(path, tmp_path / "local", capsys)
    script = tmp_path / "on_cluster.py"
    script.write_text(CLUSTER_SCRIPT)
    root = str(Path(skxor.__file__).resolve().parents[1])  # this checkout's skxor
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [root, *filter(None, [os.environ.get("PYTHONPATH")])])}
    child = subprocess.Popen([sys.executable, str(script), str(path), str(tmp_path / "remote")],
                             cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = child.communicate(timeout=CLUSTER_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)  # the client and its cluster's processes
        child.communicate()
        pytest.fail(f"the study file did not finish on a 2-worker cluster in "
                    f"{CLUSTER_TIMEOUT} s")
    assert child.returncode == 0 and "code 0" in out, err[-3000:]
    client = int(out.split("client ")[1].split()[0])
    local = pd.read_csv(tmp_path / "local" / "flips.csv")
    remote = pd.read_csv(tmp_path / "remote" / "flips.csv")
    assert client not in set(remote["pid"]) and os.getpid() not in set(remote["pid"])
    pd.testing.assert_frame_equal(remote.drop(columns="pid"), local.drop(columns="pid"))

def test_cheap_cells_given_two_workers_run_here_and_the_run_says_so(tmp_path, capsys,
                                                                   monkeypatch):
    # The guide's 60 coin-flip cells with --n-jobs 2 took 46.8 s against 1.0 s
    # serially (each worker imports skxor and torch first) and the summary said
    # only "on 2 workers". Cells far cheaper than starting a worker now run in
    # this process, and the summary and run record name the backend. The
    # start-up cost is set here, not measured, so no clock decides the test.
    from skxor.studies import _sweep

    path = _guide_study(tmp_path)
    monkeypatch.setattr(_sweep, "WORKER_START_SECONDS", 1e6)
    line = _run(path, tmp_path / "cheap", capsys)
    assert "(serial (60 cells took" in line and "less than starting 2 worker processes" in line
    record = json.loads((tmp_path / "cheap" / "coin_flips.run.json").read_text())
    record = record["runs"][-1]
    assert record["workers"] == 1 and record["backend"].startswith("serial (60 cells took")
    # Cells dearer than the start-up: the first one here, the rest on the workers.
    monkeypatch.setattr(_sweep, "WORKER_START_SECONDS", 0.0)
    line = _run(path, tmp_path / "dear", capsys)
    assert "(joblib, 2 workers; 1 cell(s) first in this process)" in line
    record = json.loads((tmp_path / "dear" / "coin_flips.run.json").read_text())
    record = record["runs"][-1]
    assert record["workers"] == 2 and record["backend"].startswith("joblib, 2 workers")
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "dear" / "coin_flips.csv"),
                                  pd.read_csv(tmp_path / "cheap" / "coin_flips.csv"))
