"""The tables claim K6 is tried on, for ``_rules``: fixed ones where the paper holds and
where it does not (K6 declares no ``simulate``: no power is computed for its design).
"""

import numpy as np
import pandas as pd

from ._summary import ONE_OVER_N


# Synthetic tables for the rule's tests: 20 networks per (N, eps), changes C N^a, eps
# binding in every network (1/sqrt(var + eps) at 0.9 of its cap 1/sqrt(eps)).
def _synthetic(exponent, binds=True):
    rng = np.random.default_rng(1)
    rows = []
    for eps in (0.0, 0.01):
        inv_std = 0.9 * eps ** -0.5 if eps and binds else 3.0
        for n in (8, 16, 32, 64, 128, 256):
            for seed in range(20):
                change = 0.5 * n ** exponent(n) * np.exp(0.3 * rng.standard_normal())
                rows.append(dict(n_bits=n, d_model=16, n_layers=1, init="uniform",
                                 layer_norm_eps=eps, seed=seed, n_samples=32,
                                 flip_change_max=change, flip_change_median=change / 10,
                                 constant=False, logit_std=1.0, ln_inv_std_max=inv_std))
    return pd.DataFrame(rows)


def _shrinking_as_one_over_n():
    return _synthetic(lambda n: ONE_OVER_N)


def _flat_then_one_over_n():
    """Pre-asymptotic: the largest change flat up to N = 64, exactly C/N beyond."""
    return _synthetic(lambda n: 0.0 if n <= 64 else ONE_OVER_N * (1 - np.log(64) / np.log(n)))


def _not_shrinking():
    return _synthetic(lambda n: 0.0)


def _growing():
    return _synthetic(lambda n: 0.3)


def _shrinking_as_one_over_sqrt_n():
    """Shrinking, but as 1/sqrt(N): slower than the O(1/N) claimed."""
    return _synthetic(lambda n: -0.5)


def _shrinking_faster():
    """Shrinking as 1/N^2: within O(1/N)."""
    return _synthetic(lambda n: -2.0)
