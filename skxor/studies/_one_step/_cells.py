"""The one-step study's cells: T normalised steps, then the heads scored (exactly when possible)."""

import time

import numpy as np
import torch
from sklearn.utils import check_random_state

from ...datasets import make_sparse_parity
from ...estimators import SparseXORTransformer
from ...nn import attention_weights, sparse_xor_init
from ...theory import population_loss, population_step
from .._common import single_thread
from .._stats import wilson_interval

#: Test accuracy at or above this counts as success.
SUCCESS_ACCURACY = 0.99

_FIRST_BATCH = 256
_ROWS_PER_CHUNK = 1 << 22  # spins per matrix product while scoring (32 MiB of float64)


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
    >>> from skxor.studies._one_step import dominant_accuracy
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
    >>> from skxor.studies._one_step import score_heads
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


def one_step_cell(attention, d, m, n, seed, step_length, n_test, n_steps=1):
    """Run T normalised steps (one by default) for one configuration and measure what it learned.

    Parameters
    ----------
    attention : {"softmax", "linear", "erf"}
    d : int
        Input length, at least 2.
    m : int
        Key dimension, at least 1.
    n : int
        0 for the exact population step, else the number of training samples.
    seed : int
        Seeds the support, keys, queries, samples and test inputs.
    step_length : float
        Length of each normalised step.
    n_test : int
        Largest number of test inputs drawn (see :func:`score_heads`).
    n_steps : int, default=1
        Number of steps T (1: the paper's one step).

    Returns
    -------
    result : dict
        ``loss_after_step`` (after all T steps), ``support_mass_min``,
        ``max_weight`` (the largest attention weight of either head),
        ``specialised``,
        ``test_accuracy``, ``accuracy_low``, ``accuracy_high``, ``n_scored``,
        ``scoring``, ``success``, ``seconds`` (the whole cell) and
        ``floor_seconds`` (the step, or the fit for n > 0, and the exact
        loss: the work any scoring method must do).

    Examples
    --------
    >>> from skxor.studies._one_step import one_step_cell
    >>> r = one_step_cell("softmax", 100, 32, 0, 0, 100.0, 2000)
    >>> r["success"], r["scoring"], r["test_accuracy"]
    (True, 'exact', 1.0)
    """
    # Small torch operations stall on a shared machine with several threads;
    # parallelism comes from n_jobs.
    with single_thread():
        return _one_step_cell(attention, d, m, n, seed, step_length, n_test, n_steps)


def _one_step_cell(attention, d, m, n, seed, step_length, n_test, n_steps):
    start = time.perf_counter()
    _, _, support = make_sparse_parity(1, d, return_support=True, random_state=seed)
    if n == 0:
        keys, theta = sparse_xor_init(d, m, random_state=seed)  # the estimator's draw
        for _ in range(int(n_steps)):
            theta = population_step(theta, keys, support, attention, step_length=step_length)
    else:
        X, y = make_sparse_parity(n, d, support=support, random_state=seed)
        clf = SparseXORTransformer(
            m=m, attention=attention, step_length=step_length, max_iter=int(n_steps),
            random_state=seed,
        ).fit(X, y)
        keys, theta = clf.keys_, clf.queries_
    with torch.no_grad():
        gamma = attention_weights(
            torch.as_tensor(keys) @ torch.as_tensor(theta).T, attention
        ).numpy()  # (d, 2)
    loss = population_loss(theta, keys, support, attention)
    floor = time.perf_counter() - start
    score = score_heads(gamma, support, n_test=n_test, random_state=10**6 + seed)
    heads = np.argmax(gamma, axis=0)
    mass = gamma[support].sum(axis=0)  # attention on the support, per head
    return {
        "loss_after_step": loss,
        "support_mass_min": float(mass.min()),
        "max_weight": float(gamma.max()),
        "specialised": bool(sorted(heads.tolist()) == support.tolist()),
        **score,
        "success": bool(score["test_accuracy"] >= SUCCESS_ACCURACY),
        "seconds": time.perf_counter() - start,
        "floor_seconds": floor,
    }


def costly_first(cells):
    """``cells`` with large d, many steps or many samples first: better load balance."""
    return sorted(cells, key=lambda c: -(c["d"] * c["n_steps"] * max(c["n"], 1)))


def one_step_cost(cell):
    """The dry run's cost of a cell: ``(kind, work)``, population steps or steps on samples."""
    kind = "population" if cell["n"] == 0 else "sample"
    # Softmax runs are mostly scored exactly (a dominant position per head);
    # linear and erf never concentrate, so they are scored on n_test samples.
    scoring = cell["m"] if cell["attention"] == "softmax" else cell["n_test"]
    return kind, cell["d"] * (cell["m"] * cell["n_steps"] * max(cell["n"], 1) + scoring)

