"""The sample-complexity study's wording: the phrase its report and figure titles share."""

from skxor.studies.reporting import preset_text
from ._summary import _grid


def setting_text(df):
    """'quick preset, 3 seeds, n from 16 to 8,192 (steps of at most x2.00)' for titles."""
    sizes, ratio = _grid(df)
    return (f"{preset_text(df, ['model', 'd'], per='')}, n from {sizes.min():,} to "
            f"{sizes.max():,} (steps of at most x{ratio:.2f})")
