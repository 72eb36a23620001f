"""The fast flip paths compute what ``forward`` computes, or are not used (issue 34, item 1).

Flip neighbours, the flip certificate and the fused layer kernel read the
weights directly; a hook, an override or a replaced submodule changes
``forward`` but not them. :func:`skxor.nn.fast_path_refusal` says when
they may run; each falls back to ``forward`` otherwise. Every test here
compares a fast path with ``forward`` on the flipped strings themselves.
"""

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from torch import nn

from skxor._utils._evaluate import ModelEvaluator
from skxor.nn import (
    BooleanTransformer,
    KParityAttention,
    SparseXORAttention,
    fast_path_refusal,
    sparse_xor_init,
)
from skxor.sensitivity import sensitivity_profile


def per_flip(model, spins):
    """``forward`` on every flipped string, (B, N): the reference."""
    B, N = spins.shape
    flipped = spins.unsqueeze(1).repeat(1, N, 1)
    flipped[:, range(N), range(N)] *= -1
    with torch.no_grad():
        return model(flipped.reshape(-1, N)).reshape(B, N).double()


def random_spins(n, N, seed):
    g = torch.Generator().manual_seed(seed)
    return 1 - 2 * torch.randint(0, 2, (n, N), generator=g).float()


def sampled(model, N, **kwargs):
    return sensitivity_profile(model, N, method="sampled", n_samples=60, random_state=0,
                               **kwargs)


def assert_profiles_equal(model, N):
    fast, slow = sampled(model, N), sampled(model, N, incremental=False)
    np.testing.assert_array_equal(fast.counts, slow.counts)
    np.testing.assert_array_equal(fast.flip_counts, slow.flip_counts)
    return fast


class Shifted(BooleanTransformer):
    def forward(self, spins):
        return super().forward(spins) - 0.05


class ShiftedRun(BooleanTransformer):
    def _run(self, spins, *args, **kwargs):
        return super()._run(spins, *args, **kwargs) - 0.05


class ShiftedLayers(BooleanTransformer):
    def _layers_from(self, *args, **kwargs):
        return super()._layers_from(*args, **kwargs) - 0.05


def shift_hook(module, inputs, output):
    return output - 0.05


def scale_pre_hook(module, inputs):
    return (inputs[0] * 1.5,) + tuple(inputs[1:])


# -- the reproducers ----------------------------------------------------------


def test_overridden_forward_of_two_layers_gives_the_per_flip_profile():
    """Before: 2.205 by default against 0.36 with incremental=False."""
    model = Shifted(10, d_model=4, n_layers=2, n_heads=1, seed=3)
    profile = sampled(model, 10)
    assert profile.average == sampled(model, 10, incremental=False).average
    assert fast_path_refusal(model) == "Shifted.forward redefines what BooleanTransformer computes"
    spins = random_spins(5, 10, 0)
    own, out = model.flip_neighbours(spins, return_outputs=True)
    torch.testing.assert_close(out.double(), per_flip(model, spins))
    with torch.no_grad():
        torch.testing.assert_close(own, model(spins))


@pytest.mark.parametrize("seed, d_model", [(2, 4), (3, 8)])
def test_forward_hook_on_one_layer_gives_the_per_flip_profile(seed, d_model):
    """Before: 0.0 by default against 0.175 (seed 2) and 0.065 (seed 3)."""
    model = BooleanTransformer(10, d_model=d_model, n_layers=1, n_heads=1, seed=seed)
    model.register_forward_hook(shift_hook)
    assert model.flip_certifier() is None
    assert not ModelEvaluator(model, 10).has_flip_certificate
    fast = sensitivity_profile(model, 10, method="sampled", n_samples=200, random_state=0)
    slow = sensitivity_profile(model, 10, method="sampled", n_samples=200, random_state=0,
                               incremental=False)
    assert fast.average == slow.average > 0


@pytest.mark.parametrize("name", ["unembed", "mlp_in", "ln_mlp", "qkv", "ln_attn"])
@pytest.mark.parametrize("n_layers", [1, 2])
def test_replaced_submodule_falls_back_to_forward(name, n_layers):
    """Before: AttributeError: 'Sequential' object has no attribute 'weight'."""
    model = BooleanTransformer(10, d_model=16, n_layers=n_layers, n_heads=2, seed=0)
    layer = model.layers[0]
    replacement = {
        "unembed": nn.Sequential(nn.Linear(16, 1), nn.Tanh()),
        "mlp_in": nn.Sequential(nn.Linear(16, 64), nn.Tanh()),
        "ln_mlp": nn.LayerNorm(16),
        "qkv": nn.Linear(16, 48, bias=False),
        "ln_attn": nn.Identity(),
    }[name]
    setattr(model if name == "unembed" else layer, name, replacement)
    assert fast_path_refusal(model) is not None
    spins = random_spins(4, 10, 1)
    torch.testing.assert_close(model.flip_neighbours(spins).double(), per_flip(model, spins))
    assert model.flip_certifier() is None
    assert_profiles_equal(model, 10)


