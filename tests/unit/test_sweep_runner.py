"""Unit tests of the sweep's checkpoints and the runner's merging, report and timing.

Fast cases on the one_step study at tiny sizes (about a second each) and on
the pure helpers: what a table, a report and a checkpoint hold after each
kind of run, and what is kept, set aside or warned about.
"""

import json
import os

import numpy as np
import pandas as pd
import pytest

from skxor._utils._files import prepare_out_dir
from skxor.studies import get_study, run_studies, run_sweep
from skxor.studies._runner import (
    STATE_DIR,
    _backfill_setting,
    _canonical,
    _format_overrides,
    _load_state,
    _run_timing,
    _stored_studies,
    describe_setting,
    format_timing,
    merge_tables,
    split_settings,
    study_floor,
)
from skxor.studies._sweep import (
    _cell_key,
    _check_cell,
    _checksum,
    connect,
    read_cell,
    write_cell,
)

TINY = {"d": [30], "m": [8], "seeds": 1, "n_test": 100, "step_length": [100.0], "n_steps": [1]}


def double(x):
    return {"y": 2 * x}


def not_a_dict(x):
    return [x]


# -- the sweep -----------------------------------------------------------------------


def test_cell_keys_depend_on_study_function_and_every_parameter():
    key, ident = _cell_key("s", double, {"x": 1})
    assert ident == {"study": "s", "cell": "double", "version": 1, "params": {"x": 1}}
    assert len(key) == 24
    others = {_cell_key("t", double, {"x": 1})[0], _cell_key("s", not_a_dict, {"x": 1})[0],
              _cell_key("s", double, {"x": 2})[0], _cell_key("s", double, {"x": 1, "z": 0})[0]}
    assert key not in others and len(others) == 4
    # Key order does not matter.
    assert _cell_key("s", double, {"a": 1, "b": 2})[0] == _cell_key("s", double, {"b": 2, "a": 1})[0]


def test_bad_cells_are_refused_by_index():
    with pytest.raises(TypeError, match="cell 3 must be a dict"):
        _check_cell([1], 3)
    with pytest.raises(TypeError, match="cell 0 has parameters that are not JSON"):
        _check_cell({"x": object()}, 0)
    with pytest.raises(TypeError, match="must return a dict of results"):
        run_sweep(not_a_dict, [{"x": 1}], study="s")


def test_checkpoint_round_trip_and_every_kind_of_bad_file(tmp_path):
    key, ident = _cell_key("s", double, {"x": 1})
    path = tmp_path / f"{key}.json"
    assert read_cell(path, ident) is None  # absent: no warning
    write_cell(path, ident, {"y": 2, "nan": None})
    assert read_cell(path, ident) == {"y": 2, "nan": None}
    stored = json.loads(path.read_text())
    assert stored["sha256"] == _checksum(stored["payload"])
    # Another cell's identity, a tampered payload, a truncated file, not JSON.
    other = _cell_key("s", double, {"x": 2})[1]
    tampered = dict(stored, payload=dict(stored["payload"], result={"y": 3}))
    for content, reader_ident in [
        (path.read_text(), other),
        (json.dumps(tampered), ident),
        (path.read_text()[:-20], ident),
        ("[]", ident),
        ('{"payload": {}}', ident),
    ]:
        path.write_text(content)
        with pytest.warns(RuntimeWarning, match="partial, corrupt, unreadable"):
            assert read_cell(path, reader_ident) is None


