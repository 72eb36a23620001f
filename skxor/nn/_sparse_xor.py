"""The one-layer sparse-XOR attention model and its standard-transformer twin.

After Han & Ghoshdastidar (2025, arXiv 2502.07553).
"""

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from .._utils._torch import head_product
from ._attention import attention_weights
from ._fast_path import fast_path_refusal, flips_by_forward

#: Entries of a block of neighbour outputs formed at once by
#: :func:`product_flip_neighbours` (1 MiB of float64 per temporary: cache-sized).
_NEIGHBOUR_BLOCK = 1 << 17


def product_flip_neighbours(spins, gamma, sign=1.0):
    """Outputs ``-sign * prod_h (gamma_h . x^{+i})`` of every single-bit flip of each string.

    Flipping bit i changes one term of each head's sum:
    ``Z_h(x^{+i}) = Z_h(x) - 2 x_i gamma_{i,h}``. So after the H sums of
    the string itself, its N neighbours cost ``O(N H)``, not ``O(N d H)``.
    The sums and the updates are accumulated in float64, on the CPU (the
    per-flip path's float32 sums agree with them to rounding).

    Parameters
    ----------
    spins : Tensor or ndarray of shape (B, d)
        Spins +-1.
    gamma : Tensor or ndarray of shape (d, H)
        Attention weights, one column per head.
    sign : float, default=1.0
        Output sign: 1 is the paper's read-out ``-prod_h``.

    Returns
    -------
    out : ndarray of shape (B, d), float64
        ``out[b, i]`` is the output on string b with bit i flipped.
    """
    if isinstance(gamma, torch.Tensor):
        gamma = gamma.detach().cpu().numpy()
    if isinstance(spins, torch.Tensor):
        spins = spins.detach().cpu().numpy()
    gamma = np.asarray(gamma, dtype=np.float64)
    x = np.asarray(spins)  # +-1 in any dtype: each product below is made in float64
    d, H = gamma.shape
    # The sign goes into head 0's factor (an exact negation); -2 gamma too.
    step_terms = (-2.0 * gamma).T.copy()  # (H, d)
    step_terms[0] *= -float(sign)
    out = np.empty(x.shape, dtype=np.float64)
    step = max(1, _NEIGHBOUR_BLOCK // max(1, d))
    for begin in range(0, x.shape[0], step):
        rows = slice(begin, begin + step)
        spins_block = x[rows].astype(np.float64)  # one cache-sized conversion per block
        base = spins_block @ gamma  # (c, H): the block's own head sums
        base[:, 0] *= -float(sign)
        # Head by head on (c, d) blocks: Z_h - 2 x_i gamma_{i,h} for every
        # flip i, multiplied into the output (numpy: several times faster
        # than torch's broadcasting kernels on the CPU).
        acc = np.multiply(spins_block, step_terms[0], out=out[rows])
        acc += base[:, :1]
        for h in range(1, H):
            term = spins_block * step_terms[h]
            term += base[:, h : h + 1]
            acc *= term
    return out


#: Unit roundoff of float64: the error bound of the certificate's head sums.
_UNIT_ROUNDOFF = float(np.finfo(np.float64).eps) / 2


def product_flip_certificate(spins, gamma, sign=1.0, floor=0.0):
    """The flips of each string whose output sign a cheap certificate cannot settle.

    The decision-only form of :func:`product_flip_neighbours`. Flipping bit
    i changes head h's factor to ``Z_h - 2 x_i gamma_{i,h}``; when
    ``|gamma_{i,h}| <= |Z_h| / 4`` for every head, that factor keeps the
    sign of ``Z_h`` and has magnitude at least ``|Z_h| / 2``. So when
    ``prod_h (|Z_h| / 2 - e_h) > floor``, with ``e_h`` a bound on the
    float64 rounding of ``Z_h``, every such flip's output has the sign of
    ``-sign * prod_h Z_h`` and lies farther than ``floor`` from 0 (in exact
    arithmetic, and in the float64 values :func:`product_flip_neighbours`
    returns). Only the other flips, those with some ``|gamma_{i,h}| >
    |Z_h| / 4`` (at most ``4 ||gamma_h||_1 / |Z_h|`` per head), are
    evaluated, by the same arithmetic as :func:`product_flip_neighbours`;
    a string that the certificate does not cover has all its flips evaluated.

    Parameters
    ----------
    spins, gamma, sign
        As for :func:`product_flip_neighbours`.
    floor : float, default=0.0
        A string is certified only when its unlisted flips are farther than
        this from 0 (the caller's rounding bound, with a safety factor).

    Returns
    -------
    outputs : ndarray of shape (B,), float64
        The strings' own outputs ``-sign * prod_h Z_h`` from the same float64
        sums (the model's float32 output agrees to float32 rounding).
    row_sign : ndarray of shape (B,), int8
        +1 or -1: the sign of every flip of the string that is not listed;
        0 where the string is not certified (then all its flips are listed).
    rows, cols : ndarray of shape (k,), int64
        The listed flips (string, bit), by string then bit.
    values : ndarray of shape (k,), float64
        Their outputs, as :func:`product_flip_neighbours` computes them.
    """
    return ProductFlipCertificate(gamma, sign)(spins, floor)


class ProductFlipCertificate:
    """:func:`product_flip_certificate` with the per-model quantities made once.

    ``ProductFlipCertificate(gamma, sign)(spins, floor)`` is
    ``product_flip_certificate(spins, gamma, sign, floor)``; a caller that
    certifies many chunks of strings of one model builds it once.
    """

    def __init__(self, gamma, sign=1.0):
        if isinstance(gamma, torch.Tensor):
            gamma = gamma.detach().cpu().numpy()
        self.gamma = np.asarray(gamma, dtype=np.float64)  # (d, H)
        self.sign = float(sign)
        d = self.gamma.shape[0]
        self.magnitude = np.abs(self.gamma.T)  # (H, d), rows contiguous
        # |computed - exact| <= (d u / (1 - d u)) sum_i |gamma_i x_i| (Higham,
        # Accuracy and Stability of Numerical Algorithms, eq. 3.5), doubled.
        n_terms = (d + 2) * _UNIT_ROUNDOFF
        self.error = 2.0 * n_terms * self.magnitude.sum(axis=1) / (1 - n_terms)
        # The arithmetic of product_flip_neighbours: the sign in head 0's factor.
        self.step_terms = (-2.0 * self.gamma).T.copy()  # (H, d)
        self.step_terms[0] *= -self.sign
        self._orders = {}

    def _order(self, h, threshold):
        """Positions with ``|gamma_{i,h}| > threshold``, largest first (cached by size)."""
        cached = self._orders.get(h)
        if cached is None or cached[0] > threshold:
            candidates = np.flatnonzero(self.magnitude[h] > threshold)
            order = candidates[np.argsort(-self.magnitude[h, candidates], kind="stable")]
            cached = (threshold, order, -self.magnitude[h, order])
            self._orders[h] = cached
        return cached[1], cached[2]

    def __call__(self, spins, floor=0.0):
        if isinstance(spins, torch.Tensor):
            spins = spins.detach().cpu().numpy()
        x = np.asarray(spins)
        n, d = x.shape
        H = self.gamma.shape[1]
        sums = np.empty((n, H), dtype=np.float64)
        step = max(1, _NEIGHBOUR_BLOCK // max(1, d))
        for begin in range(0, n, step):  # product_flip_neighbours's blocks
            sums[begin : begin + step] = x[begin : begin + step].astype(np.float64) @ self.gamma
        low = np.abs(sums) / 2 - self.error  # each unlisted factor's magnitude, at least
        certified = (low > 0).all(axis=1)
        certified &= np.prod(np.where(low > 0, low, 0.0), axis=1) > floor
        outputs = np.prod(sums, axis=1) * -self.sign
        row_sign = np.zeros(n, dtype=np.int8)
        row_sign[certified] = np.where(outputs[certified] > 0, 1, -1)
        keys = [np.arange(d, dtype=np.int64) + d * r for r in np.flatnonzero(~certified)]
        chosen = np.flatnonzero(certified)
        if chosen.size:
            # Per head, each certified string lists a prefix of the positions
            # above the smallest of their thresholds, largest first.
            thresholds = np.abs(sums[chosen]) / 4  # (c, H)
            for h in range(H):
                order, descending = self._order(h, thresholds[:, h].min())
                counts = np.searchsorted(descending, -thresholds[:, h], side="left")
                starts = np.cumsum(counts) - counts
                within = np.arange(counts.sum()) - np.repeat(starts, counts)
                keys.append(order[within] + d * np.repeat(chosen, counts))
        keys = np.unique(np.concatenate(keys)) if keys else np.empty(0, dtype=np.int64)
        rows, cols = np.divmod(keys, d)
        # The listed flips by the arithmetic of product_flip_neighbours.
        base = sums[rows]
        base[:, 0] *= -self.sign
        spins_listed = x[rows, cols].astype(np.float64)
        values = spins_listed * self.step_terms[0, cols]
        values += base[:, 0]
        for h in range(1, H):
            term = spins_listed * self.step_terms[h, cols]
            term += base[:, h]
            values *= term
        return outputs, row_sign, rows, cols, values


class SparseXORAttention(nn.Module):
    """Frozen positional keys, trainable queries, product read-out.

    ``f(x) = -prod_h (sum_i gamma_{h,i} x_i)`` with ``gamma_h`` the attention
    weights of head h over the d positions (scores ``v_i . theta_h``).

    Parameters
    ----------
    keys : Tensor of shape (d, m)
        Positional keys ``v_i`` (a frozen buffer).
    queries : Tensor of shape (H, m)
        Initial query vectors ``theta_h`` (the only parameters).
    attention : {"softmax", "linear", "erf"}, default="softmax"

    Examples
    --------
    >>> import torch
    >>> from skxor.nn import SparseXORAttention, sparse_xor_init
    >>> keys, queries = sparse_xor_init(6, 4, random_state=0)
    >>> model = SparseXORAttention(torch.tensor(keys, dtype=torch.float32),
    ...                            torch.tensor(queries, dtype=torch.float32))
    >>> model.weights().shape  # (d, H)
    torch.Size([6, 2])
    >>> sum(p.numel() for p in model.parameters())  # only the H * m queries
    8
    >>> model(torch.tensor([[1., -1, 1, 1, -1, 1]])).shape
    torch.Size([1])
    """

    #: The strings it reads: spins ``1 - 2b`` (the sensitivity tools present them so).
    input_encoding = "pm1"

    def __init__(self, keys, queries, attention="softmax"):
        super().__init__()
        self.register_buffer("keys", keys)  # (d, m), frozen
        self.queries = nn.Parameter(queries)  # (H, m), trainable
        self.attention = attention

    def weights(self):
        """Attention weights, shape (d, H)."""
        return attention_weights(self.keys @ self.queries.T, self.attention)

    @staticmethod
    def read_out(spins, gamma, dtype=None):
        """``f = -prod_h (spins @ gamma)_h``; spins (n, d), gamma (d, H) -> (n,).

        The product over heads keeps its sign for any number of heads (a
        value below the range of ``dtype``, the spins' dtype by default, is
        returned as the smallest number of that sign; see
        ``skxor._utils._torch.head_product``).
        """
        # gamma.T @ spins.T with a contiguous gamma.T: the same product as
        # spins @ gamma, which torch's CPU kernels run several times slower.
        return -head_product(gamma.T.contiguous() @ spins.T, dtype)

    @staticmethod
    def neighbour_read_out(spins, gamma, sign=1.0):
        """:meth:`read_out` of every single-bit flip of each string: (n, d) float64 ndarray.

        See :func:`product_flip_neighbours`.
        """
        return product_flip_neighbours(spins, gamma, sign)

    @staticmethod
    def neighbour_certificate(gamma, sign=1.0):
        """The decision-only form of :meth:`neighbour_read_out`, for one model.

        ``neighbour_certificate(gamma, sign)(spins, floor)``: see
        :func:`product_flip_certificate` and :class:`ProductFlipCertificate`.
        """
        return ProductFlipCertificate(gamma, sign)

    def forward(self, spins):
        """Model output f(x) for spins of shape (n, d); returns shape (n,)."""
        return self.read_out(spins, self.weights())

    @torch.no_grad()
    def flip_neighbours(self, spins):
        """Outputs on every single-bit flip of each string, shape (n, d), float64.

        ``out[r, i]`` is f of string r with bit i flipped, computed from the
        string's own head sums in ``O(d H)`` (see
        :func:`product_flip_neighbours`); equal to evaluating each flipped
        string to float rounding; through ``forward`` when a hook or an
        override changes it (:func:`skxor.nn.fast_path_refusal`).
        """
        if fast_path_refusal(self) is not None:  # a hook or override changes forward
            return flips_by_forward(self, torch.as_tensor(spins))
        out = product_flip_neighbours(spins, self.weights())
        return torch.from_numpy(out).to(self.queries.device)

    @torch.no_grad()
    def flip_certifier(self):
        """The decision-only form of :meth:`flip_neighbours` at the current weights.

        ``certify(spins, floor) -> (outputs, row_sign, rows, cols, values)``,
        see :func:`product_flip_certificate`: every flip of string r that is
        not listed has an output of sign ``row_sign[r]`` farther than
        ``floor`` from 0. None for a model whose ``forward`` a hook or an
        override changes (:func:`skxor.nn.fast_path_refusal`): the
        certificate is this model's.
        """
        if fast_path_refusal(self) is not None:
            return None
        return self.neighbour_certificate(self.weights())


class CLSTransformer(nn.Module):
    """A standard one-layer, H-head transformer equivalent to SparseXORAttention.

    The sequence is ``[CLS, t_1 .. t_d]`` with token embeddings
    ``e_i = (x_i, v_i, 0)`` and ``e_CLS = (0, 0, 1)`` in ``R^{m+2}``. The
    query, key and value maps are full ``(m+2)``-column matrices multiplied by
    fixed 0/1 masks, so that the CLS query of head h is ``theta_h``, keys see
    only ``v_i`` and values only ``x_i``; the CLS token is masked out of the
    keys. Attention is ``torch.nn.functional.scaled_dot_product_attention``
    with ``scale=1`` (no ``1/sqrt(m)``, matching the simplified model), and
    the output is ``-prod_h head_h(CLS)``. Only softmax attention exists here.

    Parameters
    ----------
    keys : Tensor of shape (d, m)
        Positional embeddings (part of the token embeddings, frozen).
    queries : Tensor of shape (H, m)
        Initial CLS queries; stored in the masked query weight.

    Examples
    --------
    >>> import torch
    >>> from skxor.nn import CLSTransformer, SparseXORAttention, sparse_xor_init
    >>> keys, queries = (torch.tensor(a, dtype=torch.float32)
    ...                  for a in sparse_xor_init(6, 4, random_state=0))
    >>> twin = CLSTransformer(keys, queries)
    >>> spins = torch.tensor([[1., -1, 1, 1, -1, 1]])
    >>> bool(torch.allclose(twin(spins), SparseXORAttention(keys, queries)(spins)))
    True
    >>> twin.n_trainable_parameters  # H * m, as in the simplified model
    8
    """

    #: The strings it reads: spins ``1 - 2b`` (the sensitivity tools present them so).
    input_encoding = "pm1"

    def __init__(self, keys, queries):
        super().__init__()
        d, m = keys.shape
        H = queries.shape[0]
        width = m + 2
        self.register_buffer("positional", keys)
        eye = torch.eye(m, dtype=keys.dtype)
        # Structural masks: which entries of each map may be non-zero.
        q_mask = torch.zeros(H, m, width, dtype=keys.dtype)
        q_mask[:, :, m + 1] = 1.0  # the query reads only the CLS flag
        k_mask = torch.zeros(H, m, width, dtype=keys.dtype)
        k_mask[:, :, 1 : m + 1] = 1.0  # keys read only the positional part
        v_mask = torch.zeros(H, 1, width, dtype=keys.dtype)
        v_mask[:, 0, 0] = 1.0  # values read only the bit content
        self.register_buffer("q_mask", q_mask)
        self.register_buffer("k_mask", k_mask)
        self.register_buffer("v_mask", v_mask)
        w_q = torch.zeros(H, m, width, dtype=keys.dtype)
        w_q[:, :, m + 1] = queries
        w_k = torch.zeros(H, m, width, dtype=keys.dtype)
        w_k[:, :, 1 : m + 1] = eye
        w_v = torch.zeros(H, 1, width, dtype=keys.dtype)
        w_v[:, 0, 0] = 1.0
        self.w_q = nn.Parameter(w_q)
        self.w_k = nn.Parameter(w_k, requires_grad=False)
        self.w_v = nn.Parameter(w_v, requires_grad=False)

    def embed(self, spins):
        """Token embeddings of shape (n, d + 1, m + 2) for spins (n, d)."""
        n, d = spins.shape
        m = self.positional.shape[1]
        tokens = torch.zeros(n, d + 1, m + 2, dtype=spins.dtype, device=spins.device)
        tokens[:, 0, m + 1] = 1.0
        tokens[:, 1:, 0] = spins
        tokens[:, 1:, 1 : m + 1] = self.positional
        return tokens

    @property
    def n_trainable_parameters(self):
        """Free entries of the masked query weight: ``H * m``, as in the simplified model."""
        return int(self.q_mask.sum())

    @property
    def queries(self):
        """The CLS queries theta_h read off the masked query weight, (H, m)."""
        return (self.w_q * self.q_mask)[:, :, -1]

    def forward(self, spins):
        """Output f(x) of shape (n,) for spins of shape (n, d)."""
        tokens = self.embed(spins)  # (n, T, W) with T = d + 1
        q = torch.einsum("ntw,hew->nhte", tokens[:, :1], self.w_q * self.q_mask)
        k = torch.einsum("ntw,hew->nhte", tokens, self.w_k * self.k_mask)
        v = torch.einsum("ntw,hew->nhte", tokens, self.w_v * self.v_mask)
        # The CLS row attends to the d bit tokens only, never to itself.
        mask = torch.ones(1, k.shape[2], dtype=torch.bool, device=spins.device)
        mask[0, 0] = False
        heads = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=1.0)
        return -head_product(heads[:, :, 0, 0].T)  # (n, H, 1, 1) -> (n,)
