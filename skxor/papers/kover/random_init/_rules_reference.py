"""K2's reference: how often a uniformly random Boolean function has a zero-sensitivity string.

At the claim's budgets (:func:`zero_string_probability`), kept for N = 5..16
(:data:`KEPT_REFERENCES`); read by K2's rule and by its simulated tables.
"""

import functools

from skxor.sensitivity import random_function_zero_strings

#: Largest N whose functions are all enumerated for K2's reference (2^16 of them).
EXACT_MAX_BITS = 4

#: Monte Carlo budget of K2's reference above EXACT_MAX_BITS: 64-bit words of
#: truth tables per N, and at most MONTE_CARLO_FUNCTIONS functions.
MONTE_CARLO_WORDS, MONTE_CARLO_FUNCTIONS = 1 << 22, 1 << 17

#: K2's references for N = 5..16, kept: :func:`zero_string_probability` with
#: MONTE_CARLO_FUNCTIONS = 131 072 functions at every N (no word budget) and
#: random_state 0, as ``N: (functions with a zero-sensitivity string, functions)``
#: (about a minute to compute; a slow test recomputes them). Publishing reads
#: these instead of drawing 10^5 functions of 2^16 strings each time.
KEPT_REFERENCES = {
    5: (75000, 131072), 6: (76970, 131072), 7: (78555, 131072), 8: (79954, 131072),
    9: (80881, 131072), 10: (81953, 131072), 11: (82157, 131072), 12: (82553, 131072),
    13: (82659, 131072), 14: (82833, 131072), 15: (82850, 131072), 16: (82751, 131072),
}


@functools.lru_cache(maxsize=None)
def zero_string_probability(n_bits, random_state=0):
    """P(a uniformly random function on N bits has a zero-sensitivity string).

    :func:`skxor.sensitivity.random_function_zero_strings` at this claim's
    budgets: exact for N <= :data:`EXACT_MAX_BITS`, above a Monte Carlo over
    :data:`MONTE_CARLO_WORDS` 64-bit words of truth tables (at most
    :data:`MONTE_CARLO_FUNCTIONS` functions), cached.

    Examples
    --------
    >>> from skxor.papers.kover.random_init._rules_reference import zero_string_probability
    >>> zero_string_probability(4)
    (36506, 65536, True)
    """
    return random_function_zero_strings(
        n_bits, exact_max_bits=EXACT_MAX_BITS, max_words=MONTE_CARLO_WORDS,
        max_functions=MONTE_CARLO_FUNCTIONS, random_state=random_state)


def reference(n_bits):
    """K2's reference at N bits: :func:`zero_string_probability`'s ``(wins, functions,
    exact)``, read from :data:`KEPT_REFERENCES` where it is kept.

    Examples
    --------
    >>> from skxor.papers.kover.random_init._rules_reference import reference
    >>> reference(4), reference(16)
    ((36506, 65536, True), (82751, 131072, False))
    """
    if int(n_bits) in KEPT_REFERENCES:
        return (*KEPT_REFERENCES[int(n_bits)], False)
    return zero_string_probability(int(n_bits))
