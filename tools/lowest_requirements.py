"""Print the lowest versions pyproject.toml declares, one ``name==version`` a line.

    python tools/lowest_requirements.py > lowest.txt
    pip install -r lowest.txt

Each ``name>=X`` of ``[project].dependencies`` becomes ``name==X``, so that a
CI step (``.ci/lowest``) installs exactly the versions the package promises
to work with and runs the tests on them. One exception, said where it is
made: torch stays at the CPU wheel this machine installs (see ``TORCH``).
"""

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: torch's declared lowest (2.1) is not installed: the package index here has
#: older torch only as CUDA builds of several GB, and one CPU wheel, this one.
#: The lowest-version run therefore tests every other dependency at its
#: lowest, with this torch.
TORCH = "torch==2.13.0"


def lowest(requirements):
    """``name==X`` for each ``name>=X`` (with optional extras and markers dropped)."""
    pins = []
    for requirement in requirements:
        match = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)(\[[^\]]*\])?\s*>=\s*([^,;\s]+)\s*",
                             requirement)
        if match is None:
            raise ValueError(f"{requirement!r} has no single lower bound 'name>=X' to pin.")
        name, _, version = match.groups()
        pins.append(TORCH if name.lower() == "torch" else f"{name}=={version}")
    return pins


def main():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    print("\n".join(lowest(project["dependencies"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
