"""scikit-learn estimators of skxor."""

from ._sparse_xor import SparseXORTransformer

__all__ = ["SparseXORTransformer"]
