"""Shared helpers: side-by-side timing, peak memory of a fresh process, the machine.

Every benchmark compares skxor with a baseline doing the same work in the
same run, so a shared, noisy machine slows both sides alike. Repetitions of
the two sides are interleaved (A B A B ...). The rows of issue 49
(:func:`interleaved_rounds`, :func:`ratio_row`) keep every round's ratio by
the CPU time of one thread and pass on the median, with the min and max in
results.csv; older rows keep the best of each side.
"""

import gc
import json
import os
import platform
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import psutil
import torch

#: Set by ``run.py --quick``: benchmarks then run at small sizes (a smoke test
#: of the suite; such results are printed, never written to results.csv).
QUICK = False


def size(full, quick):
    """The full-size parameter, or its quick-mode stand-in."""
    return quick if QUICK else full


def assert_same_function(ours, baseline, spins, what="the trained networks"):
    """Two trained modules compute the same outputs on ``spins``, to float rounding.

    Outputs, not weights: the attention's key bias has a zero gradient up to
    rounding (softmax ignores a shift), and AdamW scales that rounding noise
    to steps of up to the learning rate, so two equal training loops can end
    with key biases apart (4e-5 after one step, seen on an AVX-512 CPU) that
    change no output.
    """
    with torch.no_grad():
        torch.testing.assert_close(ours(spins), baseline(spins), rtol=1e-4, atol=1e-5,
                                   msg=f"{what}' outputs differ")


def best_time(fn, repeat=3):
    """Best wall time of ``fn()`` over ``repeat`` runs (the least disturbed one)."""
    return interleaved_best({"fn": fn}, repeat)["fn"]


def interleaved_best(fns, repeat=3, clocks=None):
    """Best time of each of ``fns`` (name -> callable), runs interleaved.

    Round r runs every function once, in the given order, so a burst of load
    from another process hits both sides of a comparison, not just one.
    By default the wall clock; with ``clocks`` (a tuple of clock functions,
    e.g. ``(time.process_time, time.perf_counter)``) one dict of best times
    per clock, read around the same runs.
    """
    read = clocks or (time.perf_counter,)
    best = [dict.fromkeys(fns, float("inf")) for _ in read]
    for _ in range(repeat):
        for name, fn in fns.items():
            gc.collect()
            start = [clock() for clock in read]
            fn()
            for b, clock, s in zip(best, read, start):
                b[name] = min(b[name], clock() - s)
    return tuple(best) if clocks else best[0]


#: Rounds of :func:`interleaved_rounds` (each side once per round).
ROUNDS = 5


def interleaved_rounds(fns, rounds=ROUNDS, clock=time.process_time, threads=1):
    """Times of each of ``fns`` (name -> callable) in each of ``rounds`` rounds.

    Round r runs every function once, in the given order, so that load from
    other processes hits every side of a comparison alike; each time is read
    on ``clock``: by default the process's CPU time with torch on
    ``threads`` thread (1: the CPU time of one thread, which a busy machine
    changes far less than the wall clock, where a process waits for a
    core). Returns ``{name: [seconds per round]}``.
    """
    previous = torch.get_num_threads()
    if threads is not None:
        torch.set_num_threads(threads)
    times = {name: [] for name in fns}
    try:
        for _ in range(rounds):
            for name, fn in fns.items():
                gc.collect()
                start = clock()
                fn()
                times[name].append(clock() - start)
    finally:
        torch.set_num_threads(previous)
    return times


def ratio_row(ours, baseline, *, clock="CPU time, 1 thread", higher_is_better=False):
    """Fields of a results row from per-round times: the ratio per round (``ours /
    baseline``, or ``baseline / ours`` with ``higher_is_better``), its median (on
    which a row passes), min and max, and the median seconds of each side."""
    ours, baseline = np.asarray(ours, dtype=float), np.asarray(baseline, dtype=float)
    ratios = baseline / ours if higher_is_better else ours / baseline
    return {"baseline_s": float(np.median(baseline)), "skxor_s": float(np.median(ours)),
            "ratio": float(np.median(ratios)), "ratio_min": float(ratios.min()),
            "ratio_max": float(ratios.max()), "rounds": int(ratios.size), "clock": clock}


