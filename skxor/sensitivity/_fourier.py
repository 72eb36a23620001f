"""Fourier analysis of Boolean functions via the fast Walsh-Hadamard transform.

The ±1 version of ``f: {0,1}^N -> {0,1}`` is ``F(x) = (-1)^f(x) = 1 - 2 f(x)``
(bit 0 -> +1, as for spins). Its Fourier coefficients are

    F^(S) = 2^-N sum_x F(x) chi_S(x),    chi_S(x) = (-1)^(sum_{i in S} x_i),

indexed by the bitmask of S (bit i set iff i in S), in the same order as
truth tables. Parseval: ``sum_S F^(S)^2 = 1``. The influence of bit i is
``Inf_i = Pr_x[f(x) != f(x^{+i})] = sum_{S ∋ i} F^(S)^2`` and the total
influence ``sum_S |S| F^(S)^2`` equals the average sensitivity.
"""

import numpy as np

from .._utils._bits import popcount, table_n_bits
from .._utils._docstrings import fill_doc


def walsh_hadamard(values):
    """Unnormalized fast Walsh-Hadamard transform, O(N 2^N).

    ``out[S] = sum_x values[x] (-1)^popcount(x & S)``.

    Parameters
    ----------
    values : array-like of shape (2^N,)
        Real values in index order.

    Returns
    -------
    out : ndarray of shape (2^N,), float64

    Examples
    --------
    >>> from skxor.sensitivity import walsh_hadamard
    >>> walsh_hadamard([1, 0, 0, 0]).tolist()
    [1.0, 1.0, 1.0, 1.0]
    >>> walsh_hadamard([1, -1, -1, 1]).tolist()  # chi_{0,1}
    [0.0, 0.0, 0.0, 4.0]
    """
    out = np.array(values, dtype=np.float64)
    n_bits = table_n_bits(out, "values")
    if not np.isfinite(out).all():
        raise ValueError("values must be finite; got NaN or inf.")
    for i in range(n_bits):
        # Butterfly on bit i: (a, b) -> (a + b, a - b) for each pair r, r ^ (1 << i).
        pairs = out.reshape(-1, 2, 1 << i)
        first = pairs[:, 0, :].copy()
        pairs[:, 0, :] += pairs[:, 1, :]
        np.subtract(first, pairs[:, 1, :], out=pairs[:, 1, :])
    return out


def _check_table(table):
    table = np.asarray(table)
    table_n_bits(table)
    if table.dtype.kind not in "biuf":  # complex, strings, objects: no values to quote
        raise ValueError(
            f"table must hold Boolean values 0/1 (or bools); got dtype {table.dtype}."
        )
    if table.dtype != bool and (
        table.dtype.kind not in "iuf" or not np.isin(table, [0, 1]).all()
    ):
        bad = np.unique(table[~np.isin(table, [0, 1])])[:5].tolist()
        raise ValueError(
            f"table must hold Boolean values 0/1 (or bools); got the values {bad}."
        )
    return table


def fourier_spectrum(table):
    """Fourier coefficients of the ±1 version ``F = 1 - 2 f`` of a truth table.

    Parameters
    ----------
    table : array-like of shape (2^N,)
        0/1 values of f in index order (e.g. from
        :func:`skxor.boolean.truth_table`).

    Returns
    -------
    coefficients : ndarray of shape (2^N,), float64
        ``coefficients[S]`` for S given as a bitmask; squares sum to 1.

    Examples
    --------
    >>> from skxor.boolean import Parity
    >>> from skxor.sensitivity import fourier_spectrum
    >>> fourier_spectrum(Parity(2).truth_table()).tolist()  # F = chi_{0,1}
    [0.0, 0.0, 0.0, 1.0]
    """
    table = _check_table(table)
    signs = 1.0 - 2.0 * table.astype(np.float64)
    return walsh_hadamard(signs) / table.shape[0]


def _fourier_weights(table):
    """``(F^(S)^2 for every S, N)`` of a truth table."""
    weights = fourier_spectrum(table) ** 2
    return weights, weights.shape[0].bit_length() - 1


@fill_doc
def influences(table):
    """Influence of each bit, ``Pr_x[f(x) != f(x^{+i})] = sum_{S ∋ i} F^(S)^2``.

    %(parameters_table)s

    Returns
    -------
    influences : ndarray of shape (N,)

    Examples
    --------
    >>> from skxor.boolean import Majority
    >>> from skxor.sensitivity import influences
    >>> influences(Majority(3).truth_table()).tolist()
    [0.5, 0.5, 0.5]
    """
    weights, n_bits = _fourier_weights(table)
    return np.array(
        [weights.reshape(-1, 2, 1 << i)[:, 1, :].sum() for i in range(n_bits)]
    )


@fill_doc
def total_influence(table):
    """Total influence ``sum_S |S| F^(S)^2``; equals the average sensitivity.

    %(parameters_table)s

    Returns
    -------
    total : float

    Examples
    --------
    >>> from skxor.boolean import Parity
    >>> from skxor.sensitivity import total_influence
    >>> total_influence(Parity(5).truth_table())
    5.0
    """
    return float(influences(table).sum())


@fill_doc
def degree_weights(table):
    """Fourier weight per degree, ``W^k = sum_{|S| = k} F^(S)^2``, k = 0..N.

    The weights sum to 1 (Parseval) and ``sum_k k W^k`` is the total
    influence.

    %(parameters_table)s

    Returns
    -------
    weights : ndarray of shape (N + 1,)

    Examples
    --------
    >>> from skxor.boolean import Dictator
    >>> from skxor.sensitivity import degree_weights
    >>> degree_weights(Dictator(3, index=1).truth_table()).tolist()
    [0.0, 1.0, 0.0, 0.0]
    """
    weights, n_bits = _fourier_weights(table)
    degrees = popcount(np.arange(weights.shape[0], dtype=np.int64))
    return np.bincount(degrees, weights=weights, minlength=n_bits + 1)
