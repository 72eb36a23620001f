"""What a run will cost, before it runs: its cells and their estimated CPU time.

``skxor run STUDY --preset NAME [--set ...] --dry-run`` lists the cells a run
would compute (nothing is computed) and estimates their CPU time from a
per-cell cost model: each cell has a *kind* (for example a population step
or a fit on n samples) and a *work* figure, the product of the parameters
that drive its cost (length, width, samples, steps, strings profiled...); a
cell of that kind costs ``intercept + slope * work`` CPU seconds. The
intercepts and slopes were fitted on this machine by timing representative
cells (``python benchmarks/calibrate_costs.py``) and are stored in
``skxor/studies/data/costs.csv``. Work figures are rough by design: the
model predicts orders of magnitude and ratios between presets, and the dry
run says how well it matched the timed cells.

Each study prices its own cells: :func:`run_cells` takes the study's
``cells(params)`` (its grid by default) and its ``cost(cell)`` hook, declared
beside the cell function; this module holds only the machinery and the
calibration. A study that ``stops_early`` (the parameter-scaling study stops
trying sizes once the rule is met) lists every cell it may try, so its count
is an upper bound. A user's study whose ``cost(cell)`` gives CPU seconds gets
its time without a calibration.
"""

import math
import numbers
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

__all__ = ["CostModel", "estimate", "format_duration", "run_cells"]

#: Where the calibrated cost parameters are stored.
COSTS_PATH = Path(__file__).resolve().parent / "data" / "costs.csv"


class Cell(NamedTuple):
    """One cell of a run: the function computing it, its parameters, kind and work."""

    function: object
    params: dict
    kind: str
    work: float


def _study(study):
    if isinstance(study, str):
        from ._registry import get_study

        return get_study(study)
    return study


def run_cells(study, params):
    """The cells a run of ``study`` with validated ``params`` computes, without computing.

    The study's ``cells(params)`` (its grid by default), each priced by its
    ``cost(cell)`` hook.

    Parameters
    ----------
    study : str or Study
        A registered study name, or a study.
    params : dict
        Validated parameters (:meth:`Study.params`).

    Returns
    -------
    cells : list of Cell
        ``function``, ``params``, ``kind`` and ``work`` of each cell (for a
        study that ``stops_early``, every cell it may try: an upper bound).
        A cost given in seconds is kind ``"seconds"``; a study without a
        ``cost`` hook has kind ``"cell"`` and work NaN.

    Examples
    --------
    >>> from skxor.studies import get_study
    >>> from skxor.studies._cost import run_cells
    >>> params = get_study("one_step").params("quick")
    >>> len(run_cells("one_step", params))  # 3 attentions x 3 d x 2 m x 24 seeds x 4 x 2
    3456
    """
    return list(_priced_cells(_study(study), params))


def _priced_cells(study, params):
    """:func:`run_cells`, one cell at a time (the default grid is never built whole)."""
    if study.cells is not None:
        listed = study.cells(params)
    elif study.compute == study.sweep:
        listed = study.iter_grid_cells(params)
    else:
        raise ValueError(f"study {study.name!r} computes its table itself (compute=) and "
                         "lists no cells (cells=): its cells cannot be counted before it runs.")
    for item in listed:
        function, cell = item if isinstance(item, tuple) else (study.cell, item)
        kind, work = ("cell", math.nan) if study.cost is None else _checked_cost(study, cell)
        yield Cell(function, cell, kind, work)


def _checked_cost(study, cell):
    """``(kind, work)`` of ``cell`` from the study's ``cost(cell)``: a finite work >= 0."""
    cost = study.cost(cell)
    given = isinstance(cost, tuple)
    kind, work = cost if given and len(cost) == 2 else ("seconds", cost)
    what = "work" if given else "CPU seconds"
    if not isinstance(kind, str) or isinstance(work, (bool, np.bool_)) \
            or not isinstance(work, numbers.Real):
        raise TypeError(f"study {study.name!r}: its cost(cell) must return a number of CPU "
                        f"seconds or a (kind: str, work: number) pair; for cell {cell!r} it "
                        f"returned {cost!r}.")
    if not (math.isfinite(work) and work >= 0):
        # A negative or NaN cost would make the estimate meaningless, not just rough.
        raise ValueError(f"study {study.name!r}: its cost(cell) must give a finite {what} "
                         f">= 0; for cell {cell!r} it returned {cost!r}.")
    return kind, float(work)


