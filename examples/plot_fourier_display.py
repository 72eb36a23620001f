"""
FourierSpectrumDisplay: where the Fourier weight of a function sits
===================================================================

:class:`~skxor.plotting.FourierSpectrumDisplay` draws the Fourier weight per
degree, ``W^k = sum_{|S| = k} F^(S)^2``, of any function, model or truth
table. A 3-sparse parity puts all its weight on degree 3, FIRST on degree 1,
and MAJORITY spreads it over the odd degrees, most of it on degree 1. The
legend gives each function's total influence ``sum_k k W^k`` (its average
sensitivity). The right panel uses a logarithmic weight axis.
"""

import matplotlib.pyplot as plt

from skxor.boolean import Majority, SparseParity
from skxor.plotting import FourierSpectrumDisplay

n_bits = 9
fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4), layout="constrained")
FourierSpectrumDisplay.from_function(
    SparseParity(n_bits, support=[1, 4, 6]), n_bits, name="3-sparse parity",
    references=["first", "majority"], ax=left,
)
FourierSpectrumDisplay.from_function(Majority(n_bits), n_bits, log=True, ax=right)
right.set_title("MAJORITY, log scale: weight on odd degrees only")
plt.show()

# sphinx_gallery_multi_image = "single"
