"""The closed-form population loss against exhaustive enumeration of {-1,+1}^d."""

import itertools
import warnings

import numpy as np
import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves
from torch.utils.flop_counter import FlopCounterMode

from skxor._utils._sphere import initial_queries, sphere_keys
from skxor.nn import SparseXORAttention, attention_weights
from skxor.theory import population_gradient, population_loss, population_step
from skxor.theory._population import _general_loss, _two_head_loss, spin_cumulant


def all_spins(d):
    return np.array(list(itertools.product([1.0, -1.0], repeat=d)))


def exhaustive_loss_and_gradient(queries, keys, support, attention):
    """Mean squared error over all 2^d inputs, by the torch model and autograd."""
    X = torch.as_tensor(all_spins(keys.shape[0]), dtype=torch.float64)
    y = -X[:, list(support)].prod(dim=1)
    model = SparseXORAttention(
        torch.as_tensor(keys, dtype=torch.float64),
        torch.as_tensor(queries, dtype=torch.float64),
        attention,
    )
    loss = ((model(X) - y) ** 2).mean()
    loss.backward()
    return loss.item(), model.queries.grad.numpy()


@pytest.mark.parametrize("attention", ["softmax", "linear", "erf"])
@pytest.mark.parametrize("d, m, scale", [(4, 3, 1.0), (9, 5, 3.0), (14, 8, 10.0)])
def test_population_matches_exhaustive_enumeration(attention, d, m, scale):
    rng = np.random.RandomState(d)
    keys = sphere_keys(d, m, rng)
    queries = scale * rng.standard_normal((2, m))
    support = sorted(rng.choice(d, 2, replace=False).tolist())
    loss, grad = exhaustive_loss_and_gradient(queries, keys, support, attention)
    assert population_loss(queries, keys, support, attention) == pytest.approx(loss, abs=1e-10)
    np.testing.assert_allclose(
        population_gradient(queries, keys, support, attention), grad, rtol=0, atol=1e-10
    )


def test_perfect_attention_has_zero_loss_and_uniform_has_one():
    keys = np.eye(6)
    assert population_loss(100 * keys[[2, 4]], keys, [2, 4]) == pytest.approx(0, abs=1e-12)
    # Uniform attention: f is O(1/d) and the loss is 1 + O(1/d^2).
    uniform = np.zeros((2, 6))
    assert population_loss(uniform, keys, [2, 4]) == pytest.approx(
        1 + 3 / 36 - 2 * 6 / 6**4 - 4 / 36
    )


@pytest.mark.parametrize("d", [100, 1000])
def test_one_softmax_step_learns_while_linear_and_erf_do_not(d):
    learned = {"softmax": 0, "linear": 0, "erf": 0}
    for seed in range(10):
        rng = np.random.RandomState(seed)
        keys = sphere_keys(d, 32, rng)
        theta = initial_queries(2, 32, "antisymmetric", rng)
        for attention in learned:
            new = population_step(theta, keys, [3, 7], attention)
            learned[attention] += population_loss(new, keys, [3, 7], attention) < 0.05
    assert learned["softmax"] >= 8
    assert learned["linear"] == 0 and learned["erf"] == 0


def test_step_with_float_learning_rate_is_plain_gradient_descent():
    rng = np.random.RandomState(0)
    keys = sphere_keys(20, 4, rng)
    theta = rng.standard_normal((2, 4))
    grad = population_gradient(theta, keys, [0, 1])
    np.testing.assert_allclose(
        population_step(theta, keys, [0, 1], learning_rate=0.5), theta - 0.5 * grad
    )
    normalized = population_step(theta, keys, [0, 1], step_length=2.0)
    assert np.linalg.norm(normalized - theta) == pytest.approx(2.0)


def test_d_of_a_million_and_steps_up_to_1e12_stay_finite():
    rng = np.random.RandomState(0)
    keys = sphere_keys(1_000_000, 4, rng)
    theta = initial_queries(2, 4, "antisymmetric", rng)
    for attention in ["softmax", "linear", "erf"]:
        for dtype in ["float32", "float64"]:
            for step in [dict(step_length=1e12), dict(learning_rate=1e12)]:
                new = population_step(theta, keys, [5, 999_999], attention, dtype=dtype, **step)
                assert np.isfinite(new).all()
                loss = population_loss(new, keys, [5, 999_999], attention, dtype=dtype)
                assert np.isfinite(loss) and loss >= 0


