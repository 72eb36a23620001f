"""Every public estimator, generator and function on messy input: a valid result or a clear error."""

import warnings

import numpy as np
import pytest
from _cases import assert_finite, binary_problems, check_outcome
from hypothesis import given
from hypothesis import strategies as st

from skxor import (
    BooleanTransformerClassifier,
    FFNNParityBaseline,
    SensitivityProfiler,
    SparseXORTransformer,
)
from skxor.datasets import make_sparse_parity
from skxor.sensitivity import sensitivity_profile
from skxor.theory import population_loss, population_step

ESTIMATORS = {
    "SparseXORTransformer": (lambda b: SparseXORTransformer(m=3, binarize=b, random_state=0), 2),
    "SparseXORTransformer(erf, minibatch)": (
        lambda b: SparseXORTransformer(
            m=2, attention="erf", learning_rate=1e6, max_iter=2, batch_size=3, binarize=b,
            random_state=0,
        ),
        2,
    ),
    "BooleanTransformerClassifier": (
        lambda b: BooleanTransformerClassifier(
            d_model=4, n_layers=1, n_heads=2, layer_norm_eps=0.0, max_iter=2, batch_size=4,
            binarize=b, random_state=0,
        ),
        1,
    ),
    "FFNNParityBaseline": (
        lambda b: FFNNParityBaseline(width=2, max_iter=2, batch_size=4, binarize=b, random_state=0),
        1,
    ),
    "SensitivityProfiler": (
        lambda b: SensitivityProfiler(
            SparseXORTransformer(m=2, random_state=0), binarize=b, random_state=0
        ),
        2,
    ),
}


def _fit_and_use(estimator, X, y, entry):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        estimator.fit(X, y)
        pred = estimator.predict(X)
        assert len(pred) == len(y)
        assert set(np.asarray(pred).tolist()) <= set(estimator.classes_.tolist())
        for method in ("decision_function", "transform"):
            if hasattr(estimator, method):
                assert_finite(getattr(estimator, method)(X), entry)
    return estimator


@pytest.mark.parametrize("entry", sorted(ESTIMATORS))
@given(case=binary_problems())
def test_estimators_on_messy_input(entry, case, reliability_cases):
    X, y, binarize, problems = case
    factory, min_features = ESTIMATORS[entry]
    d = np.shape(X)[1] if len(np.shape(X)) == 2 else 0
    if 0 < d < min_features:  # e.g. two heads need two positions
        problems = problems | {"too few features"}
    check_outcome(lambda: _fit_and_use(factory(binarize), X, y, entry), entry, problems,
                  reliability_cases)


@st.composite
def parity_arguments(draw):
    """Arguments of make_sparse_parity: half valid, half with something wrong."""
    if draw(st.booleans()):
        d = draw(st.integers(1, 12))
        k = draw(st.integers(1, d))
        support = draw(st.one_of(st.none(), st.permutations(range(d)).map(lambda p: p[:k])))
        return (draw(st.integers(1, 30)), d, k, draw(st.sampled_from([0.0, 0.1, 0.49])),
                draw(st.sampled_from(["pm1", "01"])), support)
    return (
        draw(st.integers(-2, 30)), draw(st.integers(-2, 12)), draw(st.integers(-1, 14)),
        draw(st.sampled_from([0.0, 0.1, 0.5, -0.1, float("nan"), 1.5])),
        draw(st.sampled_from(["pm1", "01", "bits", None])),
        draw(st.one_of(st.none(), st.lists(st.integers(-2, 14), min_size=0, max_size=4))),
    )


@given(args=parity_arguments(), seed=st.integers(0, 100))
def test_make_sparse_parity_arguments(args, seed, reliability_cases):
    n, d, k, noise, encoding, support = args
    def call():
        return make_sparse_parity(n, d, k=k, support=support, noise=noise, encoding=encoding,
                                  return_support=True, random_state=seed)

    problems = set()
    if n < 1 or d < 1 or k < 1 or k > max(d, 0):
        problems.add("bad parameter")
    if not (0 <= noise < 0.5):
        problems.add("bad parameter")
    if encoding not in ("pm1", "01"):
        problems.add("bad parameter")
    if support is not None:
        if (len(support) != k or len(set(support)) != len(support)
                or any(s < 0 or s >= d for s in support) or not support):
            problems.add("bad parameter")
    words = ["n_samples", "n_features", "k=", "k ", "'k' parameter", "noise", "encoding",
             "support", "larger than"]
    try:
        X, y, S = call()
    except (ValueError, TypeError) as exc:
        assert problems, f"valid arguments rejected: {exc!r}"
        assert any(w in str(exc) for w in words), str(exc)
        reliability_cases["make_sparse_parity"]["clear error"] += 1
        return
    assert not problems
    assert X.shape == (n, d) and y.shape == (n,) and set(np.unique(y)) <= {-1, 1}
    reliability_cases["make_sparse_parity"]["valid result"] += 1


