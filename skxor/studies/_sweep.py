"""Checkpointed parameter sweeps run through joblib (locally or on dask).

Each finished cell is written as its own JSON file, atomically (write to a
temporary file, fsync, rename), the moment its result reaches the parent
process. A cell's file name is a hash of the study name, the cell function's
name, its explicit version (:func:`cell_version`) and the full parameter set,
so changed parameters never reuse stale results, and moving a cell function
to another module loses nothing. Each file also holds a hash of the cell
function's source: a run that reuses checkpoints written by other code warns,
naming the cell (bump its version to recompute them). Checkpoints of the
first format (keyed by the function's import path) are found and rewritten
under the new key once.
Every file carries a checksum of its payload; a truncated, corrupt or
mismatched file is reported and recomputed, never read silently; so is a
checkpoint path that is a folder or cannot be read (and a result that cannot
be stored is kept in memory, with a warning). A sweep
killed at any point (even with SIGKILL) resumes on rerun without redoing or
losing finished cells.
"""

import contextlib
import hashlib
import inspect
import json
import os
import tempfile
import textwrap
import threading
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from joblib import Parallel, delayed, effective_n_jobs, parallel_config

from .._utils._files import new_file_mode
from ._floor import add_backend, add_floor, add_loaded, cell_floor
from .._utils._warnings import SkxorRuntimeWarning

FORMAT_VERSION = 2


def _canonical(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=True)


def cell_version(version, *, formerly=()):
    """Give a cell function an explicit version: part of its checkpoints' key.

    A cell's checkpoints are found by the study's name, the cell function's
    name, this version (1 unless given) and the cell's parameters. Bump the
    version when a change to the cell's code changes its results: checkpoints
    written by the earlier version are then not reused. A change that does not
    (a comment, a faster path) keeps the version, and a run that reuses
    checkpoints written by other code says so, naming the cell.

    Parameters
    ----------
    version : int
        At least 1.
    formerly : str or sequence of str, default=()
        Modules the cell function lived in before it moved: checkpoints of
        the first format, keyed by the function's import path, written
        while it lived there are still found (the papers' studies moved
        from ``skxor.studies`` to ``skxor.papers``).

    Returns
    -------
    mark : callable
        A decorator returning the cell function itself, marked.

    Examples
    --------
    >>> from skxor.studies import cell_version, run_sweep
    >>> @cell_version(2)
    ... def square(x):
    ...     return {"y": x * x}
    >>> square.skxor_cell_version, run_sweep(square, [{"x": 3}], study="demo")["y"].tolist()
    (2, [9])
    """
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ValueError(f"a cell's version must be an int of at least 1; got {version!r}.")

    formerly = (formerly,) if isinstance(formerly, str) else tuple(formerly)
    if not all(isinstance(module, str) and module for module in formerly):
        raise ValueError(f"formerly must name modules (str); got {formerly!r}.")

    def mark(cell_fn):
        cell_fn.skxor_cell_version = version
        cell_fn.skxor_former_modules = formerly
        return cell_fn

    return mark


def cell_version_of(cell_fn):
    """The explicit version :func:`cell_version` gave ``cell_fn`` (1 when none)."""
    return getattr(cell_fn, "skxor_cell_version", 1)


def _hashed(ident):
    return hashlib.sha256(_canonical(ident).encode()).hexdigest()[:24], ident


def _cell_key(study, cell_fn, params):
    """The cell's checkpoint key and identity: study, cell name, version, parameters."""
    return _hashed({"study": study, "cell": cell_fn.__name__,
                    "version": cell_version_of(cell_fn),
                    "params": params})


def _legacy_keys(study, cell_fn, params):
    """The keys the first format gave this cell: its study, its function's import path
    and its parameters. The import path was the function's module, or the study
    package it was rebound to (``cell.__module__ = __name__``) when the studies
    became packages; only version 1 of a cell can have such checkpoints."""
    if cell_version_of(cell_fn) != 1:
        return []
    modules = (cell_fn.__module__, *getattr(cell_fn, "skxor_former_modules", ()))
    paths = dict.fromkeys(path for module in modules for path in (module, module.rsplit(".", 1)[0]))
    return [_hashed({"study": study, "function": f"{path}.{cell_fn.__qualname__}",
                     "params": params}) for path in paths]


