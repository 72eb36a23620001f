"""The parameter-scaling study's parameters and presets (read by its summaries and report)."""

from numbers import Integral, Real


from skxor._utils._sklearn_compat import Interval, StrOptions
from skxor.estimators import FFNNParityBaseline
from skxor.studies import AT_LEAST_TWO, POSITIVE, SEEDS, Grid, estimator_parameters
from ._cells import MODELS

_SHARE = Interval(Real, 0, 1, closed="right")
_LENGTH = Interval(Real, 0, None, closed="neither")

#: Every parameter of the study and the values it accepts.
PARAMETERS = {
    "model": [Grid(StrOptions(set(MODELS)))],
    # The XOR of two of the d bits.
    "d": [Grid(AT_LEAST_TWO)],
    "samples_d_max": [AT_LEAST_TWO],
    **SEEDS,
    "threshold": [_SHARE],
    "success_share": [_SHARE],
    "sizes_beyond": [Interval(Integral, 0, None, closed="left")],
    "n_test": [POSITIVE],
    "n_train_min": [POSITIVE],
    # Finite: (0, inf) open at both ends.
    "n_train_per_d2": [_LENGTH],
    "transformer_m": [Grid(POSITIVE)],
    "transformer_steps": [POSITIVE],
    "step_length": [_LENGTH],
    "one_step_length": [_LENGTH],
    "ffnn_width": [Grid(POSITIVE)],
    "rf_width": [Grid(POSITIVE)],
    "ffnn_steps": [POSITIVE],
    # The online FFNN: its widths, the d it runs to, its step budget max(min, per_d * d).
    "online_width": [Grid(POSITIVE)],
    "online_d_max": [AT_LEAST_TWO],
    "online_steps_min": [POSITIVE],
    "online_steps_per_d": [POSITIVE],
    "ffnn_batch_size": [POSITIVE],
    # The estimator's own constraints for what is passed to it unchanged.
    **estimator_parameters(FFNNParityBaseline, ("activation", "learning_rate"), prefix="ffnn_"),
}

PRESETS = {
    "quick": dict(
        # The online FFNN runs in the full preset: its failing widths take whole budgets.
        model=[m for m in MODELS if m != "ffnn_online"],
        d=[16, 32, 64, 128],
        samples_d_max=128,
        seeds=5,
        threshold=0.99,
        success_share=0.8,
        sizes_beyond=2,
        n_test=5000,
        n_train_min=2048,
        n_train_per_d2=1.0,
        transformer_m=[1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64],
        transformer_steps=5,
        step_length=20.0,
        one_step_length=100.0,
        ffnn_width=[1, 2, 3, 4, 6, 8, 12, 16],
        rf_width=[16, 64, 256, 1024],
        ffnn_activation="relu",
        ffnn_steps=256,
        online_width=[2, 3, 4, 6, 8, 12, 16, 24],
        online_d_max=2048,
        online_steps_min=2048,
        online_steps_per_d=32,
        ffnn_batch_size=128,
        ffnn_learning_rate=0.01,
        random_state=0,
    ),
    # Only the differences from quick: finite samples to d = 256 (65 536
    # training inputs), the online FFNN to d = 2048 (fresh samples, no
    # training set), the population rows on to d = 8192, 10 seeds per size.
    "full": dict(
        model=list(MODELS),
        d=[16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192],
        samples_d_max=256,
        seeds=10,
    ),
}
