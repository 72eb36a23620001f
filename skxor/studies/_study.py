"""The Study API: a study declared in one place, run like every library study.

A study is its parameters (scikit-learn constraints; :class:`Grid` marks a
sweep axis), its presets and the function computing one cell. Everything
else has a default built from these:

* ``cells(params)``: every combination of the grid axes, times
  ``seed in range(seeds)`` when the study has a ``seeds`` parameter, with
  the scalar parameters the cell function takes (:meth:`Study.grid_cells`);
* ``compute``: those cells run through :func:`~skxor.studies.run_sweep`
  (checkpoints, ``n_jobs``, dask), the resulting table optionally reshaped
  by ``tabulate(table, params)`` and stamped with the run's parameters;
* ``key``: the grid axes and ``seed``; ``setting``: the other parameters
  but ``seeds``;
* ``summary``: the table per key without ``seed``, each boolean or 0/1
  column as a rate with its Wilson 95% interval over seeds, each other
  numeric column as its mean;
* the summary handed on once: the runner and ``skxor publish`` compute
  ``summary(rows)`` once per setting of the stored table and hand it to
  ``report``, ``figures``, ``headline`` and each claim's ``rule``, which
  format it (:meth:`Study.render`);
* ``figures``: none; ``report``: a Markdown section with the summary table;
  ``headline``: none (the study has no bullet in ``skxor headline``).

A study written in a file of its own is run with ``skxor run my_study.py``
(see :func:`~skxor.studies.load_study`), or registered by an installed
package through the ``skxor.studies`` entry-point group.
"""

import inspect
import re
import sys
import types
from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np
import pandas as pd
from sklearn.model_selection import ParameterGrid

from .._utils._sklearn_compat import (
    InvalidParameterError,
    make_constraint,
    validate_parameter_constraints,
)
from .._utils._docstrings import fill_doc
from .claims import Claim
from ._parameters import Grid
from ._hooks import hook_result
from .reporting import study_section, summary_table

__all__ = ["Study"]

#: A study's name names files (``<name>.csv``) and checkpoint folders.
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

#: The numpydoc entries of the options every study's public function takes;
#: ``%(study_options)s`` on a line of its own in a :meth:`Study.function` docstring.
_OPTIONS = """checkpoint_dir : path or None, default=None
    Where finished cells are written, so that an interrupted run resumes
    (see :func:`~skxor.studies.run_sweep`).
n_jobs : int or None, default=None
    joblib workers running the cells.
progress : bool, default=False
    Show a progress bar.
%(scheduler)s"""


