"""The registry of studies the command line can list and run."""

from dataclasses import dataclass
from typing import Callable

from ._one_step import PRESETS as ONE_STEP_PRESETS
from ._one_step import one_step, plot_one_step, report_one_step
from ._parameter_scaling import PRESETS as PARAMETER_SCALING_PRESETS
from ._parameter_scaling import (
    parameter_scaling,
    plot_parameter_scaling,
    report_parameter_scaling,
)
from ._random_init import PRESETS as RANDOM_INIT_PRESETS
from ._random_init import (
    plot_random_init_sensitivity,
    random_init_sensitivity,
    report_random_init_sensitivity,
)
from ._sample_complexity import PRESETS as SAMPLE_PRESETS
from ._sample_complexity import (
    plot_sample_complexity,
    report_sample_complexity,
    sample_complexity,
)
from ._training import PRESETS as TRAINING_PRESETS
from ._training import (
    plot_training_sensitivity,
    report_training_sensitivity,
    training_sensitivity,
)


@dataclass(frozen=True)
class Study:
    """A named study: how to run it, draw it and summarise it.

    Attributes
    ----------
    name : str
    description : str
    run : callable
        ``run(preset, *, checkpoint_dir, n_jobs, progress, scheduler, **overrides)``
        returning a pandas DataFrame.
    plot : callable
        ``plot(df)`` returning a dict of matplotlib figures.
    report : callable
        ``report(df)`` returning Markdown.
    presets : dict
        The preset parameters, for listing and validation.
    """

    name: str
    description: str
    run: Callable
    plot: Callable
    report: Callable
    presets: dict


STUDIES = {}


def register(study):
    """Add a study to the registry (name must be new)."""
    if study.name in STUDIES:
        raise ValueError(f"a study named {study.name!r} is already registered.")
    STUDIES[study.name] = study
    return study


def get_study(name):
    """The registered study called ``name`` (ValueError listing the names otherwise)."""
    if name not in STUDIES:
        raise ValueError(f"unknown study {name!r}; choose from {sorted(STUDIES)}.")
    return STUDIES[name]


register(Study(
    "one_step",
    "One gradient step: success, loss, attention on the support and head "
    "specialisation for softmax, linear and erf attention, vs d and m.",
    one_step, plot_one_step, report_one_step, ONE_STEP_PRESETS,
))
register(Study(
    "sample_complexity",
    "Learning curves (sklearn learning_curve): test accuracy vs n per d, the "
    "samples n*(d) needed for 95% accuracy and its fitted exponent.",
    sample_complexity, plot_sample_complexity, report_sample_complexity, SAMPLE_PRESETS,
))
register(Study(
    "parameter_scaling",
    "Smallest trainable-parameter count reaching 99% test accuracy vs d: the "
    "transformer (search over m) vs the two-layer FFNN (search over width), "
    "with log-log slopes.",
    parameter_scaling, plot_parameter_scaling, report_parameter_scaling,
    PARAMETER_SCALING_PRESETS,
))
register(Study(
    "random_init_sensitivity",
    "Sensitivity profiles of randomly initialised Boolean transformers (N, D, L, "
    "layer-norm epsilon 0 and 1e-5, many seeds) beside PARITY, MAJORITY and FIRST: "
    "zero-sensitivity fraction and average sensitivity.",
    random_init_sensitivity, plot_random_init_sensitivity, report_random_init_sensitivity,
    RANDOM_INIT_PRESETS,
))
register(Study(
    "training_sensitivity",
    "Boolean transformers trained on PARITY, MAJORITY and FIRST at growing N under a "
    "fixed budget: accuracy reached and the trained model's profile against the target's.",
    training_sensitivity, plot_training_sensitivity, report_training_sensitivity,
    TRAINING_PRESETS,
))
