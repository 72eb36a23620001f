"""skxor.sensitivity.random_function_zero_strings: the share of uniformly random Boolean
functions with a zero-sensitivity string (claim K2's reference)."""

import numpy as np
import pytest

from skxor.sensitivity import random_function_zero_strings
from skxor.sensitivity._random_functions import _with_zero_string


@pytest.mark.parametrize("n_bits, tables", [(1, 40), (2, 40), (3, 40), (5, 40), (6, 40),
                                             (7, 40), (8, 40), (8, 3)])
def test_the_bit_packed_count_matches_the_definition(n_bits, tables):
    # 3 tables: a count not divisible by the word blocks' pairing.
    rng = np.random.default_rng(n_bits)
    size = 1 << n_bits
    bits = rng.random((tables, size)) < 0.5
    words = max(1, size // 64)
    packed = np.zeros((tables, words), dtype=np.uint64)
    for j in range(size):
        packed[:, j // 64] |= bits[:, j].astype(np.uint64) << np.uint64(j % 64)
    expected = [any(all(row[x] == row[x ^ (1 << i)] for i in range(n_bits))
                    for x in range(size)) for row in bits]
    assert _with_zero_string(packed, n_bits).tolist() == expected


def test_the_exact_probability_at_small_n_by_enumeration():
    for n_bits in (1, 2, 3):
        size = 1 << n_bits
        wins = sum(any(all((f >> x & 1) == (f >> (x ^ (1 << i)) & 1) for i in range(n_bits))
                       for x in range(size)) for f in range(1 << size))
        assert random_function_zero_strings(n_bits) == (wins, 1 << size, True)
    wins, total, exact = random_function_zero_strings(4)
    assert exact and (round(wins / total, 3), total) == (0.557, 65536)


@pytest.mark.parametrize("n_bits, functions", [(3, 4096), (3, 4099), (3, 4101), (16, 4096),
                                               (16, 5000)])
def test_the_monte_carlo_counts_every_table_it_draws(n_bits, functions):
    """The count is that of the tables drawn in one go from the seed, the last one
    included (at N = 16 the draws come in chunks of 2 048, the last one short at 5 000
    functions; at N = 3 each 64-bit word is cut to its 8 positions)."""
    words = 1 << max(n_bits - 6, 0)
    tables = np.random.default_rng(0).integers(0, 2**64, size=(functions, words),
                                                dtype=np.uint64)
    if n_bits < 6:
        tables &= np.uint64((1 << (1 << n_bits)) - 1)
    expected = int(_with_zero_string(tables, n_bits).sum())
    assert random_function_zero_strings(n_bits, exact_max_bits=0, max_functions=functions,
                                        max_words=functions * words) \
        == (expected, functions, False)


@pytest.mark.parametrize("n_bits", [3, 4])
def test_the_sampled_share_agrees_with_the_exact_one(n_bits):
    wins, total, exact = random_function_zero_strings(n_bits)
    sampled, n, _ = random_function_zero_strings(n_bits, exact_max_bits=n_bits - 1,
                                                 max_functions=20000)
    p = wins / total
    assert exact and abs(sampled / n - p) < 4 * np.sqrt(p * (1 - p) / n)


def test_the_monte_carlo_draws_its_budget_and_is_seeded():
    first = random_function_zero_strings(7, max_functions=5000)
    assert first[1:] == (5000, False)
    assert random_function_zero_strings(7, max_functions=5000) == first
    assert random_function_zero_strings(7, max_functions=5000, random_state=1) != first
    # The word budget: 2^22 words of 2 words each would be 2^21 functions, capped at 2^17;
    # 2^13 words are 4 096 functions (the least drawn).
    assert random_function_zero_strings(7, max_words=1 << 13)[1] == 4096
    assert random_function_zero_strings(7, max_words=1 << 14)[1] == 8192
    # Asked to enumerate fewer bits than N, it samples.
    assert random_function_zero_strings(3, exact_max_bits=2, max_functions=4096)[2] is False


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(n_bits=0), ValueError, "n_bits must be an integer in \\[1, 20\\]; got 0"),
    (dict(n_bits=21), ValueError, "n_bits must be an integer in \\[1, 20\\]; got 21"),
    (dict(n_bits=4.0), TypeError, "n_bits must be an integer in \\[1, 20\\]; got 4.0"),
    (dict(n_bits=True), TypeError, "n_bits must be an integer"),
    (dict(n_bits=6, exact_max_bits=5), ValueError, "exact_max_bits must be an integer in "
                                                   "\\[0, 4\\]"),
    (dict(n_bits=6, max_words=0), ValueError, "max_words must be an integer >= 1; got 0"),
    (dict(n_bits=6, max_functions=-1), ValueError, "max_functions must be an integer >= 1"),
])
def test_bad_arguments_are_named(kwargs, error, match):
    with pytest.raises(error, match=match):
        random_function_zero_strings(**kwargs)
