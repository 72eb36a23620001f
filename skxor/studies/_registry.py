"""The registry of studies the command line can list and run, and loading a user's study.

Studies reach the registry in two ways, the library's own and a user's alike:
an installed package names them in the ``skxor.studies`` entry-point group
(the papers' eight studies are registered so, by skxor's own
``pyproject.toml``), loaded lazily the first time the registry is read; and
:func:`register` adds one at run time. :func:`load_study` takes the study of
a Python file of one's own (``skxor run my_study.py``). The framework itself
imports no study.
"""

import hashlib
import importlib
import importlib.util
import re
import sys
import warnings
from collections.abc import MutableMapping
from pathlib import Path

from ._study import Study
from .._utils._entry_points import ENTRY_POINT_GROUP, study_entry_points
from .._utils._warnings import SkxorRuntimeWarning


class _Registry(MutableMapping):
    """Registered studies by name, the installed ones loaded on first read.

    Loading lazily keeps ``import skxor.studies`` free of every study (and
    of torch), and lets a package's studies import the framework's public
    names without a circular import.
    """

    def __init__(self):
        self._studies = {}
        self._loaded = False

    def _load(self):
        if not self._loaded:
            self._loaded = True
            for study in _entry_point_studies():
                if study.name in self._studies:
                    warnings.warn(f"skxor: an installed package registers a study named "
                                  f"{study.name!r}, which is taken; it is left out.",
                                  SkxorRuntimeWarning, stacklevel=3)
                    continue
                _add(study)
        return self._studies

    def __getitem__(self, name):
        return self._load()[name]

    def __iter__(self):
        return iter(self._load())

    def __len__(self):
        return len(self._load())

    def __setitem__(self, name, study):
        # What register() does, for a caller that sets (a test's monkeypatch.setitem).
        if not isinstance(study, Study) or study.name != name:
            raise TypeError(f"STUDIES[{name!r}] takes a Study named {name!r}; use register().")
        self._load()[name] = study

    def __delitem__(self, name):
        del self._load()[name]

    def __repr__(self):
        return f"STUDIES({list(self)})"


#: Registered studies by name (:func:`register` adds one).
STUDIES = _Registry()


def _add(study):
    taken = {claim.id: name for name, other in STUDIES._studies.items()
             for claim in other.claims}
    clashes = sorted(claim.id for claim in study.claims if claim.id in taken)
    if clashes:
        raise ValueError(f"study {study.name!r} declares claim(s) {clashes}, already "
                         f"declared by {sorted({taken[c] for c in clashes})}.")
    STUDIES._studies[study.name] = study


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
    if study.name in STUDIES:  # reading STUDIES loads the installed studies first
        raise ValueError(f"a study named {study.name!r} is already registered.")
    _add(study)
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


def _study_of(module, where):
    """The Study of a module: its ``STUDY``, or the only Study among its attributes."""
    study = getattr(module, "STUDY", None)
    if isinstance(study, Study):
        return study
    if study is not None:
        raise ValueError(f"{where}: STUDY must be a skxor.studies.Study; got "
                         f"{type(study).__name__}.")
    found = {id(v): v for v in vars(module).values() if isinstance(v, Study)}
    if len(found) == 1:
        return next(iter(found.values()))
    if not found:
        raise ValueError(
            f"{where} defines no skxor.studies.Study: declare one as STUDY = Study(...) "
            "(see the user guide, 'Your own study').")
    names = sorted(study.name for study in found.values())
    raise ValueError(f"{where} defines {len(found)} studies ({', '.join(names)}); name the "
                     "one to run STUDY.")


def load_study(path):
    """The study declared in the Python file ``path`` (what ``skxor run path.py`` runs).

    The file is imported as a module of its own; its study is its ``STUDY``
    attribute, or else the only :class:`Study` it defines. Its cells run in
    joblib or dask workers like a library study's (their code travels with
    them), and their checkpoints are keyed by the study's name, the cell
    function's name and version (:func:`~skxor.studies.cell_version`) and
    the cell's parameters, so a rerun of the same file resumes (and warns,
    naming the cell, when the cell's code changed since).

    Parameters
    ----------
    path : str or path-like
        A ``.py`` file.

    Returns
    -------
    study : Study

    Raises
    ------
    ValueError
        The file does not exist, is not a ``.py`` file, cannot be imported
        (the message quotes the error), or defines no Study or several
        without a ``STUDY``.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from skxor.studies import load_study
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "squares.py"
    >>> _ = path.write_text(
    ...     "from skxor.studies import POSITIVE, Grid, Study\\n"
    ...     "def square(x, seed):\\n"
    ...     "    return {'y': x * x}\\n"
    ...     "STUDY = Study(name='squares', description='Squares.', cell=square,\\n"
    ...     "              parameters={'x': [Grid(POSITIVE)], 'seeds': [POSITIVE]},\\n"
    ...     "              presets={'quick': {'x': [1, 2], 'seeds': 1}})\\n")
    >>> study = load_study(path)
    >>> study.name, study.run()["y"].tolist()
    ('squares', [1, 4])
    """
    path = Path(path)
    if path.suffix != ".py":
        raise ValueError(f"a study file must be a .py file; got {str(path)!r}.")
    if not path.is_file():
        raise ValueError(f"no study file {str(path)!r} (no such file).")
    path = path.resolve()
    # A stable module name per file (pickles name the cell function by it).
    stem = re.sub(r"\W", "_", path.stem)
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:8]
    name = f"skxor_user_study_{stem}_{digest}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:  # the user's code: reported, never a traceback
        # (sys.exit in the file would otherwise end skxor with no message.)
        sys.modules.pop(name, None)
        raise ValueError(f"{path} could not be imported: {type(exc).__name__}: {exc}") from exc
    _pickle_by_value(module)
    return _study_of(module, str(path))


def _pickle_by_value(module):
    """Send the module's functions to joblib and dask workers by value, not by name.

    A worker cannot import a module loaded from a file path; cloudpickle
    then ships the cell function's code itself.
    """
    for name in ("joblib.externals.cloudpickle", "cloudpickle"):
        try:
            cloudpickle = importlib.import_module(name)
        except ImportError:
            continue
        register = getattr(cloudpickle, "register_pickle_by_value", None)
        if register is not None:
            register(module)


def _entry_point_studies():
    """The studies installed packages register (a broken one is warned about, skipped)."""
    studies = []
    for point in study_entry_points():
        try:
            value = point.load()
            found = _studies_of(value, f"entry point {point.name} ({point.value})")
        except Exception as exc:  # a plugin must not break the library
            warnings.warn(f"skxor: the study of entry point {point.name!r} ({point.value}) "
                          f"could not be loaded: {type(exc).__name__}: {exc}",
                          SkxorRuntimeWarning, stacklevel=2)
            continue
        studies.extend(found)
    return studies


def _studies_of(value, where):
    """The studies an entry point names: a Study, a module's ``STUDIES`` (a sequence of
    them, registered in its order) or the module's one Study (:func:`_study_of`)."""
    if isinstance(value, Study):
        return [value]
    many = getattr(value, "STUDIES", None)
    if many is not None:
        if isinstance(many, Study) or not all(isinstance(s, Study) for s in many):
            raise ValueError(f"{where}: STUDIES must be a sequence of skxor.studies.Study.")
        return list(many)
    return [_study_of(value, where)]
