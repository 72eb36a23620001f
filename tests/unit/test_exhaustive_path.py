"""The one-layer exhaustive path gives today's exhaustive labels and profiles (issue 36, item 1).

A one-layer softmax :class:`BooleanTransformer` is scored on all 2^N strings
from tables of its read-out token's attention sums
(:meth:`BooleanTransformer.exhaustive_scorer`); ``incremental=False`` keeps
the per-string path (one ``forward`` per string), the reference every
test here compares with. Every other model falls back, with its reason
(:func:`skxor.nn.exhaustive_refusal`), to the per-string path.
"""

import copy

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skxor._utils import _decisions as decisions
from skxor._utils._bits import index_to_bits
from skxor._utils._evaluate import ModelEvaluator
from skxor.nn import BooleanTransformer, SparseXORAttention, exhaustive_refusal, sparse_xor_init
from skxor.sensitivity import sensitivity_profile


def tables(model, N, **kwargs):
    """The truth tables of the new path and of the per-string path."""
    fast = ModelEvaluator(model, N, **kwargs).truth_table(fast=True)
    slow = ModelEvaluator(model, N, **kwargs).truth_table(fast=False)
    return fast, slow


def assert_same_profile(model, N, **kwargs):
    fast = sensitivity_profile(model, N, method="exhaustive", **kwargs)
    slow = sensitivity_profile(model, N, method="exhaustive", incremental=False, **kwargs)
    np.testing.assert_array_equal(fast.counts, slow.counts)
    np.testing.assert_array_equal(fast.flip_counts, slow.flip_counts)
    return fast


def all_spins(N):
    return torch.from_numpy(1.0 - 2.0 * index_to_bits(np.arange(1 << N), N)).float()


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(
    N=st.integers(1, 9),
    width=st.sampled_from([(4, 1), (8, 2), (16, 4), (12, 3)]),
    readout=st.sampled_from(["eos", "cls", "last"]),
    norm=st.sampled_from(["pre", "post"]),
    positional=st.sampled_from(["learned", "sinusoidal"]),
    eps=st.sampled_from([0.0, 1e-5]),
    init=st.sampled_from(["normal", "default", "xavier_normal", "uniform"]),
    activation=st.sampled_from(["relu", "gelu", "tanh", "square"]),
    seed=st.integers(0, 2**16),
)
def test_random_models_have_the_per_string_labels_and_profiles(
        N, width, readout, norm, positional, eps, init, activation, seed):
    D, H = width
    model = BooleanTransformer(N, d_model=D, n_layers=1, n_heads=H, readout=readout, norm=norm,
                               positional=positional, layer_norm_eps=eps, init=init,
                               activation=activation, seed=seed)
    assert exhaustive_refusal(model) is None
    fast, slow = tables(model, N)
    np.testing.assert_array_equal(fast, slow)
    assert_same_profile(model, N)
    # The scores themselves are forward's, to float rounding.
    with torch.no_grad():
        reference = model(all_spins(N)).double()
        scores = model.exhaustive_scorer()(0, 1 << N).double()
    assert torch.allclose(scores, reference, rtol=1e-4, atol=1e-4 * float(reference.abs().max()))


@pytest.mark.parametrize("readout", ["eos", "cls", "last"])
@pytest.mark.parametrize("N", [15, 17])
def test_blocks_beyond_the_low_table_and_small_batches(readout, N, monkeypatch):
    # Low tables of 5 bits: every block spans several high rows, and blocks
    # of 2^6 strings several low tables; N = 17 takes pieces of both sizes.
    monkeypatch.setattr("skxor.nn._exhaustive._LOW_BITS", 5)
    model = BooleanTransformer(N, d_model=16, n_layers=1, readout=readout, init="normal",
                               positional="sinusoidal", layer_norm_eps=0.0, seed=3)
    scorer = model.exhaustive_scorer()
    scorer.chunk = 7  # chunks that do not divide a piece
    with torch.no_grad():
        reference = model(all_spins(N))
        whole = scorer(0, 1 << N)
        parts = torch.cat([scorer(a, 1 << 6) for a in range(0, 1 << N, 1 << 6)])
    assert torch.equal(whole, parts)
    assert float((whole - reference).abs().max()) < 1e-4 * float(reference.abs().max())
    fast = ModelEvaluator(model, N).truth_table(batch_size=1 << 6, fast=True)
    np.testing.assert_array_equal(fast, ModelEvaluator(model, N).truth_table(fast=False))


