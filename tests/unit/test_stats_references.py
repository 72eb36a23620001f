"""Every published interval pinned to an independent reference at several levels.

Wilson and Clopper-Pearson against their closed forms (normal and beta
quantiles from scipy), the bootstrap slope against an exactly enumerable case
(resampling seeds, not points), and the sampled sensitivity profile's
intervals against scipy's one-sample t interval and binomial test.
"""

import numpy as np
import pytest
from scipy import stats

from skxor.boolean import Majority
from skxor.sensitivity import SensitivityProfiler, sensitivity_profile
from skxor.studies.stats import (
    bootstrap_loglog_slope,
    clopper_pearson_interval,
    rate_with_interval,
    wilson_interval,
)

LEVELS = (0.5, 0.8, 0.9, 0.95, 0.99)
COUNTS = [(0, 7), (1, 7), (3, 10), (9, 10), (10, 10), (17, 40), (512, 1050)]


def _wilson_by_hand(k, n, level):
    """Wilson (1927) score interval, no continuity correction."""
    z = stats.norm.ppf(0.5 + level / 2)
    p = k / n
    center = (p + z**2 / (2 * n)) / (1 + z**2 / n)
    half = z / (1 + z**2 / n) * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))
    return max(0.0, center - half), min(1.0, center + half)


def _clopper_pearson_by_hand(k, n, level):
    """Beta quantiles of the exact interval; 0 and 1 at the ends."""
    a = 1 - level
    low = 0.0 if k == 0 else stats.beta.ppf(a / 2, k, n - k + 1)
    high = 1.0 if k == n else stats.beta.ppf(1 - a / 2, k + 1, n - k)
    return low, high


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("k, n", COUNTS)
def test_wilson_matches_the_closed_form(k, n, level):
    np.testing.assert_allclose(wilson_interval(k, n, level), _wilson_by_hand(k, n, level),
                               rtol=0, atol=1e-12)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("k, n", COUNTS)
def test_clopper_pearson_matches_the_beta_quantiles(k, n, level):
    np.testing.assert_allclose(clopper_pearson_interval(k, n, level),
                               _clopper_pearson_by_hand(k, n, level), rtol=0, atol=1e-12)


def test_published_textbook_values():
    # Two-sided 95%: 9/10 gives Wilson [0.5958, 0.9821] and exact [0.5550, 0.9975].
    np.testing.assert_allclose(wilson_interval(9, 10), [0.59585, 0.98212], atol=5e-5)
    np.testing.assert_allclose(clopper_pearson_interval(9, 10), [0.55498, 0.99747], atol=5e-5)
    # 0 of n: the exact upper end solves (1 - p)^n = alpha / 2.
    for level in LEVELS:
        assert clopper_pearson_interval(0, 20, level)[1] == pytest.approx(
            1 - ((1 - level) / 2) ** (1 / 20), rel=1e-10)


@pytest.mark.parametrize("level", LEVELS)
def test_rate_with_interval_is_wilson_at_the_given_level(level):
    flags = [True] * 13 + [False] * 8
    rate, low, high, n = rate_with_interval(flags, level)
    assert (rate, n) == (13 / 21, 21)
    np.testing.assert_allclose((low, high), _wilson_by_hand(13, 21, level), atol=1e-12)


# -- bootstrap slope ---------------------------------------------------------------

def _three_seeds(repeats=1):
    """Three seeds on the same x grid; seed g has log-log slope b_g = 1, 2, 3.

    With a common grid and intercept, the pooled least-squares slope of any
    multiset of seeds is the mean of their slopes, so resampling three seeds
    with replacement gives the mean of three draws from {1, 2, 3}: 1 with
    probability 1/27, 4/3 with 3/27, ... 3 with 1/27.
    """
    x = np.tile(np.repeat([2.0, 4.0, 8.0, 16.0, 32.0], repeats), 3)
    seeds = np.repeat([0, 1, 2], 5 * repeats)
    slopes = np.array([1.0, 2.0, 3.0])[seeds]
    return x, x**slopes, seeds


@pytest.fixture
def bootstrap_from_any_number_of_seeds(monkeypatch):
    """Lift the studies' 8-seed minimum, so the resampling itself can be pinned
    on cases small enough to enumerate (the minimum is tested on its own)."""
    import skxor.studies.stats as stats

    monkeypatch.setattr(stats, "MIN_BOOTSTRAP_GROUPS", 1)


