"""
Köver et al.'s eps > 0 prediction: one flip's effect against N
==============================================================

With a layer-norm stabiliser eps > 0 a transformer is uniformly Lipschitz,
and Köver et al. (2026, arXiv 2606.08768) conclude that flipping one input
bit moves the output by O(1/N): for long strings every non-constant function
becomes unrecognizable. This runs a small version of the ``flip_effect``
study (random recognizers, eos read-out, fixed positions, the same networks
at eps = 0, 1e-3, 1e-2 and 1e-1; 4 seeds, so rough) and draws the median
over networks of each network's largest output change under one flip
against N on log-log axes, with a reference line of slope -1, then the share
of networks whose label is constant on their sampled strings. The printed
headline gives the slopes (t intervals over the networks) that claim K6
judges.
"""

import matplotlib.pyplot as plt

from skxor.studies import get_study

study = get_study("flip_effect")
df = study.run("quick", n_bits=[8, 16, 32, 64, 128], seeds=4)
print(study.render("headline", df))
for figure in study.render("figures", df).values():
    plt.figure(figure)  # hand the study's figures to pyplot
plt.show()
