"""sensitivity_profile: exact oracles, brute-force references, sampling, bad input."""

import tracemalloc
from math import comb

import numpy as np
import pandas as pd
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from skxor import SparseXORTransformer
from skxor.boolean import (
    Dictator,
    First,
    Majority,
    Parity,
    RandomFunction,
    SparseParity,
    all_strings,
)
from skxor.datasets import make_sparse_parity
from skxor.nn import SparseXORAttention
from skxor.sensitivity import SensitivityProfile, sensitivity_profile
from skxor._utils._evaluate import ModelEvaluator, strings_per_call
from skxor.sensitivity._profile import exhaustive_counts, iter_flips

FAST = settings(max_examples=20, deadline=None)


def brute_force(f, n_bits):
    """Reference: evaluate f on every string and on every single flip of it."""
    X = all_strings(n_bits)
    base = np.asarray(f(X))
    flips = np.empty(X.shape, dtype=bool)
    for i in range(n_bits):
        Xi = X.copy()
        Xi[:, i] ^= 1
        flips[:, i] = np.asarray(f(Xi)) != base
    counts = np.bincount(flips.sum(axis=1), minlength=n_bits + 1)
    return counts, flips.sum(axis=0)


# -- exact oracles ------------------------------------------------------------------


@pytest.mark.parametrize("n_bits", [1, 2, 7, 12])
def test_parity_every_string_has_sensitivity_n(n_bits):
    prof = sensitivity_profile(Parity(n_bits), n_bits, method="exhaustive")
    expected = np.zeros(n_bits + 1, dtype=int)
    expected[n_bits] = 2**n_bits
    assert np.array_equal(prof.counts, expected)
    assert prof.average == n_bits and prof.minimum == n_bits
    assert prof.n_zero == 0 and prof.zero_fraction == 0.0
    assert np.allclose(prof.influences, 1.0)


@pytest.mark.parametrize("n_bits", [1, 6, 11])
def test_dictator_and_first_have_sensitivity_one(n_bits):
    for f in (First(n_bits), Dictator(n_bits, n_bits - 1)):
        prof = sensitivity_profile(f, n_bits)
        assert prof.counts[1] == 2**n_bits and prof.counts.sum() == 2**n_bits
        assert prof.average == 1.0
        expected = np.zeros(n_bits)
        expected[f.index] = 1.0
        assert np.array_equal(prof.influences, expected)


@pytest.mark.parametrize("n_bits, k", [(5, 2), (10, 3), (13, 7)])
def test_sparse_parity_has_sensitivity_k(n_bits, k):
    f = SparseParity(n_bits, k=k, random_state=1)
    prof = sensitivity_profile(f, n_bits)
    assert prof.counts[k] == 2**n_bits and prof.minimum == k and prof.average == k
    assert np.flatnonzero(prof.influences).tolist() == f.support.tolist()


@pytest.mark.parametrize("n_bits", [1, 3, 9, 15])
def test_majority_odd_n_closed_form(n_bits):
    # N = 2m + 1: strings with m or m + 1 ones have sensitivity m + 1, others 0.
    m = (n_bits - 1) // 2
    expected = np.zeros(n_bits + 1, dtype=int)
    expected[m + 1] = 2 * comb(n_bits, m)
    expected[0] = 2**n_bits - expected[m + 1]
    prof = sensitivity_profile(Majority(n_bits), n_bits)
    assert np.array_equal(prof.counts, expected)
    assert prof.average == pytest.approx((m + 1) * 2 * comb(n_bits, m) / 2**n_bits)
    assert prof.n_zero == expected[0]


@pytest.mark.parametrize("n_bits", [2, 8])
def test_majority_even_n_ties_to_zero(n_bits):
    # Ties give 0: weight m + 1 strings have sensitivity m + 1, weight m ones m.
    m = n_bits // 2
    expected = np.zeros(n_bits + 1, dtype=int)
    expected[m + 1] = comb(n_bits, m + 1)
    expected[m] += comb(n_bits, m)
    expected[0] += 2**n_bits - comb(n_bits, m + 1) - comb(n_bits, m)
    assert np.array_equal(sensitivity_profile(Majority(n_bits), n_bits).counts, expected)


