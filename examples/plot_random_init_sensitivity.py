"""
Zero-sensitivity strings of randomly initialised transformers
=============================================================

Köver et al.: a randomly initialised transformer almost surely computes a
function with many zero-sensitivity strings. This runs a small version of
the random-initialisation study and draws the fraction of such strings
against N, beside PARITY, MAJORITY and FIRST.
"""

import matplotlib.pyplot as plt

from skxor.studies import plot_random_init_sensitivity, random_init_sensitivity

df = random_init_sensitivity("quick", n_bits=[4, 8, 12], seeds=4)
for figure in plot_random_init_sensitivity(df).values():
    plt.figure(figure)  # hand the study's figures to pyplot
plt.show()
