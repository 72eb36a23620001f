"""Exact flip neighbours: each model's ``flip_neighbours`` against evaluating every flip.

A string's N single-bit flips are evaluated from the string's own evaluation
(one term of each attention sum changes). The per-flip path, one model call
per flipped string, is the reference: outputs agree to float rounding, and
the labels (hence the profiles) agree except for outputs within that
rounding of 0.
"""

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skxor import KParityTransformer, SparseXORTransformer
from skxor._utils._evaluate import ModelEvaluator
from skxor.datasets import make_sparse_parity
from skxor.nn import KParityAttention, SparseXORAttention, sparse_xor_init
from skxor.nn._flip_neighbours import _FlipNeighbours
from skxor.sensitivity import SensitivityProfiler, sensitivity_profile
from skxor.sensitivity._profile import iter_flips

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def flipped(spins):
    """(B, N) spins -> (B * N, N): row b * N + i is string b with bit i flipped."""
    B, N = spins.shape
    out = spins.unsqueeze(1).repeat(1, N, 1)
    idx = torch.arange(N)
    out[:, idx, idx] *= -1
    return out.reshape(B * N, N)


def per_flip(model, spins):
    """The reference: the model on every flipped string, shape (B, N)."""
    with torch.no_grad():
        return model(flipped(spins)).reshape(spins.shape).double()


def random_spins(n_strings, n_bits, seed):
    rng = np.random.RandomState(seed)
    return torch.from_numpy(1 - 2 * rng.randint(0, 2, (n_strings, n_bits))).float()


def assert_agree(incremental, reference, bound):
    """Outputs within ``bound``; labels equal wherever the reference is beyond it."""
    incremental = np.asarray(incremental, dtype=np.float64)
    reference = np.asarray(reference, dtype=np.float64)
    np.testing.assert_allclose(incremental, reference, rtol=0, atol=bound)
    clear = np.abs(reference) > bound
    np.testing.assert_array_equal((incremental > 0)[clear], (reference > 0)[clear])


def profiles_agree(model, n_bits, bound_of, **kwargs):
    """Incremental and per-flip sampled profiles: equal unless an output is within rounding of 0."""
    evaluator = ModelEvaluator(model, n_bits)
    rng = np.random.RandomState(kwargs.pop("seed", 0))
    bits = rng.randint(0, 2, (kwargs.pop("n_samples", 30), n_bits)).astype(np.uint8)
    fast = np.concatenate([f for _, f in iter_flips(evaluator, bits, incremental=True)])
    slow = np.concatenate([f for _, f in iter_flips(evaluator, bits, incremental=False)])
    if not np.array_equal(fast, slow):
        # Only strings whose outputs sit within rounding of 0 may differ.
        spins = torch.from_numpy(1.0 - 2.0 * bits).float()
        with torch.no_grad():
            own = model(spins).double().numpy()
        neighbours = per_flip(model, spins).numpy()
        bound = bound_of(model)
        rows = np.flatnonzero((fast != slow).any(axis=1))
        near = (np.abs(own[rows]) <= bound) | (np.abs(neighbours[rows]) <= bound).any(axis=1)
        assert near.all(), rows[~near]
    return fast, slow


# -- sparse-XOR attention ---------------------------------------------------------


def sparse_xor_bound(model):
    """Rounding bound of a float32 output: prod_h sum_i |gamma_hi| times a few ulps of d."""
    with torch.no_grad():
        gamma = model.weights().double()
    scale = float(gamma.abs().sum(dim=0).prod())
    return 1e-5 * scale * max(1.0, gamma.shape[0] / 1000)


@SETTINGS
@given(
    d=st.integers(1, 60),
    m=st.integers(1, 8),
    H=st.integers(1, 4),
    attention=st.sampled_from(["softmax", "linear", "erf"]),
    scale=st.sampled_from([0.1, 1.0, 10.0, 100.0]),
    seed=st.integers(0, 10_000),
)
def test_sparse_xor_neighbours_equal_per_flip(d, m, H, attention, scale, seed):
    keys, queries = sparse_xor_init(d, m, H, "random", random_state=seed)
    model = SparseXORAttention(torch.tensor(keys, dtype=torch.float32),
                               torch.tensor(queries * scale, dtype=torch.float32), attention)
    spins = random_spins(5, d, seed)
    out = model.flip_neighbours(spins)
    assert out.shape == (5, d) and out.dtype == torch.float64
    assert_agree(out, per_flip(model, spins), sparse_xor_bound(model))
    profiles_agree(model, d, sparse_xor_bound, seed=seed)


