"""Intervals used by every study: Wilson, Clopper-Pearson, clustered rates, bootstrap slopes."""

import re

import numpy as np
import pandas as pd
import pytest
from scipy import optimize, special, stats

from skxor.studies.stats import (
    bootstrap_loglog_slope,
    clopper_pearson_interval,
    clustered_rate_interval,
    difference_interval,
    format_count,
    format_interval,
    format_slope,
    rate_with_interval,
    wilson_interval,
)


@pytest.mark.parametrize("k, n", [(0, 5), (3, 10), (10, 10), (1, 1)])
def test_intervals_contain_the_rate_and_stay_in_unit_range(k, n):
    for low, high in (wilson_interval(k, n), clopper_pearson_interval(k, n)):
        assert 0.0 <= low <= k / n <= high <= 1.0
    # The exact interval is the more conservative of the two.
    w, cp = wilson_interval(k, n), clopper_pearson_interval(k, n)
    assert cp[0] <= w[0] + 1e-12 and cp[1] >= w[1] - 1e-12


def test_intervals_narrow_with_more_trials():
    small = np.diff(wilson_interval(5, 10))[0]
    large = np.diff(wilson_interval(500, 1000))[0]
    assert large < small / 5


def test_bad_counts_and_empty_inputs():
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(11, 10)
    assert np.isnan(wilson_interval(0, 0)).all()
    rate, low, high, n = rate_with_interval([])
    assert n == 0 and np.isnan([rate, low, high]).all()


@pytest.mark.parametrize("k, n, ref_k, ref_n", [(0, 5, 3, 10), (30, 50, 30, 50), (10, 10, 1, 2)])
def test_difference_interval_holds_the_difference_and_widens_with_confidence(k, n, ref_k, ref_n):
    interval = difference_interval(k, n, ref_k, ref_n)
    exact = difference_interval(k, n, ref_k, ref_n, exact_reference=True)
    for confidence in (0.5, 0.95):
        low, high = interval(confidence)
        assert -1.0 <= low <= k / n - ref_k / ref_n <= high <= 1.0
        # An exact reference has no width of its own.
        assert interval(confidence)[0] <= exact(confidence)[0] <= exact(confidence)[1] <= high
    assert interval(0.99)[0] < interval(0.95)[0] and interval(0.99)[1] > interval(0.95)[1]
    # Newcombe's hybrid score interval from the two Wilson intervals at that confidence.
    for confidence in (0.5, 0.99):
        (l1, u1), (l2, u2) = wilson_interval(k, n, confidence), wilson_interval(ref_k, ref_n,
                                                                               confidence)
        p, q = k / n, ref_k / ref_n
        assert interval(confidence) == pytest.approx(
            (p - q - np.hypot(p - l1, u2 - q), p - q + np.hypot(u1 - p, q - l2)), abs=1e-14)


def test_difference_interval_takes_a_single_trial():
    assert difference_interval(1, 1, 0, 1, exact_reference=True)(0.95)[1] == pytest.approx(1.0)


def test_difference_interval_names_bad_counts():
    with pytest.raises(ValueError, match="need 0 <= successes <= its trials.*got 6 of 5"):
        difference_interval(6, 5, 1, 2)
    with pytest.raises(ValueError, match="need 0 <= ref_successes <= its trials and "
                                         "trials >= 1; got 1 of 0"):
        difference_interval(1, 5, 1, 0)
    with pytest.raises(TypeError, match="successes and its trials must be ints; got 0.5 of 5"):
        difference_interval(0.5, 5, 1, 2)
    with pytest.raises(TypeError, match="ref_successes"):
        difference_interval(1, 5, True, 2)
    with pytest.raises(ValueError, match="confidence"):
        difference_interval(1, 5, 1, 2)(1.5)


def test_bootstrap_slope_covers_the_true_exponent_and_reports_points():
    rng = np.random.default_rng(1)
    x = np.repeat([25, 50, 100, 200, 400], 10)
    seeds = np.tile(np.arange(10), 5)
    y = 2.0 * x ** 1.5 * np.exp(0.2 * rng.standard_normal(x.size))
    res = bootstrap_loglog_slope(x, y, groups=seeds, n_boot=500, random_state=0)
    assert res["low"] < 1.5 < res["high"]
    assert res["high"] - res["low"] < 0.3
    assert res["n_points"] == 50 and res["n_groups"] == 10


def test_bootstrap_slope_drops_unusable_points_and_needs_two_x_values():
    res = bootstrap_loglog_slope([10, 10, 0, 20], [1.0, np.nan, 5.0, -1.0])
    assert res["n_points"] == 1 and np.isnan(res["slope"])


def test_format_interval():
    assert format_interval(0.5, 0.2, 0.8, digits=1) == "0.5 [0.2, 0.8]"
    assert format_interval(1.0, np.nan, np.nan) == "1.00"


def test_format_interval_never_shows_a_nonzero_interval_as_a_point():
    # 0/1050 successes: Wilson upper bound 0.0036, which rounds to 0.00.
    low, high = wilson_interval(0, 1050)
    text = format_interval(0.0, low, high)
    assert text == "0.000 [0.000, 0.004]"
    # Ordinary intervals keep two digits.
    assert format_interval(0.5, 0.3, 0.7) == "0.50 [0.30, 0.70]"


