"""Sensitivity under a margin: accept / reject / undecided (Köver et al. 2026)."""

import contextlib
import warnings

import numpy as np
import pytest
import torch

from skxor.boolean import Majority, Parity, all_strings
from skxor.nn import BooleanTransformer
from skxor.sensitivity import margin_profile, sensitivity_profile
from skxor.sensitivity._margin import margin_counts


def brute_force(table, n_bits):
    """Per-string definition, evaluated neighbour by neighbour."""
    counts = np.zeros(n_bits + 1, dtype=np.int64)
    flips = np.zeros(n_bits, dtype=np.int64)
    band = np.zeros(n_bits, dtype=np.int64)
    for x in range(1 << n_bits):
        if table[x] == 0:
            continue
        s = 0
        for i in range(n_bits):
            y = table[x ^ (1 << i)]
            if table[x] * y == -1:
                s += 1
                flips[i] += 1
            elif y == 0:
                band[i] += 1
        counts[s] += 1
    return counts, flips, band


@pytest.mark.parametrize("n_bits", [1, 3, 7])
@pytest.mark.parametrize("seed", [0, 1])
def test_margin_counts_match_the_definition(n_bits, seed):
    table = np.random.default_rng(seed).integers(-1, 2, 1 << n_bits).astype(np.int8)
    expected = brute_force(table, n_bits)
    # chunk_bits below n_bits exercises the partner blocks outside a chunk.
    for chunk_bits in (2, 16):
        got = margin_counts(table, n_bits, chunk_bits=chunk_bits)
        for a, b in zip(got, expected):
            np.testing.assert_array_equal(a, b)
    # A table that rejects no string (n = 1: [0, 1], [1, 0]) is read with a warning
    # that 0 means undecided, not a Boolean label.
    rejects = (table == -1).any() or (table == 1).all()
    with contextlib.nullcontext() if rejects else pytest.warns(
            UserWarning, match="rejected no string"):
        prof = margin_profile(table, n_bits)
    assert prof.n_undecided == int((table == 0).sum())
    assert prof.counts.sum() == prof.n_decided
    assert prof.n_decided + prof.n_undecided == 1 << n_bits


def test_without_undecided_strings_it_is_the_ordinary_profile():
    table = Parity(5)(all_strings(5)).astype(np.int8)
    prof = margin_profile(2 * table - 1, 5)
    assert prof.n_undecided == 0
    assert prof.counts.tolist() == sensitivity_profile(Parity(5), 5).counts.tolist()


def test_undecided_strings_are_reported_not_classified():
    # MAJORITY of 5 with the middle counts (2 and 3 ones) undecided: no flip
    # can cross the band (one flip changes the count by one), so every decided
    # string has margin sensitivity 0, although MAJORITY itself flips there.
    bits = all_strings(5)
    ones = bits.sum(1)
    decisions = np.where(ones >= 4, 1, np.where(ones <= 1, -1, 0))
    prof = margin_profile(decisions, 5)
    assert prof.n_undecided == 20 and prof.undecided_fraction == 20 / 32
    assert prof.counts.tolist() == [12, 0, 0, 0, 0, 0]
    assert prof.flip_counts.sum() == 0
    # Each string with 1 or 4 ones has 4 or 1 neighbours in the band.
    assert prof.band_counts.sum() == 5 * 4 + 5 * 4
    assert sensitivity_profile(Majority(5), 5).counts[0] < 32


@pytest.mark.parametrize("readout", ["eos", "last"])
def test_transformer_with_zero_margin_matches_sensitivity_profile(readout):
    model = BooleanTransformer(7, d_model=8, n_layers=1, n_heads=2, readout=readout,
                               init="normal", seed=4)
    prof = margin_profile(model, 7)
    assert prof.n_undecided == 0
    assert prof.counts.tolist() == sensitivity_profile(model, 7).counts.tolist()


