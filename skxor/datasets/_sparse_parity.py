"""Uniform inputs labelled by a k-sparse parity (sparse XOR for k = 2)."""

from numbers import Real

import numpy as np
from sklearn.utils import check_random_state

from .._utils._encoding import ENCODINGS, to_spins
from .._utils._sklearn_compat import Interval, StrOptions
from .._utils._support import check_support
from .._utils._validation import Integers, validate_params_once


#: Label conventions of :func:`make_sparse_parity` (what y says about the parity).
LABELS = ("pm1", "pm1_even", "01_odd", "01_even")


@validate_params_once(
    {
        "n_samples": [Integers(1, None, closed="left")],
        "n_features": [Integers(1, None, closed="left")],
        "k": [Integers(1, None, closed="left")],
        # Positions are checked by check_support (distinct, in range, k of them).
        "support": ["array-like", None],
        # numbers.Real excludes complex and strings; True is out of [0, 0.5).
        "noise": [Interval(Real, 0, 0.5, closed="left")],
        "encoding": [StrOptions(set(ENCODINGS))],
        "labels": [StrOptions(set(LABELS))],
        "return_support": ["boolean"],
        # scikit-learn's "random_state" admits True as the seed 1: refused here.
        "random_state": [Integers(0, 2**32 - 1, closed="both"), np.random.RandomState, None],
    },
    prefer_skip_nested_validation=True,
)
def make_sparse_parity(
    n_samples,
    n_features,
    *,
    k=2,
    support=None,
    noise=0.0,
    encoding="pm1",
    labels="pm1",
    return_support=False,
    random_state=None,
):
    """Generate uniform Boolean inputs labelled by a k-sparse parity.

    Each input is uniform on ``{-1, +1}^n_features`` (spins; bit ``b`` is the
    spin ``1 - 2 b``). The label is ``y = -prod(x[S])``, which is ``+1``
    exactly when the XOR of the bits in the support ``S`` is 1. For ``k = 2``
    this is the sparse XOR ``y = -x_i x_j`` of Han & Ghoshdastidar.

    Parameters
    ----------
    n_samples : int
        Number of samples, at least 1.
    n_features : int
        Input length d, at least ``k``.
    k : int, default=2
        Size of the support.
    support : array-like of int or None, default=None
        The relevant positions (0-based, distinct, ``k`` of them). Drawn
        uniformly without replacement from ``random_state`` when None.
    noise : float, default=0.0
        Probability, in ``[0, 0.5)``, that each label is flipped.
    encoding : {"pm1", "01"}, default="pm1"
        ``"pm1"`` returns spins in ``{-1, +1}``; ``"01"`` returns bits.
    labels : {"pm1", "pm1_even", "01_odd", "01_even"}, default="pm1"
        How y states the parity of the support bits: ``"pm1"``: -1/+1 with
        +1 meaning odd (skxor's labels, ``y = -prod(x[S])`` in spins);
        ``"pm1_even"``: -1/+1 with +1 meaning even; ``"01_odd"``: 0/1 with
        1 meaning odd (the sum of the support bits mod 2); ``"01_even"``: 0/1
        with 1 meaning even. The draw (and the noise) is the same for all
        four, so they describe the same data set.
    return_support : bool, default=False
        Also return the support.
    random_state : int, RandomState instance or None, default=None
        Seeds the inputs, the support (when drawn) and the label noise.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), dtype int8
        Inputs in the requested encoding.
    y : ndarray of shape (n_samples,), dtype int64
        Labels in ``{-1, +1}`` or ``{0, 1}`` as ``labels`` states (the same
        for both input encodings).
    support : ndarray of shape (k,)
        Sorted support; only when ``return_support=True``.

    Examples
    --------
    >>> from skxor.datasets import make_sparse_parity
    >>> X, y, S = make_sparse_parity(5, 8, support=[1, 6], return_support=True,
    ...                              random_state=0)
    >>> X.shape, S.tolist()
    ((5, 8), [1, 6])
    >>> bool((y == -X[:, 1] * X[:, 6]).all())
    True

    The same data with bits as inputs and 0/1 labels, 1 meaning even parity:

    >>> Xb, yb = make_sparse_parity(5, 8, support=[1, 6], encoding="01",
    ...                             labels="01_even", random_state=0)
    >>> bool((yb == 1 - (Xb[:, 1] + Xb[:, 6]) % 2).all()), bool((yb == (1 - y) // 2).all())
    (True, True)
    """
    n_samples, n_features, k, noise = int(n_samples), int(n_features), int(k), float(noise)
    if k > n_features:
        raise ValueError(f"k={k} is larger than n_features={n_features}.")
    rng = check_random_state(random_state)
    if support is None:
        support = np.sort(rng.choice(n_features, size=k, replace=False))
    else:
        support = check_support(support, n_features, k)

    bits = rng.randint(0, 2, size=(n_samples, n_features), dtype=np.int8)
    X = to_spins(bits, dtype=np.int8)
    y = -np.prod(X[:, support].astype(np.int64), axis=1)
    if noise > 0:
        flip = rng.random_sample(n_samples) < noise
        y[flip] = -y[flip]
    if encoding == "01":
        X = bits
    if labels == "pm1_even":
        y = -y
    elif labels == "01_odd":
        y = (y + 1) // 2
    elif labels == "01_even":
        y = (1 - y) // 2
    if return_support:
        return X, y, support
    return X, y
