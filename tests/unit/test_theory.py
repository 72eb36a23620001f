"""The closed-form population loss against exhaustive enumeration of {-1,+1}^d."""

import itertools

import numpy as np
import pytest
import torch

from skxor.estimators._sparse_xor import initial_queries, sphere_keys
from skxor.nn import SparseXORAttention
from skxor.theory import population_gradient, population_loss, population_step


def all_spins(d):
    return np.array(list(itertools.product([1.0, -1.0], repeat=d)))


def exhaustive_loss_and_gradient(queries, keys, support, attention):
    """Mean squared error over all 2^d inputs, by the torch model and autograd."""
    X = torch.as_tensor(all_spins(keys.shape[0]), dtype=torch.float64)
    y = -X[:, support[0]] * X[:, support[1]]
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
        (np.zeros((3, 4)), np.eye(4), [0, 1], {}, ValueError, "two heads"),
        (np.zeros((2, 3)), np.eye(4), [0, 1], {}, ValueError, "disagree on m"),
        (np.zeros((2, 4)), np.eye(4), [0, 4], {}, ValueError, "support"),
        (np.zeros((2, 4)), np.eye(4), [0, 1, 2], {}, ValueError, "k=2"),
        (np.full((2, 4), np.nan), np.eye(4), [0, 1], {}, ValueError, "NaN"),
        (np.zeros(4), np.eye(4), [0, 1], {}, ValueError, "2-D"),
        (np.zeros((2, 4)), np.eye(4), [0, 1], {"attention": "relu"}, ValueError, "attention"),
        (np.zeros((2, 4)), np.eye(4), [0, 1], {"dtype": "float16"}, ValueError, "dtype"),
        ("abc", np.eye(4), [0, 1], {}, TypeError, "numeric"),
    ],
)
def test_bad_input(queries, keys, support, kwargs, error, match):
    with pytest.raises(error, match=match):
        population_loss(queries, keys, support, **kwargs)


@pytest.mark.parametrize("lr", [0.0, -1.0, np.inf, np.nan])
def test_step_rejects_bad_learning_rates(lr):
    with pytest.raises(ValueError, match="learning_rate"):
        population_step(np.zeros((2, 4)), np.eye(4), [0, 1], learning_rate=lr)
