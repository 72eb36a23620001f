"""
Softmax is necessary: one-step success rate against d
=====================================================

The exact population step (no sampling) from the antisymmetric
initialisation, for softmax, linear and erf attention, over several input
lengths d and seeds. Success means test accuracy >= 0.99 after the step.
"""

import matplotlib.pyplot as plt

from skxor.studies import one_step, plot_one_step

df = one_step(d=[100, 1000, 10000], m=[32], seeds=10)
print(df.groupby(["attention", "d"])["success"].mean().unstack())

for figure in plot_one_step(df).values():
    plt.figure(figure)  # hand the study's figures to pyplot
plt.show()
