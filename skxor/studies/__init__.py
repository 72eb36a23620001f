"""Reproducible studies: checkpointed sweeps, tables and figures; your own with :class:`Study`.

What a study of one's own needs besides :class:`Study`, :class:`Grid` and
:class:`Claim` is public here too (see the user guide, "Your own study"):

* constraints for its parameters: :data:`POSITIVE` (an int >= 1),
  :data:`NON_NEGATIVE` (an int >= 0), :data:`AT_LEAST_TWO`;
* rates with their intervals: :func:`rate_with_interval` (a column of flags),
  :func:`wilson_interval` and :func:`clopper_pearson_interval` (counts);
* formatting: :func:`format_interval` (``"0.80 [0.49, 0.94]"``) and
  :func:`format_count` (``"4/5 networks = 0.80 [0.38, 0.96]"``);
* the floor: :func:`floor_work`, timing a cell's unavoidable work;
* claims: :func:`rate_verdict`, the verdict on a claimed rate at a claim's strength,
  :func:`rate_part` (one part of a claim) and :func:`judged` (a claim's row from
  its parts, Holm over them);
* checkpoints: :func:`cell_version`, marking a cell whose results changed.
"""

from ._claims import Claim, judged, rate_part, rate_verdict
from ._cost import dry_run_text, estimate
from ._publish import claims_table, publish, write_figures
from ._headline import render_headline, write_headline
from ._k_sparse import KSparseSuccessDisplay, k_sparse, plot_k_sparse, report_k_sparse
from ._one_step import (
    OneStepSuccessDisplay,
    best_steps,
    one_step,
    plot_attention_maps,
    plot_one_step,
    report_one_step,
    summarize_one_step,
)
from ._parameter_scaling import (
    ParametersNeededDisplay,
    parameter_scaling,
    plot_parameter_scaling,
    report_parameter_scaling,
)
from ._flip_effect import FlipChangeDisplay, flip_effect
from ._floor import floor_work
from ._parameters import AT_LEAST_TWO, NON_NEGATIVE, POSITIVE, Grid
from ._random_init import (
    RandomInitShareDisplay,
    plot_random_init_sensitivity,
    random_init_sensitivity,
    report_random_init_sensitivity,
)
from ._registry import STUDIES, get_study, load_study, register
from ._runner import run_studies
from ._sample_complexity import (
    ESTIMATOR_PARAMS,
    SamplesNeededDisplay,
    fit_exponents,
    n_star_per_seed,
    plot_sample_complexity,
    report_sample_complexity,
    sample_complexity,
    sample_complexity_estimator,
    samples_needed,
)
from ._stats import (
    clopper_pearson_interval,
    format_count,
    format_interval,
    rate_with_interval,
    wilson_interval,
)
from ._study import Study
from ._sweep import cell_version, run_sweep
from ._training import (
    LearnedShareDisplay,
    plot_training_sensitivity,
    report_training_sensitivity,
    training_sensitivity,
)
from ._zero_sensitivity_bound import (
    ZeroCountDisplay,
    plot_zero_sensitivity_bound,
    report_zero_sensitivity_bound,
    summarize_bound,
    zero_sensitivity_bound,
)
from .._utils._warnings import SkxorFutureWarning

__all__ = [
    "SamplesNeededDisplay",
    "ParametersNeededDisplay",
    "ZeroCountDisplay",
    "FlipChangeDisplay",
    "LearnedShareDisplay",
    "OneStepSuccessDisplay",
    "KSparseSuccessDisplay",
    "RandomInitShareDisplay",
    "ESTIMATOR_PARAMS",
    "best_steps",
    "AT_LEAST_TWO",
    "NON_NEGATIVE",
    "POSITIVE",
    "clopper_pearson_interval",
    "floor_work",
    "format_count",
    "format_interval",
    "rate_verdict",
    "rate_with_interval",
    "wilson_interval",
    "Claim",
    "cell_version",
    "claims_table",
    "judged",
    "rate_part",
    "dry_run_text",
    "estimate",
    "publish",
    "write_figures",
    "render_headline",
    "write_headline",
    "plot_zero_sensitivity_bound",
    "report_zero_sensitivity_bound",
    "summarize_bound",
    "zero_sensitivity_bound",
    "flip_effect",
    "Grid",
    "STUDIES",
    "Study",
    "get_study",
    "load_study",
    "k_sparse",
    "plot_k_sparse",
    "report_k_sparse",
    "register",
    "fit_exponents",
    "n_star_per_seed",
    "one_step",
    "plot_attention_maps",
    "summarize_one_step",
    "parameter_scaling",
    "plot_parameter_scaling",
    "plot_random_init_sensitivity",
    "plot_training_sensitivity",
    "random_init_sensitivity",
    "report_random_init_sensitivity",
    "report_training_sensitivity",
    "training_sensitivity",
    "report_parameter_scaling",
    "plot_one_step",
    "plot_sample_complexity",
    "report_one_step",
    "report_sample_complexity",
    "run_studies",
    "run_sweep",
    "sample_complexity",
    "sample_complexity_estimator",
    "samples_needed",
]

#: Names renamed to scikit-learn's spelling: the old one works for one release.
_RENAMED = {"summarise_one_step": "summarize_one_step", "summarise_bound": "summarize_bound"}


def __getattr__(name):
    if name in _RENAMED:
        import warnings

        warnings.warn(f"skxor.studies.{name} was renamed {_RENAMED[name]} and the old name "
                      "will be removed in the next release.", SkxorFutureWarning, stacklevel=2)
        return globals()[_RENAMED[name]]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
