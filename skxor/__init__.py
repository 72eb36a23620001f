"""skxor: what transformers and feed-forward networks learn about sparse Boolean functions.

scikit-learn-compatible estimators, data generators, exact theory and
sensitivity tools for two results: one-layer softmax transformers learn
sparse XOR in one gradient step with polylog(d) parameters (Han &
Ghoshdastidar), and random transformers have many zero-sensitivity strings
(Köver et al.).
"""

from ._utils._lazy import lazy_attributes
from ._version import __version__

# The estimators (torch, skorch) are imported when first used, so that what
# needs none of them (``skxor --version``, ``import skxor.boolean``) starts
# without the seconds ``import torch`` takes.
_SOURCES = {
    "BooleanTransformerClassifier": ".estimators",
    "FFNNParityBaseline": ".estimators",
    "KParityTransformer": ".estimators",
    "SparseXORTransformer": ".estimators",
    "count_parameters": ".estimators",
    "SensitivityProfiler": ".sensitivity",
}
__getattr__, __dir__ = lazy_attributes(__name__, _SOURCES)

# Every name of skxor.estimators' __all__ (a test checks that none is missing).
__all__ = sorted([*_SOURCES, "__version__"])
