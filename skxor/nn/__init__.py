"""Torch modules: the sparse-XOR attention model, its standard twin, the FFNN."""

from ._attention import ATTENTION_TYPES, attention_weights
from ._ffnn import ACTIVATIONS, TwoLayerNetwork
from ._sparse_xor import CLSTransformer, SparseXORAttention

__all__ = [
    "ACTIVATIONS",
    "ATTENTION_TYPES",
    "CLSTransformer",
    "SparseXORAttention",
    "TwoLayerNetwork",
    "attention_weights",
]
