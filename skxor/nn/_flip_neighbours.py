"""Exact outputs of every single-bit flip of a string from its own first layer (softmax attention).

A flip changes one token, so each attention sum of the first layer changes
by one term: :class:`_FlipNeighbours` updates them in ``O(D)`` per
attending token instead of re-running the layer
(:meth:`BooleanTransformer.flip_neighbours
<skxor.nn.BooleanTransformer.flip_neighbours>`).
"""

import math

import torch
import torch.nn.functional as F


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

