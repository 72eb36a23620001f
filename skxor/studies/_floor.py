"""A study's floor: the unavoidable work of its cells, timed inside them.

A cell wraps the work it cannot avoid (its model fits, evaluations and exact
computations) in :func:`floor_work`; :func:`~skxor.studies.run_sweep` hands
each freshly computed cell's floor time back to the process that runs the
sweep (also from joblib or dask workers), and :func:`collect_floor` sums
them over everything computed while it is open. The runner uses that sum as
the study's floor when the study does not set ``floor_seconds`` itself.
Cells reused from a checkpoint add nothing: their work was not done in this
run, so neither its wall time nor its floor includes it.
"""

import contextlib
import time

# This process's floor time in the cell now running, and what it covered.
_cell = {"seconds": 0.0, "what": set()}
# Open collections (in the process running the sweeps): innermost last.
_collections = []


@contextlib.contextmanager
def floor_work(what):
    """Count the time of the enclosed block towards the running cell's floor.

    Parameters
    ----------
    what : str
        A few words naming the work (for the report), e.g. ``"fits and test
        scoring"``.

    Examples
    --------
    >>> from skxor.studies._floor import cell_floor, floor_work
    >>> with cell_floor() as floor:
    ...     with floor_work("a sum"):
    ...         total = sum(range(1000))
    >>> floor["seconds"] > 0, floor["what"]
    (True, ['a sum'])
    """
    start = time.perf_counter()
    try:
        yield
    finally:
        _cell["seconds"] += time.perf_counter() - start
        _cell["what"].add(str(what))


@contextlib.contextmanager
def cell_floor():
    """Measure the floor of one cell: yields a dict filled in on exit.

    The dict holds ``seconds`` (summed :func:`floor_work` time) and ``what``
    (the sorted labels of that work).
    """
    saved = dict(_cell, what=set(_cell["what"]))
    _cell.update(seconds=0.0, what=set())
    out = {}
    try:
        yield out
    finally:
        out.update(seconds=_cell["seconds"], what=sorted(_cell["what"]))
        _cell.update(saved)


def add_floor(seconds, what, n_cells=1):
    """Add a computed cell's floor to every open :func:`collect_floor`."""
    for total in _collections:
        total["seconds"] += seconds
        total["what"].update(what)
        total["cells"] += n_cells
        total["timed_cells"] += n_cells if what else 0


def add_backend(name, workers, n_cells, note=None):
    """Count ``n_cells`` computed by a backend in every open :func:`collect_floor`.

    ``name`` is ``"serial"`` (this process), ``"joblib"`` or ``"dask"``;
    ``workers`` the processes or threads it ran the cells on; ``note`` why a
    run with several workers computed cells in this process.
    """
    for total in _collections:
        entry = total["backends"].setdefault(name, {"workers": 0, "cells": 0})
        entry["workers"] = max(entry["workers"], int(workers))
        entry["cells"] += int(n_cells)
        if note:
            total["notes"].append(note)


def describe_backend(total):
    """What computed the cells collected in ``total``: ``(text, workers)``.

    ``workers`` is the most workers a parallel backend used (1 when every
    cell ran in this process). ``text`` is None when no sweep computed a
    cell (every cell read from checkpoints, or a study computing its table
    without :func:`~skxor.studies.run_sweep`).

    Examples
    --------
    >>> from skxor.studies._floor import describe_backend
    >>> describe_backend({"backends": {"joblib": {"workers": 2, "cells": 8}}, "notes": []})
    ('joblib, 2 workers', 2)
    >>> describe_backend({"backends": {"serial": {"workers": 1, "cells": 3}},
    ...                   "notes": ["cheap cells"]})
    ('serial (cheap cells)', 1)
    """
    backends = total.get("backends") or {}
    parallel = {k: v for k, v in backends.items() if k != "serial" and v["cells"]}
    notes = "; ".join(dict.fromkeys(total.get("notes") or []))
    if not backends:
        return None, 1
    if not parallel:
        return "serial" + (f" ({notes})" if notes else ""), 1
    unit = {"dask": "worker threads"}
    parts = [f"{name}, {entry['workers']} {unit.get(name, 'workers')}"
             for name, entry in parallel.items()]
    serial = backends.get("serial", {"cells": 0})["cells"]
    if serial:
        parts.append(f"{serial} cell(s) first in this process" + (f" ({notes})" if notes else ""))
    return "; ".join(parts), max(entry["workers"] for entry in parallel.values())


def add_loaded(n_cells):
    """Count cells read from checkpoints (not computed) in every open :func:`collect_floor`."""
    for total in _collections:
        total["loaded_cells"] += n_cells


@contextlib.contextmanager
def collect_floor():
    """Sum the floors of the cells computed while open: yields a dict.

    The dict holds ``seconds``, ``cells`` (cells computed), ``timed_cells``
    (those that timed floor work), ``loaded_cells`` (read from checkpoints
    instead), ``what`` (a set of labels), ``backends`` (per backend that
    computed cells, its ``workers`` and ``cells``: :func:`add_backend`) and
    ``notes``.

    Examples
    --------
    >>> from skxor.studies import run_sweep
    >>> from skxor.studies._floor import collect_floor, floor_work
    >>> def cell(x):
    ...     with floor_work("squaring"):
    ...         y = x * x
    ...     return {"y": y}
    >>> with collect_floor() as floor:
    ...     _ = run_sweep(cell, [{"x": 2}, {"x": 3}], study="demo")
    >>> floor["cells"], floor["timed_cells"], sorted(floor["what"])
    (2, 2, ['squaring'])
    """
    total = {"seconds": 0.0, "cells": 0, "timed_cells": 0, "loaded_cells": 0, "what": set(),
             "backends": {}, "notes": []}
    _collections.append(total)
    try:
        yield total
    finally:
        _collections.remove(total)


def describe_floor(total):
    """One line for the report: what the collected floor covers."""
    what = ", ".join(sorted(total["what"])) or "nothing timed"
    return (f"{what}, timed inside the {total['timed_cells']} of {total['cells']} computed "
            "cells that do such work")


#: Timing columns (seconds) of a study's table: the whole cell, and its floor (the
#: unavoidable work of the cell, measured in the same run).
TIME_COLUMNS = ("seconds", "floor_seconds")


def timing_sentence(table, summed_over, floor):
    """The report's line on time spent against the floor, or None without timing columns.

    Parameters
    ----------
    table : pandas.DataFrame
        A study's table with the :data:`TIME_COLUMNS`.
    summed_over : str
        What the times are summed over (``"cells"``).
    floor : str
        What the floor is (``"the fits"``).

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies._floor import timing_sentence
    >>> timing_sentence(pd.DataFrame({"seconds": [3.0, 3.0], "floor_seconds": [1.0, 1.0]}),
    ...                 "cells", "the fits")
    '- Time: 6.0 s summed over cells, of which the floor (the fits) is 2.0 s (3.00x the floor).'
    """
    if not all(name in table for name in TIME_COLUMNS):
        return None
    seconds, floor_seconds = (float(table[name].sum()) for name in TIME_COLUMNS)
    return (
        f"- Time: {seconds:.1f} s summed over {summed_over}, of which the floor ({floor}) "
        f"is {floor_seconds:.1f} s ({seconds / max(floor_seconds, 1e-9):.2f}x the floor)."
    )