def test_no_bootstrap_interval_from_fewer_than_eight_seeds():
    # Three seeds: at most 10 distinct resamples; the old code gave an
    # interval anyway (a flat band in the quick figure).
    rng = np.random.default_rng(2)
    x = np.repeat([10, 20, 40, 80], 3)
    y = x ** 1.5 * np.exp(0.3 * rng.standard_normal(x.size))
    res = bootstrap_loglog_slope(x, y, groups=np.tile([0, 1, 2], 4))
    assert res["rough"] and np.isnan(res["low"]) and np.isnan(res["high"])
    assert res["range_low"] <= res["slope"] <= res["range_high"]
    assert "rough: 3 seeds" in format_slope(res)
    x8 = np.repeat([10, 20, 40, 80], 8)
    y8 = x8 ** 1.5 * np.exp(0.3 * rng.standard_normal(x8.size))
    res = bootstrap_loglog_slope(x8, y8, groups=np.tile(np.arange(8), 4))
    assert not res["rough"] and res["low"] < res["slope"] < res["high"]
    assert "rough" not in format_slope(res)


@pytest.mark.parametrize("n_boot", [0, -5, 2.5, None, np.nan, np.inf, "5", True])
def test_bootstrap_needs_a_positive_number_of_resamples(n_boot):
    # Old code: None, NaN and inf reached int() (TypeError / ValueError /
    # OverflowError naming nothing).
    with pytest.raises(ValueError, match="n_boot must be a whole number >= 1"):
        bootstrap_loglog_slope([1, 2, 3], [1, 2, 3], n_boot=n_boot)


@pytest.mark.parametrize("confidence", [0, 1, 1.5, -0.1, np.nan, "0.95", True, None])
def test_bootstrap_names_a_bad_confidence(confidence):
    # Old code: 1.5 and NaN gave numpy's "Quantiles must be in the range
    # [0, 1]"; 0 gave a zero-width "interval" without a word.
    x = np.repeat([10, 20, 40, 80], 8)
    y = x ** 2.0 * np.exp(0.1 * np.random.default_rng(0).standard_normal(x.size))
    with pytest.raises(ValueError, match="confidence must be a number in"):
        bootstrap_loglog_slope(x, y, groups=np.tile(np.arange(8), 4), confidence=confidence)


# -- rates pooled over runs that share a seed ------------------------------------------


def test_clustered_interval_when_runs_of_a_seed_agree_is_about_the_seeds():
    per_seed = np.array([True] * 7 + [False] * 3)
    flags, seeds = np.repeat(per_seed, 35), np.repeat(np.arange(10), 35)
    rate, low, high, n, groups, n_eff = clustered_rate_interval(flags, seeds)
    assert (rate, n, groups) == (0.7, 350, 10)
    assert n_eff == pytest.approx(10, rel=0.01)
    # Ten units, F-calibrated: wider than Wilson over the seeds, far wider than over runs.
    w_low, w_high = wilson_interval(7, 10)
    assert low < w_low and high > w_high and high - low < 1.2 * (w_high - w_low)


def _profile(k, m, p):
    """The beta-binomial log-likelihood of counts ``k`` of ``m`` at rate ``p``,
    maximised over the intra-seed correlation: scipy's distribution, a bounded
    scalar search (not the module's grid)."""
    def minus(logit):
        rho = special.expit(logit)
        spread = 1 / rho - 1
        return -stats.betabinom.logpmf(k, m, p * spread, (1 - p) * spread).sum()

    found = optimize.minimize_scalar(minus, bounds=(-12, 9), method="bounded",
                                     options={"xatol": 1e-6})
    grid = min(minus(x) for x in np.linspace(-12, 9, 400))
    return max(-found.fun, -grid, stats.binom.logpmf(k, m, p).sum())


@pytest.mark.parametrize("counts", [(36, 36, 36, 0, 36, 30, 36, 36, 36, 35),
                                    (3, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0),
                                    (5, 4, 6, 5, 3, 7, 5, 4)])
def test_clustered_interval_ends_at_the_profile_likelihood_cut_off(counts):
    # The likelihood ratio statistic at each end is the F(1, G - 1) 95% quantile,
    # checked with an independent profile likelihood (mutating the cut-off, e.g.
    # chi-squared's quantile or no halving, moves the ends far beyond 1e-3).
    m = 36 if max(counts) > 9 else 10
    k, runs = np.array(counts), np.full(len(counts), m)
    flags = np.concatenate([np.arange(m) < c for c in counts])
    seeds = np.repeat(np.arange(len(counts)), m)
    rate, low, high, *_ = clustered_rate_interval(flags, seeds)
    top = _profile(k, runs, rate)
    cut = stats.f.ppf(0.95, 1, len(counts) - 1) / 2
    for end in (low, high):
        assert 0 < end < 1
        assert top - _profile(k, runs, end) == pytest.approx(cut, abs=2e-3)


def test_clustered_interval_covers_where_wilson_over_runs_does_not():
    # 30 seeds of 35 correlated runs (a seed's own success rate is Beta(8, 2),
    # mean 0.8): treating the 1 050 runs as independent covers 0.8 far less
    # often than 95%; taking the seeds as the units comes close to 95%.
    rng = np.random.default_rng(0)
    seeds = np.repeat(np.arange(30), 35)
    covered = np.zeros(2)
    for _ in range(400):
        own = rng.beta(8.0, 2.0, 30)
        flags = (rng.random((30, 35)) < own[:, None]).ravel()
        _, low, high, *_ = clustered_rate_interval(flags, seeds)
        w_low, w_high = wilson_interval(int(flags.sum()), flags.size)
        covered += [low <= 0.8 <= high, w_low <= 0.8 <= w_high]
    clustered, naive = covered / 400
    assert clustered >= 0.9 and naive < 0.8


