"""The training study's parameters and presets (read by its summaries too)."""

from numbers import Real


from ..._utils._sklearn_compat import Interval, StrOptions
from ...boolean import NAMED_FUNCTIONS
from ...estimators import BooleanTransformerClassifier
from .._parameters import NON_NEGATIVE, POSITIVE, SEEDS, Grid, estimator_parameters
from ._cells import MODEL_SETTINGS

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
    "n_steps_majority": [POSITIVE, None],
    "check_every": [POSITIVE],
    "target_accuracy": [Interval(Real, 0, 1, closed="right")],
    "exhaustive_max": [NON_NEGATIVE],
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
        n_steps_majority=None,
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
    # N up to 128, 5 seeds per cell, at most 600 steps of 32 strings (about
    # 6 min with n_jobs=2 on 2 cores). A larger budget is ``paper``.
    "full": dict(
        n_bits=[4, 8, 16, 32, 64, 128],
        n_steps=600,
        check_every=50,
        seeds=5,
        n_samples=100,
    ),
    # Köver et al.'s setting (eos read-out, fixed sinusoidal positions, eps = 0)
    # in each of their four init schemes beside the library's: the full grid,
    # MAJORITY with a budget of 6000 steps so that its loss curve can flatten at
    # N >= 64 (each run stops at the target accuracy). Roughly 5x the full
    # preset's cost plus the MAJORITY runs: many hours on 2 cores.
    "paper": dict(
        n_bits=[4, 8, 16, 32, 64, 128],
        model_setting=list(MODEL_SETTINGS),
        n_steps=600,
        n_steps_majority=6000,
        check_every=50,
        seeds=5,
        n_samples=100,
    ),
}
