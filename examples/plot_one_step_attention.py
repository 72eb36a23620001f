"""
One gradient step: softmax attention finds the two hidden bits
==============================================================

A two-head :class:`~skxor.SparseXORTransformer` takes one normalised gradient
step on n = 40 000 samples of sparse XOR data (d = 60). With softmax
attention each head locks onto one of the two support bits; linear and erf
attention stay spread out. The study's :func:`~skxor.papers.han_ghoshdastidar.one_step.plot_attention_maps`
draws each row with :class:`~skxor.plotting.AttentionDisplay`; all three rows
share one colour scale and one colour bar, so weights of about 1/d look as
small as they are.
"""

import matplotlib.pyplot as plt

from skxor import SparseXORTransformer
from skxor.datasets import make_sparse_parity
from skxor.papers.han_ghoshdastidar.one_step import plot_attention_maps  # one AttentionDisplay per row

X, y, support = make_sparse_parity(40_000, 60, return_support=True, random_state=3)
Xt, yt = make_sparse_parity(5_000, 60, support=support, random_state=4)

maps = {}
for attention in ["softmax", "linear", "erf"]:
    clf = SparseXORTransformer(m=32, attention=attention, random_state=3).fit(X, y)
    maps[attention] = clf.attention_
    print(f"{attention}: test accuracy {clf.score(Xt, yt):.3f}, heads on "
          f"{clf.support_.tolist()} (support {support.tolist()})")

figure = plot_attention_maps(
    maps, support, "Attention after one step on n = 40,000 samples, d = 60, m = 32, seed 3")
plt.figure(figure)  # hand the figure to pyplot
plt.show()

# sphinx_gallery_multi_image = "single"
