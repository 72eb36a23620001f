"""Scoring a sparse-XOR model's heads: exact when every head has a dominant position, else
by sequential sampling.

Shared by the studies that score the heads after training steps (the one-step
study's cells, and the sample-complexity study's population outcome of each seed),
so that both decide success by one rule.
"""

import numpy as np
import torch
from sklearn.utils import check_random_state

from skxor.datasets import make_sparse_parity
from skxor.nn import attention_weights
from skxor.studies.stats import wilson_interval

#: Test accuracy at or above this counts as success.
SUCCESS_ACCURACY = 0.99

_FIRST_BATCH = 256
_ROWS_PER_CHUNK = 1 << 22  # spins per matrix product while scoring (32 MiB of float64)


def head_weights(keys, queries, attention):
    """Each head's attention over the d positions, ``gamma`` (d, H), as a float64 array.

    Parameters
    ----------
    keys : array-like of shape (d, m)
    queries : array-like of shape (H, m)
    attention : str
        A registered attention type (:func:`skxor.nn.attention_names`).

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.papers.han_ghoshdastidar._head_scoring import head_weights
    >>> head_weights(np.eye(3), np.zeros((2, 3)), "softmax").round(3).tolist()
    [[0.333, 0.333], [0.333, 0.333], [0.333, 0.333]]
    """
    with torch.no_grad():
        return attention_weights(torch.as_tensor(keys) @ torch.as_tensor(queries).T,
                                 attention).numpy()


def dominant_accuracy(gamma, support):
    """Exact accuracy of ``sign f`` on uniform inputs when every head has a dominant position.

    Parameters
    ----------
    gamma : array-like of shape (d, H)
        Attention weights, one column per head; ``f(x) = -prod_h <x, gamma_h>``.
    support : array-like of int
        The support S of the target ``y = -prod_{i in S} x_i``.

    Returns
    -------
    accuracy : float or None
        When each head's largest weight in absolute value, at ``j_h``,
        exceeds the sum of the absolute values of its other weights,
        ``sign <x, gamma_h> = sign(gamma_{j_h h}) x_{j_h}`` for every x, so
        ``sign f = -(prod_h sign gamma_{j_h h}) prod_h x_{j_h}``: accuracy 1
        (or 0 when the signs multiply to -1) if the positions met an odd
        number of times are exactly S, and 1/2 otherwise (a different parity
        is independent of y). None when some head has no dominant position.

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.papers.han_ghoshdastidar.one_step import dominant_accuracy
    >>> gamma = np.full((10, 2), 0.01)
    >>> gamma[3, 0], gamma[7, 1] = 0.9, 0.9
    >>> dominant_accuracy(gamma, [3, 7]), dominant_accuracy(gamma, [3, 8])
    (1.0, 0.5)
    >>> gamma[7, 1] = -0.9
    >>> dominant_accuracy(gamma, [3, 7])
    0.0
    >>> dominant_accuracy(np.full((10, 2), 0.1), [3, 7]) is None
    True
    """
    gamma = np.asarray(gamma, dtype=np.float64)
    magnitude = np.abs(gamma)
    top = np.argmax(magnitude, axis=0)
    heads = np.arange(gamma.shape[1])
    largest = magnitude[top, heads]
    rest = magnitude.sum(axis=0) - largest
    # A relative safety margin keeps float rounding of the sum from deciding.
    if not np.all(largest > rest * (1 + 1e-9)):
        return None
    return _parity_accuracy(top, support, np.prod(np.sign(gamma[top, heads])))


def _parity_accuracy(top, support, sign):
    # sign f = -sign * prod_h x_{top_h}: the positions met an odd number of times.
    counts = np.bincount(np.asarray(top), minlength=1)
    odd = set(np.flatnonzero(counts % 2).tolist())
    if odd != set(np.asarray(support).tolist()):
        return 0.5  # a different (or empty) parity: independent of y, balanced
    return 1.0 if sign > 0 else 0.0


def score_heads(gamma, support, *, n_test, random_state, threshold=SUCCESS_ACCURACY):
    """Accuracy of ``sign f`` on uniform inputs: exact when possible, else sequential sampling.

    Parameters
    ----------
    gamma : ndarray of shape (d, H)
        Attention weights; ``f(x) = -prod_h <x, gamma_h>``.
    support : array-like of int
    n_test : int
        Largest number of fresh inputs drawn.
    random_state : int or RandomState
        Seeds the inputs (drawn in order: the first inputs are the same
        whatever the stopping point).
    threshold : float, default=0.99
        Sampling stops once the Wilson 95% interval excludes it.

    Returns
    -------
    result : dict
        ``test_accuracy``, ``accuracy_low``, ``accuracy_high`` (the Wilson
        interval; equal to the accuracy when exact), ``n_scored`` (inputs
        drawn; 0 when exact) and ``scoring`` (``"exact"`` or ``"sampled"``).

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.papers.han_ghoshdastidar.one_step import score_heads
    >>> uniform = np.full((50, 2), 1 / 50)
    >>> r = score_heads(uniform, [3, 7], n_test=4096, random_state=0)
    >>> r["scoring"], r["n_scored"], r["accuracy_high"] < 0.99
    ('sampled', 256, True)
    """
    gamma = np.asarray(gamma, dtype=np.float64)
    exact = dominant_accuracy(gamma, support)
    if exact is not None:
        return {"test_accuracy": exact, "accuracy_low": exact, "accuracy_high": exact,
                "n_scored": 0, "scoring": "exact"}
    rng = check_random_state(random_state)
    d = gamma.shape[0]
    correct = drawn = 0
    batch = min(_FIRST_BATCH, int(n_test))
    while True:
        for start in range(0, batch, max(1, _ROWS_PER_CHUNK // d)):
            rows = min(max(1, _ROWS_PER_CHUNK // d), batch - start)
            X, y = make_sparse_parity(rows, d, support=support, random_state=rng)
            f = -np.prod(X @ gamma, axis=1)
            correct += int(np.sum(np.where(f > 0, 1, -1) == y))
        drawn += batch
        low, high = wilson_interval(correct, drawn)
        if drawn >= n_test or low > threshold or high < threshold:
            break
        batch = min(drawn, int(n_test) - drawn)  # double the inputs drawn so far
    return {"test_accuracy": correct / drawn, "accuracy_low": low, "accuracy_high": high,
            "n_scored": drawn, "scoring": "sampled"}
