"""Edges of the exact theory that the comparisons with enumeration do not reach.

The expansion is built once per (H, k) and cached, so the set partitions it
comes from are checked directly (their counts are known) and once from an
empty cache; the input checks are pinned to their messages.
"""

import itertools

import numpy as np
import pytest
import torch

from skxor.theory import population_gradient, population_loss
from skxor.theory._population import _even_partitions, _expansion


@pytest.mark.parametrize("n, count", [(0, 1), (1, 0), (2, 1), (3, 0), (4, 4), (5, 0),
                                      (6, 31), (8, 379)])
def test_even_set_partitions_have_the_known_counts(n, count):
    # Partitions of an n-set into blocks of even size (OEIS A005046).
    parts = list(_even_partitions(tuple(range(n))))
    assert len(parts) == count
    assert len(set(parts)) == count
    for partition in parts:
        assert sorted(itertools.chain(*partition)) == list(range(n))
        assert all(len(block) % 2 == 0 for block in partition)


def _exhaustive_loss(queries, keys, support):
    d = keys.shape[0]
    X = np.array(list(itertools.product((1.0, -1.0), repeat=d)))
    s = keys @ queries.T
    gamma = np.exp(s - s.max(axis=0))
    gamma /= gamma.sum(axis=0)
    f = -np.prod(X @ gamma, axis=1)
    y = -np.prod(X[:, support], axis=1)
    return float(np.mean((f - y) ** 2))


@pytest.mark.parametrize("H, k", [(3, 2), (4, 3), (1, 1), (5, 1)])
def test_the_expansion_built_afresh_matches_enumeration(H, k):
    _expansion.cache_clear()
    rng = np.random.default_rng(H + 10 * k)
    keys = rng.standard_normal((7, 3))
    queries = rng.standard_normal((H, 3))
    support = sorted(rng.choice(7, size=k, replace=False).tolist())
    assert population_loss(queries, keys, support) == pytest.approx(
        _exhaustive_loss(queries, keys, support), rel=1e-12, abs=1e-15)


def test_one_key_dimension_and_one_position_are_allowed():
    rng = np.random.default_rng(0)
    keys, queries = rng.standard_normal((6, 1)), rng.standard_normal((2, 1))
    assert population_loss(queries, keys, [1, 4]) == pytest.approx(
        _exhaustive_loss(queries, keys, [1, 4]), rel=1e-12)
    assert population_gradient(np.ones((1, 1)), np.ones((6, 1)), [0]).shape == (1, 1)
    # d = 1: one position; the loss of y = -x_0 is exact.
    assert population_loss(np.zeros((1, 2)), np.ones((1, 2)), [0]) == pytest.approx(0.0)


def test_float32_overflow_of_the_inputs_is_named():
    with pytest.raises(ValueError, match=r"^keys overflow the range of torch.float32 "
                                         r"\(largest magnitude 1e\+39\); use dtype='float64'\.$"):
        population_loss(np.ones((2, 2)), np.full((4, 2), 1e39), [0, 1], dtype="float32")


def test_complex_inputs_messages():
    with pytest.raises(TypeError, match=r"^queries must be real, but it is a complex tensor "
                                        r"\(torch.complex64\); pass its real part explicitly "
                                        r"if that is what you mean\.$"):
        population_loss(torch.ones((2, 2), dtype=torch.complex64), np.ones((4, 2)), [0, 1])
    with pytest.raises(TypeError, match=r"^keys must be real, but it holds complex values "
                                        r"\(dtype complex128\); pass its real part explicitly "
                                        r"if that is what you mean\.$"):
        population_loss(np.ones((2, 2)), np.ones((4, 2)) * 1j, [0, 1])


@pytest.mark.parametrize("function", [population_loss, population_gradient])
def test_overflow_messages_name_what_overflowed(function):
    # Linear attention with huge queries: gamma ~ 1e300 overflows the products.
    keys = np.eye(4)
    queries = np.full((3, 4), 1e300)
    with pytest.raises(ValueError, match="^queries are too large for linear attention: "
                                         "the population loss overflows float64"):
        function(queries, keys, [0, 1, 2], "linear")


def test_real_tensors_are_accepted_and_other_values_named():
    keys = np.random.default_rng(1).standard_normal((6, 3))
    queries = np.random.default_rng(2).standard_normal((2, 3))
    from_numpy = population_loss(queries, keys, [0, 3])
    assert population_loss(torch.tensor(queries), torch.tensor(keys, dtype=torch.float32),
                           [0, 3]) == pytest.approx(from_numpy, rel=1e-6)
    with pytest.raises(TypeError, match=r"^queries must be a real numeric array; got str "
                                        r"of dtype <U3\.$"):
        population_loss("abc", keys, [0, 3])
    with pytest.raises(TypeError, match=r"^keys must be a real numeric array; got list\.$"):
        population_loss(queries, [[1.0, 2.0, 3.0], [1.0]], [0, 1])


def test_overflow_message_says_what_to_do():
    with pytest.raises(ValueError, match=r"rescale the queries \(or use a smaller "
                                         r"step_length / learning_rate\)\.$"):
        population_loss(np.full((3, 4), 1e300), np.eye(4), [0, 1, 2], "linear")
