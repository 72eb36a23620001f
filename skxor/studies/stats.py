"""Uncertainty for the studies: intervals for rates, bootstrap intervals for slopes.

Every success rate a study publishes carries a Wilson interval (a rate over
runs clustered by seed: a beta-binomial profile-likelihood interval with the
seeds as units, :func:`clustered_rate_interval`), every share
used as a lower bound a Clopper-Pearson (exact) interval, and every fitted
log-log slope a bootstrap interval over seeds -- from at least
:data:`MIN_BOOTSTRAP_GROUPS` (8) seeds: with fewer, a percentile bootstrap
draws from too few distinct resamples to mean anything (2 seeds give at most
3), so the slope comes with the range of the per-seed slopes instead, marked
rough; the exponent of a power law fitted to interval-censored sizes by maximum
likelihood (:func:`censored_loglog_fit`), the rate of an exponential growth
of interval-censored sizes (:func:`censored_growth_fit`), the median of
interval-censored values (:func:`censored_median_interval`) and a log-log
slope with its t interval (:func:`loglog_slope_interval`). The functions here
are the one place these are computed, so tables, figures and reports agree.
"""

import functools
import numbers
from numbers import Real

import numpy as np
import pandas as pd
from scipy import optimize, special, stats
from sklearn.utils import check_random_state

from .._utils._wilson import wilson_interval as wilson_counts_interval

#: The fewest independent groups (seeds) a bootstrap interval is drawn from.
MIN_BOOTSTRAP_GROUPS = 8

#: The caveat of a rate pooled over d: runs of one seed share a prefix of keys.
POOLED_OVER_D_CAVEAT = (
    "Runs of one seed at different d are not independent draws: for the same m, the "
    "keys at a smaller d are the first rows of those at a larger d. Intervals pooled "
    "over d and m therefore take the seeds as the independent units: the "
    "profile-likelihood interval of the rate in a beta-binomial model of the seeds' "
    "counts, their correlation profiled out and calibrated on the number of seeds "
    "(F(1, seeds - 1)), so that seeds that all agree count as that many units, not as "
    "their runs (Williams, 1975; Korn and Graubard, 1998). The per-d rows do not share "
    "keys."
)

__all__ = [
    "censored_growth_fit",
    "censored_loglog_fit",
    "censored_median_interval",
    "MIN_BOOTSTRAP_GROUPS",
    "POOLED_OVER_D_CAVEAT",
    "as_flags",
    "bootstrap_loglog_slope",
    "check_confidence",
    "check_n_boot",
    "clopper_pearson_interval",
    "clustered_rate_interval",
    "difference_interval",
    "flag_columns",
    "format_count",
    "format_interval",
    "format_slope",
    "loglog_slope",
    "loglog_slope_interval",
    "quantile_interval",
    "rate_columns",
    "rate_with_interval",
    "wilson_interval",
]


def check_n_boot(n_boot):
    """``n_boot`` as an int, or a ValueError naming it (not int()'s TypeError or OverflowError)."""
    if (isinstance(n_boot, bool) or not isinstance(n_boot, Real) or not np.isfinite(n_boot)
            or n_boot != int(n_boot) or n_boot < 1):
        raise ValueError(f"n_boot must be a whole number >= 1; got {n_boot!r}.")
    return int(n_boot)


def _check_share(value, name):
    """``value`` as a float in (0, 1), or a ValueError naming it (NaN included)."""
    if isinstance(value, bool) or not isinstance(value, Real) or not 0 < value < 1:
        raise ValueError(f"{name} must be a number in (0, 1); got {value!r}.")
    return float(value)


def check_confidence(confidence):
    """``confidence`` as a float in (0, 1), or a ValueError naming it."""
    return _check_share(confidence, "confidence")


def _check_counts(successes, n):
    successes = int(successes)
    n = int(n)
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n; got successes={successes}, n={n}.")
    return successes, n


def _binomial_interval(successes, n, confidence, method):
    """scipy's interval of a binomial proportion; ``(nan, nan)`` for no trials."""
    successes, n = _check_counts(successes, n)
    return _binomial_bounds(successes, n, confidence, method)


