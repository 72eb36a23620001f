"""Checkpointed sweeps: atomic cells, resume after SIGKILL, corrupt files recomputed."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from skxor.studies import run_sweep

CALLS = []


def square(x, scale=1):
    CALLS.append(x)
    return {"y": x * x * scale}


def test_results_in_cell_order_and_reused_from_checkpoints(tmp_path):
    CALLS.clear()
    cells = [{"x": x} for x in range(5)]
    df = run_sweep(square, cells, study="sq", checkpoint_dir=tmp_path)
    assert df["y"].tolist() == [0, 1, 4, 9, 16] and df["x"].tolist() == list(range(5))
    assert len(list((tmp_path / "sq").glob("*.json"))) == 5
    CALLS.clear()
    again = run_sweep(square, cells[::-1], study="sq", checkpoint_dir=tmp_path)
    assert CALLS == [] and again["y"].tolist() == [16, 9, 4, 1, 0]


def test_changed_parameters_never_reuse_stale_results(tmp_path):
    CALLS.clear()
    run_sweep(square, [{"x": 3}], study="sq", checkpoint_dir=tmp_path)
    df = run_sweep(square, [{"x": 3, "scale": 2}], study="sq", checkpoint_dir=tmp_path)
    assert df["y"].tolist() == [18] and CALLS == [3, 3]
    # Another study with the same parameters does not share cells either.
    run_sweep(square, [{"x": 3}], study="other", checkpoint_dir=tmp_path)
    assert CALLS == [3, 3, 3]


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text[: len(text) // 2],  # truncated
        lambda text: text.replace('"y": 9', '"y": 10'),  # edited payload
        lambda text: "",  # empty
        lambda text: "not json",
    ],
)
def test_partial_or_corrupt_cell_is_detected_and_recomputed(tmp_path, damage):
    run_sweep(square, [{"x": 3}], study="sq", checkpoint_dir=tmp_path)
    (path,) = (tmp_path / "sq").glob("*.json")
    path.write_text(damage(path.read_text()))
    CALLS.clear()
    with pytest.warns(RuntimeWarning, match="partial, corrupt"):
        df = run_sweep(square, [{"x": 3}], study="sq", checkpoint_dir=tmp_path)
    assert CALLS == [3] and df["y"].tolist() == [9]
    assert json.loads(path.read_text())["payload"]["result"] == {"y": 9}


def test_bad_cells_and_results_are_clear_errors():
    with pytest.raises(TypeError, match="cell 1 must be a dict"):
        run_sweep(square, [{"x": 1}, 2], study="sq")
    with pytest.raises(TypeError, match="JSON-serialisable"):
        run_sweep(square, [{"x": object()}], study="sq")
    with pytest.raises(TypeError, match="must return a dict"):
        run_sweep(lambda x: x, [{"x": 1}], study="sq")


def test_parallel_workers_give_the_same_table(tmp_path):
    cells = [{"x": x} for x in range(6)]
    serial = run_sweep(square, cells, study="sq")
    parallel = run_sweep(square, cells, study="sq", n_jobs=2, checkpoint_dir=tmp_path)
    assert serial.equals(parallel)


SCRIPT = textwrap.dedent(
    """
    import os, sys, time
    from skxor.studies import run_sweep

    def slow(x, log):
        with open(log, "a") as fh:
            fh.write(f"{x}\\n")
        while os.environ.get("HOLD") and x >= 3:  # the first run stops in the fourth cell
            time.sleep(0.05)
        return {"y": x + 100}

    if __name__ == "__main__":
        out, log = sys.argv[1], sys.argv[2]
        df = run_sweep(slow, [{"x": x, "log": log} for x in range(8)], study="slow",
                       checkpoint_dir=out)
        print(df["y"].tolist())
    """
)


def test_sigkill_loses_no_finished_cell(tmp_path):
    script = tmp_path / "sweep.py"
    script.write_text(SCRIPT)
    log = tmp_path / "calls.log"
    out = tmp_path / "ckpt"
    # The first run holds inside the fourth cell (x = 3) until it is killed, so
    # exactly three cells are finished at the kill, however slow the machine.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}  # this checkout's skxor
    proc = subprocess.Popen([sys.executable, str(script), str(out), str(log)],
                            env={**env, "HOLD": "1"})
    deadline = time.time() + 600  # a hang guard: importing torch alone can take 30 s
    while time.time() < deadline and proc.poll() is None:
        if "3" in (log.read_text().split() if log.exists() else []):
            break
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    finished = {p.name for p in (out / "slow").glob("*.json")}
    assert len(finished) == 3
    first_calls = log.read_text().split()
    rerun = subprocess.run(  # without HOLD: the rerun computes the five cells left
        [sys.executable, str(script), str(out), str(log)], capture_output=True, text=True,
        check=True, env=env)
    assert rerun.stdout.strip() == str([x + 100 for x in range(8)])
    second_calls = log.read_text().split()[len(first_calls):]
    # Cells finished before the kill are not run again.
    assert len(second_calls) == 8 - len(finished)
    assert finished <= {p.name for p in (out / "slow").glob("*.json")}


def test_a_checkpoint_path_that_is_a_folder_is_warned_about_and_recomputed(tmp_path):
    run_sweep(square, [{"x": 3}], study="sq", checkpoint_dir=tmp_path)
    (path,) = (tmp_path / "sq").glob("*.json")
    path.unlink()
    path.mkdir()  # something else sits where the cell's file should be
    CALLS.clear()
    with pytest.warns(RuntimeWarning) as caught:
        df = run_sweep(square, [{"x": 3}, {"x": 4}], study="sq", checkpoint_dir=tmp_path)
    messages = [str(w.message) for w in caught]
    assert any("unreadable" in m for m in messages)
    assert any("Could not write checkpoint" in m for m in messages)
    assert CALLS == [3, 4] and df["y"].tolist() == [9, 16]
    assert path.is_dir()  # left alone
    # The other cell was stored as usual.
    assert len([p for p in (tmp_path / "sq").glob("*.json") if p.is_file()]) == 1


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="file permissions do not bind root")
def test_an_unreadable_checkpoint_is_warned_about_and_recomputed(tmp_path):
    run_sweep(square, [{"x": 3}], study="sq", checkpoint_dir=tmp_path)
    (path,) = (tmp_path / "sq").glob("*.json")
    path.chmod(0)
    CALLS.clear()
    with pytest.warns(RuntimeWarning, match="unreadable"):
        df = run_sweep(square, [{"x": 3}], study="sq", checkpoint_dir=tmp_path)
    assert CALLS == [3] and df["y"].tolist() == [9]


def test_progress_bar_is_silent_when_stderr_is_not_a_terminal(capsys):
    run_sweep(square, [{"x": x} for x in range(3)], study="sq", progress=True)
    assert capsys.readouterr().err == ""
