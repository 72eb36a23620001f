"""The named Boolean functions: one registry that the studies and the displays read.

A function added to :data:`NAMED_FUNCTIONS` is known, under its name, to
every study that profiles or trains on named functions and to the
``references`` of the sensitivity and Fourier displays.
"""

from types import MappingProxyType

from ._functions import First, Majority, Parity

#: The named Boolean functions, name -> class built as ``cls(n_bits)``, in
#: the order studies and figures show them (read-only).
NAMED_FUNCTIONS = MappingProxyType({"PARITY": Parity, "MAJORITY": Majority, "FIRST": First})


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
