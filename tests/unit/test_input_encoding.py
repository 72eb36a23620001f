"""A torch module's input encoding is explicit or declared (issue 48 item 20, issue 51 item 4).

A module trained on spins ``2b - 1`` and profiled with skxor's spins ``1 - 2b``
gave the same sensitivity counts and the complemented truth table, silently
(0% agreement with the function it learnt). Now every entry that profiles a
module takes ``input_encoding`` ("01", "pm1" = 1 - 2b, "2b-1"), skxor's modules
declare theirs ("pm1"), and a module that declares none is refused.
:class:`SensitivityProfiler` profiles a torch module as it is, and an
estimator's model at initialisation (``at_init=True``).
"""

import matplotlib
import numpy as np
import pytest
import torch
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression

from skxor import (
    BooleanTransformerClassifier,
    FFNNParityBaseline,
    KParityTransformer,
    SensitivityProfiler,
    SparseXORTransformer,
)
from skxor.boolean import all_strings, truth_table
from skxor.datasets import make_sparse_parity
from skxor.nn import (
    BooleanTransformer,
    KParityAttention,
    SparseXORAttention,
    TwoLayerNetwork,
    sparse_xor_init,
)
from skxor.plotting import FourierSpectrumDisplay, SensitivityProfileDisplay
from skxor.sensitivity import margin_profile, sensitivity_profile

matplotlib.use("Agg")

N = 5


class AndOfFirstTwo(torch.nn.Module):
    """Trained on x = 2b - 1: positive exactly where bits 0 and 1 are both 1."""

    def forward(self, x):
        return torch.minimum(x[:, 0], x[:, 1])

    def decide(self, x):  # a recognizer too, for margin_profile
        return torch.sign(self(x)).to(torch.int8)


def and_table(n_bits):
    X = all_strings(n_bits)
    return (X[:, 0] & X[:, 1]).astype(np.uint8)


ENTRIES = {
    "sensitivity_profile": lambda m, **kw: sensitivity_profile(m, N, **kw),
    "sampled": lambda m, **kw: sensitivity_profile(m, N, method="sampled", n_samples=20,
                                                    random_state=0, **kw),
    "truth_table": lambda m, **kw: truth_table(m, N, **kw),
    "margin_profile": lambda m, **kw: margin_profile(m, N, **kw),
    "SensitivityProfileDisplay": lambda m, **kw: SensitivityProfileDisplay.from_function(
        m, N, **kw),
    "FourierSpectrumDisplay": lambda m, **kw: FourierSpectrumDisplay.from_function(m, N, **kw),
    "SensitivityProfiler": lambda m, **kw: SensitivityProfiler(m, **kw).fit(all_strings(N)),
}


@pytest.mark.parametrize("entry", ENTRIES)
def test_a_module_without_a_known_encoding_is_refused_everywhere(entry):
    with pytest.raises(ValueError, match=r"input encoding of the torch module AndOfFirstTwo "
                                         r"is unknown: pass input_encoding='pm1'.*'2b-1'"):
        ENTRIES[entry](AndOfFirstTwo())
    ENTRIES[entry](AndOfFirstTwo(), input_encoding="2b-1")  # given: it runs


def test_the_given_encoding_gives_the_function_the_module_learnt():
    """Before: 0% agreement (the complement). Now "2b-1" gives AND on every string,
    on the per-string, blockwise (small batches: high bits built per block) and
    packed paths; "pm1" is the complement with the same sensitivity counts."""
    module = AndOfFirstTwo()
    expected = and_table(N)
    for batch_size in (65536, 4):
        got = truth_table(module, N, input_encoding="2b-1", batch_size=batch_size)
        np.testing.assert_array_equal(got, expected)
    complement = truth_table(module, N, input_encoding="pm1")
    np.testing.assert_array_equal(complement, and_table(N)[::-1])  # index r -> ~r
    reference = sensitivity_profile(expected, N)
    for encoding in ("2b-1", "pm1"):
        for kwargs in ({}, {"incremental": False}, {"n_jobs": 1}):
            prof = sensitivity_profile(module, N, method="exhaustive",
                                       input_encoding=encoding, **kwargs)
            np.testing.assert_array_equal(prof.counts, reference.counts)
    # Sampled: the strings' own labels are right (their flips' counts too).
    profiler = SensitivityProfiler(module, input_encoding="2b-1", method="data").fit(
        all_strings(N))
    np.testing.assert_array_equal(profiler.predict(all_strings(N)), expected)
    np.testing.assert_array_equal(
        profiler.transform(all_strings(N)).ravel(),
        SensitivityProfiler(expected_model(), input_encoding="01").fit(all_strings(N))
        .transform(all_strings(N)).ravel())
    np.testing.assert_array_equal(margin_profile(module, N, input_encoding="2b-1").counts,
                                  reference.counts)


