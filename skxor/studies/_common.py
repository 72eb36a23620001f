"""What every study shares: its declaration, presets, seeds, threads and timing text.

A study module declares its study in one place, a :class:`Study`: its
parameters with their constraints (declared with the constraints of
:mod:`skxor.studies._parameters`), its presets (``full``
is ``quick`` updated with its differences), the function computing one cell,
the function running the sweep, and the summary, figures and report section
drawn from the resulting table.
"""

import contextlib
from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np
import pandas as pd
from sklearn.model_selection import ParameterGrid
from sklearn.utils._param_validation import (
    InvalidParameterError,
    make_constraint,
    validate_parameter_constraints,
)

from ._parameters import Grid

__all__ = [
    "Study",
    "cell_seed",
    "columns_first",
    "expand_grid",
    "key_seed",
    "loglog_slope",
    "run_preset",
    "seeds_text",
    "single_thread",
]


# -- the study declaration ----------------------------------------------------------


@dataclass(frozen=True)
class Study:
    """A study, declared in one place: parameters, presets, cell, sweep, outputs.

    Parameters
    ----------
    name : str
        Registry name (``skxor run NAME``); also names the checkpoint folder.
    description : str
        One paragraph for ``skxor list`` and ``skxor run --help``.
    parameters : dict of str to list of constraints
        Every parameter and the scikit-learn constraints its value must meet;
        :class:`Grid` marks a list-valued sweep axis.
    presets : dict of str to dict
        ``"quick"`` gives every parameter; every other preset gives only its
        differences from ``"quick"`` (see :meth:`preset`).
    cell : callable
        Computes one cell of the sweep (a module-level function returning a
        dict of JSON-serialisable results).
    compute : callable
        ``compute(params, *, checkpoint_dir, n_jobs, progress, scheduler)``:
        runs the sweep for validated ``params``; returns the study's table
        (a pandas DataFrame).
    summary : callable
        ``summary(table)``: the aggregated table the report shows.
    figures : callable
        ``figures(table)``: a dict of matplotlib figures.
    report : callable
        ``report(table)``: the study's Markdown section of ``report.md``.
    key : tuple of str
        The columns identifying one row of the table within a run: when runs
        write to the same folder, their rows are merged into one table on
        these columns plus the run's ``setting`` (a later row replaces an
        earlier one with the same key and setting).
    check : callable or None, default=None
        ``check(params)``: rules between parameters (for example ``n_heads``
        dividing ``d_model``); raises ValueError.
    setting : tuple of str, default=()
        The parameters that set up a run rather than name a cell of its
        sweep (budgets, test split, random state, size grids, ...): every
        parameter except the sweep axes whose values are ``key`` columns and
        counts of per-seed rows (``seeds``). The runner writes them into a
        ``setting`` column of the stored table and merges on ``key`` plus
        ``setting``, so rows of runs with other settings coexist and each
        setting is analysed on its own.

    Examples
    --------
    >>> from skxor.studies import get_study
    >>> study = get_study("one_step")
    >>> study.params("quick", {"d": 50, "seeds": 2})["d"]
    [50]
    >>> study.params("quick", {"seeds": 0})
    Traceback (most recent call last):
    ...
    sklearn.utils._param_validation.InvalidParameterError: The 'seeds' parameter of one_step must be an int in the range [1, inf). Got 0 instead.
    """

    name: str
    description: str
    parameters: dict
    presets: dict
    cell: Callable
    compute: Callable
    summary: Callable
    figures: Callable
    report: Callable
    key: tuple
    check: Optional[Callable] = field(default=None)
    setting: tuple = field(default=())

    def __post_init__(self):
        declared = set(self.parameters)
        quick = set(self.presets.get("quick", {}))
        if quick != declared:
            raise ValueError(
                f"study {self.name!r}: the quick preset must set exactly the declared "
                f"parameters; missing {sorted(declared - quick)}, "
                f"undeclared {sorted(quick - declared)}."
            )
        for preset, values in self.presets.items():
            unknown = sorted(set(values) - declared)
            if unknown:
                raise ValueError(f"study {self.name!r}: preset {preset!r} sets {unknown}.")
            validate_parameter_constraints(
                self.parameters, self.preset(preset), caller_name=self.name
            )
        unknown = sorted(set(self.setting) - declared)
        if unknown:
            raise ValueError(f"study {self.name!r}: setting names undeclared {unknown}.")

    def preset(self, name):
        """Every parameter of preset ``name``: ``quick`` updated with its differences."""
        if name not in self.presets:
            raise ValueError(
                f"preset must be one of {sorted(self.presets)}; got {name!r}."
            )
        params = dict(self.presets["quick"])
        params.update(self.presets[name])
        return {k: list(v) if isinstance(v, tuple) else v for k, v in params.items()}

    def preset_of(self, params):
        """The name of the preset whose parameters equal ``params``, or None (overridden).

        Examples
        --------
        >>> from skxor.studies import get_study
        >>> study = get_study("one_step")
        >>> full, overridden = study.preset("full"), study.params("quick", {"seeds": 1})
        >>> study.preset_of(full), study.preset_of(overridden)
        ('full', None)
        """
        return next((name for name in self.presets if self.preset(name) == params), None)

    def stamp(self, table, params, floor_description):
        """Record the run on ``table.attrs``: its parameters, preset, rows and floor.

        The runner reads ``floor_seconds`` (the sum of the table's
        ``floor_seconds`` column) and ``floor_description``; a report names
        the preset only while the table holds exactly this run's ``rows``
        (see :func:`run_preset`).

        Returns
        -------
        table : pandas.DataFrame
            The same table.

        Examples
        --------
        >>> import pandas as pd
        >>> from skxor.studies import get_study
        >>> study = get_study("one_step")
        >>> table = study.stamp(pd.DataFrame({"floor_seconds": [0.5, 1.0]}),
        ...                     study.preset("quick"), "the steps")
        >>> table.attrs["preset"], table.attrs["rows"], table.attrs["floor_seconds"]
        ('quick', 2, 1.5)
        """
        table.attrs.update(
            params=params, preset=self.preset_of(params), rows=len(table),
            floor_seconds=float(table["floor_seconds"].sum()),
            floor_description=floor_description,
        )
        return table

    def params(self, preset="quick", overrides=None):
        """The validated parameters of ``preset`` with ``overrides`` applied.

        Raises
        ------
        ValueError
            Unknown preset or parameter, a value outside its declared
            constraints (scikit-learn's ``InvalidParameterError``, naming the
            parameter and the values it accepts), or a broken rule between
            parameters.
        """
        params = self.preset(preset)
        overrides = dict(overrides or {})
        unknown = sorted(set(overrides) - set(params))
        if unknown:
            raise ValueError(
                f"unknown parameter(s) {unknown} for study {self.name}; it takes "
                f"{sorted(params)}."
            )
        for name, value in overrides.items():
            grids = [c for c in self.parameters[name] if isinstance(c, Grid)]
            if isinstance(value, tuple):
                value = list(value)
            # A single value for a sweep axis is a list of one (only when it is a
            # valid value: otherwise the message shows what was given).
            if grids and not isinstance(value, list) and grids[0].is_satisfied_by_value(value):
                value = [value]
            params[name] = value
        self._reject_booleans(params)
        validate_parameter_constraints(self.parameters, params, caller_name=self.name)
        if self.check is not None:
            self.check(params)
        return params

    def _reject_booleans(self, params):
        # scikit-learn's Interval(Integral, ...) takes True for 1; here a boolean
        # is never a count or a size (``--set seeds=true`` must not mean 1 seed).
        for name, value in params.items():
            values = value if isinstance(value, list) else [value]
            if not any(isinstance(v, (bool, np.bool_)) for v in values):
                continue
            constraints = [make_constraint(c) for c in self.parameters[name]]
            if any(str(c) == "an instance of 'bool'" or type(c).__name__ == "_Booleans"
                   for c in constraints):
                continue
            accepted = " or ".join(str(c) for c in constraints)
            raise InvalidParameterError(
                f"The {name!r} parameter of {self.name} must be {accepted}. Got "
                f"{value!r} instead (a boolean is not a number here)."
            )

    def run(
        self, preset="quick", *, checkpoint_dir=None, n_jobs=None, progress=False,
        scheduler=None, **overrides,
    ):
        """Validate the parameters, then compute the study's table."""
        params = self.params(preset, overrides)
        return self.compute(
            params, checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
            scheduler=scheduler,
        )


