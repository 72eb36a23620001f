"""The two papers skxor reproduces, each a package of studies.

* :mod:`skxor.papers.han_ghoshdastidar` -- sparse XOR (Han & Ghoshdastidar,
  arXiv 2502.07553): ``one_step``, ``sample_complexity``,
  ``parameter_scaling``, ``k_sparse``;
* :mod:`skxor.papers.kover` -- sensitivity (Köver et al., ICML 2026, arXiv
  2606.08768): ``random_init_sensitivity``, ``training_sensitivity``,
  ``zero_sensitivity_bound``, ``flip_effect``.

Each study is a :class:`skxor.studies.Study` declared with the framework's
public vocabulary only, and registered as any installed package's study is:
through the ``skxor.studies`` entry-point group (``pyproject.toml``), so that
:func:`skxor.studies.get_study` and ``skxor run NAME`` find it. The
functions below run one study in Python (``one_step(preset="quick")``
returns its table); ``get_study(name).render("report", table)`` and
``render("figures", table)`` write and draw any study's table.
"""

from .han_ghoshdastidar import STUDIES as _HAN
from .han_ghoshdastidar.k_sparse import KSparseSuccessDisplay, k_sparse
from .han_ghoshdastidar.one_step import (OneStepSuccessDisplay, best_steps, one_step,
                                         plot_attention_maps, summarize_one_step)
from .han_ghoshdastidar.parameter_scaling import ParametersNeededDisplay, parameter_scaling
from .han_ghoshdastidar.sample_complexity import (ESTIMATOR_PARAMS, SamplesNeededDisplay,
                                                  fit_exponents, n_star_per_seed,
                                                  sample_complexity,
                                                  sample_complexity_estimator,
                                                  samples_needed)
from ._removed import module_getattr
from .kover import STUDIES as _KOVER
from .kover.flip_effect import FlipChangeDisplay, flip_effect
from .kover.random_init import RandomInitShareDisplay, random_init_sensitivity
from .kover.training import LearnedShareDisplay, training_sensitivity
from .kover.zero_sensitivity_bound import (ZeroCountDisplay, summarize_bound,
                                           zero_sensitivity_bound)

#: Every study of the two papers, in the order ``skxor list`` shows them.
STUDIES = _HAN + _KOVER

#: ``plot_<study>`` and ``report_<study>`` were removed: an import says how the
#: study is rendered now (``get_study(name).render(hook, table)``).
__getattr__ = module_getattr(__name__, [study.name for study in STUDIES], headline=False)

__all__ = [
    "ESTIMATOR_PARAMS",
    "STUDIES",
    "FlipChangeDisplay",
    "KSparseSuccessDisplay",
    "LearnedShareDisplay",
    "OneStepSuccessDisplay",
    "ParametersNeededDisplay",
    "RandomInitShareDisplay",
    "SamplesNeededDisplay",
    "ZeroCountDisplay",
    "best_steps",
    "fit_exponents",
    "flip_effect",
    "k_sparse",
    "n_star_per_seed",
    "one_step",
    "parameter_scaling",
    "plot_attention_maps",
    "random_init_sensitivity",
    "sample_complexity",
    "sample_complexity_estimator",
    "samples_needed",
    "summarize_bound",
    "summarize_one_step",
    "training_sensitivity",
    "zero_sensitivity_bound",
]
