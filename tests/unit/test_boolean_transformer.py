"""The BooleanTransformer module, its layer norm and the layer-norm diagnostic."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from skxor.boolean import Parity, all_strings
from skxor.nn import BooleanTransformer, LayerNorm, layer_norm_blowup
from skxor.nn._positional import sinusoidal_positions
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
    {"readout": "eos", "positional": "sinusoidal", "init": "xavier_uniform"},
    {"readout": "eos", "norm": "post", "init": "xavier_normal", "layer_norm_eps": 0.0},
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


@pytest.fixture
def step_by_step():
    """No fused inference kernel: every layer runs op by op, as with autograd."""
    torch.backends.mha.set_fastpath_enabled(False)
    yield
    torch.backends.mha.set_fastpath_enabled(True)


@pytest.mark.parametrize("config", CONFIGS + [{"activation": "relu", "norm": "post"}])
def test_no_grad_pass_computes_in_place_with_the_same_bits(config, step_by_step):
    # Without autograd the ReLU and the residual sums write into temporaries
    # and the tokens come from a table; step by step, the output must be bit
    # for bit the autograd pass's, and the input untouched.
    model = BooleanTransformer(7, d_model=16, n_layers=2, n_heads=2, seed=0, **config)
    spins = random_spins(300, 7)
    kept = spins.clone()
    with_grad = model(spins).detach()
    with torch.no_grad():
        assert torch.equal(model(spins), with_grad)
    with torch.inference_mode():
        assert torch.equal(model(spins), with_grad)
    assert torch.equal(spins, kept)
    # The full pass (every token to the end) of the diagnostic is unchanged too.
    model.eval_batch_size = 1000
    inverse_std = model.layer_norm_inverse_std(spins)
    with torch.enable_grad():
        record = {name: [] for name in model.layer_norm_names}
        model._run(spins, full=True, record=record)
    for name, parts in record.items():
        assert torch.equal(inverse_std[name], torch.cat(parts))


def _count_fused_calls(monkeypatch):
    calls = []
    kernel = torch._transformer_encoder_layer_fwd

    def counting(*args):
        calls.append(args[0].shape)
        return kernel(*args)

    monkeypatch.setattr(torch, "_transformer_encoder_layer_fwd", counting)
    return calls


@pytest.mark.parametrize("config", [
    {},
    {"readout": "cls", "norm": "post"},
    {"readout": "eos", "activation": "gelu", "positional": "sinusoidal"},
    {"norm": "post", "activation": "gelu", "layer_norm_eps": 1e-2},
    {"init": "normal", "init_scale": 0.5},
])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_fused_inference_layers_agree_with_the_autograd_pass(config, dtype, monkeypatch):
    # The fused kernel computes every full layer of a no-grad pass over short
    # strings; its outputs are the autograd pass's up to float rounding, and
    # so is the Boolean function away from T(x) = 0.
    calls = _count_fused_calls(monkeypatch)
    model = BooleanTransformer(9, d_model=16, n_layers=3, n_heads=2, seed=3, **config).to(dtype)
    spins = random_spins(500, 9).to(dtype)
    with_grad = model(spins).detach()
    assert not calls
    with torch.no_grad():
        fused = model(spins)
    assert len(calls) == 2 * -(-500 // model.eval_batch_size)  # two full layers per chunk
    tol = 1e-5 if dtype == torch.float32 else 1e-12
    torch.testing.assert_close(fused, with_grad, rtol=tol, atol=tol)
    clear = with_grad.abs() > 10 * tol
    assert torch.equal(fused[clear] > 0, with_grad[clear] > 0)


@pytest.mark.parametrize("why, build, context", [
    ("eps = 0", dict(layer_norm_eps=0.0), None),
    ("odd head count", dict(d_model=24, n_heads=3), None),
    ("heads 4 wide", dict(d_model=16, n_heads=4), None),
    ("activation tanh", dict(activation="tanh"), None),
    ("33 tokens", dict(n_bits=32, readout="cls"), None),
    ("autograd", {}, "grad"),
    ("fast path off", {}, "off"),
    ("a forward hook", {}, "hook"),
])
def test_fused_kernel_is_skipped_where_it_would_differ_or_be_slower(why, build, context, monkeypatch):
    calls = _count_fused_calls(monkeypatch)
    kwargs = dict(n_bits=9, d_model=16, n_layers=2, n_heads=2, seed=0)
    kwargs.update(build)
    model = BooleanTransformer(**kwargs)
    spins = random_spins(20, model.n_bits)
    if context == "hook":
        model.layers[0].mlp_in.register_forward_hook(lambda *args: None)
    if context == "off":
        torch.backends.mha.set_fastpath_enabled(False)
    try:
        if context == "grad":
            model(spins)
        else:
            with torch.no_grad():
                model(spins)
    finally:
        torch.backends.mha.set_fastpath_enabled(True)
    assert not calls, why
    with torch.no_grad():  # the same model with 9 bits, two heads 8 wide, would use it
        BooleanTransformer(9, d_model=16, n_layers=2, n_heads=2, seed=0)(random_spins(4, 9))
    assert len(calls) == 1


@pytest.mark.parametrize("config", CONFIGS)
def test_token_table_gives_the_per_string_arithmetic_bit_for_bit(config):
    model = BooleanTransformer(7, d_model=12, n_layers=2, n_heads=3, seed=2, **config)
    spins = random_spins(64, 7)
    with torch.no_grad():
        assert torch.equal(model._run(spins, table=model._token_table()), model._run(spins))


@pytest.mark.parametrize(
    "n_positions, readout, d_model, expected",
    [(20, "last", 8, 1024), (255, "eos", 8, 128), (256, "last", 8, 128), (257, "last", 8, 64),
     (512, "last", 8, 64), (512, "eos", 8, 32), (511, "cls", 8, 64), (4096, "last", 8, 8),
     (5000, "last", 8, 4), (2**18, "last", 8, 1), (20, "last", 64, 128), (20, "last", 16, 512),
     (512, "last", 32, 16)],
)
def test_no_grad_chunks_are_cache_sized_and_hold_at_most_2_18_tokens(
    n_positions, readout, d_model, expected
):
    # The largest power of two of strings (at most 1024) whose chunk holds at
    # most 2^18 tokens and 2^20 floats of the widest activation, T * max(3D, M).
    model = BooleanTransformer(n_positions, d_model=d_model, n_layers=1, n_heads=2,
                               readout=readout, seed=0)
    assert model.eval_batch_size == expected
    assert model.eval_batch_size * model.n_tokens <= 2**18
    width = max(3 * model.d_model, model.d_mlp)
    assert expected == 1 or model.eval_batch_size * model.n_tokens * width <= 2**20


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
    spins = random_spins(20, 5)
    summary = layer_norm_blowup(model, spins)
    assert summary["layer_norm"].tolist() == model.layer_norm_names
    assert (summary["inverse_std_max"] >= summary["inverse_std_median"]).all()
    assert (summary["n_infinite"] == 0).all()
    # tau is 1 + the largest inverse std of a string's tokens.
    np.testing.assert_allclose(summary["tau_max"], 1 + summary["inverse_std_max"], rtol=1e-6)
    beta = model.layer_norm_beta(spins)
    assert summary.attrs["beta_max"] == pytest.approx(beta.max().item())
    assert summary.attrs["beta_max"] <= summary.attrs["beta_bound"]


# -- paper 2's blow-up factors tau and beta ----------------------------------------


@pytest.mark.parametrize("config", [{}, {"norm": "post", "readout": "eos"}])
def test_layer_norm_tau_and_beta_are_the_papers_formulas(config):
    model = BooleanTransformer(6, d_model=8, n_layers=2, n_heads=2, seed=0, **config)
    spins = random_spins(15, 6)
    inv = model.layer_norm_inverse_std(spins)
    tau = model.layer_norm_tau(spins)
    assert tau.shape == (15, len(model.layer_norm_names))
    for j, name in enumerate(model.layer_norm_names):
        # tau_l = max over the positions n of (1 + 1 / sqrt(var_n + eps)).
        expected = torch.stack([(1 + inv[name][b]).max() for b in range(15)])
        torch.testing.assert_close(tau[:, j], expected)
    torch.testing.assert_close(model.layer_norm_beta(spins), tau.double().prod(dim=1))


@pytest.mark.parametrize("eps", [1e-5, 1e-2, 0.5])
@pytest.mark.parametrize(
    "config",
    [
        {"init": "normal", "init_scale": 1e-3},
        {"init": "uniform", "norm": "post", "readout": "eos", "positional": "sinusoidal"},
        {"init": "xavier_normal", "readout": "cls"},
        {},
    ],
)
def test_beta_never_exceeds_the_eps_bound(eps, config):
    # With eps > 0 each factor is <= 1 + 1/sqrt(eps): beta <= (1 + 1/sqrt(eps))^K
    # for K layer norms, whatever the string or N.
    for N in (3, 12):
        model = BooleanTransformer(
            N, d_model=8, n_layers=3, n_heads=2, layer_norm_eps=eps, seed=1, **config
        ).double()
        beta = model.layer_norm_beta(random_spins(50, N).double())
        bound = (1 + 1 / np.sqrt(eps)) ** len(model.layer_norm_names)
        assert model.layer_norm_beta_bound == pytest.approx(bound, rel=1e-12)
        assert (beta <= bound * (1 + 1e-12)).all()
        assert (beta >= 1).all()


def test_beta_reaches_the_bound_on_constant_tokens():
    # Every parameter 0: every norm sees zero variance, so each factor is
    # exactly 1 + 1/sqrt(eps) and the bound is attained (it is tight).
    eps = 1e-3
    model = BooleanTransformer(5, d_model=8, n_layers=2, n_heads=2, layer_norm_eps=eps).double()
    with torch.no_grad():
        for p in model.parameters():
            p.zero_()
    beta = model.layer_norm_beta(random_spins(4, 5).double())
    torch.testing.assert_close(
        beta, torch.full((4,), model.layer_norm_beta_bound, dtype=torch.float64)
    )
    # With eps = 0 the same model has infinite blow-up (and a vacuous bound).
    model0 = BooleanTransformer(5, d_model=8, n_layers=2, n_heads=2, layer_norm_eps=0.0)
    with torch.no_grad():
        for p in model0.parameters():
            p.zero_()
    assert torch.isinf(model0.layer_norm_beta(random_spins(4, 5))).all()
    assert model0.layer_norm_beta_bound == np.inf


# -- the recognizer form: eos read-out and margin ---------------------------------


def test_eos_readout_reads_the_appended_token():
    N, D = 5, 8
    model = BooleanTransformer(N, d_model=D, n_layers=2, n_heads=2, readout="eos",
                               positional="sinusoidal", seed=0)
    assert model.n_tokens == N + 1
    assert model.pos_embed.shape == (N + 1, D)
    spins = random_spins(7, N)
    # T(x) = w . y_{N+1} + omega, y the last layer's output at the eos token.
    bits = ((1 - spins) / 2).long()
    h = torch.cat([model.token_embed.weight[bits], model.eos.expand(7, 1, D)], dim=1)
    h = h + model.pos_embed
    for layer in model.layers:
        h = layer(h)
    expected = model.unembed(model.ln_final(h)[:, N]).squeeze(-1)
    torch.testing.assert_close(model(spins), expected, rtol=1e-5, atol=1e-5)
    # The eos vector is learned and matters.
    with torch.no_grad():
        model.eos.add_(torch.linspace(-1, 1, D))  # not constant: LN would remove it
    assert not torch.allclose(model(spins), expected)
    assert "eos" in dict(model.named_parameters())


def test_decide_applies_the_margin():
    model = BooleanTransformer(6, d_model=8, n_layers=1, n_heads=2, readout="eos",
                               init="normal", seed=2)
    spins = BooleanTransformer.spins_from_bits(all_strings(6))
    out = model(spins).detach()
    # margin 0: the Boolean function out > 0, nothing undecided.
    assert torch.equal(model.decide(spins), torch.where(out > 0, 1, -1).to(torch.int8))
    xi = float(out.abs().median())
    model.margin = xi
    decision = model.decide(spins)
    assert decision.dtype == torch.int8
    assert torch.equal(decision == 1, out >= xi)
    assert torch.equal(decision == -1, out <= -xi)
    assert torch.equal(decision == 0, out.abs() < xi)
    assert 0 < int((decision == 0).sum()) < 64  # the comparison has teeth


@pytest.mark.parametrize("margin", [0.0, 0.1])
def test_decide_refuses_non_finite_outputs(margin):
    # NaN weights gave every string -1 (margin 0) or 0 (margin > 0) without a word.
    model = BooleanTransformer(4, d_model=8, n_heads=2, readout="eos", margin=margin, seed=0)
    with torch.no_grad():
        next(model.parameters()).fill_(float("nan"))
    with pytest.raises(ValueError, match="non-finite outputs .* for 16 of 16 strings"):
        model.decide(BooleanTransformer.spins_from_bits(all_strings(4)))


@pytest.mark.parametrize("init", ["xavier_uniform", "xavier_normal"])
def test_xavier_schemes(init):
    D, gain = 64, 0.7
    model = BooleanTransformer(20, d_model=D, n_layers=2, n_heads=4, d_mlp=128, init=init,
                               init_scale=gain, readout="eos", seed=0)
    layer = model.layers[1]
    for w, fan_in, fan_out in [
        (layer.qkv.weight[:D], D, D),  # the query map alone
        (layer.qkv.weight[2 * D :], D, D),  # the value map
        (layer.mlp_in.weight, D, 128),
        (layer.mlp_out.weight, 128, D),
    ]:
        std = gain * np.sqrt(2 / (fan_in + fan_out))
        assert w.std().item() == pytest.approx(std, rel=0.1)
        if init == "xavier_uniform":
            bound = gain * np.sqrt(6 / (fan_in + fan_out))
            assert w.abs().max().item() <= bound
            assert w.abs().max().item() > 0.95 * bound
    assert all(
        torch.equal(p, torch.zeros_like(p))
        for name, p in model.named_parameters()
        if name.endswith("bias")
    )
    assert torch.equal(layer.ln_attn.weight, torch.ones(D))
    assert model.unembed.bias.item() == 0.0
    assert model.eos.abs().max() > 0


# -- tokens must be spins (issue 11 item 5) ---------------------------------------


@pytest.mark.parametrize(
    "value, error, match",
    [
        (2.0, ValueError, "value 2.0"),
        (float("nan"), ValueError, "value nan"),
        (0.0, ValueError, "value 0.0"),
        (float("inf"), ValueError, "value inf"),
        (-3, ValueError, "value -3"),
    ],
)
def test_forward_rejects_anything_but_spins(value, error, match):
    model = BooleanTransformer(4, d_model=8, n_heads=2, seed=0)
    spins = torch.ones(3, 4, dtype=torch.float64 if isinstance(value, float) else torch.int64)
    spins[1, 2] = value
    for method in (model, model.decide, model.layer_norm_inverse_std, model.layer_norm_tau):
        with pytest.raises(error, match=match):
            method(spins)


def test_forward_rejects_complex_and_bool_tokens():
    model = BooleanTransformer(4, d_model=8, n_heads=2, seed=0)
    with pytest.raises(TypeError, match="real spins"):
        model(torch.ones(2, 4, dtype=torch.complex64) * 1j)
    with pytest.raises(TypeError, match="not bools"):
        model(torch.ones(2, 4, dtype=torch.bool))


def test_forward_accepts_integer_and_double_spins():
    model = BooleanTransformer(4, d_model=8, n_heads=2, seed=0)
    ints = torch.tensor([[1, -1, 1, -1]])
    torch.testing.assert_close(model(ints), model(ints.double()))


# -- bad input --------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"d_model": 10, "n_heads": 4}, ValueError, "divisible by n_heads"),
        ({"layer_norm_eps": -1e-5}, ValueError, "layer_norm_eps"),
        ({"layer_norm_eps": float("nan")}, ValueError, "layer_norm_eps"),
        ({"init": "xavier"}, ValueError, "'init' parameter"),
        ({"init_scale": 0.0}, ValueError, "init_scale"),
        ({"readout": "first"}, ValueError, "readout"),
        ({"margin": -0.1}, ValueError, "margin"),
        ({"margin": float("inf")}, ValueError, "margin"),
        ({"init": "xavier_gaussian"}, ValueError, "'init' parameter"),
        ({"positional": "rotary"}, ValueError, "positional"),
        ({"norm": "sandwich"}, ValueError, "norm"),
        ({"n_layers": 0}, ValueError, "n_layers"),
        ({"d_model": 8.0}, TypeError, "d_model"),
        ({"seed": -1}, ValueError, "seed"),
    ],
)
def test_bad_constructor_arguments(kwargs, error, match):
    args = {"n_bits": 4, "d_model": 8, "n_heads": 2, **kwargs}
    with pytest.raises(error, match=match):
        BooleanTransformer(**args)


def test_wrong_input_length_is_a_clear_error():
    model = BooleanTransformer(5, d_model=8, n_heads=2)
    with pytest.raises(ValueError, match=r"n_bits=5.*got shape \(3, 4\)"):
        model(torch.ones(3, 4))
    with pytest.raises(ValueError, match="n_bits=5"):
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


@pytest.mark.parametrize("cls, extra", [(BooleanTransformer, {"d_model": 8, "n_heads": 2})])
def test_n_positions_is_the_former_name_of_n_bits(cls, extra):
    with pytest.warns(FutureWarning, match="'n_positions' was renamed 'n_bits'"):
        old = cls(n_positions=5, seed=0, **extra)
    new = cls(n_bits=5, seed=0, **extra)
    assert old.n_bits == new.n_bits == 5
    for a, b in zip(old.parameters(), new.parameters()):
        assert torch.equal(a, b)
    with pytest.warns(FutureWarning, match="n_positions was renamed n_bits"):
        assert old.n_positions == 5
    with pytest.raises(TypeError, match="both n_bits=5 and its former name"):
        cls(5, n_positions=5, **extra)
    with pytest.raises(TypeError, match="missing required argument 'n_bits'"):
        cls(**extra)


# -- settable attributes are checked where they are set ---------------------------


@pytest.mark.parametrize("value, error", [(-1.0, ValueError), (float("nan"), ValueError),
                                          (float("inf"), ValueError), ("0.5", TypeError),
                                          (None, TypeError), (True, TypeError)])
def test_margin_set_after_construction_is_checked(value, error):
    model = BooleanTransformer(6, d_model=16, n_heads=2, seed=0)
    with pytest.raises(error, match="margin must be a finite number >= 0"):
        model.margin = value
    assert model.margin == 0.0  # unchanged: decide still decides every string
    spins = BooleanTransformer.spins_from_bits(all_strings(6))
    assert (model.decide(spins) != 0).all()


@pytest.mark.parametrize("value, error", [(0, ValueError), (-1, ValueError), (2.5, TypeError),
                                          (None, TypeError), (True, TypeError)])
def test_eval_batch_size_set_after_construction_is_checked(value, error):
    model = BooleanTransformer(6, d_model=16, n_heads=2, seed=0)
    before = model.eval_batch_size
    with pytest.raises(error, match="eval_batch_size must be an integer >= 1"):
        model.eval_batch_size = value
    assert model.eval_batch_size == before


def test_modules_pickled_with_plain_margin_attributes_still_load():
    model = BooleanTransformer(6, d_model=16, n_heads=2, margin=0.25, seed=0)
    state = model.__dict__.copy()
    state["margin"], state["eval_batch_size"] = state.pop("_margin"), state.pop("_eval_batch_size")
    old = BooleanTransformer.__new__(BooleanTransformer)
    old.__setstate__(state)
    assert old.margin == 0.25 and old.eval_batch_size == model.eval_batch_size
    spins = BooleanTransformer.spins_from_bits(all_strings(6))
    assert torch.equal(old.decide(spins), model.decide(spins))
