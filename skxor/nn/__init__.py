"""Torch modules: the sparse-XOR attention model, its standard twin, the FFNN, the Boolean transformer."""

from ._attention import ATTENTION_TYPES, attention_weights
from ._boolean_transformer import BooleanTransformer, LayerNorm, layer_norm_blowup
from ._ffnn import ACTIVATIONS, TwoLayerNetwork
from ._sparse_xor import CLSTransformer, SparseXORAttention

__all__ = [
    "ACTIVATIONS",
    "ATTENTION_TYPES",
    "BooleanTransformer",
    "CLSTransformer",
    "LayerNorm",
    "SparseXORAttention",
    "TwoLayerNetwork",
    "attention_weights",
    "layer_norm_blowup",
]
