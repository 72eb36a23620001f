"""Closed-form population loss of the two-head model for y = -x_p x_q.

For uniform spins and attention vectors ``a = gamma_1``, ``b = gamma_2``::

    E[(f(x) - y)^2] = |a|^2 |b|^2 + 2 (a.b)^2 - 2 sum_i a_i^2 b_i^2
                      - 2 (a_p b_q + a_q b_p) + 1

because ``E[x_i x_j x_k x_l]`` is 1 exactly when the indices pair up. The
gradient follows by autograd through the attention map in O(d m): nothing is
sampled and nothing of size 2^d is formed.
"""

import numpy as np
import torch

from .._utils._validation import check_dtype, check_positive_finite
from ..datasets._sparse_parity import check_support
from ..nn import ATTENTION_TYPES, attention_weights


def _as_tensor(name, value, dtype, ndim):
    if isinstance(value, torch.Tensor):
        value = value.detach().cpu().numpy()
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a numeric array; got {type(value).__name__}.") from exc
    if arr.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-D array; got shape {arr.shape}.")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or infinite values.")
    tensor = torch.as_tensor(arr, dtype=dtype)
    if not torch.isfinite(tensor).all():
        raise ValueError(
            f"{name} overflow the range of {dtype} (largest magnitude "
            f"{np.abs(arr).max():.3g}); use dtype='float64'."
        )
    return tensor


def _check_inputs(queries, keys, support, attention, dtype):
    dtype = check_dtype(dtype)
    if attention not in ATTENTION_TYPES:
        raise ValueError(f"attention must be one of {ATTENTION_TYPES}; got {attention!r}.")
    theta = _as_tensor("queries", queries, dtype, 2)
    V = _as_tensor("keys", keys, dtype, 2)
    if theta.shape[0] != 2:
        raise ValueError(
            f"the population formulas are for two heads; queries has shape "
            f"{tuple(theta.shape)} (need (2, m))."
        )
    if theta.shape[1] != V.shape[1]:
        raise ValueError(
            f"queries (m={theta.shape[1]}) and keys (m={V.shape[1]}) disagree on m."
        )
    p, q = check_support(support, V.shape[0], 2).tolist()
    return theta, V, p, q


def _loss(scores, p, q, attention):
    """The closed form from the scores (d, 2), in float64 whatever their dtype.

    The loss is a quartic in the attention weights; with linear attention and
    huge queries it exceeds float32's range, so this O(d) part runs in float64
    while the O(d m) key products keep the requested precision.
    """
    gamma = attention_weights(scores.to(torch.float64), attention)  # (d, 2)
    a, b = gamma[:, 0], gamma[:, 1]
    ab = a @ b
    return (
        (a @ a) * (b @ b)
        + 2 * ab**2
        - 2 * ((a * b) ** 2).sum()
        - 2 * (a[p] * b[q] + a[q] * b[p])
        + 1
    )


def population_loss(queries, keys, support, attention="softmax", *, dtype="float64"):
    """Exact expected squared error over uniform inputs, for y = -x_p x_q.

    Parameters
    ----------
    queries : array-like of shape (2, m)
        The two query vectors.
    keys : array-like of shape (d, m)
        Positional keys.
    support : array-like of 2 ints
        The positions ``p, q`` of the XOR.
    attention : {"softmax", "linear", "erf"}, default="softmax"
    dtype : {"float64", "float32"}, default="float64"

    Returns
    -------
    loss : float

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.theory import population_loss
    >>> keys = np.eye(4)
    >>> # Heads concentrated on positions 0 and 1 compute the XOR exactly.
    >>> round(population_loss(50 * keys[[0, 1]], keys, [0, 1]), 6)
    0.0
    """
    theta, V, p, q = _check_inputs(queries, keys, support, attention, dtype)
    with torch.no_grad():
        return float(_loss(V @ theta.T, p, q, attention))


def population_gradient(queries, keys, support, attention="softmax", *, dtype="float64"):
    """Exact gradient of :func:`population_loss` with respect to the queries.

    Parameters
    ----------
    queries : array-like of shape (2, m)
    keys : array-like of shape (d, m)
    support : array-like of 2 ints
    attention : {"softmax", "linear", "erf"}, default="softmax"
    dtype : {"float64", "float32"}, default="float64"

    Returns
    -------
    gradient : ndarray of shape (2, m)
    """
    theta, V, p, q = _check_inputs(queries, keys, support, attention, dtype)
    scores = (V @ theta.T).requires_grad_(True)  # (d, 2)
    _loss(scores, p, q, attention).backward()
    # Chain rule through the scores by hand: d loss / d theta = dS.T @ V. The
    # float64 score gradient is scaled into range before the product in
    # ``dtype`` and scaled back after, so float32 cannot overflow here.
    d_scores = scores.grad.to(torch.float64)
    scale = d_scores.abs().max()
    if scale == 0 or not torch.isfinite(scale):
        scale = torch.ones((), dtype=torch.float64)
    grad = (d_scores / scale).to(V.dtype).T @ V
    return grad.to(torch.float64).numpy() * float(scale)


def population_step(
    queries,
    keys,
    support,
    attention="softmax",
    *,
    learning_rate="normalized",
    step_length=100.0,
    dtype="float64",
):
    """One gradient step on the population loss.

    Parameters
    ----------
    queries : array-like of shape (2, m)
    keys : array-like of shape (d, m)
    support : array-like of 2 ints
    attention : {"softmax", "linear", "erf"}, default="softmax"
    learning_rate : "normalized" or float, default="normalized"
        ``"normalized"`` steps ``step_length * g / ||g||``; a float steps
        ``learning_rate * g``.
    step_length : float, default=100.0
    dtype : {"float64", "float32"}, default="float64"

    Returns
    -------
    new_queries : ndarray of shape (2, m)

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.theory import population_loss, population_step
    >>> rng = np.random.default_rng(0)
    >>> keys = rng.standard_normal((50, 32))
    >>> keys /= np.linalg.norm(keys, axis=1, keepdims=True)
    >>> theta = rng.standard_normal(32); theta /= np.linalg.norm(theta)
    >>> new = population_step(np.stack([theta, -theta]), keys, [4, 9])
    >>> population_loss(new, keys, [4, 9]) < 0.05
    True
    """
    grad = population_gradient(queries, keys, support, attention, dtype=dtype)
    theta = np.asarray(queries, dtype=np.float64)
    if learning_rate == "normalized":
        step_length = check_positive_finite(step_length, "step_length")
        norm = np.linalg.norm(grad)
        return theta if norm == 0 else theta - step_length * grad / norm
    learning_rate = check_positive_finite(learning_rate, "learning_rate")
    new = theta - learning_rate * grad
    if not np.isfinite(new).all():
        raise ValueError("the step overflowed to non-finite queries; use a smaller learning_rate.")
    return new