# -- brute-force references -----------------------------------------------------------


@FAST
@given(
    n_bits=st.integers(1, 10),
    seed=st.integers(0, 2**31 - 1),
    p=st.sampled_from([0.05, 0.5, 0.9]),
)
def test_exhaustive_matches_per_flip_brute_force_on_random_functions(n_bits, seed, p):
    f = RandomFunction(n_bits, p=p, random_state=seed)
    counts, flips = brute_force(f, n_bits)
    prof = sensitivity_profile(f, n_bits, method="exhaustive")
    assert np.array_equal(prof.counts, counts)
    assert np.array_equal(prof.flip_counts, flips)
    # The same from the table itself, with tiny chunks (cross-chunk look-ups).
    for chunk_bits in (0, 1, 3):
        c, fl = exhaustive_counts(f.table, n_bits, chunk_bits=chunk_bits)
        assert np.array_equal(c, counts) and np.array_equal(fl, flips)
    assert np.array_equal(sensitivity_profile(f.table, n_bits).counts, counts)


@pytest.mark.parametrize("n_bits", range(0, 14))
def test_small_tables_gather_path_equals_blockwise_pass(n_bits):
    # Up to N = 12 a table fitting one chunk is counted by one gather; the
    # blockwise pass (tiny chunks) is the reference.
    rng = np.random.default_rng(n_bits)
    for p in (0.0, 0.3, 1.0):
        table = (rng.random(1 << n_bits) < p).astype(np.uint8)
        fast = exhaustive_counts(table, n_bits)
        slow = exhaustive_counts(table, n_bits, chunk_bits=1)
        assert all(a.dtype == np.int64 for a in fast)
        np.testing.assert_array_equal(fast[0], slow[0])
        np.testing.assert_array_equal(fast[1], slow[1])
    assert fast[0].shape == (n_bits + 1,) and fast[1].shape == (n_bits,)


def test_exhaustive_matches_brute_force_on_a_fitted_model():
    X, y = make_sparse_parity(4000, 8, support=[2, 5], random_state=0)
    clf = SparseXORTransformer(m=8, attention="linear", random_state=3).fit(X, y)

    def predict_bits(B):
        return clf.predict(1 - 2 * B.astype(int)) == clf.classes_[1]

    counts, flips = brute_force(predict_bits, 8)
    prof = sensitivity_profile(clf, 8, method="exhaustive", batch_size=32)
    assert np.array_equal(prof.counts, counts)
    assert np.array_equal(prof.flip_counts, flips)
    assert 0 < prof.average  # the model is not constant; the test is not vacuous


def test_torch_module_and_its_estimator_give_the_same_profile():
    X, y = make_sparse_parity(6000, 9, support=[0, 7], random_state=1)
    clf = SparseXORTransformer(m=8, random_state=1, dtype="float64").fit(X, y)
    module = SparseXORAttention(
        torch.as_tensor(clf.keys_), torch.as_tensor(clf.queries_), clf.attention
    )
    from_module = sensitivity_profile(module, 9)
    from_estimator = sensitivity_profile(clf, 9)
    assert np.array_equal(from_module.counts, from_estimator.counts)
    assert from_module.average == 2.0  # the model learned the sparse XOR


def test_exhaustive_streams_strings_in_chunks():
    # N = 20: all strings as uint8 take 20 MiB (160 MiB as the int64 a callable
    # gets); the engine needs the 1 MiB table plus chunk-sized temporaries
    # (65536 strings as int64: 10 MiB).
    n_bits = 20
    tracemalloc.start()
    try:
        prof = sensitivity_profile(lambda B: B[:, 3] ^ B[:, 17], n_bits, method="exhaustive")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert prof.counts[2] == 2**n_bits
    assert peak < 16 * 2**20, f"peak {peak / 2**20:.1f} MiB"


# -- sampled profiles --------------------------------------------------------------