def test_clustered_interval_input_checks():
    assert np.isnan(clustered_rate_interval([], [])[0])
    assert clustered_rate_interval([], [])[3:5] == (0, 0)
    with pytest.raises(ValueError, match="one entry per run"):
        clustered_rate_interval([True, False], [0])
    with pytest.raises(ValueError, match="confidence"):
        clustered_rate_interval([True], [0], confidence=1.5)


def test_quantile_interval_covers_the_median_and_names_bad_input():
    from skxor.studies.stats import quantile_interval

    # Coverage of the order-statistic interval over draws from a skewed law: at
    # least 95% by construction (here about 0.98 for n = 10), never below.
    rng = np.random.default_rng(0)
    true_median = np.log(2)  # exponential(1)
    hits = [lo <= true_median <= hi for lo, hi in
            (quantile_interval(rng.exponential(size=10))[1:] for _ in range(2000))]
    assert np.mean(hits) >= 0.95
    # Runs beyond their budget are +inf: the (lower) median is inf once more than
    # half are, finite at exactly half.
    assert quantile_interval([1.0, np.inf, np.inf, np.inf])[0] == np.inf
    assert quantile_interval([1.0, np.inf, np.inf, 2.0])[0] == 2.0
    assert quantile_interval([5.0])[1:] == (-np.inf, np.inf)
    assert all(np.isnan(quantile_interval([])))
    with pytest.raises(ValueError, match="must not hold NaN"):
        quantile_interval([1.0, np.nan])
    with pytest.raises(ValueError, match="confidence"):
        quantile_interval([1.0, 2.0], confidence=1.5)


@pytest.mark.parametrize("q", [1.5, 0.0, 1.0, -0.2, float("nan"), "0.5", True])
def test_quantile_interval_names_a_q_outside_the_unit_interval(q):
    # q = 1.5 raised numpy's IndexError from the order statistics.
    from skxor.studies.stats import quantile_interval

    with pytest.raises(ValueError, match=r"q must be a number in \(0, 1\)"):
        quantile_interval([1.0, 2.0, 3.0], q=q)


@pytest.mark.parametrize("counts, runs", [((1, 1, 2, 3), (1, 3, 3, 3)),
                                          ((0, 2, 5, 1, 4, 1), (1, 4, 6, 2, 5, 1))])
def test_clustered_interval_with_unequal_runs_per_seed_ends_at_the_cut_off(counts, runs):
    # Some seeds with one run, others with several: still the beta-binomial
    # profile likelihood over the seeds, F(1, G - 1)-calibrated (taking one
    # run at some seed as "one run per seed" gave Wilson over the runs).
    k, m = np.array(counts), np.array(runs)
    flags = np.concatenate([np.arange(r) < c for c, r in zip(counts, runs)])
    rate, low, high, *_ = clustered_rate_interval(flags, np.repeat(np.arange(k.size), m))
    top = _profile(k, m, rate)
    cut = stats.f.ppf(0.95, 1, k.size - 1) / 2
    for end in (low, high):
        assert 0 < end < 1
        assert top - _profile(k, m, end) == pytest.approx(cut, abs=2e-3)


@pytest.mark.parametrize("n, low_rank, high_rank", [(10, 2, 9), (20, 6, 15), (30, 10, 21),
                                                    (100, 40, 61)])
def test_quantile_interval_ends_are_the_tabled_order_statistics(n, low_rank, high_rank):
    """The 95% interval of a median from n draws runs from the l-th to the u-th smallest
    value, l and u the ranks of the standard tables (Conover, Practical Nonparametric
    Statistics, table A3: n = 20 gives 6 and 15, n = 100 gives 40 and 61). A wider
    pair (alpha / 3 per tail: 5 and 16 at n = 20) covers more than it states."""
    from skxor.studies.stats import quantile_interval

    values = np.random.default_rng(n).permutation(np.arange(1.0, n + 1) * 10)
    assert quantile_interval(values)[1:] == (10.0 * low_rank, 10.0 * high_rank)


def test_quantile_interval_reads_object_columns_and_names_missing_values_whole():
    """A table column of dtype object (a pandas column that held None) is read as
    floats: its values give the same interval, a missing one is refused by the
    message, not by a TypeError from sorting None."""
    from skxor.studies.stats import quantile_interval

    assert quantile_interval(pd.Series([3, 1, 2], dtype=object)) == quantile_interval([3, 1, 2])
    with pytest.raises(ValueError) as info:
        quantile_interval(pd.Series([1.0, None, 2.0], dtype=object))
    assert str(info.value) == "values must not hold NaN: a run beyond its budget is inf."


def test_quantile_interval_at_six_draws_ends_at_the_smallest_and_largest():
    """With 6 draws the 95% interval of the median runs from the smallest to the largest
    value (ranks 1 and 6, coverage 1 - 2/64 = 96.9%); not an infinite end."""
    from skxor.studies.stats import quantile_interval

    assert quantile_interval([4.0, 1.0, 6.0, 2.0, 5.0, 3.0]) == (3.0, 1.0, 6.0)


@pytest.mark.parametrize("flags, rate", [([True, True, False], 2 / 3), ([False] * 4, 0.0)])
def test_runs_of_a_single_seed_are_one_unit(flags, rate):
    """All runs from one seed are one independent unit: the rate with an interval of
    effective size 1 that contains it, the same however many runs the seed has."""
    from skxor.studies.stats import clustered_rate_interval

    got = clustered_rate_interval(flags, [7] * len(flags))
    assert got[0] == pytest.approx(rate) and got[3:] == (len(flags), 1, 1.0)
    assert 0.0 <= got[1] <= rate <= got[2] <= 1.0 and got[2] - got[1] > 0.5
    assert clustered_rate_interval(flags * 2, [7] * (2 * len(flags)))[:3] == got[:3]


