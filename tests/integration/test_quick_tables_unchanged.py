"""Every study's quick-preset table is what it was before the Study API refactor.

A slow test (one quick run of every study): CI runs it in a step of its own,
``python -m pytest --runslow tests/integration/test_quick_tables_unchanged.py``.

``tests/data/quick_tables/<study>.csv.gz`` hold the tables that ``skxor
reproduce`` wrote at commit 43601b0, before the studies were moved onto the
public Study API and split into packages. A refactor must not change one
value: the tables are compared exactly, except the timing columns (wall
seconds of a cell, which no two runs share).

Regenerate the reference only for a deliberate change of a study's results:
``skxor reproduce --out DIR`` and ``gzip -9 -n -c DIR/NAME.csv >
tests/data/quick_tables/NAME.csv.gz``, with the reason in the commit; on
another kind of machine, all of them, and ``kernel_fingerprint()`` into
``KERNELS``.

Bit for bit holds on one kind of CPU only: torch's BLAS and vectorised
kernels pick code paths per processor, and the population steps amplify a
last-bit difference (on 2026-12-04 an AMD EPYC machine changed the k_sparse
and one_step quick tables, and the ba42ebd code gave the same tables as the
19fa48b code there). ``KERNELS`` holds a fingerprint of those kernels on the
machine that made the references; where it differs, the comparison is
skipped with that reason instead of failing on arithmetic.
"""

import hashlib
from pathlib import Path

import pandas as pd
import pytest
import torch

from skxor.studies import STUDIES
from skxor.studies import render_headline, run_studies

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "quick_tables"
#: Columns that hold measured time: they differ between any two runs.
TIMING = ("seconds", "floor_seconds")

pytestmark = pytest.mark.slow


def kernel_fingerprint():
    """sha256 of float64 results of the kernels the studies' arithmetic goes through."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # the cells run on one thread each
    try:
        generator = torch.Generator().manual_seed(0)
        a = torch.randn(257, 129, generator=generator, dtype=torch.float64)
        x = torch.linspace(-30, 30, 4099, dtype=torch.float64)
        parts = [a @ a.T, torch.exp(x), torch.special.erf(x), torch.tanh(x),
                 torch.softmax(a, dim=1), torch.log1p(x.abs()), a.sum(dim=0)]
    finally:
        torch.set_num_threads(threads)
    return hashlib.sha256(b"".join(p.numpy().tobytes() for p in parts)).hexdigest()


@pytest.fixture(scope="module")
def same_kernels():
    made_on, here = (REFERENCE / "KERNELS").read_text().split()[0], kernel_fingerprint()
    if here != made_on:
        pytest.skip("the quick references were made on a CPU whose float kernels give other "
                    f"last bits (fingerprint {made_on[:12]}, here {here[:12]}); "
                    "bit-identity is checked on that kind of machine only")


def test_every_study_has_a_reference():
    assert sorted(p.name.removesuffix(".csv.gz") for p in REFERENCE.glob("*.csv.gz")) \
        == sorted(STUDIES)


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory, same_kernels):
    """One ``skxor reproduce`` of every study's quick preset (minutes on 2 cores)."""
    out = tmp_path_factory.mktemp("reproduce")
    run_studies(list(STUDIES), preset="quick", out_dir=out, progress=False,
                echo=lambda *args: None)
    return out


@pytest.mark.parametrize("name", sorted(p.name.removesuffix(".csv.gz")
                                        for p in REFERENCE.glob("*.csv.gz")))
def test_quick_table_is_bit_identical(name, quick_run):
    computed = pd.read_csv(quick_run / f"{name}.csv")
    stored = pd.read_csv(REFERENCE / f"{name}.csv.gz")
    computed = computed.drop(columns=[c for c in TIMING if c in computed])
    stored = stored.drop(columns=[c for c in TIMING if c in stored])
    # Same columns in the same order, same rows, every value exactly equal.
    assert list(computed.columns) == list(stored.columns)
    pd.testing.assert_frame_equal(computed, stored, check_exact=True)


def test_a_quick_run_renders_what_the_stored_quick_tables_render(quick_run, tmp_path):
    """The headline of a fresh quick run is the one of the stored quick tables."""
    import gzip
    import shutil

    for path in REFERENCE.glob("*.csv.gz"):
        with gzip.open(path) as source, open(tmp_path / path.name[:-3], "wb") as target:
            shutil.copyfileobj(source, target)
    assert render_headline(quick_run) == render_headline(tmp_path)
