"""The estimator's sample gradient against the exact population theory.

On all 2^d strings with equal weight the uniform distribution *is* the
sample, so one full-batch step of :class:`skxor.SparseXORTransformer`
(float64) must land where :func:`skxor.theory.population_step` puts the same
initial queries, and its gradient must be :func:`population_gradient`, to
float rounding. Mini-batch paths are checked against an independent numpy
implementation of the sample gradient, itself pinned to the theory on the
full cube. These tests notice a sample gradient off by a constant factor
(invisible under normalised steps, hence the plain-step cases) and a wrong
product over the other heads (H >= 3).

:class:`skxor.KParityTransformer` has no exact population counterpart in
:mod:`skxor.theory` (Adam on a hinge loss through a ReLU read-out), so it is
not covered here.
"""

import itertools

import numpy as np
import pytest
from scipy import special
from sklearn.utils import gen_batches

from skxor import SparseXORTransformer
from skxor.nn import sparse_xor_init
from skxor.theory import population_gradient, population_loss, population_step

D = 7  # 128 strings: every (H, k) up to 5 fits
ATTENTIONS = ("softmax", "linear", "erf")


def _cube(d):
    """All 2^d spin strings (rows) in {-1, +1}."""
    return np.array(list(itertools.product((1.0, -1.0), repeat=d)))


def _labels(X, support):
    """The paper's orientation: ``y = -prod_{i in S} x_i``."""
    return -np.prod(X[:, list(support)], axis=1)


def _support(k, seed):
    return sorted(np.random.default_rng(seed).choice(D, size=k, replace=False).tolist())


def _reference_gradient(queries, keys, X, y, attention):
    """Mean squared error of ``f = -prod_h gamma_h . x`` and its query gradient.

    Plain numpy, written from the model's definition: scores ``s = V theta_h``,
    attention per head over positions, ``Z = X gamma``; the product over the
    other heads is formed by deleting a column (no prefix products).
    """
    d = keys.shape[0]
    s = keys @ queries.T  # (d, H)
    if attention == "softmax":
        e = np.exp(s - s.max(axis=0))
        gamma = e / e.sum(axis=0)
    elif attention == "linear":
        gamma = (1.0 + s) / d
    else:
        gamma = (1.0 + special.erf(s)) / d
    Z = X @ gamma  # (n, H)
    r = Z.prod(axis=1) + y  # f - y = -(P + y)
    n, H = Z.shape
    others = np.stack([np.delete(Z, h, axis=1).prod(axis=1) for h in range(H)], axis=1)
    dZ = 2.0 * r[:, None] * others / n
    d_gamma = X.T @ dZ  # (d, H)
    if attention == "softmax":
        d_s = gamma * (d_gamma - (gamma * d_gamma).sum(axis=0))
    elif attention == "linear":
        d_s = d_gamma / d
    else:
        d_s = d_gamma * (2.0 / np.sqrt(np.pi)) * np.exp(-(s**2)) / d
    return float(np.mean(r**2)), d_s.T @ keys


def _fit(X, y, **params):
    clf = SparseXORTransformer(dtype="float64", **params).fit(X, y)
    # The comparison is with the paper's read-out; a mirrored fit is another model.
    assert clf.output_sign_ == 1
    return clf


CASES = [(H, k, attention) for H in range(1, 6) for k in range(1, 6) for attention in ATTENTIONS]