@pytest.mark.parametrize("counts, runs", [((2,) * 10, (4,) * 10), ((1,) * 5, (3,) * 5),
                                          ((1, 2, 3), (2, 4, 6)), ((5, 5, 5), (9, 9, 9))])
def test_seeds_that_agree_on_their_rate_count_every_run(counts, runs):
    """Seeds whose runs succeed at one and the same rate show no spread between seeds:
    the likelihood's best intra-seed correlation is 0 (the binomial, not the smallest
    correlation of the grid nor full correlation), so the runs are worth all of
    themselves (``n_effective == n``), and the interval's ends lie where the profile
    likelihood falls by the F(1, G - 1) cut-off, the profile taking the binomial where
    it is the better fit."""
    k, m = np.array(counts), np.array(runs)
    flags = np.concatenate([np.arange(r) < c for c, r in zip(counts, runs)])
    rate, low, high, n, groups, n_eff = clustered_rate_interval(
        flags, np.repeat(np.arange(k.size), m))
    assert (n, groups) == (m.sum(), k.size)
    assert n_eff == pytest.approx(n, rel=1e-12)
    cut = stats.f.ppf(0.95, 1, k.size - 1) / 2
    top = _profile(k, m, rate)
    assert 0 < low < rate < high < 1
    for end in (low, high):
        assert top - _profile(k, m, end) == pytest.approx(cut, abs=2e-3)


@pytest.mark.parametrize("flags, message", [
    ([True, None, False], "flags holds 1 missing value(s) of 3: a missing flag is neither "
     "success nor failure (drop those rows first)."),
    ([True, 2, False], "flags must hold flags (True/False, or 0/1); 1 value(s) of 3 are "
     "not, e.g. 2."),
])
def test_clustered_interval_names_the_flags_in_its_refusals(flags, message):
    """A run that is not a flag is refused with the same words as the other rate
    functions, naming the argument ``flags``."""
    with pytest.raises(ValueError) as info:
        clustered_rate_interval(np.array(flags, dtype=object), [0, 0, 1])
    assert str(info.value) == message


def test_clustered_interval_refuses_a_missing_seed_whole():
    """A run without a seed is refused, saying how many and why (it is no seed of its own)."""
    with pytest.raises(ValueError) as info:
        clustered_rate_interval([True, False, True, False], [0, None, 1, np.nan])
    assert str(info.value) == ("clusters holds 2 missing label(s): every run needs its seed "
                               "(a missing one is no seed of its own).")


ROUGH = {"slope": 0.21, "low": float("nan"), "high": float("nan"), "n_groups": 5,
         "rough": True}


@pytest.mark.parametrize("digits", [1, 3])
def test_formatted_slopes_and_counts_keep_the_digits_asked(digits):
    """The number of decimals asked reaches every number shown: a slope's interval, a
    rough slope's range and a count's rate and interval."""
    def decimals(text):
        return {len(number.split(".")[1]) for number in
                re.findall(r"-?\d+\.\d+", text)}

    assert decimals(format_slope({"slope": 1.02, "low": 0.9, "high": 1.1, "n_groups": 10},
                                 digits=digits)) == {digits}
    assert decimals(format_slope({**ROUGH, "range_low": 0.1, "range_high": 0.35},
                                 digits=digits)) == {digits}
    for interval in ("wilson", "clopper-pearson"):
        assert decimals(format_count(4, 5, "networks", interval, digits)) == {digits}


def test_a_count_reads_the_interval_asked_for_and_refuses_others_by_name():
    """Each interval of the list gives its own ends; another name is refused, listing
    those known."""
    for interval, bounds in (("wilson", wilson_interval),
                             ("clopper-pearson", clopper_pearson_interval)):
        assert format_count(4, 5, "networks", interval) == (
            "4/5 networks = " + format_interval(0.8, *bounds(4, 5)))
    assert format_count(4, 5, "networks", "clopper-pearson") != format_count(4, 5, "networks")
    with pytest.raises(ValueError) as info:
        format_count(4, 5, "networks", interval="exact")
    assert str(info.value) == ("interval must be one of ['clopper-pearson', 'wilson']; "
                               "got 'exact'.")


@pytest.mark.parametrize("extra, unit, tail", [
    ({}, "seeds", ""),
    ({"range_low": 0.1}, "seeds", ""),
    ({"range_high": 0.35}, "seeds", ""),
    ({"range_low": 0.1, "range_high": float("nan")}, "seeds", ""),
    ({"range_low": float("inf"), "range_high": 0.35}, "seeds", ""),
    ({"range_low": 0.1, "range_high": 0.35}, "seeds", "; per-seed slopes 0.10 to 0.35"),
    ({"range_low": 0.1, "range_high": 0.35}, "networks", "; per-network slopes 0.10 to 0.35"),
    ({"range_low": 0.1, "range_high": 0.35}, "data", "; per-data slopes 0.10 to 0.35"),
    ({"range_low": 0.3, "range_high": 0.3}, "seeds", "; per-seed slopes all 0.30"),
])
def test_a_rough_slope_shows_its_range_only_when_both_ends_are_known(extra, unit, tail):
    """A slope with too few units for an interval says so; the per-unit range is shown
    only when both of its ends are finite (one value when they agree), the unit named
    in the singular where its plural ends in s."""
    assert format_slope({**ROUGH, **extra}, unit=unit) == (
        f"0.21 (rough: 5 {unit}, too few for an interval{tail})")