def test_sparse_xor_neighbours_long_strings():
    """d = 5000: the float64 update agrees with the float32 sums to their rounding."""
    keys, queries = sparse_xor_init(5000, 16, 2, random_state=0)
    model = SparseXORAttention(torch.tensor(keys, dtype=torch.float32),
                               torch.tensor(queries * 50, dtype=torch.float32))
    spins = random_spins(3, 5000, 1)
    assert_agree(model.flip_neighbours(spins), per_flip(model, spins), sparse_xor_bound(model))


@pytest.mark.parametrize("attention", ["softmax", "linear", "erf"])
@pytest.mark.parametrize("n_heads", [1, 2, 3])
@pytest.mark.parametrize("negate", [False, True])
def test_sparse_xor_estimator_neighbours(attention, n_heads, negate):
    X, y = make_sparse_parity(1500, 14, random_state=n_heads)
    clf = SparseXORTransformer(m=8, n_heads=n_heads, attention=attention,
                               random_state=0).fit(X, -y if negate else y)
    rows = X[:10]
    flips = np.repeat(rows[:, None, :], 14, axis=1)
    flips[:, np.arange(14), np.arange(14)] *= -1
    reference = clf.decision_function(flips.reshape(-1, 14)).reshape(10, 14)
    scale = float(np.prod(np.abs(clf.attention_).sum(axis=1)))
    assert_agree(clf.flip_neighbours(rows), reference, 1e-5 * scale)
    a = sensitivity_profile(clf, 14, method="sampled", n_samples=200, random_state=0)
    b = sensitivity_profile(clf, 14, method="sampled", n_samples=200, random_state=0,
                            incremental=False)
    np.testing.assert_array_equal(a.counts, b.counts)
    np.testing.assert_array_equal(a.flip_counts, b.flip_counts)


# -- k-parity ----------------------------------------------------------------------


@SETTINGS
@given(n_bits=st.integers(1, 40), H=st.integers(1, 5), seed=st.integers(0, 10_000),
       scale=st.sampled_from([1.0, 20.0, 200.0]))
def test_k_parity_neighbours_equal_per_flip(n_bits, H, seed, scale):
    model = KParityAttention(n_bits, H, seed=seed)
    with torch.no_grad():
        model.scores *= scale
    spins = random_spins(4, n_bits, seed)
    assert_agree(model.flip_neighbours(spins), per_flip(model, spins), 1e-4 * H * H)
    profiles_agree(model, n_bits, lambda m: 1e-4 * H * H, seed=seed)


def test_k_parity_estimator_neighbours():
    X, y = make_sparse_parity(600, 10, support=[1, 4], random_state=0)
    clf = KParityTransformer(n_heads=2, max_iter=20, random_state=0).fit(X, y)
    flips = np.repeat(X[:8, None, :], 10, axis=1)
    flips[:, np.arange(10), np.arange(10)] *= -1
    reference = clf.decision_function(flips.reshape(-1, 10)).reshape(8, 10)
    assert_agree(clf.flip_neighbours(X[:8]), reference, 1e-4)


# -- the protocol and the switch -----------------------------------------------------


class WrongNeighbours(SparseXORAttention):
    """Claims every flip has output -1: the default path must use it, the switch must not."""

    def flip_neighbours(self, spins):
        return -torch.ones(spins.shape, dtype=torch.float64)


