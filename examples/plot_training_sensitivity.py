"""
Training on PARITY, MAJORITY and FIRST
======================================

Köver et al. (2026) prove that functions without zero-sensitivity strings,
such as PARITY and FIRST, become unlearnable by transformers as the input
length N grows, and describe trained MAJORITY's sensitivities as clustered
at 0 and N/2 and trained FIRST's at 1. This runs the training study's quick
preset (a rough look: 2 seeds per cell, small N), in the library's model
setting and in Köver et al.'s (eos read-out, fixed sinusoidal positions,
eps = 0, Xavier-uniform init), each labelled, and draws the share of seeds
that learned each function, with 95% Wilson intervals, the median steps
they needed (a run that did not learn counts as needing more than its
budget), where the trained
models' sensitivities sit against the functions' own, and every run's loss
curve (whether it stopped at the target, on a flat loss or at its budget).
"""

import matplotlib.pyplot as plt

from skxor.studies import get_study
from skxor.papers import training_sensitivity

df = training_sensitivity("quick")
study = get_study("training_sensitivity")
figures = study.render("figures", df)
for name in ("success", "steps", "clusters", "loss"):
    plt.figure(figures[name])  # hand the study's figures to pyplot
plt.show()

# sphinx_gallery_multi_image = "single"
