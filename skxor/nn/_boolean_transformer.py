"""A small encoder transformer on bit strings (Köver et al. (2026, arXiv 2606.08768)).

Shapes in comments follow one notation: ``B`` strings in a batch, ``N`` bits
per string, ``T`` tokens (``N``, or ``N + 1`` with a CLS token), ``D`` the
model width, ``H`` heads of width ``Dh = D / H`` and ``M`` the MLP width.

Layer norm with stabilizer ``eps = 0``
--------------------------------------
Köver et al. (2026) study layer norm ``LN(h) = (h - mean h) / sqrt(var h + eps) * g + b``
with ``eps = 0`` as well as ``eps > 0``. With ``eps = 0`` a token whose D
coordinates are all equal has ``var h = 0`` and the formula reads ``0 / 0``.
:class:`LayerNorm` defines the normalized vector to be **0** there (the
limit along any path of constant vectors), so the output is the bias ``b``,
exactly what ``eps > 0`` gives on a constant input. The gradient at such a
token is defined as 0 through the normalization, so neither the forward nor
the backward pass ever produces NaN. Near-constant tokens (tiny but positive
variance) are normalized as usual: that is the blow-up the paper studies,
and :meth:`BooleanTransformer.layer_norm_inverse_std` measures it.

Layer-norm blow-up (Köver et al. 2026, arXiv 2606.08768)
-------------------------------------------------------
For one input string, the blow-up of a layer norm is
``tau = max_n (1 + 1 / sqrt(var_n + eps))`` over the token positions n (var_n
the variance of the norm's input at position n), and the cumulative blow-up
is ``beta = prod tau`` over the layer norms the input meets
(:meth:`BooleanTransformer.layer_norm_tau`,
:meth:`BooleanTransformer.layer_norm_beta`). With ``eps > 0`` every factor
is at most ``1 + 1 / sqrt(eps)``, so ``beta <= (1 + 1 / sqrt(eps))^K`` for
K layer norms, whatever N. Here every layer has two norms (before or after
attention and the MLP) and pre-norm adds a final one, so ``K = 2 L`` (post)
or ``2 L + 1`` (pre); the paper's L counts layer norms.
"""

import math
from numbers import Integral, Real

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from .._utils._bits import largest_power_of_two_at_most
from .._utils._docstrings import fill_doc
from .._utils._torch import count_module_parameters, seeded_torch
from .._utils._validation import check_head_split
from .._utils._deprecation import renamed_argument, renamed_attribute
from ._activations import ACTIVATIONS, activation_function

INIT_SCHEMES = ("default", "normal", "uniform", "xavier_uniform", "xavier_normal")
POSITIONAL_ENCODINGS = ("learned", "sinusoidal")
NORM_PLACEMENTS = ("pre", "post")
READOUTS = ("last", "cls", "eos")

#: Strings evaluated at once by the no-grad batch paths (bounds memory).
DEFAULT_EVAL_BATCH = 1024
#: Tokens evaluated at once by the no-grad batch paths: long inputs get fewer
#: strings per chunk (1024 strings up to T = 256 tokens).
DEFAULT_EVAL_TOKENS = 2**18
#: Without autograd, a full layer of at most this many tokens, with heads at
#: least this wide, runs in torch's fused inference kernel (``_Block._fusable``).
FUSED_MAX_TOKENS = 32
FUSED_MIN_HEAD_WIDTH = 8
#: Floats of a layer's widest activation (B x T x max(3 D, M)) per no-grad
#: chunk: 4 MiB of float32, which stays in cache between a layer's products
#: (at N = 20, D = 64 a chunk of 128 strings ran the forward pass at 1.4x the
#: rate of a chunk of 1024).
DEFAULT_EVAL_FLOATS = 2**20


def _check_int(value, name, minimum):
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{name} must be an integer >= {minimum}; got {value!r}.")
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}.")
    return int(value)


def _check_option(value, name, options):
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name} must be one of {options}; got {value!r}.")
    return value


def _check_real(value, name, *, positive):
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
        self.d_model = _check_int(d_model, "d_model", 1)
        self.eps = _check_real(eps, "layer_norm_eps", positive=False)
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


def _residual(x, branch):
    """``x + branch``; without autograd written into ``branch``, a fresh temporary.

    Float addition is commutative, so both give the same bits.
    """
    return x + branch if torch.is_grad_enabled() else branch.add_(x)