@pytest.mark.usefixtures("bootstrap_from_any_number_of_seeds")
@pytest.mark.parametrize("level, expected", [
    # 95%: the 2.5% tail lies inside the mass 1/27 = 3.7% at 1 (and at 3).
    (0.95, (1.0, 3.0)),
    # 90%: the 5% tail passes the mass at 1 and lands on 4/3 (cumulative 4/27).
    (0.90, (4 / 3, 8 / 3)),
    # 50%: quartiles; P(mean <= 5/3) = 10/27 > 1/4 > 4/27 = P(mean <= 4/3).
    (0.50, (5 / 3, 7 / 3)),
])
def test_bootstrap_over_seeds_matches_the_enumerated_distribution(level, expected):
    x, y, seeds = _three_seeds()
    res = bootstrap_loglog_slope(x, y, groups=seeds, n_boot=4000, confidence=level,
                                 random_state=3)
    assert res["slope"] == pytest.approx(2.0, abs=1e-12)
    assert (res["n_points"], res["n_groups"]) == (15, 3)
    np.testing.assert_allclose((res["low"], res["high"]), expected, rtol=0, atol=1e-9)


@pytest.mark.usefixtures("bootstrap_from_any_number_of_seeds")
def test_bootstrap_resamples_seeds_not_points():
    # Eight points per seed and x: the seed-to-seed spread of slopes is the
    # only variation. Resampling the 120 points treats them as independent
    # and gives a much narrower interval; resampling the 3 seeds does not.
    x, y, seeds = _three_seeds(repeats=8)
    by_seed = bootstrap_loglog_slope(x, y, groups=seeds, n_boot=4000, random_state=3)
    by_point = bootstrap_loglog_slope(x, y, n_boot=4000, random_state=3)
    assert by_seed["n_groups"] == 3 and by_point["n_groups"] == 120
    width_seed = by_seed["high"] - by_seed["low"]
    width_point = by_point["high"] - by_point["low"]
    assert width_seed == pytest.approx(2.0)
    assert width_point < 0.6 * width_seed
    # Points of the same seed always move together: relabelling the seeds'
    # points to one seed leaves nothing to resample.
    one = bootstrap_loglog_slope(x, y, groups=np.zeros(x.size), n_boot=200)
    assert one["low"] == one["high"] == pytest.approx(2.0)


@pytest.mark.usefixtures("bootstrap_from_any_number_of_seeds")
def test_bootstrap_interval_needs_most_draws_fittable():
    # Two seeds, each on a single x: half the draws pick one seed twice (one
    # x value, no slope), so no interval is reported.
    res = bootstrap_loglog_slope([1.0, 2.0], [1.0, 4.0], groups=[0, 1], n_boot=400)
    assert res["slope"] == pytest.approx(2.0)
    assert np.isnan(res["low"]) and np.isnan(res["high"])


# -- the sampled sensitivity profile -------------------------------------------------

def _sensitivities(profile):
    return np.repeat(np.arange(profile.n_bits + 1), profile.counts)


@pytest.mark.parametrize("level", (0.8, 0.9, 0.95, 0.99))
def test_sampled_profile_intervals_match_scipy(level):
    prof = sensitivity_profile(Majority(9), 9, method="sampled", n_samples=300,
                               confidence=level, random_state=0)
    s = _sensitivities(prof)
    assert s.size == 300 and prof.confidence == level
    ref = stats.ttest_1samp(s, 0.0).confidence_interval(confidence_level=level)
    np.testing.assert_allclose(prof.average_ci, [ref.low, ref.high], rtol=0, atol=1e-12)
    # The half width of a t interval: t quantile times the standard error.
    half = stats.t.ppf(0.5 + level / 2, s.size - 1) * s.std(ddof=1) / np.sqrt(s.size)
    assert np.diff(prof.average_ci)[0] == pytest.approx(2 * half, rel=1e-12)
    for k, (low, high) in enumerate(prof.fraction_ci):
        ci = stats.binomtest(int(prof.counts[k]), 300).proportion_ci(level, method="wilson")
        np.testing.assert_allclose((low, high), (ci.low, ci.high), rtol=0, atol=1e-12)


def test_profiler_intervals_match_scipy():
    from sklearn.tree import DecisionTreeClassifier

    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(200, 7))
    y = (X[:, 0] ^ X[:, 3]).astype(int)

    prof = SensitivityProfiler(DecisionTreeClassifier(random_state=0), method="data",
                               confidence=0.9).fit(X, y).profile_
    s = _sensitivities(prof)
    ref = stats.ttest_1samp(s, 0.0).confidence_interval(confidence_level=0.9)
    assert s.std() > 0
    np.testing.assert_allclose(prof.average_ci, [ref.low, ref.high], rtol=0, atol=1e-12)


def test_constant_sensitivity_gives_a_point_interval_and_one_string_the_whole_range():
    # Parity: every string has sensitivity N, the sample variance is zero.
    prof = sensitivity_profile(lambda X: X.sum(axis=1) % 2, 6, method="sampled",
                               n_samples=50, random_state=0)
    np.testing.assert_array_equal(prof.average_ci, [6.0, 6.0])
    one = sensitivity_profile(lambda X: X[:, 0], 6, method="sampled", n_samples=1,
                              random_state=0)
    np.testing.assert_array_equal(one.average_ci, [0.0, 6.0])


