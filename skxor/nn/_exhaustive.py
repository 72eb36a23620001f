"""Outputs of a one-layer Boolean transformer on all 2^N strings, blockwise.

With one layer and one read-out token (eos, cls or last), the output of a
string depends on it only through the read-out token's softmax attention,
and per head that is ``Num / Den`` with ``Den = sum_t exp(s_t - c)`` and
``Num = sum_t exp(s_t - c) v_t`` over the token slots t. Each term depends
only on (slot, bit), so it takes one of two values per slot. Split the bits
of a string's index into a low half (positions ``0 .. L - 1``) and a high
half: the sums of all ``2^L`` strings sharing their high bits are one table
over the low half (built once) plus one row of the high half. The attention
then costs a vector addition per string, and the rest of the layer (output
map, residual sums, norms, MLP, read-out) runs on whole blocks as matrix
products. With pre-norm (the usual placement) the layer norms' gains and
biases are folded into the matrix that follows each norm (the MLP's input
map, the read-out), so that a block makes a few passes over its (strings, D)
activations instead of one per elementwise operation; post-norm runs through
the layer's own methods (:meth:`_Block.finish`). Either way the outputs agree
with ``forward`` to float rounding (the sensitivity tools decide outputs near
0 by a one-string evaluation).

The sums are in float64 with one shift ``c`` per head, the largest over the
slots of the smaller of a slot's two scores: every string's denominator is
then at least 1 (nothing underflows), and the largest term is at most
``exp(spread)``, ``spread`` the largest score minus ``c``;
:func:`exhaustive_refusal` refuses a model whose spread could overflow.
"""

import math
from numbers import Integral

import torch
import torch.nn.functional as F

from .._utils._encoding import MODEL_INPUT_ENCODINGS
from ._activations import activation_function
from ._fast_path import fast_path_refusal
from ._flip_neighbours import _FlipNeighbours

#: Largest ``score - shift`` whose exponential (and a sum of 2^32 of them
#: times a value) stays finite in float64 (exp(600) is 3.8e260).
_MAX_SPREAD = 600.0
#: Low bits of the sums table (2^14 rows of D + H float64: 8.9 MiB at D = 64).
_LOW_BITS = 14
#: Floats of the widest activation of one chunk of the rest of the layer
#: (4 MiB of float32: the chunk stays in cache between its products).
_CHUNK_FLOATS = 2**20


def exhaustive_refusal(model, input_encoding="pm1"):
    """Why ``model`` cannot take the one-layer exhaustive path; None if it can.

    The path (:meth:`BooleanTransformer.exhaustive_scorer
    <skxor.nn.BooleanTransformer.exhaustive_scorer>`) computes the outputs
    on all 2^N strings from per-slot tables of the read-out token's
    softmax sums. It applies to a :class:`~skxor.nn.BooleanTransformer`
    with one layer of softmax attention (any read-out, norm placement,
    positional scheme and ``layer_norm_eps``) that nothing changes
    (:func:`skxor.nn.fast_path_refusal`), given spins. Every other model is
    evaluated string by string, with the same labels.

    Parameters
    ----------
    model : torch.nn.Module
    input_encoding : {"pm1", "01", "2b-1"}, default="pm1"
        How strings are presented to the model: the path computes the
        model's output on spins ``1 - 2b`` (``"pm1"``); bits and spins
        ``2b - 1`` get their reason.

    Returns
    -------
    reason : str or None

    Raises
    ------
    ValueError
        For an ``input_encoding`` that is none of these.

    Examples
    --------
    >>> from skxor.nn import BooleanTransformer, exhaustive_refusal
    >>> exhaustive_refusal(BooleanTransformer(8, d_model=8, n_layers=1, seed=0)) is None
    True
    >>> exhaustive_refusal(BooleanTransformer(8, d_model=8, n_layers=2, seed=0))
    'it has 2 layers; the exhaustive path is for one layer'
    >>> exhaustive_refusal(BooleanTransformer(8, d_model=8, n_layers=1, attention="linear"))
    "its attention 'linear' is not softmax, whose weights are a normalised sum of exponentials"
    """
    if input_encoding not in MODEL_INPUT_ENCODINGS:
        # An unknown name is a mistake, not a reason to take the slow path.
        raise ValueError(
            f"input_encoding must be one of {MODEL_INPUT_ENCODINGS}; got {input_encoding!r}.")
    build = getattr(model, "_exhaustive_build", None)
    if not callable(build):  # only the Boolean transformer (and its subclasses) has it
        return f"{type(model).__name__} is not a BooleanTransformer"
    return build(input_encoding)[1]