@dataclass(frozen=True, kw_only=True, eq=False)
class Study:
    """A study, declared in one place: parameters, presets, cell; the rest optional.

    Parameters
    ----------
    name : str
        Registry name (``skxor run NAME``); also names the table, figures and
        checkpoint folder, so letters, digits and underscores only.
    description : str
        One paragraph for ``skxor list`` and ``skxor run --help``.
    parameters : dict of str to list of constraints
        Every parameter and the scikit-learn constraints its value must meet;
        :class:`Grid` marks a list-valued sweep axis. A parameter ``seeds``
        (a count) gives each cell a ``seed`` from ``range(seeds)``.
    presets : dict of str to dict
        ``"quick"`` gives every parameter; every other preset gives only its
        differences from ``"quick"`` (see :meth:`preset`).
    cell : callable
        Computes one cell of the sweep: a module-level function taking the
        cell's parameters as keywords and returning a dict of
        JSON-serialisable results.
    cells : callable or None, default=None
        ``cells(params)``: the list of cell parameter dicts to run, for a
        study that needs its own expansion or order; None:
        :meth:`grid_cells`. With ``compute``, the cells that ``compute``
        may run, listed for the dry run (``skxor run --dry-run``) without
        computing them; an item is ``(function, cell)`` when the cell is
        computed by another function than ``cell``.
    tabulate : callable or None, default=None
        ``tabulate(table, params)``: the study's table from the sweep's (one
        row per cell, parameters then results), for a study whose rows are
        not its cells; None keeps the sweep's table.
    compute : callable or None, default=None
        ``compute(params, *, checkpoint_dir, n_jobs, progress, scheduler)``:
        runs the whole study for validated ``params`` and returns its table,
        for a study of several sweeps; None runs ``cells`` through
        :func:`~skxor.studies.run_sweep`, then ``tabulate`` (see
        :meth:`sweep`).
    summary : callable or None, default=None
        ``summary(table)``: the one computation of the study's results from
        the rows of one setting (a DataFrame, or a
        :class:`~sklearn.utils.Bunch` of named parts, as the library's
        studies return); the runner and ``skxor publish`` call it once per
        setting and hand its result to ``report``, ``figures``,
        ``headline`` and the claims' rules. None: :meth:`default_summary`.
    figures : callable or None, default=None
        ``figures(summary)`` or ``figures(table)``: a dict of matplotlib
        figures; None: no figures. Like ``report`` and ``headline``, a
        hook gets the keywords it names: ``summary`` (the result of
        ``summary``), ``table`` (the rows), both, or, under any other name,
        the rows (see :meth:`render`).
    report : callable or None, default=None
        ``report(summary)`` or ``report(table)``: the study's Markdown
        section of ``report.md``, starting with a title line (``## Title``);
        None: :meth:`default_report`.
    headline : callable or None, default=None
        ``headline(summary)`` or ``headline(table)``: the study's bullet in
        ``skxor headline`` (one paragraph of Markdown, every number from the
        table); None: the study has no bullet.
    key : tuple of str or None, default=None
        The columns identifying one row of the table within a run: when runs
        write to the same folder, their rows are merged into one table on
        these columns plus the run's ``setting`` (a later row replaces an
        earlier one with the same key and setting). None: the grid axes and
        ``seed``.
    check : callable or None, default=None
        ``check(params)``: rules between parameters (for example ``n_min``
        not above ``n_max``); raises ValueError.
    setting : tuple of str or None, default=None
        The parameters that set up a run rather than name a cell of its
        sweep (budgets, test split, random state, ...). The runner writes
        them into a ``setting`` column of the stored table and merges on
        ``key`` plus ``setting``, so rows of runs with other settings
        coexist and each setting is analysed on its own. None: every
        parameter but the grid axes and ``seeds``.
    floor : str, default=""
        What the cells' ``floor_seconds`` results time (their unavoidable
        work, for the run's timing line); used only when the cells return
        ``floor_seconds``.
    cost : callable or None, default=None
        ``cost(cell)``: what the cell (a dict of ``cells``) costs, for the
        dry run's time estimate: its CPU seconds (a number), or ``(kind,
        work)``, priced as ``intercept + slope * work`` seconds by the cost
        model calibrated for the study's cells of that kind
        (``skxor/studies/data/costs.csv``). None: the dry run counts the
        cells only.
    stops_early : str, default=""
        Why a run may stop before computing every cell that ``cells`` lists
        (the dry run's count and time are then upper bounds); "": it never
        does.
    claims : tuple of Claim, default=()
        The claims of papers that the study's runs test
        (:class:`~skxor.studies.Claim`): ``skxor publish`` gives each a row of
        the claims table, its verdict computed by the claim's ``rule`` from
        the study's stored table.
    added : dict of str to value or None, default=None
        Parameters added to the study after runs of it were stored, each
        with the value those runs had implicitly (for example ``{"k": 2}``:
        the study computed 2-sparse parities before it took ``k``). A
        scalar parameter at that value is left out of the cells (the cell
        function's own default, which must equal it, applies), of the run's
        ``setting`` and of the setting in the report, and a stored run
        record without it reads as having it: the checkpoints, stored tables
        and run records of earlier runs stay found and current. At another
        value the parameter is in the cells and the setting as any other.

    Examples
    --------
    >>> from skxor.studies import POSITIVE, Grid, Study
    >>> def square_cell(x, seed):
    ...     return {"y": x * x + seed}
    >>> study = Study(
    ...     name="squares", description="Squares, plus the seed.",
    ...     parameters={"x": [Grid(POSITIVE)], "seeds": [POSITIVE]},
    ...     presets={"quick": {"x": [1, 2], "seeds": 2}}, cell=square_cell)
    >>> study.key, study.setting
    (('x', 'seed'), ())
    >>> study.run(x=[3], seeds=2)[["x", "seed", "y"]].values.tolist()
    [[3, 0, 9], [3, 1, 10]]
    >>> study.params("quick", {"seeds": 0})
    Traceback (most recent call last):
    ...
    sklearn.utils._param_validation.InvalidParameterError: The 'seeds' parameter of squares must be an int in the range [1, inf). Got 0 instead.

    A renderer that names ``summary`` gets the summary, computed once:

    >>> def report(summary):
    ...     return "## Squares\\n\\n" + summary.to_string(index=False)
    >>> study = Study(
    ...     name="squares", description="Squares, plus the seed.",
    ...     parameters={"x": [Grid(POSITIVE)], "seeds": [POSITIVE]},
    ...     presets={"quick": {"x": [1, 2], "seeds": 2}}, cell=square_cell, report=report)
    >>> table = study.run()
    >>> print(study.render("report", table, study.summary(table)))
    ## Squares
    <BLANKLINE>
     x  y_mean  rows
     1     1.5     2
     2     4.5     2
    """

    name: str
    description: str
    parameters: dict
    presets: dict
    cell: Callable
    cells: Optional[Callable] = None
    tabulate: Optional[Callable] = None
    compute: Optional[Callable] = None
    summary: Optional[Callable] = None
    figures: Optional[Callable] = None
    report: Optional[Callable] = None
    headline: Optional[Callable] = None
    key: Optional[tuple] = None
    check: Optional[Callable] = None
    setting: Optional[tuple] = None
    floor: str = field(default="")
    cost: Optional[Callable] = None
    stops_early: str = field(default="")
    claims: tuple = field(default=())
    added: Optional[dict] = None

    def __post_init__(self):
        self._check_declaration()
        self._check_added()
        grids = self.grid_axes()
        defaults = {
            "compute": self.sweep,
            "summary": self.default_summary,
            "figures": _no_figures,
            "report": self.default_report,
            "key": (*grids, "seed") if "seeds" in self.parameters else grids,
            "setting": tuple(p for p in self.parameters if p not in grids and p != "seeds"),
        }
        for name, value in defaults.items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, value)
        object.__setattr__(self, "key", tuple(self.key))
        object.__setattr__(self, "setting", tuple(self.setting))
        declared = set(self.parameters)
        unknown = sorted(set(self.setting) - declared)
        if unknown:
            raise ValueError(f"study {self.name!r}: setting names undeclared {unknown}.")
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

    def _check_declaration(self):
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise ValueError(
                "a study's name must be letters, digits and underscores, not starting "
                f"with a digit (it names files); got {self.name!r}.")
        if not isinstance(self.description, str):
            raise TypeError(f"study {self.name!r}: description must be a str; got "
                            f"{type(self.description).__name__}.")
        for name in ("parameters", "presets"):
            if not isinstance(getattr(self, name), dict):
                raise TypeError(f"study {self.name!r}: {name} must be a dict; got "
                                f"{type(getattr(self, name)).__name__}.")
        for name, constraints in self.parameters.items():
            if not isinstance(constraints, list) or not constraints:
                raise TypeError(
                    f"study {self.name!r}: parameter {name!r} must be declared with a "
                    f"non-empty list of constraints; got {constraints!r}.")
        if not callable(self.cell):
            raise TypeError(f"study {self.name!r}: cell must be a function; got "
                            f"{type(self.cell).__name__}.")
        for name in ("cells", "tabulate", "compute", "summary", "figures", "report",
                     "headline", "check", "cost"):
            value = getattr(self, name)
            if value is not None and not callable(value):
                raise TypeError(f"study {self.name!r}: {name} must be a function or None; "
                                f"got {type(value).__name__}.")
        if self.compute is not None and self.tabulate is not None:
            raise ValueError(
                f"study {self.name!r}: give either compute (a study of its own sweeps) or "
                "cells/tabulate (for the default sweep), not both: compute ignores them.")
        if "setting" in self.parameters:
            raise ValueError(
                f"study {self.name!r}: a parameter 'setting' clashes with the 'setting' "
                "column the runner writes into the stored table (the run's setting); "
                "rename the parameter.")
        if "seed" in self.parameters and "seeds" in self.parameters:
            raise ValueError(
                f"study {self.name!r}: a parameter 'seed' clashes with the 'seed' of each "
                "cell that the 'seeds' parameter gives.")
        if "quick" not in self.presets:
            raise ValueError(f"study {self.name!r}: presets must include 'quick' (every "
                             "parameter's value); other presets give their differences.")
        object.__setattr__(self, "claims", tuple(self.claims))
        for claim in self.claims:
            if not isinstance(claim, Claim):
                raise TypeError(f"study {self.name!r}: claims must be skxor.studies.Claim "
                                f"objects; got {type(claim).__name__}.")
        ids = [claim.id for claim in self.claims]
        if len(set(ids)) != len(ids):
            raise ValueError(f"study {self.name!r}: claim ids must be distinct; got {ids}.")

    def _check_added(self):
        added = {} if self.added is None else self.added
        if not isinstance(added, dict):
            raise TypeError(f"study {self.name!r}: added must be a dict of parameter names "
                            f"to values; got {type(added).__name__}.")
        object.__setattr__(self, "added", dict(added))
        grids = self.grid_axes()
        try:
            defaults = {name: p.default
                        for name, p in inspect.signature(self.cell).parameters.items()}
        except (TypeError, ValueError):
            defaults = {}
        for name, value in self.added.items():
            if name not in self.parameters:
                raise ValueError(f"study {self.name!r}: added names the undeclared "
                                 f"parameter {name!r}.")
            if name in grids:
                raise ValueError(
                    f"study {self.name!r}: added parameter {name!r} is a sweep axis; only "
                    "a scalar parameter can be left out of the cells at one value.")
            if name in defaults and defaults[name] != value:
                raise ValueError(
                    f"study {self.name!r}: the cell function's default for the added "
                    f"parameter {name!r} must be its value before it was added, {value!r}; "
                    f"got {defaults[name]!r} (a cell built without it would compute "
                    "another value).")
            if name not in defaults and _keywords(self.cell) is not None:
                raise ValueError(
                    f"study {self.name!r}: the cell function takes no {name!r}, so it "
                    "cannot default to the added parameter's value.")

    # -- parameters --------------------------------------------------------------------

    def omitted(self, name, value):
        """Whether parameter ``name`` at ``value`` is left out of cells and settings.

        True exactly for a parameter of ``added`` at the value runs had
        before it was added (see the class's ``added``).

        Examples
        --------
        >>> from skxor.studies import get_study
        >>> study = get_study("sample_complexity")
        >>> study.omitted("k", 2), study.omitted("k", 3), study.omitted("n_test", 1000)
        (True, False, False)
        """
        if name not in self.added:
            return False
        before = self.added[name]
        if isinstance(value, (bool, np.bool_)) != isinstance(before, (bool, np.bool_)):
            return False  # True is not 1 here
        try:
            return bool(value == before)
        except (TypeError, ValueError):  # an array: never the earlier scalar
            return False

    def with_added(self, params):
        """``params`` with every ``added`` parameter it lacks at its earlier value.

        How a stored run's parameters, recorded before the parameter was
        added, read now.

        Examples
        --------
        >>> from skxor.studies import get_study
        >>> get_study("sample_complexity").with_added({"n_test": 1000})
        {'n_test': 1000, 'k': 2}
        """
        return {**params, **{name: value for name, value in self.added.items()
                             if name not in params}}


    def grid_axes(self):
        """The names of the sweep axes (parameters declared with a :class:`Grid`), in order.

        Examples
        --------
        >>> from skxor.studies import get_study
        >>> get_study("one_step").grid_axes()
        ('attention', 'd', 'm', 'n', 'step_length', 'n_steps')
        """
        return tuple(name for name, constraints in self.parameters.items()
                     if any(isinstance(c, Grid) for c in constraints))

    def preset(self, name):
        """Every parameter of preset ``name``: ``quick`` updated with its differences.

        Examples
        --------
        >>> from skxor.studies import get_study
        >>> quick, full = get_study("one_step").preset("quick"), get_study("one_step").preset("full")
        >>> quick["seeds"], full["seeds"], full["attention"] == quick["attention"]
        (24, 30, True)
        """
        if name not in self.presets:
            raise ValueError(
                f"preset must be one of {sorted(self.presets)}; got {name!r}."
            )
        return merge_preset(self.presets, name)

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

    def params(self, preset="quick", overrides=None):
        """The validated parameters of ``preset`` with ``overrides`` applied.

        A single value for a sweep axis is a list of one.

        Raises
        ------
        ValueError
            Unknown preset or parameter, a value outside its declared
            constraints (scikit-learn's ``InvalidParameterError``, naming the
            parameter and the values it accepts), or a broken rule between
            parameters.

        Examples
        --------
        >>> from skxor.studies import get_study
        >>> get_study("one_step").params("quick", {"d": 50, "seeds": 2})["d"]
        [50]
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

    # -- running -----------------------------------------------------------------------

    def grid_cells(self, params):
        """The default cells: every combination of the grid axes, seeds and scalars.

        Each cell holds every grid axis, ``seed`` (one cell per
        ``range(params["seeds"])`` when the study has ``seeds``) and the
        scalar parameters the cell function takes (all of them when it takes
        ``**kwargs``), in the order of scikit-learn's ``ParameterGrid``. A
        parameter of ``added`` at its earlier value is left out (the cell
        keeps the key its checkpoints had before the parameter was added).

        Parameters
        ----------
        %(study_params)s

        Returns
        -------
        cells : list of dict

        Examples
        --------
        >>> from skxor.studies import get_study
        >>> study = get_study("sample_complexity")
        >>> cells = study.grid_cells(study.params("quick", {"d": [16], "seeds": 2}))
        >>> len(cells), sorted(cells[0])
        (4, ['d', 'ffnn_n_max', 'model', 'n_max', 'n_min', 'n_sizes', 'n_test', 'seed', 'target'])
        >>> cells = study.grid_cells(study.params("quick", {"d": [16], "seeds": 2, "k": 3}))
        >>> cells[0]["k"]
        3
        """
        return list(self.iter_grid_cells(params))

    def iter_grid_cells(self, params):
        """:meth:`grid_cells` one cell at a time, without building the list.

        Examples
        --------
        >>> from skxor.studies import get_study
        >>> study = get_study("sample_complexity")
        >>> cells = study.iter_grid_cells(study.params("quick", {"d": [16], "seeds": 10**8}))
        >>> next(cells)["seed"], next(cells)["seed"]
        (0, 1)
        """
        grids = self.grid_axes()
        takes = _keywords(self.cell)
        lists = {}
        for name, value in params.items():
            if name in grids:
                lists[name] = list(value)
            elif name == "seeds" and "seed" not in params:
                lists["seed"] = range(int(value))
            elif self.omitted(name, value):
                continue  # the cell function's default: the cell keeps its earlier key
            elif takes is None or name in takes:
                lists[name] = [value]
        return (dict(cell) for cell in ParameterGrid(lists))

    def count_cells(self, params):
        """The number of cells a run of ``params`` computes, without building them.

        The product of the grid axes' lengths and ``seeds`` for the default
        cells (``seeds=100000000`` answers at once); a ``cells`` hook's list
        is built and counted.

        Examples
        --------
        >>> from skxor.studies import get_study
        >>> study = get_study("sample_complexity")
        >>> params = study.params("quick", {"d": [16], "seeds": 10**8})
        >>> study.count_cells(params)
        200000000
        """
        if self.cells is not None:
            return len(hook_result(self.name, "cells", self.cells(params), list))
        count = 1
        for name in self.grid_axes():
            count *= len(params[name])
        if "seeds" in params and "seed" not in params:
            count *= int(params["seeds"])
        return count

    def sweep(self, params, *, checkpoint_dir=None, n_jobs=None, progress=False,
              scheduler=None):
        """The default ``compute``: ``cells`` through :func:`run_sweep`, then ``tabulate``.

        Parameters
        ----------
        %(study_params)s
        %(study_options)s

        Returns
        -------
        table : pandas.DataFrame
            Stamped with the run (:meth:`stamp`).
        """
        from ._sweep import run_sweep

        cells = (hook_result(self.name, "cells", self.cells(params), list)
                 if self.cells is not None else self.grid_cells(params))
        table = run_sweep(
            self.cell, cells, study=self.name, checkpoint_dir=checkpoint_dir, n_jobs=n_jobs,
            progress=progress, scheduler=scheduler,
        )
        if self.tabulate is not None:
            table = hook_result(self.name, "tabulate", self.tabulate(table, params), pd.DataFrame)
        return self.stamp(table, params)

    def stamp(self, table, params, floor_description=None):
        """Record the run on ``table.attrs``: its parameters, preset, rows and floor.

        The runner reads ``floor_seconds`` (the sum of the table's
        ``floor_seconds`` column, when it has one) and ``floor_description``
        (``floor_description``, by default the study's ``floor``); a report
        names the preset only while the table holds exactly this run's
        ``rows`` (see :func:`run_preset`).

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
        table.attrs.update(params=params, preset=self.preset_of(params), rows=len(table))
        if "floor_seconds" in table:
            table.attrs.update(
                floor_seconds=float(table["floor_seconds"].sum()),
                floor_description=(floor_description or self.floor
                                   or "the work each cell timed as its floor_seconds"),
            )
        return table

    def run(
        self, preset="quick", *, checkpoint_dir=None, n_jobs=None, progress=False,
        scheduler=None, **overrides,
    ):
        """Validate the parameters, then compute the study's table.

        Parameters
        ----------
        preset : str, default="quick"
            One of the study's presets.
        %(study_options)s
        **overrides
            Parameters replacing the preset's (a single value for a sweep
            axis is a list of one).

        Returns
        -------
        table : pandas.DataFrame

        Examples
        --------
        >>> from skxor.studies import get_study
        >>> get_study("one_step").run(d=[50], m=[8], seeds=1, n_test=100,
        ...                           step_length=[100.0], n_steps=[1]).shape[0]
        3
        """
        params = self.params(preset, overrides)
        return self.compute(
            params, checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
            scheduler=scheduler,
        )

    def function(self, doc, name=None):
        """The study's public function, ``f(preset="quick", *, checkpoint_dir=None, ...)``.

        The function runs :meth:`run`; it belongs to the module calling
        ``function`` (so that its doctests run with that module's), and its
        docstring is ``doc`` with a line holding only the placeholder
        ``study_options`` (written as the shared entries of
        ``skxor._utils._docstrings.fill_doc`` are) replaced by the entries of
        ``checkpoint_dir``, ``n_jobs``, ``progress`` and ``scheduler``.

        Parameters
        ----------
        doc : str
            The numpydoc docstring, with a doctested Examples section.
        name : str or None, default=None
            The function's name; None: the study's name.

        Returns
        -------
        function : callable

        Examples
        --------
        >>> from skxor.papers import one_step
        >>> one_step.__name__, one_step.__module__
        ('one_step', 'skxor.papers.han_ghoshdastidar.one_step')
        """
        study = self

        def run(preset="quick", *, checkpoint_dir=None, n_jobs=None, progress=False,
                scheduler=None, **overrides):
            return study.run(preset, checkpoint_dir=checkpoint_dir, n_jobs=n_jobs,
                             progress=progress, scheduler=scheduler, **overrides)

        caller = sys._getframe(1).f_globals
        function = types.FunctionType(run.__code__, caller, name or self.name,
                                      run.__defaults__, run.__closure__)
        function.__kwdefaults__ = dict(run.__kwdefaults__)
        function.__qualname__ = function.__name__
        function.__doc__ = _fill_options(doc)
        return fill_doc(function)

    # -- outputs -----------------------------------------------------------------------

    def default_summary(self, table):
        """The summary of a study that declares none: :func:`~skxor.studies.reporting.summary_table`.

        Per key without ``seed``: each boolean (or 0/1) result as a rate with
        its Wilson 95% interval over the group's rows (the seeds), each other
        numeric result as its mean, and the number of ``rows``.
        """
        by = [k for k in self.key if k != "seed" and k in table]
        return summary_table(table, by, skip=[*self.parameters, "seed"])

    def default_report(self, table, summary=None):
        """The report of a study that declares none: :func:`~skxor.studies.reporting.study_section`."""
        return study_section(self, table, summary)

    def render(self, hook, table, summary=None):
        """Call a renderer of the study on one setting's rows and their summary.

        The one place where the runner, ``skxor publish``, ``skxor
        headline`` and the claims table call ``report``, ``figures``,
        ``headline`` and a claim's ``rule``: the hook gets the keywords it
        names, ``summary`` and/or ``table``; a hook naming neither (a
        function of one argument written before the summary was handed on,
        ``report(df)``) gets the rows; one taking ``**kwargs`` gets both.

        Parameters
        ----------
        hook : {"report", "figures", "headline"} or callable
            A renderer of the study, or a function such as a claim's ``rule``.
        table : pandas.DataFrame
            The rows of one setting.
        summary : object or None, default=None
            ``self.summary(table)``, computed once by the caller; None:
            computed here when the hook names it.

        Returns
        -------
        result : object
            What the hook returns.

        Examples
        --------
        >>> import pandas as pd
        >>> from skxor.studies import get_study
        >>> study = get_study("one_step")
        >>> table = pd.DataFrame({"attention": ["softmax"] * 2, "n": 0, "d": 100, "m": 16,
        ...                       "n_steps": 1, "step_length": 100.0, "seed": [0, 1],
        ...                       "success": True, "specialised": True,
        ...                       "loss_after_step": 0.0})
        >>> study.render("headline", table, study.summary(table))[-24:]
        '2/2 = 1.00 [0.34, 1.00].'
        >>> study.render(lambda df: len(df), table)  # an old-style hook gets the rows
        2
        """
        function = getattr(self, hook) if isinstance(hook, str) else hook
        takes = _keywords(function)
        if takes is None:
            if summary is None:
                summary = self.summary(table)
            return function(table=table, summary=summary)
        kwargs = {}
        if "summary" in takes:
            kwargs["summary"] = self.summary(table) if summary is None else summary
        if "table" in takes:
            kwargs["table"] = table
        return function(**kwargs) if kwargs else function(table)


def _no_figures(table):
    return {}


def _keywords(function):
    """The keyword names ``function`` takes, or None when it takes ``**kwargs``."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    kinds = [p.kind for p in signature.parameters.values()]
    if inspect.Parameter.VAR_KEYWORD in kinds:
        return None
    return {name for name, p in signature.parameters.items()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def _fill_options(doc):
    lines = []
    for line in (doc or "").splitlines():
        if line.strip() == "%(study_options)s":
            indent = line[: len(line) - len(line.lstrip())]
            lines += [indent + entry if entry else entry for entry in _OPTIONS.splitlines()]
        else:
            lines.append(line)
    return "\n".join(lines)


Study.sweep.__doc__ = _fill_options(Study.sweep.__doc__)
Study.run.__doc__ = _fill_options(Study.run.__doc__)
fill_doc(Study.grid_cells)
fill_doc(Study.sweep)
fill_doc(Study.run)


def merge_preset(presets, name):
    """Every parameter of preset ``name`` of ``presets``: ``quick`` updated with its differences.

    Tuples become lists (as parameters given on the command line are).

    Examples
    --------
    >>> from skxor.studies._study import merge_preset
    >>> merge_preset({"quick": {"d": (8, 16), "seeds": 2}, "full": {"seeds": 5}}, "full")
    {'d': [8, 16], 'seeds': 5}
    """
    params = dict(presets["quick"])
    params.update(presets[name])
    return {k: list(v) if isinstance(v, tuple) else v for k, v in params.items()}
