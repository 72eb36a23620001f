"""Run the benchmark suite and write benchmarks/results.csv.

    python benchmarks/run.py                 # all benchmarks
    python benchmarks/run.py sparse_xor      # only modules or benchmarks whose name matches

Each benchmark times skxor and a baseline side by side in this one process
and reports their ratio, with the machine it ran on.
"""

import importlib
import sys
import time
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import machine  # noqa: E402

MODULES = ["bench_sparse_xor", "bench_sensitivity", "bench_ffnn", "bench_k_heads"]


def main(argv):
    wanted = argv[1:]
    rows = []
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            print(f"skipping {name}: {exc}")
            continue
        for bench in module.BENCHMARKS:
            if wanted and not any(w in name or w in bench.__name__ for w in wanted):
                continue
            start = time.perf_counter()
            result = bench()
            for row in result if isinstance(result, list) else [result]:
                row.setdefault("note", "")
                rows.append(row)
                print(f"{row['benchmark']}: ratio {row['ratio']:.2f} ({row['target']}) "
                      f"{'PASS' if row['passes'] else 'FAIL'}  [{time.perf_counter() - start:.0f} s]",
                      flush=True)
    table = pd.DataFrame(rows)
    table["machine"] = machine()
    table["date"] = time.strftime("%Y-%m-%d")
    for col in ("baseline_s", "skxor_s", "ratio"):
        table[col] = table[col].map(lambda v: f"{v:.4g}")
    out = HERE / "results.csv"
    if wanted and out.exists():  # keep the other benchmarks' rows
        old = pd.read_csv(out, dtype=str)
        table = pd.concat([old[~old["benchmark"].isin(table["benchmark"])], table.astype(str)])
    table.to_csv(out, index=False)
    print(f"wrote {out}")
    return 0 if table["passes"].astype(str).eq("True").all() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
