"""Exact population quantities of the sparse-XOR model on uniform inputs (SPEC 2.1)."""

from ._population import (
    population_gradient,
    population_loss,
    population_step,
)

__all__ = ["population_gradient", "population_loss", "population_step"]