def expected_model():
    """AND of bits 0 and 1 as a module on bits."""

    class AndOnBits(torch.nn.Module):
        def forward(self, x):
            return x[:, 0] * x[:, 1] - 0.5

    return AndOnBits()


def test_skxor_modules_declare_spins_and_a_module_may_declare_its_own():
    keys, queries = sparse_xor_init(N, 4, random_state=0)
    for module in (BooleanTransformer(N, d_model=8, n_layers=1, seed=0),
                   SparseXORAttention(torch.as_tensor(keys), torch.as_tensor(queries)),
                   KParityAttention(N, 2, seed=0), TwoLayerNetwork(N, 3)):
        assert module.input_encoding == "pm1"
        np.testing.assert_array_equal(truth_table(module, N),
                                      truth_table(module, N, input_encoding="pm1"))
    module = AndOfFirstTwo()
    module.input_encoding = "2b-1"
    np.testing.assert_array_equal(truth_table(module, N), and_table(N))
    module.input_encoding = "spins"
    with pytest.raises(ValueError, match=r"AndOfFirstTwo.input_encoding must be one of"):
        truth_table(module, N)
    with pytest.raises(ValueError, match="input_encoding"):
        truth_table(AndOfFirstTwo(), N, input_encoding="spins")


# -- SensitivityProfiler: a module, a fitted estimator's model, a model at init ---------


def test_profiler_takes_a_module_as_it_is():
    """It refused a torch module ("estimator ... must be an object implementing
    'fit' and 'predict'"); now it profiles it as sensitivity_profile does."""
    module = BooleanTransformer(N, d_model=8, n_layers=2, seed=3)
    X = all_strings(N)
    profiler = SensitivityProfiler(module).fit(X)
    assert profiler.estimator_ is module and profiler.classes_.tolist() == [0, 1]
    np.testing.assert_array_equal(profiler.profile_.counts,
                                  sensitivity_profile(module, N).counts)
    table = truth_table(module, N)
    np.testing.assert_array_equal(profiler.predict(X), table)
    assert profiler.score(X, table) == 1.0 and profiler.score(X, 1 - table) == 0.0
    assert not hasattr(profiler, "decision_function")
    # A fitted estimator's module gives the profile of the estimator itself.
    Xs, y = make_sparse_parity(400, N, support=[0, 3], random_state=0)
    clf = BooleanTransformerClassifier(d_model=8, n_layers=1, max_iter=3, random_state=0)
    clf.fit(Xs, y)
    np.testing.assert_array_equal(
        SensitivityProfiler(clf.module_).fit(X).profile_.counts,
        SensitivityProfiler(clf, prefit=True).fit(Xs).profile_.counts)


def test_profiler_refuses_a_module_of_unknown_encoding_and_stays_as_it_was():
    profiler = SensitivityProfiler(AndOfFirstTwo())
    with pytest.raises(ValueError, match="input encoding of the torch module"):
        profiler.fit(all_strings(N))
    assert not hasattr(profiler, "profile_") and not hasattr(profiler, "estimator_")
    profiler.set_params(input_encoding="2b-1").fit(all_strings(N))
    assert profiler.profile_.counts.tolist() == sensitivity_profile(and_table(N), N).counts.tolist()


def _init_outputs(estimator, X, y=None):
    profiler = SensitivityProfiler(estimator, at_init=True).fit(X, y)
    inner = profiler.estimator_
    assert inner.n_iter_ == 0 and inner.loss_curve_ == []
    assert inner.max_iter == estimator.max_iter  # its parameters are the template's
    return profiler, inner.decision_function(X)


