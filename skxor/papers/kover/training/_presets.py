"""The training study's parameters and presets (read by its summaries too)."""

from numbers import Integral, Real


from skxor._utils._sklearn_compat import Interval, Options, StrOptions
from skxor.boolean import NAMED_FUNCTIONS
from skxor.estimators import BooleanTransformerClassifier
from skxor.studies import POSITIVE, SEEDS, Grid, estimator_parameters
from .._profiling import STRING_BY_STRING_MAX
from ._cells import BUDGET_KEYS, MODEL_SETTINGS


class Budgets(Options):
    """Constraint: budgets that differ from ``n_steps``, a list of blocks (or None).

    Each block is a dict with ``n_steps`` (a positive int) and, to narrow
    the runs it budgets, ``function`` (names) and/or ``n_bits`` (lengths),
    each one value or a list, as in a scikit-learn ``param_grid``; the first
    block naming a run's function and N sets its budget.

    Examples
    --------
    >>> from skxor.papers.kover.training._presets import Budgets
    >>> budgets = Budgets()
    >>> budgets.is_satisfied_by([{"function": "PARITY", "n_bits": [4, 8], "n_steps": 20000}])
    True
    >>> budgets.is_satisfied_by([{"function": "PARITY"}]), budgets.is_satisfied_by(None)
    (False, True)
    """

    _checks = {
        "function": Grid(StrOptions(NAMED_FUNCTIONS.keys())),
        "n_bits": Grid(POSITIVE),
        "n_steps": POSITIVE,
    }

    def __init__(self):
        super().__init__(list, set())

    def _block_ok(self, block):
        if not isinstance(block, dict) or "n_steps" not in block or set(block) - BUDGET_KEYS:
            return False
        listed = lambda v: v if isinstance(v, (list, tuple)) else [v]  # noqa: E731
        return all(
            self._checks[key].is_satisfied_by(value if key == "n_steps" else listed(value))
            and not (key == "n_steps" and isinstance(value, bool))
            for key, value in block.items())

    def is_satisfied_by(self, val):
        return val is None or (isinstance(val, (list, tuple))
                               and all(self._block_ok(b) for b in val))

    def __str__(self):
        return ("None or a list of dicts, each with 'n_steps' (a positive int) and "
                "optionally 'function' (names) and 'n_bits' (lengths)")

#: Every parameter of the study and the values it accepts.
PARAMETERS = {
    # The registry's names when a value is checked (a function registered later too).
    "function": [Grid(StrOptions(NAMED_FUNCTIONS.keys()))],
    "n_bits": [Grid(POSITIVE)],
    "model_setting": [Grid(StrOptions(set(MODEL_SETTINGS)))],
    # The classifier's own constraints for what is passed to it unchanged.
    **estimator_parameters(
        BooleanTransformerClassifier,
        ("d_model", "n_layers", "n_heads", "learning_rate", "batch_size"),
    ),
    "n_steps": [POSITIVE],
    # Budgets per function and N that differ from n_steps.
    "budgets": [Budgets()],
    "check_every": [POSITIVE],
    "target_accuracy": [Interval(Real, 0, 1, closed="right")],
    # Accuracy over all 2^N strings is one forward pass per string (and
    # all_strings stops at 24): refused up front, not after every cell trained.
    "exhaustive_max": [Interval(Integral, 0, STRING_BY_STRING_MAX, closed="both")],
    "n_eval": [POSITIVE],
    "n_samples": [POSITIVE],
    "device": [str],
    **SEEDS,
}


PRESETS = {
    # Seconds on one core: a rough look (2 seeds), not a result.
    "quick": dict(
        function=list(NAMED_FUNCTIONS),
        n_bits=[4, 6, 8],
        d_model=16,
        n_layers=2,
        n_heads=4,
        model_setting=["library", "paper_xavier_uniform"],
        learning_rate=3e-3,
        batch_size=32,
        n_steps=150,
        budgets=None,
        check_every=25,
        # Stop only above the success threshold (LEARNED = 0.99): stopping at
        # 0.99 on the monitoring strings leaves runs just below it on the rest.
        target_accuracy=0.999,
        seeds=2,
        exhaustive_max=16,
        n_eval=2000,
        n_samples=200,
        device="cpu",
        random_state=0,
    ),
    # Only the differences from quick: what the documents cite. The model
    # settings are quick's, the library's beside Köver et al.'s (Xavier-uniform);
    # N up to 128, 10 seeds per cell, AdamW at learning rate 1e-3 on batches of
    # 128 fresh strings, budgets large enough not to be the limit where a
    # function is learnable at all: PARITY 20 000 steps up to N = 16 (where
    # exploratory runs learned it in about 200, 1 000-3 000 and over 10 000
    # steps; at batch 32 and learning rate 3e-3 it was not learned at N = 8
    # within 20 000), MAJORITY 4 000 (N = 128 reached the target in 1 200-1 400),
    # 1 000 for the rest (FIRST; PARITY from N = 32, judged at chance or
    # censored). About 80 min with n_jobs=2 on 2 cores.
    "full": dict(
        n_bits=[4, 8, 16, 32, 64, 128],
        learning_rate=1e-3,
        batch_size=128,
        n_steps=1000,
        budgets=[{"function": "PARITY", "n_bits": [4, 8, 16], "n_steps": 20000},
                 {"function": "MAJORITY", "n_steps": 4000}],
        check_every=50,
        seeds=10,
        n_samples=100,
    ),
}

# Köver et al.'s setting (eos read-out, fixed sinusoidal positions, eps = 0) in
# each of their four init schemes beside the library's, at the full preset's
# grid and budgets: 2.5x its cost, over three hours on 2 cores.
PRESETS["paper"] = dict(PRESETS["full"], model_setting=list(MODEL_SETTINGS))