def test_a_slope_that_could_not_be_fitted_is_a_dash_even_when_rough():
    """No slope (NaN) reads as the dash of :func:`format_interval`, with nothing after."""
    assert format_slope({**ROUGH, "slope": float("nan"), "range_low": 0.1,
                         "range_high": 0.35}) == "-"


@pytest.mark.parametrize("confidence", [0.8, 0.95])
def test_one_unit_and_one_run_per_seed_are_wilson_at_the_confidence_asked(confidence):
    """Runs that all share one seed are one trial: Wilson's interval of one unit at the
    confidence asked; seeds of one run each are Wilson's over the runs at that level."""
    for flags in ([True] * 4, [False] * 3):
        got = clustered_rate_interval(flags, [7] * len(flags), confidence)
        assert got[1:3] == pytest.approx(wilson_interval(int(flags[0]), 1, confidence),
                                         abs=1e-12)
    flags = np.arange(9) < 6
    got = clustered_rate_interval(flags, np.arange(9), confidence)
    assert got[1:3] == pytest.approx(wilson_interval(6, 9, confidence), abs=1e-12)


# Issue 48, the mutation run of 5 December 2026 (docs/mutation.rst): the survivors' gaps.

@pytest.mark.parametrize("counts", [(0, 1), (1, 2)])
@pytest.mark.parametrize("margin", [0.5, -0.5])
def test_an_end_reaches_0_or_1_exactly_when_the_likelihood_never_falls_by_the_cut_off(
        counts, margin):
    """Two seeds of two runs: each end of the interval is 0 (or 1) when the profile
    likelihood at the edge of (0, 1) lies within the F cut-off of its maximum (here by
    half a unit), and inside (0, 1), where it falls by the cut-off, when it does not."""
    k, m = np.array(counts), np.array([2, 2])
    flags = np.concatenate([np.arange(2) < c for c in counts])
    rate = k.sum() / m.sum()
    top = _profile(k, m, rate)
    for side, edge in ((1, 1e-12), (2, 1 - 1e-12)):
        drop = top - _profile(k, m, edge)
        cut = drop + margin
        confidence = stats.f.cdf(2 * cut, 1, 1)
        _, low, high, *_ = clustered_rate_interval(flags, [0, 0, 1, 1], confidence)
        end = (low, high)[side - 1]
        if margin > 0:
            assert end == (0.0 if side == 1 else 1.0)
        else:
            # Inside, where the likelihood has fallen by the cut-off (the search's
            # tolerance is in the rate, so near an edge it may have fallen further).
            assert 0 < end < 1 and 0 <= low <= rate <= high <= 1
            assert top - _profile(k, m, end) >= cut - 2e-3


@pytest.mark.parametrize("counts", [(0, 1), (1, 1), (2, 1), (0, 2)])
def test_two_seeds_of_partial_success_span_the_unit_interval(counts):
    """Two seeds: F(1, 1) is 161, the likelihood never falls that far inside (0, 1), so
    the 95% interval is [0, 1] whatever the two seeds' counts."""
    flags = np.concatenate([np.arange(2) < c for c in counts])
    rate, low, high, n, groups, _ = clustered_rate_interval(flags, [0, 0, 1, 1])
    assert (rate, low, high, n, groups) == (sum(counts) / 4, 0.0, 1.0, 4, 2)


def test_float_flags_with_nan_are_refused_as_missing_not_as_other_numbers():
    """NaN in a float column is a missing flag (the missing-value message), whatever
    the container; other numbers are refused as not flags, showing three of them."""
    from skxor.studies.stats import as_flags
    message = ("flags holds 1 missing value(s) of 3: a missing flag is neither success "
               "nor failure (drop those rows first).")
    for values in (np.array([1.0, np.nan, 0.0]), pd.Series([1.0, np.nan, 0.0]),
                   pd.Series([True, None, False], dtype="boolean"),
                   pd.Series([1, None, 0], dtype="Int64")):
        with pytest.raises(ValueError) as info:
            as_flags(values)
        assert str(info.value) == message
    with pytest.raises(ValueError) as info:
        as_flags(np.array([2.0, 3.0, 4.0, 5.0, 3.0, 1.0]), "won")
    assert str(info.value) == ("won must hold flags (True/False, or 0/1); 5 value(s) of 6 "
                               "are not, e.g. 2.0, 3.0, 4.0.")
    assert as_flags(pd.Series([1.0, 0.0])).tolist() == [True, False]


@pytest.mark.parametrize("values", [np.array([1 + 0j, 0j]), np.array([1 + 0j, 0j], dtype=object)])
def test_complex_numbers_are_not_flags_even_when_equal_to_0_or_1(values):
    """A flag is a boolean or the real number 0 or 1; 1 + 0j compares equal to 1 but is
    not real, so it is refused (numeric or object array alike)."""
    from skxor.studies.stats import as_flags
    with pytest.raises(ValueError, match=r"^flags must hold flags .* 2 value\(s\) of 2 are not"):
        as_flags(values)


def test_one_resample_is_the_smallest_count_accepted():
    from skxor.studies.stats import check_n_boot
    assert check_n_boot(1) == 1 and check_n_boot(2.0) == 2
    with pytest.raises(ValueError, match=r"^n_boot must be a whole number >= 1; got 0\.$"):
        check_n_boot(0)


