"""The labels of a sparse parity and their conventions (make_sparse_parity, the clean-label scorer)."""

import numpy as np

#: Label conventions of :func:`skxor.datasets.make_sparse_parity` (what y says
#: about the parity of the support bits).
LABELS = ("pm1", "pm1_even", "01_odd", "01_even")


def parity_labels(spins, support):
    """skxor's labels ``-prod(x[S])`` (+1: odd parity) of spin inputs, as int64.

    Examples
    --------
    >>> import numpy as np
    >>> from skxor._utils._labels import parity_labels
    >>> parity_labels(np.array([[1, -1, 1], [-1, -1, 1]]), [0, 1]).tolist()
    [1, -1]
    """
    return -np.prod(np.asarray(spins)[:, support].astype(np.int64), axis=1)


def convert_labels(y, labels):
    """skxor's -1/+1 labels (+1: odd) in the convention ``labels`` (one of :data:`LABELS`).

    Examples
    --------
    >>> import numpy as np
    >>> from skxor._utils._labels import convert_labels
    >>> [convert_labels(np.array([-1, 1]), name).tolist() for name in LABELS]
    [[-1, 1], [1, -1], [0, 1], [1, 0]]
    """
    if labels == "pm1_even":
        return -y
    if labels == "01_odd":
        return (y + 1) // 2
    if labels == "01_even":
        return (1 - y) // 2
    return y
