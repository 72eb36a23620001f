"""Write skxor/_cli_catalogue.json, what the command line reads without importing torch.

    python tools/write_cli_catalogue.py

``skxor list``, ``--help`` and the early checks of ``skxor run`` (a mistyped
study, preset or ``--set`` parameter) answer from this catalogue of the
library's studies (names, descriptions, parameters, presets with their
cells and estimated CPU time) instead of importing the studies, whose cells
import torch. It is generated from the study registry by
:func:`skxor.cli.build_catalogue`; ``tests/unit/test_cli_catalogue.py``
fails when it differs from the registry (a study, preset, description or
the cost calibration changed): run this script then.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from skxor.cli import CATALOGUE_PATH, build_catalogue  # noqa: E402


def main():
    text = json.dumps(build_catalogue(), indent=1, sort_keys=False) + "\n"
    CATALOGUE_PATH.write_text(text)
    print(f"Wrote {CATALOGUE_PATH.relative_to(ROOT)} ({len(text):,} bytes)")


if __name__ == "__main__":
    main()