# Kept once computed: a simulated table (a claim's power) asks for the same counts
# many times.
@functools.lru_cache(maxsize=100_000)
def _binomial_bounds(successes, n, confidence, method):
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
    >>> from skxor.studies.stats import wilson_interval
    >>> [round(v, 3) for v in wilson_interval(9, 10)]
    [0.596, 0.982]
    """
    return _binomial_interval(successes, n, confidence, "wilson")


def difference_interval(successes, n, ref_successes, ref_n, *, exact_reference=False):
    """Newcombe's (1998) hybrid score interval of ``successes / n - ref_successes / ref_n``.

    The interval of a difference of two independent proportions, from the
    Wilson interval of each (:func:`wilson_interval`'s values, computed
    without scipy's binomial test, so that a family adjusted over many
    confidences stays cheap); a reference known exactly contributes no
    width of its own.

    Parameters
    ----------
    successes, n : int
        The measured count and its trials (``n >= 1``).
    ref_successes, ref_n : int
        The reference's count and trials.
    exact_reference : bool, default=False
        Whether ``ref_successes / ref_n`` is exact (an enumeration, not a
        sample).

    Returns
    -------
    interval : callable
        ``interval(confidence) -> (low, high)``, at any confidence in (0, 1).

    Examples
    --------
    >>> from skxor.studies.stats import difference_interval
    >>> interval = difference_interval(60, 100, 50, 100)
    >>> [round(v, 3) for v in interval(0.95)]
    [-0.037, 0.232]
    >>> [round(v, 3) for v in difference_interval(60, 100, 1, 2, exact_reference=True)(0.95)]
    [0.002, 0.191]
    """
    for name, (k, total) in {"successes": (successes, n),
                             "ref_successes": (ref_successes, ref_n)}.items():
        if any(isinstance(v, bool) or not isinstance(v, numbers.Integral) for v in (k, total)):
            raise TypeError(f"{name} and its trials must be ints; got {k!r} of {total!r}.")
        if not 0 <= k <= total or total < 1:
            raise ValueError(f"need 0 <= {name} <= its trials and trials >= 1; got "
                             f"{k} of {total}.")
    p, q = successes / n, ref_successes / ref_n

    def interval(confidence):
        confidence = check_confidence(confidence)
        l1, u1 = wilson_counts_interval([successes], n, confidence)[0]
        l2, u2 = (q, q) if exact_reference else wilson_counts_interval(
            [ref_successes], ref_n, confidence)[0]
        return (float(p - q - np.sqrt((p - l1) ** 2 + (u2 - q) ** 2)),
                float(p - q + np.sqrt((u1 - p) ** 2 + (q - l2) ** 2)))
    return interval


def quantile_interval(values, q=0.5, confidence=0.95):
    """A sample quantile and its distribution-free interval from order statistics.

    The quantile is the smallest value with at least a share ``q`` of the
    values at or below it (the lower median for ``q = 0.5``). The interval
    runs from the l-th to the u-th smallest value, l and u the
    ``(1 - confidence)/2`` and ``(1 + confidence)/2`` quantiles of
    Binomial(n, q) (u one above): it covers the population quantile with at
    least ``confidence`` whatever the distribution (Hahn and Meeker, 1991,
    ch. 5). Values may be ``inf`` (a run that needed more than its budget,
    censored at the end): an end beyond the last finite value is ``inf``,
    one below the first value ``-inf``.

    Parameters
    ----------
    values : array-like of float
        Independent draws (one per seed).
    q : float, default=0.5
        The share in (0, 1) of the population at or below the quantile.
    confidence : float, default=0.95

    Returns
    -------
    value, low, high : float
        NaN, NaN, NaN without values.

    Raises
    ------
    ValueError
        ``q`` or ``confidence`` outside (0, 1), or a NaN among ``values``.

    Examples
    --------
    >>> from skxor.studies.stats import quantile_interval
    >>> quantile_interval([200, 250, 150, 200, 300, 250, 200, 400, 150, 200])
    (200.0, 150.0, 300.0)
    >>> quantile_interval([900, 1200, float("inf"), 700, float("inf"), 800,
    ...                    float("inf"), 1500, 1000, float("inf")])
    (1200.0, 800.0, inf)
    """
    q = _check_share(q, "q")
    check_confidence(confidence)
    x = np.sort(np.asarray(values, dtype=float).ravel())
    n = x.size
    if not n:
        return float("nan"), float("nan"), float("nan")
    if np.isnan(x).any():
        raise ValueError("values must not hold NaN: a run beyond its budget is inf.")
    alpha = 1.0 - confidence
    value = x[max(int(np.ceil(q * n - 1e-12)), 1) - 1]
    lower = int(stats.binom.ppf(alpha / 2, n, q))
    upper = int(stats.binom.ppf(1 - alpha / 2, n, q)) + 1
    low = x[lower - 1] if lower >= 1 else -np.inf
    high = x[upper - 1] if upper <= n else np.inf
    return float(value), float(low), float(high)


def clopper_pearson_interval(successes, n, confidence=0.95):
    """Exact (Clopper-Pearson) interval of a binomial proportion.

    Conservative: it covers the true proportion with at least ``confidence``,
    so its lower end is a safe lower bound (e.g. on an "almost surely").

    Examples
    --------
    With 10 successes in 10 trials the exact interval reaches lower than
    Wilson's:

    >>> from skxor.studies.stats import clopper_pearson_interval, wilson_interval
    >>> round(clopper_pearson_interval(10, 10)[0], 3), round(wilson_interval(10, 10)[0], 3)
    (0.692, 0.722)
    """
    return _binomial_interval(successes, n, confidence, "exact")


def as_flags(values, name="flags"):
    """``values`` as a 1-D boolean array, or a ValueError saying what is not a flag.

    A flag is a boolean or the number 0 or 1. A missing value (NaN, None,
    pandas' NA) is refused, not read as true (``bool(nan)`` is True), and so
    is a string (``"False"`` is true to Python) or any other number: a
    summary drops missing values itself and says how many it dropped.

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.studies.stats import as_flags
    >>> as_flags([True, 0, 1.0]).tolist()
    [True, False, True]
    >>> as_flags(np.array([True, np.nan], dtype=object))
    Traceback (most recent call last):
    ...
    ValueError: flags holds 1 missing value(s) of 2: a missing flag is neither success nor failure (drop those rows first).
    """
    if isinstance(values, (pd.Series, pd.Index)):
        values = values.to_numpy(dtype=object) if values.hasnans else values.to_numpy()
    array = np.asarray(values)
    if array.dtype == bool:
        return array.ravel()
    array = array.ravel()
    if array.dtype.kind in "OUS" or array.dtype.kind == "f":
        missing = pd.isna(array) if array.dtype.kind in "Of" else np.zeros(array.size, bool)
        if missing.any():
            raise ValueError(
                f"{name} holds {int(missing.sum())} missing value(s) of {array.size}: a "
                "missing flag is neither success nor failure (drop those rows first).")
    if array.dtype.kind in "biuf":
        bad = ~np.isin(array, (0, 1))
    else:
        bad = np.array([not (isinstance(v, (bool, np.bool_)) or (
            isinstance(v, numbers.Real) and not isinstance(v, str) and v in (0, 1)))
            for v in array], dtype=bool)
    if bad.any():
        shown = ", ".join(repr(v) for v in list(dict.fromkeys(array[bad].tolist()))[:3])
        raise ValueError(f"{name} must hold flags (True/False, or 0/1); {int(bad.sum())} "
                         f"value(s) of {array.size} are not, e.g. {shown}.")
    return array.astype(bool)


def flag_columns(df, columns, name="df"):
    """A copy of ``df`` with each of ``columns`` it has as booleans (:func:`as_flags`).

    Raises
    ------
    ValueError
        A column holding a missing value, a string or a number other than
        0 and 1, named as ``name[column]``.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.studies.stats import flag_columns
    >>> flag_columns(pd.DataFrame({"success": [1, 0]}), ["success", "absent"])["success"].tolist()
    [True, False]
    >>> flag_columns(pd.DataFrame({"success": ["False"]}), ["success"])
    Traceback (most recent call last):
    ...
    ValueError: df['success'] must hold flags (True/False, or 0/1); 1 value(s) of 1 are not, e.g. 'False'.
    """
    df = df.copy()
    for column in columns:
        if column in df:
            df[column] = as_flags(df[column], f"{name}[{column!r}]")
    return df


def rate_with_interval(flags, confidence=0.95):
    """Share of true values in ``flags`` with its Wilson interval.

    Parameters
    ----------
    flags : array-like of bool
        Booleans or 0/1; a missing value, a string or another number is
        refused (:func:`as_flags`).
    confidence : float, default=0.95

    Returns
    -------
    rate, low, high, n : float, float, float, int
        NaN rate and interval for an empty input.

    Raises
    ------
    ValueError
        A value of ``flags`` that is not a flag.

    Examples
    --------
    >>> from skxor.studies.stats import rate_with_interval
    >>> rate, low, high, n = rate_with_interval([True, True, False, True])
    >>> rate, n
    (0.75, 4)
    """
    flags = as_flags(flags)
    n = int(flags.size)
    if n == 0:
        return float("nan"), float("nan"), float("nan"), 0
    k = int(flags.sum())
    low, high = wilson_interval(k, n, confidence)
    return k / n, low, high, n


def rate_columns(flags, name, rate="_rate", interval="wilson"):
    """A summary row's columns of one rate: ``flags``' share and its 95% interval.

    The shape of every per-setting rate of a study's summary: the share of
    true ``flags`` as ``<name><rate>``, its interval (Wilson's, as
    :func:`rate_with_interval`, or Clopper-Pearson's) as ``<name>_low`` and
    ``<name>_high``.

    Parameters
    ----------
    flags : array-like of bool
        One group's flags (a missing one is refused, :func:`as_flags`).
    name : str
        The stem of the columns.
    rate : str, default="_rate"
        The suffix of the rate's column (``""``: the rate is ``<name>``).
    interval : {"wilson", "clopper-pearson"}, default="wilson"

    Returns
    -------
    columns : dict of str to float
        ``{<name><rate>: rate, <name>_low: low, <name>_high: high}``, in
        that order (NaN for no flags).

    Examples
    --------
    >>> from skxor.studies.stats import rate_columns
    >>> rate_columns([True, True, False, True], "success")  # doctest: +ELLIPSIS
    {'success_rate': 0.75, 'success_low': 0.30..., 'success_high': 0.95...}
    >>> rate_columns([True, False], "found", rate="", interval="clopper-pearson")  # doctest: +ELLIPSIS
    {'found': 0.5, 'found_low': 0.012..., 'found_high': 0.987...}
    """
    flags = as_flags(flags)
    k, n = int(flags.sum()), int(flags.size)
    low, high = _bounds(interval)(k, n)
    return {f"{name}{rate}": k / n if n else float("nan"), f"{name}_low": low,
            f"{name}_high": high}


#: The intra-seed correlations the beta-binomial profile maximises over: a grid
#: in logit(rho) from rho = 4.5e-5 to 0.999, plus rho = 0 (the binomial).
_RHO = special.expit(np.linspace(-10.0, 7.0, 137))


def _beta_binomial_profile(k_g, n_g):
    """``profile(p)``: the beta-binomial log-likelihood of the per-seed counts,
    maximised over the intra-seed correlation, and the correlation at its maximum."""
    pairs, weight = np.unique(np.stack([k_g, n_g], axis=1), axis=0, return_counts=True)
    k, m = pairs[:, 0], pairs[:, 1]
    spread = 1 / _RHO - 1  # alpha + beta of the seeds' rates

    # The binomial coefficients cancel in every likelihood ratio: left out.
    k, m, weight = k.astype(float), m.astype(float), weight.astype(float)

    def profile(p):
        a, b = p * spread[:, None], (1 - p) * spread[:, None]
        ll = (special.betaln(k + a, m - k + b) - special.betaln(a, b)) @ weight
        independent = (special.xlogy(k, p) + special.xlog1py(m - k, -p)) @ weight
        best = int(np.argmax(ll))
        return (independent, 0.0) if independent >= ll[best] else (ll[best], _RHO[best])

    return profile


def clustered_rate_interval(flags, clusters, confidence=0.95):
    """Share of true ``flags`` with an interval that takes ``clusters`` as the units.

    Runs of one cluster (a seed whose draws several runs share) are not
    independent, and how much they agree is not known in advance: the
    interval is the profile-likelihood interval of the rate ``p`` in the
    beta-binomial model of the per-seed counts (each seed's success
    probability drawn from a beta distribution of mean ``p`` and
    intra-seed correlation ``rho``; Skellam, 1948; Williams, 1975), the
    correlation profiled out (over ``rho`` in [0, 0.999]), calibrated
    with the ``F(1, G - 1)`` quantile rather than chi-squared's for the
    ``G`` seeds (the small-sample correction of Korn and Graubard, 1998,
    who use ``G - 1`` degrees of freedom). Seeds that all agree (a rate of
    0 or 1) are then about ``G`` units, since a correlation of 1 fits them
    as well as 0 does; 359 successes in 360 runs get an interval close to
    360 in 360's, not a narrower one. One run per seed is Wilson's interval
    over the runs (the runs are then the independent units). A design-effect (sandwich) variance is not
    used: where few runs disagree it shows no correlation whatever the
    true one (one failure in 360 runs gives a design effect of 1), and its
    intervals then cover a rate of 0.97 a fifth of the time in
    simulation when seeds succeed or fail as a whole (see the tests).

    Parameters
    ----------
    flags : array-like of bool, shape (n_runs,)
        The outcome of each run: booleans, or 0/1 (see
        :func:`rate_with_interval` for what is refused).
    clusters : array-like of shape (n_runs,)
        The independent unit of each run, e.g. its seed; no missing label.
    confidence : float, default=0.95

    Returns
    -------
    rate, low, high : float
        NaN for an empty input. One cluster is one unit: Wilson's interval
        of its rate as one trial.
    n, n_clusters : int
    n_effective : float
        ``n / (1 + (n / G - 1) rho)`` at the maximum-likelihood ``rho``:
        the runs' worth in independent ones, between ``G`` and ``n``.

    Examples
    --------
    Four seeds, each with three runs that agree, count as four units, not
    twelve runs:

    >>> from skxor.studies.stats import clustered_rate_interval, wilson_interval
    >>> flags = [True] * 9 + [False] * 3
    >>> seeds = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    >>> rate, low, high, n, groups, n_eff = clustered_rate_interval(flags, seeds)
    >>> rate, n, groups, round(n_eff, 1)
    (0.75, 12, 4, 4.0)
    >>> low < wilson_interval(9, 12)[0]
    True

    Ten seeds of 36 runs, all successes: the interval is about the one
    over ten seeds, not over 360 runs:

    >>> import numpy as np
    >>> [round(v, 2) for v in clustered_rate_interval([True] * 360, np.repeat(range(10), 36))[1:3]]
    [0.77, 1.0]
    """
    confidence = check_confidence(confidence)
    flags = as_flags(flags, "flags")
    clusters = np.asarray(clusters).ravel()
    if clusters.shape != flags.shape:
        raise ValueError(f"clusters must have one entry per run; got {clusters.size} "
                         f"for {flags.size} runs.")
    if pd.isna(clusters).any():
        raise ValueError(f"clusters holds {int(pd.isna(clusters).sum())} missing label(s): "
                         "every run needs its seed (a missing one is no seed of its own).")
    n = int(flags.size)
    if n == 0:
        return float("nan"), float("nan"), float("nan"), 0, 0, float("nan")
    labels, index = np.unique(clusters, return_inverse=True)
    groups = int(labels.size)
    k_g = np.bincount(index, weights=flags, minlength=groups).round().astype(int)
    n_g = np.bincount(index, minlength=groups)
    rate = float(flags.mean())
    if groups == 1:
        low, high = (float(v) for v in wilson_counts_interval([rate], 1, confidence)[0])
        return rate, low, high, n, 1, 1.0
    if n_g.max() == 1:
        # One run per seed: the runs are the independent units and the binomial
        # variance is known, so no correlation to profile and no small-sample
        # F correction (F(1, 1) = 161 would make 2 of 2 seeds [0, 1]).
        low, high = (float(v) for v in wilson_counts_interval([k_g.sum()], n, confidence)[0])
        return rate, low, high, n, groups, float(n)
    profile = _beta_binomial_profile(k_g, n_g)
    # The likelihood's maximum is at the pooled rate (inside (0, 1) for the root search).
    inner = float(np.clip(rate, 1e-12, 1 - 1e-12))
    top, rho = profile(inner)
    cut = stats.f.ppf(confidence, 1, groups - 1) / 2

    def gap(p):
        return profile(p)[0] - top + cut

    # An end reaches 0 or 1 where the likelihood never falls by the cut-off
    # (few seeds: F(1, 1) is 161).
    low = 0.0 if rate == 0 or gap(1e-12) >= 0 else float(
        optimize.brentq(gap, 1e-12, inner, xtol=1e-6))
    high = 1.0 if rate == 1 or gap(1 - 1e-12) >= 0 else float(
        optimize.brentq(gap, inner, 1 - 1e-12, xtol=1e-6))
    n_eff = float(n / (1 + (n / groups - 1) * rho))
    return rate, low, high, n, groups, n_eff


def loglog_slope(x, y):
    """Least-squares slope of log y on log x (natural logarithms), without an interval.

    The slope :func:`bootstrap_loglog_slope` fits, for a study that draws its
    own resamples.

    Examples
    --------
    >>> from skxor.studies.stats import loglog_slope
    >>> round(loglog_slope([10, 20, 40], [300, 1200, 4800]), 6)
    2.0
    """
    x, y = _paired(x, y, "x", "y")
    for name, values in (("x", x), ("y", y)):
        if not (np.isfinite(values) & (values > 0)).all():
            raise ValueError(f"{name} must hold finite numbers > 0 (a logarithm is taken); "
                             f"got {values[~(np.isfinite(values) & (values > 0))][:5]}.")
    if np.unique(x).size < 2:
        raise ValueError(f"x must hold two distinct values or more for a slope; got "
                         f"{np.unique(x)[:5]}.")
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def _paired(*arrays_and_names, entry="point"):
    """1-D float arrays of one length (the names given after the arrays), else ValueError.

    ``entry`` names what one position of the arrays is, for the message."""
    half = len(arrays_and_names) // 2
    names = arrays_and_names[half:]
    arrays = []
    for name, values in zip(names, arrays_and_names[:half]):
        try:
            values = np.asarray(values, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(f"{name} must hold numbers; got {values!r:.80}.") from None
        if values.ndim != 1:
            raise ValueError(f"{name} must be 1-D; got shape {values.shape}.")
        arrays.append(values)
    if len({a.size for a in arrays}) > 1:
        raise ValueError(f"{', '.join(names[:-1])} and {names[-1]} need one entry per {entry}; "
                         f"got lengths {', '.join(str(a.size) for a in arrays)}.")
    return arrays


def loglog_slope_interval(x, y, confidence=0.95):
    """Least-squares slope of log10 y on log10 x with its t interval, the points as units.

    A point whose ``y`` is not finite and > 0 has no logarithm: it is left
    out and counted in ``n_dropped``.

    Parameters
    ----------
    x, y : array-like of shape (n_points,)
        ``x`` > 0.
    confidence : float, default=0.95
        Coverage of the slope's t interval.

    Returns
    -------
    fit : dict
        ``slope``, ``low``, ``high`` (NaN with fewer than 3 points kept or
        one distinct x), ``n_points`` (kept) and ``n_dropped``.

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.studies.stats import loglog_slope_interval
    >>> x = np.repeat([8, 16, 32, 64], 5)
    >>> noise = np.exp(0.1 * np.random.default_rng(0).standard_normal(x.size))
    >>> fit = loglog_slope_interval(x, 2.0 / x * noise)
    >>> round(fit["slope"], 1), bool(fit["low"] < -1 < fit["high"]), fit["n_points"]
    (-1.0, True, 20)
    >>> loglog_slope_interval([8, 16], [0.0, 1.0])["n_dropped"]
    1
    """
    confidence = check_confidence(confidence)
    x, y = _paired(x, y, "x", "y")
    if not (np.isfinite(x) & (x > 0)).all():
        raise ValueError(f"x must hold finite numbers > 0 (a logarithm is taken); got "
                         f"{x[~(np.isfinite(x) & (x > 0))][:5]}.")
    keep = np.isfinite(y) & (y > 0)
    lx, ly = np.log10(x[keep]), np.log10(y[keep])
    nan = float("nan")
    fit = {"slope": nan, "low": nan, "high": nan, "n_points": int(keep.sum()),
           "n_dropped": int((~keep).sum())}
    if lx.size < 3 or np.unique(lx).size < 2:
        return fit
    line = stats.linregress(lx, ly)
    half = stats.t.ppf((1 + confidence) / 2, lx.size - 2) * line.stderr
    fit.update(slope=float(line.slope), low=float(line.slope - half),
               high=float(line.slope + half))
    return fit


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
    >>> from skxor.studies.stats import bootstrap_loglog_slope
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
    result["slope"] = loglog_slope(x, y)
    members = [np.flatnonzero(groups == g) for g in labels]
    own = [loglog_slope(x[rows], y[rows]) for rows in members if np.unique(x[rows]).size >= 2]
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
            slopes.append(loglog_slope(x[rows], y[rows]))
    # An interval only when (almost) every draw could be fitted.
    if slopes and len(slopes) >= 0.9 * n_boot:
        alpha = (1 - confidence) / 2
        result["low"], result["high"] = (float(q) for q in np.quantile(slopes, [alpha, 1 - alpha]))
    return result


def format_slope(fit, digits=2, unit="seeds"):
    """A slope from :func:`bootstrap_loglog_slope` as text: interval, or range marked rough.

    Examples
    --------
    >>> from skxor.studies.stats import format_slope
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
    >>> from skxor.studies.stats import format_interval
    >>> format_interval(0.8, 0.49, 0.943)
    '0.80 [0.49, 0.94]'
    >>> format_interval(float("nan"), float("nan"), float("nan"))
    '-'
    >>> format_interval(-1e-17, -0.26, 0.26)
    '0.00 [-0.26, 0.26]'

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
        # A value that is 0 up to floating-point noise (a slope of -1e-17 on one
        # machine, +1e-17 on another) reads 0.00, not -0.00; a bound of -0.003
        # keeps its sign.
        texts = [f"{0.0 if abs(x) < 1e-12 else x:.{shown}f}" for x in (value, low, high)]
        if all(texts[0] != t for x, t in zip((low, high), texts[1:]) if x != value):
            break
    return f"{texts[0]} [{texts[1]}, {texts[2]}]"


def _bounds(interval):
    """The interval function named ``interval``, or a ValueError naming the choices."""
    bounds = {"wilson": wilson_interval, "clopper-pearson": clopper_pearson_interval}
    if interval not in bounds:
        raise ValueError(f"interval must be one of {sorted(bounds)}; got {interval!r}.")
    return bounds[interval]


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
    >>> from skxor.studies.stats import format_count
    >>> format_count(4, 5, "networks")
    '4/5 networks = 0.80 [0.38, 0.96]'
    >>> format_count(0, 0, "networks")
    'none: 0 networks'
    """
    successes, n = _check_counts(successes, n)
    if n == 0:
        return f"none: 0 {unit}"
    low, high = _bounds(interval)(successes, n)
    return f"{successes}/{n} {unit} = {format_interval(successes / n, low, high, digits)}"


def censored_median_interval(low, high, confidence=0.95):
    """Distribution-free interval of the median of values known only to lie in (low, high].

    Order statistics: with n values, ``[X_(r), X_(n+1-r)]`` covers the median
    with probability ``1 - 2 P(Bin(n, 1/2) < r)``; the lower end is taken
    from the intervals' lower ends and the upper from their upper ends.
    With too few values for that coverage (n < 6 at 95%), the range of the
    intervals instead, marked ``"range"``.

    Parameters
    ----------
    low, high : array-like of shape (n_values,)
        Each value's interval (``high`` may be inf: right-censored).
    confidence : float, default=0.95

    Returns
    -------
    low, high : float
    coverage : str
        ``"95%"`` (the confidence), or ``"range"``.

    Examples
    --------
    >>> from skxor.studies.stats import censored_median_interval
    >>> censored_median_interval(range(0, 10), range(1, 11))
    (1.0, 9.0, '95%')
    >>> censored_median_interval([1, 2], [2, 3])
    (1.0, 3.0, 'range')
    """
    confidence = check_confidence(confidence)
    low, high = _paired(low, high, "low", "high")
    if not low.size:
        raise ValueError("low and high hold no values: a median needs one at least.")
    if np.isnan(low).any() or np.isnan(high).any() or (high < low).any():
        raise ValueError("each value's interval needs low <= high, neither NaN (high inf: "
                         f"right-censored); got {int((~(high >= low)).sum())} row(s) where "
                         "it is not so.")
    low, high = np.sort(low), np.sort(high)
    n = low.size
    # Largest r with P(Bin(n, 1/2) <= r - 1) <= (1 - confidence) / 2.
    r = int(stats.binom.ppf((1 - confidence) / 2, n, 0.5))
    if r >= 1 and stats.binom.cdf(r - 1, n, 0.5) <= (1 - confidence) / 2 + 1e-12:
        return float(low[r - 1]), float(high[n - r]), f"{confidence:.0%}"
    return float(low[0]), float(high[-1]), "range"


def _log_normal_mass(zl, zh):
    """log(Phi(zh) - Phi(zl)) of the standard normal, from the side of the smaller tail.

    ``special.log_ndtr`` is what ``stats.norm.logcdf`` (and, at -z, ``logsf``)
    computes, without its per-call checks. An empty interval gives -inf.
    """
    upper = zl > 0
    big = special.log_ndtr(np.where(upper, -zl, zh))
    small = special.log_ndtr(np.where(upper, -zh, zl))
    return big + np.log1p(-np.exp(np.minimum(small - big, 0.0)))


def _growth_log_likelihood(params, x, lo, hi):
    """Log-likelihood and its gradient: ln y ~ Normal(b + a x, sigma) on (lo, hi]."""
    a, b, log_sigma = params
    sigma = np.exp(log_sigma)
    mu = b + a * x
    zl, zh = (lo - mu) / sigma, (hi - mu) / sigma
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.maximum(_log_normal_mass(zl, zh), -1e6)
        # phi(z) / L and z phi(z) / L, zero at an infinite end.
        half_log_2pi = 0.5 * np.log(2 * np.pi)
        rl = np.where(np.isfinite(zl), np.exp(-zl ** 2 / 2 - half_log_2pi - terms), 0.0)
        rh = np.where(np.isfinite(zh), np.exp(-zh ** 2 / 2 - half_log_2pi - terms), 0.0)
        zrl = np.where(np.isfinite(zl), zl * rl, 0.0)
        zrh = np.where(np.isfinite(zh), zh * rh, 0.0)
    d_mu = -(rh - rl) / sigma
    grad = np.array([np.sum(d_mu * x), np.sum(d_mu), -np.sum(zrh - zrl)])
    return float(np.sum(terms)), grad


def censored_growth_fit(x, low, high, confidence=0.95, *, base=2.0):
    """Exponential growth of an interval-censored size with x: log_base y per unit of x.

    ln y is modelled as normal around ``c + a ln(base) (x - mean x)`` with
    one spread sigma: y grows like ``base^(a x)``. Each observation
    contributes the probability that y falls in its interval ``(low, high]``
    (``low = 0``: left-censored; ``high = inf``: right-censored). Maximum
    likelihood (BFGS with the analytic gradient); the interval of ``a`` is
    Wald's from the observed information (a quick interval, so that a
    simulated table is judged in milliseconds).

    Parameters
    ----------
    x, low, high : array-like of shape (n_points,)
    confidence : float, default=0.95
    base : float, default=2.0
        The base of the growth ``a`` is read in.

    Returns
    -------
    fit : dict
        ``rate`` (a), ``se``, ``low``, ``high``, ``sigma`` (of ln y),
        ``centre`` (ln y at the mean x), ``mean_x``, ``n_points`` and
        ``n_bracketed`` (observations with a finite upper end); NaN unless
        observations are bracketed at two x or more.

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.studies.stats import censored_growth_fit
    >>> rng = np.random.default_rng(0)
    >>> x = np.repeat([4, 8, 12], 20)
    >>> need = 2 ** (0.5 * x + 6 + 0.5 * rng.standard_normal(x.size))
    >>> y = 50 * np.ceil(need / 50)  # known to within the last 50 before a check
    >>> fit = censored_growth_fit(x, y - 50, y)
    >>> bool(fit["low"] < 0.5 < fit["high"]), fit["n_bracketed"]
    (True, 60)
    """
    confidence = check_confidence(confidence)
    if isinstance(base, bool) or not isinstance(base, Real) or not (
            np.isfinite(base) and base > 0 and base != 1):
        raise ValueError(f"base must be a finite number > 0 other than 1; got {base!r}.")
    x, low, high = _paired(x, low, high, "x", "low", "high")
    if not np.isfinite(x).all():
        raise ValueError(f"x must hold finite numbers; got {x[~np.isfinite(x)][:5]}.")
    if not (np.isfinite(low) & (low >= 0)).all():
        raise ValueError("low must hold finite sizes >= 0 (0: left-censored); got "
                         f"{low[~(np.isfinite(low) & (low >= 0))][:5]}.")
    if not (high >= low).all():
        raise ValueError("high must be at least low in every row (inf: right-censored); got "
                         f"{int((~(high >= low)).sum())} row(s) where it is not (or is NaN).")
    nan = float("nan")
    bracketed = np.isfinite(high)
    fit = dict(rate=nan, se=nan, low=nan, high=nan, sigma=nan, centre=nan, mean_x=nan,
               n_points=int(x.size), n_bracketed=int(bracketed.sum()))
    if np.unique(x[bracketed]).size < 2:
        return fit
    mean_x = float(x.mean())
    x = np.log(base) * (x - mean_x)
    lo = np.log(low, where=low > 0, out=np.full(low.size, -np.inf))
    hi = np.log(high, where=np.isfinite(high), out=np.full(high.size, np.inf))
    # Start from least squares on the bracketed observations.
    mid = np.where(np.isfinite(lo), (lo + hi) / 2, hi)[bracketed]
    a0, b0 = np.polyfit(x[bracketed], mid, 1)
    s0 = np.log(max(np.std(mid - a0 * x[bracketed] - b0), 0.05))

    def negative(p):
        value, grad = _growth_log_likelihood(p, x, lo, hi)
        return -value, -grad

    # BFGS (numpy only: L-BFGS-B's compiled routine is slow to call for 3 parameters);
    # sigma is kept in [1e-3, 20] by clipping its log.
    res = optimize.minimize(negative, [a0, b0, s0], jac=True, method="BFGS",
                            options={"gtol": 1e-6})
    res.x[2] = np.clip(res.x[2], np.log(1e-3), np.log(20.0))
    a, b, log_sigma = res.x
    # The observed information: central differences of the gradient.
    step = 1e-5
    hess = np.array([(negative(res.x + step * e)[1] - negative(res.x - step * e)[1])
                     / (2 * step) for e in np.eye(3)])
    hess = (hess + hess.T) / 2
    try:
        cov = np.linalg.inv(hess)
        se = float(np.sqrt(cov[0, 0])) if cov[0, 0] > 0 else nan
    except np.linalg.LinAlgError:
        se = nan
    z = stats.norm.ppf(0.5 + confidence / 2)
    fit.update(rate=float(a), se=se, low=float(a - z * se), high=float(a + z * se),
               sigma=float(np.exp(log_sigma)), centre=float(b), mean_x=mean_x)
    return fit


# -- censored regression (the sample-complexity exponent) ------------------------------

def _log_likelihood(params, x, lo, hi):
    """Log-likelihood of log n* ~ Normal(b + a x, sigma) for the intervals (lo, hi] of log n*."""
    a, b, log_sigma = params
    mu = b + a * x
    sigma = np.exp(log_sigma)
    zl, zh = (lo - mu) / sigma, (hi - mu) / sigma
    with np.errstate(divide="ignore"):
        terms = _log_normal_mass(zl, zh)
    return float(np.sum(np.maximum(terms, -1e6)))


#: Bounds of log sigma: the spread of log n* is kept above 1e-3 (the
#: likelihood of intervals stays finite as it shrinks, the optimiser need not).
_LOG_SIGMA = (np.log(1e-3), np.log(20.0))


def _maximise(x, lo, hi, a=None, start=None):
    """Maximum likelihood over (a, b, log sigma), or over (b, log sigma) with ``a`` fixed.

    Nelder-Mead from a few starts (or from ``start``, a previous optimum):
    three parameters at most, and no gradient to get wrong.
    """
    if start is not None:
        starts = [start]
    else:
        mid = np.where(np.isfinite(lo) & np.isfinite(hi), (lo + hi) / 2,
                       np.where(np.isfinite(hi), hi, lo))
        slope = np.polyfit(x, mid, 1)[0] if np.unique(x).size > 1 else 0.0
        a0 = slope if a is None else a
        b0 = float(np.mean(mid - a0 * x))
        s0 = float(np.log(max(np.std(mid - a0 * x), 0.1)))
        starts = [[a0, b0, s] for s in (s0, np.log(0.3), np.log(2.0))]
    bounds = [(-50, 50), (-200, 200), _LOG_SIGMA]
    best = None
    for point in starts:
        if a is None:
            res = optimize.minimize(lambda p: -_log_likelihood(p, x, lo, hi), point,
                                    method="Nelder-Mead", bounds=bounds,
                                    options={"xatol": 1e-5, "fatol": 1e-7, "maxiter": 4000})
            value, found = -res.fun, res.x
        else:
            res = optimize.minimize(lambda p: -_log_likelihood([a, *p], x, lo, hi), point[1:],
                                    method="Nelder-Mead", bounds=bounds[1:],
                                    options={"xatol": 1e-5, "fatol": 1e-7, "maxiter": 4000})
            value, found = -res.fun, np.array([a, *res.x])
        if best is None or value > best[0]:
            best = (value, found)
    return best


def _censored_inputs(d, n_low, n_high):
    """``d, n_low, n_high`` as float arrays of one length, checked (ValueError naming them)."""
    d, n_low, n_high = _paired(d, n_low, n_high, "d", "n_low", "n_high", entry="observation")
    if not (np.isfinite(d) & (d > 0)).all():
        raise ValueError(f"d must hold finite numbers > 0; got {d[~(np.isfinite(d) & (d > 0))][:5]}.")
    if not (np.isfinite(n_low) & (n_low >= 0)).all():
        raise ValueError("n_low must hold finite sizes >= 0 (0: left-censored); got "
                         f"{n_low[~(np.isfinite(n_low) & (n_low >= 0))][:5]}.")
    # inf (right-censored) is allowed, NaN is not; every cell is (n_low, n_high].
    if not (n_high > n_low).all():
        raise ValueError("n_high must exceed n_low in every row (inf: right-censored); "
                         f"got {int((~(n_high > n_low)).sum())} row(s) where it does not "
                         "(or is NaN).")
    return d, n_low, n_high


def censored_loglog_fit(d, n_low, n_high, confidence=0.95):
    """Exponent a of n* ~ d^a by maximum likelihood on interval-censored n*.

    log n* is modelled as normal around ``b + a (log d - mean log d)`` with
    one spread sigma; each observation contributes the probability that
    log n* falls in its interval ``(log n_low, log n_high]`` (``n_low = 0``:
    left-censored; ``n_high = inf``: right-censored). The interval of a is
    the profile-likelihood interval (likelihood-ratio test, chi-squared with
    one degree of freedom).

    Parameters
    ----------
    d, n_low, n_high : array-like of shape (n_points,)
        One entry per independent observation (a learning curve).
    confidence : float, default=0.95
        Coverage of the profile-likelihood interval of a.

    Returns
    -------
    fit : dict
        ``exponent``, ``low``, ``high`` (NaN when unbounded within a = +-50),
        ``sigma`` (the spread of log n* about the line), ``intercept`` (log
        n* at the mean log d), ``log_d_centre``, ``n_points``. All NaN
        unless some observation is bracketed on both sides at two distinct d.

    Raises
    ------
    ValueError
        Inputs of different lengths or not 1-D; a d that is not a finite
        number > 0; an ``n_low`` that is not finite and >= 0; an ``n_high``
        not above its ``n_low`` (or NaN); ``confidence`` outside (0, 1).

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.studies.stats import censored_loglog_fit
    >>> d = np.repeat([10, 20, 40], 4)
    >>> n = 5.0 * d ** 2 * np.tile([0.8, 0.9, 1.1, 1.25], 3)
    >>> grid = 2.0 ** np.arange(20)
    >>> high = grid[np.searchsorted(grid, n)]
    >>> fit = censored_loglog_fit(d, high / 2, high)
    >>> bool(fit["low"] < 2 < fit["high"]), fit["n_points"]
    (True, 12)
    """
    confidence = check_confidence(confidence)
    d, n_low, n_high = _censored_inputs(d, n_low, n_high)
    lo = np.log(n_low, where=n_low > 0, out=np.full(d.size, -np.inf))
    hi = np.log(n_high)
    nan = float("nan")
    fit = {"exponent": nan, "low": nan, "high": nan, "sigma": nan, "intercept": nan,
           "log_d_centre": nan, "n_points": int(d.size)}
    bracketed = np.isfinite(lo) & np.isfinite(hi)
    if np.unique(d[bracketed]).size < 2:
        return fit
    centre = float(np.mean(np.log(d)))
    x = np.log(d) - centre
    best, (a, b, log_sigma) = _maximise(x, lo, hi)
    fit.update(exponent=float(a), intercept=float(b), sigma=float(np.exp(log_sigma)),
               log_d_centre=centre)
    drop = stats.chi2.ppf(confidence, 1) / 2

    def gap(value):
        # Warm-started at the optimum: the profile is smooth in a.
        return best - _maximise(x, lo, hi, a=value, start=[value, b, log_sigma])[0] - drop

    for side, limit in (("low", -50.0), ("high", 50.0)):
        step = 0.25 if side == "high" else -0.25
        inner, outer = a, a + step
        while gap(outer) < 0 and abs(outer) < abs(limit):
            inner, outer = outer, np.clip(outer + step, -50, 50)
            step *= 2
        if gap(outer) >= 0:
            fit[side] = float(optimize.brentq(gap, min(inner, outer), max(inner, outer),
                                              xtol=1e-3))
    return fit