@pytest.mark.parametrize("readout", ["eos", "last"])
def test_outputs_at_the_threshold_are_decided_as_per_string(readout):
    # The read-out bias puts some strings' outputs at 0 (to rounding): the
    # one-string float64 evaluation decides them on both paths.
    N = 8
    model = BooleanTransformer(N, d_model=8, n_layers=1, n_heads=2, readout=readout,
                               init="normal", layer_norm_eps=0.0, seed=5)
    with torch.no_grad():
        model64 = BooleanTransformer(N, d_model=8, n_layers=1, n_heads=2, readout=readout,
                                     init="normal", layer_norm_eps=0.0, seed=5).double()
        outputs = model64(all_spins(N).double())
        model.unembed.bias -= float(outputs[37])
    fast = assert_same_profile(model, N)
    assert fast.n_redecided >= 1
    fast_table, slow_table = tables(model, N)
    np.testing.assert_array_equal(fast_table, slow_table)


def test_float64_model_takes_the_path():
    model = BooleanTransformer(10, d_model=16, n_layers=1, readout="eos", init="normal",
                               seed=2).double()
    assert model.exhaustive_scorer()(0, 8).dtype == torch.float64
    assert_same_profile(model, 10)


# -- fallbacks, each with its reason ---------------------------------------------------


class Shifted(BooleanTransformer):
    def forward(self, spins):
        return super().forward(spins) - 0.05


def one_layer(**kwargs):
    params = dict(d_model=8, n_layers=1, n_heads=2, readout="eos", init="normal", seed=1)
    params.update(kwargs)
    return BooleanTransformer(8, **params)


def hooked():
    model = one_layer()
    model.layers[0].mlp_out.register_forward_hook(lambda m, i, out: out + 0.3)
    return model


def replaced():
    model = one_layer()
    model.layers[0].mlp_in = torch.nn.Sequential(model.layers[0].mlp_in)
    return model


def overflowing():
    model = one_layer()
    with torch.no_grad():
        model.layers[0].qkv.weight[:16] *= 400.0  # queries and keys: scores in the thousands
    return model


@pytest.mark.parametrize("make, reason", [
    (lambda: one_layer(n_layers=2), "it has 2 layers"),
    (lambda: one_layer(attention="linear"), "its attention 'linear' is not softmax"),
    (lambda: one_layer(attention="erf"), "its attention 'erf' is not softmax"),
    (hooked, "a forward hook on layers.0.mlp_out"),
    (lambda: Shifted(8, d_model=8, n_layers=1, n_heads=2, readout="eos", seed=1),
     "Shifted.forward redefines what BooleanTransformer computes"),
    (replaced, "layers.0.mlp_in is a Sequential"),
    (overflowing, "float64 sums could overflow"),
])
def test_fallbacks_give_their_reason_and_the_per_string_profile(make, reason):
    model = make()
    assert reason in exhaustive_refusal(model)
    assert model.exhaustive_scorer() is None
    evaluator = ModelEvaluator(model, 8)
    assert evaluator.exhaustive_scorer() is None
    assert reason in evaluator.exhaustive_fallback
    # What forward computes, hooks and overrides included.
    with torch.no_grad():
        expected = (model(all_spins(8)) > 0).numpy().astype(np.uint8)
    np.testing.assert_array_equal(evaluator.truth_table(), expected)


