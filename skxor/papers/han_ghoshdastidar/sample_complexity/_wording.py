"""The sample-complexity study's wording: the phrase its report and figure titles share."""

from skxor.studies.reporting import preset_text
from ._summary import DEFAULT_K, _grid, setting_values


def setting_text(df):
    """'quick preset, 3 seeds, n from 16 to 8,192 (steps of at most x2.00)' for titles.

    A table of another parity than sparse XOR says so first ("3-sparse parity
    (3 heads), ..."); a k = 2 table reads as before the study took k.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.han_ghoshdastidar.sample_complexity._wording import setting_text
    >>> df = pd.DataFrame({"model": "m", "d": 8, "seed": [0, 1], "n": [10, 40], "k": 3})
    >>> setting_text(df)
    '3-sparse parity (3 heads), 2 seeds, n from 10 to 40 (steps of at most x4.00)'
    """
    sizes, ratio = _grid(df)
    ks = sorted(setting_values(df)["k"].unique()) if "k" in df else [DEFAULT_K]
    parity = "" if ks == [DEFAULT_K] else (
        f"{'/'.join(str(int(k)) for k in ks)}-sparse parity "
        f"({'/'.join(str(int(k)) for k in ks)} heads), ")
    return (f"{parity}{preset_text(df, ['model', 'd'], per='')}, n from {sizes.min():,} to "
            f"{sizes.max():,} (steps of at most x{ratio:.2f})")