def code_hash(cell_fn):
    """A hash of a cell function's source (of its bytecode where the source is not
    available), stored beside its checkpoints; None when neither is."""
    try:
        text = textwrap.dedent(inspect.getsource(cell_fn))
    except (OSError, TypeError):
        code = getattr(cell_fn, "__code__", None)
        if code is None:
            return None
        text = code.co_code.hex()
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _checksum(payload):
    return hashlib.sha256(_canonical(payload).encode()).hexdigest()


def _check_cell(params, index):
    if not isinstance(params, dict):
        raise TypeError(f"cell {index} must be a dict of parameters; got {type(params).__name__}.")
    try:
        _canonical(params)
    except TypeError as exc:
        raise TypeError(f"cell {index} has parameters that are not JSON-serialisable: {exc}") from exc


def atomic_write(path, write, mode="w"):
    """Write ``path`` through ``write(fh)`` to a unique temporary file, then rename it.

    The file is flushed to disk before the rename, so ``path`` is either its
    old content or the whole new one, never a part (even after SIGKILL); the
    temporary file is removed if writing fails.
    """
    tmp = write_temporary(path, write, mode)
    with _removed_on_failure(tmp):
        os.replace(tmp, path)


@contextlib.contextmanager
def _removed_on_failure(tmp):
    """Remove the temporary file ``tmp`` when the block fails, and re-raise."""
    try:
        yield
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_temporary(path, write, mode="w"):
    """Write ``write(fh)``'s content, flushed to disk, to a unique temporary file beside
    ``path``, and return its path (renaming it onto ``path`` is the caller's); the
    temporary file is removed if writing fails."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with _removed_on_failure(tmp):
        os.chmod(fd, new_file_mode())  # mkstemp's 0600 would make results private
        with os.fdopen(fd, mode) as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
    return Path(tmp)


def atomic_write_text(path, text):
    """Atomically write the string ``text`` to ``path`` (see :func:`atomic_write`)."""
    atomic_write(path, lambda fh: fh.write(text))


def write_cell(path, ident, result, code=None):
    """Atomically write one finished cell (payload plus checksum) to ``path``.

    ``code`` is the :func:`code_hash` of the function that computed it (None:
    not known).
    """
    payload = {"format": FORMAT_VERSION, "cell": ident, "code": code, "result": result}
    # Stored in result order (the table keeps its column order on reuse); the
    # checksum is over the canonical, key-sorted form.
    atomic_write_text(
        path, json.dumps({"payload": payload, "sha256": _checksum(payload)}, allow_nan=True)
    )


def read_cell(path, ident):
    """The stored result for ``ident``, or None if absent, partial, corrupt or unreadable."""
    payload = _read_payload(path, ident, stacklevel=4)
    return None if payload is None else payload["result"]


def _read_payload(path, ident, stacklevel=3):
    """The stored payload for ``ident`` (``result``, and ``code`` where stored), or None."""
    path = Path(path)
    if not os.path.lexists(path):
        return None
    try:
        stored = json.loads(path.read_text())
        payload = stored["payload"]
        ok = (stored["sha256"] == _checksum(payload) and payload["cell"] == ident
              and "result" in payload)
    except (ValueError, KeyError, TypeError, OSError):
        ok = False
    if not ok:
        warnings.warn(
            f"Checkpoint {path} is partial, corrupt, unreadable or for other "
            "parameters; recomputing that cell.",
            SkxorRuntimeWarning,
            stacklevel=stacklevel,
        )
        return None
    return payload


def _same(a, b):
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # e.g. an array: not one value
        return False


def _plain(value):
    """``value`` as a checkpoint stores and reads it back: numpy scalars and arrays
    as Python values and lists, tuples as lists."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    return value


def _run_cell(cell_fn, params):
    result = cell_fn(**params)
    if not isinstance(result, dict):
        raise TypeError(
            f"{cell_fn.__qualname__} must return a dict of results; got {type(result).__name__}."
        )
    # The same values whether the result is checkpointed or not (np.int64(3) is
    # 3 after a JSON round trip, and json cannot write np.bool_ at all).
    result = _plain(result)
    for name, value in result.items():
        try:
            _canonical(value)
        except (TypeError, ValueError) as exc:
            raise TypeError(
                f"{cell_fn.__qualname__} returned a result JSON cannot store ({name!r}: "
                f"{type(value).__name__}); return numbers, strings, booleans, lists or "
                "dicts of them.") from exc
    # A result named like a parameter, with another value, would overwrite it in the
    # table (and the table's key with it, so that the next run merges distinct cells
    # into one); one repeating its parameter's value changes nothing.
    clash = sorted(k for k in set(result) & set(params) if not _same(result[k], params[k]))
    if clash:
        raise ValueError(
            f"{cell_fn.__qualname__} returned result(s) named like its parameter(s) {clash}, "
            "with other values: they would replace the parameter column(s) in the table; "
            "rename the result(s).")
    return result


