"""Run the mutants mutmut generated for one module in ONE pytest process.

For a loaded machine, where ``tools/mutation_score.py`` (mutmut forks a pytest run per
mutant, and times out mutants whose tests only wait for a core) is too slow. Start
``mutation_score.py`` for the module first (it writes the scratch folder and its
``mutants/`` copy, with every mutant of the module behind mutmut's trampolines), stop it
once the mutants are generated, then, from that ``mutants/`` folder::

    PYTHONPATH=$PWD python /path/to/tools/mutation_inprocess.py DOTTED.MODULE OUT.jsonl \
        FUNCTION [FUNCTION ...] -- tests/unit/test_x.py -k "words"

Each mutant is switched on through ``MUTANT_UNDER_TEST`` (the trampoline reads it at
every call). As in mutmut, a mutant runs only the selected tests that reach its function
(found in the clean pass, which runs every test with mutmut's ``stats`` switch and records
the trampolines it goes through); a mutant no test reaches is ``no tests``, not run. Its
tests run in order of their clean duration, the test that killed the last mutant first,
and stop at the first failure (a test failing or erroring in setup, call or teardown:
killed). The functions run in the order named, each function's mutants by number. A mutant still running after
``FASTMUT_TIMEOUT`` seconds of wall time (default 120) is a timeout, not a kill.
``FASTMUT_ONLY=FILE`` runs only the mutants named in FILE. One line of JSON per mutant
goes to OUT.jsonl (a rerun skips those already there).

Each mutant's tests run in a child forked from the warm process (as mutmut does), so
nothing a mutant leaves behind (a registry entry, a cache, a fixture) reaches the next;
``FASTMUT_FORK=0`` runs them in the one process, where that is not so (a run of 5
December 2026 "killed" hundreds of mutants that way). Only the tests selected by the
pytest arguments run, among them those that reach the function.
"""
import ast
import json
import os
import re
import signal
import sys
import time

import pytest
import mutmut.mutation.trampoline as _trampoline
from _pytest.runner import CallInfo, get_reraise_exceptions
from _pytest.outcomes import Skipped
from _pytest.tmpdir import tmppath_result_key

module, out, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
sep = rest.index("--")
functions, pytest_args = rest[:sep], rest[sep + 1:]
TIMEOUT = int(os.environ.get("FASTMUT_TIMEOUT", "120"))
FORK = os.environ.get("FASTMUT_FORK", "1") != "0"
path = module.replace(".", "/") + ".py"
names = []
for node in ast.walk(ast.parse(open(path).read())):
    if isinstance(node, ast.FunctionDef):
        m = re.fullmatch(r"x_?(.+)__mutmut_(\d+)", node.name)
        if m and m.group(1).lstrip("_") in [f.lstrip("_") for f in functions]:
            names.append((m.group(1), int(m.group(2)), f"{module}.{node.name}"))
order = [f.lstrip("_") for f in functions]
names.sort(key=lambda n: (order.index(n[0].lstrip("_")), n[1]))
if os.environ.get("FASTMUT_ONLY"):
    only = set(open(os.environ["FASTMUT_ONLY"]).read().split())
    names = [n for n in names if n[2] in only]
done = set()
if os.path.exists(out):
    done = {json.loads(l)["mutant"] for l in open(out)}


class Cut(KeyboardInterrupt):
    pass


def _alarm(sig, frame):
    raise Cut()


def call_runtest_hook(item, when, **kwds):
    hook = {"setup": item.ihook.pytest_runtest_setup, "call": item.ihook.pytest_runtest_call,
            "teardown": item.ihook.pytest_runtest_teardown}[when]
    return CallInfo.from_call(lambda: hook(item=item, **kwds), when=when,
                              reraise=get_reraise_exceptions(item.config))