def heads_far_apart(c=1000.0):
    """Head 0's read-out scores in the hundreds to thousands, head 1's far below zero."""
    model = one_layer()
    D, Dh = 8, 4
    with torch.no_grad():
        qkv = model.layers[0].qkv
        qkv.bias[D] = qkv.bias[D + Dh] = 1.0  # each head's first key coordinate
        qkv.bias[0], qkv.bias[Dh] = c, -c  # and its query: opposite signs
    return model


def test_heads_with_far_apart_score_levels_take_the_path_with_the_per_string_labels():
    # Each head's sums need their own shift: one shared shift would overflow one
    # head (exp of thousands) and refuse, or make its sums inf and its labels wrong.
    model = heads_far_apart()
    assert exhaustive_refusal(model) is None
    assert model.exhaustive_scorer().spread < 200
    fast, slow = tables(model, 8)
    np.testing.assert_array_equal(fast, slow)
    assert 0 < fast.sum() < fast.size  # not constant: the labels say something
    assert_same_profile(model, 8)


def test_nan_scores_are_refused_by_name():
    model = one_layer()
    with torch.no_grad():
        model.layers[0].qkv.bias[0] = float("nan")
    assert exhaustive_refusal(model) == (
        "its attention scores at the read-out are not finite or spread by inf > 600: "
        "float64 sums could overflow")


def test_other_models_and_encodings_fall_back_with_their_reason():
    assert exhaustive_refusal(SparseXORAttention(
        *map(torch.as_tensor, sparse_xor_init(8, 4, random_state=0)))) == \
        "SparseXORAttention is not a BooleanTransformer"
    assert exhaustive_refusal(torch.nn.Linear(8, 1)) == "Linear is not a BooleanTransformer"
    model = one_layer()
    assert exhaustive_refusal(model, input_encoding="01") == \
        "the model is given '01' strings, not the spins its forward reads"
    assert ModelEvaluator(model, 8, input_encoding="01").exhaustive_scorer() is None
    evaluator = ModelEvaluator(lambda X: X[:, 0] ^ X[:, 1], 8)
    assert evaluator.exhaustive_scorer() is None
    assert "no exhaustive scorer" in evaluator.exhaustive_fallback
    assert ModelEvaluator(model, 8).exhaustive_fallback is None


@pytest.mark.parametrize("start, size", [(60, 8), (64, 1), (-4, 4), (-1, 2), (0, 65), (65, 0)])
def test_the_scorer_refuses_indices_outside_the_strings(start, size):
    """Issue 48, item 4: ``exhaustive_scorer()(start, size)`` scored indices
    beyond 2^N - 1 and negative ones (their high bits select rows of other
    positions); now a ValueError names the range 0 .. 2^N - 1."""
    score = BooleanTransformer(6, d_model=8, n_layers=1, n_heads=2, seed=0).exhaustive_scorer()
    with pytest.raises(ValueError, match=r"run 0 \.\. 2\^6 - 1 = 63"):
        score(start, size)
    with pytest.raises(TypeError, match="start must be an int"):
        score(1.5, 2)
    # The whole range, a block at its end and an empty block still score.
    assert score(0, 64).shape == (64,) and score(56, 8).shape == (8,)
    assert score(64, 0).shape == (0,)


@pytest.mark.parametrize("encoding", ["bits", "spins", "PM1", None, 1])
def test_exhaustive_refusal_refuses_an_unknown_encoding(encoding):
    """Issue 48, item 17: an unknown encoding is a mistake, refused with the
    known ones listed, not a reason to take the per-string path."""
    with pytest.raises(ValueError, match=r"one of \('01', 'pm1', '2b-1'\)"):
        exhaustive_refusal(one_layer(), encoding)
    with pytest.raises(ValueError, match="one of"):
        exhaustive_refusal(torch.nn.Linear(8, 1), encoding)
    assert exhaustive_refusal(one_layer(), "2b-1") == \
        "the model is given '2b-1' strings, not the spins its forward reads"


# -- float64 re-checks in blocks (issue 49, item 2) -------------------------------------