#: Seconds to wait for a dask scheduler to answer before giving up.
CONNECT_TIMEOUT = 5
#: Extra seconds for distributed to start its event loop and report its own error.
_CONNECT_GRACE = 5


def connect(scheduler, timeout=CONNECT_TIMEOUT):
    """A ``distributed.Client`` for ``scheduler`` (an address or a client).

    Raises
    ------
    ConnectionError
        No scheduler answered at that address within ``timeout`` seconds
        (plus a few seconds for distributed to start), the address is
        malformed, or something there accepts connections but never answers.
    """
    try:
        from distributed import Client
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError(
            "scheduler=... needs dask.distributed: pip install 'skxor[dask]'"
        ) from exc
    if isinstance(scheduler, Client):
        return scheduler
    # distributed's own timeout does not cover a server that accepts the TCP
    # connection and never answers the handshake (the call then blocks for
    # good), so the client is built in a daemon thread that is given up on.
    outcome = {}

    def build():
        try:
            outcome["client"] = Client(scheduler, timeout=timeout)
        except Exception as exc:  # handed to the caller below
            outcome["error"] = exc

    worker = threading.Thread(target=build, name="skxor-connect", daemon=True)
    worker.start()
    _wait(worker, timeout + _CONNECT_GRACE)
    if "client" in outcome:
        return outcome["client"]
    # Any failure to build the client (a refused or malformed address, or
    # distributed unable to start its event loop) is a failed connection.
    exc = outcome.get("error") or TimeoutError(
        "the address accepted the connection but did not answer")
    raise ConnectionError(
        f"scheduler={scheduler!r}: no dask.distributed scheduler answered within "
        f"{timeout} s ({exc}); give the address of a running scheduler, for "
        "example tcp://127.0.0.1:8786."
    ) from exc


def _wait(thread, seconds):
    """Wait for ``thread`` at most ``seconds`` (what bounds :func:`connect`)."""
    thread.join(seconds)


@contextlib.contextmanager
def _backend(scheduler):
    if scheduler is None:
        yield
        return
    client = connect(scheduler)
    try:
        with parallel_config(backend="dask"):
            yield
    finally:
        if client is not scheduler:
            client.close()


#: CPU seconds to start one joblib worker process: a fresh Python importing
#: skxor, torch and numpy (about 4 s on an idle 2-core machine, 20-40 s on a
#: loaded one). A run whose cells all take less than that in this process is
#: faster serial.
WORKER_START_SECONDS = 4.0

#: A serial start is tried only with at least this many cells per worker: a
#: first cell computed alone then costs at most about a quarter of the run.
SERIAL_START_CELLS_PER_WORKER = 4


def _plan(n_jobs, scheduler, n_cells):
    """``(backend, workers)`` the cells go to inside :func:`_backend`'s context.

    ``"serial"`` where joblib would run them in this process (one worker, or
    a dask cluster with one thread), ``"dask"`` on a scheduler, ``"joblib"``
    for local worker processes, ``"threads"`` for joblib's threading backend.
    """
    from joblib.parallel import get_active_backend

    workers = effective_n_jobs(n_jobs)
    if workers <= 1 or n_cells <= 1:
        return "serial", 1
    if scheduler is not None:
        return "dask", workers
    kind = type(get_active_backend()[0]).__name__
    name = {"ThreadingBackend": "threads", "SequentialBackend": "serial"}.get(kind)
    if name is None:
        name = "dask" if "Dask" in kind else "joblib"
    return name, workers if name != "serial" else 1


def _stay_serial(elapsed, done, remaining, workers):
    """Whether the rest of a run is faster in this process than on fresh workers.

    After ``done`` cells took ``elapsed`` seconds here, the ``remaining`` ones
    would take about ``elapsed / done * remaining`` more; on ``workers`` new
    workers they take that divided by ``workers``, after each worker's start
    (:data:`WORKER_START_SECONDS`). Serial wins while the serial estimate is
    below ``WORKER_START_SECONDS * workers / (workers - 1)``.

    Examples
    --------
    >>> from skxor.studies._sweep import _stay_serial
    >>> _stay_serial(0.001, 1, 59, 2), _stay_serial(0.5, 1, 95, 2)
    (True, False)
    """
    serial = elapsed / done * remaining
    return serial < WORKER_START_SECONDS * workers / (workers - 1)


