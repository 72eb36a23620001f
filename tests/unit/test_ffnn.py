"""FFNNParityBaseline and its torch module: learning, conventions, bad input."""

import io
import pickle
import warnings

import joblib
import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.base import clone

from skxor.datasets import make_sparse_parity
from skxor import FFNNParityBaseline
from skxor.nn import ACTIVATIONS, TwoLayerNetwork

# Small and fast: 10 bits, 600 training rows; 30 epochs learn the XOR.
FAST = dict(width=8, max_iter=30, batch_size=64)


@pytest.fixture(autouse=True)
def _one_thread():
    # Tiny matrix products: extra intra-op threads only stall on a busy machine.
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def xor_data():
    X, y = make_sparse_parity(1100, 10, support=[1, 6], random_state=0)
    return X[:600], y[:600], X[600:], y[600:]


def test_learns_sparse_xor_in_both_encodings(xor_data):
    X, y, Xt, yt = xor_data
    pm1 = FFNNParityBaseline(**FAST, random_state=0).fit(X, y)
    assert pm1.encoding_ == "pm1"
    assert pm1.score(Xt, yt) == 1.0
    bits = FFNNParityBaseline(**FAST, random_state=0).fit((1 - X) // 2, y)
    assert bits.encoding_ == "01"
    # Bits are mapped to the same spins, so the fit is the same network.
    np.testing.assert_array_equal(
        bits.decision_function((1 - Xt) // 2), pm1.decision_function(Xt)
    )


def test_binarize_maps_real_values_to_bits(xor_data):
    X, y, Xt, yt = xor_data
    rng = np.random.default_rng(0)
    # Bit 1 (spin -1) becomes a positive real, bit 0 a negative one.
    real = np.where(X < 0, 1.0, -1.0) * rng.uniform(0.1, 2.0, X.shape)
    clf = FFNNParityBaseline(**FAST, binarize=0.0, random_state=0).fit(real, y)
    assert clf.encoding_ == "binarized"
    ref = FFNNParityBaseline(**FAST, random_state=0).fit(X, y)
    np.testing.assert_array_equal(clf.predict(np.where(Xt < 0, 0.7, -0.3)), ref.predict(Xt))


@pytest.mark.parametrize("width, d", [(1, 3), (4, 10), (7, 25)])
def test_n_parameters(width, d):
    X, y = make_sparse_parity(50, d, random_state=1)
    clf = FFNNParityBaseline(width=width, max_iter=1, random_state=0).fit(X, y)
    assert clf.n_parameters_ == width * (d + 2) + 1
    assert clf.n_parameters_ == sum(p.numel() for p in TwoLayerNetwork(d, width).parameters())


def test_fitted_attributes(xor_data):
    X, y, _, _ = xor_data
    clf = FFNNParityBaseline(**FAST, random_state=0).fit(X, y)
    assert clf.n_iter_ == FAST["max_iter"] == len(clf.loss_curve_)
    assert clf.loss_curve_ == [row["train_loss"] for row in clf.history_]
    assert clf.loss_curve_[-1] < 0.1 * clf.loss_curve_[0]
    assert clf.validation_loss_curve_ is None
    assert clf.n_features_in_ == 10
    np.testing.assert_array_equal(clf.classes_, [-1, 1])


def test_same_seed_is_bit_identical_and_leaves_global_rngs_alone(xor_data):
    X, y, Xt, _ = xor_data
    torch_state = torch.random.get_rng_state()
    np_state = np.random.get_state()[1].copy()
    a = FFNNParityBaseline(**FAST, random_state=3).fit(X, y)
    b = FFNNParityBaseline(**FAST, random_state=3).fit(X, y)
    c = FFNNParityBaseline(**FAST, random_state=4).fit(X, y)
    assert torch.equal(torch.random.get_rng_state(), torch_state)
    np.testing.assert_array_equal(np.random.get_state()[1], np_state)
    assert a.loss_curve_ == b.loss_curve_
    np.testing.assert_array_equal(a.decision_function(Xt), b.decision_function(Xt))
    assert a.loss_curve_ != c.loss_curve_
    # Refitting the same instance gives the same network again.
    np.testing.assert_array_equal(a.fit(X, y).decision_function(Xt), b.decision_function(Xt))


def test_string_labels_and_proba(xor_data):
    X, y, Xt, yt = xor_data
    labels = np.where(y > 0, "odd", "even")
    clf = FFNNParityBaseline(**FAST, random_state=0).fit(X, labels)
    np.testing.assert_array_equal(clf.classes_, ["even", "odd"])
    proba = clf.predict_proba(Xt)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(clf.classes_[proba.argmax(axis=1)], clf.predict(Xt))
    assert clf.score(Xt, np.where(yt > 0, "odd", "even")) == 1.0


def test_squared_error_loss_has_no_proba(xor_data):
    X, y, Xt, yt = xor_data
    clf = FFNNParityBaseline(**FAST, loss="squared_error", random_state=0)
    assert not hasattr(clf, "predict_proba")
    clf.fit(X, y)
    assert clf.score(Xt, yt) == 1.0
    # Trained against -1/+1 targets: the outputs sit near the labels.
    assert np.mean(np.abs(clf.decision_function(Xt) - yt)) < 0.2


@pytest.mark.parametrize("activation", ACTIVATIONS)
def test_every_activation_trains_to_finite_outputs(activation, xor_data):
    X, y, Xt, _ = xor_data
    clf = FFNNParityBaseline(width=4, activation=activation, max_iter=2, random_state=0)
    f = clf.fit(X, y).decision_function(Xt)
    assert np.isfinite(f).all() and np.isfinite(clf.loss_curve_).all()


def test_square_activation_solves_xor_with_one_unit(xor_data):
    # x_i x_j = ((x_i + x_j)^2 - 2) / 2: one quadratic unit suffices.
    X, y, Xt, yt = xor_data
    clf = FFNNParityBaseline(width=1, activation="square", max_iter=40, random_state=0)
    assert clf.fit(X, y).score(Xt, yt) == 1.0
    assert clf.n_parameters_ == 10 + 3


@pytest.mark.parametrize("optimizer", ["sgd", "adamw"])
def test_other_optimizers(optimizer, xor_data):
    X, y, Xt, yt = xor_data
    clf = FFNNParityBaseline(
        width=8, optimizer=optimizer, learning_rate=0.05 if optimizer == "sgd" else 0.01,
        max_iter=40, batch_size=32, random_state=0,
    )
    assert clf.fit(X, y).score(Xt, yt) == 1.0


def test_full_batch_and_float64(xor_data):
    X, y, Xt, _ = xor_data
    clf = FFNNParityBaseline(width=4, max_iter=3, batch_size=None, dtype="float64", random_state=0)
    clf.fit(X, y)
    assert clf._net.module_.hidden.weight.dtype == torch.float64
    assert clf.history_[-1, "train_batch_count"] == 1
    big = FFNNParityBaseline(width=4, max_iter=3, batch_size=10**6, dtype="float64", random_state=0)
    np.testing.assert_array_equal(big.fit(X, y).decision_function(Xt), clf.decision_function(Xt))


def test_early_stopping_keeps_the_best_epoch(xor_data):
    X, y, Xt, _ = xor_data
    # tol=10: no later epoch counts as an improvement on the first one, so
    # training stops after 1 + n_iter_no_change epochs and restores epoch 1.
    params = dict(width=8, early_stopping=True, validation_fraction=0.2, tol=10.0,
                  n_iter_no_change=3, random_state=0)
    clf = FFNNParityBaseline(max_iter=50, **params).fit(X, y)
    assert clf.n_iter_ == 4
    assert len(clf.validation_loss_curve_) == 4
    first = FFNNParityBaseline(max_iter=1, **params).fit(X, y)
    np.testing.assert_array_equal(clf.decision_function(Xt), first.decision_function(Xt))
    # The hold-out is stratified and held out: 480 training rows per epoch.
    assert clf.history_[0, "train_batch_count"] == 480 // 128 + 1


def test_early_stopping_learns(xor_data):
    X, y, Xt, yt = xor_data
    clf = FFNNParityBaseline(width=8, max_iter=200, batch_size=64, early_stopping=True,
                             random_state=0).fit(X, y)
    assert clf.n_iter_ < 200
    assert clf.score(Xt, yt) == 1.0


def test_interrupted_fit_raises(xor_data, monkeypatch):
    # skorch swallows KeyboardInterrupt; fit must not return a half-trained model.
    from skxor._utils._skorch import LeanNet

    X, y, _, _ = xor_data
    calls = []
    original = LeanNet.train_step

    def interrupt_on_third_batch(net, batch, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return original(net, batch, **kwargs)

    monkeypatch.setattr(LeanNet, "train_step", interrupt_on_third_batch)
    clf = FFNNParityBaseline(**FAST, random_state=0)
    with pytest.raises(KeyboardInterrupt, match="interrupted after 1 of 30 epochs"):
        clf.fit(X, y)
    assert not hasattr(clf, "n_parameters_") and not hasattr(clf, "classes_")


def test_early_stopping_needs_enough_data():
    X, y = make_sparse_parity(6, 4, random_state=0)
    with pytest.raises(ValueError, match="early_stopping=True cannot hold out"):
        FFNNParityBaseline(early_stopping=True, validation_fraction=0.1).fit(X, y)


def test_verbose_prints_the_epoch_table(xor_data, capsys):
    X, y, _, _ = xor_data
    FFNNParityBaseline(width=2, max_iter=2, random_state=0).fit(X, y)
    assert capsys.readouterr().out == ""
    FFNNParityBaseline(width=2, max_iter=2, verbose=1, random_state=0).fit(X, y)
    out = capsys.readouterr().out
    assert "train_loss" in out and "epoch" in out


def test_pickle_round_trip(xor_data):
    X, y, Xt, _ = xor_data
    clf = FFNNParityBaseline(**FAST, random_state=0).fit(X, y)
    loaded = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(loaded.decision_function(Xt), clf.decision_function(Xt))
    assert loaded.n_parameters_ == clf.n_parameters_
    # The fitted model keeps no training data.
    assert clf._net.train_split is None


def test_model_from_an_absent_device_predicts_on_cpu(xor_data):
    # Simulate a model fitted on CUDA and unpickled on a machine without it:
    # skorch maps the tensors to the CPU, predict warns and uses the CPU.
    X, y, Xt, _ = xor_data
    clf = FFNNParityBaseline(**FAST, random_state=0).fit(X, y)
    expected = clf.predict(Xt)
    moved = clone(clf).set_params(device="cuda:7")
    moved.__dict__.update({k: v for k, v in clf.__dict__.items() if k.endswith("_")})
    moved._net = clf._net
    moved._net.device = "cuda:7"
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        loaded = pickle.loads(pickle.dumps(moved))
    assert str(loaded._net.device) == "cpu"
    with pytest.warns(RuntimeWarning, match="predicting on the CPU"):
        np.testing.assert_array_equal(loaded.predict(Xt), expected)


def test_wrong_encoding_in_predict(xor_data):
    X, y, Xt, _ = xor_data
    clf = FFNNParityBaseline(width=2, max_iter=1, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="fitted on -1/\\+1 spins"):
        clf.predict((1 - Xt) // 2)


@pytest.mark.parametrize(
    "X, match",
    [
        (np.array([[0.5, 1.0], [1.0, 0.0]] * 5), r"values \[0.5\]"),
        (np.array([[0, 1], [-1, 1]] * 5), "must be binary"),
        (np.array([[np.nan, 1], [1, 1]] * 5), "NaN"),
    ],
)
def test_bad_X_is_a_clear_value_error(X, match):
    y = np.array([0, 1] * 5)
    with pytest.raises(ValueError, match=match):
        FFNNParityBaseline(max_iter=1).fit(X, y)


@pytest.mark.parametrize(
    "y, match",
    [(np.zeros(10), "only one class"), (np.arange(10) % 3, "binary"), (np.linspace(0, 1, 10), "Unknown label type")],
)
def test_bad_y(y, match):
    X = np.ones((10, 3))
    with pytest.raises(ValueError, match=match):
        FFNNParityBaseline(max_iter=1).fit(X, y)


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"width": 0}, ValueError, "width"),
        ({"activation": "softsign"}, ValueError, "activation"),
        ({"loss": "hinge"}, ValueError, "loss"),
        ({"learning_rate": float("inf")}, ValueError, "learning_rate"),
        ({"weight_decay": float("inf")}, ValueError, "weight_decay"),
        ({"learning_rate": -1.0}, ValueError, "learning_rate"),
        ({"binarize": float("nan")}, ValueError, "binarize must be a finite"),
        ({"validation_fraction": 1.0}, ValueError, "validation_fraction"),
        ({"device": "cuda:99"} if not torch.cuda.is_available() else {"device": "tpu"},
         ValueError, "device"),
        ({"device": "not-a-device"}, ValueError, "not a torch device"),
        ({"device": 3}, TypeError, "device"),
        ({"dtype": "float16"}, ValueError, "dtype"),
    ],
)
def test_bad_parameters(params, error, match):
    X, y = make_sparse_parity(40, 4, random_state=0)
    with pytest.raises(error, match=match):
        FFNNParityBaseline(max_iter=1, **params).fit(X, y)


