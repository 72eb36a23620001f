"""Uncertainty for the studies: intervals for rates, bootstrap intervals for slopes.

Every success rate a study publishes carries a Wilson interval, every share
used as a lower bound a Clopper-Pearson (exact) interval, and every fitted
log-log slope a bootstrap interval over seeds -- from at least
:data:`MIN_BOOTSTRAP_GROUPS` (8) seeds: with fewer, a percentile bootstrap
draws from too few distinct resamples to mean anything (2 seeds give at most
3), so the slope comes with the range of the per-seed slopes instead, marked
rough. The functions here are the one place these are computed, so tables,
figures and reports agree.
"""

from numbers import Real

import numpy as np
from scipy import stats
from sklearn.utils import check_random_state

from .._utils._wilson import wilson_interval as wilson_counts_interval

#: The fewest independent groups (seeds) a bootstrap interval is drawn from.
MIN_BOOTSTRAP_GROUPS = 8

#: The caveat of a rate pooled over d: runs of one seed share a prefix of keys.
POOLED_OVER_D_CAVEAT = (
    "Runs of one seed at different d are not independent draws: for the same m, the "
    "keys at a smaller d are the first rows of those at a larger d. Intervals pooled "
    "over d and m therefore take the seeds as the independent units: a Wilson interval "
    "at the design-effect sample size of runs clustered by seed (Korn and Graubard, "
    "1998), never narrower than the Wilson interval over runs and, where all runs of "
    "each seed agree, the Wilson interval over seeds; where no seed differs from the "
    "pooled rate (a rate of 0 or 1) the design effect is taken as 1. The per-d rows do "
    "not share keys."
)

__all__ = [
    "MIN_BOOTSTRAP_GROUPS",
    "bootstrap_loglog_slope",
    "clopper_pearson_interval",
    "clustered_rate_interval",
    "format_count",
    "format_interval",
    "format_slope",
    "rate_with_interval",
    "wilson_interval",
]


def check_n_boot(n_boot):
    """``n_boot`` as an int, or a ValueError naming it (not int()'s TypeError or OverflowError)."""
    if (isinstance(n_boot, bool) or not isinstance(n_boot, Real) or not np.isfinite(n_boot)
            or n_boot != int(n_boot) or n_boot < 1):
        raise ValueError(f"n_boot must be a whole number >= 1; got {n_boot!r}.")
    return int(n_boot)


def check_confidence(confidence):
    """``confidence`` as a float in (0, 1), or a ValueError naming it."""
    if (isinstance(confidence, bool) or not isinstance(confidence, Real)
            or not 0 < confidence < 1):
        raise ValueError(f"confidence must be a number in (0, 1); got {confidence!r}.")
    return float(confidence)


def _check_counts(successes, n):
    successes = int(successes)
    n = int(n)
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n; got successes={successes}, n={n}.")
    return successes, n


def _binomial_interval(successes, n, confidence, method):
    """scipy's interval of a binomial proportion; ``(nan, nan)`` for no trials."""
    successes, n = _check_counts(successes, n)
    if n == 0:
        return float("nan"), float("nan")
    ci = stats.binomtest(successes, n).proportion_ci(confidence_level=confidence, method=method)
    return float(ci.low), float(ci.high)


def wilson_interval(successes, n, confidence=0.95):
    """Wilson score interval of a binomial proportion.

    Parameters
    ----------
    successes : int
        Number of successes.
    n : int
        Number of trials; with ``n = 0`` the interval is ``(nan, nan)``.
    confidence : float, default=0.95
        Coverage of the interval.

    Returns
    -------
    low, high : float

    Examples
    --------
    >>> from skxor.studies._stats import wilson_interval
    >>> [round(v, 3) for v in wilson_interval(9, 10)]
    [0.596, 0.982]
    """
    return _binomial_interval(successes, n, confidence, "wilson")


def clopper_pearson_interval(successes, n, confidence=0.95):
    """Exact (Clopper-Pearson) interval of a binomial proportion.

    Conservative: it covers the true proportion with at least ``confidence``,
    so its lower end is a safe lower bound (e.g. on an "almost surely").

    Examples
    --------
    With 10 successes in 10 trials the exact interval reaches lower than
    Wilson's:

    >>> from skxor.studies._stats import clopper_pearson_interval, wilson_interval
    >>> round(clopper_pearson_interval(10, 10)[0], 3), round(wilson_interval(10, 10)[0], 3)
    (0.692, 0.722)
    """
    return _binomial_interval(successes, n, confidence, "exact")


