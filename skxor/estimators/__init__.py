"""scikit-learn estimators of skxor, and one way to count their trainable parameters."""

from ._ffnn import FFNNParityBaseline
from ._parameters import count_parameters
from ._sparse_xor import SparseXORTransformer

__all__ = ["FFNNParityBaseline", "SparseXORTransformer", "count_parameters"]