def test_default_uses_flip_neighbours_and_the_switch_turns_it_off():
    keys, queries = sparse_xor_init(12, 6, 2, random_state=0)
    model = WrongNeighbours(torch.tensor(keys, dtype=torch.float32),
                            torch.tensor(queries * 20, dtype=torch.float32))
    honest = SparseXORAttention(model.keys, model.queries.detach())
    kwargs = dict(method="sampled", n_samples=100, random_state=0)
    reference = sensitivity_profile(honest, 12, incremental=False, **kwargs)
    assert reference.average > 0
    assert not np.array_equal(sensitivity_profile(model, 12, **kwargs).counts, reference.counts)
    np.testing.assert_array_equal(
        sensitivity_profile(model, 12, incremental=False, **kwargs).counts, reference.counts
    )
    np.testing.assert_array_equal(sensitivity_profile(honest, 12, **kwargs).counts,
                                  reference.counts)


def test_neighbour_protocol_needs_spins_and_two_classes():
    keys, queries = sparse_xor_init(6, 4, 2, random_state=0)
    module = SparseXORAttention(torch.tensor(keys), torch.tensor(queries))
    assert ModelEvaluator(module, 6).has_flip_neighbours
    assert not ModelEvaluator(module, 6, input_encoding="01").has_flip_neighbours
    X, y = make_sparse_parity(500, 6, random_state=0)
    clf = SparseXORTransformer(m=4, random_state=0).fit(X, y)
    assert ModelEvaluator(clf, 6).has_flip_neighbours
    assert not ModelEvaluator(lambda X: X[:, 0], 6).has_flip_neighbours


def test_wrong_shape_from_flip_neighbours_is_a_clear_error():
    class Bad(SparseXORAttention):
        def flip_neighbours(self, spins):
            return torch.zeros(spins.shape[0], 1)

    keys, queries = sparse_xor_init(6, 4, 2, random_state=0)
    model = Bad(torch.tensor(keys), torch.tensor(queries))
    with pytest.raises(ValueError, match="flip_neighbours returned shape"):
        sensitivity_profile(model, 6, method="sampled", n_samples=3, random_state=0)


def test_profiler_transform_incremental_and_per_flip_agree():
    X, y = make_sparse_parity(2000, 16, support=[2, 9], random_state=0)
    clf = SparseXORTransformer(m=16, random_state=0).fit(X, y)
    fast = SensitivityProfiler(clf, prefit=True, method="data", per_bit=True).fit(X)
    slow = SensitivityProfiler(clf, prefit=True, method="data", per_bit=True,
                               incremental=False).fit(X)
    assert fast.get_params()["incremental"] and not slow.get_params()["incremental"]
    np.testing.assert_array_equal(fast.transform(X[:200]), slow.transform(X[:200]))
    np.testing.assert_array_equal(fast.profile_.counts, slow.profile_.counts)


# -- Boolean transformer -------------------------------------------------------------


def transformer_bound(reference):
    """Float32 rounding of the per-flip outputs, amplified through the layers."""
    return 2e-4 * max(1.0, float(np.abs(np.asarray(reference)).max()))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n_bits=st.integers(1, 12),
    heads_width=st.sampled_from([(1, 4), (2, 4), (2, 16), (4, 16), (3, 6)]),
    n_layers=st.integers(1, 3),
    readout=st.sampled_from(["last", "cls", "eos"]),
    norm=st.sampled_from(["pre", "post"]),
    positional=st.sampled_from(["learned", "sinusoidal"]),
    eps=st.sampled_from([0.0, 1e-5, 0.1]),
    init=st.sampled_from(["default", "normal", "uniform", "xavier_uniform"]),
    init_scale=st.sampled_from([0.5, 1.0, 3.0]),
    activation=st.sampled_from(["relu", "gelu", "tanh"]),
    seed=st.integers(0, 10_000),
)
def test_boolean_transformer_neighbours_equal_per_flip(
    n_bits, heads_width, n_layers, readout, norm, positional, eps, init, init_scale,
    activation, seed,
):
    from skxor.nn import BooleanTransformer

    n_heads, d_model = heads_width
    model = BooleanTransformer(
        n_bits, d_model=d_model, n_layers=n_layers, n_heads=n_heads, d_mlp=12,
        readout=readout, norm=norm, positional=positional, layer_norm_eps=eps, init=init,
        init_scale=init_scale, activation=activation, seed=seed,
    )
    spins = random_spins(4, n_bits, seed)
    out = model.flip_neighbours(spins)
    assert out.shape == (4, n_bits) and out.dtype == torch.float32
    reference = per_flip(model, spins)
    assert_agree(out, reference, transformer_bound(reference))
    # The row-by-row update itself (short strings with several layers may be
    # evaluated flipped by flip_neighbours, where the fused kernel runs).
    bits = (spins < 0).long()
    with torch.no_grad():
        rows = _FlipNeighbours(model).outputs(bits)
    assert_agree(rows, reference, transformer_bound(reference))
    own, again = model.flip_neighbours(spins, return_outputs=True)
    torch.testing.assert_close(again, out, rtol=0, atol=0)
    with torch.no_grad():
        forward = model(spins)
    assert_agree(own, forward, transformer_bound(forward))
    profiles_agree(model, n_bits, lambda m: transformer_bound(reference), seed=seed,
                   n_samples=12)


