"""Renamed arguments, deprecated methods: the old way works for one release, with a FutureWarning."""

import functools
import warnings

from ._warnings import SkxorFutureWarning


def renamed_argument(value, old_value, new, old, owner):
    """The value of argument ``new``, also given under its former name ``old``.

    ``old_value`` is None unless the caller used the former name; then it is
    used, with a FutureWarning. Both given, or neither, is a TypeError.
    """
    if old_value is not None:
        if value is not None:
            raise TypeError(f"{owner} got both {new}={value!r} and its former name {old}.")
        warnings.warn(
            f"{owner}: the argument {old!r} was renamed {new!r} and the old name "
            "will be removed in the next release.",
            SkxorFutureWarning,
            stacklevel=3,
        )
        return old_value
    if value is None:
        raise TypeError(f"{owner} missing required argument {new!r}.")
    return value


def renamed_attribute(obj, new, old):
    """Read the former attribute name ``old`` of ``new``, with a FutureWarning."""
    warnings.warn(
        f"{type(obj).__name__}.{old} was renamed {new} and the old name will be "
        "removed in the next release.",
        SkxorFutureWarning,
        stacklevel=3,
    )
    return getattr(obj, new)


def deprecated_method(replacement):
    """Decorate a method to be removed: each call warns (FutureWarning) naming ``replacement``."""

    def decorate(method):
        @functools.wraps(method)
        def warned(self, *args, **kwargs):
            warnings.warn(
                f"{type(self).__name__}.{method.__name__} is deprecated and will be removed "
                f"in the next release; use {replacement} instead.",
                SkxorFutureWarning,
                stacklevel=2,
            )
            return method(self, *args, **kwargs)

        return warned

    return decorate