@pytest.mark.parametrize("make", [
    lambda seed: SparseXORTransformer(m=8, random_state=seed),
    lambda seed: FFNNParityBaseline(width=4, random_state=seed),
    lambda seed: BooleanTransformerClassifier(d_model=8, n_layers=1, random_state=seed),
    lambda seed: KParityTransformer(n_heads=2, random_state=seed),
])
def test_profiler_at_init_profiles_the_model_fit_starts_from(make):
    X, y = make_sparse_parity(300, 6, support=[1, 4], random_state=0)
    profiler, outputs = _init_outputs(make(0), X)
    assert profiler.profile_.method == "exhaustive"
    np.testing.assert_array_equal(profiler.profile_.counts,
                                  sensitivity_profile(profiler.estimator_, 6).counts)
    assert profiler.classes_.tolist() == [0, 1]  # no y: two stand-in classes
    # Seeded from the estimator's random_state: the same seed, the same model.
    np.testing.assert_array_equal(_init_outputs(make(0), X)[1], outputs)
    assert not np.array_equal(_init_outputs(make(1), X)[1], outputs)
    # With y: its classes, the same model (the k-parity model's sign, its orientation,
    # is chosen against the labels; the profile does not depend on it).
    with_y, outputs_y = _init_outputs(make(0), X, y)
    assert with_y.classes_.tolist() == [-1, 1]
    np.testing.assert_array_equal(np.abs(outputs_y), np.abs(outputs))
    np.testing.assert_array_equal(with_y.profile_.counts, profiler.profile_.counts)


def test_the_model_at_init_is_the_one_fit_starts_from():
    X, y = make_sparse_parity(300, 6, support=[1, 4], random_state=0)
    sparse = SparseXORTransformer(m=8, random_state=0)
    at_init = SensitivityProfiler(sparse, at_init=True).fit(X, y).estimator_
    initial = clone(sparse).fit(X, y).initial_queries_  # float64, the model's are float32
    np.testing.assert_array_equal(at_init.queries_, initial.astype(np.float32).astype(np.float64))
    kparity = KParityTransformer(n_heads=2, max_iter=5, random_state=0)
    at_init = SensitivityProfiler(kparity, at_init=True).fit(X, y).estimator_
    initial = clone(kparity).fit(X, y).initial_score_vectors_  # float64 of the float32 model's
    np.testing.assert_array_equal(at_init.score_vectors_,
                                  initial.astype(np.float32).astype(np.float64))
    # A step too small to move the weights: the trained FFNN is the one at init.
    ffnn = FFNNParityBaseline(width=4, optimizer="sgd", momentum=0.0, learning_rate=1e-30,
                              max_iter=1, random_state=0)
    at_init = SensitivityProfiler(ffnn, at_init=True).fit(X, y).estimator_
    np.testing.assert_array_equal(at_init.decision_function(X),
                                  clone(ffnn).fit(X, y).decision_function(X))


def test_profiler_refuses_what_names_no_model():
    X, y = make_sparse_parity(100, 4, random_state=0)
    fitted = SparseXORTransformer(m=4, random_state=0).fit(X, y)
    cases = [
        (SensitivityProfiler(fitted, prefit=True, at_init=True), "go with prefit=True"),
        (SensitivityProfiler(BooleanTransformer(4, d_model=8, n_layers=1, seed=0),
                             at_init=True), "does not apply to a torch module"),
        (SensitivityProfiler(SparseXORTransformer(m=4), input_encoding="pm1"),
         "is for a torch module"),
        (SensitivityProfiler(LogisticRegression(), at_init=True),
         "needs one of skxor's estimators"),
    ]
    for profiler, match in cases:
        with pytest.raises(ValueError, match=match):
            profiler.fit(X, y)
        assert not hasattr(profiler, "profile_")


class OrOfFirstThree(torch.nn.Module):
    """Trained on bits: positive where one of bits 0, 1, 2 is set (on spins 1 - 2b
    it would be "at most one of them set", another profile)."""

    def forward(self, x):
        return x[:, :3].sum(dim=1) - 0.5


@pytest.mark.parametrize("declared", [False, True])
def test_workers_of_a_parallel_profile_get_the_encoding(declared):
    """n_jobs > 1 evaluates slabs in workers, each with its own evaluator: the
    given or declared encoding travels with the task."""
    from joblib import parallel_backend

    n_bits = 8
    X = all_strings(n_bits)
    expected = sensitivity_profile((X[:, :3].max(axis=1)).astype(np.uint8), n_bits)
    module = OrOfFirstThree()
    kwargs = {"input_encoding": "01"}
    if declared:
        module.input_encoding, kwargs = "01", {}
    with parallel_backend("threading"):
        prof = sensitivity_profile(module, n_bits, method="exhaustive", n_jobs=2, **kwargs)
    np.testing.assert_array_equal(prof.counts, expected.counts)
    spins = sensitivity_profile(module, n_bits, method="exhaustive", input_encoding="pm1")
    assert not np.array_equal(spins.counts, expected.counts)