def rate_with_interval(flags, confidence=0.95):
    """Share of true values in ``flags`` with its Wilson interval.

    Returns
    -------
    rate, low, high, n : float, float, float, int
        NaN rate and interval for an empty input.

    Examples
    --------
    >>> from skxor.studies._stats import rate_with_interval
    >>> rate, low, high, n = rate_with_interval([True, True, False, True])
    >>> rate, n
    (0.75, 4)
    """
    flags = np.asarray(flags, dtype=bool).ravel()
    n = int(flags.size)
    if n == 0:
        return float("nan"), float("nan"), float("nan"), 0
    k = int(flags.sum())
    low, high = wilson_interval(k, n, confidence)
    return k / n, low, high, n


def clustered_rate_interval(flags, clusters, confidence=0.95):
    """Share of true ``flags`` with a Wilson interval that takes ``clusters`` as the units.

    Runs of one cluster (a seed whose draws several runs share) are not
    independent, so the interval is Wilson's at the effective sample size
    ``n_eff = rate (1 - rate) / v``, where ``v`` is the cluster-robust
    (sandwich) variance of the pooled rate, ``G / (G - 1) * sum_g (k_g -
    rate n_g)**2 / n**2`` over the ``G`` clusters (Korn and Graubard, 1998).
    ``n_eff`` is kept between ``G`` and ``n``: the interval is never
    narrower than Wilson's over all runs, and where every run of a seed
    agrees it is Wilson's over the ``G`` seeds. Where the seeds show no
    variation about the pooled rate (``v = 0``, e.g. a rate of 0 or 1) they
    carry no information on how the runs of a seed correlate, and the
    design effect is taken as 1 (``n_eff = n``), the convention of survey
    software (e.g. SAS's ``PROC SURVEYFREQ``): otherwise 359 successes in
    360 runs would get a narrower interval than 360 in 360. One seed is
    one unit (``n_eff = 1``).

    Parameters
    ----------
    flags : array-like of bool, shape (n_runs,)
    clusters : array-like of shape (n_runs,)
        The independent unit of each run, e.g. its seed.
    confidence : float, default=0.95

    Returns
    -------
    rate, low, high : float
        NaN for an empty input.
    n, n_clusters : int
    n_effective : float

    Examples
    --------
    Four seeds, each with three runs that agree: the interval is the one
    over four seeds, not over twelve runs.

    >>> from skxor.studies._stats import clustered_rate_interval, wilson_interval
    >>> flags = [True] * 9 + [False] * 3
    >>> seeds = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    >>> rate, low, high, n, groups, n_eff = clustered_rate_interval(flags, seeds)
    >>> rate, n, groups, n_eff
    (0.75, 12, 4, 4.0)
    >>> [round(v, 3) for v in (low, high)] == [round(v, 3) for v in wilson_interval(3, 4)]
    True
    """
    confidence = check_confidence(confidence)
    flags = np.asarray(flags, dtype=bool).ravel()
    clusters = np.asarray(clusters).ravel()
    if clusters.shape != flags.shape:
        raise ValueError(f"clusters must have one entry per run; got {clusters.size} "
                         f"for {flags.size} runs.")
    n = int(flags.size)
    if n == 0:
        return float("nan"), float("nan"), float("nan"), 0, 0, float("nan")
    labels, index = np.unique(clusters, return_inverse=True)
    groups = int(labels.size)
    k_g = np.bincount(index, weights=flags, minlength=groups)
    n_g = np.bincount(index, minlength=groups)
    rate = float(flags.mean())
    variance = (groups / (groups - 1) * np.sum((k_g - rate * n_g) ** 2) / n**2
                if groups > 1 else 0.0)
    if groups == 1:
        n_eff = 1.0
    elif variance > 0:
        n_eff = float(np.clip(rate * (1 - rate) / variance, groups, n))
    else:  # no variation between seeds to estimate a design effect from
        n_eff = float(n)
    # Wilson's formula holds at a fractional sample size: rate * n_eff successes.
    low, high = (float(v) for v in wilson_counts_interval([rate * n_eff], n_eff,
                                                          confidence)[0])
    return rate, low, high, n, groups, n_eff


