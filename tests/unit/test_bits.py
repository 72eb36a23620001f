"""index_to_bits (numpy's unpackbits) against the definition: bit i of the index is column i."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skxor._utils._bits import bits_to_index, index_to_bits


def _by_definition(indices, n_bits):
    # Column i holds (index >> i) & 1: the column-by-column code index_to_bits replaced.
    indices = np.asarray(indices, dtype=np.int64)
    return np.stack([(indices >> i) & 1 for i in range(n_bits)], axis=1).astype(np.uint8)


@settings(max_examples=200, deadline=None)
@given(n_bits=st.integers(1, 64), data=st.data())
def test_index_to_bits_is_bit_i_in_column_i(n_bits, data):
    high = 2 ** min(n_bits, 63) - 1
    low = -(2 ** 63) if n_bits == 64 else 0
    indices = data.draw(st.lists(st.integers(low, high), max_size=40))
    bits = index_to_bits(indices, n_bits)
    assert bits.dtype == np.uint8 and bits.shape == (len(indices), n_bits)
    assert bits.flags.c_contiguous
    np.testing.assert_array_equal(bits, _by_definition(indices, n_bits).reshape(bits.shape))


def test_index_to_bits_round_trips_every_string_of_20_bits():
    indices = np.arange(1 << 20, dtype=np.int64)
    bits = index_to_bits(indices, 20)
    np.testing.assert_array_equal(bits, _by_definition(indices, 20))
    np.testing.assert_array_equal(bits_to_index(bits), indices)


def test_index_to_bits_edges():
    assert index_to_bits([], 5).shape == (0, 5)
    assert index_to_bits([3], 0).shape == (1, 0)
    # A view of another array's entries (strided) unpacks the same.
    np.testing.assert_array_equal(index_to_bits(np.arange(20)[::3], 5),
                                  _by_definition(np.arange(20)[::3], 5))
    with pytest.raises(ValueError, match="no bit 64"):
        index_to_bits([1], 65)