def test_sampled_parity_is_exact_with_zero_width_interval():
    prof = sensitivity_profile(Parity(30), 30, method="sampled", n_samples=300, random_state=0)
    assert prof.method == "sampled" and prof.n_strings == 300
    assert prof.counts[30] == 300 and prof.average == 30.0
    assert prof.average_ci.tolist() == [30.0, 30.0]
    assert prof.fraction_ci[30, 1] == 1.0 and prof.fraction_ci[0, 0] == 0.0


def test_sampled_intervals_cover_the_exact_majority_profile():
    n_bits = 11
    exact = sensitivity_profile(Majority(n_bits), n_bits, method="exhaustive")
    prof = sensitivity_profile(
        Majority(n_bits), n_bits, method="sampled", n_samples=3000,
        confidence=0.999, random_state=0,
    )
    low, high = prof.fraction_ci.T
    assert np.all((low <= exact.fractions) & (exact.fractions <= high))
    assert prof.average_ci[0] <= exact.average <= prof.average_ci[1]
    assert prof.zero_fraction_ci[0] <= exact.zero_fraction <= prof.zero_fraction_ci[1]
    assert np.all(low <= prof.fractions) and np.all(prof.fractions <= high)
    assert prof.influences.sum() == pytest.approx(prof.average)


def test_sampled_is_reproducible_and_seeded_by_random_state():
    f = RandomFunction(12, random_state=0)
    a = sensitivity_profile(f, 12, method="sampled", n_samples=200, random_state=7)
    b = sensitivity_profile(f, 12, method="sampled", n_samples=200, random_state=7)
    c = sensitivity_profile(f, 12, method="sampled", n_samples=200, random_state=8)
    assert np.array_equal(a.counts, b.counts)
    assert not np.array_equal(a.counts, c.counts)
    # batch_size only changes how the work is split.
    d = sensitivity_profile(f, 12, method="sampled", n_samples=200, random_state=7, batch_size=5)
    assert np.array_equal(a.counts, d.counts)


def test_sampled_matches_brute_force_on_its_strings():
    f = RandomFunction(9, random_state=2)
    prof = sensitivity_profile(f, 9, method="sampled", n_samples=50, random_state=0)
    strings = np.random.RandomState(0).randint(0, 2, size=(50, 9), dtype=np.uint8)
    table = f.table
    index = strings.astype(np.int64) @ (1 << np.arange(9))
    sens = (table[index[:, None] ^ (1 << np.arange(9))] != table[index][:, None]).sum(axis=1)
    assert np.array_equal(prof.counts, np.bincount(sens, minlength=10))


def test_auto_picks_exhaustive_when_no_dearer_than_sampling():
    assert sensitivity_profile(Parity(10), 10).method == "exhaustive"
    prof = sensitivity_profile(Parity(40), 40, n_samples=100, random_state=0)
    assert prof.method == "sampled" and prof.average == 40
    # 2^14 = 16384 > 15 * 1000: sampling is cheaper.
    assert sensitivity_profile(Parity(14), 14, n_samples=1000).method == "sampled"
    assert sensitivity_profile(Parity(14), 14, n_samples=2000).method == "exhaustive"


# -- the result object ---------------------------------------------------------------


def test_result_object_frame_and_repr():
    prof = sensitivity_profile(Majority(5), 5)
    assert isinstance(prof, SensitivityProfile)
    frame = prof.to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert frame.index.name == "sensitivity" and frame.index.tolist() == list(range(6))
    assert frame.columns.tolist() == ["count", "fraction"]
    assert frame["count"].sum() == 32 and frame["fraction"].sum() == pytest.approx(1.0)
    assert frame.attrs["method"] == "exhaustive" and frame.attrs["n_bits"] == 5
    assert prof.influences.sum() == pytest.approx(prof.average)
    assert prof.maximum == 3 and prof.minimum == 0
    assert "n_bits=5" in repr(prof) and "exhaustive" in repr(prof)
    sampled = sensitivity_profile(Majority(5), 5, method="sampled", n_samples=100, random_state=0)
    assert sampled.to_frame().columns.tolist() == ["count", "fraction", "ci_low", "ci_high"]
    assert "[" in repr(sampled)