class _Block(nn.Module):
    """One transformer layer: multi-head softmax attention, then an MLP."""

    def __init__(self, d_model, n_heads, d_mlp, norm, eps, activation):
        super().__init__()
        self.n_heads = n_heads
        self.norm = norm
        self.activation = activation
        self.ln_attn = LayerNorm(d_model, eps)
        # Rows [0, D) make queries, [D, 2D) keys, [2D, 3D) values.
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.attn_out = nn.Linear(d_model, d_model)
        self.ln_mlp = LayerNorm(d_model, eps)
        self.mlp_in = nn.Linear(d_model, d_mlp)
        self.mlp_out = nn.Linear(d_mlp, d_model)

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
            q = F.linear(h[:, query : query + 1], w[:D], b[:D])
            q = q.view(B, 1, H, D // H).transpose(1, 2)  # (B, H, 1, Dh)
            k, v = F.linear(h, w[D:], b[D:]).view(B, T, 2, H, D // H).permute(2, 0, 3, 1, 4)
        heads = F.scaled_dot_product_attention(q, k, v)  # (B, H, T', Dh)
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
        heads 4 wide.
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
            and self.ln_attn.eps > 0
            and self.activation in ("relu", "gelu")
            and self.n_heads % 2 == 0
            and not torch.is_autocast_enabled()
            and h.dtype in (torch.float32, torch.float64)
            and not any(m._forward_hooks or m._forward_pre_hooks for m in self.modules())
        )

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


#: Float64 entries of one block of the flip-neighbour update (16 MiB).
_NEIGHBOUR_FLOATS = 2**21
#: A flipped key holding more than this share of a query's attention is
#: not subtracted from the sums: that query row is recomputed from scratch,
#: so no update loses precision to cancellation.
_NEIGHBOUR_MAX_SHARE = 0.5


class _FlipNeighbours:
    """The first layer of a :class:`BooleanTransformer` on all single-bit flips of strings.

    A token depends only on its (bit, slot), so the layer's queries, keys and
    values are tables of 2 T rows (in float64). For a string and a set of
    attending positions, the attention sums ``Den = sum_u exp(s_u - c)``
    and ``Num = sum_u exp(s_u - c) v_u`` (``c`` the row's largest score)
    are formed once; the flip of bit i replaces one term of each:
    ``Den' = (Den - w_i) e + w'_i``, ``Num' = (Num - w_i v_i) e + w'_i
    v'_i``, with the shift moved to ``c' = max(c, s'_i)`` (``e = exp(c -
    c')``, so nothing overflows). A row whose flipped key holds more than
    half its attention, or whose own query is the flipped token, is
    recomputed from scratch instead, so no subtraction cancels more than
    one bit. The attention outputs then go through the rest of the layer
    (:meth:`_Block.finish`) in the model's dtype.
    """

    def __init__(self, model):
        self.model = model
        layer = model.layers[0]
        D, H = model.d_model, model.n_heads
        self.T, self.H, self.Dh = model.n_tokens, H, D // H
        self.table = model._token_table()  # (2T, D)
        source = layer.ln_attn(self.table) if model.norm == "pre" else self.table
        qkv = F.linear(source, layer.qkv.weight, layer.qkv.bias)  # (2T, 3D)
        # Contiguous (2T, D) tables, gathered with F.embedding (far faster than
        # advanced indexing): values in the model dtype for the updates, and
        # queries, keys and values in float64 for the sums.
        self.values = qkv[:, 2 * D :].contiguous()
        self.Q, self.K, self.V = (t.to(torch.float64).contiguous() for t in qkv.split(D, dim=1))
        self.scale = 1.0 / math.sqrt(self.Dh)
        self.read = 0 if model.readout == "cls" else self.T - 1  # the read-out slot
        offset = 1 if model.readout == "cls" else 0
        self.bit_slots = torch.arange(model.n_bits, device=self.table.device) + offset

    def gather(self, table, rows):
        """Rows of a (2T, D) table at the indices ``rows`` (any shape), split into heads."""
        return F.embedding(rows, table).view(*rows.shape, self.H, self.Dh)

    def rows(self, bits):
        """Table rows (B, T) of strings given as bits (B, N), as in ``BooleanTransformer._run``."""
        if self.model.readout != "last":
            bits = F.pad(bits, (1, 0) if self.model.readout == "cls" else (0, 1))
        return bits + torch.arange(0, 2 * self.T, 2, device=bits.device)

    def exact(self, rows, sums, b, slots, queries):
        """Attention outputs (F, H, Dh), from scratch, of F rows: string ``rows[b]`` with the
        token at ``slots`` flipped, attending from the slots ``queries`` (all (F,))."""
        F_ = b.numel()
        old = rows[b, slots]
        new = old ^ 1
        moved = queries == slots  # the query token itself is the flipped one
        q = sums["q"][b, sums["index"][queries]]  # (F, H, Dh)
        q[moved] = self.gather(self.Q, new[moved])
        out = torch.empty((F_, self.H, self.Dh), dtype=torch.float64, device=rows.device)
        shared = rows.shape[0] == 1  # one string: its keys and values serve every row
        step = max(1, _NEIGHBOUR_FLOATS // (self.T * self.H * (1 if shared else 2 * self.Dh)))
        for begin in range(0, F_, step):
            f = slice(begin, begin + step)
            n = q[f].shape[0]
            at = torch.arange(n, device=q.device)
            K = sums["K"][0] if shared else sums["K"][b[f]]
            V = sums["V"][0] if shared else sums["V"][b[f]]
            scores = torch.einsum("fhd,thd->fht" if shared else "fhd,fthd->fht", q[f], K)
            # The flipped token's key: one column of the scores changes.
            scores[at, :, slots[f]] = (q[f] * self.gather(self.K, new[f])).sum(-1)
            p = torch.softmax(scores.mul_(self.scale), dim=-1)
            o = torch.einsum("fht,thd->fhd" if shared else "fht,fthd->fhd", p, V)
            change = self.gather(self.V, new[f]) - self.gather(self.V, old[f])  # and one value
            out[f] = o.add_(p[at, :, slots[f]].unsqueeze(-1) * change)
        return out

    def sums(self, rows, queries):
        """The strings' own attention terms at the slots ``queries`` (T',): a dict of tensors."""
        q = self.gather(self.Q, rows[:, queries])  # (B, T', H, Dh)
        K, V = self.gather(self.K, rows), self.gather(self.V, rows)  # (B, T, H, Dh)
        scores = torch.einsum("bqhd,bthd->bqht", q, K) * self.scale  # (B, T', H, T)
        shift = scores.amax(dim=-1)  # (B, T', H)
        weights = torch.exp(scores.sub_(shift.unsqueeze(-1)))
        num = torch.einsum("bqht,bthd->bqhd", weights, V)  # (B, T', H, Dh)
        index = torch.full((self.T,), -1, dtype=torch.long, device=rows.device)
        index[queries] = torch.arange(queries.shape[0], device=rows.device)
        return {"q": q, "K": K, "V": V, "shift": shift, "weights": weights, "index": index,
                "den": weights.sum(dim=-1), "num": num.to(self.values.dtype), "num64": num}

    def attention(self, rows, queries, positions, sums):
        """Attention outputs (B, G, T', H, Dh) of the strings ``rows`` (B, T) with bit
        ``positions[g]`` flipped, at the slots ``queries`` (T',); ``sums`` from :meth:`sums`.

        The new output is ``a Num + b v_old + c v_new`` per head, with the
        coefficients ``a = e / Den'``, ``b = -w_old e / Den'`` and ``c =
        w_new / Den'`` in float64; the combination runs in the model's dtype.
        Since a flipped key holds at most half the attention (else the row
        is recomputed), ``a Num + b v_old`` cancels by at most a factor 2:
        the rounding stays that of the per-flip evaluation.
        """
        slots = self.bit_slots[positions]  # (G,)
        q, shift, den = sums["q"], sums["shift"].unsqueeze(1), sums["den"]
        old = rows[:, slots]  # (B, G)
        new = old ^ 1
        new_scores = torch.einsum("bqhd,bghd->bgqh", q, self.gather(self.K, new)) * self.scale
        old_weights = sums["weights"].index_select(-1, slots).permute(0, 3, 1, 2)  # (B, G, T', H)
        new_shift = torch.maximum(shift, new_scores)
        rescale = torch.exp(shift - new_shift)
        new_weights = torch.exp(new_scores.sub_(new_shift))
        den_new = (den.unsqueeze(1) - old_weights).mul_(rescale).add_(new_weights)
        dtype = self.values.dtype
        a = rescale.div_(den_new)
        b = (old_weights * a).neg_().to(dtype).unsqueeze(-1)
        c = new_weights.div_(den_new).to(dtype).unsqueeze(-1)
        out = sums["num"].unsqueeze(1) * a.to(dtype).unsqueeze(-1)  # (B, G, T', H, Dh)
        out.addcmul_(b, self.gather(self.values, old).unsqueeze(2))
        out.addcmul_(c, self.gather(self.values, new).unsqueeze(2))
        # Rows to recompute: the flipped key dominates, or the query is the flipped token.
        flagged = (old_weights > _NEIGHBOUR_MAX_SHARE * den.unsqueeze(1)).any(dim=-1)
        flagged |= queries[None, None, :] == slots[None, :, None]
        b, g, t = flagged.nonzero(as_tuple=True)
        if b.numel():
            out[b, g, t] = self.exact(rows, sums, b, slots[g], queries[t]).to(dtype)
        return out

    def layer_output(self, rows, queries, positions, sums):
        """The first layer's output (B * G, T', D) at the slots ``queries`` for every flip."""
        B, G = rows.shape[0], positions.shape[0]
        o = self.attention(rows, queries, positions, sums).reshape(B * G, queries.shape[0], -1)
        keep_rows = rows[:, queries].unsqueeze(1).repeat(1, G, 1)  # (B, G, T')
        keep_rows ^= (queries[None, None, :] == self.bit_slots[positions][None, :, None]).long()
        keep = F.embedding(keep_rows.reshape(B * G, -1), self.table)  # (B * G, T', D)
        layer = self.model.layers[0]
        return layer.finish(keep, layer.attn_out(o))

    def outputs(self, bits, own=None):
        """Model outputs (B, N) of every single-bit flip of the strings ``bits`` (B, N).

        ``own``, a (B,) tensor, receives the outputs on the strings
        themselves: with one layer from the same attention sums (the read-out
        row unchanged), else from ``forward``.
        """
        model, B, N = self.model, bits.shape[0], bits.shape[1]
        rows = self.rows(bits)
        out = torch.empty((B, N), dtype=self.table.dtype, device=self.table.device)
        if model.n_layers == 1:
            # Only the read-out token's attention row matters.
            queries = torch.tensor([self.read], device=rows.device)
            width = max(self.H * self.Dh, model.d_mlp) * 4
            step = max(1, _NEIGHBOUR_FLOATS // (N * width))
            positions = torch.arange(N, device=rows.device)
            layer = model.layers[0]
            for begin in range(0, B, step):
                chunk = rows[begin : begin + step]
                sums = self.sums(chunk, queries)
                h = self.layer_output(chunk, queries, positions, sums)
                out[begin : begin + step] = model._layers_from(h, 1, 0).view(-1, N)
                if own is not None:
                    o = sums["num64"].div_(sums["den"].unsqueeze(-1)).to(self.table.dtype)
                    keep = F.embedding(chunk[:, queries], self.table)  # (c, 1, D)
                    h = layer.finish(keep, layer.attn_out(o.flatten(2)))
                    own[begin : begin + step] = model._layers_from(h, 1, 0)
            return out
        if own is not None:
            own.copy_(model(1.0 - 2.0 * bits.to(self.table.dtype)))  # chunked, as always
        # Every token attends: update layer 1 row by row, run the later layers in full.
        queries = torch.arange(self.T, device=rows.device)
        step = max(1, model.eval_batch_size)
        for b in range(B):
            sums = self.sums(rows[b : b + 1], queries)
            for begin in range(0, N, step):
                positions = torch.arange(begin, min(N, begin + step), device=rows.device)
                h = self.layer_output(rows[b : b + 1], queries, positions, sums)
                out[b, begin : begin + step] = model._layers_from(h, 1, self.read)
        return out


class BooleanTransformer(nn.Module):
    """Encoder transformer mapping bit strings of length N to one real number.

    Tokens: bit ``b_i`` of the input becomes the token embedding
    ``E[b_i]`` (two learned vectors) plus the position code of slot i
    (learned or sinusoidal). With ``readout="cls"`` a learned CLS vector is
    prepended as token 0; with ``readout="eos"`` a learned end-of-string
    vector is appended as token N + 1 (index N), the recognizer of Köver et
    al. (2026, arXiv 2606.08768). ``n_layers`` layers of bidirectional multi-head
    softmax attention (``softmax(q k^T / sqrt(Dh))``) and a ReLU/GELU MLP
    follow, with residual connections and :class:`LayerNorm` placed before
    each sub-layer (``"pre"``, plus a final norm) or after each residual sum
    (``"post"``). A linear map of the read-out token (the last bit, the
    CLS token or the eos token) gives the output
    ``T(x) = w . y_r + omega``; the Boolean function computed is
    ``T(x) > 0``.

    Recognizer with a margin: with ``margin=xi > 0`` a string is accepted
    when ``T(x) >= xi``, rejected when ``T(x) <= -xi`` and undecided in
    between (:meth:`decide` returns +1 / -1 / 0). With ``margin=0`` (the
    default) :meth:`decide` is +1 where ``T(x) > 0`` and -1 elsewhere, the
    Boolean function above, and no string is undecided. The margin changes
    neither the output nor training; it is how outputs are read by
    :meth:`decide` and :func:`skxor.sensitivity.margin_profile`.

    Input: a (B, N) tensor of **spins** ``x = 1 - 2 b`` (+1 for bit 0, -1
    for bit 1), the library's internal encoding and what
    :func:`skxor.sensitivity.sensitivity_profile` and
    :func:`skxor.boolean.truth_table` feed a torch module; bits convert with
    :meth:`spins_from_bits`. Spins enter the embedding linearly
    (``E[b] = (E[0] + E[1]) / 2 - x (E[1] - E[0]) / 2``), so only +-1 values
    are tokens: any other value (0, 2, NaN, inf, a complex number) raises a
    ValueError or TypeError (one vectorised ``|x| == 1`` test per call).

    The forward pass is batched over strings with no Python loop over
    positions (attention is
    :func:`torch.nn.functional.scaled_dot_product_attention`); the last
    layer computes only the read-out token, which is all the output depends
    on; and without autograd a large batch runs in chunks of
    ``eval_batch_size`` strings, so the truth table on all 2^N strings is
    one call. Without autograd the tokens are gathered from a table of the
    2 T (bit, slot) embeddings, and on the CPU a full layer of at most 32
    tokens runs in torch's fused inference kernel (the one behind
    :class:`torch.nn.TransformerEncoderLayer`'s fast path; ``eps > 0``,
    ReLU or GELU, an even number of heads at least 8 wide), which is faster
    at these lengths; its outputs agree with the autograd pass's to float
    rounding rather than bit for bit.
    ``torch.backends.mha.set_fastpath_enabled(False)`` turns it off.

    Parameters
    ----------
    n_bits : int
        Number of input bits N. (Formerly ``n_positions``; that name still
        works, with a FutureWarning, until the next release.)
    d_model : int, default=64
        Width D; must be divisible by ``n_heads``.
    n_layers : int, default=2
        Number of layers L.
    n_heads : int, default=4
        Attention heads per layer.
    d_mlp : int or None, default=None
        Hidden width of each MLP; None means ``4 * d_model``.
    positional : {"learned", "sinusoidal"}, default="learned"
        Learned position embeddings, or fixed sinusoidal codes.
    norm : {"pre", "post"}, default="pre"
        Layer-norm placement.
    layer_norm_eps : float, default=1e-5
        Stabiliser of every layer norm, ``>= 0``; 0 is handled as described
        in :class:`LayerNorm` (no NaN ever).
    readout : {"last", "cls", "eos"}, default="last"
        Read the output at the last bit's token, at a prepended CLS token or
        at an appended end-of-string token (the recognizer form: position
        N + 1, ``T(x) = w . y_{N+1} + omega``). The CLS and eos vectors are
        learned; with ``positional="sinusoidal"`` the eos token gets the
        fixed code of position N + 1, so the positions stay fixed.
    activation : {"relu", "gelu", "tanh", "logistic", "square", "identity"}, \
default="relu"
        MLP non-linearity (:data:`skxor.nn.ACTIVATIONS`).
    init : {"default", "normal", "uniform", "xavier_uniform", \
"xavier_normal"}, default="default"
        ``"default"``: PyTorch's own initialization of each layer
        (Kaiming-uniform linear maps, N(0, 1) embeddings, layer-norm gain 1
        and bias 0; the CLS / eos vector N(0, 1)). ``"normal"``: every
        parameter, layer-norm gains and biases included, i.i.d.
        ``N(0, init_scale^2)``. ``"uniform"``: every parameter i.i.d.
        ``U[-init_scale, init_scale]``. These two draw a point from a density
        on the whole parameter space, the setting of the measure-theoretic
        results of Köver et al. (2026, arXiv 2606.08768) (its "Gaussian" and "uniform" schemes).
        ``"xavier_uniform"`` / ``"xavier_normal"`` (their
        Xavier-uniform and Xavier-Gaussian): every weight matrix W of shape
        (fan_out, fan_in) i.i.d. ``U[-a, a]`` with
        ``a = init_scale * sqrt(6 / (fan_in + fan_out))``, or
        ``N(0, init_scale^2 * 2 / (fan_in + fan_out))``
        (:func:`torch.nn.init.xavier_uniform_` / ``xavier_normal_`` with gain
        ``init_scale``). The weight matrices are the query, key and value
        maps (each its own D x D matrix), the attention output map, the two
        MLP maps, the read-out ``w`` (1 x D), the token embedding (2 x D),
        the learned positions (T x D) and the CLS / eos vector (1 x D); all
        biases (``omega`` included) are 0 and layer-norm gains 1 (the usual
        Glorot-Bengio convention; our choice, the paper does not say).
    init_scale : float, default=1.0
        sigma of ``"normal"``, half-width of ``"uniform"``, gain of the
        Xavier schemes; unused by ``"default"``.
    margin : float, default=0.0
        Margin xi ``>= 0`` of :meth:`decide` (see above). Settable after
        construction; a value that is not a finite number >= 0 is refused
        there (TypeError / ValueError naming ``margin``).
    seed : int or None, default=None
        Seeds the initialization without touching torch's global RNG. None
        draws from the global RNG, as torch modules usually do.

    Attributes
    ----------
    n_tokens : int
        Sequence length T (``N``, or ``N + 1`` with a CLS or eos token).
    n_parameters : int
        Number of trainable parameters.
    eval_batch_size : int
        Strings per chunk of a no-grad forward pass: the largest power of
        two of strings, at most 1024, whose chunk holds at most 2^18 tokens
        and at most 2^20 floats of the widest activation
        (``T * max(3 D, M)`` per string), so that a chunk stays in cache
        (128 strings at N = 20, D = 64; 512 at N = 20, D = 16); settable
        to any integer >= 1 (anything else is a TypeError / ValueError
        naming ``eval_batch_size``).

    Examples
    --------
    >>> import torch
    >>> from skxor.nn import BooleanTransformer
    >>> model = BooleanTransformer(6, d_model=16, n_layers=2, n_heads=2,
    ...                            layer_norm_eps=0.0, init="normal", seed=0)
    >>> spins = BooleanTransformer.spins_from_bits([[0, 1, 1, 0, 0, 1], [1, 1, 1, 1, 1, 1]])
    >>> model(spins).shape
    torch.Size([2])
    >>> from skxor.sensitivity import sensitivity_profile
    >>> prof = sensitivity_profile(model, 6)  # all 2**6 strings, one forward pass
    >>> int(prof.counts.sum())
    64
    """

    def __init__(
        self,
        n_bits=None,
        d_model=64,
        n_layers=2,
        n_heads=4,
        d_mlp=None,
        *,
        positional="learned",
        norm="pre",
        layer_norm_eps=1e-5,
        readout="last",
        activation="relu",
        init="default",
        init_scale=1.0,
        margin=0.0,
        seed=None,
        n_positions=None,
    ):
        super().__init__()
        n_bits = renamed_argument(n_bits, n_positions, "n_bits", "n_positions", "BooleanTransformer")
        self.n_bits = _check_int(n_bits, "n_bits", 1)
        self.d_model = _check_int(d_model, "d_model", 1)
        self.n_layers = _check_int(n_layers, "n_layers", 1)
        self.n_heads = _check_int(n_heads, "n_heads", 1)
        check_head_split(self.d_model, self.n_heads)
        self.d_mlp = 4 * self.d_model if d_mlp is None else _check_int(d_mlp, "d_mlp", 1)
        self.positional = _check_option(positional, "positional", POSITIONAL_ENCODINGS)
        self.norm = _check_option(norm, "norm", NORM_PLACEMENTS)
        self.layer_norm_eps = _check_real(layer_norm_eps, "layer_norm_eps", positive=False)
        self.readout = _check_option(readout, "readout", READOUTS)
        self.activation = _check_option(activation, "activation", ACTIVATIONS)
        self.init = _check_option(init, "init", INIT_SCHEMES)
        self.init_scale = _check_real(init_scale, "init_scale", positive=True)
        self.margin = _check_real(margin, "margin", positive=False)
        if seed is not None:
            _check_int(seed, "seed", 0)
        self.seed = seed
        self.n_tokens = self.n_bits + (self.readout != "last")
        # Chunks of at most DEFAULT_EVAL_TOKENS tokens bound the activations'
        # memory, and of at most DEFAULT_EVAL_FLOATS floats of the widest
        # activation keep them cache-sized. A power of two: torch's kernels
        # then see rows in the same alignment as in chunks of 1024, so every
        # output keeps its bits.
        width = max(3 * self.d_model, self.d_mlp)
        fits = max(1, min(DEFAULT_EVAL_TOKENS // self.n_tokens,
                          DEFAULT_EVAL_FLOATS // (self.n_tokens * width)))
        self.eval_batch_size = min(DEFAULT_EVAL_BATCH, largest_power_of_two_at_most(fits))

        if seed is None:
            self._build()
        else:
            with seeded_torch(seed):
                self._build()

    # margin and eval_batch_size are documented as settable after
    # construction: the setters check them, so decide and forward never see
    # a bad value.
    @property
    def margin(self):
        """Margin xi ``>= 0`` of :meth:`decide`; settable (a finite number >= 0)."""
        return self._margin

    @margin.setter
    def margin(self, value):
        self._margin = _check_real(value, "margin", positive=False)

    @property
    def eval_batch_size(self):
        """Strings per chunk of a no-grad forward pass; settable (an integer >= 1)."""
        return self._eval_batch_size

    @eval_batch_size.setter
    def eval_batch_size(self, value):
        self._eval_batch_size = _check_int(value, "eval_batch_size", 1)

    def __setstate__(self, state):
        # Modules pickled before margin and eval_batch_size were checked
        # properties hold them as plain attributes.
        for name in ("margin", "eval_batch_size"):
            if name in state:
                state["_" + name] = state.pop(name)
        state.setdefault("_eval_batch_size", DEFAULT_EVAL_BATCH)
        super().__setstate__(state)

    def _build(self):
        D = self.d_model
        self.token_embed = nn.Embedding(2, D)  # row b is the embedding of bit b
        if self.positional == "learned":
            self.pos_embed = nn.Parameter(nn.Embedding(self.n_tokens, D).weight.detach().clone())
        else:
            self.register_buffer("pos_embed", sinusoidal_positions(self.n_tokens, D))
        if self.readout == "cls":
            self.cls = nn.Parameter(torch.randn(D))
        elif self.readout == "eos":
            self.eos = nn.Parameter(torch.randn(D))
        self.layers = nn.ModuleList(
            _Block(D, self.n_heads, self.d_mlp, self.norm, self.layer_norm_eps, self.activation)
            for _ in range(self.n_layers)
        )
        if self.norm == "pre":
            self.ln_final = LayerNorm(D, self.layer_norm_eps)
        self.unembed = nn.Linear(D, 1)
        if self.init in ("normal", "uniform"):
            with torch.no_grad():
                for p in self.parameters():
                    if self.init == "normal":
                        p.normal_(0.0, self.init_scale)
                    else:
                        p.uniform_(-self.init_scale, self.init_scale)
        elif self.init.startswith("xavier"):
            self._xavier_init()

    def _xavier_init(self):
        """Xavier (Glorot) weights with gain ``init_scale``; biases 0, LN gains 1."""
        draw = nn.init.xavier_uniform_ if self.init == "xavier_uniform" else nn.init.xavier_normal_
        D = self.d_model
        with torch.no_grad():
            matrices = [self.token_embed.weight, self.unembed.weight]
            if isinstance(self.pos_embed, nn.Parameter):
                matrices.append(self.pos_embed)
            for name in ("cls", "eos"):
                if hasattr(self, name):
                    matrices.append(getattr(self, name).view(1, D))
            for layer in self.layers:
                # Query, key and value maps are D x D blocks of one fused matrix.
                matrices += [layer.qkv.weight[i * D : (i + 1) * D] for i in range(3)]
                matrices += [layer.attn_out.weight, layer.mlp_in.weight, layer.mlp_out.weight]
            for w in matrices:
                draw(w, gain=self.init_scale)
            for name, p in self.named_parameters():
                if name.endswith("bias"):
                    p.zero_()
                elif name.endswith(("ln_attn.weight", "ln_mlp.weight", "ln_final.weight")):
                    p.fill_(1.0)

    @property
    def n_parameters(self):
        """Number of trainable parameters."""
        return count_module_parameters(self)

    @property
    def n_positions(self):
        """Former name of :attr:`n_bits` (deprecated)."""
        return renamed_attribute(self, "n_bits", "n_positions")

    @property
    def layer_norm_names(self):
        """Names of the layer norms, in the order the input meets them."""
        names = [f"layers.{i}.{ln}" for i in range(self.n_layers) for ln in ("ln_attn", "ln_mlp")]
        return names + (["ln_final"] if self.norm == "pre" else [])

    @staticmethod
    def spins_from_bits(bits):
        """Spins ``1 - 2 b`` (bit 0 -> +1, bit 1 -> -1) of 0/1 bits, as float."""
        return 1 - 2 * torch.as_tensor(bits).float()

    def _check_spins(self, spins):
        return check_spins(spins, self.n_bits, type(self).__name__)

    def _bit_embeddings(self, x):
        """Embeddings (..., D) of spins x (..., 1): E[b] for bit b = (1 - x) / 2."""
        E = self.token_embed.weight  # (2, D): row b embeds bit b
        # E[b] = (E[0] + E[1]) / 2 - x (E[1] - E[0]) / 2: one broadcast, no gather.
        return (E[0] + E[1]) / 2 - x * ((E[1] - E[0]) / 2)

    def _token_table(self):
        """Every token the first layer can see: (2 T, D), row 2 t + b for bit b at slot t.

        A token depends on its bit and its slot only, so without autograd a
        chunk's (B, T, D) tokens are one gather from these 2 T rows rather
        than three passes of arithmetic over them. The rows come from the
        same formula as the per-string path, so every bit is the same. (The
        CLS or eos slot has its vector in both rows.)
        """
        E = self.token_embed.weight
        spins = torch.tensor([[1.0], [-1.0]], dtype=E.dtype, device=E.device)  # bits 0, 1
        tokens = self._bit_embeddings(spins).expand(self.n_tokens, 2, -1).clone()  # (T, 2, D)
        if self.readout == "cls":
            tokens[0] = self.cls
        elif self.readout == "eos":
            tokens[-1] = self.eos
        return (tokens + self.pos_embed[:, None]).flatten(0, 1)  # (2T, D)

    def _run(self, spins, full=False, record=None, table=None):
        """Output (B,) for spins (B, N); ``full`` keeps every token to the end.

        ``table`` (from :meth:`_token_table`, no autograd) makes the tokens by
        a gather instead of arithmetic.
        """
        E = self.token_embed.weight
        r = 0 if self.readout == "cls" else self.n_tokens - 1
        if table is not None:
            bits = (spins < 0).to(device=E.device, dtype=torch.long)  # (B, N)
            if self.readout != "last":  # the CLS / eos slot: row 0 of its pair
                bits = F.pad(bits, (1, 0) if self.readout == "cls" else (0, 1))
            slots = torch.arange(0, 2 * self.n_tokens, 2, device=E.device)
            h = F.embedding(bits + slots, table)  # (B, T, D)
        else:
            x = spins.to(device=E.device, dtype=E.dtype).unsqueeze(-1)  # (B, N, 1)
            h = self._bit_embeddings(x)  # (B, N, D)
            if self.readout == "cls":
                h = torch.cat([self.cls.expand(h.shape[0], 1, -1), h], dim=1)  # (B, T, D)
            elif self.readout == "eos":
                h = torch.cat([h, self.eos.expand(h.shape[0], 1, -1)], dim=1)  # (B, T, D)
            h = h + self.pos_embed  # (B, T, D)
        return self._layers_from(h, 0, r, full, record)

    def _layers_from(self, h, start, r, full=False, record=None):
        """Layers ``start ..`` on tokens h (B, T, D), the final norm and the read-out at r: (B,)."""
        for i in range(start, self.n_layers):
            layer = self.layers[i]
            if i == self.n_layers - 1 and not full:
                h = layer(h, query=r, record=record, name=f"layers.{i}.")  # (B, 1, D)
                r = 0
            else:
                h = layer(h, record=record, name=f"layers.{i}.")  # (B, T, D)
        if self.norm == "pre":
            if record is not None:
                record["ln_final"].append(self.ln_final.inverse_std(h).detach())
            h = self.ln_final(h)
        return self.unembed(h[:, r]).squeeze(-1)  # (B,)

    def forward(self, spins):
        """Real output for each string.

        Without autograd (``torch.no_grad``/``inference_mode``) a large batch
        is processed ``eval_batch_size`` strings at a time, which bounds the
        activations' memory and keeps them cache-sized; the result agrees
        with one pass to float rounding (4.8e-7 measured for outputs of
        order 1 in float32), not bit for bit, so the sign of an output that
        close to 0 can depend on the chunking (the sensitivity tools decide
        such outputs by a one-string evaluation; see
        :mod:`skxor.sensitivity`). Short strings then run their full layers in torch's
        fused inference kernel (see the class notes), so outputs agree with
        the autograd pass's to float rounding.

        Parameters
        ----------
        spins : Tensor of shape (B, N)
            Spins +1 (bit 0) / -1 (bit 1), any dtype.

        Returns
        -------
        out : Tensor of shape (B,)
            ``out > 0`` is the Boolean value computed.
        """
        spins = self._check_spins(spins)
        if torch.is_grad_enabled():
            return self._run(spins)
        size, table = self.eval_batch_size, self._token_table()
        if spins.shape[0] <= size:
            return self._run(spins, table=table)
        return torch.cat([self._run(spins[i : i + size], table=table)
                          for i in range(0, spins.shape[0], size)])

    @torch.no_grad()
    @fill_doc
    def flip_neighbours(self, spins, *, return_outputs=False):
        """Outputs on every single-bit flip of each string, shape (B, N).

        ``out[b, j]`` is the output on string b with bit j flipped,
        computed from the string's own first layer: a flip changes one of
        its T tokens, so the first layer's attention sums change by one
        term each (an ``O(D)`` update per attending token, in float64, from
        tables of the queries, keys and values of both bits at every
        position; rows where that update could cancel are recomputed). With
        one layer only the read-out token attends, so a flip costs the rest
        of the layer on that one position; with more layers the later ones
        run in full on each flipped string (and strings short enough for
        the fused kernel, see the class notes, are simply evaluated
        flipped). The outputs agree with ``forward`` on the flipped strings
        to float rounding.

        Parameters
        ----------
        %(spins)s
        return_outputs : bool, default=False
            Also return the outputs on the strings themselves, computed along
            (with one layer from the same attention sums, agreeing with
            ``forward`` to float rounding; else by ``forward``).

        Returns
        -------
        out : Tensor of shape (B, N)
            In the module's dtype, on its device.
        outputs : Tensor of shape (B,)
            Only with ``return_outputs=True``, which returns ``(outputs, out)``.

        Examples
        --------
        >>> import torch
        >>> from skxor.nn import BooleanTransformer
        >>> model = BooleanTransformer(5, d_model=8, n_layers=1, n_heads=2,
        ...                            readout="eos", seed=0)
        >>> spins = torch.tensor([[1., -1, 1, 1, -1]])
        >>> flipped = spins.repeat(5, 1)
        >>> flipped[range(5), range(5)] *= -1
        >>> bool(torch.allclose(model.flip_neighbours(spins)[0], model(flipped), atol=1e-6))
        True
        """
        spins = self._check_spins(spins)
        E = self.token_embed.weight
        probe = E.new_empty((1, self.n_tokens, self.d_model))
        if self.n_layers > 1 and self.layers[0]._fusable(probe):
            # Short strings, several layers: every full layer is one fused
            # kernel call on a batch of flipped strings, which measured faster
            # than the row-by-row update (that took 1.1-1.6x its time at N = 32).
            return self._flip_neighbours_per_flip(spins, return_outputs)
        bits = (spins < 0).to(device=E.device, dtype=torch.long)
        if not return_outputs:
            return _FlipNeighbours(self).outputs(bits)
        own = torch.empty(bits.shape[0], dtype=E.dtype, device=E.device)
        return own, _FlipNeighbours(self).outputs(bits, own)

    def _flip_neighbours_per_flip(self, spins, return_outputs):
        """:meth:`flip_neighbours` by evaluating the flipped strings, in chunks."""
        B, N = spins.shape
        out = torch.empty((B, N), dtype=self.token_embed.weight.dtype,
                          device=self.token_embed.weight.device)
        step = max(1, DEFAULT_EVAL_FLOATS // (N * N))
        index = torch.arange(N)
        for begin in range(0, B, step):
            flipped = spins[begin : begin + step].unsqueeze(1).repeat(1, N, 1)  # (c, N, N)
            flipped[:, index, index] *= -1
            out[begin : begin + step] = self(flipped.reshape(-1, N)).view(-1, N)
        return (self(spins), out) if return_outputs else out

    @torch.no_grad()
    @fill_doc
    def decide(self, spins):
        """Recognizer decision per string: +1 accept, -1 reject, 0 undecided.

        With ``margin = xi > 0``: +1 where ``T(x) >= xi``, -1 where
        ``T(x) <= -xi``, 0 in between. With ``margin = 0``: +1 where
        ``T(x) > 0``, else -1 (the Boolean function ``T(x) > 0``; nothing is
        undecided). It reads the outputs of this call as they are, so an
        output within float rounding of a threshold can be decided
        differently in another batch; :func:`skxor.sensitivity.margin_profile`
        decides such outputs by a one-string evaluation instead.

        Parameters
        ----------
        %(spins)s

        Returns
        -------
        decision : Tensor of shape (B,), dtype int8
            On the module's device.

        Raises
        ------
        ValueError
            When an output is NaN or infinite (for example NaN weights).

        Examples
        --------
        >>> import torch
        >>> from skxor.nn import BooleanTransformer
        >>> model = BooleanTransformer(4, d_model=8, n_heads=2, readout="eos",
        ...                            margin=0.5, seed=0)
        >>> model.decide(torch.ones(3, 4)).dtype
        torch.int8
        """
        out = self(spins)
        bad = ~torch.isfinite(out)
        if bad.any():
            # NaN would read as "reject" at margin 0 and "undecided" above it.
            raise ValueError(
                f"The model returned non-finite outputs (NaN or inf) for {int(bad.sum())} of "
                f"{out.numel()} strings; its decision is undefined there (check its weights)."
            )
        if self.margin == 0:
            return torch.where(out > 0, 1, -1).to(torch.int8)
        decision = (out >= self.margin).to(torch.int8) - (out <= -self.margin).to(torch.int8)
        return decision

    @torch.no_grad()
    @fill_doc
    def layer_norm_tau(self, spins):
        """Layer-norm blow-up factors ``tau = max_n (1 + 1 / sqrt(var_n + eps))``.

        For each string and each layer norm, the maximum over the token
        positions n of ``1 + 1 / sqrt(var_n + eps)``, ``var_n`` being the
        (biased) variance of the norm's input at position n (Köver et al.
        2026, arXiv 2606.08768). ``inf`` where some token is exactly
        constant and ``eps = 0``.

        Parameters
        ----------
        %(spins)s

        Returns
        -------
        tau : Tensor of shape (B, K)
            Column j for the layer norm ``layer_norm_names[j]``; on the CPU.
        """
        inverse_std = self.layer_norm_inverse_std(spins)
        columns = [1 + inverse_std[name].amax(dim=1) for name in self.layer_norm_names]
        return torch.stack(columns, dim=1)

    @fill_doc
    def layer_norm_beta(self, spins):
        """Cumulative layer-norm blow-up ``beta = prod tau`` per string.

        The product of :meth:`layer_norm_tau` over all K layer norms. With
        ``layer_norm_eps = eps > 0``, ``beta <= (1 + 1 / sqrt(eps))^K``
        (:attr:`layer_norm_beta_bound`) for every string and every N.

        Parameters
        ----------
        %(spins)s

        Returns
        -------
        beta : Tensor of shape (B,)
            On the CPU, in float64.

        Examples
        --------
        >>> import torch
        >>> from skxor.nn import BooleanTransformer
        >>> model = BooleanTransformer(5, d_model=8, n_heads=2, layer_norm_eps=0.01, seed=0)
        >>> beta = model.layer_norm_beta(torch.ones(2, 5))
        >>> bool((beta <= model.layer_norm_beta_bound).all())
        True
        """
        return self.layer_norm_tau(spins).double().prod(dim=1)

    @property
    def layer_norm_beta_bound(self):
        """``(1 + 1 / sqrt(eps))^K`` for K layer norms (inf when ``eps = 0``)."""
        if self.layer_norm_eps == 0:
            return math.inf
        return (1 + 1 / math.sqrt(self.layer_norm_eps)) ** len(self.layer_norm_names)

    @torch.no_grad()
    @fill_doc
    def layer_norm_inverse_std(self, spins):
        """Layer-norm blow-up: ``1 / sqrt(var + eps)`` of each norm's input.

        Runs the full forward pass (every token through every layer) and
        records, for each layer norm, the inverse standard deviation of its
        input token by token. Large values mean a near-constant token that
        the norm blows up; ``inf`` marks an exactly constant token with
        ``eps = 0`` (where the norm itself outputs its bias, see
        :class:`LayerNorm`).

        Parameters
        ----------
        %(spins)s

        Returns
        -------
        inverse_std : dict of str to Tensor of shape (B, T)
            Keyed by :attr:`layer_norm_names` (``"layers.{l}.ln_attn"``,
            ``"layers.{l}.ln_mlp"``, and ``"ln_final"`` for pre-norm); on
            the CPU.
        """
        spins = self._check_spins(spins)
        size = self.eval_batch_size
        record = {name: [] for name in self.layer_norm_names}
        for start in range(0, spins.shape[0], size):
            self._run(spins[start : start + size], full=True, record=record)
        return {
            name: (torch.cat(parts).cpu() if parts else torch.empty(0, self.n_tokens))
            for name, parts in record.items()
        }

    def extra_repr(self):
        return (
            f"n_bits={self.n_bits}, readout={self.readout!r}, "
            f"positional={self.positional!r}, norm={self.norm!r}, "
            f"init={self.init!r}" + (f", margin={self.margin}" if self.margin else "")
        )


def layer_norm_blowup(model, spins):
    """Per-layer-norm summary of the blow-up of ``model`` on ``spins``.

    Two quantities: the per-token inverse standard deviation
    ``1 / sqrt(var + eps)`` of each norm's input (over all strings and
    tokens), and Köver et al.'s per-string factor
    ``tau = max_n (1 + 1 / sqrt(var_n + eps))`` with its product ``beta``.

    Parameters
    ----------
    model : BooleanTransformer
    spins : Tensor or ndarray of shape (B, N)
        Spins +-1.

    Returns
    -------
    summary : pandas.DataFrame
        One row per layer norm (in input order): ``layer_norm``;
        ``inverse_std_max``, ``inverse_std_median`` and ``inverse_std_mean``
        of ``1 / sqrt(var + eps)`` over all strings and tokens (median and
        mean over the finite values) and ``n_infinite`` (constant tokens with
        ``eps = 0``); ``tau_max`` and ``tau_median`` of tau over the strings.
        ``summary.attrs`` holds ``beta_max`` and ``beta_median`` (of beta
        over the strings) and ``beta_bound`` ((1 + 1/sqrt(eps))^K, inf for
        ``eps = 0``).

    Examples
    --------
    >>> import torch
    >>> from skxor.nn import BooleanTransformer, layer_norm_blowup
    >>> model = BooleanTransformer(5, d_model=8, n_layers=1, n_heads=2, seed=0)
    >>> summary = layer_norm_blowup(model, torch.ones(3, 5))
    >>> summary["layer_norm"].tolist()
    ['layers.0.ln_attn', 'layers.0.ln_mlp', 'ln_final']
    >>> summary.attrs["beta_max"] <= summary.attrs["beta_bound"]
    True
    """
    import pandas as pd

    rows = []
    inverse_std = model.layer_norm_inverse_std(spins)
    for name, inv in inverse_std.items():
        values = inv.double().flatten().numpy()
        finite = values[np.isfinite(values)]
        tau = 1 + inv.double().amax(dim=1).numpy() if inv.shape[0] else np.empty(0)
        rows.append(
            {
                "layer_norm": name,
                "inverse_std_max": float(values.max()) if values.size else np.nan,
                "inverse_std_median": float(np.median(finite)) if finite.size else np.nan,
                "inverse_std_mean": float(finite.mean()) if finite.size else np.nan,
                "n_infinite": int((~np.isfinite(values)).sum()),
                "tau_max": float(tau.max()) if tau.size else np.nan,
                "tau_median": float(np.median(tau)) if tau.size else np.nan,
            }
        )
    summary = pd.DataFrame(rows)
    if inverse_std and next(iter(inverse_std.values())).shape[0]:
        beta = np.prod(
            [1 + inverse_std[n].double().amax(dim=1).numpy() for n in inverse_std], axis=0
        )
        summary.attrs.update(beta_max=float(beta.max()), beta_median=float(np.median(beta)))
    else:
        summary.attrs.update(beta_max=np.nan, beta_median=np.nan)
    summary.attrs["beta_bound"] = model.layer_norm_beta_bound
    return summary
