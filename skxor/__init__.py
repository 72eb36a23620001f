"""skxor: what transformers and feed-forward networks learn about sparse Boolean functions.

scikit-learn-compatible estimators, data generators, exact theory and
sensitivity tools for two results: one-layer softmax transformers learn
sparse XOR in one gradient step with polylog(d) parameters (Han &
Ghoshdastidar), and random transformers have many zero-sensitivity strings
(Köver et al.).
"""

from . import estimators as _estimators
from ._version import __version__
from .estimators import (
    BooleanTransformerClassifier,
    FFNNParityBaseline,
    KParityTransformer,
    SparseXORTransformer,
    count_parameters,
)
from .sensitivity import SensitivityProfiler

# The estimators' names are listed once, in skxor.estimators.
__all__ = sorted([*_estimators.__all__, "SensitivityProfiler", "__version__"])
