"""The cells of the random-initialisation study: random networks, references, the control."""

import numpy as np
import pandas as pd

from skxor.boolean import NAMED_FUNCTIONS, RandomFunction, get_function
from skxor.sensitivity import sensitivity_profile
from ..._common import cell_seed, columns_first, expand_grid
from skxor.studies import floor_work
from .._networks import TRANSFORMER, network_cell, network_cost
from .._profiling import STRING_BY_STRING_MAX, profile, profile_result
from skxor.studies import run_sweep
from skxor.studies import cell_version

#: Label of the random-Boolean-function control rows.
RANDOM_FUNCTION = "random function"

#: The columns that name a network's setting (besides N and the seed), in sweep order.
SETTING = ["init", "readout", "positional", "d_model", "n_layers", "layer_norm_eps"]


@cell_version(1, formerly="skxor.studies._random_init._cells")
def random_init_cell(**network):
    """One random transformer of the study: the shared network cell, labelled.

    ``network`` holds the parameters of
    :func:`~skxor.papers.kover._networks.network_cell`.
    """
    return {"function": TRANSFORMER, **network_cell(**network)}


@cell_version(1, formerly="skxor.studies._random_init._cells")
def reference_cell(function, n_bits, exhaustive_max, n_samples, random_state):
    """Profile PARITY, MAJORITY or FIRST on N bits the way the models are profiled."""
    with floor_work("sensitivity profiles of the reference functions"):
        prof = profile(get_function(function, n_bits), n_bits, exhaustive_max, n_samples,
                       cell_seed(random_state, 0, 3))
    return {"function": function, **profile_result(prof)}


@cell_version(1, formerly="skxor.studies._random_init._cells")
def random_function_cell(n_bits, n_functions, random_state):
    """The control: ``n_functions`` uniformly random functions on N bits, exhaustively.

    Returns
    -------
    result : dict
        ``n_functions``, ``with_zero`` (functions with at least one
        zero-sensitivity string), ``zero_count_mean`` (mean number of such
        strings; its expectation is exactly 1), ``zero_fraction`` (mean
        fraction) and ``zero_count_max``.
    """
    rng = np.random.RandomState(cell_seed(random_state, n_bits, 4))
    with floor_work("profiles of the random control functions"):
        counts = np.array([
            sensitivity_profile(RandomFunction(n_bits, random_state=rng).table, n_bits).n_zero
            for _ in range(n_functions)
        ])
    return {
        "function": RANDOM_FUNCTION,
        "method": "exhaustive",
        "n_functions": int(n_functions),
        "with_zero": int((counts > 0).sum()),
        "zero_count_mean": float(counts.mean()),
        "zero_count_max": int(counts.max()),
        "zero_fraction": float(counts.mean() / 2.0 ** n_bits),
    }


def network_grid(params):
    """The transformer cells of a run with parameters ``params``, unsorted.

    The cost model reads this grid too; sorting its 10^5 cells at the full
    preset takes most of a second, which the cost model does not need.

    Examples
    --------
    >>> from skxor.papers.kover.random_init import STUDY
    >>> from skxor.papers.kover.random_init._cells import network_grid
    >>> len(network_grid(STUDY.preset("quick")))
    1800
    """
    return expand_grid(
        n_bits=params["n_bits"], d_model=params["d_model"], n_layers=params["n_layers"],
        n_heads=[params["n_heads"]], layer_norm_eps=params["layer_norm_eps"],
        init=params["init"], readout=params["readout"], positional=params["positional"],
        init_scale=[params["init_scale"]], seed=list(range(params["seeds"])),
        n_blowup=[params["n_blowup"]], device=[params["device"]],
        exhaustive_max=[params["exhaustive_max"]], n_samples=[params["n_samples"]],
        random_state=[params["random_state"]],
    )


def network_cells(params):
    """The transformer cells of a run with parameters ``params``, in sweep order.

    Examples
    --------
    >>> from skxor.papers.kover.random_init import STUDY, network_cells
    >>> len(network_cells(STUDY.preset("quick")))  # 6 N x 5 inits x 2 eps x 30 seeds
    1800
    """
    cells = network_grid(params)
    cells.sort(key=lambda c: (c["n_bits"], *(str(c[k]) for k in SETTING), c["seed"]))
    return cells


def reference_cells(params):
    """The cells profiling each named Boolean function at each N, unsorted."""
    return expand_grid(function=list(NAMED_FUNCTIONS), n_bits=params["n_bits"],
                       exhaustive_max=[params["exhaustive_max"]],
                       n_samples=[params["n_samples"]], random_state=[params["random_state"]])


def control_cells(params):
    """The cells of the random-function control: one per exhaustive N (none when
    ``n_random_functions`` is 0)."""
    return [
        dict(n_bits=n, n_functions=params["n_random_functions"],
             random_state=params["random_state"])
        for n in params["n_bits"]
        if n <= min(params["exhaustive_max"], STRING_BY_STRING_MAX)
        and params["n_random_functions"] > 0
    ]


def every_cell(params):
    """Every cell of a run, as ``(function, cell)``: networks, references, control.

    Examples
    --------
    >>> from skxor.papers.kover.random_init import STUDY
    >>> from skxor.papers.kover.random_init._cells import every_cell
    >>> len(every_cell(STUDY.preset("quick")))  # 1800 networks, 3 x 6 references, 4 controls
    1822
    """
    # The networks unsorted: sorting 10^5 cells of the full preset takes most
    # of a second, which a dry run does not need.
    return ([(random_init_cell, c) for c in network_grid(params)]
            + [(reference_cell, c) for c in reference_cells(params)]
            + [(random_function_cell, c) for c in control_cells(params)])


def random_init_cost(cell):
    """The dry run's cost of a cell: a network's profile, a reference's or the control's."""
    if "n_functions" in cell:  # the control: every function of N bits, profiled
        return "control", cell["n_functions"] * cell["n_bits"] * 2.0 ** cell["n_bits"]
    if "function" in cell:  # a named function, profiled over its strings
        # Over all strings only up to STRING_BY_STRING_MAX (no one-layer path).
        strings = (2.0 ** cell["n_bits"]
                   if cell["n_bits"] <= min(cell["exhaustive_max"], STRING_BY_STRING_MAX)
                   else cell["n_samples"])
        return "reference", cell["n_bits"] * strings
    return network_cost(cell)


def compute(params, **options):
    """The study's table: its networks, the reference functions and the control, in that order.

    Three sweeps, one per cell function; ``options`` (``checkpoint_dir``,
    ``n_jobs``, ``progress``, ``scheduler``) are passed to each.
    """
    cells = network_cells(params)
    refs = reference_cells(params)
    refs.sort(key=lambda c: (c["n_bits"], list(NAMED_FUNCTIONS).index(c["function"])))
    controls = control_cells(params)
    sweep = dict(options, study="random_init_sensitivity")
    parts = [
        run_sweep(random_init_cell, cells, **sweep),
        run_sweep(reference_cell, refs, **sweep),
    ]
    if controls:
        parts.append(run_sweep(random_function_cell, controls, **sweep))
    df = pd.concat(parts, ignore_index=True)
    if "n_functions" not in df:  # a key column, even without the control
        df["n_functions"] = np.nan
    return columns_first(df, ["function", "n_bits", *SETTING, "n_heads", "init_scale", "seed"])

