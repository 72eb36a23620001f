"""The support of a sparse parity: validated positions of its relevant bits."""

import numpy as np


def check_support(support, n_features, k=None):
    """Validate a support (positions of the relevant bits) and return it sorted.

    Parameters
    ----------
    support : array-like of ints
        Distinct positions in ``[0, n_features)``.
    n_features : int
        Number of positions.
    k : int or None, default=None
        Required number of positions, if any.

    Returns
    -------
    support : ndarray of shape (k,), dtype int64
        The positions in increasing order.

    Raises
    ------
    TypeError
        If the positions are booleans or not numbers.
    ValueError
        If a position is out of range, repeated, not an integer, or
        ``len(support) != k``.

    Examples
    --------
    >>> from skxor._utils._support import check_support
    >>> check_support([7, 2], 10).tolist()
    [2, 7]
    """
    arr = np.asarray(support)
    if arr.dtype == bool or arr.dtype.kind not in "iuf":
        # Booleans are not positions (True would silently mean position 1).
        raise TypeError(
            f"support must hold integer positions; got {support!r} "
            f"(dtype {arr.dtype})."
        )
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"support must be a non-empty 1-D list of positions; got {support!r}.")
    if not np.issubdtype(arr.dtype, np.integer):
        if not (
            np.issubdtype(arr.dtype, np.floating)
            and np.isfinite(arr).all()
            and np.all(arr == np.round(arr))
        ):
            raise ValueError(f"support must hold integer positions; got {support!r}.")
        arr = arr.astype(np.int64)
    if arr.min() < 0 or arr.max() >= n_features:
        raise ValueError(
            f"support positions must lie in [0, {n_features - 1}] for "
            f"n_features={n_features}; got {arr.tolist()}."
        )
    if np.unique(arr).size != arr.size:
        raise ValueError(f"support positions must be distinct; got {arr.tolist()}.")
    if k is not None and arr.size != k:
        raise ValueError(
            f"support has {arr.size} positions but k={k}; pass k={arr.size} "
            "or a support of k positions."
        )
    return np.sort(arr).astype(np.int64)
