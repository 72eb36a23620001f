"""Torch modules: the sparse-XOR attention model, its standard twin, the FFNN, the Boolean transformer, the v1 k-parity model."""

from ._activations import ACTIVATIONS
from ._attention import (
    Attention,
    attention_constraint,
    attention_names,
    attention_weights,
    get_attention,
    register_attention,
)
from ._analysis import layer_norm_blowup
from ._boolean_transformer import BooleanTransformer
from ._exhaustive import exhaustive_refusal
from ._fast_path import fast_path_refusal
from ._config import (
    INIT_SCHEMES,
    NORM_PLACEMENTS,
    READOUTS,
    BooleanTransformerConfig,
)
from ._ffnn import TwoLayerNetwork
from ._init import sparse_xor_init
from ._k_parity import (
    KParityAttention,
    SquaredHingeLoss,
    SquaredMeanHingeLoss,
    parity_readout_network,
)
from ._layer_norm import LayerNorm
from ._positional import POSITIONAL_ENCODINGS
from ._sparse_xor import CLSTransformer, SparseXORAttention

__all__ = [
    "ACTIVATIONS",
    "ATTENTION_TYPES",
    "INIT_SCHEMES",
    "NORM_PLACEMENTS",
    "POSITIONAL_ENCODINGS",
    "READOUTS",
    "Attention",
    "BooleanTransformer",
    "BooleanTransformerConfig",
    "CLSTransformer",
    "KParityAttention",
    "LayerNorm",
    "SparseXORAttention",
    "SquaredHingeLoss",
    "SquaredMeanHingeLoss",
    "TwoLayerNetwork",
    "attention_constraint",
    "attention_names",
    "attention_weights",
    "exhaustive_refusal",
    "fast_path_refusal",
    "get_attention",
    "layer_norm_blowup",
    "parity_readout_network",
    "register_attention",
    "sparse_xor_init",
]


def __getattr__(name):
    # ATTENTION_TYPES is read when asked for, so it lists every registered type.
    if name == "ATTENTION_TYPES":
        return attention_names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