def run_preset(table):
    """The preset ``table`` was computed with (see :meth:`Study.stamp`), or None.

    Named only when the table is exactly that run's rows: the runner passes a
    table merged with earlier runs, with the latest run's attrs.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies._common import run_preset
    >>> table = pd.DataFrame({"seed": [0, 1]})
    >>> table.attrs.update(preset="quick", rows=2)
    >>> run_preset(table), run_preset(pd.concat([table, table]))
    ('quick', None)
    """
    return table.attrs.get("preset") if table.attrs.get("rows") == len(table) else None


def seeds_text(counts):
    """``"10 seeds"``, or ``"8-10 seeds"`` when the cells' seed ``counts`` differ.

    Examples
    --------
    >>> from skxor.studies._common import seeds_text
    >>> seeds_text([10, 10]), seeds_text([8, 10])
    ('10 seeds', '8-10 seeds')
    """
    counts = pd.Series(counts)
    low, high = counts.min(), counts.max()
    return f"{low} seeds" if low == high else f"{low}-{high} seeds"


def columns_first(table, first):
    """``table`` with the columns ``first`` leading, the others after them in their order.

    A column of ``first`` that ``table`` lacks (a part of the study that did
    not run) is added, as NaN, so that the key columns always exist.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies._common import columns_first
    >>> list(columns_first(pd.DataFrame({"x": [1], "seed": [0]}), ["d", "seed"]).columns)
    ['d', 'seed', 'x']
    """
    for column in first:
        if column not in table:
            table[column] = np.nan
    first = list(first)
    return table[first + [c for c in table.columns if c not in first]]


