"""
k-sparse parity with k heads: one step against several
======================================================

The exact population loss of the attention model with H = k heads on the
k-sparse parity ``y = -prod_{i in S} x_i``: T normalised steps whose lengths
add up to 100, from the estimator's two initialisations (the heads' queries a
rotated regular simplex, ``antisymmetric``, or independent uniform on the
sphere, ``random``; one row of panels each). Success is an exact
certificate of accuracy >= 0.99 (every head holding more than half of its
attention on its own support bit, or a population loss <= 0.01). The second
figure shows what the population gradient at initialisation says about the
support: how fast a step raises the attention on it, and whether a long
first step would put the heads on distinct support bits.
"""

import matplotlib.pyplot as plt

from skxor.studies import get_study
from skxor.papers import k_sparse

df = k_sparse(k=[2, 3, 4], d=[20, 100], n_steps=[1, 2, 5, 10], seeds=5, v1_seeds=0)
study = get_study("k_sparse")
print(df.groupby(["init", "k", "n_steps"])["success"].mean().unstack())

for figure in study.render("figures", df).values():
    plt.figure(figure)  # hand the study's figures to pyplot
plt.show()

# sphinx_gallery_multi_image = "single"