def _load(folder, study, cell_fn, params, key, ident):
    """The checkpointed payload of a cell, or None; one of the first format is moved
    to the cell's key (a one-time migration, its code unknown)."""
    payload = _read_payload(folder / f"{key}.json", ident, stacklevel=4)
    if payload is not None:
        return payload
    for old_key, old_ident in _legacy_keys(study, cell_fn, params):
        old = folder / f"{old_key}.json"
        payload = _read_payload(old, old_ident, stacklevel=4)
        if payload is not None:
            _store(folder, key, ident, payload["result"], None)
            if (folder / f"{key}.json").exists():
                old.unlink()
            return {"result": payload["result"], "code": None}
    return None


def _warn_changed_code(study, cell_fn, changed, folder):
    version = cell_version_of(cell_fn)
    warnings.warn(
        f"study {study!r}: the code of cell {cell_fn.__name__} changed since {changed} of "
        f"its checkpoints in {folder} were written; they are reused as they are. If the "
        "change alters the cell's results, give it a new version "
        f"(@skxor.studies.cell_version({version + 1})) so that they are recomputed, or "
        "remove those checkpoints.",
        SkxorRuntimeWarning,
        stacklevel=3,
    )


def _store(folder, key, ident, result, code):
    """Checkpoint one result; a path that cannot be written is warned about, not fatal."""
    path = folder / f"{key}.json"
    try:
        write_cell(path, ident, result, code)
    except OSError as exc:
        warnings.warn(
            f"Could not write checkpoint {path} ({exc.strerror or exc}); the result "
            "is kept for this run only.",
            SkxorRuntimeWarning,
            stacklevel=3,
        )


def run_sweep(
    cell_fn,
    cells,
    *,
    study,
    checkpoint_dir=None,
    n_jobs=None,
    progress=False,
    scheduler=None,
):
    """Run ``cell_fn`` on every cell of parameters, checkpointing each result.

    Parameters
    ----------
    cell_fn : callable
        Module-level (picklable) function returning a dict of JSON-serialisable
        scalar results. numpy scalars and arrays are taken as their Python
        values and lists (what a checkpoint stores), so the table is the same
        with checkpoints or without.
    cells : list of dict
        JSON-serialisable parameters, one dict per cell.
    study : str
        Name of the study; part of every cell's key and its folder name.
    checkpoint_dir : str or path-like or None, default=None
        Folder for finished cells (``<checkpoint_dir>/<study>/<key>.json``).
        None keeps results in memory only.
    n_jobs : int or None, default=None
        joblib workers; None runs in this process unless an enclosing
        ``joblib.parallel_config`` says otherwise. With worker processes and
        at least :data:`SERIAL_START_CELLS_PER_WORKER` cells per worker, the
        first cells are computed in this process while the remaining ones
        are estimated to take less than starting the workers
        (:data:`WORKER_START_SECONDS` each): cheap cells then never start a
        worker, and the run's summary says so.
    progress : bool, default=False
        Show a tqdm progress bar; it switches itself off when standard error
        is not a terminal (a log file, a pipe).
    scheduler : str, distributed.Client or None, default=None
        Address of a dask.distributed scheduler (or a client) to run the cells
        on, through joblib's dask backend.

    Returns
    -------
    results : pandas.DataFrame
        One row per cell, in the order of ``cells``: the parameter columns,
        then the result columns.

    Examples
    --------
    >>> from skxor.studies import run_sweep
    >>> def square(x):
    ...     return {"y": x * x}
    >>> run_sweep(square, [{"x": 2}, {"x": 3}], study="demo")["y"].tolist()
    [4, 9]
    """
    cells = list(cells)
    for i, params in enumerate(cells):
        _check_cell(params, i)
    folder = None
    if checkpoint_dir is not None:
        folder = Path(checkpoint_dir) / study
        folder.mkdir(parents=True, exist_ok=True)
    keys = [_cell_key(study, cell_fn, params) for params in cells]
    code = code_hash(cell_fn) if folder is not None else None
    results = [None] * len(cells)
    todo = []
    changed = 0
    for i, (key, ident) in enumerate(keys):
        if folder is not None:
            payload = _load(folder, study, cell_fn, cells[i], key, ident)
            if payload is not None:
                results[i] = payload["result"]
                stored = payload.get("code")
                changed += stored is not None and code is not None and stored != code
        if results[i] is None:
            todo.append(i)
    if changed:
        _warn_changed_code(study, cell_fn, changed, folder)
    add_loaded(len(cells) - len(todo))

    bar = None
    if progress:
        from tqdm.auto import tqdm

        # disable=None: no bar unless stderr is a terminal (no flooded logs).
        bar = tqdm(total=len(cells), initial=len(cells) - len(todo), desc=study, unit="cell",
                   disable=None)
    def finish(i, result, floor):
        results[i] = result
        add_floor(floor["seconds"], floor["what"])
        if folder is not None:
            _store(folder, *keys[i], result, code)
        if bar is not None:
            bar.update(1)

    try:
        if todo:
            shipped = _Shipped(cell_fn)
            with _backend(scheduler):
                backend, workers = _plan(n_jobs, scheduler, len(todo))
                rest = list(todo)
                if backend == "serial":
                    for i in rest:
                        finish(*_indexed(i, shipped, cells[i]))
                    add_backend("serial", 1, len(rest), note=None if scheduler is None else (
                        "the dask cluster has 1 worker thread, so joblib ran the cells in "
                        "this process"))
                    rest = []
                elif backend == "joblib" and len(rest) >= SERIAL_START_CELLS_PER_WORKER * workers:
                    rest = _serial_start(rest, shipped, cells, workers, finish)
                if rest:
                    outputs = Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
                        delayed(_indexed)(i, shipped, cells[i]) for i in rest
                    )
                    for output in outputs:
                        finish(*output)
                    add_backend(backend, min(workers, len(rest)), len(rest))
    finally:
        if bar is not None:
            bar.close()
    rows = [{**params, **result} for params, result in zip(cells, results)]
    return pd.DataFrame(rows)


