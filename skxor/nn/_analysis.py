"""What the Boolean transformer computes besides its output: flip neighbours and layer-norm blow-up.

The methods of :class:`_Analysis` are those of
:class:`~skxor.nn.BooleanTransformer` (which inherits them) that read a
model rather than define it.

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

import numpy as np
import torch

from .._utils._docstrings import fill_doc
from ._common import DEFAULT_EVAL_FLOATS, BitStringModule
from ._exhaustive import _build as _exhaustive_build
from ._fast_path import fast_path_refusal, flips_by_forward
from ._flip_neighbours import _FlipCertificate, _FlipNeighbours


class _Analysis(BitStringModule):
    """Flip neighbours and layer-norm blow-up of a :class:`~skxor.nn.BooleanTransformer`."""

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
        flipped, as are the strings of a model whose attention is not
        softmax). The outputs agree with ``forward`` on the flipped strings
        to float rounding. A model whose ``forward`` is changed by a hook, an
        override or a replaced submodule (:func:`skxor.nn.fast_path_refusal`)
        has its flipped strings evaluated by that ``forward``.

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
        if fast_path_refusal(self) is not None:
            # A hook, an override or a replaced submodule changes forward:
            # the update would compute the unchanged model. Evaluate forward.
            return flips_by_forward(self, spins, return_outputs, DEFAULT_EVAL_FLOATS)
        E = self.token_embed.weight
        probe = E.new_empty((1, self.n_tokens, self.d_model))
        if self.attention != "softmax" or (self.n_layers > 1 and self.layers[0]._fusable(probe)):
            # The one-term update is that of softmax sums; another attention
            # type evaluates the flipped strings.
            # Short strings, several layers: every full layer is one fused
            # kernel call on a batch of flipped strings, which measured faster
            # than the row-by-row update (that took 1.1-1.6x its time at N = 32).
            return flips_by_forward(self, spins, return_outputs, DEFAULT_EVAL_FLOATS)
        bits = (spins < 0).to(device=E.device, dtype=torch.long)
        if not return_outputs:
            return _FlipNeighbours(self).outputs(bits)
        own = torch.empty(bits.shape[0], dtype=E.dtype, device=E.device)
        return own, _FlipNeighbours(self).outputs(bits, own)

    @torch.no_grad()
    def flip_certifier(self):
        """The decision-only form of :meth:`flip_neighbours`, at the current weights.

        For one softmax layer: ``certify(spins, floor) -> (outputs,
        row_sign, rows, cols, values)`` (numpy arrays), as
        :func:`skxor.nn._sparse_xor.product_flip_certificate` returns them.
        Every flip's attention output is updated as in :meth:`flip_neighbours`;
        a Lipschitz bound of the rest of the layer and the read-out, from the
        string's own values, settles the flips whose output stays farther
        than ``floor`` from 0 on the side of the string's own (in float64),
        and only the others run the layer's MLP. None for several layers,
        another attention, or a model whose ``forward`` the certificate
        would not compute (a hook, an override or a replaced submodule:
        :func:`skxor.nn.fast_path_refusal`).
        """
        if (self.n_layers != 1 or self.attention != "softmax"
                or fast_path_refusal(self) is not None):
            return None
        certificate = _FlipCertificate(_FlipNeighbours(self))
        device = self.token_embed.weight.device

        @torch.no_grad()
        def certify(spins, floor):
            bits = (self._check_spins(spins) < 0).to(device=device, dtype=torch.long)
            return tuple(t.cpu().numpy() for t in certificate(bits, floor))

        certify.model_outputs = True  # its outputs are flip_neighbours's own, not float64 ones
        return certify

    @torch.no_grad()
    def exhaustive_scorer(self):
        """Outputs on all 2^N strings from the read-out's softmax sums, blockwise.

        For one softmax layer: ``score(start, size) -> Tensor (size,)``, the
        outputs (in the module's dtype) of the strings with indices ``start
        .. start + size - 1`` (bit i of the index is position i). The
        read-out token's attention sums of a block are a float64 table over
        the low bits plus one row of the high bits; the rest of the layer
        runs on the whole block as matrix products (with pre-norm, each
        norm's gain and bias folded into the map after it; with post-norm,
        through the layer's own methods), so the outputs agree with
        ``forward`` to float rounding for the weights the scorer was built
        with (the sensitivity tools decide outputs near 0 by a one-string
        evaluation, as for ``forward``'s). None when :func:`skxor.nn.exhaustive_refusal` gives
        a reason (several layers, another attention, a hook, an override or
        a replaced submodule, scores that could overflow float64).

        Examples
        --------
        >>> import torch
        >>> from skxor.nn import BooleanTransformer
        >>> model = BooleanTransformer(6, d_model=8, n_layers=1, n_heads=2,
        ...                            readout="eos", seed=0)
        >>> score = model.exhaustive_scorer()
        >>> bits = (torch.arange(64)[:, None] >> torch.arange(6)) & 1
        >>> bool(torch.allclose(score(0, 64), model(1.0 - 2.0 * bits), atol=1e-5))
        True
        """
        return self._exhaustive_build()[0]

    def _exhaustive_build(self, input_encoding="pm1"):
        """``(scorer, None)`` or ``(None, reason)``: see :meth:`exhaustive_scorer` and
        :func:`skxor.nn.exhaustive_refusal` (read by the library's evaluator)."""
        return _exhaustive_build(self, input_encoding)

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

