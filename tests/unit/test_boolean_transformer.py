"""The BooleanTransformer module, its layer norm and the layer-norm diagnostic."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from skxor.boolean import Parity, all_strings
from skxor.nn._boolean_transformer import (
    BooleanTransformer,
    LayerNorm,
    layer_norm_blowup,
    sinusoidal_positions,
)
from skxor.sensitivity import sensitivity_profile



def random_spins(n, N, seed=0):
    g = torch.Generator().manual_seed(seed)
    return 1.0 - 2.0 * torch.randint(0, 2, (n, N), generator=g).float()


CONFIGS = [
    {},
    {"readout": "cls"},
    {"norm": "post"},
    {"positional": "sinusoidal", "activation": "gelu"},
    {"layer_norm_eps": 0.0, "init": "normal", "init_scale": 0.5},
    {"layer_norm_eps": 0.0, "init": "uniform", "readout": "cls", "norm": "post"},
]


@pytest.mark.parametrize("config", CONFIGS)
def test_forward_shape_and_last_layer_shortcut(config):
    model = BooleanTransformer(7, d_model=12, n_layers=3, n_heads=3, seed=1, **config)
    spins = random_spins(40, 7)
    out = model(spins)
    assert out.shape == (40,)
    assert torch.isfinite(out).all()
    # The last layer computes only the read-out token: same output as
    # running every token through every layer.
    torch.testing.assert_close(out, model._run(spins, full=True), rtol=1e-5, atol=1e-5)


def test_output_depends_on_every_position():
    # Bidirectional attention: flipping any bit (first or last) changes f.
    model = BooleanTransformer(6, d_model=16, n_layers=2, n_heads=2, seed=0)
    spins = random_spins(1, 6)
    base = model(spins)
    for i in range(6):
        flipped = spins.clone()
        flipped[0, i] *= -1
        assert not torch.equal(model(flipped), base), i


def test_no_grad_chunking_matches_one_pass():
    model = BooleanTransformer(5, d_model=8, n_layers=2, n_heads=2, seed=0)
    spins = random_spins(100, 5)
    full = model(spins)
    model.eval_batch_size = 7
    with torch.no_grad():
        chunked = model(spins)
    torch.testing.assert_close(chunked, full.detach(), rtol=1e-5, atol=1e-6)


def test_sensitivity_profile_of_module_uses_spins():
    # skxor.sensitivity feeds torch modules float spins 1 - 2b: the profile
    # must be the one of the table computed from the module on all strings.
    model = BooleanTransformer(6, d_model=8, n_layers=1, n_heads=2, init="normal", seed=3)
    bits = all_strings(6)
    table = (model(BooleanTransformer.spins_from_bits(bits)) > 0).numpy().astype(np.uint8)
    assert 0 < table.sum() < 64  # not constant, so the comparison has teeth
    assert np.array_equal(
        sensitivity_profile(model, 6).counts, sensitivity_profile(table, 6).counts
    )


def test_seeded_init_is_reproducible_and_leaves_global_rng_alone():
    state = torch.random.get_rng_state()
    a = BooleanTransformer(5, d_model=8, n_layers=2, n_heads=2, seed=7)
    b = BooleanTransformer(5, d_model=8, n_layers=2, n_heads=2, seed=7)
    c = BooleanTransformer(5, d_model=8, n_layers=2, n_heads=2, seed=8)
    assert torch.equal(torch.random.get_rng_state(), state)
    for (name, p), q, r in zip(a.named_parameters(), b.parameters(), c.parameters()):
        assert torch.equal(p, q), name
    assert not all(torch.equal(p, r) for p, r in zip(a.parameters(), c.parameters()))


@pytest.mark.parametrize("init, scale", [("normal", 0.3), ("uniform", 0.2)])
def test_init_schemes_draw_every_parameter(init, scale):
    model = BooleanTransformer(10, d_model=32, n_layers=2, n_heads=4, init=init,
                               init_scale=scale, readout="cls", seed=0)
    values = torch.cat([p.detach().flatten() for p in model.parameters()])
    if init == "normal":
        assert abs(values.std().item() - scale) < 0.01
    else:
        assert values.abs().max().item() <= scale
        assert abs(values.std().item() - scale / np.sqrt(3)) < 0.01
    # Layer-norm gains are drawn too (not left at 1).
    assert not torch.equal(model.layers[0].ln_attn.weight, torch.ones(32))


def test_default_init_is_pytorchs():
    model = BooleanTransformer(4, d_model=8, n_layers=1, n_heads=2, seed=0)
    assert torch.equal(model.layers[0].ln_attn.weight, torch.ones(8))
    assert torch.equal(model.layers[0].ln_attn.bias, torch.zeros(8))
    bound = 1 / np.sqrt(8)  # Kaiming-uniform bound of nn.Linear with fan_in = 8
    assert model.layers[0].qkv.weight.abs().max().item() <= bound


def test_sinusoidal_positions_are_a_fixed_buffer():
    model = BooleanTransformer(6, d_model=8, n_heads=2, positional="sinusoidal")
    assert "pos_embed" not in dict(model.named_parameters())
    codes = sinusoidal_positions(6, 8)
    assert torch.equal(model.pos_embed, codes)
    assert torch.equal(codes[0, 0::2], torch.zeros(4))  # sin(0)
    assert torch.equal(codes[0, 1::2], torch.ones(4))  # cos(0)
    assert sinusoidal_positions(3, 5).shape == (3, 5)  # odd width


def test_parameter_count():
    D, M, N, L = 8, 16, 5, 2
    model = BooleanTransformer(N, d_model=D, n_layers=L, n_heads=2, d_mlp=M)
    per_layer = (3 * D * D + 3 * D) + (D * D + D) + (D * M + M) + (M * D + D) + 4 * D
    expected = 2 * D + N * D + L * per_layer + 2 * D + (D + 1)
    assert model.n_parameters == expected


# -- layer norm with eps = 0 ----------------------------------------------------


def test_layer_norm_matches_torch_for_positive_eps():
    ln = LayerNorm(6, eps=1e-5)
    ref = torch.nn.LayerNorm(6, eps=1e-5)
    with torch.no_grad():
        ln.weight.normal_()
        ln.bias.normal_()
        ref.weight.copy_(ln.weight)
        ref.bias.copy_(ln.bias)
    h = torch.randn(4, 3, 6)
    torch.testing.assert_close(ln(h), ref(h))


def test_layer_norm_eps_zero_on_varying_input_is_the_plain_formula():
    ln = LayerNorm(5, eps=0.0)
    h = torch.randn(10, 5, dtype=torch.float64)
    expected = F.layer_norm(h, (5,), eps=0.0)
    torch.testing.assert_close(ln.double()(h), expected)


def test_layer_norm_eps_zero_on_constant_input_gives_bias_and_finite_grads():
    ln = LayerNorm(4, eps=0.0)
    with torch.no_grad():
        ln.bias.copy_(torch.tensor([1.0, -2.0, 3.0, 0.5]))
    h = torch.full((3, 4), 2.5, requires_grad=True)
    out = ln(h)
    assert torch.equal(out, ln.bias.expand(3, 4))
    out.square().sum().backward()
    assert torch.isfinite(h.grad).all()
    assert torch.isfinite(ln.weight.grad).all()
    # torch's own layer norm gives NaN here: the case is real.
    assert torch.isnan(F.layer_norm(h.detach(), (4,), eps=0.0)).all()
    assert torch.isinf(ln.inverse_std(h.detach())).all()


def test_degenerate_model_with_eps_zero_never_produces_nan():
    model = BooleanTransformer(5, d_model=8, n_layers=2, n_heads=2, layer_norm_eps=0.0)
    with torch.no_grad():
        for p in model.parameters():
            p.zero_()  # every token constant: every norm sees zero variance
    spins = random_spins(6, 5)
    out = model(spins)
    assert torch.equal(out, torch.zeros(6))
    out.sum().backward()
    assert all(torch.isfinite(p.grad).all() for p in model.parameters())
    inv = model.layer_norm_inverse_std(spins)
    assert all(torch.isinf(v).all() for v in inv.values())


# -- layer-norm diagnostic ----------------------------------------------------


@pytest.mark.parametrize("config", [{}, {"norm": "post", "readout": "cls"}])
def test_layer_norm_inverse_std_shapes_and_values(config):
    model = BooleanTransformer(5, d_model=8, n_layers=2, n_heads=2, seed=0, **config)
    spins = random_spins(9, 5)
    inv = model.layer_norm_inverse_std(spins)
    assert list(inv) == model.layer_norm_names
    T = model.n_tokens
    assert all(v.shape == (9, T) for v in inv.values())
    if model.norm == "pre":
        # The first norm sees the embeddings: check against a direct computation.
        E = model.token_embed.weight
        bits = ((1 - spins) / 2).long()
        h0 = E[bits] + model.pos_embed
        expected = 1 / torch.sqrt(h0.var(dim=-1, unbiased=False) + model.layer_norm_eps)
        torch.testing.assert_close(inv["layers.0.ln_attn"], expected.detach())
        assert model.layer_norm_names[-1] == "ln_final"
    else:
        assert "ln_final" not in inv


def test_layer_norm_blowup_summary():
    model = BooleanTransformer(5, d_model=8, n_layers=2, n_heads=2, seed=0)
    summary = layer_norm_blowup(model, random_spins(20, 5))
    assert summary["layer_norm"].tolist() == model.layer_norm_names
    assert (summary["max"] >= summary["median"]).all()
    assert (summary["n_infinite"] == 0).all()


# -- bad input --------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"d_model": 10, "n_heads": 4}, ValueError, "divisible by n_heads"),
        ({"layer_norm_eps": -1e-5}, ValueError, "layer_norm_eps"),
        ({"layer_norm_eps": float("nan")}, ValueError, "layer_norm_eps"),
        ({"init": "xavier"}, ValueError, "init must be one of"),
        ({"init_scale": 0.0}, ValueError, "init_scale"),
        ({"readout": "first"}, ValueError, "readout"),
        ({"positional": "rotary"}, ValueError, "positional"),
        ({"norm": "sandwich"}, ValueError, "norm"),
        ({"n_layers": 0}, ValueError, "n_layers"),
        ({"d_model": 8.0}, TypeError, "d_model"),
        ({"seed": -1}, ValueError, "seed"),
    ],
)
def test_bad_constructor_arguments(kwargs, error, match):
    args = {"n_positions": 4, "d_model": 8, "n_heads": 2, **kwargs}
    with pytest.raises(error, match=match):
        BooleanTransformer(**args)


def test_wrong_input_length_is_a_clear_error():
    model = BooleanTransformer(5, d_model=8, n_heads=2)
    with pytest.raises(ValueError, match=r"n_positions=5.*got shape \(3, 4\)"):
        model(torch.ones(3, 4))
    with pytest.raises(ValueError, match="n_positions=5"):
        model.layer_norm_inverse_std(torch.ones(5))


def test_random_initialisation_has_many_zero_sensitivity_strings():
    # Paper 2's observation, already visible at N = 8: averaged over seeds,
    # most strings of a random transformer have sensitivity 0 (PARITY: none).
    fractions = [
        sensitivity_profile(
            BooleanTransformer(8, d_model=16, n_layers=2, n_heads=2, init="normal",
                               layer_norm_eps=0.0, seed=seed), 8
        ).zero_fraction
        for seed in range(8)
    ]
    assert np.mean(fractions) > 0.5
    assert sensitivity_profile(Parity(8), 8).zero_fraction == 0.0
