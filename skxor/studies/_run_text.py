"""The sentences on a run: its preset, seeds per cell, setting and the values it took.

Part of :mod:`skxor.studies.reporting`, which re-exports every name here.
"""

import numpy as np
import pandas as pd

__all__ = ["preset_text", "run_preset", "run_text", "seeds_text", "values_text"]


def values_text(values):
    """The distinct ``values``, sorted, as ``"1, 10, 100"`` (floats in ``%g``).

    Examples
    --------
    >>> from skxor.studies.reporting import values_text
    >>> values_text([100.0, 1.0, 10.0, 1.0]), values_text([3, 2])
    ('1, 10, 100', '2, 3')
    """
    return ", ".join(f"{v:g}" if isinstance(v, float) else str(v)
                     for v in sorted(set(values)))


def seeds_text(counts):
    """``"10 seeds"``, or ``"8-10 seeds"`` when the cells' seed ``counts`` differ.

    Examples
    --------
    >>> from skxor.studies.reporting import seeds_text
    >>> seeds_text([10, 10]), seeds_text([8, 10])
    ('10 seeds', '8-10 seeds')
    """
    counts = pd.Series(counts)
    low, high = counts.min(), counts.max()
    return f"{low} seeds" if low == high else f"{low}-{high} seeds"


def preset_text(table, by, *, per="per cell"):
    """``"quick preset, 10 seeds per cell"``: the run's preset (when the table is one run's) and seeds.

    Parameters
    ----------
    table : pandas.DataFrame
        A study's table with a ``seed`` column, stamped by
        :meth:`Study.stamp <skxor.studies.Study.stamp>`.
    by : list of str
        The columns of one cell (the seeds are counted per cell).
    per : str, default="per cell"
        Follows the seed count ("" for none).

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies.reporting import preset_text
    >>> table = pd.DataFrame({"d": [1, 1, 2], "seed": [0, 1, 0]})
    >>> preset_text(table, ["d"])
    '1-2 seeds per cell'
    >>> table.attrs.update(preset="quick", rows=3)
    >>> preset_text(table, ["d"], per="")
    'quick preset, 1-2 seeds'
    """
    preset = run_preset(table)
    where = "" if preset is None else f"{preset} preset, "
    seeds = table.groupby(list(by))["seed"].nunique() if by else [table["seed"].nunique()]
    return f"{where}{seeds_text(seeds)}" + (f" {per}" if per else "")


def run_text(table, study):
    """One sentence on the run behind ``table``: preset, seeds per cell and setting.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies import get_study
    >>> from skxor.studies.reporting import run_text
    >>> table = pd.DataFrame({"attention": "erf", "d": 10, "m": 2, "n": 0,
    ...                       "step_length": 1.0, "n_steps": 1, "n_test": 9,
    ...                       "seed": [0, 1]})
    >>> run_text(table, get_study("one_step"))
    'Run: 2 seeds per cell; setting: n_test=9.'
    """
    by = [k for k in study.key if k != "seed" and k in table]
    parts = []
    if "seed" in table:
        parts.append(preset_text(table, by))
    elif run_preset(table):
        parts.append(f"{run_preset(table)} preset")
    params = table.attrs.get("params") or {}
    setting = [f"{name}={_format(params[name])}" if name in params
               else f"{name}={_value(table[name])}"
               for name in study.setting if (name in params or name in table)
               and not (name in params and study.omitted(name, params[name]))]
    if setting:
        parts.append("setting: " + ", ".join(setting))
    return f"Run: {'; '.join(parts)}." if parts else ""


def _format(value):
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_format(v) for v in value) + "]"
    return f"{value:g}" if isinstance(value, (float, np.floating)) else str(value)


def _value(column):
    """The one value of a column, or ``{a, b}`` when the rows differ."""
    values = column.dropna().unique()
    if len(values) == 1:
        return _format(values[0])
    return "{" + ", ".join(_format(v) for v in sorted(values.tolist())) + "}"


def run_preset(table):
    """The preset ``table`` was computed with (see :meth:`Study.stamp`), or None.

    Named only when the table is exactly that run's rows: the runner passes a
    table merged with earlier runs, with the latest run's attrs.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies.reporting import run_preset
    >>> table = pd.DataFrame({"seed": [0, 1]})
    >>> table.attrs.update(preset="quick", rows=2)
    >>> run_preset(table), run_preset(pd.concat([table, table]))
    ('quick', None)
    """
    return table.attrs.get("preset") if table.attrs.get("rows") == len(table) else None
