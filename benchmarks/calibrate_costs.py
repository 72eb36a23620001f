"""Calibrate the per-cell cost model of ``skxor run --dry-run`` on this machine.

    python benchmarks/calibrate_costs.py                  # every study, write the table
    python benchmarks/calibrate_costs.py --study one_step --no-write
    python benchmarks/calibrate_costs.py --study parameter_scaling --kind ffnn_online \
        --from-run RUN_FOLDER            # fit one kind on a finished run's own cells
    python benchmarks/calibrate_costs.py --study sample_complexity --kind ffnn \
        --from-table docs/results/data/sample_complexity/sample_complexity.csv.gz

For each study and each kind of cell (see :mod:`skxor.studies._cost`) this
times, by CPU time on one thread, a few representative cells drawn from the
quick and full presets (log-spaced in their work figure, up to ``--grow``
times the largest quick cell), fits ``seconds = intercept + slope * work`` by
non-negative least squares on relative errors, and writes the intercepts,
slopes, the number of cells timed and the median |log(estimate / measured)|
to skxor/studies/data/costs.csv. The load average is printed: timings on a
shared machine are noisy.

With ``--from-run`` nothing is timed: the kinds named by ``--kind`` are fitted
on the cells a finished run checkpointed under ``RUN_FOLDER/checkpoints``
(each cell's own ``seconds``, priced by the study's cost hook), for cells
whose cost depends on how they end (a run that stops once it has learned):
their average over a real run, not a few picked cells, is what a dry run needs
(fitted on absolute errors, so that the estimates add up to the run's time).
``--from-table`` fits the same way on a stored run's table, whose rows carry
each cell's ``seconds`` (for a run whose checkpoints are gone).
"""

import argparse
import datetime
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import nnls

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skxor.studies import STUDIES
from skxor.studies import get_study  # noqa: E402
from skxor.studies._cost import COSTS_PATH, run_cells  # noqa: E402


#: Cells timed per study: training runs stop early once learned, so only PARITY
#: (which no run learns beyond a few bits) shows what a whole budget costs.
TIMED = {"training_sensitivity": lambda cell: cell.params["function"] == "PARITY"}


def pick(cells, quick_work, per_kind, grow):
    """Up to ``per_kind`` cells of one kind, log-spaced in work, none above the cap."""
    cap = grow * max(quick_work)
    seen, unique = set(), []
    for cell in sorted(cells, key=lambda c: c.work):
        if cell.work <= cap and cell.work not in seen:
            seen.add(cell.work)
            unique.append(cell)
    if len(unique) < 3:
        # Too few sizes below the cap to fit a slope: add the smallest larger cell.
        larger = sorted((c for c in cells if c.work > cap), key=lambda c: c.work)
        unique += larger[:3 - len(unique)]
    if len(unique) <= per_kind:
        return unique
    logs = np.log(np.maximum([c.work for c in unique], 1e-9))
    targets = np.linspace(logs[0], logs[-1], per_kind)
    chosen = {int(np.argmin(np.abs(logs - t))) for t in targets}
    return [unique[i] for i in sorted(chosen)]


def time_cell(cell):
    start = time.process_time()
    cell.function(**cell.params)
    return time.process_time() - start


def fit(work, seconds, relative=True):
    """intercept, slope >= 0 minimising the relative (or absolute) squared error."""
    work, seconds = np.asarray(work, float), np.asarray(seconds, float)
    weights = 1.0 / np.maximum(seconds, 1e-4) if relative else np.ones_like(seconds)
    design = np.column_stack([np.ones_like(work), work]) * weights[:, None]
    (intercept, slope), _ = nnls(design, seconds * weights)
    if slope == 0 and intercept == 0:  # pragma: no cover - degenerate
        slope = float(np.median(seconds / np.maximum(work, 1e-9)))
    estimate = intercept + slope * work
    error = float(np.median(np.abs(np.log(np.maximum(estimate, 1e-9) / np.maximum(seconds, 1e-9)))))
    return float(intercept), float(slope), error


def calibrate(name, per_kind, grow, max_cell, echo=print):
    study = get_study(name)
    quick = run_cells(name, study.preset("quick"))
    candidates = quick + [c for p in study.presets if p != "quick"
                          for c in run_cells(name, study.preset(p))]
    timed = TIMED.get(name, lambda cell: True)
    quick = [c for c in quick if timed(c)]
    candidates = [c for c in candidates if timed(c)]
    rows = []
    for kind in dict.fromkeys(c.kind for c in candidates):
        # Kinds only larger presets have: their smallest cells, up to --grow times larger.
        quick_work = [c.work for c in quick if c.kind == kind] or [
            min(c.work for c in candidates if c.kind == kind)]
        work, seconds = [], []
        chosen = pick([c for c in candidates if c.kind == kind], quick_work, per_kind, grow)
        time_cell(chosen[0])  # warm-up: first calls pay for imports and allocations
        for cell in chosen:
            took = time_cell(cell)
            work.append(cell.work)
            seconds.append(took)
            echo(f"  {name} {kind}: work {cell.work:.3g} -> {took:.3f} s CPU")
            if took > max_cell:
                break  # larger cells would only cost more
        intercept, slope, error = fit(work, seconds)
        rows.append({"study": name, "kind": kind, "intercept_s": intercept, "slope_s": slope,
                     "cells_timed": len(work), "work_min": min(work), "work_max": max(work),
                     "median_abs_log_error": round(error, 4)})
        echo(f"{name} {kind}: {intercept:.3g} s + {slope:.3g} s x work "
             f"({len(work)} cells, median |log error| {error:.2f})")
    return rows


