"""
Sensitivity profiles: random transformers against MAJORITY and PARITY
=====================================================================

The sensitivity of a string is the number of its bits whose flip changes the
function's value. PARITY has sensitivity N on every string and no
zero-sensitivity string; MAJORITY has many. Randomly initialised transformers
are often constant (with these settings, seeds 0, 3, 5, 6, 8 and 11 of seeds
0-11 are); the non-constant ones still have many strings where no single flip
matters, as the two shown here (seeds 1 and 9). Each panel is a
:class:`~skxor.plotting.SensitivityProfileDisplay` with the references drawn
as steps over the network's bars -- the display the random-initialisation
and training studies draw their profiles with.
"""

import matplotlib.pyplot as plt

from skxor.nn import BooleanTransformer
from skxor.plotting import SensitivityProfileDisplay

n_bits = 13
fig, axes = plt.subplots(1, 2, figsize=(11, 3.6), sharey=True, layout="constrained")
for ax, seed in zip(axes, (1, 9)):
    network = BooleanTransformer(n_bits, d_model=16, n_layers=2, init="normal", seed=seed)
    display = SensitivityProfileDisplay.from_function(
        network, n_bits, name=f"random transformer, seed {seed}",
        references=["majority", "parity"],
        method="exhaustive", reference_style="steps", ax=ax,
    )
    ax.set_title(f"{display.profile.zero_fraction:.2f} of the 2^{n_bits} strings have "
                 "sensitivity 0", fontsize="small")
plt.show()

# sphinx_gallery_multi_image = "single"
