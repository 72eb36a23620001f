"""The two-layer feed-forward baseline of Han & Ghoshdastidar (2025, arXiv 2502.07553).

``f(x) = sum_j a_j sigma(w_j . x + c_j) + c_0`` with width ``w``: the
trainable parameters are ``W`` (w x d), ``c`` (w), ``a`` (w) and ``c_0``,
``w (d + 2) + 1`` in all, so at least ``d + 3`` for any width.
"""

from torch import nn

from ._activations import ACTIVATIONS, activation_function  # noqa: F401  (ACTIVATIONS: old home)

class TwoLayerNetwork(nn.Module):
    """Two-layer network ``f(x) = a @ sigma(W x + c) + c_0``, one real output per row.

    Parameters
    ----------
    n_features : int
        Input length d.
    width : int
        Number of hidden units w.
    activation : {"relu", "gelu", "tanh", "logistic", "square", "identity"}, \
default="relu"
        Hidden non-linearity sigma.
    dtype : torch.dtype or None, default=None
        Parameter dtype (torch's default when None).

    Notes
    -----
    Both layers use PyTorch's default ``nn.Linear`` initialization (uniform
    in ``+-1/sqrt(fan_in)``), drawn from torch's global generator: seed it
    (e.g. inside :func:`skxor._utils._torch.seeded_torch`) for a reproducible
    network.

    Examples
    --------
    >>> from skxor.nn import TwoLayerNetwork
    >>> net = TwoLayerNetwork(10, 4)
    >>> sum(p.numel() for p in net.parameters())  # 4 * (10 + 2) + 1
    49
    """

    #: The strings it reads: spins ``1 - 2b`` (the sensitivity tools present them so).
    input_encoding = "pm1"

    def __init__(self, n_features, width, activation="relu", dtype=None):
        super().__init__()
        activation_function(activation)  # an unknown name raises here
        self.hidden = nn.Linear(n_features, width, dtype=dtype)
        self.output = nn.Linear(width, 1, dtype=dtype)
        # Stored by name (not as a function) so the module pickles cleanly.
        self.activation = activation

    def forward(self, spins):
        """Output f(x) of shape (n,) for spins of shape (n, d)."""
        sigma = activation_function(self.activation)
        return self.output(sigma(self.hidden(spins))).squeeze(-1)
