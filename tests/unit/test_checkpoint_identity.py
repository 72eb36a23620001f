"""A checkpoint's identity is explicit (issue 33.4), and reusing one written by
since-edited code is said, naming the cell (issue 34.6)."""

import importlib.util
import json
import warnings

import pytest

from skxor.studies import cell_version, run_sweep
from skxor.studies._sweep import FORMAT_VERSION, _cell_key, _checksum, _legacy_keys

CALLS = []


def counted(x):
    CALLS.append(x)
    return {"y": x + 1}


def _module(tmp_path, folder, body):
    """A module ``edited_cells`` holding ``body``, loaded from ``tmp_path / folder``."""
    path = tmp_path / folder / "edited_cells.py"
    path.parent.mkdir()
    path.write_text(body)
    spec = importlib.util.spec_from_file_location("edited_cells", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_moving_a_cell_function_keeps_its_checkpoints(tmp_path):
    # Old key: the function's import path, so a cell moved to another module
    # (as when the studies became packages) recomputed every cell unless its
    # __module__ was rebound by hand.
    CALLS.clear()
    run_sweep(counted, [{"x": 1}, {"x": 2}], study="s", checkpoint_dir=tmp_path)
    assert CALLS == [1, 2]
    module = counted.__module__
    try:
        counted.__module__ = "somewhere.else"
        df = run_sweep(counted, [{"x": 1}, {"x": 2}], study="s", checkpoint_dir=tmp_path)
    finally:
        counted.__module__ = module
    assert CALLS == [1, 2] and df["y"].tolist() == [2, 3]


def test_an_edited_cell_warns_naming_it_and_a_new_version_recomputes(tmp_path):
    # Old sweep: a changed cell body kept its old values with no word
    # ("all cells read from checkpoints").
    before = _module(tmp_path, "a", "def cell(x):\n    return {'y': x}\n")
    after = _module(tmp_path, "b", "def cell(x):\n    return {'y': 2 * x}\n")
    cells = [{"x": 1}, {"x": 2}, {"x": 3}]
    run_sweep(before.cell, cells, study="s", checkpoint_dir=tmp_path / "out")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the same code: no warning
        run_sweep(before.cell, cells, study="s", checkpoint_dir=tmp_path / "out")
    with pytest.warns(RuntimeWarning) as caught:
        stale = run_sweep(after.cell, cells, study="s", checkpoint_dir=tmp_path / "out")
    message = str(caught[0].message)
    assert "study 's': the code of cell cell changed since 3 of its checkpoints" in message
    assert "cell_version(2)" in message
    assert stale["y"].tolist() == [1, 2, 3]  # reused as they are, as the warning says
    # The deliberate override: a new version is a new key, computed afresh.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fresh = run_sweep(cell_version(2)(after.cell), cells, study="s",
                          checkpoint_dir=tmp_path / "out")
    assert fresh["y"].tolist() == [2, 4, 6]
    assert _cell_key("s", after.cell, {"x": 1})[1]["version"] == 2


def test_checkpoints_of_the_first_format_are_found_and_moved_once(tmp_path):
    CALLS.clear()
    folder = tmp_path / "s"
    folder.mkdir()
    (old_key, old_ident), *_ = _legacy_keys("s", counted, {"x": 7})
    assert old_ident["function"] == f"{__name__}.counted"
    payload = {"format": 1, "cell": old_ident, "result": {"y": 99}}
    (folder / f"{old_key}.json").write_text(
        json.dumps({"payload": payload, "sha256": _checksum(payload)}))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # its code is not known: no warning
        df = run_sweep(counted, [{"x": 7}], study="s", checkpoint_dir=tmp_path)
    assert df["y"].tolist() == [99] and CALLS == []
    new_key, new_ident = _cell_key("s", counted, {"x": 7})
    assert sorted(p.name for p in folder.iterdir()) == [f"{new_key}.json"]
    stored = json.loads((folder / f"{new_key}.json").read_text())["payload"]
    assert stored["format"] == FORMAT_VERSION and stored["cell"] == new_ident
    assert stored["result"] == {"y": 99} and stored["code"] is None
    # A new version of the cell does not read first-format checkpoints.
    assert _legacy_keys("s", cell_version(2)(lambda x: {}), {"x": 7}) == []


def test_the_library_cells_keep_their_own_modules():
    # Old packages: seven `cell.__module__ = __name__` rebindings.
    from skxor.studies import STUDIES

    for study in STUDIES.values():
        assert study.cell.__module__.endswith("._cells"), study.name


@pytest.mark.parametrize("version", [0, 1.5, True, "2"])
def test_a_bad_cell_version_is_refused(version):
    with pytest.raises(ValueError, match="a cell's version must be an int of at least 1"):
        cell_version(version)


def test_a_cell_that_moved_still_finds_its_first_format_checkpoints():
    # The papers' studies moved from skxor.studies to skxor.papers: a first-format
    # checkpoint is keyed by the import path the cell had when it was written.
    from skxor.studies import cell_version
    from skxor.studies._sweep import _hashed, _legacy_keys

    def square(x):
        return {"y": x * x}

    old = _hashed({"study": "demo", "function": f"old.place._cells.{square.__qualname__}",
                   "params": {"x": 2}})[0]
    assert old not in [k for k, _ in _legacy_keys("demo", square, {"x": 2})]
    cell_version(1, formerly="old.place._cells")(square)
    assert old in [k for k, _ in _legacy_keys("demo", square, {"x": 2})]
    with pytest.raises(ValueError, match="formerly must name modules"):
        cell_version(1, formerly=[""])
