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

from ._activations import activation_function


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
        self._heads = None  # per-head key and value tables, made at first use

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
            # The keys and values of the strings (gathered here: only these rows need them).
            K = self.gather(self.K, rows[0] if shared else rows[b[f]])
            V = self.gather(self.V, rows[0] if shared else rows[b[f]])
            scores = torch.einsum("fhd,thd->fht" if shared else "fhd,fthd->fht", q[f], K)
            # The flipped token's key: one column of the scores changes.
            scores[at, :, slots[f]] = (q[f] * self.gather(self.K, new[f])).sum(-1)
            p = torch.softmax(scores.mul_(self.scale), dim=-1)
            o = torch.einsum("fht,thd->fhd" if shared else "fht,fthd->fhd", p, V)
            change = self.gather(self.V, new[f]) - self.gather(self.V, old[f])  # and one value
            out[f] = o.add_(p[at, :, slots[f]].unsqueeze(-1) * change)
        return out

    def sums(self, rows, queries, tables=False):
        """The strings' own attention terms at the slots ``queries`` (T',): a dict of tensors.

        ``tables=True`` (one query): from the key and value tables
        (:meth:`_read_sums`), the same terms to float64 rounding; the flip
        certificate takes it, whose outputs only decide labels.
        ``flip_neighbours`` keeps the gathered form, whose outputs studies
        record bit for bit.
        """
        q = self.gather(self.Q, rows[:, queries])  # (B, T', H, Dh)
        if tables and queries.shape[0] == 1:
            return self._read_sums(rows, queries, q)
        K, V = self.gather(self.K, rows), self.gather(self.V, rows)  # (B, T, H, Dh)
        scores = torch.einsum("bqhd,bthd->bqht", q, K) * self.scale  # (B, T', H, T)
        shift = scores.amax(dim=-1)  # (B, T', H)
        weights = torch.exp(scores.sub_(shift.unsqueeze(-1)))
        num = torch.einsum("bqht,bthd->bqhd", weights, V)  # (B, T', H, Dh)
        return self._terms(rows, queries, q, shift, weights, num)

    def _terms(self, rows, queries, q, shift, weights, num):
        index = torch.full((self.T,), -1, dtype=torch.long, device=rows.device)
        index[queries] = torch.arange(queries.shape[0], device=rows.device)
        return {"q": q, "shift": shift, "weights": weights, "index": index,
                "den": weights.sum(dim=-1), "num": num.to(self.values.dtype), "num64": num}

    def _read_sums(self, rows, queries, q):
        """:meth:`sums` of one attending slot, from the 2T rows of the key and value tables.

        The same terms, without gathering every string's T keys and values
        (B x T x D float64 each, and einsum's copies of them: 70% of a
        sampled profile's certificate at N = 1024): the query's scores
        against all 2T table rows (H, B, 2T, kept for the flips' new
        scores), the string's T of them picked out, and the weighted sum of
        the values as a product with the (H, B, 2T) weights, zero on the
        rows a string does not hold.
        """
        B, T, H = rows.shape[0], rows.shape[1], self.H
        if self._heads is None:  # (H, Dh, 2T) keys and (H, 2T, Dh) values, per head
            self._heads = (self.K.view(-1, H, self.Dh).permute(1, 2, 0).contiguous(),
                           self.V.view(-1, H, self.Dh).transpose(0, 1).contiguous())
        keys, values = self._heads
        table_scores = torch.bmm(q[:, 0].transpose(0, 1), keys).mul_(self.scale)  # (H, B, 2T)
        held = rows.unsqueeze(0).expand(H, B, T)
        scores = table_scores.gather(2, held)  # (H, B, T)
        shift = scores.amax(dim=2)  # (H, B)
        weights = torch.exp(scores.sub_(shift.unsqueeze(-1)))
        table_weights = torch.zeros_like(table_scores).scatter_(2, held, weights)
        num = torch.bmm(table_weights, values).transpose(0, 1)  # (B, H, Dh)
        terms = self._terms(rows, queries, q, shift.T.unsqueeze(1),
                            weights.permute(1, 0, 2).unsqueeze(1), num.unsqueeze(1))
        terms["table_scores"] = table_scores
        return terms

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
        if "table_scores" in sums:  # one query: its scores against every table row, kept
            H, B, G = self.H, new.shape[0], new.shape[1]
            new_scores = sums["table_scores"].gather(2, new.unsqueeze(0).expand(H, B, G))
            new_scores = new_scores.permute(1, 2, 0).unsqueeze(2)  # (B, G, 1, H)
        else:
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



#: The largest slope of each hidden activation (``square``'s depends on its
#: input: see :meth:`_FlipCertificate._mlp_slope`). GELU's is 1.1289 at
#: x = 1.41; 1.13 bounds it.
_SLOPES = {"relu": 1.0, "identity": 1.0, "tanh": 1.0, "logistic": 0.25, "gelu": 1.13}
#: Relative slack on every bound of the certificate (norms from an SVD, sums
#: in float64): far above their rounding, far below what it decides.
_SLACK = 1e-6


