"""The sample-complexity statistics pinned to their definitions, not to a document.

The profile-likelihood interval of the exponent ends where the likelihood
ratio statistic reaches chi-squared's 95% quantile, which has a closed form
when every n* is known almost exactly (normal linear regression); the
interval of the median n* takes the order statistics ``[X_(r), X_(n+1-r)]``
with the largest r whose coverage ``1 - 2 P(Bin(n, 1/2) < r)`` is at least
95%. A mutated cut-off or order statistic changes these exact values (the
coverage simulations in tests/reliability only notice an interval that is
too narrow).
"""

import numpy as np
import pytest
from scipy import stats

from skxor.studies.stats import censored_loglog_fit, censored_median_interval


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("confidence", [0.9, 0.95])
def test_exponent_interval_is_the_closed_form_profile_likelihood_interval(seed, confidence):
    # n* = 3 d^2 e^(0.3 z), each known to within a factor e^(+-1e-4): the
    # likelihood is then the normal density (times the constant cell width),
    # and the profile likelihood ratio of the slope is N log(1 + (a - a^)^2
    # Sxx / RSS), so the interval is a^ +- sqrt(RSS / Sxx (e^(c / N) - 1))
    # with c the chi-squared quantile of one degree of freedom.
    rng = np.random.default_rng(seed)
    d = np.repeat([10.0, 20.0, 40.0, 80.0, 160.0], 6)
    log_n = np.log(3.0) + 2.0 * np.log(d) + 0.3 * rng.standard_normal(d.size)
    width = 1e-4
    fit = censored_loglog_fit(d, np.exp(log_n - width), np.exp(log_n + width), confidence)
    x = np.log(d) - np.log(d).mean()
    slope, intercept = np.polyfit(x, log_n, 1)
    rss = np.sum((log_n - intercept - slope * x) ** 2)
    half = np.sqrt(rss / np.sum(x**2) * np.expm1(stats.chi2.ppf(confidence, 1) / d.size))
    assert fit["exponent"] == pytest.approx(slope, abs=1e-3)
    # brentq stops within 1e-3 of each end.
    assert fit["low"] == pytest.approx(slope - half, abs=2e-3)
    assert fit["high"] == pytest.approx(slope + half, abs=2e-3)
    assert fit["sigma"] == pytest.approx(np.sqrt(rss / d.size), rel=1e-2)


def _expected_rank(n, confidence):
    """The largest r with 2 P(Bin(n, 1/2) <= r - 1) <= 1 - confidence (0: none), by summing."""
    tail = np.cumsum(stats.binom.pmf(np.arange(n + 1), n, 0.5))
    ranks = [r for r in range(1, n // 2 + 1) if 2 * tail[r - 1] <= 1 - confidence + 1e-12]
    return max(ranks, default=0)


@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_median_interval_takes_the_order_statistics_of_its_coverage(confidence):
    rng = np.random.default_rng(0)
    for n in range(2, 41):
        # Distinct cells in shuffled order: each end names the rank it took.
        lows = rng.permutation(np.arange(n) * 10.0)
        highs = lows + 5.0
        low, high, kind = censored_median_interval(lows, highs, confidence)
        r = _expected_rank(n, confidence)
        if r == 0:
            assert (low, high, kind) == (0.0, 10.0 * (n - 1) + 5.0, "range"), n
            continue
        assert kind == f"{confidence:.0%}", n
        assert (low, high) == (10.0 * (r - 1), 10.0 * (n - r) + 5.0), n
        # The coverage of that rank is at least the confidence; one rank further in is not.
        coverage = 1 - 2 * stats.binom.cdf(r - 1, n, 0.5)
        assert coverage >= confidence - 1e-12
        assert 1 - 2 * stats.binom.cdf(r, n, 0.5) < confidence


def test_median_interval_at_known_sizes():
    # 95%: 6 values give [X_(1), X_(6)] (coverage 0.969), 10 give [X_(2), X_(9)]
    # (0.979), 20 give [X_(6), X_(15)] (0.959); 5 values are too few.
    values = np.arange(1.0, 21.0)
    assert censored_median_interval(values[:5] - 1, values[:5])[2] == "range"
    assert censored_median_interval(values[:6] - 1, values[:6]) == (0.0, 6.0, "95%")
    assert censored_median_interval(values[:10] - 1, values[:10]) == (1.0, 9.0, "95%")
    assert censored_median_interval(values - 1, values) == (5.0, 15.0, "95%")