def test_replaced_submodule_of_a_fusable_layer_runs_step_by_step():
    """A layer the fused kernel would run (short, even heads 8 wide, ReLU): with its MLP
    replaced, forward runs the replacement (the kernel would read its weights)."""
    model = BooleanTransformer(12, d_model=16, n_layers=2, n_heads=2, seed=0).eval()
    spins = random_spins(6, 12, 2)
    h = torch.zeros(1, model.n_tokens, 16)
    with torch.no_grad():
        assert model.layers[0]._fusable(h)
        model.layers[0].mlp_in = nn.Sequential(nn.Linear(16, 64), nn.Tanh())
        assert not model.layers[0]._fusable(h)
        out = model(spins)
        torch.backends.mha.set_fastpath_enabled(False)
        try:
            reference = model(spins)
        finally:
            torch.backends.mha.set_fastpath_enabled(True)
    torch.testing.assert_close(out, reference)


# -- the predicate ---------------------------------------------------------------------


def clean_models():
    keys, queries = sparse_xor_init(12, 6, 2, random_state=0)
    return [
        BooleanTransformer(8, d_model=8, n_layers=1, n_heads=2, seed=0),
        BooleanTransformer(8, d_model=8, n_layers=2, n_heads=2, norm="post", readout="eos",
                           seed=0).double(),
        SparseXORAttention(torch.tensor(keys), torch.tensor(queries)),
        KParityAttention(8, n_heads=3, seed=0),
    ]


@pytest.mark.parametrize("index", range(4))
def test_library_models_have_their_fast_paths(index):
    model = clean_models()[index]
    assert fast_path_refusal(model) is None


def test_every_kind_of_change_is_refused_with_its_reason():
    def model():
        return BooleanTransformer(8, d_model=8, n_layers=1, n_heads=2, seed=0)

    m = model()
    m.layers[0].ln_mlp.register_forward_pre_hook(scale_pre_hook)
    assert fast_path_refusal(m) == "a forward hook on layers.0.ln_mlp"
    m = model()
    m.forward = lambda spins: BooleanTransformer.forward(m, spins) * 2
    assert fast_path_refusal(m) == "the instance's own forward redefines what " \
                                   "BooleanTransformer computes"
    m = model()
    m.layers[0].mlp_out.forward = lambda h: h
    assert fast_path_refusal(m) == "layers.0.mlp_out has its own forward"
    m = model()
    m.layers[0].activation = "tanh"
    assert "settings" in fast_path_refusal(m)
    assert "ShiftedRun._run" in fast_path_refusal(ShiftedRun(8, d_model=8, n_layers=1, seed=0))
    assert fast_path_refusal(nn.Linear(3, 1)) == "Linear is not one of skxor's modules"
    m = model()
    m.register_forward_hook(shift_hook)
    assert fast_path_refusal(m) == "a forward hook on the model"
    m = model()
    m.token_embed.forward = lambda bits: bits
    assert fast_path_refusal(m) == "token_embed has its own forward"
    m = model()
    m.layers[0].ln_mlp.forward = lambda h: h
    assert fast_path_refusal(m) == ("the instance's own forward (at layers.0.ln_mlp) redefines "
                                    "what LayerNorm computes")
    m = model()
    m.unembed = nn.Sequential(nn.Linear(8, 1))
    assert fast_path_refusal(m) == "unembed is a Sequential, not the Linear the model builds"
    m = model()
    del m.ln_final
    assert fast_path_refusal(m) == "ln_final is missing, not the LayerNorm the model builds"
    m = model()
    m.layers[0].qkv = nn.Linear(8, 24, bias=False)
    assert fast_path_refusal(m) == "layers.0.qkv is a Linear without a bias"

    class Local(BooleanTransformer):  # defined in a function: the user's, even within skxor
        def __call__(self, spins):
            return super().__call__(spins)

    assert "Local.__call__" in fast_path_refusal(Local(8, d_model=8, n_layers=1, seed=0))

    class Harmless(BooleanTransformer):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.note = "mine"

        def extra_repr(self):
            return "harmless"

    assert fast_path_refusal(Harmless(8, d_model=8, n_layers=1, seed=0)) is None


def test_a_hook_for_every_module_is_refused():
    model = BooleanTransformer(8, d_model=8, n_layers=1, n_heads=2, seed=0)
    handle = torch.nn.modules.module.register_module_forward_hook(
        lambda m, i, o: o - 0.05 if isinstance(m, nn.Linear) and o.shape[-1] == 1 else o)
    try:
        assert fast_path_refusal(model) == "a forward hook registered for every module"
        spins = random_spins(3, 8, 0)
        torch.testing.assert_close(model.flip_neighbours(spins).double(), per_flip(model, spins))
    finally:
        handle.remove()
    assert fast_path_refusal(model) is None
    handle = torch.nn.modules.module.register_module_forward_pre_hook(lambda m, i: None)
    try:
        assert fast_path_refusal(model) == "a forward hook registered for every module"
    finally:
        handle.remove()
    assert fast_path_refusal(model) is None


