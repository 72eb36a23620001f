"""The hidden non-linearities of skxor's networks, by name (one table for all)."""

import torch
from torch import nn

#: Hidden activations sigma; "logistic" is the sigmoid, "square" is z ** 2.
ACTIVATIONS = ("relu", "gelu", "tanh", "logistic", "square", "identity")


def _square(z):
    return z * z


def _identity(z):
    return z


_ACTIVATION_FUNCTIONS = {
    "relu": torch.relu,
    "gelu": nn.functional.gelu,
    "tanh": torch.tanh,
    "logistic": torch.sigmoid,
    "square": _square,
    "identity": _identity,
}


def activation_function(name):
    """The element-wise function of activation ``name`` (one of :data:`ACTIVATIONS`).

    Modules store the name, not the function, so that they pickle cleanly.
    """
    if name not in _ACTIVATION_FUNCTIONS:
        raise ValueError(f"activation must be one of {ACTIVATIONS}; got {name!r}.")
    return _ACTIVATION_FUNCTIONS[name]
