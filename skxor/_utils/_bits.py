"""Bit-string helpers: index <-> string conversion, popcount, blocks of strings.

(Reading and converting 0/1 bits and -1/+1 spins is
:mod:`skxor._utils._encoding`'s job.)

Bit order used everywhere in skxor: string ``x`` of length N is the integer
``sum_i x_i << i``, so bit i of the index is position i of the string (the
first position is the least significant bit). Flipping position i is
``index ^ (1 << i)``.
"""

import numpy as np

#: Largest N for which anything of size 2^N (a truth table) is built.
#: 2^28 one-byte entries are 256 MiB; beyond that use sampling.
EXHAUSTIVE_MAX_BITS = 28

#: Largest N for which ``all_strings`` materialises the N x 2^N matrix.
ALL_STRINGS_MAX_BITS = 24


def table_n_bits(table, name="table"):
    """N of a table with one entry per string: 1-D of length 2^N, N >= 1."""
    size = table.shape[0] if table.ndim == 1 else 0
    if size < 2 or size & (size - 1):
        raise ValueError(
            f"{name} must be 1-D with a power-of-two length 2^N >= 2; got shape "
            f"{table.shape}."
        )
    return size.bit_length() - 1


#: Largest N of an exhaustive sensitivity profile: its truth table is
#: bit-packed beyond ``EXHAUSTIVE_MAX_BITS`` (2^32 bits are 512 MiB).
PACKED_MAX_BITS = 32


def check_exhaustive_bits(n_bits, what="Exhaustive profiling", limit=EXHAUSTIVE_MAX_BITS):
    """Refuse 2^N-sized work beyond ``limit`` (a byte per string up to
    ``EXHAUSTIVE_MAX_BITS``) with a useful hint."""
    if n_bits > limit:
        size = 2.0 ** n_bits / 2 ** 30 / (8 if limit > EXHAUSTIVE_MAX_BITS else 1)
        raise ValueError(
            f"{what} of N={n_bits} bits needs 2^{n_bits} = {2.0 ** n_bits:.3g} "
            f"model evaluations and a {size:.3g} GiB truth "
            f"table; it is limited to N <= {limit}. Use "
            "method='sampled' (uniform strings and their N neighbours, with "
            "confidence intervals) instead."
        )


def popcount(values):
    """Number of set bits of each non-negative integer in ``values``."""
    values = np.asarray(values)
    if hasattr(np, "bitwise_count"):  # numpy >= 2.0
        return np.bitwise_count(values)
    # Byte-wise table look-up for older numpy.
    table = np.array([bin(v).count("1") for v in range(256)], dtype=np.uint8)
    as_bytes = np.ascontiguousarray(values, dtype=np.uint64).view(np.uint8)
    return table[as_bytes].reshape(values.shape + (8,)).sum(axis=-1, dtype=np.uint8)


def index_to_bits(indices, n_bits):
    """Strings of the given indices, shape (len(indices), n_bits), dtype uint8.

    Examples
    --------
    >>> from skxor._utils._bits import index_to_bits
    >>> index_to_bits([1, 6], 3).tolist()
    [[1, 0, 0], [0, 1, 1]]
    """
    indices = np.asarray(indices, dtype=np.int64)
    if n_bits > 64:
        raise ValueError(f"a 64-bit index has no bit {n_bits - 1}; got n_bits={n_bits}.")
    # numpy unpacks the index's bytes, least significant first, in one pass
    # (no temporary beyond the output); bit i of the index is column i.
    as_bytes = indices.astype("<i8", copy=False).reshape(-1, 1).view(np.uint8)
    return np.unpackbits(as_bytes[:, : -(-n_bits // 8)], axis=1, count=n_bits,
                         bitorder="little")


def bits_to_index(bits):
    """Index ``sum_i bits[:, i] << i`` of each 0/1 row (at most 62 columns)."""
    bits = np.asarray(bits)
    n_bits = bits.shape[1]
    if n_bits > 62:
        raise ValueError(f"strings of {n_bits} bits do not fit a 64-bit index.")
    weights = np.left_shift(np.int64(1), np.arange(n_bits, dtype=np.int64))
    # uint8 @ int64 promotes to int64: exact.
    return bits.astype(np.int64, copy=False) @ weights


def low_bits_pattern(n_low):
    """All ``2^n_low`` strings of ``n_low`` bits in index order (uint8)."""
    return index_to_bits(np.arange(1 << n_low, dtype=np.int64), n_low)


def block_bits(start, n_bits, low):
    """The strings with indices ``start .. start + len(low) - 1``.

    ``len(low)`` is a power of two ``2^c`` and ``start`` a multiple of it, so
    the block shares its high bits and its low ``c`` bits run through
    ``low`` (from :func:`low_bits_pattern`): generating a block is a copy.
    """
    size, n_low = low.shape
    out = np.empty((size, n_bits), dtype=np.uint8)
    out[:, :n_low] = low
    if n_bits > n_low:
        out[:, n_low:] = (start >> np.arange(n_low, n_bits, dtype=np.int64)) & 1
    return out


def largest_power_of_two_at_most(value):
    """``2^floor(log2(value))`` for an integer value >= 1."""
    return 1 << (int(value).bit_length() - 1)
