"""The registry of studies the command line can list and run.

Each study module declares one :class:`~skxor.studies.Study` (its ``STUDY``);
this module collects them, in the order ``skxor list`` shows them.
"""

from ._common import Study
from ._k_sparse import STUDY as _K_SPARSE
from ._one_step import STUDY as _ONE_STEP
from ._parameter_scaling import STUDY as _PARAMETER_SCALING
from ._random_init import STUDY as _RANDOM_INIT
from ._sample_complexity import STUDY as _SAMPLE_COMPLEXITY
from ._training import STUDY as _TRAINING
from ._zero_sensitivity_bound import STUDY as _ZERO_SENSITIVITY_BOUND

#: Registered studies by name.
STUDIES = {}


def register(study):
    """Add a study to the registry (its name must be new).

    Parameters
    ----------
    study : Study
        The study to add; ``skxor list`` shows studies in the order added.

    Returns
    -------
    study : Study
        The same study, now found by :func:`get_study` and ``skxor run``.

    Examples
    --------
    >>> from skxor.studies import STUDIES
    >>> list(STUDIES)[:2]
    ['one_step', 'sample_complexity']
    """
    if not isinstance(study, Study):
        raise TypeError(f"register takes a Study; got {type(study).__name__}.")
    if study.name in STUDIES:
        raise ValueError(f"a study named {study.name!r} is already registered.")
    STUDIES[study.name] = study
    return study


def get_study(name):
    """The registered study called ``name`` (ValueError listing the names otherwise).

    Examples
    --------
    >>> from skxor.studies import get_study
    >>> get_study("one_step").preset("full")["seeds"]
    30
    """
    if name not in STUDIES:
        raise ValueError(f"unknown study {name!r}; choose from {sorted(STUDIES)}.")
    return STUDIES[name]


for _study in (_ONE_STEP, _SAMPLE_COMPLEXITY, _PARAMETER_SCALING, _RANDOM_INIT, _TRAINING,
               _K_SPARSE, _ZERO_SENSITIVITY_BOUND):
    register(_study)
