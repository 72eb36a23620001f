"""
Trainable parameters needed: transformer against feed-forward network
=====================================================================

The trainable parameters each model needs to reach 99% test accuracy on
sparse XOR, for growing input length d: the transformer after one exact
population step (Han & Ghoshdastidar's setting) and after T = 5 steps (on the
population gradient and on finite training sets of ``max(2048, d**2)``
inputs), a trained two-layer FFNN, and the same FFNN with its first layer
frozen at random (random features, only the read-out trained). Every size
tried has its own independent seeds; the size "needed" is the smallest at
which 80% of its seeds reach 99%. Frozen parameters (the transformer's
``d * m`` keys, the random features' first layer) are reported beside the
trainable ones. The trained FFNN's first layer alone has ``width * d``
weights, so its count grows linearly in d.

Three seeds and three values of d keep this example fast, so it is rough
(too few seeds for intervals of the slopes): run
``skxor run parameter_scaling --preset full`` for a measurement.
"""

import matplotlib.pyplot as plt

from skxor.studies import get_study
from skxor.papers import parameter_scaling

df = parameter_scaling("quick", d=[16, 32, 64], seeds=3, rf_width=[64, 256])
study = get_study("parameter_scaling")
print(study.render("report", df))
for figure in study.render("figures", df).values():
    plt.figure(figure)  # hand the study's figures to pyplot
plt.show()

# sphinx_gallery_multi_image = "single"
