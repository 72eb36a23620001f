"""
Trainable parameters needed: transformer against feed-forward network
=====================================================================

The smallest trainable-parameter count at which each model reaches 99% test
accuracy on sparse XOR, for growing input length d, like for like: the
transformer and the two-layer FFNN are trained on the same finite training
sets (``max(2048, d**2)`` inputs) and scored on the same test sets; the
transformer trained on the exact population gradient is drawn as a
reference. Sizes are tried upwards from m = 1 and width 1 for each seed; the
size "needed" is the one by which 80% of the seeds reached 99%. The FFNN's
first layer alone has ``width * d`` weights, so its count grows linearly in
d; the transformer's ``2 m`` stays nearly flat.

Three seeds and three values of d keep this example fast, so its intervals
are wide: run ``skxor run parameter_scaling --preset full`` for a measurement.
"""

import matplotlib.pyplot as plt

from skxor.studies import parameter_scaling, plot_parameter_scaling, report_parameter_scaling

df = parameter_scaling("quick", d=[16, 32, 64], seeds=3)
print(report_parameter_scaling(df))
for figure in plot_parameter_scaling(df).values():
    plt.figure(figure)  # hand the study's figures to pyplot
plt.show()
