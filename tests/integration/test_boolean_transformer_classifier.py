"""BooleanTransformerClassifier: learning, conventions, reproducibility, bad input."""

import pickle

import numpy as np
import pytest
import torch
from sklearn.base import clone

from skxor.boolean import First, Majority, Parity, all_strings
from skxor import BooleanTransformerClassifier
from skxor.sensitivity import sensitivity_profile



SMALL = dict(d_model=16, n_layers=1, n_heads=2, learning_rate=1e-2, random_state=0)


def test_learns_majority_on_a_fixed_set():
    X = all_strings(7)
    y = Majority(7)(X)
    clf = BooleanTransformerClassifier(**SMALL, max_iter=40).fit(X, y)
    assert clf.score(X, y) == 1.0
    assert clf.loss_curve_[-1] < clf.loss_curve_[0]
    assert clf.n_iter_ == 40 and clf.accuracy_curve_ == []
    # The trained model's profile is MAJORITY's.
    assert np.array_equal(
        sensitivity_profile(clf, 7).counts, sensitivity_profile(Majority(7), 7).counts
    )


def test_fresh_batches_of_a_target_function_stop_at_the_target_accuracy():
    X = all_strings(6)
    clf = BooleanTransformerClassifier(
        **SMALL, max_iter=60, target_function=First(6), target_accuracy=1.0
    ).fit(X)
    assert clf.n_iter_ < 60
    assert clf.accuracy_curve_[-1] == 1.0
    assert all(a < 1.0 for a in clf.accuracy_curve_[:-1])
    assert clf.classes_.tolist() == [0, 1]
    assert np.array_equal(clf.predict(X), First(6)(X))
    # Fresh strings: one epoch is ceil(64 / 64) = 1 step of 64 new strings.
    assert clf.history_[-1, "train_batch_count"] == 1


def test_fresh_batches_with_labels_for_monitoring():
    X = all_strings(5, encoding="pm1")
    y = np.where(Majority(5)(X) == 1, "yes", "no")
    clf = BooleanTransformerClassifier(
        **SMALL, max_iter=40, batch_size=16, target_function=Majority(5), target_accuracy=1.0
    ).fit(X, y)
    assert clf.classes_.tolist() == ["no", "yes"]
    assert clf.score(X, y) == 1.0


@pytest.mark.parametrize("loss", ["logistic", "squared_error"])
def test_same_seed_gives_bit_identical_fits(loss):
    X = all_strings(5)
    y = Parity(5)(X)
    state = torch.random.get_rng_state()
    clf = BooleanTransformerClassifier(**SMALL, max_iter=5, batch_size=8, loss=loss)
    a = clone(clf).fit(X, y).decision_function(X)
    b = clone(clf).fit(X, y).decision_function(X)
    c = clone(clf).set_params(random_state=1).fit(X, y).decision_function(X)
    assert torch.equal(torch.random.get_rng_state(), state)  # global RNG untouched
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_fresh_batches_are_reproducible():
    X = all_strings(5)
    clf = BooleanTransformerClassifier(**SMALL, max_iter=3, target_function=Parity(5))
    assert np.array_equal(
        clone(clf).fit(X).decision_function(X), clone(clf).fit(X).decision_function(X)
    )


def test_pickle_round_trip_keeps_predictions():
    X = all_strings(5)
    y = Majority(5)(X)
    clf = BooleanTransformerClassifier(**SMALL, max_iter=3).fit(X, y)
    back = pickle.loads(pickle.dumps(clf))
    assert np.array_equal(back.decision_function(X), clf.decision_function(X))
    assert np.array_equal(back.predict(X), clf.predict(X))


def test_bits_and_spins_give_the_same_model():
    bits = all_strings(5)
    y = Majority(5)(bits)
    clf = BooleanTransformerClassifier(**SMALL, max_iter=3)
    a = clone(clf).fit(bits, y)
    b = clone(clf).fit(1 - 2 * bits, y)
    assert (a.encoding_, b.encoding_) == ("01", "pm1")
    assert np.array_equal(a.decision_function(bits), b.decision_function(1 - 2 * bits))
    with pytest.raises(ValueError, match="fitted on 0/1 bits"):
        a.predict(1 - 2 * bits)


def test_binarize_maps_real_values_to_bits():
    rng = np.random.RandomState(0)
    X = rng.randn(64, 5)
    y = (X[:, 0] > 0).astype(int)
    clf = BooleanTransformerClassifier(**SMALL, max_iter=3, binarize=0.0)
    a = clone(clf).fit(X, y)
    b = clone(clf).set_params(binarize=None).fit((X > 0).astype(int), y)
    assert a.encoding_ == "binarized"
    assert np.array_equal(a.decision_function(X), b.decision_function((X > 0).astype(int)))


def test_eps_zero_trains_without_nan():
    X = all_strings(6)
    y = Majority(6)(X)
    clf = BooleanTransformerClassifier(
        d_model=8, n_layers=2, n_heads=2, layer_norm_eps=0.0, init="normal", init_scale=0.5,
        learning_rate=1e-2, max_iter=10, random_state=0,
    ).fit(X, y)
    assert np.isfinite(clf.loss_curve_).all()
    assert np.isfinite(clf.decision_function(X)).all()


def test_layer_norm_inverse_std_per_layer():
    X = all_strings(4)
    clf = BooleanTransformerClassifier(
        d_model=8, n_layers=2, n_heads=2, readout="cls", max_iter=1, random_state=0
    ).fit(X, Majority(4)(X))
    inv = clf.layer_norm_inverse_std(X[:3])
    assert list(inv) == [
        "layers.0.ln_attn", "layers.0.ln_mlp", "layers.1.ln_attn", "layers.1.ln_mlp", "ln_final"
    ]
    assert all(v.shape == (3, 5) for v in inv.values())  # 4 bits + CLS
    assert all(np.isfinite(v).all() and (v > 0).all() for v in inv.values())


