"""Exact population loss of the H-head model for y = -prod_{i in S} x_i.

The model is ``f(x) = -prod_h (gamma_h . x)`` with ``gamma_h`` the attention
weights of head h over the d positions; the inputs are uniform spins. Then::

    E[(f(x) - y)^2] = E[prod_h (gamma_h . x)^2]
                      - 2 E[prod_h (gamma_h . x) prod_{i in S} x_i] + 1.

Both expectations are moments of products of linear forms in independent
uniform spins (the support bits are forms too: ``x_i = e_i . x``). By the
moment-cumulant formula such a moment is a sum over the set partitions of the
forms into blocks; the joint cumulant of the forms in a block B is
``kappa_|B| * sum_i prod_{j in B} u_{j,i}`` because the coordinates are
independent, and the cumulants ``kappa_n`` of a uniform spin vanish for odd
n (``kappa_2 = 1, kappa_4 = -2, kappa_6 = 16, kappa_8 = -272``). So the loss
is a fixed polynomial (depending on H and k only) in the power sums
``P_c = sum_i prod_h gamma_{h,i}^{c_h}`` (``c_h`` in {0, 1, 2}) and the
products ``Q_{c,s} = prod_h gamma_{h,s}^{c_h}`` at the support positions s.
The power sums cost O(3^H d); nothing is sampled and nothing of size 2^d is
formed. The gradient goes by autograd through the polynomial (a handful of
scalars), then by hand through the power sums chunk by chunk, then by
autograd through the attention map: O(3^H d + d m) time, O(d (H + m)) memory.

For H = 2 and S = {p, q} the expansion reduces to the closed form::

    E[(f(x) - y)^2] = |a|^2 |b|^2 + 2 (a.b)^2 - 2 sum_i a_i^2 b_i^2
                      - 2 (a_p b_q + a_q b_p) + 1

(``a = gamma_1``, ``b = gamma_2``), which is kept as the fast path there, so
that two-head results are bit for bit those of the closed form.
"""

import functools
import itertools
import math
from collections import Counter

from numbers import Real

import numpy as np
import torch

from .._utils._sklearn_compat import Interval, StrOptions
from .._utils._support import check_support
from .._utils._validation import check_dtype, check_positive_finite, validate_params_once
from ..nn import attention_constraint, attention_weights, get_attention

#: Largest number of heads H and of support bits k of the exact expansion.
#: The polynomial sums over the set partitions of 2H (or H + k) forms into
#: even blocks: 6 556 for 10 forms (built once, in under a second), 116 281
#: for 12 (about 10 s).
MAX_HEADS = 5
MAX_SUPPORT = 5

#: Elements of the (3^(H-1), rows) block built per chunk of positions.
_CHUNK_ELEMENTS = 1 << 22


# -- input checks ----------------------------------------------------------------


def _as_real_array(name, value):
    """``value`` as a real float64 ndarray, or a TypeError naming ``name``."""
    if isinstance(value, torch.Tensor):
        if value.is_complex():
            raise TypeError(
                f"{name} must be real, but it is a complex tensor ({value.dtype}); "
                "pass its real part explicitly if that is what you mean."
            )
        value = value.detach().cpu().numpy()
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"{name} must be a real numeric array; got {type(value).__name__}."
        ) from exc
    if arr.dtype.kind == "c":
        raise TypeError(
            f"{name} must be real, but it holds complex values (dtype {arr.dtype}); "
            "pass its real part explicitly if that is what you mean."
        )
    if arr.dtype.kind not in "biuf":
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(
                f"{name} must be a real numeric array; got {type(value).__name__} "
                f"of dtype {arr.dtype}."
            ) from exc
    return arr.astype(np.float64, copy=False)


def _as_tensor(name, value, dtype, ndim):
    arr = _as_real_array(name, value)
    if arr.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-D array; got shape {arr.shape}.")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or infinite values.")
    tensor = torch.as_tensor(arr, dtype=dtype)
    # Finite float64 values stay finite in float64; only a narrower dtype can
    # overflow (a second pass over d x m keys costs as much as the step).
    if tensor.dtype != torch.float64 and not torch.isfinite(tensor).all():
        raise ValueError(
            f"{name} overflow the range of {dtype} (largest magnitude "
            f"{np.abs(arr).max():.3g}); use dtype='float64'."
        )
    return tensor


