"""How often a uniformly random Boolean function has a zero-sensitivity string.

Köver et al. (2026, arXiv 2606.08768) contrast random transformers with
random functions: a uniformly random function on N bits has a string whose
N neighbours all share its value with probability tending to 1 - 1/e (the
count of such strings has mean 1 at every N). This module computes the
finite-N probability, exactly by enumerating every truth table for small N
and by a bit-packed Monte Carlo above.
"""

import numpy as np

from .._utils._validation import Integers, check_count, check_interval

# Bits of a 64-bit word with bit i of the position 0, for i = 0..5.
_MASKS = [np.uint64(m) for m in (0x5555555555555555, 0x3333333333333333,
                                 0x0F0F0F0F0F0F0F0F, 0x00FF00FF00FF00FF,
                                 0x0000FFFF0000FFFF, 0x00000000FFFFFFFF)]

#: The largest N accepted: a truth table of 2^N bits is 2^(N-6) words, and the
#: Monte Carlo draws at least 4 096 of them (512 MB of tables at N = 20).
MAX_BITS = 20


def _with_zero_string(tables, n_bits):
    """Which truth tables (rows of 64-bit words, bit x of the table = f(x)) have a
    zero-sensitivity string: a string whose N neighbours all share its value."""
    same = np.full(tables.shape, ~np.uint64(0))
    low, high = np.empty_like(tables), np.empty_like(tables)
    for i in range(min(n_bits, 6)):  # neighbours inside a word: swap bit pairs
        shift, mask = np.uint64(1 << i), _MASKS[i]
        np.bitwise_and(tables, mask, out=low)
        np.left_shift(low, shift, out=low)
        np.right_shift(tables, shift, out=high)
        np.bitwise_and(high, mask, out=high)
        np.bitwise_or(low, high, out=low)
        np.bitwise_xor(low, tables, out=low)  # 1 where the neighbour differs
        np.bitwise_and(same, np.invert(low, out=low), out=same)
    for i in range(6, n_bits):  # neighbours in another word: swap word blocks
        block = tables.reshape(tables.shape[0], -1, 2, 1 << (i - 6))
        np.bitwise_xor(block[:, :, ::-1, :], block, out=low.reshape(block.shape))
        np.bitwise_and(same, np.invert(low, out=low), out=same)
    if n_bits < 6:  # only the first 2^N bits of each word are positions
        same &= np.uint64((1 << (1 << n_bits)) - 1)
    return (same != 0).any(axis=1)


def random_function_zero_strings(n_bits, *, exact_max_bits=4, max_words=1 << 22,
                                 max_functions=1 << 17, random_state=0):
    """Count the uniformly random functions on N bits that have a zero-sensitivity string.

    A zero-sensitivity string x has ``f(x XOR e_i) = f(x)`` for every
    position i. Up to ``exact_max_bits`` every one of the 2^(2^N) functions
    is enumerated (the exact probability); above, random truth tables are
    drawn, bit-packed into 64-bit words: as many functions as fit in
    ``max_words`` words, at most ``max_functions`` and at least 4 096.

    Parameters
    ----------
    n_bits : int
        The string length N, 1 to 20.
    exact_max_bits : int, default=4
        The largest N enumerated exhaustively (2^16 functions at N = 4; at
        most 4).
    max_words : int, default=2**22
        The Monte Carlo's budget of 64-bit words of truth tables.
    max_functions : int, default=2**17
        The Monte Carlo's largest number of functions.
    random_state : int, default=0
        Seed of the Monte Carlo's draws.

    Returns
    -------
    wins : int
        Functions with a zero-sensitivity string.
    functions : int
        Functions counted.
    exact : bool
        Whether every function was enumerated (``wins / functions`` is then
        the probability itself).

    Examples
    --------
    >>> from skxor.sensitivity import random_function_zero_strings
    >>> random_function_zero_strings(1)  # f(0) = f(1): the two constant functions
    (2, 4, True)
    >>> wins, functions, exact = random_function_zero_strings(4)
    >>> round(wins / functions, 3), exact
    (0.557, True)
    >>> wins, functions, exact = random_function_zero_strings(10, max_functions=4096)
    >>> functions, exact, 0.55 < wins / functions < 0.7
    (4096, False, True)
    """
    n_bits = check_interval(n_bits, "n_bits", Integers(1, MAX_BITS, closed="both"),
                            f"an integer in [1, {MAX_BITS}]")
    exact_max_bits = check_interval(exact_max_bits, "exact_max_bits",
                                    Integers(0, 4, closed="both"), "an integer in [0, 4]")
    max_words = check_count(max_words, "max_words")
    max_functions = check_count(max_functions, "max_functions")
    if n_bits <= exact_max_bits:
        size = 1 << n_bits
        tables = np.arange(1 << size, dtype=np.uint64)[:, None]
        return int(_with_zero_string(tables, n_bits).sum()), 1 << size, True
    words = 1 << max(n_bits - 6, 0)
    n_functions = min(max_functions, max(4096, max_words // words))
    rng = np.random.default_rng(random_state)
    wins, chunk = 0, max(1, (1 << 21) // words)
    for start in range(0, n_functions, chunk):
        tables = rng.integers(0, 2**64, size=(min(chunk, n_functions - start), words),
                              dtype=np.uint64)
        if n_bits < 6:
            tables &= np.uint64((1 << (1 << n_bits)) - 1)
        wins += int(_with_zero_string(tables, n_bits).sum())
    return wins, n_functions, False
