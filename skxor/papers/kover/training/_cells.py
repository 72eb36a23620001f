"""The cells of the training study: one training run, the cells of a run, the sweep."""

import json
import time

import numpy as np

from skxor._utils._validation import check_device
from skxor.boolean import NAMED_FUNCTIONS, all_strings, get_function
from skxor.estimators import BooleanTransformerClassifier
from ..._common import columns_first, expand_grid, key_seed, single_thread
from skxor.studies import floor_work
from skxor.studies import cell_version
from .._networks import forward_work, profile_work
from .._profiling import profile, profile_result


#: The model settings a run can train in: read-out, positions, init and eps.
MODEL_SETTINGS = {
    # The library's defaults (the setting of the earlier published runs).
    "library": dict(readout="last", positional="learned", init="default",
                    layer_norm_eps=1e-5),
    # Köver et al.'s setting (docs/settings.rst), one entry per init scheme.
    **{f"paper_{scheme}": dict(readout="eos", positional="sinusoidal", init=scheme,
                               layer_norm_eps=0.0)
       for scheme in ("uniform", "normal", "xavier_uniform", "xavier_normal")},
}


#: A run whose mean loss over its last quarter of checks (at least two) fell by
#: less than this fraction from the quarter before has a flat loss curve.
FLAT_TOLERANCE = 0.05


#: A run whose mean loss over its last quarter of checks (at least one) is at
#: least this share of ln 2 -- the logistic loss of the constant prediction
#: 1/2 -- ended at chance: nothing was learned, whatever the budget. A run that
#: did not learn but ended below it is censored by its budget: more steps
#: might have taken it to the target (a plateau rule cannot tell a slow descent
#: from a floor on these noisy per-check means).
CHANCE_SHARE = 0.9