def test_deprecated_plot_draws_one_bar_per_sensitivity_value():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    prof = sensitivity_profile(Majority(7), 7, method="sampled", n_samples=200, random_state=0)
    fig, ax = plt.subplots()
    try:
        with pytest.warns(FutureWarning, match="from_profile"):
            assert prof.plot(ax=ax) is ax
        heights = [patch.get_height() for patch in ax.patches]
        assert np.allclose(heights, prof.fractions)
        assert len(ax.containers) == 2  # the bars and their error bars
        assert "N = 7" in ax.get_title()
    finally:
        plt.close(fig)


# -- bad input ----------------------------------------------------------------------


def test_exhaustive_for_too_many_bits_suggests_sampling():
    with pytest.raises(ValueError, match="N=40.*method='sampled'"):
        sensitivity_profile(Parity(40), 40, method="exhaustive")


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"method": "all"}, ValueError, "'method' parameter of sensitivity_profile must be"),
        ({"n_samples": 0}, ValueError, "n_samples"),
        ({"batch_size": 0}, ValueError, "batch_size"),
        ({"batch_size": 2.5}, TypeError, "batch_size"),
        ({"confidence": 1.5}, ValueError, "confidence"),
        ({"input_encoding": "bits"}, ValueError, "input_encoding"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        sensitivity_profile(Parity(3), 3, **kwargs)


def test_bad_models_and_tables():
    with pytest.raises(ValueError, match="non-binary labels"):
        sensitivity_profile(lambda B: B.sum(axis=1), 4)
    with pytest.raises(ValueError, match="non-binary labels"):
        sensitivity_profile(lambda B: B.sum(axis=1), 30, method="sampled", n_samples=10)
    with pytest.raises(ValueError, match="2\\^3 = 8"):
        sensitivity_profile(np.zeros(4, dtype=np.uint8), 3)
    with pytest.raises(ValueError, match="0/1"):
        sensitivity_profile(np.full(8, 0.5), 3)
    with pytest.raises(TypeError, match="callable"):
        sensitivity_profile(42, 3)
    with pytest.raises(ValueError, match="n_bits"):
        sensitivity_profile(Parity(3), 0)


def test_exhaustive_at_n_22_is_usable():
    # 4M strings with a cheap callable: this runs in a few seconds at most.
    prof = sensitivity_profile(lambda B: B[:, 0] & B[:, 21], 22, method="exhaustive")
    # AND of two bits: s = 2 on (1,1); s = 1 on (1,0), (0,1); s = 0 on (0,0).
    assert prof.counts.tolist()[:3] == [2**20, 2**21, 2**20]


# -- memory on long strings (issue: neighbours must honour batch_size) ----------------


class RecordingParity:
    """A sparse parity that records the shape of every batch it gets."""

    def __init__(self, support):
        self.support = support
        self.shapes = []

    def __call__(self, X):
        self.shapes.append(X.shape)
        return X[:, self.support].sum(axis=1) % 2


@pytest.mark.parametrize("batch_size", [1, 7, 50])
def test_long_strings_split_their_neighbours_over_batches(batch_size):
    # N + 1 = 121 neighbours per string exceed batch_size: before, each string
    # and its 120 neighbours went to the model in one call of 121 rows.
    n_bits = 120
    f = RecordingParity([3, 77, 119])
    strings = np.random.RandomState(0).randint(0, 2, size=(5, n_bits)).astype(np.uint8)
    evaluator = ModelEvaluator(f, n_bits)
    rows_seen = np.zeros(5, dtype=int)
    for rows, flips in iter_flips(evaluator, strings, batch_size):
        rows_seen[rows] += 1
        # Flipping a support bit always changes a parity, any other bit never.
        expected = np.zeros((flips.shape[0], n_bits), dtype=bool)
        expected[:, [3, 77, 119]] = True
        assert np.array_equal(flips, expected)
    assert rows_seen.tolist() == [1] * 5
    assert max(shape[0] for shape in f.shapes) <= batch_size
    assert sum(shape[0] for shape in f.shapes) == 5 * (n_bits + 1)


def test_neighbours_of_long_strings_keep_memory_bounded():
    # N = 3000: one string with its N neighbours is 9 MB as uint8 (72 MB as
    # int64); with batch_size=16 a call holds 16 strings, 384 kB as int64.
    n_bits = 3000
    f = RecordingParity([0, 2999])
    strings = np.random.RandomState(0).randint(0, 2, size=(2, n_bits)).astype(np.uint8)
    evaluator = ModelEvaluator(f, n_bits)
    tracemalloc.start()
    try:
        sensitivities = [flips.sum() for _, flips in iter_flips(evaluator, strings, 16)]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert sensitivities == [2, 2]
    assert max(shape[0] for shape in f.shapes) <= 16
    assert peak < 1 * 2**20, f"peak {peak / 2**20:.1f} MiB"


def test_encode_makes_spins_in_place_without_temporaries():
    bits = np.random.RandomState(0).randint(0, 2, size=(4096, 64)).astype(np.uint8)
    kept = bits.copy()
    spins = 1 - 2 * bits.astype(np.int64)
    evaluator = ModelEvaluator(lambda X: X[:, 0], 64, input_encoding="pm1")
    tracemalloc.start()
    try:
        x = evaluator.encode(bits)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert x.dtype == np.int64 and np.array_equal(x, spins)
    # One int64 copy (2 MiB): 1 - 2 * x would hold two more of the same size.
    assert peak < 1.1 * x.nbytes, f"peak {peak / x.nbytes:.2f} copies"
    assert np.array_equal(ModelEvaluator(lambda X: X[:, 0], 64, input_encoding="01")
                          .encode(bits), bits)
    model = torch.nn.Linear(64, 1)
    x = ModelEvaluator(model, 64, input_encoding="pm1").encode(bits)
    assert x.dtype == torch.float32 and torch.equal(x, torch.from_numpy(spins).float())
    assert np.array_equal(bits, kept)  # the caller's bits are never written to


def test_sampled_profile_on_long_strings_honours_batch_size():
    f = RecordingParity([0, 499])
    prof = sensitivity_profile(f, 500, method="sampled", n_samples=3, batch_size=32,
                               random_state=0)
    assert prof.counts[2] == 3 and prof.n_strings == 3
    assert max(shape[0] for shape in f.shapes) <= 32


def test_wilson_intervals_equal_scipys():
    from scipy import stats

    from skxor.sensitivity._profile import wilson_interval

    for n in [1, 2, 7, 100, 12345]:
        for confidence in [0.5, 0.95, 0.999]:
            counts = np.unique(np.clip([0, 1, 2, 5, n // 2, n - 1, n], 0, n))
            ref = [
                tuple(stats.binomtest(int(k), n).proportion_ci(confidence, method="wilson"))
                for k in counts
            ]
            assert np.array_equal(wilson_interval(counts, n, confidence), np.array(ref))


def test_split_and_whole_batches_give_the_same_profile():
    f = RandomFunction(10, random_state=3)
    kwargs = dict(method="sampled", n_samples=300, random_state=5)
    whole = sensitivity_profile(f, 10, batch_size=1 << 16, **kwargs)
    for batch_size in [1, 3, 10, 11, 12]:
        split = sensitivity_profile(f, 10, batch_size=batch_size, **kwargs)
        assert np.array_equal(split.counts, whole.counts)
        assert np.array_equal(split.flip_counts, whole.flip_counts)


def test_calls_hold_at_most_2_to_the_22_bits_whatever_batch_size():
    assert strings_per_call(1 << 16, 28) == 1 << 16  # exhaustive sizes unchanged
    assert strings_per_call(1 << 16, 100_000) == (1 << 22) // 100_000
    assert strings_per_call(5, 10**9) == 1


# -- what a callable receives (issue: uint8 bits wrapped round) ----------------------


def test_callable_gets_int64_that_cannot_wrap():
    # Before: uint8 bits, so 1 - 2 * (sum % 2) wrapped round to 255 / 2^64 - 1.
    prof = sensitivity_profile(lambda X: 1 - 2 * (X.sum(1) % 2), 4)
    assert prof.counts.tolist() == [0, 0, 0, 0, 16]
    seen = {}

    def spy(X):
        seen["dtype"], seen["contiguous"] = X.dtype, X.flags["C_CONTIGUOUS"]
        seen["values"] = set(np.unique(X).tolist())
        return X[:, 0]

    sensitivity_profile(spy, 5, method="sampled", n_samples=20, random_state=0)
    assert seen == {"dtype": np.int64, "contiguous": True, "values": {0, 1}}
    sensitivity_profile(spy, 5, input_encoding="pm1")
    assert seen["dtype"] == np.int64 and seen["values"] == {-1, 1}


def test_bad_label_error_names_the_value_and_the_input_string():
    def f(X):
        out = X[:, 0].copy()
        out[(X[:, 0] == 1) & (X[:, 1] == 1) & (X[:, 2] == 0)] = 7
        return out

    with pytest.raises(ValueError, match=r"returned non-binary labels \[7\] \(first: 7 for "
                       r"the input string \[110\] \(3 bits\)"):
        sensitivity_profile(f, 3)


# -- outputs at the decision boundary (issue 23) -------------------------------------


def _model_with_a_string_at_zero(n_bits, seed, index):
    """A BooleanTransformer whose read-out bias puts string ``index`` at about 0."""
    from skxor.boolean import all_strings
    from skxor.nn import BooleanTransformer

    model = BooleanTransformer(n_bits, d_model=16, n_heads=2, seed=seed)
    spins = BooleanTransformer.spins_from_bits(all_strings(n_bits))
    with torch.no_grad():
        model.unembed.bias -= model(spins)[index]
    return model


@pytest.mark.parametrize("seed", [0, 2])
def test_profile_of_an_output_at_zero_does_not_depend_on_batching(seed):
    # These two seeds gave two different exhaustive profiles for batch_size 1
    # and 1024 (and eval_batch_size 1 and 3) before the shared rule.
    model = _model_with_a_string_at_zero(10, seed, 37)
    profiles = [sensitivity_profile(model, 10, batch_size=b) for b in (1, 2, 1024)]
    for size in (1, 3):
        model.eval_batch_size = size
        profiles.append(sensitivity_profile(model, 10))
    for prof in profiles:
        np.testing.assert_array_equal(prof.counts, profiles[0].counts)
        assert prof.n_redecided >= 1  # string 37 at least
    sampled = [sensitivity_profile(model, 10, method="sampled", n_samples=300, batch_size=b,
                                   random_state=0) for b in (1, 4096)]
    np.testing.assert_array_equal(sampled[0].counts, sampled[1].counts)


def test_margin_profile_decides_outputs_at_the_margin_the_same_way():
    from skxor.sensitivity import margin_profile

    model = _model_with_a_string_at_zero(10, 0, 37)
    with torch.no_grad():
        model.unembed.bias += 0.25  # string 37 now sits at the margin 0.25
    model.margin = 0.25
    # Its outputs never fall below the band: read with the warning that says so.
    with pytest.warns(UserWarning, match="rejected no string"):
        first, second = (margin_profile(model, 10, batch_size=b) for b in (1, 1024))
    np.testing.assert_array_equal(first.counts, second.counts)
    assert first.n_undecided == second.n_undecided and first.n_redecided >= 1


def test_boolean_outputs_are_never_redecided():
    from skxor.boolean import Parity

    assert sensitivity_profile(Parity(6), 6).n_redecided == 0
    assert sensitivity_profile(lambda X: X[:, 0], 6).n_redecided == 0


def test_a_classifier_with_nan_outputs_is_refused():
    # Old code: the skxor classifier path read a NaN decision value as
    # "not classes_[1]" (the torch-module path already refused NaN).
    from skxor import BooleanTransformerClassifier

    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (64, 4))
    clf = BooleanTransformerClassifier(max_iter=1, random_state=0).fit(X, X[:, 0] ^ X[:, 1])
    with torch.no_grad():
        for p in clf.module_.parameters():
            p.fill_(float("nan"))
    with pytest.raises(ValueError, match="non-finite (outputs|weights)"):
        sensitivity_profile(clf, 4)


# -- one answer whatever the path: non-finite weights and outputs (issue 48, item 1) -------

#: Every path a torch module's profile can take: the one-layer exhaustive
#: scorer, the packed table on workers, the per-string table, the sampled
#: certificate and flip neighbours, and the sampled per-flip evaluation.
PATHS = [
    dict(method="exhaustive"),
    dict(method="exhaustive", n_jobs=2),
    dict(method="exhaustive", incremental=False),
    dict(method="sampled", n_samples=64, random_state=0),
    dict(method="sampled", n_samples=64, random_state=0, incremental=False),
]


@pytest.mark.parametrize("value", [float("nan"), float("inf")])
@pytest.mark.parametrize("where", ["layers.0.qkv.weight", "layers.0.mlp_out.weight"])
def test_a_non_finite_weight_is_refused_by_name_on_every_path(where, value):
    # Old code: a NaN query weight gave a finite exhaustive profile (torch's
    # fused attention returns finite outputs) while the sampled path refused
    # the model, and a NaN output weight crashed the sampled certificate with
    # an AttributeError.
    from skxor.nn import BooleanTransformer

    model = BooleanTransformer(8, d_model=16, n_layers=1, seed=0)
    with torch.no_grad():
        dict(model.named_parameters())[where].view(-1)[3] = value
    for path in PATHS:
        with pytest.raises(ValueError, match=rf"BooleanTransformer has non-finite weights "
                                             rf"\(NaN or inf\) in {where}; "):
            sensitivity_profile(model, 8, **path)


def test_a_classifier_with_a_nan_weight_is_refused_by_name():
    from skxor import BooleanTransformerClassifier

    X = np.random.default_rng(0).integers(0, 2, (64, 4))
    clf = BooleanTransformerClassifier(max_iter=1, random_state=0).fit(X, X[:, 0] ^ X[:, 1])
    with torch.no_grad():
        clf.module_.layers[0].qkv.bias[0] = float("nan")
    for method in ("exhaustive", "sampled"):
        with pytest.raises(ValueError, match="BooleanTransformerClassifier has non-finite "
                                             "weights .* in layers.0.qkv.bias"):
            sensitivity_profile(clf, 4, method=method, n_samples=32, random_state=0)


def test_a_user_modules_infinite_buffer_is_its_own_business():
    # A mask buffer of -inf is how user modules mask attention: not refused.
    class Masked(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("mask", torch.tensor([0.0, -float("inf")]))
            self.w = torch.nn.Parameter(torch.ones(4))

        def forward(self, x):
            return x @ self.w + torch.softmax(self.mask, 0)[1]

    # Spins 1 - 2b sum to 4 - 2 popcount: the label is "fewer than two ones".
    expected = sensitivity_profile(lambda X: (X.sum(axis=1) < 2).astype(int), 4)
    np.testing.assert_array_equal(sensitivity_profile(Masked(), 4, input_encoding="pm1").counts, expected.counts)


def test_non_finite_outputs_of_finite_weights_get_one_error_on_every_path():
    # Old code: the sampled certificate said "The model returned non-finite
    # outputs ... for 64 of 64 strings", every other path named the model.
    from skxor.nn import BooleanTransformer

    model = BooleanTransformer(8, d_model=16, n_layers=1, seed=0)
    with torch.no_grad():
        model.layers[0].mlp_out.weight.mul_(1e37)  # inf - inf: NaN outputs
        model.unembed.weight.mul_(1e30)
    for path in PATHS:
        with pytest.raises(ValueError, match=r"^BooleanTransformer returned non-finite "
                                             r"outputs \(NaN or inf\); its predicted label"):
            sensitivity_profile(model, 8, **path)
