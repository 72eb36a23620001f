"""Wilson score intervals of many counts at once, shared by the sensitivity profile and
the studies' seed-clustered rates."""

import numpy as np
from scipy import special


def wilson_interval(counts, n, confidence=0.95):
    """Wilson score intervals of ``counts / n``, vectorised.

    The same formula (Newcombe 1998, no continuity correction) and the same
    floating-point operations as ``scipy.stats.binomtest(c, n)
    .proportion_ci(confidence, method="wilson")``, for all counts at once: a
    profile of N = 10^5 bits has N + 1 of them.

    Returns
    -------
    ci : ndarray of shape (len(counts), 2)
    """
    k = np.asarray(counts, dtype=np.float64)
    p = k / n
    z = special.ndtri(0.5 + 0.5 * confidence)
    denom = 2 * (n + z**2)
    center = (2 * n * p + z**2) / denom
    delta = z / denom * np.sqrt(4 * n * p * (1 - p) + z**2)
    low = np.where(k == 0, 0.0, center - delta)
    high = np.where(k == n, 1.0, center + delta)
    return np.stack([low, high], axis=1)
