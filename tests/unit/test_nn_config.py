"""The Boolean transformer's architecture: one frozen configuration, declared once, checked once."""

import dataclasses
import inspect

import pytest

from skxor import BooleanTransformerClassifier
from skxor.boolean import all_strings
from skxor.nn import BooleanTransformer, BooleanTransformerConfig


@pytest.fixture
def validations(monkeypatch):
    """The keyword sets :meth:`BooleanTransformerConfig.from_params` checks, as they come."""
    calls = []
    original = BooleanTransformerConfig.from_params.__func__

    def counting(cls, **params):
        calls.append(params)
        return original(cls, **params)

    monkeypatch.setattr(BooleanTransformerConfig, "from_params", classmethod(counting))
    return calls


def test_the_configuration_is_frozen():
    config = BooleanTransformerConfig(n_bits=4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.d_model = 8


def test_module_and_classifier_defaults_are_the_configurations():
    """The three signatures that list the architecture cannot drift apart."""
    defaults = {f.name: f.default for f in dataclasses.fields(BooleanTransformerConfig)
                if f.default is not dataclasses.MISSING}
    for owner in (BooleanTransformer, BooleanTransformerClassifier):
        signature = inspect.signature(owner.__init__).parameters
        assert {name: signature[name].default for name in defaults} == defaults, owner


def test_classifier_constraints_are_the_configurations():
    names = [n for n in BooleanTransformerConfig.parameter_names() if n != "n_bits"]
    constraints = BooleanTransformerClassifier._parameter_constraints
    assert all(constraints[n] is BooleanTransformerConfig.constraints[n] for n in names)


def test_from_config_does_not_check_again(validations):
    """The module built from a configuration does not validate it; the keywords path does."""
    calls = validations
    config = BooleanTransformerConfig(n_bits=4, d_model=8, n_heads=2)
    model = BooleanTransformer.from_config(config, seed=0)
    assert calls == [] and model.config is config
    BooleanTransformer(4, d_model=8, n_heads=2, seed=0)
    assert len(calls) == 1


def test_from_config_equals_the_keyword_module():
    import torch

    config = BooleanTransformerConfig.from_params(n_bits=5, d_model=8, n_heads=2, readout="eos")
    a = BooleanTransformer.from_config(config, seed=3)
    b = BooleanTransformer(5, d_model=8, n_heads=2, readout="eos", seed=3)
    spins = BooleanTransformer.spins_from_bits(all_strings(5))
    assert torch.equal(a(spins), b(spins))
    with pytest.raises(TypeError, match="BooleanTransformerConfig"):
        BooleanTransformer.from_config({"n_bits": 5})


def test_classifier_builds_the_configuration_once_validated(validations):
    """fit validates the parameters (its constraints), then builds the module without re-checking."""
    calls = validations
    X = all_strings(4)
    clf = BooleanTransformerClassifier(d_model=8, n_layers=1, n_heads=2, max_iter=1,
                                       random_state=0).fit(X, X[:, 0])
    assert calls == []
    assert clf.module_.config == BooleanTransformerConfig(n_bits=4, d_model=8, n_layers=1,
                                                          n_heads=2)
    with pytest.raises(ValueError, match="'d_model' parameter"):
        BooleanTransformerClassifier(d_model=0).fit(X, X[:, 0])


def test_old_pickles_get_a_configuration():
    """A module pickled before the configuration object existed loads with one."""
    import pickle

    model = BooleanTransformer(4, d_model=8, n_heads=2, seed=0)
    state = model.__dict__.copy()
    del state["config"], state["attention"]
    restored = BooleanTransformer.__new__(BooleanTransformer)
    restored.__setstate__(pickle.loads(pickle.dumps(state)))
    # The old state holds d_mlp resolved (4 * d_model): the same architecture.
    assert restored.config == dataclasses.replace(model.config, d_mlp=32)
    assert restored.attention == "softmax"