@pytest.mark.parametrize("H, k, attention", CASES)
def test_full_batch_step_is_the_population_step(H, k, attention):
    X = _cube(D)
    support = _support(k, 10 * H + k)
    y = _labels(X, support)
    seed = 100 * H + k
    init = "antisymmetric" if H % 2 == 0 else "random"
    # Plain step: the gradient itself (a constant factor shows here).
    lr = 0.7
    plain = _fit(X, y, m=5, n_heads=H, attention=attention, init=init,
                 learning_rate=lr, random_state=seed)
    theta0 = plain.initial_queries_
    grad = population_gradient(theta0, plain.keys_, support, attention)
    sample_grad = (theta0 - plain.queries_) / lr
    scale = max(1.0, np.abs(grad).max())
    np.testing.assert_allclose(sample_grad, grad, rtol=0, atol=1e-12 * scale)
    np.testing.assert_allclose(
        plain.queries_, population_step(theta0, plain.keys_, support, attention,
                                        learning_rate=lr), rtol=0, atol=1e-12
    )
    # The loss at initialization is the population loss too.
    assert plain.loss_curve_[0] == pytest.approx(
        population_loss(theta0, plain.keys_, support, attention), rel=1e-12, abs=1e-14
    )
    # Normalised step (the default mode), from the same initial queries.
    normed = _fit(X, y, m=5, n_heads=H, attention=attention, init=init,
                  step_length=2.0, random_state=seed)
    np.testing.assert_array_equal(normed.initial_queries_, theta0)
    np.testing.assert_allclose(
        normed.queries_,
        population_step(theta0, normed.keys_, support, attention, step_length=2.0),
        rtol=0, atol=1e-12,
    )


@pytest.mark.parametrize("H, k, attention", [(H, k, a) for H in range(1, 6)
                                             for k in (1, 3, 5) for a in ATTENTIONS])
def test_reference_gradient_is_the_population_gradient(H, k, attention):
    # The numpy reference of the mini-batch tests agrees with the theory on the cube.
    rng = np.random.default_rng(H * 7 + k)
    keys = rng.standard_normal((D, 4))
    keys /= np.linalg.norm(keys, axis=1, keepdims=True)
    queries = rng.standard_normal((H, 4))
    support = _support(k, H + k)
    X = _cube(D)
    loss, grad = _reference_gradient(queries, keys, X, _labels(X, support), attention)
    np.testing.assert_allclose(grad, population_gradient(queries, keys, support, attention),
                               rtol=0, atol=1e-12 * max(1.0, np.abs(grad).max()))
    assert loss == pytest.approx(population_loss(queries, keys, support, attention), rel=1e-12)


@pytest.mark.parametrize("H, attention, step, batch", [
    (1, "softmax", "plain", 48), (2, "linear", "normalized", 48), (3, "erf", "plain", 48),
    (3, "softmax", "normalized", 48), (4, "softmax", "plain", 48), (5, "linear", "plain", 48),
    (5, "erf", "normalized", 48),
    # Batches of two strings: a (H, 2) block of head averages (not the H = 2 case).
    (3, "softmax", "plain", 2), (4, "linear", "plain", 2),
])
def test_mini_batch_epochs_follow_the_reference_sample_gradient(H, attention, step, batch):
    """Mini-batches of the cube (repeated twice) over three epochs, step by step."""
    X = np.concatenate([_cube(D), _cube(D)])
    support = _support(min(H, 5), H)
    y = _labels(X, support)
    seed, m, epochs, lr, length = 7 + H, 5, 3, 0.6, 1.5
    init = "random" if H % 2 else "antisymmetric"
    params = dict(m=m, n_heads=H, attention=attention, init=init, max_iter=epochs,
                  batch_size=batch, random_state=seed)
    params.update(learning_rate=lr) if step == "plain" else params.update(step_length=length)
    clf = _fit(X, y, **params)

    # Replay: the same generator draws keys, queries, then one order per epoch.
    rng = np.random.RandomState(seed)
    keys, theta = sparse_xor_init(D, m, H, init, random_state=rng)
    np.testing.assert_array_equal(clf.keys_, keys)
    n = X.shape[0]
    losses = []
    for _ in range(epochs):
        order = rng.permutation(n)
        epoch_loss = 0.0
        for rows in gen_batches(n, batch):
            idx = order[rows]
            loss, grad = _reference_gradient(theta, keys, X[idx], y[idx], attention)
            epoch_loss += loss * idx.size / n
            if step == "plain":
                theta = theta - lr * grad
            else:
                theta = theta - length * grad / np.linalg.norm(grad)
        losses.append(epoch_loss)
    np.testing.assert_allclose(clf.queries_, theta, rtol=0, atol=1e-11)
    np.testing.assert_allclose(clf.loss_curve_, losses, rtol=1e-11, atol=1e-14)