def spread_text(row):
    """``median R (min A, max B) over n rounds, by <clock>`` for a row's note."""
    return (f"ratio median {row['ratio']:.3g} (min {row['ratio_min']:.3g}, max "
            f"{row['ratio_max']:.3g}) over {row['rounds']} interleaved rounds, by {row['clock']}")


def paired_pieces(product, pieces, repeat):
    """Time each of ``pieces`` right after one run of ``product``, ``repeat`` times over.

    A FLOP-rate share compares the work with a matrix product; timing each
    piece just after a product makes each pair see the same moment's load.
    Returns ``(cpu, wall, pairs)``: the best CPU and wall times of
    ``"matmul"`` and ``"work"`` (dicts), and the CPU times ``(product,
    piece)`` of every pair, from which the per-piece shares follow.
    """
    cpu = {"matmul": float("inf"), "work": float("inf")}
    wall, pairs = dict(cpu), []
    for _ in range(repeat):
        for piece in pieces:
            times = {}
            for name, fn in (("matmul", product), ("work", piece)):
                gc.collect()
                c0, w0 = time.process_time(), time.perf_counter()
                fn()
                times[name] = time.process_time() - c0
                cpu[name] = min(cpu[name], times[name])
                wall[name] = min(wall[name], time.perf_counter() - w0)
            pairs.append((times["matmul"], times["work"]))
    return cpu, wall, pairs


def share_spread(pairs, work_flops, matmul_flops):
    """Median and quartiles of the per-piece shares (each piece vs the product before it)."""
    shares = [(work_flops / w) / (matmul_flops / m) for m, w in pairs]
    q1, q2, q3 = np.percentile(shares, [25, 50, 75])
    return (f"per-piece shares (each piece vs the product before it): median {q2:.1%}, "
            f"quartiles {q1:.1%}-{q3:.1%} over {len(shares)} pieces")


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


# The child's own memory: VmRSS and VmHWM from /proc/self/status belong to the
# child's address space, which exec creates afresh (unlike ru_maxrss, which on
# Linux survives exec and so reports the parent's peak). Writing "5" to
# /proc/self/clear_refs resets VmHWM to the current RSS, so the peak of each
# timed step is measured from where that step started.
_CHILD_PRELUDE = textwrap.dedent(
    """
    import gc, json, time

    def _status(key):
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024  # kB
        raise RuntimeError(key + " missing from /proc/self/status")

    def _reset_peak():
        gc.collect()
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return _status("VmRSS")

    _steps = {}

    def measure(name, fn):
        start_rss = _reset_peak()
        start = time.perf_counter()
        out = fn()
        seconds = time.perf_counter() - start
        _steps[name] = {"seconds": seconds, "start_rss": start_rss,
                        "peak": _status("VmHWM"), "increase": _status("VmHWM") - start_rss}
        return out
    """
)


def run_child(code, timeout=None):
    """Run ``code`` in a fresh Python; return what it measured.

    ``code`` may call ``measure(name, fn)``, which times ``fn()`` and reads the
    child's own peak resident memory during it (``increase`` = peak minus the
    resident memory when the step began, in bytes). Returns ``{"steps": {name:
    {...}}, "final_hwm": bytes, "final_rss": bytes}``, the last two being the
    child's whole-life peak and its resident memory at the end.
    """
    epilogue = (
        "\nprint('@@' + json.dumps({'steps': _steps, 'final_hwm': _status('VmHWM'), "
        "'final_rss': _status('VmRSS')}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", _CHILD_PRELUDE + textwrap.dedent(code) + epilogue],
        capture_output=True, text=True, timeout=timeout,
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join(os.path.abspath(p or ".") for p in sys.path),
            # The child uses as many threads as this process (run.py --threads).
            "OMP_NUM_THREADS": str(torch.get_num_threads()),
        },
    )
    if out.returncode != 0:
        raise RuntimeError(f"benchmark child failed:\n{out.stderr[-2000:]}")
    line = [ln for ln in out.stdout.splitlines() if ln.startswith("@@")][-1]
    return json.loads(line[2:])


def cpu_model():
    """The CPU's model name from /proc/cpuinfo (else what platform says)."""
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine():
    """One line naming the machine and software the benchmark ran on."""
    return (
        f"{cpu_model()}, {psutil.cpu_count()} cores, "
        f"{psutil.virtual_memory().total / 2**30:.0f} GiB, Python {platform.python_version()}, "
        f"torch {torch.__version__}, {torch.get_num_threads()} threads"
    )
