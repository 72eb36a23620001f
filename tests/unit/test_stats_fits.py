"""The generic fits the studies' summaries call from :mod:`skxor.studies.stats` (issue 47).

Each was a study's private helper (the flip effect's slope, the training
study's censored growth, the sample-complexity median interval, the
parameter-scaling log-log slope); the studies' results are unchanged, so
these tests check what each computes, independently of any study.
"""

import numpy as np
import pytest
from scipy import stats as scipy_stats

from skxor.studies import stats
from skxor.studies.stats import (bootstrap_loglog_slope, censored_growth_fit,
                                 censored_median_interval, loglog_slope, loglog_slope_interval)


def test_loglog_slope_is_the_bootstrap_fits_slope():
    rng = np.random.default_rng(0)
    x = np.repeat([10, 20, 40, 80], 8)
    y = 3 * x ** 1.5 * np.exp(0.1 * rng.standard_normal(x.size))
    assert loglog_slope(x, y) == bootstrap_loglog_slope(x, y, n_boot=1)["slope"]
    assert loglog_slope([1, 10], [2, 20]) == pytest.approx(1.0)


def test_loglog_slope_interval_is_linregress_on_log10_with_its_t_interval():
    rng = np.random.default_rng(1)
    x = np.repeat([8, 16, 32, 64], 6).astype(float)
    y = 5.0 / x * np.exp(0.2 * rng.standard_normal(x.size))
    y[[0, 7]] = [0.0, np.nan]  # no logarithm: dropped and counted
    fit = loglog_slope_interval(x, y, confidence=0.9)
    keep = np.isfinite(y) & (y > 0)
    line = scipy_stats.linregress(np.log10(x[keep]), np.log10(y[keep]))
    half = scipy_stats.t.ppf(0.95, keep.sum() - 2) * line.stderr
    assert fit == {"slope": line.slope, "low": line.slope - half, "high": line.slope + half,
                   "n_points": 22, "n_dropped": 2}


@pytest.mark.parametrize("x, y", [([8, 16], [1.0, 0.5]), ([8, 8, 8], [1.0, 2.0, 3.0])])
def test_loglog_slope_interval_needs_three_points_at_two_x(x, y):
    fit = loglog_slope_interval(x, y)
    assert np.isnan([fit["slope"], fit["low"], fit["high"]]).all()
    assert fit["n_points"] == len(x)


def test_censored_growth_fit_recovers_a_rate_in_any_base():
    rng = np.random.default_rng(0)
    x = np.repeat([4, 8, 12, 16], 25)
    need = np.exp(5 + 0.5 * np.log(2) * (x - 4) + 0.5 * rng.standard_normal(x.size))
    y = 50 * np.ceil(need / 50)
    seen = y <= 20000
    low, high = np.where(seen, y - 50, 20000), np.where(seen, y, np.inf)
    fit = censored_growth_fit(x, low, high)
    assert fit["low"] < 0.5 < fit["high"] and fit["n_bracketed"] == seen.sum() < x.size
    assert fit["mean_x"] == 10.0 and fit["n_points"] == 100
    # The same growth read in base 4 is half as many powers per unit of x.
    assert censored_growth_fit(x, low, high, base=4.0)["rate"] == \
        pytest.approx(fit["rate"] / 2, rel=1e-4)


def test_censored_growth_fit_needs_bracketed_values_at_two_x():
    fit = censored_growth_fit([4, 4, 8], [100, 150, 2000], [150, 200, np.inf])
    assert np.isnan(fit["rate"]) and fit["n_bracketed"] == 2 and fit["n_points"] == 3


def test_censored_median_interval_takes_order_statistics_or_the_range():
    values = np.arange(1.0, 21.0)
    assert censored_median_interval(values - 1, values) == (5.0, 15.0, "95%")
    assert censored_median_interval(values[:5] - 1, values[:5]) == (0.0, 5.0, "range")
    # The lower end from the lower ends, the upper from the upper ends (right-censored too).
    low, high, _ = censored_median_interval(values - 1, np.full(20, np.inf))
    assert low == 5.0 and high == np.inf