@pytest.mark.parametrize(
    "queries, keys, support, kwargs, error, match",
    [
        (np.zeros((6, 4)), np.eye(4), [0, 1], {}, ValueError, "H <= 5"),
        (np.zeros((0, 4)), np.eye(4), [0, 1], {}, ValueError, "one row per head"),
        (np.zeros((2, 3)), np.eye(4), [0, 1], {}, ValueError, "disagree on m"),
        (np.zeros((2, 0)), np.zeros((4, 0)), [0, 1], {}, ValueError, "m >= 1"),
        (np.zeros((2, 4)), np.zeros((0, 4)), [0, 1], {}, ValueError, "support|d >= 1"),
        (np.zeros((2, 4)), np.eye(4), [0, 4], {}, ValueError, "support"),
        (np.zeros((2, 6)), np.eye(6), [0, 1, 2, 3, 4, 5], {}, ValueError, "k=6"),
        (np.zeros((2, 4)), np.eye(4), [], {}, ValueError, "support"),
        (np.zeros((2, 4)), np.eye(4), [1, 1], {}, ValueError, "distinct"),
        (np.zeros((2, 4)), np.eye(4), [0.5, 1], {}, ValueError, "integer"),
        (np.full((2, 4), np.nan), np.eye(4), [0, 1], {}, ValueError, "NaN"),
        (np.zeros(4), np.eye(4), [0, 1], {}, ValueError, "2-D"),
        (np.zeros((2, 4)), np.eye(4), [0, 1], {"attention": "relu"}, ValueError, "attention"),
        (np.zeros((2, 4)), np.eye(4), [0, 1], {"dtype": "float16"}, ValueError, "dtype"),
        ("abc", np.eye(4), [0, 1], {}, TypeError, "numeric"),
        (np.zeros((2, 4)), np.eye(4), [0, 1], {"attention": None}, ValueError, "attention"),
        (np.zeros((2, 4)) + 1j, np.eye(4), [0, 1], {}, TypeError, "complex"),
        (np.zeros((2, 4)), np.eye(4) * (1 + 0j), [0, 1], {}, TypeError, "keys must be real"),
        (torch.zeros(2, 4, dtype=torch.complex64), np.eye(4), [0, 1], {}, TypeError, "complex"),
        ([[1, "a"], [2, 3]], np.eye(2), [0, 1], {}, TypeError, "numeric"),
    ],
)
def test_bad_input(queries, keys, support, kwargs, error, match):
    with pytest.raises(error, match=match):
        population_loss(queries, keys, support, **kwargs)


@pytest.mark.parametrize("lr", [0.0, -1.0, np.inf, np.nan])
def test_step_rejects_bad_learning_rates(lr):
    with pytest.raises(ValueError, match="learning_rate"):
        population_step(np.zeros((2, 4)), np.eye(4), [0, 1], learning_rate=lr)


@pytest.mark.parametrize("function", [population_loss, population_gradient, population_step])
def test_complex_queries_are_rejected_without_a_warning(function):
    # Before: numpy's ComplexWarning and the imaginary part silently dropped.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(TypeError, match="queries must be real"):
            function(np.ones((2, 4)) * (1 + 1e-3j), np.eye(4), [0, 1])


@pytest.mark.parametrize("function", [population_loss, population_gradient, population_step])
def test_zero_key_dimension_is_rejected(function):
    with pytest.raises(ValueError, match="m >= 1"):
        function(np.zeros((2, 0)), np.zeros((5, 0)), [0, 1])


@pytest.mark.parametrize("n_heads, support", [(2, [0, 3]), (3, [0, 2, 3]), (4, [0, 1, 2, 3])])
@pytest.mark.parametrize("function", [population_loss, population_gradient, population_step])
def test_huge_linear_queries_raise_instead_of_nan(function, n_heads, support):
    # Before: population_loss/gradient/step returned NaN for queries of size 1e80.
    rng = np.random.RandomState(0)
    keys = sphere_keys(4, 3, rng)
    queries = 1e80 * rng.standard_normal((n_heads, 3))
    with pytest.raises(ValueError, match="queries are too large for linear attention"):
        function(queries, keys, support, "linear")


@pytest.mark.parametrize("attention", ["softmax", "erf"])
def test_huge_bounded_attention_queries_stay_finite(attention):
    rng = np.random.RandomState(0)
    keys = sphere_keys(6, 3, rng)
    for n_heads, support in [(2, [0, 3]), (3, [0, 2, 3])]:
        queries = 1e80 * rng.standard_normal((n_heads, 3))
        assert np.isfinite(population_loss(queries, keys, support, attention))
        new = population_step(queries, keys, support, attention)
        assert np.isfinite(new).all()


