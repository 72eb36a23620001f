import pytest
import torch
from hypothesis import HealthCheck, settings

# Property tests draw the same examples on every run (profile skxor-ci), so that
# the default suite, and CI on a clean clone, passes or fails the same way each
# time, and no example waits on a deadline a busy machine can miss;
# ``--hypothesis-profile=skxor-thorough`` draws ten times more, fresh ones (a
# counterexample it finds becomes an @example of its test).
_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("skxor-ci", max_examples=100, derandomize=True, **_COMMON)
settings.register_profile("skxor-thorough", max_examples=1000, **_COMMON)
settings.load_profile("skxor-ci")


def pytest_configure(config):
    # Tests run two pytest-xdist workers on two cores, and the networks they
    # train are tiny: one intra-op thread per worker avoids oversubscription,
    # which stalls small matrix products 10x on a busy machine.
    torch.set_num_threads(1)
    # The registry reads the installed studies on its first read: read it now, before
    # any test replaces importlib.metadata.entry_points with a stand-in.
    import skxor.studies

    list(skxor.studies.STUDIES)


def pytest_addoption(parser):
    parser.addoption(
        "--runslow", action="store_true", default=False, help="also run tests marked slow"
    )


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip_slow = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


# -- counts of reliability cases tried (tests/reliability) -------------------
import collections  # noqa: E402
import json  # noqa: E402

_CASES = collections.defaultdict(collections.Counter)


@pytest.fixture(scope="session")
def reliability_cases():
    """entry point -> outcome -> number of hypothesis cases tried."""
    return _CASES


def pytest_sessionfinish(session):
    if hasattr(session.config, "workeroutput"):  # an xdist worker: report to the controller
        session.config.workeroutput["skxor_cases"] = json.dumps(_CASES)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    for entry, outcomes in json.loads(node.workeroutput.get("skxor_cases", "{}")).items():
        _CASES[entry].update(outcomes)


def pytest_terminal_summary(terminalreporter):
    if not _CASES:
        return
    terminalreporter.section("reliability cases tried")
    total = 0
    for entry, outcomes in sorted(_CASES.items()):
        n = sum(outcomes.values())
        total += n
        detail = ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
        terminalreporter.write_line(f"{entry}: {n} cases ({detail})")
    terminalreporter.write_line(f"total: {total} cases")
