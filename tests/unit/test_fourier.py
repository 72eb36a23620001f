"""Fourier tools: fast Walsh-Hadamard transform, spectrum, influences."""

from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.linalg import hadamard

from skxor.boolean import Dictator, Majority, Parity, RandomFunction, SparseParity, truth_table
from skxor.sensitivity import (
    degree_weights,
    fourier_spectrum,
    influences,
    sensitivity_profile,
    total_influence,
    walsh_hadamard,
)

FAST = settings(max_examples=20, deadline=None)


@FAST
@given(n_bits=st.integers(1, 7), seed=st.integers(0, 2**31 - 1))
def test_fwht_matches_the_dense_hadamard_matrix_and_is_an_involution(n_bits, seed):
    values = np.random.default_rng(seed).normal(size=2**n_bits)
    fast = walsh_hadamard(values)
    # scipy's Sylvester matrix has entries (-1)^popcount(i & j): our index order.
    assert np.allclose(fast, hadamard(2**n_bits) @ values)
    assert np.allclose(walsh_hadamard(fast), 2**n_bits * values)


def test_fwht_does_not_modify_its_input():
    values = np.array([1.0, 2.0, 3.0, 4.0])
    walsh_hadamard(values)
    assert values.tolist() == [1.0, 2.0, 3.0, 4.0]


def test_spectra_of_the_zoo():
    n_bits = 5
    parity = fourier_spectrum(Parity(n_bits).truth_table())
    assert parity[-1] == 1.0 and np.count_nonzero(parity) == 1
    dictator = fourier_spectrum(Dictator(n_bits, 3).truth_table())
    assert dictator[1 << 3] == 1.0 and np.count_nonzero(dictator) == 1
    sparse = SparseParity(n_bits, support=[0, 4])
    spectrum = fourier_spectrum(sparse.truth_table())
    assert spectrum[(1 << 0) | (1 << 4)] == 1.0 and np.count_nonzero(spectrum) == 1
    constant = fourier_spectrum(np.zeros(2**n_bits, dtype=np.uint8))
    assert constant[0] == 1.0 and np.count_nonzero(constant) == 1
    assert degree_weights(sparse.truth_table())[2] == 1.0


@pytest.mark.parametrize("n_bits", [3, 7, 9])
def test_majority_influences_closed_form(n_bits):
    # N = 2m + 1: bit i is pivotal iff the other 2m bits split m / m.
    m = (n_bits - 1) // 2
    expected = comb(n_bits - 1, m) / 2 ** (n_bits - 1)
    assert np.allclose(influences(Majority(n_bits).truth_table()), expected)


@FAST
@given(n_bits=st.integers(1, 10), seed=st.integers(0, 2**31 - 1), p=st.sampled_from([0.1, 0.5]))
def test_total_influence_equals_average_sensitivity(n_bits, seed, p):
    table = RandomFunction(n_bits, p=p, random_state=seed).table
    prof = sensitivity_profile(table, n_bits)
    spectrum = fourier_spectrum(table)
    assert np.sum(spectrum**2) == pytest.approx(1.0)  # Parseval
    assert total_influence(table) == pytest.approx(prof.average, abs=1e-9)
    assert np.allclose(influences(table), prof.influences)
    weights = degree_weights(table)
    assert weights.sum() == pytest.approx(1.0)
    assert np.dot(np.arange(n_bits + 1), weights) == pytest.approx(prof.average, abs=1e-9)


def test_total_influence_of_a_model_truth_table():
    f = lambda B: (B[:, 0] & B[:, 1]) | B[:, 2]  # noqa: E731
    table = truth_table(f, 6)
    assert total_influence(table) == pytest.approx(sensitivity_profile(f, 6).average)


def test_bad_tables():
    with pytest.raises(ValueError, match="power-of-two"):
        fourier_spectrum([0, 1, 1])
    with pytest.raises(ValueError, match="power-of-two"):
        walsh_hadamard([1.0])
    with pytest.raises(ValueError, match="0/1"):
        fourier_spectrum([0, 2, 1, 1])
    with pytest.raises(ValueError, match="1-D"):
        influences(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="finite"):
        walsh_hadamard([0.0, np.nan])


@pytest.mark.parametrize("table", [np.array([0, 1, 1, 0], complex), np.array(["0", "1", "1", "0"])])
def test_tables_of_non_real_values_name_their_dtype(table):
    # Issue 23: complex tables said "got the values []".
    for function in (influences, fourier_spectrum):
        with pytest.raises(ValueError, match=f"got dtype {table.dtype}"):
            function(table)
    with pytest.raises(ValueError, match=f"got dtype {table.dtype}"):
        sensitivity_profile(table, 2)