@pytest.mark.parametrize("x, y, message", [
    ([1, 0, 4], [1, 2, 3], "x must hold finite numbers > 0 (a logarithm is taken); got [0.]."),
    ([1, 2, 4], [1, -2, 3], "y must hold finite numbers > 0 (a logarithm is taken); got [-2.]."),
    ([1, 2, 4], [1, np.inf, 0], "y must hold finite numbers > 0 (a logarithm is taken); "
     "got [inf  0.]."),
    ([1, 2], [1, 2, 3], "x and y need one entry per point; got lengths 2, 3."),
    ([[1, 2]], [1, 2], "x must be 1-D; got shape (1, 2)."),
    ([1, 2], [[1, 2]], "y must be 1-D; got shape (1, 2)."),
    ([2, 2], [1, 2], "x must hold two distinct values or more for a slope; got [2.]."),
])
def test_loglog_slope_refuses_what_has_no_logarithm_by_name(x, y, message):
    """Every value of x and y must be finite and > 0 (zero and negatives included in the
    refusal); the message names the argument and shows the values refused."""
    from skxor.studies.stats import loglog_slope
    with pytest.raises(ValueError) as info:
        loglog_slope(x, y)
    assert str(info.value) == message


def test_loglog_slope_shows_at_most_five_refused_values_and_names_what_is_not_a_number():
    from skxor.studies.stats import censored_loglog_fit, loglog_slope
    with pytest.raises(ValueError) as info:
        loglog_slope([1, 2, 3, 4, 5, 6, 7], [0, -1, -2, -3, -4, -5, 1])
    shown = re.search(r"got \[(.*)\]\.$", str(info.value)).group(1).split()
    assert len(shown) == 5
    with pytest.raises(ValueError) as info:
        loglog_slope(["a", "b"], [1, 2])
    assert str(info.value) == "x must hold numbers; got ['a', 'b']."
    # Three arrays: all but the last named, then "and" the last.
    with pytest.raises(ValueError) as info:
        censored_loglog_fit([1, 2, 3], [1, 2], [2, 3, 4])
    assert str(info.value) == ("d, n_low and n_high need one entry per observation; got "
                               "lengths 3, 2, 3.")


@pytest.mark.parametrize("confidence", [0.8, 0.95])
def test_loglog_slope_interval_is_the_t_interval_of_the_least_squares_slope(confidence):
    """log10 y on log10 x: the slope and slope -+ t(n - 2) se, with the closed-form
    standard error, at the confidence asked; points without a logarithm of y dropped
    and counted."""
    from skxor.studies.stats import loglog_slope_interval
    x = np.array([1.0, 10, 100, 1000, 10, 5])
    y = np.array([2.0, 25, 160, 2400, 0.0, -1])
    fit = loglog_slope_interval(x, y, confidence)
    lx, ly = np.log10(x[:4]), np.log10(y[:4])
    sxx = ((lx - lx.mean()) ** 2).sum()
    slope = ((lx - lx.mean()) * (ly - ly.mean())).sum() / sxx
    resid = ly - ly.mean() - slope * (lx - lx.mean())
    se = np.sqrt((resid ** 2).sum() / 2 / sxx)
    half = stats.t.ppf((1 + confidence) / 2, 2) * se
    assert set(fit) == {"slope", "low", "high", "n_points", "n_dropped"}
    assert (fit["n_points"], fit["n_dropped"]) == (4, 2)
    assert fit["slope"] == pytest.approx(slope, rel=1e-12)
    assert fit["low"] == pytest.approx(slope - half, rel=1e-10)
    assert fit["high"] == pytest.approx(slope + half, rel=1e-10)


@pytest.mark.parametrize("x, y, fitted", [
    ([1, 2, 4], [1, 2, 3], True),        # three points, three x: fitted
    ([1, 1, 4], [1, 2, 3], True),        # three points, two distinct x: fitted
    ([1, 2], [1, 2], False),             # two points: no t interval
    ([1, 2, 4], [1, 2, 0], False),       # two kept of three
    ([3, 3, 3, 3], [1, 2, 3, 4], False),  # one distinct x
])
def test_loglog_slope_interval_needs_three_points_and_two_distinct_x(x, y, fitted):
    from skxor.studies.stats import loglog_slope_interval
    fit = loglog_slope_interval(x, y)
    kept = int(np.sum(np.array(y) > 0))
    assert (fit["n_points"], fit["n_dropped"]) == (kept, len(y) - kept)
    values = [fit["slope"], fit["low"], fit["high"]]
    if fitted:
        assert all(np.isfinite(values)) and fit["low"] <= fit["slope"] <= fit["high"]
    else:
        assert all(isinstance(v, float) and np.isnan(v) for v in values)


@pytest.mark.parametrize("x, message", [
    ([1, 0, 2, 3], "x must hold finite numbers > 0 (a logarithm is taken); got [0.]."),
    ([1, 0.5, -2, np.inf], "x must hold finite numbers > 0 (a logarithm is taken); "
     "got [-2. inf]."),
    ([0, -1, -2, -3, -4, -5], "x must hold finite numbers > 0 (a logarithm is taken); "
     "got [ 0. -1. -2. -3. -4.]."),
])
def test_loglog_slope_interval_refuses_an_x_without_a_logarithm(x, message):
    """Unlike y (a point without a logarithm of y is dropped), every x must be finite
    and > 0; the refusal shows at most five of the values refused (0.5 is accepted)."""
    from skxor.studies.stats import loglog_slope_interval
    with pytest.raises(ValueError) as info:
        loglog_slope_interval(x, np.ones(len(x)))
    assert str(info.value) == message
    with pytest.raises(ValueError) as info:
        loglog_slope_interval([1, 2], [1, 2, 3])
    assert str(info.value) == "x and y need one entry per point; got lengths 2, 3."