def brute_force_float64(model, N):
    """Counts and flip counts from the signs of a float64 copy on all 2^N strings."""
    model64 = copy.deepcopy(model).double().eval()
    index = np.arange(1 << N)
    with torch.no_grad():
        labels = (model64(all_spins(N).double()) > 0).numpy()
    flips = np.stack([labels[index ^ (1 << i)] != labels for i in range(N)])
    return np.bincount(flips.sum(axis=0), minlength=N + 1), flips.sum(axis=1)


@pytest.mark.parametrize("dtype, seed", [(torch.bfloat16, 0), (torch.float16, 0),
                                         (torch.bfloat16, 7)])
def test_many_near_zero_outputs_get_the_brute_force_counts_from_block_rechecks(
        dtype, seed, monkeypatch):
    # In bfloat16 the rounding bound is 9% of the output scale: most outputs
    # are re-checked in float64. Old code: one float64 forward per re-checked
    # output (791 for the first model here); now blocks, and a
    # lone forward only for a block value within the float64 tie bound of 0.
    N = 10
    model = BooleanTransformer(N, d_model=16, n_layers=1, init="normal", seed=seed).to(dtype)
    lone = []
    scores = decisions.real_scores

    def counted(out):
        if out.shape[0] == 1:
            lone.append(1)
        return scores(out)

    monkeypatch.setattr(decisions, "real_scores", counted)
    counts, flip_counts = brute_force_float64(model, N)
    assert 0 < counts[0] < 1 << N  # not constant
    for kwargs in (dict(), dict(incremental=False)):
        lone.clear()
        profile = sensitivity_profile(model, N, method="exhaustive", **kwargs)
        np.testing.assert_array_equal(profile.counts, counts)
        np.testing.assert_array_equal(profile.flip_counts, flip_counts)
        assert profile.n_redecided >= 30
        assert len(lone) <= profile.n_redecided // 10


@pytest.mark.parametrize("eps", [0.0, 1e-5])
def test_the_folded_norm_keeps_the_constant_token_rule_and_the_layer_norm(eps):
    # The pre-norm path folds the norms into the maps around them and scales
    # centred rows itself: a constant row with eps = 0 gives 0 (LayerNorm's
    # rule), any other row what F.layer_norm gives.
    from skxor.nn._exhaustive import _centred_columns, _scaled

    h = torch.tensor([[1.0, 2.0, 4.0, 7.0], [3.0, 3.0, 3.0, 3.0]])
    expected = torch.nn.functional.layer_norm(h, (4,), eps=eps)
    if eps == 0:
        expected[1] = 0.0
    centred = _centred_columns(h)
    assert torch.equal(centred[1], torch.zeros(4))  # exactly: the rule reads var == 0
    torch.testing.assert_close(_scaled(centred, eps, inplace=False)[0], expected)
    torch.testing.assert_close(_scaled(centred, eps)[0], expected)
    assert not torch.isfinite(_scaled(centred * 1e30, eps)[1]).all()  # var overflows


def test_a_constant_readout_token_at_eps_zero_takes_the_path_with_forwards_outputs():
    # Attention output 0 and a constant eos token: the MLP's norm sees a
    # constant row on every string (var = 0, eps = 0), where the norm gives its bias.
    model = BooleanTransformer(6, d_model=8, n_layers=1, n_heads=2, readout="eos",
                               layer_norm_eps=0.0, init="normal", seed=3)
    with torch.no_grad():
        model.layers[0].attn_out.weight.zero_()
        model.layers[0].attn_out.bias.zero_()
        model.eos.fill_(0.5)
        model.pos_embed[-1] = 0.0
    assert model.exhaustive_scorer().folded is not None
    with torch.no_grad():
        reference = model(all_spins(6))
        scores = model.exhaustive_scorer()(0, 1 << 6)
    assert torch.isfinite(scores).all()
    torch.testing.assert_close(scores, reference, rtol=1e-5, atol=1e-5)
    fast, slow = tables(model, 6)
    np.testing.assert_array_equal(fast, slow)