@pytest.mark.parametrize("n_heads, support", [(2, [0, 3]), (3, [0, 2, 3])])
def test_huge_linear_step_gives_finite_queries_then_a_clear_error(n_heads, support):
    rng = np.random.RandomState(0)
    keys = sphere_keys(6, 3, rng)
    new = population_step(rng.standard_normal((n_heads, 3)), keys, support, "linear",
                          step_length=1e300)
    assert np.isfinite(new).all()
    with pytest.raises(ValueError, match="queries are too large.*step_length"):
        population_loss(new, keys, support, "linear")


# -- H heads, k-sparse parity (the moment-cumulant expansion) --------------------

HK = [(2, 2), (3, 3), (4, 4), (2, 3), (3, 2), (4, 2), (2, 4), (1, 1), (1, 2), (3, 1)]


def _check_against_enumeration(attention, n_heads, k, d, m, seed, scale):
    rng = np.random.RandomState(seed)
    keys = sphere_keys(d, m, rng)
    queries = scale * rng.standard_normal((n_heads, m))
    support = sorted(rng.choice(d, k, replace=False).tolist())
    loss, grad = exhaustive_loss_and_gradient(queries, keys, support, attention)
    assert population_loss(queries, keys, support, attention) == pytest.approx(loss, abs=1e-10)
    np.testing.assert_allclose(
        population_gradient(queries, keys, support, attention), grad, rtol=0, atol=1e-10
    )


@pytest.mark.parametrize("attention", ["softmax", "linear", "erf"])
@pytest.mark.parametrize("n_heads, k", HK)
def test_h_heads_k_sparse_match_exhaustive_enumeration(attention, n_heads, k):
    _check_against_enumeration(attention, n_heads, k, d=10, m=5, seed=100 * n_heads + k,
                               scale=2.0)


@pytest.mark.slow
@pytest.mark.parametrize("attention", ["softmax", "linear", "erf"])
@pytest.mark.parametrize("n_heads, k", [(2, 2), (3, 3), (4, 4), (5, 5), (2, 5), (5, 3)])
def test_h_heads_k_sparse_match_exhaustive_enumeration_at_d_14(attention, n_heads, k):
    _check_against_enumeration(attention, n_heads, k, d=14, m=6, seed=7 * n_heads + k,
                               scale=3.0)


@pytest.mark.parametrize("attention", ["softmax", "linear", "erf"])
def test_expansion_reduces_to_the_two_head_closed_form(attention):
    # The general path at H = k = 2 agrees with the closed form (which stays the
    # fast path, bit for bit the formula of Han & Ghoshdastidar 2025).
    rng = np.random.RandomState(3)
    keys = torch.as_tensor(sphere_keys(200, 8, rng))
    theta = torch.as_tensor(rng.standard_normal((2, 8)))
    gamma = attention_weights(keys @ theta.T, attention)
    closed = _two_head_loss(gamma, 17, 120)
    general, _ = _general_loss(gamma, np.array([17, 120]), False)
    assert float(general) == pytest.approx(float(closed), rel=1e-12, abs=1e-14)


def test_two_head_results_are_bit_identical_to_the_closed_form():
    """population_* for H = k = 2 equal the closed form, computed here independently."""
    rng = np.random.RandomState(11)
    keys = sphere_keys(300, 16, rng)
    theta = rng.standard_normal((2, 16))
    for attention in ["softmax", "linear", "erf"]:
        for dtype, tdtype in [("float64", torch.float64), ("float32", torch.float32)]:
            V = torch.as_tensor(keys, dtype=tdtype)
            scores = (V @ torch.as_tensor(theta, dtype=tdtype).T).requires_grad_(True)
            gamma = attention_weights(scores.to(torch.float64), attention)
            a, b = gamma[:, 0], gamma[:, 1]
            ab = a @ b
            loss = (
                (a @ a) * (b @ b)
                + 2 * ab**2
                - 2 * ((a * b) ** 2).sum()
                - 2 * (a[5] * b[200] + a[200] * b[5])
                + 1
            )
            loss.backward()
            d_scores = scores.grad.to(torch.float64)
            scale = d_scores.abs().max()
            grad = ((d_scores / scale).to(tdtype).T @ V).to(torch.float64).numpy() * float(scale)
            got = population_loss(theta, keys, [200, 5], attention, dtype=dtype)
            assert got == float(loss.detach())
            assert np.array_equal(
                population_gradient(theta, keys, [5, 200], attention, dtype=dtype), grad
            )
            step = population_step(theta, keys, [5, 200], attention, dtype=dtype)
            assert np.array_equal(step, theta - 100.0 * grad / np.linalg.norm(grad))


