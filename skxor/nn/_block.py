"""One layer of the Boolean transformer, with torch's fused inference kernel as a fast path.

Shapes in comments: ``B`` strings, ``T`` tokens, ``D`` the model width,
``H`` heads of width ``Dh = D / H`` and ``M`` the MLP width.
"""

import math

import torch
import torch.nn.functional as F
from torch import nn

from ._activations import activation_function
from ._attention import get_attention
from ._fast_path import fast_path_refusal, layout_refusal
from ._layer_norm import LayerNorm

#: Without autograd, a full layer of at most this many tokens, with heads at
#: least this wide, runs in torch's fused inference kernel (``_Block._fusable``).
FUSED_MAX_TOKENS = 32
FUSED_MIN_HEAD_WIDTH = 8


def _attend(q, k, v, attention):
    """Heads ``weights(q k^T / sqrt(Dh)) v`` of shape (B, H, T', Dh) for the named attention type.

    Softmax runs in :func:`torch.nn.functional.scaled_dot_product_attention`
    (its flash kernel never forms the T' x T scores); any other registered
    type forms the scores and takes its weights over the keys.
    """
    if attention == "softmax":
        return F.scaled_dot_product_attention(q, k, v)
    scores = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(q.shape[-1]))  # (B, H, T', T)
    return get_attention(attention).weights(scores, -1) @ v


def _residual(x, branch):
    """``x + branch``; without autograd written into ``branch``, a fresh temporary.

    Float addition is commutative, so both give the same bits.
    """
    return x + branch if torch.is_grad_enabled() else branch.add_(x)