def test_divergence_is_a_clear_error():
    X, y = make_sparse_parity(200, 6, random_state=0)
    clf = FFNNParityBaseline(width=16, loss="squared_error", optimizer="sgd",
                             learning_rate=1e6, momentum=0.0, max_iter=20, random_state=0)
    with pytest.raises(ValueError, match="Training diverged.*smaller learning_rate"):
        clf.fit(X, y)


def test_predict_before_fit():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        FFNNParityBaseline().predict(np.ones((2, 3)))


def test_two_layer_network_module():
    with pytest.raises(ValueError, match="activation must be one of"):
        TwoLayerNetwork(4, 2, "swish")
    net = TwoLayerNetwork(5, 3, "relu", dtype=torch.float64)
    out = net(torch.ones(7, 5, dtype=torch.float64))
    assert out.shape == (7,)
    # f(x) = a . relu(W x + c) + c_0, written out by hand.
    W, c = net.hidden.weight, net.hidden.bias
    a, c0 = net.output.weight[0], net.output.bias[0]
    x = torch.ones(5, dtype=torch.float64)
    torch.testing.assert_close(out[0], a @ torch.relu(W @ x + c) + c0)
    assert pickle.loads(pickle.dumps(net)).activation == "relu"


def test_random_features_train_only_the_read_out():
    import numpy as np

    from skxor import FFNNParityBaseline, count_parameters
    from skxor.datasets import make_sparse_parity

    X, y = make_sparse_parity(600, 10, support=[2, 7], random_state=0)
    short = FFNNParityBaseline(width=6, train_hidden=False, max_iter=1, random_state=0).fit(X, y)
    long = FFNNParityBaseline(width=6, train_hidden=False, max_iter=4, random_state=0).fit(X, y)
    trained = FFNNParityBaseline(width=6, max_iter=4, random_state=0).fit(X, y)
    hidden = [m._net.module_.hidden.weight.detach().numpy() for m in (short, long, trained)]
    output = [m._net.module_.output.weight.detach().numpy() for m in (short, long)]
    # The first layer stays at its (seeded) initialization; the read-out moves.
    np.testing.assert_array_equal(hidden[0], hidden[1])
    assert not np.array_equal(hidden[1], hidden[2])
    assert not np.array_equal(output[0], output[1])
    assert (long.n_parameters_, long.n_frozen_parameters_) == (7, 66)
    assert count_parameters(long) == 7
    assert (trained.n_parameters_, trained.n_frozen_parameters_) == (73, 0)


