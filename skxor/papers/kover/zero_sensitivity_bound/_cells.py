"""The cells of the zero-sensitivity-bound study: the shared random networks, in its grid."""

from skxor.studies import cell_version
from ..._common import columns_first, expand_grid
from .._networks import TRANSFORMER, network_cell


@cell_version(1, formerly="skxor.studies._zero_sensitivity_bound._cells")
def zero_sensitivity_bound_cell(**network):
    """Profile one random transformer: the shared network cell.

    ``network`` holds the parameters of
    :func:`~skxor.papers.kover._networks.network_cell`. The study has a cell of
    its own name because a checkpoint is found by the cell's name.
    """
    return network_cell(**network)


def bound_cells(params):
    """The cells of a run with parameters ``params``, in sweep order.

    Examples
    --------
    >>> from skxor.papers.kover.zero_sensitivity_bound import STUDY, bound_cells
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


def bound_table(table, params):
    """The study's table from the sweep's: rows marked as networks', key columns first."""
    table.insert(0, "function", TRANSFORMER)  # the layout eps_agreement reads
    return columns_first(
        table, ["function", "n_bits", "d_model", "n_layers", "layer_norm_eps", "seed"]
    )
