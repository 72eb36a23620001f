"""Attention weights over positions for the three attention types of SPEC 2.

All three equal ``1/d`` at ``theta = 0``:

* ``softmax``: ``gamma_i = exp(s_i) / sum_j exp(s_j)`` (max-subtracted, stable);
* ``linear``: ``gamma_i = (1 + s_i) / d``, the first-order expansion of softmax
  at ``theta = 0``;
* ``erf``: ``gamma_i = (1 + erf(s_i)) / d``, component-wise and unnormalised.
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
