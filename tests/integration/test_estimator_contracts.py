"""Contracts every skxor estimator keeps (issue 11: no silent wrong answers).

* the profiler agrees with its inner classifier for every inner ``binarize``
  and every encoding of X;
* every classifier learns either label orientation, and renamed labels;
* a failed fit leaves the estimator exactly as it was;
* overflowing read-outs and initialisations raise errors naming the parameter;
* integer parameters refuse booleans, unsupported devices are named;
* ``BooleanTransformerClassifier`` is bit-identical across thread counts.
"""

import pickle

import numpy as np
import pytest
import torch
from sklearn.model_selection import cross_val_score
from sklearn.tree import DecisionTreeClassifier

from skxor import (
    BooleanTransformerClassifier,
    FFNNParityBaseline,
    SensitivityProfiler,
    SparseXORTransformer,
)
from skxor.datasets import make_sparse_parity
from skxor.utils import all_estimators

# -- item 1: profiler and inner classifier agree ----------------------------------

INNER_BINARIZE = [None, -0.5, 0.0, 0.5, 5]


def _x_in(encoding, bits, rng):
    if encoding == "bits":
        return bits.astype(np.int8)
    if encoding == "spins":
        return (1 - 2 * bits).astype(np.int8)
    # real values: above 0.0 is bit 1 for the profiler's binarize=0.0
    magnitude = rng.uniform(0.1, 3.0, size=bits.shape)
    return np.where(bits == 1, magnitude, -magnitude)


def _inner(kind, binarize):
    if kind == "ffnn":
        return FFNNParityBaseline(width=4, max_iter=3, batch_size=None, binarize=binarize,
                                  random_state=0)
    return SparseXORTransformer(m=4, binarize=binarize, random_state=0)


@pytest.mark.parametrize("kind", ["ffnn", "sparse_xor"])
@pytest.mark.parametrize("x_encoding", ["bits", "spins", "real"])
@pytest.mark.parametrize("inner_binarize", INNER_BINARIZE)
def test_profiler_agrees_with_its_inner_classifier(kind, x_encoding, inner_binarize):
    rng = np.random.default_rng(0)
    bits = rng.integers(0, 2, size=(64, 4))
    X = _x_in(x_encoding, bits, rng)
    y = bits[:, 0] ^ bits[:, 1]
    binarize = 0.0 if x_encoding == "real" else None
    prof = SensitivityProfiler(_inner(kind, inner_binarize), binarize=binarize).fit(X, y)
    # What the inner classifier was fitted on: X as given, or the bits X > 0.
    inner_X = bits.astype(np.uint8) if x_encoding == "real" else X
    expected = prof.estimator_.predict(inner_X)
    np.testing.assert_array_equal(prof.predict(X), expected)
    assert prof.score(X, y) == prof.estimator_.score(inner_X, y)
    np.testing.assert_array_equal(
        prof.decision_function(X), prof.estimator_.decision_function(inner_X)
    )
    # transform counts the flips that change that same prediction.
    flips = np.zeros(X.shape[0], dtype=int)
    for i in range(X.shape[1]):
        flipped = bits.copy()
        flipped[:, i] ^= 1
        flipped_X = _x_in(x_encoding, flipped, np.random.default_rng(1))
        flips += prof.predict(flipped_X) != prof.predict(X)
    np.testing.assert_array_equal(prof.transform(X)[:, 0], flips)


def test_issue_example_profiler_scores_like_inner():
    X = (1 - 2 * np.random.default_rng(0).integers(0, 2, (400, 5))).astype(np.int8)
    y = (X[:, 0] == 1) & (X[:, 1] == 1)
    for binarize in (-0.5, 0.0, 0.5, 5):
        p = SensitivityProfiler(
            FFNNParityBaseline(width=16, max_iter=40, binarize=binarize, random_state=0)
        ).fit(X, y)
        assert p.score(X, y) == p.estimator_.score(X, y)


# -- item 2: label orientation --------------------------------------------------------


def _renamed(y):
    # "pos" sorts after "neg" for y=+1 ... and "a" before "b" the other way round.
    return np.where(y > 0, "a", "b")


