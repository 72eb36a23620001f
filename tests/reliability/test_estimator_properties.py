"""Estimator properties under hypothesis: orientation, failed refits, encodings, extremes.

Each entry point counts its cases in the terminal summary ("reliability
cases tried"). The example counts are kept small so the default profile
stays fast; ``--hypothesis-profile=skxor-thorough`` runs ten times more.
"""

import pickle
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from skxor import (
    BooleanTransformerClassifier,
    FFNNParityBaseline,
    SensitivityProfiler,
    SparseXORTransformer,
)
from skxor.datasets import make_sparse_parity


def _examples(n):
    """``n`` examples in the default profile, ten times as many when thorough."""
    return settings(max_examples=n * settings().max_examples // 100)


LABEL_NAMES = st.sampled_from([(-1, 1), (1, -1), (0, 1), (1, 0), ("a", "b"), ("b", "a"),
                               ("yes", "no"), (2, -7), (True, False)])


# -- label orientation and renaming -------------------------------------------------


@_examples(15)
@given(
    seed=st.integers(0, 1000),
    d=st.integers(4, 10),
    attention=st.sampled_from(["softmax", "linear", "erf"]),
    names=LABEL_NAMES,
)
def test_sparse_xor_is_equivariant_under_label_renaming(seed, d, attention, names,
                                                        reliability_cases):
    # Learnable problems: the fit on renamed labels predicts the renamed
    # predictions of the fit on the paper's labels, either orientation.
    X, y = make_sparse_parity(2000, d, random_state=seed)
    paper = SparseXORTransformer(m=8, attention=attention, random_state=seed).fit(X, y)
    assert paper.output_sign_ == 1
    assume(paper.score(X, y) >= 0.95)  # the property is about problems the model learns
    minus, plus = names
    renamed = np.where(y > 0, plus, minus)
    clf = SparseXORTransformer(m=8, attention=attention, random_state=seed).fit(X, renamed)
    expected = np.where(paper.predict(X) > 0, plus, minus)
    np.testing.assert_array_equal(clf.predict(X), expected)
    assert clf.output_sign_ == (1 if clf.classes_[1] == plus else -1)
    reliability_cases["SparseXORTransformer label renaming"]["valid result"] += 1


TORCH_FACTORIES = {
    "FFNNParityBaseline": lambda: FFNNParityBaseline(width=4, max_iter=2, batch_size=16,
                                                     random_state=0),
    "BooleanTransformerClassifier": lambda: BooleanTransformerClassifier(
        d_model=4, n_layers=1, n_heads=2, max_iter=2, batch_size=16, random_state=0
    ),
    "SparseXORTransformer": lambda: SparseXORTransformer(m=4, random_state=0),
}


@pytest.mark.parametrize("entry", sorted(TORCH_FACTORIES))
@_examples(10)
@given(seed=st.integers(0, 1000), names=LABEL_NAMES)
def test_order_preserving_renaming_changes_nothing(entry, seed, names, reliability_cases):
    # Labels renamed without changing which sorts first: bit-identical values.
    X, y = make_sparse_parity(64, 5, random_state=seed)
    minus, plus = np.unique(names)
    base = TORCH_FACTORIES[entry]().fit(X, y)
    renamed = TORCH_FACTORIES[entry]().fit(X, np.where(y > 0, plus, minus))
    np.testing.assert_array_equal(base.decision_function(X), renamed.decision_function(X))
    reliability_cases[f"{entry} label renaming"]["valid result"] += 1


# -- refit after a failed fit ----------------------------------------------------------

FAILURES = {
    "diverging parameters": None,
    "NaN in X": lambda X, y: (np.where(np.arange(X.size).reshape(X.shape) == 3, np.nan, X), y),
    "other n_features": lambda X, y: (X[:, :-1], y),
    "three classes": lambda X, y: (X, np.arange(len(y)) % 3),
    "one class": lambda X, y: (X, np.ones_like(y)),
    "non-binary X": lambda X, y: (X * 2, y),
}

DIVERGING = {
    "SparseXORTransformer": {"attention": "linear", "step_length": 1e30},
    "FFNNParityBaseline": {"learning_rate": 1e30, "optimizer": "sgd",
                           "loss": "squared_error"},
    "BooleanTransformerClassifier": {"init": "normal", "init_scale": 1e30,
                                     "loss": "squared_error"},
    "SensitivityProfiler": {"estimator": SparseXORTransformer(m=2, attention="linear",
                                                              step_length=1e30)},
}

REFIT_FACTORIES = dict(TORCH_FACTORIES)
REFIT_FACTORIES["SensitivityProfiler"] = lambda: SensitivityProfiler(
    SparseXORTransformer(m=2, random_state=0)
)


@pytest.mark.parametrize("entry", sorted(REFIT_FACTORIES))
@_examples(10)
@given(seed=st.integers(0, 1000), failure=st.sampled_from(sorted(FAILURES)),
       fitted=st.booleans())
def test_failed_fit_changes_nothing(entry, seed, failure, fitted, reliability_cases):
    X, y = make_sparse_parity(64, 5, random_state=seed)
    assume(fitted or failure != "other n_features")  # a first fit may take any width
    est = REFIT_FACTORIES[entry]()
    if fitted:
        est.fit(X, y)
    if failure == "diverging parameters":
        est.set_params(**DIVERGING[entry])
        bad_X, bad_y = X, y
    else:
        bad_X, bad_y = FAILURES[failure](X, y)
    before = pickle.dumps(vars(est))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises((ValueError, TypeError)):
            est.fit(bad_X, bad_y)
    assert pickle.dumps(vars(est)) == before
    reliability_cases[f"{entry} failed refit"]["clear error"] += 1


# -- inner estimator and profiler encodings ----------------------------------------------


@_examples(25)
@given(
    seed=st.integers(0, 1000),
    n_bits=st.integers(2, 5),
    inner_binarize=st.one_of(st.none(), st.floats(-3, 3, allow_nan=False)),
    x_encoding=st.sampled_from(["bits", "spins", "bool", "real"]),
    inner=st.sampled_from(["SparseXORTransformer", "FFNNParityBaseline"]),
)
def test_profiler_agrees_with_inner(seed, n_bits, inner_binarize, x_encoding, inner,
                                    reliability_cases):
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2, size=(48, n_bits))
    if x_encoding == "bits":
        X = bits.astype(np.int8)
    elif x_encoding == "spins":
        X = (1 - 2 * bits).astype(np.int8)
    elif x_encoding == "bool":
        X = bits.astype(bool)
    else:
        X = np.where(bits == 1, 1, -1) * rng.uniform(0.5, 2.0, size=bits.shape)
    y = bits[:, 0] ^ bits[:, 1]
    if inner == "SparseXORTransformer":
        model = SparseXORTransformer(m=3, binarize=inner_binarize, random_state=seed)
    else:
        model = FFNNParityBaseline(width=3, max_iter=2, batch_size=None,
                                   binarize=inner_binarize, random_state=seed)
    binarize = 0.0 if x_encoding == "real" else None
    prof = SensitivityProfiler(model, binarize=binarize).fit(X, y)
    inner_X = bits.astype(np.uint8) if x_encoding == "real" else X
    np.testing.assert_array_equal(prof.predict(X), prof.estimator_.predict(inner_X))
    assert prof.score(X, y) == prof.estimator_.score(inner_X, y)
    reliability_cases["SensitivityProfiler inner encodings"]["valid result"] += 1


