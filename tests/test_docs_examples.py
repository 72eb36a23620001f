"""The quick-start blocks (docs/quick_start.md, linked from the README) run, and print
what their comments say.

(The ``>>>`` examples of the .rst guides run as doctests in
tests/unit/test_conventions.py.)
"""

import re
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def _quick_start_blocks():
    # The README links the quick start (issue 51.1: a README read in two minutes).
    assert "(docs/quick_start.md)" in (ROOT / "README.md").read_text()
    text = (ROOT / "docs" / "quick_start.md").read_text()
    section = text.split("# Quick start", 1)[1].split("\n## ", 1)[0]
    return section, re.findall(r"```python\n(.*?)```", section, flags=re.S)


def _commented(block):
    """``(code, comment)`` of every line of ``block`` that ends in a comment."""
    lines = []
    for line in block.splitlines():
        if "#" in line and not line.lstrip().startswith("#"):
            code, comment = line.split("#", 1)
            lines.append((code.strip(), comment.strip()))
    return lines


def _run_and_read(block):
    """Run ``block``; the value of every commented expression line, by its code."""
    namespace = {}
    exec(compile(block, "quick_start.md", "exec"), namespace)  # noqa: S102 - our own docs
    values = {}
    for code, comment in _commented(block):
        if "=" in code.replace("==", "").split("(")[0]:
            continue  # an assignment: its comment is prose
        values[code] = (eval(code, namespace), comment)  # noqa: S307
    return namespace, values


def test_readme_quick_start_blocks_give_the_values_in_their_comments():
    section, blocks = _quick_start_blocks()
    assert len(blocks) == 2

    _, values = _run_and_read(blocks[0])
    (support, S), comment = values["clf.support_, S"]
    shown = f"({np.array_repr(support)}, {np.array_repr(S)})"
    assert shown in comment  # "(array([58, 40]), array([40, 58]))"
    assert sorted(support.tolist()) == sorted(S.tolist())
    n_params, comment = values["count_parameters(clf)"]
    assert comment.startswith(f"{n_params} trainable parameters")

    _, values = _run_and_read(blocks[1])
    parity, comment = values["sensitivity_profile(Parity(16), 16).zero_fraction"]
    assert comment.startswith(f"{parity}:")
    majority, comment = values["sensitivity_profile(Majority(15), 15).zero_fraction"]
    assert comment == f"{majority:.2f}"
    (shares, comment), = [v for k, v in values.items() if k.startswith("[sensitivity_profile(n")]
    n_constant = sum(share == 1.0 for share in shares)
    assert comment.startswith(f"{n_constant} of {len(shares)} are 1.0")
    # The prose after the blocks names seed 4's share.
    match = re.search(r"seed (\d+) above: ([0-9.]+) of its strings", section)
    seed, share = int(match.group(1)), match.group(2)
    assert shares[seed] != 1.0 and f"{shares[seed]:.2f}" == share