@pytest.mark.parametrize("H, k, m, seed", [(1, 1, 5, 0), (2, 2, 16, 0), (2, 2, 5, 3)])
def test_the_mirror_fit_is_the_population_step_on_the_negated_labels(H, k, m, seed):
    """Labels ``y = +prod_S x_i``: the paper's read-out cannot fit them, so fit
    keeps its mirror, the paper model trained on ``-y`` (the theory's labels)
    and negated: its queries are the population step's."""
    X = _cube(D)
    support = list(range(k))
    y = -_labels(X, support)
    clf = SparseXORTransformer(m=m, n_heads=H, dtype="float64", random_state=seed).fit(X, y)
    assert clf.output_sign_ == -1
    theta0 = clf.initial_queries_
    np.testing.assert_allclose(clf.queries_, population_step(theta0, clf.keys_, support),
                               rtol=0, atol=1e-11)
    assert isinstance(clf.loss_curve_[0], float)
    assert clf.loss_curve_[0] == pytest.approx(
        population_loss(theta0, clf.keys_, support), rel=1e-12)
    # Its predictions are the labels' signs where the mirror is sure.
    f = clf.decision_function(X)
    assert np.mean(np.sign(f) == y) > 0.9


def test_the_mirror_replays_the_paper_fits_mini_batches():
    X = np.concatenate([_cube(D), _cube(D)])
    y = _labels(X, [0])  # paper orientation, then negated below
    seed, m, batch, epochs, length = 0, 5, 32, 2, 100.0
    clf = SparseXORTransformer(m=m, n_heads=1, dtype="float64", batch_size=batch,
                               max_iter=epochs, random_state=seed).fit(X, -y)
    assert clf.output_sign_ == -1
    rng = np.random.RandomState(seed)
    keys, theta = sparse_xor_init(D, m, 1, "antisymmetric", random_state=rng)
    n, losses = X.shape[0], []
    for _ in range(epochs):
        order = rng.permutation(n)
        epoch_loss = 0.0
        for rows in gen_batches(n, batch):
            idx = order[rows]
            loss, grad = _reference_gradient(theta, keys, X[idx], y[idx], "softmax")
            epoch_loss += loss * idx.size / n
            norm = np.linalg.norm(grad)
            if norm > 0:  # a saturated softmax has no gradient: the step is skipped
                theta = theta - length * grad / norm
        losses.append(epoch_loss)
    np.testing.assert_allclose(clf.queries_, theta, rtol=0, atol=1e-10)
    np.testing.assert_allclose(clf.loss_curve_, losses, rtol=1e-10)


@pytest.mark.parametrize("H, attention", [(3, "softmax"), (2, "erf")])
def test_a_pass_in_many_chunks_is_the_population_step(H, attention, monkeypatch):
    """The pass over X goes chunk by chunk (bounded memory): 2^7 strings in
    chunks of 9 rows give the same step as one block."""
    import skxor.estimators._sparse_xor as module

    monkeypatch.setattr(module, "_PASS_CHUNK_ELEMENTS", 64)
    X = _cube(D)
    support = [1, 4, 6][:H]
    clf = _fit(X, _labels(X, support), m=4, n_heads=H, attention=attention, init="random",
               learning_rate=0.5, random_state=H)
    theta0 = clf.initial_queries_
    np.testing.assert_allclose(
        clf.queries_, population_step(theta0, clf.keys_, support, attention, learning_rate=0.5),
        rtol=0, atol=1e-12)
    assert clf.loss_curve_[0] == pytest.approx(
        population_loss(theta0, clf.keys_, support, attention), rel=1e-12)


def test_bits_and_binarized_inputs_take_the_same_step():
    X = _cube(D)
    y = _labels(X, [2, 5])
    params = dict(m=5, learning_rate=0.8, random_state=4)
    spins = _fit(X, y, **params)
    bits = _fit((1 - X) / 2, y, **params)  # 0/1 bits: bit 1 is spin -1
    real = _fit(3.0 * (1 - X) / 2 - 0.5, y, binarize=1.0, **params)  # -0.5 / 2.5
    for other in (bits, real):
        np.testing.assert_allclose(other.queries_, spins.queries_, rtol=0, atol=1e-12)

