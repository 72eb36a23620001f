"""Cost per sampled string of the random-network studies' profiles, incremental vs per-flip.

    python benchmarks/study_costs.py                 # the grid below, one thread
    python benchmarks/study_costs.py --n-bits 128 1024 --d-model 8 64 --n-layers 1 2

The random-initialisation and zero-sensitivity-bound studies profile random
:class:`~skxor.nn.BooleanTransformer` networks (eos read-out, sinusoidal
positions, 2 heads, uniform init) from sampled strings at N >= 32; their
cost is that of the sampled strings. This script times, on one thread and by
CPU time, a sampled profile of a few strings with the default incremental
path and (where ``--per-flip-max`` allows) with ``incremental=False``, and
prints the CPU seconds per string; the studies' cost estimates in
docs/benchmarks.rst are these figures times the presets' string counts.
"""

import argparse
import os
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skxor.nn import BooleanTransformer  # noqa: E402
from skxor.sensitivity import sensitivity_profile  # noqa: E402


def per_string(model, n_bits, n_strings, incremental):
    start = time.process_time()
    sensitivity_profile(model, n_bits, method="sampled", n_samples=n_strings, random_state=0,
                        incremental=incremental)
    return (time.process_time() - start) / n_strings


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-bits", type=int, nargs="+", default=[128, 256, 1024])
    parser.add_argument("--d-model", type=int, nargs="+", default=[8, 16, 32, 64])
    parser.add_argument("--n-layers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--budget", type=float, default=20.0,
                        help="CPU seconds per timed side (the string count adapts)")
    parser.add_argument("--per-flip-max", type=float, default=5.0,
                        help="time the per-flip path only where one string costs less")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    print(f"load average at start: {os.getloadavg()}")
    print("N,D,L,incremental_s_per_string,per_flip_s_per_string,ratio,strings")
    for n_bits in args.n_bits:
        for d_model in args.d_model:
            for n_layers in args.n_layers:
                model = BooleanTransformer(n_bits, d_model, n_layers, 2, init="uniform",
                                           readout="eos", positional="sinusoidal",
                                           layer_norm_eps=0.0, seed=0).eval()
                probe = per_string(model, n_bits, 1, True)
                n_strings = max(1, min(200, int(args.budget / max(probe, 1e-4))))
                fast = per_string(model, n_bits, n_strings, True)
                slow = float("nan")
                if fast * (n_bits / 8 if n_layers == 1 else 3) < args.per_flip_max:
                    slow = per_string(model, n_bits, max(1, n_strings // 10), False)
                print(f"{n_bits},{d_model},{n_layers},{fast:.4g},{slow:.4g},"
                      f"{slow / fast:.3g},{n_strings}", flush=True)
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
