"""The k-parity transformer of Han & Ghoshdastidar's first version (arXiv 2502.07553 v1).

"Attention Learning is Needed to Efficiently Learn Parity Function" (v1)
studies a one-layer transformer with k position-only attention heads and a
frozen feed-forward read-out, and shows that training the attention alone,
2 numbers per head, learns a k-parity of n bits, while an FFNN needs
Omega(n) trainable parameters and untrained (fixed) heads fail.

Shapes in comments: ``B`` strings, ``N`` bits (n in the paper), ``H`` heads
(k in the paper).

The model (as in the authors' public code; our notation):

* token i of string x (bits ``b_i``) is ``e_i = [b_i, 1 - b_i, cos(2 pi
  i / N), sin(2 pi i / N)]`` (i = 0 .. N-1);
* head h has a trainable score vector ``a_h in R^2`` (a free 2-vector,
  initialized as ``(cos phi_h, sin phi_h)`` with ``phi_h ~ U[0, 2 pi)``) and
  attends by position only: ``alpha_h = softmax_i(a_h . p_i / (N / 4))``,
  ``p_i = (cos(2 pi i / N), sin(2 pi i / N))`` (temperature N / 4); its
  output is ``sum_i alpha_{h,i} e_i`` (the value map is the identity);
* the head outputs are averaged, ``u = (1/H) sum_h sum_i alpha_{h,i} e_i``,
  and a frozen ReLU network of width H reads the parity of the count
  ``c = H u_0`` (see :func:`parity_readout_network`): ``g(c) = c mod 2`` for
  c = 0 .. H;
* the real output is ``T(x) = 2 g - 1`` (the authors' ``y_hat``), positive
  for an odd count of ones among the attended positions.

In the authors' code each head holds a 4 x 4 matrix A of which only two
entries (``A[0, 2]``, ``A[0, 3]``) reach the score, the others being masked
to 0; :class:`KParityAttention` stores just those two numbers per head, so
the trainable-parameter count is exactly ``2 H``.
"""

import math

import torch
from torch import nn

from .._utils._deprecation import renamed_argument
from .._utils._validation import check_count
from ._common import BitStringModule, check_spins
from ._fast_path import fast_path_refusal, flips_by_forward, layout_refusal


def parity_readout_network(n_heads, dtype=None):
    """The frozen read-out of the v1 model: the parity of a count, written out.

    ``Linear(4, H) -> ReLU -> Linear(H, 1)`` on the averaged head output
    ``u = (u_0, u_1, u_2, u_3)``: hidden unit i (i = 0 .. H-1) computes
    ``relu(H u_0 - i - 1/2)`` (first-layer row ``[H, 0, 0, 0]``, bias
    ``-(i + 1/2)``) and the output is ``g = sum_i (-1)^i (2 + 4 i) relu(...)``
    (bias 0). With ``c = H u_0`` an integer count 0 .. H,
    ``g(c + 1) - g(c) = sum_{i<c} (-1)^i (2 + 4i) + (-1)^c (1 + 2c) =
    (-1)^c``, and ``g(0) = 0``: so ``g(c) = c mod 2``. Between integers g
    is piecewise linear (and overshoots: ``g(1.5) = 2``). These are the
    weights of the authors' public code; every parameter has
    ``requires_grad=False``.

    Parameters
    ----------
    n_heads : int
        H, the largest count read.
    dtype : torch.dtype or None, default=None

    Returns
    -------
    network : torch.nn.Sequential

    Examples
    --------
    >>> import torch
    >>> from skxor.nn import parity_readout_network
    >>> net = parity_readout_network(3, dtype=torch.float64)
    >>> counts = torch.arange(4, dtype=torch.float64)
    >>> u = torch.stack([counts / 3, 1 - counts / 3, 0 * counts, 0 * counts], dim=1)
    >>> net(u).squeeze(-1).tolist()
    [0.0, 1.0, 0.0, 1.0]
    """
    H = check_count(n_heads, "n_heads", 1)
    # skip_init: the weights are written below, so draw nothing from torch's RNG.
    network = nn.Sequential(
        nn.utils.skip_init(nn.Linear, 4, H, dtype=dtype),
        nn.ReLU(),
        nn.utils.skip_init(nn.Linear, H, 1, dtype=dtype),
    )
    i = torch.arange(H, dtype=torch.float64)
    with torch.no_grad():
        first = torch.zeros(H, 4, dtype=torch.float64)
        first[:, 0] = H
        network[0].weight.copy_(first)
        network[0].bias.copy_(-(i + 0.5))
        network[2].weight.copy_(((-1.0) ** i * (2 + 4 * i)).view(1, H))
        network[2].bias.zero_()
    network.requires_grad_(False)
    return network


