"""A library-style study in a package of its own is picked up everywhere with no
other file changed: the registry, the dry run (with a time), the report, the
claims and ``skxor publish``. The package is written as README's "Adding an
estimator or a study" and docs/architecture.rst say: its required
``__init__.py`` (the declaration) and ``_cells.py`` (the cell and its cost),
and an optional ``_rules.py`` (its claims), importing ``skxor.studies``' public
names only."""

import hashlib
import importlib
import shutil
import sys
from pathlib import Path

import pandas as pd
import pytest

from skxor.cli import main
from skxor.studies import STUDIES
from skxor.studies import claims_table, dry_run_text, get_study, register, run_studies
from skxor.studies._publish import CLAIMS_PAGE, DATA_DIR, FRAGMENTS_DIR, render_documents

ROOT = Path(__file__).resolve().parents[2]

#: A study package as skxor/papers/<paper>/<name>/ holds one: declaration, cells, claims.
FILES = {
    "__init__.py": '''
"""Dice: how often two dice sum to at least a target."""
from skxor.studies import POSITIVE, Grid, Study
from ._cells import dice_cell, dice_cost
from ._rules import CLAIMS

STUDY = Study(
    name="dice_sums", description="Two dice against a target sum.",
    parameters={"target": [Grid(POSITIVE)], "seeds": [POSITIVE]},
    presets={"quick": {"target": [4, 11], "seeds": 6}, "full": {"seeds": 60}},
    cell=dice_cell, cost=dice_cost, claims=CLAIMS)
''',
    "_cells.py": '''
import numpy as np


def dice_cell(target, seed):
    rng = np.random.default_rng([seed, target])
    return {"hit": bool(rng.integers(1, 7, size=2).sum() >= target)}


def dice_cost(cell):
    return 0.25  # CPU seconds, timed once
''',
    "_rules.py": '''
from skxor.studies import Claim, format_count, rate_verdict, wilson_interval


def _easy(table):
    easy = table[table["target"] == 4]
    k, n = int(easy["hit"].sum()), len(easy)
    low, high = wilson_interval(k, n)
    return dict(value=f"at least 4 in {format_count(k, n, 'seeds')}",
                units=f"{n} seeds", verdict=rate_verdict(low, high))


CLAIMS = (Claim(id="D1", paper="Pascal", source="letters, 1654", name="4 is easy",
                paper_setting="two fair dice", statement="two dice mostly sum to 4 or more",
                rule=_easy),)
''',
}


def _tree_digest():
    paths = [*sorted((ROOT / "skxor").rglob("*.py")), ROOT / "README.md",
             *sorted((ROOT / "docs").glob("*.rst"))]
    return hashlib.sha256(b"".join(p.read_bytes() for p in paths)).hexdigest()


@pytest.fixture
def dice(tmp_path, monkeypatch):
    package = tmp_path / "pkg" / "skxor_dice_study"
    package.mkdir(parents=True)
    for name, text in FILES.items():
        (package / name).write_text(text.lstrip())
    monkeypatch.syspath_prepend(str(tmp_path / "pkg"))
    before = _tree_digest()
    study = register(importlib.import_module("skxor_dice_study").STUDY)
    yield study
    STUDIES.pop(study.name)
    for module in [m for m in sys.modules if m.startswith("skxor_dice_study")]:
        del sys.modules[module]
    assert _tree_digest() == before  # nothing of the library was changed


def test_a_new_study_package_is_picked_up_everywhere(dice, tmp_path, capsys):
    # Written with the framework's public names only, as the papers' studies are.
    for name, text in FILES.items():
        for line in text.splitlines():
            if line.startswith("from skxor"):
                module, names = line[5:].split(" import ")
                assert "._" not in module, (name, line)
                assert set(names.split(", ")) <= set(importlib.import_module(module).__all__), line
    # The registry and the command line.
    assert get_study("dice_sums") is dice
    assert main(["list"]) == 0 and "dice_sums" in capsys.readouterr().out
    # The dry run, with a time from the study's cost hook.
    text = dry_run_text("dice_sums", "full")
    assert text.startswith("dice_sums, preset full: 120 cells\n")
    assert "estimated CPU time: 30 s (costliest cell 0.2 s)" in text
    assert main(["run", "dice_sums", "--dry-run"]) == 0
    assert "12 cells" in capsys.readouterr().out
    # A run, its table and its report section.
    out = tmp_path / "results"
    run_studies(["dice_sums"], out_dir=out, echo=None, progress=False)
    table = pd.read_csv(out / "dice_sums.csv")
    assert len(table) == 12 and set(table["target"]) == {4, 11}
    assert "dice_sums" in (out / "report.md").read_text()
    # Its claim in the claims table, computed from its rows.
    hits = int(table.loc[table["target"] == 4, "hit"].sum())
    claims = claims_table({"dice_sums": {"table": table, "record": None, "path": out}})
    row = claims.set_index("id").loc["D1"]
    assert row["value"].startswith(f"at least 4 in {hits}/6 seeds = ")
    # skxor publish: a stored run gives its page, its claim row and the README block.
    repo = tmp_path / "repo"
    for name in ("README.md", "docs/results/measured.rst"):
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, repo / name)
    stored = repo / DATA_DIR / "dice_sums"
    stored.mkdir(parents=True)
    for name in ("dice_sums.csv", "dice_sums.run.json"):
        shutil.copy(out / name, stored / name)
    documents = render_documents(root=repo)
    assert repo / FRAGMENTS_DIR / "dice_sums.md" in documents
    page = documents[repo / CLAIMS_PAGE]
    assert f"   * - D1\n     - 4 is easy (Pascal)\n     - **{row['verdict']}**" in page
    assert ":Claim: 4 is easy (Pascal, letters, 1654)" in page
    assert f"| D1 4 is easy (Pascal) | {row['verdict']} |" in documents[repo / "README.md"]