@pytest.mark.parametrize("n_layers", [1, 2])
@pytest.mark.parametrize("readout", ["last", "eos"])
def test_boolean_transformer_neighbours_long_strings(n_layers, readout):
    """N = 64 (L = 1: 200), D = 32, float64 model: agreement to float64 rounding."""
    from skxor.nn import BooleanTransformer

    n_bits = 200 if n_layers == 1 else 64
    model = BooleanTransformer(n_bits, d_model=32, n_layers=n_layers, n_heads=4,
                               readout=readout, seed=3).double()
    spins = random_spins(2, n_bits, 0).double()
    reference = per_flip(model, spins)
    np.testing.assert_allclose(model.flip_neighbours(spins), reference, rtol=0,
                               atol=1e-9 * max(1.0, float(reference.abs().max())))


def test_boolean_transformer_sharp_attention_is_recomputed():
    """Keys that take nearly all the attention: the rows are recomputed, not subtracted."""
    from skxor.nn import BooleanTransformer

    model = BooleanTransformer(10, d_model=8, n_layers=1, n_heads=2, readout="eos",
                               init="uniform", init_scale=30.0, seed=0)
    spins = random_spins(6, 10, 1)
    reference = per_flip(model, spins)
    assert_agree(model.flip_neighbours(spins), reference, transformer_bound(reference))


def test_boolean_transformer_profile_and_estimator_use_neighbours():
    from skxor import BooleanTransformerClassifier
    from skxor.boolean import Parity

    X = np.random.RandomState(0).randint(0, 2, (256, 9))
    y = Parity(9)(X)
    clf = BooleanTransformerClassifier(d_model=16, n_heads=2, n_layers=1, readout="eos",
                                       max_iter=2, random_state=0).fit(X, y)
    assert ModelEvaluator(clf, 9).has_flip_neighbours
    flips = np.repeat(X[:5, None, :], 9, axis=1)
    flips[:, np.arange(9), np.arange(9)] ^= 1
    reference = clf.decision_function(flips.reshape(-1, 9)).reshape(5, 9)
    assert_agree(clf.flip_neighbours(X[:5]), reference, transformer_bound(reference))
    a = sensitivity_profile(clf, 9, method="sampled", n_samples=100, random_state=0)
    b = sensitivity_profile(clf, 9, method="sampled", n_samples=100, random_state=0,
                            incremental=False)
    np.testing.assert_array_equal(a.counts, b.counts)


def test_neighbour_outputs_at_the_boundary_follow_the_one_rule():
    """A flip whose output sits at 0: both paths re-decide it alone, and agree."""
    from skxor.nn import BooleanTransformer

    model = BooleanTransformer(12, d_model=16, n_layers=1, n_heads=2, readout="eos", seed=4)
    bits = np.random.RandomState(0).randint(0, 2, (3, 12)).astype(np.uint8)
    spins = torch.from_numpy(1.0 - 2.0 * bits).float()
    with torch.no_grad():
        target = float(model.flip_neighbours(spins)[1, 5])
        model.unembed.bias -= target  # string 1 with bit 5 flipped now reads about 0
    flips = {}
    for incremental in (True, False):
        evaluator = ModelEvaluator(model, 12)
        flips[incremental] = np.concatenate(
            [f for _, f in iter_flips(evaluator, bits, incremental=incremental)])
        assert evaluator.n_redecided >= 1
    np.testing.assert_array_equal(flips[True], flips[False])
