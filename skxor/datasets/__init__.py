"""Synthetic data sets: uniform Boolean inputs labelled by sparse parities."""

from ._sparse_parity import make_sparse_parity

__all__ = ["make_sparse_parity"]
