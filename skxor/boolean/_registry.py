"""The named Boolean functions: one registry that the studies and the displays read.

A function added by :func:`register_function` is known, under its name, to
every study that profiles or trains on named functions and to the
``references`` of the sensitivity and Fourier displays; what a study needs to
know of it (where its strings' sensitivities sit) is an attribute of its
class (:attr:`BooleanFunction.sensitivity_clusters`).
"""

from types import MappingProxyType

from ._functions import BooleanFunction, First, Majority, Parity

_FUNCTIONS = {"PARITY": Parity, "MAJORITY": Majority, "FIRST": First}

#: The named Boolean functions, name -> class built as ``cls(n_bits)``, in
#: the order studies and figures show them (a read-only view of the registry).
NAMED_FUNCTIONS = MappingProxyType(_FUNCTIONS)


def register_function(name, function_class):
    """Register a Boolean function class under ``name``; every study and display then knows it.

    Parameters
    ----------
    name : str
        A new name, upper case (``"DICTATOR_LAST"``).
    function_class : type
        A subclass of :class:`BooleanFunction` built as
        ``function_class(n_bits)``; its ``sensitivity_clusters`` tell the
        studies where its strings' sensitivities sit.

    Returns
    -------
    function_class : type
        The same class.

    Examples
    --------
    >>> from skxor.boolean import NAMED_FUNCTIONS, Parity, register_function
    >>> class Odd(Parity):
    ...     pass
    >>> register_function("odd", Odd)
    Traceback (most recent call last):
    ...
    ValueError: name must be new and upper case; got 'odd' (taken: ['PARITY', 'MAJORITY', 'FIRST']).
    """
    if not isinstance(name, str) or not name or name != name.upper() or name in _FUNCTIONS:
        raise ValueError(f"name must be new and upper case; got {name!r} (taken: "
                         f"{list(_FUNCTIONS)}).")
    if not (isinstance(function_class, type) and issubclass(function_class, BooleanFunction)):
        raise TypeError(f"function_class must be a subclass of BooleanFunction; got "
                        f"{function_class!r}.")
    _FUNCTIONS[name] = function_class
    return function_class


def get_function(name, n_bits):
    """The named Boolean function ``name`` on ``n_bits`` bits.

    Parameters
    ----------
    name : str
        One of the keys of ``NAMED_FUNCTIONS`` ("PARITY", "MAJORITY",
        "FIRST"), in any case.
    n_bits : int
        String length N.

    Returns
    -------
    function : BooleanFunction
        ``NAMED_FUNCTIONS[name.upper()](n_bits)``.

    Raises
    ------
    ValueError
        If ``name`` names no registered function (the message lists them).

    Examples
    --------
    >>> from skxor.boolean import NAMED_FUNCTIONS, get_function
    >>> list(NAMED_FUNCTIONS)
    ['PARITY', 'MAJORITY', 'FIRST']
    >>> get_function("majority", 3)([[1, 1, 0], [1, 0, 0]]).tolist()
    [1, 0]
    >>> get_function("dictator", 3)
    Traceback (most recent call last):
    ...
    ValueError: name must be one of ['PARITY', 'MAJORITY', 'FIRST'] (any case); got 'dictator'.
    """
    key = name.upper() if isinstance(name, str) else None
    if key not in NAMED_FUNCTIONS:
        raise ValueError(
            f"name must be one of {list(NAMED_FUNCTIONS)} (any case); got {name!r}."
        )
    return NAMED_FUNCTIONS[key](n_bits)