class _FlipCertificate:
    """The decisions of a one-layer :class:`BooleanTransformer`'s flips, most without their MLP.

    A flip changes the read-out token's attention output ``o`` by ``delta``
    (from :meth:`_FlipNeighbours.attention`, the cheap part of the update).
    The rest of the layer and the read-out map ``o`` to the output through
    the output map, residual sums, layer norms, the MLP and the unembedding;
    each is Lipschitz on a ball around the string's own point, with a
    constant from the string's own values: a layer norm with gain ``g``
    whose input has standard deviation ``sigma`` moves its output by at most
    ``|g|_inf / sqrt((sigma - r / sqrt(D))^2 + eps)`` times ``r`` when its
    input moves by ``r < sigma sqrt(D)`` (its Jacobian has norm ``|g|_inf /
    sqrt(var + eps)`` and the standard deviation is ``1 / sqrt(D)``-Lipschitz);
    a linear map by its spectral norm; an activation by its largest slope.
    Composing them bounds how far the flip's output is from the string's own
    (computed in float64 along the way); a flip whose bound leaves its
    output farther than ``floor`` from 0, on the own output's side, is not
    evaluated. The others are, by the arithmetic of
    :meth:`_FlipNeighbours.layer_output` (their MLP on the read-out token).
    """

    def __init__(self, neighbours):
        self.nb = neighbours
        model = neighbours.model
        layer = model.layers[0]
        self.model, self.layer = model, layer
        self.D = model.d_model
        f64 = torch.float64

        def weights(linear):
            return linear.weight.detach().to(f64), linear.bias.detach().to(f64)

        def spectral(weight):
            return float(torch.linalg.matrix_norm(weight, ord=2)) * (1 + _SLACK)

        self.out_w, self.out_b = weights(layer.attn_out)
        self.in_w, self.in_b = weights(layer.mlp_in)
        self.mlp_w, self.mlp_b = weights(layer.mlp_out)
        self.unembed_w, self.unembed_b = weights(model.unembed)
        self.norms = {name: (ln.weight.detach().to(f64), ln.bias.detach().to(f64), float(ln.eps))
                      for name, ln in (("attn", layer.ln_attn), ("mlp", layer.ln_mlp))}
        if model.norm == "pre":
            ln = model.ln_final
            self.norms["final"] = (ln.weight.detach().to(f64), ln.bias.detach().to(f64),
                                   float(ln.eps))
        self.lip_out = spectral(self.out_w)
        self.lip_in = spectral(self.in_w)
        self.lip_mlp = spectral(self.mlp_w)
        self.lip_unembed = float(self.unembed_w.norm()) * (1 + _SLACK)
        self.row_in = float(self.in_w.norm(dim=1).max()) * (1 + _SLACK)
        self.activation = layer.activation

    def _norm(self, name, h):
        """Layer norm ``name`` in float64, and its input's standard deviation (NaN where
        ``var + eps == 0``: no certificate there)."""
        weight, bias, eps = self.norms[name]
        centred = h - h.mean(dim=-1, keepdim=True)
        var = centred.square().mean(dim=-1, keepdim=True)
        inv = torch.where(var + eps > 0, torch.rsqrt(var + eps), torch.nan)
        return centred * inv * weight + bias, var.squeeze(-1).sqrt()

    def _norm_lipschitz(self, name, sigma, r):
        """Bound on the norm's Lipschitz constant on the ball of radius r (inf when the
        ball may hold a constant token and eps = 0)."""
        weight, _, eps = self.norms[name]
        low = (sigma - r / math.sqrt(self.D)).clamp(min=0)
        return float(weight.abs().max()) / (low.square() + eps).sqrt() * (1 + _SLACK)

    def _mlp_slope(self, z_max, r):
        """Largest slope of the activation on the pre-activations within r of the own."""
        if self.activation == "square":
            return 2 * (z_max + self.row_in * r)
        return _SLOPES[self.activation]

    def own(self, keep, o):
        """The own output (c,) in float64 from the read token ``keep`` (c, D) and its
        attention output ``o`` (c, D), the values the bounds need, and the
        read-out's input (c, D)."""
        x = keep + o @ self.out_w.T + self.out_b
        if self.model.norm == "pre":
            y, sigma_a = self._norm("mlp", x)
            z = y @ self.in_w.T + self.in_b
            out = x + self.act(z) @ self.mlp_w.T + self.mlp_b
            final, sigma_out = self._norm("final", out)
            stats = (sigma_a, z.abs().amax(dim=-1), sigma_out)
        else:
            a, sigma_x = self._norm("attn", x)
            z = a @ self.in_w.T + self.in_b
            out = a + self.act(z) @ self.mlp_w.T + self.mlp_b
            final, sigma_out = self._norm("mlp", out)
            stats = (sigma_x, z.abs().amax(dim=-1), sigma_out)
        value = (final @ self.unembed_w.T).squeeze(-1) + self.unembed_b
        return value, stats, final

    def act(self, z):
        return activation_function(self.activation)(z)

    def distance(self, stats, delta):
        """Bound (c, G) on |output of the flip - own output| for attention changes ``delta``
        (c, G) (Euclidean norms)."""
        sigma_first, z_max, sigma_out = (s.unsqueeze(-1) for s in stats)
        r = self.lip_out * delta  # the residual sum's input moves by this much
        if self.model.norm == "pre":
            rho = self._norm_lipschitz("mlp", sigma_first, r) * r
            r = r + self.lip_mlp * self._mlp_slope(z_max, rho) * self.lip_in * rho
            r = self._norm_lipschitz("final", sigma_out, r) * r
        else:
            r = self._norm_lipschitz("attn", sigma_first, r) * r
            r = r + self.lip_mlp * self._mlp_slope(z_max, r) * self.lip_in * r
            r = self._norm_lipschitz("mlp", sigma_out, r) * r
        return self.lip_unembed * r * (1 + _SLACK)

    def __call__(self, bits, floor):
        """``(outputs, row_sign, rows, cols, values)`` of the strings ``bits`` (B, N), as
        :func:`skxor.nn._sparse_xor.product_flip_certificate` returns them;
        ``outputs`` are the model's own outputs as ``flip_neighbours(...,
        return_outputs=True)`` computes them, ``row_sign`` the sign of the
        float64 own output that the bounds start from."""
        nb, model, layer = self.nb, self.model, self.layer
        B, N = bits.shape
        table_rows = nb.rows(bits)
        queries = torch.tensor([nb.read], device=table_rows.device)
        positions = torch.arange(N, device=table_rows.device)
        # Per flip a few D-vectors (the MLP runs only on the listed ones).
        step = max(1, _NEIGHBOUR_FLOATS // (N * nb.H * nb.Dh * 4))
        dtype = nb.table.dtype
        eps = torch.finfo(dtype).eps
        device = table_rows.device
        own = torch.empty(B, dtype=torch.float64, device=device)
        signs = torch.empty(B, dtype=torch.int8, device=device)
        listed_rows, listed_cols, listed_values = [], [], []
        for begin in range(0, B, step):
            chunk = table_rows[begin : begin + step]
            c = chunk.shape[0]
            sums = nb.sums(chunk, queries, tables=True)
            o = sums["num64"] / sums["den"].unsqueeze(-1)  # (c, 1, H, Dh), float64
            o = o.reshape(c, -1)
            flips = nb.attention(chunk, queries, positions, sums).reshape(c, N, -1)  # dtype
            keep = F.embedding(chunk[:, queries], nb.table).reshape(c, -1).to(torch.float64)
            value, stats, final = self.own(keep, o)
            # The own output as flip_neighbours computes it (the same arithmetic).
            o_model = o.view(c, 1, -1).to(dtype)
            h = layer.finish(F.embedding(chunk[:, queries], nb.table), layer.attn_out(o_model))
            own[begin : begin + c] = model._layers_from(h, 1, 0).to(torch.float64)
            # The flip's attention output as computed, and a few of its ulps.
            delta = (flips.to(torch.float64) - o.unsqueeze(1)).norm(dim=-1)
            # |flip| <= |o| + delta, so 4 ulps of both are at most these.
            delta += 4 * eps * (2 * o.norm(dim=-1, keepdim=True) + delta)
            reach = self.distance(stats, delta)  # (c, N)
            # Far beyond the rounding of an output computed in the model's
            # dtype (the read-out's terms' size times 2^10 ulps), and floor.
            rounding = 1024 * eps * ((final.abs() @ self.unembed_w.abs().T).squeeze(-1)
                                     + self.unembed_b.abs())
            signs[begin : begin + c] = torch.where(value > 0, 1, -1)
            margin = value.abs() * (1 - _SLACK) - floor - rounding
            # The read token itself flipped ("last" read-out): its keep changes too.
            moved = nb.bit_slots[positions] == nb.read
            open_ = ~(reach < margin.unsqueeze(-1)) | moved.unsqueeze(0)
            b, g = open_.nonzero(as_tuple=True)
            if b.numel():
                o_flip = flips[b, g].unsqueeze(1)  # (F, 1, D)
                keep_rows = chunk[:, queries][b] ^ moved[g].long().unsqueeze(-1)  # (F, 1)
                h = layer.finish(F.embedding(keep_rows, nb.table), layer.attn_out(o_flip))
                listed_values.append(model._layers_from(h, 1, 0).to(torch.float64))
                listed_rows.append(b + begin)
                listed_cols.append(g)
        row_sign = signs
        if listed_rows:
            rows, cols = torch.cat(listed_rows), torch.cat(listed_cols)
            values = torch.cat(listed_values)
        else:
            rows = cols = torch.empty(0, dtype=torch.long, device=device)
            values = torch.empty(0, dtype=torch.float64, device=device)
        return own, row_sign, rows, cols, values
