"""Torch modules: the sparse-XOR attention model, its standard twin, the FFNN, the Boolean transformer, the v1 k-parity model."""

from ._attention import ATTENTION_TYPES, attention_weights
from ._activations import ACTIVATIONS
from ._boolean_transformer import (
    INIT_SCHEMES,
    NORM_PLACEMENTS,
    POSITIONAL_ENCODINGS,
    READOUTS,
    BooleanTransformer,
    LayerNorm,
    layer_norm_blowup,
)
from ._ffnn import TwoLayerNetwork
from ._init import sparse_xor_init
from ._k_parity import (
    KParityAttention,
    SquaredHingeLoss,
    SquaredMeanHingeLoss,
    parity_readout_network,
)
from ._sparse_xor import CLSTransformer, SparseXORAttention

__all__ = [
    "ACTIVATIONS",
    "ATTENTION_TYPES",
    "INIT_SCHEMES",
    "NORM_PLACEMENTS",
    "POSITIONAL_ENCODINGS",
    "READOUTS",
    "BooleanTransformer",
    "CLSTransformer",
    "KParityAttention",
    "LayerNorm",
    "SparseXORAttention",
    "SquaredHingeLoss",
    "SquaredMeanHingeLoss",
    "TwoLayerNetwork",
    "attention_weights",
    "layer_norm_blowup",
    "parity_readout_network",
    "sparse_xor_init",
]
