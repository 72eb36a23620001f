"""
Trainable parameters needed: transformer against feed-forward network
=====================================================================

The smallest trainable-parameter count at which each model reaches 99% test
accuracy on sparse XOR, for growing input length d. The FFNN's first layer
alone has ``width * d`` weights, so its count grows linearly in d; the
transformer's ``2 m`` stays nearly flat.
"""

import matplotlib.pyplot as plt

from skxor.studies import parameter_scaling, plot_parameter_scaling

df = parameter_scaling("quick", d=[16, 64, 256], seeds=3)
for figure in plot_parameter_scaling(df).values():
    plt.figure(figure)  # hand the study's figures to pyplot
plt.show()
