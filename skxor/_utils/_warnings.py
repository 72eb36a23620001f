"""The warnings skxor issues: each a subclass of :class:`SkxorWarning`.

Each also subclasses the standard category it used to be (RuntimeWarning,
UserWarning, FutureWarning), so filters and ``pytest.warns`` written for
those still match; the common base lets the test suite turn every warning of
skxor's own into an error (``filterwarnings`` in ``pyproject.toml``) while
third-party warnings stay warnings.
"""

__all__ = ["SkxorFutureWarning", "SkxorRuntimeWarning", "SkxorUserWarning", "SkxorWarning"]


class SkxorWarning(Warning):
    """Base class of every warning skxor issues."""


class SkxorRuntimeWarning(SkxorWarning, RuntimeWarning):
    """A result that needs attention (a file set aside, a rounding-sensitive model...)."""


class SkxorUserWarning(SkxorWarning, UserWarning):
    """An input that was read one of two ways; the message says which."""


class SkxorFutureWarning(SkxorWarning, FutureWarning):
    """A renamed argument or function, or a changed behaviour, to be removed."""