def _check_inputs(queries, keys, support, attention, dtype):
    dtype = check_dtype(dtype)
    get_attention(attention)  # a ValueError naming the registered types
    theta = _as_tensor("queries", queries, dtype, 2)
    V = _as_tensor("keys", keys, dtype, 2)
    (H, m), (d, m_keys) = theta.shape, V.shape
    if m != m_keys:
        raise ValueError(
            f"queries (shape {tuple(theta.shape)}, m={m}) and keys (shape "
            f"{tuple(V.shape)}, m={m_keys}) disagree on m."
        )
    if m < 1:
        raise ValueError(
            f"queries and keys need m >= 1 columns (the key dimension); got m=0 "
            f"(queries of shape {tuple(theta.shape)}, keys of shape {tuple(V.shape)})."
        )
    if d < 1:
        raise ValueError(
            f"keys must have one row per position, d >= 1; got shape {tuple(V.shape)}."
        )
    if not 1 <= H <= MAX_HEADS:
        raise ValueError(
            f"queries must have one row per head, 1 <= H <= {MAX_HEADS}; got shape "
            f"{tuple(theta.shape)} (H={H})."
        )
    S = check_support(support, d)
    if S.size > MAX_SUPPORT:
        raise ValueError(
            f"the exact expansion handles supports of at most {MAX_SUPPORT} "
            f"positions; got k={S.size}."
        )
    return theta, V, S


def _overflow(scores, attention, what="the population loss"):
    return ValueError(
        f"queries are too large for {attention} attention: {what} overflows float64 "
        f"(largest |score| v_i . theta_h = {scores.abs().max().item():.3g}); "
        "rescale the queries (or use a smaller step_length / learning_rate)."
    )


# -- the expansion ---------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def spin_cumulant(n):
    """The n-th cumulant of a uniform spin (an exact integer; 0 for odd n)."""
    moments = [1 if j % 2 == 0 else 0 for j in range(n + 1)]
    kappa = [0] * (n + 1)
    for r in range(1, n + 1):
        kappa[r] = moments[r] - sum(
            math.comb(r - 1, j - 1) * kappa[j] * moments[r - j] for j in range(1, r)
        )
    return kappa[n]


def _even_partitions(items):
    """All set partitions of ``items`` (a tuple) into blocks of even size."""
    if not items:
        yield ()
        return
    first, rest = items[0], items[1:]
    for size in range(1, len(rest) + 1, 2):
        for others in itertools.combinations(range(len(rest)), size):
            block = (first,) + tuple(rest[i] for i in others)
            remaining = tuple(r for i, r in enumerate(rest) if i not in others)
            for tail in _even_partitions(remaining):
                yield (block,) + tail


