"""Exhaustive profiles on a bit-packed truth table (issue 36.2) and on joblib workers (36.3).

The word-operation count must equal the byte-per-string count on every
table; the packed path (taken beyond N = 28, or with ``n_jobs``) must give
the profile of the byte path.
"""

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from sklearn.base import BaseEstimator
from hypothesis import strategies as st

from skxor._utils._evaluate import ModelEvaluator
from skxor.boolean import Majority, Parity
from skxor.nn import BooleanTransformer
from skxor.sensitivity import sensitivity_profile
from skxor.sensitivity._packed import pack_labels, packed_counts, packed_truth_table
from skxor.sensitivity._profile import exhaustive_counts


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(n_bits=st.integers(6, 14), density=st.sampled_from([0.0, 0.01, 0.3, 0.5, 0.97, 1.0]),
       chunk_bits=st.integers(0, 6), seed=st.integers(0, 2**16))
def test_word_counts_equal_byte_counts(n_bits, density, chunk_bits, seed):
    table = (np.random.default_rng(seed).random(1 << n_bits) < density).astype(np.uint8)
    counts, flips = packed_counts(pack_labels(table), n_bits, chunk_words=1 << chunk_bits)
    expected_counts, expected_flips = exhaustive_counts(table, n_bits)
    np.testing.assert_array_equal(counts, expected_counts)
    np.testing.assert_array_equal(flips, expected_flips)


@pytest.mark.parametrize("f, counts", [(Parity(8), [0] * 8 + [256]),
                                       (Majority(7), [58, 0, 0, 0, 70, 0, 0, 0])])
def test_word_counts_of_known_functions(f, counts):
    table = ModelEvaluator(f, f.n_bits).truth_table()
    assert packed_counts(pack_labels(table), f.n_bits)[0].tolist()[: len(counts)] == counts


def test_a_packed_table_of_the_wrong_size_is_refused():
    with pytest.raises(ValueError, match="2\\^\\(N - 6\\) words"):
        packed_counts(np.zeros(3, dtype=np.uint64), 8)


def test_beyond_the_byte_table_the_packed_path_gives_the_same_profile(monkeypatch):
    model = BooleanTransformer(11, d_model=16, n_layers=1, readout="cls", init="normal",
                               layer_norm_eps=0.0, seed=6)
    byte = sensitivity_profile(model, 11, method="exhaustive")
    # As if N = 11 were beyond the byte table's limit (N > 28 takes this path).
    monkeypatch.setattr("skxor.sensitivity._profile.EXHAUSTIVE_MAX_BITS", 10)
    packed = sensitivity_profile(model, 11, method="exhaustive")
    np.testing.assert_array_equal(packed.counts, byte.counts)
    np.testing.assert_array_equal(packed.flip_counts, byte.flip_counts)
    assert 0 < packed.counts[0] < 2**11


def test_the_limit_is_32_bits():
    with pytest.raises(ValueError, match="limited to N <= 32"):
        sensitivity_profile(lambda X: X[:, 0], 33, method="exhaustive")


@pytest.mark.parametrize("n_jobs", [1, 2])
@pytest.mark.parametrize("fast", [True, False])
def test_workers_build_the_table_of_one_process(n_jobs, fast):
    model = BooleanTransformer(10, d_model=8, n_layers=1, n_heads=2, readout="last",
                               init="normal", seed=1)
    table = ModelEvaluator(model, 10).truth_table(fast=False)
    assert 0 < table.sum() < 2**10  # not constant
    expected = pack_labels(table)
    evaluator = ModelEvaluator(model, 10)
    words = packed_truth_table(evaluator, batch_size=128, fast=fast, n_jobs=n_jobs, slab_bits=7)
    np.testing.assert_array_equal(words, expected)


def test_n_jobs_gives_the_same_profile():
    model = BooleanTransformer(12, d_model=16, n_layers=2, readout="eos", init="normal", seed=6)
    one = sensitivity_profile(model, 12, method="exhaustive")
    assert 0 < one.counts[0] < 2**12  # not constant
    two = sensitivity_profile(model, 12, method="exhaustive", n_jobs=2)
    np.testing.assert_array_equal(one.counts, two.counts)
    np.testing.assert_array_equal(one.flip_counts, two.flip_counts)


@pytest.mark.parametrize("register", ["register_module_forward_hook",
                                      "register_module_forward_pre_hook"])
def test_a_hook_for_every_module_keeps_n_jobs_in_the_calling_process(register):
    # Old code: the workers evaluated the model without the hook, which only
    # the calling process had ([1024, 0, ...] against [107, 692, 54, ...]).
    model = BooleanTransformer(10, d_model=8, n_layers=1, n_heads=2, readout="last",
                               init="normal", seed=1)

    def hook(module, inputs, *out):
        if not isinstance(module, BooleanTransformer):
            return None
        if out:  # after forward: shift the output
            return out[0] + 0.1
        spins = inputs[0].clone()
        spins[:, 3] = 1.0  # before forward: pin bit 3
        return (spins,)

    handle = getattr(torch.nn.modules.module, register)(hook)
    try:
        one = sensitivity_profile(model, 10, method="exhaustive")
        with pytest.warns(UserWarning, match=r"n_jobs=2 is ignored: .* a forward hook "
                                             rf"registered for every module \({register}\)"):
            two = sensitivity_profile(model, 10, method="exhaustive", n_jobs=2)
    finally:
        handle.remove()
    plain = sensitivity_profile(model, 10, method="exhaustive")
    assert not np.array_equal(one.counts, plain.counts)  # the hook changes the profile
    np.testing.assert_array_equal(one.counts, two.counts)
    np.testing.assert_array_equal(one.flip_counts, two.flip_counts)