def test_spin_cumulants():
    assert [spin_cumulant(n) for n in range(1, 11)] == [0, 1, 0, -2, 0, 16, 0, -272, 0, 7936]


def test_k_heads_on_their_support_bits_compute_the_k_parity():
    keys = np.eye(8)
    for k in range(1, 6):
        support = [1, 2, 4, 6, 7][:k]
        assert population_loss(60 * keys[support], keys, support) == pytest.approx(0, abs=1e-12)
        # One head short: f is a product of k - 1 of the bits, orthogonal to y.
        if k > 1:
            loss = population_loss(60 * keys[support[:-1]], keys, support)
            assert loss == pytest.approx(2.0, abs=1e-12)


def test_cost_is_linear_in_d_for_four_heads():
    # d = 200 000 and H = k = 4: nothing of size 2^d or d^2 is formed.
    rng = np.random.RandomState(0)
    keys = sphere_keys(200_000, 4, rng)
    theta = rng.standard_normal((4, 4))
    support = [3, 10, 77, 199_999]
    new = population_step(theta, keys, support)
    # A normalised step of the default length 100, against the gradient.
    grad = population_gradient(theta, keys, support)
    np.testing.assert_allclose(new, theta - 100.0 * grad / np.linalg.norm(grad), atol=1e-9)
    # The gradient is the loss's slope at this d: a central difference of
    # the exact loss along a unit direction matches grad . u. (At random
    # queries the loss is 1 - 1e-20; queries along the support keys, scaled
    # to sharpen the softmax over 200 000 positions, give a measurable slope.)
    sharp = 1000.0 * keys[support]
    u = rng.standard_normal(theta.shape)
    u /= np.linalg.norm(u)
    eps = 1e-5
    slope = (population_loss(sharp + eps * u, keys, support)
             - population_loss(sharp - eps * u, keys, support)) / (2 * eps)
    expected = float(np.sum(population_gradient(sharp, keys, support) * u))
    assert abs(expected) > 1e-6
    assert slope == pytest.approx(expected, rel=1e-4)
    # Ten times the positions costs exactly ten times the matrix-product
    # work, and no torch tensor holds more than 32 entries per position.
    flops, largest = {}, {}
    for d in (20_000, 200_000):
        with FlopCounterMode(display=False) as counter, _LargestTensor() as sizes:
            population_step(theta, keys[:d], [3, 10, 77, d - 1])
        flops[d], largest[d] = counter.get_total_flops(), sizes.largest
        assert 0 < largest[d] <= 32 * d
    assert flops[200_000] == 10 * flops[20_000] > 0


class _LargestTensor(TorchDispatchMode):
    """Records the number of entries of the largest tensor any torch op returns."""

    def __init__(self):
        super().__init__()
        self.largest = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for leaf in tree_leaves(out):
            if isinstance(leaf, torch.Tensor):
                self.largest = max(self.largest, leaf.numel())
        return out


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"attention": "relu"}, ValueError, "'attention' parameter of population_step"),
        ({"step_length": "x"}, ValueError, "'step_length' parameter of population_step"),
        ({"step_length": -1.0}, ValueError, "step_length"),
        ({"step_length": True}, TypeError, "step_length"),
        ({"learning_rate": True}, TypeError, "learning_rate"),
        ({"learning_rate": "adaptive"}, ValueError, "'learning_rate' parameter"),
        ({"dtype": "int8"}, ValueError, "dtype"),
    ],
)
def test_step_scalar_parameters_are_checked_by_name(kwargs, error, match):
    with pytest.raises(error, match=match):
        population_step(np.zeros((2, 4)), np.eye(4), [0, 1], **kwargs)


@pytest.mark.parametrize("as_tensor", [False, True])
@pytest.mark.parametrize("learning_rate", ["normalized", 0.5])
def test_step_never_returns_the_callers_array(as_tensor, learning_rate):
    # A zero gradient (all-zero keys) leaves the queries where they were; the
    # result is still a new array, so changing it leaves the input alone.
    queries = np.arange(6.0).reshape(2, 3)
    given = torch.tensor(queries) if as_tensor else queries.copy()
    new = population_step(given, np.zeros((6, 3)), [0, 1], learning_rate=learning_rate)
    np.testing.assert_array_equal(new, queries)
    new += 1.0
    np.testing.assert_array_equal(np.asarray(given), queries)
