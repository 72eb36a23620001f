"""The statistics' contracts, as properties over many inputs (hypothesis).

Every interval contains its estimate; it is no narrower with fewer units at
the same rate (the interval of k/n holds that of 2k/2n); the rate intervals
are symmetric under swapping successes and failures; the order-statistic
interval of a quantile has at least its nominal coverage, exactly, and is
the tightest equal-tailed one; the seed-clustered interval with runs that
agree within seeds is about the seeds whatever the runs per seed; and every
verdict is monotone in the data (more successes never turn "reproduced" into
"not reproduced" for a claimed success, nor the reverse for a claimed failure).

Removing one unit is not the contract: Wilson's interval of 1/1 ([0.21, 1],
width 0.79) is narrower than that of 1/2 ([0.09, 0.91], 0.81), because the
rate moved to the edge; at the same rate fewer units never narrow it.
"""

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from scipy import stats

from skxor.studies.claims import (
    censored_rate_part,
    judged,
    rate_part,
    rate_verdict,
    unit_interval,
)
from skxor.studies.stats import (
    clopper_pearson_interval,
    clustered_rate_interval,
    quantile_interval,
    rate_with_interval,
    wilson_interval,
)

TOL = 1e-9
#: The seed-clustered interval's ends come from a root search to 1e-6.
ROOT_TOL = 2e-5
CONFIDENCES = st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99])
BINOMIAL = {"wilson": wilson_interval, "clopper-pearson": clopper_pearson_interval}


@st.composite
def counts(draw, max_n=400):
    n = draw(st.integers(1, max_n))
    return draw(st.integers(0, n)), n


@st.composite
def seeds(draw, max_seeds=12, max_runs=8):
    """Per-seed (successes, runs): at least two seeds, runs per seed unequal."""
    runs = draw(st.lists(st.integers(1, max_runs), min_size=2, max_size=max_seeds))
    wins = [draw(st.integers(0, r)) for r in runs]
    return np.array(wins), np.array(runs)


def _flags(wins, runs):
    flags = np.concatenate([np.arange(r) < w for w, r in zip(wins, runs)])
    return flags, np.repeat(np.arange(len(runs)), runs)


def _clustered(wins, runs, confidence=0.95):
    return clustered_rate_interval(*_flags(wins, runs), confidence)


# -- every interval contains its estimate, inside [0, 1] ----------------------------------


@pytest.mark.parametrize("method", BINOMIAL)
@settings(max_examples=200, deadline=None)
@given(kn=counts(), confidence=CONFIDENCES)
def test_binomial_intervals_contain_the_rate(method, kn, confidence):
    k, n = kn
    low, high = BINOMIAL[method](k, n, confidence)
    assert 0 <= low <= k / n + TOL and k / n - TOL <= high <= 1


@settings(max_examples=150, deadline=None)
@given(data=seeds(), confidence=CONFIDENCES)
def test_the_clustered_interval_contains_the_rate(data, confidence):
    rate, low, high, n, groups, n_eff = _clustered(*data, confidence)
    assert 0 <= low <= rate + ROOT_TOL and rate - ROOT_TOL <= high <= 1
    assert groups - 1e-9 <= n_eff <= n + 1e-9


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.one_of(st.floats(-1e6, 1e6), st.just(np.inf)), min_size=1,
                       max_size=40),
       q=st.floats(0.01, 0.99), confidence=CONFIDENCES)
def test_the_quantile_interval_contains_the_quantile(values, q, confidence):
    value, low, high = quantile_interval(values, q, confidence)
    assert low <= value <= high
    assert value in values


# -- no narrower with fewer units at the same rate ----------------------------------------


@pytest.mark.parametrize("method", BINOMIAL)
@settings(max_examples=200, deadline=None)
@given(kn=counts(max_n=200), factor=st.integers(2, 5), confidence=CONFIDENCES)
def test_binomial_intervals_hold_those_of_more_trials_at_the_same_rate(method, kn, factor,
                                                                      confidence):
    (k, n), interval = kn, BINOMIAL[method]
    low, high = interval(k, n, confidence)
    more_low, more_high = interval(factor * k, factor * n, confidence)
    assert low <= more_low + TOL and more_high <= high + TOL


