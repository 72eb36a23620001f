"""Start-up of the command line: the answers that need no model, against ``import torch`` alone.

``skxor --version``, ``--help`` and an argument mistake import neither torch
nor the studies (issue 37); each is timed as a fresh ``python -m skxor.cli``
process beside a fresh ``python -c "import torch"``, interleaved, best of
each. The child reports whether torch got imported: if it did, the row is an
ERROR, whatever the times. ``skxor list`` reads the studies, whose cells
import torch; its time is in the note, against the same baseline.
"""

import subprocess
import sys
import time

from _common import size

# Prints, after the command, whether torch was imported (the command's own
# exit status is kept).
_CHILD = ("import sys, runpy\n"
          "sys.argv = ['skxor', *sys.argv[1:]]\n"
          "try:\n"
          "    runpy.run_module('skxor.cli', run_name='__main__')\n"
          "except SystemExit as exc:\n"
          "    code = exc.code\n"
          "else:\n"
          "    code = 0\n"
          "print('@@torch', 'torch' in sys.modules, file=sys.stderr)\n"
          "sys.exit(code)\n")


def _time(argv):
    start = time.perf_counter()
    result = subprocess.run(argv, capture_output=True, text=True)
    return time.perf_counter() - start, result


def _cli(args):
    seconds, result = _time([sys.executable, "-c", _CHILD, *args])
    return seconds, result.returncode, "@@torch True" in result.stderr


def cli_start_vs_import_torch(repeat=None):
    """``skxor --version``, ``--help`` and ``run one_step --set d100`` vs ``import torch``."""
    repeat = repeat or size(5, 1)
    commands = {"--version": (["--version"], 0), "--help": (["--help"], 0),
                "--set d100": (["run", "one_step", "--set", "d100"], 2)}
    best = dict.fromkeys(["import torch", *commands], float("inf"))
    torch_seen, wrong = [], []
    for _ in range(repeat):
        seconds, result = _time([sys.executable, "-c", "import torch"])
        assert result.returncode == 0, result.stderr
        best["import torch"] = min(best["import torch"], seconds)
        for name, (args, expected) in commands.items():
            seconds, code, imported = _cli(args)
            best[name] = min(best[name], seconds)
            if imported:
                torch_seen.append(name)
            if code != expected:
                wrong.append(f"{name} exited {code}")
    list_s, list_code, _ = _cli(["list"])
    slowest = max(commands, key=best.get)
    ratio = best[slowest] / best["import torch"]
    status = {}
    if torch_seen or wrong or list_code != 0:
        status = {"status": "ERROR"}
    return {
        "benchmark": "skxor --version / --help / an argument mistake (slowest of the three, "
                     "fresh process) vs python -c 'import torch'",
        "target": "<= 0.5x",
        "baseline_s": best["import torch"], "skxor_s": best[slowest], "ratio": ratio,
        "passes": ratio <= 0.5 and not status,
        "note": "; ".join(filter(None, [
            "best of %d: " % repeat + ", ".join(f"{k} {v:.2f} s" for k, v in best.items()),
            f"skxor list (imports the studies and torch) {list_s:.2f} s, "
            f"{list_s / best['import torch']:.2f}x import torch",
            f"torch imported by {sorted(set(torch_seen))}" if torch_seen else "",
            ", ".join(wrong),
        ])),
        **status,
    }


BENCHMARKS = [cli_start_vs_import_torch]