class CostModel:
    """Per-cell CPU cost, ``intercept + slope * work`` per (study, kind), from a table.

    Parameters
    ----------
    table : pandas.DataFrame or path, default=None
        Columns ``study``, ``kind``, ``intercept_s``, ``slope_s``,
        ``cells_timed``, ``median_abs_log_error``; None reads
        ``skxor/studies/data/costs.csv``.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies._cost import CostModel, Cell
    >>> model = CostModel(pd.DataFrame({"study": ["s"], "kind": ["k"], "intercept_s": [0.5],
    ...                                 "slope_s": [1e-3], "cells_timed": [3],
    ...                                 "median_abs_log_error": [0.1]}))
    >>> model.seconds("s", [Cell(None, {}, "k", 1000.0)])
    array([1.5])
    """

    def __init__(self, table=None):
        if table is None or isinstance(table, (str, Path)):
            table = pd.read_csv(COSTS_PATH if table is None else table)
        self.table = table
        self._rows = {(r.study, r.kind): r for r in table.itertuples()}

    def calibrated(self, study):
        """Rows of the table for ``study``."""
        return self.table[self.table["study"] == study]

    def seconds(self, study, cells):
        """Estimated CPU seconds of each cell (a kind never timed: the study's largest slope).

        A cell of kind ``"seconds"`` costs its work (the study's ``cost`` gave
        seconds); other kinds need the study's calibrated rows.
        """
        kinds = np.array([cell.kind for cell in cells], dtype=object)
        work = np.array([cell.work for cell in cells], dtype=float)
        out = np.where(kinds == "seconds", work, np.nan)
        priced = set(kinds) - {"seconds"}
        rows = self.calibrated(study)
        if priced and rows.empty:
            raise ValueError(f"no calibrated cost for study {study!r}: run "
                             "python benchmarks/calibrate_costs.py, or give its cost(cell) "
                             "in CPU seconds.")
        fallback = rows.sort_values("slope_s").iloc[-1] if priced else None
        for kind in priced:
            row = self._rows.get((study, kind), fallback)
            mask = kinds == kind
            out[mask] = row.intercept_s + row.slope_s * work[mask]
        return out


#: Cells priced at once by :func:`_tally` (bounds its memory, not its result).
_CHUNK = 65536


def _tally(study, params, model):
    """Cells and CPU seconds per kind of every cell ``params`` give, and the costliest cell.

    Every cell is counted and priced: no seed count is extrapolated from a
    few, since a study's ``cells`` or ``cost`` may treat later seeds otherwise.
    """
    by_kind, largest = {}, 0.0
    for chunk in _chunks(_priced_cells(study, params), _CHUNK):
        seconds = model.seconds(study.name, chunk)
        for cell, s in zip(chunk, seconds):
            entry = by_kind.setdefault(cell.kind, {"cells": 0, "cpu_seconds": 0.0})
            entry["cells"] += 1
            entry["cpu_seconds"] += float(s)
        largest = max(largest, float(seconds.max()))
    return by_kind, largest


def _chunks(iterable, size):
    chunk = []
    for item in iterable:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def estimate(study, preset="quick", overrides=None, *, n_jobs=None, model=None):
    """Cells and estimated CPU and wall time of a run; nothing is computed.

    Parameters
    ----------
    study : str or Study
    preset : str, default="quick"
    overrides : dict, optional
        ``--set`` values (validated as a run validates them).
    n_jobs : int or None, default=None
        Workers the wall time is estimated for (None: 1).
    model : CostModel, optional

    Returns
    -------
    estimate : dict
        ``cells``, ``upper_bound`` (True when the count is an upper bound),
        ``cpu_seconds``, ``wall_seconds`` (the CPU time spread over the
        workers, but never below the costliest cell), ``largest_cell_seconds``,
        ``by_kind`` (kind -> cells and CPU seconds), ``workers``.

    Examples
    --------
    >>> from skxor.studies._cost import estimate
    >>> e = estimate("one_step", "quick", {"d": 100, "seeds": 2})
    >>> e["cells"], e["upper_bound"]
    (96, False)
    """
    from joblib import effective_n_jobs

    study = _study(study)
    params = study.params(preset, overrides)
    model = model or CostModel()
    by_kind, largest = _tally(study, params, model)
    workers = max(1, effective_n_jobs(n_jobs) if n_jobs is not None else 1)
    cells = sum(entry["cells"] for entry in by_kind.values())
    cpu = float(sum(entry["cpu_seconds"] for entry in by_kind.values()))
    return {
        "study": study.name, "preset": preset, "cells": cells,
        "upper_bound": bool(study.stops_early), "cpu_seconds": cpu,
        "wall_seconds": max(cpu / min(workers, max(cells, 1)), largest),
        "largest_cell_seconds": largest, "by_kind": by_kind, "workers": workers,
    }


