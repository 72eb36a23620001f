"""Benchmark of FFNNParityBaseline's skorch loop against a hand-written one (target 5)."""

import torch

from skxor import FFNNParityBaseline
from skxor.datasets import make_sparse_parity
from skxor.nn import TwoLayerNetwork

from _common import best_time, size


def hand_written_fit(X, y, width, epochs, batch_size, lr, seed):
    """The baseline: the same module, loss, optimiser, batches and epochs, by hand."""
    torch.manual_seed(seed)
    spins = torch.as_tensor(X, dtype=torch.float32)
    target = torch.as_tensor((y + 1) / 2, dtype=torch.float32)
    module = TwoLayerNetwork(X.shape[1], width)
    optimizer = torch.optim.Adam(module.parameters(), lr=lr)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    n = spins.shape[0]
    for _ in range(epochs):
        order = torch.randperm(n)
        for start in range(0, n, batch_size):
            rows = order[start:start + batch_size]
            optimizer.zero_grad()
            loss = loss_fn(module(spins[rows]), target[rows])
            loss.backward()
            optimizer.step()
    return module


def target_5_vs_hand_written_loop(n=None, d=100, width=32, epochs=None, batch_size=128):
    n, epochs = n or size(20000, 2000), epochs or size(10, 2)
    X, y = make_sparse_parity(n, d, random_state=0)
    est = FFNNParityBaseline(width=width, max_iter=epochs, batch_size=batch_size,
                             learning_rate=0.01, random_state=0)
    ours = best_time(lambda: est.fit(X, y))
    base = best_time(lambda: hand_written_fit(X, y, width, epochs, batch_size, 0.01, 0))
    return {
        "benchmark": f"FFNN fit vs a hand-written torch loop (n={n}, d={d}, width={width}, "
                     f"{epochs} epochs, batch {batch_size})",
        "target": "<= 1.2x",
        "baseline_s": base, "skxor_s": ours, "ratio": ours / base,
        "passes": ours / base <= 1.2,
    }


BENCHMARKS = [target_5_vs_hand_written_loop]
