"""Run the benchmark suite and write benchmarks/results.csv.

    python benchmarks/run.py                   # all benchmarks
    python benchmarks/run.py sparse_xor memory # only modules or benchmarks whose name matches
    python benchmarks/run.py --list            # the benchmarks' names
    python benchmarks/run.py --quick           # small sizes: a smoke test, writes nothing
    python benchmarks/run.py --threads 1       # torch threads (default: torch's own)

Each benchmark times skxor and a baseline side by side in this one process
(or in fresh child processes, for peak memory) and reports their ratio, with
the machine it ran on. Rows measured in rounds (``_common.ratio_row``) give
the median ratio over at least 5 interleaved rounds by the CPU time of one
thread (wall time only where parallelism is the point), pass on the median
and keep the min and max in the columns ratio_min and ratio_max. A benchmark whose measurement fails its own sanity
check, or that raises, is reported as ERROR, never as PASS.
"""

import argparse
import importlib
import os
import sys
import time
import traceback
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
# Benchmark the checkout this script is in, not whatever skxor is installed.
sys.path.insert(1, str(HERE.parent))

import _common  # noqa: E402

MODULES = ["bench_sparse_xor", "bench_sensitivity", "bench_ffnn", "bench_boolean_transformer",
           "bench_k_heads", "bench_flip_neighbours", "bench_cli", "bench_bits", "bench_exhaustive",
           "bench_training"]
COLUMNS = ["benchmark", "target", "baseline_s", "skxor_s", "ratio", "ratio_min", "ratio_max",
           "rounds", "clock", "passes", "status", "note", "machine", "date"]


def _benchmarks():
    for name in MODULES:
        module = importlib.import_module(name)
        for bench in module.BENCHMARKS:
            yield name, bench


def _status(row):
    return row.get("status") or ("PASS" if row["passes"] else "FAIL")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*",
                        help="run only modules or benchmarks whose name contains one of these")
    parser.add_argument("--quick", action="store_true",
                        help="small sizes, to check the suite runs; results are not written")
    parser.add_argument("--threads", type=int, default=None,
                        help="torch intra-op threads (default: torch's choice)")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    parser.add_argument("--out", type=Path, default=HERE / "results.csv",
                        help="CSV to update (default: benchmarks/results.csv)")
    args = parser.parse_args(argv)

    import torch

    if args.threads is not None:
        torch.set_num_threads(args.threads)
    _common.QUICK = args.quick
    selected = [(m, b) for m, b in _benchmarks()
                if not args.names or any(w in m or w in b.__name__ for w in args.names)]
    if args.list or not selected:
        for m, b in _benchmarks():
            print(f"{m}.{b.__name__}")
        return 0 if args.list else 2

    rows = []
    for module_name, bench in selected:
        start = time.perf_counter()
        load_start = os.getloadavg()
        try:
            result = bench()
        except Exception as exc:  # report it, run the rest
            traceback.print_exc()
            result = {"benchmark": f"{module_name}.{bench.__name__}", "target": "",
                      "baseline_s": float("nan"), "skxor_s": float("nan"),
                      "ratio": float("nan"), "passes": False, "status": "ERROR",
                      "note": f"raised {type(exc).__name__}: {exc}"}
        load = (f"load average {', '.join(f'{v:.2f}' for v in load_start)} at start, "
                f"{', '.join(f'{v:.2f}' for v in os.getloadavg())} at end")
        for row in result if isinstance(result, list) else [result]:
            row["note"] = "; ".join(filter(None, [row.get("note", ""), load]))
            row["status"] = _status(row)
            rows.append(row)
            print(f"{row['benchmark']}: ratio {row['ratio']:.3g} ({row['target']}) "
                  f"{row['status']}  [{time.perf_counter() - start:.0f} s]", flush=True)
    return write(rows, args.out, quick=args.quick, keep_others=bool(args.names))


def write(rows, out, quick=False, keep_others=True):
    """Write ``rows`` to ``out`` (keeping its other benchmarks' rows); 1 if any is not PASS."""
    table = pd.DataFrame(rows)
    table["status"] = [_status(row) for row in rows]
    table["machine"] = _common.machine()
    table["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    for col in ("baseline_s", "skxor_s", "ratio", "ratio_min", "ratio_max"):
        if col in table:  # the spread: rows measured in rounds (see _common.ratio_row)
            table[col] = table[col].map(lambda v: "" if pd.isna(v) else f"{v:.4g}")
    if "rounds" in table:
        table["rounds"] = table["rounds"].map(lambda v: "" if pd.isna(v) else str(int(v)))
    table = table.reindex(columns=COLUMNS, fill_value="").astype(str)
    failed = not table["status"].eq("PASS").all()
    if quick:
        print(table[["benchmark", "ratio", "status"]].to_string(index=False))
        print("quick mode: results not written")
        return int(failed)
    if keep_others and out.exists():
        old = pd.read_csv(out, dtype=str, keep_default_na=False)
        if "status" not in old:
            old["status"] = old["passes"].map({"True": "PASS", "False": "FAIL"})
        old = old.reindex(columns=COLUMNS, fill_value="")
        table = pd.concat([old[~old["benchmark"].isin(table["benchmark"])], table])
    table.to_csv(out, index=False)
    print(f"wrote {out}")
    return int(failed)

if __name__ == "__main__":
    sys.exit(main())