def test_sweep_without_checkpoints_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    df = run_sweep(double, [{"x": 1}, {"x": 2}], study="s")
    assert df.to_dict("list") == {"x": [1, 2], "y": [2, 4]}
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_checkpoint_keeps_the_result_with_a_warning(tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    key, _ = _cell_key("s", double, {"x": 5})
    (folder / f"{key}.json").mkdir()  # a folder where the file should go
    with pytest.warns(RuntimeWarning) as caught:
        df = run_sweep(double, [{"x": 5}], study="s", checkpoint_dir=tmp_path)
    assert df["y"].tolist() == [10]
    assert any("Could not write checkpoint" in str(w.message) for w in caught)


def test_finite_or_none():
    from skxor.papers.kover._networks import finite_or_none

    assert finite_or_none(np.float32(1.5)) == 1.5
    assert finite_or_none(float("nan")) is None
    assert finite_or_none(-np.inf) is None
    assert finite_or_none(3) == 3.0


def test_connect_names_a_bad_scheduler_address():
    pytest.importorskip("distributed")
    with pytest.raises(ConnectionError, match="scheduler='not an address'") as caught:
        connect("not an address", timeout=0.5)
    assert str(caught.value).endswith(
        "give the address of a running scheduler, for example tcp://127.0.0.1:8786.")


@pytest.fixture
def waits(monkeypatch):
    """The waits connect makes (seconds): what bounds it, read without a clock."""
    import skxor.studies._sweep as sweep

    seen, wait = [], sweep._wait

    def recorded(thread, seconds):
        seen.append(seconds)
        wait(thread, seconds)

    monkeypatch.setattr(sweep, "_wait", recorded)
    return seen


def test_connect_gives_up_on_a_server_that_never_answers(waits):
    # A loopback socket that accepts the TCP connection and stays silent:
    # distributed's own timeout never fires there, and connect used to block.
    pytest.importorskip("distributed")
    import socket
    import threading

    from skxor.studies._sweep import _CONNECT_GRACE

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    server.settimeout(30)
    accepted = []

    def accept():
        try:
            while len(accepted) < 4:
                accepted.append(server.accept()[0])
        except OSError:  # closed, or nobody came within 30 s
            pass

    threading.Thread(target=accept, daemon=True).start()
    try:
        with pytest.raises(ConnectionError, match="accepted the connection but did not answer"):
            connect(f"tcp://127.0.0.1:{server.getsockname()[1]}", timeout=1)
    finally:
        server.close()
        for conn in accepted:
            conn.close()
    assert waits == [1 + _CONNECT_GRACE]  # one bounded wait, then the error


def test_connect_gives_up_after_its_timeout(waits):
    pytest.importorskip("distributed")
    from skxor.studies._sweep import _CONNECT_GRACE

    with pytest.raises(ConnectionError, match="no dask.distributed scheduler answered within 1 s"):
        connect("tcp://127.0.0.1:9", timeout=1)  # nothing listens on the discard port
    assert waits == [1 + _CONNECT_GRACE]  # not dask's own default of 30 s


# -- the output folder ---------------------------------------------------------------


def test_prepare_out_dir_creates_and_refuses_a_file(tmp_path):
    made = prepare_out_dir(tmp_path / "a" / "b")
    assert made.is_dir() and list(made.iterdir()) == []  # the write probe is removed
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match=r"--out '.*file' is an existing file"):
        prepare_out_dir(tmp_path / "file", name="--out")
    below = tmp_path / "file" / "below"
    with pytest.raises(ValueError) as caught:
        prepare_out_dir(below)
    assert str(caught.value) == (f"out_dir {str(below)!r}: cannot create or write this folder "
                                 "(Not a directory); give a writable folder.")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="file permissions do not bind root")
def test_prepare_out_dir_probes_the_folder_itself(tmp_path):
    folder = tmp_path / "read_only"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(ValueError, match="cannot create or write this folder"):
            prepare_out_dir(folder)
    finally:
        folder.chmod(0o700)


# -- pure helpers of the runner ------------------------------------------------------


def test_canonical_settings_read_alike():
    assert _canonical([20.0, 10, 20]) == [10, 20]
    assert _canonical(np.int64(3)) == 3 and isinstance(_canonical(np.int64(3)), int)
    assert _canonical(2.5) == 2.5 and _canonical(np.bool_(True)) is True
    assert _canonical(None) is None and _canonical("a") == "a"
    assert _canonical(1e300) == 1e300 and isinstance(_canonical(1e300), float)
    assert _canonical(["b", "a"]) == ["b", "a"]  # words keep their order
    assert _canonical({1}) == "{1}"