def test_binomial_intervals_are_kept_once_computed_with_the_same_values():
    stats._binomial_bounds.cache_clear()
    first = stats.wilson_interval(7, 20)
    assert stats.wilson_interval(7, 20) == first and stats._binomial_bounds.cache_info().hits == 1
    ci = scipy_stats.binomtest(7, 20).proportion_ci(confidence_level=0.95, method="wilson")
    assert first == (ci.low, ci.high)
    assert stats.clopper_pearson_interval(7, 20) != first  # the method is part of the key


# -- hostile input: a clear ValueError naming the problem, never a silent number -----------

_NAN, _INF = float("nan"), float("inf")


@pytest.mark.parametrize("x, y, match", [
    ([2, 2, 2], [1, 2, 3], "two distinct"),   # was a slope of 0.43 from a rank-1 polyfit
    ([0, 1, 2], [1, 2, 3], "x must hold finite numbers > 0"),
    ([1, 2, 3], [-1, 2, 3], "y must hold finite numbers > 0"),  # was NaN
    ([1, 2, _NAN], [1, 2, 3], "x must hold finite"),
    ([1, 2, 3], [1, 2], "one entry per point"),
])
def test_loglog_slope_refuses_what_has_no_slope(x, y, match):
    with pytest.raises(ValueError, match=match):
        loglog_slope(x, y)


@pytest.mark.parametrize("kwargs, match", [
    (dict(x=[1, 2, 3, 4], y=[1, 2, 3], confidence=0.95), "one entry per point"),
    (dict(x=[0, 1, 2, 4], y=[1, 2, 3, 4], confidence=0.95), "x must hold finite"),
    (dict(x=[_NAN, 1, 2, 4], y=[1, 2, 3, 4], confidence=0.95), "x must hold finite"),
    (dict(x=[1, 2, 3, 4], y=[1, 2, 3.5, 4], confidence=0), "confidence"),  # was [slope, slope]
    (dict(x=[1, 2, 3, 4], y=[1, 2, 3.5, 4], confidence=_NAN), "confidence"),
])
def test_loglog_slope_interval_refuses_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        loglog_slope_interval(**kwargs)


@pytest.mark.parametrize("low, high, confidence, match", [
    ([], [], 0.95, "no values"),                               # was an IndexError
    ([1, 2, 3], [2, 3], 0.95, "one entry per point"),           # was (1.0, 3.0, 'range')
    ([5, 6, 7], [1, 2, 3], 0.95, "low <= high"),                # was the interval (5.0, 3.0)
    ([1, _NAN, 3], [2, 3, 4], 0.95, "low <= high"),
    (list(range(10)), list(range(1, 11)), 0, "confidence"),     # was '0%'
    (list(range(10)), list(range(1, 11)), 2, "confidence"),
])
def test_censored_median_interval_refuses_bad_input(low, high, confidence, match):
    with pytest.raises(ValueError, match=match):
        censored_median_interval(low, high, confidence)


_X, _LOW, _HIGH = [1, 1, 2, 2, 3, 3], [1, 1.5, 2, 3, 4, 5], [2, 3, 4, 5, 6, 8]


@pytest.mark.parametrize("x, low, high, kwargs, match", [
    ([1, 2, 3], [1, 2], [2, 3, 4], {}, "one entry per point"),
    ([1, _NAN, 3, 4], [1, 2, 3, 4], [2, 3, 4, 5], {}, "x must hold finite"),
    ([1, 2, 3, 4], [1, _NAN, 3, 4], [2, 3, 4, 5], {}, "low must hold finite"),  # was a rate
    ([1, 2, 3, 4], [-5, 2, 3, 4], [2, 3, 4, 5], {}, "low must hold finite"),    # was a rate
    ([1, 2, 3, 4], [5, 6, 7, 8], [1, 2, 3, 4], {}, "high must be at least low"),  # was a rate
    (_X, _LOW, _HIGH, dict(confidence=0), "confidence"),  # was the interval [rate, rate]
    (_X, _LOW, _HIGH, dict(base=1), "base"),
    (_X, _LOW, _HIGH, dict(base=-2.0), "base"),
])
def test_censored_growth_fit_refuses_bad_input(x, low, high, kwargs, match):
    with pytest.raises(ValueError, match=match):
        censored_growth_fit(x, low, high, **kwargs)
