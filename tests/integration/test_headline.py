"""The headline: every study rendered with intervals, the same from a fresh quick run and from the stored quick tables."""

from pathlib import Path

import pytest

from skxor.cli import main
from skxor.studies import STUDIES
from skxor.studies._headline import read_block, render_headline, replace_block

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def quick_tables(tmp_path_factory):
    """The stored quick-preset tables (tests/data/quick_tables), unpacked: what a fresh
    quick run writes, bit for bit (tests/integration/test_quick_tables_unchanged.py, a
    slow test that CI runs in a step of its own, reruns them and renders both)."""
    import gzip
    import shutil

    out = tmp_path_factory.mktemp("quick_tables")
    for path in (ROOT / "tests" / "data" / "quick_tables").glob("*.csv.gz"):
        with gzip.open(path) as source, open(out / path.name[:-3], "wb") as target:
            shutil.copyfileobj(source, target)
    return out


def test_headline_names_every_study_with_intervals(quick_tables):
    text = render_headline(quick_tables)
    assert text.count("\n* ") + 1 == len(STUDIES)
    assert text.count("[") >= len(STUDIES)  # every bullet carries intervals


def test_replace_and_read_block_round_trip():
    text = "intro\n<!-- skxor-headline:start -->\nold\n<!-- skxor-headline:end -->\nrest\n"
    new = replace_block(text, "* new line", "md")
    assert read_block(new, "md") == "* new line"
    assert new.startswith("intro\n") and new.endswith("rest\n")
    empty = "<!-- skxor-headline:start -->\n<!-- skxor-headline:end -->"
    assert read_block(empty, "md") == ""
    with pytest.raises(ValueError, match="markers"):
        replace_block("no markers here", "x", "md")


def test_headline_command_reports_a_missing_folder_without_a_traceback(tmp_path, capsys):
    assert main(["headline", "--from", str(tmp_path / "absent")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("skxor: error:") and "Traceback" not in err


def _bullet(folder):
    text = render_headline(folder)
    # Never an empty list rendered as "d = ," or a sentence ending in ": .".
    assert "d = ," not in text and "d = ;" not in text and ": ." not in text, text
    return text


@pytest.fixture(scope="module")
def sample_tables():
    from skxor.papers import k_sparse, one_step

    steps = one_step(attention=["softmax", "linear"], d=[40], m=[8], n=[2000], seeds=2,
                     step_length=[10.0, 100.0], n_steps=1, n_test=256)
    parity = k_sparse(k=[2], d=[20], n=[2000], n_steps=[1, 2], seeds=2, n_test=0,
                      v1_seeds=0)
    return {"one_step": steps, "k_sparse": parity}


@pytest.mark.parametrize("study", ["one_step", "k_sparse"])
def test_headline_of_a_header_only_table_says_nothing_to_summarize(tmp_path, study,
                                                                   sample_tables):
    sample_tables[study].iloc[:0].to_csv(tmp_path / f"{study}.csv", index=False)
    assert "nothing to summarize" in _bullet(tmp_path)


def test_headline_of_a_samples_only_one_step_table(tmp_path, sample_tables):
    sample_tables["one_step"].to_csv(tmp_path / "one_step.csv", index=False)
    text = _bullet(tmp_path)
    assert "full-batch steps on n = 2000 samples" in text and "population" not in text
    assert "d = 40, m = 8" in text and "2 seeds" in text
    assert "softmax (steps of" in text and "linear (steps of" in text and "/2 = " in text


def test_headline_of_a_samples_only_k_sparse_table(tmp_path, sample_tables):
    sample_tables["k_sparse"].to_csv(tmp_path / "k_sparse.csv", index=False)
    text = _bullet(tmp_path)
    assert "full-batch steps on n = 2000 samples" in text and "population" not in text
    assert "d = 20, m = 32" in text
    for init in ("antisymmetric", "random"):
        assert f"{init} initial queries: k = 2, 1 step: " in text
    assert "k = 2, 2 steps: " in text


def test_headline_names_a_table_it_cannot_summarize(tmp_path, capsys, sample_tables):
    sample_tables["one_step"].drop(columns="attention").to_csv(tmp_path / "one_step.csv",
                                                                index=False)
    assert main(["headline", "--from", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'one_step.csv'} cannot be summarized as a one_step table" in err
    assert "lacks the column(s) ['attention']" in err and "Traceback" not in err
