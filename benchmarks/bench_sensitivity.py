"""Benchmarks of exhaustive sensitivity profiling (target 4)."""

import numpy as np
import torch

from skxor.boolean import all_strings
from skxor.nn import BooleanTransformer
from skxor.sensitivity import sensitivity_profile

from _common import best_time, subprocess_peak_rss


def _model(n_bits):
    return BooleanTransformer(n_bits, d_model=64, n_layers=2, seed=0).eval()


def _all_spins(n_bits):
    return torch.as_tensor(1.0 - 2.0 * all_strings(n_bits), dtype=torch.float32)


def per_flip_profile(model, n_bits, chunk=1 << 14, n_strings=None):
    """The baseline: evaluate each string and each of its N flips with the model.

    ``n_strings`` limits the work to the first strings (the cost is linear in
    their number, so the benchmark times a fraction and scales it up).
    """
    counts = np.zeros(n_bits + 1, dtype=np.int64)
    spins = _all_spins(n_bits)[:n_strings]
    with torch.no_grad():
        for start in range(0, spins.shape[0], chunk):
            x = spins[start:start + chunk]
            flipped = x.unsqueeze(1).repeat(1, n_bits, 1)  # (c, N, N)
            idx = torch.arange(n_bits)
            flipped[:, idx, idx] *= -1
            f0 = model(x) > 0
            f1 = model(flipped.reshape(-1, n_bits)).reshape(-1, n_bits) > 0
            s = (f1 != f0[:, None]).sum(dim=1)
            counts += np.bincount(s.numpy(), minlength=n_bits + 1)
    return counts


def target_4_exhaustive_profile(n_bits=20, fraction_bits=5):
    model = _model(n_bits)
    spins = _all_spins(n_bits)

    def one_evaluation():
        with torch.no_grad():
            return model(spins)

    small = _model(12)
    np.testing.assert_array_equal(  # the same answer as the per-flip baseline
        sensitivity_profile(small, 12, method="exhaustive").counts, per_flip_profile(small, 12)
    )
    # Each side runs once: one evaluation of this model at N = 20 takes minutes.
    evaluation = best_time(one_evaluation, repeat=1)
    ours = best_time(lambda: sensitivity_profile(model, n_bits, method="exhaustive"), repeat=1)
    part = 2 ** (n_bits - fraction_bits)
    per_flip = 2**fraction_bits * best_time(
        lambda: per_flip_profile(model, n_bits, n_strings=part), repeat=1
    )
    return [
        {
            "benchmark": f"exhaustive profile vs one batched evaluation (BooleanTransformer L=2 D=64, N={n_bits})",
            "target": "<= 1.25x",
            "baseline_s": evaluation, "skxor_s": ours, "ratio": ours / evaluation,
            "passes": ours / evaluation <= 1.25,
        },
        {
            "benchmark": f"exhaustive profile vs batched per-flip evaluation (N={n_bits})",
            "target": ">= 15x faster",
            "baseline_s": per_flip, "skxor_s": ours, "ratio": per_flip / ours,
            "passes": per_flip / ours >= 15,
            "note": f"per-flip timed on 1/{2**fraction_bits} of the strings and scaled",
        },
    ]


def target_4_memory(memory_bits=24):
    # Memory is the engine's (truth table, index blocks, one chunk of
    # activations), not the width's: a small model keeps N = 24 to minutes.
    setup = (
        "from skxor.nn import BooleanTransformer\n"
        "from skxor.sensitivity import sensitivity_profile\n"
        f"big = BooleanTransformer({memory_bits}, d_model=16, n_layers=2, seed=0).eval()"
    )
    work = f"sensitivity_profile(big, {memory_bits}, method='exhaustive')"
    with_work = subprocess_peak_rss(setup, work)
    baseline = subprocess_peak_rss(setup)
    increase = with_work - baseline
    return {
        "benchmark": f"peak memory of an exhaustive profile at N={memory_bits} (BooleanTransformer L=2 D=16)",
        "target": "<= 1 GB",
        "baseline_s": float("nan"), "skxor_s": float("nan"),
        "ratio": increase / 1e9, "passes": increase <= 1e9,
        "note": f"peak RSS of a fresh process {with_work / 2**20:.0f} MiB with the profile, "
                f"{baseline / 2**20:.0f} MiB without",
    }


BENCHMARKS = [target_4_exhaustive_profile, target_4_memory]
