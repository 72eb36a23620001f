"""The flip-effect study (Köver et al.'s eps > 0 prediction): the cell against a brute-force
evaluation, the slope and its verdict at their boundaries."""

import numpy as np
import pytest
import torch

from skxor.papers.kover.flip_effect import (
    change_slope,
    flip_effect,
    flip_effect_cell,
    flip_slopes,
    slope_verdict,
    summarize_flip_effect,
)
from skxor.papers.kover.flip_effect._summary import ONE_OVER_N
from skxor.papers._common import key_seed
from skxor.papers.kover._networks import build_network, network_key


@pytest.mark.parametrize("n_bits, n_layers, eps", [(6, 1, 0.0), (9, 2, 0.01), (12, 1, 0.1)])
def test_cell_matches_forward_on_every_flipped_string(n_bits, n_layers, eps):
    n_samples = 5
    row = flip_effect_cell(n_bits, 8, n_layers, 2, eps, "uniform", 1.0, 3, 0, n_samples)
    # Brute force: the random-initialisation study's network for the same key, every
    # flipped string evaluated by forward in float64.
    model = build_network(n_bits, 8, n_layers, 2, eps, "uniform", 1.0, 3, 0).double()
    key = network_key(n_bits, 8, n_layers, 2, "uniform", 1.0, "eos", "sinusoidal", 3)
    g = torch.Generator().manual_seed(key_seed(0, 5, **key))
    spins = 1.0 - 2.0 * torch.randint(0, 2, (n_samples, n_bits), generator=g).double()
    flipped = spins[:, None, :].repeat(1, n_bits, 1)
    flipped[:, range(n_bits), range(n_bits)] *= -1
    with torch.no_grad():
        own = model(spins)
        out = model(flipped.reshape(-1, n_bits)).reshape(n_samples, n_bits)
    change = (out - own[:, None]).abs()
    assert row["flips"] == n_samples * n_bits
    assert row["flip_change_max"] == pytest.approx(float(change.max()), rel=1e-9, abs=1e-12)
    assert row["flip_change_median"] == pytest.approx(float(change.median()), rel=1e-9,
                                                      abs=1e-12)
    labels = torch.cat([own[:, None], out], dim=1) > 0
    assert row["sign_flips"] == int((labels[:, 1:] != labels[:, :1]).sum())
    assert row["constant"] == bool(labels.all() or not labels.any())


def test_eps_is_paired_and_changes_only_the_norm():
    """The same weights at each eps: eps = 0 and a tiny eps give almost the same changes."""
    a = flip_effect_cell(16, 8, 1, 2, 0.0, "uniform", 1.0, 1, 0, 4)
    b = flip_effect_cell(16, 8, 1, 2, 1e-12, "uniform", 1.0, 1, 0, 4)
    c = flip_effect_cell(16, 8, 1, 2, 0.0, "uniform", 1.0, 2, 0, 4)  # another seed
    assert a["flip_change_max"] == pytest.approx(b["flip_change_max"], rel=1e-6)
    assert a["flip_change_max"] != pytest.approx(c["flip_change_max"], rel=1e-3)


def test_change_slope_recovers_a_power_law_and_counts_zero_changes_apart():
    n = np.repeat([8, 16, 32, 64, 128], 10)
    rng = np.random.default_rng(0)
    change = 3.0 * n ** -1.5 * np.exp(0.2 * rng.standard_normal(n.size))
    change[0] = 0.0
    fit = change_slope(n, change)
    assert fit["slope"] == pytest.approx(-1.5, abs=0.1)
    assert fit["low"] < fit["slope"] < fit["high"] and fit["high"] - fit["low"] < 0.3
    assert fit["networks"] == n.size - 1 and fit["zero"] == 1
    wider = change_slope(n, change, confidence=0.99)
    assert wider["low"] < fit["low"] and wider["high"] > fit["high"]


def test_change_slope_needs_two_lengths():
    fit = change_slope([8, 8, 8], [0.1, 0.2, 0.3])
    assert np.isnan(fit["slope"]) and np.isnan(fit["low"])


@pytest.mark.parametrize("low, high, verdict", [
    (-1.0, -0.01, "reproduced"),          # reaches -1 exactly, below 0
    (-3.0, -2.0, "reproduced"),           # faster than 1/N is within O(1/N)
    (-1.0 + 1e-9, -0.5, "not reproduced"),  # just above -1: slower than 1/N
    (-0.2, 0.3, "not reproduced"),        # not shrinking
    (-1.5, 0.0, "inconclusive"),          # reaches -1 and 0
    (float("nan"), float("nan"), "inconclusive"),
])
def test_slope_verdict_at_its_boundaries(low, high, verdict):
    assert ONE_OVER_N == -1.0
    assert slope_verdict(low, high) == verdict


def test_quick_run_summary_and_slopes_cover_every_setting():
    df = flip_effect(n_bits=[8, 16], layer_norm_eps=[0.0, 0.1], seeds=3, n_samples=4)
    summary = summarize_flip_effect(df)
    assert len(summary) == 4 and (summary["networks"] == 3).all()
    assert (summary["max_q25"] <= summary["max_median"]).all()
    assert (summary["max_median"] <= summary["max_q75"]).all()
    fits = flip_slopes(df)
    assert fits["layer_norm_eps"].tolist() == [0.0, 0.1]
    assert (fits["networks"] == 6).all()
