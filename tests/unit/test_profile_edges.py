"""Edges of the sensitivity profile: its confidence check, interval clipping,
tiny samples, count dtypes and the per-call string budget."""

import warnings

import numpy as np
import pytest
from scipy import stats

from skxor._utils._evaluate import strings_per_call
from skxor.boolean import Majority
from skxor.sensitivity import sensitivity_profile
from skxor.sensitivity._profile import summarize, wilson_interval


@pytest.mark.parametrize("bad", [0, 1, 0.0, 1.0, 1.5, -0.1, True, "0.9", None])
def test_confidence_must_lie_strictly_between_0_and_1(bad):
    # scikit-learn's parameter check answers first (InvalidParameterError, a ValueError).
    with pytest.raises(ValueError, match=r"'confidence' parameter .* range \(0.0, 1.0\)"):
        sensitivity_profile(Majority(3), 3, method="sampled", n_samples=10, confidence=bad)


def test_wilson_defaults_to_95_percent():
    ci = stats.binomtest(3, 10).proportion_ci(0.95, method="wilson")
    np.testing.assert_allclose(wilson_interval([3], 10)[0], [ci.low, ci.high], atol=1e-12)


def test_average_interval_is_clipped_to_the_possible_range():
    # Mostly sensitivity 0: the t interval reaches below 0.
    low_side = summarize(4, "sampled", np.array([5, 0, 0, 0, 1]), np.zeros(4, np.int64))
    s = np.repeat(np.arange(5), [5, 0, 0, 0, 1])
    ref = stats.ttest_1samp(s, 0).confidence_interval(0.95)
    assert ref.low < 0
    np.testing.assert_allclose(low_side.average_ci, [0.0, ref.high], atol=1e-12)
    # Mostly sensitivity N: it reaches above N.
    high_side = summarize(4, "sampled", np.array([1, 0, 0, 0, 5]), np.zeros(4, np.int64))
    s = np.repeat(np.arange(5), [1, 0, 0, 0, 5])
    ref = stats.ttest_1samp(s, 0).confidence_interval(0.95)
    assert ref.high > 4
    np.testing.assert_allclose(high_side.average_ci, [ref.low, 4.0], atol=1e-12)
    assert summarize(4, "sampled", np.array([1, 0, 0, 0, 5]), np.zeros(4, np.int64),
                     confidence=0.95).confidence == 0.95


def test_two_strings_get_a_t_interval_and_one_string_the_whole_range_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        counts = np.zeros(21, np.int64)
        counts[[2, 3]] = 1
        two = summarize(20, "sampled", counts, np.zeros(20, np.int64))
        one = summarize(6, "sampled", np.array([0, 0, 1, 0, 0, 0, 0]), np.zeros(6, np.int64))
    ref = stats.ttest_1samp([2, 3], 0).confidence_interval(0.95)
    assert 0 < ref.high < 20
    np.testing.assert_allclose(two.average_ci, [0.0, ref.high], atol=1e-12)
    np.testing.assert_array_equal(one.average_ci, [0.0, 6.0])


@pytest.mark.parametrize("method", ["exhaustive", "sampled"])
def test_counts_are_integers(method):
    prof = sensitivity_profile(Majority(5), 5, method=method, n_samples=40, random_state=0)
    assert prof.counts.dtype == np.int64 and prof.flip_counts.dtype == np.int64


@pytest.mark.parametrize("n_bits, batch_size", [(6, 7), (6, 20), (6, 100), (9, 10), (9, 11)])
def test_no_model_call_gets_more_strings_than_its_budget(n_bits, batch_size):
    sizes = []

    def f(X):
        sizes.append(X.shape[0])
        return X[:, 0] ^ X[:, 1]

    prof = sensitivity_profile(f, n_bits, method="sampled", n_samples=23,
                               batch_size=batch_size, random_state=0)
    budget = strings_per_call(batch_size, n_bits)
    assert max(sizes) <= budget
    # Every string and each of its neighbours was evaluated once.
    assert sum(sizes) == 23 * (n_bits + 1)
    assert prof.counts.tolist() == [0, 0, 23] + [0] * (n_bits - 2)