def format_duration(seconds):
    """A duration as the dry run and ``skxor list`` print it (s, min, h or days).

    Examples
    --------
    >>> from skxor.studies import format_duration
    >>> [format_duration(s) for s in (3.14, 42, 4380, 16316, 669243)]
    ['3.1 s', '42 s', '73 min', '4.5 h', '7.7 days']
    """
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def dry_run_text(study, preset="quick", overrides=None, *, n_jobs=None, model=None):
    """What ``skxor run STUDY --preset NAME --dry-run`` prints.

    ``study`` is a registered name or a :class:`~skxor.studies.Study`; a study
    without a ``cost(cell)`` hook gets its cell count only, and one whose
    ``cost`` gives CPU seconds (a user's, without a calibrated cost model)
    its time from them.

    Examples
    --------
    >>> from skxor.studies._cost import dry_run_text
    >>> print(dry_run_text("one_step", "quick", {"d": 100, "seeds": 2}).splitlines()[0])
    one_step, preset quick with d=100, seeds=2: 96 cells
    """
    study = _study(study)
    name = study.name
    if study.cost is None:
        # Nothing prices the cells: they are counted.
        params = study.params(preset, overrides)
        return (f"{name}, preset {preset}: {study.count_cells(params)} cells (the study "
                "declares no cost(cell) to estimate their time: time a few cells, e.g. with "
                "--set seeds=1, or declare one)")
    model = model or CostModel()
    e = estimate(study, preset, overrides, n_jobs=n_jobs, model=model)
    given = ", ".join(f"{k}={v}" for k, v in (overrides or {}).items())
    cells = f"{'at most ' if e['upper_bound'] else ''}{e['cells']} cells"
    lines = [f"{name}, preset {preset}{' with ' + given if given else ''}: {cells}"]
    if e["upper_bound"]:
        lines.append(f"  (an upper bound: {study.stops_early})")
    for kind, entry in e["by_kind"].items():
        lines.append(f"  {kind}: {entry['cells']} cells, "
                     f"{format_duration(entry['cpu_seconds'])} CPU")
    calibrated = model.calibrated(name)
    if len(calibrated):
        error = float(np.exp(calibrated["median_abs_log_error"].max()))
        lines.append(
            f"estimated CPU time: {format_duration(e['cpu_seconds'])} (costliest cell "
            f"{format_duration(e['largest_cell_seconds'])}); the cost model is calibrated on "
            f"one machine and matched its timed cells within a factor of about {error:.1f} "
            "(median), so read it as an order of magnitude"
        )
    else:
        lines.append(
            f"estimated CPU time: {format_duration(e['cpu_seconds'])} (costliest cell "
            f"{format_duration(e['largest_cell_seconds'])}), from the study's own cost(cell) in "
            "CPU seconds"
        )
    for workers in (2, 16):
        wall = max(e["cpu_seconds"] / min(workers, max(e["cells"], 1)),
                   e["largest_cell_seconds"])
        lines.append(f"  on {workers} workers (--n-jobs {workers}): about {format_duration(wall)} "
                     "wall time on otherwise idle cores")
    args = f"skxor run {name} --preset {preset}" + "".join(
        f" --set {k}={v}" for k, v in (overrides or {}).items())
    lines += [
        "to run it:",
        f"  {args} --n-jobs -1            # every local CPU",
        f"  {args} --scheduler tcp://HOST:8786   # a dask cluster (pip install 'skxor[dask]')",
    ]
    if "device" in study.parameters:
        lines.append(f"  {args} --set device=cuda   # network evaluations on a GPU")
    else:
        lines.append("  (this study has no device parameter: its cells run on the CPU)")
    lines.append("add --out FOLDER; finished cells are checkpointed there, so a stopped run "
                 "resumes where it stopped.")
    return "\n".join(lines)
