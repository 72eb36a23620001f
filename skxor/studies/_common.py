"""Helpers shared by the studies: presets, grids and log-log fits."""

import numpy as np
from sklearn.model_selection import ParameterGrid


def preset_params(presets, preset, overrides):
    """The preset's parameters with ``overrides`` applied, validated by name."""
    if preset not in presets:
        raise ValueError(f"preset must be one of {sorted(presets)}; got {preset!r}.")
    params = dict(presets[preset])
    unknown = sorted(set(overrides) - set(params))
    if unknown:
        raise ValueError(
            f"unknown parameter(s) {unknown}; this study takes {sorted(params)}."
        )
    for name, value in overrides.items():
        if isinstance(params[name], list) and not isinstance(value, (list, tuple)):
            value = [value]
        params[name] = list(value) if isinstance(value, tuple) else value
    return params


def expand_grid(**lists):
    """All combinations of the given value lists, as a list of dicts."""
    return [dict(cell) for cell in ParameterGrid(lists)]


def loglog_slope(x, y):
    """Least-squares slope of log(y) against log(x); NaN with < 2 finite points."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    keep = np.isfinite(x) & np.isfinite(y) & (x > 0) & (y > 0)
    if keep.sum() < 2 or np.unique(x[keep]).size < 2:
        return float("nan")
    return float(np.polyfit(np.log(x[keep]), np.log(y[keep]), 1)[0])
