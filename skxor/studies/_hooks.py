"""What the framework checks of a study hook's result before using it.

A study's hooks (``cells``, ``tabulate``, ``compute``, ``report``,
``figures``, ``headline``) are the study author's code: a wrong return type
or a figure name that cannot name a file is refused where it is returned,
with the study and the hook named, rather than deep inside a runner or
publisher.
"""

import re

import pandas as pd

def hook_result(study, hook, value, expected):
    """``value``, what the hook ``hook`` of ``study`` returned, if it is an ``expected``.

    ``expected`` is a type, or ``"figures"``: a dict of names to figures
    (objects with ``savefig``).

    Raises
    ------
    TypeError
        Naming the study, the hook, what it must return and what it returned.

    Examples
    --------
    >>> from skxor.studies._hooks import hook_result
    >>> hook_result("mine", "report", 3, str)
    Traceback (most recent call last):
    ...
    TypeError: study 'mine': its report hook must return a str; it returned int (3).
    """
    if expected == "figures":
        ok = isinstance(value, dict) and all(
            isinstance(k, str) and callable(getattr(v, "savefig", None)) for k, v in value.items())
        what = "a dict of names (str) to matplotlib figures"
    else:
        ok = isinstance(value, expected)
        what = f"a {'pandas DataFrame' if expected is pd.DataFrame else expected.__name__}"
    if not ok:
        raise TypeError(f"study {study!r}: its {hook} hook must return {what}; it returned "
                        f"{type(value).__name__} ({value!r:.60}).")
    if expected == "figures":
        _check_figure_names(study, hook, value)
    return value


#: A figure's name names its file, ``<study>_<name>.png``, beside the study's table.
_FIGURE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")


def _check_figure_names(study, hook, figures):
    """Refuse figure names that are not plain file-name parts, or that differ only in case.

    Examples
    --------
    >>> from skxor.studies._hooks import _check_figure_names
    >>> _check_figure_names("mine", "figures", {"../rates": None})
    Traceback (most recent call last):
    ...
    ValueError: study 'mine': its figures hook returned the figure name '../rates'; a figure name names its file (mine_<name>.png), so it is letters, digits, '_' and '-', starting with a letter or digit.
    """
    for name in figures:
        if not _FIGURE_NAME.match(name):
            raise ValueError(
                f"study {study!r}: its {hook} hook returned the figure name {name!r}; a "
                f"figure name names its file ({study}_<name>.png), so it is letters, "
                "digits, '_' and '-', starting with a letter or digit.")
    by_file = {}
    for name in sorted(figures):
        by_file.setdefault(name.lower(), []).append(name)
    clashes = [names for names in by_file.values() if len(names) > 1]
    if clashes:
        raise ValueError(
            f"study {study!r}: its {hook} hook returned the figure names "
            f"{' and '.join(map(repr, clashes[0]))}, which differ only in case: on a "
            "case-insensitive file system one file would overwrite the other.")
