"""Families of issue 23 under hypothesis: float32 against float64 at every head
count, every profiling entry point on outputs at the decision boundary, and
every documented settable attribute set to bad values.

Each entry point counts its cases in the terminal summary ("reliability
cases tried"); ``--hypothesis-profile=skxor-thorough`` runs ten times more.
"""

import math
import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from skxor import (
    BooleanTransformerClassifier,
    KParityTransformer,
    SensitivityProfiler,
    SparseXORTransformer,
)
from skxor.boolean import all_strings
from skxor.datasets import make_sparse_parity
from skxor.nn import BooleanTransformer
from skxor.sensitivity import margin_profile, sensitivity_profile


def _examples(n):
    """``n`` examples in the default profile, ten times as many when thorough."""
    return settings(max_examples=n * settings().max_examples // 100)


# -- float32 against float64, every head count an estimator accepts -----------------


@_examples(12)
@given(seed=st.integers(0, 10_000), d=st.integers(2, 300), data=st.data())
def test_sparse_xor_float32_takes_the_float64_step_at_any_head_count(seed, d, data,
                                                                     reliability_cases):
    n_heads = data.draw(st.integers(1, d), label="n_heads")  # any H the estimator accepts
    X, y = make_sparse_parity(300, d, random_state=seed)
    fits = [SparseXORTransformer(m=4, n_heads=n_heads, init="random", dtype=dtype,
                                 random_state=seed).fit(X, y)
            for dtype in ("float32", "float64")]
    steps = [np.linalg.norm(c.queries_ - c.initial_queries_) for c in fits]
    # Both take the full normalized step (a zero gradient, e.g. all-constant
    # head averages, takes none in both).
    assert steps[0] == pytest.approx(steps[1], rel=1e-4, abs=1e-4)
    assert steps[1] == pytest.approx(100.0, rel=1e-6) or steps[1] == 0
    np.testing.assert_allclose(fits[0].queries_, fits[1].queries_, atol=1e-3 * 100.0)
    f32, f64 = (c.decision_function(X) for c in fits)
    assert np.isfinite(f32).all() and ((f32 == 0) == (f64 == 0)).all()
    reliability_cases["SparseXORTransformer float32 vs float64"]["same step"] += 1


@pytest.mark.parametrize("estimator", ["KParityTransformer", "BooleanTransformerClassifier"])
@_examples(8)
@given(seed=st.integers(0, 10_000), heads=st.integers(0, 3))
def test_skorch_estimators_agree_in_float32_and_float64(estimator, seed, heads,
                                                        reliability_cases):
    X, y = make_sparse_parity(200, 8, k=2, random_state=seed)
    if estimator == "KParityTransformer":
        make = lambda dtype: KParityTransformer(n_heads=[1, 2, 5, 8][heads], max_iter=1,  # noqa: E731
                                                batch_size=200, dtype=dtype, random_state=seed)
    else:
        make = lambda dtype: BooleanTransformerClassifier(  # noqa: E731
            d_model=8, n_layers=1, n_heads=[1, 2, 4, 8][heads], max_iter=1, batch_size=200,
            dtype=dtype, random_state=seed)
    f32, f64 = (make(dtype).fit(X, y).decision_function(X) for dtype in ("float32", "float64"))
    np.testing.assert_allclose(f32, f64, atol=1e-4 * max(1.0, np.abs(f64).max()))
    reliability_cases[f"{estimator} float32 vs float64"]["agree"] += 1


# -- every entry point on outputs at the decision boundary --------------------------


def _boundary_model(n_bits, seed, index, shift=0.0):
    """A BooleanTransformer whose string ``index`` has output about ``shift``."""
    model = BooleanTransformer(n_bits, d_model=16, n_heads=2, seed=seed)
    spins = BooleanTransformer.spins_from_bits(all_strings(n_bits))
    with torch.no_grad():
        model.unembed.bias -= model(spins)[index] - shift
    return model


@_examples(10)
@given(seed=st.integers(0, 10_000), n_bits=st.integers(4, 9), data=st.data(),
       sizes=st.lists(st.sampled_from([1, 2, 3, 8, 64, 4096]), min_size=2, max_size=2))
def test_profiles_at_the_boundary_do_not_depend_on_batching(seed, n_bits, data, sizes,
                                                            reliability_cases):
    index = data.draw(st.integers(0, (1 << n_bits) - 1), label="index")
    model = _boundary_model(n_bits, seed, index)
    exhaustive = []
    for size in sizes:
        model.eval_batch_size = size
        exhaustive.append(sensitivity_profile(model, n_bits, batch_size=size))
    np.testing.assert_array_equal(exhaustive[0].counts, exhaustive[1].counts)
    assert min(p.n_redecided for p in exhaustive) >= 1  # the string put at 0
    sampled = [sensitivity_profile(model, n_bits, method="sampled", n_samples=50,
                                   batch_size=size, random_state=seed) for size in sizes]
    np.testing.assert_array_equal(sampled[0].counts, sampled[1].counts)
    model.margin = 0.1
    with torch.no_grad():
        model.unembed.bias += 0.1  # the string now at the margin
    with warnings.catch_warnings():  # a model that never rejects is fine here
        warnings.simplefilter("ignore", UserWarning)
        margins = [margin_profile(model, n_bits, batch_size=size) for size in sizes]
    np.testing.assert_array_equal(margins[0].counts, margins[1].counts)
    assert margins[0].n_undecided == margins[1].n_undecided
    reliability_cases["profiles at the boundary"]["batch-independent"] += 1


@_examples(5)
@given(seed=st.integers(0, 10_000), sizes=st.lists(st.sampled_from([1, 7, 64, 4096]),
                                                   min_size=2, max_size=2))
def test_profiler_at_the_boundary_does_not_depend_on_batching(seed, sizes, reliability_cases):
    X = all_strings(6)
    y = X[:, 0] ^ X[:, 1]
    clf = BooleanTransformerClassifier(d_model=8, n_layers=1, n_heads=2, max_iter=2,
                                       batch_size=64, random_state=seed).fit(X, y)
    spins = BooleanTransformer.spins_from_bits(X)
    with torch.no_grad():
        clf.module_.unembed.bias -= clf.module_(spins)[seed % 64]
    profiles = []
    for method in ("exhaustive", "data"):
        for size in sizes:
            clf.module_.eval_batch_size = size
            prof = SensitivityProfiler(clf, prefit=True, method=method, batch_size=size,
                                       n_samples=64).fit(X)
            profiles.append(prof.profile_)
    for prof in profiles:
        np.testing.assert_array_equal(prof.counts, profiles[0].counts)
    assert profiles[0].n_redecided >= 1
    reliability_cases["SensitivityProfiler at the boundary"]["batch-independent"] += 1


# -- every documented settable attribute set to bad values --------------------------


BAD_VALUES = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).filter(lambda v: not (0 <= v < math.inf)),
    st.integers(max_value=-1),
    st.sampled_from([None, "1", [1], True, 1 + 0j]),
)
SETTABLE = {
    # attribute: (bad values, a strategy of values that are fine)
    "margin": (BAD_VALUES, st.floats(0, 10)),
    "eval_batch_size": (st.one_of(st.integers(max_value=0), st.floats(allow_nan=True),
                                  st.sampled_from([None, "8", True, 2.0])),
                        st.integers(1, 5000)),
}


@pytest.mark.parametrize("name", sorted(SETTABLE))
@_examples(30)
@given(data=st.data())
def test_documented_settable_attributes_refuse_bad_values(name, data, reliability_cases):
    bad, good = SETTABLE[name]
    model = BooleanTransformer(5, d_model=8, n_heads=2, seed=0)
    value = data.draw(bad, label="bad")
    before = getattr(model, name)
    with pytest.raises((TypeError, ValueError), match=name):
        setattr(model, name, value)
    assert getattr(model, name) == before
    setattr(model, name, data.draw(good, label="good"))
    spins = BooleanTransformer.spins_from_bits(all_strings(5))
    decision = model.decide(spins)
    assert decision.shape == (32,) and set(decision.tolist()) <= {-1, 0, 1}
    reliability_cases[f"BooleanTransformer.{name} set to bad values"]["clear error"] += 1
