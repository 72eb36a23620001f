"""A package's attributes imported when first used (PEP 562): what needs no torch starts fast.

``import torch`` alone takes seconds (more on a loaded machine); the command
line's ``--version``, ``--help``, ``list`` and argument errors need none of
it. A package lists which submodule defines each of its public names, and
the submodule is imported on the first access of one of them.
"""

import importlib


def lazy_attributes(package, sources):
    """Module-level ``__getattr__`` and ``__dir__`` of ``package``, importing on first use.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    sources : dict of str to str
        Each public name and the module (relative to ``package``, such as
        ``"._attention"``) that defines it.

    Returns
    -------
    getattr_, dir_ : callable
        To bind as the package's ``__getattr__`` and ``__dir__``.

    Examples
    --------
    >>> getattr_, dir_ = lazy_attributes("skxor", {"SparseXORTransformer": ".estimators"})
    >>> getattr_("SparseXORTransformer").__module__
    'skxor.estimators._sparse_xor'
    >>> "SparseXORTransformer" in dir_()
    True
    """

    def __getattr__(name):
        if name not in sources:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(sources[name], package), name)
        # Later look-ups find the attribute without this function.
        setattr(importlib.import_module(package), name, value)
        return value

    def __dir__():
        return sorted({*vars(importlib.import_module(package)), *sources})

    return __getattr__, __dir__