def _seed_bootstrap(x, y, groups, n_boot, confidence, seed):
    """The percentile interval of the slopes refitted on seeds drawn with replacement
    (numpy's RandomState, as scikit-learn's check_random_state gives)."""
    rng = np.random.RandomState(seed)
    labels = np.unique(groups)
    members = [np.flatnonzero(groups == g) for g in labels]
    slopes = []
    for _ in range(n_boot):
        rows = np.concatenate([members[i] for i in rng.randint(0, labels.size, labels.size)])
        if np.unique(x[rows]).size >= 2:
            slopes.append(np.polyfit(np.log(x[rows]), np.log(y[rows]), 1)[0])
    alpha = (1 - confidence) / 2
    return np.quantile(slopes, [alpha, 1 - alpha])


@pytest.mark.parametrize("confidence", [0.8, 0.95])
def test_bootstrap_interval_is_the_percentile_interval_over_seeds_drawn_with_replacement(
        confidence):
    rng = np.random.default_rng(3)
    x = np.tile([10.0, 20, 40], 8)
    groups = np.repeat(np.arange(8), 3)
    y = x ** 1.5 * np.exp(0.3 * rng.standard_normal(x.size))
    fit = bootstrap_loglog_slope(x, y, groups, n_boot=300, confidence=confidence,
                                 random_state=5)
    low, high = _seed_bootstrap(x, y, groups, 300, confidence, 5)
    assert (fit["low"], fit["high"]) == (pytest.approx(low, rel=1e-12),
                                         pytest.approx(high, rel=1e-12))
    again = bootstrap_loglog_slope(x, y, groups, n_boot=300, confidence=confidence,
                                   random_state=5)
    assert again == fit


def test_bootstrap_without_two_points_has_every_key_and_groups_of_two_x_give_the_range():
    fit = bootstrap_loglog_slope([10.0], [3.0])
    assert set(fit) == {"slope", "low", "high", "n_points", "n_groups", "rough",
                        "range_low", "range_high"}
    assert np.isnan([fit[k] for k in ("slope", "low", "high", "range_low", "range_high")]).all()
    # Three seeds, each with exactly two distinct x: each seed's own slope makes the range.
    x = np.array([1.0, 2, 1, 2, 1, 2])
    y = np.array([1.0, 2, 1, 4, 1, 8])
    fit = bootstrap_loglog_slope(x, y, groups=[0, 0, 1, 1, 2, 2])
    assert fit["rough"] and (fit["range_low"], fit["range_high"]) == (
        pytest.approx(1.0), pytest.approx(3.0))


def test_the_censored_likelihood_is_the_log_probability_of_each_interval():
    """Sum over observations of log P(lo < log n* <= hi) under Normal(b + a x, sigma),
    left- and right-censored ends included, both tails accurate, and an observation
    beyond any float probability floored at -1e6."""
    from skxor.studies.stats import _log_likelihood
    a, b, sigma = 1.7, 0.4, 0.6
    x = np.array([-1.0, -0.5, 0.0, 0.5, 1.0, 0.2])
    lo = np.array([-np.inf, -1.5, 0.1, 1.9, 2.6, -3.0])
    hi = np.array([-1.0, -0.6, 0.9, np.inf, 3.4, -2.5])
    mu = b + a * x
    zl, zh = (lo - mu) / sigma, (hi - mu) / sigma
    upper = zl > 0
    p = np.where(upper, stats.norm.sf(zl) - stats.norm.sf(zh),
                 stats.norm.cdf(zh) - stats.norm.cdf(zl))
    assert upper.any() and (~upper).any()
    expected = np.log(p).sum()
    assert _log_likelihood([a, b, np.log(sigma)], x, lo, hi) == pytest.approx(expected,
                                                                             rel=1e-10)
    # Far in the upper tail (10 to 11 sigma above): Phi(zh) - Phi(zl) is 0 in floats, the
    # difference of the upper tails is not.
    tail = _log_likelihood([a, b, np.log(sigma)], np.array([0.0]), np.array([b + 10 * sigma]),
                           np.array([b + 11 * sigma]))
    assert tail == pytest.approx(np.log(stats.norm.sf(10) - stats.norm.sf(11)), rel=1e-10)
    # An observation some 2 000 sigma away: log_ndtr is below -1e6, counted as -1e6.
    far = _log_likelihood([a, b, np.log(sigma)], np.array([0.0]), np.array([1200.0]),
                          np.array([1300.0]))
    assert far == -1e6


def test_the_censored_fit_names_the_sizes_it_refuses():
    """A negative or NaN lower size is refused naming those sizes (at most five), not
    with an error raised while writing the message (issue 48, sixth mutation run)."""
    from skxor.studies.stats import censored_loglog_fit
    with pytest.raises(ValueError) as info:
        censored_loglog_fit([16, 32, 64], [-1.0, np.nan, 100.0], [50.0, 80.0, np.inf])
    assert str(info.value) == ("n_low must hold finite sizes >= 0 (0: left-censored); got "
                               "[-1. nan].")