class KParityAttention(BitStringModule, nn.Module):
    """Han & Ghoshdastidar's v1 k-parity transformer: position-only heads, frozen read-out.

    See the module docstring for the model. Trainable: the score vectors
    ``scores`` of shape (H, 2), ``2 H`` numbers; the embedding and the
    read-out network are fixed.

    Input: a (B, N) tensor of spins ``x = 1 - 2 b`` (+1 for bit 0, -1 for
    bit 1), the library's internal encoding (what
    :func:`skxor.sensitivity.sensitivity_profile` feeds a module); any value
    other than +-1 is a ValueError. The bit ``b_i`` is the paper's ``x_i``.

    Parameters
    ----------
    n_bits : int
        Number of bits N (the paper's n). (Formerly ``n_positions``; that
        name still works, with a FutureWarning, until the next release.)
    n_heads : int, default=3
        Number of heads H (the paper's k); the read-out decodes counts
        0 .. H. A k-bit parity is representable exactly when ``H >= k`` and
        ``H - k`` is even (one head per bit, the rest in cancelling pairs),
        and by no parameters otherwise: the string of all ones always has
        count H and the all-zeros string count 0 (see
        :class:`skxor.KParityTransformer`).
    dtype : torch.dtype or None, default=None
        Parameter dtype (torch's default when None).
    seed : int or None, default=None
        Seeds the initial angles ``phi_h`` without touching torch's global
        generator; None draws from the global generator.

    Attributes
    ----------
    scores : torch.nn.Parameter of shape (H, 2)
        The trainable score vectors ``a_h``.
    positions : Tensor of shape (N, 2)
        Buffer: ``(cos(2 pi i / N), sin(2 pi i / N))``.
    readout : torch.nn.Sequential
        :func:`parity_readout_network` (frozen).
    temperature : float
        ``N / 4``.
    n_parameters : int
        Trainable parameters, ``2 H``.

    Examples
    --------
    >>> import torch
    >>> from skxor.nn import KParityAttention
    >>> model = KParityAttention(16, n_heads=3, seed=0)
    >>> model.n_parameters
    6
    >>> model.attention().shape  # (H, N): the same for every string
    torch.Size([3, 16])
    >>> spins = 1 - 2 * torch.randint(0, 2, (5, 16)).float()
    >>> model(spins).shape
    torch.Size([5])
    """

    def __init__(self, n_bits=None, n_heads=3, *, dtype=None, seed=None, n_positions=None):
        super().__init__()
        n_bits = renamed_argument(n_bits, n_positions, "n_bits", "n_positions", "KParityAttention")
        self.n_bits = check_count(n_bits, "n_bits", 1)
        self.n_heads = check_count(n_heads, "n_heads", 1)
        if seed is not None:
            check_count(seed, "seed", 0)
        self.seed = seed
        self.temperature = self.n_bits / 4
        angles = 2 * math.pi * torch.arange(self.n_bits, dtype=torch.float64) / self.n_bits
        positions = torch.stack([torch.cos(angles), torch.sin(angles)], dim=1)  # (N, 2)
        self.register_buffer("positions", positions.to(dtype or torch.get_default_dtype()))
        generator = None
        if seed is not None:
            generator = torch.Generator().manual_seed(seed)
        phi = 2 * math.pi * torch.rand(self.n_heads, generator=generator, dtype=torch.float64)
        scores = torch.stack([torch.cos(phi), torch.sin(phi)], dim=1)  # (H, 2)
        self.scores = nn.Parameter(scores.to(dtype or torch.get_default_dtype()))
        self.readout = parity_readout_network(self.n_heads, dtype=dtype)

    def embed(self, spins):
        """Tokens ``[b_i, 1 - b_i, cos, sin]`` of spins (B, N): shape (B, N, 4)."""
        spins = check_spins(spins, self.n_bits, type(self).__name__)
        bits = (1 - spins.to(device=self.scores.device, dtype=self.scores.dtype)) / 2  # (B, N)
        B = bits.shape[0]
        return torch.cat(
            [bits.unsqueeze(-1), (1 - bits).unsqueeze(-1), self.positions.expand(B, -1, -1)],
            dim=-1,
        )

    def attention(self):
        """Attention weights of each head over the positions, shape (H, N).

        ``softmax_i(a_h . p_i / (N / 4))``: position-only, so the same for
        every string.
        """
        logits = self.scores @ self.positions.T / self.temperature  # (H, N)
        return torch.softmax(logits, dim=1)

    def averaged_heads(self, spins):
        """The averaged head output ``u`` of spins (B, N): shape (B, 4).

        ``u = (1/H) sum_h sum_i alpha_{h,i} e_i``. Since the weights do not
        depend on the string, this is ``u = (b . abar, 1 - b . abar, abar .
        cos, abar . sin)`` with ``abar`` the head-averaged attention: one
        (B, N) x (N,) product instead of H weighted sums of (B, N, 4)
        tokens (same numbers; :meth:`embed` gives the tokens themselves).
        """
        spins = check_spins(spins, self.n_bits, type(self).__name__)
        bits = (1 - spins.to(device=self.scores.device, dtype=self.scores.dtype)) / 2  # (B, N)
        mean_attention = self.attention().mean(dim=0)  # (N,)
        count_part = bits @ mean_attention  # (B,): sum_i abar_i b_i
        position_part = mean_attention @ self.positions  # (2,)
        return torch.cat(
            [
                count_part.unsqueeze(-1),
                (mean_attention.sum() - count_part).unsqueeze(-1),
                position_part.expand(bits.shape[0], 2),
            ],
            dim=1,
        )

    def forward(self, spins):
        """Output ``T(x) = 2 g - 1`` of spins (B, N), shape (B,); positive for odd counts."""
        g = self.readout(self.averaged_heads(spins)).squeeze(-1)  # (B,)
        return 2 * g - 1

    @torch.no_grad()
    def flip_neighbours(self, spins):
        """Outputs on every single-bit flip of each string, shape (B, N), float64.

        ``out[b, i]`` is ``T`` of string b with bit i flipped. Only the count
        part ``u_0 = b . abar`` of :meth:`averaged_heads` depends on the
        bits, and a flip of bit i moves it by ``(1 - 2 b_i) abar_i``; the
        read-out network then runs on the N updated head averages (``O(N
        H)`` per string instead of N evaluations of ``O(N)``). Computed in
        float64: it agrees with evaluating each flipped string to rounding
        (it is that evaluation when a hook, an override or a replaced read-out
        changes ``forward``: :func:`skxor.nn.fast_path_refusal`).
        """
        spins = check_spins(spins, self.n_bits, type(self).__name__)
        if fast_path_refusal(self) is not None:
            return flips_by_forward(self, spins)
        x = spins.to(device=self.scores.device, dtype=torch.float64)
        bits = (1 - x) / 2  # (B, N)
        mean_attention = self.attention().to(torch.float64).mean(dim=0)  # (N,)
        count = (bits @ mean_attention)[:, None] + x * mean_attention  # (B, N), 1 - 2 b = x
        u = torch.stack(
            [count, mean_attention.sum() - count,
             *(p.expand_as(count) for p in mean_attention @ self.positions.to(torch.float64))],
            dim=-1,
        )  # (B, N, 4)
        first, _, last = self.readout
        hidden = torch.relu(u @ first.weight.to(torch.float64).T + first.bias.to(torch.float64))
        g = hidden @ last.weight.to(torch.float64)[0] + last.bias.to(torch.float64)[0]
        return 2 * g - 1

    def _fast_path_layout_refusal(self):
        """Why the read-out is not :func:`parity_readout_network`'s layers, or None."""
        return layout_refusal(self, {"readout": nn.Sequential, "readout.0": nn.Linear,
                                     "readout.1": nn.ReLU, "readout.2": nn.Linear})

    def extra_repr(self):
        return f"n_bits={self.n_bits}, n_heads={self.n_heads}"


