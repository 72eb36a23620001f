"""
Sensitivity profiles: MAJORITY, PARITY and a random transformer
===============================================================

The sensitivity of a string is the number of its bits whose flip changes the
function's value. PARITY has sensitivity N on every string and no
zero-sensitivity string; MAJORITY has many. Randomly initialised transformers
are often constant (with these settings, seeds 0, 3, 5, 6, 8 and 11 of seeds
0-11 are); the non-constant ones still have many strings where no single flip
matters, as the two shown here (seeds 1 and 9).
"""

import matplotlib.pyplot as plt

from skxor.boolean import Majority, Parity
from skxor.nn import BooleanTransformer
from skxor.sensitivity import sensitivity_profile

n_bits = 13
functions = {
    "MAJORITY": Majority(n_bits),
    "PARITY": Parity(n_bits),
}
for seed in (1, 9):
    functions[f"random transformer, seed {seed}"] = BooleanTransformer(
        n_bits, d_model=16, n_layers=2, init="normal", seed=seed
    )

fig, axes = plt.subplots(1, 4, figsize=(14, 3.2), sharey=True, layout="constrained")
for ax, (name, f) in zip(axes, functions.items()):
    profile = sensitivity_profile(f, n_bits, method="exhaustive")
    profile.plot(ax=ax)
    ax.set_title(f"{name}\n{profile.zero_fraction:.2f} of strings have sensitivity 0",
                 fontsize="small")
plt.show()
