"""skxor: what transformers and feed-forward networks learn about sparse Boolean functions.

scikit-learn-compatible estimators, data generators, exact theory and
sensitivity tools for two results: one-layer softmax transformers learn
sparse XOR in one gradient step with polylog(d) parameters (Han &
Ghoshdastidar), and random transformers have many zero-sensitivity strings
(Köver et al.).
"""

from ._version import __version__
from .estimators import (
    BooleanTransformerClassifier,
    FFNNParityBaseline,
    KParityTransformer,
    SparseXORTransformer,
    count_parameters,
)
from .sensitivity import SensitivityProfiler

__all__ = [
    "BooleanTransformerClassifier",
    "FFNNParityBaseline",
    "KParityTransformer",
    "SensitivityProfiler",
    "SparseXORTransformer",
    "__version__",
    "count_parameters",
]