# -- edges of the statistics module (each pins a documented behaviour) ---------------

def test_counts_must_lie_between_zero_and_n():
    for k, n in [(-1, 5), (6, 5), (0, -1)]:
        with pytest.raises(ValueError, match=f"need 0 <= successes <= n; got successes={k}, n={n}"):
            wilson_interval(k, n)
        with pytest.raises(ValueError, match="need 0 <= successes <= n"):
            clopper_pearson_interval(k, n)


def test_rate_counts_0_1_flags_at_the_default_level_and_refuses_other_numbers():
    rate, low, high, n = rate_with_interval([1, 0, 1.0, 0])
    assert (rate, n) == (0.5, 4)
    np.testing.assert_allclose((low, high), _wilson_by_hand(2, 4, 0.95), atol=1e-12)
    # A truthy number that is not 0/1 is no flag (issue 34.3): it is refused, named.
    with pytest.raises(ValueError, match="2 value.s. of 4 are not, e.g. 2.0, 3.5"):
        rate_with_interval([2, 0, 3.5, 0])


def test_bootstrap_defaults_are_2000_draws_from_seed_0():
    rng = np.random.default_rng(5)
    x = np.tile([2.0, 4.0, 8.0, 16.0, 32.0], 8)
    seeds = np.repeat(np.arange(8), 5)
    y = x ** (1.0 + 0.3 * rng.standard_normal(8)[seeds]) * np.exp(0.1 * rng.standard_normal(40))
    default = bootstrap_loglog_slope(x, y, groups=seeds)
    assert default == bootstrap_loglog_slope(x, y, groups=seeds, n_boot=2000, random_state=0)
    assert default != bootstrap_loglog_slope(x, y, groups=seeds, n_boot=2001, random_state=0)
    assert default != bootstrap_loglog_slope(x, y, groups=seeds, random_state=1)


def test_bootstrap_drops_missing_zero_and_negative_values():
    # None (a censored run stored as JSON null), 0 and negatives have no logarithm.
    x = [1, 2, 4, None, 8, 16, 3]
    y = [1, 4, 16, 5, 0, -1, None]
    res = bootstrap_loglog_slope(x, y, n_boot=200)
    assert res["n_points"] == 3 and res["slope"] == pytest.approx(2.0)


def test_bootstrap_messages_and_degenerate_inputs():
    with pytest.raises(ValueError, match=r"^x and y must have the same length; got 2 and 3\.$"):
        bootstrap_loglog_slope([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match=r"^groups must have one entry per point\.$"):
        bootstrap_loglog_slope([1, 2], [1, 2], groups=[0])
    one_x = bootstrap_loglog_slope([5, 5, 5], [1, 2, 3])  # three points, one x: no slope
    assert np.isnan([one_x["slope"], one_x["low"], one_x["high"]]).all()


@pytest.mark.usefixtures("bootstrap_from_any_number_of_seeds")
def test_bootstrap_fits_draws_with_exactly_two_x_values():
    # Every seed has both x values: every draw can be fitted.
    x = np.tile([1.0, 2.0], 5)
    seeds = np.repeat(np.arange(5), 2)
    y = x ** (1.0 + 0.1 * seeds)
    res = bootstrap_loglog_slope(x, y, groups=seeds, n_boot=300)
    assert res["low"] < res["slope"] < res["high"]


@pytest.mark.usefixtures("bootstrap_from_any_number_of_seeds")
def test_bootstrap_interval_at_exactly_ninety_percent_fittable_draws():
    # Four one-point seeds, two at each x; with this random state exactly 9 of
    # the 10 draws hold both x values: 90% is enough for an interval.
    res = bootstrap_loglog_slope([1.0, 1.0, 2.0, 2.0], [1.0, 1.5, 4.0, 5.0],
                                 groups=[0, 1, 2, 3], n_boot=10, random_state=7)
    assert np.isfinite([res["low"], res["high"]]).all()


def test_format_interval_edges():
    from skxor.studies.stats import format_interval

    assert format_interval(None, 0.1, 0.2) == "-"
    assert format_interval(0.5, None, 0.7) == "0.50"
    assert format_interval(0.5, np.nan, 0.7) == "0.50"
    assert format_interval(0.5, 0.3, np.inf) == "0.50"
    # At most four digits, even when the bounds still read alike.
    assert format_interval(0.0, 0.0, 1e-5) == "0.0000 [0.0000, 0.0000]"
    assert format_interval(0.5, 0.49, 0.51, digits=1) == "0.50 [0.49, 0.51]"