# -- online SGD: fresh strings every step ---------------------------------------------


def test_online_fit_learns_from_fresh_strings_beyond_its_monitoring_set():
    from skxor.boolean import SparseParity, all_strings

    seen = []

    def target(bits):  # the parity of bits 1 and 6, recording every string it labels
        seen.append(bits.copy())
        return SparseParity(8, [1, 6])(bits)

    monitor = all_strings(8)[::16]  # 16 of the 256 strings
    clf = FFNNParityBaseline(width=8, batch_size=64, max_iter=400, target_function=target,
                             target_accuracy=1.0, random_state=0).fit(monitor)
    assert clf.classes_.tolist() == [0, 1]
    assert clf.accuracy_curve_[-1] == 1.0 and clf.n_iter_ < 400
    # One epoch is ceil(16 / 64) = 1 step of 64 fresh strings: n_iter_ batches after
    # the monitor's own labels, drawing far more distinct strings than the monitor holds.
    assert clf.history_[-1, "train_batch_count"] == 1
    assert [len(b) for b in seen] == [16] + [64] * clf.n_iter_
    assert len(np.unique(np.concatenate(seen[1:]), axis=0)) > 16 * 8
    everything = all_strings(8)
    assert clf.score(everything, SparseParity(8, [1, 6])(everything)) >= 0.95


