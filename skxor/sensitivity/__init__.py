"""Sensitivity profiles and Fourier analysis of Boolean functions.

The quantities of Köver et al. (2026, arXiv 2606.08768).

For ``f: {0,1}^N -> {0,1}`` and a string x, the sensitivity ``s(f, x)`` is
the number of positions whose flip changes f(x). :func:`sensitivity_profile`
counts the strings per sensitivity value for any callable on 0/1 arrays,
fitted estimator, torch module or truth table — exhaustively over all 2^N
strings (one model evaluation per string, flips as truth-table look-ups) or
from uniform samples with confidence intervals. :class:`SensitivityProfiler`
wraps a classifier as a scikit-learn meta-estimator and transformer. The
Fourier tools (fast Walsh-Hadamard transform) give the spectrum and the
influences; the total influence equals the average sensitivity.

Bit order: position i of a string is bit i of its index in a truth table
(see :func:`skxor.boolean.all_strings`).
"""

from ._fourier import (
    degree_weights,
    fourier_spectrum,
    influences,
    total_influence,
    walsh_hadamard,
)
from ._margin import MarginProfile, margin_profile
from ._profile import SensitivityProfile, sensitivity_profile
from ._profiler import SensitivityProfiler

__all__ = [
    "MarginProfile",
    "SensitivityProfile",
    "SensitivityProfiler",
    "degree_weights",
    "fourier_spectrum",
    "influences",
    "margin_profile",
    "sensitivity_profile",
    "total_influence",
    "walsh_hadamard",
]
