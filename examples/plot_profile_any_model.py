"""
Profiling any model: a torch TransformerEncoder and a scikit-learn classifier
=============================================================================

The sensitivity and Fourier tools take any torch module that maps (batch, N)
inputs to logits and any fitted scikit-learn classifier, nothing to subclass
(see :doc:`/profiling_models`). A module receives floats of shape (batch, N)
in the input encoding it was trained on, which it declares (here spins
``1 - 2b``, ``input_encoding = "pm1"``) or the call gives; a real output is
read as ``> 0``, a two-column output as logits. A classifier is called
through ``predict``.

Top: a ``torch.nn.TransformerEncoder`` with a linear read-out, at
initialisation, in float64 (in float32 this small untrained model is
ill-conditioned: its outputs near 0 would be re-decided in float64 one block
at a time, 10 times the CPU), against MAJORITY and PARITY. Most initialisations of this
small model compute a constant function (seeds 0 and 2-7 of 0-7); seed 1 does
not, yet 70% of its strings have sensitivity 0. Bottom: a gradient-boosting
classifier fitted on 4000 samples of a 2-sparse parity on 10 bits computes
the target exactly: sensitivity 2 on every string, all Fourier weight on
degree 2.
"""

import matplotlib.pyplot as plt
import torch
from sklearn.ensemble import HistGradientBoostingClassifier
from torch import nn

from skxor.datasets import make_sparse_parity
from skxor.plotting import FourierSpectrumDisplay, SensitivityProfileDisplay

n_bits = 10


class EncoderClassifier(nn.Module):
    """Embed each spin, add learned positions, encode, read out the mean token."""

    input_encoding = "pm1"  # it reads skxor's spins 1 - 2b: the profilers need to know

    def __init__(self, n_bits, d_model=16):
        super().__init__()
        self.embed = nn.Linear(1, d_model)
        self.position = nn.Parameter(torch.randn(n_bits, d_model))
        layer = nn.TransformerEncoderLayer(d_model, nhead=2, dim_feedforward=32, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.readout = nn.Linear(d_model, 1)

    def forward(self, x):  # x: (batch, N) spins
        h = self.embed(x.unsqueeze(-1)) + self.position
        return self.readout(self.encoder(h).mean(dim=1)).squeeze(-1)


torch.manual_seed(1)  # seeds 0 and 2-7 give a constant function at initialisation
model = EncoderClassifier(n_bits).double()  # float64: its labels do not hang on rounding

X, y = make_sparse_parity(4000, n_bits, support=[2, 7], encoding="01", random_state=0)
clf = HistGradientBoostingClassifier(random_state=0).fit(X, y)

fig, axes = plt.subplots(2, 2, figsize=(12, 7), layout="constrained")
SensitivityProfileDisplay.from_function(
    model, n_bits, name="TransformerEncoder", references=["majority", "parity"],
    ax=axes[0, 0],
)
FourierSpectrumDisplay.from_function(model, n_bits, name="TransformerEncoder", ax=axes[0, 1])
SensitivityProfileDisplay.from_estimator(clf, references=["parity"], ax=axes[1, 0])
FourierSpectrumDisplay.from_estimator(clf, ax=axes[1, 1])
for ax, title in zip(axes[:, 0], ["torch module at initialisation",
                                  "scikit-learn classifier on sparse XOR"]):
    ax.set_title(title)
plt.show()

# sphinx_gallery_multi_image = "single"
