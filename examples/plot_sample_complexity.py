"""
Sample complexity of one and five gradient steps
================================================

:func:`sklearn.model_selection.learning_curve` for the one-step and the
five-step transformer: test accuracy against the number of training samples,
for several input lengths d.
"""

import matplotlib.pyplot as plt

from skxor.studies import plot_sample_complexity, sample_complexity, samples_needed

df = sample_complexity(d=[25, 50, 100], seeds=2, n_max=32000, n_sizes=7)
print(samples_needed(df))

for figure in plot_sample_complexity(df).values():
    plt.figure(figure)  # hand the study's figures to pyplot
plt.show()
