"""skxor: what transformers and feed-forward networks learn about sparse Boolean functions.

scikit-learn-compatible estimators, data generators, exact theory and
sensitivity tools for two results: one-layer softmax transformers learn
sparse XOR in one gradient step with polylog(d) parameters (Han &
Ghoshdastidar), and random transformers have many zero-sensitivity strings
(Köver et al.).
"""

from ._version import __version__
from .estimators import SparseXORTransformer
from .sensitivity import SensitivityProfiler

__all__ = ["SensitivityProfiler", "SparseXORTransformer", "__version__"]
