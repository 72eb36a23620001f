"""
Theorem 4.5 of Köver et al.: zero-sensitivity strings against the bound
=======================================================================

Köver et al. (2026, arXiv 2606.08768) prove that for layer-norm eps = 0 and
large N a random transformer of width D and depth L almost surely has at
least ``N^((D - 1) / (2 L) - 5)`` zero-sensitivity strings. This runs a
small version of the ``zero_sensitivity_bound`` study (uniform
initialisation, eos read-out, fixed positions; 3 seeds, so rough) and
draws the log10 count of zero-sensitivity strings against N, compared with
the bound lines (references drawn over the data; "vacuous" where the bound
is below 1, i.e. unless D - 1 > 10 L, or above the 2^N line), then the
share of networks with a zero-sensitivity string (Clopper-Pearson) and of
constant networks. At small N the bound for D = 32, L = 1 exceeds 2^N, the
number of all strings: the theorem speaks of large N. A constant network
has all 2^N strings at sensitivity 0, so only the non-constant networks
test the bound (the study's report counts those).
"""

import matplotlib.pyplot as plt

from skxor.studies import get_study

study = get_study("zero_sensitivity_bound")
df = study.run(
    "quick", n_bits=[4, 8, 16], d_model=[8, 32], n_layers=[1], layer_norm_eps=[0.0],
    seeds=3,
)
for figure in study.render("figures", df).values():
    plt.figure(figure)  # hand the study's figures to pyplot
plt.show()

# sphinx_gallery_multi_image = "single"