class SquaredMeanHingeLoss(nn.Module):
    """``(mean_j max(0, 1 - t_j T_j))^2``: the loss of the authors' v1 code.

    ``T`` is the model output ``2 g - 1`` and ``t`` the target in
    {-1, +1}. Note the square of the **mean** hinge, as in the public code,
    not the mean of squared hinges (:class:`SquaredHingeLoss`).

    Examples
    --------
    >>> import torch
    >>> from skxor.nn import SquaredMeanHingeLoss
    >>> output, target = torch.tensor([2., 0.5, -1.]), torch.ones(3)
    >>> SquaredMeanHingeLoss()(output, target)  # ((0 + 0.5 + 2) / 3) ** 2
    tensor(0.6944)
    """

    def forward(self, output, target):
        return torch.clamp(1 - output * target, min=0).mean().square()


class SquaredHingeLoss(nn.Module):
    """``mean_j max(0, 1 - t_j T_j)^2``, the textbook squared hinge.

    Examples
    --------
    >>> import torch
    >>> from skxor.nn import SquaredHingeLoss
    >>> output, target = torch.tensor([2., 0.5, -1.]), torch.ones(3)
    >>> SquaredHingeLoss()(output, target)  # (0 + 0.25 + 4) / 3
    tensor(1.4167)
    """

    def forward(self, output, target):
        return torch.clamp(1 - output * target, min=0).square().mean()
