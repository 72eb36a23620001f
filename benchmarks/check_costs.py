"""Compare the dry run's estimate with a real run of a small slice of a study.

    python benchmarks/check_costs.py one_step --preset full --set d=100000 --set m=64 --set seeds=2

Runs the slice in this process on one worker (into a temporary folder) and
prints the cells, the estimated CPU seconds and the CPU seconds the run
used (user + system time of this process, imports excluded), with their
ratio, and the load average: the cost model is calibrated on a shared
machine, and CPU time is what it predicts.
"""

import argparse
import os
import resource
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skxor.cli import _override, _collect_overrides  # noqa: E402
from skxor.studies import estimate, run_studies  # noqa: E402


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("study")
    parser.add_argument("--preset", default="quick")
    parser.add_argument("--set", action="append", type=_override, default=[])
    args = parser.parse_args(argv)
    overrides = _collect_overrides(args.set, [args.study])[args.study]
    e = estimate(args.study, args.preset, overrides)
    print(f"load average at start: {os.getloadavg()}")
    before = cpu_seconds()
    with tempfile.TemporaryDirectory() as out:
        results = run_studies([args.study], preset=args.preset, out_dir=out,
                              overrides={args.study: overrides}, progress=False, echo=print)
    used = cpu_seconds() - before
    print(f"load average at end: {os.getloadavg()}")
    print(f"{args.study} {args.preset} {overrides}: {e['cells']} cells estimated, "
          f"{len(results[args.study])} rows; estimated CPU {e['cpu_seconds']:.1f} s, "
          f"measured CPU {used:.1f} s (figures and report included), "
          f"estimate / measured = {e['cpu_seconds'] / used:.2f}")


if __name__ == "__main__":
    main()
