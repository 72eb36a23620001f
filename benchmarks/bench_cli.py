"""Start-up of the command line: the answers that need no model, against ``import torch`` alone.

``skxor --version``, ``--help`` and an argument mistake import neither torch
nor the studies (issue 37); nor do ``skxor list``, a mistyped study name and
a study file that does not exist (issue 51, item 6; issue 48, item 18),
which read the studies' catalogue. Each is timed as a fresh ``python -m
skxor.cli`` process beside a fresh ``python -c "import torch"``,
interleaved, best of each. The child reports whether torch got imported: if
it did, the row is an ERROR, whatever the times.
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


def _against_torch(commands, repeat):
    """Best of ``repeat`` of each command and of ``import torch``, interleaved.

    Returns the best times, the commands that imported torch and those that
    exited with another status than expected.
    """
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
    return best, sorted(set(torch_seen)), wrong


def _row(benchmark, commands, repeat):
    best, torch_seen, wrong = _against_torch(commands, repeat)
    slowest = max(commands, key=best.get)
    ratio = best[slowest] / best["import torch"]
    status = {"status": "ERROR"} if torch_seen or wrong else {}
    return {
        "benchmark": benchmark, "target": "<= 0.5x",
        "baseline_s": best["import torch"], "skxor_s": best[slowest], "ratio": ratio,
        "passes": ratio <= 0.5 and not status,
        "note": "; ".join(filter(None, [
            "best of %d: " % repeat + ", ".join(f"{k} {v:.2f} s" for k, v in best.items()),
            f"torch imported by {torch_seen}" if torch_seen else "",
            ", ".join(wrong),
        ])),
        **status,
    }


def cli_start_vs_import_torch(repeat=None):
    """``skxor --version``, ``--help`` and ``run one_step --set d100`` vs ``import torch``."""
    return _row(
        "skxor --version / --help / an argument mistake (slowest of the three, fresh "
        "process) vs python -c 'import torch'",
        {"--version": (["--version"], 0), "--help": (["--help"], 0),
         "--set d100": (["run", "one_step", "--set", "d100"], 2)},
        repeat or size(5, 1))


def cli_list_vs_import_torch(repeat=None):
    """``skxor list``, ``run one_stp`` and ``run nosuch.py`` vs ``import torch``."""
    return _row(
        "skxor list / run one_stp (did you mean) / run nosuch.py (slowest of the three, "
        "fresh process) vs python -c 'import torch'",
        {"list": (["list"], 0), "run one_stp": (["run", "one_stp"], 2),
         "run nosuch.py": (["run", "nosuch.py"], 2)},
        repeat or size(5, 1))


BENCHMARKS = [cli_start_vs_import_torch, cli_list_vs_import_torch]
