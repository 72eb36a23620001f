"""The cells of the zero-sensitivity-bound study: the shared random networks, in its grid."""

from .._common import columns_first, expand_grid
from .._networks import TRANSFORMER, network_cell
from .._sweep import run_sweep


def zero_sensitivity_bound_cell(
    n_bits, d_model, n_layers, n_heads, layer_norm_eps, init, init_scale, seed,
    random_state, exhaustive_max, n_samples, n_blowup, readout, positional, device="cpu",
):
    """Profile one random transformer (see :func:`~skxor.studies._networks.network_cell`)."""
    return network_cell(
        n_bits, d_model, n_layers, n_heads, layer_norm_eps, init, init_scale, seed,
        random_state, exhaustive_max, n_samples, n_blowup, readout=readout,
        positional=positional, device=device,
    )


def bound_cells(params):
    """The cells of a run with parameters ``params``, in sweep order.

    Examples
    --------
    >>> from skxor.studies._zero_sensitivity_bound import STUDY, bound_cells
    >>> len(bound_cells(STUDY.preset("quick")))  # 4 N x 2 D x 2 L x 2 eps x 4 seeds
    128
    """
    fixed = ("n_heads", "init", "init_scale", "readout", "positional", "exhaustive_max",
             "n_samples", "n_blowup", "device", "random_state")
    cells = expand_grid(
        n_bits=params["n_bits"], d_model=params["d_model"], n_layers=params["n_layers"],
        layer_norm_eps=params["layer_norm_eps"], seed=list(range(params["seeds"])),
        **{k: [params[k]] for k in fixed},
    )
    cells.sort(key=lambda c: (c["n_bits"], c["d_model"], c["n_layers"],
                              c["layer_norm_eps"], c["seed"]))
    return cells


def _compute(params, *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None):
    cells = bound_cells(params)
    df = run_sweep(
        zero_sensitivity_bound_cell, cells, study="zero_sensitivity_bound",
        checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress, scheduler=scheduler,
    )
    df.insert(0, "function", TRANSFORMER)  # the layout eps_agreement reads
    return columns_first(
        df, ["function", "n_bits", "d_model", "n_layers", "layer_norm_eps", "seed"]
    )


# Checkpoints name a cell by its module and qualified name: the cell keeps the
# study's package as its home (where it was defined before the package was
# split), so that checkpointed runs resume; the package imports it.
zero_sensitivity_bound_cell.__module__ = __package__
