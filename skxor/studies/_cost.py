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

The cells are listed by :func:`run_cells` with the studies' own grids; the
parameter-scaling study stops trying sizes once the rule is met, so its
count is an upper bound (every size of every grid).
"""

import functools
import math
import numbers
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from ._common import expand_grid

__all__ = ["CostModel", "estimate", "run_cells"]

#: Where the calibrated cost parameters are stored.
COSTS_PATH = Path(__file__).resolve().parent / "data" / "costs.csv"


class Cell(NamedTuple):
    """One cell of a run: the function computing it, its parameters, kind and work."""

    function: object
    params: dict
    kind: str
    work: float


@functools.lru_cache(maxsize=None)
def _network(n_bits, d_model, n_layers):
    """Work of one transformer forward pass over N tokens (projections and attention)."""
    return float(n_layers) * d_model * (n_bits + 1) * (d_model + n_bits + 1)


def _flip(n_bits, d_model, n_layers):
    """Work of re-evaluating a network after one bit flip: the first layer incrementally
    (linear in N), every later layer in full."""
    return d_model * (n_bits + 1) + (n_layers - 1) * _network(n_bits, d_model, 1)


@functools.lru_cache(maxsize=None)
def _profile(n_bits, d_model, n_layers, exhaustive_max, n_samples):
    """Work of a sensitivity profile: 2^N forward passes (exhaustive), or per sampled
    string one forward pass and N flips."""
    if n_bits <= exhaustive_max:
        return 2.0 ** n_bits * _network(n_bits, d_model, n_layers)
    return float(n_samples) * (_network(n_bits, d_model, n_layers)
                               + n_bits * _flip(n_bits, d_model, n_layers))


def _one_step(params):
    from ._one_step import one_step_cell

    cells = expand_grid(
        attention=params["attention"], d=params["d"], m=params["m"], n=params["n"],
        seed=list(range(params["seeds"])), step_length=params["step_length"],
        n_test=[params["n_test"]], n_steps=params["n_steps"],
    )
    out = []
    for c in cells:
        kind = "population" if c["n"] == 0 else "sample"
        # Softmax runs are mostly scored exactly (a dominant position per head);
        # linear and erf never concentrate, so they are scored on n_test samples.
        scoring = c["m"] if c["attention"] == "softmax" else c["n_test"]
        work = c["d"] * (c["m"] * c["n_steps"] * max(c["n"], 1) + scoring)
        out.append(Cell(one_step_cell, c, kind, work))
    return out


def _sample_complexity(params):
    from ._sample_complexity import sample_complexity_cell, train_sizes

    cells = expand_grid(
        model=params["model"], d=params["d"], seed=list(range(params["seeds"])),
        n_min=[params["n_min"]], n_max=[params["n_max"]], n_sizes=[params["n_sizes"]],
        n_test=[params["n_test"]],
    )
    out = []
    for c in cells:
        sizes = train_sizes(c["n_min"], c["n_max"], c["n_sizes"])
        work = c["d"] * (float(np.sum(sizes)) + len(sizes) * c["n_test"])
        out.append(Cell(sample_complexity_cell, c, c["model"], work))
    return out


def _parameter_scaling(params):
    from ._parameter_scaling import (
        GRIDS, SAMPLE_MODELS, ffnn_epochs, parameter_scaling_cell, training_size,
    )

    out = []
    for model in params["model"]:
        for d in sorted(set(params["d"])):
            if model in SAMPLE_MODELS and d > params["samples_d_max"]:
                continue
            n_train = training_size(d, params["n_train_min"], params["n_train_per_d2"])
            for size in sorted(set(params[GRIDS[model]])):
                c = {"model": model, "d": d, "size": size, "seed": 0,
                     "random_state": int(params["random_state"]), "n_test": params["n_test"]}
                if model == "transformer_population_one_step":
                    c.update(transformer_steps=1, step_length=params["one_step_length"])
                    work = d * (size + c["n_test"])
                elif model == "transformer_population":
                    c.update(transformer_steps=params["transformer_steps"],
                             step_length=params["step_length"])
                    work = d * (size * params["transformer_steps"] + c["n_test"])
                elif model == "transformer":
                    c.update(n_train=n_train, transformer_steps=params["transformer_steps"],
                             step_length=params["step_length"])
                    work = d * (n_train * size * params["transformer_steps"] + c["n_test"])
                else:
                    epochs = ffnn_epochs(n_train, params["ffnn_steps"],
                                         params["ffnn_batch_size"])
                    c.update(n_train=n_train, ffnn_epochs=epochs,
                             ffnn_activation=params["ffnn_activation"],
                             ffnn_batch_size=params["ffnn_batch_size"],
                             ffnn_learning_rate=params["ffnn_learning_rate"])
                    work = d * (n_train * size * epochs + c["n_test"])
                for seed in range(params["seeds"]):
                    out.append(Cell(parameter_scaling_cell, dict(c, seed=seed), model, work))
    return out


def _network_cells(cells, function):
    return [
        Cell(function, c, "network",
             _profile(c["n_bits"], c["d_model"], c["n_layers"], c["exhaustive_max"],
                      c["n_samples"])
             + c["n_blowup"] * _network(c["n_bits"], c["d_model"], c["n_layers"]))
        for c in cells
    ]


def _random_init(params):
    from ..boolean import NAMED_FUNCTIONS
    from ._random_init import random_function_cell, random_init_cell, reference_cell
    from ._random_init._cells import network_grid

    # The study's own grid, unsorted (sorting its 10^5 cells alone takes most of
    # a second at the full preset).
    out = _network_cells(network_grid(params), random_init_cell)
    for function in NAMED_FUNCTIONS:
        for n_bits in params["n_bits"]:
            c = dict(function=function, n_bits=n_bits, exhaustive_max=params["exhaustive_max"],
                     n_samples=params["n_samples"], random_state=params["random_state"])
            strings = 2.0 ** n_bits if n_bits <= c["exhaustive_max"] else c["n_samples"]
            out.append(Cell(reference_cell, c, "reference", n_bits * strings))
    if params["n_random_functions"] > 0:
        for n_bits in params["n_bits"]:
            if n_bits <= params["exhaustive_max"]:
                c = dict(n_bits=n_bits, n_functions=params["n_random_functions"],
                         random_state=params["random_state"])
                out.append(Cell(random_function_cell, c, "control",
                                params["n_random_functions"] * n_bits * 2.0 ** n_bits))
    return out


def _training(params):
    from ._training import training_cell, training_cells

    out = []
    for c in training_cells(params):
        shape = (c["n_bits"], c["d_model"], c["n_layers"])
        # Training steps (backward ~ 2 forward passes) and the checks every
        # check_every steps; the budget is the most a run can use (early stops cost less).
        passes = c["n_steps"] * (c["batch_size"] * 3 + c["n_eval"] / c["check_every"])
        work = _network(*shape) * passes + _profile(*shape, c["exhaustive_max"], c["n_samples"])
        out.append(Cell(training_cell, c, "fit", work))
    return out


def _k_sparse(params):
    from ._k_sparse import k_sparse_cell, step_cells, v1_cell, v1_cells

    out = []
    for c in step_cells(params):
        if c["n"] == 0:  # exact population steps: O(k d m) each
            kind, work = "population", c["d"] * (c["k"] * c["m"] * c["n_steps"] + c["n_test"])
        else:  # drawing the n samples and their k-fold products dominate (timed: m hardly matters)
            kind, work = "sample", c["d"] * (c["n"] * (c["k"] + c["n_steps"]) + c["n_test"])
        out.append(Cell(k_sparse_cell, c, kind, work))
    if params["v1_seeds"]:
        k_parity, sparse_xor = v1_cells(params)
        for c in k_parity:
            out.append(Cell(v1_cell, c, "v1_k_parity",
                            c["epochs"] * c["n"] * c["d"] * c["k"] + c["n_test"] * c["d"]))
        for c in sparse_xor:
            out.append(Cell(v1_cell, c, "v1_sparse_xor",
                            c["d"] * (c["k"] * c["m"] * c["n_steps"] * c["n"] + c["n_test"])))
    return out


def _zero_sensitivity_bound(params):
    from ._zero_sensitivity_bound import bound_cells, zero_sensitivity_bound_cell

    return _network_cells(bound_cells(params), zero_sensitivity_bound_cell)


#: Study name -> the cells of a run with the given parameters.
CELLS = {
    "one_step": _one_step,
    "sample_complexity": _sample_complexity,
    "parameter_scaling": _parameter_scaling,
    "random_init_sensitivity": _random_init,
    "training_sensitivity": _training,
    "k_sparse": _k_sparse,
    "zero_sensitivity_bound": _zero_sensitivity_bound,
}

#: Studies whose count is an upper bound (they stop early when a rule is met).
ADAPTIVE = {"parameter_scaling": "sizes are tried upwards and the search stops "
                                 "sizes_beyond sizes after the first that meets the rule"}


def run_cells(study, params):
    """The cells a run of ``study`` with validated ``params`` computes, without computing.

    Parameters
    ----------
    study : str
        A registered study name.
    params : dict
        Validated parameters (:meth:`Study.params`).

    Returns
    -------
    cells : list of Cell
        ``function``, ``params``, ``kind`` and ``work`` of each cell (for
        ``parameter_scaling`` every size of every grid: an upper bound).

    Examples
    --------
    >>> from skxor.studies import get_study
    >>> from skxor.studies._cost import run_cells
    >>> params = get_study("one_step").params("quick")
    >>> len(run_cells("one_step", params))  # 3 attentions x 3 d x 2 m x 10 seeds x 4 x 2
    1440
    """
    if study not in CELLS:
        raise ValueError(f"no cost model for study {study!r}; known: {sorted(CELLS)}.")
    return CELLS[study](params)


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
        """Estimated CPU seconds of each cell (a kind never timed: the study's largest slope)."""
        rows = self.calibrated(study)
        if rows.empty:
            raise ValueError(f"no calibrated cost for study {study!r}: run "
                             "python benchmarks/calibrate_costs.py.")
        fallback = rows.sort_values("slope_s").iloc[-1]
        kinds = np.array([cell.kind for cell in cells], dtype=object)
        work = np.array([cell.work for cell in cells], dtype=float)
        out = np.empty(len(cells))
        for kind in set(kinds):
            row = self._rows.get((study, kind), fallback)
            mask = kinds == kind
            out[mask] = row.intercept_s + row.slope_s * work[mask]
        return out


def _tally(study, params, model):
    """Cells and CPU seconds per kind of the cells ``params`` give, and the costliest cell."""
    cells = run_cells(study, params)
    seconds = model.seconds(study, cells) if cells else np.zeros(0)
    by_kind = {}
    for cell, s in zip(cells, seconds):
        entry = by_kind.setdefault(cell.kind, {"cells": 0, "cpu_seconds": 0.0})
        entry["cells"] += 1
        entry["cpu_seconds"] += float(s)
    return by_kind, float(seconds.max()) if len(seconds) else 0.0


#: From this many seeds on, the cells are counted from those of 1, 2 and 3 seeds.
_COUNTED_FROM_SEEDS = 8


def _counted(study, params, model):
    """:func:`_tally` of ``params``, without building a cell per seed when there are many.

    Each seed adds the same cells (a copy of every configuration), so with
    1, 2 and 3 seeds agreeing on what one seed adds, ``seeds`` seeds add
    ``seeds - 1`` times that to one seed's; otherwise every cell is built.
    """
    seeds = params.get("seeds")
    if not isinstance(seeds, numbers.Integral) or seeds < _COUNTED_FROM_SEEDS:
        return _tally(study, params, model)
    (one, top), (two, _), (three, _) = (_tally(study, {**params, "seeds": s}, model)
                                        for s in (1, 2, 3))
    kinds = list(dict.fromkeys([*one, *two, *three]))
    zero = {"cells": 0, "cpu_seconds": 0.0}
    step = {k: {f: two.get(k, zero)[f] - one.get(k, zero)[f] for f in zero} for k in kinds}
    steady = all(three.get(k, zero)["cells"] - two.get(k, zero)["cells"] == step[k]["cells"]
                 and math.isclose(three.get(k, zero)["cpu_seconds"] - two.get(k, zero)[
                     "cpu_seconds"], step[k]["cpu_seconds"], rel_tol=1e-9, abs_tol=1e-9)
                 for k in kinds)
    if not steady:
        return _tally(study, params, model)
    by_kind = {k: {f: one.get(k, zero)[f] + (seeds - 1) * step[k][f] for f in zero}
               for k in kinds}
    return {k: v for k, v in by_kind.items() if v["cells"]}, top


def estimate(study, preset="quick", overrides=None, *, n_jobs=None, model=None):
    """Cells and estimated CPU and wall time of a run; nothing is computed.

    Parameters
    ----------
    study : str
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

    from ._registry import get_study

    params = get_study(study).params(preset, overrides)
    model = model or CostModel()
    by_kind, largest = _counted(study, params, model)
    workers = max(1, effective_n_jobs(n_jobs) if n_jobs is not None else 1)
    cells = sum(entry["cells"] for entry in by_kind.values())
    cpu = float(sum(entry["cpu_seconds"] for entry in by_kind.values()))
    return {
        "study": study, "preset": preset, "cells": cells,
        "upper_bound": study in ADAPTIVE, "cpu_seconds": cpu,
        "wall_seconds": max(cpu / min(workers, max(cells, 1)), largest),
        "largest_cell_seconds": largest, "by_kind": by_kind, "workers": workers,
    }


def _duration(seconds):
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
    without a calibrated cost model (a user's) gets its cell count only.

    Examples
    --------
    >>> from skxor.studies._cost import dry_run_text
    >>> print(dry_run_text("one_step", "quick", {"d": 100, "seeds": 2}).splitlines()[0])
    one_step, preset quick with d=100, seeds=2: 96 cells
    """
    if not isinstance(study, str):  # a Study object: a library study, or a user's
        if study.name not in CELLS:
            # No cost was calibrated for a user's study: its cells are counted.
            params = study.params(preset, overrides)
            return (f"{study.name}, preset {preset}: {study.count_cells(params)} cells (no cost "
                    "model is calibrated for this study: time a few cells, e.g. with --set "
                    "seeds=1, to estimate the rest)")
        study = study.name
    model = model or CostModel()
    e = estimate(study, preset, overrides, n_jobs=n_jobs, model=model)
    given = ", ".join(f"{k}={v}" for k, v in (overrides or {}).items())
    cells = f"{'at most ' if e['upper_bound'] else ''}{e['cells']} cells"
    lines = [f"{study}, preset {preset}{' with ' + given if given else ''}: {cells}"]
    if e["upper_bound"]:
        lines.append(f"  (an upper bound: {ADAPTIVE[study]})")
    for kind, entry in e["by_kind"].items():
        lines.append(f"  {kind}: {entry['cells']} cells, {_duration(entry['cpu_seconds'])} CPU")
    calibrated = model.calibrated(study)
    error = float(np.exp(calibrated["median_abs_log_error"].max())) if len(calibrated) else math.nan
    lines.append(
        f"estimated CPU time: {_duration(e['cpu_seconds'])} (costliest cell "
        f"{_duration(e['largest_cell_seconds'])}); the cost model is calibrated on one "
        f"machine and matched its timed cells within a factor of about {error:.1f} "
        "(median), so read it as an order of magnitude"
    )
    for workers in (2, 16):
        wall = max(e["cpu_seconds"] / min(workers, max(e["cells"], 1)),
                   e["largest_cell_seconds"])
        lines.append(f"  on {workers} workers (--n-jobs {workers}): about {_duration(wall)} "
                     "wall time on otherwise idle cores")
    args = f"skxor run {study} --preset {preset}" + "".join(
        f" --set {k}={v}" for k, v in (overrides or {}).items())
    lines += [
        "to run it:",
        f"  {args} --n-jobs -1            # every local CPU",
        f"  {args} --scheduler tcp://HOST:8786   # a dask cluster (pip install 'skxor[dask]')",
    ]
    study_params = _study_parameters(study)
    if "device" in study_params:
        lines.append(f"  {args} --set device=cuda   # network evaluations on a GPU")
    else:
        lines.append("  (this study has no device parameter: its cells run on the CPU)")
    lines.append("add --out FOLDER; finished cells are checkpointed there, so a stopped run "
                 "resumes where it stopped.")
    return "\n".join(lines)


def _study_parameters(study):
    from ._registry import get_study

    return get_study(study).parameters