def test_describe_setting_and_split_settings():
    assert describe_setting('{"a": 1, "b": [2, 3]}') == "a=1, b=[2, 3]"
    assert describe_setting("{}") == "-"
    assert describe_setting("not json") == "not json"
    assert describe_setting("[1]") == "[1]"
    table = pd.DataFrame({"d": [1, 2, 3], "setting": ["a", "b", "a"]})
    table.attrs["k"] = 1
    parts = split_settings(table, latest="b")
    assert [(s, r["d"].tolist(), r.attrs) for s, r in parts] == [
        ("b", [2], {"k": 1}), ("a", [1, 3], {})]
    assert split_settings(pd.DataFrame({"d": [1]}))[0][0] is None
    assert split_settings(table, latest="zzz")[0][0] == "a"  # an absent latest is skipped


def test_merge_tables_replaces_only_the_same_key(tmp_path):
    path = tmp_path / "t.csv"
    new = pd.DataFrame({"k": [1, 2], "v": [10.0, 20.0]})
    new.attrs["floor_seconds"] = 1.0
    table, replaced = merge_tables(path, new, ["k"])
    assert table is new and replaced == 0
    pd.DataFrame({"k": [0, 1], "v": [0.5, 1.5]}).to_csv(path, index=False)
    table, replaced = merge_tables(path, new, ["k"])
    assert replaced == 1
    assert table.to_dict("list") == {"k": [0, 1, 2], "v": [0.5, 10.0, 20.0]}
    assert table.attrs == {"floor_seconds": 1.0}


@pytest.mark.parametrize("stored, why", [
    ("k,other\n1,2\n", "has no column"),
    ("", "could not be read"),
])
def test_merge_tables_sets_aside_what_it_cannot_merge(tmp_path, stored, why):
    path = tmp_path / "t.csv"
    path.write_text(stored)
    new = pd.DataFrame({"k": [1], "v": [1.0]})
    with pytest.warns(RuntimeWarning, match=why):
        table, replaced = merge_tables(path, new, ["k", "v"])
    assert table is new and replaced == 0
    assert not path.exists()  # moved aside, not deleted
    (kept,) = list(tmp_path.iterdir())
    assert kept.name.startswith("t.") and kept.read_text() == stored


def test_study_floor_and_format_timing():
    table = pd.DataFrame({"x": [1]})
    for bad in (0, -1.0, float("nan"), "soon", float("inf")):
        table.attrs = {"floor_seconds": bad}
        with pytest.warns(RuntimeWarning, match="floor_seconds must be a finite number > 0"):
            assert study_floor(table) == (None, None)
    table.attrs = {"floor_seconds": "2", "floor_description": "  a\n  b  "}
    assert study_floor(table) == (2.0, "a b")
    table.attrs = {"floor_seconds": 1.0}
    assert study_floor(table) == (1.0, "no description")
    assert format_timing(10.0, 5.0, "w", loaded_cells=3, computed_cells=2) == (
        "wall time 10.0 s, floor 5 s (w); 3 cells read from checkpoints, so no ratio "
        "(the floor may include their stored times)")
    assert _run_timing({}) == ""
    assert _run_timing({"seconds": 2.0, "floor_seconds": 1.0, "floor_description": "f"}) == (
        "wall time 2.0 s, floor 1 s (f), ratio 2.00x")
    assert _format_overrides({}) == "none"
    assert _format_overrides({"d": [1, 2]}) == "d=[1, 2]"


def test_load_state_and_stored_studies(tmp_path):
    assert _load_state(tmp_path / "missing.json") == {"runs": [], "section": ""}
    (tmp_path / "bad.json").write_text("{")
    assert _load_state(tmp_path / "bad.json") == {"runs": [], "section": ""}
    (tmp_path / "one_step.json").write_text("{}")
    (tmp_path / "a_custom.json").write_text("{}")
    # Registered studies first, then others by name.
    assert _stored_studies(tmp_path) == ["one_step", "a_custom", "bad"]