def _serial_start(todo, shipped, cells, workers, finish):
    """Compute cells here while that beats starting ``workers`` workers; the rest.

    Worker processes each import skxor and torch before their first cell
    (:data:`WORKER_START_SECONDS`): for cheap cells (60 coin flips take
    milliseconds) that start dominates, so cells are computed in this process
    while the estimate of the remaining ones stays below it
    (:func:`_stay_serial`), and only what is left goes to the workers.
    """
    start = time.perf_counter()
    for done, i in enumerate(todo, 1):
        finish(*_indexed(i, shipped, cells[i]))
        elapsed = time.perf_counter() - start
        if done < len(todo) and not _stay_serial(elapsed, done, len(todo) - done, workers):
            add_backend("serial", 1, done)
            return todo[done:]
    add_backend("serial", 1, len(todo), note=(
        f"{len(todo)} cells took {elapsed:.2g} s here, less than starting {workers} "
        f"worker processes at about {WORKER_START_SECONDS:g} s each"))
    return []


class _Shipped:
    """A cell function that travels to workers by value, loaded where it is called.

    dask pickles a task with plain pickle first, which names a function by
    its module: a worker cannot import the module of a study loaded from a
    file (its scheduler fails to read the task and the run waits for good).
    The function is pickled here with cloudpickle (by value for a study
    file's module, see :func:`~skxor.studies.load_study`; by name for an
    importable one) and only unpickled in the worker that runs it, so a
    scheduler never needs the study's code, and a worker that cannot load it
    fails the cell with the reason instead of hanging.
    """

    def __init__(self, cell_fn):
        self._fn = cell_fn
        self._blob = None

    def __reduce__(self):
        if self._blob is None:
            try:  # joblib >= 1.5 uses the cloudpickle package, earlier ones vendor it
                import cloudpickle
            except ImportError:  # pragma: no cover - depends on the install
                from joblib.externals import cloudpickle

            self._blob = cloudpickle.dumps(self._fn)
        return _Shipped._from_blob, (self._blob,)

    @classmethod
    def _from_blob(cls, blob):
        shipped = cls(None)
        shipped._blob = blob
        return shipped

    def function(self):
        if self._fn is None:
            import pickle

            self._fn = pickle.loads(self._blob)
        return self._fn


def _indexed(i, cell, params):
    # The cell's floor (its floor_work time) goes back with its result, so
    # that it reaches the sweeping process from a joblib or dask worker too.
    with cell_floor() as floor:
        result = _run_cell(cell.function(), params)
    return i, result, floor
