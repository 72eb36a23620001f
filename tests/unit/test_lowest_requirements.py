"""tools/lowest_requirements.py: each declared lower bound becomes the version CI installs."""

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location(
    "lowest_requirements", ROOT / "tools" / "lowest_requirements.py")
lowest_requirements = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lowest_requirements)


def test_each_lower_bound_is_pinned_and_torch_stays_at_the_cpu_wheel():
    assert lowest_requirements.lowest(["numpy>=1.24", "skorch >= 1.2", "torch>=2.1",
                                       "pkg[extra]>=3"]) == [
        "numpy==1.24", "skorch==1.2", lowest_requirements.TORCH, "pkg==3"]


@pytest.mark.parametrize("requirement", ["numpy", "numpy<2", "numpy>=1.24,<2",
                                         "numpy>=1.24; python_version<'3.12'"])
def test_a_requirement_without_one_lower_bound_is_refused(requirement):
    with pytest.raises(ValueError, match="no single lower bound"):
        lowest_requirements.lowest([requirement])


def test_the_declared_dependencies_all_have_a_lower_bound(capsys):
    assert lowest_requirements.main() == 0
    pins = capsys.readouterr().out.split()
    names = [p.split("==")[0] for p in pins]
    assert {"numpy", "scipy", "scikit-learn", "torch", "skorch", "pandas", "joblib"} <= set(names)
    # The versions issue 37 found too low stay raised.
    assert "joblib==1.4" in pins and "pandas==2.1" in pins and "skorch==1.2" in pins
