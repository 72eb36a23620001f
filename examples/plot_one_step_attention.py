"""
One gradient step: softmax attention finds the two hidden bits
==============================================================

A two-head :class:`~skxor.SparseXORTransformer` takes one normalised gradient
step on sparse XOR data. With softmax attention each head locks onto one of
the two support bits; linear and erf attention stay spread out.
"""

import matplotlib.pyplot as plt

from skxor import SparseXORTransformer
from skxor.datasets import make_sparse_parity

X, y, support = make_sparse_parity(40_000, 60, return_support=True, random_state=3)
Xt, yt = make_sparse_parity(5_000, 60, support=support, random_state=4)

fig, axes = plt.subplots(3, 1, figsize=(8, 5), sharex=True, layout="constrained")
for ax, attention in zip(axes, ["softmax", "linear", "erf"]):
    clf = SparseXORTransformer(m=32, attention=attention, random_state=3).fit(X, y)
    image = ax.imshow(clf.attention_, aspect="auto", interpolation="nearest")
    ax.set_yticks([0, 1], ["head 1", "head 2"])
    ax.set_title(
        f"{attention}: heads on {clf.support_.tolist()} (support {support.tolist()}), "
        f"test accuracy {clf.score(Xt, yt):.3f}",
        fontsize="small",
    )
    fig.colorbar(image, ax=ax)
axes[-1].set_xlabel("position")
plt.show()