def test_backfill_setting_only_when_every_setting_column_is_there(tmp_path):
    study = get_study("one_step")
    path = tmp_path / "one_step.csv"
    names = list(study.setting)
    pd.DataFrame({n: [1.0, 2.0] for n in names} | {"x": [0, 1]}).to_csv(path, index=False)
    _backfill_setting(path, study)
    settings = pd.read_csv(path)["setting"].tolist()
    assert [json.loads(s) for s in settings] == [{n: 1 for n in names}, {n: 2 for n in names}]
    before = "x\n1\n"
    path.write_text(before)  # a setting column missing: left alone
    _backfill_setting(path, study)
    assert path.read_text() == before
    _backfill_setting(tmp_path / "absent.csv", study)  # nothing to do


# -- whole runs of a tiny study ------------------------------------------------------


def test_runs_merge_by_setting_and_rebuild_the_report(tmp_path):
    lines = []
    first = run_studies(["one_step"], out_dir=tmp_path, overrides={"one_step": TINY},
                        progress=False, echo=lines.append)
    assert len(first["one_step"]) == 3
    table = pd.read_csv(tmp_path / "one_step.csv")
    assert len(table) == 3 and table["setting"].nunique() == 1
    assert sorted(p.name for p in tmp_path.glob("*.png"))  # figures were written
    report = (tmp_path / "report.md").read_text()
    assert report.startswith("# skxor results") and "| one_step | quick |" in report
    assert "3 rows; latest run: quick preset" in report
    # The same run again: its rows replace themselves, reused from checkpoints.
    run_studies(["one_step"], out_dir=tmp_path, overrides={"one_step": TINY},
                progress=False, echo=lines.append)
    assert "replacing 3 earlier row(s)" in lines[-1]
    assert "all 3 cells read from checkpoints" in lines[-1]
    assert len(pd.read_csv(tmp_path / "one_step.csv")) == 3
    # Another setting (n_test) is kept beside it and analysed on its own.
    run_studies(["one_step"], out_dir=tmp_path,
                overrides={"one_step": dict(TINY, n_test=120)}, progress=False,
                echo=lines.append)
    table = pd.read_csv(tmp_path / "one_step.csv")
    assert len(table) == 6 and table["setting"].nunique() == 2
    assert "2 settings, each analysed on its own" in lines[-1]
    report = (tmp_path / "report.md").read_text()
    assert "(the latest run's setting, 1 of 2)" in report
    assert "(an earlier run's setting, 2 of 2)" in report
    assert '"n_test": 120' in report
    state = json.loads((tmp_path / STATE_DIR / "one_step.json").read_text())
    assert [r["rows"] for r in state["runs"]] == [3, 3, 3]
    assert [r["loaded_cells"] for r in state["runs"]] == [0, 3, 0]
    assert not [p for p in tmp_path.rglob("*.tmp")]


def test_an_old_report_without_sections_is_set_aside(tmp_path):
    (tmp_path / "report.md").write_text("old report\n")
    with pytest.warns(RuntimeWarning, match="was written without per-study sections"):
        run_studies(["one_step"], out_dir=tmp_path, overrides={"one_step": TINY},
                    progress=False, echo=None)
    kept = [p for p in tmp_path.glob("report.*.md")]
    assert len(kept) == 1 and kept[0].read_text() == "old report\n"
    assert (tmp_path / "report.md").read_text().startswith("# skxor results")


