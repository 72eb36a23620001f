"""Exact population quantities of the attention model on uniform inputs.

The loss, its gradient and one gradient step of ``f(x) = -prod_h (gamma_h . x)``
against a k-sparse parity ``y = -prod_{i in S} x_i``, for H <= 5 heads and
k <= 5 support bits, with no sampling and a cost linear in d: the closed form
of Han & Ghoshdastidar (2025, arXiv 2502.07553) for two heads and a pair, a
moment-cumulant expansion otherwise.
"""

from ._population import (
    population_gradient,
    population_loss,
    population_step,
)

__all__ = ["population_gradient", "population_loss", "population_step"]