# -- every fast path against forward, property-based -----------------------------------


def transformer_change(kind, model):
    """Apply one change of ``forward`` to a BooleanTransformer (returns the model)."""
    layer = model.layers[-1]
    D = model.d_model
    if kind == "model hook":
        model.register_forward_hook(shift_hook)
    elif kind == "unembed hook":
        model.unembed.register_forward_hook(shift_hook)
    elif kind == "first layer pre-hook":
        model.layers[0].register_forward_pre_hook(scale_pre_hook)
    elif kind == "attention output hook":
        model.layers[0].attn_out.register_forward_hook(shift_hook)
    elif kind == "norm hook":
        layer.ln_mlp.register_forward_hook(shift_hook)
    elif kind == "unembed":
        model.unembed = nn.Sequential(nn.Linear(D, 1), nn.Tanh())
    elif kind == "mlp_in":
        layer.mlp_in = nn.Sequential(nn.Linear(D, model.d_mlp), nn.Tanh())
    elif kind == "ln_mlp":
        layer.ln_mlp = nn.LayerNorm(D)
    elif kind == "instance forward":
        base = model.forward
        model.forward = lambda spins: base(spins) - 0.05
    return model


OVERRIDES = {"forward": Shifted, "_run": ShiftedRun, "_layers_from": ShiftedLayers}
CHANGES = ["model hook", "unembed hook", "first layer pre-hook", "attention output hook",
           "norm hook", "unembed", "mlp_in", "ln_mlp", "instance forward", *OVERRIDES]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(CHANGES), n_bits=st.integers(1, 12), n_layers=st.sampled_from([1, 2]),
       heads_width=st.sampled_from([(1, 4), (2, 16)]), norm=st.sampled_from(["pre", "post"]),
       readout=st.sampled_from(["last", "cls", "eos"]), seed=st.integers(0, 1000))
def test_every_transformer_fast_path_equals_forward(kind, n_bits, n_layers, heads_width, norm,
                                                    readout, seed):
    """Flip neighbours (with the strings' own outputs), the certificate and the sampled
    profile of a changed model equal forward on the flipped strings."""
    n_heads, d_model = heads_width
    cls = OVERRIDES.get(kind, BooleanTransformer)
    model = cls(n_bits, d_model=d_model, n_layers=n_layers, n_heads=n_heads, norm=norm,
                readout=readout, seed=seed).eval()
    model = transformer_change(kind, model)
    assert fast_path_refusal(model) is not None
    assert model.flip_certifier() is None
    spins = random_spins(5, n_bits, seed)
    own, out = model.flip_neighbours(spins, return_outputs=True)
    torch.testing.assert_close(out.double(), per_flip(model, spins), atol=1e-5, rtol=1e-5)
    with torch.no_grad():
        torch.testing.assert_close(own, model(spins), atol=1e-5, rtol=1e-5)
    assert_profiles_equal(model, n_bits)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hooked=st.sampled_from(["model", "pre-hook", "override", "readout"]),
       which=st.sampled_from(["sparse_xor", "k_parity"]), seed=st.integers(0, 1000))
def test_sparse_xor_and_k_parity_fast_paths_equal_forward(hooked, which, seed):
    if which == "sparse_xor":
        keys, queries = sparse_xor_init(12, 6, 2, random_state=seed)
        cls = SparseXORAttention
        if hooked == "override":
            class cls(SparseXORAttention):  # noqa: N801 - a user's subclass
                def forward(self, spins):
                    return super().forward(spins) - 0.01
        model = cls(torch.tensor(keys), torch.tensor(queries * 20))
    else:
        cls = KParityAttention
        if hooked == "override":
            class cls(KParityAttention):  # noqa: N801
                def forward(self, spins):
                    return -super().forward(spins)
        model = cls(12, n_heads=3, seed=seed, dtype=torch.float64)
    if hooked == "model":
        model.register_forward_hook(shift_hook)
    elif hooked == "pre-hook":
        model.register_forward_pre_hook(lambda m, inputs: (-inputs[0],))
    elif hooked == "readout" and which == "k_parity":
        model.readout[1] = nn.Tanh()
    elif hooked == "readout":
        model.register_forward_hook(lambda m, i, o: -o)
    assert fast_path_refusal(model) is not None
    spins = random_spins(6, 12, seed).double()
    torch.testing.assert_close(model.flip_neighbours(spins).double(), per_flip(model, spins))
    if which == "sparse_xor":
        assert model.flip_certifier() is None
    assert_profiles_equal(model, 12)
