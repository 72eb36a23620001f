"""The per-study wrappers that :meth:`Study.render <skxor.studies.Study.render>` replaced.

Each study package exported ``plot_<study>(table)``, ``report_<study>(table)``
and ``headline(table)``, three thin functions per study doing what
``get_study(name).render(hook, table)`` does for every study. An import of one
of them raises an ImportError naming that call.
"""

#: What each removed wrapper did: the hook of :meth:`Study.render` it called.
_HOOKS = {"plot": "figures", "report": "report", "headline": "headline"}


def removed_wrappers(study):
    """Removed wrapper name -> the ``Study.render`` hook it called, for ``study``.

    Examples
    --------
    >>> from skxor.papers._removed import removed_wrappers
    >>> removed_wrappers("one_step")
    {'plot_one_step': 'figures', 'report_one_step': 'report', 'headline': 'headline'}
    """
    return {(f"{kind}_{study}" if kind != "headline" else kind): hook
            for kind, hook in _HOOKS.items()}


def removed_error(module, name, study, hook):
    """The ImportError for ``module.name``, a wrapper removed in favour of ``Study.render``.

    Examples
    --------
    >>> from skxor.papers._removed import removed_error
    >>> print(removed_error("skxor.papers", "plot_k_sparse", "k_sparse", "figures"))
    skxor.papers.plot_k_sparse was removed: every study is drawn, reported and headlined the same way, with get_study("k_sparse").render("figures", table) (from skxor.studies import get_study).
    """
    return ImportError(
        f"{module}.{name} was removed: every study is drawn, reported and headlined the "
        f'same way, with get_study("{study}").render("{hook}", table) '
        "(from skxor.studies import get_study).")


def module_getattr(module, studies, *, headline=True):
    """A module ``__getattr__`` raising :func:`removed_error` for the wrappers of ``studies``.

    Parameters
    ----------
    module : str
        The module's name, for the message.
    studies : list of str
        The studies whose wrappers the module exported.
    headline : bool, default=True
        Whether the module exported the study's ``headline`` (each study
        package did; :mod:`skxor.papers` holds several studies, so none).

    Returns
    -------
    getattr : callable

    Examples
    --------
    >>> from skxor.papers.kover import flip_effect
    >>> flip_effect.plot_flip_effect
    Traceback (most recent call last):
    ...
    ImportError: skxor.papers.kover.flip_effect.plot_flip_effect was removed: every study is drawn, reported and headlined the same way, with get_study("flip_effect").render("figures", table) (from skxor.studies import get_study).
    """
    removed = {name: (study, hook) for study in studies
               for name, hook in removed_wrappers(study).items()
               if headline or hook != "headline"}

    def __getattr__(name):
        if name in removed:
            raise removed_error(module, name, *removed[name])
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__