def test_online_fit_with_labels_only_monitors_and_is_reproducible():
    from skxor.boolean import SparseParity

    X, y = make_sparse_parity(64, 10, support=[2, 7], random_state=0)
    clf = FFNNParityBaseline(width=4, max_iter=5, batch_size=32, random_state=3,
                             target_function=SparseParity(10, [2, 7]), target_accuracy=1.0)
    a = clone(clf).fit(X, y)
    assert a.classes_.tolist() == [-1, 1]
    np.testing.assert_array_equal(a.decision_function(X), clone(clf).fit(X, y).decision_function(X))
    # Fresh strings differ from the fixed-data fit of the same seed.
    fixed = clone(clf).set_params(target_function=None).fit(X, y)
    assert not np.array_equal(a.decision_function(X), fixed.decision_function(X))


#: Decision values of a fixed-data fit, from the estimator before it had ``target_function``.
EXPECTED_FIXED = [-0.13323965668678284, -0.08049356937408447, -0.19821731746196747]


def test_fixed_data_fit_does_not_draw_the_fresh_strings_seed():
    # The fresh strings' seed is drawn after the model's: fixed-data fits are unchanged
    # (these decision values were those of the estimator before it had target_function).
    X, y = make_sparse_parity(64, 10, support=[2, 7], random_state=0)
    clf = FFNNParityBaseline(width=4, max_iter=3, batch_size=32, random_state=3).fit(X, y)
    # To float32 rounding, not bit for bit: the vector kernels differ by CPU (one ulp
    # apart on an AVX-512 machine); another seed would move them at the second digit.
    np.testing.assert_allclose(clf.decision_function(X[:3]), EXPECTED_FIXED, rtol=1e-6, atol=1e-7)


def test_online_fit_refuses_early_stopping_and_bad_target_functions():
    from skxor.boolean import SparseParity

    X = make_sparse_parity(64, 10, support=[2, 7], random_state=0)[0]
    clf = FFNNParityBaseline(target_function=SparseParity(10, [2, 7]), early_stopping=True)
    with pytest.raises(ValueError, match="early_stopping=True holds out part of a fixed"):
        clf.fit(X)
    assert not hasattr(clf, "classes_")  # a failed fit leaves the estimator as it was
    with pytest.raises(ValueError, match="target_function must return one label per string"):
        FFNNParityBaseline(target_function=lambda bits: bits[:, :2], max_iter=1).fit(X)
    with pytest.raises(ValueError, match="requires y to be passed"):
        FFNNParityBaseline(max_iter=1).fit(X)


class _CountingTarget:
    """FIRST (bit 0), recording how many strings each call labels (module level: picklable)."""

    def __init__(self):
        self.calls = []

    def __call__(self, bits):
        self.calls.append(len(bits))
        return bits[:, 0]


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(n_rows=st.integers(1, 150), batch_size=st.one_of(st.integers(1, 140), st.none()),
       epochs=st.integers(1, 2), model=st.sampled_from(["ffnn", "transformer"]))
