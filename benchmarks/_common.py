"""Shared timing helpers: best-of-k wall time and peak memory, side by side."""

import gc
import platform
import subprocess
import sys
import threading
import time

import psutil
import torch


def best_time(fn, repeat=3):
    """Best wall time of ``fn()`` over ``repeat`` runs (the least disturbed one)."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


class PeakRSS:
    """Sample the process's resident memory in a thread; ``peak - start`` in bytes."""

    def __init__(self, interval=0.002):
        self.interval = interval
        self.process = psutil.Process()

    def __enter__(self):
        gc.collect()
        self.start = self.process.memory_info().rss
        self.peak = self.start
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        return self

    def _watch(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, self.process.memory_info().rss)
            time.sleep(self.interval)

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self.process.memory_info().rss)

    @property
    def increase(self):
        return self.peak - self.start


def machine():
    """One line naming the machine the benchmark ran on."""
    return (
        f"{platform.processor() or platform.machine()}, {psutil.cpu_count()} cores, "
        f"{psutil.virtual_memory().total / 2**30:.0f} GiB, torch {torch.__version__}, "
        f"{torch.get_num_threads()} threads"
    )




def subprocess_peak_rss(setup, work=""):
    """Peak resident memory (bytes) of a fresh Python running ``setup`` then ``work``.

    Run once with ``work`` and once without: the difference is what ``work``
    needed at its peak, free of memory this process already holds.
    """
    code = (
        f"{setup}\n{work}\nimport resource\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout.strip().splitlines()[-1]) * 1024  # ru_maxrss is in KiB on Linux
