"""
AttentionDisplay: each head of a SparseXORTransformer over the positions
========================================================================

:class:`~skxor.plotting.AttentionDisplay` draws the attention weights of each
head of a fitted :class:`~skxor.SparseXORTransformer` over the input positions
on one shared colour scale. After one normalised gradient step with softmax
attention each head locks onto one of the two support bits (triangles);
linear attention stays spread out (Han & Ghoshdastidar).
"""

import matplotlib.pyplot as plt

from skxor import SparseXORTransformer
from skxor.datasets import make_sparse_parity
from skxor.plotting import AttentionDisplay

X, y, support = make_sparse_parity(30_000, 40, return_support=True, random_state=3)

fig, axes = plt.subplots(2, 1, figsize=(8, 5), layout="constrained")
for ax, attention in zip(axes, ["softmax", "linear"]):
    clf = SparseXORTransformer(m=32, attention=attention, random_state=3).fit(X, y)
    AttentionDisplay.from_estimator(clf, support=support, name=f"{attention} attention", ax=ax)
plt.show()
