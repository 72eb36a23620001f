"""The entry points through which installed packages register studies.

Read by the registry (which loads them) and by the command line (which
only asks whether any but the library's own exist, without importing the
registry), so both read the same group the same way.
"""

from importlib import metadata

#: The entry-point group through which an installed package registers studies:
#: each entry point names a Study (``my_package.my_study:STUDY``), a module
#: holding one (``my_package.my_study``), or a module whose ``STUDIES`` lists
#: several in the order to show them (skxor's own papers register so).
ENTRY_POINT_GROUP = "skxor.studies"


def study_entry_points():
    """The installed entry points of :data:`ENTRY_POINT_GROUP` (none where metadata is broken).

    Examples
    --------
    >>> from skxor._utils._entry_points import study_entry_points
    >>> any(point.value.startswith("skxor.") for point in study_entry_points())
    True
    """
    try:
        return metadata.entry_points(group=ENTRY_POINT_GROUP)
    except Exception:  # pragma: no cover - a broken installation's metadata
        return []
