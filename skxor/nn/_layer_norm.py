"""Layer norm whose stabilizer may be exactly 0 (Köver et al. 2026, arXiv 2606.08768).

Köver et al. (2026) study layer norm ``LN(h) = (h - mean h) / sqrt(var h + eps) * g + b``
with ``eps = 0`` as well as ``eps > 0``. With ``eps = 0`` a token whose D
coordinates are all equal has ``var h = 0`` and the formula reads ``0 / 0``.
:class:`LayerNorm` defines the normalized vector to be **0** there (the
limit along any path of constant vectors), so the output is the bias ``b``,
exactly what ``eps > 0`` gives on a constant input. The gradient at such a
token is defined as 0 through the normalization, so neither the forward nor
the backward pass ever produces NaN. Near-constant tokens (tiny but positive
variance) are normalized as usual: that is the blow-up the paper studies,
and :meth:`BooleanTransformer.layer_norm_inverse_std
<skxor.nn.BooleanTransformer.layer_norm_inverse_std>` measures it.
"""

import torch
import torch.nn.functional as F
from torch import nn

from .._utils._validation import check_count
from ._common import check_real


class LayerNorm(nn.Module):
    """Layer norm over the last axis whose stabilizer ``eps`` may be exactly 0.

    ``LN(h) = (h - mean h) * r(h) * weight + bias`` with
    ``r(h) = 1 / sqrt(var h + eps)`` (biased variance over the D coordinates,
    as in :class:`torch.nn.LayerNorm`). Where ``var h + eps == 0`` (only
    possible with ``eps = 0`` and a constant token) ``r`` is taken as 0, so
    the output is ``bias`` and no NaN appears forward or backward.

    With ``eps > 0`` the fused :func:`torch.nn.functional.layer_norm` is
    used; it agrees with the formula above.

    Parameters
    ----------
    d_model : int
        Width D of the normalized axis.
    eps : float, default=1e-5
        Stabiliser, ``>= 0``.

    Examples
    --------
    >>> import torch
    >>> from skxor.nn import LayerNorm
    >>> ln = LayerNorm(3, eps=0.0)
    >>> h = torch.tensor([[1., 2., 3.], [5., 5., 5.]])  # the second token is constant
    >>> ln(h).detach()
    tensor([[-1.2247,  0.0000,  1.2247],
            [ 0.0000,  0.0000,  0.0000]])
    >>> ln.inverse_std(h)  # the blow-up 1 / sqrt(var + eps)
    tensor([1.2247,    inf])
    """

    def __init__(self, d_model, eps=1e-5):
        super().__init__()
        self.d_model = check_count(d_model, "d_model", 1)
        self.eps = check_real(eps, "layer_norm_eps", positive=False)
        self.weight = nn.Parameter(torch.ones(self.d_model))
        self.bias = nn.Parameter(torch.zeros(self.d_model))

    def _moments(self, h):
        # h: (..., D) -> centred (..., D), var (..., 1)
        centred = h - h.mean(dim=-1, keepdim=True)
        return centred, centred.square().mean(dim=-1, keepdim=True)

    def inverse_std(self, h):
        """``1 / sqrt(var h + eps)`` per token, shape ``h.shape[:-1]``.

        This is the diagnostic quantity, so it is ``inf`` (not 0) where
        ``var h + eps == 0``.
        """
        _, var = self._moments(h)
        return torch.rsqrt(var + self.eps).squeeze(-1)

    def forward(self, h):
        """Normalize h of shape (..., D); returns the same shape."""
        if self.eps > 0:
            return F.layer_norm(h, (self.d_model,), self.weight, self.bias, self.eps)
        centred, var = self._moments(h)
        positive = var > 0
        # rsqrt only of positive values: an inf in the unused branch of
        # torch.where would still turn the backward pass into NaN.
        scale = torch.where(positive, torch.rsqrt(torch.where(positive, var, 1.0)), 0.0)
        return centred * scale * self.weight + self.bias

    def extra_repr(self):
        return f"{self.d_model}, eps={self.eps}"

