"""index_to_bits (numpy's unpackbits) vs the column-by-column shifts it replaced.

Both give the strings of 2^20 indices (checked equal before timing); times
are interleaved, best of each.
"""

import numpy as np

from skxor._utils._bits import index_to_bits

from _common import interleaved_best, size


def _column_by_column(indices, n_bits):
    # The implementation before 2026-12-02: one shift, mask and strided write per bit.
    out = np.empty((indices.shape[0], n_bits), dtype=np.uint8)
    for i in range(n_bits):
        out[:, i] = (indices >> i) & 1
    return out


def index_to_bits_vs_column_shifts(n_bits=None, repeat=None):
    """index_to_bits over all 2^N indices vs shifting out one bit column at a time."""
    n_bits = n_bits or size(20, 12)
    indices = np.arange(1 << n_bits, dtype=np.int64)
    assert np.array_equal(index_to_bits(indices, n_bits), _column_by_column(indices, n_bits))
    best = interleaved_best({"columns": lambda: _column_by_column(indices, n_bits),
                             "unpackbits": lambda: index_to_bits(indices, n_bits)},
                            repeat=repeat or size(10, 2))
    ratio = best["unpackbits"] / best["columns"]
    return {
        "benchmark": f"index_to_bits (np.unpackbits) vs column-by-column shifts "
                     f"(2^{n_bits} indices, {n_bits} bits)",
        "target": "<= 0.5x",
        "baseline_s": best["columns"], "skxor_s": best["unpackbits"], "ratio": ratio,
        "passes": ratio <= 0.5,
        "note": "same output checked before timing",
    }


BENCHMARKS = [index_to_bits_vs_column_shifts]