@given(
    d=st.integers(2, 40),
    m=st.integers(1, 6),
    scale=st.sampled_from([0.0, 1e-8, 1.0, 1e3, 1e8, 1e12]),
    attention=st.sampled_from(["softmax", "linear", "erf"]),
    dtype=st.sampled_from(["float32", "float64"]),
    step=st.sampled_from(["normalized", 1e-12, 1.0, 1e12]),
    corrupt=st.sampled_from([None, None, "nan", "shape"]),
    seed=st.integers(0, 1000),
)
def test_theory_on_extreme_queries(d, m, scale, attention, dtype, step, corrupt, seed,
                                   reliability_cases):
    rng = np.random.default_rng(seed)
    keys = rng.normal(size=(d, m))
    keys /= np.linalg.norm(keys, axis=1, keepdims=True)
    queries = scale * rng.normal(size=(2, m))
    problems = set()
    if corrupt == "nan":
        queries[0, 0] = np.nan
        problems.add("nan")
    elif corrupt == "shape":
        queries = queries[:, :-1] if m > 1 else queries[0]  # H = 1 is valid: drop a dimension
        problems.add("bad parameter")
    PROBLEM_EXTRA = {"bad parameter": ["m=", "disagree", "two heads", "shape"]}

    def call():
        new = population_step(queries, keys, [0, d - 1], attention, learning_rate=step,
                              dtype=dtype)
        loss = population_loss(new, keys, [0, d - 1], attention, dtype=dtype)
        return new, loss

    try:
        new, loss = call()
    except (ValueError, TypeError) as exc:
        words = {"nan": ["NaN"], "bad parameter": PROBLEM_EXTRA["bad parameter"]}
        overflow = "overflow" in str(exc)
        assert problems or overflow, f"valid input rejected: {exc!r}"
        assert overflow or any(w in str(exc) for p in problems for w in words[p]), str(exc)
        reliability_cases["theory.population_step"]["clear error"] += 1
        return
    assert not problems
    assert np.isfinite(new).all() and np.isfinite(loss)
    reliability_cases["theory.population_step"]["valid result"] += 1


def _parity(X):
    return np.asarray(X).sum(axis=1) % 2


@given(
    n_bits=st.integers(-1, 12),
    method=st.sampled_from(["auto", "exhaustive", "sampled", "sampled", "magic"]),
    n_samples=st.sampled_from([1, 50, 50, 0]),
    kind=st.sampled_from(["parity", "parity", "constant", "nonbinary", "wrong length", "nan"]),
    seed=st.integers(0, 100),
)
def test_sensitivity_profile_on_messy_functions(n_bits, method, n_samples, kind, seed,
                                                reliability_cases):
    funcs = {
        "parity": _parity,
        "constant": lambda X: np.zeros(len(X), dtype=int),
        "nonbinary": lambda X: np.asarray(X).sum(axis=1),
        "wrong length": lambda X: np.zeros(len(X) + 1, dtype=int),
        "nan": lambda X: np.full(len(X), np.nan),
    }
    bad_params = n_bits < 1 or method == "magic" or n_samples < 1
    bad_function = kind in ("nonbinary", "wrong length", "nan")
    try:
        profile = sensitivity_profile(funcs[kind], n_bits, method=method, n_samples=n_samples,
                                      random_state=seed)
    except (ValueError, TypeError) as exc:
        assert str(exc).strip()
        # nonbinary sums are binary for n_bits == 1 (values 0/1): then it must not fail.
        assert bad_params or bad_function, f"valid call rejected: {exc!r}"
        reliability_cases["sensitivity_profile"]["clear error"] += 1
        return
    assert not bad_params
    assert not (bad_function and kind != "nonbinary"), "bad model output accepted"
    assert np.isfinite(profile.average) and 0 <= profile.zero_fraction <= 1
    if kind == "parity":
        assert profile.minimum == n_bits
    reliability_cases["sensitivity_profile"]["valid result"] += 1