def test_sparse_xor_learns_either_orientation_exactly_mirrored():
    X, y = make_sparse_parity(4000, 12, random_state=0)
    paper = SparseXORTransformer(m=16, random_state=0).fit(X, y)
    assert paper.output_sign_ == 1 and paper.score(X, y) == 1.0
    for labels in (-y, _renamed(y)):
        clf = SparseXORTransformer(m=16, random_state=0).fit(X, labels)
        assert clf.output_sign_ == -1
        # The paper model trained on -y, negated: the exact mirror.
        np.testing.assert_array_equal(clf.queries_, paper.queries_)
        np.testing.assert_array_equal(clf.decision_function(X), -paper.decision_function(X))
        assert clf.score(X, labels) == 1.0


@pytest.mark.parametrize("attention", ["softmax", "linear", "erf"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_sparse_xor_paper_orientation_is_the_unchanged_paper_fit(attention, seed):
    # On make_sparse_parity labels the fit is the paper orientation's fit,
    # bit for bit, including mini-batch training.
    X, y = make_sparse_parity(3000, 10, random_state=seed)
    for kwargs in ({}, {"max_iter": 3, "batch_size": 500, "step_length": 20.0}):
        clf = SparseXORTransformer(m=8, attention=attention, random_state=seed, **kwargs)
        clf.fit(X, y)
        start = clf._start_fit(X, y)
        rng = start.rng
        from skxor._utils._sphere import initial_queries, sphere_keys

        keys = sphere_keys(10, 8, rng)
        queries = initial_queries(2, 8, "antisymmetric", rng)
        model, curve, _ = clf._train(start, keys, queries, start.y_spins, rng,
                                     share_mirror=True)
        assert clf.output_sign_ == 1
        np.testing.assert_array_equal(clf.queries_, model.queries.detach().numpy().astype(float))
        assert clf.loss_curve_ == curve


@pytest.mark.parametrize("seed", [1, 3])
@pytest.mark.parametrize(
    "kwargs", [{}, {"max_iter": 3, "batch_size": 700, "step_length": 20.0}]
)
def test_sparse_xor_mirror_fit_equals_an_independent_fit_on_negated_labels(seed, kwargs):
    # The mirror fit takes its first step from the paper pass's shared
    # products; it must be the fit on -y all the same, bit for bit: on
    # +x_i x_j labels the mirror is kept, and the paper fit of -y is the
    # independent fit it must equal.
    X, y = make_sparse_parity(3000, 10, random_state=seed)
    clf = SparseXORTransformer(m=8, random_state=seed, **kwargs).fit(X, -y)
    independent = SparseXORTransformer(m=8, random_state=seed, **kwargs).fit(X, y)
    assert clf.output_sign_ == -1 and independent.output_sign_ == 1
    np.testing.assert_array_equal(clf.queries_, independent.queries_)
    np.testing.assert_array_equal(clf.attention_, independent.attention_)
    assert clf.loss_curve_ == independent.loss_curve_


def test_sparse_xor_unlearned_one_step_fit_makes_one_pass(monkeypatch):
    # At chance the orientation check fits the mirror too; its one step
    # reuses the paper pass's products, so the data is read once, and the
    # (rejected) mirror changes nothing about the result.
    X, y = make_sparse_parity(2000, 64, random_state=0)
    y = np.random.RandomState(1).permutation(y)  # no signal to learn
    passes = []
    original = SparseXORTransformer._loss_and_gradient

    def counting(self, *args, **kwargs):
        passes.append(kwargs.get("mirror", False))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(SparseXORTransformer, "_loss_and_gradient", counting)
    clf = SparseXORTransformer(m=8, random_state=0).fit(X, y)
    assert clf.output_sign_ == 1 and clf.score(X, y) < 0.9  # the mirror was tried
    assert passes == [True]


def _ffnn(seed):
    return FFNNParityBaseline(width=16, max_iter=40, random_state=seed)


def _btc(seed):
    return BooleanTransformerClassifier(
        d_model=16, n_layers=1, n_heads=2, learning_rate=1e-2, max_iter=40, batch_size=32,
        random_state=seed,
    )


@pytest.mark.parametrize("make", [_ffnn, _btc], ids=["ffnn", "boolean_transformer"])
def test_torch_classifiers_learn_either_orientation(make):
    # A learnable 2-sparse parity on 6 bits; y, -y and renamed labels must be
    # learned equally well.
    X, y = make_sparse_parity(600, 6, support=[1, 4], random_state=0)
    X_test, y_test = make_sparse_parity(400, 6, support=[1, 4], random_state=1)
    scores = {}
    for name, f in (("y", lambda v: v), ("-y", lambda v: -v), ("renamed", _renamed)):
        scores[name] = [make(seed).fit(X, f(y)).score(X_test, f(y_test)) for seed in range(3)]
    # Not every seed learns; each orientation learns on most seeds, and the
    # mean accuracies agree (a fixed-sign model would sit near 0.5 on one).
    for name, values in scores.items():
        assert np.median(values) >= 0.9, (name, scores)
    means = [np.mean(v) for v in scores.values()]
    assert max(means) - min(means) <= 0.1, scores


# -- item 3: a failed fit changes nothing ----------------------------------------------


def _state(est):
    return pickle.dumps({k: v for k, v in vars(est).items()})


FAILING_REFITS = {
    "sparse_xor": (
        lambda: SparseXORTransformer(m=4, random_state=0),
        {"attention": "linear", "step_length": 1e25},
    ),
    "ffnn": (
        lambda: FFNNParityBaseline(width=4, max_iter=2, loss="squared_error", random_state=0),
        {"learning_rate": 1e30, "optimizer": "sgd"},
    ),
    "boolean_transformer": (
        lambda: BooleanTransformerClassifier(
            d_model=8, n_layers=1, n_heads=2, max_iter=2, loss="squared_error", random_state=0
        ),
        {"init": "normal", "init_scale": 1e30},
    ),
    "profiler": (
        lambda: SensitivityProfiler(SparseXORTransformer(m=4, random_state=0)),
        {"estimator": SparseXORTransformer(m=4, attention="linear", step_length=1e25)},
    ),
}


@pytest.mark.parametrize("name", sorted(FAILING_REFITS))
def test_failed_fit_leaves_estimator_unchanged(name):
    make, diverging = FAILING_REFITS[name]
    X, y = make_sparse_parity(300, 6, random_state=0)
    est = make()
    # Unfitted stays unfitted.
    before = _state(est.set_params(**diverging))
    with pytest.raises(ValueError):
        est.fit(X, y)
    assert _state(est) == before
    # A fitted estimator keeps its fit through a diverging refit ...
    est = make().fit(X, y)
    expected = est.predict(X)
    est.set_params(**diverging)
    before = _state(est)
    X_other = np.where(X[:, :5] > 0, 0, 1)  # another encoding and width, other labels
    with pytest.raises(ValueError):
        est.fit(np.hstack([X_other, X_other[:, :1]]), np.where(y > 0, "u", "v"))
    assert _state(est) == before
    np.testing.assert_array_equal(est.predict(X), expected)
    # ... and through a refit that fails validation with another n_features.
    with pytest.raises(ValueError):
        est.fit(X[:, :3].astype(float) + 0.5, y)
    assert _state(est) == before
    np.testing.assert_array_equal(est.predict(X), expected)


# -- items 4 and 12: overflow is refused, naming the parameter -------------------------


@pytest.mark.parametrize("attention", ["linear", "erf"])
def test_huge_step_length_is_refused_not_inf(attention):
    X, y = make_sparse_parity(500, 10, random_state=0)
    clf = SparseXORTransformer(m=4, attention=attention, step_length=1e25, random_state=0)
    if attention == "erf":
        # erf saturates: the weights stay in [0, 2/d], the output finite.
        clf.fit(X, y)
        assert np.isfinite(clf.decision_function(X)).all()
        return
    with pytest.raises(ValueError, match="step_length"):
        clf.fit(X, y)


def test_plain_learning_rate_overflow_names_learning_rate():
    X, y = make_sparse_parity(500, 10, random_state=0)
    with pytest.raises(ValueError, match="learning_rate"):
        SparseXORTransformer(m=4, attention="linear", learning_rate=1e30).fit(X, y)


def test_step_length_overflow_names_step_length():
    X, y = make_sparse_parity(200, 6, random_state=0)
    with pytest.raises(ValueError, match="step_length") as info:
        SparseXORTransformer(step_length=1e300).fit(X, y)
    assert "learning_rate" not in str(info.value)


def test_init_scale_overflow_names_init_scale():
    X, y = make_sparse_parity(200, 6, random_state=0)
    clf = BooleanTransformerClassifier(
        d_model=8, n_layers=1, n_heads=2, init="normal", init_scale=1e30, max_iter=2,
        random_state=0,
    )
    with pytest.raises(ValueError, match="init_scale") as info:
        clf.fit(X, y)
    assert "learning_rate" not in str(info.value)


# -- item 13: booleans are not integers; unsupported devices ------------------------------


def _integer_params(est):
    from skxor._utils._validation import Integers

    return [
        name
        for name, constraints in est._parameter_constraints.items()
        if any(isinstance(c, Integers) for c in constraints)
    ]


@pytest.mark.parametrize("Estimator", [cls for _, cls in all_estimators()])
def test_booleans_are_not_integers(Estimator):
    names = _integer_params(Estimator())
    assert names, "every estimator has integer parameters"
    X, y = make_sparse_parity(60, 6, random_state=0)
    for name in names:
        with pytest.raises(ValueError, match=f"'{name}' parameter.*not a bool.*Got True"):
            Estimator(**{name: True}).fit(X, y)


@pytest.mark.parametrize("Estimator", [SparseXORTransformer, FFNNParityBaseline,
                                       BooleanTransformerClassifier])
@pytest.mark.parametrize("device", ["meta", torch.device("meta"), "xla"])
def test_unsupported_devices_are_named(Estimator, device):
    X, y = make_sparse_parity(60, 6, random_state=0)
    with pytest.raises(ValueError, match="not supported|not a torch device"):
        Estimator(device=device).fit(X, y)


# -- item 6: bit-identical across thread counts and n_jobs ------------------------------


def test_boolean_transformer_is_thread_count_independent():
    X, y = make_sparse_parity(256, 8, random_state=0)
    previous = torch.get_num_threads()
    values = []
    try:
        for threads in (1, 2):
            torch.set_num_threads(threads)
            clf = BooleanTransformerClassifier(
                d_model=32, n_layers=2, n_heads=4, max_iter=3, random_state=0
            ).fit(X, y)
            values.append(clf.decision_function(X))
    finally:
        torch.set_num_threads(previous)
    np.testing.assert_array_equal(values[0], values[1])
    assert torch.get_num_threads() == previous


def test_boolean_transformer_cross_val_score_is_n_jobs_independent():
    X, y = make_sparse_parity(240, 8, random_state=0)
    clf = BooleanTransformerClassifier(d_model=16, n_layers=1, n_heads=2, max_iter=3,
                                       random_state=0)
    kwargs = dict(cv=3, scoring="roc_auc")
    one = cross_val_score(clf, X, y, n_jobs=1, **kwargs)
    two = cross_val_score(clf, X, y, n_jobs=2, **kwargs)
    np.testing.assert_array_equal(one, two)


def test_all_estimators_lists_the_public_estimators():
    names = [name for name, _ in all_estimators()]
    assert names == sorted(names)
    assert set(names) == {
        "BooleanTransformerClassifier", "FFNNParityBaseline", "KParityTransformer",
        "SensitivityProfiler", "SparseXORTransformer",
    }
    classifiers = {name for name, _ in all_estimators(type_filter="classifier")}
    assert "SparseXORTransformer" in classifiers
    transformers = {name for name, _ in all_estimators(type_filter="transformer")}
    assert transformers == {"SensitivityProfiler"}
    assert DecisionTreeClassifier not in dict(all_estimators()).values()