def _loglog_fit(x, y):
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def bootstrap_loglog_slope(x, y, groups=None, *, n_boot=2000, confidence=0.95, random_state=0):
    """Least-squares slope of log y on log x with a bootstrap interval.

    Resampling is over ``groups`` (typically seeds): each bootstrap draw picks
    groups with replacement and refits on all their points, so the interval
    reflects seed-to-seed variation. Without groups, points are resampled.
    Non-finite or non-positive points are dropped first. With fewer than
    :data:`MIN_BOOTSTRAP_GROUPS` groups there is no bootstrap interval
    (``low`` and ``high`` are NaN, ``rough`` is True): ``range_low`` and
    ``range_high`` give the smallest and largest slope fitted to one group
    alone (groups with at least two distinct x), a rough spread to show
    instead.

    Parameters
    ----------
    x, y : array-like of shape (n_points,)
    groups : array-like of shape (n_points,) or None, default=None
    n_boot : int, default=2000
        Bootstrap resamples; at least 1.
    confidence : float, default=0.95
    random_state : int, RandomState instance or None, default=0

    Returns
    -------
    result : dict
        ``slope`` (fit on all points), ``low``, ``high`` (percentile
        interval; NaN with fewer than :data:`MIN_BOOTSTRAP_GROUPS` groups,
        or when fewer than two distinct x values remain in too many draws),
        ``n_points`` and ``n_groups`` used, ``rough`` (fewer groups than
        :data:`MIN_BOOTSTRAP_GROUPS`) and ``range_low``, ``range_high`` (the
        range of the per-group slopes; NaN when no group has two distinct x).

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.studies._stats import bootstrap_loglog_slope
    >>> x = np.repeat([10, 20, 40, 80], 8)
    >>> rng = np.random.default_rng(0)
    >>> y = 3 * x ** 2 * np.exp(0.05 * rng.standard_normal(x.size))
    >>> res = bootstrap_loglog_slope(x, y, groups=np.tile(np.arange(8), 4))
    >>> round(res["slope"], 1), res["low"] < 2 < res["high"], res["n_points"], res["rough"]
    (2.0, True, 32, False)

    Three seeds are too few for a bootstrap: the range of the per-seed
    slopes comes instead.

    >>> x = np.repeat([10, 20, 40, 80], 3)
    >>> res = bootstrap_loglog_slope(x, 3 * x ** 2.0, groups=np.tile([0, 1, 2], 4))
    >>> res["rough"], bool(np.isnan(res["low"])), round(res["range_low"], 1), round(res["range_high"], 1)
    (True, True, 2.0, 2.0)
    """
    n_boot = check_n_boot(n_boot)
    confidence = check_confidence(confidence)
    x = np.asarray(x, dtype=float).ravel()
    y = np.asarray(y, dtype=float).ravel()
    if x.shape != y.shape:
        raise ValueError(f"x and y must have the same length; got {x.size} and {y.size}.")
    groups = np.arange(x.size) if groups is None else np.asarray(groups).ravel()
    if groups.shape != x.shape:
        raise ValueError("groups must have one entry per point.")
    keep = np.isfinite(x) & np.isfinite(y) & (x > 0) & (y > 0)
    x, y, groups = x[keep], y[keep], groups[keep]
    nan = float("nan")
    labels = np.unique(groups)
    result = {"slope": nan, "low": nan, "high": nan, "n_points": int(x.size),
              "n_groups": int(labels.size), "rough": bool(labels.size < MIN_BOOTSTRAP_GROUPS),
              "range_low": nan, "range_high": nan}
    if x.size < 2 or np.unique(x).size < 2:
        return result
    result["slope"] = _loglog_fit(x, y)
    members = [np.flatnonzero(groups == g) for g in labels]
    own = [_loglog_fit(x[rows], y[rows]) for rows in members if np.unique(x[rows]).size >= 2]
    if own:
        result["range_low"], result["range_high"] = float(min(own)), float(max(own))
    if result["rough"]:
        return result
    rng = check_random_state(random_state)
    slopes = []
    for _ in range(n_boot):
        pick = rng.randint(0, labels.size, labels.size)
        rows = np.concatenate([members[i] for i in pick])
        if np.unique(x[rows]).size >= 2:
            slopes.append(_loglog_fit(x[rows], y[rows]))
    # An interval only when (almost) every draw could be fitted.
    if slopes and len(slopes) >= 0.9 * n_boot:
        alpha = (1 - confidence) / 2
        result["low"], result["high"] = (float(q) for q in np.quantile(slopes, [alpha, 1 - alpha]))
    return result