def calibrate_from_run(name, folder, kinds, echo=print):
    """Rows fitted on the checkpointed cells of a finished run of ``name`` under ``folder``."""
    study = get_study(name)
    cells = []
    for path in Path(folder, "checkpoints").rglob("*.json"):
        payload = json.loads(path.read_text())["payload"]
        if payload["cell"]["study"] == name:
            if "seconds" not in payload["result"]:
                raise SystemExit(f"{path}: this cell of {name} records no 'seconds' (the study's "
                                 "cells do not time themselves); calibrate it by timing cells "
                                 f"instead: python benchmarks/calibrate_costs.py --study {name}")
            cells.append((payload["cell"]["params"], payload["result"]["seconds"]))
    return fit_cells(name, study, cells, kinds, folder, echo)


def calibrate_from_table(name, path, kinds, echo=print):
    """Rows fitted on a stored table of ``name``: each row with a time is one cell.

    A study's long table keeps a cell's time on its first row (0 on the others,
    so that the column sums are the run's); the row's columns and its
    ``setting`` give the parameters the cost hook prices.
    """
    study = get_study(name)
    table = pd.read_csv(path)
    if "seconds" not in table:
        raise SystemExit(f"{path}: no 'seconds' column (this study's table keeps no cell "
                         "times); fit on its run's checkpoints with --from-run.")
    timed = table[table["seconds"] > 0]
    cells = [({**json.loads(row.get("setting") or "{}"), **row.to_dict()}, row["seconds"])
             for _, row in timed.iterrows()]
    return fit_cells(name, study, cells, kinds, path, echo)


def fit_cells(name, study, cells, kinds, source, echo):
    """One row per kind in ``kinds``: ``seconds`` against the cost hook's work, absolute errors."""
    found = {kind: ([], []) for kind in kinds}
    for params, seconds in cells:
        kind, work = study.cost(params)
        if kind in found:
            found[kind][0].append(work)
            found[kind][1].append(seconds)
    rows = []
    for kind, (work, seconds) in found.items():
        if len(work) < 3:
            raise SystemExit(f"{source}: {len(work)} cells of kind {kind!r}; a fit needs 3.")
        # Absolute errors: the few long cells (runs that never stop early) carry the
        # run's time, and the dry run predicts that total (relative errors fit the
        # many short cells and gave 0.15 of it on the parameter-scaling run).
        intercept, slope, error = fit(work, seconds, relative=False)
        rows.append({"study": name, "kind": kind, "intercept_s": intercept, "slope_s": slope,
                     "cells_timed": len(work), "work_min": min(work), "work_max": max(work),
                     "median_abs_log_error": round(error, 4)})
        echo(f"{name} {kind}: {intercept:.3g} s + {slope:.3g} s x work ({len(work)} cells of "
             f"the run, median |log error| {error:.2f}, sum of estimates / measured "
             f"{(intercept * len(work) + slope * sum(work)) / sum(seconds):.2f})")
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--study", nargs="+", default=list(STUDIES))
    parser.add_argument("--per-kind", type=int, default=4, help="cells timed per kind")
    parser.add_argument("--grow", type=float, default=20.0,
                        help="largest work timed, relative to the largest quick cell")
    parser.add_argument("--max-cell", type=float, default=20.0,
                        help="stop timing larger cells of a kind after one took this long (s)")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--from-run", help="fit --kind on this finished run's checkpoints")
    parser.add_argument("--from-table", help="fit --kind on this stored table's timed cells")
    parser.add_argument("--kind", nargs="+", default=[],
                        help="kinds fitted with --from-run or --from-table")
    args = parser.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    print(f"load average at start: {os.getloadavg()}")
    rows = []
    for name in args.study:
        if args.from_run:
            rows += calibrate_from_run(name, args.from_run, args.kind)
        elif args.from_table:
            rows += calibrate_from_table(name, args.from_table, args.kind)
        else:
            rows += calibrate(name, args.per_kind, args.grow, args.max_cell)
    load = os.getloadavg()
    print(f"load average at end: {load}")
    table = pd.DataFrame(rows)
    table["calibrated"] = datetime.date.today().isoformat()
    table["load"] = round(load[1], 2)
    table["cpu_count"] = os.cpu_count()
    if not args.no_write:
        if COSTS_PATH.exists():  # keep studies not recalibrated now
            old = pd.read_csv(COSTS_PATH)
            # Keep what is not recalibrated now: other studies, and other kinds with --from-*.
            kept = ~old["study"].isin(args.study) | (
                bool(args.from_run or args.from_table) & ~old["kind"].isin(args.kind))
            table = pd.concat([old[kept], table], ignore_index=True)
        order = {name: i for i, name in enumerate(STUDIES)}
        table = table.sort_values("study", key=lambda s: s.map(order), kind="stable")
        COSTS_PATH.parent.mkdir(parents=True, exist_ok=True)
        table.to_csv(COSTS_PATH, index=False, float_format="%.6g")
        print(f"wrote {COSTS_PATH}")
    print(table.to_string(index=False))


if __name__ == "__main__":
    main()
