"""Failure injection: a writer that raises, a kill in the middle of a write, bad floats.

* ``atomic_write`` leaves the old file and no temporary file when the
  writer raises partway.
* A sweep killed (SIGKILL) while a cell's file is half written loses no
  finished cell and never leaves a partial file under a cell's name.
* Every real-valued parameter of every estimator refuses +/-inf, NaN and a
  number beyond float range with a ValueError naming it.
"""

import json
import math
import os
import signal
import subprocess
import sys
import textwrap
import time
from numbers import Real

import numpy as np
import pytest
from sklearn.utils._param_validation import Interval

import skxor
from skxor._utils._validation import check_finite_params, real_parameters
from skxor.datasets import make_sparse_parity
from skxor.studies._sweep import atomic_write, atomic_write_text, read_cell, write_cell

# -- atomic_write ------------------------------------------------------------------


class Boom(RuntimeError):
    pass


@pytest.mark.parametrize("mode, old, part", [("w", "old text\n", "new te"),
                                             ("wb", b"\x00old", b"\x01ne")])
def test_a_writer_that_raises_partway_leaves_the_old_file_and_no_temporary(tmp_path, mode,
                                                                           old, part):
    path = tmp_path / "table.csv"
    path.write_bytes(old.encode() if isinstance(old, str) else old)

    def writer(fh):
        fh.write(part)
        fh.flush()  # the partial text is on disk somewhere
        raise Boom("disk full")

    with pytest.raises(Boom):
        atomic_write(path, writer, mode=mode)
    expected = old.encode() if isinstance(old, str) else old
    assert path.read_bytes() == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.csv"]


def test_a_writer_that_raises_on_a_new_path_leaves_nothing(tmp_path):
    with pytest.raises(KeyboardInterrupt):
        atomic_write(tmp_path / "new.json", lambda fh: (fh.write("{"), _raise(KeyboardInterrupt)))
    assert list(tmp_path.iterdir()) == []


def _raise(exc):
    raise exc


def test_atomic_write_replaces_the_whole_file(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("a much longer old content\n" * 10)
    atomic_write_text(path, "short")
    assert path.read_text() == "short"
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]


def test_write_cell_that_fails_keeps_the_previous_cell(tmp_path, monkeypatch):
    path = tmp_path / "cell.json"
    ident = {"study": "s", "params": {"x": 1}}
    write_cell(path, ident, {"y": 1})
    real_dumps = json.dumps

    def failing_dumps(obj, **kwargs):
        raise Boom("cannot serialise")

    monkeypatch.setattr(json, "dumps", failing_dumps)
    with pytest.raises(Boom):
        write_cell(path, ident, {"y": 2})
    monkeypatch.setattr(json, "dumps", real_dumps)
    assert read_cell(path, ident) == {"y": 1}


# -- a kill during a write ---------------------------------------------------------

KILL_SCRIPT = textwrap.dedent(
    """
    import os, sys, time
    from pathlib import Path
    import skxor.studies._sweep as sweep

    out, log, hang_at = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    writes = []
    real_atomic_write_text = sweep.atomic_write_text

    def slow_atomic_write_text(path, text):
        writes.append(path)
        if len(writes) != hang_at:
            return real_atomic_write_text(path, text)

        def half_then_hang(fh):
            fh.write(text[: len(text) // 2])
            fh.flush()
            os.fsync(fh.fileno())
            (out / "writing").write_text(str(path))  # tell the parent: mid-write now
            while True:  # the parent kills us here, inside the write
                time.sleep(0.01)

        sweep.atomic_write(path, half_then_hang)

    sweep.atomic_write_text = slow_atomic_write_text

    def cell(x):
        with open(log, "a") as fh:
            fh.write(f"{x}\\n")
        return {"y": x * x, "pad": "z" * 2000}

    df = sweep.run_sweep(cell, [{"x": x} for x in range(6)], study="k", checkpoint_dir=out)
    print(df["y"].tolist())
    """
)


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_a_kill_during_a_cell_write_loses_no_finished_cell(tmp_path):
    script = tmp_path / "sweep.py"
    script.write_text(KILL_SCRIPT)
    out, log = tmp_path / "ckpt", tmp_path / "calls.log"
    out.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, str(script), str(out), str(log), "4"], env=env)
    marker = out / "writing"
    deadline = time.time() + 600  # a hang guard: importing torch alone can take 30 s
    while not marker.exists() and time.time() < deadline and proc.poll() is None:
        time.sleep(0.02)
    assert marker.exists(), "the sweep never reached the fourth write"
    time.sleep(0.05)  # the marker's own write is complete
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    hung = os.path.basename(marker.read_text())
    folder = out / "k"
    cells = sorted(p.name for p in folder.glob("*.json"))
    # Three finished cells, whole; the one being written is not there under its name.
    assert len(cells) == 3 and hung not in cells
    for name in cells:
        stored = json.loads((folder / name).read_text())
        assert stored["payload"]["result"]["y"] in {0, 1, 4, 9, 16, 25}
    # Only the temporary file of the interrupted write is left over.
    leftovers = [p.name for p in folder.iterdir() if not p.name.endswith(".json")]
    assert len(leftovers) == 1 and leftovers[0].startswith(f".{hung}.")
    first = log.read_text().split()
    assert first == ["0", "1", "2", "3"]  # the fourth cell was computed, not stored
    # The rerun recomputes only the cells without a finished file.
    rerun = subprocess.run([sys.executable, str(script), str(out), str(log), "0"],
                           capture_output=True, text=True, env=env, timeout=600)
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    assert rerun.stdout.strip() == str([x * x for x in range(6)])
    assert log.read_text().split()[len(first):] == ["3", "4", "5"]
    assert len(list(folder.glob("*.json"))) == 6