@settings(max_examples=60, deadline=None)
@given(data=seeds(max_seeds=8, max_runs=5))
def test_the_clustered_interval_holds_that_of_the_seeds_repeated(data):
    # The same seeds twice over: the same rate from twice the units.
    wins, runs = data
    _, low, high, *_ = _clustered(wins, runs)
    _, more_low, more_high, *_ = _clustered(np.tile(wins, 2), np.tile(runs, 2))
    assert low <= more_low + ROOT_TOL and more_high <= high + ROOT_TOL


@settings(max_examples=100, deadline=None)
@given(values=st.lists(st.floats(-1e3, 1e3), min_size=1, max_size=25),
       confidence=CONFIDENCES)
def test_the_quantile_interval_of_fewer_draws_reaches_no_less_far(values, confidence):
    # The same draws twice over (the same empirical distribution, twice the
    # units): the interval from the fewer draws reaches at least as far out.
    _, low, high = quantile_interval(values, 0.5, confidence)
    _, more_low, more_high = quantile_interval(values * 2, 0.5, confidence)
    assert low <= more_low and more_high <= high


# -- symmetric under swapping successes and failures --------------------------------------


@pytest.mark.parametrize("method", BINOMIAL)
@settings(max_examples=200, deadline=None)
@given(kn=counts(), confidence=CONFIDENCES)
def test_binomial_intervals_are_symmetric(method, kn, confidence):
    k, n = kn
    low, high = BINOMIAL[method](k, n, confidence)
    swapped_low, swapped_high = BINOMIAL[method](n - k, n, confidence)
    assert swapped_low == pytest.approx(1 - high, abs=1e-9)
    assert swapped_high == pytest.approx(1 - low, abs=1e-9)
    if method == "wilson":  # rate_with_interval's interval, from the flags
        flags = np.arange(n) < k
        assert rate_with_interval(~flags, confidence)[1:3] == pytest.approx(
            (swapped_low, swapped_high), abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(data=seeds(), confidence=CONFIDENCES)
def test_the_clustered_interval_is_symmetric(data, confidence):
    wins, runs = data
    rate, low, high, n, groups, n_eff = _clustered(wins, runs, confidence)
    s_rate, s_low, s_high, *_, s_eff = _clustered(runs - wins, runs, confidence)
    assert s_rate == pytest.approx(1 - rate)
    assert (s_low, s_high) == pytest.approx((1 - high, 1 - low), abs=ROOT_TOL)
    assert s_eff == pytest.approx(n_eff, rel=1e-3)  # the correlation grid's maximum
    unit = unit_interval(*_flags(wins, runs), confidence)
    s_unit = unit_interval(*_flags(runs - wins, runs), confidence)
    assert s_unit[1:3] == pytest.approx((1 - unit[2], 1 - unit[1]), abs=ROOT_TOL)


# -- the order-statistic interval: exact coverage at the boundary -------------------------


def _ranks(n, q, confidence):
    """The order statistics ``quantile_interval`` picks: l (0 for -inf), u (n + 1 for inf)."""
    _, low, high = quantile_interval(np.arange(1.0, n + 1), q, confidence)
    return (0 if low == -np.inf else int(low)), (n + 1 if high == np.inf else int(high))


@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
@pytest.mark.parametrize("q", [0.1, 0.25, 0.5, 0.75, 0.9])
def test_the_quantile_interval_covers_exactly_and_is_tightest(q, confidence):
    # With B ~ Binomial(n, q) draws below the population quantile, [x_(l), x_(u)]
    # misses it low with P(B < l) and high with P(B >= u): each at most
    # (1 - confidence) / 2, and moving either end in by one draw would put that
    # tail above it. So coverage >= confidence for every n, and an end is
    # infinite only where no draw would do (at n = 6 to 8 the median's upper end
    # is the largest draw, not inf).
    tail = (1 - confidence) / 2
    for n in range(1, 31):
        cdf = stats.binom(n, q).cdf
        lower, upper = _ranks(n, q, confidence)
        assert cdf(lower - 1) <= tail + 1e-12, (n, lower)
        assert 1 - cdf(upper - 1) <= tail + 1e-12, (n, upper)
        assert cdf(upper - 1) - cdf(lower - 1) >= confidence - 1e-12
        assert cdf(lower) >= tail - 1e-12, (n, lower)  # l + 1 would miss too often
        assert 1 - cdf(upper - 2) > tail, (n, upper)  # so would u - 1
    assert _ranks(6, 0.5, 0.95) == (1, 6) and _ranks(8, 0.5, 0.95) == (1, 8)


# -- runs that agree within seeds: the seeds are the units --------------------------------


@settings(max_examples=100, deadline=None)
@given(outcomes=st.lists(st.booleans(), min_size=2, max_size=12),
       runs=st.lists(st.integers(1, 6), min_size=12, max_size=12), confidence=CONFIDENCES)
# 8 of 9 seeds, the last of 2 runs: the runs' share 9/10 shifts the interval
# above Wilson's over the seeds (found by hypothesis; as wide, not containing it).
@example(outcomes=[False] + [True] * 8, runs=[1] * 8 + [2] + [1] * 3, confidence=0.5)
def test_seeds_whose_runs_agree_count_as_seeds_whatever_their_runs(outcomes, runs,
                                                                    confidence):
    # Each seed's runs all succeed or all fail: as many units as seeds, so the
    # claims' interval is never narrower than Wilson's over the seeds, even
    # with one run at some seeds, and holds it where the seeds have equal runs
    # (with unequal runs the rate is the runs' share, 9/10 for 8 of 9 seeds
    # with one seed of 2 runs, so the interval is as wide but shifted);
    # where seeds disagree, its runs are worth about one per seed.
    runs = np.array(runs[:len(outcomes)])
    assume(runs.max() > 1)
    wins = np.where(outcomes, runs, 0)
    seeds_low, seeds_high = wilson_interval(int(sum(outcomes)), len(outcomes), confidence)
    equal_runs = runs.min() == runs.max()
    for low, high in [unit_interval(*_flags(wins, runs), confidence)[1:3]] + (
            [_clustered(wins, runs, confidence)[1:3]]
            if 0 < sum(outcomes) < len(outcomes) else []):
        assert high - low >= seeds_high - seeds_low - ROOT_TOL
        if equal_runs or sum(outcomes) in (0, len(outcomes)):
            assert low <= seeds_low + ROOT_TOL and seeds_high - ROOT_TOL <= high
    if 0 < sum(outcomes) < len(outcomes):
        n_eff = _clustered(wins, runs, confidence)[5]
        assert n_eff == pytest.approx(len(outcomes), rel=0.05)


def test_one_seed_of_one_run_leaves_the_seeds_the_units():
    # 1, 3, 3, 3 runs, outcomes 1/1, 1/3, 2/3, 3/3 (the case): the
    # seeds are the units ([0.166, 0.987]), not the 10 runs (Wilson's
    # [0.397, 0.892], what checking the fewest runs per seed instead of the
    # most gave); whole seeds (1/1, 0/3, 3/3, 3/3) hold Wilson's over 4 seeds.
    _, low, high, *_ = _clustered(np.array([1, 1, 2, 3]), np.array([1, 3, 3, 3]))
    assert (round(low, 3), round(high, 3)) == (0.166, 0.987)
    _, low, high, *_, n_eff = _clustered(np.array([1, 0, 3, 3]), np.array([1, 3, 3, 3]))
    seeds_low, seeds_high = wilson_interval(3, 4)
    assert low < seeds_low and high > seeds_high and n_eff == pytest.approx(4, rel=0.01)


# -- verdicts are monotone in the data -------------------------------------------------------

ORDER = {"not reproduced": 0, "inconclusive": 1, "reproduced": 2}
STRENGTHS = ["with high probability", "almost surely", "failure"]


def _rank(verdict, strength):
    """Higher is more successes' side: for a claimed failure the order is reversed."""
    return ORDER[verdict] if strength != "failure" else -ORDER[verdict]


@pytest.mark.parametrize("strength", STRENGTHS)
@settings(max_examples=300, deadline=None)
@given(ends=st.lists(st.floats(0, 1), min_size=4, max_size=4))
def test_rate_verdict_is_monotone_in_the_interval(strength, ends):
    low, high = sorted(ends[:2])
    more_low, more_high = max(low, min(ends[2:])), max(high, max(ends[2:]))
    assume(more_low <= more_high)
    assert _rank(rate_verdict(low, high, strength), strength) <= _rank(
        rate_verdict(more_low, more_high, strength), strength)


@st.composite
def one_more_success(draw):
    """Per-seed (successes, runs), and the seed that gets one more success."""
    wins, runs = draw(seeds(max_seeds=10, max_runs=4))
    room = np.flatnonzero(wins < runs)
    assume(room.size)
    return wins, runs, int(draw(st.sampled_from(room)))


@pytest.mark.parametrize("strength", STRENGTHS)
@settings(max_examples=60, deadline=None)
@given(case=one_more_success())
def test_rate_part_is_monotone_in_the_successes(strength, case):
    wins, runs, seed = case
    more = wins.copy()
    more[seed] += 1
    before = rate_part("p", *_flags(wins, runs), strength).verdict
    after = rate_part("p", *_flags(more, runs), strength).verdict
    assert _rank(before, strength) <= _rank(after, strength)


@settings(max_examples=40, deadline=None)
@given(case=one_more_success(), others=st.lists(st.integers(0, 30), min_size=0, max_size=3),
       strength=st.sampled_from(STRENGTHS[:2]))
def test_judged_is_monotone_in_the_successes(case, others, strength):
    # One part gains a success; the other parts (k of 30 seeds) stay: the
    # claim's verdict, after Holm over the parts, never moves against it.
    wins, runs, seed = case
    more = wins.copy()
    more[seed] += 1
    rest = [rate_part(f"o{i}", np.arange(30) < k, np.arange(30), strength)
            for i, k in enumerate(others)]
    before = judged([rate_part("p", *_flags(wins, runs), strength), *rest])["verdict"]
    after = judged([rate_part("p", *_flags(more, runs), strength), *rest])["verdict"]
    assert ORDER[before] <= ORDER[after]


@settings(max_examples=40, deadline=None)
@given(case=one_more_success(), strength=st.sampled_from(STRENGTHS))
def test_censored_rate_part_is_monotone_in_the_successes(case, strength):
    wins, runs, seed = case
    more = wins.copy()
    more[seed] += 1
    flags, units = _flags(wins, runs)
    censored = np.zeros(flags.size, bool)
    censored[::3] = True
    before = censored_rate_part("p", flags, censored, units, strength).verdict
    flags_more, _ = _flags(more, runs)
    after = censored_rate_part("p", flags_more, censored, units, strength).verdict
    assert _rank(before, strength) <= _rank(after, strength)


@pytest.mark.parametrize("bad", ["False", np.nan, 0.5])
def test_the_verdict_helpers_refuse_what_is_not_a_flag(bad):
    # rate_part read its flags with dtype=bool: "False" and NaN were successes.
    flags = np.array([True] * 29 + [bad], dtype=object)
    with pytest.raises(ValueError, match="flags"):
        rate_part("p", flags, range(30), "with high probability")
    with pytest.raises(ValueError, match="censored"):
        censored_rate_part("p", [True] * 30, flags, range(30), "with high probability")
