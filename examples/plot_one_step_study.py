"""
Softmax is necessary: one-step success rate against d
=====================================================

The exact population step (n = 0: no sampling) from the antisymmetric
initialisation, for softmax, linear and erf attention, over several input
lengths d and seeds. Success means test accuracy >= 0.99 after the step;
*specialised* means the two heads' most-attended positions are the two
support bits. Rates carry Wilson 95% intervals over seeds: linear heads land
on the support bits in most seeds and still fail.
"""

import matplotlib.pyplot as plt

from skxor.studies import one_step, plot_one_step, summarise_one_step

df = one_step(d=[100, 1000, 10000], m=[32], seeds=10)
summary = summarise_one_step(df)
print(summary[["attention", "d", "success_rate", "success_low", "success_high",
               "specialised_rate", "specialised_low", "specialised_high"]].round(2))

for figure in plot_one_step(df).values():
    plt.figure(figure)  # hand the study's figures to pyplot
plt.show()
