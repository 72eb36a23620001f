"""scikit-learn estimators of skxor, and one way to count their trainable parameters."""

from ._boolean_transformer import BooleanTransformerClassifier
from ._ffnn import FFNNParityBaseline
from ._k_parity import KParityTransformer
from ._parameters import count_parameters
from ._sparse_xor import SparseXORTransformer

__all__ = [
    "BooleanTransformerClassifier",
    "FFNNParityBaseline",
    "KParityTransformer",
    "SparseXORTransformer",
    "count_parameters",
]
