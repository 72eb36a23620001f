"""Attention weights over positions: the three attention types of the sparse-XOR model.

After Han & Ghoshdastidar (2025, arXiv 2502.07553).

All three equal ``1/d`` at ``theta = 0``:

* ``softmax``: ``gamma_i = exp(s_i) / sum_j exp(s_j)`` (max-subtracted, stable);
* ``linear``: ``gamma_i = (1 + s_i) / d``, the first-order expansion of softmax
  at ``theta = 0``;
* ``erf``: ``gamma_i = (1 + erf(s_i)) / d``, component-wise and unnormalized.
"""

import torch

ATTENTION_TYPES = ("softmax", "linear", "erf")


def attention_weights(scores, attention="softmax"):
    """Attention weights over positions from the scores ``s[i, h] = v_i @ theta_h``.

    Parameters
    ----------
    scores : Tensor of shape (d, H)
        One column of scores per head.
    attention : {"softmax", "linear", "erf"}, default="softmax"

    Returns
    -------
    gamma : Tensor of shape (d, H)
        Weights over positions, one column per head.

    Examples
    --------
    >>> import torch
    >>> from skxor.nn import attention_weights
    >>> attention_weights(torch.zeros(4, 2)).T  # every type is 1/d at theta = 0
    tensor([[0.2500, 0.2500, 0.2500, 0.2500],
            [0.2500, 0.2500, 0.2500, 0.2500]])
    >>> attention_weights(torch.tensor([[1.], [0.], [-1.], [0.]]), "linear").T
    tensor([[0.5000, 0.2500, 0.0000, 0.2500]])
    """
    d = scores.shape[0]
    if attention == "softmax":
        # torch.softmax subtracts the max: stable for scores in the thousands.
        return torch.softmax(scores, dim=0)
    if attention == "linear":
        return (1.0 + scores) / d
    if attention == "erf":
        return (1.0 + torch.erf(scores)) / d
    raise ValueError(
        f"attention must be one of {ATTENTION_TYPES}; got {attention!r}."
    )
