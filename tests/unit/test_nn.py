"""The simplified sparse-XOR model against its standard-transformer twin (SPEC 2.2)."""

import numpy as np
import pytest
import torch

from skxor._utils._sphere import initial_queries, sphere_keys
from skxor.nn import CLSTransformer, SparseXORAttention, attention_weights, sparse_xor_init


def _pair(d=12, m=5, heads=2, seed=0):
    rng = np.random.RandomState(seed)
    keys = torch.as_tensor(sphere_keys(d, m, rng))
    queries = torch.as_tensor(3.0 * initial_queries(heads, m, "antisymmetric", rng))
    X = torch.as_tensor(1.0 - 2.0 * rng.randint(0, 2, size=(300, d)))
    return SparseXORAttention(keys, queries.clone()), CLSTransformer(keys, queries.clone()), X


@pytest.mark.parametrize("heads", [1, 2, 3])
def test_same_outputs(heads):
    simple, standard, X = _pair(heads=heads)
    torch.testing.assert_close(standard(X), simple(X), rtol=0, atol=1e-12)


def test_same_predictions_after_one_gradient_step():
    simple, standard, X = _pair(d=16, m=6, seed=1)
    y = -X[:, 2] * X[:, 9]
    for model in (simple, standard):
        ((model(X) - y) ** 2).mean().backward()
    masked_grad = standard.w_q.grad * standard.q_mask
    # Only the CLS-query block of the masked weight receives gradient, and it
    # equals the gradient of the simplified model's queries.
    torch.testing.assert_close(masked_grad[:, :, -1], simple.queries.grad, rtol=0, atol=1e-12)
    assert masked_grad[:, :, :-1].abs().max() == 0
    assert standard.w_k.grad is None and standard.w_v.grad is None
    with torch.no_grad():
        for param, grad in ((simple.queries, simple.queries.grad), (standard.w_q, masked_grad)):
            param -= 50.0 * grad / torch.linalg.vector_norm(grad)
    torch.testing.assert_close(standard.queries, simple.queries, rtol=0, atol=1e-10)
    torch.testing.assert_close(standard(X), simple(X), rtol=0, atol=1e-10)
    assert torch.equal(torch.sign(standard(X)), torch.sign(simple(X)))


def test_attention_types_are_uniform_at_zero_and_softmax_is_stable():
    zero = torch.zeros(7, 2, dtype=torch.float64)
    for kind in ["softmax", "linear", "erf"]:
        torch.testing.assert_close(attention_weights(zero, kind), torch.full((7, 2), 1 / 7.0, dtype=torch.float64))
    huge = torch.tensor([[5000.0], [4990.0], [-3000.0]])
    gamma = attention_weights(huge, "softmax")
    assert torch.isfinite(gamma).all() and gamma[0, 0] == pytest.approx(1.0, abs=1e-4)
    with pytest.raises(ValueError, match="attention"):
        attention_weights(zero, "relu")


def test_simplex_initialisation_spreads_heads():
    rng = np.random.RandomState(0)
    for heads in [2, 3, 5]:
        theta = initial_queries(heads, 8, "antisymmetric", rng)
        np.testing.assert_allclose(np.linalg.norm(theta, axis=1), 1.0)
        gram = theta @ theta.T
        off = gram[~np.eye(heads, dtype=bool)]
        np.testing.assert_allclose(off, -1.0 / (heads - 1), atol=1e-12)
    theta = initial_queries(2, 8, "antisymmetric", rng)
    np.testing.assert_allclose(theta[1], -theta[0])


def test_both_twins_count_the_same_trainable_parameters():
    from skxor import count_parameters

    simple, standard, _ = _pair(d=12, m=5, heads=3)
    assert count_parameters(simple) == count_parameters(standard) == 3 * 5


def test_sparse_xor_init_is_the_estimators_draw():
    """The public constructor draws exactly the keys and queries fit starts from."""
    import numpy as np

    from skxor import SparseXORTransformer
    from skxor.datasets import make_sparse_parity
    from skxor.nn import sparse_xor_init

    X, y = make_sparse_parity(200, 9, random_state=0)
    for n_heads, init in [(2, "antisymmetric"), (3, "antisymmetric"), (2, "random")]:
        clf = SparseXORTransformer(m=5, n_heads=n_heads, init=init, random_state=3).fit(X, y)
        keys, queries = sparse_xor_init(9, 5, n_heads, init, random_state=3)
        np.testing.assert_array_equal(keys, clf.keys_)
        np.testing.assert_array_equal(queries, clf.initial_queries_)


def test_sparse_xor_init_rejects_a_simplex_that_does_not_fit():
    import pytest

    from skxor.nn import sparse_xor_init

    with pytest.raises(ValueError, match="m >= 3"):
        sparse_xor_init(9, 2, n_heads=4)
    with pytest.raises(ValueError, match="init must be"):
        sparse_xor_init(9, 2, init="zeros")


def test_sparse_xor_modules_keep_the_sign_of_a_product_below_float32():
    # 24 heads of averages about 1/sqrt(d): the product is about 1e-43 or less,
    # below float32's normal range; the module's output keeps its sign (issue 23).
    keys, queries = sparse_xor_init(4000, 32, 24, "random", random_state=0)
    spins = torch.tensor(np.random.default_rng(0).choice([-1.0, 1.0], (50, 4000)))
    exact = SparseXORAttention(torch.tensor(keys), torch.tensor(queries))(spins)
    for module in (SparseXORAttention, CLSTransformer):
        out = module(torch.tensor(keys, dtype=torch.float32),
                     torch.tensor(queries, dtype=torch.float32))(spins.float())
        assert (out != 0).all() and torch.equal(torch.sign(out), torch.sign(exact).float())