# -- extreme step sizes and query norms (estimator side) -----------------------------------


@_examples(30)
@given(
    seed=st.integers(0, 1000),
    attention=st.sampled_from(["softmax", "linear", "erf"]),
    exponent=st.floats(-300, 300),
    normalized=st.booleans(),
    max_iter=st.integers(1, 3),
    dtype=st.sampled_from(["float32", "float64"]),
)
def test_extreme_steps_give_finite_output_or_name_the_step(seed, attention, exponent,
                                                           normalized, max_iter, dtype,
                                                           reliability_cases):
    X, y = make_sparse_parity(200, 6, random_state=seed)
    size = 10.0 ** exponent
    params = {"step_length": size} if normalized else {"learning_rate": size}
    name = "step_length" if normalized else "learning_rate"
    clf = SparseXORTransformer(m=4, attention=attention, max_iter=max_iter, dtype=dtype,
                               random_state=seed, **params)
    try:
        clf.fit(X, y)
    except ValueError as exc:
        assert name in str(exc), str(exc)
        reliability_cases["SparseXORTransformer extreme steps"]["clear error"] += 1
        return
    assert np.isfinite(clf.queries_).all()
    assert np.isfinite(clf.decision_function(X)).all()
    reliability_cases["SparseXORTransformer extreme steps"]["valid result"] += 1
