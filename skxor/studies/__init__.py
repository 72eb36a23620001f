"""Reproducible studies: checkpointed sweeps, tables and figures; your own with :class:`Study`."""

from ._claims import Claim, judged, rate_part
from ._cost import dry_run_text, estimate
from ._publish import claims_table, publish, write_figures
from ._headline import render_headline, write_headline
from ._k_sparse import k_sparse, plot_k_sparse, report_k_sparse
from ._one_step import (
    one_step,
    plot_attention_maps,
    plot_one_step,
    report_one_step,
    summarise_one_step,
)
from ._parameter_scaling import (
    parameter_scaling,
    plot_parameter_scaling,
    report_parameter_scaling,
)
from ._parameters import Grid
from ._random_init import (
    plot_random_init_sensitivity,
    random_init_sensitivity,
    report_random_init_sensitivity,
)
from ._registry import STUDIES, get_study, load_study, register
from ._runner import run_studies
from ._sample_complexity import (
    fit_exponents,
    n_star_per_seed,
    plot_sample_complexity,
    report_sample_complexity,
    sample_complexity,
    samples_needed,
)
from ._study import Study
from ._sweep import cell_version, run_sweep
from ._training import (
    plot_training_sensitivity,
    report_training_sensitivity,
    training_sensitivity,
)
from ._zero_sensitivity_bound import (
    plot_zero_sensitivity_bound,
    report_zero_sensitivity_bound,
    summarise_bound,
    zero_sensitivity_bound,
)

__all__ = [
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
    "summarise_bound",
    "zero_sensitivity_bound",
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
    "summarise_one_step",
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
    "samples_needed",
]