def _fails(item, why=None):
    """Setup, call, teardown without building reports (no traceback formatting); ``why``,
    a list, gets the exception of a failing step."""
    hasrequest = hasattr(item, "_request")
    if hasrequest and not item._request:
        item._initrequest()
    try:
        failed = False
        info = call_runtest_hook(item, "setup")
        if info.excinfo is not None:
            failed = not info.excinfo.errisinstance(Skipped)
        else:
            info = call_runtest_hook(item, "call")
            failed = info.excinfo is not None and not info.excinfo.errisinstance(Skipped)
        if failed and why is not None:
            why.append(info.excinfo.exconly()[:300])
        # What pytest's report hook records for tmp_path's teardown (no reports are built).
        item.stash.setdefault(tmppath_result_key, {}).update(setup=True, call=not failed)
        info = call_runtest_hook(item, "teardown", nextitem=None)
        torn = info.excinfo is not None and not info.excinfo.errisinstance(Skipped)
        if torn and why is not None:
            why.append("teardown: " + info.excinfo.exconly()[:300])
        return failed or torn
    finally:
        if hasrequest:
            item._request = False
            item.funcargs = None


_hits = set()


def _record_hit(name, caller=None):
    _hits.add(name)


_trampoline.record_trampoline_hit = _record_hit  # the clean pass's stats, without mutmut's state


def _first_failure(name, mine):
    os.environ["MUTANT_UNDER_TEST"] = name
    try:
        for item in mine:
            if _fails(item):
                return item.nodeid
        return None
    finally:
        os.environ.pop("MUTANT_UNDER_TEST", None)


def _in_process(name, mine, session):
    status, by = "survived", None
    signal.alarm(TIMEOUT)
    try:
        by = _first_failure(name, mine)
        status = "killed" if by else "survived"
    except Cut:
        status = "timeout"
        session._setupstate.teardown_exact(None)
    finally:
        signal.alarm(0)
    return status, by


def _in_child(name, mine):
    """Run the mutant's tests in a forked child (as mutmut does): nothing a mutant leaves
    behind (a registry entry, a cache, a fixture) reaches the next mutant."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        code = 0
        try:
            by = _first_failure(name, mine)
            os.write(write, json.dumps(by).encode())
        except BaseException:
            code = 3
        finally:
            os._exit(code)
    os.close(write)
    deadline = time.time() + TIMEOUT
    while True:
        done_pid, code = os.waitpid(pid, os.WNOHANG)
        if done_pid:
            break
        if time.time() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(read)
            return "timeout", None
        time.sleep(0.02)
    data = b""
    while chunk := os.read(read, 65536):
        data += chunk
    os.close(read)
    if not data:  # the child died without an answer (a crash): killed, by no named test
        return "killed", None
    by = json.loads(data)
    return ("killed" if by else "survived"), by


class Loop:
    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session):
        signal.signal(signal.SIGALRM, _alarm)
        os.environ["MUTANT_UNDER_TEST"] = "stats"
        clean, reach = {}, {}
        for item in session.items:
            _hits.clear()
            t, why = time.time(), []
            ok = not _fails(item, why)
            clean[item.nodeid] = time.time() - t
            reach[item.nodeid] = set(_hits)
            if not ok:
                # A test failing without a mutant would "kill" every mutant: left out.
                print("CLEAN FAILURE (left out)", item.nodeid, *why, flush=True)
                reach[item.nodeid] = set()
        os.environ.pop("MUTANT_UNDER_TEST", None)
        items = sorted((i for i in session.items), key=lambda i: clean[i.nodeid])
        print(f"{len(items)} tests, clean {sum(clean.values()):.1f} s; {len(names)} mutants",
              flush=True)
        with open(out, "a") as fh:
            for func, number, name in names:
                if name in done:
                    continue
                function = name.rsplit("__mutmut_", 1)[0]
                mine = [i for i in items if function in reach[i.nodeid]]
                t0 = time.time()
                if not mine:
                    status, by = "no tests", None
                elif FORK:
                    status, by = _in_child(name, mine)
                else:
                    status, by = _in_process(name, mine, session)
                if by is not None:  # the last killer first: neighbours share it
                    item = next(i for i in items if i.nodeid == by)
                    items.remove(item)
                    items.insert(0, item)
                    by = by.split("::")[-1]
                fh.write(json.dumps(dict(mutant=name, function=func, number=number,
                                         status=status, by=by,
                                         seconds=round(time.time() - t0, 1))) + "\n")
                fh.flush()
                print(f"{func} {number} {status} {by or ''} {time.time() - t0:.1f}s", flush=True)
        return True


sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:randomly",
                      *pytest_args], plugins=[Loop()]))