class _Thresholded(BaseEstimator):
    """A fitted estimator of binarized inputs whose threshold is not in [0, 1): the
    evaluator presents bit b as ``3 + b`` (see skxor._utils._evaluate)."""

    def __init__(self):
        self.encoding_, self.binarize = "binarized", 3.0
        self.classes_, self.n_features_in_ = np.array([0, 1]), 8

    def fit(self, X, y):
        return self

    def predict(self, X):
        X = np.asarray(X)
        return ((X[:, 0] > 3.0) ^ (X[:, 1] > 3.0) | (X[:, 2] > 3.0)).astype(int)


def test_workers_present_strings_as_the_evaluator_does():
    from joblib import parallel_config

    local = sensitivity_profile(_Thresholded(), 8, method="exhaustive")
    assert local.counts[0] < 2**8  # read with the shift: not constant
    with parallel_config(backend="threading"):
        workers = sensitivity_profile(_Thresholded(), 8, method="exhaustive", n_jobs=2)
    np.testing.assert_array_equal(workers.counts, local.counts)


def _at_threshold(N=10, seed=5):
    """A one-layer model whose read-out bias puts one string's output at 0 (to rounding)."""
    import torch

    from skxor._utils._bits import index_to_bits

    spins = torch.from_numpy(1.0 - 2.0 * index_to_bits(np.arange(1 << N), N))
    kwargs = dict(d_model=8, n_layers=1, n_heads=2, readout="last", init="normal", seed=seed)
    model = BooleanTransformer(N, **kwargs)
    with torch.no_grad():
        outputs = BooleanTransformer(N, **kwargs).double()(spins)
        model.unembed.bias -= float(outputs[37])
    return model


def _spin_product(X):
    """Bits 0 and 1 equal, read on spins (as 0/1 bits the same rule is their AND)."""
    return X[:, 0] * X[:, 1] > 0


@pytest.mark.parametrize("make, encoding", [(_at_threshold, None), (lambda: _spin_product, "pm1")])
def test_slabs_on_threads_give_the_words_and_redecisions_of_one_process(make, encoding):
    """Several slabs, several blocks per slab, on joblib's threading backend (which mutation
    runs can follow, unlike process workers): the words, the encoding asked for, and the
    outputs decided one string at a time, added to what the evaluator had counted before."""
    from joblib import parallel_config

    model = make()
    expected = pack_labels(ModelEvaluator(model, 10, encoding).truth_table(fast=False))
    one = ModelEvaluator(model, 10, encoding)
    words = packed_truth_table(one, batch_size=64, slab_bits=7)
    np.testing.assert_array_equal(words, expected)
    threads = ModelEvaluator(model, 10, encoding)
    threads.n_redecided = 5
    with parallel_config(backend="threading"):
        words = packed_truth_table(threads, batch_size=64, n_jobs=2, slab_bits=7)
    np.testing.assert_array_equal(words, expected)
    assert words.dtype == np.dtype("<u8") and words.size == 2**10 // 64
    if encoding is None:  # the one-layer path, its outputs at 0 re-decided
        assert one.n_redecided >= 1
    else:  # read as spins: XNOR of bits 0 and 1, not their AND
        assert np.unpackbits(words.view(np.uint8), bitorder="little").mean() == 0.5
    assert threads.n_redecided == 5 + one.n_redecided


def test_labels_pack_little_endian_into_64_bit_words():
    labels = np.zeros(128, dtype=np.uint8)
    labels[[0, 9, 64, 127]] = 1
    words = pack_labels(labels)
    assert words.dtype == np.dtype("<u8")
    assert words.tolist() == [1 + 2**9, 1 + 2**63]


def test_word_counts_are_int64():
    words = pack_labels((np.arange(2**8) % 3 == 0).astype(np.uint8))
    counts, flips = packed_counts(words, 8)
    assert counts.dtype == np.int64 and flips.dtype == np.int64
    expected = exhaustive_counts((np.arange(2**8) % 3 == 0).astype(np.uint8), 8)
    np.testing.assert_array_equal(counts, expected[0])
    np.testing.assert_array_equal(flips, expected[1])


def test_reference_passes_on_threads_leave_the_fused_kernel_switch_as_found():
    # Old code: each pass restored the value it found, so a thread that
    # entered while another had the switch off restored "off" last, and the
    # fused kernel stayed off for the rest of the process (a later test of
    # the fast path failed after the threaded slab test).
    import threading

    from skxor._utils._decisions import _reference_kernels

    first_in, second_in, first_out = (threading.Event() for _ in range(3))

    def first():
        with _reference_kernels():
            first_in.set()
            second_in.wait()
        first_out.set()

    def second():
        first_in.wait()
        with _reference_kernels():  # finds the switch off
            second_in.set()
            first_out.wait()  # and leaves last

    assert torch.backends.mha.get_fastpath_enabled()
    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    enabled = torch.backends.mha.get_fastpath_enabled()
    torch.backends.mha.set_fastpath_enabled(True)  # for the tests that follow, either way
    assert enabled
