"""
Sensitivity profiles: MAJORITY, PARITY and a random transformer
===============================================================

The sensitivity of a string is the number of its bits whose flip changes the
function's value. PARITY has sensitivity N on every string and no
zero-sensitivity string; MAJORITY has many; a randomly initialised
transformer, like MAJORITY, has many strings where no single flip matters.
"""

import matplotlib.pyplot as plt

from skxor.boolean import Majority, Parity
from skxor.nn import BooleanTransformer
from skxor.sensitivity import sensitivity_profile

n_bits = 13
random_net = BooleanTransformer(n_bits, d_model=16, n_layers=2, init="normal", seed=0)
functions = {
    "MAJORITY": Majority(n_bits),
    "PARITY": Parity(n_bits),
    "random transformer": random_net,
}

fig, axes = plt.subplots(1, 3, figsize=(11, 3.2), sharey=True, layout="constrained")
for ax, (name, f) in zip(axes, functions.items()):
    profile = sensitivity_profile(f, n_bits, method="exhaustive")
    profile.plot(ax=ax)
    ax.set_title(f"{name}: {profile.zero_fraction:.2f} of strings have sensitivity 0",
                 fontsize="small")
plt.show()