@functools.lru_cache(maxsize=None)
def _expansion(H, k):
    """The loss as a polynomial in the power sums, for H heads and k support bits.

    Returns
    -------
    powers : ndarray of shape (M, H), int
        Exponents ``c`` (entries 0, 1, 2, even sum) of the power sums ``P_c``.
    odd : ndarray of shape (Mq, H), int
        Exponents (0/1, odd sum) of the products ``Q_{c,s}`` at a support bit.
    terms : ndarray of shape (T, B), int
        Each row lists the variables of one monomial, indexing the vector
        ``[P (M), Q (Mq * k, index c * k + s), 1]`` (padded with the 1).
    coefficients : ndarray of shape (T,), float64
        Their integer coefficients; the constant 1 of the loss is a term.
    """
    powers = [c for c in itertools.product((0, 1, 2), repeat=H) if sum(c) % 2 == 0 and any(c)]
    odd = [c for c in itertools.product((0, 1), repeat=H) if sum(c) % 2 == 1]
    p_index = {c: i for i, c in enumerate(powers)}
    q_index = {c: i for i, c in enumerate(odd)}
    one = len(powers) + len(odd) * k
    polynomial = Counter({(): 1})

    def exponents(block, heads_of):
        c = [0] * H
        for j in block:
            h = heads_of(j)
            if h is not None:
                c[h] += 1
        return tuple(c)

    # E[f^2]: the forms gamma_1, gamma_1, ..., gamma_H, gamma_H.
    for partition in _even_partitions(tuple(range(2 * H))):
        monomial, coefficient = [], 1
        for block in partition:
            coefficient *= spin_cumulant(len(block))
            monomial.append(p_index[exponents(block, lambda j: j // 2)])
        polynomial[tuple(sorted(monomial))] += coefficient
    # -2 E[f y]: the forms gamma_1 .. gamma_H, e_{s_1} .. e_{s_k}. A block with
    # two support bits vanishes (sum_i e_{s,i} e_{t,i} = 0 for s != t).
    for partition in _even_partitions(tuple(range(H + k))):
        monomial, coefficient = [], -2
        for block in partition:
            bits = [j - H for j in block if j >= H]
            if len(bits) > 1:
                break
            coefficient *= spin_cumulant(len(block))
            c = exponents(block, lambda j: j if j < H else None)
            if bits:
                monomial.append(len(powers) + q_index[c] * k + bits[0])
            else:
                monomial.append(p_index[c])
        else:
            polynomial[tuple(sorted(monomial))] += coefficient
    polynomial = {m: c for m, c in polynomial.items() if c != 0}
    width = max(1, max(len(m) for m in polynomial))
    terms = np.full((len(polynomial), width), one, dtype=np.int64)
    for row, monomial in enumerate(polynomial):
        terms[row, : len(monomial)] = monomial
    coefficients = np.array([float(c) for c in polynomial.values()])
    return (
        np.array(powers, dtype=np.int64).reshape(-1, H),
        np.array(odd, dtype=np.int64).reshape(-1, H),
        terms,
        coefficients,
    )


def _power_sums(gamma, powers):
    """``P_c = sum_i prod_h gamma[i, h]^c_h`` for each row c of ``powers``.

    All 3^H sums at once, as a contraction over positions: the table of
    ``prod_{h < H-1} gamma[i, h]^c_h`` is built head by head (a Khatri-Rao
    product) and the last head enters by a matrix product, chunk by chunk.
    """
    d, H = gamma.shape
    digits = torch.as_tensor(3 ** np.arange(H - 1, -1, -1))
    index = torch.as_tensor(powers) @ digits  # row c -> its place in the 3^H grid
    step = max(1, _CHUNK_ELEMENTS // 3 ** max(0, H - 1))
    total = torch.zeros(3**H, dtype=gamma.dtype)
    for start in range(0, d, step):
        g = gamma[start : start + step].T  # (H, n)
        table = torch.stack([torch.ones_like(g), g, g * g], dim=1)  # (H, 3, n)
        grid = table[0]
        for h in range(1, H - 1):
            grid = (grid[:, None, :] * table[h][None, :, :]).reshape(-1, g.shape[1])
        if H == 1:
            total = total + grid.sum(dim=1)
        else:
            total = total + (grid @ table[H - 1].T).reshape(-1)
    return total[index]


def _support_products(gamma_s, odd):
    """``Q[c * k + s] = prod_h gamma_s[s, h]^c_h`` for the 0/1 rows c of ``odd``."""
    mask = torch.as_tensor(odd, dtype=torch.bool)[None, :, :]  # (1, Mq, H)
    picked = torch.where(mask, gamma_s[:, None, :], torch.ones((), dtype=gamma_s.dtype))
    return picked.prod(dim=2).T.reshape(-1)  # (Mq * k,)


def _polynomial(P, Q, terms, coefficients):
    values = torch.cat([P, Q, torch.ones(1, dtype=P.dtype)])
    coefficients = torch.as_tensor(coefficients, dtype=P.dtype)
    return (coefficients * values[torch.as_tensor(terms)].prod(dim=1)).sum()


def _general_loss(gamma, S, with_gradient):
    """Loss (and, if asked, its gradient w.r.t. gamma) by the expansion."""
    d, H = gamma.shape
    powers, odd, terms, coefficients = _expansion(H, len(S))
    S = torch.as_tensor(S)
    with torch.no_grad():
        P = _power_sums(gamma, powers)
    if not with_gradient:
        with torch.no_grad():
            return _polynomial(P, _support_products(gamma[S], odd), terms, coefficients), None
    P.requires_grad_(True)
    gamma_s = gamma[S].clone().requires_grad_(True)
    loss = _polynomial(P, _support_products(gamma_s, odd), terms, coefficients)
    loss.backward()
    weights = P.grad
    # d loss / d gamma[i, h] = sum_c w_c d(prod_h' gamma[i, h']^c_h') / d gamma[i, h],
    # by autograd on one chunk of positions at a time (memory O(chunk * M * H)).
    grad = torch.empty_like(gamma)
    step = max(1, _CHUNK_ELEMENTS // 3 ** max(0, H - 1))
    for start in range(0, d, step):
        chunk = gamma[start : start + step].clone().requires_grad_(True)
        (weights * _power_sums(chunk, powers)).sum().backward()
        grad[start : start + step] = chunk.grad
    grad.index_add_(0, S, gamma_s.grad)
    return loss.detach(), grad


def _two_head_loss(gamma, p, q):
    """The closed form for H = 2, S = {p, q}, from gamma (d, 2) in float64."""
    a, b = gamma[:, 0], gamma[:, 1]
    ab = a @ b
    return (
        (a @ a) * (b @ b)
        + 2 * ab**2
        - 2 * ((a * b) ** 2).sum()
        - 2 * (a[p] * b[q] + a[q] * b[p])
        + 1
    )


def _is_two_head(theta, S):
    return theta.shape[0] == 2 and S.size == 2


def _loss_and_score_gradient(theta, V, S, attention, with_gradient):
    """Loss and (optionally) its gradient w.r.t. the scores (d, H), float64.

    The loss is a polynomial of degree 2H in the attention weights; with linear
    attention and huge queries it exceeds float32's range, so this O(d) part
    runs in float64 while the O(d m) key products keep the requested precision.
    """
    raw = V @ theta.T  # (d, H), in the requested dtype
    if with_gradient:
        raw.requires_grad_(True)
    with torch.set_grad_enabled(with_gradient):
        scores = raw.to(torch.float64)
        gamma = attention_weights(scores, attention)  # (d, H)
        if _is_two_head(theta, S):
            p, q = S.tolist()
            loss = _two_head_loss(gamma, p, q)
            if with_gradient:
                loss.backward()
        else:
            loss, grad_gamma = _general_loss(gamma.detach(), S, with_gradient)
            if with_gradient and torch.isfinite(grad_gamma).all():
                gamma.backward(grad_gamma)
    if not torch.isfinite(loss):
        raise _overflow(scores.detach(), attention)
    if not with_gradient:
        return float(loss.detach()), None
    d_scores = raw.grad.to(torch.float64)
    if not torch.isfinite(d_scores).all():
        raise _overflow(scores.detach(), attention, "the population gradient")
    return float(loss.detach()), d_scores


# -- public functions ------------------------------------------------------------

_ARRAYS = {"queries": "no_validation", "keys": "no_validation", "support": "no_validation"}
#: Scalar parameters checked by scikit-learn's constraints (arrays by hand:
#: their messages name shapes, complex values and overflow).
_CONSTRAINTS = {
    **_ARRAYS,
    "attention": [attention_constraint()],
    "dtype": "no_validation",  # also numpy/torch dtypes: see check_dtype
}
_POSITIVE = Interval(Real, 0, None, closed="neither")


@validate_params_once(_CONSTRAINTS, prefer_skip_nested_validation=True)
def population_loss(queries, keys, support, attention="softmax", *, dtype="float64"):
    """Exact expected squared error over uniform inputs, for y = -prod_{i in S} x_i.

    The model is ``f(x) = -prod_h (gamma_h . x)`` with H heads (Han &
    Ghoshdastidar 2025, arXiv 2502.07553, for H = 2 and k = 2). Two heads
    on a pair use the paper's closed form; any other H and k use the exact
    moment-cumulant expansion (see the module docstring), whose cost is
    linear in d. Nothing is sampled.

    Parameters
    ----------
    queries : array-like of shape (H, m)
        One query vector per head, ``1 <= H <= 5``.
    keys : array-like of shape (d, m)
        Positional keys.
    support : array-like of k ints
        The positions S of the parity, ``1 <= k <= 5`` (``k = 2``: sparse XOR).
    attention : {"softmax", "linear", "erf"}, default="softmax"
        Or any type registered with :func:`skxor.nn.register_attention`
        (the gradient flows through its weights by autograd).
    dtype : {"float64", "float32"}, default="float64"
        Precision of the ``keys @ queries`` products; the loss itself is
        always computed in float64.

    Returns
    -------
    loss : float

    Raises
    ------
    TypeError
        If queries or keys are not real numeric arrays (complex values included).
    ValueError
        For shapes that do not fit (m = 0, keys and queries with different m,
        more than 5 heads), a support out of range, repeated or of more than
        5 positions, NaN or infinite values, or queries so large that the
        loss overflows float64.

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.theory import population_loss
    >>> keys = np.eye(4)
    >>> # Heads concentrated on positions 0 and 1 compute the XOR exactly.
    >>> round(population_loss(50 * keys[[0, 1]], keys, [0, 1]), 6)
    0.0

    Three heads on three positions compute a 3-sparse parity; uniform
    attention does not (its loss is close to 1):

    >>> round(population_loss(50 * keys[[0, 2, 3]], keys, [0, 2, 3]), 6)
    0.0
    >>> round(population_loss(np.zeros((3, 4)), keys, [0, 2, 3]), 4)
    0.9453
    """
    theta, V, S = _check_inputs(queries, keys, support, attention, dtype)
    if _is_two_head(theta, S):
        with torch.no_grad():
            loss, _ = _loss_and_score_gradient(theta, V, S, attention, False)
        return loss
    loss, _ = _loss_and_score_gradient(theta, V, S, attention, False)
    return loss


@validate_params_once(_CONSTRAINTS, prefer_skip_nested_validation=True)
def population_gradient(queries, keys, support, attention="softmax", *, dtype="float64"):
    """Exact gradient of :func:`population_loss` with respect to the queries.

    Parameters
    ----------
    queries, keys, support, attention, dtype
        As in :func:`population_loss` (``dtype`` sets the precision of the
        products with the keys).

    Returns
    -------
    gradient : ndarray of shape (H, m)

    Raises
    ------
    TypeError, ValueError
        As :func:`population_loss`; a ValueError also when the gradient
        overflows float64.

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.theory import population_gradient
    >>> rng = np.random.default_rng(0)
    >>> keys = rng.standard_normal((30, 8))
    >>> population_gradient(rng.standard_normal((4, 8)), keys, [1, 5, 9, 20]).shape
    (4, 8)
    """
    theta, V, S = _check_inputs(queries, keys, support, attention, dtype)
    _, d_scores = _loss_and_score_gradient(theta, V, S, attention, True)
    # Chain rule through the scores by hand: d loss / d theta = dS.T @ V. The
    # float64 score gradient is scaled into range before the product in
    # ``dtype`` and scaled back after, so float32 cannot overflow here.
    scale = d_scores.abs().max()
    if scale == 0 or not torch.isfinite(scale):
        scale = torch.ones((), dtype=torch.float64)
    grad = (d_scores / scale).to(V.dtype).T @ V
    grad = grad.to(torch.float64).numpy() * float(scale)
    if not np.isfinite(grad).all():
        raise _overflow(V @ theta.T, attention, "the population gradient")
    return grad


@validate_params_once(
    {
        **_CONSTRAINTS,
        "learning_rate": [StrOptions({"normalized"}), _POSITIVE],
        "step_length": [_POSITIVE],
    },
    prefer_skip_nested_validation=True,
)
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
    queries, keys, support, attention
        As in :func:`population_loss`.
    learning_rate : "normalized" or float, default="normalized"
        ``"normalized"`` steps ``step_length * g / ||g||``; a float steps
        ``learning_rate * g``.
    step_length : float, default=100.0
        Length of a normalized step.
    dtype : {"float64", "float32"}, default="float64"

    Returns
    -------
    new_queries : ndarray of shape (H, m)
        Always a new array (also when the gradient is 0 and the queries
        stay where they were).

    Raises
    ------
    TypeError, ValueError
        As :func:`population_gradient`; a ValueError naming ``step_length``
        or ``learning_rate`` when the step overflows.

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

    Any number of heads and support bits (here H = k = 3):

    >>> new = population_step(rng.standard_normal((3, 32)), keys, [4, 9, 20])
    >>> new.shape
    (3, 32)
    """
    if learning_rate == "normalized":
        step_length = check_positive_finite(step_length, "step_length")
    else:
        learning_rate = check_positive_finite(learning_rate, "learning_rate")
    grad = population_gradient(queries, keys, support, attention, dtype=dtype)
    theta = _as_real_array("queries", queries)
    if learning_rate == "normalized":
        norm = np.linalg.norm(grad)
        if norm == 0:  # no direction: the queries stay, in a new array
            return theta.copy()
        if np.isfinite(norm):
            new = theta - step_length * grad / norm
        else:  # the norm of a huge gradient overflows: scale it first
            direction = grad / np.abs(grad).max()
            new = theta - step_length * (direction / np.linalg.norm(direction))
        return _finite_step(new, "step_length", step_length)
    return _finite_step(theta - learning_rate * grad, "learning_rate", learning_rate)


def _finite_step(new, name, value):
    """The queries after a step, or a ValueError naming the step parameter when they overflowed."""
    if not np.isfinite(new).all():
        raise ValueError(
            f"the step overflowed to non-finite queries; use a smaller {name} (got {value!r})."
        )
    return new