def test_n_parameters_and_module():
    X = all_strings(4)
    clf = BooleanTransformerClassifier(d_model=8, n_heads=2, max_iter=1).fit(X, Majority(4)(X))
    assert clf.n_parameters_ == sum(p.numel() for p in clf.module_.parameters())
    assert not clf.module_.training


# -- bad input ----------------------------------------------------------------


@pytest.mark.parametrize(
    "params, match",
    [
        ({"layer_norm_eps": -1e-5}, "layer_norm_eps"),
        ({"init": "xavier"}, "init"),
        ({"d_model": 10, "n_heads": 4}, "divisible by n_heads"),
        ({"target_accuracy": 1.5}, "target_accuracy"),
        ({"learning_rate": float("inf")}, "learning_rate"),
        ({"target_function": "parity"}, "target_function"),
    ],
)
def test_bad_parameters(params, match):
    X = all_strings(4)
    with pytest.raises(ValueError, match=match):
        BooleanTransformerClassifier(max_iter=1, **params).fit(X, Majority(4)(X))


def test_bad_inputs():
    X = all_strings(4)
    y = Majority(4)(X)
    clf = BooleanTransformerClassifier(d_model=8, n_heads=2, max_iter=1).fit(X, y)
    with pytest.raises(ValueError, match="4 features"):
        clf.predict(all_strings(5))
    with pytest.raises(ValueError, match=r"contains the values \[2\]"):
        BooleanTransformerClassifier(max_iter=1).fit(X + (X == 1), y)
    with pytest.raises(ValueError, match="requires y"):
        BooleanTransformerClassifier(max_iter=1).fit(X)
    with pytest.raises(ValueError, match="only one class"):
        BooleanTransformerClassifier(max_iter=1).fit(X, np.ones(16))


def test_bad_target_function():
    X = all_strings(4)
    with pytest.raises(ValueError, match="target_function must return Boolean labels"):
        BooleanTransformerClassifier(max_iter=1, target_function=lambda b: b.sum(axis=1)).fit(X)
    with pytest.raises(ValueError, match=r"shape \(16,\)"):
        BooleanTransformerClassifier(max_iter=1, target_function=lambda b: b).fit(X)
    with pytest.raises(ValueError, match="target_function failed"):
        BooleanTransformerClassifier(max_iter=1, target_function=lambda b: b[:, 9]).fit(X)


def test_divergence_is_reported():
    X = all_strings(4)
    clf = BooleanTransformerClassifier(
        d_model=8, n_heads=2, loss="squared_error", init="normal", init_scale=1e30,
        max_iter=2, random_state=0,
    )
    with pytest.raises(ValueError, match="diverged"):
        clf.fit(X, Majority(4)(X))


def test_a_users_interrupt_is_not_swallowed(monkeypatch):
    # skorch ends fit quietly on KeyboardInterrupt; only the target-accuracy
    # stop may end training early, a Ctrl-C must reach the caller.
    from skxor._utils._skorch import LeanNet

    X = all_strings(6)
    calls = []
    original = LeanNet.train_step

    def interrupt_on_fifth_batch(net, batch, **kwargs):
        calls.append(1)
        if len(calls) == 5:
            raise KeyboardInterrupt
        return original(net, batch, **kwargs)

    monkeypatch.setattr(LeanNet, "train_step", interrupt_on_fifth_batch)
    clf = BooleanTransformerClassifier(**SMALL, max_iter=20, batch_size=16,
                                       target_function=First(6), target_accuracy=1.0)
    with pytest.raises(KeyboardInterrupt, match="interrupted after 2 of 20 epochs"):
        clf.fit(X)
    assert not hasattr(clf, "module_")


def test_predict_proba_comes_from_the_base_with_the_logistic_loss():
    """The shared plumbing: [1 - p, p] with p = expit(decision_function), only for logits."""
    from scipy.special import expit

    from skxor.datasets import make_sparse_parity

    X, y = make_sparse_parity(200, 6, random_state=0)
    clf = BooleanTransformerClassifier(d_model=8, n_layers=1, n_heads=2, max_iter=2,
                                       random_state=0).fit(X, y)
    proba = clf.predict_proba(X[:20])
    np.testing.assert_allclose(proba[:, 1], expit(clf.decision_function(X[:20])))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(clf.classes_[proba.argmax(axis=1)], clf.predict(X[:20]))
    assert not hasattr(BooleanTransformerClassifier(loss="squared_error"), "predict_proba")


def test_architecture_defaults_are_the_modules():
    """The estimator mirrors nn.BooleanTransformer's architecture parameters
    (scikit-learn needs them in its own signature): same names, same defaults."""
    import inspect

    from skxor.nn import BooleanTransformer

    module = inspect.signature(BooleanTransformer).parameters
    estimator = inspect.signature(BooleanTransformerClassifier).parameters
    shared = set(module) & set(estimator)
    assert {"d_model", "n_layers", "n_heads", "d_mlp", "positional", "norm",
            "layer_norm_eps", "readout", "activation", "init", "init_scale"} <= shared
    assert {name: estimator[name].default for name in shared} == {
        name: module[name].default for name in shared
    }


def test_target_function_arithmetic_on_bits_does_not_wrap():
    # A target written as 2 * x_0 - 1 (labels -1/+1) got uint8 bits and 255.
    X = all_strings(5)
    clf = BooleanTransformerClassifier(**SMALL, max_iter=2,
                                       target_function=lambda b: 2 * b[:, 0] - 1).fit(X)
    assert clf.classes_.tolist() == [0, 1] and clf.n_iter_ == 2
