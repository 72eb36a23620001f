"""The README's and the docs' headline figures are what the quick presets produce."""

from pathlib import Path

import pytest

from skxor.cli import main
from skxor.studies import STUDIES, run_studies
from skxor.studies._headline import read_block, render_headline, replace_block

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def quick_results(tmp_path_factory):
    out = tmp_path_factory.mktemp("reproduce")
    run_studies(list(STUDIES), preset="quick", out_dir=out, progress=False,
                echo=lambda *args: None)
    return out


@pytest.mark.parametrize("path, fmt", [("README.md", "md"),
                                       ("docs/results/measured.rst", "rst")])
def test_published_headline_equals_the_quick_presets(quick_results, path, fmt):
    stored = read_block((ROOT / path).read_text(), fmt)
    assert stored is not None, f"{path} has no headline markers"
    # Regenerate with: skxor reproduce && skxor headline --write README.md docs/results/measured.rst
    assert stored.strip() == render_headline(quick_results, fmt).strip()


def test_headline_names_every_study_with_intervals(quick_results):
    text = render_headline(quick_results)
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