def test_transformer_margin_profile_uses_its_decisions():
    model = BooleanTransformer(6, d_model=8, n_layers=1, n_heads=2, readout="eos",
                               init="normal", seed=0)
    spins = BooleanTransformer.spins_from_bits(all_strings(6))
    out = model(spins).detach().numpy()
    model.margin = float(np.quantile(np.abs(out), 0.3))
    table = model.decide(spins).numpy()
    prof = margin_profile(model, 6, batch_size=16)  # several blocks
    assert prof.margin == model.margin
    assert prof.n_undecided == int((np.abs(out) < model.margin).sum()) > 0
    expected = brute_force(table, 6)
    np.testing.assert_array_equal(prof.counts, expected[0])
    np.testing.assert_array_equal(prof.band_counts, expected[2])


@pytest.mark.parametrize(
    "f, error, match",
    [
        (np.zeros(7, dtype=np.int8), ValueError, "length"),
        (np.full(8, 2), ValueError, r"values \[2\]"),
        (lambda X: X.sum(1) * 1.5, ValueError, "decisions -1"),
        (lambda X: X[:2, 0], ValueError, "one decision per string"),
        (torch.nn.Linear(3, 1), TypeError, "no decide method"),
        ("abc", TypeError, "f must be"),
    ],
)
def test_bad_input_is_a_clear_error(f, error, match):
    with pytest.raises(error, match=match):
        margin_profile(f, 3)


def test_too_many_bits_and_bad_batch_size():
    with pytest.raises(ValueError, match="N <= 28"):
        margin_profile(lambda X: np.ones(len(X)), 29)
    with pytest.raises(ValueError, match="batch_size"):
        margin_profile(lambda X: np.ones(len(X)), 3, batch_size=0)


# -- Boolean outputs (issue 23) ----------------------------------------------------


@pytest.mark.parametrize("n_bits", [2, 4, 6])
def test_bool_outputs_are_boolean_values_as_in_sensitivity_profile(n_bits):
    for f in (lambda X: X[:, 0] == 1, lambda X: (X[:, 0] ^ X[:, 1]) == 1,
              lambda X: X.sum(axis=1) >= n_bits / 2):
        prof = margin_profile(f, n_bits)
        assert prof.n_undecided == 0
        assert prof.average == pytest.approx(sensitivity_profile(f, n_bits).average)
        np.testing.assert_array_equal(prof.counts, sensitivity_profile(f, n_bits).counts)
    table = np.array([False, True, True, False])  # a bool table: XOR
    assert margin_profile(table, 2).average == 2.0


def test_outputs_that_never_reject_warn_and_say_how_zeros_are_read():
    with pytest.warns(UserWarning, match=r"rejected no string .* left 8 of 16 undecided"):
        prof = margin_profile(lambda X: X[:, 0] ^ X[:, 1], 4)  # XOR as 0/1 labels
    assert prof.n_undecided == 8  # read as decisions, as the warning says
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        margin_profile(lambda X: 2 * (X[:, 0] ^ X[:, 1]) - 1, 4)  # -1/+1: no warning
        margin_profile(lambda X: np.ones(len(X), int), 3)  # accepts all: nothing undecided


def test_callables_get_bits_on_which_arithmetic_does_not_wrap():
    # 2 * X[:, 0] - 1 on uint8 bits gave 255 (refused as a decision).
    prof = margin_profile(lambda X: 2 * X[:, 0] - 1, 3)
    assert prof.n_undecided == 0 and prof.average == 1.0


@pytest.mark.parametrize("margin", [0.0, 0.1])
def test_nan_outputs_are_refused_not_read_as_decisions(margin):
    # Old code: NaN outputs became "rejected" (margin 0) or "undecided"
    # (margin 0.1) for every string, without a word; sensitivity_profile
    # refuses the same module.
    model = BooleanTransformer(n_bits=4, seed=0, margin=margin)
    with torch.no_grad():
        for p in model.parameters():
            p.fill_(float("nan"))
    with pytest.raises(ValueError, match="non-finite outputs"):
        margin_profile(model, 4)
