"""Uniform inputs labelled by a k-sparse parity (sparse XOR for k = 2)."""

from numbers import Real

import numpy as np
from sklearn.utils import check_random_state

from .._utils._encoding import ENCODINGS, to_spins
from .._utils._labels import LABELS, convert_labels, parity_labels
from .._utils._sklearn_compat import Interval, StrOptions
from .._utils._support import check_support
from .._utils._validation import Integers, validate_params_once


@validate_params_once(
    {
        "n_samples": [Integers(1, None, closed="left")],
        "n_features": [Integers(1, None, closed="left")],
        "k": [Integers(1, None, closed="left"), None],
        # Positions are checked by check_support (distinct, in range, k of them).
        "support": ["array-like", None],
        # numbers.Real excludes complex and strings; True is out of [0, 0.5).
        "noise": [Interval(Real, 0, 0.5, closed="left")],
        "encoding": [StrOptions(set(ENCODINGS))],
        "labels": [StrOptions(set(LABELS))],
        "return_clean": ["boolean"],
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
    k=None,
    support=None,
    noise=0.0,
    encoding="pm1",
    labels="pm1",
    return_clean=False,
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
    k : int or None, default=None
        Size of the support. None: ``len(support)`` when a support is
        given, else 2 (sparse XOR). A ``k`` given with a support of another
        size is refused.
    support : array-like of int or None, default=None
        The relevant positions (0-based, distinct, ``k`` of them). Drawn
        uniformly without replacement from ``random_state`` when None.
    noise : float, default=0.0
        Probability, in ``[0, 0.5)``, that each label is flipped,
        independently. The flips are drawn after the inputs and the
        support, from uniforms of their own (one per sample): X, the
        support and the clean labels are the same for every ``noise``, and
        the labels flipped at a smaller noise are flipped at a larger one.
    encoding : {"pm1", "01"}, default="pm1"
        ``"pm1"`` returns spins in ``{-1, +1}``; ``"01"`` returns bits.
    labels : {"pm1", "pm1_even", "01_odd", "01_even"}, default="pm1"
        How y states the parity of the support bits: ``"pm1"``: -1/+1 with
        +1 meaning odd (skxor's labels, ``y = -prod(x[S])`` in spins);
        ``"pm1_even"``: -1/+1 with +1 meaning even; ``"01_odd"``: 0/1 with
        1 meaning odd (the sum of the support bits mod 2); ``"01_even"``: 0/1
        with 1 meaning even. The draw (and the noise) is the same for all
        four, so they describe the same data set.
    return_clean : bool, default=False
        Also return the clean labels (before the noise), in the convention
        of ``labels``; :func:`skxor.model_selection.clean_accuracy_scorer`
        scores a model against them inside a search.
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
        for both input encodings), with the noise.
    y_clean : ndarray of shape (n_samples,), dtype int64
        The labels without noise; only when ``return_clean=True``.
    support : ndarray of shape (k,)
        Sorted support; only when ``return_support=True`` (after
        ``y_clean`` when both are asked for).

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

    k is read from the support; with 10% label noise and the clean labels:

    >>> X, y, y_clean = make_sparse_parity(1000, 8, support=[0, 3, 5], noise=0.1,
    ...                                    return_clean=True, random_state=0)
    >>> bool((y_clean == -X[:, 0] * X[:, 3] * X[:, 5]).all()), float((y != y_clean).mean())
    (True, 0.095)
    """
    n_samples, n_features, noise = int(n_samples), int(n_features), float(noise)
    if support is not None:
        # k is the support's size; a k given besides must agree (check_support says so).
        support = check_support(support, n_features, k)
        k = support.size
    k = 2 if k is None else int(k)
    if k > n_features:
        raise ValueError(f"k={k} is larger than n_features={n_features}.")
    rng = check_random_state(random_state)
    if support is None:
        support = np.sort(rng.choice(n_features, size=k, replace=False))

    bits = rng.randint(0, 2, size=(n_samples, n_features), dtype=np.int8)
    X = to_spins(bits, dtype=np.int8)
    clean = parity_labels(X, support)
    y = clean.copy()
    if noise > 0:
        # Drawn last, one uniform per sample: the same X and clean labels at every noise.
        flip = rng.random_sample(n_samples) < noise
        y[flip] = -y[flip]
    if encoding == "01":
        X = bits
    returned = [X, convert_labels(y, labels)]
    if return_clean:
        returned.append(convert_labels(clean, labels))
    if return_support:
        returned.append(support)
    return tuple(returned)

