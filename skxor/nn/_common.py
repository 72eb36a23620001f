"""Checks and properties shared by the bit-string modules (Boolean transformer, k-parity model)."""

import math
from numbers import Real

import torch

from .._utils._deprecation import renamed_attribute
from .._utils._torch import count_module_parameters

#: Strings evaluated at once by the no-grad batch paths (bounds memory).
DEFAULT_EVAL_BATCH = 1024
#: Tokens evaluated at once by the no-grad batch paths: long inputs get fewer
#: strings per chunk (1024 strings up to T = 256 tokens).
DEFAULT_EVAL_TOKENS = 2**18
#: Floats of a layer's widest activation (B x T x max(3 D, M)) per no-grad
#: chunk: 4 MiB of float32, which stays in cache between a layer's products
#: (at N = 20, D = 64 a chunk of 128 strings ran the forward pass at 1.4x the
#: rate of a chunk of 1024).
DEFAULT_EVAL_FLOATS = 2**20


def check_real(value, name, *, positive):
    """A finite real, > 0 (``positive``) or >= 0, as float; else an error naming ``name``."""
    what = "a positive finite number" if positive else "a finite number >= 0"
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{name} must be {what}; got {value!r}.")
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        raise ValueError(f"{name} must be {what}; got {value!r}.")
    return float(value)


def check_spins(spins, n_bits, owner):
    """``spins`` as a tensor of shape (B, n_bits) holding only +1 / -1.

    Anything else is a clear error naming ``owner``: a wrong shape, complex
    or bool values (TypeError), or a value other than +-1 such as 0, 2, NaN
    or inf (ValueError). The check is one vectorised ``|x| == 1`` pass; the
    search for an example runs only on the error path.
    """
    spins = torch.as_tensor(spins)
    if spins.ndim != 2 or spins.shape[1] != n_bits:
        raise ValueError(
            f"{owner} was built for strings of n_bits={n_bits} and "
            f"expects spins of shape (batch, {n_bits}); got shape "
            f"{tuple(spins.shape)}."
        )
    if spins.is_complex():
        raise TypeError(f"{owner} expects real spins +1 / -1; got dtype {spins.dtype}.")
    if spins.dtype == torch.bool:
        raise TypeError(
            f"{owner} expects spins +1 (bit 0) / -1 (bit 1), not bools; convert "
            "0/1 bits with spins = 1 - 2 * bits."
        )
    valid = spins.abs() == 1  # NaN fails it too
    if not bool(valid.all()):
        bad = spins[~valid]
        raise ValueError(
            f"{owner} expects spins +1 (bit 0) / -1 (bit 1) as tokens; got the "
            f"value {bad[0].item()!r} ({bad.numel()} invalid "
            f"entr{'y' if bad.numel() == 1 else 'ies'}). Convert 0/1 bits with "
            "spins = 1 - 2 * bits."
        )
    return spins


class BitStringModule:
    """Properties of a torch module on strings of ``n_bits`` bits (mixed into ``nn.Module``)."""

    #: The strings it reads: spins ``1 - 2b`` (the sensitivity tools present them so).
    input_encoding = "pm1"

    @property
    def n_parameters(self):
        """Number of trainable parameters."""
        return count_module_parameters(self)

    @property
    def n_positions(self):
        """Former name of :attr:`n_bits` (deprecated)."""
        return renamed_attribute(self, "n_bits", "n_positions")


class CheckedAttribute:
    """An attribute settable after construction whose every value passes ``check(value, name)``.

    Stored as ``_<name>`` on the instance; ``check`` returns the value kept
    or raises the error naming the attribute, so no other code ever sees a
    bad value.
    """

    def __init__(self, check, doc):
        self.check = check
        self.__doc__ = doc

    def __set_name__(self, owner, name):
        self.name, self.private = name, "_" + name

    def __get__(self, obj, objtype=None):
        return self if obj is None else getattr(obj, self.private)

    def __set__(self, obj, value):
        setattr(obj, self.private, self.check(value, self.name))
