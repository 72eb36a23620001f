"""The cells of the zero-sensitivity-bound study: the shared random networks, in its grid."""

from skxor.studies import cell_version
from ..._common import columns_first, expand_grid
from .._networks import TRANSFORMER, network_cell, network_cost


@cell_version(1, formerly="skxor.studies._zero_sensitivity_bound._cells")
def zero_sensitivity_bound_cell(**network):
    """Profile one random transformer: the shared network cell.

    ``network`` holds the parameters of
    :func:`~skxor.papers.kover._networks.network_cell`. The study has a cell of
    its own name because a checkpoint is found by the cell's name.
    """
    return network_cell(**network)


#: The ``method`` of a screened network that its screen found constant: not counted.
SCREENED_OUT = "screened"


@cell_version(1)
def screened_bound_cell(screened, **network):
    """One network of the screen: a sampled check of constancy, then an exhaustive count.

    Non-constant one-layer networks are rare at large N (about 1 in 20 at
    D = 16, N = 24), and counting all 2^N strings costs seconds; the screen
    profiles the network from ``n_samples`` uniform strings and their N
    neighbours (and reads the sign of the logit on ``n_blowup`` strings). A
    network the screen finds constant is recorded with ``method ==
    "screened"`` (its sampled profile; not counted); one it finds
    non-constant is counted over all 2^N strings, as a grid cell is. A
    non-constant network the screen misses has a value taken by fewer than
    about one string in several thousand, so nearly every string is a
    zero-sensitivity string: the screen leaves out networks that reach any
    bound far below 2^N, never one short of it (it can only make a shortfall
    easier to see).

    Parameters
    ----------
    screened : bool
        Always True: marks the cell as the screen's (a parameter, so that a
        planned design and the table name the screen's networks).
    **network
        The parameters of :func:`~skxor.papers.kover._networks.network_cell`.
    """
    screen = network_cell(**{**network, "exhaustive_max": min(network["exhaustive_max"],
                                                              network["n_bits"] - 1)})
    if screen["constant"] and not screen["sign_changes"]:
        return {**screen, "method": SCREENED_OUT}
    return network_cell(**network)


def screen_cells(params):
    """The screen's cells: ``screen_seeds`` one-layer networks at eps = 0, at N =
    ``screen_n_bits`` and D = ``screen_d_model``, seeds after the grid's (none when
    ``screen_seeds`` is 0).

    Examples
    --------
    >>> from skxor.papers.kover.zero_sensitivity_bound import STUDY
    >>> from skxor.papers.kover.zero_sensitivity_bound._cells import screen_cells
    >>> cells = screen_cells(STUDY.preset("full"))
    >>> len(cells), cells[0]["n_bits"], cells[0]["d_model"], cells[0]["seed"]
    (1600, 24, 16, 20)
    """
    if not params.get("screen_seeds"):
        return []
    fixed = ("n_heads", "init", "init_scale", "readout", "positional", "exhaustive_max",
             "n_samples", "n_blowup", "device", "random_state")
    return [dict(n_bits=params["screen_n_bits"], d_model=params["screen_d_model"],
                 n_layers=1, layer_norm_eps=0.0, seed=seed, screened=True,
                 **{k: params[k] for k in fixed})
            for seed in range(params["seeds"], params["seeds"] + params["screen_seeds"])]


def every_bound_cell(params):
    """Every cell of a run, as ``(function, cell)``: the grid's networks, then the screen's."""
    return ([(zero_sensitivity_bound_cell, c) for c in bound_cells(params)]
            + [(screened_bound_cell, c) for c in screen_cells(params)])


#: The share of the screen's networks expected to be counted exhaustively (found
#: non-constant): the dry run's cost of a screened cell, from the stored full run
#: (about 1 in 20 one-layer D = 16 networks at N >= 12 is not constant; rounded up).
SCREEN_COUNTED_SHARE = 0.1


def bound_cost(cell):
    """The dry run's cost of a cell: a grid network's (:func:`network_cost`), or a screened
    one's: its sampled screen, and the exhaustive count for the share expected to pass it."""
    if not cell.get("screened"):
        return network_cost(cell)
    sampled = dict(cell, exhaustive_max=min(cell["exhaustive_max"], cell["n_bits"] - 1))
    return "network", (network_cost(sampled)[1]
                       + SCREEN_COUNTED_SHARE * network_cost(cell)[1])


def compute(params, **options):
    """The study's table: the grid's networks and the screen's (one sweep each), as
    :func:`bound_table` lays them out; ``options`` go to each sweep."""
    import pandas as pd

    from skxor.studies import get_study, run_sweep

    sweep = dict(options, study="zero_sensitivity_bound")
    parts = [run_sweep(zero_sensitivity_bound_cell, bound_cells(params), **sweep)]
    screen = screen_cells(params)
    if screen:
        parts.append(run_sweep(screened_bound_cell, screen, **sweep))
    table = bound_table(pd.concat(parts, ignore_index=True), params)
    return get_study("zero_sensitivity_bound").stamp(table, params)


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
