"""The k-sparse study's wording: how its report and figures name the data and the preset."""


def _data_label(n):
    """How a cell's data is named: the exact population, or n samples."""
    return "population (exact)" if n == 0 else f"n = {n:,} samples"


def _preset_label(df):
    """The presets the rows come from, for titles."""
    presets = sorted(set(df["preset"].dropna().astype(str))) if "preset" in df else []
    return "preset " + ("/".join(presets) if presets else "unknown")
