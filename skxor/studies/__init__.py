"""The experiment framework: checkpointed sweeps, tables, reports, figures and claims.

Nothing here knows a Boolean function or a transformer: a study is a
:class:`Study` -- a cell function, its parameters (:class:`Grid` and the
constraints :data:`POSITIVE`, :data:`NON_NEGATIVE`, :data:`AT_LEAST_TWO`,
and scikit-learn's :class:`Interval` and :class:`StrOptions`, re-exported so
that a study imports no private scikit-learn module), presets, and optional hooks that summarise its table, draw it, write
its report section and headline, and judge its :class:`Claim` objects (read from a package's modules by role with
:func:`role_hooks`). The
papers' studies (:mod:`skxor.papers`) are declared with exactly this
vocabulary and registered as a user's study is: through the ``skxor.studies``
entry-point group (:data:`ENTRY_POINT_GROUP`), found by :func:`get_study`
and ``skxor run``, or from a file with :func:`load_study`.

The path of the data: a cell's results -> the table (:func:`run_sweep`,
checkpointed) -> the study's summary -> report section, figures, headline
and claims (:meth:`Study.render`) -> ``report.md`` (:func:`run_studies`)
and the published pages (:func:`publish`).

What a study author needs besides the names below lives in four public
modules: :mod:`skxor.studies.stats` (intervals and their formatting),
:mod:`skxor.studies.reporting` (Markdown sections and tables),
:mod:`skxor.studies.figures` (the figures' shared helpers and
:class:`~skxor.studies.figures.StudyDisplay`) and
:mod:`skxor.studies.claims` (claims, their parts and verdicts).
"""

from . import _parameters, claims, figures, reporting, stats
from ._cost import dry_run_text, estimate, format_duration
from ._floor import floor_work
from ._headline import render_headline, write_headline
from ._parameters import (AT_LEAST_TWO, NON_NEGATIVE, POSITIVE, SAMPLES, SEEDS, STEP_LENGTH,
                          Grid, Interval, StrOptions, estimator_parameters)
from ._publish import claims_table, publish, write_figures
from ._registry import ENTRY_POINT_GROUP, STUDIES, get_study, load_study, register
from ._roles import role_hooks
from ._runner import run_studies
from ._study import Study, merge_preset
from ._sweep import cell_version, run_sweep
from .claims import Claim, judged, rate_part, rate_verdict
from .stats import (clopper_pearson_interval, format_count, format_interval,
                    rate_with_interval, wilson_interval)

__all__ = [
    *_parameters.__all__,  # the parameter declarations, listed where they are defined
    "ENTRY_POINT_GROUP",
    "STUDIES",
    "Claim",
    "Study",
    "cell_version",
    "claims",
    "claims_table",
    "clopper_pearson_interval",
    "dry_run_text",
    "estimate",
    "figures",
    "floor_work",
    "format_count",
    "format_duration",
    "format_interval",
    "get_study",
    "judged",
    "load_study",
    "merge_preset",
    "publish",
    "rate_part",
    "rate_verdict",
    "rate_with_interval",
    "register",
    "render_headline",
    "reporting",
    "role_hooks",
    "run_studies",
    "run_sweep",
    "stats",
    "wilson_interval",
    "write_figures",
    "write_headline",
]

#: Names of the papers' studies that lived here before the framework and the
#: studies were split, and where each lives now (an ImportError says so).
_MOVED = {
    "ESTIMATOR_PARAMS": "skxor.papers",
    "FlipChangeDisplay": "skxor.papers",
    "KSparseSuccessDisplay": "skxor.papers",
    "LearnedShareDisplay": "skxor.papers",
    "OneStepSuccessDisplay": "skxor.papers",
    "ParametersNeededDisplay": "skxor.papers",
    "RandomInitShareDisplay": "skxor.papers",
    "SamplesNeededDisplay": "skxor.papers",
    "ZeroCountDisplay": "skxor.papers",
    "best_steps": "skxor.papers",
    "fit_exponents": "skxor.papers",
    "flip_effect": "skxor.papers",
    "k_sparse": "skxor.papers",
    "n_star_per_seed": "skxor.papers",
    "one_step": "skxor.papers",
    "parameter_scaling": "skxor.papers",
    "plot_attention_maps": "skxor.papers.han_ghoshdastidar.one_step",
    "random_init_sensitivity": "skxor.papers",
    "sample_complexity": "skxor.papers",
    "sample_complexity_estimator": "skxor.papers",
    "samples_needed": "skxor.papers",
    "summarise_bound": "skxor.papers (spelled summarize_bound)",
    "summarise_one_step": "skxor.papers (spelled summarize_one_step)",
    "summarize_bound": "skxor.papers",
    "summarize_one_step": "skxor.papers",
    "training_sensitivity": "skxor.papers",
    "zero_sensitivity_bound": "skxor.papers",
}


#: The per-study wrappers that lived here and were removed, each the study and the
#: hook of :meth:`Study.render` it called (an ImportError names that call).
_RENDERED = {
    f"{kind}_{study}": (study, hook)
    for study in ("one_step", "sample_complexity", "parameter_scaling", "k_sparse",
                  "random_init_sensitivity", "training_sensitivity",
                  "zero_sensitivity_bound")
    for kind, hook in (("plot", "figures"), ("report", "report"))
}


def __getattr__(name):
    if name in _RENDERED:
        study, hook = _RENDERED[name]
        raise ImportError(f"skxor.studies.{name} was removed: every study is drawn, reported "
                          f'and headlined the same way, with get_study("{study}").render('
                          f'"{hook}", table).')
    if name in _MOVED:
        raise ImportError(f"skxor.studies.{name} moved to {_MOVED[name]}: the framework "
                          "and the papers' studies live apart; import it "
                          f"from {_MOVED[name].split()[0]}.")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