def format_slope(fit, digits=2, unit="seeds"):
    """A slope from :func:`bootstrap_loglog_slope` as text: interval, or range marked rough.

    Examples
    --------
    >>> from skxor.studies._stats import format_slope
    >>> format_slope({"slope": 1.02, "low": 0.9, "high": 1.1, "n_groups": 10})
    '1.02 [0.90, 1.10]'
    >>> format_slope({"slope": 0.21, "low": float("nan"), "high": float("nan"),
    ...               "n_groups": 5, "rough": True, "range_low": 0.1, "range_high": 0.35})
    '0.21 (rough: 5 seeds, too few for an interval; per-seed slopes 0.10 to 0.35)'
    """
    text = format_interval(fit["slope"], fit.get("low"), fit.get("high"), digits)
    if text == "-" or not fit.get("rough"):
        return text
    spread = ""
    low, high = fit.get("range_low", float("nan")), fit.get("range_high", float("nan"))
    if np.isfinite(low) and np.isfinite(high):
        spread = f"; per-{unit[:-1] if unit.endswith('s') else unit} slopes " + (
            f"{low:.{digits}f} to {high:.{digits}f}" if low != high else f"all {low:.{digits}f}")
    return f"{text} (rough: {fit['n_groups']} {unit}, too few for an interval{spread})"


def format_interval(value, low, high, digits=2):
    """``"0.80 [0.49, 0.94]"``; a dash for NaN values.

    Examples
    --------
    >>> from skxor.studies._stats import format_interval
    >>> format_interval(0.8, 0.49, 0.943)
    '0.80 [0.49, 0.94]'
    >>> format_interval(float("nan"), float("nan"), float("nan"))
    '-'

    An interval narrower than the rounding gets the digits it needs, so
    that 0 successes in 1 050 runs do not read as the interval [0, 0]:

    >>> format_interval(0.0, 0.0, 0.0036)
    '0.000 [0.000, 0.004]'
    """
    if value is None or not np.isfinite(value):
        return "-"
    if low is None or high is None or not (np.isfinite(low) and np.isfinite(high)):
        return f"{value:.{digits}f}"
    # Up to 4 digits: a bound that differs from the value must read differently.
    for shown in range(digits, max(digits, 4) + 1):
        texts = [f"{x:.{shown}f}" for x in (value, low, high)]
        if all(texts[0] != t for x, t in zip((low, high), texts[1:]) if x != value):
            break
    return f"{texts[0]} [{texts[1]}, {texts[2]}]"


def format_count(successes, n, unit, interval="wilson", digits=2):
    """``"4/5 networks = 0.80 [0.38, 0.96]"``: a rate with its count, unit and interval.

    Parameters
    ----------
    successes, n : int
        The count and the number of independent units it is out of.
    unit : str
        What was counted, in the plural ("networks", "seeds", "functions").
    interval : {"wilson", "clopper-pearson"}, default="wilson"
    digits : int, default=2

    Returns
    -------
    text : str
        ``"none: 0 networks"`` when ``n`` is 0 (there is no rate).

    Examples
    --------
    >>> from skxor.studies._stats import format_count
    >>> format_count(4, 5, "networks")
    '4/5 networks = 0.80 [0.38, 0.96]'
    >>> format_count(0, 0, "networks")
    'none: 0 networks'
    """
    successes, n = _check_counts(successes, n)
    if n == 0:
        return f"none: 0 {unit}"
    bounds = {"wilson": wilson_interval, "clopper-pearson": clopper_pearson_interval}
    if interval not in bounds:
        raise ValueError(f"interval must be one of {sorted(bounds)}; got {interval!r}.")
    low, high = bounds[interval](successes, n)
    return f"{successes}/{n} {unit} = {format_interval(successes / n, low, high, digits)}"
