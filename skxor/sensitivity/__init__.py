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
:func:`random_function_zero_strings` counts how often a uniformly random
function has a zero-sensitivity string, the reference random transformers
are compared with.

Bit order: position i of a string is bit i of its index in a truth table
(see :func:`skxor.boolean.all_strings`).

Decisions at the boundary: a real output within a rounding bound of the
threshold (``sqrt(eps)`` of the model's output scale) is decided by
evaluating that string alone, in float64 where the model allows, so that
profiles do not depend on the batch size, chunking or kernel whenever those
change an output by less than the bound; ``n_redecided`` in a profile counts
such outputs (see the "Profiling any model" page).
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
from ._random_functions import random_function_zero_strings

__all__ = [
    "MarginProfile",
    "SensitivityProfile",
    "SensitivityProfiler",
    "degree_weights",
    "fourier_spectrum",
    "influences",
    "margin_profile",
    "random_function_zero_strings",
    "sensitivity_profile",
    "total_influence",
    "walsh_hadamard",
]
