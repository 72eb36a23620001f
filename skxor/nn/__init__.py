"""Torch modules: the sparse-XOR attention model and its standard-transformer twin."""

from ._attention import ATTENTION_TYPES, attention_weights
from ._sparse_xor import CLSTransformer, SparseXORAttention

__all__ = ["ATTENTION_TYPES", "attention_weights", "CLSTransformer", "SparseXORAttention"]
