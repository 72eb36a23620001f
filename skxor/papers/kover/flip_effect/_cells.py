"""The cells of the flip-effect study: one random network, its outputs under every single flip."""

import math

import torch

from skxor.studies import cell_version
from skxor._utils._validation import check_device
from ..._common import columns_first, expand_grid, key_seed, single_thread
from skxor.studies import floor_work
from .._networks import build_network, forward_work, network_key, profile_work

#: The columns naming a network of the table, in sweep order (eps last: paired).
KEY_COLUMNS = ["n_bits", "d_model", "n_layers", "init", "layer_norm_eps", "seed"]


@cell_version(1, formerly="skxor.studies._flip_effect._cells")
def flip_effect_cell(n_bits, d_model, n_layers, n_heads, layer_norm_eps, init, init_scale,
                     seed, random_state, n_samples, readout="eos", positional="sinusoidal",
                     device="cpu"):
    """One random transformer: how far a single bit flip moves its output.

    The network is the one the random-initialisation study draws for the
    same key (:func:`~skxor.papers.kover._networks.build_network`: eps is a
    paired factor, the same weights at every eps), evaluated in float64.
    For ``n_samples`` uniform strings x and every position i, the output
    change ``|T(x with bit i flipped) - T(x)|`` is computed exactly
    (:meth:`~skxor.nn.BooleanTransformer.flip_neighbours`).

    Returns
    -------
    result : dict
        ``flip_change_max`` (largest change over the strings and flips),
        ``flip_change_median`` (the typical change), ``flip_change_mean``,
        ``logit_std`` (spread of T over the strings: the output's own
        scale), ``sign_flips`` (flips that change the label ``T > 0``, of
        ``flips``), ``constant`` (no other label among the strings and
        their flips: a statement about the sampled strings only) and
        ``ln_inv_std_max`` (the largest layer-norm ``1 / sqrt(var + eps)``
        on the strings, against which ``1 / sqrt(eps)`` caps it).

    Examples
    --------
    >>> from skxor.papers.kover.flip_effect import flip_effect_cell
    >>> row = flip_effect_cell(16, 8, 1, 2, 0.01, "uniform", 1.0, 0, 0, 4)
    >>> row["flips"], row["flip_change_max"] >= row["flip_change_median"] > 0
    (64, True)
    """
    key = network_key(n_bits, d_model, n_layers, n_heads, init, init_scale, readout,
                      positional, seed)
    with single_thread():
        # float64: the changes at large N are far below float32's resolution of T.
        model = build_network(n_bits, d_model, n_layers, n_heads, layer_norm_eps, init,
                              init_scale, seed, random_state, readout, positional
                              ).double().to(check_device(device))
        g = torch.Generator().manual_seed(key_seed(random_state, 5, **key))
        spins = 1.0 - 2.0 * torch.randint(0, 2, (n_samples, n_bits), generator=g).double()
        spins = spins.to(check_device(device))
        with floor_work("outputs of the networks under every single flip"):
            own, flipped = model.flip_neighbours(spins, return_outputs=True)
            inv = torch.cat([v.flatten() for v in model.layer_norm_inverse_std(spins).values()])
    own, flipped = own.cpu(), flipped.cpu()
    change = (flipped - own[:, None]).abs()
    labels = torch.cat([own[:, None], flipped], dim=1) > 0
    finite = inv[torch.isfinite(inv)]
    return {
        "flips": int(change.numel()),
        "flip_change_max": float(change.max()),
        "flip_change_median": float(change.median()),
        "flip_change_mean": float(change.mean()),
        "logit_std": float(own.std(unbiased=False)),
        "sign_flips": int((labels[:, 1:] != labels[:, :1]).sum()),
        "constant": bool(labels.all() or not labels.any()),
        "ln_inv_std_max": float(finite.max()) if finite.numel() else math.inf,
    }


def flip_effect_cells(params):
    """The cells of a run with parameters ``params``, in sweep order.

    Examples
    --------
    >>> from skxor.papers.kover.flip_effect import STUDY, flip_effect_cells
    >>> len(flip_effect_cells(STUDY.preset("quick")))  # 4 N x 4 eps x 4 seeds
    64
    """
    fixed = ("n_heads", "init_scale", "readout", "positional", "n_samples", "device",
             "random_state")
    cells = expand_grid(
        n_bits=params["n_bits"], d_model=params["d_model"], n_layers=params["n_layers"],
        init=params["init"], layer_norm_eps=params["layer_norm_eps"],
        seed=list(range(params["seeds"])), **{k: [params[k]] for k in fixed},
    )
    cells.sort(key=lambda c: tuple(str(c[k]) if k == "init" else c[k] for k in KEY_COLUMNS))
    return cells


def flip_effect_cost(cell):
    """The dry run's cost of a cell: one forward pass and N flips per string, as a sampled
    sensitivity profile does (``("network", work)``, the networks' calibration)."""
    shape = (cell["n_bits"], cell["d_model"], cell["n_layers"])
    return "network", (profile_work(*shape, 0, cell["n_samples"])
                       + cell["n_samples"] * forward_work(*shape))


def flip_effect_table(table, params):
    """The study's table from the sweep's: the network's key columns first."""
    return columns_first(table, KEY_COLUMNS)