def test_fresh_data_epochs_are_a_pass_over_X_rounded_up(n_rows, batch_size, epochs, model):
    """Issue 48, item 26: an online epoch is as many fresh batches as a pass over the
    n rows of X in batches of b would take, ceil(n / b) (100 rows in batches of 64:
    two batches, 128 fresh strings, not one batch of 64), and each batch draws b new
    strings (b = n when batch_size is None). Kills ``n // b`` and ``max(1, n // b)``
    for ``-(-n // b)`` in ``FreshDataMixin._fresh_iterator``."""
    from skxor import BooleanTransformerClassifier

    target = _CountingTarget()
    X = np.random.RandomState(n_rows).randint(0, 2, size=(n_rows, 3))
    if model == "ffnn":
        clf = FFNNParityBaseline(width=2, max_iter=epochs, batch_size=batch_size,
                                 target_function=target, random_state=0)
    else:
        batch_size = batch_size or 1  # the transformer's batch_size is an int
        clf = BooleanTransformerClassifier(d_model=4, n_layers=1, n_heads=1, max_iter=epochs,
                                           batch_size=batch_size, target_function=target,
                                           random_state=0)
    clf.fit(X)
    size = n_rows if batch_size is None else batch_size
    per_epoch = -(-n_rows // size)
    assert target.calls[0] == n_rows  # X's own labels, then the fresh batches
    assert target.calls[1:] == [size] * (per_epoch * epochs)
    assert [clf.history_[e, "train_batch_count"] for e in range(epochs)] == [per_epoch] * epochs


def test_one_hundred_strings_in_batches_of_64_are_two_batches_per_epoch():
    target = _CountingTarget()
    X = np.random.RandomState(0).randint(0, 2, size=(100, 4))
    FFNNParityBaseline(width=2, max_iter=1, batch_size=64, target_function=target,
                       random_state=0).fit(X)
    assert target.calls == [100, 64, 64]


# -- online fits: pickling (issue 48, item 9) and y against the target (item 16) -------


def _fitted_state(clf):
    """The fitted attributes that are plain values (the net is compared by its outputs)."""
    return {k: v for k, v in vars(clf).items()
            if k.endswith("_") and not k.startswith("_") and k != "history_"}


@pytest.mark.parametrize("dump, load", [
    (pickle.dumps, pickle.loads),
    (lambda obj: (lambda f: (joblib.dump(obj, f), f.getvalue())[1])(io.BytesIO()),
     lambda data: joblib.load(io.BytesIO(data))),
])
def test_online_fit_pickles_with_a_picklable_target(dump, load):
    """An online fit kept its batch sampler as a local closure in the net: pickle and
    joblib.dump failed ("Can't pickle local object ... sampler") even for
    SparseParity. Now the round trip gives identical outputs and fitted attributes,
    and the loaded estimator refits as the original did."""
    from skxor.boolean import SparseParity

    X, _ = make_sparse_parity(200, 8, support=[1, 4], random_state=0)
    clf = FFNNParityBaseline(width=4, max_iter=3, batch_size=64, random_state=0,
                             target_function=SparseParity(8, [1, 4])).fit(X)
    loaded = load(dump(clf))
    np.testing.assert_array_equal(loaded.decision_function(X), clf.decision_function(X))
    np.testing.assert_array_equal(loaded.predict(X), clf.predict(X))
    before, after = _fitted_state(clf), _fitted_state(loaded)
    assert before.keys() == after.keys() and "loss_curve_" in before
    for key in before:
        np.testing.assert_array_equal(after[key], before[key], err_msg=key)
    assert isinstance(loaded.target_function, SparseParity)  # the function, not a wrapper
    np.testing.assert_array_equal(clone(loaded).fit(X).decision_function(X),
                                  clone(clf).fit(X).decision_function(X))


def test_an_unpicklable_target_is_named_when_pickling():
    from skxor import BooleanTransformerClassifier

    X, _ = make_sparse_parity(64, 6, random_state=0)
    target = lambda bits: bits[:, 0]  # noqa: E731 - the unpicklable kind
    for clf in (FFNNParityBaseline(width=2, max_iter=1, target_function=target),
                BooleanTransformerClassifier(d_model=4, n_layers=1, n_heads=1, max_iter=1,
                                             target_function=target)):
        clf.fit(X)
        for dump in (pickle.dumps, lambda obj: joblib.dump(obj, io.BytesIO())):
            with pytest.raises(pickle.PicklingError,
                               match=r"cannot be pickled: its target_function <function .*"
                                     r"<lambda>.*module level"):
                dump(clf)
        assert clf.target_function is target  # pickling left the estimator as it was
        assert clf.predict(X).shape == (64,)


def test_online_fit_refuses_y_that_contradicts_the_target():
    """fit(X, y) with target_function accepted a y contradicting it on every row
    (y = -f, 300 of 300 rows); now it is refused with the count, and nothing is fitted."""
    from skxor.boolean import SparseParity

    X, y = make_sparse_parity(300, 8, support=[1, 4], random_state=0)
    clf = FFNNParityBaseline(width=4, max_iter=2, random_state=0,
                             target_function=SparseParity(8, [1, 4]))
    with pytest.raises(ValueError, match=r"y disagrees with target_function on 300 of 300 "
                                         r"rows of X \(the labels \[-1, 1\]"):
        clf.fit(X, -y)
    assert not hasattr(clf, "classes_")
    wrong = y.copy()
    wrong[[0, 5, 7]] *= -1
    with pytest.raises(ValueError, match="on 3 of 300 rows"):
        clf.fit(X, wrong)
    bits = (y > 0).astype(int)
    with pytest.raises(ValueError, match="on 300 of 300 rows"):
        clf.fit(X, 1 - bits)  # 0/1 labels mean the function's values
    with pytest.raises(ValueError, match="on 300 of 300 rows"):
        clf.fit(X, bits == 0)
    # Labels that agree still work, whatever their form.
    for labels in (y, bits, bits == 1):
        assert clf.fit(X, labels).classes_.tolist() == np.unique(labels).tolist()


@pytest.mark.parametrize("names", [("no", "yes"), ("yes", "no")])
def test_online_fit_with_named_labels_does_not_depend_on_their_sort_order(names):
    """Two labels that are not 0/1 or -1/+1 name the function's values in either order:
    the label y gives where the function is 1 is predicted there."""
    from skxor.boolean import First

    X = make_sparse_parity(200, 6, random_state=0, encoding="01")[0]
    zero, one = names
    y = np.where(X[:, 0] == 1, one, zero)
    clf = FFNNParityBaseline(width=4, max_iter=200, target_accuracy=1.0, random_state=0,
                             target_function=First(6)).fit(X, y)
    assert clf.accuracy_curve_[-1] == 1.0
    np.testing.assert_array_equal(clf.predict(X), y)
    swapped = np.where(y == one, "?", y)  # a third label: 3 classes, refused as ever
    with pytest.raises(ValueError):
        clone(clf).fit(X, np.where(np.arange(200) < 3, "maybe", swapped))
    mixed = y.copy()
    mixed[:4] = np.where(mixed[:4] == one, zero, one)
    with pytest.raises(ValueError, match=r"on 4 of 200 rows .*must name the function's two"):
        clone(clf).fit(X, mixed)


# -- the fresh-data sampler and pickling by value (issue 48, mutation run of _base.py) --


@pytest.mark.parametrize("loss, sign", [("logistic", 1.0), ("logistic", -1.0),
                                        ("squared_error", 1.0), ("squared_error", -1.0)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_fresh_batches_are_spins_labelled_by_the_target_in_the_fit_dtype(loss, sign, dtype):
    """Each fresh batch is n uniform strings as -1/+1 spins in the fit's dtype, and
    targets in the same dtype: 0/1 (logistic) or -1/+1 (squared error) of the target
    function, negated when ``sign`` is -1. Kills the dtype dropped from the spins or
    the targets (float32 batches fed to a float64 fit)."""
    from skxor.estimators._base import FreshSampler

    sampler = FreshSampler(lambda bits: bits[:, 0] ^ bits[:, 2], 5, 0, loss, dtype, None,
                           sign)
    spins, targets = sampler(400)
    assert spins.dtype == dtype and targets.dtype == dtype
    assert spins.shape == (400, 5) and targets.shape == (400,)
    assert set(torch.unique(spins).tolist()) == {-1.0, 1.0}
    bits = (spins < 0).numpy()  # spin -1 is bit 1
    value = sign * (2.0 * (bits[:, 0] ^ bits[:, 2]) - 1.0)
    expected = (value + 1) / 2 if loss == "logistic" else value
    np.testing.assert_array_equal(targets.numpy(), expected)
    assert 0.4 < bits.mean() < 0.6  # uniform strings


def test_a_lambda_target_travels_to_process_workers_by_value():
    """cloudpickle (dask's and joblib's workers) stores functions by value, so an
    estimator fitted online with a lambda target must go to a worker as it is; the
    refusal of unpicklable targets is for the standard pickle only. Kills
    ``_pickles_by_value`` never recognising a pickler that stores by value."""
    import cloudpickle

    X, _ = make_sparse_parity(64, 6, random_state=0)
    clf = FFNNParityBaseline(width=2, max_iter=2, random_state=0,
                             target_function=lambda bits: bits[:, 0]).fit(X)
    loaded = cloudpickle.loads(cloudpickle.dumps(clf))
    np.testing.assert_array_equal(loaded.decision_function(X), clf.decision_function(X))
    np.testing.assert_array_equal(loaded.target_function(np.eye(6, dtype=np.int64)),
                                  np.eye(6)[:, 0])


def test_the_pickling_refusal_says_why_and_what_pickles():
    """The refusal's message whole: the function, the pickler's own error and the kinds
    of function that do pickle."""
    X, _ = make_sparse_parity(64, 6, random_state=0)
    target = lambda bits: bits[:, 0]  # noqa: E731
    clf = FFNNParityBaseline(width=2, max_iter=1, target_function=target).fit(X)
    try:
        pickle.dumps(target)
    except Exception as exc:  # the pickler's own error, quoted in the refusal
        cause = f"{type(exc).__name__}: {exc}"
    with pytest.raises(pickle.PicklingError) as info:
        pickle.dumps(clf)
    assert str(info.value) == (
        f"This estimator cannot be pickled: its target_function {target!r} cannot be "
        f"({cause}). Give a function defined at module level (importable where it is "
        "loaded), a functools.partial of one, or a function of skxor.boolean (e.g. "
        "SparseParity(N, support)); a lambda or local function cannot be pickled.")


@pytest.mark.parametrize("values, expected", [
    (np.array([True, False, True]), [True, False, True]),
    (np.array([1, 0, 1]), [True, False, True]),
    (np.array([1, -1, 1]), [True, False, True]),
    (np.array([1.0, 0.0, 0.0]), [True, False, False]),
    (np.array([-1.0, -1.0, 1.0]), [False, False, True]),
    (torch.tensor([0, 1, 1]), [False, True, True]),
    (torch.tensor([-1, 1, -1]), [False, True, False]),
])
def test_a_target_labels_strings_in_any_of_its_three_forms(values, expected):
    """0/1, -1/+1 and bools (numpy or torch) are read as the function's values, 1, +1
    and True the positive class."""
    from skxor.estimators._base import _function_labels

    out = _function_labels(lambda bits: values, np.zeros((3, 4), dtype=np.uint8))
    assert out.dtype == bool
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("values, bad", [
    (np.array([0, 1, 2, 1]), "[0, 1, 2]"),
    (np.array([0, -1, 1, 1]), "[-1, 0, 1]"),   # 0 and -1: which is the negative class?
    (np.array([0, -1, -1, 0]), "[-1, 0]"),
    (np.array([-2, 1, 1, 1]), "[-2, 1]"),
    (np.array([0.5, 1.0, 0.0, 1.0]), "[0.0, 0.5, 1.0]"),
    (np.array([0, 1, 2, 3, 4, 5, 6, 7])[:4] * 2 - 1, "[-1, 1, 3, 5]"),
    (np.array(["a", "b", "a", "b"]), "<U1"),
])
def test_a_target_with_other_labels_is_refused_with_its_values(values, bad):
    from skxor.estimators._base import _function_labels

    with pytest.raises(ValueError) as info:
        _function_labels(lambda bits: values, np.zeros((4, 3), dtype=np.uint8))
    assert str(info.value) == (
        "target_function must return Boolean labels 0/1, -1/+1 or bools (1, +1 and True "
        f"are the positive class); got {bad}.")


def test_a_target_refusal_lists_at_most_five_values():
    from skxor.estimators._base import _function_labels

    with pytest.raises(ValueError, match=r"got \[0, 1, 2, 3, 4\]\.$"):
        _function_labels(lambda bits: np.arange(7), np.zeros((7, 3), dtype=np.uint8))


def test_a_target_gets_int64_strings_and_its_failures_are_named():
    """The function gets the strings as int64 (so that ``^``, ``2 * X - 1`` work and
    cannot wrap round); a failure inside it and a wrong shape are refused by name."""
    from skxor.estimators._base import _function_labels

    bits = np.array([[0, 1, 1], [1, 1, 0], [0, 0, 0], [1, 0, 1]], dtype=np.uint8)
    seen = []
    out = _function_labels(lambda b: seen.append(b.dtype) or (b[:, 0] ^ b[:, 1]), bits)
    assert seen == [np.int64]
    np.testing.assert_array_equal(out, [True, False, False, True])
    np.testing.assert_array_equal(_function_labels(lambda b: 2 * b[:, 2] - 1, bits),
                                  [True, False, False, True])
    with pytest.raises(ValueError) as info:
        _function_labels(lambda b: 1 / 0, bits)
    assert str(info.value) == ("target_function failed on a batch of 0/1 strings of shape "
                               "(4, 3): ZeroDivisionError: division by zero")
    with pytest.raises(ValueError) as info:
        _function_labels(lambda b: b[:, :2], bits)
    assert str(info.value) == ("target_function must return one label per string, shape "
                               "(4,); got shape (4, 2).")



def test_the_disagreement_refusal_is_whole_for_numeric_and_named_labels():
    """The refusal of a y that contradicts target_function, compared whole: numeric
    labels are read as the function's values; other labels must name its two values."""
    from skxor.boolean import SparseParity

    X, y = make_sparse_parity(300, 8, support=[1, 4], random_state=0)
    clf = FFNNParityBaseline(width=4, max_iter=1, random_state=0,
                             target_function=SparseParity(8, [1, 4]))
    tail = ("With target_function, y only monitors the accuracy: leave it out (fit(X)) to "
            "label X with the function, or pass the labels the function gives.")
    with pytest.raises(ValueError) as info:
        clf.fit(X, -y)
    assert str(info.value) == (
        "y disagrees with target_function on 300 of 300 rows of X (the labels [-1, 1] are "
        "read as the function's values: 1 where it is 1, -1 where it is 0). " + tail)
    named = np.where(y > 0, "odd", "even")
    named[[0, 5, 7]] = np.where(named[[0, 5, 7]] == "odd", "even", "odd")
    with pytest.raises(ValueError) as info:
        clf.fit(X, named)
    assert str(info.value) == (
        "y disagrees with target_function on 3 of 300 rows of X (the labels ['even', "
        "'odd'] must name the function's two values, one label per value). " + tail)


def test_integer_labels_other_than_0_1_name_the_functions_values_in_either_order():
    """y in {1, 2} is a pair of names, not the function's values: 2 where the function
    is 0 is accepted (predicted there), not refused as a contradiction."""
    from skxor.boolean import SparseParity

    X, y = make_sparse_parity(120, 6, support=[0, 3], random_state=0)
    f = SparseParity(6, [0, 3])
    named = np.where(f(X) == 1, 1, 2)
    clf = FFNNParityBaseline(width=4, max_iter=1, random_state=0, target_function=f)
    clf.fit(X, named)
    np.testing.assert_array_equal(clf.classes_, [1, 2])


# -- the fresh-data fit, second mutation run of _base.py (issue 48) ----------------------


def _first_bit_data(n=120):
    """-1/+1 strings (spin -1 is bit 1) and their 0/1 bits: the first bit is a function
    a complement of the strings changes, so reading X in the wrong encoding shows."""
    X = make_sparse_parity(n, 6, random_state=0, encoding="pm1")[0]
    return X, (X == -1).astype(np.int64)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("loss", ["logistic", "squared_error"])
@pytest.mark.parametrize("labels", ["0/1", "named, 1 first", "named, 0 first"])
def test_fresh_batches_target_the_class_y_gives_where_the_function_is_one(labels, loss,
                                                                         dtype):
    """An online fit on -1/+1 strings labelled by y: the function reads X's strings in
    X's encoding (so y agrees with it), and every fresh batch after the fit is in the
    estimator's dtype with targets saying the class y gives where the function is 1,
    whichever way its labels sort: the positive target (1, or +1 for squared error)
    where that class is ``classes_[1]``, the negative one elsewhere."""
    from skxor.boolean import First

    X, bits = _first_bit_data()
    one, zero = {"0/1": (1, 0), "named, 1 first": ("a", "b"),
                 "named, 0 first": ("b", "a")}[labels]
    y = np.where(bits[:, 0] == 1, one, zero)
    clf = FFNNParityBaseline(width=2, max_iter=1, random_state=0, loss=loss, dtype=dtype,
                             target_function=First(6)).fit(X, y)
    sampler = clf._net.iterator_train__sampler
    spins, targets = sampler(300)
    assert spins.dtype == targets.dtype == getattr(torch, dtype)
    drawn = (spins < 0).numpy()  # spin -1 is bit 1
    positive = (drawn[:, 0] == 1) == (clf.classes_[1] == one)
    assert 0 < positive.sum() < 300
    expected = positive if loss == "logistic" else 2.0 * positive - 1.0
    np.testing.assert_array_equal(targets.numpy(), expected)


def test_binarized_inputs_are_labelled_by_the_function_of_their_bits():
    """With ``binarize``, the function labels the binarized strings of real-valued X:
    y of those bits is accepted, the same y on the complemented bits refused, and the
    fit is the one on the 0/1 strings themselves."""
    from skxor.boolean import First

    _, bits = _first_bit_data()
    real = np.where(bits == 1, 0.7, -0.4) + np.random.default_rng(0).uniform(-0.2, 0.2,
                                                                              bits.shape)
    clf = FFNNParityBaseline(width=2, max_iter=2, random_state=0, binarize=0.0,
                             target_function=First(6))
    fitted = clone(clf).fit(real, bits[:, 0])
    assert fitted.encoding_ == "binarized"
    with pytest.raises(ValueError, match=f"on {len(bits)} of {len(bits)} rows"):
        clone(clf).fit(real, 1 - bits[:, 0])
    on_bits = clone(clf).set_params(binarize=None).fit(bits, bits[:, 0])
    np.testing.assert_array_equal(fitted.decision_function(real),
                                  on_bits.decision_function(bits))


def test_leaving_y_out_is_passing_the_functions_labels():
    """fit(X) with a target labels X by the function: the same fit, the same monitoring
    accuracy each epoch, as fit(X, y) with y the function's 0/1 labels (for each loss)."""
    from skxor.boolean import First

    X, bits = _first_bit_data()
    for loss in ("logistic", "squared_error"):
        clf = FFNNParityBaseline(width=2, max_iter=4, random_state=0, loss=loss,
                                 target_accuracy=1.0, target_function=First(6))
        without = clone(clf).fit(X)
        given_y = clone(clf).fit(X, bits[:, 0])
        assert without.classes_.tolist() == given_y.classes_.tolist() == [0, 1]
        assert len(without.accuracy_curve_) > 0
        assert without.accuracy_curve_ == given_y.accuracy_curve_
        np.testing.assert_array_equal(without.decision_function(X),
                                      given_y.decision_function(X))
        # The curve is the accuracy on X against the function's labels.
        assert without.accuracy_curve_[-1] == without.score(X, bits[:, 0])


def test_the_pickling_refusal_is_the_same_from_a_shallow_stack():
    """A thread's stack is a few frames deep: the standard pickle there must still get
    the library's refusal of an unpicklable target, not pickle's own error about a
    lambda (no pickler storing by value is running)."""
    import threading

    X, _ = make_sparse_parity(64, 6, random_state=0)
    clf = FFNNParityBaseline(width=2, max_iter=1, random_state=0,
                             target_function=lambda bits: bits[:, 0]).fit(X)
    caught = []

    def dump():
        try:
            pickle.dumps(clf)
        except Exception as exc:  # reported to the test's thread
            caught.append(exc)

    worker = threading.Thread(target=dump)
    worker.start()
    worker.join()
    assert len(caught) == 1 and isinstance(caught[0], pickle.PicklingError)
    assert str(caught[0]).startswith("This estimator cannot be pickled: its target_function")


def test_without_a_sign_fresh_batches_are_labelled_by_the_functions_own_values():
    """The sampler's and the fresh iterator's default sign keeps the function's values:
    the logistic target is 1 exactly where the function is 1."""
    from skxor.boolean import First
    from skxor.estimators._base import FreshSampler

    sampler = FreshSampler(First(5), 5, 0, "logistic", torch.float64, None)
    iterator = FFNNParityBaseline(target_function=First(5), batch_size=8)._fresh_iterator(
        64, 5, 0, torch.float64, None)
    assert iterator["iterator_train__n_batches"] == 8
    for draw in (sampler, iterator["iterator_train__sampler"]):
        spins, targets = draw(200)
        np.testing.assert_array_equal(targets.numpy(), (spins[:, 0] < 0).numpy())