def test_bad_parameters_stop_before_any_work(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(ValueError):
        run_studies(["one_step"], out_dir=out, overrides={"one_step": {"d": [-5]}},
                    progress=False, echo=None)
    assert list(out.iterdir()) == []
    with pytest.raises(ValueError):
        run_studies(["no_such_study"], out_dir=out, progress=False, echo=None)


def test_prepare_out_dir_writes_its_probe_inside_the_folder(tmp_path, monkeypatch):
    # (Root ignores permissions: see where the probe goes instead.)
    import tempfile

    seen = []
    real = tempfile.mkstemp

    def spy(*args, **kwargs):
        fd, name = real(*args, **kwargs)
        seen.append(name)
        return fd, name

    monkeypatch.setattr(tempfile, "mkstemp", spy)
    folder = prepare_out_dir(tmp_path / "out")
    assert len(seen) == 1 and os.path.dirname(seen[0]) == str(folder)
    assert not os.path.exists(seen[0])


def test_connect_without_dask_says_what_to_install(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if absent
    with pytest.raises(ImportError, match=r"^scheduler=\.\.\. needs dask\.distributed: "
                                          r"pip install 'skxor\[dask\]'$"):
        connect("tcp://127.0.0.1:8786")


def test_atomic_write_puts_its_temporary_file_next_to_the_target(tmp_path, monkeypatch):
    import tempfile

    from skxor.studies._sweep import atomic_write_text

    calls = []
    real = tempfile.mkstemp

    def spy(*args, **kwargs):
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", spy)
    atomic_write_text(tmp_path / "table.csv", "x\n")
    # Same folder (so the rename is atomic), hidden, named after the target.
    assert calls == [{"dir": tmp_path, "prefix": ".table.csv.", "suffix": ".tmp"}]


def test_cells_store_their_format_and_non_finite_results(tmp_path):
    from skxor.studies._sweep import FORMAT_VERSION

    key, ident = _cell_key("s", double, {"x": 1})
    path = tmp_path / f"{key}.json"
    write_cell(path, ident, {"y": float("nan"), "z": float("inf")})
    assert json.loads(path.read_text())["payload"]["format"] == FORMAT_VERSION
    got = read_cell(path, ident)
    assert np.isnan(got["y"]) and got["z"] == float("inf")
    path.write_text("{")
    with pytest.warns(RuntimeWarning, match=r"is partial, corrupt, unreadable or for other "
                                            r"parameters; recomputing that cell\.$"):
        read_cell(path, ident)


def test_messages_name_the_offending_type():
    with pytest.raises(TypeError, match=r"^cell 0 must be a dict of parameters; got list\.$"):
        run_sweep(double, [[1]], study="s")
    with pytest.raises(TypeError, match=r"not_a_dict must return a dict of results; got list\.$"):
        run_sweep(not_a_dict, [{"x": 1}], study="s")


def test_an_unwritable_checkpoint_warning_is_a_runtime_warning(tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    key, _ = _cell_key("s", double, {"x": 6})
    (folder / f"{key}.json").mkdir()
    import warnings as _warnings

    with _warnings.catch_warnings(record=True) as caught:
        _warnings.simplefilter("always")
        run_sweep(double, [{"x": 6}], study="s", checkpoint_dir=tmp_path)
    stores = [w for w in caught if "Could not write checkpoint" in str(w.message)]
    assert len(stores) == 1 and issubclass(stores[0].category, RuntimeWarning)
    assert str(stores[0].message).endswith(
        "(Is a directory); the result is kept for this run only.")


class _Bar:
    made = []

    def __init__(self, **kwargs):
        self.kwargs, self.updates, self.closed = kwargs, 0, False
        _Bar.made.append(self)

    def update(self, n):
        self.updates += n

    def close(self):
        self.closed = True


def test_progress_bar_only_when_asked_and_counting_reused_cells(tmp_path, monkeypatch):
    import tqdm.auto

    monkeypatch.setattr(tqdm.auto, "tqdm", _Bar)
    _Bar.made.clear()
    run_sweep(double, [{"x": 1}, {"x": 2}], study="bar", checkpoint_dir=tmp_path)
    assert _Bar.made == []  # progress=False by default
    run_sweep(double, [{"x": 1}, {"x": 2}, {"x": 3}], study="bar", checkpoint_dir=tmp_path,
              progress=True)
    (bar,) = _Bar.made
    assert bar.kwargs == {"total": 3, "initial": 2, "desc": "bar", "unit": "cell",
                          "disable": None}
    assert bar.updates == 1 and bar.closed


def test_report_starts_with_its_answer_embeds_figures_and_defines_terms_once(tmp_path):
    """Issue 37.3: report.md opens with a summary (headline and verdicts per study),
    shows its figures as images beside it, folds long tables and has a glossary."""
    import re

    from skxor.studies import run_studies
    from skxor.studies._page import COLLAPSE_ROWS, GLOSSARY

    tiny = {"one_step": {"d": [20, 30, 40, 50], "m": [4, 8, 16], "seeds": 2, "n_test": 100,
                         "step_length": [100.0], "n_steps": [1]}}
    run_studies(["one_step"], out_dir=tmp_path, overrides=tiny, echo=None, progress=False)
    report = (tmp_path / "report.md").read_text()
    sections = re.findall(r"^## (.+)$", report, flags=re.M)
    assert sections[0] == "Summary" and sections[-1] == "Glossary"
    summary = report.split("## Summary")[1].split("\n## ")[0]
    assert "* **one_step** (verdicts: H1 " in summary
    assert "**Gradient steps, softmax vs linear vs erf" in summary  # the headline bullet
    images = re.findall(r"!\[[^]]*\]\(([^)]+)\)", report)
    assert images and all((tmp_path / image).is_file() for image in images)
    assert {f"one_step_{n}.png" for n in ("success", "step_length")} <= set(images)
    # Every table of more than COLLAPSE_ROWS rows sits in a <details> block.
    inside = False
    rows = 0
    for line in report.split("\n") + [""]:
        if line.startswith("<details>"):
            inside = True
        elif line.startswith("</details>"):
            inside = False
        if line.startswith("|"):
            rows += 1
        else:
            assert rows - 2 <= COLLAPSE_ROWS or was_inside, "a long table left open"
            rows = 0
        was_inside = inside
    assert "<details>" in report
    for term, _ in GLOSSARY:
        assert report.count(f"* **{term}**:") == 1


def numpy_results(x):
    return {"count": np.int64(x), "won": np.bool_(x > 1), "share": np.float32(0.5),
            "mean": np.float64(x / 3), "counts": [np.int64(x), np.int32(2)],
            "array": np.arange(2) * x, "pair": (np.uint8(x), 1.5)}


def test_numpy_results_give_the_same_table_with_and_without_checkpoints(tmp_path,
                                                                         monkeypatch):
    # numpy ints and bools worked in memory and failed with checkpoints
    # (TypeError: Object of type bool is not JSON serializable).
    import skxor.studies._sweep as sweep

    cells = [{"x": 1}, {"x": 2}]
    memory = run_sweep(numpy_results, cells, study="np")
    written = run_sweep(numpy_results, cells, study="np", checkpoint_dir=tmp_path)
    monkeypatch.setattr(sweep, "_run_cell", None)  # every cell must now be read back
    read = run_sweep(numpy_results, cells, study="np", checkpoint_dir=tmp_path)
    for table in (written, read):
        pd.testing.assert_frame_equal(table, memory)
    # Stored as their Python values: what JSON reads back.
    row = memory.iloc[1].to_dict()
    assert row == {"x": 2, "count": 2, "won": True, "share": 0.5, "mean": 2 / 3,
                   "counts": [2, 2], "array": [0, 2], "pair": [2, 1.5]}
    assert [type(row[k]) for k in ("count", "won", "share")] == [int, bool, float]


def test_a_result_json_cannot_store_is_refused_on_every_path(tmp_path):
    for folder in (None, tmp_path):
        with pytest.raises(TypeError, match=r"unstorable returned a result JSON cannot store "
                                            r"\('when'"):
            run_sweep(unstorable, [{"x": 1}], study="s", checkpoint_dir=folder)


def unstorable(x):
    return {"when": object()}
