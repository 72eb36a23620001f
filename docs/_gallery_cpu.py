"""Each gallery example's CPU time, for the gallery test (tests/test_docs.py).

sphinx-gallery calls a ``reset_modules`` entry before and after each example;
this one reads the build process's CPU time (user + system, every thread, from
``resource.getrusage``) at both and, when ``SKXOR_GALLERY_CPU_FILE`` names a
file, appends ``example<TAB>seconds`` to it. CPU time, not wall time: a busy
machine slows an example's wall clock, not its CPU seconds.
"""

import os
import resource
from pathlib import Path


class CPUClock:
    """A ``reset_modules`` callable: the CPU seconds of each example (a class instance,
    not a function, so that Sphinx can pickle the configuration)."""

    def __init__(self):
        self._start = {}

    def __repr__(self):  # sphinx-gallery hashes the configuration by its text
        return "CPUClock()"

    def __call__(self, gallery_conf, fname, when):
        out = os.environ.get("SKXOR_GALLERY_CPU_FILE")
        if not out or fname is None:
            return
        usage = resource.getrusage(resource.RUSAGE_SELF)
        now = usage.ru_utime + usage.ru_stime
        if when == "before":
            self._start[fname] = now
        elif fname in self._start:
            with open(out, "a") as f:
                f.write(f"{Path(fname).name}\t{now - self._start.pop(fname):.2f}\n")