def _structural_refusal(model, input_encoding):
    """The reasons that need no table: the input, the model's shape and its changes."""
    if input_encoding != "pm1":
        return (f"the model is given {input_encoding!r} strings, not the spins its "
                "forward reads")
    if model.n_layers != 1:
        return f"it has {model.n_layers} layers; the exhaustive path is for one layer"
    if model.attention != "softmax":
        return (f"its attention {model.attention!r} is not softmax, whose weights are a "
                "normalised sum of exponentials")
    return fast_path_refusal(model)


@torch.no_grad()
def _build(model, input_encoding="pm1"):
    """``(scorer, reason)``: an :class:`_ExhaustiveScorer` and None, or None and why not."""
    reason = _structural_refusal(model, input_encoding)
    if reason is not None:
        return None, reason
    scorer = _ExhaustiveScorer(model)
    spread = scorer.spread
    if not math.isfinite(spread) or spread > _MAX_SPREAD:
        return None, (f"its attention scores at the read-out are not finite or spread by "
                      f"{spread:.3g} > {_MAX_SPREAD:g}: float64 sums could overflow")
    return scorer, None


class _ExhaustiveScorer:
    """``scorer(start, size) -> Tensor (size,)``: outputs of the strings ``start ..``.

    Built from the model's per-(slot, bit) query, key and value tables in
    float64 (:class:`_FlipNeighbours`'s, the same the flip update reads).
    """

    def __init__(self, model):
        nb = _FlipNeighbours(model)
        self.model, self.nb = model, nb
        self.N, self.H, self.Dh = model.n_bits, nb.H, nb.Dh
        device = nb.table.device
        # "last": the query is the last bit's token, so it is a high bit and
        # a block (fixed high bits) has one query; eos and cls: one query.
        self.query_bit = model.readout == "last"
        self.n_low = min(_LOW_BITS, self.N - 1 if self.query_bit else self.N)
        fixed = nb.read if model.readout != "last" else None
        # Rows (slot, bit) every string holds whatever its bits: the CLS / eos token.
        self.fixed_row = None if fixed is None else 2 * fixed
        slots = nb.bit_slots
        self.terms = []  # per query variant: (weights (2T, H), weighted values (2T, H, Dh))
        spread = 0.0
        for query_row in ([2 * nb.read, 2 * nb.read + 1] if self.query_bit else [2 * nb.read]):
            q = nb.Q[query_row].view(self.H, self.Dh)
            scores = torch.einsum("hd,thd->th", q, nb.K.view(-1, self.H, self.Dh)) * nb.scale
            pairs = scores.view(-1, 2, self.H)  # (T, 2, H): a slot's two tokens
            shift = pairs.amin(dim=1).amax(dim=0)  # (H,)
            spread = max(spread, float((scores - shift).max()))
            weights = torch.exp(scores - shift)
            self.terms.append((weights, weights.unsqueeze(-1) * nb.V.view(-1, self.H, self.Dh)))
        self.spread = spread if all(torch.isfinite(w).all() for w, _ in self.terms) else math.inf
        self.low_slots = slots[: self.n_low]
        self.high_slots = slots[self.n_low :]
        self._low = {}
        width = max(model.d_model, model.d_mlp)
        self.chunk = max(1, _CHUNK_FLOATS // width)
        self.device = device
        self.folded = _folded(model, nb.table.dtype) if model.norm == "pre" else None

    def low_table(self, variant):
        """Sums ``(den (2^L, H), num (2^L, H, Dh))`` over the low bits of every low index."""
        if variant not in self._low:
            weights, weighted = self.terms[variant]
            den = weights.new_zeros((1, self.H))
            num = weighted.new_zeros((1, self.H, self.Dh))
            # Doubling in index order: entry l + (b << i) adds bit i's term b.
            for slot in self.low_slots.tolist():
                den = torch.cat([den + weights[2 * slot], den + weights[2 * slot + 1]])
                num = torch.cat([num + weighted[2 * slot], num + weighted[2 * slot + 1]])
            self._low[variant] = den, num
        return self._low[variant]

    def high_rows(self, high):
        """Token rows (slot, bit) of the high bits ``high`` (an int) and the fixed token."""
        bits = torch.tensor([(high >> j) & 1 for j in range(self.N - self.n_low)],
                            dtype=torch.long, device=self.device)
        rows = 2 * self.high_slots + bits
        if self.fixed_row is not None:
            rows = torch.cat([rows, torch.tensor([self.fixed_row], device=self.device)])
        return rows

    def __call__(self, start, size):
        """Outputs (size,) in the model's dtype of the strings ``start .. start + size - 1``.

        The indices must lie in ``0 .. 2^N - 1``: any other index names no
        string (its high bits would select a token row of another position,
        or wrap round), so it is refused with a ValueError.
        """
        _check_index_range(start, size, self.N)
        model, nb = self.model, self.nb
        layer = model.layers[0]
        out = torch.empty(size, dtype=nb.table.dtype, device=self.device)
        mask = (1 << self.n_low) - 1
        stop = start + size
        work = (None if self.folded is None else
                torch.empty(min(size, self.chunk), model.d_mlp, dtype=nb.table.dtype,
                            device=self.device))
        begin = start
        while begin < stop:
            high = begin >> self.n_low
            end = min(stop, (high + 1) << self.n_low)
            rows = self.high_rows(high)
            # rows[-1]: the read-out token, the fixed one or the last bit's (a high bit).
            variant = int(rows[-1] & 1) if self.query_bit else 0
            weights, weighted = self.terms[variant]
            den_high, num_high = weights[rows].sum(dim=0), weighted[rows].sum(dim=0)
            den_low, num_low = self.low_table(variant)
            keep = F.embedding(rows[-1:], nb.table)  # (1, D)
            for a in range(begin, end, self.chunk):
                b = min(end, a + self.chunk)
                low = slice(a & mask, ((b - 1) & mask) + 1)
                # In place: one float64 temporary per chunk.
                o = torch.add(num_low[low], num_high).div_(
                    torch.add(den_low[low], den_high).unsqueeze_(-1))
                folded = (None if self.folded is None else
                          self.folded(o.view(b - a, -1), keep, work))
                if folded is not None:
                    out[a - start : b - start] = folded
                    continue
                o = o.view(b - a, 1, -1).to(nb.table.dtype)  # (c, 1, D)
                h = layer.finish(keep.expand(b - a, 1, -1), layer.attn_out(o))
                out[a - start : b - start] = model._layers_from(h, 1, 0)
            begin = end
        return out


def _centred_columns(w):
    """``w - mean`` of each row of ``w`` (..., D): the map followed by centring,
    ``x (w - mean)^T = centred(x w^T)``; a constant row becomes exactly 0."""
    return w - w.mean(dim=-1, keepdim=True)


def _scaled(centred, eps, inplace=True):
    """``(centred / sqrt(var + eps), var)`` per row of a centred block (c, D), in place
    or new; a constant row (all 0) with ``eps = 0`` stays 0 (:class:`LayerNorm`'s
    rule). ``var`` (c, 1) is returned for the overflow check of :class:`_Folded`."""
    # One pass for the variance: the row norm, var = |centred|^2 / D.
    var = torch.linalg.vector_norm(centred, dim=1, keepdim=True).square_().div_(
        centred.shape[1])
    if eps > 0:
        scale = torch.rsqrt(var + eps)
    else:
        scale = torch.where(var > 0, torch.rsqrt(var), 0.0)
    return (centred.mul_(scale) if inplace else centred * scale), var


class _Folded:
    """The rest of a pre-norm layer after its attention, with the norms folded into
    the maps around them.

    ``folded(o, keep) -> (c,)`` or None: from the read-out token's heads o (c, D) and
    its input token ``keep`` (1, D), the output map, the residual sums, the
    MLP and the final norm and read-out. A layer norm's input enters only
    centred: the centring is folded into the map before it (the output map,
    the MLP's output map and their biases), its gain and bias into the map
    after it (the MLP's input map, the read-out: one vector and a
    constant). Each norm then costs one pass for the variance and one for
    the scaling. Only the order of the roundings differs from ``forward``.
    None where a variance or an output is not finite: activations that
    overflow meet ``forward``'s norms in another order (``inf - inf`` there
    can be 0 here), so such a chunk is left to the layer's own methods.
    """

    def __init__(self, model, dtype):
        layer = model.layers[0]

        def weight(linear):
            return linear.weight.detach().to(dtype)

        def bias(linear):
            b = linear.bias
            return (torch.zeros(linear.out_features, dtype=dtype, device=linear.weight.device)
                    if b is None else b.detach().to(dtype))

        ln, final = layer.ln_mlp, model.ln_final
        self.eps_mlp, self.eps_final = ln.eps, final.eps
        # The residual stream is only ever read centred (both norms centre it,
        # the MLP reads it through its norm): keep it centred from the start.
        self.out_t = _centred_columns(weight(layer.attn_out).T).contiguous()  # (D, D)
        self.out_b = bias(layer.attn_out)
        # W (g * n + b) + c = (W g) n + (W b + c).
        w_in = weight(layer.mlp_in)
        self.in_t = (w_in * ln.weight.detach().to(dtype)).T.contiguous()  # (D, M)
        self.in_b = w_in @ ln.bias.detach().to(dtype) + bias(layer.mlp_in)
        self.mlp_t = _centred_columns(weight(layer.mlp_out).T).contiguous()  # (M, D)
        self.mlp_b = _centred_columns(bias(layer.mlp_out))
        self.relu = layer.activation == "relu"
        self.activation = layer.activation
        w = weight(model.unembed)[0]  # (D,)
        self.read = (w * final.weight.detach().to(dtype))[:, None]  # (D, 1)
        self.read_b = float(w @ final.bias.detach().to(dtype) + bias(model.unembed)[0])

    def __call__(self, o, keep, work=None):
        # The centred residual after attention: centred(keep + o W^T + b).
        a = torch.addmm(_centred_columns(self.out_b + keep[0]), o.to(self.out_t.dtype),
                        self.out_t)  # (c, D)
        n, var = _scaled(a, self.eps_mlp, inplace=False)
        hidden = torch.addmm(self.in_b, n, self.in_t,
                             out=None if work is None else work[: o.shape[0]])  # (c, M)
        hidden = (hidden.relu_() if self.relu
                  else activation_function(self.activation)(hidden))
        # The centred residual after the MLP, in place.
        a = a.add_(self.mlp_b).addmm_(hidden, self.mlp_t)
        a, var_final = _scaled(a, self.eps_final)
        out = (a @ self.read).squeeze_(1).add_(self.read_b)
        # One sum for the check: finite unless something is not (or the sum
        # itself overflows, which only sends a finite chunk the slow way).
        check = var.sum() + var_final.sum() + out.sum()
        return out if math.isfinite(float(check)) else None


def _folded(model, dtype):
    """A :class:`_Folded` of ``model`` in ``dtype``."""
    return _Folded(model, dtype)


def _check_index_range(start, size, n_bits):
    """Refuse a block ``start .. start + size - 1`` outside the strings' indices 0 .. 2^N - 1."""
    for name, value in (("start", start), ("size", size)):
        if isinstance(value, bool) or not isinstance(value, Integral):
            raise TypeError(f"{name} must be an int; got {value!r}.")
    last = (1 << n_bits) - 1
    if not (0 <= start and 0 <= size and start + size <= last + 1):
        raise ValueError(
            f"the strings {start} .. {start + size - 1} (start={start}, size={size}) are "
            f"not all indices of strings of N = {n_bits} bits, which run 0 .. 2^{n_bits} "
            f"- 1 = {last}."
        )