def at_chance(loss_curve):
    """Whether a run's loss ended at chance (see :data:`CHANCE_SHARE`).

    Parameters
    ----------
    loss_curve : array-like or str
        The mean training loss of each check, or its JSON (the table's
        ``loss_curve`` column).

    Examples
    --------
    >>> from skxor.papers.kover.training import at_chance
    >>> at_chance([0.70, 0.69, 0.693, 0.692]), at_chance("[0.7, 0.4, 0.2, 0.1]")
    (True, False)
    """
    curve = np.asarray(json.loads(loss_curve) if isinstance(loss_curve, str) else loss_curve,
                       dtype=float)
    if not curve.size:
        raise ValueError("loss_curve is empty: a run logs at least one check.")
    window = max(1, curve.size // 4)
    return bool(curve[-window:].mean() >= CHANCE_SHARE * np.log(2))


def chance_plateau(loss_curve, check_every):
    """Steps a run spent at chance before its loss first fell below it.

    The checks before the first whose mean loss is below :data:`CHANCE_SHARE`
    ln 2, times ``check_every``: 0 when the first check is already below,
    every logged step when none is.

    Examples
    --------
    >>> from skxor.papers.kover.training import chance_plateau
    >>> chance_plateau("[0.695, 0.694, 0.693, 0.31, 0.02]", 50)
    150
    """
    curve = np.asarray(json.loads(loss_curve) if isinstance(loss_curve, str) else loss_curve,
                       dtype=float)
    below = np.flatnonzero(curve < CHANCE_SHARE * np.log(2))
    return int((below[0] if below.size else curve.size) * check_every)


#: An accuracy at or above this on the evaluation strings counts as learned.
LEARNED = 0.99


def _total_variation(p, q):
    return 0.5 * float(np.abs(np.asarray(p) - np.asarray(q)).sum())


def loss_status(loss_curve, reached_target):
    """How a run ended: ``"target"``, ``"flat"``, ``"budget"`` or ``"short"``, and the drop.

    ``"target"``: it stopped at the target accuracy. Otherwise the mean loss
    over the last quarter of the checks (at least two) is compared with the
    quarter before: a relative drop below :data:`FLAT_TOLERANCE` is a flat
    curve (``"flat"``: more steps would not have helped much), a larger one
    a curve still falling when the budget ran out (``"budget"``:
    budget-limited); fewer than four checks cannot tell (``"short"``).

    Returns
    -------
    status : str
    drop : float
        The relative drop (NaN when too short).

    Examples
    --------
    >>> from skxor.papers.kover.training import loss_status
    >>> loss_status([0.7, 0.69, 0.693, 0.692, 0.694, 0.693, 0.693, 0.692], False)[0]
    'flat'
    >>> loss_status([0.7, 0.5, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1], False)[0]
    'budget'
    >>> loss_status([0.7, 0.1], True)[0]
    'target'
    """
    curve = np.asarray(loss_curve, dtype=float)
    window = max(2, curve.size // 4)
    drop = float("nan")
    if curve.size >= 2 * window:
        before = curve[-2 * window:-window].mean()
        drop = float((before - curve[-window:].mean()) / before) if before > 0 else 0.0
    if reached_target:
        return "target", drop
    if not np.isfinite(drop):
        return "short", drop
    return ("flat" if drop < FLAT_TOLERANCE else "budget"), drop


def training_key(function, n_bits, model_setting, d_model, n_layers, n_heads, seed):
    """What identifies one training run's network and data: the whole cell but its budget.

    The budget and the step size are left out on purpose: the same run
    under a larger budget extends this one.

    Examples
    --------
    >>> from skxor.papers.kover.training import training_key
    >>> sorted(training_key("FIRST", 8, "library", 16, 2, 4, 0))
    ['d_model', 'function', 'model_setting', 'n_bits', 'n_heads', 'n_layers', 'seed']
    """
    return dict(function=function, n_bits=n_bits, model_setting=model_setting,
                d_model=d_model, n_layers=n_layers, n_heads=n_heads, seed=seed)


@cell_version(1, formerly="skxor.studies._training._cells")
def training_cell(
    function, n_bits, model_setting, seed, random_state, d_model, n_layers, n_heads,
    learning_rate, batch_size, n_steps, check_every, target_accuracy, exhaustive_max,
    n_eval, n_samples, device="cpu",
):
    """Train one transformer on one function and profile what it learned.

    The initial weights, the training strings and the monitoring and
    evaluation strings come from seeds derived from the cell's key
    (function, N, model setting, D, L, heads, seed index): no two cells
    share a network or data. The budget and step size are left out on
    purpose, so that the same run under a larger budget extends this one.
    """
    start = time.perf_counter()
    target = get_function(function, n_bits)
    setting = MODEL_SETTINGS[model_setting]
    key = training_key(function, n_bits, model_setting, d_model, n_layers, n_heads, seed)
    rng = np.random.default_rng(key_seed(random_state, 10, **key))
    monitor = rng.integers(0, 2, size=(check_every * batch_size, n_bits), dtype=np.uint8)
    clf = BooleanTransformerClassifier(
        d_model, n_layers, n_heads, learning_rate=learning_rate, batch_size=batch_size,
        max_iter=-(-n_steps // check_every), target_function=target,
        target_accuracy=target_accuracy, random_state=key_seed(random_state, 11, bits=32, **key),
        device=device, **setting,
    )
    with single_thread():
        with floor_work("fits"):
            clf.fit(monitor)
        if n_bits <= exhaustive_max:
            X_eval = all_strings(n_bits).astype(np.uint8)
        else:
            X_eval = rng.integers(0, 2, size=(n_eval, n_bits), dtype=np.uint8)
        profile_seed = key_seed(random_state, 12, bits=32, **key)
        with floor_work("accuracy and sensitivity profiles of the fitted models and targets"):
            accuracy = float(np.mean(clf.predict(X_eval) == target(X_eval)))
            learned = profile(clf.module_.to(check_device(device)), n_bits, exhaustive_max,
                              n_samples, profile_seed)
            wanted = profile(target, n_bits, exhaustive_max, n_samples, profile_seed)
    model = profile_result(learned)
    reference = profile_result(wanted)
    reached = bool(clf.accuracy_curve_[-1] >= target_accuracy)
    status, drop = loss_status(clf.loss_curve_, reached)
    return {
        **setting,
        "accuracy": accuracy,
        "learned": bool(accuracy >= LEARNED),
        "reached_target": reached,
        "steps": int(clf.n_iter_ * check_every),
        "final_loss": float(clf.loss_curve_[-1]),
        # The mean training loss of each stretch of check_every steps (JSON).
        "loss_curve": json.dumps([round(float(v), 6) for v in clf.loss_curve_]),
        "loss_drop": drop,
        "stop": status,
        "n_parameters": int(clf.n_parameters_),
        "method": model["method"],
        "n_strings": model["n_strings"],
        "zero_fraction": model["zero_fraction"],
        "average_sensitivity": model["average_sensitivity"],
        "constant": model["constant"],
        # Strings per sensitivity 0..N (JSON), the model's and the target's on
        # the same strings: the cluster shares are read off these.
        "histogram": json.dumps([int(c) for c in learned.counts]),
        "target_zero_fraction": reference["zero_fraction"],
        "target_average_sensitivity": reference["average_sensitivity"],
        "target_histogram": json.dumps([int(c) for c in wanted.counts]),
        "profile_distance": _total_variation(learned.fractions, wanted.fractions),
        "seconds": time.perf_counter() - start,
    }


#: What a block of the ``budgets`` parameter may name.
BUDGET_KEYS = frozenset({"function", "n_bits", "n_steps"})


def budget_of(function, n_bits, n_steps, budgets=None):
    """A run's budget: the first block of ``budgets`` naming its function and N, else ``n_steps``.

    Parameters
    ----------
    function : str
    n_bits : int
    n_steps : int
        The budget of every run that no block names.
    budgets : list of dict or None, default=None
        Blocks with ``n_steps`` and, to narrow them, ``function`` and/or
        ``n_bits`` (one value or a list; left out: every function or N).

    Examples
    --------
    >>> from skxor.papers.kover.training import budget_of
    >>> budgets = [{"function": "PARITY", "n_bits": [4, 8], "n_steps": 20000},
    ...            {"function": ["MAJORITY"], "n_steps": 4000}]
    >>> [budget_of(f, n, 600, budgets) for f, n in
    ...  [("PARITY", 8), ("PARITY", 32), ("MAJORITY", 128), ("FIRST", 4)]]
    [20000, 600, 4000, 600]
    """
    def names(block, key, value):
        wanted = block.get(key)
        if wanted is None:
            return True
        return value in (wanted if isinstance(wanted, (list, tuple)) else [wanted])

    for block in budgets or ():
        if names(block, "function", function) and names(block, "n_bits", n_bits):
            return int(block["n_steps"])
    return int(n_steps)


def training_cells(params):
    """The cells of a run with parameters ``params``, in sweep order.

    Each run's budget is :func:`budget_of` its function and N.

    Examples
    --------
    >>> from skxor.papers.kover.training import STUDY, training_cells
    >>> cells = training_cells(STUDY.preset("full"))
    >>> sorted({(c["function"], c["n_bits"], c["n_steps"]) for c in cells
    ...         if c["function"] != "FIRST"})[:8]  # doctest: +NORMALIZE_WHITESPACE
    [('MAJORITY', 4, 4000), ('MAJORITY', 8, 4000), ('MAJORITY', 16, 4000),
     ('MAJORITY', 32, 4000), ('MAJORITY', 64, 4000), ('MAJORITY', 128, 4000),
     ('PARITY', 4, 20000), ('PARITY', 8, 20000)]
    """
    scalars = {
        name: [params[name]]
        for name in ("d_model", "n_layers", "n_heads", "learning_rate", "batch_size",
                     "check_every", "target_accuracy", "exhaustive_max",
                     "n_eval", "n_samples", "device")
    }
    cells = expand_grid(
        function=params["function"], n_bits=params["n_bits"],
        model_setting=params["model_setting"], seed=list(range(params["seeds"])),
        random_state=[params["random_state"]], **scalars,
    )
    for cell in cells:
        cell["n_steps"] = budget_of(cell["function"], cell["n_bits"], params["n_steps"],
                                    params["budgets"])
    order = list(NAMED_FUNCTIONS)
    settings = list(MODEL_SETTINGS)
    cells.sort(key=lambda c: (order.index(c["function"]), c["n_bits"],
                              settings.index(c["model_setting"]), c["seed"]))
    return cells


def training_cost(cell):
    """The dry run's cost of a cell: ``("fit", work)``, its whole step budget and profile.

    Training steps (backward about two forward passes) and the checks every
    ``check_every`` steps; the budget is the most a run can use (early stops
    cost less).
    """
    shape = (cell["n_bits"], cell["d_model"], cell["n_layers"])
    passes = cell["n_steps"] * (cell["batch_size"] * 3 + cell["n_eval"] / cell["check_every"])
    return "fit", (forward_work(*shape) * passes
                   + profile_work(*shape, cell["exhaustive_max"], cell["n_samples"]))


def training_table(table, params):
    """The study's table from the sweep's: the key columns first."""
    return columns_first(table, ["function", "n_bits", "model_setting", "seed"])