class _Block(nn.Module):
    """One transformer layer: multi-head attention (softmax by default), then an MLP."""

    def __init__(self, config):
        super().__init__()
        d_model, eps = config.d_model, config.layer_norm_eps
        self.n_heads = config.n_heads
        self.norm = config.norm
        self.activation = config.activation
        self.attention = config.attention
        self.ln_attn = LayerNorm(d_model, eps)
        # Rows [0, D) make queries, [D, 2D) keys, [2D, 3D) values.
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.attn_out = nn.Linear(d_model, d_model)
        self.ln_mlp = LayerNorm(d_model, eps)
        self.mlp_in = nn.Linear(d_model, config.mlp_width)
        self.mlp_out = nn.Linear(config.mlp_width, d_model)

    def _norm(self, ln, h, record, name):
        if record is not None:
            record[name].append(ln.inverse_std(h).detach())
        return ln(h)

    def _attention(self, h, query):
        """Attention of the tokens ``h[:, query]`` (all when None) to all of h.

        h: (B, T, D) -> (B, T', D) with T' = T or 1.
        """
        B, T, D = h.shape
        H = self.n_heads
        w, b = self.qkv.weight, self.qkv.bias
        if query is None:
            q, k, v = F.linear(h, w, b).view(B, T, 3, H, D // H).permute(2, 0, 3, 1, 4)
        else:
            # Only one query row is needed: skip the other T - 1 projections.
            # (A qkv replaced by one without a bias has b None.)
            q = F.linear(h[:, query : query + 1], w[:D], None if b is None else b[:D])
            q = q.view(B, 1, H, D // H).transpose(1, 2)  # (B, H, 1, Dh)
            kv = F.linear(h, w[D:], None if b is None else b[D:])
            k, v = kv.view(B, T, 2, H, D // H).permute(2, 0, 3, 1, 4)
        heads = _attend(q, k, v, self.attention)  # (B, H, T', Dh)
        heads = heads.transpose(1, 2).reshape(B, q.shape[2], D)
        return self.attn_out(heads)

    def _mlp(self, h):
        hidden = self.mlp_in(h)  # (B, T, M)
        if self.activation == "relu":
            # Without autograd nothing keeps the pre-activation: ReLU in place
            # saves a (B, T, M) temporary and a pass over memory.
            return self.mlp_out(F.relu(hidden, inplace=not torch.is_grad_enabled()))
        return self.mlp_out(activation_function(self.activation)(hidden))

    def _fusable(self, h):
        """Whether :meth:`_fused` computes this layer on h, and faster.

        It computes the same layer under the conditions of
        :class:`torch.nn.TransformerEncoderLayer`'s inference fast path
        (``torch.backends.mha.set_fastpath_enabled(False)`` turns both off),
        plus ``eps > 0``: the kernel's layer norm has no ``eps = 0``
        convention, :class:`LayerNorm` has. It is faster on the CPU for short
        strings only: measured on 2 cores with one thread, a chunk took 0.75x
        the step-by-step time at 12 tokens and 0.90x at 20 (D = 64, 4 heads),
        about the same at 24-48 tokens, and 1.25x at 64, 2x at 128-512 tokens
        (where the flash kernel never forms the T x T scores) and 1.2x with
        heads 4 wide. The kernel's attention is softmax: another attention
        type always runs step by step.
        """
        D = h.shape[-1]
        return (
            not torch.is_grad_enabled()
            and hasattr(torch, "_transformer_encoder_layer_fwd")
            and torch.backends.mha.get_fastpath_enabled()
            and h.dim() == 3
            and h.device.type == "cpu"
            and h.shape[1] <= FUSED_MAX_TOKENS
            and D // self.n_heads >= FUSED_MIN_HEAD_WIDTH
            and self.attention == "softmax"
            and self.activation in ("relu", "gelu")
            and self.n_heads % 2 == 0
            and not torch.is_autocast_enabled()
            and h.dtype in (torch.float32, torch.float64)
            and fast_path_refusal(self) is None  # no hook, override or replaced submodule
            and self.ln_attn.eps > 0
            and self.ln_mlp.eps == self.ln_attn.eps  # the kernel takes one eps
        )

    def _fast_path_layout_refusal(self, config=None):
        """Why the submodules (or, given the model's ``config``, the settings) are not
        those ``__init__`` makes, or None (see :func:`skxor.nn.fast_path_refusal`)."""
        reason = layout_refusal(self, {
            "ln_attn": LayerNorm, "qkv": nn.Linear, "attn_out": nn.Linear,
            "ln_mlp": LayerNorm, "mlp_in": nn.Linear, "mlp_out": nn.Linear,
        })
        if reason is None and config is not None and any(
            getattr(self, name) != getattr(config, name)
            for name in ("n_heads", "norm", "activation", "attention")
        ):
            reason = "settings (heads, norm, activation, attention) differ from the model's"
        return reason

    def _fused(self, h):
        """The whole layer (every token) in one call of torch's fused inference kernel.

        ``torch._transformer_encoder_layer_fwd`` is the kernel behind
        :class:`torch.nn.TransformerEncoderLayer`'s inference fast path. Its
        layer is this one: q, k, v from one fused matrix, heads of D / H
        columns scaled by 1 / sqrt(Dh), pre- or post-norm with one eps, ReLU
        or exact GELU. It agrees with the step-by-step path to float rounding,
        not bit for bit. It runs attention and the layer norms in C++, with
        no dispatch between the 2 B H small products of a chunk, which is
        what makes it faster on short strings (see :meth:`_fusable`).
        """
        return torch._transformer_encoder_layer_fwd(
            h, h.shape[-1], self.n_heads,
            self.qkv.weight, self.qkv.bias, self.attn_out.weight, self.attn_out.bias,
            self.activation == "gelu", self.norm == "pre", self.ln_attn.eps,
            self.ln_attn.weight, self.ln_attn.bias, self.ln_mlp.weight, self.ln_mlp.bias,
            self.mlp_in.weight, self.mlp_in.bias, self.mlp_out.weight, self.mlp_out.bias,
        )

    def forward(self, h, query=None, record=None, name=""):
        """h: (B, T, D) -> (B, T', D); ``query`` keeps only that token."""
        if query is None and record is None and self._fusable(h):
            return self._fused(h)
        keep = h if query is None else h[:, query : query + 1]
        if self.norm == "pre":
            h = self._norm(self.ln_attn, h, record, name + "ln_attn")
        return self.finish(keep, self._attention(h, query), record, name)

    def finish(self, keep, attended, record=None, name=""):
        """The layer after its attention: residual sums, norms and the MLP.

        ``keep`` (..., D) are the layer's input tokens at the attending
        positions and ``attended`` their attention output (after the output
        map); used by :meth:`forward` and by the flip-neighbour update.
        """
        if self.norm == "pre":
            a = _residual(keep, attended)
            return _residual(a, self._mlp(self._norm(self.ln_mlp, a, record, name + "ln_mlp")))
        a = self._norm(self.ln_attn, _residual(keep, attended), record, name + "ln_attn")
        return self._norm(self.ln_mlp, _residual(a, self._mlp(a)), record, name + "ln_mlp")

