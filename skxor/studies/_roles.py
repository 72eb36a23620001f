"""A study package's hooks, read from its modules by role.

A study laid out as the library's studies are (``docs/architecture.rst``)
draws in ``_display.py``, reports in ``_section.py``, headlines in
``_bullet.py`` and judges in ``_rules.py``, each under one name;
:func:`role_hooks` reads them so that a declaration names its package once
instead of importing and passing each hook.
"""

import importlib

__all__ = ["ROLE_HOOKS", "role_hooks"]

#: The hooks of :class:`~skxor.studies.Study` a role module gives: hook -> (module, name).
ROLE_HOOKS = {
    "figures": ("_display", "render_figures"),
    "report": ("_section", "render_report"),
    "headline": ("_bullet", "headline_text"),
    "claims": ("_rules", "CLAIMS"),
}


def role_hooks(package):
    """The hooks a study package's role modules give, as keywords of :class:`Study`.

    For each entry of :data:`ROLE_HOOKS` whose module the package has, the
    hook is that module's name: ``figures`` is ``<package>._display.render_figures``,
    ``report`` ``<package>._section.render_report``, ``headline``
    ``<package>._bullet.headline_text`` and ``claims`` ``<package>._rules.CLAIMS``.
    A module the package lacks gives no keyword (the :class:`Study` default
    applies); a module without its name is an error.

    Parameters
    ----------
    package : str
        The study package's module name (``__name__`` in its ``__init__.py``).

    Returns
    -------
    hooks : dict of str to object
        Keywords for :class:`Study`: ``Study(..., **role_hooks(__name__))``.

    Raises
    ------
    TypeError
        ``package`` not a non-empty str.
    ValueError
        No package of that name (a module that is not a package included).
    AttributeError
        A role module without the name of its hook.

    Examples
    --------
    >>> from skxor.studies import get_study, role_hooks
    >>> hooks = role_hooks("skxor.papers.kover.flip_effect")
    >>> sorted(hooks), hooks["report"] is get_study("flip_effect").report
    (['claims', 'figures', 'headline', 'report'], True)
    >>> role_hooks("json")  # a package of no role module: no hook
    {}
    """
    if not isinstance(package, str) or not package:
        raise TypeError(f"package must be a study package's module name (a str, __name__ "
                        f"in its __init__.py); got {package!r}.")
    try:
        found = importlib.import_module(package)
    except ModuleNotFoundError as error:
        if error.name is None or not (package == error.name
                                      or package.startswith(error.name + ".")):
            raise  # the package is there, and something it imports is not
        raise ValueError(f"role_hooks: no package {package!r} (no module {error.name!r}).") \
            from None
    if not hasattr(found, "__path__"):
        raise ValueError(f"role_hooks: {package!r} is a module, not a package: a study's role "
                         "modules (_display, _section, _bullet, _rules) live in its package.")
    hooks = {}
    for hook, (module, name) in ROLE_HOOKS.items():
        try:
            found = importlib.import_module(f"{package}.{module}")
        except ModuleNotFoundError as error:
            if error.name != f"{package}.{module}":
                raise  # the role module is there, and something it imports is not
            continue
        if not hasattr(found, name):
            raise AttributeError(f"{package}.{module} gives the hook {hook!r} of a study as "
                                 f"{name!r}, which it does not define.")
        hooks[hook] = getattr(found, name)
    return hooks
