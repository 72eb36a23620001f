"""The one-layer sparse-XOR attention model and its standard-transformer twin.

After Han & Ghoshdastidar (2025, arXiv 2502.07553).
"""

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from .._utils._torch import head_product
from ._attention import attention_weights

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

    def forward(self, spins):
        """Model output f(x) for spins of shape (n, d); returns shape (n,)."""
        return self.read_out(spins, self.weights())

    @torch.no_grad()
    def flip_neighbours(self, spins):
        """Outputs on every single-bit flip of each string, shape (n, d), float64.

        ``out[r, i]`` is f of string r with bit i flipped, computed from the
        string's own head sums in ``O(d H)`` (see
        :func:`product_flip_neighbours`); equal to evaluating each flipped
        string to float rounding.
        """
        out = product_flip_neighbours(spins, self.weights())
        return torch.from_numpy(out).to(self.queries.device)


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