# -- finite parameters -------------------------------------------------------------

ESTIMATORS = [skxor.BooleanTransformerClassifier, skxor.FFNNParityBaseline,
              skxor.KParityTransformer, skxor.SparseXORTransformer]


def _real_params(cls):
    return [name for name, cons in cls._parameter_constraints.items()
            if any(c is Real or (isinstance(c, Interval) and c.type is Real) for c in cons)]


CASES = [(cls, name) for cls in ESTIMATORS for name in _real_params(cls)]


def test_every_estimator_has_its_float_parameters_listed():
    names = {(cls.__name__, name) for cls, name in CASES}
    assert ("SparseXORTransformer", "step_length") in names
    assert ("SparseXORTransformer", "binarize") in names
    assert ("FFNNParityBaseline", "tol") in names
    for cls in ESTIMATORS:
        assert real_parameters(cls()) == _real_params(cls)


@pytest.fixture(scope="module")
def data():
    return make_sparse_parity(64, 5, support=[0, 1], random_state=0)


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, np.float32("inf"), 10**400],
                         ids=["inf", "-inf", "nan", "float32-inf", "10**400"])
@pytest.mark.parametrize("cls, name", CASES, ids=[f"{c.__name__}.{n}" for c, n in CASES])
def test_non_finite_float_parameters_are_refused_by_name(cls, name, value, data):
    X, y = data
    clf = cls(**{name: value})
    with pytest.raises(ValueError, match=name):
        clf.fit(X, y)
    assert not hasattr(clf, "classes_")


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, 10**400],
                         ids=["inf", "-inf", "nan", "10**400"])
def test_profiler_refuses_a_non_finite_binarize(value, data):
    X, y = data
    profiler = skxor.SensitivityProfiler(skxor.SparseXORTransformer(random_state=0),
                                         binarize=value)
    with pytest.raises(ValueError, match="binarize must be a finite threshold"):
        profiler.fit(X, y)


def test_binarize_inf_would_be_a_constant_classifier():
    # Why the check matters: X > inf is never true, every string maps to bit 0.
    clf = skxor.SparseXORTransformer(binarize=math.inf)
    with pytest.raises(ValueError, match=r"binarize must be a finite threshold or None"):
        clf.fit(*make_sparse_parity(64, 5, support=[0, 1], random_state=0))


class _Params:
    binarize = None
    rate = "normalized"
    step = 0.5
    big = 10**400


def test_check_finite_params_itself():
    check_finite_params(_Params(), ["binarize", "rate", "step"])  # None, a string, a float
    for bad in (math.inf, -math.inf, math.nan):
        p = _Params()
        p.step = bad
        with pytest.raises(ValueError, match=r"^step must be finite \(within float range\)"):
            check_finite_params(p, ["step"])
        p.binarize = bad
        with pytest.raises(ValueError, match="binarize must be a finite threshold or None"):
            check_finite_params(p, ["binarize"])
    with pytest.raises(ValueError, match="big"):
        check_finite_params(_Params(), ["big"])