def test_the_censored_fits_run_without_warnings():
    """The maximum-likelihood fits pass their optimiser only options it knows: an unknown
    option would be ignored with a warning and its default tolerance used instead."""
    import warnings

    from skxor.studies.stats import censored_growth_fit, censored_loglog_fit
    rng = np.random.default_rng(3)
    d = np.repeat([16.0, 32, 64, 128], 8)
    n = np.exp(1.0 + 1.5 * np.log(d) + 0.3 * rng.standard_normal(d.size))
    low, high = np.floor(n), np.floor(n) + 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = censored_loglog_fit(d, low, high)
        growth = censored_growth_fit(np.log2(d), low, high)  # y = e d^1.5 = e 2^(1.5 log2 d)
    assert fit["low"] < 1.5 < fit["high"] and growth["low"] < 1.5 < growth["high"]


def test_a_left_censored_size_counts_from_zero_and_a_size_of_one_from_one():
    """n_low = 0 is left-censored (the size lies anywhere up to n_high), which the fit
    reads as n_low -> 0 and without a warning; an n_low of 1 is a real lower end (log 1 =
    0), not a left-censored one (issue 48, sixth mutation run: no test had one)."""
    import warnings

    from skxor.studies.stats import censored_loglog_fit
    rng = np.random.default_rng(0)
    d = np.repeat([16.0, 32, 64, 128], 8)
    low = np.floor(0.05 * d * np.exp(0.3 * rng.standard_normal(d.size)))  # 7 zeros, 9 ones
    high = low + 1
    assert (low == 0).sum() == 7 and (low == 1).sum() == 9
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = censored_loglog_fit(d, low, high)
    near_zero = censored_loglog_fit(d, np.where(low == 0, 1e-12, low), high)
    assert fit["exponent"] == pytest.approx(near_zero["exponent"], abs=1e-4)
    assert fit["sigma"] == pytest.approx(near_zero["sigma"], abs=1e-4)
    ones_as_zeros = censored_loglog_fit(d, np.where(low == 1, 0.0, low), high)
    assert abs(fit["exponent"] - ones_as_zeros["exponent"]) > 0.05


def test_a_censored_fit_over_one_size_of_d_is_every_value_nan():
    from skxor.studies.stats import censored_loglog_fit
    fit = censored_loglog_fit([16, 16, 16], [10, 20, 30], [11, 21, 31])
    assert list(fit) == ["exponent", "low", "high", "sigma", "intercept", "log_d_centre",
                         "n_points"]
    assert fit["n_points"] == 3
    assert all(isinstance(v, float) and np.isnan(v) for k, v in fit.items() if k != "n_points")


def test_the_censored_fit_reports_its_line_about_the_centre_of_log_d():
    """log n* = intercept + exponent (log d - log_d_centre), log_d_centre the mean log d of
    the observations: read back from sizes known to 0.1%."""
    from skxor.studies.stats import censored_loglog_fit
    d = np.repeat([10.0, 20, 40, 80], 5)
    centre = np.log(d).mean()
    rng = np.random.default_rng(1)
    n = np.exp(6.0 + 1.5 * (np.log(d) - centre) + 0.2 * rng.standard_normal(d.size))
    fit = censored_loglog_fit(d, n * 0.999, n * 1.001)
    assert fit["log_d_centre"] == pytest.approx(centre, rel=1e-12)
    slope, intercept = np.polyfit(np.log(d) - centre, np.log(n), 1)
    assert fit["exponent"] == pytest.approx(slope, abs=1e-3)
    assert fit["intercept"] == pytest.approx(intercept, abs=1e-3)
    assert fit["low"] < fit["exponent"] < fit["high"]


def test_the_censored_fit_needs_two_sizes_of_d_with_both_ends_known():
    """Two values of d are enough for a line; rows with an open end (n_high inf) do not
    count towards them, so one d bracketed and one only right-censored give no fit."""
    from skxor.studies.stats import censored_loglog_fit
    two = censored_loglog_fit([16, 16, 16, 32, 32, 32], [10, 12, 14, 40, 44, 48],
                              [11, 13, 15, 41, 45, 49])
    assert np.isfinite(two["exponent"]) and two["low"] < two["exponent"] < two["high"]
    open_end = censored_loglog_fit([16, 16, 16, 32, 32, 32], [10, 12, 14, 40, 44, 48],
                                   [11, 13, 15, np.inf, np.inf, np.inf])
    assert np.isnan(open_end["exponent"]) and open_end["n_points"] == 6


def test_the_growth_fits_gradient_is_the_gradient_of_its_likelihood():
    """BFGS follows the analytic gradient of censored_growth_fit's likelihood: it must be
    the likelihood's own (a wrong one moves the optimum), also with open-ended rows, and
    neither may warn (issue 48, sixth mutation run)."""
    import warnings

    from scipy.optimize import approx_fprime

    from skxor.studies.stats import _growth_log_likelihood
    rng = np.random.default_rng(2)
    x = np.repeat([-1.5, -0.5, 0.5, 1.5], 5)
    y = np.exp(5.0 + 0.7 * x + 0.4 * rng.standard_normal(x.size))
    lo, hi = np.log(np.floor(y)), np.log(np.floor(y) + 1)
    lo[:3], hi[-3:] = -np.inf, np.inf  # left- and right-censored rows
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for params in ([0.7, 5.0, np.log(0.4)], [0.2, 4.5, np.log(1.3)], [1.1, 5.4, -2.0]):
            params = np.array(params)
            value, grad = _growth_log_likelihood(params, x, lo, hi)
            numeric = approx_fprime(params, lambda p: _growth_log_likelihood(p, x, lo, hi)[0],
                                    1e-6)
            assert np.isfinite(value)
            np.testing.assert_allclose(grad, numeric, rtol=1e-4, atol=1e-4)
