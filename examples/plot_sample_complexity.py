"""
Sample complexity of one and five gradient steps
================================================

:func:`sklearn.model_selection.learning_curve` for the one-step and the
five-step transformer: test accuracy against the number of training samples,
for several input lengths d. Each seed's n* (the smallest n from which its
accuracy stays >= 0.95) is drawn with its grid cell (last failing n, n*], the
censored seeds kept, with the exponent fitted to those cells by maximum
likelihood and its profile-likelihood band; two seeds make this a rough
picture (the full preset uses 10).
"""

import matplotlib.pyplot as plt

from skxor.studies import get_study
from skxor.papers import fit_exponents, sample_complexity
from skxor.papers import samples_needed

df = sample_complexity(d=[16, 32, 64], seeds=2, n_max=8192, n_sizes=10)
study = get_study("sample_complexity")
# The columns a reader needs first (each frame has more: see their docstrings).
print(samples_needed(df)[["model", "d", "n_star", "median_low", "median_high", "reached",
                          "at_floor", "not_reached"]].to_string(index=False))
print(fit_exponents(df)[["model", "exponent", "low", "high", "n_points", "left_censored",
                         "right_censored"]].round(2).to_string(index=False))

for figure in study.render("figures", df).values():
    plt.figure(figure)  # hand the study's figures to pyplot
plt.show()

# sphinx_gallery_multi_image = "single"
