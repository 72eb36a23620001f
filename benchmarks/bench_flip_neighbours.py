"""Benchmarks of exact flip neighbours: sampled profiles of long strings (P12-P14).

A sampled profile evaluates each string and its N single-bit flips. The
models' ``flip_neighbours`` evaluate the flips from the string's own
evaluation; the per-flip path (``incremental=False``) calls the model on
every flipped string. Each benchmark first checks that both paths give the
same profile on the strings it times (or on a sample of them), then times
them side by side in this process.
"""

import numpy as np
import torch
from threadpoolctl import threadpool_limits

from skxor import SparseXORTransformer
from skxor.datasets import make_sparse_parity
from skxor.nn import BooleanTransformer
from skxor.sensitivity import sensitivity_profile

from _common import interleaved_best, interleaved_rounds, ratio_row, size, spread_text


def _strings(n_strings, n_bits, random_state=0):
    """The strings a sampled profile with this random_state draws (same generator, same call)."""
    rng = np.random.RandomState(random_state)
    return rng.randint(0, 2, size=(n_strings, n_bits), dtype=np.uint8)


def _same_profile(a, b):
    return np.array_equal(a.counts, b.counts) and np.array_equal(a.flip_counts, b.flip_counts)


def _both_paths(model, n_bits, n_samples):
    """Best time of the per-flip and incremental sampled profiles, run side by side;
    both must give the same profile."""
    kwargs = dict(method="sampled", n_samples=n_samples, random_state=0)
    profiles = {}

    def run(incremental):
        profiles[incremental] = sensitivity_profile(model, n_bits, incremental=incremental,
                                                    **kwargs)

    best = interleaved_best({"per_flip": lambda: run(False), "incremental": lambda: run(True)},
                            repeat=1)
    assert _same_profile(profiles[True], profiles[False])
    return best


def p12_sparse_xor_sampled_profile(d=None, n_strings=None, per_flip_d=None):
    """P12: sampled profile of the sparse-XOR model at d = N = 10^5 vs one decision_function."""
    d = d or size(100_000, 5_000)
    n_strings = n_strings or size(100, 20)
    per_flip_d = per_flip_d or size(10_000, 2_000)
    X, y = make_sparse_parity(400, d, random_state=0)
    clf = SparseXORTransformer(m=16, random_state=0).fit(X, y)
    strings = 1 - 2 * _strings(n_strings, d).astype(np.int8)  # the profile's strings, as spins
    kwargs = dict(method="sampled", n_samples=n_strings, random_state=0)
    # numpy's BLAS on as many threads as torch's: with its default of one per
    # core, a 10^5-entry dot product waited up to 12 ms for a busy core here.
    with threadpool_limits(torch.get_num_threads(), user_api="blas"):
        best = interleaved_best({
            "decision_function": lambda: clf.decision_function(strings),
            "profile": lambda: sensitivity_profile(clf, d, **kwargs),
        }, repeat=10)
    ratio = best["profile"] / best["decision_function"]
    # The per-flip path costs d evaluations per string: it is timed on one
    # string at a shorter length, against the incremental path there, and
    # both paths must give the same profile.
    small = SparseXORTransformer(m=16, random_state=0).fit(
        *make_sparse_parity(400, per_flip_d, random_state=1))
    paths = _both_paths(small, per_flip_d, n_samples=1)
    return {
        "benchmark": f"P12 sampled profile of the sparse-XOR model vs one decision_function of "
                     f"its strings (d=N={d}, {n_strings} strings, m=16, 2 heads)",
        "target": "<= 3x",
        "baseline_s": best["decision_function"], "skxor_s": best["profile"], "ratio": ratio,
        "passes": ratio <= 3,
        "note": f"numpy's BLAS on {torch.get_num_threads()} thread(s) as torch; per-flip path "
                f"(incremental=False) at d={per_flip_d} on one string: "
                f"{paths['per_flip']:.3g} s, {paths['per_flip'] / paths['incremental']:.0f}x "
                f"the incremental path there (same profile)",
    }


def _transformer(n_bits, n_layers):
    return BooleanTransformer(n_bits, d_model=64, n_layers=n_layers, n_heads=4, readout="eos",
                              seed=0).eval()


def p13_boolean_transformer_one_layer(n_bits=None, n_strings=None, per_flip_strings=None):
    """P13: sampled profile of a one-layer BooleanTransformer vs one forward pass of its strings."""
    n_bits = n_bits or size(1024, 128)
    n_strings = n_strings or size(200, 20)
    per_flip_strings = per_flip_strings or size(2, 4)
    model = _transformer(n_bits, 1)
    spins = torch.from_numpy(1.0 - 2.0 * _strings(n_strings, n_bits)).float()
    kwargs = dict(method="sampled", random_state=0)
    fast = sensitivity_profile(model, n_bits, n_samples=per_flip_strings, **kwargs)
    slow = sensitivity_profile(model, n_bits, n_samples=per_flip_strings, incremental=False,
                               **kwargs)
    assert _same_profile(fast, slow)

    def forward():
        with torch.no_grad():
            return model(spins)

    times = interleaved_rounds({
        "forward": forward,
        "profile": lambda: sensitivity_profile(model, n_bits, n_samples=n_strings, **kwargs),
    })
    row = ratio_row(times["profile"], times["forward"])
    per_flip = interleaved_rounds({"per_flip": lambda: sensitivity_profile(
        model, n_bits, n_samples=per_flip_strings, incremental=False, **kwargs)},
        rounds=1)["per_flip"][0] * n_strings / per_flip_strings
    return {
        "benchmark": f"P13 sampled profile of BooleanTransformer vs one forward pass of its "
                     f"strings (L=1, D=64, 4 heads, eos, N={n_bits}, {n_strings} strings)",
        "target": "<= 3x", **row, "passes": row["ratio"] <= 3,
        "note": f"{spread_text(row)}; per-flip path (incremental=False): {per_flip:.3g} s, "
                f"timed on {per_flip_strings} strings and scaled, "
                f"{per_flip / row['skxor_s']:.1f}x the incremental profile; the same profile "
                "on those strings both ways",
    }


def p14_boolean_transformer_two_layers(n_bits=None, n_strings=None, timed_strings=None):
    """P14: the same profile with L = 2, incremental vs the per-flip path."""
    n_bits = n_bits or size(1024, 128)
    n_strings = n_strings or size(200, 20)
    timed_strings = timed_strings or size(2, 2)
    model = _transformer(n_bits, 2)
    best = _both_paths(model, n_bits, n_samples=timed_strings)
    ratio = best["per_flip"] / best["incremental"]
    scale = n_strings / timed_strings
    return {
        "benchmark": f"P14 sampled profile of BooleanTransformer, incremental vs per-flip "
                     f"(L=2, D=64, 4 heads, eos, N={n_bits}, {n_strings} strings)",
        "target": ">= 2x faster",
        "baseline_s": best["per_flip"] * scale, "skxor_s": best["incremental"] * scale,
        "ratio": ratio, "passes": ratio >= 2,
        "note": f"timed on {timed_strings} of the {n_strings} strings and scaled x{scale:.3g} "
                "(the cost is linear in the number of strings); the same profile both ways",
    }


BENCHMARKS = [
    p12_sparse_xor_sampled_profile,
    p13_boolean_transformer_one_layer,
    p14_boolean_transformer_two_layers,
]
