"""What the studies' cells and tables share: seeds, threads, grids and column order.

The study declaration itself, :class:`~skxor.studies.Study`, lives in
:mod:`skxor.studies._study` (imported here too, for the study modules that
import it from this module); the report text the studies share lives in
:mod:`skxor.studies.reporting`.
"""

import contextlib

import numpy as np
from sklearn.model_selection import ParameterGrid
from sklearn.utils import Bunch

from skxor.studies.reporting import seeds_text
from skxor.studies.reporting import run_preset
from skxor.studies import Study

__all__ = [
    "Study",
    "budget_censored",
    "cell_seed",
    "columns_first",
    "expand_grid",
    "key_seed",
    "run_preset",
    "seeds_text",
    "single_thread",
]


def budget_censored(learned, stopped_by_budget, above_chance):
    """Which runs are censored by their budget: stopped by it while still above chance.

    The one censoring rule of every study that trains under a budget (the
    training study's K3 and the k-sparse study's v1 reference for H6). A
    run that did not learn is a *failure* when it ended at chance, or when
    it stopped before its budget (at its own target or stopping rule); it is
    *censored* when the budget stopped it while it was still above chance:
    more steps might have taken it to the target, so the data cannot say
    whether it would have learned, and a rate counts it both ways
    (:func:`~skxor.studies.claims.censored_rate_part`). Each study says what
    "above chance" means for its runs (the training study: a mean loss over
    the last quarter of checks below 0.9 ln 2; v1: an accuracy more than
    0.05 above 1/2 on all strings).

    Parameters
    ----------
    learned : array-like of bool
        Whether each run learned (a run that learned is never censored).
    stopped_by_budget : array-like of bool
        Whether each run ran until its budget (it did not stop earlier).
    above_chance : array-like of bool
        Whether each run ended above chance.

    Returns
    -------
    censored : ndarray of bool
        Flags of booleans or 0/1 only (anything else is a ValueError, as
        :func:`~skxor.studies.stats.as_flags`).

    Examples
    --------
    >>> from skxor.papers._common import budget_censored
    >>> budget_censored([True, False, False, False], [True, True, True, False],
    ...                 [True, True, False, True]).tolist()
    [False, True, False, False]
    """
    from skxor.studies.stats import as_flags

    learned = as_flags(learned, "learned")
    stopped = as_flags(stopped_by_budget, "stopped_by_budget")
    above = as_flags(above_chance, "above_chance")
    if not learned.shape == stopped.shape == above.shape:
        raise ValueError(f"learned, stopped_by_budget and above_chance need one entry per "
                         f"run; got shapes {learned.shape}, {stopped.shape} and {above.shape}.")
    return ~learned & stopped & above


def columns_first(table, first):
    """``table`` with the columns ``first`` leading, the others after them in their order.

    A column of ``first`` that ``table`` lacks (a part of the study that did
    not run) is added, as NaN, so that the key columns always exist.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers._common import columns_first
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
    >>> from skxor.papers._common import cell_seed
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
    >>> from skxor.papers._common import key_seed
    >>> key_seed(0, n_bits=4, seed=0) == key_seed(0, seed=0, n_bits=4.0)
    True
    >>> key_seed(0, n_bits=4, seed=0) == key_seed(0, n_bits=8, seed=0)
    False
    >>> key_seed(0, bits=32, n_bits=4) < 2 ** 32
    True
    >>> key_seed(0, init="uniform") == key_seed(0, init="normal")  # strings by text
    False
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


class Summary(Bunch):
    """A study's summary: its named parts (a :class:`~sklearn.utils.Bunch`).

    A study's summary holds every part its renderers and claims read; a
    table written for one of them (a claim's synthetic table, a headline's
    minimal one) may lack the columns another part reads.
    :meth:`add_readable` leaves such a part out instead of failing the
    summary the others need, and reading it re-raises why (the missing
    column's ``KeyError``), so that a renderer that needs it fails as it
    would have computing it.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers._common import Summary
    >>> summary = Summary(rows=2).add_readable(
    ...     pd.DataFrame({"x": [1, 2]}), total=lambda t: int(t["x"].sum()),
    ...     missing=lambda t: t["y"].sum())
    >>> sorted(summary), summary.total
    (['rows', 'total'], 3)
    >>> summary.missing
    Traceback (most recent call last):
    ...
    KeyError: 'y'
    """

    def __init__(self, **parts):
        super().__init__(**parts)
        object.__setattr__(self, "_missing", {})

    def add_readable(self, df, **computations):
        """Add ``name=computation(df)`` for each computation the table's columns allow."""
        for name, computation in computations.items():
            try:
                self[name] = computation(df)
            except KeyError as exc:
                self._missing[name] = exc
        return self

    def __getattr__(self, key):
        missing = self.__dict__.get("_missing", {})
        if key in missing:
            raise missing[key]
        return super().__getattr__(key)