def expand_grid(**lists):
    """All combinations of the given value lists, as a list of dicts."""
    return [dict(cell) for cell in ParameterGrid(lists)]


def cell_seed(random_state, seed, salt=0):
    """A 31-bit seed derived from a study's ``random_state``, a seed index and a salt.

    Examples
    --------
    >>> from skxor.studies._common import cell_seed
    >>> cell_seed(0, 1) == cell_seed(0, 1) != cell_seed(0, 1, salt=2)
    True
    """
    return int(np.random.SeedSequence([random_state, seed, salt]).generate_state(1)[0] >> 1)


def key_seed(random_state, salt=0, *, bits=63, **key):
    """A seed derived from a study's ``random_state``, a salt and a whole cell key.

    Cells that differ in any entry of ``key`` (length, width, init, seed
    index, ...) get unrelated seeds, so each draws its own weights and data:
    two cells never share a network by accident. Numbers are compared by
    value (16 and 16.0 give the same seed, as a table read back from CSV
    holds floats); strings by text.

    Parameters
    ----------
    random_state : int
        The study's random state.
    salt : int, default=0
        Separates streams of one cell (weights, strings, ...).
    bits : int, default=63
        Width of the seed: 63 for torch generators, 32 where scikit-learn's
        ``random_state`` (below 2^32) takes it.
    **key
        The cell's identifying entries.

    Examples
    --------
    >>> from skxor.studies._common import key_seed
    >>> key_seed(0, n_bits=4, seed=0) == key_seed(0, seed=0, n_bits=4.0)
    True
    >>> key_seed(0, n_bits=4, seed=0) == key_seed(0, n_bits=8, seed=0)
    False
    >>> key_seed(0, bits=32, n_bits=4) < 2 ** 32
    True
    """
    import hashlib
    import json
    from numbers import Real

    def canonical(value):
        if isinstance(value, Real) and not isinstance(value, bool):
            value = float(value)
            return int(value) if value.is_integer() else repr(value)
        return str(value)

    text = json.dumps(sorted((name, canonical(v)) for name, v in key.items()))
    digest = int.from_bytes(hashlib.sha256(text.encode()).digest()[:16], "little")
    words = np.random.SeedSequence([int(random_state), int(salt), digest]).generate_state(
        2, dtype=np.uint64)
    return int(words[0] >> np.uint64(64 - bits))


@contextlib.contextmanager
def single_thread():
    """Run a block on one thread: torch's intra-op pool and every BLAS/OpenMP pool.

    Study cells are small; parallelism comes from running cells side by side
    (``n_jobs``), and extra threads inside a cell only stall a busy machine.
    """
    import torch
    from threadpoolctl import threadpool_limits

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        with threadpool_limits(limits=1):
            yield
    finally:
        torch.set_num_threads(before)


def loglog_slope(x, y):
    """Least-squares slope of log(y) against log(x); NaN with < 2 finite points."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    keep = np.isfinite(x) & np.isfinite(y) & (x > 0) & (y > 0)
    if keep.sum() < 2 or np.unique(x[keep]).size < 2:
        return float("nan")
    return float(np.polyfit(np.log(x[keep]), np.log(y[keep]), 1)[0])

