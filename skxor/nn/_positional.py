"""Position codes of the Boolean transformer: learned embeddings or fixed sinusoids."""

import torch
from torch import nn

#: The positional schemes of :class:`~skxor.nn.BooleanTransformer`.
POSITIONAL_ENCODINGS = ("learned", "sinusoidal")


def sinusoidal_positions(n_tokens, d_model):
    """Fixed sinusoidal position codes, shape (n_tokens, d_model).

    Column ``2i`` is ``sin(t / 10000^(2i/D))`` and column ``2i + 1`` the
    matching cosine (the last sine is kept alone when D is odd).
    """
    t = torch.arange(n_tokens, dtype=torch.float64)[:, None]  # (T, 1)
    freq = torch.pow(10000.0, -torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    angles = t * freq  # (T, ceil(D/2))
    codes = torch.zeros(n_tokens, d_model, dtype=torch.float64)
    codes[:, 0::2] = torch.sin(angles)
    codes[:, 1::2] = torch.cos(angles[:, : d_model // 2])
    return codes.to(torch.get_default_dtype())



def position_codes(positional, n_tokens, d_model):
    """The position codes (n_tokens, d_model): a learned parameter or a fixed sinusoidal tensor.

    ``"learned"`` draws them as :class:`torch.nn.Embedding` does (N(0, 1),
    from torch's current generator); ``"sinusoidal"`` is
    :func:`sinusoidal_positions`, to be kept as a buffer.
    """
    if positional == "learned":
        return nn.Parameter(nn.Embedding(n_tokens, d_model).weight.detach().clone())
    return sinusoidal_positions(n_tokens, d_model)
