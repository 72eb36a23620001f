"""
Zero-sensitivity strings of randomly initialised transformers
=============================================================

Köver et al. (2026, arXiv 2606.08768) report that random transformers
compute functions heavily biased to sensitivity 0, more than a uniformly
random Boolean function (which has a zero-sensitivity string with
probability about 1 - 1/e). This runs a small version of the
random-initialisation study in their setting -- eos read-out, fixed
sinusoidal positions, the uniform, Gaussian, Xavier-uniform and
Xavier-Gaussian schemes, with PyTorch's default as a variation -- and draws
the count of zero-sensitivity strings against N on a linear and a log N
axis (exponential growth is straight on the first, polynomial on the
second), the share of constant networks, and the logit diagnostic that
explains them: a network is constant when the offset of its logit dwarfs
the spread over strings. With 3 seeds per point the figures are rough.
"""

import matplotlib.pyplot as plt

from skxor.studies import get_study

study = get_study("random_init_sensitivity")
df = study.run(
    "quick", n_bits=[4, 6, 8, 16], seeds=3, layer_norm_eps=[0.0], n_random_functions=100
)
for figure in study.render("figures", df).values():
    plt.figure(figure)  # hand the study's figures to pyplot
plt.show()

# sphinx_gallery_multi_image = "single"
